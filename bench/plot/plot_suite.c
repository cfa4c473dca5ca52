/* plot_suite.c — `bench plot`'s graphs x planners table: graphs.tex
 * (booktabs), graphs.md and graphs.csv, a row per graph of the selection in
 * the figures' configuration and a column per planner shown, each cell the
 * arena / the lower bound of that graph's problem, with the lower bound
 * beside the graph's name and a geometric-mean row under them. A planner
 * not run on a graph in this configuration and one that ran without a
 * valid plan read differently ("n/r", "--"); a mean is given only over
 * every graph of the table, never over a planner's own subset. */
#include "bench/plot/plot_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/plot/table.h"

enum { MARK_LIMIT = 0, MARK_PART = 1 };

/* The part of spec shown: without the folder every graph of the table
 * shares (models/a.tflite, models/b.onnx -> a.tflite, b.onnx). */
static size_t common_dir(const struct plot_ctx *c, const size_t *rows, size_t n)
{
    if (!n) return 0;
    const char *first = c->d.graphs[rows[0]].spec;
    const char *slash = strrchr(first, '/');
    size_t len = slash ? (size_t)(slash - first) + 1 : 0;
    for (size_t i = 1; i < n && len; i++) {
        const char *s = c->d.graphs[rows[i]].spec;
        while (len && (strncmp(s, first, len) != 0 || first[len - 1] != '/')) len--;
    }
    return len;
}

/* Whether pair (k=v, len bytes) is among the params of every row of
 * family f: said once for the table, not on each row. */
static int shared_pair(const struct plot_ctx *c, const size_t *rows, size_t n, const char *f,
                       const char *pair, size_t len)
{
    for (size_t i = 0; i < n; i++) {
        const struct arena_fig_graph *g = &c->d.graphs[rows[i]];
        if (strcmp(g->family, f) != 0) continue;
        int found = 0;
        for (const char *p = g->params; *p && !found;) {
            size_t l = strcspn(p, ",");
            found = l == len && strncmp(p, pair, len) == 0;
            p += l + (p[l] == ',');
        }
        if (!found) return 0;
    }
    return 1;
}

/* The full specs are in the table's comment and in graphs.csv. */
void arena_plot_graph_name(const struct plot_ctx *c, const size_t *rows, size_t n, size_t e,
                           struct arena_buf *b)
{
    size_t cut = common_dir(c, rows, n);
    const struct arena_fig_graph *g = &c->d.graphs[e];
    size_t fl = strlen(g->family);
    if (!*g->family || strncmp(g->spec, g->family, fl) != 0 || g->spec[fl] != ':') {
        arena_buf_add(b, g->spec + cut);
        return;
    }
    arena_buf_add(b, g->family);
    const char *sep = ":";
    for (const char *p = g->params; *p;) {
        size_t l = strcspn(p, ",");
        if (!shared_pair(c, rows, n, g->family, p, l)) {
            arena_buf_add(b, sep);
            arena_buf_addn(b, p, l);
            sep = ",";
        }
        p += l + (p[l] == ',');
    }
}

/* "1.44 MiB", "612 KiB", "96 B": three figures in the value's own unit. */
static void bytes3(char *out, size_t n, double b)
{
    const char *u = "B";
    if (b >= 1048576) b /= 1048576, u = "MiB";
    else if (b >= 1024) b /= 1024, u = "KiB";
    snprintf(out, n, b >= 100 || strcmp(u, "B") == 0 ? "%.0f %s" : b >= 10 ? "%.1f %s" : "%.2f %s", b, u);
}

/* The graphs x planners table's state (arena_plot_figure's steps below). */
struct suite_fig {
    size_t *rows, n; /* the graph entries of the table */
    size_t cut;      /* bytes of the folder every graph's file shares */
    double *logsum;  /* per shown planner, the sum of log(ratio) over its valid graphs */
    size_t *valid;   /* and how many */
    int absent, failed;
    struct arena_table t;
    struct arena_buf csv;
};

