/* test_optimal_lcg.c — the lcg engine of planner optimal
 * (planners/optimal/lcg/, Z3 with a user propagator): every explanation
 * its propagator hands Z3 rechecked from its edges alone, by a longest
 * path of our own (a cycle of "below", or a chain whose sizes pass the
 * capacity: else the clause Z3 learns from it would cut plans), and its
 * budgets: the stop flag within 100 ms of CPU, the time limit, a node
 * limit the same on every run. The oracle tests with the engine alone
 * (orders, MIP) are test_optimal.c's: expect_optimal runs every engine. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "graphs/family.h"
#include "planners/optimal.h"
#include "planners/planner.h"
#include "planners/problem.h"
#include "tests/expect_plan.h"
#include "tests/asan.h"
#include "tests/random_problems.h"

/* Under LeakSanitizer (CI's build-san): Z3 4.8.12 leaks 64 bytes on its
 * out-of-memory path (z3_out_of_memory_ends_the_call_with_a_note), inside
 * libz3 alone; the engine frees all it holds (the other tests here show no
 * leak). Leaks from within libz3 are not ours to report. */
#ifdef TD_UNDER_ASAN
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libz3.so\n";
}
#endif

static void build_spec(const char *text, struct arena_problem *p)
{
    struct arena_spec spec;
    char err[256];
    size_t ops;
    cr_assert_eq(arena_spec_parse(text, 1, &spec, err, sizeof err), ARENA_OK, "%s: %s", text, err);
    cr_assert_eq(arena_spec_build(&spec, 16, p, &ops, NULL, err, sizeof err), ARENA_OK, "%s: %s",
                 text, err);
}

/* ---- the lemma checker ------------------------------------------------- */

/* The static domains of rule lcg-domains, recomputed here independently of
 * the engine (which shifts bitsets by divide and conquer): per section, the
 * number of subsets of its tensors summing to each value (a count, so that
 * one tensor can be taken out again: cnt_k[v] = cnt[v] - cnt_k[v - z_k]),
 * then the offsets within the section's slack above a subset sum of the
 * others, intersected over k's sections. */
struct domains {
    uint64_t T;    /* units: 0, none computed */
    uint32_t m;
    uint64_t *z;   /* m: the copy they are of */
    uint32_t *s0, *s1;
    unsigned char *ok; /* m * (T + 1): offset v of k allowed */
};

static void domains_free(struct domains *d)
{
    free(d->z);
    free(d->s0);
    free(d->s1);
    free(d->ok);
    *d = (struct domains){0};
}

static int domains_are_of(const struct domains *d, uint64_t T, const uint64_t *z, uint32_t m,
                          const uint32_t *s0, const uint32_t *s1)
{
    return d->T == T && d->m == m && memcmp(d->z, z, m * sizeof *z) == 0 &&
           memcmp(d->s0, s0, m * sizeof *s0) == 0 && memcmp(d->s1, s1, m * sizeof *s1) == 0;
}

