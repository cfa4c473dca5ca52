/* test_order.c — the best execution order (graphs/exec_order.h) against
 * brute force: every topological order of small random DAGs, each turned
 * into a problem by the project's own lifetimes (arena_graph_problem) and
 * measured by its max-live bound (arena_problem_bounds), which shares no
 * code with the search's cost model. Known answers worked out by hand. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/exec_order.h"
#include "graphs/family.h"
#include "graphs/graph.h"
#include "graphs/inplace.h"
#include "graphs/source.h"
#include "graphs/rng.h"

static uint32_t tensor(struct arena_graph *g, const char *name, uint64_t bytes)
{
    uint32_t id = 0;
    cr_assert_eq(arena_graph_tensor_add(g, name, ARENA_DTYPE_INT8, 1, &bytes, &id), ARENA_OK);
    return id;
}

static void op(struct arena_graph *g, const char *name, const char *kind, const uint32_t *in,
               size_t n_in, const uint32_t *out, size_t n_out)
{
    cr_assert_eq(arena_graph_op_add(g, name, kind, in, n_in, out, n_out), ARENA_OK);
}

/* The max-live bound of g run in order (NULL: its stored order), through
 * the project's lifetimes; minus, with inplace set, the output's bytes at
 * every step whose op is of kind "inplace" and whose one input dies there
 * (the toy rule the hook below states in its own terms). */
static uint64_t live_peak(struct arena_graph *g, const uint32_t *order, int inplace)
{
    if (order)
        cr_assert_eq(arena_graph_order_set(g, order, g->n_ops), ARENA_OK);
    struct arena_problem p;
    char err[256];
    cr_assert_eq(arena_graph_problem(g, 16, &p, NULL, err, sizeof err), ARENA_OK, "%s", err);
    uint64_t peak = 0;
    if (!inplace) {
        struct arena_bounds b;
        cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
        peak = b.lower_bound;
    } else {
        for (uint32_t s = 0; s < g->n_ops; s++) {
            uint64_t live = 0;
            for (size_t t = 0; t < p.n; t++)
                if (p.tensors[t].first <= s && s <= p.tensors[t].last)
                    live += p.tensors[t].size;
            const struct arena_gop *o = &g->ops[arena_graph_op_at(g, s)];
            if (strcmp(o->kind, "inplace") == 0) {
                uint32_t x = g->refs[o->in_first], y = g->refs[o->out_first];
                if (!g->tensors[x].is_output && p.tensors[x].last == s)
                    live -= p.tensors[y].size;
            }
            if (live > peak)
                peak = live;
        }
    }
    free((void *)p.tensors);
    return peak;
}

/* The toy in-place rule: an op of kind "inplace" (one input, one output of
 * the same size) writes over its input when that input dies there. */
static uint64_t toy_saving(void *ctx, uint32_t o, const uint32_t *dying, size_t n)
{
    const struct arena_graph *g = ctx;
    const struct arena_gop *op = &g->ops[o];
    if (strcmp(op->kind, "inplace") != 0)
        return 0;
    uint32_t x = g->refs[op->in_first], y = g->refs[op->out_first];
    for (size_t i = 0; i < n; i++)
        if (dying[i] == x)
            return g->tensors[y].bytes;
    return 0;
}

static uint64_t merged_peak(struct arena_graph *g, const uint32_t *order,
                            enum arena_inplace_rule rule);

/* Every topological order of g, the least peak among them: by the
 * lifetimes (live_peak, inplace its hook) or, with a rule, the in-place
 * bound of the merged problem (merged_peak). */
struct brute {
    struct arena_graph *g;
    uint32_t *order;
    unsigned char *done;
    uint64_t best;
    size_t orders;
    int inplace;
    enum arena_inplace_rule rule;
};

