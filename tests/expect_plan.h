/* expect_plan.h — what the planner tests share: running a planner the way
 * callers must (exact scratch, the checked entry point), and the one
 * assertion that a plan passes the independent validator, failing with the
 * validator's own description of the fault. */
#ifndef EXPECT_PLAN_H
#define EXPECT_PLAN_H

#include "planners/planner.h"
#include "planners/problem.h"

/* Plans p with pl through arena_planner_run into off (plan->n and offsets
 * are set; the other fields are left to the planner), with exactly the
 * scratch pl asks for, filled with junk so that a planner reading scratch it
 * never wrote gives itself away. Returns the planner's status. */
/* The registered planner of that name; fails the running test if none. */
const struct arena_planner *must_find(const char *name);

int run_planner(const struct arena_planner *pl, const struct arena_problem *p,
                const struct arena_plan_options *opt, uint64_t *off, struct arena_plan *plan,
                unsigned char junk);

/* Fails the running Criterion test, naming `who`, unless plan is valid for p. */
void expect_plan_valid(const struct arena_problem *p, const struct arena_plan *plan,
                       const char *who);

#endif
