/* planner_spec.h — the planner spec of a result stored before schema 18.
 *
 * Since schema 18 a result's planner is its canonical spec
 * (results.planner_spec: the name, then every key of the planner's table with
 * its value, planners/keys). A row of an older database ran with the keys'
 * defaults, except where an older column held the value: planner optimal's
 * engines (results.optimal_engine, schema 13 to 17; "search" before it, the
 * only engine then) and a key named seed (results.planner_seed, else the
 * run's seed, runs.seed: bench's --seed, which a seed key without a default
 * takes). A planner from outside (a plugin, a program) had no keys then: its
 * name. The migration to 17 and the readers of an older file (bench stats,
 * bench plot) both use this one function, so the two agree. */
#ifndef ARENA_PLANNER_SPEC_H
#define ARENA_PLANNER_SPEC_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/* The canonical spec of a row of planner name `planner` and origin `origin`
 * ("built-in", "plugin", "cmd"; NULL: built-in) with optimal's engine
 * `engine` (NULL: none stored) and seed `seed` (has_seed 0: none stored),
 * into buf (len bytes). The name alone for a planner this bench does not
 * have built in. ARENA_OK, or ARENA_EINVAL when buf is too short. */
int arena_planner_spec_legacy(const char *planner, const char *origin, const char *engine,
                              int has_seed, uint64_t seed, char *buf, size_t len);

/* Defines the SQL function arena_planner_spec(planner, origin, engine, seed)
 * on db: arena_planner_spec_legacy of its arguments (NULL ones: none). */
int arena_planner_spec_sql_define(sqlite3 *db);

#endif
