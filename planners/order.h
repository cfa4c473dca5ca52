/* order.h — internal: stable orders of tensor ids by one field of the problem.
 *
 * Contract: arena_order_sort() reorders idx[0..n) so that the keys
 * key(t[idx[i]]) ascend, keeping the present order of equal keys (stable), so
 * sorts chain: sort by `first`, then by size descending, gives size
 * descending, ties first ascending, ties by the order idx had before (the id
 * order when it started from arena_order_identity()). tmp holds n entries of
 * scratch. LSD radix sort on bytes, O(n · key bytes), no allocation; bytes
 * that every key shares are skipped. Ids are 32-bit: callers keep n below
 * UINT32_MAX. */
#ifndef ARENA_ORDER_H
#define ARENA_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "planners/problem.h"

enum arena_order_key {
    ARENA_ORDER_FIRST,     /* first ascending */
    ARENA_ORDER_LAST,      /* last ascending */
    ARENA_ORDER_SIZE_DESC, /* size descending */
};

void arena_order_identity(uint32_t *idx, size_t n);
void arena_order_sort(uint32_t *idx, uint32_t *tmp, size_t n, const struct arena_tensor *t,
                      enum arena_order_key key);

#endif
