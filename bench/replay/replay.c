/* replay.c — bench's side of the real-allocator replays: find and start
 * each allocator's program, feed it the problem, read back its figures,
 * check, store and print them; and the founding table (docs/runtime.md:
 * MobileNetV2's figures as claimed by the article this project
 * started from, beside ours).
 * Protocol in bench/replay/replay_prog.h. */
#include "bench/replay/replay.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/core/output.h"
#include "bench/external/subprocess.h"
#include "planners/planner.h"


/* What each allocator's own footprint figure counts, for table headings:
 * glibc's mallinfo2 arena + hblkhd, jemalloc's stats.resident, mimalloc's
 * committed memory (replay_*.c read them). */
static const char *const figures[ARENA_REPLAY_ALLOCATORS] = {"brk heap + mmapped", "resident",
                                                             "committed"};

/* The Debian package that brings each allocator (none for glibc). */
static const char *const packages[ARENA_REPLAY_ALLOCATORS] = {NULL, "libjemalloc-dev",
                                                              "libmimalloc-dev"};

void arena_replay_result_free(struct arena_replay_result *r)
{
    if (!r)
        return;
    free(r->frame);
    memset(r, 0, sizeof *r);
}

/* ---- finding the program ---- */

static int is_program(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* $ARENA_REPLAY_DIR alone when set; else beside the running program, then
 * in the build folder bench was built in. */
static int find_program(const char *name, char *path, size_t len, char *err, size_t errlen)
{
    const char *env = getenv("ARENA_REPLAY_DIR");
    const char *dirs[2];
    size_t nd = 0;
    char self[4096];
    if (env && env[0]) {
        dirs[nd++] = env;
    } else {
        ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
        if (k > 0) {
            self[k] = '\0';
            char *slash = strrchr(self, '/');
            if (slash) {
                *slash = '\0';
                dirs[nd++] = self;
            }
        }
#ifdef ARENA_REPLAY_BUILD_DIR
        dirs[nd++] = ARENA_REPLAY_BUILD_DIR;
#endif
    }
    for (size_t d = 0; d < nd; d++) {
        snprintf(path, len, "%s/arena-replay-%s", dirs[d], name);
        if (is_program(path))
            return ARENA_OK;
    }
    unsigned i = 0;
    while (i < ARENA_REPLAY_ALLOCATORS && strcmp(arena_replay_allocator_name(i), name) != 0)
        i++;
    const char *pkg = i < ARENA_REPLAY_ALLOCATORS ? packages[i] : NULL;
    return arena_errorf(err, errlen, 0, ARENA_ENOTFOUND,
                        "--replay %s: no replay program arena-replay-%s in %s%s%s (meson builds"
                        " it only when %s is installed: run scripts/bootstrap, then meson"
                        " compile -C build)",
                        name, name, nd ? dirs[0] : "any folder",
                        env && env[0] ? " ($ARENA_REPLAY_DIR)" : "",
                        nd > 1 ? " or the build folder" : "", pkg ? pkg : "its library");
}

/* ---- running it ---- */

static int problem_text(const struct arena_problem *p, struct arena_buf *b)
{
    char line[96];
    int k = snprintf(line, sizeof line, "arenabench-replay-problem 1\n%zu\n", p->n);
    arena_buf_addn(b, line, (size_t)k);
    for (size_t i = 0; !b->oom && i < p->n; i++) {
        k = snprintf(line, sizeof line, "%llu %u %u\n", (unsigned long long)p->tensors[i].size,
                     p->tensors[i].first, p->tensors[i].last);
        arena_buf_addn(b, line, (size_t)k);
    }
    return b->oom ? ARENA_ENOMEM : ARENA_OK;
}

/* ---- reading its figures ---- */

static char *next_line(char **at)
{
    char *s = *at;
    if (!s || !*s)
        return NULL;
    char *nl = strchr(s, '\n');
    if (nl) {
        *nl = '\0';
        *at = nl + 1;
    } else {
        *at = s + strlen(s);
    }
    return s;
}

/* "key N" with N an unsigned integer. */
static int keyed_u64(const char *line, const char *key, uint64_t *v)
{
    size_t k = strlen(key);
    if (!line || strncmp(line, key, k) != 0 || line[k] != ' ')
        return 0;
    const char *d = line + k + 1;
    if (*d < '0' || *d > '9')
        return 0;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(d, &end, 10);
    if (*end || errno)
        return 0;
    *v = (uint64_t)x;
    return 1;
}

static int parse_output(const char *name, char *text, uint64_t n, uint64_t frames,
                        struct arena_replay_result *r, char *err, size_t errlen)
{
    char *at = text, *line;
    unsigned lineno = 0;
#define BAD(what)                                                                              \
    arena_errorf(err, errlen, 0, ARENA_EFORMAT,                                                \
                 "--replay %s: its program's output, line %u: expected %s, got '%.80s'", name, \
                 lineno, what, line ? line : "(end of output)")
    line = next_line(&at), lineno++;
    if (!line || strcmp(line, "arenabench-replay 1") != 0)
        return BAD("'arenabench-replay 1'");
    line = next_line(&at), lineno++;
    size_t nl = strlen(name);
    if (!line || strncmp(line, "allocator ", 10) != 0 || strncmp(line + 10, name, nl) != 0 ||
        line[10 + nl] != ' ')
        return BAD("'allocator NAME VERSION'");
    snprintf(r->allocator, sizeof r->allocator, "%s", name);
    snprintf(r->version, sizeof r->version, "%s", line + 11 + nl);
    line = next_line(&at), lineno++;
    if (!line || strncmp(line, "footprint ", 10) != 0 || !line[10])
        return BAD("'footprint SOURCE'");
    snprintf(r->footprint_source, sizeof r->footprint_source, "%s", line + 10);
    line = next_line(&at), lineno++;
    if (!keyed_u64(line, "tensors", &r->tensors) || r->tensors != n)
        return BAD("the problem's tensor count");
    line = next_line(&at), lineno++;
    if (!keyed_u64(line, "frames", &r->frames) || r->frames != frames)
        return BAD("the frames asked for");
    line = next_line(&at), lineno++;
    if (!keyed_u64(line, "live_peak", &r->live_peak))
        return BAD("'live_peak BYTES'");
    line = next_line(&at), lineno++;
    if (!keyed_u64(line, "baseline", &r->baseline))
        return BAD("'baseline BYTES'");
    line = next_line(&at), lineno++;
    if (!keyed_u64(line, "resident_baseline", &r->resident_baseline))
        return BAD("'resident_baseline BYTES'");
    r->frame = calloc(frames, sizeof *r->frame);
    if (!r->frame)
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
    for (uint64_t k = 0; k < frames; k++) {
        line = next_line(&at), lineno++;
        unsigned long long f = 0, c = 0, fp = 0, ex = 0, rs = 0;
        char tail;
        if (!line || sscanf(line,
                            "frame %llu calls %llu footprint_peak %llu extent_peak %llu"
                            " resident_peak %llu%c",
                            &f, &c, &fp, &ex, &rs, &tail) != 5 ||
            f != k + 1)
            return BAD("the next 'frame K calls ... resident_peak BYTES'");
        r->frame[k] = (struct arena_replay_frame){c, fp, ex, rs};
        if (c != r->frame[0].calls)
            return arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                                "--replay %s: frame %llu made %llu calls, frame 1 %llu", name,
                                f, c, (unsigned long long)r->frame[0].calls);
    }
    r->calls_per_frame = r->frame[0].calls;
    line = next_line(&at), lineno++;
    char *end = NULL;
    if (!line || strncmp(line, "ns_per_call_median ", 19) != 0 ||
        !((r->ns_per_call = strtod(line + 19, &end)), end && !*end && end != line + 19))
        return BAD("'ns_per_call_median NS'");
    line = next_line(&at), lineno++;
    if (!line || strcmp(line, "end") != 0)
        return BAD("'end'");
#undef BAD
    return ARENA_OK;
}

