/* bench.c — the run (`bench [run]`, bench.h): load every graph (so input
 * errors stop the run before anything is measured), open the database
 * (session.c), then let Google Benchmark time each planner x graph and
 * store each result the moment it is measured.
 *
 * Per planner x graph: the planner's own copy of the problem and options,
 * its scratch and its offsets (guest.h) are made in the benchmark's setup,
 * outside the timing; the timed region is one call of the planner's table
 * function on them (what arena_planner_run does after its argument checks,
 * which are done once beforehand: the problem is checked when loaded and
 * the scratch size is asked once). The plan left by the last timed call is
 * the one validated, measured and stored, once the copies are found
 * unwritten: planners are deterministic. A search planner
 * (ARENA_KIND_SEARCH) runs for up to its time limit, so it is timed by
 * exactly one call. A plugin's calls run in a forked child that times them
 * itself (isolate.h), unless --in-process; a cmd: planner is a program.
 *
 * Nothing printed is missing from the database: a result is stored before
 * it is shown, and the first failed store (or failed write to stdout) stops
 * the run with exit 2, saying how many results were not measured. The runs
 * row and each graph row are written with the first result that needs
 * them, so a run that measures nothing leaves no empty run behind. */
#include "bench/bench.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/args.h"
#include "bench/core/claims.h"
#include "bench/external/cmd.h"
#include "bench/core/gbench.h"
#include "bench/external/guest.h"
#include "bench/external/isolate.h"
#include "bench/core/output.h"
#include "bench/core/progress.h"
#include "bench/core/session.h"
#include "bench/core/shard.h"
#include "bench/core/suites.h"
#include "planners/device.h"
#include "planners/alias.h"
#include "planners/keys.h"
#include "planners/optimal.h"
#include "planners/planner.h"
#include "results/store.h"

struct bench;

/* How a job's planner is called: in process (built-in, a plugin with
 * --in-process), in a forked child (a plugin) or as a program (cmd:). */
enum call { IN_PROCESS, ISOLATED, PROGRAM };
static const char *const timing_name[] = {"in-process", "isolated", "process"};

struct job {
    struct bench *b;
    size_t g;
    size_t k; /* the planner's place in args.planners */
    const struct arena_planner *pl;
    const struct arena_planner_origin *origin;
    enum call call;
    struct arena_plan_options opt; /* the run's options with this planner's key values */
    struct arena_guest guest; /* its own problem, options, scratch, offsets */
    size_t scratch_size;      /* what it asked for */
    struct arena_plan plan;   /* of the problem the planner sees; offsets the guest's */
    uint64_t *full;           /* merged: the plan expanded to every tensor */
    int prepared, prep_rc, rc, shown;
    int once; /* a search planner, an isolated or external call: one timed call
                 (an isolated child times its own calls) */
    char *csv;                /* PROGRAM: the problem's file, written in setup */
    int call_rc;              /* ISOLATED, PROGRAM: ARENA_OK when it answered */
    char call_why[500];       /* else why not */
    struct arena_isolate_answer child; /* ISOLATED: what the child answered */
    struct arena_cmd_timing program;    /* PROGRAM: the group's wall time */
};

struct bench {
    struct arena_session s; /* the graphs, the database, the signals */
    struct job *jobs;
    size_t n_jobs;
    const struct arena_output *out; /* NULL with --quiet */
    void *out_state;
    int any_invalid;
    size_t refused; /* results a planner refused by its documented limit */
    /* Per planner (args.planners' order): its jobs in this run (this part,
     * stored ones included) and those whose result is invalid, measured or
     * found stored by --resume. */
    size_t *jobs_of, *invalid_of;
    size_t stored, stored_invalid; /* --resume, --missing: jobs found stored */
    char *tmpdir;   /* the problems' files of cmd: planners, made when first needed */
    struct arena_known_plan *known; /* per graph: its smallest valid arena this run */
};

/* ---- the benchmark callbacks ---- */

/* The problem the planners see: the merged one under an in-place rule with
 * candidates, else the source's. */
static const struct arena_problem *planned_problem(const struct arena_session_graph *g)
{
    return g->merged ? &g->merge.merged : &g->src.problem;
}

static void release(struct job *j)
{
    arena_guest_release(&j->guest, j->pl);
    arena_guest_free(&j->guest);
    free(j->full);
    j->plan.offsets = NULL;
    j->full = NULL;
    if (j->csv) unlink(j->csv);
    free(j->csv);
    j->csv = NULL;
}

