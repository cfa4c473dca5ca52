/* inplace.c — the in-place rules (inplace.h). */
#include "graphs/inplace.h"

#include <stdlib.h>
#include <string.h>

const char *const arena_inplace_choices[] = {"none", "elementwise", "depthwise", NULL};

const char *arena_inplace_name(enum arena_inplace_rule r)
{
    return (unsigned)r <= ARENA_INPLACE_DEPTHWISE ? arena_inplace_choices[r] : NULL;
}

int arena_inplace_parse(const char *s, enum arena_inplace_rule *out)
{
    for (int i = 0; arena_inplace_choices[i]; i++)
        if (strcmp(s, arena_inplace_choices[i]) == 0) {
            *out = (enum arena_inplace_rule)i;
            return ARENA_OK;
        }
    return ARENA_ENOTFOUND;
}

/* Kinds, lower case without '_' and '-': TensorFlow Lite's builtin names,
 * ONNX op_types and the families' own (the graph generators). */
static const char *const elementwise[] = {
    /* arithmetic */
    "add", "sub", "mul",
    /* activations */
    "relu", "relu6", "relun1to1", "relu0to1", "leakyrelu", "prelu", "logistic", "sigmoid",
    "hardsigmoid", "tanh", "hardswish", "elu", "gelu", "clip",
    /* normalisation folded to a scale and shift (unfused graphs) */
    "batchnorm", "batchnormalization",
    /* reshaping: the bytes stay as they are */
    "reshape", "squeeze", "expanddims", "unsqueeze", "flatten",
    /* (de)quantisation, candidates only at equal sizes */
    "quantize", "dequantize", "quantizelinear", "dequantizelinear",
    "softmax",
};
static const char *const depthwise[] = {"depthwiseconv2d"};

static int in_table(const char *key, const char *const *table, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(key, table[i]) == 0)
            return 1;
    return 0;
}

enum arena_inplace_kind arena_inplace_kind_of(const char *kind, enum arena_inplace_rule r)
{
    if (r == ARENA_INPLACE_NONE || !kind)
        return ARENA_INPLACE_KIND_NOT;
    char key[32];
    if (!arena_op_kind_key(kind, key, sizeof key))
        return ARENA_INPLACE_KIND_NOT; /* longer than any kind in the tables */
    if (in_table(key, elementwise, sizeof elementwise / sizeof elementwise[0]))
        return ARENA_INPLACE_KIND_EQUAL;
    if (r == ARENA_INPLACE_DEPTHWISE && in_table(key, depthwise, sizeof depthwise / sizeof depthwise[0]))
        return ARENA_INPLACE_KIND_INSIDE;
    return ARENA_INPLACE_KIND_NOT;
}

int arena_inplace_op_may(const struct arena_graph *g, uint32_t op, uint32_t t,
                         enum arena_inplace_rule r)
{
    const struct arena_gop *o = &g->ops[op];
    /* one output, not counting a kernel scratch buffer (graphs/scratch.h),
     * which comes after the op's own */
    size_t own = o->n_out;
    while (own && g->tensors[g->refs[o->out_first + own - 1]].is_scratch)
        own--;
    if (own != 1)
        return 0;
    enum arena_inplace_kind k = arena_inplace_kind_of(o->kind, r);
    if (k == ARENA_INPLACE_KIND_NOT)
        return 0;
    const struct arena_gtensor *in = &g->tensors[t];
    const struct arena_gtensor *out = &g->tensors[g->refs[o->out_first]];
    if (in->is_input || in->is_output || t == g->refs[o->out_first])
        return 0;
    return k == ARENA_INPLACE_KIND_EQUAL ? in->bytes == out->bytes : in->bytes >= out->bytes;
}

int arena_inplace_candidates(const struct arena_graph *g, const uint32_t *order,
                             enum arena_inplace_rule r, struct arena_alias **out, size_t *n,
                             size_t *step_first)
{
    *out = NULL;
    *n = 0;
    size_t no = g->n_ops, nt = g->n_tensors;
    if (step_first)
        memset(step_first, 0, (no + 1) * sizeof *step_first);
    if (r == ARENA_INPLACE_NONE || no == 0)
        return ARENA_OK;
    uint32_t *pos = malloc(no * sizeof *pos);
    uint32_t *dies = malloc((nt ? nt : 1) * sizeof *dies); /* step of the last reader */
    struct arena_alias *pairs = malloc((g->n_refs ? g->n_refs : 1) * sizeof *pairs);
    int rc = ARENA_ENOMEM;
    if (!pos || !dies || !pairs)
        goto done;
    rc = ARENA_EINVAL;
    for (size_t k = 0; k < no; k++)
        pos[k] = UINT32_MAX;
    for (size_t k = 0; k < no; k++) {
        uint32_t op = order ? order[k] : arena_graph_op_at(g, k);
        if (op >= no || pos[op] != UINT32_MAX)
            goto done;
        pos[op] = (uint32_t)k;
    }
    for (size_t t = 0; t < nt; t++)
        dies[t] = UINT32_MAX;
    for (size_t o = 0; o < no; o++)
        for (size_t i = 0; i < g->ops[o].n_in; i++) {
            uint32_t t = g->refs[g->ops[o].in_first + i];
            if (dies[t] == UINT32_MAX || pos[o] > dies[t])
                dies[t] = pos[o];
        }
    size_t m = 0;
    for (size_t k = 0; k < no; k++) {
        uint32_t op = order ? order[k] : arena_graph_op_at(g, k);
        const struct arena_gop *o = &g->ops[op];
        if (step_first)
            step_first[k] = m;
        for (size_t i = 0; i < o->n_in; i++) {
            uint32_t t = g->refs[o->in_first + i];
            int seen = 0;
            for (size_t j = 0; j < i; j++)
                seen |= g->refs[o->in_first + j] == t;
            if (!seen && dies[t] == k && arena_inplace_op_may(g, op, t, r))
                pairs[m++] = (struct arena_alias){.out = g->refs[o->out_first], .in = t};
        }
    }
    if (step_first)
        step_first[no] = m;
    rc = ARENA_OK;
    if (m > 0) {
        *out = pairs;
        *n = m;
        pairs = NULL;
    }
done:
    free(pos);
    free(dies);
    free(pairs);
    return rc;
}

int arena_graph_problem_inplace(const struct arena_graph *g, uint64_t alignment,
                                enum arena_inplace_rule r, struct arena_problem *out,
                                struct arena_graph_fault *fault, char *err, size_t errlen)
{
    int rc = arena_graph_problem(g, alignment, out, fault, err, errlen);
    if (rc || r == ARENA_INPLACE_NONE)
        return rc;
    struct arena_alias *a = NULL;
    size_t n = 0;
    rc = arena_inplace_candidates(g, NULL, r, &a, &n, NULL);
    if (rc) {
        free((void *)out->tensors);
        memset(out, 0, sizeof *out);
        return arena_errorf(err, errlen, 0, rc, "in-place candidates: out of memory");
    }
    out->alias = a;
    out->n_alias = n;
    return ARENA_OK;
}
