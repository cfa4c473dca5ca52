/* online_common.c — the online replay and the gap map of first fit and best
 * fit (see online_common.h). The treaps split and merge recursively; their
 * shape comes from a fixed hash of the node id, so the expected depth is
 * O(log n) whatever the addresses and the plan is the same on every run. */
#include "planners/online_common.h"

#include <assert.h>

#include "planners/order.h"
#include "planners/ordset.h"

#define NIL UINT32_MAX

void arena_online_orders_take(struct arena_layout *l, size_t n, struct arena_online_orders *o)
{
    o->by_first = arena_layout_take(l, n, sizeof *o->by_first);
    o->by_last = arena_layout_take(l, n, sizeof *o->by_last);
    o->tmp = arena_layout_take(l, n, sizeof *o->tmp);
}

int arena_online_replay(const struct arena_problem *p, const struct arena_plan_options *opt,
                        struct arena_online_orders *o, const struct arena_online_policy *pol,
                        void *state, struct arena_plan *plan)
{
    size_t n = p->n;
    const struct arena_tensor *t = p->tensors;
    uint64_t arena = 0;
    arena_order_ids(o->by_first, o->tmp, n, t, ARENA_ORDER_FIRST);
    if (arena_plan_stop_here(opt, p, plan))
        return ARENA_OK;
    arena_order_ids(o->by_last, o->tmp, n, t, ARENA_ORDER_LAST);
    size_t f = 0;
    for (size_t a = 0; a < n; a++) {
        if (a % ARENA_STOP_EVERY == 0 && arena_plan_stop_here(opt, p, plan))
            return ARENA_OK;
        uint32_t i = o->by_first[a];
        /* Everything whose last step is before this first step is freed
         * first: by last step, then by id (the stable sort kept id order). */
        while (f < n && t[o->by_last[f]].last < t[i].first) {
            uint32_t j = o->by_last[f++];
            if (t[j].size > 0)
                pol->release(state, j, plan->offsets[j], t[j].size);
        }
        plan->offsets[i] = 0;
        if (t[i].size == 0)
            continue;
        uint64_t off;
        int rc = pol->alloc(state, i, t[i].size, &off);
        if (rc != ARENA_OK)
            return rc;
        if (off > UINT64_MAX - t[i].size)
            return ARENA_EOVERFLOW;
        assert(off % p->alignment == 0);
        plan->offsets[i] = off;
        if (off + t[i].size > arena)
            arena = off + t[i].size;
    }
    plan->arena = arena;
    return ARENA_OK;
}

/* ---- the gap map --------------------------------------------------------- */

void arena_online_gaps_take(struct arena_layout *l, size_t n, struct arena_online_gaps *g)
{
    g->node = arena_layout_take(l, n + 1, sizeof *g->node);
    g->capacity = (uint32_t)(n + 1);
}

void arena_online_gaps_start(struct arena_online_gaps *g, enum arena_online_fit fit)
{
    g->used = 0;
    g->spare = NIL;
    g->root_addr = NIL;
    g->root_size = NIL;
    g->wilderness = 0;
    g->fit = fit;
}

static uint32_t node_new(struct arena_online_gaps *g, uint64_t addr, uint64_t size)
{
    uint32_t x;
    if (g->spare != NIL) {
        x = g->spare;
        g->spare = g->node[x].by_addr[0];
    } else {
        assert(g->used < g->capacity); /* free blocks lie between live ones */
        x = g->used++;
    }
    struct arena_online_gap *e = &g->node[x];
    e->addr = addr;
    e->size = size;
    e->max = size;
    e->by_addr[0] = e->by_addr[1] = NIL;
    e->by_size[0] = e->by_size[1] = NIL;
    return x;
}

static void node_drop(struct arena_online_gaps *g, uint32_t x)
{
    g->node[x].by_addr[0] = g->spare;
    g->spare = x;
}

/* -- by address, with the largest size of each subtree -- */

static void pull(struct arena_online_gap *nd, uint32_t x)
{
    uint64_t m = nd[x].size;
    for (int c = 0; c < 2; c++) {
        uint32_t k = nd[x].by_addr[c];
        if (k != NIL && nd[k].max > m)
            m = nd[k].max;
    }
    nd[x].max = m;
}

