/* test_base.c — bench/base/: the text buffer (buf.c), the UTF-8 count and
 * cut (utf8.c) and the (text, number) set (pairset.c), against answers
 * worked out by hand from their definitions. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "bench/base/buf.h"
#include "bench/base/pairset.h"
#include "bench/base/utf8.h"

Test(base, buf_adds_text_and_printf_past_its_small_buffer)
{
    struct arena_buf b = {0};
    cr_expect_null(b.s, "empty: nothing allocated");
    arena_buf_add(&b, "ab");
    arena_buf_addn(&b, "cdef", 2);
    arena_buf_printf(&b, "-%d-", 42);
    cr_expect_str_eq(b.s, "abcd-42-");
    cr_expect_eq(b.len, 8);
    /* printf of more than its 512-byte stack buffer: a heap copy */
    char big[2000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    arena_buf_printf(&b, "%s!", big);
    cr_expect_eq(b.len, 8 + 1999 + 1);
    cr_expect_eq(b.s[b.len - 1], '!');
    cr_expect_eq(b.s[b.len], '\0');
    cr_expect_eq(strspn(b.s + 8, "x"), 1999);
    cr_expect_not(b.oom);
    arena_buf_free(&b);
    cr_expect_null(b.s);
    cr_expect_eq(b.len, 0);
    arena_buf_add(&b, "again");
    cr_expect_str_eq(b.s, "again", "usable after free");
    arena_buf_free(&b);
}

Test(base, buf_after_oom_adds_nothing)
{
    struct arena_buf b = {0};
    arena_buf_add(&b, "kept");
    b.oom = 1; /* as a failed realloc leaves it */
    arena_buf_add(&b, " lost");
    arena_buf_printf(&b, "%d", 7);
    cr_expect_str_eq(b.s, "kept");
    arena_buf_free(&b);
    cr_expect_not(b.oom, "free clears oom");
}

/* "é" is C3 A9, "€" E2 82 AC, U+1F600 F0 9F 98 80. */
Test(base, utf8_counts_and_cuts_at_characters)
{
    const char *s = "h\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80!";
    cr_expect_eq(arena_utf8_chars(s), 5);
    cr_expect_eq(arena_utf8_chars(""), 0);
    cr_expect_eq(arena_utf8_prefix(s, 0), 0);
    cr_expect_eq(arena_utf8_prefix(s, 1), 1);
    cr_expect_eq(arena_utf8_prefix(s, 2), 3);
    cr_expect_eq(arena_utf8_prefix(s, 3), 6);
    cr_expect_eq(arena_utf8_prefix(s, 4), 10);
    cr_expect_eq(arena_utf8_prefix(s, 5), 11);
    cr_expect_eq(arena_utf8_prefix(s, 99), 11, "never past the end");
}

Test(base, utf8_char_takes_valid_characters_only)
{
    cr_expect_eq(arena_utf8_char("a"), 1);
    cr_expect_eq(arena_utf8_char("\xC3\xA9"), 2);
    cr_expect_eq(arena_utf8_char("\xE2\x82\xAC"), 3);
    cr_expect_eq(arena_utf8_char("\xF0\x9F\x98\x80"), 4);
    cr_expect_eq(arena_utf8_char("\x80"), 0, "a stray continuation byte");
    cr_expect_eq(arena_utf8_char("\xC3("), 0, "a sequence cut short");
    cr_expect_eq(arena_utf8_char("\xC0\xAF"), 0, "overlong '/'");
    cr_expect_eq(arena_utf8_char("\xE0\x80\xAF"), 0, "overlong '/' in three bytes");
    cr_expect_eq(arena_utf8_char("\xED\xA0\x80"), 0, "the surrogate U+D800");
    cr_expect_eq(arena_utf8_char("\xF4\x90\x80\x80"), 0, "U+110000, past U+10FFFF");
    cr_expect_eq(arena_utf8_char("\xF4\x8F\xBF\xBF"), 4, "U+10FFFF itself");
    cr_expect_eq(arena_utf8_char("\xFF"), 0);
}

/* 10,000 pairs grow the set from 64 slots many times: every pair stays
 * found, a pair differing in text or in number alone is another. */
Test(base, pairset_keeps_each_pair_once_through_growth)
{
    enum { N = 10000 };
    static char text[N][16];
    struct arena_pairset s = {0};
    for (int i = 0; i < N; i++) {
        snprintf(text[i], sizeof text[i], "spec-%d", i % 5000);
        cr_assert_eq(arena_pairset_add(&s, text[i], (uint64_t)(i / 5000)), 1, "pair %d new", i);
    }
    cr_expect_eq(s.n, N);
    cr_expect(s.cap >= 2 * N && (s.cap & (s.cap - 1)) == 0, "cap %zu: a power of two, half full at most", s.cap);
    for (int i = 0; i < N; i++) {
        char again[16];
        snprintf(again, sizeof again, "spec-%d", i % 5000);
        cr_expect_eq(arena_pairset_add(&s, again, (uint64_t)(i / 5000)), 0, "pair %d again", i);
    }
    cr_expect_eq(arena_pairset_add(&s, "spec-1", 2), 1, "same text, another number");
    cr_expect_eq(arena_pairset_add(&s, "", 0), 1, "the empty text");
    cr_expect_eq(arena_pairset_add(&s, "", 0), 0);
    cr_expect_eq(s.n, N + 2);
    arena_pairset_free(&s);
    cr_expect_null(s.text);
    cr_expect_eq(s.n, 0);
}
