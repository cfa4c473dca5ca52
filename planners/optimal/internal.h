/* internal.h — the state the files of planners/optimal/ share: the scratch
 * arrays (struct work), one run's counters (struct run) and the functions
 * one file offers another. Internal to planners/optimal/.
 *
 * Index spaces: a global id (0..n) names a tensor of the problem; a local
 * position k (0..m) names a tensor of the part being solved, ordered by
 * (first step, id); a section x (0..S) is a run of steps between two
 * consecutive lifetime boundaries of the part. Each array below holds one
 * thing, in one index space, in every search. */
#ifndef ARENA_OPTIMAL_INTERNAL_H
#define ARENA_OPTIMAL_INTERNAL_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "planners/optimal.h"
#include "planners/order.h"
#include "planners/planner.h"

#define UNPLACED UINT64_MAX
#define NONE UINT32_MAX
/* Units of work (about one array element read each) between two reads of
 * the clock: a few tens of microseconds. */
#define CLOCK_WORK ((uint64_t)1 << 15)
/* The canonical search's undo log: LOG_PER_TENSOR entries per tensor with
 * bytes plus LOG_BASE; a placement that finds it full is undone by
 * recomputing its neighbours' lo instead (same search, more work). */
#define LOG_PER_TENSOR 16u
#define LOG_BASE ((uint64_t)1 << 18)
/* Preorders in the portfolio (parts.c, rank_by). */
#define HEURISTICS 8u
/* The filler search's subset-sum bits, at most (512 KiB; fewer for a small problem,
 * filler_words()): a part needing more skips it. */
#define FILLER_WORDS ((size_t)1 << 16)
/* Tries per leaf of the filler search when packing singles into holes. */
#define FILLER_STEPS 100000u
/* Alignment steps the filler search lifts a tensor at most. */
#define FILLER_LIFT 16u
/* The lowest-gap search's discrepancy limits (0 .. this), tried after its
 * depth-first run and the filler searches, each a fresh tree with the
 * depth-first run's budget (measured on packed boxes: docs/optimal.md, How
 * it works, the filler search). */
#define GAP_DISCREPANCIES 6u
/* The SAT engine's conflicts in a part's first round (doubling each round). */
#define SAT_CONFLICTS_FIRST 1024u
/* The portfolio: the search's rounds of a part before the other member's
 * rounds (SAT, or lcg where SAT's encoding passes its memory budget) join
 * in, one after each of the search's, with as much of the thread's CPU as
 * that round of the search had (optimal.c, member_round). With a node
 * limit (deterministic, no clock read), a conflict per
 * PORTFOLIO_NODES_PER_CONFLICT nodes the search's round spent instead: a
 * conflict of the SAT engine costs 1-5 ms on exact-slack's encodings, an
 * lcg conflict 0.07-2 ms, a search node 2-10 us (docs/optimal-sat.md, The
 * portfolio). */
#define SAT_FROM_ROUND 2u
#define PORTFOLIO_NODES_PER_CONFLICT 512u
/* Rule adaptive-share (share.c): the lcg member joins after the search's
 * first round of a part (its solver opens in milliseconds; SAT's encoding
 * takes seconds and up to a GiB, so SAT keeps SAT_FROM_ROUND); a member's
 * weight is 2^-slow, slow in 0 .. SHARE_FLOOR. */
#define LCG_FROM_ROUND 0u
#define SHARE_FLOOR 3u
/* With a node limit, the lcg member's round ends after LCG_HOOKS_PER_NODE
 * of its propagator's hook calls per node of its share:
 * measured 2-4 hook calls in the CPU of a search node on exact-slack, E and
 * D, where a conflict costs 90-150 hook calls on the first two and ~800 on
 * D (a conflict alone undercounts D's CPU tenfold). */
#define LCG_HOOKS_PER_NODE 4u
/* The lcg propagator's hook calls between two calls of
 * arena_optimal_out_of_time (lcg/propagator.c). */
#define LCG_POLL_HOOKS 256u
/* Calls of arena_optimal_out_of_time between two reads of the thread's
 * CPU clock while a portfolio member runs. */
#define MEMBER_POLL 16u
/* Filler searches per round, each with its own preorder. */
#define FILLER_TRIES 4u
/* Depth-bounded discrepancy search (canonical.c, discrepancy_search):
 * discrepancies counted on the top DISC_TOP levels only; below, each
 * subtree searched depth first within DISC_BELOW nodes. */
#define DISC_TOP 16u
#define DISC_BELOW 200u

/* One level of a search: the tensor placed there and, in the canonical
 * search, where its undo log starts. */
