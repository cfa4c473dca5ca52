/* test_store.c — the results database on real SQLite files in a temporary
 * folder: creation and migration give exactly results/schema.sql, rows and
 * placements go in and read back, two processes write one file at once, and
 * files that are not ours, newer, or corrupt are refused untouched. */
#include <criterion/criterion.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "results/store.h"
#include "tests/tmpdb.h"

#ifndef ARENA_SOURCE_ROOT
#error "ARENA_SOURCE_ROOT must name the source tree (set by tests/meson.build)"
#endif

TestSuite(store, .init = td_make_dir, .fini = td_remove_dir);

/* Planner optimal's canonical spec with engine E and every other key its
 * default, written out by hand from its key table (planners/optimal). */
#define V17_OPTIMAL(E) "optimal:engine=" E ",off=none"

/* A version-17 file: one run (seed 5), the graph chain:ops=8 (fingerprint
 * 00000000000000aa, the problem planned), and results of naive, optimal
 * with two engines (results.optimal_engine) and a plugin. */
#define V17_ROWS                                                                                 \
    TD_BACK_TO_V17                                                                               \
    "INSERT INTO runs (id, started_at, git_rev, compiler, cpu, host, command, seed, uuid, tag)"  \
    " VALUES (1, 't1', 'g', 'c', 'cpu', 'h', 'bench --graph chain:ops=8', 5, 'u1', '');"       \
    "INSERT INTO graphs (id, spec, family, params, fingerprint, alignment, ops, tensors,"        \
    " naive_bytes, lower_bound) VALUES (1, 'chain:ops=8', 'chain', 'ops=8', '00000000000000aa',"  \
    " 16, 8, 9, 900, 100);"                                                                      \
    "INSERT INTO results (id, run_id, graph_id, planner, arena_bytes, valid, seq,"              \
    " problem_fingerprint, optimal_engine, origin, plugin_sha256, time_limit, node_limit,"      \
    " planner_seed, capacity) VALUES"                                                            \
    " (1, 1, 1, 'naive', 120, 1, 1, '00000000000000aa', NULL, 'built-in', NULL, NULL, NULL,"    \
    "  NULL, NULL),"                                                                             \
    " (2, 1, 1, 'optimal', 100, 1, 2, '00000000000000aa', 'sat', 'built-in', NULL, NULL, NULL," \
    "  NULL, NULL),"                                                                             \
    " (3, 1, 1, 'optimal', 110, 1, 3, '00000000000000aa', 'portfolio', 'built-in', NULL, NULL," \
    "  NULL, NULL, NULL),"                                                                       \
    " (4, 1, 1, 'mine', 105, 1, 4, '00000000000000aa', NULL, 'plugin', 'ab12', NULL, NULL,"     \
    "  NULL, NULL);"

static void raw_exec(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    cr_assert_eq(rc, SQLITE_OK, "%s: %s", sql, msg ? msg : "");
    sqlite3_free(msg);
}

/* Appends every row of a query, columns separated by '|', rows by '\n'. */
static void append_rows(sqlite3 *db, const char *sql, char *out, size_t cap)
{
    sqlite3_stmt *st = NULL;
    cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s", sql);
    while (sqlite3_step(st) == SQLITE_ROW) {
        for (int c = 0; c < sqlite3_column_count(st); c++) {
            const unsigned char *t = sqlite3_column_text(st, c);
            size_t n = strlen(out);
            snprintf(out + n, cap - n, "%s%s", c ? "|" : "", t ? (const char *)t : "NULL");
        }
        size_t n = strlen(out);
        snprintf(out + n, cap - n, "\n");
    }
    sqlite3_finalize(st);
}

/* The shape of a schema, independent of how its SQL text was written:
 * every table's columns (name, type, not null, default, pk), indexes with
 * their columns and uniqueness, and foreign keys. */
static void shape(sqlite3 *db, char *out, size_t cap)
{
    out[0] = '\0';
    sqlite3_stmt *st = NULL;
    cr_assert_eq(sqlite3_prepare_v2(db,
                                    "SELECT name FROM sqlite_master WHERE type = 'table'"
                                    " ORDER BY name",
                                    -1, &st, NULL),
                 SQLITE_OK);
    char sql[256];
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        size_t n = strlen(out);
        snprintf(out + n, cap - n, "table %s\n", t);
        snprintf(sql, sizeof sql,
                 "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info('%s')", t);
        append_rows(db, sql, out, cap);
        snprintf(sql, sizeof sql,
                 "SELECT l.name, l.\"unique\", l.origin, group_concat(i.name) FROM"
                 " pragma_index_list('%s') l, pragma_index_info(l.name) i GROUP BY l.name"
                 " ORDER BY l.origin, group_concat(i.name)",
                 t);
        append_rows(db, sql, out, cap);
        snprintf(sql, sizeof sql,
                 "SELECT \"table\", \"from\", \"to\" FROM pragma_foreign_key_list('%s')"
                 " ORDER BY \"from\"",
                 t);
        append_rows(db, sql, out, cap);
        snprintf(sql, sizeof sql,
                 "SELECT instr(upper(sql), 'WITHOUT ROWID') > 0 FROM sqlite_master"
                 " WHERE name = '%s'",
                 t);
        append_rows(db, sql, out, cap);
    }
    sqlite3_finalize(st);
}

/* Autoindex names (sqlite_autoindex_results_1 ...) depend on creation
 * order only through their table; they compare equal between schema.sql
 * and the store as long as the UNIQUE/PRIMARY KEY constraints agree. */
static void expect_matches_schema_sql(sqlite3 *db)
{
    size_t len = 0;
    char *sql = td_slurp(ARENA_SOURCE_ROOT "/results/schema.sql", &len);
    cr_assert(sql, "cannot read results/schema.sql");
    sqlite3 *ref = td_db_open(":memory:", 0);
    raw_exec(ref, sql);
    free(sql);
    static char want[16384], got[16384];
    shape(ref, want, sizeof want);
    shape(db, got, sizeof got);
    sqlite3_close(ref);
    cr_assert(strlen(want) > 200, "schema.sql gave too little: %s", want);
    cr_expect_str_eq(got, want);
}

/* A five-tensor problem (the second known answer in the README): sizes 16,
 * 8, 64, 32, 8 over [0,1] [1,2] [2,3] [3,4] [4,5]; greedy-by-size offsets
 * 0,64,0,64,0 give arena 96 = the lower bound. */
static const struct arena_tensor five[] = {
    {16, 0, 1}, {8, 1, 2}, {64, 2, 3}, {32, 3, 4}, {8, 4, 5}};
static uint64_t five_offsets[] = {0, 64, 0, 64, 0};

static struct arena_source five_source(uint64_t alignment)
{
    struct arena_source s = {0};
    s.spec = "test:five";
    s.family = "test";
    s.params = "five";
    s.fingerprint = 0x0123456789abcdefu;
    s.ops = 6;
    s.problem.n = 5;
    s.problem.tensors = five;
    s.problem.alignment = alignment;
    return s;
}

static const struct arena_bounds five_bounds = {
    .naive_bytes = 128, .lower_bound = 96, .largest = 64, .max_live = 2, .steps = 6};

