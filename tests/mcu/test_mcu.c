/* test_mcu.c — exported plans on an emulated microcontroller: the header
 * and source of a plan, cross-compiled with Debian's arm-none-eabi-gcc
 * (with the pattern check of pattern.c, our start-up code and our linker
 * script board.ld), run under qemu-system-arm on mps2-an386 (Cortex-M4) and
 * mps2-an500 (Cortex-M7) with semihosting for the output and the status.
 * The arena is the source's static array in the board's SRAM at 0x20000000:
 * a byte that is wrong fails the run, an arena that does not fit fails the
 * link. meson registers this test (suite mcu) only where the tools are. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "bench/export/export_plan.h"
#include "graphs/source.h"
#include "planners/planner.h"
#include "tests/export_check.h"

#define MCU ARENA_SOURCE_ROOT "/tests/mcu/"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/arena-mcu-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

TestSuite(mcu, .init = make_dir, .fini = remove_dir);

static char out[65536];

static const char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    fclose(f);
    return out;
}

/* Exports text's greedy-by-size plan (alignment 16, in the given order
 * and rule) into dir/sub, with the graph's ops in dir/sub/ops.inc; the
 * header's path in h. */
static void export_plan_as(const char *text, enum arena_inplace_rule rule,
                           enum arena_order_mode order, const char *sub, char *h, size_t cap)
{
    struct arena_source src;
    char err[600] = "", d[256], ops[300];
    struct arena_load_options lo = {.alignment = 16, .seed = 1, .inplace = rule, .order = order,
                                    .keep_graph = 1};
    cr_assert_eq(arena_source_load_with(text, &lo, &src, err, sizeof err), ARENA_OK, "%s", err);
    const struct arena_planner *pl[1] = {arena_planner_find("greedy-by-size")};
    snprintf(d, sizeof d, "%s/%s", dir, sub);
    cr_assert_eq(mkdir(d, 0755), 0);
    snprintf(ops, sizeof ops, "%s/ops.inc", d);
    if (src.graph) ec_write_ops(&src, ops);
    cr_assert_eq(arena_export_plans(d, &src, pl, 1, 0, NULL, 0, 0, NULL, err, sizeof err), ARENA_OK,
                 "%s", err);
    arena_source_free(&src);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ls '%s'/*.h", d);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    cr_assert_not_null(fgets(h, (int)cap, p));
    h[strcspn(h, "\n")] = '\0';
    pclose(p);
}

static void export_plan_rule(const char *text, enum arena_inplace_rule rule, const char *sub,
                             char *h, size_t cap)
{
    export_plan_as(text, rule, ARENA_ORDER_STORED, sub, h, cap);
}

static void export_plan(const char *text, const char *sub, char *h, size_t cap)
{
    export_plan_rule(text, ARENA_INPLACE_NONE, sub, h, cap);
}

/* Builds header h (+ its .c) with pattern.c for cpu and runs it on board.
 * Returns qemu's exit status, or -1 when the build fails; the build's or
 * the run's output is in `out`. */
static int run_on(const char *h, const char *cpu, const char *board)
{
    char prefix[256] = "", line[512];
    FILE *f = fopen(h, "r");
    cr_assert_not_null(f);
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "#ifndef %255s", prefix) == 1)
            break;
    int shared = 0, order = 0; /* an in-place plan declares its pairs */
    while (fgets(line, sizeof line, f)) {
        shared |= strstr(line, "_SHARED_PAIRS ") != NULL;
        order |= strstr(line, "_order[") != NULL;
    }
    fclose(f);
    size_t len = strlen(prefix), hl = strlen(h);
    cr_assert(len > 7);
    prefix[len - 7] = '\0'; /* _PLAN_H */
    /* the graph's ops, beside the header: the ops run in its order */
    char ops[600] = "", with_ops[700] = "";
    const char *slash = strrchr(h, '/');
    snprintf(ops, sizeof ops, "%.*s/ops.inc", slash ? (int)(slash - h) : 1, slash ? h : ".");
    struct stat st;
    if (stat(ops, &st) == 0)
        snprintf(with_ops, sizeof with_ops, "-DOPS='\"%s\"'%s", ops, order ? " -DHAS_ORDER" : "");
    char cmd[8192], log[128], elf[128];
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(elf, sizeof elf, "%s/%s.elf", dir, cpu);
    const char *flags = "-mthumb -O2 -Wall -Wextra -Werror -I" ARENA_SOURCE_ROOT;
    snprintf(cmd, sizeof cmd,
             "{ arm-none-eabi-gcc -mcpu=%s %s -std=c11 -pedantic -DHEADER='\"%s\"' -DPREFIX=%s %s %s "
             "-c " MCU "pattern.c -o '%s/pattern.o' && "
             "arm-none-eabi-gcc -mcpu=%s %s -std=c11 -pedantic -c '%.*s.c' -o '%s/plan.o' && "
             "arm-none-eabi-gcc -mcpu=%s %s -std=gnu11 -c " MCU "startup.c -o '%s/startup.o' && "
             "arm-none-eabi-gcc -mcpu=%s -mthumb -nostartfiles -T " MCU "board.ld -o '%s' "
             "'%s/pattern.o' '%s/plan.o' '%s/startup.o'; } > '%s' 2>&1",
             cpu, flags, h, prefix, shared ? "-DSHARED" : "", with_ops, dir, cpu, flags, (int)(hl - 2), h, dir, cpu, flags, dir, cpu,
             elf, dir, dir, dir, log);
    if (system(cmd) != 0) {
        slurp(log);
        return -1;
    }
    snprintf(cmd, sizeof cmd,
             "timeout 300 qemu-system-arm -M %s -nographic -monitor none -serial none "
             "-semihosting-config enable=on,target=native -kernel '%s' > '%s' 2>&1",
             board, elf, log);
    int rc = system(cmd);
    slurp(log);
    cr_assert(WIFEXITED(rc), "qemu: %s", out);
    return WEXITSTATUS(rc);
}

