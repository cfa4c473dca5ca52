/* share.c — the portfolio's adaptive share (rule adaptive-share): how much
 * of a part's CPU each member (the search, the lcg engine, the SAT engine)
 * has in the next round, from what its own rounds on the part achieved.
 *
 * A member's weight is 2^-slow: 1 to start with; after its round on the
 * part it doubles if the round made progress (a better plan, a raised
 * proven bound, a proof) and halves if not, never below 2^-SHARE_FLOOR
 * (no member starves). The search's round sets the pace (its node budget
 * doubles each round); each other member then has the search's round's
 * CPU times its weight over the search's: from 1/8 of it to 8 times it.
 * So a search that stalls (no better plan for rounds) cedes its time to
 * the engines, and one that keeps improving its plan keeps it; members
 * that all stall share alike. Counted per part, in integers (powers of
 * two), so a run with a node limit stays deterministic. The weights were
 * chosen from traces of the rounds (docs/optimal-sat.md, The portfolio):
 * on exact-slack the engines' progress is a proof, seldom a plan, while
 * the search's plans improve in its first rounds and then stall. */
#include "planners/optimal/internal.h"

void arena_optimal_share_note(struct part_state *st, enum member m, int progress)
{
    assert(m < MEMBERS);
    if (progress && st->slow[m] > 0)
        st->slow[m]--;
    else if (!progress && st->slow[m] < SHARE_FLOOR)
        st->slow[m]++;
}

double arena_optimal_share_ratio(const struct part_state *st, enum member m)
{
    int d = (int)st->slow[MEMBER_SEARCH] - (int)st->slow[m];
    return d >= 0 ? (double)(1u << d) : 1.0 / (double)(1u << -d);
}

/* nodes / per x the ratio, in integers, at least 1 */
static uint64_t scaled(const struct part_state *st, enum member m, uint64_t nodes, uint64_t per)
{
    int d = (int)st->slow[MEMBER_SEARCH] - (int)st->slow[m];
    uint64_t c = nodes / per;
    c = d >= 0 ? (c > UINT64_MAX >> d ? UINT64_MAX : c << d) : c >> -d;
    return c > 0 ? c : 1;
}

uint64_t arena_optimal_share_conflicts(const struct part_state *st, uint64_t nodes)
{
    return scaled(st, MEMBER_SAT, nodes, PORTFOLIO_NODES_PER_CONFLICT);
}

uint64_t arena_optimal_share_calls(const struct part_state *st, uint64_t nodes)
{
    return scaled(st, MEMBER_LCG, nodes, LCG_POLL_HOOKS / LCG_HOOKS_PER_NODE);
}
