/* tflite.c — TensorFlow Lite models as graphs (see tflite.h for what is
 * planned). Field ids come from TensorFlow Lite's public schema
 * (tensorflow/lite/schema/schema.fbs, version 3): the vtable slot of id i is
 * 4 + 2 i. Model: operator_codes 1, subgraphs 2, buffers 4. SubGraph:
 * tensors 0, inputs 1, outputs 2, operators 3. Tensor: shape 0, type 1,
 * buffer 2, name 3, is_variable 5, shape_signature 7. Operator: opcode_index
 * 0, inputs 1, outputs 2. Buffer: data 0, size 2. OperatorCode:
 * deprecated_builtin_code 0, custom_code 1, builtin_code 3 (the code is the
 * larger of the two, as TensorFlow Lite's GetBuiltinCode() reads it). */
#include "graphs/tflite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "graphs/flatbuf.h"
#include "graphs/graph_internal.h"
#include "graphs/names.h"
#include "graphs/read_whole.h"

/* BuiltinOperator names, codes 0..157 (schema.fbs). */
static const char *const builtin_names[] = {
    "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE",
    "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP",
    "L2_NORMALIZATION", "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC",
    "LSH_PROJECTION", "LSTM", "MAX_POOL_2D", "MUL", "RELU", "RELU_N1_TO_1", "RELU6", "RESHAPE",
    "RESIZE_BILINEAR", "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH", "CONCAT_EMBEDDINGS",
    "SKIP_GRAM", "CALL", "CUSTOM", "EMBEDDING_LOOKUP_SPARSE", "PAD",
    "UNIDIRECTIONAL_SEQUENCE_RNN", "GATHER", "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND",
    "TRANSPOSE", "MEAN", "SUB", "DIV", "SQUEEZE", "UNIDIRECTIONAL_SEQUENCE_LSTM",
    "STRIDED_SLICE", "BIDIRECTIONAL_SEQUENCE_RNN", "EXP", "TOPK_V2", "SPLIT", "LOG_SOFTMAX",
    "DELEGATE", "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST", "PRELU", "MAXIMUM", "ARG_MAX", "MINIMUM",
    "LESS", "NEG", "PADV2", "GREATER", "GREATER_EQUAL", "LESS_EQUAL", "SELECT", "SLICE", "SIN",
    "TRANSPOSE_CONV", "SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL", "NOT_EQUAL", "LOG",
    "SUM", "SQRT", "RSQRT", "SHAPE", "POW", "ARG_MIN", "FAKE_QUANT", "REDUCE_PROD",
    "REDUCE_MAX", "PACK", "LOGICAL_OR", "ONE_HOT", "LOGICAL_AND", "LOGICAL_NOT", "UNPACK",
    "REDUCE_MIN", "FLOOR_DIV", "REDUCE_ANY", "SQUARE", "ZEROS_LIKE", "FILL", "FLOOR_MOD",
    "RANGE", "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU", "SQUARED_DIFFERENCE", "MIRROR_PAD", "ABS",
    "SPLIT_V", "UNIQUE", "CEIL", "REVERSE_V2", "ADD_N", "GATHER_ND", "COS", "WHERE", "RANK",
    "ELU", "REVERSE_SEQUENCE", "MATRIX_DIAG", "QUANTIZE", "MATRIX_SET_DIAG", "ROUND",
    "HARD_SWISH", "IF", "WHILE", "NON_MAX_SUPPRESSION_V4", "NON_MAX_SUPPRESSION_V5",
    "SCATTER_ND", "SELECT_V2", "DENSIFY", "SEGMENT_SUM", "BATCH_MATMUL",
    "PLACEHOLDER_FOR_GREATER_OP_CODES", "CUMSUM", "CALL_ONCE", "BROADCAST_TO", "RFFT2D",
    "CONV_3D", "IMAG", "REAL", "COMPLEX_ABS", "HASHTABLE", "HASHTABLE_FIND",
    "HASHTABLE_IMPORT", "HASHTABLE_SIZE", "REDUCE_ALL", "CONV_3D_TRANSPOSE", "VAR_HANDLE",
    "READ_VARIABLE", "ASSIGN_VARIABLE", "BROADCAST_ARGS", "RANDOM_STANDARD_NORMAL",
    "BUCKETIZE", "RANDOM_UNIFORM", "MULTINOMIAL", "GELU", "DYNAMIC_UPDATE_SLICE",
    "RELU_0_TO_1", "UNSORTED_SEGMENT_PROD", "UNSORTED_SEGMENT_MAX", "UNSORTED_SEGMENT_SUM",
    "ATAN2", "UNSORTED_SEGMENT_MIN",
};
#define BUILTIN_NAMES (sizeof builtin_names / sizeof builtin_names[0])
#define BUILTIN_CUSTOM 32

