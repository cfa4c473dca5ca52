/* plot_across.c — `bench plot`'s figures across graphs: scaling (time
 * against tensors per configuration), quality (arena / lower bound per
 * planner over the paired graphs) and stats (what bench stats computes,
 * results/stats.h), with the configuration labels they share. */
#include "bench/plot/plot_internal.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planners/status.h"
#include "results/stats.h"

static int param_is(const char *kv, size_t len, const char *const *keys)
{
    for (; *keys; keys++) {
        size_t k = strlen(*keys);
        if (len > k && strncmp(kv, *keys, k) == 0 && kv[k] == '=') return 1;
    }
    return 0;
}

/* "family params" without the keys named (size-like ones, seed), plus
 * " align=N" when with_align. */
static char *config_of(const struct arena_fig_graph *g, const char *const *drop, int with_align)
{
    struct arena_buf b = {0};
    if (!g->params[0]) {
        arena_buf_add(&b, g->spec);
    } else {
        arena_buf_add(&b, g->family);
        int first = 1;
        for (const char *p = g->params; *p;) {
            const char *e = strchr(p, ',');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            if (!param_is(p, len, drop)) {
                arena_buf_add(&b, first ? ":" : ",");
                arena_buf_addn(&b, p, len);
                first = 0;
            }
            p += len + (e ? 1 : 0);
        }
    }
    if (with_align) arena_buf_printf(&b, " align=%lld", (long long)g->alignment);
    if (b.oom) {
        arena_buf_free(&b);
        return NULL;
    }
    return b.s;
}

static int seed_of(const struct arena_fig_graph *g, char *out, size_t n)
{
    for (const char *p = g->params; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len > 5 && strncmp(p, "seed=", 5) == 0) {
            snprintf(out, n, "%.*s", (int)(len - 5), p + 5);
            return 1;
        }
        p += len + (e ? 1 : 0);
    }
    snprintf(out, n, "-");
    return 0;
}

/* The graph's size: its parameters among keys (the size-like ones, not the
 * seed) as "n=200,..."; "" for a file or a graph without them. */
static char *size_of(const struct arena_fig_graph *g, const char *const *keys)
{
    struct arena_buf b = {0};
    arena_buf_add(&b, "");
    for (const char *p = g->params; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (param_is(p, len, keys)) {
            if (b.len) arena_buf_add(&b, ",");
            arena_buf_addn(&b, p, len);
        }
        p += len + (e ? 1 : 0);
    }
    if (b.oom) {
        arena_buf_free(&b);
        return NULL;
    }
    return b.s;
}

/* Distinct seeds among graphs marked in use[]. */
static size_t count_seeds(const struct plot_ctx *c, const int *use)
{
    size_t n = 0;
    for (size_t i = 0; i < c->d.n_graphs; i++) {
        if (!use[i]) continue;
        char a[64], b[64];
        seed_of(&c->d.graphs[i], a, sizeof a);
        size_t j;
        for (j = 0; j < i; j++) {
            if (!use[j]) continue;
            seed_of(&c->d.graphs[j], b, sizeof b);
            if (strcmp(a, b) == 0) break;
        }
        if (j == i) n++;
    }
    return n;
}

/* A planner's name wider than this (in em) breaks before its origin or
 * limit note in the quality figure, so the panel keeps its width. */
#define QUALITY_WRAP_EM 14.0

/* The quality figure's tic step on a linear axis over [lo, hi]: the
 * finest 1-2-5 step whose labels ("%g" of each tic, DejaVu advances) fit,
 * an em apart, in the panel the names' column (names em wide) leaves at
 * size (1: 3.3 in at 7 pt, 2: 7 in at 8 pt; margins 0.6 in). gnuplot's own
 * step ran its labels into one another beside long names. */
static double quality_xstep(double lo, double hi, double names, int size)
{
    double em = (size == 1 ? 7 : 8) / 72.0;
    double width = fmax(0.5, (size == 1 ? 3.3 : 7.0) - names * em - 0.6);
    for (int n = 10; n > 1; n--) {
        double step = arena_plot_nice_step(hi - lo, n), need = 0;
        for (double v = ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
            char t[32];
            snprintf(t, sizeof t, "%g", fabs(v) < step * 1e-9 ? 0.0 : v);
            need += (arena_plot_text_em(t) + 1) * em;
        }
        if (need <= width) return step;
    }
    return arena_plot_nice_step(hi - lo, 1);
}

/* How a figure names the planners left out of its pairing (results/stats.h's
 * rule), before the list "NAME: N of M graphs; ...". */
#define UNPAIRED "left out, valid on fewer graphs than the others: "

/* Whether graph g of the configuration can be compared on (a lower bound,
 * and with fixed a fixed-order bound, above 0), and whether planner i has
 * a valid result on it. */
static int valid_on(struct plot_ctx *c, size_t g, size_t i, int fixed)
{
    const struct arena_fig_result *r = arena_plot_find(c, g, c->sel[i].name);
    return arena_plot_in_config(c, g) && r && r->ok && c->d.graphs[g].lower_bound > 0 &&
           (!fixed || c->d.graphs[g].fixed_lower_bound > 0);
}

/* The pairing rule of results/stats.h over the planners qidx[0..nq): those
 * valid on the most graphs pair on the graphs they all have; another is
 * kept only when it is valid on every one of those. The others leave
 * qidx (its order kept) and are listed in out as "NAME: N of M graphs",
 * M the configuration's graphs, "; " apart. Returns the planners kept. */
static size_t leave_out_the_fewer(struct plot_ctx *c, size_t *qidx, size_t nq, int fixed,
                                  struct arena_buf *out)
{
    size_t G = c->d.n_graphs, most = 0, top = 0, in_cfg = 0, kept = 0;
    size_t *nv = calloc(nq + 1, sizeof *nv), *have = calloc(G + 1, sizeof *have);
    if (!nv || !have) {
        free(nv);
        free(have);
        out->oom = 1;
        return nq;
    }
    for (size_t g = 0; g < G; g++) in_cfg += (size_t)arena_plot_in_config(c, g);
    for (size_t k = 0; k < nq; k++) {
        for (size_t g = 0; g < G; g++) nv[k] += (size_t)valid_on(c, g, qidx[k], fixed);
        if (nv[k] > most) most = nv[k];
    }
    for (size_t k = 0; k < nq; k++)
        if (nv[k] == most) {
            top++;
            for (size_t g = 0; g < G; g++) have[g] += (size_t)valid_on(c, g, qidx[k], fixed);
        }
    for (size_t k = 0; k < nq; k++) {
        int keep = 1;
        for (size_t g = 0; g < G && keep && nv[k] < most; g++)
            keep = have[g] < top || valid_on(c, g, qidx[k], fixed);
        if (keep) {
            qidx[kept++] = qidx[k];
            continue;
        }
        arena_buf_add(out, out->len ? "; " : "");
        arena_plot_caret(out, c->sel[qidx[k]].name);
        arena_buf_printf(out, ": %zu of %zu graphs", nv[k], in_cfg);
    }
    free(nv);
    free(have);
    return kept;
}

/* The quality (or fixed) figure's state (arena_plot_figure's steps below). */
struct quality_fig {
    int fixed;        /* arena / fixed-order bound: the fixed figure */
    const char *name; /* "quality" or "fixed" */
    char csv_name[32];
    size_t G, in_cfg, nq, paired, seeds;
    double *best;     /* per graph, the best proven bound above the lower bound, if any */
    int *use;         /* per graph, paired: every planner of the figure valid on it */
    size_t *qidx;     /* the planners drawn [nq] */
    char **lab;       /* their labels */
    double *v;        /* work: one planner's ratios */
    double *med, *whi; /* each planner's median and largest ratio */
    int better, skipped_naive, cut, logx;
    double qmax, qmin, best_med, xlo, xhi;
    struct arena_buf left, cap, unpaired, none, absent, arr;
};

/* The planners: the shown ones, naive only when asked for, none without a
 * valid result anywhere (said in the caption). */
static void quality_planners(struct plot_ctx *c, struct quality_fig *f)
{
    for (size_t i = 0; i < c->n_sel; i++) {
        if (!c->planners_given && strcmp(c->sel[i].name, "naive") == 0) {
            f->skipped_naive = 1;
            continue;
        }
        int any = 0, ran = 0;
        for (size_t g = 0; g < f->G && !any; g++) {
            const struct arena_fig_result *r = arena_plot_find(c, g, c->sel[i].name);
            any = arena_plot_in_config(c, g) && r && r->ok;
            ran |= arena_plot_in_config(c, g) && r;
        }
        if (!any) { /* a planner never run here did not fail here */
            struct arena_buf *to = ran ? &f->none : &f->absent;
            if (to->len) arena_buf_add(to, ", ");
            arena_plot_caret(to, c->sel[i].name);
            continue;
        }
        f->qidx[f->nq++] = i;
    }
}

