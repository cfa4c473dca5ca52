/* merge.h — bench merge: several results databases (the parts of a sharded
 * sweep, runs on other machines) into one, as if one bench had written it.
 *
 * What is copied: every table of the schema, by the column names the
 * schema has (read with PRAGMA table_info, so a column added by a later
 * migration is merged without a change here), with the ids remapped: runs,
 * results and replays get fresh ids in the output; graphs are one row per
 * (spec, fingerprint, alignment), the output's row when it has one;
 * placements and replay_frames follow their result and replay.
 *
 * Versions: every input must be at ARENA_STORE_VERSION or a later one (the
 * output is created at ARENA_STORE_VERSION, or migrated to it as bench
 * does). A newer input is merged when its tables have this version's
 * columns (a later schema that only added indexes, say); one with a column
 * this bench does not know is refused, naming both versions and the
 * column, since merging would drop it. An older input is refused before
 * anything is written: run any bench command with --db on it to migrate
 * it first (e.g. `bench --graph chain:ops=1 --planner naive --db IN`),
 * which keeps every row.
 *
 * Identity: a run is the same run when its uuid is (runs.uuid: random for a
 * new run, name-based for a run from before schema 8, docs/results.md, "Run
 * identity"); a result or replay is the same row when its run and its seq
 * (its place in the run's order of writing) are. Merging copies exactly
 * the rows the output lacks: a run already in the output gets the results
 * it does not hold yet (those a bench wrote after an earlier merge), and
 * merging a file twice adds nothing. Two different runs never become one,
 * whatever their command lines and start times.
 *
 * Checks: an input whose tables are not all tables (a view in place of
 * one) is refused; a result or replay that bench never writes (its run or
 * graph missing, an arena below its bound, ...: results/merge_check.h) is
 * not copied but counted and described (counts->skipped_*), with its
 * placements or frames.
 *
 * Each input is merged in one transaction; after the last,
 * PRAGMA integrity_check and foreign_key_check must pass. A failure leaves
 * the inputs before it merged, and merging again completes the rest. */
#ifndef ARENA_MERGE_H
#define ARENA_MERGE_H

#include <stddef.h>
#include <stdint.h>

struct arena_merge_counts {
    uint64_t runs, runs_present; /* runs added; runs already in the output (their
                                    missing rows are still copied) */
    uint64_t graphs;             /* graph rows added */
    uint64_t results, placements, replays, replay_frames; /* rows added */
    /* Left out as impossible (results/merge_check.h): results and replays,
     * and the placements and frames that belong to them; the first one,
     * "IN: result ID (PLANNER): why", or "" when none was. */
    uint64_t skipped_results, skipped_replays, skipped_rows;
    char skip_first[512];
};

/* Merges inputs[0..n) into the database at out (created when missing).
 * ARENA_OK, also when rows were skipped (counts says which), or
 * ARENA_EINVAL / ARENA_EDB / ARENA_ENOMEM with one line in err naming the
 * file: missing, not an arenabench database, another schema version, a
 * view for a table, the output itself, or a failed integrity check. counts
 * may be NULL. */
int arena_store_merge(const char *out, const char *const *inputs, size_t n,
                      struct arena_merge_counts *counts, char *err, size_t errlen);

#endif
