/* args.c — the options of bench's planning commands (run, list, export,
 * replay): one table, a row each, read by options.c; the readers of the
 * rows whose values are more than a kind and bounds; the checks across
 * options once every row is read. */
#include "bench/core/args.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/external/planner_keys.h"
#include "bench/external/plugin.h"
#include "results/digest.h"
#include "bench/core/allocators.h"
#include "bench/core/suites.h"
#include "graphs/sweep.h"

#define STR(x) #x
#define XSTR(x) STR(x)

/* The rows' commands. */
#define GRAPHS (ARENA_IN_RUN | ARENA_IN_LIST | ARENA_IN_EXPORT | ARENA_IN_REPLAY)
#define LOADS (ARENA_IN_RUN | ARENA_IN_EXPORT | ARENA_IN_REPLAY)
#define PLANS (ARENA_IN_RUN | ARENA_IN_EXPORT)
#define STORES (ARENA_IN_RUN | ARENA_IN_REPLAY)
#define EVERY (GRAPHS | ARENA_IN_OLD)

typedef struct arena_bench_args A;

/* An old spelling that names a command: every such spelling in one line
 * must name the same one. */
static int name_command(A *a, const struct arena_opt *o, enum arena_bench_command cmd, char *err,
                        size_t errlen)
{
    if (a->command != ARENA_BENCH_RUN && a->command != cmd)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s and %s name two commands: one command a line", a->command_by,
                            o->name);
    a->command = cmd;
    a->command_by = o->name;
    return ARENA_OK;
}

static int read_graph(void *base, const struct arena_opt *o, const char *v, char *err,
                      size_t errlen)
{
    A *a = base;
    (void)o;
    return arena_bench_graph_split(v, &a->c.graphs, &a->c.n_graphs, err, errlen);
}

/* A suite of the table runs as --graph NAME does (the models present); a
 * file, each item it lists. */
static int read_suite(void *base, const struct arena_opt *o, const char *v, char *err,
                      size_t errlen)
{
    A *a = base;
    (void)o;
    if (arena_bench_suite(v, &(size_t){0}))
        return arena_sweep_append(&a->c.graphs, &a->c.n_graphs, v, strlen(v));
    struct arena_suite_items s;
    int rc = arena_bench_suite_items(v, &s, err, errlen);
    for (size_t i = 0; rc == ARENA_OK && i < s.n; i++)
        rc = arena_sweep_append(&a->c.graphs, &a->c.n_graphs, s.items[i], strlen(s.items[i]));
    if (s.name) arena_bench_suite_items_free(&s);
    return rc;
}

/* Where a planner comes from, in words, for a refusal. */
static void origin_text(const struct arena_planner_origin *o, char *buf, size_t len)
{
    if (o->origin == ARENA_ORIGIN_PLUGIN) snprintf(buf, len, "plugin:%s", o->path);
    else if (o->origin == ARENA_ORIGIN_CMD) snprintf(buf, len, "cmd: %s", o->command);
    else snprintf(buf, len, "built-in");
}

/* Whether planner i of the run is pl from origin o: the same table, or a
 * plugin's planner of that name from the same file loaded again (bench
 * holds a copy of each plugin table per load). */
static int same_planner(const A *a, size_t i, const struct arena_planner *pl,
                        const struct arena_planner_origin *o)
{
    const struct arena_planner_origin *was = &a->c.origins[i];
    return a->c.planners[i] == pl ||
           (o->origin == ARENA_ORIGIN_PLUGIN && was->origin == ARENA_ORIGIN_PLUGIN &&
            strcmp(was->sha256, o->sha256) == 0 && strcmp(a->c.planners[i]->name, pl->name) == 0);
}

/* Appends pl with its origin o (NULL: built-in), which is moved in (freed
 * here when pl is not added). A planner already listed without keys is a
 * repeat, dropped (with keys: resolve_planners drops one of the same
 * canonical spec); another table of the same name is refused: within a
 * run, results are told apart by the planner's name and spec. */
static int add_planner(A *a, const struct arena_planner *pl, struct arena_planner_origin *o,
                       char *err, size_t errlen)
{
    struct arena_planner_origin none = {0};
    if (!o) o = &none;
    for (size_t i = 0; i < a->c.n_planners; i++) {
        if (same_planner(a, i, pl, o)) {
            /* the same planner with other keys is another configuration
             * (a sweep); with the same canonical spec, a repeat (check) */
            if (!o->keys && !a->c.origins[i].keys) {
                arena_planner_origin_free(o);
                return ARENA_OK;
            }
            continue;
        }
        if (strcmp(a->c.planners[i]->name, pl->name) != 0) continue;
        char was[600], now[600];
        origin_text(&a->c.origins[i], was, sizeof was);
        origin_text(o, now, sizeof now);
        arena_planner_origin_free(o);
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--planner: two planners named '%s' (%s, and %s); within a run"
                            " results are told apart by name: rename one",
                            pl->name, was, now);
    }
    const struct arena_planner **grown = realloc(a->c.planners, (a->c.n_planners + 1) * sizeof *grown);
    if (grown) a->c.planners = grown;
    struct arena_planner_origin *og =
        grown ? realloc(a->c.origins, (a->c.n_planners + 1) * sizeof *og) : NULL;
    if (og) a->c.origins = og;
    if (!og) {
        arena_planner_origin_free(o);
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
    }
    a->c.origins[a->c.n_planners] = *o;
    a->c.planners[a->c.n_planners++] = pl;
    return ARENA_OK;
}

static int add_all(A *a, char *err, size_t errlen)
{
    int rc = ARENA_OK;
    for (size_t i = 0; rc == ARENA_OK && i < arena_planner_count(); i++)
        rc = add_planner(a, arena_planner_at(i), NULL, err, errlen);
    return rc;
}

/* Planner pl once per spec its keys (NULL: none) stand for: a sweep
 * ("seed=1..5", "off=none|stack|stack+twins") expands against its table as
 * a graph spec's does (graphs/sweep.h), each spec with its own copy of the
 * origin's path and hash (malloc'd or NULL; taken). */
