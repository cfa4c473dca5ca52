/* tmpdb.h — what the tests of real SQLite files share: a fresh temporary
 * folder per test (Criterion .init/.fini of the suite, so each test's child
 * process has its own), whole files read back, and one-integer queries. The
 * helpers assert with Criterion, so they belong in tests only. */
#ifndef TMPDB_H
#define TMPDB_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

extern char td_dir[64]; /* the current test's folder, set by td_make_dir */

void td_make_dir(void);   /* suite .init: a new /tmp/arena-test-XXXXXX */
void td_remove_dir(void); /* suite .fini: the folder and all in it */

/* td_dir/name into buf (asserts that it fits). */
void td_path(char *buf, size_t len, const char *name);

/* A whole file, NUL-terminated (len may be NULL); NULL if it cannot be read. */
char *td_slurp(const char *path, size_t *len);

/* Opens path read-only (readonly != 0), waiting up to 10 s for writers, or
 * read-write creating it; asserts success. */
sqlite3 *td_db_open(const char *path, int readonly);

/* The first column of a query's one row (asserts there is one). */
int64_t td_db_int(sqlite3 *db, const char *sql);

#endif
