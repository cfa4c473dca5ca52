/* figdata.c — reading a results database for bench plot (figdata.h). */
#include "results/figdata.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planners/status.h"
#include "results/columns.h"
#include "results/db.h"

struct arena_figdb {
    sqlite3 *db;
    const char *path;
    int version;
    int has_bound, has_seq, has_place_name, has_replays, has_noisy, has_claims, has_self;
    int has_head; /* results.head_bytes and whole_arena (schema 17) */
    struct arena_db_config_sql cfg; /* the configuration's columns */
    const char *note;
};

static char *dup_text(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return t ? strdup((const char *)t) : NULL;
}

static int db_error(struct arena_figdb *h, char *err, size_t errlen, const char *what)
{
    return arena_errorf(err, errlen, 0, ARENA_EDB, "%s: %s: %s", h->path, what,
                        sqlite3_errmsg(h->db));
}

static int prepare(struct arena_figdb *h, const char *sql, sqlite3_stmt **st, char *err,
                   size_t errlen)
{
    if (sqlite3_prepare_v2(h->db, sql, -1, st, NULL) != SQLITE_OK)
        return db_error(h, err, errlen, "cannot read");
    return ARENA_OK;
}

int arena_figdb_open(const char *path, struct arena_figdb **out, char *err, size_t errlen)
{
    *out = NULL;
    struct arena_figdb *h = calloc(1, sizeof *h);
    if (!h) return ARENA_ENOMEM;
    h->path = path;
    int rc = arena_db_open(path, ARENA_DB_READ, NULL, &h->db, &h->note, err, errlen);
    if (rc == ARENA_ENOTFOUND)
        arena_errorf(err, errlen, 0, rc, "no database at %s (run bench first, or pass --db)",
                     path);
    if (rc != ARENA_OK) {
        free(h);
        return rc;
    }
    /* what plot reads in every schema from version 2 on */
    static const char *const need[] = {
        "runs.started_at", "graphs.spec", "graphs.family", "graphs.params", "graphs.alignment",
        "graphs.tensors", "graphs.naive_bytes", "graphs.lower_bound", "results.planner",
        "results.valid", "results.arena_bytes", "results.ratio_lb", "results.saving",
        "results.frag_peak", "results.frag_mean", "results.plan_ns_median",
        "results.plan_ns_mean", "results.plan_ns_stddev", "results.iterations",
        "results.scratch_bytes", "placements.result_id", "placements.tensor", "placements.size",
        "placements.first", "placements.last", "placements.offset", NULL};
    static const char *const none[] = {NULL};
    rc = arena_db_check(h->db, path, "bench plot", none, &h->version, err, errlen);
    if (!rc && h->version < 2)
        rc = arena_errorf(err, errlen, 0, ARENA_EDB,
                          "%s has the older schema version %d; one bench run with --db on it"
                          " migrates it forward",
                          path, h->version);
    if (!rc) rc = arena_db_check(h->db, path, "bench plot", need, NULL, err, errlen);
    h->has_bound = arena_db_has_column(h->db, "results", "bound");
    h->has_seq = arena_db_has_column(h->db, "results", "seq");
    h->has_place_name = arena_db_has_column(h->db, "placements", "name");
    h->has_replays = arena_db_has_column(h->db, "replay_frames", "footprint_peak");
    h->has_noisy = arena_db_has_column(h->db, "results", "noisy");
    h->has_claims = arena_db_has_column(h->db, "results", "claimed_status");
    h->has_self = arena_db_has_column(h->db, "results", "self_ns");
    h->has_head = arena_db_has_column(h->db, "results", "whole_arena");
    arena_db_config_sql(h->db, &h->cfg);
    if (rc) {
        arena_figdb_close(h);
        return rc;
    }
    *out = h;
    return ARENA_OK;
}

void arena_figdb_close(struct arena_figdb *h)
{
    if (!h) return;
    sqlite3_close(h->db);
    free(h);
}

