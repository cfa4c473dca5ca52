/* online_best_fit.c — best fit, as a runtime allocator would run it
 * (Knuth, TAOCP vol. 1 §2.5; Wilson, Johnstone, Neely & Boles 1995, "Dynamic
 * Storage Allocation: A Survey and Critical Review").
 *
 * No look-ahead: the replay of online_common.h (docs/runtime.md) frees
 * the tensors that died at the previous step, lowest id first, then allocates
 * the tensors born at this step, lowest id first. Each allocation takes the
 * smallest free block that holds it (the lowest-addressed among equals), at
 * the block's low end; when none does it goes at the wilderness, the free
 * space above the highest live block. Freed blocks coalesce with free
 * neighbours. Sizes are multiples of the alignment and blocks are carved
 * exactly, so every offset is one too. Arena = the highest byte used.
 *
 * Free blocks sit in two treaps over one node pool, by address (to coalesce)
 * and by (size, address) (to choose): O(n log n) after O(n) radix sorts by
 * first and last step. Scratch: 12 bytes per tensor for the orders, 40 per
 * free-block node (n + 1 of them), each array rounded up to 16 bytes. */
#include "planners/online_common.h"
#include "planners/tables.h"

static int best_fit_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                          void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    return arena_online_gaps_plan(p, opt, scratch, scratch_size, plan, ARENA_ONLINE_BEST_FIT);
}

const struct arena_planner arena_planner_online_best_fit = {
    .name = "online-best-fit",
    .summary = "runtime replay, no look-ahead: smallest free block that fits, lowest on ties",
    .kind = ARENA_KIND_ONLINE,
    .plan = best_fit_plan,
    .scratch_bytes = arena_online_gaps_scratch,
};
