/* graph.c — the orientations Z3 has asserted, as a graph over the part's
 * tensors ("a lies below b": an edge a -> b of weight size a), with the
 * longest chains kept incrementally: head[k], the sizes of the longest
 * chain below k (no plan puts k lower), and tail[k], k's size and the
 * longest chain above it (none puts k higher than C - tail[k]). A new
 * edge raises heads forward and tails backward, each change on a trail;
 * Z3's pop undoes the trail to its push. A tensor with head + tail above
 * the capacity is a conflict; its explanation is the two chains, walked
 * through the links (head_by, tail_by) each raise left.
 *
 * Why a walk explains: when head[b] was set from a, head[b] = head[a] +
 * z[a], and head[a] has only grown since, so the chain the links give sums
 * to at least head[b] (by induction down to a tensor without a link,
 * whose head is 0). A link loop means a cycle of "below" among the edges,
 * which no plan has: the walk stops there, and the edges still explain.
 * With rule lcg-energy a head (tail) may also be raised to the sizes known
 * below (above) the tensor in one section (energy.c); its link names the
 * section, and the walk ends there with those tensors' edges. With the
 * static domains (domains.c) each raised value is rounded up in its
 * tensor's domain: the same induction holds with the sums rounded at every
 * tensor, as the lemma checker computes them. */
#include <stdlib.h>
#include <string.h>

#include "planners/optimal/lcg/session.h"

static int trail_grow(struct arena_lcg *s)
{
    if (s->trail_len < s->trail_cap)
        return 0;
    size_t cap = s->trail_cap ? 2 * s->trail_cap : 1024;
    struct lcg_undo *t = realloc(s->trail, cap * sizeof *t);
    if (t == NULL)
        return -1;
    s->trail = t;
    s->trail_cap = cap;
    return 0;
}

static int log_undo(struct arena_lcg *s, uint32_t kind, uint32_t what, uint64_t old, uint32_t by)
{
    if (trail_grow(s) != 0)
        return -1;
    s->trail[s->trail_len++] = (struct lcg_undo){.old = old, .what = what, .by = by, .kind = kind};
    return 0;
}

/* The tensor pair p's orientation puts below. */
static uint32_t lower_of(const struct arena_lcg *s, uint32_t p, unsigned char orient)
{
    return orient == LOW_BELOW ? s->pair_lo[p] : s->pair_hi[p];
}

int arena_lcg_graph_record(struct arena_lcg *s, uint32_t p, unsigned char orient)
{
    if (log_undo(s, UNDO_PAIR, p, OPEN, NONE) != 0)
        return -1;
    s->state[p] = orient;
    uint32_t a = lower_of(s, p, orient);
    arena_lcg_energy_edge(s, a, s->pair_lo[p] ^ s->pair_hi[p] ^ a, +1);
    return 0;
}

int arena_lcg_graph_forced(struct arena_lcg *s, uint32_t p)
{
    if (log_undo(s, UNDO_FORCED, p, 0, NONE) != 0)
        return -1;
    s->forced[p] = 1;
    return 0;
}

/* Marks k's head (side 0) or tail (side 1) as risen in this update. */
static void rose(struct arena_lcg *s, uint32_t k, unsigned side)
{
    if (s->stamp[k] != s->epoch) { /* first change of k in this update */
        s->stamp[k] = s->epoch;
        s->queued[k] = 0;
    }
    if (!(s->queued[k] & (4u << side))) {
        s->queued[k] |= 4u << side;
        s->rose[s->nrose++] = 2 * k + side;
    }
}

/* Raises head (side 0) or tail (side 1) of k to v through link by,
 * rounded by the static domains (rule lcg-domains). */
static int raise_to(struct arena_lcg *s, unsigned side, uint32_t k, uint64_t v, uint32_t by)
{
    uint64_t *val = side ? s->tail : s->head;
    uint32_t *link = side ? s->tail_by : s->head_by;
    if (log_undo(s, side ? UNDO_TAIL : UNDO_HEAD, k, val[k], link[k]) != 0)
        return -1;
    val[k] = lcg_rounded(s, side, k, v);
    link[k] = by;
    rose(s, k, side);
    return 0;
}

/* Passes raised values on, from the nodes on the stack: heads upward
 * (side 0), tails downward (side 1). Returns NONE or a tensor over the
 * capacity. */
static uint32_t spread(struct arena_lcg *s, unsigned side, size_t top, int *oom)
{
    while (top > 0) {
        uint32_t u = s->stack[--top];
        s->queued[u] &= (unsigned char)~1u;
        for (uint32_t e = s->nb_at[u]; e < s->nb_at[u + 1]; e++) {
            uint32_t v = s->nb[e], p = s->nb_pair[e];
            /* side 0: edge u -> v (u below v); side 1: edge v -> u */
            if (s->state[p] != lcg_orient(s, p, side ? v : u))
                continue;
            uint64_t cand = side ? s->z[v] + s->tail[u] : s->head[u] + s->z[u];
            uint64_t *val = side ? s->tail : s->head;
            if (cand <= val[v])
                continue;
            if (raise_to(s, side, v, cand, u) != 0) {
                *oom = -1;
                return NONE;
            }
            if (s->head[v] + s->tail[v] > s->cap)
                return v;
            if (!(s->queued[v] & 1u)) {
                s->queued[v] |= 1u;
                s->stack[top++] = v;
            }
        }
    }
    return NONE;
}

/* Clears the stack flags left by an update stopped midway. */
static void unqueue(struct arena_lcg *s)
{
    for (uint32_t i = 0; i < s->nrose; i++)
        s->queued[s->rose[i] >> 1] &= (unsigned char)~1u;
}

