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

static int draw(struct plot_ctx *c, const size_t *rows, size_t n, const char *about)
{
    struct arena_buf data = {0}, csv = {0}, yt = {0}, lab = {0}, gp = {0};
    arena_buf_add(&data, "y,mid,scratch,head,whole\n");
    arena_buf_add(&csv, "graph,planner,arena_bytes,device_arena,head_bytes,whole_arena,mid_bytes,"
                        "scratch_bytes,head_part_bytes,smallest_sram\n");
    arena_buf_add(&yt, "(");
    double y = 1, xmax = 0;
    size_t bars = 0, groups = 0, merged = 0;
    for (size_t k = 0; k < n; k++) {
        struct arena_buf name = {0};
        arena_plot_graph_name(c, rows, n, rows[k], &name);
        double header = y;
        size_t m = 0;
        y += 0.9;
        for (size_t p = 0; p < c->n_sel; p++) {
            const struct arena_fig_result *r = shown(c, rows[k], p);
            if (!r) continue;
            double mid, scr, head;
            parts(r, &mid, &scr, &head);
            const char *fits = "";
            for (int s = ARENA_SRAM_SIZES - 1; s >= 0; s--)
                if ((uint64_t)r->whole <= arena_sram_sizes[s]) fits = arena_sram_names[s];
            arena_plot_csv(&csv, c->d.graphs[rows[k]].spec);
            arena_buf_add(&csv, ",");
            arena_plot_csv(&csv, c->sel[p].name);
            arena_buf_printf(&csv, ",%lld,", (long long)r->arena);
            if (r->device > 0) arena_buf_printf(&csv, "%lld", (long long)r->device);
            arena_buf_printf(&csv, ",%lld,%lld,%.0f,%.0f,%.0f,%s\n", (long long)r->head,
                             (long long)r->whole, mid, scr, head, fits);
            /* one bar per distinct stack: planners that give the same parts
             * share the first one's bar, named with how many more */
            size_t same = 0;
            int earlier = 0;
            for (size_t q = 0; q < c->n_sel; q++) {
                const struct arena_fig_result *o = shown(c, rows[k], q);
                if (!o || o->arena != r->arena || o->device != r->device || o->whole != r->whole)
                    continue;
                if (q < p) earlier = 1;
                else if (q > p) same++;
            }
            if (earlier) continue;
            arena_buf_printf(&data, "%.2f,%.17g,%.17g,%.17g,%.17g\n", y, mid / 1024, scr / 1024,
                             head / 1024, (double)r->whole / 1024);
            if (yt.len > 1) arena_buf_add(&yt, ", ");
            struct arena_buf l = {0};
            arena_buf_add(&l, c->sel[p].label);
            if (same) arena_buf_printf(&l, " +%zu", same);
            arena_plot_gq(&yt, l.s ? l.s : "", 1);
            if (l.oom) yt.oom = 1;
            arena_buf_free(&l);
            arena_buf_printf(&yt, " %.2f", y);
            xmax = fmax(xmax, (double)r->whole / 1024);
            merged += same;
            y += 1;
            m++;
        }
        if (m) {
            arena_buf_printf(&lab, "set label %zu ", ++groups);
            arena_plot_gq(&lab, name.s ? name.s : "", 0);
            arena_buf_printf(&lab, " at first 0, first %.2f left offset 0.3, 0 front\n", header);
            y += 0.5;
            bars += m;
        } else {
            y = header;
        }
        arena_buf_free(&name);
    }
    arena_buf_add(&yt, ")");
    /* the axis reaches the smallest part that holds every bar, so each bar's
     * part is on the page */
    double xend = xmax * 1.05;
    for (int s = 0; s < ARENA_SRAM_SIZES; s++)
        if ((double)arena_sram_sizes[s] / 1024 >= xmax) {
            xend = (double)arena_sram_sizes[s] / 1024 * 1.04;
            break;
        }
    arena_plot_gp_head(c, &gp, "mcu", "The whole arena on a microcontroller", about, about,
                       fmin(9.0, fmax(2.0, 1.3 + 0.12 * y)), fmax(2.6, 1.3 + 0.17 * y));
    arena_plot_gp_common(c, &gp);
    arena_buf_printf(&gp, "YMAX = %.2f; XMAX = %.17g; NSRAM = %d\n", y - 0.5, xend, ARENA_SRAM_SIZES);
    arena_buf_add(&gp, "array SRAM[NSRAM]; array SRAMN[NSRAM]\n");
    for (int s = 0; s < ARENA_SRAM_SIZES; s++)
        arena_buf_printf(&gp, "SRAM[%d] = %llu; SRAMN[%d] = '%s'\n", s + 1,
                         (unsigned long long)(arena_sram_sizes[s] / 1024), s + 1, arena_sram_names[s]);
    arena_buf_printf(&gp, "XSTEP1 = %.17g; XSTEP2 = %.17g\n", arena_plot_nice_step(xend, 4),
                     arena_plot_nice_step(xend, 8));
    const char *keys[] = {"YTICS", "GROUPS"};
    const char *vals[] = {yt.s ? yt.s : "()", lab.s ? lab.s : ""};
    int rc = data.oom || csv.oom || yt.oom || lab.oom || gp.oom
                 ? (snprintf(c->err, sizeof c->err, "out of memory"), 1)
                 : arena_plot_put(c, "mcu-bars.csv", &data);
    if (!rc) rc = arena_plot_put(c, "mcu.csv", &csv);
    if (!rc) rc = arena_plot_draw(c, "mcu", &gp, keys, vals, 2);
    (void)bars;
    if (merged)
        arena_plot_note(c, "mcu figure: planners with the same arena share a bar (\"+N\": N more);"
                           " mcu.csv has every planner's row");
    arena_buf_free(&data);
    arena_buf_free(&csv);
    arena_buf_free(&yt);
    arena_buf_free(&lab);
    arena_buf_free(&gp);
    return rc;
}

int arena_plot_fig_mcu(struct plot_ctx *c)
{
    size_t k = pick_config(c);
    if (k == c->d.n_configs) {
        arena_plot_note(c, "mcu figure skipped: no result carries a whole arena (bench --scratch"
                           " cmsis-nn, say, computes TFLM's)");
        return 0;
    }
    size_t saved = c->cfg;
    c->cfg = k;
    size_t *rows = malloc((c->d.n_graphs + 1) * sizeof *rows), n = 0;
    if (!rows) {
        c->cfg = saved;
        snprintf(c->err, sizeof c->err, "out of memory");
        return 1;
    }
    for (size_t e = 0; e < c->d.n_graphs; e++)
        if (c->d.graphs[e].config == k && has_whole(c, e)) rows[n++] = e;
    struct arena_buf about = {0};
    arena_buf_printf(&about,
                     "TFLM's whole arena on a 32-bit Cortex-M per network and planner: the plan's"
                     " arena, the scratch TFLM places beyond it, TFLM's head; lines: the SRAM of"
                     " common parts (%zu network%s)",
                     n, n == 1 ? "" : "s");
    int rc = about.oom ? (snprintf(c->err, sizeof c->err, "out of memory"), 1)
                       : draw(c, rows, n, about.s);
    arena_buf_free(&about);
    free(rows);
    c->cfg = saved;
    return rc;
}
