/* optimal.h — the planner `optimal`'s keys: its engines (key engine) and
 * its rules, for switching them off one by one (key off, a set:
 * `--planner optimal:engine=sat,off=stack+twins`): each rule prunes the
 * search or schedules a search, and none is needed for correctness, so
 * with any of them off the plans stay valid and proofs stay proofs; only
 * nodes change. The table below names them (the choices of key off). */
#ifndef ARENA_OPTIMAL_H
#define ARENA_OPTIMAL_H

#include <stddef.h>
#include <stdint.h>

#include "arenabench/planner.h"

enum arena_optimal_rule {
    ARENA_OPTIMAL_PARTS = 1u << 0,      /* independent parts solved alone */
    ARENA_OPTIMAL_GROUPS = 1u << 1,     /* dynamic decomposition into groups */
    ARENA_OPTIMAL_SECTION = 1u << 2,    /* section inference (release-time makespan) */
    ARENA_OPTIMAL_BUSIEST = 1u << 3,    /* children skipped by the busiest section */
    ARENA_OPTIMAL_DOMINANCE = 1u << 4,  /* no child above a tensor that fits below */
    ARENA_OPTIMAL_TWINS = 1u << 5,      /* identical tensors in rank order */
    ARENA_OPTIMAL_STACK = 1u << 6,      /* one lifetime's stack largest below */
    ARENA_OPTIMAL_LOWEST_GAP = 1u << 7, /* the lowest-gap search on parts without slack */
    ARENA_OPTIMAL_FILLER = 1u << 8,     /* the filler search on parts without slack */
    ARENA_OPTIMAL_DISCREPANCY = 1u << 9, /* limited discrepancy search at the bound first */
    ARENA_OPTIMAL_REPAIR = 1u << 10,    /* large-neighbourhood search from the best plan */
    ARENA_OPTIMAL_DEPTH_DISCREPANCY = 1u << 11, /* discrepancy budget on preorders 0-3,
                                                   half to the top levels only */
    ARENA_OPTIMAL_GAP_DISCREPANCY = 1u << 12, /* limited discrepancy search in the
                                                 lowest-gap search, after the filler */
    ARENA_OPTIMAL_OWN_TIMES = 1u << 13, /* preorders 4-6 over a file's own lifetime
                                           lengths, groups ranked afresh */
    ARENA_OPTIMAL_PROBES = 1u << 14,    /* minimising: decision runs below the best
                                           plan each round */
    ARENA_OPTIMAL_RERANK = 1u << 15,    /* preorder 2 ranks each group afresh by the
                                           loads left */
    /* the SAT engine's strengthenings (planners/optimal/sat/) */
    ARENA_OPTIMAL_SAT_DOMAINS = 1u << 16, /* offsets narrowed to the slack of the
                                             subset sums of each section */
    ARENA_OPTIMAL_SAT_TILING = 1u << 17,  /* full sections: "lies below" transitive */
    ARENA_OPTIMAL_SAT_PHASES = 1u << 18,  /* the best greedy plan as the solver's phases
                                             (the SAT and lcg engines) */
    /* the lcg engine's inferences (planners/optimal/lcg/) */
    ARENA_OPTIMAL_LCG_PROPAGATE = 1u << 19, /* an open pair whose one orientation would
                                               pass the capacity forced the other way */
    ARENA_OPTIMAL_LCG_DOMAINS = 1u << 20, /* heads and tails rounded up to the static
                                             subset-sum domains (sat-domains') */
    ARENA_OPTIMAL_LCG_ENERGY = 1u << 21,  /* a tensor's offset at least the sizes known
                                             below it in one section (above: likewise) */
    /* the portfolio's schedule (planners/optimal/share.c) */
    ARENA_OPTIMAL_ADAPTIVE_SHARE = 1u << 23, /* each member's CPU by its weight, doubled
                                                after a round with progress, halved
                                                after one without; lcg from round 1 */
    /* Key off's set holds rule i of arena_optimal_switches as bit i, and
       arena_optimal_values maps these bits to it: a bit may be assigned to
       a rule before the rules below it land. */

};

/* Which engines planner optimal runs (key engine). */
enum arena_optimal_engine {
    ARENA_OPTIMAL_ENGINE_PORTFOLIO = 0, /* the default: the search, then lcg and SAT in turn */
    ARENA_OPTIMAL_ENGINE_SEARCH = 1,    /* the canonical searches alone */
    ARENA_OPTIMAL_ENGINE_SAT = 2,       /* the SAT engine alone (after the greedy
                                           incumbents) */
    ARENA_OPTIMAL_ENGINE_LCG = 3,       /* the lazy-clause-generation engine alone
                                           (Z3 with a user propagator, after the
                                           greedy incumbents) */
};
#define ARENA_OPTIMAL_ENGINES 4u

