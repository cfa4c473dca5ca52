/* optimal.c — exact, anytime planner: minimises the arena over all valid
 * offset plans and proves it, or returns the best plan found and a proven
 * lower bound when a budget stops it. Ideas from MiniMalloc (Moffitt,
 * ASPLOS '23: canonical solutions, section inference, dominance); the code
 * is ours. This file is the driver and the schedule; each idea below names
 * the function (and file of planners/optimal/) that holds it.
 *
 * - Incumbent: the best of greedy-by-size, greedy-by-size-firstfit and
 *   greedy-by-breadth (their own tables, in a share of our scratch), so the
 *   answer is never worse than any of them.                  best_greedy()
 * - Independent parts: tensors with bytes, ordered by first step, split where
 *   no lifetime spans the boundary; each part is solved alone and the arena
 *   is the largest part's. Parts take a round each in turn, in decreasing
 *   max-live order (a part that stays hard starves none after it), and none
 *   is pushed below the bound already proven for the whole problem.
 *                 parts_split(), part_load() parts.c, optimal_plan()
 * - Canonical search: some optimal plan is "gravity" (each tensor at 0 or on
 *   top of a tensor it conflicts with); sorted by (offset, preorder rank), each
 *   of its tensors sits, when its turn comes, at lo = the highest end of the
 *   already placed tensors it conflicts with. So the search places tensors in
 *   strictly increasing (lo, rank) order, each at its lo — depth-first, one
 *   tensor per level, with an explicit stack (never recursion).
 *                                  canonical_search()        canonical.c
 * - Dominance: a tensor is not placed at or above min(lo_j + size_j) over the
 *   unplaced j: j would fit in the gap below, untouched, at its own lo.
 *                   dominance_height(), filler_dominance_height()
 *                                                            inference.c
 * - Section inference: between consecutive lifetime boundaries (a section),
 *   the unplaced tensors form a one-machine schedule with release times
 *   (none below its lo or the current offset; one the threshold has passed
 *   not below the current offset + the smallest size left); its least
 *   makespan, max over v of v + the bytes released at v or later, must fit
 *   the capacity. Children that would leave the busiest section over it are
 *   skipped unplaced.     sections_fit(), release_fits(), busiest_section(),
 *                         filler_fits()                      inference.c
 * - Dynamic decomposition: when the unplaced tensors of the scope fall apart
 *   into groups no lifetime joins, the groups are solved one after another;
 *   a group without a completion fails the node that split.
 *                                  split_scope() parts.c, canonical_search()
 * - Symmetry: identical tensors go in rank order; tensors of one lifetime
 *   resting right on one another go largest below (some plan of least
 *   sum of size^2 x offset does so, and no tensor of it can drop).
 *                                  twin_forbids(), stack_forbids() inference.c
 * - Preorders (ties among equal lo): a portfolio of eight, tried in turn.
 *                                  rank_by()                     parts.c
 * - Own times: a problem read from a file keeps its lifetimes' own lengths
 *   (problem.h, span); then preorders 4-6 are MiniMalloc's TWA, WAT and TAW
 *   over them, each group of the canonical search is ranked afresh by the
 *   loads left, and the stack rule is off in those runs (a symmetry rule
 *   only narrows which plans the tree holds; with it, TWA misses a plan
 *   of MiniMalloc's instance I it finds without: docs/optimal.md, Own times).
 *                 own_times(), rank_by_span(), rerank_group()    parts.c
 *   Preorder 2, whose first key is the most loaded section spanned, ranks
 *   each group afresh too (rule rerank): the loads fall as tensors are
 *   placed (measured: docs/optimal.md, Groups ranked afresh for preorder 2).
 *                                  ranks_groups()                parts.c
 * - Parts without slack (every section carries exactly the capacity, as in
 *   perfect-packing boxes): first, each round, a search that fills the
 *   lowest empty byte first, branching over which tensor has its bottom
 *   there, in the lowest section with the fewest such tensors (fail first),
 *   with its own section inference; an eighth of the round's budget.
 *                                  zero_slack() parts.c,
 *                                  lowest_gap_search()      lowest_gap.c
 *   Then up to four filler searches (a round's budget each, four
 *   preorders): only the tensors spanning several sections are placed, and
 *   each section's single-section tensors are packed into the holes they
 *   leave (finds plans, proves nothing).   filler_search()     filler.c
 *   Then the lowest-gap search with discrepancy limits 0 .. 6 (a tree a
 *   limit cut proves nothing).     lowest_gap_search()      lowest_gap.c
 * - Limited discrepancy search (Harvey and Ginsberg, 1995): before each
 *   preorder's depth-first decision run at the bound, canonical searches
 *   that leave the preorder's first child at most 0, 1, 2, ... times along
 *   a path, each a fresh tree, within the same node budget. It finds plans
 *   that an early wrong choice hides from depth-first search; a tree the
 *   limit cut proves nothing (CUT, never EXHAUSTED), so proofs stay with
 *   the depth-first runs. With depth-discrepancy, they run before the
 *   four preorders whose ties go by position only, with twice the budget
 *   (the other four, which break ties at random, grew the same trees), and
 *   half of it goes to searches that count discrepancies on the top
 *   DISC_TOP levels only and search each subtree below depth first within
 *   DISC_BELOW nodes (a wrong choice near the root, then a local repair
 *   deep down).   discrepancy_search() canonical.c, solve_part()
 * - Decision runs at capacity C (the proven bound first: a plan there is
 *   optimal) and branch and bound from the incumbent, alternating with
 *   doubling node budgets. Heights move in steps of the part's sizes' gcd
 *   (r->step: every gravity plan's offsets are sums of sizes, so the
 *   optimum is a multiple of it; with alignment 1 and sizes in KiB a step
 *   is 1,024 bytes, not one). Each branch and bound first probes C halfway
 *   between the bound and the best plan (a plan there is a long way down;
 *   none there proves the bound above it), then C = best - step, lowered at
 *   every plan found. A decision run that exhausts the tree proves the
 *   bound one step above C; a branch and bound that does proves its best
 *   plan optimal. Every search starts afresh (no state kept between runs).
 *   Minimising, each round also probes below the best plan before the
 *   branch and bound: decision runs (discrepancy, then depth first) on
 *   preorders 0-3 at best - (best - bound) / 2^dive, dive growing after a
 *   round in which no probe found a plan (a decision run at a lower
 *   capacity often finds what one step below the best plan does not).
 *                                  solve_part(), step_above(), probe_height()
 * - Repair (large-neighbourhood search, finds only): after each round's
 *   branch and bound, the part's best plan is repaired at the target: a
 *   hole-free floor of it kept, the canonical search run over the rest
 *   above it, neighbourhoods from small to large. A plan at the bound
 *   ends the part; none proves nothing (a restriction was searched), so
 *   only its plans are taken.        repair_search()           repair.c
 * - Budgets: node_limit counts placements (deterministic: same problem, same
 *   plan, bound and nodes). time_limit: CLOCK_MONOTONIC is read by units of
 *   work (about one array element each), every CLOCK_WORK of them, not by
 *   nodes: a node costs m + the sections its part's tensors span, and the
 *   section inference charges its walk as it goes, so a budget stops a node
 *   midway (LIMITED, never a proof). opt->stop (a caller's signal flag) is
 *   read at every charge. The greedy incumbents count too: each placement
 *   asks (greedy_common.h's interrupt); one stopped stacks its unplaced
 *   tensors on top and is kept only if it beats a completed one; a run the
 *   incumbents stopped reports max-live by one sweep, without loading parts.
 *                                optimal_spend_work(), ..._node()  budget.c
 * - Decision mode (capacity > 0): decision runs at the capacity, and branch
 *   and bound from the incumbent, so offsets always hold the best plan any
 *   search found: FEASIBLE (a plan within it), INFEASIBLE (proven: at once
 *   when max-live exceeds it, at any n, or when a best plan above it is
 *   proven optimal), LIMIT (unknown).                    optimal_plan()
 *
 * - Switches: each rule above can be switched off (key off,
 *   `--planner optimal:off=stack+twins`; the table arena_optimal_switches
 *   below, planners/optimal.h) to measure what it prunes; rule_on() asks,
 *   in the function that holds the rule. Key engine picks the engines.
 *
 * Scratch: the greedy planners' share, then O(n) arrays and an undo log of
 * LOG_PER_TENSOR entries per tensor with bytes plus LOG_BASE, or one per
 * pair of them if fewer (a pair logs at
 * most once along a path; a placement that finds the log full is undone by
 * recomputing its neighbours' lo, the same search with more work); one
 * description, layout(). No size cap: every problem is searched. */
