/* flatbuf.c — the bounds-checked FlatBuffers reader (see flatbuf.h for the
 * wire format, after flatbuffers.dev "internals"). Every position is a size_t
 * inside [0, size); sums are compared by subtraction so none can wrap. */
#include "graphs/flatbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "planners/status.h"

static uint64_t get_le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

void arena_fb_init(struct arena_fb *fb, const void *data, size_t size, const char *name,
                   char *err, size_t errlen)
{
    memset(fb, 0, sizeof *fb);
    fb->data = data;
    fb->size = size;
    fb->name = name;
    fb->err = err;
    fb->errlen = errlen;
    if (err && errlen)
        err[0] = '\0';
}

void arena_fb_context(struct arena_fb *fb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fb->ctx, sizeof fb->ctx, fmt, ap);
    va_end(ap);
}

int arena_fb_fail(struct arena_fb *fb, int rc, const char *field, const char *fmt, ...)
{
    if (fb->rc)
        return fb->rc;
    fb->rc = rc;
    if (!fb->err || !fb->errlen)
        return rc;
    int k = snprintf(fb->err, fb->errlen, "%s: %s%s%s: ", fb->name, fb->ctx,
                     fb->ctx[0] ? ": " : "", field);
    if (k < 0)
        return rc;
    va_list ap;
    va_start(ap, fmt);
    arena_verrorf(fb->err, fb->errlen, (size_t)k, rc, fmt, ap);
    va_end(ap);
    return rc;
}

/* 1 when [pos, pos + len) lies inside the buffer. */
static int inside(const struct arena_fb *fb, size_t pos, size_t len)
{
    return pos <= fb->size && len <= fb->size - pos;
}

static int table_at(struct arena_fb *fb, size_t pos, const char *field, struct arena_fb_table *t)
{
    memset(t, 0, sizeof *t);
    if (fb->rc)
        return fb->rc;
    if (!inside(fb, pos, 4))
        return arena_fb_fail(fb, ARENA_EFORMAT, field,
                             "offset out of range: table at byte %zu, file is %zu bytes", pos,
                             fb->size);
    int64_t soff = (int32_t)(uint32_t)get_le(fb->data + pos, 4);
    int64_t vt = (int64_t)pos - soff;
    if (vt < 0 || (uint64_t)vt > fb->size || !inside(fb, (size_t)vt, 4))
        return arena_fb_fail(fb, ARENA_EFORMAT, field,
                             "vtable outside the file: table at byte %zu names its vtable at "
                             "byte %lld, file is %zu bytes",
                             pos, (long long)vt, fb->size);
    size_t vt_len = (size_t)get_le(fb->data + vt, 2);
    size_t obj_len = (size_t)get_le(fb->data + vt + 2, 2);
    if (vt_len < 4 || vt_len % 2 || !inside(fb, (size_t)vt, vt_len))
        return arena_fb_fail(fb, ARENA_EFORMAT, field,
                             "vtable outside the file: vtable at byte %lld claims %zu bytes, "
                             "file is %zu bytes",
                             (long long)vt, vt_len, fb->size);
    if (obj_len < 4 || !inside(fb, pos, obj_len))
        return arena_fb_fail(fb, ARENA_EFORMAT, field,
                             "truncated: table at byte %zu claims %zu bytes, file is %zu bytes",
                             pos, obj_len, fb->size);
    t->pos = pos;
    t->vtable = (size_t)vt;
    t->vt_fields = (vt_len - 4) / 2;
    t->obj_len = obj_len;
    return ARENA_OK;
}

int arena_fb_root(struct arena_fb *fb, struct arena_fb_table *t)
{
    memset(t, 0, sizeof *t);
    if (fb->rc)
        return fb->rc;
    if (fb->size < 8)
        return arena_fb_fail(fb, ARENA_EFORMAT, "header",
                             "truncated: %zu bytes, a model has at least 8", fb->size);
    return table_at(fb, (size_t)get_le(fb->data, 4), "root", t);
}

/* The field's position in the buffer, 0 when absent (a field never sits at
 * byte 0: the root offset does). Checks that width bytes fit the table. */
static size_t field_pos(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                        const char *field, size_t width)
{
    if (fb->rc || id >= t->vt_fields)
        return 0;
    size_t off = (size_t)get_le(fb->data + t->vtable + 4 + 2 * (size_t)id, 2);
    if (off == 0)
        return 0;
    if (off < 4 || off > t->obj_len || width > t->obj_len - off) {
        arena_fb_fail(fb, ARENA_EFORMAT, field,
                      "offset out of range: field at byte %zu of a %zu-byte table", off,
                      t->obj_len);
        return 0;
    }
    return t->pos + off; /* inside the buffer: table_at checked pos + obj_len */
}

