/* test_mobilenetv2.c — the MobileNetV2 family against Sandler et al. 2018,
 * Table 2, layer by layer, and its memory figures worked out by hand.
 *
 * Table 2 (input 224x224x3): conv2d 3x3 s2 -> 32; bottlenecks (t,c,n,s)
 * (1,16,1,1) (6,24,2,2) (6,32,3,2) (6,64,4,2) (6,96,3,1) (6,160,3,2)
 * (6,320,1,1); conv2d 1x1 -> 1280; avgpool 7x7; classifier -> k. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/family.h"
#include "graphs/source.h"
#include "planners/planner.h"

static void build(const char *spec, struct arena_graph *g)
{
    struct arena_spec s;
    char err[256];
    cr_assert_eq(arena_spec_parse(spec, 1, &s, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_eq(arena_spec_graph(&s, g, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_eq(arena_graph_check(g, NULL, err, sizeof err), ARENA_OK, "%s", err);
}

static struct arena_source load(const char *spec, uint64_t alignment)
{
    struct arena_source s;
    char err[256];
    cr_assert_eq(arena_source_load(spec, alignment, 1, &s, err, sizeof err), ARENA_OK, "%s", err);
    return s;
}

/* Every op of the default (fused, 224, alpha 1) graph in execution order
 * with its output's height (= width) and channels, from Table 2: a block is
 * expand (t x input channels), depthwise (stride s on a row's first repeat),
 * project (c); an add follows when stride is 1 and channels match. */
static const struct {
    const char *name, *kind;
    unsigned h, c;
} layers[] = {
    {"conv1", "conv2d", 112, 32},
    /* (1,16,1,1): no expand; 32 -> 16 channels, so no add */
    {"block0/depthwise", "depthwise_conv2d", 112, 32},
    {"block0/project", "conv2d", 112, 16},
    /* (6,24,2,2) */
    {"block1/expand", "conv2d", 112, 96},
    {"block1/depthwise", "depthwise_conv2d", 56, 96},
    {"block1/project", "conv2d", 56, 24},
    {"block2/expand", "conv2d", 56, 144},
    {"block2/depthwise", "depthwise_conv2d", 56, 144},
    {"block2/project", "conv2d", 56, 24},
    {"block2/add", "add", 56, 24},
    /* (6,32,3,2) */
    {"block3/expand", "conv2d", 56, 144},
    {"block3/depthwise", "depthwise_conv2d", 28, 144},
    {"block3/project", "conv2d", 28, 32},
    {"block4/expand", "conv2d", 28, 192},
    {"block4/depthwise", "depthwise_conv2d", 28, 192},
    {"block4/project", "conv2d", 28, 32},
    {"block4/add", "add", 28, 32},
    {"block5/expand", "conv2d", 28, 192},
    {"block5/depthwise", "depthwise_conv2d", 28, 192},
    {"block5/project", "conv2d", 28, 32},
    {"block5/add", "add", 28, 32},
    /* (6,64,4,2) */
    {"block6/expand", "conv2d", 28, 192},
    {"block6/depthwise", "depthwise_conv2d", 14, 192},
    {"block6/project", "conv2d", 14, 64},
    {"block7/expand", "conv2d", 14, 384},
    {"block7/depthwise", "depthwise_conv2d", 14, 384},
    {"block7/project", "conv2d", 14, 64},
    {"block7/add", "add", 14, 64},
    {"block8/expand", "conv2d", 14, 384},
    {"block8/depthwise", "depthwise_conv2d", 14, 384},
    {"block8/project", "conv2d", 14, 64},
    {"block8/add", "add", 14, 64},
    {"block9/expand", "conv2d", 14, 384},
    {"block9/depthwise", "depthwise_conv2d", 14, 384},
    {"block9/project", "conv2d", 14, 64},
    {"block9/add", "add", 14, 64},
    /* (6,96,3,1): the first repeat has stride 1 but 64 -> 96, so no add */
    {"block10/expand", "conv2d", 14, 384},
    {"block10/depthwise", "depthwise_conv2d", 14, 384},
    {"block10/project", "conv2d", 14, 96},
    {"block11/expand", "conv2d", 14, 576},
    {"block11/depthwise", "depthwise_conv2d", 14, 576},
    {"block11/project", "conv2d", 14, 96},
    {"block11/add", "add", 14, 96},
    {"block12/expand", "conv2d", 14, 576},
    {"block12/depthwise", "depthwise_conv2d", 14, 576},
    {"block12/project", "conv2d", 14, 96},
    {"block12/add", "add", 14, 96},
    /* (6,160,3,2) */
    {"block13/expand", "conv2d", 14, 576},
    {"block13/depthwise", "depthwise_conv2d", 7, 576},
    {"block13/project", "conv2d", 7, 160},
    {"block14/expand", "conv2d", 7, 960},
    {"block14/depthwise", "depthwise_conv2d", 7, 960},
    {"block14/project", "conv2d", 7, 160},
    {"block14/add", "add", 7, 160},
    {"block15/expand", "conv2d", 7, 960},
    {"block15/depthwise", "depthwise_conv2d", 7, 960},
    {"block15/project", "conv2d", 7, 160},
    {"block15/add", "add", 7, 160},
    /* (6,320,1,1) */
    {"block16/expand", "conv2d", 7, 960},
    {"block16/depthwise", "depthwise_conv2d", 7, 960},
    {"block16/project", "conv2d", 7, 320},
    {"conv_last", "conv2d", 7, 1280},
    {"avgpool", "average_pool", 1, 1280},
};
#define N_LAYERS (sizeof layers / sizeof layers[0])

