/* figdata.c — reading a results database for bench plot (figdata.h). */
#include "results/figdata.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "planners/status.h"

#define APP_ID 1095913026

struct arena_figdb {
    sqlite3 *db;
    const char *path;
    int version;
    int has_bound, has_seq, has_place_name, has_replays, has_order;
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

/* One integer from a query without parameters; dflt when no row. */
static int scalar(struct arena_figdb *h, const char *sql, int64_t dflt, int64_t *out, char *err,
                  size_t errlen)
{
    sqlite3_stmt *st;
    int rc = prepare(h, sql, &st, err, errlen);
    if (rc) return rc;
    int s = sqlite3_step(st);
    *out = s == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL ? sqlite3_column_int64(st, 0)
                                                                          : dflt;
    sqlite3_finalize(st);
    if (s != SQLITE_ROW && s != SQLITE_DONE) return db_error(h, err, errlen, "cannot read");
    return ARENA_OK;
}

static int has_column(struct arena_figdb *h, const char *table, const char *col, int *out,
                      char *err, size_t errlen)
{
    sqlite3_stmt *st;
    int rc = prepare(h, "SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2", &st, err,
                     errlen);
    if (rc) return rc;
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, col, -1, SQLITE_STATIC);
    *out = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    return ARENA_OK;
}

/* file: URI of path, %, ? and # escaped; relative paths stay relative. */
static char *uri_of(const char *path, const char *query)
{
    size_t n = strlen(path);
    char *u = malloc(3 * n + strlen(query) + 16);
    if (!u) return NULL;
    char *o = u;
    o += sprintf(o, path[0] == '/' ? "file://" : "file:./");
    for (const char *p = path; *p; p++) {
        if (*p == '%' || *p == '?' || *p == '#') o += sprintf(o, "%%%02x", (unsigned char)*p);
        else *o++ = *p;
    }
    strcpy(o, query);
    return u;
}

static int open_uri(const char *path, const char *query, sqlite3 **db)
{
    char *uri = uri_of(path, query);
    if (!uri) return SQLITE_NOMEM;
    int rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    free(uri);
    if (rc == SQLITE_OK) {
        sqlite3_busy_timeout(*db, 5000);
        rc = sqlite3_exec(*db, "PRAGMA schema_version", NULL, NULL, NULL);
    }
    if (rc != SQLITE_OK) {
        sqlite3_close(*db);
        *db = NULL;
    }
    return rc;
}

