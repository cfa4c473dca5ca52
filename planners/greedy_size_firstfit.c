/* greedy_size_firstfit.c — Greedy by size with the first-fit gap rule of
 * TensorFlow Lite Micro's GreedyMemoryPlanner (tensorflow/lite/micro/memory_planner).
 *
 * Same order as greedy-by-size (largest first; ties: earlier first step, then
 * lower id) and the same walk over the already placed tensors whose lifetimes
 * meet its own, in offset order, but each tensor takes the lowest gap that
 * fits rather than the smallest, else goes just above the highest of them.
 * The conflicting placed tensors come from the static interval index in
 * greedy_common.h, not from a scan of every placed tensor (TFLite Micro's
 * planner scans them all: O(n^2)).
 * The key ties (greedy-by-size-firstfit:ties=longest) breaks ties between
 * equal sizes by the longer lifetime first (XLA's heap simulator's
 * tie-break), then as before.
 *
 * Scratch (arena_greedy_take): 99 bytes per tensor, plus each array rounded
 * up to 16 bytes. */
#include "planners/greedy_common.h"
#include "planners/planner.h"

static int greedy_firstfit_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                                void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    return arena_greedy_size_plan(p, opt, scratch, scratch_size, plan, ARENA_GREEDY_FIRST_FIT,
                                  (enum arena_greedy_ties)opt->values[0].choice);
}

const struct arena_planner arena_planner_greedy_size_firstfit = {
    .name = "greedy-by-size-firstfit",
    .summary = "largest first, lowest gap that fits (TFLite Micro)",
    .kind = ARENA_KIND_OFFSETS,
    .plan = greedy_firstfit_plan,
    .scratch_bytes = arena_greedy_size_scratch,
    .keys = &arena_greedy_ties_key, /* ties=first|longest (greedy_common.h) */
    .n_keys = 1,
};
