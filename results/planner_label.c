/* planner_label.c — a planner's label among the planners of one figure
 * (results/planner_label.h). */
#include "results/planner_label.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planners/status.h"

/* An identity cut in three: name, keys ("k=v,k=v", maybe empty), origin
 * (" (plugin ...)", maybe empty). */
struct id_parts {
    const char *name, *keys, *origin;
    size_t name_len, keys_len;
};

static struct id_parts parts_of(const char *id, size_t len)
{
    struct id_parts p = {.name = id};
    while (p.name_len < len && id[p.name_len] != ':' && id[p.name_len] != ' ') p.name_len++;
    size_t at = p.name_len;
    if (at < len && id[at] == ':') {
        p.keys = id + at + 1;
        while (at + 1 + p.keys_len < len && p.keys[p.keys_len] != ' ') p.keys_len++;
        at += 1 + p.keys_len;
    } else {
        p.keys = id + at;
    }
    p.origin = id + at; /* to len: "" or " (...)" */
    return p;
}

/* The value of key name[0..nlen) in keys[0..klen): *v, *vlen; 0 when absent. */
static int key_value(const char *keys, size_t klen, const char *name, size_t nlen, const char **v,
                     size_t *vlen)
{
    for (size_t at = 0; at < klen;) {
        size_t n = 0;
        while (at + n < klen && keys[at + n] != ',') n++;
        const char *eq = memchr(keys + at, '=', n);
        if (eq && (size_t)(eq - (keys + at)) == nlen && memcmp(keys + at, name, nlen) == 0) {
            *v = eq + 1;
            *vlen = n - nlen - 1;
            return 1;
        }
        at += n + 1;
    }
    return 0;
}

static size_t count_keys(const struct id_parts *p)
{
    size_t n = p->keys_len ? 1 : 0;
    for (size_t i = 0; i < p->keys_len; i++) n += p->keys[i] == ',';
    return n;
}

int arena_label_rename_parse(const char *arg, struct arena_label_rename *out)
{
    int in_keys = 0, eq_in_item = 0;
    for (size_t i = 0; arg[i]; i++) {
        char c = arg[i];
        int ends = 0;
        if (c == ':' && !in_keys) in_keys = 1;
        else if (c == ',' && in_keys) eq_in_item = 0;
        else if (c == '=' && (!in_keys || eq_in_item)) ends = 1;
        else if (c == '=') eq_in_item = 1;
        if (!ends) continue;
        if (i == 0 || !arg[i + 1]) return ARENA_EINVAL;
        out->spec = arg;
        out->spec_len = i;
        out->text = arg + i + 1;
        return ARENA_OK;
    }
    return ARENA_EINVAL;
}

/* Whether values a and b (la, lb bytes) are equal, a set's names ('+'
 * between them) in any order: "stack+twins" is "twins+stack". */
static int same_value(const char *a, size_t la, const char *b, size_t lb)
{
    if (la != lb) return 0;
    if (memcmp(a, b, la) == 0) return 1;
    size_t na = 0, nb = 0;
    for (size_t at = 0; at <= la; na++) { /* every name of a is in b */
        size_t n = 0;
        while (at + n < la && a[at + n] != '+') n++;
        int found = 0;
        for (size_t bt = 0; bt <= lb && !found;) {
            size_t m = 0;
            while (bt + m < lb && b[bt + m] != '+') m++;
            found = m == n && memcmp(a + at, b + bt, n) == 0;
            bt += m + 1;
        }
        if (!found) return 0;
        at += n + 1;
    }
    for (size_t bt = 0; bt <= lb; nb++) { /* and as many */
        size_t m = 0;
        while (bt + m < lb && b[bt + m] != '+') m++;
        bt += m + 1;
    }
    return na == nb;
}

