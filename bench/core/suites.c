/* suites.c — the named graph suites (suites.h): one table, each suite's
 * name, summary and items written once; and the --graph list rule that
 * splits a --graph value or a suite file's line into items. */
#include "bench/core/suites.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/sweep.h"
#include "planners/status.h"

/* MobileNetV2 at the widths and resolutions of its paper's table, in fp32
 * and unfused: one network's variants, the first items of `all`. */
static const char *const suite_all[] = {
    "mobilenetv2",
    "mobilenetv2:alpha=0.35,res=96",
    "mobilenetv2:alpha=0.5,res=128",
    "mobilenetv2:alpha=0.75,res=160",
    "mobilenetv2:alpha=1.4,res=224",
    "mobilenetv2:dtype=fp32",
    "mobilenetv2:fused=0",
/* Every family at a few sizes after them. With every planner and the
 * default budgets `all` takes minutes (docs/bench.md, "Suites": min-cost-flow's
 * calls on the largest graphs, and the search planners' time limit). */
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
#define N_MOBILENETV2 7 /* the first items of suite_all */
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

/* MLPerf Tiny's networks (issue 46) at their reference configurations,
 * int8 as the reference .tflite files (graphs/ds_cnn.c and the others),
 * then float32 as the float reference files. */
static const char *const suite_mlperf_tiny[] = {
    "ds-cnn", "mobilenetv1", "resnet8", "fc-autoencoder", "ds-tcn",
    "ds-cnn:dtype=fp32", "mobilenetv1:dtype=fp32", "resnet8:dtype=fp32",
    "fc-autoencoder:dtype=fp32", "ds-tcn:dtype=fp32",
};

/* The table: the suites in --list's order. `all` and `models` are built
 * per call (the models present); the others are their lists. */
enum kind { FIXED, ALL, MODELS };
static const struct suite {
    const char *name, *summary;
    enum kind kind;
    const char *const *items;
    size_t n;
} suites[] = {
    {"all", "every family at a few sizes, then the models present", ALL, suite_all, N_ALL},
    {"mobilenetv2-variants", "MobileNetV2 at five widths and resolutions, fp32, unfused", FIXED,
     suite_all, N_MOBILENETV2},
    {"scaling", "random-intervals at 10^3 to 10^6 tensors, 10 and 1,000 live", FIXED,
     suite_scaling, sizeof suite_scaling / sizeof suite_scaling[0]},
    {"exact", "instances whose optimum is known or provable", FIXED, suite_exact,
     sizeof suite_exact / sizeof suite_exact[0]},
    {"exact-slack", "the family slack at six sizes, five seeds each", FIXED, suite_exact_slack,
     sizeof suite_exact_slack / sizeof suite_exact_slack[0]},
    {"mlperf-tiny", "MLPerf Tiny's five networks as their reference .tflite, int8 and fp32",
     FIXED, suite_mlperf_tiny, sizeof suite_mlperf_tiny / sizeof suite_mlperf_tiny[0]},
    {"models", "the real models of scripts/fetch-models present in models/", MODELS,
     suite_models, N_MODELS},
};
#define N_SUITES (sizeof suites / sizeof suites[0])

size_t arena_bench_suite_count(void)
{
    return N_SUITES;
}

const char *arena_bench_suite_name(size_t i)
{
    return i < N_SUITES ? suites[i].name : NULL;
}

const char *arena_bench_suite_summary(size_t i)
{
    return i < N_SUITES ? suites[i].summary : NULL;
}

const char *const *arena_bench_suite(const char *name, size_t *n)
{
    /* filled per call: bench asks from one thread, before planning */
    static const char *list[N_ALL + N_MODELS];
    const struct suite *s = NULL;
    for (size_t i = 0; i < N_SUITES && !s; i++)
        if (strcmp(suites[i].name, name) == 0) s = &suites[i];
    if (!s) return NULL;
    if (s->kind == ALL) { /* every family, then the models present */
        for (size_t i = 0; i < N_ALL; i++)
            list[i] = suite_all[i];
        *n = N_ALL + present_models(list + N_ALL);
        return list;
    }
    if (s->kind == MODELS) {
        *n = present_models(list);
        if (*n == 0) {
            *n = N_MODELS;
            return suite_models;
        }
        return list;
    }
    *n = s->n;
    return s->items;
}

/* A user's suite file: its items, each malloc'd. */
static int read_suite_file(const char *path, struct arena_suite_items *out, char *err,
                           size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return arena_errorf(err, errlen, 0, ARENA_EIO, "--suite %s: cannot open: %s", path,
                            strerror(errno));
    char **items = NULL, line[8192];
    size_t n = 0;
    unsigned long no = 0;
    int rc = ARENA_OK;
    while (rc == ARENA_OK && fgets(line, sizeof line, f)) {
        no++;
        if (!strchr(line, '\n') && !feof(f)) {
            rc = arena_errorf(err, errlen, 0, ARENA_EINVAL, "--suite %s:%lu: line longer than"
                              " %zu bytes", path, no, sizeof line - 2);
            break;
        }
        size_t len = strcspn(line, "#\r\n");
        while (len && (line[len - 1] == ' ' || line[len - 1] == '\t')) len--;
        size_t start = strspn(line, " \t");
        if (start >= len) continue;
        line[len] = '\0';
        char why[300] = "";
        rc = arena_bench_graph_split(line + start, &items, &n, why, sizeof why);
        if (rc)
            arena_errorf(err, errlen, 0, rc, "--suite %s:%lu: %s", path, no, why);
    }
    if (rc == ARENA_OK && ferror(f))
        rc = arena_errorf(err, errlen, 0, ARENA_EIO, "--suite %s: read error", path);
    fclose(f);
    if (rc == ARENA_OK && n == 0)
        rc = arena_errorf(err, errlen, 0, ARENA_EINVAL, "--suite %s: lists no graph", path);
    char *name = rc == ARENA_OK ? malloc(strlen(path) + 1) : NULL;
    if (rc == ARENA_OK && !name) rc = ARENA_ENOMEM;
    if (rc != ARENA_OK) {
        for (size_t i = 0; i < n; i++) free(items[i]);
        free(items);
        return rc;
    }
    strcpy(name, path);
    out->name = name;
    out->items = (const char *const *)items;
    out->n = n;
    return ARENA_OK;
}

int arena_bench_suite_items(const char *text, struct arena_suite_items *out, char *err,
                            size_t errlen)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < N_SUITES; i++) {
        if (strcmp(suites[i].name, text) != 0) continue;
        /* every graph the suite can hold: all models, present or not */
        const char **items = malloc((N_ALL + N_MODELS) * sizeof *items);
        char *name = malloc(strlen(text) + 1);
        if (!items || !name) {
            free(items);
            free(name);
            return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
        }
        size_t n = 0;
        for (size_t k = 0; k < suites[i].n; k++) items[n++] = suites[i].items[k];
        if (suites[i].kind == ALL)
            for (size_t k = 0; k < N_MODELS; k++) items[n++] = suite_models[k];
        for (size_t k = 0; k < n; k++) { /* owned copies, as a file's are */
            char *c = malloc(strlen(items[k]) + 1);
            if (!c) {
                for (size_t j = 0; j < k; j++) free((void *)items[j]);
                free(items);
                free(name);
                return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
            }
            items[k] = strcpy(c, items[k]);
        }
        strcpy(name, text);
        out->name = name;
        out->items = items;
        out->n = n;
        return ARENA_OK;
    }
    FILE *f = fopen(text, "r");
    if (!f) {
        char known[256] = "";
        for (size_t i = 0; i < N_SUITES; i++) {
            size_t used = strlen(known);
            snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", suites[i].name);
        }
        return arena_errorf(err, errlen, 0, ARENA_ENOTFOUND,
                            "--suite: '%s' is neither a suite (%s) nor a file listing graphs",
                            text, known);
    }
    fclose(f);
    return read_suite_file(text, out, err, errlen);
}

