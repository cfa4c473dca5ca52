/* test_planners.c — the registry, known answers worked out by hand, edge
 * cases, exact scratch figures and seeded random properties for every
 * registered planner. Every plan is checked by the independent validator. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "planners/planner.h"
#include "planners/problem.h"
#include "tests/known_answers.h"
#include "tests/expect_plan.h"
#include "tests/random_problems.h"

/* Plans p with pl into off, scratch pre-filled with `junk` so that a planner
 * that reads scratch it never wrote gives itself away. */
static int run(const struct arena_planner *pl, const struct arena_problem *p, uint64_t *off,
               struct arena_plan *plan, unsigned char junk)
{
    plan->arena = 12345;
    plan->buffers = 777;
    /* Search planners get a node budget: these properties hold for any plan,
     * and an exact search of the large problems could run for hours. */
    struct arena_plan_options opt = arena_plan_options_default;
    if (pl->kind == ARENA_KIND_SEARCH)
        opt.node_limit = 200;
    return run_planner(pl, p, &opt, off, plan, junk);
}

/* Runs a named planner on a known problem and compares with the hand answer. */
static void expect_plan(const char *name, const struct arena_tensor *t, size_t n,
                        uint64_t alignment, const uint64_t *want_off, uint64_t want_arena,
                        uint32_t want_buffers)
{
    const struct arena_planner *pl = must_find(name);
    struct arena_problem p = {.n = n, .tensors = t, .alignment = alignment};
    uint64_t off[16];
    struct arena_plan plan;
    cr_assert_eq(run(pl, &p, off, &plan, 0xA5), ARENA_OK);
    expect_plan_valid(&p, &plan, name);
    cr_expect_eq(plan.arena, want_arena, "%s: arena %llu, expected %llu", name,
                 (unsigned long long)plan.arena, (unsigned long long)want_arena);
    cr_expect_eq(plan.buffers, want_buffers, "%s: buffers %u, expected %u", name,
                 plan.buffers, want_buffers);
    for (size_t i = 0; i < n; i++)
        cr_expect_eq(off[i], want_off[i], "%s: tensor %zu at %llu, expected %llu", name, i,
                     (unsigned long long)off[i], (unsigned long long)want_off[i]);
}

/* Every registered planner, by registry index: Criterion runs each test in a
 * child process, where a pointer taken in the parent would be wrong. */
static struct criterion_test_params every_planner(void)
{
    size_t n = arena_planner_count();
    size_t *idx = cr_malloc(n * sizeof *idx);
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    return cr_make_param_array(size_t, idx, n);
}

/* ---- registry ---------------------------------------------------------- */

Test(planners, registry_order_and_lookup)
{
    /* The fixed order of tables and charts: all six, in this order (later
     * planners may follow them). */
    static const char *const order[] = {"naive",
                                        "ping-pong",
                                        "greedy-by-size",
                                        "greedy-by-size-firstfit",
                                        "greedy-by-breadth",
                                        "interval-graph-coloring"};
    size_t n = arena_planner_count();
    cr_assert_geq(n, 6);
    for (size_t i = 0; i < n; i++) {
        const struct arena_planner *pl = arena_planner_at(i);
        cr_assert(pl && pl->name && pl->summary && pl->plan);
        cr_expect_str_neq(arena_planner_kind_name(pl->kind), "unknown", "%s", pl->name);
        if (i < 6)
            cr_expect_str_eq(pl->name, order[i], "planner %zu", i);
        cr_expect_eq(arena_planner_find(pl->name), pl);
    }
    cr_expect_null(arena_planner_at(n));
    cr_expect_null(arena_planner_find("no-such-planner"));
    cr_expect_null(arena_planner_find(NULL));
}

/* The claims a plan makes: a heuristic's plan is feasible until the max-live
 * bound shows it optimal; a proven bound above max-live is kept; a search
 * planner's limit or infeasible answer is never upgraded. */
Test(planners, plan_settle)
{
    struct arena_plan plan = {.arena = 96};
    arena_plan_settle(&plan, 96);
    cr_expect_eq(plan.status, ARENA_PLAN_OPTIMAL);
    cr_expect_eq(plan.bound, 96);
    plan = (struct arena_plan){.arena = 112};
    arena_plan_settle(&plan, 96);
    cr_expect_eq(plan.status, ARENA_PLAN_FEASIBLE);
    cr_expect_eq(plan.bound, 96);
    plan = (struct arena_plan){.arena = 112, .bound = 112};
    arena_plan_settle(&plan, 96);
    cr_expect_eq(plan.status, ARENA_PLAN_OPTIMAL, "a proven bound above max-live counts");
    plan = (struct arena_plan){.arena = 96, .status = ARENA_PLAN_LIMIT};
    arena_plan_settle(&plan, 96);
    cr_expect_eq(plan.status, ARENA_PLAN_LIMIT);
    cr_expect_str_eq(arena_plan_status_name(ARENA_PLAN_INFEASIBLE), "infeasible");
    cr_expect_str_eq(arena_plan_status_name(42), "unknown");
    cr_expect_str_eq(arena_planner_kind_name(ARENA_KIND_SHARED_OBJECTS), "shared-objects");
}