/* TensorType -> our dtype; -1 for types we refuse (string, complex,
 * resource, variant, int4, ...). */
static int dtype_of(int8_t type)
{
    switch (type) {
    case 0: return ARENA_DTYPE_FP32;
    case 1: return ARENA_DTYPE_FP16;
    case 2: return ARENA_DTYPE_INT32;
    case 3: return ARENA_DTYPE_UINT8;
    case 4: return ARENA_DTYPE_INT64;
    case 6: return ARENA_DTYPE_BOOL;
    case 7: return ARENA_DTYPE_INT16;
    case 9: return ARENA_DTYPE_INT8;
    case 10: return ARENA_DTYPE_FP64;
    case 12: return ARENA_DTYPE_UINT64;
    case 15: return ARENA_DTYPE_UINT32;
    case 16: return ARENA_DTYPE_UINT16;
    }
    return -1;
}

enum role { ROLE_NONE, ROLE_CONST, ROLE_FOLDED, ROLE_VARIABLE, ROLE_PLANNED };

struct reader {
    struct arena_fb fb;
    struct arena_fb_table model, sg;
    struct arena_fb_vec codes, buffers, tensors, ops, inputs, outputs;
    unsigned char *role; /* per tensor */
    uint32_t *gid;       /* per tensor: id in the graph */
    uint32_t *refs;      /* one op's planned inputs then outputs */
    struct arena_graph *g;
    struct arena_tflite_info *info;
};

/* A tensor index of an op or the subgraph: -1 (absent) -> 0, else checks
 * the range and returns 1 with *t. */
static int tensor_index(struct reader *r, int32_t x, const char *field, size_t k, uint32_t *t)
{
    if (x == -1)
        return 0;
    if (x < 0 || (size_t)x >= r->tensors.n) {
        arena_fb_fail(&r->fb, ARENA_EFORMAT, field, "entry %zu is tensor %ld, not one of the %zu tensors",
                      k, (long)x, r->tensors.n);
        return 0;
    }
    *t = (uint32_t)x;
    return 1;
}

/* Pass 1: which tensors are constant (a buffer with data or a size) or
 * variable. */
static void classify(struct reader *r)
{
    for (size_t i = 0; i < r->tensors.n && !r->fb.rc; i++) {
        struct arena_fb_table t, b;
        arena_fb_context(&r->fb, "subgraph %u, tensor %zu", (unsigned)r->info->subgraph, i);
        arena_fb_vec_table(&r->fb, &r->tensors, i, "Tensor", &t);
        uint32_t buf = 0;
        uint8_t var = 0;
        arena_fb_u32(&r->fb, &t, 2, "buffer", 0, &buf);
        arena_fb_u8(&r->fb, &t, 5, "is_variable", 0, &var);
        if (r->fb.rc)
            return;
        if (var) {
            r->role[i] = ROLE_VARIABLE;
            continue;
        }
        if (buf >= r->buffers.n) {
            if (buf == 0) /* no buffers at all: nothing is constant */
                continue;
            arena_fb_fail(&r->fb, ARENA_EFORMAT, "buffer",
                          "buffer %lu, past the %zu buffers of the model", (unsigned long)buf,
                          r->buffers.n);
            return;
        }
        struct arena_fb_vec data;
        uint64_t size = 0;
        arena_fb_vec_table(&r->fb, &r->buffers, buf, "Buffer", &b);
        arena_fb_vector(&r->fb, &b, 0, "Buffer.data", 1, &data);
        arena_fb_u64(&r->fb, &b, 2, "Buffer.size", 0, &size);
        if (data.n > 0 || size > 0) {
            r->role[i] = ROLE_CONST;
            r->info->constants++;
        }
    }
}

static int is_const(const struct reader *r, uint32_t t)
{
    return r->role[t] == ROLE_CONST || r->role[t] == ROLE_FOLDED;
}

/* Pass 2, over the ops in stored order: fold the ops whose present inputs
 * are all constant, mark every other touched tensor planned. Bounds the
 * total of inputs and outputs by the file size, since vectors may be
 * shared among ops and a small file could otherwise claim a quadratic
 * count. */
