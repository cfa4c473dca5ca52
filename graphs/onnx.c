/* onnx.c — ONNX models as graphs (see onnx.h for what is planned). Field
 * names are onnx.proto's, as protobuf-c generates them (onnx.pb-c.h, built
 * from /usr/include/onnx/onnx.proto). */
#include "graphs/onnx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "graphs/graph_internal.h"
#include "graphs/names.h"
#include "graphs/onnx_wire.h"
#include "graphs/read_whole.h"
#include "onnx.pb-c.h"

/* TensorProto.DataType -> our dtype; -1 for the types refused (string,
 * bfloat16, complex, float8, ...). */
static int dtype_of(int32_t type)
{
    switch (type) {
    case 1: return ARENA_DTYPE_FP32;
    case 2: return ARENA_DTYPE_UINT8;
    case 3: return ARENA_DTYPE_INT8;
    case 4: return ARENA_DTYPE_UINT16;
    case 5: return ARENA_DTYPE_INT16;
    case 6: return ARENA_DTYPE_INT32;
    case 7: return ARENA_DTYPE_INT64;
    case 9: return ARENA_DTYPE_BOOL;
    case 10: return ARENA_DTYPE_FP16;
    case 11: return ARENA_DTYPE_FP64;
    case 12: return ARENA_DTYPE_UINT32;
    case 13: return ARENA_DTYPE_UINT64;
    }
    return -1;
}

/* What a value name stands for. */
enum role { ROLE_WEIGHT, ROLE_CONST, ROLE_PLANNED };

struct value {
    unsigned char role;
    uint32_t gid;                  /* ROLE_PLANNED: the graph's tensor id */
    const Onnx__ValueInfoProto *vi; /* its type and shape, NULL if none given */
};

/* A ValueInfoProto kept for a name, and where it was given. */
struct shape {
    const Onnx__ValueInfoProto *vi;
    uint32_t says;  /* how much it says, says() */
    int list;       /* of lists in index_shapes() */
    size_t i;       /* its place in that list */
};

struct reader {
    const char *name; /* the file, for messages */
    char *err;
    size_t errlen;
    int rc;
    const Onnx__GraphProto *gp;
    struct arena_names ids; /* value name -> index in vals */
    struct value *vals;
    size_t n_vals, cap_vals;
    struct arena_names shapes; /* value name -> index into infos */
    struct shape *infos;
    uint32_t *refs; /* one node's planned inputs then outputs */
    struct arena_graph *g;
    struct arena_onnx_info *info;
};

static int fail(struct reader *r, int rc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The first failure is kept: "NAME: " then the message. */
static int fail(struct reader *r, int rc, const char *fmt, ...)
{
    if (r->rc)
        return r->rc;
    r->rc = rc;
    size_t at = 0;
    if (r->err && r->errlen) {
        snprintf(r->err, r->errlen, "%s: ", r->name);
        at = strlen(r->err);
    }
    va_list ap;
    va_start(ap, fmt);
    arena_verrorf(r->err, r->errlen, at, rc, fmt, ap);
    va_end(ap);
    return rc;
}

static const char *str(const char *s)
{
    return s ? s : "";
}

/* A name as stored: refused with a control byte or past
 * ARENA_ONNX_NAME_MAX bytes; "what" says where it was found. */
static int name_ok(struct reader *r, const char *s, const char *what)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)str(s); *p; p++, n++) {
        if (*p < 0x20 || *p == 0x7f)
            return !fail(r, ARENA_EFORMAT, "%s: name has control byte 0x%02x at byte %zu", what,
                         (unsigned)*p, n);
        if (n == ARENA_ONNX_NAME_MAX)
            return !fail(r, ARENA_EFORMAT, "%s: name longer than %d bytes", what,
                         ARENA_ONNX_NAME_MAX);
    }
    return 1;
}