static void domains_compute(struct domains *d, uint64_t T, const uint64_t *z, uint32_t m,
                            const uint32_t *s0, const uint32_t *s1)
{
    domains_free(d);
    d->T = T;
    d->m = m;
    d->z = malloc(m * sizeof *d->z);
    d->s0 = malloc(m * sizeof *d->s0);
    d->s1 = malloc(m * sizeof *d->s1);
    d->ok = malloc((size_t)m * (T + 1));
    uint64_t *cnt = malloc((T + 1) * sizeof *cnt), *cntk = malloc((T + 1) * sizeof *cntk);
    cr_assert(d->z && d->s0 && d->s1 && d->ok && cnt && cntk);
    memcpy(d->z, z, m * sizeof *z);
    memcpy(d->s0, s0, m * sizeof *s0);
    memcpy(d->s1, s1, m * sizeof *s1);
    uint32_t S = 0;
    for (uint32_t k = 0; k < m; k++) {
        S = s1[k] > S ? s1[k] : S;
        for (uint64_t v = 0; v <= T; v++)
            d->ok[(size_t)k * (T + 1) + v] = z[k] <= T && v <= T - z[k];
    }
    for (uint32_t x = 0; x < S; x++) {
        uint64_t load = 0;
        uint32_t live = 0;
        memset(cnt, 0, (T + 1) * sizeof *cnt);
        cnt[0] = 1;
        for (uint32_t j = 0; j < m; j++)
            if (s0[j] <= x && x < s1[j]) {
                load += z[j];
                live++;
                for (uint64_t v = T + 1; v-- > z[j];)
                    cnt[v] += cnt[v - z[j]];
            }
        cr_assert_lt(live, 64, "a count of subsets of %u tensors may wrap", live);
        for (uint32_t k = 0; k < m; k++) {
            if (!(s0[k] <= x && x < s1[k]))
                continue;
            unsigned char *ok = d->ok + (size_t)k * (T + 1);
            if (load > T) {
                memset(ok, 0, T + 1);
                continue;
            }
            uint64_t slack = T - load;
            for (uint64_t v = 0; v <= T; v++) /* the subsets without k */
                cntk[v] = cnt[v] - (v >= z[k] ? cntk[v - z[k]] : 0);
            uint64_t last = UINT64_MAX; /* the last subset sum at or below v */
            for (uint64_t v = 0; v <= T; v++) {
                if (cntk[v] != 0)
                    last = v;
                if (last == UINT64_MAX || v - last > slack)
                    ok[v] = 0;
            }
        }
    }
    free(cnt);
    free(cntk);
}

/* v rounded up to an allowed offset of k (T + 1: none). */
static uint64_t domain_up(const struct domains *d, uint32_t k, uint64_t v)
{
    for (; v <= d->T; v++)
        if (d->ok[(size_t)k * (d->T + 1) + v])
            return v;
    return d->T + 1;
}

struct checker {
    uint64_t lemmas, bad, longest_chain;
    uint64_t rounded; /* lemmas whose chains pass cap only rounded */
    uint32_t *at;      /* m: a node's index among the lemma's nodes, or UINT32_MAX */
    uint32_t *node, *indeg, *order, *next;
    uint64_t *dist, *rise;
    struct stacked { uint64_t least, z; } *set;
    size_t cap_m;
    struct domains dom;
    char first_bad[160];
};

static int by_least_down(const void *a, const void *b)
{
    const struct stacked *x = a, *y = b;
    return x->least < y->least ? 1 : x->least > y->least ? -1 : 0;
}

/* Nodes q[0..nq) all lie on one side of a node (below it, or above it),
 * each at least least[] away from the far end (its least offset, or the
 * least gap above its top): how far the near end is at least. Those alive
 * in one section pairwise meet in time, so lie apart in any plan: the ones
 * at least L away stack to L plus their sizes (rule lcg-energy; one node
 * alone: a chain's step). A set meeting pairwise shares a section: the
 * latest first section among them. */
static uint64_t stacked(struct checker *c, const uint32_t *q, size_t nq, const uint64_t *least,
                        const uint64_t *z, const uint32_t *s0, const uint32_t *s1)
{
    uint64_t best = 0;
    for (size_t i = 0; i < nq; i++) {
        uint32_t x = s0[c->node[q[i]]];
        size_t k = 0;
        for (size_t j = 0; j < nq; j++) {
            uint32_t t = c->node[q[j]];
            if (s0[t] <= x && x < s1[t])
                c->set[k++] = (struct stacked){least[q[j]], z[t]};
        }
        qsort(c->set, k, sizeof *c->set, by_least_down);
        uint64_t sum = 0;
        for (size_t j = 0; j < k; j++) {
            sum += c->set[j].z;
            if (c->set[j].least + sum > best)
                best = c->set[j].least + sum;
        }
    }
    return best;
}

