/* transformer.c — a stack of transformer encoder blocks (Vaswani et al.
 * 2017), activations only. Per block, in execution order:
 *   q, k, v      = x W_q, x W_k, x W_v            [seq, width] each
 *   scores       = q k^T per head                 [heads, seq, seq]
 *   softmax      = softmax(scores)                [heads, seq, seq]
 *   attn         = softmax v                      [seq, width]
 *   attn_out     = attn W_o                       [seq, width]
 *   add1         = x + attn_out                   [seq, width]
 *   mlp_up       = gelu(add1 W_1)                 [seq, mlp * width]
 *   mlp_down     = mlp_up W_2                     [seq, width]
 *   add2         = add1 + mlp_down                [seq, width]  (block output)
 * Normalisation is folded into the adjacent ops. 11 ops per block. Op kinds
 * (graphs/inplace.h): the projections are fully_connected, scores and attn
 * batch_matmul, then softmax and add.
 * Deterministic: no seed. */
#include <stdio.h>

#include "graphs/family.h"

enum { K_SEQ, K_WIDTH, K_HEADS, K_BLOCKS, K_MLP, K_DTYPE };

static const struct arena_key keys[] = {
    [K_SEQ] = {.name = "seq", .kind = ARENA_KEY_UINT, .def = "128", .min = 1, .max = 1 << 20},
    [K_WIDTH] = {.name = "width", .kind = ARENA_KEY_UINT, .def = "256", .min = 1, .max = 1 << 20},
    [K_HEADS] = {.name = "heads", .kind = ARENA_KEY_UINT, .def = "4", .min = 1, .max = 4096},
    [K_BLOCKS] = {.name = "blocks", .kind = ARENA_KEY_UINT, .def = "2", .min = 1, .max = 1000000},
    [K_MLP] = {.name = "mlp", .kind = ARENA_KEY_UINT, .def = "4", .min = 1, .max = 64},
    [K_DTYPE] = {.name = "dtype", .kind = ARENA_KEY_CHOICE, .def = "int8",
                 .choices = arena_dtype_choices},
};

struct net {
    struct arena_graph *g;
    enum arena_dtype dt;
    uint64_t block;
};

static uint32_t op(struct net *m, const char *what, const char *kind, const uint32_t *in,
                   size_t n_in, uint32_t rank, const uint64_t *dims)
{
    char name[64];
    uint32_t y = 0;
    snprintf(name, sizeof name, "block%llu/%s", (unsigned long long)m->block, what);
    arena_graph_tensor_add(m->g, name, m->dt, rank, dims, &y);
    arena_graph_op_add(m->g, name, kind, in, n_in, &y, 1);
    return y;
}

static int build(const struct arena_key_value *v, struct arena_graph *g, char *err, size_t errlen)
{
    uint64_t seq = v[K_SEQ].u, width = v[K_WIDTH].u, heads = v[K_HEADS].u;
    if (width % heads != 0) {
        snprintf(err, errlen, "transformer: width %llu is not divisible by heads %llu",
                 (unsigned long long)width, (unsigned long long)heads);
        return ARENA_EINVAL;
    }
    struct net m = {.g = g, .dt = (enum arena_dtype)v[K_DTYPE].choice, .block = 0};
    uint64_t act[2] = {seq, width};
    uint64_t att[3] = {heads, seq, seq};
    uint64_t wide[2] = {seq, v[K_MLP].u * width};
    uint32_t x = 0;
    arena_graph_tensor_add(g, "embeddings", m.dt, 2, act, &x);
    if (g->status)
        return g->status;
    g->tensors[x].is_input = 1;
    for (; m.block < v[K_BLOCKS].u; m.block++) {
        uint32_t q = op(&m, "q", "fully_connected", &x, 1, 2, act);
        uint32_t k = op(&m, "k", "fully_connected", &x, 1, 2, act);
        uint32_t vv = op(&m, "v", "fully_connected", &x, 1, 2, act);
        uint32_t qk[2] = {q, k};
        uint32_t s = op(&m, "scores", "batch_matmul", qk, 2, 3, att);
        uint32_t p = op(&m, "softmax", "softmax", &s, 1, 3, att);
        uint32_t pv[2] = {p, vv};
        uint32_t a = op(&m, "attn", "batch_matmul", pv, 2, 2, act);
        uint32_t o = op(&m, "attn_out", "fully_connected", &a, 1, 2, act);
        uint32_t r1[2] = {x, o};
        uint32_t h = op(&m, "add1", "add", r1, 2, 2, act);
        uint32_t up = op(&m, "mlp_up", "fully_connected", &h, 1, 2, wide);
        uint32_t down = op(&m, "mlp_down", "fully_connected", &up, 1, 2, act);
        uint32_t r2[2] = {h, down};
        x = op(&m, "add2", "add", r2, 2, 2, act);
    }
    if (g->status)
        return g->status;
    g->tensors[x].is_output = 1;
    return ARENA_OK;
}

const struct arena_family arena_family_transformer = {
    .info = {.name = "transformer",
             .summary = "transformer encoder blocks: Q, K, V, scores, softmax, attention, MLP, adds",
             .params = "seq=128 (sequence length), width=256 (model width), heads=4 (attention "
                       "heads, divide width), blocks=2 (encoder blocks, 11 ops each), mlp=4 (MLP "
                       "width / model width), dtype=int8 (int8, int16, fp16, fp32)"},
    .keys = keys,
    .n_keys = sizeof keys / sizeof keys[0],
    .build_graph = build,
};
