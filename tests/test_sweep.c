/* test_sweep.c — graphs/sweep.c: '|' lists and A..B ranges inside a spec
 * expand to the Cartesian product in nested-loop order (first key slowest),
 * texts that are not sweeps pass unchanged, and bad sweeps are refused with
 * one line naming the family and key. Expected lists are written out by
 * hand from the rule in graphs/sweep.h. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/source.h"
#include "graphs/sweep.h"
#include "planners/status.h"

static void free_items(char **items, size_t n)
{
    for (size_t i = 0; i < n; i++) free(items[i]);
    free(items);
}

static void expect_expands(const char *text, const char *const *want, size_t n_want)
{
    char **items = NULL, err[256] = "";
    size_t n = 0;
    cr_assert_eq(arena_sweep_expand(text, &items, &n, err, sizeof err), ARENA_OK, "%s: %s", text,
                 err);
    cr_assert_eq(n, n_want, "%s gave %zu specs, want %zu", text, n, n_want);
    for (size_t i = 0; i < n; i++) cr_expect_str_eq(items[i], want[i], "%s item %zu", text, i);
    free_items(items, n);
}

static void expect_refused(const char *text, const char *needle)
{
    char **items = NULL, err[256] = "";
    size_t n = 0;
    cr_assert_eq(arena_sweep_expand(text, &items, &n, err, sizeof err), ARENA_EINVAL, "%s", text);
    cr_expect(strstr(err, needle), "%s: message '%s' lacks '%s'", text, err, needle);
    cr_expect(!strchr(err, '\n'));
    free_items(items, n);
}

Test(sweep, range_counts_up)
{
    const char *want[] = {"random-intervals:n=1000,seed=1", "random-intervals:n=1000,seed=2",
                          "random-intervals:n=1000,seed=3"};
    expect_expands("random-intervals:n=1000,seed=1..3", want, 3);
}

Test(sweep, product_first_key_slowest)
{
    /* n has 2 values, seed 2: n outer loop, seed inner. */
    const char *want[] = {"random-intervals:n=100,live=5,seed=7",
                          "random-intervals:n=100,live=5,seed=8",
                          "random-intervals:n=200,live=5,seed=7",
                          "random-intervals:n=200,live=5,seed=8"};
    expect_expands("random-intervals:n=100|200,live=5,seed=7..8", want, 4);
}

Test(sweep, lists_mix_literals_and_ranges_in_written_order)
{
    const char *want[] = {"chain:ops=9", "chain:ops=2", "chain:ops=3", "chain:ops=1"};
    expect_expands("chain:ops=9|2..3|1", want, 4);
}

Test(sweep, choices_and_reals_take_lists)
{
    const char *want[] = {"random-dag:skip=0.1,dtype=int8", "random-dag:skip=0.1,dtype=fp32",
                          "random-dag:skip=0.5,dtype=int8", "random-dag:skip=0.5,dtype=fp32"};
    expect_expands("random-dag:skip=0.1|0.5,dtype=int8|fp32", want, 4);
}