/* A cmd: planner's problem, as a file in the run's temporary folder. */
static int write_problem(struct job *j, const struct arena_problem *p)
{
    struct bench *b = j->b;
    char err[600] = "";
    if (!b->tmpdir) {
        const char *base = getenv("TMPDIR");
        size_t len = strlen(base && base[0] ? base : "/tmp") + 24;
        b->tmpdir = malloc(len);
        if (!b->tmpdir) return ARENA_ENOMEM;
        snprintf(b->tmpdir, len, "%s/arenabench-cmd.XXXXXX", base && base[0] ? base : "/tmp");
        if (!mkdtemp(b->tmpdir)) {
            snprintf(j->call_why, sizeof j->call_why, "cannot make a folder %s: %s", b->tmpdir,
                     strerror(errno));
            free(b->tmpdir);
            b->tmpdir = NULL;
            return ARENA_EIO;
        }
    }
    size_t len = strlen(b->tmpdir) + 40;
    j->csv = malloc(len);
    if (!j->csv) return ARENA_ENOMEM;
    snprintf(j->csv, len, "%s/problem-%zu.csv", b->tmpdir, (size_t)(j - b->jobs));
    int rc = arena_cmd_write_problem(p, j->csv, err, sizeof err);
    if (rc != ARENA_OK) snprintf(j->call_why, sizeof j->call_why, "%s", err);
    return rc;
}

static int job_setup(void *ctx)
{
    struct job *j = ctx;
    struct bench *b = j->b;
    if (arena_session_halted(&b->s)) return 1;
    const struct arena_problem *p = planned_problem(&b->s.graphs[j->g]);
    if (!j->shown) {
        j->shown = 1;
        arena_progress_start(&b->s.progress, (size_t)(j - b->jobs), b->s.graphs[j->g].src.spec, j->pl->name);
    }
    if (!j->prepared) {
        j->prepared = 1;
        /* The planner's inputs are copies (guest.h); an isolated child asks
         * for its scratch itself, so a plugin's code runs in the child only. */
        j->prep_rc = arena_guest_init(&j->guest, p, &j->opt, j->pl->n_keys);
        if (j->prep_rc == ARENA_OK && j->call == PROGRAM) j->prep_rc = write_problem(j, p);
        if (j->prep_rc == ARENA_OK && j->call == IN_PROCESS)
            j->prep_rc = arena_planner_scratch(j->pl, &j->guest.p, &j->scratch_size);
        if (j->prep_rc == ARENA_OK && j->call == IN_PROCESS)
            j->prep_rc = arena_guest_scratch(&j->guest, j->scratch_size);
        /* the planner's configuration, built once, outside the timing */
        if (j->prep_rc == ARENA_OK && j->call == IN_PROCESS)
            j->prep_rc = arena_guest_configure(&j->guest, j->pl);
        j->plan.n = p->n;
        j->plan.offsets = j->guest.offsets;
        if (j->prep_rc == ARENA_OK && j->call == IN_PROCESS &&
            j->origin->origin == ARENA_ORIGIN_PLUGIN)
            arena_session_guest_enter(&b->s, j->pl->name, b->s.graphs[j->g].src.spec);
    }
    return j->prep_rc != ARENA_OK;
}

static int job_iter(void *ctx)
{
    struct job *j = ctx;
    if (arena_session_stopped()) return 1;
    const struct arena_problem *p = planned_problem(&j->b->s.graphs[j->g]);
    const struct arena_bench_args *a = &j->b->s.args;
    arena_plan_reset(&j->plan);
    if (j->call == IN_PROCESS) {
        struct arena_guest *g = &j->guest;
        j->rc = j->pl->plan(&g->p, &g->opt, g->scratch, g->scratch_size, &j->plan);
        return j->rc != ARENA_OK;
    }
    /* One call of Google Benchmark's: the child or the program answers,
     * or fails with a reason, and the run goes on either way. */
    if (j->call == ISOLATED) {
        struct arena_isolate_spec spec = {.repetitions = a->repetitions,
                                          .min_time = a->min_time,
                                          .once = j->pl->kind == ARENA_KIND_SEARCH,
                                          .time_limit = a->options.time_limit};
        j->call_rc = arena_isolate_plan(j->pl, &j->guest, p, &j->opt, &j->plan, &spec,
                                        &j->child, j->call_why, sizeof j->call_why);
        j->rc = j->child.plan_rc;
        j->scratch_size = j->child.scratch_size;
        if (j->call_rc == ARENA_OK) j->prep_rc = j->child.scratch_rc; /* as in process */
    } else {
        j->call_rc = arena_cmd_plan(j->origin->spec, j->origin->command, j->csv, p, &j->opt,
                                    &j->plan, &j->program, j->call_why, sizeof j->call_why);
        j->rc = ARENA_OK;
    }
    return j->call_rc == ARENA_ENOTFOUND; /* stopped by a signal */
}

