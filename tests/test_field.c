/* test_field.c — the planners of the field (TFLite GPU's equality,
 * greedy-in-order and min-cost-flow; TVM's greedy-by-conflicts and
 * hill-climb; XLA's best fit): TFLite GPU's known answers, and for each
 * planner a plain reference written here from the definition in docs/planners.md,
 * compared offset by offset on seeded random problems. Every plan goes
 * through the independent validator. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "planners/planner.h"
#include "planners/problem.h"
#include "planners/tables.h"
#include "tests/known_answers.h"
#include "tests/expect_plan.h"
#include "tests/random_problems.h"

#define NIL UINT32_MAX
#define UNCHECKED UINT32_MAX /* expect_arena: buffers not checked */

/* ---- running a planner ------------------------------------------------- */

static int run_opt(const char *name, const struct arena_problem *p,
                   const struct arena_plan_options *opt, uint64_t *off, struct arena_plan *plan)
{
    return run_planner(must_find(name), p, opt, off, plan, 0xA5);
}

static void plan_valid(const char *name, const struct arena_problem *p, uint64_t *off,
                       struct arena_plan *plan)
{
    cr_assert_eq(run_opt(name, p, NULL, off, plan), ARENA_OK, "%s", name);
    expect_plan_valid(p, plan, name);
}

static void expect_arena(const char *name, const struct arena_tensor *t, size_t n,
                         uint64_t arena, uint32_t buffers, const uint64_t *want_off)
{
    struct arena_problem p = {.n = n, .tensors = t, .alignment = 8};
    uint64_t off[16];
    struct arena_plan plan;
    plan_valid(name, &p, off, &plan);
    cr_expect_eq(plan.arena, arena, "%s: arena %llu, expected %llu", name,
                 (unsigned long long)plan.arena, (unsigned long long)arena);
    if (buffers != UNCHECKED)
        cr_expect_eq(plan.buffers, buffers, "%s: %u buffers, expected %u", name, plan.buffers,
                     buffers);
    for (size_t i = 0; want_off && i < n; i++)
        cr_expect_eq(off[i], want_off[i], "%s: tensor %zu at %llu, expected %llu", name, i,
                     (unsigned long long)off[i], (unsigned long long)want_off[i]);
}

/* ---- TFLite GPU's known answers ------------------------------------------ */

/* ka_chain = (16,0,1),(8,1,2),(64,2,3),(32,3,4),(8,4,5). LB 96 (step 3:
 * 64 + 32), naive 128.
 * equality: t0 opens o0 (16); t1 opens o1 (8); at step 2 o0 is free but
 *   holds 16, so t2 opens o2 (64); at 3 o1 (8) is free, t3 opens o3 (32); at
 *   4 o1 is free and holds 8: t4 takes it. 16+8+64+32 = 120; bases o0 0,
 *   o1 16, o2 24, o3 88.
 * greedy-in-order: t0 o0, t1 o1; t2 takes free o0 and grows it to 64; t3
 *   takes free o1 and grows it to 32; t4 takes free o0 (64). 64+32 = 96.
 * min-cost-flow: t0 and t1 must open objects (nothing ends before they
 *   start): 24. Cheapest: t2 after t0 (+48), t3 after t1 (+24), t4 after t2
 *   (+0) = 96, objects {t0,t2,t4} 64 and {t1,t3} 32; any other choice costs
 *   more (t2 new 64 makes t3 cost 16 after t0 and t4 0: 104). */
Test(field, known_tflite_chain)
{
    const struct arena_tensor *t = ka_chain;
    size_t n = KA_COUNT(ka_chain);
    struct arena_problem p = {.n = n, .tensors = t, .alignment = 8};
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
    cr_expect_eq(b.lower_bound, 96);
    cr_expect_eq(b.naive_bytes, 128);
    static const uint64_t eq[] = {0, 16, 24, 88, 16};
    static const uint64_t in_order[] = {0, 64, 0, 64, 0};
    static const uint64_t mcf[] = {0, 64, 0, 64, 0};
    expect_arena("equality", t, n, 120, 4, eq);
    expect_arena("greedy-in-order", t, n, 96, 2, in_order);
    expect_arena("min-cost-flow", t, n, 96, 2, mcf);
    /* The README's reference columns: arenabench's own planners. */
    expect_arena("greedy-by-size", t, n, 96, 0, NULL);
    expect_arena("greedy-by-breadth", t, n, 96, 0, NULL);
    expect_arena("interval-graph-coloring", t, n, 104, 3, NULL);
}

