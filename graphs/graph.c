/* graph.c — building a graph and checking it (see graph.h for the rules). */
#include "graphs/graph.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/graph_internal.h"
#include "graphs/names.h"

#define NONE ARENA_GRAPH_NONE

const char *const arena_dtype_choices[ARENA_DTYPE_COUNT + 1] = {"int8", "int16", "fp16", "fp32",
                                                                NULL};
static const char *const dtype_names[ARENA_DTYPE_ALL] = {
    "int8", "int16", "fp16", "fp32", "int32", "uint8", "int64", "bool", "fp64", "uint64", "uint32",
    "uint16"};
static const unsigned dtype_sizes[ARENA_DTYPE_ALL] = {1, 2, 2, 4, 4, 1, 8, 1, 8, 8, 4, 2};

const char *arena_dtype_name(enum arena_dtype t)
{
    return (unsigned)t < ARENA_DTYPE_ALL ? dtype_names[t] : NULL;
}

unsigned arena_dtype_size(enum arena_dtype t)
{
    return (unsigned)t < ARENA_DTYPE_ALL ? dtype_sizes[t] : 0;
}

int arena_dtype_parse(const char *s, enum arena_dtype *out)
{
    for (unsigned i = 0; i < ARENA_DTYPE_COUNT; i++)
        if (strcmp(s, arena_dtype_choices[i]) == 0) {
            *out = (enum arena_dtype)i;
            return ARENA_OK;
        }
    return ARENA_ENOTFOUND;
}

void arena_graph_init(struct arena_graph *g)
{
    memset(g, 0, sizeof *g);
}

void arena_graph_free(struct arena_graph *g)
{
    for (size_t i = 0; i < g->n_tensors; i++)
        free(g->tensors[i].name);
    for (size_t i = 0; i < g->n_ops; i++) {
        free(g->ops[i].name);
        free(g->ops[i].kind);
    }
    free(g->tensors);
    free(g->ops);
    free(g->refs);
    free(g->order);
    memset(g, 0, sizeof *g);
}

/* Makes room for one more element of size elem in *arr (count n, capacity *cap). */
static int reserve(void **arr, size_t *cap, size_t n, size_t more, size_t elem)
{
    if (more <= *cap - n)
        return ARENA_OK;
    size_t ncap = *cap ? *cap : 16;
    while (more > ncap - n) {
        if (ncap > SIZE_MAX / 2 / elem)
            return ARENA_ENOMEM;
        ncap *= 2;
    }
    void *p = realloc(*arr, ncap * elem);
    if (!p)
        return ARENA_ENOMEM;
    *arr = p;
    *cap = ncap;
    return ARENA_OK;
}

char *arena_str_dup(const char *s)
{
    size_t len = strlen(s);
    char *d = malloc(len + 1);
    if (d)
        memcpy(d, s, len + 1);
    return d;
}

char **arena_names_pack(const char *pool, size_t pool_len, size_t n)
{
    if (n > (SIZE_MAX - pool_len) / sizeof(char *))
        return NULL;
    char **names = malloc(n * sizeof *names + pool_len + 1);
    if (!names)
        return NULL;
    char *bytes = (char *)(names + n);
    if (pool_len)
        memcpy(bytes, pool, pool_len);
    bytes[pool_len] = '\0';
    for (size_t i = 0, at = 0; i < n; i++) {
        names[i] = bytes + (at < pool_len ? at : pool_len);
        at += strlen(names[i]) + 1;
    }
    return names;
}

char **arena_graph_names(const struct arena_graph *g)
{
    size_t len = 0;
    for (size_t i = 0; i < g->n_tensors; i++)
        len += strlen(g->tensors[i].name) + 1;
    char *pool = malloc(len ? len : 1);
    if (!pool)
        return NULL;
    for (size_t i = 0, at = 0; i < g->n_tensors; i++) {
        size_t k = strlen(g->tensors[i].name) + 1;
        memcpy(pool + at, g->tensors[i].name, k);
        at += k;
    }
    char **names = arena_names_pack(pool, len, g->n_tensors);
    free(pool);
    return names;
}

static int latch(struct arena_graph *g, int rc)
{
    if (rc && !g->status)
        g->status = rc;
    return rc;
}

