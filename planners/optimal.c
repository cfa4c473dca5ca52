/* optimal.c — exact, anytime planner: minimises the arena over all valid
 * offset plans and proves it, or returns the best plan found and a proven
 * lower bound when a budget stops it. Ideas from MiniMalloc (Moffitt,
 * ASPLOS '23: canonical solutions, section inference, dominance); the code
 * is ours.
 *
 * - Incumbent: the best of greedy-by-size, greedy-by-size-firstfit and
 *   greedy-by-breadth (their own tables, in a share of our scratch), so the
 *   answer is never worse than any of them.
 * - Independent parts: tensors with bytes, ordered by first step, split where
 *   no lifetime spans the boundary; each part is solved alone and the arena
 *   is the largest part's. Parts go in decreasing max-live order, and none is
 *   pushed below the bound already proven for the whole problem.
 * - Canonical search: some optimal plan is "gravity" (each tensor at 0 or on
 *   top of a tensor it conflicts with); sorted by (offset, preorder rank), each
 *   of its tensors sits, when its turn comes, at lo = the highest end of the
 *   already placed tensors it conflicts with. So the search places tensors in
 *   strictly increasing (lo, rank) order, each at its lo — depth-first, one
 *   tensor per level, with an explicit stack (never recursion).
 * - Dominance: a tensor is not placed at or above min(lo_j + size_j) over the
 *   unplaced j: j would fit in the gap below, untouched, at its own lo.
 * - Section inference: between consecutive lifetime boundaries (a section),
 *   the unplaced tensors form a one-machine schedule with release times
 *   (none below its lo or the current offset; one the threshold has passed
 *   not below the current offset + the smallest size left); its least
 *   makespan, max over v of v + the bytes released at v or later, must fit
 *   the capacity. Children that would leave the busiest section over it are
 *   skipped unplaced.
 * - Dynamic decomposition: when the unplaced tensors of the scope fall apart
 *   into groups no lifetime joins, the groups are solved one after another;
 *   a group without a completion fails the node that split.
 * - Symmetry: identical tensors go in rank order; tensors of one lifetime
 *   resting right on one another go largest below (some plan of least
 *   sum of size^2 x offset does so, and no tensor of it can drop).
 * - Preorders (ties among equal lo): a portfolio of eight, tried in turn.
 * - Parts without slack (every section carries exactly the capacity, as in
 *   perfect-packing boxes): first, each round, a search that fills the
 *   lowest empty byte first, branching over which tensor has its bottom
 *   there, in the lowest section with the fewest such tensors (fail first),
 *   with its own section inference; an eighth of the round's budget. Then
 *   up to four filler searches (a round's budget each, four preorders):
 *   only the tensors spanning several sections are placed, and each
 *   section's single-section tensors are packed into the holes they leave
 *   (finds plans, proves nothing).
 * - Decision runs at capacity C (the proven bound first: a plan there is
 *   optimal) and branch and bound from the incumbent (C = best - alignment,
 *   lowered at every plan found), alternating with doubling node budgets; a
 *   decision run that exhausts the tree proves the bound one alignment step
 *   higher, a branch and bound that does proves its best plan optimal.
 *   Every search starts afresh (no state kept between runs).
 * - Budgets: node_limit counts placements (deterministic: same problem, same
 *   plan, bound and nodes); time_limit reads CLOCK_MONOTONIC every 256 nodes;
 *   opt->stop (a caller's signal flag) is read at every node.
 * - Decision mode (capacity > 0): only decision runs at the capacity:
 *   FEASIBLE (a plan within it), INFEASIBLE (proven: at once when max-live
 *   exceeds it), LIMIT (unknown); offsets always hold the best plan found.
 *
 * Scratch: the greedy planners' share, then O(n) arrays and an undo log of
 * one entry per conflicting pair (counted in O(n^2) when sizing). Problems
 * beyond OPTIMAL_SEARCH_MAX tensors with bytes get the greedy incumbent and
 * status LIMIT. */
#include <string.h>
#include <time.h>

#include "planners/greedy_common.h"
#include "planners/layout.h"
#include "planners/order.h"
#include "planners/tables.h"

/* Above this many tensors with bytes, no search (and no O(n^2) pair count). */
#define OPTIMAL_SEARCH_MAX 8192u
#define UNPLACED UINT64_MAX
#define NONE UINT32_MAX
#define CLOCK_EVERY 256u
/* The filler search's subset-sum bits (512 KiB): a part needing more skips it. */
#define FILLER_WORDS ((size_t)1 << 16)
/* Tries per leaf of the filler search when packing singles into holes. */
#define FILLER_STEPS 100000u
/* Alignment steps the filler search lifts a tensor at most. */
#define FILLER_LIFT 16u
/* Filler searches per round, each with its own preorder. */
#define FILLER_TRIES 4u

/* One level of the search: the tensor placed there and where its undo log
 * starts. */
struct frame {
    uint64_t log_start;
    uint32_t pick;
};

/* A threshold on (lo, rank): children must come strictly after it. */
struct key {
    uint64_t lo;
    uint32_t rank; /* NONE with lo 0: the root, everything comes after */
};

/* A scope of the search: positions [ka, kb), sections [sa, sb). */
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
};

struct work {
    /* greedy incumbents */
    unsigned char *greedy;
    size_t greedy_bytes;
    uint64_t *tmp_off; /* n */
    /* problem order */
    uint32_t *ids;  /* n: tensors with bytes, by (first, id) */
    uint32_t *tmp;  /* n */
    uint32_t *part_start; /* m + 1: part p is ids[part_start[p] .. part_start[p+1]) */
    uint64_t *part_lb;    /* m: max-live of each part */
    uint32_t *part_order; /* m */
    /* one part, local index k = position in the part */
    uint64_t *size, *lo, *off;       /* m each */
    uint32_t *first, *last;          /* m each */
    uint32_t *s0, *s1;               /* m each: sections [s0, s1) */
    uint32_t *rank;                  /* m: preorder rank */
    uint32_t *fwd_end;               /* m: forward neighbours k+1 .. fwd_end-1 */
    uint32_t *ord;                   /* m: every position, by lo (kept sorted) */
    uint32_t *twin;                  /* m: positions grouped by (first, last, size) */
    uint32_t *twin_at;               /* m: where k's group starts in twin */
    uint32_t *twin_end;              /* m: where it ends */
    uint32_t *same_at, *same_end;    /* m each: k's lifetime's run in twin */
    struct frame *frames;            /* m */
    struct split *splits;            /* m: nested splits (each strictly smaller) */
    struct group *groups;            /* 2m + 1: their groups (and one being built) */
    /* sections (at most 2m per part) */
    uint64_t *bound;                 /* 2m: section start steps */
    uint64_t *rem;                   /* 2m: bytes still to place */
    uint64_t *acc;                /* 2m: bytes released at or above a level */
    /* the radix sort (order.h): key is sort.key */
    struct arena_radix sort;         /* 2m pairs */
    uint64_t *key;                   /* 2m */
    uint32_t *idx;                   /* 2m */
    /* undo log of lo changes */
    uint32_t *log_idx;
    uint64_t *log_old;
    uint64_t log_cap;
    /* the filler search (perfect packings with single-section tensors) */
    uint32_t *multi;                 /* m: the part's multi-section tensors */
    uint64_t *fb_unit, *fb_base;     /* 2m each: per section, its singles' gcd and bits */
    uint64_t *fb_acc;                /* 2m: per section, bytes released at or above a level */
    uint64_t *fbits;                 /* FILLER_WORDS: subset sums of each section's singles */
};

