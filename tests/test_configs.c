/* test_configs.c — a result's configuration (results/select.h) through the
 * whole tool: bench stores it, stats, plot and their CSVs keep every one
 * apart and name it, and no ratio divides one problem's arena by another
 * problem's bound.
 *
 * The database is round 3's trial, on graphs that are always there: five
 * runs on MobileNetV2 (0.35, 96 x 96), random-dag seed 2 and nasnet (two
 * cells) seeds 1 to 3 — plain, --inplace depthwise, --order best, both,
 * and --patch 4x4:13 (MobileNetV2 only: the families whose ops state
 * windows) — with naive, greedy-by-size and greedy-by-breadth, plus the
 * fetched models selfie_segmentation and face_detection_full_range where
 * scripts/fetch-models put them (a line says when they are not). What is
 * known without running: the best order of random-dag seed 2 and of every
 * nasnet seed beats the stored one (arena / fixed-order bound below 1 on
 * nasnet), depthwise in-place and the patch lower MobileNetV2's bound. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/run_bench.h"
#include "tests/tflite_writer.h"
#include "tests/tmpdb.h"

TestSuite(configs, .init = td_make_dir, .fini = td_remove_dir);

#define MB "mobilenetv2:alpha=0.35,res=96"
#define MB_KEY "mobilenetv2:alpha=0.35,res=96,dtype=int8,classes=1000,fused=1"
#define GRAPHS MB ";random-dag:seed=2;nasnet:cells=2,seed=1..3"
#define PLANNERS "naive,greedy-by-size,greedy-by-breadth"
#define MODEL_A ARENA_SOURCE_ROOT "/models/selfie_segmentation.tflite"
#define MODEL_B ARENA_SOURCE_ROOT "/models/face_detection_full_range.tflite"
#define DOT "\xC2\xB7"

static const char *const configs[5] = {
    "plain", "in-place depthwise", "best order", "in-place depthwise " DOT " best order",
    "patch 4\xC3\x97" "4:13"};

/* One run of the trial into db; extra: the run's options (NULL-ended). */
static void run_one(const char *tag, const char *db, const char *graphs, const char *const *extra)
{
    const char *args[40] = {"--graph", graphs, "--planner", PLANNERS, "--db", db,
                            "--repetitions", "1", "--min-time", "0.001", "--quiet"};
    size_t n = 11;
    for (size_t i = 0; extra[i]; i++) args[n++] = extra[i];
    args[n] = NULL;
    cr_assert_eq(run_bench(tag, args), 0, "run %s failed", tag);
}

static int have_models(void)
{
    return access(MODEL_A, R_OK) == 0 && access(MODEL_B, R_OK) == 0;
}

/* The five runs of round 3's trial. */
static void trial(const char *db)
{
    char graphs[1200];
    snprintf(graphs, sizeof graphs, "%s%s%s%s%s", GRAPHS, have_models() ? ";" : "",
             have_models() ? MODEL_A : "", have_models() ? ";" : "", have_models() ? MODEL_B : "");
    if (!have_models())
        cr_log_warn("models/ has no selfie_segmentation.tflite and face_detection_full_range"
                    ".tflite (scripts/fetch-models): the trial runs on the families alone");
    run_one("plain", db, graphs, (const char *[]){NULL});
    run_one("inplace", db, graphs, (const char *[]){"--inplace", "depthwise", NULL});
    run_one("best", db, graphs, (const char *[]){"--order", "best", NULL});
    run_one("both", db, graphs, (const char *[]){"--order", "best", "--inplace", "depthwise", NULL});
    run_one("patch", db, MB, (const char *[]){"--patch", "4x4:13", NULL});
}

/* A CSV file: its header and records, each field malloc'd. */
struct csv {
    char *head[80];
    size_t cols;
    char *(*rec)[80];
    size_t n;
};

