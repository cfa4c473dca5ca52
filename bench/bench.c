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
 * stored: planners are deterministic. A search planner (ARENA_KIND_SEARCH)
 * runs for up to its time limit, so it is timed by exactly one call.
 *
 * Nothing printed is missing from the database: a result is stored before
 * it is shown, and the first failed store (or failed write to stdout) stops
 * the run with exit 2, saying how many results were not measured. The runs
 * row and each graph row are written with the first result that needs
 * them, so a run that measures nothing leaves no empty run behind. */
#include "bench/bench.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/args.h"
#include "bench/export_plan.h"
#include "bench/gbench.h"
#include "bench/output.h"
#include "bench/progress.h"
#include "bench/replay.h"
#include "bench/runinfo.h"
#include "bench/shard.h"
#include "bench/plot.h"
#include "bench/subcommands.h"
#include "bench/suites.h"
#include "graphs/files.h"
#include "graphs/source.h"
#include "graphs/sweep.h"
#include "planners/alias.h"
#include "planners/optimal.h"
#include "planners/planner.h"
#include "results/store.h"

/* The signal that asked us to stop (0: none); a second signal exits. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    if (stop_signal) _exit(128 + sig);
    stop_signal = sig;
}

/* The store's stop hook: a signal ends a wait for another process's lock. */
static int stop_requested(void *ctx)
{
    (void)ctx;
    return stop_signal != 0;
}

struct graph_slot {
    struct arena_source src;
    struct arena_bounds bounds;
    /* With alias candidates, the planners plan merge.merged (the in-place
     * pre-pass, planners/alias.h) and their plans are expanded back to the
     * source's problem; without, they plan the source's problem itself. */
    struct arena_alias_merge merge;
    int merged;
    int64_t db_id; /* 0 until the graph's first result is stored */
    int header_done;
};

struct bench;

struct job {
    struct bench *b;
    size_t g;
    const struct arena_planner *pl;
    void *scratch;
    size_t scratch_size;
    struct arena_plan plan;   /* of the problem the planner sees */
    uint64_t *full;           /* merged: the plan expanded to every tensor */
    int prepared, prep_rc, rc, shown;
    int once; /* a search planner: one timed call */
};

struct bench {
    struct arena_bench_args args;
    struct graph_slot *graphs;
    size_t n_graphs;
    struct job *jobs;
    size_t n_jobs;
    struct arena_store *store;
    int64_t run_id; /* 0 until the first result is stored */
    int argc;
    char **argv;
    const struct arena_output *out; /* NULL with --quiet */
    void *out_state;
    struct arena_progress progress;
    int any_invalid, db_failed, out_failed;
    size_t refused; /* results a planner refused by its documented limit */
    struct arena_runenv env; /* governor and load as the run starts */
};

/* Every message is one line on stderr, whatever the text it quotes holds. */
static void say(struct bench *b, const char *fmt, ...)
{
    if (b) arena_progress_clear(&b->progress);
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

/* A failed store, a failed write or a signal ends the run. */
static int halted(const struct bench *b)
{
    return stop_signal || b->db_failed || b->out_failed;
}

/* The one check of every write to stdout: flushes and, on the first
 * failure (a full disk, a closed stdout), says so and stops the run. */
static int stdout_ok(struct bench *b)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return 1;
    if (b && b->out_failed) return 0;
    say(b, "writing to stdout: %s", errno ? strerror(errno) : "write error");
    if (b) b->out_failed = 1;
    return 0;
}

/* ---- the benchmark callbacks ---- */

/* The problem the planners see: the merged one under an in-place rule with
 * candidates, else the source's. */
static const struct arena_problem *planned_problem(const struct graph_slot *g)
{
    return g->merged ? &g->merge.merged : &g->src.problem;
}

static void release(struct job *j)
{
    free(j->scratch);
    free(j->plan.offsets);
    free(j->full);
    j->scratch = NULL;
    j->plan.offsets = NULL;
    j->full = NULL;
}

static int job_setup(void *ctx)
{
    struct job *j = ctx;
    struct bench *b = j->b;
    if (halted(b)) return 1;
    const struct arena_problem *p = planned_problem(&b->graphs[j->g]);
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
    j->rc = j->pl->plan(planned_problem(&j->b->graphs[j->g]), &j->b->args.options, j->scratch,
                        j->scratch_size, &j->plan);
    return j->rc != ARENA_OK;
}

