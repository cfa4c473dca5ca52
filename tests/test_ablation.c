/* test_ablation.c — issue 44: a sweep over planner keys, end to end. Two
 * shards of one bench sweep over optimal:off=none|stack|stack+twins and
 * hill-climb:seed=1..5 on three small graphs, merged by bench merge, then
 * read by bench stats and drawn by bench plot: every planner spec is a
 * planner of its own in the merged database, and every label (the stats
 * table's, the figures' gnuplot scripts and their PDF text read back with
 * pdftotext, the Markdown and LaTeX tables) names the key that varies and
 * no other ("optimal, off=stack", "hill-climb, seed=3"), never the keys
 * every spec of the planner shares (optimal's engine, hill-climb's rounds).
 * --label names a spec with a set's names in the order the user writes them.
 * Small budgets: optimal's node limit, 2 s a search. */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_bench.h"
#include "tests/tmpdb.h"

TestSuite(ablation, .init = td_make_dir, .fini = td_remove_dir);

/* off's values as canonical specs write them (optimal's table order) */
static const char *const offs[] = {"none", "stack", "twins+stack"};

/* Shards 1 and 2 of the sweep, merged into td_dir/sweep.sqlite (into db). */
static void sweep_and_merge(char *db, size_t len)
{
    char shard[2][160];
    for (int k = 0; k < 2; k++) {
        char part[8], tag[16];
        snprintf(part, sizeof part, "%d/2", k + 1);
        snprintf(tag, sizeof tag, "shard%d", k + 1);
        snprintf(shard[k], sizeof shard[k], "%s/shard-%d.sqlite", td_dir, k + 1);
        int rc = run_bench(tag, (const char *[]){
            "--graph", "random-intervals:n=12,seed=1..3", "--planner",
            "optimal:off=none|stack|stack+twins", "--planner", "hill-climb:seed=1..5",
            "--node-limit", "20000", "--time-limit", "2", "--repetitions", "1", "--shard", part,
            "--db", shard[k], "--quiet", "--progress", "never", NULL});
        char *err = run_bench_output(tag, "err");
        cr_assert_eq(rc, 0, "shard %d exited %d: %s", k + 1, rc, err);
        free(err);
    }
    snprintf(db, len, "%s/sweep.sqlite", td_dir);
    int rc = run_bench("merge", (const char *[]){"merge", db, shard[0], shard[1], NULL});
    char *err = run_bench_output("merge", "err");
    cr_assert_eq(rc, 0, "bench merge exited %d: %s", rc, err);
    free(err);
}

/* Whether text holds every label of the sweep, and no key shared by all the
 * specs of a planner. */
static void expect_labels(const char *what, const char *text, const char *fmt_optimal,
                          const char *fmt_seed)
{
    char want[96];
    for (size_t i = 0; i < 3; i++) {
        snprintf(want, sizeof want, fmt_optimal, offs[i]);
        cr_expect(strstr(text, want) != NULL, "%s: no '%s'", what, want);
    }
    for (int seed = 1; seed <= 5; seed++) {
        snprintf(want, sizeof want, fmt_seed, seed);
        cr_expect(strstr(text, want) != NULL, "%s: no '%s'", what, want);
    }
    cr_expect(strstr(text, "engine=") == NULL, "%s: names optimal's engine, the same in all", what);
    cr_expect(strstr(text, "rounds=") == NULL, "%s: names hill-climb's rounds, the same in all",
              what);
}

