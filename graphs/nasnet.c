/* nasnet.c — stacks of NAS cells: NASNet-A (Zoph et al., CVPR 2018),
 * AmoebaNet-A (Real et al., AAAI 2019), DARTS V2 (Liu et al., ICLR 2019),
 * or cells drawn at random from the same search space. These are the
 * branchy networks on which SERENITY (MLSys '20) and HMCOS (DAC '22)
 * schedule ops for a lower peak.
 *
 * The network is DARTS's CIFAR evaluation network, the frame in which all
 * three published cells are usually compared: a stem conv 3x3 to
 * 3 x `channels` at `res` x `res`, then `cells` cells; cells number
 * cells/3 and 2 cells/3 are reduction cells (stride 2 on the ops that read
 * the cell inputs, channels doubled), the others normal cells. Every cell
 * has two inputs, the outputs of the two cells before it (the stem stands
 * in for the missing ones), each first brought to the cell's C channels:
 * a 1x1 conv, or after a reduction cell, where the older input has twice
 * the resolution, a factorized reduction (two 1x1 convs of stride 2 with
 * C/2 channels each, concatenated). Then B blocks: block b reads two of the
 * states before it (the two inputs, blocks 0..b-1), applies one op to each
 * and adds the results into state b + 2 (add is the combiner of every
 * published cell; NASNet's space also offers concat, left out). The cell's output concatenates
 * the states of its concat list (for a drawn cell, NASNet's rule: every
 * block no block of the cell reads), n x C channels.
 *
 * Ops as a converter emits them, the ReLU before each op and every BN
 * folded into the convs: sep_conv_kxk = depthwise_conv_2d (stride s),
 * conv_2d 1x1, depthwise_conv_2d, conv_2d 1x1 (the op applied twice, as
 * in NASNet); dil_conv_kxk = depthwise_conv_2d (dilated, stride s),
 * conv_2d 1x1; conv_7x1_1x7 = conv_2d 1x7 (stride 1 x s), conv_2d 7x1
 * (stride s x 1); avg/max_pool_3x3 = average_pool_2d / max_pool_2d;
 * skip_connect = no op (the state itself), or with stride 2 a factorized
 * reduction. Every tensor of a block has C channels. The classifier head
 * (global pooling, one small fully connected layer) is left out; the last
 * cell's output is the graph output.
 *
 * cell=random draws, per seed, one normal and one reduction cell of
 * `blocks` blocks as NASNet's search space does (each input uniform among
 * the states before the block, each op uniform among DARTS's seven ops
 * that have weights or move data: sep_conv 3x3, 5x5, dil_conv 3x3, 5x5,
 * avg and max pool 3x3, skip_connect), as in NASNet's and DARTS's
 * random-search baselines.
 *
 * Execution order: the definition order a tracer records (DARTS's
 * Cell.forward): the two preprocessing ops, then block by block the first
 * op's chain, the second op's chain, the add; then the concat. */
#include <stdio.h>
#include <string.h>

#include "graphs/family.h"
#include "graphs/rng.h"

enum { K_CELL, K_BLOCKS, K_CELLS, K_CHANNELS, K_RES, K_DTYPE, K_SEED };

enum { CELL_RANDOM, CELL_NASNET, CELL_AMOEBA, CELL_DARTS };
static const char *const cell_names[] = {"random", "nasnet-a", "amoeba-a", "darts-v2", NULL};

#define MAX_BLOCKS 8

static const struct arena_key keys[] = {
    [K_CELL] = {.name = "cell", .kind = ARENA_KEY_CHOICE, .def = "random", .choices = cell_names},
    [K_BLOCKS] = {.name = "blocks", .kind = ARENA_KEY_UINT, .def = "5", .min = 1,
                  .max = MAX_BLOCKS},
    [K_CELLS] = {.name = "cells", .kind = ARENA_KEY_UINT, .def = "20", .min = 1, .max = 64},
    [K_CHANNELS] = {.name = "channels", .kind = ARENA_KEY_UINT, .def = "36", .min = 2,
                    .max = 1u << 16},
    [K_RES] = {.name = "res", .kind = ARENA_KEY_UINT, .def = "32", .min = 1, .max = 1u << 14},
    [K_DTYPE] = {.name = "dtype", .kind = ARENA_KEY_CHOICE, .def = "int8",
                 .choices = arena_dtype_choices},
    [K_SEED] = {.name = "seed", .kind = ARENA_KEY_UINT, .def = NULL, .min = 0, .max = UINT64_MAX},
};