static void mark(struct reader *r, unsigned char *folded, size_t *most)
{
    size_t total = 0;
    *most = 0;
    for (size_t k = 0; k < r->ops.n && !r->fb.rc; k++) {
        struct arena_fb_table op;
        struct arena_fb_vec in, out;
        arena_fb_context(&r->fb, "subgraph %u, operator %zu", (unsigned)r->info->subgraph, k);
        arena_fb_vec_table(&r->fb, &r->ops, k, "Operator", &op);
        arena_fb_vector(&r->fb, &op, 1, "inputs", 4, &in);
        arena_fb_vector(&r->fb, &op, 2, "outputs", 4, &out);
        if (r->fb.rc)
            return;
        total += in.n + out.n;
        if (in.n + out.n > *most)
            *most = in.n + out.n;
        if (total > r->fb.size) {
            arena_fb_fail(&r->fb, ARENA_EFORMAT, "inputs",
                          "more operator inputs and outputs than bytes in the file (vectors "
                          "shared among ops?)");
            return;
        }
        size_t present = 0, constant = 0;
        uint32_t t;
        for (size_t i = 0; i < in.n; i++)
            if (tensor_index(r, arena_fb_vec_i32(&r->fb, &in, i), "inputs", i, &t)) {
                present++;
                constant += is_const(r, t);
            }
        for (size_t i = 0; i < out.n; i++)
            tensor_index(r, arena_fb_vec_i32(&r->fb, &out, i), "outputs", i, &t);
        if (r->fb.rc)
            return;
        folded[k] = present > 0 && constant == present;
        if (folded[k]) {
            r->info->folded++;
            for (size_t i = 0; i < out.n; i++)
                if (tensor_index(r, arena_fb_vec_i32(&r->fb, &out, i), "outputs", i, &t) &&
                    r->role[t] == ROLE_NONE)
                    r->role[t] = ROLE_FOLDED;
            continue;
        }
        for (size_t i = 0; i < in.n + out.n; i++) {
            int32_t x = i < in.n ? arena_fb_vec_i32(&r->fb, &in, i)
                                 : arena_fb_vec_i32(&r->fb, &out, i - in.n);
            if (tensor_index(r, x, "inputs", i, &t) && r->role[t] == ROLE_NONE)
                r->role[t] = ROLE_PLANNED;
        }
    }
    struct arena_fb_vec *io[2] = {&r->inputs, &r->outputs};
    arena_fb_context(&r->fb, "subgraph %u", (unsigned)r->info->subgraph);
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < io[s]->n && !r->fb.rc; i++) {
            uint32_t t;
            if (tensor_index(r, arena_fb_vec_i32(&r->fb, io[s], i), s ? "outputs" : "inputs", i,
                             &t) &&
                r->role[t] == ROLE_NONE)
                r->role[t] = ROLE_PLANNED;
        }
}

/* A name fit for messages and C identifiers' sources: cut to
 * ARENA_TFLITE_NAME_MAX bytes, control bytes as '?'. */
static void copy_name(struct arena_fb *fb, const struct arena_fb_vec *s, char *buf)
{
    size_t n = s->n < ARENA_TFLITE_NAME_MAX ? s->n : ARENA_TFLITE_NAME_MAX;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = fb->data[s->pos + i];
        buf[i] = (char)(c < 0x20 || c == 0x7f ? '?' : c);
    }
    buf[n] = '\0';
}

