/* mobilenetv1.c — MobileNetV1 (Howard et al. 2017, Table 1), the MLPerf
 * Tiny visual-wake-words network at alpha = 0.25 and 96x96, as TensorFlow
 * Lite's converter lays out its reference int8 model (vww_96_int8.tflite of
 * mlcommons/tiny):
 *
 *   input [1,res,res,3]
 *   conv_2d 3x3 stride 2 SAME -> 32a                  (BN, ReLU fused)
 *   13 x (depthwise_conv_2d 3x3 SAME, stride below; conv_2d 1x1 -> c a)
 *       c = 64 128 128 256 256 512 512 512 512 512 512 1024 1024
 *       s =  1   2   1   2   1   2   1   1   1   1   1    2    1
 *   average_pool_2d over the map -> [1,1,1,1024a], reshape -> [1,1024a]
 *   fully_connected -> [1,classes], softmax
 *
 * Channels are int(c x alpha) as Keras's MobileNet computes them (alpha a
 * whole number of hundredths here). The reference is alpha 0.25, 96x96, 2
 * classes, int8 input and output: 31 ops, 32 planned tensors. */
#include "graphs/family.h"
#include "graphs/nnlayers.h"

#include <math.h>
#include <stdio.h>

enum { K_ALPHA, K_RES, K_CLASSES, K_DTYPE };

static const struct arena_key keys[] = {
    [K_ALPHA] = {.name = "alpha", .kind = ARENA_KEY_REAL, .def = "0.25", .rmin = 0.25, .rmax = 1},
    [K_RES] = {.name = "res", .kind = ARENA_KEY_UINT, .def = "96", .min = 32, .max = 224},
    [K_CLASSES] = {.name = "classes", .kind = ARENA_KEY_UINT, .def = "2", .min = 1, .max = 1001},
    [K_DTYPE] = {.name = "dtype", .kind = ARENA_KEY_CHOICE, .def = "int8",
                 .choices = arena_dtype_choices},
};

static const struct {
    unsigned c, s;
} rows[] = {{64, 1},  {128, 2}, {128, 1}, {256, 2}, {256, 1}, {512, 2},  {512, 1},
            {512, 1}, {512, 1}, {512, 1}, {512, 1}, {1024, 2}, {1024, 1}};

static int build(const struct arena_key_value *v, struct arena_graph *g, char *err, size_t errlen)
{
    static const unsigned alphas[] = {25, 50, 75, 100};
    unsigned pct = 0;
    for (size_t i = 0; i < sizeof alphas / sizeof alphas[0]; i++)
        if (fabs(v[K_ALPHA].r * 100.0 - alphas[i]) < 1e-6)
            pct = alphas[i];
    if (!pct) {
        snprintf(err, errlen, "mobilenetv1: key 'alpha': %g is not one of 0.25, 0.5, 0.75, 1",
                 v[K_ALPHA].r);
        return ARENA_EINVAL;
    }
    if (v[K_RES].u % 32) {
        snprintf(err, errlen, "mobilenetv1: key 'res': %llu is not a multiple of 32",
                 (unsigned long long)v[K_RES].u);
        return ARENA_EINVAL;
    }
    struct arena_nn m = {.g = g, .dtype = (enum arena_dtype)v[K_DTYPE].choice};
    char name[32];
    uint32_t x = arena_nn_input(&m, v[K_RES].u, v[K_RES].u, 3);
    x = arena_nn_conv(&m, "conv1", x, 3, 3, 2, ARENA_NN_SAME, 32u * pct / 100);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        snprintf(name, sizeof name, "block%zu/depthwise", i + 1);
        x = arena_nn_conv(&m, name, x, 3, 3, rows[i].s, ARENA_NN_SAME, 0);
        snprintf(name, sizeof name, "block%zu/pointwise", i + 1);
        x = arena_nn_conv(&m, name, x, 1, 1, 1, ARENA_NN_SAME, rows[i].c * pct / 100);
    }
    arena_nn_classifier(&m, x, v[K_CLASSES].u);
    return g->status;
}

const struct arena_family arena_family_mobilenetv1 = {
    .info = {.name = "mobilenetv1",
             .summary = "MLPerf Tiny visual wake words: MobileNetV1 (Howard et al. 2017), as its"
                        " reference .tflite",
             .params = "alpha=0.25 (width multiplier: 0.25, 0.5, 0.75, 1), res=96 (input"
                       " resolution, a multiple of 32 from 32 to 224), classes=2, dtype=int8"
                       " (int8, int16, fp16, fp32)"},
    .keys = keys,
    .n_keys = sizeof keys / sizeof keys[0],
    .build_graph = build,
};
