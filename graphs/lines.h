/* lines.h — what the file readers (csv.c, graph_file.c) share: a bounded
 * line reader that reads through a fixed buffer, strips "\n" or "\r\n" and
 * refuses lines over ARENA_FILE_LINE_MAX bytes or holding a NUL byte the
 * moment it meets them, so memory and time stay bounded whatever the input
 * (/dev/zero included); and their one-line error messages,
 * "NAME:LINE: FIELD: what is wrong". */
#ifndef ARENA_LINES_H
#define ARENA_LINES_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

struct arena_lines {
    FILE *f;
    char *line;   /* current line, NUL-terminated (embedded NULs kept) */
    size_t len;
    unsigned long number; /* 1-based number of the current line */
    int newline;  /* the current line ended with '\n' (0: the file ended) */
    int nul;      /* the last ARENA_EFORMAT was a NUL byte, not a long line */
    char buf[4096];
    size_t pos, fill;
    int eof;
};

/* line must hold ARENA_FILE_LINE_MAX + 1 bytes (caller-owned). */
void arena_lines_open(struct arena_lines *r, FILE *f, char *line);
/* 1 with a line, 0 at the end, ARENA_EFORMAT when the line is too long or
 * holds a NUL byte (r->nul tells which; reading stops there), ARENA_EIO on a
 * read error. */
int arena_lines_next(struct arena_lines *r);

/* A reader's place in its file, for its messages. */
struct arena_reader {
    const char *name;   /* the file as messages name it */
    char *err;          /* where the message goes (NULL: nowhere) */
    size_t errlen;
    unsigned long line; /* 1-based; 0 before the first line */
    const volatile sig_atomic_t *stop; /* non-zero *stop: stop at the next line */
};

/* fopen(path, "rb"); when that fails, NULL with "PATH: cannot open:
 * REASON" in err; a directory is NULL with "PATH: is a directory ...". */
FILE *arena_reader_open(const char *path, char *err, size_t errlen);

/* Writes "NAME:LINE: FIELD: " and the printf-style text into r->err, cut to
 * r->errlen; returns rc, so a reader can `return arena_reader_fail(...)`. */
int arena_reader_fail(const struct arena_reader *r, int rc, const char *field, const char *fmt,
                      ...);

/* s made fit for a message into buf: at most 40 bytes then "...", bytes
 * outside printable ASCII as '?'. Returns buf. */
const char *arena_reader_show(const char *s, char *buf, size_t cap);

/* arena_lines_next() for a reader: sets r->line and returns 1 with a line,
 * 0 at the end, or a negative status with its message written: ARENA_EFORMAT
 * for a line too long or holding a NUL byte, ARENA_EIO for a read error or
 * when r->stop is set ("file: stopped by a signal"). A UTF-8 byte order mark
 * before the first line is dropped (spreadsheets write one). */
int arena_reader_next(struct arena_reader *r, struct arena_lines *lines);

#endif
