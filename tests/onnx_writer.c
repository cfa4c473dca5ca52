/* onnx_writer.c — the tests' ONNX encoder (onnx_writer.h). Field numbers
 * from onnx.proto: ModelProto ir_version 1, graph 7, opset_import 8;
 * OperatorSetIdProto domain 1, version 2; GraphProto node 1, name 2,
 * initializer 5, input 11, output 12, value_info 13; NodeProto input 1,
 * output 2, name 3, op_type 4, attribute 5, domain 7; AttributeProto name 1,
 * i 3, t 5, g 6, type 20; ValueInfoProto name 1, type 2; TypeProto tensor_type 1;
 * TypeProto.Tensor elem_type 1, shape 2; TensorShapeProto dim 1; Dimension
 * dim_value 1, dim_param 2; TensorProto dims 1, data_type 2, name 8,
 * raw_data 9. */
#include "tests/onnx_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put(struct ow_buf *o, const void *data, size_t n)
{
    if (o->n + n > o->cap) {
        size_t cap = o->cap ? o->cap : 256;
        while (cap < o->n + n)
            cap *= 2;
        unsigned char *b = realloc(o->b, cap);
        if (!b)
            abort();
        o->b = b;
        o->cap = cap;
    }
    if (n)
        memcpy(o->b + o->n, data, n);
    o->n += n;
}

void ow_varint(struct ow_buf *o, uint64_t v)
{
    do {
        unsigned char c = (unsigned char)(v & 0x7f);
        v >>= 7;
        if (v)
            c |= 0x80;
        put(o, &c, 1);
    } while (v);
}

static void tag(struct ow_buf *o, uint32_t field, unsigned wire)
{
    ow_varint(o, (uint64_t)field << 3 | wire);
}

static void int_field(struct ow_buf *o, uint32_t field, int64_t v)
{
    tag(o, field, 0);
    ow_varint(o, (uint64_t)v);
}

void ow_bytes(struct ow_buf *o, uint32_t field, const void *data, size_t n)
{
    tag(o, field, 2);
    ow_varint(o, n);
    put(o, data, n);
}

static void str_field(struct ow_buf *o, uint32_t field, const char *s)
{
    if (s)
        ow_bytes(o, field, s, strlen(s));
}

/* Appends child as field `field` and empties it. */
static void sub(struct ow_buf *o, uint32_t field, struct ow_buf *child)
{
    ow_bytes(o, field, child->b, child->n);
    free(child->b);
    memset(child, 0, sizeof *child);
}

static void value_info(struct ow_buf *o, uint32_t field, const struct ow_value *v)
{
    struct ow_buf vi = {0}, type = {0}, tensor = {0}, shape = {0};
    int_field(&tensor, 1, v->elem_type);
    for (int d = 0; d < v->rank; d++) {
        struct ow_buf dim = {0};
        if (v->dims[d] == OW_SYMBOLIC)
            str_field(&dim, 2, "N");
        else if (v->dims[d] != OW_UNKNOWN)
            int_field(&dim, 1, v->dims[d]);
        sub(&shape, 1, &dim);
    }
    if (v->rank >= 0)
        sub(&tensor, 2, &shape);
    sub(&type, 1, &tensor);
    str_field(&vi, 1, v->name);
    sub(&vi, 2, &type);
    sub(o, field, &vi);
}

static void node(struct ow_buf *o, const struct ow_node *n)
{
    struct ow_buf b = {0};
    for (size_t i = 0; i < n->n_in; i++)
        str_field(&b, 1, n->in[i]);
    for (size_t i = 0; i < n->n_out; i++)
        str_field(&b, 2, n->out[i]);
    str_field(&b, 3, n->name);
    str_field(&b, 4, n->op_type);
    if (n->op_type && strcmp(n->op_type, "Constant") == 0) {
        /* value: a float32 scalar 0, as the checker wants one */
        struct ow_buf a = {0}, t = {0};
        static const unsigned char zero[4];
        int_field(&t, 2, 1);
        ow_bytes(&t, 9, zero, sizeof zero);
        str_field(&a, 1, "value");
        sub(&a, 5, &t);
        int_field(&a, 20, 4); /* AttributeType TENSOR */
        sub(&b, 5, &a);
    }
    if (n->op_type && strcmp(n->op_type, "Cast") == 0) {
        struct ow_buf a = {0}; /* to: float16, as the hand model's z */
        str_field(&a, 1, "to");
        int_field(&a, 3, 10);
        int_field(&a, 20, 2); /* AttributeType INT */
        sub(&b, 5, &a);
    }
    if (n->subgraph) {
        struct ow_buf a = {0}, g = {0};
        str_field(&a, 1, "body");
        str_field(&g, 2, "body");
        sub(&a, 6, &g);
        int_field(&a, 20, 5); /* AttributeType GRAPH */
        sub(&b, 5, &a);
    }
    str_field(&b, 7, n->domain);
    sub(o, 1, &b);
}