enum op { SEP3, SEP5, SEP7, DIL3, DIL5, AVG3, MAX3, SKIP, C7x1 };

/* One cell: block b applies op[2b] to state in[2b] and op[2b+1] to state
 * in[2b+1]; states 0 and 1 are the cell inputs, state b + 2 is block b. */
struct cell {
    size_t blocks;
    unsigned char op[2 * MAX_BLOCKS], in[2 * MAX_BLOCKS];
    unsigned char concat[MAX_BLOCKS]; /* states concatenated into the output */
    size_t n_concat;
};

/* The published genotypes, as DARTS's genotypes.py lists them. */
static const struct cell published[3][2] = {
    [0] = {{5, {SEP5, SEP3, SEP5, SEP3, AVG3, SKIP, AVG3, AVG3, SEP3, SKIP},
            {1, 0, 0, 0, 1, 0, 0, 0, 1, 1}, {2, 3, 4, 5, 6}, 5},
           {5, {SEP5, SEP7, MAX3, SEP7, AVG3, SEP5, SKIP, AVG3, SEP3, MAX3},
            {1, 0, 1, 0, 1, 0, 3, 2, 2, 1}, {4, 5, 6}, 3}},
    [1] = {{5, {AVG3, MAX3, SEP3, SEP5, SEP3, AVG3, SEP3, SKIP, SKIP, AVG3},
            {0, 1, 0, 2, 0, 3, 1, 1, 0, 1}, {4, 5, 6}, 3},
           {5, {AVG3, SEP3, MAX3, SEP7, SEP7, AVG3, MAX3, MAX3, C7x1, SEP3},
            {0, 1, 0, 2, 0, 1, 0, 1, 0, 5}, {3, 4, 6}, 3}},
    [2] = {{4, {SEP3, SEP3, SEP3, SEP3, SEP3, SKIP, SKIP, DIL3}, {0, 1, 0, 1, 1, 0, 0, 2},
            {2, 3, 4, 5}, 4},
           {4, {MAX3, MAX3, SKIP, MAX3, MAX3, SKIP, SKIP, MAX3}, {0, 1, 2, 1, 0, 2, 2, 1},
            {2, 3, 4, 5}, 4}},
};

/* A cell of NASNet's search space with DARTS's seven ops, drawn uniformly. */
static void draw_cell(struct cell *c, size_t blocks, struct arena_rng *rng)
{
    static const unsigned char ops[] = {SEP3, SEP5, DIL3, DIL5, AVG3, MAX3, SKIP};
    unsigned char used[MAX_BLOCKS + 2] = {0};
    c->blocks = blocks;
    for (size_t i = 0; i < 2 * blocks; i++) {
        c->in[i] = (unsigned char)arena_rng_below(rng, i / 2 + 2);
        c->op[i] = ops[arena_rng_below(rng, sizeof ops)];
        used[c->in[i]] = 1;
    }
    c->n_concat = 0;
    for (size_t s = 2; s < blocks + 2; s++)
        if (!used[s])
            c->concat[c->n_concat++] = (unsigned char)s;
}

struct net {
    struct arena_graph *g;
    enum arena_dtype dt;
    char name[96];
};

/* One op of kind reading in[0..n) and writing an h x w x c tensor named
 * like the op (the printf-style name). */
