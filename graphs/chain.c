/* chain.c — a plain chain: input -> op0 -> op1 -> ... -> output. Each op
 * writes one 1-D tensor whose element count is drawn uniformly from
 * [min, max] by the seeded PRNG. Two tensors are live at every step, so
 * ping-pong needs 2 slots and the lower bound is the largest adjacent pair. */
#include <stdio.h>

#include "graphs/family.h"
#include "graphs/rng.h"

enum { K_OPS, K_MIN, K_MAX, K_DTYPE, K_SEED };

static const struct arena_key keys[] = {
    [K_OPS] = {.name = "ops", .kind = ARENA_KEY_UINT, .def = "16", .min = 1, .max = 10000000},
    [K_MIN] = {.name = "min", .kind = ARENA_KEY_UINT, .def = "1024", .min = 1, .max = (uint64_t)1 << 40},
    [K_MAX] = {.name = "max", .kind = ARENA_KEY_UINT, .def = "65536", .min = 1, .max = (uint64_t)1 << 40},
    [K_DTYPE] = {.name = "dtype", .kind = ARENA_KEY_CHOICE, .def = "int8",
                 .choices = arena_dtype_choices},
    [K_SEED] = {.name = "seed", .kind = ARENA_KEY_UINT, .def = NULL, .min = 0, .max = UINT64_MAX},
};

static int build(const struct arena_key_value *v, struct arena_graph *g, char *err, size_t errlen)
{
    (void)err; /* every bad combination is refused by the key table */
    (void)errlen;
    struct arena_rng rng;
    arena_rng_seed(&rng, v[K_SEED].u);
    enum arena_dtype dt = (enum arena_dtype)v[K_DTYPE].choice;
    uint64_t dims[1] = {arena_rng_range(&rng, v[K_MIN].u, v[K_MAX].u)};
    uint32_t x = arena_gen_tensor(g, "t", 0, dt, 1, dims);
    if (g->status)
        return g->status;
    g->tensors[x].is_input = 1;
    for (size_t i = 0; i < v[K_OPS].u; i++) {
        dims[0] = arena_rng_range(&rng, v[K_MIN].u, v[K_MAX].u);
        uint32_t y = arena_gen_tensor(g, "t", i + 1, dt, 1, dims);
        arena_gen_op(g, "op", i, "layer", &x, 1, y);
        x = y;
    }
    if (g->status)
        return g->status;
    g->tensors[x].is_output = 1;
    return ARENA_OK;
}

const struct arena_family arena_family_chain = {
    .info = {.name = "chain",
             .summary = "a plain chain of ops, random tensor sizes",
             .params = "ops=16 (ops in the chain), min=1024 (fewest elements per tensor), "
                       "max=65536 (most elements per tensor), dtype=int8 (int8, int16, fp16, "
                       "fp32), seed=1 (PRNG seed; the caller's seed when absent)"},
    .keys = keys,
    .n_keys = sizeof keys / sizeof keys[0],
    .floors = (const struct arena_key_floor[]){{"max", "min"}, {NULL, NULL}},
    .build_graph = build,
};
