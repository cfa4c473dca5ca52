/* expect_plan.h — the one test assertion that a plan passes the independent
 * validator, failing with the validator's own description of the fault. */
#ifndef EXPECT_PLAN_H
#define EXPECT_PLAN_H

#include "planners/problem.h"

/* Fails the running Criterion test, naming `who`, unless plan is valid for p. */
void expect_plan_valid(const struct arena_problem *p, const struct arena_plan *plan,
                       const char *who);

#endif
