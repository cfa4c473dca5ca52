/* store.c — the results database: open (check, then create or migrate in
 * one transaction, then WAL) and append rows, one transaction per call.
 *
 * Nothing is written before the file has been recognised as empty or ours
 * (a read-only look at the header and sqlite_master, then quick_check), so a
 * file that is refused stays byte-identical. */
#include "results/store.h"

#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "planners/planner.h"
#include "results/db.h"
#include "results/migrate.h"
#include "results/uuid.h"

enum { ST_RUN, ST_GRAPH_INS, ST_GRAPH_SEL, ST_RESULT, ST_PLACE, ST_BEST, ST_OFFSETS, ST_COUNT };

static const char *const statements[ST_COUNT] = {
    [ST_RUN] = "INSERT INTO runs (started_at, git_rev, compiler, cpu, host, command, seed,"
               " governor, loadavg, uuid, tag) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    /* A row is written once: what a later run learns about the problem
     * (an order proven best, say) goes with that run's results. */
    [ST_GRAPH_INS] = "INSERT INTO graphs (spec, family, params, fingerprint, alignment, ops,"
                     " tensors, naive_bytes, lower_bound, exec_order)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                     " ON CONFLICT (spec, fingerprint, alignment) DO NOTHING",
    [ST_GRAPH_SEL] = "SELECT id FROM graphs WHERE spec = ? AND fingerprint = ? AND alignment = ?",
    [ST_RESULT] = "INSERT INTO results (run_id, graph_id, planner, arena_bytes, ratio_lb, saving,"
                  " frag_peak, frag_mean, plan_ns_median, plan_ns_mean, plan_ns_stddev,"
                  " iterations, scratch_bytes, valid, error, noisy, timed_once, status, bound,"
                  " nodes, time_limit, node_limit, planner_seed, capacity, inplace, inplace_bound,"
                  " order_mode, order_budget, patch, problem_fingerprint, fixed_lower_bound,"
                  " order_status, stored_order_peak, order_bound, order_states, order_ns,"
                  " planner_spec, origin, plugin_path, plugin_sha256, planner_command, timing,"
                  " self_ns, claimed_status, claimed_bound, command_sha256, kernel_scratch,"
                  " scratch_policy, device_arena, head_bytes, whole_arena, seq)"
                  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,"
                  " ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31,"
                  " ?32, ?33, ?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41, ?42, ?43, ?44, ?45, ?46, ?47, ?48,"
                  " ?49, ?50, ?51,"
                  " (SELECT ifnull(max(seq), 0) + 1 FROM results WHERE run_id = ?1))",
    [ST_PLACE] = "INSERT INTO placements (result_id, tensor, size, first, last, offset, name,"
                 " shares) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    /* A result that is possible (results/merge_check.h) is a plan bench
     * validated; min() picks its row's planner and run. */
    [ST_BEST] = "SELECT min(arena_bytes), planner, run_id, id FROM results WHERE graph_id = ?1"
                " AND problem_fingerprint = ?2 AND valid = 1 AND typeof(arena_bytes) = 'integer'"
                " AND arena_bytes >= coalesce(inplace_bound, 0)",
    [ST_OFFSETS] = "SELECT tensor, offset FROM placements WHERE result_id = ?1",
};

struct arena_store {
    sqlite3 *db;
    sqlite3_stmt *st[ST_COUNT];
    struct arena_db_busy busy; /* the wait for a lock, with the caller's stop hook */
    char msg[512];
};

/* Every message is one line: SQLite's own (quick_check's "*** in database
 * main ***" header, say) may hold line breaks. */
static void one_line(char *s)
{
    for (; s && *s; s++)
        if (*s == '\n' || *s == '\r' || *s == '\t') *s = ' ';
}

/* What a file holds, from reads only. version: 0 empty (ours to create),
 * 1..ARENA_STORE_VERSION an arenabench schema; -1 refused (err says why). */
