/* test_greedy.c — greedy-by-size, greedy-by-size-firstfit, greedy-by-breadth.
 *
 * Each fast planner (static interval index, planners/greedy_common.c) must
 * give byte-identical offsets and arena to an O(n^2) oracle written straight
 * from its definition (tests/greedy_oracle.c) on 10,000 small seeded random
 * problems of every shape (chains, residual skips, wide overlaps, many equal
 * sizes, lifetimes touching at one step, uniform, mixed with zero sizes) and
 * on 200 more up to n = 2,000; the independent validator accepts every plan.
 * The known answers of tests/known_answers.h (the four-tensor example,
 * TFLite Micro's first-fit case, best vs first fit) are reproduced, each
 * worked by hand below. Every
 * run gets exactly the scratch its planner reports, from malloc, so the
 * sanitizers see any overrun. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planners/planner.h"
#include "planners/problem.h"
#include "planners/tables.h"
#include "tests/expect_plan.h"
#include "tests/greedy_oracle.h"
#include "tests/random_problems.h"

enum { SIZE_BEST, SIZE_FIRST, BREADTH, NPLANNERS };

static const struct arena_planner *planner(int which)
{
    switch (which) {
    case SIZE_BEST: return &arena_planner_greedy_size;
    case SIZE_FIRST: return &arena_planner_greedy_size_firstfit;
    default: return &arena_planner_greedy_breadth;
    }
}

static const char *const names[NPLANNERS] = {"greedy-by-size", "greedy-by-size-firstfit",
                                             "greedy-by-breadth"};

/* Runs a planner through the checked entry point with exactly the scratch it
 * reports (tests/expect_plan.h); returns its status. */
static int run(int which, const struct arena_problem *p, uint64_t *offsets, uint64_t *arena)
{
    struct arena_plan plan;
    memset(&plan, 0, sizeof plan);
    int rc = run_planner(planner(which), p, NULL, offsets, &plan, 0xA5);
    *arena = plan.arena;
    return rc;
}

static int oracle(int which, const struct arena_problem *p, uint64_t *offsets, uint64_t *arena)
{
    switch (which) {
    case SIZE_BEST: return oracle_greedy_size(p, ORACLE_BEST_FIT, offsets, arena);
    case SIZE_FIRST: return oracle_greedy_size(p, ORACLE_FIRST_FIT, offsets, arena);
    default: return oracle_greedy_breadth(p, offsets, arena);
    }
}

/* The planner agrees with the oracle byte for byte, the validator accepts the
 * plan, and lower bound <= arena <= naive bytes. */
static void check_against_oracle(int which, const struct arena_problem *p, const char *what)
{
    size_t n = p->n;
    uint64_t *fast = calloc(n + 1, sizeof *fast), *slow = calloc(n + 1, sizeof *slow);
    cr_assert(fast && slow);
    uint64_t fast_arena = 0, slow_arena = 0;
    int rc = run(which, p, fast, &fast_arena);
    cr_assert_eq(rc, ARENA_OK, "%s on %s: %s", names[which], what, arena_strerror(rc));
    cr_assert_eq(oracle(which, p, slow, &slow_arena), 0);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(fast[i], slow[i], "%s on %s: tensor %zu at %llu, oracle %llu", names[which],
                     what, i, (unsigned long long)fast[i], (unsigned long long)slow[i]);
    cr_assert_eq(fast_arena, slow_arena, "%s on %s: arena", names[which], what);

    struct arena_plan plan = {.n = n, .offsets = fast, .arena = fast_arena};
    struct arena_collision why;
    rc = arena_plan_validate(p, &plan, &why);
    if (rc != ARENA_OK) {
        char line[256];
        arena_collision_describe(p, &plan, &why, line, sizeof line);
        cr_assert_fail("%s on %s: validator: %s (%s)", names[which], what, arena_strerror(rc),
                       line);
    }
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(p, &b), ARENA_OK);
    cr_assert(b.lower_bound <= fast_arena && fast_arena <= b.naive_bytes, "%s on %s: bounds",
              names[which], what);
    free(fast);
    free(slow);
}

