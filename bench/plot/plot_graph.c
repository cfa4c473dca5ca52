/* plot_graph.c — `bench plot`'s per-graph figures for the graph chosen:
 * arena (bars per planner), layout (each plan's tensors as rectangles) and
 * live (bytes live per step against each arena), with arena.csv (behind
 * the tables too); replay and tables are called from here. */
#include "bench/plot/plot_internal.h"

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
    struct arena_buf miss = {0};
    for (size_t i = 0; i < c->n_sel; i++) {
        const struct arena_fig_result *r = arena_plot_find(c, c->graph, c->sel[i].name);
        if (!r) {
            if (miss.len) arena_buf_add(&miss, ", ");
            arena_plot_caret(&miss, c->sel[i].name);
            continue;
        }
        idx[n] = i;
        res[n++] = r;
    }
    if (miss.len) {
        struct arena_buf g = {0};
        arena_plot_caret(&g, c->d.graphs[c->graph].spec);
        arena_plot_note(c, "not measured on %s: %s", g.s ? g.s : "", miss.s);
        arena_buf_free(&g);
    }
    arena_buf_free(&miss);
    return n;
}

/* The figure's subtitle: the graph and its configuration. */
static char *graph_sub(const struct plot_ctx *c)
{
    struct arena_buf b = {0};
    arena_buf_add(&b, c->d.graphs[c->graph].spec);
    arena_buf_add(&b, " \xC2\xB7 ");
    arena_buf_add(&b, arena_plot_config_label(c));
    if (b.oom) arena_buf_free(&b);
    return b.s;
}

