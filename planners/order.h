/* order.h — the ordering helpers every file of planners/ shares (and graphs/csv.c its floor search).
 *
 * One radix sort, one binary heap and one floor search, so that no planner,
 * the validator or the metrics carries a copy of its own:
 *
 * - The radix sort: stable LSD, 8-bit digits, O(m · differing key bytes);
 *   bytes in which every key agrees cost no pass, and a few dozen values or
 *   fewer go by insertion. It orders 32-bit values by 64-bit keys that either
 *   move along with them (arena_radix_sort: every pass reads and writes
 *   sequentially; key, key copy and value copy take 20 bytes per value) or
 *   are a field of the tensor each value names, read in place
 *   (arena_order_sort: a 4-byte copy per value). Buffers come from the
 *   caller; nothing is allocated.
 *   Sorts chain because each is stable: by `first`, then by size descending,
 *   gives size descending, ties first ascending, then the earlier order.
 * - arena_heap_push / arena_heap_pop: a binary min-heap of 64-bit keys; a
 *   caller that needs a payload packs it into the low bits of the key.
 * - arena_floor_index: binary search for the last value <= x.
 *
 * Ids and values are 32-bit: callers keep counts below UINT32_MAX. */
#ifndef ARENA_ORDER_H
#define ARENA_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "planners/layout.h"
#include "planners/problem.h"

/* The buffers of one sort of up to `cap` pairs: the caller writes the keys
 * into key[0..m) before each arena_radix_sort; ktmp and vtmp are the sort's
 * own. Between sorts all three are free for other use. */
struct arena_radix {
    uint64_t *key;
    uint64_t *ktmp;
    uint32_t *vtmp;
};

/* Takes the buffers for up to cap pairs from the layout (see layout.h). */
void arena_radix_take(struct arena_radix *r, struct arena_layout *l, size_t cap);

/* Sorts r->key[0..m) ascending, moving val[0..m) along, stably. m <= cap. */
void arena_radix_sort(const struct arena_radix *r, uint32_t *val, size_t m);

enum arena_order_key {
    ARENA_ORDER_FIRST,     /* first ascending */
    ARENA_ORDER_LAST,      /* last ascending */
    ARENA_ORDER_SIZE_DESC, /* size descending */
};

/* idx[i] = i for i < n. */
void arena_order_identity(uint32_t *idx, size_t n);

/* ids[0..n) = every tensor id 0..n-1, ordered by the chosen field as
 * arena_order_sort does (ties by id); tmp holds n. */
void arena_order_ids(uint32_t *ids, uint32_t *tmp, size_t n, const struct arena_tensor *t,
                     enum arena_order_key key);

/* Reorders the tensor ids ids[0..m) so that the chosen field of t[ids[i]]
 * ascends (descends for ARENA_ORDER_SIZE_DESC), stably; tmp holds m. */
void arena_order_sort(uint32_t *ids, uint32_t *tmp, size_t m, const struct arena_tensor *t,
                      enum arena_order_key key);

/* Min-heap of h[0..*len): push x (room for it is the caller's), pop the
 * smallest (*len > 0). */
void arena_heap_push(uint64_t *h, size_t *len, uint64_t x);
uint64_t arena_heap_pop(uint64_t *h, size_t *len);

/* Index of the last value <= x in v[0..n), sorted ascending; n > 0 and
 * v[0] <= x (else 0). */
size_t arena_floor_index(const uint64_t *v, size_t n, uint64_t x);

#endif