/* The longest chain along the lemma's edges over its `nodes` nodes (c->at,
 * c->node), or UINT64_MAX for a cycle: Kahn's order, then from below each
 * node's least offset (dist: its predecessors stacked) and from above its
 * size and the least gap above it (rise: its successors stacked), with d
 * (NULL: none) both rounded up at each node to its static domain. */
static uint64_t chains(struct checker *c, const uint32_t *lo, const uint32_t *hi, uint32_t n,
                       const uint64_t *z, const uint32_t *s0, const uint32_t *s1, size_t nodes,
                       const struct domains *d)
{
    for (size_t v = 0; v < nodes; v++) {
        c->indeg[v] = 0;
        c->dist[v] = 0;
        c->rise[v] = 0;
    }
    for (uint32_t i = 0; i < n; i++)
        c->indeg[c->at[hi[i]]]++;
    size_t done = 0, head = 0;
    for (size_t v = 0; v < nodes; v++)
        if (c->indeg[v] == 0)
            c->order[done++] = (uint32_t)v;
    while (head < done) {
        uint32_t v = c->order[head++];
        size_t np = 0; /* v's predecessors, all before it in the order */
        for (uint32_t i = 0; i < n; i++) /* n is small: a scan per node */
            if (c->at[hi[i]] == v)
                c->next[np++] = c->at[lo[i]];
        c->dist[v] = stacked(c, c->next, np, c->dist, z, s0, s1);
        if (d != NULL)
            c->dist[v] = domain_up(d, c->node[v], c->dist[v]);
        for (uint32_t i = 0; i < n; i++)
            if (c->at[lo[i]] == v && --c->indeg[c->at[hi[i]]] == 0)
                c->order[done++] = c->at[hi[i]];
    }
    if (done < nodes)
        return UINT64_MAX;
    uint64_t longest = 0;
    for (size_t at = done; at-- > 0;) {
        uint32_t v = c->order[at];
        size_t ns = 0; /* v's successors: rise[] holds their least gaps */
        for (uint32_t i = 0; i < n; i++)
            if (c->at[lo[i]] == v)
                c->next[ns++] = c->at[hi[i]];
        uint64_t gap = stacked(c, c->next, ns, c->rise, z, s0, s1);
        if (d != NULL)
            gap = domain_up(d, c->node[v], gap);
        if (c->dist[v] + gap + z[c->node[v]] > longest)
            longest = c->dist[v] + gap + z[c->node[v]];
        c->rise[v] = gap; /* the least gap above v's top, for those below */
    }
    return longest;
}

/* The edges lo[i] -> hi[i] ("lies below"), sizes z, sections [s0, s1):
 * valid when they hold a cycle, or a chain whose sizes sum past cap (a
 * section's tensors on one side of a node stacked; with domains, rounded
 * chains: struct domains). */
static void check_lemma(void *ctx, const uint32_t *lo, const uint32_t *hi, uint32_t n,
                        uint64_t cap, const uint64_t *z, uint32_t m, const uint32_t *s0,
                        const uint32_t *s1, uint64_t domains)
{
    struct checker *c = ctx;
    if (c->cap_m < m) {
        free(c->at);
        c->at = malloc(m * sizeof *c->at);
        cr_assert(c->at);
        memset(c->at, 0xFF, m * sizeof *c->at);
        c->cap_m = m;
    }
    if (domains != 0 && !domains_are_of(&c->dom, domains, z, m, s0, s1))
        domains_compute(&c->dom, domains, z, m, s0, s1);
    size_t nodes = 0, size = 2 * (size_t)n + 2;
    c->node = realloc(c->node, size * sizeof *c->node);
    c->indeg = realloc(c->indeg, size * sizeof *c->indeg);
    c->order = realloc(c->order, size * sizeof *c->order);
    c->dist = realloc(c->dist, size * sizeof *c->dist);
    c->rise = realloc(c->rise, size * sizeof *c->rise);
    c->next = realloc(c->next, size * sizeof *c->next);
    c->set = realloc(c->set, size * sizeof *c->set);
    cr_assert(c->node && c->indeg && c->order && c->dist && c->rise && c->next && c->set);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t ends[2] = {lo[i], hi[i]};
        for (int e = 0; e < 2; e++)
            if (c->at[ends[e]] == UINT32_MAX) {
                cr_assert_lt(ends[e], m);
                c->at[ends[e]] = (uint32_t)nodes;
                c->node[nodes++] = ends[e];
            }
    }
    uint64_t plain = chains(c, lo, hi, n, z, s0, s1, nodes, NULL);
    uint64_t longest = domains != 0 ? chains(c, lo, hi, n, z, s0, s1, nodes, &c->dom) : plain;
    int cycle = longest == UINT64_MAX;
    c->lemmas++;
    c->rounded += !cycle && plain <= cap && longest > cap; /* valid by the domains alone */
    if (!cycle && longest <= cap) {
        if (c->bad++ == 0)
            snprintf(c->first_bad, sizeof c->first_bad,
                     "%u edges, longest chain %llu units, capacity %llu", n,
                     (unsigned long long)longest, (unsigned long long)cap);
    }
    if (!cycle && longest > c->longest_chain)
        c->longest_chain = longest;
    for (size_t v = 0; v < nodes; v++)
        c->at[c->node[v]] = UINT32_MAX;
}