static void emit(struct bench *b, struct graph_slot *g, const struct arena_bench_row *row)
{
    if (!b->out) return;
    arena_progress_clear(&b->progress);
    if (!g->header_done) {
        g->header_done = 1;
        if (b->out->graph) b->out->graph(stdout, b->out_state, &g->src, &g->bounds);
    }
    b->out->row(stdout, b->out_state, row);
    stdout_ok(b);
}

/* What bench checks of a valid plan beyond the validator: its claims (after
 * arena_plan_settle; `claimed` is the status the planner gave) hold
 * together, and every figure fits the database's integers. In decision
 * mode a search planner's "feasible" means "fits the capacity". NULL when
 * all is well, else the reason, written into buf. */
static const char *claims_wrong(const struct arena_plan *plan, enum arena_plan_status claimed,
                                int search, const struct arena_plan_options *opt, char *buf,
                                size_t len)
{
    if (plan->arena > ARENA_BENCH_INT_MAX)
        snprintf(buf, len, "arena %llu B is above 2^63-1 B, the largest figure the results"
                           " database stores", (unsigned long long)plan->arena);
    else if (plan->nodes > ARENA_BENCH_INT_MAX)
        snprintf(buf, len, "planner reports %llu nodes, above 2^63-1",
                 (unsigned long long)plan->nodes);
    else if (plan->bound > plan->arena)
        snprintf(buf, len, "planner claims a lower bound of %llu B above its own arena of %llu B",
                 (unsigned long long)plan->bound, (unsigned long long)plan->arena);
    else if (plan->status == ARENA_PLAN_OPTIMAL && plan->bound != plan->arena)
        snprintf(buf, len, "planner claims optimal, but its arena %llu B is above its bound %llu B",
                 (unsigned long long)plan->arena, (unsigned long long)plan->bound);
    else if (plan->status == ARENA_PLAN_INFEASIBLE &&
             (opt->capacity == 0 || plan->bound <= opt->capacity))
        snprintf(buf, len, "planner claims infeasible, but its bound %llu B does not exceed"
                           " the capacity %llu B",
                 (unsigned long long)plan->bound, (unsigned long long)opt->capacity);
    else if (search && opt->capacity && claimed == ARENA_PLAN_FEASIBLE &&
             plan->arena > opt->capacity)
        snprintf(buf, len, "planner claims a plan within the capacity %llu B, but its arena is"
                           " %llu B",
                 (unsigned long long)opt->capacity, (unsigned long long)plan->arena);
    else if ((unsigned)plan->status > ARENA_PLAN_LIMIT)
        snprintf(buf, len, "planner returned status %d, which is none of feasible, optimal,"
                           " infeasible, limit", (int)plan->status);
    else
        return NULL;
    return buf;
}

/* The runs row and the graph's row, written with the first result that
 * needs them. */
static int store_run_and_graph(struct bench *b, struct graph_slot *g)
{
    int rc = ARENA_OK;
    if (!b->run_id) {
        struct arena_runinfo ri;
        arena_runinfo_collect(&ri, b->argc, b->argv);
        struct arena_run_info run = {
            .started_at = ri.started_at,
            .git_rev = arena_build_git_rev(),
            .compiler = arena_build_compiler(),
            .cpu = ri.cpu,
            .host = ri.host,
            .command = ri.command ? ri.command : "bench",
            .seed = b->args.seed,
            .governor = b->env.governor,
            .loadavg = b->env.loadavg,
        };
        rc = arena_store_add_run(b->store, &run, &b->run_id);
        arena_runinfo_free(&ri);
    }
    if (rc == ARENA_OK && !g->db_id)
        rc = arena_store_add_graph(b->store, &g->src, &g->bounds, &g->db_id);
    return rc;
}