static int is_ready(const struct arena_graph *g, const unsigned char *done, size_t o)
{
    const struct arena_gop *op = &g->ops[o];
    for (size_t k = 0; k < op->n_in; k++) {
        uint32_t t = g->refs[op->in_first + k];
        for (size_t w = 0; w < g->n_ops; w++) {
            const struct arena_gop *wo = &g->ops[w];
            for (size_t j = 0; j < wo->n_out; j++)
                if (g->refs[wo->out_first + j] == t && !done[w])
                    return 0;
        }
    }
    return 1;
}

static void enumerate(struct brute *b, size_t k)
{
    if (k == b->g->n_ops) {
        uint64_t pk = b->rule != ARENA_INPLACE_NONE ? merged_peak(b->g, b->order, b->rule)
                                                    : live_peak(b->g, b->order, b->inplace);
        if (pk < b->best)
            b->best = pk;
        b->orders++;
        return;
    }
    for (size_t o = 0; o < b->g->n_ops; o++) {
        if (b->done[o] || !is_ready(b->g, b->done, o))
            continue;
        b->done[o] = 1;
        b->order[k] = (uint32_t)o;
        enumerate(b, k + 1);
        b->done[o] = 0;
    }
}

/* A random DAG of 2..8 ops: 1-2 graph inputs; each op reads 1-3 tensors
 * already there and writes 1-2 tensors of 16..256 bytes (multiples of 16);
 * a third of the ops are "inplace" (one input, one output of its size).
 * Tensors no op reads are graph outputs, as are a few read ones. */
static void random_dag(struct arena_graph *g, struct arena_rng *r)
{
    arena_graph_init(g);
    size_t n_ops = 2 + arena_rng_below(r, 7), n_in = 1 + arena_rng_below(r, 2);
    char name[32];
    for (size_t i = 0; i < n_in; i++) {
        snprintf(name, sizeof name, "in%zu", i);
        uint32_t t = tensor(g, name, 16 * (1 + arena_rng_below(r, 16)));
        g->tensors[t].is_input = 1;
    }
    for (size_t o = 0; o < n_ops; o++) {
        uint32_t in[3], out[2];
        size_t ni = 0, no;
        int inplace = arena_rng_below(r, 3) == 0;
        size_t want = inplace ? 1 : 1 + arena_rng_below(r, 3);
        for (size_t k = 0; k < want; k++)
            in[ni++] = (uint32_t)arena_rng_below(r, g->n_tensors);
        no = inplace ? 1 : 1 + (arena_rng_below(r, 4) == 0);
        for (size_t k = 0; k < no; k++) {
            snprintf(name, sizeof name, "t%zu_%zu", o, k);
            out[k] = tensor(g, name, inplace ? g->tensors[in[0]].bytes
                                             : 16 * (1 + arena_rng_below(r, 16)));
        }
        snprintf(name, sizeof name, "op%zu", o);
        op(g, name, inplace ? "inplace" : "layer", in, ni, out, no);
    }
    unsigned char *read = calloc(g->n_tensors, 1);
    for (size_t o = 0; o < g->n_ops; o++)
        for (size_t k = 0; k < g->ops[o].n_in; k++)
            read[g->refs[g->ops[o].in_first + k]] = 1;
    for (size_t t = 0; t < g->n_tensors; t++)
        if (!read[t] || (!g->tensors[t].is_input && arena_rng_below(r, 10) == 0))
            g->tensors[t].is_output = 1;
    free(read);
}