/* Loads spec under the kernel scratch rule r (lifetime policy: one buffer
 * per requesting op, alive at its step, planned with the tensors) with its
 * graph kept. */
static void load_scratch(const char *spec, enum arena_scratch_rule r, struct arena_source *src)
{
    char err[600] = "";
    struct arena_load_options lo = {.alignment = 16, .seed = 1, .scratch = r, .keep_graph = 1};
    cr_assert_eq(arena_source_load_with(spec, &lo, src, err, sizeof err), ARENA_OK, "%s", err);
    cr_assert(src->has_head && src->scratch.buffers > 0, "%s asks for no scratch", spec);
}

/* Writes src's plan into dir/sub (with its ops, as export_plan_as does) as
 * a three-region arena: TFLM's head (graphs/tflm_head.h) before the
 * activations, which must stay untouched; the header's path in h. */
static void export_with_head(struct arena_source *src, const struct arena_plan *plan,
                             const char *sub, char *h, size_t cap)
{
    char err[600] = "", d[256], ops[300];
    snprintf(d, sizeof d, "%s/%s", dir, sub);
    cr_assert_eq(mkdir(d, 0755), 0);
    snprintf(ops, sizeof ops, "%s/ops.inc", d);
    ec_write_ops(src, ops);
    struct arena_export x = {.title = sub, .prefix = "MLPT", .p = &src->problem,
                             .names = src->names, .plan = plan, .head = src->head.head};
    cr_assert_eq(arena_export_plan(d, "plan", &x, err, sizeof err), ARENA_OK, "%s", err);
    snprintf(h, cap, "%s/plan.h", d);
}

/* ResNet-8 (MLPerf Tiny's image classification) under cmsis-nn:m4: its
 * seven 3x3 convs and its average pool ask for scratch (im2col, 4c), 8
 * buffers each alive during its op only, planned by greedy-by-size with the
 * activations (49,728 B, its lower bound), behind TFLM's head of 5,268 B
 * (graphs/tflm_head.h; the export rounds it up to 16: 5,280 B).
 * On the Cortex-M4 every buffer, scratch included, is written with its own
 * pattern when its op starts and read back intact at its last step, the
 * ops run in order reading their inputs intact, and the head is never
 * touched. */
