/* figdata.h — what the figures of `bench plot` read from a results
 * database: the selected runs, their graphs, and per graph x planner the
 * result that counts (the one from the newest selected run: the largest
 * runs.started_at, ties the larger runs.id; inside a run the last stored).
 *
 * The database is opened read-only and never changed. Without a -wal file
 * beside it no writer is at work and it is opened immutable (no locks, no
 * -shm made, works in a read-only folder); with one, it is read through the
 * -wal (mode=ro). Every value from the caller travels as a bound parameter.
 * Reads schema version 2 and every later one, newer than this bench's too,
 * as long as the columns it reads are there (results/columns.h); columns
 * added later read as their defaults.
 *
 * A result counts per graph x configuration x planner (results/select.h),
 * of the graph's newest problem (arena_fig_graph.problem):
 * a "graph" here is one graph in one configuration, the problem that was
 * planned, with that problem's bounds; the results of another
 * configuration of the same graph are another entry. */
#ifndef ARENA_FIGDATA_H
#define ARENA_FIGDATA_H

#include <stddef.h>
#include <stdint.h>

#include "results/select.h"

struct arena_figdb; /* an open database */

struct arena_fig_config {
    struct arena_config c;
    char *label; /* "in-place depthwise · best order", "plain"; with the
                    alignment (budget) when the configurations read differ
                    in it */
};

/* One graph in one configuration: the problem planned. */
struct arena_fig_graph {
    int64_t id;          /* graphs.id of its newest result's row */
    size_t config;       /* index into arena_fig_data.configs */
    size_t base;         /* the graph: index into arena_fig_data.bases, shared
                            by its configurations */
    char *spec, *family, *params; /* spec: the stored one without "+patch=" */
    int64_t alignment, tensors, naive;
    int64_t lower_bound; /* the problem's own: max-live once the in-place
                            rule's chains are merged (results.inplace_bound) */
    int64_t fixed_lower_bound; /* the graph untransformed (stored order, no
                            rule, no patch); 0 when not recorded */
    int64_t order_bound; /* proven least peak of any execution order, for
                            this problem (bench --order best); 0: none */
    int order_limit;     /* the order search stopped at its budget */
    /* Its problem: the newest result's (results.problem_fingerprint). The
     * results of another problem under the same spec and configuration (a
     * file changed between runs) are older: left out, never compared with
     * this problem's bounds, and counted here with their planners ("a, b"). */
    char *problem;
    size_t superseded;
    char *superseded_planners;
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
    char *claimed;           /* a plugin's claimed status beyond what bench proved
                                (results.claimed_status, schema 15); NULL none */
    int noisy;               /* the time is not one to quote (spread over 10 %, or
                                one timed call): bench's '!'; 0 before schema 3 */
    int timed_once;          /* a search planner, timed by one call (schema 4) */
    int has_self_ns;         /* a program (cmd:) reported its own planning time */
    double self_ns;          /* that report, ns (schema 15: results.self_ns); its
                                process time, interpreter start and all, is ns_median */
    int64_t device, head, whole; /* results.device_arena, head_bytes, whole_arena
                                    (schema 16, 17); 0: NULL */
    size_t read_order;      /* the order read, newest first (internal) */
};

struct arena_fig_data {
    int64_t *runs;          /* the selected runs, newest first */
    size_t n_runs;
    struct arena_fig_graph *graphs; /* graph x configuration with a result in
                                       those runs, in the order first measured */
    size_t n_graphs;
    struct arena_fig_config *configs; /* in the order first measured */
    size_t n_configs;
    char **bases;            /* the graphs' specs (without "+patch="), in the
                                order first measured */
    size_t n_bases;
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
 * results. sel (NULL: everything) keeps the results of its graphs, tags and
 * configurations (not its planners: plot chooses those). ARENA_ENOTFOUND
 * (unknown run, no results, none selected) with one line in err; ARENA_EDB;
 * ARENA_ENOMEM. *out is freed by arena_fig_data_free either way. */
int arena_figdb_load(struct arena_figdb *db, int64_t run, const struct arena_select *sel,
                     struct arena_fig_data *out, char *err, size_t errlen);
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
