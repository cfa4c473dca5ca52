/* test_plot.c — scripts/plot on a real database written by the real bench.
 *
 * Before any test, the runner process runs bench on three small graphs (a
 * chain and random-intervals at two sizes, so the run has a scaling series and
 * a suite) into a fresh temporary folder, then scripts/plot at 100 dpi. Each
 * test then checks one output against the file formats and against the
 * database, read here with the SQLite C API. meson passes the paths of bench
 * and scripts/plot in ARENA_BENCH and ARENA_PLOT.
 *
 * Figures need gnuplot: without it those tests skip with a message (the
 * error-case tests still run; scripts/bootstrap installs gnuplot). */
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DPI 100
#define GRAPHS "chain:ops=12;random-intervals:n=300;random-intervals:n=3000"

static char dir[64];        /* the temporary folder; set before any test forks */
static char bench[4096], plot[4096];
static int have_gnuplot;
static int setup_rc = -1;   /* bench's exit status, then plot's */
static char setup_err[512];

static const char *const figures[] = {"arena", "layout", "live", "scaling", "quality"};
#define NFIG (sizeof figures / sizeof figures[0])

/* ---------------------------------------------------------------- helpers */

static void fmt(char *buf, size_t n, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int k = vsnprintf(buf, n, f, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= n) abort();
}

/* Runs a shell command; returns its exit status, or -1 if it did not exit. */
static int run(const char *cmd)
{
    int st = system(cmd);
    if (st == -1 || !WIFEXITED(st)) return -1;
    return WEXITSTATUS(st);
}

/* Reads a whole file (NUL-terminated); NULL if it cannot be read. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            char *b = realloc(buf, cap * 2);
            if (!b) { free(buf); buf = NULL; break; }
            buf = b;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

/* The first occurrence of needle in a buffer that may hold NUL bytes. */
static const char *find(const char *buf, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(buf + i, needle, n) == 0) return buf + i;
    return NULL;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static size_t count_entries(const char *path)
{
    DIR *d = opendir(path);
    if (!d) return 0;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) n++;
    closedir(d);
    return n;
}

/* A PATH folder holding every command of PATH except gnuplot; with
 * fake_gnuplot, a gnuplot that fails at once instead. */
static void make_bin(const char *bin, int fake_gnuplot)
{
    cr_assert_eq(mkdir(bin, 0755), 0, "mkdir %s: %s", bin, strerror(errno));
    const char *path = getenv("PATH");
    cr_assert_not_null(path);
    char *copy = strdup(path);
    for (char *save = NULL, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        DIR *dd = opendir(d);
        if (!dd) continue;
        struct dirent *e;
        while ((e = readdir(dd)) != NULL) {
            if (e->d_name[0] == '.' || strncmp(e->d_name, "gnuplot", 7) == 0) continue;
            char from[4096], to[4096];
            fmt(from, sizeof from, "%s/%s", d, e->d_name);
            fmt(to, sizeof to, "%s/%s", bin, e->d_name);
            (void)symlink(from, to); /* the first PATH entry wins, as in a shell */
        }
        closedir(dd);
    }
    free(copy);
    if (fake_gnuplot) {
        char gp[4096];
        fmt(gp, sizeof gp, "%s/gnuplot", bin);
        FILE *f = fopen(gp, "w");
        cr_assert_not_null(f);
        fputs("#!/bin/sh\necho 'gnuplot: simulated failure' >&2\nexit 1\n", f);
        fclose(f);
        cr_assert_eq(chmod(gp, 0755), 0);
    }
}

/* ---------------------------------------------------------------- set-up */

