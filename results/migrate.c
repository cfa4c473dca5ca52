/* migrate.c — the results schema's past: the forward migrations.
 *
 * A new database is created from results/schema.sql itself (compiled in as
 * arena_schema_sql). An older one is brought forward by the steps below, one
 * version at a time; tests check that each path ends in the shape of
 * schema.sql: version 4's tables, then the replays tables (schema_replays),
 * then runs.governor and runs.loadavg (runs_environment), then placements'
 * name column (schema_placement_names), then the run identity and result
 * keys (run_identity), then the in-place columns (inplace_columns), then
 * the graphs' order columns (order_columns), then each result's
 * configuration and problem (configuration_columns), then runs.stopped
 * (runs_stopped), then planner optimal's engine (optimal_engine_column),
 * then each result's planner origin and timing (planner_origin_columns),
 * then claims apart from proofs and a program's identity (claims_columns),
 * then the kernel scratch rule, its policy and the device arena
 * (scratch_columns), then TFLM's persistent records and the whole arena
 * (head_columns), then the planner's spec in place of optimal's engine
 * (planner_spec_column). Version 17 had results.optimal_engine and no
 * results.planner_spec. Version 16 had no results.head_bytes nor whole_arena.
 * Version 15 had no results.kernel_scratch,
 * scratch_policy nor device_arena.
 * Version 14 had no results.claimed_status, claimed_bound nor
 * command_sha256. Version 13 had no results.origin, plugin_path, plugin_sha256,
 * planner_command, timing nor self_ns. Version 12 had no
 * results.optimal_engine. Version 11 had no runs.stopped. Version 10 had no runs.tag nor results' order_mode, order_budget, patch,
 * problem_fingerprint, fixed_lower_bound and order columns. Version 9 had no graphs.exec_order nor the other order columns; version 8
 * had no results.inplace, inplace_bound nor placements.shares.
 * Version 7 had no runs.uuid, results.seq, replays.seq nor results' planner
 * options; version 6 had no placements.name; version 5 also no governor or loadavg;
 * version 4 also no replays tables; version 3 had
 * results without timed_once, status, bound and nodes; version 2 also
 * without noisy; version 1 also without error, and no placements table.
 * Each migration takes one version to the next; a database is carried from
 * any earlier version by applying them in order, inside one transaction. */
#include "results/migrate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/digest.h"
#include "results/store.h"
#include "results/uuid.h"

/* The replays of real allocators (bench --replay): version 5 adds these two
 * tables and their index and changes nothing else. */
static const char schema_replays[] =
    "CREATE TABLE replays (\n"
    "    id               INTEGER PRIMARY KEY,\n"
    "    run_id           INTEGER NOT NULL REFERENCES runs(id),\n"
    "    graph_id         INTEGER NOT NULL REFERENCES graphs(id),\n"
    "    allocator        TEXT NOT NULL,\n"
    "    version          TEXT NOT NULL,\n"
    "    footprint_source TEXT NOT NULL,\n"
    "    frames           INTEGER NOT NULL,\n"
    "    calls_per_frame  INTEGER NOT NULL,\n"
    "    ns_per_call      REAL,\n"
    "    live_peak        INTEGER NOT NULL,\n"
    "    baseline_bytes   INTEGER NOT NULL,\n"
    "    footprint_first  INTEGER NOT NULL,\n"
    "    footprint_last   INTEGER NOT NULL,\n"
    "    footprint_peak   INTEGER NOT NULL,\n"
    "    extent_peak      INTEGER NOT NULL,\n"
    "    resident_peak    INTEGER NOT NULL,\n"
    "    frag_first       REAL NOT NULL,\n"
    "    frag_last        REAL NOT NULL\n"
    ");\n"
    "CREATE TABLE replay_frames (\n"
    "    replay_id      INTEGER NOT NULL REFERENCES replays(id),\n"
    "    frame          INTEGER NOT NULL,\n"
    "    calls          INTEGER NOT NULL,\n"
    "    footprint_peak INTEGER NOT NULL,\n"
    "    extent_peak    INTEGER NOT NULL,\n"
    "    resident_peak  INTEGER NOT NULL,\n"
    "    PRIMARY KEY (replay_id, frame)\n"
    ") WITHOUT ROWID;\n"
    "CREATE INDEX replays_graph ON replays(graph_id);\n";

