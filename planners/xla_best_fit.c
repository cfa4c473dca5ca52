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
 * offset 0, as in XLA.
 *
 * The gap walk and the interval index are greedy-by-size's
 * (greedy_common.h): each order costs what greedy-by-size costs, plus two
 * radix sorts.
 *
 * Scratch: greedy_common's 84 bytes per tensor plus 28 (two orders and a
 * sort buffer 4 each, a sort key and its buffer 8 each; the key array then
 * keeps the size order's offsets),
 * from planners/layout.h. */
#include <string.h>

#include "planners/greedy_common.h"
#include "planners/layout.h"
#include "planners/tables.h"

struct work {
    void *greedy;       /* greedy_common's scratch */
    size_t greedy_size;
    uint64_t *key;      /* n: sort keys, then the size order's offsets */
    uint64_t *ktmp;     /* n */
    uint32_t *by_size;  /* n: ranks in the size order */
    uint32_t *by_life;  /* n: ranks in the lifetime order */
    uint32_t *itmp;     /* n */
};

static int carve(struct arena_layout *l, size_t n, struct work *w)
{
    int rc = arena_greedy_scratch(n, &w->greedy_size);
    if (rc != ARENA_OK)
        return rc;
    w->greedy = arena_layout_take(l, w->greedy_size, 1);
    w->key = arena_layout_take(l, n, sizeof *w->key);
    w->ktmp = arena_layout_take(l, n, sizeof *w->ktmp);
    w->by_size = arena_layout_take(l, n, sizeof *w->by_size);
    w->by_life = arena_layout_take(l, n, sizeof *w->by_life);
    w->itmp = arena_layout_take(l, n, sizeof *w->itmp);
    return ARENA_OK;
}

static int xla_scratch(const struct arena_problem *p, size_t *bytes)
{
    struct arena_layout l;
    struct work w;
    arena_layout_init(&l, NULL);
    int rc = carve(&l, p->n, &w);
    return rc != ARENA_OK ? rc : arena_layout_bytes(&l, bytes);
}

/* Ranks sorted by `major` descending, then `minor` descending, then rank. */
static void order(const struct arena_greedy *g, struct work *w, uint32_t *out, int size_major)
{
    size_t n = g->n;
    for (int pass = 0; pass < 2; pass++) {
        int by_size = (pass == 0) != (size_major != 0); /* minor key first */
        for (size_t k = 0; k < n; k++) {
            uint32_t r = pass == 0 ? (uint32_t)k : out[k];
            const struct arena_greedy_rec *rec = &g->rec[r];
            w->key[k] = ~(by_size ? rec->size : (uint64_t)(rec->last - rec->first));
            out[k] = r;
        }
        arena_greedy_radix(w->key, out, w->ktmp, w->itmp, n);
    }
}

static int run(struct arena_greedy *g, const uint32_t *ord)
{
    for (size_t r = 0; r < g->n; r++)
        g->rec[r].off = ARENA_GREEDY_UNPLACED;
    g->arena = 0;
    int rc = ARENA_OK;
    for (size_t k = 0; rc == ARENA_OK && k < g->n; k++)
        rc = arena_greedy_place(g, ord[k], ARENA_GREEDY_BEST_FIT);
    return rc;
}

static int xla_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                    void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt;
    size_t need;
    int rc = xla_scratch(p, &need);
    if (rc != ARENA_OK)
        return rc;
    if (p->n == 0)
        return ARENA_OK;
    if (scratch_size < need)
        return ARENA_ENOMEM;
    struct arena_layout l;
    struct work w;
    arena_layout_init(&l, scratch);
    carve(&l, p->n, &w);
    struct arena_greedy g;
    rc = arena_greedy_init(&g, p, w.greedy, w.greedy_size);
    if (rc != ARENA_OK)
        return rc;
    order(&g, &w, w.by_size, 1);
    order(&g, &w, w.by_life, 0);

    rc = run(&g, w.by_size);
    if (rc != ARENA_OK)
        return rc;
    uint64_t size_arena = g.arena;
    for (size_t r = 0; r < g.n; r++)
        w.key[r] = g.rec[r].off;
    rc = run(&g, w.by_life);
    if (rc != ARENA_OK)
        return rc;
    if (g.arena >= size_arena) {
        for (size_t r = 0; r < g.n; r++)
            g.rec[r].off = w.key[r];
        g.arena = size_arena;
    }
    arena_greedy_finish(&g, plan);
    return ARENA_OK;
}

const struct arena_planner arena_planner_xla_best_fit = {
    .name = "xla-best-fit",
    .summary = "best fit by size and by lifetime, the smaller kept (XLA heap simulator)",
    .kind = ARENA_KIND_OFFSETS,
    .plan = xla_plan,
    .scratch_bytes = xla_scratch,
};
