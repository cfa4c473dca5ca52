/* test_bench.c — the bench command end to end, run in child processes
 * (arena_bench_main, the same code as the executable) against real SQLite
 * files in a temporary folder: the rows a run leaves, placements that pass
 * the independent validator when read back, the output formats, input
 * errors, two processes writing one database, and SIGINT in the middle of a
 * run keeping every finished row intact. */
#include <criterion/criterion.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/suites.h"
#include "graphs/source.h"
#include "planners/planner.h"
#include "results/store.h"
#include "tests/tmpdb.h"

TestSuite(bench, .init = td_make_dir, .fini = td_remove_dir, .timeout = 240);

/* Starts bench in a child with stdout and stderr going to files in dir:
 * the whole command, or, when planners is not NULL, the parsed command run
 * with those tables instead of the ones named on it. */
static pid_t spawn_with(const char *tag, const char *const *args,
                        const struct arena_planner *const *planners, size_t n_planners)
{
    char out[160], err[160];
    snprintf(out, sizeof out, "%s/%s.out", td_dir, tag);
    snprintf(err, sizeof err, "%s/%s.err", td_dir, tag);
    fflush(NULL);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr)) _exit(99);
        char *argv[40];
        int argc = 0;
        argv[argc++] = (char *)"bench";
        for (; args[argc - 1] && argc < 39; argc++) argv[argc] = (char *)args[argc - 1];
        argv[argc] = NULL;
        int rc;
        if (!planners) {
            rc = arena_bench_main(argc, argv);
        } else {
            struct arena_bench_args a;
            char why[300] = "";
            if (arena_bench_args_parse(argc, argv, &a, why, sizeof why) != ARENA_OK) {
                fprintf(stderr, "test: %s\n", why);
                _exit(98);
            }
            const struct arena_planner **named = a.planners;
            size_t n_named = a.n_planners;
            a.planners = (const struct arena_planner **)planners;
            a.n_planners = n_planners;
            rc = arena_bench_run(&a, argc, argv);
            a.planners = named;
            a.n_planners = n_named;
            arena_bench_args_free(&a);
        }
        fflush(NULL); /* _exit does not flush, and the files are buffered */
        _exit(rc);
    }
    return pid;
}

static pid_t spawn(const char *tag, const char *const *args)
{
    return spawn_with(tag, args, NULL, 0);
}

static int finish(pid_t pid)
{
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status), "bench died with status %d", status);
    return WEXITSTATUS(status);
}

static int run(const char *tag, const char *const *args)
{
    return finish(spawn(tag, args));
}

/* What bench wrote to tag.ext in the folder (out, err, or another file). */
static char *slurp(const char *tag, const char *ext)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s.%s", td_dir, tag, ext);
    char *text = td_slurp(path, NULL);
    cr_assert(text, "no %s", path);
    return text;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* Reads every stored result back: its placements give the problem and the
 * plan, which must pass the independent validator, reproduce the stored
 * arena, and have the graph's fingerprint. Returns the number checked. */
