/* plot_configs.c — `bench plot`'s configurations side by side: configs-W.*
 * (a bar per planner and configuration) and configs.tex/.md/.csv (a row per
 * planner, a column per configuration). Every configuration of a graph is
 * measured against one denominator, the lower bound of the graph
 * untransformed (stored order, no in-place rule, no patch: the plain
 * fixed-order bound), so below 1 is what the configuration's
 * transformations save. A cell is the geometric mean over the graphs on
 * which every planner run in every configuration shown has a valid result;
 * a planner not run in a configuration is named so, never counted as a
 * failure. Each configuration's proven optimum (the geometric mean of its
 * problems' optima, when a search proved every one) is marked. */
#include "bench/plot/plot_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/plot/table.h"

/* Colors and fills of the configurations, in their order: a fill pattern
 * each, so a grey print tells them apart (solid, then gnuplot's hatches). */
static const unsigned config_color[] = {0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0x000000, 0xE69F00};
static const int config_pattern[] = {0, 2, 4, 5, 1, 6};
#define NSTYLE 6

struct cfgs {
    size_t nb, nk, np;       /* graphs (bases), configurations, planners */
    size_t *entry;           /* nb x nk: graph entry, or SIZE_MAX */
    size_t *planner;         /* np: index into c->sel */
    int *run;                /* np x nk: the planner has a result in the configuration */
    double *den;             /* nb: the plain fixed-order bound, 0 unknown */
    int *use;                /* nb: counted */
    size_t n;                /* graphs counted */
    double *value;           /* np x nk: geometric mean of arena / den, NaN none */
    size_t *limit;           /* np x nk: counted samples stopped at a budget */
    double *opt;             /* nk: geometric mean of the proven optima / den, NaN */
    double *lb;              /* nk: geometric mean of the lower bounds / den */
};

static void cfgs_free(struct cfgs *s)
{
    free(s->entry);
    free(s->planner);
    free(s->run);
    free(s->den);
    free(s->use);
    free(s->value);
    free(s->limit);
    free(s->opt);
    free(s->lb);
}

/* The proven optimum of graph entry e: the largest bound a valid result
 * proved, when a valid plan meets it (else 0). */
static int64_t optimum_of(const struct plot_ctx *c, size_t e)
{
    int64_t ref = 0;
    for (size_t i = 0; i < c->d.n_results; i++) {
        const struct arena_fig_result *r = &c->d.results[i];
        if (r->graph == e && r->ok && r->has_bound && r->bound > ref) ref = r->bound;
    }
    if (c->d.graphs[e].lower_bound > ref) ref = c->d.graphs[e].lower_bound;
    for (size_t i = 0; i < c->d.n_results; i++) {
        const struct arena_fig_result *r = &c->d.results[i];
        if (r->graph == e && r->ok && r->arena == ref) return ref;
    }
    return 0;
}

