/* online_common.h — internal: the replay every online policy follows, and the
 * gap map first fit and best fit share.
 *
 * The replay (docs/runtime.md, "Online policies as planners"): at step t,
 * first free every tensor whose last step is t-1 (lowest id first), then
 * allocate every tensor whose first step is t (lowest id first); no
 * look-ahead. A policy
 * only sees alloc(id, size) and release(id, offset, size) in that order.
 * Tensors of size zero take no bytes: the replay gives them offset 0 and
 * never shows them to the policy. Arena = max(offset + size), the highest
 * byte any tensor ever used in the simulated address range [0, 2^64).
 *
 * The gap map holds the free blocks below the wilderness (the free space
 * from the top of the highest live block upwards, unbounded), in two treaps
 * over one node pool: by address, each subtree knowing its largest block
 * (first fit: the lowest block that fits, O(log n)), and by (size, address)
 * (best fit: the smallest, lowest on ties). Neighbours coalesce on release.
 * Free blocks lie between live blocks, so n + 1 nodes always suffice. */
#ifndef ARENA_ONLINE_COMMON_H
#define ARENA_ONLINE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "planners/layout.h"
#include "planners/planner.h"

/* The replay's event orders: ids by first and by last step (stable). */
struct arena_online_orders {
    uint32_t *by_first, *by_last, *tmp; /* n entries each */
};

/* Takes the three arrays for n tensors from the cursor. */
void arena_online_orders_take(struct arena_layout *l, size_t n, struct arena_online_orders *o);

/* A policy: alloc sets *offset (a multiple of the problem's alignment) for
 * tensor id of size bytes (> 0), or returns an error (ARENA_EOVERFLOW when
 * the address range is exhausted); release gives a live tensor's bytes back. */
struct arena_online_policy {
    int (*alloc)(void *state, uint32_t id, uint64_t size, uint64_t *offset);
    void (*release)(void *state, uint32_t id, uint64_t offset, uint64_t size);
};

/* Runs the replay of p through the policy and fills plan->offsets and
 * plan->arena. ARENA_EOVERFLOW when an offset + size passes 2^64 - 1.
 * opt->stop is read every ARENA_STOP_EVERY tensors: once set, the plan is
 * arena_plan_stopped's. */
int arena_online_replay(const struct arena_problem *p, const struct arena_plan_options *opt,
                        struct arena_online_orders *o, const struct arena_online_policy *pol,
                        void *state, struct arena_plan *plan);

/* ---- the gap map (first fit, best fit) ---------------------------------- */

struct arena_online_gap {
    uint64_t addr, size;
    uint64_t max;            /* largest size in this node's address subtree */
    uint32_t by_addr[2];     /* children in the address treap */
    uint32_t by_size[2];     /* children in the (size, address) treap */
};

enum arena_online_fit { ARENA_ONLINE_FIRST_FIT, ARENA_ONLINE_BEST_FIT };

struct arena_online_gaps {
    struct arena_online_gap *node; /* capacity nodes */
    uint32_t capacity, used;       /* nodes handed out so far (bump) */
    uint32_t spare;                /* released nodes, linked by by_addr[0] */
    uint32_t root_addr, root_size;
    uint64_t wilderness;           /* lowest free address above every live block */
    enum arena_online_fit fit;
};

/* Takes the node pool for n tensors (n + 1 nodes) from the cursor. */
void arena_online_gaps_take(struct arena_layout *l, size_t n, struct arena_online_gaps *g);

/* Empties the map (everything free from address 0 up). */
void arena_online_gaps_start(struct arena_online_gaps *g, enum arena_online_fit fit);

/* The policy over a struct arena_online_gaps. */
extern const struct arena_online_policy arena_online_gaps_policy;

/* online-first-fit and online-best-fit differ only in the fit rule: one
 * scratch description (the orders and the gap map) and one plan for both. */
int arena_online_gaps_scratch(const struct arena_problem *p, size_t *bytes);
int arena_online_gaps_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                           void *scratch, size_t scratch_size, struct arena_plan *plan,
                           enum arena_online_fit fit);

#endif