static void emit(struct bench *b, struct arena_session_graph *g, const struct arena_result *r)
{
    if (!b->out) return;
    arena_progress_clear(&b->s.progress);
    if (!g->header_done) {
        g->header_done = 1;
        if (b->out->graph) b->out->graph(stdout, b->out_state, &g->src, &g->bounds);
    }
    b->out->row(stdout, b->out_state, r);
    arena_session_stdout_ok(&b->s);
}

/* The arena TFLM allocates for a valid plan under a scratch rule: the
 * plan's tensors fixed as its offline plan, the scratch buffers placed by
 * TFLM's rule (planners/device.h): under lifetime the problem's own (ids
 * from src->scratch_first on, TFLM ignoring where the plan put them),
 * under online the requests kept beside the problem. *dev stays 0 under
 * tail or without scratch. */
static int device_arena(const struct arena_source *src, const struct arena_plan *plan,
                        uint64_t *dev)
{
    const struct arena_problem *p = &src->problem;
    enum arena_scratch_policy pol = src->tf.scratch_policy;
    if (!src->scratch.buffers || pol == ARENA_SCRATCH_TAIL) return ARENA_OK;
    size_t extra = pol == ARENA_SCRATCH_ONLINE ? src->n_online_scratch : 0, n = p->n + extra;
    struct arena_tensor *t = malloc((n ? n : 1) * sizeof *t);
    uint64_t *at = calloc(n ? n : 1, sizeof *at);
    unsigned char *online = calloc(n ? n : 1, 1);
    int rc = t && at && online ? ARENA_OK : ARENA_ENOMEM;
    if (rc == ARENA_OK) {
        memcpy(t, p->tensors, p->n * sizeof *t);
        if (extra) memcpy(t + p->n, src->online_scratch, extra * sizeof *t);
        memcpy(at, plan->offsets, p->n * sizeof *at);
        for (size_t i = pol == ARENA_SCRATCH_ONLINE ? p->n : src->scratch_first; i < n; i++)
            online[i] = 1;
        struct arena_problem all = {.n = n, .tensors = t, .alignment = p->alignment};
        rc = arena_device_place(&all, at, online, NULL, dev);
    }
    free(t);
    free(at);
    free(online);
    return rc;
}

/* The smallest plan the database holds of graph g's problem (the same
 * graph row and planned problem), stored valid by an earlier result *id;
 * arena 0: none. */
static struct arena_known_plan stored_plan(struct bench *b, struct arena_session_graph *g,
                                           int64_t *id)
{
    struct arena_known_plan k = {0};
    uint64_t arena = 0;
    int64_t run = 0;
    char planner[80] = "", whose[160];
    if (b->s.store && arena_session_store_run_and_graph(&b->s, g) == ARENA_OK &&
        arena_store_best_valid(b->s.store, g->db_id, &g->src, &arena, planner, sizeof planner,
                               &run, id) == ARENA_OK) {
        snprintf(whose, sizeof whose, "%s, run %lld of %s", planner, (long long)run,
                 b->s.args.db);
        arena_known_plan_offer(&k, arena, whose);
    }
    return k;
}

/* Whether stored result id's placements are a valid plan of g's problem
 * with that arena: the validator's word, not the database's (a file may
 * hold what an older bench stored wrongly). */
static int stored_plan_holds(struct bench *b, struct arena_session_graph *g, int64_t id,
                             uint64_t arena)
{
    const struct arena_problem *p = &g->src.problem;
    struct arena_plan plan = {.n = p->n, .offsets = malloc((p->n ? p->n : 1) * sizeof(uint64_t))};
    int holds = plan.offsets && arena_store_plan_offsets(b->s.store, id, p->n, plan.offsets) ==
                                    ARENA_OK;
    for (size_t i = 0; holds && i < p->n; i++) /* offsets < 2^63, sizes <= 2^62 */
        if (plan.offsets[i] + p->tensors[i].size > plan.arena)
            plan.arena = plan.offsets[i] + p->tensors[i].size;
    holds = holds && plan.arena == arena && arena_plan_validate(p, &plan, NULL) == ARENA_OK;
    free(plan.offsets);
    return holds;
}

/* Why the valid plan's claims are wrong (arena_claims_wrong) against the
 * plans bench holds of the problem: this run's, and the database's when
 * smaller and its placements hold; NULL when they are not. */
