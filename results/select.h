/* select.h — what the readers of the results database (bench stats, bench
 * plot) share about results: a result's configuration, the filters that
 * pick results, and the groups they are compared in.
 *
 * A result's configuration is every choice that makes the problem it
 * planned, beside the graph itself: the transformations of
 * graphs/transforms.h as results/schema.sql stores them (results.inplace,
 * order_mode, order_budget, patch, and graphs.alignment). Two results of
 * one graph in different configurations solved different problems: no
 * figure or table pairs them, pools them or divides one by the other's
 * bound. Its graph is the stored spec without "+patch=..." (the patch is
 * configuration), so a patched MobileNetV2 is MobileNetV2 in another
 * configuration, never another graph, and a graph planned in its stored
 * and its best order is one graph in two configurations. */
#ifndef ARENA_SELECT_H
#define ARENA_SELECT_H

#include <stddef.h>
#include <stdint.h>

struct arena_config {
    char inplace[24];     /* none, elementwise, depthwise (as stored) */
    char order[16];       /* stored, best */
    int64_t order_budget; /* the best order's state budget; 0: none recorded */
    char patch[48];       /* RxC:K[:stream]; "" none */
    char scratch[24];     /* kernel scratch rule: none, cmsis-nn:m4, ... */
    char scratch_policy[12]; /* lifetime, tail */
    int64_t alignment;
};

/* Order of configurations: alignment, rule, order, budget, patch, scratch
 * and its policy. */
int arena_config_cmp(const struct arena_config *a, const struct arena_config *b);
/* Whether it changes the problem beyond the alignment. */
int arena_config_transforms(const struct arena_config *c);
/* Its label (graphs/transforms.h's wording): "in-place depthwise · best
 * order · patch 4×4:13 · scratch cmsis-nn:m4", "plain"; with_alignment adds "align N",
 * with_budget the best order's state budget. */
void arena_config_label(const struct arena_config *c, int with_alignment, int with_budget,
                        char *buf, size_t len);

/* The graph part of a stored spec: the spec without its "+patch=..."
 * suffix, into buf. */
void arena_spec_base(const char *spec, char *buf, size_t len);

/* What to group the graphs by (--group-by). */
enum arena_group_by {
    ARENA_GROUP_GRAPH,  /* a family with every parameter but the seed (a file
                           is its own): the seeds are the samples */
    ARENA_GROUP_FAMILY, /* a family, whatever its parameters ("tflite", "onnx"
                           and "graph-file" for models and graph files) */
    ARENA_GROUP_SUITE,  /* a suite: each graph in every suite given that lists it */
    ARENA_GROUP_TAG,    /* the tag of the run (bench --tag) */
};
/* "graph", "family", "suite", "tag"; parse: ARENA_OK or ARENA_ENOTFOUND. */
const char *arena_group_by_name(enum arena_group_by g);
int arena_group_by_parse(const char *s, enum arena_group_by *out);

/* A named set of graphs: the items bench --graph takes (specs, sweeps,
 * paths), bench/core/suites.c's or a user's file. */
struct arena_suite_items {
    const char *name;
    const char *const *items;
    size_t n;
};

/* Which results to read, and how to group them; zero (or NULL) fields
 * select everything. */
struct arena_select {
    /* Graphs: each list, when not empty, must hold a match. A --graph item
     * matches a graph that it names exactly, whose family it is, whose spec
     * it starts, or that it names as a spec (arena_spec_matches). */
    const char *const *graphs;
    size_t n_graphs;
    const char *const *families;
    size_t n_families;
    const struct arena_suite_items *suites; /* a graph must be in one */
    size_t n_suites;
    const char *const *tags; /* runs.tag; "" is an untagged run */
    size_t n_tags;
    const char *const *planners;
    size_t n_planners;
    /* Configuration fields; NULL (0) any. patch "none" is "". */
    const char *inplace, *order, *patch;
    int64_t alignment;
    enum arena_group_by group_by;
    /* For ARENA_GROUP_SUITE: the suites to group into (the --suite ones,
     * else every suite bench knows). */
    const struct arena_suite_items *group_suites;
    size_t n_group_suites;
};

/* Whether the suite item (a spec, a sweep or a path) names the graph base
 * (a stored spec without its patch): a path equal to it; a spec of its
 * family whose every key given is equal (seed included when the item gives
 * one, any seed when it does not: "random-dag:ops=64" names every seed of
 * it); a sweep when one of its specs does. */
int arena_spec_matches(const char *item, const char *base);

/* The graph filters of s (graphs, families, suites) on a graph. */
int arena_select_graph(const struct arena_select *s, const char *base, const char *family);
/* Whether a planner as stats and plot name it (results/columns.h: its
 * spec, "NAME:k=v,...", then " (plugin 1a2b3c4d)" or " (cmd ...)" unless
 * built in) is the one named: the whole identity, NAME alone (every spec and
 * origin of that name), or a spec whose every key given agrees
 * (arena_planner_spec_names). */
int arena_planner_label_is(const char *label, const char *name);
/* The planner, tag and configuration filters (the planner by
 * arena_planner_label_is). */
int arena_select_planner(const struct arena_select *s, const char *planner);
int arena_select_tag(const struct arena_select *s, const char *tag);
int arena_select_config(const struct arena_select *s, const struct arena_config *c);

/* The groups a graph falls in under s->group_by, each a malloc'd label
 * appended to *keys / *n (free each and the array): the graph's family
 * and parameters without the seed (the spec for a file), its family, the
 * suites of s->group_suites that list it (none when none does), or its
 * tag ("(untagged)" for ""). ARENA_ENOMEM. */
int arena_select_groups(const struct arena_select *s, const char *base, const char *family,
                        const char *params, const char *tag, char ***keys, size_t *n);

#endif
