/* plot.c — `bench plot`: charts and tables for papers from a results
 * database. results/figdata.c reads the database (bound parameters only);
 * here are the command's option rows (options.h; the selection's are
 * filters.c's), and the planners are chosen, ordered and styled,
 * the graph and the results that count chosen, and the figures called
 * (plot_graph.c, plot_replay.c, plot_tables.c, plot_across.c: see
 * plot_internal.h); each writes its data (NAME.csv) and gnuplot script
 * (NAME.gp, made from the templates in bench/plot/templates) into a
 * temporary folder inside --out; gnuplot (one process per figure, nothing
 * else is started) draws every size and format; the files are renamed
 * into place only when all of it succeeded. */
#include "bench/plot/plot_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "planners/planner.h"
#include "planners/status.h"
#include "results/figdata.h"
#include "results/stats.h"

static int usage(const char *fmt, const char *arg)
{
    fprintf(stderr, PLOT_PROG ": ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    return 2;
}

/* Each item of the comma list is one of the names name_of gives; 0 or an
 * error naming them. */
static int check_list(const struct arena_opt *o, const char *list, char *err, size_t errlen)
{
    if (!*list) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s needs a list", o->name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *w;
        size_t k = 0;
        while ((w = o->name_of(k)) && !(strlen(w) == len && strncmp(p, w, len) == 0)) k++;
        if (!w) {
            char known[200] = "";
            for (k = 0; (w = o->name_of(k)); k++)
                snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                         k ? ", " : "", w);
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: unknown item '%.*s' (%s)",
                                o->name, (int)len, p, known);
        }
        p += len + (e ? 1 : 0);
    }
    return ARENA_OK;
}

typedef struct plot_opts P;

static int read_run(void *base, const struct arena_opt *o, const char *v, char *err,
                    size_t errlen)
{
    P *p = base;
    if (strcmp(v, "all") == 0) {
        p->run = 0;
        return ARENA_OK;
    }
    char *end;
    errno = 0;
    long long r = strtoll(v, &end, 10);
    if (!*v || *end || errno || r <= 0 || v[0] == '+' || v[0] == ' ')
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s needs a run id (a positive number) or all, got '%s'", o->name, v);
    p->run = r;
    return ARENA_OK;
}

static const char *format_name(size_t i)
{
    static const char *const names[] = {"png", "pdf", "svg"};
    return i < 3 ? names[i] : NULL;
}

static int read_formats(void *base, const struct arena_opt *o, const char *v, char *err,
                        size_t errlen)
{
    int rc = check_list(o, v, err, errlen);
    if (rc == ARENA_OK) ((P *)base)->formats = v;
    return rc;
}

static const char *figure_name(size_t i)
{
    return i < PLOT_NFIGS ? arena_plot_figure_names[i] : NULL;
}

static int read_figures(void *base, const struct arena_opt *o, const char *v, char *err,
                        size_t errlen)
{
    P *p = base;
    int rc = check_list(o, v, err, errlen);
    for (size_t f = 0; rc == ARENA_OK && f < PLOT_NFIGS; f++)
        p->want[f] = arena_plot_in_list(v, arena_plot_figure_names[f]);
    return rc;
}

static const char *size_name(size_t i)
{
    static const char *const names[] = {"one", "two", "both"};
    return i < 3 ? names[i] : NULL;
}

static int read_range(void *base, const struct arena_opt *o, const char *v, char *err,
                      size_t errlen)
{
    P *p = base;
    char *end;
    errno = 0;
    double lo = strtod(v, &end), hi = 0;
    int ok = end != v && *end == ':' && errno == 0;
    if (ok) {
        const char *h = end + 1;
        hi = strtod(h, &end);
        ok = end != h && *end == '\0' && errno == 0 && isfinite(lo) && isfinite(hi) && lo >= 0 &&
             hi > lo;
    }
    if (!ok)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s needs LO:HI, two ratios with 0 <= LO < HI (1:1.5), got '%s'",
                            o->name, v);
    p->range_lo = lo;
    p->range_hi = hi;
    return ARENA_OK;
}

static int read_label(void *base, const struct arena_opt *o, const char *v, char *err,
                      size_t errlen)
{
    P *p = base;
    if (p->n_labels == sizeof p->labels / sizeof p->labels[0])
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: more than 64", o->name);
    if (arena_label_rename_parse(v, &p->labels[p->n_labels]) != ARENA_OK)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s needs SPEC=TEXT (a planner's name or spec and what to call it),"
                            " got '%s'", o->name, v);
    p->n_labels++;
    return ARENA_OK;
}

