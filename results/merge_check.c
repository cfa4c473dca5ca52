/* merge_check.c — what bench merge will not copy (results/merge_check.h). */
#include "results/merge_check.h"

#include <stdio.h>
#include <string.h>

#include "planners/status.h"

/* The tables merge reads from an input. */
static const char *const copied[] = {"runs", "graphs", "results", "placements", "replays",
                                     "replay_frames"};

int arena_merge_check_tables(sqlite3 *db, const char *in, char *err, size_t errlen)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT type FROM src.sqlite_master WHERE name = ?1", -1, &st,
                                NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof copied / sizeof copied[0]; i++) {
        sqlite3_bind_text(st, 1, copied[i], -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
        const char *type = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
        if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
            if (!type || strcmp(type, "table") != 0) {
                arena_errorf(err, errlen, 0, ARENA_EINVAL,
                             "%s: %s%s%s, not a table: not a database bench wrote", in,
                             type ? copied[i] : "no ", type ? " is a " : copied[i],
                             type ? type : "");
                sqlite3_finalize(st);
                return ARENA_EINVAL;
            }
            rc = SQLITE_OK;
        }
        sqlite3_reset(st);
    }
    if (rc != SQLITE_OK)
        arena_errorf(err, errlen, 0, ARENA_EDB, "%s: reading its tables: %s", in,
                     sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? ARENA_OK : ARENA_EDB;
}

/* Why a result of src is impossible (NULL: it is not). pb is the bound of
 * its problem: the graph's lower bound, or under an in-place rule its
 * in-place bound (bench stores NULL for 0; --founding-table stores none
 * without a rule). The graph is the row the result will point to in the
 * output. */
static const char skip_results[] =
    "INSERT INTO temp.skip (tbl, id, why)"
    " SELECT 'results', id, why FROM (SELECT s.id, CASE"
    "  WHEN u.id IS NULL THEN 'its run ' || quote(s.run_id) || ' is not in the file'"
    "  WHEN g.id IS NULL THEN 'its graph ' || quote(s.graph_id) || ' is not in the file'"
    "  WHEN s.valid IS NOT 0 AND s.valid IS NOT 1 THEN 'valid is ' || quote(s.valid)"
    "   || ', neither 0 nor 1'"
    "  WHEN s.valid = 0 THEN NULL"
    "  WHEN typeof(s.arena_bytes) <> 'integer' OR s.arena_bytes < 0"
    "   THEN 'valid with an arena of ' || quote(s.arena_bytes) || ', not a number of bytes'"
    "  WHEN typeof(g.lower_bound) <> 'integer' OR g.lower_bound < 0"
    "   OR g.lower_bound > g.naive_bytes THEN 'its graph''s lower bound '"
    "   || quote(g.lower_bound) || ' is not between 0 and its naive bytes'"
    "  WHEN s.inplace IS 'none' AND s.inplace_bound <> g.lower_bound"
    "   THEN 'no in-place rule, but an in-place bound of ' || quote(s.inplace_bound)"
    "   || ' B, not the lower bound ' || g.lower_bound || ' B'"
    "  WHEN s.inplace IS NOT 'none' AND (typeof(coalesce(s.inplace_bound, 0)) <> 'integer'"
    "   OR s.inplace_bound < 0 OR s.inplace_bound > g.lower_bound)"
    "   THEN 'an in-place bound of ' || quote(s.inplace_bound) || ', not between 0 and the"
    " lower bound ' || g.lower_bound || ' B'"
    "  WHEN s.arena_bytes < pb THEN 'valid with an arena of ' || s.arena_bytes"
    "   || ' B, below the lower bound ' || pb || ' B'"
    "  WHEN s.status IS NOT 'optimal' AND s.status IS NOT 'feasible'"
    "   AND s.status IS NOT 'infeasible' AND s.status IS NOT 'limit'"
    "   THEN 'valid with status ' || quote(s.status)"
    "  WHEN typeof(s.bound) <> 'integer' OR s.bound < pb OR s.bound > s.arena_bytes"
    "   THEN 'a proven bound of ' || quote(s.bound) || ', not between ' || pb || ' B and its"
    " arena ' || s.arena_bytes || ' B'"
    "  WHEN s.status = 'optimal' AND s.bound <> s.arena_bytes THEN 'optimal, but its arena '"
    "   || s.arena_bytes || ' B is above its bound ' || s.bound || ' B'"
    "  WHEN pb = 0 AND s.ratio_lb IS NOT 0.0 OR pb > 0 AND (s.ratio_lb IS NULL"
    "   OR abs(s.ratio_lb - CAST(s.arena_bytes AS REAL) / pb) >"
    "    1e-9 * CAST(s.arena_bytes AS REAL) / pb)"
    "   THEN 'a ratio to the bound of ' || quote(s.ratio_lb) || ', not its arena / '"
    "   || pb || ' B'"
    "  END AS why"
    " FROM (SELECT s.*, CASE WHEN s.inplace IS 'none' THEN g.lower_bound"
    "   ELSE coalesce(s.inplace_bound, 0) END AS pb, g.id AS gid FROM src.results s"
    "   LEFT JOIN temp.graph_map m ON m.old = s.graph_id"
    "   LEFT JOIN main.graphs g ON g.id = m.new) s"
    " LEFT JOIN src.runs u ON u.id = s.run_id LEFT JOIN main.graphs g ON g.id = s.gid)"
    " WHERE why IS NOT NULL;";

