/* test_knobs.c — the keys of the built-in planners (issue 44): each key
 * changes the plan where it should, on a small problem whose plans under two
 * values are worked out by hand (in the comments) and checked by the
 * validator; and at their defaults the planners give the arenas main gave
 * before planners had keys: every line of
 * tests/default_arenas.tsv (suite, graph, planner, arena; its header says
 * the commit and the bench command that wrote it) planned again through
 * the library and compared, each plan checked by the validator. The suites
 * exact and mobilenetv2 run by default; the real models (scripts/fetch-
 * models; skipped, naming the command, when models/ lacks one) in
 * knobs-slow. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/source.h"
#include "planners/keys.h"
#include "planners/planner.h"
#include "tests/expect_plan.h"

#ifndef ARENA_SOURCE_ROOT
#error "tests/meson.build passes ARENA_SOURCE_ROOT"
#endif

TestSuite(knobs);

/* values[0 .. pl->n_keys): the keys of pl as the spec text `set` gives
 * them ("key=value,..."; NULL: none), through the one key parser, the rest
 * at their defaults (the key seed, which has none, at `seed`, as bench
 * gives it --seed). */
static void key_values(const struct arena_planner *pl, uint64_t seed, const char *set,
                       struct arena_key_value *values)
{
    char err[256] = "";
    const char *text = set ? set : "";
    cr_assert_eq(arena_keys_parse(pl->name, pl->keys, pl->n_keys, text, strlen(text), seed,
                                  values, err, sizeof err),
                 ARENA_OK, "%s", err);
}

/* Plans p with planner `name`, every key at its default but `set`, seed 1
 * and no limit; asserts a valid plan and returns it (offsets into off). */
static struct arena_plan plan_with(const char *name, const char *set,
                                   const struct arena_problem *p, uint64_t *off)
{
    const struct arena_planner *pl = must_find(name);
    struct arena_key_value values[ARENA_PLANNER_MAX_KEYS];
    key_values(pl, 1, set, values);
    struct arena_plan_options opt = arena_plan_options_default;
    opt.seed = 1;
    opt.values = pl->n_keys ? values : NULL;
    struct arena_plan plan = {0};
    cr_assert_eq(run_planner(pl, p, &opt, off, &plan, 0x5a), ARENA_OK, "%s:%s", name, set);
    char who[128];
    snprintf(who, sizeof who, "%s:%s", name, set ? set : "");
    expect_plan_valid(p, &plan, who);
    return plan;
}

/* plan_with, then the arena and every offset against the hand answer. */
static void expect_keyed(const char *name, const char *set, const struct arena_tensor *t,
                         size_t n, uint64_t alignment, const uint64_t *want_off,
                         uint64_t want_arena)
{
    struct arena_problem p = {.n = n, .tensors = t, .alignment = alignment};
    uint64_t off[16];
    cr_assert_leq(n, 16);
    struct arena_plan plan = plan_with(name, set, &p, off);
    cr_assert_eq(plan.arena, want_arena, "%s:%s: arena %" PRIu64 ", by hand %" PRIu64, name,
                 set ? set : "", plan.arena, want_arena);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(off[i], want_off[i], "%s:%s: tensor %zu at %" PRIu64 ", by hand %" PRIu64,
                     name, set ? set : "", i, off[i], want_off[i]);
}

/* Every built-in planner's key table passes the check a plugin's must pass
 * (names, bounds, choices, defaults that parse, seed alone without one),
 * and every key has its one line of help for the listing and docs. */
Test(knobs, every_key_table_passes_the_check_and_every_key_is_helped)
{
    for (size_t i = 0; i < arena_planner_count(); i++) {
        const struct arena_planner *pl = arena_planner_at(i);
        char err[256] = "";
        cr_assert_eq(arena_keys_check(pl->name, pl->keys, pl->n_keys, err, sizeof err), ARENA_OK,
                     "%s", err);
        for (uint32_t k = 0; k < pl->n_keys; k++)
            cr_assert(pl->keys[k].help != NULL && pl->keys[k].help[0] != '\0' &&
                          !strchr(pl->keys[k].help, '\n'),
                      "%s: key %s has no one-line help", pl->name, pl->keys[k].name);
    }
}

/* ALGORITHMS.md's first-fit answer: (10,0,1), (20,1,2), (30,2,3), (40,3,4),
 * (50,0,1), lower bound 80. Round 1 is first fit in size order (50, 40,
 * 30, 20, 10): 50 at 0; 40 at 0 (no conflict); 30 meets 40 only: at 40;
 * 20 meets 30 (40..70) and 50 (0..50): 0..40 is 40 but 50 sits there, so
 * above 70; 10 meets 50 and 20: 50..70? 20 is at 70, so the gap 50..70
 * holds it: 50. Arena 90, offsets 50, 70, 40, 0, 0. With the default 500
 * rounds the swaps reach the bound, 80 (status optimal, at most 500
 * rounds); with rounds=1 the climb is that first round (status limit). */