static void job_done(void *ctx, const struct arena_gbench_stats *st)
{
    struct job *j = ctx;
    struct bench *b = j->b;
    struct graph_slot *g = &b->graphs[j->g];
    const struct arena_problem *p = &g->src.problem;
    /* Not run (filtered out), or stopped: nothing half-measured is kept. */
    if ((!st->measured && !st->error) || halted(b)) {
        release(j);
        return;
    }
    char error[600] = "";
    struct arena_metrics m;
    int valid = 0, planned = 0;
    struct arena_plan full = j->plan; /* the plan of every tensor of p */
    const struct arena_plan *shown = g->merged ? &full : &j->plan;
    /* A documented refusal (min-cost-flow above its size limit) is an
     * answer, not a failure: stored as not valid with "refused: why", and
     * it does not make the run exit 1. */
    int refused = j->prep_rc == ARENA_ETOOBIG || (j->prep_rc == ARENA_OK && j->rc == ARENA_ETOOBIG);
    if (refused) {
        snprintf(error, sizeof error, "refused: %s", arena_strerror(ARENA_ETOOBIG));
    } else if (j->prep_rc != ARENA_OK) {
        snprintf(error, sizeof error, "preparing the planner: %s", arena_strerror(j->prep_rc));
    } else if (j->rc != ARENA_OK) {
        snprintf(error, sizeof error, "planner failed: %s", arena_strerror(j->rc));
    } else if (st->error || st->repetitions == 0) {
        snprintf(error, sizeof error, "Google Benchmark: %s",
                 st->error ? st->message : "no repetition was reported");
    } else {
        planned = 1;
        struct arena_collision why;
        int rc = ARENA_OK;
        if (g->merged) { /* the plan of every tensor, checked against the candidates */
            full.n = p->n;
            full.offsets = j->full = malloc((p->n ? p->n : 1) * sizeof *j->full);
            if (!full.offsets) rc = ARENA_ENOMEM;
            else arena_alias_expand(&g->merge, &j->plan, &full);
        }
        if (rc == ARENA_OK) rc = arena_plan_validate(p, shown, &why);
        if (rc == ARENA_ECONFLICT) {
            arena_collision_describe(p, shown, &why, error, sizeof error);
        } else if (rc != ARENA_OK) {
            snprintf(error, sizeof error, "validator: %s", arena_strerror(rc));
        } else if ((rc = g->merged ? arena_alias_metrics(p, &g->merge, &j->plan, &m)
                                   : arena_plan_metrics(p, &j->plan, &m)) != ARENA_OK) {
            snprintf(error, sizeof error, "metrics: %s", arena_strerror(rc));
        } else {
            enum arena_plan_status claimed = j->plan.status;
            arena_plan_settle(&j->plan, g->bounds.inplace_bound);
            full.status = j->plan.status;
            full.bound = j->plan.bound;
            valid = !claims_wrong(&j->plan, claimed, j->once, &b->args.options, error,
                                  sizeof error);
        }
    }
    if (refused) b->refused++;
    else if (!valid) b->any_invalid = 1;
    double nan = NAN;
    double spread = valid && st->mean_ns > 0 ? st->stddev_ns / st->mean_ns : nan;
    struct arena_bench_row row = {
        .src = &g->src,
        .bounds = &g->bounds,
        .planner = j->pl->name,
        .valid = valid,
        .refused = refused,
        .error = valid ? NULL : error,
        .metrics = valid ? &m : NULL,
        .median_ns = valid ? st->median_ns : nan,
        .mean_ns = valid ? st->mean_ns : nan,
        .stddev_ns = valid ? st->stddev_ns : nan,
        .iterations = valid ? st->iterations : 0,
        .repetitions = st->repetitions,
        .scratch_bytes = j->scratch_size,
        /* A search planner's one call is its figure by design ("once"). */
        .noisy = valid && !j->once && ((isfinite(spread) && spread > ARENA_NOISY_SPREAD) ||
                                       st->iterations == 1),
        .timed_once = j->once,
        .status = j->plan.status,
        .bound = j->plan.bound,
        .nodes = j->plan.nodes,
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
            .noisy = row.noisy,
            .timed_once = row.timed_once,
            .status = row.status,
            .bound = row.bound,
            .nodes = row.nodes,
            .names = g->src.names,
            /* Only a search planner reads the options (planner.h): for the
             * others they change nothing and are not part of the result. */
            .options = j->pl->kind == ARENA_KIND_SEARCH ? &b->args.options : NULL,
            .inplace = arena_inplace_name(g->src.inplace),
            .inplace_bound = g->bounds.inplace_bound,
            .shares = g->merged ? g->merge.takes : NULL,
            /* only planner optimal reads its engine option */
            .optimal_engine = strcmp(j->pl->name, "optimal") == 0
                                  ? arena_optimal_engine_name(b->args.options.optimal_engine)
                                  : NULL,
        };
        const struct arena_plan *keep =
            planned && !b->args.no_placements && (!g->merged || j->full) ? shown : NULL;
        int64_t id = 0;
        int rc = store_run_and_graph(b, g);
        if (rc == ARENA_OK)
            rc = arena_store_add_result(b->store, b->run_id, g->db_id, &info, p, keep, &id);
        if (rc != ARENA_OK) {
            /* Not shown, since it is not stored; the run stops here. */
            b->db_failed = 1;
            size_t left = b->progress.total - b->progress.done;
            if (!stop_signal) /* a signal ended the wait: the stop message says it */
                say(b, "%s: %s (%s on %s); the run stops: %zu of %zu results not measured or"
                       " stored",
                    b->args.db, arena_store_error(b->store), j->pl->name, g->src.spec, left,
                    b->progress.total);
            release(j);
            return;
        }
    }
    /* The table shows the message under the row; CSV has no column for it
     * and --quiet shows nothing, so say it where a person will see. */
    if (!valid && !(b->out && b->out->errors_inline))
        say(b, "%s on %s: %s", j->pl->name, g->src.spec, error);
    /* what a planner could not do, on stderr: the plan stands */
    if (valid && (j->plan.notes & ARENA_PLAN_NOTE_SAT_MEMORY))
        say(b, "note: %s on %s: the SAT engine was skipped on a part whose encoding would"
               " need more than the engine's %llu MiB", j->pl->name, g->src.spec,
            (unsigned long long)(ARENA_OPTIMAL_SAT_MEMORY >> 20));
    emit(b, g, &row);
    arena_progress_step(&b->progress);
    release(j);
}

