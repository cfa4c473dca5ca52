/* test_optimal.c — the exact planner `optimal` against methods that share
 * no code with it: an exhaustive search over placement orders and, on a
 * share of the problems, a MIP through GLPK (the standard disjunctive model);
 * known optima (packed boxes, chains); budgets, decision mode, determinism.
 * Every plan is checked by the independent validator. */
#include <criterion/criterion.h>
#include <glpk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "graphs/family.h"
#include "graphs/files.h"
#include "graphs/slack.h"
#include "planners/optimal.h"
#include "planners/planner.h"
#include "planners/problem.h"
#include "tests/asan.h"
#include "tests/expect_plan.h"
#include "tests/random_problems.h"

/* ---- helpers ----------------------------------------------------------- */

/* Every search here carries a node limit, so a regression (a mutant of a
 * rule, say) fails in seconds instead of running until meson's 600 s
 * timeout and losing the other results: 15x the most any of these
 * searches needs today (13,112 nodes, one of the 100 chains), and a
 * search that reaches it answers limit, which fails the test. */
#define TEST_NODES 200000
static const struct arena_plan_options limited = {.node_limit = TEST_NODES};

static uint64_t lower_bound(const struct arena_problem *p)
{
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(p, &b), ARENA_OK);
    return b.lower_bound;
}

/* The smallest arena among the three greedy planners optimal starts from. */
/* The arena of planner name's plan of p. */
static uint64_t arena_of(const struct arena_problem *p, const char *name)
{
    uint64_t *off = malloc((p->n + 1) * sizeof *off);
    struct arena_plan plan;
    cr_assert_eq(run_planner(must_find(name), p, NULL, off, &plan, 0), ARENA_OK);
    free(off);
    return plan.arena;
}

/* The least arena of optimal's three greedy incumbents. */
static uint64_t best_greedy(const struct arena_problem *p)
{
    static const char *const names[] = {"greedy-by-size", "greedy-by-size-firstfit",
                                        "greedy-by-breadth"};
    uint64_t best = UINT64_MAX;
    for (size_t i = 0; i < 3; i++) {
        uint64_t a = arena_of(p, names[i]);
        if (a < best)
            best = a;
    }
    return best;
}

/* Builds a family spec's problem (alignment 16); free p->tensors after. */
static void build_spec(const char *text, struct arena_problem *p)
{
    struct arena_spec spec;
    char err[256];
    size_t ops;
    cr_assert_eq(arena_spec_parse(text, 1, &spec, err, sizeof err), ARENA_OK, "%s: %s", text, err);
    cr_assert_eq(arena_spec_build(&spec, 16, p, &ops, NULL, err, sizeof err), ARENA_OK, "%s: %s", text,
                 err);
}

/* ---- oracle 1: every order of "drop onto what is already there" --------- */

/* Placing tensors one by one, each just above the highest already placed
 * tensor it conflicts with, gives a valid plan for any order; sorted by
 * offset, any plan where every tensor rests on a conflicting one (or on 0) is
 * rebuilt this way, and some optimal plan is such. So the least arena over
 * all orders is the optimum, and over the orders whose offsets never go
 * down too (a plan's order by offset is one). Depth-first over orders, cut
 * when the partial arena reaches the best so far. n <= 10. */
struct drop {
    const struct arena_tensor *t;
    size_t n;
    uint64_t off[10];
    size_t order[10];
    int used[10];
    uint64_t best;
};

static void drop_search(struct drop *s, size_t depth, uint64_t top)
{
    if (top >= s->best)
        return;
    if (depth == s->n) {
        s->best = top;
        return;
    }
    for (size_t i = 0; i < s->n; i++) {
        if (s->used[i])
            continue;
        uint64_t at = 0;
        for (size_t d = 0; d < depth; d++) {
            size_t j = s->order[d];
            if (s->t[j].first <= s->t[i].last && s->t[i].first <= s->t[j].last &&
                s->off[j] + s->t[j].size > at)
                at = s->off[j] + s->t[j].size;
        }
        if (depth > 0 && at < s->off[s->order[depth - 1]])
            continue; /* the order of such a plan by offset is tried too */
        s->used[i] = 1;
        s->order[depth] = i;
        s->off[i] = at;
        drop_search(s, depth + 1, top > at + s->t[i].size ? top : at + s->t[i].size);
        s->used[i] = 0;
    }
}

static uint64_t drop_optimum(const struct arena_tensor *t, size_t n)
{
    struct drop s = {.t = t, .n = n, .best = UINT64_MAX};
    cr_assert_leq(n, 10);
    if (n == 0)
        return 0;
    drop_search(&s, 0, 0);
    return s.best;
}

/* ---- oracle 2: a MIP through GLPK ----------------------------------------- */

/* min z subject to z >= x_i + s_i, and for every conflicting pair i < j with
 * a binary y_ij: x_i + s_i <= x_j + M y_ij and x_j + s_j <= x_i + M (1 - y_ij)
 * (one of the two lies below the other), x >= 0, M = sum of sizes. Sizes in
 * units of the alignment, so every figure is a small integer. */
static uint64_t mip_optimum(const struct arena_tensor *t, size_t n, uint64_t alignment)
{
    glp_term_out(GLP_OFF);
    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MIN);
    double M = 0;
    for (size_t i = 0; i < n; i++)
        M += (double)(t[i].size / alignment);
    /* columns: x_0..x_{n-1}, z, then one y per conflicting pair */
    glp_add_cols(lp, (int)n + 1);
    for (size_t i = 0; i <= n; i++)
        glp_set_col_bnds(lp, (int)i + 1, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(lp, (int)n + 1, 1.0);
    int ind[4];
    double val[4];
    for (size_t i = 0; i < n; i++) {
        int row = glp_add_rows(lp, 1); /* z - x_i >= s_i */
        glp_set_row_bnds(lp, row, GLP_LO, (double)(t[i].size / alignment), 0.0);
        ind[1] = (int)n + 1, val[1] = 1.0;
        ind[2] = (int)i + 1, val[2] = -1.0;
        glp_set_mat_row(lp, row, 2, ind, val);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            if (t[i].size == 0 || t[j].size == 0 || t[i].first > t[j].last ||
                t[j].first > t[i].last)
                continue;
            int y = glp_add_cols(lp, 1);
            glp_set_col_kind(lp, y, GLP_BV);
            int row = glp_add_rows(lp, 2);
            /* x_j - x_i + M y >= s_i */
            glp_set_row_bnds(lp, row, GLP_LO, (double)(t[i].size / alignment), 0.0);
            ind[1] = (int)j + 1, val[1] = 1.0;
            ind[2] = (int)i + 1, val[2] = -1.0;
            ind[3] = y, val[3] = M;
            glp_set_mat_row(lp, row, 3, ind, val);
            /* x_i - x_j - M y >= s_j - M */
            glp_set_row_bnds(lp, row + 1, GLP_LO, (double)(t[j].size / alignment) - M, 0.0);
            ind[1] = (int)i + 1, val[1] = 1.0;
            ind[2] = (int)j + 1, val[2] = -1.0;
            ind[3] = y, val[3] = -M;
            glp_set_mat_row(lp, row + 1, 3, ind, val);
        }
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_ON;
    parm.msg_lev = GLP_MSG_OFF;
    cr_assert_eq(glp_intopt(lp, &parm), 0, "GLPK failed");
    cr_assert_eq(glp_mip_status(lp), GLP_OPT, "GLPK: no optimum");
    double z = glp_mip_obj_val(lp);
    glp_delete_prob(lp);
    return (uint64_t)(z + 0.5) * alignment;
}

/* ---- the oracles agree with each other, then with optimal --------------- */

/* Small problems with sizes of 1..12 units, where the MIP stays fast. */
static void small_problem(uint64_t seed, size_t n, uint64_t alignment, struct arena_tensor *t)
{
    struct rp_rng r;
    rp_seed(&r, seed);
    uint32_t steps = 2 + (uint32_t)rp_below(&r, 2 * n);
    for (size_t i = 0; i < n; i++) {
        t[i].first = (uint32_t)rp_below(&r, steps);
        t[i].last = t[i].first + (uint32_t)rp_below(&r, 1 + steps / 2);
        t[i].size = alignment * (1 + rp_below(&r, 12));
    }
}

Test(optimal, mip_agrees_with_drop_oracle)
{
    /* 200 problems, n <= 7: the two oracles share nothing but the problem. */
    struct arena_tensor t[8];
    for (uint64_t k = 0; k < 200; k++) {
        size_t n = 1 + (size_t)(k % 7);
        uint64_t alignment = k % 2 ? 16 : 1;
        small_problem(k * 7919 + 1, n, alignment, t);
        uint64_t a = drop_optimum(t, n), b = mip_optimum(t, n, alignment);
        cr_assert_eq(a, b, "problem %llu (n %zu): orders %llu, MIP %llu", (unsigned long long)k,
                     n, (unsigned long long)a, (unsigned long long)b);
    }
}

/* optimal with engine `engine` (enum arena_optimal_engine) proves want. */
static void expect_optimal_by(const struct arena_problem *p, uint64_t want, const char *who,
                              uint32_t engine)
{
    uint64_t off[16];
    struct arena_plan plan;
    struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
    arena_optimal_values(kv, engine, 0);
    struct arena_plan_options opt = {.node_limit = TEST_NODES, .values = kv};
    cr_assert_leq(p->n, 16);
    int rc = run_planner(must_find("optimal"), p, &opt, off, &plan, 0x5A);
    const char *by = arena_optimal_engine_name(engine);
    cr_assert_eq(rc, ARENA_OK, "%s (%s): %s", who, by, arena_strerror(rc));
    expect_plan_valid(p, &plan, who);
    cr_assert_eq(plan.arena, want, "%s (%s): arena %llu, optimum %llu", who, by,
                 (unsigned long long)plan.arena, (unsigned long long)want);
    cr_assert_eq(plan.status, ARENA_PLAN_OPTIMAL, "%s (%s): status %s", who, by,
                 arena_plan_status_name(plan.status));
    cr_assert_eq(plan.bound, want, "%s (%s): bound %llu", who, by, (unsigned long long)plan.bound);
}

/* Each engine alone proves want (the portfolio is the search on problems
 * this small: it proves them before the SAT engine's first round). */
static void expect_optimal(const struct arena_problem *p, uint64_t want, const char *who)
{
    expect_optimal_by(p, want, who, ARENA_OPTIMAL_ENGINE_SEARCH);
    expect_optimal_by(p, want, who, ARENA_OPTIMAL_ENGINE_SAT);
    expect_optimal_by(p, want, who, ARENA_OPTIMAL_ENGINE_LCG);
}

Test(optimal, random_small_against_orders)
{
    /* 2,400 seeded problems of every shape of random_problems.c (sizes up to
     * 2^40, zero sizes, ties, touching lifetimes), n from 1 to 8, one in 24
     * with n 9 or 10; alignments 16, 1, 8, 64. */
    static const uint64_t alignments[] = {16, 1, 8, 64};
    struct arena_tensor t[10];
    char who[96];
    for (uint64_t k = 0; k < 2400; k++) {
        struct rp_rng r;
        rp_seed(&r, k * 1000003 + 5);
        size_t n = k % 24 == 5 ? 9 + (size_t)rp_below(&r, 2) : 1 + (size_t)rp_below(&r, 8);
        enum rp_shape shape = (enum rp_shape)(k % RP_SHAPES);
        uint64_t alignment = alignments[k % 4];
        rp_problem(k, n, shape, alignment, t);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = alignment};
        snprintf(who, sizeof who, "problem %llu (%s, n %zu)", (unsigned long long)k,
                 rp_shape_name(shape), n);
        expect_optimal(&p, drop_optimum(t, n), who);
    }
}

Test(optimal, random_small_against_mip)
{
    /* 200 problems of small_problem's kind, n up to 8, against GLPK. */
    struct arena_tensor t[8];
    char who[64];
    for (uint64_t k = 0; k < 200; k++) {
        size_t n = 2 + (size_t)(k % 7);
        uint64_t alignment = k % 3 ? 16 : 8;
        small_problem(k * 104729 + 3, n, alignment, t);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = alignment};
        snprintf(who, sizeof who, "MIP problem %llu (n %zu)", (unsigned long long)k, n);
        expect_optimal(&p, mip_optimum(t, n, alignment), who);
    }
}

