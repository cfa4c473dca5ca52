/* spec.c — the family registry and the one spec syntax for every family:
 *
 *     family[:key=value[,key=value...]]
 *
 * Keys may come in any order and each at most once; keys not given take the
 * family's defaults (the `seed` key: the caller's seed). The canonical form
 * lists every key in the family's order with its value normalised (integers
 * in decimal, numbers in the shortest form that reads back exactly, choices
 * by name), so two spellings of the same graph have one canonical text. */
#include <errno.h>
#include <math.h>
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

static void format_real(double r, char *buf, size_t cap)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, cap, "%.*g", prec, r);
        if (strtod(buf, NULL) == r)
            return;
    }
}

static void format_value(const struct arena_family_key *k, const struct arena_key_value *v,
                         char *buf, size_t cap)
{
    switch (k->type) {
    case ARENA_KEY_UINT: snprintf(buf, cap, "%llu", (unsigned long long)v->u); break;
    case ARENA_KEY_REAL: format_real(v->r, buf, cap); break;
    case ARENA_KEY_CHOICE: snprintf(buf, cap, "%s", k->choices[v->choice]); break;
    }
}

/* Decimal as the README promises: digits with at most one '.', then an
 * optional exponent (e, sign, digits). No sign, hex float, inf or nan, which
 * strtod would take. */
static int is_decimal(const char *s)
{
    size_t digits = 0;
    for (; *s >= '0' && *s <= '9'; s++)
        digits++;
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++)
            digits++;
    if (digits == 0)
        return 0;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (*s < '0' || *s > '9')
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    return *s == '\0';
}

static int parse_value(const struct arena_family *f, const struct arena_family_key *k,
                       const char *s, size_t len, struct arena_key_value *v, char *err,
                       size_t errlen)
{
    char text[64];
    if (len == 0)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s' has an empty value", f->info.name,
                   k->name);
    if (len >= sizeof text)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s': value too long", f->info.name,
                   k->name);
    memcpy(text, s, len);
    text[len] = '\0';
    if (k->type == ARENA_KEY_CHOICE) {
        for (size_t i = 0; k->choices[i]; i++)
            if (strcmp(k->choices[i], text) == 0) {
                v->choice = i;
                return ARENA_OK;
            }
        char list[256] = "";
        for (size_t i = 0; k->choices[i]; i++)
            append(list, sizeof list, "%s%s", i ? ", " : "", k->choices[i]);
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s': '%s' is not one of %s",
                   f->info.name, k->name, text, list);
    }
    if (k->type == ARENA_KEY_UINT) {
        for (size_t i = 0; i < len; i++)
            if (text[i] < '0' || text[i] > '9')
                return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                           "%s: key '%s': '%s' is not a non-negative integer", f->info.name,
                           k->name, text);
        errno = 0;
        unsigned long long u = strtoull(text, NULL, 10);
        if (errno == ERANGE || u < k->min || u > k->max)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s': %s is outside %llu..%llu",
                       f->info.name, k->name, text, (unsigned long long)k->min,
                       (unsigned long long)k->max);
        v->u = u;
        return ARENA_OK;
    }
    if (!is_decimal(text))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: key '%s': '%s' is not a decimal number", f->info.name, k->name,
                            text);
    char lo[32], hi[32];
    format_real(k->rmin, lo, sizeof lo);
    format_real(k->rmax, hi, sizeof hi);
    errno = 0;
    double r = strtod(text, NULL);
    if (errno == ERANGE || !isfinite(r)) /* subnormal, or past DBL_MAX */
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: key '%s': %s is out of range (%s a double); valid %s..%s",
                            f->info.name, k->name, text,
                            isfinite(r) ? "too close to 0 for" : "too large for", lo, hi);
    if (r < k->rmin || r > k->rmax)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s': %s is outside %s..%s", f->info.name,
                   k->name, text, lo, hi);
    v->r = r;
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
    int given[ARENA_FAMILY_MAX_KEYS] = {0};
    struct arena_key_value v[ARENA_FAMILY_MAX_KEYS];
    memset(v, 0, sizeof v);
    const char *p = colon ? colon + 1 : text + flen;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (!eq)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: '%.*s' is not key=value", f->info.name,
                       (int)(len > 64 ? 64 : len), p);
        size_t klen = (size_t)(eq - p);
        size_t ki = 0;
        while (ki < f->n_keys &&
               !(strlen(f->keys[ki].name) == klen && memcmp(f->keys[ki].name, p, klen) == 0))
            ki++;
        if (ki == f->n_keys) {
            char list[256] = "";
            for (size_t i = 0; i < f->n_keys; i++)
                append(list, sizeof list, "%s%s", i ? ", " : "", f->keys[i].name);
            return arena_errorf(err, errlen, 0, ARENA_ENOTFOUND, "%s: unknown key '%.*s' (valid: %s)",
                       f->info.name, (int)(klen > 64 ? 64 : klen), p, list);
        }
        if (given[ki])
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s' given twice", f->info.name,
                       f->keys[ki].name);
        int rc = parse_value(f, &f->keys[ki], eq + 1, len - klen - 1, &v[ki], err, errlen);
        if (rc)
            return rc;
        given[ki] = 1;
        p = end ? end + 1 : p + len;
        if (end && !*p)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: trailing ',' in spec", f->info.name);
    }
    for (size_t i = 0; i < f->n_keys; i++) {
        if (given[i])
            continue;
        if (!f->keys[i].def) {
            v[i].u = seed;
            continue;
        }
        char dummy[8];
        int rc = parse_value(f, &f->keys[i], f->keys[i].def, strlen(f->keys[i].def), &v[i],
                             dummy, sizeof dummy);
        if (rc)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: bad default for key '%s'", f->info.name,
                       f->keys[i].name);
    }
    for (size_t i = 0; i < f->n_keys; i++) {
        const char *lo_name = f->keys[i].not_below;
        if (!lo_name)
            continue;
        size_t lo = 0;
        while (lo < f->n_keys && strcmp(f->keys[lo].name, lo_name) != 0)
            lo++;
        if (lo < f->n_keys && v[i].u < v[lo].u)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: %s %llu exceeds %s %llu", f->info.name,
                       lo_name, (unsigned long long)v[lo].u, f->keys[i].name,
                       (unsigned long long)v[i].u);
    }
    out->family = f;
    memcpy(out->values, v, sizeof v);
    for (size_t i = 0; i < f->n_keys; i++) {
        char val[64];
        format_value(&f->keys[i], &v[i], val, sizeof val);
        append(out->params, sizeof out->params, "%s%s=%s", i ? "," : "", f->keys[i].name, val);
    }
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
