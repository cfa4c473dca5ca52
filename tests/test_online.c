/* test_online.c — the online policies: online-first-fit, online-best-fit,
 * online-buddy, online-tlsf (planners/online_*.c).
 *
 * Hand-worked vectors (the working is in the comments): a sequence where
 * first fit and best fit differ, a buddy split and a full merge, buddy's
 * internal fragmentation, a TLSF class boundary on both sides. Then 2,400
 * seeded random problems of every shape and alignment: the independent
 * validator accepts every plan of every policy, arenas are at least the
 * lower bound, and first fit and best fit are byte-identical to a slow
 * reference simulator written below straight from the definition (live
 * blocks in a plain array, the free blocks read off as the gaps between
 * them, every step of the replay walked literally). Every run gets exactly
 * the scratch its planner reports, from malloc, so the sanitizers see any
 * overrun. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planners/planner.h"
#include "planners/problem.h"
#include "planners/tables.h"
#include "tests/expect_plan.h"
#include "tests/random_problems.h"

enum { FIRST_FIT, BEST_FIT, BUDDY, TLSF, NPOLICIES };

static const struct arena_planner *policy(int which)
{
    switch (which) {
    case FIRST_FIT: return &arena_planner_online_first_fit;
    case BEST_FIT: return &arena_planner_online_best_fit;
    case BUDDY: return &arena_planner_online_buddy;
    default: return &arena_planner_online_tlsf;
    }
}

static int run(int which, const struct arena_problem *p, uint64_t *offsets, uint64_t *arena)
{
    const struct arena_planner *pl = policy(which);
    struct arena_plan plan;
    memset(&plan, 0, sizeof plan);
    int rc = run_planner(pl, p, NULL, offsets, &plan, 0xA5);
    *arena = plan.arena;
    if (rc == ARENA_OK)
        expect_plan_valid(p, &plan, pl->name);
    return rc;
}

static void expect(int which, const struct arena_tensor *t, size_t n, uint64_t alignment,
                   const uint64_t *want, uint64_t want_arena)
{
    uint64_t off[16], arena;
    struct arena_problem p = {.n = n, .tensors = t, .alignment = alignment};
    cr_assert_eq(run(which, &p, off, &arena), ARENA_OK);
    for (size_t i = 0; i < n; i++)
        cr_expect_eq(off[i], want[i], "%s: tensor %zu at %llu, expected %llu",
                     policy(which)->name, i, (unsigned long long)off[i],
                     (unsigned long long)want[i]);
    cr_expect_eq(arena, want_arena, "%s: arena %llu, expected %llu", policy(which)->name,
                 (unsigned long long)arena, (unsigned long long)want_arena);
}

Test(online, registered_as_online)
{
    for (int w = 0; w < NPOLICIES; w++) {
        const struct arena_planner *pl = policy(w);
        cr_expect_eq(arena_planner_find(pl->name), pl, "%s", pl->name);
        cr_expect_eq(pl->kind, ARENA_KIND_ONLINE, "%s", pl->name);
    }
}

/* Alignment 1, records (size, first, last):
 *   T0 (30,0,1)  T1 (10,0,5)  T2 (20,0,1)  T3 (10,0,5)  T4 (20,2,3)  T5 (25,2,3)
 * Step 0 allocates T0..T3 from an empty heap: 0, 30, 40, 60; top 70.
 * Step 2 frees T0 and T2 (last step 1): holes [0,30) and [40,60), each
 * between live separators T1 and T3, so nothing coalesces. Then:
 * - first fit: T4 (20) takes the lowest hole that fits, [0,30) -> 0, leaving
 *   [20,30); T5 (25) fits neither [20,30) nor [40,60): the top, 70; arena 95.
 * - best fit: T4 takes the smallest hole that fits, [40,60) exactly -> 40;
 *   T5 (25) takes [0,30) -> 0; arena 70.
 * - TLSF: [0,30) is filed in class (f 4, s 14), [40,60) in (4, 4); T4's 20
 *   rounds to nothing (width-1 classes below 32) and finds (4,4): 40; T5's 25
 *   looks from (4, 9) up and finds (4, 14): 0; arena 70, as best fit. */
