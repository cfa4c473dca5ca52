/* test_gbench.c — the Google Benchmark C wrapper: a trivial callback is
 * registered, run and read back with sane aggregates. Criterion runs each
 * test in its own process, so each starts with an empty registration list. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/gbench.h"

struct counter {
    uint64_t calls;   /* timed calls */
    uint64_t setups;
    int done;
    int fail_setup;
    uint64_t fail_at; /* iter returns nonzero on this call (0: never) */
    struct arena_gbench_stats stats;
};

static int count_setup(void *ctx)
{
    struct counter *c = ctx;
    c->setups++;
    return c->fail_setup;
}

static int count_iter(void *ctx)
{
    struct counter *c = ctx;
    c->calls++;
    return c->fail_at && c->calls == c->fail_at;
}

static void count_done(void *ctx, const struct arena_gbench_stats *s)
{
    struct counter *c = ctx;
    c->done++;
    c->stats = *s;
}

static void init_flags(const char *reps, const char *min_time)
{
    char a0[] = "test", a1[64], a2[64];
    snprintf(a1, sizeof a1, "--benchmark_repetitions=%s", reps);
    snprintf(a2, sizeof a2, "--benchmark_min_time=%s", min_time);
    char *argv[] = {a0, a1, a2, NULL};
    char err[200] = "";
    cr_assert_eq(arena_gbench_init(3, argv, err, sizeof err), 0, "%s", err);
}

/* Fixed 100 iterations x 3 repetitions: Google Benchmark runs no estimation,
 * so the callback runs exactly 3 * 100 times, setup once per repetition. */
Test(gbench, fixed_iterations_are_counted_exactly)
{
    init_flags("3", "0.001");
    struct counter c = {0};
    struct arena_gbench_spec s = {.name = "trivial", .setup = count_setup, .iter = count_iter,
                                  .done = count_done, .ctx = &c, .iterations = 100};
    cr_assert_eq(arena_gbench_register(&s), 0);
    char err[200] = "";
    cr_assert_eq(arena_gbench_run(err, sizeof err), 1, "%s", err);
    cr_assert_eq(c.done, 1);
    cr_expect_eq(c.calls, 300);
    cr_expect_eq(c.setups, 3);
    cr_expect(c.stats.measured);
    cr_expect_not(c.stats.error);
    cr_expect_eq(c.stats.repetitions, 3);
    cr_expect_eq(c.stats.iterations, 300);
    cr_expect(c.stats.median_ns > 0 && c.stats.median_ns < 1e6, "median %g", c.stats.median_ns);
    cr_expect(c.stats.mean_ns > 0 && c.stats.mean_ns < 1e6, "mean %g", c.stats.mean_ns);
    cr_expect(c.stats.stddev_ns >= 0 && isfinite(c.stats.stddev_ns));
}

/* With a minimum time, Google Benchmark also calls the function while it
 * estimates the iteration count: the timed calls it reports are a subset. */
Test(gbench, min_time_reports_at_most_the_calls_made)
{
    init_flags("2", "0.002");
    struct counter a = {0}, b = {0};
    struct arena_gbench_spec s = {.name = "a", .iter = count_iter, .done = count_done, .ctx = &a};
    cr_assert_eq(arena_gbench_register(&s), 0);
    s.name = "b";
    s.ctx = &b;
    s.repetitions = 4; /* overrides the flag for this benchmark only */
    cr_assert_eq(arena_gbench_register(&s), 0);
    cr_assert_eq(arena_gbench_run(NULL, 0), 2);
    cr_expect_eq(a.stats.repetitions, 2);
    cr_expect_eq(b.stats.repetitions, 4);
    cr_expect(a.stats.iterations >= 2 && a.stats.iterations <= a.calls);
    cr_expect(b.stats.iterations >= 4 && b.stats.iterations <= b.calls);
    cr_expect(isfinite(a.stats.stddev_ns));
}

