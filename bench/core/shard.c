/* shard.c — deterministic parts of a sweep (bench/core/shard.h). A hash alone
 * (job i to part hash % N, as Slurm users often do by task id) is machine
 * independent but leaves parts uneven for small sweeps; dealing the jobs in
 * hash order keeps the hash's independence from input order and makes the
 * parts even. */
#include "bench/core/shard.h"

#include <stdlib.h>
#include <string.h>

#include "planners/status.h"

uint64_t arena_shard_hash(const char *spec, const char *planner)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (const char *c = spec;; c++) {
        h ^= (unsigned char)*c; /* the NUL too: ("ab","c") differs from ("a","bc") */
        h *= 0x100000001b3ull;
        if (!*c) break;
    }
    for (const char *c = planner; *c; c++) {
        h ^= (unsigned char)*c;
        h *= 0x100000001b3ull;
    }
    return h;
}

struct key {
    uint64_t hash;
    const char *spec, *planner;
    size_t index;
};

static int by_key(const void *a, const void *b)
{
    const struct key *x = a, *y = b;
    if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
    int c = strcmp(x->spec, y->spec);
    return c ? c : strcmp(x->planner, y->planner);
}

int arena_shard_assign(const char *const *spec, const char *const *planner, size_t n,
                       unsigned n_parts, unsigned *part)
{
    struct key *k = malloc((n ? n : 1) * sizeof *k);
    if (!k) return ARENA_ENOMEM;
    for (size_t i = 0; i < n; i++)
        k[i] = (struct key){arena_shard_hash(spec[i], planner[i]), spec[i], planner[i], i};
    qsort(k, n, sizeof *k, by_key);
    for (size_t r = 0; r < n; r++) part[k[r].index] = (unsigned)(r % n_parts) + 1;
    free(k);
    return ARENA_OK;
}
