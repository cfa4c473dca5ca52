/* greedy_common.c — the interval index and the one gap walk shared by the
 * greedy planners (see greedy_common.h for the structure and its costs). */
#include "planners/greedy_common.h"

#include <assert.h>
#include <string.h>

const char *const arena_greedy_ties_names[] = {"first", "longest", NULL};

const struct arena_key arena_greedy_ties_key = {
    .name = "ties", .kind = ARENA_KEY_CHOICE, .def = "first", .choices = arena_greedy_ties_names,
    .help = "equal sizes: first (earlier first step, then id) or longest lifetime first"};

int arena_greedy_take(struct arena_greedy *g, struct arena_layout *l, size_t n)
{
    if ((uint64_t)n >= UINT32_MAX)
        return ARENA_EOVERFLOW;
    size_t most_long = n / 8; /* 7/8 of the lengths are <= reach */
    g->rec = arena_layout_take(l, n, sizeof *g->rec);
    g->id = arena_layout_take(l, n, sizeof *g->id);
    g->order = arena_layout_take(l, n, sizeof *g->order);
    g->cand = arena_layout_take(l, n, sizeof *g->cand);
    g->skip = arena_layout_take(l, n, sizeof *g->skip);
    g->step = arena_layout_take(l, most_long, sizeof *g->step);
    g->node_start = arena_layout_take(l, n > 0 ? most_long + 1 : 0, sizeof *g->node_start);
    g->by_first = arena_layout_take(l, most_long, sizeof *g->by_first);
    g->by_last = arena_layout_take(l, most_long, sizeof *g->by_last);
    arena_radix_take(&g->sort, l, n);
    g->part_start = arena_layout_take(l, n > 0 ? n + 1 : 0, sizeof *g->part_start);
    g->lasts = arena_layout_take(l, n, sizeof *g->lasts);
    g->flags = arena_layout_take(l, n, sizeof *g->flags);
    g->root = arena_layout_take(l, n, sizeof *g->root);
    g->cover = arena_layout_take(l, n, sizeof *g->cover);
    return ARENA_OK;
}

/* Greedy-by-size's scratch, with either gap rule: the shared part alone
 * (layout.h). */
static int greedy_size_layout(struct arena_layout *l, const struct arena_problem *p, void *g)
{
    return arena_greedy_take(g, l, p->n);
}

int arena_greedy_size_scratch(const struct arena_problem *p, size_t *bytes)
{
    struct arena_greedy g;
    return arena_layout_count(greedy_size_layout, p, &g, bytes);
}

/* The ties key's longest: the size order again, ties by the longer
 * lifetime, then rank (two stable sorts; the index's sort is free). */
static void order_longest_first(struct arena_greedy *g)
{
    size_t n = g->n;
    arena_order_identity(g->order, n);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t k = 0; k < n; k++) {
            const struct arena_greedy_rec *t = &g->rec[g->order[k]];
            g->sort.key[k] = ~(pass == 0 ? (uint64_t)(t->last - t->first) : t->size);
        }
        arena_radix_sort(&g->sort, g->order, n);
    }
}

static int size_plan(const struct arena_problem *p, void *scratch, size_t scratch_size,
                     struct arena_plan *plan, enum arena_greedy_fit fit,
                     enum arena_greedy_ties ties, int (*interrupt)(void *ctx), void *ctx,
                     const volatile sig_atomic_t *stop, int *interrupted)
{
    struct arena_greedy g;
    arena_layout_carve(greedy_size_layout, p, &g, scratch, scratch_size);
    arena_greedy_init(&g, p, stop, interrupt, ctx);
    if (ties == ARENA_GREEDY_TIES_LONGEST && !g.interrupted)
        order_longest_first(&g);
    for (size_t i = 0; i < g.n && !arena_greedy_interrupted(&g); i++)
        arena_greedy_place(&g, g.order[i], fit);
    arena_greedy_stack_rest(&g);
    arena_greedy_finish(&g, plan);
    if (interrupted != NULL)
        *interrupted = g.interrupted;
    return ARENA_OK;
}

