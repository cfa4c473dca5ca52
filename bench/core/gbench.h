/* gbench.h — Google Benchmark behind a C API: register benchmarks that call a
 * C function, run them with Google Benchmark's own command-line flags, and
 * get each benchmark's aggregates back through a callback.
 *
 * The timed region is exactly one call of `iter` per iteration; `setup` runs
 * before the timing loop starts (every time Google Benchmark enters the
 * benchmark: while it estimates the iteration count and once per
 * repetition), so preparation belongs there and never in `iter`.
 * Times are wall-clock nanoseconds per iteration. Not thread-safe: one
 * registration list per process. */
#ifndef ARENA_GBENCH_H
#define ARENA_GBENCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct arena_gbench_stats {
    int measured;        /* 0: never reported (filtered out, or the run stopped) */
    int error;           /* nonzero: setup or iter asked to stop (see message) */
    char message[160];   /* Google Benchmark's error text when error is set */
    uint32_t repetitions; /* repetitions reported without error */
    uint64_t iterations; /* timed calls, summed over those repetitions */
    /* Per-iteration times over the repetitions, in ns. With one repetition,
     * median = mean = its time and stddev is NaN (undefined). */
    double median_ns, mean_ns, stddev_ns;
};

/* Returns 0 to go on; nonzero marks the benchmark as failed and stops it. */
typedef int (*arena_gbench_step_fn)(void *ctx);
/* Called exactly once per registered benchmark: after its last repetition
 * was reported, or at the end of arena_gbench_run() when it never ran. */
typedef void (*arena_gbench_done_fn)(void *ctx, const struct arena_gbench_stats *stats);

struct arena_gbench_spec {
    const char *name;            /* unique; copied */
    arena_gbench_step_fn setup;  /* optional */
    arena_gbench_step_fn iter;   /* required: the timed call */
    arena_gbench_done_fn done;   /* optional */
    void *ctx;
    uint64_t iterations;         /* 0: Google Benchmark picks (min time) */
    int repetitions;             /* 0: --benchmark_repetitions decides */
};

/* Parses Google Benchmark's flags from argv (argv[0] is a program name; all
 * others must be Google Benchmark flags, e.g. --benchmark_repetitions=5).
 * Later flags override earlier ones. -1 with a line in err when one is not
 * recognised. Call before arena_gbench_run(). Google Benchmark keeps flags
 * in globals: a flag set by an earlier call stays set in this process. */
int arena_gbench_init(int argc, char **argv, char *err, size_t errlen);

/* -1 when the name is empty or taken, or iter is NULL; else 0. */
int arena_gbench_register(const struct arena_gbench_spec *spec);

/* Runs every registered benchmark in registration order (honouring
 * --benchmark_filter, --benchmark_out etc.), calling each `done` as results
 * arrive. Returns the number of benchmarks that matched the filter, or -1
 * when Google Benchmark could not start (err says why). */
int arena_gbench_run(char *err, size_t errlen);

/* Forgets every registration. */
void arena_gbench_clear(void);

#ifdef __cplusplus
}
#endif

#endif
