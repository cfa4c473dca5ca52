/* bounds.c — problem bounds and plan metrics, each one sweep over steps.
 *
 * Both sweeps walk the tensors ordered by first and by last (radix sorted,
 * O(n)), visiting only the steps where something starts or ends: between two
 * such steps nothing changes, so a run of equal steps counts with its length
 * and the cost never depends on how many steps there are. */
#include <stdlib.h>
#include <string.h>

#include "planners/order.h"
#include "planners/problem.h"

/* Ids of the tensors with bytes, ordered by first and by last. */
struct orders {
    uint32_t *mem, *by_first, *by_last, *tmp;
    size_t m;
};

static int orders_make(const struct arena_problem *p, struct orders *o)
{
    memset(o, 0, sizeof *o);
    size_t m = 0;
    for (size_t i = 0; i < p->n; i++)
        m += p->tensors[i].size > 0;
    o->m = m;
    if (m == 0)
        return ARENA_OK;
    if (m >= UINT32_MAX)
        return ARENA_EOVERFLOW;
    o->mem = malloc(3 * m * sizeof *o->mem);
    if (!o->mem)
        return ARENA_ENOMEM;
    o->by_first = o->mem;
    o->by_last = o->mem + m;
    o->tmp = o->mem + 2 * m;
    size_t k = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->tensors[i].size > 0)
            o->by_first[k++] = (uint32_t)i;
    memcpy(o->by_last, o->by_first, m * sizeof *o->by_last);
    arena_order_sort(o->by_first, o->tmp, m, p->tensors, ARENA_ORDER_FIRST);
    arena_order_sort(o->by_last, o->tmp, m, p->tensors, ARENA_ORDER_LAST);
    return ARENA_OK;
}

int arena_problem_bounds(const struct arena_problem *p, struct arena_bounds *out)
{
    int rc = arena_problem_check(p, NULL);
    if (rc != ARENA_OK)
        return rc;
    if (!out)
        return ARENA_EINVAL;
    struct arena_bounds b = {0};
    for (size_t i = 0; i < p->n; i++) {
        const struct arena_tensor *t = &p->tensors[i];
        b.naive_bytes += t->size; /* cannot wrap: the check proved the sum fits */
        if (t->size > b.largest)
            b.largest = t->size;
        if (t->last == UINT32_MAX)
            return ARENA_EOVERFLOW; /* 2^32 steps do not fit the step count */
        if (t->last >= b.steps)
            b.steps = t->last + 1;
    }
    /* max_live counts every tensor, zero-size ones included (they are live
     * and take a slot in ping-pong); the byte sweep needs only those with bytes. */
    if (p->n >= UINT32_MAX)
        return ARENA_EOVERFLOW;
    uint32_t *mem = p->n > 1 ? malloc(3 * p->n * sizeof *mem) : NULL;
    if (p->n > 1 && !mem)
        return ARENA_ENOMEM;
    if (p->n == 1) {
        b.lower_bound = p->tensors[0].size;
        b.max_live = 1;
    } else if (p->n > 1) {
        uint32_t *by_first = mem, *by_last = mem + p->n, *tmp = mem + 2 * p->n;
        const struct arena_tensor *t = p->tensors;
        arena_order_identity(by_first, p->n);
        arena_order_identity(by_last, p->n);
        arena_order_sort(by_first, tmp, p->n, t, ARENA_ORDER_FIRST);
        arena_order_sort(by_last, tmp, p->n, t, ARENA_ORDER_LAST);
        uint64_t live = 0;
        uint32_t count = 0;
        for (size_t i = 0, r = 0; i < p->n;) {
            uint32_t step = t[by_first[i]].first;
            for (; r < p->n && t[by_last[r]].last < step; r++) {
                live -= t[by_last[r]].size;
                count--;
            }
            for (; i < p->n && t[by_first[i]].first == step; i++) {
                live += t[by_first[i]].size;
                count++;
            }
            if (live > b.lower_bound)
                b.lower_bound = live;
            if (count > b.max_live)
                b.max_live = count;
        }
    }
    free(mem);
    *out = b;
    return ARENA_OK;
}

/* Max-heap of live byte ranges by end address. Entries carry their own end
 * and last step (no lookups while sifting); ended ones stay until they
 * surface at the top ("lazy deletion"), so every entry is pushed and popped
 * at most once. */
