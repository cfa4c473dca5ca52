/* test_alias.c — declared aliasing (in-place operators): the validator
 * accepts an output inside its dying input and nothing else, the pre-pass
 * merges accepted chains into intervals, and every planner's plan of the
 * merged problem is a valid plan of the aliased one. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/source.h"
#include "planners/alias.h"
#include "planners/planner.h"

static int check(const struct arena_tensor *t, size_t n, const struct arena_alias *a, size_t na,
                 uint64_t alignment, uint64_t *off, struct arena_collision *why)
{
    struct arena_problem p = {.n = n, .tensors = t, .alignment = alignment, .n_alias = na,
                              .alias = na ? a : NULL};
    uint64_t top = 0;
    for (size_t i = 0; i < n; i++)
        if (off[i] + t[i].size > top)
            top = off[i] + t[i].size;
    struct arena_plan plan = {.n = n, .offsets = off, .arena = top};
    return arena_plan_validate(&p, &plan, why);
}

/* t0 dies at step 1, where t1 is written: the pair (t1, t0). */
static const struct arena_tensor pair[] = {{32, 0, 1}, {32, 1, 2}};
static const struct arena_alias t1_on_t0[] = {{.out = 1, .in = 0}};

Test(alias, an_output_exactly_on_its_declared_input_is_valid_and_only_then)
{
    uint64_t off[] = {0, 0};
    cr_expect_eq(check(pair, 2, t1_on_t0, 1, 16, off, NULL), ARENA_OK);
    cr_expect_eq(check(pair, 2, NULL, 0, 16, off, NULL), ARENA_ECONFLICT, "undeclared");
    /* the declaration is one way: t0 does not take t1's bytes */
    static const struct arena_alias wrong_way[] = {{.out = 0, .in = 1}};
    struct arena_problem p = {.n = 2, .tensors = pair, .alignment = 16, .n_alias = 1,
                              .alias = wrong_way};
    cr_expect_eq(arena_problem_check(&p, NULL), ARENA_EINVAL);
}

Test(alias, an_output_one_byte_off_its_input_collides)
{
    uint64_t off[] = {0, 1};
    struct arena_collision why;
    cr_expect_eq(check(pair, 2, t1_on_t0, 1, 1, off, &why), ARENA_ECONFLICT);
    cr_expect(why.a + why.b == 1, "the pair itself: %zu %zu", why.a, why.b);
    off[1] = 32; /* beside it: no overlap at all, fine */
    cr_expect_eq(check(pair, 2, t1_on_t0, 1, 1, off, NULL), ARENA_OK);
}

Test(alias, a_non_candidate_overlapping_the_pair_by_one_byte_collides)
{
    /* t2 lives at step 1 with both; it may touch, not overlap. */
    const struct arena_tensor t[] = {{32, 0, 1}, {32, 1, 2}, {16, 0, 1}};
    uint64_t off[] = {0, 0, 31};
    struct arena_collision why;
    cr_expect_eq(check(t, 3, t1_on_t0, 1, 1, off, &why), ARENA_ECONFLICT);
    cr_expect(why.a == 2 || why.b == 2, "t2 named: %zu %zu", why.a, why.b);
    off[2] = 32;
    cr_expect_eq(check(t, 3, t1_on_t0, 1, 1, off, NULL), ARENA_OK);
    /* the output alone over a non-candidate by one byte */
    uint64_t off2[] = {0, 16, 48};
    const struct arena_tensor u[] = {{48, 0, 1}, {32, 1, 2}, {16, 1, 2}};
    cr_expect_eq(check(u, 3, t1_on_t0, 1, 1, off2, NULL), ARENA_OK);
    off2[2] = 47;
    cr_expect_eq(check(u, 3, t1_on_t0, 1, 1, off2, &why), ARENA_ECONFLICT);
    cr_expect(why.a == 2 || why.b == 2);
}

Test(alias, a_depthwise_output_inside_its_input_leaves_the_rest_live_at_that_step)
{
    /* t0 64 B dies at step 1; t1 16 B is written inside it at step 1. */
    const struct arena_tensor t[] = {{64, 0, 1}, {16, 1, 2}, {16, 1, 1}};
    uint64_t off[] = {0, 16, 64};
    cr_expect_eq(check(t, 3, t1_on_t0, 1, 16, off, NULL), ARENA_OK);
    off[2] = 0; /* t2 in t0's other bytes while t0 is still read: a collision */
    struct arena_collision why;
    cr_expect_eq(check(t, 3, t1_on_t0, 1, 16, off, &why), ARENA_ECONFLICT);
    cr_expect(why.a + why.b == 2 && (why.a == 2 || why.b == 2), "t0 and t2: %zu %zu", why.a,
              why.b);
    /* after step 1 those bytes are free */
    const struct arena_tensor later[] = {{64, 0, 1}, {16, 1, 2}, {16, 2, 2}};
    cr_expect_eq(check(later, 3, t1_on_t0, 1, 16, off, NULL), ARENA_OK);
    /* reaching out of the input by one alignment unit is not inside */
    uint64_t out_of[] = {0, 64 - 16 + 16, 128};
    cr_expect_eq(check(t, 3, t1_on_t0, 1, 16, out_of, NULL), ARENA_OK, "beside: no overlap");
    uint64_t across[] = {0, 56, 128};
    cr_expect_eq(check(t, 3, t1_on_t0, 1, 8, across, NULL), ARENA_ECONFLICT);
}

