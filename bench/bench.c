/* bench.c — the bench command: parse, load every graph (so input errors stop
 * the run before anything is measured), open the database, then let Google
 * Benchmark time each planner x graph and store each result the moment it is
 * measured.
 *
 * Per planner x graph: the plan and scratch buffers are allocated in the
 * benchmark's setup, outside the timing; the timed region is one call of the
 * planner's table function on the prepared problem (what arena_planner_run
 * does after its argument checks, which are done once beforehand: the
 * problem is checked when loaded and the scratch size is asked once). The
 * plan left by the last timed call is the one validated, measured and
 * stored: planners are deterministic. */
#include "bench/bench.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/args.h"
#include "bench/gbench.h"
#include "bench/output.h"
#include "bench/progress.h"
#include "bench/replay.h"
#include "bench/runinfo.h"
#include "bench/suites.h"
#include "graphs/files.h"
#include "graphs/source.h"
#include "planners/planner.h"
#include "results/store.h"

/* The signal that asked us to stop (0: none); a second signal exits. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    if (stop_signal) _exit(128 + sig);
    stop_signal = sig;
}

struct graph_slot {
    struct arena_source src;
    struct arena_bounds bounds;
    int64_t db_id;
    int header_done;
};

struct bench;

struct job {
    struct bench *b;
    size_t g;
    const struct arena_planner *pl;
    void *scratch;
    size_t scratch_size;
    struct arena_plan plan;
    int prepared, prep_rc, rc, shown;
};

struct bench {
    struct arena_bench_args args;
    struct graph_slot *graphs;
    size_t n_graphs;
    struct job *jobs;
    size_t n_jobs;
    struct arena_store *store;
    int64_t run_id;
    const struct arena_output *out;
    struct arena_progress progress;
    int any_invalid, db_failed;
};

static void say(struct bench *b, const char *fmt, ...)
{
    if (b) arena_progress_clear(&b->progress);
    va_list ap;
    va_start(ap, fmt);
    fputs("bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ---- the benchmark callbacks ---- */

static void release(struct job *j)
{
    free(j->scratch);
    free(j->plan.offsets);
    j->scratch = NULL;
    j->plan.offsets = NULL;
}

static int job_setup(void *ctx)
{
    struct job *j = ctx;
    struct bench *b = j->b;
    if (stop_signal || b->db_failed) return 1;
    const struct arena_problem *p = &b->graphs[j->g].src.problem;
    if (!j->shown) {
        j->shown = 1;
        arena_progress_show(&b->progress, b->graphs[j->g].src.spec, j->pl->name);
    }
    if (!j->prepared) {
        j->prepared = 1;
        j->prep_rc = arena_planner_scratch(j->pl, p, &j->scratch_size);
        if (j->prep_rc == ARENA_OK) {
            /* malloc's alignment suits any type, as planners require. */
            j->scratch = malloc(j->scratch_size ? j->scratch_size : 1);
            j->plan.n = p->n;
            j->plan.offsets = malloc((p->n ? p->n : 1) * sizeof *j->plan.offsets);
            if (!j->scratch || !j->plan.offsets) j->prep_rc = ARENA_ENOMEM;
        }
    }
    return j->prep_rc != ARENA_OK;
}

static int job_iter(void *ctx)
{
    struct job *j = ctx;
    if (stop_signal) return 1;
    arena_plan_reset(&j->plan);
    j->rc = j->pl->plan(&j->b->graphs[j->g].src.problem, &arena_plan_options_default, j->scratch,
                        j->scratch_size, &j->plan);
    return j->rc != ARENA_OK;
}

static void emit(struct bench *b, struct graph_slot *g, const struct arena_bench_row *row)
{
    if (!b->out) return;
    arena_progress_clear(&b->progress);
    if (!g->header_done) {
        g->header_done = 1;
        b->out->graph(stdout, &g->src, &g->bounds);
    }
    b->out->row(stdout, row);
    fflush(stdout);
}

