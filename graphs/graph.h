/* graph.h — a DAG of ops over named tensors, its checks, and the lifetimes
 * that turn it into a planning problem.
 *
 * Tensors have a name, a shape, an element type and bytes = product of the
 * dims x element size. Ops have a name, a kind ("conv2d", "add", ...) and
 * name lists of the tensors they read and write. The execution order is the
 * order in which ops were added, unless `order` says otherwise; op order[k]
 * runs at step k.
 *
 * Lifetimes (TensorFlow Lite Micro's convention): a tensor lives over the
 * closed interval [first, last] where first = the step of the op that writes
 * it and last = the step of the last op that reads it (first when nothing
 * reads it). A graph input lives from step 0; a graph output lives to the
 * last step. */
#ifndef ARENA_GRAPH_H
#define ARENA_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "planners/problem.h"

enum arena_dtype {
    ARENA_DTYPE_INT8,
    ARENA_DTYPE_INT16,
    ARENA_DTYPE_FP16,
    ARENA_DTYPE_FP32,
    /* The types below come only from model files (.tflite): families and
     * graph files choose from the four above. */
    ARENA_DTYPE_INT32,
    ARENA_DTYPE_UINT8,
    ARENA_DTYPE_INT64,
    ARENA_DTYPE_BOOL,
    ARENA_DTYPE_FP64,
    ARENA_DTYPE_UINT64,
    ARENA_DTYPE_UINT32,
    ARENA_DTYPE_UINT16,
};
#define ARENA_DTYPE_COUNT 4  /* the choices of families and graph files */
#define ARENA_DTYPE_ALL 12   /* every type a graph may hold */

/* The names in enum order, then NULL: the choices of a family's dtype key. */
extern const char *const arena_dtype_choices[ARENA_DTYPE_COUNT + 1];

/* "int8", "int16", "fp16", "fp32", "int32", ... "uint16"; NULL for other
 * values. */
const char *arena_dtype_name(enum arena_dtype t);
/* Bytes per element: 1, 2, 2, 4, 4, 1, 8, 1, 8, 8, 4, 2 (0 for other values). */
unsigned arena_dtype_size(enum arena_dtype t);
/* ARENA_OK and *out set when s is one of the names above, else ARENA_ENOTFOUND. */
int arena_dtype_parse(const char *s, enum arena_dtype *out);

#define ARENA_GRAPH_MAX_RANK 6

struct arena_gtensor {
    char *name;
    enum arena_dtype dtype;
    uint32_t rank;
    uint64_t dims[ARENA_GRAPH_MAX_RANK];
    uint64_t bytes;      /* product of dims x element size; 0 when a dim is 0
                            or the product overflows (overflow is set) */
    unsigned char overflow;  /* bytes do not fit ARENA_SIZE_MAX */
    unsigned char is_input;  /* graph input: lives from step 0 */
    unsigned char is_output; /* graph output: lives to the last step */
    unsigned char is_scratch; /* a kernel's scratch buffer (graphs/scratch.h),
                                 not a tensor of the model */
    uint32_t line;       /* line in a graph file, 0 when built in code */
};

/* An op's optional spatial window, for transforms that need geometry
 * (graphs/patch.h). Inputs and output are NHWC with batch 1; output row y
 * reads input rows [y*sh - pad_top, y*sh - pad_top + kh), clipped to the
 * input (likewise columns), and every input of the op the same way (an add
 * reads the same window of both). kh = 0: the op states no window. */
struct arena_gop_window {
    uint32_t kh, kw;         /* kernel rows, columns */
    uint32_t sh, sw;         /* strides */
    uint32_t pad_top, pad_left; /* rows, columns of padding before the input */
    uint64_t macs_per_out;   /* multiply-accumulates per output element: kh kw
                                Cin for a conv, kh kw for a depthwise conv, 0
                                for an elementwise op */
};

struct arena_gop {
    char *name;
    char *kind;
    size_t in_first, n_in;   /* g->refs[in_first .. in_first+n_in) */
    size_t out_first, n_out; /* g->refs[out_first .. out_first+n_out) */
    uint32_t line;           /* line in a graph file, 0 when built in code */
    struct arena_gop_window win; /* all zero unless the builder states it */
};

struct arena_graph {
    struct arena_gtensor *tensors;
    size_t n_tensors, cap_tensors;
    struct arena_gop *ops;
    size_t n_ops, cap_ops;
    uint32_t *refs; /* tensor ids named by ops' inputs and outputs */
    size_t n_refs, cap_refs;
    uint32_t *order; /* n_ops op ids, or NULL for the order of insertion */
    int status;      /* first builder failure, latched: later adds do nothing */
};

/* An empty graph (all zero is also a valid empty graph). */
void arena_graph_init(struct arena_graph *g);
void arena_graph_free(struct arena_graph *g);

