/* test_plot.c — scripts/plot on a real database written by the real bench.
 *
 * Before any test, the runner process runs bench on three small graphs (a
 * chain and random-intervals at two sizes, so the run has a scaling series and
 * a suite) into a fresh temporary folder, then bench --replay of the chain
 * with every real allocator (REPLAY_FRAMES frames, a run of its own), then
 * scripts/plot at 100 dpi. Each
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
#define REPLAY_FRAMES 12

static char dir[64];        /* the temporary folder; set before any test forks */
static char bench[4096], plot[4096];
static int have_gnuplot;
static int setup_rc = -1;   /* bench's exit status, then plot's */
static char setup_err[512];

static const char *const figures[] = {"arena", "layout", "live", "scaling", "quality", "replay"};
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
    fmt(cmd, sizeof cmd,
        "'%s' --graph chain:ops=12 --replay all --frames %d --db '%s/db.sqlite' --quiet "
        ">>'%s/bench.out' 2>&1",
        bench, REPLAY_FRAMES, dir, dir);
    setup_rc = run(cmd);
    if (setup_rc != 0) {
        fmt(setup_err, sizeof setup_err, "bench --replay exited %d; see %s/bench.out", setup_rc, dir);
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

/* The replay figure's data: every frame of the latest replay of each real
 * allocator for the chain (glibc, jemalloc, mimalloc, in the order bench
 * replayed them), each footprint as stored; the figure draws the best
 * static arena of the run (a valid plan's, so at least the lower bound) as
 * its reference line. */
Test(plot, replay_csv_holds_every_frame_of_each_allocator_as_stored)
{
    need_figures();
    sqlite3 *db = open_db();
    long long run_id, graph_id;
    run_and_graph(db, &run_id, &graph_id);
    char path[256];
    fmt(path, sizeof path, "%s/out/replay.csv", dir);
    size_t n;
    char **l = read_lines(path, &n);
    cr_expect_str_eq(l[0], "allocator,version,footprint_source,frame,calls,footprint_peak,"
                           "extent_peak,resident_peak,live_peak,run_id");
    cr_assert_eq(n, 1 + 3 * REPLAY_FRAMES);
    const char *alloc[3] = {"glibc", "jemalloc", "mimalloc"};
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(db,
        "SELECT f.footprint_peak, f.calls, r.live_peak, g.tensors FROM replays r"
        " JOIN replay_frames f ON f.replay_id = r.id JOIN graphs g ON g.id = r.graph_id"
        " WHERE r.graph_id = ?1 AND r.allocator = ?2 AND f.frame = ?3", -1, &st, NULL), SQLITE_OK);
    for (size_t i = 1; i < n; i++) {
        char *f[12];
        cr_assert_eq(csv_split(l[i], f, 12), 10, "line %zu", i);
        size_t a = (i - 1) / REPLAY_FRAMES;
        long long frame = (long long)((i - 1) % REPLAY_FRAMES) + 1;
        cr_expect_str_eq(f[0], alloc[a], "line %zu", i);
        cr_expect_eq(strtoll(f[3], NULL, 10), frame, "line %zu", i);
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, graph_id);
        sqlite3_bind_text(st, 2, f[0], -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 3, frame);
        cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "line %zu not stored", i);
        cr_expect_eq(strtoll(f[5], NULL, 10), sqlite3_column_int64(st, 0), "line %zu", i);
        /* malloc + free of every tensor in each frame */
        cr_expect_eq(strtoll(f[4], NULL, 10), 2 * sqlite3_column_int64(st, 3), "line %zu", i);
        cr_expect_geq(strtoll(f[5], NULL, 10), sqlite3_column_int64(st, 2),
                      "line %zu: footprint below the live bytes", i);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    /* The two-column SVG names every allocator and the static arena line. */
    fmt(path, sizeof path, "%s/out/replay-2col.svg", dir);
    char *svg = slurp(path, NULL);
    cr_assert_not_null(svg);
    for (int a = 0; a < 3; a++)
        cr_expect_not_null(strstr(svg, alloc[a]), "replay-2col.svg lacks %s", alloc[a]);
    cr_expect_not_null(strstr(svg, "static arena ("), "replay-2col.svg has no static arena line");
    free(svg);
}

