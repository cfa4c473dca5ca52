/* mobilenetv2.c — MobileNetV2 (Sandler et al. 2018, Table 2) as an
 * inference graph, NHWC with batch 1.
 *
 * Stem conv 3x3 stride 2 to 32 channels; 17 bottleneck blocks from the rows
 * (t, c, n, s) = (1,16,1,1) (6,24,2,2) (6,32,3,2) (6,64,4,2) (6,96,3,1)
 * (6,160,3,2) (6,320,1,1): expand 1x1 to t x the input channels (no expand
 * when t = 1), depthwise 3x3 with stride s on the first repeat of a row,
 * linear project 1x1 to c, and an add with the block input when the stride
 * is 1 and the channels match; then conv 1x1 to 1280, average pool,
 * classifier, softmax. Padding is SAME, so a stride-2 layer gives
 * ceil(h / 2) rows.
 *
 * The width multiplier alpha scales channels with the reference code's
 * _make_divisible(v, 8): max(8, int(v + 4) // 8 * 8), plus 8 when that falls
 * below 0.9 v (done here in integers: alpha is a whole number of hundredths).
 * The stem is _make_divisible(32 alpha), expand layers are t x the (already
 * rounded) input channels, and the last conv stays 1280 for alpha <= 1 and is
 * _make_divisible(1280 alpha) above.
 *
 * fused=1: conv + batch-norm + ReLU6 is one op (a TFLite graph). fused=0:
 * conv, batch_norm and relu6 are separate ops each writing its own tensor
 * (a framework graph before fusion); projections have no ReLU6.
 *
 * Every op up to conv_last states its window (kernel, stride, SAME padding,
 * MACs per output element; graph.h), so the first stages can be patched
 * (graphs/patch.h). The pool, classifier and softmax state none. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "graphs/family.h"

static const unsigned alphas[] = {35, 50, 75, 100, 130, 140};
static const uint64_t resolutions[] = {96, 128, 160, 192, 224};

enum { K_ALPHA, K_RES, K_DTYPE, K_CLASSES, K_FUSED };

static const struct arena_key keys[] = {
    [K_ALPHA] = {.name = "alpha", .kind = ARENA_KEY_REAL, .def = "1", .rmin = 0.35, .rmax = 1.4},
    [K_RES] = {.name = "res", .kind = ARENA_KEY_UINT, .def = "224", .min = 96, .max = 224},
    [K_DTYPE] = {.name = "dtype", .kind = ARENA_KEY_CHOICE, .def = "int8",
                 .choices = arena_dtype_choices},
    [K_CLASSES] = {.name = "classes", .kind = ARENA_KEY_UINT, .def = "1000", .min = 1000, .max = 1001},
    [K_FUSED] = {.name = "fused", .kind = ARENA_KEY_UINT, .def = "1", .min = 0, .max = 1},
};

static const struct {
    unsigned t, c, n, s;
} rows[] = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2},
            {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};

/* _make_divisible(ch * pct / 100, 8) in exact integer arithmetic. */
static uint64_t make_divisible(uint64_t ch, unsigned pct)
{
    uint64_t v4 = (ch * pct + 400) / 100; /* int(v + 4) */
    uint64_t nv = v4 / 8 * 8;
    if (nv < 8)
        nv = 8;
    if (nv * 1000 < 9 * ch * pct) /* nv < 0.9 v */
        nv += 8;
    return nv;
}

struct net {
    struct arena_graph *g;
    enum arena_dtype dtype;
    int fused;
};

static uint32_t add_tensor(struct net *m, const char *name, uint64_t h, uint64_t w, uint64_t c)
{
    uint64_t dims[4] = {1, h, w, c};
    uint32_t id = 0;
    arena_graph_tensor_add(m->g, name, m->dtype, 4, dims, &id);
    return id;
}

static uint32_t single(struct net *m, const char *name, const char *kind, const uint32_t *in,
                       size_t n_in, uint64_t h, uint64_t w, uint64_t c)
{
    uint32_t out = add_tensor(m, name, h, w, c);
    arena_graph_op_add(m->g, name, kind, in, n_in, &out, 1);
    return out;
}

/* The window of a k x k layer with stride s from h_in to h_out rows (square
 * maps), padding SAME as TensorFlow splits it: (out-1) s + k - in rows in
 * all, the smaller half before. */
static struct arena_gop_window window(uint64_t h_in, uint64_t h_out, unsigned k, unsigned s,
                                      uint64_t macs_per_out)
{
    uint64_t need = (h_out - 1) * s + k;
    uint32_t pad = need > h_in ? (uint32_t)((need - h_in) / 2) : 0;
    struct arena_gop_window w = {.kh = k, .kw = k, .sh = s, .sw = s, .pad_top = pad,
                                 .pad_left = pad, .macs_per_out = macs_per_out};
    return w;
}

static const struct arena_gop_window pointwise = {.kh = 1, .kw = 1, .sh = 1, .sw = 1};

/* A conv layer, k x k with stride s from h_in rows and c_in channels to h
 * rows and c channels: one fused op, or conv, batch_norm (and relu6) ops.
 * Each op states its window; batch_norm and relu6 are pointwise. */