/* Paired: graphs where every planner of the figure has a valid result;
 * the planners that fail somewhere named in f->left. */
static void quality_pairing(struct plot_ctx *c, struct quality_fig *f)
{
    for (size_t g = 0; g < f->G; g++) {
        if (!arena_plot_in_config(c, g)) continue;
        int all = 1;
        for (size_t k = 0; k < f->nq; k++) {
            const struct arena_fig_result *r = arena_plot_find(c, g, c->sel[f->qidx[k]].name);
            all &= r && r->ok && c->d.graphs[g].lower_bound > 0 &&
                   (!f->fixed || c->d.graphs[g].fixed_lower_bound > 0);
        }
        f->use[g] = all && f->nq > 0;
        f->paired += (size_t)f->use[g];
    }
    for (size_t k = 0; k < f->nq; k++) {
        size_t failed = 0;
        for (size_t g = 0; g < f->G; g++) {
            const struct arena_fig_result *r = arena_plot_find(c, g, c->sel[f->qidx[k]].name);
            failed += arena_plot_in_config(c, g) && !(r && r->ok);
        }
        if (failed) {
            arena_buf_add(&f->left, f->left.len ? ", " : "");
            arena_plot_caret(&f->left, c->sel[f->qidx[k]].name);
            arena_buf_printf(&f->left, " failed or missing on %zu", failed);
        }
    }
}

static int quality_begin(struct plot_ctx *c, void *fig)
{
    struct quality_fig *f = fig;
    size_t G = f->G = c->d.n_graphs;
    f->best = calloc(G + 1, sizeof *f->best);
    f->use = calloc(G + 1, sizeof *f->use);
    f->qidx = malloc((c->n_sel + 1) * sizeof *f->qidx);
    f->lab = calloc(c->n_sel + 1, sizeof *f->lab);
    f->v = malloc((G + 1) * sizeof *f->v);
    if (!f->best || !f->use || !f->qidx || !f->lab || !f->v) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    for (size_t i = 0; i < c->d.n_results; i++) {
        const struct arena_fig_result *r = &c->d.results[i];
        if (r->ok && r->has_bound && (double)r->bound > f->best[r->graph])
            f->best[r->graph] = (double)r->bound;
    }
    for (size_t g = 0; g < G; g++) {
        if (!arena_plot_in_config(c, g)) continue;
        f->in_cfg++;
        f->best[g] = fmax(f->best[g], (double)c->d.graphs[g].lower_bound);
        f->better |= f->best[g] > (double)c->d.graphs[g].lower_bound;
    }
    if (f->fixed) f->better = 0; /* one measure: the graph untransformed */
    quality_planners(c, f);
    /* A planner valid on fewer graphs than the rest never shrinks their
     * pairing: it is left out, and named in the figure with its count. */
    f->nq = leave_out_the_fewer(c, f->qidx, f->nq, f->fixed, &f->unpaired);
    quality_pairing(c, f);
    if (f->paired < 2 || !f->nq) {
        arena_plot_note(c,
                        "%s figure skipped: %zu graph%s with a valid result of every planner shown"
                        "%s (needs two; try bench --graph all)%s%s%s%s",
                        f->name, f->paired, f->paired == 1 ? "" : "s",
                        f->fixed ? " and a fixed-order bound" : "", f->left.len ? "; " : "",
                        f->left.len ? f->left.s : "", f->unpaired.len ? "; " UNPAIRED : "",
                        f->unpaired.len ? f->unpaired.s : "");
        return PLOT_SKIP;
    }
    f->seeds = count_seeds(c, f->use);
    struct arena_buf *cap = &f->cap;
    arena_buf_printf(cap, "%s: %zu of %zu graphs", arena_plot_config_label(c), f->paired,
                     f->in_cfg);
    if (f->left.len) arena_buf_printf(cap, " (paired: %s)", f->left.s);
    arena_buf_printf(cap, ", %zu seed%s, %zu run%s", f->seeds, f->seeds == 1 ? "" : "s",
                     c->d.n_runs, c->d.n_runs == 1 ? "" : "s");
    if (f->skipped_naive) arena_buf_add(cap, "; naive left out (--planner all shows it)");
    if (f->none.len) arena_buf_printf(cap, "; no valid result: %s", f->none.s);
    if (f->absent.len) arena_buf_printf(cap, "; not run in this configuration: %s", f->absent.s);
    if (f->unpaired.len) arena_buf_printf(cap, "; %s%s", UNPAIRED, f->unpaired.s);
    arena_plot_note(c, "%s: %s", f->name, cap->s);
    return 0;
}

/* Planner k's lines of the data (b), its quartiles and whiskers (f->arr),
 * its median and label. 0, or 1 out of memory. */
static int quality_rows(struct plot_ctx *c, struct quality_fig *f, size_t k, struct arena_buf *b)
{
    size_t nv = 0, limits = 0;
    double *v = f->v;
    for (size_t g = 0; g < f->G; g++) {
        if (!f->use[g]) continue;
        const struct arena_fig_result *r = arena_plot_find(c, g, c->sel[f->qidx[k]].name);
        const struct arena_fig_graph *gr = &c->d.graphs[g];
        double ratio = (double)r->arena / (f->fixed    ? (double)gr->fixed_lower_bound
                                           : f->better ? f->best[g]
                                                       : (double)gr->lower_bound);
        v[nv++] = ratio;
        limits += (size_t)arena_plot_is_limit(r);
        f->qmax = fmax(f->qmax, ratio);
        f->qmin = fmin(f->qmin, ratio);
        arena_buf_printf(b, "%zu,%.17g,%d,%.17g,%lld,%lld,", k + 1, ratio, arena_plot_is_limit(r),
                         (double)r->arena / (double)gr->lower_bound, (long long)r->arena,
                         (long long)gr->lower_bound);
        if (f->best[g] > (double)gr->lower_bound) arena_buf_printf(b, "%.17g", f->best[g]);
        arena_buf_printf(b, ",%lld,%zu,%zu,%zu,%zu,", (long long)r->run_id, f->paired, f->in_cfg,
                         f->seeds, c->d.n_runs);
        arena_plot_csv(b, c->sel[f->qidx[k]].name);
        arena_buf_add(b, ",");
        arena_plot_csv(b, gr->spec);
        arena_buf_add(b, ",");
        arena_plot_csv(b, arena_plot_config_label(c));
        if (gr->fixed_lower_bound > 0)
            arena_buf_printf(b, ",%lld\n", (long long)gr->fixed_lower_bound);
        else arena_buf_add(b, ",\n");
    }
    qsort(v, nv, sizeof *v, arena_plot_by_double);
    double q1 = arena_plot_quantile(v, nv, 0.25), q3 = arena_plot_quantile(v, nv, 0.75),
           iq = q3 - q1;
    double lo = v[nv - 1], hi = v[0];
    for (size_t i = 0; i < nv; i++) {
        if (v[i] >= q1 - 1.5 * iq && v[i] < lo) lo = v[i];
        if (v[i] <= q3 + 1.5 * iq && v[i] > hi) hi = v[i];
    }
    arena_buf_printf(
        &f->arr,
        "Q1[%zu] = %.17g; Q3[%zu] = %.17g; MED[%zu] = %.17g; LO[%zu] = %.17g; "
        "HI[%zu] = %.17g\n",
        k + 1, q1, k + 1, q3, k + 1, arena_plot_quantile(v, nv, 0.5), k + 1, lo, k + 1, hi);
    if (f->med && f->whi) {
        f->med[k] = arena_plot_quantile(v, nv, 0.5);
        f->whi[k] = v[nv - 1];
        f->best_med = fmin(f->best_med, f->med[k]);
    }
    struct arena_buf l = {0};
    arena_buf_add(&l, c->sel[f->qidx[k]].label);
    if (limits == f->paired) arena_buf_add(&l, " (limit)");
    else if (limits) arena_buf_printf(&l, " (%zu limit)", limits);
    f->lab[k] = l.s;
    return f->lab[k] ? 0 : 1;
}

/* The range: --range, else from the least ratio to the larger of the
 * largest and ARENA_PLOT_BAND times the best median, where planners worth
 * telling apart sit; a planner whose median is beyond it is an arrow at the
 * edge with its median, a whisker beyond it ends in an arrowhead. Log only
 * when nothing is cut and the ratios span over 3. */