static int write_arena_csv(struct plot_ctx *c, const size_t *idx, const struct arena_fig_result **res,
                           size_t n)
{
    const struct arena_fig_graph *g = &c->d.graphs[c->graph];
    struct arena_buf b = {0};
    arena_buf_add(&b,
                       "row,ok,limit,arena_bytes,lower_bound,naive_bytes,ratio_lb,saving,frag_peak,"
                       "frag_mean,plan_ns_median,plan_ns_mean,plan_ns_stddev,iterations,"
                       "scratch_bytes,bound,nodes,run,status,planner,config\n");
    for (size_t i = 0; i < n; i++) {
        const struct arena_fig_result *r = res[i];
        arena_buf_printf(&b, "%zu,%d,%d", i + 1, r->ok, arena_plot_is_limit(r));
        if (r->ok) arena_buf_printf(&b, ",%lld", (long long)r->arena);
        else arena_buf_add(&b, ",");
        arena_buf_printf(&b, ",%lld,%lld", (long long)g->lower_bound, (long long)g->naive);
        arena_plot_csv_num(&b, r->has_ratio, r->ratio_lb);
        arena_plot_csv_num(&b, r->has_saving, r->saving);
        arena_plot_csv_num(&b, r->has_frag, r->frag_peak);
        arena_plot_csv_num(&b, r->has_frag, r->frag_mean);
        arena_plot_csv_num(&b, r->has_ns, r->ns_median);
        arena_plot_csv_num(&b, r->has_ns, r->ns_mean);
        arena_plot_csv_num(&b, r->has_ns, r->ns_stddev);
        arena_buf_printf(&b, ",%lld", (long long)r->iterations);
        arena_plot_csv_num(&b, r->has_scratch, (double)r->scratch);
        if (r->has_bound)
            arena_buf_printf(&b, ",%lld,%lld", (long long)r->bound, (long long)r->nodes);
        else arena_buf_add(&b, ",,");
        arena_buf_printf(&b, ",%lld,", (long long)r->run_id);
        arena_plot_csv(&b, r->status ? r->status : "");
        arena_buf_add(&b, ",");
        arena_plot_csv(&b, c->sel[idx[i]].name);
        arena_buf_add(&b, ",");
        arena_plot_csv(&b, arena_plot_config_label(c));
        arena_buf_add(&b, "\n");
    }
    int rc = arena_plot_put(c, "arena.csv", &b);
    arena_buf_free(&b);
    return rc;
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
    arena_plot_byte_unit(xmax, &U, &uname);
    /* The legend's entries: lower bound, naive, and the optimum (or best
     * bound) and best-order bound when drawn; 2 a row at one column, 4 at
     * two, in a strip of its own. */
    int ob = g->order_limit && g->order_bound > 0;
    size_t nk = 2 + (c->ref ? 1 : 0) + (size_t)ob;
    double longest =
        arena_plot_text_em(g->order_bound > 0 ? "lower bound, best order" : "best-order bound");
    size_t kc1 = arena_plot_key_columns(1, longest, 2), kc2 = arena_plot_key_columns(2, longest, 4);
    double k1 = (double)((nk + kc1 - 1) / kc1) * 0.15, k2 = (double)((nk + kc2 - 1) / kc2) * 0.17;
    double h1 = 1.0 + 0.16 * (double)n + k1, h2 = 1.1 + 0.24 * (double)n + k2;
    if (h1 < 1.8) h1 = 1.8;
    if (h1 > 4.4) h1 = 4.4;
    if (h2 < 2.4) h2 = 2.4;
    struct arena_buf gp = {0}, yt = {0}, refkey = {0};
    char *sub = graph_sub(c);
    arena_plot_gp_head(c, &gp, "arena", "Arena per planner", sub ? sub : g->spec, NULL, h1, h2);
    free(sub);
    arena_plot_gp_common(c, &gp);
    arena_plot_gp_styles(&gp, c->sel, idx, lab, n, 40);
    arena_buf_printf(
        &gp,
        "U = %.1f; UNAME = '%s'; XMAX = %.17g; LB = %lld; NAIVE = %lld; REF = %lld;"
        " NK = %zu; KC1 = %zu; KC2 = %zu\n",
        U, uname, xmax, (long long)g->lower_bound, (long long)g->naive, (long long)c->ref, nk, kc1,
        kc2);
    /* --order best: the bound is the best order's peak (and the search's
     * proven bound, drawn apart when it stopped at its budget below it) */
    arena_buf_printf(&gp, "OB = %lld; LBTITLE = '%s'\n",
                          (long long)(g->order_limit ? g->order_bound : 0),
                          g->order_bound > 0 ? "lower bound, best order" : "lower bound");
    arena_buf_printf(&gp, "XSTEP1 = %.17g; XSTEP2 = %.17g\n",
                          arena_plot_nice_step(xmax / U * 1.04, 4),
                          arena_plot_nice_step(xmax / U * 1.5, 8));
    arena_plot_ytics_names(&yt, lab, n, 0);
    if (c->ref)
        arena_buf_printf(&refkey,
                              ", \\\n       NaN with lines dt 4 lw 1.2 lc rgb '#000000' title '%s'",
                              c->ref_opt ? "optimum" : "best bound");
    const char *obkey = ob ? ", \\\n       NaN with lines dt 5 lw 1 lc rgb '#333333' title"
                              " 'best-order bound'"
                            : "";
    const char *keys[] = {"YTICS", "REFKEY", "OBKEY"};
    const char *vals[] = {yt.s ? yt.s : "()", refkey.s ? refkey.s : "", obkey};
    int rc = yt.oom || refkey.oom ? (snprintf(c->err, sizeof c->err, "out of memory"), 1)
                                  : arena_plot_draw(c, "arena", &gp, keys, vals, 3);
    arena_buf_free(&gp);
    arena_buf_free(&yt);
    arena_buf_free(&refkey);
    return rc;
}

/* Explicit byte ticks for a panel up to top (in units): 0, step, ..., the
 * last with the unit's name, at most nt steps; *ymax keeps the top tick's
 * label below the panel's top by the fraction clear of its height. */
