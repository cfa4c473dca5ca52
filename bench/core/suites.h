/* suites.h — named lists of graphs: what --graph NAME and --suite NAME run,
 * and what bench stats and plot select and group with --suite NAME. Each
 * suite is one row of one table (suites.c): its name, its summary and its
 * items are written there only. A suite can also be a user's file: one
 * --graph item a line (a spec, a sweep, a path; ';' and ',' split items as
 * --graph does), '#' starts a comment. */
#ifndef ARENA_BENCH_SUITES_H
#define ARENA_BENCH_SUITES_H

#include <stddef.h>

#include "results/select.h"

/* The specs of suite `name` and their count in *n, or NULL when name is
 * not a suite. "models" is the real models of scripts/fetch-models present
 * in models/ (all of them when none is, so `--graph models` names the
 * missing file rather than planning nothing); "all" ends with the models
 * present. The list stays valid until the next call. */
const char *const *arena_bench_suite(const char *name, size_t *n);

/* The suites in the table's order: name and one line of summary (NULL
 * past the end). */
size_t arena_bench_suite_count(void);
const char *arena_bench_suite_name(size_t i);
const char *arena_bench_suite_summary(size_t i);

/* A suite as a set of graphs for the readers (bench stats, bench plot):
 * a name from the table (every model listed, present or not), or a file
 * as above (its items, its path as its name). ARENA_OK; ARENA_ENOTFOUND
 * when text is neither, ARENA_EINVAL / ARENA_EIO for a bad file, one line
 * in err. Free with arena_bench_suite_items_free. */
int arena_bench_suite_items(const char *text, struct arena_suite_items *out, char *err,
                            size_t errlen);
void arena_bench_suite_items_free(struct arena_suite_items *s);

/* Splits one --graph value into items, appending to *items / *n (each
 * malloc'd). ';' always separates. ',' separates too, except where the text
 * after it is a key=value pair continuing the previous spec, i.e. it holds
 * an '=' before any ':' ("chain:n=8,width=2" is one item; "chain:n=8,unet"
 * and "mobilenetv2,data/net.csv" are two). ARENA_EINVAL with err for an
 * empty item; ARENA_ENOMEM. The first piece of each ;-part always starts
 * an item. */
int arena_bench_graph_split(const char *text, char ***items, size_t *n, char *err, size_t errlen);

/* Problems with at least this many tensors get fewer repetitions by default
 * (the scaling suite's 10^5 and 10^6 points). */
#define ARENA_BENCH_LARGE_N 100000u
#define ARENA_BENCH_LARGE_REPETITIONS 3

#endif
