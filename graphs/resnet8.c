/* resnet8.c — ResNet-8 for CIFAR-10 (He et al. 2016's CIFAR ResNet cut to
 * three stacks of one block), the MLPerf Tiny image-classification network,
 * as TensorFlow Lite's converter lays out its reference int8 model
 * (pretrainedResnet_quant.tflite of mlcommons/tiny):
 *
 *   input [1,32,32,3]; conv_2d 3x3 SAME -> w             (BN, ReLU fused)
 *   stack 1: conv_2d 3x3 -> w, conv_2d 3x3 -> w, add(stack input, that)
 *   stacks 2 and 3 (channels doubled, map halved):
 *       conv_2d 3x3 stride 2, conv_2d 3x3, then the shortcut conv_2d 1x1
 *       stride 2 from the stack input, add(shortcut, main)
 *   average_pool_2d -> [1,1,1,4w], reshape, fully_connected -> classes,
 *   softmax
 *
 * The converter runs the shortcut after the main path, so the stack input
 * lives until the shortcut conv: the order is the reference file's. The
 * reference has w = 16, 10 classes, int8 input and output: 16 ops, 17
 * planned tensors. */
#include "graphs/family.h"
#include "graphs/nnlayers.h"

#include <stdio.h>

enum { K_WIDTH, K_RES, K_CLASSES, K_DTYPE };

static const struct arena_key keys[] = {
    [K_WIDTH] = {.name = "width", .kind = ARENA_KEY_UINT, .def = "16", .min = 1, .max = 1024},
    [K_RES] = {.name = "res", .kind = ARENA_KEY_UINT, .def = "32", .min = 4, .max = 1024},
    [K_CLASSES] = {.name = "classes", .kind = ARENA_KEY_UINT, .def = "10", .min = 1, .max = 1000},
    [K_DTYPE] = {.name = "dtype", .kind = ARENA_KEY_CHOICE, .def = "int8",
                 .choices = arena_dtype_choices},
};

static int build(const struct arena_key_value *v, struct arena_graph *g, char *err, size_t errlen)
{
    (void)err; /* every value the key table lets through builds */
    (void)errlen;
    struct arena_nn m = {.g = g, .dtype = (enum arena_dtype)v[K_DTYPE].choice};
    uint64_t w = v[K_WIDTH].u;
    char name[32];
    uint32_t x = arena_nn_input(&m, v[K_RES].u, v[K_RES].u, 3);
    x = arena_nn_conv(&m, "conv1", x, 3, 3, 1, ARENA_NN_SAME, w);
    for (unsigned s = 1; s <= 3; s++) {
        unsigned stride = s == 1 ? 1 : 2;
        uint64_t c = w << (s - 1);
        snprintf(name, sizeof name, "stack%u/conv1", s);
        uint32_t y = arena_nn_conv(&m, name, x, 3, 3, stride, ARENA_NN_SAME, c);
        snprintf(name, sizeof name, "stack%u/conv2", s);
        y = arena_nn_conv(&m, name, y, 3, 3, 1, ARENA_NN_SAME, c);
        uint32_t shortcut = x;
        if (s > 1) {
            snprintf(name, sizeof name, "stack%u/shortcut", s);
            shortcut = arena_nn_conv(&m, name, x, 1, 1, 2, ARENA_NN_SAME, c);
        }
        snprintf(name, sizeof name, "stack%u/add", s);
        x = arena_nn_add(&m, name, shortcut, y);
    }
    arena_nn_classifier(&m, x, v[K_CLASSES].u);
    return g->status;
}

const struct arena_family arena_family_resnet8 = {
    .info = {.name = "resnet8",
             .summary = "MLPerf Tiny image classification: ResNet-8 on CIFAR-10, as its"
                        " reference .tflite",
             .params = "width=16 (channels of the first stack; 2x, 4x after), res=32 (input"
                       " resolution), classes=10, dtype=int8 (int8, int16, fp16, fp32)"},
    .keys = keys,
    .n_keys = sizeof keys / sizeof keys[0],
    .build_graph = build,
};
