/* figdata.h — what the figures of `bench plot` read from a results
 * database: the selected runs, their graphs, and per graph x planner the
 * result that counts (the one from the newest selected run: the largest
 * runs.started_at, ties the larger runs.id; inside a run the last stored).
 *
 * The database is opened read-only and never changed. Without a -wal file
 * beside it no writer is at work and it is opened immutable (no locks, no
 * -shm made, works in a read-only folder); with one, it is read through the
 * -wal (mode=ro). Every value from the caller travels as a bound parameter.
 * Reads schema versions 2 to 11 (columns added later read as NULL). */
#ifndef ARENA_FIGDATA_H
#define ARENA_FIGDATA_H

#include <stddef.h>
#include <stdint.h>

struct arena_figdb; /* an open database */

struct arena_fig_graph {
    int64_t id;
    char *spec, *family, *params;
    int64_t alignment, tensors, naive, lower_bound;
    int64_t order_bound; /* proven least peak of any execution order (bench
                            --order best); 0 when no order was searched */
    int order_limit;     /* the order search stopped at its budget */
};

struct arena_fig_result {
    int64_t id, run_id, graph_id;
    size_t graph;            /* index into arena_fig_data.graphs */
    char *planner;
    int ok;                  /* valid = 1 and arena_bytes not NULL */
    int64_t arena;           /* when ok */
    int has_ratio, has_saving, has_frag, has_ns, has_scratch, has_bound;
    double ratio_lb, saving, frag_peak, frag_mean, ns_median, ns_mean, ns_stddev;
    int64_t iterations, scratch, bound, nodes;
    char *status;            /* optimal, feasible, infeasible, limit; NULL */
    size_t read_order;      /* the order read, newest first (internal) */
};

struct arena_fig_data {
    int64_t *runs;          /* the selected runs, newest first */
    size_t n_runs;
    struct arena_fig_graph *graphs; /* graphs with a result in those runs, in
                                       the order they were first measured */
    size_t n_graphs;
    struct arena_fig_result *results; /* one per graph x planner, the one that counts;
                                         by graph, then planner name */
    size_t n_results;
    char **planners;         /* every planner of the runs, in the order first measured */
    size_t n_planners;
};

struct arena_fig_place {
    int64_t tensor, size, first, last, offset;
    char *name; /* NULL when not stored */
};

struct arena_fig_replay {
    int64_t id, run_id;
    char *allocator, *version, *source;
    int64_t live_peak;
    size_t n_frames;
    int64_t *frame, *calls, *footprint, *extent, *resident; /* n_frames each */
};

/* Opens path read-only and checks it is an arenabench database of a schema
 * this reads. ARENA_OK; ARENA_ENOTFOUND (no such file), ARENA_EDB (not
 * ours, newer, unreadable) with one line in err. */
int arena_figdb_open(const char *path, struct arena_figdb **out, char *err, size_t errlen);
void arena_figdb_close(struct arena_figdb *db);
/* A note for the user when the database was read without its -wal, else NULL. */
const char *arena_figdb_note(const struct arena_figdb *db);

/* run > 0: that run; run == 0: every run; run < 0: the newest run that has
 * results. ARENA_ENOTFOUND (unknown run, or no results) with one line in
 * err; ARENA_EDB; ARENA_ENOMEM. *out is freed by arena_fig_data_free
 * either way. */
int arena_figdb_load(struct arena_figdb *db, int64_t run, struct arena_fig_data *out, char *err,
                     size_t errlen);
void arena_fig_data_free(struct arena_fig_data *d);

/* The placements of one result, by tensor. */
int arena_figdb_placements(struct arena_figdb *db, int64_t result_id, struct arena_fig_place **out,
                           size_t *n, char *err, size_t errlen);
void arena_fig_places_free(struct arena_fig_place *p, size_t n);

/* The newest replay of each allocator for a graph, from any run (a replay
 * run stores no planner results), in the order they were stored. None when
 * the database has no replays tables. */
int arena_figdb_replays(struct arena_figdb *db, int64_t graph_id, struct arena_fig_replay **out,
                        size_t *n, char *err, size_t errlen);
void arena_fig_replays_free(struct arena_fig_replay *r, size_t n);

#endif