static uint32_t emit(struct net *m, const char *kind, const uint32_t *in, size_t n, uint64_t h,
                     uint64_t w, uint64_t c)
{
    uint64_t dims[3] = {h, w, c};
    uint32_t out = 0;
    arena_graph_tensor_add(m->g, m->name, m->dt, 3, dims, &out);
    arena_graph_op_add(m->g, m->name, kind, in, n, &out, 1);
    return out;
}

static uint64_t half(uint64_t h)
{
    return h > 1 ? (h + 1) / 2 : 1;
}

/* DARTS's FactorizedReduce: two 1x1 convs of stride 2 (the second on the
 * input shifted by one pixel), c/2 and c - c/2 channels, concatenated. */
static uint32_t factorized(struct net *m, const char *at, uint32_t x, uint64_t h, uint64_t c)
{
    uint32_t part[2];
    snprintf(m->name, sizeof m->name, "%s/fr_conv1", at);
    part[0] = emit(m, "conv_2d", &x, 1, half(h), half(h), c / 2);
    snprintf(m->name, sizeof m->name, "%s/fr_conv2", at);
    part[1] = emit(m, "conv_2d", &x, 1, half(h), half(h), c - c / 2);
    snprintf(m->name, sizeof m->name, "%s/fr_concat", at);
    return emit(m, "concatenation", part, 2, half(h), half(h), c);
}

/* Applies op to x (h x h x c) with the stride; the result is c channels
 * at h or half(h). */
static uint32_t apply(struct net *m, const char *at, enum op op, uint32_t x, uint64_t h, uint64_t c,
                      int stride2)
{
    uint64_t ho = stride2 ? half(h) : h;
    switch (op) {
    case SEP3:
    case SEP5:
    case SEP7:
        for (int rep = 1; rep <= 2; rep++) {
            snprintf(m->name, sizeof m->name, "%s/sep%d_dw", at, rep);
            x = emit(m, "depthwise_conv_2d", &x, 1, ho, ho, c);
            snprintf(m->name, sizeof m->name, "%s/sep%d_pw", at, rep);
            x = emit(m, "conv_2d", &x, 1, ho, ho, c);
        }
        return x;
    case DIL3:
    case DIL5:
        snprintf(m->name, sizeof m->name, "%s/dil_dw", at);
        x = emit(m, "depthwise_conv_2d", &x, 1, ho, ho, c);
        snprintf(m->name, sizeof m->name, "%s/dil_pw", at);
        return emit(m, "conv_2d", &x, 1, ho, ho, c);
    case AVG3:
        snprintf(m->name, sizeof m->name, "%s/avg_pool", at);
        return emit(m, "average_pool_2d", &x, 1, ho, ho, c);
    case MAX3:
        snprintf(m->name, sizeof m->name, "%s/max_pool", at);
        return emit(m, "max_pool_2d", &x, 1, ho, ho, c);
    case C7x1:
        snprintf(m->name, sizeof m->name, "%s/conv1x7", at);
        x = emit(m, "conv_2d", &x, 1, h, ho, c);
        snprintf(m->name, sizeof m->name, "%s/conv7x1", at);
        return emit(m, "conv_2d", &x, 1, ho, ho, c);
    case SKIP:
        return stride2 ? factorized(m, at, x, h, c) : x;
    }
    return x;
}

struct state {
    uint32_t t;
    uint64_t h, c;
};

