/* planner_help.h — the planners' keys for people, printed from their key
 * tables (struct arena_key, include/arenabench/planner.h): `bench list`,
 * `bench run --help` and the Markdown table docs/planners.md carries
 * (`bench help --markdown planners`, written by scripts/docs-options and
 * held to the code by tests/test_options.c). Internal to bench/. */
#ifndef ARENA_BENCH_PLANNER_HELP_H
#define ARENA_BENCH_PLANNER_HELP_H

#include <stdio.h>

#include "planners/planner.h"

/* pl's name, kind and summary on one line, then a line per key: its
 * default as key=value, what it takes and its help (indent: spaces before
 * the name). */
void arena_planner_help(FILE *out, const struct arena_planner *pl, int indent);

/* Every built-in planner's keys as `bench --help` shows them, a planner a
 * line with its keys after it (the planners without keys named once). */
void arena_planner_help_keys(FILE *out);

/* The Markdown table: planner, key, what it takes, default, meaning; a row
 * per key of every built-in planner. */
void arena_planner_help_markdown(FILE *out);

#endif
