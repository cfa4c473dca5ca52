/* onnx_wire.h — the check an ONNX file's bytes pass before protobuf-c
 * unpacks them: every tag, varint and length within the bytes of its
 * message, and messages on ONNX's recursive paths (graphs in attributes,
 * types in types) nested at most ARENA_ONNX_DEPTH_MAX deep, so unpacking
 * (which recurses) stays within a small stack whatever the file; and a
 * copy without the weights, which the planner never needs. */
#ifndef ARENA_ONNX_WIRE_H
#define ARENA_ONNX_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define ARENA_ONNX_DEPTH_MAX 64

/* ARENA_OK, or ARENA_EFORMAT with one line in err starting "NAME: " that
 * names the message and byte offset at fault (ARENA_ENOMEM, "NAME: out of
 * memory"). */
int arena_onnx_wire_check(const void *data, size_t size, const char *name, char *err,
                          size_t errlen);

/* The same check; on success *out (malloc'd, *out_size bytes) is the file
 * without the data fields of its TensorProtos (float_data, int32_data,
 * string_data, int64_data, raw_data, double_data, uint64_data): the same
 * model for everything but weight values, every length prefix rewritten.
 * *out is NULL on error. */
int arena_onnx_wire_strip(const void *data, size_t size, const char *name,
                          unsigned char **out, size_t *out_size, char *err, size_t errlen);

#endif