/* Tensor names with the placements (bench stores the source's names: graph
 * files' and graph families' tensor names, CSV ids, .tflite names; NULL for
 * problem families and for rows written before). Version 7 adds only this
 * column. */
static const char schema_placement_names[] = "ALTER TABLE placements ADD COLUMN name TEXT;\n";

/* 1 -> 2: results gain `error` (appended, as in version 2's column order);
 * placements appear. Rows of version 1 keep error NULL and no placements. */
static const char migrate_1_to_2[] =
    "ALTER TABLE results ADD COLUMN error TEXT;\n"
    "CREATE TABLE placements (\n"
    "    result_id INTEGER NOT NULL REFERENCES results(id),\n"
    "    tensor    INTEGER NOT NULL,\n"
    "    size      INTEGER NOT NULL,\n"
    "    first     INTEGER NOT NULL,\n"
    "    last      INTEGER NOT NULL,\n"
    "    offset    INTEGER NOT NULL,\n"
    "    PRIMARY KEY (result_id, tensor)\n"
    ") WITHOUT ROWID;\n";

/* 2 -> 3: results gain `noisy`, worked out for the old rows by the rule
 * bench applies (spread above 10 %, or a single timed call). */
static const char migrate_2_to_3[] =
    "ALTER TABLE results ADD COLUMN noisy INTEGER NOT NULL DEFAULT 0;\n"
    "UPDATE results SET noisy = 1 WHERE iterations = 1"
    " OR (plan_ns_mean > 0 AND plan_ns_stddev / plan_ns_mean > 0.10);\n";

/* 3 -> 4: results gain `timed_once`, `status`, `bound` and `nodes`. Every
 * planner before version 4 was a heuristic timed by Google Benchmark, so a
 * valid old row gets what arena_plan_settle gives a heuristic: bound = the
 * graph's lower bound, status optimal when the arena meets it, else
 * feasible, nodes 0. */
static const char migrate_3_to_4[] =
    "ALTER TABLE results ADD COLUMN timed_once INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE results ADD COLUMN status TEXT;\n"
    "ALTER TABLE results ADD COLUMN bound INTEGER;\n"
    "ALTER TABLE results ADD COLUMN nodes INTEGER;\n"
    "UPDATE results SET"
    " bound = (SELECT g.lower_bound FROM graphs g WHERE g.id = results.graph_id),"
    " nodes = 0 WHERE valid = 1 AND arena_bytes IS NOT NULL;\n"
    "UPDATE results SET status = CASE WHEN arena_bytes = bound THEN 'optimal'"
    " ELSE 'feasible' END WHERE bound IS NOT NULL;\n";

/* The machine's state when a run starts (bench/core/runinfo.h): the CPU
 * frequency governor ("unknown" where cpufreq is absent, as in most VMs) and
 * the 1-minute load average (NULL when /proc/loadavg cannot be read). Rows of
 * earlier versions get NULL for both: nobody recorded them. Version 6 adds
 * these columns and nothing else. */
static const char runs_environment[] =
    "ALTER TABLE runs ADD COLUMN governor TEXT;\n"
    "ALTER TABLE runs ADD COLUMN loadavg REAL;\n";

/* Version 8: what lets merge and stats tell runs and results apart across
 * databases. runs.uuid is the run's identity (store.c gives a new run a
 * random one); results.seq and replays.seq number a run's rows in the order
 * it stored them, so (run, seq) is a row's key in every copy of the run; the
 * planner options a search planner read are kept with its result. Old rows:
 * started_at gains ".000" (text order stays time order), seq follows the
 * row ids within each run (the order bench wrote them, which merge kept),
 * and the options stay NULL (not recorded then). Legacy runs' uuids are
 * filled in by legacy_run_ids() below, before the unique index is made. */
