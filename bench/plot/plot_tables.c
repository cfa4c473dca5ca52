/* plot_tables.c — `bench plot`'s tables for the graph chosen:
 * comparison.tex (booktabs) and comparison.md, a row per planner and
 * configuration of the graph, every ratio against the bounds of the row's
 * own problem; the fixed-order ratio (arena / the graph's bound
 * untransformed) only under its own name. */
#include "bench/plot/plot_internal.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One configuration of the graph: its entry and its problem's figures. */
struct part {
    size_t entry;
    int64_t ref;  /* best proven bound above the lower bound, 0 none */
    int ref_opt;  /* a valid plan meets it */
};

/* The best proven figure of entry e: the largest bound a valid result
 * proved for its problem, the optimum when a valid plan meets it; 0 when
 * it is not above the lower bound and no plan meets it. */
static void best_bound(const struct plot_ctx *c, size_t e, int64_t *ref, int *opt)
{
    *ref = 0;
    *opt = 0;
    for (size_t i = 0; i < c->d.n_results; i++) {
        const struct arena_fig_result *r = &c->d.results[i];
        if (r->graph == e && r->ok && r->has_bound && r->bound > *ref) *ref = r->bound;
    }
    for (size_t i = 0; i < c->d.n_results; i++) {
        const struct arena_fig_result *r = &c->d.results[i];
        if (r->graph == e && r->ok && *ref && r->arena == *ref) *opt = 1;
    }
    if (*ref && !(*opt || *ref > c->d.graphs[e].lower_bound)) *ref = 0;
}

/* bench's own table marks a time not to quote with '!'; these with a
 * footnote mark beside the number (each time in its own unit). */
static const char noisy_note[] = "its spread over the repetitions is above 10 %, or it"
                                 " is one timed call: not a figure to quote (rerun on an idle machine,"
                                 " one shard a core, with a longer --min-time).";
static const char once_note[] = "A search planner's time is one call (up to its time limit).";
static const char self_note[] = "own report: the planning time a program (cmd:) says it took;"
                                " process: its whole run, its interpreter's start included.";

/* The tables' state (arena_plot_figure's steps below): a row per planner
 * and configuration of the graph, rows grouped by part (configuration). */
struct tables_fig {
    size_t base, P, R;
    struct part *part;
    size_t *row_part, *row_sel; /* each row's part and shown planner */
    const struct arena_fig_result **row;
    int has_ref, all_opt, ordered, fixed, limits, noisy, once, self;
    double AU, SU; /* the arena's and the scratch's units */
    const char *aun, *sun;
    char runs[64];
};

static int tables_begin(struct plot_ctx *c, void *fig)
{
    struct tables_fig *f = fig;
    f->base = c->d.graphs[c->graph].base;
    f->part = malloc((c->d.n_configs + 1) * sizeof *f->part);
    f->row_part = malloc((c->d.n_configs * c->n_sel + 1) * sizeof *f->row_part);
    f->row_sel = malloc((c->d.n_configs * c->n_sel + 1) * sizeof *f->row_sel);
    f->row = malloc((c->d.n_configs * c->n_sel + 1) * sizeof *f->row);
    if (!f->part || !f->row_part || !f->row_sel || !f->row) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    /* the figures' configuration first, then the others in their order */
    for (size_t pass = 0; pass < 2; pass++)
        for (size_t k = 0; k < c->d.n_configs; k++) {
            if ((k == c->cfg) != (pass == 0)) continue;
            size_t e = c->d.n_graphs;
            for (size_t i = 0; i < c->d.n_graphs && e == c->d.n_graphs; i++)
                if (c->d.graphs[i].base == f->base && c->d.graphs[i].config == k) e = i;
            if (e == c->d.n_graphs) continue;
            size_t first = f->R;
            for (size_t i = 0; i < c->n_sel; i++) {
                const struct arena_fig_result *r = arena_plot_find(c, e, c->sel[i].name);
                if (!r) continue;
                f->row_part[f->R] = f->P;
                f->row_sel[f->R] = i;
                f->row[f->R++] = r;
            }
            if (f->R == first) continue;
            f->part[f->P].entry = e;
            best_bound(c, e, &f->part[f->P].ref, &f->part[f->P].ref_opt);
            f->P++;
        }
    f->all_opt = 1;
    double amax = 0, smax = 0;
    for (size_t p = 0; p < f->P; p++) {
        const struct arena_fig_graph *g = &c->d.graphs[f->part[p].entry];
        if (f->part[p].ref) {
            f->has_ref = 1;
            f->all_opt &= f->part[p].ref_opt;
        }
        f->ordered |= g->order_bound > 0;
        f->fixed |= arena_config_transforms(&c->d.configs[g->config].c) && g->fixed_lower_bound > 0;
    }
    for (size_t i = 0; i < f->R; i++) {
        const struct arena_fig_result *r = f->row[i];
        if (r->ok) amax = fmax(amax, (double)r->arena);
        if (r->has_scratch) smax = fmax(smax, (double)r->scratch);
        f->limits |= arena_plot_is_limit(r);
        f->noisy |= r->has_ns && r->noisy;
        f->once |= r->has_ns && r->timed_once;
        f->self |= r->has_ns && r->has_self_ns;
    }
    arena_plot_byte_unit(amax, &f->AU, &f->aun);
    arena_plot_byte_unit(smax, &f->SU, &f->sun);
    if (c->d.n_runs == 1) snprintf(f->runs, sizeof f->runs, "Run %lld", (long long)c->d.runs[0]);
    else snprintf(f->runs, sizeof f->runs, "%zu runs (newest result of each planner)", c->d.n_runs);
    return 0;
}

