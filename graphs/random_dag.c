/* random_dag.c — a layered random DAG. Ops sit in layers of `width`; op j of
 * layer L reads op j of layer L-1 (the graph input for layer 0), so every
 * op of a full layer is read, plus 0..fanin-1 extra inputs, each from a
 * uniformly chosen op of an older layer (a skip connection) with
 * probability `skip`, else from layer L-1. Tensor element counts are uniform
 * in [min, max]. Tensors no op reads are graph outputs. Execution order:
 * layer by layer. Op kinds: conv2d for an op of one input, concatenation for
 * one of several (neither runs in place: sizes are drawn, not derived). */
#include <stdio.h>
#include <stdlib.h>

#include "graphs/family.h"
#include "graphs/rng.h"

enum { K_OPS, K_WIDTH, K_FANIN, K_SKIP, K_MIN, K_MAX, K_DTYPE, K_SEED };

static const struct arena_key keys[] = {
    [K_OPS] = {.name = "ops", .kind = ARENA_KEY_UINT, .def = "64", .min = 1, .max = 10000000},
    [K_WIDTH] = {.name = "width", .kind = ARENA_KEY_UINT, .def = "4", .min = 1, .max = 1000000},
    [K_FANIN] = {.name = "fanin", .kind = ARENA_KEY_UINT, .def = "3", .min = 1, .max = 64},
    [K_SKIP] = {.name = "skip", .kind = ARENA_KEY_REAL, .def = "0.2", .rmin = 0, .rmax = 1},
    [K_MIN] = {.name = "min", .kind = ARENA_KEY_UINT, .def = "1024", .min = 1, .max = (uint64_t)1 << 40},
    [K_MAX] = {.name = "max", .kind = ARENA_KEY_UINT, .def = "65536", .min = 1, .max = (uint64_t)1 << 40},
    [K_DTYPE] = {.name = "dtype", .kind = ARENA_KEY_CHOICE, .def = "int8",
                 .choices = arena_dtype_choices},
    [K_SEED] = {.name = "seed", .kind = ARENA_KEY_UINT, .def = NULL, .min = 0, .max = UINT64_MAX},
};

static int build(const struct arena_key_value *v, struct arena_graph *g, char *err, size_t errlen)
{
    uint64_t n = v[K_OPS].u, width = v[K_WIDTH].u, fanin = v[K_FANIN].u;
    struct arena_rng rng;
    arena_rng_seed(&rng, v[K_SEED].u);
    enum arena_dtype dt = (enum arena_dtype)v[K_DTYPE].choice;
    unsigned char *read = calloc(n + 1, 1);
    uint32_t in[64];
    if (!read) {
        snprintf(err, errlen, "random-dag: out of memory");
        return ARENA_ENOMEM;
    }
    /* tensor 0 is the graph input, tensor i + 1 the output of op i */
    uint64_t dims[1] = {arena_rng_range(&rng, v[K_MIN].u, v[K_MAX].u)};
    arena_gen_tensor(g, "t", 0, dt, 1, dims);
    for (uint64_t i = 0; i < n && !g->status; i++) {
        uint64_t layer = i / width, j = i % width;
        size_t n_in = 0;
        in[n_in++] = layer == 0 ? 0 : (uint32_t)((layer - 1) * width + j + 1);
        uint64_t extra = layer == 0 ? 0 : arena_rng_below(&rng, fanin);
        for (uint64_t e = 0; e < extra; e++) {
            uint64_t src;
            if (layer >= 2 && arena_rng_unit(&rng) < v[K_SKIP].r)
                src = arena_rng_below(&rng, (layer - 1) * width);
            else
                src = (layer - 1) * width + arena_rng_below(&rng, width);
            in[n_in++] = (uint32_t)(src + 1);
        }
        for (size_t k = 0; k < n_in; k++)
            read[in[k]] = 1;
        dims[0] = arena_rng_range(&rng, v[K_MIN].u, v[K_MAX].u);
        uint32_t y = arena_gen_tensor(g, "t", i + 1, dt, 1, dims);
        char name[32];
        snprintf(name, sizeof name, "op%llu", (unsigned long long)i);
        arena_graph_op_add(g, name, n_in == 1 ? "conv2d" : "concatenation", in, n_in, &y, 1);
    }
    if (!g->status) {
        g->tensors[0].is_input = 1;
        for (uint64_t t = 1; t <= n; t++)
            if (!read[t])
                g->tensors[t].is_output = 1;
    }
    free(read);
    return g->status;
}

const struct arena_family arena_family_random_dag = {
    .info = {.name = "random-dag",
             .summary = "layered random DAG with random fan-in and skip connections",
             .params = "ops=64 (ops), width=4 (ops per layer), fanin=3 (most inputs per op), "
                       "skip=0.2 (probability an extra input comes from an older layer), "
                       "min=1024 (fewest elements per tensor), max=65536 (most elements per "
                       "tensor), dtype=int8 (int8, int16, fp16, fp32), seed=1 (PRNG seed; the "
                       "caller's seed when absent)"},
    .keys = keys,
    .n_keys = sizeof keys / sizeof keys[0],
    .floors = (const struct arena_key_floor[]){{"max", "min"}, {NULL, NULL}},
    .build_graph = build,
};