/* ka_nine = (32,0,1),(32,1,4),(8,2,5),(16,3,5),(8,4,5),(64,5,7),(8,6,8),
 * (8,7,8),(16,8,9). LB 96, naive 192.
 * equality: t0 o0(32), t1 o1(32); at 2 o0 is free but 32: t2 o2(8); t3
 *   o3(16); t4 o4(8); at 5 o1 is free (32): t5 o5(64); at 6 o2, o3, o4 are
 *   released in that order (all ended at 5): t6 takes the 8 released last,
 *   o4; t7 takes o2; at 8 o3 (16) is free: t8 takes it.
 *   32+32+8+16+8+64 = 160; bases 0,32,64,72,88,96.
 * greedy-in-order: t0 o0, t1 o1; t2 takes free o0 (32); t3 o2(16), t4
 *   o3(8) (nothing free); t5 takes o1 (freed at 5), grown to 64; at 6 o0, o2,
 *   o3 are free (32, 16, 8): t6 takes o3 (8), t7 o2 (16, closest), t8 at 8
 *   finds o0 (32) and o1 (64): o0. 32+64+16+8 = 120; bases 0,32,96,112.
 * min-cost-flow: 112 (TFLite GPU's test); the flow's objects are checked by
 *   the reference below. */
Test(field, known_tflite_nine)
{
    const struct arena_tensor *t = ka_nine;
    size_t n = KA_COUNT(ka_nine);
    struct arena_problem p = {.n = n, .tensors = t, .alignment = 8};
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
    cr_expect_eq(b.lower_bound, 96);
    cr_expect_eq(b.naive_bytes, 192);
    static const uint64_t eq[] = {0, 32, 64, 72, 88, 96, 88, 64, 72};
    static const uint64_t in_order[] = {0, 32, 0, 96, 112, 32, 112, 96, 0};
    expect_arena("equality", t, n, 160, 6, eq);
    expect_arena("greedy-in-order", t, n, 120, 4, in_order);
    expect_arena("min-cost-flow", t, n, 112, UNCHECKED, NULL);
    expect_arena("greedy-by-size", t, n, 96, 0, NULL);
    expect_arena("greedy-by-breadth", t, n, 96, 0, NULL);
    expect_arena("interval-graph-coloring", t, n, 128, UNCHECKED, NULL);
}

/* ---- plain references, O(n^2) or worse, from the definitions of docs/planners.md */

static const struct arena_tensor *cmp_t; /* the problem the comparators read */

/* (first, id) ascending. */
static int by_first(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (cmp_t[x].first != cmp_t[y].first)
        return cmp_t[x].first < cmp_t[y].first ? -1 : 1;
    return x < y ? -1 : x > y;
}

static void first_order(const struct arena_tensor *t, size_t n, uint32_t *ord)
{
    for (size_t i = 0; i < n; i++)
        ord[i] = (uint32_t)i;
    cmp_t = t;
    qsort(ord, n, sizeof *ord, by_first);
}

static int meets(const struct arena_tensor *a, const struct arena_tensor *b)
{
    return a->first <= b->last && b->first <= a->last;
}

/* Objects laid end to end in id order; obj[i] becomes tensor i's offset. */
static uint64_t lay(uint64_t *osize, size_t nobj, uint64_t *obj, size_t n)
{
    uint64_t base = 0;
    for (size_t o = 0; o < nobj; o++) {
        uint64_t s = osize[o];
        osize[o] = base;
        base += s;
    }
    for (size_t i = 0; i < n; i++)
        obj[i] = osize[obj[i]];
    return base;
}

/* Equality and greedy-in-order: walk tensors by (first, id); release the
 * objects whose tensor ended before the first step, in (last, object id)
 * order, stamping each with a release number. */
struct objs {
    uint64_t size[64];
    uint32_t last[64];
    int busy[64];
    uint64_t stamp[64];
    size_t count;
    uint64_t clock;
};

static void release(struct objs *o, uint32_t first)
{
    for (;;) {
        size_t pick = SIZE_MAX;
        for (size_t k = 0; k < o->count; k++)
            if (o->busy[k] && o->last[k] < first &&
                (pick == SIZE_MAX || o->last[k] < o->last[pick]))
                pick = k; /* lowest id among equal lasts: the scan goes up */
        if (pick == SIZE_MAX)
            return;
        o->busy[pick] = 0;
        o->stamp[pick] = ++o->clock;
    }
}

