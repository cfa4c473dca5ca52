/* test_options.c — each option is described once (bench/core/options.h): the
 * Markdown tables in docs/ are the tables the option rows print (a block
 * between "<!-- options: NAME" and "<!-- end options -->", written by
 * scripts/docs-options), every table has its block, and each command's
 * --help names exactly the options its docs tables name. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/options.h"
#include "bench/subcommands.h"
#include "planners/planner.h"

#define MAX_BLOCKS 16
#define MAX_NAMES 128

static const char *const tables[] = {"commands", "planning", "old", "stats", "plot",
                                     "selection", "planners"};
#define N_TABLES (sizeof tables / sizeof tables[0])

struct block {
    char page[64];
    int line;       /* of the start marker */
    char name[32];
    char *text;     /* what stands between the markers */
};

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot read %s", path);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    int c;
    while ((c = fgetc(f)) != EOF) fputc(c, m);
    fclose(f);
    fclose(m);
    return buf;
}

/* Every block of every Markdown page of docs/. */
static size_t read_blocks(struct block *b)
{
    static const char start[] = "<!-- options: ", end[] = "<!-- end options -->";
    char dir[512];
    snprintf(dir, sizeof dir, "%s/docs", ARENA_SOURCE_ROOT);
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "no %s", dir);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".md") != 0) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = read_file(path);
        int line = 1;
        for (char *p = text; *p;) {
            char *eol = strchr(p, '\n');
            size_t l = eol ? (size_t)(eol - p) : strlen(p);
            if (strncmp(p, start, sizeof start - 1) == 0) {
                cr_assert_lt(n, MAX_BLOCKS);
                struct block *k = &b[n++];
                snprintf(k->page, sizeof k->page, "docs/%s", e->d_name);
                k->line = line;
                snprintf(k->name, sizeof k->name, "%.*s", (int)strcspn(p + sizeof start - 1, " \n"),
                         p + sizeof start - 1);
                char *body = eol ? eol + 1 : p + l;
                char *stop = strstr(body, end);
                cr_assert_not_null(stop, "%s:%d: the block %s has no end marker", k->page, line,
                                   k->name);
                k->text = strndup(body, (size_t)(stop - body));
            }
            line++;
            p += l + (eol ? 1 : 0);
        }
        free(text);
    }
    closedir(d);
    return n;
}

/* What print wrote to a file, as a string (malloc'd). */
static char *captured(int (*print)(FILE *, const char *), const char *arg)
{
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    cr_assert_eq(print(f, arg), 0, "nothing named '%s'", arg);
    long len = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)len + 1);
    cr_assert_not_null(buf);
    cr_assert_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
    buf[len] = '\0';
    fclose(f);
    return buf;
}

static char *markdown(const char *table)
{
    return captured(arena_bench_help_markdown, table);
}

static char *help(const char *command)
{
    return captured(arena_bench_help, command);
}

Test(options, docs_tables_are_the_rows_tables)
{
    struct block b[MAX_BLOCKS];
    size_t n = read_blocks(b);
    for (size_t i = 0; i < n; i++) {
        char *want = markdown(b[i].name);
        if (strcmp(want, b[i].text) != 0) {
            size_t at = 0, line = 1;
            while (want[at] && want[at] == b[i].text[at]) line += want[at++] == '\n';
            cr_expect_fail("%s:%d: the table '%s' is not what the code prints (from its line %zu"
                           " on); run scripts/docs-options",
                           b[i].page, b[i].line, b[i].name, line);
        }
        free(want);
    }
    for (size_t t = 0; t < N_TABLES; t++) {
        size_t found = 0;
        for (size_t i = 0; i < n; i++) found += strcmp(b[i].name, tables[t]) == 0;
        cr_expect_eq(found, 1, "the table '%s' stands in %zu places of docs/, not one", tables[t],
                     found);
    }
    for (size_t i = 0; i < n; i++) free(b[i].text);
}

/* The option names of a Markdown table's first column, or of --help's
 * lines "  --name ...", into names (n of them). */
static size_t add_name(char names[][40], size_t n, const char *p)
{
    size_t len = strcspn(p, " `=|\n");
    if (len == 6 && strncmp(p, "--help", 6) == 0) return n; /* every command's, not a row */
    for (size_t i = 0; i < n; i++)
        if (strlen(names[i]) == len && strncmp(names[i], p, len) == 0) return n;
    cr_assert_lt(n, MAX_NAMES);
    snprintf(names[n], 40, "%.*s", (int)len, p);
    return n + 1;
}

