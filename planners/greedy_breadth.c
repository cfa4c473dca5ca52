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
 * Scratch: 124 bytes per tensor (84 shared + 40 here) plus under 32. */
#include <string.h>

#include "planners/greedy_common.h"
#include "planners/planner.h"

/* After the shared part: breadth 8(n+1) | list 16n | sizepos, visit, step,
 * step_start 4n each. */
static int breadth_scratch(size_t n, size_t *common, size_t *bytes)
{
    int rc = arena_greedy_scratch(n, common);
    if (rc != ARENA_OK)
        return rc;
    if (n > (SIZE_MAX - *common - 8) / 40)
        return ARENA_EOVERFLOW;
    *bytes = n == 0 ? 0 : *common + 40 * n + 8;
    return ARENA_OK;
}

static int greedy_breadth_scratch(const struct arena_problem *p, size_t *bytes)
{
    size_t common;
    return breadth_scratch(p->n, &common, bytes);
}

/* Index of the last step <= s (there is one: s is some tensor's last, at or
 * after its first). */
static size_t last_step_at_most(const uint32_t *step, size_t steps, uint32_t s)
{
    size_t lo = 0, hi = steps; /* answer in [lo, hi) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (step[mid] <= s)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static int greedy_breadth_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                               void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt;
    size_t common, need;
    int rc = breadth_scratch(p->n, &common, &need);
    if (rc != ARENA_OK)
        return rc;
    if (p->n != 0 && (scratch == NULL || scratch_size < need))
        return ARENA_ENOMEM;
    struct arena_greedy g;
    rc = arena_greedy_init(&g, p, scratch, common);
    if (rc != ARENA_OK || g.n == 0) {
        if (rc == ARENA_OK)
            arena_greedy_finish(&g, plan);
        return rc;
    }
    size_t n = g.n;
    unsigned char *at = (unsigned char *)scratch + common;
    uint64_t *breadth = (uint64_t *)(void *)at;
    struct arena_greedy_span *list = (struct arena_greedy_span *)(void *)(at + 8 * (n + 1));
    uint32_t *sizepos = (uint32_t *)(void *)(list + n);
    uint32_t *visit = sizepos + n;
    uint32_t *step = visit + n;       /* distinct first steps, ascending */
    uint32_t *step_start = step + n;  /* lowest rank starting at each */

    size_t steps = 0;
    for (size_t r = 0; r < n; r++)
        if (steps == 0 || step[steps - 1] != g.rec[r].first) {
            step[steps] = g.rec[r].first;
            step_start[steps++] = (uint32_t)r;
        }

    for (size_t i = 0; i < n; i++)
        sizepos[g.order[i]] = (uint32_t)i;

    /* Breadth per first step by a difference array; the true values never
     * exceed the sum of sizes (checked to fit), so wrapping steps are exact. */
    memset(breadth, 0, (steps + 1) * sizeof *breadth);
    for (size_t r = 0, a = 0; r < n; r++) {
        while (step[a] != g.rec[r].first)
            a++;
        size_t b = last_step_at_most(step, steps, g.rec[r].last);
        breadth[a] += g.rec[r].size;
        breadth[b + 1] -= g.rec[r].size;
    }
    for (size_t u = 1; u < steps; u++)
        breadth[u] += breadth[u - 1];

    /* Visit order: breadth descending, then lower step (radix is stable). The
     * shared span buffers are free until the first placement. */
    uint64_t *key = (uint64_t *)(void *)g.span;
    uint64_t *ktmp = key + steps;
    uint32_t *idx = (uint32_t *)(void *)(ktmp + steps);
    uint32_t *itmp = idx + steps;
    for (size_t u = 0; u < steps; u++) {
        key[u] = ~breadth[u];
        idx[u] = (uint32_t)u;
    }
    arena_greedy_radix(key, idx, ktmp, itmp, steps);
    memcpy(visit, idx, steps * sizeof *visit);

    for (size_t v = 0; rc == ARENA_OK && v < steps; v++) {
        size_t m = arena_greedy_live_unplaced(&g, step[visit[v]], step_start[visit[v]], g.cand);
        for (size_t i = 0; i < m; i++) {
            list[i].off = sizepos[g.cand[i]];
            list[i].end = g.cand[i];
        }
        arena_greedy_sort_spans(list, g.span_tmp, m);
        for (size_t i = 0; rc == ARENA_OK && i < m; i++)
            rc = arena_greedy_place(&g, (uint32_t)list[i].end, ARENA_GREEDY_BEST_FIT);
    }
    if (rc == ARENA_OK)
        arena_greedy_finish(&g, plan);
    return rc;
}

const struct arena_planner arena_planner_greedy_breadth = {
    .name = "greedy-by-breadth",
    .summary = "busiest steps first, largest first, smallest gap that fits",
    .kind = ARENA_KIND_OFFSETS,
    .plan = greedy_breadth_plan,
    .scratch_bytes = greedy_breadth_scratch,
};
