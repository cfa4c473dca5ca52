/* source.c — the front door (source.h): a spec or a file path -> problem. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "graphs/family.h"
#include "graphs/files.h"
#include "graphs/graph_internal.h"
#include "graphs/lines.h"
#include "graphs/names.h"
#include "graphs/onnx.h"
#include "graphs/tflite.h"

static void put_le(unsigned char *b, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        b[i] = (unsigned char)(v >> (8 * i));
}

/* FNV-1a 64 over n (8 bytes), alignment (8), then per record size (8),
 * first (4), last (4), all little-endian, so it is the same on every host. */
uint64_t arena_problem_fingerprint(const struct arena_problem *p)
{
    unsigned char b[16];
    uint64_t h = ARENA_FNV_OFFSET;
    put_le(b, (uint64_t)p->n, 8);
    put_le(b + 8, p->alignment, 8);
    h = arena_fnv1a(h, b, 16);
    for (size_t i = 0; i < p->n; i++) {
        put_le(b, p->tensors[i].size, 8);
        put_le(b + 8, p->tensors[i].first, 4);
        put_le(b + 12, p->tensors[i].last, 4);
        h = arena_fnv1a(h, b, 16);
    }
    return h;
}

void arena_source_free(struct arena_source *s)
{
    free(s->spec);
    free(s->family);
    free(s->params);
    free(s->warning);
    free(s->names); /* one block */
    free(s->index);
    arena_order_result_free(&s->order);
    free((void *)s->problem.tensors);
    free((void *)s->problem.alias);
    memset(s, 0, sizeof *s);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int is_path(const char *text)
{
    struct stat st;
    return strchr(text, '/') || ends_with(text, ".csv") || ends_with(text, ".txt") ||
           ends_with(text, ".graph") || ends_with(text, ".tflite") ||
           ends_with(text, ".onnx") ||
           (stat(text, &st) == 0 && S_ISREG(st.st_mode));
}

enum kind { UNKNOWN, CSV, GRAPH, TFLITE, ONNX };

/* The kind an extension names; UNKNOWN when it names none. */
static enum kind kind_of_name(const char *path)
{
    if (ends_with(path, ".csv"))
        return CSV;
    if (ends_with(path, ".graph") || ends_with(path, ".txt"))
        return GRAPH;
    if (ends_with(path, ".tflite"))
        return TFLITE;
    if (ends_with(path, ".onnx"))
        return ONNX;
    return UNKNOWN;
}

#define SNIFF_BYTES 4096

/* The kind the first bytes of a file show: a model when bytes 4-7 are
 * "TFL3", an ONNX model when they start as one (arena_onnx_is_model), a graph file when its first statement within SNIFF_BYTES is
 * `tensor` or `op`, else a CSV. A NUL byte ends the look (the reader then
 * names it). */
static enum kind kind_of_bytes(const unsigned char *data, size_t n)
{
    if (arena_tflite_is_model(data, n))
        return TFLITE;
    if (arena_onnx_is_model(data, n))
        return ONNX;
    char buf[SNIFF_BYTES + 1];
    n = n < SNIFF_BYTES ? n : SNIFF_BYTES;
    memcpy(buf, data, n);
    buf[n] = '\0'; /* a NUL inside ends the scan as well */
    const char *s = buf;
    if (strncmp(s, "\xef\xbb\xbf", 3) == 0)
        s += 3;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
            s++;
        if (*s != '#')
            break;
        while (*s && *s != '\n')
            s++;
    }
    size_t k = strncmp(s, "tensor", 6) == 0 ? 6 : strncmp(s, "op", 2) == 0 ? 2 : 0;
    return k && (s[k] == ' ' || s[k] == '\t') ? GRAPH : CSV;
}

/* A stream that cannot be read twice (a pipe, a terminal, a device), read
 * into memory once so the sniffed bytes are parsed too. Text stops at its
 * first NUL byte (the text readers refuse there, so /dev/zero ends at once);
 * a model stops at 2 GiB (refused: the FlatBuffers limit); *stop ends it. */
