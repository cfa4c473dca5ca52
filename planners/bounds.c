/* bounds.c — problem bounds and plan metrics, each one sweep over steps, and
 * the metrics of a plan made through the in-place pre-pass (alias.h).
 *
 * Both sweeps walk the tensors ordered by first and by last (radix sorted,
 * O(n)), visiting only the steps where something starts or ends: between two
 * such steps nothing changes, so a run of equal steps counts with its length
 * and the cost never depends on how many steps there are. */
#include <stdlib.h>
#include <string.h>

#include "planners/alias.h"
#include "planners/layout.h"
#include "planners/order.h"
#include "planners/problem.h"

/* The working memory of one sweep over m ids (malloc'd, described once like
 * a planner's scratch). */
struct sweep {
    void *mem;
    size_t m;
    uint32_t *by_first, *by_last; /* m ids each */
    uint32_t *tmp;                /* m: the sorts' buffer */
    uint64_t *tops, *dead;        /* with_tops: up to m ends each, complemented
                                     (so the min-heap's top is the highest) */
};

static void sweep_take(struct sweep *w, struct arena_layout *l, size_t m, int with_tops)
{
    w->by_first = arena_layout_take(l, m, sizeof *w->by_first);
    w->by_last = arena_layout_take(l, m, sizeof *w->by_last);
    w->tmp = arena_layout_take(l, m, sizeof *w->tmp);
    w->tops = arena_layout_take(l, with_tops ? m : 0, sizeof *w->tops);
    w->dead = arena_layout_take(l, with_tops ? m : 0, sizeof *w->dead);
}

/* Allocates and carves the sweep over every tensor, or only those with
 * bytes, and orders their ids by first and by last. */
static int sweep_make(struct sweep *w, const struct arena_problem *p, int only_bytes,
                      int with_tops)
{
    memset(w, 0, sizeof *w);
    if (p->n >= UINT32_MAX)
        return ARENA_EOVERFLOW; /* ids are 32-bit */
    size_t m = 0;
    for (size_t i = 0; i < p->n; i++)
        m += !only_bytes || p->tensors[i].size > 0;
    w->m = m;
    if (m == 0)
        return ARENA_OK; /* nothing to sweep */
    struct arena_layout l;
    size_t bytes;
    arena_layout_init(&l, NULL);
    sweep_take(w, &l, m, with_tops);
    int rc = arena_layout_bytes(&l, &bytes);
    if (rc != ARENA_OK)
        return rc;
    w->mem = malloc(bytes);
    if (!w->mem)
        return ARENA_ENOMEM;
    arena_layout_init(&l, w->mem);
    sweep_take(w, &l, m, with_tops);
    size_t k = 0;
    for (size_t i = 0; i < p->n; i++)
        if (!only_bytes || p->tensors[i].size > 0)
            w->by_first[k++] = (uint32_t)i;
    memcpy(w->by_last, w->by_first, m * sizeof *w->by_last);
    arena_order_sort(w->by_first, w->tmp, m, p->tensors, ARENA_ORDER_FIRST);
    arena_order_sort(w->by_last, w->tmp, m, p->tensors, ARENA_ORDER_LAST);
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
    struct sweep w;
    rc = sweep_make(&w, p, 0, 0);
    if (rc != ARENA_OK)
        return rc;
    const struct arena_tensor *t = p->tensors;
    uint64_t live = 0;
    uint32_t count = 0;
    for (size_t i = 0, r = 0; i < p->n;) {
        uint32_t step = t[w.by_first[i]].first;
        for (; r < p->n && t[w.by_last[r]].last < step; r++) {
            live -= t[w.by_last[r]].size;
            count--;
        }
        for (; i < p->n && t[w.by_first[i]].first == step; i++) {
            live += t[w.by_first[i]].size;
            count++;
        }
        if (live > b.lower_bound)
            b.lower_bound = live;
        if (count > b.max_live)
            b.max_live = count;
    }
    free(w.mem);
    b.inplace_bound = b.lower_bound;
    if (p->n_alias > 0) {
        struct arena_alias_merge m;
        struct arena_bounds mb;
        rc = arena_alias_merge(p, &m);
        if (rc != ARENA_OK)
            return rc;
        rc = arena_problem_bounds(&m.merged, &mb);
        arena_alias_merge_free(&m);
        if (rc != ARENA_OK)
            return rc;
        b.inplace_bound = mb.lower_bound;
    }
    *out = b;
    return ARENA_OK;
}

