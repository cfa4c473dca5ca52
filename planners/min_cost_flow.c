/* min_cost_flow.c — shared objects from a minimum-cost flow (TensorFlow Lite
 * GPU's MinCostFlowAssignment,
 * tensorflow/lite/delegates/gpu/common/memory_management/min_cost_flow_assignment.cc).
 *
 * The network: source S, sink T, and per tensor a left node L_i ("i is done
 * and its object is free") and a right node R_i ("i needs an object").
 * S->L_i and R_i->T have capacity 1 and cost 0; S->R_i (a new object for i)
 * costs size_i; L_j->R_i for every j that ends before i starts (i takes j's
 * object) costs max(0, size_i - size_j). n units go from S to T at minimum
 * cost; the used L->R edges chain tensors into objects, each as large as its
 * largest tensor, laid end to end in the order of their first tensor:
 * arena = the sum of object sizes, buffers = the object count.
 *
 * Successive shortest paths in phases (primal-dual): Dijkstra on costs
 * reduced by node potentials (nonnegative, so Dijkstra is exact), stopped
 * once T is settled; potentials then grow by min(distance, distance to T),
 * which leaves every shortest path with reduced cost 0; then depth-first
 * searches from S over edges of reduced cost 0 route units along such paths
 * until none is left (each node entered once per phase, neighbours in node
 * number order: S lists R then L by rank, L_j its R by rank, R_k T then its
 * L). Each unit thus goes along a shortest path, so the flow is of least
 * cost. TFLite instead runs SPFA (Bellman-Ford with a queue) on an explicit
 * edge list once per unit; its objects may differ where several flows tie.
 * Here the O(n^2) L->R edges are never stored: tensors are ranked by
 * (first step, id), so L_j's heads are the ranks past the last one whose
 * first step is <= last_j, and each edge's state is read off the matching
 * (pred of every R, succ of every L). An L that feeds nobody yet has
 * potential and distance 0 in every phase (only S reaches it), so those are
 * settled together and offer each R the largest of them that ends before
 * it, in O(n). Memory is O(n); time is O(n^2) per phase with up to n phases
 * (about 100 at n = 1,000) — the reason for the limit: above
 * ARENA_MCF_MAX_TENSORS tensors the planner refuses with ARENA_ETOOBIG
 * rather than run for minutes.
 *
 * Determinism: Dijkstra only sets potentials (its distances are unique);
 * which paths carry the units is fixed by the depth-first order above.
 * Costs are exact integers (128-bit where the compiler has them: see
 * `cost`).
 *
 * Scratch: 120 bytes per tensor plus about 100 (per node: distance and
 * potential 16 each, heap entry, heap slot and parent (the search's cursor)
 * 4 each, over 2n + 2 nodes; per rank: the order, the first edge of L and
 * the matching 4 each, the size and the free-L maximum 8 each), from
 * layout.h. */
#include <assert.h>

#include "planners/layout.h"
#include "planners/objects.h"
#include "planners/order.h"
#include "planners/tables.h"

#define NIL UINT32_MAX
#define FRESH (UINT32_MAX - 1) /* pred of an R served by a new object */

/* Distances and potentials: sizes sum to at most 2^64, and a potential or a
 * reduced distance stays within that sum either way of 0, so 128-bit
 * integers hold them exactly where the compiler has them; elsewhere 64-bit
 * ones do while the sizes sum to at most 2^60 (ARENA_EOVERFLOW above). */
#if defined(__SIZEOF_INT128__)
__extension__ typedef __int128 cost;
__extension__ typedef unsigned __int128 cost_bits;
#define COST_MAX ((cost)(~(cost_bits)0 >> 1))
#define SUM_MAX UINT64_MAX
#else
typedef int64_t cost;
#define COST_MAX INT64_MAX
#define SUM_MAX ((uint64_t)1 << 60)
#endif
#define T_NODE 0u
#define S_NODE 1u

struct work {
    cost *dist;  /* V: reduced distance from S; COST_MAX unreached */
    cost *pot;   /* V */
    uint32_t *cursor; /* V: the depth-first search's next neighbour */
    uint32_t *slot; /* V: heap position; NIL outside, NIL - 1 settled */
    uint32_t *heap; /* V */
    uint32_t *rank; /* n: tensor ids by (first, id) */
    uint32_t *tmp;  /* n: sort buffer, then `from` per rank */
    uint32_t *pred; /* n: per R rank: NIL unserved, FRESH, or the L rank */
    uint32_t *succ; /* n: per L rank: the R rank it feeds, or NIL */
    uint64_t *size; /* n: size by rank, read in the inner loop */
    uint64_t *freemax; /* n: per R rank, 1 + the largest free L size whose
                          edges start there (0: none), then a running max */
};

