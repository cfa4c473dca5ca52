/* transforms.h — what turns a graph into the problem that is planned,
 * recorded as one small descriptor that travels with the problem: into the
 * results database (a result's configuration), every label of bench stats
 * and bench plot, and every exported plan.
 *
 * graphs/source.c applies them once, in one place, in this order:
 *   1. patch   (--patch RxC:K[:stream], graphs/patch.h): the first K ops
 *              run patch by patch; graph families with windows only;
 *   3. scratch (--scratch none|cmsis-nn[:m4|m55]|reference and
 *              --scratch-policy lifetime|tail, graphs/scratch.h): the
 *              kernels' scratch buffers as tensors;
 *   4. order   (--order stored|best, graphs/exec_order.h): the execution
 *              order, searched under the in-place rule's hook, scratch
 *              buffers counted;
 *   5. inplace (--inplace none|elementwise|depthwise, graphs/inplace.h):
 *              the rule's alias candidates;
 * then the lifetimes, every size rounded up to `alignment` (the problem).
 * A bare problem (a CSV, a problem family) has no graph: only the alignment
 * applies to it, the others are refused (patch) or change nothing (order,
 * in-place). A new transformation is a field here, a step in source.c's
 * table, a word in the label and a column in results/schema.sql. */
#ifndef ARENA_TRANSFORMS_H
#define ARENA_TRANSFORMS_H

#include <stddef.h>
#include <stdint.h>

#include "graphs/exec_order.h"
#include "graphs/inplace.h"
#include "graphs/patch.h"
#include "graphs/scratch.h"

struct arena_transforms {
    uint64_t alignment;              /* every size rounded up to it */
    struct arena_patch_spec patch;   /* rows 0: not patched */
    enum arena_order_mode order;     /* stored (the graph's own) or best */
    uint64_t order_states;           /* the best-order search's budget; 0: its
                                        default (only read with order best) */
    enum arena_inplace_rule inplace; /* none: no aliasing */
    enum arena_scratch_rule scratch; /* none: no kernel scratch buffers */
    enum arena_scratch_policy scratch_policy; /* lifetime or tail (only read
                                                 when scratch is not none) */
};

/* "4x4:13" or "4x4:13:stream" into buf; "" when not patched. */
void arena_patch_text(const struct arena_patch_spec *p, char *buf, size_t len);

/* Whether t changes the problem beyond rounding sizes: a patch, the best
 * order, an in-place rule or kernel scratch. */
int arena_transforms_any(const struct arena_transforms *t);

/* The label of a configuration, for people: the transformations that are
 * not the default, joined by " · " (rule, order, patch, scratch):
 * "in-place depthwise · best order · patch 4×4:13 · scratch cmsis-nn:m4
 * tail" (the policy only when not lifetime); "plain" when there is none. The alignment is added
 * ("align 64") only when with_alignment is set, the best order's budget
 * ("order states 1000") only when with_states is. UTF-8; cut to len. */
void arena_transforms_label(const struct arena_transforms *t, int with_alignment,
                            int with_states, char *buf, size_t len);

/* The same label from the descriptor as text (as the results database
 * stores it: rule "none", order "stored" or "best", patch "" or "RxC:K",
 * order_states 0 for the default, scratch "none" or a rule, its policy
 * "lifetime" or "tail"; NULL scratch: none), for readers of stored
 * results; a rule or order this bench does not know is shown as it is
 * written. */
void arena_transforms_text_label(const char *inplace, const char *order, uint64_t order_states,
                                 const char *patch, const char *scratch,
                                 const char *scratch_policy, uint64_t alignment,
                                 int with_alignment, int with_states, char *buf, size_t len);

#endif
