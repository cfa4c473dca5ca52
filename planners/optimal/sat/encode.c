/* encode.c — the clauses of the order encoding (sat.h) and of what depends
 * on the capacity: the bounds of a level, the domains narrowed at it (rule
 * sat-domains) and the full sections' total orders (rule sat-tiling). Every clause goes through
 * arena_sat_emit, which either counts it (the memory estimate's pass,
 * before any solver exists) or hands it to CaDiCaL, so the estimate counts
 * exactly the clauses the solver gets. */
#include <stdlib.h>
#include <string.h>

#include "planners/optimal/sat/session.h"

/* [o_k <= d_t] for the t-th value d_t of k (t < its count - 1). */
static int lit_at(const struct arena_sat *s, uint32_t k, uint32_t t)
{
    int var = s->var_at[k] + (int)t;
    if (s->phases && s->inc[k] > s->vals[s->dom_at[k] + t])
        return -var; /* the incumbent has it false: the default phase (true) follows it */
    return var;
}

int arena_sat_le(const struct arena_sat *s, uint32_t k, uint64_t w)
{
    const uint32_t *v = s->vals + s->dom_at[k];
    uint32_t len = s->dom_at[k + 1] - s->dom_at[k];
    if (w < v[0])
        return LIT_FALSE;
    if (w >= v[len - 1])
        return LIT_TRUE;
    /* arena_floor_index's search (planners/order.h), on the domains' 32-bit
     * values: 64-bit copies would double up to 62 M values (packed:n=1000) */
    uint32_t lo = 0, hi = len - 1; /* v[lo] <= w < v[hi] */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (v[mid] <= w)
            lo = mid;
        else
            hi = mid;
    }
    return lit_at(s, k, lo);
}

/* [o_k <= a - z], false when a < z. */
static int le_minus(const struct arena_sat *s, uint32_t k, uint64_t a, uint64_t z)
{
    return a < z ? LIT_FALSE : arena_sat_le(s, k, a - z);
}

void arena_sat_emit(struct arena_sat *s, const int *lits, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (lits[i] == LIT_TRUE)
            return;
        kept += lits[i] != LIT_FALSE;
    }
    /* the clock and the stop flag, every 2^12 clauses (a few hundred
     * microseconds); a build a budget stopped is thrown away */
    if ((++s->emitted & 4095) == 0 && arena_optimal_spend_work(s->r, 4 * 4096) && s->building)
        s->over = 1;
    if (s->solver == NULL) {
        s->clauses++;
        s->literals += kept;
        s->over |= s->literals > s->most_literals;
        return;
    }
    if (s->broken)
        return;
    for (size_t i = 0; i < n && !s->broken; i++)
        if (lits[i] != LIT_FALSE)
            s->broken = arena_cadical_add(s->solver, lits[i]) != 0;
    s->broken = s->broken || arena_cadical_add(s->solver, 0) != 0;
    s->over |= s->broken && s->building;
}

/* "k lies below j" for positions k < j whose lifetimes meet. */
static int below(const struct arena_sat *s, uint32_t k, uint32_t j)
{
    return s->pair_lit[s->pair_at[k] + (j - k - 1)];
}

/* below -> o_k + z_k <= o_j, as one clause per value a of D_j under
 * max_k + z_k (from there on it holds on k's domain): below and
 * [o_j <= a] -> [o_k <= a - z_k]. Of consecutive values a < a' whose
 * clauses end in the same literal (every a < z_k: false; a - z_k and
 * a' - z_k between two values of D_k) the clause at a' implies the one at
 * a through the chain [o_j <= a] -> [o_j <= a']: only the last is made. */
static void pair_side(struct arena_sat *s, int below_lit, uint32_t k, uint32_t j)
{
    const uint32_t *vj = s->vals + s->dom_at[j];
    uint32_t nj = s->dom_at[j + 1] - s->dom_at[j];
    uint64_t z = s->in.z[k], top_k = s->vals[s->dom_at[k + 1] - 1] + z;
    for (uint32_t t = 0; t < nj && vj[t] < top_k && !s->over; t++) {
        int to = le_minus(s, k, vj[t], z);
        if (t + 1 < nj && vj[t + 1] < top_k && le_minus(s, k, vj[t + 1], z) == to)
            continue;
        int c[3] = {-below_lit, t + 1 < nj ? -lit_at(s, j, t) : LIT_FALSE, to};
        arena_sat_emit(s, c, 3);
    }
}

/* Rule sat-tiling: tensors live at one step are totally ordered by "lies
 * below" in every plan, whatever the capacity, and in a section whose load
 * is the capacity C a plan within C stacks them without a gap. There the
 * order is made transitive (two clauses per triple: no cycle either way),
 * so a few choices fix the whole stack and the chains' propagation sums
 * the sizes below each tensor. A triple goes once: in the first section
 * full at C of the three lifetimes' common ones, unless one of those was
 * made transitive at an earlier capacity. Returns -1 without memory. */
