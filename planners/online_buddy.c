/* online_buddy.c — the binary buddy system as a runtime allocator would run
 * it (Knowlton 1965, "A Fast Storage Allocator"; Knuth, TAOCP vol. 1 §2.5).
 *
 * The replay of online_common.h (docs/runtime.md), no look-ahead. Blocks
 * are powers of two, at least the problem's alignment A, and a block of 2^k
 * bytes sits at a multiple of 2^k: a tensor of s bytes gets the block of
 * max(A, next power of two >= s) bytes, so its offset is a multiple of A. An
 * allocation takes the smallest free block that holds it (the lowest address
 * among free blocks of that size) and halves it until it fits, the upper
 * halves becoming free; a freed block merges with its buddy (address xor
 * size) while the buddy is free, up to the whole heap. The heap is one buddy
 * tree [0, H): it starts as the first block and doubles, [H, 2H) joining as
 * the buddy of [0, H), whenever no free block fits. Arena = max(offset +
 * size), the highest byte a tensor used; the heap H can be up to twice that
 * and each block up to twice its tensor (internal fragmentation).
 *
 * Free blocks sit in one ordered set by address per block size (ordset.h):
 * O(log n) per split or merge, at most 65 sizes looked at per allocation.
 * Their count is bounded: a free block is a child of a split block, a split
 * block holds a live block, and a heap that had to grow for a block of b
 * bytes holds a live block in each of its b-aligned parts, so H <= max(2 b m,
 * 4 b) for m live blocks; that leaves at most m (L + 4) + 2 free blocks, L =
 * log2(largest block / smallest block). Scratch: 12 bytes per tensor for the
 * orders and 16 per possible free block. */
#include <assert.h>

#include "planners/online_common.h"
#include "planners/ordset.h"
#include "planners/tables.h"

#define NIL ARENA_ORDSET_NIL
#define ORDERS 65 /* block sizes 2^0 .. 2^64 (the last only as a whole heap) */

struct work {
    struct arena_online_orders orders;
    struct arena_ordset set;  /* the node pool; key = block address */
    uint32_t capacity, used, spare;
    uint32_t root[ORDERS];    /* free blocks of 2^k bytes */
    int heap;                 /* log2 H, -1 while the heap is empty */
    unsigned least;           /* log2 A */
};

static unsigned log2_ceil(uint64_t x)
{
    unsigned k = 0;
    while (k < 64 && ((uint64_t)1 << k) < x)
        k++;
    return k;
}

static unsigned order_of(const struct work *w, uint64_t size)
{
    unsigned k = log2_ceil(size);
    return k < w->least ? w->least : k;
}

/* The pool bound of the head comment, or ARENA_EOVERFLOW. */
static int pool_nodes(const struct arena_problem *p, uint32_t *nodes)
{
    unsigned lo = 64, hi = 0, least = log2_ceil(p->alignment);
    uint64_t m = 0;
    for (size_t i = 0; i < p->n; i++) {
        uint64_t s = p->tensors[i].size;
        if (s == 0)
            continue;
        unsigned k = log2_ceil(s);
        if (k < least)
            k = least;
        lo = k < lo ? k : lo;
        hi = k > hi ? k : hi;
        m++;
    }
    uint64_t levels = m ? hi - lo + 4u : 0u;
    if (m > (UINT32_MAX - 3) / (levels ? levels : 1))
        return ARENA_EOVERFLOW;
    *nodes = (uint32_t)(m * levels + 2);
    return ARENA_OK;
}

static int carve(struct arena_layout *l, const struct arena_problem *p, void *work)
{
    struct work *w = work;
    uint32_t nodes;
    if (p->n >= UINT32_MAX)
        return ARENA_EOVERFLOW;
    int rc = pool_nodes(p, &nodes);
    if (rc != ARENA_OK)
        return rc;
    arena_online_orders_take(l, p->n, &w->orders);
    w->set.node = arena_layout_take(l, nodes, sizeof *w->set.node);
    w->capacity = nodes;
    return ARENA_OK;
}