static const char run_identity[] =
    "ALTER TABLE runs ADD COLUMN uuid TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE results ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE results ADD COLUMN time_limit REAL;\n"
    "ALTER TABLE results ADD COLUMN node_limit INTEGER;\n"
    "ALTER TABLE results ADD COLUMN planner_seed INTEGER;\n"
    "ALTER TABLE results ADD COLUMN capacity INTEGER;\n"
    "ALTER TABLE replays ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;\n"
    "UPDATE runs SET started_at = substr(started_at, 1, 19) || '.000Z'"
    " WHERE length(started_at) = 20 AND substr(started_at, 20) = 'Z';\n"
    "UPDATE results SET seq = k.seq FROM (SELECT id, row_number() OVER"
    " (PARTITION BY run_id ORDER BY id) AS seq FROM results) k WHERE k.id = results.id;\n"
    "UPDATE replays SET seq = k.seq FROM (SELECT id, row_number() OVER"
    " (PARTITION BY run_id ORDER BY id) AS seq FROM replays) k WHERE k.id = replays.id;\n";
static const char run_identity_indexes[] =
    "CREATE UNIQUE INDEX runs_uuid ON runs(uuid);\n"
    "CREATE UNIQUE INDEX results_run_seq ON results(run_id, seq);\n"
    "CREATE UNIQUE INDEX replays_run_seq ON replays(run_id, seq);\n";

/* Version 9: the in-place rule a result was planned under, its in-place
 * bound, and which tensor's bytes a placement takes. Old rows were planned
 * without aliasing: rule 'none', and the bound is their graph's lower bound. */
static const char inplace_columns[] =
    "ALTER TABLE results ADD COLUMN inplace TEXT NOT NULL DEFAULT 'none';\n"
    "ALTER TABLE results ADD COLUMN inplace_bound INTEGER;\n"
    "ALTER TABLE placements ADD COLUMN shares INTEGER;\n"
    "UPDATE results SET inplace_bound = (SELECT lower_bound FROM graphs"
    " WHERE graphs.id = results.graph_id);\n";

/* A run written before version 8 is named by what it holds: its runs row
 * (every column but id) and its first result (planner, graph by spec,
 * fingerprint and alignment, and every measured figure), or its first
 * replay when it has no result. Both promises of merge then hold for old
 * files migrated apart: two copies of one run, even when one copy holds only
 * its first results (a merge taken while bench was still writing), get the
 * same uuid, so merging again copies just the missing rows; two different
 * runs differ in their first measured times (nanoseconds), so they get
 * different uuids even with one command line started in the same second.
 * Runs equal in every column and first figure hold nothing that tells them
 * apart; within one file the second of them is named by its text and "#2"
 * (the third "#3", ...), in id order, so each keeps a run of its own. */
static const char legacy_name_sql[] =
    "CREATE TEMP TABLE legacy_names AS SELECT r.id, quote(r.started_at) || quote(r.git_rev) || quote(r.compiler) ||"
    " quote(r.cpu) || quote(r.host) || quote(r.command) || quote(r.seed) ||"
    " quote(r.governor) || quote(r.loadavg) || ifnull((SELECT quote(x.planner) ||"
    "   quote(g.spec) || quote(g.fingerprint) || quote(g.alignment) || quote(x.arena_bytes) ||"
    "   quote(x.plan_ns_median) || quote(x.plan_ns_mean) || quote(x.plan_ns_stddev) ||"
    "   quote(x.iterations) || quote(x.valid) || quote(x.error) || quote(x.status) ||"
    "   quote(x.bound) || quote(x.nodes) FROM results x JOIN graphs g ON g.id = x.graph_id"
    "   WHERE x.run_id = r.id AND x.seq = 1), '') || ifnull((SELECT quote(y.allocator) ||"
    "   quote(g.spec) || quote(g.fingerprint) || quote(g.alignment) || quote(y.ns_per_call) ||"
    "   quote(y.footprint_peak) || quote(y.resident_peak) FROM replays y JOIN graphs g"
    "   ON g.id = y.graph_id WHERE y.run_id = r.id AND y.seq = 1), '')"
    " AS name FROM runs r WHERE r.uuid = ''";