Test(gbench, one_repetition_has_no_stddev)
{
    init_flags("1", "0.001");
    struct counter c = {0};
    struct arena_gbench_spec s = {.name = "one", .iter = count_iter, .done = count_done,
                                  .ctx = &c, .iterations = 10};
    cr_assert_eq(arena_gbench_register(&s), 0);
    cr_assert_eq(arena_gbench_run(NULL, 0), 1);
    cr_expect_eq(c.stats.repetitions, 1);
    cr_expect_eq(c.stats.iterations, 10);
    cr_expect_eq(c.stats.median_ns, c.stats.mean_ns);
    cr_expect(isnan(c.stats.stddev_ns));
}

Test(gbench, failing_setup_or_iter_is_an_error_and_stops)
{
    init_flags("2", "0.001");
    struct counter bad_setup = {.fail_setup = 1}, bad_iter = {.fail_at = 5}, good = {0};
    struct arena_gbench_spec s = {.name = "bad-setup", .setup = count_setup, .iter = count_iter,
                                  .done = count_done, .ctx = &bad_setup, .iterations = 50};
    cr_assert_eq(arena_gbench_register(&s), 0);
    s.name = "bad-iter";
    s.ctx = &bad_iter;
    cr_assert_eq(arena_gbench_register(&s), 0);
    s.name = "good";
    s.ctx = &good;
    cr_assert_eq(arena_gbench_register(&s), 0);
    cr_assert_eq(arena_gbench_run(NULL, 0), 3);
    cr_expect_eq(bad_setup.calls, 0);
    cr_expect(bad_setup.stats.error);
    cr_expect_eq(bad_setup.stats.repetitions, 0);
    cr_expect_eq(bad_setup.done, 1);
    /* The iteration that failed ends its repetition; the second repetition
     * fails at once because the counter has passed fail_at only once. */
    cr_expect(bad_iter.stats.error);
    cr_expect(bad_iter.calls >= 5 && bad_iter.calls < 100, "%llu calls",
              (unsigned long long)bad_iter.calls);
    cr_expect_eq(good.stats.iterations, 100);
    cr_expect_not(good.stats.error);
}

Test(gbench, filtered_out_benchmarks_are_done_but_not_measured)
{
    char a0[] = "test", a1[] = "--benchmark_filter=^keep/", a2[] = "--benchmark_min_time=0.001";
    char *argv[] = {a0, a1, a2, NULL};
    cr_assert_eq(arena_gbench_init(3, argv, NULL, 0), 0);
    struct counter keep = {0}, skip = {0};
    struct arena_gbench_spec s = {.name = "keep", .iter = count_iter, .done = count_done,
                                  .ctx = &keep, .iterations = 3};
    cr_assert_eq(arena_gbench_register(&s), 0);
    s.name = "skip";
    s.ctx = &skip;
    cr_assert_eq(arena_gbench_register(&s), 0);
    cr_assert_eq(arena_gbench_run(NULL, 0), 1);
    cr_expect(keep.stats.measured);
    cr_expect_eq(skip.done, 1);
    cr_expect_not(skip.stats.measured);
    cr_expect_eq(skip.calls, 0);
}

/* A filter that matches nothing: 0 matched, every done called unmeasured,
 * and not a word on stderr (bench says it in its own one line). The names
 * Google Benchmark matches carry "/iterations:N" and "/repeats:N" when
 * they are fixed, and a leading '-' negates: both are honoured. */
