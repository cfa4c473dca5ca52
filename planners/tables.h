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
extern const struct arena_planner arena_planner_online_first_fit;     /* online_first_fit.c */
extern const struct arena_planner arena_planner_online_best_fit;      /* online_best_fit.c */
extern const struct arena_planner arena_planner_online_buddy;         /* online_buddy.c */
extern const struct arena_planner arena_planner_online_tlsf;          /* online_tlsf.c */
extern const struct arena_planner arena_planner_equality;             /* equality.c */
extern const struct arena_planner arena_planner_greedy_in_order;      /* greedy_in_order.c */
extern const struct arena_planner arena_planner_min_cost_flow;        /* min_cost_flow.c */
extern const struct arena_planner arena_planner_greedy_conflicts;     /* greedy_conflicts.c */
extern const struct arena_planner arena_planner_hill_climb;           /* hill_climb.c */
extern const struct arena_planner arena_planner_xla_best_fit;         /* xla_best_fit.c */

/* min-cost-flow refuses larger problems with ARENA_ETOOBIG: it may scan all
 * of its O(n^2) edges once per tensor (see min_cost_flow.c). Keep the text
 * of ARENA_ETOOBIG in status.c in step. */
#define ARENA_MCF_MAX_TENSORS 5000u
extern const struct arena_planner arena_planner_optimal;              /* optimal/optimal.c */

#endif
