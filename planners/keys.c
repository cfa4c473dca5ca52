/* keys.c — the key=value parser and canonical formatter (keys.h). */
#include "planners/keys.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planners/status.h"

/* Appends to buf (NUL-terminated, capacity cap); truncation is harmless. */
static void append(char *buf, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
}

static void format_real(double r, char *buf, size_t cap)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, cap, "%.*g", prec, r);
        if (strtod(buf, NULL) == r) return;
    }
}

size_t arena_keys_find(const struct arena_key *keys, size_t n, const char *name, size_t len)
{
    size_t i = 0;
    while (i < n && !(strlen(keys[i].name) == len && memcmp(keys[i].name, name, len) == 0)) i++;
    return i;
}

void arena_keys_names(const struct arena_key *keys, size_t n, char *buf, size_t cap)
{
    if (cap) buf[0] = '\0';
    for (size_t i = 0; i < n; i++) append(buf, cap, "%s%s", i ? ", " : "", keys[i].name);
}

static void choice_list(const struct arena_key *k, const char *sep, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (size_t i = 0; k->choices && k->choices[i]; i++)
        append(buf, cap, "%s%s", i ? sep : "", k->choices[i]);
}

void arena_key_format_value(const struct arena_key *k, const struct arena_key_value *v, char *buf,
                            size_t cap)
{
    switch (k->kind) {
    case ARENA_KEY_UINT: snprintf(buf, cap, "%llu", (unsigned long long)v->u); break;
    case ARENA_KEY_REAL: format_real(v->r, buf, cap); break;
    case ARENA_KEY_CHOICE: snprintf(buf, cap, "%s", k->choices[v->choice]); break;
    case ARENA_KEY_SET:
        buf[0] = '\0';
        for (size_t i = 0; k->choices[i]; i++)
            if (v->choice >> i & 1) append(buf, cap, "%s%s", buf[0] ? "+" : "", k->choices[i]);
        if (!buf[0]) snprintf(buf, cap, "none");
        break;
    }
}

/* Decimal as the README promises: digits with at most one '.', then an
 * optional exponent (e, sign, digits). No sign, hex float, inf or nan, which
 * strtod would take. */
static int is_decimal(const char *s)
{
    size_t digits = 0;
    for (; *s >= '0' && *s <= '9'; s++) digits++;
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++) digits++;
    if (digits == 0) return 0;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        if (*s < '0' || *s > '9') return 0;
        while (*s >= '0' && *s <= '9') s++;
    }
    return *s == '\0';
}

static int parse_choice(const char *owner, const struct arena_key *k, const char *text,
                        struct arena_key_value *v, char *err, size_t errlen)
{
    for (size_t i = 0; k->choices[i]; i++)
        if (strcmp(k->choices[i], text) == 0) {
            v->choice = i;
            return ARENA_OK;
        }
    char list[256];
    choice_list(k, ", ", list, sizeof list);
    return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s': '%s' is not one of %s", owner,
                        k->name, text, list);
}

/* "a+b+c" (or "none") into a bit set over the choices. */
static int parse_set(const char *owner, const struct arena_key *k, const char *text,
                     struct arena_key_value *v, char *err, size_t errlen)
{
    v->choice = 0;
    if (strcmp(text, "none") == 0) return ARENA_OK;
    for (const char *p = text;;) {
        size_t len = strcspn(p, "+");
        size_t i = 0;
        while (k->choices[i] && !(strlen(k->choices[i]) == len && memcmp(k->choices[i], p, len) == 0))
            i++;
        if (!k->choices[i]) {
            char list[256];
            choice_list(k, ", ", list, sizeof list);
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "%s: key '%s': '%.*s' is not one of %s (join names with '+';"
                                " none for the empty set)",
                                owner, k->name, (int)len, p, list);
        }
        if (v->choice >> i & 1)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s': '%s' named twice",
                                owner, k->name, k->choices[i]);
        v->choice |= (uint64_t)1 << i;
        if (!p[len]) return ARENA_OK;
        p += len + 1;
    }
}

static int parse_uint(const char *owner, const struct arena_key *k, const char *text, size_t len,
                      struct arena_key_value *v, char *err, size_t errlen)
{
    for (size_t i = 0; i < len; i++)
        if (text[i] < '0' || text[i] > '9')
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "%s: key '%s': '%s' is not a non-negative integer", owner, k->name,
                                text);
    errno = 0;
    unsigned long long u = strtoull(text, NULL, 10);
    if (errno == ERANGE || u < k->min || u > k->max)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s': %s is outside %llu..%llu",
                            owner, k->name, text, (unsigned long long)k->min,
                            (unsigned long long)k->max);
    v->u = u;
    return ARENA_OK;
}

