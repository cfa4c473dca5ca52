/* test_problem.c — the problem's contract check and size rounding, and the
 * internal helpers every planner builds on: the scratch cursor (layout.h)
 * and the one radix sort, heap and floor search (order.h). */
#include <criterion/criterion.h>
#include <string.h>

#include "planners/layout.h"
#include "planners/order.h"
#include "planners/problem.h"
#include "planners/status.h"

#define KIB 1024u

static struct arena_problem problem(const struct arena_tensor *t, size_t n, uint64_t alignment)
{
    struct arena_problem p = {.n = n, .tensors = t, .alignment = alignment};
    return p;
}

Test(problem, empty_problem_is_valid)
{
    struct arena_problem p = problem(NULL, 0, 16);
    size_t bad = 7;
    cr_expect_eq(arena_problem_check(&p, &bad), ARENA_OK);
    cr_expect_eq(bad, SIZE_MAX);
}

Test(problem, null_problem_or_missing_tensors_are_invalid)
{
    struct arena_problem p = problem(NULL, 3, 16);
    cr_expect_eq(arena_problem_check(NULL, NULL), ARENA_EINVAL);
    cr_expect_eq(arena_problem_check(&p, NULL), ARENA_EINVAL);
}

Test(problem, first_after_last_is_invalid_and_named)
{
    const struct arena_tensor t[] = {{16, 0, 1}, {16, 1, 1}, {32, 3, 2}, {16, 5, 4}};
    struct arena_problem p = problem(t, 4, 16);
    size_t bad = 0;
    cr_expect_eq(arena_problem_check(&p, &bad), ARENA_EINVAL);
    cr_expect_eq(bad, 2, "the first offending tensor is id 2, got %zu", bad);
}

Test(problem, one_step_lifetime_is_valid)
{
    const struct arena_tensor t[] = {{16, 4, 4}};
    struct arena_problem p = problem(t, 1, 16);
    cr_expect_eq(arena_problem_check(&p, NULL), ARENA_OK);
}

Test(problem, alignment_must_be_a_power_of_two)
{
    const struct arena_tensor t[] = {{3 * 4096, 0, 1}}; /* a multiple of every good one */
    const uint64_t bad_alignments[] = {0, 3, 12, 48, ((uint64_t)1 << 62) + 1};
    for (size_t i = 0; i < sizeof bad_alignments / sizeof bad_alignments[0]; i++) {
        struct arena_problem p = problem(t, 1, bad_alignments[i]);
        size_t bad = 0;
        cr_expect_eq(arena_problem_check(&p, &bad), ARENA_EINVAL, "alignment %llu",
                     (unsigned long long)bad_alignments[i]);
        cr_expect_eq(bad, SIZE_MAX);
    }
    const uint64_t good[] = {1, 2, 16, 4096};
    for (size_t i = 0; i < 4; i++) {
        struct arena_problem p = problem(t, 1, good[i]);
        cr_expect_eq(arena_problem_check(&p, NULL), ARENA_OK);
    }
}

Test(problem, size_not_a_multiple_of_the_alignment_is_invalid)
{
    const struct arena_tensor t[] = {{16, 0, 1}, {24, 1, 2}};
    struct arena_problem p = problem(t, 2, 16);
    size_t bad = 0;
    cr_expect_eq(arena_problem_check(&p, &bad), ARENA_EINVAL);
    cr_expect_eq(bad, 1);
    p.alignment = 8; /* 24 = 3 × 8 */
    cr_expect_eq(arena_problem_check(&p, NULL), ARENA_OK);
}

Test(problem, size_over_two_to_the_62_overflows)
{
    const uint64_t max = (uint64_t)1 << 62;
    struct arena_tensor t[] = {{16, 0, 1}, {max + 16, 0, 1}};
    struct arena_problem p = problem(t, 2, 16);
    size_t bad = 0;
    cr_expect_eq(arena_problem_check(&p, &bad), ARENA_EOVERFLOW);
    cr_expect_eq(bad, 1);
    t[1].size = max; /* exactly 2^62 is allowed */
    cr_expect_eq(arena_problem_check(&p, NULL), ARENA_OK);
}