static uint64_t ref_shared(const struct arena_tensor *t, size_t n, int in_order, uint64_t *off,
                           uint32_t *buffers)
{
    struct objs o;
    memset(&o, 0, sizeof o);
    uint32_t ord[64];
    first_order(t, n, ord);
    for (size_t k = 0; k < n; k++) {
        uint32_t i = ord[k];
        release(&o, t[i].first);
        size_t pick = SIZE_MAX;
        for (size_t c = 0; c < o.count; c++) {
            if (o.busy[c])
                continue;
            if (!in_order) {
                /* exactly its size, the most recently released */
                if (o.size[c] == t[i].size && (pick == SIZE_MAX || o.stamp[c] > o.stamp[pick]))
                    pick = c;
                continue;
            }
            if (pick == SIZE_MAX) {
                pick = c;
                continue;
            }
            /* closest size; the larger when equally close; among equal
             * sizes the lowest id if >= the tensor, else the highest */
            uint64_t s = t[i].size, a = o.size[c], b = o.size[pick];
            uint64_t da = a >= s ? a - s : s - a, db = b >= s ? b - s : s - b;
            if (da < db || (da == db && a > b) || (a == b && a < s))
                pick = c;
        }
        if (pick == SIZE_MAX) {
            pick = o.count++;
            o.size[pick] = t[i].size;
        } else if (o.size[pick] < t[i].size) {
            o.size[pick] = t[i].size;
        }
        o.busy[pick] = 1;
        o.last[pick] = t[i].last;
        off[i] = pick;
    }
    *buffers = (uint32_t)o.count;
    return lay(o.size, o.count, off, n);
}

/* Greedy by conflicts: conflicts (among tensors with bytes) descending,
 * size descending, first, id; just above the highest placed conflict. */
static uint32_t conflicts_of[64];

static int by_conflicts(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (conflicts_of[x] != conflicts_of[y])
        return conflicts_of[x] > conflicts_of[y] ? -1 : 1;
    if (cmp_t[x].size != cmp_t[y].size)
        return cmp_t[x].size > cmp_t[y].size ? -1 : 1;
    return by_first(a, b);
}

static uint64_t ref_conflicts(const struct arena_tensor *t, size_t n, uint64_t *off)
{
    uint32_t ord[64];
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        off[i] = 0;
        conflicts_of[i] = 0;
        if (t[i].size == 0)
            continue;
        ord[m++] = (uint32_t)i;
        for (size_t j = 0; j < n; j++)
            conflicts_of[i] += j != i && t[j].size > 0 && meets(&t[i], &t[j]);
    }
    cmp_t = t;
    qsort(ord, m, sizeof *ord, by_conflicts);
    uint64_t arena = 0;
    for (size_t k = 0; k < m; k++) {
        uint32_t i = ord[k];
        uint64_t top = 0;
        for (size_t h = 0; h < k; h++) {
            uint32_t j = ord[h];
            if (meets(&t[i], &t[j]) && off[j] + t[j].size > top)
                top = off[j] + t[j].size;
        }
        off[i] = top;
        if (top + t[i].size > arena)
            arena = top + t[i].size;
    }
    return arena;
}

/* One tensor's place among the placed conflicting ones, by the gap walk:
 * best fit takes the smallest gap that holds it (lowest on ties), first fit
 * the lowest; else just above the highest. */
static uint64_t fit(const struct arena_tensor *t, const uint32_t *placed, size_t m,
                    const uint64_t *off, uint32_t i, int best)
{
    uint32_t c[64];
    size_t k = 0;
    for (size_t h = 0; h < m; h++)
        if (t[placed[h]].size > 0 && meets(&t[i], &t[placed[h]]))
            c[k++] = placed[h];
    for (size_t a = 1; a < k; a++) /* insertion sort by offset */
        for (size_t b = a; b > 0 && off[c[b]] < off[c[b - 1]]; b--) {
            uint32_t x = c[b];
            c[b] = c[b - 1];
            c[b - 1] = x;
        }
    uint64_t top = 0, at = 0, gap_best = UINT64_MAX;
    int found = 0;
    for (size_t h = 0; h < k; h++) {
        if (off[c[h]] > top) {
            uint64_t gap = off[c[h]] - top;
            if (gap >= t[i].size && gap < gap_best) {
                gap_best = gap;
                at = top;
                found = 1;
                if (!best)
                    break;
            }
        }
        if (off[c[h]] + t[c[h]].size > top)
            top = off[c[h]] + t[c[h]].size;
    }
    return found ? at : top;
}

static uint64_t place_all(const struct arena_tensor *t, size_t n, const uint32_t *ord, int best,
                          uint64_t *off)
{
    uint64_t arena = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t i = ord[k];
        off[i] = t[i].size == 0 ? 0 : fit(t, ord, k, off, i, best);
        if (off[i] + t[i].size > arena)
            arena = off[i] + t[i].size;
    }
    return arena;
}

/* XLA's two orders. */
static int life_major;