Test(mobilenetv2, default_layers_match_table2)
{
    struct arena_graph g;
    build("mobilenetv2", &g);
    /* 63 layers above + logits + softmax = 65 ops; input + one output per op = 66 tensors */
    cr_assert_eq(N_LAYERS, 63);
    cr_assert_eq(g.n_ops, 65);
    cr_assert_eq(g.n_tensors, 66);
    const struct arena_gtensor *in = &g.tensors[0];
    cr_expect_str_eq(in->name, "input");
    cr_expect(in->is_input);
    cr_expect_eq(in->rank, 4);
    cr_expect(in->dims[0] == 1 && in->dims[1] == 224 && in->dims[2] == 224 && in->dims[3] == 3);
    for (size_t k = 0; k < N_LAYERS; k++) {
        const struct arena_gop *op = &g.ops[arena_graph_op_at(&g, k)];
        cr_expect_str_eq(op->name, layers[k].name, "step %zu", k);
        cr_expect_str_eq(op->kind, layers[k].kind, "step %zu", k);
        cr_assert_eq(op->n_out, 1);
        const struct arena_gtensor *t = &g.tensors[g.refs[op->out_first]];
        cr_expect_eq(t->rank, 4, "%s", op->name);
        cr_expect(t->dims[0] == 1 && t->dims[1] == layers[k].h && t->dims[2] == layers[k].h &&
                      t->dims[3] == layers[k].c,
                  "%s: got %llux%llux%llu", op->name, (unsigned long long)t->dims[1],
                  (unsigned long long)t->dims[2], (unsigned long long)t->dims[3]);
        cr_expect_eq(t->bytes, (uint64_t)layers[k].h * layers[k].h * layers[k].c, "%s", op->name);
        cr_expect_eq(op->n_in, strcmp(op->kind, "add") == 0 ? 2u : 1u, "%s", op->name);
    }
    /* an add reads the block input (the previous block's output) and the project */
    const struct arena_gop *add = &g.ops[9];
    cr_expect_str_eq(g.tensors[g.refs[add->in_first]].name, "block1/project");
    cr_expect_str_eq(g.tensors[g.refs[add->in_first + 1]].name, "block2/project");
    const struct arena_gop *fc = &g.ops[63], *sm = &g.ops[64];
    cr_expect_str_eq(fc->kind, "fully_connected");
    cr_expect_str_eq(sm->kind, "softmax");
    const struct arena_gtensor *out = &g.tensors[g.refs[sm->out_first]];
    cr_expect(out->is_output);
    cr_expect(out->rank == 2 && out->dims[1] == 1000);
    size_t outputs = 0, inputs = 0;
    for (size_t i = 0; i < g.n_tensors; i++) {
        outputs += g.tensors[i].is_output;
        inputs += g.tensors[i].is_input;
    }
    cr_expect_eq(inputs, 1);
    cr_expect_eq(outputs, 1);
    arena_graph_free(&g);
}

/* Bytes live at step t, counted directly from the records. */
static uint64_t live_at(const struct arena_problem *p, uint32_t t)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->tensors[i].first <= t && t <= p->tensors[i].last)
            sum += p->tensors[i].size;
    return sum;
}

