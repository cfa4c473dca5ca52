/* test_validate.c — the independent validator on planted faults, and against
 * a brute-force pairwise check on random plans. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "planners/problem.h"
#include "tests/random_problems.h"

static int check(const struct arena_tensor *t, size_t n, uint64_t alignment, uint64_t *off,
                 uint64_t arena, struct arena_collision *why)
{
    struct arena_problem p = {.n = n, .tensors = t, .alignment = alignment};
    struct arena_plan plan = {.n = n, .offsets = off, .arena = arena};
    return arena_plan_validate(&p, &plan, why);
}

Test(validate, empty_plan_is_valid_with_arena_zero)
{
    cr_expect_eq(check(NULL, 0, 16, NULL, 0, NULL), ARENA_OK);
    cr_expect_eq(check(NULL, 0, 16, NULL, 16, NULL), ARENA_EINVAL);
}

Test(validate, two_tensors_both_at_offset_zero_collide)
{
    /* A tensor at offset 0 is checked like any other (docs/planners.md, the
     * validator); a checker that skipped offset 0 would pass it. */
    const struct arena_tensor t[] = {{32, 0, 2}, {16, 1, 3}};
    uint64_t off[] = {0, 0};
    struct arena_collision why;
    cr_expect_eq(check(t, 2, 16, off, 32, &why), ARENA_ECONFLICT);
    cr_expect_eq(why.a, 0);
    cr_expect_eq(why.b, 1);
    cr_expect_eq(why.misaligned, 0);
}

Test(validate, one_byte_collision)
{
    /* [0,17) and [16,32) share byte 16; alignment 1 lets sizes be odd. */
    const struct arena_tensor t[] = {{17, 0, 1}, {16, 1, 2}};
    uint64_t off[] = {0, 16};
    struct arena_collision why;
    cr_expect_eq(check(t, 2, 1, off, 32, &why), ARENA_ECONFLICT);
    cr_expect_eq(why.a, 0);
    cr_expect_eq(why.b, 1);
    /* The same one byte, the other way round in offset order. */
    uint64_t off2[] = {15, 0};
    cr_expect_eq(check(t, 2, 1, off2, 32, &why), ARENA_ECONFLICT);
}

Test(validate, touching_ranges_do_not_collide)
{
    /* [0,16) [16,48) [48,64): all live at step 1, each ends where the next starts. */
    const struct arena_tensor t[] = {{16, 0, 1}, {32, 1, 1}, {16, 1, 2}};
    uint64_t off[] = {0, 16, 48};
    cr_expect_eq(check(t, 3, 16, off, 64, NULL), ARENA_OK);
}

Test(validate, lifetimes_sharing_one_step_conflict)
{
    /* [0,2] and [2,4] share step 2: closed intervals, so one byte in common is a collision. */
    const struct arena_tensor t[] = {{16, 0, 2}, {16, 2, 4}};
    uint64_t off[] = {0, 0};
    struct arena_collision why;
    cr_expect_eq(check(t, 2, 16, off, 16, &why), ARENA_ECONFLICT);
    /* [0,1] and [2,4] share no step: the same bytes are fine. */
    const struct arena_tensor u[] = {{16, 0, 1}, {16, 2, 4}};
    cr_expect_eq(check(u, 2, 16, off, 16, NULL), ARENA_OK);
}

Test(validate, misaligned_offset_is_invalid)
{
    const struct arena_tensor t[] = {{16, 0, 1}, {16, 2, 3}};
    uint64_t off[] = {0, 8};
    struct arena_collision why;
    cr_expect_eq(check(t, 2, 16, off, 24, &why), ARENA_ECONFLICT);
    cr_expect_eq(why.misaligned, 1);
    cr_expect_eq(why.a, 1);
    char buf[256];
    struct arena_problem p = {.n = 2, .tensors = t, .alignment = 16};
    struct arena_plan plan = {.n = 2, .offsets = off, .arena = 24};
    arena_collision_describe(&p, &plan, &why, buf, sizeof buf);
    cr_expect(strstr(buf, "tensor 1") && strstr(buf, "8") && strstr(buf, "16"), "%s", buf);
    /* With alignment 8 the same plan is fine. */
    cr_expect_eq(check(t, 2, 8, off, 24, NULL), ARENA_OK);
}