static int by_xla(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    uint64_t sx = cmp_t[x].size, sy = cmp_t[y].size;
    uint64_t lx = cmp_t[x].last - cmp_t[x].first, ly = cmp_t[y].last - cmp_t[y].first;
    uint64_t k1x = life_major ? lx : sx, k1y = life_major ? ly : sy;
    uint64_t k2x = life_major ? sx : lx, k2y = life_major ? sy : ly;
    if (k1x != k1y)
        return k1x > k1y ? -1 : 1;
    if (k2x != k2y)
        return k2x > k2y ? -1 : 1;
    return by_first(a, b);
}

static uint64_t ref_xla(const struct arena_tensor *t, size_t n, uint64_t *off)
{
    uint32_t ord[64];
    uint64_t other[64];
    for (size_t i = 0; i < n; i++)
        ord[i] = (uint32_t)i;
    cmp_t = t;
    life_major = 0;
    qsort(ord, n, sizeof *ord, by_xla);
    uint64_t by_size = place_all(t, n, ord, 1, off);
    life_major = 1;
    qsort(ord, n, sizeof *ord, by_xla);
    uint64_t by_life = place_all(t, n, ord, 1, other);
    if (by_life < by_size) {
        memcpy(off, other, n * sizeof *off);
        return by_life;
    }
    return by_size;
}

/* Min-cost flow on an explicit network (adjacency matrices): phases of a
 * dense Dijkstra that settles by (distance, node), then depth-first
 * augmentation along edges of zero reduced cost — the rules
 * min_cost_flow.c documents — with the same node numbering: T 0, S 1, R by
 * (first, id) rank 2.., L by rank n+2... */
#define MV (2 * 40 + 2)
static int64_t mcost[MV][MV];
static int mcap[MV][MV], mflow[MV][MV];

static int ref_dfs(size_t u, size_t v, int *entered, const int64_t *pot)
{
    for (size_t x = 0; x < v; x++) {
        if (x != 0 && entered[x])
            continue;
        int64_t c;
        if (mcap[u][x] - mflow[u][x] > 0)
            c = mcost[u][x];
        else if (mflow[x][u] > 0)
            c = -mcost[x][u];
        else
            continue;
        if (c + pot[u] - pot[x] != 0)
            continue;
        if (x != 0)
            entered[x] = 1;
        if (x == 0 || ref_dfs(x, v, entered, pot)) {
            if (mflow[x][u] > 0)
                mflow[x][u]--;
            else
                mflow[u][x]++;
            return 1;
        }
    }
    return 0;
}

static uint64_t ref_mcf(const struct arena_tensor *t, size_t n, uint64_t *off, uint32_t *buffers,
                        uint64_t *min_cost)
{
    uint32_t rank[40];
    first_order(t, n, rank);
    size_t v = 2 * n + 2;
    memset(mcap, 0, sizeof mcap);
    memset(mflow, 0, sizeof mflow);
    memset(mcost, 0, sizeof mcost);
    for (size_t k = 0; k < n; k++) {
        size_t R = 2 + k, L = 2 + n + k;
        mcap[1][L] = 1;
        mcap[R][0] = 1;
        mcap[1][R] = 1;
        mcost[1][R] = (int64_t)t[rank[k]].size;
        for (size_t j = 0; j < n; j++) {
            const struct arena_tensor *tj = &t[rank[j]], *tk = &t[rank[k]];
            if (tj->last < tk->first) {
                mcap[2 + n + j][R] = 1;
                mcost[2 + n + j][R] = tk->size > tj->size ? (int64_t)(tk->size - tj->size) : 0;
            }
        }
    }
    int64_t pot[MV] = {0}, dist[MV];
    int done[MV];
    for (size_t unit = 0; unit < n; unit++) {
        for (size_t x = 0; x < v; x++) {
            dist[x] = INT64_MAX;
            done[x] = 0;
        }
        dist[1] = 0;
        for (;;) {
            size_t u = SIZE_MAX;
            for (size_t x = 0; x < v; x++)
                if (!done[x] && dist[x] != INT64_MAX && (u == SIZE_MAX || dist[x] < dist[u]))
                    u = x;
            cr_assert(u != SIZE_MAX, "T unreachable");
            done[u] = 1;
            if (u == 0)
                break;
            for (size_t x = 0; x < v; x++) {
                int64_t c;
                if (mcap[u][x] - mflow[u][x] > 0)
                    c = mcost[u][x];
                else if (mflow[x][u] > 0)
                    c = -mcost[x][u];
                else
                    continue;
                int64_t d = dist[u] + pot[u] + c - pot[x];
                if (!done[x] && d < dist[x])
                    dist[x] = d;
            }
        }
        for (size_t x = 0; x < v; x++)
            pot[x] += done[x] ? dist[x] : dist[0];
        /* A phase: augment along paths of zero reduced cost, depth first,
         * neighbours by node number, each node entered once. */
        int entered[MV] = {0};
        entered[1] = 1;
        size_t found = 0;
        while (ref_dfs(1, v, entered, pot))
            found++;
        cr_assert_gt(found, 0, "a phase routes at least the shortest path");
        unit += found - 1;
    }
    uint64_t osize[40], cost = 0;
    size_t objects = 0;
    for (size_t k = 0; k < n; k++) {
        if (!mflow[1][2 + k])
            continue;
        uint64_t big = 0;
        for (size_t c = k; c != SIZE_MAX;) {
            uint64_t s = t[rank[c]].size;
            big = s > big ? s : big;
            off[rank[c]] = objects;
            size_t next = SIZE_MAX;
            for (size_t r = 0; r < n; r++)
                if (mflow[2 + n + c][2 + r]) {
                    next = r;
                    cost += (uint64_t)mcost[2 + n + c][2 + r];
                }
            c = next;
        }
        cost += t[rank[k]].size;
        osize[objects++] = big;
    }
    *buffers = (uint32_t)objects;
    *min_cost = cost;
    return lay(osize, objects, off, n);
}