Test(optimal, no_slack_against_orders)
{
    /* 1,200 problems without slack, where optimal searches lowest gap first:
     * 2..5 tensors of 1..12 units over 3..5 steps, then filler tensors
     * topping every step's live bytes up to the same L (the busiest step's
     * bytes, plus 0..2 units), so every step carries exactly
     * L. Whether L is reachable depends on the gaps lining up: the orders
     * oracle says which, and the arena (L or above) must match. */
    struct arena_tensor t[10];
    char who[64];
    size_t at_l = 0;
    for (uint64_t k = 0; k < 1200; k++) {
        struct rp_rng r;
        rp_seed(&r, k * 2654435761u + 11);
        uint64_t unit = k % 2 ? 16 : 1;
        uint32_t steps = 3 + (uint32_t)rp_below(&r, 3);
        size_t n = 2 + (size_t)rp_below(&r, 4);
        uint64_t load[5] = {0}, most = 0;
        for (size_t i = 0; i < n; i++) {
            t[i].first = (uint32_t)rp_below(&r, steps);
            t[i].last = t[i].first + (uint32_t)rp_below(&r, steps - t[i].first);
            t[i].size = unit * (1 + rp_below(&r, 12));
            for (uint32_t x = t[i].first; x <= t[i].last; x++)
                load[x] += t[i].size;
        }
        for (uint32_t x = 0; x < steps; x++)
            most = load[x] > most ? load[x] : most;
        uint64_t L = most + unit * rp_below(&r, 3);
        /* fillers: from the first step still short, as far right as the
         * steps stay short, the least shortfall there (each one closes at
         * least one step: at most `steps` of them) */
        for (uint32_t x = 0; x < steps;) {
            if (load[x] == L) {
                x++;
                continue;
            }
            uint32_t y = x;
            uint64_t fill = L - load[x];
            while (y + 1 < steps && load[y + 1] < L) {
                y++;
                fill = L - load[y] < fill ? L - load[y] : fill;
            }
            for (uint32_t z = x; z <= y; z++)
                load[z] += fill;
            t[n++] = (struct arena_tensor){fill, x, y};
        }
        struct arena_problem p = {.n = n, .tensors = t, .alignment = unit};
        uint64_t want = drop_optimum(t, n);
        at_l += want == L;
        snprintf(who, sizeof who, "no-slack problem %llu (n %zu, L %llu)",
                 (unsigned long long)k, n, (unsigned long long)L);
        expect_optimal(&p, want, who);
    }
    /* the oracle finds L reachable on every one of these (the greedy plans
     * miss it on about one in eight, which optimal then searches): a wrong
     * "no plan at L" from the gap-first search would show as a larger arena */
    cr_assert_gt(at_l, 0);
}

Test(optimal, slack_boxes_against_oracles)
{
    /* 200 small boxes of the family slack (graphs/slack.c: a non-guillotine
     * packing with holes, a full step kept), 3 to 10 tensors over 3 to 7
     * cell columns and 3 to 14 rows of 16 bytes: the optimum is the box's
     * height by construction. The orders oracle must find exactly height
     * (so must GLPK, up to 8 tensors), the witness must pass the validator
     * at height, and optimal must reach height and prove it. */
    char spec[160], err[256];
    size_t mip_runs = 0, greedy_above = 0, refused = 0;
    for (unsigned k = 0; k < 200; k++) {
        unsigned cols = 3 + k % 5, rows = 3 + k % 10, n = 3 + k % 8;
        unsigned full = 1 + (k % 5 == 4 && n >= 6); /* cols 7 then */
        double fill = 0.55 + 0.05 * (k % 5); /* n / fill rounds above n: holes */
        unsigned m = (unsigned)(n / fill + 0.5);
        if (m + cols > cols * rows)
            rows = m / cols + 2; /* room for the m rectangles cut */
        struct arena_problem p = {0};
        uint64_t *witness;
        for (unsigned seed = k + 1;; seed += 1000) {
            /* a cut whose full steps hold more than n is refused: next seed */
            snprintf(spec, sizeof spec,
                     "slack:n=%u,steps=%u,height=%u,unit=16,fill=%g,wheel=%g,full=%u,seed=%u",
                     n, 16 * cols, 16 * rows, fill, k % 3 ? 1.0 : 0.5, full, seed);
            struct arena_spec sp;
            cr_assert_eq(arena_spec_parse(spec, 1, &sp, err, sizeof err), ARENA_OK, "%s", err);
            if (arena_slack_witness(sp.values, 16, &p, &witness, err, sizeof err) == ARENA_OK)
                break;
            cr_assert(strstr(err, "full steps hold") != NULL, "%s: %s", spec, err);
            cr_assert_lt(++refused, 300, "%s: refused again", spec);
        }
        uint64_t height = 16ull * rows;
        struct arena_plan w = {.n = p.n, .offsets = witness, .arena = height};
        expect_plan_valid(&p, &w, spec);
        cr_assert_eq(lower_bound(&p), height, "%s", spec);
        uint64_t orders = drop_optimum(p.tensors, p.n);
        cr_assert_eq(orders, height, "%s: the orders oracle finds %llu", spec,
                     (unsigned long long)orders);
        if (p.n <= 8) {
            uint64_t mip = mip_optimum(p.tensors, p.n, 16);
            cr_assert_eq(mip, height, "%s: GLPK finds %llu", spec, (unsigned long long)mip);
            mip_runs++;
        }
        expect_optimal(&p, height, spec);
        greedy_above += best_greedy(&p) > height;
        free(witness);
        free((void *)p.tensors);
    }
    /* the boxes separate greedy from the optimum on some (measured: 15) */
    cr_expect_gt(greedy_above, 0);
    cr_expect_gt(mip_runs, 100, "GLPK ran on %zu", mip_runs);
}

Test(optimal, known_answers)
{
    /* The known answers of tests/known_answers.h (ka_firstfit, ka_six,
     * ka_founding). First fit gives 90 here and an 80 plan exists; at step 1, T0 10 + T1 20 + T4 50 = 80 are live, so 80 is
     * the lower bound and the optimum. */
    const struct arena_tensor ff[] = {{10, 0, 1}, {20, 1, 2}, {30, 2, 3}, {40, 3, 4}, {50, 0, 1}};
    struct arena_problem p = {.n = 5, .tensors = ff, .alignment = 1};
    expect_optimal(&p, 80, "first-fit case");
    /* Best fit 130, first fit 120; at step 3, 20 + 30 + 20 + 10 = 80 and at
     * step 2, 30 + 90 = 120 are live: 120 is the bound, first fit reaches
     * it, so it is the optimum. */
    const struct arena_tensor six[] = {{20, 3, 4}, {30, 1, 3}, {50, 4, 6},
                                       {20, 3, 3}, {10, 3, 4}, {90, 2, 2}};
    struct arena_problem q = {.n = 6, .tensors = six, .alignment = 1};
    expect_optimal(&q, 120, "six");
    /* The four-tensor example: bound 240K (steps 1: 120K + 120K), reached
     * by greedy-by-size. */
    const struct arena_tensor doc[] = {{122880, 0, 1}, {122880, 1, 2}, {81920, 2, 3},
                                       {20480, 3, 4}};
    struct arena_problem d = {.n = 4, .tensors = doc, .alignment = 16};
    expect_optimal(&d, 245760, "four-tensor example");
}

/* ---- known optima: packed boxes and chains ---------------------------------- */

Test(optimal, packed_reaches_height)
{
    /* fill=1: every step holds exactly `height` bytes, so the optimum is
     * height = 1 MiB. Measured greedy arenas (greedy-by-size, firstfit,
     * breadth) in bytes above 1,048,576:
     *   n=50:  seed 1: 3,456 3,456 208,320; seed 2: 112 112 112; seed 3: 0 0 314,576
     *   n=100: seed 1: 20,448 18,672 210,096; seed 2: 2,624 2,624 101,648;
     *          seed 3: 36,784 36,784 292,496
     *   n=200: seed 1: 260,352 207,680 203,232; seed 2: 2,608 2,608 647,216;
     *          seed 3: 192,496 192,496 510,192
     *   n=300: seed 1: 244,864 240,384 260,256; seed 2: 72,864 49,216 611,904;
     *          seed 3: 125,824 125,824 580,704
     *   n=500: seed 1: 229,952 229,232 304,928; seed 2: 78,992 73,360 703,632;
     *          seed 3: 461,152 461,152 595,680
     * so the best greedy plan misses the optimum on 14 of these 15 boxes (the
     * suite `exact`), by up to 44% (n=500, seed 3: 461,152 bytes above).
     * optimal reaches height and proves it on all fifteen. The greedy
     * figures are measurements, not known answers: the test asserts only
     * that the boxes separate the two (some greedy plan misses height). */
    static const char *const specs[] = {
        "packed:n=50,seed=1",  "packed:n=50,seed=2",  "packed:n=50,seed=3",
        "packed:n=100,seed=1", "packed:n=100,seed=2", "packed:n=100,seed=3",
        "packed:n=200,seed=1", "packed:n=200,seed=2", "packed:n=200,seed=3",
        "packed:n=300,seed=1", "packed:n=300,seed=2", "packed:n=300,seed=3",
        "packed:n=500,seed=1", "packed:n=500,seed=2", "packed:n=500,seed=3",
    };
    size_t greedy_above = 0;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        struct arena_problem p = {0};
        build_spec(specs[i], &p);
        cr_assert_eq(lower_bound(&p), 1048576, "%s: the cut box holds height at every step",
                     specs[i]);
        uint64_t *off = malloc(p.n * sizeof *off);
        struct arena_plan plan;
        cr_assert_eq(run_planner(must_find("optimal"), &p, &limited, off, &plan, 0), ARENA_OK);
        expect_plan_valid(&p, &plan, specs[i]);
        cr_expect_eq(plan.arena, 1048576, "%s: arena %llu", specs[i],
                     (unsigned long long)plan.arena);
        cr_expect_eq(plan.status, ARENA_PLAN_OPTIMAL, "%s", specs[i]);
        cr_expect_eq(plan.bound, 1048576, "%s", specs[i]);
        greedy_above += best_greedy(&p) > 1048576;
        free(off);
        free((void *)p.tensors);
    }
    cr_expect_gt(greedy_above, 0, "the best greedy plan reaches height on every box");
}

Test(optimal, singles_fill_the_holes)
{
    /* packed n=300 seed 2: one part (steps 979..991) holds 198 tensors, 155
     * of them single-section (dozens of 16-byte ones); n=500 seed 2: 301 and
     * 246. Branching over which single goes where, the other searches ended
     * at 1.0057x and 1.035x height after 60 s; the filler search places the
     * 43 (55) others and packs the singles into their holes: height,
     * proven, in 1,962 and 7,066 nodes. */
    static const char *const specs[] = {"packed:n=300,seed=2", "packed:n=500,seed=2"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        struct arena_problem p = {0};
        build_spec(specs[i], &p);
        uint64_t *off = malloc(p.n * sizeof *off);
        struct arena_plan plan;
        struct arena_plan_options opt = {.node_limit = 20000};
        cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0), ARENA_OK);
        expect_plan_valid(&p, &plan, specs[i]);
        cr_expect_eq(plan.arena, 1048576, "%s: arena %llu", specs[i],
                     (unsigned long long)plan.arena);
        cr_expect_eq(plan.status, ARENA_PLAN_OPTIMAL, "%s", specs[i]);
        free(off);
        free((void *)p.tensors);
    }
}

Test(optimal, small_boxes_reach_height)
{
    /* 300 seeded boxes of 4 to 60 tensors over 2 to 9 steps, cut in units
     * of 16 to 256 bytes (narrow boxes: many one-section tensors, many
     * equal sizes). Every plan must pass the validator and reach the box's
     * height, proven. (The lowest-gap-first search settles all of them in
     * round 0; the filler search's plans are checked on the boxes above.) */
    char spec[128];
    static const unsigned units[] = {16, 32, 48, 256};
    for (unsigned k = 0; k < 300; k++) {
        unsigned steps = 2 + k % 8, unit = units[k % 4], rows = 8 + k % 41;
        unsigned height = unit * rows, n = 4 + k % 57;
        n = n < steps * rows ? n : steps * rows; /* a box has steps x rows cells */
        snprintf(spec, sizeof spec, "packed:n=%u,steps=%u,height=%u,unit=%u,seed=%u", n, steps,
                 height, unit, k + 1);
        struct arena_problem p = {0};
        build_spec(spec, &p);
        uint64_t *off = malloc((p.n ? p.n : 1) * sizeof *off);
        struct arena_plan plan;
        cr_assert_eq(run_planner(must_find("optimal"), &p, &limited, off, &plan, 0), ARENA_OK, "%s", spec);
        expect_plan_valid(&p, &plan, spec);
        cr_assert_eq(plan.arena, height, "%s: arena %llu", spec, (unsigned long long)plan.arena);
        cr_assert_eq(plan.status, ARENA_PLAN_OPTIMAL, "%s", spec);
        free(off);
        free((void *)p.tensors);
    }
}

