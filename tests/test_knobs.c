/* test_knobs.c — the built-in planners at their defaults give the arenas
 * main gave before planners had keys (issue 44): every line of
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
#include "planners/planner.h"
#include "tests/expect_plan.h"

#ifndef ARENA_SOURCE_ROOT
#error "tests/meson.build passes ARENA_SOURCE_ROOT"
#endif

TestSuite(knobs);

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
        const struct arena_planner *pl = must_find(w[i].planner);
        struct arena_plan_options opt = arena_plan_options_default;
        opt.seed = 1;
        uint64_t *off = calloc(src.problem.n ? src.problem.n : 1, sizeof *off);
        cr_assert_not_null(off);
        struct arena_plan plan = {0};
        cr_assert_eq(run_planner(pl, &src.problem, &opt, off, &plan, 0xa5), ARENA_OK, "%s on %s",
                     w[i].planner, w[i].graph);
        char who[256];
        snprintf(who, sizeof who, "%s on %s", w[i].planner, w[i].graph);
        expect_plan_valid(&src.problem, &plan, who);
        cr_assert_eq(plan.arena, w[i].arena, "%s: arena %" PRIu64 " B, before the keys %" PRIu64 " B",
                     who, plan.arena, w[i].arena);
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
