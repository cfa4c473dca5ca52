/* test_tflite.c — the .tflite reader on tiny models the tests write
 * themselves (tflite_writer.h): constants, folded ops (also through a chain
 * of them), variable tensors, optional -1 inputs, dynamic dims, names,
 * op kinds, subgraph selection through the front door, and every kind of
 * broken file (truncated at every length, offsets out of range, vtables
 * outside the file, bad indices, unknown types) with its one-line message. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "graphs/source.h"
#include "graphs/tflite.h"
#include "tests/tflite_writer.h"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/arena-tflite-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

TestSuite(tflite, .init = make_dir, .fini = remove_dir);

enum { DEQUANTIZE = 6, FULLY_CONNECTED = 9, RESHAPE = 22, QUANTIZE = 114 };

/* The base model:
 *   tensors 0 in    fp32 [1,4] graph input
 *           1 w16   fp16 [4]   buffer 1 (8 bytes of data: a constant)
 *           2 w     fp32 [4]   DEQUANTIZE(w16): folded
 *           3 shp   int32 [1]  buffer 2 (4 bytes: a constant)
 *           4 wr    fp32 [1,4] RESHAPE(w, shp): folded too (inputs constant
 *                              once w is folded)
 *           5 h     fp32 [1,4] FULLY_CONNECTED(in, wr, -1): bias absent
 *           6 out   int8 [1,4] QUANTIZE(h), graph output
 *           7 spare fp32 [2]   touched by nothing
 *   ops 0 DEQUANTIZE, 1 RESHAPE, 2 FULLY_CONNECTED, 3 QUANTIZE.
 * Planned: in, h, out. With alignment 1, steps = stored op indices:
 *   in  16 B, [0, 2]  (input from step 0, read by op 2)
 *   h   16 B, [2, 3]
 *   out  4 B, [3, 3]  (written by op 3, output to the last step 3)
 * naive 36 B; live bytes per step 16, 16, 32, 20: lower bound 32 B. */
static void base(struct tfl_model *m)
{
    memset(m, 0, sizeof *m);
    m->n_codes = 4;
    m->codes[0].builtin = DEQUANTIZE;
    m->codes[1].builtin = RESHAPE;
    m->codes[2].builtin = FULLY_CONNECTED;
    m->codes[3].builtin = QUANTIZE;
    m->n_buffers = 3;
    m->buffer_bytes[1] = 8;
    m->buffer_bytes[2] = 4;
    m->n_subgraphs = 1;
    struct tfl_subgraph *s = &m->sub[0];
    tfl_add_tensor(s, "in", 0, 0, 2, 1, 4);
    tfl_add_tensor(s, "w16", 1, 1, 1, 4, 0);
    tfl_add_tensor(s, "w", 0, 0, 1, 4, 0);
    tfl_add_tensor(s, "shp", 2, 2, 1, 1, 0);
    tfl_add_tensor(s, "wr", 0, 0, 2, 1, 4);
    tfl_add_tensor(s, "h", 0, 0, 2, 1, 4);
    tfl_add_tensor(s, "out", 9, 0, 2, 1, 4);
    tfl_add_tensor(s, "spare", 0, 0, 1, 2, 0);
    tfl_add_op(s, 0, 1, (int32_t[]){1}, 2);
    tfl_add_op(s, 1, 2, (int32_t[]){2, 3}, 4);
    tfl_add_op(s, 2, 3, (int32_t[]){0, 4, -1}, 5);
    tfl_add_op(s, 3, 1, (int32_t[]){5}, 6);
    s->n_in = 1;
    s->in[0] = 0;
    s->n_out = 1;
    s->out[0] = 6;
}

static unsigned char file[16384];

static size_t write_model(const struct tfl_model *m, struct tfl_where *w)
{
    size_t n = tfl_write(m, file, sizeof file, w);
    cr_assert_gt(n, 8u, "the test writer ran out of room");
    return n;
}

static int read_model(size_t n, uint32_t sub, struct arena_graph *g, struct arena_tflite_info *info,
                      char *err, size_t errlen)
{
    return arena_tflite_read(file, n, "m.tflite", sub, g, info, err, errlen);
}

static const char *save(const char *name, size_t n)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(file, 1, n, f), n);
    cr_assert_eq(fclose(f), 0);
    return path;
}