struct frame {
    uint64_t log_start;
    uint32_t pick;
    uint32_t unlogged; /* the log filled up: undo by recomputing lo */
    uint32_t disc;     /* canonical and lowest-gap searches: discrepancies on the
                          path to this level's node (children taken after the
                          node's first) */
    uint32_t entered;  /* canonical and lowest-gap: a child of this node was searched */
};

/* A threshold on (offset, rank): children must come strictly after it. */
struct key {
    uint64_t lo;
    uint32_t rank; /* NONE with lo 0: the root, everything comes after */
};

/* A scope of the canonical search: positions [ka, kb), sections [sa, sb). */
struct group {
    uint32_t ka, kb, sa, sb;
};

/* A node where the unplaced tensors fell apart into independent groups. */
struct split {
    struct key thr;       /* the node's threshold: every group starts from it */
    uint32_t d;           /* depth of the node */
    uint32_t g0, ngroups; /* its groups: groups[g0 .. g0 + ngroups) */
    uint32_t active;      /* the group being solved */
    uint32_t group_start; /* depth where the active group started */
    uint32_t save_at;     /* reranked: the split scope's ranks at rank_save[save_at..] */
    int reranked;         /* each group ranked afresh (rerank_group), its threshold's
                             rank reset (every group rank is above 0) */
};

/* The portfolio's members (rule adaptive-share, share.c). */
enum member { MEMBER_SEARCH, MEMBER_LCG, MEMBER_SAT, MEMBERS };

/* Where one part's rounds stand: the parts take a round each in turn
 * (optimal.c, optimal_plan), so one that stays hard starves none after it. */
struct part_state {
    uint64_t target;  /* the height its decision runs aim at */
    uint64_t budget;  /* the next round's node budget (0: no round run yet) */
    unsigned round;   /* rounds run */
    unsigned dive;    /* the probes' depth (probe_height) */
    int done;         /* proven, or proven infeasible */
    /* the SAT engine (planners/optimal/sat/) */
    struct arena_sat *sat;  /* the part's open solver, or NULL */
    uint64_t sat_budget;    /* the next SAT round's conflicts (0: none run yet) */
    int sat_minimise;       /* the target was refuted: the solver's top is the
                               best plan less a step, the target a level */
    int sat_skipped;        /* the encoding passes the memory budget */
    /* the lcg engine (planners/optimal/lcg/) */
    struct arena_lcg *lcg;     /* its solver at the target, or NULL */
    struct arena_lcg *lcg_min; /* minimising: its solver below the best plan, or NULL */
    int lcg_failed;            /* it could not run here (memory, Z3) */
    /* rule adaptive-share: member i's weight is 2^-slow[i] (share.c) */
    unsigned char slow[MEMBERS];
};

