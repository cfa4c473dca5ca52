/* test_export.c — bench --export-plan's files: the C header of every
 * planner's plan of MobileNetV2 compiles warning-free as C11 and survives
 * the byte-pattern check on real memory (export_check.h); the CSV holds one
 * row per tensor at the header's offsets; identifiers are made unique; and
 * the pattern check does catch a plan that overlaps live tensors. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
