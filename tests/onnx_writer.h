/* onnx_writer.h — a small protobuf writer for the tests: it encodes an ONNX
 * ModelProto (onnx.proto's field numbers, the wire format by hand, no
 * protobuf library: so the reader's protobuf-c code is checked against an
 * encoder that shares nothing with it) from a plain description, so each
 * test builds exactly the model it needs, broken on purpose where it wants.
 */
#ifndef ARENA_TESTS_ONNX_WRITER_H
#define ARENA_TESTS_ONNX_WRITER_H

#include <stddef.h>
#include <stdint.h>

#define OW_MAX 16
#define OW_SYMBOLIC (-1) /* a dim written as dim_param "N" */
#define OW_UNKNOWN (-2)  /* a dim with neither dim_value nor dim_param */

/* A ValueInfoProto: name, elem_type (1 float, 10 float16, ...), dims;
 * rank -1 writes a tensor type without a shape. */
struct ow_value {
    const char *name;
    int elem_type;
    int rank;
    int64_t dims[8];
};

struct ow_node {
    const char *op_type, *name, *domain; /* NULL: field left out */
    size_t n_in, n_out;
    const char *in[OW_MAX], *out[OW_MAX]; /* "" is an absent optional one */
    int subgraph; /* 1: an attribute "body" holding an empty graph */
};

struct ow_model {
    size_t n_nodes, n_inits, n_in, n_out, n_info;
    struct ow_node nodes[OW_MAX];
    struct ow_value inits[OW_MAX]; /* initializers: name, data_type, dims */
    struct ow_value in[OW_MAX], out[OW_MAX], info[OW_MAX]; /* graph inputs,
                                      outputs, value_info */
};

/* A growing byte buffer. */
struct ow_buf {
    unsigned char *b;
    size_t n, cap;
};

/* The model's bytes in *out (malloc'd; free(out->b)). Aborts when out of
 * memory (a test helper). */
void ow_write(const struct ow_model *m, struct ow_buf *out);

/* The small model whose intervals tests/test_onnx.c works out by hand. */
void ow_hand_model(struct ow_model *m);

/* Writes bytes to path; 0 on success. */
int ow_save(const struct ow_buf *b, const char *path);

/* Low-level pieces, for a test that writes a broken file. */
void ow_varint(struct ow_buf *o, uint64_t v);
void ow_bytes(struct ow_buf *o, uint32_t field, const void *data, size_t n);

#endif