/* The head of comparison.md (tex 0) or .tex (1): the graph, each
 * configuration's problem in a line, what the marks mean, the columns. */
static void tables_head(struct plot_ctx *c, const struct tables_fig *f, int tex,
                        struct arena_buf *b)
{
    void (*text)(struct arena_buf *, const char *) = tex ? arena_plot_tex : arena_plot_md;
    if (!tex) {
        arena_buf_printf(b, "%s, graph ", f->runs);
        arena_plot_md_code(b, c->d.bases[f->base]);
        arena_buf_add(b,
                           ", a row per planner and configuration; each ratio is against its"
                           " own problem's bounds:\n\n");
    } else {
        struct arena_buf sp = {0};
        arena_plot_caret(&sp, c->d.bases[f->base]);
        arena_buf_printf(b,
                              "%% arenabench %s, graph %s; each ratio against its own"
                              " problem's bounds\n",
                              f->runs, sp.s ? sp.s : "");
        arena_buf_free(&sp);
    }
    /* each configuration's problem, one line */
    for (size_t p = 0; p < f->P; p++) {
        const struct arena_fig_graph *g = &c->d.graphs[f->part[p].entry];
        char naive[32], lb[32], ref[32], ob[32], fb[32];
        arena_plot_fmt_bytes(naive, sizeof naive, (double)g->naive);
        arena_plot_fmt_bytes(lb, sizeof lb, (double)g->lower_bound);
        arena_plot_fmt_bytes(ref, sizeof ref, (double)f->part[p].ref);
        arena_plot_fmt_bytes(ob, sizeof ob, (double)g->order_bound);
        arena_plot_fmt_bytes(fb, sizeof fb, (double)g->fixed_lower_bound);
        arena_buf_add(b, tex ? "% " : "- ");
        if (tex) arena_plot_caret(b, c->d.configs[g->config].label);
        else arena_plot_md(b, c->d.configs[g->config].label);
        arena_buf_printf(b, ": %lld tensors, naive %s, lower bound %s",
                              (long long)g->tensors, naive, lb);
        if (f->part[p].ref)
            arena_buf_printf(b, ", %s %s", f->part[p].ref_opt ? "optimum" : "best bound",
                                  ref);
        if (g->order_bound > 0)
            arena_buf_printf(b, ", best-order bound %s (%s)", ob,
                                  g->order_limit ? "the order search's proven bound"
                                                 : "least peak of any execution order, proven");
        if (arena_config_transforms(&c->d.configs[g->config].c) && g->fixed_lower_bound > 0)
            arena_buf_printf(b, ", fixed-order bound %s (the graph untransformed)", fb);
        if (g->superseded) {
            arena_buf_printf(b, "; %zu older result%s of another problem under this"
                                      " spec left out (", g->superseded,
                                  g->superseded == 1 ? "" : "s");
            text(b, g->superseded_planners);
            arena_buf_add(b, ")");
        }
        arena_buf_add(b, "\n");
    }
    if (!tex) {
        if (f->limits)
            arena_buf_add(b,
                               "\n(limit): the search stopped at its budget; its plan is valid"
                               " but not the planner's answer.\n");
        if (f->noisy) arena_buf_printf(b, "\n\xE2\x80\xA0 after a time: %s\n", noisy_note);
        if (f->once) arena_buf_printf(b, "\n%s\n", once_note);
        if (f->self) arena_buf_printf(b, "\n%s\n", self_note);
        if (f->fixed)
            arena_buf_add(b, "\n× fixed-order bound: arena / the lower bound of the graph"
                                   " untransformed (stored order, no in-place rule, no patch):"
                                   " below 1 where the configuration's transformations pay.\n");
        arena_buf_printf(b,
                              "\n| planner | configuration | arena (%s) | × lower bound |%s%s%s"
                              " saving | frag. peak | frag. mean | plan time |"
                              " scratch (%s) | valid | status |\n",
                              f->aun,
                              f->has_ref ? (f->all_opt ? " × optimum |" : " × best bound |") : "",
                              f->ordered ? " × best-order bound |" : "",
                              f->fixed ? " × fixed-order bound |" : "", f->sun);
        arena_buf_printf(b, "|:--|:--|--:|--:|%s%s%s--:|--:|--:|--:|--:|:-:|:-:|\n",
                              f->has_ref ? "--:|" : "", f->ordered ? "--:|" : "",
                              f->fixed ? "--:|" : "");
    } else {
        if (f->limits)
            arena_buf_add(b,
                               "% (limit): the search stopped at its budget; its plan is valid"
                               " but not the planner's answer\n");
        if (f->noisy) arena_buf_printf(b, "%% dagger after a time: %s\n", noisy_note);
        if (f->once) arena_buf_printf(b, "%% %s\n", once_note);
        if (f->fixed)
            arena_buf_add(b,
                               "% x fixed: arena / the lower bound of the graph untransformed"
                               " (stored order, no in-place rule, no patch)\n");
        arena_buf_add(b, "% needs \\usepackage{booktabs}; wider than a column at"
                               " \\footnotesize: set it across the page, \\begin{table*}\n"
                               "{\\footnotesize\\setlength{\\tabcolsep}{3pt}%\n");
        arena_buf_printf(b, "\\begin{tabular}{lrr%s%s%srrrrrcc}\n\\toprule\n",
                              f->has_ref ? "r" : "", f->ordered ? "r" : "", f->fixed ? "r" : "");
        arena_buf_printf(
            b,
            "Planner & Arena (%s) & $\\times$ LB & %s%s%s"
            "Saving & Frag.\\ peak & Frag.\\ mean & Time & Scratch (%s)"
            " & Valid & Status \\\\\n\\midrule\n",
            f->aun, f->has_ref ? (f->all_opt ? "$\\times$ opt. & " : "$\\times$ bound & ") : "",
            f->ordered ? "$\\times$ OB & " : "", f->fixed ? "$\\times$ fixed & " : "",
            f->sun);
    }
}

