/* test_mlperf_tiny.c — MLPerf Tiny's networks as families (graphs/ds_cnn.c,
 * mobilenetv1.c, resnet8.c, fc_autoencoder.c, ds_tcn.c over nnlayers.c),
 * each against the facts of its reference int8 .tflite in mlcommons/tiny
 * (benchmark/training/<task>/trained_models/), read with bench's own
 * reader and written down here by hand: every planned tensor's bytes and
 * lifetime [first, last] in id order, the op count and the lower bound.
 * The files themselves are not in the tree (CI cannot fetch them); the
 * float32 references hold the same graphs at 4 bytes an element.
 *
 * Sizes are worked out from the shapes: a conv's output is
 * ceil(in / stride) rows under SAME, (in - k) + 1 under VALID. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "graphs/family.h"
#include "graphs/source.h"
#include "planners/planner.h"

struct rec {
    uint64_t size;
    uint32_t first, last;
};

static struct arena_source load(const char *spec)
{
    struct arena_source s;
    char err[256];
    cr_assert_eq(arena_source_load(spec, 1, 1, &s, err, sizeof err), ARENA_OK, "%s: %s", spec,
                 err);
    return s;
}

/* spec's problem at alignment 1 holds exactly want[0, n), its graph ops
 * ops, and its lower bound is lb; the fp32 spelling holds 4x the sizes. */
static void expect_problem(const char *spec, const struct rec *want, size_t n, size_t ops,
                           uint64_t lb)
{
    for (unsigned scale = 1; scale <= 4; scale += 3) {
        char text[128];
        snprintf(text, sizeof text, scale == 1 ? "%s" : "%s:dtype=fp32", spec);
        struct arena_source s = load(text);
        cr_expect_eq(s.ops, ops, "%s: %zu ops, want %zu", text, s.ops, ops);
        cr_assert_eq(s.problem.n, n, "%s: %zu tensors, want %zu", text, s.problem.n, n);
        for (size_t i = 0; i < n; i++) {
            const struct arena_tensor *t = &s.problem.tensors[i];
            cr_expect(t->size == want[i].size * scale && t->first == want[i].first &&
                          t->last == want[i].last,
                      "%s: tensor %zu (%s) is %llu B over [%u, %u], want %llu B over [%u, %u]",
                      text, i, s.names[i], (unsigned long long)t->size, t->first, t->last,
                      (unsigned long long)(want[i].size * scale), want[i].first, want[i].last);
        }
        struct arena_bounds b;
        cr_assert_eq(arena_problem_bounds(&s.problem, &b), ARENA_OK);
        cr_expect_eq(b.lower_bound, lb * scale, "%s: lower bound %llu, want %llu", text,
                     (unsigned long long)b.lower_bound, (unsigned long long)(lb * scale));
        arena_source_free(&s);
    }
}

/* kws_ref_model.tflite: input 49x10x1 = 490; conv 10x4 s2 SAME -> 25x5x64 =
 * 8,000; 4 x (depthwise, pointwise) at 8,000; pool and reshape 64; FC and
 * softmax 12. Two 8,000 B maps are live at every conv: bound 16,000. */
Test(mlperf_tiny, ds_cnn_matches_kws_ref_model)
{
    static const struct rec want[] = {
        {490, 0, 0},   {8000, 0, 1},  {8000, 1, 2},  {8000, 2, 3}, {8000, 3, 4},
        {8000, 4, 5},  {8000, 5, 6},  {8000, 6, 7},  {8000, 7, 8}, {8000, 8, 9},
        {64, 9, 10},   {64, 10, 11},  {12, 11, 12},  {12, 12, 12},
    };
    expect_problem("ds-cnn", want, sizeof want / sizeof want[0], 13, 16000);
}