/* The least cost over every way to give each tensor a new object or the
 * object of one tensor that ended before it (each giving to one only), by
 * exhaustive search: the definition of the flow's optimum, for tiny n. */
static uint64_t brute_cost(const struct arena_tensor *t, size_t n, size_t i, int *given)
{
    if (i == n)
        return 0;
    uint64_t best = t[i].size + brute_cost(t, n, i + 1, given);
    for (size_t j = 0; j < n; j++) {
        if (given[j] || t[j].last >= t[i].first)
            continue;
        given[j] = 1;
        uint64_t c = (t[i].size > t[j].size ? t[i].size - t[j].size : 0) +
                     brute_cost(t, n, i + 1, given);
        given[j] = 0;
        if (c < best)
            best = c;
    }
    return best;
}

/* Hill climbing as hill_climb.c documents it, with first fit by the plain
 * gap walk and the same splitmix64 stream. */
static uint64_t sm_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static int by_size(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (cmp_t[x].size != cmp_t[y].size)
        return cmp_t[x].size > cmp_t[y].size ? -1 : 1;
    return by_first(a, b);
}

static uint64_t ref_climb(const struct arena_tensor *t, size_t n, uint64_t rounds, uint64_t seed,
                          uint64_t *off, uint64_t *rounds_run)
{
    uint32_t ord[64];
    uint64_t cur_off[64], now[64];
    uint64_t lb = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t live = 0;
        for (size_t j = 0; j < n; j++)
            live += t[j].first <= t[i].first && t[i].first <= t[j].last ? t[j].size : 0;
        lb = live > lb ? live : lb;
        ord[i] = (uint32_t)i;
    }
    cmp_t = t;
    qsort(ord, n, sizeof *ord, by_size);
    uint64_t rng = seed, cur = 0, best = UINT64_MAX, round = 0;
    size_t ua = 0, ub = 0;
    int swapped = 0;
    while (round < rounds) {
        round++;
        uint64_t a = place_all(t, n, ord, 0, now);
        int keep = round == 1 || a <= cur;
        if (!keep) {
            unsigned pct = (unsigned)(50.0 * (double)(a - cur) / (double)a / (double)round);
            keep = sm_next(&rng) % 100 < pct;
        }
        if (keep) {
            cur = a;
            memcpy(cur_off, now, n * sizeof *now);
            if (a < best) {
                best = a;
                memcpy(off, now, n * sizeof *now);
            }
        } else if (swapped) {
            uint32_t x = ord[ua];
            ord[ua] = ord[ub];
            ord[ub] = x;
        }
        swapped = 0;
        if (best <= lb)
            break;
        size_t top[64], tops = 0;
        for (size_t k = 0; k < n; k++)
            if (t[ord[k]].size > 0 && cur_off[ord[k]] + t[ord[k]].size == cur)
                top[tops++] = k;
        if (tops == 0)
            continue;
        size_t at = top[sm_next(&rng) % tops];
        size_t cand[64], cands = 0;
        cand[cands++] = at;
        for (size_t k = 0; k < at; k++)
            if (t[ord[k]].size > 0 && meets(&t[ord[k]], &t[ord[at]]))
                cand[cands++] = k;
        if (cands < 2)
            continue;
        size_t i = sm_next(&rng) % cands, j = sm_next(&rng) % (cands - 1);
        if (j >= i)
            j++;
        ua = cand[i];
        ub = cand[j];
        uint32_t x = ord[ua];
        ord[ua] = ord[ub];
        ord[ub] = x;
        swapped = 1;
    }
    *rounds_run = round;
    return best;
}