static void byte_ticks(struct arena_buf *b, double top, const char *uname, int nt, double clear, double *ymax)
{
    double step = arena_plot_nice_step(top, nt);
    if (step > top) /* one step: the 1, 2, 5 value below top, not above it */
        step /= step / pow(10, floor(log10(step) + 1e-9)) > 3 ? 2.5 : 2;
    int k = (int)floor(top / step + 1e-9);
    if (k < 1) k = 1;
    arena_buf_add(b, "(");
    for (int i = 0; i <= k; i++) {
        if (i == k) arena_buf_printf(b, "'%g %s' %.17g", step * i, uname, step * i);
        else arena_buf_printf(b, "'%g' %.17g, ", step * i, step * i);
    }
    arena_buf_add(b, ")");
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

static void layout_grid(struct grid *q, int s, size_t np, int64_t steps, double foot)
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
    q->bottom = (s == 1 ? 0.4 : 0.42) + foot; /* the x label inside the page */
    q->gy = s == 1 ? 0.2 : 0.24;
    q->h = (s == 1 ? fmin(4.3, 0.55 + 0.62 * (double)q->rows) : 0.7 + 1.3 * (double)q->rows) + foot;
    q->pw = (q->w - q->left - q->right - (double)(q->cols - 1) * q->gx) / (double)q->cols;
    q->ph = (q->h - q->bottom - arena_plot_title_inches(s) - (double)(q->rows - 1) * q->gy) /
                (double)q->rows -
            0.14;
    int n = (int)floor(q->pw / (label + em));
    q->xstep = arena_plot_nice_step((double)steps, n < 1 ? 1 : n);
    int fit = (int)floor(q->ph / (1.1 * 1.463 * em));
    q->yticks = fit < 1 ? 1 : fit;
    q->clear = 0.7 * em / q->ph;
    q->title_chars = (size_t)((q->pw + 0.9 * q->gx) / (0.62 * em));
}

/* NAME[k] = the line, its \x01 (a space that does not break) a space. */
static void put_line(struct arena_buf *b, const char *name, size_t k, struct arena_buf *line)
{
    for (char *x = line->s; x && *x; x++)
        if (*x == '\x01') *x = ' ';
    arena_buf_printf(b, "%s[%zu] = ", name, k);
    arena_plot_gq(b, line->s ? line->s : "", 0);
    arena_buf_add(b, "\n");
}

/* The plans res[from..n) (smallest arena first) not drawn, after "not
 * drawn:": the names of a run of equal arenas joined with ", ", then the
 * arena ("a, b 1.25 MiB;"), wrapped at spaces into lines of at most m
 * characters (a longer word alone on its line), written as gnuplot array
 * NAME[] with its count in NAMEN; returns the lines. */
static size_t rest_lines(struct arena_buf *gp, const char *name, char *const *lab,
                         const struct arena_fig_result **res, size_t from, size_t n, size_t m)
{
    struct arena_buf text = {0}, line = {0}, all = {0};
    arena_buf_add(&text, "not drawn:");
    for (size_t i = from; i < n; i++) {
        arena_buf_add(&text, " ");
        arena_plot_caret(&text, lab[i]);
        if (i + 1 < n && res[i + 1]->arena == res[i]->arena) {
            arena_buf_add(&text, ",");
            continue;
        }
        char bytes[32];
        arena_plot_fmt_bytes(bytes, sizeof bytes, (double)res[i]->arena);
        *strchr(bytes, ' ') = '\x01'; /* kept with its unit on one line */
        arena_buf_printf(&text, " %s%s", bytes, i + 1 < n ? ";" : "");
    }
    size_t lines = 0;
    for (const char *p = from < n && text.s ? text.s : ""; *p;) {
        size_t w = strcspn(p, " ");
        struct arena_buf word = {0};
        arena_buf_addn(&word, p, w);
        size_t have = line.s ? arena_utf8_chars(line.s) : 0;
        if (line.len && have + 1 + arena_utf8_chars(word.s ? word.s : "") > m) {
            put_line(&all, name, ++lines, &line);
            arena_buf_free(&line);
        }
        if (line.len) arena_buf_add(&line, " ");
        arena_buf_add(&line, word.s ? word.s : "");
        arena_buf_free(&word);
        p += w;
        while (*p == ' ') p++;
    }
    if (line.len) put_line(&all, name, ++lines, &line);
    arena_buf_free(&line);
    arena_buf_free(&text);
    arena_buf_printf(gp, "%sN = %zu; array %s[%zu]\n", name, lines, name, lines ? lines : 1);
    arena_buf_add(gp, all.s ? all.s : "");
    arena_buf_free(&all);
    return lines;
}