static void save_setup(void)
{
    char path[128];
    fmt(path, sizeof path, "%s/setup.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "%d %d %s\n", setup_rc, have_gnuplot, setup_err);
    fclose(f);
    setenv("ARENA_PLOT_TEST_DIR", dir, 1);
}

ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
    (void)set;
    const char *b = getenv("ARENA_BENCH"), *p = getenv("ARENA_PLOT");
    if (!b || !p) {
        fmt(setup_err, sizeof setup_err, "ARENA_BENCH and ARENA_PLOT must name bench and scripts/plot (meson sets them)");
        return;
    }
    if (strchr(b, '\'') || strchr(p, '\'')) {
        fmt(setup_err, sizeof setup_err, "paths with a single quote are not supported");
        return;
    }
    fmt(bench, sizeof bench, "%s", b);
    fmt(plot, sizeof plot, "%s", p);
    fmt(dir, sizeof dir, "/tmp/arena-plot-XXXXXX");
    if (!mkdtemp(dir)) {
        fmt(setup_err, sizeof setup_err, "mkdtemp: %s", strerror(errno));
        dir[0] = '\0';
        return;
    }
    have_gnuplot = run("command -v gnuplot >/dev/null 2>&1") == 0;

    char cmd[12288];
    fmt(cmd, sizeof cmd,
        "'%s' --graph '" GRAPHS "' --planner all --db '%s/db.sqlite' --repetitions 1 "
        "--min-time 0.001 --quiet >'%s/bench.out' 2>&1",
        bench, dir, dir);
    setup_rc = run(cmd);
    if (setup_rc != 0) {
        fmt(setup_err, sizeof setup_err, "bench exited %d; see %s/bench.out", setup_rc, dir);
        save_setup();
        return;
    }
    if (!have_gnuplot) {
        save_setup();
        return;
    }
    fmt(cmd, sizeof cmd,
        "'%s' --db '%s/db.sqlite' --graph chain --out '%s/out' --dpi %d --quiet 2>'%s/plot.err'",
        plot, dir, dir, DPI, dir);
    setup_rc = run(cmd);
    if (setup_rc != 0)
        fmt(setup_err, sizeof setup_err, "scripts/plot exited %d; see %s/plot.err", setup_rc, dir);
    save_setup();
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
    (void)stats;
    if (dir[0] == '\0') return;
    char cmd[256];
    fmt(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)run(cmd);
}

/* Criterion runs each test in a fresh process that does not share the
 * runner's memory: the runner hands the folder over in the environment and
 * the set-up's outcome in a file there. */
static void load_setup(void)
{
    cr_assert(getenv("ARENA_BENCH") && getenv("ARENA_PLOT"),
              "ARENA_BENCH and ARENA_PLOT must name bench and scripts/plot (meson sets them)");
    const char *d = getenv("ARENA_PLOT_TEST_DIR");
    cr_assert_not_null(d, "set-up did not run (could not make a temporary folder?)");
    fmt(dir, sizeof dir, "%s", d);
    fmt(plot, sizeof plot, "%s", getenv("ARENA_PLOT"));
    char path[128];
    fmt(path, sizeof path, "%s/setup.txt", dir);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "no %s", path);
    cr_assert_eq(fscanf(f, "%d %d ", &setup_rc, &have_gnuplot), 2);
    if (!fgets(setup_err, sizeof setup_err, f)) setup_err[0] = '\0';
    fclose(f);
}

static void need_db(void)
{
    load_setup();
    cr_assert_eq(setup_rc, 0, "set-up failed: %s", setup_err);
}

static void need_figures(void)
{
    need_db();
    if (!have_gnuplot)
        cr_skip_test("gnuplot is not installed: figures not checked (scripts/bootstrap installs gnuplot-nox)");
}

static sqlite3 *open_db(void)
{
    char path[128];
    fmt(path, sizeof path, "%s/db.sqlite", dir);
    sqlite3 *db = NULL;
    cr_assert_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    return db;
}

/* The latest run and its chain graph: what plot draws per graph. */
static void run_and_graph(sqlite3 *db, long long *run_id, long long *graph_id)
{
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(db,
        "SELECT r.run_id, g.id FROM results r JOIN graphs g ON g.id = r.graph_id "
        "WHERE r.run_id = (SELECT max(run_id) FROM results) AND g.family = 'chain' LIMIT 1",
        -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "no chain graph in the run");
    *run_id = sqlite3_column_int64(st, 0);
    *graph_id = sqlite3_column_int64(st, 1);
    sqlite3_finalize(st);
}

/* A tiny CSV reader for plot's output: fields may be double-quoted. Returns
 * the number of fields split into f (pointers into line, which is modified). */
