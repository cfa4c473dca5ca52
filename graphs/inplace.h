/* inplace.h — which ops may write their output over an input (in-place
 * operators), as alias candidates for the problem (planners/problem.h).
 *
 * Rules:
 *  - none: no op runs in place (every result as before the rule existed);
 *  - elementwise: ops of an elementwise or reshaping kind (TensorFlow Lite's
 *    and HMCOS's rule): ADD, SUB, MUL, the activations (RELU, RELU6,
 *    LOGISTIC, TANH, HARD_SWISH, ...; ONNX Relu, Clip, Sigmoid, HardSigmoid,
 *    HardSwish, ...), batch normalisation, RESHAPE, SQUEEZE, EXPAND_DIMS
 *    (ONNX Reshape, Squeeze, Unsqueeze, Flatten), QUANTIZE and DEQUANTIZE
 *    (ONNX QuantizeLinear, DequantizeLinear), SOFTMAX; the input must have
 *    the output's byte size;
 *  - depthwise: elementwise, plus DEPTHWISE_CONV_2D (TinyEngine, MCUNet),
 *    whose input need only be at least as large as its output.
 * Kinds match case-insensitively, underscores and dashes ignored
 * ("DEPTHWISE_CONV_2D", "depthwise_conv2d" and "DepthwiseConv2D" are one
 * kind); a kind not in the table never runs in place.
 *
 * For a given execution order, (output, input) is a candidate when the op
 * is of an in-place kind under the rule, has exactly one output, and the
 * input fits the kind's size rule, is neither a graph input nor a graph
 * output, and dies at that op (no op after it in the order reads it). */
#ifndef ARENA_INPLACE_H
#define ARENA_INPLACE_H

#include <stddef.h>
#include <stdint.h>

#include "graphs/graph.h"
#include "planners/problem.h"

enum arena_inplace_rule {
    ARENA_INPLACE_NONE = 0,
    ARENA_INPLACE_ELEMENTWISE,
    ARENA_INPLACE_DEPTHWISE,
};

/* "none", "elementwise", "depthwise", then NULL (the rule's order). */
extern const char *const arena_inplace_choices[];
/* The rule's name; NULL for other values. */
const char *arena_inplace_name(enum arena_inplace_rule r);
/* ARENA_OK and *out when s names a rule, else ARENA_ENOTFOUND. */
int arena_inplace_parse(const char *s, enum arena_inplace_rule *out);

/* What an op of kind `kind` may do under rule r. */
enum arena_inplace_kind {
    ARENA_INPLACE_KIND_NOT = 0, /* never in place */
    ARENA_INPLACE_KIND_EQUAL,   /* output over an input of the same byte size */
    ARENA_INPLACE_KIND_INSIDE,  /* output inside an input at least as large */
};
enum arena_inplace_kind arena_inplace_kind_of(const char *kind, enum arena_inplace_rule r);

/* The order-free half of the rule: whether input tensor t of op would be
 * a candidate if t died at op (kind, one output, size, not a graph input or
 * output). An order search asks this once per (op, input) and adds the
 * order's half itself: t dies at op when every other op reading t has run. */
int arena_inplace_op_may(const struct arena_graph *g, uint32_t op, uint32_t t,
                         enum arena_inplace_rule r);

/* The candidates of g run in `order` (n_ops op ids, a topological order;
 * NULL: the graph's own order) under rule r, in step order, each
 * (output, input) once: *out is malloc'd (NULL when none; free it) with *n
 * pairs; when step_first is not NULL (n_ops + 1 entries) the candidates of
 * the op at step k are (*out)[step_first[k] .. step_first[k + 1]).
 * Tensor ids are the graph's, which are the problem's
 * (arena_graph_problem). ARENA_ENOMEM, ARENA_EINVAL for an order that is
 * not a permutation of the ops. */
int arena_inplace_candidates(const struct arena_graph *g, const uint32_t *order,
                             enum arena_inplace_rule r, struct arena_alias **out, size_t *n,
                             size_t *step_first);

/* arena_graph_problem, then the candidates of the graph's order under r
 * attached to *out (out->alias malloc'd: free it with out->tensors; none
 * for ARENA_INPLACE_NONE). */
int arena_graph_problem_inplace(const struct arena_graph *g, uint64_t alignment,
                                enum arena_inplace_rule r, struct arena_problem *out,
                                struct arena_graph_fault *fault, char *err, size_t errlen);

#endif
