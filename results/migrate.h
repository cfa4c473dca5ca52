/* migrate.h — the schema as SQL compiled into the program (nothing is read
 * from files at run time) and the forward migrations. Internal to results/. */
#ifndef ARENA_MIGRATE_H
#define ARENA_MIGRATE_H

#include <sqlite3.h>
#include <stddef.h>

/* results/schema.sql, one string a line, then NULL (results/meson.build
 * makes it from the file). */
extern const char *const arena_schema_sql[];

/* Inside the caller's transaction: creates schema version ARENA_STORE_VERSION
 * in an empty database, or brings version `from` (1 .. current-1) forward one
 * step at a time; sets application_id and user_version. SQLite's result code
 * and err on failure. */
int arena_schema_create(sqlite3 *db, char *err, size_t errlen);
int arena_schema_migrate(sqlite3 *db, int from, char *err, size_t errlen);

#endif