static void csv_read(const char *path, struct csv *t)
{
    char *text = td_slurp(path, NULL);
    cr_assert_not_null(text, "cannot read %s", path);
    memset(t, 0, sizeof *t);
    const char *p = text;
    t->cols = td_csv_record(&p, t->head, 80);
    cr_assert_leq(t->cols, 80);
    while (*p) {
        t->rec = realloc(t->rec, (t->n + 1) * sizeof *t->rec);
        cr_assert_not_null(t->rec);
        memset(t->rec[t->n], 0, sizeof t->rec[t->n]);
        size_t k = td_csv_record(&p, t->rec[t->n], 80);
        cr_assert_eq(k, t->cols, "%s: record %zu has %zu fields, the header %zu", path, t->n, k,
                     t->cols);
        t->n++;
    }
    free(text);
}

static size_t csv_col(const struct csv *t, const char *name)
{
    for (size_t i = 0; i < t->cols; i++)
        if (strcmp(t->head[i], name) == 0) return i;
    cr_assert_fail("no column %s", name);
    return 0;
}

static void csv_free(struct csv *t)
{
    for (size_t i = 0; i < t->cols; i++) free(t->head[i]);
    for (size_t r = 0; r < t->n; r++)
        for (size_t i = 0; i < t->cols; i++) free(t->rec[r][i]);
    free(t->rec);
}

/* td_dir/TAG.out of a bench run. */
static char *out_of(const char *tag)
{
    char path[200];
    snprintf(path, sizeof path, "%s/%s.out", td_dir, tag);
    char *text = td_slurp(path, NULL);
    cr_assert_not_null(text, "%s", path);
    return text;
}

/* bench stats --format csv: every row one group in one configuration, every
 * ratio against its own problem at least 1; only the fixed-order one may be
 * below, and is, on nasnet's best order. */
Test(configs, stats_keeps_every_configuration_apart_and_named)
{
    char db[200], csvp[200];
    td_path(db, sizeof db, "trial.sqlite");
    trial(db);
    cr_assert_eq(run_bench("stats", (const char *[]){"stats", "--db", db, "--format", "csv",
                                                       NULL}), 0);
    td_path(csvp, sizeof csvp, "stats.out");
    struct csv t;
    csv_read(csvp, &t);
    size_t group = csv_col(&t, "group"), planner = csv_col(&t, "planner"), n = csv_col(&t, "n");
    size_t config = csv_col(&t, "config"), key = csv_col(&t, "key");
    size_t lb = csv_col(&t, "mean_lb"), best = csv_col(&t, "mean_best");
    size_t fixed = csv_col(&t, "mean_fixed"), median = csv_col(&t, "median_lb");
    int seen[5] = {0}, below = 0;
    for (size_t r = 0; r < t.n; r++) {
        char **f = t.rec[r];
        cr_expect(f[config][0], "row %zu has no configuration", r);
        if (strcmp(f[config], "plain") != 0)
            cr_expect_not_null(strstr(f[group], f[config]), "group '%s' names '%s'", f[group],
                               f[config]);
        cr_expect_geq(atof(f[lb]), 1.0, "%s %s: mean x LB %s", f[group], f[planner], f[lb]);
        cr_expect_geq(atof(f[median]), 1.0, "%s %s: median x LB", f[group], f[planner]);
        if (f[best][0])
            cr_expect_geq(atof(f[best]), 1.0, "%s %s: mean x best %s", f[group], f[planner],
                          f[best]);
        below |= f[fixed][0] && atof(f[fixed]) < 1.0;
        if (strcmp(f[key], MB_KEY) == 0 && strcmp(f[planner], "greedy-by-size") == 0) {
            for (int k = 0; k < 5; k++)
                seen[k] += strcmp(f[config], configs[k]) == 0;
            cr_expect_eq(atoi(f[n]), 1, "MobileNetV2 is one graph in %s, not %s", f[config], f[n]);
        }
        if (strncmp(f[key], "nasnet:", 7) == 0)
            cr_expect_eq(atoi(f[n]), 3, "nasnet in %s: 3 seeds, got %s graphs", f[config], f[n]);
    }
    for (int k = 0; k < 5; k++)
        cr_expect_eq(seen[k], 1, "MobileNetV2 in '%s': %d rows of greedy-by-size", configs[k],
                     seen[k]);
    cr_expect(below, "the best order takes nasnet below its fixed-order bound");
    csv_free(&t);

    /* the table: every label, a group of one graph without a win matrix */
    cr_assert_eq(run_bench("table", (const char *[]){"stats", "--db", db, NULL}), 0);
    char *table = out_of("table");
    for (int k = 1; k < 5; k++) cr_expect_not_null(strstr(table, configs[k]), "%s", configs[k]);
    const char *mb = strstr(table, "\n" MB_KEY " " DOT " plain\n");
    cr_assert_not_null(mb, "%s", table);
    const char *next = strstr(mb + 1, "\n\n");
    cr_assert_not_null(next);
    char one[4096];
    snprintf(one, sizeof one, "%.*s", (int)(next - mb), mb);
    cr_expect_null(strstr(one, "wins/ties"), "one graph: no matrix:\n%s", one);
    cr_expect_null(strstr(one, "["), "one graph: no interval:\n%s", one);
    free(table);

    /* a filter takes one configuration; by family, the patch is still apart */
    cr_assert_eq(run_bench("patch", (const char *[]){"stats", "--db", db, "--format", "csv",
                                                       "--patch", "4x4:13", NULL}), 0);
    td_path(csvp, sizeof csvp, "patch.out");
    csv_read(csvp, &t);
    cr_expect_eq(t.n, 3, "three planners on the patched graph");
    for (size_t r = 0; r < t.n; r++)
        cr_expect_str_eq(t.rec[r][csv_col(&t, "config")], configs[4]);
    csv_free(&t);
    cr_assert_eq(run_bench("family", (const char *[]){"stats", "--db", db, "--format", "csv",
                                                        "--group-by", "family", NULL}), 0);
    td_path(csvp, sizeof csvp, "family.out");
    csv_read(csvp, &t);
    for (size_t r = 0; r < t.n; r++)
        if (strcmp(t.rec[r][csv_col(&t, "key")], "mobilenetv2") == 0)
            cr_expect_eq(atoi(t.rec[r][csv_col(&t, "n")]), 1,
                         "the patched MobileNetV2 is no second graph of %s",
                         t.rec[r][csv_col(&t, "config")]);
    csv_free(&t);
}