static int classify(sqlite3 *db, const char *path, int *version, char *err, size_t errlen)
{
    int64_t app = 0, user = 0, objects = 0;
    /* One statement, so one snapshot: three separate reads could see the
     * file before and after another process's create and call it foreign. */
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db,
                                "SELECT (SELECT count(*) FROM sqlite_master),"
                                " (SELECT application_id FROM pragma_application_id),"
                                " (SELECT user_version FROM pragma_user_version)",
                                -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        objects = sqlite3_column_int64(st, 0);
        app = sqlite3_column_int64(st, 1);
        user = sqlite3_column_int64(st, 2);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    if ((rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN) {
        /* A WAL database is read through -wal and -shm files beside it. */
        arena_errorf(err, errlen, 0, 0,
            "%s: cannot write the database or its -wal/-shm files beside it (%s); check the"
            " permissions of the file and its directory",
            path, sqlite3_errmsg(db));
        return rc;
    }
    if ((rc & 0xff) == SQLITE_CORRUPT) { /* its schema pages are damaged */
        arena_errorf(err, errlen, 0, 0, "%s: database is corrupt (%s)", path, sqlite3_errmsg(db));
        return rc;
    }
    if (rc != SQLITE_OK) {
        arena_errorf(err, errlen, 0, 0, "%s: not a readable SQLite database (%s)", path, sqlite3_errmsg(db));
        return rc;
    }
    *version = -1;
    if (objects == 0 && app == 0 && user == 0) {
        *version = 0;
    } else if (app != ARENA_STORE_APPLICATION_ID) {
        arena_errorf(err, errlen, 0, 0,
            "%s: not an arenabench database (application_id %" PRId64 ", %" PRId64
            " schema objects); use another --db path",
            path, app, objects);
    } else if (user > ARENA_STORE_VERSION) {
        arena_errorf(err, errlen, 0, 0,
            "%s: written by a newer arenabench (schema version %" PRId64
            ", this bench knows up to %d)",
            path, user, ARENA_STORE_VERSION);
    } else if (user < 1) {
        arena_errorf(err, errlen, 0, 0, "%s: arenabench database with no schema version", path);
    } else {
        *version = (int)user;
    }
    return SQLITE_OK;
}

/* Past this size a full quick_check costs seconds (a scaling run's
 * placements reach hundreds of MB), so only the small tables are checked;
 * SQLite still reports damage in placements when a write touches it. */
#define FULL_CHECK_BYTES (64L << 20)

static int integrity(sqlite3 *db, const char *path, char *err, size_t errlen)
{
    struct stat info;
    int full = stat(path, &info) != 0 || info.st_size <= FULL_CHECK_BYTES;
    const char *sql = full ? "PRAGMA quick_check(1)"
                           : "SELECT group_concat(quick_check, '; ') FROM ("
                             "SELECT * FROM pragma_quick_check('runs') UNION ALL "
                             "SELECT * FROM pragma_quick_check('graphs') UNION ALL "
                             "SELECT * FROM pragma_quick_check('results')) WHERE quick_check <> 'ok'";
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const unsigned char *r = sqlite3_column_text(st, 0);
        if ((r && strcmp((const char *)r, "ok") == 0) || (!full && !r)) {
            rc = SQLITE_OK;
        } else {
            arena_errorf(err, errlen, 0, 0, "%s: database is corrupt (%s)", path, r ? (const char *)r : "?");
            rc = SQLITE_CORRUPT;
        }
    } else {
        arena_errorf(err, errlen, 0, 0, "%s: database is corrupt (%s)", path, sqlite3_errmsg(db));
        if (rc == SQLITE_OK || rc == SQLITE_DONE) rc = SQLITE_CORRUPT;
    }
    sqlite3_finalize(st);
    return rc;
}

/* Switching to WAL needs a moment alone with the file; another process that
 * is opening at the same time may hold it, so retry as a lock is waited for
 * (results/db.h). */
static int wal_on(struct arena_store *s, const char *path, char *err, size_t errlen)
{
    sqlite3 *db = s->db;
    for (int count = 0;; count++) {
        sqlite3_stmt *st = NULL;
        int rc = sqlite3_prepare_v2(db, "PRAGMA journal_mode = WAL", -1, &st, NULL);
        if (rc == SQLITE_OK) rc = sqlite3_step(st);
        const unsigned char *mode = rc == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
        int ok = mode && strcmp((const char *)mode, "wal") == 0;
        sqlite3_finalize(st);
        if (ok) return SQLITE_OK;
        int prim = rc & 0xff, locked = prim == SQLITE_BUSY || prim == SQLITE_LOCKED;
        if (locked && arena_db_wait(&s->busy, count)) continue;
        if (locked && s->busy.stopped) {
            arena_errorf(err, errlen, 0, 0,
                         "%s: interrupted while waiting for another process's lock", path);
            return rc;
        }
        arena_errorf(err, errlen, 0, 0, "%s: cannot switch to WAL mode (%s)", path,
                     sqlite3_errmsg(db));
        return rc == SQLITE_ROW ? SQLITE_ERROR : rc;
    }
}

static int exec(sqlite3 *db, const char *sql)
{
    return sqlite3_exec(db, sql, NULL, NULL, NULL);
}

/* Create or migrate under a write lock, re-reading what the file holds: a
 * second process may have created it since the first look. */
static int bring_up_to_date(sqlite3 *db, const char *path, char *err, size_t errlen)
{
    int rc = exec(db, "BEGIN IMMEDIATE");
    if (rc != SQLITE_OK) {
        arena_errorf(err, errlen, 0, 0, "%s: %s", path, sqlite3_errmsg(db));
        return rc;
    }
    int version = -1;
    char why[300] = "";
    rc = classify(db, path, &version, err, errlen);
    if (rc == SQLITE_OK && version < 0) rc = SQLITE_ERROR;
    if (rc == SQLITE_OK && version == 0) {
        rc = arena_schema_create(db, why, sizeof why);
        if (rc != SQLITE_OK) arena_errorf(err, errlen, 0, 0, "%s: cannot create the schema: %s", path, why);
    } else if (rc == SQLITE_OK && version < ARENA_STORE_VERSION) {
        rc = arena_schema_migrate(db, version, why, sizeof why);
        if (rc != SQLITE_OK)
            arena_errorf(err, errlen, 0, 0, "%s: cannot migrate schema version %d to %d: %s", path, version,
                ARENA_STORE_VERSION, why);
    }
    if (rc == SQLITE_OK) rc = exec(db, "COMMIT");
    if (rc != SQLITE_OK) {
        if (!err || !err[0]) arena_errorf(err, errlen, 0, 0, "%s: %s", path, sqlite3_errmsg(db));
        exec(db, "ROLLBACK");
    }
    return rc;
}

