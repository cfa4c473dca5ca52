/* spec.c — the family registry and the one spec syntax for every family:
 *
 *     family[:key=value[,key=value...]]
 *
 * Keys may come in any order and each at most once; keys not given take the
 * family's defaults (the `seed` key: the caller's seed). The canonical form
 * lists every key in the family's order with its value normalised (integers
 * in decimal, numbers in the shortest form that reads back exactly, choices
 * by name), so two spellings of the same graph have one canonical text.
 * The key=value part is the parser planners' specs share (planners/keys.h);
 * what is a family's own is here: the registry and the floors (max not
 * below min). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/graph_internal.h"
#include "graphs/family.h"

static const struct arena_family *const families[] = {
    &arena_family_mobilenetv2, &arena_family_chain,      &arena_family_residual,
    &arena_family_unet,        &arena_family_transformer, &arena_family_random_dag,
    &arena_family_random_intervals, &arena_family_packed, &arena_family_slack,
    &arena_family_randwire,   &arena_family_nasnet,
    /* MLPerf Tiny's networks */
    &arena_family_ds_cnn, &arena_family_mobilenetv1, &arena_family_resnet8,
    &arena_family_fc_autoencoder, &arena_family_ds_tcn,
};
#define N_FAMILIES (sizeof families / sizeof families[0])

size_t arena_family_count(void)
{
    return N_FAMILIES;
}

const struct arena_family_info *arena_family_at(size_t i)
{
    return i < N_FAMILIES ? &families[i]->info : NULL;
}

const struct arena_family *arena_family_get(size_t i)
{
    return i < N_FAMILIES ? families[i] : NULL;
}

const struct arena_family *arena_family_find(const char *name, size_t len)
{
    for (size_t i = 0; i < N_FAMILIES; i++)
        if (strlen(families[i]->info.name) == len && memcmp(families[i]->info.name, name, len) == 0)
            return families[i];
    return NULL;
}

/* Appends to buf (NUL-terminated, capacity cap); truncation is harmless. */
static void append(char *buf, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
}

/* A family's floors: a key that must not be below another. */
static int check_floors(const struct arena_family *f, const struct arena_key_value *v, char *err,
                        size_t errlen)
{
    for (const struct arena_key_floor *fl = f->floors; fl && fl->key; fl++) {
        size_t k = arena_keys_find(f->keys, f->n_keys, fl->key, strlen(fl->key));
        size_t lo = arena_keys_find(f->keys, f->n_keys, fl->floor, strlen(fl->floor));
        if (k < f->n_keys && lo < f->n_keys && v[k].u < v[lo].u)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: %s %llu exceeds %s %llu",
                                f->info.name, fl->floor, (unsigned long long)v[lo].u, fl->key,
                                (unsigned long long)v[k].u);
    }
    return ARENA_OK;
}

int arena_spec_parse(const char *text, uint64_t seed, struct arena_spec *out, char *err,
                     size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (err && errlen)
        err[0] = '\0';
    const char *colon = strchr(text, ':');
    size_t flen = colon ? (size_t)(colon - text) : strlen(text);
    const struct arena_family *f = arena_family_find(text, flen);
    if (!f) {
        char list[256] = "";
        for (size_t i = 0; i < N_FAMILIES; i++)
            append(list, sizeof list, "%s%s", i ? ", " : "", families[i]->info.name);
        return arena_errorf(err, errlen, 0, ARENA_ENOTFOUND, "unknown family '%.*s' (valid: %s)",
                   (int)(flen > 64 ? 64 : flen), text, list);
    }
    struct arena_key_value v[ARENA_FAMILY_MAX_KEYS];
    memset(v, 0, sizeof v);
    const char *p = colon ? colon + 1 : text + flen;
    int rc = arena_keys_parse(f->info.name, f->keys, f->n_keys, p, strlen(p), seed, v, err, errlen);
    if (!rc)
        rc = check_floors(f, v, err, errlen);
    if (rc)
        return rc;
    out->family = f;
    memcpy(out->values, v, sizeof v);
    if (arena_keys_format(f->keys, f->n_keys, v, out->params, sizeof out->params))
        return arena_errorf(err, errlen, 0, ARENA_EOVERFLOW, "%s: canonical spec too long",
                            f->info.name);
    return ARENA_OK;
}

int arena_spec_graph(const struct arena_spec *s, struct arena_graph *g, char *err, size_t errlen)
{
    arena_graph_init(g);
    if (!s->family->build_graph)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s builds a problem, not a graph",
                   s->family->info.name);
    int rc = s->family->build_graph(s->values, g, err, errlen);
    if (!rc && g->status)
        rc = arena_errorf(err, errlen, 0, g->status, "%s: building the graph failed: %s",
                 s->family->info.name, arena_strerror(g->status));
    if (rc)
        arena_graph_free(g);
    return rc;
}

int arena_spec_build(const struct arena_spec *s, uint64_t alignment, struct arena_problem *p,
                     size_t *ops, char ***names, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    *ops = 0;
    if (names)
        *names = NULL;
    if (s->family->build_problem)
        return arena_spec_problem(s, alignment, p, err, errlen);
    struct arena_graph g;
    int rc = arena_spec_graph(s, &g, err, errlen);
    if (rc)
        return rc;
    char why[256];
    rc = arena_graph_problem(&g, alignment, p, NULL, why, sizeof why);
    if (rc)
        arena_errorf(err, errlen, 0, rc, "%s: %s", s->family->info.name, why);
    else
        *ops = g.n_ops;
    if (!rc && names && !(*names = arena_graph_names(&g))) {
        free((void *)p->tensors);
        memset(p, 0, sizeof *p);
        *ops = 0;
        rc = arena_errorf(err, errlen, 0, ARENA_ENOMEM, "%s: out of memory",
                          s->family->info.name);
    }
    arena_graph_free(&g);
    return rc;
}

int arena_spec_problem(const struct arena_spec *s, uint64_t alignment, struct arena_problem *p,
                       char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    if (!s->family->build_problem)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s builds a graph, not a problem",
                            s->family->info.name);
    int rc = s->family->build_problem(s->values, alignment, p, err, errlen);
    uint64_t sum = 0;
    for (size_t i = 0; !rc && i < p->n; i++) {
        if (p->tensors[i].size > UINT64_MAX - sum)
            rc = arena_errorf(err, errlen, 0, ARENA_EOVERFLOW,
                              "%s: tensor %zu takes the sum of the sizes past 2^64 - 1 bytes",
                              s->family->info.name, i);
        sum += p->tensors[i].size;
    }
    if (rc) {
        free((void *)p->tensors);
        memset(p, 0, sizeof *p);
    }
    return rc;
}
