/* flatbuf.h — a bounds-checked reader of FlatBuffers binaries, enough for the
 * TensorFlow Lite model format (tflite.c). Nothing is trusted: every table,
 * vtable, offset, vector and string is checked against the buffer before a
 * byte of it is read, and the first failure is latched with one message,
 * "NAME: CONTEXT: FIELD: what is wrong", so a caller may read on and check
 * once. Reads are byte-wise little-endian: no alignment is assumed.
 *
 * The wire format (flatbuffers.dev, "FlatBuffers internals"): a buffer
 * starts with a uoffset_t (u32) to the root table; a table starts with a
 * soffset_t (i32) s, its vtable sits at table - s; a vtable is u16 vtable
 * bytes, u16 table bytes, then one u16 per field id (slot 4 + 2 id) giving
 * the field's offset in the table, 0 = absent (the default applies). An
 * offset field holds a u32 added to its own position; a vector is a u32
 * count followed by its elements; a string is a byte vector. */
#ifndef ARENA_FLATBUF_H
#define ARENA_FLATBUF_H

#include <stddef.h>
#include <stdint.h>

struct arena_fb {
    const unsigned char *data;
    size_t size;
    const char *name;   /* the file, for messages */
    char *err;          /* NULL: messages go nowhere */
    size_t errlen;
    int rc;             /* first failure (latched), 0 while all is well */
    char ctx[96];       /* where the caller is reading, e.g. "subgraph 0, tensor 7" */
};

/* A checked table: its position, vtable and the vtable's field count. */
struct arena_fb_table {
    size_t pos, vtable;
    size_t vt_fields;   /* field ids below this are described by the vtable */
    size_t obj_len;     /* table bytes the vtable claims */
};

struct arena_fb_vec {
    size_t pos; /* first element */
    size_t n;
};

void arena_fb_init(struct arena_fb *fb, const void *data, size_t size, const char *name,
                   char *err, size_t errlen);

/* Formats the context that later messages show (printf style). */
void arena_fb_context(struct arena_fb *fb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Latches rc with "NAME: CONTEXT: FIELD: text" (the first failure wins);
 * returns fb->rc. */
int arena_fb_fail(struct arena_fb *fb, int rc, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The root table (checked). */
int arena_fb_root(struct arena_fb *fb, struct arena_fb_table *t);

/* Scalars of field id; def when the field is absent. The field must lie
 * inside the table's claimed bytes and the buffer. */
int arena_fb_u8(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                const char *field, uint8_t def, uint8_t *out);
int arena_fb_i8(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                const char *field, int8_t def, int8_t *out);
int arena_fb_u32(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                 const char *field, uint32_t def, uint32_t *out);
int arena_fb_i32(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                 const char *field, int32_t def, int32_t *out);
int arena_fb_u64(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                 const char *field, uint64_t def, uint64_t *out);

/* A sub-table; *present = 0 (and no error) when the field is absent. */
int arena_fb_table_at(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                      const char *field, struct arena_fb_table *out, int *present);

/* A vector of elem-byte elements; an absent field is the empty vector. */
int arena_fb_vector(struct arena_fb *fb, const struct arena_fb_table *t, unsigned id,
                    const char *field, size_t elem, struct arena_fb_vec *out);

/* Element i (< v->n) of a vector of tables, of i32. */
int arena_fb_vec_table(struct arena_fb *fb, const struct arena_fb_vec *v, size_t i,
                       const char *field, struct arena_fb_table *out);
int32_t arena_fb_vec_i32(const struct arena_fb *fb, const struct arena_fb_vec *v, size_t i);

#endif
