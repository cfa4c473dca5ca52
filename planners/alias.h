/* alias.h — the in-place pre-pass: a problem with alias candidates becomes
 * one without, which every planner plans unchanged, and its plan becomes a
 * plan of the problem again.
 *
 * Candidates are taken in declared order: a pair is accepted unless its
 * output already takes another input's bytes or its input already gives
 * them to another output. Accepted pairs link tensors into chains (each
 * tensor takes at most one input's bytes and gives its own to at most one
 * output), and each chain becomes one interval of the merged problem: from
 * its first tensor's first step to its last tensor's last step, as large as
 * its largest tensor (the first: sizes never grow along a chain). Every
 * tensor of a chain gets the chain's offset, so each output sits on its
 * input's first bytes; tensors of one chain never conflict but through an
 * accepted pair, and whatever conflicts with one of them conflicts with the
 * interval. The merged problem's max-live bytes is the in-place bound. */
#ifndef ARENA_ALIAS_H
#define ARENA_ALIAS_H

#include <stddef.h>
#include <stdint.h>

#include "planners/problem.h"

#define ARENA_ALIAS_NONE UINT32_MAX

struct arena_alias_merge {
    struct arena_problem merged; /* owns its tensors; no alias candidates */
    uint32_t *group;             /* p->n: the merged interval of each tensor */
    uint32_t *takes;             /* p->n: the input whose bytes the tensor takes
                                    (an accepted pair), or ARENA_ALIAS_NONE */
    size_t accepted;             /* pairs accepted */
};

/* Builds the merge of p (which has passed arena_problem_check; any number of
 * candidates, 0 gives a copy). *m is zeroed on error (ARENA_ENOMEM). */
int arena_alias_merge(const struct arena_problem *p, struct arena_alias_merge *m);
void arena_alias_merge_free(struct arena_alias_merge *m);

/* A plan of m->merged (mp) as a plan of the problem (plan->n == its n,
 * offsets caller-owned): every tensor at its interval's offset; arena,
 * buffers, status, bound and nodes carried over. */
void arena_alias_expand(const struct arena_alias_merge *m, const struct arena_plan *mp,
                        struct arena_plan *plan);

/* The metrics of a plan made through the merge: arena_alias_metrics, with
 * the other plan figures in problem.h (bounds.c). */

#endif
