/* solver.c — a SAT solver over an encoding: built (the variables, the
 * estimate of its memory, then the clauses), asked at its top capacity or
 * below it (levels), its model decoded into a plan, closed.
 *
 * Budgets: CaDiCaL calls the terminate callback every few of its steps
 * (option terminateint, and in its inprocessing loops); it answers from
 * opt->stop and the clock, so SIGINT and time_limit end a solve within
 * milliseconds. Conflicts are counted by the learner callback (each
 * conflict learns one clause) and added to r->nodes: node_limit bounds
 * nodes and conflicts together, and with it the answer is deterministic
 * (CaDiCaL is, for the same clauses and options).
 *
 * Memory: the solver allocates (C++ new), so its memory is estimated
 * before it exists, from the exact counts of the clauses and literals the
 * encoding will hand it (a counting pass of the same code), and an
 * encoding above the room it is given is never built. Below the budget an
 * allocation may still fail (an address-space limit, ulimit -v): CaDiCaL
 * throws, cadical.cc catches it at the boundary, and the solver is marked
 * broken: released, the part skipped as past the budget. */
#include <stdlib.h>
#include <string.h>

#include "planners/layout.h"
#include "planners/optimal/sat/session.h"

/* Bytes per clause, per literal and per variable in CaDiCaL 1.5.3, and the
 * factor its learnt clauses and search add (LEARNT_SHARE / 2: 2.5; the
 * peak resident bytes of bench within 0.69-1.08 of twice the first three,
 * measured on five encodings after 5,000 conflicts: docs/optimal-sat.md,
 * Memory). */
#define BYTES_PER_CLAUSE 48u
#define BYTES_PER_LITERAL 12u
#define BYTES_PER_VAR 160u
#define LEARNT_SHARE 5u

/* CaDiCaL's options (docs/optimal-sat.md, Solver options): its
 * inprocessing (variable elimination, subsumption, vivification, ternary
 * resolution, failed literals) off, as on these encodings it spent half
 * the time and paid nothing back (slack:n=150,seed=1: 19.6 s and 15,004
 * conflicts with, 8.9 s and 7,252 without); and its stable mode alone
 * (target phases, reluctant doubling restarts: the mode CaDiCaL keeps for
 * satisfiable formulas), as finding a plan at the bound is what these
 * encodings ask (slack n=220 seeds 1 and 5, n=290 seeds 2 and 4: 14.1,
 * 15.6, 13.4 and 21.4 s of CPU against 19.9, 23.9, 35.1 and 46.6 s). */
static const char *const option_name[] = {"elim",    "subsume", "vivify",
                                          "ternary", "probe",   "stabilizeonly"};
static const int option_value[] = {0, 0, 0, 0, 0, 1};

/* Seconds per byte of a solver's estimate that its garbage collection and
 * its release may take without asking the terminate callback: CaDiCaL's
 * clause-database reduction moves every clause and walks every watch list
 * in one go (the profile of such a stretch: flush_all_occs_and_watches,
 * delete_garbage_clauses, the clauses' memmove and free). Measured on
 * slack:n=500,seed=2 (an estimate of 3.9 GB, 15 M clauses; engine sat):
 * the last solve returned 3.6 s after a 15 s limit, 4.8 s after the time
 * it was told to stop at 30 s, and the release took 0.25-0.3 s more. So
 * the solver is told to stop this long before the limit: 1.5 s per GiB of
 * its estimate (0.1 s for 64 MiB, 6 s for the largest the budget takes). */
#define STOP_AHEAD_PER_BYTE (1.5 / (1u << 30))

static int terminate_cb(void *state)
{
    struct arena_sat *s = state;
    return arena_optimal_out_of_time_by(s->r, STOP_AHEAD_PER_BYTE * (double)s->bytes);
}

static void learn_cb(void *state, int *clause)
{
    (void)clause;
    ((struct arena_sat *)state)->conflicts++;
}

/* The arrays of a session, described once (layout.h): counted, then carved
 * from one malloc'd block. */
struct sizes {
    uint32_t m;
    size_t values, pairs, sections;
};