#include <stdlib.h>
#include <string.h>

#include "planners/greedy_common.h"
#include "planners/layout.h"
#include "planners/optimal/internal.h"
#include "planners/optimal/lcg/lcg.h"
#include "planners/optimal/sat/sat.h"
#include "planners/tables.h"

static size_t greedy_share(const struct arena_problem *p, int *rc)
{
    const struct arena_planner *g[] = {&arena_planner_greedy_size,
                                       &arena_planner_greedy_size_firstfit,
                                       &arena_planner_greedy_breadth, &arena_planner_online_tlsf};
    size_t most = 0;
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        size_t b = 0;
        int r = arena_planner_scratch(g[i], p, &b);
        if (r != ARENA_OK) {
            *rc = r;
            return 0;
        }
        if (b > most)
            most = b;
    }
    return most;
}

/* 2 x budget, saturating (node budgets double each round). */
static uint64_t twice(uint64_t budget)
{
    return budget > UINT64_MAX / 2 ? UINT64_MAX : 2 * budget;
}

static size_t count_bytes_tensors(const struct arena_problem *p)
{
    size_t m = 0;
    for (size_t i = 0; i < p->n; i++)
        m += p->tensors[i].size > 0;
    return m;
}

/* The filler search's subset-sum bits: section x needs single bytes / gcd
 * + 1 bits, at most its single bytes / 64 + 2 words, and each tensor is a
 * single of one section at most, over at most 2m sections: the problem's
 * bytes / 64 + 4m + 1 words suffice, capped at FILLER_WORDS (past it the
 * filler search gives up, filler.c). */
static size_t filler_words(const struct arena_problem *p, size_t m)
{
    uint64_t bytes = 0;
    for (size_t i = 0; i < p->n; i++)
        bytes = p->tensors[i].size > UINT64_MAX - bytes ? UINT64_MAX : bytes + p->tensors[i].size;
    uint64_t words = bytes / 64 + 4 * (uint64_t)m + 1;
    return words < FILLER_WORDS ? (size_t)words : FILLER_WORDS;
}

/* The one description of the scratch (layout.h). */
static int layout(struct arena_layout *l, const struct arena_problem *p, void *work)
{
    struct work *w = work;
    int rc = ARENA_OK;
    size_t n = p->n, gb = greedy_share(p, &rc);
    if (rc != ARENA_OK)
        return rc;
    if ((uint64_t)n >= UINT32_MAX / 2)
        return ARENA_EOVERFLOW;
    size_t m = count_bytes_tensors(p);
    int search = m > 0;
    uint64_t entries = search ? LOG_PER_TENSOR * (uint64_t)m + LOG_BASE : 0;
    /* a pair logs at most once along a path: a small part never needs more
     * (and bench and the tests fill the whole scratch on every call) */
    uint64_t pairs = search ? (uint64_t)m * (m - 1) / 2 + 1 : 0;
    if (pairs < entries)
        entries = pairs;
    if (entries > SIZE_MAX / 16)
        return ARENA_EOVERFLOW;
    memset(w, 0, sizeof *w);
    w->greedy = arena_layout_take(l, gb, 1);
    w->greedy_bytes = gb;
    w->tmp_off = arena_layout_take(l, n, sizeof *w->tmp_off);
    if (search) {
        w->ids = arena_layout_take(l, m, sizeof *w->ids);
        w->tmp = arena_layout_take(l, m, sizeof *w->tmp);
        w->part_start = arena_layout_take(l, m + 1, sizeof *w->part_start);
        w->part_lb = arena_layout_take(l, m, sizeof *w->part_lb);
        w->part_order = arena_layout_take(l, m, sizeof *w->part_order);
        w->part_state = arena_layout_take(l, m, sizeof *w->part_state);
        w->size = arena_layout_take(l, m, sizeof *w->size);
        w->first = arena_layout_take(l, m, sizeof *w->first);
        w->last = arena_layout_take(l, m, sizeof *w->last);
        w->s0 = arena_layout_take(l, m, sizeof *w->s0);
        w->s1 = arena_layout_take(l, m, sizeof *w->s1);
        w->fwd_end = arena_layout_take(l, m, sizeof *w->fwd_end);
        w->rank = arena_layout_take(l, m, sizeof *w->rank);
        w->off = arena_layout_take(l, m, sizeof *w->off);
        w->lo = arena_layout_take(l, m, sizeof *w->lo);
        w->ord = arena_layout_take(l, m, sizeof *w->ord);
        w->twin = arena_layout_take(l, m, sizeof *w->twin);
        w->twin_at = arena_layout_take(l, m, sizeof *w->twin_at);
        w->twin_end = arena_layout_take(l, m, sizeof *w->twin_end);
        w->same_at = arena_layout_take(l, m, sizeof *w->same_at);
        w->same_end = arena_layout_take(l, m, sizeof *w->same_end);
        w->frames = arena_layout_take(l, m, sizeof *w->frames);
        w->splits = arena_layout_take(l, m, sizeof *w->splits);
        w->groups = arena_layout_take(l, 2 * m + 1, sizeof *w->groups);
        w->rank_save = arena_layout_take(l, RANK_SAVE_PER_TENSOR * m, sizeof *w->rank_save);
        w->rank_save_cap = RANK_SAVE_PER_TENSOR * m;
        w->bound = arena_layout_take(l, 2 * m, sizeof *w->bound);
        w->rem = arena_layout_take(l, 2 * m, sizeof *w->rem);
        w->top = arena_layout_take(l, 2 * m, sizeof *w->top);
        w->acc = arena_layout_take(l, 2 * m, sizeof *w->acc);
        w->cover = arena_layout_take(l, 2 * m, sizeof *w->cover);
        arena_radix_take(&w->sort, l, 2 * m);
        w->key = w->sort.key;
        w->idx = arena_layout_take(l, 2 * m, sizeof *w->idx);
        w->log_idx = arena_layout_take(l, (size_t)entries, sizeof *w->log_idx);
        w->log_old = arena_layout_take(l, (size_t)entries, sizeof *w->log_old);
        w->log_cap = entries;
        w->multi = arena_layout_take(l, m, sizeof *w->multi);
        w->multi_ord = arena_layout_take(l, m, sizeof *w->multi_ord);
        w->lift_at = arena_layout_take(l, m, sizeof *w->lift_at);
        w->single_bytes = arena_layout_take(l, 2 * m, sizeof *w->single_bytes);
        w->hole_bytes = arena_layout_take(l, 2 * m, sizeof *w->hole_bytes);
        w->fb_unit = arena_layout_take(l, 2 * m, sizeof *w->fb_unit);
        w->fb_base = arena_layout_take(l, 2 * m, sizeof *w->fb_base);
        w->fbits_cap = filler_words(p, m);
        w->fbits = arena_layout_take(l, w->fbits_cap, sizeof *w->fbits);
        w->hole = arena_layout_take(l, m, sizeof *w->hole);
        w->hole_at = arena_layout_take(l, m, sizeof *w->hole_at);
        w->single = arena_layout_take(l, m, sizeof *w->single);
        w->single_hole = arena_layout_take(l, m, sizeof *w->single_hole);
        w->fixed = arena_layout_take(l, m, sizeof *w->fixed);
        w->freed = arena_layout_take(l, m, sizeof *w->freed);
    }
    return ARENA_OK;
}