Test(planners, run_refuses_bad_input)
{
    const struct arena_planner *pl = must_find("ping-pong");
    const struct arena_tensor bad[] = {{16, 3, 1}};
    const struct arena_tensor ok[] = {{16, 0, 1}, {16, 1, 2}};
    uint64_t off[2];
    struct arena_problem p = {.n = 1, .tensors = bad, .alignment = 16};
    struct arena_plan plan = {.n = 1, .offsets = off};
    cr_expect_eq(arena_planner_run(pl, &p, NULL, NULL, 0, &plan), ARENA_EINVAL);
    p.tensors = ok;
    p.n = 2;
    cr_expect_eq(arena_planner_run(pl, &p, NULL, NULL, 0, &plan), ARENA_EINVAL, "plan.n != p.n");
    plan.n = 2;
    size_t bytes;
    cr_assert_eq(arena_planner_scratch(pl, &p, &bytes), ARENA_OK);
    cr_assert_gt(bytes, 0);
    unsigned char *scratch = malloc(bytes);
    cr_expect_eq(arena_planner_run(pl, &p, NULL, scratch, bytes - 1, &plan), ARENA_ENOMEM);
    cr_expect_eq(arena_planner_run(pl, &p, NULL, NULL, bytes, &plan), ARENA_ENOMEM);
    cr_expect_eq(arena_planner_run(pl, &p, NULL, scratch, bytes, &plan), ARENA_OK);
    free(scratch);
}

Test(planners, scratch_bytes_per_tensor)
{
    /* Worked from each planner's layout function: every array is count ×
     * sizeof, rounded up to 16 bytes (ARENA_LAYOUT_ALIGN). For n = 10:
     * naive takes nothing; ping-pong the order and the sort's buffer
     * (10 × 4 = 40 -> 48 each) and two heaps of 64-bit keys (80 each):
     * 48 + 48 + 80 + 80 = 256; interval-graph-coloring the set nodes
     * (10 × 16 = 160), the buffer sizes (80), the order and the sort's
     * buffer (48 each): 336. */
    struct arena_tensor t[10] = {{0}};
    struct arena_problem p = {.n = 10, .tensors = t, .alignment = 16};
    size_t bytes;
    cr_assert_eq(arena_planner_scratch(must_find("naive"), &p, &bytes), ARENA_OK);
    cr_expect_eq(bytes, 0);
    cr_assert_eq(arena_planner_scratch(must_find("ping-pong"), &p, &bytes), ARENA_OK);
    cr_expect_eq(bytes, 256, "ping-pong: %zu", bytes);
    cr_assert_eq(arena_planner_scratch(must_find("interval-graph-coloring"), &p, &bytes),
                 ARENA_OK);
    cr_expect_eq(bytes, 336, "interval-graph-coloring: %zu", bytes);
    /* Greedy by size, both gap rules: rec 10 × 24 = 240; id, order, cand,
     * skip 48 each (192); the tree for at most 10/8 = 1 long tensor: step,
     * node_start (2 × 4 = 8), by_first, by_last 16 each (64); the sort's
     * keys and key copies 80 each and value copies 48 (208); the cover
     * path's part starts (11 × 4 = 44 -> 48), lasts and roots (48 each),
     * flags (10 -> 16) and nodes (10 × 24 = 240): 704 + 400 = 1104.
     * Greedy by breadth adds breadth (11 × 8 = 88 -> 96), step (80),
     * step_start, sizepos, visit, list (48 each) and the tree over 16
     * leaves (32 × 4 = 128): 496, so 1600. */
    cr_assert_eq(arena_planner_scratch(must_find("greedy-by-size"), &p, &bytes), ARENA_OK);
    cr_expect_eq(bytes, 1104, "greedy-by-size: %zu", bytes);
    cr_assert_eq(arena_planner_scratch(must_find("greedy-by-size-firstfit"), &p, &bytes),
                 ARENA_OK);
    cr_expect_eq(bytes, 1104, "greedy-by-size-firstfit: %zu", bytes);
    cr_assert_eq(arena_planner_scratch(must_find("greedy-by-breadth"), &p, &bytes), ARENA_OK);
    cr_expect_eq(bytes, 1600, "greedy-by-breadth: %zu", bytes);
}

/* Hardening finding #16 (tests/fuzz plan path, input
 * plan-empty-null-scratch-ubsan.bin: a header-only MiniMalloc CSV, i.e. the
 * empty problem, built here in code): the empty problem with scratch NULL
 * and size 0 through arena_planner_run. Ping-pong and coloring computed
 * NULL + 0 carving their arrays, undefined behaviour UBSan reports; the
 * sanitizer build runs this test for every registered planner. */
ParameterizedTestParameters(planners, empty_problem_null_scratch)
{
    return every_planner();
}

ParameterizedTest(size_t *index, planners, empty_problem_null_scratch)
{
    const struct arena_planner *pl = arena_planner_at(*index);
    struct arena_problem empty = {.n = 0, .tensors = NULL, .alignment = 16};
    size_t bytes = 1;
    cr_assert_eq(arena_planner_scratch(pl, &empty, &bytes), ARENA_OK, "%s", pl->name);
    /* The first six (registry order, see registry_order_and_lookup) take
     * only count × sizeof arrays, so nothing for no tensors: the exact
     * reproducer, scratch NULL, size 0. */
    if (*index < 6)
        cr_expect_eq(bytes, 0, "%s: %zu bytes for no tensors", pl->name, bytes);
    struct arena_plan plan = {.n = 0, .offsets = NULL, .arena = 99, .buffers = 9};
    void *scratch = NULL;
    if (bytes > 0) {
        /* A planner with fixed working memory: NULL is refused cleanly, and
         * it plans in exactly what it asked for. */
        cr_expect_eq(arena_planner_run(pl, &empty, NULL, NULL, 0, &plan), ARENA_ENOMEM, "%s",
                     pl->name);
        scratch = malloc(bytes);
        cr_assert(scratch);
    }
    cr_assert_eq(arena_planner_run(pl, &empty, NULL, scratch, bytes, &plan), ARENA_OK, "%s",
                 pl->name);
    free(scratch);
    cr_expect_eq(plan.arena, 0, "%s", pl->name);
    cr_expect_eq(plan.buffers, 0, "%s", pl->name);
    expect_plan_valid(&empty, &plan, pl->name);
}

