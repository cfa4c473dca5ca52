/* test_inplace.c — the in-place rules over op kinds and the candidates of an
 * execution order (graphs/inplace.h). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "graphs/files.h"
#include "graphs/inplace.h"
#include "graphs/source.h"

Test(inplace, kinds_match_whatever_their_case_and_underscores)
{
    static const char *const dw[] = {"DEPTHWISE_CONV_2D", "depthwise_conv2d", "DepthwiseConv2D"};
    for (size_t i = 0; i < 3; i++) {
        cr_expect_eq(arena_inplace_kind_of(dw[i], ARENA_INPLACE_DEPTHWISE),
                     ARENA_INPLACE_KIND_INSIDE, "%s", dw[i]);
        cr_expect_eq(arena_inplace_kind_of(dw[i], ARENA_INPLACE_ELEMENTWISE),
                     ARENA_INPLACE_KIND_NOT, "%s", dw[i]);
    }
    static const char *const ew[] = {"ADD",        "add",         "Relu",      "RELU6",
                                     "relu6",      "HardSigmoid", "HARD_SWISH", "Clip",
                                     "LOGISTIC",   "Sigmoid",     "RESHAPE",   "Unsqueeze",
                                     "EXPAND_DIMS", "Flatten",    "QuantizeLinear",
                                     "DEQUANTIZE", "Softmax",     "batch_norm", "MUL", "Sub"};
    for (size_t i = 0; i < sizeof ew / sizeof ew[0]; i++) {
        cr_expect_eq(arena_inplace_kind_of(ew[i], ARENA_INPLACE_ELEMENTWISE),
                     ARENA_INPLACE_KIND_EQUAL, "%s", ew[i]);
        cr_expect_eq(arena_inplace_kind_of(ew[i], ARENA_INPLACE_DEPTHWISE),
                     ARENA_INPLACE_KIND_EQUAL, "%s", ew[i]);
        cr_expect_eq(arena_inplace_kind_of(ew[i], ARENA_INPLACE_NONE), ARENA_INPLACE_KIND_NOT);
    }
    static const char *const no[] = {"CONV_2D", "conv2d", "CONCATENATION", "CUSTOM:add",
                                     "FULLY_CONNECTED", "addx", "", "MAX_POOL_2D"};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        cr_expect_eq(arena_inplace_kind_of(no[i], ARENA_INPLACE_DEPTHWISE),
                     ARENA_INPLACE_KIND_NOT, "%s", no[i]);
    enum arena_inplace_rule r;
    cr_expect(arena_inplace_parse("depthwise", &r) == ARENA_OK && r == ARENA_INPLACE_DEPTHWISE);
    cr_expect_eq(arena_inplace_parse("Depthwise", &r), ARENA_ENOTFOUND);
    cr_expect_str_eq(arena_inplace_name(ARENA_INPLACE_ELEMENTWISE), "elementwise");
}

/* x (input) -conv-> a; a -relu-> b; a -conv-> c; b, c -add-> d (output);
 * all 64 B but x. */
static void diamond(struct arena_graph *g)
{
    arena_graph_init(g);
    uint64_t dims[1] = {64}, small[1] = {32};
    uint32_t x, a, b, c, d;
    arena_graph_tensor_add(g, "x", ARENA_DTYPE_INT8, 1, small, &x);
    arena_graph_tensor_add(g, "a", ARENA_DTYPE_INT8, 1, dims, &a);
    arena_graph_tensor_add(g, "b", ARENA_DTYPE_INT8, 1, dims, &b);
    arena_graph_tensor_add(g, "c", ARENA_DTYPE_INT8, 1, dims, &c);
    arena_graph_tensor_add(g, "d", ARENA_DTYPE_INT8, 1, dims, &d);
    arena_graph_op_add(g, "op0", "CONV_2D", &x, 1, &a, 1);
    arena_graph_op_add(g, "op1", "RELU", &a, 1, &b, 1);
    arena_graph_op_add(g, "op2", "CONV_2D", &a, 1, &c, 1);
    uint32_t bc[2] = {b, c};
    arena_graph_op_add(g, "op3", "ADD", bc, 2, &d, 1);
    g->tensors[x].is_input = 1;
    g->tensors[d].is_output = 1;
    cr_assert_eq(g->status, ARENA_OK);
}

