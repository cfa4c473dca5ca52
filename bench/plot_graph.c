/* plot_graph.c — `bench plot`'s per-graph figures for the graph chosen:
 * arena (bars per planner), layout (each plan's tensors as rectangles) and
 * live (bytes live per step against each arena), with arena.csv (behind
 * the tables too); replay and tables are called from here. */
#include "bench/plot_internal.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Shown planners with a result on the graph, in order. */
static size_t graph_rows(struct plot_ctx *c, size_t *idx, const struct arena_fig_result **res)
{
    size_t n = 0;
    struct plot_buf miss = {0};
    for (size_t i = 0; i < c->n_sel; i++) {
        const struct arena_fig_result *r = plot_find(c, c->graph, c->sel[i].name);
        if (!r) {
            if (miss.len) plot_buf_add(&miss, ", ");
            plot_caret(&miss, c->sel[i].name);
            continue;
        }
        idx[n] = i;
        res[n++] = r;
    }
    if (miss.len) {
        struct plot_buf g = {0};
        plot_caret(&g, c->d.graphs[c->graph].spec);
        plot_note(c, "not measured on %s: %s", g.s ? g.s : "", miss.s);
        plot_buf_free(&g);
    }
    plot_buf_free(&miss);
    return n;
}

char *plot_label_of(const char *name, const struct arena_fig_result *r)
{
    struct plot_buf b = {0};
    plot_buf_add(&b, name);
    if (plot_is_limit(r)) plot_buf_add(&b, " (limit)");
    return b.s;
}

static int write_arena_csv(struct plot_ctx *c, const size_t *idx, const struct arena_fig_result **res,
                           size_t n)
{
    const struct arena_fig_graph *g = &c->d.graphs[c->graph];
    struct plot_buf b = {0};
    plot_buf_add(&b, "row,ok,limit,arena_bytes,lower_bound,naive_bytes,ratio_lb,saving,frag_peak,"
                     "frag_mean,plan_ns_median,plan_ns_mean,plan_ns_stddev,iterations,"
                     "scratch_bytes,bound,nodes,run,status,planner\n");
    for (size_t i = 0; i < n; i++) {
        const struct arena_fig_result *r = res[i];
        plot_buf_printf(&b, "%zu,%d,%d", i + 1, r->ok, plot_is_limit(r));
        if (r->ok) plot_buf_printf(&b, ",%lld", (long long)r->arena);
        else plot_buf_add(&b, ",");
        plot_buf_printf(&b, ",%lld,%lld", (long long)g->lower_bound, (long long)g->naive);
        plot_csv_num(&b, r->has_ratio, r->ratio_lb);
        plot_csv_num(&b, r->has_saving, r->saving);
        plot_csv_num(&b, r->has_frag, r->frag_peak);
        plot_csv_num(&b, r->has_frag, r->frag_mean);
        plot_csv_num(&b, r->has_ns, r->ns_median);
        plot_csv_num(&b, r->has_ns, r->ns_mean);
        plot_csv_num(&b, r->has_ns, r->ns_stddev);
        plot_buf_printf(&b, ",%lld", (long long)r->iterations);
        plot_csv_num(&b, r->has_scratch, (double)r->scratch);
        if (r->has_bound) plot_buf_printf(&b, ",%lld,%lld", (long long)r->bound, (long long)r->nodes);
        else plot_buf_add(&b, ",,");
        plot_buf_printf(&b, ",%lld,", (long long)r->run_id);
        plot_csv(&b, r->status ? r->status : "");
        plot_buf_add(&b, ",");
        plot_csv(&b, c->sel[idx[i]].name);
        plot_buf_add(&b, "\n");
    }
    int rc = plot_put(c, "arena.csv", &b);
    plot_buf_free(&b);
    return rc;
}

void plot_ytics_names(struct plot_buf *b, char *const *lab, size_t n)
{
    plot_buf_add(b, "(");
    for (size_t i = 0; i < n; i++) {
        if (i) plot_buf_add(b, ", ");
        plot_gq(b, lab[i], 1);
        plot_buf_printf(b, " %zu", i + 1);
    }
    plot_buf_add(b, ")");
}

