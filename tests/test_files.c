/* test_files.c — MiniMalloc CSV and the graph text format: reading with
 * time compression, exact round trips, every bad input with its one-line
 * message, CRLF and header lines, the front door's path handling, and a
 * seeded fuzz run over random and mutated files. Files are real files in a
 * fresh temporary folder. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "graphs/files.h"
#include "graphs/source.h"
#include "tests/asan.h"
#include "tests/tflite_writer.h"

#ifndef ARENA_SOURCE_ROOT
#error "tests/meson.build passes ARENA_SOURCE_ROOT"
#endif

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/arena-files-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

TestSuite(files, .init = make_dir, .fini = remove_dir);

/* Writes len bytes to dir/name and returns the path (static buffer per slot). */
static const char *write_bytes(const char *name, const char *data, size_t len)
{
    static char paths[4][256];
    static int slot;
    char *path = paths[slot++ % 4];
    snprintf(path, 256, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(data, 1, len, f), len);
    cr_assert_eq(fclose(f), 0);
    return path;
}

static const char *write_text(const char *name, const char *text)
{
    return write_bytes(name, text, strlen(text));
}

/* arena_csv_read with only an alignment. */
static int csv_read(const char *path, uint64_t alignment, struct arena_problem *out, char *err,
                    size_t errlen)
{
    return arena_csv_read(path, alignment, NULL, out, NULL, err, errlen);
}

static int conflict(const struct arena_tensor *a, const struct arena_tensor *b)
{
    return a->first <= b->last && b->first <= a->last;
}

/* ---- CSV ---- */

/* Header and CRLF. Lowers 0, 2, 4 become steps 0, 1, 2:
 *   a [0,4) -> first 0, last = step of the largest lower <= 3 (2) = 1
 *   b [4,8) -> [2, 2] (largest lower <= 7 is 4)
 *   c [2,5) -> [1, 2]
 * a and b touch at 4 and do not conflict, before and after. */