static int carve(struct arena_layout *l, const struct arena_problem *p, void *work)
{
    struct work *w = work;
    size_t n = p->n;
    if (n > ARENA_MCF_MAX_TENSORS)
        return ARENA_ETOOBIG;
    size_t v = 2 * n + 2;
    w->dist = arena_layout_take(l, v, sizeof *w->dist);
    w->pot = arena_layout_take(l, v, sizeof *w->pot);
    w->cursor = arena_layout_take(l, v, sizeof *w->cursor);
    w->slot = arena_layout_take(l, v, sizeof *w->slot);
    w->heap = arena_layout_take(l, v, sizeof *w->heap);
    w->rank = arena_layout_take(l, n, sizeof *w->rank);
    w->tmp = arena_layout_take(l, n, sizeof *w->tmp);
    w->pred = arena_layout_take(l, n, sizeof *w->pred);
    w->succ = arena_layout_take(l, n, sizeof *w->succ);
    w->size = arena_layout_take(l, n, sizeof *w->size);
    w->freemax = arena_layout_take(l, n, sizeof *w->freemax);
    return ARENA_OK;
}

static int mcf_scratch(const struct arena_problem *p, size_t *bytes)
{
    struct work w;
    return arena_layout_count(carve, p, &w, bytes);
}

/* ---- the heap of unsettled nodes, by (dist, node) ---------------------- */

struct pq {
    struct work *w;
    size_t len;
};

#define SETTLED (NIL - 1)

static int pq_less(const struct work *w, uint32_t a, uint32_t b)
{
    return w->dist[a] < w->dist[b] || (w->dist[a] == w->dist[b] && a < b);
}

static void pq_up(struct pq *q, size_t i)
{
    struct work *w = q->w;
    uint32_t x = w->heap[i];
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!pq_less(w, x, w->heap[up]))
            break;
        w->heap[i] = w->heap[up];
        w->slot[w->heap[i]] = (uint32_t)i;
        i = up;
    }
    w->heap[i] = x;
    w->slot[x] = (uint32_t)i;
}

static uint32_t pq_pop(struct pq *q)
{
    struct work *w = q->w;
    uint32_t top = w->heap[0], x = w->heap[--q->len];
    size_t i = 0, n = q->len;
    if (n > 0) {
        for (;;) {
            size_t c = 2 * i + 1;
            if (c >= n)
                break;
            if (c + 1 < n && pq_less(w, w->heap[c + 1], w->heap[c]))
                c++;
            if (!pq_less(w, w->heap[c], x))
                break;
            w->heap[i] = w->heap[c];
            w->slot[w->heap[i]] = (uint32_t)i;
            i = c;
        }
        w->heap[i] = x;
        w->slot[x] = (uint32_t)i;
    }
    w->slot[top] = SETTLED;
    return top;
}

/* Offers v the distance d. */
static void relax(struct pq *q, uint32_t v, cost d)
{
    struct work *w = q->w;
    if (w->slot[v] == SETTLED || d >= w->dist[v])
        return;
    w->dist[v] = d;
    if (w->slot[v] == NIL) {
        w->heap[q->len] = v;
        pq_up(q, q->len++);
    } else {
        pq_up(q, w->slot[v]);
    }
}

/* ---- augmenting along every path of zero reduced cost ------------------ */

/* The residual network, read off the matching: see the head comment. */
struct net {
    struct work *w;
    const struct arena_tensor *t;
    const uint32_t *from;
    uint32_t n, r0, l0;
};

static cost reuse_cost(uint64_t to, uint64_t from);

/* Reduced cost of the residual edge u -> x, or -1 when there is none. Edges
 * into S are left out (no path returns to S). */
static cost residual(const struct net *g, uint32_t u, uint32_t x)
{
    const struct work *w = g->w;
    const struct arena_tensor *t = g->t;
    if (u == S_NODE) {
        if (x >= g->l0)
            return w->succ[x - g->l0] == NIL ? w->pot[u] - w->pot[x] : -1;
        return w->pred[x - g->r0] != FRESH
                   ? w->pot[u] + (cost)t[w->rank[x - g->r0]].size - w->pot[x]
                   : -1;
    }
    if (u >= g->l0) {
        uint32_t j = u - g->l0, k = x - g->r0;
        return w->succ[j] != k ? w->pot[u] +
                                     reuse_cost(t[w->rank[k]].size, t[w->rank[j]].size) -
                                     w->pot[x]
                               : -1;
    }
    uint32_t k = u - g->r0, j = w->pred[k];
    if (x == T_NODE)
        return j == NIL ? w->pot[u] - w->pot[x] : -1;
    return w->pot[u] - reuse_cost(t[w->rank[k]].size, t[w->rank[j]].size) - w->pot[x];
}