static void job_done(void *ctx, const struct arena_gbench_stats *st)
{
    struct job *j = ctx;
    struct bench *b = j->b;
    struct graph_slot *g = &b->graphs[j->g];
    const struct arena_problem *p = &g->src.problem;
    /* Not run (filtered out), or stopped: nothing half-measured is kept. */
    if ((!st->measured && !st->error) || stop_signal || b->db_failed) {
        release(j);
        return;
    }
    char error[600] = "";
    struct arena_metrics m;
    int valid = 0, planned = 0;
    if (j->prep_rc != ARENA_OK) {
        snprintf(error, sizeof error, "preparing the planner: %s", arena_strerror(j->prep_rc));
    } else if (j->rc != ARENA_OK) {
        snprintf(error, sizeof error, "planner failed: %s", arena_strerror(j->rc));
    } else if (st->error || st->repetitions == 0) {
        snprintf(error, sizeof error, "Google Benchmark: %s",
                 st->error ? st->message : "no repetition was reported");
    } else {
        planned = 1;
        struct arena_collision why;
        int rc = arena_plan_validate(p, &j->plan, &why);
        if (rc == ARENA_ECONFLICT) {
            arena_collision_describe(p, &j->plan, &why, error, sizeof error);
        } else if (rc != ARENA_OK) {
            snprintf(error, sizeof error, "validator: %s", arena_strerror(rc));
        } else if ((rc = arena_plan_metrics(p, &j->plan, &m)) != ARENA_OK) {
            snprintf(error, sizeof error, "metrics: %s", arena_strerror(rc));
        } else {
            valid = 1;
        }
    }
    if (!valid) {
        b->any_invalid = 1;
        /* The table shows the message under the row; CSV has no column for
         * it and --quiet shows nothing, so say it where a person will see. */
        if (b->out != &arena_output_table)
            say(b, "%s on %s: %s", j->pl->name, g->src.spec, error);
    }
    double nan = NAN;
    struct arena_bench_row row = {
        .src = &g->src,
        .bounds = &g->bounds,
        .planner = j->pl->name,
        .valid = valid,
        .error = valid ? NULL : error,
        .metrics = valid ? &m : NULL,
        .median_ns = valid ? st->median_ns : nan,
        .mean_ns = valid ? st->mean_ns : nan,
        .stddev_ns = valid ? st->stddev_ns : nan,
        .iterations = valid ? st->iterations : 0,
        .repetitions = st->repetitions,
        .scratch_bytes = j->scratch_size,
    };
    if (b->store) {
        struct arena_result_info info = {
            .planner = row.planner,
            .valid = valid,
            .error = row.error,
            .metrics = row.metrics,
            .plan_ns_median = row.median_ns,
            .plan_ns_mean = row.mean_ns,
            .plan_ns_stddev = row.stddev_ns,
            .iterations = row.iterations,
            .scratch_bytes = row.scratch_bytes,
        };
        const struct arena_plan *keep = planned && !b->args.no_placements ? &j->plan : NULL;
        int64_t id = 0;
        if (arena_store_add_result(b->store, b->run_id, g->db_id, &info, p, keep, &id) !=
            ARENA_OK) {
            say(b, "%s: %s", b->args.db, arena_store_error(b->store));
            b->db_failed = 1;
        }
    }
    emit(b, g, &row);
    arena_progress_step(&b->progress);
    release(j);
}

/* ---- set-up ---- */

static int list_everything(void)
{
    printf("Graph families (--graph family:key=value,...; missing keys take these defaults):\n");
    for (size_t i = 0; i < arena_family_count(); i++) {
        const struct arena_family_info *f = arena_family_at(i);
        printf("  %-18s %s\n  %-18s %s\n", f->name, f->summary, "", f->params);
    }
    printf("\nSuites (--graph NAME):\n");
    const char *const suites[] = {"all", "scaling"};
    for (size_t i = 0; i < 2; i++) {
        size_t n = 0;
        arena_bench_suite(suites[i], &n);
        printf("  %-18s %zu graphs\n", suites[i], n);
    }
    printf("\nFiles: a path to a MiniMalloc CSV problem or a graph file.\n");
    printf("\nPlanners (--planner a,b or all):\n");
    for (size_t i = 0; i < arena_planner_count(); i++) {
        const struct arena_planner *pl = arena_planner_at(i);
        printf("  %-26s %s\n", pl->name, pl->summary);
    }
    return 0;
}