/* A graph that was never replayed: no replay figure, a note that says why. */
Test(plot, replay_figure_is_skipped_with_a_note_without_replays)
{
    need_figures();
    char out[256], cmd[1024], err[256];
    fmt(out, sizeof out, "%s/no-replay-%d", dir, (int)getpid());
    fmt(err, sizeof err, "%s/no-replay-%d.err", dir, (int)getpid());
    fmt(cmd, sizeof cmd, "'%s' --db '%s/db.sqlite' --graph random-intervals:n=300, --figures replay "
                         "--format png --out '%s' 2>'%s' >/dev/null", plot, dir, out, err);
    cr_assert_eq(run(cmd), 0);
    char path[300];
    fmt(path, sizeof path, "%s/replay-1col.png", out);
    cr_expect(!exists(path), "%s drawn without replays", path);
    char *text = slurp(err, NULL);
    cr_assert_not_null(text);
    cr_expect_not_null(strstr(text, "replay figure skipped: no replays of random-intervals:n=300,"),
                       "no note: %s", text);
    free(text);
}

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
                           "scratch_bytes,valid,bound,status,nodes");
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
        char *f[20];
        cr_assert_eq(csv_split(l[i], f, 20), 17, "row %zu: %zu fields", i, csv_split(l[i], f, 20));
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
    cr_expect_str_eq(l[0], "planner,tensor,size,first,last,offset,name");
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
        "SELECT p.size, p.first, p.last, p.offset, p.name FROM placements p "
        "JOIN results r ON r.id = p.result_id "
        "WHERE r.run_id = ?1 AND r.graph_id = ?2 AND r.planner = ?3 AND p.tensor = ?4",
        -1, &st, NULL), SQLITE_OK);
    for (size_t i = 1; i < n; i++) {
        char *f[8];
        cr_assert_eq(csv_split(l[i], f, 8), 7);
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, run_id);
        sqlite3_bind_int64(st, 2, graph_id);
        sqlite3_bind_text(st, 3, f[0], -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 4, strtoll(f[1], NULL, 10));
        cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "row %zu (%s tensor %s) not stored", i, f[0], f[1]);
        for (int k = 0; k < 4; k++)
            cr_expect_eq(strtoll(f[2 + k], NULL, 10), sqlite3_column_int64(st, k),
                         "row %zu column %d", i, 2 + k);
        /* The chain family names its tensors t0 .. t12 (graphs/chain.c), in
         * id order: bench stored each with its placement (schema 6). */
        char want[32];
        fmt(want, sizeof want, "t%s", f[1]);
        cr_expect_str_eq(f[6], want, "row %zu name", i);
        cr_expect_str_eq((const char *)sqlite3_column_text(st, 4), want, "row %zu stored name", i);
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
    cr_expect_str_eq(l[0], "planner,graph,ratio_lb,arena_bytes,lower_bound,ratio_best,best_bound");
    cr_expect_eq((long long)(n - 1), valid - naive);
    for (size_t i = 1; i < n; i++) {
        char *f[8];
        cr_assert_eq(csv_split(l[i], f, 8), 7, "quality.csv row %zu", i);
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
    /* A forgotten value: the next option is not taken as the database. */
    expect_clean_failure("", "--db --quiet", "option as a value");

    sqlite3 *db = open_db();
    sqlite3_stmt *st;
    cr_expect_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM runs", -1, &st, NULL), SQLITE_OK,
                 "the runs table is gone: %s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* Copies of the set-up's real database that bench would refuse: marked as
 * another application's, and as written by a newer arenabench (schema 99).
 * Their tables are fine, so only the marks can stop plot. */
Test(plot, foreign_or_newer_database_fails_with_one_line)
{
    need_db();
    const char *marks[] = {"PRAGMA application_id = 7;", "PRAGMA user_version = 99;"};
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
                          "--figures", "--dpi", "--bench", "--color-by", "--quiet", "styles.csv"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        cr_expect_not_null(strstr(h, opts[i]), "--help does not mention %s", opts[i]);
    free(h);
}

/* ---------------------------------------------------------------- hardening */

/* Copies the set-up's real database to path (SQLite's backup API, so the
 * copy is a whole database, not a WAL-less half), then runs sql on it. */
static void copy_db(const char *path, const char *sql)
{
    sqlite3 *src = open_db(), *db = NULL;
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_backup *b = sqlite3_backup_init(db, "main", src, "main");
    cr_assert_not_null(b);
    cr_assert_eq(sqlite3_backup_step(b, -1), SQLITE_DONE);
    sqlite3_backup_finish(b);
    sqlite3_close(src);
    char *msg = NULL;
    if (sql) cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, &msg), SQLITE_OK, "%s: %s", sql, msg);
    cr_assert_eq(sqlite3_exec(db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

/* The line of a file that contains needle, or NULL; *count how many do. */
static char *line_with(char **l, size_t n, const char *needle, size_t *count)
{
    char *hit = NULL;
    *count = 0;
    for (size_t i = 0; i < n; i++)
        if (strstr(l[i], needle)) { if (!hit) hit = l[i]; (*count)++; }
    return hit;
}

/* Repro #4: a graph file whose name holds a backslash and an n, and one
 * whose name holds a real line break, measured by the real bench. awk -v
 * used to expand the first into a line break, so the rest of the spec became
 * live LaTeX after the comment; the second broke gnuplot's title string.
 * Now both stay on the comment line, shown as they are (\n) or in caret
 * notation (^J), and every figure is drawn. */
Test(plot, graph_names_with_backslash_n_or_a_line_break_stay_one_line)
{
    need_figures();
    const char *names[] = {"a\\nb.graph", "a\nb.graph"};
    const char *shown[] = {"a\\nb.graph", "a^Jb.graph"};
    for (int k = 0; k < 2; k++) {
        char sub[256], path[512], db[256], out[256], cmd[16384];
        fmt(sub, sizeof sub, "%s/esc-%d-%d", dir, (int)getpid(), k);
        cr_assert_eq(mkdir(sub, 0755), 0);
        fmt(path, sizeof path, "%s/%s", sub, names[k]);
        FILE *f = fopen(path, "w");
        cr_assert_not_null(f);
        fputs("tensor x int8 1x8x8x4 input\ntensor y int8 1x8x8x8\ntensor z int8 1x8x8x4 output\n"
              "op a conv2d x -> y\nop b conv2d y -> z\n", f);
        fclose(f);
        fmt(db, sizeof db, "%s/db.sqlite", sub);
        fmt(out, sizeof out, "%s/out", sub);
        fmt(cmd, sizeof cmd, "'%s' --graph '%s' --planner all --db '%s' --repetitions 1 --min-time 0.001 "
            "--quiet >/dev/null 2>'%s/bench.err'", getenv("ARENA_BENCH"), path, db, sub);
        cr_assert_eq(run(cmd), 0, "bench on %s failed (see %s/bench.err)", shown[k], sub);
        fmt(cmd, sizeof cmd, "'%s' --db '%s' --out '%s' --dpi 50 --quiet 2>'%s/plot.err'", plot, db, out, sub);
        cr_assert_eq(run(cmd), 0, "plot on %s failed (see %s/plot.err)", shown[k], sub);
        fmt(path, sizeof path, "%s/arena-1col.png", out);
        cr_expect(exists(path), "%s: no arena figure", shown[k]);

        size_t n, hits;
        fmt(path, sizeof path, "%s/comparison.tex", out);
        char **l = read_lines(path, &n);
        char want[512];
        fmt(want, sizeof want, "%s/%s", sub, shown[k]);
        char *c = line_with(l, n, "b.graph", &hits);
        cr_expect_eq(hits, 1, "%s: the spec spans %zu lines of comparison.tex", shown[k], hits);
        cr_expect(c == l[0] && c[0] == '%' && strstr(c, want), "%s: comment line is '%s'", shown[k], l[0]);
        fmt(path, sizeof path, "%s/comparison.md", out);
        l = read_lines(path, &n);
        char code[600];
        fmt(code, sizeof code, "`%s/%s`", sub, shown[k]);
        c = line_with(l, n, "b.graph", &hits);
        cr_expect_eq(hits, 1, "%s: the spec spans %zu lines of comparison.md", shown[k], hits);
        cr_expect(c && strstr(c, code), "%s: no code span %s in '%s'", shown[k], code, c ? c : "");
    }
}

/* Planner names are text from the database too: a planner renamed in a
 * copy of the real database to hold LaTeX and Markdown specials, a line
 * break and a dollar comes out escaped for each format, and the figures
 * still draw. Expected cells by hand: LaTeX writes | as \textbar{} (a bare |
 * prints a dash in OT1), _ & % $ as \_ \& \% \$, ^ as \textasciicircum{};
 * Markdown escapes | _ with a backslash; the line break is ^J in both, and
 * gnuplot, which reads % in tic labels as a format, draws them all. */
Test(plot, planner_names_are_escaped_for_latex_and_markdown)
{
    need_figures();
    char db[256], out[256], args[1024];
    fmt(db, sizeof db, "%s/names-%d.sqlite", dir, (int)getpid());
    copy_db(db, "UPDATE results SET planner = 'we|ird_&%' || char(10) || '$x' WHERE planner = 'ping-pong';");
    fmt(out, sizeof out, "%s/names-out-%d", dir, (int)getpid());
    fmt(args, sizeof args, "'%s' --db '%s' --graph chain --out '%s' --dpi 50 --quiet 2>/dev/null", plot, db, out);
    cr_assert_eq(run(args), 0);
    char path[512];
    size_t n, hits;
    fmt(path, sizeof path, "%s/comparison.tex", out);
    char **l = read_lines(path, &n);
    char *c = line_with(l, n, "ird", &hits);
    cr_expect_eq(hits, 1);
    const char *tex = "we\\textbar{}ird\\_\\&\\%\\textasciicircum{}J\\$x & ";
    cr_expect(c && strncmp(c, tex, strlen(tex)) == 0, "tex row '%s'", c ? c : "");
    fmt(path, sizeof path, "%s/comparison.md", out);
    l = read_lines(path, &n);
    c = line_with(l, n, "ird", &hits);
    cr_expect_eq(hits, 1);
    cr_expect(c && strncmp(c, "| we\\|ird\\_&%^J$x | ", 20) == 0, "md row '%s'", c ? c : "");
    fmt(path, sizeof path, "%s/layout-2col.png", out);
    cr_expect(exists(path));
}

/* Repro #13: plot on a database in a read-only folder. It used to fail
 * ("unable to open database file"), and elsewhere it left -wal and -shm
 * files beside the database. Root ignores folder permissions, so as root
 * plot runs as nobody (setpriv); the folder then holds the database alone. */
Test(plot, reads_a_database_in_a_read_only_folder_and_leaves_nothing_beside_it)
{
    need_figures();
    int root = geteuid() == 0;
    if (root && run("command -v setpriv >/dev/null 2>&1") != 0)
        cr_skip_test("running as root without setpriv: a read-only folder cannot be made");
    char ro[256], db[320], out[256], cmd[16384];
    fmt(ro, sizeof ro, "%s/ro-%d", dir, (int)getpid());
    cr_assert_eq(mkdir(ro, 0755), 0);
    fmt(db, sizeof db, "%s/db.sqlite", ro);
    copy_db(db, "PRAGMA journal_mode = WAL;"); /* WAL as bench leaves it */
    cr_assert_eq(chmod(db, 0644), 0);
    cr_assert_eq(chmod(ro, 0555), 0);
    cr_assert_eq(chmod(dir, 0755), 0); /* nobody must reach the folder */
    fmt(out, sizeof out, "%s/ro-out-%d", dir, (int)getpid());
    cr_assert_eq(mkdir(out, 0777), 0);
    cr_assert_eq(chmod(out, 0777), 0);
    fmt(cmd, sizeof cmd, "%s '%s' --db '%s' --out '%s' --figures arena,tables --dpi 50 --quiet 2>'%s/ro.err'",
        root ? "setpriv --reuid=65534 --regid=65534 --clear-groups" : "", plot, db, out, out);
    int rc = run(cmd);
    char err[512];
    fmt(err, sizeof err, "%s/ro.err", out);
    char *e = slurp(err, NULL);
    cr_expect_eq(rc, 0, "plot on a read-only folder: exit %d: %s", rc, e ? e : "");
    free(e);
    char path[512];
    fmt(path, sizeof path, "%s/arena.csv", out);
    cr_expect(exists(path), "no arena.csv");
    cr_expect_eq(count_entries(ro), 1, "%s holds more than the database", ro);
    cr_assert_eq(chmod(ro, 0755), 0);

    /* In a writable folder, nothing beside the database either. */
    char rw[256];
    fmt(rw, sizeof rw, "%s/rw-%d", dir, (int)getpid());
    cr_assert_eq(mkdir(rw, 0755), 0);
    fmt(db, sizeof db, "%s/db.sqlite", rw);
    copy_db(db, "PRAGMA journal_mode = WAL;");
    fmt(cmd, sizeof cmd, "'%s' --db '%s' --out '%s/out' --figures tables --quiet 2>/dev/null", plot, db, rw);
    cr_expect_eq(run(cmd), 0);
    fmt(path, sizeof path, "%s-wal", db);
    cr_expect(!exists(path), "plot left %s", path);
    fmt(path, sizeof path, "%s-shm", db);
    cr_expect(!exists(path), "plot left %s", path);
}

/* An ambiguous --graph names the graphs it matches, and only those. */
Test(plot, ambiguous_graph_lists_the_matching_graphs)
{
    need_db();
    char err[256], cmd[8192];
    fmt(err, sizeof err, "%s/amb-%d.txt", dir, (int)getpid());
    fmt(cmd, sizeof cmd, "'%s' --db '%s/db.sqlite' --graph random-intervals --out '%s/amb-out' 2>'%s'",
        plot, dir, dir, err);
    cr_expect_eq(run(cmd), 2);
    char *e = slurp(err, NULL);
    cr_assert_not_null(e);
    cr_expect(strstr(e, "names 2 graphs"), "message: %s", e);
    cr_expect(strstr(e, "random-intervals:n=300,") && strstr(e, "random-intervals:n=3000,"),
              "message does not list both matches: %s", e);
    cr_expect_null(strstr(e, "chain"), "message lists a graph that does not match: %s", e);
    free(e);
}

/* ---------------------------------------------------------------- registry */

/* Reads styles.csv: names (quoted), kinds, colors, dashes, points. */
struct style { char name[64], kind[32], color[16]; int dash, point; };
static size_t read_styles(const char *out, struct style *s, size_t max)
{
    char path[512];
    fmt(path, sizeof path, "%s/styles.csv", out);
    size_t n;
    char **l = read_lines(path, &n);
    cr_assert_geq(n, 1);
    cr_expect_str_eq(l[0], "planner,kind,color,dash,point");
    size_t k = 0;
    for (size_t i = 1; i < n && k < max; i++, k++) {
        char *f[8];
        cr_assert_eq(csv_split(l[i], f, 8), 5, "styles.csv row %zu", i);
        fmt(s[k].name, sizeof s[k].name, "%s", f[0]);
        fmt(s[k].kind, sizeof s[k].kind, "%s", f[1]);
        fmt(s[k].color, sizeof s[k].color, "%s", f[2]);
        s[k].dash = atoi(f[3]);
        s[k].point = atoi(f[4]);
    }
    return k;
}

/* The real bench's registry (bench --list --format csv: name,kind,summary)
 * gives the order of every figure and table. Skips while bench does not
 * print it (the CSV listing lands with branch h-bench). */
Test(plot, planners_follow_the_registry_of_the_real_bench)
{
    need_figures();
    char cmd[8192], path[256];
    fmt(path, sizeof path, "%s/list-%d.csv", dir, (int)getpid());
    fmt(cmd, sizeof cmd, "'%s' --list --format csv >'%s' 2>/dev/null", getenv("ARENA_BENCH"), path);
    size_t n;
    char **l = run(cmd) == 0 ? read_lines(path, &n) : NULL;
    if (!l || n < 2 || strcmp(l[0], "name,kind,summary") != 0)
        cr_skip_test("bench --list --format csv does not print name,kind,summary yet (branch h-bench adds it)");
    fmt(cmd, sizeof cmd, "'%s' --db '%s/db.sqlite' --graph chain --out '%s/reg-%d' --bench '%s' "
        "--figures arena,tables --quiet 2>/dev/null", plot, dir, dir, (int)getpid(), getenv("ARENA_BENCH"));
    cr_assert_eq(run(cmd), 0);
    struct style s[64];
    char out[256];
    fmt(out, sizeof out, "%s/reg-%d", dir, (int)getpid());
    size_t ns = read_styles(out, s, 64), k = 0;
    /* The run measured every registered planner: styles.csv lists them in
     * the registry's order, with the registry's kinds. */
    for (size_t i = 1; i < n; i++) {
        char *f[4];
        if (csv_split(l[i], f, 4) < 2) continue;
        cr_assert_lt(k, ns, "registry planner %s missing from the figures", f[0]);
        cr_expect_str_eq(s[k].name, f[0], "place %zu", k);
        cr_expect_str_eq(s[k].kind, f[1], "%s's kind", f[0]);
        k++;
    }
    cr_expect_eq(k, ns);
}

/* The contract itself, with a stand-in bench that lists the field's
 * planners: the six of today, then equality, greedy-in-order, ... and the
 * online policies (17). A copy of the real database gets a result for each
 * new name (greedy-by-size's, with its placements). Every planner must get
 * its own color, dash and point triple, the first eight in Okabe-Ito order;
 * by kind, planners of one kind share a color and no two share a triple.
 * Every figure draws, one-column ones within 3.3 in x 3 in. */
static const char *const field[][2] = {
    {"naive", "offsets"}, {"ping-pong", "shared-objects"}, {"greedy-by-size", "offsets"},
    {"greedy-by-size-firstfit", "offsets"}, {"greedy-by-breadth", "offsets"},
    {"interval-graph-coloring", "shared-objects"}, {"equality", "offsets"},
    {"greedy-in-order", "offsets"}, {"min-cost-flow", "shared-objects"},
    {"greedy-by-conflicts", "offsets"}, {"hill-climb", "search"}, {"xla-best-fit", "offsets"},
    {"optimal", "search"}, {"online-first-fit", "online"}, {"online-best-fit", "online"},
    {"online-buddy", "online"}, {"online-tlsf", "online"},
};
#define NFIELD (sizeof field / sizeof field[0])

static void field_db(char *db, size_t dbn, char *fake, size_t fn)
{
    fmt(db, dbn, "%s/field-%d.sqlite", dir, (int)getpid());
    char sql[4096] = "CREATE TEMP TABLE names(n TEXT);";
    for (size_t i = 6; i < NFIELD; i++) {
        char one[128];
        fmt(one, sizeof one, "INSERT INTO names VALUES ('%s');", field[i][0]);
        strcat(sql, one);
    }
    strcat(sql,
        "INSERT INTO results (run_id, graph_id, planner, arena_bytes, ratio_lb, saving, frag_peak,"
        " frag_mean, plan_ns_median, plan_ns_mean, plan_ns_stddev, iterations, scratch_bytes, valid, error)"
        " SELECT run_id, graph_id, n, arena_bytes, ratio_lb, saving, frag_peak, frag_mean, plan_ns_median,"
        " plan_ns_mean, plan_ns_stddev, iterations, scratch_bytes, valid, error"
        " FROM results, temp.names WHERE planner = 'greedy-by-size'"
        " AND n NOT IN (SELECT planner FROM results);"
        "DELETE FROM temp.names WHERE n IN (SELECT planner FROM results r, temp.names t"
        " WHERE r.planner = t.n AND r.id IN (SELECT result_id FROM placements));"
        "INSERT INTO placements SELECT r2.id, p.tensor, p.size, p.first, p.last, p.offset, p.name"
        " FROM results r2 JOIN results r1 ON r1.planner = 'greedy-by-size' AND r1.run_id = r2.run_id"
        " AND r1.graph_id = r2.graph_id JOIN placements p ON p.result_id = r1.id"
        " WHERE r2.planner IN (SELECT n FROM temp.names);");
    copy_db(db, sql);
    fmt(fake, fn, "%s/fake-bench-%d", dir, (int)getpid());
    FILE *f = fopen(fake, "w");
    cr_assert_not_null(f);
    fputs("#!/bin/sh\n[ \"$*\" = '--list --format csv' ] || exit 2\necho name,kind,summary\n", f);
    for (size_t i = 0; i < NFIELD; i++)
        fprintf(f, "echo '%s,%s,\"a summary, with a comma\"'\n", field[i][0], field[i][1]);
    fclose(f);
    cr_assert_eq(chmod(fake, 0755), 0);
}

Test(plot, every_planner_of_the_registry_gets_its_own_style)
{
    need_figures();
    char db[256], fake[256], out[256], cmd[16384];
    field_db(db, sizeof db, fake, sizeof fake);
    static const char *const okabe_ito[] = {"#000000", "#E69F00", "#56B4E9", "#009E73",
                                            "#0072B2", "#D55E00", "#CC79A7", "#999999"};
    for (int bykind = 0; bykind < 2; bykind++) {
        fmt(out, sizeof out, "%s/field-out-%d-%d", dir, (int)getpid(), bykind);
        fmt(cmd, sizeof cmd, "'%s' --db '%s' --graph chain --bench '%s' --color-by %s --out '%s' "
            "--dpi %d --quiet 2>'%s.err'", plot, db, fake, bykind ? "kind" : "planner", out, DPI, out);
        cr_assert_eq(run(cmd), 0, "plot with 17 planners failed (see %s.err)", out);
        struct style s[64];
        size_t ns = read_styles(out, s, 64);
        cr_assert_eq(ns, NFIELD);
        for (size_t i = 0; i < ns; i++) {
            cr_expect_str_eq(s[i].name, field[i][0], "place %zu", i);
            cr_expect_str_eq(s[i].kind, field[i][1], "%s's kind", s[i].name);
            if (!bykind && i < 8) cr_expect_str_eq(s[i].color, okabe_ito[i], "%s's color", s[i].name);
            for (size_t j = 0; j < i; j++) {
                cr_expect(strcmp(s[i].color, s[j].color) != 0 || s[i].dash != s[j].dash ||
                              s[i].point != s[j].point,
                          "%s and %s look alike", s[i].name, s[j].name);
                if (bykind)
                    cr_expect_eq(strcmp(s[i].color, s[j].color) == 0, strcmp(s[i].kind, s[j].kind) == 0,
                                 "%s (%s) and %s (%s): color by kind", s[i].name, s[i].kind, s[j].name,
                                 s[j].kind);
            }
        }
        /* One-column PNGs: 3.3 in wide, at most 3 in (and a rounding) tall. */
        for (size_t i = 0; i < NFIG; i++) {
            char path[512];
            size_t len;
            fmt(path, sizeof path, "%s/%s-1col.png", out, figures[i]);
            unsigned char *png = (unsigned char *)slurp(path, &len);
            cr_assert(png && len > 24, "missing %s", path);
            cr_expect_eq(be32(png + 16), 330u, "%s: width", path);
            cr_expect_leq(be32(png + 20), 3u * DPI + 1, "%s: %u px tall at %d dpi", path, be32(png + 20), DPI);
            free(png);
        }
    }
}

/* ---------------------------------------------------------------- schema */

/* Schema 4 (the optimal planner's): results gain bound, status, nodes. A
 * copy of the real database migrated by hand: greedy-by-size's plans of
 * random-intervals:n=300 claim a proven bound equal to their arena (status
 * optimal). The tables then show "× optimum" = arena / that arena for every
 * planner, worked out here from the database; arena.csv carries the three
 * columns; the arena and live figures draw the optimum line. Schema 3 reads
 * as 2 did, and a schema-4 file with no bound behaves as before. */
Test(plot, a_proven_optimum_is_the_reference_line_in_schema_4)
{
    need_figures();
    char db[256], out[256], cmd[16384];
    fmt(db, sizeof db, "%s/v4-%d.sqlite", dir, (int)getpid());
    /* The real bench writes the current schema, where every valid result has
     * a bound (at least the lower bound); the proven figure is planted. */
    copy_db(db, "UPDATE results SET bound = arena_bytes, status = 'optimal', nodes = 0"
                " WHERE planner = 'greedy-by-size' AND graph_id ="
                " (SELECT id FROM graphs WHERE spec LIKE 'random-intervals:n=300,%');");
    fmt(out, sizeof out, "%s/v4-out-%d", dir, (int)getpid());
    fmt(cmd, sizeof cmd, "'%s' --db '%s' --graph random-intervals:n=300, --out '%s' --dpi 50 --quiet 2>'%s.err'",
        plot, db, out, out);
    cr_assert_eq(run(cmd), 0, "plot on schema 4 failed (see %s.err)", out);

    sqlite3 *d = NULL;
    cr_assert_eq(sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(d, "SELECT r.arena_bytes FROM results r JOIN graphs g ON g.id = r.graph_id"
        " WHERE g.spec LIKE 'random-intervals:n=300,%' AND r.planner = ?1", -1, &st, NULL), SQLITE_OK);
    sqlite3_bind_text(st, 1, "greedy-by-size", -1, SQLITE_STATIC);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    double opt = sqlite3_column_double(st, 0);

    char path[512];
    size_t n;
    fmt(path, sizeof path, "%s/comparison.md", out);
    char **l = read_lines(path, &n);
    cr_assert_geq(n, 4);
    /* read_lines drops the empty line: caption, header, rule, rows. */
    cr_expect(strstr(l[1], "| × lower bound | × optimum |"), "md header: %s", l[1]);
    size_t rows = 0;
    for (size_t i = 3; i < n; i++) {
        char name[64];
        double arena_k, ratio, ratio_opt;
        if (sscanf(l[i], "| %63s | %lf | %lf | %lf |", name, &arena_k, &ratio, &ratio_opt) != 4) continue;
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
        cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "%s not stored", name);
        double want = sqlite3_column_double(st, 0) / opt;
        cr_expect(fabs(ratio_opt - want) < 0.0006, "%s: × optimum %g, want %.4f", name, ratio_opt, want);
        rows++;
    }
    cr_expect_geq(rows, 6, "%zu rows with a × optimum", rows);
    sqlite3_finalize(st);
    sqlite3_close(d);

    fmt(path, sizeof path, "%s/arena.csv", out);
    l = read_lines(path, &n);
    size_t len = strlen(l[0]);
    cr_expect(len > 19 && strcmp(l[0] + len - 19, ",bound,status,nodes") == 0, "arena.csv header: %s", l[0]);
    const char *svgs[] = {"arena-2col.svg", "live-2col.svg"};
    for (int i = 0; i < 2; i++) {
        fmt(path, sizeof path, "%s/%s", out, svgs[i]);
        char *svg = slurp(path, NULL);
        cr_assert_not_null(svg, "missing %s", path);
        cr_expect_not_null(strstr(svg, ">optimum<"), "%s has no optimum line label", svgs[i]);
        free(svg);
    }

    /* Schema 3, and schema 4 without any bound: no optimum anywhere. */
    const char *plain[] = {"ALTER TABLE results DROP COLUMN bound;"
                           "ALTER TABLE results DROP COLUMN status;"
                           "ALTER TABLE results DROP COLUMN nodes;"
                           "ALTER TABLE results DROP COLUMN timed_once;"
                           "ALTER TABLE placements DROP COLUMN name;"
                           "DROP TABLE replay_frames; DROP TABLE replays; PRAGMA user_version = 3;",
                           "UPDATE results SET bound = NULL, status = NULL, nodes = NULL;"
                           "ALTER TABLE placements DROP COLUMN name;"
                           "DROP TABLE replay_frames; DROP TABLE replays; PRAGMA user_version = 4;"};
    for (int k = 0; k < 2; k++) {
        fmt(db, sizeof db, "%s/v%d-plain-%d.sqlite", dir, 3 + k, (int)getpid());
        copy_db(db, plain[k]);
        fmt(out, sizeof out, "%s/v%d-plain-out-%d", dir, 3 + k, (int)getpid());
        fmt(cmd, sizeof cmd, "'%s' --db '%s' --out '%s' --figures arena,tables --format svg --quiet 2>/dev/null",
            plot, db, out);
        cr_assert_eq(run(cmd), 0, "plot on schema %d failed", 3 + k);
        fmt(path, sizeof path, "%s/comparison.md", out);
        char *md = slurp(path, NULL);
        cr_assert_not_null(md);
        cr_expect_null(strstr(md, "optimum"), "schema %d without bounds shows an optimum", 3 + k);
        free(md);
    }
}
