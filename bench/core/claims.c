/* claims.c — a plan's claims, checked against what bench knows (claims.h). */
#include "bench/core/claims.h"

#include <stdio.h>
#include <string.h>

#include "bench/core/options.h"

void arena_claims_read(struct arena_plan *plan, int guest, int search)
{
    if (!guest) return;
    plan->notes = 0; /* bits only the built-in planners define */
    if (search) return;
    plan->status = ARENA_PLAN_FEASIBLE;
    plan->bound = 0;
    plan->nodes = 0;
}

const char *arena_claims_wrong(const struct arena_plan *plan, enum arena_plan_status claimed,
                               int decides, const struct arena_plan_options *opt,
                               const struct arena_known_plan *known, char *buf, size_t len)
{
    unsigned long long arena = plan->arena, bound = plan->bound, cap = opt->capacity;
    if (plan->arena > ARENA_BENCH_INT_MAX)
        snprintf(buf, len, "arena %llu B is above 2^63-1 B, the largest figure the results"
                           " database stores", arena);
    else if (plan->nodes > ARENA_BENCH_INT_MAX)
        snprintf(buf, len, "planner reports %llu nodes, above 2^63-1",
                 (unsigned long long)plan->nodes);
    else if (plan->bound > plan->arena)
        snprintf(buf, len, "planner claims a lower bound of %llu B above its own arena of %llu B",
                 bound, arena);
    else if (plan->status == ARENA_PLAN_OPTIMAL && plan->bound != plan->arena)
        snprintf(buf, len, "planner claims optimal, but its arena %llu B is above its bound %llu B",
                 arena, bound);
    else if (plan->status == ARENA_PLAN_INFEASIBLE &&
             (opt->capacity == 0 || plan->bound <= opt->capacity))
        snprintf(buf, len, "planner claims infeasible, but its bound %llu B does not exceed"
                           " the capacity %llu B", bound, cap);
    else if (decides && opt->capacity && claimed == ARENA_PLAN_FEASIBLE &&
             plan->arena > opt->capacity)
        snprintf(buf, len, "planner claims a plan within the capacity %llu B, but its arena is"
                           " %llu B", cap, arena);
    else if ((unsigned)plan->status > ARENA_PLAN_LIMIT)
        snprintf(buf, len, "planner returned status %d, which is none of feasible, optimal,"
                           " infeasible, limit", (int)plan->status);
    else if (known->arena && plan->status == ARENA_PLAN_INFEASIBLE && known->arena <= cap)
        snprintf(buf, len, "planner claims no plan fits the capacity %llu B, but a valid plan of"
                           " this problem has %llu B (%s)", cap,
                 (unsigned long long)known->arena, known->whose);
    else if (known->arena && plan->bound > known->arena)
        snprintf(buf, len, "planner claims a lower bound of %llu B, but a valid plan of this"
                           " problem has %llu B (%s)", bound,
                 (unsigned long long)known->arena, known->whose);
    else
        return NULL;
    return buf;
}

void arena_claims_unproven(struct arena_plan *plan, uint64_t lower_bound, uint64_t capacity,
                           struct arena_claim *claim)
{
    claim->status = plan->status;
    claim->bound = plan->bound;
    enum arena_plan_status own = ARENA_PLAN_FEASIBLE;
    if (plan->status == ARENA_PLAN_LIMIT ||
        (plan->status == ARENA_PLAN_INFEASIBLE && plan->arena > capacity))
        own = ARENA_PLAN_LIMIT; /* stopped, or undecided */
    plan->status = own;
    plan->bound = 0;
    arena_plan_settle(plan, lower_bound); /* optimal when the arena meets max-live */
    if (capacity && lower_bound > capacity) plan->status = ARENA_PLAN_INFEASIBLE;
    claim->has = claim->status != plan->status || claim->bound > plan->bound;
}

void arena_known_plan_offer(struct arena_known_plan *known, uint64_t arena, const char *whose)
{
    if (known->arena && known->arena <= arena) return;
    known->arena = arena;
    snprintf(known->whose, sizeof known->whose, "%s", whose);
}
