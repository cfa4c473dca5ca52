/* planner_keys.h — a planner of the run with its keys: `--planner
 * NAME:key=value,...`, `plugin:PATH.so:NAME:key=value,...` and
 * `cmd:NAME:key=value,...=COMMAND`.
 *
 * A built-in or plugin planner's keys are parsed against its table
 * (struct arena_planner's keys) by the parser graph specs use
 * (planners/keys.h): every key not given takes its default, a key named
 * seed without one bench's --seed. A program (cmd:) has no table: its keys
 * are names [a-z][a-z0-9_]* with values of [A-Za-z0-9._+-], handed over
 * as they are, in its environment (bench/external/cmd.h), in name order in its
 * canonical spec.
 *
 * The canonical spec is the planner's identity in the results
 * (include/arenabench/planner.h): its name, then ':' and every key in
 * table order with its normalised value, or the bare name when it has no
 * keys. Internal to bench/. */
#ifndef ARENA_BENCH_PLANNER_KEYS_H
#define ARENA_BENCH_PLANNER_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "bench/external/plugin.h"

/* Fills o->values and o->spec for planner pl from o->keys (NULL: none),
 * seed being bench's --seed. ARENA_OK, or an error with one line in err
 * naming the planner, the key and the valid keys ("--planner optimal:
 * unknown key 'x' (valid: engine, off)"). */
int arena_planner_keys_resolve(const struct arena_planner *pl, struct arena_planner_origin *o,
                               uint64_t seed, char *err, size_t errlen);

/* A cmd: item's keys: "k=v,k=v" up to the '=' before the command. From
 * text (after "NAME:"), into *keys (malloc'd, sorted by name: the canonical
 * order) and *rest (the command, after that '='). ARENA_OK, or
 * ARENA_EINVAL / ARENA_ENOMEM with one line in err. */
int arena_planner_keys_cmd(const char *name, const char *text, char **keys, const char **rest,
                           char *err, size_t errlen);

#endif
