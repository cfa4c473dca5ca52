/* expect_plan.c — see expect_plan.h. */
#include "tests/expect_plan.h"

#include <criterion/criterion.h>

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
