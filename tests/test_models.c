/* test_models.c — the .tflite reader on real networks: the MediaPipe models
 * scripts/fetch-models places in models/ (pinned npm packages, sha256
 * checked). Known answers from an independent reading of the files (issue
 * 13, alignment 1); every registered planner's plan on every model checked
 * by the validator. When models/ lacks a file the test is skipped, visibly,
 * with the command to run; .ci/run fetches them and fails on such a skip. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/source.h"
#include "graphs/tflite.h"
#include "planners/planner.h"
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

Test(models, selfie_segmentation) { known_answers(0); }
Test(models, face_detection_short_range) { known_answers(1); }
Test(models, face_detection_full_range) { known_answers(2); }

/* Every registered planner on every model (alignment 16, bench's default):
 * a valid plan, arena >= the lower bound. Search planners get 2 s each. */
static void every_planner(size_t m)
{
    const char *path = model_path(models[m].file);
    struct arena_source src;
    char err[512] = "";
    cr_assert_eq(arena_source_load(path, 16, 1, &src, err, sizeof err), ARENA_OK, "%s", err);
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&src.problem, &b), ARENA_OK);
    struct arena_plan_options opt = arena_plan_options_default;
    opt.time_limit = 2.0;
    for (size_t i = 0; i < arena_planner_count(); i++) {
        const struct arena_planner *pl = arena_planner_at(i);
        size_t bytes = 0;
        cr_assert_eq(arena_planner_scratch(pl, &src.problem, &bytes), ARENA_OK);
        void *scratch = malloc(bytes ? bytes : 1);
        uint64_t *off = calloc(src.problem.n, sizeof *off);
        cr_assert(scratch && off);
        struct arena_plan plan;
        memset(&plan, 0, sizeof plan);
        plan.n = src.problem.n;
        plan.offsets = off;
        cr_assert_eq(arena_planner_run(pl, &src.problem, &opt, scratch, bytes, &plan), ARENA_OK,
                     "%s on %s", pl->name, models[m].file);
        struct arena_collision why;
        cr_expect_eq(arena_plan_validate(&src.problem, &plan, &why), ARENA_OK, "%s on %s",
                     pl->name, models[m].file);
        cr_expect_geq(plan.arena, b.lower_bound, "%s on %s", pl->name, models[m].file);
        free(scratch);
        free(off);
    }
    arena_source_free(&src);
}

Test(models, every_planner_selfie_segmentation) { every_planner(0); }
Test(models, every_planner_face_detection_short_range) { every_planner(1); }
Test(models, every_planner_face_detection_full_range) { every_planner(2); }
Test(models, every_planner_selfie_segmentation_landscape) { every_planner(3); }

/* bench --export-plan on a real model: every planner's header compiles and
 * its plan holds on real memory (no head or tail: the bare activations). */
Test(models, export_plan_face_detection_short_range)
{
    const char *path = model_path(models[1].file);
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/arena-models-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    cr_expect_eq(ec_check_all(path, dir, 0, 0), arena_planner_count());
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}