static int layout(struct arena_layout *l, const struct sizes *n, struct arena_sat *s)
{
    s->dom_at = arena_layout_take(l, (size_t)n->m + 1, sizeof *s->dom_at);
    s->vals = arena_layout_take(l, n->values, sizeof *s->vals);
    s->var_at = arena_layout_take(l, n->m, sizeof *s->var_at);
    s->pair_at = arena_layout_take(l, n->m, sizeof *s->pair_at);
    s->pair_lit = arena_layout_take(l, n->pairs, sizeof *s->pair_lit);
    s->tiled = arena_layout_take(l, n->sections, sizeof *s->tiled);
    return l->overflow ? ARENA_EOVERFLOW : ARENA_OK;
}

static size_t popcount_words(const uint64_t *a, size_t words)
{
    size_t c = 0;
    for (size_t i = 0; i < words; i++)
        for (uint64_t v = a[i]; v; v &= v - 1)
            c++;
    return c;
}

/* "k lies below j": a fresh variable, positive when the incumbent has k
 * below j (rule sat-phases). */
static int pair_literal(struct arena_sat *s, uint32_t k, uint32_t j)
{
    int var = ++s->vars;
    return s->phases && s->inc[j] < s->inc[k] ? -var : var;
}

static void session_free(struct arena_sat *s)
{
    if (s == NULL)
        return;
    if (s->solver != NULL)
        ccadical_release(s->solver);
    free(s->block);
    free(s);
}

enum arena_sat_open arena_sat_build(struct run *r, const struct sat_spec *b, struct arena_sat **out)
{
    const struct sat_inst *in = b->in;
    uint32_t m = in->m;
    struct arena_sat *s = calloc(1, sizeof *s);
    if (s == NULL)
        return ARENA_SAT_SKIPPED;
    struct sizes n = {.m = m, .sections = in->S};
    for (uint32_t k = 0; k < m; k++) {
        n.values += popcount_words(b->dom + (size_t)k * b->words, b->words);
        n.pairs += in->fwd_end[k] - k - 1;
    }
    struct arena_layout l;
    size_t bytes;
    arena_layout_init(&l, NULL);
    if (n.values + n.pairs >= (size_t)INT_MAX / 4 || layout(&l, &n, s) != ARENA_OK ||
        arena_layout_bytes(&l, &bytes) != ARENA_OK || (s->block = malloc(bytes ? bytes : 1)) == NULL) {
        session_free(s);
        return ARENA_SAT_SKIPPED;
    }
    arena_layout_init(&l, s->block);
    layout(&l, &n, s);
    s->in = *in;
    s->unit = r->step;
    s->top = b->top;
    s->inc = b->inc;
    s->phases = rule_on(r, ARENA_OPTIMAL_SAT_PHASES);
    s->r = r;
    memset(s->tiled, 0, in->S);
    size_t v = 0, p = 0;
    for (uint32_t k = 0; k < m; k++) {
        s->dom_at[k] = (uint32_t)v;
        const uint64_t *d = b->dom + (size_t)k * b->words;
        for (size_t i = 0; i < b->words; i++)
            for (unsigned bit = 0; bit < 64; bit++)
                if (d[i] >> bit & 1)
                    s->vals[v++] = (uint32_t)(i * 64 + bit);
        s->var_at[k] = s->vars + 1;
        s->vars += (int)(v - s->dom_at[k]) - 1;
        s->pair_at[k] = (uint32_t)p;
        p += in->fwd_end[k] - k - 1;
    }
    s->dom_at[m] = (uint32_t)v;
    for (uint32_t k = 0; k < m; k++)
        for (uint32_t j = k + 1; j < in->fwd_end[k]; j++)
            s->pair_lit[s->pair_at[k] + j - k - 1] = pair_literal(s, k, j);
    /* the estimate: the clauses counted (the tiling at the top with them,
     * its flags put back after); the count stops once its literals alone
     * pass the budget */
    enum arena_sat_open res = ARENA_SAT_SKIPPED;
    s->most_literals = ARENA_SAT_MEMORY * 2 / LEARNT_SHARE / BYTES_PER_LITERAL;
    s->building = 1;
    arena_sat_encode_base(s);
    int rc = s->over ? 0 : arena_sat_encode_capacity(s, r, s->top, 0);
    memset(s->tiled, 0, in->S);
    if (rc != 0 || s->over) {
        res = r->stopped ? ARENA_SAT_STOPPED : ARENA_SAT_SKIPPED;
        goto fail;
    }
    s->bytes = (uint64_t)LEARNT_SHARE *
               (s->clauses * BYTES_PER_CLAUSE + s->literals * BYTES_PER_LITERAL +
                (uint64_t)s->vars * BYTES_PER_VAR) / 2;
    if (s->bytes > ARENA_SAT_MEMORY)
        goto fail;
    if (s->bytes > b->room) {
        res = ARENA_SAT_CROWDED;
        goto fail;
    }
    s->solver = arena_cadical_open(option_name, option_value,
                                   sizeof option_name / sizeof option_name[0], s, terminate_cb,
                                   learn_cb);
    if (s->solver == NULL)
        goto fail;
    arena_sat_encode_base(s);
    if (s->over || arena_sat_encode_capacity(s, r, s->top, 0) != 0 || s->over ||
        arena_optimal_out_of_time(r)) {
        res = r->stopped ? ARENA_SAT_STOPPED : ARENA_SAT_SKIPPED;
        goto fail;
    }
    s->building = 0;
    *out = s;
    return ARENA_SAT_READY;
fail:
    session_free(s);
    return res;
}

