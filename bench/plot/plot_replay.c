/* plot_replay.c — `bench plot`'s replay figure: real allocators replaying
 * the graph (bench --replay), peak footprint per frame against the best
 * static arena and the lower bound. */
#include "bench/plot/plot_internal.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int arena_plot_fig_replay(struct plot_ctx *c, const size_t *idx,
                          const struct arena_fig_result **res, size_t n)
{
    const struct arena_fig_graph *g = &c->d.graphs[c->graph];
    struct arena_fig_replay *rp = NULL;
    size_t nr = 0;
    if (arena_figdb_replays(c->db, g->id, &rp, &nr, c->err, sizeof c->err)) return 2;
    if (!nr) {
        struct arena_buf s = {0};
        arena_plot_caret(&s, g->spec);
        arena_plot_note(c, "replay figure skipped: no replays of %s (bench --replay)",
                        s.s ? s.s : "");
        arena_buf_free(&s);
        arena_fig_replays_free(rp, nr);
        return 0;
    }
    const struct arena_fig_result *best = NULL;
    const char *best_name = NULL;
    for (size_t i = 0; i < n; i++)
        if (res[i]->ok && (!best || res[i]->arena < best->arena)) {
            best = res[i];
            best_name = c->sel[idx[i]].label;
        }
    double ymin = (double)g->lower_bound, ymax = ymin;
    int64_t frames = 1;
    if (best) ymin = fmin(ymin, (double)best->arena), ymax = fmax(ymax, (double)best->arena);
    struct arena_buf b = {0};
    arena_buf_add(&b, "row,frame,calls,footprint_peak,extent_peak,resident_peak,live_peak,run,"
                           "allocator,version,footprint_source\n");
    for (size_t i = 0; i < nr; i++)
        for (size_t k = 0; k < rp[i].n_frames; k++) {
            if (rp[i].footprint[k] > 0) {
                ymin = fmin(ymin, (double)rp[i].footprint[k]);
                ymax = fmax(ymax, (double)rp[i].footprint[k]);
            }
            if (rp[i].frame[k] > frames) frames = rp[i].frame[k];
            arena_buf_printf(&b, "%zu,%lld,%lld,%lld,%lld,%lld,%lld,%lld,", i + 1,
                                  (long long)rp[i].frame[k], (long long)rp[i].calls[k],
                                  (long long)rp[i].footprint[k], (long long)rp[i].extent[k],
                                  (long long)rp[i].resident[k], (long long)rp[i].live_peak,
                                  (long long)rp[i].run_id);
            arena_plot_csv(&b, rp[i].allocator);
            arena_buf_add(&b, ",");
            arena_plot_csv(&b, rp[i].version);
            arena_buf_add(&b, ",");
            arena_plot_csv(&b, rp[i].source);
            arena_buf_add(&b, "\n");
        }
    int rc = arena_plot_put(c, "replay.csv", &b);
    arena_buf_free(&b);
    if (rc) {
        arena_fig_replays_free(rp, nr);
        return rc;
    }
    if (ymin <= 0) ymin = 1;
    double U;
    const char *un;
    arena_plot_byte_unit(ymax, &U, &un);
    static const char *const colors[] = {"#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#D55E00", "#0072B2"};
    struct arena_buf gp = {0}, bk = {0}, bl = {0};
    /* The legend: lower bound, the static arena, an allocator a line. */
    struct arena_buf bt = {0};
    if (best)
        arena_buf_printf(&bt, "static arena (%s%s)", best_name,
                              arena_plot_is_limit(best) ? ", stopped at its limit" : "");
    size_t nk = nr + 1 + (best ? 1 : 0);
    double longest =
        fmax(arena_plot_text_em("lower bound"), best ? arena_plot_text_em(bt.s ? bt.s : "") : 0);
    for (size_t i = 0; i < nr; i++) longest = fmax(longest, arena_plot_text_em(rp[i].allocator));
    size_t kc1 = arena_plot_key_columns(1, longest, 2), kc2 = arena_plot_key_columns(2, longest, 3);
    size_t rows1 = (nk + kc1 - 1) / kc1, rows2 = (nk + kc2 - 1) / kc2;
    arena_plot_gp_head(c, &gp, "replay", "Real allocators per frame against the static arena",
                       g->spec, NULL, fmin(4.2, 2.4 + 0.14 * (double)rows1),
                       2.8 + 0.17 * (double)rows2);
    arena_plot_gp_common(c, &gp);
    arena_buf_printf(&gp, "KC1 = %zu; KC2 = %zu\n", kc1, kc2);
    arena_buf_printf(
        &gp,
        "N = %zu; NK = %zu; U = %.1f; UNAME = '%s'; LB = %lld; BEST = %lld; FRAMES = %lld\n"
        "YMIN = %.17g; YMAX = %.17g\narray aname[%zu]; array acol[%zu]; array adt[%zu]\n",
        nr, nk, U, un, (long long)g->lower_bound, best ? (long long)best->arena : 0LL,
        (long long)frames, ymin, ymax, nr, nr, nr);
    for (size_t i = 0; i < nr; i++) {
        arena_buf_printf(&gp, "aname[%zu] = ", i + 1);
        arena_plot_gq(&gp, rp[i].allocator, 0);
        arena_buf_printf(&gp, "; acol[%zu] = '%s'; adt[%zu] = %zu\n", i + 1, colors[i % 6],
                              i + 1, i % 4 + 1);
    }
    if (best) {
        arena_buf_add(&bk, ", \\\n       NaN with lines lc rgb '#000000' lw 1.5 title ");
        arena_plot_gq(&bk, bt.s ? bt.s : "", 0);
        arena_buf_add(&bl, ", \\\n       BEST / U with lines lc rgb '#000000' lw 1.5");
    }
    const char *keys[] = {"BESTKEY", "BESTLINE"};
    const char *vals[] = {bk.s ? bk.s : "", bl.s ? bl.s : ""};
    rc = arena_plot_draw(c, "replay", &gp, keys, vals, 2);
    arena_buf_free(&gp);
    arena_buf_free(&bk);
    arena_buf_free(&bl);
    arena_buf_free(&bt);
    arena_fig_replays_free(rp, nr);
    return rc;
}
