/* test_readme.c — the commands of README.md and docs/ run as written,
 * and their links lead somewhere.
 *
 * The README promises that every command it and the pages of docs/ show
 * runs verbatim from a fresh clone after its two set-up commands. This test
 * reads README.md, then docs/NAME.md in name order, takes their commands, and
 * runs the quick ones in that order, in one temporary folder that looks like
 * a fresh clone's root: `build` a link to the build tree this test belongs
 * to, `scripts`, `graphs`, `include`, `examples` and (when fetched)
 * `models` links to the source tree, and a real `results/figures/` (as committed), so whatever a command
 * writes (results/arenabench.sqlite, results/charts/, plans/, exact.sqlite)
 * lands in the temporary folder, never in the source. A page may use what an
 * earlier page's commands wrote, as a reader who followed them would.
 *
 * What is a command: every line of a ```sh block but comments, and every
 * line of an indented (4+ spaces) code block whose first word is a program a
 * reader would run here: build/..., build-fuzz/..., scripts/..., tests/...,
 * sqlite3, meson, cc, head, cp, CC=..., or bench (which is not on PATH in a
 * fresh clone: such a line fails the test). A command continues over the
 * next lines while a quote is open or the line ends with a backslash.
 *
 * Not run, each with a line on stderr:
 *  - a command whose comment gives its minutes (`# ..., ~7 min`);
 *  - the ones in `elsewhere` below, which need another machine or build;
 *  - commands naming models/ (or the docs' my_model.tflite and
 *    my_model.onnx stand-ins)
 *    when scripts/fetch-models has not been run.
 * my_model.tflite and my_model.onnx, the docs' names for "your own
 * model", are links to fetched models here (my_model.onnx: PP-OCR's
 * direction classifier as fetched, symbolic dims and all, input x).
 *
 * Links: every relative Markdown link or image of these files, outside code,
 * names a file that exists (relative to the page), and a `#fragment` names a
 * heading of its page, slugged as GitHub does (lower case; letters, digits,
 * `-` and `_` kept, spaces made `-`, the rest dropped; a repeated slug gains
 * -1, -2, ...). */
#include <criterion/criterion.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MODEL ARENA_SOURCE_ROOT "/models/face_detection_short_range.tflite"

/* The files read, as a reader names them from the clone's root: README.md,
 * then docs/NAME.md in name order. */
struct pages {
    char **name;
    size_t n;
};

struct command {
    const char *page; /* its file, e.g. docs/bench.md (owned by struct pages) */
    int line;         /* line of its first line in that file */
    char *text;       /* the command, continuation lines joined with '\n' */
};

struct commands {
    struct command *c;
    size_t n, cap;
};

/* Commands that cannot run inside this test, by their first characters. */
static const struct {
    const char *prefix, *why;
} elsewhere[] = {
    {"scripts/bootstrap", "installs packages and configures build/, which this test runs in"},
    {"meson", "a meson command on the build this test runs from would rebuild or retest it"
              " from inside itself"},
    {"CC=clang", "the libFuzzer build (clang, -Dfuzz=true): minutes, run by .ci/run"},
    {"tests/fuzz/run", "needs the libFuzzer build (build-fuzz), run by .ci/run"},
    {"build-fuzz/", "needs the libFuzzer build (build-fuzz), run by .ci/run"},
    {"scripts/slurm/submit", "needs a Slurm cluster (scripts/slurm/selftest starts one in CI)"},
};

static int is_command_word(const char *s)
{
    static const char *const dirs[] = {"build/", "build-fuzz/", "scripts/", "tests/", "CC="};
    static const char *const words[] = {"sqlite3", "meson", "cc", "head", "cp", "bench"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
        if (strncmp(s, dirs[i], strlen(dirs[i])) == 0)
            return 1;
    size_t w = strcspn(s, " \t\n");
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (w == strlen(words[i]) && strncmp(s, words[i], w) == 0)
            return 1;
    return 0;
}

/* 1 when the shell text s needs another line: a quote left open, or a
 * final backslash. */
static int unfinished(const char *s)
{
    char q = 0;
    size_t len = strlen(s);
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        if (q == '\'') {
            if (ch == '\'')
                q = 0;
        } else if (q == '"') {
            if (ch == '\\' && i + 1 < len)
                i++;
            else if (ch == '"')
                q = 0;
        } else if (ch == '\\' && i + 1 < len) {
            i++;
        } else if (ch == '\'' || ch == '"') {
            q = ch;
        } else if (ch == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t')) {
            break; /* a comment: quotes in it do not count */
        }
    }
    if (q)
        return 1;
    while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
        len--;
    return len && s[len - 1] == '\\';
}

