/* test_models.c — the model readers on real networks: the MediaPipe
 * TensorFlow Lite models and the PP-OCR ONNX models scripts/fetch-models
 * places in models/ (pinned npm packages, sha256 checked; the ONNX ones
 * shaped by scripts/onnx-shape). Known answers from independent readings
 * of the files (issue 13 at alignment 1; issue 22 at alignment 16, the
 * detector's by an independent script); every registered planner's plan on
 * every model checked by the validator. When models/ lacks a file the test
 * is skipped, visibly, with the command to run; .ci/run fetches them and
 * fails on such a skip. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/onnx.h"
#include "graphs/source.h"
#include "graphs/tflite.h"
#include "planners/planner.h"
#include "tests/expect_plan.h"
#include "tests/export_check.h"

#ifndef ARENA_SOURCE_ROOT
#error "tests/meson.build passes ARENA_SOURCE_ROOT"
#endif

TestSuite(models);

struct known {
    const char *file;
    size_t ops, folded, planned; /* 0: not known independently */
    uint64_t naive, lower_bound, largest;
};

static const struct known models[] = {
    {"selfie_segmentation.tflite", 246, 110, 137, 29960096, 3670016, 1179648},
    {"face_detection_short_range.tflite", 0, 0, 91, 9898496, 1376256, 458752},
    {"face_detection_full_range.tflite", 0, 0, 177, 37377792, 3538944, 0},
    {"selfie_segmentation_landscape.tflite", 0, 0, 0, 0, 0, 0},
};
#define N_MODELS (sizeof models / sizeof models[0])

