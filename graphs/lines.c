/* lines.c — see lines.h. */
#include "graphs/lines.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "graphs/files.h"
#include "planners/status.h"

void arena_lines_open(struct arena_lines *r, FILE *f, char *line)
{
    r->f = f;
    r->line = line;
    r->len = 0;
    r->number = 0;
    r->pos = r->fill = 0;
    r->eof = 0;
}

int arena_lines_next(struct arena_lines *r)
{
    size_t len = 0;
    int got = 0;
    r->newline = 0;
    r->nul = 0;
    for (;;) {
        if (r->pos == r->fill) {
            if (r->eof)
                break;
            r->fill = fread(r->buf, 1, sizeof r->buf, r->f);
            r->pos = 0;
            if (r->fill == 0) {
                r->eof = 1;
                if (ferror(r->f))
                    return ARENA_EIO;
                break;
            }
        }
        char c = r->buf[r->pos++];
        got = 1;
        if (c == '\n') {
            r->newline = 1;
            break;
        }
        /* Stop at the fault: reading on to the newline could take forever. */
        if (c == '\0' || len == ARENA_FILE_LINE_MAX) {
            r->number++;
            r->nul = c == '\0';
            r->line[len] = '\0';
            r->len = len;
            return ARENA_EFORMAT;
        }
        r->line[len++] = c;
    }
    if (!got)
        return 0;
    r->number++;
    if (len > 0 && r->line[len - 1] == '\r')
        len--;
    r->line[len] = '\0';
    r->len = len;
    return 1;
}

FILE *arena_reader_open(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        arena_errorf(err, errlen, 0, ARENA_EIO, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    /* fopen accepts a directory on Linux; only reading it fails (EISDIR). */
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        arena_errorf(err, errlen, 0, ARENA_EIO,
                     "%s: is a directory, not a problem (.csv) or graph (.graph) file", path);
        return NULL;
    }
    return f;
}

int arena_reader_fail(const struct arena_reader *r, int rc, const char *field, const char *fmt,
                      ...)
{
    if (!r->err || !r->errlen) return rc;
    int k = snprintf(r->err, r->errlen, "%s:%lu: %s: ", r->name, r->line, field);
    if (k < 0) return rc;
    va_list ap;
    va_start(ap, fmt);
    arena_verrorf(r->err, r->errlen, (size_t)k, rc, fmt, ap);
    va_end(ap);
    return rc;
}

const char *arena_reader_show(const char *s, char *buf, size_t cap)
{
    size_t i = 0;
    for (; s[i] && i + 4 < cap && i < 40; i++)
        buf[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    if (s[i] && i + 4 < cap) {
        buf[i++] = '.';
        buf[i++] = '.';
        buf[i++] = '.';
    }
    buf[i] = '\0';
    return buf;
}

int arena_reader_next(struct arena_reader *r, struct arena_lines *lines)
{
    int got = arena_lines_next(lines);
    r->line = lines->number;
    if (r->stop && *r->stop) /* checked once a line: a volatile load is cheap */
        return arena_reader_fail(r, ARENA_EIO, "file", "stopped by a signal");
    if (got == ARENA_EFORMAT && lines->nul)
        return arena_reader_fail(r, ARENA_EFORMAT, "line", "contains a NUL byte (not a text file)");
    if (got == ARENA_EFORMAT)
        return arena_reader_fail(r, ARENA_EFORMAT, "line", "longer than %d bytes",
                                 ARENA_FILE_LINE_MAX);
    if (got < 0)
        return arena_reader_fail(r, ARENA_EIO, "file", "%s",
                                 r->stop && *r->stop ? "stopped by a signal" : "read error");
    if (got == 1 && lines->number == 1 && lines->len >= 3 &&
        memcmp(lines->line, "\xef\xbb\xbf", 3) == 0) {
        memmove(lines->line, lines->line + 3, lines->len - 3 + 1);
        lines->len -= 3;
    }
    return got;
}