static const char *claims_wrong(struct bench *b, struct job *j, enum arena_plan_status claimed,
                                int decides, char *error, size_t len)
{
    struct arena_session_graph *g = &b->s.graphs[j->g];
    const struct arena_plan_options *opt = &b->s.args.options;
    const struct arena_known_plan *known = &b->known[j->g];
    const char *why = arena_claims_wrong(&j->plan, claimed, decides, opt, known, error, len);
    int64_t id = 0;
    struct arena_known_plan stored = stored_plan(b, g, &id);
    if (why || !stored.arena || (known->arena && known->arena <= stored.arena)) return why;
    why = arena_claims_wrong(&j->plan, claimed, decides, opt, &stored, error, len);
    if (why && !stored_plan_holds(b, g, id, stored.arena)) {
        arena_session_say(&b->s, "%s: result %lld (%s) is stored valid, but its placements are"
                                 " not a valid plan of %s of %llu B: not taken as evidence",
                          b->s.args.db, (long long)id, stored.whose, g->src.spec,
                          (unsigned long long)stored.arena);
        why = NULL;
    }
    return why;
}

/* The fields of j's result that say which planner, in which configuration
 * and how timed: what job_done stores and what --resume looks for. */
static void result_identity(const struct bench *b, const struct job *j,
                            struct arena_result *info)
{
    info->planner = j->pl->name;
    info->planner_spec = j->origin->spec;
    info->src = &b->s.graphs[j->g].src;
    /* Only a search planner reads the options (planner.h): for the others
     * they change nothing and are not part of the result. A program is
     * handed them all (cmd.h). */
    info->options = j->pl->kind == ARENA_KIND_SEARCH || j->call == PROGRAM ? &b->s.args.options
                                                                            : NULL;
    /* the column of schema 16, until schema 17 stores planner_spec alone: a
     * built-in planner's key engine (optimal's) */
    size_t e = arena_keys_find(j->pl->keys, j->pl->n_keys, "engine", 6);
    info->optimal_engine = j->origin->origin == ARENA_ORIGIN_BUILTIN && e < j->pl->n_keys &&
                                   j->pl->keys[e].kind == ARENA_KEY_CHOICE && j->origin->values
                               ? j->pl->keys[e].choices[j->origin->values[e].choice]
                               : NULL;
    info->origin = arena_origin_name(j->origin->origin);
    info->plugin_path = j->origin->path;
    info->plugin_sha256 = j->origin->origin == ARENA_ORIGIN_PLUGIN ? j->origin->sha256 : NULL;
    info->planner_command = j->origin->command;
    info->command_sha256 = j->origin->origin == ARENA_ORIGIN_CMD ? j->origin->sha256 : NULL;
    info->timing = timing_name[j->call];
}

