/* test_patch.c — the patch transform (graphs/patch.h) on graphs small enough
 * to work out by hand, then on MobileNetV2 with every planner and the
 * validator, and its refusals. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/family.h"
#include "graphs/patch.h"
#include "graphs/source.h"
#include "planners/planner.h"
#include "tests/expect_plan.h"

/* A 1 x h x h x c int8 tensor. */
static uint32_t tensor(struct arena_graph *g, const char *name, uint64_t h, uint64_t c)
{
    uint64_t dims[4] = {1, h, h, c};
    uint32_t id = 0;
    arena_graph_tensor_add(g, name, ARENA_DTYPE_INT8, 4, dims, &id);
    return id;
}

/* A k x k conv, stride s, padding p before, from `in` (c_in channels). */
static void conv(struct arena_graph *g, const char *name, uint32_t in, uint32_t out, unsigned k,
                 unsigned s, unsigned p, uint64_t c_in)
{
    struct arena_gop_window w = {.kh = k, .kw = k, .sh = s, .sw = s, .pad_top = p,
                                 .pad_left = p, .macs_per_out = (uint64_t)k * k * c_in};
    arena_graph_op_add(g, name, "conv2d", &in, 1, &out, 1);
    arena_graph_op_window_set(g, &w);
}

static const struct arena_gtensor *find(const struct arena_graph *g, const char *name)
{
    uint32_t id = 0;
    cr_assert_eq(arena_graph_tensor_find(g, name, &id), ARENA_OK, "no tensor %s", name);
    return &g->tensors[id];
}

