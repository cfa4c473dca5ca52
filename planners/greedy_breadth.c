/* greedy_breadth.c — Greedy by breadth (Pisarchyk & Lee 2020, "Efficient
 * Memory Management for Deep Neural Net Inference"; TensorFlow Lite GPU's
 * GreedyByBreadthAssignment).
 *
 * The breadth of a step is the sum of the sizes live at it. Steps are visited
 * by breadth, largest first (ties: lower step); at each, its live tensors not
 * placed yet go in greedy-by-size order (size descending, earlier first step,
 * lower id), each with the best-fit gap rule against every already placed
 * tensor whose lifetime meets its own (greedy_common.h's walk); the key fit
 * (greedy-by-breadth:fit=first) takes the lowest gap that fits instead,
 * TFLite Micro's rule.
 * Only steps where some tensor starts can place anything: any other step's
 * live set is contained in that of the last such step before it, whose
 * breadth is at least as large and which comes first on ties. So the visit
 * runs over the distinct first steps. Each visit enumerates its live
 * tensors not placed yet, in one of two ways chosen once from the sum L of
 * the live counts over those steps (each tensor counts the first steps its
 * lifetime spans): while L <= 4 n log2 n, the interval index reads every tensor
 * live at the step, O(log S + live); above, a max-tree over ranks of the
 * unplaced tensors' last steps (a placed one drops to 0) gives the ranks
 * that start by the step and end at or after it, O((k + 1) log n) for the
 * k it finds, each tensor found once: O((n + S) log n) in all, where the
 * index's reads cost L (10^5 tensors all live to the end, each starting a
 * step later: L = 5 x 10^9, 12 s). Both find the same set, then sorted.
 *
 * Scratch (breadth_layout): the shared 99 bytes per tensor, 32 here and
 * the tree's 8 per leaf (the least power of two >= n of them), plus each
 * array rounded up to 16 bytes. */
#include <assert.h>
#include <string.h>

#include "planners/greedy_common.h"
#include "planners/planner.h"

struct work {
    struct arena_greedy g;
    uint64_t *breadth;     /* steps + 1: bytes live at each first step (a
                              difference array while it is built) */
    uint64_t *step;        /* distinct first steps, ascending */
    uint32_t *step_start;  /* lowest rank starting at each */
    uint32_t *sizepos;     /* n: each rank's place in greedy-by-size order */
    uint32_t *visit;       /* steps by breadth descending, then step */
    uint32_t *list;        /* the live unplaced ranks of one step, in size order */
    uint32_t *tree;        /* 2 leaves: leaf r the last step + 1 of rank r
                              (saturating) while it is unplaced with bytes,
                              else 0; a node the max of its two */
    size_t leaves;         /* the least power of two >= n (0 when n is 0) */
};

static size_t tree_leaves(size_t n)
{
    size_t v = n > 0 ? 1 : 0;
    while (v < n)
        v *= 2;
    return v;
}

/* Every array greedy-by-breadth needs (layout.h): the shared index, then
 * its own (at most n distinct first steps). */
static int breadth_layout(struct arena_layout *l, const struct arena_problem *p, void *work)
{
    struct work *w = work;
    size_t n = p->n;
    int rc = arena_greedy_take(&w->g, l, n);
    if (rc != ARENA_OK)
        return rc;
    w->breadth = arena_layout_take(l, n > 0 ? n + 1 : 0, sizeof *w->breadth);
    w->step = arena_layout_take(l, n, sizeof *w->step);
    w->step_start = arena_layout_take(l, n, sizeof *w->step_start);
    w->sizepos = arena_layout_take(l, n, sizeof *w->sizepos);
    w->visit = arena_layout_take(l, n, sizeof *w->visit);
    w->list = arena_layout_take(l, n, sizeof *w->list);
    w->leaves = tree_leaves(n);
    w->tree = arena_layout_take(l, 2 * w->leaves, sizeof *w->tree);
    return ARENA_OK;
}

