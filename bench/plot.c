/* plot.c — `bench plot`: charts and tables for papers from a results
 * database. results/figdata.c reads the database (bound parameters only);
 * here the planners are chosen, ordered and styled, graphs paired, quartiles
 * and statistics computed, and each figure's data (NAME.csv) and gnuplot
 * script (NAME.gp, made from the templates in bench/plot/templates) written
 * into a temporary folder inside --out; gnuplot (one process per figure,
 * nothing else is started) draws every size and format; the files are
 * renamed into place only when all of it succeeded. */
#include "bench/plot.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/args.h"
#include "planners/planner.h"
#include "planners/status.h"
#include "results/figdata.h"
#include "results/stats.h"

#define PROG "bench: plot"

static const char *const figure_names[] = {"arena", "layout", "live", "scaling", "quality",
                                           "tables", "replay", "stats"};
#define NFIGS (sizeof figure_names / sizeof figure_names[0])

struct opts {
    const char *db, *graph, *planners, *out, *formats;
    int64_t run; /* -1 newest, 0 all */
    int sizes;   /* bit 1: one column, bit 2: two */
    int want[NFIGS];
    int dpi, color_by_kind, quiet;
};

/* A planner shown, in the order shown. */
struct shown {
    const char *name;
    const char *kind;
    unsigned color;
    int dt, pt;
};

struct ctx {
    struct opts o;
    struct arena_figdb *db;
    struct arena_fig_data d;
    struct shown *sel;
    size_t n_sel;
    const struct arena_fig_result **by; /* n_graphs x n_sel, see find() */
    int planners_given;
    size_t graph; /* index of the per-graph figures' graph */
    int64_t ref;  /* best proven figure of that graph, 0 none */
    int ref_opt;
    char *tmp;    /* temporary folder inside out */
    const char *tpl;
    struct plot_buf notes;
    char **written;
    size_t n_written;
    char err[1200];
};

static int usage(const char *fmt, const char *arg)
{
    fprintf(stderr, PROG ": ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    return 2;
}

static void note(struct ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void note(struct ctx *c, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    plot_buf_printf(&c->notes, PROG ": %s\n", line);
}

static const char help[] =
    "usage: bench plot [--db PATH] [--run ID|all] [--graph SPEC] [--planner LIST|all]\n"
    "                  [--out DIR] [--size one|two|both] [--format png,pdf,svg]\n"
    "                  [--figures LIST] [--dpi N] [--color-by planner|kind] [--quiet]\n"
    "Charts and tables from an arenabench results database, drawn by gnuplot.\n"
    "  --db PATH        database (default results/arenabench.sqlite), read-only\n"
    "  --run ID|all     one run, or every run (default: the newest run with results);\n"
    "                   with several runs, per graph x planner the newest run's result\n"
    "  --graph SPEC     graph of the per-graph figures and tables: a stored spec, a\n"
    "                   family or a spec prefix naming one graph (default: the first)\n"
    "  --planner LIST   planners to show, in order, or all (default: every planner\n"
    "                   measured, in the registry's order; quality leaves naive out)\n"
    "  --out DIR        output folder (default results/charts), created if missing\n"
    "  --size one|two|both   one column (3.3 in, 7 pt text), two (7 in, 8 pt), both\n"
    "  --format LIST    png,pdf,svg (default all three)\n"
    "  --figures LIST   arena,layout,live,scaling,quality,tables,replay,stats (default all)\n"
    "  --dpi N          PNG resolution, 50 to 1200 (default 200)\n"
    "  --color-by planner|kind   a color per planner (Okabe-Ito, default) or per kind\n"
    "  --quiet          no notes on stderr, no file list on stdout\n"
    "Writes into DIR: NAME-1col.EXT and NAME-2col.EXT for each figure, NAME.csv (its\n"
    "data), NAME.gp (its gnuplot script: cd DIR && gnuplot NAME.gp redraws it, edit it\n"
    "to restyle), comparison.tex, comparison.md and styles.csv. Figures that compare\n"
    "planners across graphs (quality, stats) use only the graphs on which every planner\n"
    "shown has a valid result, and say how many. A result that stopped at its search\n"
    "budget is marked (limit). Exit 0; 2 usage or input error; 1 gnuplot failed.\n";

static int in_csv_list(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, word, n) == 0) return 1;
        p += len + (e ? 1 : 0);
    }
    return 0;
}

/* Each item of list is one of words (n of them); 0, or 2 after a message. */
static int check_list(const char *opt, const char *list, const char *const *words, size_t n)
{
    if (!*list) return usage("%s needs a list", opt);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        size_t k;
        for (k = 0; k < n; k++)
            if (strlen(words[k]) == len && strncmp(p, words[k], len) == 0) break;
        if (k == n) {
            fprintf(stderr, PROG ": %s: unknown item '%.*s' (", opt, (int)len, p);
            for (k = 0; k < n; k++) fprintf(stderr, "%s%s", k ? ", " : "", words[k]);
            fprintf(stderr, ")\n");
            return 2;
        }
        p += len + (e ? 1 : 0);
    }
    return 0;
}

static int parse(int argc, char **argv, struct opts *o)
{
    memset(o, 0, sizeof *o);
    o->db = ARENA_BENCH_DB_DEFAULT;
    o->out = "results/charts";
    o->formats = "png,pdf,svg";
    o->run = -1;
    o->sizes = 3;
    o->dpi = 200;
    for (size_t i = 0; i < NFIGS; i++) o->want[i] = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        char name[64];
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        if (eq && (size_t)(eq - a) < sizeof name) {
            memcpy(name, a, (size_t)(eq - a));
            name[eq - a] = '\0';
            v = eq + 1;
            a = name;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(help, stdout);
            return -1;
        }
        if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            if (v) return usage("%s takes no value", a);
            o->quiet = 1;
            continue;
        }
        static const char *const valued[] = {"--db", "--run", "--graph", "--planner", "--planners",
                                             "--out", "--size", "--format", "--formats",
                                             "--figures", "--dpi", "--color-by"};
        size_t k;
        for (k = 0; k < sizeof valued / sizeof valued[0]; k++)
            if (strcmp(a, valued[k]) == 0) break;
        if (k == sizeof valued / sizeof valued[0])
            return usage("unknown option '%s' (see bench plot --help)", argv[i]);
        if (!v) {
            if (i + 1 >= argc) return usage("option %s needs a value (see --help)", a);
            v = argv[++i];
            if (strncmp(v, "--", 2) == 0) {
                fprintf(stderr, PROG ": option %s needs a value, got the option '%s'\n", a, v);
                return 2;
            }
        }
        if (strcmp(a, "--db") == 0) {
            if (!*v) return usage("--db needs a path%s", "");
            o->db = v;
        } else if (strcmp(a, "--run") == 0) {
            if (strcmp(v, "all") == 0) {
                o->run = 0;
            } else {
                char *end;
                errno = 0;
                long long r = strtoll(v, &end, 10);
                if (!*v || *end || errno || r <= 0 || v[0] == '+' || v[0] == ' ')
                    return usage("--run needs a run id (a positive number) or all, got '%s'", v);
                o->run = r;
            }
        } else if (strcmp(a, "--graph") == 0) {
            o->graph = v;
        } else if (strcmp(a, "--planner") == 0 || strcmp(a, "--planners") == 0) {
            o->planners = v;
        } else if (strcmp(a, "--out") == 0) {
            if (!*v) return usage("--out needs a folder%s", "");
            o->out = v;
        } else if (strcmp(a, "--size") == 0) {
            o->sizes = strcmp(v, "one") == 0 ? 1 : strcmp(v, "two") == 0 ? 2
                     : strcmp(v, "both") == 0 ? 3 : 0;
            if (!o->sizes) return usage("--size must be one, two or both, got '%s'", v);
        } else if (strcmp(a, "--format") == 0 || strcmp(a, "--formats") == 0) {
            static const char *const fmts[] = {"png", "pdf", "svg"};
            if (check_list("--format", v, fmts, 3)) return 2;
            o->formats = v;
        } else if (strcmp(a, "--figures") == 0) {
            if (check_list("--figures", v, figure_names, NFIGS)) return 2;
            for (size_t f = 0; f < NFIGS; f++) o->want[f] = in_csv_list(v, figure_names[f]);
        } else if (strcmp(a, "--dpi") == 0) {
            char *end;
            long d = strtol(v, &end, 10);
            if (!*v || *end || d < 50 || d > 1200)
                return usage("--dpi needs a number from 50 to 1200, got '%s'", v);
            o->dpi = (int)d;
        } else if (strcmp(a, "--color-by") == 0) {
            if (strcmp(v, "planner") && strcmp(v, "kind"))
                return usage("--color-by must be planner or kind, got '%s'", v);
            o->color_by_kind = strcmp(v, "kind") == 0;
        }
    }
    return 0;
}

static int want(const struct ctx *c, const char *fig)
{
    for (size_t i = 0; i < NFIGS; i++)
        if (strcmp(figure_names[i], fig) == 0) return c->o.want[i];
    return 0;
}

static void gq_cut(struct plot_buf *b, const char *text, size_t max);

/* ------------------------------------------------------------ selection */

/* The result that counts of a shown planner on a graph, or NULL. */
static const struct arena_fig_result *find(const struct ctx *c, size_t graph, const char *planner)
{
    for (size_t i = 0; i < c->n_sel; i++)
        if (c->sel[i].name == planner || strcmp(c->sel[i].name, planner) == 0)
            return c->by[graph * c->n_sel + i];
    return NULL;
}

/* by[graph x shown planner]: one pass over the results. */
static int index_results(struct ctx *c)
{
    c->by = calloc(c->d.n_graphs * c->n_sel + 1, sizeof *c->by);
    if (!c->by) return -1;
    for (size_t r = 0; r < c->d.n_results; r++)
        for (size_t i = 0; i < c->n_sel; i++)
            if (strcmp(c->sel[i].name, c->d.results[r].planner) == 0)
                c->by[c->d.results[r].graph * c->n_sel + i] = &c->d.results[r];
    return 0;
}

static int is_limit(const struct arena_fig_result *r)
{
    return r && r->status && strcmp(r->status, "limit") == 0;
}