/* models/FILE under the source tree, or a skip naming the fix. */
static const char *model_path(const char *file)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/models/%s", ARENA_SOURCE_ROOT, file);
    FILE *f = fopen(path, "rb");
    if (!f)
        cr_skip_test("models/%s is missing: run scripts/fetch-models", file);
    fclose(f);
    return path;
}

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    cr_assert_eq(fseek(f, 0, SEEK_END), 0);
    long len = ftell(f);
    cr_assert_gt(len, 0);
    rewind(f);
    unsigned char *b = malloc((size_t)len);
    cr_assert_not_null(b);
    cr_assert_eq(fread(b, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return b;
}

static void known_answers(size_t m)
{
    const struct known *k = &models[m];
    const char *path = model_path(k->file);
    size_t n;
    unsigned char *data = slurp(path, &n);
    struct arena_graph g;
    struct arena_tflite_info info;
    char err[512] = "";
    cr_assert_eq(arena_tflite_read(data, n, path, 0, &g, &info, err, sizeof err), ARENA_OK, "%s",
                 err);
    free(data);
    if (k->ops) {
        cr_expect_eq(info.ops, k->ops, "%s: ops stored", k->file);
        cr_expect_eq(info.folded, k->folded, "%s: ops folded", k->file);
    }
    cr_expect_eq(info.planned, k->planned, "%s: arena tensors", k->file);
    cr_expect_eq(info.variables, 0);
    arena_graph_free(&g);

    struct arena_source src;
    cr_assert_eq(arena_source_load(path, 1, 1, &src, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_str_eq(src.family, "tflite");
    cr_expect_null(src.warning, "%s", src.warning ? src.warning : "");
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&src.problem, &b), ARENA_OK);
    cr_expect_eq(b.naive_bytes, k->naive, "%s: naive", k->file);
    cr_expect_eq(b.lower_bound, k->lower_bound, "%s: lower bound", k->file);
    if (k->largest)
        cr_expect_eq(b.largest, k->largest, "%s: largest tensor", k->file);
    arena_source_free(&src);
}

/* Issue 22's table (alignment 16, the stored order): tensors planned, or
 * for an ONNX model the nodes that run (stored minus folded); naive bytes
 * (0 where the issue gives none); the lower bound; and where greedy-by-size
 * misses it, its arena. The ONNX models' naive bytes and the recogniser's
 * and classifier's figures come from an independent Python reading of the
 * shaped copies (python3-onnx: value_info dims x element size, the same
 * folding rules, TFLM lifetimes), which also gives the detector's bounds. */
struct known16 {
    const char *file;
    size_t tensors, run; /* run: ONNX nodes not folded, else 0 */
    uint64_t naive, lower_bound, greedy_size;
};

static const struct known16 zoo[] = {
    {"hand_landmark_full.tflite", 64, 0, 25275072, 4014080, 4315136},
    {"hand_landmark_lite.tflite", 66, 0, 19023104, 4214784, 0},
    {"pose_landmark_lite.tflite", 130, 0, 51256640, 6963200, 0},
    {"pose_landmark_full.tflite", 141, 0, 66435136, 9044992, 0},
    {"pose_landmark_heavy.tflite", 294, 0, 138755904, 13305344, 0},
    {"ch_PP-OCRv4_det_infer.1x3x320x320.onnx", 331, 330, 173912448, 9830400, 0},
    {"ch_PP-OCRv4_det_infer.1x3x640x640.onnx", 331, 330, 695605248, 39321600, 0},
    {"ch_PP-OCRv4_rec_infer.1x3x48x320.onnx", 404, 403, 201711040, 2949120, 0},
    {"ch_ppocr_mobile_v2.0_cls_infer.1x3x48x192.onnx", 216, 215, 13380880, 485376, 0},
};
#define N_ZOO (sizeof zoo / sizeof zoo[0])

static void zoo_answers(size_t m)
{
    const struct known16 *k = &zoo[m];
    const char *path = model_path(k->file);
    if (k->run) {
        size_t n;
        unsigned char *data = slurp(path, &n);
        struct arena_graph g;
        struct arena_onnx_info info;
        char err[512] = "";
        cr_assert_eq(arena_onnx_read(data, n, path, &g, &info, err, sizeof err), ARENA_OK, "%s",
                     err);
        free(data);
        cr_expect_eq(info.nodes - info.folded, k->run, "%s: nodes that run", k->file);
        cr_expect_eq(info.planned, k->tensors, "%s: arena tensors", k->file);
        arena_graph_free(&g);
    }
    struct arena_source src;
    char err[512] = "";
    cr_assert_eq(arena_source_load(path, 16, 1, &src, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_str_eq(src.family, k->run ? "onnx" : "tflite");
    cr_expect_eq(src.problem.n, k->tensors, "%s: arena tensors", k->file);
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&src.problem, &b), ARENA_OK);
    if (k->naive)
        cr_expect_eq(b.naive_bytes, k->naive, "%s: naive", k->file);
    cr_expect_eq(b.lower_bound, k->lower_bound, "%s: lower bound", k->file);
    if (k->greedy_size) {
        uint64_t *off = calloc(src.problem.n, sizeof *off);
        cr_assert_not_null(off);
        struct arena_plan plan = {0};
        cr_assert_eq(run_planner(must_find("greedy-by-size"), &src.problem, NULL, off, &plan, 0),
                     ARENA_OK);
        expect_plan_valid(&src.problem, &plan, k->file);
        cr_expect_eq(plan.arena, k->greedy_size, "%s: greedy-by-size", k->file);
        free(off);
    }
    arena_source_free(&src);
}

Test(models, hand_landmark_full) { zoo_answers(0); }
Test(models, hand_landmark_lite) { zoo_answers(1); }
Test(models, pose_landmark_lite) { zoo_answers(2); }
Test(models, pose_landmark_full) { zoo_answers(3); }
Test(models, pose_landmark_heavy) { zoo_answers(4); }
Test(models, ppocr_det_320) { zoo_answers(5); }
Test(models, ppocr_det_640) { zoo_answers(6); }
Test(models, ppocr_rec) { zoo_answers(7); }
Test(models, ppocr_cls) { zoo_answers(8); }

/* The detector as fetched, before scripts/onnx-shape: refused in one line
 * naming the input and the way out. */
/* docs/configurations.md and below-the-bound.md: the best execution order
 * (bench --order best) of every fetched model but pose_landmark_lite is its
 * stored one, proven (a certificate or the search); pose_landmark_lite's
 * saves 2.1 %, 6,963,200 -> 6,817,024 B at alignment 16, proven (issue 45:
 * the docs said every model's stored order was already the best). */
Test(models, the_best_order_beats_the_stored_one_on_pose_landmark_lite_only)
{
    const char *files[N_MODELS + N_ZOO];
    size_t n = 0;
    for (size_t m = 0; m < N_MODELS; m++) files[n++] = models[m].file;
    for (size_t m = 0; m < N_ZOO; m++) files[n++] = zoo[m].file;
    for (size_t m = 0; m < n; m++) {
        const char *path = model_path(files[m]);
        struct arena_load_options opt = {.alignment = 16, .seed = 1, .order = ARENA_ORDER_BEST};
        struct arena_source src;
        char err[512] = "";
        cr_assert_eq(arena_source_load_with(path, &opt, &src, err, sizeof err), ARENA_OK, "%s", err);
        const struct arena_order_result *o = &src.order;
        cr_expect_eq(o->bound, o->peak, "%s: best order %llu not proven (bound %llu)", files[m],
                     (unsigned long long)o->peak, (unsigned long long)o->bound);
        if (strcmp(files[m], "pose_landmark_lite.tflite") == 0) {
            cr_expect_eq(o->stored_peak, 6963200, "%s: stored order's peak", files[m]);
            cr_expect_eq(o->peak, 6817024, "%s: best order's peak", files[m]);
        } else {
            cr_expect_eq(o->peak, o->stored_peak, "%s: an order better than the stored one (%llu < %llu)",
                         files[m], (unsigned long long)o->peak, (unsigned long long)o->stored_peak);
        }
        arena_source_free(&src);
    }
}

Test(models, unshaped_onnx_refused_naming_the_tensor)
{
    const char *path = model_path("unshaped/ch_PP-OCRv4_det_infer.onnx");
    struct arena_source src;
    char err[512] = "";
    cr_expect_eq(arena_source_load(path, 16, 1, &src, err, sizeof err), ARENA_EFORMAT);
    cr_expect_not_null(strstr(err, "tensor 'x' (graph input 0): dim 0 is symbolic"
                                   " ('p2o.DynamicDimension.0')"),
                       "%s", err);
    cr_expect_not_null(strstr(err, "scripts/onnx-shape"), "%s", err);
    cr_expect_null(strchr(err, '\n'));
}

Test(models, selfie_segmentation) { known_answers(0); }
Test(models, face_detection_short_range) { known_answers(1); }
Test(models, face_detection_full_range) { known_answers(2); }

/* Every registered planner on every model (alignment 16, bench's default):
 * a valid plan, arena >= the lower bound. Search planners get 2 s each. */
static void every_planner_on(const char *file)
{
    const char *path = model_path(file);
    struct arena_source src;
    char err[512] = "";
    cr_assert_eq(arena_source_load(path, 16, 1, &src, err, sizeof err), ARENA_OK, "%s", err);
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&src.problem, &b), ARENA_OK);
    struct arena_plan_options opt = arena_plan_options_default;
    opt.time_limit = 2.0;
    for (size_t i = 0; i < arena_planner_count(); i++) {
        const struct arena_planner *pl = arena_planner_at(i);
        uint64_t *off = calloc(src.problem.n, sizeof *off);
        cr_assert_not_null(off);
        struct arena_plan plan = {0};
        cr_assert_eq(run_planner(pl, &src.problem, &opt, off, &plan, 0xa5), ARENA_OK, "%s on %s",
                     pl->name, file);
        expect_plan_valid(&src.problem, &plan, pl->name);
        cr_expect_geq(plan.arena, b.lower_bound, "%s on %s", pl->name, file);
        free(off);
    }
    arena_source_free(&src);
}