/* Is id already some run's uuid? -1 on error. */
static int taken(sqlite3_stmt *find, const char *id)
{
    int rc = sqlite3_bind_text(find, 1, id, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK) rc = sqlite3_step(find);
    sqlite3_reset(find);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static int legacy_run_ids(sqlite3 *db, char *err, size_t errlen)
{
    sqlite3_stmt *sel = NULL, *upd = NULL, *find = NULL;
    char *name = NULL;
    /* Named first, updated after: no statement reads runs while it changes. */
    int rc = sqlite3_exec(db, legacy_name_sql, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, "SELECT id, name FROM temp.legacy_names ORDER BY id", -1,
                                &sel, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, "UPDATE runs SET uuid = ?2 WHERE id = ?1", -1, &upd, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, "SELECT 1 FROM runs WHERE uuid = ?1", -1, &find, NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(sel)) == SQLITE_ROW) {
        const char *text = (const char *)sqlite3_column_text(sel, 1);
        size_t len = (size_t)sqlite3_column_bytes(sel, 1);
        char *grown = realloc(name, len + 24);
        if (!grown) {
            rc = SQLITE_NOMEM;
            break;
        }
        name = grown;
        memcpy(name, text ? text : "", len);
        char id[ARENA_UUID_LEN + 1];
        arena_uuid_from_name(name, len, id);
        int t;
        for (unsigned k = 2; (t = taken(find, id)) == 1; k++)
            arena_uuid_from_name(name, len + (size_t)snprintf(name + len, 24, "#%u", k), id);
        if (t < 0) {
            rc = SQLITE_ERROR;
            break;
        }
        rc = sqlite3_bind_int64(upd, 1, sqlite3_column_int64(sel, 0));
        if (rc == SQLITE_OK) rc = sqlite3_bind_text(upd, 2, id, -1, SQLITE_TRANSIENT);
        if (rc == SQLITE_OK) rc = sqlite3_step(upd);
        if (rc == SQLITE_DONE) rc = SQLITE_OK;
        sqlite3_reset(upd);
    }
    if (rc == SQLITE_DONE) rc = SQLITE_OK;
    if (rc != SQLITE_OK)
        snprintf(err, errlen, "naming old runs: %s",
                 rc == SQLITE_NOMEM ? sqlite3_errstr(rc) : sqlite3_errmsg(db));
    free(name);
    sqlite3_finalize(sel);
    sqlite3_finalize(upd);
    sqlite3_finalize(find);
    sqlite3_exec(db, "DROP TABLE IF EXISTS temp.legacy_names", NULL, NULL, NULL);
    return rc;
}

/* Version 10: the execution order a graph was planned in (bench --order
 * best) and its proof. Old rows were planned in their stored order and no
 * order was searched: every column NULL. */
static const char order_columns[] =
    "ALTER TABLE graphs ADD COLUMN exec_order TEXT;\n"
    "ALTER TABLE graphs ADD COLUMN order_status TEXT;\n"
    "ALTER TABLE graphs ADD COLUMN stored_order_peak INTEGER;\n"
    "ALTER TABLE graphs ADD COLUMN order_bound INTEGER;\n"
    "ALTER TABLE graphs ADD COLUMN order_states INTEGER;\n"
    "ALTER TABLE graphs ADD COLUMN order_ns INTEGER;\n";

/* Version 11: each result names the problem it planned. Its configuration
 * (the transformations, graphs/transforms.h) and the problem's fingerprint
 * and bounds move onto the result, so a graphs row is never changed by a
 * later run (version 10 updated a shared row's order columns when a later
 * --order best run proved its order best). Old rows get the configuration
 * they had, from what recorded it:
 *  - order_mode: 'best' when the run's command line holds --order best
 *    (or --order=best), else 'stored'; order_budget the --order-states it
 *    gave (else the default, 2,000,000) with best;
 *  - patch: what follows "+patch=" in the graph's spec;
 *  - problem_fingerprint: the graph's fingerprint under the rule none (the
 *    problem has no candidates), else the graph's fingerprint, '/' and the
 *    rule (the candidates were not recorded);
 *  - fixed_lower_bound: the lower bound of a graph row of the same spec
 *    (without "+patch=...") and alignment in its stored order (exec_order
 *    NULL), where there is one; NULL otherwise;
 *  - order_status ... order_ns: the graph's, for best-order results. */