Test(sweep, plain_texts_pass_unchanged)
{
    const char *texts[] = {"mobilenetv2", "chain:ops=8", "data/a..b|c.csv", "nofamily:n=1..3",
                           "chain:"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        expect_expands(texts[i], &texts[i], 1);
}

Test(sweep, a_single_point_range_is_one_spec)
{
    const char *want[] = {"chain:ops=5"};
    expect_expands("chain:ops=5..5", want, 1);
}

/* A caller's tighter limit: 100 x 100 specs pass at the default and at
 * 10,000, and are refused at 9,999 with the limit named. */
Test(sweep, a_tighter_limit_is_kept_and_named)
{
    const char *text = "random-intervals:n=1..100,seed=1..100";
    char **items = NULL, err[300] = "";
    size_t n = 0;
    cr_assert_eq(arena_sweep_expand_max(text, 10000, &items, &n, err, sizeof err), ARENA_OK, "%s",
                 err);
    cr_expect_eq(n, 10000);
    cr_expect_str_eq(items[n - 1], "random-intervals:n=100,seed=100");
    for (size_t i = 0; i < n; i++) free(items[i]);
    free(items);
    items = NULL;
    n = 0;
    cr_expect_eq(arena_sweep_expand_max(text, 9999, &items, &n, err, sizeof err), ARENA_EINVAL);
    cr_expect(strstr(err, "more than 9999 specs"), "%s", err);
    cr_expect_eq(n, 0);
    free(items);
}

Test(sweep, bad_sweeps_are_refused)
{
    expect_refused("random-intervals:seed=3..1", "range 3..1 is empty");
    expect_refused("chain:ops=1||2", "key 'ops': empty alternative");
    expect_refused("chain:ops=|2", "empty alternative");
    expect_refused("random-dag:skip=0.1..0.3", "needs an integer key");
    expect_refused("chain:ops=a..3", "not a range A..B");
    expect_refused("chain:ops=1..", "not a range A..B");
    expect_refused("chain:ops=1..99999999999999999999", "not a range A..B");
    /* 1001 x 1001 specs: above ARENA_SWEEP_MAX (10^6). */
    expect_refused("random-intervals:n=1..1001,seed=1..1001", "more than 1000000 specs");
    expect_refused("chain:ops=0..18446744073709551615", "not a range");
    /* fuzz_spec found this one: the bad range quoted a newline into the
     * message; every message is one line (control bytes as '?') */
    expect_refused("packed:n=\n5..7", "'?5..7' is not a range A..B");
}

Test(sweep, every_expanded_spec_loads)
{
    char **items = NULL, err[256] = "";
    size_t n = 0;
    cr_assert_eq(arena_sweep_expand("random-intervals:n=20|30,seed=1..3", &items, &n, err,
                                    sizeof err), ARENA_OK);
    cr_assert_eq(n, 6);
    for (size_t i = 0; i < n; i++) {
        struct arena_source s;
        cr_assert_eq(arena_source_load(items[i], 16, 1, &s, err, sizeof err), ARENA_OK, "%s: %s",
                     items[i], err);
        cr_expect_eq(s.problem.n, i < 3 ? 20u : 30u);
        arena_source_free(&s);
    }
    free_items(items, n);
}

/* A planner's keys expand by the same rules against its own table: a range
 * of its integer key, a list of a set's values ('+' joins a set's names, so
 * '|' still separates alternatives), the text before the keys kept
 * (plugin:PATH.so:NAME:), errors naming the owner. */
static const char *const off_names[] = {"stack", "twins", NULL};
static const struct arena_key planner_keys[] = {
    {.name = "seed", .kind = ARENA_KEY_UINT, .max = UINT64_MAX},
    {.name = "off", .kind = ARENA_KEY_SET, .def = "none", .choices = off_names},
};

static void expect_planner_expands(const char *text, size_t keys_at, const char *const *want,
                                   size_t n_want)
{
    char **items = NULL, err[256] = "";
    size_t n = 0;
    cr_assert_eq(arena_sweep_expand_keys("mine", planner_keys, 2, text, keys_at, &items, &n, err,
                                         sizeof err),
                 ARENA_OK, "%s: %s", text, err);
    cr_assert_eq(n, n_want, "%s gave %zu specs, want %zu", text, n, n_want);
    for (size_t i = 0; i < n; i++) cr_expect_str_eq(items[i], want[i], "%s item %zu", text, i);
    free_items(items, n);
}

Test(sweep, a_planners_keys_expand_against_its_table)
{
    const char *seeds[] = {"mine:seed=1", "mine:seed=2", "mine:seed=3"};
    expect_planner_expands("mine:seed=1..3", 5, seeds, 3);
    const char *offs[] = {"mine:off=none,seed=4", "mine:off=stack,seed=4",
                          "mine:off=stack+twins,seed=4"};
    expect_planner_expands("mine:off=none|stack|stack+twins,seed=4", 5, offs, 3);
    const char *plug[] = {"plugin:./x.so:mine:seed=7", "plugin:./x.so:mine:seed=8"};
    expect_planner_expands("plugin:./x.so:mine:seed=7|8", 20, plug, 2);
    const char *one[] = {"mine:off=stack"};
    expect_planner_expands("mine:off=stack", 5, one, 1);
    char **items = NULL, err[256] = "";
    size_t n = 0;
    cr_expect_eq(arena_sweep_expand_keys("mine", planner_keys, 2, "mine:off=stack..twins", 5,
                                         &items, &n, err, sizeof err),
                 ARENA_EINVAL);
    cr_expect(strstr(err, "mine: key 'off': a range A..B needs an integer key"), "%s", err);
    free_items(items, n);
}
