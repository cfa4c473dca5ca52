/* suites.h — named lists of graph specs that --graph accepts as one item. */
#ifndef ARENA_BENCH_SUITES_H
#define ARENA_BENCH_SUITES_H

#include <stddef.h>

/* The specs of suite `name` ("all", "scaling", "exact", "exact-slack" or
 * "models") and
 * their count in *n, or NULL when name is not a suite. "models" is the
 * TensorFlow Lite models of scripts/fetch-models present in models/ (all four
 * paths when none is); "all" ends with the models present. The list stays
 * valid until the next call. */
const char *const *arena_bench_suite(const char *name, size_t *n);

/* Problems with at least this many tensors get fewer repetitions by default
 * (the scaling suite's 10^5 and 10^6 points). */
#define ARENA_BENCH_LARGE_N 100000u
#define ARENA_BENCH_LARGE_REPETITIONS 3

#endif
