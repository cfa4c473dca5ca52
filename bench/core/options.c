/* options.c — the one reader and printer of every bench command's options
 * (options.h): a row says what its option takes, and this file parses,
 * checks and shows every row the same way. */
#include "bench/core/options.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "planners/status.h"

/* ---- values into fields */

static void put_uint(void *base, const struct arena_opt *o, uint64_t v)
{
    /* a row's bounds fit its field (checked where rows are written: here) */
    assert(o->size == 8 || v < ((uint64_t)1 << (8 * o->size)));
    char *at = (char *)base + o->off;
    switch (o->size) {
    case 1: { uint8_t x = (uint8_t)v; memcpy(at, &x, 1); break; }
    case 2: { uint16_t x = (uint16_t)v; memcpy(at, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(at, &x, 4); break; }
    default: assert(o->size == 8); memcpy(at, &v, 8); break;
    }
}

static void put_ptr(void *base, const struct arena_opt *o, const char *v)
{
    assert(o->size == sizeof v);
    memcpy((char *)base + o->off, &v, sizeof v);
}

/* A decimal integer in min..max. Above ARENA_BENCH_INT_MAX the message says
 * why (the database stores signed 64-bit integers). */
static int read_uint(const struct arena_opt *o, const char *v, uint64_t *out, char *err,
                     size_t errlen)
{
    char *end = NULL;
    errno = 0;
    if (!v[0] || v[0] < '0' || v[0] > '9')
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: '%s' is not a non-negative integer", o->name, v);
    unsigned long long x = strtoull(v, &end, 10);
    if (*end)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: '%s' is not a non-negative integer", o->name, v);
    if ((errno == ERANGE || x > o->max) && o->max == ARENA_BENCH_INT_MAX)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: '%s' is above 2^63-1, the largest integer the results"
                            " database stores", o->name, v);
    if (errno == ERANGE || x < o->min || x > o->max) {
        if (o->max == ARENA_BENCH_INT_MAX)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: '%s' is not at least %llu",
                                o->name, v, (unsigned long long)o->min);
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: '%s' is not in %llu..%llu",
                            o->name, v, (unsigned long long)o->min,
                            (unsigned long long)o->max);
    }
    *out = (uint64_t)x;
    return ARENA_OK;
}

/* BYTES with an optional unit B, KiB, MiB or GiB (1 KiB = 1024 B). */
static int read_bytes(const struct arena_opt *o, const char *v, uint64_t *out, char *err,
                      size_t errlen)
{
    static const struct { const char *unit; unsigned shift; } units[] = {
        {"", 0}, {"B", 0}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}};
    size_t digits = 0;
    while (v[digits] >= '0' && v[digits] <= '9') digits++;
    size_t u = 0, count = sizeof units / sizeof units[0];
    while (u < count && strcmp(v + digits, units[u].unit) != 0) u++;
    if (digits == 0 || digits > 19 || u == count)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: '%s' is not a byte count (digits, then B, KiB, MiB or GiB)",
                            o->name, v);
    uint64_t x = strtoull(v, NULL, 10);
    if (x < o->min)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: '%s' is not at least %llu byte%s",
                            o->name, v, (unsigned long long)o->min, o->min == 1 ? "" : "s");
    if (x > (o->max >> units[u].shift) || (x << units[u].shift) > o->max)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: '%s' is above %s bytes%s",
                            o->name, v, o->max == ARENA_BENCH_INT_MAX ? "2^63-1" : "the limit",
                            o->max == ARENA_BENCH_INT_MAX
                                ? ", the largest integer the results database stores"
                                : "");
    *out = x << units[u].shift;
    return ARENA_OK;
}