/* A Markdown table's cells of row `line` (after the first '|'). */
static size_t md_cells(const char *line, char cells[][96], size_t max)
{
    size_t n = 0;
    const char *p = strchr(line, '|');
    while (p && p[1] && p[1] != '\n' && n < max) {
        const char *e = strchr(p + 1, '|');
        if (!e) break;
        const char *a = p + 1;
        while (*a == ' ') a++;
        size_t len = (size_t)(e - a);
        while (len && a[len - 1] == ' ') len--;
        snprintf(cells[n++], 96, "%.*s", (int)len, a);
        p = e;
    }
    return n;
}

/* bench plot: the table has a row per planner and configuration, each
 * named; no "x lower bound", "x optimum" or "x best-order bound" below 1;
 * the fixed-order column holds the ones below 1. The quality and stats
 * figures use one configuration (the first measured, or the one named),
 * which their CSVs and captions name, and so do the per-graph figures. */
Test(configs, plot_names_every_configuration_and_never_mixes_two)
{
    char db[200], out[200], path[300];
    td_path(db, sizeof db, "trial.sqlite");
    trial(db);
    td_path(out, sizeof out, "charts");
    cr_assert_eq(run_bench("plot", (const char *[]){"plot", "--db", db, "--run", "all", "--out",
                                                      out, "--graph", MB, "--figures",
                                                      "tables,arena", "--format", "png",
                                                      "--size", "one", "--quiet", NULL}), 0);
    snprintf(path, sizeof path, "%s/comparison.md", out);
    char *md = td_slurp(path, NULL);
    cr_assert_not_null(md);
    const char *head = strstr(md, "\n| planner |");
    cr_assert_not_null(head, "%s", md);
    char cells[32][96];
    size_t nh = md_cells(head + 1, cells, 32), c_config = 0, c_fixed = 0;
    int ratio[32] = {0};
    for (size_t i = 0; i < nh; i++) {
        if (strcmp(cells[i], "configuration") == 0) c_config = i;
        if (strcmp(cells[i], "× fixed-order bound") == 0) c_fixed = i;
        ratio[i] = strcmp(cells[i], "× lower bound") == 0 || strcmp(cells[i], "× optimum") == 0 ||
                   strcmp(cells[i], "× best bound") == 0 ||
                   strcmp(cells[i], "× best-order bound") == 0;
    }
    cr_assert(c_config && c_fixed, "%s", md);
    size_t rows = 0;
    int seen[5] = {0}, below = 0;
    for (const char *line = strchr(strchr(head + 1, '\n') + 1, '\n'); line && line[1] == '|';
         line = strchr(line + 1, '\n')) {
        char row[32][96];
        size_t k = md_cells(line + 1, row, 32);
        cr_assert_eq(k, nh, "%.*s", 200, line);
        rows++;
        for (int x = 0; x < 5; x++) seen[x] += strcmp(row[c_config], configs[x]) == 0;
        for (size_t i = 0; i < k; i++)
            if (ratio[i] && strcmp(row[i], "--") != 0)
                cr_expect_geq(atof(row[i]), 1.0, "%s on %s: %s = %s", row[0], row[c_config],
                              cells[i], row[i]);
        below |= strcmp(row[c_fixed], "--") != 0 && atof(row[c_fixed]) < 1.0;
    }
    cr_expect_eq(rows, 15, "three planners in five configurations:\n%s", md);
    for (int x = 0; x < 5; x++)
        cr_expect_eq(seen[x], 3, "'%s' has %d rows:\n%s", configs[x], seen[x], md);
    cr_expect(below, "depthwise in-place and the patch go below the fixed-order bound");
    free(md);
    snprintf(path, sizeof path, "%s/comparison.tex", out);
    char *tex = td_slurp(path, NULL);
    cr_assert_not_null(tex);
    cr_expect_not_null(strstr(tex, "in-place depthwise $\\cdot$ best order"), "%s", tex);
    cr_expect_not_null(strstr(tex, "patch 4$\\times$4:13"), "%s", tex);
    free(tex);
    snprintf(path, sizeof path, "%s/arena.gp", out);
    char *gp = td_slurp(path, NULL);
    cr_assert_not_null(gp);
    /* its line at the top, drawn in every format (common.gp's CONF1, CONF2) */
    cr_expect_not_null(strstr(gp, "CONF1 = 'configuration: plain'"), "the arena figure names its configuration");
    free(gp);
    snprintf(path, sizeof path, "%s/arena.csv", out);
    struct csv t;
    csv_read(path, &t);
    for (size_t r = 0; r < t.n; r++) cr_expect_str_eq(t.rec[r][csv_col(&t, "config")], "plain");
    csv_free(&t);

    /* quality and stats: one configuration each, the one named */
    td_path(out, sizeof out, "both");
    cr_assert_eq(run_bench("plot2", (const char *[]){"plot", "--db", db, "--run", "all", "--out",
                                                       out, "--inplace", "depthwise", "--order",
                                                       "best", "--figures", "quality,stats",
                                                       "--format", "png", "--size", "one",
                                                       "--quiet", NULL}), 0);
    /* in the folder named by its configuration, so that it never
     * overwrites the plain figures in one --out */
    const char *files[] = {"quality.csv", "stats.csv"};
    for (size_t k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s/in-place-depthwise+best-order/%s", out, files[k]);
        csv_read(path, &t);
        cr_expect_gt(t.n, 0u, "%s", files[k]);
        for (size_t r = 0; r < t.n; r++)
            cr_expect_str_eq(t.rec[r][csv_col(&t, "config")], configs[3], "%s", files[k]);
        csv_free(&t);
    }
    snprintf(path, sizeof path, "%s/in-place-depthwise+best-order/quality.gp", out);
    gp = td_slurp(path, NULL);
    cr_assert_not_null(gp);
    cr_expect_not_null(strstr(gp, "# caption: 'in-place depthwise " DOT " best order: "), "%s", gp);
    free(gp);
    /* how far below the fixed-order bound: its own figure, the first
     * configuration that transforms the graphs, named, in its folder */
    td_path(out, sizeof out, "fixed");
    cr_assert_eq(run_bench("plot4", (const char *[]){"plot", "--db", db, "--run", "all", "--out",
                                                       out, "--figures", "fixed", "--format",
                                                       "png", "--size", "one", "--quiet", NULL}), 0);
    snprintf(path, sizeof path, "%s/in-place-depthwise/fixed.csv", out);
    csv_read(path, &t);
    int under = 0;
    for (size_t r = 0; r < t.n; r++) {
        cr_expect_str_eq(t.rec[r][csv_col(&t, "config")], configs[1]);
        under |= atof(t.rec[r][csv_col(&t, "ratio")]) < 1.0;
    }
    cr_expect(under, "in-place depthwise takes MobileNetV2 below its fixed-order bound");
    csv_free(&t);
    snprintf(path, sizeof path, "%s/in-place-depthwise/fixed.gp", out);
    gp = td_slurp(path, NULL);
    cr_assert_not_null(gp);
    cr_expect_not_null(strstr(gp, "TITLE = 'Arena / fixed-order bound"), "%s", gp);
    cr_expect_not_null(strstr(gp, "# caption: 'in-place depthwise: "), "%s", gp);
    free(gp);
    /* without a filter, the first configuration measured, and a note */
    td_path(out, sizeof out, "first");
    cr_assert_eq(run_bench("plot3", (const char *[]){"plot", "--db", db, "--run", "all", "--out",
                                                       out, "--figures", "quality", "--format",
                                                       "png", "--size", "one", NULL}), 0);
    snprintf(path, sizeof path, "%s/quality.csv", out);
    csv_read(path, &t);
    for (size_t r = 0; r < t.n; r++) cr_expect_str_eq(t.rec[r][csv_col(&t, "config")], "plain");
    csv_free(&t);
    td_path(path, sizeof path, "plot3.err");
    char *err = td_slurp(path, NULL);
    cr_assert_not_null(err);
    cr_expect_not_null(strstr(err, "5 configurations"), "%s", err);
    free(err);
}

