/* columns.h — what a reader of the results database (bench plot, stats,
 * merge) asks of a file before it reads: an arenabench database whose
 * schema has the columns it reads. A newer schema is read as long as they
 * are there (a later version adds columns, so an older reader still finds
 * its own); there is no version ceiling. Internal to results/. */
#ifndef ARENA_COLUMNS_H
#define ARENA_COLUMNS_H

#include <sqlite3.h>
#include <stddef.h>

/* Whether table has column (0 on any error). */
int arena_db_has_column(sqlite3 *db, const char *table, const char *column);

/* Checks db (opened from path) for the application id and every
 * "table.column" of need[] (NULL-terminated). ARENA_OK, or ARENA_EDB with
 * one line in err naming the file, the reader ("bench plot"), the first
 * column missing and both schema versions, the file's and this bench's
 * (ARENA_STORE_VERSION): "PATH: schema version 12, newer than this bench's
 * 11, has no results.arena_bytes, which bench plot reads; use a bench of
 * version 12", or for an older file "... older than ...; run bench once with
 * --db PATH to migrate it". *version receives the file's version (may be
 * NULL). */
int arena_db_check(sqlite3 *db, const char *path, const char *reader,
                   const char *const *need, int *version, char *err, size_t errlen);

/* SQL expressions, over the aliases r (results), g (graphs) and u (runs),
 * for a result's configuration and problem in any schema: the column
 * where the file has it, else what it stood for before (the values the
 * migration to version 11 gives: the rule 'none', the order 'best' when
 * the run's command line asked for it, the patch from the spec, the
 * graph's fingerprint and rule for the problem, the graph's order columns
 * for a best-order result; the budget and the fixed-order bound NULL). */
struct arena_db_config_sql {
    char inplace[32], order_mode[200], order_budget[32], patch[128], problem_fp[200];
    char lower_bound[64], fixed_lower_bound[48], order_bound[260], order_status[260];
    char tag[16];
    char scratch[48], scratch_policy[48]; /* 'none', 'lifetime' before 15 */
    /* The planner as stats and plot name it, its identity: its canonical
     * spec (results.planner_spec, schema 18; in an older file what the
     * migration would store, results/planner_spec.h) where the file holds
     * more than one spec of its name, else its name, for a built-in
     * planner (and in a file before schema 14), else with its origin,
     * "SPEC (plugin 1a2b3c4d)" (the first 8 hex digits of the shared
     * object's SHA-256: two builds of one plugin are two planners) or
     * "SPEC (cmd 5e6f7a8b)" (of the command's SHA-256, schema 15: two
     * commands under one name are two planners; "SPEC (cmd)" before). */
    char planner[4200];
};
void arena_db_config_sql(sqlite3 *db, struct arena_db_config_sql *out);

#endif
