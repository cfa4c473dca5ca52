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
 * The three ways are one table of operations each (bench/external/call.h),
 * chosen once per planner: nothing below asks which way a job is called.
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
#include "bench/external/call.h"
#include "bench/core/gbench.h"
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
#include "results/planner_label.h"
#include "results/store.h"

struct bench;

struct job {
    struct bench *b;
    size_t g;
    size_t k; /* the planner's place in args.planners */
    struct arena_plan_options opt; /* the run's options with this planner's key values */
    struct arena_call c;  /* how the planner is called (call.h), and what it answered */
    uint64_t *full;       /* merged: the plan expanded to every tensor */
    int shown;
    int once; /* a search planner, or a way that times itself: one timed call */
};

struct bench {
    struct arena_session s; /* the graphs, the database, the signals */
    const struct arena_bench_args *args; /* the run's own options (borrowed) */
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
    /* Per planner: what the outputs call it (struct arena_result.label),
     * NULL where a label could not be made (its name then). */
    char **labels;
    size_t stored, stored_invalid; /* --resume, --missing: jobs found stored */
    struct arena_call_env env;      /* what the calls share (call.h) */
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
    arena_call_release(&j->c);
    free(j->full);
    j->full = NULL;
}

static int job_setup(void *ctx)
{
    struct job *j = ctx;
    struct bench *b = j->b;
    if (arena_session_halted(&b->s)) return 1;
    const struct arena_problem *p = planned_problem(&b->s.graphs[j->g]);
    const char *spec = b->s.graphs[j->g].src.spec;
    if (!j->shown) {
        j->shown = 1;
        arena_progress_start(&b->s.progress, (size_t)(j - b->jobs), spec, j->c.pl->name);
    }
    if (!j->c.prepared) {
        /* A plugin's code that runs in bench's process: a crash names it. */
        if (arena_call_prepare(&j->c, p, &b->env, (size_t)(j - b->jobs)) == ARENA_OK &&
            j->c.ops->in_bench && j->c.origin->origin == ARENA_ORIGIN_PLUGIN)
            arena_session_guest_enter(&b->s, j->c.pl->name, spec);
    }
    return j->c.prep_rc != ARENA_OK;
}