static void style(struct ctx *c, struct shown *s, size_t place, size_t kind_place)
{
    static const unsigned palette[] = {0x000000, 0xE69F00, 0x56B4E9, 0x009E73,
                                       0x0072B2, 0xD55E00, 0xCC79A7, 0x999999};
    static const int points[] = {7, 5, 9, 13, 11, 6, 4, 8, 12, 10, 15, 14, 1, 2, 3};
    size_t p = c->o.color_by_kind ? kind_place : place;
    if (c->o.color_by_kind) {
        s->color = strcmp(s->kind, "offsets") == 0          ? 0x0072B2
                   : strcmp(s->kind, "shared-objects") == 0 ? 0xE69F00
                   : strcmp(s->kind, "search") == 0         ? 0xD55E00
                   : strcmp(s->kind, "online") == 0         ? 0x009E73
                                                            : 0x555555;
    } else {
        s->color = palette[place % 8];
    }
    s->dt = 1 + (int)(p % 5);
    s->pt = points[p % 15];
}

/* Registry place of a planner; after the registry, the order measured. */
static size_t place_of(const struct ctx *c, const char *name, const char **kind)
{
    size_t n = arena_planner_count();
    for (size_t i = 0; i < n; i++) {
        const struct arena_planner *p = arena_planner_at(i);
        if (strcmp(p->name, name) == 0) {
            *kind = arena_planner_kind_name(p->kind);
            return i;
        }
    }
    *kind = "unknown";
    size_t extra = 0;
    for (size_t i = 0; i < c->d.n_planners; i++) {
        if (strcmp(c->d.planners[i], name) == 0) break;
        if (!arena_planner_find(c->d.planners[i])) extra++;
    }
    return n + extra;
}

static int add_shown(struct ctx *c, const char *name)
{
    struct shown *g = realloc(c->sel, (c->n_sel + 1) * sizeof *g);
    if (!g) return -1;
    c->sel = g;
    struct shown *s = &c->sel[c->n_sel++];
    s->name = name;
    size_t place = place_of(c, name, &s->kind), kind_place = 0;
    for (size_t i = 0; i + 1 < c->n_sel; i++) kind_place += strcmp(c->sel[i].kind, s->kind) == 0;
    style(c, s, place, kind_place);
    return 0;
}