static const char *per_graph_name(size_t i)
{
    static const char *const names[] = {"auto", "first", "each"};
    return i < 3 ? names[i] : NULL;
}

static const char *color_by_name(size_t i)
{
    static const char *const names[] = {"planner", "kind"};
    return i < 2 ? names[i] : NULL;
}

const struct arena_opt arena_bench_plot_options[] = {
    {.name = "--run", .kind = ARENA_OPT_CUSTOM, .arg = "ID|all", .parse = read_run,
     .unset = "the newest run with results", .in = ARENA_IN_PLOT,
     .help = "one run (a runs.id), or every run; with several runs, per graph x planner the"
             " newest run's result (the largest runs.started_at, ties the larger id)"},
    {.name = "--planner", .alias = "--planners", .kind = ARENA_OPT_TEXT, .arg = "LIST|all",
     .unset = "every planner measured", .in = ARENA_IN_PLOT, ARENA_OPT_AT(P, planners),
     .help = "the planners to show, in order, or all (every planner measured, in the"
             " registry's order; the quality figure leaves naive out unless it is named)"},
    {.name = "--out", .kind = ARENA_OPT_TEXT, .arg = "DIR", .def = "results/charts",
     .in = ARENA_IN_PLOT, ARENA_OPT_AT(P, out),
     .help = "the output folder, created when missing"},
    {.name = "--size", .kind = ARENA_OPT_CHOICE, .name_of = size_name, .def = "both",
     .in = ARENA_IN_PLOT, ARENA_OPT_AT(P, size_index),
     .help = "one column (3.3 in, 7 pt text), two (7 in, 8 pt), or both"},
    {.name = "--format", .alias = "--formats", .kind = ARENA_OPT_CUSTOM, .arg = "LIST",
     .parse = read_formats, .name_of = format_name, .values = "a comma list of",
     .def = "png,pdf,svg", .in = ARENA_IN_PLOT,
     .help = "the image formats of every figure"},
    {.name = "--figures", .kind = ARENA_OPT_CUSTOM, .arg = "LIST", .parse = read_figures,
     .name_of = figure_name, .values = "a comma list of", .unset = "all", .in = ARENA_IN_PLOT,
     .help = "the figures to draw (fixed: arena / the graph's bound untransformed, for a"
             " configuration that transforms it; configs: every configuration side by side; mcu:"
             " TFLM's whole arena per network and planner against the SRAM of common parts)",
     .see = "figures.md#files-written"},
    {.name = "--per-graph", .kind = ARENA_OPT_CHOICE, .name_of = per_graph_name, .def = "auto",
     .in = ARENA_IN_PLOT, ARENA_OPT_AT(P, per_graph),
     .help = "the per-graph figures and tables (arena, layout, live, replay, comparison): of the"
             " first graph selected, in --out; or of each graph of the figures' configuration,"
             " each in its own folder graphs/NAME/ (NAME: the graph as graphs.tex names it);"
             " auto: each with --suite or --family, else first"},
    {.name = "--label", .kind = ARENA_OPT_CUSTOM, .arg = "SPEC=TEXT", .parse = read_label,
     .unset = "its name and the keys that differ", .in = ARENA_IN_PLOT,
     .help = "what every figure and table calls the planners SPEC names (a name, or a spec:"
             " 'optimal:off=stack=No stacks'), followed by the keys that differ among the"
             " planners shown and SPEC does not give, e.g. --label 'lfbf=LFBF (ours)'; again"
             " for another planner; the CSV files keep the stored specs"},
    {.name = "--range", .kind = ARENA_OPT_CUSTOM, .arg = "LO:HI", .parse = read_range,
     .unset = "from the least ratio to 1.75 x the best median", .in = ARENA_IN_PLOT,
     .help = "the ratio axis of the quality and fixed figures; by default it ends at 1.75"
             " times the best planner's median when anything lies beyond (planners past it"
             " are arrows with their medians), else at the largest ratio"},
    {.name = "--dpi", .kind = ARENA_OPT_UINT, .arg = "N", .min = 50, .max = 1200, .def = "200",
     .in = ARENA_IN_PLOT, ARENA_OPT_AT(P, dpi),
     .help = "PNG resolution (200: 660 px one column, 1,400 px two)"},
    {.name = "--color-by", .kind = ARENA_OPT_CHOICE, .name_of = color_by_name,
     .def = "planner", .in = ARENA_IN_PLOT, ARENA_OPT_AT(P, color_by_kind),
     .help = "a color per planner (Okabe-Ito), or per kind (offsets, shared-objects, search,"
             " online) with dashes and points telling the planners of a kind apart"},
    {.name = "--quiet", .alias = "-q", .kind = ARENA_OPT_FLAG, .in = ARENA_IN_PLOT,
     ARENA_OPT_AT(P, quiet),
     .help = "no notes on stderr, no file list on stdout"},
};
const size_t arena_bench_plot_option_count =
    sizeof arena_bench_plot_options / sizeof arena_bench_plot_options[0];

