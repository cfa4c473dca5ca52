/* hill_climb.c — hill climbing over the placing order of first fit (TVM's
 * unified static memory planner, src/tir/usmp/algo/hill_climb.cc,
 * HillClimbAllocator).
 *
 * The order starts as the size order (largest first, then earlier first
 * step, then lower id; TVM: size, then conflicts, then name). Each round
 * places every tensor in the current order at the lowest offset where it
 * meets none of the already placed tensors it conflicts with (first fit,
 * the gap walk of greedy_common.h) and compares the arena with the current
 * one: no larger, the order is kept; larger, it is kept only with
 * probability floor(50 (new - current) / new / round) percent (TVM's
 * formula, integer percent, so rarely and less as rounds pass); otherwise
 * the last swap is undone. Then a tensor that reaches the top of the
 * current plan is picked at random (among those, in order position), and
 * two distinct tensors among it and the tensors it conflicts with that come
 * before it in the order are swapped. TVM draws the second one from the
 * conflicts of those conflicts three times out of four; arenabench keeps to
 * the first level, which the definition in docs/planners.md names. When fewer
 * than two candidates exist the round makes no swap. The search stops
 * after the round budget (opt->node_limit, else the key rounds: 500 as in
 * TVM), when opt->time_limit seconds of wall time (from the call's start) are spent
 * or opt->stop is set (the flag read before every placement, the clock
 * before every eighth, so a round of any size is stopped midway; the plan
 * then depends on the machine's speed, as optimal's does), at the max-live
 * lower bound, or in decision mode (opt->capacity) at a plan that fits.
 * The plan is the smallest of the whole rounds, so never above the first
 * round's, which is greedy-by-size-firstfit's plan; a later round stopped
 * midway is dropped, and a first round stopped midway is the plan, its
 * tensors not placed stacked on top (valid, status LIMIT).
 *
 * Random choices come from splitmix64 seeded with the key seed (bench's
 * --seed unless the spec sets it): the same seed gives the same plan.
 * plan->nodes = rounds run; bound = the lower bound; status in decision
 * mode INFEASIBLE when the bound exceeds the capacity (the search still
 * stops at the bound), FEASIBLE when the plan fits;
 * otherwise OPTIMAL at the lower bound, LIMIT when the budget ran out.
 * Each round costs what greedy-by-size-firstfit costs plus O(n).
 *
 * Scratch: greedy_common's 99 bytes per tensor plus 28 (current and best
 * offsets 8 each; order, positions and a list 4 each; the bound's sort
 * borrows the index's), plus each array's rounding, described once with
 * planners/layout.h. */
#include <assert.h>
#include <time.h>

#include "planners/greedy_common.h"
#include "planners/layout.h"
#include "planners/order.h"
#include "planners/tables.h"

/* The keys (hill-climb:seed=3,rounds=200), in the order of opt->values. */
enum { K_SEED, K_ROUNDS, N_KEYS };
static const struct arena_key keys[N_KEYS] = {
    [K_SEED] = {.name = "seed", .kind = ARENA_KEY_UINT, .def = NULL, .min = 0, .max = INT64_MAX,
                .help = "the seed of the random swaps and uphill keeps (default bench's --seed)"},
    [K_ROUNDS] = {.name = "rounds", .kind = ARENA_KEY_UINT, .def = "500", .min = 1,
                  .max = 1000000000,
                  .help = "rounds of first fit at most (TVM: 500); --node-limit, given, "
                          "replaces it"},
};

struct work {
    struct arena_greedy g;
    uint64_t *cur;  /* n, by rank: offsets of the current order's plan */
    uint64_t *best; /* n, by rank: offsets of the smallest plan seen */
    uint32_t *ord;  /* n: ranks in placing order */
    uint32_t *pos;  /* n: position of each rank in ord */
    uint32_t *list; /* n: ranks by last (the bound's sweep), then top
                       tensors, then swap candidates */
};

