/* ordset.h — internal: an ordered set of node ids (a treap), for sweeps.
 *
 * Contract:
 * - Nodes are ids 0..n-1 (n < UINT32_MAX); their storage is caller-owned:
 *   `link` has 2·n entries (left and right child of each node) and `key` n
 *   keys. Any number of sets may share one storage as long as every node is
 *   in at most one set at a time; a set is just its root, ARENA_ORDSET_NIL
 *   when empty. Nothing is allocated; link entries of nodes outside every set
 *   may hold anything.
 * - Order is by (key[id], id): equal keys are ordered by id, so every order
 *   is total and deterministic. The key of a node must not change while it is
 *   in a set.
 * - Heap priorities are a fixed bijective hash of the id, so the shape is
 *   deterministic and expected depth O(log n) whatever the key order; every
 *   operation is expected O(log n) and uses no recursion. */
#ifndef ARENA_ORDSET_H
#define ARENA_ORDSET_H

#include <stddef.h>
#include <stdint.h>

#define ARENA_ORDSET_NIL UINT32_MAX

struct arena_ordset {
    uint32_t *link;      /* 2 per node: link[2i] left child, link[2i+1] right */
    const uint64_t *key; /* key per node */
};

/* Inserts node x (not in any set) into the set at *root. When pred / succ are
 * not NULL they receive x's neighbours in order (ARENA_ORDSET_NIL if none). */
void arena_ordset_insert(const struct arena_ordset *s, uint32_t *root, uint32_t x,
                         uint32_t *pred, uint32_t *succ);

/* Removes node x, which must be in the set at *root. */
void arena_ordset_remove(const struct arena_ordset *s, uint32_t *root, uint32_t x);

/* Last node with key <= k / first node with key >= k; ARENA_ORDSET_NIL if none. */
uint32_t arena_ordset_floor(const struct arena_ordset *s, uint32_t root, uint64_t k);
uint32_t arena_ordset_ceil(const struct arena_ordset *s, uint32_t root, uint64_t k);

/* In-order neighbours of node x, which must be in the set; NIL at the ends. */
uint32_t arena_ordset_first(const struct arena_ordset *s, uint32_t root);
uint32_t arena_ordset_next(const struct arena_ordset *s, uint32_t root, uint32_t x);
uint32_t arena_ordset_prev(const struct arena_ordset *s, uint32_t root, uint32_t x);

#endif