/* The value called s; 1 and *v when known. */
static int lookup(const struct reader *r, const char *s, struct value **v)
{
    uint32_t i;
    if (!arena_names_get(&r->ids, s, strlen(s), &i))
        return 0;
    *v = &r->vals[i];
    return 1;
}

/* Defines value s with the role; refuses a second definition. */
static struct value *define(struct reader *r, const char *s, enum role role, const char *what)
{
    if (r->n_vals == r->cap_vals) {
        size_t cap = r->cap_vals ? 2 * r->cap_vals : 64;
        struct value *grown = realloc(r->vals, cap * sizeof *grown);
        if (!grown) {
            fail(r, ARENA_ENOMEM, "out of memory");
            return NULL;
        }
        r->vals = grown;
        r->cap_vals = cap;
    }
    uint32_t old;
    int put = arena_names_put(&r->ids, s, strlen(s), (uint32_t)r->n_vals, &old);
    if (put < 0) {
        fail(r, put, "out of memory");
        return NULL;
    }
    if (put == 1) {
        fail(r, ARENA_EFORMAT, "%s: value '%s' is defined twice (ONNX values have one writer)",
             what, s);
        return NULL;
    }
    struct value *v = &r->vals[r->n_vals++];
    v->role = (unsigned char)role;
    v->gid = 0;
    v->vi = NULL;
    uint32_t k;
    if (arena_names_get(&r->shapes, s, strlen(s), &k))
        v->vi = r->infos[k].vi;
    return v;
}

/* How much vi says of a dense tensor: 1 each for a tensor type, its
 * element type and its shape, and 1 for each dim with a value. */
static uint32_t says(const Onnx__ValueInfoProto *vi)
{
    const Onnx__TypeProto *t = vi->type;
    if (!t || t->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !t->tensor_type)
        return 0;
    const Onnx__TypeProto__Tensor *tt = t->tensor_type;
    uint32_t n = 1 + (tt->has_elem_type && tt->elem_type != 0) + (tt->shape != NULL);
    for (size_t d = 0; tt->shape && d < tt->shape->n_dim; d++)
        n += tt->shape->dim[d]->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
    return n;
}

/* 1 when a and b cannot describe one value: kinds of type, element types
 * or ranks differ, or a dim both give a value differs. What one leaves
 * out (the type, the shape, a dim) the other may say. */
static int disagree(const Onnx__ValueInfoProto *a, const Onnx__ValueInfoProto *b)
{
    const Onnx__TypeProto *ta = a->type, *tb = b->type;
    if (!ta || !tb || ta->value_case == ONNX__TYPE_PROTO__VALUE__NOT_SET ||
        tb->value_case == ONNX__TYPE_PROTO__VALUE__NOT_SET)
        return 0;
    if (ta->value_case != tb->value_case)
        return 1;
    if (ta->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !ta->tensor_type ||
        !tb->tensor_type)
        return 0;
    const Onnx__TypeProto__Tensor *x = ta->tensor_type, *y = tb->tensor_type;
    if (x->has_elem_type && y->has_elem_type && x->elem_type && y->elem_type &&
        x->elem_type != y->elem_type)
        return 1;
    if (!x->shape || !y->shape)
        return 0;
    if (x->shape->n_dim != y->shape->n_dim)
        return 1;
    for (size_t d = 0; d < x->shape->n_dim; d++) {
        const Onnx__TensorShapeProto__Dimension *p = x->shape->dim[d], *q = y->shape->dim[d];
        if (p->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
            q->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
            p->dim_value != q->dim_value)
            return 1;
    }
    return 0;
}

/* vi's type as text for a message: "fp32 [1,3,N,?]" (N a dim_param, ?
 * unknown; at most 8 dims shown). */