static void patch(const struct arena_graph *g, const char *text, struct arena_graph *out,
                  struct arena_patch_report *rep)
{
    struct arena_patch_spec ps;
    char err[512];
    cr_assert_eq(arena_patch_parse(text, &ps, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_eq(arena_graph_patch(g, &ps, out, rep, err, sizeof err), ARENA_OK, "%s", err);
}

/* input 8x8x1 -> a: 3x3 s1 pad 1 -> t1 8x8x2 -> b: 3x3 s1 pad 1 -> t2
 * 8x8x2 -> c: 1x1 -> t3 8x8x1 (graph output), patched 2x2 over a, b.
 *
 * By hand: each patch of t2 is 4x4 (rows [0,4) or [4,8)); b needs one row
 * and column more of t1 on the inner side (the other side is the border),
 * so every t1 patch is 5x5x2 = 50 B. MACs: a 64 x 2 x 9 = 1,152 and b
 * 64 x 2 x 18 = 2,304 whole (3,456); patched a 4 x 25 x 2 x 9 = 1,800 and
 * b 4 x 16 x 2 x 18 = 2,304 (4,104, +648 = +18.75 %); c adds 64 x 2 = 128
 * to the graph's 3,584.
 *
 * Steps: (a, b) per patch at 0..7, c at 8. input 64 B lives [0, 6] (the
 * last patch's a reads it), t2 128 B [1, 8] (the first patch's b writes
 * it, c reads it), t1@i,j 50 B over its patch's two steps, t3 64 B [8, 8].
 * Live: step 0 64 + 50 = 114; steps 1-6 64 + 50 + 128 = 242; step 7
 * 50 + 128 = 178; step 8 128 + 64 = 192. Peak 242 B, below the unpatched
 * graph's 256 B (t1 + t2 at b). */
static void two_convs(struct arena_graph *g)
{
    arena_graph_init(g);
    uint32_t in = tensor(g, "input", 8, 1), t1 = tensor(g, "t1", 8, 2),
             t2 = tensor(g, "t2", 8, 2), t3 = tensor(g, "t3", 8, 1);
    g->tensors[in].is_input = 1;
    g->tensors[t3].is_output = 1;
    conv(g, "a", in, t1, 3, 1, 1, 1);
    conv(g, "b", t1, t2, 3, 1, 1, 2);
    conv(g, "c", t2, t3, 1, 1, 0, 2);
    cr_assert_eq(arena_graph_check(g, NULL, NULL, 0), ARENA_OK);
}

Test(patch, two_convs_by_hand)
{
    struct arena_graph g, out;
    struct arena_patch_report rep;
    two_convs(&g);
    patch(&g, "2x2:2", &out, &rep);
    cr_expect_eq(out.n_ops, 4 * 2 + 1);
    cr_expect_eq(out.n_tensors, 3 + 4, "input, t2, t3 and four t1 patches");
    const char *names[4] = {"t1@0,0", "t1@0,1", "t1@1,0", "t1@1,1"};
    for (int i = 0; i < 4; i++) {
        const struct arena_gtensor *t = find(&out, names[i]);
        cr_expect(t->dims[1] == 5 && t->dims[2] == 5 && t->dims[3] == 2, "%s: %llux%llux%llu",
                  names[i], (unsigned long long)t->dims[1], (unsigned long long)t->dims[2],
                  (unsigned long long)t->dims[3]);
        cr_expect_eq(t->bytes, 50);
    }
    cr_expect_eq(find(&out, "t2")->bytes, 128, "the stage output stays whole");
    /* The first patch's b writes t2; every later one writes into it: it
     * reads its t1 patch and t2, and writes no tensor. */
    uint32_t t2id = 0;
    arena_graph_tensor_find(&out, "t2", &t2id);
    for (size_t o = 0; o < out.n_ops; o++) {
        const struct arena_gop *op = &out.ops[o];
        if (strncmp(op->name, "b@", 2) != 0)
            continue;
        int first = strcmp(op->name, "b@0,0") == 0;
        cr_expect_eq(op->n_out, first ? 1u : 0u, "%s", op->name);
        cr_expect_eq(op->n_in, first ? 1u : 2u, "%s", op->name);
        cr_expect_eq(out.refs[op->in_first + op->n_in + op->n_out - 1], t2id, "%s", op->name);
    }
    cr_expect_eq(rep.stage_macs, 3456);
    cr_expect_eq(rep.patched_macs, 4104);
    cr_expect_eq(rep.graph_macs, 3584);
    cr_expect_str_eq(rep.out_name, "t2");

    struct arena_problem p, whole;
    cr_assert_eq(arena_graph_problem(&out, 1, &p, NULL, NULL, 0), ARENA_OK);
    cr_assert_eq(arena_graph_problem(&g, 1, &whole, NULL, NULL, 0), ARENA_OK);
    struct arena_bounds b, wb;
    cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
    cr_assert_eq(arena_problem_bounds(&whole, &wb), ARENA_OK);
    cr_expect_eq(b.lower_bound, 242);
    cr_expect_eq(wb.lower_bound, 256);
    cr_expect_eq(rep.stage_ops, 8);
    cr_assert_eq(arena_patch_stage_peak(&p, &rep), ARENA_OK);
    cr_expect_eq(rep.stage_peak, 242);
    uint32_t t2 = 0, in = 0;
    arena_graph_tensor_find(&out, "t2", &t2);
    arena_graph_tensor_find(&out, "input", &in);
    cr_expect(p.tensors[t2].first == 1 && p.tensors[t2].last == 8);
    cr_expect(p.tensors[in].first == 0 && p.tensors[in].last == 6);
    free((void *)p.tensors);
    free((void *)whole.tensors);
    arena_graph_free(&out);
    arena_graph_free(&g);
}

/* The same, input read per patch (stream): a's 5x5 region of t1 needs
 * input rows and columns [0, 4 - 1 + 3) = [0, 6) on the border side, so
 * every input patch is 6x6x1 = 36 B, read by its own op before a. Steps:
 * (read, a, b) per patch at 0..11, c at 12. Patch 0: 36; 36 + 50 = 86;
 * 50 + 128 = 178; each later patch: 36 + 128 = 164; 36 + 50 + 128 = 214;
 * 178; then c 128 + 64 = 192. Peak 214 B = 242 - 64 + 36. */
Test(patch, two_convs_input_streamed)
{
    struct arena_graph g, out;
    struct arena_patch_report rep;
    two_convs(&g);
    patch(&g, "2x2:2:stream", &out, &rep);
    cr_expect_eq(out.n_ops, 4 * 3 + 1);
    uint32_t id;
    cr_expect_eq(arena_graph_tensor_find(&out, "input", &id), ARENA_ENOTFOUND);
    const struct arena_gtensor *in = find(&out, "input@1,0");
    cr_expect(in->dims[1] == 6 && in->dims[2] == 6 && in->bytes == 36);
    cr_expect_eq(rep.patched_macs, 4104, "reading costs no MACs");
    struct arena_problem p = {0};
    struct arena_bounds b;
    cr_assert_eq(arena_graph_problem(&out, 1, &p, NULL, NULL, 0), ARENA_OK);
    cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
    cr_expect_eq(b.lower_bound, 214);
    cr_expect_eq(rep.stage_ops, 12);
    cr_assert_eq(arena_patch_stage_peak(&p, &rep), ARENA_OK);
    cr_expect_eq(rep.stage_peak, 214);
    free((void *)p.tensors);
    arena_graph_free(&out);
    arena_graph_free(&g);
}

/* input 8x8x1 -> a: 3x3 s1 pad 1 -> t1 8x8x1 -> b: 3x3 s2, SAME (0 rows
 * before, 1 after) -> t2 4x4x1, patched 2x2. Output rows [0,2) need t1
 * rows [0, 1*2 + 3) = [0,5); rows [2,4) need [4, 3*2 + 3) clipped to 8 =
 * [4,8): 5 and 4 rows, columns alike, so t1's patches are 5x5, 5x4, 4x5,
 * 4x4 (81 elements against 64 whole). MACs: a 64 x 9 = 576 whole, 81 x 9 =
 * 729 patched; b 16 x 9 = 144 both: 720 -> 873. */
Test(patch, stride_two_uneven_halo)
{
    struct arena_graph g, out;
    struct arena_patch_report rep;
    arena_graph_init(&g);
    uint32_t in = tensor(&g, "input", 8, 1), t1 = tensor(&g, "t1", 8, 1), t2 = tensor(&g, "t2", 4, 1);
    g.tensors[in].is_input = 1;
    g.tensors[t2].is_output = 1;
    conv(&g, "a", in, t1, 3, 1, 1, 1);
    conv(&g, "b", t1, t2, 3, 2, 0, 1);
    patch(&g, "2x2:2", &out, &rep);
    const struct {
        const char *name;
        uint64_t h, w;
    } want[] = {{"t1@0,0", 5, 5}, {"t1@0,1", 5, 4}, {"t1@1,0", 4, 5}, {"t1@1,1", 4, 4}};
    for (int i = 0; i < 4; i++) {
        const struct arena_gtensor *t = find(&out, want[i].name);
        cr_expect(t->dims[1] == want[i].h && t->dims[2] == want[i].w, "%s: %llux%llu",
                  want[i].name, (unsigned long long)t->dims[1], (unsigned long long)t->dims[2]);
    }
    cr_expect_eq(rep.stage_macs, 720);
    cr_expect_eq(rep.patched_macs, 873);
    arena_graph_free(&out);
    arena_graph_free(&g);
}

/* A 1x1 grid is the stage unchanged: no halo, the same MACs, the same
 * bound. A one-op stage has no halo at any grid: its input is whole and
 * its output patches do not overlap. */
Test(patch, no_halo_cases)
{
    struct arena_graph g, out;
    struct arena_patch_report rep;
    two_convs(&g);
    patch(&g, "1x1:2", &out, &rep);
    cr_expect_eq(rep.patched_macs, rep.stage_macs);
    struct arena_problem p, whole;
    struct arena_bounds b, wb;
    cr_assert_eq(arena_graph_problem(&out, 1, &p, NULL, NULL, 0), ARENA_OK);
    cr_assert_eq(arena_graph_problem(&g, 1, &whole, NULL, NULL, 0), ARENA_OK);
    arena_problem_bounds(&p, &b);
    arena_problem_bounds(&whole, &wb);
    cr_expect_eq(b.lower_bound, wb.lower_bound);
    cr_expect_eq(b.naive_bytes, wb.naive_bytes);
    free((void *)p.tensors);
    free((void *)whole.tensors);
    arena_graph_free(&out);
    patch(&g, "4x2:1", &out, &rep);
    cr_expect_eq(rep.stage_macs, 1152);
    cr_expect_eq(rep.patched_macs, 1152);
    arena_graph_free(&out);
    arena_graph_free(&g);
}

static struct arena_source load_patched(const char *spec, const char *patch_text, int want_rc,
                                        char *err, size_t errlen)
{
    struct arena_patch_spec ps;
    cr_assert_eq(arena_patch_parse(patch_text, &ps, err, errlen), ARENA_OK, "%s", err);
    struct arena_load_options opt = {.alignment = 16, .seed = 1, .patch = &ps};
    struct arena_source s;
    int rc = arena_source_load_with(spec, &opt, &s, err, errlen);
    cr_assert_eq(rc, want_rc, "%s --patch %s: %d %s", spec, patch_text, rc, err);
    return s;
}

/* Plans s with every registered planner and checks each plan with the
 * validator and against the bound; returns the bound. */
static uint64_t every_planner_valid(const struct arena_source *s)
{
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&s->problem, &b), ARENA_OK);
    uint64_t *off = malloc(s->problem.n * sizeof *off);
    cr_assert(off);
    for (size_t i = 0; i < arena_planner_count(); i++) {
        const struct arena_planner *pl = arena_planner_at(i);
        struct arena_plan plan;
        struct arena_plan_options opt = {.seed = 1, .time_limit = 1.0};
        cr_assert_eq(run_planner(pl, &s->problem, &opt, off, &plan, 0xA5), ARENA_OK, "%s on %s",
                     pl->name, s->spec);
        char who[256];
        snprintf(who, sizeof who, "%s on %s", pl->name, s->spec);
        expect_plan_valid(&s->problem, &plan, who);
        cr_expect_geq(plan.arena, b.lower_bound, "%s", who);
    }
    free(off);
    return b.lower_bound;
}

