/* csv.c — MiniMalloc CSV in and out (format and time compression in
 * files.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/files.h"
#include "graphs/lines.h"
#include "graphs/names.h"

enum { COL_ID, COL_LOWER, COL_UPPER, COL_SIZE, N_COLS };
static const char *const col_names[N_COLS] = {"id", "lower", "upper", "size"};

#define MAX_FIELDS 64

struct raw {
    uint64_t lower, upper, size;
};

/* Splits s at commas in place; trims blanks. Returns the field count
 * (at most MAX_FIELDS; more are reported as MAX_FIELDS + 1). */
static size_t split(char *s, char **fields)
{
    size_t n = 0;
    for (;;) {
        char *end = strchr(s, ',');
        if (end)
            *end = '\0';
        while (*s == ' ' || *s == '\t')
            s++;
        size_t len = strlen(s);
        while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
            s[--len] = '\0';
        if (n == MAX_FIELDS)
            return MAX_FIELDS + 1;
        fields[n++] = s;
        if (!end)
            return n;
        s = end + 1;
    }
}

static int parse_u64(struct arena_reader *r, const char *field, const char *s, uint64_t *out)
{
    char q[64];
    if (!*s)
        return arena_reader_fail(r, ARENA_EFORMAT, field, "empty, not a number");
    const char *d = s[0] == '+' ? s + 1 : s;
    if (s[0] == '-') {
        int digits = s[1] != '\0';
        for (const char *p = s + 1; *p; p++)
            digits &= *p >= '0' && *p <= '9';
        if (digits)
            return arena_reader_fail(r, ARENA_EFORMAT, field, "%s is negative",
                                     arena_reader_show(s, q, sizeof q));
        return arena_reader_fail(r, ARENA_EFORMAT, field, "'%s' is not a number",
                                 arena_reader_show(s, q, sizeof q));
    }
    if (!*d)
        return arena_reader_fail(r, ARENA_EFORMAT, field, "'%s' is not a number",
                                 arena_reader_show(s, q, sizeof q));
    uint64_t v = 0;
    int over = 0;
    for (const char *p = d; *p; p++) {
        if (*p < '0' || *p > '9')
            return arena_reader_fail(r, ARENA_EFORMAT, field, "'%s' is not a number",
                                     arena_reader_show(s, q, sizeof q));
        unsigned dig = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - dig) / 10)
            over = 1;
        else
            v = v * 10 + dig;
    }
    if (over && strcmp(field, "size") == 0)
        return arena_reader_fail(r, ARENA_EFORMAT, field, "%s is above 2^62",
                                 arena_reader_show(s, q, sizeof q));
    if (over)
        return arena_reader_fail(r, ARENA_EFORMAT, field, "%s does not fit in 64 bits",
                                 arena_reader_show(s, q, sizeof q));
    *out = v;
    return ARENA_OK;
}

static int is_header(char **fields, size_t n)
{
    int seen = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < N_COLS; c++)
            if (strcmp(fields[i], col_names[c]) == 0)
                seen |= 1 << c;
    return seen == (1 << N_COLS) - 1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Index of the largest value <= x in sorted v[0..n) (one exists). */
