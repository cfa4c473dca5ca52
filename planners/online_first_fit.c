/* online_first_fit.c — first fit, as a runtime allocator would run it
 * (Knuth, TAOCP vol. 1 §2.5; Wilson, Johnstone, Neely & Boles 1995, "Dynamic
 * Storage Allocation: A Survey and Critical Review").
 *
 * No look-ahead: the replay of ALGORITHMS.md ("Runtime allocation") frees
 * the tensors that died at the previous step, lowest id first, then allocates
 * the tensors born at this step, lowest id first. Each allocation takes the
 * lowest-addressed free block that holds it, at the block's low end; when
 * none does it goes at the wilderness, the free space above the highest live
 * block (so the heap grows only when no hole fits). Freed blocks coalesce
 * with free neighbours. Sizes are multiples of the alignment and blocks are
 * carved exactly, so every offset is one too. Arena = the highest byte used.
 *
 * Free blocks sit in a treap by address whose nodes know their subtree's
 * largest block: O(n log n) after O(n) radix sorts by first and last step.
 * Scratch: 12 bytes per tensor for the orders, 40 per free-block node
 * (n + 1 of them), each array rounded up to 16 bytes. */
#include "planners/online_common.h"
#include "planners/tables.h"

struct work {
    struct arena_online_orders orders;
    struct arena_online_gaps gaps;
};

static void carve(const struct arena_problem *p, struct arena_layout *l, struct work *w)
{
    arena_online_orders_take(l, p->n, &w->orders);
    arena_online_gaps_take(l, p->n, &w->gaps);
}

static int first_fit_scratch(const struct arena_problem *p, size_t *bytes)
{
    if (p->n >= UINT32_MAX - 1)
        return ARENA_EOVERFLOW;
    struct arena_layout l;
    struct work w;
    arena_layout_init(&l, NULL);
    carve(p, &l, &w);
    return arena_layout_bytes(&l, bytes);
}

static int first_fit_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                          void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt;
    size_t need;
    int rc = first_fit_scratch(p, &need);
    if (rc != ARENA_OK)
        return rc;
    if (scratch_size < need)
        return ARENA_ENOMEM;
    struct arena_layout l;
    struct work w;
    arena_layout_init(&l, scratch);
    carve(p, &l, &w);
    arena_online_gaps_start(&w.gaps, ARENA_ONLINE_FIRST_FIT);
    return arena_online_replay(p, &w.orders, &arena_online_gaps_policy, &w.gaps, plan);
}

const struct arena_planner arena_planner_online_first_fit = {
    .name = "online-first-fit",
    .summary = "runtime replay, no look-ahead: lowest free block that fits",
    .kind = ARENA_KIND_ONLINE,
    .plan = first_fit_plan,
    .scratch_bytes = first_fit_scratch,
};
