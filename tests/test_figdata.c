/* test_figdata.c — results/figdata.c, what bench plot reads, on a database
 * worked by hand.
 *
 * Runs: 1 started 2026-12-02T10:00:00.000Z, 2 started 09:00 (older, though
 * its id is larger), 3 started 11:00 with no results.
 *   run 1 (newest with results): graph 1: A 105, B invalid; graph 2: A 220.
 *   run 2 (older): graph 1: A 150, B 130 (status limit); graph 3: A 60.
 * So "newest run" is run 1 (started_at, not id, decides; run 3 has no
 * results); --run all takes per graph x planner the newest run's result:
 * graph 1 A 105 (run 1), B invalid (run 1 beats run 2's valid 130), graph 2
 * A 220, graph 3 A 60 (only run 2 has it). Graph 3 was measured first (in
 * result ids), so graphs come 3, 1, 2 under --run all. */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "planners/status.h"
#include "results/figdata.h"
#include "results/store.h"
#include "tests/tmpdb.h"

TestSuite(figdata, .init = td_make_dir, .fini = td_remove_dir);

static const char rows[] =
    "INSERT INTO runs (id, started_at, git_rev, compiler, cpu, host, command, seed, uuid) VALUES"
    " (1, '2026-12-02T10:00:00.000Z', 'g', 'c', 'cpu', 'h', 'b', 1, 'u1'),"
    " (2, '2026-12-02T09:00:00.000Z', 'g', 'c', 'cpu', 'h', 'a', 1, 'u2'),"
    " (3, '2026-12-02T11:00:00.000Z', 'g', 'c', 'cpu', 'h', 'c', 1, 'u3');"
    "INSERT INTO graphs (id, spec, family, params, fingerprint, alignment, ops, tensors,"
    " naive_bytes, lower_bound) VALUES"
    " (1, 'test:n=3,seed=1', 'test', 'n=3,seed=1', '01', 16, 0, 3, 400, 100),"
    " (2, 'test:n=3,seed=2', 'test', 'n=3,seed=2', '02', 16, 0, 3, 800, 200),"
    " (3, 'test:n=9,seed=1', 'test', 'n=9,seed=1', '03', 16, 0, 9, 90, 50);"
    "INSERT INTO results (id, run_id, graph_id, planner, arena_bytes, valid, bound, status, seq)"
    " VALUES (1, 2, 3, 'A', 60, 1, 50, 'feasible', 1),"
    " (2, 2, 1, 'A', 150, 1, 100, 'feasible', 2),"
    " (3, 2, 1, 'B', 130, 1, 100, 'limit', 3),"
    " (4, 1, 1, 'A', 105, 1, 100, 'feasible', 1),"
    " (5, 1, 1, 'B', NULL, 0, NULL, NULL, 2),"
    " (6, 1, 2, 'A', 220, 1, 200, 'feasible', 3);"
    "INSERT INTO placements (result_id, tensor, size, first, last, offset) VALUES"
    " (4, 1, 40, 1, 2, 0), (4, 0, 60, 0, 1, 40);";

static void make(char *path, size_t len)
{
    td_path(path, len, "f.sqlite");
    struct arena_store *s = NULL;
    char err[300] = "";
    cr_assert_eq(arena_store_open(path, NULL, NULL, &s, err, sizeof err), ARENA_OK, "%s", err);
    arena_store_close(s);
    sqlite3 *db = td_db_open(path, 0);
    char *msg = NULL;
    cr_assert_eq(sqlite3_exec(db, rows, NULL, NULL, &msg), SQLITE_OK, "%s", msg);
    cr_assert_eq(sqlite3_exec(db, "PRAGMA journal_mode=DELETE", NULL, NULL, &msg), SQLITE_OK);
    sqlite3_close(db);
}

static const struct arena_fig_result *find(const struct arena_fig_data *d, const char *spec,
                                           const char *planner)
{
    for (size_t i = 0; i < d->n_results; i++)
        if (strcmp(d->graphs[d->results[i].graph].spec, spec) == 0 &&
            strcmp(d->results[i].planner, planner) == 0)
            return &d->results[i];
    return NULL;
}

