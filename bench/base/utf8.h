/* utf8.h — UTF-8 text counted and cut by characters, never inside one:
 * the progress line and plot's titles, keys and table cells. */
#ifndef ARENA_BENCH_UTF8_H
#define ARENA_BENCH_UTF8_H

#include <stddef.h>

/* Bytes of the valid UTF-8 character at t (1 to 4), or 0 when t starts no
 * valid one: a stray continuation byte, a sequence cut short, an overlong
 * form, a surrogate or a code point past U+10FFFF. */
size_t arena_utf8_char(const char *t);
/* Characters (code points) of the UTF-8 text s. */
size_t arena_utf8_chars(const char *s);
/* Bytes of the longest prefix of s with at most max characters: a cut
 * there never splits a character. */
size_t arena_utf8_prefix(const char *s, size_t max);

#endif