void ow_write(const struct ow_model *m, struct ow_buf *out)
{
    struct ow_buf g = {0}, opset = {0};
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < m->n_nodes; i++)
        node(&g, &m->nodes[i]);
    str_field(&g, 2, "hand");
    for (size_t i = 0; i < m->n_inits; i++) {
        struct ow_buf t = {0};
        for (int d = 0; d < m->inits[i].rank; d++)
            int_field(&t, 1, m->inits[i].dims[d]);
        int_field(&t, 2, m->inits[i].elem_type);
        str_field(&t, 8, m->inits[i].name);
        /* raw_data of zeros, 4 bytes an element (the tests use float32) */
        size_t elems = 1;
        for (int d = 0; d < m->inits[i].rank; d++)
            elems *= (size_t)m->inits[i].dims[d];
        unsigned char *zeros = calloc(elems ? 4 * elems : 1, 1);
        if (!zeros)
            abort();
        ow_bytes(&t, 9, zeros, elems * 4);
        free(zeros);
        sub(&g, 5, &t);
    }
    for (size_t i = 0; i < m->n_in; i++)
        value_info(&g, 11, &m->in[i]);
    for (size_t i = 0; i < m->n_out; i++)
        value_info(&g, 12, &m->out[i]);
    for (size_t i = 0; i < m->n_info; i++)
        value_info(&g, 13, &m->info[i]);
    int_field(out, 1, 8); /* ir_version */
    str_field(out, 2, "arenabench-tests");
    sub(out, 7, &g);
    str_field(&opset, 1, "");
    int_field(&opset, 2, 13);
    sub(out, 8, &opset);
}

int ow_save(const struct ow_buf *b, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t put_n = fwrite(b->b, 1, b->n, f);
    return (fclose(f) == 0 && put_n == b->n) ? 0 : -1;
}

#define F32 1
#define F16 10

void ow_hand_model(struct ow_model *m)
{
    static const struct ow_model hand = {
        .n_nodes = 8,
        .nodes =
            {
                {.op_type = "Constant", .name = "k", .n_out = 1, .out = {"k"}},
                {.op_type = "Conv", .name = "conv", .n_in = 3, .in = {"x", "w", ""},
                 .n_out = 1, .out = {"a"}},
                {.op_type = "Shape", .n_in = 1, .in = {"a"}, .n_out = 1, .out = {"sa"}},
                {.op_type = "Relu", .n_in = 1, .in = {"a"}, .n_out = 1, .out = {"b"}},
                {.op_type = "Add", .n_in = 2, .in = {"k", "k"}, .n_out = 1, .out = {"k2"}},
                {.op_type = "Mul", .n_in = 2, .in = {"b", "k2"}, .n_out = 1, .out = {"m"}},
                {.op_type = "Add", .n_in = 2, .in = {"a", "m"}, .n_out = 1, .out = {"y"}},
                {.op_type = "Cast", .n_in = 1, .in = {"y"}, .n_out = 1, .out = {"z"}},
            },
        .n_inits = 1,
        .inits = {{"w", F32, 4, {4, 2, 1, 1}}},
        .n_in = 1,
        .in = {{"x", F32, 4, {1, 2, 4, 4}}},
        .n_out = 2,
        .out = {{"y", F32, 4, {1, 4, 4, 4}}, {"z", F16, 4, {1, 4, 4, 4}}},
        .n_info = 3,
        .info = {{"a", F32, 4, {1, 4, 4, 4}},
                 {"b", F32, 4, {1, 4, 4, 4}},
                 {"m", F32, 4, {1, 4, 4, 4}}},
    };
    *m = hand;
}