int arena_shape_bytes(uint64_t elem, uint32_t rank, const uint64_t *dims, uint64_t *bytes)
{
    *bytes = 0;
    for (uint32_t i = 0; i < rank; i++)
        if (dims[i] == 0)
            return ARENA_OK;
    uint64_t b = elem;
    for (uint32_t i = 0; i < rank; i++) {
        if (b > ARENA_SIZE_MAX / dims[i])
            return ARENA_EOVERFLOW;
        b *= dims[i];
    }
    if (b > ARENA_SIZE_MAX)
        return ARENA_EOVERFLOW;
    *bytes = b;
    return ARENA_OK;
}

int arena_graph_tensor_add(struct arena_graph *g, const char *name, enum arena_dtype dtype,
                           uint32_t rank, const uint64_t *dims, uint32_t *id)
{
    if (g->status)
        return g->status;
    if (rank > ARENA_GRAPH_MAX_RANK || arena_dtype_size(dtype) == 0 || !name ||
        g->n_tensors >= NONE - 1)
        return latch(g, ARENA_EINVAL);
    void *arr = g->tensors;
    int rc = reserve(&arr, &g->cap_tensors, g->n_tensors, 1, sizeof *g->tensors);
    g->tensors = arr;
    if (rc)
        return latch(g, rc);
    struct arena_gtensor *t = &g->tensors[g->n_tensors];
    memset(t, 0, sizeof *t);
    t->name = arena_str_dup(name);
    if (!t->name)
        return latch(g, ARENA_ENOMEM);
    t->dtype = dtype;
    t->rank = rank;
    for (uint32_t i = 0; i < rank; i++)
        t->dims[i] = dims[i];
    t->overflow = arena_shape_bytes(arena_dtype_size(dtype), rank, dims, &t->bytes) != ARENA_OK;
    if (id)
        *id = (uint32_t)g->n_tensors;
    g->n_tensors++;
    return ARENA_OK;
}

int arena_graph_op_add(struct arena_graph *g, const char *name, const char *kind,
                       const uint32_t *in, size_t n_in, const uint32_t *out, size_t n_out)
{
    if (g->status)
        return g->status;
    if (!name || !kind || g->n_ops >= NONE - 1 || n_in > SIZE_MAX / 2 - n_out)
        return latch(g, ARENA_EINVAL);
    for (size_t i = 0; i < n_in; i++)
        if (in[i] >= g->n_tensors)
            return latch(g, ARENA_EINVAL);
    for (size_t i = 0; i < n_out; i++)
        if (out[i] >= g->n_tensors)
            return latch(g, ARENA_EINVAL);
    void *arr = g->ops;
    int rc = reserve(&arr, &g->cap_ops, g->n_ops, 1, sizeof *g->ops);
    g->ops = arr;
    if (rc)
        return latch(g, rc);
    arr = g->refs;
    rc = reserve(&arr, &g->cap_refs, g->n_refs, n_in + n_out, sizeof *g->refs);
    g->refs = arr;
    if (rc)
        return latch(g, rc);
    struct arena_gop *op = &g->ops[g->n_ops];
    memset(op, 0, sizeof *op);
    op->name = arena_str_dup(name);
    op->kind = arena_str_dup(kind);
    if (!op->name || !op->kind) {
        free(op->name);
        free(op->kind);
        return latch(g, ARENA_ENOMEM);
    }
    op->in_first = g->n_refs;
    op->n_in = n_in;
    if (n_in)
        memcpy(g->refs + g->n_refs, in, n_in * sizeof *in);
    g->n_refs += n_in;
    op->out_first = g->n_refs;
    op->n_out = n_out;
    if (n_out)
        memcpy(g->refs + g->n_refs, out, n_out * sizeof *out);
    g->n_refs += n_out;
    g->n_ops++;
    return ARENA_OK;
}

int arena_graph_op_window_set(struct arena_graph *g, const struct arena_gop_window *w)
{
    if (g->status)
        return g->status;
    if (!g->n_ops || !w->kh || !w->kw || !w->sh || !w->sw)
        return latch(g, ARENA_EINVAL);
    g->ops[g->n_ops - 1].win = *w;
    return ARENA_OK;
}

int arena_graph_order_set(struct arena_graph *g, const uint32_t *order, size_t n)
{
    if (g->status)
        return g->status;
    if (n != g->n_ops)
        return latch(g, ARENA_EINVAL);
    uint32_t *o = malloc((n ? n : 1) * sizeof *o);
    if (!o)
        return latch(g, ARENA_ENOMEM);
    if (n)
        memcpy(o, order, n * sizeof *o);
    free(g->order);
    g->order = o;
    return ARENA_OK;
}

