/* domains.c — the static subset-sum domains of the lcg engine (rule
 * lcg-domains): each tensor's offsets that some plan within the solver's
 * top T (units, at opening) may use, computed once as the SAT engine's
 * (rule sat-domains, sat/domains.c): at each step of k's lifetime the
 * tensors live there lie one above another, so o_k lies within the slack
 * of that section of a sum of a subset of its other tensors. graph.c rounds
 * every head up to the least offset of k's domain at or above it, and
 * every tail's gap above k's top the same way; propagator.c compares
 * rounded values with the capacity.
 *
 * Why the gap is rounded in the same set: at a capacity C, the window of
 * section x, [B, B + C - L_x] for B a subset sum of the others, mirrors
 * (o -> C - z_k - o) onto [A, A + C - L_x] with A = L_x - z_k - B, the sum
 * of the complementary subset: the domain at C is its own mirror, so the
 * gap above k's top, C - o_k - z_k, lies in it too.
 *
 * Why a lowered top keeps them (arena_lcg_lower_top): a plan within
 * C <= T is within T, and its offsets and gaps lie in the domains at C,
 * which are inside those at T (each window only narrows as C drops). So
 * they are computed again at the lowered top, narrower: the heads and
 * tails already raised stay true bounds (rounded in wider sets), and the
 * clauses learnt hold below. An explanation is checked against the
 * domains of the top at the time: values rounded in wider domains earlier
 * are at most what the narrower ones give.
 *
 * Why explanations need no literal for them: the domains hold in every
 * plan within the top, so "these chains, rounded at every tensor, pass
 * the capacity" rules out the chains' orientations in every plan; the
 * clause Z3 learns is the same set of "below" literals as without the
 * rounding, and it holds at every lower capacity (above). The lemma
 * checker of tests/test_optimal_lcg.c recomputes the domains its own way
 * (a count of subsets per section, one tensor taken out at a time) and
 * the rounded chains along each explanation. */
#include <stdlib.h>
#include <string.h>

#include "planners/optimal/lcg/session.h"
#include "planners/optimal/sat/sat.h"

/* The domains at top T (units) into s->dom (allocated when NULL, at
 * least T / 64 + 1 words a tensor). 0, or -1 when a budget or memory ran
 * out (then s->dom is freed: no rounding from there on). */
static int narrow_at(struct arena_lcg *s, struct run *r, uint64_t T)
{
    const struct work *w = r->w;
    size_t words = (size_t)(T / 64 + 1);
    if (s->dom == NULL)
        s->dom = malloc((s->m ? s->m : 1) * words * sizeof *s->dom);
    if (s->dom == NULL)
        return -1;
    struct sat_inst in = {.m = s->m, .S = (uint32_t)r->S, .z = s->z, .first = w->first,
                          .last = w->last, .s0 = w->s0, .s1 = w->s1, .fwd_end = w->fwd_end};
    int rc = arena_sat_domains(r, &in, T, s->dom, words, 1);
    if (rc < 0) {
        free(s->dom);
        s->dom = NULL;
        return -1;
    }
    s->none = rc > 0; /* some domain empty: no plan within T at all */
    s->dom_words = words;
    s->dom_top = T;
    return 0;
}

void arena_lcg_domains_open(struct arena_lcg *s, struct run *r)
{
    uint64_t T = s->cap;
    s->dom = NULL;
    s->none = 0;
    if (rule_on(r, ARENA_OPTIMAL_LCG_DOMAINS) && T < (uint64_t)1 << 31 &&
        (uint64_t)s->m * (T / 64 + 1) * sizeof(uint64_t) <= LCG_DOMAIN_BYTES)
        narrow_at(s, r, T); /* without them the engine is exact still, only weaker */
}

void arena_lcg_domains_lower(struct arena_lcg *s)
{
    if (s->dom != NULL && s->cap < s->dom_top)
        narrow_at(s, s->r, s->cap);
}

uint64_t arena_lcg_domain_up(const struct arena_lcg *s, uint32_t k, uint64_t v)
{
    if (v > s->dom_top)
        return s->dom_top + 1;
    const uint64_t *d = s->dom + (size_t)k * s->dom_words;
    size_t i = (size_t)(v / 64);
    uint64_t bits = d[i] & (~0ull << (v % 64));
    while (bits == 0) {
        if (++i == s->dom_words)
            return s->dom_top + 1;
        bits = d[i];
    }
    uint64_t up = (uint64_t)i * 64 + (uint64_t)__builtin_ctzll(bits);
    return up <= s->dom_top ? up : s->dom_top + 1;
}