static void type_text(const Onnx__ValueInfoProto *vi, char *out, size_t cap)
{
    const Onnx__TypeProto *t = vi->type;
    if (!t || t->value_case == ONNX__TYPE_PROTO__VALUE__NOT_SET) {
        snprintf(out, cap, "no type");
        return;
    }
    if (t->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !t->tensor_type) {
        snprintf(out, cap, "not a dense tensor");
        return;
    }
    const Onnx__TypeProto__Tensor *tt = t->tensor_type;
    int32_t et = tt->has_elem_type ? tt->elem_type : 0;
    int dt = dtype_of(et);
    size_t at = dt >= 0 ? (size_t)snprintf(out, cap, "%s", arena_dtype_name((enum arena_dtype)dt))
                        : (size_t)snprintf(out, cap, "elem_type %ld", (long)et);
    if (!tt->shape) {
        if (at < cap)
            snprintf(out + at, cap - at, " (no shape)");
        return;
    }
    for (size_t d = 0; d < tt->shape->n_dim && at < cap; d++) {
        const Onnx__TensorShapeProto__Dimension *dim = tt->shape->dim[d];
        const char *sep = d ? "," : " [";
        if (d == 8)
            at += (size_t)snprintf(out + at, cap - at, ",... %zu dims", tt->shape->n_dim);
        else if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE)
            at += (size_t)snprintf(out + at, cap - at, "%s%lld", sep, (long long)dim->dim_value);
        else if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM)
            at += (size_t)snprintf(out + at, cap - at, "%s%.16s", sep, str(dim->dim_param));
        else
            at += (size_t)snprintf(out + at, cap - at, "%s?", sep);
        if (d == 8)
            break;
    }
    if (at < cap)
        snprintf(out + at, cap - at, "%s", tt->shape->n_dim ? "]" : " []");
}

/* Every ValueInfoProto by name, from the graph's outputs, value_info and
 * inputs. Two for one name must agree (disagree() above): a value with
 * two shapes is refused, naming both. Of two that agree, the one that
 * says more (says()) is kept, else the first. */
static void index_shapes(struct reader *r)
{
    const Onnx__GraphProto *gp = r->gp;
    size_t total = gp->n_output + gp->n_value_info + gp->n_input;
    r->infos = malloc((total ? total : 1) * sizeof *r->infos);
    if (!r->infos) {
        fail(r, ARENA_ENOMEM, "out of memory");
        return;
    }
    size_t k = 0;
    struct {
        size_t n;
        Onnx__ValueInfoProto **v;
        const char *field;
    } lists[3] = {{gp->n_output, gp->output, "output"},
                  {gp->n_value_info, gp->value_info, "value_info"},
                  {gp->n_input, gp->input, "input"}};
    for (int l = 0; l < 3 && !r->rc; l++)
        for (size_t i = 0; i < lists[l].n && !r->rc; i++) {
            const Onnx__ValueInfoProto *vi = lists[l].v[i];
            char what[64];
            snprintf(what, sizeof what, "graph %s %zu", lists[l].field, i);
            if (!name_ok(r, vi->name, what))
                break;
            if (!vi->name || !vi->name[0]) {
                fail(r, ARENA_EFORMAT, "%s: empty name", what);
                break;
            }
            uint32_t old;
            int put = arena_names_put(&r->shapes, vi->name, strlen(vi->name), (uint32_t)k,
                                      &old);
            if (put < 0) {
                fail(r, put, "out of memory");
                break;
            }
            struct shape here = {vi, says(vi), l, i};
            if (put == 0) {
                r->infos[k++] = here;
            } else if (disagree(r->infos[old].vi, vi)) {
                const struct shape *o = &r->infos[old];
                char a[160], b[160];
                type_text(o->vi, a, sizeof a);
                type_text(vi, b, sizeof b);
                fail(r, ARENA_EFORMAT, "value '%s' has two shapes: %s (graph %s %zu) and %s (%s)",
                     vi->name, a, lists[o->list].field, o->i, b, what);
            } else if (here.says > r->infos[old].says) {
                r->infos[old] = here;
            }
        }
}

/* A node reads values of the outer graph that it does not name when it
 * carries a graph (If, Loop, Scan): refused. */
