/* expect_plan.c — see expect_plan.h. */
#include "tests/expect_plan.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

const struct arena_planner *must_find(const char *name)
{
    const struct arena_planner *pl = arena_planner_find(name);
    cr_assert(pl != NULL, "planner %s is not registered", name);
    return pl;
}

int run_planner(const struct arena_planner *pl, const struct arena_problem *p,
                const struct arena_plan_options *opt, uint64_t *off, struct arena_plan *plan,
                unsigned char junk)
{
    size_t bytes = 0;
    int rc = arena_planner_scratch(pl, p, &bytes);
    if (rc != ARENA_OK)
        return rc;
    void *scratch = malloc(bytes ? bytes : 1);
    cr_assert(scratch != NULL);
    memset(scratch, junk, bytes);
    plan->n = p->n;
    plan->offsets = off;
    rc = arena_planner_run(pl, p, opt, scratch, bytes, plan);
    free(scratch);
    return rc;
}

void expect_plan_valid(const struct arena_problem *p, const struct arena_plan *plan,
                       const char *who)
{
    struct arena_collision why;
    int rc = arena_plan_validate(p, plan, &why);
    if (rc != ARENA_OK) {
        char buf[320] = "";
        if (rc == ARENA_ECONFLICT)
            arena_collision_describe(p, plan, &why, buf, sizeof buf);
        cr_assert_fail("%s: invalid plan: %s %s", who, arena_strerror(rc), buf);
    }
}
