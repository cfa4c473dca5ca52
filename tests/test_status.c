/* test_status.c — every status has its own text. */
#include <criterion/criterion.h>
#include <string.h>

#include "planners/status.h"

Test(status, every_code_has_distinct_text)
{
    const int codes[] = {ARENA_OK, ARENA_EINVAL, ARENA_ENOMEM, ARENA_EOVERFLOW, ARENA_EFORMAT,
                         ARENA_EIO, ARENA_ECONFLICT, ARENA_ENOTFOUND, ARENA_EDB,
                         ARENA_ETOOBIG};
    size_t n = sizeof codes / sizeof codes[0];
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            cr_expect_str_neq(arena_strerror(codes[i]), arena_strerror(codes[j]));
    cr_expect_str_eq(arena_strerror(12345), "unknown status");
}