/* Expands suites and drops repeated items, keeping the first. */
static int expand(const struct arena_bench_args *a, const char ***items, size_t *n)
{
    *items = NULL;
    *n = 0;
    for (size_t i = 0; i < a->n_graphs; i++) {
        size_t k = 1;
        const char *const *list = arena_bench_suite(a->graphs[i], &k);
        const char *one[1] = {a->graphs[i]};
        if (!list) list = one;
        for (size_t s = 0; s < k; s++) {
            size_t seen = 0;
            while (seen < *n && strcmp((*items)[seen], list[s]) != 0) seen++;
            if (seen < *n) continue;
            const char **grown = realloc(*items, (*n + 1) * sizeof *grown);
            if (!grown) return ARENA_ENOMEM;
            grown[(*n)++] = list[s];
            *items = grown;
        }
    }
    return ARENA_OK;
}

static int load_graphs(struct bench *b)
{
    const char **items = NULL;
    size_t n = 0;
    if (expand(&b->args, &items, &n) != ARENA_OK) {
        say(b, "out of memory");
        return 2;
    }
    b->graphs = calloc(n ? n : 1, sizeof *b->graphs);
    if (!b->graphs) {
        free(items);
        say(b, "out of memory");
        return 2;
    }
    int status = 0;
    for (size_t i = 0; i < n && !status && !stop_signal; i++) {
        struct graph_slot *g = &b->graphs[b->n_graphs];
        char err[512] = "";
        int rc = arena_source_load(items[i], b->args.alignment, b->args.seed, &g->src, err,
                                   sizeof err);
        if (rc != ARENA_OK) {
            say(b, "--graph '%s': %s", items[i], err[0] ? err : arena_strerror(rc));
            status = 2;
            break;
        }
        size_t bad = 0;
        rc = arena_problem_check(&g->src.problem, &bad);
        if (rc == ARENA_OK) rc = arena_problem_bounds(&g->src.problem, &g->bounds);
        if (rc != ARENA_OK) {
            say(b, "--graph '%s': %s", items[i], arena_strerror(rc));
            arena_source_free(&g->src);
            status = 2;
            break;
        }
        size_t dup = 0;
        while (dup < b->n_graphs && !(strcmp(b->graphs[dup].src.spec, g->src.spec) == 0 &&
                                      b->graphs[dup].src.fingerprint == g->src.fingerprint))
            dup++;
        if (dup < b->n_graphs) {
            arena_source_free(&g->src);
            continue;
        }
        b->n_graphs++;
    }
    free(items);
    return status;
}

static int make_parents(const char *path)
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

/* --export-csv: each problem into dir as NAME-FP.csv, NAME the canonical spec
 * with every character outside [A-Za-z0-9.=+-] made '_' (at most 96), FP the
 * fingerprint's first 8 hex digits, so two sources never share a file and an
 * input CSV is never overwritten by its own export. */
static int export_graphs(struct bench *b)
{
    const char *dir = b->args.export_dir;
    char path[4096];
    snprintf(path, sizeof path, "%s/x", dir);
    int e = make_parents(path);
    if (e != 0) {
        say(b, "--export-csv: cannot create '%s': %s", dir, strerror(e));
        return 2;
    }
    for (size_t i = 0; i < b->n_graphs; i++) {
        const struct arena_source *src = &b->graphs[i].src;
        char name[97];
        size_t k = 0;
        for (const char *c = src->spec; *c && k < sizeof name - 1; c++)
            name[k++] = (isalnum((unsigned char)*c) || strchr(".=+-", *c)) ? *c : '_';
        name[k] = '\0';
        int len = snprintf(path, sizeof path, "%s/%s-%08x.csv", dir, name,
                           (unsigned)(src->fingerprint >> 32));
        if (len < 0 || (size_t)len >= sizeof path) {
            say(b, "--export-csv: '%s': path too long", dir);
            return 2;
        }
        char err[512] = "";
        int rc = arena_csv_write(path, &src->problem, err, sizeof err);
        if (rc != ARENA_OK) {
            say(b, "--export-csv: %s", err[0] ? err : arena_strerror(rc));
            return 2;
        }
        if (!b->args.quiet) printf("%s\t%s\n", src->spec, path);
    }
    return 0;
}

