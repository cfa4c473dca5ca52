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
#include "results/columns.h"
#include "results/db.h"

struct sample {
    char *graph_key;     /* the group's graph part (select.h's groups) */
    char *base;          /* the graph: its spec without the patch, the key the
                            rows of a group are paired on */
    char *family, *params, *planner; /* params without the seed */
    int64_t graph;       /* base's rank among the bases read (pairing) */
    int64_t run;
    struct arena_config cfg;
    struct arena_stats_options opt;
    int valid, limit;
    int stale;           /* of an older problem under its spec: left out */
    double lb, best, arena, fixed; /* lb, best: the planned problem's */
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

/* params without the seed=N item, malloc'd. */
static char *params_without_seed(const char *params)
{
    size_t len = strlen(params);
    char *out = malloc(len + 1), *o = out;
    if (!out) return NULL;
    for (const char *p = params; *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (!(n >= 5 && strncmp(p, "seed=", 5) == 0)) {
            if (o > out) *o++ = ',';
            memcpy(o, p, n);
            o += n;
        }
        p += n + (e ? 1 : 0);
    }
    *o = '\0';
    return out;
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
    return c;
}

/* Same group: graph part and configuration. */
static int cmp_group(const struct sample *x, const struct sample *y)
{
    int c = strcmp(x->graph_key, y->graph_key);
    return c ? c : arena_config_cmp(&x->cfg, &y->cfg);
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

/* Each spec's newest problem's samples, then the stale ones; each part by
 * sample. */
static int by_stale_sample(const void *a, const void *b)
{
    const struct sample *x = a, *y = b;
    return x->stale != y->stale ? x->stale - y->stale : by_sample(a, b);
}

static int by_i64(const void *a, const void *b)
{
    return cmp_i64(*(const int64_t *)a, *(const int64_t *)b);
}

static int has_column(sqlite3 *db, const char *table, const char *column)
{
    return arena_db_has_column(db, table, column);
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
 * .000. A graph is its spec (a best order's and a patched graph's rows are
 * the spec's, in their configuration), so the newest is taken per spec,
 * alignment, configuration, planner and options (and tag, when grouping by
 * it). The best bound is per problem: the graph row and the planned
 * problem's fingerprint. Columns a database lacks read as their defaults:
 * %s are, in order, the planner as named with its origin
 * (results/columns.h), the four planner options, inplace, inplace_bound,
 * order_mode, order_budget, patch, problem_fingerprint, fixed_lower_bound,
 * runs.tag, problem_fingerprint again, kernel_scratch, scratch_policy, then the tag's place in the partitions (twice) and the
 * join on it. A spec's problem (the graph row's fingerprint and the planned
 * problem's) is its newest result's, per configuration (and tag when
 * grouping by it): a result of another problem under that spec (a file
 * changed between runs) is older, and is marked stale. A result counts as
 * valid only when it is possible (bench merge leaves others out:
 * results/merge_check.h): a whole number of bytes at or above its
 * problem's lower bound and its own proven bound; else it is a failure,
 * never ranked, and its bound is no one's best. */
static const char query_fmt[] =
    "WITH allr AS (SELECT r.id, r.run_id, r.graph_id, %s AS planner, r.valid, r.arena_bytes,"
    "   r.status, r.bound, %s AS time_limit, %s AS node_limit, %s AS planner_seed,"
    "   %s AS capacity, %s AS inplace, %s AS lower_bound, %s AS order_mode,"
    "   %s AS order_budget, %s AS patch, %s AS problem_fp, %s AS fixed_lb, %s AS tag,"
    "   g.spec, g.alignment, g.fingerprint || ' ' || %s AS problem,"
    "   %s AS kscratch, %s AS kpolicy,"
    "   CASE WHEN instr(u.started_at, '.') THEN u.started_at"
    "        ELSE replace(u.started_at, 'Z', '.000Z') END AS started"
    "   FROM results r JOIN runs u ON u.id = r.run_id JOIN graphs g ON g.id = r.graph_id),"
    " sel AS (SELECT * FROM allr WHERE ?1 IS NULL OR run_id = ?1),"
    " newest AS (SELECT *, row_number() OVER (PARTITION BY spec, alignment, inplace,"
    "   order_mode, order_budget, patch, planner, time_limit, node_limit, planner_seed,"
    "   capacity, kscratch, kpolicy%s ORDER BY started DESC, run_id DESC,"
    "   id DESC) AS k FROM sel),"
    " latest AS (SELECT spec, alignment, inplace, order_mode, order_budget, patch, kscratch,"
    "   kpolicy, tag, problem, row_number() OVER (PARTITION BY spec, alignment, inplace,"
    "   order_mode, order_budget, patch, kscratch, kpolicy%s ORDER BY started DESC, run_id DESC, id DESC) AS k FROM sel),"
    " best AS (SELECT graph_id, problem_fp, max(bound) AS bound FROM allr WHERE valid = 1"
    "   AND typeof(arena_bytes) = 'integer' AND bound <= arena_bytes"
    "   GROUP BY graph_id, problem_fp)"
    " SELECT g.id, g.spec, g.family, g.params, g.alignment, n.lower_bound,"
    "   max(n.lower_bound, coalesce(b.bound, 0)), n.planner,"
    "   n.valid = 1 AND typeof(n.arena_bytes) = 'integer' AND n.arena_bytes >= n.lower_bound"
    "   AND n.arena_bytes >= coalesce(n.bound, 0), n.arena_bytes, n.status IS 'limit', n.run_id,"
    "   n.time_limit, n.node_limit, n.planner_seed, n.capacity, n.inplace, n.order_mode,"
    "   n.order_budget, n.patch, n.fixed_lb, n.tag,"
    "   n.problem IS NOT p.problem, n.kscratch, n.kpolicy"
    " FROM newest n JOIN graphs g ON g.id = n.graph_id"
    " LEFT JOIN best b ON b.graph_id = n.graph_id AND b.problem_fp IS n.problem_fp"
    " LEFT JOIN latest p ON p.k = 1 AND p.spec = n.spec AND p.alignment = n.alignment"
    "   AND p.inplace IS n.inplace AND p.order_mode IS n.order_mode"
    "   AND p.order_budget IS n.order_budget AND p.patch IS n.patch"
    "   AND p.kscratch IS n.kscratch AND p.kpolicy IS n.kpolicy%s"
    " WHERE n.k = 1";

static int wanted(const struct arena_stats_query *q, const char *planner)
{
    if (q && q->select && !arena_select_planner(q->select, planner)) return 0;
    if (!q || !q->n_planners) return 1;
    for (size_t i = 0; i < q->n_planners; i++)
        if (arena_planner_label_is(planner, q->planners[i])) return 1;
    return 0;
}

static void free_sample(struct sample *s)
{
    free(s->graph_key);
    free(s->base);
    free(s->family);
    free(s->params);
    free(s->planner);
}

/* A column's expression: "ALIAS.NAME", or dflt where the table lacks it. */
static void column(sqlite3 *db, const char *table, const char *alias, const char *name,
                   const char *dflt, char *buf, size_t len)
{
    if (has_column(db, table, name))
        snprintf(buf, len, "%s.%s", alias, name);
    else
        snprintf(buf, len, "%s", dflt);
}

static void text_field(sqlite3_stmt *st, int col, char *buf, size_t len, const char *dflt)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(buf, len, "%s", t ? (const char *)t : dflt);
}

static int read_samples(sqlite3 *db, const struct arena_stats_query *q, int64_t run,
                        struct sample **out, size_t *n, char *err, size_t errlen)
{
    static const char *const opts[] = {"time_limit", "node_limit", "planner_seed", "capacity"};
    enum { NC = 14 };
    char col[NC][260];
    for (size_t i = 0; i < 4; i++)
        column(db, "results", "r", opts[i], "NULL", col[i], sizeof col[i]);
    struct arena_db_config_sql c;
    arena_db_config_sql(db, &c);
    const char *cs[] = {c.inplace, c.lower_bound, c.order_mode, c.order_budget, c.patch,
                        c.problem_fp, c.fixed_lower_bound, c.tag};
    for (size_t i = 0; i < 8; i++) snprintf(col[4 + i], sizeof col[4 + i], "%s", cs[i]);
    snprintf(col[12], sizeof col[12], "%s", c.scratch);
    snprintf(col[13], sizeof col[13], "%s", c.scratch_policy);
    const struct arena_select *sel = q ? q->select : NULL;
    int by_tag = sel && sel->group_by == ARENA_GROUP_TAG;
    char sql[sizeof query_fmt + NC * 260 + sizeof c.planner + sizeof c.problem_fp + 64];
    snprintf(sql, sizeof sql, query_fmt, c.planner, col[0], col[1], col[2], col[3], col[4], col[5],
             col[6], col[7], col[8], col[9], col[10], col[11], c.problem_fp, col[12],
             col[13], by_tag ? ", tag" : "",
             by_tag ? ", tag" : "", by_tag ? " AND p.tag IS n.tag" : "");
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
        const char *spec = (const char *)sqlite3_column_text(st, 1);
        const char *family = (const char *)sqlite3_column_text(st, 2);
        const char *params = (const char *)sqlite3_column_text(st, 3);
        const char *tag = (const char *)sqlite3_column_text(st, 21);
        if (!spec) spec = "";
        if (!family) family = "";
        if (!params) params = "";
        if (!tag) tag = "";
        struct arena_config cfg;
        memset(&cfg, 0, sizeof cfg);
        text_field(st, 16, cfg.inplace, sizeof cfg.inplace, "none");
        text_field(st, 17, cfg.order, sizeof cfg.order, "stored");
        cfg.order_budget = sqlite3_column_int64(st, 18);
        text_field(st, 19, cfg.patch, sizeof cfg.patch, "");
        text_field(st, 23, cfg.scratch, sizeof cfg.scratch, "none");
        text_field(st, 24, cfg.scratch_policy, sizeof cfg.scratch_policy, "lifetime");
        cfg.alignment = sqlite3_column_int64(st, 4);
        char base[4096];
        arena_spec_base(spec, base, sizeof base);
        if (sel && (!arena_select_graph(sel, base, family) || !arena_select_tag(sel, tag) ||
                    !arena_select_config(sel, &cfg)))
            continue;
        char **keys = NULL;
        size_t nk = 0;
        status = arena_select_groups(sel, base, family, params, tag, &keys, &nk);
        for (size_t k = 0; status == ARENA_OK && k < nk; k++) {
            if (*n == cap) {
                cap = cap ? 2 * cap : 64;
                struct sample *grown = realloc(*out, cap * sizeof *grown);
                if (!grown) {
                    status = ARENA_ENOMEM;
                    break;
                }
                *out = grown;
            }
            struct sample *x = &(*out)[*n];
            memset(x, 0, sizeof *x);
            x->cfg = cfg;
            x->lb = (double)sqlite3_column_int64(st, 5);
            x->best = (double)sqlite3_column_int64(st, 6);
            x->valid = sqlite3_column_int(st, 8);
            x->arena = (double)sqlite3_column_int64(st, 9);
            x->limit = sqlite3_column_int(st, 10);
            x->run = sqlite3_column_int64(st, 11);
            x->fixed = (double)sqlite3_column_int64(st, 20); /* NULL: 0, unknown */
            struct arena_stats_options *o = &x->opt;
            if ((o->has_time_limit = sqlite3_column_type(st, 12) != SQLITE_NULL))
                o->time_limit = sqlite3_column_double(st, 12);
            if ((o->has_node_limit = sqlite3_column_type(st, 13) != SQLITE_NULL))
                o->node_limit = sqlite3_column_int64(st, 13);
            if ((o->has_planner_seed = sqlite3_column_type(st, 14) != SQLITE_NULL))
                o->planner_seed = sqlite3_column_int64(st, 14);
            if ((o->has_capacity = sqlite3_column_type(st, 15) != SQLITE_NULL))
                o->capacity = sqlite3_column_int64(st, 15);
            x->stale = sqlite3_column_int(st, 22);
            x->graph_key = keys[k];
            keys[k] = NULL;
            x->base = strdup(base);
            x->params = params_without_seed(params);
            x->family = strdup(family);
            x->planner = strdup(planner);
            (*n)++;
            if (!x->base || !x->params || !x->family || !x->planner) status = ARENA_ENOMEM;
        }
        for (size_t k = 0; k < nk; k++) free(keys[k]);
        free(keys);
        if (status != ARENA_OK) break;
    }
    if (status == ARENA_OK && rc != SQLITE_DONE)
        status = arena_errorf(err, errlen, 0, ARENA_EDB, "reading results: %s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return status;
}

static int by_base(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Each sample's graph: its base's rank among the bases read, so the rows
 * of a group pair on the graph, whatever rows of graphs it came from. */
static int number_graphs(struct sample *s, size_t n)
{
    char **bases = malloc((n ? n : 1) * sizeof *bases);
    if (!bases) return ARENA_ENOMEM;
    for (size_t i = 0; i < n; i++) bases[i] = s[i].base;
    qsort(bases, n, sizeof *bases, by_base);
    for (size_t i = 0; i < n; i++) {
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (strcmp(bases[mid], s[i].base) < 0) lo = mid + 1;
            else hi = mid;
        }
        s[i].graph = (int64_t)lo; /* the first of equal bases */
    }
    free(bases);
    return ARENA_OK;
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
    int *shown;      /* configuration is a row: some valid result, and not
                        left out of the pairing */
    size_t *n_valid; /* graphs (lower bound above 0) it has a valid result on */
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
    free(w->n_valid);
    free(w->x);
    free(w->runs);
}

/* The pairing never shrinks for a configuration valid on fewer graphs
 * than the rest: those valid on the most graphs (m) pair on the graphs
 * they all have (P); another stays a row only when it is valid on every
 * graph of P, and is left out of the pairing otherwise (shown 0, counted
 * in n_valid: hidden, and said). Uses have[] as scratch; leaves it 0. */
static void leave_out_the_fewer(struct group_work *w, const struct sample *s, size_t configs,
                                size_t n_graphs)
{
    size_t m = 0, top = 0, in_p = 0;
    for (size_t c = 0; c < configs; c++) {
        w->n_valid[c] = 0;
        for (size_t i = w->start[c]; i < w->start[c + 1]; i++)
            w->n_valid[c] += s[i].valid && s[i].lb > 0;
        if (w->shown[c] && w->n_valid[c] > m) m = w->n_valid[c];
    }
    for (size_t c = 0; c < configs; c++) {
        if (!w->shown[c] || w->n_valid[c] != m) continue;
        top++;
        for (size_t i = w->start[c]; i < w->start[c + 1]; i++)
            if (s[i].valid && s[i].lb > 0) w->have[index_of(w->graphs, n_graphs, s[i].graph)]++;
    }
    for (size_t k = 0; k < n_graphs; k++) in_p += w->have[k] == top;
    for (size_t c = 0; c < configs; c++) {
        if (!w->shown[c] || w->n_valid[c] == m) continue;
        size_t covers = 0;
        for (size_t i = w->start[c]; i < w->start[c + 1]; i++)
            covers += s[i].valid && s[i].lb > 0 &&
                      w->have[index_of(w->graphs, n_graphs, s[i].graph)] == top;
        if (covers < in_p) w->shown[c] = 0;
    }
    for (size_t k = 0; k < n_graphs; k++) w->have[k] = 0;
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
    row->key = strdup(s->graph_key);
    row->family = strdup(s->family);
    row->params = strdup(s->params);
    /* the graph part as group by graph names it, whatever the grouping */
    size_t len = strlen(s->family) + strlen(s->params) + 2;
    row->graph = malloc(len);
    if (row->graph) {
        if (s->params[0]) snprintf(row->graph, len, "%s:%s", s->family, s->params);
        else if (strcmp(s->family, "csv") && strcmp(s->family, "graph-file") &&
                 strcmp(s->family, "tflite") && strcmp(s->family, "onnx"))
            snprintf(row->graph, len, "%s", s->family);
        else {
            free(row->graph);
            row->graph = strdup(s->base);
        }
    }
    row->alignment = s->cfg.alignment;
    row->config = s->cfg;
    row->options = s->opt;
    row->lb.mean = row->lb.median = NAN;
    row->lb.mean_lo = row->lb.mean_hi = row->lb.median_lo = row->lb.median_hi = NAN;
    row->best = row->lb;
    row->fixed = row->lb;
    return row->planner && row->key && row->graph && row->family && row->params ? ARENA_OK
                                                                                : ARENA_ENOMEM;
}

/* The figures of x[0..m): with one sample, the value and no interval. */
static int describe(double *x, size_t m, struct arena_stat *out)
{
    if (m != 1) return arena_stats_describe(x, m, out);
    out->mean = out->median = x[0];
    out->mean_lo = out->mean_hi = out->median_lo = out->median_hi = NAN;
    return ARENA_OK;
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
    w.n_valid = calloc(n, sizeof *w.n_valid);
    w.x = malloc(n * sizeof *w.x);
    w.runs = malloc(n * sizeof *w.runs);
    if (!w.graphs || !w.lb || !w.have || !w.start || !w.shown || !w.n_valid || !w.x || !w.runs) {
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
        configs++;
        a = b;
    }
    w.start[configs] = n;
    leave_out_the_fewer(&w, s, configs, n_graphs);
    for (size_t c = 0; c < configs; c++) {
        rows += (size_t)w.shown[c];
        for (size_t i = w.start[c]; i < w.start[c + 1] && w.shown[c]; i++)
            if (s[i].valid) w.have[index_of(w.graphs, n_graphs, s[i].graph)]++;
    }
    size_t n_used = 0;
    for (size_t k = 0; k < n_graphs; k++) n_used += w.lb[k] > 0 && w.have[k] == rows;
    int has_best = 0, has_fixed = arena_config_transforms(&s[0].cfg) && n_used > 0;
    for (size_t i = 0; i < n; i++) {
        has_best |= used(&w, n_graphs, rows, &s[i]) && s[i].best > s[i].lb;
        if (used(&w, n_graphs, rows, &s[i]) && !(s[i].fixed > 0)) has_fixed = 0;
    }

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
        row->has_fixed = has_fixed;
        row->n_left_out = n_graphs - n_used;
        row->n_absent = n_graphs - (b - a);
        row->n_valid = w.n_valid[c];
        row->unpaired = !w.shown[c] && w.n_valid[c] > 0;
        if (row->unpaired) row->n_left_out = n_graphs; /* none of them among its n */
        size_t m = 0;
        for (size_t i = a; i < b; i++) {
            row->n_failed += !s[i].valid;
            if (!w.shown[c] || !used(&w, n_graphs, rows, &s[i])) continue;
            row->limit += (size_t)s[i].limit;
            w.runs[m] = s[i].run;
            w.x[m++] = s[i].arena / s[i].lb;
        }
        row->n = m;
        row->runs = distinct(w.runs, m);
        if (rc == ARENA_OK && m) rc = describe(w.x, m, &row->lb);
        m = 0;
        for (size_t i = a; i < b && w.shown[c]; i++)
            if (used(&w, n_graphs, rows, &s[i])) w.x[m++] = s[i].arena / s[i].best;
        if (rc == ARENA_OK && m && has_best) rc = describe(w.x, m, &row->best);
        m = 0;
        for (size_t i = a; i < b && w.shown[c]; i++)
            if (used(&w, n_graphs, rows, &s[i])) w.x[m++] = s[i].arena / s[i].fixed;
        if (rc == ARENA_OK && m && has_fixed) rc = describe(w.x, m, &row->fixed);
    }
    /* One graph: its figures, no pairs (and no interval, above). */
    if (n_used < 2) {
        work_free(&w);
        return rc;
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

/* The stale samples of group g (one of its samples) on its rows[0..n):
 * how many, and their planners. */
static int note_superseded(struct arena_stats_row *rows, size_t n, const struct sample *g,
                           const struct sample *stale, size_t n_stale)
{
    size_t count = 0, len = 1;
    for (size_t i = 0; i < n_stale; i++)
        if (cmp_group(&stale[i], g) == 0) count++, len += strlen(stale[i].planner) + 2;
    if (!count) return ARENA_OK;
    for (size_t r = 0; r < n; r++) {
        char *names = malloc(len);
        if (!names) return ARENA_ENOMEM;
        names[0] = '\0';
        for (size_t i = 0; i < n_stale; i++) {
            if (cmp_group(&stale[i], g) != 0) continue;
            const char *p = stale[i].planner;
            size_t k = strlen(p), seen = 0;
            for (const char *q = strstr(names, p); q && !seen; q = strstr(q + 1, p))
                seen = (q == names || q[-1] == ' ') && (q[k] == ',' || q[k] == '\0');
            if (!seen) snprintf(names + strlen(names), len - strlen(names), "%s%s",
                                names[0] ? ", " : "", p);
        }
        rows[r].n_superseded = count;
        rows[r].superseded = names;
    }
    return ARENA_OK;
}

/* Appends " name=value" to buf (len bytes, used so far). */
static void append(char *buf, size_t len, const char *fmt, const char *name, const char *value)
{
    size_t used = strlen(buf);
    if (used < len) snprintf(buf + used, len - used, fmt, name, value);
}

enum { TIME_LIMIT, NODE_LIMIT, PLANNER_SEED, CAPACITY, OPTIONS };
static const char *const option_name[OPTIONS] = {"time_limit", "node_limit", "planner_seed",
                                                 "capacity"};

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
    default:
        snprintf(buf, len, "%lld", (long long)o->capacity);
        return o->has_capacity;
    }
}

/* Group labels and row labels: a field is shown when its values differ
 * between the rows shown (for an option: two set values differ, or one
 * planner has rows with and without it). */
static int label_rows(struct arena_stats *out, const struct arena_stats_query *q)
{
    size_t n = out->n_rows + out->n_hidden;
    struct arena_stats_row **all = malloc((n ? n : 1) * sizeof *all);
    const char **ids = malloc((n ? n : 1) * sizeof *ids);
    char **names = calloc(n ? n : 1, sizeof *names);
    size_t *id_of = malloc((n ? n : 1) * sizeof *id_of), n_ids = 0;
    if (!all || !ids || !names || !id_of) {
        free(all), free(ids), free(names), free(id_of);
        return ARENA_ENOMEM;
    }
    for (size_t i = 0; i < out->n_rows; i++) all[i] = &out->rows[i];
    for (size_t i = 0; i < out->n_hidden; i++) all[out->n_rows + i] = &out->hidden[i];
    for (size_t i = 0; i < n; i++) { /* the distinct planners shown, labelled together */
        size_t k = 0;
        while (k < n_ids && strcmp(ids[k], all[i]->planner) != 0) k++;
        if (k == n_ids) ids[n_ids++] = all[i]->planner;
        id_of[i] = k;
    }
    int rc = arena_planner_labels(ids, n_ids, q ? q->renames : NULL, q ? q->n_renames : 0, names);
    int align_varies = 0, config_varies = 0, budget_varies = 0;
    const struct arena_config *best = NULL; /* budgets differ among best orders only */
    for (size_t i = 0; i < n; i++) {
        align_varies |= all[i]->alignment != all[0]->alignment;
        config_varies |= arena_config_cmp(&all[i]->config, &all[0]->config) != 0;
        if (strcmp(all[i]->config.order, "best") != 0) continue;
        budget_varies |= best && all[i]->config.order_budget != best->order_budget;
        best = &all[i]->config;
    }
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
    for (size_t i = 0; i < n && rc == ARENA_OK; i++) {
        struct arena_stats_row *r = all[i];
        char buf[1024], cfg[256];
        arena_config_label(&r->config, align_varies, budget_varies, cfg, sizeof cfg);
        r->config_label = strdup(cfg);
        snprintf(buf, sizeof buf, "%s", r->key);
        if (config_varies || arena_config_transforms(&r->config))
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " \xC2\xB7 %s", cfg);
        r->group = strdup(buf);
        snprintf(buf, sizeof buf, "%s", names[id_of[i]]);
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
        if (!r->group || !r->label || !r->config_label) rc = ARENA_ENOMEM;
    }
    for (size_t k = 0; k < n_ids; k++) free(names[k]);
    free(all), free(ids), free(names), free(id_of);
    return rc;
}

/* The selected runs a signal stopped (run: a runs.id, 0: all), as lines
 * "run ID: HOW" in out->stopped. */
static int read_stopped(sqlite3 *db, int64_t run, struct arena_stats *out)
{
    if (!has_column(db, "runs", "stopped")) return ARENA_OK;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT id, stopped FROM runs WHERE stopped IS NOT NULL"
                                    " AND (?1 = 0 OR id = ?1) ORDER BY id", -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 1, run);
    int status = rc == SQLITE_OK ? ARENA_OK : ARENA_EDB;
    while (status == ARENA_OK && sqlite3_step(st) == SQLITE_ROW) {
        const char *how = (const char *)sqlite3_column_text(st, 1);
        size_t len = (how ? strlen(how) : 0) + 32;
        char **grown = realloc(out->stopped, (out->n_stopped + 1) * sizeof *grown);
        char *line = grown ? malloc(len) : NULL;
        if (grown) out->stopped = grown;
        if (!line) {
            status = ARENA_ENOMEM;
            break;
        }
        snprintf(line, len, "run %lld: %s", (long long)sqlite3_column_int64(st, 0),
                 how ? how : "");
        out->stopped[out->n_stopped++] = line;
    }
    sqlite3_finalize(st);
    return status;
}