int arena_replay_run(const char *name, const struct arena_problem *p, uint64_t frames,
                     const struct arena_plan_options *opt, struct arena_replay_result *out,
                     char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char path[4200];
    int rc = find_program(name, path, sizeof path, err, errlen);
    if (rc != ARENA_OK)
        return rc;
    struct arena_buf in = {0};
    rc = problem_text(p, &in);
    if (rc != ARENA_OK) {
        arena_buf_free(&in);
        return arena_errorf(err, errlen, 0, rc, "out of memory");
    }
    char fr[32], prog[64];
    snprintf(fr, sizeof fr, "%llu", (unsigned long long)frames);
    snprintf(prog, sizeof prog, "arena-replay-%s", name);
    char *argv[] = {prog, fr, NULL};
    struct arena_spawn sp = {.path = path, .argv = argv, .in = in.s, .in_len = in.len,
                             .out_max = (size_t)1 << 30, .err_keep = 4096};
    rc = arena_spawn_run(&sp, opt, err, errlen);
    arena_buf_free(&in);
    if (rc == ARENA_OK && sp.end == ARENA_SPAWN_TIMED_OUT)
        rc = arena_errorf(err, errlen, 0, ARENA_EIO,
                          "--replay %s: stopped at the time limit (--time-limit %g s), the"
                          " program killed; raise --time-limit or lower --frames",
                          name, opt->time_limit);
    else if (rc == ARENA_OK && sp.end == ARENA_SPAWN_STOPPED)
        rc = arena_errorf(err, errlen, 0, ARENA_EIO,
                          "--replay %s: stopped by a signal, the program killed", name);
    else if (rc == ARENA_OK && !(WIFEXITED(sp.status) && WEXITSTATUS(sp.status) == 0)) {
        /* The program's own line, or the loader's (a missing library). */
        char first[600] = "";
        if (sp.err.s) {
            size_t k = strcspn(sp.err.s, "\n");
            snprintf(first, sizeof first, "%.*s", (int)(k < 599 ? k : 599), sp.err.s);
        }
        if (WIFEXITED(sp.status))
            rc = arena_errorf(err, errlen, 0, ARENA_EIO, "--replay %s: %s exited with status %d%s%s",
                              name, path, WEXITSTATUS(sp.status), first[0] ? ": " : "", first);
        else
            rc = arena_errorf(err, errlen, 0, ARENA_EIO, "--replay %s: %s was killed by signal %d%s%s",
                              name, path, WIFSIGNALED(sp.status) ? WTERMSIG(sp.status) : 0,
                              first[0] ? ": " : "", first);
    } else if (rc == ARENA_OK) {
        rc = sp.out.s ? parse_output(name, sp.out.s, p->n, frames, out, err, errlen)
                         : arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                                        "--replay %s: its program printed nothing", name);
    } else {
        char inner[512];
        snprintf(inner, sizeof inner, "%s", err);
        arena_errorf(err, errlen, 0, rc, "--replay %s: %s", name, inner);
    }
    arena_spawn_free(&sp);
    if (rc != ARENA_OK)
        arena_replay_result_free(out);
    return rc;
}