static void every_planner(size_t m) { every_planner_on(models[m].file); }

Test(models, every_planner_selfie_segmentation) { every_planner(0); }
Test(models, every_planner_face_detection_short_range) { every_planner(1); }
Test(models, every_planner_face_detection_full_range) { every_planner(2); }
Test(models, every_planner_selfie_segmentation_landscape) { every_planner(3); }

Test(models, every_planner_hand_landmark_full) { every_planner_on(zoo[0].file); }
Test(models, every_planner_hand_landmark_lite) { every_planner_on(zoo[1].file); }
Test(models, every_planner_pose_landmark_lite) { every_planner_on(zoo[2].file); }
Test(models, every_planner_pose_landmark_full) { every_planner_on(zoo[3].file); }
Test(models, every_planner_pose_landmark_heavy) { every_planner_on(zoo[4].file); }
Test(models, every_planner_ppocr_det_320) { every_planner_on(zoo[5].file); }
Test(models, every_planner_ppocr_det_640) { every_planner_on(zoo[6].file); }
Test(models, every_planner_ppocr_rec) { every_planner_on(zoo[7].file); }
Test(models, every_planner_ppocr_cls) { every_planner_on(zoo[8].file); }

/* bench --export-plan on a real model: every planner's header compiles and
 * its plan holds on real memory (no head or tail: the bare activations). */