int arena_opt_read(void *base, const struct arena_opt *o, const char *v, char *err,
                   size_t errlen)
{
    uint64_t u = 0;
    int rc = ARENA_OK;
    switch (o->kind) {
    case ARENA_OPT_FLAG:
        put_uint(base, o, 1);
        return ARENA_OK;
    case ARENA_OPT_UINT:
        if ((rc = read_uint(o, v, &u, err, errlen)) == ARENA_OK) put_uint(base, o, u);
        return rc;
    case ARENA_OPT_POW2: {
        char *end = NULL;
        errno = 0;
        unsigned long long x = v[0] >= '0' && v[0] <= '9' ? strtoull(v, &end, 10) : 0;
        if (!end || *end || errno || x < o->min || x > o->max || (x & (x - 1)) != 0) {
            char what[120];
            arena_opt_value_text(o, what, sizeof what); /* "power of two from 1 to 2^30" */
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: '%s' is not a %s", o->name,
                                v, what);
        }
        put_uint(base, o, x);
        return ARENA_OK;
    }
    case ARENA_OPT_BYTES:
        if ((rc = read_bytes(o, v, &u, err, errlen)) == ARENA_OK) put_uint(base, o, u);
        return rc;
    case ARENA_OPT_SECONDS: {
        char *end = NULL;
        errno = 0;
        double s = strtod(v, &end);
        if (!v[0] || *end || errno || !isfinite(s) || s <= 0 || s > (double)o->max)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "%s: '%s' is not a number of seconds in (0, %g]", o->name, v,
                                (double)o->max);
        assert(o->size == sizeof s);
        memcpy((char *)base + o->off, &s, sizeof s);
        return ARENA_OK;
    }
    case ARENA_OPT_CHOICE: {
        size_t i = 0;
        const char *name;
        while ((name = o->name_of(i)) && strcmp(name, v) != 0) i++;
        if (name) {
            put_uint(base, o, i);
            return ARENA_OK;
        }
        char known[256] = "";
        for (i = 0; (name = o->name_of(i)); i++) {
            size_t used = strlen(known);
            snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", name);
        }
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: '%s' is not one of %s", o->name,
                            v, known);
    }
    case ARENA_OPT_TEXT:
        if (!v[0]) {
            const char *what = !o->arg                        ? "value"
                               : strcmp(o->arg, "PATH") == 0 ? "path"
                               : strcmp(o->arg, "DIR") == 0  ? "folder name"
                                                             : "value";
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: empty %s", o->name, what);
        }
        put_ptr(base, o, v);
        return ARENA_OK;
    case ARENA_OPT_CUSTOM:
        return o->parse(base, o, v, err, errlen);
    }
    return ARENA_EINVAL;
}

/* ---- the command line */

static int takes_value(const struct arena_opt *o)
{
    return o->kind != ARENA_OPT_FLAG && (o->arg || o->kind == ARENA_OPT_CHOICE);
}

static int prefix_row(const struct arena_opt *o)
{
    size_t len = strlen(o->name);
    return len && o->name[len - 1] == '*';
}

static int names(const struct arena_opt *o, const char *arg, size_t len)
{
    if (prefix_row(o)) return strncmp(arg, o->name, strlen(o->name) - 1) == 0;
    return (strlen(o->name) == len && strncmp(o->name, arg, len) == 0) ||
           (o->alias && strlen(o->alias) == len && strncmp(o->alias, arg, len) == 0);
}

int arena_opt_parse(int argc, char **argv, int first, const struct arena_opt_table *t,
                    size_t nt, unsigned mask, const char **pos, size_t max_pos, size_t *n_pos,
                    const char *hint, char *err, size_t errlen)
{
    size_t rows = 0;
    for (size_t k = 0; k < nt; k++) rows += t[k].n;
    unsigned char *given = calloc(rows ? rows : 1, 1);
    if (!given) return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
    if (n_pos) *n_pos = 0;
    if (err && errlen) err[0] = '\0';
    int rc = ARENA_OK;
    for (int i = first; i < argc && rc == ARENA_OK; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            free(given);
            return ARENA_OPT_HELP;
        }
        if (arg[0] != '-' || !arg[1]) {
            if (n_pos && *n_pos < max_pos) {
                pos[(*n_pos)++] = arg;
                continue;
            }
            rc = arena_errorf(err, errlen, 0, ARENA_EINVAL, "unexpected argument '%s'%s", arg,
                              hint ? hint : "");
            break;
        }
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const struct arena_opt *o = NULL, *elsewhere = NULL;
        void *base = NULL;
        size_t at = 0, row = 0;
        for (size_t k = 0; k < nt && !o; at += t[k].n, k++)
            for (size_t r = 0; r < t[k].n && !o; r++) {
                if (!names(&t[k].rows[r], arg, len)) continue;
                if (!(t[k].rows[r].in & mask)) {
                    elsewhere = &t[k].rows[r];
                    continue;
                }
                o = &t[k].rows[r];
                base = t[k].base;
                row = at + r;
            }
        if (!o) {
            rc = elsewhere ? arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                          "%.*s does not go with this command (see --help)",
                                          (int)len, arg)
                           : arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                          "unknown option '%s' (see --help)", arg);
            break;
        }
        if (o->gone) {
            rc = arena_errorf(err, errlen, 0, ARENA_EINVAL, "%.*s is gone: %s", (int)len, arg,
                              o->gone);
            break;
        }
        const char *value = NULL;
        if (prefix_row(o)) {
            value = arg;
        } else if (takes_value(o)) {
            if (eq) {
                value = eq + 1;
            } else if (i + 1 < argc) {
                value = argv[++i];
            } else {
                rc = arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s needs a value (see --help)",
                                  o->name);
                break;
            }
            /* "--db --no-db" is a forgotten value, not a file named --no-db. */
            if (strncmp(value, "--", 2) == 0) {
                rc = arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                  "%s: '%s' looks like an option, not a value (for a name"
                                  " that starts with --, write ./%s)",
                                  o->name, value, value);
                break;
            }
        } else if (eq) {
            rc = arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s takes no value", o->name);
            break;
        }
        rc = arena_opt_read(base, o, value, err, errlen);
        given[row] = 1;
        if (rc == ARENA_OK && o->seen) put_uint(base, &(struct arena_opt){.off = o->seen - 1,
                                                                          .size = sizeof(int)}, 1);
    }
    /* The defaults, read as if given. */
    size_t at = 0;
    for (size_t k = 0; k < nt && rc == ARENA_OK; at += t[k].n, k++)
        for (size_t r = 0; r < t[k].n && rc == ARENA_OK; r++)
            if ((t[k].rows[r].in & mask) && !given[at + r] && t[k].rows[r].def)
                rc = arena_opt_read(t[k].base, &t[k].rows[r], t[k].rows[r].def, err, errlen);
    free(given);
    return rc;
}