static void check_against_brute_force(int inplace)
{
    struct arena_rng r;
    arena_rng_seed(&r, inplace ? 2027 : 2026);
    size_t searched = 0, certified = 0;
    for (int i = 0; i < 320; i++) {
        struct arena_graph g;
        random_dag(&g, &r);
        char err[256];
        cr_assert_eq(arena_graph_check(&g, NULL, err, sizeof err), ARENA_OK, "dag %d: %s", i, err);
        struct arena_order_hook hook = {.saving = toy_saving, .ctx = &g};
        struct arena_order_options opt = {.alignment = 16, .hook = inplace ? &hook : NULL};
        struct arena_order_result res;
        cr_assert_eq(arena_order_best(&g, &opt, &res, err, sizeof err), ARENA_OK, "%s", err);
        uint64_t stored = live_peak(&g, NULL, inplace);
        cr_expect_eq(res.stored_peak, stored, "dag %d: stored peak %llu, lifetimes say %llu", i,
                     (unsigned long long)res.stored_peak, (unsigned long long)stored);
        struct brute b = {.g = &g, .best = UINT64_MAX, .inplace = inplace};
        b.order = calloc(g.n_ops, sizeof *b.order);
        b.done = calloc(g.n_ops, 1);
        enumerate(&b, 0);
        cr_expect_eq(res.peak, b.best, "dag %d (%zu ops, %zu orders): search %llu, brute %llu", i,
                     g.n_ops, b.orders, (unsigned long long)res.peak,
                     (unsigned long long)b.best);
        cr_expect_eq(res.bound, res.peak, "dag %d: not proven", i);
        cr_expect(res.status == ARENA_ORDER_OPTIMAL || res.status == ARENA_ORDER_CERTIFIED);
        cr_expect_leq(res.certificate, res.bound, "dag %d: certificate above the optimum", i);
        cr_expect_eq(arena_order_check(&g, res.order, res.n_ops, err, sizeof err), ARENA_OK,
                     "dag %d: %s", i, err);
        /* the order found gives a problem whose max-live is its peak */
        cr_expect_eq(live_peak(&g, res.order, inplace), res.peak, "dag %d", i);
        searched += res.states > 0;
        certified += res.status == ARENA_ORDER_CERTIFIED;
        free(b.order);
        free(b.done);
        arena_order_result_free(&res);
        arena_graph_free(&g);
    }
    /* the sample exercises both the search and the certificate */
    cr_expect_gt(searched, 30, "%zu DAGs searched", searched);
    cr_expect_gt(certified, 30, "%zu DAGs certified", certified);
}

Test(order, search_matches_brute_force_on_320_random_dags)
{
    check_against_brute_force(0);
}

Test(order, search_with_inplace_hook_matches_brute_force_on_320_random_dags)
{
    check_against_brute_force(1);
}

/* Two branches from input a (16 B), each a 64 B tensor squeezed to 16 B,
 * joined at the end:
 *   A1: a -> b1 (64)   A2: b1 -> c1 (16)   B1: a -> b2 (64)   B2: b2 -> c2
 *   J: c1, c2 -> out (16, graph output)
 * Stored order A1 B1 A2 B2 J: at B1, a + b1 + b2 = 144 B live.
 * A1 A2 B1 B2 J: 80, 96 (a b1 c1), 96 (a c1 b2), 96 (c1 b2 c2), 48: peak 96,
 * and no order does better: whichever branch runs second, its 64 B tensor
 * is live with the other branch's c and a or its own c (96 B).
 * Certificates (inputs, outputs, and what an ancestor wrote for a
 * descendant): A1 80 (a, b1), A2 80, B1 80, B2 80 (c1 is written by no
 * ancestor of B2), J 48; so 96 needs the search. */
static void two_branches(struct arena_graph *g)
{
    arena_graph_init(g);
    uint32_t a = tensor(g, "a", 16), b1 = tensor(g, "b1", 64), c1 = tensor(g, "c1", 16);
    uint32_t b2 = tensor(g, "b2", 64), c2 = tensor(g, "c2", 16), out = tensor(g, "out", 16);
    g->tensors[a].is_input = 1;
    g->tensors[out].is_output = 1;
    op(g, "A1", "layer", &a, 1, &b1, 1);
    op(g, "B1", "layer", &a, 1, &b2, 1);
    op(g, "A2", "layer", &b1, 1, &c1, 1);
    op(g, "B2", "layer", &b2, 1, &c2, 1);
    uint32_t j[2] = {c1, c2};
    op(g, "J", "layer", j, 2, &out, 1);
}

