/* output.h — how results reach stdout: one ops table per format (table,
 * csv, json), each a file of its own, found by name in one registry
 * (outputs.c). Adding a format is its file plus one line in outputs.c and
 * one in meson.build.
 *
 * bench calls begin once, graph before a graph's first row, row per
 * planner x graph, end once (also after an interrupt, so a JSON array is
 * always closed). A format that keeps state between calls says how many
 * bytes it needs (state_size); bench hands every call the same zeroed
 * block, so no format keeps a file-level static. Formats only write: bench
 * checks every write (a full disk, a closed stdout) in one place. */
#ifndef ARENA_BENCH_OUTPUT_H
#define ARENA_BENCH_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "graphs/source.h"
#include "planners/problem.h"
#include "results/result.h"

/* A timing that deserves suspicion: stddev / mean above this, or a single
 * timed call, is flagged in every output and in the database. */
#define ARENA_NOISY_SPREAD 0.10

/* arena / bound - 1; NaN when there is no valid plan or no bound. */
double arena_result_gap(const struct arena_result *r);
/* A plugin's path or a program's command; NULL for a built-in planner. */
const char *arena_result_origin_detail(const struct arena_result *r);

struct arena_output {
    const char *name;  /* as --format takes it */
    size_t state_size; /* bytes of state kept between calls; 0: none */
    int errors_inline; /* rows show an invalid plan's message where a person
                          reads them; else bench says it on stderr */
    /* begin, graph and end are optional (NULL: nothing to write). */
    void (*begin)(FILE *out, void *state);
    void (*graph)(FILE *out, void *state, const struct arena_source *src,
                  const struct arena_bounds *b);
    void (*row)(FILE *out, void *state, const struct arena_result *r);
    void (*end)(FILE *out, void *state);
};

/* The registry, in --help order; the first is the default. */
size_t arena_output_count(void);
const struct arena_output *arena_output_at(size_t i);     /* NULL past the end */
const struct arena_output *arena_output_find(const char *name); /* NULL if none */

/* The CSV header, exactly (scripts rely on it; columns are only appended).
 * inplace, order and patch are the configuration (graphs/transforms.h);
 * lower_bound and ratio_lb are the planned problem's (under an in-place
 * rule, ratio_lb is against inplace_bound); ratio_fixed = arena /
 * fixed_lower_bound, the bound of the graph untransformed (stored order,
 * no rule, no patch): below 1 where the transformations pay. origin is
 * built-in, plugin or cmd, origin_detail the plugin's path or the command,
 * timing in-process, isolated or process, self_ns a program's own time
 * (bench/external/plugin.h, bench/external/cmd.h); claimed_status and claimed_bound a
 * plugin's claim beyond what bench proved (bench/core/claims.h), else empty;
 * kernel_scratch the --scratch rule, scratch_policy its --scratch-policy,
 * device_arena the arena TFLM allocates for the plan (empty when not
 * computed), head_bytes TFLM's persistent records and whole_arena all it
 * needs (empty without a scratch rule or a graph). planner is the
 * planner's name, with the keys whose values differ among the run's
 * planners of that name ("hill-climb, seed=3") after a sweep over its keys;
 * the whole spec is the database's (results.planner_spec) and the JSON's. */
#define ARENA_CSV_HEADER                                                                       \
    "graph,planner,tensors,naive_bytes,lower_bound,arena_bytes,ratio_lb,saving,frag_peak,"      \
    "frag_mean,plan_ns_median,plan_ns_mean,plan_ns_stddev,scratch_bytes,valid,noisy,"           \
    "timed_once,status,bound,gap,nodes,inplace,inplace_bound,order,order_bound,order_status,"   \
    "patch,fixed_lower_bound,ratio_fixed,origin,origin_detail,plugin_sha256,timing,self_ns,"    \
    "claimed_status,claimed_bound,kernel_scratch,scratch_policy,device_arena,head_bytes,"       \
    "whole_arena"

/* Shared formatting: "1,505,280" and "1.44 MiB" (KiB = 1024 B). */
void arena_fmt_grouped(uint64_t v, char *buf, size_t len);
void arena_fmt_bytes(uint64_t v, char *buf, size_t len);
/* "812 ns", "12.3 us", "4.56 ms", "1.23 s"; "-" for NaN. */
void arena_fmt_ns(double ns, char *buf, size_t len);

#endif