static int tile(struct arena_sat *s, const struct run *r, uint64_t C)
{
    if (!rule_on(r, ARENA_OPTIMAL_SAT_TILING))
        return 0;
    const struct sat_inst *in = &s->in;
    size_t S = in->S;
    uint32_t *at = NULL, *items = NULL;
    uint32_t *full = calloc(S + 1, sizeof *full); /* prefix: full now, not tiled */
    uint32_t *done = calloc(S + 1, sizeof *done); /* prefix: tiled before */
    int rc = arena_sat_section_lists(in, &at, &items);
    if (rc != 0 || full == NULL || done == NULL) {
        rc = -1;
        goto out;
    }
    for (size_t x = 0; x < S; x++) {
        uint64_t load = 0;
        for (uint32_t i = at[x]; i < at[x + 1]; i++)
            load += in->z[items[i]];
        int now = load == C && !s->tiled[x] && at[x + 1] - at[x] >= 3 &&
                  at[x + 1] - at[x] <= ARENA_SAT_TILE_MAX;
        full[x + 1] = full[x] + (uint32_t)now;
        done[x + 1] = done[x] + s->tiled[x];
    }
    for (size_t x = 0; x < S; x++) {
        if (full[x + 1] == full[x])
            continue;
        const uint32_t *it = items + at[x];
        uint32_t n = at[x + 1] - at[x];
        for (uint32_t a = 0; a < n && !s->over; a++)
            for (uint32_t b = a + 1; b < n; b++)
                for (uint32_t c = b + 1; c < n; c++) {
                    uint32_t i = it[a], j = it[b], k = it[c]; /* positions ascending */
                    uint32_t lo = in->s0[i], hi = in->s1[i];
                    lo = in->s0[j] > lo ? in->s0[j] : lo;
                    lo = in->s0[k] > lo ? in->s0[k] : lo;
                    hi = in->s1[j] < hi ? in->s1[j] : hi;
                    hi = in->s1[k] < hi ? in->s1[k] : hi;
                    if (done[hi] != done[lo] || full[x] != full[lo])
                        continue; /* tiled before, or in an earlier full section */
                    int ij = below(s, i, j), jk = below(s, j, k), ik = below(s, i, k);
                    int up[3] = {-ij, -jk, ik}, down[3] = {ij, jk, -ik};
                    arena_sat_emit(s, up, 3);
                    arena_sat_emit(s, down, 3);
                }
    }
    for (size_t x = 0; x < S; x++)
        if (full[x + 1] != full[x])
            s->tiled[x] = 1;
out:
    free(full);
    free(done);
    free(at);
    free(items);
    return rc;
}

void arena_sat_encode_base(struct arena_sat *s)
{
    const struct sat_inst *in = &s->in;
    /* the chains: [o_k <= d] -> [o_k <= d'] */
    for (uint32_t k = 0; k < in->m && !s->over; k++) {
        uint32_t len = s->dom_at[k + 1] - s->dom_at[k];
        for (uint32_t t = 0; t + 2 < len; t++) {
            int c[2] = {-lit_at(s, k, t), lit_at(s, k, t + 1)};
            arena_sat_emit(s, c, 2);
        }
    }
    /* the pairs */
    for (uint32_t k = 0; k < in->m && !s->over; k++)
        for (uint32_t j = k + 1; j < in->fwd_end[k] && !s->over; j++) {
            int b = below(s, k, j);
            pair_side(s, b, k, j);
            pair_side(s, -b, j, k);
        }
}

/* The activation literal (0: none, the clause is for good) before lits. */
static void emit_under(struct arena_sat *s, int act, const int *lits, size_t n)
{
    int c[4];
    size_t i = 0;
    if (act != 0)
        c[i++] = -act;
    for (size_t j = 0; j < n; j++)
        c[i++] = lits[j];
    arena_sat_emit(s, c, i);
}

int arena_sat_encode_capacity(struct arena_sat *s, struct run *r, uint64_t C, int act)
{
    const struct sat_inst *in = &s->in;
    /* the bounds */
    for (uint32_t k = 0; k < in->m; k++) {
        int c[1] = {le_minus(s, k, C, in->z[k])};
        emit_under(s, act, c, 1);
    }
    if (tile(s, r, C) != 0)
        return -1;
    /* the domains at C: values allowed at the top but not at C, forbidden
     * (at the top itself the domains are those: nothing to add) */
    if (!rule_on(r, ARENA_OPTIMAL_SAT_DOMAINS) || s->solver == NULL || C >= s->top)
        return 0;
    size_t words = (size_t)(C / 64 + 1);
    if ((uint64_t)in->m * words * sizeof(uint64_t) > ARENA_SAT_NARROW_BYTES)
        return 0;
    uint64_t *dom = malloc((size_t)in->m * words * sizeof *dom);
    if (dom == NULL)
        return 0; /* the narrowing only strengthens */
    int rc = arena_sat_narrow(r, in, C, dom, words);
    for (uint32_t k = 0; k < in->m && rc == 0; k++) {
        const uint64_t *d = dom + (size_t)k * words;
        const uint32_t *v = s->vals + s->dom_at[k];
        uint32_t len = s->dom_at[k + 1] - s->dom_at[k];
        for (uint32_t t = 0; t < len && v[t] + in->z[k] <= C; t++) {
            if (d[v[t] / 64] >> (v[t] % 64) & 1)
                continue;
            /* o_k != v[t]: [o_k <= v[t]] -> [o_k <= v[t - 1]] */
            int c[2] = {t + 1 < len ? -lit_at(s, k, t) : LIT_FALSE,
                        t > 0 ? lit_at(s, k, t - 1) : LIT_FALSE};
            emit_under(s, act, c, 2);
        }
    }
    free(dom);
    return rc < 0 ? (r->stopped ? -1 : 0) : rc;
}