/* Whether the comma list "a, b, c" (len bytes) holds word. */
static int lists(const char *list, size_t len, const char *word)
{
    size_t w = strlen(word);
    for (const char *p = list, *end = list + len; p < end;) {
        while (p < end && (*p == ' ' || *p == ',')) p++;
        size_t l = 0;
        while (p + l < end && p[l] != ',' && p[l] != ' ') l++;
        if (l == w && strncmp(p, word, w) == 0) return 1;
        p += l;
    }
    return 0;
}

/* The option names of table's rows (with command, only the rows whose
 * commands column lists it). */
static size_t docs_names(const char *table, const char *command, char names[][40], size_t n)
{
    char *md = markdown(table);
    for (char *p = strstr(md, "\n| `--"); p; p = strstr(p + 1, "\n| `--")) {
        char *cells = p + 4;
        if (command) {
            char *col = strstr(cells, "` | ") + 4;
            if (!lists(col, strcspn(col, "|"), command)) continue;
        }
        n = add_name(names, n, cells);
    }
    free(md);
    return n;
}

static size_t help_names(const char *command, int old, char names[][40], size_t n)
{
    char *h = help(command);
    char *from = old ? strstr(h, "\nOld spellings") : h;
    cr_assert_not_null(from);
    char *stop = old ? NULL : strstr(h, "\nCommands:");
    if (!stop) stop = old ? h + strlen(h) : strstr(h, "\n  --help ");
    cr_assert_not_null(stop, "bench %s --help: no --help line", command);
    for (char *p = strstr(from, "\n  --"); p && p < stop; p = strstr(p + 1, "\n  --"))
        n = add_name(names, n, p + 3);
    free(h);
    return n;
}

static void same(char a[][40], size_t na, char b[][40], size_t nb, const char *what)
{
    for (size_t i = 0; i < na; i++) {
        size_t k = 0;
        while (k < nb && strcmp(a[i], b[k]) != 0) k++;
        cr_expect_lt(k, nb, "%s: --help names %s, the docs do not", what, a[i]);
    }
    for (size_t k = 0; k < nb; k++) {
        size_t i = 0;
        while (i < na && strcmp(a[i], b[k]) != 0) i++;
        cr_expect_lt(i, na, "%s: the docs name %s, --help does not", what, b[k]);
    }
}

Test(options, help_and_docs_name_the_same_options)
{
    static char h[MAX_NAMES][40], d[MAX_NAMES][40];
    const char *planning[] = {"run", "list", "export", "replay"};
    for (size_t c = 0; c < 4; c++) {
        size_t nh = help_names(planning[c], 0, h, 0);
        size_t nd = docs_names("planning", planning[c], d, 0);
        cr_expect_gt(nh, 1, "bench %s --help names no option", planning[c]);
        same(h, nh, d, nd, planning[c]);
    }
    /* bench --help: the run's options, then the old spellings. */
    same(h, help_names("", 0, h, 0), d, docs_names("planning", "run", d, 0), "bench");
    same(h, help_names("", 1, h, 0), d, docs_names("old", NULL, d, 0), "bench (old spellings)");
    const char *readers[] = {"stats", "plot"};
    for (size_t c = 0; c < 2; c++) {
        size_t nh = help_names(readers[c], 0, h, 0);
        size_t nd = docs_names(readers[c], NULL, d, 0);
        nd = docs_names("selection", NULL, d, nd);
        same(h, nh, d, nd, readers[c]);
    }
    cr_expect_eq(help_names("merge", 0, h, 0), 0, "bench merge takes no option");
}

/* Every key of every built-in planner is in `bench run --help` (with its
 * default) and in the docs' table (printed from the same key tables). */
Test(options, every_planner_key_is_in_help_and_docs)
{
    char *run = help("run"), *md = markdown("planners");
    size_t keys = 0;
    for (size_t i = 0; i < arena_planner_count(); i++) {
        const struct arena_planner *pl = arena_planner_at(i);
        for (uint32_t k = 0; k < pl->n_keys; k++, keys++) {
            char want[200];
            snprintf(want, sizeof want, "    %s=%s", pl->keys[k].name,
                     pl->keys[k].def ? pl->keys[k].def : "--seed");
            cr_expect(strstr(run, want) != NULL, "run --help lacks %s's '%s'", pl->name, want);
            snprintf(want, sizeof want, "| `%s` | `%s` | ", pl->name, pl->keys[k].name);
            cr_expect(strstr(md, want) != NULL, "the planners table lacks '%s'", want);
        }
    }
    cr_expect_geq(keys, 2, "optimal's engine and off at least");
    free(run);
    free(md);
}
