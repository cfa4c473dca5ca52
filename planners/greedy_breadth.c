/* greedy_breadth.c — Greedy by breadth (Pisarchyk & Lee 2020, "Efficient
 * Memory Management for Deep Neural Net Inference"; TensorFlow Lite GPU's
 * GreedyByBreadthAssignment).
 *
 * The breadth of a step is the sum of the sizes live at it. Steps are visited
 * by breadth, largest first (ties: lower step); at each, its live tensors not
 * placed yet go in greedy-by-size order (size descending, earlier first step,
 * lower id), each with the best-fit gap rule against every already placed
 * tensor whose lifetime meets its own (greedy_common.h's walk).
 * Only steps where some tensor starts can place anything: any other step's
 * live set is contained in that of the last such step before it, whose
 * breadth is at least as large and which comes first on ties. So the visit
 * runs over the distinct first steps; each visit enumerates its live tensors
 * with the interval index, O(log S + live).
 *
 * Scratch (breadth_layout): 94 bytes per tensor, the shared 62 and 32 here,
 * plus each array rounded up to 16 bytes. */
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
};

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
    return ARENA_OK;
}

static int greedy_breadth_scratch(const struct arena_problem *p, size_t *bytes)
{
    struct work w;
    return arena_layout_count(breadth_layout, p, &w, bytes);
}

int arena_greedy_breadth_plan_until(const struct arena_problem *p, void *scratch,
                                    size_t scratch_size, struct arena_plan *plan,
                                    int (*interrupt)(void *ctx), void *ctx, int *interrupted)
{
    struct work w;
    arena_layout_carve(breadth_layout, p, &w, scratch, scratch_size);
    struct arena_greedy *g = &w.g;
    arena_greedy_init(g, p);
    g->interrupt = interrupt;
    g->interrupt_ctx = ctx;
    size_t n = g->n, steps = 0;
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
     * last step <= a tensor's last exists: its own first. */
    if (n > 0)
        memset(breadth, 0, (steps + 1) * sizeof *breadth);
    for (size_t r = 0, a = 0; r < n; r++) {
        while (step[a] != g->rec[r].first)
            a++;
        size_t b = arena_floor_index(step, steps, g->rec[r].last);
        breadth[a] += g->rec[r].size;
        breadth[b + 1] -= g->rec[r].size;
    }
    for (size_t u = 1; u < steps; u++)
        breadth[u] += breadth[u - 1];

    /* Visit order: breadth descending, then lower step (the sort is stable). */
    for (size_t u = 0; u < steps; u++)
        key[u] = ~breadth[u];
    arena_order_identity(visit, steps);
    arena_radix_sort(&g->sort, visit, steps);

    for (size_t v = 0; v < steps && !arena_greedy_interrupted(g); v++) {
        size_t m = arena_greedy_live_unplaced(g, (uint32_t)step[visit[v]],
                                              step_start[visit[v]], g->cand);
        for (size_t i = 0; i < m; i++)
            key[i] = sizepos[g->cand[i]];
        arena_radix_sort(&g->sort, g->cand, m);
        memcpy(w.list, g->cand, m * sizeof *w.list); /* placing reuses cand */
        for (size_t i = 0; i < m && !arena_greedy_interrupted(g); i++)
            arena_greedy_place(g, w.list[i], ARENA_GREEDY_BEST_FIT);
    }
    arena_greedy_stack_rest(g);
    arena_greedy_finish(g, plan);
    if (interrupted != NULL)
        *interrupted = g->interrupted;
    return ARENA_OK;
}

static int greedy_breadth_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                               void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    int stopped = 0;
    int rc = arena_greedy_breadth_plan_until(p, scratch, scratch_size, plan,
                                             arena_greedy_stop_interrupt, (void *)opt, &stopped);
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
};