/* A tiny model: ADD(x, x) -> h, QUANTIZE(h) -> y, sizes by n. */
static void tiny_model(const char *path, int32_t n)
{
    struct tfl_model m;
    tfl_add_quantize_model(&m);
    struct tfl_subgraph *s = &m.sub[0];
    tfl_add_tensor(s, "x", 0, 0, 1, n, 0);
    tfl_add_tensor(s, "h", 0, 0, 1, n, 0);
    tfl_add_tensor(s, "y", 9, 0, 1, n, 0);
    tfl_add_op(s, 0, 2, (int32_t[]){0, 0}, 1);
    tfl_add_op(s, 1, 1, (int32_t[]){1}, 2);
    s->n_in = s->n_out = 1;
    s->in[0] = 0;
    s->out[0] = 2;
    tfl_save(&m, path);
}

/* "Real models, n = 13" is one panel: with --suite models the models are
 * one group (stats) and one panel (plot), paired on every model; by graph
 * each model is a group of one. Three stand-in models under the suite's
 * names, in a folder of their own. */
Test(configs, suite_models_is_one_group_and_one_panel)
{
    char dir[200], db[] = "s.sqlite";
    td_path(dir, sizeof dir, "models");
    cr_assert_eq(mkdir(dir, 0755), 0);
    cr_assert_eq(chdir(td_dir), 0);
    tiny_model("models/selfie_segmentation.tflite", 64);
    tiny_model("models/hand_landmark_lite.tflite", 96);
    tiny_model("models/pose_landmark_lite.tflite", 128);
    cr_assert_eq(run_bench("run", (const char *[]){"--suite", "models", "--planner", PLANNERS,
                                                     "--db", db, "--repetitions", "1",
                                                     "--min-time", "0.001", "--quiet", NULL}), 0);
    cr_assert_eq(run_bench("s", (const char *[]){"stats", "--db", db, "--format", "csv",
                                                   "--suite", "models", NULL}), 0);
    struct csv t;
    char path[200];
    td_path(path, sizeof path, "s.out");
    csv_read(path, &t);
    cr_expect_eq(t.n, 3, "one group, a row per planner");
    for (size_t r = 0; r < t.n; r++) {
        cr_expect_str_eq(t.rec[r][csv_col(&t, "key")], "models");
        cr_expect_eq(atoi(t.rec[r][csv_col(&t, "n")]), 3);
    }
    csv_free(&t);
    cr_assert_eq(run_bench("g", (const char *[]){"stats", "--db", db, "--format", "csv", NULL}),
                 0);
    td_path(path, sizeof path, "g.out");
    csv_read(path, &t);
    cr_expect_eq(t.n, 9, "by graph: each model its own group");
    csv_free(&t);
    cr_assert_eq(run_bench("p", (const char *[]){"plot", "--db", db, "--out", "c", "--suite",
                                                   "models", "--figures", "stats", "--format",
                                                   "png", "--size", "one", "--quiet", NULL}), 0);
    csv_read("c/stats.csv", &t);
    cr_expect_gt(t.n, 0u);
    for (size_t r = 0; r < t.n; r++) {
        cr_expect_str_eq(t.rec[r][csv_col(&t, "panel")], "1", "one panel");
        cr_expect_eq(atoi(t.rec[r][csv_col(&t, "n")]), 3);
    }
    csv_free(&t);
}

