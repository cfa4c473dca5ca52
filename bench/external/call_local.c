/* call_local.c — a planner called in bench's own process (call.h): a
 * built-in planner, or a plugin under --in-process. bench asks for its
 * scratch once, outside the timing; the timed region is one call of the
 * planner's table function on its copies (what arena_planner_run does
 * after its argument checks, done once beforehand); after the calls, the
 * copies are checked for what the planner wrote (guest.h). */
#include "bench/external/call.h"

static int local_prepare(struct arena_call *c, const struct arena_problem *p,
                         struct arena_call_env *env, size_t seq)
{
    (void)p, (void)env, (void)seq;
    int rc = arena_planner_scratch(c->pl, &c->guest.p, &c->scratch_size);
    if (rc == ARENA_OK) rc = arena_guest_scratch(&c->guest, c->scratch_size);
    /* the planner's configuration, built once, outside the timing */
    return rc == ARENA_OK ? arena_guest_configure(&c->guest, c->pl) : rc;
}

static int local_plan(struct arena_call *c, const struct arena_problem *p,
                      const struct arena_call_env *env)
{
    (void)p, (void)env;
    struct arena_guest *g = &c->guest;
    c->rc = c->pl->plan(&g->p, &g->opt, g->scratch, g->scratch_size, &c->plan);
    return c->rc != ARENA_OK;
}

/* Google Benchmark's figures stand. */
static int local_collect(struct arena_call *c, const struct arena_problem *p,
                         struct arena_call_figures *f, struct arena_guest_fault *fault)
{
    (void)f;
    return c->prepared && c->prep_rc == ARENA_OK &&
           arena_guest_check(&c->guest, p, c->opt, &c->plan, fault);
}

const struct arena_call_ops arena_call_local = {
    .timing = "in-process",
    .in_bench = 1,
    .prepare = local_prepare,
    .plan = local_plan,
    .collect = local_collect,
};