/* The rows, and the heads of the table and of the CSV file. */
static int suite_begin(struct plot_ctx *c, void *fig)
{
    struct suite_fig *f = fig;
    f->rows = malloc((c->d.n_graphs + 1) * sizeof *f->rows);
    f->logsum = calloc(c->n_sel + 1, sizeof *f->logsum);
    f->valid = calloc(c->n_sel + 1, sizeof *f->valid);
    if (!f->rows || !f->logsum || !f->valid) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    for (size_t g = 0; g < c->d.n_graphs; g++)
        if (arena_plot_in_config(c, g) && c->d.graphs[g].lower_bound > 0) f->rows[f->n++] = g;
    f->cut = common_dir(c, f->rows, f->n);
    struct arena_table *t = &f->t;
    arena_table_init(t, 2 + c->n_sel, 2);
    arena_table_head(t, 0, "Graph", "graph", 'l', 0);
    arena_table_head(t, 1, "LB", "lower bound", 'r', 0);
    arena_buf_add(&f->csv, "graph,lower_bound");
    for (size_t i = 0; i < c->n_sel; i++) {
        struct arena_buf tx = {0}, md = {0};
        arena_plot_tex(&tx, c->sel[i].label);
        arena_plot_md(&md, c->sel[i].label);
        arena_table_head(t, 2 + i, tx.s ? tx.s : "", md.s ? md.s : "", 'r', 1);
        arena_buf_free(&tx);
        arena_buf_free(&md);
        const char *what[] = {" arena", " x_lower_bound", " status"};
        for (size_t k = 0; k < 3; k++) {
            struct arena_buf h = {0};
            arena_buf_printf(&h, "%s%s", c->sel[i].name, what[k]);
            arena_buf_add(&f->csv, ",");
            arena_plot_csv(&f->csv, h.s ? h.s : "");
            arena_buf_free(&h);
        }
    }
    arena_buf_add(&f->csv, "\n");
    return 0;
}

/* Graph k's row, in the table and in the CSV file. */
static void suite_row(struct plot_ctx *c, struct suite_fig *f, size_t k)
{
    const struct arena_fig_graph *g = &c->d.graphs[f->rows[k]];
    struct arena_table *t = &f->t;
    struct arena_buf *csv = &f->csv;
    char lb[32];
    bytes3(lb, sizeof lb, (double)g->lower_bound);
    struct arena_buf name = {0};
    arena_plot_graph_name(c, f->rows, f->n, f->rows[k], &name);
    arena_table_row(t);
    arena_table_set(t, 0, name.s ? name.s : "", -1);
    arena_buf_free(&name);
    arena_table_set(t, 1, lb, -1);
    arena_plot_csv(csv, g->spec);
    arena_buf_printf(csv, ",%lld", (long long)g->lower_bound);
    for (size_t i = 0; i < c->n_sel; i++) {
        const struct arena_fig_result *r = arena_plot_find(c, f->rows[k], c->sel[i].name);
        char x[32] = "n/r";
        int mark = -1;
        const char *status = "not run";
        if (r && r->ok) {
            double ratio = (double)r->arena / (double)g->lower_bound;
            snprintf(x, sizeof x, "%.3f", ratio);
            f->logsum[i] += log(ratio);
            f->valid[i]++;
            status = arena_plot_is_limit(r) ? "limit" : "valid";
            if (arena_plot_is_limit(r)) mark = MARK_LIMIT;
            arena_buf_printf(csv, ",%lld", (long long)r->arena);
            arena_plot_csv_num(csv, 1, ratio);
        } else {
            if (r) snprintf(x, sizeof x, "--"), status = "no valid result", f->failed = 1;
            else f->absent = 1;
            arena_buf_add(csv, ",,");
        }
        arena_buf_printf(csv, ",%s", status);
        arena_table_set(t, 2 + i, x, mark);
    }
    arena_buf_add(csv, "\n");
}

