/* validate.c — the independent plan checker.
 *
 * A sweep over steps in increasing order. At each step where some tensor
 * starts, the tensors whose lifetime ended before it leave the live set, then
 * the starting tensors enter it one by one. The live set is ordered by
 * (offset, id) and, as long as the plan is valid, its byte ranges are
 * disjoint, so a newcomer overlaps some live tensor exactly when it overlaps
 * its predecessor or its successor in that order: two checks per insertion,
 * O(n log n) in all. Zero-size tensors occupy no byte and never collide.
 * Shares no code with the planners beyond the ordered set and the sort. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planners/layout.h"
#include "planners/order.h"
#include "planners/ordset.h"
#include "planners/problem.h"

static int collide(struct arena_collision *why, size_t a, size_t b)
{
    if (why) {
        why->a = a;
        why->b = b;
        why->misaligned = 0;
    }
    return ARENA_ECONFLICT;
}

/* The sweep's working memory (malloc'd, described once like a planner's
 * scratch). */
struct work {
    struct arena_ordset_node *node; /* n: set nodes, indexed by id */
    uint32_t *by_first, *by_last;   /* the m ids with bytes */
    uint32_t *tmp;                  /* m: the sort's buffer */
};

static void work_take(struct work *w, struct arena_layout *l, size_t n, size_t m)
{
    w->node = arena_layout_take(l, n, sizeof *w->node);
    w->by_first = arena_layout_take(l, m, sizeof *w->by_first);
    w->by_last = arena_layout_take(l, m, sizeof *w->by_last);
    w->tmp = arena_layout_take(l, m, sizeof *w->tmp);
}

/* The sweep over the m tensors with bytes, their ids in by_first and by_last. */
static int sweep(const struct arena_problem *p, const uint64_t *off, const struct work *w,
                 size_t m, struct arena_collision *why)
{
    const struct arena_tensor *t = p->tensors;
    uint32_t *by_first = w->by_first, *by_last = w->by_last;
    struct arena_ordset_node *node = w->node;
    struct arena_ordset set = {.node = node};
    uint32_t root = ARENA_ORDSET_NIL;
    arena_order_sort(by_first, w->tmp, m, t, ARENA_ORDER_FIRST);
    arena_order_sort(by_last, w->tmp, m, t, ARENA_ORDER_LAST);
    size_t i = 0, r = 0;
    while (i < m) {
        uint32_t step = t[by_first[i]].first;
        for (; r < m && t[by_last[r]].last < step; r++)
            arena_ordset_remove(&set, &root, by_last[r]);
        for (; i < m && t[by_first[i]].first == step; i++) {
            uint32_t x = by_first[i], pred, succ;
            node[x].key = off[x];
            arena_ordset_insert(&set, &root, x, &pred, &succ);
            if (pred != ARENA_ORDSET_NIL && off[pred] + t[pred].size > off[x])
                return collide(why, pred, x);
            if (succ != ARENA_ORDSET_NIL && off[x] + t[x].size > off[succ])
                return collide(why, succ, x);
        }
    }
    return ARENA_OK;
}

int arena_plan_validate(const struct arena_problem *p, const struct arena_plan *plan,
                        struct arena_collision *why)
{
    if (why)
        memset(why, 0, sizeof *why);
    int rc = arena_problem_check(p, NULL);
    if (rc != ARENA_OK)
        return rc;
    if (!plan || plan->n != p->n || (p->n > 0 && !plan->offsets))
        return ARENA_EINVAL;
    if (p->n >= UINT32_MAX)
        return ARENA_EOVERFLOW; /* ids are 32-bit in the sweep */
    const uint64_t *off = plan->offsets;
    uint64_t top = 0;
    size_t m = 0;
    for (size_t i = 0; i < p->n; i++) {
        uint64_t size = p->tensors[i].size;
        if ((off[i] & (p->alignment - 1)) != 0) {
            if (why) {
                why->a = why->b = i;
                why->misaligned = 1;
            }
            return ARENA_ECONFLICT;
        }
        if (off[i] > UINT64_MAX - size)
            return ARENA_EOVERFLOW;
        if (off[i] + size > top)
            top = off[i] + size;
        m += size > 0;
    }
    if (m > 1) {
        struct work w;
        struct arena_layout l;
        size_t bytes;
        arena_layout_init(&l, NULL);
        work_take(&w, &l, p->n, m);
        if (arena_layout_bytes(&l, &bytes) != ARENA_OK)
            return ARENA_EOVERFLOW;
        void *mem = malloc(bytes);
        if (!mem)
            return ARENA_ENOMEM;
        arena_layout_init(&l, mem);
        work_take(&w, &l, p->n, m);
        size_t k = 0;
        for (size_t i = 0; i < p->n; i++)
            if (p->tensors[i].size > 0)
                w.by_first[k++] = (uint32_t)i;
        memcpy(w.by_last, w.by_first, m * sizeof *w.by_last);
        rc = sweep(p, off, &w, m, why);
        free(mem);
        if (rc != ARENA_OK)
            return rc;
    }
    return plan->arena == top ? ARENA_OK : ARENA_EINVAL;
}

void arena_collision_describe(const struct arena_problem *p, const struct arena_plan *plan,
                              const struct arena_collision *why, char *buf, size_t len)
{
    if (!buf || len == 0)
        return;
    if (!p || !plan || !why || why->a >= p->n || why->b >= p->n || plan->n != p->n) {
        snprintf(buf, len, "no collision to describe");
        return;
    }
    const struct arena_tensor *a = &p->tensors[why->a], *b = &p->tensors[why->b];
    uint64_t oa = plan->offsets[why->a], ob = plan->offsets[why->b];
    if (why->misaligned) {
        snprintf(buf, len,
                 "tensor %zu (steps [%" PRIu32 ",%" PRIu32 "], %" PRIu64
                 " bytes) has offset %" PRIu64 ", not a multiple of the alignment %" PRIu64,
                 why->a, a->first, a->last, a->size, oa, p->alignment);
        return;
    }
    snprintf(buf, len,
             "tensor %zu (steps [%" PRIu32 ",%" PRIu32 "], bytes [%" PRIu64 ",%" PRIu64
             ")) overlaps tensor %zu (steps [%" PRIu32 ",%" PRIu32 "], bytes [%" PRIu64
             ",%" PRIu64 "))",
             why->a, a->first, a->last, oa, oa + a->size, why->b, b->first, b->last, ob,
             ob + b->size);
}
