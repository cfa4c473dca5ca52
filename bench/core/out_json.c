/* out_json.c — a JSON array with one object per graph x planner: the CSV's
 * fields plus family, ops, largest, iterations, repetitions and error; null
 * where a figure does not exist. The in-place and order fields appear only
 * away from the defaults (--inplace none, --order stored), so a default
 * run's JSON is what it was before they existed; order adds order_peak and
 * stored_order_peak. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/core/output.h"
#include "planners/planner.h"

struct json_state {
    size_t rows; /* objects written so far: the first has no comma */
};

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

static void json_begin(FILE *out, void *state)
{
    (void)state;
    fputs("[", out);
}

static void json_row(FILE *out, void *state, const struct arena_result *r)
{
    struct json_state *js = state;
    const struct arena_metrics *m = r->valid ? r->metrics : NULL;
    fputs(js->rows++ ? ",\n  {" : "\n  {", out);
    fputs("\"graph\": ", out);
    string(out, r->src->spec);
    fputs(", \"family\": ", out);
    string(out, r->src->family);
    fputs(", \"planner\": ", out);
    string(out, r->label ? r->label : r->planner);
    fputs(", \"planner_spec\": ", out);
    string(out, r->planner_spec ? r->planner_spec : r->planner);
    fprintf(out, ", \"ops\": %zu, \"tensors\": %zu, \"naive_bytes\": %llu, \"lower_bound\": %llu,"
                 " \"largest\": %llu, \"arena_bytes\": ",
            r->src->ops, r->src->problem.n, (unsigned long long)r->bounds->naive_bytes,
            (unsigned long long)r->bounds->lower_bound, (unsigned long long)r->bounds->largest);
    if (m) fprintf(out, "%llu", (unsigned long long)m->arena);
    else fputs("null", out);
    if (r->src->tf.inplace != ARENA_INPLACE_NONE) { /* under none, the keys of before */
        fputs(", \"inplace\": ", out);
        string(out, arena_inplace_name(r->src->tf.inplace));
        fprintf(out, ", \"alias_pairs\": %zu, \"inplace_bound\": %llu", r->src->problem.n_alias,
                (unsigned long long)r->bounds->inplace_bound);
    }
    if (r->src->order.order) { /* --order best on a graph; else the keys of before */
        const struct arena_order_result *o = &r->src->order;
        fprintf(out, ", \"order\": \"best\", \"order_peak\": %llu, \"stored_order_peak\": %llu,"
                     " \"order_bound\": %llu, \"order_status\": ",
                (unsigned long long)o->peak, (unsigned long long)o->stored_peak,
                (unsigned long long)o->bound);
        string(out, arena_order_status_name(o->status));
    }
    if (r->src->tf.patch.rows) {
        char patch[64];
        arena_patch_text(&r->src->tf.patch, patch, sizeof patch);
        fputs(", \"patch\": ", out);
        string(out, patch);
    }
    if (arena_transforms_any(&r->src->tf)) {
        fprintf(out, ", \"fixed_lower_bound\": %llu",
                (unsigned long long)r->src->fixed_lower_bound);
        real(out, "ratio_fixed",
             m && r->src->fixed_lower_bound
                 ? (double)m->arena / (double)r->src->fixed_lower_bound
                 : NAN);
    }
    if (r->origin && strcmp(r->origin, "built-in") != 0) { /* built-in: the keys of before */
        fputs(", \"origin\": ", out);
        string(out, r->origin);
        int plugin = strcmp(r->origin, "plugin") == 0;
        fputs(plugin ? ", \"plugin_path\": " : ", \"command\": ", out);
        string(out, plugin ? r->plugin_path : r->planner_command);
        if (r->plugin_sha256) {
            fputs(", \"plugin_sha256\": ", out);
            string(out, r->plugin_sha256);
        }
    }
    if (r->timing && strcmp(r->timing, "in-process") != 0) {
        fputs(", \"timing\": ", out);
        string(out, r->timing);
    }
    if (r->has_self_ns) fprintf(out, ", \"self_ns\": %llu", (unsigned long long)r->self_ns);
    if (r->claimed_status) { /* a plugin's word, apart from bench's proofs */
        fputs(", \"claimed_status\": ", out);
        string(out, r->claimed_status);
        if (r->claimed_bound)
            fprintf(out, ", \"claimed_bound\": %llu", (unsigned long long)r->claimed_bound);
    }
    if (r->src->tf.scratch != ARENA_SCRATCH_NONE) {
        fputs(", \"kernel_scratch\": ", out);
        string(out, arena_scratch_name(r->src->tf.scratch));
        fputs(", \"scratch_policy\": ", out);
        string(out, arena_scratch_policy_name(r->src->tf.scratch_policy));
    }
    if (r->device_arena)
        fprintf(out, ", \"device_arena\": %llu", (unsigned long long)r->device_arena);
    if (r->head_bytes)
        fprintf(out, ", \"head_bytes\": %llu, \"whole_arena\": %llu",
                (unsigned long long)r->head_bytes, (unsigned long long)r->whole_arena);
    real(out, "ratio_lb", m ? m->ratio_lb : NAN);
    real(out, "saving", m ? m->saving : NAN);
    real(out, "frag_peak", m ? m->frag_peak : NAN);
    real(out, "frag_mean", m ? m->frag_mean : NAN);
    real(out, "plan_ns_median", r->plan_ns_median);
    real(out, "plan_ns_mean", r->plan_ns_mean);
    real(out, "plan_ns_stddev", r->plan_ns_stddev);
    fprintf(out, ", \"iterations\": %llu, \"repetitions\": %u, \"scratch_bytes\": %llu,"
                 " \"valid\": %s, \"noisy\": %s, \"timed_once\": %s, \"status\": ",
            (unsigned long long)r->iterations, r->repetitions,
            (unsigned long long)r->scratch_bytes, r->valid ? "true" : "false",
            r->noisy ? "true" : "false", r->timed_once ? "true" : "false");
    string(out, m ? arena_plan_status_name(r->status) : NULL);
    fputs(", \"bound\": ", out);
    if (m) fprintf(out, "%llu", (unsigned long long)r->bound);
    else fputs("null", out);
    real(out, "gap", arena_result_gap(r));
    fputs(", \"nodes\": ", out);
    if (m) fprintf(out, "%llu", (unsigned long long)r->nodes);
    else fputs("null", out);
    fputs(", \"error\": ", out);
    string(out, r->error);
    fputs("}", out);
}

static void json_end(FILE *out, void *state)
{
    const struct json_state *js = state;
    fputs(js->rows ? "\n]\n" : "]\n", out);
}

const struct arena_output arena_output_json = {
    .name = "json",
    .state_size = sizeof(struct json_state),
    .begin = json_begin,
    .row = json_row,
    .end = json_end,
};
