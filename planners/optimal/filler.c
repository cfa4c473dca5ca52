/* filler.c — the filler search, for parts without slack. A tensor whose
 * lifetime lies in one section (a "single") conflicts only with the tensors
 * of that section, so in a part without slack the singles of a section just
 * fill, in some order, the holes that its multi-section tensors leave. The
 * filler search places only the multi-section tensors, each at the highest
 * top of its sections, lifted (one alignment step at a time) until the hole
 * below it in each section is a sum of that section's singles, in
 * increasing (offset, rank) order, with no section's holes above its
 * singles' bytes; at a leaf it packs each section's singles into its holes
 * exactly, with a section inference of its own (filler_fits). It never
 * branches over which single goes where, which drowns the other searches
 * when sections hold dozens of small singles. Not complete (the lift and the
 * canonical order are heuristic): it only finds plans and never proves that
 * none exists. Here top[x] is the highest end of the placed multi-section
 * tensors over x, hole_bytes[x] the empty bytes below it. */
#include <string.h>

#include "planners/optimal/internal.h"

/* Lists the multi-section tensors and the subset sums of each section's
 * singles (bit v of section x: some singles of x sum to v x fb_unit[x]);
 * returns how many multi-section tensors, or -1 when the bits do not fit. */
static long prepare(struct run *r)
{
    struct work *w = r->w;
    size_t m = r->m, S = r->S, words = 0, multis = 0;
    for (uint32_t x = 0; x < S; x++)
        w->fb_unit[x] = 0;
    for (uint32_t k = 0; k < m; k++) {
        if (is_single(w, k))
            w->fb_unit[w->s0[k]] = arena_optimal_gcd_u64(w->fb_unit[w->s0[k]], w->size[k]);
        else
            w->multi[multis++] = k;
    }
    for (uint32_t x = 0; x < S; x++) {
        if (w->fb_unit[x] == 0)
            w->fb_unit[x] = 1;
        uint64_t bits = w->single_bytes[x] / w->fb_unit[x] + 1, nw = (bits + 63) / 64;
        if (nw > w->fbits_cap - words)
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
static int sums_to(const struct work *w, uint32_t x, uint64_t gap)
{
    if (gap == 0)
        return 1;
    uint64_t u = w->fb_unit[x];
    if (gap % u != 0 || gap > w->single_bytes[x])
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
    uint64_t *hole = w->hole, *at = w->hole_at;
    uint32_t *item = w->single, *pick = w->single_hole;
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

/* Where multi-section tensor k goes: the highest top of its sections (its
 * lo, set by filler_search at each node), lifted by alignment steps until
 * every hole below it is a sum of its section's singles; UINT64_MAX when
 * some section's holes would pass its singles or k would pass cap. */
static uint64_t lift(const struct run *r, uint32_t k, uint64_t cap)
{
    const struct work *w = r->w;
    uint64_t base = w->lo[k], most = FILLER_LIFT * r->step;
    for (uint64_t lo = base; lo <= cap && w->size[k] <= cap - lo && lo - base <= most;
         lo += r->step) {
        int fits = 1;
        for (uint32_t x = w->s0[k]; x < w->s1[k] && fits; x++) {
            if (w->hole_bytes[x] + (lo - w->top[x]) > w->single_bytes[x])
                return UINT64_MAX;
            fits = sums_to(w, x, lo - w->top[x]);
        }
        if (fits)
            return lo;
    }
    return UINT64_MAX;
}

/* Decision search at cap, by the filler rule above. FOUND or LIMITED
 * (budget, or the tree ran out: no proof). */
enum outcome arena_optimal_filler_search(struct run *r, uint64_t cap, unsigned h, unsigned round,
                                         uint64_t budget, struct arena_plan *plan)
{
    struct work *w = r->w;
    size_t m = r->m, S = r->S;
    arena_optimal_part_reset(r);
    arena_optimal_rank_by(r, h, round);
    uint64_t *top = w->top, *used = w->hole_bytes, *at = w->lift_at;
    memset(top, 0, S * sizeof *top);
    memset(used, 0, S * sizeof *used);
    memset(w->single_bytes, 0, S * sizeof *w->single_bytes);
    for (uint32_t k = 0; k < m; k++)
        if (is_single(w, k))
            w->single_bytes[w->s0[k]] += w->size[k];
    long multis = prepare(r);
    if (multis < 0 || (size_t)multis == m) /* bits too many, or no singles */
        return LIMITED;
    size_t nm = (size_t)multis;
    for (size_t i = 0; i < nm; i++) /* filler_fits keeps them sorted by release */
        w->multi_ord[i] = w->multi[i];
    uint64_t spent = 0;
    size_t d = 0;
    struct key thr = {0, NONE};
    for (;;) {
        assert(d <= nm);
        if (d == nm) {
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
        for (size_t i = 0; i < nm; i++) {
            uint32_t k = w->multi[i];
            if (w->off[k] == UNPLACED) {
                w->lo[k] = span_floor(w, top, k); /* lift, dominance and fits read it */
                at[k] = lift(r, k, cap);
            }
        }
        uint64_t min_height = arena_optimal_filler_dominance_height(r, nm);
        uint32_t c = NONE;
        int alive = d == nm || arena_optimal_filler_fits(r, nm, &thr, cap);
        for (size_t i = 0; alive && i < nm && d < nm; i++) {
            uint32_t k = w->multi[i];
            if (w->off[k] != UNPLACED || at[k] == UINT64_MAX || at[k] >= min_height ||
                !key_after(at[k], w->rank[k], &thr) || arena_optimal_twin_forbids(r, k))
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
                for (size_t i = 0; i < nm; i++) {
                    uint32_t k = w->multi[i];
                    if (w->off[k] != UNPLACED && w->s0[k] <= x && x < w->s1[k])
                        t = max_u64(t, w->off[k] + w->size[k]);
                }
                assert(used[x] >= b - t);
                used[x] -= b - t;
                top[x] = t;
            }
            thr.lo = b;
            thr.rank = w->rank[back];
            continue;
        }
        if (spent >= budget || arena_optimal_spend_node(r))
            return LIMITED;
        spent++;
        uint64_t lo = at[c];
        for (uint32_t x = w->s0[c]; x < w->s1[c]; x++) {
            assert(lo >= top[x]);
            used[x] += lo - top[x];
            top[x] = lo + w->size[c];
            assert(used[x] <= w->single_bytes[x]);
        }
        w->off[c] = lo;
        w->frames[d++].pick = c;
        thr.lo = lo;
        thr.rank = w->rank[c];
    }
    return arena_optimal_keep_plan(r, plan);
}
