/* test_metrics.c — bounds and plan metrics, worked out by hand, then against
 * a step-by-step brute force on random problems and plans. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "planners/problem.h"
#include "tests/known_answers.h"
#include "tests/random_problems.h"

static struct arena_bounds bounds_of(const struct arena_tensor *t, size_t n, uint64_t alignment)
{
    struct arena_problem p = {.n = n, .tensors = t, .alignment = alignment};
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
    return b;
}

static void expect_bounds(const struct arena_tensor *t, size_t n, uint64_t alignment,
                          uint64_t naive, uint64_t lb, uint64_t largest, uint32_t live,
                          uint32_t steps)
{
    struct arena_bounds b = bounds_of(t, n, alignment);
    cr_expect_eq(b.naive_bytes, naive, "naive %llu, expected %llu",
                 (unsigned long long)b.naive_bytes, (unsigned long long)naive);
    cr_expect_eq(b.lower_bound, lb, "lower bound %llu, expected %llu",
                 (unsigned long long)b.lower_bound, (unsigned long long)lb);
    cr_expect_eq(b.largest, largest);
    cr_expect_eq(b.max_live, live, "max live %u, expected %u", b.max_live, live);
    cr_expect_eq(b.steps, steps);
}

Test(metrics, empty_problem_has_zero_bounds)
{
    expect_bounds(NULL, 0, 16, 0, 0, 0, 0, 0);
}

Test(metrics, four_tensor_example_bounds)
{
    /* naive = 120+120+80+20 = 340K. Live bytes per step: s0 120K, s1 240K
     * (T0,T1), s2 200K (T1,T2), s3 100K (T2,T3), s4 20K: lower bound 240K;
     * at most 2 live; steps 0..4. */
    expect_bounds(ka_founding, 4, 16, 340 * K1, 240 * K1, 120 * K1, 2, 5);
}

Test(metrics, chain_bounds)
{
    /* naive 16+8+64+32+8 = 128. s0 16, s1 24, s2 72, s3 96, s4 40, s5 8: lb 96. */
    expect_bounds(ka_chain, 5, 8, 128, 96, 64, 2, 6);
}

Test(metrics, nine_tensor_bounds)
{
    /* naive 32+32+8+16+8+64+8+8+16 = 192. Live per step:
     * s0 T0 32; s1 T0,T1 64; s2 T1,T2 40; s3 T1,T2,T3 56; s4 T1..T4 64;
     * s5 T2,T3,T4,T5 96; s6 T5,T6 72; s7 T5,T6,T7 80; s8 T6,T7,T8 32; s9 T8 16.
     * lb 96, at most 4 live (s4 and s5). */
    expect_bounds(ka_nine, 9, 8, 192, 96, 64, 4, 10);
}

Test(metrics, firstfit_case_bounds)
{
    /* naive 150. s0 T0,T4 60; s1 T0,T1,T4 80; s2 T1,T2 50; s3 T2,T3 70; s4 T3 40. */
    expect_bounds(ka_firstfit, 5, 2, 150, 80, 50, 3, 5);
}

Test(metrics, three_and_descending_bounds)
{
    /* three: s0 100, s1 T0,T2 120, s2 T1,T2 70, s3 50: lb 120, naive 170. */
    expect_bounds(ka_three, 3, 2, 170, 120, 100, 2, 4);
    /* descending: s0 100, s1 180, s2 140, s3 60: lb 180, naive 240. */
    expect_bounds(ka_descending, 3, 4, 240, 180, 100, 2, 4);
}

Test(metrics, six_tensor_bounds)
{
    /* naive 20+30+50+20+10+90 = 220. s1 T1 30; s2 T1,T5 120; s3 T0,T1,T3,T4 80;
     * s4 T0,T2,T4 80; s5,s6 T2 50: lb 120, at most 4 live (s3). */
    expect_bounds(ka_six, 6, 2, 220, 120, 90, 4, 7);
}

Test(metrics, sum_overflow_is_an_error)
{
    const uint64_t max = (uint64_t)1 << 62;
    const struct arena_tensor t[] = {{max, 0, 0}, {max, 0, 0}, {max, 0, 0}, {max, 0, 0}};
    struct arena_problem p = {.n = 4, .tensors = t, .alignment = 16};
    struct arena_bounds b;
    cr_expect_eq(arena_problem_bounds(&p, &b), ARENA_EOVERFLOW);
    /* Three of them fit: 3·2^62, all live at step 0. */
    p.n = 3;
    cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
    cr_expect_eq(b.naive_bytes, 3 * max);
    cr_expect_eq(b.lower_bound, 3 * max);
}

