/* test_stats.c — results/stats.c on a database worked by hand, and the
 * bootstrap on data whose intervals are known.
 *
 * The database (family "test", params "n=3,seed=S", so one group "test:n=3"
 * of two seeds, plus a group "test:n=9" of one graph):
 *   graph 1 (seed 1): LB 100; C, a search planner, proves bound 105.
 *       A 105, B 120, C 105 (bound 105). An older run's A 150 (smaller id)
 *       is superseded; an invalid D is ignored.
 *   graph 2 (seed 2): LB 200, no bound above it (C's bound 200).
 *       A 220, B 200, C 200.
 *   graph 3 (n=9): LB 50. A 60.
 * So in test:n=3 (best known bound: 105 and 200):
 *   A x LB: 1.05, 1.10 -> mean 1.075, median 1.075; x best: 1.0, 1.1 -> 1.05
 *   B x LB: 1.20, 1.00 -> mean 1.10;  x best: 120/105, 1.0 -> (8/7 + 1) / 2
 *   C x LB: 1.05, 1.00 -> mean 1.025; x best: 1.0, 1.0 -> 1.0
 *   A vs B: graph 1 win (105 < 120), graph 2 loss (220 > 200): 1/0/1
 *   A vs C: tie, loss: 0/1/1;  B vs C: loss, tie: 0/1/1; and mirrored.
 * Two samples {x, y}: a resample's mean is x, (x+y)/2 or y with
 * probabilities 1/4, 1/2, 1/4, so among 2000 resamples the 51st smallest is
 * x and the 51st largest y (fewer than 51 of 2000 at x has probability below
 * 10^-400): the interval is [min, max]. One sample: [x, x]. */
#include <criterion/criterion.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "results/stats.h"
#include "results/store.h"
#include "tests/tmpdb.h"

TestSuite(stats, .init = td_make_dir, .fini = td_remove_dir);

static const char rows[] =
    "INSERT INTO runs (id, started_at, git_rev, compiler, cpu, host, command, seed)"
    " VALUES (1, 't', 'g', 'c', 'cpu', 'h', 'old', 1), (2, 't', 'g', 'c', 'cpu', 'h', 'new', 1);"
    "INSERT INTO graphs (id, spec, family, params, fingerprint, alignment, ops, tensors,"
    " naive_bytes, lower_bound) VALUES"
    " (1, 'test:n=3,seed=1', 'test', 'n=3,seed=1', '01', 16, 0, 3, 400, 100),"
    " (2, 'test:n=3,seed=2', 'test', 'n=3,seed=2', '02', 16, 0, 3, 800, 200),"
    " (3, 'test:n=9,seed=1', 'test', 'n=9,seed=1', '03', 16, 0, 9, 90, 50);"
    "INSERT INTO results (id, run_id, graph_id, planner, arena_bytes, valid, bound, status)"
    " VALUES (1, 1, 1, 'A', 150, 1, 100, 'feasible'),"
    " (2, 2, 1, 'A', 105, 1, 100, 'feasible'),"
    " (3, 2, 1, 'B', 120, 1, 100, 'feasible'),"
    " (4, 2, 1, 'C', 105, 1, 105, 'optimal'),"
    " (5, 2, 1, 'D', NULL, 0, NULL, NULL),"
    " (6, 2, 2, 'A', 220, 1, 200, 'feasible'),"
    " (7, 2, 2, 'B', 200, 1, 200, 'optimal'),"
    " (8, 2, 2, 'C', 200, 1, 200, 'optimal'),"
    " (9, 2, 3, 'A', 60, 1, 50, 'feasible');";

static void make(char *path, size_t len)
{
    td_path(path, len, "s.sqlite");
    struct arena_store *s = NULL;
    char err[300] = "";
    cr_assert_eq(arena_store_open(path, NULL, NULL, &s, err, sizeof err), ARENA_OK, "%s", err);
    arena_store_close(s);
    sqlite3 *db = td_db_open(path, 0);
    char *msg = NULL;
    cr_assert_eq(sqlite3_exec(db, rows, NULL, NULL, &msg), SQLITE_OK, "%s", msg);
    sqlite3_close(db);
}

#define NEAR(a, b) (fabs((a) - (b)) < 1e-12)

static void expect_stat(const struct arena_stat *s, double mean, double median, double lo,
                        double hi, const char *what)
{
    cr_expect(NEAR(s->mean, mean), "%s mean %.15g, want %.15g", what, s->mean, mean);
    cr_expect(NEAR(s->median, median), "%s median %.15g, want %.15g", what, s->median, median);
    cr_expect(NEAR(s->mean_lo, lo) && NEAR(s->mean_hi, hi), "%s mean CI [%g, %g], want [%g, %g]",
              what, s->mean_lo, s->mean_hi, lo, hi);
    cr_expect(NEAR(s->median_lo, lo) && NEAR(s->median_hi, hi),
              "%s median CI [%g, %g], want [%g, %g]", what, s->median_lo, s->median_hi, lo, hi);
}