/* Cell i: inputs s0 (two cells back) and s1 (the cell before). */
static struct state cell(struct net *m, unsigned i, const struct cell *def, struct state s0,
                         struct state s1, uint64_t c, int reduction)
{
    struct state st[MAX_BLOCKS + 2];
    char at[48];
    snprintf(at, sizeof at, "c%u/pre0", i);
    if (s0.h != s1.h) {
        st[0].t = factorized(m, at, s0.t, s0.h, c);
    } else {
        snprintf(m->name, sizeof m->name, "%s", at);
        st[0].t = emit(m, "conv_2d", &s0.t, 1, s0.h, s0.h, c);
    }
    snprintf(m->name, sizeof m->name, "c%u/pre1", i);
    st[1].t = emit(m, "conv_2d", &s1.t, 1, s1.h, s1.h, c);
    st[0].h = st[1].h = s1.h;
    st[0].c = st[1].c = c;
    uint64_t ho = reduction ? half(s1.h) : s1.h;
    for (size_t b = 0; b < def->blocks; b++) {
        uint32_t y[2];
        for (size_t j = 0; j < 2; j++) {
            size_t k = 2 * b + j, from = def->in[k];
            snprintf(at, sizeof at, "c%u/b%zu/%c", i, b, j ? 'y' : 'x');
            y[j] = apply(m, at, (enum op)def->op[k], st[from].t, st[from].h, c,
                         reduction && from < 2);
        }
        snprintf(m->name, sizeof m->name, "c%u/b%zu/add", i, b);
        st[b + 2].t = emit(m, "add", y, 2, ho, ho, c);
        st[b + 2].h = ho;
        st[b + 2].c = c;
    }
    uint32_t parts[MAX_BLOCKS];
    for (size_t k = 0; k < def->n_concat; k++)
        parts[k] = st[def->concat[k]].t;
    snprintf(m->name, sizeof m->name, "c%u/concat", i);
    struct state out = {.h = ho, .c = def->n_concat * c};
    out.t = emit(m, "concatenation", parts, def->n_concat, ho, ho, out.c);
    return out;
}

static int build(const struct arena_key_value *v, struct arena_graph *g, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    struct cell drawn[2];
    const struct cell *def = drawn;
    if (v[K_CELL].choice == CELL_RANDOM) {
        struct arena_rng rng;
        arena_rng_seed(&rng, v[K_SEED].u);
        draw_cell(&drawn[0], v[K_BLOCKS].u, &rng);
        draw_cell(&drawn[1], v[K_BLOCKS].u, &rng);
    } else {
        def = published[v[K_CELL].choice - CELL_NASNET];
    }
    struct net m = {.g = g, .dt = (enum arena_dtype)v[K_DTYPE].choice};
    uint64_t res = v[K_RES].u, c = v[K_CHANNELS].u;
    uint64_t dims[3] = {res, res, 3};
    uint32_t x = 0;
    arena_graph_tensor_add(g, "input", m.dt, 3, dims, &x);
    if (!g->status)
        g->tensors[x].is_input = 1;
    snprintf(m.name, sizeof m.name, "stem");
    struct state s1 = {.h = res, .c = 3 * c};
    s1.t = emit(&m, "conv_2d", &x, 1, res, res, s1.c);
    struct state s0 = s1;
    unsigned cells = (unsigned)v[K_CELLS].u;
    for (unsigned i = 0; i < cells && !g->status; i++) {
        int reduction = i == cells / 3 || i == 2 * cells / 3;
        if (reduction)
            c *= 2;
        struct state out = cell(&m, i, &def[reduction], s0, s1, c, reduction);
        s0 = s1;
        s1 = out;
    }
    if (!g->status)
        g->tensors[s1.t].is_output = 1;
    return g->status;
}

const struct arena_family arena_family_nasnet = {
    .info = {.name = "nasnet",
             .summary = "stacks of NAS cells (NASNet-A, AmoebaNet-A, DARTS V2, or drawn from "
                        "their search space): two inputs, blocks of two ops, a concat",
             .params = "cell=random (random: a normal and a reduction cell drawn per seed from "
                       "NASNet's search space with DARTS's ops; nasnet-a, amoeba-a, darts-v2: "
                       "the published cells), blocks=5 (blocks per drawn cell; the published "
                       "cells have 5, 5, 4), cells=20 (cells cells/3 and 2 cells/3 reduce), "
                       "channels=36 (C of the first cells; the stem has 3 C), res=32 (input "
                       "height and width), dtype=int8 (int8, int16, fp16, fp32), seed=1 (PRNG "
                       "seed; the caller's seed when absent)"},
    .keys = keys,
    .n_keys = sizeof keys / sizeof keys[0],
    .build_graph = build,
};