static void random_problem(uint64_t seed, size_t n, struct arena_tensor *t,
                           struct arena_problem *p, char *what, size_t len)
{
    static const uint64_t alignments[] = {16, 1, 64, 8};
    enum rp_shape shape = (enum rp_shape)(seed % RP_SHAPES);
    uint64_t alignment = alignments[(seed / RP_SHAPES) % 4];
    rp_problem(seed, n, shape, alignment, t);
    p->n = n;
    p->tensors = t;
    p->alignment = alignment;
    snprintf(what, len, "seed %llu n %zu shape %s alignment %llu", (unsigned long long)seed, n,
             rp_shape_name(shape), (unsigned long long)alignment);
}

/* 10,000 problems with n in 0..64, every shape and four alignments. */
Test(greedy, oracle_small_problems)
{
    struct arena_tensor t[64];
    for (uint64_t seed = 1; seed <= 10000; seed++) {
        struct arena_problem p = {0};
        char what[128];
        random_problem(seed, (size_t)((seed * 7919) % 65), t, &p, what, sizeof what);
        for (int w = 0; w < NPLANNERS; w++)
            check_against_oracle(w, &p, what);
    }
}

/* 200 problems with n from 65 to 2,000, spread evenly on a log scale (every
 * 20th exactly 2,000): the oracle is quadratic, so most stay in the hundreds. */
Test(greedy, oracle_large_problems)
{
    struct arena_tensor *t = malloc(2000 * sizeof *t);
    cr_assert(t);
    struct rp_rng r;
    rp_seed(&r, 42);
    for (uint64_t k = 0; k < 200; k++) {
        size_t n = 65;
        for (uint64_t doublings = rp_below(&r, 5); doublings > 0; doublings--)
            n *= 2; /* 65 .. 1,040 */
        n += (size_t)rp_below(&r, n);
        n = k % 20 == 0 || n > 2000 ? 2000 : n;
        struct arena_problem p = {0};
        char what[128];
        random_problem(100000 + k, n, t, &p, what, sizeof what);
        for (int w = 0; w < NPLANNERS; w++)
            check_against_oracle(w, &p, what);
    }
    free(t);
}

/* Near-cliques, where greedy_cover.c's path places most tensors (its
 * treaps and switches instead of the index's sorted walk; issue 35: 10^5
 * tensors all live at once took 7 minutes): the kinds below, sizes with
 * many ties and some zeros, every alignment. */
enum { NC_ONE_STEP, NC_FAN_OUT, NC_FEW_FAR, NC_PARTS, NC_LONG, NC_KINDS };

static void near_clique(uint64_t seed, size_t n, int kind, uint64_t alignment,
                        struct arena_tensor *t)
{
    struct rp_rng r;
    rp_seed(&r, seed);
    uint32_t parts = 2 + (uint32_t)rp_below(&r, 3);
    int bridge = rp_below(&r, 2) == 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t f, l;
        switch (kind) {
        case NC_ONE_STEP: /* every tensor live at one step, or over the same few */
            f = (uint32_t)(seed % 3);
            l = f + (uint32_t)(seed % 2);
            break;
        case NC_FAN_OUT: /* one read by all, each output live to the end */
            f = i == 0 ? 0 : (uint32_t)i;
            l = (uint32_t)n + 1;
            break;
        case NC_FEW_FAR: /* long lifetimes over [0, 40], one in 40 short anywhere */
            if (rp_below(&r, 40) == 0) {
                f = (uint32_t)rp_below(&r, 41);
                l = f + (uint32_t)rp_below(&r, 3);
            } else {
                f = (uint32_t)rp_below(&r, 5);
                l = 40 - (uint32_t)rp_below(&r, 5);
            }
            break;
        case NC_PARTS: { /* that, in separate stretches of time; maybe one spans all */
            uint32_t at = 100 * (uint32_t)rp_below(&r, parts);
            if (bridge && i == n / 2) {
                f = 0;
                l = 100 * parts;
            } else if (rp_below(&r, 40) == 0) {
                f = at + (uint32_t)rp_below(&r, 41);
                l = f + (uint32_t)rp_below(&r, 3);
            } else {
                f = at + (uint32_t)rp_below(&r, 5);
                l = at + 40 - (uint32_t)rp_below(&r, 5);
            }
            break;
        }
        default: /* NC_LONG: starts in [0, 50), lengths up to 100 */
            f = (uint32_t)rp_below(&r, 50);
            l = f + (uint32_t)rp_below(&r, 100);
            break;
        }
        t[i].first = f;
        t[i].last = l;
        uint64_t units = rp_below(&r, 3) == 0 ? 4 : 1 + rp_below(&r, 64);
        t[i].size = rp_below(&r, 16) == 0 ? 0 : alignment * units;
    }
}

