/* objects.h — what the shared-object planners of the field share (equality,
 * greedy-in-order, min-cost-flow; internal to planners/).
 *
 * TFLite GPU's shared-object planners walk the tensors in order of first
 * step and keep the objects in use in a queue ordered by the last step of
 * the tensor each one holds; an object is free again once that step is
 * behind the current tensor's first. Here the queue is a binary min-heap of
 * object ids ordered by (last, object id), so objects that end on the same
 * step are released lowest id first, deterministically (TFLite's
 * std::priority_queue pops the same order). The plan lays the objects one
 * after another in object-id order: arena = the sum of object sizes. */
#ifndef ARENA_OBJECTS_H
#define ARENA_OBJECTS_H

#include <stddef.h>
#include <stdint.h>

#include "planners/problem.h"

/* Objects in use: heap[0..len) of object ids, by (last[obj], obj). */
struct arena_objq {
    uint32_t *heap;       /* room for every object */
    const uint32_t *last; /* last step of the tensor each object holds */
    size_t len;
};

void arena_objq_push(struct arena_objq *q, uint32_t obj);
/* Removes and returns the object whose tensor ends first (lowest id on ties);
 * the queue must not be empty. */
uint32_t arena_objq_pop(struct arena_objq *q);
/* Nonzero when the queue holds an object whose tensor ended before step
 * first (so the caller pops it: it is free at first). */
int arena_objq_ends_before(const struct arena_objq *q, uint32_t first);

/* On entry plan->offsets[i] holds tensor i's object id (< nobj); on return
 * its byte offset: objects are laid end to end in id order. osize[0..nobj)
 * is overwritten with the objects' base offsets. Sets arena and buffers;
 * ARENA_EOVERFLOW when the sizes do not sum in 64 bits. */
int arena_objects_lay(uint64_t *osize, uint32_t nobj, struct arena_plan *plan);

#endif
