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

int arena_plot_tables(struct plot_ctx *c, const size_t *idx, const struct arena_fig_result **res,
                      size_t n)
{
    (void)idx;
    (void)res;
    (void)n;
    size_t base = c->d.graphs[c->graph].base, P = 0, R = 0;
    struct part *part = malloc((c->d.n_configs + 1) * sizeof *part);
    size_t *row_part = malloc((c->d.n_configs * c->n_sel + 1) * sizeof *row_part);
    size_t *row_sel = malloc((c->d.n_configs * c->n_sel + 1) * sizeof *row_sel);
    const struct arena_fig_result **row = malloc((c->d.n_configs * c->n_sel + 1) * sizeof *row);
    if (!part || !row_part || !row_sel || !row) {
        free(part);
        free(row_part);
        free(row_sel);
        free(row);
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    /* the figures' configuration first, then the others in their order */
    for (size_t pass = 0; pass < 2; pass++)
        for (size_t k = 0; k < c->d.n_configs; k++) {
            if ((k == c->cfg) != (pass == 0)) continue;
            size_t e = c->d.n_graphs;
            for (size_t i = 0; i < c->d.n_graphs && e == c->d.n_graphs; i++)
                if (c->d.graphs[i].base == base && c->d.graphs[i].config == k) e = i;
            if (e == c->d.n_graphs) continue;
            size_t first = R;
            for (size_t i = 0; i < c->n_sel; i++) {
                const struct arena_fig_result *r = arena_plot_find(c, e, c->sel[i].name);
                if (!r) continue;
                row_part[R] = P;
                row_sel[R] = i;
                row[R++] = r;
            }
            if (R == first) continue;
            part[P].entry = e;
            best_bound(c, e, &part[P].ref, &part[P].ref_opt);
            P++;
        }
    int has_ref = 0, all_opt = 1, ordered = 0, fixed = 0, limits = 0, noisy = 0, once = 0;
    double amax = 0, smax = 0;
    for (size_t p = 0; p < P; p++) {
        const struct arena_fig_graph *g = &c->d.graphs[part[p].entry];
        if (part[p].ref) {
            has_ref = 1;
            all_opt &= part[p].ref_opt;
        }
        ordered |= g->order_bound > 0;
        fixed |= arena_config_transforms(&c->d.configs[g->config].c) && g->fixed_lower_bound > 0;
    }
    for (size_t i = 0; i < R; i++) {
        if (row[i]->ok) amax = fmax(amax, (double)row[i]->arena);
        if (row[i]->has_scratch) smax = fmax(smax, (double)row[i]->scratch);
        limits |= arena_plot_is_limit(row[i]);
        noisy |= row[i]->has_ns && row[i]->noisy;
        once |= row[i]->has_ns && row[i]->timed_once;
    }
    /* bench's own table marks a time not to quote with '!'; these with a
     * footnote mark beside the number (each time in its own unit). */
    static const char noisy_note[] = "its spread over the repetitions is above 10 %, or it"
                                     " is one timed call: not a figure to quote (rerun on an idle machine,"
                                     " one shard a core, with a longer --min-time).";
    static const char once_note[] = "A search planner's time is one call (up to its time limit).";
    static const char self_note[] = "own report: the planning time a program (cmd:) says it took;"
                                    " process: its whole run, its interpreter's start included.";
    int self = 0;
    for (size_t i = 0; i < R; i++) self |= row[i]->has_ns && row[i]->has_self_ns;
    double AU, SU;
    const char *aun, *sun;
    arena_plot_byte_unit(amax, &AU, &aun);
    arena_plot_byte_unit(smax, &SU, &sun);
    char runs[64];
    if (c->d.n_runs == 1) snprintf(runs, sizeof runs, "Run %lld", (long long)c->d.runs[0]);
    else snprintf(runs, sizeof runs, "%zu runs (newest result of each planner)", c->d.n_runs);
    int rc = 0;
    for (int tex = 0; tex < 2 && !rc; tex++) {
        struct arena_buf b = {0};
        void (*text)(struct arena_buf *, const char *) = tex ? arena_plot_tex : arena_plot_md;
        if (!tex) {
            arena_buf_printf(&b, "%s, graph ", runs);
            arena_plot_md_code(&b, c->d.bases[base]);
            arena_buf_add(&b,
                               ", a row per planner and configuration; each ratio is against its"
                               " own problem's bounds:\n\n");
        } else {
            struct arena_buf sp = {0};
            arena_plot_caret(&sp, c->d.bases[base]);
            arena_buf_printf(&b,
                                  "%% arenabench %s, graph %s; each ratio against its own"
                                  " problem's bounds\n",
                                  runs, sp.s ? sp.s : "");
            arena_buf_free(&sp);
        }
        /* each configuration's problem, one line */
        for (size_t p = 0; p < P; p++) {
            const struct arena_fig_graph *g = &c->d.graphs[part[p].entry];
            char naive[32], lb[32], ref[32], ob[32], fb[32];
            arena_plot_fmt_bytes(naive, sizeof naive, (double)g->naive);
            arena_plot_fmt_bytes(lb, sizeof lb, (double)g->lower_bound);
            arena_plot_fmt_bytes(ref, sizeof ref, (double)part[p].ref);
            arena_plot_fmt_bytes(ob, sizeof ob, (double)g->order_bound);
            arena_plot_fmt_bytes(fb, sizeof fb, (double)g->fixed_lower_bound);
            arena_buf_add(&b, tex ? "% " : "- ");
            if (tex) arena_plot_caret(&b, c->d.configs[g->config].label);
            else arena_plot_md(&b, c->d.configs[g->config].label);
            arena_buf_printf(&b, ": %lld tensors, naive %s, lower bound %s",
                                  (long long)g->tensors, naive, lb);
            if (part[p].ref)
                arena_buf_printf(&b, ", %s %s", part[p].ref_opt ? "optimum" : "best bound",
                                      ref);
            if (g->order_bound > 0)
                arena_buf_printf(&b, ", best-order bound %s (%s)", ob,
                                      g->order_limit ? "the order search's proven bound"
                                                     : "least peak of any execution order, proven");
            if (arena_config_transforms(&c->d.configs[g->config].c) && g->fixed_lower_bound > 0)
                arena_buf_printf(&b, ", fixed-order bound %s (the graph untransformed)", fb);
            if (g->superseded) {
                arena_buf_printf(&b, "; %zu older result%s of another problem under this"
                                          " spec left out (", g->superseded,
                                      g->superseded == 1 ? "" : "s");
                text(&b, g->superseded_planners);
                arena_buf_add(&b, ")");
            }
            arena_buf_add(&b, "\n");
        }
        if (!tex) {
            if (limits)
                arena_buf_add(&b,
                                   "\n(limit): the search stopped at its budget; its plan is valid"
                                   " but not the planner's answer.\n");
            if (noisy) arena_buf_printf(&b, "\n\xE2\x80\xA0 after a time: %s\n", noisy_note);
            if (once) arena_buf_printf(&b, "\n%s\n", once_note);
            if (self) arena_buf_printf(&b, "\n%s\n", self_note);
            if (fixed)
                arena_buf_add(&b, "\n× fixed-order bound: arena / the lower bound of the graph"
                                       " untransformed (stored order, no in-place rule, no patch):"
                                       " below 1 where the configuration's transformations pay.\n");
            arena_buf_printf(&b,
                                  "\n| planner | configuration | arena (%s) | × lower bound |%s%s%s"
                                  " saving | frag. peak | frag. mean | plan time |"
                                  " scratch (%s) | valid | status |\n",
                                  aun,
                                  has_ref ? (all_opt ? " × optimum |" : " × best bound |") : "",
                                  ordered ? " × best-order bound |" : "",
                                  fixed ? " × fixed-order bound |" : "", sun);
            arena_buf_printf(&b, "|:--|:--|--:|--:|%s%s%s--:|--:|--:|--:|--:|:-:|:-:|\n",
                                  has_ref ? "--:|" : "", ordered ? "--:|" : "",
                                  fixed ? "--:|" : "");
        } else {
            if (limits)
                arena_buf_add(&b,
                                   "% (limit): the search stopped at its budget; its plan is valid"
                                   " but not the planner's answer\n");
            if (noisy) arena_buf_printf(&b, "%% dagger after a time: %s\n", noisy_note);
            if (once) arena_buf_printf(&b, "%% %s\n", once_note);
            if (fixed)
                arena_buf_add(&b,
                                   "% x fixed: arena / the lower bound of the graph untransformed"
                                   " (stored order, no in-place rule, no patch)\n");
            arena_buf_add(&b, "% needs \\usepackage{booktabs}; wider than a column at"
                                   " \\footnotesize: set it across the page, \\begin{table*}\n"
                                   "{\\footnotesize\\setlength{\\tabcolsep}{3pt}%\n");
            arena_buf_printf(&b, "\\begin{tabular}{lrr%s%s%srrrrrcc}\n\\toprule\n",
                                  has_ref ? "r" : "", ordered ? "r" : "", fixed ? "r" : "");
            arena_buf_printf(
                &b,
                "Planner & Arena (%s) & $\\times$ LB & %s%s%s"
                "Saving & Frag.\\ peak & Frag.\\ mean & Time & Scratch (%s)"
                " & Valid & Status \\\\\n\\midrule\n",
                aun, has_ref ? (all_opt ? "$\\times$ opt. & " : "$\\times$ bound & ") : "",
                ordered ? "$\\times$ OB & " : "", fixed ? "$\\times$ fixed & " : "",
                sun);
        }
        for (size_t i = 0; i < R; i++) {
            const struct arena_fig_result *r = row[i];
            const struct part *pt = &part[row_part[i]];
            const struct arena_fig_graph *g = &c->d.graphs[pt->entry];
            const struct arena_fig_config *cf = &c->d.configs[g->config];
            char a[40] = "--", rt[40] = "--", o[40] = "--", ob[40] = "--", fx[40] = "--",
                 sv[40] = "--", fp[40] = "--", fm[40] = "--", t[160] = "--", sc[40] = "--";
            if (r->ok) {
                snprintf(a, sizeof a, AU == 1 ? "%.0f" : "%.2f", (double)r->arena / AU);
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
                snprintf(sc, sizeof sc, r->scratch == 0 ? "0" : SU == 1 ? "%.0f" : "%.1f",
                         (double)r->scratch / SU);
            const char *status = r->status ? r->status : "--";
            char *label = arena_plot_label_of(c->sel[row_sel[i]].label, r);
            /* One row in either format: Markdown cells are "| x", LaTeX's "& x". */
            const char *sep = tex ? " & " : " | ";
            if (tex && (i == 0 || row_part[i] != row_part[i - 1])) {
                /* LaTeX names each configuration above its rows: a column
                 * of its own would not fit the page */
                if (i) arena_buf_add(&b, "\\midrule\n");
                arena_buf_printf(&b, "\\multicolumn{%d}{l}{\\emph{",
                                      10 + has_ref + ordered + fixed);
                text(&b, cf->label);
                arena_buf_add(&b, "}} \\\\\n");
            }
            if (!tex) arena_buf_add(&b, "| ");
            text(&b, label ? label : "");
            if (!tex) {
                arena_buf_add(&b, sep);
                text(&b, cf->label);
            }
            const char *cells[] = {a, rt, o, ob, fx, sv, fp, fm, t, sc, r->ok ? "yes" : "no"};
            for (size_t k = 0; k < sizeof cells / sizeof cells[0]; k++)
                if ((cells[k] != o || has_ref) && (cells[k] != ob || ordered) &&
                    (cells[k] != fx || fixed))
                    arena_buf_printf(&b, "%s%s", sep, cells[k]);
            arena_buf_add(&b, sep);
            text(&b, status);
            if (r->claimed) { /* a plugin's word beside bench's proof, labelled */
                arena_buf_add(&b, " (claims ");
                text(&b, r->claimed);
                arena_buf_add(&b, ")");
            }
            arena_buf_add(&b, tex ? " \\\\\n" : " |\n");
            free(label);
        }
        if (tex) {
            /* what the marks mean, under the table where a reader sees it */
            arena_buf_add(&b, "\\bottomrule\n\\end{tabular}%\n");
            if (noisy || limits || once || self) {
                arena_buf_add(&b, "\\par\\smallskip\\parbox{\\linewidth}{\\raggedright ");
                if (noisy) {
                    arena_buf_add(&b, "$^{\\dagger}$After a time: ");
                    arena_plot_tex(&b, noisy_note);
                }
                if (limits)
                    arena_buf_add(&b, " (limit): the search stopped at its budget; its plan is"
                                           " valid but not the planner's answer.");
                if (once) {
                    arena_buf_add(&b, " ");
                    arena_plot_tex(&b, once_note);
                }
                if (self) {
                    arena_buf_add(&b, " ");
                    arena_plot_tex(&b, self_note);
                }
                arena_buf_add(&b, "}%\n");
            }
            arena_buf_add(&b, "}\n");
        }
        rc = arena_plot_put(c, tex ? "comparison.tex" : "comparison.md", &b);
        arena_buf_free(&b);
    }
    free(part);
    free(row_part);
    free(row_sel);
    free(row);
    return rc;
}
