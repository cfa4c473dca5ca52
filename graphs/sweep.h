/* sweep.h — parameter grids inside a spec: one text names many graphs.
 *
 *     random-intervals:n=1000,seed=1..30
 *     random-intervals:n=100|200|500,live=10,seed=1..5
 *
 * A value may be a list of alternatives separated by '|', and each
 * alternative of an integer key may be an inclusive range A..B (A <= B). A
 * sweep stands for the Cartesian product of its keys' alternatives, in a
 * stable order: keys as written, the first written varying slowest, each
 * key's alternatives in the order written (a range ascending), like nested
 * loops. '|' and '..' were chosen because --graph splits items at ';' and
 * at ',' before a new spec, and neither character appears in a spec value
 * otherwise. Only a text whose part before ':' names a family is a sweep: a
 * path ("../data/a|b.csv") is never expanded. */
#ifndef ARENA_SWEEP_H
#define ARENA_SWEEP_H

#include <stddef.h>

/* The most specs one sweep may expand to. */
#define ARENA_SWEEP_MAX 1000000u

/* Appends the specs text stands for to *items / *n (each malloc'd, not
 * canonical: "family:key=value,..." with the keys as written). A text that
 * is not a sweep (no '|' and no '..' in a value, or not a family spec) is
 * appended unchanged. ARENA_EINVAL with one line in err naming the family
 * and key for an empty alternative, a range of a key that is not an
 * integer, a bad or empty range (B below A), or more than ARENA_SWEEP_MAX
 * specs; ARENA_ENOMEM. The values themselves are checked later, when each
 * spec is loaded. */
int arena_sweep_expand(const char *text, char ***items, size_t *n, char *err, size_t errlen);

/* The same with a lower limit than ARENA_SWEEP_MAX (0 or more: that one),
 * for callers that hold every spec at once under a tighter budget (the fuzz
 * target: a million specs under AddressSanitizer is gigabytes). */
int arena_sweep_expand_max(const char *text, unsigned max, char ***items, size_t *n, char *err,
                           size_t errlen);

/* The same for the keys of any owner of a key table (a planner's:
 * "hill-climb:seed=1..5", "optimal:off=none|stack|stack+twins"): text's
 * keys start at text + keys_at (after "NAME:", or after
 * "plugin:PATH.so:NAME:") and run to its end; a range needs a UINT key of
 * keys[0..n_keys) (a key not in the table is left to the spec's parser);
 * errors start with owner. Each spec appended is text up to keys_at, then
 * the keys with one value each; a text that is no sweep, itself. */
struct arena_key;
int arena_sweep_expand_keys(const char *owner, const struct arena_key *keys,
                            size_t n_keys, const char *text, size_t keys_at, char ***items,
                            size_t *n, char *err, size_t errlen);

/* Appends a malloc'd copy of s[0..len) (NUL-terminated) to *items / *n, the
 * list arena_sweep_expand appends to. ARENA_OK or ARENA_ENOMEM (the list
 * unchanged). */
int arena_sweep_append(char ***items, size_t *n, const char *s, size_t len);

#endif
