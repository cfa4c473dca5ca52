/* stats.c — across-seed statistics (results/stats.h): one read of the
 * newest result per graph x configuration, grouped, paired on the graphs
 * every row of a group has a valid result on; the
 * bootstrap percentile interval of Efron & Tibshirani (An Introduction to
 * the Bootstrap, 1993, ch. 13), with splitmix64 (Steele, Lea & Flood 2014)
 * as the seeded generator. */
#include "results/stats.h"

#include <math.h>
#include <sqlite3.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planners/status.h"

struct sample {
    char *graph_key, *family, *params, *planner; /* graph_key: group_of() */
    int64_t graph, alignment, run;
    struct arena_stats_options opt;
    int valid, limit;
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
 * (empty params). params_out gets the params without the seed. */
static char *group_of(const char *spec, const char *family, const char *params, char **params_out)
{
    *params_out = NULL;
    if (!params[0]) {
        *params_out = strdup("");
        char *g = strdup(spec);
        if (!g || !*params_out) {
            free(g);
            free(*params_out);
            *params_out = NULL;
            return NULL;
        }
        return g;
    }
    size_t len = strlen(family) + strlen(params) + 2;
    char *g = malloc(len);
    if (!g) return NULL;
    size_t used = (size_t)snprintf(g, len, "%s:", family), head = used;
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
    g[used] = '\0';
    *params_out = strdup(g + head);
    if (first) g[head - 1] = '\0'; /* only a seed: the family alone */
    if (!*params_out) {
        free(g);
        return NULL;
    }
    return g;
}

static int cmp_i64(int64_t a, int64_t b)
{
    return (a > b) - (a < b);
}

/* NULL first, then by value. */
static int cmp_options(const struct arena_stats_options *a, const struct arena_stats_options *b)
{
    int c = a->has_time_limit - b->has_time_limit;
    if (!c && a->has_time_limit) c = (a->time_limit > b->time_limit) - (a->time_limit < b->time_limit);
    if (!c) c = a->has_node_limit - b->has_node_limit;
    if (!c && a->has_node_limit) c = cmp_i64(a->node_limit, b->node_limit);
    if (!c) c = a->has_planner_seed - b->has_planner_seed;
    if (!c && a->has_planner_seed) c = cmp_i64(a->planner_seed, b->planner_seed);
    if (!c) c = a->has_capacity - b->has_capacity;
    if (!c && a->has_capacity) c = cmp_i64(a->capacity, b->capacity);
    if (!c) c = a->has_optimal_engine - b->has_optimal_engine;
    if (!c && a->has_optimal_engine) c = strcmp(a->optimal_engine, b->optimal_engine);
    return c;
}

/* Same group: graph part and alignment. */
static int cmp_group(const struct sample *x, const struct sample *y)
{
    int c = strcmp(x->graph_key, y->graph_key);
    return c ? c : cmp_i64(x->alignment, y->alignment);
}

/* Same row: group, planner and options. */
static int cmp_row(const struct sample *x, const struct sample *y)
{
    int c = cmp_group(x, y);
    if (!c) c = strcmp(x->planner, y->planner);
    return c ? c : cmp_options(&x->opt, &y->opt);
}

static int by_sample(const void *a, const void *b)
{
    const struct sample *x = a, *y = b;
    int c = cmp_row(x, y);
    return c ? c : cmp_i64(x->graph, y->graph);
}

static int by_i64(const void *a, const void *b)
{
    return cmp_i64(*(const int64_t *)a, *(const int64_t *)b);
}

static int has_column(sqlite3 *db, const char *table, const char *column)
{
    sqlite3_stmt *st = NULL;
    int found = 0;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2", -1, &st,
                           NULL) == SQLITE_OK &&
        sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC) == SQLITE_OK &&
        sqlite3_bind_text(st, 2, column, -1, SQLITE_STATIC) == SQLITE_OK)
        found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found;
}

