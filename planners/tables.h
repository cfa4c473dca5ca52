/* tables.h — internal: every planner's ops table, for the registry.
 * Each is defined in its own file (named after it) with designated
 * initialisers; only registry.c should need them. */
#ifndef ARENA_TABLES_H
#define ARENA_TABLES_H

#include "planners/planner.h"

extern const struct arena_planner arena_planner_naive;                /* naive.c */
extern const struct arena_planner arena_planner_ping_pong;            /* ping_pong.c */
extern const struct arena_planner arena_planner_greedy_size;          /* greedy_size.c */
extern const struct arena_planner arena_planner_greedy_size_firstfit; /* greedy_size_firstfit.c */
extern const struct arena_planner arena_planner_greedy_breadth;       /* greedy_breadth.c */
extern const struct arena_planner arena_planner_coloring;             /* coloring.c */
extern const struct arena_planner arena_planner_optimal;              /* optimal.c */

#endif
