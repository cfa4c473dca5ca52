/* test_shard.c — bench/core/shard.c: the N parts of a job list are disjoint,
 * cover it, differ in size by at most one, and do not depend on the order
 * the jobs come in; the hash is FNV-1a 64 (the reference value of "a" and
 * of the empty string worked from the FNV definition below). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/shard.h"

/* FNV-1a 64: offset basis 0xcbf29ce484222325, prime 0x100000001b3. The job
 * ("", "") hashes the one NUL byte: (basis ^ 0) * prime. */
Test(shard, hash_is_fnv1a_over_spec_nul_planner)
{
    uint64_t want = 0xcbf29ce484222325ull * 0x100000001b3ull;
    cr_expect_eq(arena_shard_hash("", ""), want);
    /* ("a", "") = bytes 'a', NUL; ("", "a") = NUL, 'a': they differ. */
    cr_expect_neq(arena_shard_hash("a", ""), arena_shard_hash("", "a"));
    uint64_t h = 0xcbf29ce484222325ull;
    h = (h ^ 'a') * 0x100000001b3ull;
    h = (h ^ 0) * 0x100000001b3ull;
    h = (h ^ 'b') * 0x100000001b3ull;
    cr_expect_eq(arena_shard_hash("a", "b"), h);
}

#define SPECS 13
#define PLANNERS 5
#define JOBS (SPECS * PLANNERS)

static char spec_text[SPECS][48];
static const char *const planner_names[PLANNERS] = {"naive", "greedy-by-size", "ping-pong",
                                                    "xla-best-fit", "hill-climb"};

static void jobs(const char **spec, const char **planner, int reversed)
{
    for (size_t i = 0; i < JOBS; i++) {
        size_t j = reversed ? JOBS - 1 - i : i;
        snprintf(spec_text[j / PLANNERS], sizeof spec_text[0], "random-intervals:n=100,seed=%zu",
                 j / PLANNERS + 1);
        spec[i] = spec_text[j / PLANNERS];
        planner[i] = planner_names[j % PLANNERS];
    }
}

Test(shard, parts_cover_the_jobs_once_and_evenly)
{
    const char *spec[JOBS], *planner[JOBS];
    unsigned part[JOBS];
    jobs(spec, planner, 0);
    for (unsigned n = 1; n <= 9; n++) {
        cr_assert_eq(arena_shard_assign(spec, planner, JOBS, n, part), 0);
        size_t count[10] = {0};
        for (size_t i = 0; i < JOBS; i++) {
            cr_assert(part[i] >= 1 && part[i] <= n, "job %zu in part %u of %u", i, part[i], n);
            count[part[i]]++; /* each job has exactly one part: no overlap */
        }
        size_t total = 0;
        for (unsigned k = 1; k <= n; k++) {
            /* 65 jobs: every part gets floor(65/n) or ceil(65/n). */
            cr_expect(count[k] == JOBS / n || count[k] == (JOBS + n - 1) / n,
                      "part %u of %u has %zu jobs", k, n, count[k]);
            total += count[k];
        }
        cr_expect_eq(total, JOBS); /* the union is the whole */
    }
}

Test(shard, parts_do_not_depend_on_the_order_of_jobs)
{
    const char *spec[JOBS], *planner[JOBS], *rspec[JOBS], *rplanner[JOBS];
    unsigned part[JOBS], rpart[JOBS];
    jobs(spec, planner, 0);
    cr_assert_eq(arena_shard_assign(spec, planner, JOBS, 4, part), 0);
    char copy[SPECS][48];
    memcpy(copy, spec_text, sizeof copy);
    jobs(rspec, rplanner, 1);
    cr_assert_eq(arena_shard_assign(rspec, rplanner, JOBS, 4, rpart), 0);
    for (size_t i = 0; i < JOBS; i++)
        cr_expect_eq(part[i], rpart[JOBS - 1 - i], "job %zu", i);
}
