/* merge.c — merging results databases (results/merge.h). The copy is
 * INSERT ... SELECT over an ATTACHed input (SQLite's own way to move rows
 * between databases in one statement), with the columns named from
 * PRAGMA table_info and the ids shifted above the output's largest (results,
 * replays) or looked up in temporary maps (runs, graphs). */
#include "results/merge.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include "planners/status.h"
#include "results/columns.h"
#include "results/db.h"
#include "results/merge_check.h"
#include "results/store.h"

/* A growing SQL text; on overflow of memory, ok turns 0. */
struct sql {
    char *s;
    size_t len, cap;
    int ok;
};

static void add(struct sql *q, const char *fmt, ...)
{
    if (!q->ok) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(q->s ? q->s + q->len : NULL, q->s ? q->cap - q->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            q->ok = 0;
            return;
        }
        if (q->s && q->len + (size_t)n < q->cap) {
            q->len += (size_t)n;
            return;
        }
        size_t cap = (q->cap ? q->cap * 2 : 256) + (size_t)n;
        char *grown = realloc(q->s, cap);
        if (!grown) {
            q->ok = 0;
            return;
        }
        q->s = grown;
        q->cap = cap;
    }
}

/* The column names of schema.table in order, as one malloc'd array of
 * malloc'd strings. */
struct cols {
    char **name;
    size_t n;
};

static void cols_free(struct cols *c)
{
    for (size_t i = 0; i < c->n; i++) free(c->name[i]);
    free(c->name);
    c->name = NULL;
    c->n = 0;
}

static int cols_read(sqlite3 *db, const char *schema, const char *table, struct cols *c)
{
    memset(c, 0, sizeof *c);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?1, ?2) ORDER BY cid",
                                -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 2, schema, -1, SQLITE_STATIC);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        char **grown = realloc(c->name, (c->n + 1) * sizeof *grown);
        char *copy = name ? strdup(name) : NULL;
        if (!grown || !copy) {
            free(copy);
            if (grown) c->name = grown;
            rc = SQLITE_NOMEM;
            break;
        }
        c->name = grown;
        c->name[c->n++] = copy;
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int has(const struct cols *c, const char *name)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->name[i], name) == 0) return 1;
    return 0;
}

/* Identifiers from table_info are quoted, so any name is safe. */
static void add_ident(struct sql *q, const char *prefix, const char *name)
{
    add(q, "%s\"", prefix);
    for (const char *c = name; *c; c++) add(q, *c == '"' ? "\"\"" : "%c", *c);
    add(q, "\"");
}

/* How each table is copied: which columns take a new value. */
struct table {
    const char *name;
    const char *id;      /* shifted by the offset: "id", or NULL (no own id) */
    const char *parent;  /* the column pointing to a shifted parent id, or NULL */
    const char *parent_table; /* the parent's table */
    int has_run_graph;   /* run_id and graph_id are mapped */
};

static const struct table tables[] = {
    {"results", "id", NULL, NULL, 1},
    {"placements", NULL, "result_id", "results", 0},
    {"replays", "id", NULL, NULL, 1},
    {"replay_frames", NULL, "replay_id", "replays", 0},
};
#define N_TABLES (sizeof tables / sizeof tables[0])

struct merger {
    sqlite3 *db;
    const char *out, *in;
    int version; /* the input's schema version */
    char *err;
    size_t errlen;
    struct arena_merge_counts *counts;
};

static int fail(struct merger *m, const char *what, int rc)
{
    arena_errorf(m->err, m->errlen, 0, ARENA_EDB, "%s: merging %s: %s: %s", m->out, m->in, what,
                 rc == SQLITE_NOMEM ? sqlite3_errstr(rc) : sqlite3_errmsg(m->db));
    return ARENA_EDB;
}