static int64_t add_run(struct arena_store *s, uint64_t seed)
{
    struct arena_run_info run = {"2026-12-02T16:00:00Z", "abc", "gcc", "cpu", "host",
                                 "bench --test", seed, "performance", 0.5, NULL, NULL};
    int64_t id = 0;
    cr_assert_eq(arena_store_add_run(s, &run, &id), ARENA_OK, "%s", arena_store_error(s));
    return id;
}

/* Names with a comma, a quote and UTF-8 (a .tflite name may hold any of
 * them): stored as they are. */
static char *const five_names[] = {"input", "conv/1,a", "say \"hi\"", "caf\xc3\xa9", "out"};

static int64_t add_five_result_named(struct arena_store *s, int64_t run, int64_t graph,
                                     int valid, char *const *names)
{
    struct arena_problem p = five_source(16).problem;
    struct arena_plan plan = {.n = 5, .offsets = five_offsets, .arena = 96};
    struct arena_metrics m = {.bounds = five_bounds, .arena = 96, .ratio_lb = 1.0,
                              .saving = 0.25, .frag_peak = 0.0, .frag_mean = 0.125};
    struct arena_result r = {.planner = "greedy-by-size", .valid = valid,
                                  .error = valid ? NULL : "tensors 0 and 1 collide",
                                  .metrics = valid ? &m : NULL, .plan_ns_median = 120.5,
                                  .plan_ns_mean = 121.0, .plan_ns_stddev = NAN,
                                  .iterations = 5000, .scratch_bytes = 640, .names = names};
    int64_t id = 0;
    cr_assert_eq(arena_store_add_result(s, run, graph, &r, &p, &plan, &id), ARENA_OK, "%s",
                 arena_store_error(s));
    return id;
}

static int64_t add_five_result(struct arena_store *s, int64_t run, int64_t graph, int valid)
{
    return add_five_result_named(s, run, graph, valid, NULL);
}

/* Opens path with bench's store (which migrates it), closes it, and opens
 * it read-only, at the current version and in the shape of schema.sql. */
static sqlite3 *migrated(const char *path)
{
    struct arena_store *s = NULL;
    char err[300] = "";
    cr_assert_eq(arena_store_open(path, NULL, NULL, &s, err, sizeof err), ARENA_OK, "%s", err);
    arena_store_close(s);
    sqlite3 *db = td_db_open(path, 1);
    cr_expect_eq(td_db_int(db, "PRAGMA user_version"), ARENA_STORE_VERSION);
    expect_matches_schema_sql(db);
    return db;
}

/* A database of an older version at td_dir/name (into path): made at the
 * current one, then taken back and filled by sql (TD_BACK_TO_V... and
 * rows), closed. */
static void older_db(const char *name, char *path, size_t len, const char *sql)
{
    td_path(path, len, name);
    sqlite3_close(migrated(path)); /* a new file, at the current version */
    sqlite3 *db = td_db_open(path, 0);
    raw_exec(db, sql);
    sqlite3_close(db);
}

Test(store, creates_schema_sql_in_an_empty_file)
{
    char path[160];
    td_path(path, sizeof path, "a.sqlite");
    sqlite3 *db = migrated(path); /* created: the version, the shape of schema.sql */
    cr_expect_eq(td_db_int(db, "PRAGMA application_id"), ARENA_STORE_APPLICATION_ID);
    cr_expect_eq(td_db_int(db, "SELECT journal_mode = 'wal' FROM pragma_journal_mode"), 1);
    sqlite3_close(db);

    /* Opening again changes nothing in the shape. */
    sqlite3_close(migrated(path));
}

/* Version 5 is version 6 without runs.governor and runs.loadavg: made by
 * dropping them from a new file. Its run keeps NULL for both; a run added
 * after the migration stores what it is given ("unknown" for a NULL
 * governor, NULL for a NaN load). */
Test(store, migrates_version_5_adding_governor_and_loadavg)
{
    char path[160];
    older_db("v5.sqlite", path, sizeof path,
             TD_BACK_TO_V7
             "ALTER TABLE runs DROP COLUMN loadavg; ALTER TABLE runs DROP COLUMN governor;"
             "ALTER TABLE placements DROP COLUMN name;"
             "INSERT INTO runs VALUES (1, 't', 'g', 'c', 'cpu', 'h', 'bench', 1);"
             "PRAGMA user_version = 5;");
    struct arena_store *s = NULL;
    char err[300] = "";
    sqlite3 *db;
    cr_assert_eq(arena_store_open(path, NULL, NULL, &s, err, sizeof err), ARENA_OK, "%s", err);
    int64_t id = add_run(s, 2);
    struct arena_run_info bare = {"t", "g", "c", "cpu", "h", "bench", 3, NULL, NAN, NULL, NULL};
    cr_assert_eq(arena_store_add_run(s, &bare, &id), ARENA_OK);
    arena_store_close(s);
    db = td_db_open(path, 1);
    cr_expect_eq(td_db_int(db, "PRAGMA user_version"), ARENA_STORE_VERSION);
    expect_matches_schema_sql(db);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM runs WHERE id = 1 AND governor IS NULL"
                             " AND loadavg IS NULL"), 1);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM runs WHERE seed = 2"
                             " AND governor = 'performance' AND loadavg = 0.5"), 1);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM runs WHERE seed = 3"
                             " AND governor = 'unknown' AND loadavg IS NULL"), 1);
    sqlite3_close(db);
}

/* Version 9 is version 10 without the graphs' order columns: its graph
 * keeps NULL in every one (no order was searched then). */
Test(store, migrates_version_9_adding_the_order_columns)
{
    char path[160];
    older_db("v9.sqlite", path, sizeof path,
             TD_BACK_TO_V9
             "INSERT INTO graphs VALUES (1, 'chain', 'chain', '', '00', 16, 3, 4, 64, 32);");
    sqlite3 *db = migrated(path);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM graphs WHERE id = 1 AND exec_order IS NULL"
                             " AND order_status IS NULL AND stored_order_peak IS NULL"
                             " AND order_bound IS NULL AND order_states IS NULL"
                             " AND order_ns IS NULL"), 1);
    sqlite3_close(db);
}

/* Version 12 is version 13 without results.optimal_engine: its rows of
 * planner optimal were made by its only engine then, the search, and carry
 * it into their spec (version 18); every other planner's row is its name. */
Test(store, migrates_version_12_giving_optimal_the_search_engine)
{
    char path[160];
    older_db("v12.sqlite", path, sizeof path, TD_BACK_TO_V12
             "INSERT INTO runs (id, started_at, git_rev, compiler, cpu, host, command, seed,"
             " uuid) VALUES (1, 't1', 'g', 'c', 'cpu', 'h', 'bench --graph chain', 1, 'u1');"
             "INSERT INTO graphs (id, spec, family, params, fingerprint, alignment, ops, tensors,"
             " naive_bytes, lower_bound) VALUES (1, 'chain:ops=8', 'chain', 'ops=8', 'aa', 16, 8,"
             " 9, 900, 100);"
             "INSERT INTO results (id, run_id, graph_id, planner, arena_bytes, valid, seq) VALUES"
             " (1, 1, 1, 'naive', 100, 1, 1), (2, 1, 1, 'optimal', 100, 1, 2);");
    sqlite3 *db = migrated(path);
    char got[256] = "";
    append_rows(db, "SELECT id, planner, planner_spec FROM results ORDER BY id", got, sizeof got);
    cr_expect_str_eq(got, "1|naive|naive\n2|optimal|" V17_OPTIMAL("search") "\n");
    sqlite3_close(db);
}

