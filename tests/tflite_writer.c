/* tflite_writer.c — see tflite_writer.h. */
#include "tests/tflite_writer.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

enum kind { F_ABSENT, F_U8, F_I8, F_U32, F_I32, F_U64, F_REF };

struct field {
    enum kind kind;
    uint64_t val;
};

struct w {
    unsigned char *b;
    size_t n, cap;
    int full;
};

void tfl_add_tensor(struct tfl_subgraph *s, const char *name, int type, uint32_t buffer,
                    uint32_t rank, int32_t d0, int32_t d1)
{
    struct tfl_tensor *t = &s->tensors[s->n_tensors++];
    memset(t, 0, sizeof *t);
    t->name = name;
    t->type = type;
    t->buffer = buffer;
    t->rank = rank;
    t->shape[0] = d0;
    t->shape[1] = d1;
}

void tfl_add_op(struct tfl_subgraph *s, uint32_t opcode, size_t n_in, const int32_t *in,
                int32_t out)
{
    struct tfl_op *o = &s->ops[s->n_ops++];
    memset(o, 0, sizeof *o);
    o->opcode = opcode;
    o->n_in = n_in;
    memcpy(o->in, in, n_in * sizeof *in);
    o->n_out = 1;
    o->out[0] = out;
}

void tfl_add_quantize_model(struct tfl_model *m)
{
    memset(m, 0, sizeof *m);
    m->n_codes = 2;
    m->codes[0].builtin = 0;   /* ADD */
    m->codes[1].builtin = 114; /* QUANTIZE */
    m->n_buffers = 1;
    m->n_subgraphs = 1;
}

void tfl_save(const struct tfl_model *m, const char *path)
{
    static unsigned char buf[16384];
    size_t n = tfl_write(m, buf, sizeof buf, NULL);
    cr_assert_gt(n, 8u, "the model does not fit the writer's buffer");
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    cr_assert_eq(fwrite(buf, 1, n, f), n);
    cr_assert_eq(fclose(f), 0);
}

void tfl_put_u32(unsigned char *at, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        at[i] = (unsigned char)(v >> (8 * i));
}

static void put(struct w *w, uint64_t v, int bytes)
{
    if (w->full || w->cap - w->n < (size_t)bytes) {
        w->full = 1;
        return;
    }
    for (int i = 0; i < bytes; i++)
        w->b[w->n++] = (unsigned char)(v >> (8 * i));
}

static void align4(struct w *w)
{
    while (w->n % 4 && !w->full)
        put(w, 0, 1);
}

/* Points the uoffset field at `at` to target (which lies after it). */
static void link(struct w *w, size_t at, size_t target)
{
    if (!w->full)
        tfl_put_u32(w->b + at, (uint32_t)(target - at));
}

/* vtable then table; pos[i] receives field i's position (0 when absent).
 * Returns the table's position. */
static size_t table(struct w *w, size_t nf, const struct field *f, size_t *pos)
{
    align4(w);
    size_t vt = w->n, obj = 4;
    put(w, 4 + 2 * nf, 2);
    size_t objlen_at = w->n;
    put(w, 0, 2);
    for (size_t i = 0; i < nf; i++) {
        size_t width = f[i].kind == F_ABSENT ? 0 : f[i].kind == F_U64 ? 8 : 4;
        put(w, width ? obj : 0, 2);
        obj += width;
    }
    align4(w);
    size_t t = w->n;
    if (!w->full) {
        w->b[objlen_at] = (unsigned char)obj;
        w->b[objlen_at + 1] = (unsigned char)(obj >> 8);
    }
    put(w, (uint32_t)(t - vt), 4);
    for (size_t i = 0; i < nf; i++) {
        pos[i] = f[i].kind == F_ABSENT ? 0 : w->n;
        if (f[i].kind == F_U64)
            put(w, f[i].val, 8);
        else if (f[i].kind != F_ABSENT)
            put(w, f[i].kind == F_REF ? 0 : f[i].val, 4);
    }
    return t;
}

static size_t vec_i32(struct w *w, size_t n, const int32_t *v)
{
    align4(w);
    size_t at = w->n;
    put(w, n, 4);
    for (size_t i = 0; i < n; i++)
        put(w, (uint32_t)v[i], 4);
    return at;
}

static size_t string(struct w *w, const char *s)
{
    align4(w);
    size_t at = w->n, len = strlen(s);
    put(w, len, 4);
    for (size_t i = 0; i <= len; i++)
        put(w, (unsigned char)s[i], 1);
    return at;
}

/* A vector of n table offsets to fill later; slots[i] is entry i's position. */
static size_t vec_refs(struct w *w, size_t n, size_t *slots)
{
    align4(w);
    size_t at = w->n;
    put(w, n, 4);
    for (size_t i = 0; i < n; i++) {
        slots[i] = w->n;
        put(w, 0, 4);
    }
    return at;
}