static int open_store(const char *path, struct arena_store *s, char *err, size_t errlen);

int arena_store_open(const char *path, arena_store_stop_fn stop, void *stop_ctx,
                     struct arena_store **out, char *err, size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    if (!out) return ARENA_EINVAL;
    *out = NULL;
    if (!path || !path[0]) {
        arena_errorf(err, errlen, 0, 0, "empty database path");
        return ARENA_EINVAL;
    }
    struct arena_store *s = calloc(1, sizeof *s);
    if (!s) {
        arena_errorf(err, errlen, 0, 0, "%s: out of memory", path);
        return ARENA_ENOMEM;
    }
    s->busy.stop = stop;
    s->busy.ctx = stop_ctx;
    int rc = open_store(path, s, err, errlen);
    one_line(err);
    if (rc != ARENA_OK) {
        arena_store_close(s);
        return rc;
    }
    *out = s;
    return ARENA_OK;
}

/* The body of arena_store_open, on a store that holds only the stop hook. */
static int open_store(const char *path, struct arena_store *s, char *err, size_t errlen)
{
    struct stat info;
    if (stat(path, &info) == 0 && S_ISDIR(info.st_mode)) {
        arena_errorf(err, errlen, 0, 0, "%s: is a directory, not a database file", path);
        return ARENA_EDB;
    }
    int rc;
    if (arena_db_open(path, ARENA_DB_WRITE, &s->busy, &s->db, NULL, err, errlen) != ARENA_OK)
        goto fail;
    if (sqlite3_db_readonly(s->db, "main") == 1) {
        arena_errorf(err, errlen, 0, 0, "%s: cannot write to it (the file is read-only)", path);
        goto fail;
    }

    int version = -1;
    rc = classify(s->db, path, &version, err, errlen);
    if (rc != SQLITE_OK || version < 0) goto fail;
    if (version > 0 && integrity(s->db, path, err, errlen) != SQLITE_OK) goto fail;
    /* From here on the file is empty or ours: writing is allowed. The schema
     * goes in before WAL is switched on, in rollback-journal mode: SQLite
     * deletes a -wal file it finds beside a database file of zero pages (a
     * crash leftover, as it sees it), so a new file switched to WAL at once
     * could lose the commits of a second process already writing it. */
    if (version < ARENA_STORE_VERSION && bring_up_to_date(s->db, path, err, errlen) != SQLITE_OK)
        goto fail;
    if (wal_on(s, path, err, errlen) != SQLITE_OK) goto fail;
    if (exec(s->db, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL") != SQLITE_OK) {
        arena_errorf(err, errlen, 0, 0, "%s: %s", path, sqlite3_errmsg(s->db));
        goto fail;
    }
    for (int i = 0; i < ST_COUNT; i++) {
        if (sqlite3_prepare_v3(s->db, statements[i], -1, SQLITE_PREPARE_PERSISTENT, &s->st[i],
                               NULL) != SQLITE_OK) {
            arena_errorf(err, errlen, 0, 0, "%s: schema does not match this bench (%s)", path,
                sqlite3_errmsg(s->db));
            goto fail;
        }
    }
    return ARENA_OK;
fail:
    if (s->busy.stopped)
        arena_errorf(err, errlen, 0, 0, "%s: interrupted while waiting for another process's lock",
                     path);
    return ARENA_EDB;
}

void arena_store_close(struct arena_store *s)
{
    if (!s) return;
    for (int i = 0; i < ST_COUNT; i++) sqlite3_finalize(s->st[i]);
    sqlite3_close(s->db);
    free(s);
}

const char *arena_store_error(const struct arena_store *s)
{
    return s ? s->msg : "";
}

/* Records why `what` failed (rc: SQLite's code), rolls back, returns
 * ARENA_EDB. SQLITE_RANGE comes from bind_u64 alone, where SQLite has no
 * message of its own ("not an error"). */
static int failed(struct arena_store *s, const char *what, int rc)
{
    if (s->busy.stopped)
        arena_errorf(s->msg, sizeof s->msg, 0, 0,
                     "%s: interrupted while waiting for another process's lock", what);
    else if ((rc & 0xff) == SQLITE_RANGE)
        arena_errorf(s->msg, sizeof s->msg, 0, 0,
                     "%s: a figure is above 2^63-1, the largest integer SQLite stores", what);
    else
        arena_errorf(s->msg, sizeof s->msg, 0, 0, "%s: %s", what, sqlite3_errmsg(s->db));
    one_line(s->msg);
    if (!sqlite3_get_autocommit(s->db)) exec(s->db, "ROLLBACK");
    return ARENA_EDB;
}

static int step_done(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int bind_u64(sqlite3_stmt *st, int i, uint64_t v)
{
    if (v > (uint64_t)INT64_MAX) return SQLITE_RANGE;
    return sqlite3_bind_int64(st, i, (int64_t)v);
}

static int bind_real(sqlite3_stmt *st, int i, double v)
{
    return isfinite(v) ? sqlite3_bind_double(st, i, v) : sqlite3_bind_null(st, i);
}

static int bind_text(sqlite3_stmt *st, int i, const char *v)
{
    return v ? sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(st, i);
}

int arena_store_add_run(struct arena_store *s, const struct arena_run_info *run, int64_t *id)
{
    if (!s || !run || !id) return ARENA_EINVAL;
    sqlite3_stmt *st = s->st[ST_RUN];
    const char *text[] = {run->started_at, run->git_rev, run->compiler,
                          run->cpu,        run->host,    run->command};
    int rc = SQLITE_OK;
    for (int i = 0; i < 6 && rc == SQLITE_OK; i++)
        rc = sqlite3_bind_text(st, i + 1, text[i] ? text[i] : "unknown", -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK) rc = bind_u64(st, 7, run->seed);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 8, run->governor ? run->governor : "unknown", -1,
                               SQLITE_TRANSIENT);
    if (rc == SQLITE_OK) rc = bind_real(st, 9, run->loadavg);
    char made[ARENA_UUID_LEN + 1] = "";
    if (rc == SQLITE_OK && !run->uuid && arena_uuid_random(made) != ARENA_OK) {
        sqlite3_clear_bindings(st);
        arena_errorf(s->msg, sizeof s->msg, 0, 0,
                     "adding the run: cannot read /dev/urandom for the run's uuid");
        return ARENA_EIO;
    }
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 10, run->uuid ? run->uuid : made, -1,
                                                SQLITE_TRANSIENT);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 11, run->tag ? run->tag : "", -1,
                                                SQLITE_TRANSIENT);
    if (rc == SQLITE_OK) rc = step_done(st);
    else sqlite3_clear_bindings(st);
    if (rc != SQLITE_OK) return failed(s, "adding the run", rc);
    *id = sqlite3_last_insert_rowid(s->db);
    return ARENA_OK;
}

