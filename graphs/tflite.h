/* tflite.h — TensorFlow Lite models (.tflite) as planning problems.
 *
 * A file whose bytes 4-7 are "TFL3" is read directly, without a FlatBuffers
 * library or schema, by the bounds-checked reader of flatbuf.h: the file is
 * untrusted, and a bad one is refused with one line naming the file, where
 * in the model the fault is, and what is wrong (truncated, offset out of
 * range, vtable outside the file, unknown type N, ...).
 *
 * What goes into the arena (as TensorFlow Lite's arena planner sees it):
 *  - a constant (its buffer holds data, or a size > 0) is not planned: it
 *    lives in the model;
 *  - an op whose present inputs are all constant (or themselves folded) is
 *    folded when the interpreter prepares (DEQUANTIZE of fp16 weights, say):
 *    its outputs are constants too. The op stays in the graph with no
 *    tensors, so step k is still the k-th op stored in the file;
 *  - a variable tensor (is_variable) persists across runs: it is counted
 *    apart (the head of the arena) and not planned;
 *  - every other tensor that an op touches, or that is a subgraph input or
 *    output, is planned; an input index of -1 (optional input absent) is
 *    skipped; tensors no op touches are left out.
 * Ops run in stored order; lifetimes are the project's (graph.h). A dynamic
 * dimension (-1 in shape_signature) is planned at its stored `shape`, and
 * the caller is told so through the warning. Tensor names are kept (made
 * unique: an empty name becomes "tensor<i>", a repeated one gets "#<i>");
 * op kinds are builtin names ("CONV_2D"), "CUSTOM:<name>", or the builtin
 * code as a number when it is past the names known here. */
#ifndef ARENA_TFLITE_H
#define ARENA_TFLITE_H

#include <stddef.h>
#include <stdint.h>

#include "graphs/graph.h"

/* Longest tensor or custom op name kept, in bytes (longer ones are cut). */
#define ARENA_TFLITE_NAME_MAX 120

struct arena_tflite_info {
    uint32_t subgraph, subgraphs; /* the one read, and how many the model has */
    size_t tensors;               /* tensors stored in the subgraph */
    size_t constants;             /* tensors with data in the model */
    size_t ops, folded;           /* ops stored, and of them folded */
    size_t planned;               /* tensors in the graph */
    size_t variables;             /* persistent, not planned */
    uint64_t variable_bytes;      /* their bytes, unaligned */
    size_t dynamic;               /* planned or variable tensors with a -1 in
                                     shape_signature */
    size_t unused;                /* non-constant tensors no op touches */
};

/* 1 when bytes 4-7 of data are "TFL3". */
int arena_tflite_is_model(const void *data, size_t size);

/* Reads subgraph `subgraph` of the model in data[0, size) into *g (tensor
 * names, dtypes, shapes, graph inputs and outputs, ops with their kinds).
 * name is used in messages only. The graph is not checked: the caller turns
 * it into a problem with arena_graph_problem(). On error returns
 * ARENA_EFORMAT (or ARENA_ENOMEM), one line in err, *g freed and zeroed. */
int arena_tflite_read(const void *data, size_t size, const char *name, uint32_t subgraph,
                      struct arena_graph *g, struct arena_tflite_info *info, char *err,
                      size_t errlen);

/* Splits "FILE#N" (subgraph N of the model FILE) when text itself is not a
 * file and FILE is one or ends in .tflite: 1 with FILE in path and N in
 * *subgraph (leading zeros read as the number: "#01" is subgraph 1);
 * 0 when there is no such suffix (*subgraph 0, path untouched); ARENA_EINVAL
 * with one line in err when what follows '#' is not a whole number from 0
 * to 2^32 - 1 ("m.tflite#-1", "m.tflite#4294967296"). */
int arena_tflite_split(const char *text, char *path, size_t cap, uint32_t *subgraph,
                       char *err, size_t errlen);

/* The file to open for text ("FILE", or "FILE#N" when text itself is not
 * a file: buf holds FILE) and the subgraph (N, else 0). */
const char *arena_tflite_path(const char *text, char *buf, size_t cap, uint32_t *subgraph);

/* What arena_tflite_load gives besides the graph. */
struct arena_tflite_loaded {
    char *warning;             /* NULL or one malloc'd line for the user:
                                  dynamic dims planned at their stored shape,
                                  variable tensors left out */
    uint32_t *index;           /* malloc'd: each graph tensor's index in the
                                  subgraph's tensors (the model's own
                                  numbering, constants included) */
    uint64_t variable_bytes;   /* the variable tensors' bytes, unaligned:
                                  they persist, kept apart from the plan */
};

/* Reads subgraph sub of the model file path into *g (not checked: the
 * loader, graphs/source.c, checks it and turns it into a problem). A
 * regular file above 2 GiB, or whose first 8 bytes cannot start a model of
 * its size (no "TFL3", a root offset past its end), is refused before it
 * is read. Errors as arena_tflite_read, plus ARENA_EIO when the file cannot
 * be read, one line starting with the path. *g and *x are zeroed on error;
 * on success free x with arena_tflite_loaded_free. */
int arena_tflite_load(const char *path, uint32_t sub, struct arena_graph *g,
                      struct arena_tflite_loaded *x, char *err, size_t errlen);
/* The same for a model already in memory (data[0, size)); path names it in
 * messages. */
int arena_tflite_load_data(const void *data, size_t size, const char *path, uint32_t sub,
                           struct arena_graph *g, struct arena_tflite_loaded *x, char *err,
                           size_t errlen);
void arena_tflite_loaded_free(struct arena_tflite_loaded *x);

#endif