static void add(struct commands *cs, const char *page, int line, const char *text)
{
    if (cs->n == cs->cap) {
        cs->cap = cs->cap ? 2 * cs->cap : 64;
        cs->c = realloc(cs->c, cs->cap * sizeof *cs->c);
        cr_assert_not_null(cs->c);
    }
    cs->c[cs->n].page = page;
    cs->c[cs->n].line = line;
    char *t = strdup(text);
    cr_assert_not_null(t);
    size_t len = strlen(t);
    while (len && t[len - 1] == '\n')
        t[--len] = 0;
    cs->c[cs->n].text = t;
    cs->n++;
}

static int is_markdown(const struct dirent *e)
{
    size_t len = strlen(e->d_name);
    return e->d_name[0] != '.' && len > 3 && strcmp(e->d_name + len - 3, ".md") == 0;
}

static struct pages read_pages(void)
{
    struct dirent **e;
    int n = scandir(ARENA_SOURCE_ROOT "/docs", &e, is_markdown, alphasort);
    cr_assert_geq(n, 0, "docs/: cannot list: %s", strerror(errno));
    struct pages ps = {malloc(((size_t)n + 1) * sizeof *ps.name), 0};
    cr_assert_not_null(ps.name);
    ps.name[ps.n++] = strdup("README.md");
    for (int i = 0; i < n; i++) {
        char name[300];
        snprintf(name, sizeof name, "docs/%s", e[i]->d_name);
        ps.name[ps.n++] = strdup(name);
        free(e[i]);
    }
    free(e);
    for (size_t i = 0; i < ps.n; i++)
        cr_assert_not_null(ps.name[i]);
    return ps;
}

static void free_pages(struct pages *ps)
{
    for (size_t i = 0; i < ps->n; i++)
        free(ps->name[i]);
    free(ps->name);
}

static FILE *open_page(const char *page)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", ARENA_SOURCE_ROOT, page);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s: cannot open: %s", page, strerror(errno));
    return f;
}

/* Appends the commands of one page to cs. */
static void read_commands_of(const char *page, struct commands *cs)
{
    FILE *f = open_page(page);
    char line[8192], cmd[16384];
    int fence = 0, sh = 0, no = 0, start = 0;
    cmd[0] = 0;
    while (fgets(line, sizeof line, f)) {
        no++;
        if (cmd[0]) { /* a continuation line, as it stands */
            cr_assert_lt(strlen(cmd) + strlen(line), sizeof cmd, "%s:%d: command too long", page,
                         start);
            strcat(cmd, line);
            if (!unfinished(cmd)) {
                add(cs, page, start, cmd);
                cmd[0] = 0;
            }
            continue;
        }
        if (strncmp(line, "```", 3) == 0) {
            sh = !fence && strncmp(line + 3, "sh", 2) == 0 && (line[5] == '\n' || line[5] == ' ');
            fence = !fence;
            continue;
        }
        const char *s = line + strspn(line, " ");
        size_t indent = (size_t)(s - line);
        int take;
        if (fence)
            take = sh && *s != '#' && *s != '\n' && *s;
        else
            take = indent >= 4 && is_command_word(s);
        if (!take)
            continue;
        start = no;
        snprintf(cmd, sizeof cmd, "%s", s);
        if (!unfinished(cmd)) {
            add(cs, page, start, cmd);
            cmd[0] = 0;
        }
    }
    fclose(f);
    cr_assert_eq(cmd[0], 0, "%s:%d: a command's quote is never closed", page, start);
}

static struct commands read_commands(const struct pages *ps)
{
    struct commands cs = {0};
    for (size_t i = 0; i < ps->n; i++)
        read_commands_of(ps->name[i], &cs);
    return cs;
}

static void free_commands(struct commands *cs)
{
    for (size_t i = 0; i < cs->n; i++)
        free(cs->c[i].text);
    free(cs->c);
}