/* Nodes with addr < key to *l, the rest to *r. */
static void split_addr(struct arena_online_gap *nd, uint32_t t, uint64_t key, uint32_t *l,
                       uint32_t *r)
{
    if (t == NIL) {
        *l = *r = NIL;
    } else if (nd[t].addr < key) {
        split_addr(nd, nd[t].by_addr[1], key, &nd[t].by_addr[1], r);
        pull(nd, t);
        *l = t;
    } else {
        split_addr(nd, nd[t].by_addr[0], key, l, &nd[t].by_addr[0]);
        pull(nd, t);
        *r = t;
    }
}

static uint32_t merge_addr(struct arena_online_gap *nd, uint32_t l, uint32_t r)
{
    if (l == NIL)
        return r;
    if (r == NIL)
        return l;
    if (arena_treap_prio(l) > arena_treap_prio(r)) {
        nd[l].by_addr[1] = merge_addr(nd, nd[l].by_addr[1], r);
        pull(nd, l);
        return l;
    }
    nd[r].by_addr[0] = merge_addr(nd, l, nd[r].by_addr[0]);
    pull(nd, r);
    return r;
}

/* -- by (size, address) -- */

static int before(const struct arena_online_gap *e, uint64_t size, uint64_t addr)
{
    return e->size < size || (e->size == size && e->addr < addr);
}

static void split_size(struct arena_online_gap *nd, uint32_t t, uint64_t size, uint64_t addr,
                       uint32_t *l, uint32_t *r)
{
    if (t == NIL) {
        *l = *r = NIL;
    } else if (before(&nd[t], size, addr)) {
        split_size(nd, nd[t].by_size[1], size, addr, &nd[t].by_size[1], r);
        *l = t;
    } else {
        split_size(nd, nd[t].by_size[0], size, addr, l, &nd[t].by_size[0]);
        *r = t;
    }
}

static uint32_t merge_size(struct arena_online_gap *nd, uint32_t l, uint32_t r)
{
    if (l == NIL)
        return r;
    if (r == NIL)
        return l;
    if (arena_treap_prio(l) > arena_treap_prio(r)) {
        nd[l].by_size[1] = merge_size(nd, nd[l].by_size[1], r);
        return l;
    }
    nd[r].by_size[0] = merge_size(nd, l, nd[r].by_size[0]);
    return r;
}

/* -- both trees -- */

static void gap_insert(struct arena_online_gaps *g, uint32_t x)
{
    struct arena_online_gap *nd = g->node;
    uint32_t l, r;
    split_addr(nd, g->root_addr, nd[x].addr, &l, &r);
    pull(nd, x);
    g->root_addr = merge_addr(nd, merge_addr(nd, l, x), r);
    if (g->fit == ARENA_ONLINE_BEST_FIT) {
        split_size(nd, g->root_size, nd[x].size, nd[x].addr, &l, &r);
        g->root_size = merge_size(nd, merge_size(nd, l, x), r);
    }
}

/* Addresses are unique and below 2^64 - 1 (a free block has a byte). */
static void gap_remove(struct arena_online_gaps *g, uint32_t x)
{
    struct arena_online_gap *nd = g->node;
    uint32_t l, m, r;
    split_addr(nd, g->root_addr, nd[x].addr, &l, &r);
    split_addr(nd, r, nd[x].addr + 1, &m, &r);
    assert(m == x);
    g->root_addr = merge_addr(nd, l, r);
    if (g->fit == ARENA_ONLINE_BEST_FIT) {
        split_size(nd, g->root_size, nd[x].size, nd[x].addr, &l, &r);
        split_size(nd, r, nd[x].size, nd[x].addr + 1, &m, &r);
        assert(m == x);
        g->root_size = merge_size(nd, l, r);
    }
    nd[x].by_addr[0] = nd[x].by_addr[1] = NIL;
    nd[x].by_size[0] = nd[x].by_size[1] = NIL;
}

