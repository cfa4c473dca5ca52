/* planner.h — one interface for every planner, and the registry.
 *
 * A planner is one file that exports one `const struct arena_planner` filled
 * with designated initialisers. Planners are pure: no I/O, no globals, no
 * allocation; working memory is handed in by the caller, and the same problem
 * always gives the same offsets. Callers go through the inline wrappers below,
 * never through the table. */
#ifndef ARENA_PLANNER_H
#define ARENA_PLANNER_H

#include <stddef.h>

#include "planners/problem.h"

struct arena_planner {
    const char *name;    /* as on the command line, e.g. "greedy-by-size" */
    const char *summary; /* one line for --list */
    /* Fills plan->offsets (n entries), plan->arena and plan->buffers. The
     * problem has passed arena_problem_check(); scratch has at least the
     * bytes scratch_bytes() asked for, suitably aligned for any type. */
    int (*plan)(const struct arena_problem *p, void *scratch, size_t scratch_size,
                struct arena_plan *plan);
    /* Optional (NULL = needs none): working bytes plan() needs for p. */
    int (*scratch_bytes)(const struct arena_problem *p, size_t *bytes);
};

/* Working memory the planner needs for p, in bytes (0 if it needs none). */
int arena_planner_scratch(const struct arena_planner *pl, const struct arena_problem *p,
                          size_t *bytes);

/* Checks the problem and the plan's capacity, then plans. ARENA_ENOMEM when
 * scratch_size is below what arena_planner_scratch() reports. */
int arena_planner_run(const struct arena_planner *pl, const struct arena_problem *p,
                      void *scratch, size_t scratch_size, struct arena_plan *plan);

/* The registry, in a fixed order (the order of tables and charts). */
size_t arena_planner_count(void);
const struct arena_planner *arena_planner_at(size_t i); /* NULL past the end */
const struct arena_planner *arena_planner_find(const char *name); /* NULL if none */

#endif