static int parse_real(const char *owner, const struct arena_key *k, const char *text,
                      struct arena_key_value *v, char *err, size_t errlen)
{
    if (!is_decimal(text))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: key '%s': '%s' is not a decimal number", owner, k->name, text);
    char lo[32], hi[32];
    format_real(k->rmin, lo, sizeof lo);
    format_real(k->rmax, hi, sizeof hi);
    errno = 0;
    double r = strtod(text, NULL);
    if (errno == ERANGE || !isfinite(r)) /* subnormal, or past DBL_MAX */
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: key '%s': %s is out of range (%s a double); valid %s..%s", owner,
                            k->name, text, isfinite(r) ? "too close to 0 for" : "too large for",
                            lo, hi);
    if (r < k->rmin || r > k->rmax)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s': %s is outside %s..%s",
                            owner, k->name, text, lo, hi);
    v->r = r;
    return ARENA_OK;
}

int arena_key_parse_value(const char *owner, const struct arena_key *k, const char *s, size_t len,
                          struct arena_key_value *v, char *err, size_t errlen)
{
    char text[256];
    if (len == 0)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s' has an empty value", owner,
                            k->name);
    if (len >= (k->kind == ARENA_KEY_SET ? sizeof text : 64))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s': value too long", owner,
                            k->name);
    memcpy(text, s, len);
    text[len] = '\0';
    switch (k->kind) {
    case ARENA_KEY_CHOICE: return parse_choice(owner, k, text, v, err, errlen);
    case ARENA_KEY_SET: return parse_set(owner, k, text, v, err, errlen);
    case ARENA_KEY_UINT: return parse_uint(owner, k, text, len, v, err, errlen);
    case ARENA_KEY_REAL: return parse_real(owner, k, text, v, err, errlen);
    }
    return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s' has an unknown kind", owner,
                        k->name);
}

int arena_keys_defaults(const char *owner, const struct arena_key *keys, size_t n, uint64_t seed,
                        struct arena_key_value *v, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        memset(&v[i], 0, sizeof v[i]);
        if (!keys[i].def) {
            v[i].u = seed;
            continue;
        }
        char dummy[8];
        if (arena_key_parse_value(owner, &keys[i], keys[i].def, strlen(keys[i].def), &v[i], dummy,
                                  sizeof dummy))
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: bad default for key '%s'",
                                owner, keys[i].name);
    }
    return ARENA_OK;
}

int arena_keys_parse(const char *owner, const struct arena_key *keys, size_t n, const char *text,
                     size_t len, uint64_t seed, struct arena_key_value *v, char *err,
                     size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    uint64_t given = 0; /* bit i: key i was given (tables hold at most 64 keys here) */
    if (n > 64)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: more than 64 keys", owner);
    int rc = arena_keys_defaults(owner, keys, n, seed, v, err, errlen);
    const char *p = text, *stop = text + len;
    while (rc == ARENA_OK && p < stop) {
        const char *end = memchr(p, ',', (size_t)(stop - p));
        size_t plen = end ? (size_t)(end - p) : (size_t)(stop - p);
        const char *eq = memchr(p, '=', plen);
        if (!eq)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: '%.*s' is not key=value", owner,
                                (int)(plen > 64 ? 64 : plen), p);
        size_t klen = (size_t)(eq - p);
        size_t ki = arena_keys_find(keys, n, p, klen);
        if (ki == n) {
            char list[256];
            arena_keys_names(keys, n, list, sizeof list);
            return arena_errorf(err, errlen, 0, ARENA_ENOTFOUND,
                                "%s: unknown key '%.*s' (valid: %s)", owner,
                                (int)(klen > 64 ? 64 : klen), p, n ? list : "none, it has no keys");
        }
        if (given >> ki & 1)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s' given twice", owner,
                                keys[ki].name);
        rc = arena_key_parse_value(owner, &keys[ki], eq + 1, plen - klen - 1, &v[ki], err, errlen);
        given |= (uint64_t)1 << ki;
        p = end ? end + 1 : stop;
        if (rc == ARENA_OK && end && p == stop)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: trailing ',' in spec", owner);
    }
    return rc;
}

