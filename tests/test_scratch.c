/* test_scratch.c — kernel scratch buffers (graphs/scratch.h): each op kind
 * against figures worked out by hand from CMSIS-NN v7.0.0's buffer-size
 * functions, the graph transform under both policies, and the rule as part
 * of the loaded problem's configuration. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "graphs/scratch.h"
#include "graphs/source.h"
#include "planners/planner.h"

/* One op of kind reading [1, ih, iw, ic] and writing [1, oh, ow, oc] of
 * dtype, with window w (kh 0: none). */
static void one_op(struct arena_graph *g, const char *kind, enum arena_dtype dt, uint64_t ih,
                   uint64_t iw, uint64_t ic, uint64_t oh, uint64_t ow, uint64_t oc,
                   struct arena_gop_window w)
{
    arena_graph_init(g);
    uint64_t di[4] = {1, ih, iw, ic}, dout[4] = {1, oh, ow, oc};
    uint32_t a = 0, b = 0;
    arena_graph_tensor_add(g, "in", dt, 4, di, &a);
    arena_graph_tensor_add(g, "out", dt, 4, dout, &b);
    g->tensors[a].is_input = 1;
    g->tensors[b].is_output = 1;
    arena_graph_op_add(g, "op", kind, &a, 1, &b, 1);
    if (w.kh)
        arena_graph_op_window_set(g, &w);
    cr_assert_eq(g->status, ARENA_OK);
}

static uint64_t bytes_of(const struct arena_graph *g, enum arena_scratch_rule r)
{
    uint64_t n = 0;
    char err[256] = "";
    cr_assert_eq(arena_scratch_op_bytes(g, 0, r, &n, err, sizeof err), ARENA_OK, "%s", err);
    return n;
}

static struct arena_gop_window win(uint32_t kh, uint32_t kw, uint32_t s, uint32_t pt,
                                   uint32_t pl)
{
    struct arena_gop_window w = {.kh = kh, .kw = kw, .sh = s, .sw = s, .pad_top = pt,
                                 .pad_left = pl};
    return w;
}

#define M4 ARENA_SCRATCH_CMSIS_M4
#define M55 ARENA_SCRATCH_CMSIS_M55
#define REF ARENA_SCRATCH_REFERENCE

/* conv_2d, im2col: m4 two int16 columns of align4(kh kw c) elements, m55
 * four 16-byte-lane columns: */
Test(scratch, conv_im2col)
{
    struct arena_graph g;
    /* 3x3 over 16 channels: 144 columns; m4 2 x 144 x 2 = 576, m55 4 x 16 x 9 = 576 */
    one_op(&g, "conv_2d", ARENA_DTYPE_INT8, 16, 16, 16, 16, 16, 32, win(3, 3, 1, 1, 1));
    cr_expect_eq(bytes_of(&g, M4), 576);
    cr_expect_eq(bytes_of(&g, M55), 576);
    cr_expect_eq(bytes_of(&g, REF), 0);
    arena_graph_free(&g);
    /* 3x3 over 3 channels: 27 -> 28 on m4: 112; m55 ceil(27/16) = 2 lanes: 128 */
    one_op(&g, "CONV_2D", ARENA_DTYPE_INT8, 32, 32, 3, 32, 32, 16, win(3, 3, 1, 1, 1));
    cr_expect_eq(bytes_of(&g, M4), 112);
    cr_expect_eq(bytes_of(&g, M55), 128);
    arena_graph_free(&g);
    /* DS-CNN's 10x4 over 1 channel, stride 2: 40 columns; m4 160, m55 3 lanes: 192 */
    one_op(&g, "conv2d", ARENA_DTYPE_INT8, 49, 10, 1, 25, 5, 64, win(10, 4, 2, 4, 1));
    cr_expect_eq(bytes_of(&g, M4), 160);
    cr_expect_eq(bytes_of(&g, M55), 192);
    arena_graph_free(&g);
}

