/* cmd.c — planners that are external programs (cmd.h). */
#include "bench/external/cmd.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bench/external/subprocess.h"
#include "graphs/files.h"

extern char **environ;

/* stdout beyond this is refused: an id,offset line is at most 42 bytes. */
#define LINE_MAX_BYTES 64u
#define ERR_KEEP (64u * 1024u)

int arena_cmd_write_problem(const struct arena_problem *p, const char *path, char *err,
                            size_t errlen)
{
    return arena_csv_write(path, p, err, errlen);
}

/* A decimal of 1 to 19 digits at s (spaces around it allowed) up to the
 * byte `end`; 1 and *v when it is one. */
static int decimal(const char *s, const char *end, uint64_t *v)
{
    while (s < end && (*s == ' ' || *s == '\t')) s++;
    while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r')) end--;
    if (s == end || end - s > 19) return 0;
    uint64_t x = 0;
    for (; s < end; s++) {
        if (*s < '0' || *s > '9') return 0;
        x = x * 10 + (uint64_t)(*s - '0');
    }
    *v = x;
    return 1;
}

/* Whether the line (len bytes) is the header id,offset (blanks and case
 * aside). */
static int is_header(const char *s, size_t len)
{
    char t[32];
    size_t k = 0;
    for (size_t i = 0; i < len && k < sizeof t - 1; i++)
        if (!isspace((unsigned char)s[i])) t[k++] = (char)tolower((unsigned char)s[i]);
    t[k] = '\0';
    return strcmp(t, "id,offset") == 0;
}

int arena_cmd_read_offsets(const char *text, const struct arena_problem *p,
                           struct arena_plan *plan, char *why, size_t whylen)
{
    size_t *line_of = calloc(p->n ? p->n : 1, sizeof *line_of); /* 0: not given */
    if (!line_of) return arena_errorf(why, whylen, 0, ARENA_ENOMEM, "out of memory");
    int rc = ARENA_OK, first = 1;
    size_t no = 0, given = 0;
    plan->arena = 0;
    plan->buffers = 0;
    plan->status = ARENA_PLAN_FEASIBLE;
    for (const char *s = text; rc == ARENA_OK && *s;) {
        const char *eol = strchr(s, '\n');
        size_t len = eol ? (size_t)(eol - s) : strlen(s);
        const char *next = eol ? eol + 1 : s + len;
        no++;
        size_t lead = strspn(s, " \t\r");
        if (lead >= len || s[lead] == '#') {
            s = next;
            continue;
        }
        if (first && is_header(s, len)) {
            first = 0;
            s = next;
            continue;
        }
        first = 0;
        const char *comma = memchr(s, ',', len);
        uint64_t id = 0, off = 0;
        if (!comma || !decimal(s, comma, &id) || !decimal(comma + 1, s + len, &off)) {
            rc = arena_errorf(why, whylen, 0, ARENA_EFORMAT,
                              "stdout line %zu: '%.*s%s' is not id,offset (two decimal integers)",
                              no, (int)(len > 60 ? 60 : len), s, len > 60 ? "..." : "");
            break;
        }
        if (id >= p->n) {
            rc = arena_errorf(why, whylen, 0, ARENA_EFORMAT,
                              "stdout line %zu: id %llu is not a tensor of the problem (ids 0 to"
                              " %zu)",
                              no, (unsigned long long)id, p->n ? p->n - 1 : 0);
            break;
        }
        if (line_of[id]) {
            rc = arena_errorf(why, whylen, 0, ARENA_EFORMAT,
                              "stdout line %zu: tensor %llu given twice (first on line %zu)", no,
                              (unsigned long long)id, line_of[id]);
            break;
        }
        if (off > (uint64_t)INT64_MAX) {
            rc = arena_errorf(why, whylen, 0, ARENA_EFORMAT,
                              "stdout line %zu: offset %llu is above 2^63-1", no,
                              (unsigned long long)off);
            break;
        }
        line_of[id] = no;
        given++;
        plan->offsets[id] = off;
        uint64_t end = off + p->tensors[id].size; /* < 2^63 + 2^62: no wrap */
        if (end > plan->arena) plan->arena = end;
        s = next;
    }
    for (size_t i = 0; rc == ARENA_OK && i < p->n; i++)
        if (!line_of[i])
            rc = arena_errorf(why, whylen, 0, ARENA_EFORMAT,
                              "tensor %zu has no offset (the program gave %zu of %zu)", i, given,
                              p->n);
    free(line_of);
    return rc;
}

/* The last plan_ns=N line of the stderr tail, and its last other line (for
 * a failure's message). */
static void read_stderr(const char *text, int *has_ns, uint64_t *ns, char *last, size_t lastlen)
{
    *has_ns = 0;
    last[0] = '\0';
    for (const char *s = text; s && *s;) {
        const char *eol = strchr(s, '\n');
        size_t len = eol ? (size_t)(eol - s) : strlen(s);
        size_t lead = strspn(s, " \t");
        uint64_t v;
        if (len > lead + 8 && strncmp(s + lead, "plan_ns=", 8) == 0 &&
            decimal(s + lead + 8, s + len, &v) && v <= (uint64_t)INT64_MAX) {
            *has_ns = 1;
            *ns = v;
        } else if (len > lead && strspn(s + lead, " \t\r") < len - lead) {
            snprintf(last, lastlen, "%.*s", (int)(len - lead > 200 ? 200 : len - lead), s + lead);
        }
        s = eol ? eol + 1 : s + len;
    }
}