static void export_plan_holds(const char *file)
{
    const char *path = model_path(file);
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/arena-models-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    cr_expect_eq(ec_check_all(path, dir, 0, 0), arena_planner_count());
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

Test(models, export_plan_face_detection_short_range) { export_plan_holds(models[1].file); }

/* The same on an ONNX model: the PP-OCR direction classifier (216 arena
 * tensors, 471 nodes of which 256 fold). */
Test(models, export_plan_ppocr_cls) { export_plan_holds(zoo[8].file); }

/* The reader states a conv's window from its options and its filter's
 * shape (for --scratch): face_detection_short_range's first conv (op2,
 * after the two DEQUANTIZEs of its fp16 weights) is 5x5 stride 2 from
 * 128x128x3 to 64x64x24, SAME: (63 x 2 + 5 - 128) = 3 rows of padding, 1
 * before; the first depthwise conv (op6) 3x3 stride 1 on 64x64x24, 1
 * before. Read with flatc and TFLite's schema.fbs to write these down. */
Test(models, conv_windows_from_options_and_filters)
{
    const char *path = model_path("face_detection_short_range.tflite");
    struct arena_load_options o = {.alignment = 16, .seed = 1, .keep_graph = 1};
    struct arena_source s;
    char err[512];
    cr_assert_eq(arena_source_load_with(path, &o, &s, err, sizeof err), ARENA_OK, "%s", err);
    const struct arena_graph *g = s.graph;
    const struct arena_gop *conv = NULL, *dw = NULL;
    for (size_t i = 0; i < g->n_ops; i++) {
        if (strcmp(g->ops[i].name, "op2") == 0) conv = &g->ops[i];
        if (strcmp(g->ops[i].name, "op6") == 0) dw = &g->ops[i];
    }
    cr_assert(conv && dw);
    cr_expect_str_eq(conv->kind, "CONV_2D");
    cr_expect(conv->win.kh == 5 && conv->win.kw == 5 && conv->win.sh == 2 && conv->win.sw == 2 &&
                  conv->win.pad_top == 1 && conv->win.pad_left == 1 &&
                  conv->win.macs_per_out == 75,
              "conv window %u x %u / %u, pad %u %u, %llu MACs", conv->win.kh, conv->win.kw,
              conv->win.sh, conv->win.pad_top, conv->win.pad_left,
              (unsigned long long)conv->win.macs_per_out);
    cr_expect_str_eq(dw->kind, "DEPTHWISE_CONV_2D");
    cr_expect(dw->win.kh == 3 && dw->win.kw == 3 && dw->win.sh == 1 && dw->win.pad_top == 1 &&
                  dw->win.pad_left == 1 && dw->win.macs_per_out == 9);
    arena_source_free(&s);
}