static int has_subgraph(const Onnx__NodeProto *n)
{
    for (size_t a = 0; a < n->n_attribute; a++)
        if (n->attribute[a]->g || n->attribute[a]->n_graphs)
            return 1;
    return 0;
}

static int is_default_domain(const char *d)
{
    return !d || !d[0] || strcmp(d, "ai.onnx") == 0;
}

/* Pass 1, over the nodes in stored order: names checked, every input
 * defined before, folded nodes' outputs constant, other outputs planned.
 * folded[k] says which nodes fold; *most the most names of one node. */
static void mark(struct reader *r, unsigned char *folded, size_t *most)
{
    const Onnx__GraphProto *gp = r->gp;
    *most = 0;
    for (size_t k = 0; k < gp->n_node && !r->rc; k++) {
        const Onnx__NodeProto *n = gp->node[k];
        char what[96];
        snprintf(what, sizeof what, "node %zu", k);
        if (!name_ok(r, n->name, what) || !name_ok(r, n->op_type, what) ||
            !name_ok(r, n->domain, what))
            return;
        if (!n->op_type || !n->op_type[0]) {
            fail(r, ARENA_EFORMAT, "node %zu (%s): op_type: empty", k, str(n->name));
            return;
        }
        if (has_subgraph(n)) {
            fail(r, ARENA_EFORMAT,
                 "node %zu (%s): carries a subgraph (control flow, whose body reads outer"
                 " values the node does not list): not planned",
                 k, n->op_type);
            return;
        }
        if (n->n_input + n->n_output > *most)
            *most = n->n_input + n->n_output;
        size_t present = 0, constant = 0;
        for (size_t i = 0; i < n->n_input; i++) {
            const char *s = n->input[i];
            snprintf(what, sizeof what, "node %zu (%s): input %zu", k, n->op_type, i);
            if (!name_ok(r, s, what))
                return;
            if (!s[0])
                continue;
            struct value *v;
            if (!lookup(r, s, &v)) {
                fail(r, ARENA_EFORMAT,
                     "%s: value '%s' is no graph input, initializer or earlier node's output "
                     "(nodes must be in execution order)",
                     what, s);
                return;
            }
            present++;
            constant += v->role != ROLE_PLANNED;
        }
        int fold = is_default_domain(n->domain) &&
                   (strcmp(n->op_type, "Constant") == 0 || strcmp(n->op_type, "Shape") == 0);
        folded[k] = (unsigned char)(fold || (present > 0 && constant == present));
        if (folded[k])
            r->info->folded++;
        for (size_t i = 0; i < n->n_output; i++) {
            const char *s = n->output[i];
            snprintf(what, sizeof what, "node %zu (%s): output %zu", k, n->op_type, i);
            if (!name_ok(r, s, what))
                return;
            if (!s[0])
                continue;
            if (!define(r, s, folded[k] ? ROLE_CONST : ROLE_PLANNED, what))
                return;
            r->info->constants += folded[k];
        }
    }
}

/* Adds planned value v, called s, to the graph with its ValueInfoProto's
 * type and dims; what says where it was defined. */