struct work {
    /* greedy incumbents (optimal.c) */
    unsigned char *greedy;
    size_t greedy_bytes;
    uint64_t *tmp_off;    /* n, by global id: one greedy planner's offsets */
    /* the problem's parts (parts.c) */
    uint32_t *ids;        /* m: global ids of the tensors with bytes, by (first, id) */
    uint32_t *tmp;        /* m: arena_order_sort's buffer for ids */
    uint32_t *part_start; /* parts + 1: part q is ids[part_start[q] .. part_start[q+1]) */
    uint64_t *part_lb;    /* parts: max-live bytes of each part */
    uint32_t *part_order; /* parts: the order they are solved in */
    struct part_state *part_state; /* parts: where each part's rounds stand */
    /* the current part, by position k */
    uint64_t *size;                  /* bytes */
    uint32_t *first, *last;          /* lifetime, steps */
    uint32_t *s0, *s1;               /* its sections [s0, s1) */
    uint32_t *fwd_end;               /* conflicting positions after k: k+1 .. fwd_end-1 */
    uint32_t *rank;                  /* preorder rank: breaks ties between equal offsets */
    uint64_t *off;                   /* offset, or UNPLACED */
    uint64_t *lo;                    /* unplaced k: the lowest offset the placed tensors
                                        leave it (canonical: the highest end of those it
                                        conflicts with; lowest gap and filler: the
                                        highest top of its sections) */
    uint32_t *ord;                   /* every position, by lo (sort_by_lo) */
    uint32_t *twin;                  /* positions grouped by (first, last, size) */
    uint32_t *twin_at, *twin_end;    /* k's group of twins in twin[] */
    uint32_t *same_at, *same_end;    /* k's lifetime's run in twin[] */
    struct frame *frames;            /* depth: the placements of the current path */
    /* the canonical search's decomposition (parts.c) */
    struct split *splits;            /* m: nested splits (each strictly smaller) */
    struct group *groups;            /* 2m + 1: their groups (and one being built) */
    uint32_t *rank_save;             /* a stack of the ranks of split scopes whose groups
                                        were ranked afresh, rank_save_cap entries */
    size_t rank_save_cap;
    /* the current part, by section x (at most 2m - 1 sections; bound has one more) */
    uint64_t *bound;                 /* 2m: section x is steps [bound[x], bound[x+1]) */
    uint64_t *rem;                   /* 2m: bytes of the unplaced tensors spanning x: the
                                        loads after part_load and part_reset; only the
                                        canonical search places through place(), so the
                                        other searches leave it at the loads */
    uint64_t *top;                   /* 2m: highest end of the tensors placed over x
                                        (lowest gap, filler) */
    uint64_t *acc;                   /* 2m: section inference: bytes released at or above
                                        the level being looked at */
    uint32_t *cover;                 /* 2m: lowest gap: tensors that may cover top[x] */
    /* the radix sort (order.h): keys in key (= sort.key), values in idx */
    struct arena_radix sort;         /* 2m pairs */
    uint64_t *key;                   /* 2m */
    uint32_t *idx;                   /* 2m */
    /* the canonical search's undo log of lo changes */
    uint32_t *log_idx;
    uint64_t *log_old;
    uint64_t log_cap;                /* LOG_PER_TENSOR m + LOG_BASE entries, or one per
                                        pair + 1 if fewer (a pair logs at most once per
                                        path; beyond the cap, recompute) */
    /* the filler search (filler.c) */
    uint32_t *multi;                 /* m: the part's multi-section tensors */
    uint32_t *multi_ord;             /* m: filler_fits: the multi-section tensors, by lo */
    uint64_t *lift_at;               /* m: where multi k would go now (UINT64_MAX: nowhere) */
    uint64_t *single_bytes;          /* 2m: per section, bytes of its singles */
    uint64_t *hole_bytes;            /* 2m: per section, bytes of the holes under top */
    uint64_t *fb_unit, *fb_base;     /* 2m each: per section, its singles' gcd; its bits */
    uint64_t *fbits;                 /* fbits_cap: subset sums of each section's singles */
    size_t fbits_cap;                /* the problem's bytes / 64 + 4m + 1, at most
                                        FILLER_WORDS (filler_words()) */
    uint64_t *hole, *hole_at;        /* m each: one section's holes: room left, next free byte */
    uint32_t *single;                /* m: one section's singles, largest first */
    uint32_t *single_hole;           /* m: the hole each of them goes in */
    /* the repair search (repair.c) */
    unsigned char *fixed;            /* m: 1 for a tensor kept where the plan repaired
                                        put it (placed, never taken back); 0 outside
                                        repair_search (part_reset clears it) */
    unsigned char *freed;            /* m: repair: in the neighbourhood being searched */
};

struct run {
    const struct arena_problem *p;
    const struct arena_plan_options *opt;
    struct work *w;
    uint64_t align;
    uint64_t nodes;
    struct timespec start;
    uint64_t work;       /* units of work spent (optimal_spend_work) */
    uint64_t clock_at;   /* work at which the clock is read next */
    uint64_t node_cost;  /* units one node of the current part costs at most:
                            m + the sections its tensors span */
    int stopped; /* a global budget ran out */
    /* current part */
    size_t m, S;
    uint64_t step;        /* gcd of the part's sizes (a multiple of the alignment): the
                             offsets and arena of every gravity plan, hence
                             the part's optimum, are multiples of it */
    const uint32_t *pid;  /* global ids of the part's tensors */
    uint64_t part_arena;  /* the part's best plan so far (in plan->offsets) */
    uint32_t ngroups;     /* groups on the stack */
    /* canonical_descend's depth-bounded discrepancies (disc_depth 0: off,
       every level counts): only nodes of depth < disc_depth count
       discrepancies against the limit; each subtree rooted at depth
       disc_depth is searched depth first within disc_below nodes, then cut
       (set by discrepancy_search only) */
    uint32_t disc_depth;
    uint64_t disc_below;
    /* the canonical search's preorder; own_times: it is one over the
       file's own lifetime lengths (own_times()), so the stack rule is off;
       rerank: each group is ranked afresh (ranks_groups(), rerank_group) */
    unsigned rank_h;
    int own_times;
    int rerank;
    size_t save_top; /* rank_save entries in use */
    /* the SAT engine's phases (rule sat-phases): the best greedy plan's
       offsets (p->n; malloc'd by optimal_plan), or NULL: the part's best
       plan */
    uint64_t *phase_offsets;
    /* the lcg engine's explanations, also to this (tests; NULL: none) */
    arena_optimal_lemma_fn *lemma_hook;
    void *lemma_ctx;
    uint64_t lcg_memory_mb; /* the lcg engine's cap on Z3's memory (MiB) */
    /* the portfolio: the running member's (SAT or lcg) round ends when the
       thread's CPU clock reaches member_until (0: no such end); its solver
       is then told to stop, as by a budget, but r->stopped stays 0 */
    double member_until;
    uint64_t member_polls;
    int member_over;
    /* with a node limit (no clock): the member's round ends at the
       member_calls-th call of arena_optimal_out_of_time instead (0: no
       such end; the lcg engine calls it every 256 of its hook calls) */
    uint64_t member_calls;
    unsigned engine; /* key engine: ARENA_OPTIMAL_ENGINE_* */
    uint32_t off;    /* key off: the ARENA_OPTIMAL_* bits of the rules off */
};

