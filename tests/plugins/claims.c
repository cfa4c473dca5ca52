/* claims.c — planners whose plans are valid but whose claims are not, for
 * the tests of what bench believes (bench/core/claims.h): each makes the plan of
 * every tensor end to end, and says more about it than it proves. */
#include <arenabench/planner.h>
#include <stddef.h>

static void end_to_end(const struct arena_problem *p, struct arena_plan *plan)
{
    uint64_t top = 0;
    for (size_t i = 0; i < p->n; i++) {
        plan->offsets[i] = top;
        top += p->tensors[i].size;
    }
    plan->arena = top;
}

/* Not a search planner, so its bound is not its to set: bound = arena. */
static int bound_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                      void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt, (void)scratch, (void)scratch_size;
    end_to_end(p, plan);
    plan->bound = plan->arena;
    return ARENA_OK;
}

/* A search planner that says its end-to-end plan is optimal. */
static int optimal_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                        void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt, (void)scratch, (void)scratch_size;
    end_to_end(p, plan);
    plan->status = ARENA_PLAN_OPTIMAL;
    plan->bound = plan->arena;
    return ARENA_OK;
}

/* In decision mode, says no plan fits: bound = capacity + 1 (at most its
 * own arena). */
static int infeasible_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                           void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)scratch, (void)scratch_size;
    end_to_end(p, plan);
    plan->status = ARENA_PLAN_INFEASIBLE;
    plan->bound = opt->capacity + 1 < plan->arena ? opt->capacity + 1 : plan->arena;
    return ARENA_OK;
}

/* Sets a note bit that only the built-in planner optimal defines (its SAT
 * engine skipped). */
static int noted_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                      void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt, (void)scratch, (void)scratch_size;
    end_to_end(p, plan);
    plan->notes = 1;
    return ARENA_OK;
}

static const struct arena_planner claims_bound = {
    .name = "claims-bound", .kind = ARENA_KIND_OFFSETS, .plan = bound_plan};
static const struct arena_planner claims_optimal = {
    .name = "claims-optimal", .kind = ARENA_KIND_SEARCH, .plan = optimal_plan};
static const struct arena_planner claims_infeasible = {
    .name = "claims-infeasible", .kind = ARENA_KIND_SEARCH, .plan = infeasible_plan};
static const struct arena_planner noted = {
    .name = "sets-a-note", .kind = ARENA_KIND_OFFSETS, .plan = noted_plan};

ARENA_PLUGIN(&claims_bound, &claims_optimal, &claims_infeasible, &noted);