static int add_keyed(A *a, const struct arena_planner *pl, enum arena_origin origin, char *path,
                     char *sha256, const char *keys, char *err, size_t errlen)
{
    char **items = NULL;
    size_t n = 0;
    int rc = keys ? arena_sweep_expand_keys(pl->name, pl->keys, pl->n_keys, keys, 0, &items, &n,
                                            err, errlen)
                  : ARENA_OK;
    for (size_t i = 0; rc == ARENA_OK && i < (keys ? n : 1); i++) {
        struct arena_planner_origin o = {.origin = origin,
                                         .path = path ? strdup(path) : NULL,
                                         .sha256 = sha256 ? strdup(sha256) : NULL,
                                         .keys = keys ? items[i] : NULL};
        if (keys) items[i] = NULL;
        if ((path && !o.path) || (sha256 && !o.sha256)) {
            arena_planner_origin_free(&o);
            rc = arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
        } else {
            rc = add_planner(a, pl, &o, err, errlen);
        }
    }
    if (rc == ARENA_ENOMEM && !err[0]) arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) free(items[i]);
    free(items);
    free(path);
    free(sha256);
    return rc;
}

/* plugin:PATH or plugin:PATH:NAME (item holds what follows "plugin:"): a
 * path that names a file is the whole item; else the text after its last
 * ':' is the planner's name. */
static int add_plugin(A *a, const char *item, char *err, size_t errlen)
{
    char path[4096];
    const char *name = NULL, *keys = NULL;
    if (snprintf(path, sizeof path, "%s", item) >= (int)sizeof path)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--planner plugin:%.80s...: path too long",
                            item);
    char *colon = strrchr(path, ':');
    if (access(path, F_OK) != 0 && colon && strchr(colon, '=')) { /* :k=v,... */
        *colon = '\0';
        keys = colon + 1;
        colon = strrchr(path, ':');
        if (access(path, F_OK) == 0 || !colon)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "--planner plugin:%s: keys go with one planner:"
                                " plugin:PATH.so:NAME:key=value",
                                item);
    }
    if (access(path, F_OK) != 0 && colon) {
        *colon = '\0';
        name = colon + 1;
    }
    if (!path[0])
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--planner plugin:%s: no path (plugin:PATH.so or plugin:PATH.so:NAME)",
                            item);
    struct arena_plugin_lib *grown = realloc(a->c.libs, (a->c.n_libs + 1) * sizeof *grown);
    if (!grown) return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
    a->c.libs = grown;
    struct arena_plugin_lib *lib = &a->c.libs[a->c.n_libs];
    int rc = arena_plugin_open(path, lib, err, errlen);
    if (rc != ARENA_OK) return rc;
    a->c.n_libs++;
    int found = 0;
    for (uint32_t i = 0; rc == ARENA_OK && i < lib->count; i++) {
        const struct arena_planner *pl = &lib->tables[i];
        if (name && strcmp(pl->name, name) != 0) continue;
        found = 1;
        if (arena_planner_find(pl->name))
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "plugin:%s: planner '%s' has the name of a built-in planner;"
                                " rename it",
                                path, pl->name);
        char *lp = strdup(lib->path), *sha = strdup(lib->sha256);
        if (!lp || !sha) {
            free(lp);
            free(sha);
            return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
        }
        rc = add_keyed(a, pl, ARENA_ORIGIN_PLUGIN, lp, sha, keys, err, errlen);
    }
    if (rc == ARENA_OK && !found) {
        char known[512] = "";
        for (uint32_t i = 0; i < lib->count; i++) {
            size_t used = strlen(known);
            snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                     lib->tables[i].name);
        }
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "plugin:%s: no planner named '%s' (it has: %s)", path, name, known);
    }
    return rc;
}

/* cmd:NAME=COMMAND (item holds what follows "cmd:"). */
static int add_cmd(A *a, const char *item, char *err, size_t errlen)
{
    size_t len = strcspn(item, ":=");
    if (!item[len] || !arena_planner_name_ok(item, len))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--planner cmd:%s: not cmd:NAME[:key=value,...]=COMMAND with NAME 1"
                            " to 64 bytes of letters, digits, '.', '_', '+', '-'",
                            item);
    char name[65];
    snprintf(name, sizeof name, "%.*s", (int)len, item);
    char *keys = NULL;
    const char *command = item + len + 1;
    if (item[len] == ':') {
        int rc = arena_planner_keys_cmd(name, item + len + 1, &keys, &command, err, errlen);
        if (rc != ARENA_OK) return rc;
    }
    while (*command == ' ' || *command == '\t') command++;
    const char *bad = NULL;
    for (const char *c = command; *c && !bad; c++)
        if ((unsigned char)*c < 0x20 && *c != '\t') bad = c;
    if (!*command || bad || arena_planner_find(name)) {
        free(keys);
        if (!*command)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--planner cmd:%s: empty command",
                                item);
        if (bad)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "--planner cmd:%s: the command holds a line break or a control"
                                " character", name);
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--planner cmd:%s: '%s' is the name of a built-in planner; choose"
                            " another",
                            name, name);
    }
    struct arena_planner_origin o = {.origin = ARENA_ORIGIN_CMD, .command = strdup(command),
                                     .sha256 = malloc(65), .own = calloc(1, sizeof *o.own),
                                     .keys = keys};
    if (o.sha256) arena_sha256_hex(command, strlen(command), o.sha256);
    if (o.own) {
        o.own->name = strdup(name);
        o.own->summary = strdup("an external program (cmd:)");
        o.own->kind = ARENA_KIND_OFFSETS;
    }
    if (!o.command || !o.sha256 || !o.own || !o.own->name || !o.own->summary) {
        arena_planner_origin_free(&o);
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
    }
    return add_planner(a, o.own, &o, err, errlen);
}

/* Whether the comma-separated piece at p (len bytes) is a key=value of
 * the planner before it: a '=' and no ':' (a planner's name holds no '=';
 * plugin: and cmd: items hold a ':'). */
