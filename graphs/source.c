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

uint64_t arena_problem_fingerprint_planned(const struct arena_problem *p)
{
    uint64_t h = arena_problem_fingerprint(p);
    unsigned char b[8];
    for (size_t i = 0; i < p->n_alias; i++) {
        put_le(b, p->alias[i].out, 4);
        put_le(b + 4, p->alias[i].in, 4);
        h = arena_fnv1a(h, b, 8);
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
    free(s->online_scratch);
    arena_order_result_free(&s->order);
    free((void *)s->problem.tensors);
    free((void *)s->problem.alias);
    if (s->graph) {
        arena_graph_free(s->graph);
        free(s->graph);
    }
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

/* What a reader gives: a graph, or a bare problem (then has_graph is 0);
 * where names it in messages ("PATH", "PATH: subgraph N", the family). */
struct loaded {
    int has_graph;
    struct arena_graph g;
    struct arena_problem p;
    char **names;             /* a bare problem's (a CSV's ids) */
    struct arena_tflite_loaded model;
    char where[4200];
};

static void loaded_free(struct loaded *l)
{
    arena_graph_free(&l->g);
    free((void *)l->p.tensors);
    free(l->names);
    arena_tflite_loaded_free(&l->model);
}

/* Reads the file path (subgraph sub of a model): of the kind its extension
 * names, else of the kind its first bytes show. A CSV is a bare problem,
 * read with the alignment; every other kind a graph. */
static int read_file(const char *path, int has_sub, uint32_t sub,
                     const struct arena_load_options *opt, const char **family,
                     struct loaded *l, char *err, size_t errlen)
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
    l->has_graph = kind != CSV;
    if (kind == TFLITE)
        snprintf(l->where, sizeof l->where, "%s: subgraph %lu", path, (unsigned long)sub);
    else
        snprintf(l->where, sizeof l->where, "%s", path);
    if (kind == TFLITE) {
        rc = data ? arena_tflite_load_data(data, size, path, sub, &l->g, &l->model, err, errlen)
                  : arena_tflite_load(path, sub, &l->g, &l->model, err, errlen);
    } else if (kind == ONNX) {
        struct arena_onnx_info info;
        rc = data ? arena_onnx_read(data, size, path, &l->g, &info, err, errlen)
                  : arena_onnx_load(path, &l->g, err, errlen);
    } else if (!data) {
        rc = kind == GRAPH
                 ? arena_graph_file_read(path, opt->stop, &l->g, err, errlen)
                 : arena_csv_read(path, opt->alignment, opt->stop, &l->p, &l->names, err, errlen);
    } else {
        FILE *f = open_bytes(data, size);
        if (!f)
            rc = arena_errorf(err, errlen, 0, ARENA_ENOMEM, "%s: out of memory", path);
        else {
            rc = kind == GRAPH ? arena_graph_file_read_stream(f, path, opt->stop, &l->g, err,
                                                              errlen)
                               : arena_csv_read_stream(f, path, opt->alignment, opt->stop,
                                                       &l->p, &l->names, err, errlen);
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

/* ---- the pipeline: a graph through the transformations to its problem ---- */

struct pipe {
    const struct arena_load_options *opt;
    const struct arena_patch_spec *patch; /* the patch asked for, or NULL */
    struct loaded *l;                     /* l->g is the graph transformed */
    struct arena_source *out;             /* tf, fixed bound, order, patch,
                                             problem, names, ops */
    char *err;
    size_t errlen;
};

/* One line for a fault of the graph: "WHERE:LINE: FIELD: why" when the op
 * or tensor at fault has a line in its file, else "WHERE: why". */
static int graph_fault(struct pipe *x, int rc, const struct arena_graph_fault *fault,
                       const char *why)
{
    const struct arena_graph *g = &x->l->g;
    unsigned long line = 0;
    const char *field = "graph";
    if (fault && fault->op != SIZE_MAX && fault->op < g->n_ops) {
        line = g->ops[fault->op].line;
        field = "op";
    } else if (fault && fault->tensor != SIZE_MAX && fault->tensor < g->n_tensors) {
        line = g->tensors[fault->tensor].line;
        field = "tensor";
    }
    if (line > 0) /* a graph file's: the path is all of `where` */
        return arena_errorf(x->err, x->errlen, 0, rc, "%s:%lu: %s: %s", x->l->where, line, field,
                            why);
    return arena_errorf(x->err, x->errlen, 0, rc, "%s: %s", x->l->where, why);
}

/* Checks the graph as read and takes its fixed-order bound: the stored
 * order, no rule, no patch (every later step works on a checked graph). */
static int step_check(struct pipe *x)
{
    struct arena_problem p;
    struct arena_graph_fault fault = {SIZE_MAX, SIZE_MAX};
    char why[512];
    int rc = arena_graph_problem(&x->l->g, x->opt->alignment, &p, &fault, why, sizeof why);
    if (rc)
        return graph_fault(x, rc, &fault, why);
    struct arena_bounds b;
    rc = arena_problem_bounds(&p, &b);
    free((void *)p.tensors);
    if (rc)
        return arena_errorf(x->err, x->errlen, 0, rc, "%s: %s", x->l->where, arena_strerror(rc));
    x->out->fixed_lower_bound = b.lower_bound;
    return ARENA_OK;
}

static int step_patch(struct pipe *x)
{
    const struct arena_patch_spec *ps = x->patch;
    if (!ps)
        return ARENA_OK;
    struct arena_graph patched;
    char why[384];
    int rc = arena_graph_patch(&x->l->g, ps, &patched, &x->out->patch, why, sizeof why);
    if (rc) {
        arena_graph_free(&patched);
        return arena_errorf(x->err, x->errlen, 0, rc, "--patch %ux%u:%u%s: %s: %s", ps->rows,
                            ps->cols, ps->k, ps->stream ? ":stream" : "", x->l->where, why);
    }
    arena_graph_free(&x->l->g);
    x->l->g = patched;
    x->out->tf.patch = *ps;
    return ARENA_OK;
}

/* The kernels' scratch buffers as tensors, before the order is chosen so
 * that a best order counts them. */
static int step_scratch(struct pipe *x)
{
    char why[512];
    int rc = arena_graph_scratch(&x->l->g, x->opt->scratch, x->opt->scratch_policy,
                                 &x->out->scratch, why, sizeof why);
    if (rc)
        return arena_errorf(x->err, x->errlen, 0, rc, "%s: %s", x->l->where, why);
    x->out->tf.scratch = x->opt->scratch;
    x->out->tf.scratch_policy = x->opt->scratch ? x->opt->scratch_policy : ARENA_SCRATCH_LIFETIME;
    return ARENA_OK;
}

static int step_order(struct pipe *x)
{
    char why[512];
    int rc = arena_order_transform(&x->l->g, x->opt->order, x->opt->alignment,
                                   x->opt->order_states, x->opt->inplace, &x->out->order, why,
                                   sizeof why);
    if (rc)
        return arena_errorf(x->err, x->errlen, 0, rc, "%s: %s", x->l->where, why);
    x->out->tf.order = x->opt->order;
    x->out->tf.order_states = x->opt->order == ARENA_ORDER_BEST ? x->opt->order_states : 0;
    return ARENA_OK;
}

/* The in-place rule's candidates and the lifetimes: the problem. */
static int step_problem(struct pipe *x)
{
    struct arena_source *o = x->out;
    struct arena_graph_fault fault = {SIZE_MAX, SIZE_MAX};
    char why[512];
    int rc = arena_graph_problem_inplace(&x->l->g, x->opt->alignment, x->opt->inplace,
                                         &o->problem, &fault, why, sizeof why);
    if (rc)
        return graph_fault(x, rc, &fault, why);
    o->tf.inplace = x->opt->inplace;
    if (o->scratch.buffers && o->tf.scratch_policy == ARENA_SCRATCH_ONLINE) {
        rc = arena_scratch_requests(&x->l->g, o->tf.scratch, x->opt->alignment,
                                    &o->online_scratch, &o->n_online_scratch, why, sizeof why);
        if (rc)
            return arena_errorf(x->err, x->errlen, 0, rc, "%s: %s", x->l->where, why);
    }
    if ((o->patch.spec.rows && arena_patch_stage_peak(&o->problem, &o->patch)) ||
        !(o->names = arena_graph_names(&x->l->g)))
        return arena_errorf(x->err, x->errlen, 0, ARENA_ENOMEM, "%s: out of memory",
                            x->l->where);
    o->ops = x->l->g.n_ops;
    if (o->tf.scratch != ARENA_SCRATCH_NONE) {
        o->has_head = 1;
        arena_tflm_head_of(&x->l->g, o->tf.scratch, o->scratch.buffers, &o->head);
    }
    return ARENA_OK;
}

/* The steps, in the one order they are applied (graphs/transforms.h). */
static const struct step {
    const char *name;
    int (*run)(struct pipe *x);
} steps[] = {
    {"check", step_check},
    {"patch", step_patch},
    {"scratch", step_scratch},
    {"order", step_order},
    {"problem", step_problem}, /* in-place rule, lifetimes, alignment */
};

static int run_pipeline(struct pipe *x)
{
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        int rc = steps[i].run(x);
        if (rc)
            return rc;
    }
    return ARENA_OK;
}

int arena_source_load(const char *text, uint64_t alignment, uint64_t seed,
                      struct arena_source *out, char *err, size_t errlen)
{
    struct arena_load_options opt = {.alignment = alignment, .seed = seed, .stop = NULL};
    return arena_source_load_with(text, &opt, out, err, errlen);
}

int arena_source_load_with(const char *text, const struct arena_load_options *opt,
                           struct arena_source *out, char *err, size_t errlen)
{
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
    out->tf.alignment = alignment;
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
    struct loaded *l = calloc(1, sizeof *l);
    if (!l)
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory loading '%.64s'", text);
    const char *family = NULL;
    char *spec = NULL, *params = NULL;
    int rc;
    char path[4096];
    uint32_t sub = 0;
    int has_sub = arena_tflite_split(text, path, sizeof path, &sub, err, errlen);
    if (has_sub < 0) {
        rc = has_sub;
    } else if (has_sub || is_path(text)) {
        const char *file = has_sub ? path : text;
        rc = ps ? arena_errorf(err, errlen, 0, ARENA_EINVAL,
                               "--patch: '%s' is a file, whose ops state no window (kernel,"
                               " stride, padding); only the mobilenetv2 family can be patched",
                               file)
                : read_file(file, has_sub, sub, opt, &family, l, err, errlen);
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
        if (!rc && ps && !s.family->build_graph)
            rc = arena_errorf(err, errlen, 0, ARENA_EINVAL,
                              "--patch: family '%s' builds a bare problem, with no ops to patch",
                              s.family->info.name);
        if (!rc && ps && opt->order != ARENA_ORDER_STORED)
            rc = arena_errorf(err, errlen, 0, ARENA_EINVAL,
                              "--order best: not with --patch (the patched stage's figures"
                              " count its own steps in the stored order)");
        if (!rc) {
            family = s.family->info.name;
            snprintf(l->where, sizeof l->where, "%s", family);
            l->has_graph = s.family->build_graph != NULL;
            rc = l->has_graph ? arena_spec_graph(&s, &l->g, err, errlen)
                              : arena_spec_problem(&s, alignment, &l->p, err, errlen);
        }
        if (!rc) {
            size_t len = strlen(family) + 1 + strlen(s.params) + strlen(suffix) + 1;
            spec = malloc(len);
            if (spec)
                snprintf(spec, len, "%s:%s%s", family, s.params, suffix);
            params = arena_str_dup(s.params);
        }
    }
    if (!rc && !(out->family = arena_str_dup(family)))
        rc = ARENA_ENOMEM;
    if (!rc && (!spec || !params))
        rc = ARENA_ENOMEM;
    if (!rc && l->has_graph) {
        struct pipe x = {.opt = opt, .patch = ps, .l = l, .out = out, .err = err,
                         .errlen = errlen};
        rc = run_pipeline(&x);
    } else if (!rc) { /* a bare problem: only the alignment applies */
        struct arena_bounds b;
        out->problem = l->p;
        out->names = l->names;
        memset(&l->p, 0, sizeof l->p);
        l->names = NULL;
        rc = arena_problem_bounds(&out->problem, &b);
        out->fixed_lower_bound = b.lower_bound;
    }
    if (!rc && opt->keep_graph && l->has_graph) {
        out->graph = malloc(sizeof *out->graph);
        if (!out->graph)
            rc = ARENA_ENOMEM;
        else {
            *out->graph = l->g;
            arena_graph_init(&l->g);
        }
    }
    if (rc) {
        if (rc == ARENA_ENOMEM && (!err || !err[0]) && errlen)
            snprintf(err, errlen, "out of memory loading '%.64s'", text);
        free(spec);
        free(params);
        loaded_free(l);
        free(l);
        arena_source_free(out);
        one_line(err, errlen);
        return rc;
    }
    out->spec = spec;
    out->params = params;
    out->warning = l->model.warning;
    size_t added = !out->scratch.buffers || out->tf.scratch_policy == ARENA_SCRATCH_ONLINE ? 0
                   : out->tf.scratch_policy == ARENA_SCRATCH_TAIL ? 1 : out->scratch.buffers;
    out->scratch_first = out->problem.n - added;
    if (l->model.index && added) {
        /* kernel scratch buffers come after the model's tensors and are
         * none of them: no index in the model */
        uint32_t *grown = realloc(l->model.index, out->problem.n * sizeof *grown);
        if (!grown) {
            loaded_free(l);
            free(l);
            free(spec);
            free(params);
            arena_source_free(out);
            return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory loading '%.64s'",
                                text);
        }
        for (size_t i = out->problem.n - added; i < out->problem.n; i++)
            grown[i] = UINT32_MAX;
        l->model.index = grown;
    }
    out->index = l->model.index;
    l->model.warning = NULL;
    l->model.index = NULL;
    if (l->model.variable_bytes &&
        arena_size_align(l->model.variable_bytes, alignment, &out->persistent_bytes))
        out->persistent_bytes = ARENA_SIZE_MAX;
    loaded_free(l);
    free(l);
    out->fingerprint = arena_problem_fingerprint(&out->problem);
    out->planned_fingerprint = arena_problem_fingerprint_planned(&out->problem);
    return ARENA_OK;
}
