/* test_merge.c — results/merge.c and bench --shard end to end on real
 * SQLite files: a sweep run as two shards and merged holds exactly the
 * graphs, planners, arenas and placements of the same sweep run at once;
 * merging again adds nothing; ids are remapped over an output that already
 * has rows (replays and their frames too); a column added by a later schema
 * is merged by name; inputs at another schema version are refused before
 * anything is written; scripts/sweep run from another folder keeps its
 * relative paths there. */
#include <criterion/criterion.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"
#include "results/merge.h"
#include "results/store.h"
#include "tests/run_bench.h"
#include "tests/tmpdb.h"

TestSuite(merge, .init = td_make_dir, .fini = td_remove_dir, .timeout = 240);

/* Every result as one text: spec, planner, valid, arena, bound, status and
 * every placement (tensor:size:first:last:offset), sorted; timings and ids
 * left out, since they differ between runs by nature. */
static char *content(const char *path)
{
    sqlite3 *db = td_db_open(path, 1);
    sqlite3_stmt *st = NULL;
    cr_assert_eq(sqlite3_prepare_v2(db,
        "SELECT group_concat(line, char(10)) FROM (SELECT g.spec || '|' || g.fingerprint || '|'"
        " || g.alignment || '|' || r.planner || '|' || r.valid || '|' || r.arena_bytes || '|' ||"
        " r.bound || '|' || r.status || '|' || coalesce((SELECT group_concat(p.tensor || ':' ||"
        " p.size || ':' || p.first || ':' || p.last || ':' || p.offset, ',') FROM (SELECT * FROM"
        " placements WHERE result_id = r.id ORDER BY tensor) p), '') AS line"
        " FROM results r JOIN graphs g ON g.id = r.graph_id ORDER BY line)",
        -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    const char *t = (const char *)sqlite3_column_text(st, 0);
    char *copy = strdup(t ? t : "");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return copy;
}

static int64_t count(const char *path, const char *sql)
{
    sqlite3 *db = td_db_open(path, 1);
    int64_t v = td_db_int(db, sql);
    sqlite3_close(db);
    return v;
}

#define SWEEP "random-intervals:n=40|60,seed=1..3"
#define PLANNERS "naive,greedy-by-size,ping-pong,xla-best-fit"

Test(merge, two_shards_merged_equal_one_run_and_merging_again_adds_nothing)
{
    char one[160], s1[160], s2[160], out[160];
    td_path(one, sizeof one, "one.sqlite");
    td_path(s1, sizeof s1, "s1.sqlite");
    td_path(s2, sizeof s2, "s2.sqlite");
    td_path(out, sizeof out, "out.sqlite");
    const char *common[] = {"--graph", SWEEP, "--planner", PLANNERS, "--repetitions", "1",
                            "--min-time", "0.001", "--quiet"};
    const char *a1[16], *a2[16], *a0[16];
    size_t n = 0;
    for (; n < sizeof common / sizeof common[0]; n++) a0[n] = a1[n] = a2[n] = common[n];
    a0[n] = a1[n] = a2[n] = "--db";
    a0[n + 1] = one, a1[n + 1] = s1, a2[n + 1] = s2;
    a0[n + 2] = NULL;
    a1[n + 2] = a2[n + 2] = "--shard";
    a1[n + 3] = "1/2", a2[n + 3] = "2/2";
    a1[n + 4] = a2[n + 4] = NULL;
    cr_assert_eq(run_bench("one", a0), 0);
    cr_assert_eq(run_bench("s1", a1), 0);
    cr_assert_eq(run_bench("s2", a2), 0);
    /* 6 graphs x 4 planners = 24 jobs, dealt 12 and 12. */
    cr_expect_eq(count(one, "SELECT count(*) FROM results"), 24);
    cr_expect_eq(count(s1, "SELECT count(*) FROM results"), 12);
    cr_expect_eq(count(s2, "SELECT count(*) FROM results"), 12);

    const char *in[] = {s1, s2};
    struct arena_merge_counts c;
    char err[600] = "";
    cr_assert_eq(arena_store_merge(out, in, 2, &c, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(c.runs, 2);
    cr_expect_eq(c.runs_present, 0);
    cr_expect_eq(c.results, 24);
    cr_expect_eq((int64_t)c.placements, count(one, "SELECT count(*) FROM placements"));
    /* Graphs are shared: both shards hold most graphs, the merge has 6. */
    cr_expect_eq(count(out, "SELECT count(*) FROM graphs"), 6);
    cr_expect_eq(c.graphs, 6);
    char *want = content(one), *got = content(out);
    cr_expect(strlen(want) > 1000);
    cr_expect_str_eq(got, want);
    free(got);

    /* Again, and in the other order: nothing new. */
    const char *again[] = {s2, s1, s1};
    cr_assert_eq(arena_store_merge(out, again, 3, &c, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(c.runs, 0);
    cr_expect_eq(c.runs_present, 3);
    cr_expect_eq(c.results + c.placements + c.graphs, 0);
    got = content(out);
    cr_expect_str_eq(got, want);
    free(got);
    free(want);
    cr_expect_eq(count(out, "SELECT count(*) FROM runs"), 2);

    /* The command prints its counts and refuses the output as an input. */
    const char *cmd[] = {"merge", out, s1, NULL};
    cr_expect_eq(run_bench("cmd", cmd), 0);
    const char *self[] = {"merge", out, out, NULL};
    cr_expect_eq(run_bench("self", self), 2);
    const char *none[] = {"merge", out, NULL};
    cr_expect_eq(run_bench("none", none), 2);

    /* bench stats on the merge: one row per configuration x planner
     * (random-intervals n=40 and n=60, 4 planners), 3 seeds each. */
    const char *stats[] = {"stats", "--db", out, "--format", "csv", NULL};
    cr_expect_eq(run_bench("stats", stats), 0);
    char path[200];
    snprintf(path, sizeof path, "%s/stats.out", td_dir);
    char *csv = td_slurp(path, NULL);
    cr_assert(csv);
    size_t lines = 0, threes = 0;
    for (const char *c = csv; *c; c++) lines += *c == '\n';
    for (const char *c = strstr(csv, ",3,"); c; c = strstr(c + 1, ",3,")) threes++;
    cr_expect_eq(lines, 1 + 2 * 4, "%s", csv);
    cr_expect_eq(threes, 8, "%s", csv);
    cr_expect(strncmp(csv, "group,planner,n,mean_lb,", 24) == 0, "%s", csv);
    free(csv);
    const char *bad[] = {"stats", "--db", out, "--format", "json", NULL};
    cr_expect_eq(run_bench("badstats", bad), 2);
}

static const struct arena_tensor three[] = {{32, 0, 1}, {16, 1, 2}, {32, 2, 3}};
static uint64_t three_offsets[] = {0, 32, 0};

/* The bounds of the three-tensor problem. */
static const struct arena_bounds three_bounds = {.naive_bytes = 80, .lower_bound = 48,
                                                 .largest = 32, .max_live = 2, .steps = 3};

/* One valid result of planner on the three-tensor problem (arena 48, its
 * three placements), timed ns, in run rid on graph gid. */
static void add_three_result(struct arena_store *s, int64_t rid, int64_t gid, const char *planner,
                             double ns)
{
    struct arena_problem p = {.n = 3, .tensors = three, .alignment = 16};
    struct arena_plan plan = {.n = 3, .offsets = three_offsets, .arena = 48};
    struct arena_metrics m = {.bounds = three_bounds, .arena = 48, .ratio_lb = 1.0};
    struct arena_result r = {.planner = planner, .valid = 1, .metrics = &m,
                                  .plan_ns_median = ns, .plan_ns_mean = ns, .plan_ns_stddev = 1,
                                  .iterations = 10, .status = ARENA_PLAN_OPTIMAL, .bound = 48};
    int64_t id = 0;
    cr_assert_eq(arena_store_add_result(s, rid, gid, &r, &p, &plan, &id), ARENA_OK, "%s",
                 arena_store_error(s));
}

/* One replay of glibc with two frames, in run rid on graph gid. */
static void add_replay(struct arena_store *s, int64_t rid, int64_t gid)
{
    struct arena_replay_frame frames[2] = {{6, 100, 90, 4096}, {6, 100, 90, 4096}};
    struct arena_replay_info rp = {"glibc", "2.36", "mallinfo2", 2, 6, 50.0, 48, 0, frames};
    int64_t id = 0;
    cr_assert_eq(arena_store_add_replay(s, rid, gid, &rp, &id), ARENA_OK, "%s",
                 arena_store_error(s));
}

/* A database by hand: one run (command tag), one graph, one result with its
 * three placements, one replay with two frames. */
static void make_db(const char *path, const char *tag)
{
    struct arena_store *s = NULL;
    char err[300] = "";
    cr_assert_eq(arena_store_open(path, NULL, NULL, &s, err, sizeof err), ARENA_OK, "%s", err);
    struct arena_run_info run = {"2026-12-03T15:00:00Z", "abc", "gcc", "cpu", "host", tag, 1,
                                 "performance", 0.25, NULL, NULL};
    struct arena_source src = {0};
    src.spec = (char *)"test:three";
    src.family = (char *)"test";
    src.params = (char *)"";
    src.fingerprint = 42;
    src.problem.n = 3;
    src.problem.tensors = three;
    src.problem.alignment = 16;
    int64_t rid = 0, gid = 0;
    cr_assert_eq(arena_store_add_run(s, &run, &rid), ARENA_OK);
    cr_assert_eq(arena_store_add_graph(s, &src, &three_bounds, &gid), ARENA_OK);
    add_three_result(s, rid, gid, "greedy-by-size", 10);
    add_replay(s, rid, gid);
    arena_store_close(s);
}

/* One more result of run 1 on graph 1 of a make_db file (as a bench still
 * writing would add), timed ns. */
static void append_result(const char *path, double ns)
{
    struct arena_store *s = NULL;
    char err[300] = "";
    cr_assert_eq(arena_store_open(path, NULL, NULL, &s, err, sizeof err), ARENA_OK, "%s", err);
    add_three_result(s, 1, 1, "xla-best-fit", ns);
    arena_store_close(s);
}

/* round2 #1: a run merged while its bench was still writing gets the
 * results written after, on the next merge, each once. */
Test(merge, a_run_merged_early_receives_its_later_results)
{
    char live[160], out[160];
    td_path(live, sizeof live, "live.sqlite");
    td_path(out, sizeof out, "out.sqlite");
    make_db(live, "bench --graph chain:ops=8,seed=1..6");
    append_result(live, 20);
    const char *in[] = {live};
    struct arena_merge_counts c;
    char err[600] = "";
    cr_assert_eq(arena_store_merge(out, in, 1, &c, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(c.runs, 1);
    cr_expect_eq(c.results, 2);
    for (int k = 0; k < 3; k++) append_result(live, 30 + k);
    cr_assert_eq(arena_store_merge(out, in, 1, &c, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(c.runs, 0);
    cr_expect_eq(c.runs_present, 1);
    cr_expect_eq(c.results, 3, "the 3 results written after the first merge");
    cr_expect_eq(c.placements, 9);
    cr_expect_eq(c.replays + c.replay_frames, 0);
    /* And once more: nothing. */
    cr_assert_eq(arena_store_merge(out, in, 1, &c, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(c.results + c.placements + c.runs, 0);
    cr_expect_eq(count(out, "SELECT count(*) FROM runs"), 1);
    cr_expect_eq(count(out, "SELECT count(*) FROM results"), 5);
    cr_expect_eq(count(out, "SELECT count(*) FROM placements"), 15);
    cr_expect_eq(count(out, "SELECT count(DISTINCT seq) FROM results WHERE seq BETWEEN 1 AND 5"),
                 5);
    cr_expect_eq(count(out, "SELECT sum(plan_ns_median) FROM results WHERE planner ="
                            " 'xla-best-fit'"), 20 + 30 + 31 + 32);
}

/* round2 #2: two runs alike in every column but their identity (one command
 * line, started in the same second, on one host) stay two runs. */
Test(merge, two_runs_with_one_command_and_start_stay_two)
{
    char a[160], b[160], out[160];
    td_path(a, sizeof a, "a.sqlite");
    td_path(b, sizeof b, "b.sqlite");
    td_path(out, sizeof out, "out.sqlite");
    make_db(a, "bench --graph chain:ops=4");
    make_db(b, "bench --graph chain:ops=4");
    cr_expect_eq(count(a, "SELECT count(*) FROM runs WHERE length(uuid) = 36"), 1);
    const char *in[] = {a, b, a, b};
    struct arena_merge_counts c;
    char err[600] = "";
    cr_assert_eq(arena_store_merge(out, in, 4, &c, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(c.runs, 2);
    cr_expect_eq(c.runs_present, 2);
    cr_expect_eq(count(out, "SELECT count(*) FROM runs"), 2);
    cr_expect_eq(count(out, "SELECT count(*) FROM results"), 2);
    cr_expect_eq(count(out, "SELECT count(*) FROM replays"), 2);
    cr_expect_eq(count(out, "SELECT count(*) FROM placements"), 6);
}

/* Files from before schema 8, migrated apart: a copy of a run that holds
 * only its first result (a merge taken early) and the whole run get one
 * identity, so merging both leaves the run once with every result; a
 * different run with the same columns (another first timing) stays apart. */
Test(merge, runs_from_before_schema_8_keep_both_promises)
{
    char whole[160], early[160], other[160], out[160];
    td_path(whole, sizeof whole, "whole.sqlite");
    td_path(early, sizeof early, "early.sqlite");
    td_path(other, sizeof other, "other.sqlite");
    td_path(out, sizeof out, "out.sqlite");
    make_db(whole, "bench old");
    append_result(whole, 20);
    append_result(whole, 21);
    make_db(early, "bench old");
    make_db(other, "bench old");
    append_result(other, 20);
    const char *paths[] = {whole, early, other};
    for (size_t i = 0; i < 3; i++) {
        sqlite3 *db = td_db_open(paths[i], 0);
        cr_assert_eq(sqlite3_exec(db, TD_BACK_TO_V7, NULL, NULL, NULL), SQLITE_OK);
        if (i == 2) /* another measurement of the first result */
            cr_assert_eq(sqlite3_exec(db, "UPDATE results SET plan_ns_median = 11 WHERE id = 1",
                                      NULL, NULL, NULL), SQLITE_OK);
        sqlite3_close(db);
        /* bench migrates a file it opens. */
        struct arena_store *s = NULL;
        char err[300] = "";
        cr_assert_eq(arena_store_open(paths[i], NULL, NULL, &s, err, sizeof err), ARENA_OK,
                     "%s", err);
        arena_store_close(s);
    }
    cr_expect_eq(count(whole, "SELECT count(*) FROM runs WHERE substr(uuid, 15, 1) = '8'"
                              " AND started_at = '2026-12-03T15:00:00.000Z'"), 1);
    const char *in[] = {early, whole, other};
    struct arena_merge_counts c;
    char err[600] = "";
    cr_assert_eq(arena_store_merge(out, in, 3, &c, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(c.runs, 2);
    cr_expect_eq(c.runs_present, 1);
    cr_expect_eq(count(out, "SELECT count(*) FROM results"), 3 + 2);
    cr_expect_eq(count(out, "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id"
                            " GROUP BY u.id ORDER BY count(*) DESC LIMIT 1"), 3);
}

Test(merge, ids_are_remapped_over_rows_already_there_replays_too)
{
    char a[160], b[160];
    td_path(a, sizeof a, "a.sqlite");
    td_path(b, sizeof b, "b.sqlite");
    make_db(a, "bench a");
    make_db(b, "bench b");
    const char *in[] = {b};
    struct arena_merge_counts c;
    char err[600] = "";
    /* a already has run 1, result 1, replay 1: b's rows must become 2. */
    cr_assert_eq(arena_store_merge(a, in, 1, &c, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(c.runs, 1);
    cr_expect_eq(c.graphs, 0, "the same graph is shared");
    cr_expect_eq(c.results, 1);
    cr_expect_eq(c.placements, 3);
    cr_expect_eq(c.replays, 1);
    cr_expect_eq(c.replay_frames, 2);
    cr_expect_eq(count(a, "SELECT count(*) FROM graphs"), 1);
    cr_expect_eq(count(a, "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id"
                          " WHERE u.command = 'bench b' AND r.id = 2 AND r.graph_id = 1"), 1);
    cr_expect_eq(count(a, "SELECT count(*) FROM placements WHERE result_id = 2"), 3);
    cr_expect_eq(count(a, "SELECT count(*) FROM placements WHERE result_id = 2 AND tensor = 1"
                          " AND offset = 32"), 1);
    cr_expect_eq(count(a, "SELECT count(*) FROM replays r JOIN runs u ON u.id = r.run_id"
                          " WHERE u.command = 'bench b' AND r.id = 2"), 1);
    cr_expect_eq(count(a, "SELECT count(*) FROM replay_frames WHERE replay_id = 2"), 2);
    cr_expect_eq(count(a, "SELECT count(*) FROM runs WHERE governor = 'performance'"
                          " AND loadavg = 0.25"), 2);
}

/* A graph merged first in its stored order is not changed by an input that
 * ran --order best on it and found the stored order best (the same
 * problem, so one graph row): each result keeps its own configuration and
 * its order's proof, in every order of merging (round 3, 02: the shared
 * row gained a later run's bound). A chain has one order, certified
 * without search (test_bench's order test). */
Test(merge, each_result_keeps_its_configuration_and_the_graph_row_stays)
{
    char stored[160], best[160], out[160], out2[160];
    td_path(stored, sizeof stored, "stored.sqlite");
    td_path(best, sizeof best, "best.sqlite");
    td_path(out, sizeof out, "out.sqlite");
    td_path(out2, sizeof out2, "out2.sqlite");
    const char *a0[] = {"--graph", "chain:ops=8", "--planner", "naive", "--repetitions", "1",
                        "--min-time", "0.001", "--quiet", "--db", stored, NULL};
    const char *a1[] = {"--graph", "chain:ops=8", "--planner", "naive", "--order", "best",
                        "--repetitions", "1", "--min-time", "0.001", "--quiet", "--db", best,
                        NULL};
    cr_assert_eq(run_bench("stored", a0), 0);
    cr_assert_eq(run_bench("best", a1), 0);
    const char *in[] = {stored, best}, *ni[] = {best, stored};
    struct arena_merge_counts c;
    char err[600] = "";
    cr_assert_eq(arena_store_merge(out, in, 2, &c, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(c.graphs, 1, "the one problem, stored once");
    cr_assert_eq(arena_store_merge(out2, ni, 2, &c, err, sizeof err), ARENA_OK, "%s", err);
    const char *outs[] = {out, out2};
    for (size_t k = 0; k < 2; k++) {
        cr_expect_eq(count(outs[k], "SELECT count(*) FROM graphs WHERE order_status IS NULL AND"
                                    " order_bound IS NULL"), 1, "the row as written");
        cr_expect_eq(count(outs[k], "SELECT count(*) FROM results WHERE order_mode = 'best' AND"
                                    " order_status = 'certified' AND order_bound ="
                                    " inplace_bound"), 1);
        cr_expect_eq(count(outs[k], "SELECT count(*) FROM results WHERE order_mode = 'stored' AND"
                                    " order_status IS NULL AND order_bound IS NULL"), 1);
    }
}

/* Two inputs that both ran --order best on one graph: since schema 11 a
 * proof belongs to the result that made it, so the output keeps both, each
 * with its own, whichever input comes first, and the one graph row is
 * shared and left as written (its schema-10 order columns NULL). The
 * proofs differ in their timing; the second file's order_ns is set to 7 ns
 * to tell them apart. */
Test(merge, of_two_order_proofs_each_result_keeps_its_own)
{
    char a[160], b[160], ab[160], ba[160];
    td_path(a, sizeof a, "a.sqlite");
    td_path(b, sizeof b, "b.sqlite");
    td_path(ab, sizeof ab, "ab.sqlite");
    td_path(ba, sizeof ba, "ba.sqlite");
    const char *a0[] = {"--graph", "chain:ops=8", "--planner", "naive", "--order", "best",
                        "--repetitions", "1", "--min-time", "0.001", "--quiet", "--db", a, NULL};
    const char *a1[] = {"--graph", "chain:ops=8", "--planner", "naive", "--order", "best",
                        "--repetitions", "1", "--min-time", "0.001", "--quiet", "--db", b, NULL};
    cr_assert_eq(run_bench("a", a0), 0);
    cr_assert_eq(run_bench("b", a1), 0);
    sqlite3 *db = td_db_open(b, 0);
    cr_assert_eq(sqlite3_exec(db, "UPDATE results SET order_ns = 7", NULL, NULL, NULL),
                 SQLITE_OK);
    sqlite3_close(db);
    int64_t a_ns = count(a, "SELECT order_ns FROM results WHERE order_bound IS NOT NULL");
    cr_assert_neq(a_ns, 7);
    const char *first_a[] = {a, b}, *first_b[] = {b, a};
    char err[600] = "";
    cr_assert_eq(arena_store_merge(ab, first_a, 2, NULL, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_eq(arena_store_merge(ba, first_b, 2, NULL, err, sizeof err), ARENA_OK, "%s", err);
    const char *outs[] = {ab, ba};
    for (size_t i = 0; i < 2; i++) {
        cr_expect_eq(count(outs[i], "SELECT count(*) FROM graphs"), 1);
        cr_expect_eq(count(outs[i], "SELECT count(*) FROM graphs WHERE order_bound IS NULL"), 1);
        cr_expect_eq(count(outs[i], "SELECT count(*) FROM results"), 2);
        cr_expect_eq(count(outs[i], "SELECT count(*) FROM results WHERE order_ns = 7"), 1);
        char q[128];
        snprintf(q, sizeof q, "SELECT count(*) FROM results WHERE order_ns = %lld",
                 (long long)a_ns);
        cr_expect_eq(count(outs[i], q), 1);
    }
}

/* Round 3 #09: rows no bench writes are not copied, and merge says so. One
 * make_db file per case, its result 1 (greedy-by-size, arena 48 = the
 * lower bound 48, optimal, bound 48, ratio 1.0, three placements) made
 * impossible by one change; merged (all into one output), the result and
 * its 3 placements are left out, the rest (run, graph, replay and its 2
 * frames) is copied, and the reason names the result. */
Test(merge, each_impossible_result_is_skipped_with_its_reason)
{
    static const struct {
        const char *sql, *why;
        int own; /* merged into an output of its own */
    } cases[] = {
        {"UPDATE results SET graph_id = 4242", "its graph 4242 is not in the file", 0},
        {"UPDATE results SET run_id = 77", "its run 77 is not in the file", 0},
        {"UPDATE results SET valid = 2", "valid is 2, neither 0 nor 1", 0},
        {"UPDATE results SET arena_bytes = 1, bound = 1",
         "valid with an arena of 1 B, below the lower bound 48 B", 0},
        {"UPDATE results SET arena_bytes = -5", "valid with an arena of -5, not a number of bytes",
         0},
        {"UPDATE results SET arena_bytes = NULL", "valid with an arena of NULL", 0},
        {"UPDATE results SET arena_bytes = 0.0001", "valid with an arena of 0.0001", 0},
        {"UPDATE results SET status = 'best'", "valid with status 'best'", 0},
        {"UPDATE results SET status = NULL", "valid with status NULL", 0},
        {"UPDATE results SET bound = 64",
         "a proven bound of 64, not between 48 B and its arena 48 B", 0},
        {"UPDATE results SET arena_bytes = 64, ratio_lb = 64.0 / 48",
         "optimal, but its arena 64 B is above its bound 48 B", 0},
        {"UPDATE results SET ratio_lb = 0.5", "a ratio to the bound of 0.5, not its arena / 48 B",
         0},
        {"UPDATE results SET inplace_bound = 1",
         "no in-place rule, but an in-place bound of 1 B, not the lower bound 48 B", 0},
        {"UPDATE results SET inplace = 'elementwise', inplace_bound = 60",
         "an in-place bound of 60, not between 0 and the lower bound 48 B", 0},
        /* a result is checked against the graph row it will point to: the
         * output's, so this one needs an output without the graph */
        {"UPDATE graphs SET lower_bound = 96", "its graph's lower bound 96 is not between 0 and",
         1},
    };
    char base[160], shared[160], own[160];
    td_path(base, sizeof base, "base.sqlite");
    td_path(shared, sizeof shared, "out.sqlite"); /* each copy's run is one run */
    td_path(own, sizeof own, "own.sqlite");
    make_db(base, "bench");
    size_t len = 0;
    char *bytes = td_slurp(base, &len); /* closed: the WAL is in the file */
    cr_assert(bytes);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char in[160], name[32];
        snprintf(name, sizeof name, "in%zu.sqlite", k);
        td_path(in, sizeof in, name);
        FILE *f = fopen(in, "wb");
        cr_assert(f && fwrite(bytes, 1, len, f) == len && fclose(f) == 0);
        sqlite3 *db = td_db_open(in, 0);
        cr_assert_eq(sqlite3_exec(db, cases[k].sql, NULL, NULL, NULL), SQLITE_OK, "%s",
                     cases[k].sql);
        sqlite3_close(db);
        const char *inputs[] = {in}, *out = cases[k].own ? own : shared;
        int first = k == 0 || cases[k].own;
        struct arena_merge_counts c;
        char err[600] = "";
        cr_assert_eq(arena_store_merge(out, inputs, 1, &c, err, sizeof err), ARENA_OK, "%s", err);
        cr_expect_eq(c.results, 0, "%s", cases[k].sql);
        cr_expect_eq(c.skipped_results, 1, "%s", cases[k].sql);
        cr_expect_eq(c.skipped_rows, 3, "%s: its 3 placements", cases[k].sql);
        cr_expect_eq(c.placements, 0);
        /* the run and its replay come with the first copy, then are there */
        cr_expect_eq(c.replays + c.replay_frames + c.runs, first ? 1 + 2 + 1 : 0);
        cr_expect_eq(c.runs_present, first ? 0 : 1);
        char want[300];
        snprintf(want, sizeof want, "%s: result 1 (greedy-by-size): %s", in, cases[k].why);
        cr_expect(strncmp(c.skip_first, want, strlen(want)) == 0, "%s:\n got %s\nwant %s",
                  cases[k].sql, c.skip_first, want);
        cr_expect_eq(count(out, "SELECT count(*) FROM results"), 0);
    }
    free(bytes);
}

/* Good rows are merged beside the impossible ones: a file with results 1
 * and 2 of make_db + append_result (valid, arena 48), result 3 with arena
 * 1 B, result 4 whose graph is gone and a replay whose run is gone. The
 * command copies results 1 and 2 (6 placements) and the first replay (2
 * frames), says what it left out on stdout and, with the first such row,
 * in one line on stderr, and exits 1; merging again copies nothing more
 * and says the same. */
Test(merge, good_rows_are_merged_and_the_skipped_are_said)
{
    char in[160], out[160];
    td_path(in, sizeof in, "in.sqlite");
    td_path(out, sizeof out, "out.sqlite");
    make_db(in, "bench");
    for (int k = 0; k < 3; k++) append_result(in, 20 + k);
    struct arena_store *s = NULL;
    char err[600] = "";
    cr_assert_eq(arena_store_open(in, NULL, NULL, &s, err, sizeof err), ARENA_OK, "%s", err);
    add_replay(s, 1, 1);
    arena_store_close(s);
    sqlite3 *db = td_db_open(in, 0);
    cr_assert_eq(sqlite3_exec(db, "UPDATE results SET arena_bytes = 1 WHERE id = 3;"
                                  "UPDATE results SET graph_id = 9 WHERE id = 4;"
                                  "UPDATE replays SET run_id = 5 WHERE id = 2;",
                              NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    const char *cmd[] = {"merge", out, in, NULL};
    for (int round = 0; round < 2; round++) {
        cr_expect_eq(run_bench("skip", cmd), 1);
        char path[200];
        snprintf(path, sizeof path, "%s/skip.out", td_dir);
        char *text = td_slurp(path, NULL);
        cr_assert(text);
        cr_expect(strstr(text, round ? " 0 results, 0 placements, 0 replays, 0 replay frames;"
                                     : " 2 results, 6 placements, 1 replays, 2 replay frames;"),
                  "%s", text);
        cr_expect(strstr(text, "; skipped as impossible: results 2, replays 1, their placements"
                               " and frames 8; integrity ok\n"),
                  "%s", text);
        free(text);
        snprintf(path, sizeof path, "%s/skip.err", td_dir);
        text = td_slurp(path, NULL);
        cr_assert(text);
        char want[400];
        snprintf(want, sizeof want,
                 "bench: merge: 3 rows not copied: not written by bench (the file is damaged or"
                 " edited); the first: %s: result 3 (xla-best-fit): valid with an arena of 1 B,"
                 " below the lower bound 48 B\n", in);
        cr_expect_str_eq(text, want);
        free(text);
    }
    cr_expect_eq(count(out, "SELECT count(*) FROM results WHERE arena_bytes = 48"), 2);
    cr_expect_eq(count(out, "SELECT count(*) FROM results"), 2);
    cr_expect_eq(count(out, "SELECT count(*) FROM placements"), 6);
    cr_expect_eq(count(out, "SELECT count(*) FROM replays"), 1);
}

/* A view in place of a table (rows no bench wrote, shown through it) is
 * refused before anything of the file is copied. */
Test(merge, a_view_for_a_table_refuses_the_file)
{
    char in[160], out[160];
    td_path(in, sizeof in, "in.sqlite");
    td_path(out, sizeof out, "out.sqlite");
    make_db(in, "bench");
    sqlite3 *db = td_db_open(in, 0);
    cr_assert_eq(sqlite3_exec(db, "ALTER TABLE results RENAME TO results_real;"
                                  "CREATE VIEW results AS SELECT * FROM results_real;",
                              NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    const char *inputs[] = {in};
    char err[600] = "";
    cr_expect_eq(arena_store_merge(out, inputs, 1, NULL, err, sizeof err), ARENA_EINVAL);
    char want[300];
    snprintf(want, sizeof want, "%s: results is a view, not a table: not a database bench wrote",
             in);
    cr_expect_str_eq(err, want);
    cr_expect_eq(count(out, "SELECT count(*) FROM runs"), 0);
}

Test(merge, a_later_column_merges_by_name)
{
    char a[160], b[160], out[160];
    td_path(a, sizeof a, "a.sqlite");
    td_path(b, sizeof b, "b.sqlite");
    td_path(out, sizeof out, "out.sqlite");
    make_db(a, "bench a");
    make_db(b, "bench b");
    make_db(out, "bench out");
    /* As if a later schema added placements.note: all three files have it. */
    const char *paths[] = {a, b, out};
    for (size_t i = 0; i < 3; i++) {
        sqlite3 *db = td_db_open(paths[i], 0);
        cr_assert_eq(sqlite3_exec(db, "ALTER TABLE placements ADD COLUMN note TEXT;"
                                      "UPDATE placements SET note = 't' || tensor;",
                                  NULL, NULL, NULL), SQLITE_OK);
        sqlite3_close(db);
    }
    const char *in[] = {a, b};
    char err[600] = "";
    cr_assert_eq(arena_store_merge(out, in, 2, NULL, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(count(out, "SELECT count(*) FROM placements"), 9);
    cr_expect_eq(count(out, "SELECT count(*) FROM placements WHERE note = 't' || tensor"), 9);
    /* A file without the column is refused, naming the table. */
    char c[160];
    td_path(c, sizeof c, "c.sqlite");
    make_db(c, "bench c");
    const char *in2[] = {c};
    cr_expect_eq(arena_store_merge(out, in2, 1, NULL, err, sizeof err), ARENA_EINVAL);
    cr_expect(strstr(err, "table placements has other columns"), "%s", err);
}

/* A newer schema is merged when its tables have this bench's columns (a
 * later version that added an index, say), and refused in one line naming
 * both versions and the column when merging would drop one. */
Test(merge, a_newer_schema_merges_when_its_columns_are_there)
{
    char a[160], out[2][160], sql[128];
    td_path(a, sizeof a, "new.sqlite");
    for (int k = 0; k < 2; k++) td_path(out[k], sizeof out[k], k ? "out2.sqlite" : "out.sqlite");
    make_db(a, "bench new");
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d; CREATE INDEX later ON results(planner);",
             ARENA_STORE_VERSION + 1);
    sqlite3 *db = td_db_open(a, 0);
    cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    const char *in[] = {a};
    char err[600] = "";
    cr_assert_eq(arena_store_merge(out[0], in, 1, NULL, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(count(out[0], "SELECT count(*) FROM results"),
                 count(a, "SELECT count(*) FROM results"));
    db = td_db_open(a, 0);
    cr_assert_eq(sqlite3_exec(db, "ALTER TABLE results ADD COLUMN later TEXT", NULL, NULL, NULL),
                 SQLITE_OK);
    sqlite3_close(db);
    cr_assert_eq(arena_store_merge(out[1], in, 1, NULL, err, sizeof err), ARENA_EINVAL);
    char want[160];
    snprintf(want, sizeof want, "schema version %d, newer than this bench's %d, has results.later",
             ARENA_STORE_VERSION + 1, ARENA_STORE_VERSION);
    cr_expect(strstr(err, want), "%s", err);
    cr_expect_null(strchr(err, '\n'));
}

Test(merge, mixed_versions_are_refused_before_anything_is_written)
{
    char a[160], old[160], out[160];
    td_path(a, sizeof a, "a.sqlite");
    td_path(old, sizeof old, "old.sqlite");
    td_path(out, sizeof out, "out.sqlite");
    make_db(a, "bench a");
    make_db(old, "bench old");
    sqlite3 *db = td_db_open(old, 0);
    cr_assert_eq(sqlite3_exec(db, TD_BACK_TO_V7 "ALTER TABLE runs DROP COLUMN loadavg;"
                                  "ALTER TABLE runs DROP COLUMN governor;"
                                  "PRAGMA user_version = 5;", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    const char *in[] = {a, old};
    char err[600] = "";
    cr_assert_eq(arena_store_merge(out, in, 2, NULL, err, sizeof err), ARENA_EINVAL);
    cr_expect(strstr(err, "schema version 5") && strstr(err, "older than this bench's"), "%s",
              err);
    struct stat st;
    cr_expect(stat(out, &st) != 0, "the output was created although an input was refused");
    /* A file that is not ours, and a missing one. */
    char junk[160];
    td_path(junk, sizeof junk, "junk.sqlite");
    FILE *f = fopen(junk, "w");
    cr_assert(f);
    fputs("not a database at all, just text long enough to be a header......\n", f);
    fclose(f);
    const char *bad[] = {junk};
    cr_expect_eq(arena_store_merge(out, bad, 1, NULL, err, sizeof err) != ARENA_OK, 1);
    cr_expect(strstr(err, junk), "%s", err);
    const char *missing[] = {"/nonexistent/x.sqlite"};
    cr_expect_eq(arena_store_merge(out, missing, 1, NULL, err, sizeof err), ARENA_EINVAL);
    cr_expect(strstr(err, "no such database file"), "%s", err);
}

/* scripts/sweep: two shards under GNU parallel, each pinned, merged; the
 * same figures as one in-process run of the same sweep, and bench's --tag
 * passed through to every shard's run. Skipped, saying why, where GNU
 * parallel or taskset is missing. */
Test(merge, scripts_sweep_equals_one_run)
{
    const char *bench_exe = getenv("ARENA_BENCH"), *sweep = getenv("ARENA_SWEEP");
    if (!bench_exe || !sweep) cr_skip_test("ARENA_BENCH / ARENA_SWEEP not set (run via meson test)");
    if (system("command -v parallel >/dev/null && command -v taskset >/dev/null") != 0)
        cr_skip_test("GNU parallel or taskset missing (scripts/bootstrap installs parallel)");
    char one[160], out[160], cmd[1024];
    td_path(one, sizeof one, "one.sqlite");
    td_path(out, sizeof out, "out.sqlite");
    const char *a0[] = {"--graph", "random-intervals:n=30,seed=1..4;chain:ops=8|12", "--planner",
                        "greedy-by-size,online-first-fit", "--repetitions", "1", "--min-time",
                        "0.001", "--quiet", "--db", one, NULL};
    cr_assert_eq(run_bench("one", a0), 0);
    snprintf(cmd, sizeof cmd,
             "BENCH='%s' '%s' -j 2 -o '%s' --graph 'random-intervals:n=30,seed=1..4;chain:ops=8|12'"
             " --planner greedy-by-size,online-first-fit --repetitions 1 --min-time 0.001"
             " --tag swept >'%s/sweep.out' 2>&1",
             bench_exe, sweep, out, td_dir);
    int rc = system(cmd);
    char *log = NULL;
    if (rc != 0) {
        char path[200];
        snprintf(path, sizeof path, "%s/sweep.out", td_dir);
        log = td_slurp(path, NULL);
    }
    cr_assert_eq(rc, 0, "scripts/sweep failed: %s", log ? log : "?");
    cr_expect_eq(count(out, "SELECT count(*) FROM runs"), 2);
    cr_expect_eq(count(out, "SELECT count(*) FROM runs WHERE tag = 'swept'"), 2);
    cr_expect_eq(count(out, "SELECT count(*) FROM results"), 12);
    char *want = content(one), *got = content(out);
    cr_expect_str_eq(got, want);
    free(want);
    free(got);
}

/* scripts/sweep called from another folder (round2 #8): a relative graph
 * file and a relative -o are the caller's, not the project root's. Two
 * problem files in the caller's folder, two shards: the merged database, its
 * shards and commands.sh land there, with a result for each file; nothing
 * of that name appears in the root (removed again if it does). */
Test(merge, scripts_sweep_resolves_paths_in_the_callers_folder)
{
    const char *bench_exe = getenv("ARENA_BENCH"), *sweep = getenv("ARENA_SWEEP");
    if (!bench_exe || !sweep) cr_skip_test("ARENA_BENCH / ARENA_SWEEP not set (run via meson test)");
    if (system("command -v parallel >/dev/null && command -v taskset >/dev/null") != 0)
        cr_skip_test("GNU parallel or taskset missing (scripts/bootstrap installs parallel)");
    char caller[160], path[600], name[96], cmd[1400];
    td_path(caller, sizeof caller, "caller");
    cr_assert_eq(mkdir(caller, 0700), 0);
    static const char *const problems[] = {"p.csv", "id,lower,upper,size\na,0,2,32\nb,1,3,16\n",
                                           "q.csv", "id,lower,upper,size\nx,0,1,8\ny,0,1,24\n"};
    for (int i = 0; i < 4; i += 2) {
        snprintf(path, sizeof path, "%s/%s", caller, problems[i]);
        FILE *f = fopen(path, "w");
        cr_assert_not_null(f, "%s", path);
        fputs(problems[i + 1], f);
        cr_assert_eq(fclose(f), 0);
    }
    /* A name no root holds: the test folder's own (arena-test-XXXXXX). */
    snprintf(name, sizeof name, "%s.sqlite", strrchr(td_dir, '/') + 1);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && BENCH='%s' '%s' -j 2 -o '%s' --graph 'p.csv;q.csv' --planner naive"
             " --repetitions 1 --min-time 0.001 >'%s/sweep.out' 2>&1",
             caller, bench_exe, sweep, name, td_dir);
    int rc = system(cmd);

    /* The root is the folder above scripts/. */
    char root[400];
    snprintf(root, sizeof root, "%s", sweep);
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(root, '/');
        cr_assert_not_null(slash, "ARENA_SWEEP %s: not a path inside scripts/", sweep);
        *slash = '\0';
    }
    struct stat st;
    snprintf(path, sizeof path, "%s/%s.shards", root, name);
    int in_root = stat(path, &st) == 0;
    snprintf(cmd, sizeof cmd, "rm -rf '%s/%s.shards' '%s/%s'", root, name, root, name);
    cr_expect_eq(system(cmd), 0);
    cr_expect_not(in_root, "scripts/sweep made %s: the project root, not the caller's folder", path);

    snprintf(path, sizeof path, "%s/sweep.out", td_dir);
    char *log = td_slurp(path, NULL);
    cr_assert_eq(rc, 0, "scripts/sweep from another folder failed: %s", log ? log : "?");
    free(log);
    snprintf(path, sizeof path, "%s/%s.shards/commands.sh", caller, name);
    cr_expect_eq(stat(path, &st), 0, "%s: missing", path);
    snprintf(path, sizeof path, "%s/%s", caller, name);
    cr_assert_eq(stat(path, &st), 0, "%s: missing", path);
    cr_expect_eq(count(path, "SELECT count(*) FROM results WHERE valid = 1"), 2);
    cr_expect_eq(count(path, "SELECT count(DISTINCT g.spec) FROM results r"
                             " JOIN graphs g ON g.id = r.graph_id"), 2);
}

/* scripts/sweep with every path odd: the caller's folder, a graph file,
 * -o and BENCH (a link to the bench) hold spaces, quotes, $, %, a
 * backslash and a tab, and the spec names the file among families. Run as
 * an argv (no shell line of the test's own): two shards, merged, one
 * result per graph, the shards' commands.sh beside the merged file. */
Test(merge, scripts_sweep_takes_paths_with_spaces_and_quotes)
{
    const char *bench_exe = getenv("ARENA_BENCH"), *sweep = getenv("ARENA_SWEEP");
    if (!bench_exe || !sweep) cr_skip_test("ARENA_BENCH / ARENA_SWEEP not set (run via meson test)");
    if (system("command -v parallel >/dev/null && command -v taskset >/dev/null") != 0)
        cr_skip_test("GNU parallel or taskset missing (scripts/bootstrap installs parallel)");
    static const char odd[] = " s 'q' \"d\" $HOME 50%a \\b\tt";
    char caller[400], path[900], bench[800], spec[800], out[400], log[200];
    snprintf(caller, sizeof caller, "%s/caller%s", td_dir, odd);
    cr_assert_eq(mkdir(caller, 0700), 0, "%s", caller);
    snprintf(path, sizeof path, "%s/p%s.csv", caller, odd);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs("id,lower,upper,size\na,0,2,32\nb,1,3,16\n", f);
    cr_assert_eq(fclose(f), 0);
    snprintf(bench, sizeof bench, "%s/bench%s", td_dir, odd);
    cr_assert_eq(symlink(bench_exe, bench), 0, "%s", bench);
    snprintf(spec, sizeof spec, "p%s.csv;chain:ops=8", odd);
    snprintf(out, sizeof out, "out%s.sqlite", odd);
    snprintf(log, sizeof log, "%s/sweep.out", td_dir);
    fflush(NULL);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        if (chdir(caller) != 0 || !freopen(log, "w", stdout) || !freopen(log, "a", stderr) ||
            setenv("BENCH", bench, 1) != 0)
            _exit(99);
        execl(sweep, sweep, "-j", "2", "-o", out, "--graph", spec, "--planner", "naive",
              "--repetitions", "1", "--min-time", "0.001", (char *)NULL);
        _exit(98);
    }
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    char *text = td_slurp(log, NULL);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "scripts/sweep: status %d: %s",
              status, text ? text : "?");
    free(text);
    snprintf(path, sizeof path, "%s/%s.shards/commands.sh", caller, out);
    struct stat info;
    cr_expect_eq(stat(path, &info), 0, "%s: missing", path);
    snprintf(path, sizeof path, "%s/%s", caller, out);
    cr_assert_eq(stat(path, &info), 0, "%s: missing", path);
    cr_expect_eq(count(path, "SELECT count(*) FROM runs"), 2);
    cr_expect_eq(count(path, "SELECT count(*) FROM results WHERE valid = 1"), 2);
    /* the file's spec as given, relative: the caller's folder was bench's */
    char want[400];
    snprintf(want, sizeof want, "p%s.csv", odd);
    sqlite3 *db = td_db_open(path, 1);
    sqlite3_stmt *st = NULL;
    cr_assert_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM graphs WHERE spec = ?1", -1, &st,
                                    NULL), SQLITE_OK);
    sqlite3_bind_text(st, 1, want, -1, SQLITE_STATIC);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_expect_eq(sqlite3_column_int64(st, 0), 1, "no graph '%s'", want);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* tests/cmd/picky, a program planner (cmd:) that fails on every problem of
 * 20 tensors and plans the others end to end; with PICKY_KILL_ONCE, it kills
 * its bench once. Its cmd: planner, f, into buf. */
static void picky_planner(const char *prefix, char *buf, size_t len)
{
    const char *picky = getenv("ARENA_PICKY");
    if (!picky) cr_skip_test("ARENA_PICKY not set (run via meson test)");
    snprintf(buf, len, "%scmd:f=sh '%s'", prefix, picky);
}

/* bench --resume and --missing (issue 43 §4): a run of 2 x 2 graphs with
 * naive and a program that fails on the n=20 ones (exit 1); --missing over
 * 3 x 2 graphs lists exactly the 4 jobs of n=40, says how many are stored
 * and names the program's invalid results; --resume runs only those 4 (a
 * second run of 4 results) and exits 1 again for the stored invalid ones;
 * once more, it runs nothing. A job in another configuration is not the
 * stored one: under another --tag all 12 run, and a program with another
 * command reruns only its own 6. */
Test(merge, resume_runs_only_what_is_not_stored_and_missing_lists_it)
{
    char db[160], planners[400], other[404];
    td_path(db, sizeof db, "r.sqlite");
    picky_planner("naive,", planners, sizeof planners);
    snprintf(other, sizeof other, "%s ", planners);
    const char *first[] = {"--graph", "random-intervals:n=20|30,seed=1..2", "--planner", planners,
                           "--repetitions", "1", "--min-time", "0.001", "--quiet", "--db", db,
                           NULL};
    cr_assert_eq(run_bench("first", first), 1, "%s", run_bench_output("first", "err"));
    char *err = run_bench_output("first", "err");
    cr_expect(strstr(err, "bench: the run went to its end: invalid results (stored with valid ="
                          " 0): f on 2 of 4 graphs\n"), "%s", err);
    free(err);
#define MORE "--graph", "random-intervals:n=20|30|40,seed=1..2", "--repetitions", "1", \
             "--min-time", "0.001", "--quiet", "--db", db
    const char *missing[] = {MORE, "--planner", planners, "--missing", NULL};
    cr_assert_eq(run_bench("missing", missing), 0, "%s", run_bench_output("missing", "err"));
    char *out = run_bench_output("missing", "out");
    err = run_bench_output("missing", "err");
    size_t lines = 0;
    for (const char *p = out; (p = strchr(p, '\n')); p++) lines++;
    cr_expect_eq(lines, 4, "%s", out);
    cr_expect(strstr(out, "random-intervals:n=40,live=10,life=uniform,sizes=loguniform,min=16,"
                          "max=65536,seed=2\tf\n"), "%s", out);
    cr_expect_null(strstr(out, "n=30"), "%s", out);
    cr_expect(strstr(err, " holds 8 of the 12 jobs"), "%s", err);
    cr_expect(strstr(err, "invalid results (stored with valid = 0): f on 2 of 6 graphs"), "%s", err);
    free(out);
    free(err);
    cr_expect_eq(count(db, "SELECT count(*) FROM runs"), 1, "--missing stored a run");
    const char *resume[] = {MORE, "--planner", planners, "--resume", NULL};
    for (int round = 0; round < 2; round++) {
        cr_expect_eq(run_bench("resume", resume), 1, "%s", run_bench_output("resume", "err"));
        cr_expect_eq(count(db, "SELECT count(*) FROM runs"), 2);
        cr_expect_eq(count(db, "SELECT count(*) FROM results"), 12);
        cr_expect_eq(count(db, "SELECT count(*) FROM results r JOIN graphs g ON g.id = r.graph_id"
                               " WHERE r.run_id = 2 AND g.tensors = 40"), 4);
        err = run_bench_output("resume", "err");
        cr_expect(strstr(err, round ? "12 of the 12 jobs already stored" : "8 of the 12 jobs"
                                                                             " already stored"),
                  "%s", err);
        cr_expect(strstr(err, "f on 2 of 6 graphs"), "%s", err);
        free(err);
    }
    const char *tagged[] = {MORE, "--planner", planners, "--resume", "--tag", "x", NULL};
    cr_expect_eq(run_bench("tagged", tagged), 1);
    cr_expect_eq(count(db, "SELECT count(*) FROM results"), 24);
    const char *changed[] = {MORE, "--planner", other, "--resume", NULL};
    cr_expect_eq(run_bench("changed", changed), 1);
    cr_expect_eq(count(db, "SELECT count(*) FROM results"), 30);
    cr_expect_eq(count(db, "SELECT count(*) FROM results WHERE run_id = 4 AND planner = 'f'"), 6);
#undef MORE
}

/* Issue 43 §4, round 4 #10: a sweep survives a failing planner and a
 * killed shard. Two shards over 9 graphs x 3 planners; the program f fails
 * on the three n=20 graphs (its shards exit 1: results, not failures) and,
 * once, kills its bench on an n=40 graph. The sweep runs the other shard
 * to its end (all its jobs stored), merges what both stored, names the
 * killed shard, f's invalid results and the first missing job (the one
 * killed), and exits 3; the same command again resumes: only the missing
 * jobs run (no job stored twice in the shards), the merge is whole (27
 * results) and the exit status is 1 (every job stored, f invalid on 3).
 * At 3cf04c5 the first exit of 1 had parallel kill the other shard, and no
 * merge was written. */
Test(merge, a_sweep_survives_a_killed_shard_and_resumes, .timeout = 300)
{
    const char *bench_exe = getenv("ARENA_BENCH"), *sweep = getenv("ARENA_SWEEP");
    if (!bench_exe || !sweep) cr_skip_test("ARENA_BENCH / ARENA_SWEEP not set (run via meson test)");
    if (system("command -v parallel >/dev/null && command -v taskset >/dev/null") != 0)
        cr_skip_test("GNU parallel or taskset missing (scripts/bootstrap installs parallel)");
    char planners[400], out[160], cmd[2000], log[200], marker[200];
    picky_planner("greedy-by-size,online-first-fit,", planners, sizeof planners);
    td_path(out, sizeof out, "o.sqlite");
    td_path(log, sizeof log, "sweep.err");
    td_path(marker, sizeof marker, "killed.once");
    snprintf(cmd, sizeof cmd,
             "cd '%s' && PICKY_KILL_ONCE='%s' BENCH='%s' '%s' -j 2 -o o.sqlite"
             " --graph 'random-intervals:n=20|30|40,seed=1..3' --planner \"%s\" --repetitions 1"
             " --min-time 0.001 >/dev/null 2>'%s'",
             td_dir, marker, bench_exe, sweep, planners, log);
    int status = system(cmd);
    char *text = td_slurp(log, NULL);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 3, "sweep: status %d, want exit 3: %s",
              status, text);
    cr_expect(strstr(text, " of 2 was killed by signal 9; what it stored is merged"), "%s", text);
    cr_expect(strstr(text, "sweep: invalid results (stored with valid = 0): f on 3 of 9 graphs"),
              "%s", text);
    cr_expect(strstr(text, "sweep:   random-intervals:n=40,"), "%s", text);
    cr_expect(strstr(text, "rerun the same command to resume"), "%s", text);
    free(text);
    int64_t merged = count(out, "SELECT count(*) FROM results");
    cr_expect(merged > 0 && merged < 27, "%lld results merged", (long long)merged);
    /* The shard not killed went to its end: its database lacks nothing. */
    int whole = 0;
    for (int k = 1; k <= 2; k++) {
        char shard[200], part[8];
        snprintf(shard, sizeof shard, "%s.shards/shard-%d-of-2.sqlite", out, k);
        snprintf(part, sizeof part, "%d/2", k);
        const char *check[] = {"--graph", "random-intervals:n=20|30|40,seed=1..3", "--planner",
                               planners, "--repetitions", "1", "--min-time", "0.001", "--shard",
                               part, "--db", shard, "--missing", NULL};
        cr_assert_eq(run_bench("check", check), 0);
        char *lacks = run_bench_output("check", "out");
        whole += lacks[0] == '\0';
        free(lacks);
    }
    cr_expect_eq(whole, 1, "want one shard whole and one cut short");
    cr_expect_eq(count(out, "SELECT count(*) FROM results WHERE planner = 'f' AND valid = 0"), 3);

    status = system(cmd);
    text = td_slurp(log, NULL);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 1, "rerun: status %d, want exit 1: %s",
              status, text);
    cr_expect(strstr(text, "sweep: resuming the sweep in o.sqlite.shards/"), "%s", text);
    cr_expect(strstr(text, "f on 3 of 9 graphs"), "%s", text);
    free(text);
    cr_expect_eq(count(out, "SELECT count(*) FROM results"), 27);
    cr_expect_eq(count(out, "SELECT count(*) FROM (SELECT DISTINCT graph_id, planner FROM"
                            " results)"), 27);
    /* Nothing redone: the shards together hold each job once. */
    int64_t in_shards = 0;
    for (int k = 1; k <= 2; k++) {
        char shard[200];
        snprintf(shard, sizeof shard, "%s.shards/shard-%d-of-2.sqlite", out, k);
        in_shards += count(shard, "SELECT count(*) FROM results");
    }
    cr_expect_eq(in_shards, 27);
}
