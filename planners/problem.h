/* problem.h — the planning problem, a plan, the independent validator and the
 * metrics, exactly as docs/planners.md defines them.
 *
 * Tensor i needs `size` bytes during the closed step interval [first, last].
 * Two tensors conflict when first_i <= last_j && first_j <= last_i.
 * A plan gives every tensor an offset (a multiple of the alignment); it is valid
 * when conflicting tensors never share a byte. Arena = max(offset + size). */
#ifndef ARENA_PROBLEM_H
#define ARENA_PROBLEM_H

#include <stddef.h>
#include <stdint.h>

#include "planners/status.h"

/* Largest tensor size accepted (after rounding to the alignment). */
#define ARENA_SIZE_MAX ((uint64_t)1 << 62)
#define ARENA_ALIGNMENT_DEFAULT 16u

struct arena_tensor {
    uint64_t size;  /* bytes, a multiple of the problem's alignment */
    uint32_t first; /* step of the op that writes it */
    uint32_t last;  /* step of the last op that reads it, >= first */
};

/* An alias candidate (in-place operator): tensor `out` may take the bytes of
 * tensor `in`, which dies at the step that writes out (in.last ==
 * out.first, in.first < in.last) and is at least as large (out.size <=
 * in.size). A plan may then place out inside in's bytes (exactly on them
 * when the sizes are equal); any other overlap is still a collision. */
struct arena_alias {
    uint32_t out, in;
};

struct arena_problem {
    size_t n;
    const struct arena_tensor *tensors; /* n records, tensor id = index */
    uint64_t alignment;                 /* power of two, >= 1 */
    size_t n_alias;                     /* alias candidates, 0 for none */
    const struct arena_alias *alias;    /* n_alias pairs (NULL when 0) */
    /* NULL, or n lifetime lengths in the source's own time units, where
     * those are not the steps (a MiniMalloc CSV's upper - lower: its times
     * are compressed to dense steps, which keeps every conflict but not how
     * long a tensor lives). Only a search planner's tie orders read them;
     * conflicts, bounds and the fingerprint are the steps'. */
    const uint64_t *span;
};

/* What a plan claims about itself. Heuristics leave FEASIBLE; search
 * planners set the rest. arena_plan_settle() turns a FEASIBLE plan whose
 * arena meets its bound into OPTIMAL. */
enum arena_plan_status {
    ARENA_PLAN_FEASIBLE = 0, /* a valid plan, no claim beyond that (in decision
                                mode: a plan within the capacity was found) */
    ARENA_PLAN_OPTIMAL,      /* arena == bound: no valid plan is smaller */
    ARENA_PLAN_INFEASIBLE,   /* decision mode: proven that no plan fits the
                                capacity (bound > capacity); offsets still
                                hold a valid plan, the best one found */
    ARENA_PLAN_LIMIT,        /* a budget ran out before optimality (or the
                                decision) was proven; the plan is valid and
                                the bound proven */
};

/* "feasible", "optimal", "infeasible", "limit"; "unknown" otherwise. */
const char *arena_plan_status_name(int status);

struct arena_plan {
    size_t n;          /* set by the caller: capacity of offsets, == problem n */
    uint64_t *offsets; /* caller-owned, n entries, filled by the planner */
    uint64_t arena;    /* max(offset + size), 0 for an empty problem */
    uint32_t buffers;  /* shared buffers / slots the planner used, 0 if none */
    enum arena_plan_status status;
    uint64_t bound;    /* proven lower bound on the optimal arena; 0 when the
                          planner proves nothing beyond the max-live bound */
    uint64_t nodes;    /* search nodes (or rounds) spent; 0 for heuristics */
    uint32_t notes;    /* ARENA_PLAN_NOTE_* bits: what the planner could not do */
};

/* struct arena_plan.notes. */
enum arena_plan_note {
    ARENA_PLAN_NOTE_SAT_MEMORY = 1u << 0, /* optimal: a part's SAT encoding would
                                             pass the engine's memory budget
                                             (ARENA_SAT_MEMORY), so SAT was not run
                                             on it */
};

/* Finishes a valid plan's claims from the problem's max-live lower bound:
 * bound = max(bound, lower_bound), and a FEASIBLE plan whose arena equals
 * that bound becomes OPTIMAL. Callers (bench, tests) call it after the
 * validator accepted the plan. */