Test(tflite, plans_what_the_interpreter_plans)
{
    struct tfl_model m;
    base(&m);
    size_t n = write_model(&m, NULL);
    struct arena_graph g;
    struct arena_tflite_info info;
    char err[512] = "";
    cr_assert_eq(read_model(n, 0, &g, &info, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(info.subgraphs, 1);
    cr_expect_eq(info.tensors, 8);
    cr_expect_eq(info.constants, 2);
    cr_expect_eq(info.ops, 4);
    cr_expect_eq(info.folded, 2);
    cr_expect_eq(info.planned, 3);
    cr_expect_eq(info.unused, 1);
    cr_expect_eq(info.variables, 0);
    cr_expect_eq(info.dynamic, 0);
    cr_assert_eq(g.n_tensors, 3);
    cr_expect_str_eq(g.tensors[0].name, "in");
    cr_expect_str_eq(g.tensors[1].name, "h");
    cr_expect_str_eq(g.tensors[2].name, "out");
    cr_expect_eq(g.tensors[2].dtype, ARENA_DTYPE_INT8);
    cr_expect(g.tensors[0].is_input && g.tensors[2].is_output);
    cr_assert_eq(g.n_ops, 4);
    const char *kinds[] = {"DEQUANTIZE", "RESHAPE", "FULLY_CONNECTED", "QUANTIZE"};
    for (size_t k = 0; k < 4; k++)
        cr_expect_str_eq(g.ops[k].kind, kinds[k]);
    cr_expect_eq(g.ops[0].n_in + g.ops[0].n_out + g.ops[1].n_in + g.ops[1].n_out, 0,
                 "folded ops keep their step but no tensors");
    cr_expect_eq(g.ops[2].n_in, 1, "the constant and the absent -1 input are not refs");
    struct arena_problem p = {0};
    cr_assert_eq(arena_graph_problem(&g, 1, &p, NULL, err, sizeof err), ARENA_OK, "%s", err);
    const struct arena_tensor want[3] = {{16, 0, 2}, {16, 2, 3}, {4, 3, 3}};
    for (size_t i = 0; i < 3; i++) {
        cr_expect_eq(p.tensors[i].size, want[i].size, "tensor %zu", i);
        cr_expect_eq(p.tensors[i].first, want[i].first, "tensor %zu", i);
        cr_expect_eq(p.tensors[i].last, want[i].last, "tensor %zu", i);
    }
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
    cr_expect_eq(b.naive_bytes, 36);
    cr_expect_eq(b.lower_bound, 32);
    free((void *)p.tensors);
    arena_graph_free(&g);
}

Test(tflite, variable_tensors_are_counted_apart)
{
    struct tfl_model m;
    base(&m);
    struct tfl_subgraph *s = &m.sub[0];
    tfl_add_tensor(s, "state", 0, 0, 2, 1, 8); /* tensor 8: 32 bytes */
    s->tensors[8].variable = 1;
    s->ops[2].in[s->ops[2].n_in++] = 8;
    size_t n = write_model(&m, NULL);
    struct arena_graph g;
    struct arena_tflite_info info;
    char err[512] = "";
    cr_assert_eq(read_model(n, 0, &g, &info, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(info.variables, 1);
    cr_expect_eq(info.variable_bytes, 32);
    cr_expect_eq(info.planned, 3);
    uint32_t id;
    cr_expect_eq(arena_graph_tensor_find(&g, "state", &id), ARENA_ENOTFOUND);
    arena_graph_free(&g);

    struct arena_source src;
    const char *path = save("var.tflite", n);
    cr_assert_eq(arena_source_load(path, 1, 1, &src, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_str_eq(src.family, "tflite");
    cr_expect_eq(src.problem.n, 3);
    cr_assert_not_null(src.warning);
    cr_expect_not_null(strstr(src.warning, "1 variable tensors (32 bytes)"), "%s", src.warning);
    cr_expect_null(strchr(src.warning, '\n'));
    cr_expect_eq(src.persistent_bytes, 32, "the variable's bytes, for the head of the arena");
    cr_assert_not_null(src.names);
    cr_expect_str_eq(src.names[0], "in");
    cr_expect_str_eq(src.names[1], "h");
    cr_expect_str_eq(src.names[2], "out");
    arena_source_free(&src);
}

Test(tflite, dynamic_dims_are_planned_at_the_stored_shape_and_said)
{
    struct tfl_model m;
    base(&m);
    struct tfl_tensor *t = &m.sub[0].tensors[0];
    t->sig_rank = 2;
    t->sig[0] = -1;
    t->sig[1] = 4;
    size_t n = write_model(&m, NULL);
    struct arena_source src;
    char err[512] = "";
    const char *path = save("dyn.tflite", n);
    cr_assert_eq(arena_source_load(path, 1, 1, &src, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(src.problem.tensors[0].size, 16, "shape [1,4] fp32");
    cr_assert_not_null(src.warning);
    cr_expect_not_null(strstr(src.warning, "1 tensors have dynamic dims"), "%s", src.warning);
    cr_expect_eq(strncmp(src.warning, path, strlen(path)), 0, "names the file");
    arena_source_free(&src);

    base(&m); /* a signature without -1 is not dynamic: no warning */
    m.sub[0].tensors[0].sig_rank = 2;
    m.sub[0].tensors[0].sig[0] = 1;
    m.sub[0].tensors[0].sig[1] = 4;
    n = write_model(&m, NULL);
    path = save("static.tflite", n);
    cr_assert_eq(arena_source_load(path, 1, 1, &src, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_null(src.warning);
    arena_source_free(&src);
}

Test(tflite, names_are_made_unique_and_kinds_named)
{
    struct tfl_model m;
    base(&m);
    struct tfl_subgraph *s = &m.sub[0];
    s->tensors[5].name = "in";  /* h: a repeated name */
    s->tensors[6].name = NULL;  /* out: no name */
    m.codes[0].builtin = 150;   /* GELU, past the deprecated byte */
    m.codes[1].builtin = 32;    /* CUSTOM */
    m.codes[1].custom = "MyOp\n";
    m.codes[3].builtin = 999;   /* a code past the names known here */
    size_t n = write_model(&m, NULL);
    struct arena_graph g;
    struct arena_tflite_info info;
    char err[512] = "";
    cr_assert_eq(read_model(n, 0, &g, &info, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_str_eq(g.tensors[0].name, "in");
    cr_expect_str_eq(g.tensors[1].name, "in#5");
    cr_expect_str_eq(g.tensors[2].name, "tensor6");
    cr_expect_str_eq(g.ops[0].kind, "GELU");
    cr_expect_str_eq(g.ops[1].kind, "CUSTOM:MyOp?", "control bytes shown as '?'");
    cr_expect_str_eq(g.ops[3].kind, "999");
    cr_expect_str_eq(g.ops[3].name, "op3");
    arena_graph_free(&g);
}

/* round2 #14: a variable tensor whose size does not fit 2^62 bytes is
 * refused, as a planned one would be, never counted at a saturated figure;
 * exactly 2^62 bytes is kept at its true size, and so are variables adding
 * up to it, but not past it. */
static int read_with_variables(size_t count, const int32_t *shape, uint32_t rank,
                               struct arena_tflite_info *info, char *err, size_t errlen)
{
    struct tfl_model m;
    base(&m);
    struct tfl_subgraph *s = &m.sub[0];
    for (size_t k = 0; k < count; k++) {
        tfl_add_tensor(s, k ? "state2" : "state", 9, 0, 0, 0, 0);
        struct tfl_tensor *t = &s->tensors[s->n_tensors - 1];
        t->variable = 1;
        t->rank = rank;
        memcpy(t->shape, shape, rank * sizeof *shape);
        s->ops[2].in[s->ops[2].n_in++] = (int32_t)(s->n_tensors - 1);
    }
    size_t n = write_model(&m, NULL);
    struct arena_graph g;
    int rc = read_model(n, 0, &g, info, err, errlen);
    if (rc == ARENA_OK)
        arena_graph_free(&g);
    return rc;
}

Test(tflite, variable_sizes_past_2_62_are_refused_not_saturated)
{
    struct arena_tflite_info info;
    char err[512] = "";
    const int32_t huge[6] = {2147483647, 2147483647, 2147483647, 2147483647, 2147483647, 4};
    cr_expect_eq(read_with_variables(1, huge, 6, &info, err, sizeof err), ARENA_EOVERFLOW,
                 "%s", err);
    cr_expect_not_null(strstr(err, "tensor 8: shape: variable tensor: size overflows (more than"
                                   " 2^62 bytes)"), "%s", err);
    cr_expect_null(strchr(err, '\n'));
    const int32_t exact[4] = {65536, 65536, 65536, 16384}; /* int8: 2^62 bytes */
    cr_assert_eq(read_with_variables(1, exact, 4, &info, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(info.variable_bytes, (uint64_t)1 << 62);
    const int32_t half[4] = {65536, 65536, 65536, 8192};
    cr_assert_eq(read_with_variables(2, half, 4, &info, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(info.variables, 2);
    cr_expect_eq(info.variable_bytes, (uint64_t)1 << 62);
    cr_expect_eq(read_with_variables(2, exact, 4, &info, err, sizeof err), ARENA_EOVERFLOW,
                 "%s", err);
    cr_expect_not_null(strstr(err, "variable tensors: their sizes add up to more than 2^62"),
                       "%s", err);
}

/* round2 #16: a zero dim makes a tensor zero bytes wherever it stands, even
 * after dims whose product alone overflows: refused as zero bytes, not as an
 * overflow; for a variable, 0 bytes. */
Test(tflite, a_zero_dim_after_huge_dims_is_zero_bytes)
{
    struct tfl_model m;
    base(&m);
    struct tfl_tensor *h = &m.sub[0].tensors[5];
    h->rank = 4;
    const int32_t dims[4] = {2147483647, 2147483647, 2147483647, 0};
    memcpy(h->shape, dims, sizeof dims);
    const char *path = save("zero-late.tflite", write_model(&m, NULL));
    struct arena_source src;
    char err[512] = "", want[400];
    cr_expect_eq(arena_source_load(path, 16, 1, &src, err, sizeof err), ARENA_EINVAL, "%s", err);
    snprintf(want, sizeof want, "%s: subgraph 0: tensor 'h': size is zero bytes", path);
    cr_expect_str_eq(err, want);
    struct arena_tflite_info info;
    cr_expect_eq(read_with_variables(1, dims, 4, &info, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(info.variables, 1);
    cr_expect_eq(info.variable_bytes, 0);
    uint64_t bytes = 1;
    const uint64_t d64[4] = {(uint64_t)1 << 40, (uint64_t)1 << 40, 7, 0};
    cr_expect_eq(arena_shape_bytes(4, 4, d64, &bytes), ARENA_OK);
    cr_expect_eq(bytes, 0);
    cr_expect_eq(arena_shape_bytes(4, 3, d64, &bytes), ARENA_EOVERFLOW);
}

Test(tflite, subgraph_chosen_with_hash_n)
{
    struct tfl_model m;
    base(&m);
    /* subgraph 1: x (input) -> QUANTIZE -> y (output), one op */
    struct tfl_subgraph *s = &m.sub[1];
    tfl_add_tensor(s, "x", 0, 0, 1, 8, 0);
    tfl_add_tensor(s, "y", 9, 0, 1, 8, 0);
    tfl_add_op(s, 3, 1, (int32_t[]){0}, 1);
    s->n_in = s->n_out = 1;
    s->in[0] = 0;
    s->out[0] = 1;
    m.n_subgraphs = 2;
    size_t n = write_model(&m, NULL);
    const char *path = save("two.tflite", n);
    char text[300], err[512] = "";
    struct arena_source src;
    snprintf(text, sizeof text, "%s#1", path);
    cr_assert_eq(arena_source_load(text, 1, 1, &src, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(src.ops, 1);
    cr_expect_eq(src.problem.n, 2);
    cr_expect_str_eq(src.spec, text);
    arena_source_free(&src);
    snprintf(text, sizeof text, "%s#0", path);
    cr_assert_eq(arena_source_load(text, 1, 1, &src, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(src.ops, 4);
    arena_source_free(&src);
    snprintf(text, sizeof text, "%s#2", path);
    cr_expect_eq(arena_source_load(text, 1, 1, &src, err, sizeof err), ARENA_EFORMAT);
    char want[400];
    snprintf(want, sizeof want, "%s: Model: subgraphs: no subgraph 2: the model has 2", path);
    cr_expect_str_eq(err, want);
}

/* round2 #15: what follows '#' after an existing model is a subgraph index
 * or a clear error about it (never "unknown family"), and each subgraph has
 * one spelling: "#01" is "#1", "#0" and "#00" the plain path. */
Test(tflite, subgraph_index_errors_and_one_spelling)
{
    struct tfl_model m;
    base(&m);
    const char *path = save("one.tflite", write_model(&m, NULL));
    char text[300], err[512] = "", want[400];
    struct arena_source src;
    static const char *const bad[] = {"4294967296", "-1", "x", "1x", "99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "%s#%s", path, bad[i]);
        cr_expect_eq(arena_source_load(text, 16, 1, &src, err, sizeof err), ARENA_EINVAL, "%s",
                     err);
        snprintf(want, sizeof want,
                 "%s: subgraph index '%s' after '#' is not a whole number from 0 to 4294967295",
                 path, bad[i]);
        cr_expect_str_eq(err, want);
    }
    snprintf(text, sizeof text, "%s#4294967295", path); /* a number: not in this model */
    cr_expect_eq(arena_source_load(text, 16, 1, &src, err, sizeof err), ARENA_EFORMAT);
    cr_expect_not_null(strstr(err, "no subgraph 4294967295: the model has 1"), "%s", err);
    static const char *const zero[] = {"", "#0", "#00"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(text, sizeof text, "%s%s", path, zero[i]);
        cr_assert_eq(arena_source_load(text, 16, 1, &src, err, sizeof err), ARENA_OK, "%s", err);
        cr_expect_str_eq(src.spec, path, "'%s'", text);
        arena_source_free(&src);
    }
    /* A second subgraph, spelt with a leading zero. */
    struct tfl_subgraph *s = &m.sub[1];
    tfl_add_tensor(s, "x", 0, 0, 1, 8, 0);
    tfl_add_tensor(s, "y", 9, 0, 1, 8, 0);
    tfl_add_op(s, 3, 1, (int32_t[]){0}, 1);
    s->n_in = s->n_out = 1;
    s->in[0] = 0;
    s->out[0] = 1;
    m.n_subgraphs = 2;
    path = save("two.tflite", write_model(&m, NULL));
    snprintf(text, sizeof text, "%s#01", path);
    cr_assert_eq(arena_source_load(text, 16, 1, &src, err, sizeof err), ARENA_OK, "%s", err);
    snprintf(want, sizeof want, "%s#1", path);
    cr_expect_str_eq(src.spec, want);
    cr_expect_eq(src.ops, 1);
    arena_source_free(&src);
    /* '#N' on a file that is no model. */
    char csv[200];
    snprintf(csv, sizeof csv, "%s/p.csv", dir);
    FILE *f = fopen(csv, "w");
    cr_assert_not_null(f);
    fputs("id,lower,upper,size\na,0,1,16\n", f);
    fclose(f);
    snprintf(text, sizeof text, "%s#1", csv);
    cr_expect_eq(arena_source_load(text, 16, 1, &src, err, sizeof err), ARENA_EINVAL, "%s", err);
    cr_expect_not_null(strstr(err, "'#1' picks a subgraph of a TensorFlow Lite model"), "%s", err);
}

/* Expects the reader to refuse file[0, n) with EFORMAT and a message that
 * starts with the file name and contains `what`. */
static void refused(size_t n, const char *what)
{
    struct arena_graph g;
    struct arena_tflite_info info;
    char err[512] = "";
    cr_assert_eq(read_model(n, 0, &g, &info, err, sizeof err), ARENA_EFORMAT, "%s", err);
    cr_expect_eq(strncmp(err, "m.tflite: ", 10), 0, "%s", err);
    cr_expect_not_null(strstr(err, what), "'%s' lacks '%s'", err, what);
    cr_expect_null(strchr(err, '\n'));
    cr_expect_eq(g.n_tensors + g.n_ops, 0, "no partial graph");
}

Test(tflite, refuses_every_truncation)
{
    struct tfl_model m;
    base(&m);
    struct tfl_where w;
    size_t n = write_model(&m, &w);
    cr_assert_eq(w.last_data_end, n, "the writer ends with buffer data");
    for (size_t cut = 0; cut < n; cut++)
        refused(cut, cut < 8 ? "truncated" : "");
    refused(n - 1, "subgraph 0, tensor 3: Buffer.data: truncated: vector at byte");
    refused(7, "header: truncated: 7 bytes, a model has at least 8");
}

Test(tflite, refuses_offsets_out_of_range)
{
    struct tfl_model m;
    base(&m);
    struct tfl_where w;
    size_t n = write_model(&m, &w);
    tfl_put_u32(file + w.subgraphs_field, 0x7fffffffu);
    refused(n, "Model: subgraphs: offset out of range");
    n = write_model(&m, &w);
    tfl_put_u32(file, (uint32_t)n + 4); /* the root offset */
    refused(n, "root: offset out of range");
    n = write_model(&m, &w);
    tfl_put_u32(file + w.op0_inputs, 0x40000000u); /* a vector count */
    refused(n, "subgraph 0, operator 0: inputs: truncated: vector at byte");
}

Test(tflite, refuses_vtables_outside_the_file)
{
    struct tfl_model m;
    base(&m);
    struct tfl_where w;
    size_t n = write_model(&m, &w);
    /* soffset s puts the vtable at table - s: past the end, then before 0 */
    tfl_put_u32(file + w.tensor0_table, (uint32_t)-(int32_t)n);
    refused(n, "subgraph 0, tensor 0: Tensor: vtable outside the file");
    n = write_model(&m, &w);
    tfl_put_u32(file + w.tensor0_table, (uint32_t)(w.tensor0_table + 64));
    refused(n, "vtable outside the file");
    n = write_model(&m, &w);
    tfl_put_u32(file + w.model_table, (uint32_t)(w.model_table - (n - 2)));
    refused(n, "vtable outside the file"); /* its length runs off the end */
}

Test(tflite, refuses_bad_indices_types_and_shapes)
{
    struct tfl_model m;
    base(&m);
    m.sub[0].ops[2].in[0] = 99;
    refused(write_model(&m, NULL), "subgraph 0, operator 2: inputs: entry 0 is tensor 99, not "
                                   "one of the 8 tensors");
    base(&m);
    m.sub[0].ops[3].in[0] = -2;
    refused(write_model(&m, NULL), "entry 0 is tensor -2");
    base(&m);
    m.sub[0].ops[3].opcode = 4;
    refused(write_model(&m, NULL),
            "subgraph 0, operator 3: opcode_index: 4, past the 4 operator codes");
    base(&m);
    m.sub[0].tensors[5].type = 5; /* string */
    refused(write_model(&m, NULL), "subgraph 0, tensor 5: type: unknown type 5");
    base(&m);
    m.sub[0].tensors[5].buffer = 3;
    refused(write_model(&m, NULL), "tensor 5: buffer: buffer 3, past the 3 buffers");
    base(&m);
    m.sub[0].tensors[5].rank = 7;
    refused(write_model(&m, NULL), "tensor 5: shape: rank 7, above 6");
    base(&m);
    m.sub[0].tensors[5].shape[1] = -1;
    refused(write_model(&m, NULL), "tensor 5: shape: dim 1 is -1");
    base(&m);
    size_t n = write_model(&m, NULL);
    file[4] = 'X';
    refused(n, "not a TensorFlow Lite model");
}

Test(tflite, graph_faults_name_the_file)
{
    struct tfl_model m;
    base(&m);
    m.sub[0].tensors[5].shape[1] = 0; /* h: zero bytes */
    size_t n = write_model(&m, NULL);
    const char *path = save("zero.tflite", n);
    struct arena_source src;
    char err[512] = "", want[400];
    cr_expect_eq(arena_source_load(path, 16, 1, &src, err, sizeof err), ARENA_EINVAL);
    snprintf(want, sizeof want, "%s: subgraph 0: tensor 'h': size is zero bytes", path);
    cr_expect_str_eq(err, want);

    base(&m); /* an op reads a tensor nobody writes that is no input */
    m.sub[0].n_in = 0;
    n = write_model(&m, NULL);
    path = save("noinput.tflite", n);
    cr_expect_eq(arena_source_load(path, 16, 1, &src, err, sizeof err), ARENA_EINVAL);
    cr_expect_not_null(strstr(err, "reads tensor 'in' before it is written"), "%s", err);
    cr_expect_eq(strncmp(err, path, strlen(path)), 0, "%s", err);
}
