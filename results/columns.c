/* columns.c — a reader's check of a results database (columns.h). */
#include "results/columns.h"

#include <stdio.h>
#include <string.h>

#include "planners/status.h"
#include "results/store.h"

int arena_db_has_column(sqlite3 *db, const char *table, const char *column)
{
    sqlite3_stmt *st = NULL;
    int found = 0;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2", -1, &st,
                           NULL) == SQLITE_OK &&
        sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC) == SQLITE_OK &&
        sqlite3_bind_text(st, 2, column, -1, SQLITE_STATIC) == SQLITE_OK)
        found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found;
}

static int pragma_int(sqlite3 *db, const char *sql, long long *out)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

int arena_db_check(sqlite3 *db, const char *path, const char *reader,
                   const char *const *need, int *version, char *err, size_t errlen)
{
    long long app = 0, v = 0;
    if (pragma_int(db, "PRAGMA application_id", &app) != SQLITE_OK ||
        pragma_int(db, "PRAGMA user_version", &v) != SQLITE_OK)
        return arena_errorf(err, errlen, 0, ARENA_EDB, "%s: not a readable SQLite database (%s)",
                            path, sqlite3_errmsg(db));
    if (version)
        *version = (int)v;
    if (app != ARENA_STORE_APPLICATION_ID)
        return arena_errorf(err, errlen, 0, ARENA_EDB,
                            "%s is not an arenabench results database (application_id %lld)",
                            path, app);
    for (size_t i = 0; need[i]; i++) {
        char table[64];
        const char *dot = strchr(need[i], '.');
        size_t len = dot ? (size_t)(dot - need[i]) : 0;
        if (!dot || len >= sizeof table)
            continue; /* a caller's typo: nothing to ask */
        memcpy(table, need[i], len);
        table[len] = '\0';
        if (arena_db_has_column(db, table, dot + 1))
            continue;
        if (v > ARENA_STORE_VERSION)
            return arena_errorf(err, errlen, 0, ARENA_EDB,
                                "%s: schema version %lld, newer than this bench's %d, has no"
                                " %s, which %s reads; use a bench of schema version %lld or"
                                " later",
                                path, v, ARENA_STORE_VERSION, need[i], reader, v);
        return arena_errorf(err, errlen, 0, ARENA_EDB,
                            "%s: schema version %lld (this bench's is %d) has no %s, which %s"
                            " reads; run bench once with --db %s to migrate it",
                            path, v, ARENA_STORE_VERSION, need[i], reader, path);
    }
    return ARENA_OK;
}