static size_t check_placements(sqlite3 *db)
{
    sqlite3_stmt *res = NULL, *pl = NULL;
    cr_assert_eq(sqlite3_prepare_v2(db,
                                    "SELECT r.id, r.arena_bytes, g.tensors, g.fingerprint,"
                                    " g.alignment, g.lower_bound, g.naive_bytes, r.planner"
                                    " FROM results r JOIN graphs g ON g.id = r.graph_id",
                                    -1, &res, NULL),
                 SQLITE_OK);
    cr_assert_eq(sqlite3_prepare_v2(db,
                                    "SELECT tensor, size, first, last, offset FROM placements"
                                    " WHERE result_id = ? ORDER BY tensor",
                                    -1, &pl, NULL),
                 SQLITE_OK);
    size_t checked = 0;
    while (sqlite3_step(res) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(res, 0);
        uint64_t arena = (uint64_t)sqlite3_column_int64(res, 1);
        size_t n = (size_t)sqlite3_column_int64(res, 2);
        char fp[17];
        snprintf(fp, sizeof fp, "%s", (const char *)sqlite3_column_text(res, 3));
        uint64_t alignment = (uint64_t)sqlite3_column_int64(res, 4);
        uint64_t lb = (uint64_t)sqlite3_column_int64(res, 5);
        uint64_t naive = (uint64_t)sqlite3_column_int64(res, 6);
        char planner[64];
        snprintf(planner, sizeof planner, "%s", (const char *)sqlite3_column_text(res, 7));

        struct arena_tensor *t = calloc(n ? n : 1, sizeof *t);
        uint64_t *off = calloc(n ? n : 1, sizeof *off);
        cr_assert(t && off);
        sqlite3_bind_int64(pl, 1, id);
        size_t rows = 0;
        while (sqlite3_step(pl) == SQLITE_ROW) {
            size_t i = (size_t)sqlite3_column_int64(pl, 0);
            cr_assert_eq(i, rows, "placements of result %lld are tensors 0..n-1", (long long)id);
            t[i].size = (uint64_t)sqlite3_column_int64(pl, 1);
            t[i].first = (uint32_t)sqlite3_column_int64(pl, 2);
            t[i].last = (uint32_t)sqlite3_column_int64(pl, 3);
            off[i] = (uint64_t)sqlite3_column_int64(pl, 4);
            rows++;
        }
        sqlite3_reset(pl);
        cr_expect_eq(rows, n, "result %lld has %zu of %zu placements", (long long)id, rows, n);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = alignment};
        struct arena_plan plan = {.n = n, .offsets = off, .arena = arena};
        struct arena_collision why;
        cr_expect_eq(arena_plan_validate(&p, &plan, &why), ARENA_OK,
                     "%s: stored plan of result %lld fails the validator", planner,
                     (long long)id);
        char want[17];
        snprintf(want, sizeof want, "%016llx", (unsigned long long)arena_problem_fingerprint(&p));
        cr_expect_str_eq(want, fp, "%s: placements rebuild the graph's problem", planner);
        cr_expect(arena >= lb && arena <= naive, "%s: lb %llu <= arena %llu <= naive %llu",
                  planner, (unsigned long long)lb, (unsigned long long)arena,
                  (unsigned long long)naive);
        if (strcmp(planner, "naive") == 0) cr_expect_eq(arena, naive);
        free(t);
        free(off);
        checked++;
    }
    sqlite3_finalize(res);
    sqlite3_finalize(pl);
    return checked;
}

Test(bench, a_run_stores_runs_graphs_results_and_valid_placements)
{
    char db_path[160];
    td_path(db_path, sizeof db_path, "sub/dir/a.sqlite"); /* directories are created */
    const char *args[] = {"--graph", "chain:ops=8;residual:ops=12,skip=3", "--planner", "all",
                          "--db", db_path, "--repetitions", "2", "--min-time", "0.001",
                          "--seed", "77", NULL};
    cr_assert_eq(run("a", args), 0, "%s", slurp("a", "err"));
    char *err = slurp("a", "err");
    cr_expect_str_eq(err, "", "no progress or messages when stderr is not a terminal");
    free(err);
    char *out = slurp("a", "out");
    cr_expect_eq(count(out, "chain:ops=8"), 1, "one table header per graph");
    cr_expect_eq(count(out, "   yes "), 2 * arena_planner_count());
    free(out);

    sqlite3 *db = td_db_open(db_path, 1);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM runs"), 1);
    cr_expect_eq(td_db_int(db, "SELECT seed FROM runs"), 77);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM runs WHERE started_at GLOB"
                            " '20[0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'"
                            " AND command GLOB 'bench --graph *' AND length(git_rev) > 0"
                            " AND length(cpu) > 0 AND length(host) > 0 AND length(compiler) > 0"),
                 1);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM graphs"), 2);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM graphs WHERE family = 'chain' AND spec GLOB"
                            " 'chain:ops=8*' AND ops = 8"),
                 1);
    int64_t planners = (int64_t)arena_planner_count();
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results"), 2 * planners);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE valid = 1 AND error IS NULL"
                            " AND plan_ns_median > 0 AND plan_ns_mean > 0"
                            " AND plan_ns_stddev >= 0 AND iterations >= 2"
                            " AND ratio_lb >= 1.0 AND saving >= 0 AND frag_peak >= 0"),
                 2 * planners);
    cr_expect_eq(td_db_int(db, "SELECT count(DISTINCT planner) FROM results"), planners);
    cr_expect_eq(check_placements(db), (size_t)(2 * planners));
    sqlite3_close(db);

    /* A second run appends a run and reuses the graph rows. */
    cr_assert_eq(run("a2", args), 0);
    db = td_db_open(db_path, 1);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM runs"), 2);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM graphs"), 2);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results"), 4 * planners);
    sqlite3_close(db);
}