Test(optimal, chains_reach_lower_bound)
{
    /* A chain (each tensor meets only its neighbours) has optimum = lower
     * bound: even tensors at the bottom, odd ones hung from the top. 100
     * random chains of 2 to 400 tensors, then chain:ops=256 (where every
     * greedy planner is 1.47x the bound). */
    struct arena_tensor *t = malloc(400 * sizeof *t);
    uint64_t *off = malloc(400 * sizeof *off);
    char who[64];
    for (uint64_t k = 0; k < 100; k++) {
        struct rp_rng r;
        rp_seed(&r, k + 99);
        size_t n = 2 + (size_t)rp_below(&r, 399);
        rp_problem(k * 31 + 7, n, RP_CHAIN, 16, t);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = 16};
        struct arena_plan plan;
        snprintf(who, sizeof who, "chain %llu (n %zu)", (unsigned long long)k, n);
        cr_assert_eq(run_planner(must_find("optimal"), &p, &limited, off, &plan, 0), ARENA_OK, "%s", who);
        expect_plan_valid(&p, &plan, who);
        cr_assert_eq(plan.arena, lower_bound(&p), "%s: arena %llu", who,
                     (unsigned long long)plan.arena);
        cr_assert_eq(plan.status, ARENA_PLAN_OPTIMAL, "%s", who);
    }
    free(t);
    free(off);
    struct arena_problem p = {0};
    build_spec("chain:ops=256", &p);
    uint64_t *o = malloc(p.n * sizeof *o);
    struct arena_plan plan;
    cr_assert_eq(run_planner(must_find("optimal"), &p, &limited, o, &plan, 0), ARENA_OK);
    expect_plan_valid(&p, &plan, "chain:ops=256");
    cr_expect_eq(plan.arena, lower_bound(&p));
    cr_expect_eq(plan.status, ARENA_PLAN_OPTIMAL);
    cr_expect_gt(best_greedy(&p), lower_bound(&p), "greedy planners miss the bound here");
    free(o);
    free((void *)p.tensors);
}

/* ---- budgets, decision mode, determinism ----------------------------------- */

Test(optimal, node_limit_one_returns_incumbent)
{
    /* packed n=200 seed 1: the best greedy plan is 1,251,808 (breadth), the
     * optimum 1,048,576. One node cannot prove anything: the incumbent comes
     * back, valid, with status limit and the max-live bound. */
    struct arena_problem p = {0};
    build_spec("packed:n=200,seed=1", &p);
    uint64_t *off = malloc(p.n * sizeof *off);
    struct arena_plan plan;
    struct arena_plan_options opt = {.node_limit = 1};
    cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0), ARENA_OK);
    expect_plan_valid(&p, &plan, "node limit 1");
    cr_expect_eq(plan.status, ARENA_PLAN_LIMIT);
    cr_expect_eq(plan.arena, best_greedy(&p));
    cr_expect_eq(plan.arena, 1251808);
    cr_expect_eq(plan.bound, 1048576);
    cr_expect_eq(plan.nodes, 1);
    free(off);
    free((void *)p.tensors);
}

Test(optimal, time_limit_keeps_a_valid_plan)
{
    /* A tiny time budget on a box optimal does not settle at once: the plan
     * is valid, never worse than online-tlsf's (with a time limit planned
     * first and whole; the greedy incumbents may not finish within 20 ms,
     * as under the sanitizers), and the bound holds. */
    struct arena_problem p = {0};
    build_spec("packed:n=500,seed=2", &p);
    uint64_t *off = malloc(p.n * sizeof *off);
    struct arena_plan plan;
    struct arena_plan_options opt = {.time_limit = 0.02};
    cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0), ARENA_OK);
    expect_plan_valid(&p, &plan, "time limit");
    cr_expect_leq(plan.arena, arena_of(&p, "online-tlsf"));
    cr_expect_geq(plan.arena, 1048576);
    cr_expect_eq(plan.bound, 1048576);
    cr_expect(plan.status == ARENA_PLAN_LIMIT || plan.status == ARENA_PLAN_OPTIMAL);
    free(off);
    free((void *)p.tensors);
}

Test(optimal, capacity_decisions)
{
    struct arena_problem p = {0};
    build_spec("packed:n=100,seed=1", &p);
    uint64_t *off = malloc(p.n * sizeof *off);
    struct arena_plan plan;
    const struct arena_planner *pl = must_find("optimal");

    /* Below the max-live bound: infeasible at once, no node searched, and
     * still a valid plan (the incumbent). */
    struct arena_plan_options opt = {.capacity = 1048576 - 16, .node_limit = TEST_NODES};
    cr_assert_eq(run_planner(pl, &p, &opt, off, &plan, 0), ARENA_OK);
    expect_plan_valid(&p, &plan, "capacity below the bound");
    cr_expect_eq(plan.status, ARENA_PLAN_INFEASIBLE);
    cr_expect_eq(plan.nodes, 0);
    cr_expect_gt(plan.bound, opt.capacity);

    /* At the optimum (height): a plan within it is found. */
    opt.capacity = 1048576;
    cr_assert_eq(run_planner(pl, &p, &opt, off, &plan, 0), ARENA_OK);
    expect_plan_valid(&p, &plan, "capacity at height");
    cr_expect_eq(plan.status, ARENA_PLAN_FEASIBLE);
    cr_expect_leq(plan.arena, opt.capacity);

    /* Above the greedy plan: answered without a search. */
    opt.capacity = best_greedy(&p);
    cr_assert_eq(run_planner(pl, &p, &opt, off, &plan, 0), ARENA_OK);
    cr_expect_eq(plan.status, ARENA_PLAN_FEASIBLE);
    cr_expect_eq(plan.nodes, 0);
    free(off);
    free((void *)p.tensors);

}

Test(optimal, deterministic_with_a_node_limit)
{
    /* Same problem and node limit, different scratch contents: the same
     * offsets, arena, bound and node count. 1,000 nodes stop the search
     * before the filler search's plan (node 1,962): a stop mid-search. */
    struct arena_problem p = {0};
    build_spec("packed:n=300,seed=2", &p);
    uint64_t *a = malloc(p.n * sizeof *a), *b = malloc(p.n * sizeof *b);
    struct arena_plan pa, pb;
    struct arena_plan_options opt = {.node_limit = 1000};
    cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, a, &pa, 0x00), ARENA_OK);
    cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, b, &pb, 0xFF), ARENA_OK);
    expect_plan_valid(&p, &pa, "first run");
    cr_expect_eq(pa.arena, pb.arena);
    cr_expect_eq(pa.bound, pb.bound);
    cr_expect_eq(pa.nodes, pb.nodes);
    cr_expect_eq(pa.status, pb.status);
    cr_expect_eq(pa.status, ARENA_PLAN_LIMIT);
    cr_expect_leq(pa.nodes, 1000);
    cr_expect_arr_eq(a, b, p.n * sizeof *a);
    free(a);
    free(b);
    free((void *)p.tensors);
}

/* A part that takes the search hundreds of nodes (random_problems' residual
 * shape, seed 1388, n = 10): optimum 2048 = its max-live bytes, proven in
 * 344 nodes. */
static const struct arena_tensor hard_part[] = {
    {848, 0, 1}, {784, 1, 3}, {672, 2, 5}, {464, 3, 4},  {400, 4, 5},
    {640, 5, 6}, {1008, 6, 7}, {896, 7, 8}, {1008, 8, 9}, {384, 9, 10}};

Test(optimal, independent_parts)
{
    /* The problem is split where no lifetime spans a step boundary, and a
     * part whose greedy plan already meets the bound proven for the whole
     * problem is never searched. Here: a chain of 40 tensors of 16 bytes
     * (greedy packs it in 32 bytes, its max-live) beside hard_part, before
     * it in time and after it. Split, the plan costs exactly the nodes
     * hard_part costs alone; searched as one part, every tensor of the
     * chain is placed too, in every decision run (693 nodes with the chain
     * first, 384 with it last). The
     * search's own splitting of independent groups does not show this: on
     * copies of hard_part it spends the same nodes as the split. */
    enum { H = sizeof hard_part / sizeof hard_part[0], E = 40 };
    struct arena_problem alone = {.n = H, .tensors = hard_part, .alignment = 16};
    uint64_t off[H + E];
    struct arena_plan a;
    cr_assert_eq(run_planner(must_find("optimal"), &alone, &limited, off, &a, 0), ARENA_OK);
    cr_assert_eq(a.status, ARENA_PLAN_OPTIMAL);
    cr_assert_eq(a.arena, 2048);
    cr_assert_eq(drop_optimum(hard_part, H), 2048);
    cr_assert_gt(a.nodes, 100, "hard_part is no longer a search: %llu nodes",
                 (unsigned long long)a.nodes);

    for (int chain_first = 0; chain_first < 2; chain_first++) {
        struct arena_tensor t[H + E];
        uint32_t shift = chain_first ? E + 1 : 0, chain_at = chain_first ? 0 : 11;
        for (size_t i = 0; i < H; i++)
            t[i] = (struct arena_tensor){hard_part[i].size, hard_part[i].first + shift,
                                         hard_part[i].last + shift};
        for (uint32_t i = 0; i < E; i++)
            t[H + i] = (struct arena_tensor){16, chain_at + i, chain_at + i + 1};
        struct arena_problem p = {.n = H + E, .tensors = t, .alignment = 16};
        struct arena_plan plan;
        cr_assert_eq(run_planner(must_find("optimal"), &p, &limited, off, &plan, 0), ARENA_OK);
        expect_plan_valid(&p, &plan, "hard part and chain");
        cr_expect_eq(plan.status, ARENA_PLAN_OPTIMAL);
        cr_expect_eq(plan.arena, 2048);
        cr_expect_eq(plan.nodes, a.nodes,
                     "chain %s: %llu nodes, the hard part alone %llu: the chain was searched",
                     chain_first ? "first" : "last", (unsigned long long)plan.nodes,
                     (unsigned long long)a.nodes);
    }
}

/* The highest end of tensors [a, b) in plan (a part's arena). */
static uint64_t top_of(const struct arena_problem *p, const struct arena_plan *plan, size_t a,
                       size_t b)
{
    uint64_t top = 0;
    for (size_t i = a; i < b; i++)
        if (plan->offsets[i] + p->tensors[i].size > top)
            top = plan->offsets[i] + p->tensors[i].size;
    return top;
}

Test(optimal, a_hard_part_starves_none)
{
    /* Two parts of max-live 1 MiB: slack:n=290,seed=5 (not proven here,
     * nor by the lcg engine alone in 200,000 conflicts; slack:n=220,seed=1
     * until rule lcg-energy proved it in 2,215), then in time
     * slack:n=150,seed=5 (proven alone in 508 nodes; its greedy plans
     * 1.37x). The parts take a round each in turn, so the second is proven
     * well within 200,000 (with slack:n=220,seed=1 first: the first's
     * round 0 took 100,117 nodes, the second 508). Solved one after the other, as
     * they were before, the first took every node and the second kept its
     * greedy plan (packed:n=1000,seed=3 at 30 s: 1.10x the bound,
     * now 1.005x). */
    struct arena_problem hard = {0}, easy = {0};
    build_spec("slack:n=290,seed=5", &hard);
    build_spec("slack:n=150,seed=5", &easy);
    size_t n = hard.n + easy.n;
    struct arena_tensor *t = malloc(n * sizeof *t);
    uint32_t after = 0;
    for (size_t i = 0; i < hard.n; i++) {
        t[i] = hard.tensors[i];
        if (t[i].last + 1 > after)
            after = t[i].last + 1;
    }
    for (size_t i = 0; i < easy.n; i++) {
        t[hard.n + i] = easy.tensors[i];
        t[hard.n + i].first += after;
        t[hard.n + i].last += after;
    }
    struct arena_problem p = {.n = n, .tensors = t, .alignment = 16};
    uint64_t *off = malloc(n * sizeof *off);
    struct arena_plan plan;
    struct arena_plan_options one = {.node_limit = 1}, opt = {.node_limit = 200000};
    cr_assert_eq(run_planner(must_find("optimal"), &p, &one, off, &plan, 0), ARENA_OK);
    cr_assert_gt(top_of(&p, &plan, hard.n, n), 1048576, "the second part's incumbent is at its bound");
    cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0), ARENA_OK);
    expect_plan_valid(&p, &plan, "hard part, then easy part");
    cr_expect_eq(plan.bound, 1048576);
    cr_expect_eq(plan.status, ARENA_PLAN_LIMIT, "the first part is proven: pick a harder one");
    cr_expect_eq(top_of(&p, &plan, hard.n, n), 1048576, "the second part was starved: %llu",
                 (unsigned long long)top_of(&p, &plan, hard.n, n));
    cr_expect_eq(plan.arena, top_of(&p, &plan, 0, hard.n));
    free(off);
    free(t);
    free((void *)hard.tensors);
    free((void *)easy.tensors);
}