static int slurp(FILE *f, const char *path, const volatile sig_atomic_t *stop,
                 unsigned char **data, size_t *size, char *err, size_t errlen)
{
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    if (!buf)
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "%s: out of memory", path);
    for (;;) {
        if (stop && *stop) {
            free(buf);
            return arena_errorf(err, errlen, 0, ARENA_EIO, "%s: stopped by a signal", path);
        }
        if (n == cap) {
            int model = arena_tflite_is_model(buf, n) || arena_onnx_is_model(buf, n);
            unsigned char *grown = model && cap >= ((size_t)1 << 31) ? NULL
                                                                    : realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                return model && cap >= ((size_t)1 << 31)
                           ? arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                                          "%s: larger than 2 GiB, the FlatBuffers and"
                                          " protobuf limit",
                                          path)
                           : arena_errorf(err, errlen, 0, ARENA_ENOMEM,
                                          "%s: out of memory reading the input", path);
            }
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0) {
            if (ferror(f)) {
                free(buf);
                return arena_errorf(err, errlen, 0, ARENA_EIO, "%s: read error", path);
            }
            break;
        }
        int text = n + got >= 8 && !arena_tflite_is_model(buf, n + got) &&
                   !arena_onnx_is_model(buf, n + got);
        n += got;
        if (text && memchr(buf + n - got, '\0', got))
            break;
    }
    *data = buf;
    *size = n;
    return ARENA_OK;
}

/* A text reader over data[0, n) (fmemopen refuses size 0: an empty file). */
static FILE *open_bytes(unsigned char *data, size_t n)
{
    return n ? fmemopen(data, n, "rb") : fopen("/dev/null", "rb");
}

/* Loads the file path (subgraph sub of a model): of the kind its extension
 * names, else of the kind its first bytes show. */
static int load_file(const char *path, int has_sub, uint32_t sub,
                     const struct arena_load_options *opt, const char **family,
                     struct arena_problem *p, size_t *ops, char ***names,
                     struct arena_tflite_loaded *model, char *err, size_t errlen)
{
    enum kind kind = kind_of_name(path);
    unsigned char *data = NULL;
    size_t size = 0;
    struct stat st;
    int rc = ARENA_OK;
    if (kind == UNKNOWN) {
        FILE *f = arena_reader_open(path, err, errlen);
        if (!f)
            return ARENA_EIO;
        if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
            unsigned char head[SNIFF_BYTES];
            kind = kind_of_bytes(head, fread(head, 1, sizeof head, f));
        } else {
            rc = slurp(f, path, opt->stop, &data, &size, err, errlen);
            kind = rc ? UNKNOWN : kind_of_bytes(data, size);
        }
        fclose(f);
        if (rc)
            return rc;
    }
    *family = kind == TFLITE ? "tflite" : kind == ONNX ? "onnx" : kind == GRAPH ? "graph-file"
                                                                                 : "csv";
    if (has_sub && kind != TFLITE) {
        free(data);
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: '#%lu' picks a subgraph of a TensorFlow Lite model, and this"
                            " is %s file",
                            path, (unsigned long)sub,
                            kind == ONNX ? "an ONNX" : kind == GRAPH ? "a graph" : "a CSV");
    }
    if (kind == TFLITE) {
        rc = data ? arena_tflite_load_data_with(data, size, path, sub, opt, p, model, err, errlen)
                  : arena_tflite_load_with(path, sub, opt, p, model, err, errlen);
        *ops = model->ops;
        *names = model->names;
        model->names = NULL;
    } else if (kind == ONNX) {
        struct arena_onnx_loaded x;
        rc = data ? arena_onnx_load_data_with(data, size, path, opt, p, &x, err, errlen)
                  : arena_onnx_load_with(path, opt, p, &x, err, errlen);
        *ops = x.ops;
        *names = x.names;
    } else if (!data) {
        rc = kind == GRAPH ? arena_graph_file_load(path, opt, p, ops, names, err, errlen)
                           : arena_csv_read(path, opt, p, names, err, errlen);
    } else {
        FILE *f = open_bytes(data, size);
        if (!f)
            rc = arena_errorf(err, errlen, 0, ARENA_ENOMEM, "%s: out of memory", path);
        else {
            rc = kind == GRAPH
                     ? arena_graph_file_load_stream(f, path, opt, p, ops, names, err, errlen)
                     : arena_csv_read_stream(f, path, opt, p, names, err, errlen);
            fclose(f);
        }
    }
    free(data);
    return rc;
}