static int key_piece(const char *p, size_t len)
{
    return memchr(p, '=', len) && !memchr(p, ':', len);
}

/* A comma list of planners; "all" anywhere in it stands for every built-in
 * planner in registry order (so "greedy-by-size,all" puts that one first);
 * NAME:key=value,key=value takes the pieces with a '=' after it as its
 * keys; plugin:PATH[:NAME[:key=value,...]] runs to the next piece that is
 * not a key, cmd:NAME[:key=value,...]=COMMAND to the end of the value (its
 * command may hold commas). */
static int add_planners(A *a, const char *v, char *err, size_t errlen)
{
    for (const char *p = v;;) {
        if (strncmp(p, "cmd:", 4) == 0) return add_cmd(a, p + 4, err, errlen);
        size_t len = strcspn(p, ",");
        if (len && key_piece(p, len))
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "--planner: '%.*s' is a key with no planner before it"
                                " (NAME:key=value,key=value)",
                                (int)len, p);
        while (p[len] == ',' && key_piece(p + len + 1, strcspn(p + len + 1, ",")) &&
               memchr(p, ':', len))
            len += 1 + strcspn(p + len + 1, ",");
        const char *comma = p[len] ? p + len : NULL;
        char name[4200];
        if (len == 0 || len >= sizeof name)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--planner: bad item in '%s'", v);
        memcpy(name, p, len);
        name[len] = '\0';
        int rc;
        if (strcmp(name, "all") == 0) {
            rc = add_all(a, err, errlen);
        } else if (strncmp(name, "plugin:", 7) == 0) {
            rc = add_plugin(a, name + 7, err, errlen);
        } else {
            char *colon = strchr(name, ':');
            if (colon) *colon = '\0';
            const struct arena_planner *pl = arena_planner_find(name);
            if (!pl) {
                char known[512] = "";
                for (size_t i = 0; i < arena_planner_count(); i++) {
                    size_t used = strlen(known);
                    snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                             arena_planner_at(i)->name);
                }
                return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                    "--planner: unknown planner '%s' (known: %s, or all,"
                                    " plugin:PATH.so, cmd:NAME=COMMAND)",
                                    name, known);
            }
            rc = add_keyed(a, pl, ARENA_ORIGIN_BUILTIN, NULL, NULL, colon ? colon + 1 : NULL, err,
                           errlen);
        }
        if (rc != ARENA_OK || !comma) return rc;
        p = comma + 1;
    }
}

/* Once --seed is known: each planner's values and canonical spec; a
 * planner given twice with one canonical spec runs once. */
static int resolve_planners(A *a, char *err, size_t errlen)
{
    for (size_t i = 0; i < a->c.n_planners; i++) {
        int rc = arena_planner_keys_resolve(a->c.planners[i], &a->c.origins[i], a->c.seed, err, errlen);
        if (rc != ARENA_OK) return rc;
        size_t j = 0;
        while (j < i && !(same_planner(a, j, a->c.planners[i], &a->c.origins[i]) &&
                          strcmp(a->c.origins[j].spec, a->c.origins[i].spec) == 0))
            j++;
        if (j == i) continue;
        arena_planner_origin_free(&a->c.origins[i]);
        memmove(&a->c.origins[i], &a->c.origins[i + 1], (a->c.n_planners - i - 1) * sizeof *a->c.origins);
        memmove(&a->c.planners[i], &a->c.planners[i + 1],
                (a->c.n_planners - i - 1) * sizeof *a->c.planners);
        a->c.n_planners--;
        i--;
    }
    return ARENA_OK;
}

static int read_planners(void *base, const struct arena_opt *o, const char *v, char *err,
                         size_t errlen)
{
    (void)o;
    return add_planners(base, v, err, errlen);
}

/* --planner-file: each line a --planner value ('#' starts a comment line,
 * blank lines skipped, blanks around a line dropped), so a sweep's
 * planners, commands with quotes and all, are written once, unquoted. */
static int read_planner_file(void *base, const struct arena_opt *o, const char *v, char *err,
                             size_t errlen)
{
    A *a = base;
    FILE *f = fopen(v, "r");
    if (!f) return arena_errorf(err, errlen, 0, ARENA_EIO, "%s %s: %s", o->name, v, strerror(errno));
    char line[8192];
    int rc = ARENA_OK, no = 0, any = 0;
    while (rc == ARENA_OK && fgets(line, sizeof line, f)) {
        no++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            rc = arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s:%d: line longer than %zu bytes",
                              v, no, sizeof line - 2);
            break;
        }
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' ' ||
                       line[len - 1] == '\t'))
            line[--len] = '\0';
        const char *t = line + strspn(line, " \t");
        if (!*t || *t == '#') continue;
        any = 1;
        char why[1500] = "";
        rc = add_planners(a, t, why, sizeof why);
        if (rc != ARENA_OK) arena_errorf(err, errlen, 0, rc, "%s:%d: %s", v, no, why);
    }
    if (rc == ARENA_OK && ferror(f)) rc = arena_errorf(err, errlen, 0, ARENA_EIO, "%s: read error", v);
    fclose(f);
    if (rc == ARENA_OK && !any)
        rc = arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s %s: names no planner", o->name, v);
    a->c.planner_given = 1;
    return rc;
}

/* Google Benchmark's *_aggregates_only flags keep the repetitions from the
 * reporter bench reads its figures from; only their false values are safe
 * (Google Benchmark reads a bare flag as true). */
static int hides_repetitions(const char *arg)
{
    static const char *const names[] = {"--benchmark_report_aggregates_only",
                                        "--benchmark_display_aggregates_only"};
    static const char *const falses[] = {"0", "f", "false", "n", "no", "off",
                                         "F", "False", "FALSE", "N", "No", "NO", "Off", "OFF"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t len = strlen(names[i]);
        if (strncmp(arg, names[i], len) != 0 || (arg[len] != '\0' && arg[len] != '=')) continue;
        if (arg[len] == '\0') return 1;
        for (size_t k = 0; k < sizeof falses / sizeof falses[0]; k++)
            if (strcmp(arg + len + 1, falses[k]) == 0) return 0;
        return 1;
    }
    return 0;
}