static size_t csv_split(char *line, char **f, size_t max)
{
    size_t n = 0;
    char *s = line;
    while (n < max) {
        if (*s == '"') {
            char *w = ++s;
            f[n++] = w;
            while (*s) {
                if (s[0] == '"' && s[1] == '"') { *w++ = '"'; s += 2; }
                else if (s[0] == '"') { s++; break; }
                else *w++ = *s++;
            }
            *w = '\0';
            if (*s == ',') s++;
            else break;
        } else {
            f[n++] = s;
            char *c = strchr(s, ',');
            if (!c) break;
            *c = '\0';
            s = c + 1;
        }
    }
    return n;
}

/* Lines of a file, the header first; *n lines (newlines stripped). */
static char **read_lines(const char *path, size_t *n)
{
    char *text = slurp(path, NULL);
    cr_assert_not_null(text, "cannot read %s", path);
    size_t cap = 16;
    char **lines = malloc(cap * sizeof *lines);
    *n = 0;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (*n == cap) lines = realloc(lines, (cap *= 2) * sizeof *lines);
        lines[(*n)++] = l;
    }
    return lines; /* leaks text: the test process ends right after */
}

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

/* ---------------------------------------------------------------- figures */

static unsigned be32(const unsigned char *p)
{
    return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 | p[3];
}

Test(plot, every_figure_is_a_valid_png_pdf_and_svg_of_the_asked_size)
{
    need_figures();
    /* Widths in pixels: 3.3 in and 7 in at 100 dpi. */
    const unsigned widths[2] = {330, 700};
    const char *cols[2] = {"1col", "2col"};
    for (size_t i = 0; i < NFIG; i++) {
        for (int c = 0; c < 2; c++) {
            char path[256];
            size_t len;
            fmt(path, sizeof path, "%s/out/%s-%s.png", dir, figures[i], cols[c]);
            unsigned char *png = (unsigned char *)slurp(path, &len);
            cr_assert_not_null(png, "missing %s", path);
            cr_expect_gt(len, 3000, "%s is only %zu bytes", path, len);
            cr_assert_geq(len, 24);
            cr_expect(memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0, "%s: no PNG signature", path);
            cr_expect(memcmp(png + 12, "IHDR", 4) == 0, "%s: first chunk is not IHDR", path);
            unsigned w = be32(png + 16), h = be32(png + 20);
            cr_expect_eq(w, widths[c], "%s: width %u, want %u", path, w, widths[c]);
            cr_expect(h >= w / 5 && h <= w * 4, "%s: height %u implausible for width %u", path, h, w);
            free(png);

            fmt(path, sizeof path, "%s/out/%s-%s.pdf", dir, figures[i], cols[c]);
            char *pdf = slurp(path, &len);
            cr_assert_not_null(pdf, "missing %s", path);
            cr_expect_gt(len, 2000, "%s is only %zu bytes", path, len);
            cr_expect(len > 5 && memcmp(pdf, "%PDF-", 5) == 0, "%s: no %%PDF- header", path);
            /* %%EOF ends the file, give or take a line break. */
            int eof = 0;
            for (size_t k = len > 16 ? len - 16 : 0; k + 5 <= len; k++)
                if (memcmp(pdf + k, "%%EOF", 5) == 0) eof = 1;
            cr_expect(eof, "%s: no %%%%EOF at the end", path);
            /* The page is the asked size in points (3.3 in = 237.6 pt, 7 in =
             * 504 pt; cairo writes whole points), and the PNG's height is that
             * same height at DPI: all formats draw one figure. */
            const char *mb = find(pdf, len, "/MediaBox [");
            cr_assert_not_null(mb, "%s: no MediaBox", path);
            double x0, y0, pw, ph;
            cr_assert_eq(sscanf(mb, "/MediaBox [ %lf %lf %lf %lf", &x0, &y0, &pw, &ph), 4);
            cr_expect(fabs(pw - (c == 0 ? 237.6 : 504.0)) < 1.0, "%s: page %g pt wide", path, pw);
            cr_expect(fabs(h - ph / 72.0 * DPI) <= DPI / 72.0 + 1.0,
                      "%s: PNG %u px high, PDF %g pt: not one size", path, h, ph);
            free(pdf);

            fmt(path, sizeof path, "%s/out/%s-%s.svg", dir, figures[i], cols[c]);
            char *svg = slurp(path, &len);
            cr_assert_not_null(svg, "missing %s", path);
            cr_expect_gt(len, 2000, "%s is only %zu bytes", path, len);
            char *open = strstr(svg, "<svg"), *close = strstr(svg, "</svg>");
            cr_expect(open && close && open < close, "%s: no <svg ...> ... </svg>", path);
            if (close) {
                for (char *t = close + 6; *t; t++)
                    cr_expect(*t == ' ' || *t == '\n' || *t == '\r', "%s: text after </svg>", path);
            }
            /* Paper versions carry no title: papers caption their figures. */
            cr_expect_null(strstr(svg, "Arena per planner"), "%s has a title", path);
            cr_expect_null(strstr(svg, "Planning time against"), "%s has a title", path);
            free(svg);
        }
    }
}