static void job_done(void *ctx, const struct arena_gbench_stats *st)
{
    struct job *j = ctx;
    struct bench *b = j->b;
    struct arena_session_graph *g = &b->s.graphs[j->g];
    const struct arena_problem *p = &g->src.problem;
    /* What an in-process planner wrote of its inputs, before the stop check
     * (a signal that comes after it is not taken for a write of the flag). */
    struct arena_guest_fault fault = {0};
    int faulted = j->call == IN_PROCESS && j->prepared && j->prep_rc == ARENA_OK &&
                  arena_guest_check(&j->guest, planned_problem(g), &j->opt, &j->plan,
                                    &fault);
    arena_session_stop_flag_mend();
    arena_session_guest_leave();
    /* Not run (filtered out), or stopped: nothing half-measured is kept. */
    if ((!st->measured && !st->error) || arena_session_halted(&b->s)) {
        release(j);
        return;
    }
    char error[600] = "";
    struct arena_metrics m;
    int valid = 0, planned = 0;
    int guest = j->origin->origin != ARENA_ORIGIN_BUILTIN;
    struct arena_claim claim = {0}; /* a guest's, beyond what bench proved */
    struct arena_plan full = j->plan; /* the plan of every tensor of p */
    const struct arena_plan *shown = g->merged ? &full : &j->plan;
    /* A documented refusal (min-cost-flow above its size limit) is an
     * answer, not a failure: stored as not valid with "refused: why", and
     * it does not make the run exit 1. */
    int refused = !faulted && (j->prep_rc == ARENA_ETOOBIG ||
                               (j->prep_rc == ARENA_OK && j->rc == ARENA_ETOOBIG));
    if (faulted) {
        arena_guest_describe(&fault, error, sizeof error);
    } else if (refused) {
        snprintf(error, sizeof error, "refused: %s", arena_strerror(ARENA_ETOOBIG));
    } else if (j->prep_rc != ARENA_OK) {
        snprintf(error, sizeof error, "preparing the planner: %s",
                 j->call_why[0] ? j->call_why : arena_strerror(j->prep_rc));
    } else if (st->measured && !st->error && j->call != IN_PROCESS && j->call_rc != ARENA_OK) {
        snprintf(error, sizeof error, "%s", j->call_why);
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
        if (rc != ARENA_OK) {
            arena_plan_invalid_describe(p, shown, rc, &why, error, sizeof error);
        } else if ((rc = g->merged ? arena_alias_metrics(p, &g->merge, &j->plan, &m)
                                   : arena_plan_metrics(p, &j->plan, &m)) != ARENA_OK) {
            snprintf(error, sizeof error, "metrics: %s", arena_strerror(rc));
        } else {
            const struct arena_plan_options *opt = &b->s.args.options;
            int search = j->pl->kind == ARENA_KIND_SEARCH;
            arena_claims_read(&j->plan, guest, search);
            enum arena_plan_status claimed = j->plan.status;
            arena_plan_settle(&j->plan, g->bounds.inplace_bound);
            /* A program is handed the capacity (cmd.h): its answer
             * claims to fit it, as a search planner's does. */
            int decides = search || j->call == PROGRAM;
            valid = !claims_wrong(b, j, claimed, decides, error, sizeof error);
            if (valid && guest)
                arena_claims_unproven(&j->plan, g->bounds.inplace_bound, opt->capacity, &claim);
            full.status = j->plan.status;
            full.bound = j->plan.bound;
        }
    }
    if (valid) {
        char whose[160];
        snprintf(whose, sizeof whose, "%s, this run", j->pl->name);
        arena_known_plan_offer(&b->known[j->g], j->plan.arena, whose);
    }
    if (refused) b->refused++;
    else if (!valid) b->any_invalid = 1, b->invalid_of[j->k]++;
    uint64_t device = 0, whole = 0;
    if (valid && device_arena(&g->src, shown, &device) != ARENA_OK) device = 0;
    if (valid && g->src.has_head)
        whole = arena_tflm_whole(&g->src.head, device ? device : shown->arena);
    double nan = NAN;
    /* The figures: Google Benchmark's in process; an isolated child's own;
     * a program's process group's wall time, one call. */
    struct arena_gbench_stats fig = *st;
    if (j->call == ISOLATED) {
        fig.repetitions = j->child.t.repetitions;
        fig.iterations = j->child.t.iterations;
        fig.median_ns = j->child.t.median_ns;
        fig.mean_ns = j->child.t.mean_ns;
        fig.stddev_ns = j->child.t.stddev_ns;
    } else if (j->call == PROGRAM) {
        fig.repetitions = 1;
        fig.iterations = 1;
        fig.median_ns = fig.mean_ns = j->program.wall_ns;
        fig.stddev_ns = nan;
    }
    st = &fig;
    int once = j->call == PROGRAM || (j->once && j->call == IN_PROCESS) ||
               (j->call == ISOLATED && j->pl->kind == ARENA_KIND_SEARCH);
    double spread = valid && st->mean_ns > 0 ? st->stddev_ns / st->mean_ns : nan;
    /* The one record: stored first, then shown. */
    struct arena_result res = {
        .bounds = &g->bounds,
        .valid = valid,
        .refused = refused,
        .error = valid ? NULL : error,
        .metrics = valid ? &m : NULL,
        .plan_ns_median = valid ? st->median_ns : nan,
        .plan_ns_mean = valid ? st->mean_ns : nan,
        .plan_ns_stddev = valid ? st->stddev_ns : nan,
        .iterations = valid ? st->iterations : 0,
        .repetitions = st->repetitions,
        .scratch_bytes = j->scratch_size,
        /* A search planner's one call is its figure by design ("once"), and
         * so is a program's. */
        .noisy = valid && !once && ((isfinite(spread) && spread > ARENA_NOISY_SPREAD) ||
                                    st->iterations == 1),
        .timed_once = once,
        .device_arena = device,
        .head_bytes = g->src.has_head ? g->src.head.head : 0,
        .whole_arena = whole,
        .status = j->plan.status,
        .bound = j->plan.bound,
        .nodes = j->plan.nodes,
        .has_self_ns = valid && j->call == PROGRAM && j->program.has_self_ns,
        .self_ns = j->program.self_ns,
        .claimed_status = claim.has ? arena_plan_status_name(claim.status) : NULL,
        .claimed_bound = claim.has ? claim.bound : 0,
        .names = g->src.names,
        .shares = g->merged ? g->merge.takes : NULL,
    };
    result_identity(b, j, &res);
    if (b->s.store) {
        const struct arena_plan *keep =
            planned && !b->s.args.no_placements && (!g->merged || j->full) ? shown : NULL;
        int64_t id = 0;
        int rc = arena_session_store_run_and_graph(&b->s, g);
        if (rc == ARENA_OK)
            rc = arena_store_add_result(b->s.store, b->s.run_id, g->db_id, &res, p, keep, &id);
        if (rc != ARENA_OK) {
            /* Not shown, since it is not stored; the run stops here. */
            b->s.db_failed = 1;
            size_t left = b->s.progress.total - b->s.progress.done;
            if (!arena_session_stopped()) /* a signal ended the wait: the stop message says it */
                arena_session_say(&b->s, "%s: %s (%s on %s); the run stops: %zu of %zu results not measured or"
                       " stored",
                    b->s.args.db, arena_store_error(b->s.store), j->pl->name, g->src.spec, left,
                    b->s.progress.total);
            release(j);
            return;
        }
    }
    /* The table shows the message under the row; CSV has no column for it
     * and --quiet shows nothing, so say it where a person will see. */
    if (!valid && !(b->out && b->out->errors_inline))
        arena_session_say(&b->s, "%s on %s: %s", j->pl->name, g->src.spec, error);
    /* what a planner could not do, on stderr: the plan stands */
    if (valid && (j->plan.notes & ARENA_PLAN_NOTE_SAT_MEMORY))
        arena_session_say(&b->s, "note: %s on %s: the SAT engine was skipped on a part whose"
                                 " encoding would need more than the engine's %llu MiB, or more"
                                 " memory than the process could get",
                          j->pl->name, g->src.spec,
                          (unsigned long long)(ARENA_OPTIMAL_SAT_MEMORY >> 20));
    if (valid && (j->plan.notes & ARENA_PLAN_NOTE_LCG_FAILED))
        arena_session_say(&b->s, "note: %s on %s: the lcg engine stopped on a part: Z3 ran out of"
                                 " its %llu MiB, failed, or the part has too many pairs",
                          j->pl->name, g->src.spec,
                          (unsigned long long)(ARENA_OPTIMAL_LCG_MEMORY >> 20));
    emit(b, g, &res);
    arena_progress_step(&b->s.progress);
    release(j);
}

