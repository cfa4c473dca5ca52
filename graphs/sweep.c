/* sweep.c — expands the '|' lists and A..B ranges of a spec into the
 * Cartesian product of its keys' alternatives (graphs/sweep.h), in the
 * order of nested loops over the keys as written. The grid notation follows
 * the parameter sweeps of benchmark harnesses such as Google Benchmark's
 * Ranges/ArgsProduct and hyperfine's --parameter-list, written inside the
 * spec so one --graph item names a whole grid. */
#include "graphs/sweep.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/family.h"

struct alt {
    const char *s; /* the literal, or the range's text */
    size_t len;
    int range;
    uint64_t lo, count; /* a range: lo, lo+1, ..., lo+count-1; a literal: count 1 */
};

struct key {
    const char *name; /* "key=" prefix: name .. name+name_len */
    size_t name_len;
    struct alt *alts;
    size_t n_alts;
    uint64_t count; /* values over all alternatives */
};

int arena_sweep_append(char ***items, size_t *n, const char *s, size_t len)
{
    char *c = malloc(len + 1);
    if (!c) return ARENA_ENOMEM;
    memcpy(c, s, len);
    c[len] = '\0';
    char **grown = realloc(*items, (*n + 1) * sizeof *grown);
    if (!grown) {
        free(c);
        return ARENA_ENOMEM;
    }
    grown[(*n)++] = c;
    *items = grown;
    return ARENA_OK;
}

/* Digits only, at most 19 of them (so the value fits below 2^63). */
static int parse_digits(const char *s, size_t len, uint64_t *out)
{
    if (len == 0 || len > 19) return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return 1;
}

/* Whose keys: the name errors start with and its table (a family's, a
 * planner's). */
struct owner {
    const char *name;
    const struct arena_key *keys;
    size_t n_keys;
};

static const struct arena_key *find_key(const struct owner *o, const char *name, size_t len)
{
    for (size_t i = 0; i < o->n_keys; i++)
        if (strlen(o->keys[i].name) == len && memcmp(o->keys[i].name, name, len) == 0)
            return &o->keys[i];
    return NULL;
}

/* One key=value piece into k; sets *sweep when it holds '|' or '..'. */
static int parse_key(const struct owner *f, const char *piece, size_t len, struct key *k,
                     int *sweep, char *err, size_t errlen)
{
    const char *eq = memchr(piece, '=', len);
    k->name = piece;
    k->name_len = eq ? (size_t)(eq - piece) : len;
    const char *v = eq ? eq + 1 : piece + len;
    size_t vlen = eq ? len - k->name_len - 1 : 0;
    size_t n_alts = 1;
    for (size_t i = 0; i < vlen; i++) n_alts += v[i] == '|';
    k->alts = calloc(n_alts, sizeof *k->alts);
    if (!k->alts) return ARENA_ENOMEM;
    k->count = 0;
    const struct arena_key *fk = find_key(f, k->name, k->name_len);
    const char *p = v;
    for (size_t a = 0; a < n_alts; a++) {
        const char *bar = memchr(p, '|', (size_t)(v + vlen - p));
        size_t alen = bar ? (size_t)(bar - p) : (size_t)(v + vlen - p);
        struct alt *alt = &k->alts[k->n_alts++];
        alt->s = p;
        alt->len = alen;
        alt->count = 1;
        if (n_alts > 1) {
            *sweep = 1;
            if (alen == 0)
                return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                    "%s: key '%.*s': empty alternative in '%.*s'", f->name,
                                    (int)k->name_len, k->name, (int)vlen, v);
        }
        const char *dots = NULL;
        for (size_t i = 0; i + 1 < alen; i++)
            if (p[i] == '.' && p[i + 1] == '.') {
                dots = p + i;
                break;
            }
        if (dots) {
            *sweep = 1;
            uint64_t lo = 0, hi = 0;
            if (fk && fk->kind != ARENA_KEY_UINT)
                return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                    "%s: key '%.*s': a range A..B needs an integer key; list the"
                                    " values with '|'",
                                    f->name, (int)k->name_len, k->name);
            if (!parse_digits(p, (size_t)(dots - p), &lo) ||
                !parse_digits(dots + 2, alen - (size_t)(dots - p) - 2, &hi))
                return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                    "%s: key '%.*s': '%.*s' is not a range A..B of non-negative"
                                    " integers",
                                    f->name, (int)k->name_len, k->name, (int)alen, p);
            if (hi < lo)
                return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                    "%s: key '%.*s': range %.*s is empty (%llu is below %llu)",
                                    f->name, (int)k->name_len, k->name, (int)alen, p,
                                    (unsigned long long)hi, (unsigned long long)lo);
            alt->range = 1;
            alt->lo = lo;
            alt->count = hi - lo + 1;
        }
        if (alt->count > ARENA_SWEEP_MAX || k->count > ARENA_SWEEP_MAX)
            k->count = (uint64_t)ARENA_SWEEP_MAX + 1;
        else
            k->count += alt->count;
        p = bar ? bar + 1 : p + alen;
    }
    return ARENA_OK;
}

