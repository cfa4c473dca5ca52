/* problem.c — the problem's contract check and overflow-safe size rounding. */
#include "planners/problem.h"

static int is_pow2(uint64_t a)
{
    return a != 0 && (a & (a - 1)) == 0;
}

int arena_problem_check(const struct arena_problem *p, size_t *bad)
{
    if (bad)
        *bad = SIZE_MAX;
    if (!p || (p->n > 0 && !p->tensors) || !is_pow2(p->alignment))
        return ARENA_EINVAL;
    for (size_t i = 0; i < p->n; i++) {
        const struct arena_tensor *t = &p->tensors[i];
        int rc = ARENA_OK;
        if (t->size > ARENA_SIZE_MAX)
            rc = ARENA_EOVERFLOW;
        else if (t->first > t->last || (t->size & (p->alignment - 1)) != 0)
            rc = ARENA_EINVAL;
        if (rc != ARENA_OK) {
            if (bad)
                *bad = i;
            return rc;
        }
    }
    uint64_t sum = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->tensors[i].size > UINT64_MAX - sum)
            return ARENA_EOVERFLOW;
        sum += p->tensors[i].size;
    }
    if (p->n_alias > 0 && !p->alias)
        return ARENA_EINVAL;
    for (size_t k = 0; k < p->n_alias; k++) {
        uint32_t o = p->alias[k].out, i = p->alias[k].in;
        if (o >= p->n || i >= p->n || o == i)
            return ARENA_EINVAL;
        const struct arena_tensor *to = &p->tensors[o], *ti = &p->tensors[i];
        if (ti->last != to->first || ti->first >= ti->last || to->size > ti->size) {
            if (bad)
                *bad = o;
            return ARENA_EINVAL;
        }
    }
    return ARENA_OK;
}

int arena_size_align(uint64_t size, uint64_t alignment, uint64_t *out)
{
    if (!out || !is_pow2(alignment))
        return ARENA_EINVAL;
    /* size <= 2^62 and alignment <= 2^63 keep size + alignment - 1 below 2^64. */
    if (size > ARENA_SIZE_MAX)
        return ARENA_EOVERFLOW;
    uint64_t r = (size + (alignment - 1)) & ~(alignment - 1);
    if (r > ARENA_SIZE_MAX)
        return ARENA_EOVERFLOW;
    *out = r;
    return ARENA_OK;
}

const char *arena_plan_status_name(int status)
{
    switch (status) {
    case ARENA_PLAN_FEASIBLE: return "feasible";
    case ARENA_PLAN_OPTIMAL: return "optimal";
    case ARENA_PLAN_INFEASIBLE: return "infeasible";
    case ARENA_PLAN_LIMIT: return "limit";
    }
    return "unknown";
}

void arena_plan_settle(struct arena_plan *plan, uint64_t lower_bound)
{
    if (plan->bound < lower_bound)
        plan->bound = lower_bound;
    if (plan->status == ARENA_PLAN_FEASIBLE && plan->arena == plan->bound)
        plan->status = ARENA_PLAN_OPTIMAL;
}