/* Whether environ's entry e is one bench sets for the program. */
static int ours(const char *e)
{
    return strncmp(e, "ARENA_TIME_LIMIT=", 17) == 0 || strncmp(e, "ARENA_SEED=", 11) == 0 ||
           strncmp(e, "ARENA_PLANNER_SPEC=", 19) == 0 || strncmp(e, "ARENA_KEY_", 10) == 0;
}

/* environ with ARENA_TIME_LIMIT, ARENA_SEED, ARENA_PLANNER_SPEC and one
 * ARENA_KEY_<KEY>=value per key of spec set (a malloc'd array; its own
 * strings in one block, *vars, freed by the caller). */
static char **environment(const struct arena_plan_options *opt, const char *spec, char **vars)
{
    size_t n = 0, keys = 0;
    while (environ[n]) n++;
    const char *colon = strchr(spec, ':');
    for (const char *c = colon; c; c = strchr(c + 1, ',')) keys++;
    size_t room = 3 * 64 + 2 * strlen(spec) + 16 * keys + 32;
    char **env = malloc((n + 4 + keys) * sizeof *env);
    *vars = malloc(room);
    if (!env || !*vars) {
        free(env);
        free(*vars);
        return NULL;
    }
    size_t k = 0, at = 0;
    for (size_t i = 0; i < n; i++)
        if (!ours(environ[i])) env[k++] = environ[i];
    char *v = *vars;
    env[k++] = v + at;
    at += (size_t)snprintf(v + at, room - at, "ARENA_TIME_LIMIT=%g", opt->time_limit) + 1;
    env[k++] = v + at;
    at += (size_t)snprintf(v + at, room - at, "ARENA_SEED=%llu", (unsigned long long)opt->seed) + 1;
    env[k++] = v + at;
    at += (size_t)snprintf(v + at, room - at, "ARENA_PLANNER_SPEC=%s", spec) + 1;
    /* the keys: "k=v" pieces after the name's ':', their names in capitals */
    for (const char *p = colon ? colon + 1 : NULL; p && *p;) {
        size_t len = strcspn(p, ",");
        env[k++] = v + at;
        at += (size_t)snprintf(v + at, room - at, "ARENA_KEY_");
        for (size_t i = 0; i < len; i++) {
            char c = p[i];
            int in_name = memchr(p, '=', i) == NULL;
            v[at++] = in_name && c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
        }
        v[at++] = '\0';
        p += len + (p[len] == ',');
    }
    env[k] = NULL;
    return env;
}

int arena_cmd_plan(const char *spec, const char *command, const char *csv_path,
                   const struct arena_problem *p, const struct arena_plan_options *opt,
                   struct arena_plan *plan, struct arena_cmd_timing *t, char *why,
                   size_t whylen)
{
    memset(t, 0, sizeof *t);
    size_t len = strlen(command) + 8;
    char *script = malloc(len), align[32], cap[32], *vars = NULL, name[80];
    char **env = environment(opt, spec, &vars);
    if (!script || !env) {
        free(script);
        free(env);
        return arena_errorf(why, whylen, 0, ARENA_ENOMEM, "out of memory");
    }
    snprintf(name, sizeof name, "%.*s", (int)strcspn(spec, ":"), spec);
    snprintf(script, len, "%s \"$@\"", command);
    snprintf(align, sizeof align, "%llu", (unsigned long long)p->alignment);
    snprintf(cap, sizeof cap, "%llu", (unsigned long long)opt->capacity);
    char *argv[] = {"sh", "-c", script, (char *)name, (char *)csv_path, align, cap, NULL};
    struct arena_spawn sp = {.path = "/bin/sh", .argv = argv, .envp = env,
                             .out_max = (p->n + 1) * LINE_MAX_BYTES + 4096,
                             .err_keep = ERR_KEEP};
    char err[600] = "";
    /* the kill comes ARENA_CMD_STARTUP_S past the limit: a program's start
     * is not its planning */
    struct arena_plan_options run = *opt;
    if (run.time_limit > 0) run.time_limit += ARENA_CMD_STARTUP_S;
    int rc = arena_spawn_run(&sp, &run, err, sizeof err);
    free(script);
    free(env);
    free(vars);
    char last[220] = "", ended[160];
    read_stderr(sp.err.s, &t->has_self_ns, &t->self_ns, last, sizeof last);
    arena_spawn_describe(sp.status, ended, sizeof ended);
    t->wall_ns = sp.wall_s * 1e9;
    if (rc != ARENA_OK)
        rc = arena_errorf(why, whylen, 0, rc == ARENA_ENOMEM ? ARENA_EINVAL : rc,
                          "the program: %s%s", err,
                          rc == ARENA_ENOMEM ? " (killed)" : "");
    else if (sp.end == ARENA_SPAWN_STOPPED)
        rc = arena_errorf(why, whylen, 0, ARENA_ENOTFOUND,
                          "stopped by a signal: the program was killed");
    else if (sp.end == ARENA_SPAWN_TIMED_OUT)
        rc = arena_errorf(why, whylen, 0, ARENA_EINVAL,
                          "the program ran past the time limit (--time-limit %g s, and %g s for"
                          " its start): its process group was killed",
                          opt->time_limit, ARENA_CMD_STARTUP_S);
    else if (!(WIFEXITED(sp.status) && WEXITSTATUS(sp.status) == 0))
        rc = arena_errorf(why, whylen, 0, ARENA_EINVAL, "the program %s%s%s", ended,
                          last[0] ? ": " : "", last);
    else
        rc = arena_cmd_read_offsets(sp.out.s ? sp.out.s : "", p, plan, why, whylen) ==
                     ARENA_OK
                 ? ARENA_OK
                 : ARENA_EINVAL;
    arena_spawn_free(&sp);
    return rc;
}
