/* filters.h — the options bench stats and bench plot share: the database
 * (--db) and what picks and groups results (results/select.h): --graph,
 * --family, --suite, --tag, the configuration fields --inplace, --order,
 * --patch, --alignment, and --group-by. Each is a row here, once, for both
 * commands (options.h); a list is ';'-separated (specs hold ','), and a
 * repeated option adds to it. */
#ifndef ARENA_BENCH_FILTERS_H
#define ARENA_BENCH_FILTERS_H

#include <stddef.h>

#include "bench/core/options.h"
#include "results/select.h"

#define ARENA_FILTER_MAX 64

struct arena_bench_filters {
    const char *db;          /* --db */
    struct arena_select sel; /* what the readers get */
    char *graphs[ARENA_FILTER_MAX], *families[ARENA_FILTER_MAX], *tags[ARENA_FILTER_MAX];
    struct arena_suite_items suites[ARENA_FILTER_MAX];
    struct arena_suite_items *every; /* every suite bench knows, for --group-by
                                        suite without --suite */
    size_t n_every;
    char patch[48];
    int group_by_given;
};

/* The rows, each going with stats and plot (ARENA_IN_STATS, ARENA_IN_PLOT). */
extern const struct arena_opt arena_bench_filter_options[];
extern const size_t arena_bench_filter_option_count;

/* Reads the command line of stats or plot (argv[0] its command word): its
 * own rows (into base) and these (into f, which starts zeroed), then
 * arena_bench_filters_finish. ARENA_OK, ARENA_OPT_HELP after --help, or an
 * error with one line in err. */
int arena_bench_filters_parse(int argc, char **argv, const struct arena_opt *rows, size_t n,
                              void *base, unsigned mask, struct arena_bench_filters *f, char *err,
                              size_t errlen);

/* After the last option: --group-by suite without --suite groups into every
 * suite bench knows; --suite without --group-by groups by suite (one panel,
 * one table group per suite). ARENA_OK or ARENA_ENOMEM. */
int arena_bench_filters_finish(struct arena_bench_filters *f, char *err, size_t errlen);
void arena_bench_filters_free(struct arena_bench_filters *f);

#endif