/* ---- bench --replay ---- */

static uint64_t peak_of(const struct arena_replay_result *r, int which)
{
    uint64_t m = 0;
    for (uint64_t k = 0; k < r->frames; k++) {
        uint64_t v = which == 0 ? r->frame[k].footprint_peak
                   : which == 1 ? r->frame[k].extent_peak
                                : r->frame[k].resident_peak;
        m = v > m ? v : m;
    }
    return m;
}

static double frag(uint64_t live, uint64_t footprint)
{
    return footprint ? 1.0 - (double)live / (double)footprint : 0.0;
}

static int stopped(const struct arena_plan_options *opt)
{
    return opt && opt->stop && *opt->stop;
}

/* Runs, checks and stores one allocator; ARENA_OK or a message in err. */
static int replay_one(unsigned i, const struct arena_source *src,
                      const struct arena_bounds *bounds, uint64_t frames,
                      const struct arena_plan_options *opt, struct arena_store *store,
                      int64_t run_id, int64_t graph_id, struct arena_replay_result *r,
                      char *err, size_t errlen)
{
    const struct arena_problem *p = &src->problem;
    const char *name = arena_replay_allocator_name(i);
    int rc = arena_replay_run(name, p, frames, opt, r, err, errlen);
    if (rc != ARENA_OK)
        return rc;
    if (r->calls_per_frame != 2 * (uint64_t)p->n)
        rc = arena_errorf(err, errlen, 0, ARENA_EINVAL,
                          "--replay %s on %s: %llu calls per frame, not 2 x %zu tensors",
                          name, src->spec, (unsigned long long)r->calls_per_frame, p->n);
    else if (r->live_peak != bounds->lower_bound)
        rc = arena_errorf(err, errlen, 0, ARENA_EINVAL,
                          "--replay %s on %s: live peak %llu B, not the lower bound %llu B",
                          name, src->spec, (unsigned long long)r->live_peak,
                          (unsigned long long)bounds->lower_bound);
    if (rc == ARENA_OK && store) {
        struct arena_replay_info info = {
            .allocator = r->allocator,
            .version = r->version,
            .footprint_source = r->footprint_source,
            .frames = r->frames,
            .calls_per_frame = r->calls_per_frame,
            .ns_per_call = r->ns_per_call,
            .live_peak = r->live_peak,
            .baseline_bytes = r->baseline,
            .frame = r->frame,
        };
        int64_t id = 0;
        if (arena_store_add_replay(store, run_id, graph_id, &info, &id) != ARENA_OK)
            rc = arena_errorf(err, errlen, 0, ARENA_EDB, "%s", arena_store_error(store));
    }
    if (rc != ARENA_OK)
        arena_replay_result_free(r);
    return rc;
}

