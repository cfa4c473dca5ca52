/* status.h — the one status code every arenabench layer returns.
 * 0 is success, errors are negative; results travel through out-parameters.
 * Library code never prints: callers turn a code into text with
 * arena_strerror() and add the where (file, line, field) themselves. */
#ifndef ARENA_STATUS_H
#define ARENA_STATUS_H

#include "arenabench/planner.h"

/* enum arena_status, the codes a planner may return, is part of the planner
 * contract (include/arenabench/planner.h); these are arenabench's own,
 * returned by its layers and never by a planner. */
enum arena_status_own {
    ARENA_EFORMAT = -4,   /* malformed input text */
    ARENA_EIO = -5,       /* a file could not be read or written */
    ARENA_ECONFLICT = -6, /* a plan puts two conflicting tensors on one byte */
    ARENA_ENOTFOUND = -7, /* no such planner, family, key or record */
    ARENA_EDB = -8,       /* the results database refused or is not ours */
};

/* Never NULL; a static string for every value, "unknown status" otherwise. */
const char *arena_strerror(int status);

/* The one error formatter: when err is not NULL and errlen > 0, writes the
 * message (truncated to fit, always terminated) after the first `at` bytes
 * already in err (0 to start afresh), control bytes (a newline, a tab, ...
 * quoted from the input) as '?' so that every message is one line; returns
 * rc either way, so a failing path reads
 * `return arena_errorf(err, errlen, 0, ARENA_EINVAL, "...", ...)`. */
#include <stdarg.h>
#include <stddef.h>
int arena_errorf(char *err, size_t errlen, size_t at, int rc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
int arena_verrorf(char *err, size_t errlen, size_t at, int rc, const char *fmt, va_list ap);

#endif
