/* unet.c — a U-Net (Ronneberger et al. 2015) shape: `levels` encoder stages
 * of `convs` convs then a 2x2 max-pool (channels double per level), a
 * bottleneck of `convs` convs, and decoder stages of an up-convolution, a
 * concat with the encoder stage's output (the long skip: it stays live from
 * the encoder to the decoder) and `convs` convs; a final 1x1 conv to 2
 * classes. Tensors are NHWC with batch 1. ops = levels*(2*convs+3) + convs + 1.
 * Deterministic: no seed. */
#include <stdio.h>

#include "graphs/family.h"

enum { K_LEVELS, K_CONVS, K_RES, K_CHANNELS, K_DTYPE };

static const struct arena_key keys[] = {
    [K_LEVELS] = {.name = "levels", .kind = ARENA_KEY_UINT, .def = "4", .min = 1, .max = 16},
    [K_CONVS] = {.name = "convs", .kind = ARENA_KEY_UINT, .def = "2", .min = 1, .max = 1000000},
    [K_RES] = {.name = "res", .kind = ARENA_KEY_UINT, .def = "128", .min = 2, .max = 65536},
    [K_CHANNELS] = {.name = "channels", .kind = ARENA_KEY_UINT, .def = "16", .min = 1, .max = 65536},
    [K_DTYPE] = {.name = "dtype", .kind = ARENA_KEY_CHOICE, .def = "int8",
                 .choices = arena_dtype_choices},
};

struct net {
    struct arena_graph *g;
    enum arena_dtype dt;
    size_t n;
};

static uint32_t op(struct net *m, const char *kind, const uint32_t *in, size_t n_in, uint64_t h,
                   uint64_t c)
{
    uint64_t dims[4] = {1, h, h, c};
    uint32_t y = arena_gen_tensor(m->g, "t", m->n + 1, m->dt, 4, dims);
    char name[48];
    snprintf(name, sizeof name, "%s%zu", kind, m->n);
    arena_graph_op_add(m->g, name, kind, in, n_in, &y, 1);
    m->n++;
    return y;
}

static int build(const struct arena_key_value *v, struct arena_graph *g, char *err, size_t errlen)
{
    uint64_t levels = v[K_LEVELS].u, convs = v[K_CONVS].u, res = v[K_RES].u;
    uint64_t ch = v[K_CHANNELS].u;
    if (res % ((uint64_t)1 << levels) != 0) {
        snprintf(err, errlen, "unet: res %llu is not divisible by 2^levels = %llu",
                 (unsigned long long)res, (unsigned long long)1 << levels);
        return ARENA_EINVAL;
    }
    struct net m = {.g = g, .dt = (enum arena_dtype)v[K_DTYPE].choice, .n = 0};
    uint64_t dims[4] = {1, res, res, 3};
    uint32_t x = arena_gen_tensor(g, "t", 0, m.dt, 4, dims);
    if (g->status)
        return g->status;
    g->tensors[x].is_input = 1;
    uint32_t skips[16];
    for (uint64_t l = 0; l < levels; l++) {
        for (uint64_t i = 0; i < convs; i++)
            x = op(&m, "conv", &x, 1, res >> l, ch << l);
        skips[l] = x;
        x = op(&m, "maxpool", &x, 1, res >> (l + 1), ch << l);
    }
    for (uint64_t i = 0; i < convs; i++)
        x = op(&m, "conv", &x, 1, res >> levels, ch << levels);
    for (uint64_t l = levels; l-- > 0;) {
        x = op(&m, "upconv", &x, 1, res >> l, ch << l);
        uint32_t in[2] = {x, skips[l]};
        x = op(&m, "concat", in, 2, res >> l, 2 * (ch << l));
        for (uint64_t i = 0; i < convs; i++)
            x = op(&m, "conv", &x, 1, res >> l, ch << l);
    }
    x = op(&m, "head", &x, 1, res, 2);
    if (g->status)
        return g->status;
    g->tensors[x].is_output = 1;
    return ARENA_OK;
}

const struct arena_family arena_family_unet = {
    .info = {.name = "unet",
             .summary = "U-Net encoder/decoder with long skips (concat)",
             .params = "levels=4 (down/up stages), convs=2 (convs per stage), res=128 (input "
                       "height and width, divisible by 2^levels), channels=16 (channels at "
                       "level 0, doubling per level), dtype=int8 (int8, int16, fp16, fp32)"},
    .keys = keys,
    .n_keys = sizeof keys / sizeof keys[0],
    .build_graph = build,
};