/* Keeps err one printable line whatever went into it. */
static void one_line(char *err, size_t errlen)
{
    if (!err || !errlen)
        return;
    for (char *p = err; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
            *p = '?';
}

/* "SPEC+patch=RxC:K[:stream]", as the canonical spec of a patched graph
 * reads: SPEC into base and the patch into *ps, returning 1; 0 when text
 * holds no "+patch="; a negative status (err set) when its patch is bad. */
static int split_patch(const char *text, char *base, size_t len, struct arena_patch_spec *ps,
                       char *err, size_t errlen)
{
    const char *at = strstr(text, "+patch=");
    if (!at)
        return 0;
    if ((size_t)(at - text) >= len)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "'%.64s...': too long a spec", text);
    memcpy(base, text, (size_t)(at - text));
    base[at - text] = '\0';
    char why[320];
    int rc = arena_patch_parse(at + 7, ps, why, sizeof why);
    return rc ? arena_errorf(err, errlen, 0, rc, "+patch=: %s", why) : 1;
}

int arena_source_check(const char *text, char *err, size_t errlen)
{
    char base[4096];
    struct arena_patch_spec ps;
    int has_patch = split_patch(text, base, sizeof base, &ps, err, errlen);
    if (has_patch < 0)
        return has_patch;
    if (has_patch)
        text = base;
    /* A spec that parses passes as either; only one that does not looks at
     * the file system (a sweep may hold 10^6 specs). */
    struct arena_spec s;
    int rc = arena_spec_parse(text, 0, &s, err, errlen);
    if (rc == ARENA_OK)
        return rc;
    char path[4096], why[512] = "";
    uint32_t sub;
    int has_sub = arena_tflite_split(text, path, sizeof path, &sub, why, sizeof why);
    if (has_sub < 0) {
        if (err && errlen)
            snprintf(err, errlen, "%s", why);
        return has_sub;
    }
    if (has_sub || is_path(text)) {
        if (err && errlen)
            err[0] = '\0';
        return ARENA_OK;
    }
    one_line(err, errlen);
    return rc;
}

/* A graph family's graph, patched, as a problem with its names. */
static int build_patched(const struct arena_spec *s, const struct arena_patch_spec *ps,
                         uint64_t alignment, struct arena_problem *p, size_t *ops, char ***names,
                         struct arena_patch_report *rep, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    *ops = 0;
    *names = NULL;
    const char *family = s->family->info.name;
    if (!s->family->build_graph)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--patch: family '%s' builds a bare problem, with no ops to patch",
                            family);
    struct arena_graph g, patched;
    int rc = arena_spec_graph(s, &g, err, errlen);
    if (rc)
        return rc;
    char why[384];
    rc = arena_graph_patch(&g, ps, &patched, rep, why, sizeof why);
    arena_graph_free(&g);
    if (rc)
        return arena_errorf(err, errlen, 0, rc, "--patch %ux%u:%u%s: %s: %s", ps->rows, ps->cols,
                            ps->k, ps->stream ? ":stream" : "", family, why);
    rc = arena_graph_problem_inplace(&patched, alignment, s->inplace, p, NULL, why, sizeof why);
    if (rc)
        arena_errorf(err, errlen, 0, rc, "%s: %s", family, why);
    else if (arena_patch_stage_peak(p, rep) || !(*names = arena_graph_names(&patched))) {
        free((void *)p->tensors);
        free((void *)p->alias);
        memset(p, 0, sizeof *p);
        rc = arena_errorf(err, errlen, 0, ARENA_ENOMEM, "%s: out of memory", family);
    } else
        *ops = patched.n_ops;
    arena_graph_free(&patched);
    return rc;
}

int arena_source_load(const char *text, uint64_t alignment, uint64_t seed,
                      struct arena_source *out, char *err, size_t errlen)
{
    struct arena_load_options opt = {.alignment = alignment, .seed = seed, .stop = NULL};
    return arena_source_load_with(text, &opt, out, err, errlen);
}

