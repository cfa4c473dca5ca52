/* names.h — a string -> uint32 map for the graph layer (tensor and op names,
 * CSV ids). Open addressing over FNV-1a hashes; keys are copied into one
 * pool, so memory grows with the bytes of the distinct keys only. */
#ifndef ARENA_NAMES_H
#define ARENA_NAMES_H

#include <stddef.h>
#include <stdint.h>

struct arena_names {
    char *pool;
    size_t pool_len, pool_cap;
    uint64_t *slots; /* 0 = empty, else 1 + offset of the key in pool */
    uint32_t *vals;
    size_t cap, n;   /* cap a power of two or 0 */
};

void arena_names_init(struct arena_names *m);
void arena_names_free(struct arena_names *m);
/* Inserts key -> val. Returns 0 when inserted, 1 when the key was already
 * there (*old receives its value, nothing changes), ARENA_ENOMEM. */
int arena_names_put(struct arena_names *m, const char *key, size_t len, uint32_t val,
                    uint32_t *old);
/* 1 and *val when found, 0 when not. */
int arena_names_get(const struct arena_names *m, const char *key, size_t len, uint32_t *val);

uint64_t arena_fnv1a(uint64_t h, const void *data, size_t len);
#define ARENA_FNV_OFFSET 0xcbf29ce484222325ull

#endif