static void quality_range(struct plot_ctx *c, struct quality_fig *f)
{
    f->xlo = f->qmin - 0.02;
    f->xhi = 1 + (f->qmax - 1) * 1.1 + 0.02; /* all of it */
    double band_end = ARENA_PLOT_BAND * f->best_med;
    if (c->o.range_hi > 0) {
        f->xlo = c->o.range_lo;
        f->xhi = c->o.range_hi;
        f->cut = 1;
    } else if (f->best_med == f->best_med && f->qmax > band_end) {
        f->xhi = band_end;
        f->cut = 1;
    } else {
        f->logx = f->qmax > 3;
    }
    if (f->cut && c->o.range_hi > 0)
        arena_buf_printf(&f->cap, "; axis %g to %g (--range)", f->xlo, f->xhi);
    else if (f->cut)
        arena_buf_printf(&f->cap, "; axis to %.3g (%g x the best median), medians beyond it"
                                  " as arrows", f->xhi, ARENA_PLOT_BAND);
}

/* NAME.csv: a line per planner x paired graph (paired, graphs, seeds,
 * runs: what the figure covers, on every row); the quartiles and the range
 * for the script. */
static int quality_series(struct plot_ctx *c, void *fig)
{
    struct quality_fig *f = fig;
    struct arena_buf b = {0};
    int rc = 0;
    arena_buf_add(&b, "row,ratio,limit,ratio_lb,arena_bytes,lower_bound,best_bound,run,paired,"
                      "graphs,seeds,runs,planner,graph,config,fixed_lower_bound\n");
    f->qmax = f->qmin = 1;
    f->best_med = INFINITY;
    f->med = calloc(f->nq + 1, sizeof *f->med);
    f->whi = calloc(f->nq + 1, sizeof *f->whi);
    if (!f->med || !f->whi) rc = 1;
    size_t nq = f->nq;
    arena_buf_printf(
        &f->arr, "array Q1[%zu]; array Q3[%zu]; array MED[%zu]; array LO[%zu]; array HI[%zu]\n",
        nq, nq, nq, nq, nq);
    for (size_t k = 0; k < nq; k++)
        if (quality_rows(c, f, k, &b)) rc = 1;
    quality_range(c, f);
    snprintf(f->csv_name, sizeof f->csv_name, "%s.csv", f->name);
    if (rc || (rc = arena_plot_put(c, f->csv_name, &b))) {
        if (!c->err[0]) snprintf(c->err, sizeof c->err, "out of memory");
    }
    arena_buf_free(&b);
    return rc;
}

/* NAME.gp (from template quality.gp), drawn. */
static int quality_end(struct plot_ctx *c, void *fig)
{
    struct quality_fig *f = fig;
    struct arena_buf gp = {0}, yt = {0}, sub = {0}, foot = {0};
    size_t nq = f->nq;
    const char *what = f->fixed    ? "Arena / fixed-order bound (the graph untransformed)"
                       : f->better ? "Arena / best proven bound"
                                   : "Arena / lower bound";
    arena_buf_printf(&sub, "%s", f->cap.s);
    double fh[2];
    arena_plot_gp_foot(&foot, UNPAIRED, f->unpaired.s ? f->unpaired.s : "", fh);
    double h1 = fmin(4.2, fmax(1.8, 1.0 + 0.2 * (double)nq)) + fh[0],
           h2 = fmax(2.4, 1.2 + 0.27 * (double)nq) + fh[1];
    arena_plot_gp_head(c, &gp, f->name, what, sub.s ? sub.s : "", f->cap.s, h1, h2);
    arena_buf_add(&gp, foot.s ? foot.s : "");
    arena_plot_gp_common(c, &gp);
    arena_plot_gp_styles(&gp, c->sel, f->qidx, f->lab, nq, 40);
    arena_buf_add(&gp, f->arr.s ? f->arr.s : "");
    arena_buf_printf(&gp, "array OFF[%zu]; array CUTHI[%zu]\n", nq, nq);
    for (size_t k = 0; k < nq && f->med && f->whi; k++)
        arena_buf_printf(&gp, "OFF[%zu] = %d; CUTHI[%zu] = %d\n", k + 1,
                         f->cut && f->med[k] > f->xhi, k + 1, f->cut && f->whi[k] > f->xhi);
    arena_buf_printf(&gp, "RLO = %.17g; RHI = %.17g; CUT = %d\n", f->xlo, f->xhi, f->cut);
    double names = 0;
    for (size_t k = 0; k < nq; k++)
        names = fmax(names, arena_plot_label_em(f->lab[k], QUALITY_WRAP_EM));
    arena_buf_printf(&gp, "XSTEP1 = %.17g; XSTEP2 = %.17g\n",
                     quality_xstep(f->xlo, f->xhi, names, 1),
                     quality_xstep(f->xlo, f->xhi, names, 2));
    arena_buf_printf(&gp, "QMAX = %.17g; XMIN = %.17g; LOGX = %d; XLABEL = '%s'; DATA = '%s'\n",
                     f->qmax, f->qmin, f->logx,
                     f->fixed    ? "arena / fixed-order bound"
                     : f->better ? "arena / best proven bound"
                                 : "arena / lower bound",
                     f->csv_name);
    arena_buf_printf(&gp, "LOGTICS1 = \"%s\"; LOGTICS2 = \"%s\"\n",
                     f->qmax > 30 ? "(0.5, 1, 10, 100, 1000, 10000, 100000)"
                                  : "(0.5, 1, 2, 5, 10, 20)",
                     f->qmax > 30 ? "(0.5, 1, 10, 100, 1000, 10000, 100000)"
                                  : "(0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 20)");
    arena_plot_ytics_names(&yt, f->lab, nq, QUALITY_WRAP_EM);
    const char *keys[] = {"YTICS"};
    const char *vals[] = {yt.s ? yt.s : "()"};
    int rc = arena_plot_draw_from(c, f->name, "quality", &gp, keys, vals, 1);
    arena_buf_free(&gp);
    arena_buf_free(&yt);
    arena_buf_free(&sub);
    arena_buf_free(&foot);
    return rc;
}

static void quality_free(void *fig)
{
    struct quality_fig *f = fig;
    for (size_t i = 0; f->lab && i <= f->nq; i++) free(f->lab[i]);
    free(f->lab);
    free(f->best);
    free(f->use);
    free(f->qidx);
    free(f->v);
    free(f->med);
    free(f->whi);
    arena_buf_free(&f->left);
    arena_buf_free(&f->cap);
    arena_buf_free(&f->unpaired);
    arena_buf_free(&f->none);
    arena_buf_free(&f->absent);
    arena_buf_free(&f->arr);
}

/* The quality figure (NAME quality), or with fixed the same of arena /
 * fixed-order bound (NAME fixed), for the configuration c->cfg. */
static int quality_figure(struct plot_ctx *c, int fixed)
{
    static const struct plot_figure steps = {quality_begin, quality_series, quality_end,
                                              quality_free};
    struct quality_fig f = {.fixed = fixed, .name = fixed ? "fixed" : "quality"};
    return arena_plot_figure(c, &steps, &f);
}

int arena_plot_fig_quality(struct plot_ctx *c)
{
    return quality_figure(c, 0);
}

int arena_plot_fig_fixed(struct plot_ctx *c)
{
    size_t k = c->cfg, saved = c->cfg;
    if (!arena_config_transforms(&c->d.configs[k].c))
        for (k = 0; k < c->d.n_configs && !arena_config_transforms(&c->d.configs[k].c); k++) {}
    if (k == c->d.n_configs) {
        arena_plot_note(c, "fixed figure skipped: no configuration transforms the graphs (bench"
                           " --inplace, --order best, --patch)");
        return 0;
    }
    c->cfg = k; /* this figure's configuration: the caption names it */
    int rc = quality_figure(c, 1);
    c->cfg = saved;
    return rc;
}

/* Configuration index of every graph: cfg[g] in [0, *n), labels in *names. */
static int configs(const struct plot_ctx *c, const char *const *drop, size_t *cfg, char ***names,
                   size_t *n)
{
    int aligns = 0;
    for (size_t g = 1; g < c->d.n_graphs; g++)
        aligns |= c->d.graphs[g].alignment != c->d.graphs[0].alignment;
    *names = NULL;
    *n = 0;
    for (size_t g = 0; g < c->d.n_graphs; g++) {
        char *k = config_of(&c->d.graphs[g], drop, aligns);
        if (!k) return -1;
        size_t j;
        for (j = 0; j < *n && strcmp((*names)[j], k) != 0; j++) {}
        if (j == *n) {
            char **gr = realloc(*names, (*n + 1) * sizeof *gr);
            if (!gr) {
                free(k);
                return -1;
            }
            *names = gr;
            gr[(*n)++] = k;
        } else {
            free(k);
        }
        cfg[g] = j;
    }
    return 0;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
}


/* Panel labels that tell configurations apart: the family, and only the
 * key=value items not shared by every configuration of that family (the
 * alignment suffix kept); a configuration alone in its family is its
 * family. names[i] as configs() made them. */