int arena_planner_spec_names(const char *id, const char *spec, size_t len)
{
    size_t idlen = strlen(id);
    if (idlen == len && memcmp(id, spec, len) == 0) return 1;
    struct id_parts a = parts_of(id, idlen), s = parts_of(spec, len);
    if (a.name_len != s.name_len || memcmp(a.name, s.name, a.name_len) != 0) return 0;
    size_t olen = (size_t)(spec + len - s.origin);
    if (olen && (olen != strlen(a.origin) || memcmp(a.origin, s.origin, olen) != 0)) return 0;
    for (size_t at = 0; at < s.keys_len;) {
        size_t n = 0;
        while (at + n < s.keys_len && s.keys[at + n] != ',') n++;
        const char *item = s.keys + at, *eq = memchr(item, '=', n), *v;
        size_t vlen;
        if (!eq || !key_value(a.keys, a.keys_len, item, (size_t)(eq - item), &v, &vlen) ||
            !same_value(v, vlen, eq + 1, n - (size_t)(eq - item) - 1))
            return 0;
        at += n + 1;
    }
    return 1;
}

void arena_planner_id_name(const char *id, char *buf, size_t len)
{
    struct id_parts p = parts_of(id, strlen(id));
    snprintf(buf, len, "%.*s", (int)p.name_len, p.name);
}

/* Whether key k of ids[i] (k[0..klen)) differs among the identities of its
 * name and origin. */
static int key_differs(const char *const *ids, size_t n, size_t i, const char *k, size_t klen)
{
    struct id_parts me = parts_of(ids[i], strlen(ids[i]));
    const char *v0;
    size_t l0;
    int has0 = key_value(me.keys, me.keys_len, k, klen, &v0, &l0);
    for (size_t j = 0; j < n; j++) {
        struct id_parts o = parts_of(ids[j], strlen(ids[j]));
        if (o.name_len != me.name_len || memcmp(o.name, me.name, me.name_len) != 0 ||
            strcmp(o.origin, me.origin) != 0)
            continue;
        const char *v;
        size_t l;
        int has = key_value(o.keys, o.keys_len, k, klen, &v, &l);
        if (has != has0 || (has && (l != l0 || memcmp(v, v0, l) != 0))) return 1;
    }
    return 0;
}

static char *label_of(const char *const *ids, size_t n, size_t i,
                      const struct arena_label_rename *ren, size_t n_ren)
{
    const struct arena_label_rename *r = NULL;
    size_t best = 0;
    for (size_t k = 0; k < n_ren; k++) {
        if (!arena_planner_spec_names(ids[i], ren[k].spec, ren[k].spec_len)) continue;
        struct id_parts s = parts_of(ren[k].spec, ren[k].spec_len);
        size_t given = count_keys(&s) + 1;
        if (given >= best) r = &ren[k], best = given;
    }
    struct id_parts me = parts_of(ids[i], strlen(ids[i]));
    struct id_parts given = r ? parts_of(r->spec, r->spec_len) : (struct id_parts){0};
    size_t cap = strlen(ids[i]) + (r ? strlen(r->text) : 0) + 2 * count_keys(&me) + 1;
    char *out = malloc(cap);
    if (!out) return NULL;
    size_t used = r ? (size_t)snprintf(out, cap, "%s", r->text)
                    : (size_t)snprintf(out, cap, "%.*s", (int)me.name_len, me.name);
    for (size_t at = 0; at < me.keys_len;) {
        size_t len = 0;
        while (at + len < me.keys_len && me.keys[at + len] != ',') len++;
        const char *item = me.keys + at, *eq = memchr(item, '=', len), *v;
        size_t klen = eq ? (size_t)(eq - item) : len, vlen;
        if (key_differs(ids, n, i, item, klen) &&
            !key_value(given.keys, given.keys_len, item, klen, &v, &vlen))
            used += (size_t)snprintf(out + used, cap - used, ", %.*s", (int)len, item);
        at += len + 1;
    }
    if (!r) snprintf(out + used, cap - used, "%s", me.origin);
    return out;
}

int arena_planner_labels(const char *const *ids, size_t n, const struct arena_label_rename *ren,
                         size_t n_ren, char **labels)
{
    for (size_t i = 0; i < n; i++) {
        labels[i] = label_of(ids, n, i, ren, n_ren);
        if (labels[i]) continue;
        for (size_t k = 0; k < i; k++) free(labels[k]), labels[k] = NULL;
        return ARENA_ENOMEM;
    }
    return ARENA_OK;
}
