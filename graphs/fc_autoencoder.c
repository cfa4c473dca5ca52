/* fc_autoencoder.c — the fully connected autoencoder of DCASE 2020 task 2's
 * baseline, the MLPerf Tiny anomaly-detection network, as TensorFlow Lite's
 * converter lays out its reference int8 model (ad01_int8.tflite of
 * mlcommons/tiny):
 *
 *   input [1,640] (5 frames of 128 log-mel bins)
 *   4 x fully_connected -> width      (BN, ReLU fused)
 *   fully_connected -> bottleneck
 *   4 x fully_connected -> width
 *   fully_connected -> 640, the graph output (the reconstruction)
 *
 * The reference has width 128, bottleneck 8, int8 input and output: 10
 * ops, 11 planned tensors. */
#include "graphs/family.h"
#include "graphs/nnlayers.h"

#include <stdio.h>

enum { K_INPUT, K_WIDTH, K_BOTTLENECK, K_DTYPE };

static const struct arena_key keys[] = {
    [K_INPUT] = {.name = "input", .kind = ARENA_KEY_UINT, .def = "640", .min = 1, .max = 1 << 24},
    [K_WIDTH] = {.name = "width", .kind = ARENA_KEY_UINT, .def = "128", .min = 1, .max = 1 << 24},
    [K_BOTTLENECK] = {.name = "bottleneck", .kind = ARENA_KEY_UINT, .def = "8", .min = 1,
                      .max = 1 << 24},
    [K_DTYPE] = {.name = "dtype", .kind = ARENA_KEY_CHOICE, .def = "int8",
                 .choices = arena_dtype_choices},
};

static int build(const struct arena_key_value *v, struct arena_graph *g, char *err, size_t errlen)
{
    (void)err; /* every value the key table lets through builds */
    (void)errlen;
    struct arena_nn m = {.g = g, .dtype = (enum arena_dtype)v[K_DTYPE].choice};
    char name[32];
    uint32_t x = arena_nn_input(&m, 0, 0, v[K_INPUT].u);
    for (unsigned i = 1; i <= 10; i++) {
        uint64_t units = i == 5 ? v[K_BOTTLENECK].u : i == 10 ? v[K_INPUT].u : v[K_WIDTH].u;
        snprintf(name, sizeof name, "dense%u", i);
        x = arena_nn_dense(&m, name, x, units);
    }
    if (!g->status)
        g->tensors[x].is_output = 1;
    return g->status;
}

const struct arena_family arena_family_fc_autoencoder = {
    .info = {.name = "fc-autoencoder",
             .summary = "MLPerf Tiny anomaly detection: the DCASE 2020 fully connected"
                        " autoencoder, as its reference .tflite",
             .params = "input=640 (features in and out), width=128 (the 8 hidden layers),"
                       " bottleneck=8, dtype=int8 (int8, int16, fp16, fp32)"},
    .keys = keys,
    .n_keys = sizeof keys / sizeof keys[0],
    .build_graph = build,
};