static const struct arena_tensor ff_bf[] = {{30, 0, 1}, {10, 0, 5}, {20, 0, 1},
                                            {10, 0, 5}, {20, 2, 3}, {25, 2, 3}};

Test(online, first_fit_and_best_fit_differ)
{
    const uint64_t ff[] = {0, 30, 40, 60, 0, 70};
    const uint64_t bf[] = {0, 30, 40, 60, 40, 0};
    expect(FIRST_FIT, ff_bf, 6, 1, ff, 95);
    expect(BEST_FIT, ff_bf, 6, 1, bf, 70);
    expect(TLSF, ff_bf, 6, 1, bf, 70);
}

/* Alignment 16, records (size, first, last):
 *   T0 (64,0,0)  T1 (16,1,2)  T2 (16,1,3)  T3 (32,1,3)  T4 (32,3,3)  T5 (128,4,4)
 * Step 0: the heap starts as T0's block [0,64): T0 at 0.
 * Step 1: T0 freed, [0,64) free. T1 (16) splits it: [32,64) and [16,32) go
 * free, T1 at 0; T2 takes [16,32); T3 (32) takes [32,64).
 * Step 3: T1 freed: its buddy [16,32) is T2's, no merge; [0,16) free. T4 (32)
 * finds no free block of 32 or more: the heap doubles, [64,128) joins (its
 * buddy [0,64) is busy), is split, [96,128) free, T4 at 64.
 * Step 4: T2 freed merges with [0,16) into [0,32), stopped by T3; T3 freed
 * merges with [0,32) into [0,64), stopped by T4; T4 freed merges with
 * [96,128) into [64,128) and that with [0,64) into the whole heap [0,128).
 * T5 (128) takes it: 0. Arena 128 (T5's end). */
Test(online, buddy_split_and_merge)
{
    const struct arena_tensor t[] = {{64, 0, 0}, {16, 1, 2}, {16, 1, 3},
                                     {32, 1, 3}, {32, 3, 3}, {128, 4, 4}};
    const uint64_t want[] = {0, 0, 16, 32, 64, 0};
    expect(BUDDY, t, 6, 16, want, 128);
}

/* Alignment 16: T0 (48,0,1) gets a 64-byte block [0,64) (the heap); T1
 * (16,0,1) finds nothing free: the heap doubles to [0,128), [64,128) splits
 * into [96,128), [80,96) and T1's [64,80). Arena 80, where first fit packs
 * T1 at 48 for 64: the 16 bytes the power of two wasted. */
Test(online, buddy_rounds_up_to_powers_of_two)
{
    const struct arena_tensor t[] = {{48, 0, 1}, {16, 0, 1}};
    const uint64_t buddy[] = {0, 64}, ff[] = {0, 48};
    expect(BUDDY, t, 2, 16, buddy, 80);
    expect(FIRST_FIT, t, 2, 16, ff, 64);
}

/* Alignment 1. T0 (33,0,0), T1 (8,0,3) a separator, T2 (s,1,2).
 * Step 0: T0 at 0, T1 at 33, top 41. Step 1: T0 freed: [0,33) free, filed
 * under 33 = 0b100001: f 5, s = 33 >> 1 = 16 -> s 0, class (5, 0), which
 * holds blocks of 32 and 33.
 * - s = 33: TLSF rounds the request up to the next class, 33 + 2^1 - 1 = 34:
 *   class (5, 1). Its list and every one above are empty, so T2 goes on top
 *   at 41: arena 74 — the 33-byte hole that would fit exactly is skipped.
 *   First fit puts T2 at 0: arena 41.
 * - s = 32: rounded 32 + 1 = 33, class (5, 0): the hole is found, T2 at 0,
 *   the 1 byte left over is filed under (0, 1); arena 41. */