/* The bytes of a tensor of rank dims of elem bytes each: the product, 0
 * when any dim is 0 (wherever it is, even after dims whose product alone
 * would overflow). ARENA_EOVERFLOW (and *bytes 0) when the product passes
 * ARENA_SIZE_MAX. */
int arena_shape_bytes(uint64_t elem, uint32_t rank, const uint64_t *dims, uint64_t *bytes);

/* Builders. Each copies its strings. They validate nothing but memory and the
 * id ranges (ARENA_EINVAL for an id past the tensors added so far or a rank
 * above ARENA_GRAPH_MAX_RANK); arena_graph_check() does the rest. The first
 * failure is latched in g->status and every later builder call returns it,
 * so a generator may check once at the end. */
int arena_graph_tensor_add(struct arena_graph *g, const char *name, enum arena_dtype dtype,
                           uint32_t rank, const uint64_t *dims, uint32_t *id);
int arena_graph_op_add(struct arena_graph *g, const char *name, const char *kind,
                       const uint32_t *in, size_t n_in, const uint32_t *out, size_t n_out);
/* The same for generators, named like "prefix17" (prefix and i): the
 * tensor's id (0 after a failure, which is latched as above), and an op of
 * one output. */
uint32_t arena_gen_tensor(struct arena_graph *g, const char *prefix, size_t i,
                          enum arena_dtype dtype, uint32_t rank, const uint64_t *dims);
void arena_gen_op(struct arena_graph *g, const char *prefix, size_t i, const char *kind,
                  const uint32_t *in, size_t n_in, uint32_t out);

/* An op kind as the tables of graphs/ match it: lower case, '_' and '-'
 * dropped ("DEPTHWISE_CONV_2D" and "depthwise_conv_2d" are both
 * "depthwiseconv2d"). 1 and key written, or 0 when it does not fit cap
 * (longer than any kind a table names). */
int arena_op_kind_key(const char *kind, char *key, size_t cap);
/* States the spatial window of the op added last (ARENA_EINVAL when there
 * is none, or kh, kw, sh or sw is 0). */
int arena_graph_op_window_set(struct arena_graph *g, const struct arena_gop_window *w);
/* Sets an explicit execution order (copied; n must equal g->n_ops). */
int arena_graph_order_set(struct arena_graph *g, const uint32_t *order, size_t n);

/* Where a check failed: ids (SIZE_MAX when not applicable). */
struct arena_graph_fault {
    size_t op;     /* op id */
    size_t tensor; /* tensor id */
};

/* Every check, in this order, each with its own one-line message in err:
 *  - no ops at all, or more ops or tensors than fit in uint32_t (ARENA_EINVAL);
 *  - a tensor with an empty or duplicate name, an op with an empty or
 *    duplicate name (ARENA_EINVAL);
 *  - a tensor of zero bytes (ARENA_EINVAL) or more than ARENA_SIZE_MAX bytes
 *    (ARENA_EOVERFLOW);
 *  - a dangling tensor: one no op reads or writes and that is neither a
 *    graph input nor output (ARENA_EINVAL);
 *  - a tensor written twice by one op or by two ops, a graph input written
 *    by an op, a graph
 *    output never written nor input (ARENA_EINVAL);
 *  - a cycle among the ops (ARENA_EINVAL);
 *  - an order that is not a permutation of the ops, or that runs an op
 *    before the op writing one of its inputs: "not topological" (ARENA_EINVAL);
 *  - a tensor read that no op writes and that is not a graph input:
 *    "read before it is written" (ARENA_EINVAL).
 * ARENA_ENOMEM when working memory fails. fault (may be NULL) names the op
 * and/or tensor at fault. A latched builder failure is returned first. */
int arena_graph_check(const struct arena_graph *g, struct arena_graph_fault *fault,
                      char *err, size_t errlen);

/* Checks the graph, then fills *out with one record per tensor in tensor id
 * order: size = bytes rounded up to alignment, [first, last] as above.
 * ARENA_EOVERFLOW, naming the tensor, when an aligned size passes
 * ARENA_SIZE_MAX or the sizes' sum passes 2^64 - 1.
 * out->tensors is malloc'd (free it); *out is zeroed on any error. */
int arena_graph_problem(const struct arena_graph *g, uint64_t alignment,
                        struct arena_problem *out, struct arena_graph_fault *fault,
                        char *err, size_t errlen);

/* Tensor id by name, in O(n) (for tests and small graphs). ARENA_ENOTFOUND. */
int arena_graph_tensor_find(const struct arena_graph *g, const char *name, uint32_t *id);

/* The op run at step k. */
static inline uint32_t arena_graph_op_at(const struct arena_graph *g, size_t k)
{
    return g->order ? g->order[k] : (uint32_t)k;
}

#endif
