/* greedy_cover.c — the gap walk where nearly every tensor of a part meets
 * the one being placed (all live at once: a fan-out, a CSV of tensors all
 * live at one step), in O((E + H + 1) log n) instead of O(m log m).
 *
 * The gap walk (arena_greedy_place) depends only on the union U of the byte
 * ranges of the placed tensors that meet the new tensor's lifetime W: its
 * gaps are the holes of U below U's top. The index finds those tensors one
 * by one, m of them, and sorts them: O(m log m) a placement, O(n^2 log n)
 * over a problem whose tensors all live at once (greedy-by-size, 30,000
 * such tensors: 8.6 s; 10^5: 7 minutes).
 *
 * Here every placed tensor of a part (the index's parts: ranks split where
 * no lifetime spans the boundary, so no tensor meets one of another part)
 * sits in a treap ordered by (offset, rank), each node knowing, for the
 * active tensors of its subtree, where their union's last run starts (tail)
 * and ends (hi). Offsets ascend in order, so every run of a union starts at
 * some tensor's offset, and (tail, hi) combine left to right: a node's
 * range extends the last run when it starts at or below its end, else
 * starts a new one; a right subtree whose tail is at or below the end so
 * far extends it to its hi, else its (tail, hi) is the last run. A walk
 * with the top so far skips a subtree whose tail is at or below the top
 * (no hole of the subtree is left above the top, and the top becomes
 * max(top, hi)); any other subtree holds a hole, so the walk visits
 * O((H + 1) depth) nodes for H holes. To leave only the tensors that meet
 * W active, the few that do not (E: those of the part ending before W or
 * starting after it, two runs of an order) are switched off for the walk
 * and on again, O(depth) each.
 *
 * The path serves a placement when E is small beside the tensors of its
 * part that meet W (E * 16 <= c, c >= 128; counted once, at set-up, for
 * every tensor); the treaps are kept only when some tensor qualifies. Both
 * paths give the same offset (the holes are the same set; both take the
 * smallest that fits, lowest on ties, or the lowest, else the top), so the
 * plans are those of the index alone, byte for byte (test_greedy.c, against
 * the O(n^2) oracle). Treap shapes come from a hash of the rank (ordset.h),
 * expected depth O(log n); no recursion, every stack one array of scratch. */
#include <assert.h>

#include "planners/greedy_common.h"
#include "planners/ordset.h"

#define NIL ARENA_ORDSET_NIL
#define OFF_BIT 1u /* flags: switched off for the walk in progress */

/* The part of rank r: part_start[q] <= r < part_start[q + 1]. */
static size_t part_of(const struct arena_greedy *g, size_t r)
{
    size_t lo = 0, hi = g->parts;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->part_start[mid] <= r)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Whether some rank of part [a, b) might take the cover path, in one pass
 * over a prefix of it: E * 16 <= c with c = size - E means E <= k =
 * size / 17, so the rank ends at or after the first step of rank b - k - 1
 * (at most k start later) and starts at or before the (k + 1)-th smallest
 * last, which is at most the largest last among any k + 1 ranks (here the
 * first ones). Most problems have no such rank and pay no sort. */
static int part_may_qualify(const struct arena_greedy *g, size_t a, size_t b)
{
    const struct arena_greedy_rec *rec = g->rec;
    size_t size = b - a, k = size / 17;
    if (size < 128)
        return 0;
    uint32_t late = rec[b - k - 1].first, early = 0;
    for (size_t r = a; r <= a + k; r++)
        early = rec[r].last > early ? rec[r].last : early;
    for (size_t r = a; r < b && rec[r].first <= early; r++)
        if (rec[r].last >= late)
            return 1;
    return 0;
}