/* The one description of the scratch: counts with base NULL, carves else. */
static int carve(struct arena_layout *l, const struct arena_problem *p, void *work)
{
    struct work *w = work;
    size_t n = p->n;
    int rc = arena_greedy_take(&w->g, l, n);
    if (rc != ARENA_OK)
        return rc;
    w->cur = arena_layout_take(l, n, sizeof *w->cur);
    w->best = arena_layout_take(l, n, sizeof *w->best);
    w->ord = arena_layout_take(l, n, sizeof *w->ord);
    w->pos = arena_layout_take(l, n, sizeof *w->pos);
    w->list = arena_layout_take(l, n, sizeof *w->list);
    return ARENA_OK;
}

static int climb_scratch(const struct arena_problem *p, size_t *bytes)
{
    struct work w;
    return arena_layout_count(carve, p, &w, bytes);
}

static uint64_t next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Max over steps of the bytes live there: ranks ascend by first; the lasts
 * are radix sorted with the index's sort (free until the first placement). */
static uint64_t lower_bound(struct arena_greedy *g, struct work *w)
{
    size_t n = g->n;
    for (size_t r = 0; r < n; r++) {
        g->sort.key[r] = g->rec[r].last;
        w->list[r] = (uint32_t)r;
    }
    arena_radix_sort(&g->sort, w->list, n);
    uint64_t live = 0, most = 0;
    size_t j = 0;
    for (size_t r = 0; r < n;) {
        uint32_t f = g->rec[r].first;
        while (j < n && g->sort.key[j] < f)
            live -= g->rec[w->list[j++]].size;
        for (; r < n && g->rec[r].first == f; r++)
            live += g->rec[r].size;
        if (live > most)
            most = live;
    }
    return most;
}

/* Whether opt's wall-time budget, counted from start, is spent. */
static int out_of_time(double limit, const struct timespec *start)
{
    if (limit <= 0)
        return 0;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double spent = (double)(now.tv_sec - start->tv_sec) + 1e-9 * (double)(now.tv_nsec - start->tv_nsec);
    return spent >= limit;
}

/* The budgets inside a round: the stop flag before every placement, the
 * clock before every CLOCK_EVERY-th (a read costs about a tenth of a
 * placement), so a round of 10^5 tensors or more ends within a few of them
 * of the limit. */
#define CLOCK_EVERY 8u

struct budget {
    const struct arena_plan_options *opt;
    struct timespec start;
    uint32_t placed;
};

static int budget_spent(void *ctx)
{
    struct budget *b = ctx;
    if (arena_plan_stop_requested(b->opt))
        return 1;
    return ++b->placed % CLOCK_EVERY == 0 && out_of_time(b->opt->time_limit, &b->start);
}

/* One round: first fit in order ord. Nonzero when a budget stopped it (the
 * tensors not placed yet unplaced). */
static int first_fit(struct arena_greedy *g, const uint32_t *ord)
{
    arena_greedy_restart(g);
    for (size_t k = 0; k < g->n && !arena_greedy_interrupted(g); k++)
        arena_greedy_place(g, ord[k], ARENA_GREEDY_FIRST_FIT);
    return g->interrupted;
}

static void swap_at(struct work *w, uint32_t a, uint32_t b)
{
    uint32_t ra = w->ord[a], rb = w->ord[b];
    w->ord[a] = rb;
    w->ord[b] = ra;
    w->pos[rb] = a;
    w->pos[ra] = b;
}