const char *arena_figdb_note(const struct arena_figdb *h)
{
    return h->note;
}

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap) return ARENA_OK;
    size_t c = *cap ? 2 * *cap : 16;
    void *g = realloc(*p, c * size);
    if (!g) return ARENA_ENOMEM;
    *p = g;
    *cap = c;
    return ARENA_OK;
}

static int select_runs(struct arena_figdb *h, int64_t run, struct arena_fig_data *d, char *err,
                       size_t errlen)
{
    sqlite3_stmt *st;
    int rc;
    if (run > 0) {
        int64_t found = 0, with = 0;
        rc = prepare(h, "SELECT count(*), (SELECT count(*) FROM results WHERE run_id = ?1)"
                        " FROM runs WHERE id = ?1", &st, err, errlen);
        if (rc) return rc;
        sqlite3_bind_int64(st, 1, run);
        if (sqlite3_step(st) == SQLITE_ROW) {
            found = sqlite3_column_int64(st, 0);
            with = sqlite3_column_int64(st, 1);
        }
        sqlite3_finalize(st);
        if (!found)
            return arena_errorf(err, errlen, 0, ARENA_ENOTFOUND, "unknown run %lld in %s",
                                (long long)run, h->path);
        if (!with)
            return arena_errorf(err, errlen, 0, ARENA_ENOTFOUND, "run %lld in %s has no results",
                                (long long)run, h->path);
        d->runs = malloc(sizeof *d->runs);
        if (!d->runs) return ARENA_ENOMEM;
        d->runs[0] = run;
        d->n_runs = 1;
        return ARENA_OK;
    }
    rc = prepare(h, "SELECT id FROM runs r WHERE EXISTS (SELECT 1 FROM results WHERE run_id = r.id)"
                    " ORDER BY started_at DESC, id DESC LIMIT ?1", &st, err, errlen);
    if (rc) return rc;
    sqlite3_bind_int64(st, 1, run < 0 ? 1 : -1);
    size_t cap = 0;
    int s = SQLITE_DONE;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        if (grow((void **)&d->runs, &cap, d->n_runs, sizeof *d->runs)) {
            sqlite3_finalize(st);
            return ARENA_ENOMEM;
        }
        d->runs[d->n_runs++] = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    if (s != SQLITE_DONE) return db_error(h, err, errlen, "cannot read runs");
    if (!d->n_runs)
        return arena_errorf(err, errlen, 0, ARENA_ENOTFOUND,
                            "%s holds no results yet (run bench first)", h->path);
    return ARENA_OK;
}

/* Rows newest first: run start, run id, then the run's own order. The
 * configuration's columns are the schema's (results/columns.h). */
static const char results_sql[] =
    "SELECT r.id, r.run_id, r.graph_id, %s, r.valid = 1 AND r.arena_bytes IS NOT NULL,"
    " r.arena_bytes, r.ratio_lb, r.saving, r.frag_peak, r.frag_mean, r.plan_ns_median,"
    " r.plan_ns_mean, r.plan_ns_stddev, r.iterations, r.scratch_bytes, %s,"
    " g.spec, g.family, g.params, g.alignment, g.tensors, g.naive_bytes, %s, %s, %s, %s, %s,"
    " %s, %s, %s, %s, %s, g.fingerprint || ' ' || %s, %s, %s, %s, %s, %s"
    " FROM results r JOIN runs u ON u.id = r.run_id JOIN graphs g ON g.id = r.graph_id"
    " WHERE ?1 = 0 OR r.run_id = ?1"
    " ORDER BY u.started_at DESC, u.id DESC, %s DESC";
enum {
    C_STATUS = 15, C_SPEC = 18, C_FAMILY, C_PARAMS, C_ALIGN, C_TENSORS, C_NAIVE, C_LB, C_RULE,
    C_ORDER, C_BUDGET, C_PATCH, C_FIXED, C_OB, C_OSTATUS, C_TAG, C_NOISY, C_ONCE, C_PROBLEM,
    C_CLAIMED, C_SELF, C_SCRATCH, C_SPOLICY, C_DEVICE, C_HEAD, C_WHOLE
};