int arena_store_set_stopped(struct arena_store *s, int64_t run_id, const char *how)
{
    if (!s || !how) return ARENA_EINVAL;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, "UPDATE runs SET stopped = ?1 WHERE id = ?2", -1, &st,
                                NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, how, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 2, run_id);
    if (rc == SQLITE_OK) rc = step_done(st);
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? ARENA_OK : failed(s, "recording the stop", rc);
}

/* The order as text, "3,0,1,2" (NULL, *text, for the stored order: op k at
 * step k). */
static int order_text(const struct arena_order_result *o, char **text)
{
    *text = NULL;
    size_t k = 0;
    while (k < o->n_ops && o->order[k] == k) k++;
    if (k == o->n_ops) return SQLITE_OK;
    char *buf = malloc(o->n_ops * 11 + 1), *at = buf;
    if (!buf) return SQLITE_NOMEM;
    for (size_t i = 0; i < o->n_ops; i++)
        at += sprintf(at, "%s%lu", i ? "," : "", (unsigned long)o->order[i]);
    *text = buf;
    return SQLITE_OK;
}

int arena_store_add_graph(struct arena_store *s, const struct arena_source *src,
                          const struct arena_bounds *bounds, int64_t *id)
{
    if (!s || !src || !bounds || !id) return ARENA_EINVAL;
    char fp[17];
    snprintf(fp, sizeof fp, "%016" PRIx64, src->fingerprint);
    int rc = exec(s->db, "BEGIN IMMEDIATE");
    if (rc != SQLITE_OK) return failed(s, "adding a graph", rc);
    sqlite3_stmt *ins = s->st[ST_GRAPH_INS], *sel = s->st[ST_GRAPH_SEL];
    rc = bind_text(ins, 1, src->spec);
    if (rc == SQLITE_OK) rc = bind_text(ins, 2, src->family ? src->family : "");
    if (rc == SQLITE_OK) rc = bind_text(ins, 3, src->params ? src->params : "");
    if (rc == SQLITE_OK) rc = bind_text(ins, 4, fp);
    if (rc == SQLITE_OK) rc = bind_u64(ins, 5, src->problem.alignment);
    if (rc == SQLITE_OK) rc = bind_u64(ins, 6, src->ops);
    if (rc == SQLITE_OK) rc = bind_u64(ins, 7, src->problem.n);
    if (rc == SQLITE_OK) rc = bind_u64(ins, 8, bounds->naive_bytes);
    if (rc == SQLITE_OK) rc = bind_u64(ins, 9, bounds->lower_bound);
    const struct arena_order_result *o = &src->order;
    if (rc == SQLITE_OK && src->tf.order == ARENA_ORDER_BEST && o->order) {
        char *text = NULL;
        rc = order_text(o, &text);
        if (rc == SQLITE_OK)
            rc = text ? sqlite3_bind_text(ins, 10, text, -1, free) : sqlite3_bind_null(ins, 10);
    }
    if (rc == SQLITE_OK) rc = step_done(ins);
    else sqlite3_clear_bindings(ins);
    if (rc == SQLITE_OK) rc = bind_text(sel, 1, src->spec);
    if (rc == SQLITE_OK) rc = bind_text(sel, 2, fp);
    if (rc == SQLITE_OK) rc = bind_u64(sel, 3, src->problem.alignment);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(sel);
        if (rc == SQLITE_ROW) {
            *id = sqlite3_column_int64(sel, 0);
            rc = SQLITE_OK;
        }
    }
    sqlite3_reset(sel);
    sqlite3_clear_bindings(sel);
    if (rc == SQLITE_OK) rc = exec(s->db, "COMMIT");
    return rc == SQLITE_OK ? ARENA_OK : failed(s, "adding a graph", rc);
}

