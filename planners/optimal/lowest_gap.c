/* lowest_gap.c — the lowest-gap search: instead of the canonical order it
 * decides the bytes of the sections from the bottom up, always at the
 * lowest undecided byte of a lowest open section (fewest options first:
 * fail first), branching over which tensor has its bottom there (in rank
 * order) and, last, when the section has slack left, a "waste": the byte
 * stays empty, and so does every byte up to the lowest height where a
 * tensor of the section could still start. Here top[x] is section x's
 * decided height: [0, top[x]) holds placed tensors and wasted bytes only;
 * rem[x] the bytes of its unplaced tensors.
 *
 * Complete at any cap (some plan within cap, if any, is found or the
 * search is LIMITED): fix the plan P within cap of least sum over tensors of
 * size^2 x offset (a gravity plan: offsets are multiples of the part's
 * step; no tensor of it can drop; twins in rank order; no tensor right on a
 * smaller one of its lifetime). Every decision below is consistent with P
 * on one branch: the byte at top[s] of a lowest open section s is the
 * bottom of some tensor k of P (k spans s, and every section of k is
 * decided exactly to top[s]: lower ones would leave undecided bytes below
 * k, higher ones overlap k) or is empty in P, and then so is every byte up
 * to the lowest height h a tensor of s can start at (its sections' tops,
 * and at least top[s] + step). And no single-section tensor of s fits in
 * [top[s], h): it would drop there in P. In a part without slack (every
 * section carries exactly cap) no byte is ever wasted: the search is the
 * exact-cover search of perfect packings. */
#include <string.h>

#include "planners/optimal/internal.h"

/* k may have its bottom at x, the lowest empty byte of a lowest section:
 * unplaced, no twin of lower rank still unplaced, every section it spans
 * filled exactly to x, its top within cap, and not resting right on a
 * smaller tensor of its lifetime. */
static int can_cover(const struct run *r, uint32_t k, uint64_t cap, uint64_t x)
{
    const struct work *w = r->w;
    return w->off[k] == UNPLACED && !twin_forbids(r, k) && span_floor(w, w->top, k) == x &&
           w->size[k] <= cap - x && !stack_forbids(r, k, x);
}

/* Section s may waste bytes: its unplaced bytes fit above top[s] + step. */
static int may_waste(const struct run *r, uint32_t s, uint64_t cap)
{
    const struct work *w = r->w;
    return w->top[s] <= cap && w->rem[s] <= cap - w->top[s] &&
           r->step <= cap - w->top[s] - w->rem[s];
}

/* The lowest bottom a tensor k, kept off top[s] with lo[k] = top[s], can
 * have in P: P is gravity, so k rests on a tensor it conflicts with, one
 * still unplaced (a placed one ends by lo[k]): at some lo[j] + size[j]
 * at least. UINT64_MAX when none is left: k must sit at lo[k]. */
static uint64_t rest_height(const struct run *r, uint32_t k)
{
    const struct work *w = r->w;
    uint64_t h = UINT64_MAX;
    for (uint32_t j = 0; j < r->m; j++)
        if (j != k && w->off[j] == UNPLACED && w->s0[j] < w->s1[k] && w->s0[k] < w->s1[j] &&
            w->lo[j] + w->size[j] < h)
            h = w->lo[j] + w->size[j];
    return h;
}

/* The height a waste at section s raises top[s] to (lo must hold every
 * unplaced tensor's highest top), or 0 when s may not waste: the lowest
 * bottom an unplaced tensor of s can have in P above top[s] (its lo when
 * that is higher, else the height it could rest at), at least top[s] +
 * step; 0 too when a single of s fits below it (it would drop there). */
static uint64_t waste_to(const struct run *r, uint32_t s, uint64_t cap)
{
    const struct work *w = r->w;
    if (!may_waste(r, s, cap))
        return 0;
    uint64_t t = w->top[s], h = UINT64_MAX;
    for (uint32_t k = 0; k < r->m; k++) {
        if (w->off[k] != UNPLACED || w->s0[k] > s || s >= w->s1[k])
            continue;
        uint64_t b = w->lo[k] > t ? w->lo[k] : rest_height(r, k);
        if (b < h)
            h = b;
    }
    if (h == UINT64_MAX || h > cap)
        return 0;
    h = max_u64(h, t + r->step);
    if (rule_on(r, ARENA_OPTIMAL_DOMINANCE))
        for (uint32_t k = 0; k < r->m; k++)
            if (w->off[k] == UNPLACED && w->s0[k] == s && w->s1[k] == s + 1 &&
                w->size[k] <= h - t)
                return 0;
    return h;
}