/* 0, ARENA_BENCH_HELP_ASKED, or 2 after a message. */
static int parse(int argc, char **argv, struct plot_opts *o)
{
    memset(o, 0, sizeof *o);
    o->run = -1;
    for (size_t i = 0; i < PLOT_NFIGS; i++) o->want[i] = 1;
    char why[600] = "";
    int rc = arena_bench_filters_parse(argc, argv, arena_bench_plot_options,
                                       arena_bench_plot_option_count, o, ARENA_IN_PLOT, &o->f,
                                       why, sizeof why);
    if (rc == ARENA_OPT_HELP) return ARENA_BENCH_HELP_ASKED;
    if (rc != ARENA_OK) return usage("%s", why);
    o->sizes = o->size_index + 1; /* one 1, two 2, both 3 */
    o->graph = o->f.sel.n_graphs ? o->f.sel.graphs[0] : NULL;
    return 0;
}

/* ------------------------------------------------------------ selection */

/* by[graph x shown planner]: one pass over the results. */
static int index_results(struct plot_ctx *c)
{
    c->by = calloc(c->d.n_graphs * c->n_sel + 1, sizeof *c->by);
    if (!c->by) return -1;
    for (size_t r = 0; r < c->d.n_results; r++)
        for (size_t i = 0; i < c->n_sel; i++)
            if (strcmp(c->sel[i].name, c->d.results[r].planner) == 0)
                c->by[c->d.results[r].graph * c->n_sel + i] = &c->d.results[r];
    return 0;
}

/* A planner's color, dash and point by its place. Colors alone cannot tell
 * planners apart in a grey print (the Okabe-Ito orange and sky blue print
 * the same grey), so dash and point do it on their own: the point cycles
 * through 15 shapes (6 outlines open and filled, +, x, *) and the dash
 * through 5 patterns, advanced two more every 15 places (dash-dot beside
 * dash-dot-dot would be too alike in a legend's short sample), so no two
 * of the first 75 places share both; by kind the color follows the kind and
 * dash and point still the place. */
static void style(struct plot_ctx *c, struct plot_shown *s, size_t place)
{
    static const unsigned palette[] = {0x000000, 0xE69F00, 0x56B4E9, 0x009E73,
                                       0x0072B2, 0xD55E00, 0xCC79A7, 0x999999};
    /* filled circle, square, triangle up, diamond, triangle down, then
     * the open square, triangle up, diamond, triangle down, circle: an open
     * shape 4 or 9 places from its filled one, so never on the same dash */
    static const int points[] = {7, 5, 9, 13, 11, 4, 8, 12, 10, 6, 15, 14, 1, 2, 3};
    size_t p = place;
    if (c->o.color_by_kind) {
        s->color = strcmp(s->kind, "offsets") == 0          ? 0x0072B2
                   : strcmp(s->kind, "shared-objects") == 0 ? 0xE69F00
                   : strcmp(s->kind, "search") == 0         ? 0xD55E00
                   : strcmp(s->kind, "online") == 0         ? 0x009E73
                                                            : 0x555555;
    } else {
        s->color = palette[place % 8];
    }
    s->dt = 1 + (int)((p + 2 * (p / 15)) % 5);
    s->pt = points[p % 15];
}

/* The built-in planner of identity id (its spec, no origin), or NULL. */
static const struct arena_planner *built_in(const char *id)
{
    char name[80];
    if (strchr(id, ' ')) return NULL; /* "NAME (plugin ...)", "NAME (cmd ...)" */
    arena_planner_id_name(id, name, sizeof name);
    return arena_planner_find(name);
}

/* Registry place of the planner shown last; after the registry, the order
 * shown: planners from outside, and a built-in planner's second spec and
 * on (an ablation's specs each get a style of their own). */
