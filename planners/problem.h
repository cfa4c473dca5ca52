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

#include "arenabench/planner.h"
#include "planners/status.h"

/* ARENA_SIZE_MAX, the tensor, alias, problem, plan status and plan types
 * are the planner contract's (include/arenabench/planner.h). */
#define ARENA_ALIGNMENT_DEFAULT 16u

/* "feasible", "optimal", "infeasible", "limit"; "unknown" otherwise. */
const char *arena_plan_status_name(int status);

/* struct arena_plan.notes. */
enum arena_plan_note {
    ARENA_PLAN_NOTE_SAT_MEMORY = 1u << 0, /* optimal: a part's SAT encoding would
                                             pass the engine's memory budget
                                             (ARENA_SAT_MEMORY), or the solver's
                                             memory could not be had (ulimit -v),
                                             so SAT was not run on it (or not to
                                             the end) */
    ARENA_PLAN_NOTE_LCG_FAILED = 1u << 1, /* optimal: Z3 failed (out of memory, an
                                             error) on a part, so the lcg engine's
                                             rounds ended there */
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

/* What the validator found wrong: the first colliding pair in sweep order,
 * or the check that failed without one. */
struct arena_collision {
    size_t a, b;     /* tensor ids, a placed (or live) before b */
    int misaligned;  /* nonzero: tensor a's offset breaks the alignment, b unused */
    int wrong_arena; /* nonzero: plan->arena is not where the tensors end, top */
    int wraps;       /* nonzero: tensor a's offset + size passes 2^64 */
    uint64_t top;    /* wrong_arena: max(offset + size) over the tensors */
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
/* One line for any refusal rc of arena_plan_validate with why: a collision
 * or misaligned offset as above; a wrong arena ("plan->arena is 100 B, but
 * its tensors end at 96 B (the largest offset + size)"); an offset whose
 * end passes 2^64; a plan of another length; else "validator: " and the
 * status's text (a bad problem, no memory). */
void arena_plan_invalid_describe(const struct arena_problem *p, const struct arena_plan *plan,
                                 int rc, const struct arena_collision *why, char *buf,
                                 size_t len);

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