/* A 1x1 conv without padding takes the fast path: none (GCC), any stride. */
Test(scratch, conv_1x1_needs_none)
{
    struct arena_graph g;
    one_op(&g, "conv_2d", ARENA_DTYPE_INT8, 8, 8, 64, 8, 8, 64, win(1, 1, 1, 0, 0));
    cr_expect_eq(bytes_of(&g, M4), 0);
    cr_expect_eq(bytes_of(&g, M55), 0);
    arena_graph_free(&g);
    one_op(&g, "conv_2d", ARENA_DTYPE_INT8, 16, 16, 16, 8, 8, 32, win(1, 1, 2, 0, 0));
    cr_expect_eq(bytes_of(&g, M4), 0);
    cr_expect_eq(bytes_of(&g, M55), 0);
    arena_graph_free(&g);
}

/* A 1xN conv (one input row, kh 1, stride x channels a multiple of 4):
 * m4 the im2col of kw c = 12 columns, 48 B; m55 its own buffer: 1x3 over
 * 10 columns of 4 channels, SAME (1 column of padding each side): one
 * output column touches each pad, 8 neither; max(kw c + pad c, (kw - 1) c
 * + pad c) = max(12 + 4, 8 + 4) = 16 B. */
Test(scratch, conv_1_x_n)
{
    struct arena_graph g;
    one_op(&g, "conv_2d", ARENA_DTYPE_INT8, 1, 10, 4, 1, 10, 8, win(1, 3, 1, 0, 1));
    cr_expect_eq(bytes_of(&g, M4), 48);
    cr_expect_eq(bytes_of(&g, M55), 16);
    arena_graph_free(&g);
}

/* depthwise_conv_2d, multiplier 1: m4 none for 3x3 with padding <= 1, else
 * 2 kh kw c; m55 4 x 124 x kh kw. */
Test(scratch, depthwise)
{
    struct arena_graph g;
    one_op(&g, "depthwise_conv_2d", ARENA_DTYPE_INT8, 25, 5, 64, 25, 5, 64, win(3, 3, 1, 1, 1));
    cr_expect_eq(bytes_of(&g, M4), 0);
    cr_expect_eq(bytes_of(&g, M55), 4464);
    arena_graph_free(&g);
    /* 5x5 SAME: padding 2, so the m4 3x3 kernel does not apply: 2 x 25 x 32 */
    one_op(&g, "DEPTHWISE_CONV_2D", ARENA_DTYPE_INT8, 14, 14, 32, 14, 14, 32, win(5, 5, 1, 2, 2));
    cr_expect_eq(bytes_of(&g, M4), 1600);
    cr_expect_eq(bytes_of(&g, M55), 12400);
    arena_graph_free(&g);
    /* the streaming wake word's 3x1 VALID over 40 channels: 240; m55 1,488 */
    one_op(&g, "depthwise_conv_2d", ARENA_DTYPE_INT8, 30, 1, 40, 28, 1, 40, win(3, 1, 1, 0, 0));
    cr_expect_eq(bytes_of(&g, M4), 240);
    cr_expect_eq(bytes_of(&g, M55), 1488);
    arena_graph_free(&g);
}

/* One input channel to 8 (multiplier 8): m4 none (not multiplier 1); m55
 * runs it as a conv: its im2col, 64 x ceil(9 / 16) = 64, plus the
 * reordered filter, 9 x 8 = 72: 136. */
Test(scratch, depthwise_one_channel_to_many)
{
    struct arena_graph g;
    one_op(&g, "depthwise_conv_2d", ARENA_DTYPE_INT8, 16, 16, 1, 16, 16, 8, win(3, 3, 1, 1, 1));
    cr_expect_eq(bytes_of(&g, M4), 0);
    cr_expect_eq(bytes_of(&g, M55), 136);
    arena_graph_free(&g);
}

/* average_pool_2d: m4 an int32 per channel, m55 none; fully_connected
 * none; softmax, add, reshape none. */
Test(scratch, pool_fc_and_the_rest)
{
    struct arena_graph g;
    struct arena_gop_window none = {0};
    one_op(&g, "average_pool_2d", ARENA_DTYPE_INT8, 25, 5, 64, 1, 1, 64, none);
    cr_expect_eq(bytes_of(&g, M4), 256);
    cr_expect_eq(bytes_of(&g, M55), 0);
    cr_expect_eq(bytes_of(&g, REF), 0);
    arena_graph_free(&g);
    const char *kinds[] = {"fully_connected", "softmax", "add", "reshape", "max_pool_2d"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        one_op(&g, kinds[i], ARENA_DTYPE_INT8, 1, 1, 64, 1, 1, 64, none);
        cr_expect_eq(bytes_of(&g, M4), 0, "%s", kinds[i]);
        cr_expect_eq(bytes_of(&g, M55), 0, "%s", kinds[i]);
        arena_graph_free(&g);
    }
}