Test(optimal, steps_by_the_sizes_gcd)
{
    /* Every gravity plan's offsets are sums of sizes, so the optimum is a
     * multiple of the sizes' gcd: the bound proven by a decision run that
     * finds nothing, and the capacity of the next branch and bound run, move
     * by it, not by the alignment. hard_part's sizes times 64 (gcd 1,024;
     * optimum 2048 x 64 above its max-live): with alignment 1 the search is
     * the very same as with alignment 1,024 (the same nodes), where one
     * byte at a time it would ask every height in between again. */
    enum { H = sizeof hard_part / sizeof hard_part[0] };
    struct arena_tensor t[H];
    uint64_t live = 0, off[H];
    for (size_t i = 0; i < H; i++)
        t[i] = (struct arena_tensor){hard_part[i].size * 64, hard_part[i].first, hard_part[i].last};
    for (uint32_t step = 0; step <= 10; step++) {
        uint64_t at = 0;
        for (size_t i = 0; i < H; i++)
            at += t[i].first <= step && step <= t[i].last ? t[i].size : 0;
        live = live > at ? live : at;
    }
    cr_assert_lt(live, 2048 * 64, "hard_part's optimum is no longer above its max-live");
    struct arena_plan by[2];
    const uint64_t align[2] = {1, 1024};
    for (int a = 0; a < 2; a++) {
        struct arena_problem p = {.n = H, .tensors = t, .alignment = align[a]};
        cr_assert_eq(run_planner(must_find("optimal"), &p, &limited, off, &by[a], 0), ARENA_OK);
        expect_plan_valid(&p, &by[a], "hard_part x 64");
        cr_expect_eq(by[a].status, ARENA_PLAN_OPTIMAL, "alignment %llu", (unsigned long long)align[a]);
        cr_expect_eq(by[a].arena, 2048 * 64, "alignment %llu", (unsigned long long)align[a]);
    }
    cr_expect_eq(by[0].nodes, by[1].nodes, "alignment 1: %llu nodes, 1,024: %llu",
                 (unsigned long long)by[0].nodes, (unsigned long long)by[1].nodes);
}

/* ---- each rule prunes: the switches of planners/optimal.h --------------- */

/* A member of the suite exact-slack where limited discrepancy search finds
 * the optimum (the box's height, 1 MiB) in 508 nodes, and depth-first
 * search alone not within 1,000,000 (measured). */
#define SLACK_150_SPEC "slack:n=150,seed=5"
/* One where the depth-bounded discrepancy search (rule depth-discrepancy)
 * finds the optimum in 475,641 nodes, and no other search within 10 s
 * (measured). */
#define SLACK_150_1_SPEC "slack:n=150,seed=1"

/* One instance per rule on which it saves nodes: with every rule on,
 * `optimal` proves the optimum within the node limit; with that one rule
 * off, it needs more nodes (or stops at the limit). The figures, nodes with
 * the rule and without (measured when the switches came in):
 *   parts       a chain, then hard_part (as independent_parts)   344 / 693
 *   groups      two hard_parts under one tensor spanning both  9,666 / 18,741
 *   section     packed:n=60,fill=0.9,seed=1                       87 / limit
 *   busiest     packed:n=60,fill=0.9,seed=1                       87 / 137
 *   dominance   packed:n=60,fill=0.9,seed=1                       87 / 271
 *   stack       packed:n=60,fill=0.9,seed=6                    2,065 / 2,078
 *               (seed=1 was 87 / 89; with the discrepancy search first,
 *               88 / 88: no stack lies on its path to the plan any more)
 *   twins       hard_part and four identical tensors              19 / 22
 *   lowest-gap  packed:n=50,seed=1                                47 / 57
 *   filler      packed:n=120,unit=1024,steps=20,seed=3            92 / 895
 *   discrepancy slack:n=150,seed=5                               508 / limit
 *   depth-discrepancy slack:n=150,seed=1 (700,000 nodes)     639,348 / limit
 *               (475,641 before the probes took their share; rerank off
 *               in both runs: with it, the discrepancy search at
 *               preorder 2 finds it in 92,288 nodes, 81,516 without dds)
 *   rerank      slack:n=150,seed=1 (700,000 nodes)            92,288 / 639,348
 *   gap-discrepancy packed:n=500,seed=6                       36,163 / limit
 * (limit: the 50,000 nodes of the test, or the rule's own, the optimum not
 * proven). The SAT engine's rules, run with that engine alone, its
 * conflicts the nodes: a CDCL solver's conflicts swing several-fold on one
 * instance with any change of the formula (docs/optimal-sat.md), so a rule
 * pays when the sum over a few instances is smaller with it (conflicts
 * with the rule on / off, each instance proven with it):
 *   sat-tiling  packed:n=60,unit=1024 seeds 1, 2; n=100 seed 2  24,662 / 73,306
 *               (n=100 not proven within 60,000 without it)
 *   sat-phases  the same three                                 24,662 / 26,860
 * (with CaDiCaL's stable mode alone, solver.c; before it 8,548 with both,
 * 27,259 without the tiling, 41,212 without the phases)
 * and sat-domains by a plan: packed:n=80,seed=2 (unit 16) is proven in 117
 * conflicts with it; without it, its encoding passes the engine's memory
 * budget, the engine is skipped, and the greedy plan stays (1.0025 x). */
/* Three perfect packings (no slack: every section full) where the SAT
 * engine's tiling and phases pay, summed over the three. */
#define SAT_PACKED_SPECS                                                                   \
    "packed:n=60,unit=1024,seed=1;packed:n=60,unit=1024,seed=2;packed:n=100,unit=1024,seed=2"

/* The hand-built instances; the others are family specs (SPEC_OWN_TIMES:
 * with each lifetime's length in the family's steps as the problem's own,
 * as a file whose times are not dense keeps them). */
enum rule_instance { FROM_SPEC, SPEC_OWN_TIMES, HARD_AND_CHAIN, HARD_TWICE_SPANNED, HARD_AND_TWINS };

/* A search that only finds plans (repair) proves nothing sooner: its
 * instance shows instead that, at the node limit, the plan with it is
 * smaller than the plan without (measured: slack:n=130,seed=11, 50,000
 * nodes: 1.0215 x the bound with repair, 1.0732 x without, the probes off
 * in both: with them, neither reaches a plan below 1.0371 x). So do the
 * probes (slack:n=180,seed=1, 200,000 nodes: 1,124,352 B with them,
 * 1,271,808 without) and the own-times preorders (slack:n=150,seed=1 with
 * its own lengths, 150,000 nodes, rerank off in both runs (with it the
 * box is proven either way): 1,074,176 B with, 1,075,200 without; a
 * small gain on these random boxes, where a lifetime's length says little:
 * on MiniMalloc's benchmark instance I, not in this repository, optimal
 * proves the bound in 0.41 s with them and not within 60 s without). */
static const struct {
    const char *rule;
    enum rule_instance instance;
    const char *spec; /* with FROM_SPEC: the family spec */
    int finds; /* 1: shown by a smaller plan at the limit, not by nodes */
    uint64_t limit; /* its node limit; 0: the test's */
    uint32_t also_off; /* rules off in both runs (ARENA_OPTIMAL_*), 0: none */
    int sat; /* 1: a rule of the SAT engine, run with that engine alone (its
                conflicts are the nodes); 2: of the lcg engine, the same with
                it; 3: of the portfolio (its nodes and conflicts); 0: the
                search alone */
} rule_cases[] = {
    {"parts", HARD_AND_CHAIN, NULL, 0, 0, 0, 0},
    {"groups", HARD_TWICE_SPANNED, NULL, 0, 0, 0, 0},
    {"section", FROM_SPEC, "packed:n=60,fill=0.9,seed=1", 0, 0, 0, 0},
    {"busiest", FROM_SPEC, "packed:n=60,fill=0.9,seed=1", 0, 0, 0, 0},
    {"dominance", FROM_SPEC, "packed:n=60,fill=0.9,seed=1", 0, 0, 0, 0},
    {"stack", FROM_SPEC, "packed:n=60,fill=0.9,seed=6", 0, 0, 0, 0},
    {"twins", HARD_AND_TWINS, NULL, 0, 0, 0, 0},
    {"lowest-gap", FROM_SPEC, "packed:n=50,seed=1", 0, 0, 0, 0},
    {"filler", FROM_SPEC, "packed:n=120,unit=1024,steps=20,seed=3", 0, 0, 0, 0},
    {"discrepancy", FROM_SPEC, SLACK_150_SPEC, 0, 0, 0, 0},
    {"repair", FROM_SPEC, "slack:n=130,seed=11", 1, 0, ARENA_OPTIMAL_PROBES, 0},
    {"depth-discrepancy", FROM_SPEC, SLACK_150_1_SPEC, 0, 700000, ARENA_OPTIMAL_RERANK, 0},
    {"gap-discrepancy", FROM_SPEC, "packed:n=500,seed=6", 0, 50000, 0, 0},
    {"own-times", SPEC_OWN_TIMES, SLACK_150_1_SPEC, 1, 150000, ARENA_OPTIMAL_RERANK, 0},
    {"probes", FROM_SPEC, "slack:n=180,seed=1", 1, 200000, 0, 0},
    {"rerank", FROM_SPEC, SLACK_150_1_SPEC, 0, 700000, 0, 0},
    {"sat-domains", FROM_SPEC, "packed:n=80,seed=2", 1, 50000, 0, 1},
    {"sat-tiling", FROM_SPEC, SAT_PACKED_SPECS, 0, 60000, 0, 1},
    {"sat-phases", FROM_SPEC, SAT_PACKED_SPECS, 0, 60000, 0, 1},
    /* proven in 110 conflicts with it, in 45,499 without (111 with it and
       lcg-domains; not in the limit without) */
    {"lcg-propagate", FROM_SPEC, "slack:n=150,seed=2", 0, 5000, 0, 2},
    /* proven in 111 conflicts with it, in 546 without */
    {"lcg-domains", FROM_SPEC, "slack:n=150,seed=2", 0, 5000, 0, 2},
    /* proven in 119 conflicts with it, in 1,527 without */
    {"lcg-energy", FROM_SPEC, "slack:n=150,seed=4", 0, 0, 0, 2},
    /* the portfolio proves it in 131,115 with it, not in 600,000 without:
     * adaptive_share_gives_the_winning_member_the_time */
    {"adaptive-share", FROM_SPEC, "slack:n=290,seed=2", 0, 600000, 0, 3},
};

/* Each lifetime's length in steps, malloc'd: what a file whose times are
 * the family's steps, written sparse, keeps as its own (problem.h span). */
static const uint64_t *own_lengths(const struct arena_problem *p)
{
    uint64_t *span = malloc(p->n * sizeof *span);
    cr_assert_not_null(span);
    for (size_t i = 0; i < p->n; i++)
        span[i] = (uint64_t)p->tensors[i].last - p->tensors[i].first + 1;
    return span;
}

/* Builds the instance into t (at least 64 entries) or, for a spec, into a
 * malloc'd block (*owned, to free, with span). */