void arena_plan_settle(struct arena_plan *plan, uint64_t lower_bound);

/* ARENA_OK when the problem keeps its contract: alignment a power of two,
 * every first <= last, every size <= ARENA_SIZE_MAX and a multiple of the
 * alignment, and the sum of all sizes representable (ARENA_EOVERFLOW if not);
 * every alias pair names two distinct tensors and keeps struct arena_alias's
 * contract (in.first < in.last == out.first, out.size <= in.size).
 * ARENA_EINVAL for the other breaches. When bad is not NULL it receives the
 * offending tensor id (or SIZE_MAX for the alignment or the sum). */
int arena_problem_check(const struct arena_problem *p, size_t *bad);

/* Rounds size up to a multiple of alignment (a power of two) into *out.
 * ARENA_EOVERFLOW when the result would exceed ARENA_SIZE_MAX. */
int arena_size_align(uint64_t size, uint64_t alignment, uint64_t *out);

/* What the validator found wrong: the first colliding pair in sweep order. */
struct arena_collision {
    size_t a, b;     /* tensor ids, a placed (or live) before b */
    int misaligned;  /* nonzero: tensor a's offset breaks the alignment, b unused */
};

/* Independent check of a plan: a sweep over steps keeping the live tensors in
 * an ordered set by offset, O(n log n). The overlaps it accepts are those of
 * a declared alias pair (p->alias) with out's bytes inside in's: at out's
 * first step in's bytes outside out stay live, out's are out's alone. ARENA_OK when valid and plan->arena is
 * exactly max(offset + size); ARENA_ECONFLICT when two conflicting tensors
 * share a byte or an offset is misaligned (details in *why when not NULL);
 * ARENA_EINVAL when plan->arena is wrong or the problem is bad; ARENA_ENOMEM.
 * Byte ranges are half-open: [a,b) and [b,c) touch and do not collide. */
int arena_plan_validate(const struct arena_problem *p, const struct arena_plan *plan,
                        struct arena_collision *why);

/* Writes one line describing a collision (ids, lifetimes, byte ranges). */
void arena_collision_describe(const struct arena_problem *p, const struct arena_plan *plan,
                              const struct arena_collision *why, char *buf, size_t len);

/* Problem-only figures, by a sweep over steps, O(n log n). */
struct arena_bounds {
    uint64_t naive_bytes; /* sum of sizes */
    uint64_t lower_bound; /* max over steps of the bytes live at that step */
    uint64_t inplace_bound; /* the same once the alias candidates are merged
                               (planners/alias.h); lower_bound when there
                               are none */
    uint64_t largest;     /* max size */
    uint32_t max_live;    /* max number of tensors live at one step (clique) */
    uint32_t steps;       /* 1 + max(last), 0 for an empty problem */
};
int arena_problem_bounds(const struct arena_problem *p, struct arena_bounds *out);

/* Plan figures. Ratios are 0 where their denominator is 0. frag_mean averages
 * over the steps at which some byte is live (steps with nothing live have no
 * top address and are left out). */
struct arena_metrics {
    struct arena_bounds bounds;
    uint64_t arena;
    double ratio_lb;  /* arena / lower_bound */
    double saving;    /* 1 - arena / naive_bytes */
    double frag_peak; /* 1 - lower_bound / arena */
    double frag_mean; /* mean over steps of 1 - live_t / top_t */
};
int arena_plan_metrics(const struct arena_problem *p, const struct arena_plan *plan,
                       struct arena_metrics *out);

/* The metrics of a plan made through the in-place pre-pass (planners/alias.h):
 * arena_plan_metrics of the merged plan mp over m->merged (so frag_mean
 * counts the intervals the planners saw), with p's own bounds (naive bytes,
 * max-live lower bound, max_live) and the ratios taken against the in-place
 * bound: ratio_lb = arena / inplace_bound, frag_peak = 1 - inplace_bound /
 * arena. */
struct arena_alias_merge;
int arena_alias_metrics(const struct arena_problem *p, const struct arena_alias_merge *m,
                        const struct arena_plan *mp, struct arena_metrics *out);

#endif
