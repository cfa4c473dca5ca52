/* residual.c — a ResNet-like chain: every `skip` ops the chain is added to
 * the input of the block (a residual skip), so the block input stays live
 * across the whole block. The block's last op and the add write tensors of
 * the block input's size (the add needs equal shapes); the other tensors'
 * element counts are drawn uniformly from [min, max]. `ops` counts every op,
 * adds included; a trailing partial block has no add. Op kinds: conv2d for
 * the chain's ops, add for the adds (graphs/inplace.h). */
#include <stdio.h>

#include "graphs/family.h"
#include "graphs/rng.h"

enum { K_OPS, K_SKIP, K_MIN, K_MAX, K_DTYPE, K_SEED };

static const struct arena_key keys[] = {
    [K_OPS] = {.name = "ops", .kind = ARENA_KEY_UINT, .def = "16", .min = 1, .max = 10000000},
    [K_SKIP] = {.name = "skip", .kind = ARENA_KEY_UINT, .def = "2", .min = 1, .max = 1000000},
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
    uint64_t lo = v[K_MIN].u, hi = v[K_MAX].u, k = v[K_SKIP].u;
    struct arena_rng rng;
    arena_rng_seed(&rng, v[K_SEED].u);
    enum arena_dtype dt = (enum arena_dtype)v[K_DTYPE].choice;
    uint64_t block_dims[1] = {arena_rng_range(&rng, lo, hi)};
    uint32_t block_in = arena_gen_tensor(g, "t", 0, dt, 1, block_dims);
    if (g->status)
        return g->status;
    g->tensors[block_in].is_input = 1;
    uint32_t x = block_in;
    uint64_t in_block = 0;
    for (size_t i = 0; i < v[K_OPS].u; i++) {
        uint64_t dims[1];
        if (in_block == k) {
            uint32_t in[2] = {block_in, x};
            uint32_t y = arena_gen_tensor(g, "t", i + 1, dt, 1, block_dims);
            char name[32];
            snprintf(name, sizeof name, "add%zu", i);
            arena_graph_op_add(g, name, "add", in, 2, &y, 1);
            x = block_in = y;
            in_block = 0;
            continue;
        }
        dims[0] = in_block + 1 == k ? block_dims[0] : arena_rng_range(&rng, lo, hi);
        uint32_t y = arena_gen_tensor(g, "t", i + 1, dt, 1, dims);
        arena_gen_op(g, "op", i, "conv2d", &x, 1, y);
        x = y;
        in_block++;
    }
    if (g->status)
        return g->status;
    g->tensors[x].is_output = 1;
    return ARENA_OK;
}

const struct arena_family arena_family_residual = {
    .info = {.name = "residual",
             .summary = "ResNet-like chain with an add back to the block input every skip ops",
             .params = "ops=16 (ops, adds included), skip=2 (ops per residual block before its "
                       "add), min=1024 (fewest elements per tensor), max=65536 (most elements "
                       "per tensor), dtype=int8 (int8, int16, fp16, fp32), seed=1 (PRNG seed; "
                       "the caller's seed when absent)"},
    .keys = keys,
    .n_keys = sizeof keys / sizeof keys[0],
    .floors = (const struct arena_key_floor[]){{"max", "min"}, {NULL, NULL}},
    .build_graph = build,
};
