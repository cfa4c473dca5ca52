/* ds_cnn.c — DS-CNN keyword spotting (Zhang et al. 2017, "Hello Edge"), the
 * MLPerf Tiny keyword-spotting network, as TensorFlow Lite's converter lays
 * out its reference int8 model (kws_ref_model.tflite of mlcommons/tiny):
 *
 *   input [1,49,10,1] (49 frames of 10 MFCCs)
 *   conv_2d 10x4 stride 2 SAME -> [1,25,5,F]          (BN, ReLU fused)
 *   blocks x (depthwise_conv_2d 3x3 SAME, conv_2d 1x1 -> F)
 *   average_pool_2d over 25x5 -> [1,1,1,F], reshape -> [1,F]
 *   fully_connected -> [1,12], softmax
 *
 * The reference has F = 64, 4 blocks, 12 classes, int8 input and output
 * (no quantize/dequantize ops): 13 ops, 14 planned tensors. Hello Edge's
 * larger DS-CNNs widen F (172, 276) and add blocks. */
#include "graphs/family.h"
#include "graphs/nnlayers.h"

#include <stdio.h>

enum { K_FILTERS, K_BLOCKS, K_CLASSES, K_DTYPE };

static const struct arena_key keys[] = {
    [K_FILTERS] = {.name = "filters", .kind = ARENA_KEY_UINT, .def = "64", .min = 1, .max = 4096},
    [K_BLOCKS] = {.name = "blocks", .kind = ARENA_KEY_UINT, .def = "4", .min = 1, .max = 64},
    [K_CLASSES] = {.name = "classes", .kind = ARENA_KEY_UINT, .def = "12", .min = 1, .max = 1000},
    [K_DTYPE] = {.name = "dtype", .kind = ARENA_KEY_CHOICE, .def = "int8",
                 .choices = arena_dtype_choices},
};

static int build(const struct arena_key_value *v, struct arena_graph *g, char *err, size_t errlen)
{
    (void)err; /* every value the key table lets through builds */
    (void)errlen;
    struct arena_nn m = {.g = g, .dtype = (enum arena_dtype)v[K_DTYPE].choice};
    uint64_t f = v[K_FILTERS].u;
    char name[32];
    uint32_t x = arena_nn_input(&m, 49, 10, 1);
    x = arena_nn_conv(&m, "conv1", x, 10, 4, 2, ARENA_NN_SAME, f);
    for (uint64_t b = 1; b <= v[K_BLOCKS].u; b++) {
        snprintf(name, sizeof name, "block%llu/depthwise", (unsigned long long)b);
        x = arena_nn_conv(&m, name, x, 3, 3, 1, ARENA_NN_SAME, 0);
        snprintf(name, sizeof name, "block%llu/pointwise", (unsigned long long)b);
        x = arena_nn_conv(&m, name, x, 1, 1, 1, ARENA_NN_SAME, f);
    }
    arena_nn_classifier(&m, x, v[K_CLASSES].u);
    return g->status;
}

const struct arena_family arena_family_ds_cnn = {
    .info = {.name = "ds-cnn",
             .summary = "MLPerf Tiny keyword spotting: DS-CNN (Hello Edge) on 49x10 MFCCs, as its"
                        " reference .tflite",
             .params = "filters=64 (channels of every layer), blocks=4 (depthwise + pointwise"
                       " pairs), classes=12, dtype=int8 (int8, int16, fp16, fp32)"},
    .keys = keys,
    .n_keys = sizeof keys / sizeof keys[0],
    .build_graph = build,
};
