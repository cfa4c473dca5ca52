/* suites.c — the graph suites behind `--graph all` and `--graph scaling`. */
#include "bench/suites.h"

#include <stdio.h>
#include <string.h>

/* Every family at a few sizes plus MobileNetV2 variants (widths,
 * resolutions, fp32, unfused). With every planner and the default budgets
 * it takes minutes (docs/bench.md, "Suites": min-cost-flow's calls on the largest
 * graphs, and the search planners' time limit). */
static const char *const suite_all[] = {
    "mobilenetv2",
    "mobilenetv2:alpha=0.35,res=96",
    "mobilenetv2:alpha=0.5,res=128",
    "mobilenetv2:alpha=0.75,res=160",
    "mobilenetv2:alpha=1.4,res=224",
    "mobilenetv2:dtype=fp32",
    "mobilenetv2:fused=0",
    "chain:ops=16",
    "chain:ops=256",
    "chain:ops=4096",
    "residual:ops=16,skip=2",
    "residual:ops=256,skip=4",
    "residual:ops=4096,skip=8",
    "unet:levels=3",
    "unet:levels=4",
    "unet:levels=6,convs=3",
    "transformer:blocks=1",
    "transformer:blocks=4",
    "transformer:blocks=12,seq=256",
    "random-dag:ops=64",
    "random-dag:ops=1000",
    "random-dag:ops=10000",
    "random-intervals:n=100,live=10",
    "random-intervals:n=1000,live=10",
    "random-intervals:n=10000,live=100",
};

/* random-intervals at 10^3 .. 10^6 tensors with about 10 and about 1,000
 * tensors live at once, for the log-log planning-time chart. The last point
 * (10^6 tensors, 1,000 live) is by far the slowest. */
static const char *const suite_scaling[] = {
    "random-intervals:n=1000,live=10",
    "random-intervals:n=10000,live=10",
    "random-intervals:n=100000,live=10",
    "random-intervals:n=1000000,live=10",
    "random-intervals:n=1000,live=1000",
    "random-intervals:n=10000,live=1000",
    "random-intervals:n=100000,live=1000",
    "random-intervals:n=1000000,live=1000",
};

/* The real models scripts/fetch-models places in models/ (paths relative
 * to where bench runs, the source tree): 12 networks, 13 problems (the
 * ONNX text detector at two input sizes; ONNX models as shaped there). */
static const char *const suite_models[] = {
    "models/selfie_segmentation.tflite",
    "models/selfie_segmentation_landscape.tflite",
    "models/face_detection_short_range.tflite",
    "models/face_detection_full_range.tflite",
    "models/hand_landmark_full.tflite",
    "models/hand_landmark_lite.tflite",
    "models/pose_landmark_lite.tflite",
    "models/pose_landmark_full.tflite",
    "models/pose_landmark_heavy.tflite",
    "models/ch_PP-OCRv4_det_infer.1x3x320x320.onnx",
    "models/ch_PP-OCRv4_det_infer.1x3x640x640.onnx",
    "models/ch_PP-OCRv4_rec_infer.1x3x48x320.onnx",
    "models/ch_ppocr_mobile_v2.0_cls_infer.1x3x48x192.onnx",
};
#define N_ALL (sizeof suite_all / sizeof suite_all[0])
#define N_MODELS (sizeof suite_models / sizeof suite_models[0])

/* The models present; all of them when none is, so that `--graph models`
 * names the missing file rather than planning nothing. */
static size_t present_models(const char **out)
{
    size_t k = 0;
    for (size_t i = 0; i < N_MODELS; i++) {
        FILE *f = fopen(suite_models[i], "rb");
        if (f) {
            fclose(f);
            out[k++] = suite_models[i];
        }
    }
    return k;
}
/* Instances whose optimum is known or provable, for the planner `optimal`
 * (docs/optimal.md, "Suite `exact`"): packed fill=1 at five
 * sizes and three seeds (optimum = height), a chain (optimum = lower bound),
 * MobileNetV2 fused and unfused, and the default residual, unet and
 * random-intervals. */
static const char *const suite_exact[] = {
    "packed:n=50,seed=1",  "packed:n=50,seed=2",  "packed:n=50,seed=3",
    "packed:n=100,seed=1", "packed:n=100,seed=2", "packed:n=100,seed=3",
    "packed:n=200,seed=1", "packed:n=200,seed=2", "packed:n=200,seed=3",
    "packed:n=300,seed=1", "packed:n=300,seed=2", "packed:n=300,seed=3",
    "packed:n=500,seed=1", "packed:n=500,seed=2", "packed:n=500,seed=3",
    "chain:ops=256",
    "mobilenetv2",
    "mobilenetv2:fused=0",
    "residual",
    "unet",
    "random-intervals",
};

/* Tight instances with slack (issue 25): the family `slack` (a
 * non-guillotine packed box 1 MiB tall, sizes and steps in multiples of
 * 1,024, with holes; optimum = max-live = 1 MiB by construction) at six
 * sizes from 150 to 500 tensors, five seeds each. */
static const char *const suite_exact_slack[] = {
    "slack:n=150,seed=1", "slack:n=150,seed=2", "slack:n=150,seed=3", "slack:n=150,seed=4", "slack:n=150,seed=5",
    "slack:n=220,seed=1", "slack:n=220,seed=2", "slack:n=220,seed=3", "slack:n=220,seed=4", "slack:n=220,seed=5",
    "slack:n=290,seed=1", "slack:n=290,seed=2", "slack:n=290,seed=3", "slack:n=290,seed=4", "slack:n=290,seed=5",
    "slack:n=360,seed=1", "slack:n=360,seed=2", "slack:n=360,seed=3", "slack:n=360,seed=4", "slack:n=360,seed=5",
    "slack:n=430,seed=1", "slack:n=430,seed=2", "slack:n=430,seed=3", "slack:n=430,seed=4", "slack:n=430,seed=5",
    "slack:n=500,seed=1", "slack:n=500,seed=2", "slack:n=500,seed=3", "slack:n=500,seed=4", "slack:n=500,seed=5",
};

const char *const *arena_bench_suite(const char *name, size_t *n)
{
    /* filled per call: bench asks from one thread, before planning */
    static const char *list[N_ALL + N_MODELS];
    if (strcmp(name, "all") == 0) { /* every family, then the models present */
        for (size_t i = 0; i < N_ALL; i++)
            list[i] = suite_all[i];
        *n = N_ALL + present_models(list + N_ALL);
        return list;
    }
    if (strcmp(name, "models") == 0) {
        *n = present_models(list);
        if (*n == 0) {
            *n = N_MODELS;
            return suite_models;
        }
        return list;
    }
    if (strcmp(name, "exact") == 0) {
        *n = sizeof suite_exact / sizeof suite_exact[0];
        return suite_exact;
    }
    if (strcmp(name, "exact-slack") == 0) {
        *n = sizeof suite_exact_slack / sizeof suite_exact_slack[0];
        return suite_exact_slack;
    }
    if (strcmp(name, "scaling") == 0) {
        *n = sizeof suite_scaling / sizeof suite_scaling[0];
        return suite_scaling;
    }
    return NULL;
}
