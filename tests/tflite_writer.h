/* tflite_writer.h — a small FlatBuffers writer for the tests: it lays out a
 * TensorFlow Lite model (schema.fbs field ids, as graphs/tflite.c reads
 * them) from a plain description, so each test builds exactly the model it
 * needs, and it reports where things landed so a test can corrupt one
 * offset, vtable or vector on purpose.
 *
 * Layout: front to back, a parent before its children (a uoffset points
 * forward); each table's vtable just before it; every field 4 bytes (8 for
 * u64). Not the layout flatc writes, but the same wire format. */
#ifndef ARENA_TESTS_TFLITE_WRITER_H
#define ARENA_TESTS_TFLITE_WRITER_H

#include <stddef.h>
#include <stdint.h>

#define TFL_MAX 16

struct tfl_tensor {
    const char *name;   /* NULL: no name field */
    int type;           /* TensorType: 0 float32, 1 float16, 9 int8, ... */
    uint32_t rank;
    int32_t shape[8];
    uint32_t buffer;
    int variable;
    uint32_t sig_rank;  /* 0: no shape_signature */
    int32_t sig[8];
};

struct tfl_op {
    uint32_t opcode;
    size_t n_in, n_out;
    int32_t in[TFL_MAX], out[TFL_MAX];
};

struct tfl_subgraph {
    size_t n_tensors, n_ops, n_in, n_out;
    struct tfl_tensor tensors[TFL_MAX];
    struct tfl_op ops[TFL_MAX];
    int32_t in[TFL_MAX], out[TFL_MAX];
};

struct tfl_code {
    int builtin;        /* BuiltinOperator; written to builtin_code, and to
                           deprecated_builtin_code capped at 127 */
    const char *custom; /* NULL: no custom_code */
};

struct tfl_model {
    size_t n_codes, n_buffers, n_subgraphs;
    struct tfl_code codes[TFL_MAX];
    uint32_t buffer_bytes[TFL_MAX]; /* data bytes of each buffer, 0 = empty */
    struct tfl_subgraph sub[2];
};

/* Where the writer put things (byte positions in the output). */
struct tfl_where {
    size_t model_table;      /* the Model table (root) */
    size_t subgraphs_field;  /* Model.subgraphs' uoffset field */
    size_t tensor0_table;    /* subgraph 0, tensor 0 */
    size_t op0_inputs;       /* subgraph 0, operator 0's inputs vector (count) */
    size_t last_data_end;    /* end of the last buffer's data: the last byte read */
};

/* Writes the model into out (cap bytes); returns its size, 0 when cap is
 * too small. w may be NULL. */
size_t tfl_write(const struct tfl_model *m, unsigned char *out, size_t cap, struct tfl_where *w);

/* Appends a tensor to s: name, TensorType, buffer index, rank and its
 * first two dims (d1 unused when rank is 1). */
void tfl_add_tensor(struct tfl_subgraph *s, const char *name, int type, uint32_t buffer,
                    uint32_t rank, int32_t d0, int32_t d1);

/* Appends an operator of opcode index opcode to s: n_in inputs, one output. */
void tfl_add_op(struct tfl_subgraph *s, uint32_t opcode, size_t n_in, const int32_t *in,
                int32_t out);

/* A model of one subgraph and one (empty) buffer whose operator codes are
 * the builtins ADD (opcode index 0) and QUANTIZE (index 1), nothing in it
 * yet: what the tests that need a small graph start from. */
void tfl_add_quantize_model(struct tfl_model *m);

/* Writes m to the file path; asserts it was whole. */
void tfl_save(const struct tfl_model *m, const char *path);

/* Little-endian stores for corrupting a written model. */
void tfl_put_u32(unsigned char *at, uint32_t v);

#endif
