/* out_table.c — the human table: per graph a header with its figures, then
 * one row per planner; units stated once at the end. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/core/output.h"
#include "graphs/tflm_head.h"

struct table_state {
    size_t rows; /* the units are stated under a table with rows only */
    int ordered; /* some graph was ordered by --order best */
    int fixed;   /* some graph was transformed: the x FB column */
    int program; /* some row was a cmd: planner's: the proc note */
};

/* A graph whose order --order best chose (bare problems have none). */
static int has_order(const struct arena_source *src)
{
    return src->tf.order == ARENA_ORDER_BEST && src->order.order;
}

/* "  order best: peak 370,016 B, stored order 413,136 B (-10.4%); optimal, 812 states, 4.1 ms" */
static void order_line(FILE *out, const struct arena_source *src)
{
    const struct arena_order_result *o = &src->order;
    char peak[32], stored[32], bound[32], t[32];
    arena_fmt_grouped(o->peak, peak, sizeof peak);
    arena_fmt_grouped(o->stored_peak, stored, sizeof stored);
    arena_fmt_grouped(o->bound, bound, sizeof bound);
    arena_fmt_ns((double)o->ns, t, sizeof t);
    double gain = o->stored_peak ? 100.0 * ((double)o->peak / (double)o->stored_peak - 1) : 0;
    fprintf(out, "  order best: peak %s B, stored order %s B (%+.1f%%); ", peak, stored, gain);
    switch (o->status) {
    case ARENA_ORDER_CERTIFIED:
        fprintf(out, "stored order optimal by the certificate, no search, %s\n", t);
        break;
    case ARENA_ORDER_OPTIMAL:
        fprintf(out, "optimal, %llu states, %s\n", (unsigned long long)o->states, t);
        break;
    default:
        fprintf(out, "limit: every order needs at least %s B (%llu states, %s)\n", bound,
                (unsigned long long)o->states, t);
        break;
    }
}

static void table_graph(FILE *out, void *state, const struct arena_source *src,
                        const struct arena_bounds *b)
{
    (void)state;
    char naive[32], naive_h[32], lb[32], lb_h[32], big[32], big_h[32];
    arena_fmt_grouped(b->naive_bytes, naive, sizeof naive);
    arena_fmt_bytes(b->naive_bytes, naive_h, sizeof naive_h);
    arena_fmt_grouped(b->lower_bound, lb, sizeof lb);
    arena_fmt_bytes(b->lower_bound, lb_h, sizeof lb_h);
    arena_fmt_grouped(b->largest, big, sizeof big);
    arena_fmt_bytes(b->largest, big_h, sizeof big_h);
    fprintf(out, "\n%s\n", src->spec);
    char ops[32] = "- (a bare problem)";
    if (src->ops) snprintf(ops, sizeof ops, "%zu", src->ops);
    fprintf(out, "  ops %s, tensors %zu, alignment %llu B, most live at once %u\n", ops,
            src->problem.n, (unsigned long long)src->problem.alignment, b->max_live);
    fprintf(out, "  naive %s B (%s), lower bound %s B (%s), largest tensor %s B (%s)\n", naive,
            naive_h, lb, lb_h, big, big_h);
    if (arena_transforms_any(&src->tf)) { /* the problem planned, and what it is measured by */
        char label[256], fb[32], fb_h[32];
        arena_transforms_label(&src->tf, 0, 0, label, sizeof label);
        arena_fmt_grouped(src->fixed_lower_bound, fb, sizeof fb);
        arena_fmt_bytes(src->fixed_lower_bound, fb_h, sizeof fb_h);
        fprintf(out, "  configuration %s; the graph untransformed needs %s B (%s), its"
                     " fixed-order bound\n",
                label, fb, fb_h);
    }
    if (src->tf.inplace != ARENA_INPLACE_NONE) {
        char ib[32], ib_h[32];
        arena_fmt_grouped(b->inplace_bound, ib, sizeof ib);
        arena_fmt_bytes(b->inplace_bound, ib_h, sizeof ib_h);
        fprintf(out, "  in-place rule %s: %zu alias candidates, in-place bound %s B (%s);"
                     " x LB and frag_peak against it\n",
                arena_inplace_name(src->tf.inplace), src->problem.n_alias, ib, ib_h);
    }
    if (src->tf.scratch != ARENA_SCRATCH_NONE) {
        const struct arena_scratch_report *k = &src->scratch;
        char big[32], big_h[32], all[32], all_h[32];
        arena_fmt_grouped(k->largest, big, sizeof big);
        arena_fmt_bytes(k->largest, big_h, sizeof big_h);
        arena_fmt_grouped(k->total, all, sizeof all);
        arena_fmt_bytes(k->total, all_h, sizeof all_h);
        fprintf(out,
                "  kernel scratch %s: %zu ops ask for it, largest %s B (%s), %s B (%s) in all"
                " (unaligned); planned %s\n",
                arena_scratch_name(src->tf.scratch), k->buffers, big, big_h, all, all_h,
                !k->buffers ? "nothing"
                : src->tf.scratch_policy == ARENA_SCRATCH_TAIL
                    ? "as one tensor of the largest, alive throughout (the tail)"
                : src->tf.scratch_policy == ARENA_SCRATCH_ONLINE
                    ? "by no planner: TFLM places it around the plan (the device arena)"
                    : "one tensor per op, alive at its step");
    }
    const struct arena_patch_report *pr = &src->patch;
    if (pr->spec.rows) {
        char sm[32], pm[32], gm[32], sp[32], sp_h[32];
        arena_fmt_grouped(pr->stage_peak, sp, sizeof sp);
        arena_fmt_bytes(pr->stage_peak, sp_h, sizeof sp_h);
        arena_fmt_grouped(pr->stage_macs, sm, sizeof sm);
        arena_fmt_grouped(pr->patched_macs, pm, sizeof pm);
        arena_fmt_grouped(pr->graph_macs, gm, sizeof gm);
        double extra = (double)(pr->patched_macs - pr->stage_macs);
        fprintf(out,
                "  patched %ux%u over the first %u ops%s, to '%s' (%llu x %llu x %llu): MACs %s"
                " whole, %s per patch (+%.1f%% of the stage, +%.1f%% of the graph's %s);"
                " the stage's peak %s B (%s)\n",
                pr->spec.rows, pr->spec.cols, pr->spec.k,
                pr->spec.stream ? ", input read per patch" : "", pr->out_name,
                (unsigned long long)pr->out_h, (unsigned long long)pr->out_w,
                (unsigned long long)pr->out_c, sm, pm,
                pr->stage_macs ? 100.0 * extra / (double)pr->stage_macs : 0.0,
                pr->graph_macs ? 100.0 * extra / (double)pr->graph_macs : 0.0, gm, sp, sp_h);
    }
    int ordered = has_order(src);
    if (ordered)
        order_line(out, src);
    fprintf(out, "\n  %-24s %15s %11s %9s%s%s %8s %9s %9s %11s %7s %13s %5s %-10s %7s\n",
            "planner", "arena B", "arena", "x LB", ordered ? "      x OB" : "",
            arena_transforms_any(&src->tf) ? "      x FB" : "", "saving", "frag_peak", "frag_mean",
            "time median", "spread", "scratch B", "valid", "status", "gap");
}