/* ---- the planners against the references ------------------------------- */

#define PROBLEMS 2100u

static void problem_of(unsigned k, struct arena_tensor *t, size_t *n)
{
    *n = 1 + (k * 7919u) % 40u;
    rp_problem(k, *n, (enum rp_shape)(k % RP_SHAPES), 16, t);
}

static void expect_same(const char *name, unsigned k, const struct arena_problem *p,
                        const uint64_t *got, const struct arena_plan *plan, const uint64_t *want,
                        uint64_t want_arena)
{
    cr_assert_eq(plan->arena, want_arena, "%s, problem %u (%s, n=%zu): arena %llu, reference %llu",
                 name, k, rp_shape_name((enum rp_shape)(k % RP_SHAPES)), p->n,
                 (unsigned long long)plan->arena, (unsigned long long)want_arena);
    for (size_t i = 0; i < p->n; i++)
        cr_assert_eq(got[i], want[i], "%s, problem %u: tensor %zu at %llu, reference %llu", name,
                     k, i, (unsigned long long)got[i], (unsigned long long)want[i]);
}

/* A reference of the field: the plan into off, its arena returned, its
 * object count in *buffers (UNCHECKED for planners without objects). */
typedef uint64_t (*reference)(const struct arena_tensor *t, size_t n, uint64_t *off,
                              uint32_t *buffers);

/* Planner `name` gives the reference's plan, offset for offset, on every
 * problem of problem_of. */
static void expect_reference(const char *name, reference ref)
{
    for (unsigned k = 0; k < PROBLEMS; k++) {
        struct arena_tensor t[40];
        size_t n;
        problem_of(k, t, &n);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = 16};
        uint64_t off[40], want[40];
        uint32_t buffers;
        uint64_t arena = ref(t, n, want, &buffers);
        struct arena_plan plan;
        plan_valid(name, &p, off, &plan);
        expect_same(name, k, &p, off, &plan, want, arena);
        if (buffers != UNCHECKED)
            cr_assert_eq(plan.buffers, buffers, "%s, problem %u", name, k);
    }
}

static uint64_t ref_equality(const struct arena_tensor *t, size_t n, uint64_t *off, uint32_t *b)
{
    return ref_shared(t, n, 0, off, b);
}

static uint64_t ref_in_order(const struct arena_tensor *t, size_t n, uint64_t *off, uint32_t *b)
{
    return ref_shared(t, n, 1, off, b);
}

static uint64_t ref_flow(const struct arena_tensor *t, size_t n, uint64_t *off, uint32_t *b)
{
    uint64_t cost;
    return ref_mcf(t, n, off, b, &cost);
}

static uint64_t ref_by_conflicts(const struct arena_tensor *t, size_t n, uint64_t *off,
                                 uint32_t *b)
{
    *b = UNCHECKED;
    return ref_conflicts(t, n, off);
}

static uint64_t ref_xla_fit(const struct arena_tensor *t, size_t n, uint64_t *off, uint32_t *b)
{
    *b = UNCHECKED;
    return ref_xla(t, n, off);
}

Test(field, equality_matches_reference)
{
    expect_reference("equality", ref_equality);
}

Test(field, greedy_in_order_matches_reference)
{
    expect_reference("greedy-in-order", ref_in_order);
}

Test(field, min_cost_flow_matches_reference)
{
    expect_reference("min-cost-flow", ref_flow);
    /* and the reference's flow is of least cost (exhaustive for n <= 7) */
    for (unsigned k = 0; k < PROBLEMS; k++) {
        struct arena_tensor t[40];
        size_t n;
        problem_of(k, t, &n);
        if (n > 7)
            continue;
        uint64_t want[40], cost;
        uint32_t buffers;
        ref_mcf(t, n, want, &buffers, &cost);
        int given[8] = {0};
        cr_assert_eq(cost, brute_cost(t, n, 0, given), "problem %u: flow not of least cost", k);
    }
}

Test(field, greedy_by_conflicts_matches_reference)
{
    expect_reference("greedy-by-conflicts", ref_by_conflicts);
}

Test(field, xla_best_fit_matches_reference)
{
    expect_reference("xla-best-fit", ref_xla_fit);
}

