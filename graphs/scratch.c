/* scratch.c — kernel scratch buffers (scratch.h). The formulas are ours,
 * written from CMSIS-NN v7.0.0's Source/ConvolutionFunctions, PoolingFunctions and
 * FullyConnectedFunctions arm_*_get_buffer_sizes_s8.c
 * and TFLM's kernels/cmsis_nn/{conv,depthwise_conv,fully_connected,
 * pooling}.cc (which of them each op calls, with which dims). */
#include "graphs/scratch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/graph_internal.h"

static const char *const rule_names[] = {"none", "cmsis-nn:m4", "cmsis-nn:m55", "reference"};
static const char *const policy_names[] = {"lifetime", "tail", "online"};

const char *arena_scratch_name(enum arena_scratch_rule r)
{
    return (unsigned)r < ARENA_SCRATCH_RULES ? rule_names[r] : NULL;
}

const char *arena_scratch_policy_name(enum arena_scratch_policy p)
{
    return (unsigned)p < ARENA_SCRATCH_POLICIES ? policy_names[p] : NULL;
}

int arena_scratch_parse(const char *s, enum arena_scratch_rule *out)
{
    if (strcmp(s, "cmsis-nn") == 0) {
        *out = ARENA_SCRATCH_CMSIS_M4;
        return ARENA_OK;
    }
    for (unsigned i = 0; i < ARENA_SCRATCH_RULES; i++)
        if (strcmp(s, rule_names[i]) == 0) {
            *out = (enum arena_scratch_rule)i;
            return ARENA_OK;
        }
    return ARENA_ENOTFOUND;
}

int arena_scratch_policy_parse(const char *s, enum arena_scratch_policy *out)
{
    for (unsigned i = 0; i < ARENA_SCRATCH_POLICIES; i++)
        if (strcmp(s, policy_names[i]) == 0) {
            *out = (enum arena_scratch_policy)i;
            return ARENA_OK;
        }
    return ARENA_ENOTFOUND;
}

/* ---- the kinds, as inplace.c matches them: lower case, '_' and '-' dropped ---- */

enum kind { OTHER, CONV, DEPTHWISE, AVGPOOL, FULLY, UNMODELLED, UNMODELLED_REF };

static const struct {
    const char *key;
    enum kind kind;
} kinds[] = {
    {"conv2d", CONV},
    {"depthwiseconv2d", DEPTHWISE},
    {"averagepool2d", AVGPOOL},
    {"averagepool", AVGPOOL},
    {"fullyconnected", FULLY},
    /* TFLM's CMSIS-NN kernels that ask for scratch, not modelled */
    {"batchmatmul", UNMODELLED},
    {"svdf", UNMODELLED},
    {"transposeconv", UNMODELLED},
    {"unidirectionalsequencelstm", UNMODELLED},
    /* the reference kernels' further requests, not modelled */
    {"mean", UNMODELLED_REF},
    {"sum", UNMODELLED_REF},
    {"reducemax", UNMODELLED_REF},
    {"reducemin", UNMODELLED_REF},
    {"reduceprod", UNMODELLED_REF},
    {"addn", UNMODELLED_REF},
    {"mirrorpad", UNMODELLED_REF},
    {"detectionpostprocess", UNMODELLED_REF},
};

static enum kind kind_of(const char *kind)
{
    char key[40];
    if (!arena_op_kind_key(kind, key, sizeof key))
        return OTHER;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(key, kinds[i].key) == 0)
            return kinds[i].kind;
    return OTHER;
}

/* ---- CMSIS-NN v7.0.0, s8 ---- */

/* NHWC dims of a tensor of rank 4 (rank 2 [n, c]: one row, one column). */
struct dims {
    uint64_t h, w, c;
};

static struct dims dims_of(const struct arena_gtensor *t)
{
    struct dims d = {1, 1, t->rank ? t->dims[t->rank - 1] : 1};
    if (t->rank == 4) {
        d.h = t->dims[1];
        d.w = t->dims[2];
    }
    return d;
}

static uint64_t align4(uint64_t v)
{
    return (v + 3) / 4 * 4;
}

/* arm_convolve_s8_get_buffer_size: DSP (and plain C) two im2col columns
 * of int16, each rounded up to 4 elements; MVE four columns of whole
 * 16-byte lanes. */
static uint64_t im2col(int mve, uint64_t cols)
{
    return mve ? 4 * 16 * ((cols + 15) / 16) : 2 * align4(cols) * 2;
}

/* The MVE 1xN conv (arm_convolve_1_x_n_s8_get_buffer_size_mve): output
 * columns split into those touching the left padding, the right padding
 * and neither; when that split does not cover the row, the im2col size. */