/* The geometric-mean row and the notes under the table. */
static void suite_means(struct plot_ctx *c, struct suite_fig *f)
{
    struct arena_table *t = &f->t;
    size_t n = f->n;
    arena_table_row(t);
    arena_table_rule(t);
    arena_table_set(t, 0, "geometric mean", -1);
    arena_buf_add(&f->csv, "geometric mean,");
    for (size_t i = 0; i < c->n_sel; i++) {
        char x[32] = "--";
        int mark = -1;
        if (n && f->valid[i] == n) {
            double m = exp(f->logsum[i] / (double)n);
            snprintf(x, sizeof x, "%.3f", m);
            arena_buf_add(&f->csv, ",");
            arena_plot_csv_num(&f->csv, 1, m);
            arena_buf_add(&f->csv, ",");
        } else {
            mark = MARK_PART;
            arena_buf_add(&f->csv, ",,,");
        }
        arena_table_set(t, 2 + i, x, mark);
    }
    arena_buf_add(&f->csv, "\n");
    arena_table_note(t, MARK_LIMIT,
                     "The search stopped at its budget: a valid plan, not the planner's answer.");
    for (size_t i = 0; i < c->n_sel; i++)
        if (f->valid[i] != n) {
            char note[160];
            snprintf(note, sizeof note,
                     "A valid plan on fewer than the %zu graphs: no mean over a subset of them.", n);
            arena_table_note(t, MARK_PART, note);
        }
    int limits = 0;
    for (size_t i = 0; i < t->nrows * t->ncols; i++) limits |= t->mark[i] == MARK_LIMIT;
    if (!limits) {
        free(t->note[MARK_LIMIT]);
        t->note[MARK_LIMIT] = NULL;
    }
    if (f->failed) arena_table_line(t, "--: run in this configuration, without a valid plan.");
    if (f->absent) arena_table_line(t, "n/r: not run in this configuration.");
}

/* What the table is of: the measure, the graphs, the configuration, the runs. */
static void suite_about(struct plot_ctx *c, const struct suite_fig *f, struct arena_buf *about)
{
    size_t n = f->n;
    arena_buf_printf(about,
                     "Arena / lower bound of each graph's problem (LB: that bound), %zu graph%s"
                     " in configuration ",
                     n, n == 1 ? "" : "s");
    arena_plot_caret(about, arena_plot_config_label(c));
    if (c->d.n_runs == 1) arena_buf_printf(about, ", run %lld", (long long)c->d.runs[0]);
    else arena_buf_printf(about, ", %zu runs (newest result of each)", c->d.n_runs);
    if (f->cut) {
        struct arena_buf d = {0};
        arena_buf_addn(&d, c->d.graphs[f->rows[0]].spec, f->cut);
        arena_buf_add(about, "; graphs in ");
        arena_plot_caret(about, d.s ? d.s : "");
        arena_buf_free(&d);
    }
    arena_buf_add(about, ". The graphs:");
    for (size_t k = 0; k < n; k++) {
        arena_buf_add(about, k ? "; " : " ");
        arena_plot_caret(about, c->d.graphs[f->rows[k]].spec);
    }
    arena_buf_add(about, ".");
}

/* graphs.csv, graphs.md and graphs.tex. */
static int suite_series(struct plot_ctx *c, void *fig)
{
    struct suite_fig *f = fig;
    for (size_t k = 0; k < f->n; k++) suite_row(c, f, k);
    suite_means(c, f);
    struct arena_buf about = {0}, md = {0}, tex = {0};
    suite_about(c, f, &about);
    arena_table_tex(&f->t, about.s ? about.s : "", &tex);
    arena_table_md(&f->t, about.s ? about.s : "", &md);
    int rc = f->csv.oom || md.oom || tex.oom ? (snprintf(c->err, sizeof c->err, "out of memory"), 1) : 0;
    if (!rc) rc = arena_plot_put(c, "graphs.csv", &f->csv);
    if (!rc) rc = arena_plot_put(c, "graphs.md", &md);
    if (!rc) rc = arena_plot_put(c, "graphs.tex", &tex);
    arena_buf_free(&md);
    arena_buf_free(&tex);
    arena_buf_free(&about);
    return rc;
}

static void suite_free(void *fig)
{
    struct suite_fig *f = fig;
    arena_buf_free(&f->csv);
    arena_table_free(&f->t);
    free(f->rows);
    free(f->logsum);
    free(f->valid);
}

int arena_plot_suite_table(struct plot_ctx *c)
{
    static const struct plot_figure steps = {suite_begin, suite_series, NULL, suite_free};
    struct suite_fig f = {0};
    return arena_plot_figure(c, &steps, &f);
}
