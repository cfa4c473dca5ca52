/* planner_keys.c — a planner's keys and canonical spec (planner_keys.h). */
#include "bench/external/planner_keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planners/keys.h"
#include "planners/status.h"

int arena_planner_keys_resolve(const struct arena_planner *pl, struct arena_planner_origin *o,
                               uint64_t seed, char *err, size_t errlen)
{
    free(o->spec);
    free(o->values);
    o->spec = NULL;
    o->values = NULL;
    const char *given = o->keys ? o->keys : "";
    size_t n = pl->n_keys;
    char owner[100];
    snprintf(owner, sizeof owner, "--planner %s", pl->name);
    char canon[4096] = "";
    if (o->origin == ARENA_ORIGIN_CMD) {
        snprintf(canon, sizeof canon, "%s", given); /* checked and sorted when read */
    } else {
        if (n > ARENA_PLANNER_MAX_KEYS)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: more than %u keys", owner,
                                ARENA_PLANNER_MAX_KEYS);
        o->values = n ? calloc(n, sizeof *o->values) : NULL;
        if (n && !o->values) return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
        int rc = arena_keys_parse(owner, pl->keys, n, given, strlen(given), seed, o->values, err,
                                  errlen);
        if (rc == ARENA_OK && arena_keys_format(pl->keys, n, o->values, canon, sizeof canon))
            rc = arena_errorf(err, errlen, 0, ARENA_EOVERFLOW, "%s: its spec is too long", owner);
        if (rc != ARENA_OK) return rc == ARENA_ENOTFOUND ? ARENA_EINVAL : rc; /* a bad option */
    }
    size_t len = strlen(pl->name) + 1 + strlen(canon) + 1;
    o->spec = malloc(len);
    if (!o->spec) return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
    snprintf(o->spec, len, "%s%s%s", pl->name, canon[0] ? ":" : "", canon);
    return ARENA_OK;
}

static int key_char(char c, int first)
{
    return (c >= 'a' && c <= 'z') || (!first && ((c >= '0' && c <= '9') || c == '_'));
}

static int value_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '_' || c == '+' || c == '-';
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

#define CMD_MAX_KEYS 32

int arena_planner_keys_cmd(const char *name, const char *text, char **keys, const char **rest,
                           char *err, size_t errlen)
{
    char *pair[CMD_MAX_KEYS];
    size_t n = 0, total = 0;
    const char *p = text;
    int rc = ARENA_OK;
    for (;;) {
        const char *k = p;
        while (key_char(*p, p == k)) p++;
        size_t klen = (size_t)(p - k);
        if (klen == 0 || *p != '=') {
            rc = arena_errorf(err, errlen, 0, ARENA_EINVAL,
                              "--planner cmd:%s: keys are key=value pairs up to the '=' before the"
                              " command (cmd:NAME:k=v,k=v=COMMAND; keys of [a-z0-9_])",
                              name);
            break;
        }
        const char *v = ++p;
        while (value_char(*p)) p++;
        size_t vlen = (size_t)(p - v);
        if (vlen == 0 || (*p != ',' && *p != '=')) {
            rc = arena_errorf(err, errlen, 0, ARENA_EINVAL,
                              "--planner cmd:%s: key '%.*s': a value is 1 or more of letters,"
                              " digits, '.', '_', '+', '-', then ',' or the '=' before the command",
                              name, (int)klen, k);
            break;
        }
        for (size_t i = 0; i < n && rc == ARENA_OK; i++)
            if (strncmp(pair[i], k, klen) == 0 && pair[i][klen] == '=')
                rc = arena_errorf(err, errlen, 0, ARENA_EINVAL, "--planner cmd:%s: key '%.*s'"
                                  " given twice", name, (int)klen, k);
        if (rc == ARENA_OK && n == CMD_MAX_KEYS)
            rc = arena_errorf(err, errlen, 0, ARENA_EINVAL, "--planner cmd:%s: more than %d keys",
                              name, CMD_MAX_KEYS);
        if (rc == ARENA_OK && !(pair[n] = malloc(klen + vlen + 2)))
            rc = arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
        if (rc != ARENA_OK) break;
        snprintf(pair[n++], klen + vlen + 2, "%.*s=%.*s", (int)klen, k, (int)vlen, v);
        total += klen + vlen + 2;
        if (*p++ == '=') break;
    }
    *keys = NULL;
    if (rc == ARENA_OK) {
        qsort(pair, n, sizeof *pair, by_text);
        *keys = malloc(total);
        if (!*keys) rc = arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
        size_t at = 0;
        for (size_t i = 0; rc == ARENA_OK && i < n; i++)
            at += (size_t)snprintf(*keys + at, total - at, "%s%s", i ? "," : "", pair[i]);
        *rest = p;
    }
    for (size_t i = 0; i < n; i++) free(pair[i]);
    return rc;
}