/* The Google Benchmark flags that could leave nothing measured are checked
 * here, at the front door: --benchmark_repetitions must be 1..1000 and
 * --benchmark_min_time a positive number of seconds (an 's' may follow). */
static int check_gbench_flag(const char *arg, char *err, size_t errlen)
{
    const char *eq = strchr(arg, '=');
    if (!eq) return ARENA_OK;
    size_t len = (size_t)(eq - arg);
    const char *v = eq + 1;
    if (len == 23 && strncmp(arg, "--benchmark_repetitions", len) == 0) {
        char *end = NULL;
        errno = 0;
        long n = strtol(v, &end, 10);
        if (!v[0] || *end || errno || n < 1 || n > 1000)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "%s: '%s' is not in 1..1000 (a run must measure something)",
                                "--benchmark_repetitions", v);
    } else if (len == 20 && strncmp(arg, "--benchmark_min_time", len) == 0) {
        char *end = NULL;
        errno = 0;
        double s = strtod(v, &end);
        if (*end == 's') end++;
        if (!v[0] || *end || errno || !isfinite(s) || s <= 0 || s > 3600)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "%s: '%s' is not a number of seconds in (0, 3600]",
                                "--benchmark_min_time", v);
    }
    return ARENA_OK;
}

/* K/N with 1 <= K <= N <= 100000. */
static int read_shard(void *base, const struct arena_opt *o, const char *v, char *err,
                      size_t errlen)
{
    A *a = base;
    (void)o;
    unsigned long long kk = 0, nn = 0;
    int used = 0;
    if (v[0] < '0' || v[0] > '9' || sscanf(v, "%llu/%llu%n", &kk, &nn, &used) != 2 ||
        v[used] != '\0' || !strchr(v, '/') || strchr(v, '/')[1] < '0' || strchr(v, '/')[1] > '9')
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--shard: '%s' is not K/N (e.g. 1/4)", v);
    if (nn < 1 || nn > 100000 || kk < 1 || kk > nn)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--shard: '%s' needs 1 <= K <= N <= 100000 (parts count from 1)", v);
    a->shard_k = (unsigned)kk;
    a->shard_n = (unsigned)nn;
    return ARENA_OK;
}

/* --benchmark_*: collected in order, to pass on. */
static int read_gbench(void *base, const struct arena_opt *o, const char *arg, char *err,
                       size_t errlen)
{
    A *a = base;
    (void)o;
    if (check_gbench_flag(arg, err, errlen) != ARENA_OK) return ARENA_EINVAL;
    if (hides_repetitions(arg))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: bench reads every repetition from Google Benchmark, so it"
                            " cannot hide them",
                            arg);
    return arena_sweep_append(&a->gbench_flags, &a->n_gbench_flags, arg, strlen(arg));
}

static int read_tag(void *base, const struct arena_opt *o, const char *v, char *err,
                    size_t errlen)
{
    if (!v[0] || strlen(v) > 64)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: '%s' is not a name of 1 to 64 bytes",
                            o->name, v);
    for (const char *c = v; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f || *c == ';')
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "%s: '%s' holds a control character or ';'", o->name, v);
    ((A *)base)->c.tag = v;
    return ARENA_OK;
}

static int read_patch(void *base, const struct arena_opt *o, const char *v, char *err,
                      size_t errlen)
{
    char why[256];
    int rc = arena_patch_parse(v, &((A *)base)->c.patch, why, sizeof why);
    return rc == ARENA_OK ? rc : arena_errorf(err, errlen, 0, rc, "%s: %s", o->name, why);
}

static int read_scratch(void *base, const struct arena_opt *o, const char *v, char *err,
                        size_t errlen)
{
    if (arena_scratch_parse(v, &((A *)base)->c.scratch) == ARENA_OK)
        return ARENA_OK;
    return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                        "%s: '%s' is not none, cmsis-nn, cmsis-nn:m4, cmsis-nn:m55 or reference",
                        o->name, v);
}

static int read_allocators(void *base, const struct arena_opt *o, const char *v, char *err,
                           size_t errlen)
{
    A *a = base;
    char why[300];
    if (o->now && name_command(a, o, ARENA_BENCH_REPLAY, err, errlen) != ARENA_OK)
        return ARENA_EINVAL;
    if (arena_replay_parse(v, &a->replay, why, sizeof why) != ARENA_OK)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: %s", o->name, why);
    return ARENA_OK;
}

static int read_founding(void *base, const struct arena_opt *o, const char *v, char *err,
                         size_t errlen)
{
    A *a = base;
    (void)v;
    a->founding_table = 1;
    return name_command(a, o, ARENA_BENCH_REPLAY, err, errlen);
}

static int read_list(void *base, const struct arena_opt *o, const char *v, char *err,
                     size_t errlen)
{
    (void)v;
    return name_command(base, o, ARENA_BENCH_LIST, err, errlen);
}

/* export's folders: the row's field, and the command. */
static int read_export(void *base, const struct arena_opt *o, const char *v, char *err,
                       size_t errlen)
{
    if (!v[0]) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: empty folder name", o->name);
    memcpy((char *)base + o->off, &v, sizeof v);
    return name_command(base, o, ARENA_BENCH_EXPORT, err, errlen);
}

static const char *output_name(size_t i)
{
    const struct arena_output *o = arena_output_at(i);
    return o ? o->name : NULL;
}

static const char *planner_name(size_t i)
{
    const struct arena_planner *p = arena_planner_at(i);
    return p ? p->name : NULL;
}

static const char *allocator_name(size_t i)
{
    return arena_replay_allocator_name((unsigned)i);
}

static const char *order_name(size_t i)
{
    return arena_order_mode_name((enum arena_order_mode)i);
}

static const char *inplace_name(size_t i)
{
    return arena_inplace_name((enum arena_inplace_rule)i);
}

static const char *scratch_policy_name(size_t i)
{
    return arena_scratch_policy_name((enum arena_scratch_policy)i);
}