/* The reason a command is not run here, or NULL. */
static const char *not_here(const char *cmd, int have_models)
{
    for (size_t i = 0; i < sizeof elsewhere / sizeof *elsewhere; i++)
        if (strncmp(cmd, elsewhere[i].prefix, strlen(elsewhere[i].prefix)) == 0)
            return elsewhere[i].why;
    regex_t re;
    cr_assert_eq(regcomp(&re, "#.*~[0-9.]+ min", REG_EXTENDED | REG_NOSUB), 0);
    int long_one = regexec(&re, cmd, 0, NULL, 0) == 0;
    regfree(&re);
    if (long_one)
        return "long: its comment gives its minutes";
    if (!have_models && (strstr(cmd, "models/") || strstr(cmd, "my_model.tflite") ||
                         strstr(cmd, "my_model.onnx")))
        return "needs models/ (scripts/fetch-models has not been run)";
    return NULL;
}

Test(readme, commands_name_bench_by_its_path)
{
    struct pages ps = read_pages();
    struct commands cs = read_commands(&ps);
    /* The README and docs/ show dozens of commands; finding few means the
     * reading above broke, not that the pages lost them. */
    cr_assert_geq(cs.n, 30, "only %zu commands found in README.md and docs/", cs.n);
    int sqlite_multiline = 0;
    for (size_t i = 0; i < cs.n; i++) {
        cr_expect_neq(strncmp(cs.c[i].text, "bench ", 6), 0,
                      "%s:%d: 'bench' is not on PATH in a fresh clone: write"
                      " build/bench/bench (%.60s)", cs.c[i].page, cs.c[i].line, cs.c[i].text);
        if (strncmp(cs.c[i].text, "sqlite3", 7) == 0 && strstr(cs.c[i].text, "ORDER BY"))
            sqlite_multiline = 1;
    }
    cr_expect(sqlite_multiline, "the sqlite3 queries were not read across their lines");
    free_commands(&cs);
    free_pages(&ps);
}

Test(readme, continuation_rules)
{
    cr_expect(unfinished("sqlite3 db \"\nSELECT 1\n"));
    cr_expect(!unfinished("sqlite3 db \"\nSELECT 1;\"\n"));
    cr_expect(unfinished("scripts/sweep -o x \\\n"));
    cr_expect(!unfinished("build/bench/bench --graph 'a;b'   # it's a comment\n"));
    cr_expect(!unfinished("cp a b\n"));
    cr_expect(not_here("build/bench/bench --graph all            # every family, ~3.5 min", 1));
    cr_expect(!not_here("build/bench/bench --graph all --planner a,b   # seconds", 1));
    cr_expect(not_here("build/bench/bench --graph models/x.tflite", 0));
    cr_expect(!not_here("build/bench/bench --graph models/x.tflite", 1));
}

/* GitHub's anchor of a heading: lower case, ASCII letters and digits, `-`
 * and `_` kept, spaces made `-`, other ASCII dropped (backquotes, `:`, `|`,
 * `*`); of the rest, punctuation and symbols dropped (U+00A0..U+00BF but for
 * ª and º, ×, ÷, and U+2000..U+2BFF: dashes, quotes, arrows, operators),
 * other letters kept. */
static void slug(const char *text, char *out, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t o = 0;
    while (*s && *s != '\n' && o + 5 < len) {
        size_t w = *s < 0x80 ? 1 : *s < 0xe0 ? 2 : *s < 0xf0 ? 3 : 4;
        int keep;
        if (*s < 0x80)
            keep = isalnum(*s) || *s == '-' || *s == '_' || *s == ' ';
        else if (*s == 0xc2)
            keep = s[1] == 0xaa || s[1] == 0xba;
        else if (*s == 0xc3)
            keep = s[1] != 0x97 && s[1] != 0xb7;
        else
            keep = !(*s == 0xe2 && s[1] >= 0x80 && s[1] <= 0xaf);
        for (size_t i = 0; i < w && s[i]; i++)
            if (keep)
                out[o++] = s[i] == ' ' ? '-' : (char)tolower(s[i]);
        s += w;
    }
    out[o] = 0;
}

struct anchors {
    char (*a)[256];
    size_t n, cap;
};

/* The anchors of a page's headings (outside code blocks), repeats numbered
 * as GitHub numbers them. */
