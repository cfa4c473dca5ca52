/* test_tflm_head.c — TFLM's persistent records (graphs/tflm_head.h) against
 * figures worked out by hand from the record sizes docs/configurations.md
 * gives (tflite-micro 90b983c, 32-bit Cortex-M), and the head as the loaded
 * source carries it. */
#include <criterion/criterion.h>
#include <string.h>

#include "graphs/source.h"
#include "graphs/tflm_head.h"

static void load(const char *spec, enum arena_scratch_rule r, struct arena_source *src)
{
    char err[600] = "";
    struct arena_load_options lo = {.alignment = 16, .seed = 1, .scratch = r, .keep_graph = 1};
    cr_assert_eq(arena_source_load_with(spec, &lo, src, err, sizeof err), ARENA_OK, "%s", err);
}

/* The head of spec's graph run by rule's kernels, with no scratch request. */
static struct arena_tflm_head head_of(const char *spec, enum arena_scratch_rule rule)
{
    struct arena_source src;
    load(spec, ARENA_SCRATCH_NONE, &src);
    cr_expect_eq(src.has_head, 0, "no head without a scratch rule");
    struct arena_tflm_head h;
    arena_tflm_head_of(src.graph, rule, 0, &h);
    arena_source_free(&src);
    return h;
}

/* DS-CNN int8: 14 activations + 21 constants (5 convs, 4 depthwise, the FC:
 * filter and bias each; the reshape's shape) = 35 tensors, 13 ops. From the
 * end: 36 + 44 + 36 + 8 + 8 = 132; + 12 x 35 = 552; + 32 x 13 = 968; the
 * options, 9 convs of 28 = 1,220, the pool's 40 = 1,260, reshape 36 =
 * 1,296, FC 5 at 1 = 1,301, softmax 4 at 4 = 1,308. CMSIS-NN's OpData at
 * 16: 1,308 + 60 = 1,368 up to 1,376, then + 60 up to the next 16 for each
 * of the other 8 convs = 1,888; the pool's 36: 1,924 up to 1,936; the FC's
 * 72: 2,008 up to 2,016; the softmax's 64: 2,080 (OpData: 9 x 60 + 36 + 72
 * + 64 = 712 B). The 5 convs and 4 depthwise convs, 64 output channels
 * each, allocate 2 x 256 B of per-channel multipliers and shifts at 16:
 * + 9 x 512 = 6,688 (before the plan; kernel data 712 + 4,608 = 5,320).
 * The input: its pointer 6,692 up to 16 = 6,704; TfLiteTensor 32 = 6,736,
 * quantization 12 + 8 = 6,756; the output: 6,760 up to 16 = 6,768, + 32 +
 * 12 + 8 = 6,820. Planning: 12 x 12 requests' room = 144, + 4 = 148, + 24
 * x 35 = 988, up to 16 = 992, + 40 x 14 = 1,552. Whole with the 16,000 B
 * plan: 22,820 (planning needs 6,688 + 1,552 = 8,240). */
Test(tflm_head, ds_cnn_by_hand)
{
    struct arena_tflm_head h = head_of("ds-cnn", ARENA_SCRATCH_CMSIS_M4);
    cr_expect_eq(h.tensors, 35);
    cr_expect_eq(h.ops, 13);
    cr_expect_eq(h.kernel_bytes, 5320);
    cr_expect_eq(h.at_planning, 6688);
    cr_expect_eq(h.head, 6820);
    cr_expect_eq(h.planning, 1552);
    cr_expect_eq(arena_tflm_whole(&h, 16000), 22820);
}

/* fp32 under CMSIS-NN: the same OpData (2,080), but its conv kernels
 * allocate no per-channel arrays for float, and the input and output carry
 * no quantization: input 2,084 up to 16 = 2,096, + 32 = 2,128; output
 * 2,132 up to 16 = 2,144, + 32 = 2,176. TFLM's reference kernels: OpData
 * 56 for each conv (1,364 up to 1,376, then 64 each: 1,888), the pool's
 * 32 (1,920), the FC's 48 (1,968), the softmax's 56 (2,024 up to 2,032),
 * 640 B unaligned; the arrays for every type, + 4,608 = 6,640 before the
 * plan; input 6,656 + 32 = 6,688, output 6,692 up to 16 = 6,704, + 32 =
 * 6,736. */