/* The part's loaded arrays as an instance (its sizes in units in z). */
static struct sat_inst part_instance(const struct run *r, const uint64_t *z)
{
    const struct work *w = r->w;
    return (struct sat_inst){.m = (uint32_t)r->m, .S = (uint32_t)r->S, .z = z,
                             .first = w->first, .last = w->last, .s0 = w->s0, .s1 = w->s1,
                             .fwd_end = w->fwd_end};
}

enum arena_sat_open arena_sat_open(struct run *r, uint64_t cap, const struct arena_plan *plan,
                                   uint64_t room, struct arena_sat **out)
{
    struct work *w = r->w;
    uint32_t m = (uint32_t)r->m;
    uint64_t unit = r->step, T = cap / unit;
    size_t words = (size_t)(T / 64 + 1);
    if (T >= (uint64_t)1 << 31 || (uint64_t)m * words * sizeof(uint64_t) > ARENA_SAT_NARROW_BYTES)
        return ARENA_SAT_SKIPPED; /* more values than the budget holds in any case */
    uint64_t *zi = malloc(2 * (size_t)m * sizeof *zi);
    uint64_t *dom = malloc((size_t)m * words * sizeof *dom);
    enum arena_sat_open res = ARENA_SAT_SKIPPED;
    if (zi == NULL || dom == NULL)
        goto out;
    uint64_t *z = zi, *inc = zi + m;
    for (uint32_t k = 0; k < m; k++) {
        z[k] = w->size[k] / unit;
        inc[k] = plan->offsets[r->pid[k]] / unit;
    }
    struct sat_inst in = part_instance(r, z);
    int narrowed = arena_sat_narrow(r, &in, T, dom, words);
    if (narrowed != 0) {
        res = narrowed > 0 ? ARENA_SAT_NONE : r->stopped ? ARENA_SAT_STOPPED : ARENA_SAT_SKIPPED;
        goto out;
    }
    struct sat_spec b = {.in = &in, .top = T, .dom = dom, .words = words, .inc = inc,
                         .room = room};
    res = arena_sat_build(r, &b, out);
    if (res == ARENA_SAT_READY) {
        (*out)->owned = zi; /* the sizes and incumbent stay with the session */
        zi = NULL;
    }
out:
    free(zi);
    free(dom);
    return res;
}

uint64_t arena_sat_top(const struct arena_sat *s)
{
    return s->top * s->unit;
}

uint64_t arena_sat_bytes(const struct arena_sat *s)
{
    return s->bytes;
}

int arena_sat_broken(const struct arena_sat *s)
{
    return s->broken;
}

/* The activation literal of level C (units, below the top), added when new;
 * 0 when its clauses could not be added (a budget). *none: proven at once
 * that no plan fits C. */
static int level(struct arena_sat *s, struct run *r, uint64_t C, int *none)
{
    *none = 0;
    for (unsigned i = 0; i < s->levels; i++)
        if (s->level_cap[i] == C)
            return s->level_act[i];
    if (s->levels == SAT_LEVELS) { /* retire the oldest */
        int c[1] = {-s->level_act[0]};
        arena_sat_emit(s, c, 1);
        memmove(s->level_cap, s->level_cap + 1, (SAT_LEVELS - 1) * sizeof *s->level_cap);
        memmove(s->level_act, s->level_act + 1, (SAT_LEVELS - 1) * sizeof *s->level_act);
        s->levels--;
    }
    int act = ++s->vars;
    int rc = arena_sat_encode_capacity(s, r, C, act);
    if (rc < 0)
        return 0;
    if (rc > 0) {
        *none = 1;
        int c[1] = {-act};
        arena_sat_emit(s, c, 1);
        return 0;
    }
    s->level_cap[s->levels] = C;
    s->level_act[s->levels++] = act;
    return act;
}