Test(knobs, hill_climb_rounds_bound_the_climb)
{
    const struct arena_tensor t[] = {{10, 0, 1}, {20, 1, 2}, {30, 2, 3}, {40, 3, 4}, {50, 0, 1}};
    struct arena_problem p = {.n = 5, .tensors = t, .alignment = 1};
    uint64_t off[5];
    struct arena_plan one = plan_with("hill-climb", "rounds=1", &p, off);
    const uint64_t first_fit[] = {50, 70, 40, 0, 0};
    cr_assert_eq(one.arena, 90);
    cr_assert_eq(one.nodes, 1);
    cr_assert_eq(one.status, ARENA_PLAN_LIMIT);
    for (size_t i = 0; i < 5; i++)
        cr_assert_eq(off[i], first_fit[i], "tensor %zu", i);
    struct arena_plan many = plan_with("hill-climb", NULL, &p, off);
    cr_assert_eq(many.arena, 80);
    cr_assert_eq(many.status, ARENA_PLAN_OPTIMAL);
    cr_assert_leq(many.nodes, 500);
    cr_assert_gt(many.nodes, 1);
}

/* The seed key, not opt->seed, draws the swaps: on packed:n=50 with 30
 * rounds, seeds 1 to 5 give at least two different valid plans, the same
 * seed twice the same plan, and the key's seed whatever opt->seed says. */
Test(knobs, hill_climb_seed_draws_the_swaps)
{
    struct arena_source src = {0};
    char err[256] = "";
    cr_assert_eq(arena_source_load("packed:n=50,seed=1", 16, 1, &src, err, sizeof err), ARENA_OK,
                 "%s", err);
    const struct arena_problem *p = &src.problem;
    uint64_t *off = calloc(p->n, sizeof *off), *again = calloc(p->n, sizeof *again);
    cr_assert(off && again);
    uint64_t arenas[5];
    size_t distinct = 0;
    for (unsigned s = 1; s <= 5; s++) {
        char set[32];
        snprintf(set, sizeof set, "seed=%u,rounds=30", s);
        const struct arena_planner *pl = must_find("hill-climb");
        struct arena_key_value values[2];
        key_values(pl, 1, set, values);
        struct arena_plan_options opt = arena_plan_options_default;
        opt.values = values;
        opt.seed = 99; /* not read */
        struct arena_plan plan = {0}, twice = {0};
        cr_assert_eq(run_planner(pl, p, &opt, off, &plan, 0), ARENA_OK);
        expect_plan_valid(p, &plan, set);
        opt.seed = 7;
        cr_assert_eq(run_planner(pl, p, &opt, again, &twice, 0xff), ARENA_OK);
        cr_assert_eq(memcmp(off, again, p->n * sizeof *off), 0, "%s: two plans", set);
        arenas[s - 1] = plan.arena;
        size_t j = 0;
        while (j < s - 1 && arenas[j] != plan.arena)
            j++;
        distinct += j == s - 1;
    }
    cr_assert_geq(distinct, 2, "seeds 1..5 gave one arena, %" PRIu64, arenas[0]);
    free(off);
    free(again);
    arena_source_free(&src);
}

/* (30,[1,2]), (20,[3,3]), (20,[3,3]), (30,[1,3]). ties=first takes the 30s
 * as 0 (first 1, id 0) then 3: 0 at 0, 3 above it at 30; 1 meets only 3
 * (30..60), so the gap 0..30 takes it at 0; 2 meets 1 (0..20) and 3:
 * 20..30 is too small, so 60. Arena 80. ties=longest takes 3 (lifetime 2)
 * before 0 (1): 3 at 0, 0 at 30; 1 meets 3 only: at 30; 2 meets 1 and 3:
 * at 50. Arena 70. Best and first fit see one gap at a time here, so both
 * greedy-by-size planners give these plans. */
Test(knobs, greedy_ties_longest_takes_the_longer_lifetime_first)
{
    const struct arena_tensor t[] = {{30, 1, 2}, {20, 3, 3}, {20, 3, 3}, {30, 1, 3}};
    const uint64_t by_first[] = {0, 0, 60, 30}, by_longest[] = {30, 30, 50, 0};
    const char *const names[] = {"greedy-by-size", "greedy-by-size-firstfit"};
    for (size_t i = 0; i < 2; i++) {
        expect_keyed(names[i], NULL, t, 4, 1, by_first, 80);
        expect_keyed(names[i], "ties=first", t, 4, 1, by_first, 80);
        expect_keyed(names[i], "ties=longest", t, 4, 1, by_longest, 70);
    }
}