Test(gbench, a_filter_that_matches_nothing_runs_nothing_and_prints_nothing)
{
    const char *filters[] = {"--benchmark_filter=nomatch", "--benchmark_filter=-keep"};
    for (size_t f = 0; f < 2; f++) {
        arena_gbench_clear();
        char a0[] = "test", a1[64], a2[] = "--benchmark_min_time=0.001";
        snprintf(a1, sizeof a1, "%s", filters[f]);
        char *argv[] = {a0, a1, a2, NULL};
        cr_assert_eq(arena_gbench_init(3, argv, NULL, 0), 0);
        struct counter keep = {0};
        struct arena_gbench_spec s = {.name = "keep", .iter = count_iter, .done = count_done,
                                      .ctx = &keep, .iterations = 3, .repetitions = 2};
        cr_assert_eq(arena_gbench_register(&s), 0);
        FILE *err = tmpfile();
        cr_assert(err);
        fflush(stderr);
        int saved = dup(STDERR_FILENO);
        dup2(fileno(err), STDERR_FILENO);
        int matched = arena_gbench_run(NULL, 0);
        fflush(stderr);
        dup2(saved, STDERR_FILENO);
        close(saved);
        cr_expect_eq(matched, 0, "%s", filters[f]);
        cr_expect_eq(keep.done, 1);
        cr_expect_not(keep.stats.measured);
        cr_expect_eq(keep.calls, 0);
        cr_assert_eq(fseek(err, 0, SEEK_END), 0);
        cr_expect_eq(ftell(err), 0, "%s: Google Benchmark printed something", filters[f]);
        fclose(err);
    }
    /* The fixed counts are part of the name: this filter keeps it. */
    arena_gbench_clear();
    char a0[] = "test", a1[] = "--benchmark_filter=keep/iterations:3/repeats:2$",
         a2[] = "--benchmark_min_time=0.001";
    char *argv[] = {a0, a1, a2, NULL};
    cr_assert_eq(arena_gbench_init(3, argv, NULL, 0), 0);
    struct counter keep = {0};
    struct arena_gbench_spec s = {.name = "keep", .iter = count_iter, .done = count_done,
                                  .ctx = &keep, .iterations = 3, .repetitions = 2};
    cr_assert_eq(arena_gbench_register(&s), 0);
    cr_expect_eq(arena_gbench_run(NULL, 0), 1);
    cr_expect_eq(keep.calls, 6);
}

Test(gbench, bad_registrations_and_flags_are_refused)
{
    struct counter c = {0};
    struct arena_gbench_spec s = {.name = "x", .iter = count_iter, .ctx = &c};
    cr_expect_eq(arena_gbench_register(&s), 0);
    cr_expect_eq(arena_gbench_register(&s), -1, "duplicate name");
    s.name = "";
    cr_expect_eq(arena_gbench_register(&s), -1, "empty name");
    s.name = "y";
    s.iter = NULL;
    cr_expect_eq(arena_gbench_register(&s), -1, "no callback");
    arena_gbench_clear();
    s.name = "x";
    s.iter = count_iter;
    cr_expect_eq(arena_gbench_register(&s), 0, "cleared names are free again");

    char a0[] = "test", a1[] = "--benchmark_nonsense=1";
    char *argv[] = {a0, a1, NULL};
    char err[200] = "";
    cr_expect_eq(arena_gbench_init(2, argv, err, sizeof err), -1);
    cr_expect(strstr(err, "--benchmark_nonsense=1") != NULL, "%s", err);
}

/* --benchmark_out passes through: Google Benchmark writes its JSON file. */
Test(gbench, benchmark_out_writes_json)
{
    char dir[] = "/tmp/gbench-XXXXXX";
    cr_assert(mkdtemp(dir));
    char out[128], a1[160];
    snprintf(out, sizeof out, "%s/out.json", dir);
    snprintf(a1, sizeof a1, "--benchmark_out=%s", out);
    char a0[] = "test", a2[] = "--benchmark_out_format=json", a3[] = "--benchmark_min_time=0.001";
    char *argv[] = {a0, a1, a2, a3, NULL};
    cr_assert_eq(arena_gbench_init(4, argv, NULL, 0), 0);
    struct counter c = {0};
    struct arena_gbench_spec s = {.name = "json-me", .iter = count_iter, .ctx = &c,
                                  .iterations = 7};
    cr_assert_eq(arena_gbench_register(&s), 0);
    cr_assert_eq(arena_gbench_run(NULL, 0), 1);
    FILE *f = fopen(out, "r");
    cr_assert(f, "no %s", out);
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    remove(out);
    rmdir(dir);
    cr_expect(strstr(buf, "\"name\": \"json-me/iterations:7\"") != NULL, "%s", buf);
    cr_expect(strstr(buf, "\"iterations\": 7") != NULL);
}
