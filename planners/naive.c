/* naive.c — no reuse at all: the baseline every saving is measured against.
 * Tensor i sits at the sum of the sizes of tensors 0..i-1 (id order), so no
 * two tensors share a byte and the arena is the sum of all sizes. Needs no
 * scratch. It reads no stop flag: its one pass (1 ns a tensor) is the plan
 * every other planner returns when stopped (arena_plan_stopped), so
 * stopping it would cost as much as finishing. */
#include <assert.h>

#include "planners/tables.h"

static int naive_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                      void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt;
    (void)scratch;
    (void)scratch_size;
    uint64_t sum = 0;
    for (size_t i = 0; i < p->n; i++) {
        assert(p->tensors[i].size <= UINT64_MAX - sum); /* arena_problem_check */
        plan->offsets[i] = sum;
        sum += p->tensors[i].size;
    }
    plan->arena = sum;
    plan->buffers = 0;
    return ARENA_OK;
}

const struct arena_planner arena_planner_naive = {
    .name = "naive",
    .summary = "no reuse: offsets are the running sum of sizes",
    .kind = ARENA_KIND_OFFSETS,
    .plan = naive_plan,
};
