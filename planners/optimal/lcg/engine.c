/* engine.c — a solver of the lcg engine: built from the loaded part (its
 * pairs, neighbour lists and chains), asked at its top, its model decoded
 * and checked, closed.
 *
 * Memory: the session's arrays are counted before they exist (one
 * layout, layout.h) and Z3's allocations are capped at
 * ARENA_OPTIMAL_LCG_MEMORY (r->lcg_memory_mb) through its own limit
 * (memory_max_size; with a limit too small Z3 has no context at all): past
 * it Z3 raises an error, the check answers FAILED, the part's engine
 * rounds end and the plan says so (ARENA_PLAN_NOTE_LCG_FAILED). */
#include <stdlib.h>
#include <string.h>

#include "planners/layout.h"
#include "planners/optimal/lcg/session.h"

/* Z3's bytes per registered Boolean with its watch lists and the learnt
 * clauses a solve adds (an estimate: the prototype of issue 47 measured
 * 20-44 MB of peak memory on exact-slack's 4-10 k pairs): a part with
 * more pairs than the budget holds at this rate is not opened. */
#define Z3_BYTES_PER_PAIR 4096u

struct sizes {
    uint32_t m, pairs;
    size_t spans; /* the sections each tensor spans, summed */
};

static int layout(struct arena_layout *l, const struct sizes *n, struct arena_lcg *s)
{
    size_t m = n->m, P = n->pairs;
    s->z = arena_layout_take(l, m, sizeof *s->z);
    s->pair_at = arena_layout_take(l, m, sizeof *s->pair_at);
    s->pair_lo = arena_layout_take(l, P, sizeof *s->pair_lo);
    s->pair_hi = arena_layout_take(l, P, sizeof *s->pair_hi);
    s->flip = arena_layout_take(l, P, sizeof *s->flip);
    s->state = arena_layout_take(l, P, sizeof *s->state);
    s->forced = arena_layout_take(l, P, sizeof *s->forced);
    s->nb_at = arena_layout_take(l, m + 1, sizeof *s->nb_at);
    s->nb = arena_layout_take(l, 2 * P, sizeof *s->nb);
    s->nb_pair = arena_layout_take(l, 2 * P, sizeof *s->nb_pair);
    s->head = arena_layout_take(l, m, sizeof *s->head);
    s->tail = arena_layout_take(l, m, sizeof *s->tail);
    s->head_by = arena_layout_take(l, m, sizeof *s->head_by);
    s->tail_by = arena_layout_take(l, m, sizeof *s->tail_by);
    s->stack = arena_layout_take(l, m, sizeof *s->stack);
    s->queued = arena_layout_take(l, m, sizeof *s->queued);
    s->rose = arena_layout_take(l, 2 * m, sizeof *s->rose);
    s->stamp = arena_layout_take(l, m, sizeof *s->stamp);
    s->s0 = arena_layout_take(l, m, sizeof *s->s0);
    s->s1 = arena_layout_take(l, m, sizeof *s->s1);
    s->sec_at = arena_layout_take(l, m, sizeof *s->sec_at);
    s->nb_zmax = arena_layout_take(l, m, sizeof *s->nb_zmax);
    s->below = arena_layout_take(l, n->spans, sizeof *s->below);
    s->above = arena_layout_take(l, n->spans, sizeof *s->above);
    s->expl = arena_layout_take(l, 4 * m + 2, sizeof *s->expl);
    s->elo = arena_layout_take(l, 4 * m + 2, sizeof *s->elo);
    s->ehi = arena_layout_take(l, 4 * m + 2, sizeof *s->ehi);
    s->model = arena_layout_take(l, m, sizeof *s->model);
    return l->overflow ? ARENA_EOVERFLOW : ARENA_OK;
}

/* Fills the pairs, their first values (phases) and neighbour lists, and
 * the chains of no edge: head 0, tail the tensor's own size. */