static int scalar(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                  const char *field, int width, uint64_t def, uint64_t *out)
{
    size_t p = field_pos(fb, t, id, field, (size_t)width);
    *out = p ? get_le(fb->data + p, width) : def;
    return fb->rc;
}

int arena_fb_u8(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                const char *field, uint8_t def, uint8_t *out)
{
    uint64_t v;
    int rc = scalar(fb, t, id, field, 1, def, &v);
    *out = (uint8_t)v;
    return rc;
}

int arena_fb_i8(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                const char *field, int8_t def, int8_t *out)
{
    uint64_t v;
    int rc = scalar(fb, t, id, field, 1, (uint8_t)def, &v);
    *out = (int8_t)(v > 127 ? (int)v - 256 : (int)v);
    return rc;
}

int arena_fb_u32(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                 const char *field, uint32_t def, uint32_t *out)
{
    uint64_t v;
    int rc = scalar(fb, t, id, field, 4, def, &v);
    *out = (uint32_t)v;
    return rc;
}

int arena_fb_i32(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                 const char *field, int32_t def, int32_t *out)
{
    uint64_t v;
    int rc = scalar(fb, t, id, field, 4, (uint32_t)def, &v);
    *out = v > INT32_MAX ? (int32_t)((int64_t)v - ((int64_t)1 << 32)) : (int32_t)v;
    return rc;
}

int arena_fb_u64(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                 const char *field, uint64_t def, uint64_t *out)
{
    return scalar(fb, t, id, field, 8, def, out);
}

/* Follows the offset field id; 0 with *target when present. */
static int follow(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                  const char *field, size_t *target, int *present)
{
    *present = 0;
    size_t p = field_pos(fb, t, id, field, 4);
    if (!p)
        return fb->rc;
    uint64_t off = get_le(fb->data + p, 4);
    if (off == 0 || off >= fb->size - p)
        return arena_fb_fail(fb, ARENA_EFORMAT, field,
                             "offset out of range: byte %zu + %llu, file is %zu bytes", p,
                             (unsigned long long)off, fb->size);
    *target = p + (size_t)off;
    *present = 1;
    return ARENA_OK;
}

int arena_fb_table_at(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                      const char *field, struct arena_fb_table *out, int *present)
{
    size_t target = 0;
    memset(out, 0, sizeof *out);
    if (follow(fb, t, id, field, &target, present) || !*present)
        return fb->rc;
    return table_at(fb, target, field, out);
}

static int vector_at(struct arena_fb *fb, size_t pos, const char *field, size_t elem,
                     struct arena_fb_vec *out)
{
    if (!inside(fb, pos, 4))
        return arena_fb_fail(fb, ARENA_EFORMAT, field,
                             "offset out of range: vector at byte %zu, file is %zu bytes", pos,
                             fb->size);
    uint64_t n = get_le(fb->data + pos, 4);
    size_t room = fb->size - pos - 4;
    if (n > room / elem)
        return arena_fb_fail(fb, ARENA_EFORMAT, field,
                             "truncated: vector at byte %zu claims %llu elements of %zu bytes, "
                             "%zu bytes are left",
                             pos, (unsigned long long)n, elem, room);
    out->pos = pos + 4;
    out->n = (size_t)n;
    return ARENA_OK;
}

int arena_fb_vector(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                    const char *field, size_t elem, struct arena_fb_vec *out)
{
    size_t target = 0;
    int present;
    memset(out, 0, sizeof *out);
    if (follow(fb, t, id, field, &target, &present) || !present)
        return fb->rc;
    return vector_at(fb, target, field, elem, out);
}

int arena_fb_vec_table(struct arena_fb *fb, const struct arena_fb_vec *v, size_t i,
                       const char *field, struct arena_fb_table *out)
{
    memset(out, 0, sizeof *out);
    if (fb->rc)
        return fb->rc;
    size_t p = v->pos + 4 * i; /* inside: vector_at checked n * 4 bytes */
    uint64_t off = get_le(fb->data + p, 4);
    if (off == 0 || off >= fb->size - p)
        return arena_fb_fail(fb, ARENA_EFORMAT, field,
                             "offset out of range: element %zu at byte %zu + %llu, file is %zu "
                             "bytes",
                             i, p, (unsigned long long)off, fb->size);
    return table_at(fb, p + (size_t)off, field, out);
}

int32_t arena_fb_vec_i32(const struct arena_fb *fb, const struct arena_fb_vec *v, size_t i)
{
    uint64_t u = get_le(fb->data + v->pos + 4 * i, 4);
    return u > INT32_MAX ? (int32_t)((int64_t)u - ((int64_t)1 << 32)) : (int32_t)u;
}
