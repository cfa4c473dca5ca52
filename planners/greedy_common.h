/* greedy_common.h — what greedy-by-size, greedy-by-size-firstfit and
 * greedy-by-breadth share (internal to planners/, not part of the API).
 *
 * All lifetimes are known before planning starts, so the tensors go once into
 * a static index over steps; placing a tensor then looks at the tensors whose
 * lifetime meets its own and never scans the others. Tensor j meets [f, l]
 * when first_j <= l and last_j >= f, that is:
 *
 *   - first_j in [f, l]: ranks number the tensors by (first, id), so these
 *     are one run of consecutive ranks, scanned forward;
 *   - first_j < f <= last_j, j short (last - first <= `reach`, the longest
 *     length in the smallest class [2^(k-1), 2^k) up to which lie 7/8 of all):
 *     then first_j >= f - reach, so these lie in the run of ranks just before
 *     f, scanned backward; a rank that is not one jumps to skip[rank], over
 *     ranks whose short lifetimes end no later than its own (so also before
 *     f);
 *   - first_j < f <= last_j, j long: a centred interval tree over the long
 *     tensors only (implicit balanced tree over their distinct `first`
 *     values; each sits at the highest node whose step lies in its lifetime,
 *     listed once by first ascending and once by last descending), stabbed
 *     at f in O(log S + answer).
 *
 * The backward run stays within reach steps of f, and the jumps pass over
 * dead short tensors in runs, so it reads few more tensors than it takes
 * (nested lifetimes that all end before f are its worst case), and reads them
 * sequentially, which is what keeps 10^6 tensors fast. The long tensors are
 * at most n/8, so the tree is small. The placed tensors met are sorted by
 * offset (insertion for a few, LSD radix from 32 on) and walked
 * once (arena_greedy_place): O(log S + c + m log m) for c tensors read of
 * which m are placed. Building the index: radix passes and a stack sweep,
 * O(n), plus O(n log S) for the tree. The sorts are order.h's one radix sort.
 *
 * m is the placed part of the live set, so where nearly all tensors live at
 * once that sum is O(n^2 log n): greedy-by-size took 8.6 s on 30,000
 * tensors all live at one step and 7 minutes on 10^5. There the tensors
 * that do NOT meet the new one are few, and greedy_cover.c walks the union
 * of all placed tensors of the part with those few switched off, in
 * O((E + H + 1) log n) for E of them and H holes (0.17 s at 10^5); it
 * gives the same offsets, and is chosen per tensor at set-up.
 *
 * Zero-size tensors get offset 0 and never constrain another tensor. */
#ifndef ARENA_GREEDY_COMMON_H
#define ARENA_GREEDY_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "planners/layout.h"
#include "planners/order.h"
#include "planners/planner.h"
#include "planners/problem.h"

/* Offset of a tensor that is not placed yet (no real offset reaches it: an
 * offset stays below the sum of all sizes, which fits in 64 bits). */
#define ARENA_GREEDY_UNPLACED UINT64_MAX

enum arena_greedy_fit {
    ARENA_GREEDY_BEST_FIT,  /* smallest gap that fits, lowest on ties */
    ARENA_GREEDY_FIRST_FIT, /* lowest gap that fits */
};

/* How greedy-by-size's order breaks ties between equal sizes (the key ties
 * of greedy-by-size and greedy-by-size-firstfit). */
enum arena_greedy_ties {
    ARENA_GREEDY_TIES_FIRST,   /* earlier first step, then lower id */
    ARENA_GREEDY_TIES_LONGEST, /* longer lifetime (XLA's), then as FIRST */
};
/* Their names, NULL-terminated, in the enum's order: the key's choices. */
extern const char *const arena_greedy_ties_names[];
/* The key both greedy-by-size planners take (ties=first|longest), their
 * only one: opt->values[0]. */
extern const struct arena_key arena_greedy_ties_key;

/* One tensor, by rank. off is ARENA_GREEDY_UNPLACED until placed (zero-size
 * tensors stay so and get offset 0 in arena_greedy_finish). */
struct arena_greedy_rec {
    uint64_t size;
    uint64_t off;
    uint32_t first;
    uint32_t last;
};

