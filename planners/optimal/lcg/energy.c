/* energy.c — energetic reasoning per elementary section (rule lcg-energy):
 * the tensors alive in one section pairwise meet in time, so in any plan
 * they lie apart, and those of them known to lie below a tensor k are
 * stacked below it whatever their order: k's offset is at least the sum
 * of their sizes. Likewise above: k's size and the sizes of those known
 * above it fit under the capacity. The longest chain (graph.c) gives as
 * much only once the pairs among them are fixed; this gives it before,
 * from the orientations to k alone.
 *
 * Kept per tensor and section it spans: below[k][x] and above[k][x], the
 * sizes of the tensors known below (above) k alive in x. An edge a -> b
 * adds a's size to b's sums and b's size to a's over the sections the two
 * share, when it is recorded; Z3's pop takes it out again (graph.c), so the
 * sums are always those of the edges now held. A sum larger than a head
 * (or tail) raises it with the link ENERGY | x; the explanation is then
 * the edges of that section's tensors to k, whose sizes sum to at least
 * the value raised (edges are only added until the pop that undoes the
 * raise first): the same induction as the chains'. Cost: the sections
 * the two share, per edge and per undo. */
#include "planners/optimal/lcg/session.h"

void arena_lcg_energy_shared(const struct arena_lcg *s, uint32_t a, uint32_t b, uint32_t *x0,
                             uint32_t *x1)
{
    *x0 = s->s0[a] > s->s0[b] ? s->s0[a] : s->s0[b];
    *x1 = s->s1[a] < s->s1[b] ? s->s1[a] : s->s1[b];
}

void arena_lcg_energy_edge(struct arena_lcg *s, uint32_t a, uint32_t b, int sign)
{
    if (!s->energetic)
        return;
    uint32_t x0, x1;
    arena_lcg_energy_shared(s, a, b, &x0, &x1);
    uint64_t *bel = s->below + s->sec_at[b] - s->s0[b];
    uint64_t *abv = s->above + s->sec_at[a] - s->s0[a];
    /* modular: a sign of -1 takes back exactly what +1 added */
    uint64_t za = sign > 0 ? s->z[a] : -s->z[a], zb = sign > 0 ? s->z[b] : -s->z[b];
    for (uint32_t x = x0; x < x1; x++) {
        bel[x] += za;
        abv[x] += zb;
    }
}

uint64_t arena_lcg_energy_peak(const struct arena_lcg *s, unsigned side, uint32_t k, uint32_t x0,
                               uint32_t x1, uint32_t *link)
{
    const uint64_t *sum = (side ? s->above : s->below) + s->sec_at[k] - s->s0[k];
    uint64_t best = 0;
    for (uint32_t x = x0; x < x1; x++)
        if (sum[x] > best) {
            best = sum[x];
            *link = ENERGY | x;
        }
    return best;
}

uint64_t arena_lcg_energy_bound(const struct arena_lcg *s, unsigned side, uint32_t a, uint32_t b,
                                uint32_t *link)
{
    if (!s->energetic)
        return 0;
    uint32_t x0, x1;
    arena_lcg_energy_shared(s, a, b, &x0, &x1);
    uint64_t best = arena_lcg_energy_peak(s, side, side ? a : b, x0, x1, link);
    return side ? s->z[a] + best : best;
}

uint32_t arena_lcg_energy_explain(struct arena_lcg *s, uint32_t n, unsigned side, uint32_t k,
                                  uint32_t x)
{
    for (uint32_t e = s->nb_at[k]; e < s->nb_at[k + 1]; e++) {
        uint32_t a = s->nb[e], p = s->nb_pair[e];
        if (s->s0[a] > x || x >= s->s1[a])
            continue;
        if (s->state[p] != lcg_orient(s, p, side ? k : a))
            continue;
        s->expl[n] = p;
        s->elo[n] = side ? k : a;
        s->ehi[n] = side ? a : k;
        n++;
    }
    return n;
}