/* fp32 runs the reference kernels: none; int16 is not modelled; nor a
 * conv without a window, nor the kinds whose requests bench does not
 * size. */
Test(scratch, refusals_and_float)
{
    struct arena_graph g;
    uint64_t n = 7;
    char err[256];
    one_op(&g, "conv_2d", ARENA_DTYPE_FP32, 16, 16, 16, 16, 16, 32, win(3, 3, 1, 1, 1));
    cr_expect_eq(bytes_of(&g, M4), 0);
    arena_graph_free(&g);
    one_op(&g, "conv_2d", ARENA_DTYPE_INT16, 16, 16, 16, 16, 16, 32, win(3, 3, 1, 1, 1));
    cr_expect_eq(arena_scratch_op_bytes(&g, 0, M4, &n, err, sizeof err), ARENA_EINVAL);
    cr_expect_str_eq(err, "--scratch cmsis-nn:m4: op 'op' (conv_2d) reads int16: only int8"
                          " kernels' scratch is modelled");
    arena_graph_free(&g);
    struct arena_gop_window none = {0};
    one_op(&g, "conv_2d", ARENA_DTYPE_INT8, 16, 16, 16, 16, 16, 32, none);
    cr_expect_eq(arena_scratch_op_bytes(&g, 0, M55, &n, err, sizeof err), ARENA_EINVAL);
    cr_expect(strstr(err, "states no window") != NULL, "%s", err);
    cr_expect_eq(bytes_of(&g, REF), 0);
    arena_graph_free(&g);
    one_op(&g, "TRANSPOSE_CONV", ARENA_DTYPE_INT8, 8, 8, 16, 16, 16, 16, none);
    cr_expect_eq(arena_scratch_op_bytes(&g, 0, M4, &n, err, sizeof err), ARENA_EINVAL);
    cr_expect(strstr(err, "does not model") != NULL, "%s", err);
    arena_graph_free(&g);
    one_op(&g, "MEAN", ARENA_DTYPE_INT8, 8, 8, 16, 1, 1, 16, none);
    cr_expect_eq(bytes_of(&g, M4), 0); /* TFLM's CMSIS-NN build: the reference MEAN */
    cr_expect_eq(arena_scratch_op_bytes(&g, 0, REF, &n, err, sizeof err), ARENA_EINVAL);
    arena_graph_free(&g);
}

Test(scratch, names_and_parse)
{
    enum arena_scratch_rule r;
    cr_expect_eq(arena_scratch_parse("cmsis-nn", &r), ARENA_OK);
    cr_expect_eq(r, M4);
    cr_expect_eq(arena_scratch_parse("cmsis-nn:m55", &r), ARENA_OK);
    cr_expect_eq(r, M55);
    cr_expect_eq(arena_scratch_parse("cmsis-nn:m7", &r), ARENA_ENOTFOUND);
    cr_expect_str_eq(arena_scratch_name(REF), "reference");
    cr_expect_null(arena_scratch_name(ARENA_SCRATCH_RULES));
    enum arena_scratch_policy p;
    cr_expect_eq(arena_scratch_policy_parse("tail", &p), ARENA_OK);
    cr_expect_eq(p, ARENA_SCRATCH_TAIL);
}

static struct arena_source load(const char *spec, enum arena_scratch_rule r,
                                enum arena_scratch_policy p, enum arena_inplace_rule ip)
{
    struct arena_source s;
    struct arena_load_options o = {.alignment = 1, .seed = 1, .scratch = r, .scratch_policy = p,
                                   .inplace = ip};
    char err[256];
    cr_assert_eq(arena_source_load_with(spec, &o, &s, err, sizeof err), ARENA_OK, "%s", err);
    return s;
}

/* DS-CNN under m4: the 10x4 conv asks for 160 B (step 0), the pool for 4 x
 * 64 = 256 B (step 9); the 3x3 depthwise and 1x1 convs for none. */
