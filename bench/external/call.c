/* call.c — what the three ways of calling a planner share (call.h): the
 * choice of a way, the planner's copies, and the release. */
#include "bench/external/call.h"

#include <stdlib.h>
#include <unistd.h>

const struct arena_call_ops *arena_call_choose(const struct arena_planner_origin *origin,
                                               int in_process)
{
    if (origin->origin == ARENA_ORIGIN_CMD) return &arena_call_program;
    if (origin->origin == ARENA_ORIGIN_PLUGIN && !in_process) return &arena_call_child;
    return &arena_call_local;
}

int arena_call_prepare(struct arena_call *c, const struct arena_problem *p,
                       struct arena_call_env *env, size_t seq)
{
    if (c->prepared) return c->prep_rc;
    c->prepared = 1;
    c->prep_rc = arena_guest_init(&c->guest, p, c->opt, c->pl->n_keys);
    if (c->prep_rc == ARENA_OK && c->ops->prepare) c->prep_rc = c->ops->prepare(c, p, env, seq);
    c->plan.n = p->n;
    c->plan.offsets = c->guest.offsets;
    return c->prep_rc;
}

int arena_call_collect(struct arena_call *c, const struct arena_problem *p,
                       struct arena_call_figures *f, struct arena_guest_fault *fault)
{
    return c->ops->collect(c, p, f, fault);
}

void arena_call_release(struct arena_call *c)
{
    if (c->ops && c->ops->release) c->ops->release(c);
    arena_guest_release(&c->guest, c->pl);
    arena_guest_free(&c->guest);
    c->plan.offsets = NULL;
}

void arena_call_env_end(struct arena_call_env *env)
{
    if (env->tmpdir) rmdir(env->tmpdir);
    free(env->tmpdir);
    env->tmpdir = NULL;
}