Test(order, two_branches_known_answer)
{
    struct arena_graph g;
    two_branches(&g);
    struct arena_order_options opt = {.alignment = 16};
    struct arena_order_result r;
    char err[256];
    cr_assert_eq(arena_order_best(&g, &opt, &r, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(r.stored_peak, 144);
    cr_expect_eq(r.certificate, 80);
    cr_expect_eq(r.peak, 96);
    cr_expect_eq(r.bound, 96);
    cr_expect_eq(r.status, ARENA_ORDER_OPTIMAL);
    /* A1 A2 B1 B2 J: ops 0, 2, 1, 3, 4 */
    cr_expect_eq(live_peak(&g, r.order, 0), 96);
    arena_order_result_free(&r);
    /* apply sets it and the problem's max-live follows */
    cr_assert_eq(arena_order_apply(&g, ARENA_ORDER_BEST, &opt, &r, err, sizeof err), ARENA_OK);
    cr_expect_neq(g.order, NULL);
    cr_expect_eq(live_peak(&g, NULL, 0), 96);
    arena_order_result_free(&r);
    arena_graph_free(&g);
}

/* A chain in0 -> x (32) -> y (48) -> z (16): the stored order is the only
 * one, and the certificate (x + y = 80 at the middle op) proves it. */
Test(order, chain_is_certified_without_search)
{
    struct arena_graph g;
    arena_graph_init(&g);
    uint32_t in = tensor(&g, "in0", 16), x = tensor(&g, "x", 32), y = tensor(&g, "y", 48);
    uint32_t z = tensor(&g, "z", 16);
    g.tensors[in].is_input = 1;
    g.tensors[z].is_output = 1;
    op(&g, "o0", "layer", &in, 1, &x, 1);
    op(&g, "o1", "layer", &x, 1, &y, 1);
    op(&g, "o2", "layer", &y, 1, &z, 1);
    struct arena_order_options opt = {.alignment = 16};
    struct arena_order_result r;
    char err[256];
    cr_assert_eq(arena_order_apply(&g, ARENA_ORDER_BEST, &opt, &r, err, sizeof err), ARENA_OK);
    cr_expect_eq(r.status, ARENA_ORDER_CERTIFIED);
    cr_expect_eq(r.peak, 80);
    cr_expect_eq(r.bound, 80);
    cr_expect_eq(r.certificate, 80);
    cr_expect_eq(r.states, 0);
    cr_expect_eq(g.order, NULL, "the stored order is kept");
    arena_order_result_free(&r);
    arena_graph_free(&g);
}

/* With a budget of one state the search stops at once: the order kept is
 * the best heuristic one, its bound proven (between the certificate and
 * the brute-force optimum), and never called optimal unless it meets it. */
Test(order, budget_gives_a_proven_bound_never_a_false_optimum)
{
    struct arena_rng r;
    arena_rng_seed(&r, 77);
    size_t limits = 0;
    for (int i = 0; i < 200; i++) {
        struct arena_graph g;
        random_dag(&g, &r);
        struct arena_order_options opt = {.alignment = 16, .max_states = 1};
        struct arena_order_result res;
        char err[256];
        cr_assert_eq(arena_order_best(&g, &opt, &res, err, sizeof err), ARENA_OK, "%s", err);
        struct brute b = {.g = &g, .best = UINT64_MAX};
        b.order = calloc(g.n_ops, sizeof *b.order);
        b.done = calloc(g.n_ops, 1);
        enumerate(&b, 0);
        cr_expect_leq(res.bound, b.best, "dag %d: bound above the optimum", i);
        cr_expect_geq(res.peak, b.best);
        cr_expect_geq(res.bound, res.certificate);
        cr_expect_eq(live_peak(&g, res.order, 0), res.peak);
        if (res.status == ARENA_ORDER_LIMIT) {
            limits++;
            cr_expect_lt(res.bound, res.peak);
        } else {
            cr_expect_eq(res.peak, b.best, "dag %d: called optimal", i);
        }
        free(b.order);
        free(b.done);
        arena_order_result_free(&res);
        arena_graph_free(&g);
    }
    cr_expect_gt(limits, 0, "no DAG ran out of budget");
}

Test(order, check_refuses_bad_orders)
{
    struct arena_graph g;
    two_branches(&g);
    char err[256];
    const uint32_t good[5] = {1, 0, 3, 2, 4}, late[5] = {2, 0, 1, 3, 4}, twice[5] = {0, 0, 1, 2, 3};
    const uint32_t past[5] = {0, 1, 2, 3, 9};
    cr_expect_eq(arena_order_check(&g, good, 5, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(arena_order_check(&g, late, 5, err, sizeof err), ARENA_EINVAL);
    cr_expect_str_eq(err, "order: op 'A2' at step 0 reads 'b1', written at step 1: not topological");
    cr_expect_eq(arena_order_check(&g, twice, 5, err, sizeof err), ARENA_EINVAL);
    cr_expect_str_eq(err, "order: op 'A1' runs twice (steps 0 and 1)");
    cr_expect_eq(arena_order_check(&g, past, 5, err, sizeof err), ARENA_EINVAL);
    cr_expect_str_eq(err, "order: step 4 names op 9 of 5");
    cr_expect_eq(arena_order_check(&g, good, 4, err, sizeof err), ARENA_EINVAL);
    arena_graph_free(&g);
}

Test(order, mode_names)
{
    enum arena_order_mode m;
    cr_expect_eq(arena_order_mode_parse("best", &m), ARENA_OK);
    cr_expect_eq(m, ARENA_ORDER_BEST);
    cr_expect_eq(arena_order_mode_parse("stored", &m), ARENA_OK);
    cr_expect_eq(m, ARENA_ORDER_STORED);
    cr_expect_eq(arena_order_mode_parse("Best", &m), ARENA_ENOTFOUND);
    cr_expect_str_eq(arena_order_status_name(ARENA_ORDER_LIMIT), "limit");
}

/* The randwire family (RandWire's WS(32, 4, 0.75) cells): the best order is
 * never above the stored one, and the search proves it within the default
 * budget; on seed 4 it saves 27.8 % (4,402,944 B stored, 3,179,904 B best),
 * the kind of gain SERENITY and HMCOS report on such cells. */
Test(order, randwire_best_order_is_proven_and_saves)
{
    for (uint64_t seed = 1; seed <= 6; seed++) {
        struct arena_spec spec;
        struct arena_graph g;
        char err[256];
        cr_assert_eq(arena_spec_parse("randwire", seed, &spec, err, sizeof err), ARENA_OK, "%s", err);
        cr_assert_eq(arena_spec_graph(&spec, &g, err, sizeof err), ARENA_OK, "%s", err);
        struct arena_order_options opt = {.alignment = 16};
        struct arena_order_result r;
        cr_assert_eq(arena_order_best(&g, &opt, &r, err, sizeof err), ARENA_OK, "%s", err);
        cr_expect_eq(r.status, ARENA_ORDER_OPTIMAL, "seed %llu", (unsigned long long)seed);
        cr_expect_eq(r.bound, r.peak);
        cr_expect_leq(r.peak, r.stored_peak);
        cr_expect_eq(r.stored_peak, live_peak(&g, NULL, 0));
        cr_expect_eq(live_peak(&g, r.order, 0), r.peak);
        if (seed == 4) {
            cr_expect_eq(r.stored_peak, 4402944);
            cr_expect_eq(r.peak, 3179904);
        }
        arena_order_result_free(&r);
        arena_graph_free(&g);
    }
}

/* The one-cell nasnet of test_families.c's nasnet_one_cell_known_answer
 * (stem 96 B, pre0 and pre1 64 B each, both read the stem; max_pool(pre0)
 * and avg_pool(pre1) 16 B each): the stored order runs pre0, pre1, then
 * the pools, and peaks at 224 B (stem + pre0 + pre1). Running pre0's pool
 * before pre1 (0 1 3 2 4 ...) frees pre0 first: stem + pre0 + max_pool =
 * 176 at the pool, stem + max_pool + pre1 = 176 at pre1. No order does
 * better: whichever of pre0 and pre1 runs second, the stem (96) and its
 * output (64) are live at its step, and so is either the other one's
 * output (64) or that one's pool (16), kept for block 0's add, which
 * needs both: at least 176 B. */
Test(order, nasnet_one_cell_known_answer)
{
    struct arena_spec spec;
    struct arena_graph g;
    char err[256];
    cr_assert_eq(arena_spec_parse("nasnet:cells=1,blocks=2,channels=2,res=4,seed=4", 1, &spec, err,
                                  sizeof err),
                 ARENA_OK, "%s", err);
    cr_assert_eq(arena_spec_graph(&spec, &g, err, sizeof err), ARENA_OK, "%s", err);
    struct arena_order_options opt = {.alignment = 16};
    struct arena_order_result r;
    cr_assert_eq(arena_order_best(&g, &opt, &r, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(r.stored_peak, 224);
    cr_expect_eq(r.peak, 176);
    cr_expect_eq(r.bound, 176);
    cr_expect_eq(r.status, ARENA_ORDER_OPTIMAL);
    cr_expect_eq(live_peak(&g, r.order, 0), 176);
    const uint32_t by_hand[12] = {0, 1, 3, 2, 4, 5, 6, 7, 8, 9, 10, 11};
    cr_expect_eq(live_peak(&g, by_hand, 0), 176);
    arena_order_result_free(&r);
    arena_graph_free(&g);
}

/* The nasnet family with its defaults (cells drawn from NASNet's search
 * space, DARTS's CIFAR network of 20 cells, C = 36, 32 x 32, int8): the
 * best order is proven within the default budget and never above the
 * stored one; seed 1 saves 25 % (294,912 B stored, 221,184 B best), and
 * DARTS V2's published cells 25 % (442,368 -> 331,776 B). */
Test(order, nasnet_best_order_is_proven_and_saves)
{
    const char *specs[] = {"nasnet:seed=1", "nasnet:seed=2", "nasnet:seed=3", "nasnet:seed=4",
                           "nasnet:cell=darts-v2"};
    const uint64_t stored[] = {294912, 331776, 331776, 294912, 442368};
    const uint64_t best[] = {221184, 276480, 258048, 221184, 331776};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        struct arena_spec spec;
        struct arena_graph g;
        char err[256];
        cr_assert_eq(arena_spec_parse(specs[i], 1, &spec, err, sizeof err), ARENA_OK, "%s", err);
        cr_assert_eq(arena_spec_graph(&spec, &g, err, sizeof err), ARENA_OK, "%s", err);
        struct arena_order_options opt = {.alignment = 16};
        struct arena_order_result r;
        cr_assert_eq(arena_order_best(&g, &opt, &r, err, sizeof err), ARENA_OK, "%s", err);
        cr_expect_eq(r.status, ARENA_ORDER_OPTIMAL, "%s", specs[i]);
        cr_expect_eq(r.bound, r.peak, "%s", specs[i]);
        cr_expect_eq(r.stored_peak, live_peak(&g, NULL, 0), "%s", specs[i]);
        cr_expect_eq(live_peak(&g, r.order, 0), r.peak, "%s", specs[i]);
        cr_expect_eq(r.stored_peak, stored[i], "%s", specs[i]);
        cr_expect_eq(r.peak, best[i], "%s", specs[i]);
        arena_order_result_free(&r);
        arena_graph_free(&g);
    }
}

/* --order best is refused with --patch, whose stage figures count the
 * stage's own steps in the stored order; one line, nothing loaded. */
Test(order, best_order_refuses_a_patched_graph)
{
    struct arena_load_options lo = {.alignment = 16, .seed = 1, .order = ARENA_ORDER_BEST};
    struct arena_source s;
    char err[300] = "";
    cr_expect_eq(arena_source_load_with("mobilenetv2+patch=2x2:13", &lo, &s, err, sizeof err),
                 ARENA_EINVAL);
    cr_expect_str_eq(err, "--order best: not with --patch (the patched stage's figures count its"
                          " own steps in the stored order)");
    cr_expect_null(s.spec);
    lo.order = ARENA_ORDER_STORED;
    cr_assert_eq(arena_source_load_with("mobilenetv2+patch=2x2:13", &lo, &s, err, sizeof err),
                 ARENA_OK, "%s", err);
    arena_source_free(&s);
}

/* ---- the real in-place rules (graphs/inplace.h), wired by the loaders ---- */

/* The bound the planners see for g in `order` (NULL: g's own) under rule:
 * max-live once the rule's chains are merged (arena_graph_problem_inplace,
 * arena_problem_bounds), nothing of the search. */
static uint64_t merged_peak(struct arena_graph *g, const uint32_t *order,
                            enum arena_inplace_rule rule)
{
    if (order)
        cr_assert_eq(arena_graph_order_set(g, order, g->n_ops), ARENA_OK);
    struct arena_problem p;
    char err[256];
    cr_assert_eq(arena_graph_problem_inplace(g, 16, rule, &p, NULL, err, sizeof err), ARENA_OK,
                 "%s", err);
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
    free((void *)p.tensors);
    free((void *)p.alias);
    return b.inplace_bound;
}


/* Random DAGs of 2..8 ops as random_dag builds them, but a third of the ops
 * of real in-place kinds: RELU (one input, its size), ADD (two inputs, the
 * output of the first one's size) and, with depthwise, DEPTHWISE_CONV_2D
 * (one input, an output of 16 B up to the input's size). */
static void kinds_dag(struct arena_graph *g, struct arena_rng *r, int depthwise)
{
    arena_graph_init(g);
    size_t n_ops = 2 + arena_rng_below(r, 7), n_in = 1 + arena_rng_below(r, 2);
    char name[32];
    for (size_t i = 0; i < n_in; i++) {
        snprintf(name, sizeof name, "in%zu", i);
        uint32_t t = tensor(g, name, 16 * (1 + arena_rng_below(r, 16)));
        g->tensors[t].is_input = 1;
    }
    static const char *const kinds[] = {"RELU", "ADD", "DEPTHWISE_CONV_2D"};
    for (size_t o = 0; o < n_ops; o++) {
        uint32_t in[3], out[2];
        size_t ni = 0, no = 1;
        int special = arena_rng_below(r, 3) == 0;
        const char *kind = special ? kinds[arena_rng_below(r, depthwise ? 3 : 2)] : "CONV_2D";
        size_t want = !special ? 1 + arena_rng_below(r, 3) : strcmp(kind, "ADD") == 0 ? 2 : 1;
        for (size_t k = 0; k < want; k++)
            in[ni++] = (uint32_t)arena_rng_below(r, g->n_tensors);
        if (!special)
            no = 1 + (arena_rng_below(r, 4) == 0);
        uint64_t first = g->tensors[in[0]].bytes;
        for (size_t k = 0; k < no; k++) {
            snprintf(name, sizeof name, "t%zu_%zu", o, k);
            uint64_t bytes = !special ? 16 * (1 + arena_rng_below(r, 16))
                             : strcmp(kind, "DEPTHWISE_CONV_2D") == 0
                                 ? 16 * (1 + arena_rng_below(r, first / 16))
                                 : first;
            out[k] = tensor(g, name, bytes);
        }
        snprintf(name, sizeof name, "op%zu", o);
        op(g, name, kind, in, ni, out, no);
    }
    unsigned char *read = calloc(g->n_tensors, 1);
    for (size_t o = 0; o < g->n_ops; o++)
        for (size_t k = 0; k < g->ops[o].n_in; k++)
            read[g->refs[g->ops[o].in_first + k]] = 1;
    for (size_t t = 0; t < g->n_tensors; t++)
        if (!read[t] || (!g->tensors[t].is_input && arena_rng_below(r, 10) == 0))
            g->tensors[t].is_output = 1;
    free(read);
}

/* --order best under an in-place rule, as a loader runs it, against the
 * least merged max-live over every topological order. Elementwise pairs
 * keep sizes, so the search's cost is exact: the same optimum, proven.
 * Depthwise outputs may be smaller than the input whose place they take,
 * and the merged chain keeps the input's size: the bound stays a proven
 * lower bound, the order is never worse than the stored one, and the
 * optimum is claimed only when met. */
static void check_rule_against_brute_force(enum arena_inplace_rule rule)
{
    struct arena_rng r;
    arena_rng_seed(&r, rule == ARENA_INPLACE_ELEMENTWISE ? 3031 : 3032);
    size_t saved = 0, exact = 0;
    for (int i = 0; i < 320; i++) {
        struct arena_graph g;
        kinds_dag(&g, &r, rule == ARENA_INPLACE_DEPTHWISE);
        char err[256];
        cr_assert_eq(arena_graph_check(&g, NULL, err, sizeof err), ARENA_OK, "dag %d: %s", i, err);
        uint64_t stored = merged_peak(&g, NULL, rule);
        struct brute b = {.g = &g, .best = UINT64_MAX, .rule = rule};
        b.order = calloc(g.n_ops, sizeof *b.order);
        b.done = calloc(g.n_ops, 1);
        enumerate(&b, 0);
        free(g.order);
        g.order = NULL; /* back to the stored order */
        struct arena_order_result res = {0};
        cr_assert_eq(arena_order_transform(&g, ARENA_ORDER_BEST, 16, 0, rule, &res, err,
                                           sizeof err),
                     ARENA_OK, "%s", err);
        cr_assert_not_null(res.order);
        cr_expect_eq(res.stored_peak, stored, "dag %d", i);
        cr_expect_eq(merged_peak(&g, NULL, rule), res.peak, "dag %d: the order set", i);
        cr_expect_leq(res.bound, b.best, "dag %d: bound %llu above the optimum %llu", i,
                      (unsigned long long)res.bound, (unsigned long long)b.best);
        cr_expect_geq(res.peak, b.best);
        cr_expect_leq(res.peak, stored, "dag %d: worse than the stored order", i);
        if (rule == ARENA_INPLACE_ELEMENTWISE) {
            cr_expect_eq(res.peak, b.best, "dag %d (%zu ops): search %llu, brute %llu", i,
                         g.n_ops, (unsigned long long)res.peak, (unsigned long long)b.best);
            cr_expect_eq(res.bound, res.peak, "dag %d: not proven", i);
        }
        if (res.status != ARENA_ORDER_LIMIT)
            cr_expect_eq(res.peak, b.best, "dag %d: claimed optimal", i);
        exact += res.peak == b.best;
        saved += b.best < stored;
        free(b.order);
        free(b.done);
        arena_order_result_free(&res);
        arena_graph_free(&g);
    }
    cr_expect_gt(saved, 30, "%zu DAGs where an order beats the stored one", saved);
    cr_log_info("rule %s: %zu of 320 at the optimum", arena_inplace_name(rule), exact);
}

Test(order, elementwise_rule_matches_brute_force_on_320_random_dags)
{
    check_rule_against_brute_force(ARENA_INPLACE_ELEMENTWISE);
}

Test(order, depthwise_rule_bound_and_order_hold_on_320_random_dags)
{
    check_rule_against_brute_force(ARENA_INPLACE_DEPTHWISE);
}