int arena_greedy_size_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                           void *scratch, size_t scratch_size, struct arena_plan *plan,
                           enum arena_greedy_fit fit, enum arena_greedy_ties ties)
{
    int stopped = 0;
    int rc = size_plan(p, scratch, scratch_size, plan, fit, ties, NULL, NULL, opt->stop, &stopped);
    if (stopped)
        plan->status = ARENA_PLAN_LIMIT;
    return rc;
}

int arena_greedy_size_plan_until(const struct arena_problem *p, void *scratch,
                                 size_t scratch_size, struct arena_plan *plan,
                                 enum arena_greedy_fit fit, int (*interrupt)(void *ctx),
                                 void *ctx, const volatile sig_atomic_t *stop,
                                 int *interrupted)
{
    return size_plan(p, scratch, scratch_size, plan, fit, ARENA_GREEDY_TIES_FIRST, interrupt, ctx,
                     stop, interrupted);
}

void arena_greedy_stack_rest(struct arena_greedy *g)
{
    /* every placed end is <= g->arena, and the sizes' sum fits (checked) */
    for (size_t r = 0; r < g->n; r++)
        if (g->rec[r].size != 0 && g->rec[r].off == ARENA_GREEDY_UNPLACED) {
            g->rec[r].off = g->arena;
            g->arena += g->rec[r].size;
        }
}

/* The node of the implicit tree over step[0..steps) that holds [f, l]: the
 * highest node whose step lies in [f, l]. Node of range [lo, hi) is its
 * middle index; its children are [lo, mid) and [mid + 1, hi). f is a step. */
static uint32_t node_of(const uint32_t *step, size_t steps, uint32_t f, uint32_t l)
{
    size_t lo = 0, hi = steps;
    for (;;) {
        size_t mid = lo + (hi - lo) / 2;
        if (step[mid] < f)
            lo = mid + 1;
        else if (step[mid] > l)
            hi = mid;
        else
            return (uint32_t)mid;
    }
}

/* The tensors that meet [f, l] (first <= l && last >= f), whose placed state
 * is `placed` and whose size is nonzero, into out; returns the count. from is
 * the lowest rank whose first is >= f. */
static size_t meet(const struct arena_greedy *g, uint32_t f, uint32_t l, size_t from, int placed,
                   uint32_t *out)
{
    const struct arena_greedy_rec *rec = g->rec;
    size_t m = 0;
#define TAKE(j)                                                                        \
    do {                                                                               \
        if ((rec[j].off != ARENA_GREEDY_UNPLACED) == placed && rec[j].size != 0)       \
            out[m++] = (uint32_t)(j);                                                  \
    } while (0)

    /* Starting in [f, l]. */
    for (size_t j = from; j < g->n && rec[j].first <= l; j++)
        TAKE(j);

    /* Short ones started before f and live at f start at f - reach or later;
     * from a rank that is not one, skip jumps over every rank that cannot be
     * one either. */
    uint64_t lowest = f > g->reach ? f - g->reach : 0;
    for (size_t j = from; j > 0 && rec[j - 1].first >= lowest;) {
        size_t k = j - 1;
        if (rec[k].last >= f && rec[k].last - rec[k].first <= g->reach) {
            TAKE(k);
            j = k;
        } else {
            j = g->skip[k];
        }
    }

    /* Long ones started before f and live at f: stab the tree at f. A node's
     * tensors all contain its step; left of f, those that start before f are
     * live at f (a prefix of by_first); right of f, those that end at f or
     * later (a prefix of by_last). */
    size_t lo = 0, hi = g->steps;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t at = g->step[mid];
        size_t b = g->node_start[mid], e = g->node_start[mid + 1];
        if (f <= at) {
            for (size_t i = b; i < e && rec[g->by_first[i]].first < f; i++)
                TAKE(g->by_first[i]);
            if (f == at)
                break;
            hi = mid;
        } else {
            for (size_t i = b; i < e && rec[g->by_last[i]].last >= f; i++)
                TAKE(g->by_last[i]);
            lo = mid + 1;
        }
    }
#undef TAKE
    return m;
}