int arena_figdb_open(const char *path, struct arena_figdb **out, char *err, size_t errlen)
{
    *out = NULL;
    if (access(path, F_OK) != 0)
        return arena_errorf(err, errlen, 0, ARENA_ENOTFOUND,
                            "no database at %s (run bench first, or pass --db)", path);
    struct arena_figdb *h = calloc(1, sizeof *h);
    if (!h) return ARENA_ENOMEM;
    h->path = path;
    size_t n = strlen(path);
    char *wal = malloc(n + 5);
    if (!wal) {
        free(h);
        return ARENA_ENOMEM;
    }
    memcpy(wal, path, n);
    memcpy(wal + n, "-wal", 5);
    int has_wal = access(wal, F_OK) == 0;
    free(wal);
    int rc = SQLITE_CANTOPEN;
    if (has_wal) rc = open_uri(path, "?mode=ro", &h->db);
    if (rc != SQLITE_OK) {
        rc = open_uri(path, "?mode=ro&immutable=1", &h->db);
        if (has_wal && rc == SQLITE_OK)
            h->note = "its -wal could not be read (no -shm beside it, read-only folder?): rows a"
                      " running bench has not checkpointed yet are left out";
    }
    if (rc != SQLITE_OK) {
        free(h);
        return arena_errorf(err, errlen, 0, ARENA_EDB, "%s: cannot open (%s)", path,
                            sqlite3_errstr(rc));
    }
    int64_t app = 0, version = 0, tables = 0;
    rc = scalar(h, "PRAGMA application_id", 0, &app, err, errlen);
    if (!rc) rc = scalar(h, "PRAGMA user_version", 0, &version, err, errlen);
    if (!rc && app != APP_ID)
        rc = arena_errorf(err, errlen, 0, ARENA_EDB,
                          "%s is not an arenabench results database (application_id %lld)", path,
                          (long long)app);
    if (!rc && version > 11)
        rc = arena_errorf(err, errlen, 0, ARENA_EDB,
                          "%s was written by a newer arenabench (schema version %lld, bench plot"
                          " reads 2 to 11)",
                          path, (long long)version);
    if (!rc && version < 2)
        rc = arena_errorf(err, errlen, 0, ARENA_EDB,
                          "%s has the older schema version %lld; one bench run with --db on it"
                          " migrates it forward",
                          path, (long long)version);
    if (!rc)
        rc = scalar(h,
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN"
                    " ('runs', 'graphs', 'results', 'placements')",
                    0, &tables, err, errlen);
    if (!rc && tables != 4)
        rc = arena_errorf(err, errlen, 0, ARENA_EDB,
                          "%s is not an arenabench results database (tables runs, graphs,"
                          " results, placements missing)",
                          path);
    h->version = (int)version;
    if (!rc) rc = has_column(h, "results", "bound", &h->has_bound, err, errlen);
    if (!rc) rc = has_column(h, "results", "seq", &h->has_seq, err, errlen);
    if (!rc) rc = has_column(h, "graphs", "order_bound", &h->has_order, err, errlen);
    if (!rc) rc = has_column(h, "placements", "name", &h->has_place_name, err, errlen);
    if (!rc) rc = has_column(h, "replay_frames", "footprint_peak", &h->has_replays, err, errlen);
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

/* Rows newest first: run start, run id, then the run's own order. */
static const char results_sql[] =
    "SELECT r.id, r.run_id, r.graph_id, r.planner, r.valid = 1 AND r.arena_bytes IS NOT NULL,"
    " r.arena_bytes, r.ratio_lb, r.saving, r.frag_peak, r.frag_mean, r.plan_ns_median,"
    " r.plan_ns_mean, r.plan_ns_stddev, r.iterations, r.scratch_bytes, %s,"
    " g.spec, g.family, g.params, g.alignment, g.tensors, g.naive_bytes, g.lower_bound, %s"
    " FROM results r JOIN runs u ON u.id = r.run_id JOIN graphs g ON g.id = r.graph_id"
    " WHERE ?1 = 0 OR r.run_id = ?1"
    " ORDER BY u.started_at DESC, u.id DESC, %s DESC";

static int find_graph(struct arena_fig_data *d, int64_t id, size_t *at)
{
    for (size_t i = d->n_graphs; i-- > 0;)
        if (d->graphs[i].id == id) {
            *at = i;
            return 1;
        }
    return 0;
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
}

/* Keeps the first (newest) row of each graph x planner. */
static void keep_newest(struct arena_fig_data *d)
{
    qsort(d->results, d->n_results, sizeof *d->results, by_pair);
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

int arena_figdb_load(struct arena_figdb *h, int64_t run, struct arena_fig_data *d, char *err,
                     size_t errlen)
{
    memset(d, 0, sizeof *d);
    int rc = select_runs(h, run, d, err, errlen);
    if (rc) return rc;
    char sql[2048];
    snprintf(sql, sizeof sql, results_sql,
             h->has_bound ? "r.status, r.bound, r.nodes" : "NULL, NULL, NULL",
             h->has_order ? "g.order_bound, g.order_status" : "NULL, NULL",
             h->has_seq ? "r.seq" : "r.id");
    sqlite3_stmt *st;
    rc = prepare(h, sql, &st, err, errlen);
    if (rc) return rc;
    sqlite3_bind_int64(st, 1, run < 0 ? d->runs[0] : run > 0 ? run : 0);
    size_t gcap = 0, rcap = 0, pcap = 0;
    int64_t *gfirst = NULL, *pfirst = NULL;
    size_t gfcap = 0, pfcap = 0;
    int s = SQLITE_DONE;
    while (rc == ARENA_OK && (s = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t rid = sqlite3_column_int64(st, 0);
        int64_t gid = sqlite3_column_int64(st, 2);
        const char *planner = (const char *)sqlite3_column_text(st, 3);
        if (!planner) planner = "";
        size_t g;
        if (!find_graph(d, gid, &g)) {
            if (grow((void **)&d->graphs, &gcap, d->n_graphs, sizeof *d->graphs) ||
                grow((void **)&gfirst, &gfcap, d->n_graphs, sizeof *gfirst)) {
                rc = ARENA_ENOMEM;
                break;
            }
            struct arena_fig_graph *G = &d->graphs[d->n_graphs];
            G->id = gid;
            G->spec = dup_text(st, 18);
            G->family = dup_text(st, 19);
            G->params = dup_text(st, 20);
            G->alignment = sqlite3_column_int64(st, 21);
            G->tensors = sqlite3_column_int64(st, 22);
            G->naive = sqlite3_column_int64(st, 23);
            G->lower_bound = sqlite3_column_int64(st, 24);
            G->order_bound = sqlite3_column_int64(st, 25); /* NULL reads 0 */
            G->order_limit = sqlite3_column_type(st, 26) == SQLITE_TEXT &&
                             strcmp((const char *)sqlite3_column_text(st, 26), "limit") == 0;
            gfirst[d->n_graphs] = rid;
            g = d->n_graphs++;
            if (!G->spec) G->spec = strdup("");
            if (!G->family) G->family = strdup("");
            if (!G->params) G->params = strdup("");
            if (!G->spec || !G->family || !G->params) rc = ARENA_ENOMEM;
        } else if (rid < gfirst[g]) {
            gfirst[g] = rid;
        }
        size_t p;
        for (p = 0; p < d->n_planners && strcmp(d->planners[p], planner) != 0; p++) {}
        if (p == d->n_planners) {
            if (grow((void **)&d->planners, &pcap, d->n_planners, sizeof *d->planners) ||
                grow((void **)&pfirst, &pfcap, d->n_planners, sizeof *pfirst) ||
                !(d->planners[d->n_planners] = strdup(planner))) {
                rc = ARENA_ENOMEM;
                break;
            }
            pfirst[d->n_planners++] = rid;
        } else if (rid < pfirst[p]) {
            pfirst[p] = rid;
        }
        if (grow((void **)&d->results, &rcap, d->n_results, sizeof *d->results)) {
            rc = ARENA_ENOMEM;
            break;
        }
        struct arena_fig_result *r = &d->results[d->n_results++];
        memset(r, 0, sizeof *r);
        r->id = rid;
        r->read_order = d->n_results;
        r->run_id = sqlite3_column_int64(st, 1);
        r->graph_id = gid;
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
        r->status = dup_text(st, 15);
        r->has_bound = sqlite3_column_type(st, 16) != SQLITE_NULL;
        r->bound = sqlite3_column_int64(st, 16);
        r->nodes = sqlite3_column_int64(st, 17);
        if (!r->planner) rc = ARENA_ENOMEM;
    }
    if (rc == ARENA_OK && s != SQLITE_DONE) rc = db_error(h, err, errlen, "cannot read results");
    sqlite3_finalize(st);
    if (rc == ARENA_OK) {
        /* Graphs and planners in the order first measured; results follow
         * their graph's new index. */
        struct order *o = malloc((d->n_graphs + d->n_planners + 1) * sizeof *o);
        struct arena_fig_graph *g2 = malloc((d->n_graphs + 1) * sizeof *g2);
        size_t *where = malloc((d->n_graphs + 1) * sizeof *where);
        char **p2 = malloc((d->n_planners + 1) * sizeof *p2);
        if (!o || !g2 || !where || !p2) {
            rc = ARENA_ENOMEM;
        } else {
            for (size_t i = 0; i < d->n_graphs; i++) o[i] = (struct order){gfirst[i], i};
            qsort(o, d->n_graphs, sizeof *o, by_first);
            for (size_t i = 0; i < d->n_graphs; i++) {
                g2[i] = d->graphs[o[i].idx];
                where[o[i].idx] = i;
            }
            memcpy(d->graphs, g2, d->n_graphs * sizeof *g2);
            for (size_t i = 0; i < d->n_results; i++) d->results[i].graph = where[d->results[i].graph];
            keep_newest(d);
            for (size_t i = 0; i < d->n_planners; i++) o[i] = (struct order){pfirst[i], i};
            qsort(o, d->n_planners, sizeof *o, by_first);
            for (size_t i = 0; i < d->n_planners; i++) p2[i] = d->planners[o[i].idx];
            memcpy(d->planners, p2, d->n_planners * sizeof *p2);
        }
        free(o);
        free(g2);
        free(where);
        free(p2);
    }
    free(gfirst);
    free(pfirst);
    if (rc == ARENA_ENOMEM) arena_errorf(err, errlen, 0, rc, "%s: out of memory", h->path);
    return rc;
}

void arena_fig_data_free(struct arena_fig_data *d)
{
    for (size_t i = 0; i < d->n_graphs; i++) {
        free(d->graphs[i].spec);
        free(d->graphs[i].family);
        free(d->graphs[i].params);
    }
    for (size_t i = 0; i < d->n_results; i++) result_free(&d->results[i]);
    for (size_t i = 0; i < d->n_planners; i++) free(d->planners[i]);
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
