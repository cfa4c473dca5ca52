/* call.h — the three ways bench calls a planner, as one table of
 * operations each, chosen once per planner (arena_call_choose), so that the
 * run (bench/bench.c) drives every planner the same way:
 *
 *   prepare  outside the timing: the planner's own copies (guest.h), and
 *            what its way needs (its scratch, a problem file);
 *   plan     the timed region, once per Google Benchmark iteration;
 *   collect  after the calls: what the planner wrote of its inputs, and the
 *            figures of its timing;
 *   release  what prepare made.
 *
 * The ways:
 *  - in process (call_local.c): built-in planners, and plugins under
 *    --in-process; bench asks for the scratch once, Google Benchmark times
 *    the calls, and collect checks the copies (arena_guest_check);
 *  - isolated (call_child.c): a plugin's calls in a forked child that asks
 *    for its scratch, checks its copies and times its calls itself
 *    (isolate.h): one call of Google Benchmark's, the child's figures;
 *  - program (call_program.c): a cmd: planner, one process per problem
 *    (cmd.h), timed by its process group's wall time.
 * Callers go through the arena_call_* functions, never the table itself.
 * Internal to bench/. */
#ifndef ARENA_BENCH_CALL_H
#define ARENA_BENCH_CALL_H

#include <stddef.h>
#include <stdint.h>

#include "bench/external/cmd.h"
#include "bench/external/guest.h"
#include "bench/external/isolate.h"
#include "bench/external/plugin.h"
#include "planners/planner.h"

/* What every call of a run shares. */
struct arena_call_env {
    int repetitions;   /* Google Benchmark's repetitions, min time per */
    double min_time;   /* repetition: an isolated child times the same way */
    double time_limit; /* the run's --time-limit (s; 0: none) */
    char *tmpdir;      /* programs' problem files: made when first needed,
                          removed by arena_call_env_end */
};
void arena_call_env_end(struct arena_call_env *env);

/* The figures of a planner's timing, as Google Benchmark's stats hold them:
 * per-call wall time in ns over the repetitions (NaN: none), and a
 * program's own figure. */
struct arena_call_figures {
    uint32_t repetitions;
    uint64_t iterations;
    double median_ns, mean_ns, stddev_ns;
    int has_self_ns;
    uint64_t self_ns;
};

struct arena_call;

struct arena_call_ops {
    const char *timing; /* how it is timed, results.timing: "in-process",
                           "isolated" (a forked child), "process" */
    int times_itself;   /* one call of Google Benchmark's: the child or the
                           program times, collect gives its figures */
    int one_call;       /* its figure is one call by design (a program),
                           whatever the planner's kind */
    int handed_options; /* it is handed every option (a program, cmd.h): they
                           are part of its result, and its answer claims to
                           fit the capacity, as a search planner's does */
    int in_bench;       /* the planner's code runs in bench's own process */
    /* Optional: after arena_call_prepare made the copies, ARENA_OK, or why
     * not with a line in c->why (or ARENA_ETOOBIG: the planner refused). */
    int (*prepare)(struct arena_call *c, const struct arena_problem *p,
                   struct arena_call_env *env, size_t seq);
    /* One call: 0 to go on, 1 to stop the timing (a failure in process, a
     * signal); sets c->rc, and c->call_rc and c->why when it did not answer. */
    int (*plan)(struct arena_call *c, const struct arena_problem *p,
                const struct arena_call_env *env);
    /* After the calls: the figures (f holds Google Benchmark's on entry);
     * 1 with *fault when the planner wrote to its inputs in bench's process. */
    int (*collect)(struct arena_call *c, const struct arena_problem *p,
                   struct arena_call_figures *f, struct arena_guest_fault *fault);
    void (*release)(struct arena_call *c); /* optional, before the copies go */
};

/* One planner's calls on one problem. */
struct arena_call {
    const struct arena_call_ops *ops;
    const struct arena_planner *pl;
    const struct arena_planner_origin *origin;
    const struct arena_plan_options *opt; /* bench's: the run's options with the
                                             planner's key values */
    struct arena_guest guest; /* its own problem, options, scratch, offsets */
    size_t scratch_size;      /* what it asked for */
    struct arena_plan plan;   /* of the problem it plans; offsets the guest's */
    int prepared;
    int prep_rc;       /* preparing: ARENA_OK, else why not (ARENA_ETOOBIG: refused) */
    int rc;            /* the planner's status */
    int call_rc;       /* ARENA_OK, or the child or program did not answer */
    char why[500];     /* why preparing failed, or why it did not answer */
    char *csv;                          /* program: the problem's file */
    struct arena_isolate_answer child;  /* isolated: what the child answered */
    struct arena_cmd_timing program;    /* program: its wall time and own figure */
};

/* The three ways (call_local.c, call_child.c, call_program.c). */
extern const struct arena_call_ops arena_call_local, arena_call_child, arena_call_program;

/* The way of calling a planner of this origin: a program for cmd:, a forked
 * child for a plugin unless in_process, else in process. */
const struct arena_call_ops *arena_call_choose(const struct arena_planner_origin *origin,
                                               int in_process);

/* Makes c's copies of p and *c->opt (once: later calls return the first
 * status), then what its way needs. c->ops, pl, origin and opt are set. */
int arena_call_prepare(struct arena_call *c, const struct arena_problem *p,
                       struct arena_call_env *env, size_t seq);

/* The timed call: 0 to go on, 1 to stop. */
static inline int arena_call_plan(struct arena_call *c, const struct arena_problem *p,
                                  const struct arena_call_env *env)
{
    arena_plan_reset(&c->plan);
    return c->ops->plan(c, p, env);
}

/* After the calls; see collect above. */
int arena_call_collect(struct arena_call *c, const struct arena_problem *p,
                       struct arena_call_figures *f, struct arena_guest_fault *fault);

/* Frees what prepare made (also after a failed or no prepare). */
void arena_call_release(struct arena_call *c);

#endif
