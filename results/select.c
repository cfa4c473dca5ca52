/* select.c — configurations, filters and groups of stored results
 * (select.h). */
#include "results/select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/family.h"
#include "graphs/sweep.h"
#include "graphs/transforms.h"
#include "planners/status.h"
#include "results/planner_label.h"

static int cmp_i64(int64_t a, int64_t b)
{
    return (a > b) - (a < b);
}

/* Text order, the default value (first) before every other. */
static int cmp_field(const char *a, const char *b, const char *dflt)
{
    int da = strcmp(a, dflt) == 0, db = strcmp(b, dflt) == 0;
    return da != db ? db - da : strcmp(a, b);
}

int arena_config_cmp(const struct arena_config *a, const struct arena_config *b)
{
    int c = cmp_i64(a->alignment, b->alignment);
    if (!c) c = cmp_field(a->inplace, b->inplace, "none");
    if (!c) c = cmp_field(a->order, b->order, "stored");
    if (!c) c = cmp_i64(a->order_budget, b->order_budget);
    if (!c) c = cmp_field(a->patch, b->patch, "");
    if (!c) c = cmp_field(a->scratch, b->scratch, "none");
    if (!c) c = cmp_field(a->scratch_policy, b->scratch_policy, "lifetime");
    return c;
}

int arena_config_transforms(const struct arena_config *c)
{
    return strcmp(c->inplace, "none") != 0 || strcmp(c->order, "stored") != 0 || c->patch[0] ||
           (c->scratch[0] && strcmp(c->scratch, "none") != 0);
}

void arena_config_label(const struct arena_config *c, int with_alignment, int with_budget,
                        char *buf, size_t len)
{
    arena_transforms_text_label(c->inplace, c->order, (uint64_t)c->order_budget, c->patch,
                                c->scratch, c->scratch_policy, (uint64_t)c->alignment,
                                with_alignment, with_budget, buf, len);
}

void arena_spec_base(const char *spec, char *buf, size_t len)
{
    const char *at = strstr(spec, "+patch=");
    size_t n = at ? (size_t)(at - spec) : strlen(spec);
    if (!len)
        return;
    if (n >= len)
        n = len - 1;
    memcpy(buf, spec, n);
    buf[n] = '\0';
}

static const char *const group_names[] = {"graph", "family", "suite", "tag"};

const char *arena_group_by_name(enum arena_group_by g)
{
    return (unsigned)g < sizeof group_names / sizeof group_names[0] ? group_names[g] : NULL;
}

int arena_group_by_parse(const char *s, enum arena_group_by *out)
{
    for (size_t i = 0; i < sizeof group_names / sizeof group_names[0]; i++)
        if (strcmp(s, group_names[i]) == 0) {
            *out = (enum arena_group_by)i;
            return ARENA_OK;
        }
    return ARENA_ENOTFOUND;
}

/* The value of key in "k=v,k=v" params, into buf; 0 when absent. */
static int param(const char *params, const char *key, char *buf, size_t len)
{
    size_t k = strlen(key);
    for (const char *p = params; *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n > k && strncmp(p, key, k) == 0 && p[k] == '=') {
            snprintf(buf, len, "%.*s", (int)(n - k - 1), p + k + 1);
            return 1;
        }
        p += n + (e ? 1 : 0);
    }
    return 0;
}

/* Whether the key `key` is written in the spec text (not a default). */
static int written(const char *text, const char *key)
{
    const char *colon = strchr(text, ':');
    if (!colon)
        return 0;
    char buf[64];
    return param(colon + 1, key, buf, sizeof buf);
}

/* One spec (no sweep) against a base. A path also names the same file
 * stored under a longer path ("models/m.tflite" names
 * "/data/models/m.tflite"). */
static int spec_matches(const char *item, const char *base)
{
    if (strcmp(item, base) == 0)
        return 1;
    size_t li = strlen(item), lb = strlen(base);
    if (strchr(item, '/') && lb > li && base[lb - li - 1] == '/' &&
        strcmp(base + lb - li, item) == 0)
        return 1;
    struct arena_spec a, b;
    char err[8];
    if (arena_spec_parse(item, 0, &a, err, sizeof err) != ARENA_OK ||
        arena_spec_parse(base, 0, &b, err, sizeof err) != ARENA_OK || a.family != b.family)
        return 0;
    /* every key the family has: equal, but the seed when the item does
     * not give it */
    for (size_t i = 0; i < a.family->n_keys; i++) {
        const char *key = a.family->keys[i].name;
        if (strcmp(key, "seed") == 0 && !written(item, "seed"))
            continue;
        char va[64] = "", vb[64] = "";
        param(a.params, key, va, sizeof va);
        param(b.params, key, vb, sizeof vb);
        if (strcmp(va, vb) != 0)
            return 0;
    }
    return 1;
}