Test(problem, sum_overflow_is_reported_not_wrapped)
{
    /* Four tensors of 2^62 sum to 2^64, one past UINT64_MAX; three fit. */
    const uint64_t max = (uint64_t)1 << 62;
    const struct arena_tensor t[] = {{max, 0, 0}, {max, 1, 1}, {max, 2, 2}, {max, 3, 3}};
    struct arena_problem p = problem(t, 4, 16);
    size_t bad = 0;
    cr_expect_eq(arena_problem_check(&p, &bad), ARENA_EOVERFLOW);
    cr_expect_eq(bad, SIZE_MAX, "a sum is nobody's fault alone");
    p.n = 3;
    cr_expect_eq(arena_problem_check(&p, NULL), ARENA_OK);
}

Test(problem, align_rounds_up_to_the_alignment)
{
    uint64_t out = 0;
    cr_expect_eq(arena_size_align(0, 16, &out), ARENA_OK);
    cr_expect_eq(out, 0);
    cr_expect_eq(arena_size_align(1, 16, &out), ARENA_OK);
    cr_expect_eq(out, 16);
    cr_expect_eq(arena_size_align(16, 16, &out), ARENA_OK);
    cr_expect_eq(out, 16);
    cr_expect_eq(arena_size_align(17, 16, &out), ARENA_OK);
    cr_expect_eq(out, 32);
    cr_expect_eq(arena_size_align(120 * KIB + 1, 64, &out), ARENA_OK);
    cr_expect_eq(out, 120 * KIB + 64);
    cr_expect_eq(arena_size_align(5, 1, &out), ARENA_OK);
    cr_expect_eq(out, 5);
}

Test(problem, align_refuses_bad_alignment)
{
    uint64_t out = 99;
    cr_expect_eq(arena_size_align(16, 0, &out), ARENA_EINVAL);
    cr_expect_eq(arena_size_align(16, 24, &out), ARENA_EINVAL);
    cr_expect_eq(arena_size_align(16, 16, NULL), ARENA_EINVAL);
    cr_expect_eq(out, 99, "nothing written on error");
}

Test(problem, align_overflow_past_two_to_the_62)
{
    const uint64_t max = (uint64_t)1 << 62;
    uint64_t out = 7;
    /* 2^62 is a multiple of 16: it stays. */
    cr_expect_eq(arena_size_align(max, 16, &out), ARENA_OK);
    cr_expect_eq(out, max);
    /* 2^62 - 15 rounds up to 2^62 exactly: still fits. */
    cr_expect_eq(arena_size_align(max - 15, 16, &out), ARENA_OK);
    cr_expect_eq(out, max);
    /* 2^62 + 1 is past the limit before rounding. */
    out = 7;
    cr_expect_eq(arena_size_align(max + 1, 16, &out), ARENA_EOVERFLOW);
    cr_expect_eq(out, 7);
    /* Near UINT64_MAX the sum size + alignment - 1 would wrap: still an error. */
    cr_expect_eq(arena_size_align(UINT64_MAX, 16, &out), ARENA_EOVERFLOW);
    cr_expect_eq(arena_size_align(UINT64_MAX - 3, (uint64_t)1 << 63, &out), ARENA_EOVERFLOW);
    /* A size that fits, rounded to a 2^63 alignment, does not. */
    cr_expect_eq(arena_size_align(1, (uint64_t)1 << 63, &out), ARENA_EOVERFLOW);
    cr_expect_eq(out, 7);
}

/* The scratch cursor: counting and carving agree, arrays are aligned and
 * disjoint, and a count that overflows is reported, never wrapped. */
Test(problem, layout_counts_what_it_carves)
{
    struct arena_layout count, carve;
    arena_layout_init(&count, NULL);
    cr_expect_null(arena_layout_take(&count, 3, sizeof(uint64_t))); /* 24 -> 32 */
    cr_expect_null(arena_layout_take(&count, 5, 1));                 /* 5 -> 16 */
    cr_expect_null(arena_layout_take(&count, 0, 8));                 /* nothing */
    size_t bytes = 0;
    cr_assert_eq(arena_layout_bytes(&count, &bytes), ARENA_OK);
    cr_expect_eq(bytes, 48);
    _Alignas(16) unsigned char buf[48];
    arena_layout_init(&carve, buf);
    cr_expect_eq(arena_layout_take(&carve, 3, sizeof(uint64_t)), (void *)buf);
    cr_expect_eq(arena_layout_take(&carve, 5, 1), (void *)(buf + 32));
    cr_expect_eq(carve.used, bytes);
    arena_layout_init(&count, NULL);
    arena_layout_take(&count, SIZE_MAX / 2, 4);
    cr_expect_eq(arena_layout_bytes(&count, &bytes), ARENA_EOVERFLOW);
    arena_layout_init(&count, NULL);
    arena_layout_take(&count, SIZE_MAX / 16, 8);
    arena_layout_take(&count, SIZE_MAX / 16, 8);
    cr_expect_eq(arena_layout_bytes(&count, &bytes), ARENA_EOVERFLOW, "running total");
}

