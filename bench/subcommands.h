/* subcommands.h — bench's commands besides planning: `bench merge` joins
 * results databases (results/merge.h), `bench stats` summarises one
 * (results/stats.h). Each takes argv from its own name on and returns an
 * exit status: 0 done, 2 usage, input or database error. */
#ifndef ARENA_BENCH_SUBCOMMANDS_H
#define ARENA_BENCH_SUBCOMMANDS_H

int arena_bench_merge_main(int argc, char **argv);
int arena_bench_stats_main(int argc, char **argv);

/* The commands besides planning, one line each, for bench --help. */
const char *arena_bench_subcommands_usage(void);

#endif