/* A node of greedy_cover.c's treaps: for the active tensors of its subtree,
 * where their union's last run starts and ends (hi 0: none active). */
struct arena_greedy_cover {
    uint64_t tail, hi;
    uint32_t child[2];
};

/* The working state; every array points into the caller's scratch, carved by
 * arena_greedy_take. */
struct arena_greedy {
    size_t n;                     /* tensors */
    uint64_t reach;               /* longest `last - first` of a short tensor */
    struct arena_greedy_rec *rec; /* n, by rank = (first, id) order */
    uint32_t *id;                 /* n: tensor id of each rank */
    uint32_t *order;              /* n: ranks by size desc, then rank (= first, id) */
    size_t steps;                 /* distinct `first` values of long tensors */
    uint32_t *step;               /* steps: those values, ascending (tree keys) */
    uint32_t *node_start;         /* steps + 1: tree node u owns by_first/by_last
                                     entries [node_start[u], node_start[u+1]) */
    uint32_t *by_first;           /* per node, long ranks by first ascending */
    uint32_t *by_last;            /* per node, long ranks by last descending */
    uint32_t *cand;               /* n: ranks found by a query */
    uint32_t *skip;               /* n: 1 + the nearest rank left of r whose
                                     last, counting only short tensors (a long
                                     one counts 0), is higher than r's; else 0 */
    struct arena_radix sort;      /* n pairs: the index's sorts, then each
                                     placement's conflicting offsets */
    uint64_t arena;               /* max end placed so far */
    /* Optional (NULL: never): asked before each placement of the size and
     * breadth orders; nonzero stops the planner, which then stacks the
     * tensors it has not placed above the others (arena_greedy_stack_rest).
     * A caller with a budget (optimal, hill-climb) hands it to init. */
    int (*interrupt)(void *ctx);
    void *interrupt_ctx;
    /* Optional (NULL: none): a caller's stop flag, read the same way but
     * without a call (a placement of a small problem costs ~40 ns). */
    const volatile sig_atomic_t *stop;
    int interrupted;              /* interrupt answered nonzero */
    /* The near-clique path (greedy_cover.c); its arrays are written only
     * when cover_on, the rest at set-up. */
    size_t parts;                 /* ranks split where no lifetime spans */
    uint32_t *part_start;         /* parts + 1 (at most n + 1): first rank,
                                     then n; made only from 128 tensors */
    uint32_t *lasts;              /* n: ranks by last, ties by rank */
    uint8_t *flags;               /* n: per rank, its path and its switch */
    int cover_on;                 /* some rank takes the cover path */
    uint32_t *root;               /* parts: each part's treap */
    struct arena_greedy_cover *cover; /* n: the treaps' nodes, by rank */
};

/* Takes every array of g for n tensors from the layout (see layout.h): 99
 * bytes per tensor — rec 24; id, order, cand and skip 4 each; the sort's
 * pairs 20; the tree 16 per long tensor, at most n/8 of them; the cover
 * path's parts, lasts and roots 4 each, flags 1, nodes 24 (touched only
 * when some tensor takes that path) — plus each array's rounding to 16
 * bytes. ARENA_EOVERFLOW when n does not fit the 32-bit ranks. */
int arena_greedy_take(struct arena_greedy *g, struct arena_layout *l, size_t n);

/* The scratch of greedy-by-size with either gap rule: arena_greedy_take alone. */
int arena_greedy_size_scratch(const struct arena_problem *p, size_t *bytes);

/* Greedy by size with the given gap rule and tie-break, in scratch of at
 * least arena_greedy_size_scratch() bytes; opt->stop is asked before each
 * placement (a stopped plan: the rest stacked, status ARENA_PLAN_LIMIT). */
int arena_greedy_size_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                           void *scratch, size_t scratch_size, struct arena_plan *plan,
                           enum arena_greedy_fit fit, enum arena_greedy_ties ties);

/* The same with ties ARENA_GREEDY_TIES_FIRST, reading stop (may be NULL)
 * and asking interrupt(ctx) (may be NULL) before each placement; sets
 * *interrupted (may be NULL) when it stopped early: the plan is still
 * valid, the tensors not placed stacked above the others. */
