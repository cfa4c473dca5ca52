/* ds_tcn.c — the MLPerf Tiny streaming wake-word network (in mlcommons/tiny
 * since July 2025, commit 904de6f), a depthwise-separable temporal conv net
 * on 40 mel bins, as TensorFlow
 * Lite's converter lays out its reference int8 model (str_ww_ref_model.tflite
 * of mlcommons/tiny, the non-streaming graph over a window of 30 frames):
 *
 *   input [1,30,1,40]
 *   4 x (depthwise_conv_2d k x 1 VALID, conv_2d 1x1 -> c)   (BN, ReLU fused)
 *       k = 3 5 10 15, c = F F F 32: frames 30 -> 28 -> 24 -> 15 -> 1
 *   reshape -> [1,32], fully_connected -> 3, softmax
 *
 * The reference has F = 128, int8 input and output: 11 ops, 12 planned
 * tensors. */
#include "graphs/family.h"
#include "graphs/nnlayers.h"

#include <stdio.h>

enum { K_FILTERS, K_DTYPE };

static const struct arena_key keys[] = {
    [K_FILTERS] = {.name = "filters", .kind = ARENA_KEY_UINT, .def = "128", .min = 1, .max = 4096},
    [K_DTYPE] = {.name = "dtype", .kind = ARENA_KEY_CHOICE, .def = "int8",
                 .choices = arena_dtype_choices},
};

static int build(const struct arena_key_value *v, struct arena_graph *g, char *err, size_t errlen)
{
    (void)err; /* every value the key table lets through builds */
    (void)errlen;
    static const unsigned kernel[] = {3, 5, 10, 15};
    struct arena_nn m = {.g = g, .dtype = (enum arena_dtype)v[K_DTYPE].choice};
    char name[32];
    uint32_t x = arena_nn_input(&m, 30, 1, 40);
    for (unsigned b = 0; b < 4; b++) {
        snprintf(name, sizeof name, "block%u/depthwise", b + 1);
        x = arena_nn_conv(&m, name, x, kernel[b], 1, 1, ARENA_NN_VALID, 0);
        snprintf(name, sizeof name, "block%u/pointwise", b + 1);
        x = arena_nn_conv(&m, name, x, 1, 1, 1, ARENA_NN_VALID, b == 3 ? 32 : v[K_FILTERS].u);
    }
    x = arena_nn_flatten(&m, "flatten", x);
    x = arena_nn_dense(&m, "logits", x, 3);
    arena_nn_softmax(&m, "softmax", x);
    return g->status;
}

const struct arena_family arena_family_ds_tcn = {
    .info = {.name = "ds-tcn",
             .summary = "MLPerf Tiny streaming wake word: a depthwise-separable temporal conv"
                        " net over 30 frames, as its reference .tflite",
             .params = "filters=128 (channels of the first three blocks), dtype=int8 (int8,"
                       " int16, fp16, fp32)"},
    .keys = keys,
    .n_keys = sizeof keys / sizeof keys[0],
    .build_graph = build,
};
