/* nnlayers.h — layers as TensorFlow Lite's converter emits them (one op
 * per fused conv + bias + activation, NHWC with batch 1), for the families
 * that rebuild a published .tflite model op by op (the MLPerf Tiny
 * networks). Each call adds one op writing one tensor named like the op,
 * reads its input's shape from the graph, works out the output shape and
 * states the op's window (graph.h), so a later transform (patch, kernel
 * scratch) sees the geometry. Failures latch in g->status (graph.h). */
#ifndef ARENA_NNLAYERS_H
#define ARENA_NNLAYERS_H

#include <stdint.h>

#include "graphs/graph.h"

enum arena_nn_pad {
    ARENA_NN_SAME,  /* out = ceil(in / s); TensorFlow's split, less before */
    ARENA_NN_VALID, /* out = (in - k) / s + 1; the caller keeps k <= in */
};

struct arena_nn {
    struct arena_graph *g;
    enum arena_dtype dtype;
};

/* The graph input [1, h, w, c], or [1, c] when h is 0. */
uint32_t arena_nn_input(struct arena_nn *m, uint64_t h, uint64_t w, uint64_t c);
/* "conv_2d" of kh x kw with stride s to c_out channels, or, with c_out 0,
 * "depthwise_conv_2d" (multiplier 1). */
uint32_t arena_nn_conv(struct arena_nn *m, const char *name, uint32_t in, unsigned kh, unsigned kw,
                       unsigned s, enum arena_nn_pad pad, uint64_t c_out);
/* "average_pool_2d" over the whole map: [1, 1, 1, c]. */
uint32_t arena_nn_global_pool(struct arena_nn *m, const char *name, uint32_t in);
/* "reshape" of a [1, 1, 1, c] map to [1, c]. */
uint32_t arena_nn_flatten(struct arena_nn *m, const char *name, uint32_t in);
/* "fully_connected" of a [1, n] tensor to [1, units]. */
uint32_t arena_nn_dense(struct arena_nn *m, const char *name, uint32_t in, uint64_t units);
/* "add" of two tensors of one shape (its output has a's shape). */
uint32_t arena_nn_add(struct arena_nn *m, const char *name, uint32_t a, uint32_t b);
/* "softmax" of the graph's last tensor, marked a graph output. */
uint32_t arena_nn_softmax(struct arena_nn *m, const char *name, uint32_t in);
/* The classifier head the converter lays out after a CNN's last map:
 * "avgpool" (global), "flatten", "logits" (classes units), "softmax". */
uint32_t arena_nn_classifier(struct arena_nn *m, uint32_t in, uint64_t classes);

#endif
