/* bench.h — the whole `bench` command as a library call, so that tests can
 * run it in-process (main.c only calls this). */
#ifndef ARENA_BENCH_H
#define ARENA_BENCH_H

/* Runs bench with argv (argv[0] is the program name) and returns its exit
 * status: 0 every plan valid, 1 some plan invalid, 2 usage, input or database
 * error, 128 + signal number when SIGINT or SIGTERM stopped the run. While
 * it runs, SIGINT and SIGTERM stop it once the planner call in progress returns (a
 * second one exits the process at once); the previous handlers come back
 * when it returns. Writes the results to stdout, messages to stderr. */
int arena_bench_main(int argc, char **argv);

#endif