static int open_store(struct bench *b, int argc, char **argv)
{
    if (!b->args.db) return 0;
    int e = make_parents(b->args.db);
    if (e) {
        say(b, "--db %s: cannot create its directory: %s", b->args.db, strerror(e));
        return 2;
    }
    char err[600] = "";
    if (arena_store_open(b->args.db, &b->store, err, sizeof err) != ARENA_OK) {
        say(b, "%s", err);
        return 2;
    }
    struct arena_runinfo ri;
    arena_runinfo_collect(&ri, argc, argv);
    struct arena_run_info run = {
        .started_at = ri.started_at,
        .git_rev = arena_build_git_rev(),
        .compiler = arena_build_compiler(),
        .cpu = ri.cpu,
        .host = ri.host,
        .command = ri.command ? ri.command : "bench",
        .seed = b->args.seed,
    };
    int rc = arena_store_add_run(b->store, &run, &b->run_id);
    arena_runinfo_free(&ri);
    for (size_t i = 0; rc == ARENA_OK && i < b->n_graphs; i++)
        rc = arena_store_add_graph(b->store, &b->graphs[i].src, &b->graphs[i].bounds,
                                   &b->graphs[i].db_id);
    if (rc != ARENA_OK) {
        say(b, "%s: %s", b->args.db, arena_store_error(b->store));
        return 2;
    }
    return 0;
}

static int start_gbench(struct bench *b)
{
    const struct arena_bench_args *a = &b->args;
    size_t n = 3 + a->n_gbench_flags;
    char **argv = calloc(n + 1, sizeof *argv);
    char reps[48], min_time[64], name[] = "bench";
    if (!argv) return 2;
    snprintf(reps, sizeof reps, "--benchmark_repetitions=%d", a->repetitions);
    snprintf(min_time, sizeof min_time, "--benchmark_min_time=%g", a->min_time);
    argv[0] = name;
    argv[1] = reps;
    argv[2] = min_time;
    for (size_t i = 0; i < a->n_gbench_flags; i++) argv[3 + i] = a->gbench_flags[i];
    char err[300] = "";
    int rc = arena_gbench_init((int)n, argv, err, sizeof err);
    free(argv);
    if (rc != 0) {
        say(b, "%s", err);
        return 2;
    }
    return 0;
}

static int register_jobs(struct bench *b)
{
    int reps_given = b->args.repetitions_set;
    for (size_t i = 0; i < b->args.n_gbench_flags; i++)
        if (strncmp(b->args.gbench_flags[i], "--benchmark_repetitions", 23) == 0) reps_given = 1;
    b->n_jobs = b->n_graphs * b->args.n_planners;
    b->jobs = calloc(b->n_jobs ? b->n_jobs : 1, sizeof *b->jobs);
    if (!b->jobs) return ARENA_ENOMEM;
    for (size_t g = 0; g < b->n_graphs; g++) {
        for (size_t k = 0; k < b->args.n_planners; k++) {
            struct job *j = &b->jobs[g * b->args.n_planners + k];
            j->b = b;
            j->g = g;
            j->pl = b->args.planners[k];
            size_t len = strlen(b->graphs[g].src.spec) + strlen(j->pl->name) + 2;
            char *name = malloc(len);
            if (!name) return ARENA_ENOMEM;
            snprintf(name, len, "%s/%s", b->graphs[g].src.spec, j->pl->name);
            struct arena_gbench_spec spec = {
                .name = name,
                .setup = job_setup,
                .iter = job_iter,
                .done = job_done,
                .ctx = j,
                .repetitions = !reps_given && b->graphs[g].src.problem.n >= ARENA_BENCH_LARGE_N
                                   ? ARENA_BENCH_LARGE_REPETITIONS
                                   : 0,
            };
            int rc = arena_gbench_register(&spec);
            free(name);
            if (rc != 0) return ARENA_EINVAL;
        }
    }
    return ARENA_OK;
}

/* --replay and --founding-table: real allocators (and, for the table, the
 * planners once each) instead of Google Benchmark's timing (bench/replay.c). */
