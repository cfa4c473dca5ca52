/* plot_figure.c — what the figure files of `bench plot` call back
 * (plot_internal.h): the notes, the selection's answers (which figures,
 * which result counts, the configuration), numbers for axes and files, and
 * the data and script files with gnuplot run on them. Apart from the
 * driver (plot.c), which calls the figures: so no figure calls back into
 * the file that calls it. */
#include "bench/plot/plot_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *const arena_plot_figure_names[] = {"arena",  "layout", "live",  "scaling", "quality",
                                               "tables", "replay", "stats", "fixed", "configs",
                                               "mcu"};
_Static_assert(sizeof arena_plot_figure_names / sizeof arena_plot_figure_names[0] == PLOT_NFIGS,
               "PLOT_NFIGS counts arena_plot_figure_names");

void arena_plot_note(struct plot_ctx *c, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    arena_buf_printf(&c->notes, PLOT_PROG ": %s\n", line);
}

int arena_plot_want(const struct plot_ctx *c, const char *fig)
{
    for (size_t i = 0; i < PLOT_NFIGS; i++)
        if (strcmp(arena_plot_figure_names[i], fig) == 0) return c->o.want[i];
    return 0;
}

/* The result that counts of a shown planner on a graph, or NULL. */
const struct arena_fig_result *arena_plot_find(const struct plot_ctx *c, size_t graph,
                                               const char *planner)
{
    for (size_t i = 0; i < c->n_sel; i++)
        if (c->sel[i].name == planner || strcmp(c->sel[i].name, planner) == 0)
            return c->by[graph * c->n_sel + i];
    return NULL;
}

int arena_plot_is_limit(const struct arena_fig_result *r)
{
    return r && r->status && strcmp(r->status, "limit") == 0;
}

int arena_plot_in_config(const struct plot_ctx *c, size_t g)
{
    return c->d.graphs[g].config == c->cfg;
}

const char *arena_plot_config_label(const struct plot_ctx *c)
{
    return c->d.n_configs ? c->d.configs[c->cfg].label : "plain";
}

void arena_plot_byte_unit(double max, double *u, const char **name)
{
    if (max >= 1048576) *u = 1048576, *name = "MiB";
    else if (max >= 1024) *u = 1024, *name = "KiB";
    else *u = 1, *name = "B";
}

void arena_plot_time_unit(double max, double *u, const char **name)
{
    if (max >= 1e9) *u = 1e9, *name = "s";
    else if (max >= 1e6) *u = 1e6, *name = "ms";
    else if (max >= 1e3) *u = 1e3, *name = "\xC2\xB5s";
    else *u = 1, *name = "ns";
}

/* A tick step giving at most n ticks over [0, max]: 1, 2 or 5 times 10^k. */
double arena_plot_nice_step(double max, int n)
{
    double r = max / n;
    if (!(r > 0)) return 1;
    double p = pow(10, floor(log10(r)));
    if (p >= r) return p;
    if (2 * p >= r) return 2 * p;
    if (5 * p >= r) return 5 * p;
    return 10 * p;
}

void arena_plot_fmt_bytes(char *out, size_t n, double b)
{
    if (b >= 1048576) snprintf(out, n, "%.2f MiB", b / 1048576);
    else if (b >= 1024) snprintf(out, n, "%.1f KiB", b / 1024);
    else snprintf(out, n, "%.0f B", b);
}

void arena_plot_fmt_time(char *out, size_t n, double ns)
{
    double u;
    const char *name;
    arena_plot_time_unit(ns, &u, &name);
    snprintf(out, n, "%.3g %s", ns / u, name);
}

int arena_plot_by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Linear-interpolated quantile of sorted v[0..n). */
double arena_plot_quantile(const double *v, size_t n, double p)
{
    double h = (double)(n - 1) * p;
    size_t i = (size_t)h;
    return i + 1 >= n ? v[n - 1] : v[i] + (h - (double)i) * (v[i + 1] - v[i]);
}