static void rule_instance(enum rule_instance which, const char *spec, struct arena_tensor *t,
                          struct arena_problem *p, int *owned)
{
    enum { H = sizeof hard_part / sizeof hard_part[0] };
    size_t n = 0;
    *owned = 0;
    switch (which) {
    case HARD_AND_CHAIN: /* a chain of 40, then hard_part after it */
        for (uint32_t i = 0; i < 40; i++)
            t[n++] = (struct arena_tensor){16, i, i + 1};
        for (size_t i = 0; i < H; i++)
            t[n++] = (struct arena_tensor){hard_part[i].size, hard_part[i].first + 41,
                                           hard_part[i].last + 41};
        break;
    case HARD_TWICE_SPANNED: /* once placed, the spanning tensor leaves two groups */
        for (uint32_t c = 0; c < 2; c++)
            for (size_t i = 0; i < H; i++)
                t[n++] = (struct arena_tensor){hard_part[i].size, hard_part[i].first + 11 * c,
                                               hard_part[i].last + 11 * c};
        t[n++] = (struct arena_tensor){256, 0, 21};
        break;
    case HARD_AND_TWINS:
        for (size_t i = 0; i < H; i++)
            t[n++] = hard_part[i];
        for (int c = 0; c < 4; c++)
            t[n++] = (struct arena_tensor){336, 2, 6};
        break;
    case FROM_SPEC:
    case SPEC_OWN_TIMES:
        build_spec(spec, p);
        *owned = 1;
        if (which == SPEC_OWN_TIMES)
            p->span = own_lengths(p);
        return;
    }
    *p = (struct arena_problem){.n = n, .tensors = t, .alignment = 16};
}

/* A SAT rule pays over a list of family specs (';' between them): with it
 * the engine alone proves each within limit conflicts, and the sum of the
 * conflicts is smaller with it than without (a run the limit stops counts
 * the limit). */
static void sat_rule_pays(const struct arena_optimal_switch *sw, const char *specs, uint64_t limit)
{
    uint64_t sum[2] = {0, 0};
    char spec[128];
    for (const char *at = specs; *at;) {
        size_t len = strcspn(at, ";");
        cr_assert_lt(len, sizeof spec);
        memcpy(spec, at, len);
        spec[len] = '\0';
        at += len + (at[len] == ';');
        struct arena_problem p = {0};
        build_spec(spec, &p);
        uint64_t *off = malloc(p.n * sizeof *off);
        for (int without = 0; without < 2; without++) {
            struct arena_plan plan;
            struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
            arena_optimal_values(kv, ARENA_OPTIMAL_ENGINE_SAT, without ? sw->bit : 0);
            struct arena_plan_options opt = {.node_limit = limit, .values = kv};
            cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0), ARENA_OK);
            expect_plan_valid(&p, &plan, spec);
            if (!without)
                cr_assert_eq(plan.status, ARENA_PLAN_OPTIMAL, "%s: %s not proven in %llu conflicts",
                             sw->name, spec, (unsigned long long)limit);
            sum[without] += plan.status == ARENA_PLAN_OPTIMAL ? plan.nodes : limit;
        }
        free(off);
        free((void *)p.tensors);
    }
    cr_expect_lt(sum[0], sum[1], "%s: %llu conflicts with it, %llu without: it pays nothing here",
                 sw->name, (unsigned long long)sum[0], (unsigned long long)sum[1]);
}

/* Every switch's case, those with the test's node limit (large: 0) or
 * with a limit of their own (large: 1: the big instances, a second or
 * more each, in suite slow; gap-discrepancy's n = 500 names the test's
 * 50,000 as its own to go there). */
static void rules_prune(int large)
{
    for (size_t i = 0; i < arena_optimal_switch_count; i++) {
        const struct arena_optimal_switch *sw = &arena_optimal_switches[i];
        size_t c = 0;
        while (c < sizeof rule_cases / sizeof rule_cases[0] &&
               strcmp(rule_cases[c].rule, sw->name) != 0)
            c++;
        cr_assert_lt(c, sizeof rule_cases / sizeof rule_cases[0],
                     "rule %s has no instance showing that it prunes", sw->name);
        if ((rule_cases[c].limit != 0) != large)
            continue;
        const uint64_t limit = rule_cases[c].limit ? rule_cases[c].limit : 50000;
        if (rule_cases[c].sat == 1 && !rule_cases[c].finds) {
            sat_rule_pays(sw, rule_cases[c].spec, limit);
            continue;
        }
        struct arena_tensor t[64];
        struct arena_problem p = {0};
        int owned;
        rule_instance(rule_cases[c].instance, rule_cases[c].spec, t, &p, &owned);
        uint64_t *off = malloc(p.n * sizeof *off);
        struct arena_plan on, off_plan;
        struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
        unsigned engine = rule_cases[c].sat == 3   ? ARENA_OPTIMAL_ENGINE_PORTFOLIO
                          : rule_cases[c].sat == 2 ? ARENA_OPTIMAL_ENGINE_LCG
                          : rule_cases[c].sat == 1 ? ARENA_OPTIMAL_ENGINE_SAT
                                                   : ARENA_OPTIMAL_ENGINE_SEARCH;
        arena_optimal_values(kv, engine, rule_cases[c].also_off);
        struct arena_plan_options opt = {.node_limit = limit, .values = kv};
        cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &on, 0), ARENA_OK);
        expect_plan_valid(&p, &on, sw->name);
        if (rule_cases[c].finds) {
            arena_optimal_values(kv, engine, rule_cases[c].also_off | sw->bit);
            cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &off_plan, 0), ARENA_OK);
            expect_plan_valid(&p, &off_plan, sw->name);
            cr_expect_lt(on.arena, off_plan.arena, "%s: %llu with it, %llu without", sw->name,
                         (unsigned long long)on.arena, (unsigned long long)off_plan.arena);
            cr_expect_eq(on.bound, off_plan.bound, "%s: a search that finds moved the bound",
                         sw->name);
            free(off);
            if (owned) {
                free((void *)p.tensors);
                free((void *)p.span);
            }
            continue;
        }
        cr_assert_eq(on.status, ARENA_PLAN_OPTIMAL, "%s: its instance is not proven in %llu nodes",
                     sw->name, (unsigned long long)limit);
        arena_optimal_values(kv, engine, rule_cases[c].also_off | sw->bit);
        cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &off_plan, 0), ARENA_OK);
        expect_plan_valid(&p, &off_plan, sw->name);
        cr_expect_gt(off_plan.nodes, on.nodes, "%s off: %llu nodes, on: %llu: it prunes nothing here",
                     sw->name, (unsigned long long)off_plan.nodes, (unsigned long long)on.nodes);
        /* off, the search is still exact: a proof is the same optimum */
        cr_expect_geq(off_plan.arena, on.arena, "%s off", sw->name);
        if (off_plan.status == ARENA_PLAN_OPTIMAL)
            cr_expect_eq(off_plan.arena, on.arena, "%s off", sw->name);
        cr_expect_leq(off_plan.bound, on.arena, "%s off: bound above the optimum", sw->name);
        free(off);
        if (owned) {
            free((void *)p.tensors);
            free((void *)p.span);
        }
    }
}

Test(optimal, each_rule_prunes)
{
    rules_prune(0);
}

/* Under AddressSanitizer (CI's build-san) this measurement of what each
 * rule prunes is left to the plain build: its code paths are the default
 * suite's each_rule_prunes and SAT cases, which run there too, and its
 * large limits cost 400 s of CI's 20 minutes under the sanitizer. */
Test(optimal, each_rule_prunes_large_limits)
{
#ifdef TD_UNDER_ASAN
    cr_skip_test("a measurement of pruning, run by the plain build (400 s under ASan)");
#endif
    rules_prune(1);
}

/* Runs `optimal` on a slack spec (optimum = the box's height, its max-live,
 * by construction: the generator's witness is checked at that height) at
 * node limits from, from + step, ... up to to, or until it proves the
 * optimum. At every limit the plan is valid and the bound stays at the
 * height (a search whose tree a limit cut, taken as a proof, would raise it
 * one step above the witness); before the find the status is limit and the
 * plan above the height, from the find on the plan is the height. Returns
 * the nodes of the find (0: none); *stopped counts the runs a limit ended. */
static uint64_t cut_proves_nothing(const char *spec, uint64_t from, uint64_t to, uint64_t step,
                                   size_t *stopped)
{
    struct arena_spec sp;
    char err[256], who[96];
    struct arena_problem p = {0};
    uint64_t *witness;
    cr_assert_eq(arena_spec_parse(spec, 1, &sp, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_eq(arena_slack_witness(sp.values, 16, &p, &witness, err, sizeof err), ARENA_OK, "%s",
                 err);
    const uint64_t height = 1024 * 1024;
    cr_assert_eq(lower_bound(&p), height);
    struct arena_plan wit = {.n = p.n, .offsets = witness, .arena = height};
    expect_plan_valid(&p, &wit, "the witness");
    uint64_t *off = malloc(p.n * sizeof *off), found_at = 0;
    *stopped = 0;
    for (uint64_t limit = from; limit <= to && found_at == 0; limit += step) {
        struct arena_plan_options opt = {.node_limit = limit};
        struct arena_plan plan;
        snprintf(who, sizeof who, "%s, node limit %llu", spec, (unsigned long long)limit);
        cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0), ARENA_OK);
        expect_plan_valid(&p, &plan, who);
        cr_assert_eq(plan.bound, height, "%s: bound %llu, the witness %llu", who,
                     (unsigned long long)plan.bound, (unsigned long long)height);
        if (plan.status == ARENA_PLAN_OPTIMAL) {
            cr_assert_eq(plan.arena, height, "%s", who);
            found_at = plan.nodes;
        } else {
            cr_assert_eq(plan.status, ARENA_PLAN_LIMIT, "%s", who);
            cr_assert_gt(plan.arena, height, "%s: a plan at the bound is optimal", who);
            ++*stopped;
        }
    }
    free(off);
    free(witness);
    free((void *)p.tensors);
    return found_at;
}

Test(optimal, discrepancy_finds_and_a_cut_proves_nothing)
{
    /* Limited discrepancy search (canonical.c, arena_optimal_discrepancy_search) on
     * SLACK_150_SPEC: at the bound the heuristic's dive (limit 0) runs out
     * after a few dozen nodes with children cut by the limit, and a search
     * of one discrepancy finds a plan at the bound (508 nodes in all,
     * measured). A tree the limit cut proves nothing (cut_proves_nothing). */
    size_t stopped;
    uint64_t found_at = cut_proves_nothing(SLACK_150_SPEC, 10, 2000, 10, &stopped);
    cr_expect_gt(found_at, 0, "no plan at the bound within 2,000 nodes");
    cr_expect_gt(stopped, 0, "found before any limit stopped it");
}

Test(optimal, depth_bounded_cut_proves_nothing)
{
    /* The depth-bounded discrepancy search (rule depth-discrepancy) on
     * SLACK_150_1_SPEC runs from the first round on, after each of the
     * first four preorders' limited discrepancy search, and its trees are
     * cut two ways: discrepancies on the top levels beyond the limit, and
     * subtrees below them that spent their nodes (its limit-0 tree ends cut
     * after a few dozen nodes, measured). None of them may prove: up to 40,000 nodes (before
     * its find) the bound stays at the witness's height. */
    size_t stopped;
    uint64_t found_at = cut_proves_nothing(SLACK_150_1_SPEC, 2000, 40000, 2000, &stopped);
    cr_expect_eq(found_at, 0, "found at %llu nodes", (unsigned long long)found_at);
    cr_expect_eq(stopped, 20);
}

