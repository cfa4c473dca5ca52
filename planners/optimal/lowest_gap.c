/* lowest_gap.c — the lowest-gap search, for parts without slack (every
 * section carries exactly cap bytes, as in perfect-packing boxes): instead
 * of the canonical order it fills the lowest empty byte of the sections
 * first, branching over which tensor has its bottom there, in the lowest
 * section with the fewest candidates (fail first), with its own section
 * inference. Complete at such a cap: in any plan within it every section is
 * full, so the tensor covering the lowest empty byte of a lowest section
 * sits exactly on it. Here top[x] is section x's filled height: [0, top[x])
 * is full.
 *
 * With a discrepancy limit (rule gap-discrepancy, Harvey and Ginsberg's
 * limited discrepancy search as canonical.c's): a child after one whose
 * subtree was searched is a discrepancy, and no path takes more than the
 * limit; a tree the limit cut proves nothing (LIMITED, never EXHAUSTED). A
 * child that fails at once (its node test) costs none: the next is then the
 * first one that stands. */
#include <string.h>

#include "planners/optimal/internal.h"

/* k may have its bottom at x, the lowest empty byte of a lowest section:
 * unplaced, no twin of lower rank still unplaced, every section it spans
 * filled exactly to x, its top within cap, and not resting right on a
 * smaller tensor of its lifetime. */
static int can_cover(const struct run *r, uint32_t k, uint64_t cap, uint64_t x)
{
    const struct work *w = r->w;
    return w->off[k] == UNPLACED && !arena_optimal_twin_forbids(r, k) &&
           span_floor(w, w->top, k) == x && w->size[k] <= cap - x &&
           !arena_optimal_stack_forbids(r, k, x);
}

/* The node's test and its branching section. With no slack, every section s
 * is filled exactly [0, top[s]) and the byte at top[s] must be the bottom
 * of a tensor spanning s placed at top[s]: one whose sections are none
 * above top[s] (they only rise) and that fits under cap. Returns NONE when
 * some section has no such tensor or some tensor fits nowhere, else the
 * lowest section with the fewest such tensors (the lowest floor: below it
 * every section is full, so its covering tensor sits exactly there). Sets
 * lo[k] of every unplaced k to the highest top of its sections. */
static uint32_t pick_section(struct run *r, uint64_t cap)
{
    struct work *w = r->w;
    size_t m = r->m, S = r->S;
    const uint64_t *top = w->top;
    uint32_t *cover = w->cover;
    memset(cover, 0, S * sizeof *cover);
    for (uint32_t k = 0; k < m; k++) {
        if (w->off[k] != UNPLACED)
            continue;
        uint64_t f = span_floor(w, top, k);
        if (f > cap || w->size[k] > cap - f)
            return NONE;
        w->lo[k] = f;
        if (arena_optimal_twin_forbids(r, k))
            continue;
        for (uint32_t s = w->s0[k]; s < w->s1[k]; s++)
            cover[s] += top[s] == f;
    }
    if (!arena_optimal_gap_sections_fit(r, cap))
        return NONE;
    uint32_t best = NONE;
    for (uint32_t s = 0; s < S; s++) {
        if (top[s] >= cap)
            continue;
        if (cover[s] == 0)
            return NONE;
        if (best == NONE || top[s] < top[best] || (top[s] == top[best] && cover[s] < cover[best]))
            best = s;
    }
    return best;
}

/* Lifts (sign +1) or lowers (-1) the filled height of c's sections by its
 * size. */
static void fill(struct work *w, uint32_t c, int sign)
{
    for (uint32_t x = w->s0[c]; x < w->s1[c]; x++) {
        if (sign > 0)
            w->top[x] += w->size[c];
        else {
            assert(w->top[x] >= w->size[c]);
            w->top[x] -= w->size[c];
        }
    }
}

/* Decision search at cap; same outcomes and budget rules as
 * canonical_search(). */
enum outcome arena_optimal_lowest_gap_search(struct run *r, uint64_t cap, unsigned h,
                                             unsigned round, uint64_t budget, uint32_t disc_limit,
                                             struct arena_plan *plan)
{
    struct work *w = r->w;
    size_t m = r->m;
    arena_optimal_part_reset(r);
    arena_optimal_rank_by(r, h, round);
    uint64_t *top = w->top;
    memset(top, 0, r->S * sizeof *top);
    uint64_t spent = 0;
    size_t d = 0;
    uint32_t after = NONE; /* children of the node: rank above this */
    uint32_t cur = 0;      /* discrepancies on the path to the node */
    uint32_t entered = 0;  /* a child of the node had its subtree searched */
    int cut = 0;           /* the limit cut a child: the tree proves nothing */
    uint32_t s = pick_section(r, cap);
    if (s == NONE)
        return EXHAUSTED;
    for (;;) {
        assert(s < r->S && top[s] < cap);
        uint32_t c = NONE;
        for (uint32_t k = 0; k < m; k++)
            if (w->s0[k] <= s && s < w->s1[k] && (after == NONE || w->rank[k] > after) &&
                (c == NONE || w->rank[k] < w->rank[c]) && can_cover(r, k, cap, top[s]))
                c = k;
        /* a child after one whose subtree was searched is a discrepancy */
        uint32_t child_disc = cur + (entered ? 1u : 0u);
        if (c != NONE && child_disc > disc_limit) {
            cut = 1;
            c = NONE;
        }
        if (c == NONE) {
            if (d == 0)
                return cut ? LIMITED : EXHAUSTED;
            d--;
            cur = w->frames[d].disc;
            entered = 1;
            uint32_t back = w->frames[d].pick;
            fill(w, back, -1);
            w->off[back] = UNPLACED;
            after = w->rank[back];
            s = pick_section(r, cap); /* the node's own section again */
            continue;
        }
        if (spent >= budget || arena_optimal_spend_node(r))
            return LIMITED;
        spent++;
        w->off[c] = top[s];
        fill(w, c, +1);
        w->frames[d].disc = cur;
        w->frames[d].entered = entered;
        w->frames[d++].pick = c;
        cur = child_disc;
        entered = 0;
        if (d == m)
            break;
        after = NONE;
        s = pick_section(r, cap);
        if (s == NONE) { /* the child fails: try the node's next */
            d--;
            cur = w->frames[d].disc;
            entered = w->frames[d].entered;
            fill(w, c, -1);
            w->off[c] = UNPLACED;
            after = w->rank[c];
            s = pick_section(r, cap);
        }
    }
    return arena_optimal_keep_plan(r, plan);
}
