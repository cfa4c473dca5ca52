/* session.c — what bench's planning commands share while one runs
 * (session.h): the signals, messages, stdout, the graphs, the database. */
#include "bench/core/session.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/base/pairset.h"
#include "bench/core/suites.h"
#include "graphs/sweep.h"

/* The signal that asked us to stop (0: none); a second signal exits. */
static volatile sig_atomic_t stop_signal;
/* The planners' copy of it, the one their options point to: set with it,
 * so a planner that writes it (through a cast) stops nothing of bench's. */
static volatile sig_atomic_t planner_stop;
/* The progress watcher's signal pipe (arena_progress_signal_fd), -1 none:
 * the first signal is handed to it, which answers it on stderr at once. */
static volatile sig_atomic_t signal_fd = -1;

static void on_signal(int sig)
{
    if (stop_signal) _exit(128 + sig);
    stop_signal = sig;
    planner_stop = sig;
    int fd = signal_fd, saved = errno;
    unsigned char c = (unsigned char)sig;
    if (fd >= 0 && write(fd, &c, 1) < 0) {} /* async-signal-safe; never blocks */
    errno = saved;
}

/* The store's stop hook: a signal ends a wait for another process's lock. */
static int stop_requested(void *ctx)
{
    (void)ctx;
    return stop_signal != 0;
}

int arena_session_stopped(void)
{
    return stop_signal;
}

const volatile sig_atomic_t *arena_session_stop_flag(void)
{
    return &planner_stop;
}

void arena_session_stop_flag_mend(void)
{
    planner_stop = stop_signal;
}

/* The guest call under way (arena_session_guest_enter), for the exit hook. */
static struct arena_session *guest_session;
static char guest_what[600];

static void record_stop(struct arena_session *s, const char *how);

/* A guest that calls exit() runs this before the process ends: the run
 * does not end as a success with most of it never measured. */
static void guest_exited(void)
{
    struct arena_session *s = guest_session;
    if (!s) return;
    guest_session = NULL;
    char how[900];
    if (s->store)
        snprintf(how, sizeof how, "%s ended the process (exit) during its call; %zu of %zu results"
                                  " stored", guest_what, s->progress.done, s->progress.total);
    else
        snprintf(how, sizeof how, "%s ended the process (exit) during its call", guest_what);
    arena_session_say(s, "%s; bench stops here (exit 2)", how);
    if (s->store && !s->db_failed) record_stop(s, how);
    _exit(2);
}

void arena_session_guest_enter(struct arena_session *s, const char *planner, const char *graph)
{
    static int hooked;
    if (!hooked) hooked = atexit(guest_exited) == 0;
    snprintf(guest_what, sizeof guest_what, "planner %s on %s", planner, graph);
    guest_session = s;
}

void arena_session_guest_leave(void)
{
    guest_session = NULL;
}

void arena_session_say(struct arena_session *s, const char *fmt, ...)
{
    if (s) arena_progress_clear(&s->progress);
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    for (char *c = line; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
    fprintf(stderr, "bench: %s\n", line);
    fflush(stderr);
}

int arena_session_halted(const struct arena_session *s)
{
    return stop_signal || s->db_failed || s->out_failed;
}

int arena_session_stdout_ok(struct arena_session *s)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return 1;
    if (s && s->out_failed) return 0;
    arena_session_say(s, "writing to stdout: %s", errno ? strerror(errno) : "write error");
    if (s) s->out_failed = 1;
    return 0;
}

int arena_session_begin(struct arena_session *s, const struct arena_bench_common *args, int argc,
                        char **argv)
{
    struct sigaction act;
    memset(s, 0, sizeof *s);
    memset(&act, 0, sizeof act);
    act.sa_handler = on_signal;
    sigemptyset(&act.sa_mask);
    stop_signal = 0;
    planner_stop = 0;
    sigaction(SIGINT, &act, &s->old_int);
    sigaction(SIGTERM, &act, &s->old_term);
    s->args = *args;
    s->args.options.stop = &planner_stop; /* a signal ends a search planner's call */
    s->argc = argc;
    s->argv = argv;
    arena_progress_init(&s->progress, s->args.progress, s->args.quiet, isatty(fileno(stderr)),
                        stderr);
    signal_fd = arena_progress_signal_fd(&s->progress);
    /* A closed stdout is found before anything is done. */
    if (!s->args.quiet && fcntl(STDOUT_FILENO, F_GETFD) < 0) {
        arena_session_say(s, "writing to stdout: %s", strerror(errno));
        return 2;
    }
    char err[700] = "";
    if (s->args.pin_cpu >= 0 && arena_runinfo_pin(s->args.pin_cpu, err, sizeof err) != ARENA_OK) {
        arena_session_say(s, "%s", err);
        return 2;
    }
    arena_runenv_collect(&s->env); /* before this command adds its own load */
    return 0;
}

