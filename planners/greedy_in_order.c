/* greedy_in_order.c — shared objects taken in order of first step, each
 * tensor into the free object closest to its size (TensorFlow Lite GPU's
 * GreedyInOrderAssignment,
 * tensorflow/lite/delegates/gpu/common/memory_management/greedy_in_order_assignment.h).
 *
 * Tensors in order of first step (ties: lower id; TFLite takes its records
 * in the order given). Before each tensor, every object whose tensor ended
 * before its first step goes back to the pool (objects.h). Among the free
 * objects the tensor takes the one whose size is closest to its own: the
 * smallest one at least as large (lowest object id among equal sizes) or
 * the largest smaller one (highest object id among equal sizes), the larger
 * of the two when they are equally close — TFLite's rule, which falls out
 * of its std::set ordered by (size, id). A smaller object grows to the
 * tensor's size. A new object of the tensor's size opens only when the pool
 * is empty. Objects are laid end to end in the order they were opened:
 * arena = the sum of object sizes, buffers = the object count.
 *
 * The pool is an ordered set by (size, object id) (planners/ordset.h): one
 * descent finds both neighbours of the tensor's size, O(n log n) in all.
 *
 * Scratch: 40 bytes per tensor (set node 16 with the object's size as its
 * key, order and sort buffer, object last steps and heap 4 each, object
 * sizes 8), from planners/layout.h. */
#include <assert.h>

#include "planners/layout.h"
#include "planners/objects.h"
#include "planners/order.h"
#include "planners/ordset.h"
#include "planners/tables.h"

#define NIL ARENA_ORDSET_NIL

struct work {
    struct arena_ordset_node *node; /* per object; key = its size */
    uint64_t *osize;                /* per object */
    uint32_t *rank;                 /* tensor ids by (first, id) */
    uint32_t *tmp;                  /* sort buffer */
    uint32_t *olast;                /* per object: last step of its tensor */
    uint32_t *heap;                 /* objects in use */
};

static int carve(struct arena_layout *l, const struct arena_problem *p, void *work)
{
    struct work *w = work;
    size_t n = p->n;
    if ((uint64_t)n >= UINT32_MAX)
        return ARENA_EOVERFLOW;
    w->node = arena_layout_take(l, n, sizeof *w->node);
    w->osize = arena_layout_take(l, n, sizeof *w->osize);
    w->rank = arena_layout_take(l, n, sizeof *w->rank);
    w->tmp = arena_layout_take(l, n, sizeof *w->tmp);
    w->olast = arena_layout_take(l, n, sizeof *w->olast);
    w->heap = arena_layout_take(l, n, sizeof *w->heap);
    return ARENA_OK;
}

static int in_order_scratch(const struct arena_problem *p, size_t *bytes)
{
    struct work w;
    return arena_layout_count(carve, p, &w, bytes);
}

/* The free object closest in size to `size` (see the head comment), or NIL
 * when the pool is empty. One descent by (key, id): every node passed on
 * the way is either the best "at least as large" so far or the best
 * "smaller" so far. */
static uint32_t closest(const struct arena_ordset_node *node, uint32_t root, uint64_t size)
{
    uint32_t up = NIL, down = NIL;
    for (uint32_t x = root; x != NIL;) {
        if (node[x].key >= size) {
            up = x;
            x = node[x].child[0];
        } else {
            down = x;
            x = node[x].child[1];
        }
    }
    if (up == NIL)
        return down;
    if (down != NIL && size - node[down].key < node[up].key - size)
        return down;
    return up;
}

static int in_order_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                         void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    size_t n = p->n;
    if (n == 0)
        return ARENA_OK;
    const struct arena_tensor *t = p->tensors;
    struct work w;
    arena_layout_carve(carve, p, &w, scratch, scratch_size);

    arena_order_ids(w.rank, w.tmp, n, t, ARENA_ORDER_FIRST);

    struct arena_ordset pool = {.node = w.node};
    uint32_t root = NIL, objects = 0;
    struct arena_objq q = {.heap = w.heap, .last = w.olast, .len = 0};
    for (size_t k = 0; k < n; k++) {
        if (k % ARENA_STOP_EVERY == 0 && arena_plan_stop_here(opt, p, plan))
            return ARENA_OK;
        uint32_t i = w.rank[k];
        while (arena_objq_ends_before(&q, t[i].first)) {
            uint32_t o = arena_objq_pop(&q);
            w.node[o].key = w.osize[o];
            arena_ordset_insert(&pool, &root, o, NULL, NULL);
        }
        uint32_t o = closest(w.node, root, t[i].size);
        if (o != NIL) {
            arena_ordset_remove(&pool, &root, o);
            if (w.osize[o] < t[i].size)
                w.osize[o] = t[i].size;
        } else {
            o = objects++;
            w.osize[o] = t[i].size;
        }
        w.olast[o] = t[i].last;
        arena_objq_push(&q, o);
        plan->offsets[i] = o;
    }
    return arena_objects_lay(w.osize, objects, plan);
}

const struct arena_planner arena_planner_greedy_in_order = {
    .name = "greedy-in-order",
    .summary = "shared objects in first-step order, closest free size, grown to fit (TFLite GPU)",
    .kind = ARENA_KIND_SHARED_OBJECTS,
    .plan = in_order_plan,
    .scratch_bytes = in_order_scratch,
};