/* ---- scratch: the reported figure is exactly what the planner carves ----
 *
 * Each planner describes its scratch once (planners/layout.h): the same
 * function counts it for scratch_bytes and carves it for plan. Here, for
 * every registered planner on many random problems: given exactly the
 * reported bytes at the start of a larger buffer whose tail holds a canary,
 * it plans validly and leaves the canary intact (it touches nothing beyond
 * what it reported), also when the reported bytes were pre-filled with
 * another pattern; and one byte less is ARENA_ENOMEM. A figure above what is
 * carved is ruled out by construction (one description both counts and
 * carves), not by this test: the bytes a planner writes depend on the
 * problem, so no high-water mark can prove it. */
ParameterizedTestParameters(planners, scratch_is_exact)
{
    return every_planner();
}

ParameterizedTest(size_t *index, planners, scratch_is_exact)
{
    enum { PROBLEMS = 1500, SEARCH_PROBLEMS = 200, MAXN = 600, CANARY = 256 };
    const struct arena_planner *pl = arena_planner_at(*index);
    /* A search costs up to its budget per problem: fewer problems, same mix. */
    const uint64_t problems = pl->kind == ARENA_KIND_SEARCH ? SEARCH_PROBLEMS : PROBLEMS;
    static const uint64_t alignments[] = {16, 1, 8, 64};
    /* A search planner stops early and still returns a valid plan; the
     * others ignore the budget. */
    const struct arena_plan_options budget = {.time_limit = 0.05, .node_limit = 200};
    struct arena_tensor *t = malloc(MAXN * sizeof *t);
    uint64_t *off = malloc(MAXN * sizeof *off);
    cr_assert(t && off);
    for (uint64_t k = 0; k < problems; k++) {
        size_t n = (size_t)(k % 97 == 0 ? 0 : k % 5 == 4 ? 65 + (k * 7919) % (MAXN - 64)
                                                          : k % 65);
        enum rp_shape shape = (enum rp_shape)(k % RP_SHAPES);
        uint64_t alignment = alignments[k % 4];
        rp_problem(k + 5000, n, shape, alignment, t);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = alignment};
        size_t bytes;
        cr_assert_eq(arena_planner_scratch(pl, &p, &bytes), ARENA_OK);
        cr_assert_eq(bytes % 16, 0, "%s: %zu bytes, not whole 16-byte units", pl->name, bytes);
        unsigned char *buf = malloc(bytes + CANARY);
        cr_assert(buf);
        memset(buf, k & 1 ? 0x00 : 0xA5, bytes);
        for (size_t i = 0; i < CANARY; i++)
            buf[bytes + i] = (unsigned char)(0x5A ^ i);
        struct arena_plan plan = {.n = n, .offsets = off};
        int rc = arena_planner_run(pl, &p, &budget, buf, bytes, &plan);
        char who[96];
        snprintf(who, sizeof who, "%s problem %llu (%s, n %zu, %zu bytes)", pl->name,
                 (unsigned long long)k, rp_shape_name(shape), n, bytes);
        cr_assert_eq(rc, ARENA_OK, "%s: %s", who, arena_strerror(rc));
        expect_plan_valid(&p, &plan, who);
        for (size_t i = 0; i < CANARY; i++)
            cr_assert_eq(buf[bytes + i], (unsigned char)(0x5A ^ i),
                         "%s: wrote byte %zu past its scratch", who, i);
        if (bytes > 0)
            cr_assert_eq(arena_planner_run(pl, &p, &budget, buf, bytes - 1, &plan), ARENA_ENOMEM,
                         "%s: ran in one byte less than it reported", who);
        free(buf);
    }
    free(t);
    free(off);
}

/* ---- the stop flag (issue 35, fault 03) ---------------------------------
 *
 * Every planner reads the caller's stop flag (bench's SIGINT/SIGTERM) often
 * enough to end within 100 ms of it at any n, and a stopped call returns a
 * valid plan of status limit. Time is the process's CPU time, so a busy
 * machine cannot fail these tests: a planner that runs on after the flag
 * spends CPU, one that is merely descheduled does not. */

/* n tensors, one starting per step, lifetimes of 0 .. 2 live - 1 steps,
 * sizes 16 .. 64 KiB: about `live` tensors live at once, as in the
 * random-intervals family. */
