/* propagator.c — the theory Z3 asks through its user-propagator hooks:
 * each pair Z3 fixes becomes an edge of the graph (graph.c); a tensor
 * whose chains (or sections' sums, energy.c) pass the capacity is a
 * conflict, its explanation the two chains; after each edge, every open
 * pair at a tensor whose head or tail rose is checked, and one whose
 * orientation would pass the capacity (head[u] + z[u] + tail[v] > C for
 * "u below v", or the same with v's head or u's tail rounded by the static
 * domains, domains.c) is forced the other way, with u's head chain and v's
 * tail chain as the reason.
 *
 * After a conflict is reported, Z3 still hands over assignments of the
 * same propagation round before it backtracks (about 130,000 in 3 s on
 * slack:n=220,seed=1): they are recorded (so the pop undoes them) and
 * nothing is inferred from them until that pop. The prototype of issue 47
 * inferred on and produced wrong lemmas (1,453 of 126,008). Here the values
 * never exceed what the links' chains support, and the lemma test finds no
 * wrong explanation with this rule removed either: a precaution kept, not
 * a fix a test shows.
 *
 * Budgets: every POLL_EVERY hook calls, opt->stop and the clock are read
 * (budget.c), and Z3 is interrupted when either says stop. */
#include "planners/optimal/lcg/session.h"

/* Hook calls between two reads of the budgets: a fixed hook costs about a
 * microsecond to tens of them, so the clock is read every few ms. */
#define POLL_EVERY LCG_POLL_HOOKS

static void poll(struct arena_lcg *s)
{
    if (++s->polls % POLL_EVERY == 0 && arena_optimal_out_of_time(s->r))
        arena_lcg_z3_interrupt(s->z3);
}

/* Z3 failed or memory ran out: the solver stops, the part's rounds end. */
static void fail(struct arena_lcg *s)
{
    s->failed = 1;
    arena_lcg_z3_interrupt(s->z3);
}

static void report(struct arena_lcg *s, void *cb, uint32_t n, uint32_t id, int value)
{
    s->lemmas++;
    if (s->lemma_hook != NULL)
        s->lemma_hook(s->lemma_ctx, s->elo, s->ehi, id == LCG_Z3_CONFLICT ? n : n + 1, s->cap,
                      s->z, s->m, s->s0, s->s1, s->dom != NULL ? s->dom_top : 0);
    if (arena_lcg_z3_propagate(s->z3, cb, s->expl, n, id, value) != 0)
        fail(s);
}

static void conflict(struct arena_lcg *s, void *cb, uint32_t k)
{
    uint32_t n = arena_lcg_graph_explain(s, k, k);
    s->conflicted = 1;
    report(s, cb, n, LCG_Z3_CONFLICT, 0);
}

/* The term value of pair p that means "a lies below" the other. */
static int term_value(const struct arena_lcg *s, uint32_t p, uint32_t a)
{
    return (lcg_orient(s, p, a) == HIGH_BELOW) != !s->flip[p];
}

/* With the static domains: "u below v" passes the capacity once v's head
 * or u's tail, raised by it, is rounded (domains.c). */
static int rounded_past(const struct arena_lcg *s, uint32_t u, uint32_t v)
{
    if (s->dom == NULL)
        return 0;
    return lcg_rounded(s, 0, v, s->head[u] + s->z[u]) + s->tail[v] > s->cap ||
           s->head[u] + lcg_rounded(s, 1, u, s->z[u] + s->tail[v]) > s->cap;
}

/* Marks pair p forced, unless Z3 holds it already (its fixed hook adds
 * the edge): 1 to force it now, 0 not (also when the mark could not be
 * kept: the solver failed, and the loops end). */
static int to_force(struct arena_lcg *s, uint32_t p)
{
    if (s->forced[p])
        return 0;
    if (arena_lcg_graph_forced(s, p) != 0) {
        fail(s);
        return 0;
    }
    return 1;
}

/* Theory propagation around the tensors whose head or tail rose. */
static void propagate(struct arena_lcg *s, void *cb)
{
    uint32_t nrose = s->nrose;
    for (uint32_t i = 0; i < nrose && !s->failed; i++) {
        uint32_t x = s->rose[i] >> 1;
        unsigned side = s->rose[i] & 1;
        for (uint32_t e = s->nb_at[x]; e < s->nb_at[x + 1] && !s->failed; e++) {
            uint32_t y = s->nb[e], p = s->nb_pair[e];
            if (s->state[p] != OPEN)
                continue;
            /* head rose: "x below y" may pass; tail rose: "y below x" */
            uint32_t u = side ? y : x, v = side ? x : y;
            if ((s->head[u] + s->z[u] + s->tail[v] <= s->cap && !rounded_past(s, u, v)) ||
                !to_force(s, p))
                continue;
            uint32_t n = arena_lcg_graph_explain(s, u, v);
            report(s, cb, n, p, term_value(s, p, v));
        }
    }
}

