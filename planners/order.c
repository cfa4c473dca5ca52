/* order.c — the one radix sort, binary heap and floor search of planners/
 * (see order.h). */
#include "planners/order.h"

#include <string.h>

/* Below this many pairs insertion beats the passes' counter setup (measured
 * on the greedy planners' conflict lists, which are mostly short). */
#define INSERTION_BELOW 32u

void arena_radix_take(struct arena_radix *r, struct arena_layout *l, size_t cap)
{
    r->key = arena_layout_take(l, cap, sizeof *r->key);
    r->ktmp = arena_layout_take(l, cap, sizeof *r->ktmp);
    r->vtmp = arena_layout_take(l, cap, sizeof *r->vtmp);
}

static void insertion(uint64_t *key, uint32_t *val, size_t m)
{
    for (size_t i = 1; i < m; i++) {
        uint64_t k = key[i];
        uint32_t v = val[i];
        size_t j = i;
        for (; j > 0 && key[j - 1] > k; j--) {
            key[j] = key[j - 1];
            val[j] = val[j - 1];
        }
        key[j] = k;
        val[j] = v;
    }
}

void arena_radix_sort(const struct arena_radix *r, uint32_t *val, size_t m)
{
    uint64_t *key = r->key;
    if (m < INSERTION_BELOW) {
        insertion(key, val, m);
        return;
    }
    /* Only the bytes in which some keys differ need a pass. */
    uint64_t differ = 0;
    for (size_t i = 1; i < m; i++)
        differ |= key[i] ^ key[0];
    unsigned digit[8], passes = 0;
    for (unsigned d = 0; d < 8; d++)
        if ((differ >> (8 * d)) & 255u)
            digit[passes++] = d;
    uint32_t count[8][256];
    memset(count, 0, passes * sizeof count[0]);
    for (size_t i = 0; i < m; i++)
        for (unsigned p = 0; p < passes; p++)
            count[p][(key[i] >> (8 * digit[p])) & 255u]++;
    uint64_t *ks = key, *kd = r->ktmp;
    uint32_t *vs = val, *vd = r->vtmp;
    for (unsigned p = 0; p < passes; p++) {
        uint32_t *c = count[p], sum = 0;
        unsigned shift = 8 * digit[p];
        for (unsigned b = 0; b < 256; b++) {
            uint32_t here = c[b];
            c[b] = sum;
            sum += here;
        }
        for (size_t i = 0; i < m; i++) {
            uint32_t at = c[(ks[i] >> shift) & 255u]++;
            kd[at] = ks[i];
            vd[at] = vs[i];
        }
        uint64_t *kt = ks;
        ks = kd;
        kd = kt;
        uint32_t *vt = vs;
        vs = vd;
        vd = vt;
    }
    if (ks != key) {
        memcpy(key, ks, m * sizeof *key);
        memcpy(val, vs, m * sizeof *val);
    }
}

void arena_order_identity(uint32_t *idx, size_t n)
{
    for (size_t i = 0; i < n; i++)
        idx[i] = (uint32_t)i;
}

void arena_order_sort(const struct arena_radix *r, uint32_t *ids, size_t m,
                      const struct arena_tensor *t, enum arena_order_key key)
{
    for (size_t i = 0; i < m; i++) {
        const struct arena_tensor *x = &t[ids[i]];
        switch (key) {
        case ARENA_ORDER_FIRST: r->key[i] = x->first; break;
        case ARENA_ORDER_LAST: r->key[i] = x->last; break;
        case ARENA_ORDER_SIZE_DESC: r->key[i] = ~x->size; break; /* ascending ~size */
        }
    }
    arena_radix_sort(r, ids, m);
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