static struct anchors read_anchors(const char *page)
{
    struct anchors as = {0};
    FILE *f = open_page(page);
    char line[8192];
    int fence = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "```", 3) == 0)
            fence = !fence;
        size_t h = strspn(line, "#");
        if (fence || h == 0 || h > 6 || line[h] != ' ')
            continue;
        char text[8192], base[256], name[256];
        snprintf(text, sizeof text, "%s", line + h + 1);
        size_t len = strcspn(text, "\n");
        while (len && (text[len - 1] == ' ' || text[len - 1] == '#'))
            len--;
        text[len] = 0;
        slug(text, base, sizeof base);
        snprintf(name, sizeof name, "%s", base);
        for (int k = 1;; k++) {
            size_t i = 0;
            while (i < as.n && strcmp(as.a[i], name) != 0)
                i++;
            if (i == as.n)
                break;
            snprintf(name, sizeof name, "%.240s-%d", base, k);
        }
        if (as.n == as.cap) {
            as.cap = as.cap ? 2 * as.cap : 32;
            as.a = realloc(as.a, as.cap * sizeof *as.a);
            cr_assert_not_null(as.a);
        }
        snprintf(as.a[as.n++], sizeof *as.a, "%s", name);
    }
    fclose(f);
    return as;
}

static int has_anchor(const char *page, const char *fragment)
{
    struct anchors as = read_anchors(page);
    int found = 0;
    for (size_t i = 0; i < as.n && !found; i++)
        found = strcmp(as.a[i], fragment) == 0;
    free(as.a);
    return found;
}

/* The page a link of `page` names, relative to the clone's root ("docs/x.md",
 * "README.md", "results/figures/a.png"): `..` and `.` resolved. 0 when the
 * link leaves the clone. */
static int resolve(const char *page, const char *target, char *out, size_t len)
{
    char path[4096];
    const char *slash = strrchr(page, '/');
    int dir = slash ? (int)(slash - page + 1) : 0;
    snprintf(path, sizeof path, "%.*s%s", dir, page, target);
    size_t o = 0;
    out[0] = 0;
    for (char *part = strtok(path, "/"); part; part = strtok(NULL, "/")) {
        if (strcmp(part, ".") == 0)
            continue;
        if (strcmp(part, "..") == 0) {
            if (o == 0)
                return 0;
            char *up = strrchr(out, '/');
            o = up ? (size_t)(up - out) : 0;
            out[o] = 0;
            continue;
        }
        o += (size_t)snprintf(out + o, len - o, "%s%s", o ? "/" : "", part);
        if (o >= len)
            return 0;
    }
    return o > 0;
}

/* Checks the relative links of one page; the number checked. */
static size_t check_links(const char *page)
{
    FILE *f = open_page(page);
    char line[8192];
    int fence = 0, no = 0;
    size_t checked = 0;
    while (fgets(line, sizeof line, f)) {
        no++;
        if (strncmp(line, "```", 3) == 0)
            fence = !fence;
        if (fence)
            continue;
        int code = 0;
        for (char *s = line; *s; s++) {
            if (*s == '`')
                code = !code;
            if (code || s[0] != ']' || s[1] != '(')
                continue;
            char target[4096];
            size_t len = strcspn(s + 2, ") \n");
            snprintf(target, sizeof target, "%.*s", (int)len, s + 2);
            if (strstr(target, "://") || strncmp(target, "mailto:", 7) == 0)
                continue;
            char *hash = strchr(target, '#');
            const char *fragment = hash ? hash + 1 : NULL;
            if (hash)
                *hash = 0;
            char where[4096];
            checked++;
            if (target[0] == 0) {
                snprintf(where, sizeof where, "%s", page);
            } else if (!resolve(page, target, where, sizeof where)) {
                cr_expect_fail("%s:%d: link '%s' leaves the clone", page, no, target);
                continue;
            }
            char path[8300];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", ARENA_SOURCE_ROOT, where);
            if (stat(path, &st) != 0) {
                cr_expect_fail("%s:%d: link '%s': no file %s", page, no, target, where);
                continue;
            }
            size_t wl = strlen(where);
            if (fragment && (wl < 3 || strcmp(where + wl - 3, ".md") != 0))
                cr_expect_fail("%s:%d: link '%s#%s': a fragment of a file that is not Markdown",
                               page, no, target, fragment);
            else if (fragment && !has_anchor(where, fragment))
                cr_expect_fail("%s:%d: link '%s#%s': %s has no heading with that anchor", page,
                               no, target, fragment, where);
        }
    }
    fclose(f);
    return checked;
}

Test(readme, relative_links_lead_somewhere)
{
    struct pages ps = read_pages();
    size_t checked = 0;
    for (size_t i = 0; i < ps.n; i++)
        checked += check_links(ps.name[i]);
    /* The README maps docs/; finding few links means the reading broke. */
    cr_expect_geq(checked, ps.n, "only %zu relative links in %zu pages", checked, ps.n);
    free_pages(&ps);
}