Test(bench, csv_has_the_exact_header_and_a_row_per_graph_and_planner)
{
    const char *args[] = {"--graph", "chain:ops=5,unet:levels=2", "--planner",
                          "naive,greedy-by-size", "--format", "csv", "--no-db",
                          "--repetitions", "2", "--min-time", "0.001", NULL};
    cr_assert_eq(run("c", args), 0, "%s", slurp("c", "err"));
    char *out = slurp("c", "out");
    const char *header = "graph,planner,tensors,naive_bytes,lower_bound,arena_bytes,ratio_lb,"
                         "saving,frag_peak,frag_mean,plan_ns_median,plan_ns_mean,plan_ns_stddev,"
                         "scratch_bytes,valid,noisy,timed_once,status,bound,gap,nodes\n";
    cr_expect_eq(strncmp(out, header, strlen(header)), 0, "%s", out);
    cr_expect_eq(count(out, "\n"), 1 + 4);
    /* Specs hold commas, so the graph field is quoted; 21 fields per row. */
    char *line = strchr(out, '\n') + 1;
    cr_expect_eq(line[0], '"');
    const char *after = strchr(line + 1, '"');
    cr_assert(after);
    size_t commas = 0;
    for (const char *p = after; *p && *p != '\n'; p++) commas += *p == ',';
    cr_expect_eq(commas, 20);
    cr_expect(strstr(line, ",naive,") != NULL);
    free(out);
}

Test(bench, json_is_an_array_with_an_object_per_result)
{
    const char *args[] = {"--graph", "chain:ops=5", "--planner", "naive,ping-pong", "--format",
                          "json", "--no-db", "--repetitions", "1", "--min-time", "0.001", NULL};
    cr_assert_eq(run("j", args), 0, "%s", slurp("j", "err"));
    char *out = slurp("j", "out");
    cr_expect_eq(out[0], '[');
    cr_expect(strstr(out, "]\n") != NULL && strstr(out, "]\n")[2] == '\0');
    cr_expect_eq(count(out, "\"planner\": "), 2);
    cr_expect_eq(count(out, "\"valid\": true"), 2);
    cr_expect_eq(count(out, "\"plan_ns_stddev\": null"), 2, "one repetition has no stddev");
    free(out);
}