/* ---------------------------------------------------------------- CSVs */

Test(plot, arena_csv_holds_every_planner_of_the_graph_as_stored)
{
    need_figures();
    sqlite3 *db = open_db();
    long long run_id, graph_id;
    run_and_graph(db, &run_id, &graph_id);
    char path[256];
    fmt(path, sizeof path, "%s/out/arena.csv", dir);
    size_t n;
    char **l = read_lines(path, &n);
    cr_assert_geq(n, 2);
    cr_expect_str_eq(l[0], "planner,arena_bytes,lower_bound,naive_bytes,ratio_lb,saving,frag_peak,"
                           "frag_mean,plan_ns_median,plan_ns_mean,plan_ns_stddev,iterations,"
                           "scratch_bytes,valid");
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(db,
        "SELECT count(DISTINCT planner) FROM results WHERE run_id = ?1 AND graph_id = ?2",
        -1, &st, NULL), SQLITE_OK);
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_int64(st, 2, graph_id);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    long long planners = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    cr_expect_gt(planners, 3, "bench stored only %lld planners", planners);
    cr_expect_eq((long long)(n - 1), planners, "arena.csv has %zu rows, the run %lld planners", n - 1, planners);

    cr_assert_eq(sqlite3_prepare_v2(db,
        "SELECT r.arena_bytes, g.lower_bound, g.naive_bytes, r.ratio_lb, r.plan_ns_median, r.valid "
        "FROM results r JOIN graphs g ON g.id = r.graph_id "
        "WHERE r.run_id = ?1 AND r.graph_id = ?2 AND r.planner = ?3 ORDER BY r.id DESC LIMIT 1",
        -1, &st, NULL), SQLITE_OK);
    for (size_t i = 1; i < n; i++) {
        char *f[16];
        cr_assert_eq(csv_split(l[i], f, 16), 14, "row %zu: %zu fields", i, csv_split(l[i], f, 16));
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, run_id);
        sqlite3_bind_int64(st, 2, graph_id);
        sqlite3_bind_text(st, 3, f[0], -1, SQLITE_TRANSIENT);
        cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "planner %s is not in the database", f[0]);
        cr_expect_eq(strtoll(f[1], NULL, 10), sqlite3_column_int64(st, 0), "%s arena", f[0]);
        cr_expect_eq(strtoll(f[2], NULL, 10), sqlite3_column_int64(st, 1), "%s lower bound", f[0]);
        cr_expect_eq(strtoll(f[3], NULL, 10), sqlite3_column_int64(st, 2), "%s naive", f[0]);
        cr_expect(near(strtod(f[4], NULL), sqlite3_column_double(st, 3)), "%s ratio", f[0]);
        cr_expect(near(strtod(f[8], NULL), sqlite3_column_double(st, 4)), "%s median", f[0]);
        cr_expect_eq(strtoll(f[13], NULL, 10), sqlite3_column_int64(st, 5), "%s valid", f[0]);
        /* And the stored numbers obey their definitions. */
        double arena = strtod(f[1], NULL), lb = strtod(f[2], NULL);
        cr_expect_geq(arena, lb, "%s: arena below the lower bound", f[0]);
        cr_expect(fabs(strtod(f[4], NULL) - arena / lb) < 1e-6, "%s: ratio != arena / lower bound", f[0]);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
}