/* Version 11 is version 12 without runs.stopped: a run of 11 keeps its row,
 * stopped NULL (none recorded a stop), and a stop is recorded after it. */
Test(store, migrates_version_11_adding_runs_stopped)
{
    char path[160];
    older_db("v11.sqlite", path, sizeof path, TD_BACK_TO_V11
             "INSERT INTO runs (id, started_at, git_rev, compiler, cpu, host, command, seed,"
             " uuid) VALUES (1, 't1', 'g', 'c', 'cpu', 'h', 'bench --graph chain', 1, 'u1');");
    sqlite3 *db = migrated(path);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM runs WHERE id = 1 AND uuid = 'u1'"
                             " AND stopped IS NULL"), 1);
    sqlite3_close(db);
    struct arena_store *st = NULL;
    char err[512] = "";
    cr_assert_eq(arena_store_open(path, NULL, NULL, &st, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(arena_store_set_stopped(st, 1, "signal 2; 0 of 1 results stored"), ARENA_OK);
    arena_store_close(st);
    db = td_db_open(path, 1);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM runs WHERE id = 1 AND stopped ="
                             " 'signal 2; 0 of 1 results stored'"), 1);
    sqlite3_close(db);
}

/* Version 16 is version 17 without results.head_bytes and whole_arena:
 * NULL, computed by none. */
Test(store, migrates_version_16_adding_the_head)
{
    char path[160];
    older_db("v16.sqlite", path, sizeof path, TD_BACK_TO_V16
             "INSERT INTO runs (id, started_at, git_rev, compiler, cpu, host, command, seed,"
             " uuid) VALUES (1, 't1', 'g', 'c', 'cpu', 'h', 'bench --graph chain', 1, 'u1');"
             "INSERT INTO graphs VALUES (1, 'chain', 'chain', '', '00', 16, 3, 4, 64, 32, NULL,"
             " NULL, NULL, NULL, NULL, NULL);"
             "INSERT INTO results (id, run_id, graph_id, planner, arena_bytes, valid, seq,"
             " inplace, inplace_bound, kernel_scratch, device_arena) VALUES (1, 1, 1, 'naive',"
             " 64, 1, 1, 'none', 32, 'cmsis-nn:m4', 80);");
    sqlite3 *db = migrated(path);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE id = 1 AND head_bytes IS"
                             " NULL AND whole_arena IS NULL AND device_arena = 80"), 1);
    sqlite3_close(db);
}

/* Version 15 is version 16 without results.device_arena: NULL, computed
 * by none. */
Test(store, migrates_version_15_adding_device_arena)
{
    char path[160];
    older_db("v15.sqlite", path, sizeof path, TD_BACK_TO_V15
             "INSERT INTO runs (id, started_at, git_rev, compiler, cpu, host, command, seed,"
             " uuid) VALUES (1, 't1', 'g', 'c', 'cpu', 'h', 'bench --graph chain', 1, 'u1');"
             "INSERT INTO graphs VALUES (1, 'chain', 'chain', '', '00', 16, 3, 4, 64, 32, NULL,"
             " NULL, NULL, NULL, NULL, NULL);"
             "INSERT INTO results (id, run_id, graph_id, planner, arena_bytes, valid, seq,"
             " inplace, inplace_bound) VALUES (1, 1, 1, 'naive', 64, 1, 1, 'none', 32);");
    sqlite3 *db = migrated(path);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE id = 1 AND device_arena IS"
                             " NULL AND kernel_scratch = 'none'"), 1);
    sqlite3_close(db);
}

/* Version 14 is version 15 without the kernel scratch columns: a result of
 * 14 planned no scratch buffer, and reads so. */
Test(store, migrates_version_14_adding_kernel_scratch)
{
    char path[160];
    older_db("v14.sqlite", path, sizeof path, TD_BACK_TO_V14
             "INSERT INTO runs (id, started_at, git_rev, compiler, cpu, host, command, seed,"
             " uuid) VALUES (1, 't1', 'g', 'c', 'cpu', 'h', 'bench --graph chain', 1, 'u1');"
             "INSERT INTO graphs VALUES (1, 'chain', 'chain', '', '00', 16, 3, 4, 64, 32, NULL,"
             " NULL, NULL, NULL, NULL, NULL);"
             "INSERT INTO results (id, run_id, graph_id, planner, arena_bytes, valid, seq,"
             " inplace, inplace_bound) VALUES (1, 1, 1, 'naive', 64, 1, 1, 'none', 32);");
    sqlite3 *db = migrated(path);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE id = 1 AND kernel_scratch ="
                             " 'none' AND scratch_policy = 'lifetime'"), 1);
    sqlite3_close(db);
}

/* Version 17 built by hand: results.optimal_engine holds optimal's
 * engines, no planner_spec. Each row's spec after the migration, worked out
 * from the rule (results/planner_spec.h): optimal's engine from the column,
 * its other key the default; a plugin and a planner without keys, the name.
 * A result stored after the migration is the same result as a migrated one
 * of its spec (bench --resume finds it), not of another engine's. */
/* Version 18 stored a minimisation's capacity as 0, as if 0 B had been
 * asked for: migrated, it is NULL (none asked for), and a real capacity
 * stays. */
Test(store, migrates_version_18_storing_no_capacity_as_null)
{
    char path[160];
    older_db("v18.sqlite", path, sizeof path,
             "PRAGMA user_version = 18;"
             "INSERT INTO runs (id, started_at, git_rev, compiler, cpu, host, command, seed,"
             " uuid, tag) VALUES (1, 't1', 'g', 'c', 'cpu', 'h', 'bench', 5, 'u1', '');"
             "INSERT INTO graphs (id, spec, family, params, fingerprint, alignment, ops, tensors,"
             " naive_bytes, lower_bound) VALUES (1, 'chain:ops=8', 'chain', 'ops=8',"
             " '00000000000000aa', 16, 8, 9, 900, 100);"
             "INSERT INTO results (id, run_id, graph_id, planner, planner_spec, arena_bytes,"
             " valid, seq, time_limit, node_limit, planner_seed, capacity) VALUES"
             " (1, 1, 1, 'optimal', 'optimal', 100, 1, 1, 10, 0, 5, 0),"
             " (2, 1, 1, 'optimal', 'optimal', 100, 1, 2, 10, 0, 5, 4096),"
             " (3, 1, 1, 'naive', 'naive', 120, 1, 3, NULL, NULL, NULL, NULL);");
    sqlite3 *db = migrated(path);
    char got[128] = "";
    append_rows(db, "SELECT id, coalesce(capacity, 'NULL') FROM results ORDER BY id", got,
                sizeof got);
    cr_expect_str_eq(got, "1|NULL\n2|4096\n3|NULL\n");
    sqlite3_close(db);
}