/* The entry of (base, config), or n when there is none. */
static size_t find_entry(const struct arena_fig_data *d, size_t base, size_t config)
{
    for (size_t i = d->n_graphs; i-- > 0;)
        if (d->graphs[i].base == base && d->graphs[i].config == config) return i;
    return d->n_graphs;
}

/* Rows by graph, planner, then the order read (newest first). */
static int by_pair(const void *a, const void *b)
{
    const struct arena_fig_result *x = a, *y = b;
    if (x->graph != y->graph) return x->graph < y->graph ? -1 : 1;
    int c = strcmp(x->planner, y->planner);
    if (c) return c;
    return (x->read_order > y->read_order) - (x->read_order < y->read_order);
}

static void result_free(struct arena_fig_result *r)
{
    free(r->planner);
    free(r->status);
    free(r->claimed);
}

/* Keeps the first (newest) row of each graph x planner. */
static void keep_newest(struct arena_fig_data *d)
{
    if (d->n_results) qsort(d->results, d->n_results, sizeof *d->results, by_pair);
    size_t kept = 0;
    for (size_t i = 0; i < d->n_results; i++) {
        if (kept && d->results[kept - 1].graph == d->results[i].graph &&
            strcmp(d->results[kept - 1].planner, d->results[i].planner) == 0) {
            result_free(&d->results[i]);
            continue;
        }
        d->results[kept++] = d->results[i];
    }
    d->n_results = kept;
}

/* Order of first measurement: sorts by the smallest result id among rows. */
struct order { int64_t first; size_t idx; };
static int by_first(const void *a, const void *b)
{
    const struct order *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

/* Index lists in the order of first measurement: perm[new] = old. */
static int first_order(const int64_t *first, size_t n, size_t *perm)
{
    struct order *o = malloc((n + 1) * sizeof *o);
    if (!o) return ARENA_ENOMEM;
    for (size_t i = 0; i < n; i++) o[i] = (struct order){first[i], i};
    qsort(o, n, sizeof *o, by_first);
    for (size_t i = 0; i < n; i++) perm[i] = o[i].idx;
    free(o);
    return ARENA_OK;
}

/* Where the rows read so far are kept while reading. */
struct reading {
    int64_t *gfirst, *pfirst, *cfirst, *bfirst;
    size_t gcap, rcap, pcap, ccap, bcap, gfcap, pfcap, cfcap, bfcap;
};

static void text_col(sqlite3_stmt *st, int col, char *buf, size_t len, const char *dflt)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(buf, len, "%s", t ? (const char *)t : dflt);
}

/* The place of text in list[0, *n), appended (a copy, and rid as the
 * first id it was seen with) when it is not there; the first id kept the
 * smallest. ARENA_ENOMEM. */
static int intern(char ***list, size_t *n, size_t *cap, int64_t **first, size_t *fcap,
                  const char *text, int64_t rid, size_t *at)
{
    size_t i;
    for (i = 0; i < *n && strcmp((*list)[i], text) != 0; i++) {}
    if (i == *n) {
        if (grow((void **)list, cap, *n, sizeof **list) ||
            grow((void **)first, fcap, *n, sizeof **first) || !((*list)[*n] = strdup(text)))
            return ARENA_ENOMEM;
        (*first)[(*n)++] = rid;
    }
    if (rid < (*first)[i]) (*first)[i] = rid;
    *at = i;
    return ARENA_OK;
}

/* Index of v (an id among first[]) kept up to date: the smallest id. */
static void seen_at(int64_t *first, size_t i, int64_t rid)
{
    if (rid < first[i]) first[i] = rid;
}

/* A result of an older problem under g's spec and configuration: counted,
 * its planner named once; left out (1). */
static int superseded(struct arena_fig_graph *g, const char *planner)
{
    g->superseded++;
    const char *had = g->superseded_planners ? g->superseded_planners : "";
    for (const char *p = had; *p;) { /* "a, b": each name once */
        size_t len = strcspn(p, ",");
        if (len == strlen(planner) && strncmp(p, planner, len) == 0) return 1;
        p += len;
        p += strspn(p, ", ");
    }
    size_t len = strlen(had) + strlen(planner) + 3;
    char *grown = malloc(len);
    if (!grown) return ARENA_ENOMEM;
    snprintf(grown, len, "%s%s%s", had, *had ? ", " : "", planner);
    free(g->superseded_planners);
    g->superseded_planners = grown;
    return 1;
}