/* ---- printing */

/* 2^k for a power of two from 2^16, 2^k-1 below one, else digits grouped
 * by thousands. */
static void number(uint64_t v, char *buf, size_t len)
{
    for (unsigned k = 16; k < 64; k++) {
        uint64_t p = (uint64_t)1 << k;
        if (v == p) {
            snprintf(buf, len, "2^%u", k);
            return;
        }
        if (v == p - 1 || (k == 63 && v == ARENA_BENCH_INT_MAX)) {
            snprintf(buf, len, "2^%u-1", k);
            return;
        }
    }
    char digits[32], out[48];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0 && n > 4) out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o] = '\0';
    snprintf(buf, len, "%s", out);
}

static void names_list(const struct arena_opt *o, const char *sep, char *buf, size_t len)
{
    const char *name;
    buf[0] = '\0';
    for (size_t i = 0; (name = o->name_of(i)); i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", i ? sep : "", name);
    }
}

void arena_opt_value_text(const struct arena_opt *o, char *buf, size_t len)
{
    char lo[64], hi[64], list[512];
    number(o->min, lo, sizeof lo);
    number(o->max, hi, sizeof hi);
    buf[0] = '\0';
    switch (o->kind) {
    case ARENA_OPT_FLAG: break;
    case ARENA_OPT_UINT: snprintf(buf, len, "integer %s..%s", lo, hi); break;
    case ARENA_OPT_POW2: snprintf(buf, len, "power of two from %s to %s", lo, hi); break;
    case ARENA_OPT_BYTES:
        snprintf(buf, len, "bytes %s..%s, or with KiB, MiB, GiB (1 KiB = 1024 B)", lo, hi);
        break;
    case ARENA_OPT_SECONDS: snprintf(buf, len, "seconds in (0, %s]", hi); break;
    case ARENA_OPT_CHOICE:
        if (o->arg) {
            names_list(o, ", ", list, sizeof list);
            snprintf(buf, len, "one of %s", list);
        }
        break;
    case ARENA_OPT_TEXT:
    case ARENA_OPT_CUSTOM:
        if (o->name_of) {
            names_list(o, ", ", list, sizeof list);
            snprintf(buf, len, "%s%s%s", o->values ? o->values : "", o->values ? " " : "", list);
        } else if (o->values) {
            snprintf(buf, len, "%s", o->values);
        }
        break;
    }
}

void arena_opt_default_text(const struct arena_opt *o, char *buf, size_t len)
{
    const char *d = o->def ? o->def : o->unset ? o->unset : "";
    size_t digits = strspn(d, "0123456789");
    if (digits && !d[digits] && digits < 20) /* a number, shown as the bounds are */
        number(strtoull(d, NULL, 10), buf, len);
    else
        snprintf(buf, len, "%s", d);
}