void arena_session_end(struct arena_session *s)
{
    signal_fd = -1;
    guest_session = NULL;
    arena_progress_end(&s->progress);
    for (size_t i = 0; i < s->n_graphs; i++) {
        arena_source_free(&s->graphs[i].src);
        arena_alias_merge_free(&s->graphs[i].merge);
    }
    free(s->graphs);
    s->graphs = NULL;
    s->n_graphs = 0;
    arena_store_close(s->store);
    s->store = NULL;
    sigaction(SIGINT, &s->old_int, NULL);
    sigaction(SIGTERM, &s->old_term, NULL);
}

void arena_session_items_free(char **items, size_t n)
{
    for (size_t i = 0; i < n; i++) free(items[i]);
    free(items);
}

int arena_session_expand(const struct arena_bench_common *a, char ***items, size_t *n, char *err,
                         size_t errlen)
{
    *items = NULL;
    *n = 0;
    struct arena_pairset seen = {0};
    for (size_t i = 0; i < a->n_graphs; i++) {
        size_t k = 1;
        const char *const *list = arena_bench_suite(a->graphs[i], &k);
        const char *one[1] = {a->graphs[i]};
        if (!list) list = one;
        for (size_t s = 0; s < k; s++) {
            char **specs = NULL;
            size_t n_specs = 0;
            int rc = arena_sweep_expand(list[s], &specs, &n_specs, err, errlen);
            char **grown = rc == ARENA_OK ? realloc(*items, (*n + n_specs + 1) * sizeof *grown)
                                          : NULL;
            if (rc == ARENA_OK && !grown) rc = ARENA_ENOMEM;
            if (grown) *items = grown;
            for (size_t x = 0; rc == ARENA_OK && x < n_specs; x++) {
                int added = arena_pairset_add(&seen, specs[x], 0);
                if (added < 0) rc = ARENA_ENOMEM;
                else if (added) (*items)[(*n)++] = specs[x], specs[x] = NULL;
            }
            arena_session_items_free(specs, n_specs); /* the repeats, or all on error */
            if (rc != ARENA_OK) {
                if (rc == ARENA_ENOMEM) snprintf(err, errlen, "out of memory");
                arena_pairset_free(&seen);
                return rc;
            }
        }
    }
    arena_pairset_free(&seen);
    return ARENA_OK;
}

/* Figures are SQLite integers: a problem whose total size exceeds 2^63-1 B
 * is refused once loaded, with or without a database, so every run prints
 * only what it could store. */
static int check_figures(struct arena_session *s)
{
    for (size_t i = 0; i < s->n_graphs; i++) {
        const struct arena_session_graph *g = &s->graphs[i];
        if (g->bounds.naive_bytes <= ARENA_BENCH_INT_MAX) continue;
        arena_session_say(s, "--graph '%s': the sizes add up to %llu B, above 2^63-1 B, the"
                             " largest figure the results database stores",
                          g->src.spec, (unsigned long long)g->bounds.naive_bytes);
        return 2;
    }
    return 0;
}

int arena_session_load(struct arena_session *s)
{
    char **items = NULL;
    size_t n = 0;
    char xerr[512] = "";
    if (arena_session_expand(&s->args, &items, &n, xerr, sizeof xerr) != ARENA_OK) {
        arena_session_say(s, "--graph: %s", xerr);
        return 2;
    }
    s->graphs = calloc(n ? n : 1, sizeof *s->graphs);
    if (!s->graphs) {
        arena_session_items_free(items, n);
        arena_session_say(s, "out of memory");
        return 2;
    }
    int status = 0;
    struct arena_pairset loaded = {0}; /* (canonical spec, fingerprint) of the graphs kept */
    for (size_t i = 0; i < n && !status && !stop_signal; i++) {
        struct arena_session_graph *g = &s->graphs[s->n_graphs];
        char err[512] = "";
        struct arena_load_options lo = {
            .alignment = s->args.alignment, .seed = s->args.seed, .stop = &stop_signal,
            .order = s->args.order, .order_states = s->args.order_states,
            .patch = s->args.patch.rows ? &s->args.patch : NULL, .inplace = s->args.inplace,
            .scratch = s->args.scratch, .scratch_policy = s->args.scratch_policy};
        char doing[600];
        snprintf(doing, sizeof doing, "loading %s", items[i]);
        arena_progress_doing(&s->progress, doing);
        int rc = arena_source_load_with(items[i], &lo, &g->src, err, sizeof err);
        arena_progress_doing(&s->progress, NULL);
        if (rc != ARENA_OK && stop_signal) break; /* said below */
        if (rc != ARENA_OK) {
            arena_session_say(s, "--graph '%s': %s", items[i], err[0] ? err : arena_strerror(rc));
            status = 2;
            break;
        }
        if (g->src.warning) arena_session_say(s, "%s", g->src.warning);
        size_t bad = 0;
        rc = arena_problem_check(&g->src.problem, &bad);
        if (rc == ARENA_OK) rc = arena_problem_bounds(&g->src.problem, &g->bounds);
        if (rc == ARENA_OK && g->src.problem.n_alias > 0) {
            rc = arena_alias_merge(&g->src.problem, &g->merge);
            g->merged = rc == ARENA_OK;
        }
        if (rc != ARENA_OK) {
            arena_session_say(s, "--graph '%s': %s", items[i], arena_strerror(rc));
            arena_source_free(&g->src);
            arena_alias_merge_free(&g->merge);
            g->merged = 0;
            status = 2;
            break;
        }
        int added = arena_pairset_add(&loaded, g->src.spec, g->src.fingerprint);
        if (added <= 0) { /* the same canonical spec and problem: kept once */
            arena_source_free(&g->src);
            arena_alias_merge_free(&g->merge);
            g->merged = 0;
            if (added == 0) continue;
            arena_session_say(s, "out of memory");
            status = 2;
            break;
        }
        s->n_graphs++;
    }
    arena_pairset_free(&loaded);
    arena_session_items_free(items, n);
    if (status) return status;
    if (stop_signal) return 128 + stop_signal;
    return check_figures(s);
}