static void checker_free(struct checker *c)
{
    free(c->at);
    free(c->node);
    free(c->indeg);
    free(c->order);
    free(c->dist);
    free(c->rise);
    free(c->next);
    free(c->set);
    domains_free(&c->dom);
}

/* Runs optimal with the lcg engine on p, every explanation checked. */
static void run_checked(const struct arena_problem *p, struct arena_plan_options *opt,
                        struct checker *c, const char *who, struct arena_plan *plan)
{
    size_t bytes;
    cr_assert_eq(arena_planner_scratch(must_find("optimal"), p, &bytes), ARENA_OK);
    void *scratch = malloc(bytes ? bytes : 1);
    uint64_t *off = malloc((p->n ? p->n : 1) * sizeof *off);
    cr_assert(scratch && off);
    *plan = (struct arena_plan){.n = p->n, .offsets = off};
    struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
    arena_optimal_values(kv, ARENA_OPTIMAL_ENGINE_LCG, 0);
    struct arena_plan_options with = *opt;
    with.values = kv;
    cr_assert_eq(arena_optimal_lcg_lemmas(p, &with, scratch, bytes, plan, check_lemma, c, 0),
                 ARENA_OK, "%s", who);
    expect_plan_valid(p, plan, who);
    cr_expect_eq(c->bad, 0, "%s: %llu of %llu explanations cut plans; the first: %s", who,
                 (unsigned long long)c->bad, (unsigned long long)c->lemmas, c->first_bad);
    plan->offsets = NULL;
    free(off);
    free(scratch);
}

/* Slack boxes (optimum = max-live, a plan there takes a few hundred
 * conflicts), asked at the bound and, in decision mode, two steps below
 * it (refuted: every conflict counts), then random small problems at a
 * capacity below their optimum: every explanation is a cycle or a chain
 * past the capacity. */