Test(bench, input_errors_exit_2_with_one_line_and_touch_no_database)
{
    char db_path[160];
    td_path(db_path, sizeof db_path, "never.sqlite");
    const char *bad_graph[] = {"--graph", "chain:ops=4,nosuchfamily", "--db", db_path, NULL};
    cr_expect_eq(run("e1", bad_graph), 2);
    char *err = slurp("e1", "err");
    cr_expect(strstr(err, "bench: --graph 'nosuchfamily': ") == err, "%s", err);
    cr_expect_eq(count(err, "\n"), 1, "%s", err);
    free(err);
    struct stat st;
    cr_expect_neq(stat(db_path, &st), 0, "no database is created for a bad command");

    const char *bad_file[] = {"--graph", "/nonexistent/problem.csv", "--db", db_path, NULL};
    cr_expect_eq(run("e2", bad_file), 2);
    err = slurp("e2", "err");
    cr_expect(strstr(err, "/nonexistent/problem.csv") != NULL, "%s", err);
    free(err);

    const char *bad_option[] = {"--graph", "chain", "--alignment", "3", NULL};
    cr_expect_eq(run("e3", bad_option), 2);
    err = slurp("e3", "err");
    cr_expect_str_eq(err, "bench: --alignment: '3' is not a power of two from 1 to 2^30\n");
    free(err);

    const char *bad_gb[] = {"--graph", "chain", "--benchmark_repetitions=x", "--no-db", NULL};
    cr_expect_eq(run("e4", bad_gb), 2);

    /* An input error with an existing database of ours: every byte stays
     * (graphs are loaded before the database is opened). */
    td_path(db_path, sizeof db_path, "ours.sqlite");
    const char *good[] = {"--graph", "chain:ops=4", "--planner", "naive", "--db", db_path,
                          "--repetitions", "1", "--min-time", "0.001", "--quiet", NULL};
    cr_assert_eq(run("e6", good), 0, "%s", slurp("e6", "err"));
    size_t before_len = 0, after_len = 0;
    char *before = td_slurp(db_path, &before_len);
    cr_assert(before && before_len > 0);
    const char *bad_later[] = {"--graph", "chain:ops=4;/nonexistent/x.csv", "--db", db_path,
                               NULL};
    cr_expect_eq(run("e7", bad_later), 2);
    char *after = td_slurp(db_path, &after_len);
    cr_assert(after);
    cr_expect(before_len == after_len && memcmp(before, after, before_len) == 0,
              "the database changed");
    free(before);
    free(after);

    /* A database of another program: refused, nothing written. */
    td_path(db_path, sizeof db_path, "foreign.sqlite");
    sqlite3 *db = NULL;
    cr_assert_eq(sqlite3_open(db_path, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, "CREATE TABLE notes (t TEXT)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    const char *foreign[] = {"--graph", "chain", "--db", db_path, NULL};
    cr_expect_eq(run("e5", foreign), 2);
    err = slurp("e5", "err");
    cr_expect(strstr(err, "not an arenabench database") != NULL, "%s", err);
    free(err);
}

Test(bench, list_names_every_family_suite_and_planner)
{
    const char *args[] = {"--list", NULL};
    cr_assert_eq(run("l", args), 0);
    char *out = slurp("l", "out");
    for (size_t i = 0; i < arena_family_count(); i++)
        cr_expect(strstr(out, arena_family_at(i)->name) != NULL, "%s", arena_family_at(i)->name);
    for (size_t i = 0; i < arena_planner_count(); i++)
        cr_expect(strstr(out, arena_planner_at(i)->summary) != NULL);
    cr_expect(strstr(out, "scaling") != NULL && strstr(out, "all") != NULL);
    free(out);
}

/* A deliberately wrong planner: every tensor at offset 0 (a plan is only
 * right when no two tensors are ever live together). Not registered. */
static int all_at_zero_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                            void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt;
    (void)scratch;
    (void)scratch_size;
    plan->arena = 0;
    for (size_t i = 0; i < p->n; i++) {
        plan->offsets[i] = 0;
        if (p->tensors[i].size > plan->arena) plan->arena = p->tensors[i].size;
    }
    plan->buffers = 0;
    return ARENA_OK;
}

static const struct arena_planner all_at_zero = {
    .name = "all-at-zero",
    .summary = "every tensor at offset 0 (wrong on purpose)",
    .plan = all_at_zero_plan,
};

/* Exit status 1 end to end: a wrong plan is stored as invalid with the
 * validator's message, the right plan of the same run is stored valid.
 *
 * The problem, worked by hand: lowers 0, 1, 3 are steps 0, 1, 2, so
 *   a [0,2) 32 B -> steps [0,1];  b [1,3) 16 B -> steps [1,1] (the largest
 *   lower <= 2 is 1);  c [3,4) 16 B -> steps [2,2].
 * naive 64 B; live bytes per step 32, 48, 16, so the lower bound is 48.
 * All at offset 0: a and b are both live at step 1 and share [0,16), c
 * meets nobody; the sweep meets a first, so the pair is (0, 1), and the
 * stored arena would be max(offset + size) = 32 < 48. */
Test(bench, an_invalid_plan_is_stored_invalid_and_exits_1)
{
    char csv[160], db_path[160];
    td_path(csv, sizeof csv, "three.csv");
    td_path(db_path, sizeof db_path, "invalid.sqlite");
    FILE *f = fopen(csv, "w");
    cr_assert(f);
    fputs("id,lower,upper,size\na,0,2,32\nb,1,3,16\nc,3,4,16\n", f);
    cr_assert_eq(fclose(f), 0);

    const struct arena_planner *tables[] = {arena_planner_find("greedy-by-size"), &all_at_zero};
    cr_assert(tables[0]);
    const char *args[] = {"--graph", csv, "--db", db_path, "--format", "csv",
                          "--repetitions", "1", "--min-time", "0.001", NULL};
    cr_assert_eq(finish(spawn_with("bad", args, tables, 2)), 1, "%s", slurp("bad", "err"));

    const char *want = "tensor 0 (steps [0,1], bytes [0,32)) overlaps"
                       " tensor 1 (steps [1,1], bytes [0,16))";
    char *err = slurp("bad", "err");
    char line[400];
    snprintf(line, sizeof line, "bench: all-at-zero on %s: %s\n", csv, want);
    cr_expect_str_eq(err, line, "CSV has no error column: the message goes to stderr");
    free(err);
    char *out = slurp("bad", "out");
    cr_expect_eq(count(out, "\n"), 3, "header, one row per planner: %s", out);
    cr_expect(strstr(out, ",all-at-zero,3,64,48,") != NULL, "%s", out);
    cr_expect(strstr(out, ",greedy-by-size,3,64,48,48,1") != NULL, "%s", out);
    free(out);

    sqlite3 *db = td_db_open(db_path, 1);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM runs"), 1);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results"), 2);
    sqlite3_stmt *st = NULL;
    cr_assert_eq(sqlite3_prepare_v2(db,
                                    "SELECT valid, error, arena_bytes IS NULL FROM results"
                                    " WHERE planner = 'all-at-zero'",
                                    -1, &st, NULL),
                 SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_expect_eq(sqlite3_column_int(st, 0), 0);
    cr_expect_str_eq((const char *)sqlite3_column_text(st, 1), want);
    cr_expect_eq(sqlite3_column_int(st, 2), 1, "an invalid plan has no arena figure");
    sqlite3_finalize(st);
    /* The wrong plan's placements are kept, so it can be redrawn: all at 0. */
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM placements p JOIN results r ON"
                            " r.id = p.result_id WHERE r.planner = 'all-at-zero'"
                            " AND p.offset = 0"),
                 3);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE planner = 'greedy-by-size'"
                            " AND valid = 1 AND error IS NULL AND arena_bytes = 48"),
                 1);
    sqlite3_close(db);
}