int arena_stats_compute_query(const char *path, const struct arena_stats_query *q,
                              struct arena_stats *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (err && errlen) err[0] = '\0';
    sqlite3 *db = NULL;
    int rc = arena_db_open(path, ARENA_DB_READ, NULL, &db, NULL, err, errlen);
    if (rc != ARENA_OK) return rc == ARENA_ENOTFOUND ? ARENA_EDB : rc;
    struct sample *s = NULL;
    size_t n = 0;
    char why[400] = "";
    int64_t run = 0;
    /* what stats reads in every schema (4 and later); later columns read
     * as their defaults */
    static const char *const need[] = {
        "runs.started_at", "graphs.spec", "graphs.family", "graphs.params", "graphs.alignment",
        "graphs.lower_bound", "results.planner", "results.valid", "results.arena_bytes",
        "results.status", "results.bound", NULL};
    int status = arena_db_check(db, path, "bench stats", need, NULL, err, errlen);
    if (status == ARENA_OK && q && q->run && strcmp(q->run, "all") != 0)
        status = resolve_run(db, path, q->run, &run, err, errlen);
    if (status == ARENA_OK) {
        status = read_samples(db, q, run, &s, &n, why, sizeof why);
        if (status == ARENA_EDB) arena_errorf(err, errlen, 0, ARENA_EDB, "%s: %s", path, why);
    }
    if (status == ARENA_OK && (status = read_stopped(db, run, out)) == ARENA_EDB)
        arena_errorf(err, errlen, 0, ARENA_EDB, "%s: reading runs.stopped: %s", path,
                     sqlite3_errmsg(db));
    sqlite3_close(db);
    if (status == ARENA_OK) status = number_graphs(s, n);
    if (status == ARENA_OK) qsort(s, n, sizeof *s, by_stale_sample);
    size_t fresh = 0; /* the samples of each spec's newest problem come first */
    while (fresh < n && !s[fresh].stale) fresh++;
    for (size_t a = 0; status == ARENA_OK && a < fresh;) {
        size_t b = a;
        while (b < fresh && cmp_group(&s[b], &s[a]) == 0) b++;
        size_t first = out->n_rows;
        status = add_group(out, s + a, b - a);
        if (status == ARENA_OK)
            status = note_superseded(out->rows + first, out->n_rows - first, &s[a], s + fresh,
                                     n - fresh);
        a = b;
    }
    if (status == ARENA_OK) status = label_rows(out, q);
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
        free(r->key);
        free(r->config_label);
        free(r->graph);
        free(r->family);
        free(r->params);
        free(r->superseded);
    }
    free(rows);
}

void arena_stats_free(struct arena_stats *s)
{
    if (!s) return;
    free_rows(s->rows, s->n_rows);
    free_rows(s->hidden, s->n_hidden);
    free(s->pairs);
    for (size_t i = 0; i < s->n_stopped; i++) free(s->stopped[i]);
    free(s->stopped);
    memset(s, 0, sizeof *s);
}
