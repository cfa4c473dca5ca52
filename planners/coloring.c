/* coloring.c — interval-graph colouring into shared buffers ("shared objects",
 * as in TFLite GPU's memory management; Pisarchyk & Lee 2020).
 *
 * Tensors whose lifetimes overlap form an interval graph; a colour is one
 * shared buffer that holds tensors which never live at the same time. Tensors
 * are taken largest first (ties: earlier first step, then lower id). Each goes
 * into the colour that holds no conflicting tensor and whose buffer is the
 * smallest one at least as large as the tensor (lowest colour on ties); if no
 * such colour exists, a new colour is opened with the tensor's size. (The
 * rule's third case, growing the largest non-conflicting smaller buffer,
 * cannot arise in largest-first order: every existing buffer was opened by a
 * tensor at least as large.) Buffers are laid out one after another in colour
 * order; arena = the sum of the buffer sizes, buffers = the colour count,
 * which is at least the largest clique (the most tensors live at once).
 *
 * Colours are opened in non-increasing size, so scanning them from the last
 * group of equal size backwards, each group in increasing colour, meets the
 * wanted colour first. Each colour keeps its tensors in an ordered set by
 * first step; its lifetimes are disjoint, so one descent of that set finds a
 * member that meets [f, l] or proves there is none. O(n log n + n·c·log n),
 * c the colours looked at per tensor (at most the colour count C, which stays
 * near the clique size K in practice). Scratch: coloring_layout. */
#include <assert.h>
#include <stdint.h>

#include "planners/order.h"
#include "planners/ordset.h"
#include "planners/tables.h"

struct work {
    struct arena_ordset_node *node; /* n: each tensor's set node, key (first, last) */
    uint64_t *csize;                /* n: each colour's buffer size, then base */
    uint32_t *order;                /* n: ids largest first; its consumed head
                                       then holds each colour's group */
    uint32_t *root;                 /* n: the sort's buffer, then each colour's
                                       set root */
};

/* Every array coloring needs (layout.h). */
static int coloring_layout(struct arena_layout *l, const struct arena_problem *p, void *work)
{
    struct work *w = work;
    size_t n = p->n;
    if ((uint64_t)n >= UINT32_MAX)
        return ARENA_EOVERFLOW; /* ids and colours are 32-bit */
    w->node = arena_layout_take(l, n, sizeof *w->node);
    w->csize = arena_layout_take(l, n, sizeof *w->csize);
    w->order = arena_layout_take(l, n, sizeof *w->order);
    w->root = arena_layout_take(l, n, sizeof *w->root);
    return ARENA_OK;
}

static int coloring_scratch(const struct arena_problem *p, size_t *bytes)
{
    struct work w;
    return arena_layout_count(coloring_layout, p, &w, bytes);
}

/* Does the colour whose set is rooted at t hold a tensor that meets [f, l]?
 * Keys are (first << 32 | last) and a colour's lifetimes are disjoint, so the
 * set is ordered by first and by last alike: a member that ends before f
 * sends the search right, one that starts after l sends it left, any other
 * member overlaps and ends the search early. */
static int conflicts(const struct arena_ordset_node *node, uint32_t t, uint32_t f, uint32_t l)
{
    while (t != ARENA_ORDSET_NIL) {
        uint64_t key = node[t].key;
        if ((uint32_t)key < f)
            t = node[t].child[1];
        else if ((uint32_t)(key >> 32) > l)
            t = node[t].child[0];
        else
            return 1;
    }
    return 0;
}

static int coloring_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                         void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    size_t n = p->n;
    const struct arena_tensor *t = p->tensors;
    struct work w;
    arena_layout_carve(coloring_layout, p, &w, scratch, scratch_size);
    struct arena_ordset_node *node = w.node;
    uint32_t *order = w.order;
    struct arena_ordset set = {.node = node};

    for (size_t i = 0; i < n; i++)
        node[i].key = (uint64_t)t[i].first << 32 | t[i].last;
    arena_order_ids(order, w.root, n, t, ARENA_ORDER_FIRST);
    if (arena_plan_stop_here(opt, p, plan))
        return ARENA_OK;
    arena_order_sort(order, w.root, n, t, ARENA_ORDER_SIZE_DESC);
    uint64_t *csize = w.csize;
    uint32_t *root = w.root;

    /* group[c]: the first colour of c's run of equal buffer sizes. Colour c
     * is opened while placing order[i] for some i >= c, after order[i] was
     * read, so the runs can live in the entries of order already consumed. */
    uint32_t *group = order;
    uint32_t colors = 0;
    for (size_t i = 0; i < n; i++) {
        /* once a tensor: its scan over the colours is up to C steps */
        if (arena_plan_stop_here(opt, p, plan))
            return ARENA_OK;
        uint32_t x = order[i], best = ARENA_ORDSET_NIL;
        for (uint32_t end = colors; end > 0 && best == ARENA_ORDSET_NIL;) {
            uint32_t begin = group[end - 1];
            for (uint32_t c = begin; c < end; c++)
                if (!conflicts(node, root[c], t[x].first, t[x].last)) {
                    best = c;
                    break;
                }
            end = begin;
        }
        if (best == ARENA_ORDSET_NIL) {
            best = colors++;
            csize[best] = t[x].size;
            root[best] = ARENA_ORDSET_NIL;
            group[best] = best > 0 && csize[best - 1] == csize[best] ? group[best - 1] : best;
        }
        arena_ordset_insert(&set, &root[best], x, NULL, NULL);
        plan->offsets[x] = best;
    }
    /* Buffer sizes become buffer bases. Each buffer has the size of the
     * tensor that opened it, so their sum is at most Σ size_i, which
     * arena_problem_check proved fits. */
    uint64_t base = 0;
    for (uint32_t c = 0; c < colors; c++) {
        uint64_t s = csize[c];
        assert(s <= UINT64_MAX - base);
        csize[c] = base;
        base += s;
    }
    for (size_t i = 0; i < n; i++)
        plan->offsets[i] = csize[plan->offsets[i]];
    plan->arena = base;
    plan->buffers = colors;
    return ARENA_OK;
}

const struct arena_planner arena_planner_coloring = {
    .name = "interval-graph-coloring",
    .summary = "shared buffers: largest first into the smallest free buffer that fits",
    .kind = ARENA_KIND_SHARED_OBJECTS,
    .plan = coloring_plan,
    .scratch_bytes = coloring_scratch,
};