size_t arena_greedy_live_unplaced(const struct arena_greedy *g, uint32_t s, size_t from,
                                  uint32_t *out)
{
    return meet(g, s, s, from, 0, out);
}

void arena_greedy_init(struct arena_greedy *g, const struct arena_problem *p,
                       const volatile sig_atomic_t *stop, int (*interrupt)(void *ctx), void *ctx)
{
    size_t n = p->n;
    g->n = n;
    g->interrupt = interrupt;
    g->interrupt_ctx = ctx;
    g->stop = stop;
    g->interrupted = 0;
    g->reach = 0;
    g->steps = 0;
    g->arena = 0;
    g->parts = 0;
    g->cover_on = 0;
    if (n == 0)
        return;

    /* Ranks: ids sorted by first, ties by id (the sort is stable). */
    for (size_t i = 0; i < n; i++)
        g->sort.key[i] = p->tensors[i].first;
    arena_order_identity(g->id, n);
    arena_radix_sort(&g->sort, g->id, n);
    uint32_t hist[33] = {0};
    for (size_t r = 0; r < n; r++) {
        const struct arena_tensor *t = &p->tensors[g->id[r]];
        assert(t->first <= t->last); /* arena_problem_check */
        g->rec[r].size = t->size;
        g->rec[r].off = ARENA_GREEDY_UNPLACED;
        g->rec[r].first = t->first;
        g->rec[r].last = t->last;
        unsigned bits = 0;
        for (uint32_t len = t->last - t->first; len != 0; len >>= 1)
            bits++;
        hist[bits]++;
    }

    /* reach: the longest length in the smallest power-of-two class that at
     * least 7/8 of the lengths keep to. */
    size_t kept = 0;
    uint64_t bound = 0;
    for (unsigned bits = 0; bits <= 32; bits++) {
        kept += hist[bits];
        if (kept >= n - n / 8) {
            bound = ((uint64_t)1 << bits) - 1;
            break;
        }
    }
    for (size_t r = 0; r < n; r++) {
        uint64_t len = g->rec[r].last - g->rec[r].first;
        if (len <= bound && len > g->reach)
            g->reach = len;
    }

    if (arena_greedy_interrupted(g))
        return;

    /* The tree over the long tensors. Until the first query, order lists the
     * long ranks, cand holds each one's node and skip is the fill cursor. */
    uint32_t *longs = g->order, *node = g->cand, *cursor = g->skip;
    size_t steps = 0, nlong = 0;
    for (size_t r = 0; r < n; r++) {
        if ((uint64_t)(g->rec[r].last - g->rec[r].first) <= g->reach)
            continue;
        longs[nlong++] = (uint32_t)r;
        if (steps == 0 || g->step[steps - 1] != g->rec[r].first)
            g->step[steps++] = g->rec[r].first;
    }
    g->steps = steps;
    memset(g->node_start, 0, (steps + 1) * sizeof *g->node_start);
    for (size_t i = 0; i < nlong; i++) {
        uint32_t r = longs[i];
        node[r] = node_of(g->step, steps, g->rec[r].first, g->rec[r].last);
        g->node_start[node[r] + 1]++;
    }
    for (size_t u = 0; u < steps; u++)
        g->node_start[u + 1] += g->node_start[u];

    memcpy(cursor, g->node_start, steps * sizeof *cursor);
    for (size_t i = 0; i < nlong; i++)
        g->by_first[cursor[node[longs[i]]]++] = longs[i];

    for (size_t i = 0; i < nlong; i++)
        g->sort.key[i] = ~(uint64_t)g->rec[longs[i]].last;
    arena_radix_sort(&g->sort, longs, nlong);
    memcpy(cursor, g->node_start, steps * sizeof *cursor);
    for (size_t i = 0; i < nlong; i++)
        g->by_last[cursor[node[longs[i]]]++] = longs[i];

    /* skip[r]: 1 + the nearest rank left of r whose short last (0 for a long
     * tensor) exceeds r's, else 0; everything between is no higher. The
     * sort's value buffer holds the stack. */
    uint32_t *stack = g->sort.vtmp;
    size_t depth = 0;
    for (size_t r = 0; r < n; r++) {
        uint32_t here = g->rec[r].last - g->rec[r].first <= g->reach ? g->rec[r].last : 0;
        while (depth > 0) {
            uint32_t top = stack[depth - 1];
            uint32_t there = g->rec[top].last - g->rec[top].first <= g->reach ? g->rec[top].last : 0;
            if (there > here)
                break;
            depth--;
        }
        g->skip[r] = depth > 0 ? stack[depth - 1] + 1 : 0;
        stack[depth++] = (uint32_t)r;
    }

    if (arena_greedy_interrupted(g))
        return;
    arena_greedy_cover_init(g);
    if (arena_greedy_interrupted(g))
        return;

    /* Greedy-by-size order: size descending, then rank, i.e. earlier first,
     * then lower id. */
    for (size_t r = 0; r < n; r++)
        g->sort.key[r] = ~g->rec[r].size;
    arena_order_identity(g->order, n);
    arena_radix_sort(&g->sort, g->order, n);
}