static int add_placements(struct arena_store *s, int64_t result_id, const struct arena_problem *p,
                          const struct arena_plan *plan, char *const *names,
                          const uint32_t *shares)
{
    sqlite3_stmt *st = s->st[ST_PLACE];
    int rc = SQLITE_OK;
    for (size_t i = 0; i < p->n && rc == SQLITE_OK; i++) {
        const struct arena_tensor *t = &p->tensors[i];
        rc = sqlite3_bind_int64(st, 1, result_id);
        if (rc == SQLITE_OK) rc = bind_u64(st, 2, i);
        if (rc == SQLITE_OK) rc = bind_u64(st, 3, t->size);
        if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 4, t->first);
        if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 5, t->last);
        if (rc == SQLITE_OK) rc = bind_u64(st, 6, plan->offsets[i]);
        if (rc == SQLITE_OK)
            rc = names && names[i] ? sqlite3_bind_text(st, 7, names[i], -1, SQLITE_STATIC)
                                   : sqlite3_bind_null(st, 7);
        if (rc == SQLITE_OK)
            rc = shares && shares[i] != UINT32_MAX ? sqlite3_bind_int64(st, 8, shares[i])
                                                   : sqlite3_bind_null(st, 8);
        if (rc == SQLITE_OK) rc = step_done(st);
        else sqlite3_clear_bindings(st);
    }
    return rc;
}

/* The result's configuration and problem: columns 25 to 36, 47 and 48. */
static int bind_config(sqlite3_stmt *st, const struct arena_result *r)
{
    const struct arena_source *src = r->src;
    const struct arena_transforms *tf = src ? &src->tf : NULL;
    int rc = bind_text(st, 25, tf ? arena_inplace_name(tf->inplace) : "none");
    if (rc == SQLITE_OK) rc = bind_text(st, 47, tf ? arena_scratch_name(tf->scratch) : "none");
    if (rc == SQLITE_OK)
        rc = bind_text(st, 48, tf ? arena_scratch_policy_name(tf->scratch_policy) : "lifetime");
    if (rc == SQLITE_OK && r->bounds && r->bounds->inplace_bound)
        rc = bind_u64(st, 26, r->bounds->inplace_bound);
    if (!src) { /* NOT NULL columns: their defaults */
        if (rc == SQLITE_OK) rc = bind_text(st, 27, "stored");
        if (rc == SQLITE_OK) rc = bind_text(st, 29, "");
        if (rc == SQLITE_OK) rc = bind_text(st, 30, "");
        return rc;
    }
    int best = tf->order == ARENA_ORDER_BEST;
    char patch[64], fp[17];
    arena_patch_text(&tf->patch, patch, sizeof patch);
    snprintf(fp, sizeof fp, "%016" PRIx64, src->planned_fingerprint);
    if (rc == SQLITE_OK) rc = bind_text(st, 27, arena_order_mode_name(tf->order));
    if (rc == SQLITE_OK && best)
        rc = bind_u64(st, 28, tf->order_states ? tf->order_states : ARENA_ORDER_STATES_DEFAULT);
    if (rc == SQLITE_OK) rc = bind_text(st, 29, patch);
    if (rc == SQLITE_OK) rc = bind_text(st, 30, fp);
    if (rc == SQLITE_OK) rc = bind_u64(st, 31, src->fixed_lower_bound);
    const struct arena_order_result *o = &src->order;
    if (rc == SQLITE_OK && best && o->order) {
        rc = bind_text(st, 32, arena_order_status_name(o->status));
        if (rc == SQLITE_OK) rc = bind_u64(st, 33, o->stored_peak);
        if (rc == SQLITE_OK) rc = bind_u64(st, 34, o->bound);
        if (rc == SQLITE_OK) rc = bind_u64(st, 35, o->states);
        if (rc == SQLITE_OK) rc = bind_u64(st, 36, o->ns);
    }
    return rc;
}

/* A search planner's options from parameter at on: time limit, node limit,
 * seed, capacity. Capacity 0 asks to minimise, no capacity: NULL, so what is
 * stored says what the user asked for (the same in the lookup of
 * arena_store_find_result, where NULL IS NULL). */
static int bind_options(sqlite3_stmt *st, int at, const struct arena_plan_options *o)
{
    int rc = bind_real(st, at, o->time_limit);
    if (rc == SQLITE_OK) rc = bind_u64(st, at + 1, o->node_limit);
    if (rc == SQLITE_OK) rc = bind_u64(st, at + 2, o->seed);
    if (rc == SQLITE_OK)
        rc = o->capacity ? bind_u64(st, at + 3, o->capacity) : sqlite3_bind_null(st, at + 3);
    return rc;
}

