/* export_main.c — `bench export plan|tflite|problem DIR`: every graph
 * loaded as a run loads it, then written, untimed: each graph x planner's
 * plan as a C library (export plan) or a .tflite copy with TFLM's offline
 * plan (export tflite), or each graph's problem as a MiniMalloc CSV
 * (export problem, nothing planned). Every file is written whole, then
 * renamed into place. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/args.h"
#include "bench/core/session.h"
#include "bench/export/export_plan.h"
#include "bench/external/plugin.h"
#include "graphs/files.h"
#include "planners/planner.h"

/* export plan: every graph x planner as .csv, C header and source
 * (export_plan.h); export tflite: every model x planner as a .tflite copy
 * with TFLM's offline plan (export_tflite.h), every graph a model. */
static int export_plans(struct arena_session *s, const struct arena_bench_args *a)
{
    const char *dirs[2] = {a->export_plan_dir, a->export_tflite_dir};
    const char *opts[2] = {"export plan", "export tflite"};
    int failed = 0;
    for (size_t i = 0; dirs[1] && i < s->n_graphs; i++)
        if (strcmp(s->graphs[i].src.family, "tflite") != 0) {
            arena_session_say(s, "export tflite: '%s' is not a .tflite model",
                              s->graphs[i].src.spec);
            return 2;
        }
    for (int k = 0; k < 2; k++) {
        if (!dirs[k]) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/x", dirs[k]);
        int e = arena_session_make_parents(path);
        if (e != 0) {
            arena_session_say(s, "%s: cannot create '%s': %s", opts[k], dirs[k], strerror(e));
            return 2;
        }
        /* one planner at a time, so a signal's answer names the call; a
         * planner that gives no valid plan is one line, and the others are
         * exported (exit 1 at the end) */
        for (size_t c = 0; c < s->n_graphs * s->args.n_planners; c++) {
            size_t i = c / s->args.n_planners, k_pl = c % s->args.n_planners;
            const struct arena_planner *const *pl = &s->args.planners[k_pl];
            int plugin = s->args.origins[k_pl].origin == ARENA_ORIGIN_PLUGIN;
            int isolate = plugin && !a->in_process;
            char err[700] = "", doing[400];
            snprintf(doing, sizeof doing, "%s on %s", (*pl)->name, s->graphs[i].src.spec);
            FILE *out = s->args.quiet ? NULL : stdout;
            arena_progress_doing(&s->progress, doing);
            if (plugin && !isolate)
                arena_session_guest_enter(s, (*pl)->name, s->graphs[i].src.spec);
            int rc = k == 0 ? arena_export_plans(dirs[k], &s->graphs[i].src, pl, 1, isolate,
                                                 &s->args.options, a->head, a->tail,
                                                 out, err, sizeof err)
                            : arena_export_tflites(dirs[k], &s->graphs[i].src, pl, 1, isolate,
                                                   &s->args.options, out, err, sizeof err);
            arena_session_guest_leave();
            arena_session_stop_flag_mend();
            arena_progress_doing(&s->progress, NULL);
            if (rc != ARENA_OK && arena_session_stopped()) {
                arena_session_say(s, "stopped by signal %d: %s", arena_session_stopped(), err);
                return 128 + arena_session_stopped();
            }
            if (rc == ARENA_ECONFLICT) {
                arena_session_say(s, "%s: %s", opts[k], err);
                failed = 1;
            } else if (rc != ARENA_OK) {
                arena_session_say(s, "%s: %s", opts[k], err[0] ? err : arena_strerror(rc));
                return 2;
            }
        }
    }
    return failed;
}

/* export problem: each problem into dir as NAME-FP.csv, NAME the canonical
 * spec with every character outside [A-Za-z0-9.=+-] made '_' (at most 96),
 * FP the fingerprint's first 8 hex digits, so two sources never share a
 * file and an input CSV is never overwritten by its own export. Each is
 * written to NAME-FP.csv.tmp and renamed when whole, so a failed export (a
 * full disk) leaves no partial file that would read back as a smaller
 * problem. */
static int export_graphs(struct arena_session *s, const struct arena_bench_args *a)
{
    const char *dir = a->export_dir;
    char path[4096];
    snprintf(path, sizeof path, "%s/x", dir);
    int e = arena_session_make_parents(path);
    if (e != 0) {
        arena_session_say(s, "export problem: cannot create '%s': %s", dir, strerror(e));
        return 2;
    }
    for (size_t i = 0; i < s->n_graphs; i++) {
        const struct arena_source *src = &s->graphs[i].src;
        char name[97];
        size_t k = 0;
        for (const char *c = src->spec; *c && k < sizeof name - 1; c++)
            name[k++] = (isalnum((unsigned char)*c) || strchr(".=+-", *c)) ? *c : '_';
        name[k] = '\0';
        int len = snprintf(path, sizeof path, "%s/%s-%08x.csv", dir, name,
                           (unsigned)(src->fingerprint >> 32));
        if (len < 0 || (size_t)len >= sizeof path) {
            arena_session_say(s, "export problem: '%s': path too long", dir);
            return 2;
        }
        char tmp[4096 + 8], err[8600] = "";
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        int rc = arena_csv_write(tmp, &src->problem, err, sizeof err);
        if (rc == ARENA_OK && rename(tmp, path) != 0) {
            snprintf(err, sizeof err, "%s: cannot rename to %s: %s", tmp, path, strerror(errno));
            rc = ARENA_EIO;
        }
        if (rc != ARENA_OK) {
            unlink(tmp);
            arena_session_say(s, "export problem: %s", err[0] ? err : arena_strerror(rc));
            return 2;
        }
        if (!s->args.quiet) {
            printf("%s\t%s\n", src->spec, path);
            if (!arena_session_stdout_ok(s)) return 2;
        }
    }
    return 0;
}

int arena_bench_export(const struct arena_bench_args *a, int argc, char **argv)
{
    struct arena_session s;
    int status = arena_session_begin(&s, &a->c, argc, argv);
    if (status == 0) status = arena_session_load(&s);
    if (status == 0 && a->export_dir) status = export_graphs(&s, a);
    if (status == 0 && (a->export_plan_dir || a->export_tflite_dir))
        status = export_plans(&s, a);
    arena_session_end(&s);
    return status;
}