/* Adds tensor i (planned or variable) to the graph or to the counts. */
static void add_tensor(struct reader *r, size_t i, struct arena_names *names)
{
    struct arena_fb *fb = &r->fb;
    struct arena_fb_table t;
    struct arena_fb_vec shape, sig, name;
    int8_t type = 0;
    arena_fb_context(fb, "subgraph %u, tensor %zu", (unsigned)r->info->subgraph, i);
    arena_fb_vec_table(fb, &r->tensors, i, "Tensor", &t);
    arena_fb_i8(fb, &t, 1, "type", 0, &type);
    arena_fb_vector(fb, &t, 0, "shape", 4, &shape);
    arena_fb_vector(fb, &t, 7, "shape_signature", 4, &sig);
    arena_fb_vector(fb, &t, 3, "name", 1, &name);
    if (fb->rc)
        return;
    int dt = dtype_of(type);
    if (dt < 0) {
        arena_fb_fail(fb, ARENA_EFORMAT, "type",
                      "unknown type %d (known: 0 float32, 1 float16, 2 int32, 3 uint8, 4 int64, "
                      "6 bool, 7 int16, 9 int8, 10 float64, 12 uint64, 15 uint32, 16 uint16)",
                      (int)type);
        return;
    }
    if (shape.n > ARENA_GRAPH_MAX_RANK) {
        arena_fb_fail(fb, ARENA_EFORMAT, "shape", "rank %zu, above %d", shape.n,
                      ARENA_GRAPH_MAX_RANK);
        return;
    }
    uint64_t dims[ARENA_GRAPH_MAX_RANK];
    for (size_t d = 0; d < shape.n; d++) {
        int32_t v = arena_fb_vec_i32(fb, &shape, d);
        if (v < 0) {
            arena_fb_fail(fb, ARENA_EFORMAT, "shape",
                          "dim %zu is %ld: the stored shape must give every size", d, (long)v);
            return;
        }
        dims[d] = (uint64_t)v;
    }
    int dynamic = 0;
    for (size_t d = 0; d < sig.n; d++)
        dynamic |= arena_fb_vec_i32(fb, &sig, d) == -1;
    r->info->dynamic += (size_t)dynamic;
    if (r->role[i] == ROLE_VARIABLE) {
        /* Refused as a planned tensor of its shape would be: a size that
         * does not fit is never reported as a smaller one. */
        uint64_t bytes;
        if (arena_shape_bytes(arena_dtype_size((enum arena_dtype)dt), (uint32_t)shape.n, dims,
                              &bytes) != ARENA_OK) {
            arena_fb_fail(fb, ARENA_EOVERFLOW, "shape",
                          "variable tensor: size overflows (more than 2^62 bytes)");
            return;
        }
        if (bytes > ARENA_SIZE_MAX - r->info->variable_bytes) {
            arena_fb_fail(fb, ARENA_EOVERFLOW, "shape",
                          "variable tensors: their sizes add up to more than 2^62 bytes");
            return;
        }
        r->info->variables++;
        r->info->variable_bytes += bytes;
        return;
    }
    /* room for the name, then up to 8 "#<i>" suffixes of at most 11 bytes */
    char buf[ARENA_TFLITE_NAME_MAX + 8 * 12 + 1];
    copy_name(fb, &name, buf);
    if (!buf[0])
        snprintf(buf, sizeof buf, "tensor%zu", i);
    uint32_t id = (uint32_t)r->g->n_tensors;
    for (int tries = 0;; tries++) {
        int put = arena_names_put(names, buf, strlen(buf), id, NULL);
        if (put < 0) {
            arena_fb_fail(fb, put, "name", "out of memory");
            return;
        }
        if (put == 0)
            break;
        if (tries == 8) {
            arena_fb_fail(fb, ARENA_EFORMAT, "name", "cannot be made unique");
            return;
        }
        size_t len = strlen(buf);
        snprintf(buf + len, sizeof buf - len, "#%zu", i);
    }
    int rc = arena_graph_tensor_add(r->g, buf, (enum arena_dtype)dt, (uint32_t)shape.n, dims, &id);
    if (rc) {
        arena_fb_fail(fb, rc, "tensor", "%s", arena_strerror(rc));
        return;
    }
    r->gid[i] = id;
    r->info->planned++;
}

/* The op's kind: builtin name, CUSTOM:<name>, or the code as a number. */
static void op_kind(struct reader *r, uint32_t opcode, char *buf, size_t cap)
{
    struct arena_fb *fb = &r->fb;
    struct arena_fb_table c;
    int8_t old = 0;
    int32_t code = 0;
    struct arena_fb_vec custom;
    arena_fb_vec_table(fb, &r->codes, opcode, "OperatorCode", &c);
    arena_fb_i8(fb, &c, 0, "deprecated_builtin_code", 0, &old);
    arena_fb_i32(fb, &c, 3, "builtin_code", 0, &code);
    arena_fb_vector(fb, &c, 1, "custom_code", 1, &custom);
    if (fb->rc)
        return;
    if (old > code)
        code = old;
    if (code == BUILTIN_CUSTOM && custom.n > 0) {
        char name[ARENA_TFLITE_NAME_MAX + 1];
        copy_name(fb, &custom, name);
        snprintf(buf, cap, "CUSTOM:%s", name);
    } else if (code >= 0 && (size_t)code < BUILTIN_NAMES) {
        snprintf(buf, cap, "%s", builtin_names[code]);
    } else {
        snprintf(buf, cap, "%ld", (long)code);
    }
}

