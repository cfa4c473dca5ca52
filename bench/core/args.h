/* args.h — the command line of bench's planning commands (run, list,
 * export, replay), parsed into one struct by the rows of one table
 * (args.c, read by options.c). Errors come back as one line naming the
 * option and what is wrong with its value. */
#ifndef ARENA_BENCH_ARGS_H
#define ARENA_BENCH_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "bench/core/options.h"
#include "bench/core/output.h"
#include "bench/external/plugin.h"
#include "bench/core/progress.h"
#include "graphs/exec_order.h"
#include "graphs/inplace.h"
#include "graphs/scratch.h"
#include "graphs/patch.h"
#include "planners/planner.h"

/* What the command line asks for: `bench [run]`, `bench list`, `bench
 * export`, `bench replay` (or their old spellings, --list, --export-*,
 * --replay, --founding-table, in a line without a command). */
enum arena_bench_command {
    ARENA_BENCH_RUN,
    ARENA_BENCH_LIST,
    ARENA_BENCH_EXPORT,
    ARENA_BENCH_REPLAY,
};

/* What every planning command takes, and all that session.c reads: the
 * first member of the command's args, so a row of the shared options
 * points at the same offset whichever command reads it. */
struct arena_bench_common {
    char **graphs;          /* --graph items in order, lists split, suites not yet expanded */
    size_t n_graphs;
    const struct arena_planner **planners; /* resolved, in order, no repeats, no two of
                                              one name */
    struct arena_planner_origin *origins;  /* n_planners: where each comes from
                                              (bench/external/plugin.h), owned */
    size_t n_planners;
    struct arena_plugin_lib *libs;         /* the shared objects loaded, closed by
                                              arena_bench_args_free */
    size_t n_libs;
    const char *db;         /* NULL with --no-db; points into argv or the default */
    uint64_t seed;          /* families' default seed and the planners' options.seed */
    struct arena_plan_options options; /* passed to every planner call; seed = seed */
    uint64_t alignment;
    enum arena_order_mode order; /* --order: stored (default) or best */
    uint64_t order_states;  /* --order-states: the search's budget; 0 default */
    enum arena_inplace_rule inplace; /* --inplace: which ops write over an input */
    enum arena_scratch_rule scratch; /* --scratch: the kernels' scratch buffers */
    enum arena_scratch_policy scratch_policy; /* --scratch-policy: where they go */
    int quiet, help, version;
    enum arena_progress_mode progress; /* --progress: auto (default), always, never */
    int pin_cpu;            /* --pin CPU: the measuring thread's CPU; -1 none */
    struct arena_patch_spec patch; /* --patch RxC:K; rows 0: none */
    const char *tag;        /* --tag: stored with the run (runs.tag); NULL: none */
    int no_db, db_given, planner_given; /* what the checks after the rows need */
};

struct arena_bench_args {
    struct arena_bench_common c; /* first: the shared rows' offsets hold */
    enum arena_bench_command command;
    const char *command_by; /* the old spelling that named it, or NULL */
    int isolate;            /* --isolate: plugins in a forked child (the default) */
    int in_process;         /* --in-process: plugins in bench's own process */
    const struct arena_output *format; /* from the output registry */
    int format_index;       /* --format: its place there, until the checks resolve it */
    int no_placements;
    const char *export_plan_dir; /* export plan: plans as .csv and C libraries there */
    const char *export_tflite_dir; /* export tflite: .tflite models with TFLM's offline plan */
    uint64_t head, tail;    /* --head, --tail: bytes around the activations */
    const char *export_dir; /* export problem: write each problem there, plan nothing */
    const char *list_only;  /* bench list planners: "planners"; NULL: the whole list */
    int repetitions, repetitions_set;
    double min_time;
    int min_time_set;
    unsigned replay;        /* replay --allocator: bit i = allocator i (bench/replay/replay.h) */
    uint64_t frames;        /* --frames: frames per replay */
    int founding_table;     /* replay --founding-table */
    unsigned shard_k, shard_n; /* --shard K/N: part K (1..N) of N; N 0: every job */
    int resume;             /* --resume: jobs the database holds are not redone */
    int missing;            /* --missing: list the jobs the database lacks, run none */
    char **gbench_flags;    /* --benchmark_* arguments, passed on verbatim */
    size_t n_gbench_flags;
};

/* The rows of bench's planning commands, each with the commands it goes
 * with (ARENA_IN_*, options.h): one table. */
extern const struct arena_opt arena_bench_options[];
extern const size_t arena_bench_option_count;

/* Fills *a from argv (argv[0] is the program) as `bench` without a command
 * word reads it: a run, or the command an old spelling names (--list,
 * --export-*, --replay, --founding-table), every row of the table taken.
 * ARENA_OK (with a->help set after --help), or ARENA_EINVAL with one line in
 * err (without a "bench: " prefix). *a must be freed with
 * arena_bench_args_free() either way. */
int arena_bench_args_parse(int argc, char **argv, struct arena_bench_args *a, char *err,
                           size_t errlen);

/* The same for `bench COMMAND ...`: argv[0] is the command word, and only
 * the rows that go with the command are taken (old spellings none). export
 * takes its kind and folder first: `bench export plan|tflite|problem DIR`. */
int arena_bench_args_parse_command(enum arena_bench_command cmd, int argc, char **argv,
                                   struct arena_bench_args *a, char *err, size_t errlen);
void arena_bench_args_free(struct arena_bench_args *a);

#endif