/* The highest end among the live tensors: every started tensor's end is in
 * tops, every ended one's in dead (both complemented, min-heaps); equal tops
 * cancel ("lazy deletion"), so each end is pushed and popped at most twice. */
static uint64_t highest_end(struct sweep *w, size_t *ntops, size_t *ndead)
{
    while (*ndead > 0 && w->tops[0] == w->dead[0]) {
        arena_heap_pop(w->tops, ntops);
        arena_heap_pop(w->dead, ndead);
    }
    return ~w->tops[0];
}

/* Mean over the steps where some byte is live of 1 - live_t / top_t. */
static double frag_mean(const struct arena_problem *p, const uint64_t *off, struct sweep *w)
{
    const struct arena_tensor *t = p->tensors;
    const uint32_t *by_first = w->by_first, *by_last = w->by_last;
    size_t m = w->m, ntops = 0, ndead = 0, i = 0, r = 0;
#define END(x) (off[x] + t[x].size)
    uint64_t live = 0;
    double acc = 0, steps = 0;
    while (i < m) {
        /* The next event: a start, or the step after an end (64-bit: last+1). */
        uint64_t s = t[by_first[i]].first;
        uint64_t e = (uint64_t)t[by_last[r]].last + 1;
        if (e <= s) {
            for (; r < m && (uint64_t)t[by_last[r]].last + 1 == e; r++) {
                live -= t[by_last[r]].size;
                arena_heap_push(w->dead, &ndead, ~END(by_last[r]));
            }
            s = e;
        }
        for (; i < m && t[by_first[i]].first == s; i++) {
            live += t[by_first[i]].size;
            arena_heap_push(w->tops, &ntops, ~END(by_first[i]));
        }
        if (live == 0)
            continue;
        uint64_t next = (uint64_t)t[by_last[r]].last + 1;
        if (i < m && t[by_first[i]].first < next)
            next = t[by_first[i]].first;
        double wt = (double)(next - s);
        acc += wt * (1.0 - (double)live / (double)highest_end(w, &ntops, &ndead));
        steps += wt;
    }
    /* After the last start only ends remain: live bytes shrink at each end. */
    while (r < m) {
        uint64_t s = (uint64_t)t[by_last[r]].last + 1;
        for (; r < m && (uint64_t)t[by_last[r]].last + 1 == s; r++) {
            live -= t[by_last[r]].size;
            arena_heap_push(w->dead, &ndead, ~END(by_last[r]));
        }
        if (live == 0)
            break;
        double wt = (double)((uint64_t)t[by_last[r]].last + 1 - s);
        acc += wt * (1.0 - (double)live / (double)highest_end(w, &ntops, &ndead));
        steps += wt;
    }
#undef END
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
    struct sweep w;
    rc = sweep_make(&w, p, 1, 1);
    if (rc != ARENA_OK)
        return rc;
    if (w.m > 0)
        mt.frag_mean = frag_mean(p, plan->offsets, &w);
    free(w.mem);
    *out = mt;
    return ARENA_OK;
}

int arena_alias_metrics(const struct arena_problem *p, const struct arena_alias_merge *m,
                        const struct arena_plan *mp, struct arena_metrics *out)
{
    struct arena_metrics mt;
    struct arena_bounds b;
    int rc = arena_plan_metrics(&m->merged, mp, &mt);
    if (rc == ARENA_OK)
        rc = arena_problem_bounds(p, &b);
    if (rc != ARENA_OK)
        return rc;
    mt.bounds = b;
    mt.ratio_lb = b.inplace_bound > 0 ? (double)mt.arena / (double)b.inplace_bound : 0.0;
    mt.saving = b.naive_bytes > 0 ? 1.0 - (double)mt.arena / (double)b.naive_bytes : 0.0;
    mt.frag_peak = mt.arena > 0 ? 1.0 - (double)b.inplace_bound / (double)mt.arena : 0.0;
    *out = mt;
    return ARENA_OK;
}