static int optimal_scratch(const struct arena_problem *p, size_t *bytes)
{
    struct work w;
    return arena_layout_count(layout, p, &w, bytes);
}

/* ---- switches ---- */

/* Every rule once: the switch table and the names of key off. */
#define OPTIMAL_RULES(X) \
    X("parts", ARENA_OPTIMAL_PARTS, "independent parts solved alone (off: one part)") \
    X("groups", ARENA_OPTIMAL_GROUPS, "the canonical search's dynamic decomposition into groups") \
    X("section", ARENA_OPTIMAL_SECTION, "section inference (release-time makespan per section)") \
    X("busiest", ARENA_OPTIMAL_BUSIEST, \
      "children the busiest section rules out, skipped unplaced") \
    X("dominance", ARENA_OPTIMAL_DOMINANCE, "no child above a tensor that fits untouched below") \
    X("twins", ARENA_OPTIMAL_TWINS, "identical tensors placed in rank order") \
    X("stack", ARENA_OPTIMAL_STACK, "tensors of one lifetime stacked largest below") \
    X("lowest-gap", ARENA_OPTIMAL_LOWEST_GAP, "the lowest-gap search on parts without slack") \
    X("filler", ARENA_OPTIMAL_FILLER, "the filler search on parts without slack") \
    X("discrepancy", ARENA_OPTIMAL_DISCREPANCY, \
      "limited discrepancy search before each depth-first decision run at the bound") \
    X("repair", ARENA_OPTIMAL_REPAIR, \
      "large-neighbourhood search from the best plan (finds only)") \
    X("depth-discrepancy", ARENA_OPTIMAL_DEPTH_DISCREPANCY, \
      "discrepancy budget on preorders 0-3, half of it to discrepancies on the top levels only") \
    X("gap-discrepancy", ARENA_OPTIMAL_GAP_DISCREPANCY, \
      "the lowest-gap search with discrepancy limits, after the filler searches") \
    X("own-times", ARENA_OPTIMAL_OWN_TIMES, \
      "preorders 4-6 by a file's own lifetime lengths (MiniMalloc's TWA, WAT, TAW), groups " \
      "ranked afresh") \
    X("probes", ARENA_OPTIMAL_PROBES, \
      "minimising: decision runs below the best plan each round, nearer it after a miss") \
    X("rerank", ARENA_OPTIMAL_RERANK, \
      "preorder 2 (most loaded section first) ranks each group afresh by the loads left") \
    X("sat-domains", ARENA_OPTIMAL_SAT_DOMAINS, \
      "SAT: offsets within the slack of a subset sum of each section's other tensors") \
    X("sat-tiling", ARENA_OPTIMAL_SAT_TILING, \
      "SAT: in sections full at the capacity, \"lies below\" made transitive") \
    X("sat-phases", ARENA_OPTIMAL_SAT_PHASES, \
      "SAT and lcg: the best greedy plan as the solver's first phases") \
    X("lcg-propagate", ARENA_OPTIMAL_LCG_PROPAGATE, \
      "lcg: an open pair whose one orientation would pass the capacity forced the other way") \
    X("lcg-domains", ARENA_OPTIMAL_LCG_DOMAINS, \
      "lcg: chains rounded up to the offsets of the static subset-sum domains (sat-domains')") \
    X("lcg-energy", ARENA_OPTIMAL_LCG_ENERGY, \
      "lcg: a tensor's offset at least the sizes known below it in one section (above: likewise)") \
    X("adaptive-share", ARENA_OPTIMAL_ADAPTIVE_SHARE, \
      "portfolio: each member's CPU by its weight (doubled after progress, halved after " \
      "none); lcg from the search's first round")

#define SWITCH(name, bit, summary) {name, bit, summary},
const struct arena_optimal_switch arena_optimal_switches[] = {OPTIMAL_RULES(SWITCH)};
#define NAME(name, bit, summary) name,
static const char *const rule_names[] = {OPTIMAL_RULES(NAME) NULL};
const size_t arena_optimal_switch_count =
    sizeof arena_optimal_switches / sizeof arena_optimal_switches[0];

const struct arena_optimal_switch *arena_optimal_switch_find(const char *name, size_t len)
{
    for (size_t i = 0; i < arena_optimal_switch_count; i++)
        if (strlen(arena_optimal_switches[i].name) == len &&
            strncmp(arena_optimal_switches[i].name, name, len) == 0)
            return &arena_optimal_switches[i];
    return NULL;
}

static const char *const engine_names[ARENA_OPTIMAL_ENGINES + 1] = {
    [ARENA_OPTIMAL_ENGINE_PORTFOLIO] = "portfolio",
    [ARENA_OPTIMAL_ENGINE_SEARCH] = "search",
    [ARENA_OPTIMAL_ENGINE_SAT] = "sat",
    [ARENA_OPTIMAL_ENGINE_LCG] = "lcg",
    [ARENA_OPTIMAL_ENGINES] = NULL,
};

/* ---- keys ---- */

static const struct arena_key optimal_keys[] = {
    [ARENA_OPTIMAL_KEY_ENGINE] = {.name = "engine", .kind = ARENA_KEY_CHOICE, .def = "portfolio",
                                  .choices = engine_names,
                                  .help = "the engines: portfolio (the search, then lcg and SAT"
                                          " sharing its CPU time in turn),"
                                          " search (the canonical searches), sat, lcg (each"
                                          " alone, after the greedy incumbents)"},
    [ARENA_OPTIMAL_KEY_OFF] = {.name = "off", .kind = ARENA_KEY_SET, .def = "none",
                               .choices = rule_names,
                               .help = "rules switched off, to measure what each prunes (plans"
                                       " stay valid, proofs stay proofs): docs/optimal.md"},
};

/* Key off's set holds rule i (of the table above) as bit i; the rules'
 * ARENA_OPTIMAL_* bits may leave gaps (bits are assigned before the rules
 * land), so each direction goes through the table. */
void arena_optimal_values(struct arena_key_value v[ARENA_OPTIMAL_KEYS], unsigned engine,
                          uint32_t off)
{
    memset(v, 0, ARENA_OPTIMAL_KEYS * sizeof *v);
    v[ARENA_OPTIMAL_KEY_ENGINE].choice = engine;
    for (size_t i = 0; i < arena_optimal_switch_count; i++)
        if (off & arena_optimal_switches[i].bit)
            v[ARENA_OPTIMAL_KEY_OFF].choice |= (uint64_t)1 << i;
}

/* The run's engine and rules off from opt's values (NULL: the defaults, for
 * the entry points tests call directly). */
static void read_keys(const struct arena_plan_options *opt, struct run *r)
{
    r->engine = ARENA_OPTIMAL_ENGINE_PORTFOLIO;
    r->off = 0;
    if (!opt->values)
        return;
    r->engine = (unsigned)opt->values[ARENA_OPTIMAL_KEY_ENGINE].choice;
    uint64_t set = opt->values[ARENA_OPTIMAL_KEY_OFF].choice; /* rule i: bit i */
    for (size_t i = 0; i < arena_optimal_switch_count; i++)
        if (set >> i & 1)
            r->off |= arena_optimal_switches[i].bit;
}