/* The next neighbour of u from its cursor on: S has R by rank then L by
 * rank, L_j the R of ranks from[j] on, R_k T and then its L. NIL past the
 * end. Node numbers ascend along every list. */
static uint32_t neighbour(const struct net *g, uint32_t u, uint32_t c)
{
    const struct work *w = g->w;
    if (u == S_NODE)
        return c < g->n ? g->r0 + c : c < 2 * g->n ? g->l0 + (c - g->n) : NIL;
    if (u >= g->l0) {
        uint32_t k = g->from[u - g->l0] + c;
        return k < g->n ? g->r0 + k : NIL;
    }
    uint32_t j = w->pred[u - g->r0];
    if (c == 0)
        return T_NODE;
    return c == 1 && j != NIL && j != FRESH ? g->l0 + j : NIL;
}

/* Flips the matching along the path S = path[0] .. path[len-1] = T: an R
 * takes the node before it as its source, an L feeds the R after it. */
static void flip(struct net *g, const uint32_t *path, size_t len)
{
    struct work *w = g->w;
    for (size_t i = 0; i + 1 < len; i++) {
        uint32_t u = path[i], x = path[i + 1];
        if (x == T_NODE || x >= g->l0)
            continue; /* into T, or R -> L undone by the L's next edge */
        uint32_t k = x - g->r0;
        if (u == S_NODE) {
            w->pred[k] = FRESH;
        } else {
            w->pred[k] = u - g->l0;
            w->succ[u - g->l0] = k;
        }
    }
}

/* One phase: depth-first searches from S over the edges of zero reduced
 * cost, each node entered at most once, each search that reaches T
 * flipping its path; neighbours in list order. Returns the units routed
 * (at least one: the Dijkstra tree holds a path of zero reduced cost), or
 * SIZE_MAX when the caller's stop flag was set (read every 64 steps of the
 * search, each looking at up to n edges: a phase may look at all O(n^2)).
 * The path lives in heap[]. */
static size_t augment_all(struct net *g, const struct arena_plan_options *opt)
{
    struct work *w = g->w;
    size_t v = 2 * (size_t)g->n + 2, units = 0;
    uint32_t *path = w->heap, *cursor = w->cursor;
    for (size_t x = 0; x < v; x++) {
        w->slot[x] = 0; /* now: entered in this phase */
        cursor[x] = 0;
    }
    w->slot[S_NODE] = 1;
    size_t len = 1;
    path[0] = S_NODE;
    for (size_t step = 0; len > 0; step++) {
        if (step % 64 == 0 && arena_plan_stop_requested(opt))
            return SIZE_MAX;
        uint32_t u = path[len - 1], x;
        while ((x = neighbour(g, u, cursor[u])) != NIL) {
            cursor[u]++;
            if (x != T_NODE && w->slot[x])
                continue;
            if (residual(g, u, x) == 0)
                break;
        }
        if (x == NIL) {
            len--; /* dead end for this phase */
            continue;
        }
        path[len++] = x;
        if (x != T_NODE) {
            w->slot[x] = 1;
            continue;
        }
        flip(g, path, len);
        units++;
        len = 1; /* the nodes on the path stay entered */
    }
    return units;
}

/* ---- the plan ----------------------------------------------------------- */

static cost reuse_cost(uint64_t to, uint64_t from)
{
    return to > from ? (cost)(to - from) : 0;
}