Test(plot, layout_csv_holds_every_placement_of_every_valid_plan)
{
    need_figures();
    sqlite3 *db = open_db();
    long long run_id, graph_id;
    run_and_graph(db, &run_id, &graph_id);
    char path[256];
    fmt(path, sizeof path, "%s/out/layout.csv", dir);
    size_t n;
    char **l = read_lines(path, &n);
    cr_expect_str_eq(l[0], "planner,tensor,size,first,last,offset");
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(db,
        "SELECT count(*) FROM placements p JOIN results r ON r.id = p.result_id "
        "WHERE r.run_id = ?1 AND r.graph_id = ?2 AND r.valid = 1", -1, &st, NULL), SQLITE_OK);
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_int64(st, 2, graph_id);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_expect_eq((long long)(n - 1), sqlite3_column_int64(st, 0));
    sqlite3_finalize(st);

    cr_assert_eq(sqlite3_prepare_v2(db,
        "SELECT p.size, p.first, p.last, p.offset FROM placements p "
        "JOIN results r ON r.id = p.result_id "
        "WHERE r.run_id = ?1 AND r.graph_id = ?2 AND r.planner = ?3 AND p.tensor = ?4",
        -1, &st, NULL), SQLITE_OK);
    for (size_t i = 1; i < n; i++) {
        char *f[8];
        cr_assert_eq(csv_split(l[i], f, 8), 6);
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, run_id);
        sqlite3_bind_int64(st, 2, graph_id);
        sqlite3_bind_text(st, 3, f[0], -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 4, strtoll(f[1], NULL, 10));
        cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "row %zu (%s tensor %s) not stored", i, f[0], f[1]);
        for (int k = 0; k < 4; k++)
            cr_expect_eq(strtoll(f[2 + k], NULL, 10), sqlite3_column_int64(st, k),
                         "row %zu column %d", i, 2 + k);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
}

Test(plot, live_csv_is_the_per_step_sum_and_peaks_at_the_lower_bound)
{
    need_figures();
    sqlite3 *db = open_db();
    long long run_id, graph_id;
    run_and_graph(db, &run_id, &graph_id);
    /* Recount live bytes here, the plain way: for every step, every tensor. */
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(db,
        "SELECT p.size, p.first, p.last FROM placements p WHERE p.result_id = "
        "(SELECT min(id) FROM results WHERE run_id = ?1 AND graph_id = ?2 AND valid = 1)",
        -1, &st, NULL), SQLITE_OK);
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_int64(st, 2, graph_id);
    long long size[4096], first[4096], last[4096], steps = 0;
    size_t t = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        cr_assert_lt(t, 4096);
        size[t] = sqlite3_column_int64(st, 0);
        first[t] = sqlite3_column_int64(st, 1);
        last[t] = sqlite3_column_int64(st, 2);
        if (last[t] + 1 > steps) steps = last[t] + 1;
        t++;
    }
    sqlite3_finalize(st);
    cr_assert_gt(t, 0);
    cr_assert_eq(sqlite3_prepare_v2(db, "SELECT lower_bound FROM graphs WHERE id = ?1", -1, &st, NULL),
                 SQLITE_OK);
    sqlite3_bind_int64(st, 1, graph_id);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    long long lb = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);

    char path[256];
    fmt(path, sizeof path, "%s/out/live.csv", dir);
    size_t n;
    char **l = read_lines(path, &n);
    cr_expect_str_eq(l[0], "step,live_bytes");
    /* Steps 0 .. steps, the last one after every tensor died (0 bytes). */
    cr_assert_eq((long long)(n - 1), steps + 1);
    long long peak = 0;
    for (long long s = 0; s <= steps; s++) {
        char *f[4];
        cr_assert_eq(csv_split(l[s + 1], f, 4), 2);
        cr_expect_eq(strtoll(f[0], NULL, 10), s);
        long long live = 0;
        for (size_t i = 0; i < t; i++)
            if (first[i] <= s && s <= last[i]) live += size[i];
        cr_expect_eq(strtoll(f[1], NULL, 10), live, "step %lld", s);
        if (live > peak) peak = live;
    }
    cr_expect_eq(peak, lb, "the busiest step holds %lld bytes, the lower bound is %lld", peak, lb);
    sqlite3_close(db);
}

