/* filters.h — the options bench stats and bench plot share to pick and
 * group results (results/select.h): --graph, --family, --suite, --tag,
 * the configuration fields --inplace, --order, --patch, --alignment, and
 * --group-by. Each is parsed here once, for both commands; a list is
 * ';'-separated (specs hold ','), and a repeated option adds to it. */
#ifndef ARENA_BENCH_FILTERS_H
#define ARENA_BENCH_FILTERS_H

#include <stddef.h>

#include "results/select.h"

#define ARENA_FILTER_MAX 64

struct arena_bench_filters {
    struct arena_select sel; /* what the readers get */
    char *graphs[ARENA_FILTER_MAX], *families[ARENA_FILTER_MAX], *tags[ARENA_FILTER_MAX];
    struct arena_suite_items suites[ARENA_FILTER_MAX];
    struct arena_suite_items *every; /* every suite bench knows, for --group-by
                                        suite without --suite */
    size_t n_every;
    char patch[48];
    int group_by_given;
};

/* The lines of --help that describe them. */
extern const char arena_bench_filters_help[];

/* Takes option name with value into f: 1 when it is one of these options,
 * 0 when not, or a negative status with one line in err for a bad value
 * (an unknown rule, order, grouping or suite, a malformed patch or
 * alignment). f starts zeroed. */
int arena_bench_filters_option(struct arena_bench_filters *f, const char *name,
                               const char *value, char *err, size_t errlen);
/* After the last option: --group-by suite without --suite groups into every
 * suite bench knows; --suite without --group-by groups by suite (one panel,
 * one table group per suite). ARENA_OK or ARENA_ENOMEM. */
int arena_bench_filters_finish(struct arena_bench_filters *f, char *err, size_t errlen);
void arena_bench_filters_free(struct arena_bench_filters *f);

#endif