/* Energy (rule lcg-energy): edge a -> b raised b's sums below and a's
 * above over the sections the two share. An open pair of b with a tensor
 * y alive in such a section, "y below b", would stack y on that sum under
 * b's tail: past the capacity, "b below y" is forced, explained by the
 * section's tensors below b and b's tail chain. Likewise above a, under
 * a's head chain. */
static void energy_propagate(struct arena_lcg *s, void *cb, uint32_t a, uint32_t b)
{
    uint32_t x0, x1;
    arena_lcg_energy_shared(s, a, b, &x0, &x1);
    for (unsigned side = 0; side < 2 && !s->failed; side++) {
        uint32_t k = side ? a : b, link = ENERGY | x0;
        uint64_t rest = side ? s->head[a] + s->z[a] : s->tail[b];
        uint64_t peak = arena_lcg_energy_peak(s, side, k, x0, x1, &link);
        if (peak + s->nb_zmax[k] + rest <= s->cap)
            continue; /* no neighbour of k is large enough */
        for (uint32_t e = s->nb_at[k]; e < s->nb_at[k + 1] && !s->failed; e++) {
            uint32_t y = s->nb[e], p = s->nb_pair[e];
            if (s->state[p] != OPEN || peak + s->z[y] + rest <= s->cap)
                continue;
            uint32_t lo = s->s0[y] > x0 ? s->s0[y] : x0, hi = s->s1[y] < x1 ? s->s1[y] : x1;
            link = ENERGY | lo;
            if (lo >= hi ||
                arena_lcg_energy_peak(s, side, k, lo, hi, &link) + s->z[y] + rest <= s->cap ||
                !to_force(s, p))
                continue;
            uint32_t n = arena_lcg_graph_explain_section(s, k, side, link & ~ENERGY);
            s->elo[n] = side ? k : y; /* the edge ruled out */
            s->ehi[n] = side ? y : k;
            report(s, cb, n, p, term_value(s, p, side ? y : k));
        }
    }
}

static void on_fixed(void *ctx, void *cb, unsigned id, int value)
{
    struct arena_lcg *s = ctx;
    poll(s);
    if (s->failed || id >= s->pairs)
        return;
    uint32_t p = id, lo = s->pair_lo[p], hi = s->pair_hi[p];
    int lo_below = (value != 0) != (s->flip[p] != 0);
    uint32_t a = lo_below ? lo : hi, b = lo_below ? hi : lo;
    if (s->state[p] != OPEN)
        return; /* fixed twice: nothing new */
    if (s->conflicted) {
        if (arena_lcg_graph_record(s, p, lcg_orient(s, p, a)) != 0)
            fail(s);
        return;
    }
    int oom;
    uint32_t bad = arena_lcg_graph_assert(s, p, a, b, &oom);
    if (oom) {
        fail(s);
        return;
    }
    if (bad != NONE) {
        conflict(s, cb, bad);
        return;
    }
    if (s->propagates)
        propagate(s, cb);
    if (s->propagates && s->energetic && !s->failed)
        energy_propagate(s, cb, a, b);
}

static void on_push(void *ctx)
{
    struct arena_lcg *s = ctx;
    int oom;
    arena_lcg_graph_push(s, &oom);
    if (oom)
        fail(s);
}

static void on_pop(void *ctx, unsigned scopes)
{
    struct arena_lcg *s = ctx;
    if (s->failed && scopes > s->scopes)
        scopes = (unsigned)s->scopes; /* a push whose scope could not be kept */
    arena_lcg_graph_pop(s, scopes);
    s->conflicted = 0;
}

/* Every pair fixed and no conflict: the heads are a plan within the
 * capacity (each oriented pair apart, each tensor below C - tail). A
 * tensor over the capacity is possible only when the top was lowered with
 * chains fixed at Z3's base level (no hook sees them again): then it is a
 * conflict like any other. */
static void on_final(void *ctx, void *cb)
{
    struct arena_lcg *s = ctx;
    poll(s);
    if (s->failed || s->conflicted)
        return;
    s->have_model = 0;
    for (uint32_t k = 0; k < s->m; k++)
        if (s->head[k] + s->tail[k] > s->cap) {
            conflict(s, cb, k);
            return;
        }
    for (uint32_t p = 0; p < s->pairs; p++)
        if (s->state[p] == OPEN)
            return; /* not a plan: decoded, it fails the check (never seen) */
    for (uint32_t k = 0; k < s->m; k++)
        s->model[k] = s->head[k];
    s->have_model = 1;
}

void arena_lcg_hooks_init(struct arena_lcg *s)
{
    s->hooks = (struct lcg_z3_hooks){.ctx = s, .push = on_push, .pop = on_pop, .fixed = on_fixed,
                                     .final = on_final};
}