/* MobileNetV2's stem by hand: 112 x 112 x 32 outputs of 3 x 3 x 3 MACs =
 * 10,838,016; as a one-op stage no grid adds any. The whole graph is
 * Sandler et al.'s 300 M multiply-adds (their Table 4) within 1 % (the
 * classifier states no window, so it is not counted). */
Test(patch, mobilenetv2_macs)
{
    char err[512];
    struct arena_source s = load_patched("mobilenetv2", "4x4:1", ARENA_OK, err, sizeof err);
    cr_expect_eq(s.patch.stage_macs, 10838016ULL);
    cr_expect_eq(s.patch.patched_macs, 10838016ULL);
    cr_expect(s.patch.graph_macs > 297000000ULL && s.patch.graph_macs < 303000000ULL, "%llu",
              (unsigned long long)s.patch.graph_macs);
    cr_expect(strstr(s.spec, "+patch=4x4:1") != NULL, "%s", s.spec);
    arena_source_free(&s);
}

/* The patched MobileNetV2 stages as MCUNetV2 cuts them (to 56 and to 28
 * rows), at 2x2, 3x3, 4x4 and both fusions: every registered planner's plan
 * passes the validator; the bound is below the unpatched graph's; more
 * patches cost more MACs. */
Test(patch, mobilenetv2_every_planner_valid, .timeout = 120)
{
    const char *specs[] = {"mobilenetv2", "mobilenetv2:fused=0"};
    const char *grids[] = {"2x2:", "3x3:", "4x4:"};
    const unsigned ks[2][2] = {{10, 13}, {25, 33}}; /* block2/add, block3/project */
    char err[512];
    for (int f = 0; f < 2; f++) {
        struct arena_source whole;
        cr_assert_eq(arena_source_load(specs[f], 16, 1, &whole, err, sizeof err), ARENA_OK);
        struct arena_bounds wb;
        arena_problem_bounds(&whole.problem, &wb);
        for (int k = 0; k < 2; k++) {
            uint64_t last_macs = 0;
            for (int gi = 0; gi < 3; gi++) {
                char text[32];
                snprintf(text, sizeof text, "%s%u", grids[gi], ks[f][k]);
                struct arena_source s = load_patched(specs[f], text, ARENA_OK, err, sizeof err);
                cr_expect_str_eq(s.patch.out_name, k ? (f ? "block3/project/batch_norm"
                                                          : "block3/project")
                                                     : "block2/add");
                cr_expect_gt(s.patch.patched_macs, last_macs, "%s", text);
                last_macs = s.patch.patched_macs;
                uint64_t bound = every_planner_valid(&s);
                cr_expect_lt(bound, wb.lower_bound, "%s %s", specs[f], text);
                arena_source_free(&s);
            }
            /* The input read per patch: the same MACs, never a higher
             * bound, and a lower one where the stage holds the peak (2x2
             * to 28 rows; at 4x4, or to 56 rows unfused, the peak lies
             * after the stage). */
            char text[32];
            snprintf(text, sizeof text, "2x2:%u", ks[f][k]);
            struct arena_source s = load_patched(specs[f], text, ARENA_OK, err, sizeof err);
            struct arena_bounds held;
            arena_problem_bounds(&s.problem, &held);
            uint64_t macs = s.patch.patched_macs;
            arena_source_free(&s);
            snprintf(text, sizeof text, "2x2:%u:stream", ks[f][k]);
            s = load_patched(specs[f], text, ARENA_OK, err, sizeof err);
            cr_expect_eq(s.patch.patched_macs, macs);
            uint64_t bound = every_planner_valid(&s);
            cr_expect_leq(bound, held.lower_bound, "%s %s", specs[f], text);
            if (k == 1)
                cr_expect_lt(bound, held.lower_bound, "%s %s", specs[f], text);
            arena_source_free(&s);
        }
        arena_source_free(&whole);
    }
}