Test(store, migrates_version_17_giving_each_result_its_spec)
{
    char path[160];
    older_db("v17.sqlite", path, sizeof path, V17_ROWS);
    sqlite3 *db = migrated(path);
    char got[512] = "";
    append_rows(db, "SELECT id, planner, planner_spec, origin FROM results ORDER BY id", got,
                sizeof got);
    cr_expect_str_eq(got, "1|naive|naive|built-in\n"
                          "2|optimal|" V17_OPTIMAL("sat") "|built-in\n"
                          "3|optimal|" V17_OPTIMAL("portfolio") "|built-in\n"
                          "4|mine|mine|plugin\n");
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM pragma_table_info('results')"
                             " WHERE name = 'optimal_engine'"), 0);
    sqlite3_close(db);
    struct arena_store *st = NULL;
    char err[512] = "";
    cr_assert_eq(arena_store_open(path, NULL, NULL, &st, err, sizeof err), ARENA_OK, "%s", err);
    struct arena_source src = five_source(16);
    src.spec = "chain:ops=8";
    src.fingerprint = 0xaa;
    int found = 0, valid = 0, refused = 0;
    src.planned_fingerprint = 0xaa;
    struct arena_result sat = {.planner = "optimal", .planner_spec = V17_OPTIMAL("sat"),
                               .src = &src};
    struct arena_result search = {.planner = "optimal", .planner_spec = V17_OPTIMAL("search"),
                                  .src = &src};
    cr_assert_eq(arena_store_find_result(st, &sat, NULL, &found, &valid, &refused), ARENA_OK,
                 "%s", arena_store_error(st));
    cr_expect(found && valid, "the migrated sat result is not found by its spec");
    cr_assert_eq(arena_store_find_result(st, &search, NULL, &found, &valid, &refused), ARENA_OK);
    cr_expect(!found, "another engine's spec finds the sat result");
    arena_store_close(st);
}

/* Version 13 is version 14 without the results' planner origin and timing:
 * a result of 13 keeps its row and reads as what it was, a built-in planner
 * timed in process (no path, hash, command nor own figure); a plugin's and
 * a program's results are stored with theirs after it. */
Test(store, migrates_version_13_adding_the_planner_origin)
{
    char path[160];
    older_db("v13.sqlite", path, sizeof path, TD_BACK_TO_V13
             "INSERT INTO runs (id, started_at, git_rev, compiler, cpu, host, command, seed,"
             " uuid) VALUES (1, 't1', 'g', 'c', 'cpu', 'h', 'bench --graph chain', 1, 'u1');"
             "INSERT INTO graphs VALUES (1, 'chain', 'chain', '', '00', 16, 3, 4, 64, 32, NULL,"
             " NULL, NULL, NULL, NULL, NULL);"
             "INSERT INTO results (id, run_id, graph_id, planner, arena_bytes, valid, seq,"
             " inplace, inplace_bound) VALUES (1, 1, 1, 'naive', 64, 1, 1, 'none', 32);");
    sqlite3 *db = migrated(path);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE id = 1 AND origin ="
                             " 'built-in' AND timing = 'in-process' AND plugin_path IS NULL"
                             " AND plugin_sha256 IS NULL AND planner_command IS NULL"
                             " AND self_ns IS NULL"), 1);
    sqlite3_close(db);
    struct arena_store *st = NULL;
    char err[512] = "";
    cr_assert_eq(arena_store_open(path, NULL, NULL, &st, err, sizeof err), ARENA_OK, "%s", err);
    struct arena_problem p = five_source(16).problem;
    struct arena_plan plan = {.n = 5, .offsets = five_offsets, .arena = 96};
    struct arena_result plug = {.planner = "mine", .valid = 1, .iterations = 1,
                                     .origin = "plugin", .plugin_path = "/x/mine.so",
                                     .plugin_sha256 = "ab12", .timing = "isolated"};
    struct arena_result prog = {.planner = "theirs", .valid = 1, .iterations = 1,
                                     .origin = "cmd", .planner_command = "python3 p.py",
                                     .timing = "process", .has_self_ns = 1, .self_ns = 777};
    int64_t id = 0;
    cr_assert_eq(arena_store_add_result(st, 1, 1, &plug, &p, &plan, &id), ARENA_OK);
    cr_assert_eq(arena_store_add_result(st, 1, 1, &prog, &p, &plan, &id), ARENA_OK);
    arena_store_close(st);
    db = td_db_open(path, 1);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE planner = 'mine' AND origin"
                             " = 'plugin' AND plugin_path = '/x/mine.so' AND plugin_sha256 ="
                             " 'ab12' AND planner_command IS NULL AND timing = 'isolated'"
                             " AND self_ns IS NULL"), 1);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE planner = 'theirs' AND"
                             " origin = 'cmd' AND planner_command = 'python3 p.py' AND"
                             " plugin_path IS NULL AND timing = 'process' AND self_ns = 777"),
                 1);
    sqlite3_close(db);
}

/* Version 10 is version 11 without runs.tag and the results' configuration
 * and problem columns; it updated a shared graph row's order columns when a
 * later --order best run proved its order best. Migrated, every result keeps
 * its row and gets the configuration it had: the order from its run's
 * command line (so the stored-order result on the updated row stays
 * stored, with no order facts), the budget it gave, the patch from the
 * spec, the fixed-order bound from the stored-order row of its spec, the
 * problem named by the graph and the rule, and the order facts with the
 * best-order results only. */
Test(store, migrates_version_10_giving_each_result_its_configuration)
{
    char path[160];
    older_db("v10.sqlite", path, sizeof path, TD_BACK_TO_V10
        "INSERT INTO runs (id, started_at, git_rev, compiler, cpu, host, command, seed, uuid)"
        " VALUES (1, 't1', 'g', 'c', 'cpu', 'h', 'bench --graph chain', 1, 'u1'),"
        " (2, 't2', 'g', 'c', 'cpu', 'h', 'bench --graph chain --order best --order-states 500',"
        "  1, 'u2'),"
        " (3, 't3', 'g', 'c', 'cpu', 'h', 'bench --graph mobilenetv2 --inplace depthwise', 1,"
        "  'u3'),"
        " (4, 't4', 'g', 'c', 'cpu', 'h', 'bench --graph mobilenetv2 --patch 4x4:13', 1, 'u4');"
        /* 1: chain, stored order, updated by run 2 (its order best: the same
         * problem); 2: chain in a best order of its own; 3, 4: mobilenetv2
         * and its patched graph */
        "INSERT INTO graphs VALUES"
        " (1, 'chain:ops=8', 'chain', 'ops=8', 'aa', 16, 8, 9, 900, 100, NULL, 'certified', 100,"
        "  100, 0, 5),"
        " (2, 'chain:ops=8', 'chain', 'ops=8', 'bb', 16, 8, 9, 900, 80, '1,0', 'optimal', 100, 80,"
        "  12, 7),"
        " (3, 'mobilenetv2', 'mobilenetv2', '', 'cc', 16, 65, 66, 7000, 500, NULL, NULL, NULL,"
        "  NULL, NULL, NULL),"
        " (4, 'mobilenetv2+patch=4x4:13', 'mobilenetv2', '', 'dd', 16, 245, 246, 9000, 200, NULL,"
        "  NULL, NULL, NULL, NULL, NULL);"
        "INSERT INTO results (id, run_id, graph_id, planner, arena_bytes, valid, seq, inplace,"
        " inplace_bound) VALUES (1, 1, 1, 'a', 100, 1, 1, 'none', 100),"
        " (2, 2, 1, 'a', 100, 1, 1, 'none', 100), (3, 2, 2, 'a', 80, 1, 2, 'none', 80),"
        " (4, 3, 3, 'a', 450, 1, 1, 'depthwise', 450), (5, 4, 4, 'a', 200, 1, 1, 'none', 200);");
    sqlite3 *db = migrated(path);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results"), 5, "every result kept");
    char got[2048] = "";
    append_rows(db, "SELECT id, order_mode, ifnull(order_budget, '-'), patch, problem_fingerprint,"
                " ifnull(fixed_lower_bound, '-'), ifnull(order_status, '-'),"
                " ifnull(order_bound, '-'), ifnull(stored_order_peak, '-')"
                " FROM results ORDER BY id", got, sizeof got);
    cr_expect_str_eq(got, "1|stored|-||aa|100|-|-|-\n"
                          "2|best|500||aa|100|certified|100|100\n"
                          "3|best|500||bb|100|optimal|80|100\n"
                          "4|stored|-||cc/depthwise|500|-|-|-\n"
                          "5|stored|-|4x4:13|dd|500|-|-|-\n");
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM runs WHERE tag = ''"), 4);
    sqlite3_close(db);
}