static size_t place_of(struct plot_ctx *c, const char **kind)
{
    size_t n = arena_planner_count(), me = c->n_sel - 1;
    const struct arena_planner *own = built_in(c->sel[me].name);
    *kind = own ? arena_planner_kind_name(own->kind) : "unknown";
    size_t before = 0;
    for (size_t i = 0; own && i < me; i++) before += built_in(c->sel[i].name) == own;
    for (size_t i = 0; own && !before && i < n; i++)
        if (arena_planner_at(i) == own) return i;
    return n + c->extra_places++;
}

static int add_shown(struct plot_ctx *c, const char *name)
{
    struct plot_shown *g = realloc(c->sel, (c->n_sel + 1) * sizeof *g);
    if (!g) return -1;
    c->sel = g;
    struct plot_shown *s = &c->sel[c->n_sel++];
    s->name = name;
    s->label = NULL; /* label_shown, once every planner shown is known */
    style(c, s, place_of(c, &s->kind));
    return 0;
}

/* Every planner shown gets its label among them (results/planner_label.h). */
static int label_shown(struct plot_ctx *c)
{
    const char **ids = malloc((c->n_sel ? c->n_sel : 1) * sizeof *ids);
    char **labels = malloc((c->n_sel ? c->n_sel : 1) * sizeof *labels);
    int rc = ids && labels ? 0 : -1;
    for (size_t i = 0; !rc && i < c->n_sel; i++) ids[i] = c->sel[i].name;
    if (!rc) rc = arena_planner_labels(ids, c->n_sel, c->o.labels, c->o.n_labels, labels) ? -1 : 0;
    for (size_t i = 0; !rc && i < c->n_sel; i++) c->sel[i].label = labels[i];
    free(ids);
    free(labels);
    return rc;
}

/* Specs in natural order: text as text, a run of digits by its value. */
static int by_spec(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    while (*x && *y) {
        if (isdigit((unsigned char)*x) && isdigit((unsigned char)*y)) {
            size_t nx = strspn(x, "0123456789"), ny = strspn(y, "0123456789");
            while (nx > 1 && *x == '0') x++, nx--;
            while (ny > 1 && *y == '0') y++, ny--;
            if (nx != ny) return nx < ny ? -1 : 1;
            int c = strncmp(x, y, nx);
            if (c) return c;
            x += nx, y += ny;
            continue;
        }
        if (*x != *y) return (unsigned char)*x < (unsigned char)*y ? -1 : 1;
        x++, y++;
    }
    return (unsigned char)*x - (unsigned char)*y;
}