/* The lowest-addressed block of at least size bytes. */
static uint32_t find_first(const struct arena_online_gaps *g, uint64_t size)
{
    const struct arena_online_gap *nd = g->node;
    uint32_t x = g->root_addr;
    if (x == NIL || nd[x].max < size)
        return NIL;
    for (;;) {
        uint32_t l = nd[x].by_addr[0];
        if (l != NIL && nd[l].max >= size)
            x = l;
        else if (nd[x].size >= size)
            return x;
        else
            x = nd[x].by_addr[1]; /* holds the block that fits */
    }
}

/* The smallest block of at least size bytes, the lowest on ties. */
static uint32_t find_best(const struct arena_online_gaps *g, uint64_t size)
{
    const struct arena_online_gap *nd = g->node;
    uint32_t x = g->root_size, best = NIL;
    while (x != NIL) {
        if (nd[x].size >= size) {
            best = x;
            x = nd[x].by_size[0];
        } else {
            x = nd[x].by_size[1];
        }
    }
    return best;
}

/* The block with the highest address below addr, and the lowest at or above. */
static void neighbours(const struct arena_online_gaps *g, uint64_t addr, uint32_t *below,
                       uint32_t *above)
{
    const struct arena_online_gap *nd = g->node;
    *below = *above = NIL;
    for (uint32_t x = g->root_addr; x != NIL;) {
        if (nd[x].addr < addr) {
            *below = x;
            x = nd[x].by_addr[1];
        } else {
            *above = x;
            x = nd[x].by_addr[0];
        }
    }
}

static int gaps_alloc(void *state, uint32_t id, uint64_t size, uint64_t *offset)
{
    (void)id;
    struct arena_online_gaps *g = state;
    uint32_t x = g->fit == ARENA_ONLINE_FIRST_FIT ? find_first(g, size) : find_best(g, size);
    if (x == NIL) {
        if (g->wilderness > UINT64_MAX - size)
            return ARENA_EOVERFLOW;
        *offset = g->wilderness;
        g->wilderness += size;
        return ARENA_OK;
    }
    struct arena_online_gap *e = &g->node[x];
    *offset = e->addr;
    gap_remove(g, x);
    if (e->size > size) {
        e->addr += size;
        e->size -= size;
        gap_insert(g, x);
    } else {
        node_drop(g, x);
    }
    return ARENA_OK;
}

static void gaps_release(void *state, uint32_t id, uint64_t offset, uint64_t size)
{
    (void)id;
    struct arena_online_gaps *g = state;
    uint64_t start = offset, end = offset + size;
    uint32_t below, above;
    neighbours(g, offset, &below, &above);
    if (below != NIL && g->node[below].addr + g->node[below].size == start) {
        start = g->node[below].addr;
        gap_remove(g, below);
        node_drop(g, below);
    }
    if (above != NIL && g->node[above].addr == end) {
        end += g->node[above].size;
        gap_remove(g, above);
        node_drop(g, above);
    }
    if (end == g->wilderness) {
        g->wilderness = start;
        return;
    }
    gap_insert(g, node_new(g, start, end - start));
}

const struct arena_online_policy arena_online_gaps_policy = {
    .alloc = gaps_alloc,
    .release = gaps_release,
};

/* ---- first fit and best fit: the replay over the gap map ---------------- */

struct gaps_work {
    struct arena_online_orders orders;
    struct arena_online_gaps gaps;
};

static int gaps_carve(struct arena_layout *l, const struct arena_problem *p, void *work)
{
    struct gaps_work *w = work;
    if (p->n >= UINT32_MAX - 1)
        return ARENA_EOVERFLOW;
    arena_online_orders_take(l, p->n, &w->orders);
    arena_online_gaps_take(l, p->n, &w->gaps);
    return ARENA_OK;
}

int arena_online_gaps_scratch(const struct arena_problem *p, size_t *bytes)
{
    struct gaps_work w;
    return arena_layout_count(gaps_carve, p, &w, bytes);
}

int arena_online_gaps_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                           void *scratch, size_t scratch_size, struct arena_plan *plan,
                           enum arena_online_fit fit)
{
    struct gaps_work w;
    arena_layout_carve(gaps_carve, p, &w, scratch, scratch_size);
    arena_online_gaps_start(&w.gaps, fit);
    return arena_online_replay(p, opt, &w.orders, &arena_online_gaps_policy, &w.gaps, plan);
}
