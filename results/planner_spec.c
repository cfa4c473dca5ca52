/* planner_spec.c — the planner spec of a result stored before schema 18
 * (results/planner_spec.h). */
#include "results/planner_spec.h"

#include <stdio.h>
#include <string.h>

#include "planners/keys.h"
#include "planners/planner.h"
#include "planners/status.h"

int arena_planner_spec_legacy(const char *planner, const char *origin, const char *engine,
                              int has_seed, uint64_t seed, char *buf, size_t len)
{
    int built_in = !origin || strcmp(origin, "built-in") == 0;
    const struct arena_planner *p = built_in ? arena_planner_find(planner) : NULL;
    struct arena_key_value v[ARENA_PLANNER_MAX_KEYS];
    char why[256];
    if (!p || !p->n_keys || p->n_keys > ARENA_PLANNER_MAX_KEYS ||
        arena_keys_defaults(p->name, p->keys, p->n_keys, has_seed ? seed : 1, v, why,
                            sizeof why) != ARENA_OK) {
        int n = snprintf(buf, len, "%s", planner);
        return n >= 0 && (size_t)n < len ? ARENA_OK : ARENA_EINVAL;
    }
    /* optimal's engines were a column of their own (schema 13 to 16) */
    size_t e = arena_keys_find(p->keys, p->n_keys, "engine", 6);
    struct arena_key_value ev;
    if (engine && strcmp(p->name, "optimal") == 0 && e < p->n_keys &&
        arena_key_parse_value(p->name, &p->keys[e], engine, strlen(engine), &ev, why,
                              sizeof why) == ARENA_OK) /* else a name it lost: the default */
        v[e] = ev;
    int n = snprintf(buf, len, "%s:", p->name);
    if (n < 0 || (size_t)n >= len) return ARENA_EINVAL;
    return arena_keys_format(p->keys, p->n_keys, v, buf + n, len - (size_t)n) == ARENA_OK
               ? ARENA_OK
               : ARENA_EINVAL;
}

static void spec_sql(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *planner = (const char *)sqlite3_value_text(argv[0]);
    if (!planner) {
        sqlite3_result_null(ctx);
        return;
    }
    const char *origin = (const char *)sqlite3_value_text(argv[1]);
    const char *engine = (const char *)sqlite3_value_text(argv[2]);
    int has_seed = sqlite3_value_type(argv[3]) != SQLITE_NULL;
    uint64_t seed = has_seed ? (uint64_t)sqlite3_value_int64(argv[3]) : 0;
    char buf[4096];
    if (arena_planner_spec_legacy(planner, origin, engine, has_seed, seed, buf, sizeof buf))
        sqlite3_result_error(ctx, "arena_planner_spec: the spec is longer than 4 KiB", -1);
    else
        sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT);
}

int arena_planner_spec_sql_define(sqlite3 *db)
{
    return sqlite3_create_function(db, "arena_planner_spec", 4,
                                   SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, spec_sql, NULL,
                                   NULL);
}
