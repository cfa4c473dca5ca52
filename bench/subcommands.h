/* subcommands.h — bench's commands (run, list, export, replay, merge,
 * stats, plot, help): one table in subcommands.c, a row each with its name,
 * usage, summary, help text, option tables and entry point; bench's main
 * (arena_bench_main, bench.h) dispatches on it, and `bench` without a
 * command word runs, taking the old spellings (--list, --export-*,
 * --replay, --founding-table) as the commands they name. */
#ifndef ARENA_BENCH_SUBCOMMANDS_H
#define ARENA_BENCH_SUBCOMMANDS_H

#include <stdio.h>

#include "bench/core/options.h"

/* The entry points that live in files of their own, each taking argv from
 * its command word on and returning an exit status (0 done, 1 see the
 * command, 2 usage, input or database error) or ARENA_BENCH_HELP_ASKED;
 * plot's is in bench/plot/plot.h. */
int arena_bench_merge_main(int argc, char **argv);
int arena_bench_stats_main(int argc, char **argv);

/* bench stats' own rows (ARENA_IN_STATS; the selection's are filters.h's). */
extern const struct arena_opt arena_bench_stats_options[];
extern const size_t arena_bench_stats_option_count;

/* The help of a command ("" or NULL: bench's own, with the commands and
 * the old spellings), as `bench COMMAND --help` prints it. 0, or -1 when
 * there is no such command. */
int arena_bench_help(FILE *out, const char *command);

/* An option table as the Markdown table docs/ carries (`bench help
 * --markdown NAME`): commands (each command's usage and summary), planning
 * (the options of run, list, export, replay, with a column naming the
 * commands of each), old (the old spellings), stats, plot, selection (the
 * selection stats and plot share). 0, or -1 when there is no such table. */
int arena_bench_help_markdown(FILE *out, const char *table);

#endif