Test(plot, scaling_and_quality_csvs_hold_the_runs_valid_results)
{
    need_figures();
    sqlite3 *db = open_db();
    long long run_id, graph_id;
    run_and_graph(db, &run_id, &graph_id);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(db,
        "SELECT count(*) FROM results WHERE run_id = ?1 AND valid = 1", -1, &st, NULL), SQLITE_OK);
    sqlite3_bind_int64(st, 1, run_id);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    long long valid = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);

    char path[256];
    size_t n;
    fmt(path, sizeof path, "%s/out/scaling.csv", dir);
    char **l = read_lines(path, &n);
    cr_expect_str_eq(l[0], "planner,graph,tensors,plan_ns_median,plan_ns_mean,plan_ns_stddev,"
                           "iterations,arena_bytes");
    cr_expect_eq((long long)(n - 1), valid);
    cr_assert_eq(sqlite3_prepare_v2(db,
        "SELECT g.tensors, r.plan_ns_median, r.arena_bytes FROM results r "
        "JOIN graphs g ON g.id = r.graph_id WHERE r.run_id = ?1 AND r.planner = ?2 AND g.spec = ?3",
        -1, &st, NULL), SQLITE_OK);
    for (size_t i = 1; i < n; i++) {
        char *f[10];
        cr_assert_eq(csv_split(l[i], f, 10), 8, "scaling.csv row %zu", i);
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, run_id);
        sqlite3_bind_text(st, 2, f[0], -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 3, f[1], -1, SQLITE_TRANSIENT);
        cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "%s on %s not stored", f[0], f[1]);
        cr_expect_eq(strtoll(f[2], NULL, 10), sqlite3_column_int64(st, 0));
        cr_expect(near(strtod(f[3], NULL), sqlite3_column_double(st, 1)), "%s on %s median", f[0], f[1]);
        cr_expect_eq(strtoll(f[7], NULL, 10), sqlite3_column_int64(st, 2));
    }
    sqlite3_finalize(st);

    /* The quality figure leaves naive out by default: its rows are the
     * run's valid results but naive's. */
    cr_assert_eq(sqlite3_prepare_v2(db,
        "SELECT count(*) FROM results WHERE run_id = ?1 AND valid = 1 AND planner = 'naive'",
        -1, &st, NULL), SQLITE_OK);
    sqlite3_bind_int64(st, 1, run_id);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    long long naive = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    cr_assert_gt(naive, 0, "bench stored no naive result");
    fmt(path, sizeof path, "%s/out/quality.csv", dir);
    l = read_lines(path, &n);
    cr_expect_str_eq(l[0], "planner,graph,ratio_lb,arena_bytes,lower_bound");
    cr_expect_eq((long long)(n - 1), valid - naive);
    for (size_t i = 1; i < n; i++) {
        char *f[8];
        cr_assert_eq(csv_split(l[i], f, 8), 5, "quality.csv row %zu", i);
        cr_expect_str_neq(f[0], "naive", "quality.csv row %zu is naive's", i);
        double ratio = strtod(f[2], NULL), arena = strtod(f[3], NULL), lb = strtod(f[4], NULL);
        cr_expect(ratio >= 1.0 - 1e-12, "%s on %s: ratio %g below 1", f[0], f[1], ratio);
        cr_expect(fabs(ratio - arena / lb) < 1e-6, "%s on %s: ratio is not arena / lower bound", f[0], f[1]);
    }
    sqlite3_close(db);
}

/* ---------------------------------------------------------------- tables */