static const char skip_replays[] =
    "INSERT INTO temp.skip (tbl, id, why)"
    " SELECT 'replays', s.id, CASE WHEN u.id IS NULL THEN 'its run ' || quote(s.run_id)"
    "   || ' is not in the file' ELSE 'its graph ' || quote(s.graph_id)"
    "   || ' is not in the file' END"
    " FROM src.replays s LEFT JOIN src.runs u ON u.id = s.run_id"
    " LEFT JOIN src.graphs g ON g.id = s.graph_id WHERE u.id IS NULL OR g.id IS NULL;";

static const char count_skips[] =
    "SELECT (SELECT count(*) FROM temp.skip WHERE tbl = 'results'),"
    " (SELECT count(*) FROM temp.skip WHERE tbl = 'replays'),"
    " (SELECT count(*) FROM src.placements WHERE result_id IN"
    "   (SELECT id FROM temp.skip WHERE tbl = 'results'))"
    " + (SELECT count(*) FROM src.replay_frames WHERE replay_id IN"
    "   (SELECT id FROM temp.skip WHERE tbl = 'replays')),"
    " (SELECT CASE k.tbl WHEN 'results' THEN 'result ' ELSE 'replay ' END || k.id"
    "   || coalesce(' (' || (SELECT planner FROM src.results r WHERE k.tbl = 'results'"
    "   AND r.id = k.id) || ')', '') || ': ' || k.why"
    "   FROM temp.skip k ORDER BY k.tbl DESC, k.id LIMIT 1)";

int arena_merge_mark_skips(sqlite3 *db, const char *in, struct arena_merge_counts *counts)
{
    int rc = sqlite3_exec(db,
                          "CREATE TEMP TABLE IF NOT EXISTS skip (tbl TEXT NOT NULL, id INTEGER"
                          " NOT NULL, why TEXT NOT NULL, PRIMARY KEY (tbl, id));"
                          "DELETE FROM temp.skip;",
                          NULL, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, skip_results, NULL, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, skip_replays, NULL, NULL, NULL);
    if (rc != SQLITE_OK || !counts) return rc;
    sqlite3_stmt *st = NULL;
    rc = sqlite3_prepare_v2(db, count_skips, -1, &st, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        counts->skipped_results += (uint64_t)sqlite3_column_int64(st, 0);
        counts->skipped_replays += (uint64_t)sqlite3_column_int64(st, 1);
        counts->skipped_rows += (uint64_t)sqlite3_column_int64(st, 2);
        const char *first = (const char *)sqlite3_column_text(st, 3);
        if (first && !counts->skip_first[0])
            snprintf(counts->skip_first, sizeof counts->skip_first, "%s: %s", in, first);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}