/* Naive sum for the default int8 graph, tensor by tensor from Table 2
 * (h*w*c bytes each):
 *   input 224*224*3                                   150,528
 *   conv1 112*112*32                                  401,408
 *   block0: dw 112^2*32 401,408 + proj 112^2*16 200,704   602,112
 *   block1: exp 112^2*96 1,204,224 + dw 56^2*96 301,056
 *           + proj 56^2*24 75,264                   1,580,544
 *   block2: exp, dw 56^2*144 = 451,584 each; proj, add 75,264 each 1,053,696
 *   block3: exp 451,584 + dw 28^2*144 112,896 + proj 28^2*32 25,088  589,568
 *   block4,5: (exp, dw 28^2*192 = 150,528; proj, add 25,088) x2    702,464
 *   block6: exp 150,528 + dw 14^2*192 37,632 + proj 14^2*64 12,544  200,704
 *   block7-9: (exp, dw 14^2*384 = 75,264; proj, add 12,544) x3     526,848
 *   block10: exp, dw 75,264 each + proj 14^2*96 18,816            169,344
 *   block11,12: (exp, dw 14^2*576 = 112,896; proj, add 18,816) x2  526,848
 *   block13: exp 112,896 + dw 7^2*576 28,224 + proj 7^2*160 7,840  148,960
 *   block14,15: (exp, dw 7^2*960 = 47,040; proj, add 7,840) x2     219,520
 *   block16: exp, dw 47,040 each + proj 7^2*320 15,680            109,760
 *   conv_last 7^2*1280                                 62,720
 *   avgpool 1280, logits 1000, softmax 1000             3,280
 *   total                                           7,048,304
 * With 16-byte alignment logits and softmax round up to 1008: +16 = 7,048,320.
 *
 * Lower bound: at block1's stride-2 depthwise (step 4) its input
 * 112*112*96 = 1,204,224 and its output 56*56*96 = 301,056 are live:
 * 1,505,280; no other step holds more (the expand step before holds
 * 200,704 + 1,204,224 = 1,404,928). Largest tensor 1,204,224. */
Test(mobilenetv2, default_int8_figures)
{
    struct arena_source s = load("mobilenetv2", 1);
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&s.problem, &b), ARENA_OK);
    cr_expect_eq(s.ops, 65);
    cr_expect_eq(s.problem.n, 66);
    cr_expect_eq(b.largest, 1204224);
    cr_expect_eq(b.naive_bytes, 7048304);
    cr_expect_eq(b.lower_bound, 1505280);
    cr_expect_eq(live_at(&s.problem, 4), 1505280);
    cr_expect_eq(live_at(&s.problem, 3), 1404928);
    for (uint32_t t = 0; t < 65; t++)
        cr_expect_leq(live_at(&s.problem, t), 1505280, "step %u", t);
    arena_source_free(&s);

    s = load("mobilenetv2", 16);
    cr_assert_eq(arena_problem_bounds(&s.problem, &b), ARENA_OK);
    cr_expect_eq(b.naive_bytes, 7048320);
    cr_expect_eq(b.lower_bound, 1505280);
    arena_source_free(&s);
}

/* fp32: every tensor is 4x (1000 x 4 = 4000 is already a multiple of 16). */
Test(mobilenetv2, fp32_figures_are_four_times)
{
    struct arena_source s = load("mobilenetv2:dtype=fp32", 16);
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&s.problem, &b), ARENA_OK);
    cr_expect_eq(s.problem.n, 66);
    cr_expect_eq(b.largest, 4 * 1204224ull);    /* 4,816,896 */
    cr_expect_eq(b.naive_bytes, 4 * 7048304ull); /* 28,193,216 */
    cr_expect_eq(b.lower_bound, 4 * 1505280ull); /* 6,021,120 */
    arena_source_free(&s);
}

/* Unfused: conv, batch_norm, relu6 per layer; projections have no relu6.
 * ops: conv1 3; block0 dw 3 + project 2 = 5; blocks 1-16 expand 3 + dw 3 +
 * project 2 = 8 each, 128; 10 adds; conv_last 3; avgpool, logits, softmax 3:
 * 3 + 5 + 128 + 10 + 3 + 3 = 152 ops, 153 tensors.
 * Naive: the fused 7,048,304 plus two more copies of every ReLU6 layer's
 * output (conv1 401,408, block0 dw 401,408, expands 3,339,840, other dws
 * 1,900,416, conv_last 62,720: 6,105,792) and one more of every projection
 * (572,320): 7,048,304 + 12,211,584 + 572,320 = 19,832,208.
 * Lower bound: block1's expand conv output and its batch_norm output, both
 * 112*112*96, are live together: 2,408,448. */