/* Reads one row into d; 1 when a filter leaves it out. */
static int read_row(struct arena_figdb *h, sqlite3_stmt *st, const struct arena_select *sel,
                    struct arena_fig_data *d, struct reading *w)
{
    int64_t rid = sqlite3_column_int64(st, 0);
    const char *planner = (const char *)sqlite3_column_text(st, 3);
    const char *spec = (const char *)sqlite3_column_text(st, C_SPEC);
    const char *family = (const char *)sqlite3_column_text(st, C_FAMILY);
    const char *tag = (const char *)sqlite3_column_text(st, C_TAG);
    if (!planner) planner = "";
    char base[4096];
    arena_spec_base(spec ? spec : "", base, sizeof base);
    struct arena_config cfg;
    memset(&cfg, 0, sizeof cfg);
    text_col(st, C_RULE, cfg.inplace, sizeof cfg.inplace, "none");
    text_col(st, C_ORDER, cfg.order, sizeof cfg.order, "stored");
    cfg.order_budget = sqlite3_column_int64(st, C_BUDGET);
    text_col(st, C_PATCH, cfg.patch, sizeof cfg.patch, "");
    text_col(st, C_SCRATCH, cfg.scratch, sizeof cfg.scratch, "none");
    text_col(st, C_SPOLICY, cfg.scratch_policy, sizeof cfg.scratch_policy, "lifetime");
    cfg.alignment = sqlite3_column_int64(st, C_ALIGN);
    if (sel && (!arena_select_graph(sel, base, family ? family : "") ||
                !arena_select_tag(sel, tag ? tag : "") || !arena_select_config(sel, &cfg)))
        return 1;
    (void)h;
    size_t c;
    for (c = 0; c < d->n_configs && arena_config_cmp(&d->configs[c].c, &cfg) != 0; c++) {}
    if (c == d->n_configs) {
        if (grow((void **)&d->configs, &w->ccap, d->n_configs, sizeof *d->configs) ||
            grow((void **)&w->cfirst, &w->cfcap, d->n_configs, sizeof *w->cfirst))
            return ARENA_ENOMEM;
        d->configs[d->n_configs] = (struct arena_fig_config){.c = cfg, .label = NULL};
        w->cfirst[d->n_configs++] = rid;
    }
    seen_at(w->cfirst, c, rid);
    size_t b;
    if (intern(&d->bases, &d->n_bases, &w->bcap, &w->bfirst, &w->bfcap, base, rid, &b))
        return ARENA_ENOMEM;
    size_t g = find_entry(d, b, c);
    const char *problem = (const char *)sqlite3_column_text(st, C_PROBLEM);
    if (!problem) problem = "";
    if (g < d->n_graphs && strcmp(d->graphs[g].problem, problem) != 0)
        return superseded(&d->graphs[g], planner);
    if (g == d->n_graphs) { /* the newest row of the problem states its facts */
        if (grow((void **)&d->graphs, &w->gcap, d->n_graphs, sizeof *d->graphs) ||
            grow((void **)&w->gfirst, &w->gfcap, d->n_graphs, sizeof *w->gfirst))
            return ARENA_ENOMEM;
        struct arena_fig_graph *G = &d->graphs[d->n_graphs];
        memset(G, 0, sizeof *G);
        G->id = sqlite3_column_int64(st, 2);
        G->config = c;
        G->base = b;
        G->spec = strdup(base);
        G->family = dup_text(st, C_FAMILY);
        G->params = dup_text(st, C_PARAMS);
        G->alignment = cfg.alignment;
        G->tensors = sqlite3_column_int64(st, C_TENSORS);
        G->naive = sqlite3_column_int64(st, C_NAIVE);
        G->lower_bound = sqlite3_column_int64(st, C_LB);
        G->fixed_lower_bound = sqlite3_column_int64(st, C_FIXED); /* NULL reads 0 */
        G->order_bound = sqlite3_column_int64(st, C_OB);
        G->order_limit = sqlite3_column_type(st, C_OSTATUS) == SQLITE_TEXT &&
                         strcmp((const char *)sqlite3_column_text(st, C_OSTATUS), "limit") == 0;
        G->problem = strdup(problem);
        w->gfirst[d->n_graphs] = rid;
        g = d->n_graphs++;
        if (!G->family) G->family = strdup("");
        if (!G->params) G->params = strdup("");
        if (!G->spec || !G->family || !G->params || !G->problem) return ARENA_ENOMEM;
    }
    seen_at(w->gfirst, g, rid);
    size_t p;
    if (intern(&d->planners, &d->n_planners, &w->pcap, &w->pfirst, &w->pfcap, planner, rid, &p))
        return ARENA_ENOMEM;
    if (grow((void **)&d->results, &w->rcap, d->n_results, sizeof *d->results))
        return ARENA_ENOMEM;
    struct arena_fig_result *r = &d->results[d->n_results++];
    memset(r, 0, sizeof *r);
    r->id = rid;
    r->read_order = d->n_results;
    r->run_id = sqlite3_column_int64(st, 1);
    r->graph_id = sqlite3_column_int64(st, 2);
    r->graph = g;
    r->planner = strdup(planner);
    r->ok = sqlite3_column_int(st, 4);
    r->arena = sqlite3_column_int64(st, 5);
    r->has_ratio = sqlite3_column_type(st, 6) != SQLITE_NULL;
    r->ratio_lb = sqlite3_column_double(st, 6);
    r->has_saving = sqlite3_column_type(st, 7) != SQLITE_NULL;
    r->saving = sqlite3_column_double(st, 7);
    r->has_frag = sqlite3_column_type(st, 8) != SQLITE_NULL;
    r->frag_peak = sqlite3_column_double(st, 8);
    r->frag_mean = sqlite3_column_double(st, 9);
    r->has_ns = sqlite3_column_type(st, 10) != SQLITE_NULL;
    r->ns_median = sqlite3_column_double(st, 10);
    r->ns_mean = sqlite3_column_double(st, 11);
    r->ns_stddev = sqlite3_column_double(st, 12);
    r->iterations = sqlite3_column_int64(st, 13);
    r->has_scratch = sqlite3_column_type(st, 14) != SQLITE_NULL;
    r->scratch = sqlite3_column_int64(st, 14);
    r->status = dup_text(st, C_STATUS);
    r->claimed = dup_text(st, C_CLAIMED);
    r->has_bound = sqlite3_column_type(st, C_STATUS + 1) != SQLITE_NULL;
    r->bound = sqlite3_column_int64(st, C_STATUS + 1);
    r->nodes = sqlite3_column_int64(st, C_STATUS + 2);
    r->noisy = sqlite3_column_int(st, C_NOISY);
    r->timed_once = sqlite3_column_int(st, C_ONCE);
    r->has_self_ns = sqlite3_column_type(st, C_SELF) != SQLITE_NULL;
    r->self_ns = (double)sqlite3_column_int64(st, C_SELF);
    r->device = sqlite3_column_int64(st, C_DEVICE);
    r->head = sqlite3_column_int64(st, C_HEAD);
    r->whole = sqlite3_column_int64(st, C_WHOLE);
    return r->planner ? ARENA_OK : ARENA_ENOMEM;
}