int arena_keys_format(const struct arena_key *keys, size_t n, const struct arena_key_value *v,
                      char *buf, size_t cap)
{
    if (!cap) return ARENA_EOVERFLOW;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        char val[512];
        arena_key_format_value(&keys[i], &v[i], val, sizeof val);
        size_t used = strlen(buf);
        int w = snprintf(buf + used, cap - used, "%s%s=%s", i ? "," : "", keys[i].name, val);
        if (w < 0 || (size_t)w >= cap - used) return ARENA_EOVERFLOW;
    }
    return ARENA_OK;
}

void arena_key_describe(const struct arena_key *k, char *buf, size_t cap)
{
    char list[400], lo[32], hi[32];
    switch (k->kind) {
    case ARENA_KEY_UINT:
        snprintf(buf, cap, "%llu..%llu", (unsigned long long)k->min, (unsigned long long)k->max);
        break;
    case ARENA_KEY_REAL:
        format_real(k->rmin, lo, sizeof lo);
        format_real(k->rmax, hi, sizeof hi);
        snprintf(buf, cap, "%s..%s", lo, hi);
        break;
    case ARENA_KEY_CHOICE:
        choice_list(k, ", ", list, sizeof list);
        snprintf(buf, cap, "one of %s", list);
        break;
    case ARENA_KEY_SET:
        choice_list(k, ", ", list, sizeof list);
        snprintf(buf, cap, "a set of %s (joined by +; none: empty)", list);
        break;
    default: snprintf(buf, cap, "?"); break;
    }
}

static int name_ok(const char *s, int first_letter)
{
    if (!s || !*s || strlen(s) > 32) return 0;
    if (first_letter && !(*s >= 'a' && *s <= 'z')) return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_' ||
              (!first_letter && *s == '-')))
            return 0;
    return 1;
}

static int check_key(const char *owner, const struct arena_key *keys, size_t i, char *err,
                     size_t errlen)
{
    const struct arena_key *k = &keys[i];
    if (!name_ok(k->name, 1))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: key %zu: name '%.40s' is not [a-z][a-z0-9_]* of at most 32 bytes",
                            owner, i, k->name ? k->name : "(null)");
    if (arena_keys_find(keys, i, k->name, strlen(k->name)) < i)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s' is in the table twice",
                            owner, k->name);
    if ((unsigned)k->kind > ARENA_KEY_SET)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s': unknown kind %u", owner,
                            k->name, (unsigned)k->kind);
    if (k->kind == ARENA_KEY_UINT && k->min > k->max)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s': min above max", owner,
                            k->name);
    if (k->kind == ARENA_KEY_REAL && !(isfinite(k->rmin) && isfinite(k->rmax) && k->rmin <= k->rmax))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: key '%s': rmin..rmax is not a finite range", owner, k->name);
    if (k->kind == ARENA_KEY_CHOICE || k->kind == ARENA_KEY_SET) {
        size_t c = 0;
        for (; k->choices && k->choices[c]; c++) {
            if (!name_ok(k->choices[c], 0) || (k->kind == ARENA_KEY_SET && strcmp(k->choices[c], "none") == 0))
                return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                    "%s: key '%s': choice '%.40s' is not a name of [a-z0-9_-]%s",
                                    owner, k->name, k->choices[c],
                                    k->kind == ARENA_KEY_SET ? " other than none" : "");
            for (size_t d = 0; d < c; d++)
                if (strcmp(k->choices[d], k->choices[c]) == 0)
                    return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                        "%s: key '%s': choice '%s' is listed twice", owner, k->name,
                                        k->choices[c]);
        }
        if (c == 0 || (k->kind == ARENA_KEY_SET && c > 64))
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: key '%s': %s choices", owner,
                                k->name, c ? "more than 64" : "no");
    }
    if (!k->def && !(k->kind == ARENA_KEY_UINT && strcmp(k->name, "seed") == 0))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: key '%s' has no default (only a UINT key named seed may go"
                            " without: it takes --seed)",
                            owner, k->name);
    struct arena_key_value v;
    char why[200];
    if (k->def && arena_key_parse_value(owner, k, k->def, strlen(k->def), &v, why, sizeof why))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "bad default: %s", why);
    return ARENA_OK;
}

int arena_keys_check(const char *owner, const struct arena_key *keys, size_t n, char *err,
                     size_t errlen)
{
    if (n > ARENA_PLANNER_MAX_KEYS)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: %zu keys, more than %u", owner, n,
                            ARENA_PLANNER_MAX_KEYS);
    if (n && !keys)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: n_keys is %zu but keys is NULL",
                            owner, n);
    for (size_t i = 0; i < n; i++) {
        int rc = check_key(owner, keys, i, err, errlen);
        if (rc) return rc;
    }
    return ARENA_OK;
}