/* The live figure: bytes live at each step (from the first plan's
 * placements) against the arenas of the K best plans (K1 at one column, K2
 * at two), each a line with its own dash and its points set apart from the
 * others' (lines of equal arenas lie on each other), the legend naming
 * them; the plans not drawn are listed with their arenas below it. */
static int fig_live(struct plot_ctx *c, size_t *pidx, char **plab, const struct arena_fig_result **pres,
                    size_t np, const struct arena_fig_place *pl, size_t npl, int64_t steps)
{
    const struct arena_fig_graph *g = &c->d.graphs[c->graph];
    /* Smallest arena first; ties keep the order shown. */
    for (size_t i = 1; i < np; i++)
        for (size_t j = i; j > 0 && pres[j]->arena < pres[j - 1]->arena; j--) {
            size_t ti = pidx[j];
            char *tl = plab[j];
            const struct arena_fig_result *tr = pres[j];
            pidx[j] = pidx[j - 1], plab[j] = plab[j - 1], pres[j] = pres[j - 1];
            pidx[j - 1] = ti, plab[j - 1] = tl, pres[j - 1] = tr;
        }
    int64_t *delta = calloc((size_t)steps + 2, sizeof *delta);
    if (!delta) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    for (size_t k = 0; k < npl; k++) {
        delta[pl[k].first] += pl[k].size;
        delta[pl[k].last + 1] -= pl[k].size;
    }
    int64_t live = 0, peak = 0;
    for (int64_t s = 0; s <= steps; s++) {
        live += delta[s];
        if (live > peak) peak = live;
    }
    size_t K[2] = {np < 5 ? np : 5, np < 8 ? np : 8};
    double top[2];
    for (int k = 0; k < 2; k++)
        top[k] = fmax(fmax((double)pres[K[k] ? K[k] - 1 : 0]->arena, (double)peak), (double)c->ref);
    double U;
    const char *un;
    arena_plot_byte_unit(fmax(top[0], top[1]), &U, &un);
    /* live: the same in the axis' unit, a plain column for gnuplot (an
     * expression per row costs it two system calls each) */
    struct arena_buf b = {0};
    arena_buf_add(&b, "step,live_bytes,live\n");
    live = 0;
    for (int64_t s = 0; s <= steps; s++) {
        live += delta[s];
        arena_buf_printf(&b, "%lld,%lld,%.17g\n", (long long)s, (long long)live,
                              (double)live / U);
    }
    free(delta);
    int rc = arena_plot_put(c, "live.csv", &b);
    arena_buf_free(&b);
    if (rc) return rc;
    /* Legend: live bytes, the K drawn, the best proven figure. */
    size_t kc[2], keyrows[2];
    struct arena_buf gp = {0}, refkey = {0}, refline = {0}, rest = {0};
    size_t rl[2];
    for (int k = 0; k < 2; k++) {
        double longest = arena_plot_text_em("best bound");
        for (size_t i = 0; i < K[k]; i++) longest = fmax(longest, arena_plot_text_em(plab[i]));
        kc[k] = arena_plot_key_columns(k + 1, longest, k ? 3 : 2);
        keyrows[k] = (K[k] + 1 + (c->ref ? 1 : 0) + kc[k] - 1) / kc[k];
        rl[k] = rest_lines(&rest, k ? "REST2" : "REST1", plab, pres, K[k], np,
                           (size_t)(((k ? 7.0 : 3.3) - 0.2) / (0.62 * (k ? 8 : 7) / 72.0)));
    }
    double h1 = 2.3 + 0.15 * (double)keyrows[0] + 0.117 * (double)rl[0];
    double h2 = 2.8 + 0.17 * (double)keyrows[1] + 0.133 * (double)rl[1];
    char *gs = graph_sub(c);
    arena_plot_gp_head(c, &gp, "live", "Live bytes and arenas", gs ? gs : g->spec, NULL, h1, h2);
    free(gs);
    arena_plot_gp_common(c, &gp);
    arena_plot_gp_styles(&gp, c->sel, pidx, plab, np, 40);
    arena_buf_printf(
        &gp,
        "U = %.1f; UNAME = '%s'; STEPS = %lld; REF = %lld; K1 = %zu; K2 = %zu; KC1 = %zu;"
        " KC2 = %zu\narray ARENA[%zu]\n",
        U, un, (long long)steps, (long long)c->ref, K[0], K[1], kc[0], kc[1], np ? np : 1);
    for (size_t i = 0; i < np; i++)
        arena_buf_printf(&gp, "ARENA[%zu] = %lld\n", i + 1, (long long)pres[i]->arena);
    arena_buf_add(&gp, rest.s ? rest.s : "REST1N = 0; REST2N = 0\n");
    arena_buf_free(&rest);
    for (int k = 0; k < 2; k++) {
        struct arena_buf t = {0};
        double y;
        byte_ticks(&t, top[k] / U, un, k ? 6 : 4, 0, &y);
        arena_buf_printf(&gp, "YMAX%d = %.17g; YT%d = \"%s\"\n", k + 1, y, k + 1,
                              t.s ? t.s : "()");
        arena_buf_free(&t);
    }
    if (c->ref) {
        arena_buf_printf(&refkey,
                              ", \\\n       NaN with lines lc rgb '#000000' dt 4 lw 1 title '%s'",
                              c->ref_opt ? "optimum" : "best bound");
        arena_buf_add(&refline, ", \\\n       REF / U with lines lc rgb '#000000' dt 4 lw 1");
    }
    const char *keys[] = {"REFKEY", "REFLINE"};
    const char *vals[] = {refkey.s ? refkey.s : "", refline.s ? refline.s : ""};
    rc = refkey.oom || refline.oom ? (snprintf(c->err, sizeof c->err, "out of memory"), 1)
                                   : arena_plot_draw(c, "live", &gp, keys, vals, 2);
    arena_buf_free(&refline);
    arena_buf_free(&gp);
    arena_buf_free(&refkey);
    return rc;
}

