/* store.h — the results database (SQLite): open or create it, bring older
 * versions forward, and append runs, graphs, results and placements.
 *
 * The shape is results/schema.sql (schema version ARENA_STORE_VERSION, kept
 * in PRAGMA user_version; PRAGMA application_id marks the file as ours). The
 * database runs in WAL mode and a writer waits up to 60 s for another's
 * lock (a stop hook can end the wait), so several processes may append to
 * one file at once. Every add_* call is one transaction of its
 * own: once it returns ARENA_OK the row is on disk, whatever happens next. */
#ifndef ARENA_STORE_H
#define ARENA_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "graphs/source.h"
#include "planners/problem.h"
#include "results/result.h"

#define ARENA_STORE_VERSION 19
#define ARENA_STORE_APPLICATION_ID 0x41524e42 /* "ARNB" */

struct arena_store;

/* Opens path, creating an empty database when the file is missing or empty
 * and migrating an older arenabench database forward (in one transaction).
 * Refuses, with ARENA_EDB, one line in err and the file left untouched: a file
 * that is not SQLite or is corrupt, a database of another application (other
 * application_id, or tables without ours), and one written by a newer
 * arenabench (user_version above ARENA_STORE_VERSION); also a directory, and
 * a file that cannot be written (it, or the -wal/-shm files beside it). The
 * parent directory must exist. On error *out is NULL. */
/* stop, when not NULL, is asked while bench waits for another process's
 * lock (at most 60 s) and after every short nap: nonzero gives up at once
 * (ARENA_EDB, "interrupted while waiting for ..."). It is kept for every
 * later call on the store; stop_ctx is passed to it. */
typedef int (*arena_store_stop_fn)(void *stop_ctx);
int arena_store_open(const char *path, arena_store_stop_fn stop, void *stop_ctx,
                     struct arena_store **out, char *err, size_t errlen);
void arena_store_close(struct arena_store *s); /* NULL is fine */

/* The last database error, one line; "" when there was none. */
const char *arena_store_error(const struct arena_store *s);

struct arena_run_info {
    const char *started_at; /* UTC ISO-8601 with milliseconds, e.g.
                               2026-12-02T16:07:17.123Z */
    const char *git_rev;
    const char *compiler;
    const char *cpu;
    const char *host;
    const char *command;
    uint64_t seed;
    const char *governor; /* CPU frequency governor at start; NULL: "unknown" */
    double loadavg;       /* 1-minute load average at start; NaN: stored as NULL */
    const char *uuid;     /* the run's identity; NULL: a new random UUID (the
                             normal case: only a copy of a run reuses one) */
    const char *tag;      /* bench --tag; NULL: none ('') */
};
/* ARENA_EIO when no uuid is given and /dev/urandom cannot be read. */
int arena_store_add_run(struct arena_store *s, const struct arena_run_info *run, int64_t *id);

/* Records on run id how a signal stopped it (runs.stopped: one line, e.g.
 * "signal 2 during PLANNER on GRAPH, 3.2 s into the call; 12 of 40 results
 * stored"). */
int arena_store_set_stopped(struct arena_store *s, int64_t run_id, const char *how);

/* Returns the id of the graph row for (spec, fingerprint, alignment),
 * inserting it when it is not there yet (with src's order as exec_order when
 * --order best chose another than the stored one). A row that is there is
 * never changed. */
int arena_store_add_graph(struct arena_store *s, const struct arena_source *src,
                          const struct arena_bounds *bounds, int64_t *id);

/* One measured planner x graph (results/result.h): NaN times and a NULL
 * metrics are stored as NULL; iterations 0 as NULL; status, bound and nodes
 * only with metrics; repetitions and refused are not stored (refused is
 * read back from the error's "refused: "). The row's seq is the next in its
 * run (1 for the first): its key in every copy of the run.
 * Integers above 2^63-1 cannot be stored: ARENA_EDB, and the error says so.
 * Inserts the result and, when plan is not NULL, one placement per tensor of
 * p (size, first, last, offset, and r->names' name), all in one transaction. */
int arena_store_add_result(struct arena_store *s, int64_t run_id, int64_t graph_id,
                           const struct arena_result *r, const struct arena_problem *p,
                           const struct arena_plan *plan, int64_t *id);

/* Whether the database already holds a result of r->planner on r->src's
 * problem (not NULL here) as r would be stored (bench --resume): the graph
 * row (spec, fingerprint, alignment), the planner's name and origin (plugin
 * SHA-256, command), the configuration and planned problem's fingerprint
 * (r->src), the options it read (r->options, NULL: none), its spec,
 * timing and the run's tag (NULL: none). *found 0 when not; else 1, and
 * *valid and *refused (an error starting "refused: ") tell the newest such
 * result. */
int arena_store_find_result(struct arena_store *s, const struct arena_result *r, const char *tag,
                            int *found, int *valid, int *refused);

/* The smallest arena among the valid results stored for graph row
 * graph_id with src's planned problem (results.problem_fingerprint), with
 * that result's planner (into planner, len bytes), run and id. ARENA_OK;
 * ARENA_ENOTFOUND when there is none; ARENA_EDB. */
int arena_store_best_valid(struct arena_store *s, int64_t graph_id,
                           const struct arena_source *src, uint64_t *arena, char *planner,
                           size_t len, int64_t *run_id, int64_t *result_id);

/* The stored plan of result result_id: its placements' offsets, by tensor,
 * into offsets[0..n). ARENA_OK when there is exactly one for each tensor
 * 0..n-1; ARENA_ENOTFOUND when not (none stored, --no-placements, or
 * another problem's); ARENA_EDB. */
int arena_store_plan_offsets(struct arena_store *s, int64_t result_id, size_t n,
                             uint64_t *offsets);

/* One real allocator's replay of a graph (bench --replay; the figures are
 * the replay program's, bench/replay/replay_prog.h): the replays row and one
 * replay_frames row per frame, in one transaction. */
struct arena_replay_frame {
    uint64_t calls, footprint_peak, extent_peak, resident_peak;
};

struct arena_replay_info {
    const char *allocator, *version, *footprint_source;
    uint64_t frames, calls_per_frame;
    double ns_per_call; /* NaN is stored as NULL */
    uint64_t live_peak, baseline_bytes;
    const struct arena_replay_frame *frame; /* frames entries, frame 1 first */
};

int arena_store_add_replay(struct arena_store *s, int64_t run_id, int64_t graph_id,
                           const struct arena_replay_info *r, int64_t *id);

#endif