Test(validate, wrong_arena_value_is_invalid)
{
    const struct arena_tensor t[] = {{16, 0, 1}, {32, 1, 2}};
    uint64_t off[] = {0, 16}; /* max(offset + size) = 48 */
    cr_expect_eq(check(t, 2, 16, off, 48, NULL), ARENA_OK);
    cr_expect_eq(check(t, 2, 16, off, 64, NULL), ARENA_EINVAL);
    cr_expect_eq(check(t, 2, 16, off, 32, NULL), ARENA_EINVAL);
}

Test(validate, zero_size_tensors_occupy_no_bytes)
{
    /* A zero-size tensor inside a live range collides with nothing; the arena
     * still counts its end: max(offset + size) = max(48, 64 + 0) = 64. */
    const struct arena_tensor t[] = {{48, 0, 3}, {0, 1, 2}, {0, 1, 1}};
    uint64_t off[] = {0, 16, 64};
    cr_expect_eq(check(t, 3, 16, off, 64, NULL), ARENA_OK);
}

Test(validate, offset_plus_size_overflow_is_reported)
{
    const struct arena_tensor t[] = {{32, 0, 1}};
    uint64_t off[] = {UINT64_MAX - 15};
    cr_expect_eq(check(t, 1, 1, off, 0, NULL), ARENA_EOVERFLOW);
}

Test(validate, bad_problem_or_plan_shape_is_refused)
{
    const struct arena_tensor t[] = {{16, 2, 1}};
    uint64_t off[] = {0};
    cr_expect_eq(check(t, 1, 16, off, 16, NULL), ARENA_EINVAL);
    const struct arena_tensor u[] = {{16, 0, 1}};
    struct arena_problem p = {.n = 1, .tensors = u, .alignment = 16};
    struct arena_plan plan = {.n = 2, .offsets = off, .arena = 16};
    cr_expect_eq(arena_plan_validate(&p, &plan, NULL), ARENA_EINVAL);
    plan.n = 1;
    plan.offsets = NULL;
    cr_expect_eq(arena_plan_validate(&p, &plan, NULL), ARENA_EINVAL);
}

Test(validate, description_names_ids_lifetimes_and_byte_ranges)
{
    const struct arena_tensor t[] = {{16, 0, 0}, {64, 1, 3}, {32, 3, 5}};
    uint64_t off[] = {0, 0, 48}; /* tensor 1 [0,64) and tensor 2 [48,80) meet at step 3 */
    struct arena_collision why;
    cr_assert_eq(check(t, 3, 16, off, 80, &why), ARENA_ECONFLICT);
    cr_expect_eq(why.a, 1);
    cr_expect_eq(why.b, 2);
    struct arena_problem p = {.n = 3, .tensors = t, .alignment = 16};
    struct arena_plan plan = {.n = 3, .offsets = off, .arena = 80};
    char buf[256];
    arena_collision_describe(&p, &plan, &why, buf, sizeof buf);
    cr_expect(strstr(buf, "tensor 1") != NULL, "%s", buf);
    cr_expect(strstr(buf, "tensor 2") != NULL, "%s", buf);
    cr_expect(strstr(buf, "[1,3]") != NULL, "%s", buf);
    cr_expect(strstr(buf, "[3,5]") != NULL, "%s", buf);
    cr_expect(strstr(buf, "[0,64)") != NULL, "%s", buf);
    cr_expect(strstr(buf, "[48,80)") != NULL, "%s", buf);
    char small[8];
    arena_collision_describe(&p, &plan, &why, small, sizeof small);
    cr_expect_eq(strlen(small), sizeof small - 1, "truncated, still terminated");
}

/* Each refusal says which check failed: a wrong plan->arena beside where
 * its tensors end (the validator said "invalid argument" before), an
 * offset whose end passes 2^64, a plan of another length, a collision. */