/* --export-csv writes each graph's problem as MiniMalloc CSV and plans
 * nothing: reading each file back gives the very problem the spec gives
 * (same fingerprint over sizes and closed lifetimes), no database appears,
 * and stdout pairs each spec with its file. */
Test(bench, export_csv_writes_each_problem_exactly_and_plans_nothing)
{
    char dir[160], db[160];
    td_path(dir, sizeof dir, "export/sub");
    td_path(db, sizeof db, "never.sqlite");
    const char *specs[] = {"mobilenetv2:alpha=0.35,res=96", "chain:ops=12,seed=3"};
    const char *args[] = {"--graph", "mobilenetv2:alpha=0.35,res=96;chain:ops=12,seed=3",
                          "--export-csv", dir, "--db", db, NULL};
    cr_assert_eq(run("export", args), 0, "%s", slurp("export", "err"));
    struct stat st;
    cr_expect_neq(stat(db, &st), 0, "export must not open a database");
    char *out = slurp("export", "out");
    cr_expect_eq(count(out, "\n"), 2, "one line per graph: %s", out);
    for (size_t i = 0; i < 2; i++) {
        struct arena_source want, got;
        char err[400] = "";
        cr_assert_eq(arena_source_load(specs[i], 16, 1, &want, err, sizeof err), ARENA_OK, "%s",
                     err);
        /* The line for this graph: canonical spec, a tab, the file. */
        char *line = strstr(out, want.spec);
        cr_assert(line, "no line for %s in %s", want.spec, out);
        char path[300];
        cr_assert_eq(sscanf(line + strlen(want.spec), "\t%299[^\n]", path), 1);
        cr_assert_eq(arena_source_load(path, 16, 1, &got, err, sizeof err), ARENA_OK, "%s", err);
        cr_expect_str_eq(got.family, "csv");
        cr_expect_eq(got.problem.n, want.problem.n);
        cr_expect_eq(got.fingerprint, want.fingerprint, "%s: the CSV is the same problem",
                     specs[i]);
        arena_source_free(&want);
        arena_source_free(&got);
    }
    free(out);
}