/* Rule `bit` (ARENA_OPTIMAL_*) is on in this run (not in key off). */
static inline int rule_on(const struct run *r, uint32_t bit)
{
    return (r->off & bit) == 0;
}

/* FOUND: a plan within cap; EXHAUSTED: none exists (a proof); LIMITED: a
 * budget ran out; CUT: the canonical search ran out of children within a
 * discrepancy limit that cut some (no proof: it pruned). */
enum outcome { FOUND, EXHAUSTED, LIMITED, CUT };

/* canonical_search's discrepancy limit for the whole tree (plain DFS). */
#define DISC_ANY UINT32_MAX

static inline uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* (lo, rank) comes strictly after threshold t. */
static inline int key_after(uint64_t lo, uint32_t rank, const struct key *t)
{
    if (t->rank == NONE)
        return 1;
    return lo > t->lo || (lo == t->lo && rank > t->rank);
}

/* k's lifetime lies in one section (a "single"). */
static inline int is_single(const struct work *w, uint32_t k)
{
    return w->s1[k] - w->s0[k] == 1;
}

/* The highest of top[] over k's sections. */
static inline uint64_t span_floor(const struct work *w, const uint64_t *top, uint32_t k)
{
    uint64_t f = 0;
    for (uint32_t s = w->s0[k]; s < w->s1[k]; s++)
        if (top[s] > f)
            f = top[s];
    return f;
}

/* budget.c: reads opt->stop and the clock (the SAT engine's terminate
 * callback); nonzero, and r->stopped set, when either says stop; nonzero
 * too, r->stopped left 0, when the portfolio's member has had its share
 * of CPU (arena_optimal_member_share). */
int arena_optimal_out_of_time(struct run *r);
/* share.c (rule adaptive-share): member m's round on the part made
 * progress (a better plan, a raised bound, a proof) or not: its weight
 * doubles, or halves, between 2^-SHARE_FLOOR and 1. */
void arena_optimal_share_note(struct part_state *st, enum member m, int progress);
/* share.c: member m's round, as a multiple of the search's round just
 * run (its weight over the search's: 2^-SHARE_FLOOR .. 2^SHARE_FLOOR). */
double arena_optimal_share_ratio(const struct part_state *st, enum member m);
/* share.c: with a node limit, the SAT member's conflicts for a search
 * round of `nodes` nodes (at least 1): the ratio above, a conflict counted
 * as PORTFOLIO_NODES_PER_CONFLICT nodes. */
uint64_t arena_optimal_share_conflicts(const struct part_state *st, uint64_t nodes);
/* share.c: with a node limit, the lcg member's calls of
 * arena_optimal_out_of_time for its share (LCG_HOOKS_PER_NODE hook calls
 * a node, one call every LCG_POLL_HOOKS; at least 1). */
uint64_t arena_optimal_share_calls(const struct part_state *st, uint64_t nodes);
/* budget.c: this thread's CPU time, seconds. */
double arena_optimal_cpu_seconds(void);
/* budget.c: the portfolio's next member round may take cpu_seconds of
 * this thread's CPU from now (0: no end of its own). */
void arena_optimal_member_share(struct run *r, double cpu_seconds);
/* budget.c: with a node limit, the next member round ends at its
 * calls-th call of arena_optimal_out_of_time (no clock read). */
void arena_optimal_member_calls(struct run *r, uint64_t calls);
/* The same, the time limit ending `margin` seconds early: for work that
 * cannot be stopped once begun (the SAT engine's: its solver collects its
 * clauses without asking). */