const struct arena_opt arena_bench_options[] = {
    {.name = "--graph", .kind = ARENA_OPT_CUSTOM, .arg = "LIST", .parse = read_graph,
     .in = GRAPHS,
     .help = "the graphs: a spec family:key=value,..., a problem or graph file (MiniMalloc"
             " CSV, graph file, .tflite, .onnx), a suite (bench list names them), or a list of"
             " these; ';' separates items, and so does ',' unless what follows it is key=value"
             " (an '=' before any ':'); repeatable; a sweep: values a|b|c and integer ranges"
             " A..B in a spec, e.g. random-intervals:n=100|1000,seed=1..30, stand for every"
             " combination (the first key varies slowest)",
     .see = "results.md#sweeps"},
    {.name = "--suite", .kind = ARENA_OPT_CUSTOM, .arg = "NAME|FILE", .parse = read_suite,
     .in = GRAPHS, .values = "a file, or one of", .name_of = arena_bench_suite_name,
     .help = "the graphs of a suite, or of a file listing graphs as --graph takes them, one a"
             " line ('#' starts a comment); repeatable"},
    {.name = "--planner", .kind = ARENA_OPT_CUSTOM, .arg = "LIST", .parse = read_planners,
     .in = PLANS, .unset = "all", ARENA_OPT_SEEN(A, c.planner_given),
     .values = "a comma list of names, or all:", .name_of = planner_name,
     .help = "the planners, in the order given (per graph a search plugin after the others, so"
             " its claims meet their plans); repeatable. NAME:key=value,key=value sets a"
             " planner's keys (the rest take their defaults; bench list planners names them),"
             " and one planner in two configurations runs twice. all is every built-in planner;"
             " plugin:PATH.so every planner a shared object built against arenabench/planner.h"
             " exports, plugin:PATH.so:NAME[:key=value,...] one of them;"
             " cmd:NAME[:key=value,...]=COMMAND an external program that plans each problem"
             " (it takes the rest of the value, commas too; its keys in its environment)",
     .see = "extending.md#add-your-planner-without-touching-the-tree"},
    {.name = "--planner-file", .kind = ARENA_OPT_CUSTOM, .arg = "FILE",
     .parse = read_planner_file, .in = PLANS,
     .values = "a file, one --planner value a line ('#' comments)",
     .help = "the planners of a file, after those given before it; commands need no shell"
             " quoting there (for sweeps)",
     .see = "extending.md#add-your-planner-without-touching-the-tree"},
    {.name = "--isolate", .kind = ARENA_OPT_FLAG, .in = PLANS, ARENA_OPT_AT(A, isolate),
     .help = "the default, said outright: each plugin: planner's calls in a forked child, so a"
             " crash, an exit or a call past --time-limit is an invalid result with its reason"
             " and the run goes on; the child times the calls (timing isolated)",
     .see = "extending.md#isolated-calls-the-default"},
    {.name = "--in-process", .kind = ARENA_OPT_FLAG, .in = PLANS, ARENA_OPT_AT(A, in_process),
     .help = "call plugin: planners in bench's own process, timed by Google Benchmark as the"
             " built-in planners are: for plugins trusted not to crash or hang (their problem"
             " and options are still copies, checked after the calls)",
     .see = "extending.md#in-process-calls---in-process"},
    {.name = "--format", .kind = ARENA_OPT_CHOICE, .name_of = output_name, .def = "table",
     .in = ARENA_IN_RUN | ARENA_IN_LIST, ARENA_OPT_AT(A, format_index),
     .help = "results on stdout; bench list takes table or csv (the planners as"
             " name,kind,summary)",
     .see = "bench.md#output-formats"},
    {.name = "--db", .kind = ARENA_OPT_TEXT, .arg = "PATH", .def = ARENA_BENCH_DB_DEFAULT,
     .in = STORES, ARENA_OPT_AT(A, c.db), ARENA_OPT_SEEN(A, c.db_given),
     .help = "results database; created with its directory when missing",
     .see = "results.md#the-database"},
    {.name = "--no-db", .kind = ARENA_OPT_FLAG, .in = STORES, ARENA_OPT_AT(A, c.no_db),
     .help = "store nothing"},
    {.name = "--no-placements", .kind = ARENA_OPT_FLAG, .in = ARENA_IN_RUN,
     ARENA_OPT_AT(A, no_placements),
     .help = "store results without the per-tensor placements (a plan of 10^6 tensors is"
             " 10^6 rows)"},
    {.name = "--tag", .kind = ARENA_OPT_CUSTOM, .arg = "NAME", .parse = read_tag, .in = STORES,
     .values = "1 to 64 bytes, no control character or ';'",
     .help = "a label stored with the run (runs.tag): bench stats and plot select (--tag) and"
             " group (--group-by tag) by it",
     .see = "configurations.md#selecting-and-grouping"},
    {.name = "--seed", .kind = ARENA_OPT_UINT, .arg = "N", .max = ARENA_BENCH_INT_MAX,
     .def = "1", .in = LOADS, ARENA_OPT_AT(A, c.seed),
     .help = "the seed of families with a seed key that the spec does not set, and of"
             " randomised planners"},
    {.name = "--time-limit", .kind = ARENA_OPT_SECONDS, .arg = "S", .max = 1000000,
     .def = "10", .in = LOADS, ARENA_OPT_AT(A, c.options.time_limit),
     .help = "seconds per search planner call (one problem), per allocator program in a"
             " replay, and per call of a cmd: planner or of a plugin in its forked child"
             " (killed past it)",
     .see = "budgets.md"},
    {.name = "--node-limit", .kind = ARENA_OPT_UINT, .arg = "N", .min = 1,
     .max = ARENA_BENCH_INT_MAX, .unset = "the planner's own", .in = PLANS,
     ARENA_OPT_AT(A, c.options.node_limit),
     .help = "search nodes per problem for search planners (optimal counts its SAT engine's"
             " conflicts as nodes); --time-limit still applies: give a long one too for a run"
             " bounded by nodes alone, the same on every machine",
     .see = "optimal-sat.md#budgets"},
    {.name = "--capacity", .kind = ARENA_OPT_BYTES, .arg = "BYTES", .min = 1,
     .max = ARENA_BENCH_INT_MAX, .unset = "none: the least arena", .in = PLANS,
     ARENA_OPT_AT(A, c.options.capacity),
     .help = "decision mode for search planners: find a plan within BYTES or prove there is"
             " none",
     .see = "optimal.md#decision-mode"},
    {.name = "--optimal-off", .kind = ARENA_OPT_TEXT, .arg = "LIST", .in = EVERY,
     .gone = "write --planner optimal:off=RULE+RULE (bench list planners names the rules)"},
    {.name = "--optimal-engine", .kind = ARENA_OPT_TEXT, .arg = "NAME", .in = EVERY,
     .gone = "write --planner optimal:engine=NAME (portfolio, search, sat or lcg)"},
    {.name = "--alignment", .kind = ARENA_OPT_POW2, .arg = "N", .min = 1,
     .max = (uint64_t)1 << 30, .def = "16", .in = LOADS, ARENA_OPT_AT(A, c.alignment),
     .help = "bytes; every size rounds up to it", .see = "configurations.md"},
    {.name = "--order", .kind = ARENA_OPT_CHOICE, .name_of = order_name, .def = "stored",
     .in = LOADS, ARENA_OPT_AT(A, c.order),
     .help = "the execution order of a graph's ops: stored (the graph's own) or best (the"
             " order of least peak live bytes, proven: a certificate, else an exact search over"
             " the sets of ops already run; past --order-states a heuristic order with its"
             " proven lower bound)",
     .see = "below-the-bound.md#the-execution-order---order-storedbest"},
    {.name = "--order-states", .kind = ARENA_OPT_UINT, .arg = "N", .min = 1,
     .max = UINT32_MAX - 1, .unset = XSTR(ARENA_ORDER_STATES_DEFAULT), .in = LOADS,
     ARENA_OPT_AT(A, c.order_states),
     .help = "states the best-order search may keep (at most 256 MiB of them)"},
    {.name = "--inplace", .kind = ARENA_OPT_CHOICE, .name_of = inplace_name, .def = "none",
     .in = LOADS, ARENA_OPT_AT(A, c.inplace),
     .help = "ops that may write their output over an input that dies there: elementwise"
             " (add, sub, mul, activations, reshapes, (de)quantize, softmax, equal sizes) or"
             " depthwise (elementwise and depthwise convolutions, output inside its input);"
             " the planners plan each chain of such ops as one tensor",
     .see = "below-the-bound.md#in-place-operators---inplace"},
    {.name = "--patch", .kind = ARENA_OPT_CUSTOM, .arg = "RxC:K[:stream]", .parse = read_patch,
     .unset = "none", .in = LOADS,
     .help = "patch-based inference (MCUNetV2): the first K ops run per patch of an R x C"
             " grid over their output, with the halo each patch needs, the output assembled"
             " whole; :stream reads the input per patch instead of whole; for graph families"
             " whose ops state windows (mobilenetv2)",
     .see = "below-the-bound.md#patch-based-inference---patch"},
    {.name = "--scratch", .kind = ARENA_OPT_CUSTOM, .arg = "none|cmsis-nn[:m4|m55]|reference",
     .parse = read_scratch, .unset = "none", .in = LOADS,
     .help = "the kernels' scratch buffers (TFLM plans them beside the tensors) as tensors of"
             " the problem, each alive during its op: as TFLM's CMSIS-NN kernels ask for them"
             " (CMSIS-NN v7.0.0; m4: a Cortex-M with DSP, the default; m55: MVE) or its"
             " reference kernels; int8 ops (fp32 ops: none); convs need their window (the"
             " families state it, the .tflite reader reads it; dilated convs are refused)",
     .see = "configurations.md#kernel-scratch-buffers---scratch"},
    {.name = "--scratch-policy", .kind = ARENA_OPT_CHOICE, .name_of = scratch_policy_name,
     .def = "lifetime", .in = LOADS, ARENA_OPT_AT(A, c.scratch_policy),
     .help = "where the scratch goes: lifetime (TFLM's way: one buffer per op, planned with"
             " the tensors), tail (one region the size of the largest buffer, alive"
             " throughout) or online (not planned: the plan of the tensors alone, as it ships"
             " as TFLM's offline plan, and the device arena with TFLM placing the scratch)",
     .see = "configurations.md#kernel-scratch-buffers---scratch"},
    {.name = "--repetitions", .kind = ARENA_OPT_UINT, .arg = "N", .min = 1, .max = 1000,
     .def = "5", .in = ARENA_IN_RUN, ARENA_OPT_AT(A, repetitions),
     ARENA_OPT_SEEN(A, repetitions_set),
     .help = "Google Benchmark repetitions per planner x graph; 3 for problems of 100,000"
             " tensors or more unless given"},
    {.name = "--min-time", .kind = ARENA_OPT_SECONDS, .arg = "S", .max = 3600, .def = "0.01",
     .in = ARENA_IN_RUN, ARENA_OPT_AT(A, min_time), ARENA_OPT_SEEN(A, min_time_set),
     .help = "minimum seconds per repetition; search planners are timed by one call instead"},
    {.name = "--shard", .kind = ARENA_OPT_CUSTOM, .arg = "K/N", .parse = read_shard,
     .in = ARENA_IN_RUN, .values = "1 <= K <= N <= 100000", .unset = "every job",
     .help = "run part K of N of the graph x planner jobs, dealt by a hash of spec and"
             " planner name, so the parts are even and the same on every machine (bench merge"
             " joins the parts' databases)",
     .see = "results.md#shards"},
    {.name = "--resume", .kind = ARENA_OPT_FLAG, .in = ARENA_IN_RUN, ARENA_OPT_AT(A, resume),
     .help = "skip every graph x planner job (of this --shard) whose result the --db database"
             " already holds: the same graph and problem, planner and origin, configuration,"
             " options the planner reads, timing and --tag, stored by any earlier run; a"
             " stored invalid result counts toward the exit status as if measured again",
     .see = "results.md#resuming-a-run"},
    {.name = "--missing", .kind = ARENA_OPT_FLAG, .in = ARENA_IN_RUN, ARENA_OPT_AT(A, missing),
     .help = "run nothing: print the jobs (of this --shard) the --db database holds no result"
             " for, as SPEC<TAB>PLANNER lines, and on stderr how many it holds and which"
             " planners' stored results are invalid (the lookup of --resume)",
     .see = "results.md#resuming-a-run"},
    {.name = "--pin", .kind = ARENA_OPT_UINT, .arg = "CPU", .max = 1023, .unset = "not pinned",
     .in = STORES, ARENA_OPT_AT(A, c.pin_cpu),
     .help = "pin the measuring thread to CPU number CPU (refused, naming the allowed ones,"
             " when the process may not use it)"},
    {.name = "--quiet", .kind = ARENA_OPT_FLAG, .in = LOADS, ARENA_OPT_AT(A, c.quiet),
     .help = "print nothing but errors; results are still stored"},
    {.name = "--progress", .kind = ARENA_OPT_CHOICE, .name_of = arena_progress_mode_name,
     .def = "auto", .in = LOADS, ARENA_OPT_AT(A, c.progress),
     .help = "auto: a line rewritten in place on a terminal, else a line on stderr at least"
             " every 30 s, with the time left as the finished jobs' times predict; always: also"
             " with --quiet; never"},
    {.name = "--head", .kind = ARENA_OPT_UINT, .arg = "N", .max = ARENA_BENCH_INT_MAX,
     .def = "0", .in = ARENA_IN_EXPORT, ARENA_OPT_AT(A, head),
     .help = "bytes of model metadata before the activations in each exported plan's arena"
             " (export plan)",
     .see = "shipping.md#the-plan-as-c"},
    {.name = "--tail", .kind = ARENA_OPT_UINT, .arg = "N", .max = ARENA_BENCH_INT_MAX,
     .def = "0", .in = ARENA_IN_EXPORT, ARENA_OPT_AT(A, tail),
     .help = "bytes of scratch after the activations in each exported plan's arena (export"
             " plan)"},
    {.name = "--allocator", .kind = ARENA_OPT_CUSTOM, .arg = "LIST", .parse = read_allocators,
     .unset = "all", .in = ARENA_IN_REPLAY, .values = "a comma list of names, or all:",
     .name_of = allocator_name,
     .help = "the real allocators that replay each graph, each in a process of its own",
     .see = "runtime.md"},
    {.name = "--frames", .kind = ARENA_OPT_UINT, .arg = "N", .min = 1,
     .max = ARENA_REPLAY_FRAMES_MAX, .def = XSTR(ARENA_REPLAY_FRAMES_DEFAULT),
     .in = ARENA_IN_REPLAY, ARENA_OPT_AT(A, frames),
     .help = "frames per replay"},
    {.name = "--founding-table", .kind = ARENA_OPT_CUSTOM, .parse = read_founding,
     .in = ARENA_IN_REPLAY,
     .help = "the table of the article the project began from, measured: malloc per tensor"
             " (every allocator), ping-pong, the best static plan; one MobileNetV2 graph brings"
             " its other fusion; its replays and plans are stored as one run",
     .see = "runtime.md"},
    {.name = "--benchmark_*", .kind = ARENA_OPT_CUSTOM, .parse = read_gbench,
     .in = ARENA_IN_RUN,
     .help = "passed to Google Benchmark unchanged, after bench's own, e.g."
             " --benchmark_out=FILE --benchmark_out_format=json; not the two *_aggregates_only"
             " flags (bench reads every repetition); --benchmark_repetitions must be 1..1000"
             " and --benchmark_min_time positive, so that something is measured"},
    {.name = "--version", .kind = ARENA_OPT_FLAG, .in = ARENA_IN_RUN, ARENA_OPT_AT(A, c.version),
     .help = "the version, git revision and compiler, then exit"},
    /* The old spellings, from before the commands. */
    {.name = "--list", .kind = ARENA_OPT_CUSTOM, .parse = read_list, .in = ARENA_IN_OLD,
     .now = "bench list"},
    {.name = "--export-plan", .kind = ARENA_OPT_CUSTOM, .arg = "DIR", .parse = read_export,
     .in = ARENA_IN_OLD, ARENA_OPT_AT(A, export_plan_dir), .now = "bench export plan DIR"},
    {.name = "--export-tflite", .kind = ARENA_OPT_CUSTOM, .arg = "DIR", .parse = read_export,
     .in = ARENA_IN_OLD, ARENA_OPT_AT(A, export_tflite_dir), .now = "bench export tflite DIR"},
    {.name = "--export-csv", .kind = ARENA_OPT_CUSTOM, .arg = "DIR", .parse = read_export,
     .in = ARENA_IN_OLD, ARENA_OPT_AT(A, export_dir), .now = "bench export problem DIR"},
    {.name = "--replay", .kind = ARENA_OPT_CUSTOM, .arg = "LIST", .parse = read_allocators,
     .in = ARENA_IN_OLD, .now = "bench replay --allocator LIST"},
    {.name = "--founding-table", .kind = ARENA_OPT_CUSTOM, .parse = read_founding,
     .in = ARENA_IN_OLD, .now = "bench replay --founding-table"},
};
const size_t arena_bench_option_count = sizeof arena_bench_options / sizeof arena_bench_options[0];