void arena_plot_config_dir(const struct plot_ctx *c, char *out, size_t n)
{
    const char *l = c->all_configs ? "plain" : arena_plot_config_label(c);
    size_t j = 0;
    if (strcmp(l, "plain") != 0)
        for (const char *p = l; *p && j + 2 < n && j < 120; p++) {
            char ch = *p;
            if (strncmp(p, " \xC2\xB7 ", 4) == 0) { /* " · ": one configuration's parts */
                ch = '+';
                p += 3;
            } else if (strncmp(p, "\xC3\x97", 2) == 0) { /* × */
                ch = 'x';
                p++;
            } else if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                         (ch >= '0' && ch <= '9') || strchr(".=+-", ch))) {
                ch = '-';
            }
            if (ch == '-' && (j == 0 || out[j - 1] == '-' || out[j - 1] == '+')) continue;
            if (ch == '+' && j && out[j - 1] == '-') j--;
            out[j++] = ch;
        }
    while (j && out[j - 1] == '-') j--;
    if (j && out[0] == '.') out[0] = '_';
    out[j] = '\0';
}

/* The path below tmp (and --out) of the current figures' folder: its
 * configuration's folder (none for plain), then sub; "" for tmp itself. */
static void rel_dir(const struct plot_ctx *c, char *out, size_t n)
{
    char conf[128];
    arena_plot_config_dir(c, conf, sizeof conf);
    snprintf(out, n, "%s%s%s", conf, conf[0] && c->sub[0] ? "/" : "", c->sub);
}

/* The folder the current figures go to: tmp, or tmp/rel_dir, made when
 * missing. */
static void here(const struct plot_ctx *c, char *dir, size_t n)
{
    char rel[1024];
    rel_dir(c, rel, sizeof rel);
    if (!rel[0]) {
        snprintf(dir, n, "%s", c->tmp);
        return;
    }
    snprintf(dir, n, "%s/%s", c->tmp, rel);
    for (char *s = dir + strlen(c->tmp) + 1;; s++) {
        char *e = strchr(s, '/');
        if (e) *e = '\0';
        mkdir(dir, 0777); /* an existing folder is fine; a failure shows when writing */
        if (!e) break;
        *e = '/';
        s = e;
    }
}

