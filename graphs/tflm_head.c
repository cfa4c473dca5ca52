/* tflm_head.c — TFLM's persistent records of a model (tflm_head.h). The
 * records are laid down as TFLM's persistent allocator lays them: from the
 * arena's end downwards, each at its own alignment, so the slack between
 * them is counted. */
#include "graphs/tflm_head.h"

#include <string.h>

/* The per-channel output multipliers and shifts a conv_2d or
 * depthwise_conv_2d kernel allocates in Prepare (two arrays of 4 B per
 * output channel, each at alignment 16 through the context): CMSIS-NN's
 * kernels for int8 and int16 inputs only, the reference kernels for every
 * type (kernels/conv_common.cc, depthwise_conv_common.cc). */
static uint64_t per_channel(const struct arena_graph *g, size_t k, enum arena_scratch_rule r)
{
    const struct arena_gop *o = &g->ops[k];
    char key[40];
    if (!o->n_out || !o->n_in || !arena_op_kind_key(o->kind, key, sizeof key) ||
        (strcmp(key, "conv2d") != 0 && strcmp(key, "depthwiseconv2d") != 0))
        return 0;
    const struct arena_gtensor *in = &g->tensors[g->refs[o->in_first]];
    const struct arena_gtensor *out = &g->tensors[g->refs[o->out_first]];
    int quantized = in->dtype == ARENA_DTYPE_INT8 || in->dtype == ARENA_DTYPE_INT16;
    if (r != ARENA_SCRATCH_REFERENCE && !quantized) return 0;
    return out->rank ? out->dims[out->rank - 1] : 0;
}

/* One record of the persistent allocator: bytes, at alignment align. */
static void take(uint64_t *used, uint64_t bytes, uint64_t align)
{
    *used = (*used + bytes + align - 1) / align * align;
}

/* What TFLM keeps per op of a kind: the converter's constant tensors
 * (filter and bias, a reshape's shape), the parsed options' struct, and
 * the kernel's OpData from its Init (CMSIS-NN's kernels / the reference
 * kernels: OpData with OpDataConv 60 / OpDataConv 56, 72 / 48 for the fully
 * connected, 36 / 32 for the pools, CMSISNNSoftmaxParams 64 /
 * SoftmaxParams 56, OpDataAdd 60; a reshape has none). */
static const struct {
    const char *key; /* arena_op_kind_key */
    unsigned constants, options, align, cmsis_data, ref_data;
} kinds[] = {
    {"conv2d", 2, 28, 4, 60, 56},
    {"depthwiseconv2d", 2, 28, 4, 60, 56},
    {"fullyconnected", 2, 5, 1, 72, 48},
    {"averagepool2d", 0, 40, 4, 36, 32},
    {"maxpool2d", 0, 40, 4, 36, 32},
    {"softmax", 0, 4, 4, 64, 56},
    {"reshape", 1, 36, 4, 0, 0},
    {"add", 0, 2, 1, 60, 60},
};

static int kind_row(const char *kind)
{
    char key[40];
    if (!kind || !arena_op_kind_key(kind, key, sizeof key))
        return -1;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(key, kinds[i].key) == 0)
            return (int)i;
    return -1;
}

/* An interpreter input's or output's records: a TfLiteTensor, and for a
 * quantized type its TfLiteAffineQuantization and one zero point. */
static void io_tensor(uint64_t *used, const struct arena_gtensor *t)
{
    take(used, 32, 4);
    if (t->dtype == ARENA_DTYPE_INT8 || t->dtype == ARENA_DTYPE_INT16 ||
        t->dtype == ARENA_DTYPE_UINT8) {
        take(used, 12, 4);
        take(used, 4 + 4, 4);
    }
}

