/* claims.h — what a valid plan says about itself, checked, never trusted.
 *
 * A plan comes with claims beyond its offsets: a status (optimal,
 * infeasible, limit) and a proven lower bound, for a search planner (the
 * contract, include/arenabench/planner.h); notes about what a built-in
 * planner could not do. bench reads each field only where the planner may
 * set it, checks every claim against what it knows itself, and stores as
 * a proof only what it proved:
 *
 *  - a guest (a plugin or a program: code bench did not write) has its
 *    notes cleared, and unless it is a search planner its status, bound
 *    and nodes too;
 *  - any planner's claims must hold together (a bound at most its own
 *    arena, optimal only at its bound, infeasible only with a bound above
 *    the capacity, a known status), and must not contradict a valid plan of
 *    the same problem that bench holds (this run's, or the database's whose
 *    placements the validator accepts again): a
 *    bound above that plan's arena, or "no plan fits" a capacity that plan
 *    meets. Either makes the result invalid with one line. bench measures a
 *    search plugin after a graph's other planners, so their plans are
 *    known by then;
 *  - a built-in planner's claims are proofs (the engines are bench's own
 *    code, tested); a guest's are stored as its claim, beside what bench
 *    proved from the max-live bound alone: optimal when the arena meets
 *    it, infeasible when it is above the capacity, else feasible (limit
 *    when the guest said it stopped, or claimed infeasible with a plan
 *    above the capacity: undecided). So no guest's word ever becomes the
 *    best bound another planner is divided by, or "the optimum".
 * Internal to bench/. */
#ifndef ARENA_BENCH_CLAIMS_H
#define ARENA_BENCH_CLAIMS_H

#include <stddef.h>
#include <stdint.h>

#include "planners/planner.h"

/* What a guest claimed beyond bench's proofs. */
struct arena_claim {
    int has;                       /* it claimed more than bench proved */
    enum arena_plan_status status; /* what it said */
    uint64_t bound;                /* its bound, 0 for none */
};

/* The smallest valid arena bench holds for a problem, and whose it is
 * ("greedy-by-size, this run"); arena 0: none known. */
struct arena_known_plan {
    uint64_t arena;
    char whose[160];
};

/* Clears the fields of a guest's plan it may not set (above). */
void arena_claims_read(struct arena_plan *plan, int guest, int search);

/* After the validator accepted the plan and arena_plan_settle ran:
 * NULL when its claims hold together and contradict nothing in known,
 * else the reason, one line in buf. claimed is the status the planner
 * gave; decides: a plan meant to fit a capacity (a search planner or a
 * program, in decision mode). */
const char *arena_claims_wrong(const struct arena_plan *plan, enum arena_plan_status claimed,
                               int decides, const struct arena_plan_options *opt,
                               const struct arena_known_plan *known, char *buf, size_t len);

/* A guest's valid plan: its status and bound moved into *claim, and
 * replaced by what bench proves from lower_bound and capacity (above). */
void arena_claims_unproven(struct arena_plan *plan, uint64_t lower_bound, uint64_t capacity,
                           struct arena_claim *claim);

/* Keeps in *known the smaller of it and a valid plan's arena. */
void arena_known_plan_offer(struct arena_known_plan *known, uint64_t arena, const char *whose);

#endif