struct run {
    const struct arena_problem *p;
    const struct arena_plan_options *opt;
    struct work *w;
    uint64_t align;
    uint64_t nodes;
    struct timespec start;
    int stopped; /* a global budget ran out */
    /* current part */
    size_t m, S;
    const uint32_t *pid; /* global ids of the part's tensors */
    uint64_t part_arena;
    uint32_t ngroups; /* groups on the stack */
};

static size_t greedy_share(const struct arena_problem *p, int *rc)
{
    const struct arena_planner *g[] = {&arena_planner_greedy_size,
                                       &arena_planner_greedy_size_firstfit,
                                       &arena_planner_greedy_breadth};
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

static size_t count_bytes_tensors(const struct arena_problem *p)
{
    size_t m = 0;
    for (size_t i = 0; i < p->n; i++)
        m += p->tensors[i].size > 0;
    return m;
}

/* Conflicting pairs among tensors with bytes: the undo log's capacity (an
 * unordered pair logs at most once along a path: when the first of the two
 * is placed, if the other is not yet). O(m^2), m <= OPTIMAL_SEARCH_MAX. */
static uint64_t count_pairs(const struct arena_problem *p)
{
    uint64_t pairs = 0;
    const struct arena_tensor *t = p->tensors;
    for (size_t i = 0; i < p->n; i++) {
        if (t[i].size == 0)
            continue;
        for (size_t j = i + 1; j < p->n; j++)
            pairs += t[j].size != 0 && t[i].first <= t[j].last && t[j].first <= t[i].last;
    }
    return pairs;
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
    int search = m > 0 && m <= OPTIMAL_SEARCH_MAX;
    uint64_t pairs = search ? count_pairs(p) : 0;
    if (pairs > SIZE_MAX / 16)
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
        w->size = arena_layout_take(l, m, sizeof *w->size);
        w->lo = arena_layout_take(l, m, sizeof *w->lo);
        w->off = arena_layout_take(l, m, sizeof *w->off);
        w->first = arena_layout_take(l, m, sizeof *w->first);
        w->last = arena_layout_take(l, m, sizeof *w->last);
        w->s0 = arena_layout_take(l, m, sizeof *w->s0);
        w->s1 = arena_layout_take(l, m, sizeof *w->s1);
        w->rank = arena_layout_take(l, m, sizeof *w->rank);
        w->fwd_end = arena_layout_take(l, m, sizeof *w->fwd_end);
        w->ord = arena_layout_take(l, m, sizeof *w->ord);
        w->twin = arena_layout_take(l, m, sizeof *w->twin);
        w->twin_at = arena_layout_take(l, m, sizeof *w->twin_at);
        w->twin_end = arena_layout_take(l, m, sizeof *w->twin_end);
        w->same_at = arena_layout_take(l, m, sizeof *w->same_at);
        w->same_end = arena_layout_take(l, m, sizeof *w->same_end);
        w->frames = arena_layout_take(l, m, sizeof *w->frames);
        w->splits = arena_layout_take(l, m, sizeof *w->splits);
        w->groups = arena_layout_take(l, 2 * m + 1, sizeof *w->groups);
        w->bound = arena_layout_take(l, 2 * m, sizeof *w->bound);
        w->rem = arena_layout_take(l, 2 * m, sizeof *w->rem);
        w->acc = arena_layout_take(l, 2 * m, sizeof *w->acc);
        arena_radix_take(&w->sort, l, 2 * m);
        w->key = w->sort.key;
        w->idx = arena_layout_take(l, 2 * m, sizeof *w->idx);
        w->log_idx = arena_layout_take(l, (size_t)pairs, sizeof *w->log_idx);
        w->log_old = arena_layout_take(l, (size_t)pairs, sizeof *w->log_old);
        w->log_cap = pairs;
        w->multi = arena_layout_take(l, m, sizeof *w->multi);
        w->fb_unit = arena_layout_take(l, 2 * m, sizeof *w->fb_unit);
        w->fb_base = arena_layout_take(l, 2 * m, sizeof *w->fb_base);
        w->fb_acc = arena_layout_take(l, 2 * m, sizeof *w->fb_acc);
        w->fbits = arena_layout_take(l, FILLER_WORDS, sizeof *w->fbits);
    }
    return ARENA_OK;
}

static int optimal_scratch(const struct arena_problem *p, size_t *bytes)
{
    struct work w;
    return arena_layout_count(layout, p, &w, bytes);
}

/* ---- budgets ---- */