/* Every list in the order first measured; results follow their graph. */
static int reorder(struct arena_fig_data *d, struct reading *w)
{
    size_t n = d->n_graphs + d->n_planners + d->n_configs + d->n_bases + 1;
    size_t *perm = malloc(n * sizeof *perm), *where = malloc(n * sizeof *where);
    void *tmp = malloc(n * (sizeof(struct arena_fig_graph) + sizeof(struct arena_fig_config)));
    int rc = perm && where && tmp ? ARENA_OK : ARENA_ENOMEM;
    if (!rc) rc = first_order(w->cfirst, d->n_configs, perm);
    if (!rc) { /* configurations */
        struct arena_fig_config *c2 = tmp;
        for (size_t i = 0; i < d->n_configs; i++) c2[i] = d->configs[perm[i]], where[perm[i]] = i;
        if (d->n_configs) memcpy(d->configs, c2, d->n_configs * sizeof *c2);
        for (size_t i = 0; i < d->n_graphs; i++) d->graphs[i].config = where[d->graphs[i].config];
    }
    if (!rc) rc = first_order(w->bfirst, d->n_bases, perm);
    if (!rc) { /* graphs' specs */
        char **b2 = tmp;
        for (size_t i = 0; i < d->n_bases; i++) b2[i] = d->bases[perm[i]], where[perm[i]] = i;
        if (d->n_bases) memcpy(d->bases, b2, d->n_bases * sizeof *b2);
        for (size_t i = 0; i < d->n_graphs; i++) d->graphs[i].base = where[d->graphs[i].base];
    }
    if (!rc) rc = first_order(w->gfirst, d->n_graphs, perm);
    if (!rc) { /* graph x configuration */
        struct arena_fig_graph *g2 = tmp;
        for (size_t i = 0; i < d->n_graphs; i++) g2[i] = d->graphs[perm[i]], where[perm[i]] = i;
        if (d->n_graphs) memcpy(d->graphs, g2, d->n_graphs * sizeof *g2);
        for (size_t i = 0; i < d->n_results; i++) d->results[i].graph = where[d->results[i].graph];
        keep_newest(d);
    }
    if (!rc) rc = first_order(w->pfirst, d->n_planners, perm);
    if (!rc) {
        char **p2 = tmp;
        for (size_t i = 0; i < d->n_planners; i++) p2[i] = d->planners[perm[i]];
        if (d->n_planners) memcpy(d->planners, p2, d->n_planners * sizeof *p2);
    }
    free(perm);
    free(where);
    free(tmp);
    return rc;
}