Test(alias, a_chain_shares_one_range)
{
    const struct arena_tensor t[] = {{32, 0, 1}, {32, 1, 2}, {16, 2, 3}, {32, 1, 3}};
    static const struct arena_alias chain[] = {{.out = 1, .in = 0}, {.out = 2, .in = 1}};
    uint64_t off[] = {0, 0, 0, 32};
    cr_expect_eq(check(t, 4, chain, 2, 16, off, NULL), ARENA_OK);
    off[3] = 16;
    cr_expect_eq(check(t, 4, chain, 2, 16, off, NULL), ARENA_ECONFLICT);
}

Test(alias, the_problem_check_refuses_pairs_outside_the_contract)
{
    const struct arena_tensor t[] = {{32, 0, 1}, {32, 1, 2}, {64, 1, 2}, {16, 2, 2}, {16, 2, 3}};
    static const struct arena_alias bad[][1] = {
        {{.out = 2, .in = 0}}, /* larger than its input */
        {{.out = 3, .in = 0}}, /* the input died a step before */
        {{.out = 4, .in = 3}}, /* the input lives one step only */
        {{.out = 1, .in = 1}}, /* itself */
        {{.out = 1, .in = 9}}, /* no such tensor */
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        struct arena_problem p = {.n = 5, .tensors = t, .alignment = 16, .n_alias = 1,
                                  .alias = bad[k]};
        cr_expect_eq(arena_problem_check(&p, NULL), ARENA_EINVAL, "pair %zu", k);
    }
}

/* The definition, pair by pair: two tensors live at one step may share a
 * byte only as a declared pair with the output inside its input. */
static int brute(const struct arena_tensor *t, size_t n, const struct arena_alias *a, size_t na,
                 const uint64_t *off)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            if (t[i].first > t[j].last || t[j].first > t[i].last)
                continue;
            if (off[i] >= off[j] + t[j].size || off[j] >= off[i] + t[i].size)
                continue;
            int ok = 0;
            for (size_t k = 0; k < na; k++) {
                size_t o = a[k].out, in = a[k].in;
                if (!((o == i && in == j) || (o == j && in == i)))
                    continue;
                ok |= off[o] >= off[in] && off[o] + t[o].size <= off[in] + t[in].size;
            }
            if (!ok)
                return ARENA_ECONFLICT;
        }
    return ARENA_OK;
}

Test(alias, the_validator_matches_the_pairwise_definition_on_random_plans)
{
    srand(7);
    size_t disagreements = 0, valid = 0, cases = 20000;
    for (size_t c = 0; c < cases; c++) {
        struct arena_tensor t[8];
        struct arena_alias a[8];
        uint64_t off[8];
        size_t n = 2 + (size_t)rand() % 7, na = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t f = (uint32_t)(rand() % 5);
            t[i] = (struct arena_tensor){.size = 1 + (uint64_t)(rand() % 4),
                                         .first = f, .last = f + (uint32_t)(rand() % 3)};
            off[i] = (uint64_t)(rand() % 6);
        }
        for (size_t o = 0; o < n; o++)
            for (size_t i = 0; i < n && na < 8; i++)
                if (i != o && t[i].last == t[o].first && t[i].first < t[i].last &&
                    t[o].size <= t[i].size && rand() % 2) {
                    a[na++] = (struct arena_alias){.out = (uint32_t)o, .in = (uint32_t)i};
                    if (rand() % 2) /* put the output inside, often */
                        off[o] = off[i] + (uint64_t)(rand() % (int)(t[i].size - t[o].size + 1));
                }
        int got = check(t, n, a, na, 1, off, NULL);
        int want = brute(t, n, a, na, off);
        disagreements += got != want;
        valid += got == ARENA_OK;
    }
    cr_expect_eq(disagreements, 0);
    cr_expect(valid > cases / 20 && valid < cases - cases / 20, "both answers seen: %zu", valid);
}