Test(optimal_lcg, every_explanation_is_a_chain_past_the_capacity)
{
    struct checker c = {0};
    char who[96];
    uint64_t proven = 0, refuted = 0;
    for (unsigned k = 0; k < 8; k++) {
        snprintf(who, sizeof who, "slack:n=%u,seed=%u", 50 + 10 * (k % 4), 1 + k);
        struct arena_problem p = {0};
        build_spec(who, &p);
        struct arena_plan plan;
        struct arena_plan_options opt = {.node_limit = 20000};
        run_checked(&p, &opt, &c, who, &plan);
        proven += plan.status == ARENA_PLAN_OPTIMAL;
        opt = (struct arena_plan_options){.node_limit = 20000, .capacity = 1048576 - 2048};
        run_checked(&p, &opt, &c, who, &plan);
        refuted += plan.status == ARENA_PLAN_INFEASIBLE;
        free((void *)p.tensors);
    }
    struct arena_tensor t[10];
    for (uint64_t k = 0; k < 60; k++) {
        size_t n = 6 + (size_t)(k % 5);
        rp_problem(k + 31000, n, (enum rp_shape)(k % RP_SHAPES), 16, t);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = 16};
        struct arena_bounds b;
        cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
        struct arena_plan plan;
        struct arena_plan_options opt = {.node_limit = 20000};
        snprintf(who, sizeof who, "random problem %llu", (unsigned long long)k);
        run_checked(&p, &opt, &c, who, &plan);
        if (b.lower_bound > 16) { /* below max-live: refuted at once, no conflict */
            opt = (struct arena_plan_options){.node_limit = 20000, .capacity = plan.arena - 16};
            run_checked(&p, &opt, &c, who, &plan);
        }
    }
    /* the input shows the property: many explanations, decisions both ways */
    cr_expect_gt(c.lemmas, 1000, "%llu explanations only", (unsigned long long)c.lemmas);
    cr_expect_gt(c.rounded, 1000, "%llu explanations by the static domains only",
                 (unsigned long long)c.rounded);
    cr_expect_geq(proven, 6, "%llu boxes proven", (unsigned long long)proven);
    cr_expect_geq(refuted, 6, "%llu boxes refuted below the bound", (unsigned long long)refuted);
    checker_free(&c);
}

/* ---- budgets ----------------------------------------------------------- */

static volatile sig_atomic_t prof_stop;
static struct timespec prof_at;

static void on_prof(int sig)
{
    (void)sig;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &prof_at); /* async-signal-safe */
    prof_stop = 1;
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* slack:n=290,seed=5, which the engine does not prove within seconds: the
 * stop flag, set 0.5 s of CPU into the call (Z3 searching by then), ends
 * it within 100 ms of CPU, through Z3's interrupt from the propagator's
 * hooks; the plan is valid and claims no proof. A 30 s limit stops a run
 * that ignores the flag. */
Test(optimal_lcg, stop_flag_interrupts_z3_within_100_ms)
{
    struct arena_problem p = {0};
    build_spec("slack:n=290,seed=5", &p);
    uint64_t *off = malloc(p.n * sizeof *off);
    struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
    arena_optimal_values(kv, ARENA_OPTIMAL_ENGINE_LCG, 0);
    struct arena_plan_options opt = {.stop = &prof_stop, .time_limit = 30, .values = kv};
    struct sigaction act;
    memset(&act, 0, sizeof act);
    act.sa_handler = on_prof;
    sigemptyset(&act.sa_mask);
    cr_assert_eq(sigaction(SIGPROF, &act, NULL), 0);
    prof_stop = 0;
    struct arena_plan plan;
    struct itimerval at = {.it_value = {.tv_sec = 0, .tv_usec = 500000}};
    cr_assert_eq(setitimer(ITIMER_PROF, &at, NULL), 0);
    cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0x21), ARENA_OK);
    double end = cpu_seconds();
    struct itimerval none = {{0, 0}, {0, 0}};
    setitimer(ITIMER_PROF, &none, NULL);
    cr_assert(prof_stop, "returned before the flag: %s", arena_plan_status_name(plan.status));
    double after = end - ((double)prof_at.tv_sec + 1e-9 * (double)prof_at.tv_nsec);
    cr_expect_lt(after, 0.1, "%.3f s of CPU after the stop flag", after);
    expect_plan_valid(&p, &plan, "stopped");
    cr_expect_eq(plan.status, ARENA_PLAN_LIMIT);
    free(off);
    free((void *)p.tensors);
}

/* The time limit (wall) ends the call soon after it: the hooks read the
 * clock, and Z3's own timeout backs them. */