static int fig_arena(struct plot_ctx *c, const size_t *idx, const struct arena_fig_result **res,
                     char *const *lab, size_t n)
{
    const struct arena_fig_graph *g = &c->d.graphs[c->graph];
    double xmax = (double)g->naive;
    for (size_t i = 0; i < n; i++)
        if (res[i]->ok && (double)res[i]->arena > xmax) xmax = (double)res[i]->arena;
    if (c->ref > xmax) xmax = (double)c->ref;
    double U;
    const char *uname;
    plot_byte_unit(xmax, &U, &uname);
    /* The legend's entries: lower bound, naive, and the optimum (or best
     * bound) and best-order bound when drawn; 2 a row at one column, 4 at
     * two, in a strip of its own. */
    int ob = g->order_limit && g->order_bound > 0;
    size_t nk = 2 + (c->ref ? 1 : 0) + (size_t)ob, longest = g->order_bound > 0 ? 23 : 16;
    size_t kc1 = plot_key_columns(1, longest, 2), kc2 = plot_key_columns(2, longest, 4);
    double k1 = (double)((nk + kc1 - 1) / kc1) * 0.15, k2 = (double)((nk + kc2 - 1) / kc2) * 0.17;
    double h1 = 1.0 + 0.16 * (double)n + k1, h2 = 1.1 + 0.24 * (double)n + k2;
    if (h1 < 1.8) h1 = 1.8;
    if (h1 > 4.4) h1 = 4.4;
    if (h2 < 2.4) h2 = 2.4;
    struct plot_buf gp = {0}, yt = {0}, refkey = {0};
    plot_gp_head(c, &gp, "arena", "Arena per planner", g->spec, NULL, h1, h2);
    plot_gp_common(c, &gp);
    plot_gp_styles(&gp, c->sel, idx, lab, n, 40);
    plot_buf_printf(&gp, "U = %.1f; UNAME = '%s'; XMAX = %.17g; LB = %lld; NAIVE = %lld; REF = %lld;"
                         " NK = %zu; KC1 = %zu; KC2 = %zu\n", U, uname, xmax, (long long)g->lower_bound,
                    (long long)g->naive, (long long)c->ref, nk, kc1, kc2);
    /* --order best: the bound is the best order's peak (and the search's
     * proven bound, drawn apart when it stopped at its budget below it) */
    plot_buf_printf(&gp, "OB = %lld; LBTITLE = '%s'\n",
                    (long long)(g->order_limit ? g->order_bound : 0),
                    g->order_bound > 0 ? "lower bound, best order" : "lower bound");
    plot_buf_printf(&gp, "XSTEP1 = %.17g; XSTEP2 = %.17g\n", plot_nice_step(xmax / U * 1.04, 4),
                    plot_nice_step(xmax / U * 1.5, 8));
    plot_ytics_names(&yt, lab, n);
    if (c->ref)
        plot_buf_printf(&refkey, ", \\\n       NaN with lines dt 4 lw 1.2 lc rgb '#000000' title '%s'",
                        c->ref_opt ? "optimum" : "best bound");
    const char *obkey = ob ? ", \\\n       NaN with lines dt 5 lw 1 lc rgb '#333333' title"
                              " 'best-order bound'"
                            : "";
    const char *keys[] = {"YTICS", "REFKEY", "OBKEY"};
    const char *vals[] = {yt.s ? yt.s : "()", refkey.s ? refkey.s : "", obkey};
    int rc = yt.oom || refkey.oom ? (snprintf(c->err, sizeof c->err, "out of memory"), 1)
                                  : plot_draw(c, "arena", &gp, keys, vals, 3);
    plot_buf_free(&gp);
    plot_buf_free(&yt);
    plot_buf_free(&refkey);
    return rc;
}

/* Explicit byte ticks for a panel up to top (in units): 0, step, ..., the
 * last with the unit's name, at most nt steps; *ymax keeps the top tick's
 * label below the panel's top by the fraction clear of its height. */