static void io_side(uint64_t *used, const struct arena_graph *g, int outputs)
{
    uint64_t n = 0;
    for (size_t i = 0; i < g->n_tensors; i++)
        if (!g->tensors[i].is_scratch && (outputs ? g->tensors[i].is_output : g->tensors[i].is_input))
            n++;
    take(used, 4 * n, 16);
    for (size_t i = 0; i < g->n_tensors; i++)
        if (!g->tensors[i].is_scratch && (outputs ? g->tensors[i].is_output : g->tensors[i].is_input))
            io_tensor(used, &g->tensors[i]);
}

void arena_tflm_head_of(const struct arena_graph *g, enum arena_scratch_rule rule,
                        uint64_t requests, struct arena_tflm_head *out)
{
    memset(out, 0, sizeof *out);
    uint64_t acts = 0;
    for (size_t i = 0; i < g->n_tensors; i++)
        acts += !g->tensors[i].is_scratch;
    out->tensors = acts;
    out->ops = g->n_ops;
    out->requests = requests;
    for (size_t k = 0; k < g->n_ops; k++) {
        int row = kind_row(g->ops[k].kind);
        if (row >= 0) out->tensors += kinds[row].constants;
    }
    uint64_t used = 0;
    take(&used, 36, 4); /* SingleArenaBufferAllocator */
    take(&used, 44, 4); /* GreedyMemoryPlanner */
    take(&used, 36, 4); /* MicroAllocator */
    take(&used, 8, 4);  /* MicroBuiltinDataAllocator */
    take(&used, 8, 4);  /* SubgraphAllocations, one subgraph */
    take(&used, 12 * out->tensors, 4); /* TfLiteEvalTensor */
    take(&used, 32 * out->ops, 4);     /* NodeAndRegistration */
    for (size_t k = 0; k < g->n_ops; k++) {
        int row = kind_row(g->ops[k].kind);
        if (row >= 0) take(&used, kinds[row].options, kinds[row].align);
    }
    for (size_t k = 0; k < g->n_ops; k++) { /* each kernel's Init */
        int row = kind_row(g->ops[k].kind);
        unsigned data = row < 0 ? 0 : rule == ARENA_SCRATCH_REFERENCE ? kinds[row].ref_data
                                                                      : kinds[row].cmsis_data;
        if (data) take(&used, data, 16);
        out->kernel_bytes += data;
    }
    for (size_t k = 0; k < g->n_ops; k++) { /* each kernel's Prepare */
        uint64_t channels = per_channel(g, k, rule);
        if (!channels) continue;
        take(&used, 4 * channels, 16);
        take(&used, 4 * channels, 16);
        out->kernel_bytes += 8 * channels;
    }
    if (requests) take(&used, 4 * requests, 4); /* ScratchBufferHandle */
    out->at_planning = used;
    io_side(&used, g, 0);
    io_side(&used, g, 1);
    out->head = used;
    /* planning: the scratch requests at the planned section's start (room
     * for 12 more), then in the temporary section the subgraph offsets and
     * an AllocationInfo per tensor and request, then, from 16 on, the
     * planner's 40 B per planned buffer (the activations and the requests) */
    uint64_t plan = 0;
    take(&plan, 12 * (requests + 12), 4);
    take(&plan, 4, 4);
    take(&plan, 24 * (out->tensors + requests), 4);
    take(&plan, 0, 16);
    out->planning = plan + 40 * (acts + requests);
}

const uint64_t arena_sram_sizes[ARENA_SRAM_SIZES] = {128 << 10, 256 << 10, 320 << 10, 512 << 10,
                                                      1 << 20};
const char *const arena_sram_names[ARENA_SRAM_SIZES] = {"128 KiB", "256 KiB", "320 KiB", "512 KiB",
                                                        "1 MiB"};

uint64_t arena_tflm_whole(const struct arena_tflm_head *h, uint64_t middle)
{
    uint64_t at_plan = (h->at_planning + 15) / 16 * 16 + h->planning;
    uint64_t after = h->head + middle;
    return after > at_plan ? after : at_plan;
}