/* ---- set-up ---- */

static int start_gbench(struct bench *b)
{
    const struct arena_bench_args *a = &b->s.args;
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
        arena_session_say(&b->s, "%s", err);
        return 2;
    }
    return 0;
}

/* --shard: part[g * n_planners + k] for every graph g and planner k
 * (bench/core/shard.h); all 1 without --shard. */
static int shard_parts(const struct bench *b, unsigned *part)
{
    size_t np = b->s.args.n_planners, n = b->s.n_graphs * np;
    if (!b->s.args.shard_n) return ARENA_OK;
    const char **spec = malloc((n ? n : 1) * sizeof *spec);
    const char **name = malloc((n ? n : 1) * sizeof *name);
    int rc = spec && name ? ARENA_OK : ARENA_ENOMEM;
    for (size_t i = 0; rc == ARENA_OK && i < n; i++) {
        spec[i] = b->s.graphs[i / np].src.spec;
        /* the spec: a sweep's specs of one planner spread over the shards
         * (a planner without keys: its name, as before) */
        const struct arena_planner_origin *o = &b->s.args.origins[i % np];
        name[i] = o->spec ? o->spec : b->s.args.planners[i % np]->name;
    }
    if (rc == ARENA_OK) rc = arena_shard_assign(spec, name, n, b->s.args.shard_n, part);
    free(spec);
    free(name);
    return rc;
}

/* --resume, --missing: whether the database holds j's result as job_done
 * would store it (result_identity, and the problem); counts what it finds. */
static int find_stored(struct bench *b, const struct job *j, int *found)
{
    struct arena_result info = {0};
    result_identity(b, j, &info);
    int valid = 0, refused = 0;
    int rc = arena_store_find_result(b->s.store, &info, b->s.args.tag, found, &valid, &refused);
    if (rc != ARENA_OK) {
        arena_session_say(&b->s, "%s: %s", b->s.args.db, arena_store_error(b->s.store));
        return rc;
    }
    if (*found) {
        b->stored++;
        if (!valid && !refused) b->stored_invalid++, b->any_invalid = 1, b->invalid_of[j->k]++;
    }
    return ARENA_OK;
}

