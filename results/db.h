/* db.h — the one way into a results database: every reader and writer
 * (store, merge, stats, figures) opens it here, with one policy.
 *
 * Another process's lock is waited for up to ARENA_DB_BUSY_MS in all, in
 * naps of 1 to 20 ms (long enough for another bench committing a large
 * plan); a caller with a stop hook (a signal) ends the wait early. A file
 * is opened for reading with SQLite's mode=ro, which reads rows a running
 * bench has not yet checkpointed from its -wal; where that cannot be done
 * (a -wal beside the file but no -shm, in a folder this process may not
 * write) it is opened immutable instead, and a note says what may be left
 * out. Internal to results/. */
#ifndef ARENA_DB_H
#define ARENA_DB_H

#include <sqlite3.h>
#include <stddef.h>

#define ARENA_DB_BUSY_MS 60000

/* The wait for another process's lock, when the caller can be stopped. */
struct arena_db_busy {
    int (*stop)(void *ctx); /* asked between naps: nonzero ends the wait; NULL: never */
    void *ctx;
    long waited_ms;         /* in the current wait */
    int stopped;            /* the last wait ended because stop asked */
};

enum arena_db_mode {
    ARENA_DB_READ,   /* read only; the file must exist */
    ARENA_DB_WRITE,  /* read and write, created when missing */
};

/* Opens path with the policy above: busy NULL waits up to ARENA_DB_BUSY_MS
 * without a stop hook, busy not NULL (owned by the caller, alive as long as
 * the connection) with it. Extended result codes on. For reading, the
 * file's header is read at once, so a file that is no SQLite database is
 * found here. *db NULL on failure; ARENA_OK, or ARENA_ENOTFOUND (reading a
 * file that is not there) or ARENA_EDB with one line in err: "PATH: cannot
 * open (why)". note (may be NULL) receives NULL or one line about what a
 * reader may miss. */
int arena_db_open(const char *path, enum arena_db_mode mode, struct arena_db_busy *busy,
                  sqlite3 **db, const char **note, char *err, size_t errlen);

/* One step of the wait (SQLite's busy handler shape): naps and returns 1
 * to try again, or 0 once ARENA_DB_BUSY_MS have passed since count was 0 or
 * stop asked. For loops that retry by hand (switching to WAL). */
int arena_db_wait(struct arena_db_busy *busy, int count);

#endif