/* "--name ARG", a CHOICE without arg as --name a|b|c. */
static void spelling(const struct arena_opt *o, char *buf, size_t len)
{
    if (o->kind == ARENA_OPT_CHOICE && !o->arg) {
        char list[256];
        names_list(o, "|", list, sizeof list);
        snprintf(buf, len, "%s %s", o->name, list);
    } else {
        snprintf(buf, len, "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    }
}

void arena_opt_wrapped(FILE *out, const char *head, int col, const char *text)
{
    enum { WIDTH = 79 };
    int at = fprintf(out, "%s", head);
    if (col && at > col - 1) {
        fputc('\n', out);
        at = 0;
    }
    const char *p = text;
    int fresh = 1;
    while (*p) {
        while (*p == ' ') p++;
        size_t w = strcspn(p, " ");
        if (!w) break;
        if (!fresh && at + 1 + (int)w > WIDTH) {
            fputc('\n', out);
            at = 0;
            fresh = 1;
        }
        if (fresh) {
            at += fprintf(out, "%*s", col - at > 0 ? col - at : 0, "");
            fresh = 0;
        } else {
            fputc(' ', out);
            at++;
        }
        at += fprintf(out, "%.*s", (int)w, p);
        p += w;
    }
    fputc('\n', out);
}

/* The page a docs link points to, without its #anchor. */
static void page_of(const char *see, char *buf, size_t len)
{
    snprintf(buf, len, "%.*s", (int)strcspn(see, "#"), see);
}

void arena_opt_help(FILE *out, const struct arena_opt_table *t, size_t nt, unsigned mask, int old)
{
    for (size_t k = 0; k < nt; k++)
        for (size_t r = 0; r < t[k].n; r++) {
            const struct arena_opt *o = &t[k].rows[r];
            if (!(o->in & mask) || o->gone || !o->now != !old) continue;
            char head[320], name[300], value[700], def[200], page[100], text[3400];
            spelling(o, name, sizeof name);
            snprintf(head, sizeof head, "  %s", name);
            if (old) {
                snprintf(text, sizeof text, "= %s", o->now);
                arena_opt_wrapped(out, head, 22, text);
                continue;
            }
            arena_opt_value_text(o, value, sizeof value);
            arena_opt_default_text(o, def, sizeof def);
            page[0] = '\0';
            if (o->see) page_of(o->see, page, sizeof page);
            snprintf(text, sizeof text, "%s%s%s%s%s%s%s%s%s%s", o->help,
                     value[0] || def[0] || page[0] ? " (" : "", value,
                     value[0] && def[0] ? "; " : "", def[0] ? "default " : "", def,
                     (value[0] || def[0]) && page[0] ? "; " : "", page[0] ? "docs/" : "", page,
                     value[0] || def[0] || page[0] ? ")" : "");
            arena_opt_wrapped(out, head, 22, text);
        }
}

/* Markdown table text: | and * escaped, < as &lt;. */
static void md(FILE *out, const char *s, int code)
{
    for (; *s; s++) {
        if (*s == '|') fputs("\\|", out);
        else if (!code && *s == '*') fputs("\\*", out);
        else if (!code && *s == '<') fputs("&lt;", out);
        else fputc(*s, out);
    }
}

void arena_opt_markdown(FILE *out, const struct arena_opt_table *t, size_t nt, unsigned mask,
                        int old, const char *const *in_names)
{
    if (old)
        fputs("| old spelling | the same as |\n|---|---|\n", out);
    else if (in_names)
        fputs("| option | commands | value | default | meaning |\n|---|---|---|---|---|\n", out);
    else
        fputs("| option | value | default | meaning |\n|---|---|---|---|\n", out);
    for (size_t k = 0; k < nt; k++)
        for (size_t r = 0; r < t[k].n; r++) {
            const struct arena_opt *o = &t[k].rows[r];
            if (!(o->in & mask) || o->gone || !o->now != !old) continue;
            char name[300], value[700], def[200];
            spelling(o, name, sizeof name);
            fputs("| `", out);
            md(out, name, 1);
            fputs("` | ", out);
            if (old) {
                fputc('`', out);
                md(out, o->now, 1);
                fputs("` |\n", out);
                continue;
            }
            if (in_names) {
                const char *sep = "";
                for (unsigned bit = 0; in_names[bit]; bit++)
                    if (o->in & mask & (1u << bit)) {
                        fprintf(out, "%s%s", sep, in_names[bit]);
                        sep = ", ";
                    }
                fputs(" | ", out);
            }
            arena_opt_value_text(o, value, sizeof value);
            arena_opt_default_text(o, def, sizeof def);
            md(out, value, 0);
            fputs(" | ", out);
            md(out, def, 0);
            fputs(" | ", out);
            md(out, o->help, 0);
            if (o->see) fprintf(out, " ([more](%s))", o->see);
            fputs(" |\n", out);
        }
}