int arena_source_load_with(const char *text, const struct arena_load_options *asked,
                           struct arena_source *out, char *err, size_t errlen)
{
    struct arena_order_result order = {0};
    struct arena_load_options own = *asked;
    own.order_out = &order;
    const struct arena_load_options *opt = &own;
    uint64_t alignment = opt->alignment, seed = opt->seed;
    memset(out, 0, sizeof *out);
    if (err && errlen)
        err[0] = '\0';
    if (alignment == 0 || (alignment & (alignment - 1))) {
        if (err && errlen)
            snprintf(err, errlen, "alignment %llu is not a power of two",
                     (unsigned long long)alignment);
        return ARENA_EINVAL;
    }
    struct arena_problem p = {0};
    size_t ops = 0;
    const char *family;
    char *spec = NULL, *params = NULL;
    char **names = NULL;
    struct arena_tflite_loaded model = {0};
    struct arena_patch_report patch = {0};
    char base[4096], suffix[64] = "";
    struct arena_patch_spec given;
    const struct arena_patch_spec *ps = opt->patch;
    int has_patch = split_patch(text, base, sizeof base, &given, err, errlen);
    if (has_patch < 0)
        return has_patch;
    if (has_patch && ps)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "'+patch=' in the spec and --patch: give the patch once");
    if (has_patch) {
        ps = &given;
        text = base;
    }
    if (ps)
        snprintf(suffix, sizeof suffix, "+patch=%ux%u:%u%s", ps->rows, ps->cols, ps->k,
                 ps->stream ? ":stream" : "");
    int rc;
    char path[4096];
    uint32_t sub = 0;
    int has_sub = arena_tflite_split(text, path, sizeof path, &sub, err, errlen);
    if (has_sub < 0) {
        rc = has_sub;
    } else if (has_sub || is_path(text)) {
        const char *file = has_sub ? path : text;
        if (ps)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "--patch: '%s' is a file, whose ops state no window (kernel,"
                                " stride, padding); only the mobilenetv2 family can be patched",
                                file);
        rc = load_file(file, has_sub, sub, opt, &family, &p, &ops, &names, &model, err, errlen);
        if (!rc) {
            /* One spelling per graph: "m.tflite", "m.tflite#0" and
             * "m.tflite#00" are subgraph 0, "m.tflite#01" is "m.tflite#1". */
            size_t len = strlen(file) + 12;
            spec = malloc(len);
            if (spec)
                snprintf(spec, len, sub ? "%s#%lu" : "%s", file, (unsigned long)sub);
            params = arena_str_dup("");
        }
    } else {
        struct arena_spec s;
        rc = arena_spec_parse(text, seed, &s, err, errlen);
        s.inplace = opt->inplace;
        if (!rc)
            rc = ps && opt->order != ARENA_ORDER_STORED
                     ? arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                    "--order best: not with --patch (the patched stage's figures"
                                    " count its own steps in the stored order)")
                 : ps ? build_patched(&s, ps, alignment, &p, &ops, &names, &patch, err, errlen)
                      : arena_spec_build_with(&s, opt, &p, &ops, &names, err, errlen);
        if (!rc) {
            family = s.family->info.name;
            size_t len = strlen(family) + 1 + strlen(s.params) + strlen(suffix) + 1;
            spec = malloc(len);
            if (spec)
                snprintf(spec, len, "%s:%s%s", family, s.params, suffix);
            params = arena_str_dup(s.params);
        }
    }
    if (rc) {
        arena_order_result_free(&order);
        one_line(err, errlen);
        return rc;
    }
    out->family = arena_str_dup(family);
    if (!spec || !params || !out->family) {
        free(spec);
        free(params);
        free(out->family);
        free(names);
        arena_order_result_free(&order);
        arena_tflite_loaded_free(&model, p.n);
        free((void *)p.tensors);
        free((void *)p.alias);
        memset(out, 0, sizeof *out);
        if (err && errlen)
            snprintf(err, errlen, "out of memory loading '%s'", text);
        return ARENA_ENOMEM;
    }
    out->spec = spec;
    out->params = params;
    out->ops = ops;
    out->warning = model.warning;
    out->names = names;
    out->persistent_bytes = model.persistent_bytes;
    out->patch = patch;
    out->index = model.index;
    out->problem = p;
    out->order_mode = opt->order;
    out->order = order;
    out->inplace = opt->inplace;
    out->fingerprint = arena_problem_fingerprint(&p);
    return ARENA_OK;
}
