/* order.c — the one radix sort, binary heap and floor search of planners/
 * (see order.h). */
#include "planners/order.h"

#include <string.h>

/* Below this many values insertion costs less than clearing and summing the
 * digit counters; the cut-off the greedy planners' own span sort used (radix
 * measured faster from a few dozen spans on). */
#define INSERTION_BELOW 32u

void arena_radix_take(struct arena_radix *r, struct arena_layout *l, size_t cap)
{
    r->key = arena_layout_take(l, cap, sizeof *r->key);
    r->ktmp = arena_layout_take(l, cap, sizeof *r->ktmp);
    r->vtmp = arena_layout_take(l, cap, sizeof *r->vtmp);
}

/* The key of the value at v: moved along in ks, or read from the tensor
 * whose id it is when ks is NULL. */
static inline uint64_t key_at(const uint64_t *ks, const uint32_t *vs, size_t i,
                       const struct arena_tensor *t, enum arena_order_key which)
{
    if (ks)
        return ks[i];
    const struct arena_tensor *x = &t[vs[i]];
    switch (which) {
    case ARENA_ORDER_FIRST: return x->first;
    case ARENA_ORDER_LAST: return x->last;
    case ARENA_ORDER_SIZE_DESC: return ~x->size; /* ascending ~size = descending size */
    }
    return 0;
}

/* The one radix sort. Sorts val[0..m) by key, stably; the keys are key[0..m),
 * moved along (ktmp holds m), or, when key is NULL, the field `which` of
 * t[val[i]], read where it is (less memory: only vtmp). Inlined into its two
 * callers, so each gets a copy specialised for its key source: no test of
 * the source per element. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void radix(uint64_t *key, uint64_t *ktmp, uint32_t *val, uint32_t *vtmp, size_t m,
                  const struct arena_tensor *t, enum arena_order_key which)
{
    if (m < INSERTION_BELOW) {
        for (size_t i = 1; i < m; i++) {
            uint64_t k = key_at(key, val, i, t, which);
            uint32_t v = val[i];
            size_t j = i;
            for (; j > 0 && key_at(key, val, j - 1, t, which) > k; j--) {
                if (key)
                    key[j] = key[j - 1];
                val[j] = val[j - 1];
            }
            if (key)
                key[j] = k;
            val[j] = v;
        }
        return;
    }
    /* Only the bytes in which some keys differ need a pass. */
    uint64_t k0 = key_at(key, val, 0, t, which), differ = 0;
    for (size_t i = 1; i < m; i++)
        differ |= key_at(key, val, i, t, which) ^ k0;
    unsigned digit[8], passes = 0;
    for (unsigned d = 0; d < 8; d++)
        if ((differ >> (8 * d)) & 255u)
            digit[passes++] = d;
    uint32_t count[8][256];
    memset(count, 0, passes * sizeof count[0]);
    for (size_t i = 0; i < m; i++) {
        uint64_t k = key_at(key, val, i, t, which);
        for (unsigned p = 0; p < passes; p++)
            count[p][(k >> (8 * digit[p])) & 255u]++;
    }
    uint64_t *ks = key, *kd = ktmp;
    uint32_t *vs = val, *vd = vtmp;
    for (unsigned p = 0; p < passes; p++) {
        uint32_t *c = count[p], sum = 0;
        unsigned shift = 8 * digit[p];
        for (unsigned b = 0; b < 256; b++) {
            uint32_t here = c[b];
            c[b] = sum;
            sum += here;
        }
        for (size_t i = 0; i < m; i++) {
            uint64_t k = key_at(ks, vs, i, t, which);
            uint32_t at = c[(k >> shift) & 255u]++;
            if (kd)
                kd[at] = k;
            vd[at] = vs[i];
        }
        uint64_t *kt = ks;
        ks = kd;
        kd = kt;
        uint32_t *vt = vs;
        vs = vd;
        vd = vt;
    }
    if (vs != val) {
        if (key)
            memcpy(key, ks, m * sizeof *key);
        memcpy(val, vs, m * sizeof *val);
    }
}

void arena_radix_sort(const struct arena_radix *r, uint32_t *val, size_t m)
{
    radix(r->key, r->ktmp, val, r->vtmp, m, NULL, ARENA_ORDER_FIRST);
}

void arena_order_identity(uint32_t *idx, size_t n)
{
    for (size_t i = 0; i < n; i++)
        idx[i] = (uint32_t)i;
}

void arena_order_sort(uint32_t *ids, uint32_t *tmp, size_t m, const struct arena_tensor *t,
                      enum arena_order_key which)
{
    radix(NULL, NULL, ids, tmp, m, t, which);
}

void arena_order_ids(uint32_t *ids, uint32_t *tmp, size_t n, const struct arena_tensor *t,
                     enum arena_order_key key)
{
    arena_order_identity(ids, n);
    arena_order_sort(ids, tmp, n, t, key);
}

void arena_heap_push(uint64_t *h, size_t *len, uint64_t x)
{
    size_t i = (*len)++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (h[up] <= x)
            break;
        h[i] = h[up];
        i = up;
    }
    h[i] = x;
}

uint64_t arena_heap_pop(uint64_t *h, size_t *len)
{
    uint64_t top = h[0], x = h[--*len];
    size_t n = *len, i = 0;
    if (n == 0)
        return top;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h[c + 1] < h[c])
            c++;
        if (h[c] >= x)
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
    return top;
}

size_t arena_floor_index(const uint64_t *v, size_t n, uint64_t x)
{
    size_t lo = 0, hi = n; /* answer in [lo, hi) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}
