/* sat.h — the SAT engine of planner optimal (planners/optimal/sat/): one
 * part's decision problem "is there a plan within C bytes?" as a CNF
 * formula in the order encoding, solved by CaDiCaL through its C API
 * (ccadical.h), beside the canonical search. Internal to planners/optimal/.
 *
 * Units: offsets, sizes and capacities in units of the part's step (the
 * gcd of its sizes: every gravity plan's offsets are sums of sizes, so some
 * optimal plan has its offsets on multiples of it; r->step).
 *
 * The encoding (the order encoding: Crawford and Baker 1994, Tamura et al.
 * 2009; for packing, Soh et al. 2010), of one part at a capacity T
 * (units), tensor k of size z_k with its offset o_k in a domain D_k of
 * [0, T - z_k]:
 * - per tensor, one variable per value d of D_k but the last, [o_k <= d],
 *   and the chain [o_k <= d] -> [o_k <= d'] for consecutive d < d';
 * - per pair of tensors whose lifetimes meet, k before j in position
 *   order, one variable "k lies below j" (its negation: j below k; in every
 *   plan exactly one holds), and for every value a of D_j the clause
 *   (k below j) and [o_j <= a] -> [o_k <= a - z_k], for every a of D_k the
 *   same the other way; on sparse domains these are complete for bounds
 *   propagation (the clause at a covers every w up to the next value).
 * Capacities below T are asked through levels: an activation variable
 * that, assumed, adds [o_k <= C - z_k] for every k and what each
 * strengthening knows at C; learnt clauses stay valid for every level.
 * Each strengthening is a rule of optimal's table (planners/optimal.h,
 * ARENA_OPTIMAL_SAT_*), switched off to measure it; its reason is stated
 * where it is written (domains.c, encode.c). */
#ifndef ARENA_OPTIMAL_SAT_H
#define ARENA_OPTIMAL_SAT_H

#include "planners/optimal/internal.h"

/* The engine's memory budget (planners/optimal.h). */
#define ARENA_SAT_MEMORY ARENA_OPTIMAL_SAT_MEMORY
/* The domains' narrowing works on one bitset of T + 1 bits per tensor: a
 * part whose bitsets would need more bytes is not encoded. */
#define ARENA_SAT_NARROW_BYTES ((uint64_t)64 << 20)
/* Full sections (load = capacity) whose tensors' order is made transitive
 * (rule sat-tiling): at most this many tensors each (clauses grow as the
 * cube: 2 per triple). */
#define ARENA_SAT_TILE_MAX 96u

struct arena_sat;

/* What an encoding is of: a part's m tensors in position order (by first
 * step), their sections among its S; the tensors meeting k after it are
 * k+1 .. fwd_end[k]-1. */
struct sat_inst {
    uint32_t m, S;
    const uint64_t *z; /* sizes in units */
    const uint32_t *first, *last, *s0, *s1, *fwd_end;
};

/* domains.c: each section's tensors, items[at[x] .. at[x + 1]) (malloc'd;
 * -1 without memory) */
int arena_sat_section_lists(const struct sat_inst *in, uint32_t **at, uint32_t **items);
/* domains.c: fills dom (m bitsets of words words each: bit v of tensor k
 * set = offset v allowed, in units) at capacity T for instance in (a whole
 * part: no fixed load): [0, T - z_k], narrowed when `narrow` to the slack
 * of the subset sums of each section's other tensors. Returns 0, or 1
 * when some domain emptied or some section carries more than T (no plan
 * within T), or -1 when a budget ran out (r->stopped) or memory could not
 * be had. Also the lcg engine's (rule lcg-domains, lcg/domains.c). */
int arena_sat_domains(struct run *r, const struct sat_inst *in, uint64_t T, uint64_t *dom,
                      size_t words, int narrow);
/* The same, narrowed when rule sat-domains is on. */
int arena_sat_narrow(struct run *r, const struct sat_inst *in, uint64_t T, uint64_t *dom, size_t words);

/* What opening a solver found. */
enum arena_sat_open {
    ARENA_SAT_READY,   /* encoded: ask it with arena_sat_solve */
    ARENA_SAT_NONE,    /* proven at once: no plan within the capacity (a domain
                          emptied, a section over it) */
    ARENA_SAT_SKIPPED, /* the encoding would pass the memory budget, or its
                          memory could not be had: the engine is skipped */
    ARENA_SAT_CROWDED, /* it fits the budget but not the room left by the
                          other parts' open solvers: close them, ask again */
    ARENA_SAT_STOPPED, /* a global budget ran out while building */
};

/* Opens a solver for the loaded part (r: part_load done) holding the
 * encoding at capacity cap bytes, with plan->offsets (optimal.c passes the
 * best greedy plan) as the phases' incumbent (rule sat-phases); room: the
 * bytes its estimate may take (at most ARENA_SAT_MEMORY). *out is set only
 * with READY. */
enum arena_sat_open arena_sat_open(struct run *r, uint64_t cap, const struct arena_plan *plan,
                                   uint64_t room, struct arena_sat **out);

/* The capacity (bytes) the open solver's clauses hold; its estimated bytes. */
uint64_t arena_sat_top(const struct arena_sat *s);
uint64_t arena_sat_bytes(const struct arena_sat *s);

/* Asks for a plan of the part within cap bytes (cap <= arena_sat_top),
 * within at most `conflicts` conflicts (and the global budgets: node_limit
 * counts conflicts with search nodes, time_limit and opt->stop through
 * CaDiCaL's terminate callback). FOUND: the plan, decoded, is kept through
 * keep_plan (plan->offsets when it improves the part); EXHAUSTED: no plan
 * within cap exists (proof); LIMITED: budget. r must hold the same part
 * loaded as at open. */
enum outcome arena_sat_solve(struct run *r, struct arena_sat *s, uint64_t cap,
                             uint64_t conflicts, struct arena_plan *plan);

/* Makes cap (bytes, below the top) the solver's top for good: unit clauses
 * [o_k <= cap - z_k], as after a plan at cap + step (learnt clauses kept). */
void arena_sat_lower_top(struct run *r, struct arena_sat *s, uint64_t cap);

/* Nonzero once the solver cannot be asked anything more: it ran out of
 * memory (ARENA_SAT_NO_MEMORY: CaDiCaL threw std::bad_alloc, caught in
 * cadical.cc), or a model it gave did not decode into a plan within its
 * capacity (ARENA_SAT_UNDECODED: never reached, an assert in builds with
 * them). The caller closes it and skips the part, as past the memory
 * budget, instead of spending budget on it again. */
enum { ARENA_SAT_NO_MEMORY = 1, ARENA_SAT_UNDECODED = 2 };
int arena_sat_broken(const struct arena_sat *s);

/* Frees the solver and its encoding (NULL: nothing). */
void arena_sat_close(struct arena_sat *s);

#endif
