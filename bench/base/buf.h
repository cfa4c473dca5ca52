/* buf.h — a growing text, the one buffer of bench/: plot's scripts and
 * tables, a child program's stdin, stdout and stderr. Zero-initialised it is
 * empty; once it holds anything s is NUL-terminated. A failed allocation
 * sets oom and keeps what fits: the caller checks oom once, after its last
 * add, instead of after every add. */
#ifndef ARENA_BENCH_BUF_H
#define ARENA_BENCH_BUF_H

#include <stddef.h>

struct arena_buf {
    char *s;
    size_t len, cap;
    int oom;
};
void arena_buf_add(struct arena_buf *b, const char *text);
void arena_buf_addn(struct arena_buf *b, const char *text, size_t n);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void arena_buf_printf(struct arena_buf *b, const char *fmt, ...);
/* Frees s and empties b (oom cleared): b can be used again. */
void arena_buf_free(struct arena_buf *b);

#endif