struct top_entry {
    uint64_t end;
    uint32_t last;
};

static void heap_push(struct top_entry *h, size_t *len, struct top_entry x)
{
    size_t i = (*len)++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (h[up].end >= x.end)
            break;
        h[i] = h[up];
        i = up;
    }
    h[i] = x;
}

static void heap_pop(struct top_entry *h, size_t *len)
{
    struct top_entry x = h[--*len];
    size_t n = *len, i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h[c + 1].end > h[c].end)
            c++;
        if (h[c].end <= x.end)
            break;
        h[i] = h[c];
        i = c;
    }
    if (n > 0)
        h[i] = x;
}

/* Mean over the steps where some byte is live of 1 - live_t / top_t. */
static double frag_mean(const struct arena_problem *p, const uint64_t *off, const struct orders *o,
                        struct top_entry *heap)
{
    const struct arena_tensor *t = p->tensors;
    size_t len = 0, m = o->m, i = 0, r = 0;
    uint64_t live = 0;
    double acc = 0, steps = 0;
    while (i < m) {
        /* The next event: a start, or the step after an end (64-bit: last+1). */
        uint64_t s = t[o->by_first[i]].first;
        uint64_t e = (uint64_t)t[o->by_last[r]].last + 1;
        if (e <= s) {
            for (; r < m && (uint64_t)t[o->by_last[r]].last + 1 == e; r++)
                live -= t[o->by_last[r]].size;
            s = e;
        }
        for (; i < m && t[o->by_first[i]].first == s; i++) {
            uint32_t x = o->by_first[i];
            struct top_entry en = {off[x] + t[x].size, t[x].last};
            live += t[x].size;
            heap_push(heap, &len, en);
        }
        if (live == 0)
            continue;
        while (heap[0].last < s)
            heap_pop(heap, &len);
        uint64_t next = (uint64_t)t[o->by_last[r]].last + 1;
        if (i < m && t[o->by_first[i]].first < next)
            next = t[o->by_first[i]].first;
        double w = (double)(next - s);
        acc += w * (1.0 - (double)live / (double)heap[0].end);
        steps += w;
    }
    /* After the last start only ends remain: live bytes shrink at each end. */
    while (r < m) {
        uint64_t s = (uint64_t)t[o->by_last[r]].last + 1;
        for (; r < m && (uint64_t)t[o->by_last[r]].last + 1 == s; r++)
            live -= t[o->by_last[r]].size;
        if (live == 0)
            break;
        while (heap[0].last < s)
            heap_pop(heap, &len);
        double w = (double)((uint64_t)t[o->by_last[r]].last + 1 - s);
        acc += w * (1.0 - (double)live / (double)heap[0].end);
        steps += w;
    }
    return steps > 0 ? acc / steps : 0.0;
}

int arena_plan_metrics(const struct arena_problem *p, const struct arena_plan *plan,
                       struct arena_metrics *out)
{
    if (!out)
        return ARENA_EINVAL;
    struct arena_metrics mt = {0};
    int rc = arena_problem_bounds(p, &mt.bounds);
    if (rc != ARENA_OK)
        return rc;
    if (!plan || plan->n != p->n || (p->n > 0 && !plan->offsets))
        return ARENA_EINVAL;
    for (size_t i = 0; i < p->n; i++)
        if (plan->offsets[i] > UINT64_MAX - p->tensors[i].size)
            return ARENA_EOVERFLOW;
    mt.arena = plan->arena;
    const struct arena_bounds *b = &mt.bounds;
    if (b->lower_bound > 0)
        mt.ratio_lb = (double)mt.arena / (double)b->lower_bound;
    if (b->naive_bytes > 0)
        mt.saving = 1.0 - (double)mt.arena / (double)b->naive_bytes;
    if (mt.arena > 0)
        mt.frag_peak = 1.0 - (double)b->lower_bound / (double)mt.arena;
    struct orders o;
    rc = orders_make(p, &o);
    if (rc != ARENA_OK)
        return rc;
    if (o.m > 0) {
        struct top_entry *heap = malloc(o.m * sizeof *heap);
        if (!heap) {
            free(o.mem);
            return ARENA_ENOMEM;
        }
        mt.frag_mean = frag_mean(p, plan->offsets, &o, heap);
        free(heap);
    }
    free(o.mem);
    *out = mt;
    return ARENA_OK;
}
