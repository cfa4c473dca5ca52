/* registry.c — every planner, in the order of tables and charts.
 * Adding a planner: its file (defining its table), its extern line in
 * tables.h, one line here and one in meson.build; every test and chart that
 * covers all planners finds it through this list. */
#include <string.h>

#include "planners/tables.h"

static const struct arena_planner *const registry[] = {
    &arena_planner_naive,
    &arena_planner_ping_pong,
    &arena_planner_greedy_size,
    &arena_planner_greedy_size_firstfit,
    &arena_planner_greedy_breadth,
    &arena_planner_coloring,
    &arena_planner_online_first_fit,
    &arena_planner_online_best_fit,
    &arena_planner_online_buddy,
    &arena_planner_online_tlsf,
    &arena_planner_equality,
    &arena_planner_greedy_in_order,
    &arena_planner_min_cost_flow,
    &arena_planner_greedy_conflicts,
    &arena_planner_hill_climb,
    &arena_planner_xla_best_fit,
    &arena_planner_optimal,
};

size_t arena_planner_count(void)
{
    return sizeof registry / sizeof registry[0];
}

const struct arena_planner *arena_planner_at(size_t i)
{
    return i < arena_planner_count() ? registry[i] : NULL;
}

const struct arena_planner *arena_planner_find(const char *name)
{
    for (size_t i = 0; name && i < arena_planner_count(); i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}