static void tensor(struct w *w, const struct tfl_tensor *t, size_t slot, size_t *where)
{
    struct field f[8] = {
        {F_REF, 0},
        {F_I8, (uint64_t)(uint8_t)(int8_t)t->type},
        {F_U32, t->buffer},
        {t->name ? F_REF : F_ABSENT, 0},
        {F_ABSENT, 0},
        {t->variable ? F_U8 : F_ABSENT, 1},
        {F_ABSENT, 0},
        {t->sig_rank ? F_REF : F_ABSENT, 0},
    };
    size_t pos[8];
    size_t at = table(w, 8, f, pos);
    link(w, slot, at);
    if (where)
        *where = at;
    link(w, pos[0], vec_i32(w, t->rank, t->shape));
    if (t->name)
        link(w, pos[3], string(w, t->name));
    if (t->sig_rank)
        link(w, pos[7], vec_i32(w, t->sig_rank, t->sig));
}

static void subgraph(struct w *w, const struct tfl_subgraph *s, size_t slot, int first,
                     struct tfl_where *where)
{
    struct field f[5] = {{F_REF, 0}, {F_REF, 0}, {F_REF, 0}, {F_REF, 0}, {F_ABSENT, 0}};
    size_t pos[5], slots[TFL_MAX];
    link(w, slot, table(w, 5, f, pos));
    size_t v = vec_refs(w, s->n_tensors, slots);
    link(w, pos[0], v);
    for (size_t i = 0; i < s->n_tensors; i++)
        tensor(w, &s->tensors[i], slots[i], first && i == 0 ? &where->tensor0_table : NULL);
    link(w, pos[1], vec_i32(w, s->n_in, s->in));
    link(w, pos[2], vec_i32(w, s->n_out, s->out));
    link(w, pos[3], vec_refs(w, s->n_ops, slots));
    for (size_t k = 0; k < s->n_ops; k++) {
        const struct tfl_op *o = &s->ops[k];
        struct field of[3] = {{F_U32, o->opcode}, {F_REF, 0}, {F_REF, 0}};
        size_t op[3];
        link(w, slots[k], table(w, 3, of, op));
        size_t in = vec_i32(w, o->n_in, o->in);
        if (first && k == 0)
            where->op0_inputs = in;
        link(w, op[1], in);
        link(w, op[2], vec_i32(w, o->n_out, o->out));
    }
}

size_t tfl_write(const struct tfl_model *m, unsigned char *out, size_t cap, struct tfl_where *wh)
{
    struct tfl_where dummy;
    struct w w = {out, 0, cap, 0};
    if (!wh)
        wh = &dummy;
    memset(wh, 0, sizeof *wh);
    put(&w, 0, 4);
    put(&w, 'T', 1);
    put(&w, 'F', 1);
    put(&w, 'L', 1);
    put(&w, '3', 1);
    struct field f[5] = {{F_U32, 3}, {F_REF, 0}, {F_REF, 0}, {F_ABSENT, 0}, {F_REF, 0}};
    size_t pos[5], slots[TFL_MAX];
    wh->model_table = table(&w, 5, f, pos);
    wh->subgraphs_field = pos[2];
    link(&w, 0, wh->model_table);
    link(&w, pos[1], vec_refs(&w, m->n_codes, slots));
    for (size_t i = 0; i < m->n_codes; i++) {
        const struct tfl_code *c = &m->codes[i];
        struct field cf[4] = {{F_I8, (uint64_t)(c->builtin > 127 ? 127 : c->builtin)},
                              {c->custom ? F_REF : F_ABSENT, 0},
                              {F_U32, 1},
                              {F_I32, (uint64_t)(uint32_t)c->builtin}};
        size_t cp[4];
        link(&w, slots[i], table(&w, 4, cf, cp));
        if (c->custom)
            link(&w, cp[1], string(&w, c->custom));
    }
    link(&w, pos[2], vec_refs(&w, m->n_subgraphs, slots));
    size_t sub_slots[2] = {slots[0], slots[1]};
    for (size_t s = 0; s < m->n_subgraphs && s < 2; s++)
        subgraph(&w, &m->sub[s], sub_slots[s], s == 0, wh);
    link(&w, pos[4], vec_refs(&w, m->n_buffers, slots));
    for (size_t i = 0; i < m->n_buffers; i++) {
        struct field bf[1] = {{m->buffer_bytes[i] ? F_REF : F_ABSENT, 0}};
        size_t bp[1];
        link(&w, slots[i], table(&w, 1, bf, bp));
        if (m->buffer_bytes[i]) {
            align4(&w);
            link(&w, bp[0], w.n);
            put(&w, m->buffer_bytes[i], 4);
            for (uint32_t k = 0; k < m->buffer_bytes[i]; k++)
                put(&w, 0x5a, 1);
            wh->last_data_end = w.n;
        }
    }
    return w.full ? 0 : w.n;
}