/* The spread column: stddev / mean, "once" for a single timed call of a
 * search planner, and a '!' after a figure not to trust. */
static void spread_text(const struct arena_result *r, char *buf, size_t len)
{
    if (r->timing && strcmp(r->timing, "process") == 0) snprintf(buf, len, "proc");
    else if (r->timed_once) snprintf(buf, len, "once");
    else if (isfinite(r->plan_ns_stddev) && isfinite(r->plan_ns_mean) && r->plan_ns_mean > 0)
        snprintf(buf, len, "%.1f%%%s", 100.0 * r->plan_ns_stddev / r->plan_ns_mean, r->noisy ? "!" : "");
    else snprintf(buf, len, "%s", r->noisy ? "-!" : "-");
}

/* Under a planner that is not built in: where it comes from and how it
 * was timed. */
static void origin_line(FILE *out, void *state, const struct arena_result *r)
{
    if (!r->origin || strcmp(r->origin, "built-in") == 0) return;
    int program = r->timing && strcmp(r->timing, "process") == 0;
    if (program) ((struct table_state *)state)->program = 1;
    const char *detail = arena_result_origin_detail(r);
    fprintf(out, "    from %s%s %s", r->origin, program ? ":" : "", detail ? detail : "?");
    if (r->plugin_sha256) fprintf(out, " (sha256 %.12s)", r->plugin_sha256);
    if (r->claimed_status) {
        fprintf(out, "; it claims %s", r->claimed_status);
        if (r->claimed_bound) {
            char bound[32];
            arena_fmt_grouped(r->claimed_bound, bound, sizeof bound);
            fprintf(out, " with a bound of %s B", bound);
        }
        fputs(", which bench did not prove (stored as its claim)", out);
    }
    if (program) {
        fputs("; time: its process group's wall time", out);
        if (r->has_self_ns) {
            char self[32];
            arena_fmt_ns((double)r->self_ns, self, sizeof self);
            fprintf(out, " (it says %s)", self);
        }
    } else {
        fprintf(out, "; timed %s", r->timing && strcmp(r->timing, "isolated") == 0
                                       ? "in a forked child"
                                       : "in process (--in-process)");
    }
    fputc('\n', out);
}