int arena_optimal_out_of_time_by(struct run *r, double margin);
/* budget.c: seconds left of the time limit (at most 0 once passed), or
 * -1 without one. */
double arena_optimal_seconds_left(const struct run *r);
/* budget.c: of `want` conflicts, those the node limit leaves (the
 * engines count conflicts as nodes); 0, and r->stopped set, when it has
 * run out. */
uint64_t arena_optimal_conflicts_left(struct run *r, uint64_t want);
/* budget.c: counts an engine's conflicts as nodes; r->stopped once the
 * node limit is reached. */
void arena_optimal_spend_conflicts(struct run *r, uint64_t conflicts);
/* budget.c: counts one node; nonzero when a global budget has run out. */
int arena_optimal_spend_node(struct run *r);
/* budget.c: counts units of work (no node); reads opt->stop every call and
 * the clock every CLOCK_WORK units; nonzero when a global budget has run out. */
int arena_optimal_spend_work(struct run *r, uint64_t units);

/* parts.c: parts, their loading and the canonical search's decomposition */
size_t arena_optimal_parts_split(struct run *r);
uint64_t arena_optimal_part_load(struct run *r, size_t a, size_t b);
void arena_optimal_part_reset(struct run *r);
void arena_optimal_rank_by(struct run *r, unsigned h, unsigned round);
void arena_optimal_sort_by(struct work *w, size_t m);
uint64_t arena_optimal_gcd_u64(uint64_t a, uint64_t b);
int arena_optimal_zero_slack(const struct run *r, uint64_t cap);
uint32_t arena_optimal_split_scope(struct run *r, const struct group *g);
int arena_optimal_own_times(const struct run *r, unsigned h);
int arena_optimal_ranks_groups(const struct run *r, unsigned h);
void arena_optimal_rerank_group(struct run *r, const struct group *g);
/* rank_save entries per tensor: a split whose scope finds the stack full
 * keeps the preorder's ranks (the search stays complete) */
#define RANK_SAVE_PER_TENSOR 8u
enum outcome arena_optimal_keep_plan(struct run *r, struct arena_plan *plan);
/* The offsets in w->off of the loaded part are a plan within cap: every
 * tensor below it, every pair whose lifetimes meet apart (the engines'
 * decoded models are checked so before keep_plan). */
int arena_optimal_part_fits(const struct run *r, uint64_t cap);

/* inference.c: section inference, dominance, symmetry */
void arena_optimal_sort_by_lo(struct work *w, size_t m);
int arena_optimal_release_fits(struct work *w, uint32_t k, uint64_t v, uint64_t cap);
int arena_optimal_sections_fit(struct run *r, const struct group *g, const struct key *thr,
                               uint64_t cap);
int arena_optimal_filler_fits(struct run *r, size_t multis, const struct key *thr, uint64_t cap);
int arena_optimal_gap_sections_fit(struct run *r, uint64_t cap);
uint64_t arena_optimal_busiest_section(const struct run *r, const struct group *g, uint32_t *at);
uint64_t arena_optimal_dominance_height(const struct run *r, const struct group *g);
uint64_t arena_optimal_filler_dominance_height(const struct run *r, size_t multis);
int arena_optimal_twin_forbids(const struct run *r, uint32_t k);
int arena_optimal_stack_forbids(const struct run *r, uint32_t k, uint64_t lo);

/* the searches: decision runs at cap over the current part */
enum outcome arena_optimal_canonical_search(struct run *r, uint64_t cap, unsigned h, unsigned round,
                                            uint64_t budget, uint32_t disc_limit,
                                            struct arena_plan *plan);
enum outcome arena_optimal_discrepancy_search(struct run *r, uint64_t cap, unsigned h,
                                              unsigned round, uint64_t budget,
                                              struct arena_plan *plan);
enum outcome arena_optimal_canonical_descend(struct run *r, uint64_t cap, uint64_t budget,
                                             uint32_t disc_limit, struct arena_plan *plan);
/* repair.c: large-neighbourhood search from the part's best plan (finds
 * plans, proves nothing: never EXHAUSTED) */
enum outcome arena_optimal_repair_search(struct run *r, uint64_t cap, unsigned round,
                                         uint64_t budget, struct arena_plan *plan);
enum outcome arena_optimal_lowest_gap_search(struct run *r, uint64_t cap, unsigned h,
                                             unsigned round, uint64_t budget, uint32_t disc_limit,
                                             struct arena_plan *plan);
enum outcome arena_optimal_filler_search(struct run *r, uint64_t cap, unsigned h, unsigned round,
                                         uint64_t budget, struct arena_plan *plan);

#endif