static void live_problem(size_t n, uint64_t live, uint64_t seed, struct arena_tensor *t)
{
    struct rp_rng r;
    rp_seed(&r, seed);
    for (size_t i = 0; i < n; i++) {
        t[i].first = (uint32_t)i;
        t[i].last = (uint32_t)(i + rp_below(&r, 2 * live));
        t[i].size = 16 * (1 + rp_below(&r, 4096));
    }
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* live_problem with n tensors (min-cost-flow, which refuses more, 5,000)
 * and ~1,000 live for pl into *p; the caller frees p->tensors and *off. */
static void stop_problem(const struct arena_planner *pl, size_t n, struct arena_problem *p,
                         uint64_t **off)
{
    n = strcmp(pl->name, "min-cost-flow") == 0 && n > 5000 ? 5000 : n;
    struct arena_tensor *t = malloc(n * sizeof *t);
    *off = malloc(n * sizeof **off);
    cr_assert(t && *off);
    live_problem(n, 1000, 35, t);
    *p = (struct arena_problem){.n = n, .tensors = t, .alignment = 16};
}

/* Set before the call: nothing is planned, the call returns a valid plan
 * of status limit after its set-up (sorts of 20,000 tensors), well within
 * 100 ms of CPU. naive reads no flag: its one pass is the plan a stopped
 * planner returns. */
ParameterizedTestParameters(planners, stop_flag_set_before_the_call)
{
    return every_planner();
}

ParameterizedTest(size_t *index, planners, stop_flag_set_before_the_call)
{
    static volatile sig_atomic_t stop = 1;
    const struct arena_planner *pl = arena_planner_at(*index);
    struct arena_problem p;
    uint64_t *off;
    stop_problem(pl, 20000, &p, &off);
    struct arena_plan_options opt = {.stop = &stop, .time_limit = 30};
    /* the scratch touched before the clock starts: its page faults are the
     * caller's (optimal's is tens of MB here), not the planner's reaction */
    size_t bytes = 0;
    cr_assert_eq(arena_planner_scratch(pl, &p, &bytes), ARENA_OK);
    void *scratch = malloc(bytes ? bytes : 1);
    cr_assert_not_null(scratch);
    memset(scratch, 0xA5, bytes);
    struct arena_plan plan = {.n = p.n, .offsets = off};
    double t0 = cpu_seconds();
    cr_assert_eq(arena_planner_run(pl, &p, &opt, scratch, bytes, &plan), ARENA_OK, "%s",
                 pl->name);
    double spent = cpu_seconds() - t0;
    free(scratch);
    expect_plan_valid(&p, &plan, pl->name);
    if (strcmp(pl->name, "naive") != 0)
        cr_expect_eq(plan.status, ARENA_PLAN_LIMIT, "%s: status %s", pl->name,
                     arena_plan_status_name(plan.status));
    cr_expect_lt(spent, 0.1, "%s: %.3f s of CPU with the flag set before the call", pl->name,
                 spent);
    free((void *)p.tensors);
    free(off);
}

/* The flag set by a CPU-time timer (SIGPROF) 50 ms into the call, the CPU
 * time read in the handler. */
static volatile sig_atomic_t prof_stop;
static struct timespec prof_at;

static void on_prof(int sig)
{
    (void)sig;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &prof_at); /* async-signal-safe */
    prof_stop = 1;
}

/* 100,000 tensors, ~1,000 live (min-cost-flow 5,000): the flag lands 50 ms
 * of CPU into the call and the call must end within 100 ms of CPU after it.
 * The planners that take seconds here (greedy-by-size took 2.2 s and went
 * on for all of it) must have been stopped: status limit. Search planners
 * also carry a 30 s limit, so a planner that ignores the flag fails rather
 * than hangs. */
ParameterizedTestParameters(planners, stop_flag_ends_the_call_within_100_ms)
{
    return every_planner();
}

ParameterizedTest(size_t *index, planners, stop_flag_ends_the_call_within_100_ms)
{
    static const char *const slow[] = {"greedy-by-size", "greedy-by-size-firstfit",
                                       "greedy-by-breadth", "min-cost-flow", "hill-climb",
                                       "xla-best-fit", "optimal"};
    const struct arena_planner *pl = arena_planner_at(*index);
    int is_slow = 0;
    for (size_t i = 0; i < sizeof slow / sizeof slow[0]; i++)
        is_slow |= strcmp(pl->name, slow[i]) == 0;
    struct arena_problem p;
    uint64_t *off;
    stop_problem(pl, 100000, &p, &off);
    struct arena_plan_options opt = {.stop = &prof_stop, .time_limit = 30};
    struct sigaction act;
    memset(&act, 0, sizeof act);
    act.sa_handler = on_prof;
    sigemptyset(&act.sa_mask);
    cr_assert_eq(sigaction(SIGPROF, &act, NULL), 0);
    prof_stop = 0;
    /* the scratch first touched outside the call (70 MiB for optimal: a
     * quarter of a second of page faults that are not the planner's) */
    size_t bytes;
    cr_assert_eq(arena_planner_scratch(pl, &p, &bytes), ARENA_OK);
    void *scratch = malloc(bytes ? bytes : 1);
    cr_assert(scratch);
    memset(scratch, 0xA5, bytes);
    struct arena_plan plan = {.n = p.n, .offsets = off};
    struct itimerval at = {.it_value = {.tv_sec = 0, .tv_usec = 50000}};
    cr_assert_eq(setitimer(ITIMER_PROF, &at, NULL), 0);
    int rc = arena_planner_run(pl, &p, &opt, scratch, bytes, &plan);
    double end = cpu_seconds();
    struct itimerval off_timer = {{0, 0}, {0, 0}};
    setitimer(ITIMER_PROF, &off_timer, NULL);
    free(scratch);
    cr_assert_eq(rc, ARENA_OK, "%s: %s", pl->name, arena_strerror(rc));
    expect_plan_valid(&p, &plan, pl->name);
    if (prof_stop) {
        double after = end - ((double)prof_at.tv_sec + 1e-9 * (double)prof_at.tv_nsec);
        cr_expect_lt(after, 0.1, "%s: %.3f s of CPU after the stop flag", pl->name, after);
    }
    if (is_slow) {
        cr_expect(prof_stop, "%s: returned before the flag, 50 ms of CPU in", pl->name);
        cr_expect_eq(plan.status, ARENA_PLAN_LIMIT, "%s: status %s", pl->name,
                     arena_plan_status_name(plan.status));
    }
    free((void *)p.tensors);
    free(off);
}