static double elapsed(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* Counts one node; nonzero when a global budget has run out. */
static int spend_node(struct run *r)
{
    if (r->stopped)
        return 1;
    if (r->opt->node_limit != 0 && r->nodes >= r->opt->node_limit) {
        r->stopped = 1;
        return 1;
    }
    r->nodes++;
    if ((r->opt->stop != NULL && *r->opt->stop != 0) ||
        (r->opt->time_limit > 0 && r->nodes % CLOCK_EVERY == 0 &&
         elapsed(&r->start) >= r->opt->time_limit)) {
        r->stopped = 1;
        return 1;
    }
    return 0;
}

/* ---- incumbent ---- */

static int best_greedy(const struct arena_problem *p, struct work *w, struct arena_plan *plan)
{
    const struct arena_planner *g[] = {&arena_planner_greedy_size,
                                       &arena_planner_greedy_size_firstfit,
                                       &arena_planner_greedy_breadth};
    struct arena_plan t = {.n = p->n, .offsets = w->tmp_off};
    int have = 0;
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        arena_plan_reset(&t);
        int rc = g[i]->plan(p, &arena_plan_options_default, w->greedy, w->greedy_bytes, &t);
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

/* ---- one part ---- */

/* The first index of b[0..S) (ascending, S > 0) whose value is >= x. */
static uint32_t lower_index(const uint64_t *b, size_t S, uint64_t x)
{
    return x == 0 || b[0] >= x ? 0 : (uint32_t)(arena_floor_index(b, S, x - 1) + 1);
}

/* Sorts idx[0..m) by key ascending, stably (key is consumed). */
static void sort_by(struct work *w, size_t m)
{
    arena_radix_sort(&w->sort, w->idx, m);
}

/* Loads part ids[a..b) into the local arrays: sections, neighbours, ranks;
 * returns its max-live bytes. */
static uint64_t part_load(struct run *r, size_t a, size_t b)
{
    struct work *w = r->w;
    const struct arena_tensor *t = r->p->tensors;
    size_t m = b - a;
    r->m = m;
    r->pid = w->ids + a;
    for (size_t k = 0; k < m; k++) {
        const struct arena_tensor *x = &t[r->pid[k]];
        w->size[k] = x->size;
        w->first[k] = x->first;
        w->last[k] = x->last;
        w->key[2 * k] = x->first;
        w->key[2 * k + 1] = (uint64_t)x->last + 1;
        w->idx[2 * k] = w->idx[2 * k + 1] = 0;
    }
    sort_by(w, 2 * m);
    size_t S = 0;
    for (size_t i = 0; i < 2 * m; i++)
        if (S == 0 || w->bound[S - 1] != w->key[i])
            w->bound[S++] = w->key[i];
    /* S counts boundaries; sections are [bound[s], bound[s+1]), S - 1 of them */
    S--;
    r->S = S;
    memset(w->rem, 0, (S + 1) * sizeof *w->rem);
    for (size_t k = 0; k < m; k++) {
        w->s0[k] = lower_index(w->bound, S + 1, w->first[k]);
        w->s1[k] = lower_index(w->bound, S + 1, (uint64_t)w->last[k] + 1);
        w->rem[w->s0[k]] += w->size[k];
        w->rem[w->s1[k]] -= w->size[k]; /* modular: the prefix sums come out right */
    }
    uint64_t run = 0, lb = 0;
    for (size_t s = 0; s < S; s++) {
        run += w->rem[s];
        w->rem[s] = run;
        if (run > lb)
            lb = run;
    }
    /* forward neighbours: ordered by first, so those after k that start by
     * k's last step are one run */
    for (size_t k = 0; k < m; k++) {
        size_t f = k + 1;
        while (f < m && w->first[f] <= w->last[k])
            f++;
        w->fwd_end[k] = (uint32_t)f;
    }
    /* twins: the same size and lifetime, grouped by size then lifetime */
    for (size_t k = 0; k < m; k++) {
        w->key[k] = w->size[k];
        w->idx[k] = (uint32_t)k;
    }
    sort_by(w, m);
    for (size_t i = 0; i < m; i++)
        w->key[i] = (uint64_t)w->first[w->idx[i]] << 32 | w->last[w->idx[i]];
    sort_by(w, m);
    for (size_t i = 0; i < m;) {
        size_t j = i;
        while (j < m && w->key[j] == w->key[i])
            j++;
        for (size_t x = i; x < j; x++) {
            w->same_at[w->idx[x]] = (uint32_t)i;
            w->same_end[w->idx[x]] = (uint32_t)j;
        }
        i = j;
    }
    for (size_t i = 0; i < m;) {
        size_t j = i;
        while (j < m && w->key[j] == w->key[i] && w->size[w->idx[j]] == w->size[w->idx[i]])
            j++;
        for (size_t x = i; x < j; x++) {
            w->twin[x] = w->idx[x];
            w->twin_at[w->idx[x]] = (uint32_t)i;
            w->twin_end[w->idx[x]] = (uint32_t)j;
        }
        i = j;
    }
    return lb;
}

/* Preorders (the rank that breaks ties between equal lo): a portfolio, as
 * MiniMalloc's round robin over its heuristics. Sorted descending by
 *   0: area (size x steps), 1: size, 2: most loaded section spanned, then
 *   sections spanned, then size (MiniMalloc's TWS), 3: sections spanned,
 *   then size;
 * ties by position (first step, id), or for h >= HEURISTICS/2 by a hash of
 * (seed, h, position): the same seed gives the same ranks. rem must hold the
 * section loads. */
#define HEURISTICS 8u

static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static void rank_by(struct run *r, unsigned h, unsigned round)
{
    struct work *w = r->w;
    size_t m = r->m;
    unsigned base = h % 4;
    for (size_t k = 0; k < m; k++) {
        w->key[k] = h < 4 ? k : mix(r->opt->seed * 0x9e3779b97f4a7c15ull + h * 0x100000001b3ull +
                                         (uint64_t)round * 0xd6e8feb86659fd93ull + k);
        w->idx[k] = (uint32_t)k;
    }
    sort_by(w, m);
    for (size_t i = 0; i < m; i++)
        w->key[i] = ~w->size[w->idx[i]];
    if (base != 0)
        sort_by(w, m);
    if (base >= 2) {
        for (size_t i = 0; i < m; i++)
            w->key[i] = ~(uint64_t)(w->s1[w->idx[i]] - w->s0[w->idx[i]]);
        sort_by(w, m);
    }
    if (base == 2) {
        for (size_t i = 0; i < m; i++) {
            uint32_t k = w->idx[i];
            uint64_t most = 0;
            for (uint32_t s = w->s0[k]; s < w->s1[k]; s++)
                if (w->rem[s] > most)
                    most = w->rem[s];
            w->key[i] = ~most;
        }
        sort_by(w, m);
    }
    if (base == 0) {
        for (size_t i = 0; i < m; i++) {
            uint32_t k = w->idx[i];
            uint64_t steps = (uint64_t)w->last[k] - w->first[k] + 1;
            /* saturating: area only orders */
            w->key[i] = ~(w->size[k] > UINT64_MAX / steps ? UINT64_MAX : w->size[k] * steps);
        }
        sort_by(w, m);
    }
    for (size_t i = 0; i < m; i++)
        w->rank[w->idx[i]] = (uint32_t)i;
}

/* Back to the root: nothing placed, rem the section loads. */
static void part_reset(struct run *r)
{
    struct work *w = r->w;
    size_t m = r->m, S = r->S;
    memset(w->rem, 0, S * sizeof *w->rem);
    for (size_t k = 0; k < m; k++) {
        w->lo[k] = 0;
        w->off[k] = UNPLACED;
        w->ord[k] = (uint32_t)k;
        for (uint32_t s = w->s0[k]; s < w->s1[k]; s++)
            w->rem[s] += w->size[k];
    }
}

static void place(struct run *r, uint32_t c, uint64_t *log_top)
{
    struct work *w = r->w;
    uint64_t top = w->lo[c] + w->size[c];
    w->off[c] = w->lo[c];
    for (uint32_t s = w->s0[c]; s < w->s1[c]; s++)
        w->rem[s] -= w->size[c];
    for (uint32_t k = c + 1; k < w->fwd_end[c]; k++)
        if (w->off[k] == UNPLACED && w->lo[k] < top) {
            w->log_idx[*log_top] = k;
            w->log_old[*log_top] = w->lo[k];
            ++*log_top;
            w->lo[k] = top;
        }
    for (uint32_t k = c; k-- > 0;)
        if (w->last[k] >= w->first[c] && w->off[k] == UNPLACED && w->lo[k] < top) {
            w->log_idx[*log_top] = k;
            w->log_old[*log_top] = w->lo[k];
            ++*log_top;
            w->lo[k] = top;
        }
}

static void unplace(struct run *r, uint32_t c, uint64_t log_start, uint64_t *log_top)
{
    struct work *w = r->w;
    while (*log_top > log_start) {
        --*log_top;
        w->lo[w->log_idx[*log_top]] = w->log_old[*log_top];
    }
    for (uint32_t s = w->s0[c]; s < w->s1[c]; s++)
        w->rem[s] += w->size[c];
    w->off[c] = UNPLACED;
}

/* Keeps w->ord (every position) sorted by lo: insertion sort, as the order
 * barely changes from one node to the next. */
static void sort_by_lo(struct work *w, size_t m)
{
    uint32_t *ord = w->ord;
    for (size_t i = 1; i < m; i++) {
        uint32_t x = ord[i];
        uint64_t v = w->lo[x];
        size_t j = i;
        for (; j > 0 && w->lo[ord[j - 1]] > v; j--)
            ord[j] = ord[j - 1];
        ord[j] = x;
    }
}

/* Section inference after a placement at offset cur inside scope g: in
 * each of g's sections the unplaced tensors form a one-machine schedule with
 * release times (a tensor cannot go below its lo, nor below cur), whose
 * least makespan is the largest over v of v + the bytes released at v or
 * later; it must fit cap. Taking the tensors by release, latest first, and
 * adding each to the sections it spans gives every term. Sections outside g
 * cannot change. */
static int release_fits(struct work *w, uint32_t k, uint64_t v, uint64_t cap)
{
    if (v > cap)
        return 0;
    uint64_t room = cap - v;
    uint64_t *acc = w->acc;
    for (uint32_t s = w->s0[k]; s < w->s1[k]; s++) {
        acc[s] += w->size[k];
        if (acc[s] > room)
            return 0;
    }
    return 1;
}

static int sections_fit(struct run *r, const struct group *g, const struct key *thr, uint64_t cap)
{
    struct work *w = r->w;
    size_t m = r->m;
    uint32_t *ord = w->ord;
    uint64_t cur = thr->lo;
    sort_by_lo(w, m);
    /* A tensor the threshold passed (lo below cur, or at cur with a lower
     * rank) can no longer sit at its lo: it will rest on a tensor placed
     * later, at cur or above, so it is released at cur + the smallest size
     * still to place at the earliest. */
    uint64_t smallest = UINT64_MAX;
    for (uint32_t k = g->ka; k < g->kb; k++)
        if (w->off[k] == UNPLACED && w->size[k] < smallest)
            smallest = w->size[k];
    if (smallest == UINT64_MAX)
        return 1;
    uint64_t late = cur > UINT64_MAX - smallest ? UINT64_MAX : cur + smallest;
    for (uint32_t s = g->sa; s < g->sb; s++)
        w->acc[s] = 0;
#define IN_SCOPE(k) ((k) >= g->ka && (k) < g->kb && w->off[k] == UNPLACED)
#define PASSED(k) (w->lo[k] < cur || (w->lo[k] == cur && w->rank[k] <= thr->rank))
    /* latest release first: those above `late`, the passed ones, the rest */
    size_t i = m;
    for (; i > 0 && w->lo[ord[i - 1]] >= late; i--) {
        uint32_t k = ord[i - 1];
        if (IN_SCOPE(k) && !PASSED(k) && !release_fits(w, k, w->lo[k], cap))
            return 0;
    }
    for (size_t j = 0; j < m; j++) {
        uint32_t k = ord[j];
        if (IN_SCOPE(k) && PASSED(k) && !release_fits(w, k, late, cap))
            return 0;
    }
    for (; i > 0; i--) {
        uint32_t k = ord[i - 1];
        if (IN_SCOPE(k) && !PASSED(k) && !release_fits(w, k, w->lo[k], cap))
            return 0;
    }
#undef IN_SCOPE
#undef PASSED
    return 1;
}

static int key_after(uint64_t lo, uint32_t rank, const struct key *t)
{
    if (t->rank == NONE)
        return 1;
    return lo > t->lo || (lo == t->lo && rank > t->rank);
}

/* Identical tensors (same size and lifetime, "twins") are interchangeable:
 * relabelling them in any plan keeps it valid, so some optimal plan puts
 * them in rank order by offset, and the search never places one while a
 * twin of lower rank is still unplaced. */
static int twin_forbids(const struct work *w, uint32_t k)
{
    for (uint32_t i = w->twin_at[k]; i < w->twin_end[k]; i++) {
        uint32_t t = w->twin[i];
        if (t != k && w->off[t] == UNPLACED && w->rank[t] < w->rank[k])
            return 1;
    }
    return 0;
}

/* Tensors of one lifetime stacked right on one another may swap places
 * (their union is the same box). Among the plans within the capacity take
 * one with the least sum over tensors of size^2 x offset: no tensor of it can
 * drop lower (dominance keeps it), and in it no tensor rests right on a
 * smaller one of its lifetime (swapping the two would lower the sum, as
 * big^2 x small > small^2 x big). So k may not sit right on a placed tensor
 * of its lifetime that is smaller. */
static int stack_forbids(const struct work *w, uint32_t k, uint64_t lo)
{
    for (uint32_t i = w->same_at[k]; i < w->same_end[k]; i++) {
        uint32_t t = w->twin[i];
        if (t != k && w->off[t] != UNPLACED && w->off[t] + w->size[t] == lo &&
            w->size[t] < w->size[k])
            return 1;
    }
    return 0;
}

/* The next child to try in scope g: the unplaced tensor with the least
 * (lo, rank) after thr, below the dominance height, fitting cap. NONE if
 * none. */
static uint32_t next_child(struct run *r, const struct group *g, const struct key *thr,
                           uint64_t cap)
{
    struct work *w = r->w;
    uint64_t min_height = UINT64_MAX;
    for (uint32_t k = g->ka; k < g->kb; k++)
        if (w->off[k] == UNPLACED && w->lo[k] + w->size[k] < min_height)
            min_height = w->lo[k] + w->size[k];
    /* The busiest section still to fill: a child placed at lo leaves it
     * lo + its bytes at least unless the child covers it; when that passes
     * cap, sections_fit would refuse the child, so skip it unplaced. */
    uint64_t busiest = 0;
    uint32_t at = g->sa;
    for (uint32_t s = g->sa; s < g->sb; s++)
        if (w->rem[s] > busiest)
            busiest = w->rem[s], at = s;
    uint32_t best = NONE;
    for (uint32_t k = g->ka; k < g->kb; k++) {
        if (w->off[k] != UNPLACED)
            continue;
        uint64_t lo = w->lo[k];
        if (lo >= min_height || lo > cap || w->size[k] > cap - lo)
            continue;
        if (busiest > cap - lo && (at < w->s0[k] || at >= w->s1[k]))
            continue;
        if (!key_after(lo, w->rank[k], thr))
            continue;
        if (twin_forbids(w, k))
            continue;
        if (stack_forbids(w, k, lo))
            continue;
        if (best == NONE || lo < w->lo[best] || (lo == w->lo[best] && w->rank[k] < w->rank[best]))
            best = k;
    }
    return best;
}

/* Splits the unplaced tensors of scope g where no unplaced lifetime spans a
 * section boundary: pushes the groups (in step order) on the group stack and
 * returns how many (0 when g is empty). Ordered by first, a group is a run of
 * positions. */
static uint32_t split_scope(struct run *r, const struct group *g)
{
    struct work *w = r->w;
    uint32_t count = 0, reach = 0;
    struct group *out = w->groups + r->ngroups;
    for (uint32_t k = g->ka; k < g->kb; k++) {
        if (w->off[k] != UNPLACED)
            continue;
        if (count == 0 || w->s0[k] >= reach) {
            if (count > 0)
                out[count - 1].kb = k, out[count - 1].sb = reach;
            out[count].ka = k;
            out[count].sa = w->s0[k];
            count++;
            reach = 0;
        }
        if (w->s1[k] > reach)
            reach = w->s1[k];
    }
    if (count > 0)
        out[count - 1].kb = g->kb, out[count - 1].sb = reach;
    return count;
}

enum outcome { FOUND, EXHAUSTED, LIMITED };

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* A search found a plan of the current part (every tensor placed): writes
 * it into plan->offsets when it improves the part. FOUND. */
static enum outcome keep_plan(struct run *r, struct arena_plan *plan)
{
    const struct work *w = r->w;
    uint64_t arena = 0;
    for (size_t k = 0; k < r->m; k++)
        arena = max_u64(arena, w->off[k] + w->size[k]);
    if (arena < r->part_arena) {
        for (size_t k = 0; k < r->m; k++)
            plan->offsets[r->pid[k]] = w->off[k];
        r->part_arena = arena;
    }
    return FOUND;
}

/* Decision search of the current part: a plan with arena <= cap. Depth-first
 * with an explicit stack; whenever the unplaced tensors of the scope fall
 * apart into independent groups, the groups are solved one after the other
 * and a group that has no completion fails the node where they split (no
 * search of the other groups' choices: they cannot help). FOUND writes the
 * plan into plan->offsets when it improves the part; EXHAUSTED: none exists;
 * LIMITED: budget. */
static enum outcome search(struct run *r, uint64_t cap, unsigned h, unsigned round, uint64_t budget,
                           struct arena_plan *plan)
{
    struct work *w = r->w;
    size_t m = r->m;
    part_reset(r);
    rank_by(r, h, round);
    uint64_t log_top = 0, spent = 0;
    size_t d = 0, nsplit = 0;
    struct key thr = {0, NONE};
    struct group whole = {0, (uint32_t)m, 0, (uint32_t)r->S};
    const struct group *scope = &whole;
    int fresh = 1;
    r->ngroups = 0;
    for (;;) {
        if (fresh) {
            fresh = 0;
            /* a finished scope hands over to the next group, outward */
            for (;;) {
                int empty = 1;
                for (uint32_t k = scope->ka; k < scope->kb && empty; k++)
                    empty = w->off[k] != UNPLACED;
                if (!empty)
                    break;
                if (nsplit == 0)
                    goto solved;
                struct split *sp = &w->splits[nsplit - 1];
                if (sp->active + 1 < sp->ngroups) {
                    sp->active++;
                    sp->group_start = (uint32_t)d;
                    thr = sp->thr;
                    scope = &w->groups[sp->g0 + sp->active];
                    break;
                }
                r->ngroups = sp->g0;
                nsplit--;
                scope = nsplit ? &w->groups[w->splits[nsplit - 1].g0 + w->splits[nsplit - 1].active]
                               : &whole;
            }
            uint32_t ng = split_scope(r, scope);
            if (ng >= 2) {
                struct split *sp = &w->splits[nsplit++];
                sp->d = (uint32_t)d;
                sp->thr = thr;
                sp->g0 = r->ngroups;
                sp->ngroups = ng;
                sp->active = 0;
                sp->group_start = (uint32_t)d;
                r->ngroups += ng;
                scope = &w->groups[sp->g0];
            }
        }
        uint32_t c = next_child(r, scope, &thr, cap);
        if (c == NONE) {
            /* this node has failed: back up one level, or out of a group
             * that failed at its root together with the node that split */
            for (;;) {
                if (nsplit > 0 && d == w->splits[nsplit - 1].group_start) {
                    struct split *sp = &w->splits[nsplit - 1];
                    while (d > sp->d) {
                        d--;
                        unplace(r, w->frames[d].pick, w->frames[d].log_start, &log_top);
                    }
                    r->ngroups = sp->g0;
                    nsplit--;
                    scope = nsplit ? &w->groups[w->splits[nsplit - 1].g0 +
                                                w->splits[nsplit - 1].active]
                                   : &whole;
                    continue;
                }
                if (d == 0)
                    return EXHAUSTED;
                d--;
                uint32_t back = w->frames[d].pick;
                thr.lo = w->off[back];
                thr.rank = w->rank[back];
                unplace(r, back, w->frames[d].log_start, &log_top);
                break;
            }
            continue;
        }
        if (spent >= budget || spend_node(r))
            return LIMITED;
        spent++;
        uint64_t at = w->lo[c];
        w->frames[d].pick = c;
        w->frames[d].log_start = log_top;
        place(r, c, &log_top);
        thr.lo = at;
        thr.rank = w->rank[c];
        if (d + 1 < m && !sections_fit(r, scope, &thr, cap)) {
            unplace(r, c, w->frames[d].log_start, &log_top);
            continue;
        }
        d++;
        fresh = 1;
    }
solved:
    return keep_plan(r, plan);
}

/* ---- perfect packings: lowest gap first ---- */

/* Every section of the part carries exactly cap bytes: a plan within cap
 * leaves no byte of any section empty. */
static int zero_slack(const struct run *r, uint64_t cap)
{
    for (size_t s = 0; s < r->S; s++)
        if (r->w->rem[s] != cap)
            return 0;
    return 1;
}

/* Top of the placed tensors over k's sections (floor is per section). */
static uint64_t span_floor(const struct work *w, const uint64_t *floor, uint32_t k)
{
    uint64_t f = 0;
    for (uint32_t s = w->s0[k]; s < w->s1[k]; s++)
        if (floor[s] > f)
            f = floor[s];
    return f;
}

/* k may have its bottom at x, the lowest empty byte of a lowest section:
 * unplaced, no twin of lower rank still unplaced, every section it spans
 * filled exactly to x, its top within cap, and not resting right on a
 * smaller tensor of its lifetime. */
static int fill_can_cover(const struct work *w, const uint64_t *floor, uint32_t k, uint64_t cap,
                          uint64_t x)
{
    return w->off[k] == UNPLACED && !twin_forbids(w, k) && span_floor(w, floor, k) == x &&
           w->size[k] <= cap - x && !stack_forbids(w, k, x);
}

/* The node's test and its branching section. With no slack, every section s
 * is filled exactly [0, floor[s]) and the byte at floor[s] must be the
 * bottom of a tensor spanning s placed at floor[s]: one whose sections are
 * none above floor[s] (they only rise) and that fits under cap. Returns NONE
 * when some section has no such tensor or some tensor fits nowhere, else
 * the lowest section with the fewest such tensors (the lowest floor: below
 * it every section is full, so its covering tensor sits exactly there).
 * cover (S entries) is scratch. */
static uint32_t fill_pick_section(struct run *r, const uint64_t *floor, uint32_t *cover,
                                  uint64_t cap)
{
    struct work *w = r->w;
    size_t m = r->m, S = r->S;
    memset(cover, 0, S * sizeof *cover);
    for (uint32_t k = 0; k < m; k++) {
        if (w->off[k] != UNPLACED)
            continue;
        uint64_t f = span_floor(w, floor, k);
        if (f > cap || w->size[k] > cap - f)
            return NONE;
        w->lo[k] = f;
        if (twin_forbids(w, k))
            continue;
        for (uint32_t s = w->s0[k]; s < w->s1[k]; s++)
            cover[s] += floor[s] == f;
    }
    /* section inference: the tensors of a section released at v or later
     * (none goes below its lo) fit in [v, cap) */
    uint32_t *ord = w->ord;
    sort_by_lo(w, m);
    memset(w->acc, 0, S * sizeof *w->acc);
    for (size_t i = m; i-- > 0;) {
        uint32_t k = ord[i];
        if (w->off[k] == UNPLACED && !release_fits(w, k, w->lo[k], cap))
            return NONE;
    }
    uint32_t best = NONE;
    for (uint32_t s = 0; s < S; s++) {
        if (floor[s] >= cap)
            continue;
        if (cover[s] == 0)
            return NONE;
        if (best == NONE || floor[s] < floor[best] ||
            (floor[s] == floor[best] && cover[s] < cover[best]))
            best = s;
    }
    return best;
}

/* Decision search for a part without slack at cap (every section carries cap
 * bytes, as in perfect-packing instances): instead of the canonical order,
 * it fills the lowest empty byte of the sections first, branching over which
 * tensor has its bottom there, the section with the fewest candidates first
 * (fail first). Complete: in any plan within cap, every section is full, so
 * the tensor covering the lowest empty byte of a lowest section sits exactly
 * on it. Same outcomes and budget rules as search(). */
static enum outcome fill_search(struct run *r, uint64_t cap, unsigned h, unsigned round,
                                uint64_t budget, struct arena_plan *plan)
{
    struct work *w = r->w;
    size_t m = r->m;
    part_reset(r);
    rank_by(r, h, round);
    uint64_t *floor = w->rem; /* the loads are no longer needed */
    uint32_t *cover = w->idx;
    memset(floor, 0, r->S * sizeof *floor);
    uint64_t spent = 0;
    size_t d = 0;
    uint32_t after = NONE; /* children of the node: rank above this */
    uint32_t s = fill_pick_section(r, floor, cover, cap);
    if (s == NONE)
        return EXHAUSTED;
    for (;;) {
        uint32_t c = NONE;
        for (uint32_t k = 0; k < m; k++)
            if (w->s0[k] <= s && s < w->s1[k] && (after == NONE || w->rank[k] > after) &&
                (c == NONE || w->rank[k] < w->rank[c]) &&
                fill_can_cover(w, floor, k, cap, floor[s]))
                c = k;
        if (c == NONE) {
            if (d == 0)
                return EXHAUSTED;
            uint32_t back = w->frames[--d].pick;
            for (uint32_t x = w->s0[back]; x < w->s1[back]; x++)
                floor[x] -= w->size[back];
            w->off[back] = UNPLACED;
            after = w->rank[back];
            s = fill_pick_section(r, floor, cover, cap); /* the node's own section again */
            continue;
        }
        if (spent >= budget || spend_node(r))
            return LIMITED;
        spent++;
        w->off[c] = floor[s];
        for (uint32_t x = w->s0[c]; x < w->s1[c]; x++)
            floor[x] += w->size[c];
        w->frames[d++].pick = c;
        if (d == m)
            break;
        after = NONE;
        s = fill_pick_section(r, floor, cover, cap);
        if (s == NONE) { /* the child fails: try the node's next */
            d--;
            for (uint32_t x = w->s0[c]; x < w->s1[c]; x++)
                floor[x] -= w->size[c];
            w->off[c] = UNPLACED;
            after = w->rank[c];
            s = fill_pick_section(r, floor, cover, cap);
        }
    }
    return keep_plan(r, plan);
}

/* ---- perfect packings: single-section tensors as filler ---- */

/* A tensor whose lifetime lies in one section (a "single") conflicts only
 * with the tensors of that section, so in a part without slack the singles
 * of a section just fill, in some order, the holes that its multi-section
 * tensors leave. The filler search places only the multi-section tensors,
 * each at the highest top of its sections, lifted (one alignment step at a
 * time) until the hole below it in each section is a sum of that section's
 * singles, in increasing (offset, rank) order, with no section's holes
 * above its singles' bytes; at a leaf it packs each section's singles into
 * its holes exactly, with a section inference of its own (filler_fits).
 * It never branches over which single goes where, which drowns the other
 * searches when sections hold dozens of small singles. Not complete (the
 * lift and the canonical order are heuristic): it only finds plans and
 * never proves that none exists. */
static int is_single(const struct work *w, uint32_t k)
{
    return w->s1[k] - w->s0[k] == 1;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b != 0) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Lists the multi-section tensors and the subset sums of each section's
 * singles (bit v of section x: some singles of x sum to v x fb_unit[x]);
 * returns how many multi-section tensors, or -1 when the bits do not fit. */
static long filler_prepare(struct run *r, const uint64_t *filler)
{
    struct work *w = r->w;
    size_t m = r->m, S = r->S, words = 0, multis = 0;
    for (uint32_t x = 0; x < S; x++)
        w->fb_unit[x] = 0;
    for (uint32_t k = 0; k < m; k++) {
        if (is_single(w, k))
            w->fb_unit[w->s0[k]] = gcd_u64(w->fb_unit[w->s0[k]], w->size[k]);
        else
            w->multi[multis++] = k;
    }
    for (uint32_t x = 0; x < S; x++) {
        if (w->fb_unit[x] == 0)
            w->fb_unit[x] = 1;
        uint64_t bits = filler[x] / w->fb_unit[x] + 1, nw = (bits + 63) / 64;
        if (nw > FILLER_WORDS - words)
            return -1;
        w->fb_base[x] = words;
        uint64_t *b = w->fbits + words;
        words += nw;
        memset(b, 0, nw * sizeof *b);
        b[0] = 1;
        for (uint32_t k = 0; k < m; k++) {
            if (!is_single(w, k) || w->s0[k] != x)
                continue;
            uint64_t shift = w->size[k] / w->fb_unit[x], ws = shift / 64, bs = shift % 64;
            for (uint64_t i = nw; i-- > ws;) {
                uint64_t v = b[i - ws] << bs;
                if (bs != 0 && i > ws)
                    v |= b[i - ws - 1] >> (64 - bs);
                b[i] |= v;
            }
        }
    }
    return (long)multis;
}

/* Some singles of section x sum to gap bytes. */
static int filler_sums(const struct work *w, const uint64_t *filler, uint32_t x, uint64_t gap)
{
    if (gap == 0)
        return 1;
    uint64_t u = w->fb_unit[x];
    if (gap % u != 0 || gap > filler[x])
        return 0;
    uint64_t v = gap / u;
    return (int)(w->fbits[w->fb_base[x] + v / 64] >> (v % 64) & 1);
}

/* Packs the singles of section x into the holes its placed tensors leave
 * under cap, exactly (their sums are equal), largest single first, within
 * *steps tries in all; on success writes the singles' offsets. */
static int fill_holes(struct run *r, uint32_t x, uint64_t cap, uint64_t *steps)
{
    struct work *w = r->w;
    size_t m = r->m, nh = 0, ni = 0;
    uint64_t *hole = w->lo, *at = w->tmp_off; /* lo is recomputed at every node */
    uint32_t *item = w->ord, *pick = w->tmp;
    /* holes: the gaps between the multi-section tensors of x, by offset */
    for (uint64_t y = 0;;) {
        uint64_t next = cap, end = cap;
        for (uint32_t k = 0; k < m; k++)
            if (!is_single(w, k) && w->s0[k] <= x && x < w->s1[k] && w->off[k] >= y &&
                w->off[k] < next)
                next = w->off[k], end = w->off[k] + w->size[k];
        if (next > y) {
            if (nh == m)
                return 0;
            at[nh] = y;
            hole[nh++] = next - y;
        }
        if (next == cap)
            break;
        y = end;
    }
    for (uint32_t k = 0; k < m; k++)
        if (is_single(w, k) && w->s0[k] == x) {
            size_t j = ni++;
            for (; j > 0 && w->size[item[j - 1]] < w->size[k]; j--)
                item[j] = item[j - 1];
            item[j] = k;
        }
    /* depth-first: item i goes in hole pick[i]; an equal item never in an
     * earlier hole than the one before it; a hole with the same room as an
     * earlier one is not tried again */
    size_t i = 0;
    if (ni > 0)
        pick[0] = 0;
    while (i < ni) {
        if (++*steps > FILLER_STEPS)
            return 0;
        uint32_t k = item[i];
        size_t j = pick[i];
        for (; j < nh; j++) {
            if (hole[j] < w->size[k])
                continue;
            size_t e = 0;
            while (e < j && hole[e] != hole[j])
                e++;
            if (e == j)
                break;
        }
        if (j < nh) {
            hole[j] -= w->size[k];
            pick[i++] = (uint32_t)j;
            if (i < ni)
                pick[i] = w->size[item[i]] == w->size[k] ? (uint32_t)j : 0;
            continue;
        }
        if (i == 0)
            return 0;
        i--;
        hole[pick[i]] += w->size[item[i]];
        pick[i]++;
    }
    for (size_t j = 0; j < nh; j++)
        if (hole[j] != 0)
            return 0;
    for (i = 0; i < ni; i++) {
        w->off[item[i]] = at[pick[i]];
        at[pick[i]] += w->size[item[i]];
    }
    return 1;
}

/* Where multi-section tensor k goes: the highest top of its sections,
 * lifted by alignment steps until every hole below it is a sum of its
 * section's singles; UINT64_MAX when some section's holes would pass its
 * singles or k would pass cap. */
static uint64_t filler_at(const struct run *r, const uint64_t *top, const uint64_t *used,
                          const uint64_t *filler, uint32_t k, uint64_t cap)
{
    const struct work *w = r->w;
    uint64_t base = span_floor(w, top, k), most = FILLER_LIFT * r->align;
    for (uint64_t lo = base; lo <= cap && w->size[k] <= cap - lo && lo - base <= most;
         lo += r->align) {
        int fits = 1;
        for (uint32_t x = w->s0[k]; x < w->s1[k] && fits; x++) {
            if (used[x] + (lo - top[x]) > filler[x])
                return UINT64_MAX;
            fits = filler_sums(w, filler, x, lo - top[x]);
        }
        if (fits)
            return lo;
    }
    return UINT64_MAX;
}

/* Section inference for the filler search: a multi-section tensor still to
 * place goes no lower than the highest top of its sections, nor below thr
 * (placements go in increasing offset); in each section, the least
 * makespan of those, max over v of v + the bytes released at v or later,
 * must fit cap (the singles fill what is left exactly). */
static int filler_fits(struct run *r, const uint64_t *top, size_t multis, const struct key *thr,
                       uint64_t cap)
{
    struct work *w = r->w;
    uint64_t *rel = w->tmp_off, *acc = w->fb_acc;
    uint32_t *ord = w->ord;
    size_t n = 0;
    for (size_t i = 0; i < multis; i++) {
        uint32_t k = w->multi[i];
        if (w->off[k] != UNPLACED)
            continue;
        uint64_t v = max_u64(span_floor(w, top, k), thr->lo);
        size_t j = n++;
        for (; j > 0 && rel[ord[j - 1]] > v; j--)
            ord[j] = ord[j - 1];
        ord[j] = k;
        rel[k] = v;
    }
    for (size_t x = 0; x < r->S; x++)
        acc[x] = 0;
    for (size_t i = n; i-- > 0;) {
        uint32_t k = ord[i];
        if (rel[k] > cap)
            return 0;
        for (uint32_t x = w->s0[k]; x < w->s1[k]; x++) {
            acc[x] += w->size[k];
            if (acc[x] > cap - rel[k])
                return 0;
        }
    }
    return 1;
}

/* Decision search for a part without slack at cap, by the filler rule
 * above. FOUND or LIMITED (budget, or the tree ran out: no proof). */
static enum outcome filler_search(struct run *r, uint64_t cap, unsigned h, unsigned round,
                                  uint64_t budget, struct arena_plan *plan)
{
    struct work *w = r->w;
    size_t m = r->m, S = r->S;
    part_reset(r);
    rank_by(r, h, round);
    uint64_t *top = w->rem, *used = w->acc, *filler = w->key; /* key: rank_by is done */
    memset(top, 0, S * sizeof *top);
    memset(used, 0, S * sizeof *used);
    memset(filler, 0, S * sizeof *filler);
    for (uint32_t k = 0; k < m; k++)
        if (is_single(w, k))
            filler[w->s0[k]] += w->size[k];
    long multis = filler_prepare(r, filler);
    if (multis < 0 || (size_t)multis == m) /* bits too many, or no singles */
        return LIMITED;
    uint64_t spent = 0;
    size_t d = 0;
    struct key thr = {0, NONE};
    uint64_t *at = w->lo;
    for (;;) {
        if (d == (size_t)multis) {
            uint64_t steps = 0;
            int ok = 1;
            for (uint32_t x = 0; x < S && ok; x++)
                ok = fill_holes(r, x, cap, &steps);
            if (ok)
                break;
            for (uint32_t k = 0; k < m; k++)
                if (is_single(w, k))
                    w->off[k] = UNPLACED;
        }
        /* the next child: least (offset, rank) after thr, below the
         * dominance height (a tensor that fits lower goes first) */
        uint64_t min_height = UINT64_MAX;
        for (size_t i = 0; i < (size_t)multis; i++) {
            uint32_t k = w->multi[i];
            if (w->off[k] != UNPLACED)
                continue;
            at[k] = filler_at(r, top, used, filler, k, cap);
            uint64_t low = span_floor(w, top, k) + w->size[k];
            if (low < min_height)
                min_height = low;
        }
        uint32_t c = NONE;
        int alive = d == (size_t)multis || filler_fits(r, top, (size_t)multis, &thr, cap);
        for (size_t i = 0; alive && i < (size_t)multis && d < (size_t)multis; i++) {
            uint32_t k = w->multi[i];
            if (w->off[k] != UNPLACED || at[k] == UINT64_MAX || at[k] >= min_height ||
                !key_after(at[k], w->rank[k], &thr) || twin_forbids(w, k))
                continue;
            if (c == NONE || at[k] < at[c] || (at[k] == at[c] && w->rank[k] < w->rank[c]))
                c = k;
        }
        if (c == NONE) { /* back up to the last placed one's next sibling */
            if (d == 0)
                return LIMITED; /* not a proof: this search is not complete */
            uint32_t back = w->frames[--d].pick;
            uint64_t b = w->off[back];
            w->off[back] = UNPLACED;
            for (uint32_t x = w->s0[back]; x < w->s1[back]; x++) {
                uint64_t t = 0; /* the top below it: the others were placed before */
                for (size_t i = 0; i < (size_t)multis; i++) {
                    uint32_t k = w->multi[i];
                    if (w->off[k] != UNPLACED && w->s0[k] <= x && x < w->s1[k])
                        t = max_u64(t, w->off[k] + w->size[k]);
                }
                used[x] -= b - t;
                top[x] = t;
            }
            thr.lo = b;
            thr.rank = w->rank[back];
            continue;
        }
        if (spent >= budget || spend_node(r))
            return LIMITED;
        spent++;
        uint64_t lo = at[c];
        for (uint32_t x = w->s0[c]; x < w->s1[c]; x++) {
            used[x] += lo - top[x];
            top[x] = lo + w->size[c];
        }
        w->off[c] = lo;
        w->frames[d++].pick = c;
        thr.lo = lo;
        thr.rank = w->rank[c];
    }
    return keep_plan(r, plan);
}

static int optimal_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                        void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    struct run r = {.p = p, .opt = opt, .align = p->alignment};
    clock_gettime(CLOCK_MONOTONIC, &r.start);
    struct work w;
    arena_layout_carve(layout, p, &w, scratch, scratch_size);
    r.w = &w;

    int rc = best_greedy(p, &w, plan);
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
    if (w.ids == NULL) { /* too large to search: the incumbent, no proof */
        plan->status = cap && plan->arena <= cap ? ARENA_PLAN_FEASIBLE : ARENA_PLAN_LIMIT;
        return ARENA_OK;
    }

    /* ids with bytes, by (first, id); parts where no lifetime spans a gap */
    size_t k = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->tensors[i].size > 0)
            w.ids[k++] = (uint32_t)i;
    arena_order_sort(w.ids, w.tmp, m, p->tensors, ARENA_ORDER_FIRST);
    size_t parts = 0;
    uint32_t reach = 0;
    for (size_t i = 0; i < m; i++) {
        const struct arena_tensor *t = &p->tensors[w.ids[i]];
        if (i == 0 || t->first > reach)
            w.part_start[parts++] = (uint32_t)i;
        if (i == 0 || t->last > reach)
            reach = t->last;
    }
    w.part_start[parts] = (uint32_t)m;
    uint64_t proven = 0;
    for (size_t q = 0; q < parts; q++) {
        w.part_lb[q] = part_load(&r, w.part_start[q], w.part_start[q + 1]);
        proven = max_u64(proven, w.part_lb[q]);
    }
    plan->bound = proven;
    if (cap && cap < proven) {
        plan->status = ARENA_PLAN_INFEASIBLE;
        return ARENA_OK;
    }
    for (size_t q = 0; q < parts; q++) {
        w.key[q] = ~w.part_lb[q];
        w.idx[q] = (uint32_t)q;
    }
    sort_by(&w, parts);
    memcpy(w.part_order, w.idx, parts * sizeof *w.part_order);

    int infeasible = 0;
    uint64_t arena = 0;
    for (size_t qi = 0; qi < parts; qi++) {
        size_t q = w.part_order[qi];
        size_t a = w.part_start[q], b = w.part_start[q + 1];
        uint64_t part_arena = 0;
        for (size_t i = a; i < b; i++) {
            uint32_t id = w.ids[i];
            part_arena = max_u64(part_arena, plan->offsets[id] + p->tensors[id].size);
        }
        r.part_arena = part_arena;
        uint64_t target = cap ? cap : proven;
        if (part_arena > target && !r.stopped && !infeasible) {
            part_load(&r, a, b);
            uint64_t tight = zero_slack(&r, target) ? target : 0; /* rem: the loads */
            uint64_t budget = 64 + 16 * (uint64_t)(b - a);
            int done = 0;
            for (unsigned round = 0; !done && !r.stopped; round++) {
                /* decision at the proven bound: in a part without slack,
                 * lowest gap first, then singles as filler; then each
                 * preorder in turn */
                for (unsigned i = 0; i <= HEURISTICS && !done && !r.stopped; i++) {
                    if (i == 0 && target != tight)
                        continue;
                    unsigned hi = (round + 1) % HEURISTICS;
                    enum outcome o = i > 0 ? search(&r, target, i - 1, round, budget, plan)
                                           : fill_search(&r, target, hi, round, budget / 8, plan);
                    for (unsigned f = 0; i == 0 && f < FILLER_TRIES && o == LIMITED; f++)
                        if (!r.stopped)
                            o = filler_search(&r, target, (hi + f) % HEURISTICS, round, budget,
                                              plan);
                    if (o == FOUND) {
                        done = 1;
                    } else if (o == EXHAUSTED) {
                        if (cap) {
                            infeasible = 1;
                            proven = max_u64(proven, cap + r.align);
                            done = 1;
                        } else {
                            proven = max_u64(proven, target + r.align);
                            target = proven;
                            done = r.part_arena <= target;
                        }
                    }
                }
                /* branch and bound: decisions just below the best plan */
                for (unsigned h = round % 4; !cap && h == round % 4 && !done && !r.stopped; h++) {
                    enum outcome o;
                    while ((o = search(&r, r.part_arena - r.align, h, round, budget, plan)) == FOUND &&
                           r.part_arena > target)
                        ;
                    if (o == FOUND)
                        done = 1;
                    else if (o == EXHAUSTED) {
                        proven = max_u64(proven, r.part_arena);
                        done = 1;
                    }
                }
                budget = budget > UINT64_MAX / 2 ? UINT64_MAX : 2 * budget;
            }
        }
        arena = max_u64(arena, r.part_arena);
    }
    plan->arena = arena;
    plan->bound = proven;
    plan->nodes = r.nodes;
    if (cap)
        plan->status = infeasible ? ARENA_PLAN_INFEASIBLE
                       : arena <= cap ? ARENA_PLAN_FEASIBLE
                                      : ARENA_PLAN_LIMIT;
    else
        plan->status = arena <= proven ? ARENA_PLAN_OPTIMAL : ARENA_PLAN_LIMIT;
    return ARENA_OK;
}

const struct arena_planner arena_planner_optimal = {
    .name = "optimal",
    .summary = "exact search (canonical placements, MiniMalloc-style pruning): best plan and proven bound",
    .kind = ARENA_KIND_SEARCH,
    .plan = optimal_plan,
    .scratch_bytes = optimal_scratch,
};
