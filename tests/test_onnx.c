/* test_onnx.c — the ONNX reader (graphs/onnx.c) on models written byte by
 * byte by tests/onnx_writer.c: a hand-built model whose intervals are
 * worked out by hand below, folding, the refusals (unknown and symbolic
 * dims, names, order, nesting, truncation), and the front door's sniffing. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "graphs/onnx.h"
#include "graphs/onnx_wire.h"
#include "graphs/source.h"
#include "tests/onnx_writer.h"

TestSuite(onnx);

/* Reads m; returns the status, err filled. */
static int read_model(const struct ow_model *m, struct arena_graph *g,
                      struct arena_onnx_info *info, char *err, size_t errlen)
{
    struct ow_buf b;
    ow_write(m, &b);
    int rc = arena_onnx_read(b.b, b.n, "hand.onnx", g, info, err, errlen);
    free(b.b);
    return rc;
}

/* The graph in data[0, n) and its problem at alignment a, untransformed
 * (its stored order, no in-place rule), as the loader makes it. */
static int problem_of(const void *data, size_t n, const char *name, uint64_t a,
                      struct arena_graph *g, struct arena_problem *p, char *err, size_t errlen)
{
    struct arena_onnx_info info;
    memset(p, 0, sizeof *p);
    int rc = arena_onnx_read(data, n, name, g, &info, err, errlen);
    if (!rc)
        rc = arena_graph_problem(g, a, p, NULL, err, errlen);
    return rc;
}

/* The problem of m at alignment a (and its graph, for names and ops). */
static int load_model(const struct ow_model *m, uint64_t a, struct arena_problem *p,
                      struct arena_graph *g, char *err, size_t errlen)
{
    struct ow_buf b;
    ow_write(m, &b);
    int rc = problem_of(b.b, b.n, "hand.onnx", a, g, p, err, errlen);
    free(b.b);
    return rc;
}

/* The hand model (tests/onnx_writer.c), node k at step k:
 *   0 Constant        -> k      folded (Constant)
 *   1 Conv(x, w, "")  -> a      w an initializer, the bias left out
 *   2 Shape(a)        -> sa     folded (Shape): a is not read here
 *   3 Relu(a)         -> b
 *   4 Add(k, k)       -> k2     folded (all inputs constant)
 *   5 Mul(b, k2)      -> m
 *   6 Add(a, m)       -> y      graph output
 *   7 Cast(y)         -> z      graph output, float16
 * Tensors in definition order: x [1,2,4,4] f32 = 128 B (graph input), then
 * a, b, m, y [1,4,4,4] f32 = 256 B each, z [1,4,4,4] f16 = 128 B.
 * Lifetimes [first, last]: x [0, 1] (an input lives from step 0, read by
 * node 1), a [1, 6] (read by 3 and 6; the folded Shape does not count),
 * b [3, 5], m [5, 6], y [6, 7] (an output lives to the last step), z [7, 7].
 * Naive = 128 + 4 x 256 + 128 = 1,280 B. Bytes live per step: 0: x 128;
 * 1: x+a 384; 2: a 256; 3: a+b 512; 4: a+b 512; 5: a+b+m 768; 6: a+m+y
 * 768; 7: y+z 384; the lower bound is 768 B. */
Test(onnx, hand_model_intervals_worked_out_by_hand)
{
    struct ow_model m;
    ow_hand_model(&m);
    struct arena_problem p = {0};
    struct arena_graph x;
    char err[512] = "";
    cr_assert_eq(load_model(&m, 16, &p, &x, err, sizeof err), ARENA_OK, "%s", err);
    static const char *const names[] = {"x", "a", "b", "m", "y", "z"};
    static const uint64_t size[] = {128, 256, 256, 256, 256, 128};
    static const uint32_t first[] = {0, 1, 3, 5, 6, 7}, last[] = {1, 6, 5, 6, 7, 7};
    cr_assert_eq(p.n, 6);
    cr_expect_eq(x.n_ops, 8, "every node is a step, folded ones too");
    for (size_t t = 0; t < 6; t++) {
        cr_expect_str_eq(x.tensors[t].name, names[t]);
        cr_expect_eq(p.tensors[t].size, size[t], "%s", names[t]);
        cr_expect_eq(p.tensors[t].first, first[t], "%s first", names[t]);
        cr_expect_eq(p.tensors[t].last, last[t], "%s last", names[t]);
    }
    struct arena_bounds bd;
    cr_assert_eq(arena_problem_bounds(&p, &bd), ARENA_OK);
    cr_expect_eq(bd.naive_bytes, 1280);
    cr_expect_eq(bd.lower_bound, 768);
    free((void *)p.tensors);
    arena_graph_free(&x);
}