/* Row i of either table. */
static void tables_row(struct plot_ctx *c, const struct tables_fig *f, int tex, size_t i,
                       struct arena_buf *b)
{
    void (*text)(struct arena_buf *, const char *) = tex ? arena_plot_tex : arena_plot_md;
    const struct arena_fig_result *r = f->row[i];
    const struct part *pt = &f->part[f->row_part[i]];
    const struct arena_fig_graph *g = &c->d.graphs[pt->entry];
    const struct arena_fig_config *cf = &c->d.configs[g->config];
    char a[40] = "--", rt[40] = "--", o[40] = "--", ob[40] = "--", fx[40] = "--",
         sv[40] = "--", fp[40] = "--", fm[40] = "--", t[160] = "--", sc[40] = "--";
    if (r->ok) {
        snprintf(a, sizeof a, f->AU == 1 ? "%.0f" : "%.2f", (double)r->arena / f->AU);
        if (g->lower_bound > 0)
            snprintf(rt, sizeof rt, "%.3f", (double)r->arena / (double)g->lower_bound);
        if (pt->ref) snprintf(o, sizeof o, "%.3f", (double)r->arena / (double)pt->ref);
        if (g->order_bound > 0)
            snprintf(ob, sizeof ob, "%.3f", (double)r->arena / (double)g->order_bound);
        if (arena_config_transforms(&cf->c) && g->fixed_lower_bound > 0)
            snprintf(fx, sizeof fx, "%.3f",
                     (double)r->arena / (double)g->fixed_lower_bound);
        if (r->has_saving) snprintf(sv, sizeof sv, "%.1f%s", 100 * r->saving, tex ? "\\%" : "%");
        if (r->has_frag) {
            snprintf(fp, sizeof fp, "%.3f", r->frag_peak);
            snprintf(fm, sizeof fm, "%.3f", r->frag_mean);
        }
    }
    if (r->has_ns) {
        struct arena_buf tb = {0};
        char v[32];
        if (r->has_self_ns) { /* a program's own figure first, its process's beside it */
            arena_plot_fmt_time(v, sizeof v, r->self_ns);
            text(&tb, v);
            arena_buf_add(&tb, " (own report), process ");
        }
        arena_plot_fmt_time(v, sizeof v, r->ns_median);
        text(&tb, v);
        if (r->noisy) arena_buf_add(&tb, tex ? "$^{\\dagger}$" : "\xE2\x80\xA0");
        snprintf(t, sizeof t, "%s", tb.s ? tb.s : "");
        arena_buf_free(&tb);
    }
    if (r->has_scratch)
        snprintf(sc, sizeof sc, r->scratch == 0 ? "0" : f->SU == 1 ? "%.0f" : "%.1f",
                 (double)r->scratch / f->SU);
    const char *status = r->status ? r->status : "--";
    char *label = arena_plot_label_of(c->sel[f->row_sel[i]].label, r);
    /* One row in either format: Markdown cells are "| x", LaTeX's "& x". */
    const char *sep = tex ? " & " : " | ";
    if (tex && (i == 0 || f->row_part[i] != f->row_part[i - 1])) {
        /* LaTeX names each configuration above its rows: a column
         * of its own would not fit the page */
        if (i) arena_buf_add(b, "\\midrule\n");
        arena_buf_printf(b, "\\multicolumn{%d}{l}{\\emph{",
                              10 + f->has_ref + f->ordered + f->fixed);
        text(b, cf->label);
        arena_buf_add(b, "}} \\\\\n");
    }
    if (!tex) arena_buf_add(b, "| ");
    text(b, label ? label : "");
    if (!tex) {
        arena_buf_add(b, sep);
        text(b, cf->label);
    }
    const char *cells[] = {a, rt, o, ob, fx, sv, fp, fm, t, sc, r->ok ? "yes" : "no"};
    for (size_t k = 0; k < sizeof cells / sizeof cells[0]; k++)
        if ((cells[k] != o || f->has_ref) && (cells[k] != ob || f->ordered) &&
            (cells[k] != fx || f->fixed))
            arena_buf_printf(b, "%s%s", sep, cells[k]);
    arena_buf_add(b, sep);
    text(b, status);
    if (r->claimed) { /* a plugin's word beside bench's proof, labelled */
        arena_buf_add(b, " (claims ");
        text(b, r->claimed);
        arena_buf_add(b, ")");
    }
    arena_buf_add(b, tex ? " \\\\\n" : " |\n");
    free(label);
}

