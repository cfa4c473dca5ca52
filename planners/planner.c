/* planner.c — the checked entry points every caller goes through. */
#include "planners/planner.h"
#include "planners/keys.h"

int arena_planner_scratch(const struct arena_planner *pl, const struct arena_problem *p,
                          size_t *bytes)
{
    if (!pl || !p || !bytes)
        return ARENA_EINVAL;
    *bytes = 0;
    return pl->scratch_bytes ? pl->scratch_bytes(p, bytes) : ARENA_OK;
}

const struct arena_plan_options arena_plan_options_default = {0};

const char *arena_planner_kind_name(int kind)
{
    switch (kind) {
    case ARENA_KIND_OFFSETS: return "offsets";
    case ARENA_KIND_SHARED_OBJECTS: return "shared-objects";
    case ARENA_KIND_SEARCH: return "search";
    case ARENA_KIND_ONLINE: return "online";
    }
    return "unknown";
}

void arena_plan_stopped(const struct arena_problem *p, struct arena_plan *plan)
{
    uint64_t top = 0; /* the sizes' sum fits (arena_problem_check) */
    for (size_t i = 0; i < p->n; i++) {
        plan->offsets[i] = top;
        top += p->tensors[i].size;
    }
    plan->arena = top;
    plan->buffers = 0;
    plan->status = ARENA_PLAN_LIMIT;
}

void arena_plan_reset(struct arena_plan *plan)
{
    plan->arena = 0;
    plan->buffers = 0;
    plan->status = ARENA_PLAN_FEASIBLE;
    plan->bound = 0;
    plan->nodes = 0;
    plan->notes = 0;
}

int arena_planner_run(const struct arena_planner *pl, const struct arena_problem *p,
                      const struct arena_plan_options *opt, void *scratch, size_t scratch_size,
                      struct arena_plan *plan)
{
    if (!pl || !plan)
        return ARENA_EINVAL;
    int rc = arena_problem_check(p, NULL);
    if (rc != ARENA_OK)
        return rc;
    if (plan->n != p->n || (p->n > 0 && !plan->offsets))
        return ARENA_EINVAL;
    size_t need;
    rc = arena_planner_scratch(pl, p, &need);
    if (rc != ARENA_OK)
        return rc;
    if (scratch_size < need || (need > 0 && !scratch))
        return ARENA_ENOMEM;
    arena_plan_reset(plan);
    if (!opt)
        opt = &arena_plan_options_default;
    if ((pl->n_keys == 0 || opt->values) && (!pl->configure || opt->config))
        return pl->plan(p, opt, scratch, scratch_size, plan);
    struct arena_plan_options with = *opt;
    /* no values given: the planner's defaults (seed: opt->seed) */
    struct arena_key_value v[ARENA_PLANNER_MAX_KEYS];
    if (pl->n_keys && !opt->values) {
        if (pl->n_keys > ARENA_PLANNER_MAX_KEYS ||
            arena_keys_defaults(pl->name, pl->keys, pl->n_keys, opt->seed, v, NULL, 0))
            return ARENA_EINVAL;
        with.values = v;
    }
    /* no configuration given: built for this call and released after it */
    void *config = NULL;
    if (pl->configure && !opt->config) {
        rc = pl->configure(with.values, &config);
        if (rc != ARENA_OK) {
            if (config && pl->release)
                pl->release(config);
            return rc;
        }
        with.config = config;
    }
    rc = pl->plan(p, &with, scratch, scratch_size, plan);
    if (config && pl->release)
        pl->release(config);
    return rc;
}