void arena_greedy_cover_init(struct arena_greedy *g)
{
    size_t n = g->n;
    const struct arena_greedy_rec *rec = g->rec;
    g->cover_on = 0;
    g->parts = 0;
    if (n < 128) /* no part of fewer can qualify (part_may_qualify) */
        return;
    /* Parts: a new one wherever a first step passes every last before it. */
    uint32_t reach = rec[0].last;
    g->part_start[0] = 0;
    for (size_t r = 1; r < n; r++) {
        if (rec[r].first > reach)
            g->part_start[++g->parts] = (uint32_t)r;
        if (rec[r].last > reach)
            reach = rec[r].last;
    }
    g->part_start[++g->parts] = (uint32_t)n;
    int any = 0;
    for (size_t q = 0; q < g->parts && !any; q++)
        any = part_may_qualify(g, g->part_start[q], g->part_start[q + 1]);
    if (!any)
        return;

    /* lasts: ranks by last step (ties by rank, the sort is stable). Parts
     * are ordered in time, so part q's ranks fill lasts[part_start[q] ..
     * part_start[q + 1]) too. */
    for (size_t r = 0; r < n; r++) {
        g->sort.key[r] = rec[r].last;
        g->lasts[r] = (uint32_t)r;
    }
    arena_radix_sort(&g->sort, g->lasts, n);

    /* Per rank, the tensors of its part that end before it starts (cand,
     * by a pointer over lasts as firsts ascend) and that start after it
     * ends (a pointer over ranks as lasts ascend); order holds each rank's
     * part until the size order takes it. */
    uint32_t *before = g->cand, *part = g->order;
    for (size_t r = 0, q = 0, k = 0; r < n; r++) {
        while (q + 1 < g->parts && g->part_start[q + 1] <= r)
            q++;
        part[r] = (uint32_t)q;
        while (k < n && rec[g->lasts[k]].last < rec[r].first)
            k++;
        before[r] = (uint32_t)(k - g->part_start[q]);
    }
    for (size_t i = 0, u = 0; i < n; i++) {
        uint32_t r = g->lasts[i];
        while (u < n && rec[u].first <= rec[r].last)
            u++;
        size_t q = part[r], size = g->part_start[q + 1] - g->part_start[q];
        size_t far = before[r] + (g->part_start[q + 1] - u); /* E */
        size_t meet = size - far;                             /* c */
        g->flags[r] = 0;
        if (far * 16 <= meet && meet >= 128) {
            g->flags[r] = ARENA_GREEDY_COVER_PATH;
            g->cover_on = 1;
        }
    }
    arena_greedy_cover_restart(g);
}

void arena_greedy_cover_restart(struct arena_greedy *g)
{
    if (!g->cover_on)
        return;
    for (size_t q = 0; q < g->parts; q++)
        g->root[q] = NIL;
}

static int before_in_order(const struct arena_greedy *g, uint32_t a, uint32_t b)
{
    return g->rec[a].off < g->rec[b].off || (g->rec[a].off == g->rec[b].off && a < b);
}

/* Recomputes node v's (tail, hi) from its own range, if active, and its
 * children's; hi 0: nothing active below (active tensors end above 0). */
static void pull(struct arena_greedy *g, uint32_t v)
{
    struct arena_greedy_cover *c = g->cover;
    uint64_t tail = 0, hi = 0;
    uint32_t l = c[v].child[0], r = c[v].child[1];
    if (l != NIL && c[l].hi != 0) {
        tail = c[l].tail;
        hi = c[l].hi;
    }
    if (!(g->flags[v] & OFF_BIT)) {
        uint64_t a = g->rec[v].off, b = a + g->rec[v].size;
        if (hi != 0 && a <= hi) {
            hi = b > hi ? b : hi;
        } else {
            tail = a;
            hi = b;
        }
    }
    if (r != NIL && c[r].hi != 0) {
        if (hi != 0 && hi >= c[r].tail) {
            hi = c[r].hi > hi ? c[r].hi : hi;
        } else {
            tail = c[r].tail;
            hi = c[r].hi;
        }
    }
    c[v].tail = tail;
    c[v].hi = hi;
}

void arena_greedy_cover_insert(struct arena_greedy *g, uint32_t x, uint64_t at)
{
    g->rec[x].off = at; /* the key, before it is compared */
    struct arena_greedy_cover *c = g->cover;
    uint32_t *path = g->cand, *root = &g->root[part_of(g, x)];
    size_t len = 0;
    uint32_t px = arena_treap_prio(x);
    uint32_t *slot = root;
    while (*slot != NIL && arena_treap_prio(*slot) > px) {
        path[len++] = *slot;
        slot = &c[*slot].child[before_in_order(g, *slot, x)];
    }
    /* Split what hangs at the slot around x into x's children; the nodes
     * split get new children, so they are pulled last first. */
    size_t split = len;
    uint32_t *l = &c[x].child[0], *r = &c[x].child[1];
    for (uint32_t t = *slot; t != NIL;) {
        path[len++] = t;
        if (before_in_order(g, t, x)) {
            *l = t;
            l = &c[t].child[1];
            t = *l;
        } else {
            *r = t;
            r = &c[t].child[0];
            t = *r;
        }
    }
    *l = NIL;
    *r = NIL;
    *slot = x;
    g->flags[x] &= (uint8_t)~OFF_BIT;
    for (size_t i = len; i > split; i--)
        pull(g, path[i - 1]);
    pull(g, x);
    for (size_t i = split; i > 0; i--)
        pull(g, path[i - 1]);
}