/* The planner's origin and timing: columns 38 to 43. */
static int bind_origin(sqlite3_stmt *st, const struct arena_result *r)
{
    int rc = bind_text(st, 38, r->origin ? r->origin : "built-in");
    if (rc == SQLITE_OK) rc = bind_text(st, 39, r->plugin_path);
    if (rc == SQLITE_OK) rc = bind_text(st, 40, r->plugin_sha256);
    if (rc == SQLITE_OK) rc = bind_text(st, 41, r->planner_command);
    if (rc == SQLITE_OK) rc = bind_text(st, 42, r->timing ? r->timing : "in-process");
    if (rc == SQLITE_OK && r->has_self_ns) rc = bind_u64(st, 43, r->self_ns);
    if (rc == SQLITE_OK) rc = bind_text(st, 44, r->claimed_status);
    if (rc == SQLITE_OK && r->claimed_status && r->claimed_bound)
        rc = bind_u64(st, 45, r->claimed_bound);
    if (rc == SQLITE_OK) rc = bind_text(st, 46, r->command_sha256);
    return rc;
}

int arena_store_best_valid(struct arena_store *s, int64_t graph_id,
                           const struct arena_source *src, uint64_t *arena, char *planner,
                           size_t len, int64_t *run_id, int64_t *result_id)
{
    char fp[17];
    snprintf(fp, sizeof fp, "%016" PRIx64, src->planned_fingerprint);
    sqlite3_stmt *st = s->st[ST_BEST];
    int rc = sqlite3_bind_int64(st, 1, graph_id);
    if (rc == SQLITE_OK) rc = bind_text(st, 2, fp);
    int found = 0;
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        found = sqlite3_column_type(st, 0) == SQLITE_INTEGER;
        if (found) {
            const unsigned char *name = sqlite3_column_text(st, 1);
            *arena = (uint64_t)sqlite3_column_int64(st, 0);
            *run_id = sqlite3_column_int64(st, 2);
            *result_id = sqlite3_column_int64(st, 3);
            snprintf(planner, len, "%s", name ? (const char *)name : "");
        }
        rc = SQLITE_OK;
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc != SQLITE_OK) return failed(s, "reading results", rc);
    return found ? ARENA_OK : ARENA_ENOTFOUND;
}

int arena_store_add_result(struct arena_store *s, int64_t run_id, int64_t graph_id,
                           const struct arena_result *r, const struct arena_problem *p,
                           const struct arena_plan *plan, int64_t *id)
{
    if (!s || !r || !r->planner || !id || (plan && (!p || plan->n != p->n || !plan->offsets)))
        return ARENA_EINVAL;
    int rc = exec(s->db, "BEGIN IMMEDIATE");
    if (rc != SQLITE_OK) return failed(s, "adding a result", rc);
    sqlite3_stmt *st = s->st[ST_RESULT];
    const struct arena_metrics *m = r->metrics;
    rc = sqlite3_bind_int64(st, 1, run_id);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 2, graph_id);
    if (rc == SQLITE_OK) rc = bind_text(st, 3, r->planner);
    if (rc == SQLITE_OK && m) {
        rc = bind_u64(st, 4, m->arena);
        if (rc == SQLITE_OK) rc = bind_real(st, 5, m->ratio_lb);
        if (rc == SQLITE_OK) rc = bind_real(st, 6, m->saving);
        if (rc == SQLITE_OK) rc = bind_real(st, 7, m->frag_peak);
        if (rc == SQLITE_OK) rc = bind_real(st, 8, m->frag_mean);
    }
    if (rc == SQLITE_OK) rc = bind_real(st, 9, r->plan_ns_median);
    if (rc == SQLITE_OK) rc = bind_real(st, 10, r->plan_ns_mean);
    if (rc == SQLITE_OK) rc = bind_real(st, 11, r->plan_ns_stddev);
    if (rc == SQLITE_OK && r->iterations) rc = bind_u64(st, 12, r->iterations);
    if (rc == SQLITE_OK) rc = bind_u64(st, 13, r->scratch_bytes);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 14, r->valid ? 1 : 0);
    if (rc == SQLITE_OK) rc = bind_text(st, 15, r->error);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 16, r->noisy ? 1 : 0);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 17, r->timed_once ? 1 : 0);
    if (rc == SQLITE_OK && m) {
        rc = bind_text(st, 18, arena_plan_status_name(r->status));
        if (rc == SQLITE_OK) rc = bind_u64(st, 19, r->bound);
        if (rc == SQLITE_OK) rc = bind_u64(st, 20, r->nodes);
    }
    if (rc == SQLITE_OK && r->options) rc = bind_options(st, 21, r->options);
    if (rc == SQLITE_OK) rc = bind_config(st, r);
    if (rc == SQLITE_OK) rc = bind_text(st, 37, r->planner_spec ? r->planner_spec : r->planner);
    if (rc == SQLITE_OK && r->device_arena) rc = bind_u64(st, 49, r->device_arena);
    if (rc == SQLITE_OK && r->head_bytes) rc = bind_u64(st, 50, r->head_bytes);
    if (rc == SQLITE_OK && r->whole_arena) rc = bind_u64(st, 51, r->whole_arena);
    if (rc == SQLITE_OK) rc = bind_origin(st, r);
    if (rc == SQLITE_OK) rc = step_done(st);
    else sqlite3_clear_bindings(st);
    if (rc != SQLITE_OK) return failed(s, "adding a result", rc);
    int64_t rid = sqlite3_last_insert_rowid(s->db);
    if (plan && (rc = add_placements(s, rid, p, plan, r->names, r->shares)) != SQLITE_OK)
        return failed(s, "adding placements", rc);
    if ((rc = exec(s->db, "COMMIT")) != SQLITE_OK) return failed(s, "adding a result", rc);
    *id = rid;
    return ARENA_OK;
}

