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

#include "bench/core/args.h"
#include "bench/bench.h"
#include "bench/export/export_plan.h"
#include "graphs/family.h"
#include "graphs/source.h"
#include "graphs/tflite.h"
#include "planners/planner.h"
#include "bench/export/export_tflite.h"
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

/* In-place plans (suite slow): every planner's export holds when each
 * in-place op reads its input before it writes its output. */
Test(export, every_planner_in_place_holds)
{
    size_t n = arena_planner_count();
    cr_expect_eq(ec_check_all_inplace("mobilenetv2", ARENA_INPLACE_DEPTHWISE, dir, 0, 0), n);
    char sub[300];
    snprintf(sub, sizeof sub, "%s/elementwise", dir);
    cr_assert_eq(mkdir(sub, 0700), 0);
    cr_expect_eq(ec_check_all_inplace("mobilenetv2:fused=0", ARENA_INPLACE_ELEMENTWISE, sub, 16,
                                      16),
                 n);
}

/* One in-place plan: the pairs are in the CSV and the header, the check
 * passes, and the same plan fails it when the program writes the outputs
 * first (so the read-before-write order is what makes it pass). */
Test(export, an_in_place_plan_says_what_shares_and_holds_only_read_before_write)
{
    struct arena_source src;
    char err[600] = "";
    struct arena_load_options lo = {.alignment = 16, .seed = 1,
                                    .inplace = ARENA_INPLACE_ELEMENTWISE};
    cr_assert_eq(arena_source_load_with("mobilenetv2:fused=0", &lo, &src, err, sizeof err),
                 ARENA_OK, "%s", err);
    const struct arena_planner *pl[] = {arena_planner_find("greedy-by-size")};
    cr_assert_eq(arena_export_plans(dir, &src, pl, 1, 0, NULL, 0, 0, NULL, err, sizeof err),
                 ARENA_OK, "%s", err);
    arena_source_free(&src);
    char cmd[800], line[512];
    snprintf(cmd, sizeof cmd,
             "grep -c ',block1/depthwise/depthwise_conv2d$' %s/*.csv; grep -h '^name,' %s/*.csv;"
             " grep -c 'BLOCK1_DEPTHWISE_BATCH_NORM takes BLOCK1_DEPTHWISE_DEPTHWISE_CONV2D' %s/*.c;"
             " ls %s/*.h",
             dir, dir, dir, dir);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    cr_assert_not_null(fgets(line, sizeof line, p));
    cr_expect_eq(atoi(line), 1, "block1/depthwise/batch_norm shares the conv's bytes");
    cr_assert_not_null(fgets(line, sizeof line, p));
    cr_expect_str_eq(line, "name,index,size,first,last,offset,shares\n");
    cr_assert_not_null(fgets(line, sizeof line, p));
    cr_expect_eq(atoi(line), 1, "the pair in the source: %s", line);
    cr_assert_not_null(fgets(line, sizeof line, p));
    pclose(p);
    line[strcspn(line, "\n")] = '\0';
    cr_expect_eq(ec_run_with(dir, line, 1), 0);
    cr_expect_eq(ec_run_with(dir, line, 0), 1, "outputs written first overwrite their inputs");
}

/* Three tensors: a [0,1] 32 B, b [1,2] 16 B, c [2,2] 16 B; a and b conflict,
 * b and c conflict, a and c do not. Names "x", "x" and "1st" become X, X_1
 * and T1ST. With head 10 the activations start at 16; offsets a 0, b 32,
 * c 0 give arena 48, so ACT_BYTES 48, TAIL 64, ARENA_BYTES 64 + 16 = 80. */
static const struct arena_tensor three[] = {{32, 0, 1}, {16, 1, 2}, {16, 2, 2}};