static int register_jobs(struct bench *b)
{
    int reps_given = b->s.args.repetitions_set;
    for (size_t i = 0; i < b->s.args.n_gbench_flags; i++)
        if (strncmp(b->s.args.gbench_flags[i], "--benchmark_repetitions", 23) == 0) reps_given = 1;
    size_t np = b->s.args.n_planners, most = b->s.n_graphs * np;
    b->n_jobs = 0;
    b->jobs = calloc(most ? most : 1, sizeof *b->jobs);
    b->jobs_of = calloc(np ? np : 1, sizeof *b->jobs_of);
    b->invalid_of = calloc(np ? np : 1, sizeof *b->invalid_of);
    unsigned *part = calloc(most ? most : 1, sizeof *part);
    if (!b->jobs || !b->jobs_of || !b->invalid_of || !part || shard_parts(b, part) != ARENA_OK) {
        free(part);
        return ARENA_ENOMEM;
    }
    /* Per graph, a search plugin comes after the other planners: its
     * claims are checked against every plan bench makes of the graph
     * (bench/core/claims.h), whatever the order of --planner. */
    for (size_t g = 0; g < b->s.n_graphs; g++) {
        for (size_t i = 0; i < 2 * np; i++) {
            size_t k = i % np;
            int claims = b->s.args.origins[k].origin != ARENA_ORIGIN_BUILTIN &&
                         b->s.args.planners[k]->kind == ARENA_KIND_SEARCH;
            if (claims != (i >= np)) continue;
            if (b->s.args.shard_n && part[g * np + k] != b->s.args.shard_k) continue;
            struct job *j = &b->jobs[b->n_jobs++];
            j->b = b;
            j->g = g;
            j->k = k;
            j->pl = b->s.args.planners[k];
            j->origin = &b->s.args.origins[k];
            j->opt = b->s.args.options;
            j->opt.values = j->origin->values;
            j->call = j->origin->origin == ARENA_ORIGIN_CMD ? PROGRAM
                      : j->origin->origin == ARENA_ORIGIN_PLUGIN && !b->s.args.in_process
                          ? ISOLATED
                          : IN_PROCESS;
            j->once = j->pl->kind == ARENA_KIND_SEARCH || j->call != IN_PROCESS;
            b->jobs_of[k]++;
            int found = 0;
            if ((b->s.args.resume || b->s.args.missing) && find_stored(b, j, &found) != ARENA_OK) {
                free(part);
                return ARENA_EDB;
            }
            if (found || b->s.args.missing) {
                if (!found)
                    printf("%s\t%s\n", b->s.graphs[g].src.spec,
                           j->origin->spec ? j->origin->spec : j->pl->name);
                memset(j, 0, sizeof *j);
                b->n_jobs--;
                continue;
            }
            /* graph/planner, the planner by its canonical spec: two
             * configurations of one planner are two benchmarks */
            const char *who = j->origin->spec ? j->origin->spec : j->pl->name;
            size_t len = strlen(b->s.graphs[g].src.spec) + strlen(who) + 2;
            char *name = malloc(len);
            if (!name) return ARENA_ENOMEM;
            snprintf(name, len, "%s/%s", b->s.graphs[g].src.spec, who);
            struct arena_gbench_spec spec = {
                .name = name,
                .setup = job_setup,
                .iter = job_iter,
                .done = job_done,
                .ctx = j,
                .repetitions = !reps_given && b->s.graphs[g].src.problem.n >= ARENA_BENCH_LARGE_N
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

/* The jobs for the progress estimate: each planner a group, weighed by
 * its graph's tensors; a search planner's job takes at most its time
 * limit. */
static int plan_progress(struct bench *b)
{
    size_t n = b->n_jobs;
    size_t *group = malloc((n ? n : 1) * sizeof *group);
    double *weight = malloc((n ? n : 1) * sizeof *weight), *cap = malloc((n ? n : 1) * sizeof *cap);
    int rc = group && weight && cap ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const struct job *j = &b->jobs[i];
        group[i] = 0;
        for (size_t k = 0; k < b->s.args.n_planners; k++)
            if (b->s.args.planners[k] == j->pl) group[i] = k;
        weight[i] = (double)planned_problem(&b->s.graphs[j->g])->n;
        cap[i] = j->once && b->s.args.options.time_limit > 0 ? b->s.args.options.time_limit : 0;
    }
    if (rc == 0) rc = arena_progress_plan(&b->s.progress, n, group, weight, cap);
    free(group);
    free(weight);
    free(cap);
    return rc;
}

/* One line naming the planners with invalid results (measured, or found
 * stored by --resume) and on how many of their graphs: what a sweep and
 * its reader need from an exit status of 1. */
static void say_invalid(struct bench *b, const char *what)
{
    if (!b->any_invalid) return;
    char list[2048] = "";
    size_t len = 0, np = b->s.args.n_planners;
    for (size_t k = 0; k < np && len < sizeof list; k++) {
        if (!b->invalid_of[k]) continue;
        int n = snprintf(list + len, sizeof list - len, "%s%s on %zu of %zu graph%s",
                         len ? ", " : "", b->s.args.planners[k]->name, b->invalid_of[k],
                         b->jobs_of[k], b->jobs_of[k] == 1 ? "" : "s");
        len += n > 0 ? (size_t)n : 0;
    }
    if (len >= sizeof list) memcpy(list + sizeof list - 4, "...", 4);
    arena_session_say(&b->s, "%s: invalid results (stored with valid = 0): %s", what, list);
}

static size_t total_jobs(const struct bench *b)
{
    size_t n = 0;
    for (size_t k = 0; k < b->s.args.n_planners; k++) n += b->jobs_of[k];
    return n;
}

static int measure(struct bench *b)
{
    char err[700] = "";
    int status;
    if ((status = start_gbench(b)) != 0) return status;
    if ((status = arena_session_load(&b->s)) != 0) return status;
    if ((status = arena_session_open_store(&b->s)) != 0) return status;
    b->known = calloc(b->s.n_graphs ? b->s.n_graphs : 1, sizeof *b->known);
    int reg = b->known ? register_jobs(b) : ARENA_ENOMEM;
    if (reg == ARENA_EDB) return 2;
    if (reg != ARENA_OK) {
        arena_session_say(&b->s, "cannot register the benchmarks");
        return 2;
    }
    if (b->s.args.missing || b->s.args.resume) {
        size_t total = total_jobs(b), left = total - b->stored;
        if (b->s.args.missing) {
            arena_session_say(&b->s, "--missing: %s holds %zu of the %zu jobs%s; %zu missing%s",
                              b->s.args.db, b->stored, total,
                              b->stored_invalid ? " (invalid results: next line)" : "", left,
                              left ? ", listed on stdout" : "");
            say_invalid(b, "--missing");
            return fflush(stdout) == 0 ? 0 : 2;
        }
        if (b->stored)
            arena_session_say(&b->s, "--resume: %zu of the %zu jobs already stored in %s, not redone;"
                              " %zu to run", b->stored, total, b->s.args.db, left);
        if (left == 0) {
            say_invalid(b, "--resume");
            return b->any_invalid ? 1 : 0;
        }
    }
    if (plan_progress(b) != 0) {
        arena_session_say(&b->s, "out of memory");
        return 2;
    }
    if (b->n_jobs == 0 && b->s.args.shard_n) {
        arena_session_say(&b->s, "--shard %u/%u: no graph x planner job falls in this part; nothing to do",
            b->s.args.shard_k, b->s.args.shard_n);
        return 0;
    }
    if (!b->s.args.quiet) {
        b->out = b->s.args.format;
        b->out_state = calloc(1, b->out->state_size ? b->out->state_size : 1);
        if (!b->out_state) {
            arena_session_say(&b->s, "out of memory");
            return 2;
        }
        if (b->out->begin) b->out->begin(stdout, b->out_state);
        if (!arena_session_stdout_ok(&b->s)) return 2;
    }
    int matched = arena_gbench_run(err, sizeof err);
    if (matched < 0) {
        arena_session_say(&b->s, "Google Benchmark: %s", err);
        return 2;
    }
    arena_progress_clear(&b->s.progress);
    if (b->out && !b->s.out_failed) {
        if (b->out->end) b->out->end(stdout, b->out_state);
        arena_session_stdout_ok(&b->s);
    }
    if (arena_session_stopped()) {
        arena_session_store_stop(&b->s, b->s.progress.done, b->s.progress.total);
        arena_session_say(&b->s, "stopped by signal %d after %zu of %zu results%s", (int)arena_session_stopped(),
            b->s.progress.done, b->s.progress.total,
            b->s.store ? "; every finished result is stored" : "");
        return 128 + arena_session_stopped();
    }
    if (b->s.db_failed || b->s.out_failed) return 2;
    if (b->refused)
        arena_session_say(&b->s, "%zu result%s refused by %s planner's documented size limit: stored with valid = 0"
               " and the reason ('refused: ...'), not counted as failures",
            b->refused, b->refused == 1 ? "" : "s", b->refused == 1 ? "its" : "their");
    if (b->s.progress.done == 0) {
        arena_session_say(&b->s, "nothing was measured: %s",
            matched == 0 ? "--benchmark_filter matched none of the benchmarks (named"
                           " SPEC/PLANNER, e.g. chain:ops=8/naive)"
                         : "no benchmark reported a result");
        return 2;
    }
    /* One invalid result measured: its own line has said it all. */
    size_t invalid = 0;
    for (size_t k = 0; k < b->s.args.n_planners; k++) invalid += b->invalid_of[k];
    if (invalid > 1 || b->stored_invalid) say_invalid(b, "the run went to its end");
    return b->any_invalid ? 1 : 0;
}

int arena_bench_run(const struct arena_bench_args *args, int argc, char **argv)
{
    struct bench b;
    memset(&b, 0, sizeof b);
    int status = arena_session_begin(&b.s, args, argc, argv);
    if (status == 0) status = measure(&b);
    arena_gbench_clear();
    for (size_t i = 0; i < b.n_jobs; i++) release(&b.jobs[i]);
    free(b.jobs);
    free(b.jobs_of);
    free(b.invalid_of);
    free(b.known);
    if (b.tmpdir) rmdir(b.tmpdir);
    free(b.tmpdir);
    free(b.out_state);
    arena_session_end(&b.s);
    return status;
}
