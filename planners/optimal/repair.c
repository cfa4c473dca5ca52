/* repair.c — large-neighbourhood search (Shaw, CP '98) from the part's best
 * plan P: keep part of P, search the rest. On parts with slack the
 * minimising search stops a few per cent above the bound with a plan near
 * it; repairing P finds plans the search from scratch misses. Finds plans,
 * proves nothing: it searches a restriction of the problem, so running out
 * of a neighbourhood says nothing about the part (repair_search never
 * answers EXHAUSTED, and solve_part takes only its plans).
 *
 * - Neighbourhood: the tensors set free; the others stay where P put them
 *   (fixed: placed, never taken back). Seeds: every tensor at or above a
 *   cut y0, every one ending above the capacity, and (time windows) every
 *   one whose lifetime meets the sections where P rises above the capacity,
 *   widened by a few sections a side. Of the rest only a hole-free floor of
 *   P stays fixed: a tensor whose sections are not covered, under it, by
 *   fixed tensors is freed too. So (1) in every conflict the fixed tensor
 *   lies below the free one and P completes the root (the neighbourhood
 *   holds P), (2) the fixed tensors waste no byte below them (a prefix of P
 *   by offset, tried first, kept its holes: in sections carrying 95-100 %
 *   of the bound any hole below the cut left the neighbourhood without a
 *   plan at the bound, refused at its root by the section inference).
 *                                                        free_closed()
 * - Search: the canonical search over the free tensors, each one's lo
 *   starting at the highest end of the fixed tensors it conflicts with. A
 *   gravity plan of the free tensors above the fixed ones sits at those
 *   heights or on one another, so canonical order stays complete for the
 *   restriction, and a free tensor, above every fixed one it meets, cannot
 *   overlap one. The rules hold for the restriction (section inference,
 *   dominance and twins reason over the unplaced tensors alone; a fixed
 *   tensor cannot swap, so it takes no part in the stack rule).
 *                                        fix_rest(), canonical_descend()
 * - Schedule within one call: each neighbourhood (cuts y0 = cap - cap/8
 *   down to cap/4, then the time windows) is searched at the capacity, then
 *   one step below the best plan, again at every plan found (the
 *   neighbourhood moves with the plan), each search with a share of the
 *   budget.                                                repair_search()
 */
#include "planners/optimal/internal.h"

/* Cuts: y0 = cap - j x cap / CUTS for j = CUT_FROM .. CUT_TO. */
#define CUTS 8u
#define CUT_FROM 1u
#define CUT_TO 6u
/* Time windows: the hot sections widened by these many sections a side. */
static const uint32_t window_pad[] = {1, 3, 8, 16};

static uint64_t plan_off(const struct run *r, const struct arena_plan *plan, uint32_t k)
{
    return plan->offsets[r->pid[k]];
}

#ifndef NDEBUG
/* k and j (distinct positions) are live at one step. */
static int conflict(const struct work *w, uint32_t k, uint32_t j)
{
    return w->first[k] <= w->last[j] && w->first[j] <= w->last[k];
}
#endif

/* Keeps fixed only a hole-free floor of P: taking the tensors by
 * increasing offset in P, a tensor not seeded free stays fixed only when,
 * in every section it spans, the fixed tensors already cover every byte
 * below it (level[x], in w->top, their height there). So the fixed tensors
 * waste no byte, and in every conflict the fixed tensor lies below the
 * free one (a free tensor in section x stops level[x] at its offset for
 * good, so nothing above it in x stays fixed): P completes the root.
 * Returns how many are free. */
static size_t free_closed(struct run *r, const struct arena_plan *plan)
{
    struct work *w = r->w;
    size_t m = r->m, count = 0;
    for (uint32_t k = 0; k < m; k++) {
        w->key[k] = plan_off(r, plan, k);
        w->idx[k] = k;
    }
    arena_optimal_sort_by(w, m);
    for (size_t x = 0; x < r->S; x++)
        w->top[x] = 0;
    for (size_t i = 0; i < m; i++) {
        uint32_t k = w->idx[i];
        uint64_t at = plan_off(r, plan, k);
        for (uint32_t s = w->s0[k]; s < w->s1[k] && !w->freed[k]; s++)
            w->freed[k] = w->top[s] != at;
        if (w->freed[k]) {
            count++;
            continue;
        }
        for (uint32_t s = w->s0[k]; s < w->s1[k]; s++)
            w->top[s] = at + w->size[k];
    }
    arena_optimal_spend_work(r, r->node_cost);
    return count;
}

/* The root of the restricted search: the tensors not free placed where P
 * has them, the free ones unplaced with lo the highest end of the fixed
 * tensors they conflict with; rem the free bytes. Ranks by preorder h. */
