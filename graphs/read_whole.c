/* read_whole.c — see read_whole.h. */
#include "graphs/read_whole.h"

#include <stdlib.h>

#include "planners/status.h"

int arena_read_whole(FILE *f, size_t cap, size_t max, const char *path, const char *what,
                     unsigned char **data, size_t *size, char *err, size_t errlen)
{
    *data = NULL;
    *size = 0;
    if (cap == 0)
        cap = (size_t)1 << 16;
    size_t n = 0;
    unsigned char *buf = malloc(cap);
    int rc = buf ? ARENA_OK : ARENA_ENOMEM;
    while (!rc) {
        if (n == cap) {
            if (cap >= max) {
                rc = arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                                  "%s: larger than %zu GiB, the %s limit", path, max >> 30, what);
                break;
            }
            unsigned char *grown = realloc(buf, cap * 2);
            if (!grown) {
                rc = ARENA_ENOMEM;
                break;
            }
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f))
                rc = arena_errorf(err, errlen, 0, ARENA_EIO, "%s: read error", path);
            break;
        }
    }
    if (rc == ARENA_ENOMEM)
        arena_errorf(err, errlen, 0, rc, "%s: out of memory reading the file", path);
    if (rc) {
        free(buf);
        return rc;
    }
    *data = buf;
    *size = n;
    return ARENA_OK;
}
