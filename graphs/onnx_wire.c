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

#include <stdio.h>

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
};

static const char *const msg_names[] = {
    "bytes",     "ModelProto",        "GraphProto", "NodeProto",
    "AttributeProto", "ValueInfoProto", "TypeProto", "TypeProto.Sequence/Optional",
    "TypeProto.Map", "TrainingInfoProto", "FunctionProto",
};

/* What field `field` of a message of kind m holds, when it recurses. */
static enum msg child(enum msg m, uint64_t field)
{
    switch (m) {
    case MODEL:
        return field == 7 ? GRAPH : field == 20 ? TRAINING : field == 25 ? FUNCTION : LEAF;
    case GRAPH:
        return field == 1 ? NODE : (field >= 11 && field <= 13) ? VALUE_INFO : LEAF;
    case NODE:
        return field == 5 ? ATTRIBUTE : LEAF;
    case ATTRIBUTE:
        return field == 6 || field == 11 ? GRAPH : field == 14 || field == 15 ? TYPE : LEAF;
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
    case LEAF:
        break;
    }
    return LEAF;
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

int arena_onnx_wire_check(const void *bytes, size_t size, const char *name, char *err,
                          size_t errlen)
{
    const unsigned char *data = bytes;
    struct {
        size_t end;
        enum msg kind;
    } stack[ARENA_ONNX_DEPTH_MAX + 1];
    size_t depth = 0, pos = 0;
    stack[0].end = size;
    stack[0].kind = MODEL;
    for (;;) {
        while (depth > 0 && pos == stack[depth].end)
            depth--;
        if (pos == stack[depth].end) /* depth 0: the whole file read */
            return ARENA_OK;
        size_t at = pos, end = stack[depth].end;
        const char *where = msg_names[stack[depth].kind];
        uint64_t tag, v;
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
        switch (tag & 7) {
        case 0:
            if (!varint(data, end, &pos, &v))
                return arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                                    "%s: %s: byte %zu: field %llu: varint cut short", name, where,
                                    at, (unsigned long long)field);
            break;
        case 1:
        case 5: {
            size_t w = (tag & 7) == 1 ? 8 : 4;
            if (end - pos < w)
                return arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                                    "%s: %s: byte %zu: field %llu: %zu-byte value past the end of"
                                    " its message",
                                    name, where, at, (unsigned long long)field, w);
            pos += w;
            break;
        }
        case 2: {
            if (!varint(data, end, &pos, &v) || v > end - pos)
                return arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                                    "%s: %s: byte %zu: field %llu: length past the end of its"
                                    " message",
                                    name, where, at, (unsigned long long)field);
            enum msg k = child(stack[depth].kind, field);
            if (k == LEAF) {
                pos += (size_t)v;
                break;
            }
            if (depth == ARENA_ONNX_DEPTH_MAX)
                return arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                                    "%s: %s: byte %zu: messages nested more than %d deep",
                                    name, where, at, ARENA_ONNX_DEPTH_MAX);
            depth++;
            stack[depth].end = pos + (size_t)v;
            stack[depth].kind = k;
            break;
        }
        default: /* 3 and 4 (groups) are not in proto3/ONNX; 6, 7 do not exist */
            return arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                                "%s: %s: byte %zu: field %llu: wire type %u is not used by ONNX",
                                name, where, at, (unsigned long long)field,
                                (unsigned)(tag & 7));
        }
    }
}
