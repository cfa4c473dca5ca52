/* test_readme.c — the commands README.md shows run as written.
 *
 * The README promises that every command it shows runs verbatim from a
 * fresh clone after its two set-up commands. This test reads README.md,
 * takes its commands, and runs the quick ones in order, in one temporary
 * folder that looks like a fresh clone's root: `build` a link to the build
 * tree this test belongs to, `scripts`, `graphs` and (when fetched) `models`
 * links to the source tree, and a real `results/figures/` (as committed), so
 * whatever a command writes (results/arenabench.sqlite, results/charts/,
 * plans/, exact.sqlite) lands in the temporary folder, never in the source.
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
 *  - commands naming models/ (or the README's my_model.tflite and
 *    my_model.onnx stand-ins)
 *    when scripts/fetch-models has not been run.
 * my_model.tflite and my_model.onnx, the README's names for "your own
 * model", are links to fetched models here (my_model.onnx: PP-OCR's
 * direction classifier as fetched, symbolic dims and all, input x). */
#include <criterion/criterion.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define README ARENA_SOURCE_ROOT "/README.md"
#define MODEL ARENA_SOURCE_ROOT "/models/face_detection_short_range.tflite"

struct command {
    int line;   /* README line of its first line */
    char *text; /* the command, continuation lines joined with '\n' */
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

static void add(struct commands *cs, int line, const char *text)
{
    if (cs->n == cs->cap) {
        cs->cap = cs->cap ? 2 * cs->cap : 64;
        cs->c = realloc(cs->c, cs->cap * sizeof *cs->c);
        cr_assert_not_null(cs->c);
    }
    cs->c[cs->n].line = line;
    char *t = strdup(text);
    cr_assert_not_null(t);
    size_t len = strlen(t);
    while (len && t[len - 1] == '\n')
        t[--len] = 0;
    cs->c[cs->n].text = t;
    cs->n++;
}

static struct commands read_commands(void)
{
    struct commands cs = {0};
    FILE *f = fopen(README, "r");
    cr_assert_not_null(f, "%s: cannot open: %s", README, strerror(errno));
    char line[8192], cmd[16384];
    int fence = 0, sh = 0, no = 0, start = 0;
    cmd[0] = 0;
    while (fgets(line, sizeof line, f)) {
        no++;
        if (cmd[0]) { /* a continuation line, as it stands */
            cr_assert_lt(strlen(cmd) + strlen(line), sizeof cmd, "README.md:%d: command too long", start);
            strcat(cmd, line);
            if (!unfinished(cmd)) {
                add(&cs, start, cmd);
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
            add(&cs, start, cmd);
            cmd[0] = 0;
        }
    }
    fclose(f);
    cr_assert_eq(cmd[0], 0, "README.md:%d: a command's quote is never closed", start);
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
    struct commands cs = read_commands();
    /* The README shows dozens of commands; finding few means the reading
     * above broke, not that the README lost them. */
    cr_assert_geq(cs.n, 30, "only %zu commands found in README.md", cs.n);
    int sqlite_multiline = 0;
    for (size_t i = 0; i < cs.n; i++) {
        cr_expect_neq(strncmp(cs.c[i].text, "bench ", 6), 0,
                      "README.md:%d: 'bench' is not on PATH in a fresh clone: write"
                      " build/bench/bench (%.60s)", cs.c[i].line, cs.c[i].text);
        if (strncmp(cs.c[i].text, "sqlite3", 7) == 0 && strstr(cs.c[i].text, "ORDER BY"))
            sqlite_multiline = 1;
    }
    cr_expect(sqlite_multiline, "the sqlite3 queries were not read across their lines");
    free_commands(&cs);
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

Test(readme, commands_run_verbatim)
{
    struct commands cs = read_commands();
    char dir[] = "/tmp/arena-readme.XXXXXX";
    cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
    char path[4096], log[4200];
    int have_models = access(MODEL, R_OK) == 0;
    static const char *const links[][2] = {
        {"build", ARENA_BUILD_ROOT},
        {"scripts", ARENA_SOURCE_ROOT "/scripts"},
        {"graphs", ARENA_SOURCE_ROOT "/graphs"},
        {"models", ARENA_SOURCE_ROOT "/models"},
        {"my_model.tflite", MODEL},
        {"my_model.onnx", ARENA_SOURCE_ROOT "/models/unshaped/ch_ppocr_mobile_v2.0_cls_infer.onnx"},
    };
    for (size_t i = 0; i < sizeof links / sizeof *links; i++) {
        if (i >= 3 && !have_models)
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
            fprintf(stderr, "README.md:%d: not run: %s: %.70s\n", c->line, why, c->text);
            continue;
        }
        int rc = run(dir, c->text, log);
        ran++;
        if (rc != 0) {
            char out[1500];
            tail(log, out, sizeof out);
            cr_expect_fail("README.md:%d: exit %d: %s\n--- its output ends:\n%s", c->line, rc,
                           c->text, out);
        }
    }
    /* rm does not follow the links: the source and build trees stay. */
    char rm[200];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    cr_expect_eq(run("/", rm, log), 0, "%s: not removed", dir);
    remove(log);
    fprintf(stderr, "README.md: %zu of %zu commands run\n", ran, cs.n);
    cr_expect_geq(ran, 20, "only %zu README commands ran", ran);
    free_commands(&cs);
}