Test(mobilenetv2, unfused_graph)
{
    struct arena_graph g;
    build("mobilenetv2:fused=0", &g);
    cr_expect_eq(g.n_ops, 152);
    cr_expect_eq(g.n_tensors, 153);
    size_t bn = 0, relu = 0;
    for (size_t i = 0; i < g.n_ops; i++) {
        bn += strcmp(g.ops[i].kind, "batch_norm") == 0;
        relu += strcmp(g.ops[i].kind, "relu6") == 0;
    }
    /* batch_norm after every conv layer: conv1, block0 dw and project,
     * 16 x (expand, dw, project), conv_last = 3 + 48 + 1 = 52; relu6 after
     * all but the 17 projections: 35 */
    cr_expect_eq(bn, 52);
    cr_expect_eq(relu, 35);
    cr_expect_str_eq(g.ops[0].name, "conv1/conv2d");
    cr_expect_str_eq(g.ops[1].name, "conv1/batch_norm");
    cr_expect_str_eq(g.ops[2].name, "conv1/relu6");
    cr_expect_str_eq(g.ops[6].name, "block0/project/conv2d");
    cr_expect_str_eq(g.ops[7].name, "block0/project/batch_norm");
    cr_expect_str_eq(g.ops[8].name, "block1/expand/conv2d");
    arena_graph_free(&g);

    struct arena_source s = load("mobilenetv2:fused=0", 1);
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&s.problem, &b), ARENA_OK);
    cr_expect_eq(b.naive_bytes, 19832208);
    cr_expect_eq(b.lower_bound, 2408448);
    cr_expect_eq(b.largest, 1204224);
    arena_source_free(&s);
}

/* A search in a test always carries a limit: a regression then fails in
 * seconds rather than hanging (the others ignore it). */
static const struct arena_plan_options budget = {.node_limit = 200000};

static uint64_t plan_arena(const struct arena_planner *pl, const struct arena_problem *p)
{
    size_t need = 0;
    cr_assert_eq(arena_planner_scratch(pl, p, &need), ARENA_OK);
    void *scratch = need ? malloc(need) : NULL;
    uint64_t *off = malloc(p->n * sizeof *off);
    struct arena_plan plan = {.n = p->n, .offsets = off};
    cr_assert_eq(arena_planner_run(pl, p, &budget, scratch, need, &plan), ARENA_OK, "%s", pl->name);
    struct arena_collision why;
    int rc = arena_plan_validate(p, &plan, &why);
    char text[256] = "";
    if (rc == ARENA_ECONFLICT)
        arena_collision_describe(p, &plan, &why, text, sizeof text);
    cr_expect_eq(rc, ARENA_OK, "%s: invalid plan: %s", pl->name, text);
    free(scratch);
    free(off);
    return plan.arena;
}

Test(mobilenetv2, every_planner_gives_a_valid_plan)
{
    struct arena_source s = load("mobilenetv2", 16);
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&s.problem, &b), ARENA_OK);
    cr_assert_geq(arena_planner_count(), 1);
    for (size_t i = 0; i < arena_planner_count(); i++) {
        const struct arena_planner *pl = arena_planner_at(i);
        uint64_t arena = plan_arena(pl, &s.problem);
        cr_expect_geq(arena, b.lower_bound, "%s", pl->name);
        cr_expect_leq(arena, b.naive_bytes, "%s", pl->name);
    }
    const struct arena_planner *greedy = arena_planner_find("greedy-by-size");
    cr_assert_not_null(greedy, "greedy-by-size is not registered");
    cr_expect_eq(plan_arena(greedy, &s.problem), 1505280);
    arena_source_free(&s);
}

/* saving = 1 - arena / naive. Unfusing adds tensors that never live long,
 * so naive grows far more than the arena: the saving must grow. */
