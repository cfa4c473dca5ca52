/* layout.h — a planner's working memory, described once in sizeof terms.
 *
 * A planner writes one function that takes every array it needs from a
 * layout cursor, in order: `w->rank = arena_layout_take(l, n, sizeof *w->rank)`.
 * Called with a counting cursor (base NULL) it sizes the scratch, and that
 * figure is the planner's published scratch_bytes; called with the caller's
 * scratch it carves the same arrays at the same offsets. So the reported
 * figure is exact by construction and no byte offset is written by hand —
 * the shape of TFLite Micro's per_buffer_size()/Init() and CMSIS-NN's
 * *_get_buffer_size(). Internal to planners/. */
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

#endif