Test(store, zero_byte_file_is_empty_and_gets_created)
{
    char path[160];
    td_path(path, sizeof path, "a.sqlite");
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    fclose(f);
    struct arena_store *s = NULL;
    char err[300] = "";
    cr_assert_eq(arena_store_open(path, NULL, NULL, &s, err, sizeof err), ARENA_OK, "%s", err);
    arena_store_close(s);
    sqlite3 *db = td_db_open(path, 0);
    expect_matches_schema_sql(db);
    sqlite3_close(db);
}

/* Version 1 as it shipped: schema.sql without results.error and without
 * placements, application_id set, user_version 1. */
static const char v1_schema[] =
    "PRAGMA application_id = 1095913026; PRAGMA user_version = 1;"
    "CREATE TABLE runs (id INTEGER PRIMARY KEY, started_at TEXT NOT NULL, git_rev TEXT NOT NULL,"
    " compiler TEXT NOT NULL, cpu TEXT NOT NULL, host TEXT NOT NULL, command TEXT NOT NULL,"
    " seed INTEGER NOT NULL);"
    "CREATE TABLE graphs (id INTEGER PRIMARY KEY, spec TEXT NOT NULL, family TEXT NOT NULL,"
    " params TEXT NOT NULL, fingerprint TEXT NOT NULL, alignment INTEGER NOT NULL,"
    " ops INTEGER NOT NULL, tensors INTEGER NOT NULL, naive_bytes INTEGER NOT NULL,"
    " lower_bound INTEGER NOT NULL, UNIQUE (spec, fingerprint, alignment));"
    "CREATE TABLE results (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),"
    " graph_id INTEGER NOT NULL REFERENCES graphs(id), planner TEXT NOT NULL,"
    " arena_bytes INTEGER, ratio_lb REAL, saving REAL, frag_peak REAL, frag_mean REAL,"
    " plan_ns_median REAL, plan_ns_mean REAL, plan_ns_stddev REAL, iterations INTEGER,"
    " scratch_bytes INTEGER, valid INTEGER NOT NULL);"
    "CREATE INDEX results_run ON results(run_id);"
    "CREATE INDEX results_graph ON results(graph_id);"
    "INSERT INTO runs VALUES (1, '2026-01-01T00:00:00Z', 'old', 'gcc', 'cpu', 'h', 'bench', 7);"
    "INSERT INTO graphs VALUES (1, 'test:five', 'test', 'five', '0123456789abcdef', 16, 6, 5,"
    " 128, 96);"
    "INSERT INTO results VALUES (1, 1, 1, 'naive', 128, 1.333, 0.0, 0.25, 0.3, 10, 11, 1, 100,"
    " 0, 1);";

Test(store, migrates_version_1_keeping_rows)
{
    char path[160];
    td_path(path, sizeof path, "a.sqlite");
    sqlite3 *db = td_db_open(path, 0);
    raw_exec(db, v1_schema);
    sqlite3_close(db);

    struct arena_store *s = NULL;
    char err[300] = "";
    cr_assert_eq(arena_store_open(path, NULL, NULL, &s, err, sizeof err), ARENA_OK, "%s", err);
    /* The old graph row is found again, not duplicated. */
    struct arena_source src = five_source(16);
    int64_t gid = 0;
    cr_assert_eq(arena_store_add_graph(s, &src, &five_bounds, &gid), ARENA_OK);
    cr_expect_eq(gid, 1);
    int64_t rid = add_five_result(s, add_run(s, 1), gid, 1);
    arena_store_close(s);

    db = td_db_open(path, 0);
    cr_expect_eq(td_db_int(db, "PRAGMA user_version"), ARENA_STORE_VERSION);
    expect_matches_schema_sql(db);
    /* The old row: spread 1/11 = 9 % over 100 calls is not noisy; arena 128
     * above the lower bound 96 is feasible with bound 96. */
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE id = 1 AND planner = 'naive'"
                             " AND arena_bytes = 128 AND error IS NULL AND noisy = 0"
                             " AND timed_once = 0 AND status = 'feasible' AND bound = 96"
                             " AND nodes = 0"),
                 1);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM runs"), 2);
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM placements WHERE result_id = %lld",
             (long long)rid);
    cr_expect_eq(td_db_int(db, sql), 5);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM placements WHERE result_id = 1"), 0);
    sqlite3_close(db);
}

/* Version 2 as it shipped (version 1 plus results.error and placements),
 * with four results worked out by hand:
 *   1: stddev/mean = 2/10 = 20 % over 50 calls  -> noisy; arena 96 = LB -> optimal
 *   2: one timed call (iterations 1)              -> noisy; arena 128 -> feasible
 *   3: stddev/mean = 1/11 = 9.1 % over 100 calls  -> not noisy; feasible
 *   4: invalid (arena NULL)                       -> not noisy; no status/bound */
static const char v2_rows[] =
    "ALTER TABLE results ADD COLUMN error TEXT;"
    "CREATE TABLE placements (result_id INTEGER NOT NULL REFERENCES results(id),"
    " tensor INTEGER NOT NULL, size INTEGER NOT NULL, first INTEGER NOT NULL,"
    " last INTEGER NOT NULL, offset INTEGER NOT NULL, PRIMARY KEY (result_id, tensor))"
    " WITHOUT ROWID;"
    "PRAGMA user_version = 2;"
    "INSERT INTO results VALUES (2, 1, 1, 'greedy-by-size', 96, 1.0, 0.25, 0.0, 0.1, 10, 10,"
    " 2, 50, 0, 1, NULL);"
    "INSERT INTO results VALUES (3, 1, 1, 'ping-pong', 128, 1.333, 0.0, 0.25, 0.3, 9e6, 9e6,"
    " NULL, 1, 0, 1, NULL);"
    "INSERT INTO results VALUES (4, 1, 1, 'broken', NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
    " NULL, NULL, 0, 0, 'tensors 0 and 1 collide');";