int arena_spec_matches(const char *item, const char *base)
{
    if (!strchr(item, '|') && !strstr(item, ".."))
        return spec_matches(item, base);
    char **specs = NULL, err[8];
    size_t n = 0;
    int hit = 0;
    if (arena_sweep_expand(item, &specs, &n, err, sizeof err) == ARENA_OK)
        for (size_t i = 0; i < n && !hit; i++)
            hit = spec_matches(specs[i], base);
    for (size_t i = 0; i < n; i++)
        free(specs[i]);
    free(specs);
    return hit;
}

static int in_suite(const struct arena_suite_items *s, const char *base)
{
    for (size_t i = 0; i < s->n; i++)
        if (arena_spec_matches(s->items[i], base))
            return 1;
    return 0;
}

/* Whether x is in list[0, n); an empty list holds everything. */
static int listed(const char *const *list, size_t n, const char *x)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], x) == 0)
            return 1;
    return n == 0;
}

int arena_select_graph(const struct arena_select *s, const char *base, const char *family)
{
    if (!s)
        return 1;
    if (s->n_graphs) {
        int hit = 0;
        for (size_t i = 0; i < s->n_graphs && !hit; i++) {
            const char *g = s->graphs[i];
            hit = strcmp(g, base) == 0 || strcmp(g, family) == 0 ||
                  strncmp(base, g, strlen(g)) == 0 || arena_spec_matches(g, base);
        }
        if (!hit)
            return 0;
    }
    if (!listed(s->families, s->n_families, family))
        return 0;
    if (s->n_suites) {
        int hit = 0;
        for (size_t i = 0; i < s->n_suites && !hit; i++)
            hit = in_suite(&s->suites[i], base);
        if (!hit)
            return 0;
    }
    return 1;
}

int arena_planner_label_is(const char *label, const char *name)
{
    return arena_planner_spec_names(label, name, strlen(name));
}

int arena_select_planner(const struct arena_select *s, const char *planner)
{
    if (!s || s->n_planners == 0)
        return 1;
    for (size_t i = 0; i < s->n_planners; i++)
        if (arena_planner_label_is(planner, s->planners[i]))
            return 1;
    return 0;
}

int arena_select_tag(const struct arena_select *s, const char *tag)
{
    return !s || listed(s->tags, s->n_tags, tag);
}

int arena_select_config(const struct arena_select *s, const struct arena_config *c)
{
    if (!s)
        return 1;
    if (s->inplace && strcmp(s->inplace, c->inplace) != 0)
        return 0;
    if (s->order && strcmp(s->order, c->order) != 0)
        return 0;
    if (s->patch && strcmp(strcmp(s->patch, "none") == 0 ? "" : s->patch, c->patch) != 0)
        return 0;
    return !s->alignment || s->alignment == c->alignment;
}

static int push(char ***keys, size_t *n, const char *text, size_t len)
{
    char **grown = realloc(*keys, (*n + 1) * sizeof *grown);
    if (!grown)
        return ARENA_ENOMEM;
    *keys = grown;
    char *k = malloc(len + 1);
    if (!k)
        return ARENA_ENOMEM;
    memcpy(k, text, len);
    k[len] = '\0';
    grown[(*n)++] = k;
    return ARENA_OK;
}

/* "family:params" without the seed; the base itself for a file (empty
 * params). */
static int graph_key(const char *base, const char *family, const char *params, char ***keys,
                     size_t *n)
{
    if (!params[0])
        return push(keys, n, base, strlen(base));
    size_t cap = strlen(family) + strlen(params) + 2, used;
    char *g = malloc(cap);
    if (!g)
        return ARENA_ENOMEM;
    used = (size_t)snprintf(g, cap, "%s:", family);
    size_t head = used;
    for (const char *p = params; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (!(len >= 5 && strncmp(p, "seed=", 5) == 0)) {
            if (used > head)
                g[used++] = ',';
            memcpy(g + used, p, len);
            used += len;
        }
        p += len + (e ? 1 : 0);
    }
    if (used == head)
        used--; /* only a seed: the family alone */
    int rc = push(keys, n, g, used);
    free(g);
    return rc;
}

int arena_select_groups(const struct arena_select *s, const char *base, const char *family,
                        const char *params, const char *tag, char ***keys, size_t *n)
{
    switch (s ? s->group_by : ARENA_GROUP_GRAPH) {
    case ARENA_GROUP_FAMILY:
        return push(keys, n, family, strlen(family));
    case ARENA_GROUP_TAG:
        return tag[0] ? push(keys, n, tag, strlen(tag)) : push(keys, n, "(untagged)", 10);
    case ARENA_GROUP_SUITE:
        for (size_t i = 0; i < s->n_group_suites; i++)
            if (in_suite(&s->group_suites[i], base)) {
                int rc = push(keys, n, s->group_suites[i].name, strlen(s->group_suites[i].name));
                if (rc)
                    return rc;
            }
        return ARENA_OK;
    default:
        return graph_key(base, family, params, keys, n);
    }
}
