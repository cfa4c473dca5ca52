/* stats.c — across-seed statistics (results/stats.h): one read of the
 * newest valid result per graph x planner, grouped by configuration; the
 * bootstrap percentile interval of Efron & Tibshirani (An Introduction to
 * the Bootstrap, 1993, ch. 13), with splitmix64 (Steele, Lea & Flood 2014)
 * as the seeded generator. */
#include "results/stats.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planners/status.h"

struct sample {
    char *group, *planner;
    int64_t graph;
    double lb, best, arena;
};

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* x sorted ascending. */
static double median_sorted(const double *x, size_t n)
{
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

static double mean_of(const double *x, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) s += x[i];
    return s / (double)n;
}

int arena_stats_describe(double *x, size_t n, struct arena_stat *out)
{
    enum { B = ARENA_STATS_RESAMPLES };
    qsort(x, n, sizeof *x, by_value);
    out->mean = mean_of(x, n);
    out->median = median_sorted(x, n);
    double *means = malloc(B * sizeof *means), *medians = malloc(B * sizeof *medians);
    double *draw = malloc(n * sizeof *draw);
    if (!means || !medians || !draw) {
        free(means);
        free(medians);
        free(draw);
        return ARENA_ENOMEM;
    }
    uint64_t state = ARENA_STATS_SEED;
    for (size_t b = 0; b < B; b++) {
        for (size_t i = 0; i < n; i++) draw[i] = x[splitmix64(&state) % n];
        qsort(draw, n, sizeof *draw, by_value);
        means[b] = mean_of(draw, n);
        medians[b] = median_sorted(draw, n);
    }
    qsort(means, B, sizeof *means, by_value);
    qsort(medians, B, sizeof *medians, by_value);
    size_t lo = B / 40, hi = B - 1 - B / 40; /* 2.5 % in from each end: 50 and 1949 */
    out->mean_lo = means[lo];
    out->mean_hi = means[hi];
    out->median_lo = medians[lo];
    out->median_hi = medians[hi];
    free(means);
    free(medians);
    free(draw);
    return ARENA_OK;
}

/* "family:params" without its seed=N item; the spec itself for a file
 * (empty params). */
static char *group_of(const char *spec, const char *family, const char *params)
{
    if (!params[0]) return strdup(spec);
    size_t len = strlen(family) + strlen(params) + 2;
    char *g = malloc(len);
    if (!g) return NULL;
    size_t used = (size_t)snprintf(g, len, "%s:", family);
    int first = 1;
    for (const char *p = params; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (!(n >= 5 && strncmp(p, "seed=", 5) == 0)) {
            if (!first) g[used++] = ',';
            memcpy(g + used, p, n);
            used += n;
            first = 0;
        }
        p += n + (end ? 1 : 0);
    }
    if (first) used--; /* only a seed: the family alone */
    g[used] = '\0';
    return g;
}

static int by_sample(const void *a, const void *b)
{
    const struct sample *x = a, *y = b;
    int c = strcmp(x->group, y->group);
    if (!c) c = strcmp(x->planner, y->planner);
    if (!c) c = (x->graph > y->graph) - (x->graph < y->graph);
    return c;
}

static const char query[] =
    "WITH latest AS (SELECT graph_id, planner, max(id) AS id FROM results"
    "   WHERE valid = 1 AND arena_bytes IS NOT NULL GROUP BY graph_id, planner),"
    " best AS (SELECT graph_id, max(bound) AS bound FROM results WHERE valid = 1"
    "   GROUP BY graph_id)"
    " SELECT g.id, g.spec, g.family, g.params, g.lower_bound,"
    "   max(g.lower_bound, coalesce(b.bound, 0)), l.planner, r.arena_bytes"
    " FROM latest l JOIN results r ON r.id = l.id JOIN graphs g ON g.id = l.graph_id"
    " LEFT JOIN best b ON b.graph_id = g.id WHERE g.lower_bound > 0";

static int read_samples(sqlite3 *db, struct sample **out, size_t *n, char *err, size_t errlen)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, query, -1, &st, NULL);
    if (rc != SQLITE_OK) {
        arena_errorf(err, errlen, 0, ARENA_EDB, "reading results: %s", sqlite3_errmsg(db));
        return ARENA_EDB;
    }
    size_t cap = 0;
    int status = ARENA_OK;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            struct sample *grown = realloc(*out, cap * sizeof *grown);
            if (!grown) {
                status = ARENA_ENOMEM;
                break;
            }
            *out = grown;
        }
        const char *spec = (const char *)sqlite3_column_text(st, 1);
        const char *family = (const char *)sqlite3_column_text(st, 2);
        const char *params = (const char *)sqlite3_column_text(st, 3);
        const char *planner = (const char *)sqlite3_column_text(st, 6);
        struct sample *s = &(*out)[*n];
        s->graph = sqlite3_column_int64(st, 0);
        s->lb = (double)sqlite3_column_int64(st, 4);
        s->best = (double)sqlite3_column_int64(st, 5);
        s->arena = (double)sqlite3_column_int64(st, 7);
        s->group = group_of(spec ? spec : "", family ? family : "", params ? params : "");
        s->planner = strdup(planner ? planner : "");
        if (!s->group || !s->planner) {
            free(s->group);
            free(s->planner);
            status = ARENA_ENOMEM;
            break;
        }
        (*n)++;
    }
    if (status == ARENA_OK && rc != SQLITE_DONE)
        status = arena_errorf(err, errlen, 0, ARENA_EDB, "reading results: %s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return status;
}