static uint32_t layer(struct net *m, const char *name, const char *kind, uint32_t in,
                      uint64_t h_in, uint64_t c_in, unsigned k, unsigned s, uint64_t h,
                      uint64_t c, int relu)
{
    int depthwise = strcmp(kind, "depthwise_conv2d") == 0;
    struct arena_gop_window w = window(h_in, h, k, s, (uint64_t)k * k * (depthwise ? 1 : c_in));
    if (m->fused) {
        uint32_t x = single(m, name, kind, &in, 1, h, h, c);
        arena_graph_op_window_set(m->g, &w);
        return x;
    }
    char sub[64];
    snprintf(sub, sizeof sub, "%s/%s", name, kind);
    uint32_t x = single(m, sub, kind, &in, 1, h, h, c);
    arena_graph_op_window_set(m->g, &w);
    snprintf(sub, sizeof sub, "%s/batch_norm", name);
    x = single(m, sub, "batch_norm", &x, 1, h, h, c);
    arena_graph_op_window_set(m->g, &pointwise);
    if (relu) {
        snprintf(sub, sizeof sub, "%s/relu6", name);
        x = single(m, sub, "relu6", &x, 1, h, h, c);
        arena_graph_op_window_set(m->g, &pointwise);
    }
    return x;
}

static int build(const struct arena_key_value *v, struct arena_graph *g, char *err, size_t errlen)
{
    unsigned pct = 0;
    for (size_t i = 0; i < sizeof alphas / sizeof alphas[0]; i++)
        if (fabs(v[K_ALPHA].r * 100.0 - alphas[i]) < 1e-6)
            pct = alphas[i];
    if (!pct) {
        snprintf(err, errlen,
                 "mobilenetv2: key 'alpha': %g is not one of 0.35, 0.5, 0.75, 1, 1.3, 1.4",
                 v[K_ALPHA].r);
        return ARENA_EINVAL;
    }
    uint64_t res = v[K_RES].u;
    int ok = 0;
    for (size_t i = 0; i < sizeof resolutions / sizeof resolutions[0]; i++)
        ok |= res == resolutions[i];
    if (!ok) {
        snprintf(err, errlen, "mobilenetv2: key 'res': %llu is not one of 96, 128, 160, 192, 224",
                 (unsigned long long)res);
        return ARENA_EINVAL;
    }
    struct net m = {.g = g, .dtype = (enum arena_dtype)v[K_DTYPE].choice, .fused = (int)v[K_FUSED].u};
    char name[64];

    uint32_t x = add_tensor(&m, "input", res, res, 3);
    if (g->status)
        return g->status;
    g->tensors[x].is_input = 1;
    uint64_t h = (res + 1) / 2;
    uint64_t c = make_divisible(32, pct);
    x = layer(&m, "conv1", "conv2d", x, res, 3, 3, 2, h, c, 1);

    unsigned block = 0;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uint64_t out_c = make_divisible(rows[r].c, pct);
        for (unsigned i = 0; i < rows[r].n; i++, block++) {
            unsigned s = i == 0 ? rows[r].s : 1;
            uint64_t h2 = (h + s - 1) / s;
            uint32_t y = x;
            uint64_t mid = c * rows[r].t;
            if (rows[r].t != 1) {
                snprintf(name, sizeof name, "block%u/expand", block);
                y = layer(&m, name, "conv2d", y, h, c, 1, 1, h, mid, 1);
            }
            snprintf(name, sizeof name, "block%u/depthwise", block);
            y = layer(&m, name, "depthwise_conv2d", y, h, mid, 3, s, h2, mid, 1);
            snprintf(name, sizeof name, "block%u/project", block);
            y = layer(&m, name, "conv2d", y, h2, mid, 1, 1, h2, out_c, 0);
            if (s == 1 && c == out_c) {
                uint32_t in[2] = {x, y};
                snprintf(name, sizeof name, "block%u/add", block);
                y = single(&m, name, "add", in, 2, h2, h2, out_c);
                arena_graph_op_window_set(g, &pointwise);
            }
            x = y;
            h = h2;
            c = out_c;
        }
    }
    uint64_t last = pct > 100 ? make_divisible(1280, pct) : 1280;
    x = layer(&m, "conv_last", "conv2d", x, h, c, 1, 1, h, last, 1);
    x = single(&m, "avgpool", "average_pool", &x, 1, 1, 1, last);
    uint64_t dims[2] = {1, v[K_CLASSES].u};
    uint32_t logits = 0, probs = 0;
    arena_graph_tensor_add(g, "logits", m.dtype, 2, dims, &logits);
    arena_graph_op_add(g, "logits", "fully_connected", &x, 1, &logits, 1);
    arena_graph_tensor_add(g, "softmax", m.dtype, 2, dims, &probs);
    arena_graph_op_add(g, "softmax", "softmax", &logits, 1, &probs, 1);
    if (g->status)
        return g->status;
    g->tensors[probs].is_output = 1;
    return ARENA_OK;
}

const struct arena_family arena_family_mobilenetv2 = {
    .info = {.name = "mobilenetv2",
             .summary = "MobileNetV2 (Sandler et al. 2018, Table 2), fused or unfused conv/BN/ReLU6",
             .params = "alpha=1 (width multiplier: 0.35, 0.5, 0.75, 1, 1.3, 1.4), "
                       "res=224 (input resolution: 96, 128, 160, 192, 224), "
                       "dtype=int8 (int8, int16, fp16, fp32), classes=1000 (1000 or 1001), "
                       "fused=1 (1: conv+BN+ReLU6 one op; 0: separate ops)"},
    .keys = keys,
    .n_keys = sizeof keys / sizeof keys[0],
    .build_graph = build,
};