static void start(A *a)
{
    memset(a, 0, sizeof *a);
    a->c.options = arena_plan_options_default;
    a->c.pin_cpu = -1;
}

/* What no single row can check: the options together, once all are read. */
static int check(A *a, char *err, size_t errlen)
{
    a->format = arena_output_at((size_t)a->format_index);
    if (a->c.no_db && a->c.db_given) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--db and --no-db together");
    if (a->c.no_db) a->c.db = NULL;
    if (a->isolate && a->in_process)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--isolate and --in-process together: plugins run in a forked child"
                            " (--isolate, the default) or in bench's process, not both");
    if ((a->resume || a->missing) && !a->c.db)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: needs a database (not --no-db)",
                            a->resume ? "--resume" : "--missing");
    a->c.options.seed = a->c.seed;
    if (a->c.help || a->c.version) return ARENA_OK;
    if (a->command == ARENA_BENCH_LIST) {
        if (a->format != arena_output_at(0) && strcmp(a->format->name, "csv") != 0)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "--format %s: bench list prints a table, or csv for the"
                                " planners", a->format->name);
        return ARENA_OK;
    }
    if (a->command == ARENA_BENCH_REPLAY) {
        if (a->format != arena_output_at(0))
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "--format: replays and --founding-table print tables only"
                                " (their figures are stored in the replays table)");
        if (a->shard_n)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "--shard splits planner jobs; replays and --founding-table run"
                                " every graph (split the graphs with --graph instead)");
        if (a->c.planner_given && !a->founding_table)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "--planner and --replay together: a replay runs real allocators"
                                " instead of planners (--founding-table shows both)");
    }
    if (a->c.n_graphs == 0)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "no --graph given (e.g. --graph mobilenetv2; bench list shows the"
                            " families)");
    if (a->c.n_planners == 0 && !a->c.planner_given && add_all(a, err, errlen) != ARENA_OK)
        return ARENA_ENOMEM;
    if (a->c.n_planners == 0 && a->command != ARENA_BENCH_REPLAY && !a->export_dir)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "no planner is registered");
    int rc = resolve_planners(a, err, errlen);
    if (rc != ARENA_OK) return rc;
    for (size_t k = 0; a->command == ARENA_BENCH_EXPORT && k < a->c.n_planners; k++)
        if (a->c.origins[k].keys)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "--planner %s: bench export plans each planner with its default"
                                " keys; give the bare name",
                                a->c.origins[k].spec);
    for (size_t k = 0; a->command == ARENA_BENCH_EXPORT && k < a->c.n_planners; k++)
        if (a->c.origins[k].origin == ARENA_ORIGIN_CMD && !a->export_dir)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "--planner cmd:%s: bench export plans in process; an external"
                                " program's plans are checked and stored by bench run",
                                a->c.planners[k]->name);
    return ARENA_OK;
}