uint32_t arena_lcg_graph_assert(struct arena_lcg *s, uint32_t p, uint32_t a, uint32_t b, int *oom)
{
    *oom = 0;
    s->nrose = 0;
    s->epoch++;
    if (arena_lcg_graph_record(s, p, lcg_orient(s, p, a)) != 0) {
        *oom = -1;
        return NONE;
    }
    uint32_t bad = NONE, link = a;
    uint64_t v = s->head[a] + s->z[a], e = arena_lcg_energy_bound(s, 0, a, b, &link);
    if (e > v)
        v = e; /* link: the section */
    else
        link = a;
    if (v > s->head[b]) {
        if (raise_to(s, 0, b, v, link) != 0) {
            *oom = -1;
            return NONE;
        }
        if (s->head[b] + s->tail[b] > s->cap)
            return b;
        s->queued[b] |= 1u;
        s->stack[0] = b;
        bad = spread(s, 0, 1, oom);
    }
    link = b;
    v = s->z[a] + s->tail[b];
    e = arena_lcg_energy_bound(s, 1, a, b, &link);
    if (e > v)
        v = e;
    else
        link = b;
    if (bad == NONE && !*oom && v > s->tail[a]) {
        if (raise_to(s, 1, a, v, link) != 0) {
            *oom = -1;
            return NONE;
        }
        if (s->head[a] + s->tail[a] > s->cap)
            bad = a;
        else {
            s->queued[a] |= 1u;
            s->stack[0] = a;
            bad = spread(s, 1, 1, oom);
        }
    }
    if (bad != NONE || *oom)
        unqueue(s);
    return bad;
}

void arena_lcg_graph_push(struct arena_lcg *s, int *oom)
{
    *oom = 0;
    if (s->scopes == s->scope_cap) {
        size_t cap = s->scope_cap ? 2 * s->scope_cap : 256;
        size_t *t = realloc(s->scope_at, cap * sizeof *t);
        if (t == NULL) {
            *oom = -1;
            return;
        }
        s->scope_at = t;
        s->scope_cap = cap;
    }
    s->scope_at[s->scopes++] = s->trail_len;
}

void arena_lcg_graph_pop(struct arena_lcg *s, unsigned scopes)
{
    assert(scopes <= s->scopes);
    s->scopes -= scopes;
    size_t to = s->scope_at[s->scopes];
    while (s->trail_len > to) {
        const struct lcg_undo *u = &s->trail[--s->trail_len];
        if (u->kind == UNDO_PAIR) {
            uint32_t p = u->what, a = lower_of(s, p, s->state[p]);
            arena_lcg_energy_edge(s, a, s->pair_lo[p] ^ s->pair_hi[p] ^ a, -1);
            s->state[p] = OPEN;
        } else if (u->kind == UNDO_FORCED) {
            s->forced[u->what] = 0;
        } else if (u->kind == UNDO_HEAD) {
            s->head[u->what] = u->old;
            s->head_by[u->what] = u->by;
        } else {
            s->tail[u->what] = u->old;
            s->tail_by[u->what] = u->by;
        }
    }
}

/* The pair of positions a and b (a != b, their lifetimes meet). */
static uint32_t pair_of(const struct arena_lcg *s, uint32_t a, uint32_t b)
{
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    return s->pair_at[lo] + hi - lo - 1;
}

/* Appends the edge "a below b" (its term id) to the explanation. */
static uint32_t add_edge(struct arena_lcg *s, uint32_t n, uint32_t a, uint32_t b)
{
    s->expl[n] = pair_of(s, a, b);
    s->elo[n] = a;
    s->ehi[n] = b;
    return n + 1;
}

/* Appends u's head chain (down from u), ending at a tensor without a
 * link, a cycle, or a section's tensors. */
static uint32_t head_walk(struct arena_lcg *s, uint32_t n, uint32_t u)
{
    for (uint32_t k = u; s->head_by[k] != NONE;) {
        uint32_t a = s->head_by[k];
        if (a & ENERGY) /* a section's tensors below k: the chain ends */
            return arena_lcg_energy_explain(s, n, 0, k, a & ~ENERGY);
        n = add_edge(s, n, a, k);
        if (s->stamp[a] == s->epoch)
            break; /* a cycle */
        s->stamp[a] = s->epoch;
        k = a;
    }
    return n;
}

/* Appends v's tail chain (up from v), likewise. */
static uint32_t tail_walk(struct arena_lcg *s, uint32_t n, uint32_t v)
{
    for (uint32_t k = v; s->tail_by[k] != NONE;) {
        uint32_t b = s->tail_by[k];
        if (b & ENERGY)
            return arena_lcg_energy_explain(s, n, 1, k, b & ~ENERGY);
        n = add_edge(s, n, k, b);
        if (s->stamp[b] == s->epoch)
            break;
        s->stamp[b] = s->epoch;
        k = b;
    }
    return n;
}

uint32_t arena_lcg_graph_explain(struct arena_lcg *s, uint32_t u, uint32_t v)
{
    s->epoch++;
    s->stamp[u] = s->epoch;
    s->stamp[v] = s->epoch;
    uint32_t n = tail_walk(s, head_walk(s, 0, u), v);
    if (u != v) { /* the edge ruled out: an edge for the hook, no term id */
        s->elo[n] = u;
        s->ehi[n] = v;
    }
    return n;
}

uint32_t arena_lcg_graph_explain_section(struct arena_lcg *s, uint32_t k, unsigned side, uint32_t x)
{
    s->epoch++;
    s->stamp[k] = s->epoch;
    if (side)
        return arena_lcg_energy_explain(s, head_walk(s, 0, k), 1, k, x);
    return tail_walk(s, arena_lcg_energy_explain(s, 0, 0, k, x), k);
}