static int gather(struct plot_ctx *c, struct cfgs *s)
{
    memset(s, 0, sizeof *s);
    s->nb = c->d.n_bases;
    s->nk = c->d.n_configs;
    s->entry = malloc((s->nb * s->nk + 1) * sizeof *s->entry);
    s->planner = malloc((c->n_sel + 1) * sizeof *s->planner);
    s->run = calloc(c->n_sel * s->nk + 1, sizeof *s->run);
    s->den = calloc(s->nb + 1, sizeof *s->den);
    s->use = calloc(s->nb + 1, sizeof *s->use);
    s->value = calloc(c->n_sel * s->nk + 1, sizeof *s->value);
    s->limit = calloc(c->n_sel * s->nk + 1, sizeof *s->limit);
    s->opt = calloc(s->nk + 1, sizeof *s->opt);
    s->lb = calloc(s->nk + 1, sizeof *s->lb);
    if (!s->entry || !s->planner || !s->run || !s->den || !s->use || !s->value || !s->limit ||
        !s->opt || !s->lb)
        return -1;
    for (size_t i = 0; i < s->nb * s->nk; i++) s->entry[i] = SIZE_MAX;
    for (size_t e = 0; e < c->d.n_graphs; e++) {
        const struct arena_fig_graph *g = &c->d.graphs[e];
        s->entry[g->base * s->nk + g->config] = e;
        /* the graph untransformed: its own bound in a plain configuration,
         * else what the result recorded of it */
        int64_t d = arena_config_transforms(&c->d.configs[g->config].c) ? g->fixed_lower_bound
                                                                         : g->lower_bound;
        if (d > 0) s->den[g->base] = (double)d;
    }
    /* the planners shown, naive only when named (as in the quality figure) */
    for (size_t i = 0; i < c->n_sel; i++)
        if (c->planners_given || strcmp(c->sel[i].name, "naive") != 0) s->planner[s->np++] = i;
    for (size_t p = 0; p < s->np; p++)
        for (size_t b = 0; b < s->nb; b++)
            for (size_t k = 0; k < s->nk; k++) {
                size_t e = s->entry[b * s->nk + k];
                if (e != SIZE_MAX && arena_plot_find(c, e, c->sel[s->planner[p]].name))
                    s->run[p * s->nk + k] = 1;
            }
    for (size_t b = 0; b < s->nb; b++) {
        int ok = s->den[b] > 0;
        for (size_t p = 0; p < s->np && ok; p++)
            for (size_t k = 0; k < s->nk && ok; k++) {
                if (!s->run[p * s->nk + k]) continue;
                size_t e = s->entry[b * s->nk + k];
                const struct arena_fig_result *r =
                    e == SIZE_MAX ? NULL : arena_plot_find(c, e, c->sel[s->planner[p]].name);
                ok = r && r->ok;
            }
        s->use[b] = ok;
        s->n += (size_t)ok;
    }
    for (size_t k = 0; k < s->nk; k++) {
        double lopt = 0, llb = 0;
        int proven = 1;
        for (size_t b = 0; b < s->nb; b++) {
            if (!s->use[b]) continue;
            size_t e = s->entry[b * s->nk + k];
            if (e == SIZE_MAX) {
                proven = 0;
                llb = NAN;
                continue;
            }
            int64_t o = optimum_of(c, e);
            proven &= o > 0;
            if (o > 0) lopt += log((double)o / s->den[b]);
            llb += log((double)c->d.graphs[e].lower_bound / s->den[b]);
        }
        s->opt[k] = proven && s->n ? exp(lopt / (double)s->n) : NAN;
        s->lb[k] = s->n ? exp(llb / (double)s->n) : NAN;
        for (size_t p = 0; p < s->np; p++) {
            double l = 0;
            size_t lim = 0;
            for (size_t b = 0; b < s->nb && s->run[p * s->nk + k]; b++) {
                if (!s->use[b]) continue;
                const struct arena_fig_result *r =
                    arena_plot_find(c, s->entry[b * s->nk + k], c->sel[s->planner[p]].name);
                l += log((double)r->arena / s->den[b]);
                lim += (size_t)arena_plot_is_limit(r);
            }
            s->value[p * s->nk + k] = s->run[p * s->nk + k] && s->n ? exp(l / (double)s->n) : NAN;
            s->limit[p * s->nk + k] = lim;
        }
    }
    return 0;
}

/* "0.862", or the text for a cell without a value. */
static void cell(char *out, size_t n, double v, int run)
{
    if (!run) snprintf(out, n, "n/r");
    else if (v == v) snprintf(out, n, "%.3f", v);
    else snprintf(out, n, "--");
}

