/* builtin_copy.c — the built-in greedy-by-size-firstfit's own code, built
 * as a plugin under another name: the same planner through dlopen and a
 * function pointer, so a run of both measures what the plugin path costs
 * (docs/extending.md gives the figures), at its default tie-break (no
 * keys here). The planner's files are linked in
 * whole (planners/), and only arena_plugin is exported. */
#include "planners/greedy_common.h"

static int copy_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                     void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    return arena_greedy_size_plan(p, opt, scratch, scratch_size, plan, ARENA_GREEDY_FIRST_FIT,
                                  ARENA_GREEDY_TIES_FIRST);
}

static const struct arena_planner copy = {
    .name = "greedy-by-size-firstfit-plugin",
    .summary = "greedy-by-size-firstfit's code, loaded as a plugin",
    .kind = ARENA_KIND_OFFSETS,
    .plan = copy_plan,
    .scratch_bytes = arena_greedy_size_scratch,
};

ARENA_PLUGIN(&copy);
