/* utf8.c — characters of UTF-8 text (utf8.h). */
#include "bench/base/utf8.h"

size_t arena_utf8_char(const char *s)
{
    const unsigned char *t = (const unsigned char *)s;
    unsigned c = t[0];
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (n <= 1) return n;
    unsigned long cp = c & (0x7Fu >> n);
    for (size_t i = 1; i < n; i++) {
        if ((t[i] & 0xC0) != 0x80) return 0;
        cp = cp << 6 | (t[i] & 0x3Fu);
    }
    static const unsigned long least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

size_t arena_utf8_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

size_t arena_utf8_prefix(const char *s, size_t max)
{
    size_t at = 0;
    for (size_t k = 0; k < max && s[at]; k++)
        do at++;
        while (((unsigned char)s[at] & 0xC0) == 0x80);
    return at;
}