/* 75 problems of 128 to 700 tensors (every fifth 700), every kind: the
 * offsets are the oracle's, byte for byte. */
Test(greedy, oracle_near_cliques)
{
    static const uint64_t alignments[] = {16, 1, 64, 8};
    struct arena_tensor *t = malloc(700 * sizeof *t);
    cr_assert(t);
    for (uint64_t k = 0; k < 75; k++) {
        int kind = (int)(k % NC_KINDS);
        size_t n = k % 5 == 4 ? 700 : 128 + (size_t)((k * 7919) % 500);
        uint64_t alignment = alignments[(k / NC_KINDS) % 4];
        near_clique(k + 1, n, kind, alignment, t);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = alignment};
        char what[96];
        snprintf(what, sizeof what, "near-clique %llu (kind %d, n %zu, alignment %llu)",
                 (unsigned long long)k, kind, n, (unsigned long long)alignment);
        for (int w = 0; w < NPLANNERS; w++)
            check_against_oracle(w, &p, what);
    }
    free(t);
}

/* Only the order of steps matters to the greedy planners: spreading the steps
 * up to 2^32 - 1 (order kept) gives the oracle's offsets for the unspread
 * problem (the oracle itself walks every step, so it gets the small one). */
Test(greedy, sparse_steps_give_same_offsets)
{
    enum { N = 300 };
    struct arena_tensor t[N], wide[N];
    uint64_t fast[N], slow[N], fa, sa;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        struct arena_problem p = {0};
        char what[128];
        random_problem(seed, N, t, &p, what, sizeof what);
        uint32_t top = 0;
        for (size_t i = 0; i < N; i++)
            top = t[i].last > top ? t[i].last : top;
        uint32_t scale = (uint32_t)(UINT32_MAX / ((uint64_t)top + 1));
        for (size_t i = 0; i < N; i++) {
            wide[i] = t[i];
            wide[i].first = t[i].first * scale;
            wide[i].last = t[i].last * scale;
        }
        struct arena_problem q = {.n = N, .tensors = wide, .alignment = p.alignment};
        for (int w = 0; w < NPLANNERS; w++) {
            cr_assert_eq(run(w, &q, fast, &fa), ARENA_OK);
            cr_assert_eq(oracle(w, &p, slow, &sa), 0);
            cr_assert_arr_eq(fast, slow, sizeof fast, "%s on spread %s", names[w], what);
            cr_assert_eq(fa, sa);
        }
    }
}

/* ---- Known answers, worked by hand. ---- */

struct known {
    size_t n;
    struct arena_tensor t[9];
    uint64_t alignment;
    uint64_t off[NPLANNERS][9];
    uint64_t arena[NPLANNERS];
};

static void check_known(const struct known *k)
{
    struct arena_problem p = {.n = k->n, .tensors = k->t, .alignment = k->alignment};
    for (int w = 0; w < NPLANNERS; w++) {
        uint64_t off[9], arena;
        cr_assert_eq(run(w, &p, off, &arena), ARENA_OK, "%s", names[w]);
        for (size_t i = 0; i < k->n; i++)
            cr_expect_eq(off[i], k->off[w][i], "%s: tensor %zu at %llu, expected %llu", names[w],
                         i, (unsigned long long)off[i], (unsigned long long)k->off[w][i]);
        cr_expect_eq(arena, k->arena[w], "%s: arena %llu, expected %llu", names[w],
                     (unsigned long long)arena, (unsigned long long)k->arena[w]);
        /* The oracle must agree with the hand too. */
        uint64_t so[9], sa;
        cr_assert_eq(oracle(w, &p, so, &sa), 0);
        cr_expect_arr_eq(so, off, k->n * sizeof *so, "%s: oracle", names[w]);
        struct arena_plan plan = {.n = k->n, .offsets = off, .arena = arena};
        cr_expect_eq(arena_plan_validate(&p, &plan, NULL), ARENA_OK, "%s", names[w]);
    }
}

#define K 1024u