Test(stats, hand_worked_database)
{
    char path[160];
    make(path, sizeof path);
    struct arena_stats s;
    char err[300] = "";
    cr_assert_eq(arena_stats_compute(path, &s, err, sizeof err), ARENA_OK, "%s", err);
    /* Groups in name order, planners in name order: n=3 A, B, C; n=9 A. */
    cr_assert_eq(s.n_rows, 4);
    const char *group[] = {"test:n=3", "test:n=3", "test:n=3", "test:n=9"};
    const char *planner[] = {"A", "B", "C", "A"};
    for (size_t i = 0; i < 4; i++) {
        cr_expect_str_eq(s.rows[i].group, group[i]);
        cr_expect_str_eq(s.rows[i].planner, planner[i]);
    }
    cr_expect_eq(s.rows[0].n, 2, "A's older 150 is superseded by the newer 105");
    cr_expect_eq(s.rows[3].n, 1);
    expect_stat(&s.rows[0].lb, 1.075, 1.075, 1.05, 1.10, "A x LB");
    expect_stat(&s.rows[1].lb, 1.10, 1.10, 1.00, 1.20, "B x LB");
    expect_stat(&s.rows[2].lb, 1.025, 1.025, 1.00, 1.05, "C x LB");
    cr_expect(s.rows[0].has_best && s.rows[1].has_best && s.rows[2].has_best);
    expect_stat(&s.rows[0].best, 1.05, 1.05, 1.0, 1.1, "A x best");
    expect_stat(&s.rows[1].best, (120.0 / 105 + 1) / 2, (120.0 / 105 + 1) / 2, 1.0, 120.0 / 105,
                "B x best");
    expect_stat(&s.rows[2].best, 1.0, 1.0, 1.0, 1.0, "C x best");
    cr_expect_not(s.rows[3].has_best, "graph 3 has no bound above its LB");
    expect_stat(&s.rows[3].lb, 1.2, 1.2, 1.2, 1.2, "n=9 A x LB");
    /* Pairs of test:n=3 in row order: A-B, A-C, B-A, B-C, C-A, C-B. */
    cr_assert_eq(s.n_pairs, 6);
    const uint64_t want[6][3] = {{1, 0, 1}, {0, 1, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 0}, {1, 1, 0}};
    const size_t rowcol[6][2] = {{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}};
    for (size_t i = 0; i < 6; i++) {
        cr_expect_eq(s.pairs[i].row, rowcol[i][0]);
        cr_expect_eq(s.pairs[i].other, rowcol[i][1]);
        cr_expect(s.pairs[i].wins == want[i][0] && s.pairs[i].ties == want[i][1] &&
                      s.pairs[i].losses == want[i][2],
                  "pair %zu: %llu/%llu/%llu", i, (unsigned long long)s.pairs[i].wins,
                  (unsigned long long)s.pairs[i].ties, (unsigned long long)s.pairs[i].losses);
    }
    arena_stats_free(&s);
}

/* 1..9: mean 5, median 5; the intervals lie inside [1, 9], contain the
 * estimate and are narrower than the range; the same seed gives the same
 * figures every time. */
Test(stats, bootstrap_is_seeded_and_sensible)
{
    double x[9] = {9, 1, 8, 2, 7, 3, 6, 4, 5}, y[9];
    memcpy(y, x, sizeof x);
    struct arena_stat a, b;
    cr_assert_eq(arena_stats_describe(x, 9, &a), ARENA_OK);
    cr_assert_eq(arena_stats_describe(y, 9, &b), ARENA_OK);
    cr_expect(NEAR(a.mean, 5) && NEAR(a.median, 5));
    cr_expect(a.mean_lo > 1 && a.mean_lo < 5 && a.mean_hi > 5 && a.mean_hi < 9, "[%g, %g]",
              a.mean_lo, a.mean_hi);
    cr_expect(a.median_lo >= 1 && a.median_lo <= 5 && a.median_hi >= 5 && a.median_hi <= 9);
    cr_expect(memcmp(&a, &b, sizeof a) == 0, "same seed, same figures");
}

Test(stats, refuses_what_is_not_a_results_database)
{
    char path[160];
    td_path(path, sizeof path, "other.sqlite");
    sqlite3 *db = td_db_open(path, 0);
    cr_assert_eq(sqlite3_exec(db, "CREATE TABLE t (x);", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    struct arena_stats s;
    char err[300] = "";
    cr_expect_eq(arena_stats_compute(path, &s, err, sizeof err), ARENA_EDB);
    cr_expect(strstr(err, path) && !strchr(err, '\n'), "%s", err);
    arena_stats_free(&s);
}
