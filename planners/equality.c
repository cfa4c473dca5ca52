/* equality.c — shared objects reused only by tensors of exactly their size
 * (TensorFlow Lite GPU's EqualityAssignment,
 * tensorflow/lite/delegates/gpu/common/memory_management/equality_assignment.h).
 *
 * Tensors in order of first step (ties: lower id; TFLite takes its records
 * in the order given, which its callers sort by first step). Before each
 * tensor, every object whose tensor ended before its first step is released
 * (in order of that last step, lower object id on ties: objects.h) onto a
 * stack for its size; the tensor takes the top of its size's stack (the
 * most recently released object of exactly its size), else opens a new
 * object of its size. Objects are laid end to end in the order they were
 * opened: arena = the sum of object sizes, buffers = the object count.
 * TFLite keeps the stacks in a hash map by size; here sizes are ranked once
 * (radix sort) and each rank has a stack linked through the objects, so the
 * whole plan is O(n log n) (the heap) with no search by size.
 *
 * Scratch: 40 bytes per tensor (two orders, the sort buffer and the size
 * ranks 4 each, object sizes 8, object last steps, heap, stack links and
 * stack tops 4 each), from planners/layout.h. */
#include <assert.h>

#include "planners/layout.h"
#include "planners/objects.h"
#include "planners/order.h"
#include "planners/tables.h"

#define NIL UINT32_MAX

struct work {
    uint32_t *rank;  /* tensor ids by (first, id) */
    uint32_t *tmp;   /* sort buffer, then per object: its size rank */
    uint32_t *cls;   /* per tensor: rank of its size among distinct sizes */
    uint32_t *bysize;/* tensor ids by size */
    uint64_t *osize; /* per object */
    uint32_t *olast; /* per object: last step of the tensor it holds */
    uint32_t *heap;  /* objects in use */
    uint32_t *next;  /* per object: the next free object of its size */
    uint32_t *top;   /* per size rank: the free object released last */
};

static int carve(struct arena_layout *l, const struct arena_problem *p, void *work)
{
    struct work *w = work;
    size_t n = p->n;
    if ((uint64_t)n >= UINT32_MAX)
        return ARENA_EOVERFLOW;
    w->rank = arena_layout_take(l, n, sizeof *w->rank);
    w->tmp = arena_layout_take(l, n, sizeof *w->tmp);
    w->cls = arena_layout_take(l, n, sizeof *w->cls);
    w->bysize = arena_layout_take(l, n, sizeof *w->bysize);
    w->osize = arena_layout_take(l, n, sizeof *w->osize);
    w->olast = arena_layout_take(l, n, sizeof *w->olast);
    w->heap = arena_layout_take(l, n, sizeof *w->heap);
    w->next = arena_layout_take(l, n, sizeof *w->next);
    w->top = arena_layout_take(l, n, sizeof *w->top);
    return ARENA_OK;
}

static int equality_scratch(const struct arena_problem *p, size_t *bytes)
{
    struct work w;
    return arena_layout_count(carve, p, &w, bytes);
}

static int equality_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                         void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    size_t n = p->n;
    if (n == 0)
        return ARENA_OK;
    const struct arena_tensor *t = p->tensors;
    struct work w;
    arena_layout_carve(carve, p, &w, scratch, scratch_size);

    arena_order_ids(w.rank, w.tmp, n, t, ARENA_ORDER_FIRST);
    if (arena_plan_stop_here(opt, p, plan))
        return ARENA_OK;
    arena_order_ids(w.bysize, w.tmp, n, t, ARENA_ORDER_SIZE_DESC);
    uint32_t classes = 0;
    for (size_t k = 0; k < n; k++) {
        if (k > 0 && t[w.bysize[k]].size != t[w.bysize[k - 1]].size)
            classes++;
        w.cls[w.bysize[k]] = classes;
    }
    for (uint32_t c = 0; c <= classes; c++)
        w.top[c] = NIL;

    struct arena_objq q = {.heap = w.heap, .last = w.olast, .len = 0};
    uint32_t objects = 0;
    for (size_t k = 0; k < n; k++) {
        if (k % ARENA_STOP_EVERY == 0 && arena_plan_stop_here(opt, p, plan))
            return ARENA_OK;
        uint32_t i = w.rank[k];
        while (arena_objq_ends_before(&q, t[i].first)) {
            uint32_t o = arena_objq_pop(&q);
            uint32_t c = w.tmp[o];
            w.next[o] = w.top[c];
            w.top[c] = o;
        }
        uint32_t c = w.cls[i], o = w.top[c];
        if (o != NIL) {
            w.top[c] = w.next[o];
        } else {
            o = objects++;
            w.osize[o] = t[i].size;
            w.tmp[o] = c; /* the sort buffer now holds each object's size rank */
        }
        w.olast[o] = t[i].last;
        arena_objq_push(&q, o);
        plan->offsets[i] = o;
    }
    return arena_objects_lay(w.osize, objects, plan);
}

const struct arena_planner arena_planner_equality = {
    .name = "equality",
    .summary = "shared objects reused only at exactly their size (TFLite GPU)",
    .kind = ARENA_KIND_SHARED_OBJECTS,
    .plan = equality_plan,
    .scratch_bytes = equality_scratch,
};