/* Each configuration's label, with the alignment (the budget) when the
 * configurations read differ in it. */
static int label_configs(struct arena_fig_data *d)
{
    int aligns = 0, budgets = 0;
    const struct arena_config *best = NULL; /* budgets differ among best orders only */
    for (size_t i = 0; i < d->n_configs; i++) {
        const struct arena_config *c = &d->configs[i].c;
        aligns |= c->alignment != d->configs[0].c.alignment;
        if (strcmp(c->order, "best") != 0) continue;
        budgets |= best && c->order_budget != best->order_budget;
        best = c;
    }
    for (size_t i = 0; i < d->n_configs; i++) {
        char buf[256];
        arena_config_label(&d->configs[i].c, aligns, budgets, buf, sizeof buf);
        if (!(d->configs[i].label = strdup(buf))) return ARENA_ENOMEM;
    }
    return ARENA_OK;
}

int arena_figdb_load(struct arena_figdb *h, int64_t run, const struct arena_select *sel,
                     struct arena_fig_data *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    int rc = select_runs(h, run, d, err, errlen);
    if (rc) return rc;
    const struct arena_db_config_sql *c = &h->cfg;
    char sql[sizeof results_sql + 2048 + sizeof c->planner];
    snprintf(sql, sizeof sql, results_sql, c->planner,
             h->has_bound ? "r.status, r.bound, r.nodes" : "NULL, NULL, NULL", c->lower_bound,
             c->inplace, c->order_mode, c->order_budget, c->patch, c->fixed_lower_bound,
             c->order_bound, c->order_status, c->tag,
             h->has_noisy ? (h->has_bound ? "r.noisy, r.timed_once" : "r.noisy, 0") : "0, 0",
             c->problem_fp, h->has_claims ? "r.claimed_status" : "NULL",
             h->has_self ? "r.self_ns" : "NULL", c->scratch, c->scratch_policy,
             h->has_head ? "r.device_arena, r.head_bytes, r.whole_arena" : "NULL, NULL, NULL",
             h->has_seq ? "r.seq" : "r.id");
    sqlite3_stmt *st;
    rc = prepare(h, sql, &st, err, errlen);
    if (rc) return rc;
    sqlite3_bind_int64(st, 1, run < 0 ? d->runs[0] : run > 0 ? run : 0);
    struct reading w;
    memset(&w, 0, sizeof w);
    int s = SQLITE_DONE;
    while (rc == ARENA_OK && (s = sqlite3_step(st)) == SQLITE_ROW) {
        int left = read_row(h, st, sel, d, &w);
        if (left < 0) rc = left;
    }
    if (rc == ARENA_OK && s != SQLITE_DONE) rc = db_error(h, err, errlen, "cannot read results");
    sqlite3_finalize(st);
    if (rc == ARENA_OK) rc = reorder(d, &w);
    if (rc == ARENA_OK) rc = label_configs(d);
    if (rc == ARENA_OK && sel) { /* the runs whose results passed the filters */
        size_t kept = 0;
        for (size_t i = 0; i < d->n_runs; i++) {
            int used = 0;
            for (size_t k = 0; k < d->n_results && !used; k++) used = d->results[k].run_id == d->runs[i];
            if (used) d->runs[kept++] = d->runs[i];
        }
        d->n_runs = kept ? kept : d->n_runs;
    }
    free(w.gfirst);
    free(w.pfirst);
    free(w.cfirst);
    free(w.bfirst);
    if (rc == ARENA_ENOMEM) arena_errorf(err, errlen, 0, rc, "%s: out of memory", h->path);
    if (rc == ARENA_OK && !d->n_results && sel)
        rc = arena_errorf(err, errlen, 0, ARENA_ENOTFOUND,
                          "%s: no result of the selected runs passes the filters (--graph,"
                          " --family, --suite, --tag, --inplace, --order, --patch, --alignment)",
                          h->path);
    return rc;
}

