/* output.h — how results reach stdout: one ops table per format
 * (table, csv, json), each a file of its own. bench calls begin once, graph
 * before a graph's first row, row per planner x graph, end once (also after
 * an interrupt, so a JSON array is always closed). */
#ifndef ARENA_BENCH_OUTPUT_H
#define ARENA_BENCH_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "graphs/source.h"
#include "planners/problem.h"

struct arena_bench_row {
    const struct arena_source *src;
    const struct arena_bounds *bounds;
    const char *planner;
    int valid;
    const char *error;                   /* NULL when valid */
    const struct arena_metrics *metrics; /* NULL when not valid */
    double median_ns, mean_ns, stddev_ns; /* NaN when not measured */
    uint64_t iterations;
    uint32_t repetitions;
    uint64_t scratch_bytes;
};

struct arena_output {
    const char *name;
    void (*begin)(FILE *out);
    void (*graph)(FILE *out, const struct arena_source *src, const struct arena_bounds *b);
    void (*row)(FILE *out, const struct arena_bench_row *r);
    void (*end)(FILE *out);
};

extern const struct arena_output arena_output_table;
extern const struct arena_output arena_output_csv;
extern const struct arena_output arena_output_json;

/* The CSV header, exactly (scripts rely on it). */
#define ARENA_CSV_HEADER                                                                       \
    "graph,planner,tensors,naive_bytes,lower_bound,arena_bytes,ratio_lb,saving,frag_peak,"      \
    "frag_mean,plan_ns_median,plan_ns_mean,plan_ns_stddev,scratch_bytes,valid"

/* Shared formatting: "1,505,280" and "1.44 MiB" (KiB = 1024 B). */
void arena_fmt_grouped(uint64_t v, char *buf, size_t len);
void arena_fmt_bytes(uint64_t v, char *buf, size_t len);
/* "812 ns", "12.3 us", "4.56 ms", "1.23 s"; "-" for NaN. */
void arena_fmt_ns(double ns, char *buf, size_t len);

#endif