Test(figdata, newest_run_is_the_latest_start_with_results)
{
    char path[256], err[300] = "";
    make(path, sizeof path);
    struct arena_figdb *db = NULL;
    cr_assert_eq(arena_figdb_open(path, &db, err, sizeof err), ARENA_OK, "%s", err);
    struct arena_fig_data d;
    cr_assert_eq(arena_figdb_load(db, -1, NULL, &d, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_eq(d.n_runs, 1);
    cr_expect_eq(d.runs[0], 1, "newest run with results is %lld, want 1 (by started_at)",
                 (long long)d.runs[0]);
    cr_expect_eq(d.n_graphs, 2);
    cr_expect_eq(d.n_results, 3);
    const struct arena_fig_result *b = find(&d, "test:n=3,seed=1", "B");
    cr_assert(b);
    cr_expect(!b->ok, "run 1's B failed");
    arena_fig_data_free(&d);
    arena_figdb_close(db);
}

Test(figdata, all_runs_take_each_pairs_newest_result)
{
    char path[256], err[300] = "";
    make(path, sizeof path);
    struct arena_figdb *db = NULL;
    cr_assert_eq(arena_figdb_open(path, &db, err, sizeof err), ARENA_OK, "%s", err);
    struct arena_fig_data d;
    cr_assert_eq(arena_figdb_load(db, 0, NULL, &d, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(d.n_runs, 2, "runs with results: %zu", d.n_runs);
    cr_assert_eq(d.n_graphs, 3);
    cr_expect_str_eq(d.graphs[0].spec, "test:n=9,seed=1", "graphs in the order first measured");
    cr_expect_str_eq(d.graphs[1].spec, "test:n=3,seed=1");
    cr_expect_eq(d.n_results, 4);
    const struct arena_fig_result *a1 = find(&d, "test:n=3,seed=1", "A");
    cr_assert(a1);
    cr_expect_eq(a1->arena, 105, "graph 1 A: %lld from run %lld, want 105 from the newer run 1",
                 (long long)a1->arena, (long long)a1->run_id);
    const struct arena_fig_result *b1 = find(&d, "test:n=3,seed=1", "B");
    cr_assert(b1);
    cr_expect(!b1->ok && b1->run_id == 1, "the newer run's failure counts, not the older limit");
    const struct arena_fig_result *a3 = find(&d, "test:n=9,seed=1", "A");
    cr_assert(a3);
    cr_expect_eq(a3->run_id, 2);
    arena_fig_data_free(&d);
    cr_assert_eq(arena_figdb_load(db, 2, NULL, &d, err, sizeof err), ARENA_OK, "%s", err);
    const struct arena_fig_result *b2 = find(&d, "test:n=3,seed=1", "B");
    cr_assert(b2);
    cr_expect(b2->ok && b2->status && strcmp(b2->status, "limit") == 0, "run 2's B is a limit");
    arena_fig_data_free(&d);
    arena_figdb_close(db);
}

Test(figdata, unknown_or_empty_run_is_not_found)
{
    char path[256], err[300] = "";
    make(path, sizeof path);
    struct arena_figdb *db = NULL;
    cr_assert_eq(arena_figdb_open(path, &db, err, sizeof err), ARENA_OK, "%s", err);
    struct arena_fig_data d;
    cr_expect_eq(arena_figdb_load(db, 9, NULL, &d, err, sizeof err), ARENA_ENOTFOUND);
    cr_expect(strstr(err, "unknown run 9"), "%s", err);
    arena_fig_data_free(&d);
    cr_expect_eq(arena_figdb_load(db, 3, NULL, &d, err, sizeof err), ARENA_ENOTFOUND);
    cr_expect(strstr(err, "no results"), "%s", err);
    arena_fig_data_free(&d);
    arena_figdb_close(db);
}

Test(figdata, placements_by_tensor_and_nothing_made_beside_the_file)
{
    char path[256], err[300] = "", side[300];
    make(path, sizeof path);
    struct arena_figdb *db = NULL;
    cr_assert_eq(arena_figdb_open(path, &db, err, sizeof err), ARENA_OK, "%s", err);
    struct arena_fig_place *p = NULL;
    size_t n = 0;
    cr_assert_eq(arena_figdb_placements(db, 4, &p, &n, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_eq(n, 2);
    cr_expect(p[0].tensor == 0 && p[0].size == 60 && p[0].offset == 40 && p[1].tensor == 1);
    arena_fig_places_free(p, n);
    arena_figdb_close(db);
    snprintf(side, sizeof side, "%s-shm", path);
    cr_expect_neq(access(side, F_OK), 0, "a -shm was made beside the database");
    snprintf(side, sizeof side, "%s-wal", path);
    cr_expect_neq(access(side, F_OK), 0, "a -wal was made beside the database");
}

Test(figdata, another_file_is_refused)
{
    char path[256], err[300] = "";
    td_path(path, sizeof path, "other.sqlite");
    sqlite3 *db = td_db_open(path, 0);
    cr_assert_eq(sqlite3_exec(db, "CREATE TABLE t(x)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    struct arena_figdb *h = NULL;
    cr_expect_eq(arena_figdb_open(path, &h, err, sizeof err), ARENA_EDB);
    cr_expect(strstr(err, "not an arenabench results database"), "%s", err);
    td_path(path, sizeof path, "missing.sqlite");
    cr_expect_eq(arena_figdb_open(path, &h, err, sizeof err), ARENA_ENOTFOUND);
}

/* No version ceiling (issue 34 §5): a newer schema is read while the
 * columns plot reads are there, and refused in one line naming both
 * versions and the column when one is not. */
Test(figdata, a_newer_schema_is_read_while_its_columns_are_there)
{
    char path[256], err[300] = "", sql[160];
    make(path, sizeof path);
    sqlite3 *db = td_db_open(path, 0);
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d; ALTER TABLE results ADD COLUMN later TEXT",
             ARENA_STORE_VERSION + 1);
    cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    struct arena_figdb *h = NULL;
    cr_assert_eq(arena_figdb_open(path, &h, err, sizeof err), ARENA_OK, "%s", err);
    struct arena_fig_data d;
    cr_expect_eq(arena_figdb_load(h, 0, NULL, &d, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(d.n_results, 4);
    arena_fig_data_free(&d);
    arena_figdb_close(h);
    db = td_db_open(path, 0);
    cr_assert_eq(sqlite3_exec(db, "ALTER TABLE results DROP COLUMN saving", NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(db));
    sqlite3_close(db);
    cr_expect_eq(arena_figdb_open(path, &h, err, sizeof err), ARENA_EDB);
    char want[160];
    snprintf(want, sizeof want, "schema version %d, newer than this bench's %d, has no"
             " results.saving, which bench plot reads", ARENA_STORE_VERSION + 1,
             ARENA_STORE_VERSION);
    cr_expect(strstr(err, want), "%s", err);
    cr_expect_null(strchr(err, '\n'));
}

/* One spec, two problems (a file rewritten 10x larger between two runs):
 * the entry is the newest problem's, with its bound; the older problem's
 * results are left out and counted, their planners named, so no table
 * divides an old arena by the new bound (0.111 x lower bound). Fails on
 * 3cf04c5 (round 4, finding 05). */
Test(figdata, an_older_problem_under_one_spec_is_left_out_and_counted)
{
    char path[256], err[300] = "";
    td_path(path, sizeof path, "two.sqlite");
    struct arena_store *s = NULL;
    cr_assert_eq(arena_store_open(path, NULL, NULL, &s, err, sizeof err), ARENA_OK, "%s", err);
    arena_store_close(s);
    sqlite3 *db = td_db_open(path, 0);
    char *msg = NULL;
    cr_assert_eq(sqlite3_exec(db,
        "INSERT INTO runs (id, started_at, git_rev, compiler, cpu, host, command, seed, uuid)"
        " VALUES (1, '2026-12-02T10:00:00.000Z', 'g', 'c', 'cpu', 'h', 'a', 1, 'u1'),"
        " (2, '2026-12-02T11:00:00.000Z', 'g', 'c', 'cpu', 'h', 'b', 1, 'u2');"
        "INSERT INTO graphs (id, spec, family, params, fingerprint, alignment, ops, tensors,"
        " naive_bytes, lower_bound) VALUES (1, 'p.csv', 'csv', '', 'aa', 16, 0, 3, 256, 208),"
        " (2, 'p.csv', 'csv', '', 'bb', 16, 0, 3, 2512, 2000);"
        "INSERT INTO results (id, run_id, graph_id, planner, arena_bytes, valid, bound, status,"
        " seq, inplace_bound, problem_fingerprint) VALUES"
        " (1, 1, 1, 'greedy-by-size', 224, 1, 208, 'feasible', 1, 208, 'aa'),"
        " (2, 1, 1, 'optimal', 224, 1, 224, 'optimal', 2, 208, 'aa'),"
        " (3, 2, 2, 'naive', 2512, 1, 2000, 'feasible', 1, 2000, 'bb');",
        NULL, NULL, &msg), SQLITE_OK, "%s", msg);
    sqlite3_close(db);
    struct arena_figdb *h = NULL;
    cr_assert_eq(arena_figdb_open(path, &h, err, sizeof err), ARENA_OK, "%s", err);
    struct arena_fig_data d;
    cr_assert_eq(arena_figdb_load(h, 0, NULL, &d, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_eq(d.n_graphs, 1);
    cr_expect_eq(d.graphs[0].lower_bound, 2000, "the newest problem's bound");
    cr_expect_eq(d.n_results, 1, "only naive, of the newest problem: %zu", d.n_results);
    cr_expect(find(&d, "p.csv", "naive") && !find(&d, "p.csv", "optimal"));
    cr_expect_eq(d.graphs[0].superseded, 2);
    cr_expect(d.graphs[0].superseded_planners &&
                  strcmp(d.graphs[0].superseded_planners, "optimal, greedy-by-size") == 0,
              "named newest first: %s", d.graphs[0].superseded_planners);
    arena_fig_data_free(&d);
    arena_figdb_close(h);
}
