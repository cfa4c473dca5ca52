/* test_problem.c — the problem's contract check and size rounding. */
#include <criterion/criterion.h>

#include "planners/layout.h"
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
