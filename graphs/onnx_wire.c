/* onnx_wire.c — a walk over an ONNX file's protobuf wire format before
 * protobuf-c unpacks it (onnx_wire.h).
 *
 * protobuf-c's unpacker recurses once per nested message, and ONNX's schema
 * nests without end (a node's attribute holds a graph whose nodes hold
 * attributes ...; a TypeProto holds TypeProtos). A file of a few MB could
 * nest a million levels and overflow the stack. This walk follows exactly
 * the fields that can recurse (a table from onnx.proto's field numbers), with
 * an explicit stack of ARENA_ONNX_DEPTH_MAX levels, checks every tag, varint
 * and length against the bytes that hold it, and refuses deeper nesting. It
 * does not judge what protobuf-c judges (field types, required fields). */
#include "graphs/onnx_wire.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planners/status.h"

/* The messages on the recursive paths of onnx.proto, and LEAF for any other
 * length-delimited field (its bytes are skipped unread). */
enum msg {
    LEAF,
    MODEL,
    GRAPH,
    NODE,
    ATTRIBUTE,
    VALUE_INFO,
    TYPE,
    TYPE_WRAP,  /* TypeProto.Sequence and .Optional: elem_type = 1 */
    TYPE_MAP,   /* TypeProto.Map: value_type = 2 */
    TRAINING,   /* TrainingInfoProto: initialization 1, algorithm 2 */
    FUNCTION,   /* FunctionProto: node 7 */
    TENSOR,     /* TensorProto: its data fields are dropped by the strip */
    SPARSE,     /* SparseTensorProto: values 1, indices 2 */
};

static const char *const msg_names[] = {
    "bytes",     "ModelProto",        "GraphProto", "NodeProto",
    "AttributeProto", "ValueInfoProto", "TypeProto", "TypeProto.Sequence/Optional",
    "TypeProto.Map", "TrainingInfoProto", "FunctionProto", "TensorProto", "SparseTensorProto",
};

/* What field `field` of a message of kind m holds, when it recurses. */
static enum msg child(enum msg m, uint64_t field)
{
    switch (m) {
    case MODEL:
        return field == 7 ? GRAPH : field == 20 ? TRAINING : field == 25 ? FUNCTION : LEAF;
    case GRAPH:
        return field == 1                     ? NODE
               : (field >= 11 && field <= 13) ? VALUE_INFO
               : field == 5                   ? TENSOR
               : field == 15                  ? SPARSE
                                              : LEAF;
    case NODE:
        return field == 5 ? ATTRIBUTE : LEAF;
    case ATTRIBUTE:
        return field == 6 || field == 11   ? GRAPH
               : field == 14 || field == 15 ? TYPE
               : field == 5 || field == 10  ? TENSOR
               : field == 22 || field == 23 ? SPARSE
                                            : LEAF;
    case VALUE_INFO:
        return field == 2 ? TYPE : LEAF;
    case TYPE:
        return field == 4 || field == 9 ? TYPE_WRAP : field == 5 ? TYPE_MAP : LEAF;
    case TYPE_WRAP:
        return field == 1 ? TYPE : LEAF;
    case TYPE_MAP:
        return field == 2 ? TYPE : LEAF;
    case TRAINING:
        return field == 1 || field == 2 ? GRAPH : LEAF;
    case FUNCTION:
        return field == 7 ? NODE : LEAF;
    case SPARSE:
        return field == 1 || field == 2 ? TENSOR : LEAF;
    case TENSOR:
    case LEAF:
        break;
    }
    return LEAF;
}

/* TensorProto's data: float_data 4, int32_data 5, string_data 6,
 * int64_data 7, raw_data 9, double_data 10, uint64_data 11. */
static int is_tensor_data(uint64_t field)
{
    return (field >= 4 && field <= 7) || (field >= 9 && field <= 11);
}

static size_t varint_len(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

static void put_varint(unsigned char *out, size_t *n, uint64_t v)
{
    while (v >= 0x80) {
        out[(*n)++] = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    out[(*n)++] = (unsigned char)v;
}

/* A varint at data[*pos, end): 1 and *v, else 0 (cut short, or past 10
 * bytes / 64 bits). */
static int varint(const unsigned char *data, size_t end, size_t *pos, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (*pos >= end)
            return 0;
        unsigned char b = data[(*pos)++];
        if (shift == 63 && b > 1)
            return 0;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return 1;
        }
    }
    return 0;
}

/* One walk over the file. Pass 1 (out NULL) checks everything and
 * records, in pre-order of the messages it descends into, each one's length
 * once the tensors' data are dropped (lens), and the dropped bytes of the
 * whole file (*removed). Pass 2 (out set, on bytes pass 1 accepted) writes
 * the stripped copy: every field as it was but tensor data, and each
 * descended message's length prefix anew. */
struct walk {
    const unsigned char *data;
    size_t size;
    const char *name;
    char *err;
    size_t errlen;
    uint64_t *lens;
    size_t n_lens, cap_lens;
    unsigned char *out;
    size_t n_out;
};

