/* objects.c — the in-use queue and the end-to-end layout of the
 * shared-object planners of the field (see objects.h). */
#include "planners/objects.h"

static int before(const struct arena_objq *q, uint32_t a, uint32_t b)
{
    return q->last[a] < q->last[b] || (q->last[a] == q->last[b] && a < b);
}

void arena_objq_push(struct arena_objq *q, uint32_t obj)
{
    size_t i = q->len++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!before(q, obj, q->heap[up]))
            break;
        q->heap[i] = q->heap[up];
        i = up;
    }
    q->heap[i] = obj;
}

uint32_t arena_objq_pop(struct arena_objq *q)
{
    uint32_t top = q->heap[0], x = q->heap[--q->len];
    size_t i = 0, n = q->len;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(q, q->heap[c + 1], q->heap[c]))
            c++;
        if (!before(q, q->heap[c], x))
            break;
        q->heap[i] = q->heap[c];
        i = c;
    }
    if (n > 0)
        q->heap[i] = x;
    return top;
}

int arena_objq_ends_before(const struct arena_objq *q, uint32_t first)
{
    return q->len > 0 && q->last[q->heap[0]] < first;
}

int arena_objects_lay(uint64_t *osize, uint32_t nobj, struct arena_plan *plan)
{
    uint64_t base = 0;
    for (uint32_t o = 0; o < nobj; o++) {
        uint64_t s = osize[o];
        if (s > UINT64_MAX - base)
            return ARENA_EOVERFLOW;
        osize[o] = base;
        base += s;
    }
    for (size_t i = 0; i < plan->n; i++)
        plan->offsets[i] = osize[plan->offsets[i]];
    plan->arena = base;
    plan->buffers = nobj;
    return ARENA_OK;
}