/* Dim d of tensor t's stored shape (0 when it has fewer). */
static uint64_t shape_dim(struct reader *r, uint32_t t, size_t d)
{
    struct arena_fb *fb = &r->fb;
    struct arena_fb_table tt;
    struct arena_fb_vec shape;
    if (arena_fb_vec_table(fb, &r->tensors, t, "Tensor", &tt) ||
        arena_fb_vector(fb, &tt, 0, "shape", 4, &shape) || d >= shape.n)
        return 0;
    int32_t v = arena_fb_vec_i32(fb, &shape, d);
    return v > 0 ? (uint64_t)v : 0;
}

/* Rows of padding before a k-row window at stride s from in to out rows:
 * VALID none, SAME TensorFlow's split, the smaller half before. */
static uint32_t pad_before(int8_t padding, uint64_t in, uint64_t out, uint32_t k, uint32_t s)
{
    uint64_t need = out ? (out - 1) * s + k : 0;
    return padding == 0 && need > in ? (uint32_t)((need - in) / 2) : 0;
}

/* The window of a CONV_2D, DEPTHWISE_CONV_2D or *_POOL_2D op k (graph.h),
 * read from its options (padding, strides; a pool's filter size) and its
 * filter's shape, so a transform sized by geometry (kernel scratch) sees
 * it. A dilated conv, or a shape the window cannot describe (not NHWC,
 * batch above 1), states none. */
static void op_window(struct reader *r, const struct arena_fb_table *op, const char *kind,
                      const struct arena_fb_vec *in, const struct arena_fb_vec *out)
{
    struct arena_fb *fb = &r->fb;
    int conv = strcmp(kind, "CONV_2D") == 0, dw = strcmp(kind, "DEPTHWISE_CONV_2D") == 0;
    int pool = strcmp(kind, "AVERAGE_POOL_2D") == 0 || strcmp(kind, "MAX_POOL_2D") == 0;
    if (!conv && !dw && !pool)
        return;
    struct arena_fb_table o;
    int present = 0;
    uint32_t x, y, f = 0;
    if (arena_fb_table_at(fb, op, 4, "builtin_options", &o, &present) || !present ||
        in->n < (pool ? 1u : 2u) || out->n < 1 ||
        !tensor_index(r, arena_fb_vec_i32(fb, in, 0), "inputs", 0, &x) ||
        !tensor_index(r, arena_fb_vec_i32(fb, out, 0), "outputs", 0, &y) ||
        (!pool && !tensor_index(r, arena_fb_vec_i32(fb, in, 1), "inputs", 1, &f)))
        return;
    int8_t padding = 0;
    int32_t sw = 1, sh = 1, fw = 0, fh = 0, dil_w = 1, dil_h = 1;
    arena_fb_i8(fb, &o, 0, "padding", 0, &padding);
    arena_fb_i32(fb, &o, 1, "stride_w", 1, &sw);
    arena_fb_i32(fb, &o, 2, "stride_h", 1, &sh);
    if (pool) {
        arena_fb_i32(fb, &o, 3, "filter_width", 0, &fw);
        arena_fb_i32(fb, &o, 4, "filter_height", 0, &fh);
    } else {
        arena_fb_i32(fb, &o, conv ? 4 : 5, "dilation_w_factor", 1, &dil_w);
        arena_fb_i32(fb, &o, conv ? 5 : 6, "dilation_h_factor", 1, &dil_h);
        fh = (int32_t)shape_dim(r, f, 1);
        fw = (int32_t)shape_dim(r, f, 2);
    }
    if (fb->rc || sw <= 0 || sh <= 0 || fw <= 0 || fh <= 0 || dil_w != 1 || dil_h != 1 ||
        shape_dim(r, x, 0) != 1 || shape_dim(r, y, 0) != 1 || !shape_dim(r, x, 3))
        return;
    uint64_t ih = shape_dim(r, x, 1), iw = shape_dim(r, x, 2), oh = shape_dim(r, y, 1),
             ow = shape_dim(r, y, 2), c = shape_dim(r, x, 3);
    struct arena_gop_window w = {
        .kh = (uint32_t)fh, .kw = (uint32_t)fw, .sh = (uint32_t)sh, .sw = (uint32_t)sw,
        .pad_top = pad_before(padding, ih, oh, (uint32_t)fh, (uint32_t)sh),
        .pad_left = pad_before(padding, iw, ow, (uint32_t)fw, (uint32_t)sw),
        .macs_per_out = (uint64_t)fh * (uint64_t)fw * (conv ? c : 1)};
    arena_graph_op_window_set(r->g, &w);
}