Test(mcu, mlperf_tiny_scratch_buffers_stay_intact_on_cortex_m4)
{
    struct arena_source src;
    load_scratch("resnet8", ARENA_SCRATCH_CMSIS_M4, &src);
    cr_expect_eq(src.scratch.buffers, 8);
    struct arena_plan plan;
    uint64_t *off = calloc(src.problem.n, sizeof *off);
    cr_assert_not_null(off);
    memset(&plan, 0, sizeof plan);
    plan.n = src.problem.n;
    plan.offsets = off;
    const struct arena_planner *pl = arena_planner_find("greedy-by-size");
    size_t need = 0;
    cr_assert_eq(arena_planner_scratch(pl, &src.problem, &need), ARENA_OK);
    void *work = malloc(need ? need : 1);
    cr_assert_not_null(work);
    cr_assert_eq(arena_planner_run(pl, &src.problem, NULL, work, need, &plan), ARENA_OK);
    free(work);
    cr_assert_eq(arena_plan_validate(&src.problem, &plan, NULL), ARENA_OK);
    cr_expect_eq(plan.arena, 49728);
    char h[512];
    export_with_head(&src, &plan, "s", h, sizeof h);
    int rc = run_on(h, "cortex-m4", "mps2-an386");
    cr_expect_eq(rc, 0, "%s", out);
    cr_expect_not_null(strstr(out, ", 55008 B, 25 tensors\n"), "%s", out);
    cr_expect_not_null(strstr(out, "16 ops run in the exported order\n"), "%s", out);
    cr_expect_not_null(strstr(out, "\nPASS\n"), "%s", out);
    /* the same plan with the first scratch buffer moved onto a tensor
     * alive at its step (its op's input): the board says which buffer was
     * overwritten */
    size_t s = src.scratch_first, victim = SIZE_MAX;
    for (size_t i = 0; i < src.scratch_first && victim == SIZE_MAX; i++)
        if (src.problem.tensors[i].first <= src.problem.tensors[s].first &&
            src.problem.tensors[i].last >= src.problem.tensors[s].first)
            victim = i;
    cr_assert_neq(victim, SIZE_MAX);
    off[s] = off[victim];
    if (off[s] + src.problem.tensors[s].size > plan.arena)
        plan.arena = off[s] + src.problem.tensors[s].size;
    cr_assert_neq(arena_plan_validate(&src.problem, &plan, NULL), ARENA_OK);
    export_with_head(&src, &plan, "bad", h, sizeof h);
    cr_expect_eq(run_on(h, "cortex-m4", "mps2-an386"), 1, "%s", out);
    char want[64];
    snprintf(want, sizeof want, "tensor %zu overwritten at byte ", victim);
    cr_expect_not_null(strstr(out, want), "%s", out);
    cr_expect_not_null(strstr(out, "FAIL 1\n"), "%s", out);
    free(off);
    arena_source_free(&src);
}

/* mobilenetv2:alpha=0.35,res=96 (66 tensors), greedy by size: 138,240 B,
 * on both boards. */
Test(mcu, mobilenetv2_on_cortex_m4_and_m7)
{
    char h[512];
    export_plan("mobilenetv2:alpha=0.35,res=96", "m", h, sizeof h);
    const char *text = slurp(h);
    cr_expect_not_null(strstr(text, "_ARENA_BYTES 138240u\n"));
    const char *runs[2][2] = {{"cortex-m4", "mps2-an386"}, {"cortex-m7", "mps2-an500"}};
    for (int k = 0; k < 2; k++) {
        int rc = run_on(h, runs[k][0], runs[k][1]);
        cr_expect_eq(rc, 0, "%s on %s: %s", runs[k][0], runs[k][1], out);
        cr_expect_not_null(strstr(out, "arena at 536870912, 138240 B, 66 tensors\n"), "%s", out);
        cr_expect_not_null(strstr(out, "\nPASS\n"), "%s", out);
    }
}

