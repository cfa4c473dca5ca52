/* xla_best_fit.c — best fit in two orders, the smaller plan kept (XLA's
 * heap simulator, xla/service/heap_simulator.cc,
 * GlobalDecreasingSizeBestFitHeap with its spatial and temporal orders, as
 * ConstrainedGlobalDecreasingSizeBestFitHeap / ChooseBestHeapAlgorithm
 * run both and keep the smaller).
 *
 * Order by size: largest first, then longest lifetime, then earlier first
 * step, then lower id. Order by lifetime: longest first, then largest, then
 * earlier first step, then lower id. XLA breaks the last ties by buffer id;
 * arenabench uses (first step, id). Each tensor goes into the smallest gap
 * between the already placed tensors it conflicts with that holds it (the
 * lowest such gap on ties, as XLA's min over (gap size, offset)); when none
 * does, just above the highest of them — XLA's free list starts as one chunk
 * [0, infinity), so the space above the last conflict is the one chunk of
 * unbounded size, taken only when no bounded gap fits. Both orders run; the
 * smaller arena is kept, the size order's on a tie. Zero-size tensors get
 * offset 0, as in XLA. The key order (xla-best-fit:order=size) runs one
 * order alone instead: XLA's spatial or temporal heap by itself, the
 * ablation of its choose-the-best.
 *
 * The gap walk and the interval index are greedy-by-size's
 * (greedy_common.h): each order costs what greedy-by-size costs, plus two
 * radix sorts.
 *
 * Scratch: greedy_common's 99 bytes per tensor plus 36 (a radix sort's key,
 * key buffer and value buffer 20, the size order's offsets 8, the two orders
 * 4 each), plus each array's rounding, described once with planners/layout.h. */
#include <assert.h>
#include <string.h>

#include "planners/greedy_common.h"
#include "planners/layout.h"
#include "planners/order.h"
#include "planners/tables.h"

/* The key (xla-best-fit:order=size), in the order of opt->values. */
enum { K_ORDER, N_KEYS };
enum { ORDER_BOTH, ORDER_SIZE, ORDER_LIFETIME };
static const char *const order_names[] = {"both", "size", "lifetime", NULL};
static const struct arena_key keys[N_KEYS] = {
    [K_ORDER] = {.name = "order", .kind = ARENA_KEY_CHOICE, .def = "both", .choices = order_names,
                 .help = "the placing orders run: both (the smaller plan kept), size or lifetime"},
};

struct work {
    struct arena_greedy g;
    struct arena_radix sort; /* n pairs: the two orders' keys */
    uint64_t *saved;         /* n: the size order's offsets, by rank */
    uint32_t *by_size;       /* n: ranks in the size order */
    uint32_t *by_life;       /* n: ranks in the lifetime order */
};

/* The one description of the scratch: counts with base NULL, carves else. */
static int take(struct arena_layout *l, const struct arena_problem *p, void *work)
{
    struct work *w = work;
    size_t n = p->n;
    int rc = arena_greedy_take(&w->g, l, n);
    if (rc != ARENA_OK)
        return rc;
    arena_radix_take(&w->sort, l, n);
    w->saved = arena_layout_take(l, n, sizeof *w->saved);
    w->by_size = arena_layout_take(l, n, sizeof *w->by_size);
    w->by_life = arena_layout_take(l, n, sizeof *w->by_life);
    return ARENA_OK;
}

static int xla_scratch(const struct arena_problem *p, size_t *bytes)
{
    struct work w;
    return arena_layout_count(take, p, &w, bytes);
}

/* Ranks sorted by `major` descending, then `minor` descending, then rank. */
static void order(struct work *w, uint32_t *out, int size_major)
{
    const struct arena_greedy *g = &w->g;
    size_t n = g->n;
    for (int pass = 0; pass < 2; pass++) {
        int by_size = (pass == 0) != (size_major != 0); /* minor key first */
        for (size_t k = 0; k < n; k++) {
            uint32_t r = pass == 0 ? (uint32_t)k : out[k];
            const struct arena_greedy_rec *rec = &g->rec[r];
            w->sort.key[k] = ~(by_size ? rec->size : (uint64_t)(rec->last - rec->first));
            out[k] = r;
        }
        arena_radix_sort(&w->sort, out, n);
    }
}

/* Places every tensor in order ord; stops early (nonzero) when the caller's
 * stop flag is set, the tensors not placed yet unplaced. */
static int run(struct arena_greedy *g, const uint32_t *ord)
{
    arena_greedy_restart(g);
    for (size_t k = 0; k < g->n && !arena_greedy_interrupted(g); k++)
        arena_greedy_place(g, ord[k], ARENA_GREEDY_BEST_FIT);
    return g->interrupted;
}

static int xla_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                    void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    if (p->n == 0)
        return ARENA_OK;
    struct work w;
    arena_layout_carve(take, p, &w, scratch, scratch_size);
    struct arena_greedy *g = &w.g;
    arena_greedy_init(g, p, opt->stop, NULL, NULL);
    uint64_t which = opt->values[K_ORDER].choice;
    /* first: the order run first (whose plan a stop keeps); second: the
     * lifetime order after the size order, NULL when one order runs alone */
    uint32_t *first = which == ORDER_LIFETIME ? w.by_life : w.by_size;
    uint32_t *second = which == ORDER_BOTH ? w.by_life : NULL;
    if (!g->interrupted)
        order(&w, first, which != ORDER_LIFETIME);
    if (second && !arena_greedy_interrupted(g))
        order(&w, second, 0);

    /* Stopped (the caller's flag): the first order's plan when it is whole,
     * else its placed tensors with the rest stacked; status limit. */
    if (arena_greedy_interrupted(g) || run(g, first)) {
        arena_greedy_stack_rest(g);
        arena_greedy_finish(g, plan);
        plan->status = ARENA_PLAN_LIMIT;
        return ARENA_OK;
    }
    if (second == NULL) {
        arena_greedy_finish(g, plan);
        return ARENA_OK;
    }
    uint64_t size_arena = g->arena;
    for (size_t r = 0; r < g->n; r++)
        w.saved[r] = g->rec[r].off;
    int stopped = run(g, second);
    if (stopped)
        plan->status = ARENA_PLAN_LIMIT;
    if (stopped || g->arena >= size_arena) {
        for (size_t r = 0; r < g->n; r++)
            g->rec[r].off = w.saved[r];
        g->arena = size_arena;
    }
    arena_greedy_finish(g, plan);
    return ARENA_OK;
}

const struct arena_planner arena_planner_xla_best_fit = {
    .name = "xla-best-fit",
    .summary = "best fit by size and by lifetime, the smaller kept (XLA heap simulator)",
    .kind = ARENA_KIND_OFFSETS,
    .plan = xla_plan,
    .scratch_bytes = xla_scratch,
    .keys = keys,
    .n_keys = N_KEYS,
};