static int choose_planners(struct plot_ctx *c)
{
    const char *list = c->o.planners;
    if (!list || strcmp(list, "all") == 0) {
        c->planners_given = list != NULL;
        size_t n = arena_planner_count();
        char **specs = malloc((c->d.n_planners ? c->d.n_planners : 1) * sizeof *specs);
        if (!specs) return -1;
        for (size_t i = 0; i < n; i++) {
            const struct arena_planner *p = arena_planner_at(i);
            size_t m = 0; /* its specs, by value: seed=2 before seed=10 */
            for (size_t k = 0; k < c->d.n_planners; k++)
                if (built_in(c->d.planners[k]) == p) specs[m++] = c->d.planners[k];
            qsort(specs, m, sizeof *specs, by_spec);
            for (size_t k = 0; k < m; k++)
                if (add_shown(c, specs[k])) {
                    free(specs);
                    return -1;
                }
        }
        free(specs);
        for (size_t k = 0; k < c->d.n_planners; k++)
            if (!built_in(c->d.planners[k]) && add_shown(c, c->d.planners[k])) return -1;
        return 0;
    }
    c->planners_given = 1;
    for (const char *p = list;;) {
        /* an item: a name, or a spec whose key=value pieces follow it */
        size_t len = strcspn(p, ",");
        while (p[len] == ',' && memchr(p, ':', len)) {
            size_t next = strcspn(p + len + 1, ",");
            if (!memchr(p + len + 1, '=', next) || memchr(p + len + 1, ':', next)) break;
            len += 1 + next;
        }
        const char *e = p[len] ? p + len : NULL;
        if (!len) {
            snprintf(c->err, sizeof c->err, "--planner: empty name in '%s'", list);
            return 2;
        }
        /* the planner stored under that identity, else every spec it names
         * (a name: all of that planner's specs) */
        size_t k, named = 0, added = 0;
        for (k = 0; k < c->d.n_planners; k++)
            if (strlen(c->d.planners[k]) == len && strncmp(c->d.planners[k], p, len) == 0) break;
        for (size_t j = 0; j < c->d.n_planners; j++) {
            if (k < c->d.n_planners ? j != k : !arena_planner_spec_names(c->d.planners[j], p, len))
                continue;
            named++;
            size_t s = 0;
            while (s < c->n_sel && strcmp(c->sel[s].name, c->d.planners[j]) != 0) s++;
            if (s < c->n_sel) continue;
            if (add_shown(c, c->d.planners[j])) return -1;
            added++;
        }
        if (named && !added) {
            snprintf(c->err, sizeof c->err, "--planner: '%.*s' given twice", (int)len, p);
            return 2;
        }
        if (!named) {
            struct arena_buf b = {0};
            for (size_t j = 0; j < c->d.n_planners; j++) {
                if (j) arena_buf_add(&b, " ");
                arena_plot_caret(&b, c->d.planners[j]);
            }
            struct arena_buf w = {0};
            arena_buf_addn(&w, p, len);
            struct arena_buf ws = {0};
            arena_plot_caret(&ws, w.s ? w.s : "");
            snprintf(c->err, sizeof c->err, "unknown planner '%s' in the selected runs (planners: %s)",
                     ws.s ? ws.s : "", b.s ? b.s : "");
            arena_buf_free(&b);
            arena_buf_free(&w);
            arena_buf_free(&ws);
            return 2;
        }
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

/* The entry of graph b in configuration k, or n_graphs. */
static size_t entry_of(const struct plot_ctx *c, size_t b, size_t k)
{
    for (size_t i = 0; i < c->d.n_graphs; i++)
        if (c->d.graphs[i].base == b && c->d.graphs[i].config == k) return i;
    return c->d.n_graphs;
}

/* Whether the per-graph figures are drawn for each graph (--per-graph). */
static int each_graph(const struct plot_ctx *c)
{
    if (c->o.per_graph) return c->o.per_graph == 2;
    return c->o.f.sel.n_suites > 0 || c->o.f.sel.n_families > 0;
}

/* The figures' configuration and the per-graph figures' graph: the first
 * graph --graph names (every graph the data holds passed the filters),
 * else the first measured; the first configuration measured that has it. */
static int choose_graph(struct plot_ctx *c)
{
    size_t base = 0, hits = 0;
    const char *g = c->o.graph;
    for (size_t b = 0; g && b < c->d.n_bases; b++) {
        struct arena_select one = {.graphs = &g, .n_graphs = 1};
        const char *family = "";
        for (size_t i = 0; i < c->d.n_graphs; i++)
            if (c->d.graphs[i].base == b) family = c->d.graphs[i].family;
        if (arena_select_graph(&one, c->d.bases[b], family) && !hits++) base = b;
    }
    if (!g) hits = c->d.n_bases;
    size_t k = 0;
    while (k < c->d.n_configs && entry_of(c, base, k) == c->d.n_graphs) k++;
    c->cfg = k < c->d.n_configs ? k : 0;
    c->graph = entry_of(c, base, c->cfg);
    if (c->graph == c->d.n_graphs) c->graph = 0;
    int per_graph = arena_plot_want(c, "arena") || arena_plot_want(c, "layout") ||
                    arena_plot_want(c, "live") || arena_plot_want(c, "tables");
    struct arena_buf sp = {0};
    arena_plot_caret(&sp, c->d.bases[base]);
    if (hits > 1 && per_graph && !each_graph(c))
        arena_plot_note(c, "%zu graphs selected; per-graph figures show %s (choose with --graph)",
                        hits, sp.s ? sp.s : "");
    arena_buf_free(&sp);
    if (c->d.n_configs > 1) {
        struct arena_buf all = {0};
        for (size_t i = 0; i < c->d.n_configs; i++) {
            if (i) arena_buf_add(&all, "; ");
            arena_plot_caret(&all, c->d.configs[i].label);
        }
        arena_plot_note(c,
                        "%zu configurations (%s): each figure shows %s, the tables every one"
                        " (choose with --inplace, --order, --patch, --alignment)",
                        c->d.n_configs, all.s ? all.s : "", c->d.configs[c->cfg].label);
        arena_buf_free(&all);
    }
    for (size_t i = 0; i < c->d.n_graphs; i++) {
        const struct arena_fig_graph *e = &c->d.graphs[i];
        if (!e->superseded) continue;
        struct arena_buf name = {0};
        arena_plot_caret(&name, e->spec);
        arena_plot_note(c, "%s (%s): %zu older result%s of another problem under this spec left out"
                           " (%s): only its newest problem's results are shown",
                        name.s ? name.s : "", c->d.configs[e->config].label, e->superseded,
                        e->superseded == 1 ? "" : "s", e->superseded_planners);
        arena_buf_free(&name);
    }
    return 0;
}

static int styles_csv(struct plot_ctx *c)
{
    struct arena_buf b = {0};
    arena_buf_add(&b, "planner,kind,color,dash,point\n");
    for (size_t i = 0; i < c->n_sel; i++) {
        arena_plot_csv(&b, c->sel[i].name);
        arena_buf_printf(&b, ",%s,#%06X,%d,%d\n", c->sel[i].kind, c->sel[i].color,
                              c->sel[i].dt, c->sel[i].pt);
    }
    int rc = arena_plot_put(c, "styles.csv", &b);
    arena_buf_free(&b);
    return rc;
}

/* ------------------------------------------------------------ driver */

/* Removes path and, for a folder, everything in it (links not followed). */
static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    DIR *d = S_ISDIR(st.st_mode) ? opendir(path) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        remove_tree(sub);
    }
    if (d) closedir(d);
    remove(path);
}