Test(plot, latex_table_is_a_balanced_booktabs_tabular_with_a_row_per_planner)
{
    need_figures();
    char path[256];
    fmt(path, sizeof path, "%s/out/arena.csv", dir);
    size_t planners;
    char **csv = read_lines(path, &planners);
    planners -= 1;
    fmt(path, sizeof path, "%s/out/comparison.tex", dir);
    size_t n;
    char **l = read_lines(path, &n);
    size_t begin = n, top = n, mid = n, bottom = n, end = n, rows = 0;
    for (size_t i = 0; i < n; i++) {
        if (strncmp(l[i], "\\begin{tabular}", 15) == 0) { cr_expect_eq(begin, n); begin = i; }
        else if (strcmp(l[i], "\\toprule") == 0) top = i;
        else if (strcmp(l[i], "\\midrule") == 0) mid = i;
        else if (strcmp(l[i], "\\bottomrule") == 0) bottom = i;
        else if (strcmp(l[i], "\\end{tabular}") == 0) { cr_expect_eq(end, n); end = i; }
    }
    cr_assert(begin < top && top < mid && mid < bottom && bottom < end && end < n,
              "tabular not balanced: begin %zu top %zu mid %zu bottom %zu end %zu", begin, top, mid,
              bottom, end);
    /* Columns from the tabular spec; every row has that many cells. */
    const char *spec = strchr(l[begin], '}') + 1;
    cr_assert_eq(*spec, '{');
    size_t cols = strcspn(spec + 1, "}");
    for (size_t i = mid + 1; i < bottom; i++) {
        size_t amps = 0;
        for (const char *c = l[i]; *c; c++) amps += (*c == '&' && (c == l[i] || c[-1] != '\\'));
        cr_expect_eq(amps + 1, cols, "row '%s' has %zu cells, not %zu", l[i], amps + 1, cols);
        size_t len = strlen(l[i]);
        cr_expect(len > 2 && strcmp(l[i] + len - 2, "\\\\") == 0, "row '%s' does not end in \\\\", l[i]);
        rows++;
    }
    cr_expect_eq(rows, planners, "%zu table rows for %zu planners", rows, planners);
    /* Each planner names exactly one row, in the CSV's order. */
    for (size_t i = 0; i < planners && i + mid + 1 < bottom; i++) {
        char *f[16];
        csv_split(csv[i + 1], f, 16);
        cr_expect(strncmp(l[mid + 1 + i], f[0], strlen(f[0])) == 0 &&
                      l[mid + 1 + i][strlen(f[0])] == ' ',
                  "row %zu is '%s', want planner %s", i, l[mid + 1 + i], f[0]);
    }

    fmt(path, sizeof path, "%s/out/comparison.md", dir);
    l = read_lines(path, &n);
    size_t md_rows = 0;
    for (size_t i = 0; i < n; i++) md_rows += l[i][0] == '|';
    cr_expect_eq(md_rows, planners + 2, "markdown: %zu table lines for %zu planners", md_rows, planners);
}

/* ---------------------------------------------------------------- errors */

/* Runs plot with args and env prefix into a fresh out folder; checks a
 * non-zero exit, exactly one line on stderr and no out folder left. */
static void expect_clean_failure(const char *env, const char *args, const char *what)
{
    static int k;
    char out[256], err[256], cmd[16384];
    fmt(out, sizeof out, "%s/err-out-%d-%d", dir, (int)getpid(), k);
    fmt(err, sizeof err, "%s/err-%d-%d.txt", dir, (int)getpid(), k++);
    fmt(cmd, sizeof cmd, "%s '%s' %s --out '%s' 2>'%s' >/dev/null", env, plot, args, out, err);
    int rc = run(cmd);
    cr_expect(rc != 0 && rc != -1, "%s: exit %d, want a failure", what, rc);
    size_t len;
    char *e = slurp(err, &len);
    cr_assert_not_null(e);
    size_t lines = 0;
    for (size_t i = 0; i < len; i++) lines += e[i] == '\n';
    cr_expect(lines == 1 && len > 10 && e[len - 1] == '\n', "%s: stderr is not one line: '%s'", what, e);
    cr_expect(strncmp(e, "plot: ", 6) == 0, "%s: message does not say who speaks: '%s'", what, e);
    cr_expect(!exists(out), "%s: left %s behind", what, out);
    free(e);
}

Test(plot, missing_or_empty_database_fails_with_one_line)
{
    need_db();
    char args[512];
    fmt(args, sizeof args, "--db '%s/no-such.sqlite'", dir);
    expect_clean_failure("", args, "missing database");
    char empty[256];
    fmt(empty, sizeof empty, "%s/empty-%d.sqlite", dir, (int)getpid());
    FILE *f = fopen(empty, "w");
    cr_assert_not_null(f);
    fclose(f);
    fmt(args, sizeof args, "--db '%s'", empty);
    expect_clean_failure("", args, "empty database");
}