/* The same network planned with TinyEngine's rule (--inplace depthwise):
 * every in-place op reads its input before it writes its output over it. */
Test(mcu, an_in_place_plan_on_cortex_m4)
{
    char h[512];
    export_plan_rule("mobilenetv2:alpha=0.35,res=96", ARENA_INPLACE_DEPTHWISE, "i", h, sizeof h);
    cr_expect_not_null(strstr(slurp(h), "_SHARED_PAIRS "), "an in-place plan");
    int rc = run_on(h, "cortex-m4", "mps2-an386");
    cr_expect_eq(rc, 0, "%s", out);
    cr_expect_not_null(strstr(out, "\nPASS\n"), "%s", out);
}

/* A plan for the best order of random-dag:seed=2 (64 ops): the ops run on
 * the board in the order the header states (PREFIX_order[]) and read every
 * input intact. */
Test(mcu, the_ops_run_in_the_exported_order_on_cortex_m4)
{
    char h[512];
    export_plan_as("random-dag:seed=2", ARENA_INPLACE_NONE, ARENA_ORDER_BEST, "o", h, sizeof h);
    cr_expect_not_null(strstr(slurp(h), "_ORDER \"best\""), "the header states the order");
    int rc = run_on(h, "cortex-m4", "mps2-an386");
    cr_expect_eq(rc, 0, "%s", out);
    cr_expect_not_null(strstr(out, "64 ops run in the exported order\n"), "%s", out);
    cr_expect_not_null(strstr(out, "\nPASS\n"), "%s", out);
}

/* A real model (scripts/fetch-models): face_detection_short_range,
 * 1,376,256 B under greedy by size, in the 4 MiB of SRAM. */
Test(mcu, real_model_on_cortex_m4)
{
    const char *path = ARENA_SOURCE_ROOT "/models/face_detection_short_range.tflite";
    struct stat st;
    if (stat(path, &st) != 0)
        cr_skip_test("models/face_detection_short_range.tflite is missing: run scripts/fetch-models");
    char h[512];
    export_plan(path, "r", h, sizeof h);
    int rc = run_on(h, "cortex-m4", "mps2-an386");
    cr_expect_eq(rc, 0, "%s", out);
    cr_expect_not_null(strstr(out, ", 1376256 B, "), "%s", out);
    cr_expect_not_null(strstr(out, "\nPASS\n"), "%s", out);
}

/* The check catches a wrong plan on the board: b overlaps a while both
 * live (a [0,1] 32 B at 0, b [1,2] 16 B at 16). */
Test(mcu, an_overlap_fails_on_the_board)
{
    static const struct arena_tensor three[] = {{32, 0, 1}, {16, 1, 2}, {16, 2, 2}};
    struct arena_problem p = {.n = 3, .tensors = three, .alignment = 16};
    uint64_t off[3] = {0, 16, 0};
    struct arena_plan plan = {.n = 3, .offsets = off, .arena = 32};
    struct arena_export x = {.title = "overlap", .prefix = "OVERLAP", .p = &p, .plan = &plan};
    char err[300] = "", h[256];
    cr_assert_eq(arena_export_plan(dir, "overlap", &x, err, sizeof err), ARENA_OK, "%s", err);
    snprintf(h, sizeof h, "%s/overlap.h", dir);
    cr_expect_eq(run_on(h, "cortex-m4", "mps2-an386"), 1, "%s", out);
    cr_expect_not_null(strstr(out, "tensor 0 overwritten at byte 16 by step 1\nFAIL 1\n"), "%s",
                       out);
}

/* An arena that does not fit the board's 4 MiB of SRAM fails the link:
 * chain:ops=2 with 3 MiB tensors needs 6 MiB. */
Test(mcu, an_arena_too_big_fails_the_link)
{
    char h[512];
    export_plan("chain:ops=2,min=3145728,max=3145728", "b", h, sizeof h);
    cr_expect_eq(run_on(h, "cortex-m4", "mps2-an386"), -1);
    cr_expect_not_null(strstr(out, "region `RAM' overflowed"), "%s", out);
}