/* The SAT engine's memory budget: the solvers open at once (one per part
 * at most) hold at most this many bytes by the estimate made before each
 * is built (its clauses counted, CaDiCaL's bytes per clause, literal and
 * variable measured, twice that for its learnt clauses and search). A part
 * whose encoding alone would pass it is left to the search, and the plan
 * says so (ARENA_PLAN_NOTE_SAT_MEMORY); bench prints a note. */
#define ARENA_OPTIMAL_SAT_MEMORY ((uint64_t)4 << 30)

/* The lcg engine's memory budget (planners/optimal/lcg/): Z3's allocations
 * are capped at it (Z3's memory_max_size, one limit for the process), and a
 * part with more pairs than it holds at an estimated 4 KiB each is not
 * opened. Past it, Z3 reports an error: the part's engine rounds end and
 * the plan says so (ARENA_PLAN_NOTE_LCG_FAILED). */
#define ARENA_OPTIMAL_LCG_MEMORY ((uint64_t)1 << 30)

/* "portfolio", "search", "sat", "lcg" (NULL for an unknown value). */
const char *arena_optimal_engine_name(unsigned engine);

/* The planner's keys, in its table's order (opt->values[...]). */
enum { ARENA_OPTIMAL_KEY_ENGINE, ARENA_OPTIMAL_KEY_OFF, ARENA_OPTIMAL_KEYS };

/* Values of the keys for an engine and the rules off as ARENA_OPTIMAL_*
 * bits (key off's set holds rule i of arena_optimal_switches as bit i; this
 * maps one to the other), for callers of the planner outside bench (tests,
 * tools): opt.values = v. */
void arena_optimal_values(struct arena_key_value v[ARENA_OPTIMAL_KEYS], unsigned engine,
                          uint32_t off);

struct arena_optimal_switch {
    const char *name;    /* as on the command line, e.g. "section" */
    uint32_t bit;        /* its ARENA_OPTIMAL_* bit */
    const char *summary; /* one line for --help */
};

/* Every rule, in the order above. */
extern const struct arena_optimal_switch arena_optimal_switches[];
extern const size_t arena_optimal_switch_count;

/* The rule named name[0..len), or NULL. */
const struct arena_optimal_switch *arena_optimal_switch_find(const char *name, size_t len);


/* The repair search alone (planners/optimal/repair.c), for tests: from the
 * valid plan in plan->offsets, searches neighbourhoods of each part whose
 * plan ends above cap for one within cap (budgets: opt's node and time
 * limits). plan->arena and nodes are updated; status FEASIBLE when the plan
 * fits cap, LIMIT otherwise (never a proof). scratch as the planner
 * optimal's (arena_planner_scratch). Returns ARENA_OK. */
int arena_optimal_repair(const struct arena_problem *p, const struct arena_plan_options *opt,
                         void *scratch, size_t scratch_size, struct arena_plan *plan, uint64_t cap);

/* An explanation of the lcg engine's propagator (tests): the edges it says
 * hold, lo[i] lying below hi[i] (positions 0..m of the part, sizes z in
 * units, sections [s0[k], s1[k])), which together must form a cycle or a
 * chain whose sizes pass cap (units): a conflict's two chains, or a
 * propagation's with the orientation it rules out as the last edge. With
 * rule lcg-energy a chain may pass through the tensors of one section all
 * below (above) one tensor: they lie apart, so they count stacked. With
 * rule lcg-domains (domains nonzero: the top, in units, they were computed
 * at) the chain's sums are rounded at each tensor up to its static domain
 * (planners/optimal/lcg/domains.c), and it is the rounded chain that
 * passes cap. */
typedef void arena_optimal_lemma_fn(void *ctx, const uint32_t *lo, const uint32_t *hi, uint32_t n,
                                    uint64_t cap, const uint64_t *z, uint32_t m,
                                    const uint32_t *s0, const uint32_t *s1, uint64_t domains);

/* Planner optimal (scratch as its own) with every explanation of the lcg
 * engine handed to fn as well (NULL: none; with key engine lcg),
 * and Z3's memory capped at memory_mb MiB instead of
 * ARENA_OPTIMAL_LCG_MEMORY (0: that). Returns as the planner's plan(). */
int arena_optimal_lcg_lemmas(const struct arena_problem *p, const struct arena_plan_options *opt,
                             void *scratch, size_t scratch_size, struct arena_plan *plan,
                             arena_optimal_lemma_fn *fn, void *ctx, uint64_t memory_mb);

#endif