static int walk(struct walk *w, uint64_t *removed_total)
{
    const unsigned char *data = w->data;
    const char *name = w->name;
    char *err = w->err;
    size_t errlen = w->errlen;
    struct {
        size_t start, end, index;
        size_t width; /* bytes of its length prefix as stored */
        uint64_t removed;
        enum msg kind;
    } stack[ARENA_ONNX_DEPTH_MAX + 1];
    size_t depth = 0, pos = 0, next = 0;
    stack[0].start = 0;
    stack[0].end = w->size;
    stack[0].kind = MODEL;
    stack[0].removed = 0;
    for (;;) {
        while (depth > 0 && pos == stack[depth].end) {
            /* a message closes: its new length, and what its parent loses */
            size_t old = stack[depth].end - stack[depth].start;
            uint64_t now = old - stack[depth].removed;
            if (!w->out)
                w->lens[stack[depth].index] = now;
            stack[depth - 1].removed += stack[depth].removed + stack[depth].width - varint_len(now);
            depth--;
        }
        if (pos == stack[depth].end) { /* depth 0: the whole file read */
            *removed_total = stack[0].removed;
            return ARENA_OK;
        }
        size_t at = pos, end = stack[depth].end;
        const char *where = msg_names[stack[depth].kind];
        uint64_t tag, v;
        size_t tag_end;
        if (!varint(data, end, &pos, &tag))
            return arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                                "%s: %s: byte %zu: field tag cut short or longer than 10"
                                " bytes (not an ONNX model?)",
                                name, where, at);
        uint64_t field = tag >> 3;
        if (field == 0 || field > 536870911u)
            return arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                                "%s: %s: byte %zu: field number %llu is not valid (not an ONNX"
                                " model?)",
                                name, where, at, (unsigned long long)field);
        int drop = stack[depth].kind == TENSOR && is_tensor_data(field);
        tag_end = pos;
        switch (tag & 7) {
        case 0:
            if (!varint(data, end, &pos, &v))
                return arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                                    "%s: %s: byte %zu: field %llu: varint cut short", name, where,
                                    at, (unsigned long long)field);
            break;
        case 1:
        case 5: {
            size_t n = (tag & 7) == 1 ? 8 : 4;
            if (end - pos < n)
                return arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                                    "%s: %s: byte %zu: field %llu: %zu-byte value past the end of"
                                    " its message",
                                    name, where, at, (unsigned long long)field, n);
            pos += n;
            break;
        }
        case 2: {
            if (!varint(data, end, &pos, &v) || v > end - pos)
                return arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                                    "%s: %s: byte %zu: field %llu: length past the end of its"
                                    " message",
                                    name, where, at, (unsigned long long)field);
            enum msg k = child(stack[depth].kind, field);
            if (k == LEAF || drop) {
                pos += (size_t)v;
                break;
            }
            if (depth == ARENA_ONNX_DEPTH_MAX)
                return arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                                    "%s: %s: byte %zu: messages nested more than %d deep",
                                    name, where, at, ARENA_ONNX_DEPTH_MAX);
            if (!w->out && w->n_lens == w->cap_lens) {
                size_t cap = w->cap_lens ? 2 * w->cap_lens : 1024;
                uint64_t *grown = realloc(w->lens, cap * sizeof *grown);
                if (!grown)
                    return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "%s: out of memory",
                                        name);
                w->lens = grown;
                w->cap_lens = cap;
            }
            if (w->out) { /* the tag as stored, the length anew (shortest form) */
                memcpy(w->out + w->n_out, data + at, tag_end - at);
                w->n_out += tag_end - at;
                put_varint(w->out, &w->n_out, w->lens[next]);
            }
            depth++;
            stack[depth].start = pos;
            stack[depth].end = pos + (size_t)v;
            stack[depth].kind = k;
            stack[depth].removed = 0;
            stack[depth].width = pos - tag_end;
            stack[depth].index = w->out ? next : w->n_lens++;
            next++;
            continue; /* the message's fields follow */
        }
        default: /* 3 and 4 (groups) are not in proto3/ONNX; 6, 7 do not exist */
            return arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                                "%s: %s: byte %zu: field %llu: wire type %u is not used by ONNX",
                                name, where, at, (unsigned long long)field,
                                (unsigned)(tag & 7));
        }
        if (drop)
            stack[depth].removed += pos - at;
        else if (w->out) {
            memcpy(w->out + w->n_out, data + at, pos - at);
            w->n_out += pos - at;
        }
    }
}

int arena_onnx_wire_strip(const void *data, size_t size, const char *name,
                          unsigned char **out, size_t *out_size, char *err, size_t errlen)
{
    struct walk w;
    memset(&w, 0, sizeof w);
    w.data = data;
    w.size = size;
    w.name = name;
    w.err = err;
    w.errlen = errlen;
    *out = NULL;
    *out_size = 0;
    uint64_t removed = 0;
    int rc = walk(&w, &removed);
    if (rc) {
        free(w.lens);
        return rc;
    }
    w.out = malloc(size - removed ? size - (size_t)removed : 1);
    if (!w.out) {
        free(w.lens);
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "%s: out of memory", name);
    }
    rc = walk(&w, &removed);
    free(w.lens);
    assert(rc == ARENA_OK && w.n_out == size - removed);
    *out = w.out;
    *out_size = w.n_out;
    return rc;
}

int arena_onnx_wire_check(const void *data, size_t size, const char *name, char *err,
                          size_t errlen)
{
    unsigned char *copy;
    size_t n;
    int rc = arena_onnx_wire_strip(data, size, name, &copy, &n, err, errlen);
    free(copy);
    return rc;
}
