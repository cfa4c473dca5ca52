/* other_abi.c — a plugin built for another version of the planner ABI:
 * bench must refuse it, naming both versions, before reading its tables. */
#include <arenabench/planner.h>

static int plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)p, (void)opt, (void)scratch, (void)scratch_size, (void)plan;
    return ARENA_OK;
}

static const struct arena_planner future = {
    .name = "from-the-future", .kind = ARENA_KIND_OFFSETS, .plan = plan};
static const struct arena_planner *const list[] = {&future};

ARENA_PLUGIN_EXPORT extern const struct arena_plugin arena_plugin;
const struct arena_plugin arena_plugin = {.abi = ARENA_PLANNER_ABI + 41, .count = 1,
                                          .planners = list,
                                          .planner_size = sizeof(struct arena_planner)};