static int job_iter(void *ctx)
{
    struct job *j = ctx;
    if (arena_session_stopped()) return 1;
    return arena_call_plan(&j->c, planned_problem(&j->b->s.graphs[j->g]), &j->b->env);
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
    const char *why = arena_claims_wrong(&j->c.plan, claimed, decides, opt, known, error, len);
    int64_t id = 0;
    struct arena_known_plan stored = stored_plan(b, g, &id);
    if (why || !stored.arena || (known->arena && known->arena <= stored.arena)) return why;
    why = arena_claims_wrong(&j->c.plan, claimed, decides, opt, &stored, error, len);
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
static void result_identity(const struct bench *b, const struct job *j, struct arena_result *r)
{
    const struct arena_planner *pl = j->c.pl;
    const struct arena_planner_origin *o = j->c.origin;
    r->planner = pl->name;
    r->planner_spec = o->spec;
    r->label = b->labels ? b->labels[j->k] : NULL;
    r->src = &b->s.graphs[j->g].src;
    /* Only a search planner reads the options (planner.h): for the others
     * they change nothing and are not part of the result. A program is
     * handed them all (cmd.h). */
    r->options = pl->kind == ARENA_KIND_SEARCH || j->c.ops->handed_options ? &b->s.args.options
                                                                          : NULL;
    r->origin = arena_origin_name(o->origin);
    r->plugin_path = o->path;
    r->plugin_sha256 = o->origin == ARENA_ORIGIN_PLUGIN ? o->sha256 : NULL;
    r->planner_command = o->command;
    r->command_sha256 = o->origin == ARENA_ORIGIN_CMD ? o->sha256 : NULL;
    r->timing = j->c.ops->timing;
}

/* What bench makes of a job's calls: whether its plan is valid, and why not. */
struct verdict {
    int valid, refused;
    int planned; /* the planner gave a plan (valid or not) to keep */
    char error[600];
    struct arena_metrics m;
    struct arena_claim claim; /* a guest's, beyond what bench proved */
    struct arena_plan full;   /* the plan of every tensor of the graph's problem */
    const struct arena_plan *shown; /* full when merged, else the planner's */
};

/* A plan the planner gave: expanded to every tensor when merged, validated,
 * measured, its claims settled and checked (bench/core/claims.h). */
static void judge_plan(struct job *j, struct verdict *v)
{
    struct bench *b = j->b;
    struct arena_session_graph *g = &b->s.graphs[j->g];
    const struct arena_problem *p = &g->src.problem;
    struct arena_plan *plan = &j->c.plan;
    struct arena_collision why;
    int rc = ARENA_OK;
    v->planned = 1;
    if (g->merged) { /* the plan of every tensor, checked against the candidates */
        v->full.n = p->n;
        v->full.offsets = j->full = malloc((p->n ? p->n : 1) * sizeof *j->full);
        if (!v->full.offsets) rc = ARENA_ENOMEM;
        else arena_alias_expand(&g->merge, plan, &v->full);
    }
    if (rc == ARENA_OK) rc = arena_plan_validate(p, v->shown, &why);
    if (rc != ARENA_OK) {
        arena_plan_invalid_describe(p, v->shown, rc, &why, v->error, sizeof v->error);
        return;
    }
    rc = g->merged ? arena_alias_metrics(p, &g->merge, plan, &v->m)
                   : arena_plan_metrics(p, plan, &v->m);
    if (rc != ARENA_OK) {
        snprintf(v->error, sizeof v->error, "metrics: %s", arena_strerror(rc));
        return;
    }
    int guest = j->c.origin->origin != ARENA_ORIGIN_BUILTIN;
    int search = j->c.pl->kind == ARENA_KIND_SEARCH;
    arena_claims_read(plan, guest, search);
    enum arena_plan_status claimed = plan->status;
    arena_plan_settle(plan, g->bounds.inplace_bound);
    /* A program is handed the capacity (cmd.h): its answer claims to fit
     * it, as a search planner's does. */
    int decides = search || j->c.ops->handed_options;
    v->valid = !claims_wrong(b, j, claimed, decides, v->error, sizeof v->error);
    if (v->valid && guest)
        arena_claims_unproven(plan, g->bounds.inplace_bound, b->s.args.options.capacity,
                              &v->claim);
    v->full.status = plan->status;
    v->full.bound = plan->bound;
}

/* The verdict on j's calls; fault: what the planner wrote of its inputs
 * (NULL: nothing). */
static void judge(struct job *j, const struct arena_gbench_stats *st,
                  const struct arena_guest_fault *fault, struct verdict *v)
{
    const struct arena_call *c = &j->c;
    v->full = c->plan;
    v->shown = j->b->s.graphs[j->g].merged ? &v->full : &c->plan;
    /* A documented refusal (min-cost-flow above its size limit) is an
     * answer, not a failure: stored as not valid with "refused: why", and
     * it does not make the run exit 1. */
    v->refused = !fault && (c->prep_rc == ARENA_ETOOBIG ||
                            (c->prep_rc == ARENA_OK && c->rc == ARENA_ETOOBIG));
    if (fault)
        arena_guest_describe(fault, v->error, sizeof v->error);
    else if (v->refused)
        snprintf(v->error, sizeof v->error, "refused: %s", arena_strerror(ARENA_ETOOBIG));
    else if (c->prep_rc != ARENA_OK)
        snprintf(v->error, sizeof v->error, "preparing the planner: %s",
                 c->why[0] ? c->why : arena_strerror(c->prep_rc));
    else if (st->measured && !st->error && c->call_rc != ARENA_OK) /* it did not answer */
        snprintf(v->error, sizeof v->error, "%s", c->why);
    else if (c->rc != ARENA_OK)
        snprintf(v->error, sizeof v->error, "planner failed: %s", arena_strerror(c->rc));
    else if (st->error || st->repetitions == 0)
        snprintf(v->error, sizeof v->error, "Google Benchmark: %s",
                 st->error ? st->message : "no repetition was reported");
    else
        judge_plan(j, v);
}

/* The one record of j's result: stored first, then shown. */
static void fill_result(struct job *j, const struct verdict *v,
                        const struct arena_call_figures *f, struct arena_result *r)
{
    struct arena_session_graph *g = &j->b->s.graphs[j->g];
    double nan = NAN;
    int valid = v->valid;
    /* A search planner's one call is its figure by design ("once"), and so
     * is a program's. */
    int once = j->c.pl->kind == ARENA_KIND_SEARCH || j->c.ops->one_call;
    double spread = valid && f->mean_ns > 0 ? f->stddev_ns / f->mean_ns : nan;
    uint64_t device = 0;
    if (valid && device_arena(&g->src, v->shown, &device) != ARENA_OK) device = 0;
    *r = (struct arena_result){
        .bounds = &g->bounds,
        .valid = valid,
        .refused = v->refused,
        .error = valid ? NULL : v->error,
        .metrics = valid ? &v->m : NULL,
        .plan_ns_median = valid ? f->median_ns : nan,
        .plan_ns_mean = valid ? f->mean_ns : nan,
        .plan_ns_stddev = valid ? f->stddev_ns : nan,
        .iterations = valid ? f->iterations : 0,
        .repetitions = f->repetitions,
        .scratch_bytes = j->c.scratch_size,
        .noisy = valid && !once && ((isfinite(spread) && spread > ARENA_NOISY_SPREAD) ||
                                    f->iterations == 1),
        .timed_once = once,
        .device_arena = device,
        .head_bytes = g->src.has_head ? g->src.head.head : 0,
        .whole_arena = valid && g->src.has_head
                           ? arena_tflm_whole(&g->src.head, device ? device : v->shown->arena)
                           : 0,
        .status = j->c.plan.status,
        .bound = j->c.plan.bound,
        .nodes = j->c.plan.nodes,
        .has_self_ns = valid && f->has_self_ns,
        .self_ns = f->self_ns,
        .claimed_status = v->claim.has ? arena_plan_status_name(v->claim.status) : NULL,
        .claimed_bound = v->claim.has ? v->claim.bound : 0,
        .names = g->src.names,
        .shares = g->merged ? g->merge.takes : NULL,
    };
    result_identity(j->b, j, r);
}

/* Stores r (with its placements unless --no-placements); 0 when that
 * failed, said, and the run stops. */
static int store_result(struct job *j, const struct verdict *v, const struct arena_result *r)
{
    struct bench *b = j->b;
    struct arena_session_graph *g = &b->s.graphs[j->g];
    if (!b->s.store) return 1;
    const struct arena_plan *keep =
        v->planned && !b->args->no_placements && (!g->merged || j->full) ? v->shown : NULL;
    int64_t id = 0;
    int rc = arena_session_store_run_and_graph(&b->s, g);
    if (rc == ARENA_OK)
        rc = arena_store_add_result(b->s.store, b->s.run_id, g->db_id, r, &g->src.problem, keep,
                                    &id);
    if (rc == ARENA_OK) return 1;
    /* Not shown, since it is not stored; the run stops here. */
    b->s.db_failed = 1;
    size_t left = b->s.progress.total - b->s.progress.done;
    if (!arena_session_stopped()) /* a signal ended the wait: the stop message says it */
        arena_session_say(&b->s, "%s: %s (%s on %s); the run stops: %zu of %zu results not"
                                 " measured or stored",
                          b->s.args.db, arena_store_error(b->s.store), j->c.pl->name,
                          g->src.spec, left, b->s.progress.total);
    return 0;
}

/* On stderr: an invalid result where the output does not show its message,
 * and what a planner could not do (the plan stands). */
static void say_result(struct job *j, const struct verdict *v)
{
    struct bench *b = j->b;
    const char *name = j->c.pl->name, *spec = b->s.graphs[j->g].src.spec;
    /* The table shows the message under the row; CSV has no column for it
     * and --quiet shows nothing, so say it where a person will see. */
    if (!v->valid && !(b->out && b->out->errors_inline))
        arena_session_say(&b->s, "%s on %s: %s", name, spec, v->error);
    if (v->valid && (j->c.plan.notes & ARENA_PLAN_NOTE_SAT_MEMORY))
        arena_session_say(&b->s, "note: %s on %s: the SAT engine was skipped on a part whose"
                                 " encoding would need more than the engine's %llu MiB, or more"
                                 " memory than the process could get",
                          name, spec, (unsigned long long)(ARENA_OPTIMAL_SAT_MEMORY >> 20));
    if (v->valid && (j->c.plan.notes & ARENA_PLAN_NOTE_LCG_FAILED))
        arena_session_say(&b->s, "note: %s on %s: the lcg engine stopped on a part: Z3 ran out of"
                                 " its %llu MiB, failed, or the part has too many pairs",
                          name, spec, (unsigned long long)(ARENA_OPTIMAL_LCG_MEMORY >> 20));
}

static void job_done(void *ctx, const struct arena_gbench_stats *st)
{
    struct job *j = ctx;
    struct bench *b = j->b;
    struct arena_session_graph *g = &b->s.graphs[j->g];
    /* What the calls left: the figures (Google Benchmark's in process; an
     * isolated child's own; a program's wall time, one call), and what an
     * in-process planner wrote of its inputs, read before the stop check (a
     * signal that comes after it is not taken for a write of the flag). */
    struct arena_call_figures fig = {.repetitions = st->repetitions,
                                     .iterations = st->iterations,
                                     .median_ns = st->median_ns,
                                     .mean_ns = st->mean_ns,
                                     .stddev_ns = st->stddev_ns};
    struct arena_guest_fault fault = {0};
    int faulted = arena_call_collect(&j->c, planned_problem(g), &fig, &fault);
    arena_session_stop_flag_mend();
    arena_session_guest_leave();
    /* Not run (filtered out), or stopped: nothing half-measured is kept. */
    if ((!st->measured && !st->error) || arena_session_halted(&b->s)) {
        release(j);
        return;
    }
    struct verdict v = {0};
    judge(j, st, faulted ? &fault : NULL, &v);
    if (v.valid) {
        char whose[160];
        snprintf(whose, sizeof whose, "%s, this run", j->c.pl->name);
        arena_known_plan_offer(&b->known[j->g], j->c.plan.arena, whose);
    }
    if (v.refused) b->refused++;
    else if (!v.valid) b->any_invalid = 1, b->invalid_of[j->k]++;
    struct arena_result res;
    fill_result(j, &v, &fig, &res);
    if (store_result(j, &v, &res)) {
        say_result(j, &v);
        emit(b, g, &res);
        arena_progress_step(&b->s.progress);
    }
    release(j);
}

/* ---- set-up ---- */

static int start_gbench(struct bench *b)
{
    const struct arena_bench_args *a = b->args;
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
    if (!b->args->shard_n) return ARENA_OK;
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
    if (rc == ARENA_OK) rc = arena_shard_assign(spec, name, n, b->args->shard_n, part);
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

/* The run's planners as its outputs name them: two specs of one planner
 * (a sweep over its keys) differ by the keys whose values differ, as in
 * stats and plot. Without memory for them every row shows its name. */
static void label_planners(struct bench *b)
{
    size_t np = b->s.args.n_planners;
    const char **ids = calloc(np ? np : 1, sizeof *ids);
    b->labels = calloc(np ? np : 1, sizeof *b->labels);
    for (size_t k = 0; ids && k < np; k++) {
        const char *spec = b->s.args.origins[k].spec;
        ids[k] = spec ? spec : b->s.args.planners[k]->name;
    }
    if (!ids || !b->labels || arena_planner_labels(ids, np, NULL, 0, b->labels) != ARENA_OK) {
        free(b->labels);
        b->labels = NULL;
    }
    free(ids);
}

static void free_labels(struct bench *b)
{
    for (size_t k = 0; b->labels && k < b->s.args.n_planners; k++) free(b->labels[k]);
    free(b->labels);
}

static int register_jobs(struct bench *b)
{
    int reps_given = b->args->repetitions_set;
    for (size_t i = 0; i < b->args->n_gbench_flags; i++)
        if (strncmp(b->args->gbench_flags[i], "--benchmark_repetitions", 23) == 0) reps_given = 1;
    size_t np = b->s.args.n_planners, most = b->s.n_graphs * np;
    b->n_jobs = 0;
    b->jobs = calloc(most ? most : 1, sizeof *b->jobs);
    b->jobs_of = calloc(np ? np : 1, sizeof *b->jobs_of);
    b->invalid_of = calloc(np ? np : 1, sizeof *b->invalid_of);
    label_planners(b);
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
            if (b->args->shard_n && part[g * np + k] != b->args->shard_k) continue;
            struct job *j = &b->jobs[b->n_jobs++];
            j->b = b;
            j->g = g;
            j->k = k;
            j->c.pl = b->s.args.planners[k];
            j->c.origin = &b->s.args.origins[k];
            j->c.ops = arena_call_choose(j->c.origin, b->args->in_process);
            j->opt = b->s.args.options;
            j->opt.values = j->c.origin->values;
            j->c.opt = &j->opt;
            j->once = j->c.pl->kind == ARENA_KIND_SEARCH || j->c.ops->times_itself;
            b->jobs_of[k]++;
            int found = 0;
            if ((b->args->resume || b->args->missing) && find_stored(b, j, &found) != ARENA_OK) {
                free(part);
                return ARENA_EDB;
            }
            if (found || b->args->missing) {
                if (!found)
                    printf("%s\t%s\n", b->s.graphs[g].src.spec,
                           j->c.origin->spec ? j->c.origin->spec : j->c.pl->name);
                memset(j, 0, sizeof *j);
                b->n_jobs--;
                continue;
            }
            /* graph/planner, the planner by its canonical spec: two
             * configurations of one planner are two benchmarks */
            const char *who = j->c.origin->spec ? j->c.origin->spec : j->c.pl->name;
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
            if (b->s.args.planners[k] == j->c.pl) group[i] = k;
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
    if (b->args->missing || b->args->resume) {
        size_t total = total_jobs(b), left = total - b->stored;
        if (b->args->missing) {
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
    if (b->n_jobs == 0 && b->args->shard_n) {
        arena_session_say(&b->s, "--shard %u/%u: no graph x planner job falls in this part; nothing to do",
            b->args->shard_k, b->args->shard_n);
        return 0;
    }
    if (!b->s.args.quiet) {
        b->out = b->args->format;
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
    b.args = args;
    int status = arena_session_begin(&b.s, &args->c, argc, argv);
    b.env = (struct arena_call_env){.repetitions = b.args->repetitions,
                                    .min_time = b.args->min_time,
                                    .time_limit = b.s.args.options.time_limit};
    if (status == 0) status = measure(&b);
    arena_gbench_clear();
    for (size_t i = 0; i < b.n_jobs; i++) release(&b.jobs[i]);
    free(b.jobs);
    free(b.jobs_of);
    free(b.invalid_of);
    free_labels(&b);
    free(b.known);
    arena_call_env_end(&b.env);
    free(b.out_state);
    arena_session_end(&b.s);
    return status;
}