static void fill(struct arena_lcg *s, const struct run *r, const uint64_t *inc, int phases)
{
    const struct work *w = r->w;
    uint32_t m = s->m, p = 0;
    memset(s->nb_at, 0, ((size_t)m + 1) * sizeof *s->nb_at);
    for (uint32_t k = 0; k < m; k++) {
        s->z[k] = w->size[k] / s->unit;
        s->pair_at[k] = p;
        for (uint32_t j = k + 1; j < w->fwd_end[k]; j++, p++) {
            s->pair_lo[p] = k;
            s->pair_hi[p] = j;
            /* Z3's first value of a term is false: false is the incumbent's order */
            s->flip[p] = phases && inc[k] < inc[j];
            s->nb_at[k + 1]++;
            s->nb_at[j + 1]++;
        }
    }
    for (uint32_t k = 0; k < m; k++)
        s->nb_at[k + 1] += s->nb_at[k];
    for (uint32_t k = 0; k < m; k++)
        s->stack[k] = s->nb_at[k]; /* a cursor per tensor while filling */
    for (p = 0; p < s->pairs; p++) {
        uint32_t a = s->pair_lo[p], b = s->pair_hi[p];
        s->nb[s->stack[a]] = b;
        s->nb_pair[s->stack[a]++] = p;
        s->nb[s->stack[b]] = a;
        s->nb_pair[s->stack[b]++] = p;
    }
    memset(s->state, OPEN, s->pairs);
    memset(s->forced, 0, s->pairs);
    memset(s->queued, 0, m);
    memset(s->stamp, 0, (size_t)m * sizeof *s->stamp);
    size_t at = 0;
    for (uint32_t k = 0; k < m; k++) {
        s->s0[k] = w->s0[k];
        s->s1[k] = w->s1[k];
        s->sec_at[k] = (uint32_t)at;
        at += w->s1[k] - w->s0[k];
    }
    for (uint32_t k = 0; k < m; k++) {
        s->nb_zmax[k] = 0;
        for (uint32_t e = s->nb_at[k]; e < s->nb_at[k + 1]; e++)
            if (s->z[s->nb[e]] > s->nb_zmax[k])
                s->nb_zmax[k] = s->z[s->nb[e]];
    }
    memset(s->below, 0, at * sizeof *s->below);
    memset(s->above, 0, at * sizeof *s->above);
    for (uint32_t k = 0; k < m; k++) {
        s->head[k] = 0;
        s->tail[k] = s->z[k];
        s->head_by[k] = NONE;
        s->tail_by[k] = NONE;
    }
}

static void session_free(struct arena_lcg *s)
{
    if (s == NULL)
        return;
    arena_lcg_z3_close(s->z3);
    free(s->dom);
    free(s->trail);
    free(s->scope_at);
    free(s->block);
    free(s);
}