/* Pass 3: the ops, every one in stored order, with their planned tensors. */
static void add_ops(struct reader *r, const unsigned char *folded)
{
    struct arena_fb *fb = &r->fb;
    for (size_t k = 0; k < r->ops.n && !fb->rc; k++) {
        struct arena_fb_table op;
        struct arena_fb_vec in, out;
        uint32_t opcode = 0, t;
        arena_fb_context(fb, "subgraph %u, operator %zu", (unsigned)r->info->subgraph, k);
        arena_fb_vec_table(fb, &r->ops, k, "Operator", &op);
        arena_fb_u32(fb, &op, 0, "opcode_index", 0, &opcode);
        arena_fb_vector(fb, &op, 1, "inputs", 4, &in);
        arena_fb_vector(fb, &op, 2, "outputs", 4, &out);
        if (fb->rc)
            return;
        if (opcode >= r->codes.n) {
            arena_fb_fail(fb, ARENA_EFORMAT, "opcode_index",
                          "%lu, past the %zu operator codes of the model",
                          (unsigned long)opcode, r->codes.n);
            return;
        }
        char kind[ARENA_TFLITE_NAME_MAX + 16], name[32];
        op_kind(r, opcode, kind, sizeof kind);
        if (fb->rc)
            return;
        size_t n_in = 0, n_out = 0;
        for (size_t i = 0; i < in.n && !folded[k]; i++)
            if (tensor_index(r, arena_fb_vec_i32(fb, &in, i), "inputs", i, &t) &&
                r->role[t] == ROLE_PLANNED)
                r->refs[n_in++] = r->gid[t];
        for (size_t i = 0; i < out.n && !folded[k]; i++)
            if (tensor_index(r, arena_fb_vec_i32(fb, &out, i), "outputs", i, &t) &&
                r->role[t] == ROLE_PLANNED)
                r->refs[n_in + n_out++] = r->gid[t];
        snprintf(name, sizeof name, "op%zu", k);
        int rc = arena_graph_op_add(r->g, name, kind, r->refs, n_in, r->refs + n_in, n_out);
        if (rc)
            arena_fb_fail(fb, rc, "operator", "%s", arena_strerror(rc));
        else if (!folded[k])
            op_window(r, &op, kind, &in, &out);
    }
}

int arena_tflite_is_model(const void *data, size_t size)
{
    return size >= 8 && memcmp((const unsigned char *)data + 4, "TFL3", 4) == 0;
}

/* The refusals the first 8 bytes of a model of size bytes decide, as
 * arena_tflite_read words them; ARENA_OK when they pass. */
static int check_header(const unsigned char *head, size_t size, const char *name, char *err,
                        size_t errlen)
{
    if (size < 8)
        return arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                            "%s: header: truncated: %zu bytes, a model has at least 8", name,
                            size);
    if (!arena_tflite_is_model(head, size))
        return arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                            "%s: header: not a TensorFlow Lite model: bytes 4-7 are not"
                            " \"TFL3\"",
                            name);
    size_t root = (size_t)head[0] | (size_t)head[1] << 8 | (size_t)head[2] << 16 |
                  (size_t)head[3] << 24;
    if (root > size || size - root < 4)
        return arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                            "%s: Model: root: offset out of range: table at byte %zu, file is"
                            " %zu bytes",
                            name, root, size);
    return ARENA_OK;
}

/* arena_tflite_read, and when index is not NULL, *index: a malloc'd array
 * of the model's tensor index of each graph tensor. */
