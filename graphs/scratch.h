/* scratch.h — kernel scratch buffers as part of the problem (issue 46).
 *
 * On a microcontroller TensorFlow Lite Micro plans, beside the tensors, the
 * scratch buffers its kernels ask for at prepare time (CMSIS-NN's im2col
 * buffer of a convolution, say): each lives during its own op only. A rule
 * names the kernel library whose requests are modelled:
 *  - none: no scratch (the problem as before the rule existed);
 *  - cmsis-nn:m4: TFLM's CMSIS-NN kernels built for a Cortex-M with the DSP
 *    extension (M4, M7, M33), CMSIS-NN v7.0.0's *_get_buffer_size for s8,
 *    compiled by GCC ("cmsis-nn" alone means this);
 *  - cmsis-nn:m55: the same built for MVE (Cortex-M55, M85);
 *  - reference: TFLM's reference kernels.
 * The sizes, per op of int8 tensors (v = input, o = output, c channels,
 * k = kh kw, p = the padding before, as TFLM computes it):
 *  conv_2d          m4: 0 for 1x1 with no padding (GCC's 1x1 fast path),
 *                   else 2 x align4(k c_v) int16 = 4 align4(k c_v) bytes;
 *                   m55: 0 for 1x1 with no padding; 1xN convs (v 1 row
 *                   high, kh 1, sw c_v a multiple of 4) the 1xN buffer
 *                   (scratch.c); else 4 x 16 x ceil(k c_v / 16) bytes;
 *  depthwise_conv_2d (multiplier 1) m4: 0 for 3x3 with p <= 1, else
 *                   2 k c bytes; m55: 4 x 124 x k bytes (CH_IN_BLOCK_MVE
 *                   = 124); one input channel to several: the conv's
 *                   buffer plus k c_o; any other multiplier: 0;
 *  average_pool_2d  m4: 4 c bytes; m55: 0;
 *  fully_connected  0 (m55's kernel sums are a persistent buffer under
 *                   TFLM's default KERNELS_OPTIMIZED_FOR_SPEED, not
 *                   scratch);
 *  every other kind 0, but those whose kernels do ask for scratch and
 *                   are not modelled here (batch_matmul, svdf,
 *                   transpose_conv, LSTM; with reference also mean and the
 *                   reductions, add_n, mirror_pad, detection_postprocess):
 *                   refused (ARENA_EINVAL), never sized as 0.
 * fp32 ops run TFLM's reference kernels under every rule: 0 for the kinds
 * above. int16 and fp16 tensors are refused under cmsis-nn (their s16
 * functions are not modelled). A conv or depthwise conv must state its
 * window (graph.h: the families and the .tflite reader state it), else it
 * is refused.
 *
 * Where the scratch goes is a policy:
 *  - lifetime (TFLM's way): one tensor per requesting op, alive at that
 *    op's step only, planned with the activations;
 *  - tail: one tensor the size of the largest request, alive at every step
 *    (a region of its own at the arena's end, as in the 3-region arena);
 *  - online: no tensor at all (the planner plans today's problem, the plan
 *    that ships as TFLM's offline plan); the requests are kept beside the
 *    problem so bench can place them as TFLM will (the device arena). */
#ifndef ARENA_SCRATCH_H
#define ARENA_SCRATCH_H

#include <stddef.h>
#include <stdint.h>

#include "graphs/graph.h"

enum arena_scratch_rule {
    ARENA_SCRATCH_NONE = 0,
    ARENA_SCRATCH_CMSIS_M4,
    ARENA_SCRATCH_CMSIS_M55,
    ARENA_SCRATCH_REFERENCE,
};
#define ARENA_SCRATCH_RULES 4

enum arena_scratch_policy {
    ARENA_SCRATCH_LIFETIME = 0,
    ARENA_SCRATCH_TAIL,
    ARENA_SCRATCH_ONLINE,
};
#define ARENA_SCRATCH_POLICIES 3

/* "none", "cmsis-nn:m4", "cmsis-nn:m55", "reference"; NULL past them. */
const char *arena_scratch_name(enum arena_scratch_rule r);
/* "lifetime", "tail", "online"; NULL past them. */
const char *arena_scratch_policy_name(enum arena_scratch_policy p);
/* A rule by name ("cmsis-nn" is cmsis-nn:m4): ARENA_OK, else ARENA_ENOTFOUND. */
int arena_scratch_parse(const char *s, enum arena_scratch_rule *out);
int arena_scratch_policy_parse(const char *s, enum arena_scratch_policy *out);

/* The scratch bytes op asks for under rule r in *bytes (0: none).
 * ARENA_EINVAL, one line in err naming the op, for a kind whose scratch is
 * not modelled or a conv without a window. */
int arena_scratch_op_bytes(const struct arena_graph *g, uint32_t op, enum arena_scratch_rule r,
                           uint64_t *bytes, char *err, size_t errlen);

/* What the rule added to a graph. */
struct arena_scratch_report {
    size_t buffers;   /* ops that ask for scratch */
    uint64_t largest; /* the largest request, bytes (unaligned) */
    uint64_t total;   /* their sum, bytes (unaligned) */
};

/* Replaces *g by a copy with the rule's scratch tensors added after its own
 * tensors (ids kept), flagged is_scratch, int8 of the request's bytes:
 * under lifetime an extra output "OP/scratch" of each requesting op; under
 * tail one tensor "kernel-scratch" of the largest request that no op
 * touches, a graph input and output (alive at every step); under online
 * none (the report alone). Rule none, or no op asking for any: *g
 * unchanged. g must have passed arena_graph_check. */
int arena_graph_scratch(struct arena_graph *g, enum arena_scratch_rule r,
                        enum arena_scratch_policy policy, struct arena_scratch_report *report,
                        char *err, size_t errlen);

/* Under the online policy: the requests of g's ops in its execution order
 * as records {size rounded up to alignment, step, step}, one per requesting
 * op, malloc'd into *out (NULL when none), *n their count. ARENA_ENOMEM,
 * ARENA_EINVAL as arena_scratch_op_bytes. */
int arena_scratch_requests(const struct arena_graph *g, enum arena_scratch_rule r,
                           uint64_t alignment, struct arena_tensor **out, size_t *n, char *err,
                           size_t errlen);

#endif