/* Folding and what is kept: op kinds are the op_type of every node in
 * stored order (folded nodes too, with no tensors), op k is "op<k>", the
 * initializer and the folded values are not tensors. */
Test(onnx, folds_constants_and_keeps_op_kinds_and_order)
{
    struct ow_model m;
    ow_hand_model(&m);
    struct arena_graph g;
    struct arena_onnx_info info;
    char err[512] = "";
    cr_assert_eq(read_model(&m, &g, &info, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(info.nodes, 8);
    cr_expect_eq(info.folded, 3);
    cr_expect_eq(info.initializers, 1);
    cr_expect_eq(info.constants, 3, "k, sa, k2");
    cr_expect_eq(info.planned, 6);
    static const char *const kinds[] = {"Constant", "Conv", "Shape", "Relu",
                                        "Add",      "Mul",  "Add",   "Cast"};
    static const size_t tensors[] = {0, 2, 0, 2, 0, 2, 3, 2}; /* planned ins + outs */
    cr_assert_eq(g.n_ops, 8);
    for (size_t k = 0; k < 8; k++) {
        char name[16];
        snprintf(name, sizeof name, "op%zu", k);
        cr_expect_str_eq(g.ops[k].kind, kinds[k]);
        cr_expect_str_eq(g.ops[k].name, name);
        cr_expect_eq(g.ops[k].n_in + g.ops[k].n_out, tensors[k], "op %zu", k);
    }
    uint32_t id;
    cr_expect_eq(arena_graph_tensor_find(&g, "w", &id), ARENA_ENOTFOUND);
    cr_expect_eq(arena_graph_tensor_find(&g, "k2", &id), ARENA_ENOTFOUND);
    cr_expect_eq(arena_graph_tensor_find(&g, "sa", &id), ARENA_ENOTFOUND);
    cr_assert_eq(arena_graph_tensor_find(&g, "z", &id), ARENA_OK);
    cr_expect_eq(g.tensors[id].dtype, ARENA_DTYPE_FP16);
    cr_expect(g.tensors[id].is_output);
    cr_assert_eq(arena_graph_tensor_find(&g, "x", &id), ARENA_OK);
    cr_expect(g.tensors[id].is_input);
    arena_graph_free(&g);
}

/* Without Shape folding a would be read at step 2; without the all-constant
 * rule Add(k, k) would be an op with no planned tensor but k2 would be
 * planned. The hand model's m reads k2: m is [5, 6] either way, so check
 * that k2 is not planned when Add(k, k) is fed by an initializer too. */
Test(onnx, folds_a_node_fed_by_initializers_only)
{
    struct ow_model m;
    ow_hand_model(&m);
    m.nodes[4].in[0] = "w";
    m.nodes[4].in[1] = "w";
    struct arena_graph g;
    struct arena_onnx_info info;
    char err[512] = "";
    cr_assert_eq(read_model(&m, &g, &info, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(info.folded, 3);
    uint32_t id;
    cr_expect_eq(arena_graph_tensor_find(&g, "k2", &id), ARENA_ENOTFOUND);
    arena_graph_free(&g);
}

/* The one line of a refusal, which must name the file and contain want
 * (and, for shape faults, the way out). */
static void refused(const struct ow_model *m, const char *want, int shape_fix)
{
    struct arena_graph g;
    struct arena_onnx_info info;
    char err[512] = "";
    int rc = read_model(m, &g, &info, err, sizeof err);
    cr_assert_lt(rc, 0, "read, wanted a refusal with '%s'", want);
    cr_expect_null(g.tensors, "a partial graph");
    cr_expect_eq(strncmp(err, "hand.onnx: ", 11), 0, "%s", err);
    cr_expect_null(strchr(err, '\n'), "%s", err);
    cr_expect_not_null(strstr(err, want), "'%s' lacks '%s'", err, want);
    if (shape_fix)
        cr_expect_not_null(strstr(err, "scripts/onnx-shape"), "%s", err);
}

Test(onnx, refuses_symbolic_dim_naming_the_tensor)
{
    struct ow_model m;
    ow_hand_model(&m);
    m.in[0].dims[0] = OW_SYMBOLIC;
    refused(&m, "tensor 'x' (graph input 0): dim 0 is symbolic ('N')", 1);
}

Test(onnx, refuses_unknown_dim_naming_the_tensor)
{
    struct ow_model m;
    ow_hand_model(&m);
    m.info[1].dims[2] = OW_UNKNOWN;
    refused(&m, "tensor 'b' (output 0 of node 3, Relu): dim 2 is unknown", 1);
}

Test(onnx, refuses_missing_shape_naming_the_tensor)
{
    struct ow_model m;
    ow_hand_model(&m);
    m.info[2].rank = -1; /* m: a tensor type without a shape */
    refused(&m, "tensor 'm' (output 0 of node 5, Mul): shape unknown", 1);
    ow_hand_model(&m);
    m.n_info = 2; /* m: no ValueInfoProto at all */
    refused(&m, "tensor 'm' (output 0 of node 5, Mul): no type or shape", 1);
}

Test(onnx, refuses_unsupported_type)
{
    struct ow_model m;
    ow_hand_model(&m);
    m.info[0].elem_type = 16; /* bfloat16 */
    refused(&m, "tensor 'a' (output 0 of node 1, Conv): elem_type: unknown or unsupported type 16",
            0);
}

Test(onnx, refuses_control_characters_in_names)
{
    struct ow_model m;
    ow_hand_model(&m);
    m.nodes[3].out[0] = "b\nc";
    refused(&m, "node 3 (Relu): output 0: name has control byte 0x0a at byte 1", 0);
    ow_hand_model(&m);
    m.nodes[5].op_type = "M\x7fl";
    refused(&m, "node 5: name has control byte 0x7f", 0);
    ow_hand_model(&m);
    m.info[0].name = "a\t";
    refused(&m, "graph value_info 0: name has control byte 0x09", 0);
}

Test(onnx, refuses_nodes_out_of_order_and_values_written_twice)
{
    struct ow_model m;
    ow_hand_model(&m);
    m.nodes[3].in[0] = "m"; /* Relu reads m, which node 5 writes */
    refused(&m, "node 3 (Relu): input 0: value 'm' is no graph input, initializer or earlier", 0);
    ow_hand_model(&m);
    m.nodes[5].out[0] = "b";
    refused(&m, "node 5 (Mul): output 0: value 'b' is defined twice", 0);
    ow_hand_model(&m);
    m.out[m.n_out++] = (struct ow_value){"nowhere", 1, 1, {1}};
    refused(&m, "graph output 2: value 'nowhere' is no input", 0);
}

/* Round 3 #08: two ValueInfoProtos for one value that cannot both hold
 * were read with one of them winning, by where it stood (value_info before
 * an input, an output before value_info, the first of two value_infos).
 * Each is refused, naming the value and both shapes with where they stand
 * (the graph's outputs, then value_info, then inputs). The hand model's
 * value_info holds a, b, m (0-2); the fourth entry is the other shape. */
Test(onnx, refuses_a_value_with_two_shapes)
{
    static const struct {
        struct ow_value info;
        const char *says;
    } cases[] = {
        {{"x", 1, 4, {1, 2, 4, 8}},
         "value 'x' has two shapes: fp32 [1,2,4,8] (graph value_info 3) and fp32 [1,2,4,4]"
         " (graph input 0)"},
        {{"b", 1, 4, {1, 4, 4, 2}},
         "value 'b' has two shapes: fp32 [1,4,4,4] (graph value_info 1) and fp32 [1,4,4,2]"
         " (graph value_info 3)"},
        {{"z", 1, 4, {1, 4, 4, 4}},
         "value 'z' has two shapes: fp16 [1,4,4,4] (graph output 1) and fp32 [1,4,4,4]"
         " (graph value_info 3)"},
        {{"y", 1, 3, {4, 4, 4}},
         "value 'y' has two shapes: fp32 [1,4,4,4] (graph output 0) and fp32 [4,4,4]"
         " (graph value_info 3)"},
        {{"y", 1, 4, {1, 4, OW_SYMBOLIC, 2}},
         "value 'y' has two shapes: fp32 [1,4,4,4] (graph output 0) and fp32 [1,4,N,2]"
         " (graph value_info 3)"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct ow_model m;
        ow_hand_model(&m);
        m.info[m.n_info++] = cases[c].info;
        refused(&m, cases[c].says, 0);
    }
}

/* Two that agree are one value: a dim one leaves symbolic the other may
 * give, whichever stands first (y: its output's batch is N, value_info
 * says 1; x: value_info says 1, its input's batch is N), and a repeat of
 * the same shape changes nothing. The hand model's intervals and sizes
 * stand: x 128 B, y 256 B, 6 tensors. */
Test(onnx, two_shapes_that_agree_are_one)
{
    struct ow_model m;
    ow_hand_model(&m);
    m.out[0].dims[0] = OW_SYMBOLIC;
    m.info[m.n_info++] = (struct ow_value){"y", 1, 4, {1, 4, 4, 4}};
    m.in[0].dims[0] = OW_SYMBOLIC;
    m.info[m.n_info++] = (struct ow_value){"x", 1, 4, {1, 2, 4, 4}};
    m.info[m.n_info++] = (struct ow_value){"a", 1, 4, {1, 4, 4, 4}};
    struct arena_problem p = {0};
    struct arena_graph x;
    char err[512] = "";
    cr_assert_eq(load_model(&m, 16, &p, &x, err, sizeof err), ARENA_OK, "%s", err);
    static const uint64_t size[] = {128, 256, 256, 256, 256, 128};
    cr_assert_eq(p.n, 6);
    for (size_t t = 0; t < 6; t++)
        cr_expect_eq(p.tensors[t].size, size[t], "%s", x.tensors[t].name);
    free((void *)p.tensors);
    arena_graph_free(&x);
}

/* Older exporters (ONNX IR < 4) list every weight among the graph inputs
 * too, with its ValueInfoProto: w stays a weight, not a planned input, and
 * the problem is the hand model's (6 tensors, x [0, 1] 128 B, the lower
 * bound 768 B). */
Test(onnx, weights_listed_as_graph_inputs_stay_weights)
{
    struct ow_model m;
    ow_hand_model(&m);
    m.in[m.n_in++] = (struct ow_value){"w", 1, 4, {4, 2, 1, 1}};
    struct arena_problem p = {0};
    struct arena_graph x;
    char err[512] = "";
    cr_assert_eq(load_model(&m, 16, &p, &x, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_eq(p.n, 6);
    for (size_t t = 0; t < p.n; t++)
        cr_expect_str_neq(x.tensors[t].name, "w");
    cr_expect_str_eq(x.tensors[0].name, "x");
    cr_expect_eq(p.tensors[0].size, 128);
    cr_expect_eq(p.tensors[0].last, 1);
    struct arena_bounds bd;
    cr_assert_eq(arena_problem_bounds(&p, &bd), ARENA_OK);
    cr_expect_eq(bd.lower_bound, 768);
    free((void *)p.tensors);
    arena_graph_free(&x);
}

/* A dim of 0 is a dim (an empty tensor), not one below 0: the reader keeps
 * it (b [1,4,0,4], 0 bytes), and the graph's check refuses the tensor of
 * zero bytes, naming it. */
Test(onnx, a_dim_of_zero_is_read_and_the_empty_tensor_refused)
{
    struct ow_model m;
    ow_hand_model(&m);
    m.info[1].dims[2] = 0; /* b */
    struct arena_graph g;
    struct arena_onnx_info info;
    char err[512] = "";
    cr_assert_eq(read_model(&m, &g, &info, err, sizeof err), ARENA_OK, "%s", err);
    uint32_t id;
    cr_assert_eq(arena_graph_tensor_find(&g, "b", &id), ARENA_OK);
    cr_expect_eq(g.tensors[id].rank, 4);
    cr_expect_eq(g.tensors[id].dims[2], 0);
    cr_expect_eq(g.tensors[id].bytes, 0);
    arena_graph_free(&g);
    struct arena_problem p = {0};
    struct arena_graph x;
    cr_expect_eq(load_model(&m, 16, &p, &x, err, sizeof err), ARENA_EINVAL);
    cr_expect_str_eq(err, "tensor 'b': size is zero bytes"); /* source.c names the file */
    arena_graph_free(&x);
}

Test(onnx, refuses_control_flow)
{
    struct ow_model m;
    ow_hand_model(&m);
    m.nodes[3].subgraph = 1;
    refused(&m, "node 3 (Relu): carries a subgraph", 0);
}

/* Every prefix of the hand model is refused with one line or read whole,
 * and never read past (ASan in build-san sees a buffer of exactly n). */
Test(onnx, truncated_files_refused_in_one_line)
{
    struct ow_model m;
    ow_hand_model(&m);
    struct ow_buf b;
    ow_write(&m, &b);
    size_t refusals = 0;
    for (size_t n = 0; n < b.n; n++) {
        unsigned char *cut = malloc(n ? n : 1);
        cr_assert_not_null(cut);
        memcpy(cut, b.b, n);
        struct arena_graph g;
        struct arena_onnx_info info;
        char err[512] = "";
        int rc = arena_onnx_read(cut, n, "cut.onnx", &g, &info, err, sizeof err);
        free(cut);
        if (rc == ARENA_OK) {
            arena_graph_free(&g);
            continue;
        }
        refusals++;
        cr_expect_eq(strncmp(err, "cut.onnx: ", 10), 0, "at %zu: %s", n, err);
        cr_expect_null(strchr(err, '\n'));
    }
    cr_expect_gt(refusals, b.n / 2, "most prefixes cut a message short");
    free(b.b);
}

/* Graphs in attributes nested past ARENA_ONNX_DEPTH_MAX: refused by the
 * wire walk before protobuf-c recurses into them. */
Test(onnx, refuses_deep_nesting)
{
    struct ow_buf inner = {0};
    /* a GraphProto holding node { attribute { g { node { ... } } } } */
    for (int level = 0; level < 40; level++) {
        struct ow_buf attr = {0}, node = {0}, graph = {0};
        ow_bytes(&attr, 6, inner.b, inner.n); /* AttributeProto.g */
        ow_bytes(&node, 5, attr.b, attr.n);   /* NodeProto.attribute */
        ow_bytes(&graph, 1, node.b, node.n);  /* GraphProto.node */
        free(attr.b);
        free(node.b);
        free(inner.b);
        inner = graph;
    }
    struct ow_buf model = {0};
    ow_varint(&model, 0x08);
    ow_varint(&model, 8);
    ow_bytes(&model, 7, inner.b, inner.n);
    char err[512] = "";
    cr_expect_eq(arena_onnx_wire_check(model.b, model.n, "deep.onnx", err, sizeof err),
                 ARENA_EFORMAT);
    cr_expect_not_null(strstr(err, "nested more than 64 deep"), "%s", err);
    struct arena_graph g;
    struct arena_onnx_info info;
    cr_expect_eq(arena_onnx_read(model.b, model.n, "deep.onnx", &g, &info, err, sizeof err),
                 ARENA_EFORMAT);
    cr_expect_eq(strncmp(err, "deep.onnx: ", 11), 0, "%s", err);
    free(inner.b);
    free(model.b);
}

Test(onnx, refuses_a_length_past_its_message)
{
    struct ow_buf b = {0};
    ow_varint(&b, 0x08);
    ow_varint(&b, 8);
    ow_varint(&b, 7 << 3 | 2);
    ow_varint(&b, 1000); /* a graph of 1000 bytes in a file of 5 */
    char err[512] = "";
    struct arena_graph g;
    struct arena_onnx_info info;
    cr_expect_eq(arena_onnx_read(b.b, b.n, "short.onnx", &g, &info, err, sizeof err),
                 ARENA_EFORMAT);
    cr_expect_not_null(strstr(err, "short.onnx: ModelProto: byte 2: field 7: length past the"
                                   " end of its message"),
                       "%s", err);
    free(b.b);
}

/* The front door: .onnx by name, and by its first bytes without one; the
 * family is "onnx" and the names are the model's. */
Test(onnx, source_loads_by_extension_and_by_sniffing)
{
    struct ow_model m;
    ow_hand_model(&m);
    struct ow_buf b;
    ow_write(&m, &b);
    cr_assert(arena_onnx_is_model(b.b, b.n));
    char dir[] = "/tmp/arena-onnx-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char named[64], bare[64];
    snprintf(named, sizeof named, "%s/hand.onnx", dir);
    snprintf(bare, sizeof bare, "%s/hand", dir);
    cr_assert_eq(ow_save(&b, named), 0);
    cr_assert_eq(ow_save(&b, bare), 0);
    free(b.b);
    const char *paths[] = {named, bare};
    for (int i = 0; i < 2; i++) {
        struct arena_source src;
        char err[512] = "";
        cr_assert_eq(arena_source_load(paths[i], 16, 1, &src, err, sizeof err), ARENA_OK, "%s",
                     err);
        cr_expect_str_eq(src.family, "onnx");
        cr_expect_eq(src.ops, 8);
        cr_expect_eq(src.problem.n, 6);
        cr_expect_str_eq(src.names[5], "z");
        arena_source_free(&src);
    }
    struct arena_source src;
    char err[512] = "";
    char sub[80];
    snprintf(sub, sizeof sub, "%s#1", named);
    cr_expect_eq(arena_source_load(sub, 16, 1, &src, err, sizeof err), ARENA_EINVAL);
    cr_expect_not_null(strstr(err, "this is an ONNX file"), "%s", err);
    unlink(named);
    unlink(bare);
    rmdir(dir);
}

/* scripts/onnx-shape on the hand model with its batch dim symbolic and no
 * value_info: pinned at x=1x2x4x4, ONNX shape inference gives every value
 * its dims and the copy reads as the hand model does. A bad pin is one
 * line and exit 2. Needs python3-onnx (scripts/bootstrap). */
Test(onnx, onnx_shape_pins_inputs_and_infers_every_shape)
{
    struct ow_model m;
    ow_hand_model(&m);
    m.in[0].dims[0] = OW_SYMBOLIC;
    m.out[0].dims[0] = OW_SYMBOLIC;
    m.out[1].dims[0] = OW_SYMBOLIC;
    m.n_info = 0;
    struct ow_buf b;
    ow_write(&m, &b);
    char dir[] = "/tmp/arena-onnx-shape-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char in[64], out[64], cmd[512];
    snprintf(in, sizeof in, "%s/sym.onnx", dir);
    snprintf(out, sizeof out, "%s/shaped.onnx", dir);
    cr_assert_eq(ow_save(&b, in), 0);
    free(b.b);
    struct arena_problem p = {0};
    struct arena_graph x;
    char err[512] = "";
    cr_expect_eq(arena_onnx_load(in, &x, err, sizeof err), ARENA_EFORMAT);
    cr_expect_not_null(strstr(err, "tensor 'x' (graph input 0): dim 0 is symbolic ('N')"), "%s",
                       err);
    snprintf(cmd, sizeof cmd, "%s/scripts/onnx-shape %s %s x=1x2x4x4", ARENA_SOURCE_ROOT, in,
             out);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    cr_assert_eq(arena_onnx_load(out, &x, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_eq(arena_graph_problem(&x, 16, &p, NULL, err, sizeof err), ARENA_OK, "%s", err);
    static const uint64_t size[] = {128, 256, 256, 256, 256, 128};
    static const uint32_t first[] = {0, 1, 3, 5, 6, 7}, last[] = {1, 6, 5, 6, 7, 7};
    cr_assert_eq(p.n, 6);
    for (size_t t = 0; t < 6; t++) {
        cr_expect_eq(p.tensors[t].size, size[t], "%s", x.tensors[t].name);
        cr_expect_eq(p.tensors[t].first, first[t], "%s", x.tensors[t].name);
        cr_expect_eq(p.tensors[t].last, last[t], "%s", x.tensors[t].name);
    }
    free((void *)p.tensors);
    arena_graph_free(&x);
    snprintf(cmd, sizeof cmd, "%s/scripts/onnx-shape %s %s/bad.onnx y=1x2 2>/dev/null",
             ARENA_SOURCE_ROOT, in, dir);
    int rc = system(cmd);
    cr_expect(WIFEXITED(rc) && WEXITSTATUS(rc) == 2, "a pin of no input: exit 2, got %d", rc);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

/* The weightless copy: the initializer's 32 bytes of raw_data and the
 * Constant's 4 go (each with its tag and length byte), every enclosing
 * length shrinks with them, and the copy reads as the same graph. */
Test(onnx, strip_drops_weights_only)
{
    struct ow_model m;
    ow_hand_model(&m);
    struct ow_buf b;
    ow_write(&m, &b);
    unsigned char *lean;
    size_t n;
    char err[512] = "";
    cr_assert_eq(arena_onnx_wire_strip(b.b, b.n, "hand.onnx", &lean, &n, err, sizeof err),
                 ARENA_OK, "%s", err);
    /* raw_data fields: 1 tag + 1 length + 32 bytes, 1 + 1 + 4; every
     * enclosing length prefix keeps its width (the graph's stays above 128
     * bytes, the others below) */
    cr_assert_gt(b.n, 128 + 40 + 30);
    cr_expect_eq(b.n - n, (2 + 32) + (2 + 4), "%zu -> %zu bytes", b.n, n);
    struct arena_problem p1, p2;
    struct arena_graph x1, x2;
    cr_assert_eq(problem_of(b.b, b.n, "a", 16, &x1, &p1, err, sizeof err), ARENA_OK);
    cr_assert_eq(problem_of(lean, n, "b", 16, &x2, &p2, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_eq(p1.n, p2.n);
    cr_expect_eq(memcmp(p1.tensors, p2.tensors, p1.n * sizeof *p1.tensors), 0);
    cr_expect_eq(arena_problem_fingerprint(&p1), arena_problem_fingerprint(&p2));
    free((void *)p1.tensors);
    free((void *)p2.tensors);
    arena_graph_free(&x1);
    arena_graph_free(&x2);
    free(lean);
    free(b.b);
}

/* Length prefixes that shrink in width: an initializer of 40 floats (a
 * raw_data field of 1 + 2 + 160 bytes) makes its TensorProto and the
 * graph longer than 127 bytes (2-byte prefixes); without it both fit in
 * one byte, so the copy is 163 + 1 + 1 bytes shorter, and still reads. */
Test(onnx, strip_rewrites_prefixes_that_shrink)
{
    struct ow_model m = {
        .n_nodes = 1,
        .nodes = {{.op_type = "Relu", .n_in = 1, .in = {"x"}, .n_out = 1, .out = {"y"}}},
        .n_inits = 1,
        .inits = {{"w", 1, 1, {40}}},
        .n_in = 1,
        .in = {{"x", 1, 1, {4}}},
        .n_out = 1,
        .out = {{"y", 1, 1, {4}}},
    };
    struct ow_buf b;
    ow_write(&m, &b);
    unsigned char *lean;
    size_t n;
    char err[512] = "";
    cr_assert_eq(arena_onnx_wire_strip(b.b, b.n, "w.onnx", &lean, &n, err, sizeof err),
                 ARENA_OK, "%s", err);
    cr_expect_eq(b.n - n, 163 + 1 + 1, "%zu -> %zu bytes", b.n, n);
    struct arena_problem p = {0};
    struct arena_graph x;
    cr_expect_eq(problem_of(lean, n, "lean.onnx", 16, &x, &p, err, sizeof err), ARENA_OK, "%s",
                 err);
    cr_expect_eq(p.n, 2);
    free((void *)p.tensors);
    arena_graph_free(&x);
    free(lean);
    free(b.b);
}

/* --order best reaches ONNX models too: on the hand model the step of Mul
 * holds a + b + m = 768 B in every order (a is written before Mul and read
 * after it), which is the stored order's bound, so the certificate proves
 * the stored order best without a search and keeps it. */
Test(onnx, best_order_certifies_the_hand_model)
{
    struct ow_model m;
    ow_hand_model(&m);
    struct ow_buf b;
    ow_write(&m, &b);
    struct arena_order_result r = {0};
    struct arena_problem p;
    struct arena_graph x;
    char err[512] = "";
    cr_assert_eq(problem_of(b.b, b.n, "hand.onnx", 16, &x, &p, err, sizeof err), ARENA_OK, "%s",
                 err);
    cr_assert_eq(arena_order_transform(&x, ARENA_ORDER_BEST, 16, 0, ARENA_INPLACE_NONE, &r, err,
                                       sizeof err),
                 ARENA_OK, "%s", err);
    free(b.b);
    cr_expect_eq(r.status, ARENA_ORDER_CERTIFIED);
    cr_expect_eq(r.peak, 768);
    cr_expect_eq(r.bound, 768);
    cr_expect_eq(r.stored_peak, 768);
    cr_expect_eq(r.n_ops, 8);
    arena_order_result_free(&r);
    free((void *)p.tensors);
    arena_graph_free(&x);
}
