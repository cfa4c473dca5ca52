/* lines.c — see lines.h. */
#include "graphs/lines.h"

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
    int got = 0, too_long = 0;
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
        if (c == '\n')
            break;
        if (len < ARENA_FILE_LINE_MAX)
            r->line[len++] = c;
        else
            too_long = 1;
    }
    if (!got)
        return 0;
    r->number++;
    if (len > 0 && r->line[len - 1] == '\r')
        len--;
    r->line[len] = '\0';
    r->len = len;
    return too_long ? ARENA_EFORMAT : 1;
}