Test(scratch, ds_cnn_lifetime_and_tail)
{
    struct arena_source s = load("ds-cnn", M4, ARENA_SCRATCH_LIFETIME, ARENA_INPLACE_NONE);
    cr_assert_eq(s.problem.n, 16);
    cr_expect_eq(s.scratch.buffers, 2);
    cr_expect_eq(s.scratch.largest, 256);
    cr_expect_eq(s.scratch.total, 416);
    const struct arena_tensor *t = s.problem.tensors;
    cr_expect(t[14].size == 160 && t[14].first == 0 && t[14].last == 0);
    cr_expect(t[15].size == 256 && t[15].first == 9 && t[15].last == 9);
    cr_expect_str_eq(s.names[14], "conv1/scratch");
    cr_expect_str_eq(s.names[15], "avgpool/scratch");
    char label[128];
    arena_transforms_label(&s.tf, 0, 0, label, sizeof label);
    cr_expect_str_eq(label, "scratch cmsis-nn:m4");
    struct arena_source plain = load("ds-cnn", ARENA_SCRATCH_NONE, ARENA_SCRATCH_LIFETIME,
                                     ARENA_INPLACE_NONE);
    cr_expect_neq(s.fingerprint, plain.fingerprint);
    cr_expect_eq(plain.problem.n, 14);
    arena_source_free(&plain);
    arena_source_free(&s);
    s = load("ds-cnn", M4, ARENA_SCRATCH_TAIL, ARENA_INPLACE_NONE);
    cr_assert_eq(s.problem.n, 15);
    t = s.problem.tensors;
    cr_expect(t[14].size == 256 && t[14].first == 0 && t[14].last == 12);
    cr_expect_str_eq(s.names[14], "kernel-scratch");
    arena_transforms_label(&s.tf, 0, 0, label, sizeof label);
    cr_expect_str_eq(label, "scratch cmsis-nn:m4 tail");
    /* the tail adds its size to every step: bound 16,000 + 256 */
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&s.problem, &b), ARENA_OK);
    cr_expect_eq(b.lower_bound, 16256);
    arena_source_free(&s);
}

/* online: the problem is the plain one (same fingerprint); the requests
 * wait beside it in step order, aligned: 192 B at step 0, 4,464 B at the
 * four depthwise steps 1, 3, 5, 7 (cmsis-nn:m55). */
Test(scratch, online_keeps_the_requests_beside_the_problem)
{
    struct arena_source s = load("ds-cnn", M55, ARENA_SCRATCH_ONLINE, ARENA_INPLACE_NONE);
    struct arena_source plain = load("ds-cnn", ARENA_SCRATCH_NONE, ARENA_SCRATCH_LIFETIME,
                                     ARENA_INPLACE_NONE);
    cr_expect_eq(s.fingerprint, plain.fingerprint);
    cr_expect_eq(s.problem.n, 14);
    cr_assert_eq(s.n_online_scratch, 5);
    static const struct arena_tensor want[] = {
        {192, 0, 0}, {4464, 1, 1}, {4464, 3, 3}, {4464, 5, 5}, {4464, 7, 7}};
    for (size_t i = 0; i < 5; i++)
        cr_expect(s.online_scratch[i].size == want[i].size &&
                      s.online_scratch[i].first == want[i].first &&
                      s.online_scratch[i].last == want[i].last,
                  "request %zu", i);
    char label[128];
    arena_transforms_label(&s.tf, 0, 0, label, sizeof label);
    cr_expect_str_eq(label, "scratch cmsis-nn:m55 online");
    arena_source_free(&plain);
    arena_source_free(&s);
}

/* A depthwise conv with a scratch buffer still runs in place under
 * --inplace depthwise: the scratch output is not the op's own. */
Test(scratch, in_place_rule_ignores_the_scratch_output)
{
    struct arena_source a = load("ds-tcn", ARENA_SCRATCH_NONE, ARENA_SCRATCH_LIFETIME,
                                 ARENA_INPLACE_DEPTHWISE);
    struct arena_source b = load("ds-tcn", M4, ARENA_SCRATCH_LIFETIME, ARENA_INPLACE_DEPTHWISE);
    cr_expect_eq(b.scratch.buffers, 4); /* the four k x 1 depthwise convs */
    cr_expect_gt(a.problem.n_alias, 0);
    cr_expect_eq(a.problem.n_alias, b.problem.n_alias);
    arena_source_free(&a);
    arena_source_free(&b);
}