/* From 2 (and from 3: version 2 plus noisy) to 4: the flag column is worked
 * out for the old rows by bench's own rule, status and bound by what
 * arena_plan_settle gives a heuristic; every row stays. */
Test(store, migrates_versions_2_and_3_flagging_noisy_rows)
{
    for (int from = 2; from <= 3; from++) {
        char path[160];
        td_path(path, sizeof path, from == 2 ? "v2.sqlite" : "v3.sqlite");
        sqlite3 *db = td_db_open(path, 0);
        raw_exec(db, v1_schema);
        raw_exec(db, v2_rows);
        if (from == 3)
            raw_exec(db, "ALTER TABLE results ADD COLUMN noisy INTEGER NOT NULL DEFAULT 0;"
                         "UPDATE results SET noisy = 1 WHERE id IN (2, 3);"
                         "PRAGMA user_version = 3;");
        sqlite3_close(db);

        struct arena_store *s = NULL;
        char err[300] = "";
        cr_assert_eq(arena_store_open(path, NULL, NULL, &s, err, sizeof err), ARENA_OK, "%s",
                     err);
        arena_store_close(s);
        db = td_db_open(path, 1);
        cr_expect_eq(td_db_int(db, "PRAGMA user_version"), ARENA_STORE_VERSION, "from %d", from);
        expect_matches_schema_sql(db);
        cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results"), 4);
        cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE noisy = 1"), 2);
        cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE noisy = 1"
                                 " AND id IN (2, 3)"), 2);
        cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE id = 2"
                                 " AND status = 'optimal' AND bound = 96 AND nodes = 0"), 1);
        cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE id IN (1, 3)"
                                 " AND status = 'feasible' AND bound = 96"), 2);
        cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE id = 4 AND status IS NULL"
                                 " AND bound IS NULL AND nodes IS NULL AND noisy = 0"
                                 " AND error = 'tensors 0 and 1 collide'"), 1);
        cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE timed_once = 0"), 4);
        sqlite3_close(db);
    }
}

Test(store, rows_and_placements_read_back)
{
    char path[160];
    td_path(path, sizeof path, "a.sqlite");
    struct arena_store *s = NULL;
    char err[300] = "";
    cr_assert_eq(arena_store_open(path, NULL, NULL, &s, err, sizeof err), ARENA_OK, "%s", err);
    int64_t run = add_run(s, 42);
    struct arena_source src = five_source(16);
    int64_t g1 = 0, g2 = 0, g3 = 0;
    cr_assert_eq(arena_store_add_graph(s, &src, &five_bounds, &g1), ARENA_OK);
    cr_assert_eq(arena_store_add_graph(s, &src, &five_bounds, &g2), ARENA_OK);
    cr_expect_eq(g1, g2, "same spec, fingerprint and alignment: one row");
    src.problem.alignment = 8;
    cr_assert_eq(arena_store_add_graph(s, &src, &five_bounds, &g3), ARENA_OK);
    cr_expect_neq(g1, g3, "another alignment is another graph");
    int64_t good = add_five_result(s, run, g1, 1);
    int64_t bad = add_five_result(s, run, g1, 0);
    int64_t named = add_five_result_named(s, run, g1, 1, five_names);
    arena_store_close(s);

    sqlite3 *db = td_db_open(path, 0);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM graphs"), 2);
    cr_expect_eq(td_db_int(db, "SELECT seed FROM runs"), 42);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM graphs WHERE fingerprint ="
                             " '0123456789abcdef' AND naive_bytes = 128 AND lower_bound = 96"
                             " AND tensors = 5 AND ops = 6"),
                 2);
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM results WHERE id = %lld AND arena_bytes = 96 AND valid = 1"
             " AND ratio_lb = 1.0 AND plan_ns_median = 120.5 AND plan_ns_stddev IS NULL"
             " AND iterations = 5000 AND scratch_bytes = 640 AND error IS NULL",
             (long long)good);
    cr_expect_eq(td_db_int(db, sql), 1);
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM results WHERE id = %lld AND arena_bytes IS NULL"
             " AND valid = 0 AND error = 'tensors 0 and 1 collide'",
             (long long)bad);
    cr_expect_eq(td_db_int(db, sql), 1);
    /* Placements hold the problem and the plan exactly. */
    for (size_t i = 0; i < 5; i++) {
        snprintf(sql, sizeof sql,
                 "SELECT count(*) FROM placements WHERE result_id = %lld AND tensor = %zu"
                 " AND size = %llu AND first = %u AND last = %u AND offset = %llu",
                 (long long)good, i, (unsigned long long)five[i].size, five[i].first,
                 five[i].last, (unsigned long long)five_offsets[i]);
        cr_expect_eq(td_db_int(db, sql), 1, "tensor %zu", i);
    }
    cr_expect_eq(td_db_int(db, "SELECT max(offset + size) FROM placements"), 96);
    /* Names travel with the placements, byte for byte; none given, none stored. */
    snprintf(sql, sizeof sql, "SELECT count(*) FROM placements WHERE result_id = %lld"
             " AND name IS NULL", (long long)good);
    cr_expect_eq(td_db_int(db, sql), 5);
    sqlite3_stmt *st;
    snprintf(sql, sizeof sql, "SELECT tensor, name FROM placements WHERE result_id = %lld"
             " ORDER BY tensor", (long long)named);
    cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    size_t rows = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        cr_expect_eq(sqlite3_column_int64(st, 0), (sqlite3_int64)rows);
        cr_expect_str_eq((const char *)sqlite3_column_text(st, 1), five_names[rows]);
        rows++;
    }
    sqlite3_finalize(st);
    cr_expect_eq(rows, 5);
    sqlite3_close(db);
}

/* Version 5 as it shipped: version 3 (v1_schema, v2_rows, noisy), then
 * version 4's results columns and the replays tables, with placements of
 * result 2 (the five-tensor plan). Opening it adds placements.name (NULL
 * for the old rows) and keeps every row; a new result stores its names. */