static char *short_label(char *const *names, size_t n, size_t i)
{
    const char *me = names[i];
    const char *colon = strchr(me, ':'), *space = strchr(me, ' ');
    size_t flen = colon ? (size_t)(colon - me) : space ? (size_t)(space - me) : strlen(me);
    struct arena_buf b = {0};
    arena_buf_addn(&b, me, flen);
    if (colon) {
        const char *items = colon + 1, *end = space ? space : me + strlen(me);
        int first = 1;
        for (const char *p = items; p < end;) {
            const char *e = memchr(p, ',', (size_t)(end - p));
            size_t len = e ? (size_t)(e - p) : (size_t)(end - p);
            int shared = 1;
            for (size_t j = 0; j < n && shared; j++) {
                if (j == i || strncmp(names[j], me, flen) != 0 || names[j][flen] != ':') continue;
                const char *o = names[j] + flen + 1;
                int found = 0;
                for (const char *q = o; *q && *q != ' ';) {
                    const char *f = q + strcspn(q, ", ");
                    if ((size_t)(f - q) == len && strncmp(q, p, len) == 0) found = 1;
                    q = *f == ',' ? f + 1 : f;
                    if (*f == ' ' || !*f) break;
                }
                shared = found;
            }
            int alone = 1;
            for (size_t j = 0; j < n; j++)
                if (j != i && strncmp(names[j], me, flen) == 0 && names[j][flen] == ':') alone = 0;
            if (!shared && !alone) {
                arena_buf_add(&b, first ? ":" : ",");
                arena_buf_addn(&b, p, len);
                first = 0;
            }
            p += len + (e ? 1 : 0);
        }
    }
    if (space) arena_buf_add(&b, space);
    if (b.oom) {
        arena_buf_free(&b);
        return NULL;
    }
    return b.s;
}

/* Decade ticks from lo to hi: "(label value, ...)" and the range; a
 * label every every decades (the others ticks without one). */
static void decade_tics(struct arena_buf *b, double lo, double hi, int ns, int every, double *r0, double *r1)
{
    int a = (int)floor(log10(lo) + 1e-9), z = (int)ceil(log10(hi) - 1e-9);
    if (z <= a) z = a + 1;
    if (every < 1) every = 1;
    arena_buf_add(b, "(");
    for (int e = a; e <= z; e++) {
        double v = pow(10, e);
        char l[32];
        if (ns) {
            if (e >= 9) snprintf(l, sizeof l, "%g s", v / 1e9);
            else if (e >= 6) snprintf(l, sizeof l, "%g ms", v / 1e6);
            else if (e >= 3) snprintf(l, sizeof l, "%g \xC2\xB5s", v / 1e3);
            else snprintf(l, sizeof l, "%g ns", v);
        } else {
            if (e >= 6) snprintf(l, sizeof l, "%gM", v / 1e6);
            else if (e >= 3) snprintf(l, sizeof l, "%gk", v / 1e3);
            else snprintf(l, sizeof l, "%g", v);
        }
        arena_buf_printf(b, "%s'%s' %.17g", e == a ? "" : ", ", (e - a) % every ? "" : l, v);
    }
    arena_buf_add(b, ")");
    *r0 = 0.97 * pow(10, a);
    *r1 = 1.03 * pow(10, z);
}

/* The scaling figure's state (arena_plot_figure's steps below). */
struct scaling_fig {
    size_t G, nf, np, NP;
    size_t *cfg;       /* each graph's flavour, SIZE_MAX outside the configuration */
    char **names;      /* each flavour's name [nf] */
    char **size;       /* each graph's size parameters as text ("" none) */
    size_t *count;     /* each flavour's sizes */
    size_t *order;     /* the flavours drawn, most sizes first [np] */
    size_t *gs;        /* work: graphs of one panel and planner */
    double *tv, *nv;   /* work: tensors and times of one size */
    int own[256];      /* own[i]: shown planner i timed by its own report */
    char *lab[256];    /* the legend's labels */
    double t0, t1, n0, n1; /* the tensors' and times' extent */
    size_t limits;     /* points of a search stopped at its limit */
};