/* ---- set-up ---- */

/* --list: the families, suites and planners for a person; with --format
 * csv the planner registry alone as name,kind,summary (for scripts; bench
 * plot reads the registry in-process). */
static int expand(const struct arena_bench_args *a, char ***items, size_t *n, char *err,
                  size_t errlen);
static void free_items(char **items, size_t n);

static int list_everything(const struct arena_bench_args *a)
{
    if (a->n_graphs) { /* --list --graph: what the suites and sweeps stand for */
        char **items = NULL, err[512] = "";
        size_t n = 0;
        int rc = expand(a, &items, &n, err, sizeof err);
        if (rc != ARENA_OK) say(NULL, "--graph: %s", err);
        /* Every item checked before any is printed: a bad spec is one line. */
        for (size_t i = 0; rc == ARENA_OK && i < n; i++)
            if ((rc = arena_source_check(items[i], err, sizeof err)) != ARENA_OK)
                say(NULL, "--graph '%s': %s", items[i], err);
        for (size_t i = 0; rc == ARENA_OK && i < n; i++) printf("%s\n", items[i]);
        free_items(items, n);
        return rc == ARENA_OK ? 0 : 2;
    }
    if (strcmp(a->format->name, "csv") == 0) {
        printf("name,kind,summary\n");
        for (size_t i = 0; i < arena_planner_count(); i++) {
            const struct arena_planner *pl = arena_planner_at(i);
            printf("%s,%s,\"", pl->name, arena_planner_kind_name(pl->kind));
            for (const char *c = pl->summary; *c; c++) {
                if (*c == '"') putchar('"');
                putchar(*c);
            }
            printf("\"\n");
        }
        return 0;
    }
    printf("Graph families (--graph family:key=value,...; missing keys take these defaults):\n");
    for (size_t i = 0; i < arena_family_count(); i++) {
        const struct arena_family_info *f = arena_family_at(i);
        printf("  %-18s %s\n  %-18s %s\n", f->name, f->summary, "", f->params);
    }
    printf("\nSuites (--graph NAME):\n");
    const char *const suites[] = {"all", "scaling", "exact", "exact-slack", "models"};
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++) {
        size_t n = 0;
        arena_bench_suite(suites[i], &n);
        printf("  %-18s %zu graphs\n", suites[i], n);
    }
    printf("\nModels: a TensorFlow Lite file (.tflite); FILE#N plans subgraph N (default 0).\n");
    printf("        an ONNX file (.onnx) with every dim known (scripts/onnx-shape pins them).\n");
    printf("\nFiles: a path to a MiniMalloc CSV problem or a graph file.\n");
    printf("\nPlanners (--planner a,b or all), with their kind:\n");
    for (size_t i = 0; i < arena_planner_count(); i++) {
        const struct arena_planner *pl = arena_planner_at(i);
        printf("  %-26s %-15s %s\n", pl->name, arena_planner_kind_name(pl->kind), pl->summary);
    }
    return 0;
}