/* ---- known answers: naive ---------------------------------------------- */

Test(planners, naive_known_answers)
{
    /* Offsets are running sums in id order; arena = Σ size. */
    const uint64_t chain[] = {0, 16, 24, 88, 120}; /* 16, 8, 64, 32, 8: 128 */
    expect_plan("naive", ka_chain, 5, 8, chain, 128, 0);
    const uint64_t nine[] = {0, 32, 64, 72, 88, 96, 160, 168, 176}; /* + 16 = 192 */
    expect_plan("naive", ka_nine, 9, 8, nine, 192, 0);
    const uint64_t founding[] = {0, 120 * K1, 240 * K1, 320 * K1}; /* + 20K = 340K */
    expect_plan("naive", ka_founding, 4, 16, founding, 340 * K1, 0);
    const uint64_t ff[] = {0, 10, 30, 60, 100}; /* + 50 = 150 */
    expect_plan("naive", ka_firstfit, 5, 2, ff, 150, 0);
}

/* ---- known answers: ping-pong -------------------------------------------
 * Worked by hand: tensors by first (ties id) take the lowest slot whose
 * occupant's last < their first; K slots of M = largest size; the slot of
 * the lowest-id largest tensor is laid out on top (offset (K-1)·M) and the
 * last slot takes its place. */

Test(planners, ping_pong_four_tensor_example)
{
    /* T0 s0; T1 s1 (T0 lives at 1); T2 s0 (T0 ended at 1 < 2); T3: s0 holds
     * T2 to step 3, s1's T1 ended at 2 < 3: s1. K = 2, M = 120K. T0 (first
     * largest) is in s0: s0 goes on top (120K), s1 to 0. Arena 240K. */
    const uint64_t off[] = {120 * K1, 0, 120 * K1, 0};
    expect_plan("ping-pong", ka_founding, 4, 16, off, 240 * K1, 2);
}

Test(planners, ping_pong_chain)
{
    /* T0 s0, T1 s1, T2 s0, T3 s1, T4 s0; K = 2, M = 64 (T2, in s0): s0 on
     * top at 64, s1 at 0. Arena 2 × 64 = 128. */
    const uint64_t off[] = {64, 0, 64, 0, 64};
    expect_plan("ping-pong", ka_chain, 5, 8, off, 128, 2);
}

Test(planners, ping_pong_firstfit_case)
{
    /* Order by first, ties id: T0, T4 (both 0), T1, T2, T3. T0 s0, T4 s1, T1:
     * s0 and s1 live at 1: s2. T2 [2,3]: s0 (T0 ended 1). T3 [3,4]: s0 busy
     * (T2 to 3), s1's T4 ended 1: s1. K = 3, M = 50 = T4 in s1: s1 on top
     * (100), s2 takes position 1 (50), s0 stays 0. Arena 150. */
    const uint64_t off[] = {0, 50, 0, 100, 100};
    expect_plan("ping-pong", ka_firstfit, 5, 2, off, 150, 3);
}

Test(planners, ping_pong_three_and_descending)
{
    /* three: T0 s0, T2 (first 1) s1, T1 (first 2) s0; M = 100 (T0, s0):
     * s0 on top. Offsets T0 100, T1 100, T2 0; arena 200. */
    const uint64_t three[] = {100, 100, 0};
    expect_plan("ping-pong", ka_three, 3, 2, three, 200, 2);
    /* descending: T0 s0, T1 s1, T2 s0; M = 100 (T0, s0): 100, 0, 100; 200. */
    const uint64_t desc[] = {100, 0, 100};
    expect_plan("ping-pong", ka_descending, 3, 4, desc, 200, 2);
}

Test(planners, ping_pong_six)
{
    /* By first: T1 (1), T5 (2), T0, T3, T4 (3), T2 (4). T1 s0 [1,3]; T5 [2,2]
     * s1; T0 [3,4]: s0 busy, s1's T5 ended 2: s1; T3 [3,3]: s2; T4 [3,4]: s3;
     * T2 [4,6]: s0 (T1 ended 3). K = 4, M = 90 (T5, s1): s1 on top (270),
     * s3 to position 1 (90), s2 at 180, s0 at 0. Arena 360. */
    const uint64_t off[] = {270, 0, 0, 180, 90, 270};
    expect_plan("ping-pong", ka_six, 6, 2, off, 360, 4);
}

Test(planners, ping_pong_nine)
{
    /* By first = id order. T0 s0 [0,1]; T1 s1 [1,4]; T2 [2,5] s0 (T0 ended 1);
     * T3 [3,5] s2; T4 [4,5] s3 (s0..s2 live at 4); T5 [5,7]: s1's T1 ended 4:
     * s1; T6 [6,8]: s0 (T2 ended 5); T7 [7,8]: s2 (T3 ended 5); T8 [8,9]: s1
     * and s3 are free (T5 ended 7, T4 5) but s0 (T6) and s2 (T7) are not:
     * lowest free is s1. K = 4, M = 64 (T5, s1): s1 on top (192), s3 to 64,
     * s2 at 128, s0 at 0. Arena 256. */
    const uint64_t off[] = {0, 192, 0, 128, 64, 192, 0, 128, 192};
    expect_plan("ping-pong", ka_nine, 9, 8, off, 256, 4);
}