static int mcf_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                    void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    size_t n = p->n;
    if (n == 0)
        return ARENA_OK;
    const struct arena_tensor *t = p->tensors;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i].size > SUM_MAX - total)
            return ARENA_EOVERFLOW;
        total += t[i].size;
    }
    struct work w;
    arena_layout_carve(carve, p, &w, scratch, scratch_size);
    arena_order_ids(w.rank, w.tmp, n, t, ARENA_ORDER_FIRST);
    for (size_t k = 0; k < n; k++)
        w.size[k] = t[w.rank[k]].size;

    /* from[j]: the first rank whose first step is after last_j. */
    uint32_t *from = w.tmp;
    for (size_t j = 0; j < n; j++) {
        uint32_t last = t[w.rank[j]].last;
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (t[w.rank[mid]].first <= last)
                lo = mid + 1;
            else
                hi = mid;
        }
        from[j] = (uint32_t)lo;
    }

    size_t v = 2 * n + 2;
    uint32_t r0 = 2, l0 = 2 + (uint32_t)n; /* node of R rank 0, of L rank 0 */
    for (size_t x = 0; x < v; x++)
        w.pot[x] = 0;
    for (size_t k = 0; k < n; k++)
        w.pred[k] = w.succ[k] = NIL;

    struct pq q = {.w = &w, .len = 0};
    struct net net = {.w = &w, .t = t, .from = from, .n = (uint32_t)n, .r0 = r0, .l0 = l0};
    for (size_t units = 0; units < n;) {
        for (size_t x = 0; x < v; x++) {
            w.dist[x] = COST_MAX;
            w.slot[x] = NIL;
        }
        q.len = 0;
        /* S and every free L: distance 0 and settled at once (see the head
         * comment), their offers to each R folded into one: the largest
         * free L that ends before it. */
        w.dist[S_NODE] = 0;
        w.slot[S_NODE] = SETTLED;
        for (uint32_t k = 0; k < n; k++)
            w.freemax[k] = 0;
        for (uint32_t j = 0; j < n; j++) {
            if (w.succ[j] != NIL)
                continue;
            w.dist[l0 + j] = 0;
            w.slot[l0 + j] = SETTLED;
            if (from[j] < n && w.freemax[from[j]] < w.size[j] + 1)
                w.freemax[from[j]] = w.size[j] + 1; /* 0: none */
        }
        uint64_t most = 0;
        for (uint32_t k = 0; k < n; k++) {
            if (w.freemax[k] > most)
                most = w.freemax[k];
            cost d = COST_MAX;
            if (w.pred[k] != FRESH)
                d = (cost)w.size[k] - w.pot[r0 + k];
            if (most > 0) {
                cost via = reuse_cost(w.size[k], most - 1) - w.pot[r0 + k];
                d = via < d ? via : d;
            }
            if (d != COST_MAX)
                relax(&q, r0 + k, d);
        }
        for (size_t popped = 0; q.len > 0; popped++) {
            /* every 64 nodes: settling an L relaxes up to n edges */
            if (popped % 64 == 63 && arena_plan_stop_here(opt, p, plan))
                return ARENA_OK;
            uint32_t u = pq_pop(&q);
            if (u == T_NODE)
                break;
            cost du = w.dist[u] + w.pot[u];
            if (u < l0) {
                uint32_t k = u - r0, j = w.pred[k];
                if (j == NIL)
                    relax(&q, T_NODE, du - w.pot[T_NODE]);
                else if (j != FRESH)
                    relax(&q, l0 + j,
                          du - reuse_cost(w.size[k], w.size[j]) - w.pot[l0 + j]);
            } else {
                uint32_t j = u - l0;
                uint64_t sj = w.size[j];
                for (uint32_t k = from[j]; k < n; k++)
                    if (w.slot[r0 + k] != SETTLED && w.succ[j] != k)
                        relax(&q, r0 + k,
                              du + reuse_cost(w.size[k], sj) - w.pot[r0 + k]);
            }
        }
        if (w.slot[T_NODE] != SETTLED)
            return ARENA_EINVAL; /* cannot happen: S->R_k->T is always open */
        cost dt = w.dist[T_NODE];
        for (size_t x = 0; x < v; x++)
            w.pot[x] += w.slot[x] == SETTLED ? w.dist[x] : dt;
        size_t routed = augment_all(&net, opt);
        if (routed == SIZE_MAX && arena_plan_stop_here(opt, p, plan))
            return ARENA_OK;
        units += routed;
    }

    /* Objects: each FRESH R heads a chain through succ; ids by head rank. */
    uint32_t objects = 0;
    uint64_t *osize = (uint64_t *)w.dist; /* 2n + 2 entries >= n objects */
    for (uint32_t k = 0; k < n; k++) {
        if (w.pred[k] != FRESH)
            continue;
        uint64_t big = 0;
        for (uint32_t c = k; c != NIL; c = w.succ[c]) {
            const struct arena_tensor *tc = &t[w.rank[c]];
            if (tc->size > big)
                big = tc->size;
            plan->offsets[w.rank[c]] = objects;
        }
        osize[objects++] = big;
    }
    return arena_objects_lay(osize, objects, plan);
}

const struct arena_planner arena_planner_min_cost_flow = {
    .name = "min-cost-flow",
    .summary = "shared objects from a minimum-cost flow, at most 5000 tensors (TFLite GPU)",
    .kind = ARENA_KIND_SHARED_OBJECTS,
    .plan = mcf_plan,
    .scratch_bytes = mcf_scratch,
};
