/* nnlayers.c — converter-shaped layers (nnlayers.h). */
#include "graphs/nnlayers.h"

static uint32_t tensor(struct arena_nn *m, const char *name, uint32_t rank, const uint64_t *dims)
{
    uint32_t id = 0;
    arena_graph_tensor_add(m->g, name, m->dtype, rank, dims, &id);
    return id;
}

/* One op reading in[0, n) and writing a new tensor of the given shape. */
static uint32_t op(struct arena_nn *m, const char *name, const char *kind, const uint32_t *in,
                   size_t n, uint32_t rank, const uint64_t *dims)
{
    uint32_t out = tensor(m, name, rank, dims);
    arena_graph_op_add(m->g, name, kind, in, n, &out, 1);
    return out;
}

/* The input's dims (rank 4 expected); zeros after a latched failure. */
static void dims_of(const struct arena_nn *m, uint32_t t, uint64_t d[4])
{
    for (int i = 0; i < 4; i++)
        d[i] = 0;
    if (m->g->status || t >= m->g->n_tensors)
        return;
    const struct arena_gtensor *x = &m->g->tensors[t];
    for (uint32_t i = 0; i < x->rank && i < 4; i++)
        d[i] = x->dims[i];
}

uint32_t arena_nn_input(struct arena_nn *m, uint64_t h, uint64_t w, uint64_t c)
{
    uint64_t d4[4] = {1, h, w, c}, d2[2] = {1, c};
    uint32_t x = h ? tensor(m, "input", 4, d4) : tensor(m, "input", 2, d2);
    if (!m->g->status)
        m->g->tensors[x].is_input = 1;
    return x;
}

/* Rows out of in rows for a k-row window at stride s, and the rows of
 * padding before them (SAME: (out-1) s + k - in in all, the smaller half
 * before, as TensorFlow splits it). */
static uint64_t out_rows(uint64_t in, unsigned k, unsigned s, enum arena_nn_pad pad,
                         uint32_t *before)
{
    *before = 0;
    if (pad == ARENA_NN_VALID)
        return in >= k ? (in - k) / s + 1 : 0;
    uint64_t out = (in + s - 1) / s;
    uint64_t need = (out - 1) * s + k;
    if (out && need > in)
        *before = (uint32_t)((need - in) / 2);
    return out;
}

uint32_t arena_nn_conv(struct arena_nn *m, const char *name, uint32_t in, unsigned kh, unsigned kw,
                       unsigned s, enum arena_nn_pad pad, uint64_t c_out)
{
    uint64_t d[4];
    dims_of(m, in, d);
    int depthwise = c_out == 0;
    uint64_t o[4] = {1, 0, 0, depthwise ? d[3] : c_out};
    struct arena_gop_window w = {.kh = kh, .kw = kw, .sh = s, .sw = s,
                                 .macs_per_out = (uint64_t)kh * kw * (depthwise ? 1 : d[3])};
    o[1] = out_rows(d[1], kh, s, pad, &w.pad_top);
    o[2] = out_rows(d[2], kw, s, pad, &w.pad_left);
    uint32_t y = op(m, name, depthwise ? "depthwise_conv_2d" : "conv_2d", &in, 1, 4, o);
    arena_graph_op_window_set(m->g, &w);
    return y;
}

uint32_t arena_nn_global_pool(struct arena_nn *m, const char *name, uint32_t in)
{
    uint64_t d[4];
    dims_of(m, in, d);
    uint64_t o[4] = {1, 1, 1, d[3]};
    uint32_t y = op(m, name, "average_pool_2d", &in, 1, 4, o);
    struct arena_gop_window w = {.kh = (uint32_t)d[1], .kw = (uint32_t)d[2], .sh = (uint32_t)d[1],
                                 .sw = (uint32_t)d[2], .macs_per_out = d[1] * d[2]};
    arena_graph_op_window_set(m->g, &w);
    return y;
}

uint32_t arena_nn_flatten(struct arena_nn *m, const char *name, uint32_t in)
{
    uint64_t d[4];
    dims_of(m, in, d);
    uint64_t o[2] = {1, d[3]};
    return op(m, name, "reshape", &in, 1, 2, o);
}

uint32_t arena_nn_dense(struct arena_nn *m, const char *name, uint32_t in, uint64_t units)
{
    uint64_t o[2] = {1, units};
    return op(m, name, "fully_connected", &in, 1, 2, o);
}

uint32_t arena_nn_add(struct arena_nn *m, const char *name, uint32_t a, uint32_t b)
{
    uint64_t d[4];
    dims_of(m, a, d);
    uint32_t in[2] = {a, b};
    uint32_t y = op(m, name, "add", in, 2, 4, d);
    static const struct arena_gop_window pointwise = {.kh = 1, .kw = 1, .sh = 1, .sw = 1};
    arena_graph_op_window_set(m->g, &pointwise);
    return y;
}

uint32_t arena_nn_softmax(struct arena_nn *m, const char *name, uint32_t in)
{
    uint32_t rank = 0;
    uint64_t d[ARENA_GRAPH_MAX_RANK] = {0};
    if (!m->g->status && in < m->g->n_tensors) {
        rank = m->g->tensors[in].rank;
        for (uint32_t i = 0; i < rank; i++)
            d[i] = m->g->tensors[in].dims[i];
    }
    uint32_t y = op(m, name, "softmax", &in, 1, rank, d);
    if (!m->g->status)
        m->g->tensors[y].is_output = 1;
    return y;
}

uint32_t arena_nn_classifier(struct arena_nn *m, uint32_t in, uint64_t classes)
{
    uint32_t x = arena_nn_global_pool(m, "avgpool", in);
    x = arena_nn_flatten(m, "flatten", x);
    x = arena_nn_dense(m, "logits", x, classes);
    return arena_nn_softmax(m, "softmax", x);
}