/* One group: samples s[0..n) sorted by planner then graph. */
static int add_group(struct arena_stats *out, struct sample *s, size_t n)
{
    int has_best = 0;
    for (size_t i = 0; i < n; i++) has_best |= s[i].best > s[i].lb;
    size_t first_row = out->n_rows;
    double *x = malloc(n * sizeof *x);
    if (!x) return ARENA_ENOMEM;
    size_t *start = malloc((n + 1) * sizeof *start);
    if (!start) {
        free(x);
        return ARENA_ENOMEM;
    }
    size_t planners = 0;
    int rc = ARENA_OK;
    for (size_t a = 0; a < n && rc == ARENA_OK;) {
        size_t b = a;
        while (b < n && strcmp(s[b].planner, s[a].planner) == 0) b++;
        start[planners++] = a;
        struct arena_stats_row *grown = realloc(out->rows, (out->n_rows + 1) * sizeof *grown);
        if (!grown) {
            rc = ARENA_ENOMEM;
            break;
        }
        out->rows = grown;
        struct arena_stats_row *row = &out->rows[out->n_rows];
        memset(row, 0, sizeof *row);
        row->group = strdup(s[a].group);
        row->planner = strdup(s[a].planner);
        out->n_rows++;
        row->n = b - a;
        row->has_best = has_best;
        for (size_t i = a; i < b; i++) x[i - a] = s[i].arena / s[i].lb;
        if (!row->group || !row->planner) rc = ARENA_ENOMEM;
        if (rc == ARENA_OK) rc = arena_stats_describe(x, b - a, &row->lb);
        for (size_t i = a; i < b; i++) x[i - a] = s[i].arena / s[i].best;
        if (rc == ARENA_OK && has_best) rc = arena_stats_describe(x, b - a, &row->best);
        a = b;
    }
    start[planners] = n;
    for (size_t p = 0; rc == ARENA_OK && p < planners; p++) {
        for (size_t q = 0; q < planners; q++) {
            if (p == q) continue;
            struct arena_stats_pair pair = {first_row + p, first_row + q, 0, 0, 0};
            size_t i = start[p], j = start[q];
            while (i < start[p + 1] && j < start[q + 1]) { /* both sorted by graph */
                if (s[i].graph < s[j].graph) {
                    i++;
                } else if (s[j].graph < s[i].graph) {
                    j++;
                } else {
                    if (s[i].arena < s[j].arena) pair.wins++;
                    else if (s[i].arena > s[j].arena) pair.losses++;
                    else pair.ties++;
                    i++, j++;
                }
            }
            struct arena_stats_pair *grown =
                realloc(out->pairs, (out->n_pairs + 1) * sizeof *grown);
            if (!grown) {
                rc = ARENA_ENOMEM;
                break;
            }
            out->pairs = grown;
            out->pairs[out->n_pairs++] = pair;
        }
    }
    free(x);
    free(start);
    return rc;
}

int arena_stats_compute(const char *path, struct arena_stats *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (err && errlen) err[0] = '\0';
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
    if (rc != SQLITE_OK) {
        arena_errorf(err, errlen, 0, ARENA_EDB, "%s: cannot open (%s)", path,
                     db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        return ARENA_EDB;
    }
    sqlite3_busy_timeout(db, 10000);
    struct sample *s = NULL;
    size_t n = 0;
    char why[400] = "";
    int status = read_samples(db, &s, &n, why, sizeof why);
    if (status == ARENA_EDB)
        arena_errorf(err, errlen, 0, ARENA_EDB,
                     "%s: %s (an arenabench results database of schema 4 or later?)", path, why);
    sqlite3_close(db);
    if (status == ARENA_OK) qsort(s, n, sizeof *s, by_sample);
    for (size_t a = 0; status == ARENA_OK && a < n;) {
        size_t b = a;
        while (b < n && strcmp(s[b].group, s[a].group) == 0) b++;
        status = add_group(out, s + a, b - a);
        a = b;
    }
    for (size_t i = 0; i < n; i++) {
        free(s[i].group);
        free(s[i].planner);
    }
    free(s);
    if (status == ARENA_ENOMEM) arena_errorf(err, errlen, 0, ARENA_ENOMEM, "%s: out of memory", path);
    return status;
}

void arena_stats_free(struct arena_stats *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->n_rows; i++) {
        free(s->rows[i].group);
        free(s->rows[i].planner);
    }
    free(s->rows);
    free(s->pairs);
    memset(s, 0, sizeof *s);
}