/* name, or DIR/name: the path written below tmp (and --out). */
static int add_written(struct plot_ctx *c, const char *name)
{
    char rel[1536], dir[1024]; /* dir: up to 120 + 1 + 511 */
    rel_dir(c, dir, sizeof dir);
    if (dir[0]) {
        snprintf(rel, sizeof rel, "%s/%s", dir, name);
        name = rel;
    }
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
int arena_plot_put(struct plot_ctx *c, const char *name, struct arena_buf *b)
{
    if (b->oom) {
        snprintf(c->err, sizeof c->err, "out of memory writing %s", name);
        return 1;
    }
    char path[4096], dir[3072];
    here(c, dir, sizeof dir);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (arena_plot_write_file(path, b->s ? b->s : "", b->len, c->err, sizeof c->err)) return 1;
    return add_written(c, name);
}

/* The lines naming the figure's configuration and selection at size 1 or
 * 2 (46 and 86 characters: about 0.62 em a character): "configuration: X
 * \xC2\xB7 SELECTION" on one line where it fits, else the two on a line
 * each, the selection as brief when sel is longer than a line, each cut
 * with "..." at a character where still longer (the caption file has them
 * whole). Written into b as a gnuplot string; the lines' count returned. */
static int conf_lines(struct arena_buf *b, const char *conf, const char *sel, const char *brief,
                      int size)
{
    size_t m = size == 2 ? 86 : 46;
    if (arena_utf8_chars(conf) + 3 + arena_utf8_chars(sel) <= m) {
        struct arena_buf t = {0};
        arena_buf_printf(&t, "%s \xC2\xB7 %s", conf, sel);
        arena_plot_gq(b, t.s ? t.s : "", 0);
        if (t.oom) b->oom = 1;
        arena_buf_free(&t);
        return 1;
    }
    arena_plot_gq_cut(b, conf, m, "...");
    arena_buf_add(b, " . \"\\n\" . "); /* gnuplot: the two strings, a line each */
    arena_plot_gq_cut(b, arena_utf8_chars(sel) <= m ? sel : brief, m, "...");
    return 2;
}

/* Whether figure name is of one graph (c->graph): arena, layout, live,
 * replay. */
static int per_graph_figure(const char *name)
{
    return strcmp(name, "arena") == 0 || strcmp(name, "layout") == 0 ||
           strcmp(name, "live") == 0 || strcmp(name, "replay") == 0;
}

/* The selection a figure is of: the graph of a per-graph figure and its
 * runs ("graph mobilenetv2:alpha=0.35,res=96; run 3"; brief: the graph as
 * graphs.tex and its folder name it among the configuration's graphs when
 * each graph has its folder, "graph mobilenetv2:alpha=0.35; run 3"), else
 * arena_plot_selection_text's (brief the same). */
static void figure_selection(const struct plot_ctx *c, const char *name, struct arena_buf *b,
                             struct arena_buf *brief)
{
    if (!per_graph_figure(name) || !c->d.n_graphs) {
        arena_plot_selection_text(c, b);
        arena_buf_add(brief, b->s ? b->s : "");
        return;
    }
    struct arena_buf runs = {0};
    if (c->d.n_runs == 1) arena_buf_printf(&runs, "; run %lld", (long long)c->d.runs[0]);
    else arena_buf_printf(&runs, "; %zu runs", c->d.n_runs);
    arena_buf_add(b, "graph ");
    arena_plot_caret(b, c->d.graphs[c->graph].spec);
    arena_buf_add(b, runs.s ? runs.s : "");
    arena_buf_add(brief, "graph ");
    arena_plot_caret(brief, c->graph_name[0] ? c->graph_name : c->d.graphs[c->graph].spec);
    arena_buf_add(brief, runs.s ? runs.s : "");
    if (runs.oom) b->oom = 1;
    arena_buf_free(&runs);
}

/* The head of NAME.gp: how to redraw it, its caption, the figure's facts
 * as gnuplot variables, then common.gp. */
void arena_plot_gp_head(struct plot_ctx *c, struct arena_buf *b, const char *name, const char *title,
                        const char *sub, const char *caption, double h1, double h2)
{
    arena_buf_printf(
        b,
        "# %s.gp: written by bench plot from the templates common.gp and %s.gp.\n"
        "# Redraw every size and format: cd into this folder, then gnuplot %s.gp\n",
        name, name, name);
    if (caption) { /* quoted: gnuplot continues a comment line that ends in \ */
        arena_buf_add(b, "# caption: ");
        arena_plot_gq(b, caption, 0);
        arena_buf_add(b, "\n");
    }
    arena_buf_printf(b, "NAME = '%s'\nSIZES = '%s'\nFORMATS = '", name,
                          c->o.sizes == 1   ? "1"
                          : c->o.sizes == 2 ? "2"
                                            : "1 2");
    for (const char *p = c->o.formats; *p; p++) arena_buf_addn(b, *p == ',' ? " " : p, 1);
    arena_buf_free(&c->caption);
    arena_buf_printf(&c->caption, "%s: %s", title, sub ? sub : "");
    arena_buf_printf(b, "'\ndpi = %d\nH1 = %.2f; H2 = %.2f\nTITLE = ", c->o.dpi, h1, h2);
    arena_plot_gq(b, title, 0);
    /* The long subtitle goes to the caption (NAME.caption.tex) only; the
     * figure carries its configuration and selection on one or two lines
     * in every format, under the title in the PNG. */
    struct arena_buf conf = {0}, sel = {0}, brief = {0};
    if (strcmp(name, "configs") == 0)
        arena_buf_printf(&conf, "configurations: the %zu of the selection", c->d.n_configs);
    else
        arena_buf_printf(&conf, "configuration: %s", arena_plot_config_label(c));
    figure_selection(c, name, &sel, &brief);
    int lines[2];
    for (int k = 0; k < 2; k++) {
        arena_buf_printf(b, "\nCONF%d = ", k + 1);
        lines[k] = conf_lines(b, conf.s ? conf.s : "", sel.s ? sel.s : "",
                              brief.s ? brief.s : "", k + 1);
    }
    if (conf.oom || sel.oom || brief.oom) b->oom = 1;
    arena_buf_free(&conf);
    arena_buf_free(&sel);
    arena_buf_free(&brief);
    arena_buf_printf(b, "\nTL1 = %d; TL2 = %d\n", 1 + lines[0], 1 + lines[1]);
}

double arena_plot_text_em(const char *text)
{
    /* DejaVu Sans advances of ' ' to '~' in 1/1000 em, as cairo's PDFs
     * state them (/Widths of the font set at 10 pt). */
    static const short adv[95] = {
        318, 400, 459, 837, 636, 950, 779, 274, 390, 390, 500, 837, 317, 360, 317, 336, 636, 636, 636,
        636, 636, 636, 636, 636, 636, 636, 336, 336, 837, 837, 837, 530, 1000, 684, 686, 698, 770, 631,
        575, 774, 751, 294, 294, 655, 557, 862, 748, 787, 603, 787, 694, 634, 610, 731, 684, 988, 685,
        610, 685, 390, 336, 390, 837, 500, 500, 612, 634, 549, 634, 615, 352, 634, 633, 277, 277, 579,
        277, 974, 633, 611, 634, 634, 411, 520, 392, 633, 591, 817, 591, 591, 524, 636, 336, 636, 837};
    struct arena_buf t = {0};
    arena_plot_caret(&t, text);
    double em = 0;
    for (const unsigned char *p = (const unsigned char *)(t.s ? t.s : ""); *p; p++)
        if (*p >= 32 && *p < 127) em += adv[*p - 32] / 1000.0;
        else if ((*p & 0xC0) != 0x80) em += 1.0; /* a character past ASCII: as wide as an em */
    arena_buf_free(&t);
    return em;
}

size_t arena_plot_key_columns(int size, double longest, size_t most)
{
    double em = (size == 1 ? 7 : 8) / 72.0, avail = (size == 1 ? 3.3 : 7.0) - 0.2;
    size_t k = (size_t)floor(avail / ((longest + 3.5) * em));
    return k < 1 ? 1 : k > most ? most : k;
}

double arena_plot_title_inches(int size)
{
    return 3.0 * (size == 1 ? 7 : 8) * 1.2 / 72 + 0.1;
}

void arena_plot_gp_foot(struct arena_buf *b, const char *lead, const char *items, double h[2])
{
    arena_plot_gp_foot_sizes(b, lead, items, items, NULL, h);
}

void arena_plot_gp_foot_sizes(struct arena_buf *b, const char *lead, const char *items1,
                              const char *items2, const char *more1, double h[2])
{
    for (int k = 0; k < 2; k++) {
        const char *items = k ? items2 : items1;
        struct arena_buf all = {0};
        if (items[0]) arena_buf_printf(&all, "%s%s", lead, items);
        if (!k && more1 && more1[0]) arena_buf_printf(&all, "%s%s", all.len ? "; " : "", more1);
        const char *text = all.s ? all.s : "";
        size_t lead_len = items[0] ? strlen(lead) : 0;
        double em = (k ? 8 : 7) / 72.0, room = ((k ? 7.0 : 3.3) - 0.25) / em;
        struct arena_buf lines = {0};
        size_t n = 0;
        for (const char *p = text; *p && n < 4;) {
            /* The longest run that fits and ends in the lead or after an
             * item ("; "), else at any space; a word wider than the page is
             * cut where it must be. */
            size_t strong = 0, any = 0, end = strlen(p);
            for (size_t i = 1; i <= end; i++) {
                if (p[i] != ' ' && p[i] != '\0') continue;
                char *head = strndup(p, i);
                double w = head ? arena_plot_text_em(head) : 0;
                free(head);
                if (w > room) break;
                any = i;
                if (p[i] == '\0' || (size_t)(p - text) + i < lead_len || p[i - 1] == ';') strong = i;
            }
            size_t take = strong ? strong : any ? any : arena_utf8_prefix(p, (size_t)room);
            int last = n == 3 && p[take];
            struct arena_buf t = {0};
            arena_buf_addn(&t, p, take);
            if (last) arena_buf_add(&t, "...");
            arena_buf_printf(&lines, "FOOT%d[%zu] = ", k + 1, ++n);
            arena_plot_gq(&lines, t.s ? t.s : "", 0);
            arena_buf_add(&lines, "\n");
            arena_buf_free(&t);
            p += take;
            while (*p == ' ') p++;
        }
        arena_buf_printf(b, "FN%d = %zu; array FOOT%d[%zu]\n", k + 1, n, k + 1, n ? n : 1);
        arena_buf_add(b, lines.s ? lines.s : "");
        if (lines.oom || all.oom) b->oom = 1;
        arena_buf_free(&lines);
        h[k] = n ? (double)n * (k ? 8 : 7) * 1.25 / 72 + 0.1 : 0;
        arena_buf_free(&all);
    }
}

void arena_plot_gp_common(struct plot_ctx *c, struct arena_buf *b)
{
    static const char *const none[1] = {""};
    arena_buf_add(b, "\n");
    if (arena_plot_template_fill(c->tpl, "common", none, none, 0, b, c->err, sizeof c->err))
        b->oom = 1;
    arena_buf_add(b, "\n");
}

/* Style arrays name[], name1[] (cut to max1 characters), col[], dt[], pt[]
 * for the shown planners at idx[0..n), labels lab (NULL: the names). */
void arena_plot_gp_styles(struct arena_buf *b, const struct plot_shown *sel, const size_t *idx,
                          char *const *lab, size_t n, size_t max1)
{
    arena_buf_printf(
        b,
        "N = %zu\narray name[%zu]; array name1[%zu]; array col[%zu]; array dt[%zu]; "
        "array pt[%zu]\n",
        n, n ? n : 1, n ? n : 1, n ? n : 1, n ? n : 1, n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        const struct plot_shown *s = &sel[idx[i]];
        const char *l = lab ? lab[i] : s->label;
        arena_buf_printf(b, "name[%zu] = ", i + 1);
        arena_plot_gq(b, l, 0);
        arena_buf_printf(b, "; name1[%zu] = ", i + 1);
        arena_plot_gq_cut(b, l, max1, "..");
        arena_buf_printf(b, "; col[%zu] = %u; dt[%zu] = %d; pt[%zu] = %d\n", i + 1, s->color,
                              i + 1, s->dt, i + 1, s->pt);
    }
}

/* Writes NAME.gp from head + template and runs gnuplot on it. */
int arena_plot_draw(struct plot_ctx *c, const char *name, struct arena_buf *gp,
                    const char *const *keys, const char *const *vals, size_t nkeys)
{
    return arena_plot_draw_from(c, name, name, gp, keys, vals, nkeys);
}

void arena_plot_selection_text(const struct plot_ctx *c, struct arena_buf *b)
{
    const struct arena_select *sel = &c->o.f.sel;
    static const char *const one[] = {"suite", "family", "graph", "tag"},
                             *const many[] = {"suites", "families", "graphs", "tags"};
    const size_t n[] = {sel->n_suites, sel->n_families, sel->n_graphs, sel->n_tags};
    size_t said = 0;
    for (size_t k = 0; k < 4; k++) {
        if (!n[k]) continue;
        arena_buf_printf(b, "%s%s ", said++ ? "; " : "", n[k] > 1 ? many[k] : one[k]);
        for (size_t i = 0; i < n[k]; i++) {
            const char *item = k == 0   ? sel->suites[i].name
                               : k == 1 ? sel->families[i]
                               : k == 2 ? sel->graphs[i]
                                        : sel->tags[i];
            if (i) arena_buf_add(b, ", ");
            arena_plot_caret(b, item ? item : "");
        }
    }
    if (!said) arena_buf_add(b, "every graph");
    if (c->d.n_runs == 1) arena_buf_printf(b, "; run %lld", (long long)c->d.runs[0]);
    else arena_buf_printf(b, "; %zu runs", c->d.n_runs);
}

/* NAME.caption.tex: \caption{...} of the figure drawn last. */
static int write_caption(struct plot_ctx *c, const char *name)
{
    struct arena_buf sel = {0}, text = {0}, b = {0};
    arena_plot_selection_text(c, &sel);
    const char *cap = c->caption.s ? c->caption.s : name, *cfg = arena_plot_config_label(c);
    arena_buf_add(&text, cap);
    if (!strstr(cap, cfg)) { /* every caption names its configuration */
        arena_buf_add(&text, " \xC2\xB7 ");
        arena_buf_add(&text, cfg);
    }
    arena_buf_printf(&text, " (selection: %s).", sel.s ? sel.s : "");
    arena_buf_printf(&b,
                          "%% The caption of %s-1col and -2col (.pdf, .svg, .png), written by bench"
                          " plot:\n%% \\begin{figure} \\includegraphics{%s-1col.pdf}"
                          " \\input{%s.caption.tex} \\end{figure}\n\\caption{",
                          name, name, name);
    /* a spec is one long word: LaTeX may break it after a comma */
    struct arena_buf t = {0};
    arena_plot_tex(&t, text.s ? text.s : "");
    for (const char *p = t.s ? t.s : ""; *p; p++) {
        arena_buf_addn(&b, p, 1);
        if (*p == ',') arena_buf_add(&b, "\\allowbreak{}");
    }
    arena_buf_free(&t);
    arena_buf_add(&b, "}\n");
    char file[96];
    snprintf(file, sizeof file, "%s.caption.tex", name);
    int rc = sel.oom || text.oom ? (snprintf(c->err, sizeof c->err, "out of memory"), 1)
                                 : arena_plot_put(c, file, &b);
    arena_buf_free(&sel);
    arena_buf_free(&text);
    arena_buf_free(&b);
    return rc;
}

int arena_plot_draw_from(struct plot_ctx *c, const char *name, const char *tpl, struct arena_buf *gp,
                         const char *const *keys, const char *const *vals, size_t nkeys)
{
    arena_buf_printf(gp, "\n# ---- %s.gp\n", tpl);
    if (arena_plot_template_fill(c->tpl, tpl, keys, vals, nkeys, gp, c->err, sizeof c->err))
        return 1;
    char file[64], log[64];
    snprintf(file, sizeof file, "%s.gp", name);
    snprintf(log, sizeof log, ".%s.log", name);
    if (arena_plot_put(c, file, gp)) return 1;
    char path[4096], dir[3072];
    here(c, dir, sizeof dir);
    int rc = arena_plot_run_gnuplot(dir, file, log, c->err, sizeof c->err);
    snprintf(path, sizeof path, "%s/%s", dir, log);
    if (rc == 0) remove(path);
    if (rc) return 1;
    static const char *const fmts[] = {"png", "pdf", "svg"};
    for (int s = 1; s <= 2; s++) {
        if (!(c->o.sizes & s)) continue;
        for (size_t f = 0; f < 3; f++) {
            if (!arena_plot_in_list(c->o.formats, fmts[f])) continue;
            char out[128];
            snprintf(out, sizeof out, "%s-%dcol.%s", name, s, fmts[f]);
            snprintf(path, sizeof path, "%s/%s", dir, out);
            struct stat st;
            if (stat(path, &st) != 0 || st.st_size == 0) {
                snprintf(c->err, sizeof c->err, "gnuplot wrote no %s", out);
                return 1;
            }
            if (add_written(c, out)) return 1;
        }
    }
    return write_caption(c, name);
}

void arena_plot_csv_num(struct arena_buf *b, int has, double v)
{
    if (has) arena_buf_printf(b, ",%.17g", v);
    else arena_buf_add(b, ",");
}

/* arena_plot_gq of text cut to max characters, the cut ending in mark. */
void arena_plot_gq_cut(struct arena_buf *b, const char *text, size_t max, const char *mark)
{
    struct arena_buf t = {0};
    arena_plot_caret(&t, text);
    size_t m = strlen(mark);
    if (t.s && arena_utf8_chars(t.s) > max && max > m) {
        t.len = arena_utf8_prefix(t.s, max - m);
        t.s[t.len] = '\0';
        arena_buf_add(&t, mark);
    }
    arena_plot_gq(b, t.s ? t.s : "", 0);
    arena_buf_free(&t);
}

int arena_plot_in_list(const char *list, const char *word)
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

char *arena_plot_label_of(const char *name, const struct arena_fig_result *r)
{
    struct arena_buf b = {0};
    arena_buf_add(&b, name);
    if (arena_plot_is_limit(r)) arena_buf_add(&b, " (limit)");
    return b.s;
}

/* Where label t breaks when wider than wrap_em: before its last " (" (a
 * planner's origin, "NAME (plugin 1a2b3c4d)", or its limit note); NULL
 * when it stays one line. */
static const char *label_break(const char *t, double wrap_em)
{
    if (wrap_em <= 0 || arena_plot_text_em(t) <= wrap_em) return NULL;
    const char *at = NULL;
    for (const char *p = strstr(t, " ("); p; p = strstr(p + 1, " (")) at = p;
    return at && at > t ? at : NULL;
}

double arena_plot_label_em(const char *t, double wrap_em)
{
    const char *at = label_break(t, wrap_em);
    if (!at) return arena_plot_text_em(t);
    char *head = strndup(t, (size_t)(at - t));
    double w = fmax(head ? arena_plot_text_em(head) : arena_plot_text_em(t), arena_plot_text_em(at + 1));
    free(head);
    return w;
}

void arena_plot_ytics_names(struct arena_buf *b, char *const *lab, size_t n, double wrap_em)
{
    arena_buf_add(b, "(");
    for (size_t i = 0; i < n; i++) {
        if (i) arena_buf_add(b, ", ");
        const char *at = label_break(lab[i], wrap_em);
        char *head = at ? strndup(lab[i], (size_t)(at - lab[i])) : NULL;
        if (head) {
            arena_plot_gq(b, head, 1);
            arena_buf_add(b, ".\"\\n\".");
            arena_plot_gq(b, at + 1, 1);
            free(head);
        } else {
            arena_plot_gq(b, lab[i], 1);
        }
        arena_buf_printf(b, " %zu", i + 1);
    }
    arena_buf_add(b, ")");
}

int arena_plot_figure(struct plot_ctx *c, const struct plot_figure *steps, void *fig)
{
    int rc = steps->begin(c, fig);
    if (!rc && steps->series) rc = steps->series(c, fig);
    if (!rc && steps->end) rc = steps->end(c, fig);
    steps->free(fig);
    return rc == PLOT_SKIP ? 0 : rc;
}
