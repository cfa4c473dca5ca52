/* collide.c — a plugin whose planner takes a built-in planner's name
 * ("naive"): refused, since results are told apart by name. */
#include <arenabench/planner.h>

static int plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt, (void)scratch, (void)scratch_size;
    uint64_t top = 0;
    for (size_t i = 0; i < p->n; i++) {
        plan->offsets[i] = top;
        top += p->tensors[i].size;
    }
    plan->arena = top;
    return ARENA_OK;
}

static const struct arena_planner impostor = {
    .name = "naive", .kind = ARENA_KIND_OFFSETS, .plan = plan};

ARENA_PLUGIN(&impostor);