void arena_bench_suite_items_free(struct arena_suite_items *s)
{
    for (size_t i = 0; i < s->n; i++) free((void *)s->items[i]);
    free((void *)s->items);
    free((void *)s->name);
    memset(s, 0, sizeof *s);
}

/* A comma-separated piece continues the previous spec when it is key=value. */
static int continues_spec(const char *piece, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (piece[i] == ':') return 0;
        if (piece[i] == '=') return 1;
    }
    return 0;
}

/* One ';'-free part: pieces between commas; a key=value piece joins the item
 * before it, any other piece starts a new item. The first piece always
 * starts one (so a path that happens to hold '=' still works after ';'). */
static int split_part(const char *part, size_t len, char ***items, size_t *n, char *err,
                      size_t errlen)
{
    size_t item = 0; /* start of the current item */
    size_t piece = 0;
    for (;;) {
        size_t end = piece;
        while (end < len && part[end] != ',') end++;
        if (end == piece)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--graph: empty item in '%.*s'", (int)len, part);
        if (piece != item && !continues_spec(part + piece, end - piece)) {
            if (arena_sweep_append(items, n, part + item, piece - 1 - item) != ARENA_OK)
                return ARENA_ENOMEM;
            item = piece;
        }
        if (end == len) break;
        piece = end + 1;
        if (piece == len) /* trailing comma */
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--graph: empty item in '%.*s'", (int)len, part);
    }
    return arena_sweep_append(items, n, part + item, len - item);
}

int arena_bench_graph_split(const char *text, char ***items, size_t *n, char *err, size_t errlen)
{
    if (!text || !text[0]) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--graph: empty value");
    const char *p = text;
    for (;;) {
        const char *semi = strchr(p, ';');
        size_t len = semi ? (size_t)(semi - p) : strlen(p);
        if (len == 0) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--graph: empty item in '%s'", text);
        int rc = split_part(p, len, items, n, err, errlen);
        if (rc != ARENA_OK) return rc;
        if (!semi) return ARENA_OK;
        p = semi + 1;
    }
}