static void fix_rest(struct run *r, const struct arena_plan *plan, unsigned h, unsigned round)
{
    struct work *w = r->w;
    size_t m = r->m;
    arena_optimal_part_reset(r);
    arena_optimal_rank_by(r, h, round);
    for (uint32_t k = 0; k < m; k++) {
        if (w->freed[k])
            continue;
        w->off[k] = plan_off(r, plan, k);
        w->fixed[k] = 1;
        for (uint32_t s = w->s0[k]; s < w->s1[k]; s++)
            w->rem[s] -= w->size[k];
    }
    for (uint32_t k = 0; k < m; k++) {
        if (!w->fixed[k])
            continue;
        uint64_t top = w->off[k] + w->size[k];
        for (uint32_t j = k + 1; j < w->fwd_end[k]; j++)
            if (!w->fixed[j] && w->lo[j] < top)
                w->lo[j] = top;
        for (uint32_t j = k; j-- > 0;)
            if (w->last[j] >= w->first[k] && !w->fixed[j] && w->lo[j] < top)
                w->lo[j] = top;
    }
#ifndef NDEBUG
    for (uint32_t k = 0; k < m; k++) /* upward closed: P completes the root */
        if (!w->fixed[k])
            assert(w->lo[k] <= plan_off(r, plan, k));
    for (uint32_t k = 0; k < m; k++)
        for (uint32_t j = k + 1; j < w->fwd_end[k]; j++)
            assert(!conflict(w, k, j) || !w->fixed[k] || !w->fixed[j] ||
                   w->off[k] + w->size[k] <= w->off[j] || w->off[j] + w->size[j] <= w->off[k]);
#endif
    arena_optimal_spend_work(r, (uint64_t)m * m / 4 + m);
}

/* Seeds freed[]: tensors ending above cap in P, those at or above y0, and
 * (pad != NONE) those meeting a section where P rises above cap, widened
 * by pad sections a side. */
static void seed(struct run *r, const struct arena_plan *plan, uint64_t cap, uint64_t y0,
                 uint32_t pad)
{
    struct work *w = r->w;
    size_t m = r->m, S = r->S;
    if (pad != NONE) {
        /* acc[x]: P's highest end over section x */
        for (size_t x = 0; x < S; x++)
            w->acc[x] = 0;
        for (uint32_t k = 0; k < m; k++) {
            uint64_t end = plan_off(r, plan, k) + w->size[k];
            for (uint32_t s = w->s0[k]; s < w->s1[k]; s++)
                w->acc[s] = max_u64(w->acc[s], end);
        }
    }
    for (uint32_t k = 0; k < m; k++) {
        uint64_t at = plan_off(r, plan, k);
        int f = at >= y0 || at + w->size[k] > cap;
        if (!f && pad != NONE) {
            uint32_t a = w->s0[k] > pad ? w->s0[k] - pad : 0;
            uint32_t b = w->s1[k] + pad < S ? w->s1[k] + pad : (uint32_t)S;
            for (uint32_t s = a; s < b && !f; s++)
                f = w->acc[s] > cap;
        }
        w->freed[k] = (unsigned char)f;
    }
}

/* Searches neighbourhoods of the part's best plan (in plan->offsets,
 * arena r->part_arena > cap) for a plan within cap: FOUND (kept by
 * keep_plan) or LIMITED (none found in the budget, split between the
 * neighbourhoods; nothing proven). */
enum outcome arena_optimal_repair_search(struct run *r, uint64_t cap, unsigned round,
                                         uint64_t budget, struct arena_plan *plan)
{
    size_t hoods = (CUT_TO - CUT_FROM + 1) + sizeof window_pad / sizeof window_pad[0];
    uint64_t share = budget / hoods > 16 ? budget / hoods : 16;
    size_t last_count = 0;
    unsigned tries = 0;
    assert(r->part_arena > cap);
    for (size_t i = 0; i < hoods && !r->stopped; i++) {
        uint64_t y0;
        uint32_t pad = NONE;
        if (i <= CUT_TO - CUT_FROM) {
            y0 = cap - cap / CUTS * (CUT_FROM + i);
        } else {
            y0 = cap - cap / CUTS * CUT_FROM;
            pad = window_pad[i - (CUT_TO - CUT_FROM + 1)];
            if (i == CUT_TO - CUT_FROM + 1)
                last_count = 0; /* a new family: not nested in the cuts */
        }
        /* at the target, then one step below the best plan, again at
         * every plan found (the neighbourhood moves with it) */
        int at_target = 1;
        while (!r->stopped) {
            uint64_t c = at_target ? cap : r->part_arena - r->step;
            seed(r, plan, c, y0 < c ? y0 : c, pad);
            size_t count = free_closed(r, plan);
            if (count == r->m || (at_target && count == last_count))
                break; /* the whole search, or the same as the last one */
            if (at_target)
                last_count = count;
            fix_rest(r, plan, (round + tries++) % HEURISTICS, round);
            enum outcome o = arena_optimal_canonical_descend(r, c, share, DISC_ANY, plan);
            if (r->part_arena <= cap)
                return FOUND;
            if (o != FOUND && !at_target)
                break;
            at_target = 0;
        }
    }
    return LIMITED;
}