static void add_tensor(struct reader *r, struct value *v, const char *s, const char *what)
{
    const Onnx__ValueInfoProto *vi = v->vi;
    static const char *const fix = "run scripts/onnx-shape MODEL OUT INPUT=DIMS... to pin the"
                                   " inputs and infer every shape";
    if (!vi || !vi->type) {
        fail(r, ARENA_EFORMAT, "tensor '%s' (%s): no type or shape in the graph's inputs,"
             " outputs or value_info: %s", s, what, fix);
        return;
    }
    if (vi->type->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ||
        !vi->type->tensor_type) {
        fail(r, ARENA_EFORMAT, "tensor '%s' (%s): not a dense tensor (a sequence, map,"
             " optional or sparse value): not planned", s, what);
        return;
    }
    const Onnx__TypeProto__Tensor *tt = vi->type->tensor_type;
    int dt = dtype_of(tt->has_elem_type ? tt->elem_type : 0);
    if (dt < 0) {
        fail(r, ARENA_EFORMAT,
             "tensor '%s' (%s): elem_type: unknown or unsupported type %ld (known: 1 float, "
             "2 uint8, 3 int8, 4 uint16, 5 int16, 6 int32, 7 int64, 9 bool, 10 float16, "
             "11 double, 12 uint32, 13 uint64)",
             s, what, (long)(tt->has_elem_type ? tt->elem_type : 0));
        return;
    }
    if (!tt->shape) {
        fail(r, ARENA_EFORMAT, "tensor '%s' (%s): shape unknown (no dims): %s", s, what, fix);
        return;
    }
    if (tt->shape->n_dim > ARENA_GRAPH_MAX_RANK) {
        fail(r, ARENA_EFORMAT, "tensor '%s' (%s): rank %zu, above %d", s, what,
             tt->shape->n_dim, ARENA_GRAPH_MAX_RANK);
        return;
    }
    uint64_t dims[ARENA_GRAPH_MAX_RANK];
    for (size_t d = 0; d < tt->shape->n_dim; d++) {
        const Onnx__TensorShapeProto__Dimension *dim = tt->shape->dim[d];
        if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM) {
            char p[64];
            snprintf(p, sizeof p, "%s", str(dim->dim_param));
            fail(r, ARENA_EFORMAT, "tensor '%s' (%s): dim %zu is symbolic ('%s'): %s", s, what,
                 d, p, fix);
            return;
        }
        if (dim->value_case != ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
            fail(r, ARENA_EFORMAT, "tensor '%s' (%s): dim %zu is unknown: %s", s, what, d, fix);
            return;
        }
        if (dim->dim_value < 0) {
            fail(r, ARENA_EFORMAT, "tensor '%s' (%s): dim %zu is %lld, below 0", s, what, d,
                 (long long)dim->dim_value);
            return;
        }
        dims[d] = (uint64_t)dim->dim_value;
    }
    uint32_t id;
    int rc = arena_graph_tensor_add(r->g, s, (enum arena_dtype)dt, (uint32_t)tt->shape->n_dim,
                                    dims, &id);
    if (rc) {
        fail(r, rc, "tensor '%s': %s", s, arena_strerror(rc));
        return;
    }
    v->gid = id;
    r->info->planned++;
}

/* Pass 2: the graph's tensors, in the order values are defined (graph
 * inputs, then nodes' outputs), and every node as an op in stored order
 * with its planned tensors. */
static void build(struct reader *r, const unsigned char *folded)
{
    const Onnx__GraphProto *gp = r->gp;
    for (size_t i = 0; i < gp->n_input && !r->rc; i++) {
        struct value *v;
        char what[48];
        snprintf(what, sizeof what, "graph input %zu", i);
        if (lookup(r, gp->input[i]->name, &v) && v->role == ROLE_PLANNED) {
            add_tensor(r, v, gp->input[i]->name, what);
            if (!r->rc)
                r->g->tensors[v->gid].is_input = 1;
        }
    }
    for (size_t k = 0; k < gp->n_node && !r->rc; k++) {
        const Onnx__NodeProto *n = gp->node[k];
        char what[160];
        for (size_t i = 0; i < n->n_output && !folded[k] && !r->rc; i++) {
            struct value *v;
            snprintf(what, sizeof what, "output %zu of node %zu, %.64s", i, k, n->op_type);
            if (n->output[i][0] && lookup(r, n->output[i], &v))
                add_tensor(r, v, n->output[i], what);
        }
    }
    for (size_t i = 0; i < gp->n_output && !r->rc; i++) {
        struct value *v;
        const char *s = gp->output[i]->name;
        if (!lookup(r, s, &v)) {
            fail(r, ARENA_EFORMAT, "graph output %zu: value '%s' is no input, initializer or"
                 " node's output", i, s);
            return;
        }
        if (v->role == ROLE_PLANNED)
            r->g->tensors[v->gid].is_output = 1;
    }
    for (size_t k = 0; k < gp->n_node && !r->rc; k++) {
        const Onnx__NodeProto *n = gp->node[k];
        size_t n_in = 0, n_out = 0;
        struct value *v;
        for (size_t i = 0; i < n->n_input && !folded[k]; i++)
            if (n->input[i][0] && lookup(r, n->input[i], &v) && v->role == ROLE_PLANNED)
                r->refs[n_in++] = v->gid;
        for (size_t i = 0; i < n->n_output && !folded[k]; i++)
            if (n->output[i][0] && lookup(r, n->output[i], &v) && v->role == ROLE_PLANNED)
                r->refs[n_in + n_out++] = v->gid;
        char name[32], kind[ARENA_ONNX_NAME_MAX + 1];
        snprintf(name, sizeof name, "op%zu", k);
        snprintf(kind, sizeof kind, "%s", n->op_type);
        int rc = arena_graph_op_add(r->g, name, kind, r->refs, n_in, r->refs + n_in, n_out);
        if (rc)
            fail(r, rc, "node %zu: %s", k, arena_strerror(rc));
    }
}