static struct arena_metrics metrics_of(const struct arena_tensor *t, size_t n, uint64_t alignment,
                                       uint64_t *off, uint64_t arena)
{
    struct arena_problem p = {.n = n, .tensors = t, .alignment = alignment};
    struct arena_plan plan = {.n = n, .offsets = off, .arena = arena};
    struct arena_metrics m;
    cr_assert_eq(arena_plan_validate(&p, &plan, NULL), ARENA_OK, "the hand plan must be valid");
    cr_assert_eq(arena_plan_metrics(&p, &plan, &m), ARENA_OK);
    return m;
}

#define NEAR(a, b) (fabs((a) - (b)) < 1e-12)

Test(metrics, chain_with_the_greedy_plan)
{
    /* Offsets 0,64,0,64,0 (the table's greedy-by-size plan): arena 96 = lb.
     * ratio 1, saving 1 - 96/128 = 0.25, frag_peak 0.
     * live/top per step: s0 16/16; s1 T0 [0,16) T1 [64,72): 24/72;
     * s2 T1, T2 [0,64): 72/72; s3 T2, T3 [64,96): 96/96;
     * s4 T3, T4 [0,8): 40/96; s5 8/8.
     * frag_mean = (0 + 2/3 + 0 + 0 + 7/12 + 0) / 6 = 15/72. */
    uint64_t off[] = {0, 64, 0, 64, 0};
    struct arena_metrics m = metrics_of(ka_chain, 5, 8, off, 96);
    cr_expect_eq(m.arena, 96);
    cr_expect(NEAR(m.ratio_lb, 1.0));
    cr_expect(NEAR(m.saving, 0.25));
    cr_expect(NEAR(m.frag_peak, 0.0));
    cr_expect(NEAR(m.frag_mean, 15.0 / 72), "frag_mean %.15f", m.frag_mean);
}

Test(metrics, chain_with_the_naive_plan)
{
    /* Offsets 0,16,24,88,120, arena 128: ratio 128/96, saving 0,
     * frag_peak 1 - 96/128 = 0.25. live/top per step:
     * s0 16/16; s1 [0,16) [16,24): 24/24; s2 [16,24) [24,88): 72/88;
     * s3 [24,88) [88,120): 96/120; s4 [88,120) [120,128): 40/128; s5 8/128.
     * frag_mean = (0 + 0 + 16/88 + 24/120 + 88/128 + 120/128) / 6. */
    uint64_t off[] = {0, 16, 24, 88, 120};
    struct arena_metrics m = metrics_of(ka_chain, 5, 8, off, 128);
    cr_expect(NEAR(m.ratio_lb, 128.0 / 96));
    cr_expect(NEAR(m.saving, 0.0));
    cr_expect(NEAR(m.frag_peak, 0.25));
    double want = (16.0 / 88 + 24.0 / 120 + 88.0 / 128 + 120.0 / 128) / 6;
    cr_expect(NEAR(m.frag_mean, want), "frag_mean %.15f, want %.15f", m.frag_mean, want);
}

Test(metrics, four_tensor_example_plan)
{
    /* T2 reuses T0's bytes, T3 T1's: offsets 0,120K,0,120K, arena 240K = lb.
     * s0 120/120 (K); s1 240/240; s2 T1 [120,240) T2 [0,80): 200/240;
     * s3 T2 [0,80) T3 [120,140): 100/140; s4 T3: 20/140.
     * frag_mean = (0 + 0 + 40/240 + 40/140 + 120/140) / 5. */
    uint64_t off[] = {0, 120 * K1, 0, 120 * K1};
    struct arena_metrics m = metrics_of(ka_founding, 4, 16, off, 240 * K1);
    cr_expect(NEAR(m.frag_peak, 0.0));
    cr_expect(NEAR(m.saving, 1.0 - 240.0 / 340));
    double want = (40.0 / 240 + 40.0 / 140 + 120.0 / 140) / 5;
    cr_expect(NEAR(m.frag_mean, want), "frag_mean %.15f, want %.15f", m.frag_mean, want);
}

Test(metrics, steps_with_no_live_bytes_are_left_out_of_frag_mean)
{
    /* T0 [0,0] at [0,16); T1 [3,3] at [16,32); T2 has no bytes, lives [1,2].
     * Steps 0..3; steps 1 and 2 hold no byte, so they have no top address
     * and are left out: frag_mean = (1 - 16/16 + 1 - 16/32) / 2 = 0.25
     * (counting them would give 0.125). frag_peak = 1 - lower bound / arena
     * = 1 - 16/48 (T2's offset 48 sets no byte; the arena is given as 48). */
    const struct arena_tensor t[] = {{16, 0, 0}, {16, 3, 3}, {0, 1, 2}};
    uint64_t off[] = {0, 16, 48};
    struct arena_metrics m = metrics_of(t, 3, 16, off, 48);
    cr_expect_eq(m.bounds.steps, 4);
    cr_expect_eq(m.bounds.lower_bound, 16);
    cr_expect(NEAR(m.frag_mean, 0.25), "frag_mean %.15f", m.frag_mean);
    cr_expect(NEAR(m.frag_peak, 1.0 - 16.0 / 48));
}