static const char configuration_columns[] =
    "ALTER TABLE runs ADD COLUMN tag TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE results ADD COLUMN order_mode TEXT NOT NULL DEFAULT 'stored';\n"
    "ALTER TABLE results ADD COLUMN order_budget INTEGER;\n"
    "ALTER TABLE results ADD COLUMN patch TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE results ADD COLUMN problem_fingerprint TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE results ADD COLUMN fixed_lower_bound INTEGER;\n"
    "ALTER TABLE results ADD COLUMN order_status TEXT;\n"
    "ALTER TABLE results ADD COLUMN stored_order_peak INTEGER;\n"
    "ALTER TABLE results ADD COLUMN order_bound INTEGER;\n"
    "ALTER TABLE results ADD COLUMN order_states INTEGER;\n"
    "ALTER TABLE results ADD COLUMN order_ns INTEGER;\n"
    "UPDATE results SET order_mode = 'best' WHERE run_id IN (SELECT id FROM runs WHERE"
    " ' ' || command || ' ' GLOB '* --order best *' OR ' ' || command || ' ' GLOB"
    " '* --order=best *');\n"
    "UPDATE results SET order_budget = coalesce((SELECT CASE"
    " WHEN instr(u.command, '--order-states ') > 0 THEN"
    "  CAST(substr(u.command, instr(u.command, '--order-states ') + 15) AS INTEGER)"
    " WHEN instr(u.command, '--order-states=') > 0 THEN"
    "  CAST(substr(u.command, instr(u.command, '--order-states=') + 15) AS INTEGER) END"
    " FROM runs u WHERE u.id = results.run_id), 2000000) WHERE order_mode = 'best';\n"
    "UPDATE results SET"
    " patch = coalesce((SELECT substr(g.spec, instr(g.spec, '+patch=') + 7) FROM graphs g"
    "  WHERE g.id = results.graph_id AND instr(g.spec, '+patch=') > 0), ''),"
    " problem_fingerprint = (SELECT g.fingerprint || CASE WHEN results.inplace = 'none'"
    "  THEN '' ELSE '/' || results.inplace END FROM graphs g WHERE g.id = results.graph_id),"
    " fixed_lower_bound = (SELECT s.lower_bound FROM graphs g JOIN graphs s"
    "  ON s.alignment = g.alignment AND s.exec_order IS NULL AND s.spec = CASE"
    "  WHEN instr(g.spec, '+patch=') > 0 THEN substr(g.spec, 1, instr(g.spec, '+patch=') - 1)"
    "  ELSE g.spec END WHERE g.id = results.graph_id ORDER BY s.id <> g.id, s.id LIMIT 1);\n"
    "UPDATE results SET (order_status, stored_order_peak, order_bound, order_states,"
    " order_ns) = (SELECT g.order_status, g.stored_order_peak, g.order_bound,"
    " g.order_states, g.order_ns FROM graphs g WHERE g.id = results.graph_id)"
    " WHERE order_mode = 'best';\n";

/* 11 -> 12: runs.stopped (NULL for every older run: none recorded a stop,
 * and a stopped run before 12 stored the results before the stop alone). */
static const char runs_stopped[] = "ALTER TABLE runs ADD COLUMN stopped TEXT;\n";

/* 12 -> 13: planner optimal's engines (bench --optimal-engine). Before it,
 * optimal had one engine, the canonical searches: its rows say search;
 * every other planner's NULL. */
static const char optimal_engine_column[] =
    "ALTER TABLE results ADD COLUMN optimal_engine TEXT;\n"
    "UPDATE results SET optimal_engine = 'search' WHERE planner = 'optimal';\n";

/* 13 -> 14: where each result's planner comes from (a built-in one, a
 * shared object, an external program) and how its time was taken. Every
 * older row is a built-in planner timed in process: the defaults. */