static const char find_sql[] =
    "SELECT r.valid, coalesce(r.error, '') LIKE 'refused: %' FROM results r"
    " JOIN graphs g ON g.id = r.graph_id JOIN runs u ON u.id = r.run_id"
    " WHERE g.spec = ?1 AND g.fingerprint = ?2 AND g.alignment = ?3 AND r.planner = ?4"
    " AND r.origin = ?5 AND r.plugin_sha256 IS ?6 AND r.planner_command IS ?7"
    " AND r.inplace = ?8 AND r.order_mode = ?9 AND r.order_budget IS ?10 AND r.patch = ?11"
    " AND r.problem_fingerprint = ?12 AND r.time_limit IS ?13 AND r.node_limit IS ?14"
    " AND r.planner_seed IS ?15 AND r.capacity IS ?16 AND r.planner_spec = ?17"
    " AND r.timing = ?18 AND u.tag = ?19"
    " ORDER BY u.started_at DESC, r.id DESC LIMIT 1";

int arena_store_find_result(struct arena_store *s, const struct arena_result *r, const char *tag,
                            int *found, int *valid, int *refused)
{
    if (!s || !r || !r->src || !r->planner || !found || !valid || !refused) return ARENA_EINVAL;
    const struct arena_source *src = r->src;
    *found = *valid = *refused = 0;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, find_sql, -1, &st, NULL);
    const struct arena_transforms *tf = &src->tf;
    char fp[17], planned[17], patch[64];
    snprintf(fp, sizeof fp, "%016" PRIx64, src->fingerprint);
    snprintf(planned, sizeof planned, "%016" PRIx64, src->planned_fingerprint);
    arena_patch_text(&tf->patch, patch, sizeof patch);
    /* The values as arena_store_add_result binds them (bind_config, bind_origin). */
    if (rc == SQLITE_OK) rc = bind_text(st, 1, src->spec);
    if (rc == SQLITE_OK) rc = bind_text(st, 2, fp);
    if (rc == SQLITE_OK) rc = bind_u64(st, 3, src->problem.alignment);
    if (rc == SQLITE_OK) rc = bind_text(st, 4, r->planner);
    if (rc == SQLITE_OK) rc = bind_text(st, 5, r->origin ? r->origin : "built-in");
    if (rc == SQLITE_OK) rc = bind_text(st, 6, r->plugin_sha256);
    if (rc == SQLITE_OK) rc = bind_text(st, 7, r->planner_command);
    if (rc == SQLITE_OK) rc = bind_text(st, 8, arena_inplace_name(tf->inplace));
    if (rc == SQLITE_OK) rc = bind_text(st, 9, arena_order_mode_name(tf->order));
    if (rc == SQLITE_OK && tf->order == ARENA_ORDER_BEST)
        rc = bind_u64(st, 10, tf->order_states ? tf->order_states : ARENA_ORDER_STATES_DEFAULT);
    if (rc == SQLITE_OK) rc = bind_text(st, 11, patch);
    if (rc == SQLITE_OK) rc = bind_text(st, 12, planned);
    if (rc == SQLITE_OK && r->options) rc = bind_options(st, 13, r->options);
    if (rc == SQLITE_OK) rc = bind_text(st, 17, r->planner_spec ? r->planner_spec : r->planner);
    if (rc == SQLITE_OK) rc = bind_text(st, 18, r->timing ? r->timing : "in-process");
    if (rc == SQLITE_OK) rc = bind_text(st, 19, tag ? tag : "");
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            *found = 1;
            *valid = sqlite3_column_int(st, 0) == 1;
            *refused = sqlite3_column_int(st, 1) != 0;
            rc = SQLITE_OK;
        } else if (rc == SQLITE_DONE) {
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? ARENA_OK : failed(s, "looking up a stored result", rc);
}

/* ---- replays of real allocators (schema version 5) ---- */

static double frag(uint64_t live, uint64_t footprint)
{
    return footprint ? 1.0 - (double)live / (double)footprint : 0.0;
}