Test(field, hill_climb_matches_reference)
{
    for (unsigned k = 0; k < PROBLEMS; k++) {
        struct arena_tensor t[40];
        size_t n;
        problem_of(k, t, &n);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = 16};
        struct arena_plan_options opt = {.node_limit = 40, .seed = k};
        uint64_t off[40], want[40], rounds;
        uint64_t arena = ref_climb(t, n, opt.node_limit, opt.seed, want, &rounds);
        struct arena_plan plan;
        cr_assert_eq(run_opt("hill-climb", &p, &opt, off, &plan), ARENA_OK);
        struct arena_collision why;
        cr_assert_eq(arena_plan_validate(&p, &plan, &why), ARENA_OK, "problem %u", k);
        expect_same("hill-climb", k, &p, off, &plan, want, arena);
        cr_assert_eq(plan.nodes, rounds, "problem %u", k);
    }
}

/* ---- hill-climb's own promises ------------------------------------------ */

Test(field, hill_climb_same_seed_same_plan)
{
    for (unsigned k = 0; k < 40; k++) {
        struct arena_tensor t[200];
        size_t n = 120 + k;
        rp_problem(1000 + k, n, (enum rp_shape)(k % RP_SHAPES), 16, t);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = 16};
        struct arena_plan_options opt = {.seed = 77 + k, .node_limit = 60};
        uint64_t a[200], b[200];
        struct arena_plan pa, pb;
        cr_assert_eq(run_opt("hill-climb", &p, &opt, a, &pa), ARENA_OK);
        cr_assert_eq(run_opt("hill-climb", &p, &opt, b, &pb), ARENA_OK);
        cr_assert_eq(pa.arena, pb.arena, "problem %u", k);
        cr_assert_eq(pa.nodes, pb.nodes, "problem %u", k);
        cr_assert_arr_eq(a, b, n * sizeof *a, "problem %u: same seed, other offsets", k);
        cr_assert_eq(arena_plan_validate(&p, &pa, NULL), ARENA_OK, "problem %u", k);
    }
}

/* Round one is first fit in the size order, greedy-by-size-firstfit's plan;
 * the plan kept is the smallest seen, so never above it. */
Test(field, hill_climb_never_above_first_fit)
{
    for (unsigned k = 0; k < PROBLEMS; k++) {
        struct arena_tensor t[40];
        size_t n;
        problem_of(k, t, &n);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = 16};
        struct arena_plan_options opt = {.seed = k, .node_limit = 100};
        uint64_t off[40];
        struct arena_plan ff, hc;
        plan_valid("greedy-by-size-firstfit", &p, off, &ff);
        cr_assert_eq(run_opt("hill-climb", &p, &opt, off, &hc), ARENA_OK);
        cr_assert_eq(arena_plan_validate(&p, &hc, NULL), ARENA_OK, "problem %u", k);
        cr_assert_leq(hc.arena, ff.arena, "problem %u", k);
        cr_assert_leq(hc.nodes, 100);
        cr_assert_geq(hc.nodes, 1);
        struct arena_bounds b;
        cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
        cr_assert_eq(hc.bound, b.lower_bound);
        if (hc.arena == b.lower_bound)
            cr_assert_eq(hc.status, ARENA_PLAN_OPTIMAL, "problem %u", k);
        else
            cr_assert_eq(hc.status, ARENA_PLAN_LIMIT, "problem %u", k);
    }
}

/* A chain's optimum is its lower bound (even tensors at the bottom, odd ones
 * hung from the top: neighbours share one step and together fit under the
 * bound, others never meet). These chains are ones where first
 * fit in the size order stays above the bound; the climb must get there
 * within its default budget and say so. */
Test(field, hill_climb_reaches_bound_on_chains)
{
    static const uint64_t seeds[] = {0, 3, 4, 5};
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        struct arena_tensor t[64];
        rp_problem(seeds[s], 64, RP_CHAIN, 16, t);
        struct arena_problem p = {.n = 64, .tensors = t, .alignment = 16};
        struct arena_bounds b;
        cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
        uint64_t off[64];
        struct arena_plan ff, hc;
        plan_valid("greedy-by-size-firstfit", &p, off, &ff);
        cr_assert_gt(ff.arena, b.lower_bound, "seed %llu: not a hard chain",
                     (unsigned long long)seeds[s]);
        plan_valid("hill-climb", &p, off, &hc);
        cr_expect_eq(hc.arena, b.lower_bound, "seed %llu: %llu above the bound %llu",
                     (unsigned long long)seeds[s], (unsigned long long)hc.arena,
                     (unsigned long long)b.lower_bound);
        cr_expect_eq(hc.status, ARENA_PLAN_OPTIMAL);
        cr_expect_lt(hc.nodes, 500, "stops at the bound, before the budget");
    }
    /* TFLite Micro's weak case: first fit 90, an 80 plan exists (= LB). */
    struct arena_problem p = {.n = KA_COUNT(ka_firstfit), .tensors = ka_firstfit, .alignment = 2};
    uint64_t off[8];
    struct arena_plan hc;
    plan_valid("hill-climb", &p, off, &hc);
    cr_expect_eq(hc.arena, 80);
}