static void graph_header(FILE *out, const struct arena_source *src,
                         const struct arena_bounds *b, const char *what)
{
    char lb[32], lbh[32], nv[32], nvh[32];
    arena_fmt_grouped(b->lower_bound, lb, sizeof lb);
    arena_fmt_bytes(b->lower_bound, lbh, sizeof lbh);
    arena_fmt_grouped(b->naive_bytes, nv, sizeof nv);
    arena_fmt_bytes(b->naive_bytes, nvh, sizeof nvh);
    fprintf(out, "\n%s\n  %s; %zu tensors, lower bound %s B (%s), naive %s B (%s)\n\n", src->spec,
            what, src->problem.n, lb, lbh, nv, nvh);
}

int arena_replay_graph(const struct arena_source *src, const struct arena_bounds *bounds,
                       unsigned mask, uint64_t frames, const struct arena_plan_options *opt,
                       struct arena_store *store, int64_t run_id, int64_t graph_id, FILE *out)
{
    struct arena_replay_result r[ARENA_REPLAY_ALLOCATORS];
    memset(r, 0, sizeof r);
    int status = 0;
    char err[1200] = "";
    for (unsigned i = 0; i < ARENA_REPLAY_ALLOCATORS && !status; i++) {
        if (!(mask & (1u << i)))
            continue;
        if (replay_one(i, src, bounds, frames, opt, store, run_id, graph_id, &r[i], err,
                       sizeof err) != ARENA_OK) {
            if (!stopped(opt)) /* else bench says it was stopped */
                fprintf(stderr, "bench: %s\n", err);
            status = 2;
        }
    }
    if (!status && out) {
        char what[96];
        snprintf(what, sizeof what, "real allocators, %llu frames",
                 (unsigned long long)frames);
        graph_header(out, src, bounds, what);
        fprintf(out, "  %-9s %-10s %5s %13s %13s %13s %7s %7s %13s %13s %9s\n", "allocator",
                "version", "calls", "footprint 1", "footprint F", "peak", "frag 1", "frag F",
                "extent", "resident", "ns/call");
        for (unsigned i = 0; i < ARENA_REPLAY_ALLOCATORS; i++) {
            if (!(mask & (1u << i)))
                continue;
            char f1[32], fF[32], pk[32], ex[32], rs[32], v[16];
            const struct arena_replay_result *x = &r[i];
            arena_fmt_grouped(x->frame[0].footprint_peak, f1, sizeof f1);
            arena_fmt_grouped(x->frame[x->frames - 1].footprint_peak, fF, sizeof fF);
            arena_fmt_grouped(peak_of(x, 0), pk, sizeof pk);
            arena_fmt_grouped(peak_of(x, 1), ex, sizeof ex);
            arena_fmt_grouped(peak_of(x, 2), rs, sizeof rs);
            snprintf(v, sizeof v, "%.*s", (int)strcspn(x->version, "-"), x->version);
            fprintf(out, "  %-9s %-10s %5llu %13s %13s %13s %6.1f%% %6.1f%% %13s %13s %9.1f\n",
                    x->allocator, v, (unsigned long long)x->calls_per_frame, f1, fF, pk,
                    100 * frag(x->live_peak, x->frame[0].footprint_peak),
                    100 * frag(x->live_peak, x->frame[x->frames - 1].footprint_peak), ex, rs,
                    x->ns_per_call);
        }
        fprintf(out, "\n  footprints in bytes, each by the allocator's own figure:");
        for (unsigned i = 0; i < ARENA_REPLAY_ALLOCATORS; i++)
            if (mask & (1u << i))
                fprintf(out, " %s %s;", r[i].allocator, r[i].footprint_source);
        fprintf(out, "\n  footprint 1 / F = peak in frame 1 / frame F; frag = 1 - lower bound /"
                     " footprint; extent = highest end - lowest start of live blocks;\n"
                     "  resident = the process's resident bytes above those before frame 1"
                     " (/proc/self/statm); ns/call = median over frames of frame time /"
                     " calls.\n");
        fflush(out);
    }
    for (unsigned i = 0; i < ARENA_REPLAY_ALLOCATORS; i++)
        arena_replay_result_free(&r[i]);
    return status;
}