/* The end of the LaTeX table: what the marks mean, under the table where a
 * reader sees it. */
static void tables_foot(const struct tables_fig *f, struct arena_buf *b)
{
    /* what the marks mean, under the table where a reader sees it */
    arena_buf_add(b, "\\bottomrule\n\\end{tabular}%\n");
    if (f->noisy || f->limits || f->once || f->self) {
        arena_buf_add(b, "\\par\\smallskip\\parbox{\\linewidth}{\\raggedright ");
        if (f->noisy) {
            arena_buf_add(b, "$^{\\dagger}$After a time: ");
            arena_plot_tex(b, noisy_note);
        }
        if (f->limits)
            arena_buf_add(b, " (limit): the search stopped at its budget; its plan is"
                                   " valid but not the planner's answer.");
        if (f->once) {
            arena_buf_add(b, " ");
            arena_plot_tex(b, once_note);
        }
        if (f->self) {
            arena_buf_add(b, " ");
            arena_plot_tex(b, self_note);
        }
        arena_buf_add(b, "}%\n");
    }
    arena_buf_add(b, "}\n");
}

/* comparison.md, then comparison.tex. */
static int tables_series(struct plot_ctx *c, void *fig)
{
    struct tables_fig *f = fig;
    int rc = 0;
    for (int tex = 0; tex < 2 && !rc; tex++) {
        struct arena_buf b = {0};
        tables_head(c, f, tex, &b);
        for (size_t i = 0; i < f->R; i++) tables_row(c, f, tex, i, &b);
        if (tex) tables_foot(f, &b);
        rc = arena_plot_put(c, tex ? "comparison.tex" : "comparison.md", &b);
        arena_buf_free(&b);
    }
    return rc;
}

static void tables_free(void *fig)
{
    struct tables_fig *f = fig;
    free(f->part);
    free(f->row_part);
    free(f->row_sel);
    free(f->row);
}

int arena_plot_tables(struct plot_ctx *c, const size_t *idx, const struct arena_fig_result **res,
                      size_t n)
{
    (void)idx;
    (void)res;
    (void)n;
    static const struct plot_figure steps = {tables_begin, tables_series, NULL, tables_free};
    struct tables_fig f = {0};
    return arena_plot_figure(c, &steps, &f);
}