/* ---- known answers: interval-graph-coloring -------------------------------
 * Worked by hand: tensors largest first (ties first, then id); each takes the
 * non-conflicting colour with the smallest buffer (lowest colour on ties), or
 * opens a new one; buffers laid out in colour order. */

Test(planners, coloring_four_tensor_example)
{
    /* T0 c0 (120K); T1 meets T0 at step 1: c1 (120K); T2 [2,3]: c0 free (T0
     * ended 1), c1 holds T1 to 2: c0; T3 [3,4]: c0 holds T2 to 3, c1 free:
     * c1. Arena 240K, 2 colours. */
    const uint64_t off[] = {0, 120 * K1, 0, 120 * K1};
    expect_plan("interval-graph-coloring", ka_founding, 4, 16, off, 240 * K1, 2);
}

Test(planners, coloring_chain)
{
    /* Order T2 (64), T3 (32), T0 (16), T1 (8, first 1), T4 (8, first 4).
     * T2 c0 [64]; T3 [3,4] meets T2: c1 [32]; T0 [0,1]: c0 and c1 free,
     * smallest is c1; T1 [1,2]: c0 has T2 [2,3], c1 has T0 [0,1]: new c2 [8];
     * T4 [4,5]: c0 free (64), c1 has T3 [3,4], c2 free (8): c2.
     * Buffers 64 + 32 + 8: bases 0, 64, 96; arena 104. */
    const uint64_t off[] = {64, 96, 0, 64, 96};
    expect_plan("interval-graph-coloring", ka_chain, 5, 8, off, 104, 3);
}

Test(planners, coloring_nine)
{
    /* Order T5 64, T0 32, T1 32, T3 16, T8 16, T2 8, T4 8, T6 8, T7 8.
     * T5 [5,7] c0 (64). T0 [0,1] c0 (no conflict). T1 [1,4] meets T0: c1 (32).
     * T3 [3,5] meets T5 and T1: c2 (16). T8 [8,9]: c0, c1, c2 all free,
     * smallest c2. T2 [2,5] meets T5, T1, T3: c3 (8). T4 [4,5] meets T5, T1,
     * T3, T2: c4 (8). T6 [6,8]: c0 has T5, c2 has T8; c1, c3, c4 free;
     * smallest 8: c3 and c4 tie, lowest is c3. T7 [7,8]: c0 T5, c2 T8, c3 T6;
     * c1 (32) and c4 (8) free: c4. Buffers 64, 32, 16, 8, 8: bases 0, 64, 96,
     * 112, 120; arena 128 (best shared-object plans reach 112). */
    const uint64_t off[] = {0, 64, 112, 96, 120, 0, 112, 120, 96};
    expect_plan("interval-graph-coloring", ka_nine, 9, 8, off, 128, 5);
}

Test(planners, coloring_firstfit_case)
{
    /* Order T4 50, T3 40, T2 30, T1 20, T0 10. T4 [0,1] c0; T3 [3,4] c0;
     * T2 [2,3] meets T3: c1 (30); T1 [1,2] meets T4 and T2: c2 (20);
     * T0 [0,1]: c0 has T4, c2 has T1, c1 free: c1. Bases 0, 50, 80: arena 100. */
    const uint64_t off[] = {50, 80, 50, 0, 0};
    expect_plan("interval-graph-coloring", ka_firstfit, 5, 2, off, 100, 3);
}

Test(planners, coloring_three_descending_six)
{
    /* three: T0 c0; T1 [2,3] c0; T2 [1,2] meets both: c1 (20). Arena 120 = lb. */
    const uint64_t three[] = {0, 0, 100};
    expect_plan("interval-graph-coloring", ka_three, 3, 2, three, 120, 2);
    /* descending: T0 c0; T1 meets T0: c1 (80); T2 [2,3]: c0 free: c0. 180 = lb. */
    const uint64_t desc[] = {0, 100, 0};
    expect_plan("interval-graph-coloring", ka_descending, 3, 4, desc, 180, 2);
    /* six: order T5 90, T2 50, T1 30, T0 20 (first 3, id 0), T3 20, T4 10.
     * T5 [2,2] c0; T2 [4,6] c0; T1 [1,3] meets T5: c1 (30); T0 [3,4] meets
     * T2 and T1: c2 (20); T3 [3,3]: c0 free (T5 ended 2, T2 starts 4), c1 and
     * c2 not: c0; T4 [3,4] meets T3, T1, T0: c3 (10). Bases 0, 90, 120, 140:
     * arena 150. */
    const uint64_t six[] = {120, 90, 0, 0, 140, 0};
    expect_plan("interval-graph-coloring", ka_six, 6, 2, six, 150, 4);
}

/* ---- every registered planner: edge cases and properties ----------------- */

ParameterizedTestParameters(planners, edge_cases)
{
    return every_planner();
}

