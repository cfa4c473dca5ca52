/* isolate.h — a planner's calls in a forked child (bench --isolate).
 *
 * A plugin is code bench did not build: it may crash or never return. With
 * --isolate each plugin job runs in a child forked for it. The child makes
 * the first call and sends its status and plan back through a pipe; then,
 * unless the planner is timed by one call (a search planner), it times
 * further calls the way Google Benchmark does in process (each repetition
 * as many calls as reach the minimum time, the count grown from 1 by
 * Google Benchmark's rule) and sends those figures: the timing is the
 * child's own ("isolated" in the database). The parent waits for each
 * message at most a deadline: the time limit for the first call, and for
 * the timing calls the time limit plus what the repetitions need at the
 * first call's pace. A child that dies (a signal, an exit) or misses a
 * deadline (then it is killed, SIGKILL) gives no plan and one line saying
 * why; the run goes on.
 *
 * The child calls nothing that allocates (the parent's other threads may
 * hold malloc's lock when it forks): plan and scratch are the parent's
 * buffers, copied by fork. Internal to bench/. */
#ifndef ARENA_BENCH_ISOLATE_H
#define ARENA_BENCH_ISOLATE_H

#include <stddef.h>
#include <stdint.h>

#include "planners/planner.h"

struct arena_isolate_spec {
    int repetitions;   /* 1 .. ARENA_ISOLATE_MAX_REPS */
    double min_time;   /* seconds each repetition's calls take at least */
    int once;          /* time the first call alone (a search planner) */
    double time_limit; /* seconds for the first call; 0: none */
};
#define ARENA_ISOLATE_MAX_REPS 1000

/* The child's figures, as struct arena_gbench_stats holds Google
 * Benchmark's: per-call wall time in ns over the repetitions (median, mean,
 * sample stddev, NaN with one repetition), the timed calls summed. */
struct arena_isolate_timing {
    uint32_t repetitions;
    uint64_t iterations;
    double median_ns, mean_ns, stddev_ns;
};

/* Calls pl->plan on p in a forked child as above. plan->n and offsets are
 * set, scratch holds what pl needs (checked by the caller). ARENA_OK when
 * the child answered: *plan_rc is plan()'s status, and when that is
 * ARENA_OK the plan's fields are filled and *t holds the timing. Otherwise
 * ARENA_EINVAL (the child crashed, exited, missed a deadline, sent a
 * malformed answer), ARENA_EIO (no pipe or no fork) or ARENA_ENOTFOUND
 * (opt->stop was set: the child is killed), with one line in why. */
int arena_isolate_plan(const struct arena_planner *pl, const struct arena_problem *p,
                       const struct arena_plan_options *opt, void *scratch, size_t scratch_size,
                       struct arena_plan *plan, const struct arena_isolate_spec *spec,
                       int *plan_rc, struct arena_isolate_timing *t, char *why, size_t whylen);

#endif