int arena_greedy_size_plan_until(const struct arena_problem *p, void *scratch,
                                 size_t scratch_size, struct arena_plan *plan,
                                 enum arena_greedy_fit fit, int (*interrupt)(void *ctx),
                                 void *ctx, const volatile sig_atomic_t *stop,
                                 int *interrupted);

/* Greedy by breadth (greedy_breadth.c) with the same interrupt and stop
 * flag (may be NULL); its scratch is the planner's own scratch_bytes. */
int arena_greedy_breadth_plan_until(const struct arena_problem *p, void *scratch,
                                    size_t scratch_size, struct arena_plan *plan,
                                    int (*interrupt)(void *ctx), void *ctx,
                                    const volatile sig_atomic_t *stop, int *interrupted);

/* Reads g's stop flag and asks its interrupt once (0 without either);
 * remembers a nonzero answer. Inline: it comes before every placement. */
static inline int arena_greedy_interrupted(struct arena_greedy *g)
{
    if (!g->interrupted && ((g->stop != NULL && *g->stop != 0) ||
                            (g->interrupt != NULL && g->interrupt(g->interrupt_ctx))))
        g->interrupted = 1;
    return g->interrupted;
}

/* Gives every tensor not placed yet (size > 0) its own slot above all
 * placed ones, end to end: valid whatever was placed, so a stopped planner
 * still returns a plan. */
void arena_greedy_stack_rest(struct arena_greedy *g);

/* Builds the index for p in g's carved arrays. p has passed
 * arena_problem_check (asserted, not re-checked). stop and interrupt(ctx)
 * (either may be NULL) become g's; they are also asked between the set-up's
 * passes (each a sort or a sweep, ~20 ms at n = 10^6), and once one answers
 * g->interrupted is set and the rest of the index is not built: rec and id
 * are, which is all arena_greedy_stack_rest and arena_greedy_finish read,
 * and all a stopped caller may use. */
void arena_greedy_init(struct arena_greedy *g, const struct arena_problem *p,
                       const volatile sig_atomic_t *stop, int (*interrupt)(void *ctx), void *ctx);

/* Places the tensor of rank r against every already placed tensor whose
 * lifetime meets its own: walks them in offset order keeping the highest end
 * seen so far (from 0); each positive space before the next tensor that is at
 * least size(r) is a candidate; best fit takes the smallest (lowest on ties),
 * first fit the lowest; with none, r goes at the highest end. Does nothing for
 * a zero-size or already placed tensor. No end passes the sum of all sizes,
 * which fits in 64 bits. */
void arena_greedy_place(struct arena_greedy *g, uint32_t r, enum arena_greedy_fit fit);

/* Writes into out the ranks of the tensors live at step s that are not placed
 * yet and have a nonzero size; returns how many. `from` is the lowest rank
 * whose first is >= s (n if none). out has room for n entries and may be
 * g->cand. Reads every tensor live at s, placed or not. */
size_t arena_greedy_live_unplaced(const struct arena_greedy *g, uint32_t s, size_t from,
                                  uint32_t *out);

/* Copies the offsets out by tensor id (0 for zero-size tensors) and the arena. */
void arena_greedy_finish(const struct arena_greedy *g, struct arena_plan *plan);

/* Unplaces every tensor (arena 0) for another placing order over the same
 * index (xla-best-fit's second order, hill-climb's rounds). */
void arena_greedy_restart(struct arena_greedy *g);

/* greedy_cover.c, used by the functions above: the parts, the per-rank
 * choice of path (flags) and cover_on, at the end of arena_greedy_init (its
 * cand and order are free then); empty treaps; rank r's offset by that
 * path (the same as the index's); and rank r, placed at offset `at`, into
 * its part's treap. */
void arena_greedy_cover_init(struct arena_greedy *g);
void arena_greedy_cover_restart(struct arena_greedy *g);
#define ARENA_GREEDY_COVER_PATH 2u /* flags: the rank takes the cover path */
uint64_t arena_greedy_cover_fit(struct arena_greedy *g, uint32_t r, enum arena_greedy_fit fit);
void arena_greedy_cover_insert(struct arena_greedy *g, uint32_t r, uint64_t at);

#endif