static void byte_ticks(struct plot_buf *b, double top, const char *uname, int nt, double clear, double *ymax)
{
    double step = plot_nice_step(top, nt);
    if (step > top) /* one step: the 1, 2, 5 value below top, not above it */
        step /= step / pow(10, floor(log10(step) + 1e-9)) > 3 ? 2.5 : 2;
    int k = (int)floor(top / step + 1e-9);
    if (k < 1) k = 1;
    plot_buf_add(b, "(");
    for (int i = 0; i <= k; i++) {
        if (i == k) plot_buf_printf(b, "'%g %s' %.17g", step * i, uname, step * i);
        else plot_buf_printf(b, "'%g' %.17g, ", step * i, step * i);
    }
    plot_buf_add(b, ")");
    *ymax = fmax(top * 1.1, step * k / (1 - fmin(clear, 0.5)) * 1.04);
}

/* A figure of panels at size s (1: 3.3 in wide, 7 pt text; 2: 7 in, 8 pt),
 * in inches: columns, rows (at most 6 at one column, 5 at two: the panels
 * past them are not drawn), margins, gaps, and a panel's plot area; ph is
 * its height in the PNG, whose title takes the top, the least of the
 * formats. The tics are chosen to fit: step labels (DejaVu Sans figures are
 * 0.636 em wide) an em apart, byte labels (1.163 em tall boxes) 0.3 em
 * apart; the right margin holds half the widest step label. */
struct grid {
    size_t cols, rows, shown, title_chars;
    int yticks;   /* byte_ticks' nt */
    double clear; /* byte_ticks' clear: the panel title's room over the top label */
    double w, h, left, right, bottom, gx, gy, pw, ph, xstep;
};

static void layout_grid(struct grid *q, int s, size_t np, int64_t steps, const char *sub)
{
    double em = (s == 1 ? 7 : 8) / 72.0;
    q->w = s == 1 ? 3.3 : 7.0;
    q->cols = s == 1 ? (np > 8 ? 3 : 2) : (np > 16 ? 5 : np > 9 ? 4 : 3);
    if (q->cols > np) q->cols = np ? np : 1;
    size_t most = q->cols * (s == 1 ? 6 : 5);
    q->shown = np < most ? np : most;
    q->rows = (q->shown + q->cols - 1) / q->cols;
    int digits = 1;
    for (int64_t v = steps; v >= 10; v /= 10) digits++;
    double label = digits * 0.636 * em;
    q->left = q->gx = s == 1 ? 0.5 : 0.62;
    q->right = fmax(0.08, label / 2 + 0.03);
    q->bottom = s == 1 ? 0.36 : 0.42;
    q->gy = s == 1 ? 0.2 : 0.24;
    q->h = s == 1 ? fmin(4.3, 0.55 + 0.62 * (double)q->rows) : 0.7 + 1.3 * (double)q->rows;
    q->pw = (q->w - q->left - q->right - (double)(q->cols - 1) * q->gx) / (double)q->cols;
    q->ph = (q->h - q->bottom - plot_title_inches(sub, s) - (double)(q->rows - 1) * q->gy) /
                (double)q->rows - 0.14;
    int n = (int)floor(q->pw / (label + em));
    q->xstep = plot_nice_step((double)steps, n < 1 ? 1 : n);
    int fit = (int)floor(q->ph / (1.1 * 1.463 * em));
    q->yticks = fit < 1 ? 1 : fit;
    q->clear = 0.7 * em / q->ph;
    q->title_chars = (size_t)((q->pw + 0.9 * q->gx) / (0.62 * em));
}