/* The layout and live figures' state (arena_plot_figure's steps below):
 * the shown planners at idx[0..n) with results res and labels lab, and the
 * placements read for the layout. */
struct layout_fig {
    const size_t *idx;
    const struct arena_fig_result **res;
    char *const *lab;
    size_t n;
    size_t *pidx;  /* the plans drawn: their shown planners, labels, results [np] */
    char **plab;
    const struct arena_fig_result **pres;
    struct arena_fig_place **pl; /* each plan's placements [npl[i]] */
    size_t *npl;
    size_t np, rects;
    int64_t steps;
    int layout;           /* the layout is drawn */
    struct arena_buf rows; /* the layout's ROW0/ROW1 arrays */
};

/* Every valid plan's placements for the layout; only the first's when the
 * layout is not drawn (the live bytes need one plan) or would hold more
 * rectangles than a figure can show. */
static int layout_begin(struct plot_ctx *c, void *fig)
{
    struct layout_fig *f = fig;
    size_t n = f->n;
    f->pidx = malloc((n + 1) * sizeof *f->pidx);
    f->plab = malloc((n + 1) * sizeof *f->plab);
    f->pres = malloc((n + 1) * sizeof *f->pres);
    f->pl = calloc(n + 1, sizeof *f->pl);
    f->npl = calloc(n + 1, sizeof *f->npl);
    if (!f->pidx || !f->plab || !f->pres || !f->pl || !f->npl) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    size_t valid = 0, np = 0;
    for (size_t i = 0; i < n; i++) valid += (size_t)f->res[i]->ok;
    for (size_t i = 0; i < n; i++) {
        const struct arena_fig_result *r = f->res[i];
        if (!r->ok) continue;
        if (np && (!arena_plot_want(c, "layout") || f->npl[0] * valid > 300000)) {
            f->rects = f->npl[0] * valid;
            break;
        }
        if (arena_figdb_placements(c->db, r->id, &f->pl[np], &f->npl[np], c->err, sizeof c->err))
            return 2;
        if (!f->npl[np]) continue;
        f->rects += f->npl[np];
        f->pidx[np] = f->idx[i];
        f->plab[np] = f->lab[i];
        f->pres[np++] = r;
    }
    f->np = np;
    if (!np) {
        struct arena_buf s = {0};
        arena_plot_caret(&s, c->d.graphs[c->graph].spec);
        arena_plot_note(c, "layout and live figures skipped: no placements of a valid plan for %s",
                        s.s ? s.s : "");
        arena_buf_free(&s);
        return PLOT_SKIP;
    }
    for (size_t k = 0; k < f->npl[0]; k++)
        if (f->pl[0][k].last + 1 > f->steps) f->steps = f->pl[0][k].last + 1;
    if (arena_plot_want(c, "layout") && f->rects > 300000)
        arena_plot_note(
            c,
            "layout figure skipped: %zu rectangles are too many to draw (pick a smaller graph"
            " or fewer planners)",
            f->rects);
    else
        f->layout = arena_plot_want(c, "layout");
    return 0;
}