static int read_model(const void *data, size_t size, const char *name, uint32_t subgraph,
                      struct arena_graph *g, struct arena_tflite_info *info, uint32_t **index,
                      char *err, size_t errlen)
{
    struct reader r;
    memset(&r, 0, sizeof r);
    memset(info, 0, sizeof *info);
    arena_graph_init(g);
    r.g = g;
    r.info = info;
    info->subgraph = subgraph;
    struct arena_fb *fb = &r.fb;
    arena_fb_init(fb, data, size, name, err, errlen);
    int hrc = check_header(data, size, name, err, errlen);
    if (hrc)
        return hrc;
    arena_fb_context(fb, "Model");
    arena_fb_root(fb, &r.model);
    arena_fb_vector(fb, &r.model, 1, "operator_codes", 4, &r.codes);
    struct arena_fb_vec sgs;
    arena_fb_vector(fb, &r.model, 2, "subgraphs", 4, &sgs);
    arena_fb_vector(fb, &r.model, 4, "buffers", 4, &r.buffers);
    if (fb->rc)
        return fb->rc;
    info->subgraphs = sgs.n > UINT32_MAX ? UINT32_MAX : (uint32_t)sgs.n;
    if (subgraph >= sgs.n)
        return arena_fb_fail(fb, ARENA_EFORMAT, "subgraphs", "no subgraph %lu: the model has %zu",
                             (unsigned long)subgraph, sgs.n);
    arena_fb_context(fb, "subgraph %lu", (unsigned long)subgraph);
    arena_fb_vec_table(fb, &sgs, subgraph, "SubGraph", &r.sg);
    arena_fb_vector(fb, &r.sg, 0, "tensors", 4, &r.tensors);
    arena_fb_vector(fb, &r.sg, 1, "inputs", 4, &r.inputs);
    arena_fb_vector(fb, &r.sg, 2, "outputs", 4, &r.outputs);
    arena_fb_vector(fb, &r.sg, 3, "operators", 4, &r.ops);
    if (fb->rc)
        return fb->rc;
    info->tensors = r.tensors.n;
    info->ops = r.ops.n;
    size_t nt = r.tensors.n ? r.tensors.n : 1, no = r.ops.n ? r.ops.n : 1;
    r.role = calloc(nt, 1);
    r.gid = calloc(nt, sizeof *r.gid);
    unsigned char *folded = calloc(no, 1);
    struct arena_names names;
    arena_names_init(&names);
    size_t most = 0;
    if (!r.role || !r.gid || !folded)
        arena_fb_fail(fb, ARENA_ENOMEM, "file", "out of memory");
    classify(&r);
    mark(&r, folded, &most);
    r.refs = malloc((most ? most : 1) * sizeof *r.refs); /* one op's refs at most */
    if (!r.refs)
        arena_fb_fail(fb, ARENA_ENOMEM, "file", "out of memory");
    for (size_t i = 0; i < r.tensors.n && !fb->rc; i++) {
        if (r.role[i] == ROLE_PLANNED || r.role[i] == ROLE_VARIABLE)
            add_tensor(&r, i, &names);
        else if (r.role[i] == ROLE_NONE)
            info->unused++;
    }
    arena_fb_context(fb, "subgraph %lu", (unsigned long)subgraph);
    for (int s = 0; s < 2 && !fb->rc; s++) {
        struct arena_fb_vec *v = s ? &r.outputs : &r.inputs;
        for (size_t i = 0; i < v->n && !fb->rc; i++) {
            uint32_t t;
            if (tensor_index(&r, arena_fb_vec_i32(fb, v, i), s ? "outputs" : "inputs", i, &t) &&
                r.role[t] == ROLE_PLANNED) {
                if (s)
                    g->tensors[r.gid[t]].is_output = 1;
                else
                    g->tensors[r.gid[t]].is_input = 1;
            }
        }
    }
    add_ops(&r, folded);
    if (index && !fb->rc) {
        *index = malloc((g->n_tensors ? g->n_tensors : 1) * sizeof **index);
        if (!*index)
            arena_fb_fail(fb, ARENA_ENOMEM, "file", "out of memory");
        for (size_t i = 0; i < r.tensors.n && *index; i++)
            if (r.role[i] == ROLE_PLANNED)
                (*index)[r.gid[i]] = (uint32_t)i;
    }
    int rc = fb->rc;
    free(r.role);
    free(r.gid);
    free(r.refs);
    free(folded);
    arena_names_free(&names);
    if (rc) {
        arena_graph_free(g);
        memset(info, 0, sizeof *info);
    }
    return rc;
}

int arena_tflite_read(const void *data, size_t size, const char *name, uint32_t subgraph,
                      struct arena_graph *g, struct arena_tflite_info *info, char *err,
                      size_t errlen)
{
    return read_model(data, size, name, subgraph, g, info, NULL, err, errlen);
}