static int write_tables(struct plot_ctx *c, const struct cfgs *s, const char *about)
{
    struct arena_table t;
    arena_table_init(&t, 1 + s->nk, 1);
    arena_table_head(&t, 0, "Planner", "planner", 'l', 0);
    struct arena_buf csv = {0};
    arena_buf_add(&csv, "planner,config,x_plain_fixed_bound,graphs,limit,run\n");
    for (size_t k = 0; k < s->nk; k++) {
        struct arena_buf tx = {0}, md = {0};
        arena_plot_tex(&tx, c->d.configs[k].label);
        arena_plot_md(&md, c->d.configs[k].label);
        arena_table_head(&t, 1 + k, tx.s ? tx.s : "", md.s ? md.s : "", 'r', 1);
        arena_buf_free(&tx);
        arena_buf_free(&md);
    }
    int absent = 0, limits = 0;
    for (size_t p = 0; p < s->np; p++) {
        const char *name = c->sel[s->planner[p]].name;
        arena_table_row(&t);
        arena_table_set(&t, 0, c->sel[s->planner[p]].label, -1);
        for (size_t k = 0; k < s->nk; k++) {
            char v[32];
            int run = s->run[p * s->nk + k];
            size_t lim = s->limit[p * s->nk + k];
            cell(v, sizeof v, s->value[p * s->nk + k], run);
            arena_table_set(&t, 1 + k, v, lim ? 0 : -1);
            absent |= !run;
            limits |= lim > 0;
            arena_plot_csv(&csv, name);
            arena_buf_add(&csv, ",");
            arena_plot_csv(&csv, c->d.configs[k].label);
            arena_plot_csv_num(&csv, run && s->n, s->value[p * s->nk + k]);
            arena_buf_printf(&csv, ",%zu,%zu,%d\n", run ? s->n : 0, lim, run);
        }
    }
    const char *extra[] = {"proven optimum", "lower bound"};
    for (int x = 0; x < 2; x++) {
        arena_table_row(&t);
        if (!x) arena_table_rule(&t);
        arena_table_set(&t, 0, extra[x], -1);
        for (size_t k = 0; k < s->nk; k++) {
            double v = x ? s->lb[k] : s->opt[k];
            char b[32];
            cell(b, sizeof b, v, 1);
            arena_table_set(&t, 1 + k, b, -1);
            arena_plot_csv(&csv, extra[x]);
            arena_buf_add(&csv, ",");
            arena_plot_csv(&csv, c->d.configs[k].label);
            arena_plot_csv_num(&csv, v == v, v);
            arena_buf_printf(&csv, ",%zu,0,1\n", s->n);
        }
    }
    if (limits)
        arena_table_note(&t, 0, "A search stopped at its budget on some of the graphs: its best plan"
                                " found there, not its answer.");
    if (absent) arena_table_line(&t, "n/r: not run in this configuration.");
    int unproven = 0;
    for (size_t k = 0; k < s->nk; k++) unproven |= !(s->opt[k] == s->opt[k]);
    if (unproven) arena_table_line(&t, "--: not proven on every graph.");
    struct arena_buf md = {0}, tex = {0};
    arena_table_tex(&t, about, &tex);
    arena_table_md(&t, about, &md);
    int rc = csv.oom || md.oom || tex.oom ? (snprintf(c->err, sizeof c->err, "out of memory"), 1) : 0;
    if (!rc) rc = arena_plot_put(c, "configs.csv", &csv);
    if (!rc) rc = arena_plot_put(c, "configs.md", &md);
    if (!rc) rc = arena_plot_put(c, "configs.tex", &tex);
    arena_buf_free(&csv);
    arena_buf_free(&md);
    arena_buf_free(&tex);
    arena_table_free(&t);
    return rc;
}

/* The figure: a group of bars per planner, a bar per configuration it ran
 * in (color and fill by configuration), the configuration's proven optimum
 * a black diamond on the bar, 1 (the plain fixed-order bound) a dashed
 * line. */
