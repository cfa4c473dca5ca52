/* canonical.c — the canonical search: a decision search for a plan of the
 * current part within cap that places tensors in strictly increasing
 * (lo, rank) order, each at its lo. Some optimal plan is "gravity" (each
 * tensor at 0 or on top of a tensor it conflicts with); sorted by (offset,
 * preorder rank), each of its tensors sits, when its turn comes, at lo =
 * the highest end of the already placed tensors it conflicts with. So this
 * order is complete: depth-first, one tensor per level, with an explicit
 * stack (never recursion), an undo log of lo changes, and the scope split
 * into independent groups whenever the unplaced tensors fall apart.
 *
 * With a preorder over the file's own times, or preorder 2 (r->rerank:
 * ranks_groups()), each group is ranked afresh when its turn comes, 1, 2,
 * ..., by the loads left, and its
 * threshold keeps the split's offset with rank 0: a group's tensors come
 * after the split's node in the whole order, so none sits below that
 * offset, and within the group any order of the keys is complete (the
 * gravity argument holds group by group). The ranks the split replaced come
 * back when it is left, either way, so the levels above keep their order. */
#include <string.h>

#include "planners/optimal/internal.h"

/* Raises lo[k] (unplaced) to top, logging the old value to undo; with
 * the log full, only marks the placement unlogged. */
static void raise_lo(struct work *w, uint32_t k, uint64_t top, uint64_t *log_top,
                     uint32_t *unlogged)
{
    if (*log_top < w->log_cap) {
        w->log_idx[*log_top] = k;
        w->log_old[*log_top] = w->lo[k];
        ++*log_top;
    } else {
        *unlogged = 1;
    }
    w->lo[k] = top;
}

/* Places c at its lo: every unplaced neighbour's lo rises to c's end at
 * least (logged, to undo), and c's bytes leave rem. Sets *unlogged when
 * the log could not hold every change. */
static void place(struct run *r, uint32_t c, uint64_t *log_top, uint32_t *unlogged)
{
    struct work *w = r->w;
    assert(w->off[c] == UNPLACED);
    uint64_t top = w->lo[c] + w->size[c];
    w->off[c] = w->lo[c];
    *unlogged = 0;
    for (uint32_t s = w->s0[c]; s < w->s1[c]; s++) {
        assert(w->rem[s] >= w->size[c]);
        w->rem[s] -= w->size[c];
    }
    for (uint32_t k = c + 1; k < w->fwd_end[c]; k++)
        if (w->off[k] == UNPLACED && w->lo[k] < top)
            raise_lo(w, k, top, log_top, unlogged);
    for (uint32_t k = c; k-- > 0;)
        if (w->last[k] >= w->first[c] && w->off[k] == UNPLACED && w->lo[k] < top)
            raise_lo(w, k, top, log_top, unlogged);
}

/* lo of unplaced k from its definition: the highest end of the placed
 * tensors it conflicts with (0 if none). */
static uint64_t lo_of(const struct work *w, uint32_t k)
{
    uint64_t lo = 0;
    for (uint32_t j = k + 1; j < w->fwd_end[k]; j++)
        if (w->off[j] != UNPLACED)
            lo = max_u64(lo, w->off[j] + w->size[j]);
    for (uint32_t j = k; j-- > 0;)
        if (w->last[j] >= w->first[k] && w->off[j] != UNPLACED)
            lo = max_u64(lo, w->off[j] + w->size[j]);
    return lo;
}

/* Takes back the placement of c made at frame f. An unlogged placement
 * restores what it logged, then recomputes the lo of c's unplaced
 * neighbours (the only ones its placement changed). */
static void unplace(struct run *r, uint32_t c, const struct frame *f, uint64_t *log_top)
{
    struct work *w = r->w;
    assert(w->off[c] != UNPLACED && *log_top >= f->log_start);
    while (*log_top > f->log_start) {
        --*log_top;
        w->lo[w->log_idx[*log_top]] = w->log_old[*log_top];
    }
    for (uint32_t s = w->s0[c]; s < w->s1[c]; s++)
        w->rem[s] += w->size[c];
    w->off[c] = UNPLACED;
    if (f->unlogged) {
        for (uint32_t k = c + 1; k < w->fwd_end[c]; k++)
            if (w->off[k] == UNPLACED)
                w->lo[k] = lo_of(w, k);
        for (uint32_t k = c; k-- > 0;)
            if (w->last[k] >= w->first[c] && w->off[k] == UNPLACED)
                w->lo[k] = lo_of(w, k);
    }
}

/* The next child to try in scope g: the unplaced tensor with the least
 * (lo, rank) after thr, below the dominance height, fitting cap, and
 * allowed by the busiest section and the symmetry rules. NONE if none. */
static uint32_t next_child(struct run *r, const struct group *g, const struct key *thr,
                           uint64_t cap)
{
    struct work *w = r->w;
    uint64_t min_height = arena_optimal_dominance_height(r, g);
    uint32_t at;
    uint64_t busiest = arena_optimal_busiest_section(r, g, &at);
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
        if (arena_optimal_twin_forbids(r, k))
            continue;
        if (arena_optimal_stack_forbids(r, k, lo))
            continue;
        if (best == NONE || lo < w->lo[best] || (lo == w->lo[best] && w->rank[k] < w->rank[best]))
            best = k;
    }
    return best;
}

