/* isolate.h — a plugin's calls in a forked child (the default for
 * plugins; --in-process calls them in bench's own process).
 *
 * A plugin is code bench did not build: it may crash, exit, hang, print,
 * or write to what it is handed. Each plugin job runs in a child forked for
 * it, in a process group of its own, its stdout pointed at bench's stderr
 * (what a plugin prints never lands among the results on stdout). The
 * child asks the planner for its scratch bytes, maps them (guarded,
 * guest.h), makes the first call on its own copy of the problem and
 * options, checks what the planner wrote (arena_guest_check) and sends the
 * status, the verdict and the plan back through a pipe; then, unless the
 * planner is timed by one call (a search planner), it times further calls
 * the way Google Benchmark does in process (each repetition as many calls
 * as reach the minimum time, the count grown from 1 by Google Benchmark's
 * rule), checks again and sends those figures: the timing is the child's
 * own ("isolated" in the database). The parent waits for each message at
 * most a deadline: the time limit for the first call, and for the timing
 * calls the time limit plus what the repetitions need at the first call's
 * pace. A child that dies (a signal, an exit), misses a deadline (then it
 * is killed, SIGKILL), writes to its inputs or sends a malformed answer
 * gives no plan and one line saying why; the run goes on.
 *
 * Whatever the child started ends with it: its process group is killed once
 * it has ended, and on Linux bench is the subreaper of the call's
 * processes, so those that left the group (setsid) and outlived their
 * parent become bench's children and are killed too. The child dies with
 * bench (PR_SET_PDEATHSIG).
 *
 * The child calls nothing that allocates (the parent's other threads may
 * hold malloc's lock when it forks): the problem, options and offsets are
 * the parent's copies (guest.h), copied again by fork, and the scratch is
 * mapped. Internal to bench/. */
#ifndef ARENA_BENCH_ISOLATE_H
#define ARENA_BENCH_ISOLATE_H

#include <stddef.h>
#include <stdint.h>

#include "bench/external/guest.h"
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

/* What the child answered. */
struct arena_isolate_answer {
    int scratch_rc;      /* scratch_bytes()'s status: when not ARENA_OK (a
                            refusal, or no memory), nothing was planned */
    size_t scratch_size; /* the bytes it asked for */
    int plan_rc;         /* plan()'s status */
    struct arena_isolate_timing t; /* the timing, when plan_rc is ARENA_OK */
};

/* Calls pl on g's copies as above; p and opt are bench's own, which the
 * copies are checked against (opt's stop flag is also the signal's, which
 * kills the child). plan->n is p->n and plan->offsets g->offsets. ARENA_OK
 * when the child answered: *a says how (with plan_rc ARENA_OK the plan's
 * fields are filled). Otherwise ARENA_EINVAL (the child crashed, exited,
 * missed a deadline, wrote to its inputs, sent a malformed answer),
 * ARENA_EIO (no pipe or no fork) or ARENA_ENOTFOUND (opt->stop was set:
 * the child is killed), with one line in why. */
int arena_isolate_plan(const struct arena_planner *pl, struct arena_guest *g,
                       const struct arena_problem *p, const struct arena_plan_options *opt,
                       struct arena_plan *plan, const struct arena_isolate_spec *spec,
                       struct arena_isolate_answer *a, char *why, size_t whylen);

#endif
