/* args.h — bench's command line, parsed into one struct. Errors come back as
 * one line naming the option and what is wrong with its value. */
#ifndef ARENA_BENCH_ARGS_H
#define ARENA_BENCH_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "bench/output.h"
#include "bench/progress.h"
#include "graphs/exec_order.h"
#include "graphs/inplace.h"
#include "graphs/patch.h"
#include "planners/planner.h"

#define ARENA_BENCH_DB_DEFAULT "results/arenabench.sqlite"
#define ARENA_BENCH_SEED_DEFAULT 1
#define ARENA_BENCH_REPETITIONS_DEFAULT 5
#define ARENA_BENCH_MIN_TIME_DEFAULT 0.01 /* seconds per repetition */
#define ARENA_BENCH_TIME_LIMIT_DEFAULT 10.0 /* seconds per problem, search planners */

/* Every integer bench stores is an SQLite INTEGER, so the command line
 * refuses larger values (seeds, capacities, node limits) where they enter. */
#define ARENA_BENCH_INT_MAX ((uint64_t)INT64_MAX)

struct arena_bench_args {
    char **graphs;          /* --graph items in order, lists split, suites not yet expanded */
    size_t n_graphs;
    const struct arena_planner **planners; /* resolved, in order, no repeats */
    size_t n_planners;
    const struct arena_output *format; /* from the output registry */
    const char *db;         /* NULL with --no-db; points into argv or the default */
    int no_placements;
    const char *export_plan_dir; /* --export-plan: plans as .csv and C libraries there */
    const char *export_tflite_dir; /* --export-tflite: .tflite models with TFLM's offline plan */
    uint64_t head, tail;    /* --head, --tail: bytes around the activations */
    const char *export_dir; /* --export-csv: write each problem there, plan nothing */
    uint64_t seed;          /* families' default seed and the planners' options.seed */
    struct arena_plan_options options; /* passed to every planner call; seed = seed */
    uint64_t alignment;
    enum arena_order_mode order; /* --order: stored (default) or best */
    uint64_t order_states;  /* --order-states: the search's budget; 0 default */
    enum arena_inplace_rule inplace; /* --inplace: which ops write over an input */
    int repetitions, repetitions_set;
    double min_time;
    int min_time_set;
    int quiet, list, help, version;
    enum arena_progress_mode progress; /* --progress: auto (default), always, never */
    unsigned replay;        /* --replay: bit i = allocator i (bench/replay/replay.h); 0 none */
    uint64_t frames;        /* --frames: frames per replay */
    int founding_table;     /* --founding-table */
    unsigned shard_k, shard_n; /* --shard K/N: part K (1..N) of N; N 0: every job */
    int pin_cpu;            /* --pin CPU: the measuring thread's CPU; -1 none */
    struct arena_patch_spec patch; /* --patch RxC:K; rows 0: none */
    const char *tag;        /* --tag: stored with the run (runs.tag); NULL: none */
    char **gbench_flags;    /* --benchmark_* arguments, passed on verbatim */
    size_t n_gbench_flags;
};

/* Fills *a from argv (argv[0] is the program). ARENA_OK, or ARENA_EINVAL with
 * one line in err (without a "bench: " prefix). *a must be freed with
 * arena_bench_args_free() either way. */
int arena_bench_args_parse(int argc, char **argv, struct arena_bench_args *a, char *err,
                           size_t errlen);
void arena_bench_args_free(struct arena_bench_args *a);

/* The --help text. */
const char *arena_bench_usage(void);

#endif
