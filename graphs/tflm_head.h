/* tflm_head.h — the bytes TensorFlow Lite Micro keeps in the tensor arena
 * beside the planned section: its persistent records for a model (issue 46).
 *
 * One `uint8_t g_tensor_arena[N]` holds, in TFLM's words, a head (the
 * planned section: the activations and the kernels' scratch buffers, what
 * the planners plan) growing up from the start, and a tail of persistent
 * records growing down from the end. This project calls that tail "the
 * head" of the arena (static data about the model, docs/configurations.md).
 * Its size on a 32-bit Cortex-M (4-byte pointers, TF_LITE_STATIC_MEMORY as
 * TFLM builds itself), read from tflite-micro at commit 90b983c (2026-08-20)
 * and worked out record by record in docs/configurations.md, allocated in
 * this order, each at its own alignment, downwards from an end aligned to
 * 16 (MicroArenaBufferAlignment):
 *   the arena allocator (36 B), the GreedyMemoryPlanner object (44 B), the
 *   MicroAllocator (36 B), the builtin-data allocator (8 B), one
 *   SubgraphAllocations (8 B); a TfLiteEvalTensor (12 B) per tensor of the
 *   model, its constants included; a NodeAndRegistration (32 B) per op; each
 *   op's parsed options (TfLiteConvParams 28 B, TfLiteDepthwiseConvParams
 *   28, TfLitePoolParams 40, TfLiteFullyConnectedParams 5 at alignment 1,
 *   TfLiteSoftmaxParams 4, TfLiteReshapeParams 36, TfLiteAddParams 2 at 1;
 *   other kinds 0); each kernel's OpData from its Init, at alignment 16
 *   (CMSIS-NN's / the reference kernels': conv and depthwise conv 60 / 56,
 *   fully connected 72 / 48, pools 36 / 32, softmax 64 / 56, add 60,
 *   reshape none; other kinds 0); each conv_2d's and depthwise_conv_2d's per-channel
 *   output multipliers and shifts, 2 x 4 B per output channel, each array
 *   at alignment 16 (CMSIS-NN's kernels: int8 and int16 only; the
 *   reference kernels: every type); a ScratchBufferHandle (4 B) per scratch
 *   request; then
 *   the interpreter's input and output TfLiteTensor pointers (4 B each, one
 *   block per side at alignment 16) and per input and output a TfLiteTensor
 *   (32 B) and, for a quantized type, a TfLiteAffineQuantization (12 B) and
 *   its one-channel zero-point array (8 B).
 * The model's constants are counted from the op kinds as TensorFlow Lite's
 * converter lays them out: a filter and a bias per conv_2d,
 * depthwise_conv_2d and fully_connected, a shape per reshape (MLPerf Tiny's
 * five reference files: exactly their tensor counts).
 *
 * While it plans (MicroAllocator::CommitStaticMemoryPlan) TFLM also needs,
 * above the records made so far, the scratch requests (12 B each, room for
 * 12 more), an AllocationInfo (24 B) per tensor and request, and 40 B of the
 * GreedyMemoryPlanner's working arrays per planned buffer: for a small
 * network that is more than its planned section, so the whole arena is the
 * larger of the two moments.
 *
 * Left out (an arena sized from these figures can still be too small):
 * the kernels' other persistent data (OpData of kinds not listed, a
 * per-channel quantized fully connected's arrays, MVE's fully-connected
 * kernel sums, int16 softmax tables),
 * variable tensors, multi-channel quantization of inputs and outputs,
 * further subgraphs, the temporary tensors of each op's Prepare, the
 * arena's start alignment (up to 15 B when g_tensor_arena is not aligned
 * to 16), and options of kinds not listed above. */
#ifndef ARENA_TFLM_HEAD_H
#define ARENA_TFLM_HEAD_H

#include <stddef.h>
#include <stdint.h>

#include "graphs/graph.h"
#include "graphs/scratch.h"

struct arena_tflm_head {
    uint64_t tensors;   /* the model's tensors: activations and constants */
    uint64_t ops;
    uint64_t requests;  /* kernel scratch requests */
    uint64_t kernel_bytes; /* the kernels' OpData and the convs' per-channel
                              arrays among the records (unaligned) */
    uint64_t head;      /* the persistent records after AllocateTensors, B */
    uint64_t at_planning; /* the records made before the plan, B */
    uint64_t planning;  /* the planned section's need while TFLM plans, B */
};

/* The head of graph g (its scratch tensors, flagged is_scratch, not
 * counted as the model's) run by rule's kernels (which decides the convs'
 * per-channel arrays) with `requests` kernel scratch requests. */
void arena_tflm_head_of(const struct arena_graph *g, enum arena_scratch_rule rule,
                        uint64_t requests, struct arena_tflm_head *out);

/* The whole arena for a planned section of `middle` bytes: the larger of
 * head + middle (after AllocateTensors) and the records made before the
 * plan, rounded up to 16, plus TFLM's planning need. */
uint64_t arena_tflm_whole(const struct arena_tflm_head *h, uint64_t middle);

/* The SRAM of common microcontrollers, bytes, ascending: 128, 256, 320,
 * 512 KiB and 1 MiB (what the table and the MCU figure compare against). */
#define ARENA_SRAM_SIZES 5
extern const uint64_t arena_sram_sizes[ARENA_SRAM_SIZES];
extern const char *const arena_sram_names[ARENA_SRAM_SIZES]; /* "128 KiB" ... "1 MiB" */

#endif