Test(tflm_head, float_under_cmsis_nn_and_reference_kernels)
{
    struct arena_tflm_head h = head_of("ds-cnn:dtype=fp32", ARENA_SCRATCH_CMSIS_M4);
    cr_expect_eq(h.kernel_bytes, 712);
    cr_expect_eq(h.at_planning, 2080);
    cr_expect_eq(h.head, 2176);
    h = head_of("ds-cnn:dtype=fp32", ARENA_SCRATCH_REFERENCE);
    cr_expect_eq(h.kernel_bytes, 640 + 4608);
    cr_expect_eq(h.at_planning, 6640);
    cr_expect_eq(h.head, 6736);
}

/* The FC autoencoder: 11 activations + 20 constants = 31 tensors, 10 FC
 * ops. 132 + 372 = 504, + 320 = 824, ten options of 5 at alignment 1 =
 * 874; ten CMSIS-NN OpData of 72 at 16: 946 up to 960, then 80 each =
 * 1,680 (before the plan); input 1,684 up to 16 = 1,696, + 52 = 1,748;
 * output 1,752 up to 16 = 1,760, + 52 = 1,812. Planning: 148 + 24 x 31 =
 * 892, up to 16 = 896, + 40 x 11 = 1,336. Its plan is 768 B: 1,812 + 768
 * = 2,580 after AllocateTensors, but planning needs 1,680 + 1,336 =
 * 3,016, which is the arena. */
Test(tflm_head, planning_can_be_the_larger_moment)
{
    struct arena_tflm_head h = head_of("fc-autoencoder", ARENA_SCRATCH_CMSIS_M4);
    cr_expect_eq(h.tensors, 31);
    cr_expect_eq(h.at_planning, 1680);
    cr_expect_eq(h.head, 1812);
    cr_expect_eq(h.planning, 1336);
    cr_expect_eq(arena_tflm_whole(&h, 768), 3016);
    cr_expect_eq(arena_tflm_whole(&h, 100000), 101812);
}

/* The constants counted from the op kinds equal the tensor counts of
 * MLPerf Tiny's reference int8 files (flatc: kws_ref_model 35,
 * vww_96_int8 89, pretrainedResnet_quant 38, ad01_int8 31,
 * str_ww_ref_model 31). */
Test(tflm_head, tensor_counts_of_the_reference_files)
{
    const char *spec[] = {"ds-cnn", "mobilenetv1", "resnet8", "fc-autoencoder", "ds-tcn"};
    const uint64_t tensors[] = {35, 89, 38, 31, 31}, ops[] = {13, 31, 16, 10, 11};
    for (int k = 0; k < 5; k++) {
        struct arena_tflm_head h = head_of(spec[k], ARENA_SCRATCH_CMSIS_M4);
        cr_expect_eq(h.tensors, tensors[k], "%s: %llu", spec[k], (unsigned long long)h.tensors);
        cr_expect_eq(h.ops, ops[k], "%s", spec[k]);
    }
}

/* Under cmsis-nn:m4 DS-CNN's first conv (10x4) and its average pool ask
 * for scratch: two ScratchBufferHandles, 8 B before the plan (6,696);
 * input 6,700 up to 16 = 6,704, + 52 = 6,756; output 6,760 up to 16 =
 * 6,768, + 52 = 6,820. The loaded source carries it; its scratch tensors
 * are not the model's. */
Test(tflm_head, the_source_carries_it_under_a_scratch_rule)
{
    struct arena_source src;
    load("ds-cnn", ARENA_SCRATCH_CMSIS_M4, &src);
    cr_expect_eq(src.has_head, 1);
    cr_expect_eq(src.head.requests, 2);
    cr_expect_eq(src.head.tensors, 35);
    cr_expect_eq(src.head.at_planning, 6696);
    cr_expect_eq(src.head.head, 6820);
    arena_source_free(&src);
}

/* The part sizes the table and the figure compare against. */
Test(tflm_head, sram_sizes)
{
    cr_expect_eq(arena_sram_sizes[0], 131072);
    cr_expect_eq(arena_sram_sizes[2], 327680);
    cr_expect_eq(arena_sram_sizes[ARENA_SRAM_SIZES - 1], 1048576);
    cr_expect_str_eq(arena_sram_names[3], "512 KiB");
}