/* Two problems, one where each order wins. (30,[3,3]), (20,[2,3]),
 * (20,[1,2]): by size, 0 at 0, then 2 (first 1) at 0 (no conflict), 1
 * meets both: 30; arena 50. By lifetime, 2 and 1 (length 1) first: 2 at 0,
 * 1 at 20, then 0 meets 1 (20..40): 0..20 is too small, 40; arena 70.
 * (40,[0,2]), (20,[3,4]), (30,[1,3]), (40,[4,4]): by size, 0 at 0, 3 at 0,
 * 2 meets 0: 40, 1 meets 2 and 3 (0..70 covered): 70; arena 90. By
 * lifetime, 0 and 2 (length 2) at 0 and 40, then 1 meets 2 only: 0, then
 * 3 meets 1 (0..20): 20; arena 70. order=both keeps the smaller. */
Test(knobs, xla_order_runs_one_order_or_both)
{
    const struct arena_tensor a[] = {{30, 3, 3}, {20, 2, 3}, {20, 1, 2}};
    const uint64_t a_size[] = {0, 30, 0}, a_life[] = {40, 20, 0};
    expect_keyed("xla-best-fit", "order=size", a, 3, 1, a_size, 50);
    expect_keyed("xla-best-fit", "order=lifetime", a, 3, 1, a_life, 70);
    expect_keyed("xla-best-fit", NULL, a, 3, 1, a_size, 50);
    const struct arena_tensor b[] = {{40, 0, 2}, {20, 3, 4}, {30, 1, 3}, {40, 4, 4}};
    const uint64_t b_size[] = {0, 70, 40, 0}, b_life[] = {0, 0, 40, 20};
    expect_keyed("xla-best-fit", "order=size", b, 4, 1, b_size, 90);
    expect_keyed("xla-best-fit", "order=lifetime", b, 4, 1, b_life, 70);
    expect_keyed("xla-best-fit", "order=both", b, 4, 1, b_life, 70);
}

/* (50,[3,3]), (20,[0,0]), (30,[0,3]), (40,[1,4]), (30,[0,0]), (30,[0,1]),
 * (40,[0,3]). Breadth: step 3 160 (0, 2, 3, 6), step 0 150 (1, 2, 4, 5, 6),
 * step 1 140; visited 3, 0, 1. Step 3 in size order (the 40s: 6 has the
 * earlier first step): 0 at 0, 6 at 50, 3 at 90, 2 at 130, each on the
 * last. Step 0: 4, 5, then 1. 4 meets 6 (50..90) and 2 (130..160): gaps
 * 0..50 and 90..130. Best fit: 90 (the smaller); then 5 meets 6, 4, 3, 2:
 * 0..50 holds it at 0; 1 meets 5, 6, 4, 2: 30..50 holds it: arena 160.
 * First fit: 4 at 0; 5 meets 4 (0..30), 6, 3, 2: 30..50 is too small, 160;
 * 1 meets 4, 6, 2, 5: 30..50 holds it: arena 190. */
Test(knobs, breadth_fit_first_takes_the_lowest_gap)
{
    const struct arena_tensor t[] = {{50, 3, 3}, {20, 0, 0}, {30, 0, 3}, {40, 1, 4},
                                     {30, 0, 0}, {30, 0, 1}, {40, 0, 3}};
    const uint64_t best[] = {0, 30, 130, 90, 90, 0, 50}, first[] = {0, 30, 130, 90, 0, 160, 50};
    expect_keyed("greedy-by-breadth", NULL, t, 7, 1, best, 160);
    expect_keyed("greedy-by-breadth", "fit=best", t, 7, 1, best, 160);
    expect_keyed("greedy-by-breadth", "fit=first", t, 7, 1, first, 190);
}

/* Alignment 1: (5,[0,0]), (1,[0,1]), (5,[1,1]). Step 0 allocates 0 at 0
 * and 1 at 5; step 1 frees 0, leaving a free block of 5 below 1, then asks
 * for 5. With sli >= 2 the request's class holds exactly the blocks of 5
 * (sli 4, 5: one list per size below 16; sli 2: sizes 4 to 7 in lists of
 * 1, so 5 is its own class and is not rounded): 2 goes at 0, arena 6.
 * With sli=1 the lists of the row 4..7 are 4..5 and 6..7: 5 rounds up to
 * 6 (the good fit), the block of 5 is skipped and 2 goes at the top, 6;
 * arena 11. */