/* bench --tag is stored with its run; stats selects (--tag) and groups
 * (--group-by tag) by it. */
Test(configs, tags_select_and_group)
{
    char db[200], path[200];
    td_path(db, sizeof db, "tags.sqlite");
    const char *const a[] = {"--tag", "before", NULL}, *const b[] = {"--tag", "after", NULL};
    run_one("a", db, "chain:ops=4,seed=1..2", a);
    run_one("b", db, "chain:ops=4,seed=1..2", b);
    cr_assert_eq(run_bench("t", (const char *[]){"stats", "--db", db, "--format", "csv",
                                                   "--group-by", "tag", NULL}), 0);
    struct csv t;
    td_path(path, sizeof path, "t.out");
    csv_read(path, &t);
    cr_expect_eq(t.n, 6, "two tags x three planners");
    size_t before = 0;
    for (size_t r = 0; r < t.n; r++) before += strcmp(t.rec[r][csv_col(&t, "key")], "before") == 0;
    cr_expect_eq(before, 3);
    csv_free(&t);
    cr_assert_eq(run_bench("u", (const char *[]){"stats", "--db", db, "--format", "csv", "--tag",
                                                   "after", "--planner", "naive", NULL}), 0);
    td_path(path, sizeof path, "u.out");
    csv_read(path, &t);
    cr_expect_eq(t.n, 1);
    cr_expect_eq(atoi(t.rec[0][csv_col(&t, "runs")]), 1, "the tagged run only");
    csv_free(&t);
    cr_expect_eq(run_bench("bad", (const char *[]){"--graph", "chain", "--tag", "", "--no-db",
                                                     NULL}), 2);
}