void arena_fig_data_free(struct arena_fig_data *d)
{
    for (size_t i = 0; i < d->n_graphs; i++) {
        free(d->graphs[i].spec);
        free(d->graphs[i].family);
        free(d->graphs[i].params);
        free(d->graphs[i].problem);
        free(d->graphs[i].superseded_planners);
    }
    for (size_t i = 0; i < d->n_results; i++) result_free(&d->results[i]);
    for (size_t i = 0; i < d->n_planners; i++) free(d->planners[i]);
    for (size_t i = 0; i < d->n_configs; i++) free(d->configs[i].label);
    for (size_t i = 0; i < d->n_bases; i++) free(d->bases[i]);
    free(d->configs);
    free(d->bases);
    free(d->graphs);
    free(d->results);
    free(d->planners);
    free(d->runs);
    memset(d, 0, sizeof *d);
}

int arena_figdb_placements(struct arena_figdb *h, int64_t result_id, struct arena_fig_place **out,
                           size_t *n, char *err, size_t errlen)
{
    *out = NULL;
    *n = 0;
    sqlite3_stmt *st;
    int rc = prepare(h,
                     h->has_place_name
                         ? "SELECT tensor, size, first, last, offset, name FROM placements"
                           " WHERE result_id = ?1 ORDER BY tensor"
                         : "SELECT tensor, size, first, last, offset, NULL FROM placements"
                           " WHERE result_id = ?1 ORDER BY tensor",
                     &st, err, errlen);
    if (rc) return rc;
    sqlite3_bind_int64(st, 1, result_id);
    size_t cap = 0;
    int s = SQLITE_DONE;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        if (grow((void **)out, &cap, *n, sizeof **out)) {
            rc = ARENA_ENOMEM;
            break;
        }
        struct arena_fig_place *p = &(*out)[(*n)++];
        p->tensor = sqlite3_column_int64(st, 0);
        p->size = sqlite3_column_int64(st, 1);
        p->first = sqlite3_column_int64(st, 2);
        p->last = sqlite3_column_int64(st, 3);
        p->offset = sqlite3_column_int64(st, 4);
        p->name = dup_text(st, 5);
    }
    if (!rc && s != SQLITE_DONE) rc = db_error(h, err, errlen, "cannot read placements");
    sqlite3_finalize(st);
    if (rc == ARENA_ENOMEM) arena_errorf(err, errlen, 0, rc, "%s: out of memory", h->path);
    return rc;
}