static uint32_t step_key(uint32_t last)
{
    return last == UINT32_MAX ? last : last + 1;
}

static void tree_set(struct work *w, size_t r, uint32_t key)
{
    size_t x = w->leaves + r;
    w->tree[x] = key;
    for (x >>= 1; x > 0; x >>= 1) {
        uint32_t a = w->tree[2 * x], b = w->tree[2 * x + 1];
        w->tree[x] = a > b ? a : b;
    }
}

/* Into out (returned count): the ranks below end that are unplaced, have
 * bytes and end at step s or later, ascending. The tree prunes by key; a
 * leaf is checked exactly (a saturated key may pass a tensor ending just
 * before s = 2^32 - 1). */
static size_t live_unplaced(const struct work *w, uint32_t s, size_t end, uint32_t *out)
{
    struct {
        size_t x, lo, width;
    } stack[2 * 8 * sizeof(size_t)];
    uint32_t want = step_key(s);
    size_t sp = 0, m = 0;
    if (w->leaves > 0)
        stack[sp++].x = 1, stack[0].lo = 0, stack[0].width = w->leaves;
    while (sp > 0) {
        size_t x = stack[--sp].x, lo = stack[sp].lo, width = stack[sp].width;
        if (lo >= end || w->tree[x] < want)
            continue;
        if (width == 1) {
            const struct arena_greedy_rec *t = &w->g.rec[lo];
            if (t->last >= s && t->size != 0 && t->off == ARENA_GREEDY_UNPLACED)
                out[m++] = (uint32_t)lo;
            continue;
        }
        width /= 2;
        stack[sp].x = 2 * x + 1, stack[sp].lo = lo + width, stack[sp++].width = width;
        stack[sp].x = 2 * x, stack[sp].lo = lo, stack[sp++].width = width;
    }
    return m;
}

static int greedy_breadth_scratch(const struct arena_problem *p, size_t *bytes)
{
    struct work w;
    return arena_layout_count(breadth_layout, p, &w, bytes);
}