Test(optimal, own_times_prove_nothing_false)
{
    /* Boxes of the family slack not proven within the limit (optimum =
     * max-live = the height, 1 MiB, by construction) with lengths of their own that are not the steps', so
     * preorders 4-6 rank by them and rank every group afresh. Any length is
     * only an order, so no search may prove the height infeasible: at
     * capacity 1 MiB the answer is a plan or the limit, never infeasible,
     * and minimising, the bound stays at the height. Each box stays
     * unproven at the limit, so every round's preorders 4-6 ran (their
     * plans, when they find none, change nothing that can be seen). */
    static const char *const specs[] = {"slack:n=150,seed=1", "slack:n=150,seed=2",
                                        "slack:n=180,seed=1", "slack:n=220,seed=1"};
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        const char *spec = specs[k];
        struct arena_problem p = {0};
        build_spec(spec, &p);
        uint64_t *span = malloc(p.n * sizeof *span);
        cr_assert_not_null(span);
        for (size_t i = 0; i < p.n; i++) /* any positive length: a hash of the lifetime */
            span[i] = 1 + ((p.tensors[i].first * 2654435761u) ^ (p.tensors[i].last * 40503u)) % 1000;
        p.span = span;
        uint64_t *off = malloc(p.n * sizeof *off);
        cr_assert_not_null(off);
        struct arena_plan at, own;
        struct arena_plan_options opt = {.node_limit = 50000, .capacity = 1048576};
        cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &at, 0), ARENA_OK);
        expect_plan_valid(&p, &at, spec);
        cr_expect_neq(at.status, ARENA_PLAN_INFEASIBLE, "%s: the height proven infeasible", spec);
        opt.capacity = 0;
        cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &own, 0), ARENA_OK);
        expect_plan_valid(&p, &own, spec);
        cr_expect_eq(own.bound, 1048576, "%s: bound %llu", spec, (unsigned long long)own.bound);
        cr_expect_eq(own.status, ARENA_PLAN_LIMIT, "%s: proven before the limit", spec);
        free(off);
        free(span);
        free((void *)p.tensors);
    }
}

Test(optimal, rules_off_stay_exact)
{
    /* With every rule off, and with each alone off, small problems still get
     * their optimum proven (a rule off only widens the search). */
    struct arena_tensor t[10];
    char who[96];
    uint32_t all = 0;
    for (size_t i = 0; i < arena_optimal_switch_count; i++)
        all |= arena_optimal_switches[i].bit;
    for (uint64_t k = 0; k < 400; k++) {
        struct rp_rng r;
        rp_seed(&r, k * 7777 + 3);
        size_t n = 1 + (size_t)rp_below(&r, 8);
        enum rp_shape shape = (enum rp_shape)(k % RP_SHAPES);
        rp_problem(k + 50000, n, shape, 16, t);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = 16};
        uint64_t want = drop_optimum(t, n), off[10];
        size_t which = (size_t)(k % (arena_optimal_switch_count + 1));
        struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
        arena_optimal_values(kv, ARENA_OPTIMAL_ENGINE_PORTFOLIO,
                             which == arena_optimal_switch_count ? all
                                                                 : arena_optimal_switches[which].bit);
        struct arena_plan_options opt = {.node_limit = TEST_NODES, .values = kv};
        struct arena_plan plan;
        snprintf(who, sizeof who, "problem %llu (%s, n %zu, off 0x%x)", (unsigned long long)k,
                 rp_shape_name(shape), n, (unsigned)kv[ARENA_OPTIMAL_KEY_OFF].choice);
        cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0x3C), ARENA_OK);
        expect_plan_valid(&p, &plan, who);
        cr_expect_eq(plan.status, ARENA_PLAN_OPTIMAL, "%s", who);
        cr_expect_eq(plan.arena, want, "%s: arena %llu, optimum %llu", who,
                     (unsigned long long)plan.arena, (unsigned long long)want);
    }
}

Test(optimal, rule_names_are_found)
{
    for (size_t i = 0; i < arena_optimal_switch_count; i++) {
        const char *name = arena_optimal_switches[i].name;
        cr_expect_eq(arena_optimal_switch_find(name, strlen(name)), &arena_optimal_switches[i]);
        uint32_t bit = arena_optimal_switches[i].bit;
        cr_expect(bit != 0 && (bit & (bit - 1)) == 0, "%s: not one bit", name);
        for (size_t j = 0; j < i; j++)
            cr_expect_lt(arena_optimal_switches[j].bit, bit, "%s: the table is in bit order",
                         name);
        /* key off's set holds rule i as bit i: the values map the bit to it */
        struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
        arena_optimal_values(kv, 0, bit);
        cr_expect_eq(kv[ARENA_OPTIMAL_KEY_OFF].choice, (uint64_t)1 << i, "%s", name);
    }
    cr_expect_null(arena_optimal_switch_find("sectio", 6));
    cr_expect_null(arena_optimal_switch_find("nonsense", 8));
}

/* ---- budgets at every size (findings #6 and #13 of round 2) ------------- */

/* Plans spec under opt: valid, the bound max-live (at most the arena); the
 * caller frees *off and p->tensors. */
static void plan_spec(const char *spec, const struct arena_plan_options *opt,
                      struct arena_problem *p, uint64_t **off, struct arena_plan *plan)
{
    build_spec(spec, p);
    *off = malloc((p->n + 1) * sizeof **off);
    cr_assert_eq(run_planner(must_find("optimal"), p, opt, *off, plan, 0), ARENA_OK);
    expect_plan_valid(p, plan, spec);
    cr_expect_geq(plan->bound, lower_bound(p), "%s", spec);
    cr_expect_geq(plan->arena, plan->bound, "%s", spec);
}

Test(optimal, clock_read_by_work_not_nodes)
{
    /* #6: the clock was read every 256 nodes, and on these parts 256 nodes
     * (and the greedy incumbents before them) took seconds. Now it is read
     * by units of work, the incumbents included: a budget already spent
     * when the call starts stops it before its first node, with a valid
     * plan and the max-live bound, whatever the machine's speed. */
    static const char *const specs[] = {"random-intervals:n=8192,live=1000,sizes=uniform",
                                        "random-intervals:n=8192,live=3000,sizes=uniform",
                                        "packed:n=8000,steps=8000"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        struct arena_problem p = {0};
        uint64_t *off;
        struct arena_plan plan;
        struct arena_plan_options opt = {.time_limit = 1e-9};
        plan_spec(specs[i], &opt, &p, &off, &plan);
        cr_expect_eq(plan.nodes, 0, "%s: %llu nodes", specs[i], (unsigned long long)plan.nodes);
        cr_expect_eq(plan.bound, lower_bound(&p), "%s", specs[i]);
        cr_expect(plan.status == ARENA_PLAN_LIMIT || plan.arena == plan.bound, "%s", specs[i]);
        free(off);
        free((void *)p.tensors);
    }
}

Test(optimal, stop_flag_before_any_work)
{
    /* A caller's signal flag already set: no node, a valid plan, status
     * limit, and no bound swept for (0: nothing beyond max-live, which the
     * caller settles; bench drops a stopped call anyway). */
    static volatile sig_atomic_t stop = 1;
    struct arena_problem p = {0};
    build_spec("random-intervals:n=8192,live=3000,sizes=uniform", &p);
    uint64_t *off = malloc(p.n * sizeof *off);
    struct arena_plan plan;
    struct arena_plan_options opt = {.stop = &stop, .node_limit = TEST_NODES};
    cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0), ARENA_OK);
    expect_plan_valid(&p, &plan, "stopped before any work");
    cr_expect_eq(plan.nodes, 0);
    cr_expect_eq(plan.bound, 0);
    cr_expect_eq(plan.status, ARENA_PLAN_LIMIT);
    free(off);
    free((void *)p.tensors);
}

Test(optimal, no_size_cap)
{
    /* Above the former 8,192-tensor cap: a plan at max-live is optimal
     * (was limit with a 0.0 % gap), and the search runs (n = 9,000 with
     * long lifetimes: greedy misses the bound, a node limit stops it). */
    struct arena_problem p = {0};
    uint64_t *off;
    struct arena_plan plan;
    struct arena_plan_options bounded = {.node_limit = TEST_NODES};
    plan_spec("random-intervals:n=10000", &bounded, &p, &off, &plan);
    cr_expect_eq(plan.arena, lower_bound(&p));
    cr_expect_eq(plan.status, ARENA_PLAN_OPTIMAL);
    cr_expect_eq(plan.nodes, 0);
    free(off);
    free((void *)p.tensors);

    struct arena_plan_options few = {.node_limit = 50};
    plan_spec("random-intervals:n=9000,live=100,sizes=uniform", &few, &p, &off, &plan);
    cr_expect_leq(plan.arena, best_greedy(&p));
    cr_expect_eq(plan.bound, lower_bound(&p));
    if (plan.arena > plan.bound) {
        cr_expect_eq(plan.status, ARENA_PLAN_LIMIT);
        cr_expect_eq(plan.nodes, 50);
    }
    free(off);
    free((void *)p.tensors);
}

Test(optimal, decision_below_max_live_at_any_size)
{
    /* #13: n = 8,193 with a capacity 16 bytes below max-live gave limit;
     * now infeasible at once, as at n = 300. */
    struct arena_problem p = {0};
    build_spec("random-intervals:n=8193,live=30", &p);
    uint64_t lb = lower_bound(&p);
    free((void *)p.tensors);
    uint64_t *off;
    struct arena_plan plan;
    struct arena_plan_options opt = {.capacity = lb - 16, .node_limit = TEST_NODES};
    plan_spec("random-intervals:n=8193,live=30", &opt, &p, &off, &plan);
    cr_expect_eq(plan.status, ARENA_PLAN_INFEASIBLE);
    cr_expect_eq(plan.nodes, 0);
    cr_expect_eq(plan.bound, lb);
    free(off);
    free((void *)p.tensors);
}

Test(optimal, decision_limit_keeps_the_best_search_plan)
{
    /* Decision mode stopped by its budget returns the best plan any of its
     * searches found, not the greedy incumbent: on this box (height
     * 1,048,576, best greedy 1,211,552) minimising without the probes
     * (which only minimising runs) reaches 1,141,152 in 100,000 nodes, and
     * a decision run at the height does as well (with them, minimising
     * reaches 1,127,872). */
    struct arena_problem p = {0};
    uint64_t *off;
    struct arena_plan plan;
    struct arena_plan_options opt = {.capacity = 1048576, .node_limit = 100000};
    plan_spec("packed:n=300,fill=0.9,seed=1", &opt, &p, &off, &plan);
    cr_expect_eq(plan.status, ARENA_PLAN_LIMIT);
    cr_expect_lt(plan.arena, best_greedy(&p));
    struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
    arena_optimal_values(kv, ARENA_OPTIMAL_ENGINE_PORTFOLIO, ARENA_OPTIMAL_PROBES);
    struct arena_plan_options min = {.node_limit = 100000, .values = kv};
    struct arena_plan mplan;
    cr_assert_eq(run_planner(must_find("optimal"), &p, &min, off, &mplan, 0), ARENA_OK);
    cr_expect_leq(plan.arena, mplan.arena);
    free(off);
    free((void *)p.tensors);
}

/* The CPU time of one call of planner pl, its scratch fresh from malloc as
 * bench gives it (pages first touched inside the call, as in bench). */
static double call_cpu(const struct arena_planner *pl, const struct arena_problem *p,
                       const struct arena_plan_options *opt, uint64_t *off,
                       struct arena_plan *plan)
{
    size_t bytes;
    cr_assert_eq(arena_planner_scratch(pl, p, &bytes), ARENA_OK);
    void *scratch = malloc(bytes ? bytes : 1);
    cr_assert(scratch);
    plan->n = p->n;
    plan->offsets = off;
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    cr_assert_eq(arena_planner_run(pl, p, opt, scratch, bytes, plan), ARENA_OK);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    free(scratch);
    return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
}

Test(optimal, time_limit_held_on_large_parts)
{
    /* #6 (slow suite): a 0.1 s limit ran 7.2-12 s on these; issue 35: 1.5-
     * 3.8x it on random-intervals:n=100000 on a loaded machine. Measured in
     * the call's CPU time, which a busy machine does not inflate (a wall
     * clock bound failed in CI's sanitizer build at load 10): until the
     * deadline the call's CPU time cannot pass the wall time elapsed, the
     * limit; after it come the work up to the next clock read (2^15 units,
     * well under a millisecond) and the wrap-up (a max-live sweep, 3 ms at
     * n = 10^5): the 5 % + 50 ms that optimal's limit promises hold those
     * 10x over, 3x under the sanitizers. */
    static const char *const specs[] = {"random-intervals:n=8192,live=3000,sizes=uniform",
                                        "random-intervals:n=100000,live=1000",
                                        "random-intervals:n=100000"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        struct arena_problem p = {0};
        build_spec(specs[i], &p);
        uint64_t *off = malloc((p.n + 1) * sizeof *off);
        struct arena_plan plan;
        struct arena_plan_options opt = {.time_limit = 0.1};
        double s = call_cpu(must_find("optimal"), &p, &opt, off, &plan);
        cr_expect_lt(s, 0.1 * 1.05 + 0.05, "%s: %.3f s of CPU", specs[i], s);
        expect_plan_valid(&p, &plan, specs[i]);
        free(off);
        free((void *)p.tensors);
    }
}

