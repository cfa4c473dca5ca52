/* layout.h — a planner's working memory, described once in sizeof terms.
 *
 * A planner writes one function that takes every array it needs from a
 * layout cursor, in order: `w->rank = arena_layout_take(l, n, sizeof *w->rank)`.
 * Called with a counting cursor (base NULL) it sizes the scratch, and that
 * figure is the planner's published scratch_bytes; called with the caller's
 * scratch it carves the same arrays at the same offsets. So the reported
 * figure is exact by construction and no byte offset is written by hand —
 * the shape of TFLite Micro's per_buffer_size()/Init() and CMSIS-NN's
 * *_get_buffer_size(). A planner writes that function in the shape of
 * arena_layout_fn and hands it to arena_layout_count (its scratch_bytes) and
 * arena_layout_carve (the start of its plan), so the sizing, the carving and
 * the check between them are written once, here. Internal to planners/. */
#ifndef ARENA_LAYOUT_H
#define ARENA_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

/* Every array starts at a multiple of this (enough for any scalar type the
 * planners use; malloc'd scratch is aligned at least this much). */
#define ARENA_LAYOUT_ALIGN ((size_t)16)

struct arena_layout {
    unsigned char *base; /* NULL: only count */
    size_t used;         /* bytes taken so far, a multiple of ARENA_LAYOUT_ALIGN */
    int overflow;        /* a count × size or the running total passed SIZE_MAX */
};

/* Starts a cursor over base (NULL to count only). */
void arena_layout_init(struct arena_layout *l, void *base);

/* Takes count elements of size bytes, aligned to ARENA_LAYOUT_ALIGN. Returns
 * the array inside base, or NULL when counting, when count is 0, or after an
 * overflow. */
void *arena_layout_take(struct arena_layout *l, size_t count, size_t size);

/* The bytes taken: ARENA_OK, or ARENA_EOVERFLOW when they do not fit size_t. */
int arena_layout_bytes(const struct arena_layout *l, size_t *bytes);

struct arena_problem;

/* A planner's one description of its scratch for p: takes every array of
 * *work (the planner's own struct) from l, in order. ARENA_OK, or the
 * planner's refusal of p (ARENA_EOVERFLOW for more tensors than its 32-bit
 * ids hold, ...): then scratch_bytes fails and plan() never sees p. */
typedef int arena_layout_fn(struct arena_layout *l, const struct arena_problem *p, void *work);

/* A planner's scratch_bytes: the bytes describe() takes for p, counted with
 * base NULL (every pointer it sets in *work is NULL). */
int arena_layout_count(arena_layout_fn *describe, const struct arena_problem *p, void *work,
                       size_t *bytes);

/* The start of a planner's plan(): carves scratch into *work with the same
 * description. arena_planner_run asked scratch_bytes first (so describe()
 * accepts p) and checked that scratch holds that many bytes; both are
 * asserted, not checked again. */
void arena_layout_carve(arena_layout_fn *describe, const struct arena_problem *p, void *work,
                        void *scratch, size_t scratch_size);

#endif
