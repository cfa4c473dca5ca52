/* greedy_conflicts.c — greedy by conflicts, no gap filling (TVM's unified
 * static memory planner, src/tir/usmp/algo/greedy.cc, GreedyConflicts).
 *
 * Tensors with the most conflicts first (the number of other tensors whose
 * lifetime meets theirs), then the largest, then earlier first step, then
 * lower id; TVM breaks the last ties by buffer name, descending — arenabench
 * has no names and uses (first, id). Each tensor goes just above the highest
 * already placed tensor it conflicts with (0 if none): gaps below are never
 * filled, as in TVM's PostSortAllocation. Zero-size tensors get offset 0 and
 * count as nobody's conflict.
 *
 * Conflict counts come from two sorted arrays (a tensor meets every other
 * one except those that end before it starts or start after it ends), the
 * order from stable sorts, and "highest placed conflict" from a segment tree
 * over the distinct first steps holding, per step, the highest end of the
 * placed tensors live there (range chmax, range max; a tensor meets [f, l]
 * exactly when it is live at some first step in [f, l]). O(n log n).
 *
 * Scratch: 28 bytes per tensor plus 24 per leaf of the tree (the least
 * power of two >= n, so 52 to 76 bytes per tensor), from planners/layout.h. */
#include <assert.h>

#include "planners/layout.h"
#include "planners/order.h"
#include "planners/tables.h"

struct work {
    uint64_t *tree;  /* 2v: max end below each node, tags included */
    uint64_t *tag;   /* v: chmax applied to the whole node */
    uint32_t *ord;   /* m: ids of the tensors with bytes, in placing order */
    uint32_t *tmp;   /* m */
    uint32_t *cnt;   /* n: conflicts per tensor id */
    uint32_t *firsts;/* m: first steps ascending */
    uint32_t *lasts; /* m: last steps ascending */
    uint32_t *step;  /* m: distinct first steps ascending */
    uint32_t *bucket;/* m + 1: counting sort by conflicts */
};

/* Leaves of the tree: the least power of two >= n (a perfect tree keeps
 * every node's leaves contiguous). */
static size_t leaves(size_t n)
{
    size_t v = 1;
    while (v < n)
        v *= 2;
    return v;
}

static int carve(struct arena_layout *l, const struct arena_problem *p, void *work)
{
    struct work *w = work;
    size_t n = p->n;
    if ((uint64_t)n >= UINT32_MAX / 2)
        return ARENA_EOVERFLOW;
    size_t v = leaves(n);
    w->tree = arena_layout_take(l, 2 * v, sizeof *w->tree);
    w->tag = arena_layout_take(l, v, sizeof *w->tag);
    w->ord = arena_layout_take(l, n, sizeof *w->ord);
    w->tmp = arena_layout_take(l, n, sizeof *w->tmp);
    w->cnt = arena_layout_take(l, n, sizeof *w->cnt);
    w->firsts = arena_layout_take(l, n, sizeof *w->firsts);
    w->lasts = arena_layout_take(l, n, sizeof *w->lasts);
    w->step = arena_layout_take(l, n, sizeof *w->step);
    w->bucket = arena_layout_take(l, n + 1, sizeof *w->bucket);
    return ARENA_OK;
}

static int conflicts_scratch(const struct arena_problem *p, size_t *bytes)
{
    struct work w;
    return arena_layout_count(carve, p, &w, bytes);
}