static int breadth_plan(const struct arena_problem *p, void *scratch, size_t scratch_size,
                        struct arena_plan *plan, enum arena_greedy_fit fit,
                        int (*interrupt)(void *ctx), void *ctx, const volatile sig_atomic_t *stop,
                        int *interrupted)
{
    struct work w;
    arena_layout_carve(breadth_layout, p, &w, scratch, scratch_size);
    struct arena_greedy *g = &w.g;
    arena_greedy_init(g, p, stop, interrupt, ctx);
    /* stopped in the set-up: only rec and id are built; no visit, and
     * every tensor is stacked below */
    size_t n = g->interrupted ? 0 : g->n, steps = 0;
    uint64_t *breadth = w.breadth, *step = w.step, *key = g->sort.key;
    uint32_t *step_start = w.step_start, *sizepos = w.sizepos, *visit = w.visit;
    for (size_t r = 0; r < n; r++)
        if (steps == 0 || step[steps - 1] != g->rec[r].first) {
            step[steps] = g->rec[r].first;
            step_start[steps++] = (uint32_t)r;
        }

    for (size_t i = 0; i < n; i++)
        sizepos[g->order[i]] = (uint32_t)i;

    /* Breadth per first step by a difference array; the true values never
     * exceed the sum of sizes (which fits), so wrapping steps are exact. The
     * last step <= a tensor's last exists: its own first. reads: the sum
     * over first steps of the tensors live there, each counted at the
     * first steps it spans. */
    if (n > 0)
        memset(breadth, 0, (steps + 1) * sizeof *breadth);
    uint64_t reads = 0, log2n = 0;
    for (size_t r = 0, a = 0; r < n; r++) {
        while (step[a] != g->rec[r].first)
            a++;
        size_t b = arena_floor_index(step, steps, g->rec[r].last);
        breadth[a] += g->rec[r].size;
        breadth[b + 1] -= g->rec[r].size;
        reads += b - a + 1;
    }
    for (size_t u = 1; u < steps; u++)
        breadth[u] += breadth[u - 1];
    while (((uint64_t)1 << log2n) < n)
        log2n++;
    int by_tree = reads > 4 * (uint64_t)n * log2n;
    if (by_tree) {
        for (size_t x = 0; x < 2 * w.leaves; x++)
            w.tree[x] = 0;
        for (size_t r = 0; r < n; r++)
            w.tree[w.leaves + r] = g->rec[r].size != 0 ? step_key(g->rec[r].last) : 0;
        for (size_t x = w.leaves; x-- > 1;)
            w.tree[x] = w.tree[2 * x] > w.tree[2 * x + 1] ? w.tree[2 * x] : w.tree[2 * x + 1];
    }

    /* Visit order: breadth descending, then lower step (the sort is stable). */
    for (size_t u = 0; u < steps; u++)
        key[u] = ~breadth[u];
    arena_order_identity(visit, steps);
    arena_radix_sort(&g->sort, visit, steps);

    for (size_t v = 0; v < steps && !arena_greedy_interrupted(g); v++) {
        size_t u = visit[v];
        size_t end = u + 1 < steps ? step_start[u + 1] : n; /* ranks starting by the step */
        size_t m = by_tree ? live_unplaced(&w, (uint32_t)step[u], end, w.list)
                           : arena_greedy_live_unplaced(g, (uint32_t)step[u], step_start[u],
                                                        w.list);
        for (size_t i = 0; i < m; i++)
            key[i] = sizepos[w.list[i]];
        arena_radix_sort(&g->sort, w.list, m);
        for (size_t i = 0; i < m && !arena_greedy_interrupted(g); i++) {
            arena_greedy_place(g, w.list[i], fit);
            if (by_tree)
                tree_set(&w, w.list[i], 0);
        }
    }
    arena_greedy_stack_rest(g);
    arena_greedy_finish(g, plan);
    if (interrupted != NULL)
        *interrupted = g->interrupted;
    return ARENA_OK;
}

int arena_greedy_breadth_plan_until(const struct arena_problem *p, void *scratch,
                                    size_t scratch_size, struct arena_plan *plan,
                                    int (*interrupt)(void *ctx), void *ctx,
                                    const volatile sig_atomic_t *stop, int *interrupted)
{
    return breadth_plan(p, scratch, scratch_size, plan, ARENA_GREEDY_BEST_FIT, interrupt, ctx,
                        stop, interrupted);
}

/* The key (greedy-by-breadth:fit=first), in the order of opt->values; its
 * choices in enum arena_greedy_fit's order. */
enum { K_FIT, N_KEYS };
static const char *const fit_names[] = {"best", "first", NULL};
static const struct arena_key keys[N_KEYS] = {
    [K_FIT] = {.name = "fit", .kind = ARENA_KEY_CHOICE, .def = "best", .choices = fit_names,
               .help = "the gap each tensor takes: best (the smallest that fits) or first (the "
                       "lowest)"},
};

static int greedy_breadth_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                               void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    int stopped = 0;
    int rc = breadth_plan(p, scratch, scratch_size, plan,
                          (enum arena_greedy_fit)opt->values[K_FIT].choice, NULL, NULL, opt->stop,
                          &stopped);
    if (stopped)
        plan->status = ARENA_PLAN_LIMIT;
    return rc;
}

const struct arena_planner arena_planner_greedy_breadth = {
    .name = "greedy-by-breadth",
    .summary = "busiest steps first, largest first, smallest gap that fits",
    .kind = ARENA_KIND_OFFSETS,
    .plan = greedy_breadth_plan,
    .scratch_bytes = greedy_breadth_scratch,
    .keys = keys,
    .n_keys = N_KEYS,
};