Test(optimal, short_limit_keeps_a_whole_first_plan)
{
    /* Issue 35: at a limit too short for the greedy incumbents, the first
     * of them stopped early and stacked the tensors it had not placed: 87x
     * to 2,219x max-live at 0.1 s on a loaded machine. With a time limit,
     * online-tlsf plans first and whole: the answer at any limit is never
     * worse than its plan, 1.075x here (a greedy plan, when one completes
     * in time, is only kept when better). */
    struct arena_problem p = {0};
    build_spec("random-intervals:n=100000", &p);
    uint64_t *off = malloc((p.n + 1) * sizeof *off);
    struct arena_plan plan, tlsf;
    struct arena_plan_options opt = {.time_limit = 1e-9};
    cr_assert_eq(run_planner(must_find("online-tlsf"), &p, NULL, off, &tlsf, 0), ARENA_OK);
    cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0), ARENA_OK);
    expect_plan_valid(&p, &plan, "optimal at 1 ns");
    cr_expect_leq(plan.arena, tlsf.arena, "optimal %llu B, online-tlsf %llu B",
                  (unsigned long long)plan.arena, (unsigned long long)tlsf.arena);
    cr_expect_lt((double)plan.arena, 1.1 * (double)lower_bound(&p), "%.3fx max-live",
                 (double)plan.arena / (double)lower_bound(&p));
    cr_expect_eq(plan.status, ARENA_PLAN_LIMIT);
    free(off);
    free((void *)p.tensors);
}

Test(optimal, repair_reaches_the_bound_from_a_worse_plan)
{
    /* Small slack instances (optimum = max-live H, with the witness plan W
     * of graphs/slack.c). P: W with every tensor at H/2 or above lifted by
     * 3H/8 (still valid: a lifted tensor lay above every unlifted one it
     * meets), so P ends at 11H/8 and its lifted tensors sit at 7H/8 or
     * above. The repair search alone, at cap H, frees them (its first
     * neighbourhood frees every tensor at 7H/8 or above) and keeps a
     * hole-free floor of P, under which W's own placement completes: it
     * must find a plan at H, which the validator checks. At cap H - 16 no
     * plan exists: it answers LIMIT with a valid plan no worse than P (it
     * proves nothing, so it cannot say infeasible). */
    char spec[96], err[256];
    const struct arena_planner *opt_pl = must_find("optimal");
    for (unsigned seed = 1; seed <= 6; seed++) {
        snprintf(spec, sizeof spec, "slack:n=%u,seed=%u", 30 + 10 * seed, seed);
        struct arena_spec sp;
        cr_assert_eq(arena_spec_parse(spec, 1, &sp, err, sizeof err), ARENA_OK, "%s", err);
        struct arena_problem p = {0};
        uint64_t *witness;
        cr_assert_eq(arena_slack_witness(sp.values, 16, &p, &witness, err, sizeof err), ARENA_OK,
                     "%s: %s", spec, err);
        uint64_t h = lower_bound(&p), arena = 0;
        uint64_t *off = malloc(p.n * sizeof *off);
        for (size_t i = 0; i < p.n; i++) {
            off[i] = witness[i] + (witness[i] >= h / 2 ? h / 8 * 3 : 0);
            arena = off[i] + p.tensors[i].size > arena ? off[i] + p.tensors[i].size : arena;
        }
        struct arena_plan plan = {.n = p.n, .offsets = off, .arena = arena};
        expect_plan_valid(&p, &plan, spec);
        cr_assert_gt(plan.arena, h, "%s: the plan to repair is already at the bound", spec);
        size_t bytes = 0;
        cr_assert_eq(arena_planner_scratch(opt_pl, &p, &bytes), ARENA_OK);
        void *scratch = malloc(bytes ? bytes : 1);
        struct arena_plan_options o = {.node_limit = 2000000};

        /* below the bound: nothing found, nothing claimed */
        cr_assert_eq(arena_optimal_repair(&p, &o, scratch, bytes, &plan, h - 16), ARENA_OK);
        cr_expect_eq(plan.status, ARENA_PLAN_LIMIT, "%s", spec);
        cr_expect(plan.arena >= h && plan.arena <= arena, "%s: %llu", spec,
                  (unsigned long long)plan.arena);
        expect_plan_valid(&p, &plan, spec);
        for (size_t i = 0; i < p.n; i++) /* P again (the search above may improve it) */
            off[i] = witness[i] + (witness[i] >= h / 2 ? h / 8 * 3 : 0);
        plan.arena = arena;

        cr_assert_eq(arena_optimal_repair(&p, &o, scratch, bytes, &plan, h), ARENA_OK);
        expect_plan_valid(&p, &plan, spec);
        cr_expect_eq(plan.status, ARENA_PLAN_FEASIBLE, "%s: repaired to %llu, bound %llu", spec,
                     (unsigned long long)plan.arena, (unsigned long long)h);
        cr_expect_eq(plan.arena, h, "%s", spec);
        free(scratch);
        free(off);
        free(witness);
        free((void *)p.tensors);
    }
}

/* ---- the SAT engine (planners/optimal/sat/) ------------------------------ */

/* Fuzz-style: every plan the SAT engine decodes goes through the validator.
 * 400 seeded problems of every shape of random_problems.c (n 1..10, sizes
 * up to 256 units, alignments 16, 1, 8, 64), engine sat alone with a random
 * set of its rules off, a random conflict limit (1..400, or 1..4 one time
 * in three: a budget that stops a solve must prove nothing) and, one time in
 * two, a capacity between the max-live bound and the optimum's
 * neighbourhood: whatever the budget stops, the plan is valid and every
 * claim holds against the orders oracle (optimal: the optimum; feasible:
 * within the capacity; infeasible: the optimum is above it; the bound never
 * above the optimum). */
static void engine_plans_pass_the_validator(uint32_t engine)
{
    static const uint64_t alignments[] = {16, 1, 8, 64};
    static const uint32_t sat_rules[] = {ARENA_OPTIMAL_SAT_DOMAINS, ARENA_OPTIMAL_SAT_TILING,
                                         ARENA_OPTIMAL_SAT_PHASES};
    struct arena_tensor t[10];
    char who[128];
    size_t proven = 0, decided = 0;
    for (uint64_t k = 0; k < 400; k++) {
        struct rp_rng r;
        rp_seed(&r, k * 6364136223846793005ull + 17);
        size_t n = 1 + (size_t)rp_below(&r, 10);
        enum rp_shape shape = (enum rp_shape)(k % RP_SHAPES);
        uint64_t alignment = alignments[k % 4];
        rp_problem(k + 90000, n, shape, alignment, t);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = alignment};
        uint64_t want = drop_optimum(t, n), lb = lower_bound(&p);
        struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
        arena_optimal_values(kv, engine, 0);
        struct arena_plan_options opt = {.values = kv,
                                         .node_limit = 1 + rp_below(&r, k % 3 ? 400 : 4)};
        uint32_t rules_off = 0;
        for (size_t i = 0; i < sizeof sat_rules / sizeof sat_rules[0]; i++)
            if (rp_below(&r, 3) == 0)
                rules_off |= sat_rules[i];
        arena_optimal_values(kv, engine, rules_off);
        if (k % 2 && want > 0)
            opt.capacity = lb + rp_below(&r, want - lb + 2 * alignment);
        uint64_t off[10];
        struct arena_plan plan;
        snprintf(who, sizeof who, "problem %llu (%s, n %zu, off 0x%x, limit %llu, cap %llu)",
                 (unsigned long long)k, rp_shape_name(shape), n,
                 (unsigned)kv[ARENA_OPTIMAL_KEY_OFF].choice,
                 (unsigned long long)opt.node_limit, (unsigned long long)opt.capacity);
        cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0x77), ARENA_OK, "%s",
                     who);
        expect_plan_valid(&p, &plan, who);
        cr_expect_leq(plan.bound, want, "%s: bound %llu above the optimum %llu", who,
                      (unsigned long long)plan.bound, (unsigned long long)want);
        cr_expect_geq(plan.arena, want, "%s", who);
        switch (plan.status) {
        case ARENA_PLAN_OPTIMAL:
            cr_expect_eq(plan.arena, want, "%s", who);
            proven++;
            break;
        case ARENA_PLAN_FEASIBLE:
            cr_expect(opt.capacity && plan.arena <= opt.capacity, "%s: arena %llu", who,
                      (unsigned long long)plan.arena);
            decided++;
            break;
        case ARENA_PLAN_INFEASIBLE:
            cr_expect(opt.capacity && want > opt.capacity, "%s: the optimum %llu fits", who,
                      (unsigned long long)want);
            decided++;
            break;
        default:
            cr_expect_eq(plan.status, ARENA_PLAN_LIMIT, "%s", who);
        }
    }
    /* the limits leave most of them decided: the claims were tested */
    cr_expect_gt(proven, 100, "proven %zu", proven);
    cr_expect_gt(decided, 100, "decided %zu", decided);
    /* Slack boxes (optimum = max-live = 1 MiB by construction), where a
     * plan at the bound takes the solver dozens of conflicts: at limits of
     * 1..70 conflicts many solves stop, and none may raise the bound. */
    size_t stopped = 0;
    for (unsigned k = 0; k < 24; k++) {
        char spec[64];
        snprintf(spec, sizeof spec, "slack:n=%u,seed=%u", 40 + 10 * (k % 3), 1 + k / 3);
        struct arena_problem p = {0};
        build_spec(spec, &p);
        struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
        arena_optimal_values(kv, engine, 0);
        struct arena_plan_options opt = {.values = kv,
                                         .node_limit = 1 + 3 * k,
                                         .capacity = k % 3 == 0 ? 1048576 : 0};
        uint64_t *off = malloc(p.n * sizeof *off);
        struct arena_plan plan;
        cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0x33), ARENA_OK);
        expect_plan_valid(&p, &plan, spec);
        cr_expect_eq(plan.bound, 1048576, "%s: bound %llu above the optimum", spec,
                     (unsigned long long)plan.bound);
        cr_expect_neq(plan.status, ARENA_PLAN_INFEASIBLE, "%s: the box fits 1 MiB", spec);
        stopped += plan.status == ARENA_PLAN_LIMIT;
        free(off);
        free((void *)p.tensors);
    }
    cr_expect_gt(stopped, 5, "the limits stopped %zu solves only", stopped);
}

Test(optimal, sat_plans_pass_the_validator)
{
    engine_plans_pass_the_validator(ARENA_OPTIMAL_ENGINE_SAT);
}

/* The same for the lcg engine (its conflicts are Z3's). */
Test(optimal, lcg_plans_pass_the_validator)
{
    engine_plans_pass_the_validator(ARENA_OPTIMAL_ENGINE_LCG);
}

/* With a node limit (conflicts for the SAT engine) the answer is the same
 * plan, bound and count on every run (CaDiCaL is deterministic for the
 * same clauses and options), alone and in the portfolio. */
Test(optimal, sat_deterministic_with_a_node_limit)
{
    static const uint32_t engines[] = {ARENA_OPTIMAL_ENGINE_SAT, ARENA_OPTIMAL_ENGINE_PORTFOLIO};
    struct arena_problem p = {0};
    build_spec("slack:n=70,seed=4", &p);
    uint64_t *a = malloc(p.n * sizeof *a), *b = malloc(p.n * sizeof *b);
    for (size_t e = 0; e < 2; e++) {
        struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
        arena_optimal_values(kv, engines[e], 0);
        struct arena_plan_options opt = {.values = kv, .node_limit = 100000};
        struct arena_plan pa, pb;
        cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, a, &pa, 0x11), ARENA_OK);
        cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, b, &pb, 0x22), ARENA_OK);
        expect_plan_valid(&p, &pa, "first run");
        cr_expect_eq(pa.nodes, pb.nodes, "engine %u", engines[e]);
        cr_expect_eq(pa.arena, pb.arena);
        cr_expect_eq(pa.bound, pb.bound);
        cr_expect_eq(pa.status, pb.status);
        cr_expect_eq(memcmp(a, b, p.n * sizeof *a), 0, "engine %u: another plan", engines[e]);
    }
    free(a);
    free(b);
    free((void *)p.tensors);
}

