/* test_export.c — bench --export-plan's files: the C header and source of
 * every planner's plan of MobileNetV2 compile warning-free as C11, link as
 * one library from two translation units, and survive the byte-pattern
 * check on real memory (export_check.h); the CSV holds one row per tensor at
 * the header's offsets with its source index; identifiers and prefixes are
 * unique; files are written whole or not at all; and the pattern check does
 * catch a plan that overlaps live tensors. Round 2's findings #5, #9-#12
 * have their reproducers in tests/repro/. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include "bench/args.h"
#include "bench/export_plan.h"
#include "graphs/source.h"
#include "planners/planner.h"
#include "tests/export_check.h"
#include "tests/tflite_writer.h"

#define REPRO ARENA_SOURCE_ROOT "/tests/repro/"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/arena-export-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

TestSuite(export, .init = make_dir, .fini = remove_dir);

Test(export, every_planner_on_mobilenetv2_compiles_and_holds)
{
    size_t n = arena_planner_count();
    cr_expect_eq(ec_check_all("mobilenetv2", dir, 100, 64), n);
}

/* Three tensors: a [0,1] 32 B, b [1,2] 16 B, c [2,2] 16 B; a and b conflict,
 * b and c conflict, a and c do not. Names "x", "x" and "1st" become X, X_1
 * and T1ST. With head 10 the activations start at 16; offsets a 0, b 32,
 * c 0 give arena 48, so ACT_BYTES 48, TAIL 64, ARENA_BYTES 64 + 16 = 80. */
static const struct arena_tensor three[] = {{32, 0, 1}, {16, 1, 2}, {16, 2, 2}};