const char *arena_optimal_engine_name(unsigned engine)
{
    return engine < ARENA_OPTIMAL_ENGINES ? engine_names[engine] : NULL;
}

/* ---- incumbent ---- */

/* The greedy planners' interrupt: a placement costs about a node of a
 * part of a few tensors; the clock is read every CLOCK_WORK / 16 of them. */
static int greedy_interrupt(void *ctx)
{
    return arena_optimal_spend_work(ctx, CLOCK_WORK / 16);
}

/* The best plan of greedy-by-size, greedy-by-size-firstfit and
 * greedy-by-breadth, run in turn while the budgets last (they count against
 * them). One stopped by a budget still gives a valid plan (the tensors it
 * had not placed stacked on top); it is kept only when it beats the plans
 * that completed, so the answer is never worse than any of those. With a
 * time limit, online-tlsf plans first, whole whatever the limit (only the
 * stop flag ends it): O(n) after two radix sorts, 18 ms of CPU at n = 10^5,
 * a tenth of greedy-by-size at ~1,000 live. So a limit too short for the
 * greedy planners on a large problem still gets a plan near theirs
 * (random-intervals:n=100000 at 0.1 s: 1.075x max-live; a greedy stopped
 * early stacks most tensors, up to 2,219x), and the answer is never worse
 * than that first plan. Without one, the greedy planners always complete
 * and the search from their best is the same as before, node for node. */
static int best_greedy(struct run *r, struct arena_plan *plan)
{
    const struct arena_problem *p = r->p;
    struct work *w = r->w;
    struct arena_plan t = {.n = p->n, .offsets = w->tmp_off};
    if (arena_plan_stop_requested(r->opt)) { /* no set-up at all: the tensors end to end */
        arena_plan_stopped(p, plan);
        r->stopped = 1;
        return ARENA_OK;
    }
    int have = 0;
    for (int i = r->opt->time_limit > 0 ? -1 : 0; i < 3; i++) {
        if (have && (r->stopped || arena_plan_stop_requested(r->opt))) {
            r->stopped = 1;
            break;
        }
        arena_plan_reset(&t);
        int stopped = 0, rc;
        if (i < 0) { /* online-tlsf at its own defaults, not optimal's key values */
            struct arena_plan_options tlsf = *r->opt;
            tlsf.values = NULL;
            rc = arena_planner_run(&arena_planner_online_tlsf, p, &tlsf, w->greedy,
                                   w->greedy_bytes, &t);
        } else if (i < 2)
            rc = arena_greedy_size_plan_until(p, w->greedy, w->greedy_bytes, &t,
                                              i == 0 ? ARENA_GREEDY_BEST_FIT
                                                     : ARENA_GREEDY_FIRST_FIT,
                                              greedy_interrupt, r, NULL, &stopped);
        else
            rc = arena_greedy_breadth_plan_until(p, w->greedy, w->greedy_bytes, &t,
                                                 greedy_interrupt, r, NULL, &stopped);
        if (rc != ARENA_OK)
            return rc;
        if (!have || t.arena < plan->arena) {
            if (p->n > 0) /* offsets may be NULL for the empty problem */
                memcpy(plan->offsets, t.offsets, p->n * sizeof *t.offsets);
            plan->arena = t.arena;
            have = 1;
        }
    }
    plan->buffers = 0;
    return ARENA_OK;
}

/* ---- the schedule ---- */

/* What solving one part found out. */
struct part_result {
    uint64_t proven;  /* the bound proven for the whole problem, raised */
    int infeasible;   /* decision mode: proven that no plan fits the capacity */
};

/* The least multiple of step above x: a part whose sizes are multiples of
 * step has its optimum at such a height (its gravity plans do). */
static uint64_t step_above(uint64_t x, uint64_t step)
{
    return (x / step + 1) * step;
}

/* One preorder's decision run at capacity C: the limited discrepancy
 * search first (it only finds, or proves when no limit cut its tree), then
 * the depth-first search, which keeps the proofs. With depth-discrepancy:
 * on preorders 0-3 only, twice the budget (4-7 differ from them in ties
 * only, and their discrepancy trees were the same to a node, measured on
 * exact-slack: docs/optimal.md, Depth-bounded discrepancies). */
static enum outcome preorder_decision(struct run *r, uint64_t C, unsigned h, unsigned round,
                                      uint64_t budget, struct arena_plan *plan)
{
    enum outcome o = LIMITED;
    int depth = rule_on(r, ARENA_OPTIMAL_DEPTH_DISCREPANCY);
    if (rule_on(r, ARENA_OPTIMAL_DISCREPANCY) && (!depth || h < HEURISTICS / 2))
        o = arena_optimal_discrepancy_search(r, C, h, round, depth ? twice(budget) : budget, plan);
    if (o == LIMITED && !r->stopped)
        o = arena_optimal_canonical_search(r, C, h, round, budget, DISC_ANY, plan);
    return o;
}

/* The probes' height: the best plan less (best - target) / 2^dive, down to
 * a multiple of the step; once that is within a step of the best plan,
 * *dive starts again at 1 (halfway). 0: no height left between them. */
static uint64_t probe_height(const struct run *r, uint64_t target, unsigned *dive)
{
    for (int again = 0; again < 2; again++) {
        uint64_t gap = r->part_arena - target;
        uint64_t down = *dive < 64 ? gap >> *dive : 0;
        uint64_t probe = r->part_arena - (down + r->step - 1) / r->step * r->step;
        if (probe > target && probe + r->step < r->part_arena)
            return probe;
        *dive = 1;
    }
    return 0;
}

/* A decision run at C (the target, a probe, or the capacity or above in
 * decision mode) exhausted its tree: no plan of the part up to C. Raises
 * the proven bound to the next step above C and the target with it; in
 * decision mode the capacity is then proven infeasible. Returns whether
 * the part is done. */
static int none_up_to(struct run *r, struct part_result *res, uint64_t C, uint64_t cap,
                      uint64_t *target, uint64_t *tight)
{
    res->proven = max_u64(res->proven, step_above(C, r->step));
    *tight = 0; /* above max-live no part is without slack */
    if (cap) {
        res->infeasible = 1;
        *target = cap;
        return 1;
    }
    *target = res->proven;
    return r->part_arena <= *target;
}

/* In a part without slack, the decision at the target before the
 * preorders: lowest gap first, then singles as filler, then the lowest-gap
 * search with discrepancy limits 0 .. GAP_DISCREPANCIES (each a fresh tree,
 * the depth-first run's budget; they only find, or prove when no limit cut
 * the tree): after the two above, so what they find at once costs no more
 * nodes. */
static enum outcome without_slack(struct run *r, uint64_t target, unsigned round, uint64_t budget,
                                  struct arena_plan *plan)
{
    unsigned hi = (round + 1) % HEURISTICS;
    int gap = rule_on(r, ARENA_OPTIMAL_LOWEST_GAP);
    enum outcome o = LIMITED;
    if (gap)
        o = arena_optimal_lowest_gap_search(r, target, hi, round, budget / 8, DISC_ANY, plan);
    for (unsigned f = 0; rule_on(r, ARENA_OPTIMAL_FILLER) && f < FILLER_TRIES && o == LIMITED; f++)
        if (!r->stopped)
            o = arena_optimal_filler_search(r, target, (hi + f) % HEURISTICS, round, budget, plan);
    int limits = gap && rule_on(r, ARENA_OPTIMAL_GAP_DISCREPANCY);
    for (uint32_t L = 0; limits && L <= GAP_DISCREPANCIES && o == LIMITED && !r->stopped; L++)
        o = arena_optimal_lowest_gap_search(r, target, hi, round, budget / 8, L, plan);
    return o;
}

/* A round's decisions at the target (the proven bound, or the capacity):
 * in a part without slack without_slack() first, then each preorder in
 * turn. Returns whether the part is done. */