/* The four-tensor example (ka_founding). Order T0, T1 (120K ties: earlier first), T2, T3.
 * T0 -> 0. T1 [1,2] meets T0 -> 120K. T2 [2,3] meets T1 only: gap [0,120K)
 * fits 80K -> 0 (T2 reuses T0's bytes). T3 [3,4] meets T2 [0,80K) -> 80K.
 * Arena 240K. Breadth: steps 0..4 = 120K, 240K, 200K, 100K, 20K; step 1
 * places T0 0, T1 120K; step 2 T2 0; step 3 T3 80K: the same plan. */
Test(greedy, known_four_tensor_example)
{
    struct known k = {
        .n = 4,
        .t = {{120 * K, 0, 1}, {120 * K, 1, 2}, {80 * K, 2, 3}, {20 * K, 3, 4}},
        .alignment = 16,
        .off = {{0, 120 * K, 0, 80 * K}, {0, 120 * K, 0, 80 * K}, {0, 120 * K, 0, 80 * K}},
        .arena = {240 * K, 240 * K, 240 * K},
    };
    check_known(&k);
}

/* (16,0,1),(8,1,2),(64,2,3),(32,3,4),(8,4,5): order 64(id2) 32(id3) 16(id0)
 * 8(id1, first 1) 8(id4). id2 -> 0; id3 meets id2 -> 64; id0 meets nothing
 * placed -> 0; id1 [1,2] meets id0 [0,16) and id2 [0,64) -> 64; id4 meets id3
 * [64,96): gap [0,64) -> 0. Offsets 0,64,0,64,0, arena 96 (table). Every walk
 * has at most one gap, so first fit is the same. Breadth: steps 0..5 = 16,
 * 24, 72, 96, 40, 8: step 3 puts id2 0, id3 64; step 2 id1 above id2 -> 64;
 * step 4 id4 under id3 -> 0; step 1 id0 under id1 -> 0: the same plan. */
Test(greedy, known_small_chain)
{
    struct known k = {
        .n = 5,
        .t = {{16, 0, 1}, {8, 1, 2}, {64, 2, 3}, {32, 3, 4}, {8, 4, 5}},
        .alignment = 8,
        .off = {{0, 64, 0, 64, 0}, {0, 64, 0, 64, 0}, {0, 64, 0, 64, 0}},
        .arena = {96, 96, 96},
    };
    check_known(&k);
}

/* Nine tensors, greedy-by-size 96 (table). Order 64(id5) 32(id0) 32(id1)
 * 16(id3) 16(id8) 8(id2) 8(id4) 8(id6) 8(id7). id5 [5,7] -> 0; id0 [0,1] ->
 * 0; id1 [1,4] meets id0 -> 32; id3 [3,5] meets id1 [32,64), id5 [0,64) -> 64;
 * id8 [8,9] meets nothing placed -> 0; id2 [2,5] meets id5, id1, id3 [64,80)
 * -> 80; id4 [4,5] meets those and id2 [80,88) -> 88; id6 [6,8] meets id8
 * [0,16), id5 [0,64) -> 64; id7 [7,8] meets id8, id5, id6 [64,72) -> 72.
 * Arena 96. No walk meets a gap, so first fit is the same.
 * Breadth: steps 0..9 = 32, 64, 40, 56, 64, 96, 72, 80, 32, 16. Step 5 (id2,
 * id3, id4, id5): id5 0, id3 64, id2 80, id4 88. Step 7 (id6, id7): id6 meets
 * id5 -> 64, id7 -> 72. Step 6 has nothing left. Step 1 (64, before step 4):
 * id0 0; id1 [1,4] meets id0 [0,32), id3 [64,80), id2 [80,88), id4 [88,96):
 * gap [32,64) fits exactly -> 32. Step 8: id8 [8,9] meets id6 [64,72), id7
 * [72,80): gap [0,64) -> 0. The same plan as by size. */
Test(greedy, known_nine_tensors)
{
    struct known k = {
        .n = 9,
        .t = {{32, 0, 1}, {32, 1, 4}, {8, 2, 5}, {16, 3, 5}, {8, 4, 5}, {64, 5, 7}, {8, 6, 8},
              {8, 7, 8}, {16, 8, 9}},
        .alignment = 8,
        .off = {{0, 32, 80, 64, 88, 0, 64, 72, 0},
                {0, 32, 80, 64, 88, 0, 64, 72, 0},
                {0, 32, 80, 64, 88, 0, 64, 72, 0}},
        .arena = {96, 96, 96},
    };
    check_known(&k);
}