Test(plot, unknown_run_graph_or_planner_fails_with_one_line)
{
    need_db();
    char args[512];
    fmt(args, sizeof args, "--db '%s/db.sqlite' --run 987654", dir);
    expect_clean_failure("", args, "unknown run");
    fmt(args, sizeof args, "--db '%s/db.sqlite' --graph 'no-such-family:x=1'", dir);
    expect_clean_failure("", args, "unknown graph");
    fmt(args, sizeof args, "--db '%s/db.sqlite' --planner 'greedy-by-size,no-such-planner'", dir);
    expect_clean_failure("", args, "unknown planner");
    /* Text that would break a query pasted into SQL is just an unknown name. */
    fmt(args, sizeof args, "--db '%s/db.sqlite' --graph \"x' OR 1=1; DROP TABLE runs; --\"", dir);
    expect_clean_failure("", args, "quote in a graph");
    fmt(args, sizeof args, "--db '%s/db.sqlite' --run '1 OR 1=1'", dir);
    expect_clean_failure("", args, "expression as a run");

    sqlite3 *db = open_db();
    sqlite3_stmt *st;
    cr_expect_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM runs", -1, &st, NULL), SQLITE_OK,
                 "the runs table is gone: %s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* Copies of the set-up's real database that bench would refuse: marked as
 * another application's, and as written by a newer arenabench (schema 5).
 * Their tables are fine, so only the marks can stop plot. */
Test(plot, foreign_or_newer_database_fails_with_one_line)
{
    need_db();
    const char *marks[] = {"PRAGMA application_id = 7;", "PRAGMA user_version = 5;"};
    const char *what[] = {"foreign database", "newer database"};
    for (int i = 0; i < 2; i++) {
        char path[256], args[512];
        fmt(path, sizeof path, "%s/marks-%d-%d.sqlite", dir, (int)getpid(), i);
        sqlite3 *src = open_db(), *db = NULL;
        cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
        sqlite3_backup *b = sqlite3_backup_init(db, "main", src, "main");
        cr_assert_not_null(b);
        cr_assert_eq(sqlite3_backup_step(b, -1), SQLITE_DONE);
        sqlite3_backup_finish(b);
        sqlite3_close(src);
        cr_assert_eq(sqlite3_exec(db, marks[i], NULL, NULL, NULL), SQLITE_OK);
        sqlite3_close(db);
        fmt(args, sizeof args, "--db '%s'", path);
        expect_clean_failure("", args, what[i]);
    }
}

Test(plot, missing_gnuplot_fails_with_one_line)
{
    need_db();
    char bin[256], env[512], args[512];
    fmt(bin, sizeof bin, "%s/bin-nognuplot-%d", dir, (int)getpid());
    make_bin(bin, 0);
    fmt(env, sizeof env, "PATH='%s'", bin);
    fmt(args, sizeof args, "--db '%s/db.sqlite'", dir);
    expect_clean_failure(env, args, "gnuplot missing");
}

Test(plot, failing_gnuplot_leaves_nothing_half_written)
{
    need_db();
    char bin[256], env[512], args[512], out[256];
    fmt(bin, sizeof bin, "%s/bin-badgnuplot-%d", dir, (int)getpid());
    make_bin(bin, 1);
    fmt(env, sizeof env, "PATH='%s'", bin);
    fmt(args, sizeof args, "--db '%s/db.sqlite'", dir);
    expect_clean_failure(env, args, "gnuplot failing");
    /* An out folder that already exists stays, and stays as it was. */
    fmt(out, sizeof out, "%s/existing-%d", dir, (int)getpid());
    cr_assert_eq(mkdir(out, 0755), 0);
    char cmd[16384];
    fmt(cmd, sizeof cmd, "PATH='%s' '%s' --db '%s/db.sqlite' --out '%s' 2>/dev/null", bin, plot, dir, out);
    cr_expect_neq(run(cmd), 0);
    cr_expect(exists(out));
    cr_expect_eq(count_entries(out), 0, "files left in %s", out);
}

Test(plot, help_exits_zero_and_names_every_option)
{
    need_db();
    char cmd[8192], path[256];
    fmt(path, sizeof path, "%s/help-%d.txt", dir, (int)getpid());
    fmt(cmd, sizeof cmd, "'%s' --help >'%s'", plot, path);
    cr_assert_eq(run(cmd), 0);
    char *h = slurp(path, NULL);
    cr_assert_not_null(h);
    const char *opts[] = {"--db", "--run", "--graph", "--planner", "--out", "--size", "--format",
                          "--figures", "--dpi"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        cr_expect_not_null(strstr(h, opts[i]), "--help does not mention %s", opts[i]);
    free(h);
}