Test(alias, the_pre_pass_merges_a_chain_into_one_interval)
{
    /* a -> b -> c in place, d apart; e has two dying inputs of which the
     * first declared is taken. */
    const struct arena_tensor t[] = {{32, 0, 1}, {32, 1, 2}, {16, 2, 3}, {48, 0, 2},
                                     {16, 3, 4}, {16, 2, 4}, {16, 4, 5}};
    static const struct arena_alias a[] = {
        {.out = 1, .in = 0}, {.out = 2, .in = 1}, {.out = 6, .in = 4}, {.out = 6, .in = 5}};
    struct arena_problem p = {.n = 7, .tensors = t, .alignment = 16, .n_alias = 4, .alias = a};
    cr_assert_eq(arena_problem_check(&p, NULL), ARENA_OK);
    struct arena_alias_merge m;
    cr_assert_eq(arena_alias_merge(&p, &m), ARENA_OK);
    cr_expect_eq(m.accepted, 3);
    cr_expect_eq(m.merged.n, 4);
    cr_expect_eq(m.group[0], m.group[1]);
    cr_expect_eq(m.group[1], m.group[2]);
    cr_expect_eq(m.group[4], m.group[6]);
    cr_expect_neq(m.group[5], m.group[6]);
    const struct arena_tensor *abc = &m.merged.tensors[m.group[0]];
    cr_expect(abc->size == 32 && abc->first == 0 && abc->last == 3);
    cr_expect_eq(m.takes[2], 1);
    cr_expect_eq(m.takes[6], 4);
    cr_expect_eq(m.takes[0], ARENA_ALIAS_NONE);
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
    /* merged, step 2 holds a-b-c 32 + d 48 + t5 16 = 96 (b and c counted
     * once) and no step more; without aliasing steps 1 and 2 hold 112 (a, b
     * and d; b, c, d and t5) */
    cr_expect_eq(b.lower_bound, 112);
    cr_expect_eq(b.inplace_bound, 96);
    arena_alias_merge_free(&m);
}

/* Every registered planner on the merged problem of real graphs under each
 * rule: the expanded plan passes the validator with the candidates declared,
 * and no arena is below the in-place bound. */
Test(alias, every_planner_plans_the_aliased_problems_validly, .timeout = 120)
{
    static const struct {
        const char *spec;
        enum arena_inplace_rule rule;
        uint64_t bound; /* worked out by hand, 0: not checked */
    } graphs[] = {
        /* expand 1x1 input 112x112x16 + its output 112x112x96, the stride-2
         * depthwise running inside it */
        {"mobilenetv2", ARENA_INPLACE_DEPTHWISE, 200704 + 1204224},
        /* BN and ReLU6 in place: the fused graph's bound, 112x112x96 +
         * 56x56x96 at block 1's depthwise */
        {"mobilenetv2:fused=0", ARENA_INPLACE_ELEMENTWISE, 1204224 + 301056},
        {"mobilenetv2:fused=0", ARENA_INPLACE_DEPTHWISE, 200704 + 1204224},
        {"transformer:blocks=2", ARENA_INPLACE_ELEMENTWISE, 0},
        {"residual:ops=40,skip=3", ARENA_INPLACE_ELEMENTWISE, 0},
    };
    struct arena_plan_options opt = {.time_limit = 1.0};
    for (size_t k = 0; k < sizeof graphs / sizeof graphs[0]; k++) {
        struct arena_source src;
        char err[256];
        struct arena_load_options lo = {.alignment = 16, .seed = 1, .inplace = graphs[k].rule};
        cr_assert_eq(arena_source_load_with(graphs[k].spec, &lo, &src, err, sizeof err), ARENA_OK,
                     "%s", err);
        cr_assert(src.problem.n_alias > 0, "%s: no candidates", graphs[k].spec);
        struct arena_bounds b;
        cr_assert_eq(arena_problem_bounds(&src.problem, &b), ARENA_OK);
        cr_expect_leq(b.inplace_bound, b.lower_bound, "%s", graphs[k].spec);
        if (graphs[k].bound)
            cr_expect_eq(b.inplace_bound, graphs[k].bound, "%s: %llu", graphs[k].spec,
                         (unsigned long long)b.inplace_bound);
        struct arena_alias_merge m;
        cr_assert_eq(arena_alias_merge(&src.problem, &m), ARENA_OK);
        uint64_t *mo = calloc(m.merged.n, sizeof *mo), *fo = calloc(src.problem.n, sizeof *fo);
        cr_assert(mo && fo);
        for (size_t i = 0; i < arena_planner_count(); i++) {
            const struct arena_planner *pl = arena_planner_at(i);
            size_t bytes = 0;
            cr_assert_eq(arena_planner_scratch(pl, &m.merged, &bytes), ARENA_OK);
            void *scratch = malloc(bytes ? bytes : 1);
            struct arena_plan mp = {.n = m.merged.n, .offsets = mo};
            int rc = arena_planner_run(pl, &m.merged, &opt, scratch, bytes, &mp);
            free(scratch);
            if (rc == ARENA_ETOOBIG)
                continue;
            cr_assert_eq(rc, ARENA_OK, "%s on %s", pl->name, graphs[k].spec);
            struct arena_plan full = {.n = src.problem.n, .offsets = fo};
            arena_alias_expand(&m, &mp, &full);
            struct arena_collision why;
            char text[300] = "";
            rc = arena_plan_validate(&src.problem, &full, &why);
            if (rc == ARENA_ECONFLICT)
                arena_collision_describe(&src.problem, &full, &why, text, sizeof text);
            cr_expect_eq(rc, ARENA_OK, "%s on %s: %s", pl->name, graphs[k].spec, text);
            cr_expect_geq(full.arena, b.inplace_bound, "%s on %s", pl->name, graphs[k].spec);
        }
        free(mo);
        free(fo);
        arena_alias_merge_free(&m);
        arena_source_free(&src);
    }
}