/* Entries of a[0..m) below x / at most x (a ascending). */
static size_t count_below(const uint32_t *a, size_t m, uint32_t x)
{
    size_t lo = 0, hi = m;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static size_t count_upto(const uint32_t *a, size_t m, uint32_t x)
{
    return x == UINT32_MAX ? m : count_below(a, m, x + 1);
}

/* The bottom-up segment tree over v leaves (a power of two): range chmax,
 * range max. A tag lies on the nodes covering an updated range; every
 * ancestor of a node covering a query range lies on the path from one of
 * its two end leaves to the root, so a query adds the tags on those two
 * paths. */
static void apply(struct work *w, size_t v, size_t x, uint64_t val)
{
    if (w->tree[x] < val)
        w->tree[x] = val;
    if (x < v && w->tag[x] < val)
        w->tag[x] = val;
}

static void rebuild(struct work *w, size_t x)
{
    for (x >>= 1; x > 0; x >>= 1) {
        uint64_t a = w->tree[2 * x], b = w->tree[2 * x + 1], c = w->tag[x];
        uint64_t m = a > b ? a : b;
        w->tree[x] = m > c ? m : c;
    }
}

static void chmax(struct work *w, size_t v, size_t lo, size_t hi, uint64_t val)
{
    size_t l = lo + v, r = hi + 1 + v;
    for (size_t a = l, b = r; a < b; a >>= 1, b >>= 1) {
        if (a & 1)
            apply(w, v, a++, val);
        if (b & 1)
            apply(w, v, --b, val);
    }
    rebuild(w, l);
    rebuild(w, r - 1);
}

static uint64_t range_max(const struct work *w, size_t v, size_t lo, size_t hi)
{
    size_t l = lo + v, r = hi + 1 + v;
    uint64_t best = 0;
    for (size_t a = l, b = r; a < b; a >>= 1, b >>= 1) {
        if (a & 1) {
            if (w->tree[a] > best)
                best = w->tree[a];
            a++;
        }
        if (b & 1) {
            b--;
            if (w->tree[b] > best)
                best = w->tree[b];
        }
    }
    for (size_t x = l >> 1; x > 0; x >>= 1)
        if (w->tag[x] > best)
            best = w->tag[x];
    for (size_t x = (r - 1) >> 1; x > 0; x >>= 1)
        if (w->tag[x] > best)
            best = w->tag[x];
    return best;
}

static int conflicts_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                          void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    size_t n = p->n;
    if (n == 0)
        return ARENA_OK;
    const struct arena_tensor *t = p->tensors;
    struct work w;
    arena_layout_carve(carve, p, &w, scratch, scratch_size);

    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        plan->offsets[i] = 0;
        if (t[i].size > 0)
            w.ord[m++] = (uint32_t)i;
    }
    plan->arena = 0;
    plan->buffers = 0;
    if (m == 0)
        return ARENA_OK;

    /* Sorted steps, then each tensor's conflicts: the others minus those
     * ending before its first step and those starting after its last. */
    arena_order_sort(w.ord, w.tmp, m, t, ARENA_ORDER_LAST);
    for (size_t k = 0; k < m; k++)
        w.lasts[k] = t[w.ord[k]].last;
    for (size_t i = 0, k = 0; i < n; i++) /* back to id order: ties by id */
        if (t[i].size > 0)
            w.ord[k++] = (uint32_t)i;
    if (arena_plan_stop_here(opt, p, plan))
        return ARENA_OK;
    arena_order_sort(w.ord, w.tmp, m, t, ARENA_ORDER_FIRST);
    size_t v = 0;
    for (size_t k = 0; k < m; k++) {
        w.firsts[k] = t[w.ord[k]].first;
        if (v == 0 || w.step[v - 1] != w.firsts[k])
            w.step[v++] = w.firsts[k];
    }
    for (size_t k = 0; k < m; k++) {
        if (k % ARENA_STOP_EVERY == 0 && arena_plan_stop_here(opt, p, plan))
            return ARENA_OK;
        uint32_t i = w.ord[k];
        size_t ended = count_below(w.lasts, m, t[i].first);
        size_t later = m - count_upto(w.firsts, m, t[i].last);
        w.cnt[i] = (uint32_t)(m - 1 - ended - later);
    }

    /* Placing order: ord is (first, id); stable by size descending, then a
     * stable counting sort by conflicts descending. */
    if (arena_plan_stop_here(opt, p, plan))
        return ARENA_OK;
    arena_order_sort(w.ord, w.tmp, m, t, ARENA_ORDER_SIZE_DESC);
    for (size_t c = 0; c <= m; c++)
        w.bucket[c] = 0;
    for (size_t k = 0; k < m; k++)
        w.bucket[m - 1 - w.cnt[w.ord[k]]]++;
    uint32_t sum = 0;
    for (size_t c = 0; c <= m; c++) {
        uint32_t here = w.bucket[c];
        w.bucket[c] = sum;
        sum += here;
    }
    for (size_t k = 0; k < m; k++) {
        uint32_t i = w.ord[k];
        w.tmp[w.bucket[m - 1 - w.cnt[i]]++] = i;
    }

    size_t steps = v;
    v = leaves(n);
    for (size_t x = 0; x < 2 * v; x++)
        w.tree[x] = 0;
    for (size_t x = 0; x < v; x++)
        w.tag[x] = 0;
    uint64_t arena = 0;
    for (size_t k = 0; k < m; k++) {
        if (k % ARENA_STOP_EVERY == 0 && arena_plan_stop_here(opt, p, plan))
            return ARENA_OK;
        uint32_t i = w.tmp[k];
        size_t lo = count_below(w.step, steps, t[i].first);
        size_t hi = count_upto(w.step, steps, t[i].last) - 1;
        uint64_t off = range_max(&w, v, lo, hi);
        if (t[i].size > UINT64_MAX - off)
            return ARENA_EOVERFLOW;
        uint64_t end = off + t[i].size;
        chmax(&w, v, lo, hi, end);
        plan->offsets[i] = off;
        if (end > arena)
            arena = end;
    }
    plan->arena = arena;
    return ARENA_OK;
}

const struct arena_planner arena_planner_greedy_conflicts = {
    .name = "greedy-by-conflicts",
    .summary = "most conflicts first, just above the highest conflict (TVM USMP)",
    .kind = ARENA_KIND_OFFSETS,
    .plan = conflicts_plan,
    .scratch_bytes = conflicts_scratch,
};
