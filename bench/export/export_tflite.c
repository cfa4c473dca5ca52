/* export_tflite.c — TFLM's offline plan written into a copy of a model
 * (see export_tflite.h for the format and the layout). Model field ids from
 * TensorFlow Lite's schema.fbs: version 0, operator_codes 1, subgraphs 2,
 * description 3, buffers 4, metadata_buffer 5, metadata 6, signature_defs
 * 7. SubGraph: tensors 0. Buffer: data 0, offset 1. Metadata: name 0,
 * buffer 1. */
#include "bench/export/export_tflite.h"

#include <stdlib.h>
#include <string.h>

#include "graphs/flatbuf.h"
#include "graphs/tflite.h"
#include "planners/status.h"

#define MODEL_FIELDS 8 /* ids 0..7, the fields this writer knows */
#define F_VERSION 0
#define F_BUFFERS 4
#define F_METADATA 6

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put16(unsigned char *b, size_t at, uint32_t v)
{
    b[at] = (unsigned char)v;
    b[at + 1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *b, size_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[at + (size_t)i] = (unsigned char)(v >> (8 * i));
}

static size_t up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

/* Position of a 4-byte field of t, 0 when absent (the root offset holds
 * byte 0, so no field is there); the vtable was checked by the reader. */
static size_t field4(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                     const char *field)
{
    if (fb->rc || id >= t->vt_fields)
        return 0;
    const unsigned char *v = fb->data + t->vtable + 4 + 2 * (size_t)id;
    size_t off = (size_t)v[0] | (size_t)v[1] << 8;
    if (off == 0)
        return 0;
    if (off < 4 || off > t->obj_len || t->obj_len - off < 4) {
        arena_fb_fail(fb, ARENA_EFORMAT, field, "offset out of range: field at byte %zu of a "
                      "%zu-byte table", off, t->obj_len);
        return 0;
    }
    return t->pos + off;
}

/* Where an offset field points (its position + its value), checked inside
 * the model: what the new Model table re-aims. */
static size_t target(struct arena_fb *fb, size_t pos, const char *field)
{
    uint32_t v = get32(fb->data + pos);
    if (v > fb->size - pos || fb->size - pos - v < 4) {
        arena_fb_fail(fb, ARENA_EFORMAT, field, "offset out of range: %lu from byte %zu, file "
                      "is %zu bytes", (unsigned long)v, pos, fb->size);
        return 0;
    }
    return pos + v;
}

static int is_plan_entry(struct arena_fb *fb, const struct arena_fb_vec *metas, size_t i)
{
    struct arena_fb_table m;
    struct arena_fb_vec name;
    arena_fb_context(fb, "Model, metadata %zu", i);
    arena_fb_vec_table(fb, metas, i, "Metadata", &m);
    arena_fb_vector(fb, &m, 0, "name", 1, &name);
    size_t len = strlen(ARENA_TFLM_OFFLINE_PLAN);
    return !fb->rc && name.n == len && memcmp(fb->data + name.pos, ARENA_TFLM_OFFLINE_PLAN, len) == 0;
}

/* What the copy keeps of the model, read and checked. */
struct model {
    size_t pos[MODEL_FIELDS], aim[MODEL_FIELDS]; /* each field's slot, where it points */
    struct arena_fb_vec sgs, bufs, metas;
    size_t total, first, count; /* tensors: all, the planned subgraph's first and count */
    size_t kept;                /* metadata entries kept: all but an old plan */
};

/* Reads the Model table of fb: fields, subgraphs, buffers, metadata. 0 or
 * fb's error. */
static int read_model(struct arena_fb *fb, const struct arena_tflite_plan *plan, struct model *m)
{
    arena_fb_context(fb, "Model");
    struct arena_fb_table model;
    arena_fb_root(fb, &model);
    for (unsigned id = MODEL_FIELDS; id < model.vt_fields && !fb->rc; id++)
        if (field4(fb, &model, id, "field") || fb->rc)
            return arena_fb_fail(fb, ARENA_EFORMAT, "field",
                                 "field %u is newer than this writer (it knows 0-7)", id);
    /* the old fields: a scalar (version) and offsets, each aimed anew */
    static const char *const names[MODEL_FIELDS] = {
        "version", "operator_codes", "subgraphs", "description",
        "buffers", "metadata_buffer", "metadata", "signature_defs"};
    for (unsigned id = 0; id < MODEL_FIELDS; id++) {
        m->aim[id] = 0;
        m->pos[id] = field4(fb, &model, id, names[id]);
        if (m->pos[id] && id != F_VERSION)
            m->aim[id] = target(fb, m->pos[id], names[id]);
    }
    arena_fb_vector(fb, &model, 2, "subgraphs", 4, &m->sgs);
    arena_fb_vector(fb, &model, F_BUFFERS, "buffers", 4, &m->bufs);
    arena_fb_vector(fb, &model, F_METADATA, "metadata", 4, &m->metas);
    if (fb->rc)
        return fb->rc;
    if (plan->subgraph >= m->sgs.n)
        return arena_fb_fail(fb, ARENA_EINVAL, "subgraphs", "no subgraph %lu: the model has %zu",
                             (unsigned long)plan->subgraph, m->sgs.n);
    /* The plan's buffer is appended to the buffers. In a model with none,
     * it would become buffer 0, which every tensor without data names (the
     * reader takes buffer 0 of a model without buffers as "no data"): the
     * copy would read as another graph. TFLite's converter always writes
     * the empty buffer 0, so such a file is refused, not patched. */
    if (m->bufs.n == 0)
        return arena_fb_fail(fb, ARENA_EFORMAT, "buffers",
                             "the model has no buffers (not even the empty buffer 0 every"
                             " TFLite model has): no room for a plan");
    /* tensors per subgraph, and where the planned subgraph's start */
    m->total = m->first = m->count = 0;
    for (size_t s = 0; s < m->sgs.n && !fb->rc; s++) {
        struct arena_fb_table t;
        struct arena_fb_vec tensors;
        arena_fb_context(fb, "subgraph %zu", s);
        arena_fb_vec_table(fb, &m->sgs, s, "SubGraph", &t);
        arena_fb_vector(fb, &t, 0, "tensors", 4, &tensors);
        if (s == plan->subgraph) {
            m->first = m->total;
            m->count = tensors.n;
        }
        m->total += tensors.n; /* each 4 bytes of the file: no overflow */
    }
    /* buffers kept after the FlatBuffer (offset > 1) would move with it */
    for (size_t i = 0; i < m->bufs.n && !fb->rc; i++) {
        struct arena_fb_table b;
        uint64_t off = 0;
        arena_fb_context(fb, "Model, buffer %zu", i);
        arena_fb_vec_table(fb, &m->bufs, i, "Buffer", &b);
        arena_fb_u64(fb, &b, 1, "offset", 0, &off);
        if (!fb->rc && off > 1)
            arena_fb_fail(fb, ARENA_EFORMAT, "offset",
                          "data stored outside the FlatBuffer (byte %llu of the file): not "
                          "supported", (unsigned long long)off);
    }
    m->kept = 0;
    for (size_t i = 0; i < m->metas.n && !fb->rc; i++)
        m->kept += !is_plan_entry(fb, &m->metas, i);
    return fb->rc;
}

/* The front part's layout (export_tflite.h): where each piece starts. */
struct front {
    size_t nb, nm, name_len; /* buffers, metadata entries, the entry's name */
    size_t vt_model, model_at, bufvec, metavec, md_vt, md, str, buf_vt, buf, vec, values, size;
};

static void lay_out(const struct model *m, struct front *f)
{
    f->nb = m->bufs.n + 1;
    f->nm = m->kept + 1;
    f->name_len = strlen(ARENA_TFLM_OFFLINE_PLAN);
    f->vt_model = 8;
    f->model_at = 28;
    f->bufvec = 64;
    f->metavec = f->bufvec + 4 + 4 * f->nb;
    f->md_vt = f->metavec + 4 + 4 * f->nm;
    f->md = f->md_vt + 8;
    f->str = f->md + 12;
    f->buf_vt = up(f->str + 4 + f->name_len + 1, 4);
    f->buf = f->buf_vt + 8;
    f->vec = up(f->buf + 8 + 4, 16) - 4; /* the int32 values start 16-aligned */
    f->values = 3 + m->total;
    f->size = up(f->vec + 4 + 4 * f->values, 16);
}

/* Writes the front part into b (zeroed, f->size bytes, the model copied
 * after it): the new Model table, its buffers and metadata vectors, the
 * plan's Metadata and Buffer, and the plan's values (plan_at: each tensor
 * of the planned subgraph's offset, -1 when not planned). */
static void write_front(struct arena_fb *fb, const unsigned char *data, const struct model *m,
                        const struct front *f, const int32_t *plan_at, unsigned char *b)
{
    const size_t front = f->size;
    put32(b, 0, (uint32_t)f->model_at);
    memcpy(b + 4, "TFL3", 4);
    /* Model: vtable, then the table, every field in slot 4 + 4 id */
    put16(b, f->vt_model, 4 + 2 * MODEL_FIELDS);
    put16(b, f->vt_model + 2, 4 + 4 * MODEL_FIELDS);
    put32(b, f->model_at, (uint32_t)(f->model_at - f->vt_model));
    for (unsigned id = 0; id < MODEL_FIELDS; id++) {
        size_t slot = f->model_at + 4 + 4 * (size_t)id;
        uint32_t v;
        if (id == F_BUFFERS)
            v = (uint32_t)(f->bufvec - slot);
        else if (id == F_METADATA)
            v = (uint32_t)(f->metavec - slot);
        else if (!m->pos[id])
            continue;
        else if (id == F_VERSION)
            v = get32(data + m->pos[id]);
        else
            v = (uint32_t)(front + m->aim[id] - slot);
        put16(b, f->vt_model + 4 + 2 * (size_t)id, 4 + 4 * id);
        put32(b, slot, v);
    }
    /* buffers: the old ones re-aimed, then the plan's */
    put32(b, f->bufvec, (uint32_t)f->nb);
    for (size_t i = 0; i < m->bufs.n; i++) {
        size_t e = f->bufvec + 4 + 4 * i, old = m->bufs.pos + 4 * i;
        put32(b, e, (uint32_t)(front + old + get32(data + old) - e));
    }
    put32(b, f->bufvec + 4 + 4 * m->bufs.n, (uint32_t)(f->buf - (f->bufvec + 4 + 4 * m->bufs.n)));
    /* metadata: the old entries but an old plan, then the new one */
    put32(b, f->metavec, (uint32_t)f->nm);
    size_t e = f->metavec + 4;
    for (size_t i = 0; i < m->metas.n; i++) {
        if (is_plan_entry(fb, &m->metas, i))
            continue;
        size_t old = m->metas.pos + 4 * i;
        put32(b, e, (uint32_t)(front + old + get32(data + old) - e));
        e += 4;
    }
    put32(b, e, (uint32_t)(f->md - e));
    /* Metadata {name, buffer} */
    put16(b, f->md_vt, 8);
    put16(b, f->md_vt + 2, 12);
    put16(b, f->md_vt + 4, 4);
    put16(b, f->md_vt + 6, 8);
    put32(b, f->md, (uint32_t)(f->md - f->md_vt));
    put32(b, f->md + 4, (uint32_t)(f->str - (f->md + 4)));
    put32(b, f->md + 8, (uint32_t)m->bufs.n);
    put32(b, f->str, (uint32_t)f->name_len);
    memcpy(b + f->str + 4, ARENA_TFLM_OFFLINE_PLAN, f->name_len); /* NUL: calloc */
    /* Buffer {data} */
    put16(b, f->buf_vt, 6);
    put16(b, f->buf_vt + 2, 8);
    put16(b, f->buf_vt + 4, 4);
    put32(b, f->buf, (uint32_t)(f->buf - f->buf_vt));
    put32(b, f->buf + 4, (uint32_t)(f->vec - (f->buf + 4)));
    put32(b, f->vec, (uint32_t)(4 * f->values));
    size_t v = f->vec + 4;
    put32(b, v, 0);
    put32(b, v + 4, (uint32_t)m->sgs.n);
    put32(b, v + 8, (uint32_t)m->total);
    for (size_t t = 0; t < m->total; t++) {
        int32_t o = t >= m->first && t - m->first < m->count ? plan_at[t - m->first] : -1;
        put32(b, v + 12 + 4 * t, (uint32_t)o);
    }
}

int arena_tflite_with_plan(const unsigned char *data, size_t size, const char *name,
                           const struct arena_tflite_plan *plan, unsigned char **out,
                           size_t *out_size, char *err, size_t errlen)
{
    *out = NULL;
    *out_size = 0;
    struct arena_fb fb;
    arena_fb_init(&fb, data, size, name, err, errlen);
    if (!arena_tflite_is_model(data, size))
        return arena_fb_fail(&fb, ARENA_EFORMAT, "header",
                             "not a TensorFlow Lite model: bytes 4-7 are not \"TFL3\"");
    struct model m;
    if (read_model(&fb, plan, &m))
        return fb.rc;
    arena_fb_context(&fb, "plan");
    for (size_t k = 0; k < plan->n; k++) {
        if (plan->index[k] >= m.count)
            return arena_fb_fail(&fb, ARENA_EINVAL, "index", "tensor %lu, past the %zu tensors "
                                 "of subgraph %lu", (unsigned long)plan->index[k], m.count,
                                 (unsigned long)plan->subgraph);
        if (plan->offsets[k] > INT32_MAX)
            return arena_fb_fail(&fb, ARENA_EOVERFLOW, "offset", "tensor %lu at byte %llu, past "
                                 "2^31 - 1", (unsigned long)plan->index[k],
                                 (unsigned long long)plan->offsets[k]);
    }
    struct front f;
    lay_out(&m, &f);
    if (size > (size_t)INT32_MAX || f.size > (size_t)INT32_MAX - size)
        return arena_fb_fail(&fb, ARENA_EOVERFLOW, "file", "the copy would pass 2 GiB, the "
                             "FlatBuffers limit");
    unsigned char *b = calloc(f.size + size, 1);
    int32_t *plan_at = malloc((m.count ? m.count : 1) * sizeof *plan_at);
    if (!b || !plan_at) {
        free(b);
        free(plan_at);
        return arena_fb_fail(&fb, ARENA_ENOMEM, "file", "out of memory");
    }
    for (size_t t = 0; t < m.count; t++)
        plan_at[t] = -1;
    for (size_t k = 0; k < plan->n; k++) {
        if (plan_at[plan->index[k]] != -1) {
            free(b);
            free(plan_at);
            return arena_fb_fail(&fb, ARENA_EINVAL, "index", "tensor %lu planned twice",
                                 (unsigned long)plan->index[k]);
        }
        plan_at[plan->index[k]] = (int32_t)plan->offsets[k];
    }
    memcpy(b + f.size, data, size);
    write_front(&fb, data, &m, &f, plan_at, b);
    free(plan_at);
    *out = b;
    *out_size = f.size + size;
    return ARENA_OK;
}