/* ---- order.h: the one radix sort, heap and floor search of planners/ ---- */

/* The radix sort against a plain reference (a stable insertion sort written
 * here) on keys that share all but one byte, keys with many ties, keys
 * spread over all 64 bits and sizes on both sides of its insertion cut-off:
 * the same keys in the same order, and equal keys keep their values' order
 * (stability, which chained sorts rely on). */
Test(problem, radix_sort_is_stable_and_sorted)
{
    enum { MAXM = 700 };
    static uint64_t key[MAXM], ktmp[MAXM], want_key[MAXM];
    static uint32_t vtmp[MAXM], val[MAXM], want_val[MAXM];
    struct arena_radix r = {.key = key, .ktmp = ktmp, .vtmp = vtmp};
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (unsigned k = 0; k < 400; k++) {
        size_t m = k % 4 == 0 ? k % 40 : 1 + (k * 37) % MAXM;
        for (size_t i = 0; i < m; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            switch (k % 3) {
            case 0: key[i] = 0xabcd000000001200u | (x & 0xff) << 16; break; /* one byte */
            case 1: key[i] = x % 5; break;                                 /* ties */
            default: key[i] = x; break;                                    /* all bytes */
            }
            val[i] = (uint32_t)i;
            want_key[i] = key[i];
            want_val[i] = (uint32_t)i;
        }
        for (size_t i = 1; i < m; i++)
            for (size_t j = i; j > 0 && want_key[j - 1] > want_key[j]; j--) {
                uint64_t tk = want_key[j];
                uint32_t tv = want_val[j];
                want_key[j] = want_key[j - 1];
                want_val[j] = want_val[j - 1];
                want_key[j - 1] = tk;
                want_val[j - 1] = tv;
            }
        arena_radix_sort(&r, val, m);
        cr_assert_arr_eq(key, want_key, m * sizeof *key, "keys, case %u (m %zu)", k, m);
        cr_assert_arr_eq(val, want_val, m * sizeof *val, "values, case %u (m %zu)", k, m);
    }
}

/* arena_order_sort chains: by first, then by size descending, gives size
 * descending, ties by first, ties by id. Worked by hand: sizes 32, 64, 32,
 * 64, 32 at firsts 4, 2, 1, 2, 4 -> 64s (ids 1, 3 both at first 2: by id),
 * then 32s by first: id 2 (1), ids 0 and 4 (4: by id). */
Test(problem, order_sort_chains)
{
    const struct arena_tensor t[] = {{32, 4, 5}, {64, 2, 3}, {32, 1, 9}, {64, 2, 2}, {32, 4, 4}};
    uint32_t tmp[5], ids[5];
    arena_order_identity(ids, 5);
    arena_order_sort(ids, tmp, 5, t, ARENA_ORDER_FIRST);
    arena_order_sort(ids, tmp, 5, t, ARENA_ORDER_SIZE_DESC);
    const uint32_t want[] = {1, 3, 2, 0, 4};
    cr_expect_arr_eq(ids, want, sizeof want);
    /* By last: 3 (2), 1 (3), 4 (4), 0 (5), 2 (9). */
    arena_order_identity(ids, 5);
    arena_order_sort(ids, tmp, 5, t, ARENA_ORDER_LAST);
    const uint32_t by_last[] = {3, 1, 4, 0, 2};
    cr_expect_arr_eq(ids, by_last, sizeof by_last);
}

/* Keys read in place from the tensors (arena_order_sort) and keys moved
 * along (arena_radix_sort) give the same stable order, against a plain
 * stable insertion sort, on both sides of the insertion cut-off, starting
 * from a shuffled id order (so stability means "keeps that order"). */