static const char v5_rest[] =
    "ALTER TABLE results ADD COLUMN noisy INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE results ADD COLUMN timed_once INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE results ADD COLUMN status TEXT;"
    "ALTER TABLE results ADD COLUMN bound INTEGER;"
    "ALTER TABLE results ADD COLUMN nodes INTEGER;"
    "CREATE TABLE replays (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),"
    " graph_id INTEGER NOT NULL REFERENCES graphs(id), allocator TEXT NOT NULL,"
    " version TEXT NOT NULL, footprint_source TEXT NOT NULL, frames INTEGER NOT NULL,"
    " calls_per_frame INTEGER NOT NULL, ns_per_call REAL, live_peak INTEGER NOT NULL,"
    " baseline_bytes INTEGER NOT NULL, footprint_first INTEGER NOT NULL,"
    " footprint_last INTEGER NOT NULL, footprint_peak INTEGER NOT NULL,"
    " extent_peak INTEGER NOT NULL, resident_peak INTEGER NOT NULL, frag_first REAL NOT NULL,"
    " frag_last REAL NOT NULL);"
    "CREATE TABLE replay_frames (replay_id INTEGER NOT NULL REFERENCES replays(id),"
    " frame INTEGER NOT NULL, calls INTEGER NOT NULL, footprint_peak INTEGER NOT NULL,"
    " extent_peak INTEGER NOT NULL, resident_peak INTEGER NOT NULL,"
    " PRIMARY KEY (replay_id, frame)) WITHOUT ROWID;"
    "CREATE INDEX replays_graph ON replays(graph_id);"
    "INSERT INTO placements VALUES (2, 0, 16, 0, 1, 0), (2, 1, 8, 1, 2, 64),"
    " (2, 2, 64, 2, 3, 0), (2, 3, 32, 3, 4, 64), (2, 4, 8, 4, 5, 0);"
    "INSERT INTO replays VALUES (1, 1, 1, 'glibc', '2.36', 'mallinfo2', 1, 10, 50.0, 96, 0,"
    " 200, 200, 200, 150, 4096, 0.52, 0.52);"
    "INSERT INTO replay_frames VALUES (1, 1, 10, 200, 150, 4096);"
    "PRAGMA user_version = 5;";

Test(store, migrates_version_5_adding_placement_names)
{
    char path[160];
    td_path(path, sizeof path, "v5.sqlite");
    sqlite3 *db = td_db_open(path, 0);
    raw_exec(db, v1_schema);
    raw_exec(db, v2_rows);
    raw_exec(db, v5_rest);
    cr_assert_eq(td_db_int(db, "PRAGMA user_version"), 5);
    sqlite3_close(db);

    struct arena_store *s = NULL;
    char err[300] = "";
    cr_assert_eq(arena_store_open(path, NULL, NULL, &s, err, sizeof err), ARENA_OK, "%s", err);
    int64_t rid = add_five_result_named(s, add_run(s, 5), 1, 1, five_names);
    arena_store_close(s);

    db = td_db_open(path, 0);
    cr_expect_eq(td_db_int(db, "PRAGMA user_version"), ARENA_STORE_VERSION);
    expect_matches_schema_sql(db);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results"), 5);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM replay_frames WHERE replay_id = 1"), 1);
    /* The old placements stay, with no name. */
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM placements WHERE result_id = 2"
                             " AND name IS NULL"), 5);
    cr_expect_eq(td_db_int(db, "SELECT sum(offset) FROM placements WHERE result_id = 2"), 128);
    /* Version 9: old results were planned without aliasing, their in-place
     * bound is their graph's lower bound, and no placement shares. */
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results r JOIN graphs g ON g.id = r.graph_id"
                             " WHERE r.inplace = 'none' AND r.inplace_bound = g.lower_bound"),
                 td_db_int(db, "SELECT count(*) FROM results") - 1);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM placements WHERE shares IS NOT NULL"), 0);
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM placements WHERE result_id = %lld"
             " AND tensor = 1 AND name = 'conv/1,a'", (long long)rid);
    cr_expect_eq(td_db_int(db, sql), 1);
    sqlite3_close(db);
}

/* Two processes append to one new file at the same time (both may try to
 * create it): every row of both arrives and the file stays intact. Many
 * rounds on fresh files, since the dangerous moment (one process starting
 * to read while the other's first commits sit in a -wal beside a file of
 * zero pages) is short. */
static void two_writers_round(const char *path);

Test(store, two_processes_write_one_file)
{
    for (int round = 0; round < 25; round++) {
        char path[160], name[32];
        snprintf(name, sizeof name, "b%d.sqlite", round);
        td_path(path, sizeof path, name);
        two_writers_round(path);
    }
}

static void two_writers_round(const char *path)
{
    enum { PER_CHILD = 40 };
    pid_t kids[2];
    for (int k = 0; k < 2; k++) {
        kids[k] = fork();
        cr_assert(kids[k] >= 0);
        if (kids[k] == 0) {
            struct arena_store *s = NULL;
            char err[300];
            if (arena_store_open(path, NULL, NULL, &s, err, sizeof err) != ARENA_OK) {
                fprintf(stderr, "child %d: %s\n", k, err);
                _exit(3);
            }
            struct arena_run_info run = {"2026-12-02T16:00:00Z", "abc", "gcc", "cpu", "host",
                                         "bench", (uint64_t)k, NULL, NAN, NULL, NULL};
            int64_t rid = 0, gid = 0, id = 0;
            struct arena_source src = five_source(16);
            struct arena_problem p = src.problem;
            struct arena_plan plan = {.n = 5, .offsets = five_offsets, .arena = 96};
            struct arena_result r = {.planner = k ? "b" : "a", .valid = 1,
                                          .plan_ns_median = NAN, .plan_ns_mean = NAN,
                                          .plan_ns_stddev = NAN};
            if (arena_store_add_run(s, &run, &rid) != ARENA_OK ||
                arena_store_add_graph(s, &src, &five_bounds, &gid) != ARENA_OK)
                _exit(4);
            for (int i = 0; i < PER_CHILD; i++)
                if (arena_store_add_result(s, rid, gid, &r, &p, &plan, &id) != ARENA_OK) {
                    fprintf(stderr, "child %d: %s\n", k, arena_store_error(s));
                    _exit(5);
                }
            arena_store_close(s);
            _exit(0);
        }
    }
    for (int k = 0; k < 2; k++) {
        int status = 0;
        cr_assert_eq(waitpid(kids[k], &status, 0), kids[k]);
        cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child %d status %d", k, status);
    }
    sqlite3 *db = td_db_open(path, 0);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM runs"), 2);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM graphs"), 1);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE planner = 'a'"), PER_CHILD);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE planner = 'b'"), PER_CHILD);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM placements"), 2 * PER_CHILD * 5);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM pragma_integrity_check WHERE"
                             " integrity_check = 'ok'"),
                 1);
    sqlite3_close(db);
}

/* Opening must refuse and leave every byte as it was, and add no files. */
static void expect_refused(const char *path, const char *why)
{
    size_t before_len = 0, after_len = 0;
    char *before = td_slurp(path, &before_len);
    cr_assert(before);
    struct arena_store *s = (struct arena_store *)1;
    char err[300] = "";
    cr_expect_eq(arena_store_open(path, NULL, NULL, &s, err, sizeof err), ARENA_EDB);
    cr_expect_null(s);
    cr_expect(strstr(err, why) != NULL, "'%s' does not say '%s'", err, why);
    cr_expect(strstr(err, path) != NULL, "'%s' does not name the file", err);
    cr_expect_null(strchr(err, '\n'), "one line: '%s'", err);
    char *after = td_slurp(path, &after_len);
    cr_assert(after);
    cr_expect_eq(before_len, after_len);
    cr_expect(memcmp(before, after, before_len) == 0, "file changed");
    free(before);
    free(after);
    char wal[200];
    struct stat st;
    snprintf(wal, sizeof wal, "%s-wal", path);
    cr_expect_neq(stat(wal, &st), 0, "a -wal file appeared");
}