/* The temporary folder is bench plot's own (mkdtemp): everything in it
 * goes. */
static void remove_tmp(struct plot_ctx *c)
{
    if (c->tmp) remove_tree(c->tmp);
}

/* Makes the folders of path below root (root exists): 0 or -1. */
static int make_parents(const char *root, const char *rel)
{
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s", root, rel);
    if (n < 0 || (size_t)n >= sizeof path) return -1;
    for (char *s = path + strlen(root) + 1; (s = strchr(s, '/')); s++) {
        *s = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) return -1;
        *s = '/';
    }
    return 0;
}

/* The per-graph figures of every graph of the figures' configuration,
 * each into graphs/NAME/ (a name two graphs share gets -2, -3, ...). */
static int per_graph_each(struct plot_ctx *c)
{
    size_t *rows = malloc((c->d.n_graphs + 1) * sizeof *rows), n = 0;
    char (*dirs)[256] = calloc(c->d.n_graphs + 1, sizeof *dirs);
    if (!rows || !dirs) {
        free(rows);
        free(dirs);
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    for (size_t g = 0; g < c->d.n_graphs; g++)
        if (arena_plot_in_config(c, g)) rows[n++] = g;
    int rc = 0;
    for (size_t k = 0; k < n && !rc; k++) {
        struct arena_buf name = {0};
        arena_plot_graph_name(c, rows, n, rows[k], &name);
        snprintf(c->graph_name, sizeof c->graph_name, "%s", name.s ? name.s : "");
        /* a folder name: the graph's name with every byte but letters,
         * digits and . = + - as _ */
        char slug[200];
        size_t j = 0;
        for (const char *p = name.s ? name.s : "graph"; *p && j + 1 < 180; p++)
            slug[j++] = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                                (*p >= '0' && *p <= '9') || strchr(".=+-", *p)
                            ? *p
                            : '_';
        slug[j] = '\0';
        if (!j || slug[0] == '.') slug[0] = '_', slug[j ? j : 1] = '\0';
        arena_buf_free(&name);
        snprintf(dirs[k], sizeof dirs[k], "%s", slug);
        for (int again = 2, clash = 1; clash; again++) {
            clash = 0;
            for (size_t i = 0; i < k; i++) clash |= strcmp(dirs[i], dirs[k]) == 0;
            if (clash) snprintf(dirs[k], sizeof dirs[k], "%s-%d", slug, again);
        }
        snprintf(c->sub, sizeof c->sub, "graphs/%s", dirs[k]); /* made when written */
        c->graph = rows[k];
        rc = arena_plot_per_graph(c);
    }
    char conf[128];
    arena_plot_config_dir(c, conf, sizeof conf);
    if (!rc && n)
        arena_plot_note(c, "per-graph figures of %zu graph%s, each in %s/%s%sgraphs/NAME/", n,
                        n == 1 ? "" : "s", c->o.out, conf, conf[0] ? "/" : "");
    c->sub[0] = '\0';
    c->graph_name[0] = '\0';
    free(rows);
    free(dirs);
    return rc;
}

static int run(struct plot_ctx *c)
{
    int rc = arena_figdb_open(c->o.f.db, &c->db, c->err, sizeof c->err);
    if (rc) return rc == ARENA_ENOMEM ? 1 : 2;
    if (arena_figdb_note(c->db)) arena_plot_note(c, "%s: %s", c->o.f.db, arena_figdb_note(c->db));
    rc = arena_figdb_load(c->db, c->o.run, &c->o.f.sel, &c->d, c->err, sizeof c->err);
    if (rc == ARENA_ENOTFOUND && c->o.graph) { /* name the graphs there are */
        struct arena_select rest = c->o.f.sel;
        rest.graphs = NULL;
        rest.n_graphs = 0;
        struct arena_fig_data all;
        char why[200];
        if (arena_figdb_load(c->db, c->o.run, &rest, &all, why, sizeof why) == ARENA_OK) {
            struct arena_buf b = {0}, w = {0};
            arena_plot_caret(&w, c->o.graph);
            for (size_t i = 0; i < all.n_bases && i < 8; i++) {
                if (i) arena_buf_add(&b, "; ");
                arena_plot_caret(&b, all.bases[i]);
            }
            if (all.n_bases > 8) arena_buf_add(&b, "; ...");
            snprintf(c->err, sizeof c->err, "unknown graph '%s' in the selected runs (graphs: %s)",
                     w.s ? w.s : "", b.s ? b.s : "");
            arena_buf_free(&b);
            arena_buf_free(&w);
        }
        arena_fig_data_free(&all);
    }
    if (rc) return rc == ARENA_ENOMEM ? 1 : 2;
    if ((rc = choose_planners(c))) return rc < 0 ? (snprintf(c->err, sizeof c->err, "out of memory"), 1) : 2;
    if (!c->n_sel) {
        snprintf(c->err, sizeof c->err, "the selected runs have no planners to show");
        return 2;
    }
    for (size_t i = 0; i < c->o.n_labels; i++) {
        const struct arena_label_rename *l = &c->o.labels[i];
        size_t k = 0;
        while (k < c->n_sel && !arena_planner_spec_names(c->sel[k].name, l->spec, l->spec_len)) k++;
        if (k == c->n_sel) {
            int n = (int)(l->spec_len < 200 ? l->spec_len : 200);
            snprintf(c->err, sizeof c->err, "--label %.*s=%.200s: no planner '%.*s' shown", n,
                     l->spec, l->text, n, l->spec);
            return 2;
        }
    }
    if (label_shown(c)) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    if (index_results(c)) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    int any = 0;
    for (size_t i = 0; i < c->d.n_results && !any; i++)
        for (size_t k = 0; k < c->n_sel && !any; k++)
            any = c->d.results[i].ok && strcmp(c->d.results[i].planner, c->sel[k].name) == 0;
    if (!any) {
        snprintf(c->err, sizeof c->err, "%s: no valid result to show in the selected runs", c->o.f.db);
        return 2;
    }
    if ((rc = choose_graph(c))) return rc;
    c->tpl = arena_plot_template_dir();
    if (!c->tpl) {
        snprintf(c->err, sizeof c->err, "no gnuplot templates at %s or %s",
                 ARENA_PLOT_TEMPLATES_SRC, ARENA_PLOT_TEMPLATES_INSTALLED);
        return 1;
    }
    /* The output folder, then a temporary folder inside it. */
    struct stat sb;
    int made = 0;
    if (stat(c->o.out, &sb) != 0) {
        char *p = strdup(c->o.out);
        if (!p) return 1;
        for (char *s = p + 1; *s; s++) {
            if (*s != '/') continue;
            *s = '\0';
            mkdir(p, 0777);
            *s = '/';
        }
        int ok = mkdir(p, 0777) == 0 || errno == EEXIST;
        free(p);
        if (!ok) {
            snprintf(c->err, sizeof c->err, "cannot create output folder %s (%s)", c->o.out,
                     strerror(errno));
            return 1;
        }
        made = 1;
    } else if (!S_ISDIR(sb.st_mode)) {
        snprintf(c->err, sizeof c->err, "--out %s is not a folder", c->o.out);
        return 2;
    }
    size_t tl = strlen(c->o.out) + 32;
    c->tmp = malloc(tl);
    if (!c->tmp) return 1;
    snprintf(c->tmp, tl, "%s/.plot-tmp.XXXXXX", c->o.out);
    if (!mkdtemp(c->tmp)) {
        snprintf(c->err, sizeof c->err, "cannot write into %s (%s)", c->o.out, strerror(errno));
        free(c->tmp);
        c->tmp = NULL;
        if (made) rmdir(c->o.out);
        return 1;
    }
    rc = styles_csv(c);
    if (!rc && (arena_plot_want(c, "arena") || arena_plot_want(c, "layout") ||
                arena_plot_want(c, "live") || arena_plot_want(c, "tables") ||
                arena_plot_want(c, "replay"))) {
        size_t first = c->graph;
        rc = each_graph(c) ? per_graph_each(c) : arena_plot_per_graph(c);
        c->graph = first;
    }
    if (!rc && arena_plot_want(c, "tables")) rc = arena_plot_suite_table(c);
    if (!rc && arena_plot_want(c, "scaling")) rc = arena_plot_fig_scaling(c);
    if (!rc && arena_plot_want(c, "quality")) rc = arena_plot_fig_quality(c);
    if (!rc && arena_plot_want(c, "fixed")) rc = arena_plot_fig_fixed(c);
    if (!rc && arena_plot_want(c, "stats")) rc = arena_plot_fig_stats(c);
    if (!rc && arena_plot_want(c, "configs")) {
        c->all_configs = 1; /* of every configuration: at the top of --out */
        rc = arena_plot_fig_configs(c);
        c->all_configs = 0;
    }
    if (!rc && arena_plot_want(c, "mcu")) rc = arena_plot_fig_mcu(c);
    if (rc) {
        remove_tmp(c);
        if (made) rmdir(c->o.out);
        return rc;
    }
    for (size_t i = 0; i < c->n_written; i++) {
        char from[4096], to[4096];
        snprintf(from, sizeof from, "%s/%s", c->tmp, c->written[i]);
        snprintf(to, sizeof to, "%s/%s", c->o.out, c->written[i]);
        if (make_parents(c->o.out, c->written[i]) != 0 || rename(from, to) != 0) {
            snprintf(c->err, sizeof c->err, "cannot move %s into %s (%s)", c->written[i],
                     c->o.out, strerror(errno));
            remove_tmp(c);
            return 1;
        }
    }
    remove_tmp(c); /* the emptied folders left */
    return 0;
}

int arena_bench_plot_main(int argc, char **argv)
{
    struct plot_ctx c;
    memset(&c, 0, sizeof c);
    int rc = parse(argc, argv, &c.o);
    if (rc) {
        arena_bench_filters_free(&c.o.f);
        return rc;
    }
    rc = run(&c);
    if (rc) {
        for (char *p = c.err; *p; p++)
            if ((unsigned char)*p < 32) *p = ' ';
        fprintf(stderr, PLOT_PROG ": %s\n", c.err[0] ? c.err : "failed");
    } else if (!c.o.quiet) {
        for (size_t i = 0; i < c.n_written; i++) printf("%s/%s\n", c.o.out, c.written[i]);
        if (c.notes.s) fputs(c.notes.s, stderr);
        struct arena_buf g = {0};
        if (c.d.n_graphs) {
            arena_plot_caret(&g, c.d.graphs[c.graph].spec);
            arena_buf_add(&g, " \xC2\xB7 ");
            arena_plot_caret(&g, arena_plot_config_label(&c));
        }
        if (c.d.n_runs == 1)
            fprintf(stderr, PLOT_PROG ": %zu files in %s (run %lld, graph %s)\n", c.n_written, c.o.out,
                    (long long)c.d.runs[0], g.s ? g.s : "");
        else
            fprintf(stderr, PLOT_PROG ": %zu files in %s (%zu runs, graph %s)\n", c.n_written, c.o.out,
                    c.d.n_runs, g.s ? g.s : "");
        arena_buf_free(&g);
        if (fflush(stdout) != 0) rc = 1;
    }
    for (size_t i = 0; i < c.n_written; i++) free(c.written[i]);
    free(c.written);
    free(c.tmp);
    for (size_t i = 0; i < c.n_sel; i++) free(c.sel[i].label);
    free(c.sel);
    free(c.by);
    arena_buf_free(&c.notes);
    arena_buf_free(&c.caption);
    arena_fig_data_free(&c.d);
    arena_figdb_close(c.db);
    arena_bench_filters_free(&c.o.f);
    return rc;
}