/* Puts back the ranks split sp saved (its scope's, before its groups were
 * ranked afresh). */
static void restore_ranks(struct run *r, const struct split *sp, const struct group *scope)
{
    struct work *w = r->w;
    if (!sp->reranked)
        return;
    memcpy(w->rank + scope->ka, w->rank_save + sp->save_at,
           (scope->kb - scope->ka) * sizeof *w->rank);
    r->save_top = sp->save_at;
}

/* Group g of split sp becomes the scope: a reranked split ranks it afresh,
 * 1, 2, ..., and its threshold keeps the split's offset with rank 0. */
static void enter_group(struct run *r, const struct split *sp, const struct group *g,
                        struct key *thr)
{
    if (!sp->reranked)
        return;
    arena_optimal_rerank_group(r, g);
    thr->rank = 0;
}

/* Decision search of the current part: a plan with arena <= cap. Whenever
 * the unplaced tensors of the scope fall apart into independent groups, the
 * groups are solved one after the other and a group that has no completion
 * fails the node where they split (no search of the other groups' choices:
 * they cannot help). FOUND writes the plan into plan->offsets when it
 * improves the part; EXHAUSTED: none exists; LIMITED: budget.
 *
 * disc_limit bounds the discrepancies along a path (limited discrepancy
 * search, Harvey and Ginsberg 1995): a node's first child that passes the
 * section inference is the heuristic's choice; each child searched after it
 * counts one. With r->disc_depth set, only nodes above that depth count
 * them, and each subtree rooted at that depth is searched depth first
 * within r->disc_below nodes. Children refused by the bound or a subtree's
 * budget are cut: a tree that runs out after a cut returns CUT, never
 * EXHAUSTED (only a search that cut nothing searched the whole tree).
 * DISC_ANY: plain depth-first search. */
enum outcome arena_optimal_canonical_search(struct run *r, uint64_t cap, unsigned h, unsigned round,
                                            uint64_t budget, uint32_t disc_limit,
                                            struct arena_plan *plan)
{
    arena_optimal_part_reset(r);
    arena_optimal_rank_by(r, h, round);
    r->rank_h = h;
    r->own_times = arena_optimal_own_times(r, h);
    r->rerank = arena_optimal_ranks_groups(r, h);
    enum outcome o = arena_optimal_canonical_descend(r, cap, budget, disc_limit, plan);
    r->own_times = r->rerank = 0;
    return o;
}

/* The search itself, from the state the caller set up: the placed tensors
 * stay (never taken back), lo holds for each unplaced one the highest end
 * of the placed tensors it conflicts with, rem the unplaced bytes, ranks
 * set. From part_reset: the whole search; from repair_search's fixed
 * tensors: the search of the rest above them. */
