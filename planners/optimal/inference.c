/* inference.c — the rules that cut the searches' trees without losing every
 * optimal plan: section inference (a one-machine schedule with release times
 * per section must fit the capacity), dominance (no tensor placed above a
 * height where another would fit untouched below) and symmetry (twins in
 * rank order; tensors of one lifetime stacked largest below). The searches
 * call them; each rule's reason is stated where it is written. */
#include <string.h>

#include "planners/optimal/internal.h"

/* Keeps w->ord (every position) sorted by lo: insertion sort, as the order
 * barely changes from one node to the next. */
void arena_optimal_sort_by_lo(struct work *w, size_t m)
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

/* ---- section inference ---- */

/* Adds k, released at v, to acc over its sections: 0 when some section's
 * bytes released at v or later no longer fit [v, cap). Called in
 * decreasing v, so acc[s] is every byte of s released at v or later. */
int arena_optimal_release_fits(struct work *w, uint32_t k, uint64_t v, uint64_t cap)
{
    assert(w->off[k] == UNPLACED && w->s0[k] < w->s1[k]);
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

/* Canonical search, after a placement at offset thr->lo inside scope g: in
 * each of g's sections the unplaced tensors form a one-machine schedule with
 * release times (a tensor cannot go below its lo, nor below cur), whose
 * least makespan is the largest over v of v + the bytes released at v or
 * later; it must fit cap. Taking the tensors by release, latest first, and
 * adding each to the sections it spans gives every term. Sections outside g
 * cannot change. */
int arena_optimal_sections_fit(struct run *r, const struct group *g, const struct key *thr,
                               uint64_t cap)
{
    assert(g->ka <= g->kb && g->kb <= r->m && g->sa <= g->sb && g->sb <= r->S);
    struct work *w = r->w;
    size_t m = r->m;
    uint32_t *ord = w->ord;
    uint64_t cur = thr->lo;
    if (!rule_on(r, ARENA_OPTIMAL_SECTION))
        return 1;
    arena_optimal_sort_by_lo(w, m);
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
    /* its walk is the node's largest cost (every section of every tensor):
     * charged as it goes, so a budget that runs out mid-walk stops it (0,
     * and the search returns LIMITED, never a proof) */
    uint64_t walked = 0;
#define CHARGE(k)                                                                    \
    do {                                                                             \
        walked += w->s1[k] - w->s0[k] + 1;                                           \
        if (walked >= CLOCK_WORK) {                                                  \
            if (arena_optimal_spend_work(r, walked))                                 \
                return 0;                                                            \
            walked = 0;                                                              \
        }                                                                            \
    } while (0)
#define IN_SCOPE(k) ((k) >= g->ka && (k) < g->kb && w->off[k] == UNPLACED)
#define PASSED(k) (w->lo[k] < cur || (w->lo[k] == cur && w->rank[k] <= thr->rank))
    /* latest release first: those above `late`, the passed ones, the rest */
    size_t i = m;
    for (; i > 0 && w->lo[ord[i - 1]] >= late; i--) {
        uint32_t k = ord[i - 1];
        if (IN_SCOPE(k) && !PASSED(k) && !arena_optimal_release_fits(w, k, w->lo[k], cap))
            return 0;
        CHARGE(k);
    }
    for (size_t j = 0; j < m; j++) {
        uint32_t k = ord[j];
        if (IN_SCOPE(k) && PASSED(k) && !arena_optimal_release_fits(w, k, late, cap))
            return 0;
        CHARGE(k);
    }
    for (; i > 0; i--) {
        uint32_t k = ord[i - 1];
        if (IN_SCOPE(k) && !PASSED(k) && !arena_optimal_release_fits(w, k, w->lo[k], cap))
            return 0;
        CHARGE(k);
    }
#undef CHARGE
#undef IN_SCOPE
#undef PASSED
    return 1;
}

/* Lowest-gap search: the tensors of a section released at v or later (none
 * goes below its lo) fit in [v, cap). */
int arena_optimal_gap_sections_fit(struct run *r, uint64_t cap)
{
    assert(r->S < 2 * r->m || r->m == 0);
    struct work *w = r->w;
    size_t m = r->m;
    if (!rule_on(r, ARENA_OPTIMAL_SECTION))
        return 1;
    uint32_t *ord = w->ord;
    arena_optimal_sort_by_lo(w, m);
    memset(w->acc, 0, r->S * sizeof *w->acc);
    for (size_t i = m; i-- > 0;) {
        uint32_t k = ord[i];
        if (w->off[k] == UNPLACED && !arena_optimal_release_fits(w, k, w->lo[k], cap))
            return 0;
    }
    return 1;
}

/* The busiest section of scope g still to fill, and its unplaced bytes
 * (*at = g->sa when all are empty; 0 with the rule off). In canonical order every tensor still
 * to place goes at the current offset or above, so a child at lo that does
 * not span it leaves it lo + busiest high at least: over cap, sections_fit
 * would refuse the child, and the search skips it unplaced. */
uint64_t arena_optimal_busiest_section(const struct run *r, const struct group *g, uint32_t *at)
{
    assert(g->sa <= g->sb && g->sb <= r->S);
    const struct work *w = r->w;
    uint64_t busiest = 0;
    *at = g->sa;
    if (!rule_on(r, ARENA_OPTIMAL_BUSIEST))
        return 0;
    for (uint32_t s = g->sa; s < g->sb; s++)
        if (w->rem[s] > busiest)
            busiest = w->rem[s], *at = s;
    return busiest;
}

/* Filler search: a multi-section tensor still to place goes no lower than
 * the highest top of its sections, nor below thr (placements go in
 * increasing offset); in each section, the least makespan of those, max
 * over v of v + the bytes released at v or later, must fit cap (the
 * singles fill what is left exactly). lo holds each unplaced one's highest
 * top (filler_search sets it at each node); placed ones get UINT64_MAX.
 * Keeps multi_ord[0, multis), the multi-section tensors as filler_search set it
 * up, sorted by lo: from one node to the next only a few move, so the
 * insertion sort costs about one pass. */
int arena_optimal_filler_fits(struct run *r, size_t multis, const struct key *thr, uint64_t cap)
{
    assert(multis <= r->m);
    struct work *w = r->w;
    uint64_t *acc = w->acc;
    uint32_t *ord = w->multi_ord;
    if (!rule_on(r, ARENA_OPTIMAL_SECTION))
        return 1;
    for (size_t i = 0; i < multis; i++)
        if (w->off[ord[i]] != UNPLACED)
            w->lo[ord[i]] = UINT64_MAX;
    for (size_t i = 1; i < multis; i++) {
        uint32_t x = ord[i];
        uint64_t v = w->lo[x];
        size_t j = i;
        for (; j > 0 && w->lo[ord[j - 1]] > v; j--)
            ord[j] = ord[j - 1];
        ord[j] = x;
    }
    size_t n = 0;
    while (n < multis && w->lo[ord[n]] != UINT64_MAX)
        n++;
    for (size_t x = 0; x < r->S; x++)
        acc[x] = 0;
    for (size_t i = n; i-- > 0;) {
        uint32_t k = ord[i];
        uint64_t v = max_u64(w->lo[k], thr->lo);
        if (v > cap)
            return 0;
        for (uint32_t x = w->s0[k]; x < w->s1[k]; x++) {
            acc[x] += w->size[k];
            if (acc[x] > cap - v)
                return 0;
        }
    }
    return 1;
}

/* ---- dominance ---- */

/* Canonical search: no child at or above min(lo_j + size_j) over the
 * unplaced j of scope g: j would fit in the gap below it, untouched, at its
 * own lo, so some plan at least as good places j first. */
uint64_t arena_optimal_dominance_height(const struct run *r, const struct group *g)
{
    assert(g->ka <= g->kb && g->kb <= r->m);
    const struct work *w = r->w;
    uint64_t h = UINT64_MAX;
    if (!rule_on(r, ARENA_OPTIMAL_DOMINANCE))
        return h;
    for (uint32_t k = g->ka; k < g->kb; k++)
        if (w->off[k] == UNPLACED && w->lo[k] + w->size[k] < h)
            h = w->lo[k] + w->size[k];
    return h;
}

/* Filler search: the same rule over the multi-section tensors, each at the
 * highest top of its sections (lo, as filler_search sets it). */
uint64_t arena_optimal_filler_dominance_height(const struct run *r, size_t multis)
{
    assert(multis <= r->m);
    const struct work *w = r->w;
    uint64_t h = UINT64_MAX;
    if (!rule_on(r, ARENA_OPTIMAL_DOMINANCE))
        return h;
    for (size_t i = 0; i < multis; i++) {
        uint32_t k = w->multi[i];
        if (w->off[k] != UNPLACED)
            continue;
        uint64_t low = w->lo[k] + w->size[k];
        if (low < h)
            h = low;
    }
    return h;
}

/* ---- symmetry ---- */

/* Identical tensors (same size and lifetime, "twins") are interchangeable:
 * relabelling them in any plan keeps it valid, so some optimal plan puts
 * them in rank order by offset, and the search never places one while a
 * twin of lower rank is still unplaced. */
int arena_optimal_twin_forbids(const struct run *r, uint32_t k)
{
    assert(k < r->m && r->w->off[k] == UNPLACED);
    const struct work *w = r->w;
    if (!rule_on(r, ARENA_OPTIMAL_TWINS))
        return 0;
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
 * of its lifetime that is smaller. A tensor the repair search keeps fixed
 * cannot swap: it does not forbid. */
int arena_optimal_stack_forbids(const struct run *r, uint32_t k, uint64_t lo)
{
    assert(k < r->m && r->w->off[k] == UNPLACED);
    const struct work *w = r->w;
    if (!rule_on(r, ARENA_OPTIMAL_STACK) || r->own_times)
        return 0;
    for (uint32_t i = w->same_at[k]; i < w->same_end[k]; i++) {
        uint32_t t = w->twin[i];
        if (t != k && w->off[t] != UNPLACED && !w->fixed[t] && w->off[t] + w->size[t] == lo &&
            w->size[t] < w->size[k])
            return 1;
    }
    return 0;
}
