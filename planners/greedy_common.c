/* greedy_common.c — the interval index and the one gap walk shared by the
 * greedy planners (see greedy_common.h for the structure and its costs). */
#include "planners/greedy_common.h"

#include <string.h>

/* Scratch layout, in this order (8-byte items first, so every array stays
 * aligned): rec 24n | span 16n | span_tmp 16n | id, order, cand 4n each |
 * the tree, for at most L = floor(n/8) long tensors: step 4L, node_start
 * 4(L+1), by_first 4L, by_last 4L | skip 4n. That is 84n + 4 at most. */
#define BYTES_PER_TENSOR 84u

int arena_greedy_scratch(size_t n, size_t *bytes)
{
    if ((uint64_t)n >= UINT32_MAX)
        return ARENA_EOVERFLOW;
    if (n > (SIZE_MAX - 4 - 15) / BYTES_PER_TENSOR)
        return ARENA_EOVERFLOW;
    if (n == 0) {
        *bytes = 0;
        return ARENA_OK;
    }
    size_t b = n * BYTES_PER_TENSOR + 4;
    *bytes = (b + 15) & ~(size_t)15;
    return ARENA_OK;
}

void arena_greedy_radix(uint64_t *key, uint32_t *idx, uint64_t *ktmp, uint32_t *itmp, size_t m)
{
    uint32_t count[8][256];
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < m; i++) {
        uint64_t k = key[i];
        for (unsigned d = 0; d < 8; d++)
            count[d][(k >> (8 * d)) & 255u]++;
    }
    uint64_t *ks = key, *kd = ktmp;
    uint32_t *is = idx, *id = itmp;
    for (unsigned d = 0; d < 8; d++) {
        uint32_t *c = count[d];
        int trivial = 0;
        for (unsigned b = 0; b < 256; b++)
            if (c[b] == m) {
                trivial = 1;
                break;
            }
        if (trivial || m == 0)
            continue;
        uint32_t sum = 0;
        for (unsigned b = 0; b < 256; b++) {
            uint32_t here = c[b];
            c[b] = sum;
            sum += here;
        }
        for (size_t i = 0; i < m; i++) {
            uint32_t at = c[(ks[i] >> (8 * d)) & 255u]++;
            kd[at] = ks[i];
            id[at] = is[i];
        }
        uint64_t *kt = ks;
        ks = kd;
        kd = kt;
        uint32_t *it = is;
        is = id;
        id = it;
    }
    if (ks != key) {
        memcpy(key, ks, m * sizeof *key);
        memcpy(idx, is, m * sizeof *idx);
    }
}

/* By offset only: the walk gives the same gaps whatever the order of equal
 * offsets (only the highest end among them counts). */
static int span_less(const struct arena_greedy_span *a, const struct arena_greedy_span *b)
{
    return a->off < b->off;
}

#define RUN 16u
#define RADIX_FROM 32u

/* LSD radix on off, 8-bit digits, only as many passes as the largest off
 * has bytes: faster than merging from a few dozen spans on (measured), and
 * several times faster in the hundreds. */
static void radix_spans(struct arena_greedy_span *a, struct arena_greedy_span *tmp, size_t m)
{
    uint64_t top = 0;
    for (size_t i = 0; i < m; i++)
        top |= a[i].off;
    unsigned passes = 0;
    while (passes < 8 && (top >> (8 * passes)) != 0)
        passes++;
    uint32_t count[8][256];
    memset(count, 0, passes * sizeof count[0]);
    for (size_t i = 0; i < m; i++)
        for (unsigned d = 0; d < passes; d++)
            count[d][(a[i].off >> (8 * d)) & 255u]++;
    struct arena_greedy_span *src = a, *dst = tmp;
    for (unsigned d = 0; d < passes; d++) {
        uint32_t sum = 0;
        for (unsigned b = 0; b < 256; b++) {
            uint32_t here = count[d][b];
            count[d][b] = sum;
            sum += here;
        }
        for (size_t i = 0; i < m; i++)
            dst[count[d][(src[i].off >> (8 * d)) & 255u]++] = src[i];
        struct arena_greedy_span *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, m * sizeof *a);
}