static int buddy_scratch(const struct arena_problem *p, size_t *bytes)
{
    struct work w;
    return arena_layout_count(carve, p, &w, bytes);
}

static uint32_t leftmost(const struct work *w, uint32_t x)
{
    while (w->set.node[x].child[0] != NIL)
        x = w->set.node[x].child[0];
    return x;
}

static uint32_t find(const struct work *w, uint32_t x, uint64_t addr)
{
    while (x != NIL && w->set.node[x].key != addr)
        x = w->set.node[x].child[addr > w->set.node[x].key];
    return x;
}

/* Adds the free block [addr, addr + 2^k) without merging. */
static int put(struct work *w, uint64_t addr, unsigned k)
{
    uint32_t x;
    if (w->spare != NIL) {
        x = w->spare;
        w->spare = w->set.node[x].child[0];
    } else {
        assert(w->used < w->capacity); /* the bound of the head comment */
        if (w->used >= w->capacity)
            return ARENA_ENOMEM;
        x = w->used++;
    }
    w->set.node[x].key = addr;
    arena_ordset_insert(&w->set, &w->root[k], x, NULL, NULL);
    return ARENA_OK;
}

static void take(struct work *w, unsigned k, uint32_t x)
{
    arena_ordset_remove(&w->set, &w->root[k], x);
    w->set.node[x].child[0] = w->spare;
    w->spare = x;
}

/* Frees [addr, addr + 2^k), merging with free buddies inside the heap. */
static int give(struct work *w, uint64_t addr, unsigned k)
{
    while ((int)k < w->heap) {
        uint64_t buddy = addr ^ ((uint64_t)1 << k);
        uint32_t b = find(w, w->root[k], buddy);
        if (b == NIL)
            break;
        take(w, k, b);
        addr &= ~((uint64_t)1 << k);
        k++;
    }
    return put(w, addr, k);
}

static int buddy_alloc(void *state, uint32_t id, uint64_t size, uint64_t *offset)
{
    (void)id;
    struct work *w = state;
    unsigned k = order_of(w, size), j;
    int rc;
    for (;;) {
        for (j = k; j < ORDERS && w->root[j] == NIL; j++)
            ;
        if (j < ORDERS)
            break;
        if (w->heap < 0) {
            w->heap = (int)k;
            rc = put(w, 0, k);
        } else if (w->heap >= 64) {
            return ARENA_EOVERFLOW;
        } else {
            unsigned h = (unsigned)w->heap++;
            rc = give(w, (uint64_t)1 << h, h);
        }
        if (rc != ARENA_OK)
            return rc;
    }
    uint32_t x = leftmost(w, w->root[j]);
    uint64_t addr = w->set.node[x].key;
    take(w, j, x);
    while (j > k) {
        j--;
        rc = put(w, addr + ((uint64_t)1 << j), j);
        if (rc != ARENA_OK)
            return rc;
    }
    *offset = addr;
    return ARENA_OK;
}

static void buddy_release(void *state, uint32_t id, uint64_t offset, uint64_t size)
{
    (void)id;
    struct work *w = state;
    /* Cannot fail: merging frees a node before the one put takes. */
    int rc = give(w, offset, order_of(w, size));
    assert(rc == ARENA_OK);
    (void)rc;
}

static const struct arena_online_policy buddy_policy = {
    .alloc = buddy_alloc,
    .release = buddy_release,
};

static int buddy_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                      void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    struct work w;
    arena_layout_carve(carve, p, &w, scratch, scratch_size);
    w.used = 0;
    w.spare = NIL;
    for (unsigned k = 0; k < ORDERS; k++)
        w.root[k] = NIL;
    w.heap = -1;
    w.least = log2_ceil(p->alignment);
    return arena_online_replay(p, opt, &w.orders, &buddy_policy, &w, plan);
}

const struct arena_planner arena_planner_online_buddy = {
    .name = "online-buddy",
    .summary = "runtime replay, no look-ahead: binary buddy blocks (powers of two)",
    .kind = ARENA_KIND_ONLINE,
    .plan = buddy_plan,
    .scratch_bytes = buddy_scratch,
};