/* Switches placed tensor x on or off and pulls its ancestors. */
static void toggle(struct arena_greedy *g, uint32_t root, uint32_t x, int off)
{
    struct arena_greedy_cover *c = g->cover;
    uint32_t *path = g->cand;
    size_t len = 0;
    for (uint32_t v = root; v != x; v = c[v].child[before_in_order(g, v, x)]) {
        assert(v != NIL); /* x is in the treap */
        path[len++] = v;
    }
    if (off)
        g->flags[x] |= OFF_BIT;
    else
        g->flags[x] &= (uint8_t)~OFF_BIT;
    pull(g, x);
    for (size_t i = len; i > 0; i--)
        pull(g, path[i - 1]);
}

/* Switches every placed tensor of the part [a, b) that does not meet
 * [f, l] on or off: the part's ranks starting after l, then its tensors
 * ending before f (a prefix of its stretch of lasts). */
static void switch_far(struct arena_greedy *g, uint32_t root, size_t a, size_t b, uint32_t f,
                       uint32_t l, int off)
{
    const struct arena_greedy_rec *rec = g->rec;
    size_t lo = a, hi = b;
    while (lo < hi) { /* the first rank of the part starting after l */
        size_t mid = lo + (hi - lo) / 2;
        if (rec[mid].first <= l)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t r = lo; r < b; r++)
        if (rec[r].size != 0 && rec[r].off != ARENA_GREEDY_UNPLACED)
            toggle(g, root, (uint32_t)r, off);
    lo = a;
    hi = b;
    while (lo < hi) { /* past the part's last tensor ending before f */
        size_t mid = lo + (hi - lo) / 2;
        if (rec[g->lasts[mid]].last < f)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = a; i < lo; i++) {
        uint32_t r = g->lasts[i];
        if (rec[r].size != 0 && rec[r].off != ARENA_GREEDY_UNPLACED)
            toggle(g, root, r, off);
    }
}

uint64_t arena_greedy_cover_fit(struct arena_greedy *g, uint32_t x, enum arena_greedy_fit fit)
{
    const struct arena_greedy_rec *rec = g->rec;
    const struct arena_greedy_cover *c = g->cover;
    size_t q = part_of(g, x), a = g->part_start[q], b = g->part_start[q + 1];
    uint32_t root = g->root[q], f = rec[x].first, l = rec[x].last;
    switch_far(g, root, a, b, f, l, 1);
    root = g->root[q]; /* toggles keep the shape; the root stays */

    /* The walk in offset order, a subtree skipped whole when it leaves no
     * hole above the top; each stack entry holds a node to visit after its
     * left subtree and, above it, its right subtree (at most one entry per
     * node of the path from the root, so n entries suffice). */
    uint64_t *stack = g->sort.key, size = rec[x].size, top = 0, best = 0,
             best_gap = UINT64_MAX;
    size_t sp = 0;
    int found = 0, done = 0;
    uint32_t v = root;
    while (!done) {
        while (v != NIL) {
            if (c[v].hi == 0)
                break;
            if (c[v].tail <= top) {
                if (c[v].hi > top)
                    top = c[v].hi;
                break;
            }
            stack[sp++] = (uint64_t)c[v].child[1] << 32 | v;
            v = c[v].child[0];
        }
        if (sp == 0)
            break;
        uint64_t e = stack[--sp];
        uint32_t u = (uint32_t)e;
        v = (uint32_t)(e >> 32);
        if (g->flags[u] & OFF_BIT)
            continue;
        uint64_t off = rec[u].off;
        if (off > top) {
            uint64_t gap = off - top;
            if (gap >= size && gap < best_gap) {
                best = top;
                best_gap = gap;
                found = 1;
                done = fit == ARENA_GREEDY_FIRST_FIT || gap == size;
            }
        }
        if (off + rec[u].size > top)
            top = off + rec[u].size;
    }
    switch_far(g, root, a, b, f, l, 0);
    return found ? best : top;
}
