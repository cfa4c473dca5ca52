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

/* Back to version 17 (drops what version 18 added: results.planner_spec;
 * brings back results.optimal_engine, NULL: a v17 row of optimal holds its
 * engine there, set it by hand). */
#define TD_BACK_TO_V17                                                                       \
    "ALTER TABLE results DROP COLUMN planner_spec;"                                           \
    "ALTER TABLE results ADD COLUMN optimal_engine TEXT; PRAGMA user_version = 17;"

/* Back to version 16 (drops what version 17 added too: the results' head
 * and whole arena). */
#define TD_BACK_TO_V16                                                                       \
    TD_BACK_TO_V17                                                                           \
    "ALTER TABLE results DROP COLUMN head_bytes;"                                             \
    "ALTER TABLE results DROP COLUMN whole_arena; PRAGMA user_version = 16;"

/* Back to version 15 (drops what version 16 added too: the results' kernel
 * scratch rule, its policy and the device arena). */
#define TD_BACK_TO_V15                                                                       \
    TD_BACK_TO_V16                                                                           \
    "ALTER TABLE results DROP COLUMN kernel_scratch;"                                         \
    "ALTER TABLE results DROP COLUMN scratch_policy;"                                         \
    "ALTER TABLE results DROP COLUMN device_arena; PRAGMA user_version = 15;"

/* Back to version 14 (drops what version 15 added too: the results' claims
 * and a program's identity). */
#define TD_BACK_TO_V14                                                                       \
    TD_BACK_TO_V15                                                                           \
    "ALTER TABLE results DROP COLUMN claimed_status;"                                        \
    "ALTER TABLE results DROP COLUMN claimed_bound;"                                         \
    "ALTER TABLE results DROP COLUMN command_sha256; PRAGMA user_version = 14;"

/* Back to version 13 (drops what version 14 added too: the results' planner
 * origin and timing columns). */
#define TD_BACK_TO_V13                                                                       \
    TD_BACK_TO_V14 "ALTER TABLE results DROP COLUMN origin; ALTER TABLE results DROP COLUMN plugin_path;"   \
    "ALTER TABLE results DROP COLUMN plugin_sha256;"                                         \
    "ALTER TABLE results DROP COLUMN planner_command;"                                       \
    "ALTER TABLE results DROP COLUMN timing; ALTER TABLE results DROP COLUMN self_ns;"       \
    "PRAGMA user_version = 13;"

/* Back to version 12 (drops what version 13 added too: results.optimal_engine). */
#define TD_BACK_TO_V12                                                                       \
    TD_BACK_TO_V13 "ALTER TABLE results DROP COLUMN optimal_engine; PRAGMA user_version = 12;"

/* Back to version 11 (drops what version 12 added too: runs.stopped). */
#define TD_BACK_TO_V11                                                                       \
    TD_BACK_TO_V12 "ALTER TABLE runs DROP COLUMN stopped; PRAGMA user_version = 11;"

/* Back to version 10 (drops what version 11 added too: runs.tag and the
 * results' configuration and problem columns). */
#define TD_BACK_TO_V10                                                                       \
    TD_BACK_TO_V11                                                                           \
    "ALTER TABLE runs DROP COLUMN tag; ALTER TABLE results DROP COLUMN order_mode;"          \
    "ALTER TABLE results DROP COLUMN order_budget; ALTER TABLE results DROP COLUMN patch;"  \
    "ALTER TABLE results DROP COLUMN problem_fingerprint;"                                   \
    "ALTER TABLE results DROP COLUMN fixed_lower_bound;"                                     \
    "ALTER TABLE results DROP COLUMN order_status;"                                          \
    "ALTER TABLE results DROP COLUMN stored_order_peak;"                                     \
    "ALTER TABLE results DROP COLUMN order_bound; ALTER TABLE results DROP COLUMN order_states;" \
    "ALTER TABLE results DROP COLUMN order_ns; PRAGMA user_version = 10;"

/* SQL that takes a database of the current schema back to version 9 (drops
 * what version 10 added: the graphs' execution order columns). */
#define TD_BACK_TO_V9                                                                        \
    TD_BACK_TO_V10                                                                           \
    "ALTER TABLE graphs DROP COLUMN exec_order; ALTER TABLE graphs DROP COLUMN order_status;" \
    "ALTER TABLE graphs DROP COLUMN stored_order_peak;"                                      \
    "ALTER TABLE graphs DROP COLUMN order_bound; ALTER TABLE graphs DROP COLUMN order_states;" \
    "ALTER TABLE graphs DROP COLUMN order_ns; PRAGMA user_version = 9;"

/* Back to version 8 (drops what version 9 added too: results.inplace and inplace_bound, placements.shares). */
#define TD_BACK_TO_V8                                                                        \
    TD_BACK_TO_V9                                                                            \
    "ALTER TABLE results DROP COLUMN inplace; ALTER TABLE results DROP COLUMN inplace_bound;" \
    "ALTER TABLE placements DROP COLUMN shares; PRAGMA user_version = 8;"

/* Back to version 7 (drops what version 8 added too: runs.uuid, results.seq
 * and planner options, replays.seq, their indexes), for tests that build
 * older files; ends with PRAGMA user_version = 7, which a test may follow
 * with more. */
#define TD_BACK_TO_V7                                                                        \
    TD_BACK_TO_V8                                                                            \
    "DROP INDEX runs_uuid; DROP INDEX results_run_seq; DROP INDEX replays_run_seq;"         \
    "ALTER TABLE runs DROP COLUMN uuid; ALTER TABLE results DROP COLUMN seq;"               \
    "ALTER TABLE results DROP COLUMN time_limit; ALTER TABLE results DROP COLUMN node_limit;" \
    "ALTER TABLE results DROP COLUMN planner_seed; ALTER TABLE results DROP COLUMN capacity;" \
    "ALTER TABLE replays DROP COLUMN seq; PRAGMA user_version = 7;"

/* One CSV record (RFC 4180) at *p into field[0..max), each malloc'd (free
 * them); *p moves past it. Returns the record's field count, which may pass
 * max (the rest are not kept). */
size_t td_csv_record(const char **p, char **field, size_t max);

/* The first column of a query's one row (asserts there is one). */
int64_t td_db_int(sqlite3 *db, const char *sql);

/* The same, on the database file at path opened read-only for it. */
int64_t td_file_int(const char *path, const char *sql);

/* Writes text to td_dir/name, its path into path (asserts). */
void td_write(const char *name, const char *text, char *path, size_t len);

/* The SHA-256 of the file at path, or of a text, by sha256sum (coreutils),
 * not by bench's code: 64 hex digits and a NUL (asserts). */
void td_sha256(const char *path, char hex[65]);
void td_sha256_text(const char *text, char hex[65]);

#endif
