/* planner.h — one interface for every planner, and the registry.
 *
 * A planner is one file that exports one `const struct arena_planner` filled
 * with designated initialisers. The table, its kinds and options, and the
 * rules a planner keeps (pure: no I/O, no globals, no allocation; working
 * memory handed in; the same problem always gives the same offsets) are the
 * planner contract, include/arenabench/planner.h, which plugins build
 * against too: the built-in planners are written to that one header.
 * One exception to "no allocation": the SAT engine of planner optimal
 * allocates its solver (CaDiCaL's C++ inside) and its encoding, up to a
 * stated budget (planners/optimal.h, ARENA_OPTIMAL_SAT_MEMORY), and frees
 * them before plan() returns. Callers go through the checked entry points
 * below, never through the table (bench's timed loop, which checks once,
 * aside). */
#ifndef ARENA_PLANNER_H
#define ARENA_PLANNER_H

#include <signal.h>
#include <stddef.h>

#include "planners/problem.h"

/* "offsets", "shared-objects", "search", "online"; "unknown" otherwise. */
const char *arena_planner_kind_name(int kind);

/* All zero: no limits, seed 0, minimise. */
extern const struct arena_plan_options arena_plan_options_default;

/* For a planner that saw the stop flag and has no partial plan of its own
 * worth keeping: lays every tensor end to end (naive's plan, valid for any
 * problem), buffers 0, status ARENA_PLAN_LIMIT. */
void arena_plan_stopped(const struct arena_problem *p, struct arena_plan *plan);

/* Both at once: when the stop flag is set, gives plan arena_plan_stopped's
 * and returns nonzero, so a planner writes
 * `if (arena_plan_stop_here(opt, p, plan)) return ARENA_OK;`. */
static inline int arena_plan_stop_here(const struct arena_plan_options *opt,
                                       const struct arena_problem *p, struct arena_plan *plan)
{
    if (!arena_plan_stop_requested(opt))
        return 0;
    arena_plan_stopped(p, plan);
    return 1;
}

/* Working memory the planner needs for p, in bytes (0 if it needs none). */
int arena_planner_scratch(const struct arena_planner *pl, const struct arena_problem *p,
                          size_t *bytes);

/* Clears the plan's results (arena, buffers, status, bound, nodes) before a
 * call of pl->plan; arena_planner_run does it, and so must a caller that
 * calls the table directly (bench's timed loop). */
void arena_plan_reset(struct arena_plan *plan);

/* Checks the problem and the plan's capacity, then plans. opt NULL means
 * arena_plan_options_default; opt->values NULL, the planner's default key
 * values (its seed key: opt->seed); opt->config NULL for a planner with a
 * configure(), a configuration built for this call and released after it. ARENA_ENOMEM when scratch_size is below what
 * arena_planner_scratch() reports. */
int arena_planner_run(const struct arena_planner *pl, const struct arena_problem *p,
                      const struct arena_plan_options *opt, void *scratch, size_t scratch_size,
                      struct arena_plan *plan);

/* The registry, in a fixed order (the order of tables and charts). */
size_t arena_planner_count(void);
const struct arena_planner *arena_planner_at(size_t i); /* NULL past the end */
const struct arena_planner *arena_planner_find(const char *name); /* NULL if none */

#endif