int arena_store_add_replay(struct arena_store *s, int64_t run_id, int64_t graph_id,
                           const struct arena_replay_info *r, int64_t *id)
{
    if (!s || !r || !r->allocator || !r->version || !r->footprint_source || !id ||
        r->frames == 0 || !r->frame)
        return ARENA_EINVAL;
    uint64_t peak = 0, extent = 0, resident = 0;
    for (uint64_t k = 0; k < r->frames; k++) {
        const struct arena_replay_frame *f = &r->frame[k];
        peak = f->footprint_peak > peak ? f->footprint_peak : peak;
        extent = f->extent_peak > extent ? f->extent_peak : extent;
        resident = f->resident_peak > resident ? f->resident_peak : resident;
    }
    uint64_t first = r->frame[0].footprint_peak, last = r->frame[r->frames - 1].footprint_peak;
    sqlite3_stmt *st = NULL, *fr = NULL;
    int rc = exec(s->db, "BEGIN IMMEDIATE");
    if (rc != SQLITE_OK) return failed(s, "adding a replay", rc);
    rc = sqlite3_prepare_v2(s->db,
        "INSERT INTO replays (run_id, graph_id, allocator, version, footprint_source, frames,"
        " calls_per_frame, ns_per_call, live_peak, baseline_bytes, footprint_first,"
        " footprint_last, footprint_peak, extent_peak, resident_peak, frag_first, frag_last,"
        " seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,"
        " ?17, (SELECT ifnull(max(seq), 0) + 1 FROM replays WHERE run_id = ?1))", -1, &st,
        NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(s->db,
            "INSERT INTO replay_frames (replay_id, frame, calls, footprint_peak, extent_peak,"
            " resident_peak) VALUES (?, ?, ?, ?, ?, ?)", -1, &fr, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 1, run_id);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 2, graph_id);
    if (rc == SQLITE_OK) rc = bind_text(st, 3, r->allocator);
    if (rc == SQLITE_OK) rc = bind_text(st, 4, r->version);
    if (rc == SQLITE_OK) rc = bind_text(st, 5, r->footprint_source);
    if (rc == SQLITE_OK) rc = bind_u64(st, 6, r->frames);
    if (rc == SQLITE_OK) rc = bind_u64(st, 7, r->calls_per_frame);
    if (rc == SQLITE_OK) rc = bind_real(st, 8, r->ns_per_call);
    if (rc == SQLITE_OK) rc = bind_u64(st, 9, r->live_peak);
    if (rc == SQLITE_OK) rc = bind_u64(st, 10, r->baseline_bytes);
    if (rc == SQLITE_OK) rc = bind_u64(st, 11, first);
    if (rc == SQLITE_OK) rc = bind_u64(st, 12, last);
    if (rc == SQLITE_OK) rc = bind_u64(st, 13, peak);
    if (rc == SQLITE_OK) rc = bind_u64(st, 14, extent);
    if (rc == SQLITE_OK) rc = bind_u64(st, 15, resident);
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(st, 16, frag(r->live_peak, first));
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(st, 17, frag(r->live_peak, last));
    if (rc == SQLITE_OK) rc = step_done(st);
    int64_t rid = sqlite3_last_insert_rowid(s->db);
    for (uint64_t k = 0; rc == SQLITE_OK && k < r->frames; k++) {
        const struct arena_replay_frame *f = &r->frame[k];
        rc = sqlite3_bind_int64(fr, 1, rid);
        if (rc == SQLITE_OK) rc = bind_u64(fr, 2, k + 1);
        if (rc == SQLITE_OK) rc = bind_u64(fr, 3, f->calls);
        if (rc == SQLITE_OK) rc = bind_u64(fr, 4, f->footprint_peak);
        if (rc == SQLITE_OK) rc = bind_u64(fr, 5, f->extent_peak);
        if (rc == SQLITE_OK) rc = bind_u64(fr, 6, f->resident_peak);
        if (rc == SQLITE_OK) rc = step_done(fr);
    }
    if (rc != SQLITE_OK) {
        /* The message first: finalizing may clear it. */
        int e = failed(s, "adding a replay", rc);
        sqlite3_finalize(st);
        sqlite3_finalize(fr);
        return e;
    }
    sqlite3_finalize(st);
    sqlite3_finalize(fr);
    if ((rc = exec(s->db, "COMMIT")) != SQLITE_OK) return failed(s, "adding a replay", rc);
    *id = rid;
    return ARENA_OK;
}

int arena_store_plan_offsets(struct arena_store *s, int64_t result_id, size_t n,
                             uint64_t *offsets)
{
    sqlite3_stmt *st = s->st[ST_OFFSETS];
    int rc = sqlite3_bind_int64(st, 1, result_id);
    size_t got = 0;
    int whole = 1;
    for (size_t i = 0; i < n; i++) offsets[i] = UINT64_MAX;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t t = sqlite3_column_int64(st, 0), off = sqlite3_column_int64(st, 1);
        if (t < 0 || (uint64_t)t >= n || off < 0 || offsets[t] != UINT64_MAX) whole = 0;
        else offsets[t] = (uint64_t)off, got++;
        rc = SQLITE_OK;
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc != SQLITE_DONE) return failed(s, "reading placements", rc);
    return whole && got == n ? ARENA_OK : ARENA_ENOTFOUND;
}