/* The kernel scratch rule and its policy are configurations: three runs of
 * one graph, none, cmsis-nn and cmsis-nn with the tail, are three groups
 * in bench stats, each named, each against its own problem's bound. */
Test(configs, kernel_scratch_configurations_are_kept_apart)
{
    char db[200], path[200];
    td_path(db, sizeof db, "scratch.sqlite");
    const char *const none[] = {NULL};
    const char *const m4[] = {"--scratch", "cmsis-nn", NULL};
    const char *const tail[] = {"--scratch", "cmsis-nn:m4", "--scratch-policy", "tail", NULL};
    run_one("s0", db, "ds-tcn", none);
    run_one("s1", db, "ds-tcn", m4);
    run_one("s2", db, "ds-tcn", tail);
    cr_assert_eq(run_bench("st", (const char *[]){"stats", "--db", db, "--format", "csv",
                                                    "--planner", "naive", NULL}), 0);
    struct csv t;
    td_path(path, sizeof path, "st.out");
    csv_read(path, &t);
    cr_assert_eq(t.n, 3, "one row per configuration");
    const char *want[] = {"plain", "scratch cmsis-nn:m4", "scratch cmsis-nn:m4 tail"};
    for (size_t i = 0; i < 3; i++) {
        size_t hits = 0;
        for (size_t r = 0; r < t.n; r++)
            hits += strcmp(t.rec[r][csv_col(&t, "config")], want[i]) == 0;
        cr_expect_eq(hits, 1, "config '%s'", want[i]);
    }
    csv_free(&t);
}