enum outcome arena_optimal_canonical_descend(struct run *r, uint64_t cap, uint64_t budget,
                                             uint32_t disc_limit, struct arena_plan *plan)
{
    struct work *w = r->w;
    size_t m = r->m;
    uint64_t log_top = 0, spent = 0, sub_start = 0;
    size_t d = 0, nsplit = 0;
    struct key thr = {0, NONE};
    struct group whole = {0, (uint32_t)m, 0, (uint32_t)r->S};
    const struct group *scope = &whole;
    int fresh = 1, cut = 0;
    r->ngroups = 0;
    r->save_top = 0;
    w->frames[0].disc = 0;
    w->frames[0].entered = 0;
    for (;;) {
        assert(d <= m && nsplit <= d + 1);
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
                    enter_group(r, sp, scope, &thr);
                    break;
                }
                r->ngroups = sp->g0;
                nsplit--;
                scope = nsplit ? &w->groups[w->splits[nsplit - 1].g0 + w->splits[nsplit - 1].active]
                               : &whole;
                restore_ranks(r, sp, scope);
            }
            uint32_t ng = arena_optimal_split_scope(r, scope);
            if (ng >= 2 && rule_on(r, ARENA_OPTIMAL_GROUPS)) {
                assert(nsplit < m);
                struct split *sp = &w->splits[nsplit++];
                sp->d = (uint32_t)d;
                sp->thr = thr;
                sp->g0 = r->ngroups;
                sp->ngroups = ng;
                sp->active = 0;
                sp->group_start = (uint32_t)d;
                sp->reranked = 0;
                size_t width = scope->kb - scope->ka;
                if (r->rerank && r->save_top + width <= w->rank_save_cap) {
                    sp->reranked = 1;
                    sp->save_at = (uint32_t)r->save_top;
                    memcpy(w->rank_save + r->save_top, w->rank + scope->ka, width * sizeof *w->rank);
                    r->save_top += width;
                }
                r->ngroups += ng;
                scope = &w->groups[sp->g0];
                enter_group(r, sp, scope, &thr);
            }
        }
        uint32_t c = next_child(r, scope, &thr, cap);
        if (c != NONE && r->disc_depth != 0 && d >= r->disc_depth) {
            if (spent - sub_start >= r->disc_below) {
                c = NONE; /* the subtree below the top levels spent its nodes: cut */
                cut = 1;
            }
        } else if (c != NONE && w->frames[d].entered && w->frames[d].disc >= disc_limit) {
            c = NONE; /* a discrepancy too many: cut */
            cut = 1;
        }
        if (c == NONE) {
            /* this node has failed: back up one level, or out of a group
             * that failed at its root together with the node that split */
            for (;;) {
                if (nsplit > 0 && d == w->splits[nsplit - 1].group_start) {
                    struct split *sp = &w->splits[nsplit - 1];
                    while (d > sp->d) {
                        d--;
                        unplace(r, w->frames[d].pick, &w->frames[d], &log_top);
                    }
                    r->ngroups = sp->g0;
                    nsplit--;
                    scope = nsplit ? &w->groups[w->splits[nsplit - 1].g0 +
                                                w->splits[nsplit - 1].active]
                                   : &whole;
                    restore_ranks(r, sp, scope);
                    continue;
                }
                if (d == 0) /* a budget that stopped sections_fit proves nothing,
                               nor does a tree the discrepancy limit cut */
                    return r->stopped ? LIMITED : cut ? CUT : EXHAUSTED;
                d--;
                uint32_t back = w->frames[d].pick;
                thr.lo = w->off[back];
                thr.rank = w->rank[back];
                unplace(r, back, &w->frames[d], &log_top);
                break;
            }
            continue;
        }
        if (spent >= budget || arena_optimal_spend_node(r))
            return LIMITED;
        spent++;
        uint64_t at = w->lo[c];
        assert(key_after(at, w->rank[c], &thr) && at + w->size[c] <= cap);
        w->frames[d].pick = c;
        w->frames[d].log_start = log_top;
        place(r, c, &log_top, &w->frames[d].unlogged);
        thr.lo = at;
        thr.rank = w->rank[c];
        if (d + 1 < m && !arena_optimal_sections_fit(r, scope, &thr, cap)) {
            unplace(r, c, &w->frames[d], &log_top);
            continue;
        }
        uint32_t disc = w->frames[d].disc + w->frames[d].entered;
        w->frames[d].entered = 1;
        d++;
        if (d == r->disc_depth)
            sub_start = spent; /* a subtree below the top levels starts */
        if (d < m) {
            w->frames[d].disc = disc;
            w->frames[d].entered = 0;
        }
        fresh = 1;
    }
solved:
    return arena_optimal_keep_plan(r, plan);
}

/* Discrepancy searches at cap with preorder h, limits 0, 1, 2, ..., each a
 * fresh tree, sharing budget nodes: FOUND; EXHAUSTED only from a search
 * that cut nothing (it was the whole tree); otherwise LIMITED. depth 0:
 * discrepancies counted at every level (limited discrepancy search);
 * otherwise on the top depth levels only, each subtree below searched
 * depth first within below nodes. */
static enum outcome discrepancy_trees(struct run *r, uint64_t cap, unsigned h, unsigned round,
                                      uint64_t budget, uint32_t depth, uint64_t below,
                                      struct arena_plan *plan)
{
    uint64_t before = r->nodes;
    for (uint32_t limit = 0;; limit++) {
        uint64_t used = r->nodes - before;
        if (used >= budget || r->stopped)
            return LIMITED;
        r->disc_depth = depth;
        r->disc_below = below;
        enum outcome o =
            arena_optimal_canonical_search(r, cap, h, round, budget - used, limit, plan);
        r->disc_depth = 0;
        r->disc_below = 0;
        if (o != CUT)
            return o;
    }
}

/* Before a depth-first decision run at cap with preorder h: limited
 * discrepancy search, then (rule depth-discrepancy) with the second half
 * of the budget the depth-bounded discrepancy search: discrepancies on the
 * top DISC_TOP levels only, each subtree below searched depth first within
 * DISC_BELOW nodes. The first finds a few wrong choices anywhere on a path
 * whose other choices the heuristic gets right; the second, wrong choices
 * near the root together with a local repair deep down (measured on
 * exact-slack: docs/optimal.md, Limited discrepancy search). Proves only from a
 * tree that cut nothing. */
enum outcome arena_optimal_discrepancy_search(struct run *r, uint64_t cap, unsigned h,
                                              unsigned round, uint64_t budget,
                                              struct arena_plan *plan)
{
    if (!rule_on(r, ARENA_OPTIMAL_DEPTH_DISCREPANCY))
        return discrepancy_trees(r, cap, h, round, budget, 0, 0, plan);
    uint64_t half = budget / 2;
    enum outcome o = discrepancy_trees(r, cap, h, round, half, 0, 0, plan);
    if (o != LIMITED || r->stopped)
        return o;
    return discrepancy_trees(r, cap, h, round, budget - half, DISC_TOP, DISC_BELOW, plan);
}
