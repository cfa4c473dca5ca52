/* plot_internal.h — what the files of `bench plot` share: the command's
 * state and the helpers every figure uses. plot.c holds the command line,
 * the choice of planners and graph, and the driver, which calls the
 * figures; each figure kind lives in its own file: plot_graph.c (the
 * per-graph figures arena, layout, live), plot_replay.c, plot_tables.c
 * (comparison.tex and .md), plot_across.c (the figures across graphs:
 * scaling, quality, stats). What the figures call back (notes, the
 * selection's answers, numbers, files and scripts) is in plot_figure.c, and
 * plot_gp.c (plot.h) holds the text buffers, escaping, templates and
 * gnuplot: calls go driver -> figures -> plot_figure.c -> plot_gp.c, never
 * back. Not for use outside bench/plot/. */
#ifndef ARENA_BENCH_PLOT_INTERNAL_H
#define ARENA_BENCH_PLOT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "bench/base/utf8.h"
#include "bench/core/filters.h"
#include "bench/plot/plot.h"
#include "results/figdata.h"
#include "results/planner_label.h"

#define PLOT_PROG "bench: plot"
#define PLOT_NFIGS 11 /* arena, layout, live, scaling, quality, tables, replay, stats, fixed,
                       configs, mcu */

struct plot_opts {
    const char *graph, *planners, *out, *formats; /* graph: the first --graph */
    struct arena_bench_filters f; /* --db, --graph, --family, --suite, --tag, the
                                     configuration fields, --group-by */
    int64_t run; /* -1 newest, 0 all */
    int size_index; /* --size: one, two, both */
    int sizes;   /* bit 1: one column, bit 2: two */
    int want[PLOT_NFIGS];
    int dpi, color_by_kind, quiet;
    int per_graph; /* --per-graph: 0 auto, 1 first, 2 each */
    double range_lo, range_hi; /* --range LO:HI; range_hi 0: chosen from the data */
    struct arena_label_rename labels[64]; /* --label SPEC=TEXT (results/planner_label.h) */
    size_t n_labels;
};

/* A planner shown, in the order shown. */
struct plot_shown {
    const char *name;
    char *label; /* what figures and tables call it: its label among the planners
                    shown (the keys of its spec that differ, results/planner_label.h),
                    renamed by --label; malloc'd */
    const char *kind;
    unsigned color;
    int dt, pt;
};

struct plot_ctx {
    struct plot_opts o;
    struct arena_figdb *db;
    struct arena_fig_data d;
    struct plot_shown *sel;
    size_t n_sel;
    size_t extra_places; /* styles given after the registry's (plot.c: place_of) */
    const struct arena_fig_result **by; /* n_graphs x n_sel, see arena_plot_find() */
    int planners_given;
    size_t cfg;   /* the configuration of the figures (one each) */
    size_t graph; /* index of the per-graph figures' graph: its graph in cfg */
    int64_t ref;  /* best proven figure of that graph, 0 none */
    int ref_opt;
    char *tmp;    /* temporary folder inside out */
    char sub[512]; /* "" or the folder below tmp (and --out) the per-graph
                      figures of one graph go to: graphs/NAME (inside the
                      configuration's folder, arena_plot_config_dir) */
    char graph_name[256]; /* "" or, with sub, the graph as graphs.tex and the
                             folder name it: the per-graph figures' brief name */
    int all_configs; /* the figure drawn is of every configuration (configs):
                        its files go to the top of --out */
    const char *tpl;
    struct arena_buf notes;
    struct arena_buf caption; /* the figure being drawn: "Title: subtitle" (arena_plot_gp_head) */
    char **written;
    size_t n_written;
    char err[1200];
};

/* The quality and stats figures' axis ends, unless --range says, at this
 * many times the best planner's median (mean), when anything lies beyond:
 * the band where planners worth telling apart sit keeps most of the axis
 * (on the exact suite 1 to 1.5 is two thirds of it); what lies beyond is
 * an arrow with its value. */
#define ARENA_PLOT_BAND 1.75

/* ---- plot_figure.c: notes and selection */

/* The figures' names, in --figures order (PLOT_NFIGS). */
extern const char *const arena_plot_figure_names[];
/* Whether the comma list holds word. */
int arena_plot_in_list(const char *list, const char *word);

/* A note ("bench: plot: " and a line) kept in c->notes, printed on stderr
 * when the command succeeds, unless --quiet. */
