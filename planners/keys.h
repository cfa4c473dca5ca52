/* keys.h — the one parser of key=value specs, for graph families
 * (graphs/spec.c) and planners (bench's --planner NAME:key=value) alike.
 *
 * A table of keys (struct arena_key, include/arenabench/planner.h) and a
 * text "key=value[,key=value...]": keys in any order, each at most once,
 * every key not given takes its default (a key without one, `seed`: the
 * caller's seed). Values are normalised in the canonical text: integers in
 * decimal, numbers in the shortest form that reads back exactly, a choice
 * by name, a set as its names in table order joined by '+' ("none" when
 * empty). Two spellings of one configuration have one canonical text.
 *
 * Every error is one line that starts with the owner's name ("packed: ",
 * "optimal: ") and names the key and what is valid. It lives in the lowest
 * library (planners/, which graphs/ builds on) so that both layers share it. */
#ifndef ARENA_KEYS_H
#define ARENA_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "arenabench/planner.h"

/* The index of the key named name (len bytes) in keys, or n when none. */
size_t arena_keys_find(const struct arena_key *keys, size_t n, const char *name, size_t len);

/* The key names, ", "-separated, into buf (truncated to fit). */
void arena_keys_names(const struct arena_key *keys, size_t n, char *buf, size_t cap);

/* One value (len bytes at s) of key k into *v. ARENA_OK, or ARENA_EINVAL
 * with "OWNER: key 'K': ..." in err. */
int arena_key_parse_value(const char *owner, const struct arena_key *k, const char *s, size_t len,
                          struct arena_key_value *v, char *err, size_t errlen);

/* The normalised text of v (kind of k) into buf. */
void arena_key_format_value(const struct arena_key *k, const struct arena_key_value *v, char *buf,
                            size_t cap);

/* Parses text (len bytes: "key=value,...", or empty) against the n keys
 * into v[0..n-1], defaults filled (seed for a key without one).
 * ARENA_ENOTFOUND for an unknown key (err lists the valid ones),
 * ARENA_EINVAL for a bad value, a repeated key or a bad default. */
int arena_keys_parse(const char *owner, const struct arena_key *keys, size_t n, const char *text,
                     size_t len, uint64_t seed, struct arena_key_value *v, char *err,
                     size_t errlen);

/* The defaults alone (arena_keys_parse of ""). */
int arena_keys_defaults(const char *owner, const struct arena_key *keys, size_t n, uint64_t seed,
                        struct arena_key_value *v, char *err, size_t errlen);

/* The canonical "key=value,..." of v into buf (capacity cap, always
 * terminated); "" when n is 0. ARENA_OK, or ARENA_EOVERFLOW when it does
 * not fit. */
int arena_keys_format(const struct arena_key *keys, size_t n, const struct arena_key_value *v,
                      char *buf, size_t cap);

/* What k takes, in words, for lists and --help: "1..64", "0.01..1",
 * "one of a, b", "a set of a, b (joined by +, or none)". */
void arena_key_describe(const struct arena_key *k, char *buf, size_t cap);

/* Whether a table is well formed (a plugin's is checked before use): at
 * most ARENA_PLANNER_MAX_KEYS keys, names [a-z][a-z0-9_]* of at most 32
 * bytes and unique, a known kind, bounds in order, choices given (a SET:
 * at most 64, none named "none"), every default parses, only a UINT key
 * named seed without one. ARENA_OK or ARENA_EINVAL with one line in err
 * ("OWNER: key 'K': ..."). */
int arena_keys_check(const char *owner, const struct arena_key *keys, size_t n, char *err,
                     size_t errlen);

#endif