/* The j-th value of key k (0-based) appended to buf at *used. */
static void put_value(const struct key *k, uint64_t j, char *buf, size_t *used)
{
    for (size_t a = 0; a < k->n_alts; a++) {
        const struct alt *alt = &k->alts[a];
        if (j >= alt->count) {
            j -= alt->count;
            continue;
        }
        if (alt->range)
            *used += (size_t)sprintf(buf + *used, "%llu", (unsigned long long)(alt->lo + j));
        else {
            memcpy(buf + *used, alt->s, alt->len);
            *used += alt->len;
        }
        return;
    }
}

/* Every spec: text up to rest (the owner's "NAME:"), then one value of
 * each key. */
static int expand(const char *text, const struct owner *f, const char *rest,
                  struct key *keys, size_t n_keys, unsigned max, char ***items, size_t *n,
                  char *err, size_t errlen)
{
    uint64_t total = 1;
    size_t longest = (size_t)(rest - text); /* "family:" */
    for (size_t i = 0; i < n_keys; i++) {
        if (keys[i].count > max || total * keys[i].count > max)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "%s: the sweep stands for more than %u specs", f->name,
                                max);
        total *= keys[i].count;
        size_t widest = 20;
        for (size_t a = 0; a < keys[i].n_alts; a++)
            if (keys[i].alts[a].len > widest) widest = keys[i].alts[a].len;
        longest += keys[i].name_len + 2 + widest;
    }
    /* Room for every spec at once: one realloc, not one per spec. */
    char **room = realloc(*items, (*n + (size_t)total) * sizeof *room);
    if (!room) return ARENA_ENOMEM;
    *items = room;
    for (uint64_t idx = 0; idx < total; idx++) {
        char *s = malloc(longest + 1);
        if (!s) return ARENA_ENOMEM;
        size_t used = (size_t)(rest - text);
        memcpy(s, text, used);
        uint64_t div = total;
        for (size_t i = 0; i < n_keys; i++) {
            div /= keys[i].count; /* the keys after i vary faster */
            uint64_t j = (idx / div) % keys[i].count;
            if (i) s[used++] = ',';
            memcpy(s + used, keys[i].name, keys[i].name_len);
            used += keys[i].name_len;
            s[used++] = '=';
            put_value(&keys[i], j, s, &used);
        }
        s[used] = '\0';
        (*items)[(*n)++] = s;
    }
    return ARENA_OK;
}

int arena_sweep_expand(const char *text, char ***items, size_t *n, char *err, size_t errlen)
{
    return arena_sweep_expand_max(text, ARENA_SWEEP_MAX, items, n, err, errlen);
}

/* The specs of text, whose keys start at rest and end at its end, against
 * f's table; not a sweep: text itself. */
static int expand_keys(const char *text, const char *rest, const struct owner *f, unsigned max,
                       char ***items, size_t *n, char *err, size_t errlen)
{
    if (max == 0 || max > ARENA_SWEEP_MAX) max = ARENA_SWEEP_MAX;
    size_t n_keys = 0;
    if (*rest) {
        n_keys = 1;
        for (const char *c = rest; *c; c++) n_keys += *c == ',';
    }
    struct key *keys = calloc(n_keys ? n_keys : 1, sizeof *keys);
    if (!keys) return ARENA_ENOMEM;
    int sweep = 0, rc = ARENA_OK;
    const char *p = rest;
    for (size_t i = 0; i < n_keys && rc == ARENA_OK; i++) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        rc = parse_key(f, p, len, &keys[i], &sweep, err, errlen);
        p = comma ? comma + 1 : p + len;
    }
    if (rc == ARENA_OK)
        rc = sweep ? expand(text, f, rest, keys, n_keys, max, items, n, err, errlen)
                   : arena_sweep_append(items, n, text, strlen(text));
    for (size_t i = 0; i < n_keys; i++) free(keys[i].alts);
    free(keys);
    return rc;
}

int arena_sweep_expand_max(const char *text, unsigned max, char ***items, size_t *n, char *err,
                           size_t errlen)
{
    const char *colon = strchr(text, ':');
    const struct arena_family *fam =
        colon ? arena_family_find(text, (size_t)(colon - text)) : NULL;
    if (!fam) return arena_sweep_append(items, n, text, strlen(text));
    struct owner f = {fam->info.name, fam->keys, fam->n_keys};
    return expand_keys(text, colon + 1, &f, max, items, n, err, errlen);
}

int arena_sweep_expand_keys(const char *owner, const struct arena_key *keys,
                            size_t n_keys, const char *text, size_t keys_at, char ***items,
                            size_t *n, char *err, size_t errlen)
{
    struct owner f = {owner, keys, n_keys};
    if (keys_at > strlen(text)) return ARENA_EINVAL;
    return expand_keys(text, text + keys_at, &f, ARENA_SWEEP_MAX, items, n, err, errlen);
}