/* ---- bench --founding-table ---- */

/* Plans the source's problem with pl once (scratch from malloc) and checks
 * the plan as bench does: the validator (a collision described), the
 * metrics, then the plan's claims settled against the lower bound. Returns
 * ARENA_OK with plan->arena, else the failure. With a store, the plan is
 * an ordinary result of the run: untimed (times and iterations NULL), its
 * placements with the tensors' names; *db_rc is the store's status. */
static int plan_once(const struct arena_planner *pl, const struct arena_source *src,
                     const struct arena_bounds *bounds, const struct arena_plan_options *opt,
                     struct arena_plan *plan, struct arena_store *store, int64_t run_id,
                     int64_t graph_id, int *db_rc)
{
    const struct arena_problem *p = &src->problem;
    char why[600] = "";
    struct arena_metrics m;
    size_t need = 0;
    void *scratch = NULL;
    int planned = 0;
    plan->n = p->n;
    plan->offsets = NULL;
    int rc = arena_planner_scratch(pl, p, &need);
    if (rc == ARENA_OK) {
        scratch = malloc(need ? need : 1);
        plan->offsets = malloc((p->n ? p->n : 1) * sizeof *plan->offsets);
        if (!scratch || !plan->offsets)
            rc = ARENA_ENOMEM;
    }
    if (rc == ARENA_OK)
        rc = arena_planner_run(pl, p, opt, scratch, need, plan);
    free(scratch);
    if (rc == ARENA_ETOOBIG) {
        snprintf(why, sizeof why, "refused: %s", arena_strerror(rc)); /* as bench stores it */
    } else if (rc != ARENA_OK) {
        snprintf(why, sizeof why, "planner failed: %s", arena_strerror(rc));
    } else {
        planned = 1;
        struct arena_collision c;
        rc = arena_plan_validate(p, plan, &c);
        if (rc != ARENA_OK)
            arena_plan_invalid_describe(p, plan, rc, &c, why, sizeof why);
        else if ((rc = arena_plan_metrics(p, plan, &m)) != ARENA_OK)
            snprintf(why, sizeof why, "metrics: %s", arena_strerror(rc));
        else
            arena_plan_settle(plan, bounds->lower_bound);
    }
    *db_rc = ARENA_OK;
    if (stopped(opt)) /* a call the signal stopped is not a result: nothing stored */
        rc = ARENA_EIO;
    else if (store) {
        int valid = rc == ARENA_OK;
        struct arena_result info = {
            .planner = pl->name,
            .valid = valid,
            .error = valid ? NULL : why,
            .metrics = valid ? &m : NULL,
            .plan_ns_median = NAN,
            .plan_ns_mean = NAN,
            .plan_ns_stddev = NAN,
            .scratch_bytes = need,
            .status = plan->status,
            .bound = plan->bound,
            .nodes = plan->nodes,
            .names = src->names,
            .src = src,
        };
        int64_t id = 0;
        *db_rc = arena_store_add_result(store, run_id, graph_id, &info, p,
                                        planned ? plan : NULL, &id);
    }
    free(plan->offsets);
    plan->offsets = NULL;
    return rc;
}