int arena_onnx_is_model(const void *data, size_t size)
{
    const unsigned char *b = data;
    if (size < 3 || b[0] != 0x08 || b[1] < 1 || b[1] > 0x7f)
        return 0;
    /* ModelProto's other fields: 2-4, 6 strings, 5 model_version, 7 graph,
     * 8 opset_import, 14 metadata_props, 20 training_info, 25 functions */
    switch (b[2]) {
    case 0x12: case 0x1a: case 0x22: case 0x28: case 0x32: case 0x3a: case 0x42: case 0x72:
        return 1;
    case 0xa2: case 0xca: /* 20 and 25: two-byte tags */
        return size > 3 && b[3] == 0x01;
    }
    return 0;
}

#define MODEL_MAX ((size_t)1 << 31) /* protobuf's limit on one message */

int arena_onnx_read(const void *data, size_t size, const char *name, struct arena_graph *g,
                    struct arena_onnx_info *info, char *err, size_t errlen)
{
    struct reader r;
    memset(&r, 0, sizeof r);
    memset(info, 0, sizeof *info);
    arena_graph_init(g);
    r.name = name;
    r.err = err;
    r.errlen = errlen;
    r.g = g;
    r.info = info;
    if (size > MODEL_MAX)
        return fail(&r, ARENA_EFORMAT, "larger than 2 GiB, the protobuf limit");
    unsigned char *lean;
    size_t lean_size;
    int rc = arena_onnx_wire_strip(data, size, name, &lean, &lean_size, err, errlen);
    if (rc)
        return rc;
    Onnx__ModelProto *m = onnx__model_proto__unpack(NULL, lean_size, lean);
    free(lean); /* protobuf-c copies what it keeps */
    if (!m)
        return fail(&r, ARENA_EFORMAT, "ModelProto: protobuf-c cannot unpack it (a field of the"
                    " wrong type, a required field missing, or out of memory)");
    if (!m->graph) {
        onnx__model_proto__free_unpacked(m, NULL);
        return fail(&r, ARENA_EFORMAT, "ModelProto: graph: missing");
    }
    r.gp = m->graph;
    arena_names_init(&r.ids);
    arena_names_init(&r.shapes);
    info->nodes = r.gp->n_node;
    info->initializers = r.gp->n_initializer + r.gp->n_sparse_initializer;
    index_shapes(&r);
    for (size_t i = 0; i < r.gp->n_initializer && !r.rc; i++) {
        char what[48];
        snprintf(what, sizeof what, "initializer %zu", i);
        if (name_ok(&r, r.gp->initializer[i]->name, what))
            define(&r, str(r.gp->initializer[i]->name), ROLE_WEIGHT, what);
    }
    for (size_t i = 0; i < r.gp->n_sparse_initializer && !r.rc; i++) {
        const Onnx__TensorProto *t = r.gp->sparse_initializer[i]->values;
        char what[48];
        snprintf(what, sizeof what, "sparse_initializer %zu", i);
        if (!t)
            fail(&r, ARENA_EFORMAT, "%s: values: missing", what);
        else if (name_ok(&r, t->name, what))
            define(&r, str(t->name), ROLE_WEIGHT, what);
    }
    /* A graph input that is also an initializer (an overridable weight, as
     * older exporters wrote) stays a weight. */
    for (size_t i = 0; i < r.gp->n_input && !r.rc; i++) {
        struct value *v;
        char what[48];
        snprintf(what, sizeof what, "graph input %zu", i);
        if (!lookup(&r, r.gp->input[i]->name, &v) || v->role != ROLE_WEIGHT)
            define(&r, r.gp->input[i]->name, ROLE_PLANNED, what);
    }
    unsigned char *folded = calloc(r.gp->n_node ? r.gp->n_node : 1, 1);
    size_t most = 0;
    if (!folded)
        fail(&r, ARENA_ENOMEM, "out of memory");
    if (!r.rc)
        mark(&r, folded, &most);
    r.refs = malloc((most ? most : 1) * sizeof *r.refs);
    if (!r.refs)
        fail(&r, ARENA_ENOMEM, "out of memory");
    if (!r.rc)
        build(&r, folded);
    rc = r.rc;
    free(folded);
    free(r.refs);
    free(r.vals);
    free(r.infos);
    arena_names_free(&r.ids);
    arena_names_free(&r.shapes);
    onnx__model_proto__free_unpacked(m, NULL);
    if (rc) {
        arena_graph_free(g);
        memset(info, 0, sizeof *info);
    }
    return rc;
}

