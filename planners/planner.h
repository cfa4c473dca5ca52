/* planner.h — one interface for every planner, and the registry.
 *
 * A planner is one file that exports one `const struct arena_planner` filled
 * with designated initialisers. Planners are pure: no I/O, no globals, no
 * allocation; working memory is handed in by the caller, and the same problem
 * always gives the same offsets. One exception: the SAT engine of planner
 * optimal allocates its solver (CaDiCaL's C++ inside) and its encoding, up
 * to a stated budget (planners/optimal.h, ARENA_OPTIMAL_SAT_MEMORY), and
 * frees them before plan() returns. Callers go through the inline wrappers
 * below, never through the table. */
#ifndef ARENA_PLANNER_H
#define ARENA_PLANNER_H

#include <signal.h>
#include <stddef.h>

#include "planners/problem.h"

/* What kind of plan a planner makes, so tables can group planners and
 * charts colour them by kind. */
enum arena_planner_kind {
    ARENA_KIND_OFFSETS = 0,     /* offsets in one arena, by a fixed rule */
    ARENA_KIND_SHARED_OBJECTS,  /* shared buffers (objects, slots, colours)
                                   laid end to end; plan->buffers counts them */
    ARENA_KIND_SEARCH,          /* a budgeted search: reads the options */
    ARENA_KIND_ONLINE,          /* no look-ahead: a runtime allocator's policy */
};

/* "offsets", "shared-objects", "search", "online"; "unknown" otherwise. */
const char *arena_planner_kind_name(int kind);

/* Options for planners that search; planners that need none ignore them. */
struct arena_plan_options {
    double time_limit;   /* seconds of wall time; 0 = none */
    uint64_t node_limit; /* search nodes or rounds; 0 = the planner's default
                            (none for an exact search) */
    uint64_t seed;       /* for randomised planners; same seed, same plan */
    uint64_t capacity;   /* 0: minimise the arena; otherwise decision mode:
                            any plan with arena <= capacity answers */
    const volatile sig_atomic_t *stop; /* NULL, or a caller's signal flag:
                            every planner but naive (whose one pass is the
                            plan a stopped call gives) reads it between
                            bounded stretches of work and, once it is
                            non-zero, returns soon with a valid plan of
                            status ARENA_PLAN_LIMIT: stopped, not the
                            planner's answer (docs/budgets.md) */
    uint32_t optimal_off; /* planner optimal only, for ablations: the rules it
                            switches off, ARENA_OPTIMAL_* bits (planners/optimal.h);
                            0 = every rule on. Other planners ignore it. */
    uint32_t optimal_engine; /* planner optimal only: enum arena_optimal_engine
                            (planners/optimal.h), 0 = the portfolio of search
                            and SAT. Other planners ignore it. */
};

/* All zero: no limits, seed 0, minimise. */
extern const struct arena_plan_options arena_plan_options_default;

/* For planners: nonzero once the caller's stop flag (opt->stop) is set. One
 * volatile load; loops whose steps cost a few nanoseconds read it every
 * ARENA_STOP_EVERY steps. */
static inline int arena_plan_stop_requested(const struct arena_plan_options *opt)
{
    return opt->stop != NULL && *opt->stop != 0;
}
#define ARENA_STOP_EVERY 4096u

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

struct arena_planner {
    const char *name;    /* as on the command line, e.g. "greedy-by-size" */
    const char *summary; /* one line for --list */
    enum arena_planner_kind kind;
    /* Fills plan->offsets (n entries), plan->arena and plan->buffers, and for
     * search planners plan->status, bound and nodes (the caller zeroes them
     * first). The problem has passed arena_problem_check(); opt is never
     * NULL; scratch has at least the bytes scratch_bytes() asked for,
     * suitably aligned for any type. arena_planner_run checks all of it
     * once; plan() asserts what it relies on and does not check again. */
    int (*plan)(const struct arena_problem *p, const struct arena_plan_options *opt,
                void *scratch, size_t scratch_size, struct arena_plan *plan);
    /* Optional (NULL = needs none): working bytes plan() needs for p,
     * exactly the bytes it carves (one layout function, planners/layout.h,
     * both counts and carves). */
    int (*scratch_bytes)(const struct arena_problem *p, size_t *bytes);
};

/* Working memory the planner needs for p, in bytes (0 if it needs none). */
int arena_planner_scratch(const struct arena_planner *pl, const struct arena_problem *p,
                          size_t *bytes);

/* Clears the plan's results (arena, buffers, status, bound, nodes) before a
 * call of pl->plan; arena_planner_run does it, and so must a caller that
 * calls the table directly (bench's timed loop). */
void arena_plan_reset(struct arena_plan *plan);

/* Checks the problem and the plan's capacity, then plans. opt NULL means
 * arena_plan_options_default. ARENA_ENOMEM when scratch_size is below what
 * arena_planner_scratch() reports. */
int arena_planner_run(const struct arena_planner *pl, const struct arena_problem *p,
                      const struct arena_plan_options *opt, void *scratch, size_t scratch_size,
                      struct arena_plan *plan);

/* The registry, in a fixed order (the order of tables and charts). */
size_t arena_planner_count(void);
const struct arena_planner *arena_planner_at(size_t i); /* NULL past the end */
const struct arena_planner *arena_planner_find(const char *name); /* NULL if none */

#endif