static int fig_layout_live(struct plot_ctx *c, const size_t *idx, const struct arena_fig_result **res,
                           char *const *lab, size_t n)
{
    const struct arena_fig_graph *g = &c->d.graphs[c->graph];
    size_t *pidx = malloc((n + 1) * sizeof *pidx);
    char **plab = malloc((n + 1) * sizeof *plab);
    const struct arena_fig_result **pres = malloc((n + 1) * sizeof *pres);
    struct arena_fig_place **pl = calloc(n + 1, sizeof *pl);
    size_t *npl = calloc(n + 1, sizeof *npl);
    int rc = 0;
    if (!pidx || !plab || !pres || !pl || !npl) {
        snprintf(c->err, sizeof c->err, "out of memory");
        rc = 1;
        goto done;
    }
    /* Every valid plan's placements for the layout; only the first's when
     * the layout is not drawn (the live bytes need one plan) or would
     * hold more rectangles than a figure can show. */
    size_t np = 0, rects = 0, valid = 0;
    for (size_t i = 0; i < n; i++) valid += (size_t)res[i]->ok;
    for (size_t i = 0; i < n && !rc; i++) {
        if (!res[i]->ok) continue;
        if (np && (!plot_want(c, "layout") || npl[0] * valid > 300000)) {
            rects = npl[0] * valid;
            break;
        }
        if (arena_figdb_placements(c->db, res[i]->id, &pl[np], &npl[np], c->err, sizeof c->err)) {
            rc = 2;
            break;
        }
        if (!npl[np]) continue;
        rects += npl[np];
        pidx[np] = idx[i];
        plab[np] = lab[i];
        pres[np++] = res[i];
    }
    if (rc) goto done;
    if (!np) {
        struct plot_buf s = {0};
        plot_caret(&s, g->spec);
        plot_note(c, "layout and live figures skipped: no placements of a valid plan for %s",
                  s.s ? s.s : "");
        plot_buf_free(&s);
        goto done;
    }
    int64_t steps = 0;
    for (size_t k = 0; k < npl[0]; k++)
        if (pl[0][k].last + 1 > steps) steps = pl[0][k].last + 1;
    double amax = 0;
    for (size_t i = 0; i < np; i++) amax = fmax(amax, (double)pres[i]->arena);
    if (plot_want(c, "layout") && rects > 300000) {
        plot_note(c, "layout figure skipped: %zu rectangles are too many to draw (pick a smaller graph"
                " or fewer planners)", rects);
    } else if (plot_want(c, "layout")) {
        struct plot_buf b = {0};
        plot_buf_add(&b, "panel,tensor,size,first,last,offset,planner,name\n");
        for (size_t i = 0; i < np; i++)
            for (size_t k = 0; k < npl[i]; k++) {
                const struct arena_fig_place *p = &pl[i][k];
                plot_buf_printf(&b, "%zu,%lld,%lld,%lld,%lld,%lld,", i + 1, (long long)p->tensor,
                                (long long)p->size, (long long)p->first, (long long)p->last,
                                (long long)p->offset);
                plot_csv(&b, c->sel[pidx[i]].name);
                plot_buf_add(&b, ",");
                if (p->name) plot_csv(&b, p->name);
                plot_buf_add(&b, "\n");
            }
        rc = plot_put(c, "layout.csv", &b);
        plot_buf_free(&b);
        if (rc) goto done;
        struct plot_buf gp = {0};
        char sub[64];
        snprintf(sub, sizeof sub, " (dashed: lower bound%s)",
                 c->ref && c->ref != g->lower_bound ? (c->ref_opt ? "; dash-dot: optimum"
                                                                  : "; dash-dot: best bound")
                                                    : "");
        struct plot_buf st = {0};
        plot_buf_add(&st, g->spec);
        plot_buf_add(&st, sub);
        struct grid gr[2];
        for (int k = 0; k < 2; k++) layout_grid(&gr[k], k + 1, np, steps, st.s ? st.s : "");
        if (gr[0].shown < np && (c->o.sizes & 1))
            plot_note(c, "one-column layout figure shows the first %zu of its %zu plans (two columns: %zu)",
                      gr[0].shown, np, gr[1].shown);
        else if (gr[1].shown < np && (c->o.sizes & 2))
            plot_note(c, "two-column layout figure shows the first %zu of its %zu plans", gr[1].shown, np);
        plot_gp_head(c, &gp, "layout", "Memory layout of each plan", st.s ? st.s : "", NULL, gr[0].h,
                     gr[1].h);
        plot_buf_free(&st);
        plot_gp_common(c, &gp);
        plot_gp_styles(&gp, c->sel, pidx, plab, np, 40);
        plot_buf_printf(&gp, "NP = %zu; STEPS = %lld; LB = %lld; REF = %lld\n", np, (long long)steps,
                        (long long)g->lower_bound, (long long)c->ref);
        plot_buf_printf(&gp, "array LT1[%zu]; array LT2[%zu]; array U[%zu]; array YMAX1[%zu];"
                             " array YMAX2[%zu]; array YT1[%zu]; array YT2[%zu]\n", np, np, np, np, np, np, np);
        for (int k = 0; k < 2; k++) {
            const struct grid *q = &gr[k];
            plot_buf_printf(&gp, "C%d = %zu; NPS%d = %zu; L%d = %.3f; R%d = %.3f; B%d = %.3f; GX%d = %.3f;"
                                 " GY%d = %.3f; XSTEP%d = %.17g\n", k + 1, q->cols, k + 1, q->shown, k + 1,
                            q->left, k + 1, q->right, k + 1, q->bottom, k + 1, q->gx, k + 1, q->gy, k + 1,
                            q->xstep);
        }
        for (size_t i = 0; i < np; i++) {
            double U;
            const char *un;
            double top = fmax((double)pres[i]->arena, (double)g->lower_bound);
            plot_byte_unit(top, &U, &un);
            plot_buf_printf(&gp, "LT1[%zu] = ", i + 1);
            plot_gq_cut(&gp, plab[i], gr[0].title_chars, "...");
            plot_buf_printf(&gp, "; LT2[%zu] = ", i + 1);
            plot_gq_cut(&gp, plab[i], gr[1].title_chars, "...");
            for (int k = 0; k < 2; k++) {
                struct plot_buf t = {0};
                double y;
                byte_ticks(&t, top / U, un, gr[k].yticks, gr[k].clear, &y);
                plot_buf_printf(&gp, "; YT%d[%zu] = \"%s\"; YMAX%d[%zu] = %.17g", k + 1, i + 1,
                                t.s ? t.s : "()", k + 1, i + 1, y);
                plot_buf_free(&t);
            }
            plot_buf_printf(&gp, "\nU[%zu] = %.1f\n", i + 1, U);
        }
        rc = plot_draw(c, "layout", &gp, NULL, NULL, 0);
        plot_buf_free(&gp);
        if (rc) goto done;
    }
    if (plot_want(c, "live")) {
        /* A line for every valid plan, placements stored or not. */
        np = 0;
        amax = 0;
        for (size_t i = 0; i < n; i++)
            if (res[i]->ok) {
                pidx[np] = idx[i];
                plab[np] = lab[i];
                pres[np++] = res[i];
                amax = fmax(amax, (double)res[i]->arena);
            }
        int64_t *delta = calloc((size_t)steps + 2, sizeof *delta);
        if (!delta) {
            snprintf(c->err, sizeof c->err, "out of memory");
            rc = 1;
            goto done;
        }
        for (size_t k = 0; k < npl[0]; k++) {
            delta[pl[0][k].first] += pl[0][k].size;
            delta[pl[0][k].last + 1] -= pl[0][k].size;
        }
        struct plot_buf b = {0};
        plot_buf_add(&b, "step,live_bytes\n");
        int64_t live = 0, peak = 0;
        for (int64_t s = 0; s <= steps; s++) {
            live += delta[s];
            if (live > peak) peak = live;
            plot_buf_printf(&b, "%lld,%lld\n", (long long)s, (long long)live);
        }
        free(delta);
        rc = plot_put(c, "live.csv", &b);
        plot_buf_free(&b);
        if (rc) goto done;
        double U;
        const char *un;
        plot_byte_unit(amax, &U, &un);
        size_t keyrows1 = (np + 2 + (c->ref ? 1 : 0)) / 2, keyrows2 = (np + 3 + (c->ref ? 1 : 0)) / 3;
        double h1 = fmin(4.3, 2.3 + 0.14 * (double)keyrows1), h2 = 2.8 + 0.17 * (double)keyrows2;
        struct plot_buf gp = {0}, refkey = {0};
        plot_gp_head(c, &gp, "live", "Live bytes and arenas", g->spec, NULL, h1, h2);
        plot_gp_common(c, &gp);
        plot_gp_styles(&gp, c->sel, pidx, plab, np, 40);
        plot_buf_printf(&gp, "U = %.1f; UNAME = '%s'; STEPS = %lld; REF = %lld\narray ARENA[%zu]\n",
                        U, un, (long long)steps, (long long)c->ref, np);
        for (size_t i = 0; i < np; i++)
            plot_buf_printf(&gp, "ARENA[%zu] = %lld\n", i + 1, (long long)pres[i]->arena);
        double top = fmax(fmax(amax, (double)peak), (double)c->ref) / U, y1, y2;
        struct plot_buf t1 = {0}, t2 = {0};
        byte_ticks(&t1, top, un, 4, 0, &y1);
        byte_ticks(&t2, top, un, 6, 0, &y2);
        plot_buf_printf(&gp, "YMAX = %.17g; YT1 = \"%s\"; YT2 = \"%s\"\n", fmax(y1, y2),
                        t1.s ? t1.s : "()", t2.s ? t2.s : "()");
        plot_buf_free(&t1);
        plot_buf_free(&t2);
        struct plot_buf refline = {0};
        if (c->ref) {
            plot_buf_printf(&refkey, ", \\\n       NaN with lines lc rgb '#000000' dt 4 lw 1 title '%s'",
                            c->ref_opt ? "optimum" : "best bound");
            plot_buf_add(&refline, ", \\\n       REF / U with lines lc rgb '#000000' dt 4 lw 1");
        }
        const char *keys[] = {"REFKEY", "REFLINE"};
        const char *vals[] = {refkey.s ? refkey.s : "", refline.s ? refline.s : ""};
        rc = plot_draw(c, "live", &gp, keys, vals, 2);
        plot_buf_free(&refline);
        plot_buf_free(&gp);
        plot_buf_free(&refkey);
    }
done:
    for (size_t i = 0; pl && i < n; i++) arena_fig_places_free(pl[i], npl ? npl[i] : 0);
    free(pl);
    free(npl);
    free(pidx);
    free(plab);
    free(pres);
    return rc;
}