Test(readme, anchors_as_github_makes_them)
{
    char out[256];
    slug("The execution order: `--order stored|best`", out, sizeof out);
    cr_expect_str_eq(out, "the-execution-order---order-storedbest");
    slug("Below the fixed-order bound: the three transforms together", out, sizeof out);
    cr_expect_str_eq(out, "below-the-fixed-order-bound-the-three-transforms-together");
    slug("Plans that ship: C, TensorFlow Lite Micro, a Cortex-M", out, sizeof out);
    cr_expect_str_eq(out, "plans-that-ship-c-tensorflow-lite-micro-a-cortex-m");
    slug("Arena × optimum — Erdős", out, sizeof out);
    cr_expect_str_eq(out, "arena--optimum--erdős");
    char where[256];
    cr_expect(resolve("docs/bench.md", "../README.md", where, sizeof where));
    cr_expect_str_eq(where, "README.md");
    cr_expect(resolve("README.md", "docs/./bench.md", where, sizeof where));
    cr_expect_str_eq(where, "docs/bench.md");
    cr_expect(!resolve("README.md", "../x.md", where, sizeof where));
}

static void tail(const char *path, char *buf, size_t len)
{
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    long from = size > (long)len - 1 ? size - (long)len + 1 : 0;
    fseek(f, from, SEEK_SET);
    size_t got = fread(buf, 1, len - 1, f);
    buf[got] = 0;
    fclose(f);
}

/* Runs cmd with /bin/sh in dir, its output into log; the exit status
 * (128 + N for a signal). */
