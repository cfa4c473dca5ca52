/* greedy_size.c — Greedy by size, best fit (Pisarchyk & Lee 2020, "Efficient
 * Memory Management for Deep Neural Net Inference", Greedy by Size for offset
 * calculation; TensorFlow Lite GPU's GreedyBySizeAssignment).
 *
 * Tensors largest first (ties: earlier first step, then lower id). Each walks
 * the already placed tensors whose lifetimes meet its own in offset order and
 * takes the smallest gap between them that fits (the lowest on ties), else
 * goes just above the highest of them. The conflicting placed tensors come
 * from a static interval index (greedy_common.h), never from a scan of all
 * placed tensors: O(n log n + sum over tensors of c + m log m), c the
 * tensors the index scans and m the placed ones among them that it meets;
 * where nearly all live at once, O(n log n) by greedy_cover.c's walk.
 * The caller's stop flag is read before each placement.
 * The key ties (greedy-by-size:ties=longest) breaks ties between equal
 * sizes by the longer lifetime first (XLA's heap simulator's tie-break),
 * then as before.
 *
 * Scratch (arena_greedy_take): 99 bytes per tensor, plus each array rounded
 * up to 16 bytes. */
#include "planners/greedy_common.h"
#include "planners/planner.h"

static int greedy_size_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                            void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    return arena_greedy_size_plan(p, opt, scratch, scratch_size, plan, ARENA_GREEDY_BEST_FIT,
                                  (enum arena_greedy_ties)opt->values[0].choice);
}

const struct arena_planner arena_planner_greedy_size = {
    .name = "greedy-by-size",
    .summary = "largest first, smallest gap that fits (best fit)",
    .kind = ARENA_KIND_OFFSETS,
    .plan = greedy_size_plan,
    .scratch_bytes = arena_greedy_size_scratch,
    .keys = &arena_greedy_ties_key, /* ties=first|longest (greedy_common.h) */
    .n_keys = 1,
};