static int choose_planners(struct ctx *c)
{
    const char *list = c->o.planners;
    if (!list || strcmp(list, "all") == 0) {
        c->planners_given = list != NULL;
        size_t n = arena_planner_count();
        for (size_t i = 0; i < n; i++) {
            const char *name = arena_planner_at(i)->name;
            for (size_t k = 0; k < c->d.n_planners; k++)
                if (strcmp(c->d.planners[k], name) == 0 && add_shown(c, c->d.planners[k])) return -1;
        }
        for (size_t k = 0; k < c->d.n_planners; k++)
            if (!arena_planner_find(c->d.planners[k]) && add_shown(c, c->d.planners[k])) return -1;
        return 0;
    }
    c->planners_given = 1;
    for (const char *p = list;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (!len) {
            snprintf(c->err, sizeof c->err, "--planner: empty name in '%s'", list);
            return 2;
        }
        size_t k;
        for (k = 0; k < c->d.n_planners; k++)
            if (strlen(c->d.planners[k]) == len && strncmp(c->d.planners[k], p, len) == 0) break;
        if (k == c->d.n_planners) {
            struct plot_buf b = {0};
            for (size_t j = 0; j < c->d.n_planners; j++) {
                if (j) plot_buf_add(&b, " ");
                plot_caret(&b, c->d.planners[j]);
            }
            struct plot_buf w = {0};
            plot_buf_addn(&w, p, len);
            struct plot_buf ws = {0};
            plot_caret(&ws, w.s ? w.s : "");
            snprintf(c->err, sizeof c->err, "unknown planner '%s' in the selected runs (planners: %s)",
                     ws.s ? ws.s : "", b.s ? b.s : "");
            plot_buf_free(&b);
            plot_buf_free(&w);
            plot_buf_free(&ws);
            return 2;
        }
        for (size_t j = 0; j < c->n_sel; j++)
            if (strcmp(c->sel[j].name, c->d.planners[k]) == 0) {
                snprintf(c->err, sizeof c->err, "--planner: '%s' given twice", c->d.planners[k]);
                return 2;
            }
        if (add_shown(c, c->d.planners[k])) return -1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

static int choose_graph(struct ctx *c)
{
    c->graph = 0;
    const char *g = c->o.graph;
    if (!g) {
        if (c->d.n_graphs > 1 &&
            (want(c, "arena") || want(c, "layout") || want(c, "live") || want(c, "tables")))
            note(c, "%zu graphs selected; per-graph figures show the first (choose with --graph)",
                 c->d.n_graphs);
        return 0;
    }
    for (size_t i = 0; i < c->d.n_graphs; i++)
        if (strcmp(c->d.graphs[i].spec, g) == 0) {
            c->graph = i;
            return 0;
        }
    size_t hits = 0, first = 0, len = strlen(g);
    for (size_t i = 0; i < c->d.n_graphs; i++)
        if (strcmp(c->d.graphs[i].family, g) == 0 || strncmp(c->d.graphs[i].spec, g, len) == 0) {
            if (!hits++) first = i;
        }
    if (hits == 1) {
        c->graph = first;
        return 0;
    }
    struct plot_buf b = {0}, w = {0};
    plot_caret(&w, g);
    size_t shown = 0;
    for (size_t i = 0; i < c->d.n_graphs && shown < 8; i++) {
        if (hits && !(strcmp(c->d.graphs[i].family, g) == 0 ||
                      strncmp(c->d.graphs[i].spec, g, len) == 0))
            continue;
        if (shown++) plot_buf_add(&b, "; ");
        plot_caret(&b, c->d.graphs[i].spec);
    }
    if (shown == 8 && c->d.n_graphs > 8) plot_buf_add(&b, "; ...");
    if (hits)
        snprintf(c->err, sizeof c->err, "graph '%s' names %zu graphs of the selected runs; give one of: %s",
                 w.s ? w.s : "", hits, b.s ? b.s : "");
    else
        snprintf(c->err, sizeof c->err, "unknown graph '%s' in the selected runs (graphs: %s)",
                 w.s ? w.s : "", b.s ? b.s : "");
    plot_buf_free(&b);
    plot_buf_free(&w);
    return 2;
}

/* ------------------------------------------------------------ numbers */

static void byte_unit(double max, double *u, const char **name)
{
    if (max >= 1048576) *u = 1048576, *name = "MiB";
    else if (max >= 1024) *u = 1024, *name = "KiB";
    else *u = 1, *name = "B";
}

static void time_unit(double max, double *u, const char **name)
{
    if (max >= 1e9) *u = 1e9, *name = "s";
    else if (max >= 1e6) *u = 1e6, *name = "ms";
    else if (max >= 1e3) *u = 1e3, *name = "\xC2\xB5s";
    else *u = 1, *name = "ns";
}

/* A tick step giving at most n ticks over [0, max]: 1, 2 or 5 times 10^k. */
static double nice_step(double max, int n)
{
    double r = max / n;
    if (!(r > 0)) return 1;
    double p = pow(10, floor(log10(r)));
    if (p >= r) return p;
    if (2 * p >= r) return 2 * p;
    if (5 * p >= r) return 5 * p;
    return 10 * p;
}

static void fmt_bytes(char *out, size_t n, double b)
{
    if (b >= 1048576) snprintf(out, n, "%.2f MiB", b / 1048576);
    else if (b >= 1024) snprintf(out, n, "%.1f KiB", b / 1024);
    else snprintf(out, n, "%.0f B", b);
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Linear-interpolated quantile of sorted v[0..n). */
static double quantile(const double *v, size_t n, double p)
{
    double h = (double)(n - 1) * p;
    size_t i = (size_t)h;
    return i + 1 >= n ? v[n - 1] : v[i] + (h - (double)i) * (v[i + 1] - v[i]);
}

/* ------------------------------------------------------------ files */

static int add_written(struct ctx *c, const char *name)
{
    char **g = realloc(c->written, (c->n_written + 1) * sizeof *g);
    if (!g || !(g[c->n_written] = strdup(name))) {
        if (g) c->written = g;
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    c->written = g;
    c->n_written++;
    return 0;
}

/* Writes b as tmp/name; 0 or 1 (err set). */
static int put(struct ctx *c, const char *name, struct plot_buf *b)
{
    if (b->oom) {
        snprintf(c->err, sizeof c->err, "out of memory writing %s", name);
        return 1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", c->tmp, name);
    if (plot_write_file(path, b->s ? b->s : "", b->len, c->err, sizeof c->err)) return 1;
    return add_written(c, name);
}

/* The head of NAME.gp: how to redraw it, its caption, the figure's facts
 * as gnuplot variables, then common.gp. */
static void gp_head(struct ctx *c, struct plot_buf *b, const char *name, const char *title,
                    const char *sub, const char *caption, double h1, double h2)
{
    plot_buf_printf(b, "# %s.gp: written by bench plot from the templates common.gp and %s.gp.\n"
                       "# Redraw every size and format: cd into this folder, then gnuplot %s.gp\n",
                    name, name, name);
    if (caption) {
        struct plot_buf cap = {0};
        plot_caret(&cap, caption);
        plot_buf_printf(b, "# caption: %s\n", cap.s ? cap.s : "");
        plot_buf_free(&cap);
    }
    plot_buf_printf(b, "NAME = '%s'\nSIZES = '%s'\nFORMATS = '", name,
                    c->o.sizes == 1 ? "1" : c->o.sizes == 2 ? "2" : "1 2");
    for (const char *p = c->o.formats; *p; p++) plot_buf_addn(b, *p == ',' ? " " : p, 1);
    plot_buf_printf(b, "'\ndpi = %d\nH1 = %.2f; H2 = %.2f\nTITLE = ", c->o.dpi, h1, h2);
    plot_gq(b, title, 0);
    /* The PNG subtitle wrapped at spaces to the width at its size (about
     * 0.62 em a character), at most three lines, the last cut with "...". */
    for (int k = 0; k < 2; k++) {
        size_t m = k ? 86 : 46, lines = 0;
        plot_buf_add(b, k ? "\nSUB2 = " : "\nSUB1 = ");
        const char *p = sub;
        while (*p || !lines) {
            size_t rest = strlen(p), take = rest;
            if (rest > m) {
                take = m;
                while (take > m / 2 && p[take] != ' ') take--;
                if (p[take] != ' ') take = m;
            }
            if (lines == 2 && rest > m) take = m - 3;
            struct plot_buf t = {0};
            plot_buf_addn(&t, p, take);
            if (lines == 2 && rest > m) plot_buf_add(&t, "...");
            if (lines) plot_buf_add(b, " . \"\\n\" . ");
            plot_gq(b, t.s ? t.s : "", 0);
            plot_buf_free(&t);
            lines++;
            p += take;
            while (*p == ' ') p++;
            if (lines == 3) break;
        }
        plot_buf_printf(b, "\nTL%d = %zu", k + 1, lines + 1);
    }
    plot_buf_add(b, "\n");
}

static void gp_common(struct ctx *c, struct plot_buf *b)
{
    static const char *const none[1] = {""};
    plot_buf_add(b, "\n");
    if (plot_template_fill(c->tpl, "common", none, none, 0, b, c->err, sizeof c->err)) b->oom = 1;
    plot_buf_add(b, "\n");
}

/* Style arrays name[], name1[] (cut to max1 characters), col[], dt[], pt[]
 * for the shown planners at idx[0..n), labels lab (NULL: the names). */
static void gp_styles(struct plot_buf *b, const struct shown *sel, const size_t *idx,
                      char *const *lab, size_t n, size_t max1)
{
    plot_buf_printf(b, "N = %zu\narray name[%zu]; array name1[%zu]; array col[%zu]; array dt[%zu]; "
                       "array pt[%zu]\n", n, n ? n : 1, n ? n : 1, n ? n : 1, n ? n : 1, n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        const struct shown *s = &sel[idx[i]];
        const char *l = lab ? lab[i] : s->name;
        plot_buf_printf(b, "name[%zu] = ", i + 1);
        plot_gq(b, l, 0);
        plot_buf_printf(b, "; name1[%zu] = ", i + 1);
        struct plot_buf t = {0};
        plot_caret(&t, l);
        if (t.s && t.len > max1 && max1 > 3) {
            strcpy(t.s + max1 - 2, "..");
            plot_gq(b, t.s, 0);
        } else {
            plot_gq(b, l, 0);
        }
        plot_buf_free(&t);
        plot_buf_printf(b, "; col[%zu] = %u; dt[%zu] = %d; pt[%zu] = %d\n", i + 1, s->color, i + 1,
                        s->dt, i + 1, s->pt);
    }
}

/* Writes NAME.gp from head + template and runs gnuplot on it. */
static int draw(struct ctx *c, const char *name, struct plot_buf *gp, const char *const *keys,
                const char *const *vals, size_t nkeys)
{
    plot_buf_printf(gp, "\n# ---- %s.gp\n", name);
    if (plot_template_fill(c->tpl, name, keys, vals, nkeys, gp, c->err, sizeof c->err)) return 1;
    char file[64], log[64];
    snprintf(file, sizeof file, "%s.gp", name);
    snprintf(log, sizeof log, ".%s.log", name);
    if (put(c, file, gp)) return 1;
    int rc = plot_run_gnuplot(c->tmp, file, log, c->err, sizeof c->err);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", c->tmp, log);
    if (rc == 0) remove(path);
    if (rc) return 1;
    static const char *const fmts[] = {"png", "pdf", "svg"};
    for (int s = 1; s <= 2; s++) {
        if (!(c->o.sizes & s)) continue;
        for (size_t f = 0; f < 3; f++) {
            if (!in_csv_list(c->o.formats, fmts[f])) continue;
            char out[128];
            snprintf(out, sizeof out, "%s-%dcol.%s", name, s, fmts[f]);
            snprintf(path, sizeof path, "%s/%s", c->tmp, out);
            struct stat st;
            if (stat(path, &st) != 0 || st.st_size == 0) {
                snprintf(c->err, sizeof c->err, "gnuplot wrote no %s", out);
                return 1;
            }
            if (add_written(c, out)) return 1;
        }
    }
    return 0;
}

static void csv_num(struct plot_buf *b, int has, double v)
{
    if (has) plot_buf_printf(b, ",%.17g", v);
    else plot_buf_add(b, ",");
}

/* ------------------------------------------------------------ per graph */

/* Shown planners with a result on the graph, in order. */
static size_t graph_rows(struct ctx *c, size_t *idx, const struct arena_fig_result **res)
{
    size_t n = 0;
    struct plot_buf miss = {0};
    for (size_t i = 0; i < c->n_sel; i++) {
        const struct arena_fig_result *r = find(c, c->graph, c->sel[i].name);
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
        note(c, "not measured on %s: %s", g.s ? g.s : "", miss.s);
        plot_buf_free(&g);
    }
    plot_buf_free(&miss);
    return n;
}

static char *label_of(const char *name, const struct arena_fig_result *r)
{
    struct plot_buf b = {0};
    plot_buf_add(&b, name);
    if (is_limit(r)) plot_buf_add(&b, " (limit)");
    return b.s;
}

static int write_arena_csv(struct ctx *c, const size_t *idx, const struct arena_fig_result **res,
                           size_t n)
{
    const struct arena_fig_graph *g = &c->d.graphs[c->graph];
    struct plot_buf b = {0};
    plot_buf_add(&b, "row,ok,limit,arena_bytes,lower_bound,naive_bytes,ratio_lb,saving,frag_peak,"
                     "frag_mean,plan_ns_median,plan_ns_mean,plan_ns_stddev,iterations,"
                     "scratch_bytes,bound,nodes,run,status,planner\n");
    for (size_t i = 0; i < n; i++) {
        const struct arena_fig_result *r = res[i];
        plot_buf_printf(&b, "%zu,%d,%d", i + 1, r->ok, is_limit(r));
        if (r->ok) plot_buf_printf(&b, ",%lld", (long long)r->arena);
        else plot_buf_add(&b, ",");
        plot_buf_printf(&b, ",%lld,%lld", (long long)g->lower_bound, (long long)g->naive);
        csv_num(&b, r->has_ratio, r->ratio_lb);
        csv_num(&b, r->has_saving, r->saving);
        csv_num(&b, r->has_frag, r->frag_peak);
        csv_num(&b, r->has_frag, r->frag_mean);
        csv_num(&b, r->has_ns, r->ns_median);
        csv_num(&b, r->has_ns, r->ns_mean);
        csv_num(&b, r->has_ns, r->ns_stddev);
        plot_buf_printf(&b, ",%lld", (long long)r->iterations);
        csv_num(&b, r->has_scratch, (double)r->scratch);
        if (r->has_bound) plot_buf_printf(&b, ",%lld,%lld", (long long)r->bound, (long long)r->nodes);
        else plot_buf_add(&b, ",,");
        plot_buf_printf(&b, ",%lld,", (long long)r->run_id);
        plot_csv(&b, r->status ? r->status : "");
        plot_buf_add(&b, ",");
        plot_csv(&b, c->sel[idx[i]].name);
        plot_buf_add(&b, "\n");
    }
    int rc = put(c, "arena.csv", &b);
    plot_buf_free(&b);
    return rc;
}

static void ytics_names(struct plot_buf *b, char *const *lab, size_t n)
{
    plot_buf_add(b, "(");
    for (size_t i = 0; i < n; i++) {
        if (i) plot_buf_add(b, ", ");
        plot_gq(b, lab[i], 1);
        plot_buf_printf(b, " %zu", i + 1);
    }
    plot_buf_add(b, ")");
}

static int fig_arena(struct ctx *c, const size_t *idx, const struct arena_fig_result **res,
                     char *const *lab, size_t n)
{
    const struct arena_fig_graph *g = &c->d.graphs[c->graph];
    double xmax = (double)g->naive;
    for (size_t i = 0; i < n; i++)
        if (res[i]->ok && (double)res[i]->arena > xmax) xmax = (double)res[i]->arena;
    if (c->ref > xmax) xmax = (double)c->ref;
    double U;
    const char *uname;
    byte_unit(xmax, &U, &uname);
    double h1 = 1.0 + 0.16 * (double)n, h2 = 1.1 + 0.24 * (double)n;
    if (h1 < 1.8) h1 = 1.8;
    if (h1 > 4.2) h1 = 4.2;
    if (h2 < 2.4) h2 = 2.4;
    struct plot_buf gp = {0}, yt = {0}, refkey = {0};
    gp_head(c, &gp, "arena", "Arena per planner", g->spec, NULL, h1, h2);
    gp_common(c, &gp);
    gp_styles(&gp, c->sel, idx, lab, n, 40);
    plot_buf_printf(&gp, "U = %.1f; UNAME = '%s'; XMAX = %.17g; LB = %lld; NAIVE = %lld; REF = %lld\n",
                    U, uname, xmax, (long long)g->lower_bound, (long long)g->naive,
                    (long long)c->ref);
    plot_buf_printf(&gp, "XSTEP1 = %.17g; XSTEP2 = %.17g\n", nice_step(xmax / U * 1.04, 4),
                    nice_step(xmax / U * 1.5, 8));
    ytics_names(&yt, lab, n);
    if (c->ref)
        plot_buf_printf(&refkey, ", \\\n       NaN with lines dt 4 lw 1.2 lc rgb '#000000' title '%s'",
                        c->ref_opt ? "optimum" : "best bound");
    const char *keys[] = {"YTICS", "REFKEY"};
    const char *vals[] = {yt.s ? yt.s : "()", refkey.s ? refkey.s : ""};
    int rc = yt.oom || refkey.oom ? (snprintf(c->err, sizeof c->err, "out of memory"), 1)
                                  : draw(c, "arena", &gp, keys, vals, 2);
    plot_buf_free(&gp);
    plot_buf_free(&yt);
    plot_buf_free(&refkey);
    return rc;
}

/* Explicit byte ticks for a panel up to top (in units): 0, step, ..., the
 * last with the unit's name. */
static void byte_ticks(struct plot_buf *b, double top, const char *uname, int nt, double *ymax)
{
    double step = nice_step(top, nt);
    int k = (int)floor(top / step + 1e-9);
    if (k < 1) k = 1;
    plot_buf_add(b, "(");
    for (int i = 0; i <= k; i++) {
        if (i == k) plot_buf_printf(b, "'%g %s' %.17g", step * i, uname, step * i);
        else plot_buf_printf(b, "'%g' %.17g, ", step * i, step * i);
    }
    plot_buf_add(b, ")");
    *ymax = fmax(top * 1.1, step * k * 1.04);
}

static int fig_layout_live(struct ctx *c, const size_t *idx, const struct arena_fig_result **res,
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
        if (np && (!want(c, "layout") || npl[0] * valid > 300000)) {
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
        note(c, "layout and live figures skipped: no placements of a valid plan for %s",
             s.s ? s.s : "");
        plot_buf_free(&s);
        goto done;
    }
    int64_t steps = 0;
    for (size_t k = 0; k < npl[0]; k++)
        if (pl[0][k].last + 1 > steps) steps = pl[0][k].last + 1;
    double amax = 0;
    for (size_t i = 0; i < np; i++) amax = fmax(amax, (double)pres[i]->arena);
    if (want(c, "layout") && rects > 300000) {
        note(c, "layout figure skipped: %zu rectangles are too many to draw (pick a smaller graph"
                " or fewer planners)", rects);
    } else if (want(c, "layout")) {
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
        rc = put(c, "layout.csv", &b);
        plot_buf_free(&b);
        if (rc) goto done;
        size_t C1 = np > 8 ? 3 : 2, C2 = np > 16 ? 5 : np > 9 ? 4 : 3;
        if (C1 > np) C1 = np;
        if (C2 > np) C2 = np;
        size_t R1 = (np + C1 - 1) / C1, R2 = (np + C2 - 1) / C2;
        double h1 = fmin(4.3, 0.55 + 0.62 * (double)R1), h2 = 0.7 + 1.3 * (double)R2;
        /* Panel labels, right-aligned over their panel: cut to what the
         * panel and the gap left of it hold (about 0.62 em a character). */
        double pw1 = (3.3 - 0.5 - 0.08 - (double)(C1 - 1) * 0.5) / (double)C1 + 0.45;
        double pw2 = (7.0 - 0.62 - 0.08 - (double)(C2 - 1) * 0.62) / (double)C2 + 0.55;
        size_t max1 = (size_t)(pw1 * 72 / (7 * 0.62)), max2 = (size_t)(pw2 * 72 / (8 * 0.62));
        struct plot_buf gp = {0};
        char sub[64];
        snprintf(sub, sizeof sub, " (dashed: lower bound%s)",
                 c->ref && c->ref != g->lower_bound ? (c->ref_opt ? "; dash-dot: optimum"
                                                                  : "; dash-dot: best bound")
                                                    : "");
        struct plot_buf st = {0};
        plot_buf_add(&st, g->spec);
        plot_buf_add(&st, sub);
        gp_head(c, &gp, "layout", "Memory layout of each plan", st.s ? st.s : "", NULL, h1, h2);
        plot_buf_free(&st);
        gp_common(c, &gp);
        gp_styles(&gp, c->sel, pidx, plab, np, 40);
        plot_buf_printf(&gp, "NP = %zu; C1 = %zu; C2 = %zu; STEPS = %lld; LB = %lld; REF = %lld\n",
                        np, C1, C2, (long long)steps, (long long)g->lower_bound, (long long)c->ref);
        plot_buf_printf(&gp, "XSTEP1 = %.17g; XSTEP2 = %.17g\n", nice_step((double)steps, 2),
                        nice_step((double)steps, 4));
        plot_buf_printf(&gp, "array LT1[%zu]; array LT2[%zu]\n", np, np);
        for (size_t i = 0; i < np; i++) {
            plot_buf_printf(&gp, "LT1[%zu] = ", i + 1);
            gq_cut(&gp, plab[i], max1);
            plot_buf_printf(&gp, "; LT2[%zu] = ", i + 1);
            gq_cut(&gp, plab[i], max2);
            plot_buf_add(&gp, "\n");
        }
        plot_buf_printf(&gp, "array U[%zu]; array YMAX[%zu]; array YT[%zu]\n", np, np, np);
        for (size_t i = 0; i < np; i++) {
            double U, ymax;
            const char *un;
            double top = fmax((double)pres[i]->arena, (double)g->lower_bound);
            byte_unit(top, &U, &un);
            struct plot_buf t = {0};
            byte_ticks(&t, top / U, un, 2, &ymax);
            plot_buf_printf(&gp, "U[%zu] = %.1f; YMAX[%zu] = %.17g; YT[%zu] = \"%s\"\n", i + 1, U,
                            i + 1, ymax, i + 1, t.s ? t.s : "()");
            plot_buf_free(&t);
        }
        rc = draw(c, "layout", &gp, NULL, NULL, 0);
        plot_buf_free(&gp);
        if (rc) goto done;
    }
    if (want(c, "live")) {
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
        rc = put(c, "live.csv", &b);
        plot_buf_free(&b);
        if (rc) goto done;
        double U;
        const char *un;
        byte_unit(amax, &U, &un);
        size_t keyrows1 = (np + 2 + (c->ref ? 1 : 0)) / 2, keyrows2 = (np + 3 + (c->ref ? 1 : 0)) / 3;
        double h1 = fmin(4.3, 2.3 + 0.14 * (double)keyrows1), h2 = 2.8 + 0.17 * (double)keyrows2;
        struct plot_buf gp = {0}, refkey = {0};
        gp_head(c, &gp, "live", "Live bytes and arenas", g->spec, NULL, h1, h2);
        gp_common(c, &gp);
        gp_styles(&gp, c->sel, pidx, plab, np, 40);
        plot_buf_printf(&gp, "U = %.1f; UNAME = '%s'; STEPS = %lld; REF = %lld\narray ARENA[%zu]\n",
                        U, un, (long long)steps, (long long)c->ref, np);
        for (size_t i = 0; i < np; i++)
            plot_buf_printf(&gp, "ARENA[%zu] = %lld\n", i + 1, (long long)pres[i]->arena);
        double top = fmax(fmax(amax, (double)peak), (double)c->ref) / U, y1, y2;
        struct plot_buf t1 = {0}, t2 = {0};
        byte_ticks(&t1, top, un, 4, &y1);
        byte_ticks(&t2, top, un, 6, &y2);
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
        rc = draw(c, "live", &gp, keys, vals, 2);
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

static int fig_replay(struct ctx *c, const size_t *idx, const struct arena_fig_result **res,
                      size_t n)
{
    const struct arena_fig_graph *g = &c->d.graphs[c->graph];
    struct arena_fig_replay *rp = NULL;
    size_t nr = 0;
    if (arena_figdb_replays(c->db, g->id, &rp, &nr, c->err, sizeof c->err)) return 2;
    if (!nr) {
        struct plot_buf s = {0};
        plot_caret(&s, g->spec);
        note(c, "replay figure skipped: no replays of %s (bench --replay)", s.s ? s.s : "");
        plot_buf_free(&s);
        arena_fig_replays_free(rp, nr);
        return 0;
    }
    const struct arena_fig_result *best = NULL;
    const char *best_name = NULL;
    for (size_t i = 0; i < n; i++)
        if (res[i]->ok && (!best || res[i]->arena < best->arena)) {
            best = res[i];
            best_name = c->sel[idx[i]].name;
        }
    double ymin = (double)g->lower_bound, ymax = ymin;
    int64_t frames = 1;
    if (best) ymin = fmin(ymin, (double)best->arena), ymax = fmax(ymax, (double)best->arena);
    struct plot_buf b = {0};
    plot_buf_add(&b, "row,frame,calls,footprint_peak,extent_peak,resident_peak,live_peak,run,"
                     "allocator,version,footprint_source\n");
    for (size_t i = 0; i < nr; i++)
        for (size_t k = 0; k < rp[i].n_frames; k++) {
            if (rp[i].footprint[k] > 0) {
                ymin = fmin(ymin, (double)rp[i].footprint[k]);
                ymax = fmax(ymax, (double)rp[i].footprint[k]);
            }
            if (rp[i].frame[k] > frames) frames = rp[i].frame[k];
            plot_buf_printf(&b, "%zu,%lld,%lld,%lld,%lld,%lld,%lld,%lld,", i + 1,
                            (long long)rp[i].frame[k], (long long)rp[i].calls[k],
                            (long long)rp[i].footprint[k], (long long)rp[i].extent[k],
                            (long long)rp[i].resident[k], (long long)rp[i].live_peak,
                            (long long)rp[i].run_id);
            plot_csv(&b, rp[i].allocator);
            plot_buf_add(&b, ",");
            plot_csv(&b, rp[i].version);
            plot_buf_add(&b, ",");
            plot_csv(&b, rp[i].source);
            plot_buf_add(&b, "\n");
        }
    int rc = put(c, "replay.csv", &b);
    plot_buf_free(&b);
    if (rc) {
        arena_fig_replays_free(rp, nr);
        return rc;
    }
    if (ymin <= 0) ymin = 1;
    double U;
    const char *un;
    byte_unit(ymax, &U, &un);
    static const char *const colors[] = {"#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#D55E00", "#0072B2"};
    struct plot_buf gp = {0}, bk = {0};
    size_t rows1 = (nr + 3) / 2, rows2 = (nr + 4) / 3;
    gp_head(c, &gp, "replay", "Real allocators per frame against the static arena", g->spec, NULL,
            fmin(4.2, 2.4 + 0.14 * (double)rows1), 2.8 + 0.17 * (double)rows2);
    gp_common(c, &gp);
    plot_buf_printf(&gp, "N = %zu; U = %.1f; UNAME = '%s'; LB = %lld; BEST = %lld; FRAMES = %lld\n"
                         "YMIN = %.17g; YMAX = %.17g\narray aname[%zu]; array acol[%zu]; array adt[%zu]\n",
                    nr, U, un, (long long)g->lower_bound, best ? (long long)best->arena : 0LL,
                    (long long)frames, ymin, ymax, nr, nr, nr);
    for (size_t i = 0; i < nr; i++) {
        plot_buf_printf(&gp, "aname[%zu] = ", i + 1);
        plot_gq(&gp, rp[i].allocator, 0);
        plot_buf_printf(&gp, "; acol[%zu] = '%s'; adt[%zu] = %zu\n", i + 1, colors[i % 6], i + 1,
                        i % 4 + 1);
    }
    if (best) {
        struct plot_buf t = {0};
        plot_buf_printf(&t, "static arena (%s%s)", best_name,
                        is_limit(best) ? ", stopped at its limit" : "");
        plot_buf_add(&bk, ", \\\n       BEST / U with lines lc rgb '#000000' lw 1.5 title ");
        plot_gq(&bk, t.s ? t.s : "", 0);
        plot_buf_free(&t);
    }
    const char *keys[] = {"BESTKEY"};
    const char *vals[] = {bk.s ? bk.s : ""};
    rc = draw(c, "replay", &gp, keys, vals, 1);
    plot_buf_free(&gp);
    plot_buf_free(&bk);
    arena_fig_replays_free(rp, nr);
    return rc;
}

static int tables(struct ctx *c, const size_t *idx, const struct arena_fig_result **res, size_t n)
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
    byte_unit(amax, &AU, &aun);
    byte_unit(smax, &SU, &sun);
    time_unit(nsmax, &TU, &tun);
    char naive[32], lb[32], ref[32];
    fmt_bytes(naive, sizeof naive, (double)g->naive);
    fmt_bytes(lb, sizeof lb, (double)g->lower_bound);
    fmt_bytes(ref, sizeof ref, (double)c->ref);
    const char *rn = c->ref_opt ? "optimum" : "best bound";
    char runs[64];
    if (c->d.n_runs == 1) snprintf(runs, sizeof runs, "Run %lld", (long long)c->d.runs[0]);
    else snprintf(runs, sizeof runs, "%zu runs (newest result of each planner)", c->d.n_runs);
    int limits = 0;
    for (size_t i = 0; i < n; i++) limits |= is_limit(res[i]);
    for (int tex = 0; tex < 2; tex++) {
        struct plot_buf b = {0};
        if (!tex) {
            plot_buf_printf(&b, "%s, graph ", runs);
            plot_md_code(&b, g->spec);
            plot_buf_printf(&b, ": %lld tensors, naive %s, lower bound %s", (long long)g->tensors,
                            naive, lb);
            if (c->ref) plot_buf_printf(&b, ", %s %s", rn, ref);
            plot_buf_add(&b, ".");
            if (limits)
                plot_buf_add(&b, " (limit): the search stopped at its budget; its plan is valid but"
                                 " not the planner's answer.");
            plot_buf_printf(&b, "\n\n| planner | arena (%s) | × lower bound |%s saving | frag. peak |"
                                " frag. mean | plan time (%s) | scratch (%s) | valid | status |\n",
                            aun, c->ref ? (c->ref_opt ? " × optimum |" : " × best bound |") : "",
                            tun, sun);
            plot_buf_printf(&b, "|:--|--:|--:|%s--:|--:|--:|--:|--:|:-:|:-:|\n", c->ref ? "--:|" : "");
        } else {
            struct plot_buf sp = {0};
            plot_caret(&sp, g->spec);
            plot_buf_printf(&b, "%% arenabench %s, graph %s: %lld tensors, naive %s, lower bound %s",
                            runs, sp.s ? sp.s : "", (long long)g->tensors, naive, lb);
            plot_buf_free(&sp);
            if (c->ref) plot_buf_printf(&b, ", %s %s", rn, ref);
            plot_buf_add(&b, "\n");
            if (limits)
                plot_buf_add(&b, "% (limit): the search stopped at its budget; its plan is valid"
                                 " but not the planner's answer\n");
            plot_buf_printf(&b, "\\begin{tabular}{lrr%srrrrrcc}\n\\toprule\n", c->ref ? "r" : "");
            plot_buf_printf(&b, "Planner & Arena (%s) & $\\times$ LB & %sSaving & Frag.\\ peak & "
                                "Frag.\\ mean & Time (%s) & Scratch (%s) & Valid & Status \\\\\n"
                                "\\midrule\n",
                            aun, c->ref ? (c->ref_opt ? "$\\times$ opt. & " : "$\\times$ bound & ") : "",
                            strcmp(tun, "\xC2\xB5s") == 0 ? "$\\mu$s" : tun, sun);
        }
        for (size_t i = 0; i < n; i++) {
            const struct arena_fig_result *r = res[i];
            char a[40] = "--", rt[40] = "--", o[40] = "--", sv[40] = "--", fp[40] = "--",
                 fm[40] = "--", t[40] = "--", sc[40] = "--";
            if (r->ok) {
                snprintf(a, sizeof a, AU == 1 ? "%.0f" : "%.2f", (double)r->arena / AU);
                if (r->has_ratio) snprintf(rt, sizeof rt, "%.3f", r->ratio_lb);
                if (c->ref) snprintf(o, sizeof o, "%.3f", (double)r->arena / (double)c->ref);
                if (r->has_saving) snprintf(sv, sizeof sv, "%.1f%s", 100 * r->saving, tex ? "\\%" : "%");
                if (r->has_frag) {
                    snprintf(fp, sizeof fp, "%.3f", r->frag_peak);
                    snprintf(fm, sizeof fm, "%.3f", r->frag_mean);
                }
            }
            if (r->has_ns) snprintf(t, sizeof t, "%.3g", r->ns_median / TU);
            if (r->has_scratch)
                snprintf(sc, sizeof sc, r->scratch == 0 ? "0" : SU == 1 ? "%.0f" : "%.1f",
                         (double)r->scratch / SU);
            const char *status = r->status ? r->status : "--";
            char *label = label_of(c->sel[idx[i]].name, r);
            if (!tex) {
                plot_buf_add(&b, "| ");
                plot_md(&b, label ? label : "");
                plot_buf_printf(&b, " | %s | %s |", a, rt);
                if (c->ref) plot_buf_printf(&b, " %s |", o);
                plot_buf_printf(&b, " %s | %s | %s | %s | %s | %s | ", sv, fp, fm, t, sc,
                                r->ok ? "yes" : "no");
                plot_md(&b, status);
                plot_buf_add(&b, " |\n");
            } else {
                plot_tex(&b, label ? label : "");
                plot_buf_printf(&b, " & %s & %s & ", a, rt);
                if (c->ref) plot_buf_printf(&b, "%s & ", o);
                plot_buf_printf(&b, "%s & %s & %s & %s & %s & %s & ", sv, fp, fm, t, sc,
                                r->ok ? "yes" : "no");
                plot_tex(&b, status);
                plot_buf_add(&b, " \\\\\n");
            }
            free(label);
        }
        if (tex) plot_buf_add(&b, "\\bottomrule\n\\end{tabular}\n");
        int rc = put(c, tex ? "comparison.tex" : "comparison.md", &b);
        plot_buf_free(&b);
        if (rc) return rc;
    }
    return 0;
}

static int per_graph(struct ctx *c)
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
        if (!(lab[i] = label_of(c->sel[idx[i]].name, res[i]))) {
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
    if (bad.len) note(c, "invalid or failed plans left out of the figures: %s", bad.s);
    plot_buf_free(&bad);
    if (n && (want(c, "arena") || want(c, "tables"))) rc = write_arena_csv(c, idx, res, n);
    if (!rc && n && want(c, "arena")) rc = fig_arena(c, idx, res, lab, n);
    if (!rc && (want(c, "layout") || want(c, "live"))) rc = fig_layout_live(c, idx, res, lab, n);
    if (!rc && want(c, "replay")) rc = fig_replay(c, idx, res, n);
    if (!rc && n && want(c, "tables")) rc = tables(c, idx, res, n);
done:
    for (size_t i = 0; lab && i < c->n_sel; i++) free(lab[i]);
    free(lab);
    free(idx);
    free(res);
    return rc;
}

/* ------------------------------------------------------------ across graphs */

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
    struct plot_buf b = {0};
    if (!g->params[0]) {
        plot_buf_add(&b, g->spec);
    } else {
        plot_buf_add(&b, g->family);
        int first = 1;
        for (const char *p = g->params; *p;) {
            const char *e = strchr(p, ',');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            if (!param_is(p, len, drop)) {
                plot_buf_add(&b, first ? ":" : ",");
                plot_buf_addn(&b, p, len);
                first = 0;
            }
            p += len + (e ? 1 : 0);
        }
    }
    if (with_align) plot_buf_printf(&b, " align=%lld", (long long)g->alignment);
    if (b.oom) {
        plot_buf_free(&b);
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

/* Distinct seeds among graphs marked in use[]. */
static size_t count_seeds(const struct ctx *c, const int *use)
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

static int fig_quality(struct ctx *c)
{
    size_t G = c->d.n_graphs;
    /* Per graph, the best proven bound above the lower bound, if any. */
    double *best = calloc(G + 1, sizeof *best);
    int *use = calloc(G + 1, sizeof *use);
    size_t *qidx = malloc((c->n_sel + 1) * sizeof *qidx);
    int rc = 0;
    struct plot_buf left = {0}, b = {0}, gp = {0}, yt = {0}, cap = {0}, sub = {0};
    char **lab = calloc(c->n_sel + 1, sizeof *lab);
    double *v = malloc((G + 1) * sizeof *v);
    if (!best || !use || !qidx || !lab || !v) {
        snprintf(c->err, sizeof c->err, "out of memory");
        rc = 1;
        goto done;
    }
    int better = 0;
    for (size_t i = 0; i < c->d.n_results; i++) {
        const struct arena_fig_result *r = &c->d.results[i];
        if (r->ok && r->has_bound && (double)r->bound > best[r->graph]) best[r->graph] = (double)r->bound;
    }
    for (size_t g = 0; g < G; g++) {
        best[g] = fmax(best[g], (double)c->d.graphs[g].lower_bound);
        better |= best[g] > (double)c->d.graphs[g].lower_bound;
    }
    /* Planners: the shown ones, naive only when asked for, none without
     * a valid result anywhere (said in a note). */
    size_t nq = 0;
    int skipped_naive = 0;
    struct plot_buf none = {0};
    for (size_t i = 0; i < c->n_sel; i++) {
        if (!c->planners_given && strcmp(c->sel[i].name, "naive") == 0) {
            skipped_naive = 1;
            continue;
        }
        int any = 0;
        for (size_t g = 0; g < G && !any; g++) {
            const struct arena_fig_result *r = find(c, g, c->sel[i].name);
            any = r && r->ok;
        }
        if (!any) {
            if (none.len) plot_buf_add(&none, ", ");
            plot_caret(&none, c->sel[i].name);
            continue;
        }
        qidx[nq++] = i;
    }
    /* Paired: graphs where every planner of the figure has a valid result. */
    size_t paired = 0, measured_graphs = 0;
    for (size_t g = 0; g < G; g++) {
        int all = 1, some = 0;
        for (size_t k = 0; k < nq; k++) {
            const struct arena_fig_result *r = find(c, g, c->sel[qidx[k]].name);
            all &= r && r->ok && c->d.graphs[g].lower_bound > 0;
            some |= r != NULL;
        }
        measured_graphs += some;
        use[g] = all && nq > 0;
        paired += (size_t)use[g];
    }
    for (size_t k = 0; k < nq; k++) {
        size_t failed = 0;
        for (size_t g = 0; g < G; g++) {
            const struct arena_fig_result *r = find(c, g, c->sel[qidx[k]].name);
            failed += !(r && r->ok);
        }
        if (failed) {
            plot_buf_add(&left, left.len ? ", " : "");
            plot_caret(&left, c->sel[qidx[k]].name);
            plot_buf_printf(&left, " failed or missing on %zu", failed);
        }
    }
    if (paired < 2 || !nq) {
        note(c, "quality figure skipped: %zu graph%s with a valid result of every planner shown"
                " (needs two; try bench --graph all)%s%s",
             paired, paired == 1 ? "" : "s", left.len ? "; " : "", left.len ? left.s : "");
        goto done;
    }
    size_t seeds = count_seeds(c, use);
    plot_buf_printf(&cap, "%zu of %zu graphs", paired, G);
    if (left.len) plot_buf_printf(&cap, " (paired: %s)", left.s);
    plot_buf_printf(&cap, ", %zu seed%s, %zu run%s", seeds, seeds == 1 ? "" : "s", c->d.n_runs,
                    c->d.n_runs == 1 ? "" : "s");
    if (skipped_naive) plot_buf_add(&cap, "; naive left out (--planner all shows it)");
    if (none.len) plot_buf_printf(&cap, "; no valid result: %s", none.s);
    note(c, "quality: %s", cap.s);
    /* Data and quartiles. */
    /* paired, graphs, seeds, runs: what the figure covers, on every row. */
    plot_buf_add(&b, "row,ratio,limit,ratio_lb,arena_bytes,lower_bound,best_bound,run,paired,"
                     "graphs,seeds,runs,planner,graph\n");
    double qmax = 1;
    struct plot_buf arr = {0};
    plot_buf_printf(&arr, "array Q1[%zu]; array Q3[%zu]; array MED[%zu]; array LO[%zu]; array HI[%zu]\n",
                    nq, nq, nq, nq, nq);
    for (size_t k = 0; k < nq; k++) {
        size_t nv = 0, limits = 0;
        for (size_t g = 0; g < G; g++) {
            if (!use[g]) continue;
            const struct arena_fig_result *r = find(c, g, c->sel[qidx[k]].name);
            const struct arena_fig_graph *gr = &c->d.graphs[g];
            double ratio = (double)r->arena / (better ? best[g] : (double)gr->lower_bound);
            v[nv++] = ratio;
            limits += (size_t)is_limit(r);
            qmax = fmax(qmax, ratio);
            plot_buf_printf(&b, "%zu,%.17g,%d,%.17g,%lld,%lld,", k + 1, ratio, is_limit(r),
                            (double)r->arena / (double)gr->lower_bound, (long long)r->arena,
                            (long long)gr->lower_bound);
            if (best[g] > (double)gr->lower_bound) plot_buf_printf(&b, "%.17g", best[g]);
            plot_buf_printf(&b, ",%lld,%zu,%zu,%zu,%zu,", (long long)r->run_id, paired, G, seeds,
                            c->d.n_runs);
            plot_csv(&b, c->sel[qidx[k]].name);
            plot_buf_add(&b, ",");
            plot_csv(&b, gr->spec);
            plot_buf_add(&b, "\n");
        }
        qsort(v, nv, sizeof *v, by_double);
        double q1 = quantile(v, nv, 0.25), q3 = quantile(v, nv, 0.75), iq = q3 - q1;
        double lo = v[nv - 1], hi = v[0];
        for (size_t i = 0; i < nv; i++) {
            if (v[i] >= q1 - 1.5 * iq && v[i] < lo) lo = v[i];
            if (v[i] <= q3 + 1.5 * iq && v[i] > hi) hi = v[i];
        }
        plot_buf_printf(&arr, "Q1[%zu] = %.17g; Q3[%zu] = %.17g; MED[%zu] = %.17g; LO[%zu] = %.17g; "
                              "HI[%zu] = %.17g\n",
                        k + 1, q1, k + 1, q3, k + 1, quantile(v, nv, 0.5), k + 1, lo, k + 1, hi);
        struct plot_buf l = {0};
        plot_buf_add(&l, c->sel[qidx[k]].name);
        if (limits == paired) plot_buf_add(&l, " (limit)");
        else if (limits) plot_buf_printf(&l, " (%zu limit)", limits);
        lab[k] = l.s;
        if (!lab[k]) rc = 1;
    }
    if (rc || (rc = put(c, "quality.csv", &b))) {
        if (!c->err[0]) snprintf(c->err, sizeof c->err, "out of memory");
        plot_buf_free(&arr);
        goto done;
    }
    const char *what = better ? "Arena / best proven bound" : "Arena / lower bound";
    plot_buf_printf(&sub, "%s", cap.s);
    double h1 = fmin(4.2, fmax(1.8, 1.0 + 0.2 * (double)nq)), h2 = fmax(2.4, 1.2 + 0.27 * (double)nq);
    gp_head(c, &gp, "quality", what, sub.s ? sub.s : "", cap.s, h1, h2);
    gp_common(c, &gp);
    gp_styles(&gp, c->sel, qidx, lab, nq, 40);
    plot_buf_add(&gp, arr.s ? arr.s : "");
    plot_buf_free(&arr);
    int logx = qmax > 3;
    plot_buf_printf(&gp, "QMAX = %.17g; LOGX = %d; XLABEL = '%s'\n", qmax, logx,
                    better ? "arena / best proven bound" : "arena / lower bound");
    plot_buf_printf(&gp, "LOGTICS1 = \"%s\"; LOGTICS2 = \"%s\"\n",
                    qmax > 30 ? "(1, 10, 100, 1000, 10000, 100000)" : "(1, 2, 5, 10, 20)",
                    qmax > 30 ? "(1, 10, 100, 1000, 10000, 100000)" : "(1, 1.5, 2, 3, 5, 10, 20)");
    ytics_names(&yt, lab, nq);
    const char *keys[] = {"YTICS"};
    const char *vals[] = {yt.s ? yt.s : "()"};
    rc = draw(c, "quality", &gp, keys, vals, 1);
done:
    for (size_t i = 0; lab && i < c->n_sel; i++) free(lab[i]);
    free(lab);
    free(best);
    free(use);
    free(qidx);
    free(v);
    plot_buf_free(&left);
    plot_buf_free(&none);
    plot_buf_free(&b);
    plot_buf_free(&gp);
    plot_buf_free(&yt);
    plot_buf_free(&cap);
    plot_buf_free(&sub);
    return rc;
}

/* Configuration index of every graph: cfg[g] in [0, *n), labels in *names. */
static int configs(const struct ctx *c, const char *const *drop, size_t *cfg, char ***names,
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
    struct plot_buf b = {0};
    plot_buf_addn(&b, me, flen);
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
                plot_buf_add(&b, first ? ":" : ",");
                plot_buf_addn(&b, p, len);
                first = 0;
            }
            p += len + (e ? 1 : 0);
        }
    }
    if (space) plot_buf_add(&b, space);
    if (b.oom) {
        plot_buf_free(&b);
        return NULL;
    }
    return b.s;
}

/* plot_gq of text cut to max characters ("..." at the end). */
static void gq_cut(struct plot_buf *b, const char *text, size_t max)
{
    struct plot_buf t = {0};
    plot_caret(&t, text);
    if (t.s && t.len > max && max > 3) strcpy(t.s + max - 3, "...");
    plot_gq(b, t.s ? t.s : "", 0);
    plot_buf_free(&t);
}

/* Decade ticks from lo to hi: "(label value, ...)" and the range. */
static void decade_tics(struct plot_buf *b, double lo, double hi, int ns, double *r0, double *r1)
{
    int a = (int)floor(log10(lo) + 1e-9), z = (int)ceil(log10(hi) - 1e-9);
    if (z <= a) z = a + 1;
    plot_buf_add(b, "(");
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
        plot_buf_printf(b, "%s'%s' %.17g", e == a ? "" : ", ", l, v);
    }
    plot_buf_add(b, ")");
    *r0 = 0.97 * pow(10, a);
    *r1 = 1.03 * pow(10, z);
}

static int fig_scaling(struct ctx *c)
{
    static const char *const sizes[] = {"n", "tensors", "count", "ops", "steps", "layers",
                                        "blocks", "levels", "seed", NULL};
    size_t G = c->d.n_graphs, nf = 0;
    size_t *cfg = malloc((G + 1) * sizeof *cfg);
    char **names = NULL;
    int rc = 0;
    if (!cfg || configs(c, sizes, cfg, &names, &nf)) {
        free(cfg);
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    /* Flavours with at least two sizes, most sizes first, at most four. */
    size_t *count = calloc(nf + 1, sizeof *count), *order = malloc((nf + 1) * sizeof *order);
    if (!count || !order) {
        rc = 1;
        snprintf(c->err, sizeof c->err, "out of memory");
        goto done;
    }
    for (size_t f = 0; f < nf; f++) {
        for (size_t g = 0; g < G; g++) {
            if (cfg[g] != f) continue;
            size_t h;
            for (h = 0; h < g; h++)
                if (cfg[h] == f && c->d.graphs[h].tensors == c->d.graphs[g].tensors) break;
            count[f] += h == g;
        }
    }
    size_t np = 0;
    for (size_t f = 0; f < nf; f++)
        if (count[f] >= 2) order[np++] = f;
    for (size_t i = 1; i < np; i++)
        for (size_t j = i; j > 0 && count[order[j]] > count[order[j - 1]]; j--) {
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    if (!np) {
        note(c, "scaling figure skipped: the selected runs have no graphs of several sizes (try"
                " bench --graph scaling)");
        goto done;
    }
    if (np > 4) note(c, "scaling figure shows 4 of %zu graph families", np);
    if (np > 2 && (c->o.sizes & 1)) note(c, "one-column scaling figure shows the first 2 of its panels");
    size_t NP = np > 4 ? 4 : np;
    struct plot_buf b = {0};
    plot_buf_add(&b, "panel,row,tensors,plan_ns_median,plan_ns_mean,plan_ns_stddev,iterations,"
                     "arena_bytes,limit,planner,graph\n");
    double t0 = 0, t1 = 0, n0 = 0, n1 = 0;
    size_t limits = 0;
    for (size_t p = 0; p < NP; p++)
        for (size_t i = 0; i < c->n_sel; i++) {
            size_t *gs = malloc((G + 1) * sizeof *gs), m = 0;
            if (!gs) {
                b.oom = 1;
                break;
            }
            for (size_t g = 0; g < G; g++) {
                const struct arena_fig_result *r = find(c, g, c->sel[i].name);
                if (cfg[g] == order[p] && r && r->ok && r->has_ns) gs[m++] = g;
            }
            for (size_t x = 1; x < m; x++)
                for (size_t y = x; y > 0 && c->d.graphs[gs[y]].tensors < c->d.graphs[gs[y - 1]].tensors; y--) {
                    size_t t = gs[y];
                    gs[y] = gs[y - 1];
                    gs[y - 1] = t;
                }
            for (size_t x = 0; x < m; x++) {
                const struct arena_fig_graph *gr = &c->d.graphs[gs[x]];
                const struct arena_fig_result *r = find(c, gs[x], c->sel[i].name);
                double t = (double)gr->tensors, ns = r->ns_median;
                if (!t0 || t < t0) t0 = t;
                if (t > t1) t1 = t;
                if (ns > 0 && (!n0 || ns < n0)) n0 = ns;
                if (ns > n1) n1 = ns;
                limits += (size_t)is_limit(r);
                plot_buf_printf(&b, "%zu,%zu,%lld,%.17g,%.17g,%.17g,%lld,%lld,%d,", p + 1, i + 1,
                                (long long)gr->tensors, r->ns_median, r->ns_mean, r->ns_stddev,
                                (long long)r->iterations, (long long)r->arena, is_limit(r));
                plot_csv(&b, c->sel[i].name);
                plot_buf_add(&b, ",");
                plot_csv(&b, gr->spec);
                plot_buf_add(&b, "\n");
            }
            free(gs);
        }
    rc = put(c, "scaling.csv", &b);
    plot_buf_free(&b);
    if (rc) goto done;
    if (!(n0 > 0)) n0 = 1, n1 = 10;
    if (!(t0 > 0)) t0 = 1, t1 = 10;
    struct plot_buf gp = {0}, xt = {0}, ytb = {0};
    double x0, x1, y0, y1;
    decade_tics(&xt, t0, t1, 0, &x0, &x1);
    decade_tics(&ytb, n0, n1, 1, &y0, &y1);
    size_t idx_all[256], nshow = c->n_sel < 256 ? c->n_sel : 256;
    for (size_t i = 0; i < nshow; i++) idx_all[i] = i;
    size_t NP1 = NP > 2 ? 2 : NP, R2 = (NP + 1) / 2;
    double kh1 = (double)((nshow + 2) / 2) * 0.15, kh2 = (double)((nshow + 3) / 3) * 0.17;
    char sub[96];
    if (c->d.n_runs == 1) snprintf(sub, sizeof sub, "run %lld", (long long)c->d.runs[0]);
    else snprintf(sub, sizeof sub, "%zu runs", c->d.n_runs);
    gp_head(c, &gp, "scaling", "Planning time against problem size", sub, NULL,
            fmin(4.3, 2.2 + kh1), 1.0 + 2.4 * (double)R2 + kh2);
    gp_common(c, &gp);
    gp_styles(&gp, c->sel, idx_all, NULL, nshow, 40);
    plot_buf_printf(&gp, "NP = %zu; NP1 = %zu; X0 = %.17g; X1 = %.17g; Y0 = %.17g; Y1 = %.17g\n",
                    NP, NP1, x0, x1, y0, y1);
    plot_buf_printf(&gp, "XTICS = \"%s\"; YTICS = \"%s\"\narray PT[%zu]; array PT1[%zu]\n",
                    xt.s ? xt.s : "()", ytb.s ? ytb.s : "()", NP, NP);
    for (size_t p = 0; p < NP; p++) {
        char *sl = short_label(names, nf, order[p]);
        plot_buf_printf(&gp, "PT[%zu] = ", p + 1);
        gq_cut(&gp, sl ? sl : names[order[p]], 60);
        plot_buf_printf(&gp, "; PT1[%zu] = ", p + 1);
        gq_cut(&gp, sl ? sl : names[order[p]], 22);
        plot_buf_add(&gp, "\n");
        free(sl);
    }
    const char *keys[] = {"LIMITKEY"};
    const char *vals[] = {limits ? ", \\\n       NaN with points pt 2 ps 1 lc rgb '#000000' title"
                                   " 'stopped at limit'"
                                 : ""};
    plot_buf_printf(&gp, "NL = %zu\n", limits);
    rc = xt.oom || ytb.oom ? 1 : draw(c, "scaling", &gp, keys, vals, 1);
    plot_buf_free(&gp);
    plot_buf_free(&xt);
    plot_buf_free(&ytb);
done:
    free(count);
    free(order);
    free(cfg);
    free_names(names, nf);
    return rc;
}

/* The stats chart draws what `bench stats` computes: arena_stats_compute_query
 * (results/stats.h) on the same database, run selection and planners, so
 * its numbers are those of bench stats --format csv by construction. A
 * panel is a group (the graphs' configuration, seeds apart); a point is a
 * row (a planner with its options, named by its label). A group whose rows
 * share fewer than two graphs is left out, and so is a row whose mean is
 * over 3x the panel's best; the notes say so. */
static int fig_stats(struct ctx *c)
{
    size_t S = c->n_sel, np = 0, paired_total = 0, lab_n = 0;
    char run[32];
    if (c->o.run == 0 || !c->d.n_runs) snprintf(run, sizeof run, "all");
    else snprintf(run, sizeof run, "%lld", (long long)c->d.runs[0]);
    const char **planners = malloc((S + 1) * sizeof *planners);
    struct arena_stats s = {0};
    char **gnames = NULL, *lab[256] = {0};
    size_t *gfirst = NULL, *rpanel = NULL, *rslot = NULL, *pgroup = NULL, idx[256];
    struct plot_buf b = {0}, gp = {0}, notes = {0}, cap = {0};
    int rc = 0;
    if (!planners) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    for (size_t i = 0; i < S; i++) planners[i] = c->sel[i].name;
    struct arena_stats_query q = {.run = run, .planners = planners, .n_planners = S};
    char why[sizeof c->err];
    rc = arena_stats_compute_query(c->o.db, &q, &s, why, sizeof why);
    if (rc == ARENA_EDB) { /* a database bench plot reads but bench stats does not */
        note(c, "stats figure skipped: %s", why);
        rc = 0;
        goto done;
    }
    if (rc) {
        snprintf(c->err, sizeof c->err, "%s", why);
        rc = rc == ARENA_ENOMEM ? 1 : 2;
        goto done;
    }
    /* The groups: runs of rows with one group label. */
    size_t ng = 0, R = s.n_rows;
    gnames = malloc((R + 1) * sizeof *gnames);
    gfirst = malloc((R + 2) * sizeof *gfirst);
    rpanel = calloc(R + 1, sizeof *rpanel);
    rslot = calloc(R + 1, sizeof *rslot);
    pgroup = malloc((R + 1) * sizeof *pgroup);
    if (!gnames || !gfirst || !rpanel || !rslot || !pgroup) {
        snprintf(c->err, sizeof c->err, "out of memory");
        rc = 1;
        goto done;
    }
    for (size_t k = 0; k < R; k++)
        if (!k || strcmp(s.rows[k].group, s.rows[k - 1].group) != 0) {
            gnames[ng] = s.rows[k].group;
            gfirst[ng++] = k;
        }
    gfirst[ng] = R;
    for (size_t f = 0; f < ng; f++) {
        size_t a = gfirst[f], e = gfirst[f + 1];
        size_t paired = s.rows[a].n, graphs = paired + s.rows[a].n_left_out;
        char *sl = short_label(gnames, ng, f);
        struct plot_buf sh = {0};
        plot_caret(&sh, sl ? sl : gnames[f]);
        free(sl);
        if (paired < 2) { /* one seed has no spread to show */
            plot_buf_printf(&notes, "%s%s: %zu paired graph%s (a panel needs two)",
                            notes.len ? "; " : "", sh.s ? sh.s : "", paired, paired == 1 ? "" : "s");
            plot_buf_free(&sh);
            continue;
        }
        double bestmean = INFINITY;
        for (size_t k = a; k < e; k++) bestmean = fmin(bestmean, s.rows[k].lb.mean);
        struct plot_buf out = {0}, failed = {0};
        pgroup[np++] = f;
        paired_total += paired;
        for (size_t k = a; k < e; k++) {
            if (s.rows[k].lb.mean > 3 * bestmean) {
                if (out.len) plot_buf_add(&out, ", ");
                plot_caret(&out, s.rows[k].label);
            } else {
                rpanel[k] = np;
            }
        }
        for (size_t h = 0; h < s.n_hidden; h++)
            if (strcmp(s.hidden[h].group, gnames[f]) == 0) {
                if (failed.len) plot_buf_add(&failed, ", ");
                plot_caret(&failed, s.hidden[h].label);
            }
        if (paired < graphs || out.len || failed.len) {
            plot_buf_printf(&notes, "%s%s: ", notes.len ? "; " : "", sh.s ? sh.s : "");
            const char *sep = "";
            if (paired < graphs) {
                plot_buf_printf(&notes, "%zu of %zu graphs paired", paired, graphs);
                sep = ", ";
            }
            if (out.len) {
                plot_buf_printf(&notes, "%s%s over 3x the best mean", sep, out.s);
                sep = ", ";
            }
            if (failed.len) plot_buf_printf(&notes, "%s%s with no valid result", sep, failed.s);
        }
        plot_buf_free(&sh);
        plot_buf_free(&out);
        plot_buf_free(&failed);
    }
    if (!np) {
        note(c, "stats figure skipped: no configuration with two graphs (seeds) on which every"
                " planner has a valid result (try a sweep over seeds)");
        goto done;
    }
    if (notes.len) note(c, "stats: %s", notes.s);
    /* A row label keeps one x place in every panel: planners in the order
     * shown, a planner's option configurations in the order of the rows. */
    for (size_t i = 0; i < S; i++)
        for (size_t k = 0; k < R; k++) {
            if (!rpanel[k] || rslot[k] || strcmp(s.rows[k].planner, c->sel[i].name) != 0) continue;
            if (lab_n == 256) break;
            size_t slot = ++lab_n, lim = 0;
            idx[slot - 1] = i;
            for (size_t m = k; m < R; m++)
                if (rpanel[m] && strcmp(s.rows[m].label, s.rows[k].label) == 0) {
                    rslot[m] = slot;
                    lim += s.rows[m].limit;
                }
            struct plot_buf l = {0};
            plot_buf_add(&l, s.rows[k].label);
            if (lim) plot_buf_printf(&l, " (%zu limit)", lim);
            lab[slot - 1] = l.s;
            if (!l.s) rc = 1;
        }
    plot_buf_add(&b, "panel,row,n,mean,mean_lo,mean_hi,median,median_lo,median_hi,graphs,limit,"
                     "group,planner,label\n");
    for (size_t k = 0; k < R; k++) {
        const struct arena_stats_row *r = &s.rows[k];
        if (!rpanel[k] || !rslot[k]) continue;
        plot_buf_printf(&b, "%zu,%zu,%zu,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%zu,%zu,", rpanel[k], rslot[k],
                        r->n, r->lb.mean, r->lb.mean_lo, r->lb.mean_hi, r->lb.median, r->lb.median_lo,
                        r->lb.median_hi, r->n + r->n_left_out, r->limit);
        plot_csv(&b, r->group);
        plot_buf_add(&b, ",");
        plot_csv(&b, r->planner);
        plot_buf_add(&b, ",");
        plot_csv(&b, r->label);
        plot_buf_add(&b, "\n");
    }
    if (rc || (rc = put(c, "stats.csv", &b))) goto done;
    plot_buf_printf(&cap, "%zu configuration%s, %zu paired graphs, %zu run%s", np, np == 1 ? "" : "s",
                    paired_total, c->d.n_runs, c->d.n_runs == 1 ? "" : "s");
    if (notes.len) plot_buf_printf(&cap, "; left out: %s", notes.s);
    size_t NP1 = np > 6 ? 6 : np;
    if (np > NP1 && (c->o.sizes & 1))
        note(c, "one-column stats figure shows the first 6 of its %zu panels", np);
    double kh1 = (double)((lab_n + 1) / 2) * 0.15, kh2 = (double)((lab_n + 2) / 3) * 0.17;
    size_t R1 = (NP1 + 1) / 2, R2 = (np + 2) / 3;
    gp_head(c, &gp, "stats", "Arena / lower bound across seeds: mean, bootstrap 95% CI",
            cap.s ? cap.s : "", cap.s, fmin(4.4, 0.5 + 1.25 * (double)R1 + kh1),
            0.6 + 1.7 * (double)R2 + kh2);
    gp_common(c, &gp);
    gp_styles(&gp, c->sel, idx, lab, lab_n, 40);
    plot_buf_printf(&gp, "NP = %zu; NP1 = %zu\narray PT[%zu]; array PT1[%zu]\n", np, NP1, np, np);
    for (size_t p = 0; p < np; p++) {
        const struct arena_stats_row *r = &s.rows[gfirst[pgroup[p]]];
        char *sl = short_label(gnames, ng, pgroup[p]);
        struct plot_buf t = {0};
        plot_buf_printf(&t, "%s (n=%zu", sl ? sl : r->group, r->n);
        if (r->n_left_out) plot_buf_printf(&t, " of %zu", r->n + r->n_left_out);
        plot_buf_add(&t, ")");
        /* n is what matters: the label is cut before it, never it. */
        plot_buf_printf(&gp, "PT[%zu] = ", p + 1);
        gq_cut(&gp, t.s ? t.s : "", 32);
        plot_buf_printf(&gp, "; PT1[%zu] = ", p + 1);
        gq_cut(&gp, t.s ? t.s : "", 24);
        plot_buf_add(&gp, "\n");
        plot_buf_free(&t);
        free(sl);
    }
    rc = draw(c, "stats", &gp, NULL, NULL, 0);
done:
    for (size_t i = 0; i < lab_n; i++) free(lab[i]);
    free(planners);
    free(gnames);
    free(gfirst);
    free(rpanel);
    free(rslot);
    free(pgroup);
    arena_stats_free(&s);
    plot_buf_free(&b);
    plot_buf_free(&gp);
    plot_buf_free(&notes);
    plot_buf_free(&cap);
    return rc;
}

static int styles_csv(struct ctx *c)
{
    struct plot_buf b = {0};
    plot_buf_add(&b, "planner,kind,color,dash,point\n");
    for (size_t i = 0; i < c->n_sel; i++) {
        plot_csv(&b, c->sel[i].name);
        plot_buf_printf(&b, ",%s,#%06X,%d,%d\n", c->sel[i].kind, c->sel[i].color, c->sel[i].dt,
                        c->sel[i].pt);
    }
    int rc = put(c, "styles.csv", &b);
    plot_buf_free(&b);
    return rc;
}

/* ------------------------------------------------------------ driver */

static void remove_tmp(struct ctx *c)
{
    if (!c->tmp) return;
    for (size_t i = 0; i < c->n_written; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", c->tmp, c->written[i]);
        remove(path);
    }
    static const char *const logs[] = {"arena", "layout", "live", "scaling", "quality", "replay", "stats"};
    static const char *const fmts[] = {"png", "pdf", "svg"};
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/.%s.log", c->tmp, logs[i]);
        remove(path);
        for (int s = 1; s <= 2; s++)
            for (size_t f = 0; f < 3; f++) {
                snprintf(path, sizeof path, "%s/%s-%dcol.%s", c->tmp, logs[i], s, fmts[f]);
                remove(path);
            }
    }
    rmdir(c->tmp);
}

static int run(struct ctx *c)
{
    int rc = arena_figdb_open(c->o.db, &c->db, c->err, sizeof c->err);
    if (rc) return rc == ARENA_ENOMEM ? 1 : 2;
    if (arena_figdb_note(c->db)) note(c, "%s: %s", c->o.db, arena_figdb_note(c->db));
    rc = arena_figdb_load(c->db, c->o.run, &c->d, c->err, sizeof c->err);
    if (rc) return rc == ARENA_ENOMEM ? 1 : 2;
    if ((rc = choose_planners(c))) return rc < 0 ? (snprintf(c->err, sizeof c->err, "out of memory"), 1) : 2;
    if (!c->n_sel) {
        snprintf(c->err, sizeof c->err, "the selected runs have no planners to show");
        return 2;
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
        snprintf(c->err, sizeof c->err, "%s: no valid result to show in the selected runs", c->o.db);
        return 2;
    }
    if ((rc = choose_graph(c))) return rc;
    c->tpl = plot_template_dir();
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
    if (!rc && (want(c, "arena") || want(c, "layout") || want(c, "live") || want(c, "tables") ||
                want(c, "replay")))
        rc = per_graph(c);
    if (!rc && want(c, "scaling")) rc = fig_scaling(c);
    if (!rc && want(c, "quality")) rc = fig_quality(c);
    if (!rc && want(c, "stats")) rc = fig_stats(c);
    if (rc) {
        remove_tmp(c);
        if (made) rmdir(c->o.out);
        return rc;
    }
    for (size_t i = 0; i < c->n_written; i++) {
        char from[4096], to[4096];
        snprintf(from, sizeof from, "%s/%s", c->tmp, c->written[i]);
        snprintf(to, sizeof to, "%s/%s", c->o.out, c->written[i]);
        if (rename(from, to) != 0) {
            snprintf(c->err, sizeof c->err, "cannot move %s into %s (%s)", c->written[i],
                     c->o.out, strerror(errno));
            remove_tmp(c);
            return 1;
        }
    }
    rmdir(c->tmp);
    return 0;
}

int arena_bench_plot_main(int argc, char **argv)
{
    struct ctx c;
    memset(&c, 0, sizeof c);
    int rc = parse(argc, argv, &c.o);
    if (rc) return rc < 0 ? 0 : rc;
    rc = run(&c);
    if (rc) {
        for (char *p = c.err; *p; p++)
            if ((unsigned char)*p < 32) *p = ' ';
        fprintf(stderr, PROG ": %s\n", c.err[0] ? c.err : "failed");
    } else if (!c.o.quiet) {
        for (size_t i = 0; i < c.n_written; i++) printf("%s/%s\n", c.o.out, c.written[i]);
        if (c.notes.s) fputs(c.notes.s, stderr);
        struct plot_buf g = {0};
        if (c.d.n_graphs) plot_caret(&g, c.d.graphs[c.graph].spec);
        if (c.d.n_runs == 1)
            fprintf(stderr, PROG ": %zu files in %s (run %lld, graph %s)\n", c.n_written, c.o.out,
                    (long long)c.d.runs[0], g.s ? g.s : "");
        else
            fprintf(stderr, PROG ": %zu files in %s (%zu runs, graph %s)\n", c.n_written, c.o.out,
                    c.d.n_runs, g.s ? g.s : "");
        plot_buf_free(&g);
        if (fflush(stdout) != 0) rc = 1;
    }
    for (size_t i = 0; i < c.n_written; i++) free(c.written[i]);
    free(c.written);
    free(c.tmp);
    free(c.sel);
    free(c.by);
    plot_buf_free(&c.notes);
    arena_fig_data_free(&c.d);
    arena_figdb_close(c.db);
    return rc;
}
