/* cmd.h — planners that are external programs: `--planner
 * cmd:NAME=COMMAND` (docs/extending.md, "A planner as a program").
 *
 * The protocol, one process per problem:
 *  - bench writes the problem planned as a MiniMalloc CSV file, as `bench
 *    export problem` writes it: a header `id,lower,upper,size`, then one
 *    line per tensor, id = its index 0 .. n-1, lower = its first step,
 *    upper = its last step + 1 (half-open), size in bytes, already rounded
 *    up to the alignment;
 *  - and runs `/bin/sh -c 'COMMAND "$@"' NAME PROBLEM.csv ALIGNMENT
 *    CAPACITY`: the command with three arguments appended (also "$1",
 *    "$2", "$3" in it), the file's path, the alignment in bytes (every
 *    offset must be a multiple of it) and the capacity in bytes (bench
 *    --capacity; 0: minimise the arena; above 0, a plan above it is an
 *    invalid result: a program that finds none exits non-zero). Its
 *    environment also holds ARENA_TIME_LIMIT (seconds, bench --time-limit),
 *    ARENA_SEED (bench --seed), ARENA_PLANNER_SPEC (its canonical spec,
 *    "NAME" or "NAME:k=v,...", keys in name order) and, for each key of
 *    `cmd:NAME:k=v,...=COMMAND`, ARENA_KEY_<K>=v, K the key's name in
 *    capitals (ARENA_KEY_BEAM=8). Its stdin is empty; it runs in a process
 *    group of its own;
 *  - the program writes one `id,offset` line per tensor on stdout (a first
 *    line `id,offset` is a header; blank lines and lines starting with '#'
 *    are skipped), and may write `plan_ns=N` on stderr: the time it spent
 *    planning by its own clock, stored beside bench's figure (the last such
 *    line in the last 64 KiB of stderr counts).
 * bench's figure is the wall time of the program's process group, from its
 * start to its exit with its output closed: process start-up included (the
 * overhead is measured in docs/extending.md). Past the time limit the group
 * is killed. A run that exits non-zero, is killed by a signal, writes
 * something that is not an id,offset line, names a tensor that is not in
 * the problem or one twice, or leaves one out gives no plan and one line
 * saying why; its plan, when it gives one, is checked by bench's validator
 * like any other (misaligned or overlapping offsets name the tensors).
 * Internal to bench/. */
#ifndef ARENA_BENCH_CMD_H
#define ARENA_BENCH_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "planners/planner.h"

struct arena_cmd_timing {
    double wall_ns;   /* the process group's wall time */
    int has_self_ns;  /* the program wrote plan_ns=N */
    uint64_t self_ns; /* N */
};

/* Writes p to path as above (the caller's temporary file). ARENA_OK or
 * ARENA_EIO with one line in err. */
int arena_cmd_write_problem(const struct arena_problem *p, const char *path, char *err,
                            size_t errlen);

/* Seconds a program gets past --time-limit before its process group is
 * killed: its start (an interpreter's, about 0.6 s for Python on a busy
 * 2-core machine) is not planning time. ARENA_TIME_LIMIT still hands it
 * --time-limit itself, the budget of its search. */
#define ARENA_CMD_STARTUP_S 3.0

/* Runs the command for the problem in csv_path (p's, written by
 * arena_cmd_write_problem) with opt's capacity, seed, time limit and stop
 * flag, spec its canonical planner spec (NAME, its $0, and its keys).
 * ARENA_OK with plan->offsets and plan->arena filled (buffers 0, status
 * feasible; not yet validated) and *t; ARENA_ENOTFOUND when the
 * stop flag ended it; else ARENA_EINVAL (the program failed, see above) or
 * ARENA_EIO / ARENA_ENOMEM (bench could not run it), with one line in why. */
int arena_cmd_plan(const char *spec, const char *command, const char *csv_path,
                   const struct arena_problem *p, const struct arena_plan_options *opt,
                   struct arena_plan *plan, struct arena_cmd_timing *t, char *why,
                   size_t whylen);

/* Reads the program's stdout (text, NUL-terminated) into plan->offsets and
 * plan->arena: every tensor of p exactly once, each offset at most 2^63-1.
 * ARENA_OK, or ARENA_EFORMAT with one line in why ("stdout line 3: ...",
 * "tensor 7 has no offset ..."). */
int arena_cmd_read_offsets(const char *text, const struct arena_problem *p,
                           struct arena_plan *plan, char *why, size_t whylen);

#endif