Test(knobs, tlsf_sli_sets_the_good_fit_rounding)
{
    const struct arena_tensor t[] = {{5, 0, 0}, {1, 0, 1}, {5, 1, 1}};
    const uint64_t reuse[] = {0, 5, 0}, grown[] = {0, 5, 6};
    expect_keyed("online-tlsf", NULL, t, 3, 1, reuse, 6);
    expect_keyed("online-tlsf", "sli=5", t, 3, 1, reuse, 6);
    expect_keyed("online-tlsf", "sli=2", t, 3, 1, reuse, 6);
    expect_keyed("online-tlsf", "sli=1", t, 3, 1, grown, 11);
}

/* One line of the fixture. */
struct want {
    char suite[16], graph[160], planner[32];
    uint64_t arena;
};

/* The fixture's lines of `suite`, malloc'd, their count in *n. */
static struct want *read_fixture(const char *suite, size_t *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/default_arenas.tsv", ARENA_SOURCE_ROOT);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s: cannot open", path);
    struct want *w = NULL;
    size_t cap = 0, count = 0, line = 0;
    char buf[512];
    while (fgets(buf, sizeof buf, f)) {
        line++;
        if (buf[0] == '#' || buf[0] == '\n')
            continue;
        if (count == cap) {
            cap = cap ? 2 * cap : 64;
            w = realloc(w, cap * sizeof *w);
            cr_assert_not_null(w);
        }
        struct want *x = &w[count];
        int got = sscanf(buf, "%15[^\t]\t%159[^\t]\t%31[^\t]\t%" SCNu64, x->suite, x->graph,
                         x->planner, &x->arena);
        cr_assert_eq(got, 4, "%s:%zu: not suite<TAB>graph<TAB>planner<TAB>arena", path, line);
        if (strcmp(x->suite, suite) == 0)
            count++;
    }
    fclose(f);
    cr_assert_gt(count, 0, "%s: no line of suite %s", path, suite);
    *n = count;
    return w;
}

/* Plans each line of `suite` as bench did (alignment 16, seed 1, every key
 * at its default) without its time limit, so that the round budgets alone
 * end the searches on any machine. A graph that is a file missing from the
 * clone is counted in *missing and its lines left out. */
static void expect_default_arenas(const char *suite, size_t *missing)
{
    size_t n;
    struct want *w = read_fixture(suite, &n);
    *missing = 0;
    struct arena_source src = {0};
    const char *loaded = "";
    int have = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(loaded, w[i].graph) != 0) {
            if (have)
                arena_source_free(&src);
            have = 0;
            loaded = w[i].graph;
            char text[768];
            if (strchr(w[i].graph, '/'))
                snprintf(text, sizeof text, "%s/%s", ARENA_SOURCE_ROOT, w[i].graph);
            else
                snprintf(text, sizeof text, "%s", w[i].graph);
            if (strchr(w[i].graph, '/')) {
                FILE *f = fopen(text, "rb");
                if (!f) {
                    (*missing)++;
                    continue;
                }
                fclose(f);
            }
            char err[512] = "";
            cr_assert_eq(arena_source_load(text, 16, 1, &src, err, sizeof err), ARENA_OK, "%s: %s",
                         w[i].graph, err);
            have = 1;
        }
        if (!have)
            continue;
        uint64_t *off = calloc(src.problem.n ? src.problem.n : 1, sizeof *off);
        cr_assert_not_null(off);
        struct arena_plan plan = plan_with(w[i].planner, NULL, &src.problem, off);
        cr_assert_eq(plan.arena, w[i].arena, "%s on %s: arena %" PRIu64 " B, before the keys %" PRIu64
                     " B", w[i].planner, w[i].graph, plan.arena, w[i].arena);
        free(off);
    }
    if (have)
        arena_source_free(&src);
    free(w);
}

Test(knobs, defaults_give_the_arenas_of_before_on_exact)
{
    size_t missing;
    expect_default_arenas("exact", &missing);
    cr_assert_eq(missing, 0);
}

Test(knobs, defaults_give_the_arenas_of_before_on_mobilenetv2)
{
    size_t missing;
    expect_default_arenas("mobilenetv2", &missing);
    cr_assert_eq(missing, 0);
}

Test(knobs, defaults_give_the_arenas_of_before_on_the_models)
{
    size_t missing;
    expect_default_arenas("models", &missing);
    if (missing > 0)
        cr_skip_test("%zu of the fixture's models missing from models/: run "
                     "scripts/fetch-models (the present ones matched)",
                     missing);
}
