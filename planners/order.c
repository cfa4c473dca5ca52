/* order.c — stable LSD radix sort of tensor ids by one field (see order.h). */
#include <string.h>

#include "planners/order.h"

static uint64_t key_of(const struct arena_tensor *t, enum arena_order_key key)
{
    switch (key) {
    case ARENA_ORDER_FIRST: return t->first;
    case ARENA_ORDER_LAST: return t->last;
    case ARENA_ORDER_SIZE_DESC: return ~t->size; /* ascending ~size = descending size */
    }
    return 0;
}

void arena_order_identity(uint32_t *idx, size_t n)
{
    for (size_t i = 0; i < n; i++)
        idx[i] = (uint32_t)i;
}

void arena_order_sort(uint32_t *idx, uint32_t *tmp, size_t n, const struct arena_tensor *t,
                      enum arena_order_key key)
{
    enum { DIGITS = 256, MAXBYTES = 8 };
    size_t count[MAXBYTES][DIGITS];
    unsigned bytes = key == ARENA_ORDER_SIZE_DESC ? 8u : 4u;
    if (n < 2)
        return;
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; i++) {
        uint64_t k = key_of(&t[idx[i]], key);
        for (unsigned b = 0; b < bytes; b++)
            count[b][(k >> (8 * b)) & 0xff]++;
    }
    uint32_t *src = idx, *dst = tmp;
    uint64_t k0 = key_of(&t[idx[0]], key);
    for (unsigned b = 0; b < bytes; b++) {
        size_t *c = count[b];
        if (c[(k0 >> (8 * b)) & 0xff] == n)
            continue; /* every key has this byte: the pass would not move anything */
        size_t sum = 0;
        for (unsigned d = 0; d < DIGITS; d++) {
            size_t here = c[d];
            c[d] = sum;
            sum += here;
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t id = src[i];
            dst[c[(key_of(&t[id], key) >> (8 * b)) & 0xff]++] = id;
        }
        uint32_t *swap = src;
        src = dst;
        dst = swap;
    }
    if (src != idx)
        memcpy(idx, src, n * sizeof *idx);
}