static void export_three(uint64_t *off, uint64_t arena)
{
    struct arena_problem p = {3, three, 16};
    struct arena_plan plan = {.n = 3, .offsets = off, .arena = arena};
    char *names[] = {"x", "x", "1st"};
    struct arena_export x = {.title = "three", .prefix = "THREE", .p = &p, .names = names,
                             .plan = &plan, .head = 10, .tail = 16};
    char err[300] = "";
    cr_assert_eq(arena_export_plan(dir, "three", &x, err, sizeof err), ARENA_OK, "%s", err);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

Test(export, layout_names_and_csv)
{
    uint64_t off[3] = {0, 32, 0};
    export_three(off, 48);
    char path[128];
    snprintf(path, sizeof path, "%s/three.csv", dir);
    cr_expect_str_eq(slurp(path), "name,index,size,first,last,offset\n"
                                  "x,0,32,0,1,16\n"
                                  "x,1,16,1,2,48\n"
                                  "1st,2,16,2,2,16\n");
    snprintf(path, sizeof path, "%s/three.h", dir);
    const char *h = slurp(path);
    const char *want[] = {
        "#define THREE_HEAD_BYTES 10u\n",  "#define THREE_ACT 16u\n",
        "#define THREE_ACT_BYTES 48u\n",   "#define THREE_TAIL 64u\n",
        "#define THREE_ARENA_BYTES 80u\n", "#define THREE_X_OFFSET 16u\n",
        "#define THREE_X_1_OFFSET 48u\n",  "#define THREE_T1ST_OFFSET 16u\n",
        "#define THREE_X_1_INDEX 1u\n",
        "byte offset from the start of the\n * arena, the head included",
        "extern uint8_t THREE_arena[THREE_ARENA_BYTES];",
        "extern const struct THREE_tensor THREE_tensors[THREE_TENSORS];",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect_not_null(strstr(h, want[i]), "header lacks %s", want[i]);
    /* the header defines nothing: no storage, no initialiser */
    cr_expect_null(strstr(h, "static"));
    cr_expect_null(strstr(h, "= {"));
    snprintf(path, sizeof path, "%s/three.c", dir);
    const char *c = slurp(path);
    cr_expect_not_null(strstr(c, "#include \"three.h\"\n"));
    cr_expect_not_null(strstr(c, "_Alignas(16) uint8_t THREE_arena[THREE_ARENA_BYTES];"));
    cr_expect_not_null(strstr(c, "{THREE_X_1_OFFSET, THREE_X_1_SIZE, 1u, 2u, THREE_X_1_INDEX},"));
    snprintf(path, sizeof path, "%s/three.h", dir);
    cr_expect_eq(ec_run(dir, path), 0);
}

Test(export, the_pattern_check_catches_an_overlap)
{
    uint64_t off[3] = {0, 16, 0}; /* b overlaps a's second half while both live */
    export_three(off, 32);
    char path[128];
    snprintf(path, sizeof path, "%s/three.h", dir);
    cr_expect_eq(ec_run(dir, path), 1);
}

Test(export, command_line)
{
    char *argv[] = {"bench", "--graph", "chain", "--export-plan", "out/plans", "--head", "4096",
                    "--tail", "512", NULL};
    struct arena_bench_args a;
    char err[300] = "";
    cr_assert_eq(arena_bench_args_parse(9, argv, &a, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_str_eq(a.export_plan_dir, "out/plans");
    cr_expect_eq(a.head, 4096);
    cr_expect_eq(a.tail, 512);
    arena_bench_args_free(&a);
    char *bad[] = {"bench", "--graph", "chain", "--export-plan", "", NULL};
    cr_expect_eq(arena_bench_args_parse(5, bad, &a, err, sizeof err), ARENA_EINVAL);
    cr_expect_str_eq(err, "--export-plan: empty folder name");
    arena_bench_args_free(&a);
}

/* Every file input names its tensors in the exports: the graph file's
 * tensor names, the CSV's ids, a family's generated names (chain: t0, t1,
 * ...). Finds the one NAME.csv / NAME.h that a single planner wrote into sub. */
static void exported(const char *sub, const char *ext, char *path, size_t cap)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls '%s'/*.%s", sub, ext);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    cr_assert_not_null(fgets(path, (int)cap, p), "no .%s in %s", ext, sub);
    path[strcspn(path, "\n")] = '\0';
    char more[8];
    cr_expect_null(fgets(more, sizeof more, p), "more than one .%s in %s", ext, sub);
    pclose(p);
}

static void export_one(const char *text, const char *sub)
{
    struct arena_source src;
    char err[300] = "";
    cr_assert_eq(arena_source_load(text, 16, 1, &src, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_not_null(src.names, "%s: no names", text);
    const struct arena_planner *pl[1] = {arena_planner_find("greedy-by-size")};
    cr_assert_not_null(pl[0]);
    cr_assert_eq(mkdir(sub, 0755), 0);
    struct arena_plan_options opt = arena_plan_options_default;
    cr_assert_eq(arena_export_plans(sub, &src, pl, 1, &opt, 0, 0, NULL, err, sizeof err), ARENA_OK,
                 "%s", err);
    arena_source_free(&src);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

/* Four tensors of a graph file, 16-byte aligned sizes: "in" 1x16 int8 = 16
 * B (input, [0,0]), "conv/out" 2x16 int8 = 32 B ([0,1]), "conv.out" 16 int8
 * = 16 B ([1,2]), "9lives" 16 int8 = 16 B (output, [2,2]). ops a (step 0)
 * in -> conv/out, b (1) conv/out -> conv.out, c (2) conv.out -> 9lives.
 * Greedy by size: conv/out at 0; in, conv.out live with it: 32; 9lives
 * lives with conv.out only: 0. "conv/out" and "conv.out" both make
 * CONV_OUT: the second gets CONV_OUT_2 (its id); "9lives" becomes T9LIVES. */
Test(export, graph_file_csv_and_family_names_reach_csv_and_header)
{
    char path[256], sub[256], csv[256], h[256];
    snprintf(path, sizeof path, "%s/named.graph", dir);
    write_text(path, "tensor in int8 1x16 input\n"
                     "tensor conv/out int8 2x16\n"
                     "tensor conv.out int8 16\n"
                     "tensor 9lives int8 16 output\n"
                     "op a conv2d in -> conv/out\n"
                     "op b relu conv/out -> conv.out\n"
                     "op c add conv.out -> 9lives\n");
    snprintf(sub, sizeof sub, "%s/g", dir);
    export_one(path, sub);
    exported(sub, "csv", csv, sizeof csv);
    cr_expect_str_eq(slurp(csv), "name,index,size,first,last,offset\n"
                                 "in,0,16,0,0,32\n"
                                 "conv/out,1,32,0,1,0\n"
                                 "conv.out,2,16,1,2,32\n"
                                 "9lives,3,16,2,2,0\n");
    exported(sub, "h", h, sizeof h);
    const char *text = slurp(h);
    const char *want[] = {"_IN_OFFSET 32u\n", "_CONV_OUT_OFFSET 0u\n", "_CONV_OUT_2_OFFSET 32u\n",
                          "_T9LIVES_OFFSET 0u\n"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect_not_null(strstr(text, want[i]), "header lacks %s", want[i]);
    cr_expect_eq(ec_run(sub, h), 0);

    /* A CSV's ids: buffers b0 [0,2) 32 B and "w;1" [1,3) 16 B; the times
     * compress to steps 0 and 1 (the lowers), so b0 is [0,1] and w;1 [1,1]
     * (its upper 3 - 1 = 2 falls to step 1): they meet at step 1; greedy
     * by size puts b0 at 0 and w;1 at 32; "w;1" makes the identifier W_1. */
    snprintf(path, sizeof path, "%s/ids.csv", dir);
    write_text(path, "id,lower,upper,size\nb0,0,2,32\nw;1,1,3,16\n");
    snprintf(sub, sizeof sub, "%s/c", dir);
    export_one(path, sub);
    exported(sub, "csv", csv, sizeof csv);
    cr_expect_str_eq(slurp(csv), "name,index,size,first,last,offset\n"
                                 "b0,0,32,0,1,0\n"
                                 "w;1,1,16,1,1,32\n");
    exported(sub, "h", h, sizeof h);
    cr_expect_not_null(strstr(slurp(h), "_W_1_OFFSET 32u\n"));

    /* A family's graph: chain names its tensors t0 .. t3 in id order. */
    snprintf(sub, sizeof sub, "%s/f", dir);
    export_one("chain:ops=3", sub);
    exported(sub, "csv", csv, sizeof csv);
    size_t lines = 0;
    for (char *save = NULL, *l = strtok_r(slurp(csv), "\n", &save); l;
         l = strtok_r(NULL, "\n", &save), lines++) {
        if (lines == 0)
            continue;
        char want_name[32];
        snprintf(want_name, sizeof want_name, "t%zu,", lines - 1);
        cr_expect(strncmp(l, want_name, strlen(want_name)) == 0, "line %zu: %s", lines, l);
    }
    cr_expect_eq(lines, 5);
}

/* Exports text's greedy-by-size plan (alignment 16, head and tail 0) into
 * sub, created here; names not required. */
static void export_into(const char *text, const char *sub)
{
    struct arena_source src;
    char err[600] = "";
    cr_assert_eq(arena_source_load(text, 16, 1, &src, err, sizeof err), ARENA_OK, "%s", err);
    const struct arena_planner *pl[1] = {arena_planner_find("greedy-by-size")};
    cr_assert_not_null(pl[0]);
    mkdir(sub, 0755);
    struct arena_plan_options opt = arena_plan_options_default;
    cr_assert_eq(arena_export_plans(sub, &src, pl, 1, &opt, 0, 0, NULL, err, sizeof err), ARENA_OK,
                 "%s", err);
    arena_source_free(&src);
}

static void copy_file(const char *from, const char *to)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", from, to);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* The guard line's prefix of header h. */
static void guard_of(const char *h, char *out, size_t cap)
{
    char line[512];
    FILE *f = fopen(h, "r");
    cr_assert_not_null(f, "%s", h);
    out[0] = '\0';
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "#ifndef ", 8) == 0) {
            snprintf(out, cap, "%s", line + 8);
            out[strcspn(out, "\n")] = '\0';
            break;
        }
    fclose(f);
    cr_assert(out[0], "%s: no guard", h);
}

/* Round 2 #5: ga/p.csv (x 16 B, y 32 B) and gb/p.csv (y 48 B, x 16 B) got
 * one prefix and guard, P_GREEDY_BY_SIZE_PLAN_H, so a program including
 * both read graph a's offsets for graph b's tensors. Greedy by size puts
 * a's y at 0 and x at 32, b's y at 0 and x at 48. Now the prefixes differ
 * (the fingerprint is in them), and one program including both headers and
 * linking both sources reads 32 and 48. */
Test(export, repro5_two_graphs_one_file_name_two_prefixes)
{
    char ga[1024], gb[1024], a[1100], b[1100], ha[1024], hb[1024], prog[1100], cmd[8192];
    snprintf(ga, sizeof ga, "%s/ga", dir);
    snprintf(gb, sizeof gb, "%s/gb", dir);
    cr_assert_eq(mkdir(ga, 0755), 0);
    cr_assert_eq(mkdir(gb, 0755), 0);
    snprintf(a, sizeof a, "%s/p.csv", ga);
    snprintf(b, sizeof b, "%s/p.csv", gb);
    copy_file(REPRO "export-guard/ga/p.csv", a);
    copy_file(REPRO "export-guard/gb/p.csv", b);
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/ea", dir);
    export_into(a, sub);
    exported(sub, "h", ha, sizeof ha);
    snprintf(sub, sizeof sub, "%s/eb", dir);
    export_into(b, sub);
    exported(sub, "h", hb, sizeof hb);
    char pa[1024], pb[1024];
    guard_of(ha, pa, sizeof pa);
    guard_of(hb, pb, sizeof pb);
    cr_expect_str_neq(pa, pb, "one guard for two graphs");
    pa[strlen(pa) - 7] = '\0'; /* _PLAN_H */
    pb[strlen(pb) - 7] = '\0';
    snprintf(prog, sizeof prog, "%s/both.c", dir);
    FILE *f = fopen(prog, "w");
    cr_assert_not_null(f);
    fprintf(f, "#include <stdio.h>\n#include \"%s\"\n#include \"%s\"\n"
               "int main(void) { printf(\"%%llu %%llu\", (unsigned long long)%s_X_OFFSET,"
               " (unsigned long long)%s_X_OFFSET); return 0; }\n",
            ha, hb, pa, pb);
    fclose(f);
    size_t la = strlen(ha), lb = strlen(hb);
    snprintf(cmd, sizeof cmd,
             "cc -std=c11 -Wall -Wextra -Werror -pedantic -o '%s/both' '%s' '%.*s.c' '%.*s.c' "
             "&& '%s/both' > '%s/both.out'",
             dir, prog, (int)(la - 2), ha, (int)(lb - 2), hb, dir, dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    snprintf(prog, sizeof prog, "%s/both.out", dir);
    cr_expect_str_eq(slurp(prog), "32 48");
}

/* The pieces of tests/tflite_writer.h for a two-subgraph model:
 *   subgraph 0: tensors 0 in fp32 [1,4] input, 1 w fp32 [4] constant
 *               (buffer 1), 2 h fp32 [1,4], 3 out int8 [1,4] output, 4
 *               spare (touched by nothing); ops ADD(in, w) -> h,
 *               QUANTIZE(h) -> out. Planned: in, h, out = indices 0, 2, 3.
 *   subgraph 1: x fp32 [8] input -> QUANTIZE -> y int8 [8] output. */
static void tensor(struct tfl_subgraph *s, const char *name, int type, uint32_t buffer,
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

static void op(struct tfl_subgraph *s, uint32_t opcode, size_t n_in, const int32_t *in,
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

static void two_subgraphs(struct tfl_model *m)
{
    memset(m, 0, sizeof *m);
    m->n_codes = 2;
    m->codes[0].builtin = 0;   /* ADD */
    m->codes[1].builtin = 114; /* QUANTIZE */
    m->n_buffers = 2;
    m->buffer_bytes[1] = 16;
    m->n_subgraphs = 2;
    struct tfl_subgraph *s = &m->sub[0];
    tensor(s, "in", 0, 0, 2, 1, 4);
    tensor(s, "w", 0, 1, 1, 4, 0);
    tensor(s, "h", 0, 0, 2, 1, 4);
    tensor(s, "out", 9, 0, 2, 1, 4);
    tensor(s, "spare", 0, 0, 1, 2, 0);
    op(s, 0, 2, (int32_t[]){0, 1}, 2);
    op(s, 1, 1, (int32_t[]){2}, 3);
    s->n_in = s->n_out = 1;
    s->in[0] = 0;
    s->out[0] = 3;
    s = &m->sub[1];
    tensor(s, "x", 0, 0, 1, 8, 0);
    tensor(s, "y", 9, 0, 1, 8, 0);
    op(s, 1, 1, (int32_t[]){0}, 1);
    s->n_in = s->n_out = 1;
    s->in[0] = 0;
    s->out[0] = 1;
}

static void save_model(const struct tfl_model *m, const char *path)
{
    static unsigned char buf[16384];
    size_t n = tfl_write(m, buf, sizeof buf, NULL);
    cr_assert_gt(n, 8u);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(buf, 1, n, f), n);
    cr_assert_eq(fclose(f), 0);
}

/* #5 for the subgraphs of one model: m.tflite#0 and m.tflite#1 both had
 * the prefix M_...: now _SG0 and _SG1 tell them apart. And each tensor
 * carries its .tflite index: in, h, out of subgraph 0 are 0, 2, 3 (w is a
 * constant, spare is touched by nothing). */
Test(export, repro5_subgraphs_and_tflite_indices)
{
    struct tfl_model m;
    two_subgraphs(&m);
    char path[1024], text[1100], sub[1024], h0[1024], h1[1024], csv[1024], p0[1024], p1[1024];
    snprintf(path, sizeof path, "%s/m.tflite", dir);
    save_model(&m, path);
    snprintf(text, sizeof text, "%s#0", path);
    snprintf(sub, sizeof sub, "%s/s0", dir);
    export_into(text, sub);
    exported(sub, "h", h0, sizeof h0);
    exported(sub, "csv", csv, sizeof csv);
    cr_expect_str_eq(slurp(csv), "name,index,size,first,last,offset\n"
                                 "in,0,16,0,0,0\n"
                                 "h,2,16,0,1,16\n"
                                 "out,3,16,1,1,0\n");
    const char *t = slurp(h0);
    cr_expect_not_null(strstr(t, "_H_INDEX 2u\n"));
    cr_expect_not_null(strstr(t, "_OUT_INDEX 3u\n"));
    cr_expect_eq(ec_run(sub, h0), 0);
    snprintf(text, sizeof text, "%s#1", path);
    snprintf(sub, sizeof sub, "%s/s1", dir);
    export_into(text, sub);
    exported(sub, "h", h1, sizeof h1);
    guard_of(h0, p0, sizeof p0);
    guard_of(h1, p1, sizeof p1);
    cr_expect_str_neq(p0, p1);
    cr_expect_not_null(strstr(p0, "_SG0_"), "%s", p0);
    cr_expect_not_null(strstr(p1, "_SG1_"), "%s", p1);
}

/* Round 2 #9: a path with "slash star" made the header's first comment
 * hold a nested comment opener (-Werror=comment). */
Test(export, repro9_slash_star_in_the_path)
{
    char odd[1024], csv[1100], sub[1024], h[1024];
    snprintf(odd, sizeof odd, "%s/*dir", dir);
    cr_assert_eq(mkdir(odd, 0755), 0);
    snprintf(csv, sizeof csv, "%s/p.csv", odd);
    copy_file(REPRO "export-slashstar.csv", csv);
    snprintf(sub, sizeof sub, "%s/out", dir);
    export_into(csv, sub);
    exported(sub, "h", h, sizeof h);
    cr_expect_eq(ec_run(sub, h), 0);
}

/* Round 2 #10: the empty problem (a header-only CSV; an all-constant model
 * loads as the same) gave zero-size arrays and empty braces. */
Test(export, repro10_the_empty_problem)
{
    const char *inputs[] = {REPRO "export-empty.csv", REPRO "tfl-all-constant.tflite"};
    for (size_t i = 0; i < 2; i++) {
        char sub[1024], h[1024];
        snprintf(sub, sizeof sub, "%s/e%zu", dir, i);
        export_into(inputs[i], sub);
        exported(sub, "h", h, sizeof h);
        cr_expect_not_null(strstr(slurp(h), "_TENSORS 0u\n"), "%s", inputs[i]);
        cr_expect_eq(ec_run(sub, h), 0, "%s", inputs[i]);
    }
}

/* Files in dir (not . and ..), joined with spaces. */
static void listing(const char *d, char *out, size_t cap)
{
    DIR *dd = opendir(d);
    cr_assert_not_null(dd);
    out[0] = '\0';
    struct dirent *e;
    while ((e = readdir(dd)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            snprintf(out + strlen(out), cap - strlen(out), "%s ", e->d_name);
    closedir(dd);
}

/* Round 2 #11: a full disk left a cut .csv and .h behind. The disk is
 * simulated by RLIMIT_FSIZE in a child (a write past it fails with EFBIG):
 * at 4 KiB the CSV of 100 tensors (about 2.5 KiB) fits and the header
 * does not. The export
 * fails with one line and leaves the folder empty; without the limit the
 * same export writes the three files and no temporary. */
Test(export, repro11_a_failed_write_leaves_nothing)
{
    char sub[1024], files[1024];
    snprintf(sub, sizeof sub, "%s/full", dir);
    cr_assert_eq(mkdir(sub, 0755), 0);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        struct rlimit lim = {4096, 4096};
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0)
            _exit(9);
        struct arena_source src;
        char err[600] = "";
        if (arena_source_load("random-intervals:n=100", 16, 1, &src, err, sizeof err))
            _exit(8);
        const struct arena_planner *pl[1] = {arena_planner_find("naive")};
        int rc = arena_export_plans(sub, &src, pl, 1, NULL, 0, 0, NULL, err, sizeof err);
        _exit(rc == ARENA_EIO && strstr(err, ".h.tmp: cannot write") && !strchr(err, '\n') ? 0
                                                                                      : 1);
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
    listing(sub, files, sizeof files);
    cr_expect_str_eq(files, "", "left behind: %s", files);
    export_into("random-intervals:n=100", sub);
    listing(sub, files, sizeof files);
    cr_expect_null(strstr(files, ".tmp"), "%s", files);
    cr_expect_not_null(strstr(files, ".h "), "%s", files);
    cr_expect_not_null(strstr(files, ".c "), "%s", files);
    cr_expect_not_null(strstr(files, ".csv "), "%s", files);
}

/* Round 2 #12: a, a_5, a_5_5, a_5_5_5, a_5_5_5_5 and A collide after
 * sanitising once a suffix is added; the fifth suffix gave "out of memory".
 * Now six distinct identifiers, and the header holds. */
Test(export, repro12_six_names_that_collide)
{
    char sub[1024], h[1024];
    snprintf(sub, sizeof sub, "%s/c", dir);
    export_into(REPRO "export-collide5.csv", sub);
    exported(sub, "h", h, sizeof h);
    const char *t = slurp(h);
    size_t offsets = 0;
    for (const char *p = t; (p = strstr(p, "_OFFSET ")); p++)
        offsets += p[8] >= '0' && p[8] <= '9'; /* a definition, not the comment */
    cr_expect_eq(offsets, 6, "%s", t);
    cr_expect_eq(ec_run(sub, h), 0);
}