int arena_graph_tensor_find(const struct arena_graph *g, const char *name, uint32_t *id)
{
    for (size_t i = 0; i < g->n_tensors; i++)
        if (strcmp(g->tensors[i].name, name) == 0) {
            *id = (uint32_t)i;
            return ARENA_OK;
        }
    return ARENA_ENOTFOUND;
}

/* ---- checks ---- */

struct checker {
    const struct arena_graph *g;
    struct arena_graph_fault *fault;
    char *err;
    size_t errlen;
    uint32_t *writer; /* per tensor: op id or NONE */
    uint32_t *pos;    /* per op: step */
};

static int fail(struct checker *c, int rc, size_t op, size_t tensor, const char *fmt, ...)
{
    if (c->fault) {
        c->fault->op = op;
        c->fault->tensor = tensor;
    }
    va_list ap;
    va_start(ap, fmt);
    arena_verrorf(c->err, c->errlen, 0, rc, fmt, ap);
    va_end(ap);
    return rc;
}

static int check_names(struct checker *c)
{
    const struct arena_graph *g = c->g;
    struct arena_names m;
    uint32_t old;
    int rc = ARENA_OK;
    arena_names_init(&m);
    for (size_t i = 0; i < g->n_tensors && !rc; i++) {
        const char *s = g->tensors[i].name;
        if (!*s) {
            rc = fail(c, ARENA_EINVAL, SIZE_MAX, i, "tensor %zu has an empty name", i);
            break;
        }
        int r = arena_names_put(&m, s, strlen(s), (uint32_t)i, &old);
        if (r < 0)
            rc = fail(c, r, SIZE_MAX, SIZE_MAX, "out of memory checking names");
        else if (r == 1)
            rc = fail(c, ARENA_EINVAL, SIZE_MAX, i, "duplicate tensor name '%s' (tensors %u and %zu)",
                      s, (unsigned)old, i);
    }
    arena_names_free(&m);
    arena_names_init(&m);
    for (size_t i = 0; i < g->n_ops && !rc; i++) {
        const char *s = g->ops[i].name;
        if (!*s) {
            rc = fail(c, ARENA_EINVAL, i, SIZE_MAX, "op %zu has an empty name", i);
            break;
        }
        int r = arena_names_put(&m, s, strlen(s), (uint32_t)i, &old);
        if (r < 0)
            rc = fail(c, r, SIZE_MAX, SIZE_MAX, "out of memory checking names");
        else if (r == 1)
            rc = fail(c, ARENA_EINVAL, i, SIZE_MAX, "duplicate op name '%s' (ops %u and %zu)", s,
                      (unsigned)old, i);
    }
    arena_names_free(&m);
    return rc;
}

static int check_sizes(struct checker *c)
{
    const struct arena_graph *g = c->g;
    for (size_t i = 0; i < g->n_tensors; i++) {
        const struct arena_gtensor *t = &g->tensors[i];
        if (t->overflow)
            return fail(c, ARENA_EOVERFLOW, SIZE_MAX, i,
                        "tensor '%s': size overflows (more than 2^62 bytes)", t->name);
        if (t->bytes == 0)
            return fail(c, ARENA_EINVAL, SIZE_MAX, i, "tensor '%s': size is zero bytes", t->name);
    }
    return ARENA_OK;
}

static int check_edges(struct checker *c, uint32_t *readers)
{
    const struct arena_graph *g = c->g;
    for (size_t i = 0; i < g->n_tensors; i++) {
        c->writer[i] = NONE;
        readers[i] = 0;
    }
    for (size_t o = 0; o < g->n_ops; o++) {
        const struct arena_gop *op = &g->ops[o];
        for (size_t k = 0; k < op->n_in; k++)
            readers[g->refs[op->in_first + k]] = 1;
        for (size_t k = 0; k < op->n_out; k++) {
            uint32_t t = g->refs[op->out_first + k];
            if (g->tensors[t].is_input)
                return fail(c, ARENA_EINVAL, o, t, "op '%s' writes graph input '%s'", op->name,
                            g->tensors[t].name);
            if (c->writer[t] == o)
                return fail(c, ARENA_EINVAL, o, t, "op '%s' writes tensor '%s' twice", op->name,
                            g->tensors[t].name);
            if (c->writer[t] != NONE)
                return fail(c, ARENA_EINVAL, o, t, "tensor '%s' is written by two ops, '%s' and '%s'",
                            g->tensors[t].name, g->ops[c->writer[t]].name, op->name);
            c->writer[t] = (uint32_t)o;
        }
    }
    for (size_t i = 0; i < g->n_tensors; i++) {
        const struct arena_gtensor *t = &g->tensors[i];
        if (!readers[i] && c->writer[i] == NONE && !t->is_input && !t->is_output)
            return fail(c, ARENA_EINVAL, SIZE_MAX, i,
                        "tensor '%s' is dangling: no op reads or writes it", t->name);
        if (t->is_output && c->writer[i] == NONE && !t->is_input)
            return fail(c, ARENA_EINVAL, SIZE_MAX, i,
                        "graph output '%s' is never written by an op", t->name);
    }
    return ARENA_OK;
}

