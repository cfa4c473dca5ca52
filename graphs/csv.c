/* csv.c — MiniMalloc CSV in and out (format and time compression in
 * files.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/files.h"
#include "graphs/lines.h"
#include "graphs/graph_internal.h"
#include "graphs/names.h"
#include "planners/order.h"

enum { COL_ID, COL_LOWER, COL_UPPER, COL_SIZE, N_COLS };
static const char *const col_names[N_COLS] = {"id", "lower", "upper", "size"};

/* Header names: ours, then the synonyms MiniMalloc's converter reads
 * (its `end` is inclusive: upper = end + 1). */
static const struct {
    const char *name;
    int col, inclusive;
} header_names[] = {
    {"id", COL_ID, 0},        {"lower", COL_LOWER, 0},    {"upper", COL_UPPER, 0},
    {"size", COL_SIZE, 0},    {"buffer", COL_ID, 0},      {"buffer_id", COL_ID, 0},
    {"start", COL_LOWER, 0},  {"begin", COL_LOWER, 0},    {"end", COL_UPPER, 1},
};
#define N_HEADER_NAMES (sizeof header_names / sizeof header_names[0])

#define MAX_FIELDS 64

struct raw {
    uint64_t lower, upper, size;
};

/* One reading in progress. */
struct csv {
    struct arena_reader r;
    uint64_t alignment;
    size_t col[N_COLS];          /* field index of each column */
    const char *label[N_COLS];   /* each column's name in the file, for messages */
    size_t need;                 /* fields a record must have */
    int end_inclusive;           /* upper given as MiniMalloc's inclusive `end` */
    int started;                 /* a header or a record was met */
    uint64_t sum;                /* of the aligned sizes so far */
    struct raw *recs;
    size_t n, cap;
    struct arena_names ids;
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

static size_t header_name(const char *s)
{
    size_t i = 0;
    while (i < N_HEADER_NAMES && strcmp(s, header_names[i].name) != 0)
        i++;
    return i;
}

static int looks_numeric(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    return *s >= '0' && *s <= '9';
}

/* The first line is a header when it names two columns, or when none of
 * fields 2..4 starts like a number (a header with names we do not know). */
static int is_header(char **fields, size_t nf)
{
    size_t named = 0, numeric = 0;
    for (size_t i = 0; i < nf; i++)
        named += header_name(fields[i]) < N_HEADER_NAMES;
    for (size_t i = 1; i < nf && i < 4; i++)
        numeric += looks_numeric(fields[i]);
    return named >= 2 || (nf >= 2 && numeric == 0);
}

/* Maps the header's names to columns; every column once, all four there. */
static int read_header(struct csv *st, char **fields, size_t nf)
{
    char q[64];
    size_t at[N_COLS];
    for (size_t c = 0; c < N_COLS; c++)
        at[c] = SIZE_MAX;
    st->need = 0;
    for (size_t i = 0; i < nf; i++) {
        size_t h = header_name(fields[i]);
        if (h == N_HEADER_NAMES)
            continue; /* an extra column: ignored */
        int c = header_names[h].col;
        if (at[c] != SIZE_MAX)
            return arena_reader_fail(&st->r, ARENA_EFORMAT, fields[i],
                                     "column %s given twice in the header (columns %zu and %zu)",
                                     arena_reader_show(fields[i], q, sizeof q), at[c] + 1, i + 1);
        at[c] = i;
        st->col[c] = i;
        st->label[c] = header_names[h].name;
        if (c == COL_UPPER)
            st->end_inclusive = header_names[h].inclusive;
        if (i + 1 > st->need)
            st->need = i + 1;
    }
    for (size_t c = 0; c < N_COLS; c++)
        if (at[c] == SIZE_MAX)
            return arena_reader_fail(&st->r, ARENA_EFORMAT, col_names[c],
                                     "missing column in the header (a header names "
                                     "id,lower,upper,size in any order)");
    return ARENA_OK;
}

/* A last line without its newline: the file was cut, maybe inside a number. */
static int refuse_cut(struct csv *st, char **fields, size_t nf, int header)
{
    char q[64];
    if (header)
        return arena_reader_fail(&st->r, ARENA_EFORMAT, "line",
                                 "the header ends the file without a newline: the file looks "
                                 "cut off");
    const char *field = "line";
    for (size_t c = 0; c < N_COLS; c++)
        if (st->col[c] == nf - 1)
            field = st->label[c];
    return arena_reader_fail(&st->r, ARENA_EFORMAT, field,
                             "'%s' ends the file without a newline: the file looks cut off "
                             "(every record ends with one)",
                             arena_reader_show(fields[nf - 1], q, sizeof q));
}

/* Parses and checks the numbers of one record into *rec. */
static int read_numbers(struct csv *st, char **fields, struct raw *rec)
{
    char q[64];
    int rc;
    if ((rc = parse_u64(&st->r, st->label[COL_LOWER], fields[st->col[COL_LOWER]], &rec->lower)) ||
        (rc = parse_u64(&st->r, st->label[COL_UPPER], fields[st->col[COL_UPPER]], &rec->upper)) ||
        (rc = parse_u64(&st->r, col_names[COL_SIZE], fields[st->col[COL_SIZE]], &rec->size)))
        return rc;
    if (st->end_inclusive) {
        if (rec->upper < rec->lower)
            return arena_reader_fail(&st->r, ARENA_EFORMAT, st->label[COL_UPPER],
                                     "%llu is below %s %llu", (unsigned long long)rec->upper,
                                     st->label[COL_LOWER], (unsigned long long)rec->lower);
        if (rec->upper == UINT64_MAX)
            return arena_reader_fail(&st->r, ARENA_EFORMAT, st->label[COL_UPPER],
                                     "%llu does not fit in 64 bits once made exclusive",
                                     (unsigned long long)rec->upper);
        rec->upper++;
    }
    if (rec->upper <= rec->lower)
        return arena_reader_fail(&st->r, ARENA_EFORMAT, st->label[COL_UPPER],
                                 "%llu is not above %s %llu", (unsigned long long)rec->upper,
                                 st->label[COL_LOWER], (unsigned long long)rec->lower);
    if (rec->size > ARENA_SIZE_MAX)
        return arena_reader_fail(&st->r, ARENA_EFORMAT, "size", "%s is above 2^62",
                                 arena_reader_show(fields[st->col[COL_SIZE]], q, sizeof q));
    if (rec->size == 0)
        return arena_reader_fail(&st->r, ARENA_EFORMAT, "size", "0 is not a positive size");
    if (arena_size_align(rec->size, st->alignment, &rec->size) != ARENA_OK)
        return arena_reader_fail(&st->r, ARENA_EOVERFLOW, "size",
                                 "%llu overflows once aligned to %llu",
                                 (unsigned long long)rec->size,
                                 (unsigned long long)st->alignment);
    if (rec->size > UINT64_MAX - st->sum)
        return arena_reader_fail(&st->r, ARENA_EOVERFLOW, "size",
                                 "%llu takes the sum of the sizes past 2^64 - 1 bytes",
                                 (unsigned long long)rec->size);
    st->sum += rec->size;
    return ARENA_OK;
}

/* Adds a record under its id (unique). */
static int add_record(struct csv *st, const char *id, const struct raw *rec)
{
    char q[64];
    if (!*id)
        return arena_reader_fail(&st->r, ARENA_EFORMAT, st->label[COL_ID], "empty");
    if (st->n >= UINT32_MAX - 1)
        return arena_reader_fail(&st->r, ARENA_EFORMAT, "line", "too many records");
    uint32_t old;
    int put = arena_names_put(&st->ids, id, strlen(id), (uint32_t)st->r.line, &old);
    if (put < 0)
        return arena_reader_fail(&st->r, ARENA_ENOMEM, st->label[COL_ID], "out of memory");
    if (put == 1)
        return arena_reader_fail(&st->r, ARENA_EFORMAT, st->label[COL_ID],
                                 "duplicate id '%s' (first on line %u)",
                                 arena_reader_show(id, q, sizeof q), (unsigned)old);
    if (st->n == st->cap) {
        size_t ncap = st->cap ? st->cap * 2 : 256;
        struct raw *p =
            ncap < SIZE_MAX / sizeof *p ? realloc(st->recs, ncap * sizeof *p) : NULL;
        if (!p)
            return arena_reader_fail(&st->r, ARENA_ENOMEM, "file", "out of memory");
        st->recs = p;
        st->cap = ncap;
    }
    st->recs[st->n++] = *rec;
    return ARENA_OK;
}

/* One line of the file: skipped, the header, or a record. */
static int read_line(struct csv *st, char *line, int newline)
{
    const char *s = line;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '\0' || *s == '#')
        return ARENA_OK;
    char *fields[MAX_FIELDS];
    size_t nf = split(line, fields);
    if (nf > MAX_FIELDS)
        return arena_reader_fail(&st->r, ARENA_EFORMAT, "line", "more than %d columns",
                                 MAX_FIELDS);
    int header = !st->started && is_header(fields, nf);
    if (!newline)
        return refuse_cut(st, fields, nf, header);
    st->started = 1;
    if (header)
        return read_header(st, fields, nf);
    if (nf < st->need) {
        size_t missing = 0;
        while (st->col[missing] < nf)
            missing++;
        return arena_reader_fail(&st->r, ARENA_EFORMAT, st->label[missing], "missing column");
    }
    struct raw rec;
    int rc = read_numbers(st, fields, &rec);
    return rc ? rc : add_record(st, fields[st->col[COL_ID]], &rec);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The records, times compressed to dense steps (files.h), into *out; the
 * lifetimes' own lengths (upper - lower) after the tensors, in the same
 * block, as out->span when the compression changed any of them. */
static int compress(struct csv *st, struct arena_problem *out)
{
    size_t n = st->n;
    uint64_t *lowers = malloc((n ? n : 1) * sizeof *lowers);
    /* one block, so free(tensors) frees the spans too (sizeof *t is a
     * multiple of 8: the spans are aligned) */
    struct arena_tensor *t = malloc((n ? n : 1) * (sizeof *t + sizeof(uint64_t)));
    if (!lowers || !t) {
        free(lowers);
        free(t);
        return arena_reader_fail(&st->r, ARENA_ENOMEM, "file", "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        lowers[i] = st->recs[i].lower;
    qsort(lowers, n, sizeof *lowers, cmp_u64);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || lowers[m - 1] != lowers[i])
            lowers[m++] = lowers[i];
    uint64_t *span = (uint64_t *)(t + n);
    int spans = 0;
    for (size_t i = 0; i < n; i++) {
        t[i].size = st->recs[i].size;
        t[i].first = (uint32_t)arena_floor_index(lowers, m, st->recs[i].lower);
        t[i].last = (uint32_t)arena_floor_index(lowers, m, st->recs[i].upper - 1);
        span[i] = st->recs[i].upper - st->recs[i].lower;
        spans |= span[i] != (uint64_t)t[i].last - t[i].first + 1;
    }
    free(lowers);
    _Static_assert(sizeof *t % sizeof *span == 0, "the spans follow the tensors aligned");
    *out = (struct arena_problem){
        .n = n, .tensors = t, .alignment = st->alignment, .span = spans ? span : NULL};
    return ARENA_OK;
}

/* Every line, then the problem. */
static int read_all(struct csv *st, FILE *f, struct arena_problem *out, char ***names)
{
    char *line = malloc(ARENA_FILE_LINE_MAX + 1);
    struct arena_lines *lr = malloc(sizeof *lr);
    int rc = ARENA_OK;
    if (!line || !lr)
        rc = arena_reader_fail(&st->r, ARENA_ENOMEM, "file", "out of memory");
    else
        arena_lines_open(lr, f, line);
    while (!rc) {
        int got = arena_reader_next(&st->r, lr);
        if (got <= 0) {
            rc = got;
            break;
        }
        rc = read_line(st, line, lr->newline);
    }
    free(line);
    free(lr);
    if (!rc && !st->started) /* an empty or truncated file, not an empty problem */
        rc = arena_errorf(st->r.err, st->r.errlen, 0, ARENA_EFORMAT,
                          "%s: no header and no records (an empty problem is the header "
                          "line alone)",
                          st->r.name);
    /* the ids' pool holds them in record order (a duplicate is refused) */
    if (!rc && names && !(*names = arena_names_pack(st->ids.pool, st->ids.pool_len, st->n)))
        rc = arena_reader_fail(&st->r, ARENA_ENOMEM, "file", "out of memory");
    arena_names_free(&st->ids); /* before the arrays: the peak stays lower */
    if (!rc)
        rc = compress(st, out);
    if (rc && names) {
        free(*names);
        *names = NULL;
    }
    return rc;
}

int arena_csv_read_stream(FILE *f, const char *name, uint64_t alignment,
                          const volatile sig_atomic_t *stop, struct arena_problem *out,
                          char ***names, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (names)
        *names = NULL;
    struct csv st;
    memset(&st, 0, sizeof st);
    st.r = (struct arena_reader){.name = name, .err = err, .errlen = errlen, .stop = stop};
    st.alignment = alignment;
    for (size_t c = 0; c < N_COLS; c++) {
        st.col[c] = c;
        st.label[c] = col_names[c];
    }
    st.need = N_COLS;
    arena_names_init(&st.ids);
    if (err && errlen)
        err[0] = '\0';
    if (st.alignment == 0 || (st.alignment & (st.alignment - 1)))
        return arena_reader_fail(&st.r, ARENA_EINVAL, "alignment", "%llu is not a power of two",
                                 (unsigned long long)st.alignment);
    int rc = read_all(&st, f, out, names);
    arena_names_free(&st.ids);
    free(st.recs);
    return rc;
}

int arena_csv_read(const char *path, uint64_t alignment, const volatile sig_atomic_t *stop,
                   struct arena_problem *out, char ***names, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (names)
        *names = NULL;
    FILE *f = arena_reader_open(path, err, errlen);
    if (!f)
        return ARENA_EIO;
    int rc = arena_csv_read_stream(f, path, alignment, stop, out, names, err, errlen);
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