/* layout.csv: each rectangle as gnuplot draws it too (x, dx in steps; y,
 * dy in the panel's byte unit: centre and half sizes), a panel's rows in
 * one run: layout.gp reads plain columns of rows ROW0[i]..ROW1[i], no
 * expression per row (gnuplot's costs two system calls each). */
static int layout_series(struct plot_ctx *c, void *fig)
{
    struct layout_fig *f = fig;
    if (!f->layout) return 0;
    const struct arena_fig_graph *g = &c->d.graphs[c->graph];
    struct arena_buf b = {0};
    arena_buf_add(&b, "panel,tensor,size,first,last,offset,x,dx,y,dy,planner,name,config\n");
    size_t row = 0;
    arena_buf_printf(&f->rows, "array ROW0[%zu]; array ROW1[%zu]\n", f->np, f->np);
    for (size_t i = 0; i < f->np; i++) {
        double U;
        const char *un;
        arena_plot_byte_unit(fmax((double)f->pres[i]->arena, (double)g->lower_bound), &U, &un);
        arena_buf_printf(&f->rows, "ROW0[%zu] = %zu; ROW1[%zu] = %zu\n", i + 1, row, i + 1,
                         row + f->npl[i] - 1);
        for (size_t k = 0; k < f->npl[i]; k++, row++) {
            const struct arena_fig_place *p = &f->pl[i][k];
            arena_buf_printf(
                &b, "%zu,%lld,%lld,%lld,%lld,%lld,%.17g,%.17g,%.17g,%.17g,", i + 1,
                (long long)p->tensor, (long long)p->size, (long long)p->first,
                (long long)p->last, (long long)p->offset, (double)(p->first + p->last + 1) / 2,
                (double)(p->last + 1 - p->first) / 2,
                ((double)p->offset + (double)p->size / 2) / U, (double)p->size / 2 / U);
            arena_plot_csv(&b, c->sel[f->pidx[i]].name);
            arena_buf_add(&b, ",");
            if (p->name) arena_plot_csv(&b, p->name);
            arena_buf_add(&b, ",");
            arena_plot_csv(&b, arena_plot_config_label(c));
            arena_buf_add(&b, "\n");
        }
    }
    int rc = arena_plot_put(c, "layout.csv", &b);
    arena_buf_free(&b);
    return rc;
}

/* The layout's page at each size (gr) and its head in gp. The plans a size
 * has no room for (the largest arenas) are named in its foot, in the
 * figure's own text. */