static int decide_at_target(struct run *r, unsigned round, uint64_t cap, uint64_t budget,
                            struct part_result *res, uint64_t *target, uint64_t *tight,
                            struct arena_plan *plan)
{
    int done = 0;
    for (unsigned i = 0; i <= HEURISTICS && !done && !r->stopped; i++) {
        if (i == 0 && *target != *tight)
            continue;
        enum outcome o = i == 0 ? without_slack(r, *target, round, budget, plan)
                                : preorder_decision(r, *target, i - 1, round, budget, plan);
        if (o == FOUND)
            done = 1;
        else if (o == EXHAUSTED)
            done = none_up_to(r, res, *target, cap, target, tight);
    }
    return done;
}

/* Probes (minimising): decision runs below the best plan, the first
 * HEURISTICS / 2 preorders each with the round's budget, at the best plan
 * less gap / 2^dive (gap: best plan - bound). *found: some probe found a
 * plan (a round in which none does probes nearer the best plan: measured,
 * docs/optimal.md, Probes). Returns whether the part is done. */
static int probes(struct run *r, unsigned round, uint64_t cap, uint64_t budget,
                  struct part_result *res, uint64_t *target, uint64_t *tight, unsigned *dive,
                  int *found, struct arena_plan *plan)
{
    int done = 0;
    for (unsigned h = 0;
         !cap && rule_on(r, ARENA_OPTIMAL_PROBES) && h < HEURISTICS / 2 && !done && !r->stopped;
         h++) {
        uint64_t probe = probe_height(r, *target, dive);
        if (probe == 0)
            break;
        enum outcome o = preorder_decision(r, probe, h, round, budget, plan);
        *found |= o == FOUND;
        if (o == EXHAUSTED)
            done = none_up_to(r, res, probe, cap, target, tight);
    }
    return done;
}

/* Branch and bound, preorder round mod HEURISTICS / 2: a probe halfway
 * between the bound and the best plan (a plan there is a long step down;
 * none there proves the bound above it), then decisions one step below the
 * best plan; in decision mode too, so a run that stops at the limit returns
 * the best plan any search found, and one that proves the best plan optimal
 * above the capacity proves it infeasible. Returns whether the part is
 * done. */
static int branch_and_bound(struct run *r, unsigned round, uint64_t cap, uint64_t budget,
                            struct part_result *res, uint64_t *target, uint64_t *tight,
                            struct arena_plan *plan)
{
    unsigned h = round % (HEURISTICS / 2);
    enum outcome o;
    uint64_t mid = *target + (r->part_arena - *target) / 2 / r->step * r->step;
    if (mid > *target && mid + r->step < r->part_arena) {
        o = arena_optimal_canonical_search(r, mid, h, round, budget, DISC_ANY, plan);
        /* decision mode: no plan up to mid, above the capacity */
        if (o == EXHAUSTED && none_up_to(r, res, mid, cap, target, tight))
            return 1;
    }
    do
        o = arena_optimal_canonical_search(r, r->part_arena - r->step, h, round, budget, DISC_ANY,
                                           plan);
    while (o == FOUND && r->part_arena > *target);
    if (o == EXHAUSTED) {
        res->proven = max_u64(res->proven, r->part_arena);
        res->infeasible = cap && r->part_arena > cap;
    }
    return o == FOUND || o == EXHAUSTED;
}

/* Runs the next round of part ids[a..b) (loaded, rem the loads) whose
 * incumbent is r->part_arena, from where st stands: the decisions at the
 * target, the probes, one branch and bound, and a repair of the best plan
 * at the target (a plan there ends the part; none proves nothing: measured
 * on exact-slack, every round finds as good or better plans than only after
 * a round that improved the part, docs/optimal.md, Repair); each round
 * doubles the budget. st->done once the part is proven. */
static void solve_part(struct run *r, size_t a, size_t b, uint64_t cap, struct part_result *res,
                       struct part_state *st, struct arena_plan *plan)
{
    if (st->budget == 0) { /* its first round */
        st->target = cap ? cap : res->proven;
        st->budget = 64 + 16 * (uint64_t)(b - a);
        st->dive = 1;
    } else if (!cap && res->proven > st->target) { /* another part raised the bound */
        st->target = res->proven;
    }
    uint64_t target = st->target, budget = st->budget;
    uint64_t tight = arena_optimal_zero_slack(r, target) ? target : 0; /* rem: the loads */
    unsigned round = st->round, dive = st->dive;
    int done = 0;
    if (!r->stopped) {
        done = decide_at_target(r, round, cap, budget, res, &target, &tight, plan);
        int found = 0;
        if (!done)
            done = probes(r, round, cap, budget, res, &target, &tight, &dive, &found, plan);
        if (!found)
            dive++;
        if (!done && !r->stopped)
            done = branch_and_bound(r, round, cap, budget, res, &target, &tight, plan);
        if (!done && !r->stopped && rule_on(r, ARENA_OPTIMAL_REPAIR) && r->part_arena > target)
            done = arena_optimal_repair_search(r, target, round, budget, plan) == FOUND;
        budget = twice(budget);
    }
    st->round++;
    st->target = target;
    st->budget = budget;
    st->dive = dive;
    st->done = done;
}

/* Opens the part's solver at top bytes, in the room the other parts' open
 * solvers leave (states[0..parts)); when that is too little, theirs are
 * closed first (the part being solved has the room). Its phases: the best
 * greedy plan (r->phase_offsets), or plan when that could not be kept. */
static enum arena_sat_open sat_open(struct run *r, uint64_t top, struct part_state *states,
                                    size_t parts, struct part_state *st,
                                    const struct arena_plan *plan)
{
    uint64_t held = 0;
    for (size_t q = 0; q < parts; q++)
        if (&states[q] != st && states[q].sat != NULL)
            held += arena_sat_bytes(states[q].sat);
    struct arena_plan greedy = {.offsets = r->phase_offsets};
    const struct arena_plan *phases = r->phase_offsets != NULL ? &greedy : plan;
    /* the member's share of CPU is not asked while the encoding is built:
     * a build it stopped would read as one past the memory budget */
    double until = r->member_until;
    r->member_until = 0;
    enum arena_sat_open o = arena_sat_open(r, top, phases, ARENA_SAT_MEMORY - held, &st->sat);
    if (o == ARENA_SAT_CROWDED) {
        for (size_t q = 0; q < parts; q++)
            if (&states[q] != st) {
                arena_sat_close(states[q].sat);
                states[q].sat = NULL;
            }
        o = arena_sat_open(r, top, phases, ARENA_SAT_MEMORY, &st->sat);
    }
    r->member_until = until;
    return o;
}

/* The part's solver broke (arena_sat_broken: no memory, or a model that
 * did not decode): closed, and SAT skipped on the part from now on, as an
 * encoding past the budget is (out of memory, the plan says so); the
 * search keeps the part's plan. */
static void sat_give_up(struct part_state *st, struct arena_plan *plan)
{
    if (arena_sat_broken(st->sat) == ARENA_SAT_NO_MEMORY)
        plan->notes |= ARENA_PLAN_NOTE_SAT_MEMORY;
    arena_sat_close(st->sat);
    st->sat = NULL;
    st->sat_skipped = 1;
}

/* A round of the SAT engine, `budget` conflicts, on the loaded part (its
 * state st among states[0..parts)), whose best plan r->part_arena lies
 * above the target (the proven bound, or the capacity): first a solver
 * whose top is the target (a plan there ends the part, none raises the
 * bound a step); once the target is refuted (minimising), one whose top is
 * the best plan less a step, asked at the target (a level: none there
 * raises the bound) and at its top (a plan lowers the top for good, none
 * proves the best plan optimal), half the conflicts each. The solver stays
 * open between rounds: learnt clauses kept. A part whose encoding passes
 * the memory budget, or whose solver breaks, is marked skipped, and the
 * plan says so. */
