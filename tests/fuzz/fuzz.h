/* fuzz.h — what the libFuzzer targets in tests/fuzz share: the entry point's
 * prototype, a FILE over the input bytes, and a check that aborts (libFuzzer
 * then saves the input as a crash). Built only with -Dfuzz=true (clang). */
#ifndef ARENA_FUZZ_H
#define ARENA_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts with the property that failed. */
#define FUZZ_REQUIRE(cond, ...)                                                  \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "%s:%d: property failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                        \
            fputc('\n', stderr);                                                 \
            abort();                                                             \
        }                                                                        \
    } while (0)

/* A read-only stream over the bytes (fmemopen refuses size 0: /dev/null). */
static inline FILE *fuzz_stream(const uint8_t *data, size_t size)
{
    if (size == 0)
        return fopen("/dev/null", "rb");
    return fmemopen((void *)(uintptr_t)data, size, "rb");
}

/* A failed reader left one line: non-empty, no line break. */
static inline void fuzz_require_one_line(int rc, const char *err)
{
    FUZZ_REQUIRE(rc < 0, "rc %d", rc);
    FUZZ_REQUIRE(err[0] != '\0', "rc %d with no message", rc);
    FUZZ_REQUIRE(!strchr(err, '\n') && !strchr(err, '\r'), "message spans lines: %s", err);
}

#endif