/* A set of (text, number) pairs, open addressing on FNV-1a: drops repeated
 * specs of a sweep in linear time (a sweep may name 10^6 of them). The
 * texts are borrowed. */
struct seen {
    const char **text;
    uint64_t *num;
    size_t cap, n;
};

static uint64_t seen_hash(const char *t, uint64_t num)
{
    uint64_t h = 0xcbf29ce484222325ull ^ num;
    for (; *t; t++) h = (h ^ (unsigned char)*t) * 0x100000001b3ull;
    return h;
}

/* 1 added, 0 already there, -1 out of memory. */
static int seen_add(struct seen *s, const char *t, uint64_t num)
{
    if (2 * (s->n + 1) > s->cap) {
        struct seen grown = {NULL, NULL, s->cap ? 2 * s->cap : 64, 0};
        grown.text = calloc(grown.cap, sizeof *grown.text);
        grown.num = calloc(grown.cap, sizeof *grown.num);
        if (!grown.text || !grown.num) {
            free(grown.text);
            free(grown.num);
            return -1;
        }
        for (size_t i = 0; i < s->cap; i++)
            if (s->text[i]) seen_add(&grown, s->text[i], s->num[i]);
        free(s->text);
        free(s->num);
        *s = grown;
    }
    size_t i = (size_t)seen_hash(t, num) & (s->cap - 1);
    for (; s->text[i]; i = (i + 1) & (s->cap - 1))
        if (s->num[i] == num && strcmp(s->text[i], t) == 0) return 0;
    s->text[i] = t;
    s->num[i] = num;
    s->n++;
    return 1;
}

static void seen_free(struct seen *s)
{
    free(s->text);
    free(s->num);
}

/* Expands suites and sweeps (graphs/sweep.h) and drops repeated items,
 * keeping the first. *items are malloc'd, freed with free_items(). */
static void free_items(char **items, size_t n)
{
    for (size_t i = 0; i < n; i++) free(items[i]);
    free(items);
}

static int expand(const struct arena_bench_args *a, char ***items, size_t *n, char *err,
                  size_t errlen)
{
    *items = NULL;
    *n = 0;
    struct seen seen = {0};
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
                int added = seen_add(&seen, specs[x], 0);
                if (added < 0) rc = ARENA_ENOMEM;
                else if (added) (*items)[(*n)++] = specs[x], specs[x] = NULL;
            }
            free_items(specs, n_specs); /* the repeats, or all on error */
            if (rc != ARENA_OK) {
                if (rc == ARENA_ENOMEM) snprintf(err, errlen, "out of memory");
                seen_free(&seen);
                return rc;
            }
        }
    }
    seen_free(&seen);
    return ARENA_OK;
}

static int load_graphs(struct bench *b)
{
    char **items = NULL;
    size_t n = 0;
    char xerr[512] = "";
    if (expand(&b->args, &items, &n, xerr, sizeof xerr) != ARENA_OK) {
        say(b, "--graph: %s", xerr);
        return 2;
    }
    b->graphs = calloc(n ? n : 1, sizeof *b->graphs);
    if (!b->graphs) {
        free_items(items, n);
        say(b, "out of memory");
        return 2;
    }
    int status = 0;
    struct seen loaded = {0}; /* (canonical spec, fingerprint) of the graphs kept */
    for (size_t i = 0; i < n && !status && !stop_signal; i++) {
        struct graph_slot *g = &b->graphs[b->n_graphs];
        char err[512] = "";
        struct arena_load_options lo = {
            .alignment = b->args.alignment, .seed = b->args.seed, .stop = &stop_signal,
            .order = b->args.order, .order_states = b->args.order_states,
            .patch = b->args.patch.rows ? &b->args.patch : NULL, .inplace = b->args.inplace};
        int rc = arena_source_load_with(items[i], &lo, &g->src, err, sizeof err);
        if (rc != ARENA_OK && stop_signal) break; /* measure() reports the signal */
        if (rc != ARENA_OK) {
            say(b, "--graph '%s': %s", items[i], err[0] ? err : arena_strerror(rc));
            status = 2;
            break;
        }
        if (g->src.warning) say(b, "%s", g->src.warning);
        size_t bad = 0;
        rc = arena_problem_check(&g->src.problem, &bad);
        if (rc == ARENA_OK) rc = arena_problem_bounds(&g->src.problem, &g->bounds);
        if (rc == ARENA_OK && g->src.problem.n_alias > 0) {
            rc = arena_alias_merge(&g->src.problem, &g->merge);
            g->merged = rc == ARENA_OK;
        }
        if (rc != ARENA_OK) {
            say(b, "--graph '%s': %s", items[i], arena_strerror(rc));
            arena_source_free(&g->src);
            arena_alias_merge_free(&g->merge);
            g->merged = 0;
            status = 2;
            break;
        }
        int added = seen_add(&loaded, g->src.spec, g->src.fingerprint);
        if (added <= 0) { /* the same canonical spec and problem: kept once */
            arena_source_free(&g->src);
            arena_alias_merge_free(&g->merge);
            g->merged = 0;
            if (added == 0) continue;
            say(b, "out of memory");
            status = 2;
            break;
        }
        b->n_graphs++;
    }
    seen_free(&loaded);
    free_items(items, n);
    return status;
}