enum arena_lcg_open arena_lcg_open(struct run *r, uint64_t cap, const struct arena_plan *plan,
                                   struct arena_lcg **out)
{
    const struct work *w = r->w;
    uint64_t pairs = 0, spans = 0;
    for (size_t k = 0; k < r->m; k++) {
        pairs += w->fwd_end[k] - k - 1;
        spans += w->s1[k] - w->s0[k];
    }
    if (r->m >= UINT32_MAX / 4 || pairs >= UINT32_MAX / 4 || spans >= UINT32_MAX / 4 ||
        pairs > (r->lcg_memory_mb << 20) / Z3_BYTES_PER_PAIR)
        return ARENA_LCG_SKIPPED;
    struct arena_lcg *s = calloc(1, sizeof *s);
    if (s == NULL)
        return ARENA_LCG_SKIPPED;
    struct sizes n = {.m = (uint32_t)r->m, .pairs = (uint32_t)pairs, .spans = (size_t)spans};
    struct arena_layout l;
    size_t bytes;
    arena_layout_init(&l, NULL);
    if (layout(&l, &n, s) != ARENA_OK || arena_layout_bytes(&l, &bytes) != ARENA_OK ||
        (s->block = malloc(bytes ? bytes : 1)) == NULL) {
        session_free(s);
        return ARENA_LCG_SKIPPED;
    }
    arena_layout_init(&l, s->block);
    layout(&l, &n, s);
    s->r = r;
    s->m = n.m;
    s->pairs = n.pairs;
    s->unit = r->step;
    s->cap = cap / r->step;
    uint64_t *inc = malloc((r->m ? r->m : 1) * sizeof *inc);
    if (inc == NULL) {
        session_free(s);
        return ARENA_LCG_SKIPPED;
    }
    for (size_t k = 0; k < r->m; k++)
        inc[k] = plan->offsets[r->pid[k]];
    fill(s, r, inc, rule_on(r, ARENA_OPTIMAL_SAT_PHASES));
    free(inc);
    arena_lcg_domains_open(s, r);
    s->propagates = rule_on(r, ARENA_OPTIMAL_LCG_PROPAGATE);
    s->energetic = rule_on(r, ARENA_OPTIMAL_LCG_ENERGY);
    s->lemma_hook = r->lemma_hook;
    s->lemma_ctx = r->lemma_ctx;
    arena_lcg_hooks_init(s);
    s->z3 = arena_lcg_z3_open(&s->hooks, s->pairs, r->lcg_memory_mb);
    if (s->z3 == NULL) {
        session_free(s);
        return ARENA_LCG_SKIPPED;
    }
    if (arena_optimal_out_of_time(r)) {
        session_free(s);
        return ARENA_LCG_STOPPED;
    }
    *out = s;
    return ARENA_LCG_READY;
}

uint64_t arena_lcg_top(const struct arena_lcg *s)
{
    return s->cap * s->unit;
}

void arena_lcg_lower_top(struct arena_lcg *s, uint64_t cap)
{
    assert(cap / s->unit <= s->cap);
    s->cap = cap / s->unit;
    arena_lcg_domains_lower(s);
}

enum outcome arena_lcg_solve(struct run *r, struct arena_lcg *s, uint64_t conflicts,
                             struct arena_plan *plan, int *failed)
{
    struct work *w = r->w;
    assert(r->m == s->m);
    *failed = s->failed;
    s->r = r;
    if (s->failed || arena_optimal_out_of_time(r))
        return LIMITED;
    if (s->none)
        return EXHAUSTED; /* a static domain is empty (domains.c) */
    uint64_t left = arena_optimal_conflicts_left(r, conflicts);
    if (left == 0)
        return LIMITED;
    /* Z3's own timeout backs the hooks' polling (a stretch without hook
     * calls): the time left, and a little more */
    double secs = arena_optimal_seconds_left(r);
    uint64_t timeout_ms = secs < 0 ? 0 : (uint64_t)(secs * 1000.0) + 50; /* 0: none */
    uint64_t before = arena_lcg_z3_conflicts(s->z3);
    s->have_model = 0;
    enum lcg_z3_answer a = arena_lcg_z3_check(s->z3, left, timeout_ms);
    uint64_t after = arena_lcg_z3_conflicts(s->z3);
    arena_optimal_spend_conflicts(r, after > before ? after - before : 0);
    if (a == LCG_Z3_FAILED || s->failed) {
        s->failed = 1;
        *failed = 1;
        return LIMITED;
    }
    if (a == LCG_Z3_UNSAT)
        return EXHAUSTED;
    if (a != LCG_Z3_SAT || !s->have_model)
        return LIMITED;
    for (uint32_t k = 0; k < s->m; k++)
        w->off[k] = s->model[k] * s->unit;
    /* the model's plan is checked before it is taken, as the SAT engine's */
    int fits = arena_optimal_part_fits(r, arena_lcg_top(s));
    assert(fits);
    return fits ? arena_optimal_keep_plan(r, plan) : LIMITED;
}

void arena_lcg_close(struct arena_lcg *s)
{
    session_free(s);
}