static int exec(struct merger *m, const char *what, const char *sql)
{
    int rc = sqlite3_exec(m->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? ARENA_OK : fail(m, what, rc);
}

static int64_t one_int(sqlite3 *db, const char *sql, int *rc)
{
    sqlite3_stmt *st = NULL;
    int64_t v = 0;
    *rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (*rc == SQLITE_OK && (*rc = sqlite3_step(st)) == SQLITE_ROW) {
        v = sqlite3_column_int64(st, 0);
        *rc = SQLITE_OK;
    } else if (*rc == SQLITE_DONE) {
        *rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return v;
}

/* The input and output tables must have the same columns. */
static int same_columns(struct merger *m, const char *table, struct cols *c)
{
    struct cols s = {0};
    int rc = cols_read(m->db, "main", table, c);
    if (rc == SQLITE_OK) rc = cols_read(m->db, "src", table, &s);
    if (rc != SQLITE_OK) {
        cols_free(&s);
        cols_free(c);
        return fail(m, "reading the columns", rc);
    }
    int same = s.n == c->n;
    for (size_t i = 0; same && i < c->n; i++) same = has(&s, c->name[i]);
    const char *extra = NULL; /* a newer input's column the output lacks */
    for (size_t i = 0; !same && i < s.n && !extra; i++)
        if (!has(c, s.name[i])) extra = s.name[i];
    int status = ARENA_OK;
    if (!same && m->version > ARENA_STORE_VERSION && extra)
        status = arena_errorf(m->err, m->errlen, 0, ARENA_EINVAL,
                          "%s: schema version %d, newer than this bench's %d, has %s.%s, which"
                          " merging would drop; merge with a bench of schema version %d or"
                          " later",
                          m->in, m->version, ARENA_STORE_VERSION, table, extra, m->version);
    else if (!same || c->n == 0)
        status = arena_errorf(m->err, m->errlen, 0, ARENA_EINVAL,
                              "%s: table %s has other columns than in %s", m->in, table, m->out);
    cols_free(&s);
    if (status) cols_free(c);
    return status;
}

/* Runs: each either found in the output (the same uuid: the same run, as
 * another copy holds it) or added; temp.run_map(old, new, fresh). */
static int merge_runs(struct merger *m)
{
    struct cols c;
    int rc = same_columns(m, "runs", &c);
    if (rc != ARENA_OK) return rc;
    struct sql insert = {.ok = 1};
    add(&insert, "INSERT INTO main.runs (");
    size_t k = 0;
    for (size_t i = 0; i < c.n; i++)
        if (strcmp(c.name[i], "id") != 0) add_ident(&insert, k++ ? ", " : "", c.name[i]);
    add(&insert, ") SELECT ");
    k = 0;
    for (size_t i = 0; i < c.n; i++)
        if (strcmp(c.name[i], "id") != 0) add_ident(&insert, k++ ? ", " : "", c.name[i]);
    add(&insert, " FROM src.runs WHERE id = ?1");
    cols_free(&c);
    sqlite3_stmt *ids = NULL, *fst = NULL, *ins = NULL, *map = NULL;
    rc = insert.ok ? SQLITE_OK : SQLITE_NOMEM;
    if (rc == SQLITE_OK) rc = sqlite3_prepare_v2(m->db, "SELECT id FROM src.runs ORDER BY id", -1, &ids, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(m->db, "SELECT m.id FROM main.runs m JOIN src.runs s"
                                       " ON m.uuid = s.uuid WHERE s.id = ?1", -1, &fst, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_prepare_v2(m->db, insert.s, -1, &ins, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(m->db, "INSERT INTO temp.run_map VALUES (?1, ?2, ?3)", -1, &map,
                                NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(ids)) == SQLITE_ROW) {
        int64_t old = sqlite3_column_int64(ids, 0), now = 0;
        int fresh = 0;
        sqlite3_bind_int64(fst, 1, old);
        rc = sqlite3_step(fst);
        if (rc == SQLITE_ROW) {
            now = sqlite3_column_int64(fst, 0);
            rc = SQLITE_OK;
        } else if (rc == SQLITE_DONE) {
            sqlite3_bind_int64(ins, 1, old);
            rc = sqlite3_step(ins);
            if (rc == SQLITE_DONE) rc = SQLITE_OK;
            now = sqlite3_last_insert_rowid(m->db);
            fresh = 1;
            sqlite3_reset(ins);
        }
        sqlite3_reset(fst);
        if (rc != SQLITE_OK) break;
        sqlite3_bind_int64(map, 1, old);
        sqlite3_bind_int64(map, 2, now);
        sqlite3_bind_int(map, 3, fresh);
        rc = sqlite3_step(map);
        if (rc == SQLITE_DONE) rc = SQLITE_OK;
        sqlite3_reset(map);
        if (m->counts) {
            if (fresh) m->counts->runs++;
            else m->counts->runs_present++;
        }
    }
    if (rc == SQLITE_DONE) rc = SQLITE_OK;
    int result = rc == SQLITE_OK ? ARENA_OK : fail(m, "copying runs", rc);
    sqlite3_finalize(ids);
    sqlite3_finalize(fst);
    sqlite3_finalize(ins);
    sqlite3_finalize(map);
    free(insert.s);
    return result;
}

/* Graphs: one row per (spec, fingerprint, alignment); temp.graph_map. */
static int merge_graphs(struct merger *m)
{
    struct cols c;
    int rc = same_columns(m, "graphs", &c);
    if (rc != ARENA_OK) return rc;
    struct sql q = {.ok = 1};
    add(&q, "INSERT INTO main.graphs (");
    size_t k = 0;
    for (size_t i = 0; i < c.n; i++)
        if (strcmp(c.name[i], "id") != 0) add_ident(&q, k++ ? ", " : "", c.name[i]);
    add(&q, ") SELECT ");
    k = 0;
    for (size_t i = 0; i < c.n; i++)
        if (strcmp(c.name[i], "id") != 0) add_ident(&q, k++ ? ", " : "", c.name[i]);
    add(&q, " FROM src.graphs WHERE true ORDER BY id"
            " ON CONFLICT (spec, fingerprint, alignment) DO NOTHING");
    cols_free(&c);
    if (!q.ok) return ARENA_ENOMEM;
    rc = exec(m, "copying graphs", q.s);
    free(q.s);
    if (rc != ARENA_OK) return rc;
    if (m->counts) m->counts->graphs += (uint64_t)sqlite3_changes(m->db);
    /* A row the output holds is kept as it is: what an input learnt about
     * the problem later (an order proven best) is in its results. */
    return exec(m, "mapping graphs",
                "DELETE FROM temp.graph_map;"
                "INSERT INTO temp.graph_map SELECT s.id, g.id FROM src.graphs s JOIN main.graphs g"
                " ON g.spec = s.spec AND g.fingerprint = s.fingerprint"
                " AND g.alignment = s.alignment;");
}

/* A table of rows that belong to runs: the rows whose key (the run's row
 * in the output, seq) the output lacks are copied, with ids shifted by the
 * output's largest id before the copy; so every id above that offset is a
 * row of this copy, and a child row (placements, replay_frames) is copied
 * exactly when its parent was. */
static int merge_rows(struct merger *m, const struct table *t, int64_t *offsets)
{
    struct cols c;
    int rc = same_columns(m, t->name, &c);
    if (rc != ARENA_OK) return rc;
    size_t self = (size_t)(t - tables);
    if (t->id) {
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT coalesce(max(id), 0) FROM main.%s", t->name);
        offsets[self] = one_int(m->db, sql, &rc);
        if (rc != SQLITE_OK) {
            cols_free(&c);
            return fail(m, "reading ids", rc);
        }
    }
    struct sql q = {.ok = 1};
    add(&q, "INSERT INTO main.%s (", t->name);
    for (size_t i = 0; i < c.n; i++) add_ident(&q, i ? ", " : "", c.name[i]);
    add(&q, ") SELECT ");
    for (size_t i = 0; i < c.n; i++) {
        const char *n = c.name[i];
        if (i) add(&q, ", ");
        if (t->id && strcmp(n, t->id) == 0)
            add(&q, "s.id + %lld", (long long)offsets[self]);
        else if (t->has_run_graph && strcmp(n, "run_id") == 0)
            add(&q, "r.new");
        else if (t->has_run_graph && strcmp(n, "graph_id") == 0)
            add(&q, "g.new");
        else if (t->parent && strcmp(n, t->parent) == 0)
            add(&q, "s.%s + %lld", t->parent, (long long)offsets[self - 1]);
        else
            add_ident(&q, "s.", n);
    }
    if (t->has_run_graph)
        add(&q, " FROM src.%s s JOIN temp.run_map r ON r.old = s.run_id"
                " JOIN temp.graph_map g ON g.old = s.graph_id"
                " WHERE NOT EXISTS (SELECT 1 FROM main.%s x WHERE x.run_id = r.new"
                " AND x.seq = s.seq)"
                " AND s.id NOT IN (SELECT id FROM temp.skip WHERE tbl = '%s') ORDER BY s.id",
            t->name, t->name, t->name);
    else
        add(&q, " FROM src.%s s WHERE s.%s + %lld IN (SELECT id FROM main.%s WHERE id > %lld)",
            t->name, t->parent, (long long)offsets[self - 1], t->parent_table,
            (long long)offsets[self - 1]);
    cols_free(&c);
    if (!q.ok) return ARENA_ENOMEM;
    char what[64];
    snprintf(what, sizeof what, "copying %s", t->name);
    rc = exec(m, what, q.s);
    free(q.s);
    if (rc != ARENA_OK || !m->counts) return rc;
    uint64_t added = (uint64_t)sqlite3_changes(m->db);
    uint64_t *slot[N_TABLES] = {&m->counts->results, &m->counts->placements,
                                &m->counts->replays, &m->counts->replay_frames};
    *slot[self] += added;
    return ARENA_OK;
}

static int merge_one(struct merger *m)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(m->db, "ATTACH ?1 AS src", -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, m->in, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return fail(m, "attaching", rc);
    int version = (int)one_int(m->db, "PRAGMA src.user_version", &rc);
    m->version = version;
    int status = ARENA_OK;
    if (rc != SQLITE_OK) {
        status = fail(m, "reading its version", rc);
    } else if (version < ARENA_STORE_VERSION) { /* checked before, but it may have changed */
        status = arena_errorf(m->err, m->errlen, 0, ARENA_EINVAL,
                              "%s: schema version %d, not %d", m->in, version,
                              ARENA_STORE_VERSION);
    } else {
        status = arena_merge_check_tables(m->db, m->in, m->err, m->errlen);
        if (status == ARENA_OK)
            status = exec(m, "starting", "BEGIN IMMEDIATE; DELETE FROM temp.run_map;");
        if (status == ARENA_OK) status = merge_runs(m);
        if (status == ARENA_OK) status = merge_graphs(m);
        if (status == ARENA_OK && (rc = arena_merge_mark_skips(m->db, m->in, m->counts)) !=
                                      SQLITE_OK)
            status = fail(m, "checking its rows", rc);
        int64_t offsets[N_TABLES] = {0};
        for (size_t t = 0; status == ARENA_OK && t < N_TABLES; t++)
            status = merge_rows(m, &tables[t], offsets);
        if (status == ARENA_OK) status = exec(m, "committing", "COMMIT");
        if (status != ARENA_OK) sqlite3_exec(m->db, "ROLLBACK", NULL, NULL, NULL);
    }
    sqlite3_exec(m->db, "DETACH src", NULL, NULL, NULL);
    return status;
}

/* An input must be an arenabench database at the current version or a
 * newer one (merged when its tables have the columns of this one's, which
 * same_columns checks), and not the output itself. Only reads. */
static int check_input(const char *out, const char *in, char *err, size_t errlen)
{
    struct stat a, b;
    if (stat(in, &b) != 0 || !S_ISREG(b.st_mode))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: no such database file", in);
    if (stat(out, &a) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: is the output itself", in);
    sqlite3 *db = NULL;
    static const char *const none[] = {NULL};
    int version = 0;
    int status = arena_db_open(in, ARENA_DB_READ, NULL, &db, NULL, err, errlen);
    if (status == ARENA_OK)
        status = arena_db_check(db, in, "bench merge", none, &version, err, errlen);
    if (status == ARENA_OK && version < ARENA_STORE_VERSION)
        status = arena_errorf(err, errlen, 0, ARENA_EINVAL,
                              "%s: schema version %d, older than this bench's %d (merge"
                              " takes %d and later): run bench once with --db %s to migrate it",
                              in, version, ARENA_STORE_VERSION, ARENA_STORE_VERSION, in);
    sqlite3_close(db);
    return status;
}

/* PRAGMA integrity_check and foreign_key_check on the whole output. */
static int check_output(struct merger *m)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(m->db, "PRAGMA integrity_check", -1, &st, NULL);
    const char *r = NULL;
    if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        r = (const char *)sqlite3_column_text(st, 0);
    int ok = r && strcmp(r, "ok") == 0;
    if (!ok)
        arena_errorf(m->err, m->errlen, 0, ARENA_EDB, "%s: integrity_check after merging: %s",
                     m->out, r ? r : sqlite3_errmsg(m->db));
    sqlite3_finalize(st);
    if (!ok) return ARENA_EDB;
    int64_t bad = one_int(m->db, "SELECT count(*) FROM pragma_foreign_key_check", &rc);
    if (rc != SQLITE_OK || bad)
        return arena_errorf(m->err, m->errlen, 0, ARENA_EDB,
                            "%s: foreign_key_check after merging: %lld rows point nowhere",
                            m->out, (long long)bad);
    return ARENA_OK;
}

int arena_store_merge(const char *out, const char *const *inputs, size_t n,
                      struct arena_merge_counts *counts, char *err, size_t errlen)
{
    if (counts) memset(counts, 0, sizeof *counts);
    if (err && errlen) err[0] = '\0';
    if (n == 0) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "merge: no input database");
    for (size_t i = 0; i < n; i++) {
        int rc = check_input(out, inputs[i], err, errlen);
        if (rc != ARENA_OK) return rc;
    }
    /* The output as bench makes it: created, or migrated forward. */
    struct arena_store *s = NULL;
    int rc = arena_store_open(out, NULL, NULL, &s, err, errlen);
    if (rc != ARENA_OK) return rc;
    arena_store_close(s);
    struct merger m = {.out = out, .in = out, .err = err, .errlen = errlen, .counts = counts};
    int status = arena_db_open(out, ARENA_DB_WRITE, NULL, &m.db, NULL, err, errlen);
    if (status == ARENA_OK)
        status = exec(&m, "preparing",
                      "CREATE TEMP TABLE run_map (old INTEGER PRIMARY KEY, new INTEGER NOT NULL,"
                      " fresh INTEGER NOT NULL);"
                      "CREATE TEMP TABLE graph_map (old INTEGER PRIMARY KEY, new INTEGER NOT NULL);");
    for (size_t i = 0; status == ARENA_OK && i < n; i++) {
        m.in = inputs[i];
        status = merge_one(&m);
    }
    if (status == ARENA_OK) status = check_output(&m);
    sqlite3_close(m.db);
    return status;
}
