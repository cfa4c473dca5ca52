/* test_db.c — the one way into a results database (results/db.h), on real
 * SQLite files: reading never creates a file; a reader sees what a writer
 * still holding its -wal committed; a writer waits for another process's
 * lock, and a stop hook ends that wait at once. */
#include <criterion/criterion.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "planners/status.h"
#include "results/db.h"
#include "tests/tmpdb.h"

TestSuite(db, .init = td_make_dir, .fini = td_remove_dir);

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

Test(db, reading_a_missing_file_creates_none)
{
    char path[160], err[300] = "";
    td_path(path, sizeof path, "none.sqlite");
    sqlite3 *db = NULL;
    cr_expect_eq(arena_db_open(path, ARENA_DB_READ, NULL, &db, NULL, err, sizeof err),
                 ARENA_ENOTFOUND);
    cr_expect_null(db);
    cr_expect(strstr(err, "none.sqlite") && !strchr(err, '\n'), "%s", err);
    cr_expect_neq(access(path, F_OK), 0, "reading made %s", path);
    /* A file that is no database is found on opening, in one line. */
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("not a database, but long enough to have a header of sorts ...........\n", f);
    fclose(f);
    cr_expect_eq(arena_db_open(path, ARENA_DB_READ, NULL, &db, NULL, err, sizeof err), ARENA_EDB);
    cr_expect(strstr(err, "cannot open") && !strchr(err, '\n'), "%s", err);
}

/* A writer in WAL mode that has not checkpointed: the reader reads its
 * committed rows from the -wal (mode=ro), and cannot write. */
Test(db, a_reader_sees_what_a_live_writer_committed)
{
    char path[160], err[300] = "";
    td_path(path, sizeof path, "live.sqlite");
    sqlite3 *w = NULL, *r = NULL;
    cr_assert_eq(arena_db_open(path, ARENA_DB_WRITE, NULL, &w, NULL, err, sizeof err), ARENA_OK,
                 "%s", err);
    cr_assert_eq(sqlite3_exec(w, "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;"
                                 " CREATE TABLE t (x); INSERT INTO t VALUES (1), (2), (3);",
                              NULL, NULL, NULL), SQLITE_OK);
    const char *note = "unset";
    cr_assert_eq(arena_db_open(path, ARENA_DB_READ, NULL, &r, &note, err, sizeof err), ARENA_OK,
                 "%s", err);
    cr_expect_null(note, "%s", note);
    cr_expect_eq(td_db_int(r, "SELECT count(*) FROM t"), 3, "the -wal's rows are read");
    cr_expect_neq(sqlite3_exec(r, "INSERT INTO t VALUES (4)", NULL, NULL, NULL), SQLITE_OK,
                  "a reader cannot write");
    sqlite3_close(r);
    sqlite3_close(w);
}

static int always(void *ctx)
{
    (void)ctx;
    return 1;
}

/* Another process holds the file's write lock for 0.4 s: a writer waits and
 * gets it (the policy's wait, not SQLite's default of none); with a stop
 * hook that asks at once, the wait ends at once, marked stopped. */
Test(db, a_writer_waits_for_a_lock_and_a_stop_ends_the_wait)
{
    char path[160], err[300] = "";
    td_path(path, sizeof path, "locked.sqlite");
    sqlite3 *db = NULL;
    cr_assert_eq(arena_db_open(path, ARENA_DB_WRITE, NULL, &db, NULL, err, sizeof err), ARENA_OK);
    cr_assert_eq(sqlite3_exec(db, "CREATE TABLE t (x)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    int ready[2];
    cr_assert_eq(pipe(ready), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        sqlite3 *c = NULL;
        if (sqlite3_open(path, &c) != SQLITE_OK ||
            sqlite3_exec(c, "BEGIN EXCLUSIVE", NULL, NULL, NULL) != SQLITE_OK)
            _exit(1);
        if (write(ready[1], "x", 1) != 1) _exit(1);
        nanosleep(&(struct timespec){0, 400000000L}, NULL);
        sqlite3_exec(c, "COMMIT", NULL, NULL, NULL);
        sqlite3_close(c);
        _exit(0);
    }
    char c;
    cr_assert_eq(read(ready[0], &c, 1), 1, "the child took no lock");
    struct arena_db_busy stop = {.stop = always};
    cr_assert_eq(arena_db_open(path, ARENA_DB_WRITE, &stop, &db, NULL, err, sizeof err), ARENA_OK);
    double t0 = now_s();
    cr_expect_neq(sqlite3_exec(db, "INSERT INTO t VALUES (1)", NULL, NULL, NULL), SQLITE_OK);
    cr_expect(stop.stopped, "the stop hook ended the wait");
    cr_expect_lt(now_s() - t0, 0.3, "a stopped wait is no wait");
    sqlite3_close(db);
    cr_assert_eq(arena_db_open(path, ARENA_DB_WRITE, NULL, &db, NULL, err, sizeof err), ARENA_OK);
    cr_expect_eq(sqlite3_exec(db, "INSERT INTO t VALUES (1)", NULL, NULL, NULL), SQLITE_OK,
                 "the writer waited for the lock: %s", sqlite3_errmsg(db));
    cr_expect_eq(td_db_int(db, "SELECT count(*) FROM t"), 1);
    sqlite3_close(db);
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}
