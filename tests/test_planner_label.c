/* test_planner_label.c — results/planner_label.c: a planner's label names
 * the keys that differ among the planners of its name and origin in one
 * figure, nothing else; --label SPEC=TEXT renames by name, whole identity or
 * partial spec. Expected labels written out by hand from the rule in
 * results/planner_label.h. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "planners/status.h"
#include "results/planner_label.h"

static void expect_labels(const char *const *ids, size_t n, const char *const *renames,
                          size_t n_ren, const char *const *want)
{
    struct arena_label_rename ren[8];
    for (size_t k = 0; k < n_ren; k++)
        cr_assert_eq(arena_label_rename_parse(renames[k], &ren[k]), ARENA_OK, "%s", renames[k]);
    char *got[16];
    cr_assert_eq(arena_planner_labels(ids, n, ren, n_ren, got), ARENA_OK);
    for (size_t i = 0; i < n; i++) {
        cr_expect_str_eq(got[i], want[i], "label of %s", ids[i]);
        free(got[i]);
    }
}

TestSuite(planner_label);

/* An ablation of optimal's off set: only off differs, so only off is said;
 * greedy-by-size has no keys; hill-climb's seeds differ, its rounds do not. */
Test(planner_label, names_the_differing_keys_only)
{
    const char *ids[] = {"optimal:engine=portfolio,off=none", "optimal:engine=portfolio,off=stack",
                         "optimal:engine=portfolio,off=stack+twins", "greedy-by-size",
                         "hill-climb:rounds=100,seed=1", "hill-climb:rounds=100,seed=3"};
    const char *want[] = {"optimal, off=none", "optimal, off=stack", "optimal, off=stack+twins",
                          "greedy-by-size", "hill-climb, seed=1", "hill-climb, seed=3"};
    expect_labels(ids, 6, NULL, 0, want);
}

/* Alone in its figure, a planner is its name, whatever keys its spec holds;
 * two keys that both differ are both said, in the spec's order. */
Test(planner_label, a_name_alone_when_nothing_differs)
{
    const char *one[] = {"optimal:engine=sat,off=stack"};
    const char *want1[] = {"optimal"};
    expect_labels(one, 1, NULL, 0, want1);
    const char *two[] = {"optimal:engine=sat,off=stack", "optimal:engine=search,off=none",
                         "optimal:engine=sat,off=none"};
    const char *want2[] = {"optimal, engine=sat, off=stack", "optimal, engine=search, off=none",
                           "optimal, engine=sat, off=none"};
    expect_labels(two, 3, NULL, 0, want2);
}

/* The origin stays last; a plugin's keys are compared with the same plugin
 * (name and origin) only: the built-in of another name does not count. */
Test(planner_label, origin_last_and_compared_within_an_origin)
{
    const char *ids[] = {"mine:beam=8 (plugin 1a2b3c4d)", "mine:beam=16 (plugin 1a2b3c4d)",
                         "mine:beam=8 (plugin 99999999)", "lfbf (cmd 5e6f7a8b)"};
    const char *want[] = {"mine, beam=8 (plugin 1a2b3c4d)", "mine, beam=16 (plugin 1a2b3c4d)",
                          "mine (plugin 99999999)", "lfbf (cmd 5e6f7a8b)"};
    expect_labels(ids, 4, NULL, 0, want);
}

/* --label: by name (the differing keys still follow the text), by partial
 * spec (the key it gives is not repeated; more keys win over fewer), by the
 * whole identity with its origin. */
Test(planner_label, renames_by_name_spec_or_identity)
{
    const char *ids[] = {"optimal:engine=portfolio,off=none", "optimal:engine=portfolio,off=stack",
                         "mine:beam=8 (plugin 1a2b3c4d)"};
    const char *ren[] = {"optimal=Ours", "optimal:off=stack=Ours without stacks",
                         "mine:beam=8 (plugin 1a2b3c4d)=Mine (beam 8)"};
    const char *want[] = {"Ours, off=none", "Ours without stacks", "Mine (beam 8)"};
    expect_labels(ids, 3, ren, 3, want);
}

Test(planner_label, a_rename_splits_at_the_equals_sign_that_ends_the_spec)
{
    struct arena_label_rename r;
    cr_assert_eq(arena_label_rename_parse("greedy-by-size=GBS = ours", &r), ARENA_OK);
    cr_expect_eq(r.spec_len, strlen("greedy-by-size"));
    cr_expect_str_eq(r.text, "GBS = ours");
    cr_assert_eq(arena_label_rename_parse("optimal:engine=sat,off=stack=A=B", &r), ARENA_OK);
    cr_expect_eq(r.spec_len, strlen("optimal:engine=sat,off=stack"));
    cr_expect_str_eq(r.text, "A=B");
    cr_expect_eq(arena_label_rename_parse("optimal", &r), ARENA_EINVAL);
    cr_expect_eq(arena_label_rename_parse("=X", &r), ARENA_EINVAL);
    cr_expect_eq(arena_label_rename_parse("optimal=", &r), ARENA_EINVAL);
    cr_expect_eq(arena_label_rename_parse("optimal:off=stack", &r), ARENA_EINVAL);
}

Test(planner_label, a_spec_names_a_planner_by_name_and_every_key_it_gives)
{
    const char *id = "optimal:engine=portfolio,off=stack";
    const char *yes[] = {"optimal", "optimal:off=stack", "optimal:engine=portfolio,off=stack",
                         "optimal:off=stack,engine=portfolio"};
    for (size_t i = 0; i < 4; i++)
        cr_expect(arena_planner_spec_names(id, yes[i], strlen(yes[i])), "%s", yes[i]);
    const char *no[] = {"optimal:off=none", "optima", "optimal:beam=8", "optimal (plugin 1a2b3c4d)",
                        "optimal:off=stac", "optimal:off=stack+stack", "optimal:off=stack+twins"};
    for (size_t i = 0; i < 7; i++)
        cr_expect(!arena_planner_spec_names(id, no[i], strlen(no[i])), "%s", no[i]);
    cr_expect(arena_planner_spec_names("mine (plugin 1a2b3c4d)", "mine", 4));
    /* a set's names in any order */
    const char *set = "optimal:engine=sat,off=twins+stack";
    cr_expect(arena_planner_spec_names(set, "optimal:off=stack+twins", 23));
    cr_expect(arena_planner_spec_names(set, "optimal:off=twins+stack", 23));
    cr_expect(!arena_planner_spec_names(set, "optimal:off=twins+twins", 23));
    char name[32];
    arena_planner_id_name("mine:beam=8 (plugin 1a2b3c4d)", name, sizeof name);
    cr_expect_str_eq(name, "mine");
}
