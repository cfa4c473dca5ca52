/* status.c — text for every arena_status value. */
#include "planners/status.h"

#include <stdio.h>

const char *arena_strerror(int status)
{
    switch (status) {
    case ARENA_OK: return "success";
    case ARENA_EINVAL: return "invalid argument";
    case ARENA_ENOMEM: return "out of memory";
    case ARENA_EOVERFLOW: return "size overflow";
    case ARENA_EFORMAT: return "malformed input";
    case ARENA_EIO: return "input/output error";
    case ARENA_ECONFLICT: return "plan overlaps conflicting tensors";
    case ARENA_ENOTFOUND: return "not found";
    case ARENA_EDB: return "results database error";
    case ARENA_ETOOBIG:
        return "problem above the planner's size limit (min-cost-flow: at most 5000 tensors)";
    }
    return "unknown status";
}

int arena_verrorf(char *err, size_t errlen, size_t at, int rc, const char *fmt, va_list ap)
{
    if (err && errlen > at) {
        vsnprintf(err + at, errlen - at, fmt, ap);
        /* one line whatever the input quoted: control bytes as '?' */
        for (char *p = err + at; *p; p++)
            if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
                *p = '?';
    }
    return rc;
}

int arena_errorf(char *err, size_t errlen, size_t at, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    arena_verrorf(err, errlen, at, rc, fmt, ap);
    va_end(ap);
    return rc;
}