void arena_db_config_sql(sqlite3 *db, struct arena_db_config_sql *o)
{
    int has_rule = arena_db_has_column(db, "results", "inplace");
    snprintf(o->inplace, sizeof o->inplace, "%s", has_rule ? "r.inplace" : "'none'");
    if (arena_db_has_column(db, "results", "order_mode"))
        snprintf(o->order_mode, sizeof o->order_mode, "r.order_mode");
    else
        snprintf(o->order_mode, sizeof o->order_mode,
                 "CASE WHEN ' ' || u.command || ' ' GLOB '* --order best *' OR"
                 " ' ' || u.command || ' ' GLOB '* --order=best *' THEN 'best' ELSE 'stored' END");
    snprintf(o->order_budget, sizeof o->order_budget, "%s",
             arena_db_has_column(db, "results", "order_budget") ? "r.order_budget" : "NULL");
    int has_scratch = arena_db_has_column(db, "results", "kernel_scratch");
    snprintf(o->scratch, sizeof o->scratch, "%s", has_scratch ? "r.kernel_scratch" : "'none'");
    snprintf(o->scratch_policy, sizeof o->scratch_policy, "%s",
             has_scratch ? "r.scratch_policy" : "'lifetime'");
    snprintf(o->patch, sizeof o->patch, "%s",
             arena_db_has_column(db, "results", "patch")
                 ? "r.patch"
                 : "CASE WHEN instr(g.spec, '+patch=') > 0 THEN"
                   " substr(g.spec, instr(g.spec, '+patch=') + 7) ELSE '' END");
    if (arena_db_has_column(db, "results", "problem_fingerprint"))
        snprintf(o->problem_fp, sizeof o->problem_fp, "r.problem_fingerprint");
    else
        snprintf(o->problem_fp, sizeof o->problem_fp,
                 "g.fingerprint || CASE WHEN %s = 'none' THEN '' ELSE '/' || %s END", o->inplace,
                 o->inplace);
    snprintf(o->lower_bound, sizeof o->lower_bound, "%s",
             arena_db_has_column(db, "results", "inplace_bound")
                 ? "coalesce(r.inplace_bound, g.lower_bound)"
                 : "g.lower_bound");
    snprintf(o->fixed_lower_bound, sizeof o->fixed_lower_bound, "%s",
             arena_db_has_column(db, "results", "fixed_lower_bound") ? "r.fixed_lower_bound"
                                                                      : "NULL");
    if (arena_db_has_column(db, "results", "order_bound")) {
        snprintf(o->order_bound, sizeof o->order_bound, "r.order_bound");
        snprintf(o->order_status, sizeof o->order_status, "r.order_status");
    } else if (arena_db_has_column(db, "graphs", "order_bound")) {
        snprintf(o->order_bound, sizeof o->order_bound,
                 "CASE WHEN %s = 'best' THEN g.order_bound END", o->order_mode);
        snprintf(o->order_status, sizeof o->order_status,
                 "CASE WHEN %s = 'best' THEN g.order_status END", o->order_mode);
    } else {
        snprintf(o->order_bound, sizeof o->order_bound, "NULL");
        snprintf(o->order_status, sizeof o->order_status, "NULL");
    }
    snprintf(o->tag, sizeof o->tag, "%s", arena_db_has_column(db, "runs", "tag") ? "u.tag" : "''");
    /* The spec: stored since 18 (a spec that is not of the row's planner,
     * '' or a row renamed by hand, reads as the name), else what the
     * migration would store. A planner is named by its spec only where the
     * database holds more than one spec of its name (a sweep over its keys,
     * two engines); else by its name, as before specs. */
    char one[400], spec[1000];
    if (arena_db_has_column(db, "results", "planner_spec"))
        snprintf(one, sizeof one,
                 "CASE WHEN substr(r.planner_spec, 1, length(r.planner) + 1) = r.planner || ':'"
                 " THEN r.planner_spec ELSE r.planner END");
    else
        snprintf(one, sizeof one, "arena_planner_spec(r.planner, %s, %s, %s)",
                 arena_db_has_column(db, "results", "origin") ? "r.origin" : "NULL",
                 arena_db_has_column(db, "results", "optimal_engine")
                     ? "r.optimal_engine"
                     : "CASE WHEN r.planner = 'optimal' THEN 'search' END",
                 arena_db_has_column(db, "results", "planner_seed")
                     ? "coalesce(r.planner_seed, u.seed)"
                     : "u.seed");
    snprintf(spec, sizeof spec,
             "CASE WHEN r.planner IN (SELECT r.planner FROM results r JOIN runs u ON u.id ="
             " r.run_id GROUP BY r.planner HAVING count(DISTINCT %s) > 1) THEN %s ELSE r.planner"
             " END",
             one, one);
    if (!arena_db_has_column(db, "results", "origin"))
        snprintf(o->planner, sizeof o->planner, "%s", spec);
    else if (arena_db_has_column(db, "results", "command_sha256"))
        snprintf(o->planner, sizeof o->planner,
                 "CASE r.origin WHEN 'plugin' THEN %s || ' (plugin ' ||"
                 " substr(r.plugin_sha256, 1, 8) || ')' WHEN 'cmd' THEN %s ||"
                 " coalesce(' (cmd ' || substr(r.command_sha256, 1, 8) || ')', ' (cmd)')"
                 " ELSE %s END",
                 spec, spec, spec);
    else
        snprintf(o->planner, sizeof o->planner,
                 "CASE r.origin WHEN 'plugin' THEN %s || ' (plugin ' ||"
                 " substr(r.plugin_sha256, 1, 8) || ')' WHEN 'cmd' THEN %s || ' (cmd)'"
                 " ELSE %s END",
                 spec, spec, spec);
}
