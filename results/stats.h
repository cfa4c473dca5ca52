/* stats.h — across-graph statistics of a results database (bench stats).
 *
 * A group is a set of graphs (by default a family with every parameter but
 * the seed, a file its own; or a family, a suite, a tag: select.h's
 * group_by) in one configuration of the problem (select.h: the in-place
 * rule, the execution order, the patch, the alignment): the results of
 * another configuration solved other problems and are another group. A
 * row is one planner with the options that change its result
 * (results.time_limit, node_limit, planner_seed, capacity: schema 8; NULL
 * for planners that are not searches, absent from older databases) in a
 * group. The planner is its identity (results/columns.h): its canonical
 * spec (schema 18; planner optimal's engine is a key of it, the column
 * optimal_engine before), with its origin.
 *
 * A sample is one graph x configuration x planner and options: the result
 * of the newest run that measured it (largest runs.started_at, ties: larger
 * runs.id, then larger results.id within the run), never the largest
 * results.id, which merge hands out in merge order. A query may select one
 * run instead. When that newest result is not valid, the row has no valid
 * result on the graph (an older valid one does not stand in for it). A
 * spec's problem is that of its newest result in the configuration (the
 * graph row's fingerprint and results.problem_fingerprint): a sample of
 * another, older problem under the spec (a file changed between runs) is
 * left out and counted (n_superseded), never paired or divided by the
 * newer problem's bounds. Every
 * ratio is against the bounds of the problem the sample planned: its lower
 * bound (results.inplace_bound) and the best bound any valid result proved
 * for that problem (the graph row and results.problem_fingerprint); the
 * only ratio against another problem is the fixed-order one (arena /
 * results.fixed_lower_bound, the graph untransformed), kept apart under its
 * own name.
 *
 * Paired: within a group, the rows are compared on the same graphs. A graph
 * counts only if every row of the group has a valid result on it (and its
 * lower bound is above 0); the others are left out and counted, with why
 * (n_failed, n_absent per row). A configuration without any valid result in
 * the group is not a row; it is listed in hidden. Nor is one valid on
 * fewer graphs than the rest, so that it never shrinks their pairing: the
 * configurations valid on the most graphs pair on the graphs they all
 * have, and another is a row only when it is valid on every one of those;
 * else it is listed in hidden with unpaired set and its n_valid.
 *
 * Per row: the mean and median of arena / lower bound over its n graphs,
 * each with a bootstrap 95 % confidence interval (percentile method: 2000
 * resamples with replacement of the samples, drawn with splitmix64 seeded
 * with 1 for every row so the figures do not depend on what else is in the
 * database; the interval is the 51st smallest and 51st largest of the 2000
 * resampled statistics). When a graph of the n has a proven bound above its
 * lower bound (the largest bound any valid result in the database claims,
 * whatever run is selected), the same figures of arena / best known bound
 * (the optimum when some plan meets it) are given too. `limit` counts the
 * samples where a search stopped at its budget (status limit): their arena
 * is the best plan found, not the planner's answer.
 *
 * Per group and ordered pair of rows: wins, ties and losses over the same n
 * graphs (smaller arena wins). A group of one graph has no interval and no
 * pairs: its figures are the graph's own (n = 1, the interval NaN). */
#ifndef ARENA_STATS_H
#define ARENA_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "results/planner_label.h"
#include "results/select.h"

#define ARENA_STATS_RESAMPLES 2000
#define ARENA_STATS_SEED 1

struct arena_stat {
    double mean, mean_lo, mean_hi;
    double median, median_lo, median_hi;
};

/* The planner options of a configuration; has_* 0: NULL (a planner that is
 * not a search, or a result stored before schema 8 recorded them). */
struct arena_stats_options {
    int has_time_limit, has_node_limit, has_planner_seed, has_capacity;
    double time_limit;    /* seconds, 0 = none */
    int64_t node_limit;   /* 0 = the planner's default */
    int64_t planner_seed;
    int64_t capacity;     /* bytes, 0 = minimise */
};