void arena_plot_note(struct plot_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Whether --figures asks for figure fig. */
int arena_plot_want(const struct plot_ctx *c, const char *fig);
/* The result that counts of a shown planner on a graph, or NULL. */
const struct arena_fig_result *arena_plot_find(const struct plot_ctx *c, size_t graph,
                                               const char *planner);
/* A valid result whose search stopped at its budget (status limit). */
int arena_plot_is_limit(const struct arena_fig_result *r);
/* Whether graph entry g is in the figures' configuration c->cfg. */
int arena_plot_in_config(const struct plot_ctx *c, size_t g);
/* The figures' configuration's label ("plain", "in-place depthwise · best
 * order"). */
const char *arena_plot_config_label(const struct plot_ctx *c);
/* The folder below --out of the current figure's configuration, named by
 * it, so that two configurations plotted into one folder never share a
 * file: "" for plain (the top of --out), else its label with " · " as "+",
 * "×" as "x" and every other byte but letters, digits and . = + - as "-"
 * ("in-place-depthwise+best-order"); "" while all_configs is set. */
void arena_plot_config_dir(const struct plot_ctx *c, char *out, size_t n);

/* ---- plot_figure.c: numbers */

/* The unit for a byte axis up to max (B, KiB, MiB) and its size. */
void arena_plot_byte_unit(double max, double *u, const char **name);
/* The unit for a time axis up to max nanoseconds and its size. */
void arena_plot_time_unit(double max, double *u, const char **name);
/* A tick step giving at most n ticks over [0, max]: 1, 2 or 5 times 10^k. */
double arena_plot_nice_step(double max, int n);
/* b bytes as text with its unit. */
void arena_plot_fmt_bytes(char *out, size_t n, double b);
/* ns nanoseconds as text in the unit that fits it: "114 ns", "4.4 µs". */
void arena_plot_fmt_time(char *out, size_t n, double ns);
/* qsort order of doubles, ascending. */
int arena_plot_by_double(const void *a, const void *b);
/* Linear-interpolated quantile of sorted v[0..n). */
double arena_plot_quantile(const double *v, size_t n, double p);

/* ---- plot_figure.c: files and scripts */

/* Writes b as tmp/name; 0 or 1 (err set). */
int arena_plot_put(struct plot_ctx *c, const char *name, struct arena_buf *b);
/* The head of NAME.gp: how to redraw it, its caption, the figure's facts
 * as gnuplot variables, then common.gp. */
void arena_plot_gp_head(struct plot_ctx *c, struct arena_buf *b, const char *name, const char *title,
                        const char *sub, const char *caption, double h1, double h2);
void arena_plot_gp_common(struct plot_ctx *c, struct arena_buf *b);
/* Inches the PNG title takes at the top at size 1 or 2 at most (common.gp's
 * TOP(s): its title, then its configuration and selection on one line or
 * two): a PNG's plots have up to that much less height; a PDF's or SVG's
 * (the configuration and selection alone) one line less. */
double arena_plot_title_inches(int size);
/* A figure's foot: lead then items ("; "-separated), set at the bottom left
 * of the page in every format (PDF and SVG carry no title, so what a reader
 * must see goes here), wrapped to the page's width at each size, an item
 * kept on one line when it fits, at most 4 lines, the last cut with "...";
 * nothing when items is "". Writes FN1, FN2 (its lines) and the string
 * arrays FOOT1, FOOT2 into b, which the templates draw (common.gp's FOOTH,
 * FOOTY); h[0], h[1] receive the inches it takes at one and two columns
 * (0: no text). */
void arena_plot_gp_foot(struct arena_buf *b, const char *lead, const char *items, double h[2]);
/* The same with items of each size (items1 at one column, items2 at two)
 * and, at one column, more1 after them ("; " apart; NULL or "": none). */
void arena_plot_gp_foot_sizes(struct arena_buf *b, const char *lead, const char *items1,
                              const char *items2, const char *more1, double h[2]);
/* The width of text from the database as figures show it (arena_plot_caret),
 * in ems of DejaVu Sans: its own advances for ASCII, 1 em for any other
 * character. */
double arena_plot_text_em(const char *text);
/* Columns of a legend strip across the page at size 1 or 2 whose widest
 * title is longest ems wide (3.5 em more for the sample and the gaps): at
 * least 1, at most most. */
size_t arena_plot_key_columns(int size, double longest, size_t most);
/* Style arrays name[], name1[] (cut to max1 characters), col[], dt[], pt[]
 * for the shown planners at idx[0..n), labels lab (NULL: the names). */
void arena_plot_gp_styles(struct arena_buf *b, const struct plot_shown *sel, const size_t *idx,
                          char *const *lab, size_t n, size_t max1);
/* The selection the figures are of, as text: "suite models", "family
 * nasnet; tag exact", "graphs A; B", or "every graph", then the runs
 * ("run 3", "4 runs"). */
void arena_plot_selection_text(const struct plot_ctx *c, struct arena_buf *b);
/* Writes NAME.gp from head + template NAME.gp (TPL.gp) and runs gnuplot on
 * it; then NAME.caption.tex beside the figures: \caption{...} naming the
 * figure, its graphs and configuration (the subtitle of the PNG) and the
 * selection, for a paper to \input inside its figure environment (PDF and
 * SVG carry no title). */
int arena_plot_draw_from(struct plot_ctx *c, const char *name, const char *tpl, struct arena_buf *gp,
                         const char *const *keys, const char *const *vals, size_t nkeys);
int arena_plot_draw(struct plot_ctx *c, const char *name, struct arena_buf *gp,
                    const char *const *keys, const char *const *vals, size_t nkeys);
/* ",v" with v in full precision, or "," when !has. */
void arena_plot_csv_num(struct arena_buf *b, int has, double v);
/* arena_plot_gq of text cut to max characters (UTF-8 ones: a cut never splits
 * one), the cut ending in mark ("..." or ".."). */
void arena_plot_gq_cut(struct arena_buf *b, const char *text, size_t max, const char *mark);
/* A planner's label in the per-graph figures: its name, "(limit)" added. */
char *arena_plot_label_of(const char *name, const struct arena_fig_result *r);
/* gnuplot ytics naming places 1..n with lab. */
void arena_plot_ytics_names(struct arena_buf *b, char *const *lab, size_t n, double wrap_em);
/* The widest line of label t in em once arena_plot_ytics_names has broken it
 * at wrap_em (0: never broken). */
double arena_plot_label_em(const char *t, double wrap_em);

/* ---- the figures: 0, or 1 / 2 with err set (a figure the selection
 * cannot give is skipped with a note, not an error). */

/* A figure in four steps, each a function over the figure's own state
 * (fig, zeroed by the caller): begin chooses and computes what it shows
 * (PLOT_SKIP: nothing to draw, its note given), series writes its data
 * files, end writes its script and draws it, free frees what the state
 * holds, whatever step stopped. arena_plot_figure runs them in that order,
 * stopping at the first that does not return 0: a figure's exit status
 * (PLOT_SKIP counts as 0). series and end may be NULL. */
#define PLOT_SKIP (-1)
struct plot_figure {
    int (*begin)(struct plot_ctx *c, void *fig);
    int (*series)(struct plot_ctx *c, void *fig);
    int (*end)(struct plot_ctx *c, void *fig);
    void (*free)(void *fig);
};
int arena_plot_figure(struct plot_ctx *c, const struct plot_figure *steps, void *fig);

/* plot_graph.c: arena, layout, live, and through them replay and tables,
 * for the graph c->graph. */
int arena_plot_per_graph(struct plot_ctx *c);
/* plot_replay.c; the shown planners at idx[0..n) with results res. */
int arena_plot_fig_replay(struct plot_ctx *c, const size_t *idx,
                          const struct arena_fig_result **res, size_t n);
/* plot_tables.c: comparison.tex and comparison.md. */
int arena_plot_tables(struct plot_ctx *c, const size_t *idx, const struct arena_fig_result **res,
                      size_t n);
/* plot_suite.c: graphs.tex, graphs.md and graphs.csv, every graph of the
 * figures' configuration x every planner shown. */
int arena_plot_suite_table(struct plot_ctx *c);
/* The name of graph entry e among the graph entries rows[0..n) as tables and
 * folders show it: a file without the folder all of them share, a family's
 * graph without the parameters every graph of its family among them
 * shares (its family's name when it is alone). */
void arena_plot_graph_name(const struct plot_ctx *c, const size_t *rows, size_t n, size_t e,
                           struct arena_buf *b);
/* plot_across.c */
int arena_plot_fig_scaling(struct plot_ctx *c);
int arena_plot_fig_quality(struct plot_ctx *c);
/* The quality figure of arena / fixed-order bound (the graph untransformed)
 * for the figures' configuration when it transforms the graph, else for the
 * first that does: how far below the fixed-order bound each planner gets. */
int arena_plot_fig_fixed(struct plot_ctx *c);
int arena_plot_fig_stats(struct plot_ctx *c);
/* plot_configs.c: configs-W.* and configs.tex/.md/.csv, every configuration
 * of the selection side by side per planner, against the plain fixed-order
 * bound. */
int arena_plot_fig_configs(struct plot_ctx *c);
/* plot_mcu.c: mcu-W.* and mcu.csv, TFLM's whole arena per network and
 * planner (the plan's arena, the scratch TFLM adds, its head) against the
 * SRAM of common parts. */
int arena_plot_fig_mcu(struct plot_ctx *c);

#endif
