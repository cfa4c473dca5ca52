/* fuzz_tflite.c — libFuzzer target for the .tflite reader (graphs/tflite.c
 * over graphs/flatbuf.c): any bytes, read as a model and, when that
 * succeeds, turned into a problem. The reader must refuse bad input with a
 * status and one line, never crash, hang or read out of bounds (ASan and
 * UBSan watch). The first byte picks the subgraph (0-3) so FILE#N is
 * covered; the rest is the file. Seeds: tests/fuzz/corpus/tflite (a model
 * from tests/tflite_writer.c) and, when fetched, models/. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/tflite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint32_t sub = data[0] & 3u;
    /* a copy of exactly the file's bytes, so ASan sees any read past it */
    unsigned char *file = malloc(size - 1 ? size - 1 : 1);
    if (!file)
        return 0;
    if (size > 1)
        memcpy(file, data + 1, size - 1);
    struct arena_graph g;
    struct arena_tflite_info info;
    char err[256];
    int rc = arena_tflite_read(file, size - 1, "fuzz.tflite", sub, &g, &info, err, sizeof err);
    if (rc == ARENA_OK) {
        struct arena_problem p;
        if (arena_graph_problem(&g, 16, &p, NULL, err, sizeof err) == ARENA_OK) {
            if (p.n != info.planned)
                abort(); /* every planned tensor is in the problem */
            free((void *)p.tensors);
        }
        arena_graph_free(&g);
    } else if (memchr(err, '\n', strnlen(err, sizeof err)) || strncmp(err, "fuzz.tflite: ", 13)) {
        abort(); /* an error is one line naming the file */
    }
    free(file);
    return 0;
}