Test(patch, refusals_are_one_clear_line)
{
    char err[512];
    struct {
        const char *spec, *patch, *says;
    } bad[] = {
        {"chain", "2x2:1", "states no window"},
        {"random-intervals", "2x2:1", "bare problem"},
        {ARENA_SOURCE_ROOT "/graphs/examples/tiny_cnn.graph", "2x2:1", "is a file"},
        {"mobilenetv2", "2x2:7", "2 tensors read later"}, /* block2/expand: its block input too */
        {"mobilenetv2", "64x64:13", "more patches than rows"},
        {"mobilenetv2", "2x2:66", "the graph has 65 ops"},
        {"mobilenetv2", "2x2:64", "states no window"}, /* the pool has none */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct arena_source s = load_patched(bad[i].spec, bad[i].patch, ARENA_EINVAL, err,
                                             sizeof err);
        cr_expect(strstr(err, bad[i].says) != NULL, "%s: '%s' lacks '%s'", bad[i].spec, err,
                  bad[i].says);
        cr_expect(strchr(err, '\n') == NULL, "%s", err);
        cr_expect_null(s.problem.tensors);
    }
    const char *unparsable[] = {"4x4", "0x4:3", "4x4:0", "4x4:3x", "4:3", "x4:3", "65x1:3",
                                "4x4:99999999999", "",
                                "4x4:3:", "4x4:3:streams", "4x4:stream"};
    struct arena_patch_spec ps;
    for (size_t i = 0; i < sizeof unparsable / sizeof unparsable[0]; i++)
        cr_expect_eq(arena_patch_parse(unparsable[i], &ps, err, sizeof err), ARENA_EINVAL, "%s",
                     unparsable[i]);
    cr_expect_eq(arena_patch_parse("3x2:17", &ps, err, sizeof err), ARENA_OK);
    cr_expect(ps.rows == 3 && ps.cols == 2 && ps.k == 17 && !ps.stream);
    cr_expect_eq(arena_patch_parse("3x2:17:stream", &ps, err, sizeof err), ARENA_OK);
    cr_expect(ps.rows == 3 && ps.cols == 2 && ps.k == 17 && ps.stream);
}