/* The runs.id that text names (see arena_stats_query.run). */
static int resolve_run(sqlite3 *db, const char *path, const char *text, int64_t *id, char *err,
                       size_t errlen)
{
    int digits = text[0] != '\0';
    for (const char *c = text; *c; c++) digits &= isdigit((unsigned char)*c) != 0;
    int uuid = has_column(db, "runs", "uuid");
    if (!digits && !uuid)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: run '%s': not a run id (digits), and this database has no"
                            " run UUIDs (schema before 8)", path, text);
    if (!text[0])
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: run '': empty run id", path);
    sqlite3_stmt *st = NULL;
    const char *sql = digits ? "SELECT id FROM runs WHERE id = ?1 AND length(?2) < 19"
                             : "SELECT id FROM runs WHERE substr(uuid, 1, length(?2)) = lower(?2)"
                               " LIMIT 2";
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK && digits) rc = sqlite3_bind_int64(st, 1, strtoll(text, NULL, 10));
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
    size_t found = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (!found++) *id = sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    }
    if (rc != SQLITE_DONE && rc != SQLITE_OK) {
        arena_errorf(err, errlen, 0, ARENA_EDB, "%s: reading runs: %s", path, sqlite3_errmsg(db));
        sqlite3_finalize(st);
        return ARENA_EDB;
    }
    sqlite3_finalize(st);
    if (found == 0)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: run '%s': no such run (%s)", path,
                            text, digits ? "runs.id" : "runs.uuid");
    if (found > 1)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: run '%s': the prefix of more than one run's UUID", path, text);
    return ARENA_OK;
}

/* Newest result per graph x configuration among the selected runs (?1: a
 * runs.id, NULL: all); legacy start times without milliseconds compare as
 * .000. The options are NULL where the database has no such column. */
static const char query_fmt[] =
    "WITH sel AS (SELECT r.id, r.run_id, r.graph_id, r.planner, r.valid, r.arena_bytes,"
    "   r.status, %s AS time_limit, %s AS node_limit, %s AS planner_seed, %s AS capacity,"
    "   %s AS optimal_engine,"
    "   CASE WHEN instr(u.started_at, '.') THEN u.started_at"
    "        ELSE replace(u.started_at, 'Z', '.000Z') END AS started"
    "   FROM results r JOIN runs u ON u.id = r.run_id WHERE ?1 IS NULL OR r.run_id = ?1),"
    " newest AS (SELECT *, row_number() OVER (PARTITION BY graph_id, planner, time_limit,"
    "   node_limit, planner_seed, capacity, optimal_engine"
    "   ORDER BY started DESC, run_id DESC, id DESC) AS k"
    "   FROM sel),"
    " best AS (SELECT graph_id, max(bound) AS bound FROM results WHERE valid = 1"
    "   GROUP BY graph_id)"
    " SELECT g.id, g.spec, g.family, g.params, g.alignment, g.lower_bound,"
    "   max(g.lower_bound, coalesce(b.bound, 0)), n.planner,"
    "   n.valid = 1 AND n.arena_bytes IS NOT NULL, n.arena_bytes, n.status IS 'limit', n.run_id,"
    "   n.time_limit, n.node_limit, n.planner_seed, n.capacity, n.optimal_engine"
    " FROM newest n JOIN graphs g ON g.id = n.graph_id LEFT JOIN best b ON b.graph_id = g.id"
    " WHERE n.k = 1";

static int wanted(const struct arena_stats_query *q, const char *planner)
{
    if (!q || !q->n_planners) return 1;
    for (size_t i = 0; i < q->n_planners; i++)
        if (strcmp(q->planners[i], planner) == 0) return 1;
    return 0;
}

static void free_sample(struct sample *s)
{
    free(s->graph_key);
    free(s->family);
    free(s->params);
    free(s->planner);
}