/* The whole file in memory; a regular file above 2 GiB is refused unread. */
static int read_file(const char *path, unsigned char **data, size_t *size, char *err,
                     size_t errlen)
{
    *data = NULL;
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return arena_errorf(err, errlen, 0, ARENA_EIO, "%s: cannot open", path);
    struct stat st;
    size_t cap = 0;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        if ((uint64_t)st.st_size > MODEL_MAX) {
            fclose(f);
            return arena_errorf(err, errlen, 0, ARENA_EFORMAT,
                                "%s: larger than 2 GiB, the protobuf limit", path);
        }
        cap = (size_t)st.st_size + 1; /* one more byte finds a file that grew */
    }
    int rc = arena_read_whole(f, cap, MODEL_MAX, path, "protobuf", data, size, err, errlen);
    fclose(f);
    return rc;
}

/* A regular file of 1 byte to 2 GiB is mapped, not read: the walk reads
 * it once and keeps only what is not weights, so copying it into fresh
 * memory first cost more than the rest of the read (the 640x640 PP-OCR
 * detector: about 30 ms of CPU before, 5 ms after). A file truncated by
 * another process while it is read would raise SIGBUS; a file being
 * rewritten is not a model to plan anyway. *mapped says which. */
static int map_file(const char *path, unsigned char **data, size_t *size, int *mapped,
                    char *err, size_t errlen)
{
    *mapped = 0;
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size <= MODEL_MAX) {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            close(fd);
            *data = p;
            *size = (size_t)st.st_size;
            *mapped = 1;
            return ARENA_OK;
        }
    }
    if (fd >= 0)
        close(fd);
    return read_file(path, data, size, err, errlen);
}

int arena_onnx_load(const char *path, struct arena_graph *g, char *err, size_t errlen)
{
    arena_graph_init(g);
    unsigned char *data;
    size_t size;
    int mapped;
    int rc = map_file(path, &data, &size, &mapped, err, errlen);
    if (rc)
        return rc;
    struct arena_onnx_info info;
    rc = arena_onnx_read(data, size, path, g, &info, err, errlen);
    if (mapped)
        munmap(data, size);
    else
        free(data);
    return rc;
}