/* vww_96_int8.tflite: 96x96x3 = 27,648; conv s2 -> 48x48x8 = 18,432; then
 * (depthwise, pointwise) pairs: 48x48x8, 48x48x16 = 36,864; 24x24x16 =
 * 9,216, 24x24x32 = 18,432 (x3); 12x12x32 = 4,608, 12x12x64 = 9,216 (x3);
 * 6x6x64 = 2,304, 6x6x128 = 4,608 (x11); 3x3x128 = 1,152, 3x3x256 = 2,304
 * (x3); pool, reshape 256; FC, softmax 2. Bound: the pointwise from
 * 48x48x8 to 48x48x16, 18,432 + 36,864 = 55,296. */
Test(mlperf_tiny, mobilenetv1_matches_vww_96_int8)
{
    static const struct rec want[] = {
        {27648, 0, 0}, {18432, 0, 1}, {18432, 1, 2}, {36864, 2, 3}, {9216, 3, 4},
        {18432, 4, 5}, {18432, 5, 6}, {18432, 6, 7}, {4608, 7, 8},  {9216, 8, 9},
        {9216, 9, 10}, {9216, 10, 11}, {2304, 11, 12}, {4608, 12, 13}, {4608, 13, 14},
        {4608, 14, 15}, {4608, 15, 16}, {4608, 16, 17}, {4608, 17, 18}, {4608, 18, 19},
        {4608, 19, 20}, {4608, 20, 21}, {4608, 21, 22}, {4608, 22, 23}, {1152, 23, 24},
        {2304, 24, 25}, {2304, 25, 26}, {2304, 26, 27}, {256, 27, 28}, {256, 28, 29},
        {2, 29, 30},   {2, 30, 30},
    };
    expect_problem("mobilenetv1", want, sizeof want / sizeof want[0], 31, 55296);
}

/* pretrainedResnet_quant.tflite: 32x32x3 = 3,072; stem and stack 1 at
 * 32x32x16 = 16,384, the stem's output read by the add (step 3), the add's
 * by stack 2's conv (4) and its shortcut (6); stack 2 at 16x16x32 = 8,192,
 * stack 3 at 8x8x64 = 4,096; pool, reshape 64; FC, softmax 10. Bound: step
 * 2 or 3, three 16,384 B maps = 49,152. */
Test(mlperf_tiny, resnet8_matches_pretrained_resnet_quant)
{
    static const struct rec want[] = {
        {3072, 0, 0},  {16384, 0, 3}, {16384, 1, 2}, {16384, 2, 3}, {16384, 3, 6},
        {8192, 4, 5},  {8192, 5, 7},  {8192, 6, 7},  {8192, 7, 10}, {4096, 8, 9},
        {4096, 9, 11}, {4096, 10, 11}, {4096, 11, 12}, {64, 12, 13}, {64, 13, 14},
        {10, 14, 15},  {10, 15, 15},
    };
    expect_problem("resnet8", want, sizeof want / sizeof want[0], 16, 49152);
}

/* ad01_int8.tflite: 640 in, 4 x 128, 8, 4 x 128, 640 out (the output lives
 * to the last step). Bound: the first and last layers, 640 + 128 = 768. */
Test(mlperf_tiny, fc_autoencoder_matches_ad01_int8)
{
    static const struct rec want[] = {
        {640, 0, 0}, {128, 0, 1}, {128, 1, 2}, {128, 2, 3}, {128, 3, 4}, {8, 4, 5},
        {128, 5, 6}, {128, 6, 7}, {128, 7, 8}, {128, 8, 9}, {640, 9, 9},
    };
    expect_problem("fc-autoencoder", want, sizeof want / sizeof want[0], 10, 768);
}

/* str_ww_ref_model.tflite: 30x1x40 = 1,200; depthwise 3x1 VALID -> 28x1x40
 * = 1,120, pointwise -> 28x1x128 = 3,584; 5x1 -> 24 frames: 3,072 twice;
 * 10x1 -> 15: 1,920 twice; 15x1 -> 1: 128, pointwise -> 32; reshape 32; FC,
 * softmax 3. Bound: step 2, 3,584 + 3,072 = 6,656. */