static int read_samples(sqlite3 *db, const struct arena_stats_query *q, int64_t run,
                        struct sample **out, size_t *n, char *err, size_t errlen)
{
    static const char *const opts[] = {"time_limit", "node_limit", "planner_seed", "capacity",
                                       "optimal_engine"};
    char col[5][32];
    for (size_t i = 0; i < 5; i++) {
        int have = has_column(db, "results", opts[i]);
        snprintf(col[i], sizeof col[i], "%s%s", have ? "r." : "", have ? opts[i] : "NULL");
    }
    char sql[sizeof query_fmt + 160];
    snprintf(sql, sizeof sql, query_fmt, col[0], col[1], col[2], col[3], col[4]);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) rc = run ? sqlite3_bind_int64(st, 1, run) : sqlite3_bind_null(st, 1);
    if (rc != SQLITE_OK) {
        arena_errorf(err, errlen, 0, ARENA_EDB, "reading results: %s", sqlite3_errmsg(db));
        sqlite3_finalize(st);
        return ARENA_EDB;
    }
    size_t cap = 0;
    int status = ARENA_OK;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *planner = (const char *)sqlite3_column_text(st, 7);
        if (!planner) planner = "";
        if (!wanted(q, planner)) continue;
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
        struct sample *s = &(*out)[*n];
        memset(s, 0, sizeof *s);
        s->graph = sqlite3_column_int64(st, 0);
        s->alignment = sqlite3_column_int64(st, 4);
        s->lb = (double)sqlite3_column_int64(st, 5);
        s->best = (double)sqlite3_column_int64(st, 6);
        s->valid = sqlite3_column_int(st, 8);
        s->arena = (double)sqlite3_column_int64(st, 9);
        s->limit = sqlite3_column_int(st, 10);
        s->run = sqlite3_column_int64(st, 11);
        struct arena_stats_options *o = &s->opt;
        if ((o->has_time_limit = sqlite3_column_type(st, 12) != SQLITE_NULL))
            o->time_limit = sqlite3_column_double(st, 12);
        if ((o->has_node_limit = sqlite3_column_type(st, 13) != SQLITE_NULL))
            o->node_limit = sqlite3_column_int64(st, 13);
        if ((o->has_planner_seed = sqlite3_column_type(st, 14) != SQLITE_NULL))
            o->planner_seed = sqlite3_column_int64(st, 14);
        if ((o->has_capacity = sqlite3_column_type(st, 15) != SQLITE_NULL))
            o->capacity = sqlite3_column_int64(st, 15);
        if ((o->has_optimal_engine = sqlite3_column_type(st, 16) != SQLITE_NULL))
            snprintf(o->optimal_engine, sizeof o->optimal_engine, "%s",
                     (const char *)sqlite3_column_text(st, 16));
        s->graph_key = group_of(spec ? spec : "", family ? family : "", params ? params : "",
                                &s->params);
        s->family = strdup(family ? family : "");
        s->planner = strdup(planner);
        if (!s->graph_key || !s->params || !s->family || !s->planner) {
            free_sample(s);
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

static size_t index_of(const int64_t *ids, size_t n, int64_t id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ids[mid] < id) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Sorted distinct values of v[0..n) (reordered); returns their count. */
static size_t distinct(int64_t *v, size_t n)
{
    if (!n) return 0;
    qsort(v, n, sizeof *v, by_i64);
    size_t k = 1;
    for (size_t i = 1; i < n; i++)
        if (v[i] != v[k - 1]) v[k++] = v[i];
    return k;
}

struct group_work {
    int64_t *graphs; /* the group's graphs, sorted */
    double *lb;      /* their lower bounds */
    size_t *have;    /* rows with a valid result on each */
    size_t *start;   /* first sample of each configuration, and n */
    int *shown;      /* configuration is a row: some valid result */
    double *x;
    int64_t *runs;
};

static void work_free(struct group_work *w)
{
    free(w->graphs);
    free(w->lb);
    free(w->have);
    free(w->start);
    free(w->shown);
    free(w->x);
    free(w->runs);
}

/* Whether sample i is on a graph every row of the group has. */
static int used(const struct group_work *w, size_t n_graphs, size_t rows, const struct sample *s)
{
    size_t k = index_of(w->graphs, n_graphs, s->graph);
    return s->valid && w->lb[k] > 0 && w->have[k] == rows;
}

static int row_init(struct arena_stats_row *row, const struct sample *s)
{
    memset(row, 0, sizeof *row);
    row->planner = strdup(s->planner);
    row->graph = strdup(s->graph_key);
    row->family = strdup(s->family);
    row->params = strdup(s->params);
    row->alignment = s->alignment;
    row->options = s->opt;
    row->lb.mean = row->lb.median = NAN;
    row->lb.mean_lo = row->lb.mean_hi = row->lb.median_lo = row->lb.median_hi = NAN;
    row->best = row->lb;
    return row->planner && row->graph && row->family && row->params ? ARENA_OK : ARENA_ENOMEM;
}

/* One group: samples s[0..n) sorted by planner, options, then graph. */
static int add_group(struct arena_stats *out, struct sample *s, size_t n)
{
    struct group_work w = {0};
    w.graphs = malloc(n * sizeof *w.graphs);
    w.lb = malloc(n * sizeof *w.lb);
    w.have = calloc(n, sizeof *w.have);
    w.start = malloc((n + 1) * sizeof *w.start);
    w.shown = calloc(n, sizeof *w.shown);
    w.x = malloc(n * sizeof *w.x);
    w.runs = malloc(n * sizeof *w.runs);
    if (!w.graphs || !w.lb || !w.have || !w.start || !w.shown || !w.x || !w.runs) {
        work_free(&w);
        return ARENA_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) w.graphs[i] = s[i].graph;
    size_t n_graphs = distinct(w.graphs, n);
    for (size_t i = 0; i < n; i++) w.lb[index_of(w.graphs, n_graphs, s[i].graph)] = s[i].lb;
    size_t configs = 0, rows = 0;
    for (size_t a = 0; a < n;) {
        size_t b = a;
        while (b < n && cmp_row(&s[b], &s[a]) == 0) b++;
        w.start[configs] = a;
        for (size_t i = a; i < b; i++) w.shown[configs] |= s[i].valid;
        rows += (size_t)w.shown[configs];
        for (size_t i = a; i < b && w.shown[configs]; i++)
            if (s[i].valid) w.have[index_of(w.graphs, n_graphs, s[i].graph)]++;
        configs++;
        a = b;
    }
    w.start[configs] = n;
    size_t n_used = 0;
    for (size_t k = 0; k < n_graphs; k++) n_used += w.lb[k] > 0 && w.have[k] == rows;
    int has_best = 0;
    for (size_t i = 0; i < n; i++) has_best |= used(&w, n_graphs, rows, &s[i]) && s[i].best > s[i].lb;

    size_t first_row = out->n_rows;
    int rc = ARENA_OK;
    for (size_t c = 0; c < configs && rc == ARENA_OK; c++) {
        struct arena_stats_row **list = w.shown[c] ? &out->rows : &out->hidden;
        size_t *count = w.shown[c] ? &out->n_rows : &out->n_hidden;
        struct arena_stats_row *grown = realloc(*list, (*count + 1) * sizeof *grown);
        if (!grown) {
            rc = ARENA_ENOMEM;
            break;
        }
        *list = grown;
        struct arena_stats_row *row = &grown[(*count)++];
        size_t a = w.start[c], b = w.start[c + 1];
        rc = row_init(row, &s[a]);
        row->has_best = has_best;
        row->n_left_out = n_graphs - n_used;
        row->n_absent = n_graphs - (b - a);
        size_t m = 0;
        for (size_t i = a; i < b; i++) {
            row->n_failed += !s[i].valid;
            if (!used(&w, n_graphs, rows, &s[i])) continue;
            row->limit += (size_t)s[i].limit;
            w.runs[m] = s[i].run;
            w.x[m++] = s[i].arena / s[i].lb;
        }
        row->n = m;
        row->runs = distinct(w.runs, m);
        if (rc == ARENA_OK && m) rc = arena_stats_describe(w.x, m, &row->lb);
        m = 0;
        for (size_t i = a; i < b; i++)
            if (used(&w, n_graphs, rows, &s[i])) w.x[m++] = s[i].arena / s[i].best;
        if (rc == ARENA_OK && m && has_best) rc = arena_stats_describe(w.x, m, &row->best);
    }
    /* Pairs over the used graphs, which every row has: walk both in graph order. */
    for (size_t p = 0; rc == ARENA_OK && p < configs; p++) {
        for (size_t q = 0; rc == ARENA_OK && q < configs; q++) {
            if (p == q || !w.shown[p] || !w.shown[q]) continue;
            size_t rp = first_row, rq = first_row;
            for (size_t c = 0; c < p; c++) rp += (size_t)w.shown[c];
            for (size_t c = 0; c < q; c++) rq += (size_t)w.shown[c];
            struct arena_stats_pair pair = {rp, rq, 0, 0, 0};
            size_t i = w.start[p], j = w.start[q];
            while (i < w.start[p + 1] && j < w.start[q + 1]) {
                if (!used(&w, n_graphs, rows, &s[i])) {
                    i++;
                } else if (!used(&w, n_graphs, rows, &s[j])) {
                    j++;
                } else if (s[i].graph < s[j].graph) {
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
    work_free(&w);
    return rc;
}

/* Appends " name=value" to buf (len bytes, used so far). */
static void append(char *buf, size_t len, const char *fmt, const char *name, const char *value)
{
    size_t used = strlen(buf);
    if (used < len) snprintf(buf + used, len - used, fmt, name, value);
}

enum { TIME_LIMIT, NODE_LIMIT, PLANNER_SEED, CAPACITY, OPTIMAL_ENGINE, OPTIONS };
static const char *const option_name[OPTIONS] = {"time_limit", "node_limit", "planner_seed",
                                                 "capacity", "optimal_engine"};

/* Whether option k is set in o, and its value as text. */
static int option_text(const struct arena_stats_options *o, int k, char *buf, size_t len)
{
    switch (k) {
    case TIME_LIMIT:
        snprintf(buf, len, "%g", o->time_limit);
        return o->has_time_limit;
    case NODE_LIMIT:
        snprintf(buf, len, "%lld", (long long)o->node_limit);
        return o->has_node_limit;
    case PLANNER_SEED:
        snprintf(buf, len, "%lld", (long long)o->planner_seed);
        return o->has_planner_seed;
    case CAPACITY:
        snprintf(buf, len, "%lld", (long long)o->capacity);
        return o->has_capacity;
    default:
        snprintf(buf, len, "%s", o->optimal_engine);
        return o->has_optimal_engine;
    }
}

/* Group labels and row labels: a field is shown when its values differ
 * between the rows shown (for an option: two set values differ, or one
 * planner has rows with and without it). */
static int label_rows(struct arena_stats *out)
{
    size_t n = out->n_rows + out->n_hidden;
    struct arena_stats_row **all = malloc((n ? n : 1) * sizeof *all);
    if (!all) return ARENA_ENOMEM;
    for (size_t i = 0; i < out->n_rows; i++) all[i] = &out->rows[i];
    for (size_t i = 0; i < out->n_hidden; i++) all[out->n_rows + i] = &out->hidden[i];
    int align_varies = 0;
    for (size_t i = 1; i < n; i++) align_varies |= all[i]->alignment != all[0]->alignment;
    int varies[OPTIONS] = {0};
    for (int k = 0; k < OPTIONS; k++) {
        char first[64] = "", v[64], w[64];
        int seen = 0;
        for (size_t i = 0; i < n; i++) {
            int set = option_text(&all[i]->options, k, v, sizeof v);
            if (set && seen && strcmp(v, first) != 0) varies[k] = 1;
            if (set && !seen) snprintf(first, sizeof first, "%s", v), seen = 1;
            for (size_t j = 0; j < n; j++)
                if (strcmp(all[j]->planner, all[i]->planner) == 0 &&
                    option_text(&all[j]->options, k, w, sizeof w) != set)
                    varies[k] = 1;
        }
    }
    int rc = ARENA_OK;
    for (size_t i = 0; i < n && rc == ARENA_OK; i++) {
        struct arena_stats_row *r = all[i];
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", r->graph);
        if (align_varies) snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " align=%lld",
                                   (long long)r->alignment);
        r->group = strdup(buf);
        snprintf(buf, sizeof buf, "%s", r->planner);
        for (int k = 0; k < OPTIONS; k++) {
            char v[64], w[64];
            if (!varies[k]) continue;
            if (option_text(&r->options, k, v, sizeof v)) {
                append(buf, sizeof buf, " %s=%s", option_name[k], v);
                continue;
            }
            for (size_t j = 0; j < n; j++)
                if (strcmp(all[j]->planner, r->planner) == 0 &&
                    option_text(&all[j]->options, k, w, sizeof w)) {
                    append(buf, sizeof buf, " %s=%s", option_name[k], "unrecorded");
                    break;
                }
        }
        r->label = strdup(buf);
        if (!r->group || !r->label) rc = ARENA_ENOMEM;
    }
    free(all);
    return rc;
}

int arena_stats_compute_query(const char *path, const struct arena_stats_query *q,
                              struct arena_stats *out, char *err, size_t errlen)
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
    int64_t run = 0;
    int status = ARENA_OK;
    if (q && q->run && strcmp(q->run, "all") != 0)
        status = resolve_run(db, path, q->run, &run, err, errlen);
    if (status == ARENA_OK) {
        status = read_samples(db, q, run, &s, &n, why, sizeof why);
        if (status == ARENA_EDB)
            arena_errorf(err, errlen, 0, ARENA_EDB,
                         "%s: %s (an arenabench results database of schema 4 or later?)", path,
                         why);
    }
    sqlite3_close(db);
    if (status == ARENA_OK) qsort(s, n, sizeof *s, by_sample);
    for (size_t a = 0; status == ARENA_OK && a < n;) {
        size_t b = a;
        while (b < n && cmp_group(&s[b], &s[a]) == 0) b++;
        status = add_group(out, s + a, b - a);
        a = b;
    }
    if (status == ARENA_OK) status = label_rows(out);
    for (size_t i = 0; i < n; i++) free_sample(&s[i]);
    free(s);
    if (status == ARENA_ENOMEM) arena_errorf(err, errlen, 0, ARENA_ENOMEM, "%s: out of memory", path);
    return status;
}

int arena_stats_compute(const char *path, struct arena_stats *out, char *err, size_t errlen)
{
    return arena_stats_compute_query(path, NULL, out, err, errlen);
}

static void free_rows(struct arena_stats_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct arena_stats_row *r = &rows[i];
        free(r->group);
        free(r->planner);
        free(r->label);
        free(r->graph);
        free(r->family);
        free(r->params);
    }
    free(rows);
}

void arena_stats_free(struct arena_stats *s)
{
    if (!s) return;
    free_rows(s->rows, s->n_rows);
    free_rows(s->hidden, s->n_hidden);
    free(s->pairs);
    memset(s, 0, sizeof *s);
}