static void row(FILE *out, const char *name, uint64_t bytes, const char *extra, const char *calls,
                const char *fragtext, const char *claimed)
{
    char g[32], h[32], b[80];
    arena_fmt_grouped(bytes, g, sizeof g);
    arena_fmt_bytes(bytes, h, sizeof h);
    snprintf(b, sizeof b, "%s (%s)", g, h);
    fprintf(out, "  %-52s %-26s %-14s %-7s %-15s %s\n", name, b, extra, calls, fragtext,
            claimed);
}

static int founding_one(const struct arena_source *src, const struct arena_bounds *bounds,
                        unsigned mask, uint64_t frames, const struct arena_plan_options *run_opt,
                        struct arena_store *store, int64_t run_id, int64_t graph_id, FILE *out)
{
    const struct arena_problem *p = &src->problem;
    struct arena_replay_result r[ARENA_REPLAY_ALLOCATORS];
    memset(r, 0, sizeof r);
    char err[1200] = "";
    for (unsigned i = 0; i < ARENA_REPLAY_ALLOCATORS; i++) {
        if (!(mask & (1u << i)))
            continue;
        if (replay_one(i, src, bounds, frames, run_opt, store, run_id, graph_id, &r[i], err,
                       sizeof err) != ARENA_OK) {
            if (!stopped(run_opt)) /* else bench says it was stopped */
                fprintf(stderr, "bench: %s\n", err);
            for (unsigned k = 0; k < i; k++)
                arena_replay_result_free(&r[k]);
            return 2;
        }
    }
    /* The static and simulated plans, each planned once and validated. */
    /* A search planner stops at the run's budget with its best plan. */
    struct arena_plan_options opt = *run_opt;
    uint64_t arena[64];
    int ok[64];
    size_t np = arena_planner_count() < 64 ? arena_planner_count() : 64;
    const struct arena_planner *best = NULL;
    uint64_t best_arena = 0;
    int proven[64] = {0}; /* a search planner's plan proven optimal */
    for (size_t k = 0; k < np && !stopped(run_opt); k++) {
        const struct arena_planner *pl = arena_planner_at(k);
        struct arena_plan plan;
        memset(&plan, 0, sizeof plan);
        int db_rc;
        ok[k] = plan_once(pl, src, bounds, &opt, &plan, store, run_id, graph_id, &db_rc) ==
                ARENA_OK;
        if (db_rc != ARENA_OK) {
            fprintf(stderr, "bench: %s (%s on %s)\n", arena_store_error(store), pl->name,
                    src->spec);
            for (unsigned i = 0; i < ARENA_REPLAY_ALLOCATORS; i++)
                arena_replay_result_free(&r[i]);
            return 2;
        }
        arena[k] = plan.arena;
        if (ok[k] && pl->kind != ARENA_KIND_ONLINE && (!best || plan.arena < best_arena)) {
            best = pl;
            best_arena = plan.arena;
        }
        proven[k] = ok[k] && (plan.status == ARENA_PLAN_OPTIMAL ||
                              (plan.status == ARENA_PLAN_FEASIBLE &&
                               plan.arena == bounds->lower_bound));
    }
    if (stopped(run_opt)) { /* bench says so; nothing half-planned is shown */
        for (unsigned i = 0; i < ARENA_REPLAY_ALLOCATORS; i++)
            arena_replay_result_free(&r[i]);
        return 2;
    }
    if (out) {
        graph_header(out, src, bounds,
                     "the table of the article this project began from, measured"
                     " ('claimed': the article's figures, MobileNetV2 224 int8)");
        fprintf(out, "  %-52s %-26s %-14s %-7s %-15s %s\n", "", "peak bytes", "resident (OS)",
                "calls", "fragmentation", "claimed: peak / calls / fragmentation");
        char calls[32], ftxt[48], res[32], name[96];
        snprintf(calls, sizeof calls, "%zu", 2 * p->n);
        snprintf(ftxt, sizeof ftxt, "%.1f%%", 100 * frag(bounds->lower_bound, bounds->naive_bytes));
        row(out, "no reuse: naive plan, sum of sizes", bounds->naive_bytes, "-", "0", ftxt,
            "18.4 MB / 150 / \"severe\" (claimed)");
        for (unsigned i = 0; i < ARENA_REPLAY_ALLOCATORS; i++) {
            if (!(mask & (1u << i)))
                continue;
            const struct arena_replay_result *x = &r[i];
            snprintf(name, sizeof name, "malloc per tensor: %.16s %.*s, %s", x->allocator,
                     (int)strcspn(x->version, "-"), x->version, figures[i]);
            snprintf(ftxt, sizeof ftxt, "%.1f%% -> %.1f%%",
                     100 * frag(x->live_peak, x->frame[0].footprint_peak),
                     100 * frag(x->live_peak, x->frame[x->frames - 1].footprint_peak));
            arena_fmt_grouped(peak_of(x, 2), res, sizeof res);
            row(out, name, peak_of(x, 0), res, calls, ftxt,
                "18.4 MB / 150 / \"severe\" (claimed)");
        }
        for (size_t k = 0; k < np; k++) {
            const struct arena_planner *pl = arena_planner_at(k);
            if (pl->kind != ARENA_KIND_ONLINE || !ok[k])
                continue;
            snprintf(name, sizeof name, "simulated malloc: %.40s", pl->name);
            snprintf(ftxt, sizeof ftxt, "%.1f%%", 100 * frag(bounds->lower_bound, arena[k]));
            row(out, name, arena[k], "-", calls, ftxt, "");
        }
        for (size_t k = 0; k < np; k++) {
            const struct arena_planner *pl = arena_planner_at(k);
            if (!ok[k] || strcmp(pl->name, "ping-pong") != 0)
                continue;
            snprintf(ftxt, sizeof ftxt, "%.1f%%", 100 * frag(bounds->lower_bound, arena[k]));
            row(out, "ping-pong", arena[k], "-", "0", ftxt, "6.8 MB / 0 / 0% (claimed)");
        }
        if (best) {
            snprintf(name, sizeof name, "best static plan: %.40s", best->name);
            snprintf(ftxt, sizeof ftxt, "%.1f%%", 100 * frag(bounds->lower_bound, best_arena));
            char cut[32];
            snprintf(cut, sizeof cut, "%.1f%% cut",
                     100 * frag(best_arena, bounds->naive_bytes));
            row(out, name, best_arena, cut, "0", ftxt,
                "2.85 MB (-84.5%) / 0 / 0% (claimed)");
        }
        for (size_t k = 0; k < np; k++) {
            const struct arena_planner *pl = arena_planner_at(k);
            if (!ok[k] || pl->kind != ARENA_KIND_SEARCH)
                continue;
            snprintf(ftxt, sizeof ftxt, "%.1f%%", 100 * frag(bounds->lower_bound, arena[k]));
            if (proven[k])
                snprintf(name, sizeof name, "%.40s (proven)", pl->name);
            else if (opt.time_limit > 0)
                snprintf(name, sizeof name, "%.40s (not proven in %g s)", pl->name,
                         opt.time_limit);
            else
                snprintf(name, sizeof name, "%.40s (not proven)", pl->name);
            row(out, name, arena[k], "-", "0", ftxt, "");
        }
        fprintf(out, "\n  peak bytes: static plans their arena; real allocators their own"
                     " footprint figure, named on the row, peak over %llu frames",
                (unsigned long long)frames);
        for (unsigned i = 0; i < ARENA_REPLAY_ALLOCATORS; i++)
            if (mask & (1u << i))
                fprintf(out, " (%s: %s)", r[i].allocator, r[i].footprint_source);
        fprintf(out, ";\n  brk heap + mmapped: glibc's heap (free chunks and the untrimmed top"
                     " included) plus the blocks it maps apart; the live blocks' address extent"
                     " is not shown,\n  as it spans the gap between the two; committed:"
                     " what mimalloc took from the system (a 32 MiB segment at first), not what"
                     " it touched;\n"
                     "  resident (OS): the replay process's resident growth"
                     " (/proc/self/statm), the one figure measured alike for every allocator;"
                     " calls: malloc + free per frame (a static plan makes none);\n"
                     "  fragmentation: 1 - lower bound / peak bytes (real allocators: frame 1"
                     " -> frame %llu). 'claimed' = the figures of the article this project"
                     " began from, not measured here.\n",
                (unsigned long long)frames);
        fflush(out);
    }
    for (unsigned i = 0; i < ARENA_REPLAY_ALLOCATORS; i++)
        arena_replay_result_free(&r[i]);
    return 0;
}