static void layout_page(struct plot_ctx *c, const struct layout_fig *f, struct grid gr[2],
                        struct arena_buf *gp)
{
    const struct arena_fig_graph *g = &c->d.graphs[c->graph];
    size_t np = f->np;
    char sub[64];
    snprintf(sub, sizeof sub, " (dashed: lower bound%s)",
             c->ref && c->ref != g->lower_bound ? (c->ref_opt ? "; dash-dot: optimum"
                                                              : "; dash-dot: best bound")
                                                : "");
    struct arena_buf st = {0};
    char *gs = graph_sub(c);
    arena_buf_add(&st, gs ? gs : g->spec);
    free(gs);
    arena_buf_add(&st, sub);
    for (int k = 0; k < 2; k++) layout_grid(&gr[k], k + 1, np, f->steps, 0);
    struct arena_buf foot = {0}, gone[2] = {{0}};
    double fh[2] = {0, 0};
    if (gr[0].shown < np || gr[1].shown < np) {
        for (int k = 0; k < 2; k++)
            for (size_t i = gr[k].shown; i < np; i++) {
                if (i > gr[k].shown) arena_buf_add(&gone[k], ", ");
                arena_plot_caret(&gone[k], f->plab[i]);
            }
        arena_plot_gp_foot_sizes(&foot, "not shown (no room): ", gone[0].s ? gone[0].s : "",
                                 gone[1].s ? gone[1].s : "", NULL, fh);
        for (int k = 0; k < 2; k++)
            layout_grid(&gr[k], k + 1, np, f->steps, fh[k]);
    } else {
        arena_plot_gp_foot(&foot, "", "", fh);
    }
    arena_buf_free(&gone[0]);
    arena_buf_free(&gone[1]);
    if (gr[0].shown < np && (c->o.sizes & 1))
        arena_plot_note(c,
                        "one-column layout figure shows the first %zu of its %zu plans (two"
                        " columns: %zu); its foot names the rest",
                        gr[0].shown, np, gr[1].shown);
    else if (gr[1].shown < np && (c->o.sizes & 2))
        arena_plot_note(c,
                        "two-column layout figure shows the first %zu of its %zu plans; its"
                        " foot names the rest",
                        gr[1].shown, np);
    arena_plot_gp_head(c, gp, "layout", "Memory layout of each plan", st.s ? st.s : "", NULL,
                       gr[0].h, gr[1].h);
    arena_buf_free(&st);
    arena_buf_add(gp, foot.s ? foot.s : "");
    if (foot.oom) gp->oom = 1;
    arena_buf_free(&foot);
}

/* Each plan's panel title, byte unit and y ticks at each size. */
static void layout_plans(struct plot_ctx *c, const struct layout_fig *f, const struct grid gr[2],
                         struct arena_buf *gp)
{
    const struct arena_fig_graph *g = &c->d.graphs[c->graph];
    for (size_t i = 0; i < f->np; i++) {
        double U;
        const char *un;
        double top = fmax((double)f->pres[i]->arena, (double)g->lower_bound);
        arena_plot_byte_unit(top, &U, &un);
        arena_buf_printf(gp, "LT1[%zu] = ", i + 1);
        arena_plot_gq_cut(gp, f->plab[i], gr[0].title_chars, "...");
        arena_buf_printf(gp, "; LT2[%zu] = ", i + 1);
        arena_plot_gq_cut(gp, f->plab[i], gr[1].title_chars, "...");
        for (int k = 0; k < 2; k++) {
            struct arena_buf t = {0};
            double y;
            byte_ticks(&t, top / U, un, gr[k].yticks, gr[k].clear, &y);
            arena_buf_printf(gp, "; YT%d[%zu] = \"%s\"; YMAX%d[%zu] = %.17g", k + 1, i + 1,
                             t.s ? t.s : "()", k + 1, i + 1, y);
            arena_buf_free(&t);
        }
        arena_buf_printf(gp, "\nU[%zu] = %.1f\n", i + 1, U);
    }
}

/* layout.gp, drawn; then the live figure of every valid plan, placements
 * stored or not. */