static int climb_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                      void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    if (p->n == 0) {
        plan->status = ARENA_PLAN_OPTIMAL;
        return ARENA_OK;
    }
    struct budget budget = {.opt = opt};
    clock_gettime(CLOCK_MONOTONIC, &budget.start); /* the limit counts the set-up too */
    struct work w;
    arena_layout_carve(carve, p, &w, scratch, scratch_size);
    struct arena_greedy g = w.g;
    arena_greedy_init(&g, p, NULL, budget_spent, &budget);
    size_t n = g.n;
    if (g.interrupted) { /* in the set-up: every tensor stacked, no round */
        arena_greedy_stack_rest(&g);
        arena_greedy_finish(&g, plan);
        plan->bound = 0;
        plan->status = ARENA_PLAN_LIMIT;
        return ARENA_OK;
    }
    uint64_t bound = lower_bound(&g, &w);
    uint64_t target = opt->capacity > bound ? opt->capacity : bound;
    uint64_t rounds = opt->node_limit ? opt->node_limit : opt->values[K_ROUNDS].u;
    uint64_t rng = opt->values[K_SEED].u;
    for (size_t k = 0; k < n; k++) {
        w.ord[k] = g.order[k];
        w.pos[g.order[k]] = (uint32_t)k;
    }

    uint64_t cur = 0, best = UINT64_MAX, round = 0;
    uint32_t undo_a = 0, undo_b = 0;
    int swapped = 0;
    while (round < rounds && !(round > 0 && (out_of_time(opt->time_limit, &budget.start) ||
                                             arena_plan_stop_requested(opt)))) {
        round++;
        if (first_fit(&g, w.ord)) {
            /* A budget ran out mid-round: a later round's part plan is
             * dropped; the first round's, its rest stacked, is the plan. */
            if (round == 1) {
                arena_greedy_stack_rest(&g);
                best = g.arena;
                for (size_t r = 0; r < n; r++)
                    w.best[r] = g.rec[r].off;
            }
            break;
        }
        uint64_t a = g.arena;
        int keep = round == 1 || a <= cur;
        if (!keep) {
            unsigned pct = (unsigned)(50.0 * (double)(a - cur) / (double)a / (double)round);
            keep = next(&rng) % 100 < pct;
        }
        if (keep) {
            cur = a;
            for (size_t r = 0; r < n; r++)
                w.cur[r] = g.rec[r].off;
            if (a < best) {
                best = a;
                for (size_t r = 0; r < n; r++)
                    w.best[r] = g.rec[r].off;
            }
        } else if (swapped) {
            swap_at(&w, undo_a, undo_b);
        }
        swapped = 0;
        if (best <= target)
            break;

        /* The tensors at the top of the current plan, in order position. */
        size_t tops = 0;
        for (size_t k = 0; k < n; k++) {
            const struct arena_greedy_rec *t = &g.rec[w.ord[k]];
            uint64_t off = w.cur[w.ord[k]];
            if (t->size > 0 && off != ARENA_GREEDY_UNPLACED && off + t->size == cur)
                w.list[tops++] = w.ord[k];
        }
        if (tops == 0)
            continue; /* only zero-size tensors: best is 0 and stopped above */
        uint32_t top = w.list[next(&rng) % tops];
        const struct arena_greedy_rec *t = &g.rec[top];
        size_t cands = 0;
        w.list[cands++] = w.pos[top];
        for (uint32_t k = 0; k < w.pos[top]; k++) {
            const struct arena_greedy_rec *c = &g.rec[w.ord[k]];
            if (c->size > 0 && c->first <= t->last && t->first <= c->last)
                w.list[cands++] = k;
        }
        if (cands < 2)
            continue;
        size_t i = next(&rng) % cands, j = next(&rng) % (cands - 1);
        if (j >= i)
            j++;
        undo_a = w.list[i];
        undo_b = w.list[j];
        swap_at(&w, undo_a, undo_b);
        swapped = 1;
    }

    for (size_t r = 0; r < n; r++)
        plan->offsets[g.id[r]] = w.best[r] == ARENA_GREEDY_UNPLACED ? 0 : w.best[r];
    plan->arena = best;
    plan->buffers = 0;
    plan->nodes = round;
    plan->bound = bound;
    if (opt->capacity > 0 && bound > opt->capacity)
        plan->status = ARENA_PLAN_INFEASIBLE;
    else if (opt->capacity > 0 && best <= opt->capacity)
        plan->status = ARENA_PLAN_FEASIBLE;
    else if (best <= bound)
        plan->status = ARENA_PLAN_OPTIMAL;
    else
        plan->status = ARENA_PLAN_LIMIT;
    return ARENA_OK;
}

const struct arena_planner arena_planner_hill_climb = {
    .name = "hill-climb",
    .summary = "first fit over an order improved by seeded swaps (TVM USMP)",
    .kind = ARENA_KIND_SEARCH,
    .plan = climb_plan,
    .scratch_bytes = climb_scratch,
    .keys = keys,
    .n_keys = N_KEYS,
};
