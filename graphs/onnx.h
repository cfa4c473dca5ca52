/* onnx.h — ONNX models (.onnx, PyTorch's export format) as planning problems.
 *
 * The file is untrusted. Its bytes first pass onnx_wire.h's walk (every tag,
 * varint and length inside its message; nesting bounded), which also drops
 * the weights' bytes (never needed here), then protobuf-c unpacks the rest with C code generated at build time from the onnx.proto that
 * Debian's libonnx-dev installs. A bad file is refused with one line naming
 * the file, where in the model the fault is, and what is wrong.
 *
 * What goes into the arena (as the tflite reader does it, tflite.h):
 *  - an initializer is a weight: it lives in the model, not in the arena;
 *  - a node is folded when it is `Constant`, `Shape` (its output depends on
 *    dims only, all known here) or when all its present inputs are
 *    initializers or folded values: its outputs are constants too. The node
 *    stays in the graph with no tensors, so step k is the k-th node stored;
 *  - every other value a node reads or writes, or that is a graph input or
 *    output, is planned; an empty input or output name (an optional one left
 *    out) is skipped.
 * Sizes: element type x dims from the value's ValueInfoProto (the graph's
 * inputs, outputs or value_info). A planned value without one, or with an
 * unknown or symbolic dim, is refused with one line naming it and pointing
 * to scripts/onnx-shape, which pins the inputs and infers every shape.
 * Two for one value must agree (element type, rank, every dim both give a
 * value): else "value 'X' has two shapes", naming both; of two that agree
 * the one that says more is used. A graph input that is also an
 * initializer (older exporters list weights so) stays a weight.
 * Nodes carrying subgraphs (If, Loop, Scan) are refused: their bodies read
 * values of the outer graph that the node does not list. Value names are
 * kept (a name with a control byte is refused, one longer than
 * ARENA_ONNX_NAME_MAX too); op kinds are the nodes' op_type ("Conv"),
 * whatever their domain; ops are named "op<k>", k the node's index. Tensor
 * ids follow the order values are defined: graph inputs, then each node's
 * outputs in node order. */
#ifndef ARENA_ONNX_H
#define ARENA_ONNX_H

#include <stddef.h>
#include <stdint.h>

#include "graphs/graph.h"

/* Longest value name or op_type kept, in bytes; a longer one is refused. */
#define ARENA_ONNX_NAME_MAX 4096

struct arena_onnx_info {
    size_t nodes, folded;  /* nodes stored, and of them folded */
    size_t initializers;   /* weights, outside the arena */
    size_t constants;      /* values made by folded nodes */
    size_t planned;        /* tensors in the graph */
};

/* 1 when data looks like an ONNX model: it starts with field 1
 * (ir_version, a varint from 1 to 127) followed by the tag of another
 * ModelProto field. Only a file without a known extension is sniffed. */
int arena_onnx_is_model(const void *data, size_t size);

/* Reads the model in data[0, size) into *g (tensor names, dtypes, shapes,
 * graph inputs and outputs, ops with their kinds); name is used in
 * messages only. The graph is not checked: the caller turns it into a
 * problem with arena_graph_problem(). On error returns ARENA_EFORMAT (or
 * ARENA_ENOMEM, ARENA_EOVERFLOW), one line in err starting "NAME: ", *g
 * freed and zeroed. */
int arena_onnx_read(const void *data, size_t size, const char *name, struct arena_graph *g,
                    struct arena_onnx_info *info, char *err, size_t errlen);

/* Reads the file path into *g as arena_onnx_read does (a regular file above
 * 2 GiB, protobuf's limit, is refused before it is read; a regular file is
 * mapped, not copied). Errors as arena_onnx_read, plus ARENA_EIO when the
 * file cannot be read, one line starting with the path; *g is zeroed on
 * error. The graph is not checked: the loader (graphs/source.c) does it. */
int arena_onnx_load(const char *path, struct arena_graph *g, char *err, size_t errlen);

#endif