static int scaling_begin(struct plot_ctx *c, void *fig)
{
    /* The size parameters of the families; a flavour drops them and the seed. */
    static const char *const sizes[] = {"n", "tensors", "count", "ops", "steps", "layers",
                                        "blocks", "levels", NULL};
    static const char *const flavour_drop[] = {"n", "tensors", "count", "ops", "steps", "layers",
                                               "blocks", "levels", "seed", NULL};
    struct scaling_fig *f = fig;
    size_t G = f->G = c->d.n_graphs;
    f->cfg = malloc((G + 1) * sizeof *f->cfg);
    f->size = calloc(G + 1, sizeof *f->size);
    if (!f->cfg || !f->size || configs(c, flavour_drop, f->cfg, &f->names, &f->nf)) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    /* A flavour (a family and its parameters but size and seed) is drawn
     * when it has graphs of two sizes or more: a size is the value of its
     * size parameters, so seeds of one size are one point (their medians),
     * never a series. */
    size_t nf = f->nf;
    f->count = calloc(nf + 1, sizeof *f->count);
    f->order = malloc((nf + 1) * sizeof *f->order);
    f->gs = malloc((G + 1) * sizeof *f->gs);
    f->tv = malloc((G + 1) * sizeof *f->tv);
    f->nv = malloc((G + 1) * sizeof *f->nv);
    if (!f->count || !f->order || !f->gs || !f->tv || !f->nv) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    for (size_t g = 0; g < G; g++) /* the figures' configuration only */
        if (!arena_plot_in_config(c, g)) f->cfg[g] = SIZE_MAX;
    for (size_t g = 0; g < G; g++)
        if (!(f->size[g] = size_of(&c->d.graphs[g], sizes))) {
            snprintf(c->err, sizeof c->err, "out of memory");
            return 1;
        }
    for (size_t v = 0; v < nf; v++) {
        for (size_t g = 0; g < G; g++) {
            if (f->cfg[g] != v || !f->size[g][0]) continue;
            size_t h;
            for (h = 0; h < g; h++)
                if (f->cfg[h] == v && strcmp(f->size[h], f->size[g]) == 0) break;
            f->count[v] += h == g;
        }
    }
    size_t np = 0, *order = f->order;
    for (size_t v = 0; v < nf; v++)
        if (f->count[v] >= 2) order[np++] = v;
    for (size_t i = 1; i < np; i++)
        for (size_t j = i; j > 0 && f->count[order[j]] > f->count[order[j - 1]]; j--) {
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    f->np = np;
    if (!np) {
        arena_plot_note(
            c, "scaling figure skipped: the selected runs have no graphs of several sizes (seeds"
               " of one size are one point; try bench --graph scaling)");
        return PLOT_SKIP;
    }
    if (np > 4) arena_plot_note(c, "scaling figure shows 4 of %zu graph families", np);
    if (np > 2 && (c->o.sizes & 1))
        arena_plot_note(c, "one-column scaling figure shows the first 2 of its panels");
    f->NP = np > 4 ? 4 : np;
    return 0;
}

/* The lines of scaling.csv of panel p and shown planner i: per size, the
 * median tensors and the median of the planner's median times over the
 * size's graphs it has a valid result on, their range, and how many; sizes
 * by median tensors. */
static void scaling_rows(struct plot_ctx *c, struct scaling_fig *f, size_t p, size_t i,
                         struct arena_buf *b)
{
    size_t m = 0, *gs = f->gs;
    for (size_t g = 0; g < f->G; g++) {
        const struct arena_fig_result *r = arena_plot_find(c, g, c->sel[i].name);
        if (f->cfg[g] == f->order[p] && f->size[g][0] && r && r->ok && r->has_ns) gs[m++] = g;
    }
    /* group the graphs of one size together, sizes by tensors */
    for (size_t x = 1; x < m; x++)
        for (size_t y = x; y > 0 && c->d.graphs[gs[y]].tensors < c->d.graphs[gs[y - 1]].tensors; y--) {
            size_t t = gs[y];
            gs[y] = gs[y - 1];
            gs[y - 1] = t;
        }
    int *done_ = calloc(m + 1, sizeof *done_);
    if (!done_) {
        b->oom = 1;
        return;
    }
    double *tv = f->tv, *nv = f->nv;
    for (size_t x = 0; x < m; x++) {
        if (done_[x]) continue;
        size_t k = 0, lim = 0, noisy = 0;
        int own_here = 0; /* these times are the program's own report */
        struct arena_buf gl = {0};
        for (size_t y = x; y < m; y++) {
            if (done_[y] || strcmp(f->size[gs[y]], f->size[gs[x]]) != 0) continue;
            done_[y] = 1;
            const struct arena_fig_result *r = arena_plot_find(c, gs[y], c->sel[i].name);
            tv[k] = (double)c->d.graphs[gs[y]].tensors;
            /* a program's own report of its planning time, not its
             * process's (an interpreter's start would be all of it) */
            nv[k++] = r->has_self_ns ? r->self_ns : r->ns_median;
            if (r->has_self_ns && i < 256) f->own[i] = 1;
            own_here |= r->has_self_ns;
            lim += (size_t)arena_plot_is_limit(r);
            noisy += (size_t)r->noisy;
            if (gl.len) arena_buf_add(&gl, ";");
            arena_buf_add(&gl, c->d.graphs[gs[y]].spec);
        }
        qsort(tv, k, sizeof *tv, arena_plot_by_double);
        qsort(nv, k, sizeof *nv, arena_plot_by_double);
        double t = arena_plot_quantile(tv, k, 0.5), ns = arena_plot_quantile(nv, k, 0.5);
        if (!f->t0 || t < f->t0) f->t0 = t;
        if (t > f->t1) f->t1 = t;
        if (nv[0] > 0 && (!f->n0 || nv[0] < f->n0)) f->n0 = nv[0];
        if (nv[k - 1] > f->n1) f->n1 = nv[k - 1];
        f->limits += lim;
        arena_buf_printf(b, "%zu,%zu,%.17g,%.17g,%.17g,%.17g,%zu,%zu,%zu,", p + 1, i + 1, t, ns,
                         nv[0], nv[k - 1], k, lim, noisy);
        arena_plot_csv(b, c->sel[i].name);
        arena_buf_add(b, ",");
        arena_plot_csv(b, f->size[gs[x]]);
        arena_buf_add(b, ",");
        arena_plot_csv(b, gl.s ? gl.s : "");
        arena_buf_add(b, ",");
        arena_plot_csv(b, arena_plot_config_label(c));
        arena_buf_printf(b, ",%d\n", own_here);
        arena_buf_free(&gl);
    }
    free(done_);
}

/* scaling.csv. */
static int scaling_series(struct plot_ctx *c, void *fig)
{
    struct scaling_fig *f = fig;
    struct arena_buf b = {0};
    arena_buf_add(
        &b, "panel,row,tensors,plan_ns_median,plan_ns_min,plan_ns_max,seeds,limit,noisy,planner,"
            "size,graphs,config,own_report\n");
    for (size_t p = 0; p < f->NP; p++)
        for (size_t i = 0; i < c->n_sel && !b.oom; i++) scaling_rows(c, f, p, i, &b);
    int rc = arena_plot_put(c, "scaling.csv", &b);
    arena_buf_free(&b);
    return rc;
}

/* The axes at each size: the panels as scaling.gp lays them out (1 row of
 * up to 2 at one column, up to 2 x 2 at two), their height in the PNG (the
 * least): a decade labelled where its label fits, at least every third.
 * h: the page's height; kh: the legend's; x, y: the axes' ranges. */
static void scaling_axes(const struct scaling_fig *f, const double h[2], const double kh[2],
                         struct arena_buf xt[2], struct arena_buf yt[2], double x[2], double y[2])
{
    size_t NP = f->NP, NP1 = NP > 2 ? 2 : NP, R2 = (NP + 1) / 2;
    for (int k = 0; k < 2; k++) {
        double em = (k ? 8 : 7) / 72.0;
        size_t rows = k ? R2 : 1, cols = k ? (NP < 2 ? NP : 2) : (NP1 < 2 ? NP1 : 2);
        double ph =
            (h[k] - 0.5 - kh[k] - arena_plot_title_inches(k + 1) - (double)(rows - 1) * 0.5) /
                (double)rows -
            0.16;
        double pw = ((k ? 7.0 : 3.3) - (k ? 0.85 : 0.62) - 0.15 - (double)(cols - 1) * (k ? 0.6 : 0.3)) / (double)cols;
        int dy = (int)ceil(log10(f->n1) - 1e-9) - (int)floor(log10(f->n0) + 1e-9) + 1;
        int dx = (int)ceil(log10(f->t1) - 1e-9) - (int)floor(log10(f->t0) + 1e-9) + 1;
        decade_tics(&xt[k], f->t0, f->t1, 0, (int)ceil((double)dx * 4.0 * em / pw), &x[0], &x[1]);
        decade_tics(&yt[k], f->n0, f->n1, 1, (int)ceil((double)dy * 1.6 * em / ph), &y[0], &y[1]);
    }
}

/* scaling.gp, drawn. */
static int scaling_end(struct plot_ctx *c, void *fig)
{
    struct scaling_fig *f = fig;
    if (!(f->n0 > 0)) f->n0 = 1, f->n1 = 10;
    if (!(f->t0 > 0)) f->t0 = 1, f->t1 = 10;
    struct arena_buf gp = {0}, xt[2] = {{0}}, ytb[2] = {{0}};
    double x[2], y[2];
    size_t idx_all[256], nshow = c->n_sel < 256 ? c->n_sel : 256, NP = f->NP;
    for (size_t i = 0; i < nshow; i++) idx_all[i] = i;
    /* a program timed by its own report says so in the legend */
    for (size_t i = 0; i < nshow; i++) {
        struct arena_buf l = {0};
        arena_buf_add(&l, c->sel[i].label);
        if (f->own[i]) arena_buf_add(&l, " (own report)");
        f->lab[i] = l.s;
    }
    size_t NP1 = NP > 2 ? 2 : NP, R2 = (NP + 1) / 2;
    double longest = f->limits ? arena_plot_text_em("stopped at limit") : 0;
    for (size_t i = 0; i < nshow; i++)
        longest = fmax(longest, arena_plot_text_em(f->lab[i] ? f->lab[i] : c->sel[i].name));
    size_t nk = nshow + (f->limits ? 1 : 0), kc1 = arena_plot_key_columns(1, longest, 2),
           kc2 = arena_plot_key_columns(2, longest, 3);
    double kh[2] = {(double)((nk + kc1 - 1) / kc1) * 0.15, (double)((nk + kc2 - 1) / kc2) * 0.17};
    char sub[320];
    if (c->d.n_runs == 1)
        snprintf(sub, sizeof sub, "run %lld \xC2\xB7 %.250s", (long long)c->d.runs[0],
                 arena_plot_config_label(c));
    else
        snprintf(sub, sizeof sub, "%zu runs \xC2\xB7 %.250s", c->d.n_runs,
                 arena_plot_config_label(c));
    double h[2] = {2.2 + kh[0], 1.0 + 2.4 * (double)R2 + kh[1]};
    scaling_axes(f, h, kh, xt, ytb, x, y);
    arena_plot_gp_head(c, &gp, "scaling", "Planning time against problem size", sub, NULL, h[0],
                       h[1]);
    arena_plot_gp_common(c, &gp);
    arena_plot_gp_styles(&gp, c->sel, idx_all, f->lab, nshow, 40);
    arena_buf_printf(
        &gp,
        "NP = %zu; NP1 = %zu; X0 = %.17g; X1 = %.17g; Y0 = %.17g; Y1 = %.17g; KC1 = %zu;"
        " KC2 = %zu\n",
        NP, NP1, x[0], x[1], y[0], y[1], kc1, kc2);
    for (int k = 0; k < 2; k++)
        arena_buf_printf(&gp, "XTICS%d = \"%s\"; YTICS%d = \"%s\"\n", k + 1,
                         xt[k].s ? xt[k].s : "()", k + 1, ytb[k].s ? ytb[k].s : "()");
    arena_buf_printf(&gp, "array PT[%zu]; array PT1[%zu]\n", NP, NP);
    for (size_t p = 0; p < NP; p++) {
        char *sl = short_label(f->names, f->nf, f->order[p]);
        arena_buf_printf(&gp, "PT[%zu] = ", p + 1);
        arena_plot_gq_cut(&gp, sl ? sl : f->names[f->order[p]], 60, "...");
        arena_buf_printf(&gp, "; PT1[%zu] = ", p + 1);
        arena_plot_gq_cut(&gp, sl ? sl : f->names[f->order[p]], 22, "...");
        arena_buf_add(&gp, "\n");
        free(sl);
    }
    const char *keys[] = {"LIMITKEY"};
    const char *vals[] = {f->limits ? ", \\\n       NaN with points pt 2 ps 1 lc rgb '#000000' title"
                                      " 'stopped at limit'"
                                    : ""};
    arena_buf_printf(&gp, "NL = %zu\n", f->limits);
    int rc = xt[0].oom || ytb[0].oom || xt[1].oom || ytb[1].oom
                 ? 1
                 : arena_plot_draw(c, "scaling", &gp, keys, vals, 1);
    arena_buf_free(&gp);
    for (int k = 0; k < 2; k++) {
        arena_buf_free(&xt[k]);
        arena_buf_free(&ytb[k]);
    }
    return rc;
}

static void scaling_free(void *fig)
{
    struct scaling_fig *f = fig;
    free(f->count);
    free(f->order);
    free(f->gs);
    free(f->tv);
    free(f->nv);
    for (size_t g = 0; f->size && g < f->G; g++) free(f->size[g]);
    free(f->size);
    free(f->cfg);
    free_names(f->names, f->nf);
    for (size_t i = 0; i < 256; i++) free(f->lab[i]);
}

int arena_plot_fig_scaling(struct plot_ctx *c)
{
    static const struct plot_figure steps = {scaling_begin, scaling_series, scaling_end,
                                              scaling_free};
    struct scaling_fig f = {0};
    return arena_plot_figure(c, &steps, &f);
}

/* The stats chart's panels at size s (1: 3.3 in, 7 pt; 2: 7 in, 8 pt), in
 * inches: a panel per group, the rows' labels under the bottom panel of
 * each column, turned by 90 degrees, a slot each (a line of text and 0.3
 * em apart); as many columns as hold every slot (at most 2 at one column,
 * 3 at two), rows up to the page (2 at one column, 4 at two); at one
 * column of panels, the slots past its width are not drawn. ph is a
 * panel's height in the PDF and SVG, ph_png in the PNG, whose title takes
 * the top of the same page. */
struct stats_grid {
    size_t cols, rows, shown, slots, name_chars, title_chars;
    double h, left, right, bottom, top, gx, gy, pw, ph, ph_png;
};

static void stats_grid(struct stats_grid *q, int s, size_t np, size_t nslots, char *const *lab,
                       double foot)
{
    double em = (s == 1 ? 7 : 8) / 72.0, w = s == 1 ? 3.3 : 7.0, slot = 1.463 * em;
    q->left = s == 1 ? 0.45 : 0.55;
    q->right = 0.1;
    q->gx = s == 1 ? 0.45 : 0.55;
    q->gy = s == 1 ? 0.28 : 0.32;
    q->top = 0.3; /* the y label's line */
    double avail = w - q->left - q->right;
    size_t most = s == 1 ? 2 : 3;
    q->cols = 1;
    while (q->cols < most && q->cols < np &&
           (double)(q->cols + 1) * ((double)nslots * slot) + (double)q->cols * q->gx <= avail)
        q->cols++;
    q->pw = (avail - (double)(q->cols - 1) * q->gx) / (double)q->cols;
    q->slots = nslots;
    if ((double)nslots * slot > q->pw) q->slots = (size_t)floor(q->pw / slot);
    size_t rmost = s == 1 ? 2 : 4;
    q->rows = (np + q->cols - 1) / q->cols;
    if (q->rows > rmost) q->rows = rmost;
    q->shown = q->rows * q->cols < np ? q->rows * q->cols : np;
    /* the labels shown, cut at 26 characters: the longest, in ems */
    q->name_chars = 26;
    double longest = 0;
    for (size_t i = 0; i < q->slots; i++) {
        struct arena_buf t = {0};
        arena_plot_caret(&t, lab[i]);
        if (t.s && arena_utf8_chars(t.s) > q->name_chars)
            t.s[arena_utf8_prefix(t.s, q->name_chars)] = '\0';
        longest = fmax(longest, arena_plot_text_em(t.s ? t.s : ""));
        arena_buf_free(&t);
    }
    q->bottom = 0.15 + longest * em + foot;
    /* The panels take at least a third of the page, in the PNG too (whose
     * title comes off them): the turned labels under them (up to 26
     * characters), the foot and the title would leave a one-column panel a
     * sliver. */
    double fixed = q->top + (double)q->rows * q->gy + q->bottom, title = arena_plot_title_inches(s);
    q->ph = fmax(s == 1 ? 0.95 : 1.25, (fixed / 2 + 1.5 * title) / (double)q->rows + 0.05);
    q->h = q->top + (double)q->rows * (q->ph + q->gy) + q->bottom;
    q->ph_png = q->ph - title / (double)q->rows;
    q->title_chars = (size_t)(q->pw / (0.62 * em));
}

/* A planner of the user's own: a plugin or a program (cmd:), whose stored
 * name carries its origin, "NAME (plugin 1a2b3c4d)", "NAME (cmd ...)". */
static int stats_user_planner(const char *name)
{
    const char *p = strrchr(name, '(');
    return p && p > name && p[-1] == ' ' &&
           (strncmp(p, "(plugin ", 8) == 0 || strncmp(p, "(cmd", 4) == 0);
}

/* Reorders the n slots (labels lab, planners idx, the rows' slots rslot[0..nr))
 * so that the first keep hold the user's planners and as many built-ins as
 * are left room, in their order, the built-ins that do not fit last. */
static void stats_keep_users(const struct plot_ctx *c, size_t keep, size_t n, char **lab,
                             size_t *idx, size_t *rslot, size_t nr)
{
    size_t users = 0, pos[256], at = 0;
    for (size_t i = 0; i < n; i++) users += (size_t)stats_user_planner(c->sel[idx[i]].name);
    size_t builtins = keep > users ? keep - users : 0, seen = 0;
    for (size_t i = 0; i < n; i++) /* the built-ins that fit */
        if (!stats_user_planner(c->sel[idx[i]].name) && seen++ < builtins) pos[i] = at++;
    for (size_t i = 0; i < n; i++)
        if (stats_user_planner(c->sel[idx[i]].name)) pos[i] = at++;
    seen = 0;
    for (size_t i = 0; i < n; i++)
        if (!stats_user_planner(c->sel[idx[i]].name) && seen++ >= builtins) pos[i] = at++;
    char *l2[256];
    size_t i2[256];
    for (size_t i = 0; i < n; i++) {
        l2[pos[i]] = lab[i];
        i2[pos[i]] = idx[i];
    }
    memcpy(lab, l2, n * sizeof *lab);
    memcpy(idx, i2, n * sizeof *idx);
    for (size_t k = 0; k < nr; k++)
        if (rslot[k]) rslot[k] = pos[rslot[k] - 1] + 1;
}

/* The stats figure's state (arena_plot_figure's steps below). */
struct stats_fig {
    const char **planners; /* the shown planners' names, the query's */
    struct arena_stats s;
    size_t R, ng, np, paired_total, lab_n;
    char **gnames;   /* each group's label [ng] */
    size_t *gfirst;  /* each group's first row [ng + 1] */
    size_t *rpanel;  /* each row's panel, 1-based; 0: not drawn */
    size_t *rslot;   /* each row's x place, 1-based; 0: none */
    size_t *pgroup;  /* each panel's group */
    int *off;        /* a row over ARENA_PLOT_BAND x its panel's best mean (over --range's
                        end): marked, not drawn to scale */
    char *lab[256];  /* each x place's label */
    size_t idx[256]; /* each x place's shown planner */
    struct arena_buf notes, cap, unpaired, foot;
    struct stats_grid gr[2];
};

/* bench stats' rows for the shown planners in the figures' configuration:
 * 0, PLOT_SKIP (a database bench stats does not read: noted), or 1 / 2. */
static int stats_query(struct plot_ctx *c, struct stats_fig *f)
{
    size_t S = c->n_sel;
    char run[32];
    if (c->o.run == 0 || !c->d.n_runs) snprintf(run, sizeof run, "all");
    else snprintf(run, sizeof run, "%lld", (long long)c->d.runs[0]);
    f->planners = malloc((S + 1) * sizeof *f->planners);
    if (!f->planners) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    for (size_t i = 0; i < S; i++) f->planners[i] = c->sel[i].name;
    /* the figures' configuration only, with every other selection */
    struct arena_select sel = c->o.f.sel;
    const struct arena_config *k = &c->d.configs[c->cfg].c;
    sel.inplace = k->inplace;
    sel.order = k->order;
    sel.patch = k->patch;
    sel.alignment = k->alignment;
    struct arena_stats_query q = {.run = run, .planners = f->planners, .n_planners = S,
                                  .select = &sel, .renames = c->o.labels,
                                  .n_renames = c->o.n_labels};
    char why[sizeof c->err];
    int rc = arena_stats_compute_query(c->o.f.db, &q, &f->s, why, sizeof why);
    if (rc == ARENA_EDB) { /* a database bench plot reads but bench stats does not */
        arena_plot_note(c, "stats figure skipped: %s", why);
        return PLOT_SKIP;
    }
    if (rc) {
        snprintf(c->err, sizeof c->err, "%s", why);
        return rc == ARENA_ENOMEM ? 1 : 2;
    }
    size_t R = f->R = f->s.n_rows;
    f->gnames = malloc((R + 1) * sizeof *f->gnames);
    f->gfirst = malloc((R + 2) * sizeof *f->gfirst);
    f->rpanel = calloc(R + 1, sizeof *f->rpanel);
    f->rslot = calloc(R + 1, sizeof *f->rslot);
    f->off = calloc(R + 1, sizeof *f->off);
    f->pgroup = malloc((R + 1) * sizeof *f->pgroup);
    if (!f->gnames || !f->gfirst || !f->rpanel || !f->rslot || !f->pgroup || !f->off) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    /* The groups: runs of rows with one group label. */
    for (size_t r = 0; r < R; r++)
        if (!r || strcmp(f->s.rows[r].group, f->s.rows[r - 1].group) != 0) {
            f->gnames[f->ng] = f->s.rows[r].key; /* the configuration is one: in the caption */
            f->gfirst[f->ng++] = r;
        }
    f->gfirst[f->ng] = R;
    return 0;
}

/* Group g as a panel (when it has two paired graphs), its rows placed and
 * what it leaves out said in f->notes and f->unpaired. */
static void stats_panel(struct plot_ctx *c, struct stats_fig *f, size_t g)
{
    const struct arena_stats *s = &f->s;
    size_t a = f->gfirst[g], e = f->gfirst[g + 1];
    size_t paired = s->rows[a].n, graphs = paired + s->rows[a].n_left_out;
    char *sl = short_label(f->gnames, f->ng, g);
    struct arena_buf sh = {0};
    arena_plot_caret(&sh, sl ? sl : f->gnames[g]);
    free(sl);
    if (paired < 2) { /* one seed has no spread to show */
        arena_buf_printf(&f->notes, "%s%s: %zu paired graph%s (a panel needs two)",
                         f->notes.len ? "; " : "", sh.s ? sh.s : "", paired,
                         paired == 1 ? "" : "s");
        arena_buf_free(&sh);
        return;
    }
    double bestmean = INFINITY;
    for (size_t k = a; k < e; k++) bestmean = fmin(bestmean, s->rows[k].lb.mean);
    struct arena_buf out = {0}, failed = {0};
    f->pgroup[f->np++] = g;
    f->paired_total += paired;
    for (size_t k = a; k < e; k++) {
        f->rpanel[k] = f->np;
        if (s->rows[k].lb.mean > (c->o.range_hi > 0 ? c->o.range_hi : ARENA_PLOT_BAND * bestmean)) {
            f->off[k] = 1;
            if (out.len) arena_buf_add(&out, ", ");
            arena_plot_caret(&out, s->rows[k].label);
        }
    }
    for (size_t h = 0; h < s->n_hidden; h++) {
        const struct arena_stats_row *u = &s->hidden[h];
        if (strcmp(u->group, s->rows[a].group) != 0) continue;
        if (u->unpaired) { /* named in the figure: the foot */
            arena_buf_add(&f->unpaired, f->unpaired.len ? "; " : "");
            arena_plot_caret(&f->unpaired, u->label);
            arena_buf_printf(&f->unpaired, ": %zu of %zu graphs", u->n_valid, graphs);
            if (f->ng > 1) {
                arena_buf_add(&f->unpaired, " of ");
                arena_buf_add(&f->unpaired, sh.s ? sh.s : "");
            }
            continue;
        }
        if (failed.len) arena_buf_add(&failed, ", ");
        arena_plot_caret(&failed, u->label);
    }
    struct arena_buf *notes = &f->notes;
    if (paired < graphs || out.len || failed.len) {
        arena_buf_printf(notes, "%s%s: ", notes->len ? "; " : "", sh.s ? sh.s : "");
        const char *sep = "";
        if (paired < graphs) {
            arena_buf_printf(notes, "%zu of %zu graphs paired", paired, graphs);
            sep = ", ";
        }
        if (out.len) {
            if (c->o.range_hi > 0)
                arena_buf_printf(notes, "%s%s over %g (--range; marked at the top)", sep, out.s,
                                 c->o.range_hi);
            else
                arena_buf_printf(notes, "%s%s over %gx the best mean (marked at the top)", sep,
                                 out.s, ARENA_PLOT_BAND);
            sep = ", ";
        }
        if (failed.len)
            arena_buf_printf(notes, "%s%s with no valid result", sep, failed.s);
    }
    arena_buf_free(&sh);
    arena_buf_free(&out);
    arena_buf_free(&failed);
}

/* A row label keeps one x place in every panel: planners in the order
 * shown, a planner's option configurations in the order of the rows. */
static int stats_slots(struct plot_ctx *c, struct stats_fig *f)
{
    const struct arena_stats *s = &f->s;
    int rc = 0;
    for (size_t i = 0; i < c->n_sel; i++)
        for (size_t k = 0; k < f->R; k++) {
            if (!f->rpanel[k] || f->rslot[k] || strcmp(s->rows[k].planner, c->sel[i].name) != 0)
                continue;
            if (f->lab_n == 256) break;
            size_t slot = ++f->lab_n, lim = 0;
            f->idx[slot - 1] = i;
            for (size_t m = k; m < f->R; m++)
                if (f->rpanel[m] && strcmp(s->rows[m].label, s->rows[k].label) == 0) {
                    f->rslot[m] = slot;
                    lim += s->rows[m].limit;
                }
            struct arena_buf l = {0}; /* stats labels the rows, --label included */
            arena_buf_add(&l, s->rows[k].label);
            if (lim) arena_buf_printf(&l, " (%zu limit)", lim);
            f->lab[slot - 1] = l.s;
            if (!l.s) rc = 1;
        }
    return rc;
}

/* The caption, the foot and the grid at each size. The rows a one-column
 * figure has no room for are named in its foot, never left out silently,
 * and they are built-ins (the last of them) before any planner of the
 * user's own (a plugin or a program, listed last): the slots are
 * reordered, at both sizes alike. */
static void stats_page(struct plot_ctx *c, struct stats_fig *f)
{
    arena_buf_printf(&f->cap, "%s: %zu group%s, %zu paired graphs, %zu run%s",
                     arena_plot_config_label(c), f->np, f->np == 1 ? "" : "s", f->paired_total,
                     c->d.n_runs, c->d.n_runs == 1 ? "" : "s");
    if (f->notes.len) arena_buf_printf(&f->cap, "; left out: %s", f->notes.s);
    const char *unpaired = f->unpaired.s ? f->unpaired.s : "";
    if (f->unpaired.len) {
        arena_buf_printf(&f->cap, "; %s%s", UNPAIRED, unpaired);
        arena_plot_note(c, "stats: %s%s", UNPAIRED, unpaired);
    }
    double fh[2];
    arena_plot_gp_foot(&f->foot, UNPAIRED, unpaired, fh);
    for (int k = 0; k < 2; k++)
        stats_grid(&f->gr[k], k + 1, f->np, f->lab_n, f->lab, fh[k]);
    if (f->gr[0].slots >= f->lab_n) return;
    stats_keep_users(c, f->gr[0].slots, f->lab_n, f->lab, f->idx, f->rslot, f->R);
    struct arena_buf more = {0};
    arena_buf_add(&more, "not shown at one column (no room): ");
    for (size_t i = f->gr[0].slots; i < f->lab_n; i++) {
        if (i > f->gr[0].slots) arena_buf_add(&more, ", ");
        arena_plot_caret(&more, f->lab[i]);
    }
    arena_buf_free(&f->foot);
    arena_plot_gp_foot_sizes(&f->foot, UNPAIRED, unpaired, unpaired, more.s, fh);
    arena_buf_free(&more);
    for (int k = 0; k < 2; k++)
        stats_grid(&f->gr[k], k + 1, f->np, f->lab_n, f->lab, fh[k]);
}

static int stats_begin(struct plot_ctx *c, void *fig)
{
    struct stats_fig *f = fig;
    int rc = stats_query(c, f);
    if (rc) return rc;
    for (size_t g = 0; g < f->ng; g++) stats_panel(c, f, g);
    if (!f->np) {
        arena_plot_note(
            c, "stats figure skipped: no configuration with two graphs (seeds) on which every"
               " planner has a valid result (try a sweep over seeds)");
        return PLOT_SKIP;
    }
    if (f->notes.len) arena_plot_note(c, "stats: %s", f->notes.s);
    rc = stats_slots(c, f);
    stats_page(c, f);
    return rc;
}

/* stats.csv: a line per row drawn. */
static int stats_series(struct plot_ctx *c, void *fig)
{
    struct stats_fig *f = fig;
    struct arena_buf b = {0};
    arena_buf_add(
        &b, "panel,row,n,mean,mean_lo,mean_hi,median,median_lo,median_hi,graphs,limit,off_scale,"
            "group,planner,label,config\n");
    for (size_t k = 0; k < f->R; k++) {
        const struct arena_stats_row *r = &f->s.rows[k];
        if (!f->rpanel[k] || !f->rslot[k]) continue;
        arena_buf_printf(&b, "%zu,%zu,%zu,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%zu,%zu,%d,", f->rpanel[k],
                         f->rslot[k], r->n, r->lb.mean, r->lb.mean_lo, r->lb.mean_hi,
                         r->lb.median, r->lb.median_lo, r->lb.median_hi, r->n + r->n_left_out,
                         r->limit, f->off[k]);
        arena_plot_csv(&b, r->group);
        arena_buf_add(&b, ",");
        arena_plot_csv(&b, r->planner);
        arena_buf_add(&b, ",");
        arena_plot_csv(&b, r->label);
        arena_buf_add(&b, ",");
        arena_plot_csv(&b, arena_plot_config_label(c));
        arena_buf_add(&b, "\n");
    }
    int rc = arena_plot_put(c, "stats.csv", &b);
    arena_buf_free(&b);
    if (rc) return rc;
    for (int k = 0; k < 2; k++) {
        if (!(c->o.sizes & (k + 1))) continue;
        if (f->gr[k].shown < f->np)
            arena_plot_note(c, "%s stats figure shows the first %zu of its %zu panels",
                            k ? "two-column" : "one-column", f->gr[k].shown, f->np);
        if (f->gr[k].slots < f->lab_n)
            arena_plot_note(c, "%s stats figure shows %zu of its %zu rows (planners; built-ins left out"
                               " first, named in its foot)",
                            k ? "two-column" : "one-column", f->gr[k].slots, f->lab_n);
    }
    return 0;
}

/* The grid at each size as gnuplot variables, the x places' labels among
 * them. */
static void stats_gp_grid(const struct stats_fig *f, struct arena_buf *gp)
{
    for (int k = 0; k < 2; k++) {
        const struct stats_grid *q = &f->gr[k];
        arena_buf_printf(
            gp,
            "C%d = %zu; NPS%d = %zu; SLOTS%d = %zu; L%d = %.3f; R%d = %.3f; B%d = %.3f;"
            " T%d = %.3f; GX%d = %.3f; GY%d = %.3f\nXTICS%d = \"(",
            k + 1, q->cols, k + 1, q->shown, k + 1, q->slots, k + 1, q->left, k + 1, q->right,
            k + 1, q->bottom, k + 1, q->top, k + 1, q->gx, k + 1, q->gy, k + 1);
        for (size_t i = 0; i < q->slots; i++) {
            struct arena_buf t = {0};
            arena_plot_gq_cut(&t, f->lab[i], q->name_chars, "..");
            /* a string inside the double-quoted XTICS: its backslashes and quotes escaped */
            for (const char *x = t.s ? t.s : ""; *x; x++) {
                if (*x == '\\' || *x == '"') arena_buf_add(gp, "\\");
                arena_buf_addn(gp, x, 1);
            }
            arena_buf_printf(gp, " %zu%s", i + 1, i + 1 < q->slots ? ", " : "");
            arena_buf_free(&t);
        }
        arena_buf_add(gp, ")\"\n");
    }
}

/* Each panel's y range over the intervals drawn (rows off its scale
 * apart), 5 % more each way, and its tic step at each size: labels (1.163
 * em boxes) 0.4 em apart at least. */
static void stats_gp_ranges(const struct stats_fig *f, struct arena_buf *gp)
{
    size_t np = f->np;
    arena_buf_printf(gp, "array Y0[%zu]; array Y1[%zu]; array YS1[%zu]; array YS2[%zu]\n", np, np,
                     np, np);
    for (size_t p = 0; p < np; p++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t k = 0; k < f->R; k++)
            if (f->rpanel[k] == p + 1 && !f->off[k] && f->rslot[k]) {
                lo = fmin(lo, f->s.rows[k].lb.mean_lo);
                hi = fmax(hi, f->s.rows[k].lb.mean_hi);
            }
        if (!(lo <= hi)) lo = hi = 1;
        lo = fmin(lo, 1); /* 1x, the bound, is on every panel's axis */
        double r = fmax(hi - lo, 0.01 * hi);
        lo -= 0.05 * r;
        hi += 0.05 * r;
        arena_buf_printf(gp, "Y0[%zu] = %.17g; Y1[%zu] = %.17g", p + 1, lo, p + 1, hi);
        for (int k = 0; k < 2; k++) {
            double em = (k ? 8 : 7) / 72.0;
            int fit = (int)floor(f->gr[k].ph_png / (1.563 * em));
            arena_buf_printf(gp, "; YS%d[%zu] = %.17g", k + 1, p + 1,
                             arena_plot_nice_step(hi - lo, fit < 1 ? 1 : fit));
        }
        arena_buf_add(gp, "\n");
    }
}

