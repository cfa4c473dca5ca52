/* device.h — the arena TensorFlow Lite Micro allocates for an offline plan.
 *
 * TFLM keeps every offline-planned buffer where the plan puts it and
 * places the rest (its kernels' scratch buffers always, and any tensor the
 * plan leaves out) with its GreedyMemoryPlanner: the online buffers
 * largest first (equal sizes in the order they were added), each at the
 * lowest offset where it fits between the buffers already placed that live
 * at the same time. Its arena's planned section is the highest end of any
 * buffer. This is our own rewriting of that rule (TFLM's
 * memory_planner/greedy_memory_planner.cc); it is not a planner of the
 * registry but a figure bench reports beside one: the planner's offsets of
 * the offline tensors, and TFLM's rule for the others. */
#ifndef ARENA_DEVICE_H
#define ARENA_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "planners/problem.h"

/* p's tensors with online[i] == 0 stay at offsets[i]; the others are
 * placed by TFLM's rule, in id order among equal sizes. out (may be NULL,
 * may be offsets) receives every offset; *arena the highest end.
 * ARENA_ENOMEM. */
int arena_device_place(const struct arena_problem *p, const uint64_t *offsets,
                       const unsigned char *online, uint64_t *out, uint64_t *arena);

#endif
