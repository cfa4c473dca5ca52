/* ordset.h — internal: an ordered set of node ids (a treap), for sweeps.
 *
 * Contract:
 * - Nodes are ids 0..n-1 (n < UINT32_MAX); their storage is caller-owned:
 *   an array of n struct arena_ordset_node. The caller sets node[id].key
 *   before inserting id; the set owns the child links. Key and links sit in
 *   one 16-byte record so a descent costs one cache line per level. Any
 *   number of sets may share one node array as long as every node is in at
 *   most one set at a time; a set is just its root, ARENA_ORDSET_NIL when
 *   empty. Nothing is allocated.
 * - Order is by (key, id): equal keys are ordered by id, so every order is
 *   total and deterministic. A node's key must not change while it is in a
 *   set.
 * - Heap priorities are a fixed bijective hash of the id, so the shape is
 *   deterministic and expected depth O(log n) whatever the key order; every
 *   operation is expected O(log n) and uses no recursion. */
#ifndef ARENA_ORDSET_H
#define ARENA_ORDSET_H

#include <stddef.h>
#include <stdint.h>

#define ARENA_ORDSET_NIL UINT32_MAX

struct arena_ordset_node {
    uint64_t key;
    uint32_t child[2]; /* left, right: owned by the set */
};

struct arena_ordset {
    struct arena_ordset_node *node; /* n nodes, indexed by id */
};

/* Inserts node x (not in any set) into the set at *root. When pred / succ are
 * not NULL they receive x's neighbours in order (ARENA_ORDSET_NIL if none). */
void arena_ordset_insert(const struct arena_ordset *s, uint32_t *root, uint32_t x,
                         uint32_t *pred, uint32_t *succ);

/* Removes node x, which must be in the set at *root. */
void arena_ordset_remove(const struct arena_ordset *s, uint32_t *root, uint32_t x);

/* Searches of one's own: walk a set from its root through node[x].child[0]
 * (smaller) and child[1] (larger), read-only. */

/* A treap node's heap priority: murmur3's 32-bit finaliser of its id, a
 * bijection, so no two ids share a priority (also the gap map's treap in
 * online_common.c). */
uint32_t arena_treap_prio(uint32_t x);

#endif