int arena_session_make_parents(const char *path)
{
    char *copy = strdup(path);
    if (!copy) return ENOMEM;
    for (char *s = copy + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        if (mkdir(copy, 0777) != 0 && errno != EEXIST) {
            int e = errno;
            free(copy);
            return e;
        }
        *s = '/';
    }
    free(copy);
    return 0;
}

int arena_session_open_store(struct arena_session *s)
{
    if (!s->args.db) return 0;
    int e = arena_session_make_parents(s->args.db);
    if (e) {
        arena_session_say(s, "--db %s: cannot create its directory: %s", s->args.db, strerror(e));
        return 2;
    }
    char err[600] = "";
    arena_progress_doing(&s->progress, "opening the database");
    int rc = arena_store_open(s->args.db, stop_requested, NULL, &s->store, err, sizeof err);
    arena_progress_doing(&s->progress, NULL);
    if (rc != ARENA_OK) {
        if (stop_signal) return 128 + stop_signal;
        arena_session_say(s, "%s", err);
        return 2;
    }
    return 0;
}

static int store_run(struct arena_session *s)
{
    int rc = ARENA_OK;
    if (!s->run_id) {
        struct arena_runinfo ri;
        arena_runinfo_collect(&ri, s->argc, s->argv);
        struct arena_run_info run = {
            .started_at = ri.started_at,
            .git_rev = arena_build_git_rev(),
            .compiler = arena_build_compiler(),
            .cpu = ri.cpu,
            .host = ri.host,
            .command = ri.command ? ri.command : "bench",
            .seed = s->args.seed,
            .governor = s->env.governor,
            .loadavg = s->env.loadavg,
            .tag = s->args.tag,
        };
        rc = arena_store_add_run(s->store, &run, &s->run_id);
        arena_runinfo_free(&ri);
    }
    return rc;
}

int arena_session_store_run_and_graph(struct arena_session *s, struct arena_session_graph *g)
{
    int rc = store_run(s);
    if (rc == ARENA_OK && !g->db_id)
        rc = arena_store_add_graph(s->store, &g->src, &g->bounds, &g->db_id);
    return rc;
}

/* Writes how into the run's row (the row written first when no result
 * was stored yet). */
static void record_stop(struct arena_session *s, const char *how)
{
    /* A lock held elsewhere is not waited for (the stop hook ends the wait):
     * then the run keeps its results but not this line. */
    if (store_run(s) != ARENA_OK || arena_store_set_stopped(s->store, s->run_id, how) != ARENA_OK)
        arena_session_say(s, "%s: the stop is not recorded: %s", s->args.db,
                          arena_store_error(s->store));
}

void arena_session_store_stop(struct arena_session *s, size_t stored, size_t total)
{
    char what[512], how[800];
    double into = 0;
    int sig = (int)arena_session_stopped();
    if (!arena_progress_stopped(&s->progress, what, sizeof what, &into)) what[0] = '\0';
    if (!s->store || s->db_failed || !sig) return;
    if (what[0])
        snprintf(how, sizeof how, "signal %d during %s, %.1f s in; %zu of %zu results stored", sig,
                 what, into, stored, total);
    else
        snprintf(how, sizeof how, "signal %d; %zu of %zu results stored", sig, stored, total);
    record_stop(s, how);
}
