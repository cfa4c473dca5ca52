/* lines.h — bounded line reader shared by the file readers: reads through a
 * fixed buffer, strips "\n" or "\r\n", refuses lines over ARENA_FILE_LINE_MAX
 * bytes, so memory stays bounded whatever the input. */
#ifndef ARENA_LINES_H
#define ARENA_LINES_H

#include <stddef.h>
#include <stdio.h>

struct arena_lines {
    FILE *f;
    char *line;   /* current line, NUL-terminated (embedded NULs kept) */
    size_t len;
    unsigned long number; /* 1-based number of the current line */
    char buf[4096];
    size_t pos, fill;
    int eof;
};

/* line must hold ARENA_FILE_LINE_MAX + 1 bytes (caller-owned). */
void arena_lines_open(struct arena_lines *r, FILE *f, char *line);
/* 1 with a line, 0 at the end, ARENA_EFORMAT when the line is too long,
 * ARENA_EIO on a read error. */
int arena_lines_next(struct arena_lines *r);

#endif