Test(ablation, a_sweep_over_keys_goes_through_merge_stats_and_plot_labelled_by_its_key)
{
    char db[200];
    sweep_and_merge(db, sizeof db);

    /* 3 graphs x (3 + 5) specs, each its own planner; one spec per value */
    sqlite3 *h = td_db_open(db, 1);
    cr_expect_eq(td_db_int(h, "SELECT count(*) FROM results"), 24);
    cr_expect_eq(td_db_int(h, "SELECT count(DISTINCT planner_spec) FROM results"), 8);
    cr_expect_eq(td_db_int(h, "SELECT count(DISTINCT planner_spec) FROM results WHERE planner ="
                              " 'optimal' AND planner_spec LIKE 'optimal:%off=twins+stack%'"),
                 1);
    cr_expect_eq(td_db_int(h, "SELECT count(*) FROM results WHERE planner = 'hill-climb' AND"
                              " planner_spec LIKE 'hill-climb:%seed=4%'"),
                 3);
    sqlite3_close(h);

    /* bench stats: a row per spec, labelled by the key that varies */
    int rc = run_bench("stats", (const char *[]){"stats", "--db", db, "--run", "all", NULL});
    char *out = run_bench_output("stats", "out");
    cr_assert_eq(rc, 0, "bench stats exited %d", rc);
    expect_labels("bench stats", out, "optimal, off=%s ", "hill-climb, seed=%d ");
    free(out);

    /* bench plot: the figures' scripts, their PDF text, the tables */
    char dir[200], path[300], cmd[1024];
    snprintf(dir, sizeof dir, "%s/charts", td_dir);
    rc = run_bench("plot", (const char *[]){"plot", "--db", db, "--run", "all", "--figures",
                                            "quality,stats,tables", "--format", "pdf", "--size",
                                            "two", "--out", dir, "--quiet", NULL});
    char *err = run_bench_output("plot", "err");
    cr_assert_eq(rc, 0, "bench plot exited %d: %s", rc, err);
    free(err);
    const char *gp[] = {"quality.gp", "stats.gp"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, gp[i]);
        char *text = td_slurp(path, NULL);
        cr_assert_not_null(text, "no %s", path);
        expect_labels(path, text, "optimal, off=%s", "hill-climb, seed=%d");
        free(text);
    }
    const char *pdf[] = {"quality-2col.pdf", "stats-2col.pdf"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s.txt", dir, pdf[i]);
        snprintf(cmd, sizeof cmd, "pdftotext -layout '%s/%s' '%s'", dir, pdf[i], path);
        cr_assert_eq(system(cmd), 0, "%s failed", cmd);
        char *text = td_slurp(path, NULL);
        cr_assert_not_null(text, "no %s", path);
        expect_labels(path, text, "optimal, off=%s", "hill-climb, seed=%d");
        free(text);
    }
    snprintf(path, sizeof path, "%s/comparison.md", dir);
    char *md = td_slurp(path, NULL);
    cr_assert_not_null(md, "no %s", path);
    expect_labels(path, md, "| optimal, off=%s |", "| hill-climb, seed=%d |");
    free(md);

    /* --label SPEC=TEXT: a spec names one planner; the name renames them all */
    rc = run_bench("label", (const char *[]){"plot", "--db", db, "--run", "all", "--figures",
                                             "tables", "--out", dir, "--quiet", "--label",
                                             "optimal:off=stack+twins=Both rules off", "--label",
                                             "hill-climb=HC", NULL});
    cr_assert_eq(rc, 0, "bench plot --label exited %d", rc);
    md = td_slurp(path, NULL);
    cr_assert_not_null(md);
    cr_expect(strstr(md, "| Both rules off |") != NULL, "%s: the spec's label is missing", path);
    cr_expect(strstr(md, "| optimal, off=stack |") != NULL, "%s: another spec was renamed", path);
    cr_expect(strstr(md, "| HC, seed=2 |") != NULL, "%s: the name's label lost its seed", path);
    free(md);
}

/* bench's own outputs (table, CSV, JSON) tell a sweep's specs apart as
 * stats does, and the CSV and JSON carry each row's whole spec. */
Test(ablation, bench_run_names_each_spec_of_a_sweep_by_its_key)
{
    int rc = run_bench("table", (const char *[]){
        "--graph", "random-intervals:n=12,seed=1", "--planner", "hill-climb:seed=1..3",
        "--planner", "greedy-by-size", "--repetitions", "1", "--no-db", "--progress", "never",
        NULL});
    char *out = run_bench_output("table", "out");
    cr_assert_eq(rc, 0, "bench exited %d", rc);
    for (int seed = 1; seed <= 3; seed++) {
        char want[40];
        snprintf(want, sizeof want, "  hill-climb, seed=%d ", seed);
        cr_expect(strstr(out, want) != NULL, "table: no '%s' in\n%s", want, out);
    }
    cr_expect(strstr(out, "  greedy-by-size ") != NULL, "table: greedy-by-size not by its name");
    cr_expect(strstr(out, "rounds=") == NULL, "table: names a key every spec shares");
    free(out);

    rc = run_bench("csv", (const char *[]){
        "--graph", "random-intervals:n=12,seed=1", "--planner", "hill-climb:seed=1..2",
        "--repetitions", "1", "--no-db", "--progress", "never", "--format", "csv", NULL});
    out = run_bench_output("csv", "out");
    cr_assert_eq(rc, 0, "bench --format csv exited %d", rc);
    cr_expect(strstr(out, ",\"hill-climb, seed=2\",") != NULL, "csv: no label of seed 2 in\n%s",
              out);
    free(out);

    rc = run_bench("json", (const char *[]){
        "--graph", "random-intervals:n=12,seed=1", "--planner", "hill-climb:seed=1..2",
        "--repetitions", "1", "--no-db", "--progress", "never", "--format", "json", NULL});
    out = run_bench_output("json", "out");
    cr_assert_eq(rc, 0, "bench --format json exited %d", rc);
    cr_expect(strstr(out, "\"planner\": \"hill-climb, seed=1\", \"planner_spec\": "
                          "\"hill-climb:seed=1,rounds=500\"") != NULL,
              "json: no label and spec of seed 1 in\n%s", out);
    free(out);
}