static int draw(struct plot_ctx *c, const struct cfgs *s, const char *about)
{
    struct arena_buf data = {0}, yt = {0}, gp = {0}, styles = {0};
    arena_buf_add(&data, "y,config,ratio,optimum,limit,planner,configuration\n");
    arena_buf_add(&yt, "(");
    double y = 1, xmax = 1;
    size_t bars = 0;
    for (size_t p = 0; p < s->np; p++) {
        double first = y;
        size_t m = 0;
        for (size_t k = 0; k < s->nk; k++) {
            if (!s->run[p * s->nk + k]) continue;
            double v = s->value[p * s->nk + k];
            arena_buf_printf(&data, "%.2f,%zu", y, k + 1);
            arena_plot_csv_num(&data, 1, v);
            arena_plot_csv_num(&data, s->opt[k] == s->opt[k], s->opt[k]);
            arena_buf_printf(&data, ",%zu,", s->limit[p * s->nk + k]);
            arena_plot_csv(&data, c->sel[s->planner[p]].name);
            arena_buf_add(&data, ",");
            arena_plot_csv(&data, c->d.configs[k].label);
            arena_buf_add(&data, "\n");
            if (v > xmax) xmax = v;
            y += 1;
            m++;
            bars++;
        }
        if (!m) continue;
        if (yt.len > 1) arena_buf_add(&yt, ", ");
        arena_plot_gq(&yt, c->sel[s->planner[p]].label, 1);
        arena_buf_printf(&yt, " %.2f", (first + y - 1) / 2);
        y += 0.6; /* between planners */
    }
    arena_buf_add(&yt, ")");
    for (size_t k = 0; k < s->nk; k++) {
        arena_buf_printf(&styles, "CCOL[%zu] = %u; CPAT[%zu] = %d; CNAME[%zu] = ", k + 1,
                              config_color[k % NSTYLE], k + 1, config_pattern[k % NSTYLE], k + 1);
        arena_plot_gq(&styles, c->d.configs[k].label, 0);
        arena_buf_add(&styles, "\n");
    }
    double longest = 0;
    for (size_t k = 0; k < s->nk; k++)
        longest = fmax(longest, arena_plot_text_em(c->d.configs[k].label));
    size_t nk = s->nk + 2; /* the configurations, the optimum, the bound */
    size_t kc1 = arena_plot_key_columns(1, fmax(longest, 13), 2);
    size_t kc2 = arena_plot_key_columns(2, fmax(longest, 13), 4);
    double k1 = (double)((nk + kc1 - 1) / kc1) * 0.15, k2 = (double)((nk + kc2 - 1) / kc2) * 0.17;
    double rows = y;
    double h1 = fmin(4.4, fmax(1.8, 0.9 + 0.11 * rows + k1));
    double h2 = fmax(2.4, 1.0 + 0.16 * rows + k2);
    arena_plot_gp_head(c, &gp, "configs", "Configurations side by side", about, about, h1, h2);
    arena_plot_gp_common(c, &gp);
    arena_buf_printf(&gp, "NC = %zu; array CCOL[NC]; array CPAT[NC]; array CNAME[NC]\n", s->nk);
    arena_buf_add(&gp, styles.s ? styles.s : "");
    arena_buf_printf(&gp, "YMAX = %.2f; XMAX = %.17g; NK = %zu; KC1 = %zu; KC2 = %zu\n", y - 0.6,
                          xmax, nk, kc1, kc2);
    arena_buf_printf(&gp, "XSTEP1 = %.17g; XSTEP2 = %.17g\n",
                          arena_plot_nice_step(xmax * 1.25, 4), arena_plot_nice_step(xmax * 1.2, 8));
    const char *keys[] = {"YTICS"};
    const char *vals[] = {yt.s ? yt.s : "()"};
    int rc = data.oom || yt.oom || styles.oom ? (snprintf(c->err, sizeof c->err, "out of memory"), 1)
                                              : arena_plot_put(c, "configs-bars.csv", &data);
    (void)bars;
    if (!rc) rc = arena_plot_draw(c, "configs", &gp, keys, vals, 1);
    arena_buf_free(&data);
    arena_buf_free(&yt);
    arena_buf_free(&gp);
    arena_buf_free(&styles);
    return rc;
}

int arena_plot_fig_configs(struct plot_ctx *c)
{
    if (c->d.n_configs < 2) {
        arena_plot_note(c, "configs figure skipped: one configuration (%s) in the selection",
                        arena_plot_config_label(c));
        return 0;
    }
    struct cfgs s;
    if (gather(c, &s)) {
        cfgs_free(&s);
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    if (!s.n) {
        arena_plot_note(c, "configs figure skipped: no graph with a valid result of every planner"
                           " in every configuration it ran in (--planner picks fewer)");
        cfgs_free(&s);
        return 0;
    }
    struct arena_buf about = {0};
    arena_buf_printf(&about,
                          "Arena / the plain fixed-order bound (the graph untransformed), geometric"
                          " mean over %zu graph%s; configurations: ",
                          s.n, s.n == 1 ? "" : "s");
    for (size_t k = 0; k < s.nk; k++) {
        if (k) arena_buf_add(&about, "; ");
        arena_plot_caret(&about, c->d.configs[k].label);
    }
    size_t left = s.nb - s.n;
    if (left)
        arena_buf_printf(&about, " (%zu graph%s left out: a planner without a valid result there)",
                              left, left == 1 ? "" : "s");
    /* who was not run where, said in the figure's own caption and never
     * left to look like a failure: per configuration the shorter list,
     * the planners run or those not run */
    for (size_t k = 0; k < s.nk; k++) {
        size_t ran = 0;
        for (size_t p = 0; p < s.np; p++) ran += (size_t)s.run[p * s.nk + k];
        if (ran == s.np) continue;
        int list_ran = ran <= s.np - ran;
        arena_buf_add(&about, "; ");
        arena_plot_caret(&about, c->d.configs[k].label);
        arena_buf_add(&about, list_ran ? ": only " : ": not run: ");
        const char *sep = "";
        for (size_t p = 0; p < s.np; p++) {
            if (s.run[p * s.nk + k] != list_ran) continue;
            arena_buf_add(&about, sep);
            arena_plot_caret(&about, c->sel[s.planner[p]].label);
            sep = ", ";
        }
        arena_buf_add(&about, list_ran ? " run" : "");
    }
    int rc = about.oom ? 1 : write_tables(c, &s, about.s);
    if (!rc) rc = draw(c, &s, about.s);
    arena_buf_free(&about);
    cfgs_free(&s);
    return rc;
}
