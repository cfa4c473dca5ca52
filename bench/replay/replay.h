/* replay.h — real allocators replaying a problem (bench --replay), and the
 * table of the article this project began from, measured (bench
 * --founding-table).
 *
 * Each allocator runs in a program of its own (bench/replay/replay_prog.h), which
 * bench starts with posix_spawn and feeds the problem on standard input; the
 * program's figures come back on its standard output. Programs are looked
 * for in $ARENA_REPLAY_DIR when set, else beside the running bench. */
#ifndef ARENA_BENCH_REPLAY_H
#define ARENA_BENCH_REPLAY_H

#include <stdint.h>
#include <stdio.h>

#include "bench/core/allocators.h"
#include "graphs/source.h"
#include "planners/problem.h"
#include "results/store.h"

struct arena_bench_args; /* bench/core/args.h */

/* What one replay program reported. */
struct arena_replay_result {
    char allocator[32], version[128], footprint_source[64];
    uint64_t tensors, frames, calls_per_frame, live_peak, baseline, resident_baseline;
    double ns_per_call;
    struct arena_replay_frame *frame; /* frames entries, malloc'd */
};
void arena_replay_result_free(struct arena_replay_result *r);

/* Runs allocator `name`'s program on p for frames frames and parses what it
 * prints. Errors (program missing or failing, output malformed, calls not
 * the same in every frame) come back as one line in err. opt (NULL: no
 * limits) bounds the program: it is killed, with everything it started (its
 * process group), within about 100 ms of a non-zero *opt->stop or of
 * opt->time_limit seconds (0: none) since it started, and the run fails
 * with a line saying which; nothing is left running either way. */
int arena_replay_run(const char *name, const struct arena_problem *p, uint64_t frames,
                     const struct arena_plan_options *opt, struct arena_replay_result *out,
                     char *err, size_t errlen);

/* One graph's replays for bench: runs every allocator in mask (each
 * program bounded by opt as arena_replay_run says), checks the figures
 * against the problem's bounds (calls = 2 x tensors, live peak = lower
 * bound), stores each in store (when not NULL) and prints a table to out
 * (when not NULL). Returns bench's exit status (0, or 2 with a message on
 * stderr; 2 without one when *opt->stop ended it: the caller says so). */
int arena_replay_graph(const struct arena_source *src, const struct arena_bounds *bounds,
                       unsigned mask, uint64_t frames, const struct arena_plan_options *opt,
                       struct arena_store *store, int64_t run_id, int64_t graph_id, FILE *out);

/* The table of the article this project began from, for one graph
 * (docs/runtime.md): rows no reuse, malloc per tensor (each real
 * allocator in mask, and the online policies), ping-pong, the best static
 * plan and `optimal`'s own row; columns peak bytes, calls per frame,
 * fragmentation, with the article's claimed figures beside. With
 * with_sibling, a MobileNetV2 graph's other fusion (fused=1 <-> fused=0)
 * follows it. Replays are stored like --replay's,
 * and every planner's plan (validated, metrics, claims settled) as an
 * ordinary result of the same run: untimed (times NULL), with placements.
 * opt bounds the replays as for arena_replay_graph and is every planner's
 * options (a search planner stops at opt->time_limit with its best plan).
 * Returns bench's exit status, as arena_replay_graph's. */
int arena_founding_table(const struct arena_source *src, const struct arena_bounds *bounds,
                         unsigned mask, uint64_t frames, int with_sibling,
                         const struct arena_plan_options *opt, struct arena_store *store,
                         int64_t run_id, int64_t graph_id, FILE *out);

/* `bench replay` (and --founding-table) once its command line is parsed
 * (replay_main.c), as arena_bench_run (bench/bench.h) for the run; the
 * same exit statuses. */
int arena_bench_replay(const struct arena_bench_args *a, int argc, char **argv);

#endif
