/* status.c — text for every arena_status value. */
#include "planners/status.h"

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
    }
    return "unknown status";
}
