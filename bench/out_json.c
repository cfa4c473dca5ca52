/* out_json.c — a JSON array with one object per graph x planner: the CSV's
 * fields plus family, ops, largest, iterations, repetitions and error; null
 * where a figure does not exist. */
#include <math.h>
#include <stdio.h>

#include "bench/output.h"

static int rows_written;

static void string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

static void real(FILE *out, const char *key, double v)
{
    fprintf(out, ", \"%s\": ", key);
    if (isfinite(v)) fprintf(out, "%.9g", v);
    else fputs("null", out);
}

static void json_begin(FILE *out)
{
    rows_written = 0;
    fputs("[", out);
}

static void json_graph(FILE *out, const struct arena_source *src, const struct arena_bounds *b)
{
    (void)out;
    (void)src;
    (void)b;
}

static void json_row(FILE *out, const struct arena_bench_row *r)
{
    const struct arena_metrics *m = r->valid ? r->metrics : NULL;
    fputs(rows_written++ ? ",\n  {" : "\n  {", out);
    fputs("\"graph\": ", out);
    string(out, r->src->spec);
    fputs(", \"family\": ", out);
    string(out, r->src->family);
    fputs(", \"planner\": ", out);
    string(out, r->planner);
    fprintf(out, ", \"ops\": %zu, \"tensors\": %zu, \"naive_bytes\": %llu, \"lower_bound\": %llu,"
                 " \"largest\": %llu, \"arena_bytes\": ",
            r->src->ops, r->src->problem.n, (unsigned long long)r->bounds->naive_bytes,
            (unsigned long long)r->bounds->lower_bound, (unsigned long long)r->bounds->largest);
    if (m) fprintf(out, "%llu", (unsigned long long)m->arena);
    else fputs("null", out);
    real(out, "ratio_lb", m ? m->ratio_lb : NAN);
    real(out, "saving", m ? m->saving : NAN);
    real(out, "frag_peak", m ? m->frag_peak : NAN);
    real(out, "frag_mean", m ? m->frag_mean : NAN);
    real(out, "plan_ns_median", r->median_ns);
    real(out, "plan_ns_mean", r->mean_ns);
    real(out, "plan_ns_stddev", r->stddev_ns);
    fprintf(out, ", \"iterations\": %llu, \"repetitions\": %u, \"scratch_bytes\": %llu,"
                 " \"valid\": %s, \"error\": ",
            (unsigned long long)r->iterations, r->repetitions,
            (unsigned long long)r->scratch_bytes, r->valid ? "true" : "false");
    string(out, r->error);
    fputs("}", out);
}

static void json_end(FILE *out)
{
    fputs(rows_written ? "\n]\n" : "]\n", out);
}

const struct arena_output arena_output_json = {
    .name = "json",
    .begin = json_begin,
    .graph = json_graph,
    .row = json_row,
    .end = json_end,
};