/* Each panel's title at each size: its group and n. n is what matters, and
 * the end of the label tells panels of one family apart: a label too long
 * loses its start, never n. */
static void stats_gp_titles(const struct stats_fig *f, struct arena_buf *gp)
{
    for (size_t p = 0; p < f->np; p++) {
        const struct arena_stats_row *r = &f->s.rows[f->gfirst[f->pgroup[p]]];
        char *sl = short_label(f->gnames, f->ng, f->pgroup[p]);
        struct arena_buf t = {0}, n = {0};
        arena_plot_caret(&t, sl ? sl : r->group);
        arena_buf_printf(&n, " (n=%zu", r->n);
        if (r->n_left_out) arena_buf_printf(&n, " of %zu", r->n + r->n_left_out);
        arena_buf_add(&n, ")");
        for (int k = 0; k < 2; k++) {
            size_t room = f->gr[k].title_chars > arena_utf8_chars(n.s) + 4
                              ? f->gr[k].title_chars - arena_utf8_chars(n.s)
                              : 4;
            size_t have = t.s ? arena_utf8_chars(t.s) : 0;
            struct arena_buf title = {0};
            if (have > room) {
                arena_buf_add(&title, "...");
                arena_buf_add(&title, t.s + arena_utf8_prefix(t.s, have - (room - 3)));
            } else {
                arena_buf_add(&title, t.s ? t.s : "");
            }
            arena_buf_add(&title, n.s ? n.s : "");
            arena_buf_printf(gp, "%sPT%d[%zu] = ", k ? "; " : "", k + 1, p + 1);
            arena_plot_gq(gp, title.s ? title.s : "", 0);
            arena_buf_free(&title);
        }
        arena_buf_free(&n);
        arena_buf_add(gp, "\n");
        arena_buf_free(&t);
        free(sl);
    }
}