/* Kahn's algorithm over op -> op edges (writer of an input -> reader). */
static int check_cycle(struct checker *c, uint32_t *indeg, uint32_t *queue)
{
    const struct arena_graph *g = c->g;
    size_t n = g->n_ops;
    /* successors in CSR form: succ_start over ops, built from refs */
    size_t edges = 0;
    for (size_t o = 0; o < n; o++) {
        indeg[o] = 0;
    }
    for (size_t o = 0; o < n; o++) {
        const struct arena_gop *op = &g->ops[o];
        for (size_t k = 0; k < op->n_in; k++)
            if (c->writer[g->refs[op->in_first + k]] != NONE) {
                indeg[o]++;
                edges++;
            }
    }
    size_t *start = calloc(n + 1, sizeof *start);
    uint32_t *succ = malloc((edges ? edges : 1) * sizeof *succ);
    if (!start || !succ) {
        free(start);
        free(succ);
        return fail(c, ARENA_ENOMEM, SIZE_MAX, SIZE_MAX, "out of memory checking for cycles");
    }
    for (size_t o = 0; o < n; o++) {
        const struct arena_gop *op = &g->ops[o];
        for (size_t k = 0; k < op->n_in; k++) {
            uint32_t w = c->writer[g->refs[op->in_first + k]];
            if (w != NONE)
                start[w + 1]++;
        }
    }
    for (size_t o = 0; o < n; o++)
        start[o + 1] += start[o];
    for (size_t o = 0; o < n; o++) {
        const struct arena_gop *op = &g->ops[o];
        for (size_t k = 0; k < op->n_in; k++) {
            uint32_t w = c->writer[g->refs[op->in_first + k]];
            if (w != NONE)
                succ[start[w]++] = (uint32_t)o;
        }
    }
    for (size_t o = n; o > 0; o--)
        start[o] = start[o - 1];
    start[0] = 0;
    size_t head = 0, tail = 0;
    for (size_t o = 0; o < n; o++)
        if (indeg[o] == 0)
            queue[tail++] = (uint32_t)o;
    while (head < tail) {
        uint32_t o = queue[head++];
        for (size_t e = start[o]; e < start[o + 1]; e++)
            if (--indeg[succ[e]] == 0)
                queue[tail++] = succ[e];
    }
    free(start);
    free(succ);
    if (tail == n)
        return ARENA_OK;
    /* Some op is left; walk back through unfinished writers n times to land
     * on the cycle itself rather than on something downstream of it. */
    uint32_t o = 0;
    while (indeg[o] == 0)
        o++;
    for (size_t step = 0; step < n; step++) {
        const struct arena_gop *op = &g->ops[o];
        for (size_t k = 0; k < op->n_in; k++) {
            uint32_t w = c->writer[g->refs[op->in_first + k]];
            if (w != NONE && indeg[w] > 0) {
                o = w;
                break;
            }
        }
    }
    return fail(c, ARENA_EINVAL, o, SIZE_MAX, "the ops form a cycle through op '%s'",
                g->ops[o].name);
}

static int check_order(struct checker *c)
{
    const struct arena_graph *g = c->g;
    size_t n = g->n_ops;
    for (size_t o = 0; o < n; o++)
        c->pos[o] = NONE;
    for (size_t k = 0; k < n; k++) {
        uint32_t o = arena_graph_op_at(g, k);
        if (o >= n)
            return fail(c, ARENA_EINVAL, SIZE_MAX, SIZE_MAX,
                        "order is not topological: step %zu names op %u, past the %zu ops", k,
                        (unsigned)o, n);
        if (c->pos[o] != NONE)
            return fail(c, ARENA_EINVAL, o, SIZE_MAX,
                        "order is not topological: op '%s' runs twice (steps %u and %zu)",
                        g->ops[o].name, (unsigned)c->pos[o], k);
        c->pos[o] = (uint32_t)k;
    }
    for (size_t k = 0; k < n; k++) {
        uint32_t o = arena_graph_op_at(g, k);
        const struct arena_gop *op = &g->ops[o];
        for (size_t i = 0; i < op->n_in; i++) {
            uint32_t t = g->refs[op->in_first + i];
            uint32_t w = c->writer[t];
            if (w == NONE && !g->tensors[t].is_input)
                return fail(c, ARENA_EINVAL, o, t,
                            "op '%s' (step %zu) reads tensor '%s' before it is written: no op "
                            "writes it and it is not a graph input",
                            op->name, k, g->tensors[t].name);
            if (w != NONE && c->pos[w] > k)
                return fail(c, ARENA_EINVAL, o, t,
                            "order is not topological: op '%s' (step %zu) reads '%s', written "
                            "later by op '%s' (step %u)",
                            op->name, k, g->tensors[t].name, g->ops[w].name, (unsigned)c->pos[w]);
        }
    }
    return ARENA_OK;
}