static int layout_end(struct plot_ctx *c, void *fig)
{
    struct layout_fig *f = fig;
    const struct arena_fig_graph *g = &c->d.graphs[c->graph];
    size_t np = f->np;
    if (f->layout) {
        struct arena_buf gp = {0};
        struct grid gr[2];
        layout_page(c, f, gr, &gp);
        arena_plot_gp_common(c, &gp);
        arena_plot_gp_styles(&gp, c->sel, f->pidx, f->plab, np, 40);
        arena_buf_printf(&gp, "NP = %zu; STEPS = %lld; LB = %lld; REF = %lld\n", np,
                         (long long)f->steps, (long long)g->lower_bound, (long long)c->ref);
        arena_buf_add(&gp, f->rows.s ? f->rows.s : "");
        arena_buf_printf(&gp,
                         "array LT1[%zu]; array LT2[%zu]; array U[%zu]; array YMAX1[%zu];"
                         " array YMAX2[%zu]; array YT1[%zu]; array YT2[%zu]\n",
                         np, np, np, np, np, np, np);
        for (int k = 0; k < 2; k++) {
            const struct grid *q = &gr[k];
            arena_buf_printf(
                &gp,
                "C%d = %zu; NPS%d = %zu; L%d = %.3f; R%d = %.3f; B%d = %.3f; GX%d = %.3f;"
                " GY%d = %.3f; XSTEP%d = %.17g\n",
                k + 1, q->cols, k + 1, q->shown, k + 1, q->left, k + 1, q->right, k + 1, q->bottom,
                k + 1, q->gx, k + 1, q->gy, k + 1, q->xstep);
        }
        layout_plans(c, f, gr, &gp);
        int rc = arena_plot_draw(c, "layout", &gp, NULL, NULL, 0);
        arena_buf_free(&gp);
        if (rc) return rc;
    }
    if (!arena_plot_want(c, "live")) return 0;
    np = 0;
    for (size_t i = 0; i < f->n; i++)
        if (f->res[i]->ok) {
            f->pidx[np] = f->idx[i];
            f->plab[np] = f->lab[i];
            f->pres[np++] = f->res[i];
        }
    return fig_live(c, f->pidx, f->plab, f->pres, np, f->pl[0], f->npl[0], f->steps);
}

static void layout_free(void *fig)
{
    struct layout_fig *f = fig;
    for (size_t i = 0; f->pl && i < f->n; i++) arena_fig_places_free(f->pl[i], f->npl ? f->npl[i] : 0);
    free(f->pl);
    free(f->npl);
    free(f->pidx);
    free(f->plab);
    free(f->pres);
    arena_buf_free(&f->rows);
}

static int fig_layout_live(struct plot_ctx *c, const size_t *idx, const struct arena_fig_result **res,
                           char *const *lab, size_t n)
{
    static const struct plot_figure steps = {layout_begin, layout_series, layout_end, layout_free};
    struct layout_fig f = {.idx = idx, .res = res, .lab = lab, .n = n};
    return arena_plot_figure(c, &steps, &f);
}

int arena_plot_per_graph(struct plot_ctx *c)
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
        if (!(lab[i] = arena_plot_label_of(c->sel[idx[i]].label, res[i]))) {
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
    struct arena_buf bad = {0};
    for (size_t i = 0; i < n; i++)
        if (!res[i]->ok) {
            if (bad.len) arena_buf_add(&bad, ", ");
            arena_plot_caret(&bad, c->sel[idx[i]].name);
        }
    if (bad.len) arena_plot_note(c, "invalid or failed plans left out of the figures: %s", bad.s);
    arena_buf_free(&bad);
    if (n && (arena_plot_want(c, "arena") || arena_plot_want(c, "tables")))
        rc = write_arena_csv(c, idx, res, n);
    if (!rc && n && arena_plot_want(c, "arena")) rc = fig_arena(c, idx, res, lab, n);
    if (!rc && (arena_plot_want(c, "layout") || arena_plot_want(c, "live")))
        rc = fig_layout_live(c, idx, res, lab, n);
    if (!rc && arena_plot_want(c, "replay")) rc = arena_plot_fig_replay(c, idx, res, n);
    if (!rc && n && arena_plot_want(c, "tables")) rc = arena_plot_tables(c, idx, res, n);
done:
    for (size_t i = 0; lab && i < c->n_sel; i++) free(lab[i]);
    free(lab);
    free(idx);
    free(res);
    return rc;
}