/* The node's test and its branching section: NONE when some tensor fits
 * nowhere, section inference fails, or an open section (one with unplaced
 * bytes) has neither a tensor that can start at its top nor room to waste;
 * else the lowest open section with the fewest options. Sets lo[k] of
 * every unplaced k to the highest top of its sections. */
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
        if (twin_forbids(r, k))
            continue;
        for (uint32_t s = w->s0[k]; s < w->s1[k]; s++)
            cover[s] += top[s] == f;
    }
    if (!gap_sections_fit(r, cap))
        return NONE;
    uint32_t best = NONE, best_opts = 0;
    for (uint32_t s = 0; s < S; s++) {
        if (w->rem[s] == 0)
            continue;
        uint32_t opts = cover[s] + (uint32_t)may_waste(r, s, cap);
        if (opts == 0)
            return NONE;
        if (best == NONE || top[s] < top[best] || (top[s] == top[best] && opts < best_opts))
            best = s, best_opts = opts;
    }
    return best;
}

/* Lifts (sign +1) or lowers (-1) the decided height of c's sections by its
 * size, and takes its bytes from (or gives them back to) rem. */
static void fill(struct work *w, uint32_t c, int sign)
{
    for (uint32_t x = w->s0[c]; x < w->s1[c]; x++) {
        if (sign > 0) {
            w->top[x] += w->size[c];
            w->rem[x] -= w->size[c];
        } else {
            assert(w->top[x] >= w->size[c]);
            w->top[x] -= w->size[c];
            w->rem[x] += w->size[c];
        }
    }
}

/* Decision search at cap; same outcomes and budget rules as
 * canonical_search(). A placement's frame keeps, in log_start, how many
 * wastes were on the log before it; a waste is the last child of its
 * node, so undoing one fails its node. */
enum outcome lowest_gap_search(struct run *r, uint64_t cap, unsigned h, unsigned round,
                               uint64_t budget, struct arena_plan *plan)
{
    struct work *w = r->w;
    size_t m = r->m;
    part_reset(r);
    rank_by(r, h, round);
    uint64_t *top = w->top;
    memset(top, 0, r->S * sizeof *top);
    uint64_t spent = 0, nw = 0;
    size_t d = 0;
    int cut = 0;           /* a waste was not searched: no proof */
    uint32_t after = NONE; /* children of the node: rank above this */
    uint32_t s = pick_section(r, cap);
    if (s == NONE)
        return EXHAUSTED;
    for (;;) {
        assert(s < r->S && w->rem[s] > 0);
        uint32_t c = NONE;
        for (uint32_t k = 0; k < m && after != UINT32_MAX - 1; k++)
            if (w->s0[k] <= s && s < w->s1[k] && (after == NONE || w->rank[k] > after) &&
                (c == NONE || w->rank[k] < w->rank[c]) && can_cover(r, k, cap, top[s]))
                c = k;
        uint64_t raise = c == NONE && after != UINT32_MAX - 1 ? waste_to(r, s, cap) : 0;
        if (raise != 0 && nw >= w->log_cap) {
            cut = 1;
            raise = 0;
        }
        if (c == NONE && raise == 0) {
            /* the node has failed: undo wastes (each the last child of its
             * node) and the last placement, whose node tries its next */
            for (;;) {
                if (nw > (d ? w->frames[d - 1].log_start : 0)) {
                    nw--;
                    top[w->log_idx[nw]] = w->log_old[nw];
                    continue;
                }
                if (d == 0)
                    return cut ? LIMITED : EXHAUSTED;
                uint32_t back = w->frames[--d].pick;
                fill(w, back, -1);
                w->off[back] = UNPLACED;
                after = w->rank[back];
                s = pick_section(r, cap); /* the node's own section again */
                break;
            }
            continue;
        }
        if (spent >= budget || optimal_spend_node(r))
            return LIMITED;
        spent++;
        if (c == NONE) { /* waste s up to raise */
            w->log_idx[nw] = s;
            w->log_old[nw] = top[s];
            nw++;
            top[s] = raise;
            after = NONE;
            s = pick_section(r, cap);
            if (s == NONE) { /* fails at once: its node is done */
                nw--;
                s = w->log_idx[nw];
                top[s] = w->log_old[nw];
                after = UINT32_MAX - 1; /* no child left: back up */
            }
            continue;
        }
        w->off[c] = top[s];
        fill(w, c, +1);
        w->frames[d].pick = c;
        w->frames[d].log_start = nw;
        d++;
        if (d == m)
            break;
        after = NONE;
        s = pick_section(r, cap);
        if (s == NONE) { /* the child fails: try the node's next */
            d--;
            fill(w, c, -1);
            w->off[c] = UNPLACED;
            after = w->rank[c];
            s = pick_section(r, cap);
        }
    }
    return keep_plan(r, plan);
}