static const char planner_origin_columns[] =
    "ALTER TABLE results ADD COLUMN origin TEXT NOT NULL DEFAULT 'built-in';\n"
    "ALTER TABLE results ADD COLUMN plugin_path TEXT;\n"
    "ALTER TABLE results ADD COLUMN plugin_sha256 TEXT;\n"
    "ALTER TABLE results ADD COLUMN planner_command TEXT;\n"
    "ALTER TABLE results ADD COLUMN timing TEXT NOT NULL DEFAULT 'in-process';\n"
    "ALTER TABLE results ADD COLUMN self_ns INTEGER;\n";

/* 14 -> 15: claims apart from proofs, and a program's identity. A
 * plugin's row whose bound is above its problem's max-live bound carried
 * the plugin's word as status and bound: that word moves to claimed_status
 * and claimed_bound, and status and bound become what bench proves from
 * the max-live bound (bench/core/claims.h: optimal when the arena meets it,
 * infeasible when it is above the capacity, limit when the plugin said it
 * stopped or claimed infeasible with a plan above the capacity, else
 * feasible). Rows whose bound is the max-live one hold bench's proofs
 * already. A cmd row gets the hash of its command (arena_sha256, a
 * function this connection defines for the migration). */
#define PROBLEM_LB "coalesce(inplace_bound, (SELECT g.lower_bound FROM graphs g" \
                   " WHERE g.id = results.graph_id))"
static const char claims_columns[] =
    "ALTER TABLE results ADD COLUMN claimed_status TEXT;\n"
    "ALTER TABLE results ADD COLUMN claimed_bound INTEGER;\n"
    "ALTER TABLE results ADD COLUMN command_sha256 TEXT;\n"
    "UPDATE results SET claimed_status = status, claimed_bound = bound,"
    " bound = " PROBLEM_LB ", status = CASE"
    "  WHEN arena_bytes = " PROBLEM_LB " THEN 'optimal'"
    "  WHEN capacity > 0 AND " PROBLEM_LB " > capacity THEN 'infeasible'"
    "  WHEN status = 'limit' OR (status = 'infeasible' AND arena_bytes > capacity) THEN 'limit'"
    "  ELSE 'feasible' END"
    " WHERE origin = 'plugin' AND valid = 1 AND bound > " PROBLEM_LB ";\n"
    "UPDATE results SET command_sha256 = arena_sha256(planner_command)"
    " WHERE origin = 'cmd' AND planner_command IS NOT NULL;\n";

/* 15 -> 16: the kernels' scratch buffers (bench --scratch) and the device
 * arena. No older problem held any scratch: the defaults, and no device
 * arena (NULL). */
static const char scratch_columns[] =
    "ALTER TABLE results ADD COLUMN kernel_scratch TEXT NOT NULL DEFAULT 'none';\n"
    "ALTER TABLE results ADD COLUMN scratch_policy TEXT NOT NULL DEFAULT 'lifetime';\n"
    "ALTER TABLE results ADD COLUMN device_arena INTEGER;\n";

/* 16 -> 17: TFLM's persistent records (the head) and the whole arena.
 * Older rows computed neither: NULL. */
static const char head_columns[] =
    "ALTER TABLE results ADD COLUMN head_bytes INTEGER;\n"
    "ALTER TABLE results ADD COLUMN whole_arena INTEGER;\n";

/* 17 -> 18: the planner's identity is its canonical spec. Every older row
 * gets the spec its run used (results/planner_spec.h: arena_planner_spec, a
 * function every connection defines, results/db.c): optimal's from its
 * engine, a seed key's from planner_seed or the run's seed, every other key
 * its default. The engine is a key of optimal's spec now: its column goes. */
static const char planner_spec_column[] =
    "ALTER TABLE results ADD COLUMN planner_spec TEXT NOT NULL DEFAULT '';\n"
    "UPDATE results SET planner_spec = arena_planner_spec(planner, origin, optimal_engine,"
    " coalesce(planner_seed, (SELECT u.seed FROM runs u WHERE u.id = results.run_id)));\n"
    "ALTER TABLE results DROP COLUMN optimal_engine;\n";

/* 18 -> 19: capacity 0 was a minimisation stored as if a capacity of 0 B
 * had been asked for; no capacity is NULL. */