static int parse(A *a, int argc, char **argv, unsigned mask, const char **pos, size_t max_pos,
                 size_t *n_pos, const char *hint, char *err, size_t errlen)
{
    struct arena_opt_table t = {arena_bench_options, arena_bench_option_count, a};
    int rc = arena_opt_parse(argc, argv, 1, &t, 1, mask, pos, max_pos, n_pos, hint, err, errlen);
    if (rc == ARENA_OPT_HELP) {
        a->c.help = 1;
        return ARENA_OK;
    }
    return rc;
}

int arena_bench_args_parse(int argc, char **argv, A *a, char *err, size_t errlen)
{
    start(a);
    int rc = parse(a, argc, argv, EVERY, NULL, 0, NULL, " (graphs go after --graph)", err,
                   errlen);
    return rc == ARENA_OK ? check(a, err, errlen) : rc;
}

int arena_bench_args_parse_command(enum arena_bench_command cmd, int argc, char **argv, A *a,
                                   char *err, size_t errlen)
{
    static const unsigned masks[] = {
        [ARENA_BENCH_RUN] = ARENA_IN_RUN, [ARENA_BENCH_LIST] = ARENA_IN_LIST,
        [ARENA_BENCH_EXPORT] = ARENA_IN_EXPORT, [ARENA_BENCH_REPLAY] = ARENA_IN_REPLAY};
    start(a);
    a->command = cmd;
    const char *pos[2] = {NULL, NULL};
    size_t n_pos = 0;
    int export = cmd == ARENA_BENCH_EXPORT, list = cmd == ARENA_BENCH_LIST;
    int rc = parse(a, argc, argv, masks[cmd], pos, export ? 2 : list, &n_pos,
                   export ? " (bench export KIND DIR takes two)"
                   : list ? " (bench list takes one: planners)"
                          : " (graphs go after --graph)",
                   err, errlen);
    if (rc != ARENA_OK || a->c.help) return rc;
    if (list && n_pos) {
        if (strcmp(pos[0], "planners") != 0)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "bench list %s: list what? (bench list, or bench list planners)",
                                pos[0]);
        a->list_only = pos[0];
    }
    if (export) {
        static const char *const kinds[] = {"plan", "tflite", "problem"};
        size_t k = 0;
        while (n_pos == 2 && k < 3 && strcmp(pos[0], kinds[k]) != 0) k++;
        if (n_pos < 2 || k == 3)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "%s%s%s%s (bench export plan|tflite|problem DIR)",
                                n_pos == 0 ? "what to export and where?" : "",
                                n_pos == 1 ? "no folder after '" : n_pos == 2 ? "unknown kind '" : "",
                                n_pos ? pos[0] : "", n_pos ? "'" : "");
        if (!pos[1][0]) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "empty folder name");
        const char **dir = k == 0 ? &a->export_plan_dir : k == 1 ? &a->export_tflite_dir
                                                                 : &a->export_dir;
        *dir = pos[1];
    }
    return check(a, err, errlen);
}

static void free_list(char **items, size_t n)
{
    for (size_t i = 0; i < n; i++) free(items[i]);
    free(items);
}

void arena_bench_args_free(struct arena_bench_args *a)
{
    if (!a) return;
    free_list(a->c.graphs, a->c.n_graphs);
    free_list(a->gbench_flags, a->n_gbench_flags);
    for (size_t i = 0; i < a->c.n_planners; i++) arena_planner_origin_free(&a->c.origins[i]);
    free(a->c.origins);
    free(a->c.planners);
    for (size_t i = 0; i < a->c.n_libs; i++) arena_plugin_close(&a->c.libs[i]);
    free(a->c.libs);
    memset(a, 0, sizeof *a);
}