/* lit holds in the model. Asked of its variable: CaDiCaL 1.5.3's val(-v)
 * answers with the sign of "-v holds" (v when it does), where IPASIR's
 * wording gives -v; for a variable both agree. */
static int holds(const struct arena_sat *s, int lit)
{
    int var = lit < 0 ? -lit : lit;
    return (ccadical_val(s->solver, var) > 0) == (lit > 0);
}

uint64_t arena_sat_model_offset(const struct arena_sat *s, uint32_t k)
{
    const uint32_t *v = s->vals + s->dom_at[k];
    uint32_t lo = 0, hi = s->dom_at[k + 1] - s->dom_at[k] - 1; /* the answer is in [lo, hi] */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (holds(s, arena_sat_le(s, k, v[mid])))
            hi = mid;
        else
            lo = mid + 1;
    }
    return v[lo];
}

enum outcome arena_sat_solve_units(struct run *r, struct arena_sat *s, uint64_t C,
                                   uint64_t conflicts)
{
    assert(C <= s->top);
    s->r = r;
    if (arena_optimal_out_of_time(r))
        return LIMITED;
    uint64_t left = arena_optimal_conflicts_left(r, conflicts);
    if (left == 0)
        return LIMITED;
    int act = 0;
    if (C < s->top) {
        int none;
        act = level(s, r, C, &none);
        if (none)
            return EXHAUSTED;
        if (act == 0)
            return LIMITED;
        s->broken = s->broken || arena_cadical_assume(s->solver, act) != 0;
    }
    int most = left > INT_MAX ? INT_MAX : (int)left;
    s->broken = s->broken || arena_cadical_limit(s->solver, "conflicts", most) != 0;
    if (s->broken)
        return LIMITED;
    uint64_t before = s->conflicts;
    int res = arena_cadical_solve(s->solver);
    arena_optimal_spend_conflicts(r, s->conflicts - before);
    s->broken = res < 0;
    if (res == 20) {
        if (act != 0) { /* the level is proven empty: retired for good */
            int c[1] = {-act};
            arena_sat_emit(s, c, 1);
        }
        return EXHAUSTED;
    }
    return res == 10 ? FOUND : LIMITED;
}

enum outcome arena_sat_solve(struct run *r, struct arena_sat *s, uint64_t cap,
                             uint64_t conflicts, struct arena_plan *plan)
{
    struct work *w = r->w;
    assert(r->m == s->in.m);
    enum outcome o = arena_sat_solve_units(r, s, cap / s->unit, conflicts);
    if (o != FOUND)
        return o;
    for (uint32_t k = 0; k < s->in.m; k++)
        w->off[k] = arena_sat_model_offset(s, k) * s->unit;
    /* the model's plan is checked before it is taken: a FOUND at cap claims
     * the part done (never reached: the tests' oracles and the validator
     * keep the encoding honest; a fault shows as a failed assert there).
     * Past NDEBUG the solver is marked broken, so no more budget goes to
     * asking it again: the caller skips the part. */
    int fits = arena_optimal_part_fits(r, cap);
    assert(fits);
    if (!fits)
        s->broken = ARENA_SAT_UNDECODED;
    return fits ? arena_optimal_keep_plan(r, plan) : LIMITED;
}

void arena_sat_lower_top(struct run *r, struct arena_sat *s, uint64_t cap)
{
    uint64_t C = cap / s->unit;
    s->r = r;
    if (C >= s->top)
        return;
    /* the levels at or above the new top are of no more use */
    unsigned kept = 0;
    for (unsigned i = 0; i < s->levels; i++) {
        if (s->level_cap[i] >= C) {
            int c[1] = {-s->level_act[i]};
            arena_sat_emit(s, c, 1);
            continue;
        }
        s->level_cap[kept] = s->level_cap[i];
        s->level_act[kept++] = s->level_act[i];
    }
    s->levels = kept;
    if (arena_sat_encode_capacity(s, r, C, 0) > 0)
        arena_sat_emit(s, NULL, 0); /* no plan within C: the empty clause */
    s->top = C;
}

void arena_sat_close(struct arena_sat *s)
{
    if (s != NULL)
        free(s->owned);
    session_free(s);
}