/* The gap walk over the placed tensors the index finds, sorted by offset. */
static uint64_t index_fit(struct arena_greedy *g, uint32_t r, enum arena_greedy_fit fit)
{
    struct arena_greedy_rec *rec = g->rec;
    const struct arena_greedy_rec *t = &rec[r];
    size_t from = r;
    while (from > 0 && rec[from - 1].first == t->first)
        from--;
    uint32_t *cand = g->cand;
    size_t m = meet(g, t->first, t->last, from, 1, cand);

    /* The conflicting placed tensors by offset. Only the highest end among
     * equal offsets counts in the walk, so their order does not matter. */
    uint64_t *off = g->sort.key;
    for (size_t i = 0; i < m; i++)
        off[i] = rec[cand[i]].off;
    arena_radix_sort(&g->sort, cand, m);

    /* The gap walk. */
    uint64_t size = t->size, top = 0, best = 0, best_gap = UINT64_MAX;
    int found = 0;
    for (size_t i = 0; i < m; i++) {
        if (off[i] > top) {
            uint64_t gap = off[i] - top;
            if (gap >= size && gap < best_gap) {
                best = top;
                best_gap = gap;
                found = 1;
                if (fit == ARENA_GREEDY_FIRST_FIT || gap == size)
                    break;
            }
        }
        uint64_t end = off[i] + rec[cand[i]].size;
        if (end > top)
            top = end;
    }
    return found ? best : top;
}

void arena_greedy_place(struct arena_greedy *g, uint32_t r, enum arena_greedy_fit fit)
{
    struct arena_greedy_rec *rec = g->rec;
    struct arena_greedy_rec *t = &rec[r];
    if (t->size == 0 || t->off != ARENA_GREEDY_UNPLACED)
        return;

    /* Every end placed so far is at most the sum of the sizes placed so far
     * (each tensor goes in a gap or just above conflicting ones), and that sum
     * fits (arena_problem_check): no end wraps, and since size > 0 no offset
     * reaches the unplaced mark. */
    uint64_t size = t->size, at;
    if (g->cover_on && (g->flags[r] & ARENA_GREEDY_COVER_PATH))
        at = arena_greedy_cover_fit(g, r, fit);
    else
        at = index_fit(g, r, fit);
    if (g->cover_on)
        arena_greedy_cover_insert(g, r, at);
    assert(at <= UINT64_MAX - size);
    t->off = at;
    if (at + size > g->arena)
        g->arena = at + size;
}

void arena_greedy_restart(struct arena_greedy *g)
{
    for (size_t r = 0; r < g->n; r++)
        g->rec[r].off = ARENA_GREEDY_UNPLACED;
    g->arena = 0;
    arena_greedy_cover_restart(g);
}

void arena_greedy_finish(const struct arena_greedy *g, struct arena_plan *plan)
{
    for (size_t r = 0; r < g->n; r++) {
        uint64_t off = g->rec[r].off;
        plan->offsets[g->id[r]] = off == ARENA_GREEDY_UNPLACED ? 0 : off;
    }
    plan->arena = g->arena;
    plan->buffers = 0;
}