static uint64_t one_by_n_mve(const struct dims *v, const struct dims *o,
                             const struct arena_gop_window *w)
{
    int64_t pad = w->pad_left, s = w->sw, k = w->kw, ow = (int64_t)o->w, iw = (int64_t)v->w;
    int64_t c = (int64_t)v->c;
    int64_t total = (ow - 1) * s + k - iw;
    int64_t asym = total % 2;
    int64_t right = pad + asym != 0 ? ((pad + asym + s - 1) / s > 1 ? (pad + asym + s - 1) / s : 1)
                                    : 0;
    int64_t left = pad != 0 ? ((pad + s - 1) / s > 1 ? (pad + s - 1) / s : 1) : 0;
    int64_t none = ow - (right + left) > 0 ? ow - (right + left) : 0;
    if (right + none + left != ow)
        return im2col(1, (uint64_t)(k * c));
    int64_t pad_left = pad * c, pad_right = asym ? right * c : pad_left;
    int64_t elem_left = k * c, elem_right = elem_left - c;
    int64_t a = elem_left + pad_left, b = elem_right + pad_right;
    return (uint64_t)(a > b ? a : b);
}

/* arm_convolve_wrapper_s8_get_buffer_size (GCC: the 1x1 fast path needs
 * none; only Arm Compiler 6 gives it 4 c bytes). */
static uint64_t conv_s8(int mve, const struct dims *v, const struct dims *o,
                        const struct arena_gop_window *w)
{
    if (w->kh == 1 && w->kw == 1 && w->pad_top == 0 && w->pad_left == 0)
        return 0;
    if (v->h == 1 && w->kh == 1 && (w->sw * v->c) % 4 == 0)
        return mve ? one_by_n_mve(v, o, w) : im2col(0, (uint64_t)w->kw * v->c);
    return im2col(mve, (uint64_t)w->kh * w->kw * v->c);
}

#define CH_IN_BLOCK_MVE 124 /* arm_nnsupportfunctions.h, v7.0.0 */

/* arm_depthwise_conv_wrapper_s8_get_buffer_size (GCC: an MVE depthwise
 * conv from one channel to more than 1 runs as a conv). */
static uint64_t depthwise_s8(int mve, const struct dims *v, const struct dims *o,
                             const struct arena_gop_window *w)
{
    uint64_t k = (uint64_t)w->kh * w->kw;
    if (mve && v->c == 1 && o->c > 1)
        return conv_s8(1, v, o, w) + k * o->c;
    if (v->c != o->c)
        return 0;
    if (mve)
        return 4 * CH_IN_BLOCK_MVE * k;
    if (w->kh == 3 && w->kw == 3 && w->pad_top <= 1 && w->pad_left <= 1)
        return 0;
    return v->c * k * 2;
}

int arena_scratch_op_bytes(const struct arena_graph *g, uint32_t op, enum arena_scratch_rule r,
                           uint64_t *bytes, char *err, size_t errlen)
{
    const struct arena_gop *o = &g->ops[op];
    *bytes = 0;
    if (r == ARENA_SCRATCH_NONE)
        return ARENA_OK;
    enum kind k = kind_of(o->kind);
    if (k == UNMODELLED || (k == UNMODELLED_REF && r == ARENA_SCRATCH_REFERENCE))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--scratch %s: op '%s' (%s): its kernel asks for scratch memory that"
                            " bench does not model",
                            arena_scratch_name(r), o->name, o->kind);
    if (k == OTHER || k == UNMODELLED_REF || r == ARENA_SCRATCH_REFERENCE || !o->n_in ||
        !o->n_out)
        return ARENA_OK; /* the reference kernels of these kinds ask for none */
    const struct arena_gtensor *in = &g->tensors[g->refs[o->in_first]];
    const struct arena_gtensor *out = &g->tensors[g->refs[o->out_first]];
    if (in->dtype == ARENA_DTYPE_FP32)
        return ARENA_OK; /* float ops run the reference kernels */
    if (in->dtype != ARENA_DTYPE_INT8)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--scratch %s: op '%s' (%s) reads %s: only int8 kernels' scratch is"
                            " modelled",
                            arena_scratch_name(r), o->name, o->kind, arena_dtype_name(in->dtype));
    if ((k == CONV || k == DEPTHWISE) && !o->win.kh)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--scratch %s: op '%s' (%s) states no window (kernel, stride,"
                            " padding), which its scratch is sized by",
                            arena_scratch_name(r), o->name, o->kind);
    int mve = r == ARENA_SCRATCH_CMSIS_M55;
    struct dims v = dims_of(in), d = dims_of(out);
    switch (k) {
    case CONV:
        *bytes = conv_s8(mve, &v, &d, &o->win);
        break;
    case DEPTHWISE:
        *bytes = depthwise_s8(mve, &v, &d, &o->win);
        break;
    case AVGPOOL:
        *bytes = mve ? 0 : 4 * d.c;
        break;
    default: /* fully connected: none (see scratch.h) */
        break;
    }
    return ARENA_OK;
}

/* ---- the graph with its scratch tensors ---- */