Test(mobilenetv2, unfused_saving_exceeds_fused)
{
    const struct arena_planner *greedy = arena_planner_find("greedy-by-size");
    cr_assert_not_null(greedy, "greedy-by-size is not registered");
    double saving[2];
    const char *specs[2] = {"mobilenetv2:fused=1", "mobilenetv2:fused=0"};
    for (int i = 0; i < 2; i++) {
        struct arena_source s = load(specs[i], 16);
        struct arena_bounds b;
        cr_assert_eq(arena_problem_bounds(&s.problem, &b), ARENA_OK);
        uint64_t arena = plan_arena(greedy, &s.problem);
        saving[i] = 1.0 - (double)arena / (double)b.naive_bytes;
        arena_source_free(&s);
    }
    cr_expect_gt(saving[1], saving[0], "unfused %f vs fused %f", saving[1], saving[0]);
}

/* Channels after _make_divisible(c * alpha, 8) = max(8, int(v + 4) // 8 * 8),
 * +8 if below 0.9 v:
 *   alpha 0.35: stem 32*.35 = 11.2 -> 8, < 10.08 -> 16; rows 16 -> 5.6 -> 8;
 *     24 -> 8.4 -> 8; 32 -> 11.2 -> 16; 64 -> 22.4 -> 24; 96 -> 33.6 -> 32;
 *     160 -> 56 -> 56; 320 -> 112 -> 112; last conv 1280 (alpha <= 1)
 *   alpha 1.4: stem 44.8 -> 48; 16 -> 22.4 -> 24; 24 -> 33.6 -> 32;
 *     32 -> 44.8 -> 48; 64 -> 89.6 -> 88; 96 -> 134.4 -> 136;
 *     160 -> 224; 320 -> 448; last 1280*1.4 = 1792
 *   alpha 1.3: last 1280*1.3 = 1664 -> int(1668)//8*8 = 1664
 *   alpha 0.5: stem 16; rows 8, 16, 16, 32, 48, 80, 160; last 1280
 *   alpha 0.75: stem 24; rows 16 (12 -> 16), 24 (18 -> 16, < 16.2 -> 24),
 *     24, 48, 72, 120, 240; last 1280 */
static void expect_channels(const char *spec, const unsigned want[9])
{
    struct arena_graph g;
    build(spec, &g);
    const char *names[9] = {"conv1",          "block0/project", "block2/project",
                            "block5/project", "block9/project", "block12/project",
                            "block15/project", "block16/project", "conv_last"};
    for (int i = 0; i < 9; i++) {
        uint32_t id;
        cr_assert_eq(arena_graph_tensor_find(&g, names[i], &id), ARENA_OK, "%s", names[i]);
        cr_expect_eq(g.tensors[id].dims[3], want[i], "%s %s: %llu", spec, names[i],
                     (unsigned long long)g.tensors[id].dims[3]);
    }
    arena_graph_free(&g);
}

Test(mobilenetv2, width_multiplier_rounding)
{
    const unsigned a035[9] = {16, 8, 8, 16, 24, 32, 56, 112, 1280};
    const unsigned a05[9] = {16, 8, 16, 16, 32, 48, 80, 160, 1280};
    const unsigned a075[9] = {24, 16, 24, 24, 48, 72, 120, 240, 1280};
    const unsigned a1[9] = {32, 16, 24, 32, 64, 96, 160, 320, 1280};
    const unsigned a13[9] = {40, 24, 32, 40, 80, 128, 208, 416, 1664};
    const unsigned a14[9] = {48, 24, 32, 48, 88, 136, 224, 448, 1792};
    expect_channels("mobilenetv2:alpha=0.35", a035);
    expect_channels("mobilenetv2:alpha=0.5", a05);
    expect_channels("mobilenetv2:alpha=0.75", a075);
    expect_channels("mobilenetv2:alpha=1.0", a1);
    expect_channels("mobilenetv2:alpha=1.3", a13);
    expect_channels("mobilenetv2:alpha=1.4", a14);
}

/* alpha 1.3 by hand: stem 41.6 -> int(45.6) = 45 -> 40 (>= 37.44); 16 -> 20.8
 * -> 24; 24 -> 31.2 -> 32; 32 -> 41.6 -> 40; 64 -> 83.2 -> 80; 96 -> 124.8
 * -> 128; 160 -> 208; 320 -> 416. */

