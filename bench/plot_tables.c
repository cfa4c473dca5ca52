/* plot_tables.c — `bench plot`'s tables for the graph chosen:
 * comparison.tex (booktabs) and comparison.md. */
#include "bench/plot_internal.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int plot_tables(struct plot_ctx *c, const size_t *idx, const struct arena_fig_result **res, size_t n)
{
    const struct arena_fig_graph *g = &c->d.graphs[c->graph];
    double amax = 0, nsmax = 0, smax = 0;
    for (size_t i = 0; i < n; i++) {
        if (res[i]->ok) amax = fmax(amax, (double)res[i]->arena);
        if (res[i]->has_ns) nsmax = fmax(nsmax, res[i]->ns_median);
        if (res[i]->has_scratch) smax = fmax(smax, (double)res[i]->scratch);
    }
    double AU, SU, TU;
    const char *aun, *sun, *tun;
    plot_byte_unit(amax, &AU, &aun);
    plot_byte_unit(smax, &SU, &sun);
    plot_time_unit(nsmax, &TU, &tun);
    char naive[32], lb[32], ref[32];
    plot_fmt_bytes(naive, sizeof naive, (double)g->naive);
    plot_fmt_bytes(lb, sizeof lb, (double)g->lower_bound);
    plot_fmt_bytes(ref, sizeof ref, (double)c->ref);
    const char *rn = c->ref_opt ? "optimum" : "best bound";
    char runs[64];
    if (c->d.n_runs == 1) snprintf(runs, sizeof runs, "Run %lld", (long long)c->d.runs[0]);
    else snprintf(runs, sizeof runs, "%zu runs (newest result of each planner)", c->d.n_runs);
    /* graphs searched by --order best: × the best-order bound beside × LB */
    int ordered = g->order_bound > 0;
    char ob_text[32];
    plot_fmt_bytes(ob_text, sizeof ob_text, (double)g->order_bound);
    int limits = 0, noisy = 0, once = 0;
    for (size_t i = 0; i < n; i++) {
        limits |= plot_is_limit(res[i]);
        noisy |= res[i]->has_ns && res[i]->noisy;
        once |= res[i]->has_ns && res[i]->timed_once;
    }
    /* bench's own table marks a time not to quote with '!'; so do these. */
    static const char noisy_note[] = "! after a time: its spread over the repetitions is above 10 %, or it"
                                     " is one timed call: not a figure to quote (rerun on an idle machine,"
                                     " one shard a core, with a longer --min-time).";
    static const char once_note[] = "A search planner's time is one call (up to its time limit).";
    for (int tex = 0; tex < 2; tex++) {
        struct plot_buf b = {0};
        if (!tex) {
            plot_buf_printf(&b, "%s, graph ", runs);
            plot_md_code(&b, g->spec);
            plot_buf_printf(&b, ": %lld tensors, naive %s, lower bound %s", (long long)g->tensors,
                            naive, lb);
            if (c->ref) plot_buf_printf(&b, ", %s %s", rn, ref);
            if (ordered)
                plot_buf_printf(&b, ", best-order bound %s (%s)", ob_text,
                                g->order_limit ? "the order search's proven bound"
                                               : "least peak of any execution order, proven");
            plot_buf_add(&b, ".");
            if (limits)
                plot_buf_add(&b, " (limit): the search stopped at its budget; its plan is valid but"
                                 " not the planner's answer.");
            if (noisy) plot_buf_printf(&b, " %s", noisy_note);
            if (once) plot_buf_printf(&b, " %s", once_note);
            plot_buf_printf(&b, "\n\n| planner | arena (%s) | × lower bound |%s%s saving | frag. peak |"
                                " frag. mean | plan time (%s) | scratch (%s) | valid | status |\n",
                            aun, ordered ? " × best-order bound |" : "",
                            c->ref ? (c->ref_opt ? " × optimum |" : " × best bound |") : "",
                            tun, sun);
            plot_buf_printf(&b, "|:--|--:|--:|%s%s--:|--:|--:|--:|--:|:-:|:-:|\n",
                            ordered ? "--:|" : "", c->ref ? "--:|" : "");
        } else {
            struct plot_buf sp = {0};
            plot_caret(&sp, g->spec);
            plot_buf_printf(&b, "%% arenabench %s, graph %s: %lld tensors, naive %s, lower bound %s",
                            runs, sp.s ? sp.s : "", (long long)g->tensors, naive, lb);
            plot_buf_free(&sp);
            if (c->ref) plot_buf_printf(&b, ", %s %s", rn, ref);
            if (ordered) plot_buf_printf(&b, ", best-order bound %s", ob_text);
            plot_buf_add(&b, "\n");
            if (limits)
                plot_buf_add(&b, "% (limit): the search stopped at its budget; its plan is valid"
                                 " but not the planner's answer\n");
            if (noisy) plot_buf_printf(&b, "%% %s\n", noisy_note);
            if (once) plot_buf_printf(&b, "%% %s\n", once_note);
            plot_buf_printf(&b, "\\begin{tabular}{lrr%s%srrrrrcc}\n\\toprule\n",
                            ordered ? "r" : "", c->ref ? "r" : "");
            plot_buf_printf(&b, "Planner & Arena (%s) & $\\times$ LB & %s%sSaving & Frag.\\ peak & "
                                "Frag.\\ mean & Time (%s) & Scratch (%s) & Valid & Status \\\\\n"
                                "\\midrule\n",
                            aun, ordered ? "$\\times$ OB & " : "",
                            c->ref ? (c->ref_opt ? "$\\times$ opt. & " : "$\\times$ bound & ") : "",
                            strcmp(tun, "\xC2\xB5s") == 0 ? "$\\mu$s" : tun, sun);
        }
        for (size_t i = 0; i < n; i++) {
            const struct arena_fig_result *r = res[i];
            char a[40] = "--", rt[40] = "--", ob[40] = "--", o[40] = "--", sv[40] = "--", fp[40] = "--",
                 fm[40] = "--", t[40] = "--", sc[40] = "--";
            if (r->ok) {
                snprintf(a, sizeof a, AU == 1 ? "%.0f" : "%.2f", (double)r->arena / AU);
                if (r->has_ratio) snprintf(rt, sizeof rt, "%.3f", r->ratio_lb);
                if (ordered)
                    snprintf(ob, sizeof ob, "%.3f", (double)r->arena / (double)g->order_bound);
                if (c->ref) snprintf(o, sizeof o, "%.3f", (double)r->arena / (double)c->ref);
                if (r->has_saving) snprintf(sv, sizeof sv, "%.1f%s", 100 * r->saving, tex ? "\\%" : "%");
                if (r->has_frag) {
                    snprintf(fp, sizeof fp, "%.3f", r->frag_peak);
                    snprintf(fm, sizeof fm, "%.3f", r->frag_mean);
                }
            }
            if (r->has_ns) snprintf(t, sizeof t, "%.3g%s", r->ns_median / TU, r->noisy ? "!" : "");
            if (r->has_scratch)
                snprintf(sc, sizeof sc, r->scratch == 0 ? "0" : SU == 1 ? "%.0f" : "%.1f",
                         (double)r->scratch / SU);
            const char *status = r->status ? r->status : "--";
            char *label = plot_label_of(c->sel[idx[i]].name, r);
            /* One row in either format: Markdown cells are "| x", LaTeX's "& x". */
            void (*text)(struct plot_buf *, const char *) = tex ? plot_tex : plot_md;
            const char *sep = tex ? " & " : " | ";
            const char *cells[] = {a, rt, ob, o, sv, fp, fm, t, sc, r->ok ? "yes" : "no"};
            if (!tex) plot_buf_add(&b, "| ");
            text(&b, label ? label : "");
            for (size_t k = 0; k < sizeof cells / sizeof cells[0]; k++)
                if ((cells[k] != o || c->ref) && (cells[k] != ob || ordered))
                    plot_buf_printf(&b, "%s%s", sep, cells[k]);
            plot_buf_add(&b, sep);
            text(&b, status);
            plot_buf_add(&b, tex ? " \\\\\n" : " |\n");
            free(label);
        }
        if (tex) plot_buf_add(&b, "\\bottomrule\n\\end{tabular}\n");
        int rc = plot_put(c, tex ? "comparison.tex" : "comparison.md", &b);
        plot_buf_free(&b);
        if (rc) return rc;
    }
    return 0;
}