static int replay_graphs(struct bench *b)
{
    const struct arena_bench_args *a = &b->args;
    unsigned mask = a->replay ? a->replay : (1u << ARENA_REPLAY_ALLOCATORS) - 1;
    FILE *out = a->quiet ? NULL : stdout;
    for (size_t g = 0; g < b->n_graphs && !stop_signal; g++) {
        struct graph_slot *s = &b->graphs[g];
        int status = a->founding_table
                         ? arena_founding_table(&s->src, &s->bounds, mask, a->frames,
                                                b->n_graphs == 1, b->store, b->run_id,
                                                s->db_id, out)
                         : arena_replay_graph(&s->src, &s->bounds, mask, a->frames, b->store,
                                              b->run_id, s->db_id, out);
        if (status) return status;
    }
    return stop_signal ? 128 + stop_signal : 0;
}

static int measure(struct bench *b, int argc, char **argv)
{
    char err[700] = "";
    int status;
    int show = !b->args.quiet && isatty(fileno(stderr));
    arena_progress_init(&b->progress, show, 0, stderr);
    if ((status = start_gbench(b)) != 0) return status;
    if ((status = load_graphs(b)) != 0) return status;
    if (stop_signal) return 128 + stop_signal;
    if (b->args.export_dir) return export_graphs(b);
    if ((status = open_store(b, argc, argv)) != 0) return status;
    if (b->args.replay || b->args.founding_table) return replay_graphs(b);
    if (register_jobs(b) != ARENA_OK) {
        say(b, "cannot register the benchmarks");
        return 2;
    }
    b->progress.total = b->n_jobs;
    if (!b->args.quiet) {
        if (b->args.format == ARENA_FORMAT_CSV) b->out = &arena_output_csv;
        else if (b->args.format == ARENA_FORMAT_JSON) b->out = &arena_output_json;
        else b->out = &arena_output_table;
        b->out->begin(stdout);
    }
    if (arena_gbench_run(err, sizeof err) < 0) {
        say(b, "Google Benchmark: %s", err);
        return 2;
    }
    arena_progress_clear(&b->progress);
    if (b->out) {
        b->out->end(stdout);
        fflush(stdout);
    }
    if (stop_signal) {
        say(b, "stopped by signal %d after %zu of %zu results%s", (int)stop_signal,
            b->progress.done, b->progress.total,
            b->store ? "; every finished result is stored" : "");
        return 128 + stop_signal;
    }
    if (b->db_failed) return 2;
    return b->any_invalid ? 1 : 0;
}

int arena_bench_run(const struct arena_bench_args *args, int argc, char **argv)
{
    struct sigaction act, old_int, old_term;
    memset(&act, 0, sizeof act);
    act.sa_handler = on_signal;
    sigemptyset(&act.sa_mask);
    stop_signal = 0;
    sigaction(SIGINT, &act, &old_int);
    sigaction(SIGTERM, &act, &old_term);

    struct bench b;
    memset(&b, 0, sizeof b);
    b.args = *args; /* borrowed: the caller frees what it points to */
    int status = measure(&b, argc, argv);

    arena_gbench_clear();
    for (size_t i = 0; i < b.n_jobs; i++) release(&b.jobs[i]);
    free(b.jobs);
    for (size_t i = 0; i < b.n_graphs; i++) arena_source_free(&b.graphs[i].src);
    free(b.graphs);
    arena_store_close(b.store);
    fflush(stdout);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return status;
}

int arena_bench_main(int argc, char **argv)
{
    struct arena_bench_args args;
    char err[700] = "";
    int status = arena_bench_args_parse(argc, argv, &args, err, sizeof err);
    if (status != ARENA_OK) {
        say(NULL, "%s", err[0] ? err : arena_strerror(status));
        status = 2;
    } else if (args.help) {
        fputs(arena_bench_usage(), stdout);
    } else if (args.version) {
        printf("bench (arenabench) %s, git %s, %s\n", arena_build_version(),
               arena_build_git_rev(), arena_build_compiler());
    } else if (args.list) {
        status = list_everything();
    } else {
        /* The names were resolved through the registry by the parser. */
        status = arena_bench_run(&args, argc, argv);
    }
    arena_bench_args_free(&args);
    fflush(stdout);
    return status;
}
