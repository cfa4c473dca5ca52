/* plot_mcu.c — `bench plot`'s microcontroller figure (mcu-W.*, mcu.csv): per
 * network and planner one horizontal bar, the whole arena TensorFlow Lite
 * Micro needs for that plan (graphs/tflm_head.h) stacked from three parts:
 * the plan's arena (the tensors; under the lifetime and tail policies the
 * scratch inside it), the scratch TFLM places beyond it (device arena -
 * arena: the online policy's cost), and TFLM's head (its persistent
 * records, with what planning needs beyond them when that is larger); the
 * SRAM of common parts (128, 256, 320, 512 KiB, 1 MiB) are vertical lines,
 * so a reader sees which planner makes which network fit which part. It
 * reads the figures' configuration when its results carry a whole arena (a
 * --scratch rule), else the first configuration whose results do. */
#include "bench/plot/plot_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/tflm_head.h"

/* Whether graph entry e has a result carrying a whole arena. */
static int has_whole(const struct plot_ctx *c, size_t e)
{
    for (size_t i = 0; i < c->d.n_results; i++)
        if (c->d.results[i].graph == e && c->d.results[i].ok && c->d.results[i].whole > 0) return 1;
    return 0;
}

/* The configuration to draw: c->cfg when it has whole arenas, else the
 * first that has; n_configs when none has. */
static size_t pick_config(const struct plot_ctx *c)
{
    for (size_t pass = 0; pass < 2; pass++)
        for (size_t e = 0; e < c->d.n_graphs; e++)
            if ((pass || c->d.graphs[e].config == c->cfg) && has_whole(c, e))
                return c->d.graphs[e].config;
    return c->d.n_configs;
}

/* The result of shown planner p on graph entry e when it carries a whole
 * arena (naive only when --planner names it, as in the quality figure). */
static const struct arena_fig_result *shown(const struct plot_ctx *c, size_t e, size_t p)
{
    if (!c->planners_given && strcmp(c->sel[p].name, "naive") == 0) return NULL;
    const struct arena_fig_result *r = arena_plot_find(c, e, c->sel[p].name);
    return r && r->ok && r->whole > 0 ? r : NULL;
}

/* The three parts of a result's whole arena, bytes: they add up to it. */
static void parts(const struct arena_fig_result *r, double *mid, double *scr, double *head)
{
    double arena = (double)r->arena, dev = r->device > 0 ? (double)r->device : arena;
    *mid = fmin(arena, dev);
    *scr = dev - *mid;
    *head = (double)r->whole - dev;
}

/* The figure's state (struct plot_figure's four steps). */
struct mcu {
    size_t saved_cfg; /* c->cfg before, given back by arena_plot_fig_mcu */
    int switched;
    size_t *rows, n;  /* the graph entries drawn */
    struct arena_buf about, data, csv, yt, lab, gp;
    double y, xmax;
    size_t merged;
};

/* begin: the configuration (c->cfg while the figure draws: its folder and
 * label), its networks, the caption. */
static int mcu_begin(struct plot_ctx *c, void *fig)
{
    struct mcu *f = fig;
    size_t k = pick_config(c);
    if (k == c->d.n_configs) {
        arena_plot_note(c, "mcu figure skipped: no result carries a whole arena (bench --scratch"
                           " cmsis-nn, say, computes TFLM's)");
        return PLOT_SKIP;
    }
    f->saved_cfg = c->cfg;
    f->switched = 1;
    c->cfg = k;
    if (!(f->rows = malloc((c->d.n_graphs + 1) * sizeof *f->rows))) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    for (size_t e = 0; e < c->d.n_graphs; e++)
        if (c->d.graphs[e].config == k && has_whole(c, e)) f->rows[f->n++] = e;
    arena_buf_printf(&f->about,
                     "TFLM's whole arena on a 32-bit Cortex-M per network and planner: the plan's"
                     " arena, the scratch TFLM places beyond it, TFLM's head; lines: the SRAM of"
                     " common parts (%zu network%s)",
                     f->n, f->n == 1 ? "" : "s");
    return f->about.oom ? (snprintf(c->err, sizeof c->err, "out of memory"), 1) : 0;
}

/* One planner's row of mcu.csv. */
static void csv_row(struct plot_ctx *c, struct mcu *f, size_t e, size_t p,
                    const struct arena_fig_result *r)
{
    double mid, scr, head;
    parts(r, &mid, &scr, &head);
    const char *fits = "";
    for (int s = ARENA_SRAM_SIZES - 1; s >= 0; s--)
        if ((uint64_t)r->whole <= arena_sram_sizes[s]) fits = arena_sram_names[s];
    arena_plot_csv(&f->csv, c->d.graphs[e].spec);
    arena_buf_add(&f->csv, ",");
    arena_plot_csv(&f->csv, c->sel[p].name);
    arena_buf_printf(&f->csv, ",%lld,", (long long)r->arena);
    if (r->device > 0) arena_buf_printf(&f->csv, "%lld", (long long)r->device);
    arena_buf_printf(&f->csv, ",%lld,%lld,%.0f,%.0f,%.0f,%s\n", (long long)r->head,
                     (long long)r->whole, mid, scr, head, fits);
}

/* One bar per distinct stack: a planner whose parts an earlier planner
 * gave already has its bar; else its bar, named with how many later
 * planners share it. 1 when drawn. */
