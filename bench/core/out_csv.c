/* out_csv.c — one row per graph x planner under ARENA_CSV_HEADER (RFC 4180:
 * a field with a comma, quote or line break is quoted). Empty fields where a
 * figure does not exist (invalid plan, one repetition's stddev, no bound, no
 * order search: order_bound and order_status only under --order best on a
 * graph, never on a bare problem). inplace_bound is the lower bound itself
 * under --inplace none. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/core/output.h"
#include "planners/planner.h"

static void field_text(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void field_real(FILE *out, double v, const char *fmt)
{
    fputc(',', out);
    if (isfinite(v)) fprintf(out, fmt, v);
}

static void csv_begin(FILE *out, void *state)
{
    (void)state;
    fputs(ARENA_CSV_HEADER "\n", out);
}

static void csv_row(FILE *out, void *state, const struct arena_result *r)
{
    (void)state;
    const struct arena_metrics *m = r->valid ? r->metrics : NULL;
    field_text(out, r->src->spec);
    fputc(',', out);
    field_text(out, r->label ? r->label : r->planner);
    fprintf(out, ",%zu,%llu,%llu,", r->src->problem.n,
            (unsigned long long)r->bounds->naive_bytes,
            (unsigned long long)r->bounds->lower_bound);
    if (m) fprintf(out, "%llu", (unsigned long long)m->arena);
    field_real(out, m ? m->ratio_lb : NAN, "%.6f");
    field_real(out, m ? m->saving : NAN, "%.6f");
    field_real(out, m ? m->frag_peak : NAN, "%.6f");
    field_real(out, m ? m->frag_mean : NAN, "%.6f");
    field_real(out, r->plan_ns_median, "%.1f");
    field_real(out, r->plan_ns_mean, "%.1f");
    field_real(out, r->plan_ns_stddev, "%.1f");
    fprintf(out, ",%llu,%d,%d,%d,", (unsigned long long)r->scratch_bytes, r->valid ? 1 : 0,
            r->noisy ? 1 : 0, r->timed_once ? 1 : 0);
    if (m) fprintf(out, "%s,%llu", arena_plan_status_name(r->status),
                   (unsigned long long)r->bound);
    else fputc(',', out);
    field_real(out, arena_result_gap(r), "%.6f");
    fputc(',', out);
    if (m) fprintf(out, "%llu", (unsigned long long)r->nodes);
    fprintf(out, ",%s,%llu,%s,", arena_inplace_name(r->src->tf.inplace),
            (unsigned long long)r->bounds->inplace_bound, arena_order_mode_name(r->src->tf.order));
    if (r->src->order.order)
        fprintf(out, "%llu,%s", (unsigned long long)r->src->order.bound,
                arena_order_status_name(r->src->order.status));
    else
        fputc(',', out);
    char patch[64];
    arena_patch_text(&r->src->tf.patch, patch, sizeof patch);
    fprintf(out, ",%s,", patch);
    if (r->src->fixed_lower_bound)
        fprintf(out, "%llu", (unsigned long long)r->src->fixed_lower_bound);
    field_real(out,
               m && r->src->fixed_lower_bound ? (double)m->arena / (double)r->src->fixed_lower_bound
                                              : NAN,
               "%.6f");
    fprintf(out, ",%s,", r->origin ? r->origin : "built-in");
    const char *detail = arena_result_origin_detail(r);
    if (detail) field_text(out, detail);
    fprintf(out, ",%s,%s,", r->plugin_sha256 ? r->plugin_sha256 : "",
            r->timing ? r->timing : "in-process");
    if (r->has_self_ns) fprintf(out, "%llu", (unsigned long long)r->self_ns);
    fprintf(out, ",%s,", r->claimed_status ? r->claimed_status : "");
    if (r->claimed_status && r->claimed_bound)
        fprintf(out, "%llu", (unsigned long long)r->claimed_bound);
    fprintf(out, ",%s,%s,", arena_scratch_name(r->src->tf.scratch),
            arena_scratch_policy_name(r->src->tf.scratch_policy));
    if (r->device_arena) fprintf(out, "%llu", (unsigned long long)r->device_arena);
    fputc(',', out);
    if (r->head_bytes) fprintf(out, "%llu", (unsigned long long)r->head_bytes);
    fputc(',', out);
    if (r->whole_arena) fprintf(out, "%llu", (unsigned long long)r->whole_arena);
    fputc('\n', out);
}

const struct arena_output arena_output_csv = {
    .name = "csv",
    .begin = csv_begin,
    .row = csv_row,
};
