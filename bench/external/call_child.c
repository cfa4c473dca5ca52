/* call_child.c — a plugin's calls in a forked child (call.h, isolate.h):
 * the child asks for its scratch, so a plugin's code runs in the child
 * only; one call of Google Benchmark's is the child's whole session (its
 * first call, its checks and its own timing), and its figures are the
 * child's. */
#include "bench/external/call.h"

/* The child answers, or fails with a reason, and the run goes on either
 * way; only a signal stops it. */
static int child_plan(struct arena_call *c, const struct arena_problem *p,
                      const struct arena_call_env *env)
{
    struct arena_isolate_spec spec = {.repetitions = env->repetitions,
                                      .min_time = env->min_time,
                                      .once = c->pl->kind == ARENA_KIND_SEARCH,
                                      .time_limit = env->time_limit};
    c->call_rc = arena_isolate_plan(c->pl, &c->guest, p, c->opt, &c->plan, &spec, &c->child,
                                    c->why, sizeof c->why);
    c->rc = c->child.plan_rc;
    c->scratch_size = c->child.scratch_size;
    if (c->call_rc == ARENA_OK) c->prep_rc = c->child.scratch_rc; /* as in process */
    return c->call_rc == ARENA_ENOTFOUND;
}

/* The child checked its copies itself (a write is a call that did not
 * answer); its figures replace Google Benchmark's one call. */
static int child_collect(struct arena_call *c, const struct arena_problem *p,
                         struct arena_call_figures *f, struct arena_guest_fault *fault)
{
    (void)p, (void)fault;
    f->repetitions = c->child.t.repetitions;
    f->iterations = c->child.t.iterations;
    f->median_ns = c->child.t.median_ns;
    f->mean_ns = c->child.t.mean_ns;
    f->stddev_ns = c->child.t.stddev_ns;
    return 0;
}

const struct arena_call_ops arena_call_child = {
    .timing = "isolated",
    .times_itself = 1,
    .plan = child_plan,
    .collect = child_collect,
};