/* The portfolio proves a box the search alone leaves: slack:n=220,seed=2,
 * whose optimum is its height, 1,048,576 B (the family's witness), within
 * 3,000,000 nodes and conflicts, with no clock (so the same on every run);
 * the search alone ends at the limit there (10 s of CPU; 1.0176 x the bound
 * at 10 s of wall, docs/optimal-sat.md). Measured: proven in 78,662 nodes
 * and conflicts with rule adaptive-share (lcg after the search's first
 * round), in 727,609 without it (a conflict per 512 search nodes). Until the CPU
 * schedule (issue 47) this was slack:n=220,seed=1, proven in 3,000,000 at
 * a conflict per 32 nodes; at one per 512 it is not proven in 20,000,000
 * (110 s of CPU): the SAT engine proves it alone in 14 s of CPU, and the
 * portfolio gives it half of that. */
Test(optimal, portfolio_proves_slack_220_2_within_a_node_limit)
{
    struct arena_problem p = {0};
    build_spec("slack:n=220,seed=2", &p);
    uint64_t *off = malloc(p.n * sizeof *off);
    struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
    arena_optimal_values(kv, ARENA_OPTIMAL_ENGINE_PORTFOLIO, 0);
    struct arena_plan_options opt = {.values = kv, .node_limit = 3000000};
    struct arena_plan plan;
    cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0x33), ARENA_OK);
    expect_plan_valid(&p, &plan, "portfolio");
    cr_expect_eq(plan.status, ARENA_PLAN_OPTIMAL, "%s after %llu nodes and conflicts, arena %llu",
                 arena_plan_status_name(plan.status), (unsigned long long)plan.nodes,
                 (unsigned long long)plan.arena);
    cr_expect_eq(plan.arena, 1048576);
    cr_expect_eq(plan.bound, 1048576);
    free(off);
    free((void *)p.tensors);
}

/* The portfolio is never worse than its own search: on MiniMalloc's
 * instance E (tests/data/minimalloc/, Apache-2.0; optimum = max-live =
 * 1 MiB), which the search alone proves in its fifth round, the
 * portfolio must prove it within the search's nodes and the conflicts its
 * schedule gives the members with a node limit: at most one per 32 nodes
 * (rule adaptive-share: lcg from the search's first round with 4 of its
 * hook calls a node, the members at 1/8 of the search's share once the
 * search keeps improving its plan and they do not: 10,597 conflicts
 * with lcg-domains (13,994 before, and 37,464 with the weights frozen,
 * which fails this test); without the rule, a conflict per 512 nodes,
 * 1,372. With lcg-energy the lcg engine proves E itself (13,818 conflicts
 * alone) and the portfolio in 198,506 nodes and conflicts.
 * With no clock read, so the same on every run and under any load. Issue
 * 47 measured the schedule this replaces (a conflict per 32 nodes, SAT
 * about nine tenths of the CPU): E not proven within 60 s of a busy
 * machine, 28.7 s of CPU on a quiet one against 2.9 s for the search; at
 * a conflict per 32 nodes this budget runs out before the search's last
 * round. */
Test(optimal, portfolio_never_worse_than_its_search_on_minimalloc_e)
{
    struct arena_problem p = {0};
    char err[256];
    cr_assert_eq(arena_csv_read(ARENA_SOURCE_ROOT "/tests/data/minimalloc/E.1048576.csv", 16, NULL,
                                &p, NULL, err, sizeof err),
                 ARENA_OK, "%s", err);
    uint64_t *off = malloc(p.n * sizeof *off);
    cr_assert(off);
    struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
    arena_optimal_values(kv, ARENA_OPTIMAL_ENGINE_SEARCH, 0);
    struct arena_plan_options alone = {.values = kv, .node_limit = 3000000};
    struct arena_plan plan;
    cr_assert_eq(run_planner(must_find("optimal"), &p, &alone, off, &plan, 0x44), ARENA_OK);
    cr_assert_eq(plan.status, ARENA_PLAN_OPTIMAL, "the search alone: %s after %llu nodes",
                 arena_plan_status_name(plan.status), (unsigned long long)plan.nodes);
    cr_assert_eq(plan.arena, 1048576);
    uint64_t search = plan.nodes;
    arena_optimal_values(kv, ARENA_OPTIMAL_ENGINE_PORTFOLIO, 0);
    struct arena_plan_options both = {.values = kv, .node_limit = search + search / 32};
    cr_assert_eq(run_planner(must_find("optimal"), &p, &both, off, &plan, 0x55), ARENA_OK);
    expect_plan_valid(&p, &plan, "portfolio");
    cr_expect_eq(plan.status, ARENA_PLAN_OPTIMAL,
                 "the portfolio: %s after %llu nodes and conflicts (the search alone: %llu)",
                 arena_plan_status_name(plan.status), (unsigned long long)plan.nodes,
                 (unsigned long long)search);
    cr_expect_eq(plan.arena, 1048576);
    free(off);
    free((void *)p.tensors);
}

/* Rule adaptive-share gives the member that is winning the time: on
 * slack:n=290,seed=2, which the lcg engine alone proves in few conflicts
 * (390 with lcg-energy; 12,171 with lcg-domains alone, 3,163 before) and
 * the search alone does not in 10 s (docs/optimal-sat.md), the portfolio
 * joins lcg after the search's first round (130,725 nodes) with as much
 * (its hook calls, 4 a node): proven in 131,115 nodes and conflicts
 * (427,279 with lcg-domains alone, 136,516 before). The
 * fair schedule (off: lcg and SAT after the search's third
 * round, half of its share each, a conflict per 512 nodes) ends this
 * budget at the limit (measured: it proves the box in 17,172,547, 98.9 s
 * of CPU). With a node limit, so no clock is read: the same on every run. */
Test(optimal, adaptive_share_gives_the_winning_member_the_time)
{
    struct arena_problem p = {0};
    build_spec("slack:n=290,seed=2", &p);
    uint64_t *off = malloc(p.n * sizeof *off);
    cr_assert(off);
    struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
    arena_optimal_values(kv, ARENA_OPTIMAL_ENGINE_LCG, 0);
    struct arena_plan_options opt = {.values = kv, .node_limit = 100000};
    struct arena_plan plan;
    cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0x66), ARENA_OK);
    cr_assert_eq(plan.status, ARENA_PLAN_OPTIMAL, "lcg alone: %s after %llu conflicts",
                 arena_plan_status_name(plan.status), (unsigned long long)plan.nodes);
    for (int fair = 0; fair < 2; fair++) {
        arena_optimal_values(kv, ARENA_OPTIMAL_ENGINE_PORTFOLIO,
                             fair ? ARENA_OPTIMAL_ADAPTIVE_SHARE : 0);
        opt.node_limit = 600000;
        cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0x77), ARENA_OK);
        expect_plan_valid(&p, &plan, fair ? "the fair schedule" : "the adaptive share");
        if (fair)
            cr_expect_eq(plan.status, ARENA_PLAN_LIMIT, "the fair schedule: %s in %llu",
                         arena_plan_status_name(plan.status), (unsigned long long)plan.nodes);
        else
            cr_expect_eq(plan.status, ARENA_PLAN_OPTIMAL,
                         "the adaptive share: %s after %llu nodes and conflicts, arena %llu",
                         arena_plan_status_name(plan.status), (unsigned long long)plan.nodes,
                         (unsigned long long)plan.arena);
    }
    free(off);
    free((void *)p.tensors);
}

/* The rare small problems whose optimum lies above max-live (found among
 * 3,000,000 drawn by gap_problem, 10 of them; every problem of the oracle
 * tests above has its optimum at max-live, so there the SAT engine only
 * ever finds): the engine alone must refute max-live (UNSAT at its first
 * solver's top), then minimise on its second solver (a level at the bound,
 * its top below the best plan) and prove the optimum by UNSAT below it;
 * asked to decide, it proves the capacity a step below the optimum
 * infeasible and finds a plan at the optimum. The orders oracle says the
 * optimum. */
static const uint64_t gap_seeds[] = {166513,  1250445, 1287916, 1815700, 1825274,
                                     2072248, 2190707, 2282769, 2422383, 2966912};

static size_t gap_problem(uint64_t k, struct arena_tensor *t)
{
    struct rp_rng r;
    rp_seed(&r, k * 7919 + 13);
    size_t n = 8 + (size_t)rp_below(&r, 3);
    uint32_t steps = 5 + (uint32_t)rp_below(&r, 6);
    for (size_t i = 0; i < n; i++) {
        t[i].first = (uint32_t)rp_below(&r, steps);
        t[i].last = t[i].first + (uint32_t)rp_below(&r, 1 + (steps - t[i].first) / 2);
        t[i].size = 16 * (1 + rp_below(&r, 5));
    }
    return n;
}

Test(optimal, engines_prove_optima_above_max_live)
{
    char who[64];
    for (size_t g = 0; g < sizeof gap_seeds / sizeof gap_seeds[0]; g++) {
        struct arena_tensor t[10];
        size_t n = gap_problem(gap_seeds[g], t);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = 16};
        uint64_t want = drop_optimum(t, n), off[10];
        snprintf(who, sizeof who, "gap problem %llu", (unsigned long long)gap_seeds[g]);
        cr_assert_gt(want, lower_bound(&p), "%s: its optimum is max-live", who);
        expect_optimal(&p, want, who);
        static const uint32_t engines[] = {ARENA_OPTIMAL_ENGINE_SAT, ARENA_OPTIMAL_ENGINE_LCG};
        for (size_t e = 0; e < 2; e++) {
            struct arena_plan plan;
            struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
            arena_optimal_values(kv, engines[e], 0);
            struct arena_plan_options opt = {.values = kv, .capacity = want - 16,
                                             .node_limit = TEST_NODES};
            cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0x44), ARENA_OK);
            expect_plan_valid(&p, &plan, who);
            cr_expect_eq(plan.status, ARENA_PLAN_INFEASIBLE, "%s (%s): %s a step below the optimum",
                         who, arena_optimal_engine_name(engines[e]),
                         arena_plan_status_name(plan.status));
            opt.capacity = want;
            cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0x44), ARENA_OK);
            expect_plan_valid(&p, &plan, who);
            cr_expect_eq(plan.status, ARENA_PLAN_FEASIBLE, "%s (%s)", who,
                         arena_optimal_engine_name(engines[e]));
            cr_expect_leq(plan.arena, want, "%s", who);
        }
    }
}

/* 09 of round 4: under an address-space limit (ulimit -v, as cluster jobs
 * set; here what the process holds plus 200 MiB) CaDiCaL's allocation
 * fails inside the solver and it throws std::bad_alloc, which ended the
 * process before (terminate, SIGABRT: the planners after optimal never
 * ran). The engine catches it at its boundary (sat/cadical.cc): the call
 * returns a valid plan, the search's, with status limit and the note that
 * the SAT engine was skipped on a part; the process lives on. */
Test(optimal, sat_out_of_memory_skips_the_part)
{
    TD_SKIP_UNDER_ASAN();
    struct arena_problem p;
    build_spec("slack:n=300,seed=1", &p);
    uint64_t *off = malloc(p.n * sizeof *off);
    cr_assert(off);
    FILE *f = fopen("/proc/self/statm", "r");
    cr_assert_not_null(f);
    unsigned long pages = 0;
    cr_assert_eq(fscanf(f, "%lu", &pages), 1);
    fclose(f);
    struct rlimit was;
    cr_assert_eq(getrlimit(RLIMIT_AS, &was), 0);
    struct rlimit rl = {(rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)200 << 20),
                        was.rlim_max};
    cr_assert_eq(setrlimit(RLIMIT_AS, &rl), 0);
    struct arena_plan plan;
    struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
    arena_optimal_values(kv, ARENA_OPTIMAL_ENGINE_SAT, 0);
    struct arena_plan_options opt = {.values = kv, .time_limit = 30};
    int rc = run_planner(must_find("optimal"), &p, &opt, off, &plan, 0);
    setrlimit(RLIMIT_AS, &was);
    cr_assert_eq(rc, ARENA_OK);
    expect_plan_valid(&p, &plan, "slack:n=300,seed=1");
    cr_expect_eq(plan.status, ARENA_PLAN_LIMIT);
    cr_expect(plan.notes & ARENA_PLAN_NOTE_SAT_MEMORY, "notes %#x", (unsigned)plan.notes);
    cr_expect_eq(plan.bound, lower_bound(&p));
    free(off);
    free((void *)p.tensors);
}