/* TFLite Micro's example, first fit 50,70,40,0,0 -> 90 (table). Order 50(id4)
 * 40(id3) 30(id2) 20(id1) 10(id0). id4 -> 0; id3 [3,4] -> 0; id2 [2,3] meets
 * id3 -> 40; id1 [1,2] meets id4 [0,50), id2 [40,70) -> 70; id0 [0,1] meets
 * id4 [0,50), id1 [70,90): one gap [50,70) -> 50. With one candidate gap,
 * best fit is the same. Breadth: steps 0..4 = 60, 80, 50, 70, 40. Step 1
 * (id0, id1, id4): id4 0, id1 50, id0 70. Step 3 (id2, id3): id3 0, id2 [2,3]
 * meets id1 [50,70), id3 [0,40) -> 70. Arena 100. */
Test(greedy, known_tflite_micro_first_fit)
{
    struct known k = {
        .n = 5,
        .t = {{10, 0, 1}, {20, 1, 2}, {30, 2, 3}, {40, 3, 4}, {50, 0, 1}},
        .alignment = 2,
        .off = {{50, 70, 40, 0, 0}, {50, 70, 40, 0, 0}, {70, 50, 70, 0, 0}},
        .arena = {90, 90, 100},
    };
    check_known(&k);
}

/* (100,0,1),(50,2,3),(20,1,2) -> 120 (table). id0 0; id1 [2,3] meets nothing
 * placed -> 0; id2 [1,2] meets id0 [0,100), id1 [0,50) -> 100. Breadth: steps
 * 1 (120): id0 0, id2 100; step 2: id1 meets id2 [100,120): gap -> 0. */
Test(greedy, known_three_gap)
{
    struct known k = {
        .n = 3,
        .t = {{100, 0, 1}, {50, 2, 3}, {20, 1, 2}},
        .alignment = 2,
        .off = {{0, 0, 100}, {0, 0, 100}, {0, 0, 100}},
        .arena = {120, 120, 120},
    };
    check_known(&k);
}

/* (100,0,1),(80,1,2),(60,2,3) -> 180 (table): 0, 100 (above id0), 0 (id2
 * meets only id1 [100,180), gap [0,100)). Breadth: step 1 then step 2, same. */
Test(greedy, known_three_chain)
{
    struct known k = {
        .n = 3,
        .t = {{100, 0, 1}, {80, 1, 2}, {60, 2, 3}},
        .alignment = 4,
        .off = {{0, 100, 0}, {0, 100, 0}, {0, 100, 0}},
        .arena = {180, 180, 180},
    };
    check_known(&k);
}

/* Best fit vs first fit (table): best 50,90,0,70,120,0 -> 130; first
 * 50,90,0,0,70,0 -> 120. Order 90(id5) 50(id2) 30(id1) 20(id0) 20(id3, same
 * first, higher id) 10(id4). id5 0; id2 0; id1 [1,3] meets id5 -> 90; id0
 * [3,4] meets id2 [0,50), id1 [90,120): gap [50,90) -> 50. id3 [3,3] meets id0
 * [50,70), id1 [90,120): gaps [0,50) and [70,90): best 70, first 0. id4 [3,4]
 * best: id2 [0,50) id0 [50,70) id3 [70,90) id1 [90,120): no gap -> 120; first:
 * id2 [0,50), id3 [0,20), id0 [50,70), id1: gap [70,90) -> 70.
 * Breadth: steps 1..6 = 30, 120, 80, 80, 50, 50. Step 2: id5 0, id1 90. Step 3
 * (tie with 4, lower step): id0 [3,4] meets id1 only -> 0; id3 meets id0
 * [0,20), id1: gap [20,90) -> 20; id4 meets id0, id3 [20,40), id1: gap
 * [40,90) -> 40. Step 4: id2 [4,6] meets id0 [0,20), id4 [40,50): gap [20,40)
 * too small -> 50. Arena 120. */
Test(greedy, known_best_vs_first_fit)
{
    struct known k = {
        .n = 6,
        .t = {{20, 3, 4}, {30, 1, 3}, {50, 4, 6}, {20, 3, 3}, {10, 3, 4}, {90, 2, 2}},
        .alignment = 2,
        .off = {{50, 90, 0, 70, 120, 0}, {50, 90, 0, 0, 70, 0}, {0, 90, 50, 20, 40, 0}},
        .arena = {130, 120, 120},
    };
    check_known(&k);
}