Test(files, csv_header_crlf_and_compression)
{
    const char *path = write_text("a.csv", "id,lower,upper,size\r\n"
                                           "a,0,4,100\r\n"
                                           "b,4,8,50\r\n"
                                           "\r\n"
                                           "c,2,5,30\r\n");
    struct arena_problem p = {0};
    char err[256];
    cr_assert_eq(csv_read(path, 16, &p, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_eq(p.n, 3);
    cr_expect_eq(p.alignment, 16);
    const uint32_t first[3] = {0, 2, 1}, last[3] = {1, 2, 2};
    const uint64_t size[3] = {112, 64, 32}; /* 100, 50, 30 rounded up to 16 */
    for (int i = 0; i < 3; i++) {
        cr_expect_eq(p.tensors[i].first, first[i], "record %d", i);
        cr_expect_eq(p.tensors[i].last, last[i], "record %d", i);
        cr_expect_eq(p.tensors[i].size, size[i], "record %d", i);
    }
    free((void *)p.tensors);
}

Test(files, csv_columns_in_any_order_and_extra_columns)
{
    const char *path = write_text("b.csv", "size,upper,offset,lower,id\n"
                                           "10,5,0,3,x\n"
                                           "20,9,16,3,y\n");
    struct arena_problem p = {0};
    char err[256];
    cr_assert_eq(csv_read(path, 1, &p, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_eq(p.n, 2);
    cr_expect(p.tensors[0].size == 10 && p.tensors[0].first == 0 && p.tensors[0].last == 0);
    cr_expect(p.tensors[1].size == 20 && p.tensors[1].first == 0 && p.tensors[1].last == 0);
    free((void *)p.tensors);
}

/* Sparse times up to 2^20 without a header. Lowers 0, 524288, 1048575,
 * 1048576 become steps 0..3:
 *   0: [0, 2^20)          -> [0, 2]  (largest lower <= 2^20 - 1 is 1048575)
 *   1: [2^20 - 1, 2^20)   -> [2, 2]
 *   2: [524288, 524289)   -> [1, 1]
 *   3: [2^20, 2^20 + 1)   -> [3, 3]  touches 0 and 1, conflicts with neither */
Test(files, csv_sparse_times_up_to_2_20)
{
    const char *path = write_text("sparse.csv", "0,0,1048576,16\n"
                                                "1,1048575,1048576,16\n"
                                                "2,524288,524289,32\n"
                                                "3,1048576,1048577,8\n");
    struct arena_problem p = {0};
    char err[256];
    cr_assert_eq(csv_read(path, 1, &p, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_eq(p.n, 4);
    const uint32_t first[4] = {0, 2, 1, 3}, last[4] = {2, 2, 1, 3};
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(p.tensors[i].first, first[i], "record %d", i);
        cr_expect_eq(p.tensors[i].last, last[i], "record %d", i);
    }
    free((void *)p.tensors);
}

/* The same file keeps each lifetime's own length, upper - lower (the
 * steps compress them: [0, 2^20) spans 3 steps), for the search planners'
 * tie orders; the fingerprint stays the steps'. A file whose times are
 * already the steps has no lengths of its own to keep: span is NULL. */
Test(files, csv_keeps_own_lifetime_lengths)
{
    const char *path = write_text("own.csv", "0,0,1048576,16\n"
                                             "1,1048575,1048576,16\n"
                                             "2,524288,524289,32\n"
                                             "3,1048576,1048577,8\n");
    struct arena_problem p = {0}, dense = {0};
    char err[256];
    cr_assert_eq(csv_read(path, 1, &p, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_not_null(p.span);
    const uint64_t span[4] = {1048576, 1, 1, 1};
    for (int i = 0; i < 4; i++)
        cr_expect_eq(p.span[i], span[i], "record %d", i);
    const char *same = write_text("dense.csv", "0,0,3,16\n"
                                               "1,2,3,16\n"
                                               "2,1,2,32\n"
                                               "3,3,4,8\n");
    cr_assert_eq(csv_read(same, 1, &dense, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_null(dense.span, "times that are the steps keep no lengths");
    cr_expect_eq(arena_problem_fingerprint(&p), arena_problem_fingerprint(&dense));
    free((void *)p.tensors); /* one block: the lengths go with it */
    free((void *)dense.tensors);
}

/* A small LCG for the tests' own random data (not the library's PRNG). */
static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 17;
}

/* Random sparse half-open lifetimes over [0, 2^20]: every pair conflicts
 * after compression exactly when it did before, sizes are kept, and the
 * lower bound equals the brute-force peak over the original times. */
Test(files, csv_compression_preserves_every_conflict)
{
    for (uint64_t seed = 1; seed <= 5; seed++) {
        uint64_t s = seed;
        enum { N = 300 };
        uint64_t lo[N], hi[N], sz[N];
        char *text = malloc(N * 64 + 32);
        size_t len = (size_t)sprintf(text, "id,lower,upper,size\n");
        for (int i = 0; i < N; i++) {
            lo[i] = lcg(&s) % ((1u << 20) + 1);
            uint64_t span = lcg(&s) % 4 == 0 ? lcg(&s) % (1u << 19) : 1 + lcg(&s) % 64;
            hi[i] = lo[i] + span + (span == 0);
            sz[i] = 1 + lcg(&s) % 1000;
            len += (size_t)sprintf(text + len, "%d,%llu,%llu,%llu\n", i, (unsigned long long)lo[i],
                                   (unsigned long long)hi[i], (unsigned long long)sz[i]);
        }
        const char *path = write_bytes("rand.csv", text, len);
        free(text);
        struct arena_problem p = {0};
        char err[256];
        cr_assert_eq(csv_read(path, 1, &p, err, sizeof err), ARENA_OK, "%s", err);
        cr_assert_eq(p.n, N);
        for (int i = 0; i < N; i++) {
            cr_assert_eq(p.tensors[i].size, sz[i]);
            for (int j = i + 1; j < N; j++) {
                int before = lo[i] < hi[j] && lo[j] < hi[i];
                cr_assert_eq(conflict(&p.tensors[i], &p.tensors[j]), before,
                             "seed %llu pair %d,%d", (unsigned long long)seed, i, j);
            }
        }
        /* the peak of a set of half-open intervals is reached at some lower */
        uint64_t peak = 0;
        for (int k = 0; k < N; k++) {
            uint64_t live = 0;
            for (int i = 0; i < N; i++)
                if (lo[i] <= lo[k] && lo[k] < hi[i])
                    live += sz[i];
            if (live > peak)
                peak = live;
        }
        struct arena_bounds b;
        cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
        cr_expect_eq(b.lower_bound, peak);
        free((void *)p.tensors);
    }
}

static void expect_same_conflicts(const struct arena_problem *a, const struct arena_problem *b)
{
    cr_assert_eq(a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        cr_assert_eq(a->tensors[i].size, b->tensors[i].size, "record %zu", i);
        for (size_t j = i + 1; j < a->n; j++)
            cr_assert_eq(conflict(&a->tensors[i], &a->tensors[j]),
                         conflict(&b->tensors[i], &b->tensors[j]), "pair %zu,%zu", i, j);
    }
}

Test(files, csv_round_trip_is_exact)
{
    const char *specs[] = {"mobilenetv2", "mobilenetv2:fused=0", "random-dag:ops=300",
                           "unet", "random-intervals:n=1500,live=40"};
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        struct arena_source s;
        char err[256];
        cr_assert_eq(arena_source_load(specs[k], 16, 1, &s, err, sizeof err), ARENA_OK);
        char path[256];
        snprintf(path, sizeof path, "%s/round%zu.csv", dir, k);
        cr_assert_eq(arena_csv_write(path, &s.problem, err, sizeof err), ARENA_OK, "%s", err);
        struct arena_problem back = {0};
        cr_assert_eq(csv_read(path, 16, &back, err, sizeof err), ARENA_OK, "%s", err);
        expect_same_conflicts(&s.problem, &back);
        struct arena_bounds b1, b2;
        cr_assert_eq(arena_problem_bounds(&s.problem, &b1), ARENA_OK);
        cr_assert_eq(arena_problem_bounds(&back, &b2), ARENA_OK);
        cr_expect_eq(b1.lower_bound, b2.lower_bound, "%s", specs[k]);
        cr_expect_eq(b1.naive_bytes, b2.naive_bytes, "%s", specs[k]);
        /* a graph writes a tensor at every step, so its steps are already
         * dense and the records come back identical */
        if (s.ops > 0)
            cr_expect_eq(arena_problem_fingerprint(&back), s.fingerprint, "%s", specs[k]);
        /* once compressed, a second round trip changes nothing */
        cr_assert_eq(arena_csv_write(path, &back, err, sizeof err), ARENA_OK);
        struct arena_problem again = {0};
        cr_assert_eq(csv_read(path, 16, &again, err, sizeof err), ARENA_OK);
        cr_expect_eq(arena_problem_fingerprint(&again), arena_problem_fingerprint(&back));
        free((void *)again.tensors);
        free((void *)back.tensors);
        arena_source_free(&s);
    }
}

Test(files, csv_export_format)
{
    const struct arena_tensor t[2] = {{.size = 32, .first = 0, .last = 1},
                                      {.size = 16, .first = 2, .last = 2}};
    struct arena_problem p = {.n = 2, .tensors = t, .alignment = 16};
    char path[256], err[128], buf[256] = "";
    snprintf(path, sizeof path, "%s/out.csv", dir);
    cr_assert_eq(arena_csv_write(path, &p, err, sizeof err), ARENA_OK);
    FILE *f = fopen(path, "rb");
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    cr_expect_str_eq(buf, "id,lower,upper,size\n0,0,2,32\n1,2,3,16\n");
}

/* Expects reading text as a CSV to fail with rc and exactly "PATH:msg". */
static void expect_csv_error(const char *text, int rc, const char *msg)
{
    const char *path = write_text("bad.csv", text);
    struct arena_problem p = {0};
    memset(&p, 0x5a, sizeof p);
    char err[512], want[512];
    cr_assert_eq(csv_read(path, 16, &p, err, sizeof err), rc, "%s", err);
    snprintf(want, sizeof want, "%s:%s", path, msg);
    cr_expect_str_eq(err, want);
    cr_expect_eq(p.n, 0);
    cr_expect_null(p.tensors);
    /* the front door says the same, and returns nothing */
    struct arena_source s;
    memset(&s, 0x5a, sizeof s);
    cr_assert_eq(arena_source_load(path, 16, 1, &s, err, sizeof err), rc);
    cr_expect_str_eq(err, want);
    cr_expect_null(s.problem.tensors);
    cr_expect_null(s.spec);
}

Test(files, csv_bad_input_messages)
{
    expect_csv_error("id,lower,upper,size\na,abc,4,16\n", ARENA_EFORMAT,
                     "2: lower: 'abc' is not a number");
    expect_csv_error("a,1,4,-5\n", ARENA_EFORMAT, "1: size: -5 is negative");
    expect_csv_error("a,-1,4,5\n", ARENA_EFORMAT, "1: lower: -1 is negative");
    expect_csv_error("a,1,x4,5\n", ARENA_EFORMAT, "1: upper: 'x4' is not a number");
    expect_csv_error("a,1,4,5.5\n", ARENA_EFORMAT, "1: size: '5.5' is not a number");
    expect_csv_error("a,0,2,16\nb,4,4,16\n", ARENA_EFORMAT, "2: upper: 4 is not above lower 4");
    expect_csv_error("a,0,2,16\nb,5,3,16\n", ARENA_EFORMAT, "2: upper: 3 is not above lower 5");
    expect_csv_error("id,lower,upper,size\r\na,0,2,16\r\nb,1,3,16\r\na,2,4,16\r\n", ARENA_EFORMAT,
                     "4: id: duplicate id 'a' (first on line 2)");
    expect_csv_error("a,0,2,16\nb,1,3\n", ARENA_EFORMAT, "2: size: missing column");
    expect_csv_error("a,0\n", ARENA_EFORMAT, "1: upper: missing column");
    expect_csv_error("a,0,2,4611686018427387905\n", ARENA_EFORMAT,
                     "1: size: 4611686018427387905 is above 2^62");
    expect_csv_error("a,0,2,99999999999999999999999\n", ARENA_EFORMAT,
                     "1: size: 99999999999999999999999 is above 2^62");
    expect_csv_error("a,99999999999999999999999,2,16\n", ARENA_EFORMAT,
                     "1: lower: 99999999999999999999999 does not fit in 64 bits");
    expect_csv_error("a,0,2,0\n", ARENA_EFORMAT, "1: size: 0 is not a positive size");
    expect_csv_error(",0,2,16\n", ARENA_EFORMAT, "1: id: empty");
    expect_csv_error("a,0,,16\n", ARENA_EFORMAT, "1: upper: empty, not a number");
    expect_csv_error("id,lower,size\n", ARENA_EFORMAT,
                     "1: upper: missing column in the header (a header names id,lower,upper,size "
                     "in any order)");
    /* A header of names we do not know is still a header, and says what it needs. */
    expect_csv_error("name,start_time,end_time,bytes\nx,0,1,4\n", ARENA_EFORMAT,
                     "1: id: missing column in the header (a header names id,lower,upper,size "
                     "in any order)");
    expect_csv_error("id,lower,upper,size,size\n", ARENA_EFORMAT,
                     "1: size: column size given twice in the header (columns 4 and 5)");
    expect_csv_error("buffer,start,end,size\nb,5,4,16\n", ARENA_EFORMAT,
                     "2: end: 4 is below start 5");
    /* A file with nothing in it is a failed export or a truncated copy, not a problem to
     * plan; the header alone is the empty problem. */
    const char *nothing = " no header and no records (an empty problem is the header line alone)";
    expect_csv_error("", ARENA_EFORMAT, nothing);
    expect_csv_error("\n  \r\n# only a comment\n", ARENA_EFORMAT, nothing);
}

Test(files, csv_header_alone_is_the_empty_problem)
{
    const char *path = write_text("header.csv", "id,lower,upper,size\n");
    struct arena_problem p = {0};
    char err[256] = "";
    cr_assert_eq(csv_read(path, 16, &p, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(p.n, 0);
    free((void *)p.tensors);
}

/* Every size <= 2^62 stays <= 2^62 when rounded up to a power of two up to
 * 2^62; only a larger alignment can push it past. */
Test(files, csv_size_overflowing_the_alignment)
{
    const char *path = write_text("align.csv", "a,0,2,5\n");
    struct arena_problem p = {0};
    char err[256], want[300];
    cr_assert_eq(csv_read(path, (uint64_t)1 << 63, &p, err, sizeof err), ARENA_EOVERFLOW);
    snprintf(want, sizeof want, "%s:1: size: 5 overflows once aligned to 9223372036854775808",
             path);
    cr_expect_str_eq(err, want);
    cr_expect_null(p.tensors);
}

Test(files, csv_largest_size_is_accepted)
{
    const char *path = write_text("big.csv", "a,0,2,4611686018427387904\n");
    struct arena_problem p = {0};
    char err[256];
    cr_assert_eq(csv_read(path, 16, &p, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(p.tensors[0].size, (uint64_t)1 << 62);
    free((void *)p.tensors);
}

Test(files, csv_long_line_and_nul_byte)
{
    size_t len = ARENA_FILE_LINE_MAX + 10;
    char *text = malloc(len + 1);
    memset(text, '7', len);
    text[len] = '\n';
    const char *path = write_bytes("long.csv", text, len + 1);
    free(text);
    struct arena_problem p = {0};
    char err[256], want[300];
    cr_assert_eq(csv_read(path, 16, &p, err, sizeof err), ARENA_EFORMAT);
    snprintf(want, sizeof want, "%s:1: line: longer than 65536 bytes", path);
    cr_expect_str_eq(err, want);
    cr_expect_null(p.tensors);
    path = write_bytes("nul.csv", "a,0,2,16\nb,0\0,2,16\n", 20);
    cr_assert_eq(csv_read(path, 16, &p, err, sizeof err), ARENA_EFORMAT);
    snprintf(want, sizeof want, "%s:2: line: contains a NUL byte (not a text file)", path);
    cr_expect_str_eq(err, want);
}

Test(files, missing_file)
{
    char path[256], err[512], want[512];
    snprintf(path, sizeof path, "%s/none.csv", dir);
    struct arena_source s;
    cr_assert_eq(arena_source_load(path, 16, 1, &s, err, sizeof err), ARENA_EIO);
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
    cr_expect_str_eq(err, want);
    cr_expect_null(s.problem.tensors);
    /* The graph reader words it the same way. */
    snprintf(path, sizeof path, "%s/none.graph", dir);
    cr_assert_eq(arena_source_load(path, 16, 1, &s, err, sizeof err), ARENA_EIO);
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
    cr_expect_str_eq(err, want);
    cr_expect_null(s.problem.tensors);
}

/* ---- graph files ---- */

/* tiny_cnn.graph, int8, by hand (h*w*c bytes, [first,last]):
 *   image 32*32*3 = 3072 [0,0]     stem 16*16*16 = 4096 [0,4] (read by add1)
 *   expand 16384 [1,2]  dw 16384 [2,3]  project 4096 [3,4]  sum 4096 [4,5]
 *   pooled 16 [5,6]  logits 10 [6,7]  probs 10 [7,7] (output)
 * naive 48,164; peak at step 2: stem + expand + dw = 36,864. */
Test(files, example_tiny_cnn)
{
    struct arena_source s;
    char err[256];
    const char *path = ARENA_SOURCE_ROOT "/graphs/examples/tiny_cnn.graph";
    cr_assert_eq(arena_source_load(path, 1, 1, &s, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_str_eq(s.family, "graph-file");
    cr_expect_str_eq(s.spec, path);
    cr_expect_str_eq(s.params, "");
    cr_expect_eq(s.ops, 8);
    cr_assert_eq(s.problem.n, 9);
    const uint32_t first[9] = {0, 0, 1, 2, 3, 4, 5, 6, 7}, last[9] = {0, 4, 2, 3, 4, 5, 6, 7, 7};
    for (int i = 0; i < 9; i++) {
        cr_expect_eq(s.problem.tensors[i].first, first[i], "tensor %d", i);
        cr_expect_eq(s.problem.tensors[i].last, last[i], "tensor %d", i);
    }
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&s.problem, &b), ARENA_OK);
    cr_expect_eq(b.naive_bytes, 48164);
    cr_expect_eq(b.lower_bound, 36864);
    arena_source_free(&s);
}

/* two_branch.graph, fp16 (2 bytes): x 28*28*64*2 = 100,352 [0,1];
 * a 50,176 [0,3]; b_reduce 25,088 [1,2]; b 50,176 [2,3]; cat 100,352 [3,4];
 * y 100,352 [4,4]. naive 426,496; peak 200,704 at steps 3 (a + b + cat)
 * and 4 (cat + y). */
Test(files, example_two_branch)
{
    struct arena_source s;
    char err[256];
    cr_assert_eq(arena_source_load(ARENA_SOURCE_ROOT "/graphs/examples/two_branch.graph", 1, 1, &s,
                                   err, sizeof err),
                 ARENA_OK, "%s", err);
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&s.problem, &b), ARENA_OK);
    cr_expect_eq(s.ops, 5);
    cr_expect_eq(b.naive_bytes, 426496);
    cr_expect_eq(b.lower_bound, 200704);
    arena_source_free(&s);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    char *buf = malloc(1 << 16);
    *len = fread(buf, 1, (1 << 16) - 1, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

Test(files, graph_crlf_and_no_extension)
{
    size_t len;
    char *text = slurp(ARENA_SOURCE_ROOT "/graphs/examples/tiny_cnn.graph", &len);
    char *crlf = malloc(2 * len + 1);
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n')
            crlf[k++] = '\r';
        crlf[k++] = text[i];
    }
    struct arena_source a, b, c;
    char err[256];
    cr_assert_eq(arena_source_load(ARENA_SOURCE_ROOT "/graphs/examples/tiny_cnn.graph", 16, 1, &a,
                                   err, sizeof err),
                 ARENA_OK);
    cr_assert_eq(arena_source_load(write_bytes("crlf.graph", crlf, k), 16, 1, &b, err, sizeof err),
                 ARENA_OK, "%s", err);
    /* no extension: recognised by its first statement */
    cr_assert_eq(arena_source_load(write_bytes("model", text, len), 16, 1, &c, err, sizeof err),
                 ARENA_OK, "%s", err);
    cr_expect_eq(a.fingerprint, b.fingerprint);
    cr_expect_eq(a.fingerprint, c.fingerprint);
    cr_expect_str_eq(c.family, "graph-file");
    arena_source_free(&a);
    arena_source_free(&b);
    arena_source_free(&c);
    free(text);
    free(crlf);
    /* and a CSV without extension is a CSV */
    cr_assert_eq(arena_source_load(write_text("problem", "a,0,2,16\nb,1,3,16\n"), 16, 1, &a, err,
                                   sizeof err),
                 ARENA_OK, "%s", err);
    cr_expect_str_eq(a.family, "csv");
    cr_expect_eq(a.ops, 0);
    cr_expect_eq(a.problem.n, 2);
    arena_source_free(&a);
}

static void expect_graph_error(const char *text, int rc, const char *msg)
{
    const char *path = write_text("bad.graph", text);
    struct arena_source s;
    memset(&s, 0x5a, sizeof s);
    char err[512], want[512];
    cr_assert_eq(arena_source_load(path, 16, 1, &s, err, sizeof err), rc, "%s", err);
    snprintf(want, sizeof want, "%s:%s", path, msg);
    cr_expect_str_eq(err, want);
    cr_expect_null(s.problem.tensors);
    cr_expect_eq(s.problem.n, 0);
    cr_expect_null(s.spec);
}

#define HEAD "tensor x int8 4x4 input\ntensor y int8 4x4 output\n"

Test(files, graph_bad_input_messages)
{
    expect_graph_error(HEAD "op a conv x -> nope\n", ARENA_EFORMAT,
                       "3: output: unknown tensor 'nope' (declare it with a tensor line first)");
    expect_graph_error(HEAD "op a conv what -> y\n", ARENA_EFORMAT,
                       "3: input: unknown tensor 'what' (declare it with a tensor line first)");
    expect_graph_error(HEAD "op a conv x y\n", ARENA_EFORMAT,
                       "3: op: missing '->' between inputs and outputs");
    expect_graph_error(HEAD "op a conv x -> y -> y\n", ARENA_EFORMAT, "3: output: a second '->'");
    expect_graph_error(HEAD "op a\n", ARENA_EFORMAT, "3: kind: missing column");
    expect_graph_error("tensor x int8\n", ARENA_EFORMAT, "1: shape: missing column");
    expect_graph_error("tensor x\n", ARENA_EFORMAT, "1: dtype: missing column");
    expect_graph_error("# comment\n\ntensor x float 4\n", ARENA_EFORMAT,
                       "3: dtype: 'float' is not int8, int16, fp16 or fp32");
    expect_graph_error("tensor x int8 4xax4\n", ARENA_EFORMAT,
                       "1: shape: '4xax4' is not dims joined by 'x' (e.g. 1x8x8x16)");
    expect_graph_error("tensor x int8 4x0x4\n", ARENA_EFORMAT,
                       "1: shape: dim 1 is zero: a zero-byte tensor");
    expect_graph_error("tensor x int8 -4\n", ARENA_EFORMAT,
                       "1: shape: '-4' is not dims joined by 'x' (e.g. 1x8x8x16)");
    expect_graph_error("tensor x fp32 2305843009213693952x1\n", ARENA_EFORMAT,
                       "1: shape: size above 2^62 bytes");
    expect_graph_error("tensor x int8 1x1x1x1x1x1x1\n", ARENA_EFORMAT, "1: shape: more than 6 dims");
    expect_graph_error("tensor x int8 4 input sometimes\n", ARENA_EFORMAT,
                       "1: flag: 'sometimes' is not input or output");
    expect_graph_error(HEAD "tensor x int8 8\n", ARENA_EFORMAT,
                       "3: name: duplicate tensor 'x' (first on line 1)");
    expect_graph_error(HEAD "op a conv x -> y\nop a conv x -> y\n", ARENA_EFORMAT,
                       "4: name: duplicate op 'a' (first on line 3)");
    expect_graph_error("tensor -> int8 4\n", ARENA_EFORMAT, "1: name: '->' cannot name a tensor");
    expect_graph_error("layer a\n", ARENA_EFORMAT, "1: statement: 'layer' is not tensor or op");
    /* graph checks name the op's or tensor's line */
    expect_graph_error(HEAD "tensor z int8 4\nop a conv x z -> y\nop b conv y -> z\n",
                       ARENA_EINVAL, "4: op: the ops form a cycle through op 'a'");
    expect_graph_error(HEAD "tensor z int8 4\nop a conv z -> y\n", ARENA_EINVAL,
                       "4: op: op 'a' (step 0) reads tensor 'z' before it is written: no op "
                       "writes it and it is not a graph input");
    expect_graph_error(HEAD "tensor z int8 4\nop a conv x -> y\n", ARENA_EINVAL,
                       "3: tensor: tensor 'z' is dangling: no op reads or writes it");
    expect_graph_error(HEAD "op a conv x -> y\nop b conv x -> y\n", ARENA_EINVAL,
                       "4: op: tensor 'y' is written by two ops, 'a' and 'b'");
    expect_graph_error("# nothing\n", ARENA_EINVAL, " the graph has no ops");
    /* repro #12: one op naming an output twice is said as such, not as two writers */
    expect_graph_error(HEAD "op o relu x -> y y\n", ARENA_EINVAL,
                       "3: op: op 'o' writes tensor 'y' twice");
}

/* ---- fuzz: the readers never crash, and either succeed with a valid
 * problem or fail with one line and nothing returned ---- */

static void fuzz_one(const char *name, const char *data, size_t len)
{
    const char *path = write_bytes(name, data, len);
    struct arena_source s;
    char err[512];
    int rc = arena_source_load(path, 16, 1, &s, err, sizeof err);
    if (rc == ARENA_OK) {
        size_t bad;
        cr_assert_eq(arena_problem_check(&s.problem, &bad), ARENA_OK);
        arena_source_free(&s);
    } else {
        cr_assert_neq(err[0], '\0');
        cr_assert_null(strchr(err, '\n'));
        cr_assert_null(strchr(err, '\r'));
        cr_assert_null(s.problem.tensors);
        cr_assert_null(s.spec);
    }
}

Test(files, fuzz_random_and_mutated_inputs)
{
    static const char alphabet[] = "0123456789,,,,\n\n\r -x>#abcdefghijklmnopqrstuvwxyz"
                                   "tensoropinputoutputint8fp32\t\x01\xff";
    size_t tiny_len;
    char *tiny = slurp(ARENA_SOURCE_ROOT "/graphs/examples/tiny_cnn.graph", &tiny_len);
    const char *csv = "id,lower,upper,size\n0,0,4,100\n1,3,9,20\n2,9,1048576,64\n3,2,3,8\n";
    size_t csv_len = strlen(csv);
    uint64_t s = 12345;
    char *buf = malloc(4096 + tiny_len);
    for (int iter = 0; iter < 600; iter++) {
        size_t len;
        int kind = iter % 3;
        if (kind == 0) {
            len = lcg(&s) % 2000;
            for (size_t i = 0; i < len; i++)
                buf[i] = lcg(&s) % 8 == 0 ? (char)(lcg(&s) & 0xff)
                                          : alphabet[lcg(&s) % (sizeof alphabet - 1)];
        } else {
            const char *src = kind == 1 ? csv : tiny;
            len = kind == 1 ? csv_len : tiny_len;
            memcpy(buf, src, len);
            int flips = 1 + (int)(lcg(&s) % 6);
            for (int f = 0; f < flips; f++) {
                size_t at = lcg(&s) % len;
                switch (lcg(&s) % 4) {
                case 0: buf[at] = alphabet[lcg(&s) % (sizeof alphabet - 1)]; break;
                case 1: buf[at] = (char)(lcg(&s) & 0xff); break;
                case 2: len = at; break; /* truncate */
                default: buf[at] = '\n'; break;
                }
                if (len == 0)
                    break;
            }
        }
        fuzz_one(iter % 2 ? "fuzz.csv" : "fuzz.graph", buf, len);
    }
    free(buf);
    free(tiny);
}

/* ---- the hardening issue's reproducers (tests/repro, copied from the
 * fuzzing report) and the rules behind their fixes ---- */

#define REPRO ARENA_SOURCE_ROOT "/tests/repro/"

/* #1: a short and a long name in one hash slot made key_eq read past the
 * name pool (seen under ASan). Both files are valid: 2 tensors each. */
Test(files, repro_names_overread)
{
    struct arena_source s;
    char err[512];
    cr_assert_eq(arena_source_load(REPRO "csv-names-overread.csv", 16, 1, &s, err, sizeof err),
                 ARENA_OK, "%s", err);
    cr_expect_eq(s.problem.n, 2);
    arena_source_free(&s);
    cr_assert_eq(arena_source_load(REPRO "graph-names-overread.graph", 16, 1, &s, err, sizeof err),
                 ARENA_OK, "%s", err);
    cr_expect_eq(s.problem.n, 2);
    cr_expect_eq(s.ops, 1);
    arena_source_free(&s);
}

/* #2: sniffing /dev/zero read NUL-led chunks forever; now the sniff reads
 * 4 KiB once and the reader stops at the first NUL, in one line. The same for
 * a file of NULs under any name. */
Test(files, repro_dev_zero_and_nul_files_refused_at_once)
{
    struct arena_source s;
    char err[512], want[512];
    cr_assert_eq(arena_source_load("/dev/zero", 16, 1, &s, err, sizeof err), ARENA_EFORMAT);
    cr_expect_str_eq(err, "/dev/zero:1: line: contains a NUL byte (not a text file)");
    cr_expect_null(s.problem.tensors);
    static char zeros[3 * 4096];
    const char *names[] = {"zeros", "zeros.csv", "zeros.graph"};
    for (size_t i = 0; i < 3; i++) {
        const char *path = write_bytes(names[i], zeros, sizeof zeros);
        cr_assert_eq(arena_source_load(path, 16, 1, &s, err, sizeof err), ARENA_EFORMAT);
        snprintf(want, sizeof want, "%s:1: line: contains a NUL byte (not a text file)", path);
        cr_expect_str_eq(err, want);
    }
}

/* #2: a signal stops loading at the next line. The flag is set before the
 * load, as a handler would mid-file; the reader stops at line 1. */
Test(files, stop_flag_stops_loading)
{
    volatile sig_atomic_t stop = 1;
    struct arena_load_options opt = {.alignment = 16, .seed = 1, .stop = &stop};
    struct arena_source s;
    char err[512], want[512];
    const char *csv = write_text("stop.csv", "a,0,1,16\nb,0,1,16\n");
    cr_assert_eq(arena_source_load_with(csv, &opt, &s, err, sizeof err), ARENA_EIO);
    snprintf(want, sizeof want, "%s:1: file: stopped by a signal", csv);
    cr_expect_str_eq(err, want);
    cr_expect_null(s.problem.tensors);
    const char *graph = write_text("stop.graph", HEAD "op a conv x -> y\n");
    cr_assert_eq(arena_source_load_with(graph, &opt, &s, err, sizeof err), ARENA_EIO);
    snprintf(want, sizeof want, "%s:1: file: stopped by a signal", graph);
    cr_expect_str_eq(err, want);
    stop = 0; /* the same load without the flag succeeds */
    cr_assert_eq(arena_source_load_with(csv, &opt, &s, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(s.problem.n, 2);
    arena_source_free(&s);
}

/* #8: an export cut inside its last number (3475 of 5000 records, the last
 * "3474,716,722,3" missing the rest of its size and its newline) used to
 * read as a smaller valid problem. Every record ends with a newline, so the
 * cut line is refused, naming its line (header on 1) and field. */
Test(files, repro_truncated_export_is_refused)
{
    struct arena_source s;
    char err[512];
    const char *path = REPRO "truncated-export-midnumber.csv";
    cr_assert_eq(arena_source_load(path, 16, 1, &s, err, sizeof err), ARENA_EFORMAT);
    cr_expect_str_eq(err, REPRO "truncated-export-midnumber.csv:3476: size: '3' ends the file "
                               "without a newline: the file looks cut off (every record ends "
                               "with one)");
    cr_expect_null(s.problem.tensors);
    /* cut elsewhere: inside the id, inside an extra column, inside the header */
    expect_csv_error("id,lower,upper,size\na,0,1,16\nb,0", ARENA_EFORMAT,
                     "3: lower: '0' ends the file without a newline: the file looks cut off "
                     "(every record ends with one)");
    expect_csv_error("id,lower,upper,size,offset\na,0,1,16,0\nb,0,1,16,3", ARENA_EFORMAT,
                     "3: line: '3' ends the file without a newline: the file looks cut off "
                     "(every record ends with one)");
    expect_csv_error("id,lower,up", ARENA_EFORMAT,
                     "1: line: the header ends the file without a newline: the file looks cut "
                     "off");
    /* a last comment or blank line without a newline cuts no record */
    const char *ok = write_text("ok.csv", "id,lower,upper,size\na,0,1,16\n# end");
    struct arena_problem p = {0};
    cr_assert_eq(csv_read(ok, 16, &p, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(p.n, 1);
    free((void *)p.tensors);
}

/* MiniMalloc's own files: its benchmarks use `buffer,start,end,size` with an
 * inclusive end (its converter adds 1), and end every record with a newline.
 * b1 [0,3] b2 [3,9] b3 [0,9] -> half-open [0,4) [3,10) [0,10); lowers {0, 3}
 * are steps 0 and 1: b1 [0, step of 3] = [0,1], b2 [1,1], b3 [0,1]; b1 and
 * b2 share time 3, so they conflict. */
Test(files, csv_minimalloc_header_names)
{
    const char *path =
        write_text("mm.csv", "buffer,start,end,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\n");
    struct arena_problem p = {0};
    char err[256];
    cr_assert_eq(csv_read(path, 1, &p, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_eq(p.n, 3);
    const uint32_t first[3] = {0, 1, 0}, last[3] = {1, 1, 1};
    for (size_t i = 0; i < 3; i++) {
        cr_expect_eq(p.tensors[i].first, first[i], "record %zu", i);
        cr_expect_eq(p.tensors[i].last, last[i], "record %zu", i);
        cr_expect_eq(p.tensors[i].size, 4);
    }
    free((void *)p.tensors);
    /* buffer_id and begin with an exclusive upper, columns reordered */
    path = write_text("mm2.csv", "size,upper,begin,buffer_id\n4,4,0,b1\n");
    cr_assert_eq(csv_read(path, 1, &p, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(p.n, 1);
    free((void *)p.tensors);
}

/* #11: four sizes of 2^62 sum to 2^64, one past what a problem may hold; the
 * fourth record is named. Three fit: 3 x 2^62 < 2^64. */
Test(files, repro_size_sum_overflow_names_the_record)
{
    struct arena_source s;
    char err[512];
    cr_assert_eq(arena_source_load(REPRO "three62.csv", 16, 1, &s, err, sizeof err), ARENA_OK,
                 "%s", err);
    cr_expect_eq(s.problem.n, 3);
    arena_source_free(&s);
    expect_csv_error("a,0,1,4611686018427387904\nb,0,1,4611686018427387904\n"
                     "c,0,1,4611686018427387904\nd,0,1,4611686018427387904\n",
                     ARENA_EOVERFLOW,
                     "4: size: 4611686018427387904 takes the sum of the sizes past 2^64 - 1 "
                     "bytes");
    /* a graph file names the tensor's line: 4 x fp32 2^60 = 4 x 2^62 bytes */
    expect_graph_error("tensor a fp32 1152921504606846976 input\n"
                       "tensor b fp32 1152921504606846976\n"
                       "tensor c fp32 1152921504606846976\n"
                       "tensor d fp32 1152921504606846976 output\n"
                       "op o1 copy a -> b\nop o2 copy b -> c\nop o3 copy c -> d\n",
                       ARENA_EOVERFLOW,
                       "4: tensor: tensor 'd': 4611686018427387904 bytes take the sum of the "
                       "sizes past 2^64 - 1 bytes");
}

/* #12: a directory is said to be one; a UTF-8 byte order mark (spreadsheets
 * write one) is accepted before a CSV header and a graph file's first line. */
Test(files, repro_directory_and_byte_order_mark)
{
    struct arena_source s;
    char err[512], want[512];
    cr_assert_eq(arena_source_load(dir, 16, 1, &s, err, sizeof err), ARENA_EIO);
    snprintf(want, sizeof want, "%s: is a directory, not a problem (.csv) or graph (.graph) file",
             dir);
    cr_expect_str_eq(err, want);
    cr_expect_null(s.spec);
    const char *csv = write_text("bom.csv", "\xef\xbb\xbfid,lower,upper,size\na,0,1,16\n");
    cr_assert_eq(arena_source_load(csv, 16, 1, &s, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(s.problem.n, 1);
    arena_source_free(&s);
    const char *graph = write_text("bom", "\xef\xbb\xbf" HEAD "op a conv x -> y\n");
    cr_assert_eq(arena_source_load(graph, 16, 1, &s, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_str_eq(s.family, "graph-file");
    cr_expect_eq(s.problem.n, 2);
    arena_source_free(&s);
}

/* Found by fuzz_graph_file: an op named "a\r\r..." (a carriage return inside
 * a line is no blank) made the graph check's message span lines, since names
 * reach it as they are. Control characters are refused where they are read. */
Test(files, repro_fuzz_graph_control_character)
{
    struct arena_graph g;
    char err[512];
    FILE *f = fopen(REPRO "graph-control-char.graph", "rb");
    cr_assert_not_null(f);
    cr_assert_eq(arena_graph_file_read_stream(f, "cc.graph", NULL, &g, err, sizeof err),
                 ARENA_EFORMAT);
    fclose(f);
    /* line 2 is "op a\r\r\r\r\r\r\r c\377 x ->#h": the first \r is column 5 */
    cr_expect_str_eq(err, "cc.graph:2: line: control character 0x0d in column 5 (names and "
                          "kinds are printable text)");
    cr_expect_eq(g.n_tensors, 0);
    expect_graph_error("tensor x\x01 int8 4\n", ARENA_EFORMAT,
                       "1: line: control character 0x01 in column 9 (names and kinds are "
                       "printable text)");
    expect_graph_error("tensor x\tint8\t4 input\ntensor y int8 4 output\nop a conv x -> y\x7f\n",
                       ARENA_EFORMAT,
                       "3: line: control character 0x7f in column 17 (names and kinds are "
                       "printable text)");
}

/* round2 #18: an extension that names a format is trusted; the bytes are
 * sniffed only when it names none. A CSV whose first id puts "TFL3" at
 * bytes 4-7 is a CSV, a graph file likewise; a .tflite file is a model
 * (here refused as not one, not read as the CSV it holds). */
Test(files, an_extension_names_the_format)
{
    struct arena_source s;
    char err[512] = "", want[512];
    const char *csv = write_text("sniff.csv", "abcdTFL3,0,1,16\nx,1,2,32\n");
    cr_assert_eq(arena_source_load(csv, 16, 1, &s, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_str_eq(s.family, "csv");
    cr_expect_eq(s.problem.n, 2);
    arena_source_free(&s);
    const char *graph = write_text("sniff.graph", "# x TFL3\ntensor a fp32 4 input\n"
                                                  "tensor b fp32 4 output\nop o RELU a -> b\n");
    cr_assert_eq(arena_source_load(graph, 16, 1, &s, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_str_eq(s.family, "graph-file");
    cr_expect_eq(s.problem.n, 2);
    arena_source_free(&s);
    const char *model = write_text("text.tflite", "id,lower,upper,size\na,0,1,16\n");
    cr_expect_eq(arena_source_load(model, 16, 1, &s, err, sizeof err), ARENA_EFORMAT, "%s", err);
    snprintf(want, sizeof want,
             "%s: header: not a TensorFlow Lite model: bytes 4-7 are not \"TFL3\"", model);
    cr_expect_str_eq(err, want);
    /* No extension: sniffed, as before. */
    const char *plain = write_text("sniffed", "abcdTFL3,0,1,16\n");
    cr_expect_eq(arena_source_load(plain, 16, 1, &s, err, sizeof err), ARENA_EFORMAT);
    cr_expect_not_null(strstr(err, "root: offset out of range"), "%s", err);
}

/* The bytes of a small model: a (input) -> op -> b (output), fp32 [4]. */
static size_t small_model(unsigned char *out, size_t cap)
{
    static struct tfl_model m;
    memset(&m, 0, sizeof m);
    m.n_codes = 1;
    m.codes[0].builtin = 19; /* RELU */
    m.n_buffers = 1;
    m.n_subgraphs = 1;
    struct tfl_subgraph *g = &m.sub[0];
    g->n_tensors = 2;
    g->tensors[0] = (struct tfl_tensor){.name = "a", .type = 0, .rank = 1, .shape = {4}};
    g->tensors[1] = (struct tfl_tensor){.name = "b", .type = 0, .rank = 1, .shape = {4}};
    g->n_ops = 1;
    g->ops[0] = (struct tfl_op){.opcode = 0, .n_in = 1, .n_out = 1, .in = {0}, .out = {1}};
    g->n_in = g->n_out = 1;
    g->in[0] = 0;
    g->out[0] = 1;
    size_t n = tfl_write(&m, out, cap, NULL);
    cr_assert_gt(n, 8u);
    return n;
}

/* Loads /dev/fd/N, N the read end of a pipe a child fills with data. */
static int load_piped(const unsigned char *data, size_t len, struct arena_source *s, char *err,
                      size_t errlen)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    fflush(NULL);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        close(fd[0]);
        size_t at = 0;
        while (at < len) {
            ssize_t w = write(fd[1], data + at, len - at);
            if (w <= 0)
                _exit(1);
            at += (size_t)w;
        }
        _exit(0);
    }
    close(fd[1]);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", fd[0]);
    int rc = arena_source_load(path, 16, 1, s, err, errlen);
    close(fd[0]);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    return rc;
}

/* round2 #19: a pipe is read once, into memory, and then parsed: the bytes
 * looked at to tell the format are parsed too, for every format. */
Test(files, piped_input_of_every_format)
{
    struct arena_source s;
    char err[512] = "";
    const char *csv = "id,lower,upper,size\na,0,2,16\nb,1,3,32\n";
    cr_assert_eq(load_piped((const unsigned char *)csv, strlen(csv), &s, err, sizeof err),
                 ARENA_OK, "%s", err);
    cr_expect_str_eq(s.family, "csv");
    cr_expect_eq(s.problem.n, 2);
    arena_source_free(&s);
    const char *graph = "tensor a fp32 4 input\ntensor b fp32 4 output\nop o RELU a -> b\n";
    cr_assert_eq(load_piped((const unsigned char *)graph, strlen(graph), &s, err, sizeof err),
                 ARENA_OK, "%s", err);
    cr_expect_str_eq(s.family, "graph-file");
    cr_expect_eq(s.problem.n, 2);
    arena_source_free(&s);
    static unsigned char model[4096];
    size_t n = small_model(model, sizeof model);
    cr_assert_eq(load_piped(model, n, &s, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_str_eq(s.family, "tflite");
    cr_expect_eq(s.problem.n, 2);
    cr_expect_eq(s.ops, 1);
    arena_source_free(&s);
    /* A long CSV, past any sniffing prefix: every record is read. */
    size_t cap = 200000, len = 0;
    char *big = malloc(cap);
    cr_assert_not_null(big);
    len += (size_t)snprintf(big, cap, "id,lower,upper,size\n");
    for (int i = 0; i < 5000; i++)
        len += (size_t)snprintf(big + len, cap - len, "t%d,%d,%d,16\n", i, i, i + 2);
    cr_assert_eq(load_piped((unsigned char *)big, len, &s, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(s.problem.n, 5000);
    arena_source_free(&s);
    free(big);
}

/* round2 #19: a model file whose header cannot start a model of its size
 * (a root offset past its end) is refused from its first 8 bytes, never
 * read whole: under an address-space limit far below the file's 1.8 GB,
 * the refusal names the header, not a failed allocation. */
Test(files, an_impossible_model_header_is_refused_unread)
{
    TD_SKIP_UNDER_ASAN();
    const char *path = write_text("huge.tflite", "xxxxTFL3");
    cr_assert_eq(truncate(path, (off_t)1800 << 20), 0); /* sparse: no disk used */
    FILE *f = fopen("/proc/self/statm", "r");
    cr_assert_not_null(f);
    unsigned long pages = 0;
    cr_assert_eq(fscanf(f, "%lu", &pages), 1);
    fclose(f);
    rlim_t lim = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)256 << 20);
    struct rlimit rl = {lim, lim};
    cr_assert_eq(setrlimit(RLIMIT_AS, &rl), 0);
    struct arena_source s;
    char err[512] = "", want[512];
    cr_expect_eq(arena_source_load(path, 16, 1, &s, err, sizeof err), ARENA_EFORMAT, "%s", err);
    snprintf(want, sizeof want,
             "%s: Model: root: offset out of range: table at byte 2021161080, file is"
             " 1887436800 bytes",
             path);
    cr_expect_str_eq(err, want);
}
