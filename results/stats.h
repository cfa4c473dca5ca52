/* stats.h — across-seed statistics of a results database (bench stats).
 *
 * A configuration is what fixes a result but the seed: the graph's family
 * and every parameter but the seed (a file is its own), its alignment, the
 * planner, and the planner options that change a result (results.time_limit,
 * node_limit, planner_seed, capacity: schema 8; NULL for planners that are
 * not searches, absent from older databases; optimal_engine: schema 11,
 * planner optimal's only). A group is the graph part
 * (family, params without seed, alignment); a row is one planner with its
 * options in a group.
 *
 * A sample is one graph x configuration: the result of the newest run that
 * measured it (largest runs.started_at, ties: larger runs.id, then larger
 * results.id within the run), never the largest results.id, which merge
 * hands out in merge order. A query may select one run instead. When that
 * newest result is not valid, the configuration has no valid result on the
 * graph (an older valid one does not stand in for it).
 *
 * Paired: within a group, the rows are compared on the same graphs. A graph
 * counts only if every row of the group has a valid result on it (and its
 * lower bound is above 0); the others are left out and counted, with why
 * (n_failed, n_absent per row). A configuration without any valid result in
 * the group is not a row; it is listed in hidden.
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
 * graphs (smaller arena wins). */
#ifndef ARENA_STATS_H
#define ARENA_STATS_H

#include <stddef.h>
#include <stdint.h>

#define ARENA_STATS_RESAMPLES 2000
#define ARENA_STATS_SEED 1

struct arena_stat {
    double mean, mean_lo, mean_hi;
    double median, median_lo, median_hi;
};

/* The planner options of a configuration; has_* 0: NULL (a planner that is
 * not a search, or a result stored before schema 8 recorded them). */
struct arena_stats_options {
    int has_time_limit, has_node_limit, has_planner_seed, has_capacity, has_optimal_engine;
    double time_limit;    /* seconds, 0 = none */
    int64_t node_limit;   /* 0 = the planner's default */
    int64_t planner_seed;
    int64_t capacity;     /* bytes, 0 = minimise */
    char optimal_engine[16]; /* planner optimal's engines: portfolio, search, sat */
};

struct arena_stats_row {
    char *group;             /* label of the group: graph, plus " align=A" when the
                                alignments of the rows shown differ */
    char *planner;           /* the planner's name */
    size_t n;                /* samples: graphs (seeds) every row of the group has;
                                0 when there is none (then lb and best are NaN) */
    struct arena_stat lb;    /* arena / lower bound */
    int has_best;            /* one of the n graphs has a bound above its LB */
    struct arena_stat best;  /* arena / best known bound; valid when has_best */
    /* The configuration field by field. */
    char *label;   /* planner, plus " name=value" for each option whose value
                      differs between the rows shown ("hill-climb node_limit=500";
                      "unrecorded" for a NULL beside set values of one planner) */
    char *graph;   /* family:params without the seed, or a file's path */
    char *family;
    char *params;  /* without the seed; "" for a file */
    int64_t alignment;
    struct arena_stats_options options;
    /* How the samples stand. */
    size_t limit;      /* of the n samples, those with status limit */
    size_t n_left_out; /* graphs of the group not among the n (same in every row
                          of the group): some row has no valid result there, or
                          the lower bound is 0 */
    size_t n_failed;   /* graphs of the group where this row's result is not valid */
    size_t n_absent;   /* graphs of the group this row has no result on */
    size_t runs;       /* distinct runs the n samples come from */
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
     * result failed): not rows, so they do not empty the pairing, but
     * reported. n is 0; n_failed and n_absent say how they stand. In the
     * order of rows. */
    struct arena_stats_row *hidden;
    size_t n_hidden;
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
};

/* Reads the database at path (read-only; any schema version with bounds,
 * 4 and later). ARENA_OK, or ARENA_EDB / ARENA_EINVAL (a run that is not in
 * the database, an ambiguous UUID prefix) / ARENA_ENOMEM with one line in
 * err. *out is freed with arena_stats_free either way. No row is not an
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
