/* subcommands.c — bench's commands besides planning, one line each for
 * bench --help. */
#include "bench/subcommands.h"

const char *arena_bench_subcommands_usage(void)
{
    return "\nOther commands (each has --help):\n"
           "  bench merge OUT.sqlite IN.sqlite...   join results databases (shards, machines)\n"
           "  bench stats [--db FILE] [--run ID|all] [--format csv] [selection]\n"
           "                                       arena / lower bound across graphs, with CIs\n"
           "  bench plot [--db FILE] [--run ID|all] [--out DIR]\n"
           "                                       figures (gnuplot) and tables for papers\n";
}