/* Figures are SQLite integers: a problem whose total size exceeds 2^63-1 B
 * is refused once loaded, with or without a database, so every run prints
 * only what it could store. */
static int check_figures(struct bench *b)
{
    for (size_t i = 0; i < b->n_graphs; i++) {
        const struct graph_slot *g = &b->graphs[i];
        if (g->bounds.naive_bytes <= ARENA_BENCH_INT_MAX) continue;
        say(b, "--graph '%s': the sizes add up to %llu B, above 2^63-1 B, the largest figure the"
               " results database stores",
            g->src.spec, (unsigned long long)g->bounds.naive_bytes);
        return 2;
    }
    return 0;
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

/* --export-plan: every graph x planner as .csv, C header and source
 * (export_plan.h); --export-tflite: every model x planner as a .tflite
 * copy with TFLM's offline plan (export_tflite.h), every graph a model. */
static int export_plans(struct bench *b)
{
    const char *dirs[2] = {b->args.export_plan_dir, b->args.export_tflite_dir};
    const char *opts[2] = {"--export-plan", "--export-tflite"};
    for (size_t i = 0; dirs[1] && i < b->n_graphs; i++)
        if (strcmp(b->graphs[i].src.family, "tflite") != 0) {
            say(b, "--export-tflite: '%s' is not a .tflite model", b->graphs[i].src.spec);
            return 2;
        }
    for (int k = 0; k < 2; k++) {
        if (!dirs[k]) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/x", dirs[k]);
        int e = make_parents(path);
        if (e != 0) {
            say(b, "%s: cannot create '%s': %s", opts[k], dirs[k], strerror(e));
            return 2;
        }
        for (size_t i = 0; i < b->n_graphs; i++) {
            char err[700] = "";
            FILE *out = b->args.quiet ? NULL : stdout;
            int rc = k == 0 ? arena_export_plans(dirs[k], &b->graphs[i].src, b->args.planners,
                                                 b->args.n_planners, &b->args.options, b->args.head,
                                                 b->args.tail, out, err, sizeof err)
                            : arena_export_tflites(dirs[k], &b->graphs[i].src, b->args.planners,
                                                   b->args.n_planners, &b->args.options, out, err,
                                                   sizeof err);
            if (rc != ARENA_OK) {
                say(b, "%s: %s", opts[k], err[0] ? err : arena_strerror(rc));
                return rc == ARENA_ECONFLICT ? 1 : 2;
            }
        }
    }
    return 0;
}

/* --export-csv: each problem into dir as NAME-FP.csv, NAME the canonical spec
 * with every character outside [A-Za-z0-9.=+-] made '_' (at most 96), FP the
 * fingerprint's first 8 hex digits, so two sources never share a file and an
 * input CSV is never overwritten by its own export. Each is written to
 * NAME-FP.csv.tmp and renamed when whole, so a failed export (a full disk)
 * leaves no partial file that would read back as a smaller problem. */
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
        char tmp[4096 + 8], err[8600] = "";
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        int rc = arena_csv_write(tmp, &src->problem, err, sizeof err);
        if (rc == ARENA_OK && rename(tmp, path) != 0) {
            snprintf(err, sizeof err, "%s: cannot rename to %s: %s", tmp, path, strerror(errno));
            rc = ARENA_EIO;
        }
        if (rc != ARENA_OK) {
            unlink(tmp);
            say(b, "--export-csv: %s", err[0] ? err : arena_strerror(rc));
            return 2;
        }
        if (!b->args.quiet) {
            printf("%s\t%s\n", src->spec, path);
            if (!stdout_ok(b)) return 2;
        }
    }
    return 0;
}

