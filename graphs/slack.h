/* slack.h — the `slack` family's witness: the plan its construction proves
 * optimal (graphs/slack.c tells the construction). */
#ifndef ARENA_SLACK_H
#define ARENA_SLACK_H

#include <stddef.h>
#include <stdint.h>

#include "graphs/family.h"

/* Builds the problem of a parsed `slack` spec's values (spec.values, as
 * arena_spec_parse fills them; v must come from a spec of the family
 * `slack`) exactly as the family does, and, when offsets is not NULL, in
 * *offsets (malloc'd, p->n entries, the caller frees) the byte offset of
 * each tensor in the packing it was cut from: a valid plan of arena exactly
 * `height`, which is the problem's max-live bound. Errors as the family's
 * build (one line in err). */
int arena_slack_witness(const struct arena_key_value *v, uint64_t alignment,
                        struct arena_problem *p, uint64_t **offsets, char *err, size_t errlen);

#endif
