/* names.c — see names.h. */
#include "graphs/names.h"

#include <stdlib.h>
#include <string.h>

#include "planners/status.h"

uint64_t arena_fnv1a(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

void arena_names_init(struct arena_names *m)
{
    memset(m, 0, sizeof *m);
}

void arena_names_free(struct arena_names *m)
{
    free(m->pool);
    free(m->slots);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* The stored key may be shorter than len: compare byte by byte and stop at
 * its terminator, so no byte past it is ever read (a memcmp of len bytes
 * read past the end of the pool when a short and a long key shared a slot). */
static int key_eq(const struct arena_names *m, uint64_t slot, const char *key, size_t len)
{
    const char *k = m->pool + (slot - 1);
    for (size_t i = 0; i < len; i++)
        if (k[i] == '\0' || k[i] != key[i])
            return 0;
    return k[len] == '\0';
}

static size_t find_slot(const struct arena_names *m, const char *key, size_t len, int *found)
{
    size_t mask = m->cap - 1;
    size_t i = (size_t)arena_fnv1a(ARENA_FNV_OFFSET, key, len) & mask;
    while (m->slots[i] != 0) {
        if (key_eq(m, m->slots[i], key, len)) {
            *found = 1;
            return i;
        }
        i = (i + 1) & mask;
    }
    *found = 0;
    return i;
}

static int grow(struct arena_names *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 64;
    if (ncap > SIZE_MAX / sizeof(uint64_t))
        return ARENA_ENOMEM;
    uint64_t *slots = calloc(ncap, sizeof *slots);
    uint32_t *vals = calloc(ncap, sizeof *vals);
    if (!slots || !vals) {
        free(slots);
        free(vals);
        return ARENA_ENOMEM;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (m->slots[i] == 0)
            continue;
        const char *k = m->pool + (m->slots[i] - 1);
        size_t j = (size_t)arena_fnv1a(ARENA_FNV_OFFSET, k, strlen(k)) & (ncap - 1);
        while (slots[j] != 0)
            j = (j + 1) & (ncap - 1);
        slots[j] = m->slots[i];
        vals[j] = m->vals[i];
    }
    free(m->slots);
    free(m->vals);
    m->slots = slots;
    m->vals = vals;
    m->cap = ncap;
    return ARENA_OK;
}

int arena_names_put(struct arena_names *m, const char *key, size_t len, uint32_t val,
                    uint32_t *old)
{
    int found;
    if (m->cap == 0 || (m->n + 1) * 4 > m->cap * 3) {
        int rc = grow(m);
        if (rc)
            return rc;
    }
    size_t i = find_slot(m, key, len, &found);
    if (found) {
        if (old)
            *old = m->vals[i];
        return 1;
    }
    if (len + 1 > m->pool_cap - m->pool_len) {
        size_t ncap = m->pool_cap ? m->pool_cap : 256;
        while (len + 1 > ncap - m->pool_len) {
            if (ncap > SIZE_MAX / 2)
                return ARENA_ENOMEM;
            ncap *= 2;
        }
        char *p = realloc(m->pool, ncap);
        if (!p)
            return ARENA_ENOMEM;
        m->pool = p;
        m->pool_cap = ncap;
    }
    memcpy(m->pool + m->pool_len, key, len);
    m->pool[m->pool_len + len] = '\0';
    m->slots[i] = (uint64_t)m->pool_len + 1;
    m->vals[i] = val;
    m->pool_len += len + 1;
    m->n++;
    return 0;
}

int arena_names_get(const struct arena_names *m, const char *key, size_t len, uint32_t *val)
{
    if (m->cap == 0)
        return 0;
    int found;
    size_t i = find_slot(m, key, len, &found);
    if (found && val)
        *val = m->vals[i];
    return found;
}