static void sat_round(struct run *r, uint64_t cap, struct part_result *res,
                      struct part_state *states, size_t parts, struct part_state *st,
                      uint64_t budget, struct arena_plan *plan)
{
    uint64_t target = cap ? cap : res->proven, spare = 0;
    int done = 0;

    if (st->sat != NULL && (arena_sat_top(st->sat) < target ||
                            (!st->sat_minimise && arena_sat_top(st->sat) > target))) {
        arena_sat_close(st->sat); /* the bound rose past it */
        st->sat = NULL;
    }
    if (st->sat == NULL) {
        uint64_t top = st->sat_minimise ? r->part_arena - r->step : target;
        enum arena_sat_open o = sat_open(r, top, states, parts, st, plan);
        if (o == ARENA_SAT_SKIPPED) {
            st->sat_skipped = 1;
            plan->notes |= ARENA_PLAN_NOTE_SAT_MEMORY;
            return;
        }
        if (o == ARENA_SAT_STOPPED)
            return;
        if (o == ARENA_SAT_NONE) {
            if (top == target) {
                st->done = none_up_to(r, res, target, cap, &spare, &spare);
                st->sat_minimise = !cap;
            } else { /* nothing below the best plan */
                res->proven = max_u64(res->proven, r->part_arena);
                st->done = 1;
            }
            return;
        }
    }
    uint64_t top = arena_sat_top(st->sat);
    if (top >= r->part_arena) /* another search found a better plan */
        arena_sat_lower_top(r, st->sat, r->part_arena - r->step);
    top = arena_sat_top(st->sat);
    enum outcome o = arena_sat_solve(r, st->sat, target, top > target ? budget / 2 : budget, plan);
    if (arena_sat_broken(st->sat)) {
        sat_give_up(st, plan);
        return;
    }
    if (o == FOUND) {
        done = 1;
    } else if (o == EXHAUSTED) {
        done = none_up_to(r, res, target, cap, &spare, &spare);
        if (top <= target) { /* its top is refuted: minimise below the best plan */
            arena_sat_close(st->sat);
            st->sat = NULL;
            st->sat_minimise = !cap;
        }
        target = cap ? cap : res->proven;
    }
    if (!done && !r->stopped && st->sat != NULL && top > target) {
        o = arena_sat_solve(r, st->sat, top, budget / 2, plan);
        if (arena_sat_broken(st->sat)) {
            sat_give_up(st, plan);
            return;
        }
        if (o == FOUND && r->part_arena > target) {
            arena_sat_lower_top(r, st->sat, r->part_arena - r->step);
        } else if (o == FOUND) {
            done = 1;
        } else if (o == EXHAUSTED) { /* none below the best plan */
            res->proven = max_u64(res->proven, r->part_arena);
            res->infeasible = cap && r->part_arena > cap;
            done = 1;
        }
    }
    st->done = done;
}

/* The lcg engine could not run on the part (memory, Z3): its rounds end
 * there, and the plan says so. */
static void lcg_give_up(struct part_state *st, struct arena_plan *plan)
{
    arena_lcg_close(st->lcg);
    arena_lcg_close(st->lcg_min);
    st->lcg = st->lcg_min = NULL;
    st->lcg_failed = 1;
    plan->notes |= ARENA_PLAN_NOTE_LCG_FAILED;
}

/* Opens *s at cap bytes with the best greedy plan as phases (or plan);
 * 0, or -1 when it could not be opened (st given up, or a budget ran out). */
static int lcg_open(struct run *r, uint64_t cap, struct part_state *st, struct arena_lcg **s,
                    struct arena_plan *plan)
{
    struct arena_plan greedy = {.offsets = r->phase_offsets};
    double until = r->member_until; /* as sat_open: not while opening */
    r->member_until = 0;
    enum arena_lcg_open o = arena_lcg_open(r, cap, r->phase_offsets != NULL ? &greedy : plan, s);
    r->member_until = until;
    if (o == ARENA_LCG_SKIPPED)
        lcg_give_up(st, plan);
    return o == ARENA_LCG_READY ? 0 : -1;
}

/* A round of the lcg engine, `budget` conflicts, on the loaded part whose
 * best plan lies above the target (the proven bound, or the capacity): a
 * solver at the target (a plan there ends the part; none raises the bound
 * a step, and the next round opens one at the new target: its learnt
 * clauses would not hold higher up), and, minimising, one whose top is
 * the best plan less a step (a plan lowers its top, its clauses kept;
 * none proves the best plan optimal), half the conflicts each. */
static void lcg_round(struct run *r, uint64_t cap, struct part_result *res, struct part_state *st,
                      uint64_t budget, struct arena_plan *plan)
{
    uint64_t target = cap ? cap : res->proven, spare = 0;
    int done = 0, failed = 0;
    int minimise = !cap && r->part_arena - r->step > target;
    uint64_t share = minimise ? budget / 2 : budget;

    if (st->lcg != NULL && arena_lcg_top(st->lcg) != target) {
        arena_lcg_close(st->lcg); /* the bound rose past it */
        st->lcg = NULL;
    }
    if (st->lcg == NULL && lcg_open(r, target, st, &st->lcg, plan) != 0)
        return;
    enum outcome o = arena_lcg_solve(r, st->lcg, share, plan, &failed);
    if (failed) {
        lcg_give_up(st, plan);
        return;
    }
    if (o == FOUND) {
        done = 1;
    } else if (o == EXHAUSTED) {
        done = none_up_to(r, res, target, cap, &spare, &spare);
        arena_lcg_close(st->lcg);
        st->lcg = NULL;
        target = cap ? cap : res->proven;
    }
    uint64_t below = r->part_arena - r->step;
    if (!done && !r->stopped && !cap && below > target) {
        if (st->lcg_min != NULL && arena_lcg_top(st->lcg_min) > below)
            arena_lcg_lower_top(st->lcg_min, below);
        if (st->lcg_min == NULL && lcg_open(r, below, st, &st->lcg_min, plan) != 0)
            return;
        uint64_t top = arena_lcg_top(st->lcg_min);
        o = arena_lcg_solve(r, st->lcg_min, share, plan, &failed);
        if (failed) {
            lcg_give_up(st, plan);
            return;
        }
        if (o == FOUND && r->part_arena - r->step > target) {
            arena_lcg_lower_top(st->lcg_min, r->part_arena - r->step);
        } else if (o == FOUND) {
            done = r->part_arena <= target;
        } else if (o == EXHAUSTED) { /* no plan within its top: the optimum is above */
            res->proven = max_u64(res->proven, step_above(top, r->step));
            done = r->part_arena <= res->proven;
        }
    }
    st->done = done;
}

/* Whether a round made progress on the part: a better plan, a raised
 * bound, a proof (rule adaptive-share). */
static int progressed(const struct run *r, const struct part_result *res,
                      const struct part_state *st, uint64_t arena, uint64_t proven)
{
    return st->done || r->part_arena < arena || res->proven > proven || res->infeasible;
}

/* Rule adaptive-share: the members' round after the search's round that
 * took `nodes` nodes and `cpu` seconds of this thread's CPU, each member
 * in turn (lcg, then SAT from the search's SAT_FROM_ROUND) with the
 * search's round times its weight over the search's (share.c), in CPU,
 * or with a node limit in conflicts (no clock read); each member's weight
 * then follows what its round achieved. */