static void table_row(FILE *out, void *state, const struct arena_result *r)
{
    ((struct table_state *)state)->rows++;
    if (has_order(r->src))
        ((struct table_state *)state)->ordered = 1;
    int transformed = arena_transforms_any(&r->src->tf);
    if (transformed)
        ((struct table_state *)state)->fixed = 1;
    char scratch[32], median[32], spread[16];
    arena_fmt_grouped(r->scratch_bytes, scratch, sizeof scratch);
    arena_fmt_ns(r->plan_ns_median, median, sizeof median);
    spread_text(r, spread, sizeof spread);
    if (r->valid && r->metrics) {
        const struct arena_metrics *m = r->metrics;
        char arena[32], arena_h[32], gap[16] = "-";
        arena_fmt_grouped(m->arena, arena, sizeof arena);
        arena_fmt_bytes(m->arena, arena_h, sizeof arena_h);
        double g = arena_result_gap(r);
        if (isfinite(g)) snprintf(gap, sizeof gap, "%.1f%%", 100.0 * g);
        char ob[16] = "", fb[16] = "";
        if (has_order(r->src))
            snprintf(ob, sizeof ob, " %9.3f",
                     r->src->order.bound ? (double)m->arena / (double)r->src->order.bound : 0.0);
        if (transformed)
            snprintf(fb, sizeof fb, " %9.3f",
                     r->src->fixed_lower_bound
                         ? (double)m->arena / (double)r->src->fixed_lower_bound
                         : 0.0);
        fprintf(out, "  %-24s %15s %11s %9.3f%s%s %7.1f%% %9.3f %9.3f %11s %7s %13s %5s %-10s %7s\n",
                r->label ? r->label : r->planner, arena, arena_h, m->ratio_lb, ob, fb, 100.0 * m->saving, m->frag_peak,
                m->frag_mean, median, spread, scratch, "yes", arena_plan_status_name(r->status),
                gap);
    } else {
        fprintf(out, "  %-24s %15s %11s %9s%s%s %8s %9s %9s %11s %7s %13s %5s %-10s %7s\n",
                r->label ? r->label : r->planner, "-", "-", "-", has_order(r->src) ? "         -" : "",
                transformed ? "         -" : "", "-", "-", "-",
                median, spread, scratch, r->refused ? "-" : "NO", r->refused ? "refused" : "-",
                "-");
        fprintf(out, "    ! %s\n", r->error ? r->error : "invalid plan");
    }
    if (r->device_arena) {
        char dev[32], dev_h[32];
        arena_fmt_grouped(r->device_arena, dev, sizeof dev);
        arena_fmt_bytes(r->device_arena, dev_h, sizeof dev_h);
        fprintf(out, "    device arena %s B (%s): this plan's tensors as TFLM's offline plan,"
                     " the scratch placed by TFLM (%+.1f%%)\n",
                dev, dev_h, r->metrics && r->metrics->arena
                    ? 100.0 * ((double)r->device_arena / (double)r->metrics->arena - 1.0) : 0.0);
    }
    if (r->whole_arena) {
        char head[32], whole[32], whole_h[32];
        const char *fits = NULL;
        arena_fmt_grouped(r->head_bytes, head, sizeof head);
        arena_fmt_grouped(r->whole_arena, whole, sizeof whole);
        arena_fmt_bytes(r->whole_arena, whole_h, sizeof whole_h);
        for (int k = ARENA_SRAM_SIZES - 1; k >= 0; k--)
            if (r->whole_arena <= arena_sram_sizes[k])
                fits = arena_sram_names[k];
        uint64_t middle = r->device_arena ? r->device_arena : r->metrics ? r->metrics->arena : 0;
        fprintf(out, "    whole arena %s B (%s): %sTFLM's head of %s B (32-bit Cortex-M) + %s;", whole,
                whole_h, r->whole_arena > r->head_bytes + middle ? "planning needs more than " : "",
                head, r->device_arena ? "the device arena" : "the plan's arena");
        if (fits)
            fprintf(out, " fits an SRAM of %s (the least of 128, 256, 320, 512 KiB, 1 MiB)\n", fits);
        else
            fprintf(out, " more than 1 MiB\n");
    }
    origin_line(out, state, r);
}

static void table_end(FILE *out, void *state)
{
    if (((const struct table_state *)state)->rows == 0) return;
    fprintf(out,
            "\nB = bytes, KiB = 1024 B, MiB = 1024 KiB. x LB = arena / lower bound; saving ="
            " 1 - arena / naive.\n"
            "time = wall time of one planner call, median over Google Benchmark repetitions;"
            " spread = stddev / mean.\n"
            "! = spread above 10%% or a single timed call: not a figure to quote (rerun on an"
            " idle machine, or with a longer --min-time).\n"
            "once = a search planner, timed by one call. status: optimal = arena proven"
            " minimal; gap = arena / proven lower bound - 1.\n");
    if (((const struct table_state *)state)->program)
        fprintf(out, "proc = a cmd: planner, timed by one run of its program: start to exit,"
                     " process start-up included.\n");
    if (((const struct table_state *)state)->fixed)
        fprintf(out, "x FB = arena / fixed-order bound: the lower bound of the graph untransformed"
                     " (stored order, no in-place rule, no patch); below 1 where the"
                     " configuration's transformations pay.\n");
    if (((const struct table_state *)state)->ordered)
        fprintf(out, "x OB = arena / best-order bound: the least peak live bytes of any"
                     " execution order, under the in-place rule if one is given (proven; x LB"
                     " is for the order planned).\n");
}

const struct arena_output arena_output_table = {
    .name = "table",
    .state_size = sizeof(struct table_state),
    .errors_inline = 1,
    .graph = table_graph,
    .row = table_row,
    .end = table_end,
};