struct arena_stats_row {
    char *group;             /* label of the group: its graphs (key), then " · " and
                                the configuration's label when the configurations
                                shown differ or it is not plain */
    char *planner;           /* the planner's identity (results/columns.h): its
                                canonical spec, with its origin unless built in */
    size_t n;                /* samples: graphs (seeds) every row of the group has;
                                0 when there is none (then lb and best are NaN) */
    struct arena_stat lb;    /* arena / lower bound */
    int has_best;            /* one of the n graphs has a bound above its LB */
    struct arena_stat best;  /* arena / best known bound; valid when has_best */
    int has_fixed;           /* a transformed configuration whose n graphs all
                                have their fixed-order bound */
    struct arena_stat fixed; /* arena / the fixed-order bound of the graph
                                untransformed: below 1 where the configuration's
                                transformations pay; valid when has_fixed */
    /* The configuration field by field. */
    char *label;   /* the planner's label among the rows shown (its name and the
                      keys of its spec that differ between them, or its --label:
                      results/planner_label.h), plus " name=value" for each option
                      whose value differs between the rows shown ("hill-climb, seed=3
                      node_limit=500"; "unrecorded" for a NULL beside set values of
                      one planner) */
    char *key;     /* the group's graphs: family:params without the seed (a
                      file's path), a family, a suite or a tag (group_by) */
    char *graph;   /* family:params without the seed, or a file's path (the
                      first graph of the group's, when it holds several) */
    char *family;
    char *params;  /* without the seed; "" for a file */
    int64_t alignment;
    struct arena_config config; /* the problem's configuration */
    char *config_label; /* "in-place depthwise · best order", "plain" (with the
                           alignment when the alignments shown differ) */
    struct arena_stats_options options;
    /* How the samples stand. */
    size_t limit;      /* of the n samples, those with status limit */
    size_t n_left_out; /* graphs of the group not among the n (same in every row
                          of the group): some row has no valid result there, or
                          the lower bound is 0 */
    size_t n_failed;   /* graphs of the group where this row's result is not valid */
    size_t n_absent;   /* graphs of the group this row has no result on */
    size_t runs;       /* distinct runs the n samples come from */
    size_t n_valid;    /* graphs of the group (lower bound above 0) with a valid
                          result of this row */
    int unpaired;      /* hidden: valid on n_valid graphs, fewer than the rows,
                          and not on all of theirs: left out of the pairing */
    /* Results of an older problem under a spec of the group (a file changed
     * between runs; the same in every row of the group): each spec's newest
     * problem is the one shown (its newest result's, results.
     * problem_fingerprint), the others are left out, never paired with it
     * nor divided by its bounds. How many, and their planners ("a, b");
     * NULL when none. */
    size_t n_superseded;
    char *superseded;
};

struct arena_stats_pair {
    size_t row, other; /* indices into rows, both of one group */
    uint64_t wins, ties, losses;
};

struct arena_stats {
    struct arena_stats_row *rows; /* by group (graph, then alignment), then planner
                                     name, then options */
    size_t n_rows;
    struct arena_stats_pair *pairs; /* by row, then other */
    size_t n_pairs;
    /* Configurations with results in a group but no valid one (every
     * result failed), or left out of its pairing (unpaired): not rows, so
     * they do not empty or shrink the pairing, but reported. n is 0;
     * n_valid, n_failed and n_absent say how they stand. In the order of
     * rows. */
    struct arena_stats_row *hidden;
    size_t n_hidden;
    /* The selected runs a signal stopped (schema 12, runs.stopped), one
     * line each: "run ID: HOW" (HOW as stored: what the signal stopped and
     * how many results were stored before it). In run id order. */
    char **stopped;
    size_t n_stopped;
};

/* What to read; a NULL query takes every default. */
struct arena_stats_query {
    /* NULL or "all": every run, the newest result per graph x configuration.
     * Else one run: digits are a runs.id; anything else is a runs.uuid or a
     * prefix of exactly one (schema 8; write "12345678-" for a prefix of
     * digits only). */
    const char *run;
    /* When n_planners > 0: only these planners are rows (and paired). */
    const char *const *planners;
    size_t n_planners;
    /* Filters and grouping (select.h); NULL: every result, grouped by
     * graph. */
    const struct arena_select *select;
    /* --label SPEC=TEXT: what rows call the planners they name
     * (results/planner_label.h); none: their labels. */
    const struct arena_label_rename *renames;
    size_t n_renames;
};

/* Reads the database at path (read-only; any schema with the columns
 * stats reads, 4 and later, a newer one too: results/columns.h; a column
 * added later reads as its default). ARENA_OK, or ARENA_EDB (not ours, or a
 * column missing, naming both versions) / ARENA_EINVAL (a run that is not
 * in the database, an ambiguous UUID prefix) / ARENA_ENOMEM with one line
 * in err. *out is freed with arena_stats_free either way. No row is not an
 * error: the caller says there is nothing to show. */
int arena_stats_compute_query(const char *path, const struct arena_stats_query *q,
                              struct arena_stats *out, char *err, size_t errlen);
/* arena_stats_compute_query with every default (q NULL). */
int arena_stats_compute(const char *path, struct arena_stats *out, char *err, size_t errlen);
void arena_stats_free(struct arena_stats *s);

/* The statistics of x[0..n) (n >= 1; x is reordered): mean, median and
 * their bootstrap intervals as above. ARENA_ENOMEM or ARENA_OK. */
int arena_stats_describe(double *x, size_t n, struct arena_stat *out);

#endif