static const char capacity_null[] = "UPDATE results SET capacity = NULL WHERE capacity = 0;\n";

/* migrations[v] takes version v to v + 1; index 0 unused. 7 -> 8 is
 * run_identity, then legacy_run_ids(), then run_identity_indexes. */
static const char *const migrations[] = {NULL, migrate_1_to_2, migrate_2_to_3, migrate_3_to_4,
                                         schema_replays, runs_environment,
                                         schema_placement_names, run_identity,
                                         inplace_columns, order_columns,
                                         configuration_columns, runs_stopped,
                                         optimal_engine_column, planner_origin_columns,
                                         claims_columns, scratch_columns, head_columns,
                                         planner_spec_column, capacity_null};
_Static_assert(sizeof migrations / sizeof migrations[0] == ARENA_STORE_VERSION,
               "one migration per earlier schema version");

static int exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK)
        snprintf(err, errlen, "%s", msg ? msg : sqlite3_errstr(rc));
    sqlite3_free(msg);
    return rc;
}

static int stamp(sqlite3 *db, int version, char *err, size_t errlen)
{
    char sql[96];
    snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d;",
             ARENA_STORE_APPLICATION_ID, version);
    return exec(db, sql, err, errlen);
}

/* The text of schema.sql without its comments (it has no "--" inside a
 * string), so the tables' stored SQL is plain: SQLite edits that text in
 * ALTER TABLE, and comments between columns can break its edits. */
static char *schema_without_comments(void)
{
    size_t len = 1;
    for (size_t i = 0; arena_schema_sql[i]; i++) len += strlen(arena_schema_sql[i]) + 1;
    char *sql = malloc(len), *at = sql;
    if (!sql) return NULL;
    for (size_t i = 0; arena_schema_sql[i]; i++) {
        const char *line = arena_schema_sql[i], *cut = strstr(line, "--");
        size_t n = cut ? (size_t)(cut - line) : strlen(line);
        while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\n')) n--;
        if (n == 0) continue;
        memcpy(at, line, n);
        at += n;
        *at++ = '\n';
    }
    *at = '\0';
    return sql;
}

int arena_schema_create(sqlite3 *db, char *err, size_t errlen)
{
    char *sql = schema_without_comments();
    if (!sql) {
        snprintf(err, errlen, "%s", sqlite3_errstr(SQLITE_NOMEM));
        return SQLITE_NOMEM;
    }
    int rc = exec(db, sql, err, errlen);
    free(sql);
    return rc != SQLITE_OK ? rc : stamp(db, ARENA_STORE_VERSION, err, errlen);
}

/* arena_sha256(text): its SHA-256 in hex (results/digest.h); NULL for NULL. */
static void sha256_sql(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const unsigned char *text = sqlite3_value_text(argv[0]);
    if (!text) {
        sqlite3_result_null(ctx);
        return;
    }
    char hex[65];
    arena_sha256_hex(text, (size_t)sqlite3_value_bytes(argv[0]), hex);
    sqlite3_result_text(ctx, hex, 64, SQLITE_TRANSIENT);
}

int arena_schema_migrate(sqlite3 *db, int from, char *err, size_t errlen)
{
    if (from < 1 || from >= ARENA_STORE_VERSION) {
        snprintf(err, errlen, "no migration from schema version %d", from);
        return SQLITE_ERROR;
    }
    int frc = sqlite3_create_function(db, "arena_sha256", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                                      NULL, sha256_sql, NULL, NULL);
    if (frc != SQLITE_OK) {
        snprintf(err, errlen, "%s", sqlite3_errmsg(db));
        return frc;
    }
    for (int v = from; v < ARENA_STORE_VERSION; v++) {
        int rc = exec(db, migrations[v], err, errlen);
        if (rc == SQLITE_OK && migrations[v] == run_identity) {
            rc = legacy_run_ids(db, err, errlen);
            if (rc == SQLITE_OK) rc = exec(db, run_identity_indexes, err, errlen);
        }
        if (rc != SQLITE_OK) return rc;
    }
    return stamp(db, ARENA_STORE_VERSION, err, errlen);
}