/* ---- Edges (the empty problem and the registry order are planners::
 * tests, for every registered planner). ---- */

/* Zero-size tensors take offset 0 and never push another tensor up. */
Test(greedy, zero_sizes)
{
    struct arena_tensor t[] = {{0, 0, 5}, {32, 0, 5}, {0, 2, 3}, {16, 1, 4}, {0, 0, 0}};
    struct arena_problem p = {.n = 5, .tensors = t, .alignment = 16};
    for (int w = 0; w < NPLANNERS; w++) {
        uint64_t off[5], arena;
        cr_assert_eq(run(w, &p, off, &arena), ARENA_OK);
        /* id1 (32) 0, id3 (16) above it at 32; the rest 0. */
        uint64_t want[5] = {0, 0, 0, 32, 0};
        cr_expect_arr_eq(off, want, sizeof off, "%s", names[w]);
        cr_expect_eq(arena, 48, "%s", names[w]);
    }
}

/* All live at once: each goes on top of the ones before it, in size order
 * (ties by id): id1 (48) 0, id2 (48) 48, id3 (32) 96, id0 (16) 128; arena
 * 144. */
Test(greedy, all_live_at_once)
{
    struct arena_tensor t[] = {{16, 0, 9}, {48, 0, 9}, {48, 0, 9}, {32, 0, 9}};
    struct arena_problem p = {.n = 4, .tensors = t, .alignment = 16};
    for (int w = 0; w < NPLANNERS; w++) {
        uint64_t off[4], arena;
        cr_assert_eq(run(w, &p, off, &arena), ARENA_OK);
        uint64_t want[4] = {128, 0, 48, 96};
        cr_expect_arr_eq(off, want, sizeof off, "%s", names[w]);
        cr_expect_eq(arena, 144, "%s", names[w]);
    }
}

/* Less scratch than reported: ARENA_ENOMEM from the checked entry point
 * (the tables assert their scratch instead of checking it again). */
Test(greedy, too_little_scratch)
{
    struct arena_tensor t[] = {{16, 0, 1}, {16, 1, 2}};
    struct arena_problem p = {.n = 2, .tensors = t, .alignment = 16};
    for (int w = 0; w < NPLANNERS; w++) {
        size_t need;
        cr_assert_eq(arena_planner_scratch(planner(w), &p, &need), ARENA_OK);
        cr_assert_gt(need, 0);
        void *s = malloc(need);
        uint64_t off[2];
        struct arena_plan plan = {.n = 2, .offsets = off};
        cr_expect_eq(arena_planner_run(planner(w), &p, NULL, s, need - 1, &plan), ARENA_ENOMEM);
        free(s);
    }
}

/* Sizes whose sum does not fit 64 bits: ARENA_EOVERFLOW, from
 * arena_problem_check at the checked entry point (the tables assert it). */
Test(greedy, overflowing_sizes)
{
    uint64_t big = ARENA_SIZE_MAX;
    struct arena_tensor t[] = {{big, 0, 1}, {big, 0, 1}, {big, 1, 2}, {big, 1, 1}};
    struct arena_problem p = {.n = 4, .tensors = t, .alignment = 16};
    for (int w = 0; w < NPLANNERS; w++) {
        size_t need;
        cr_assert_eq(arena_planner_scratch(planner(w), &p, &need), ARENA_OK);
        void *s = malloc(need);
        uint64_t off[4];
        struct arena_plan plan = {.n = 4, .offsets = off};
        cr_expect_eq(arena_planner_run(planner(w), &p, NULL, s, need, &plan), ARENA_EOVERFLOW);
        free(s);
    }
}

/* A lifetime with first > last: ARENA_EINVAL, from the checked entry point
 * (the tables assert it). */
Test(greedy, reversed_lifetime)
{
    struct arena_tensor t[] = {{16, 0, 1}, {16, 3, 2}};
    struct arena_problem p = {.n = 2, .tensors = t, .alignment = 16};
    for (int w = 0; w < NPLANNERS; w++) {
        size_t need;
        cr_assert_eq(arena_planner_scratch(planner(w), &p, &need), ARENA_OK);
        void *s = malloc(need);
        uint64_t off[2];
        struct arena_plan plan = {.n = 2, .offsets = off};
        cr_expect_eq(arena_planner_run(planner(w), &p, NULL, s, need, &plan), ARENA_EINVAL);
        free(s);
    }
}
