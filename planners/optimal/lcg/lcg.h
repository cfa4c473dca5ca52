/* lcg.h — the lazy-clause-generation engine of planner optimal
 * (planners/optimal/lcg/): one part's decision "is there a plan within C
 * bytes?" as Z3 (libz3 4.8.12) with a user propagator, beside the search
 * and the SAT engine. Internal to planners/optimal/.
 *
 * The model: one Boolean per pair of tensors whose lifetimes meet, "this
 * one lies below that one", and no clause at all. The propagator is the
 * theory: it keeps the orientations Z3 has asserted as a graph and, per
 * tensor, the longest chain of sizes up to its offset (head) and from it
 * to the top (tail), on a trail undone as Z3 backtracks (graph.c). A
 * tensor whose head and tail pass C is a conflict, explained by the two
 * chains of "below" literals; an open pair one of whose orientations would
 * pass C is forced the other way, explained the same way (propagator.c).
 * Z3 learns clauses from these explanations: lazy clause generation
 * (Ohrimenko, Stuckey and Codish 2009) over the pairs. A model is a plan:
 * each tensor at its head.
 *
 * Units: offsets, sizes and capacities in units of the part's step, as in
 * the SAT engine (sat.h). A learnt clause says "these orientations pass
 * C"; it holds at every capacity below C too, so a solver's capacity (its
 * top) may be lowered, never raised. */
#ifndef ARENA_OPTIMAL_LCG_H
#define ARENA_OPTIMAL_LCG_H

#include "planners/optimal/internal.h"

struct arena_lcg;

/* What opening a solver found. */
enum arena_lcg_open {
    ARENA_LCG_READY,
    ARENA_LCG_SKIPPED, /* its arrays would pass the memory budget, or Z3 or
                          memory could not be had */
    ARENA_LCG_STOPPED, /* a global budget ran out */
};

/* Opens a solver for the loaded part at capacity cap bytes (its top), with
 * plan->offsets as the phases' incumbent: every pair's first value is its
 * orientation there (rule sat-phases). *out is set only with READY. */
enum arena_lcg_open arena_lcg_open(struct run *r, uint64_t cap, const struct arena_plan *plan,
                                   struct arena_lcg **out);

/* The capacity (bytes) the solver decides. */
uint64_t arena_lcg_top(const struct arena_lcg *s);

/* Lowers the top to cap bytes (learnt clauses kept: they hold there). */
void arena_lcg_lower_top(struct arena_lcg *s, uint64_t cap);

/* Asks for a plan of the part within the top, within `conflicts`
 * conflicts and the global budgets (node_limit counts conflicts with
 * search nodes; time_limit and opt->stop interrupt Z3 from the
 * propagator's hooks). FOUND: the plan, decoded and checked pairwise, is
 * kept through keep_plan; EXHAUSTED: no plan within the top (proof);
 * LIMITED: a budget, or Z3 failed (then *failed is set and the solver is
 * of no more use). */
enum outcome arena_lcg_solve(struct run *r, struct arena_lcg *s, uint64_t conflicts,
                             struct arena_plan *plan, int *failed);

/* Frees it (NULL: nothing). */
void arena_lcg_close(struct arena_lcg *s);

#endif