Test(metrics, long_gaps_count_by_their_length)
{
    /* T0 [0,999] at [0,16), T1 [900,999] at [32,48): steps 0..899 live 16/16
     * (0), steps 900..999 live 32/48 (1/3 each): mean = 100·(1/3)/1000 = 1/30.
     * The two stretches differ in length (900 and 100 steps), so a mean
     * that weighed each stretch once (1/6), or by the wrong one's length
     * (9/30), is told apart from the mean over steps. */
    const struct arena_tensor t[] = {{16, 0, 999}, {16, 900, 999}};
    uint64_t off[] = {0, 32};
    struct arena_metrics m = metrics_of(t, 2, 16, off, 48);
    cr_expect(NEAR(m.frag_mean, 1.0 / 30), "frag_mean %.15f", m.frag_mean);
}

Test(metrics, empty_plan_has_zero_metrics)
{
    struct arena_problem p = {.n = 0, .tensors = NULL, .alignment = 16};
    struct arena_plan plan = {.n = 0, .offsets = NULL, .arena = 0};
    struct arena_metrics m;
    cr_assert_eq(arena_plan_metrics(&p, &plan, &m), ARENA_OK);
    cr_expect_eq(m.arena, 0);
    cr_expect(m.ratio_lb == 0 && m.saving == 0 && m.frag_peak == 0 && m.frag_mean == 0);
}

/* Step-by-step brute force of the definitions: O(n · steps). */
static void brute(const struct arena_tensor *t, size_t n, const uint64_t *off,
                  struct arena_bounds *b, double *frag_mean)
{
    struct arena_bounds r = {0};
    for (size_t i = 0; i < n; i++) {
        r.naive_bytes += t[i].size;
        if (t[i].size > r.largest)
            r.largest = t[i].size;
        if (t[i].last + 1 > r.steps)
            r.steps = t[i].last + 1;
    }
    double acc = 0;
    size_t counted = 0;
    for (uint32_t s = 0; s < r.steps; s++) {
        uint64_t live = 0, top = 0;
        uint32_t count = 0;
        for (size_t i = 0; i < n; i++)
            if (t[i].first <= s && s <= t[i].last) {
                live += t[i].size;
                count++;
                if (t[i].size > 0 && off[i] + t[i].size > top)
                    top = off[i] + t[i].size;
            }
        if (live > r.lower_bound)
            r.lower_bound = live;
        if (count > r.max_live)
            r.max_live = count;
        if (top > 0) {
            acc += 1.0 - (double)live / (double)top;
            counted++;
        }
    }
    *b = r;
    *frag_mean = counted ? acc / (double)counted : 0.0;
}

Test(metrics, agree_with_brute_force_on_random_problems)
{
    enum { PROBLEMS = 3000, MAXN = 96 };
    struct arena_tensor t[MAXN];
    uint64_t off[MAXN];
    for (uint64_t seed = 0; seed < PROBLEMS; seed++) {
        struct rp_rng r;
        rp_seed(&r, seed + 424242);
        size_t n = (size_t)rp_below(&r, MAXN + 1);
        rp_problem(seed, n, (enum rp_shape)(seed % RP_SHAPES), 8, t);
        /* The metrics do not need a valid plan: half the seeds use the naive
         * layout, half random offsets, so top addresses come in any order. */
        uint64_t sum = 0;
        for (size_t i = 0; i < n; i++) {
            off[i] = seed % 2 ? 8 * rp_below(&r, 4096) : sum;
            sum = seed % 2 ? (off[i] + t[i].size > sum ? off[i] + t[i].size : sum)
                           : sum + t[i].size;
        }
        struct arena_bounds want;
        double want_mean;
        brute(t, n, off, &want, &want_mean);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = 8};
        struct arena_plan plan = {.n = n, .offsets = off, .arena = sum};
        struct arena_metrics m;
        cr_assert_eq(arena_plan_metrics(&p, &plan, &m), ARENA_OK);
        cr_assert_eq(m.bounds.naive_bytes, want.naive_bytes, "seed %llu", (unsigned long long)seed);
        cr_assert_eq(m.bounds.lower_bound, want.lower_bound, "seed %llu", (unsigned long long)seed);
        cr_assert_eq(m.bounds.largest, want.largest);
        cr_assert_eq(m.bounds.max_live, want.max_live, "seed %llu", (unsigned long long)seed);
        cr_assert_eq(m.bounds.steps, want.steps);
        cr_assert(fabs(m.frag_mean - want_mean) < 1e-9, "seed %llu: frag_mean %.12f, want %.12f",
                  (unsigned long long)seed, m.frag_mean, want_mean);
    }
}