/* Runs every check; on success leaves writer[] and pos[] filled. */
static int check_all(struct checker *c)
{
    const struct arena_graph *g = c->g;
    if (g->status)
        return fail(c, g->status, SIZE_MAX, SIZE_MAX, "building the graph failed: %s",
                    arena_strerror(g->status));
    if (g->n_ops == 0)
        return fail(c, ARENA_EINVAL, SIZE_MAX, SIZE_MAX, "the graph has no ops");
    if (g->n_ops >= NONE || g->n_tensors >= NONE)
        return fail(c, ARENA_EINVAL, SIZE_MAX, SIZE_MAX, "the graph has too many ops or tensors");
    int rc = check_names(c);
    if (!rc)
        rc = check_sizes(c);
    if (rc)
        return rc;
    size_t nt = g->n_tensors, no = g->n_ops;
    uint32_t *scratch = malloc((nt + 2 * no + 1) * sizeof *scratch);
    if (!scratch)
        return fail(c, ARENA_ENOMEM, SIZE_MAX, SIZE_MAX, "out of memory checking the graph");
    rc = check_edges(c, scratch);
    if (!rc)
        rc = check_cycle(c, scratch, scratch + no);
    if (!rc)
        rc = check_order(c);
    free(scratch);
    return rc;
}

int arena_graph_analyse(const struct arena_graph *g, uint32_t *writer, uint32_t *pos,
                        struct arena_graph_fault *fault, char *err, size_t errlen)
{
    struct checker c;
    memset(&c, 0, sizeof c);
    c.g = g;
    c.fault = fault;
    c.err = err;
    c.errlen = errlen;
    c.writer = writer;
    c.pos = pos;
    if (fault)
        fault->op = fault->tensor = SIZE_MAX;
    if (err && errlen)
        err[0] = '\0';
    return check_all(&c);
}

int arena_graph_check(const struct arena_graph *g, struct arena_graph_fault *fault, char *err,
                      size_t errlen)
{
    uint32_t *writer = malloc((g->n_tensors ? g->n_tensors : 1) * sizeof *writer);
    uint32_t *pos = malloc((g->n_ops ? g->n_ops : 1) * sizeof *pos);
    int rc;
    if (!writer || !pos) {
        if (fault)
            fault->op = fault->tensor = SIZE_MAX;
        if (err && errlen)
            snprintf(err, errlen, "out of memory checking the graph");
        rc = ARENA_ENOMEM;
    } else {
        rc = arena_graph_analyse(g, writer, pos, fault, err, errlen);
    }
    free(writer);
    free(pos);
    return rc;
}

uint32_t arena_gen_tensor(struct arena_graph *g, const char *prefix, size_t i,
                          enum arena_dtype dtype, uint32_t rank, const uint64_t *dims)
{
    char name[64];
    uint32_t id = 0;
    snprintf(name, sizeof name, "%s%zu", prefix, i);
    arena_graph_tensor_add(g, name, dtype, rank, dims, &id);
    return id;
}

void arena_gen_op(struct arena_graph *g, const char *prefix, size_t i, const char *kind,
                  const uint32_t *in, size_t n_in, uint32_t out)
{
    char name[64];
    snprintf(name, sizeof name, "%s%zu", prefix, i);
    arena_graph_op_add(g, name, kind, in, n_in, &out, 1);
}

int arena_op_kind_key(const char *kind, char *key, size_t cap)
{
    size_t k = 0;
    for (const char *c = kind; *c; c++) {
        if (*c == '_' || *c == '-')
            continue;
        if (k + 1 >= cap)
            return 0;
        key[k++] = (char)tolower((unsigned char)*c);
    }
    key[k] = '\0';
    return 1;
}