Test(mlperf_tiny, ds_tcn_matches_str_ww_ref_model)
{
    static const struct rec want[] = {
        {1200, 0, 0}, {1120, 0, 1}, {3584, 1, 2}, {3072, 2, 3}, {3072, 3, 4}, {1920, 4, 5},
        {1920, 5, 6}, {128, 6, 7},  {32, 7, 8},   {32, 8, 9},   {3, 9, 10},   {3, 10, 10},
    };
    expect_problem("ds-tcn", want, sizeof want / sizeof want[0], 11, 6656);
}

/* The keys papers vary: widths and resolutions change the shapes as the
 * architecture says. */
Test(mlperf_tiny, width_and_resolution_keys)
{
    struct arena_source s = load("mobilenetv1:alpha=1,res=128");
    /* conv 3x3 s2: 64x64x32; the last pointwise 4x4x1024 */
    cr_expect_eq(s.problem.tensors[1].size, 64 * 64 * 32);
    cr_expect_eq(s.problem.tensors[26].size, 4 * 4 * 1024);
    cr_expect_str_eq(s.spec, "mobilenetv1:alpha=1,res=128,classes=2,dtype=int8");
    arena_source_free(&s);
    s = load("ds-cnn:filters=172,blocks=5");
    cr_expect_eq(s.ops, 15);
    cr_expect_eq(s.problem.tensors[1].size, 25 * 5 * 172);
    arena_source_free(&s);
    s = load("resnet8:width=32");
    cr_expect_eq(s.problem.tensors[12].size, 8 * 8 * 128);
    arena_source_free(&s);
    s = load("fc-autoencoder:width=256,bottleneck=16");
    cr_expect_eq(s.problem.tensors[4].size, 256);
    cr_expect_eq(s.problem.tensors[5].size, 16);
    arena_source_free(&s);
    s = load("ds-tcn:filters=64");
    cr_expect_eq(s.problem.tensors[2].size, 28 * 64);
    cr_expect_eq(s.problem.tensors[8].size, 32);
    arena_source_free(&s);
}

Test(mlperf_tiny, bad_values_are_refused_in_one_line)
{
    struct arena_source s;
    char err[256];
    cr_expect_eq(arena_source_load("mobilenetv1:alpha=0.3", 1, 1, &s, err, sizeof err),
                 ARENA_EINVAL);
    cr_expect_str_eq(err, "mobilenetv1: key 'alpha': 0.3 is not one of 0.25, 0.5, 0.75, 1");
    cr_expect_eq(arena_source_load("mobilenetv1:res=100", 1, 1, &s, err, sizeof err),
                 ARENA_EINVAL);
    cr_expect_str_eq(err, "mobilenetv1: key 'res': 100 is not a multiple of 32");
}

/* Every conv states its window, as a converter-made graph has one: kernel,
 * stride, padding and MACs per output (what kernel scratch is sized by). */
Test(mlperf_tiny, convs_state_their_windows)
{
    struct arena_spec sp;
    struct arena_graph g;
    char err[256];
    arena_graph_init(&g);
    cr_assert_eq(arena_spec_parse("ds-cnn", 1, &sp, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_eq(arena_spec_graph(&sp, &g, err, sizeof err), ARENA_OK, "%s", err);
    const struct arena_gop *c = &g.ops[0];
    cr_expect_str_eq(c->kind, "conv_2d");
    /* 10x4 stride 2 on 49x10: 25x5 out, (24*2+10-49)/2 = 4 rows and
     * (4*2+4-10)/2 = 1 column of padding before */
    cr_expect(c->win.kh == 10 && c->win.kw == 4 && c->win.sh == 2 && c->win.sw == 2);
    cr_expect(c->win.pad_top == 4 && c->win.pad_left == 1, "pad %u %u", c->win.pad_top,
              c->win.pad_left);
    cr_expect_eq(c->win.macs_per_out, 40);
    cr_expect_str_eq(g.ops[1].kind, "depthwise_conv_2d");
    cr_expect_eq(g.ops[1].win.macs_per_out, 9);
    cr_expect_eq(g.ops[2].win.macs_per_out, 64);
    arena_graph_free(&g);
}