/* Decision mode: stop at a plan within the capacity; a capacity below the
 * lower bound is proven infeasible (the plan is the best found). */
Test(field, hill_climb_decision_mode)
{
    struct arena_tensor t[64];
    rp_problem(5, 64, RP_CHAIN, 16, t);
    struct arena_problem p = {.n = 64, .tensors = t, .alignment = 16};
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
    uint64_t off[64];
    struct arena_plan plan;
    struct arena_plan_options opt = {.capacity = b.lower_bound - 16};
    cr_assert_eq(run_opt("hill-climb", &p, &opt, off, &plan), ARENA_OK);
    cr_expect_eq(plan.status, ARENA_PLAN_INFEASIBLE);
    cr_expect_eq(plan.bound, b.lower_bound);
    cr_expect_eq(plan.arena, b.lower_bound, "still the best plan found, here the optimum");
    cr_expect_eq(arena_plan_validate(&p, &plan, NULL), ARENA_OK);
    opt.capacity = 100000000;
    cr_assert_eq(run_opt("hill-climb", &p, &opt, off, &plan), ARENA_OK);
    cr_expect_eq(plan.status, ARENA_PLAN_FEASIBLE);
    cr_expect_eq(plan.nodes, 1, "round one fits");
}

/* A spent wall-time budget stops the climb inside its first round (issue
 * 35, fault 04: round one is a whole first fit, seconds at n = 10^5): with
 * a budget of a nanosecond the clock, read before every eighth placement,
 * ends round one after 7 of its 200+ placements; the rest are stacked on
 * top, so the plan is valid, one round, and larger than round one's whole
 * first-fit plan (which stopping between rounds returned). */
Test(field, hill_climb_time_limit_stops_inside_a_round)
{
    for (unsigned k = 0; k < 20; k++) {
        struct arena_tensor t[300];
        size_t n = 200 + k;
        rp_problem(3000 + k, n, (enum rp_shape)(k % RP_SHAPES), 16, t);
        struct arena_problem p = {.n = n, .tensors = t, .alignment = 16};
        struct arena_plan_options opt = {.seed = 5, .node_limit = 1000000000, .time_limit = 1e-9};
        uint64_t off[300], ff[300];
        struct arena_plan plan, first;
        cr_assert_eq(run_opt("hill-climb", &p, &opt, off, &plan), ARENA_OK);
        cr_expect_eq(plan.nodes, 1, "problem %u: %llu rounds", k, (unsigned long long)plan.nodes);
        cr_expect_eq(plan.status, ARENA_PLAN_LIMIT, "problem %u", k);
        cr_assert_eq(run_opt("greedy-by-size-firstfit", &p, &arena_plan_options_default, ff, &first),
                     ARENA_OK);
        cr_expect_gt(plan.arena, first.arena, "problem %u: round one stopped midway", k);
        cr_expect_eq(arena_plan_validate(&p, &plan, NULL), ARENA_OK, "problem %u", k);
    }
}

/* ---- min-cost-flow's size limit ----------------------------------------- */

Test(field, min_cost_flow_refuses_above_its_limit)
{
    size_t n = ARENA_MCF_MAX_TENSORS + 1;
    struct arena_tensor *t = calloc(n, sizeof *t);
    uint64_t *off = calloc(n, sizeof *off);
    cr_assert(t && off);
    for (size_t i = 0; i < n; i++)
        t[i] = (struct arena_tensor){.size = 16, .first = (uint32_t)i, .last = (uint32_t)i + 1};
    const struct arena_planner *pl = arena_planner_find("min-cost-flow");
    cr_assert(pl);
    struct arena_problem p = {.n = n, .tensors = t, .alignment = 16};
    size_t bytes = 0;
    cr_expect_eq(arena_planner_scratch(pl, &p, &bytes), ARENA_ETOOBIG);
    struct arena_plan plan = {.n = n, .offsets = off};
    static unsigned char scratch[64];
    cr_expect_eq(arena_planner_run(pl, &p, NULL, scratch, sizeof scratch, &plan), ARENA_ETOOBIG);
    cr_expect(strstr(arena_strerror(ARENA_ETOOBIG), "5000") != NULL,
              "the message names the limit: %s", arena_strerror(ARENA_ETOOBIG));
    p.n = ARENA_MCF_MAX_TENSORS; /* at the limit: accepted */
    cr_expect_eq(arena_planner_scratch(pl, &p, &bytes), ARENA_OK);
    cr_expect_gt(bytes, 0);
    free(t);
    free(off);
}