Test(validate, every_refusal_says_which_check_failed)
{
    const struct arena_tensor t[] = {{16, 0, 1}, {32, 1, 2}};
    struct arena_problem p = {.n = 2, .tensors = t, .alignment = 16};
    uint64_t off[] = {0, 16};
    struct arena_plan plan = {.n = 2, .offsets = off, .arena = 64};
    struct arena_collision why;
    char buf[300];
    int rc = arena_plan_validate(&p, &plan, &why);
    cr_assert_eq(rc, ARENA_EINVAL);
    arena_plan_invalid_describe(&p, &plan, rc, &why, buf, sizeof buf);
    cr_expect_str_eq(buf, "plan->arena is 64 B, but its tensors end at 48 B (the largest offset"
                          " + size): a plan states its arena exactly");
    off[1] = UINT64_MAX - 15;
    rc = arena_plan_validate(&p, &plan, &why);
    cr_assert_eq(rc, ARENA_EOVERFLOW);
    arena_plan_invalid_describe(&p, &plan, rc, &why, buf, sizeof buf);
    cr_expect_str_eq(buf, "tensor 1 has offset 18446744073709551600, and with its 32 bytes it"
                          " ends past 2^64 B");
    plan.n = 3;
    rc = arena_plan_validate(&p, &plan, &why);
    arena_plan_invalid_describe(&p, &plan, rc, &why, buf, sizeof buf);
    cr_expect_str_eq(buf, "the plan has 3 offsets for a problem of 2 tensors");
    plan.n = 2;
    off[1] = 0;
    plan.arena = 32;
    rc = arena_plan_validate(&p, &plan, &why);
    arena_plan_invalid_describe(&p, &plan, rc, &why, buf, sizeof buf);
    cr_expect(strncmp(buf, "tensor 0 (steps [0,1], bytes [0,16)) overlaps tensor 1", 54) == 0,
              "%s", buf);
    const struct arena_tensor bad[] = {{16, 2, 1}};
    struct arena_problem q = {.n = 1, .tensors = bad, .alignment = 16};
    plan.n = 1;
    rc = arena_plan_validate(&q, &plan, &why);
    arena_plan_invalid_describe(&q, &plan, rc, &why, buf, sizeof buf);
    cr_expect_str_eq(buf, "validator: invalid argument");
}

/* The definition, pair by pair: O(n²), shares nothing with the sweep. */
static int overlap(const struct arena_tensor *t, const uint64_t *off, size_t i, size_t j)
{
    return t[i].first <= t[j].last && t[j].first <= t[i].last && t[i].size > 0 &&
           t[j].size > 0 && off[i] < off[j] + t[j].size && off[j] < off[i] + t[i].size;
}

Test(validate, agrees_with_pairwise_check_on_random_plans)
{
    enum { PROBLEMS = 4000, MAXN = 40 };
    struct arena_tensor t[MAXN];
    uint64_t off[MAXN];
    size_t valid = 0, invalid = 0;
    for (uint64_t seed = 0; seed < PROBLEMS; seed++) {
        struct rp_rng r;
        rp_seed(&r, seed * 7919 + 1);
        size_t n = 1 + (size_t)rp_below(&r, MAXN);
        rp_problem(seed, n, (enum rp_shape)(seed % RP_SHAPES), 16, t);
        /* Offsets from a coarse grid so that some plans collide and some do not. */
        uint64_t grid = 16 * (1 + rp_below(&r, 64)), top = 0;
        for (size_t i = 0; i < n; i++) {
            off[i] = grid * rp_below(&r, 2 * n);
            if (off[i] + t[i].size > top)
                top = off[i] + t[i].size;
        }
        int expect_ok = 1;
        for (size_t i = 0; i < n && expect_ok; i++)
            for (size_t j = i + 1; j < n && expect_ok; j++)
                if (overlap(t, off, i, j))
                    expect_ok = 0;
        struct arena_collision why;
        int rc = check(t, n, 16, off, top, &why);
        if (expect_ok) {
            valid++;
            cr_assert_eq(rc, ARENA_OK, "seed %llu: valid plan refused", (unsigned long long)seed);
        } else {
            invalid++;
            cr_assert_eq(rc, ARENA_ECONFLICT, "seed %llu: collision missed",
                         (unsigned long long)seed);
            cr_assert(!why.misaligned && why.a != why.b && overlap(t, off, why.a, why.b),
                      "seed %llu: reported pair %zu,%zu does not collide",
                      (unsigned long long)seed, why.a, why.b);
        }
    }
    /* Both verdicts must have been exercised for the comparison to mean anything. */
    cr_expect_gt(valid, PROBLEMS / 10, "valid %zu", valid);
    cr_expect_gt(invalid, PROBLEMS / 10, "invalid %zu", invalid);
}