/* Every spec of the suites loads (so `--graph all` and `--graph scaling`
 * cannot fail on input). */
Test(bench, every_suite_spec_loads)
{
    const char *suites[] = {"all", "scaling"};
    for (size_t s = 0; s < 2; s++) {
        size_t n = 0;
        const char *const *specs = arena_bench_suite(suites[s], &n);
        for (size_t i = 0; i < n; i++) {
            struct arena_source src;
            char err[400] = "";
            cr_expect_eq(arena_source_load(specs[i], 16, 1, &src, err, sizeof err), ARENA_OK,
                         "%s: %s", specs[i], err);
            arena_source_free(&src);
        }
    }
}

Test(bench, google_benchmark_out_file_passes_through)
{
    char json[160], flag[200];
    td_path(json, sizeof json, "gb.json");
    snprintf(flag, sizeof flag, "--benchmark_out=%s", json);
    const char *args[] = {"--graph", "chain:ops=4", "--planner", "naive", "--no-db", flag,
                          "--benchmark_out_format=json", "--min-time", "0.001", NULL};
    cr_assert_eq(run("g", args), 0);
    char *out = slurp("gb", "json");
    cr_expect(strstr(out, "\"benchmarks\"") != NULL);
    cr_expect(strstr(out, "/naive\"") != NULL, "%s", out);
    free(out);
}

/* Two bench processes write one (new) database at once; both runs and all
 * their results arrive, and the file is intact. */
Test(bench, two_concurrent_writers)
{
    char db_path[160];
    td_path(db_path, sizeof db_path, "shared.sqlite");
    const char *a[] = {"--graph", "random-intervals:n=300,live=20;chain:ops=30", "--db", db_path,
                       "--seed", "1", "--repetitions", "2", "--min-time", "0.002", "--quiet",
                       NULL};
    const char *b[] = {"--graph", "random-intervals:n=300,live=20;unet:levels=3", "--db", db_path,
                       "--seed", "2", "--repetitions", "2", "--min-time", "0.002", "--quiet",
                       NULL};
    pid_t pa = spawn("w1", a), pb = spawn("w2", b);
    cr_expect_eq(finish(pa), 0, "%s", slurp("w1", "err"));
    cr_expect_eq(finish(pb), 0, "%s", slurp("w2", "err"));
    sqlite3 *db = td_db_open(db_path, 1);
    int64_t planners = (int64_t)arena_planner_count();
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM runs"), 2);
    /* seed 1 and seed 2 give two different random-intervals graphs */
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM graphs"), 4);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results"), 4 * planners);
    cr_expect_eq(td_db_int(db, "SELECT count(DISTINCT run_id) FROM results"), 2);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM pragma_integrity_check WHERE"
                            " integrity_check = 'ok'"),
                 1);
    cr_expect_eq(check_placements(db), (size_t)(4 * planners));
    sqlite3_close(db);
}