Test(online, tlsf_class_boundary)
{
    const struct arena_tensor t33[] = {{33, 0, 0}, {8, 0, 3}, {33, 1, 2}};
    const struct arena_tensor t32[] = {{33, 0, 0}, {8, 0, 3}, {32, 1, 2}};
    const uint64_t skip[] = {0, 33, 41}, fit[] = {0, 33, 0};
    expect(TLSF, t33, 3, 1, skip, 74);
    expect(FIRST_FIT, t33, 3, 1, fit, 41);
    expect(TLSF, t32, 3, 1, fit, 41);
}

/* The replay order itself: frees come before allocations at a step, lowest
 * id first. (16,0,0) dies at step 0, so at step 1 its bytes are free before
 * (16,1,1) is placed: every policy puts both at 0, arena 16. And two tensors
 * born at one step are allocated by id, whatever their sizes. */
Test(online, frees_before_allocations)
{
    const struct arena_tensor t[] = {{16, 0, 0}, {16, 1, 1}};
    const uint64_t want[] = {0, 0};
    const struct arena_tensor u[] = {{64, 0, 0}, {16, 0, 0}};
    const uint64_t byid[] = {0, 64};
    for (int w = 0; w < NPOLICIES; w++) {
        expect(w, t, 2, 16, want, 16);
        expect(w, u, 2, 16, byid, 80); /* buddy too: [64,128) splits to [64,80) */
    }
}

/* ---- the slow reference simulator (first fit, best fit) ----------------- */

struct live {
    uint64_t off, size;
};