void arena_fig_places_free(struct arena_fig_place *p, size_t n)
{
    for (size_t i = 0; i < n; i++) free(p[i].name);
    free(p);
}

int arena_figdb_replays(struct arena_figdb *h, int64_t graph_id, struct arena_fig_replay **out,
                        size_t *n, char *err, size_t errlen)
{
    *out = NULL;
    *n = 0;
    if (!h->has_replays) return ARENA_OK;
    sqlite3_stmt *st, *fr;
    int rc = prepare(h,
                     "SELECT id, run_id, allocator, version, footprint_source, live_peak"
                     " FROM replays WHERE id IN (SELECT max(id) FROM replays WHERE graph_id = ?1"
                     " GROUP BY allocator) ORDER BY id",
                     &st, err, errlen);
    if (rc) return rc;
    rc = prepare(h,
                 "SELECT frame, calls, footprint_peak, extent_peak, resident_peak"
                 " FROM replay_frames WHERE replay_id = ?1 ORDER BY frame",
                 &fr, err, errlen);
    if (rc) {
        sqlite3_finalize(st);
        return rc;
    }
    sqlite3_bind_int64(st, 1, graph_id);
    size_t cap = 0;
    int s = SQLITE_DONE;
    while (rc == ARENA_OK && (s = sqlite3_step(st)) == SQLITE_ROW) {
        if (grow((void **)out, &cap, *n, sizeof **out)) {
            rc = ARENA_ENOMEM;
            break;
        }
        struct arena_fig_replay *r = &(*out)[(*n)++];
        memset(r, 0, sizeof *r);
        r->id = sqlite3_column_int64(st, 0);
        r->run_id = sqlite3_column_int64(st, 1);
        r->allocator = dup_text(st, 2);
        r->version = dup_text(st, 3);
        r->source = dup_text(st, 4);
        r->live_peak = sqlite3_column_int64(st, 5);
        sqlite3_reset(fr);
        sqlite3_bind_int64(fr, 1, r->id);
        size_t fcap = 0;
        int f;
        while ((f = sqlite3_step(fr)) == SQLITE_ROW) {
            if (r->n_frames == fcap) {
                fcap = fcap ? 2 * fcap : 16;
                int64_t **cols[] = {&r->frame, &r->calls, &r->footprint, &r->extent, &r->resident};
                for (size_t c = 0; c < 5; c++) {
                    int64_t *g = realloc(*cols[c], fcap * sizeof *g);
                    if (!g) {
                        rc = ARENA_ENOMEM;
                        break;
                    }
                    *cols[c] = g;
                }
                if (rc) break;
            }
            r->frame[r->n_frames] = sqlite3_column_int64(fr, 0);
            r->calls[r->n_frames] = sqlite3_column_int64(fr, 1);
            r->footprint[r->n_frames] = sqlite3_column_int64(fr, 2);
            r->extent[r->n_frames] = sqlite3_column_int64(fr, 3);
            r->resident[r->n_frames] = sqlite3_column_int64(fr, 4);
            r->n_frames++;
        }
        if (!r->allocator || !r->version || !r->source) rc = ARENA_ENOMEM;
        if (!rc && f != SQLITE_DONE) rc = db_error(h, err, errlen, "cannot read replay frames");
    }
    if (!rc && s != SQLITE_DONE) rc = db_error(h, err, errlen, "cannot read replays");
    sqlite3_finalize(st);
    sqlite3_finalize(fr);
    if (rc == ARENA_ENOMEM) arena_errorf(err, errlen, 0, rc, "%s: out of memory", h->path);
    return rc;
}

void arena_fig_replays_free(struct arena_fig_replay *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(r[i].allocator);
        free(r[i].version);
        free(r[i].source);
        free(r[i].frame);
        free(r[i].calls);
        free(r[i].footprint);
        free(r[i].extent);
        free(r[i].resident);
    }
    free(r);
}
