/* db.c — the one way into a results database (db.h). */
#include "results/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "planners/status.h"
#include "results/planner_spec.h"

static void nap_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static int stop_asked(struct arena_db_busy *b)
{
    if (b->stop && b->stop(b->ctx)) b->stopped = 1;
    return b->stopped;
}

int arena_db_wait(struct arena_db_busy *b, int count)
{
    if (count == 0) b->waited_ms = 0;
    if (stop_asked(b) || b->waited_ms >= ARENA_DB_BUSY_MS) return 0;
    long ms = count < 5 ? 1 + count : 20;
    nap_ms(ms);
    b->waited_ms += ms;
    return !stop_asked(b);
}

static int on_busy(void *ctx, int count)
{
    return arena_db_wait(ctx, count);
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

/* The policy on a fresh connection, and the function that reads an older
 * row's planner as its spec (the migration and the readers of an older file
 * both call it: results/planner_spec.h). */
static void wait_policy(sqlite3 *db, struct arena_db_busy *busy)
{
    sqlite3_extended_result_codes(db, 1);
    arena_planner_spec_sql_define(db);
    if (busy) sqlite3_busy_handler(db, on_busy, busy);
    else sqlite3_busy_timeout(db, ARENA_DB_BUSY_MS);
}

static int open_read(const char *path, const char *query, struct arena_db_busy *busy,
                     sqlite3 **db)
{
    char *uri = uri_of(path, query);
    if (!uri) return SQLITE_NOMEM;
    int rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    free(uri);
    if (rc == SQLITE_OK) {
        wait_policy(*db, busy);
        rc = sqlite3_exec(*db, "PRAGMA schema_version", NULL, NULL, NULL);
    }
    if (rc != SQLITE_OK) {
        sqlite3_close(*db);
        *db = NULL;
    }
    return rc;
}

int arena_db_open(const char *path, enum arena_db_mode mode, struct arena_db_busy *busy,
                  sqlite3 **db, const char **note, char *err, size_t errlen)
{
    *db = NULL;
    if (note) *note = NULL;
    if (mode == ARENA_DB_WRITE) {
        int rc = sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
        if (rc == SQLITE_OK) {
            wait_policy(*db, busy);
            return ARENA_OK;
        }
        arena_errorf(err, errlen, 0, 0, "%s: cannot open (%s)", path,
                     *db ? sqlite3_errmsg(*db) : sqlite3_errstr(rc));
        sqlite3_close(*db);
        *db = NULL;
        return ARENA_EDB;
    }
    if (access(path, F_OK) != 0)
        return arena_errorf(err, errlen, 0, ARENA_ENOTFOUND, "%s: no such database file", path);
    size_t n = strlen(path);
    char *wal = malloc(n + 5);
    if (!wal) return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "%s: out of memory", path);
    memcpy(wal, path, n);
    memcpy(wal + n, "-wal", 5);
    int has_wal = access(wal, F_OK) == 0;
    free(wal);
    int rc = SQLITE_CANTOPEN;
    if (has_wal) rc = open_read(path, "?mode=ro", busy, db);
    if (rc != SQLITE_OK) {
        rc = open_read(path, "?mode=ro&immutable=1", busy, db);
        if (has_wal && rc == SQLITE_OK && note)
            *note = "its -wal could not be read (no -shm beside it, read-only folder?): rows a"
                    " running bench has not checkpointed yet are left out";
    }
    if (rc != SQLITE_OK)
        return arena_errorf(err, errlen, 0, ARENA_EDB, "%s: cannot open (%s)", path,
                            sqlite3_errstr(rc));
    return ARENA_OK;
}