static int copy_tensor(struct arena_graph *to, const struct arena_gtensor *t)
{
    uint32_t id = 0;
    int rc = arena_graph_tensor_add(to, t->name, t->dtype, t->rank, t->dims, &id);
    if (rc)
        return rc;
    struct arena_gtensor *c = &to->tensors[id];
    c->is_input = t->is_input;
    c->is_output = t->is_output;
    c->is_scratch = t->is_scratch;
    c->line = t->line;
    return ARENA_OK;
}

static int scratch_tensor(struct arena_graph *to, const char *name, uint64_t bytes, uint32_t *id)
{
    int rc = arena_graph_tensor_add(to, name, ARENA_DTYPE_INT8, 1, &bytes, id);
    if (!rc)
        to->tensors[*id].is_scratch = 1;
    return rc;
}

int arena_graph_scratch(struct arena_graph *g, enum arena_scratch_rule r,
                        enum arena_scratch_policy policy, struct arena_scratch_report *report,
                        char *err, size_t errlen)
{
    memset(report, 0, sizeof *report);
    if (r == ARENA_SCRATCH_NONE)
        return ARENA_OK;
    uint64_t *need = calloc(g->n_ops ? g->n_ops : 1, sizeof *need);
    if (!need)
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "--scratch: out of memory");
    int rc = ARENA_OK;
    for (size_t i = 0; i < g->n_ops && !rc; i++) {
        rc = arena_scratch_op_bytes(g, (uint32_t)i, r, &need[i], err, errlen);
        if (!rc && need[i]) {
            report->buffers++;
            report->total += need[i];
            if (need[i] > report->largest)
                report->largest = need[i];
        }
    }
    if (rc || !report->buffers || policy == ARENA_SCRATCH_ONLINE) {
        free(need);
        return rc;
    }
    struct arena_graph to;
    arena_graph_init(&to);
    for (size_t t = 0; t < g->n_tensors && !rc; t++)
        rc = copy_tensor(&to, &g->tensors[t]);
    uint32_t tail = 0;
    if (!rc && policy == ARENA_SCRATCH_TAIL && !(rc = scratch_tensor(&to, "kernel-scratch",
                                                                   report->largest, &tail)))
        to.tensors[tail].is_input = to.tensors[tail].is_output = 1;
    uint32_t *refs = malloc((g->n_refs + 1) * sizeof *refs);
    if (!rc && !refs)
        rc = ARENA_ENOMEM;
    for (size_t i = 0; i < g->n_ops && !rc; i++) {
        const struct arena_gop *o = &g->ops[i];
        size_t n_out = o->n_out;
        memcpy(refs, g->refs + o->in_first, o->n_in * sizeof *refs);
        memcpy(refs + o->n_in, g->refs + o->out_first, o->n_out * sizeof *refs);
        if (need[i] && policy == ARENA_SCRATCH_LIFETIME) {
            char name[300];
            snprintf(name, sizeof name, "%s/scratch", o->name);
            rc = scratch_tensor(&to, name, need[i], &refs[o->n_in + n_out++]);
        }
        if (!rc)
            rc = arena_graph_op_add(&to, o->name, o->kind, refs, o->n_in, refs + o->n_in, n_out);
        if (!rc) {
            to.ops[i].line = o->line;
            to.ops[i].win = o->win;
        }
    }
    if (!rc && g->order)
        rc = arena_graph_order_set(&to, g->order, g->n_ops);
    free(refs);
    free(need);
    if (rc) {
        arena_graph_free(&to);
        return arena_errorf(err, errlen, 0, rc, "--scratch %s: %s", arena_scratch_name(r),
                            arena_strerror(rc));
    }
    arena_graph_free(g);
    *g = to;
    return ARENA_OK;
}

int arena_scratch_requests(const struct arena_graph *g, enum arena_scratch_rule r,
                           uint64_t alignment, struct arena_tensor **out, size_t *n, char *err,
                           size_t errlen)
{
    *out = NULL;
    *n = 0;
    if (r == ARENA_SCRATCH_NONE)
        return ARENA_OK;
    struct arena_tensor *t = malloc((g->n_ops ? g->n_ops : 1) * sizeof *t);
    if (!t)
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "--scratch: out of memory");
    for (size_t k = 0; k < g->n_ops; k++) {
        uint64_t bytes = 0;
        int rc = arena_scratch_op_bytes(g, arena_graph_op_at(g, k), r, &bytes, err, errlen);
        if (rc) {
            free(t);
            return rc;
        }
        if (!bytes)
            continue;
        uint64_t size = (bytes + alignment - 1) / alignment * alignment;
        t[*n] = (struct arena_tensor){.size = size, .first = (uint32_t)k, .last = (uint32_t)k};
        (*n)++;
    }
    if (!*n) {
        free(t);
        t = NULL;
    }
    *out = t;
    return ARENA_OK;
}