static int run(const char *dir, const char *cmd, const char *log)
{
    fflush(NULL);
    pid_t pid = fork();
    cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        if (chdir(dir) != 0 || !freopen(log, "w", stdout) || dup2(fileno(stdout), 2) < 0)
            _exit(125);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        cr_assert_eq(errno, EINTR);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The rows of one bench table (its header line starts "  planner"): per
 * row its planner, arena B, scratch B, valid and status, the columns that
 * no machine changes (times and their spread do): the second field and the
 * fourth, third and second from the end (gap is the last). n rows at most;
 * the count read. */
struct row {
    char planner[64], arena[32], scratch[32], valid[8], status[24];
};

static size_t table_rows(const char *text, struct row *out, size_t n)
{
    const char *h = strstr(text, "\n  planner ");
    size_t k = 0;
    if (!h) return 0;
    for (const char *l = strchr(h + 1, '\n'); l && *++l && k < n; l = strchr(l, '\n')) {
        char line[512], *f[40];
        size_t len = strcspn(l, "\n"), nf = 0;
        if (len == 0 || len >= sizeof line || strncmp(l, "  ", 2) != 0 || strncmp(l, "```", 3) == 0) break;
        memcpy(line, l, len);
        line[len] = '\0';
        for (char *save = NULL, *t = strtok_r(line, " ", &save); t && nf < 40; t = strtok_r(NULL, " ", &save))
            f[nf++] = t;
        if (nf < 8) break;
        snprintf(out[k].planner, sizeof out[k].planner, "%s", f[0]);
        snprintf(out[k].arena, sizeof out[k].arena, "%s", f[1]);
        snprintf(out[k].scratch, sizeof out[k].scratch, "%s", f[nf - 4]);
        snprintf(out[k].valid, sizeof out[k].valid, "%s", f[nf - 3]);
        snprintf(out[k].status, sizeof out[k].status, "%s", f[nf - 2]);
        k++;
    }
    return k;
}

/* Issue 45: README's example table ("What the first command prints") is
 * what bench prints today in the columns no machine changes: arena B,
 * scratch B, valid and status of every row shown (its scratch B had gone
 * stale: greedy-by-size 4,144 where bench printed 6,624). */
Test(readme, example_table_matches_bench_in_its_machine_independent_columns)
{
    FILE *f = fopen(ARENA_SOURCE_ROOT "/README.md", "r");
    cr_assert_not_null(f);
    static char readme[1 << 17];
    size_t got = fread(readme, 1, sizeof readme - 1, f);
    readme[got] = '\0';
    fclose(f);
    const char *sec = strstr(readme, "## What the first command prints");
    cr_assert_not_null(sec, "README has no example table");
    const char *block = strstr(sec, "```text\n");
    cr_assert_not_null(block);
    struct row want[32], have[64];
    size_t nw = table_rows(block, want, 32);
    cr_assert_geq(nw, 5, "README's table: %zu rows read", nw);
    char list[1024] = "", cmd[2048], dir[] = "/tmp/arena-readme-table.XXXXXX", log[64];
    for (size_t i = 0; i < nw; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? "," : "", want[i].planner);
    cr_assert_not_null(mkdtemp(dir));
    snprintf(log, sizeof log, "%s/out", dir);
    snprintf(cmd, sizeof cmd,
             "'%s/bench/bench' --graph mobilenetv2 --planner %s --no-db --repetitions 1 --min-time 0.001"
             " 2>/dev/null",
             ARENA_BUILD_ROOT, list);
    cr_assert_eq(run(dir, cmd, log), 0, "%s failed", cmd);
    FILE *o = fopen(log, "r");
    cr_assert_not_null(o);
    static char text[1 << 16];
    got = fread(text, 1, sizeof text - 1, o);
    text[got] = '\0';
    fclose(o);
    remove(log);
    rmdir(dir);
    size_t nh = table_rows(strstr(text, "\n  planner ") ? text : "", have, 64);
    cr_assert_eq(nh, nw, "bench printed %zu rows for README's %zu", nh, nw);
    for (size_t i = 0; i < nw; i++) {
        cr_expect_str_eq(have[i].planner, want[i].planner);
        cr_expect_str_eq(have[i].arena, want[i].arena, "%s: arena B", want[i].planner);
        cr_expect_str_eq(have[i].scratch, want[i].scratch, "%s: scratch B (README %s, bench %s)",
                         want[i].planner, want[i].scratch, have[i].scratch);
        cr_expect_str_eq(have[i].valid, want[i].valid, "%s: valid", want[i].planner);
        cr_expect_str_eq(have[i].status, want[i].status, "%s: status", want[i].planner);
    }
}

Test(readme, commands_run_verbatim)
{
    struct pages ps = read_pages();
    struct commands cs = read_commands(&ps);
    char dir[] = "/tmp/arena-readme.XXXXXX";
    cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
    char path[4096], log[4200];
    int have_models = access(MODEL, R_OK) == 0;
    static const char *const links[][2] = {
        {"build", ARENA_BUILD_ROOT},
        {"scripts", ARENA_SOURCE_ROOT "/scripts"},
        {"graphs", ARENA_SOURCE_ROOT "/graphs"},
        {"include", ARENA_SOURCE_ROOT "/include"},
        {"examples", ARENA_SOURCE_ROOT "/examples"},
        {"models", ARENA_SOURCE_ROOT "/models"},
        {"my_model.tflite", MODEL},
        {"my_model.onnx", ARENA_SOURCE_ROOT "/models/unshaped/ch_ppocr_mobile_v2.0_cls_infer.onnx"},
    };
    for (size_t i = 0; i < sizeof links / sizeof *links; i++) {
        if (i >= 5 && !have_models)
            break;
        snprintf(path, sizeof path, "%s/%s", dir, links[i][0]);
        cr_assert_eq(symlink(links[i][1], path), 0, "symlink %s: %s", path, strerror(errno));
    }
    snprintf(path, sizeof path, "%s/results", dir);
    cr_assert_eq(mkdir(path, 0777), 0);
    snprintf(path, sizeof path, "%s/results/figures", dir);
    cr_assert_eq(mkdir(path, 0777), 0);
    snprintf(log, sizeof log, "%s.log", dir);

    size_t ran = 0;
    for (size_t i = 0; i < cs.n; i++) {
        const struct command *c = &cs.c[i];
        const char *why = not_here(c->text, have_models);
        if (why) {
            fprintf(stderr, "%s:%d: not run: %s: %.70s\n", c->page, c->line, why, c->text);
            continue;
        }
        int rc = run(dir, c->text, log);
        ran++;
        if (rc != 0) {
            char out[1500];
            tail(log, out, sizeof out);
            cr_expect_fail("%s:%d: exit %d: %s\n--- its output ends:\n%s", c->page, c->line, rc,
                           c->text, out);
        }
    }
    /* rm does not follow the links: the source and build trees stay. */
    char rm[200];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    cr_expect_eq(run("/", rm, log), 0, "%s: not removed", dir);
    remove(log);
    fprintf(stderr, "README.md and docs/: %zu of %zu commands run\n", ran, cs.n);
    cr_expect_geq(ran, 20, "only %zu commands of README.md and docs/ ran", ran);
    free_commands(&cs);
    free_pages(&ps);
}
