/* stats.h — across-seed statistics of a results database (bench stats).
 *
 * A group is a family with every parameter but the seed fixed ("family:
 * params without seed=N"; a file is a group of its own): its graphs are
 * the seeds of one configuration. A sample is one graph x planner: the
 * newest valid result (largest id) of that planner on that graph, so a
 * merged database with repeated runs counts each graph once.
 *
 * Per group x planner: the mean and median of arena / lower bound, each
 * with a bootstrap 95 % confidence interval (percentile method: 2000
 * resamples with replacement of the samples, drawn with splitmix64 seeded
 * with 1 for every row so the figures do not depend on what else is in the
 * database; the interval is the 51st smallest and 51st largest of the 2000
 * resampled statistics). When a graph of the group has a proven bound above
 * its lower bound (the largest bound any valid result claims), the same
 * figures of arena / best known bound (the optimum when some plan meets
 * it) are given too.
 *
 * Per group and ordered pair of planners: wins, ties and losses, counted
 * over the graphs where both have a sample (smaller arena wins). */
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

struct arena_stats_row {
    char *group, *planner;
    size_t n;                /* samples: graphs (seeds) */
    struct arena_stat lb;    /* arena / lower bound */
    int has_best;            /* some graph of the group has a bound above its LB */
    struct arena_stat best;  /* arena / best known bound; valid when has_best */
};

struct arena_stats_pair {
    size_t row, other; /* indices into rows, both of one group */
    uint64_t wins, ties, losses;
};

struct arena_stats {
    struct arena_stats_row *rows; /* by group, then planner, in name order */
    size_t n_rows;
    struct arena_stats_pair *pairs; /* by row, then other */
    size_t n_pairs;
};

/* Reads the database at path (read-only; any schema version with bounds,
 * 4 and later). ARENA_OK, or ARENA_EDB / ARENA_EINVAL / ARENA_ENOMEM with
 * one line in err. *out is freed with arena_stats_free either way. */
int arena_stats_compute(const char *path, struct arena_stats *out, char *err, size_t errlen);
void arena_stats_free(struct arena_stats *s);

/* The statistics of x[0..n) (n >= 1; x is reordered): mean, median and
 * their bootstrap intervals as above. ARENA_ENOMEM or ARENA_OK. */
int arena_stats_describe(double *x, size_t n, struct arena_stat *out);

#endif
