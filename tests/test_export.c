/* test_export.c — bench --export-plan's files: the C header of every
 * planner's plan of MobileNetV2 compiles warning-free as C11 and survives
 * the byte-pattern check on real memory (export_check.h); the CSV holds one
 * row per tensor at the header's offsets; identifiers are made unique; and
 * the pattern check does catch a plan that overlaps live tensors. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/args.h"
#include "bench/export_plan.h"
#include "planners/planner.h"
#include "tests/export_check.h"

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
    cr_expect_str_eq(slurp(path), "name,size,first,last,offset\n"
                                  "x,32,0,1,16\n"
                                  "x,16,1,2,48\n"
                                  "1st,16,2,2,16\n");
    snprintf(path, sizeof path, "%s/three.h", dir);
    const char *h = slurp(path);
    const char *want[] = {
        "#define THREE_HEAD_BYTES 10u\n",  "#define THREE_ACT 16u\n",
        "#define THREE_ACT_BYTES 48u\n",   "#define THREE_TAIL 64u\n",
        "#define THREE_ARENA_BYTES 80u\n", "#define THREE_X_OFFSET 16u\n",
        "#define THREE_X_1_OFFSET 48u\n",  "#define THREE_T1ST_OFFSET 16u\n",
        "static _Alignas(16) uint8_t THREE_arena[THREE_ARENA_BYTES];",
        "{THREE_X_1_OFFSET, THREE_X_1_SIZE, 1u, 2u},",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect_not_null(strstr(h, want[i]), "header lacks %s", want[i]);
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
    cr_expect_str_eq(slurp(csv), "name,size,first,last,offset\n"
                                 "in,16,0,0,32\n"
                                 "conv/out,32,0,1,0\n"
                                 "conv.out,16,1,2,32\n"
                                 "9lives,16,2,2,0\n");
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
    cr_expect_str_eq(slurp(csv), "name,size,first,last,offset\n"
                                 "b0,32,0,1,0\n"
                                 "w;1,16,1,1,32\n");
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