Test(store, refuses_another_applications_database)
{
    char path[160];
    td_path(path, sizeof path, "c.sqlite");
    sqlite3 *db = td_db_open(path, 0);
    raw_exec(db, "CREATE TABLE runs (x); CREATE TABLE contacts (name TEXT);"
                 "INSERT INTO contacts VALUES ('ada');");
    sqlite3_close(db);
    expect_refused(path, "not an arenabench database");

    /* Tables of our names but another application_id. */
    db = td_db_open(path, 0);
    raw_exec(db, "PRAGMA application_id = 7; PRAGMA user_version = 2;");
    sqlite3_close(db);
    expect_refused(path, "not an arenabench database");
}

Test(store, refuses_a_newer_database)
{
    char path[160];
    td_path(path, sizeof path, "c.sqlite");
    sqlite3 *db = td_db_open(path, 0);
    raw_exec(db, "PRAGMA application_id = 1095913026; PRAGMA user_version = 99;"
                 "CREATE TABLE runs (id INTEGER PRIMARY KEY, started_at TEXT, extra BLOB);");
    sqlite3_close(db);
    expect_refused(path, "newer");
}

Test(store, refuses_a_file_that_is_not_sqlite)
{
    char path[160];
    td_path(path, sizeof path, "c.sqlite");
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    for (int i = 0; i < 300; i++) fputs("graph,planner,tensors\n", f);
    fclose(f);
    expect_refused(path, "not a readable SQLite database");
}

/* A real arenabench database with one table page overwritten: the header
 * still says SQLite, the quick check finds the damage. */
Test(store, refuses_a_corrupt_database)
{
    char path[160];
    td_path(path, sizeof path, "c.sqlite");
    struct arena_store *s = NULL;
    char err[300] = "";
    cr_assert_eq(arena_store_open(path, NULL, NULL, &s, err, sizeof err), ARENA_OK, "%s", err);
    int64_t run = add_run(s, 1);
    struct arena_source src = five_source(16);
    int64_t gid = 0;
    cr_assert_eq(arena_store_add_graph(s, &src, &five_bounds, &gid), ARENA_OK);
    for (int i = 0; i < 200; i++) add_five_result(s, run, gid, 1);
    arena_store_close(s);
    /* Fold the WAL back and leave rollback mode so the file stands alone. */
    sqlite3 *db = td_db_open(path, 0);
    raw_exec(db, "PRAGMA journal_mode = DELETE");
    int64_t pages = td_db_int(db, "PRAGMA page_count");
    int64_t page = td_db_int(db, "PRAGMA page_size");
    sqlite3_close(db);
    cr_assert(pages > 4);
    FILE *f = fopen(path, "r+b");
    cr_assert(f);
    cr_assert_eq(fseek(f, (long)(page * (pages / 2)), SEEK_SET), 0);
    for (int64_t i = 0; i < page; i++) fputc(0xa5, f);
    fclose(f);
    expect_refused(path, "corrupt");
}

/* A directory named as the database: refused with a line that says so, and
 * nothing is created inside it. */
Test(store, refuses_a_directory)
{
    char path[160], inside[200];
    td_path(path, sizeof path, "a.sqlite");
    cr_assert_eq(mkdir(path, 0700), 0);
    struct arena_store *s = (struct arena_store *)1;
    char err[300] = "";
    cr_expect_eq(arena_store_open(path, NULL, NULL, &s, err, sizeof err), ARENA_EDB);
    cr_expect_null(s);
    cr_expect(strstr(err, path) == err && strstr(err, "is a directory") != NULL, "%s", err);
    snprintf(inside, sizeof inside, "%s-wal", path);
    struct stat st;
    cr_expect_neq(stat(inside, &st), 0, "a -wal file appeared");
    cr_expect_eq(rmdir(path), 0, "the directory stays empty");
}


/* Version 14 stored a plugin's word as status and bound. Migrated, a
 * plugin's row whose bound is above its problem's max-live bound keeps
 * that word as its claim and gets bench's proofs instead (a plan at the
 * max-live bound optimal, else feasible; infeasible claimed with a plan
 * above the capacity: limit); a plugin's row at the max-live bound and a
 * built-in engine's proof are kept; a program's row gets its command's
 * hash. Fails on 3cf04c5 (no such columns: round 4, finding 02). */
Test(store, migrates_version_14_keeping_a_plugins_word_as_its_claim)
{
    char path[160];
    older_db("v14.sqlite", path, sizeof path, TD_BACK_TO_V14
             "INSERT INTO runs (id, started_at, git_rev, compiler, cpu, host, command, seed,"
             " uuid) VALUES (1, 't1', 'g', 'c', 'cpu', 'h', 'bench --graph chain', 1, 'u1');"
             "INSERT INTO graphs VALUES (1, 'chain', 'chain', '', '00', 16, 3, 4, 64, 32, NULL,"
             " NULL, NULL, NULL, NULL, NULL);"
             "INSERT INTO results (id, run_id, graph_id, planner, arena_bytes, valid, seq,"
             " inplace, inplace_bound, status, bound, origin, plugin_sha256, planner_command,"
             " capacity) VALUES"
             " (1, 1, 1, 'liar', 64, 1, 1, 'none', 32, 'optimal', 64, 'plugin', 'ab', NULL, NULL),"
             " (2, 1, 1, 'fair', 32, 1, 2, 'none', 32, 'optimal', 32, 'plugin', 'ab', NULL, NULL),"
             " (3, 1, 1, 'optimal', 48, 1, 3, 'none', 32, 'optimal', 48, 'built-in', NULL, NULL,"
             "  NULL),"
             " (4, 1, 1, 'nofit', 64, 1, 4, 'none', 32, 'infeasible', 41, 'plugin', 'ab', NULL,"
             "  40),"
             " (5, 1, 1, 'prog', 64, 1, 5, 'none', 32, 'feasible', 32, 'cmd', NULL, 'sh a.sh',"
             "  NULL);");
    sqlite3 *db = migrated(path);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE id = 1 AND status ="
                             " 'feasible' AND bound = 32 AND claimed_status = 'optimal' AND"
                             " claimed_bound = 64"), 1, "the liar's word is its claim");
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE id = 2 AND status ="
                             " 'optimal' AND bound = 32 AND claimed_status IS NULL"), 1,
                 "an optimum at max-live is bench's proof");
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE id = 3 AND status ="
                             " 'optimal' AND bound = 48 AND claimed_status IS NULL"), 1,
                 "a built-in engine's proof stands");
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE id = 4 AND status = 'limit'"
                             " AND bound = 32 AND claimed_status = 'infeasible' AND"
                             " claimed_bound = 41"), 1, "undecided: its plan is above 40 B");
    char hex[65], sql[300];
    td_sha256_text("sh a.sh", hex);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM results WHERE id = 5 AND command_sha256 ="
             " '%s' AND claimed_status IS NULL", hex);
    cr_expect_eq(td_db_int(db, sql), 1);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE command_sha256 IS NOT NULL"),
                 1, "only a program has a command's hash");
    sqlite3_close(db);
}