static void weighted_round(struct run *r, uint64_t cap, struct part_result *res,
                           struct part_state *states, size_t parts, struct part_state *st,
                           uint64_t nodes, double cpu, struct arena_plan *plan)
{
    int det = r->opt->node_limit != 0;
    for (enum member m = MEMBER_LCG; m < MEMBERS; m++) {
        if (st->done || r->stopped || r->part_arena <= (cap ? cap : res->proven))
            break;
        if (m == MEMBER_LCG ? st->lcg_failed
                            : st->sat_skipped || st->round <= SAT_FROM_ROUND)
            continue;
        uint64_t arena = r->part_arena, proven = res->proven;
        double share = cpu * arena_optimal_share_ratio(st, m);
        uint64_t conflicts = max_u64(nodes, SAT_CONFLICTS_FIRST);
        if (!det)
            arena_optimal_member_share(r, share > 1e-6 ? share : 1e-6);
        else if (m == MEMBER_LCG) /* its conflicts' cost varies tenfold: its hook calls */
            arena_optimal_member_calls(r, arena_optimal_share_calls(st, nodes));
        else
            conflicts = arena_optimal_share_conflicts(st, nodes);
        if (m == MEMBER_LCG)
            lcg_round(r, cap, res, st, conflicts, plan);
        else
            sat_round(r, cap, res, states, parts, st, conflicts, plan);
        arena_optimal_member_share(r, 0);
        arena_optimal_share_note(st, m, progressed(r, res, st, arena, proven));
    }
}

/* The portfolio's members beside the search on the loaded part, after the
 * search's round that took `nodes` nodes and `cpu` seconds of this
 * thread's CPU; with rule adaptive-share, weighted_round; without it (the
 * fair schedule), the lcg engine, then the SAT engine, half of it each; on
 * a part whose order encoding passes the SAT engine's memory budget
 * (sat_skipped) the lcg engine alone. They have as much CPU as the
 * search's round just had (arena_optimal_member_share): counted in CPU,
 * not wall time, so a busy machine starves none, and the search keeps half
 * of every round, so the portfolio takes about twice the time of its
 * search alone at most where the search is the one that proves
 * (MiniMalloc's E). The lcg engine goes first: on exact-slack it proves in
 * a fraction of the SAT engine's time and memory where it proves at all
 * (docs/optimal-sat.md, The portfolio). With a node limit the run is
 * deterministic and reads no clock: conflicts stand for CPU, one per
 * PORTFOLIO_NODES_PER_CONFLICT search nodes, half to each. */
static void member_round(struct run *r, uint64_t cap, struct part_result *res,
                         struct part_state *states, size_t parts, struct part_state *st,
                         uint64_t nodes, double cpu, struct arena_plan *plan)
{
    int det = r->opt->node_limit != 0;
    if (rule_on(r, ARENA_OPTIMAL_ADAPTIVE_SHARE)) {
        weighted_round(r, cap, res, states, parts, st, nodes, cpu, plan);
        return;
    }
    uint64_t conflicts = det ? max_u64(nodes / PORTFOLIO_NODES_PER_CONFLICT, 1)
                             : max_u64(nodes, SAT_CONFLICTS_FIRST);
    double spent = 0;
    if (!st->sat_skipped && !st->lcg_failed) { /* lcg first, half the share */
        double t0 = arena_optimal_cpu_seconds();
        arena_optimal_member_share(r, det ? 0 : cpu / 2 > 1e-6 ? cpu / 2 : 1e-6);
        lcg_round(r, cap, res, st, det ? max_u64(conflicts / 2, 1) : conflicts, plan);
        spent = arena_optimal_cpu_seconds() - t0;
        conflicts = det ? max_u64(conflicts - conflicts / 2, 1) : conflicts;
    }
    arena_optimal_member_share(r, det ? 0 : cpu - spent > 1e-6 ? cpu - spent : 1e-6);
    if (!st->sat_skipped && !st->done && !r->stopped && r->part_arena > (cap ? cap : res->proven))
        sat_round(r, cap, res, states, parts, st, conflicts, plan);
    if (st->sat_skipped && !st->done && !st->lcg_failed && !r->stopped &&
        r->part_arena > (cap ? cap : res->proven))
        lcg_round(r, cap, res, st, conflicts, plan);
    arena_optimal_member_share(r, 0);
}

/* The highest end of part ids[a..b) in plan. */
static uint64_t part_top(const struct run *r, size_t a, size_t b, const struct arena_plan *plan)
{
    uint64_t top = 0;
    for (size_t i = a; i < b; i++) {
        uint32_t id = r->w->ids[i];
        top = max_u64(top, plan->offsets[id] + r->p->tensors[id].size);
    }
    return top;
}

/* Max-live bytes of the whole problem (the largest part's max-live): one
 * radix sort of the 2m lifetime ends and a sweep, ends of a step before
 * its starts. Cheaper than loading every part, for a run whose budget the
 * greedy incumbents used up. */
static uint64_t max_live(const struct arena_problem *p, struct work *w)
{
    size_t e = 0;
    for (size_t i = 0; i < p->n; i++) {
        const struct arena_tensor *t = &p->tensors[i];
        if (t->size == 0)
            continue;
        w->key[e] = (uint64_t)t->first << 1 | 1;
        w->idx[e++] = (uint32_t)i << 1 | 1;
        w->key[e] = ((uint64_t)t->last + 1) << 1;
        w->idx[e++] = (uint32_t)i << 1;
    }
    arena_optimal_sort_by(w, e);
    uint64_t live = 0, most = 0;
    for (size_t j = 0; j < e; j++) {
        uint64_t size = p->tensors[w->idx[j] >> 1].size;
        if (w->idx[j] & 1) {
            live += size;
            most = max_u64(most, live);
        } else {
            live -= size;
        }
    }
    return most;
}

/* What one node of the loaded part (m tensors) may cost, in units of
 * work: its scans over the part, and the section inference's walk over
 * every section of every tensor. */
static uint64_t node_cost(const struct work *w, size_t m)
{
    uint64_t c = 4 * (uint64_t)m;
    for (size_t k = 0; k < m; k++)
        c += w->s1[k] - w->s0[k];
    return c;
}