ParameterizedTest(size_t *index, planners, edge_cases)
{
    const struct arena_planner *pl = arena_planner_at(*index);
    uint64_t off[16];
    struct arena_plan plan;

    /* Empty problem: arena 0. */
    struct arena_problem empty = {.n = 0, .tensors = NULL, .alignment = 16};
    cr_assert_eq(run(pl, &empty, NULL, &plan, 0), ARENA_OK, "%s", pl->name);
    cr_expect_eq(plan.arena, 0, "%s", pl->name);
    expect_plan_valid(&empty, &plan, pl->name);

    /* One tensor: at 0, arena = its size. */
    const struct arena_tensor one[] = {{48, 2, 7}};
    struct arena_problem p1 = {.n = 1, .tensors = one, .alignment = 16};
    cr_assert_eq(run(pl, &p1, off, &plan, 0), ARENA_OK, "%s", pl->name);
    expect_plan_valid(&p1, &plan, pl->name);
    cr_expect_eq(off[0], 0, "%s", pl->name);
    cr_expect_eq(plan.arena, 48, "%s", pl->name);

    /* All live at once: every pair conflicts, so no byte is shared and any
     * valid plan's arena is at least, and for these planners exactly, Σ size. */
    const struct arena_tensor all[] = {{16, 0, 9}, {64, 0, 9}, {32, 0, 9}, {64, 0, 9},
                                       {16, 0, 9}, {48, 0, 9}};
    struct arena_problem pa = {.n = 6, .tensors = all, .alignment = 16};
    cr_assert_eq(run(pl, &pa, off, &plan, 0xff), ARENA_OK, "%s", pl->name);
    expect_plan_valid(&pa, &plan, pl->name);
    if (strcmp(pl->name, "ping-pong") == 0)
        cr_expect_eq(plan.arena, 6 * 64, "ping-pong: 6 slots of 64");
    else
        cr_expect_eq(plan.arena, 240, "%s: arena %llu", pl->name,
                     (unsigned long long)plan.arena);

    /* Only zero-size tensors: nothing to place, arena 0. */
    const struct arena_tensor zero[] = {{0, 0, 3}, {0, 1, 2}, {0, 2, 5}};
    struct arena_problem pz = {.n = 3, .tensors = zero, .alignment = 16};
    cr_assert_eq(run(pl, &pz, off, &plan, 0x11), ARENA_OK, "%s", pl->name);
    expect_plan_valid(&pz, &plan, pl->name);
    cr_expect_eq(plan.arena, 0, "%s", pl->name);

    /* Sizes at the 2^62 limit: three fit in 64 bits (all live: 3·2^62). */
    const uint64_t max = (uint64_t)1 << 62;
    const struct arena_tensor big[] = {{max, 0, 2}, {max, 1, 3}, {max, 2, 4}};
    struct arena_problem pb = {.n = 3, .tensors = big, .alignment = 16};
    cr_assert_eq(run(pl, &pb, off, &plan, 0x22), ARENA_OK, "%s", pl->name);
    expect_plan_valid(&pb, &plan, pl->name);
    cr_expect_eq(plan.arena, 3 * max, "%s", pl->name);
    /* A fourth makes the sum 2^64, one past what 64 bits hold: the
     * documented ARENA_EOVERFLOW, never a wrapped arena. */
    const struct arena_tensor over[] = {{max, 0, 2}, {max, 1, 3}, {max, 2, 4}, {max, 3, 5}};
    struct arena_problem po = {.n = 4, .tensors = over, .alignment = 16};
    cr_expect_eq(run(pl, &po, off, &plan, 0x33), ARENA_EOVERFLOW, "%s", pl->name);

    /* A bad problem is refused with its code, whatever the planner. */
    const struct arena_tensor backwards[] = {{16, 5, 4}};
    struct arena_problem pbad = {.n = 1, .tensors = backwards, .alignment = 16};
    cr_expect_eq(run(pl, &pbad, off, &plan, 0), ARENA_EINVAL, "%s", pl->name);
    pbad.tensors = one;
    pbad.alignment = 24;
    cr_expect_eq(run(pl, &pbad, off, &plan, 0), ARENA_EINVAL, "%s", pl->name);
}

/* Sizes summing to exactly 2^64 - 1 fit (arena_problem_check accepts them),
 * so a plan whose arena is that sum must come back: all four live at once,
 * every planner that places by offsets or in buffers of the tensors' own
 * sizes stacks them to 2^64 - 1 (the greedy planners used to refuse this
 * with ARENA_EOVERFLOW, one byte short of the limit). Ping-pong's K × M =
 * 4 × 2^62 = 2^64 does not fit: ARENA_EOVERFLOW. */
Test(planners, sizes_summing_to_uint64_max)
{
    const uint64_t q = (uint64_t)1 << 62;
    const struct arena_tensor t[] = {{q, 0, 3}, {q, 0, 3}, {q - 1, 0, 3}, {q, 0, 3}};
    struct arena_problem p = {.n = 4, .tensors = t, .alignment = 1};
    static const char *const fits[] = {"naive", "greedy-by-size", "greedy-by-size-firstfit",
                                       "greedy-by-breadth", "interval-graph-coloring"};
    uint64_t off[4];
    struct arena_plan plan;
    for (size_t i = 0; i < sizeof fits / sizeof fits[0]; i++) {
        cr_assert_eq(run(must_find(fits[i]), &p, off, &plan, 0x5A), ARENA_OK, "%s", fits[i]);
        expect_plan_valid(&p, &plan, fits[i]);
        cr_expect_eq(plan.arena, UINT64_MAX, "%s", fits[i]);
    }
    cr_expect_eq(run(must_find("ping-pong"), &p, off, &plan, 0x5A), ARENA_EOVERFLOW);
}

/* The coloring identity, read back from the plan alone: tensors of one colour
 * share its base, the base holds a tensor as large as the buffer, and bases
 * follow one another; returns the number of buffers with bytes. */