int arena_tflite_split(const char *text, char *path, size_t cap, uint32_t *subgraph,
                       char *err, size_t errlen)
{
    struct stat st;
    *subgraph = 0;
    const char *hash = strrchr(text, '#');
    size_t len = hash ? (size_t)(hash - text) : 0;
    if (stat(text, &st) == 0 || !hash || len == 0 || len >= cap)
        return 0;
    memcpy(path, text, len);
    path[len] = '\0';
    size_t k = strlen(path);
    if (!(k >= 7 && strcmp(path + k - 7, ".tflite") == 0) && stat(path, &st) != 0)
        return 0; /* neither a model's name nor a file: a spec, say */
    uint64_t n = 0;
    const char *p = hash + 1;
    for (; *p >= '0' && *p <= '9' && n <= UINT32_MAX; p++)
        n = n * 10 + (uint64_t)(*p - '0');
    if (p == hash + 1 || *p || n > UINT32_MAX)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: subgraph index '%s' after '#' is not a whole number from 0 to"
                            " %lu",
                            path, hash + 1, (unsigned long)UINT32_MAX);
    *subgraph = (uint32_t)n;
    return 1;
}

#define MODEL_MAX ((size_t)1 << 31) /* a FlatBuffer is at most 2 GiB */

/* The path to open (text, or text without its "#N") and the subgraph, for a
 * spec already loaded (so a malformed "#N" cannot reach here). */
const char *arena_tflite_path(const char *text, char *buf, size_t cap, uint32_t *subgraph)
{
    char why[160];
    return arena_tflite_split(text, buf, cap, subgraph, why, sizeof why) == 1 ? buf : text;
}

/* The whole file in memory. A regular file is judged by its size and header
 * first, so a file that cannot be a model is never read whole. */
static int read_file(const char *path, unsigned char **data, size_t *size, char *err,
                     size_t errlen)
{
    *data = NULL;
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return arena_errorf(err, errlen, 0, ARENA_EIO, "%s: cannot open", path);
    struct stat st;
    size_t cap = 0;
    int rc = ARENA_OK;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        unsigned char head[8];
        size_t got = fread(head, 1, sizeof head, f);
        if ((uint64_t)st.st_size > MODEL_MAX)
            rc = arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                              "%s: larger than 2 GiB, the FlatBuffers limit", path);
        else if (got == sizeof head || got == (size_t)st.st_size)
            rc = check_header(head, (size_t)st.st_size, path, err, errlen);
        if (rc) {
            fclose(f);
            return rc;
        }
        rewind(f);
        cap = (size_t)st.st_size + 1; /* one more byte finds a file that grew */
    }
    rc = arena_read_whole(f, cap, MODEL_MAX, path, "FlatBuffers", data, size, err, errlen);
    fclose(f);
    return rc;
}

void arena_tflite_loaded_free(struct arena_tflite_loaded *x)
{
    free(x->warning);
    free(x->index);
    memset(x, 0, sizeof *x);
}

int arena_tflite_load(const char *path, uint32_t sub, struct arena_graph *g,
                      struct arena_tflite_loaded *x, char *err, size_t errlen)
{
    arena_graph_init(g);
    memset(x, 0, sizeof *x);
    unsigned char *data;
    size_t size;
    int rc = read_file(path, &data, &size, err, errlen);
    if (rc)
        return rc;
    rc = arena_tflite_load_data(data, size, path, sub, g, x, err, errlen);
    free(data);
    return rc;
}

int arena_tflite_load_data(const void *data, size_t size, const char *path, uint32_t sub,
                           struct arena_graph *g, struct arena_tflite_loaded *x, char *err,
                           size_t errlen)
{
    memset(x, 0, sizeof *x);
    struct arena_tflite_info info;
    int rc = read_model(data, size, path, sub, g, &info, &x->index, err, errlen);
    if (rc)
        return rc;
    x->variable_bytes = info.variable_bytes;
    if (info.dynamic || info.variables) {
        char note[512];
        int k = snprintf(note, sizeof note, "%s:", path);
        if (info.dynamic && k > 0 && (size_t)k < sizeof note)
            k += snprintf(note + k, sizeof note - (size_t)k,
                          " %zu tensors have dynamic dims (-1 in shape_signature): planned at "
                          "their stored shape%s",
                          info.dynamic, info.variables ? ";" : "");
        if (info.variables && k > 0 && (size_t)k < sizeof note)
            snprintf(note + k, sizeof note - (size_t)k,
                     " %zu variable tensors (%llu bytes) persist across runs: left out of the "
                     "plan, they go at the head of the arena",
                     info.variables, (unsigned long long)info.variable_bytes);
        x->warning = arena_str_dup(note);
        if (!x->warning) {
            arena_tflite_loaded_free(x);
            arena_graph_free(g);
            return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "%s: out of memory", path);
        }
    }
    return ARENA_OK;
}