static size_t floor_index(const uint64_t *v, size_t n, uint64_t x)
{
    size_t lo = 0, hi = n; /* answer in [lo, hi) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

int arena_csv_read_stream(FILE *f, const char *name, uint64_t alignment,
                          struct arena_problem *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    struct arena_reader r = {.name = name, .err = err, .errlen = errlen, .line = 0};
    if (err && errlen)
        err[0] = '\0';
    if (alignment == 0 || (alignment & (alignment - 1)))
        return arena_reader_fail(&r, ARENA_EINVAL, "alignment", "%llu is not a power of two",
                                 (unsigned long long)alignment);
    char *line = malloc(ARENA_FILE_LINE_MAX + 1);
    struct arena_lines *lr = malloc(sizeof *lr);
    struct raw *recs = NULL;
    size_t n = 0, cap = 0;
    struct arena_names ids;
    arena_names_init(&ids);
    size_t col[N_COLS] = {0, 1, 2, 3};
    size_t need = 4; /* fields a row must have */
    int rc = ARENA_OK, first = 1;
    if (!line || !lr) {
        rc = arena_reader_fail(&r, ARENA_ENOMEM, "file", "out of memory");
        goto done;
    }
    arena_lines_open(lr, f, line);
    for (;;) {
        int got = arena_reader_next(&r, lr);
        if (got < 0) {
            rc = got;
            goto done;
        }
        if (got == 0)
            break;
        const char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0' || *s == '#')
            continue;
        char *fields[MAX_FIELDS];
        size_t nf = split(line, fields);
        if (nf > MAX_FIELDS) {
            rc = arena_reader_fail(&r, ARENA_EFORMAT, "line", "more than %d columns", MAX_FIELDS);
            goto done;
        }
        if (first) {
            first = 0;
            if (is_header(fields, nf)) {
                need = 0;
                for (size_t c = 0; c < N_COLS; c++)
                    for (size_t i = 0; i < nf; i++)
                        if (strcmp(fields[i], col_names[c]) == 0) {
                            col[c] = i;
                            if (i + 1 > need)
                                need = i + 1;
                            break;
                        }
                continue;
            }
            int named = 0, seen = 0;
            for (size_t i = 0; i < nf; i++)
                for (size_t c = 0; c < N_COLS; c++)
                    if (strcmp(fields[i], col_names[c]) == 0) {
                        named++;
                        seen |= 1 << c;
                    }
            if (named >= 2) {
                size_t c = 0;
                while (seen & (1 << c))
                    c++;
                rc = arena_reader_fail(&r, ARENA_EFORMAT, col_names[c],
                                       "missing column in the header");
                goto done;
            }
        }
        if (nf < need) {
            size_t missing = 0;
            for (size_t c = 0; c < N_COLS; c++)
                if (col[c] >= nf) {
                    missing = c;
                    break;
                }
            rc = arena_reader_fail(&r, ARENA_EFORMAT, col_names[missing], "missing column");
            goto done;
        }
        struct raw rec;
        const char *id = fields[col[COL_ID]];
        if (!*id) {
            rc = arena_reader_fail(&r, ARENA_EFORMAT, "id", "empty");
            goto done;
        }
        if ((rc = parse_u64(&r, "lower", fields[col[COL_LOWER]], &rec.lower)) ||
            (rc = parse_u64(&r, "upper", fields[col[COL_UPPER]], &rec.upper)) ||
            (rc = parse_u64(&r, "size", fields[col[COL_SIZE]], &rec.size)))
            goto done;
        if (rec.upper <= rec.lower) {
            rc = arena_reader_fail(&r, ARENA_EFORMAT, "upper", "%llu is not above lower %llu",
                                   (unsigned long long)rec.upper, (unsigned long long)rec.lower);
            goto done;
        }
        if (rec.size > ARENA_SIZE_MAX) {
            char q[64];
            rc = arena_reader_fail(&r, ARENA_EFORMAT, "size", "%s is above 2^62",
                                   arena_reader_show(fields[col[COL_SIZE]], q, sizeof q));
            goto done;
        }
        if (rec.size == 0) {
            rc = arena_reader_fail(&r, ARENA_EFORMAT, "size", "0 is not a positive size");
            goto done;
        }
        if (arena_size_align(rec.size, alignment, &rec.size) != ARENA_OK) {
            rc = arena_reader_fail(&r, ARENA_EOVERFLOW, "size",
                                   "%llu overflows once aligned to %llu",
                                   (unsigned long long)rec.size, (unsigned long long)alignment);
            goto done;
        }
        if (n >= UINT32_MAX - 1) {
            rc = arena_reader_fail(&r, ARENA_EFORMAT, "line", "too many records");
            goto done;
        }
        uint32_t old;
        int put = arena_names_put(&ids, id, strlen(id), (uint32_t)r.line, &old);
        if (put < 0) {
            rc = arena_reader_fail(&r, ARENA_ENOMEM, "id", "out of memory");
            goto done;
        }
        if (put == 1) {
            char q[64];
            rc = arena_reader_fail(&r, ARENA_EFORMAT, "id", "duplicate id '%s' (first on line %u)",
                                   arena_reader_show(id, q, sizeof q), (unsigned)old);
            goto done;
        }
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 256;
            struct raw *p = ncap < SIZE_MAX / sizeof *p ? realloc(recs, ncap * sizeof *p) : NULL;
            if (!p) {
                rc = arena_reader_fail(&r, ARENA_ENOMEM, "file", "out of memory");
                goto done;
            }
            recs = p;
            cap = ncap;
        }
        recs[n++] = rec;
    }
    if (first) { /* not even a header: an empty or truncated file, not an empty problem */
        if (r.err && r.errlen)
            snprintf(r.err, r.errlen, "%s: no header and no records (an empty problem is "
                                      "the header line alone)", r.name);
        rc = ARENA_EFORMAT;
        goto done;
    }
    arena_names_free(&ids);
    free(line);
    line = NULL;
    {
        uint64_t *lowers = malloc((n ? n : 1) * sizeof *lowers);
        struct arena_tensor *t = malloc((n ? n : 1) * sizeof *t);
        if (!lowers || !t) {
            free(lowers);
            free(t);
            rc = arena_reader_fail(&r, ARENA_ENOMEM, "file", "out of memory");
            goto done;
        }
        for (size_t i = 0; i < n; i++)
            lowers[i] = recs[i].lower;
        qsort(lowers, n, sizeof *lowers, cmp_u64);
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (m == 0 || lowers[m - 1] != lowers[i])
                lowers[m++] = lowers[i];
        for (size_t i = 0; i < n; i++) {
            t[i].size = recs[i].size;
            t[i].first = (uint32_t)floor_index(lowers, m, recs[i].lower);
            t[i].last = (uint32_t)floor_index(lowers, m, recs[i].upper - 1);
        }
        free(lowers);
        out->n = n;
        out->tensors = t;
        out->alignment = alignment;
    }
done:
    arena_names_free(&ids);
    free(line);
    free(lr);
    free(recs);
    return rc;
}

int arena_csv_read(const char *path, uint64_t alignment, struct arena_problem *out, char *err,
                   size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *f = arena_reader_open(path, err, errlen);
    if (!f)
        return ARENA_EIO;
    int rc = arena_csv_read_stream(f, path, alignment, out, err, errlen);
    fclose(f);
    return rc;
}

int arena_csv_write_stream(FILE *f, const struct arena_problem *p)
{
    if (fputs("id,lower,upper,size\n", f) < 0)
        return ARENA_EIO;
    for (size_t i = 0; i < p->n; i++) {
        const struct arena_tensor *t = &p->tensors[i];
        if (fprintf(f, "%zu,%lu,%llu,%llu\n", i, (unsigned long)t->first,
                    (unsigned long long)t->last + 1, (unsigned long long)t->size) < 0)
            return ARENA_EIO;
    }
    return ferror(f) ? ARENA_EIO : ARENA_OK;
}

int arena_csv_write(const char *path, const struct arena_problem *p, char *err, size_t errlen)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        if (err && errlen)
            snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
        return ARENA_EIO;
    }
    int rc = arena_csv_write_stream(f, p);
    if (fclose(f) != 0)
        rc = ARENA_EIO;
    if (rc && err && errlen)
        snprintf(err, errlen, "%s: write failed", path);
    return rc;
}
