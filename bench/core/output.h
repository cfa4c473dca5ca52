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

/* A timing that deserves suspicion: stddev / mean above this, or a single
 * timed call, is flagged in every output and in the database. */
#define ARENA_NOISY_SPREAD 0.10

struct arena_bench_row {
    const struct arena_source *src;
    const struct arena_bounds *bounds;
    const char *planner;
    int valid;
    int refused; /* not valid because the planner refused the problem by its
                    documented limit (ARENA_ETOOBIG): error starts "refused:" */
    const char *error;                   /* NULL when valid */
    const struct arena_metrics *metrics; /* NULL when not valid */
    double median_ns, mean_ns, stddev_ns; /* NaN when not measured */
    uint64_t iterations;
    uint32_t repetitions;
    uint64_t scratch_bytes;
    int noisy;      /* spread above ARENA_NOISY_SPREAD, or one timed call */
    int timed_once; /* a search planner: the wall time of one call */
    /* The plan's claims after arena_plan_settle (valid plans only). */
    enum arena_plan_status status;
    uint64_t bound; /* proven lower bound, >= the max-live bound */
    uint64_t nodes; /* search nodes spent, 0 for heuristics */
    /* Where the planner comes from (bench/external/plugin.h): "built-in", "plugin",
     * "cmd"; origin_detail the plugin's path or the command (NULL for a
     * built-in planner), plugin_sha256 the plugin's hash; how the time was
     * taken: "in-process", "isolated" (in a forked child), "process" (a
     * program's wall time); self_ns a program's own figure. */
    const char *origin, *origin_detail, *plugin_sha256, *timing;
    int has_self_ns;
    uint64_t self_ns;
    /* A guest's claims beyond what bench proved (bench/core/claims.h): the
     * status it gave ("optimal", ...) and its bound (0 none); NULL: none. */
    const char *claimed_status;
    uint64_t claimed_bound;
    /* The arena TFLM allocates for this plan shipped as an offline plan:
     * the tensors where the plan puts them, the kernels' scratch buffers
     * where TFLM's own planner puts them (planners/device.h); 0 when not
     * computed (no scratch rule, the tail policy, or no valid plan). */
    uint64_t device_arena;
    /* Under a scratch rule, for a graph (graphs/tflm_head.h): TFLM's
     * persistent records and the whole arena they make with the device
     * arena (else the plan's arena); 0 when not computed. */
    uint64_t head_bytes, whole_arena;
};

/* arena / bound - 1; NaN when there is no valid plan or no bound. */
double arena_bench_row_gap(const struct arena_bench_row *r);

struct arena_output {
    const char *name;  /* as --format takes it */
    size_t state_size; /* bytes of state kept between calls; 0: none */
    int errors_inline; /* rows show an invalid plan's message where a person
                          reads them; else bench says it on stderr */
    /* begin, graph and end are optional (NULL: nothing to write). */
    void (*begin)(FILE *out, void *state);
    void (*graph)(FILE *out, void *state, const struct arena_source *src,
                  const struct arena_bounds *b);
    void (*row)(FILE *out, void *state, const struct arena_bench_row *r);
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
 * needs (empty without a scratch rule or a graph). */
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