static void export_three(uint64_t *off, uint64_t arena)
{
    struct arena_problem p = {.n = 3, .tensors = three, .alignment = 16};
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

/* A problem at alignment 4, so the activations' bytes are no multiple of
 * 16: a [0,1] 20 B, b [1,2] 16 B, c [2,2] 8 B at offsets 0, 20, 0 (a and b
 * meet at step 1; c is live only with b, below it): arena 36. Head 10 and
 * tail 100: ACT = 16 (10 up to 16), ACT_BYTES = 48 (36 up to 16), TAIL =
 * 16 + 48 = 64, TAIL_BYTES = 100, ARENA_BYTES = 64 + 112 (100 up to 16) =
 * 176; the offsets from the arena's start are a 16, b 36, c 16. */
Test(export, unaligned_activations_and_tail_round_up_to_16)
{
    static const struct arena_tensor t[] = {{20, 0, 1}, {16, 1, 2}, {8, 2, 2}};
    uint64_t off[3] = {0, 20, 0};
    struct arena_problem p = {.n = 3, .tensors = t, .alignment = 4};
    struct arena_plan plan = {.n = 3, .offsets = off, .arena = 36};
    char *names[] = {"a", "b", "c"};
    struct arena_export x = {.title = "four", .prefix = "FOUR", .p = &p, .names = names,
                             .plan = &plan, .head = 10, .tail = 100};
    char err[300] = "", path[128];
    cr_assert_eq(arena_export_plan(dir, "four", &x, err, sizeof err), ARENA_OK, "%s", err);
    snprintf(path, sizeof path, "%s/four.h", dir);
    const char *h = slurp(path);
    const char *want[] = {"#define FOUR_ACT 16u\n",         "#define FOUR_ACT_BYTES 48u\n",
                          "#define FOUR_TAIL 64u\n",        "#define FOUR_TAIL_BYTES 100u\n",
                          "#define FOUR_ARENA_BYTES 176u\n", "#define FOUR_A_OFFSET 16u\n",
                          "#define FOUR_B_OFFSET 36u\n",     "#define FOUR_C_OFFSET 16u\n"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect_not_null(strstr(h, want[i]), "header lacks %s", want[i]);
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
    char *tfl[] = {"bench", "--graph", "m.tflite", "--export-tflite", "out/models", NULL};
    cr_assert_eq(arena_bench_args_parse(5, tfl, &a, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_str_eq(a.export_tflite_dir, "out/models");
    arena_bench_args_free(&a);
    char *tfl_bad[] = {"bench", "--graph", "m.tflite", "--export-tflite", "", NULL};
    cr_expect_eq(arena_bench_args_parse(5, tfl_bad, &a, err, sizeof err), ARENA_EINVAL);
    cr_expect_str_eq(err, "--export-tflite: empty folder name");
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
    cr_assert_eq(arena_export_plans(sub, &src, pl, 1, 0, &opt, 0, 0, NULL, err, sizeof err), ARENA_OK,
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
    cr_assert_eq(arena_export_plans(sub, &src, pl, 1, 0, &opt, 0, 0, NULL, err, sizeof err), ARENA_OK,
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
    tfl_add_tensor(s, "in", 0, 0, 2, 1, 4);
    tfl_add_tensor(s, "w", 0, 1, 1, 4, 0);
    tfl_add_tensor(s, "h", 0, 0, 2, 1, 4);
    tfl_add_tensor(s, "out", 9, 0, 2, 1, 4);
    tfl_add_tensor(s, "spare", 0, 0, 1, 2, 0);
    tfl_add_op(s, 0, 2, (int32_t[]){0, 1}, 2);
    tfl_add_op(s, 1, 1, (int32_t[]){2}, 3);
    s->n_in = s->n_out = 1;
    s->in[0] = 0;
    s->out[0] = 3;
    s = &m->sub[1];
    tfl_add_tensor(s, "x", 0, 0, 1, 8, 0);
    tfl_add_tensor(s, "y", 9, 0, 1, 8, 0);
    tfl_add_op(s, 1, 1, (int32_t[]){0}, 1);
    s->n_in = s->n_out = 1;
    s->in[0] = 0;
    s->out[0] = 1;
}

static void save_model(const struct tfl_model *m, const char *path)
{
    tfl_save(m, path);
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
        int rc = arena_export_plans(sub, &src, pl, 1, 0, NULL, 0, 0, NULL, err, sizeof err);
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

/* bench in a child under a file size limit of `limit` bytes with SIGXFSZ
 * at its default (as a shell's `ulimit -f` leaves it), stderr in err_path;
 * returns the wait status. */
static int bench_under_limit(const char *const *args, rlim_t limit, const char *err_path)
{
    fflush(NULL);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        struct rlimit lim = {limit, limit};
        signal(SIGXFSZ, SIG_DFL);
        if (!freopen(err_path, "w", stderr) || setrlimit(RLIMIT_FSIZE, &lim) != 0)
            _exit(99);
        char *argv[16] = {"bench"};
        int argc = 1;
        for (; args[argc - 1] && argc < 15; argc++)
            argv[argc] = (char *)args[argc - 1];
        argv[argc] = NULL;
        int rc = arena_bench_main(argc, argv);
        fflush(NULL);
        _exit(rc);
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    return status;
}

/* Round 3 #07: past `ulimit -f` bench died of SIGXFSZ (exit 153) without a
 * word, leaving NAME.csv.tmp and NAME.tflite.tmp behind. Now the write
 * fails: exit 2, one line naming the file and the cause, nothing left.
 * The limit, 512 B, is below each file: the CSV of 100 tensors (about
 * 2.5 KiB) and the model's copy (its 888 B and the plan). */
Test(export, repro07_past_the_file_size_limit_one_line_and_nothing_left)
{
    struct tfl_model m;
    two_subgraphs(&m);
    char model[1024], plans[1024], copies[1024], err_path[1024], files[1024];
    snprintf(model, sizeof model, "%s/m.tflite", dir);
    save_model(&m, model);
    struct stat st;
    cr_assert_eq(stat(model, &st), 0);
    cr_assert_gt(st.st_size, 512, "the model (%lld B) passes the limit",
                 (long long)st.st_size);
    snprintf(plans, sizeof plans, "%s/p", dir);
    snprintf(copies, sizeof copies, "%s/t", dir);
    snprintf(err_path, sizeof err_path, "%s/err", dir);
    const char *plan_args[] = {"--graph", "random-intervals:n=100", "--planner", "naive",
                               "--no-db", "--quiet", "--export-plan", plans, NULL};
    const char *copy_args[] = {"--graph", model, "--planner", "naive", "--no-db", "--quiet",
                               "--export-tflite", copies, NULL};
    const char *const *cases[] = {plan_args, copy_args};
    const char *dirs[] = {plans, copies}, *says[] = {".csv.tmp: cannot write (File too large)",
                                                      ".tflite.tmp: cannot write (File too large)"};
    for (int k = 0; k < 2; k++) {
        int status = bench_under_limit(cases[k], 512, err_path);
        cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 2, "%s: status %d", dirs[k],
                  status);
        const char *err = slurp(err_path);
        cr_expect(strncmp(err, "bench: ", 7) == 0 && strchr(err, '\n') == err + strlen(err) - 1,
                  "one line: %s", err);
        cr_expect_not_null(strstr(err, says[k]), "%s", err);
        listing(dirs[k], files, sizeof files);
        cr_expect_str_eq(files, "", "left behind in %s: %s", dirs[k], files);
    }
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

/* ---- --export-tflite: TFLM's offline plan written into the model
 * (bench/export/export_tflite.h). Decoded by Debian's flatc with a reduced schema
 * of our own (tests/tflite_reduced.fbs) and jq. */

#define SCHEMA ARENA_SOURCE_ROOT "/tests/tflite_reduced.fbs"

static int have_tools(void)
{
    return system("command -v flatc >/dev/null 2>&1 && command -v jq >/dev/null 2>&1") == 0;
}

/* model decoded by flatc into JSON, then `jq -r program` on it; the output
 * in out. */
static void decode(const char *model, const char *program, char *out, size_t cap)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "rm -rf '%s/dec' && mkdir '%s/dec' && cp '%s' '%s/dec/m.tflite' && "
             "flatc --json --strict-json -o '%s/dec' '%s' -- '%s/dec/m.tflite' && "
             "jq -r '%s' '%s/dec/m.json' > '%s/dec/out'",
             dir, dir, model, dir, dir, SCHEMA, dir, program, dir, dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    snprintf(cmd, sizeof cmd, "%s/dec/out", dir);
    snprintf(out, cap, "%s", slurp(cmd));
}

/* The number of OfflineMemoryAllocation entries, then the plan's int32
 * values, one a line. */
static const char plan_jq[] =
    "[.metadata[]? | select(.name == \"OfflineMemoryAllocation\")] as $m | ($m | length), "
    "(if ($m | length) > 0 then (.buffers[$m[0].buffer].data as $d | range(0; $d | length; 4)"
    " | $d[.] + 256 * $d[. + 1] + 65536 * $d[. + 2] + 16777216 * $d[. + 3]"
    " | if . >= 2147483648 then . - 4294967296 else . end) else empty end)";

/* Everything but the metadata and the buffers the writer appends: what
 * must be unchanged. */
static const char rest_jq[] = "del(.metadata) | .buffers |= .[0:%zu]";

/* The plan arena_export_tflites writes for text with greedy-by-size, as
 * TFLM reads it: [0, subgraphs, n, offsets of every tensor of every
 * subgraph or -1]. */
static size_t expected_plan(const char *text, uint32_t sub, const size_t *tensors, size_t subgraphs,
                            long long *want, size_t cap)
{
    struct arena_source src;
    char err[600] = "";
    cr_assert_eq(arena_source_load(text, 16, 1, &src, err, sizeof err), ARENA_OK, "%s", err);
    const struct arena_planner *pl = arena_planner_find("greedy-by-size");
    size_t bytes = 0;
    cr_assert_eq(arena_planner_scratch(pl, &src.problem, &bytes), ARENA_OK);
    void *scratch = malloc(bytes ? bytes : 1);
    uint64_t *off = malloc((src.problem.n ? src.problem.n : 1) * sizeof *off);
    struct arena_plan plan = {.n = src.problem.n, .offsets = off};
    cr_assert_eq(arena_planner_run(pl, &src.problem, NULL, scratch, bytes, &plan), ARENA_OK);
    size_t total = 0, first = 0;
    for (size_t s = 0; s < subgraphs; s++) {
        if (s == sub)
            first = total;
        total += tensors[s];
    }
    cr_assert(3 + total <= cap);
    want[0] = 0;
    want[1] = (long long)subgraphs;
    want[2] = (long long)total;
    for (size_t t = 0; t < total; t++)
        want[3 + t] = -1;
    for (size_t i = 0; i < src.problem.n; i++)
        want[3 + first + src.index[i]] = (long long)off[i];
    free(scratch);
    free(off);
    arena_source_free(&src);
    return 3 + total;
}

/* The one model arena_export_tflites wrote for text into sub. */
static void export_tflite(const char *text, const char *sub, char *model, size_t cap)
{
    struct arena_source src;
    char err[600] = "";
    cr_assert_eq(arena_source_load(text, 16, 1, &src, err, sizeof err), ARENA_OK, "%s", err);
    const struct arena_planner *pl[1] = {arena_planner_find("greedy-by-size")};
    mkdir(sub, 0755);
    cr_assert_eq(arena_export_tflites(sub, &src, pl, 1, 0, NULL, NULL, err, sizeof err), ARENA_OK,
                 "%s", err);
    arena_source_free(&src);
    exported(sub, "tflite", model, cap);
}

/* Loads a and b (spec texts) and expects the same problem, names and
 * source indices. */
static void same_problem(const char *a, const char *b)
{
    struct arena_source x, y;
    char err[600] = "";
    cr_assert_eq(arena_source_load(a, 16, 1, &x, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_eq(arena_source_load(b, 16, 1, &y, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(x.fingerprint, y.fingerprint, "%s and %s", a, b);
    cr_assert_eq(x.problem.n, y.problem.n);
    cr_expect_eq(x.ops, y.ops);
    for (size_t i = 0; i < x.problem.n; i++) {
        cr_expect_str_eq(x.names[i], y.names[i]);
        cr_expect_eq(x.index[i], y.index[i]);
    }
    arena_source_free(&x);
    arena_source_free(&y);
}

/* Compares flatc's plan (count of entries, values) with want[0, n). */
static void plan_is(const char *model, const long long *want, size_t n)
{
    char out[65536];
    decode(model, plan_jq, out, sizeof out);
    char *save = NULL, *line = strtok_r(out, "\n", &save);
    cr_assert_not_null(line);
    cr_expect_str_eq(line, "1", "one OfflineMemoryAllocation entry");
    size_t k = 0;
    for (line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save), k++) {
        cr_assert_lt(k, n, "more values than %zu", n);
        cr_expect_eq(atoll(line), want[k], "value %zu: %s, want %lld", k, line, want[k]);
    }
    cr_expect_eq(k, n);
}

Test(export, tflite_offline_plan_written_read_back_and_decoded)
{
    if (!have_tools())
        cr_skip_test("flatc or jq is missing: run scripts/bootstrap");
    struct tfl_model m;
    two_subgraphs(&m);
    char path[1024], text[1100], sub[1024], model[1024], again[1100];
    snprintf(path, sizeof path, "%s/m.tflite", dir);
    save_model(&m, path);
    snprintf(text, sizeof text, "%s#0", path);
    snprintf(sub, sizeof sub, "%s/t", dir);
    export_tflite(text, sub, model, sizeof model);
    /* the arenabench reader: the same problem in both subgraphs */
    snprintf(again, sizeof again, "%s#0", model);
    same_problem(text, again);
    snprintf(text, sizeof text, "%s#1", path);
    snprintf(again, sizeof again, "%s#1", model);
    same_problem(text, again);
    /* flatc: subgraph 0 has 5 tensors, 1 has 2; in, h, out (0, 2, 3) are
     * planned, w (constant), spare (no op) and subgraph 1 are left -1 */
    const size_t tensors[2] = {5, 2};
    long long want[64];
    snprintf(text, sizeof text, "%s#0", path);
    size_t n = expected_plan(text, 0, tensors, 2, want, 64);
    cr_expect_eq(n, 10);
    cr_expect(want[4] == -1 && want[7] == -1 && want[8] == -1 && want[9] == -1);
    cr_expect(want[3] >= 0 && want[5] >= 0 && want[6] >= 0);
    plan_is(model, want, n);
    /* the rest decodes as it did: the original's 2 buffers come first */
    char before[16384], after[16384], prog[128];
    snprintf(prog, sizeof prog, rest_jq, (size_t)2);
    decode(path, prog, before, sizeof before);
    decode(model, prog, after, sizeof after);
    cr_expect_str_eq(after, before);

    /* a model that already has a plan: replaced, not duplicated; plan
     * subgraph 1 of the copy this time */
    snprintf(text, sizeof text, "%s#1", model);
    snprintf(sub, sizeof sub, "%s/t2", dir);
    char model2[1024];
    export_tflite(text, sub, model2, sizeof model2);
    snprintf(text, sizeof text, "%s#1", path);
    n = expected_plan(text, 1, tensors, 2, want, 64);
    cr_expect(want[3] == -1 && want[8] >= 0 && want[9] >= 0); /* x, y of subgraph 1 */
    plan_is(model2, want, n);
    decode(model2, "[.metadata[].name] | length", after, sizeof after);
    cr_expect_str_eq(after, "1\n");
}

/* Other metadata entries are kept: the plan entry's name of a written
 * model is changed in place ("...Allocation" -> "...AllocatioX"), so it
 * counts as another entry; a second export keeps it and adds its own. */
Test(export, tflite_other_metadata_kept)
{
    if (!have_tools())
        cr_skip_test("flatc or jq is missing: run scripts/bootstrap");
    struct tfl_model m;
    two_subgraphs(&m);
    char path[1024], text[1100], sub[1024], model[1024], model2[1024], out[4096];
    snprintf(path, sizeof path, "%s/m.tflite", dir);
    save_model(&m, path);
    snprintf(text, sizeof text, "%s#0", path);
    snprintf(sub, sizeof sub, "%s/t", dir);
    export_tflite(text, sub, model, sizeof model);
    FILE *f = fopen(model, "r+b");
    cr_assert_not_null(f);
    static unsigned char bytes[65536];
    size_t n = fread(bytes, 1, sizeof bytes, f);
    const char *key = "OfflineMemoryAllocation";
    unsigned char *hit = NULL;
    for (size_t i = 0; i + strlen(key) <= n && !hit; i++)
        if (memcmp(bytes + i, key, strlen(key)) == 0)
            hit = bytes + i;
    cr_assert_not_null(hit);
    cr_assert_eq(fseek(f, (long)(hit - bytes) + (long)strlen(key) - 1, SEEK_SET), 0);
    fputc('X', f);
    cr_assert_eq(fclose(f), 0);
    snprintf(text, sizeof text, "%s#0", model);
    snprintf(sub, sizeof sub, "%s/t2", dir);
    export_tflite(text, sub, model2, sizeof model2);
    decode(model2, "[.metadata[].name] | join(\",\")", out, sizeof out);
    cr_expect_str_eq(out, "OfflineMemoryAllocatioX,OfflineMemoryAllocation\n");
}

/* The writer's refusals: an index past the subgraph, an offset past 2^31 - 1,
 * a file that is not a model; each one line, nothing written. */
Test(export, tflite_writer_refuses)
{
    struct tfl_model m;
    two_subgraphs(&m);
    static unsigned char buf[16384];
    size_t n = tfl_write(&m, buf, sizeof buf, NULL);
    unsigned char *out;
    size_t size;
    char err[600];
    uint32_t index[1] = {5};
    uint64_t offsets[1] = {0};
    struct arena_tflite_plan p = {.subgraph = 0, .n = 1, .index = index, .offsets = offsets};
    cr_expect_eq(arena_tflite_with_plan(buf, n, "m.tflite", &p, &out, &size, err, sizeof err),
                 ARENA_EINVAL);
    cr_expect_str_eq(err, "m.tflite: plan: index: tensor 5, past the 5 tensors of subgraph 0");
    index[0] = 2;
    offsets[0] = (uint64_t)1 << 31;
    cr_expect_eq(arena_tflite_with_plan(buf, n, "m.tflite", &p, &out, &size, err, sizeof err),
                 ARENA_EOVERFLOW);
    cr_expect_null(strchr(err, '\n'));
    p.subgraph = 2;
    cr_expect_eq(arena_tflite_with_plan(buf, n, "m.tflite", &p, &out, &size, err, sizeof err),
                 ARENA_EINVAL);
    cr_expect_eq(arena_tflite_with_plan(buf, 7, "m.tflite", &p, &out, &size, err, sizeof err),
                 ARENA_EFORMAT);
    cr_expect_null(out);
    /* A model without buffers (fuzz_tflite_writer found it): the plan's
     * buffer would become buffer 0, which the tensors without data name, and
     * the copy read as another graph. */
    m.n_buffers = 0;
    n = tfl_write(&m, buf, sizeof buf, NULL);
    p.subgraph = 0;
    offsets[0] = 0;
    cr_expect_eq(arena_tflite_with_plan(buf, n, "m.tflite", &p, &out, &size, err, sizeof err),
                 ARENA_EFORMAT);
    cr_expect(strstr(err, "m.tflite: Model: buffers: the model has no buffers"), "%s", err);
    cr_expect_null(out);
    /* and bench refuses a graph that is not a model */
    struct arena_source src;
    cr_assert_eq(arena_source_load("chain:ops=3", 16, 1, &src, err, sizeof err), ARENA_OK);
    const struct arena_planner *pl[1] = {arena_planner_find("naive")};
    cr_expect_eq(arena_export_tflites(dir, &src, pl, 1, 0, NULL, NULL, err, sizeof err), ARENA_EINVAL);
    cr_expect_str_eq(err, "chain:ops=3,min=1024,max=65536,dtype=int8,seed=1: not a .tflite model");
    arena_source_free(&src);
}

/* Two branches stored interleaved: ADD(x, x) -> a1 and ADD(x, x) -> b1
 * (256 fp32 each, 1 KiB), then QUANTIZE(a1) -> a2, QUANTIZE(b1) -> b2 (256 B
 * each) and ADD(a2, b2) -> y. The stored order holds a1 and b1 at once; the
 * best runs a branch to its end first. TFLM runs the stored order, so a plan
 * for the best one cannot ship (round 3, 01): refused in one line naming
 * --order stored, nothing written; planned in the stored order it ships. */
Test(export, a_plan_for_another_order_does_not_ship_as_tflite)
{
    struct tfl_model m;
    tfl_add_quantize_model(&m);
    struct tfl_subgraph *s = &m.sub[0];
    static const char *const names[] = {"x", "a1", "b1", "a2", "b2", "y"};
    for (int t = 0; t < 6; t++) /* x fp32 [4], a1 and b1 fp32 [256], the rest int8 [256] */
        tfl_add_tensor(s, names[t], t < 3 ? 0 : 9, 0, 1, t ? 256 : 4, 0);
    /* opcode, inputs (two, or one and -2), output */
    static const int32_t ops[5][4] = {{0, 0, 0, 1}, {0, 0, 0, 2}, {1, 1, -2, 3}, {1, 2, -2, 4},
                                      {0, 3, 4, 5}};
    for (int o = 0; o < 5; o++)
        tfl_add_op(s, (uint32_t)ops[o][0], ops[o][2] == -2 ? 1 : 2, &ops[o][1], ops[o][3]);
    s->n_in = s->n_out = 1;
    s->in[0] = 0;
    s->out[0] = 5;
    char path[1024], sub[1100], err[600] = "";
    snprintf(path, sizeof path, "%s/branches.tflite", dir);
    save_model(&m, path);
    snprintf(sub, sizeof sub, "%s/branches", dir);
    cr_assert_eq(mkdir(sub, 0755), 0);
    struct arena_load_options lo = {.alignment = 16, .seed = 1, .order = ARENA_ORDER_BEST};
    struct arena_source src;
    cr_assert_eq(arena_source_load_with(path, &lo, &src, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert_lt(src.order.peak, src.order.stored_peak, "the best order is not the stored one");
    const struct arena_planner *pl[1] = {arena_planner_find("greedy-by-size")};
    cr_expect_eq(arena_export_tflites(sub, &src, pl, 1, 0, NULL, NULL, err, sizeof err),
                 ARENA_EINVAL);
    cr_expect(strstr(err, "plan with --order stored to ship it"), "%s", err);
    cr_expect_null(strchr(err, '\n'));
    arena_source_free(&src);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", sub);
    cr_expect_eq(system(cmd), 0, "nothing written");
    lo.order = ARENA_ORDER_STORED;
    cr_assert_eq(arena_source_load_with(path, &lo, &src, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect_eq(arena_export_tflites(sub, &src, pl, 1, 0, NULL, NULL, err, sizeof err), ARENA_OK,
                 "%s", err);
    arena_source_free(&src);
}

/* A real model (scripts/fetch-models): face_detection_short_range, 250
 * tensors, its plan decoded by flatc equals the plan, and it reads back as
 * the same problem. */
Test(export, tflite_real_model)
{
    const char *path = ARENA_SOURCE_ROOT "/models/face_detection_short_range.tflite";
    struct stat st;
    if (stat(path, &st) != 0)
        cr_skip_test("models/face_detection_short_range.tflite is missing: run scripts/fetch-models");
    if (!have_tools())
        cr_skip_test("flatc or jq is missing: run scripts/bootstrap");
    char sub[1024], model[1024], again[1100];
    snprintf(sub, sizeof sub, "%s/r", dir);
    export_tflite(path, sub, model, sizeof model);
    snprintf(again, sizeof again, "%s", model);
    same_problem(path, again);
    const size_t tensors[1] = {250};
    static long long want[300];
    size_t n = expected_plan(path, 0, tensors, 1, want, 300);
    plan_is(model, want, n);
    struct stat st2;
    cr_assert_eq(stat(model, &st2), 0);
    cr_expect_lt(st2.st_size - st.st_size, 2048, "grew by %lld bytes",
                 (long long)(st2.st_size - st.st_size));
}

/* The writer on every truncation and every byte set to 0xff of a small
 * model: a one-line refusal or a copy the reader accepts or refuses, never
 * a crash (flatbuf.h checks every read). */
Test(export, tflite_writer_on_damaged_models)
{
    struct tfl_model m;
    two_subgraphs(&m);
    static unsigned char good[16384], bad[16384];
    size_t n = tfl_write(&m, good, sizeof good, NULL);
    cr_assert_gt(n, 8u);
    uint32_t index[1] = {0};
    uint64_t offsets[1] = {16};
    struct arena_tflite_plan p = {.subgraph = 0, .n = 1, .index = index, .offsets = offsets};
    size_t ok = 0;
    for (size_t k = 0; k < 2 * n; k++) {
        size_t len = k < n ? k : n;
        memcpy(bad, good, n);
        if (k >= n)
            bad[k - n] = 0xff;
        unsigned char *out;
        size_t size;
        char err[600] = "";
        int rc = arena_tflite_with_plan(bad, len, "m.tflite", &p, &out, &size, err, sizeof err);
        if (rc) {
            cr_expect(err[0] && !strchr(err, '\n'), "case %zu: '%s'", k, err);
            cr_expect_null(out);
            continue;
        }
        ok++;
        struct arena_graph g;
        struct arena_tflite_info info;
        if (arena_tflite_read(out, size, "copy", 0, &g, &info, err, sizeof err) == ARENA_OK)
            arena_graph_free(&g);
        free(out);
    }
    cr_expect_gt(ok, 0u);
}

/* --order best: a graph planned in an order of its own exports that order
 * (PREFIX_OPS and PREFIX_order[], the source's op indices step by step),
 * which is the one the source holds, topological, and compiles; the header
 * says so (PREFIX_ORDER "best"), and the graph's ops, run in that order,
 * read every input intact, while run in the stored order (the header's
 * order hidden) they read one overwritten: the plan is for the order it
 * names. Planned in its stored order, no order is added and the header
 * says "stored". */
Test(export, the_best_order_is_exported_with_the_plan)
{
    char sub[256], c[256], h[256], err[300] = "";
    struct arena_load_options lo = {.alignment = 16, .seed = 1, .order = ARENA_ORDER_BEST,
                                    .keep_graph = 1};
    struct arena_source src;
    cr_assert_eq(arena_source_load_with("random-dag:seed=2", &lo, &src, err, sizeof err),
                 ARENA_OK, "%s", err);
    cr_assert_not_null(src.order.order);
    snprintf(sub, sizeof sub, "%s/order", dir);
    cr_assert_eq(mkdir(sub, 0755), 0);
    const struct arena_planner *pl[1] = {arena_planner_find("greedy-by-size")};
    struct arena_plan_options opt = arena_plan_options_default;
    cr_assert_eq(arena_export_plans(sub, &src, pl, 1, 0, &opt, 0, 0, NULL, err, sizeof err), ARENA_OK,
                 "%s", err);
    exported(sub, "h", h, sizeof h);
    exported(sub, "c", c, sizeof c);
    char *ht = strdup(slurp(h)), *ct = strdup(slurp(c)); /* slurp's buffer is shared */
    cr_assert(ht && ct);
    cr_expect_not_null(strstr(ht, "_OPS 64u\n"), "%s", ht);
    const char *at = strstr(ct, "_order[");
    cr_assert_not_null(at, "%s", ct);
    at = strchr(at, '{');
    cr_assert_not_null(at);
    uint32_t order[64];
    size_t n = 0;
    for (char *end; n < 64; at = end) {
        while (*at == ' ' || *at == ',' || *at == '\n' || *at == '{') at++;
        if (*at == '}') break;
        order[n++] = (uint32_t)strtoul(at, &end, 10);
        cr_assert_eq(*end, 'u');
        end++;
    }
    cr_assert_eq(n, 64);
    cr_expect_eq(memcmp(order, src.order.order, sizeof order), 0);
    struct arena_spec spec;
    struct arena_graph g;
    cr_assert_eq(arena_spec_parse("random-dag:seed=2", 1, &spec, err, sizeof err), ARENA_OK);
    cr_assert_eq(arena_spec_graph(&spec, &g, err, sizeof err), ARENA_OK);
    cr_expect_eq(arena_order_check(&g, order, n, err, sizeof err), ARENA_OK, "%s", err);
    arena_graph_free(&g);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cc -std=c11 -Wall -Wextra -Werror -pedantic -c '%s' -o '%s/o.o'",
             c, sub);
    cr_expect_eq(system(cmd), 0, "%s", cmd);
    cr_expect_not_null(strstr(ht, "_ORDER \"best\"\n"), "%s", ht);
    cr_expect_not_null(strstr(ht, "_INPLACE \"none\"\n"), "%s", ht);
    char ops[300];
    snprintf(ops, sizeof ops, "%s/ops.inc", sub);
    ec_write_ops(&src, ops);
    cr_expect_eq(ec_run_ops(sub, h, ops, 1), 0, "the ops in the exported order");
    /* the same files with the order renamed away: the ops run stored */
    char hidden[300];
    snprintf(hidden, sizeof hidden, "%s/hidden", dir);
    snprintf(cmd, sizeof cmd, "mkdir '%s' && for f in '%s'/*.h '%s'/*.c; do sed 's/_order\\[/_ordeR[/g'"
             " \"$f\" > '%s'/\"$(basename \"$f\")\"; done", hidden, sub, sub, hidden);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    exported(hidden, "h", h, sizeof h);
    cr_expect_eq(ec_run_ops(hidden, h, ops, 1), 1, "the ops in the stored order overwrite one");
    free(ht);
    free(ct);
    arena_source_free(&src);

    snprintf(sub, sizeof sub, "%s/stored-order", dir);
    export_into("random-dag:seed=2", sub);
    exported(sub, "h", h, sizeof h);
    cr_expect_null(strstr(slurp(h), "_order"), "the stored order is not exported");
    cr_expect_not_null(strstr(slurp(h), "_ORDER \"stored\"\n"));
}