Test(mobilenetv2, resolutions_and_classes)
{
    const unsigned res[5] = {96, 128, 160, 192, 224};
    const unsigned last[5] = {3, 4, 5, 6, 7}; /* res / 32, SAME padding */
    for (int i = 0; i < 5; i++) {
        char spec[64];
        snprintf(spec, sizeof spec, "mobilenetv2:res=%u,classes=1001", res[i]);
        struct arena_graph g;
        build(spec, &g);
        uint32_t id;
        cr_assert_eq(arena_graph_tensor_find(&g, "conv_last", &id), ARENA_OK);
        cr_expect_eq(g.tensors[id].dims[1], last[i], "%s", spec);
        cr_assert_eq(arena_graph_tensor_find(&g, "softmax", &id), ARENA_OK);
        cr_expect_eq(g.tensors[id].dims[1], 1001);
        cr_expect_eq(g.n_ops, 65);
        arena_graph_free(&g);
    }
    /* res 96, alpha 0.35: largest is block1's expand, 48*48*(8*6) = 110,592;
     * lower bound at its depthwise: 110,592 + 24*24*48 = 27,648 -> 138,240 */
    struct arena_source s = load("mobilenetv2:alpha=0.35,res=96", 1);
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&s.problem, &b), ARENA_OK);
    cr_expect_eq(b.largest, 110592);
    cr_expect_eq(b.lower_bound, 138240);
    arena_source_free(&s);
}

Test(mobilenetv2, bad_values_are_refused)
{
    const char *bad[] = {"mobilenetv2:alpha=0.4", "mobilenetv2:res=100", "mobilenetv2:res=256",
                         "mobilenetv2:classes=10", "mobilenetv2:fused=2",
                         "mobilenetv2:dtype=int4"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct arena_source s;
        char err[256] = "";
        cr_expect_eq(arena_source_load(bad[i], 16, 1, &s, err, sizeof err), ARENA_EINVAL, "%s",
                     bad[i]);
        cr_expect_neq(err[0], '\0');
        cr_expect_null(s.problem.tensors);
    }
    char err[256];
    struct arena_source s;
    arena_source_load("mobilenetv2:alpha=0.4", 16, 1, &s, err, sizeof err);
    cr_expect_str_eq(err, "mobilenetv2: key 'alpha': 0.4 is not one of 0.35, 0.5, 0.75, 1, 1.3, 1.4");
}

/* The whole parameter grid: 6 alphas x 5 resolutions x 2 class counts x 2
 * fusions, each in all four element types. Every graph passes the checks, the
 * op count is 65 fused and 152 unfused, and at alignment 1 every figure of
 * the int16/fp16 graph is 2x and of the fp32 graph 4x the int8 one (every
 * tensor is scaled by the element size). */
Test(mobilenetv2, parameter_grid)
{
    const char *alphas[] = {"0.35", "0.5", "0.75", "1", "1.3", "1.4"};
    const unsigned res[] = {96, 128, 160, 192, 224}, classes[] = {1000, 1001};
    const char *dtypes[] = {"int8", "int16", "fp16", "fp32"};
    const uint64_t scale[] = {1, 2, 2, 4};
    for (size_t a = 0; a < 6; a++)
        for (size_t r = 0; r < 5; r++)
            for (size_t c = 0; c < 2; c++)
                for (unsigned fused = 0; fused < 2; fused++) {
                    struct arena_bounds base = {0};
                    for (size_t d = 0; d < 4; d++) {
                        char spec[160];
                        snprintf(spec, sizeof spec,
                                 "mobilenetv2:alpha=%s,res=%u,classes=%u,fused=%u,dtype=%s",
                                 alphas[a], res[r], classes[c], fused, dtypes[d]);
                        struct arena_graph g;
                        build(spec, &g);
                        cr_expect_eq(g.n_ops, fused ? 65u : 152u, "%s", spec);
                        arena_graph_free(&g);
                        struct arena_source s = load(spec, 1);
                        struct arena_bounds b;
                        cr_assert_eq(arena_problem_bounds(&s.problem, &b), ARENA_OK);
                        if (d == 0)
                            base = b;
                        cr_expect_eq(b.naive_bytes, scale[d] * base.naive_bytes, "%s", spec);
                        cr_expect_eq(b.lower_bound, scale[d] * base.lower_bound, "%s", spec);
                        cr_expect_eq(b.largest, scale[d] * base.largest, "%s", spec);
                        cr_expect_geq(b.lower_bound, b.largest, "%s", spec);
                        arena_source_free(&s);
                    }
                }
}