/* The planner, with the lcg engine's explanations also to fn (NULL: none). */
static int plan_with(const struct arena_problem *p, const struct arena_plan_options *opt,
                     void *scratch, size_t scratch_size, struct arena_plan *plan,
                     arena_optimal_lemma_fn *fn, void *ctx, uint64_t memory_mb)
{
    struct run r = {.p = p, .opt = opt, .align = p->alignment, .lemma_hook = fn, .lemma_ctx = ctx,
                    .lcg_memory_mb = memory_mb ? memory_mb : ARENA_OPTIMAL_LCG_MEMORY >> 20};
    read_keys(opt, &r);
    clock_gettime(CLOCK_MONOTONIC, &r.start);
    struct work w;
    arena_layout_carve(layout, p, &w, scratch, scratch_size);
    r.w = &w;

    int rc = best_greedy(&r, plan);
    if (rc != ARENA_OK)
        return rc;
    for (size_t i = 0; i < p->n; i++)
        if (p->tensors[i].size == 0)
            plan->offsets[i] = 0;
    size_t m = count_bytes_tensors(p);
    uint64_t cap = opt->capacity;
    if (m == 0) {
        plan->arena = 0;
        plan->bound = 0;
        plan->status = cap ? ARENA_PLAN_FEASIBLE : ARENA_PLAN_OPTIMAL;
        return ARENA_OK;
    }

    if (r.stopped && arena_plan_stop_requested(opt)) { /* a caller's signal: no sweep */
        plan->status = ARENA_PLAN_LIMIT;
        return ARENA_OK;
    }
    if (r.stopped) { /* the incumbents used the budget: the bound alone */
        plan->bound = max_live(p, &w);
        if (cap)
            plan->status = cap < plan->bound    ? ARENA_PLAN_INFEASIBLE
                           : plan->arena <= cap ? ARENA_PLAN_FEASIBLE
                                                : ARENA_PLAN_LIMIT;
        else
            plan->status = plan->arena <= plan->bound ? ARENA_PLAN_OPTIMAL : ARENA_PLAN_LIMIT;
        return ARENA_OK;
    }

    size_t parts = arena_optimal_parts_split(&r);
    struct part_result res = {0, 0};
    for (size_t q = 0; q < parts; q++) {
        w.part_lb[q] = arena_optimal_part_load(&r, w.part_start[q], w.part_start[q + 1]);
        res.proven = max_u64(res.proven, w.part_lb[q]);
    }
    plan->bound = res.proven;
    if (cap && cap < res.proven) {
        plan->status = ARENA_PLAN_INFEASIBLE;
        return ARENA_OK;
    }
    /* the SAT engine's phases: the best greedy plan (docs/optimal-sat.md,
     * the rules: the search's plans mislead it); without memory, the best
     * plan at the time */
    if (r.engine != ARENA_OPTIMAL_ENGINE_SEARCH && rule_on(&r, ARENA_OPTIMAL_SAT_PHASES) &&
        (r.phase_offsets = malloc(p->n * sizeof *r.phase_offsets)) != NULL)
        memcpy(r.phase_offsets, plan->offsets, p->n * sizeof *r.phase_offsets);
    /* the parts by decreasing max-live */
    for (size_t q = 0; q < parts; q++) {
        w.key[q] = ~w.part_lb[q];
        w.idx[q] = (uint32_t)q;
    }
    arena_optimal_sort_by(&w, parts);
    memcpy(w.part_order, w.idx, parts * sizeof *w.part_order);

    /* a round of each part in turn, by decreasing max-live, until all are
     * proven or a budget ends it: a part that stays hard starves none after
     * it (packed:n=1000,seed=3: a part of 222 tensors took all 30 s, and the
     * parts after it kept their greedy plans, 1.10x the bound) */
    memset(w.part_state, 0, parts * sizeof *w.part_state);
    for (int busy = 1; busy && !r.stopped && !res.infeasible;) {
        busy = 0;
        for (size_t qi = 0; qi < parts && !r.stopped && !res.infeasible; qi++) {
            size_t q = w.part_order[qi];
            size_t a = w.part_start[q], b = w.part_start[q + 1];
            struct part_state *st = &w.part_state[q];
            r.part_arena = part_top(&r, a, b, plan);
            if (st->done || r.part_arena <= (cap ? cap : res.proven))
                continue;
            arena_optimal_part_load(&r, a, b);
            r.node_cost = node_cost(&w, b - a);
            uint64_t before = r.nodes;
            double cpu = arena_optimal_cpu_seconds();
            unsigned engine = r.engine;
            uint64_t arena = r.part_arena, proven = res.proven;
            if (engine == ARENA_OPTIMAL_ENGINE_PORTFOLIO || engine == ARENA_OPTIMAL_ENGINE_SEARCH)
                solve_part(&r, a, b, cap, &res, st, plan);
            int sat = engine == ARENA_OPTIMAL_ENGINE_SAT, lcg = engine == ARENA_OPTIMAL_ENGINE_LCG;
            r.part_arena = part_top(&r, a, b, plan);
            int adaptive = rule_on(&r, ARENA_OPTIMAL_ADAPTIVE_SHARE);
            if (engine == ARENA_OPTIMAL_ENGINE_PORTFOLIO && adaptive)
                arena_optimal_share_note(st, MEMBER_SEARCH,
                                         progressed(&r, &res, st, arena, proven));
            int open = !st->done && !r.stopped && r.part_arena > (cap ? cap : res.proven);
            /* the engines alone: their conflicts double each round */
            uint64_t alone = max_u64(st->sat_budget, SAT_CONFLICTS_FIRST);
            if (lcg && open && !st->lcg_failed) {
                lcg_round(&r, cap, &res, st, alone, plan);
                st->sat_budget = twice(alone);
            }
            if (sat && open && !st->sat_skipped) {
                sat_round(&r, cap, &res, w.part_state, parts, st, alone, plan);
                st->sat_budget = twice(alone);
            }
            if (engine == ARENA_OPTIMAL_ENGINE_PORTFOLIO && open &&
                st->round > (adaptive ? LCG_FROM_ROUND : SAT_FROM_ROUND))
                member_round(&r, cap, &res, w.part_state, parts, st, r.nodes - before,
                             arena_optimal_cpu_seconds() - cpu, plan);
            busy |= !st->done && !(sat && st->sat_skipped) && !(lcg && st->lcg_failed);
        }
    }
    for (size_t q = 0; q < parts; q++) {
        arena_sat_close(w.part_state[q].sat);
        arena_lcg_close(w.part_state[q].lcg);
        arena_lcg_close(w.part_state[q].lcg_min);
    }
    free(r.phase_offsets);
    uint64_t arena = 0;
    for (size_t q = 0; q < parts; q++)
        arena = max_u64(arena, part_top(&r, w.part_start[q], w.part_start[q + 1], plan));
    plan->arena = arena;
    plan->bound = res.proven;
    plan->nodes = r.nodes;
    if (cap)
        plan->status = res.infeasible ? ARENA_PLAN_INFEASIBLE
                       : arena <= cap ? ARENA_PLAN_FEASIBLE
                                      : ARENA_PLAN_LIMIT;
    else
        plan->status = arena <= res.proven ? ARENA_PLAN_OPTIMAL : ARENA_PLAN_LIMIT;
    return ARENA_OK;
}

static int optimal_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                        void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    return plan_with(p, opt, scratch, scratch_size, plan, NULL, NULL, 0);
}

int arena_optimal_lcg_lemmas(const struct arena_problem *p, const struct arena_plan_options *opt,
                             void *scratch, size_t scratch_size, struct arena_plan *plan,
                             arena_optimal_lemma_fn *fn, void *ctx, uint64_t memory_mb)
{
    return plan_with(p, opt, scratch, scratch_size, plan, fn, ctx, memory_mb);
}

int arena_optimal_repair(const struct arena_problem *p, const struct arena_plan_options *opt,
                         void *scratch, size_t scratch_size, struct arena_plan *plan, uint64_t cap)
{
    struct run r = {.p = p, .opt = opt, .align = p->alignment};
    read_keys(opt, &r);
    clock_gettime(CLOCK_MONOTONIC, &r.start);
    struct work w;
    arena_layout_carve(layout, p, &w, scratch, scratch_size);
    r.w = &w;
    uint64_t arena = 0;
    size_t parts = count_bytes_tensors(p) ? arena_optimal_parts_split(&r) : 0;
    for (size_t q = 0; q < parts; q++) {
        size_t a = w.part_start[q], b = w.part_start[q + 1];
        arena_optimal_part_load(&r, a, b);
        r.node_cost = node_cost(&w, b - a);
        r.part_arena = part_top(&r, a, b, plan);
        if (r.part_arena > cap && !r.stopped)
            arena_optimal_repair_search(&r, cap, 0, UINT64_MAX, plan);
        arena = max_u64(arena, r.part_arena);
    }
    plan->arena = arena;
    plan->nodes = r.nodes;
    plan->status = arena <= cap ? ARENA_PLAN_FEASIBLE : ARENA_PLAN_LIMIT;
    return ARENA_OK;
}

const struct arena_planner arena_planner_optimal = {
    .name = "optimal",
    .summary = "exact search (canonical placements, MiniMalloc-style pruning): best plan and proven bound",
    .kind = ARENA_KIND_SEARCH,
    .plan = optimal_plan,
    .scratch_bytes = optimal_scratch,
    .keys = optimal_keys,
    .n_keys = ARENA_OPTIMAL_KEYS,
};