Test(inplace, candidates_follow_the_order)
{
    struct arena_graph g;
    diamond(&g);
    struct arena_alias *a = NULL;
    size_t n = 0, first[5];
    /* stored order: a is still read by op2 after the relu, so only the add
     * has candidates, both its inputs (b = 2, c = 3 onto d = 4) */
    cr_assert_eq(arena_inplace_candidates(&g, NULL, ARENA_INPLACE_ELEMENTWISE, &a, &n, first),
                 ARENA_OK);
    cr_assert_eq(n, 2);
    cr_expect(a[0].out == 4 && a[0].in == 2 && a[1].out == 4 && a[1].in == 3);
    cr_expect(first[0] == 0 && first[3] == 0 && first[4] == 2);
    free(a);
    /* op2 before op1: a dies at the relu, which may write b over it */
    const uint32_t order[] = {0, 2, 1, 3};
    cr_assert_eq(arena_inplace_candidates(&g, order, ARENA_INPLACE_ELEMENTWISE, &a, &n, first),
                 ARENA_OK);
    cr_assert_eq(n, 3);
    cr_expect(a[0].out == 2 && a[0].in == 1, "(b, a) at step 2");
    cr_expect(first[2] == 0 && first[3] == 1 && first[4] == 3);
    free(a);
    /* none: nothing, and no allocation */
    cr_assert_eq(arena_inplace_candidates(&g, order, ARENA_INPLACE_NONE, &a, &n, NULL), ARENA_OK);
    cr_expect(n == 0 && a == NULL);
    /* the order's half is the caller's: op_may ignores death */
    cr_expect(arena_inplace_op_may(&g, 1, 1, ARENA_INPLACE_ELEMENTWISE));
    cr_expect(!arena_inplace_op_may(&g, 0, 0, ARENA_INPLACE_DEPTHWISE), "conv, graph input");
    const uint32_t bad[] = {0, 1, 1, 3};
    cr_expect_eq(arena_inplace_candidates(&g, bad, ARENA_INPLACE_ELEMENTWISE, &a, &n, NULL),
                 ARENA_EINVAL);
    arena_graph_free(&g);
}

Test(inplace, graph_inputs_outputs_and_other_sizes_are_never_candidates)
{
    struct arena_graph g;
    arena_graph_init(&g);
    uint64_t d64[1] = {64}, d32[1] = {32};
    uint32_t x, y, z, w;
    arena_graph_tensor_add(&g, "x", ARENA_DTYPE_INT8, 1, d64, &x);
    arena_graph_tensor_add(&g, "y", ARENA_DTYPE_INT8, 1, d64, &y);
    arena_graph_tensor_add(&g, "z", ARENA_DTYPE_INT8, 1, d32, &z);
    arena_graph_tensor_add(&g, "w", ARENA_DTYPE_INT8, 1, d32, &w);
    arena_graph_op_add(&g, "relu", "RELU", &x, 1, &y, 1);      /* x: graph input */
    arena_graph_op_add(&g, "q", "QUANTIZE", &y, 1, &z, 1);     /* 64 B -> 32 B */
    arena_graph_op_add(&g, "dw", "DEPTHWISE_CONV_2D", &z, 1, &w, 1);
    g.tensors[x].is_input = 1;
    g.tensors[w].is_output = 1;
    struct arena_alias *a = NULL;
    size_t n = 0;
    cr_assert_eq(arena_inplace_candidates(&g, NULL, ARENA_INPLACE_DEPTHWISE, &a, &n, NULL),
                 ARENA_OK);
    cr_assert_eq(n, 1, "only the depthwise conv");
    cr_expect(a[0].out == w && a[0].in == z);
    free(a);
    /* with y a graph output, the quantize's smaller size still rules it out,
     * and elementwise drops the depthwise conv */
    cr_assert_eq(arena_inplace_candidates(&g, NULL, ARENA_INPLACE_ELEMENTWISE, &a, &n, NULL),
                 ARENA_OK);
    cr_expect_eq(n, 0);
    arena_graph_free(&g);
}

/* A graph file states its kinds: the same text planned with and without a
 * rule differs only in the candidates. */
Test(inplace, graph_files_state_kinds)
{
    char dir[] = "/tmp/arena-inplace-XXXXXX", path[64];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/net.graph", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("tensor in int8 1x8x8x16 input\n"
          "tensor a int8 1x8x8x16\n"
          "tensor b int8 1x8x8x16\n"
          "tensor out int8 1x4x4x16 output\n"
          "op c Conv2D in -> a\n"
          "op r Relu a -> b\n"
          "op d depthwise_conv_2d b -> out\n",
          f);
    fclose(f);
    struct arena_load_options lo = {.alignment = 16, .inplace = ARENA_INPLACE_DEPTHWISE};
    struct arena_source s;
    char err[256];
    cr_assert_eq(arena_source_load_with(path, &lo, &s, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(s.problem.n_alias, 2);
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&s.problem, &b), ARENA_OK);
    cr_expect_eq(b.lower_bound, 2048); /* a and b at the relu */
    cr_expect_eq(b.inplace_bound, 2048); /* in + a-b-out at the conv */
    uint64_t fp = s.fingerprint;
    arena_source_free(&s);
    lo.inplace = ARENA_INPLACE_NONE;
    cr_assert_eq(arena_source_load_with(path, &lo, &s, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(s.problem.n_alias, 0);
    cr_expect_null(s.problem.alias);
    cr_expect_eq(s.fingerprint, fp, "the same problem");
    arena_source_free(&s);
    remove(path);
    rmdir(dir);
}