Test(problem, order_sort_matches_moved_keys)
{
    enum { MAXM = 300 };
    static struct arena_tensor t[MAXM];
    static uint64_t key[MAXM], ktmp[MAXM];
    static uint32_t a[MAXM], b[MAXM], want[MAXM], tmp[MAXM];
    struct arena_radix r = {.key = key, .ktmp = ktmp, .vtmp = tmp};
    uint64_t x = 77;
    for (unsigned k = 0; k < 120; k++) {
        size_t m = k % 3 == 0 ? k % 31 : 32 + (k * 53) % (MAXM - 32);
        enum arena_order_key which = (enum arena_order_key)(k % 3);
        for (size_t i = 0; i < m; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            t[i].first = (uint32_t)(x % 9);
            t[i].last = t[i].first + (uint32_t)(x >> 8) % 1000;
            t[i].size = (x >> 20) % 4 << (x % 50);
            want[i] = (uint32_t)i;
        }
        for (size_t i = m; i > 1; i--) { /* shuffle the starting order */
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            size_t j = x % i;
            uint32_t s = want[i - 1];
            want[i - 1] = want[j];
            want[j] = s;
        }
        memcpy(a, want, m * sizeof *a);
        memcpy(b, want, m * sizeof *b);
#define FIELD(id) (which == ARENA_ORDER_FIRST  ? (uint64_t)t[id].first  \
                   : which == ARENA_ORDER_LAST ? (uint64_t)t[id].last \
                                               : ~t[id].size)
        for (size_t i = 1; i < m; i++)
            for (size_t j = i; j > 0 && FIELD(want[j - 1]) > FIELD(want[j]); j--) {
                uint32_t s = want[j];
                want[j] = want[j - 1];
                want[j - 1] = s;
            }
        arena_order_sort(a, tmp, m, t, which);
        for (size_t i = 0; i < m; i++)
            key[i] = FIELD(b[i]);
#undef FIELD
        arena_radix_sort(&r, b, m);
        cr_assert_arr_eq(a, want, m * sizeof *a, "in place, case %u (m %zu)", k, m);
        cr_assert_arr_eq(b, want, m * sizeof *b, "moved, case %u (m %zu)", k, m);
    }
}

/* The heap pops in ascending order whatever the push order, duplicates and
 * the extremes of the key range included, interleaved with pushes. */
Test(problem, heap_pops_ascending)
{
    enum { N = 500 };
    static uint64_t h[N];
    size_t len = 0;
    uint64_t x = 12345, last = 0;
    for (size_t i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        arena_heap_push(h, &len, i % 50 == 0 ? UINT64_MAX : i % 7 == 0 ? 0 : x % 1000);
        if (i % 3 == 2) {
            uint64_t y = arena_heap_pop(h, &len);
            for (size_t j = 0; j < len; j++)
                cr_assert_geq(h[j], y, "popped %llu with %llu still in",
                              (unsigned long long)y, (unsigned long long)h[j]);
        }
    }
    cr_assert_eq(len, N - N / 3);
    for (size_t i = 0; len > 0; i++) {
        uint64_t y = arena_heap_pop(h, &len);
        if (i > 0)
            cr_assert_geq(y, last, "pop %zu: %llu after %llu", i, (unsigned long long)y,
                          (unsigned long long)last);
        last = y;
    }
    cr_expect_eq(last, UINT64_MAX);
}

/* The floor search: the last index whose value is <= x, over runs of equal
 * values, at both ends and between values. */
Test(problem, floor_index)
{
    const uint64_t v[] = {2, 5, 5, 5, 9, UINT64_MAX};
    cr_expect_eq(arena_floor_index(v, 6, 2), 0);
    cr_expect_eq(arena_floor_index(v, 6, 4), 0);
    cr_expect_eq(arena_floor_index(v, 6, 5), 3, "the last of a run");
    cr_expect_eq(arena_floor_index(v, 6, 8), 3);
    cr_expect_eq(arena_floor_index(v, 6, 9), 4);
    cr_expect_eq(arena_floor_index(v, 6, UINT64_MAX - 1), 4);
    cr_expect_eq(arena_floor_index(v, 6, UINT64_MAX), 5);
    cr_expect_eq(arena_floor_index(v, 1, 100), 0);
    for (uint64_t x = 0; x < 12; x++) {
        size_t want = 0;
        for (size_t i = 0; i < 5; i++)
            if (v[i] <= x)
                want = i;
        if (x >= 2)
            cr_expect_eq(arena_floor_index(v, 5, x), want, "x %llu", (unsigned long long)x);
    }
}