void arena_greedy_sort_spans(struct arena_greedy_span *a, struct arena_greedy_span *tmp, size_t m)
{
    if (m >= RADIX_FROM) {
        radix_spans(a, tmp, m);
        return;
    }
    for (size_t lo = 0; lo < m; lo += RUN) {
        size_t hi = m - lo < RUN ? m : lo + RUN;
        for (size_t i = lo + 1; i < hi; i++) {
            struct arena_greedy_span x = a[i];
            size_t j = i;
            while (j > lo && span_less(&x, &a[j - 1])) {
                a[j] = a[j - 1];
                j--;
            }
            a[j] = x;
        }
    }
    struct arena_greedy_span *src = a, *dst = tmp;
    for (size_t w = RUN; w < m; w = w <= m / 2 ? 2 * w : m) {
        for (size_t lo = 0; lo < m;) {
            size_t mid = m - lo <= w ? m : lo + w;
            size_t hi = m - mid <= w ? m : mid + w;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                dst[k++] = span_less(&src[j], &src[i]) ? src[j++] : src[i++];
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
            lo = hi;
        }
        struct arena_greedy_span *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, m * sizeof *a);
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

int arena_greedy_init(struct arena_greedy *g, const struct arena_problem *p, void *scratch,
                      size_t scratch_size)
{
    size_t n = p->n, need;
    int rc = arena_greedy_scratch(n, &need);
    if (rc != ARENA_OK)
        return rc;
    memset(g, 0, sizeof *g);
    if (n == 0)
        return ARENA_OK;
    if (scratch == NULL || scratch_size < need)
        return ARENA_ENOMEM;

    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (p->tensors[i].size > UINT64_MAX - total)
            return ARENA_EOVERFLOW;
        total += p->tensors[i].size;
    }

    unsigned char *at = scratch;
    g->n = n;
    g->rec = (struct arena_greedy_rec *)at;
    at += n * sizeof *g->rec;
    g->span = (struct arena_greedy_span *)at;
    at += n * sizeof *g->span;
    g->span_tmp = (struct arena_greedy_span *)at;
    at += n * sizeof *g->span_tmp;
    uint32_t *u32 = (uint32_t *)at;
    size_t most_long = n / 8; /* 7/8 of the lengths are <= reach */
    g->id = u32;
    g->order = u32 + n;
    g->cand = u32 + 2 * n;
    g->step = u32 + 3 * n;
    g->node_start = g->step + most_long;
    g->by_first = g->node_start + most_long + 1;
    g->by_last = g->by_first + most_long;
    g->skip = g->by_last + most_long;

    /* Build buffers live in span/span_tmp (32n bytes) until the first query. */
    uint64_t *key = (uint64_t *)(void *)g->span;
    uint64_t *ktmp = key + n;
    uint32_t *idx = (uint32_t *)(void *)(ktmp + n);
    uint32_t *itmp = idx + n;
    uint32_t *cursor = itmp + n;

    /* Ranks: ids sorted by first, ties by id (radix is stable). */
    for (size_t i = 0; i < n; i++) {
        key[i] = p->tensors[i].first;
        idx[i] = (uint32_t)i;
    }
    arena_greedy_radix(key, idx, ktmp, itmp, n);
    memcpy(g->id, idx, n * sizeof *idx);
    uint32_t hist[33] = {0};
    for (size_t r = 0; r < n; r++) {
        const struct arena_tensor *t = &p->tensors[g->id[r]];
        if (t->first > t->last)
            return ARENA_EINVAL; /* arena_problem_check lets none through */
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

    /* The tree over the long tensors; cand holds each one's node until the
     * first query, idx the long ranks. */
    size_t steps = 0, nlong = 0;
    for (size_t r = 0; r < n; r++) {
        if ((uint64_t)(g->rec[r].last - g->rec[r].first) <= g->reach)
            continue;
        idx[nlong++] = (uint32_t)r;
        if (steps == 0 || g->step[steps - 1] != g->rec[r].first)
            g->step[steps++] = g->rec[r].first;
    }
    g->steps = steps;
    uint32_t *node = g->cand;
    memset(g->node_start, 0, (steps + 1) * sizeof *g->node_start);
    for (size_t i = 0; i < nlong; i++) {
        uint32_t r = idx[i];
        node[r] = node_of(g->step, steps, g->rec[r].first, g->rec[r].last);
        g->node_start[node[r] + 1]++;
    }
    for (size_t u = 0; u < steps; u++)
        g->node_start[u + 1] += g->node_start[u];

    memcpy(cursor, g->node_start, steps * sizeof *cursor);
    for (size_t i = 0; i < nlong; i++)
        g->by_first[cursor[node[idx[i]]]++] = idx[i];

    for (size_t i = 0; i < nlong; i++)
        key[i] = ~(uint64_t)g->rec[idx[i]].last;
    arena_greedy_radix(key, idx, ktmp, itmp, nlong);
    memcpy(cursor, g->node_start, steps * sizeof *cursor);
    for (size_t i = 0; i < nlong; i++)
        g->by_last[cursor[node[idx[i]]]++] = idx[i];

    /* skip[r]: 1 + the nearest rank left of r whose short last (0 for a long
     * tensor) exceeds r's, else 0; everything between is no higher. */
    uint32_t *stack = itmp;
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

    /* Greedy-by-size order: size descending, then rank, i.e. earlier first,
     * then lower id. */
    for (size_t r = 0; r < n; r++) {
        key[r] = ~g->rec[r].size;
        idx[r] = (uint32_t)r;
    }
    arena_greedy_radix(key, idx, ktmp, itmp, n);
    memcpy(g->order, idx, n * sizeof *idx);
    return ARENA_OK;
}

int arena_greedy_place(struct arena_greedy *g, uint32_t r, enum arena_greedy_fit fit)
{
    struct arena_greedy_rec *rec = g->rec;
    struct arena_greedy_rec *t = &rec[r];
    if (t->size == 0 || t->off != ARENA_GREEDY_UNPLACED)
        return ARENA_OK;

    size_t from = r;
    while (from > 0 && rec[from - 1].first == t->first)
        from--;
    uint32_t *cand = g->cand;
    size_t m = meet(g, t->first, t->last, from, 1, cand);

    struct arena_greedy_span *span = g->span;
    for (size_t i = 0; i < m; i++) {
        span[i].off = rec[cand[i]].off;
        span[i].end = rec[cand[i]].off + rec[cand[i]].size; /* checked when placed */
    }
    arena_greedy_sort_spans(span, g->span_tmp, m);

    /* The gap walk. */
    uint64_t size = t->size, top = 0, best = 0, best_gap = UINT64_MAX;
    int found = 0;
    for (size_t i = 0; i < m; i++) {
        if (span[i].off > top) {
            uint64_t gap = span[i].off - top;
            if (gap >= size && gap < best_gap) {
                best = top;
                best_gap = gap;
                found = 1;
                if (fit == ARENA_GREEDY_FIRST_FIT || gap == size)
                    break;
            }
        }
        if (span[i].end > top)
            top = span[i].end;
    }
    uint64_t off = found ? best : top;
    if (off > UINT64_MAX - 1 - size) /* UINT64_MAX is the unplaced mark */
        return ARENA_EOVERFLOW;
    t->off = off;
    if (off + size > g->arena)
        g->arena = off + size;
    return ARENA_OK;
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