int plot_per_graph(struct plot_ctx *c)
{
    size_t *idx = malloc((c->n_sel + 1) * sizeof *idx);
    const struct arena_fig_result **res = malloc((c->n_sel + 1) * sizeof *res);
    char **lab = calloc(c->n_sel + 1, sizeof *lab);
    int rc = 0;
    if (!idx || !res || !lab) {
        snprintf(c->err, sizeof c->err, "out of memory");
        rc = 1;
        goto done;
    }
    size_t n = graph_rows(c, idx, res);
    for (size_t i = 0; i < n; i++)
        if (!(lab[i] = plot_label_of(c->sel[idx[i]].name, res[i]))) {
            snprintf(c->err, sizeof c->err, "out of memory");
            rc = 1;
            goto done;
        }
    /* The best proven figure: the largest bound a valid result proved;
     * the optimum when a valid plan meets it. */
    const struct arena_fig_graph *g = &c->d.graphs[c->graph];
    c->ref = 0;
    c->ref_opt = 0;
    for (size_t i = 0; i < c->d.n_results; i++) {
        const struct arena_fig_result *r = &c->d.results[i];
        if (r->graph == c->graph && r->ok && r->has_bound && r->bound > c->ref) c->ref = r->bound;
    }
    for (size_t i = 0; i < c->d.n_results; i++) {
        const struct arena_fig_result *r = &c->d.results[i];
        if (r->graph == c->graph && r->ok && c->ref && r->arena == c->ref) c->ref_opt = 1;
    }
    if (c->ref && !(c->ref_opt || c->ref > g->lower_bound)) c->ref = 0;
    struct plot_buf bad = {0};
    for (size_t i = 0; i < n; i++)
        if (!res[i]->ok) {
            if (bad.len) plot_buf_add(&bad, ", ");
            plot_caret(&bad, c->sel[idx[i]].name);
        }
    if (bad.len) plot_note(c, "invalid or failed plans left out of the figures: %s", bad.s);
    plot_buf_free(&bad);
    if (n && (plot_want(c, "arena") || plot_want(c, "tables"))) rc = write_arena_csv(c, idx, res, n);
    if (!rc && n && plot_want(c, "arena")) rc = fig_arena(c, idx, res, lab, n);
    if (!rc && (plot_want(c, "layout") || plot_want(c, "live"))) rc = fig_layout_live(c, idx, res, lab, n);
    if (!rc && plot_want(c, "replay")) rc = plot_fig_replay(c, idx, res, n);
    if (!rc && n && plot_want(c, "tables")) rc = plot_tables(c, idx, res, n);
done:
    for (size_t i = 0; lab && i < c->n_sel; i++) free(lab[i]);
    free(lab);
    free(idx);
    free(res);
    return rc;
}