static int by_off(const void *a, const void *b)
{
    const struct live *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

static int by_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The free blocks are the gaps between live blocks sorted by address; above
 * the highest live block everything is free. */
static uint64_t ref_place(struct live *lv, size_t m, uint64_t size, int best)
{
    qsort(lv, m, sizeof *lv, by_off);
    uint64_t at = 0, chosen = UINT64_MAX, chosen_len = UINT64_MAX;
    for (size_t k = 0; k < m; k++) {
        if (lv[k].off > at) {
            uint64_t len = lv[k].off - at;
            if (len >= size) {
                if (!best)
                    return at;
                if (len < chosen_len) {
                    chosen = at;
                    chosen_len = len;
                }
            }
        }
        if (lv[k].off + lv[k].size > at)
            at = lv[k].off + lv[k].size;
    }
    return chosen != UINT64_MAX ? chosen : at;
}

static void reference(const struct arena_problem *p, int best, uint64_t *off, uint64_t *arena)
{
    size_t n = p->n, m = 0, ne = 0;
    const struct arena_tensor *t = p->tensors;
    struct live *lv = malloc((n + 1) * sizeof *lv);
    uint32_t *owner = malloc((n + 1) * sizeof *owner);
    uint32_t *steps = malloc((2 * n + 1) * sizeof *steps);
    cr_assert(lv && owner && steps);
    for (size_t i = 0; i < n; i++) {
        steps[ne++] = t[i].first;
        steps[ne++] = t[i].last + 1;
    }
    qsort(steps, ne, sizeof *steps, by_u32);
    *arena = 0;
    for (size_t e = 0; e < ne; e++) {
        uint32_t s = steps[e];
        if (e > 0 && steps[e - 1] == s)
            continue;
        /* At step s: free every tensor whose last step is s - 1, by id. */
        for (size_t i = 0; i < n; i++) {
            if (t[i].size == 0 || (uint64_t)t[i].last + 1 != s)
                continue;
            for (size_t k = 0; k < m; k++)
                if (owner[k] == i) {
                    lv[k] = lv[m - 1];
                    owner[k] = owner[m - 1];
                    m--;
                    break;
                }
        }
        /* Then allocate every tensor whose first step is s, by id. */
        for (size_t i = 0; i < n; i++) {
            if (t[i].first != s)
                continue;
            off[i] = 0;
            if (t[i].size == 0)
                continue;
            /* ref_place sorts what it is given: give it a copy, so lv and
             * owner stay side by side. */
            struct live *copy = malloc(m * sizeof *copy + 1);
            cr_assert(copy);
            if (m)
                memcpy(copy, lv, m * sizeof *copy);
            off[i] = ref_place(copy, m, t[i].size, best);
            free(copy);
            lv[m].off = off[i];
            lv[m].size = t[i].size;
            owner[m++] = (uint32_t)i;
            if (off[i] + t[i].size > *arena)
                *arena = off[i] + t[i].size;
        }
    }
    free(lv);
    free(owner);
    free(steps);
}

Test(online, reference_agrees_on_the_vectors)
{
    /* The simulator itself against the hand-worked first/best fit vector. */
    struct arena_problem p = {.n = 6, .tensors = ff_bf, .alignment = 1};
    uint64_t off[6], arena;
    reference(&p, 0, off, &arena);
    cr_expect_eq(arena, 95);
    cr_expect_eq(off[4], 0);
    cr_expect_eq(off[5], 70);
    reference(&p, 1, off, &arena);
    cr_expect_eq(arena, 70);
    cr_expect_eq(off[4], 40);
    cr_expect_eq(off[5], 0);
}

/* 2,400 problems: n from 1 to 200 (one in ten up to 600), every shape, the
 * alignments 1, 8, 16 and 64. */
Test(online, random_problems, .timeout = 300)
{
    enum { PROBLEMS = 2400, MAXN = 600 };
    static const uint64_t alignments[] = {16, 1, 8, 64};
    struct arena_tensor *t = malloc(MAXN * sizeof *t);
    uint64_t *off = malloc(MAXN * sizeof *off), *ref = malloc(MAXN * sizeof *ref);
    cr_assert(t && off && ref);
    size_t compared = 0;
    for (uint64_t k = 0; k < PROBLEMS; k++) {
        struct rp_rng r;
        rp_seed(&r, k * 7919 + 3);
        size_t n = k % 10 == 9 ? 201 + (size_t)rp_below(&r, MAXN - 200)
                               : 1 + (size_t)rp_below(&r, 200);
        enum rp_shape shape = (enum rp_shape)(k % RP_SHAPES);
        uint64_t alignment = alignments[k % 4];
        rp_problem(k + 500000, n, shape, alignment, t);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = alignment};
        struct arena_bounds b;
        cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
        for (int w = 0; w < NPOLICIES; w++) {
            uint64_t arena;
            int rc = run(w, &p, off, &arena);
            cr_assert_eq(rc, ARENA_OK, "%s problem %llu (%s, n %zu): %s", policy(w)->name,
                         (unsigned long long)k, rp_shape_name(shape), n, arena_strerror(rc));
            cr_assert_geq(arena, b.lower_bound, "%s problem %llu", policy(w)->name,
                          (unsigned long long)k);
            if (w == BUDDY) {
                /* Every block sits at a multiple of its power-of-two size. */
                for (size_t i = 0; i < n; i++) {
                    uint64_t blk = alignment;
                    while (blk < t[i].size)
                        blk <<= 1;
                    cr_assert_eq(off[i] % blk, 0, "buddy problem %llu tensor %zu",
                                 (unsigned long long)k, i);
                }
                continue;
            }
            /* The heap grows only by what goes on top: never past naive. */
            cr_assert_leq(arena, b.naive_bytes, "%s problem %llu", policy(w)->name,
                          (unsigned long long)k);
            if (w == TLSF)
                continue;
            uint64_t ref_arena;
            reference(&p, w == BEST_FIT, ref, &ref_arena);
            cr_assert_eq(arena, ref_arena, "%s problem %llu (%s, n %zu): arena %llu, reference %llu",
                         policy(w)->name, (unsigned long long)k, rp_shape_name(shape), n,
                         (unsigned long long)arena, (unsigned long long)ref_arena);
            cr_assert_arr_eq(off, ref, n * sizeof *off, "%s problem %llu: offsets differ",
                             policy(w)->name, (unsigned long long)k);
            compared++;
        }
    }
    cr_expect_eq(compared, 2 * PROBLEMS);
    free(t);
    free(off);
    free(ref);
}
