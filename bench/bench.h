/* bench.h — the whole `bench` command as a library call, so that tests can
 * run it in-process (main.c only calls arena_bench_main), and its planning
 * commands once their command line is parsed (args.h). */
#ifndef ARENA_BENCH_H
#define ARENA_BENCH_H

#include "bench/core/args.h"
#include "bench/export/export_plan.h" /* arena_bench_export */
#include "bench/replay/replay.h"      /* arena_bench_replay */

/* Runs bench with argv (argv[0] is the program name; argv[1] may name a
 * command, subcommands.c) and returns its exit status: 0 every plan valid, 1 some plan invalid, 2 usage, input, output or
 * database error or nothing measured, 128 + signal number when SIGINT or
 * SIGTERM stopped the run. While it runs, SIGINT and SIGTERM stop it once
 * the planner call in progress returns (a search planner sees the signal
 * through its options' stop flag and returns soon), or at once while it
 * waits for another process's database lock (a second one exits the
 * process at once); the previous handlers come back when it returns. Writes the results to
 * stdout, messages (one line each) to stderr. */
int arena_bench_main(int argc, char **argv);

/* The measuring and storing half of arena_bench_main, after the command line
 * is parsed: loads a->graphs, times every table in a->planners (whatever
 * tables the caller puts there, registered or not; the CLI puts the ones it
 * found in the registry) on every graph, validates, prints and stores each
 * result. argc/argv only go into the runs row as its command line. a is
 * borrowed, not freed. Same exit statuses and signal handling as
 * arena_bench_main; a->command, a->help and a->version are ignored. */
int arena_bench_run(const struct arena_bench_args *a, int argc, char **argv);

/* The other planning commands the same way: `bench list` (list.c); `bench
 * export` and `bench replay` are declared by their folders' headers
 * (export/export_plan.h, replay/replay.h), included above. */
int arena_bench_list(const struct arena_bench_args *a);

#endif