/* The canonical spec of a patched graph loads again, to the same problem;
 * the patch given twice (in the spec and as an option) is refused. */
Test(patch, patched_spec_round_trips)
{
    char err[512];
    struct arena_source a = load_patched("mobilenetv2:res=96", "3x3:10:stream", ARENA_OK, err,
                                         sizeof err);
    cr_expect_str_eq(a.spec, "mobilenetv2:alpha=1,res=96,dtype=int8,classes=1000,fused=1"
                             "+patch=3x3:10:stream");
    struct arena_source b;
    cr_assert_eq(arena_source_load(a.spec, 16, 1, &b, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_str_eq(b.spec, a.spec);
    cr_expect_eq(b.fingerprint, a.fingerprint);
    cr_expect_eq(b.patch.patched_macs, a.patch.patched_macs);
    cr_expect_eq(arena_source_check(a.spec, err, sizeof err), ARENA_OK, "%s", err);
    struct arena_source c = load_patched(a.spec, "2x2:10", ARENA_EINVAL, err, sizeof err);
    cr_expect(strstr(err, "give the patch once") != NULL, "%s", err);
    cr_expect_eq(arena_source_check("mobilenetv2+patch=4x4", err, sizeof err), ARENA_EINVAL);
    arena_source_free(&a);
    arena_source_free(&b);
    arena_source_free(&c);
}