Test(optimal_lcg, time_limit_ends_the_call)
{
    struct arena_problem p = {0};
    build_spec("slack:n=290,seed=5", &p);
    uint64_t *off = malloc(p.n * sizeof *off);
    struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
    arena_optimal_values(kv, ARENA_OPTIMAL_ENGINE_LCG, 0);
    struct arena_plan_options opt = {.time_limit = 1.0, .values = kv};
    struct arena_plan plan;
    double t0 = wall_seconds();
    cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, off, &plan, 0x21), ARENA_OK);
    double spent = wall_seconds() - t0;
    expect_plan_valid(&p, &plan, "time limit");
    cr_expect_eq(plan.status, ARENA_PLAN_LIMIT);
    cr_expect_lt(spent, 2.0, "%.2f s for a 1 s limit", spent);
    free(off);
    free((void *)p.tensors);
}

/* With a node limit (Z3's conflicts) the answer is the same plan, bound and
 * count on every run, and the count stays within the limit's reach. */
Test(optimal_lcg, deterministic_with_a_node_limit)
{
    struct arena_problem p = {0};
    build_spec("slack:n=290,seed=5", &p);
    uint64_t *a = malloc(p.n * sizeof *a), *b = malloc(p.n * sizeof *b);
    struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
    arena_optimal_values(kv, ARENA_OPTIMAL_ENGINE_LCG, 0);
    struct arena_plan_options opt = {.values = kv, .node_limit = 3000};
    struct arena_plan pa, pb;
    cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, a, &pa, 0x11), ARENA_OK);
    cr_assert_eq(run_planner(must_find("optimal"), &p, &opt, b, &pb, 0x22), ARENA_OK);
    expect_plan_valid(&p, &pa, "first run");
    cr_expect_eq(pa.status, ARENA_PLAN_LIMIT, "%s", arena_plan_status_name(pa.status));
    cr_expect_eq(pa.nodes, pb.nodes);
    cr_expect_eq(pa.arena, pb.arena);
    cr_expect_eq(pa.bound, pb.bound);
    cr_expect_eq(memcmp(a, b, p.n * sizeof *a), 0, "another plan");
    free(a);
    free(b);
    free((void *)p.tensors);
}

/* Z3 out of memory (its cap lowered to 40 MiB for the test, which
 * slack:n=290,seed=5's solver passes after ~1,700 conflicts; at 8 MiB Z3
 * has no context at all): the call ends with a valid plan, no proof, and the
 * note that bench prints as a line; the run goes on. */
Test(optimal_lcg, z3_out_of_memory_ends_the_call_with_a_note)
{
    static const uint64_t caps[] = {40, 8};
    struct arena_problem p = {0};
    build_spec("slack:n=290,seed=5", &p);
    for (size_t i = 0; i < 2; i++) {
        size_t bytes;
        cr_assert_eq(arena_planner_scratch(must_find("optimal"), &p, &bytes), ARENA_OK);
        void *scratch = malloc(bytes);
        uint64_t *off = malloc(p.n * sizeof *off);
        struct arena_plan plan = {.n = p.n, .offsets = off};
        struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
        arena_optimal_values(kv, ARENA_OPTIMAL_ENGINE_LCG, 0);
        struct arena_plan_options opt = {.values = kv, .node_limit = 2000000, .time_limit = 60};
        cr_assert_eq(arena_optimal_lcg_lemmas(&p, &opt, scratch, bytes, &plan, NULL, NULL, caps[i]),
                     ARENA_OK);
        expect_plan_valid(&p, &plan, "out of memory");
        cr_expect_eq(plan.status, ARENA_PLAN_LIMIT, "%llu MiB: %s", (unsigned long long)caps[i],
                     arena_plan_status_name(plan.status));
        if (i == 0) /* Z3 searched, then failed */
            cr_expect_gt(plan.nodes, 100, "40 MiB: %llu conflicts", (unsigned long long)plan.nodes);
        cr_expect(plan.notes & ARENA_PLAN_NOTE_LCG_FAILED, "%llu MiB: no note",
                  (unsigned long long)caps[i]);
        free(off);
        free(scratch);
    }
    free((void *)p.tensors);
}