static int bar(struct plot_ctx *c, struct mcu *f, size_t e, size_t p,
               const struct arena_fig_result *r)
{
    size_t same = 0;
    for (size_t q = 0; q < c->n_sel; q++) {
        const struct arena_fig_result *o = shown(c, e, q);
        if (!o || o->arena != r->arena || o->device != r->device || o->whole != r->whole) continue;
        if (q < p) return 0;
        same += q > p;
    }
    double mid, scr, head;
    parts(r, &mid, &scr, &head);
    arena_buf_printf(&f->data, "%.2f,%.17g,%.17g,%.17g,%.17g\n", f->y, mid / 1024, scr / 1024,
                     head / 1024, (double)r->whole / 1024);
    if (f->yt.len > 1) arena_buf_add(&f->yt, ", ");
    struct arena_buf l = {0};
    arena_buf_add(&l, c->sel[p].label);
    if (same) arena_buf_printf(&l, " +%zu", same);
    arena_plot_gq(&f->yt, l.s ? l.s : "", 1);
    if (l.oom) f->yt.oom = 1;
    arena_buf_free(&l);
    arena_buf_printf(&f->yt, " %.2f", f->y);
    f->xmax = fmax(f->xmax, (double)r->whole / 1024);
    f->merged += same;
    f->y += 1;
    return 1;
}

/* series: mcu.csv (every planner) and mcu-bars.csv (the bars, KiB), a
 * group per network with its name above it. */
static int mcu_series(struct plot_ctx *c, void *fig)
{
    struct mcu *f = fig;
    arena_buf_add(&f->data, "y,mid,scratch,head,whole\n");
    arena_buf_add(&f->csv, "graph,planner,arena_bytes,device_arena,head_bytes,whole_arena,"
                           "mid_bytes,scratch_bytes,head_part_bytes,smallest_sram\n");
    arena_buf_add(&f->yt, "(");
    f->y = 1;
    size_t groups = 0;
    for (size_t k = 0; k < f->n; k++) {
        double header = f->y;
        size_t m = 0;
        f->y += 0.9;
        for (size_t p = 0; p < c->n_sel; p++) {
            const struct arena_fig_result *r = shown(c, f->rows[k], p);
            if (!r) continue;
            csv_row(c, f, f->rows[k], p, r);
            m += (size_t)bar(c, f, f->rows[k], p, r);
        }
        if (!m) {
            f->y = header;
            continue;
        }
        struct arena_buf name = {0};
        arena_plot_graph_name(c, f->rows, f->n, f->rows[k], &name);
        arena_buf_printf(&f->lab, "set label %zu ", ++groups);
        arena_plot_gq(&f->lab, name.s ? name.s : "", 0);
        arena_buf_printf(&f->lab, " at first 0, first %.2f left offset 0.3, 0 front\n", header);
        if (name.oom) f->lab.oom = 1;
        arena_buf_free(&name);
        f->y += 0.5;
    }
    arena_buf_add(&f->yt, ")");
    if (f->data.oom || f->csv.oom || f->yt.oom || f->lab.oom) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    int rc = arena_plot_put(c, "mcu-bars.csv", &f->data);
    return rc ? rc : arena_plot_put(c, "mcu.csv", &f->csv);
}

/* end: the script, its axis to the smallest part that holds every bar (so
 * each bar's part is on the page), and the drawing. */
static int mcu_end(struct plot_ctx *c, void *fig)
{
    struct mcu *f = fig;
    double xend = f->xmax * 1.05;
    for (int s = 0; s < ARENA_SRAM_SIZES; s++)
        if ((double)arena_sram_sizes[s] / 1024 >= f->xmax) {
            xend = (double)arena_sram_sizes[s] / 1024 * 1.04;
            break;
        }
    double y = f->y;
    arena_plot_gp_head(c, &f->gp, "mcu", "The whole arena on a microcontroller", f->about.s,
                       f->about.s, fmin(9.0, fmax(2.0, 1.3 + 0.12 * y)),
                       fmax(2.6, 1.3 + 0.17 * y));
    arena_plot_gp_common(c, &f->gp);
    arena_buf_printf(&f->gp, "YMAX = %.2f; XMAX = %.17g; NSRAM = %d\n", y - 0.5, xend,
                     ARENA_SRAM_SIZES);
    arena_buf_add(&f->gp, "array SRAM[NSRAM]; array SRAMN[NSRAM]\n");
    for (int s = 0; s < ARENA_SRAM_SIZES; s++)
        arena_buf_printf(&f->gp, "SRAM[%d] = %llu; SRAMN[%d] = '%s'\n", s + 1,
                         (unsigned long long)(arena_sram_sizes[s] / 1024), s + 1,
                         arena_sram_names[s]);
    arena_buf_printf(&f->gp, "XSTEP1 = %.17g; XSTEP2 = %.17g\n", arena_plot_nice_step(xend, 4),
                     arena_plot_nice_step(xend, 8));
    if (f->gp.oom) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    const char *keys[] = {"YTICS", "GROUPS"};
    const char *vals[] = {f->yt.s ? f->yt.s : "()", f->lab.s ? f->lab.s : ""};
    int rc = arena_plot_draw(c, "mcu", &f->gp, keys, vals, 2);
    if (!rc && f->merged)
        arena_plot_note(c, "mcu figure: planners with the same arena share a bar (\"+N\": N more);"
                           " mcu.csv has every planner's row");
    return rc;
}

static void mcu_free(void *fig)
{
    struct mcu *f = fig;
    free(f->rows);
    arena_buf_free(&f->about);
    arena_buf_free(&f->data);
    arena_buf_free(&f->csv);
    arena_buf_free(&f->yt);
    arena_buf_free(&f->lab);
    arena_buf_free(&f->gp);
}

static const struct plot_figure mcu_steps = {
    .begin = mcu_begin, .series = mcu_series, .end = mcu_end, .free = mcu_free};

int arena_plot_fig_mcu(struct plot_ctx *c)
{
    struct mcu f;
    memset(&f, 0, sizeof f);
    int rc = arena_plot_figure(c, &mcu_steps, &f);
    if (f.switched) c->cfg = f.saved_cfg;
    return rc;
}