static uint32_t check_colour_layout(const struct arena_problem *p, const struct arena_plan *plan,
                                    uint32_t *by_off)
{
    size_t m = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->tensors[i].size > 0)
            by_off[m++] = (uint32_t)i;
    /* Insertion sort by offset: n is small where this runs. */
    for (size_t i = 1; i < m; i++) {
        uint32_t x = by_off[i];
        size_t j = i;
        for (; j > 0 && plan->offsets[by_off[j - 1]] > plan->offsets[x]; j--)
            by_off[j] = by_off[j - 1];
        by_off[j] = x;
    }
    uint64_t base = 0;
    uint32_t colours = 0;
    for (size_t i = 0; i < m;) {
        uint64_t o = plan->offsets[by_off[i]], buf = 0;
        cr_assert_eq(o, base, "colour %u starts at %llu, not at %llu", colours,
                     (unsigned long long)o, (unsigned long long)base);
        for (; i < m && plan->offsets[by_off[i]] == o; i++)
            if (p->tensors[by_off[i]].size > buf)
                buf = p->tensors[by_off[i]].size;
        base += buf;
        colours++;
    }
    cr_assert_eq(plan->arena, base, "arena %llu is not the sum of buffers %llu",
                 (unsigned long long)plan->arena, (unsigned long long)base);
    return colours;
}

ParameterizedTestParameters(planners, random_properties)
{
    return every_planner();
}

/* At least 10,000 seeded problems per planner: most with n <= 64, one in 40
 * with n from 65 to 2,000, every shape, alignments 1 to 64. */
ParameterizedTest(size_t *index, planners, random_properties)
{
    enum { PROBLEMS = 10000, MAXN = 2000 };
    const struct arena_planner *pl = arena_planner_at(*index);
    int is_naive = strcmp(pl->name, "naive") == 0;
    int is_ping_pong = strcmp(pl->name, "ping-pong") == 0;
    int is_coloring = strcmp(pl->name, "interval-graph-coloring") == 0;
    static const uint64_t alignments[] = {16, 1, 8, 64};
    struct arena_tensor *t = malloc(MAXN * sizeof *t);
    uint64_t *off = malloc(MAXN * sizeof *off), *again = malloc(MAXN * sizeof *again);
    uint32_t *work = malloc(MAXN * sizeof *work);
    cr_assert(t && off && again && work);
    size_t big = 0;
    /* min-cost-flow (O(n^3)) and hill-climb (500 first-fit rounds) would take
     * minutes here: they get one problem in eight, large ones cut to 200
     * tensors; test_field.c checks both against references. */
    int is_slow = strcmp(pl->name, "min-cost-flow") == 0 || strcmp(pl->name, "hill-climb") == 0;
    for (uint64_t k = 0; k < PROBLEMS; k++) {
        struct rp_rng r;
        rp_seed(&r, k * 1000003 + 17);
        size_t n = k % 40 == 39 ? 65 + (size_t)rp_below(&r, MAXN - 64)
                                : 1 + (size_t)rp_below(&r, 64);
        big += n > 64;
        if (is_slow && k % 8 != 7)
            continue;
        if (is_slow && n > 200)
            n = 65 + n % 136;
        enum rp_shape shape = (enum rp_shape)(k % RP_SHAPES);
        /* Wide problems keep about n/3 tensors live at once, so any planner
         * costs about n² on them: cap them at 500 to keep the suite fast. */
        if (shape == RP_WIDE && n > 500)
            n = 65 + n % 436;
        uint64_t alignment = alignments[k % 4];
        rp_problem(k, n, shape, alignment, t);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = alignment};
        struct arena_bounds b;
        cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
        struct arena_plan plan, plan2;
        int rc = run(pl, &p, off, &plan, 0x00);
        cr_assert_eq(rc, ARENA_OK, "%s problem %llu (%s, n %zu): %s", pl->name,
                     (unsigned long long)k, rp_shape_name(shape), n, arena_strerror(rc));
        char who[96];
        snprintf(who, sizeof who, "%s problem %llu (%s, n %zu)", pl->name,
                 (unsigned long long)k, rp_shape_name(shape), n);
        expect_plan_valid(&p, &plan, who);
        cr_assert_geq(plan.arena, b.lower_bound, "%s: arena below the lower bound", who);
        if (is_ping_pong) {
            /* K × M can exceed Σ size (one large tensor, many small ones). */
            cr_assert_eq(plan.buffers, b.max_live, "%s: K %u, max live %u", who, plan.buffers,
                         b.max_live);
            cr_assert_eq(plan.arena, (uint64_t)b.max_live * b.largest, "%s: arena != K × M",
                         who);
        } else if (strcmp(pl->name, "online-buddy") != 0) {
            /* (online-buddy rounds blocks up to powers of two: it can.) */
            cr_assert_leq(plan.arena, b.naive_bytes, "%s: arena above naive", who);
        }
        if (is_naive)
            cr_assert_eq(plan.arena, b.naive_bytes, "%s", who);
        if (is_coloring) {
            uint32_t with_bytes = check_colour_layout(&p, &plan, work);
            cr_assert_leq(with_bytes, plan.buffers, "%s", who);
            cr_assert_geq(plan.buffers, b.max_live, "%s: fewer colours than the clique", who);
        }
        /* Same problem, different scratch contents: the same plan (every
         * small problem, one large one in four). */
        if (n > 64 && k % 160 != 39)
            continue;
        cr_assert_eq(run(pl, &p, again, &plan2, 0xA5), ARENA_OK);
        cr_assert_eq(plan2.arena, plan.arena, "%s: not deterministic", who);
        cr_assert_eq(plan2.buffers, plan.buffers, "%s: not deterministic", who);
        cr_assert_arr_eq(again, off, n * sizeof *off, "%s: offsets not deterministic", who);
    }
    cr_expect_geq(big, 200, "large problems: %zu", big);
    free(t);
    free(off);
    free(again);
    free(work);
}