/* stats.gp, drawn. */
static int stats_end(struct plot_ctx *c, void *fig)
{
    struct stats_fig *f = fig;
    struct arena_buf gp = {0};
    arena_plot_gp_head(c, &gp, "stats", "Arena / lower bound across graphs: mean, bootstrap 95% CI",
                       f->cap.s ? f->cap.s : "", f->cap.s, f->gr[0].h, f->gr[1].h);
    arena_buf_add(&gp, f->foot.s ? f->foot.s : "");
    arena_plot_gp_common(c, &gp);
    arena_plot_gp_styles(&gp, c->sel, f->idx, f->lab, f->lab_n, 40);
    arena_buf_printf(&gp, "NP = %zu; array PT1[%zu]; array PT2[%zu]\n", f->np, f->np, f->np);
    stats_gp_grid(f, &gp);
    arena_buf_add(&gp, "YLABEL = 'mean arena / lower bound, bootstrap 95 % CI'\n");
    stats_gp_ranges(f, &gp);
    stats_gp_titles(f, &gp);
    int rc = arena_plot_draw(c, "stats", &gp, NULL, NULL, 0);
    arena_buf_free(&gp);
    return rc;
}

static void stats_free(void *fig)
{
    struct stats_fig *f = fig;
    for (size_t i = 0; i < f->lab_n; i++) free(f->lab[i]);
    free(f->planners);
    free(f->gnames);
    free(f->gfirst);
    free(f->rpanel);
    free(f->rslot);
    free(f->pgroup);
    free(f->off);
    arena_stats_free(&f->s);
    arena_buf_free(&f->notes);
    arena_buf_free(&f->cap);
    arena_buf_free(&f->unpaired);
    arena_buf_free(&f->foot);
}

/* The stats chart draws what `bench stats` computes: arena_stats_compute_query
 * (results/stats.h) on the same database, run selection and planners, so
 * its numbers are those of bench stats --format csv by construction. A
 * panel is a group (the graphs' configuration, seeds apart); a point is a
 * row (a planner with its options, named by its label, under the x axis).
 * A group whose rows share fewer than two graphs is left out (the notes
 * say so); a row whose mean is over ARENA_PLOT_BAND x the panel's best (or --range's end) is drawn as a mark
 * at the panel's top with its mean, its scale not the panel's. */
int arena_plot_fig_stats(struct plot_ctx *c)
{
    static const struct plot_figure steps = {stats_begin, stats_series, stats_end, stats_free};
    struct stats_fig f = {0};
    return arena_plot_figure(c, &steps, &f);
}