static int open_store(struct bench *b)
{
    if (!b->args.db) return 0;
    int e = make_parents(b->args.db);
    if (e) {
        say(b, "--db %s: cannot create its directory: %s", b->args.db, strerror(e));
        return 2;
    }
    char err[600] = "";
    if (arena_store_open(b->args.db, stop_requested, NULL, &b->store, err, sizeof err) !=
        ARENA_OK) {
        if (stop_signal) return 128 + stop_signal;
        say(b, "%s", err);
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

/* --shard: part[g * n_planners + k] for every graph g and planner k
 * (bench/shard.h); all 1 without --shard. */
static int shard_parts(const struct bench *b, unsigned *part)
{
    size_t np = b->args.n_planners, n = b->n_graphs * np;
    if (!b->args.shard_n) return ARENA_OK;
    const char **spec = malloc((n ? n : 1) * sizeof *spec);
    const char **name = malloc((n ? n : 1) * sizeof *name);
    int rc = spec && name ? ARENA_OK : ARENA_ENOMEM;
    for (size_t i = 0; rc == ARENA_OK && i < n; i++) {
        spec[i] = b->graphs[i / np].src.spec;
        name[i] = b->args.planners[i % np]->name;
    }
    if (rc == ARENA_OK) rc = arena_shard_assign(spec, name, n, b->args.shard_n, part);
    free(spec);
    free(name);
    return rc;
}

static int register_jobs(struct bench *b)
{
    int reps_given = b->args.repetitions_set;
    for (size_t i = 0; i < b->args.n_gbench_flags; i++)
        if (strncmp(b->args.gbench_flags[i], "--benchmark_repetitions", 23) == 0) reps_given = 1;
    size_t np = b->args.n_planners, most = b->n_graphs * np;
    b->n_jobs = 0;
    b->jobs = calloc(most ? most : 1, sizeof *b->jobs);
    unsigned *part = calloc(most ? most : 1, sizeof *part);
    if (!b->jobs || !part || shard_parts(b, part) != ARENA_OK) {
        free(part);
        return ARENA_ENOMEM;
    }
    for (size_t g = 0; g < b->n_graphs; g++) {
        for (size_t k = 0; k < np; k++) {
            if (b->args.shard_n && part[g * np + k] != b->args.shard_k) continue;
            struct job *j = &b->jobs[b->n_jobs++];
            j->b = b;
            j->g = g;
            j->pl = b->args.planners[k];
            j->once = j->pl->kind == ARENA_KIND_SEARCH;
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
            if (j->once) spec.iterations = 1, spec.repetitions = 1;
            int rc = arena_gbench_register(&spec);
            free(name);
            if (rc != 0) {
                free(part);
                return ARENA_EINVAL;
            }
        }
    }
    free(part);
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
        if (b->store && store_run_and_graph(b, s) != ARENA_OK) {
            say(b, "%s", arena_store_error(b->store));
            return 2;
        }
        int status = a->founding_table
                         ? arena_founding_table(&s->src, &s->bounds, mask, a->frames,
                                                b->n_graphs == 1, &a->options, b->store,
                                                b->run_id, s->db_id, out)
                         : arena_replay_graph(&s->src, &s->bounds, mask, a->frames, &a->options,
                                              b->store, b->run_id, s->db_id, out);
        if (status && !stop_signal) return status;
    }
    if (stop_signal) {
        say(b, "stopped by signal %d; the allocator's program was killed%s", (int)stop_signal,
            b->store ? ", every finished replay is stored" : "");
        return 128 + stop_signal;
    }
    return 0;
}

static int measure(struct bench *b)
{
    char err[700] = "";
    int status;
    int show = !b->args.quiet && isatty(fileno(stderr));
    arena_progress_init(&b->progress, show, 0, stderr);
    /* A closed stdout is found before anything is measured. */
    if (!b->args.quiet && fcntl(STDOUT_FILENO, F_GETFD) < 0) {
        say(b, "writing to stdout: %s", strerror(errno));
        return 2;
    }
    if (b->args.pin_cpu >= 0 && arena_runinfo_pin(b->args.pin_cpu, err, sizeof err) != ARENA_OK) {
        say(b, "%s", err);
        return 2;
    }
    arena_runenv_collect(&b->env); /* before this run adds its own load */
    if ((status = start_gbench(b)) != 0) return status;
    if ((status = load_graphs(b)) != 0) return status;
    if (stop_signal) return 128 + stop_signal;
    if ((status = check_figures(b)) != 0) return status;
    if (b->args.export_plan_dir || b->args.export_tflite_dir) return export_plans(b);
    if (b->args.export_dir) return export_graphs(b);
    if ((status = open_store(b)) != 0) return status;
    if (b->args.replay || b->args.founding_table) return replay_graphs(b);
    if (register_jobs(b) != ARENA_OK) {
        say(b, "cannot register the benchmarks");
        return 2;
    }
    b->progress.total = b->n_jobs;
    if (b->n_jobs == 0 && b->args.shard_n) {
        say(b, "--shard %u/%u: no graph x planner job falls in this part; nothing to do",
            b->args.shard_k, b->args.shard_n);
        return 0;
    }
    if (!b->args.quiet) {
        b->out = b->args.format;
        b->out_state = calloc(1, b->out->state_size ? b->out->state_size : 1);
        if (!b->out_state) {
            say(b, "out of memory");
            return 2;
        }
        if (b->out->begin) b->out->begin(stdout, b->out_state);
        if (!stdout_ok(b)) return 2;
    }
    int matched = arena_gbench_run(err, sizeof err);
    if (matched < 0) {
        say(b, "Google Benchmark: %s", err);
        return 2;
    }
    arena_progress_clear(&b->progress);
    if (b->out && !b->out_failed) {
        if (b->out->end) b->out->end(stdout, b->out_state);
        stdout_ok(b);
    }
    if (stop_signal) {
        say(b, "stopped by signal %d after %zu of %zu results%s", (int)stop_signal,
            b->progress.done, b->progress.total,
            b->store ? "; every finished result is stored" : "");
        return 128 + stop_signal;
    }
    if (b->db_failed || b->out_failed) return 2;
    if (b->refused)
        say(b, "%zu result%s refused by %s planner's documented size limit: stored with valid = 0"
               " and the reason ('refused: ...'), not counted as failures",
            b->refused, b->refused == 1 ? "" : "s", b->refused == 1 ? "its" : "their");
    if (b->progress.done == 0) {
        say(b, "nothing was measured: %s",
            matched == 0 ? "--benchmark_filter matched none of the benchmarks (named"
                           " SPEC/PLANNER, e.g. chain:ops=8/naive)"
                         : "no benchmark reported a result");
        return 2;
    }
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
    b.args.options.stop = &stop_signal; /* a signal ends a search planner's call */
    b.argc = argc;
    b.argv = argv;
    int status = measure(&b);

    arena_gbench_clear();
    for (size_t i = 0; i < b.n_jobs; i++) release(&b.jobs[i]);
    free(b.jobs);
    for (size_t i = 0; i < b.n_graphs; i++) {
        arena_source_free(&b.graphs[i].src);
        arena_alias_merge_free(&b.graphs[i].merge);
    }
    free(b.graphs);
    arena_store_close(b.store);
    free(b.out_state);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return status;
}

int arena_bench_main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "merge") == 0) return arena_bench_merge_main(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "stats") == 0) return arena_bench_stats_main(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "plot") == 0) return arena_bench_plot_main(argc - 1, argv + 1);
    struct arena_bench_args args;
    char err[700] = "";
    int status = arena_bench_args_parse(argc, argv, &args, err, sizeof err);
    if (status != ARENA_OK) {
        say(NULL, "%s", err[0] ? err : arena_strerror(status));
        status = 2;
    } else if (args.help) {
        fputs(arena_bench_usage(), stdout);
        fputs(arena_bench_subcommands_usage(), stdout);
    } else if (args.version) {
        printf("bench (arenabench) %s, git %s, %s\n", arena_build_version(),
               arena_build_git_rev(), arena_build_compiler());
    } else if (args.list) {
        status = list_everything(&args);
    } else {
        /* The names were resolved through the registry by the parser. */
        status = arena_bench_run(&args, argc, argv);
    }
    arena_bench_args_free(&args);
    /* --help, --version and --list write only here; a run has said so already. */
    if (status != 2 && !stdout_ok(NULL)) status = 2;
    return status;
}