static void nap(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Waits until the database holds at least `want` results. */
static int64_t wait_for_results(const char *db_path, int64_t want)
{
    for (int tries = 0; tries < 1200; tries++) {
        struct stat st;
        if (stat(db_path, &st) == 0) {
            sqlite3 *db = NULL;
            int64_t n = -1;
            if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
                sqlite3_busy_timeout(db, 1000);
                sqlite3_stmt *st2 = NULL;
                if (sqlite3_prepare_v2(db, "SELECT count(*) FROM results", -1, &st2, NULL) ==
                        SQLITE_OK &&
                    sqlite3_step(st2) == SQLITE_ROW)
                    n = sqlite3_column_int64(st2, 0);
                sqlite3_finalize(st2);
            }
            sqlite3_close(db);
            if (n >= want) return n;
        }
        nap(50);
    }
    return -1;
}

static void interrupt_run(const char *tag, int second_signal)
{
    char db_path[160];
    td_path(db_path, sizeof db_path, second_signal ? "int2.sqlite" : "int.sqlite");
    /* 12 graphs x every planner, each timed for >= 2 x 20 ms: several seconds. */
    const char *args[] = {"--graph",
                          "random-intervals:n=400,seed=1;random-intervals:n=400,seed=2;"
                          "random-intervals:n=400,seed=3;random-intervals:n=400,seed=4;"
                          "random-intervals:n=400,seed=5;random-intervals:n=400,seed=6;"
                          "random-intervals:n=400,seed=7;random-intervals:n=400,seed=8;"
                          "random-intervals:n=400,seed=9;random-intervals:n=400,seed=10;"
                          "random-intervals:n=400,seed=11;random-intervals:n=400,seed=12",
                          "--db", db_path, "--repetitions", "2", "--min-time", "0.02", NULL};
    int64_t total = 12 * (int64_t)arena_planner_count();
    pid_t pid = spawn(tag, args);
    int64_t seen = wait_for_results(db_path, 3);
    cr_assert(seen >= 3, "no results appeared");
    cr_assert_eq(kill(pid, SIGINT), 0);
    if (second_signal) cr_assert_eq(kill(pid, SIGINT), 0);
    cr_expect_eq(finish(pid), 128 + SIGINT);

    sqlite3 *db = td_db_open(db_path, 1);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM pragma_integrity_check WHERE"
                            " integrity_check = 'ok'"),
                 1);
    int64_t kept = td_db_int(db, "SELECT count(*) FROM results");
    cr_expect(kept >= seen && kept < total, "kept %lld of %lld (had seen %lld)", (long long)kept,
              (long long)total, (long long)seen);
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM results WHERE valid = 1"), kept);
    /* Each kept result is whole: all of its placements are there. */
    cr_expect_eq(check_placements(db), (size_t)kept);
    sqlite3_close(db);
}

Test(bench, sigint_keeps_every_finished_result)
{
    interrupt_run("i1", 0);
    char *err = slurp("i1", "err");
    cr_expect(strstr(err, "stopped by signal 2") != NULL, "%s", err);
    free(err);
}

Test(bench, second_sigint_exits_at_once_leaving_the_database_intact)
{
    interrupt_run("i2", 1);
}