/* MobileNetV2's other fusion: the spec with fused=1 and fused=0 swapped. */
static int sibling_spec(const struct arena_source *src, char *buf, size_t len)
{
    if (!src->family || strcmp(src->family, "mobilenetv2") != 0)
        return 0;
    const char *f = strstr(src->spec, "fused=");
    if (!f || (f[6] != '0' && f[6] != '1'))
        return 0;
    snprintf(buf, len, "%.*sfused=%c%s", (int)(f - src->spec), src->spec,
             f[6] == '1' ? '0' : '1', f + 7);
    return 1;
}

int arena_founding_table(const struct arena_source *src, const struct arena_bounds *bounds,
                         unsigned mask, uint64_t frames, int with_sibling,
                         const struct arena_plan_options *opt, struct arena_store *store,
                         int64_t run_id, int64_t graph_id, FILE *out)
{
    int status = founding_one(src, bounds, mask, frames, opt, store, run_id, graph_id, out);
    char spec[512];
    if (status || !with_sibling || !sibling_spec(src, spec, sizeof spec))
        return status;
    struct arena_source sib;
    struct arena_bounds sb;
    char err[512] = "";
    int rc = arena_source_load(spec, src->problem.alignment, 1, &sib, err, sizeof err);
    if (rc != ARENA_OK) {
        fprintf(stderr, "bench: --founding-table: '%s': %s\n", spec, err[0] ? err : arena_strerror(rc));
        return 2;
    }
    int64_t gid = 0;
    rc = arena_problem_bounds(&sib.problem, &sb);
    if (rc == ARENA_OK && store && arena_store_add_graph(store, &sib, &sb, &gid) != ARENA_OK) {
        fprintf(stderr, "bench: %s\n", arena_store_error(store));
        status = 2;
    } else if (rc != ARENA_OK) {
        fprintf(stderr, "bench: --founding-table: '%s': %s\n", spec, arena_strerror(rc));
        status = 2;
    } else {
        status = founding_one(&sib, &sb, mask, frames, opt, store, run_id, gid, out);
    }
    arena_source_free(&sib);
    return status;
}
