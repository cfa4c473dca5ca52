/* session.h — one solver of the lcg engine: the part's pairs, the
 * orientation graph with its longest chains and trail (graph.c), the
 * propagator's state (propagator.c) and Z3 (z3.c), shared by the files of
 * planners/optimal/lcg/. Internal to that folder.
 *
 * Index spaces: positions k (0..m) of the part, by first step; pairs p
 * (0..P) of positions whose lifetimes meet, k < j < fwd_end[k], pair p =
 * pair_at[k] + j - k - 1; Z3's term ids are the pairs' numbers. */
#ifndef ARENA_OPTIMAL_LCG_SESSION_H
#define ARENA_OPTIMAL_LCG_SESSION_H

#include "planners/optimal/lcg/lcg.h"
#include "planners/optimal/lcg/z3.h"

/* A pair's orientation: open, its lower position below, its higher below. */
enum { OPEN = 0, LOW_BELOW = 1, HIGH_BELOW = 2 };

/* One undo entry: a head or tail value (node, old value and link), a
 * pair's orientation (old value OPEN), or a pair's mark "forced" (old 0). */
struct lcg_undo {
    uint64_t old;
    uint32_t what; /* node or pair */
    uint32_t by;   /* the old link (heads, tails) */
    uint32_t kind; /* UNDO_HEAD, UNDO_TAIL, UNDO_PAIR, UNDO_FORCED */
};
enum { UNDO_HEAD, UNDO_TAIL, UNDO_PAIR, UNDO_FORCED };

/* Test hook: each explanation (planners/optimal.h). */
typedef arena_optimal_lemma_fn lcg_lemma_fn;

struct arena_lcg {
    struct run *r;
    struct lcg_z3 *z3;
    struct lcg_z3_hooks hooks;
    uint32_t m, pairs;
    uint64_t unit;     /* bytes per unit */
    uint64_t cap;      /* units: the top */
    uint64_t *z;       /* m: sizes in units */
    uint32_t *pair_at; /* m */
    uint32_t *pair_lo, *pair_hi; /* pairs: its two positions, lo < hi */
    unsigned char *flip; /* pairs: the term true means "hi below lo" (so its
                            first value, false, is the incumbent's order) */
    unsigned char *state; /* pairs: OPEN, LOW_BELOW, HIGH_BELOW */
    uint32_t *nb_at;   /* m + 1: k's neighbours are nb[nb_at[k] .. nb_at[k + 1]) */
    uint32_t *nb, *nb_pair; /* 2 pairs: the neighbour and the pair */
    /* longest chains */
    uint64_t *head;    /* m: the longest chain of sizes below k (k's least offset) */
    uint64_t *tail;    /* m: k's size and the longest chain above it */
    uint32_t *head_by; /* m: the tensor right below k on its head chain, NONE, or
                          ENERGY | x: the tensors below k alive in section x */
    uint32_t *tail_by; /* m: the tensor right above k on its tail chain, NONE, or
                          ENERGY | x: the tensors above k alive in section x */
    /* energetic reasoning (energy.c, rule lcg-energy) */
    int energetic;
    uint32_t *s0, *s1; /* m: k's elementary sections [s0, s1) */
    uint32_t *sec_at;  /* m: k's sums start at below[sec_at[k]] (one per section) */
    uint64_t *nb_zmax; /* m: the largest size among k's neighbours */
    uint64_t *below, *above; /* sum of s1 - s0: per tensor k and section x it
                                spans, the sizes of the tensors known below
                                (above) k alive in x */
    uint32_t *stack;   /* m: nodes whose value rose, to pass it on */
    unsigned char *queued; /* m */
    uint32_t *rose;    /* 2m: nodes whose head (2k) or tail (2k+1) rose in this update */
    uint32_t nrose;
    uint32_t *stamp;   /* m: the walks' visited marks */
    uint32_t epoch;
    unsigned *expl;    /* 4m + 2: an explanation's term ids (two chains, each
                          ending in a section's tensors at most) */
    uint32_t *elo, *ehi; /* 4m + 2: the same as edges (the lemma hook) */
    /* trail */
    struct lcg_undo *trail;
    size_t trail_len, trail_cap;
    size_t *scope_at;  /* trail length at each push */
    size_t scopes, scope_cap;
    /* the static domains (domains.c, rule lcg-domains; NULL: off) */
    uint64_t *dom;     /* m bitsets of dom_words words: offsets (units) some plan
                          within dom_top may give each tensor */
    size_t dom_words;
    uint64_t dom_top;  /* units: the top they were computed at */
    int none;          /* a domain is empty: no plan within the top */
    /* the propagator */
    int propagates;    /* rule lcg-propagate */
    int conflicted;    /* a conflict was reported in this scope: record, infer
                          nothing, until Z3 backtracks */
    int failed;        /* memory or Z3 failed: the solver is done */
    int have_model;
    uint64_t *model;   /* m: the offsets (units) of the last final check */
    unsigned char *forced; /* pairs: forced in a scope Z3 has not popped (Z3
                              holds it: forcing it again only costs) */
    uint64_t polls;    /* hook calls, for reading the budgets */
    uint64_t lemmas;   /* explanations handed to Z3 */
    lcg_lemma_fn *lemma_hook;
    void *lemma_ctx;
    void *block;       /* the one allocation holding the arrays above but the
                          trail and scopes */
};

/* graph.c */
/* Asserts "a lies below b" (pair p): records it, raises the heads above
 * it and the tails below it. Returns NONE, or a tensor whose head and
 * tail now pass the capacity (the update stops there). -1 in *oom when
 * the trail could not grow. */
uint32_t arena_lcg_graph_assert(struct arena_lcg *s, uint32_t p, uint32_t a, uint32_t b, int *oom);
/* Records pair p's orientation only (nothing inferred). */
int arena_lcg_graph_record(struct arena_lcg *s, uint32_t p, unsigned char orient);
/* Marks pair p forced until Z3 pops the current scope. */
int arena_lcg_graph_forced(struct arena_lcg *s, uint32_t p);
void arena_lcg_graph_push(struct arena_lcg *s, int *oom);
void arena_lcg_graph_pop(struct arena_lcg *s, unsigned scopes);
/* The explanation of "u's head chain, then (u below v), then v's tail
 * chain" (u == v: one tensor's two chains): term ids in s->expl, edges in
 * s->elo/ehi; returns their number (the edge u -> v, when u != v, is not
 * among the ids: it is what the caller rules out, and comes last among
 * the edges). */
uint32_t arena_lcg_graph_explain(struct arena_lcg *s, uint32_t u, uint32_t v);
/* The explanation of "section x's tensors below k, then k's tail chain"
 * (side 0) or "k's head chain, then section x's tensors above k" (side
 * 1), as arena_lcg_graph_explain's (the edge ruled out is the caller's). */
uint32_t arena_lcg_graph_explain_section(struct arena_lcg *s, uint32_t k, unsigned side, uint32_t x);
/* The orientation of pair p (one of whose positions is a) that puts a below. */
static inline unsigned char lcg_orient(const struct arena_lcg *s, uint32_t p, uint32_t a)
{
    return s->pair_lo[p] == a ? LOW_BELOW : HIGH_BELOW;
}

/* domains.c */
/* The domains' bitsets above this many bytes are not built (the rule is
 * then off for the solver), as the SAT engine's (sat.h). */
#define LCG_DOMAIN_BYTES ((uint64_t)64 << 20)
/* Computes s->dom at s->cap (rule lcg-domains), or leaves it NULL. */
void arena_lcg_domains_open(struct arena_lcg *s, struct run *r);
/* After the top was lowered: the domains again at it (s->r's part). */
void arena_lcg_domains_lower(struct arena_lcg *s);
/* The least offset of k's domain at or above v, or dom_top + 1 (none). */
uint64_t arena_lcg_domain_up(const struct arena_lcg *s, uint32_t k, uint64_t v);
/* A head (side 0) or tail (side 1) of k rounded by the domains: the head
 * up to an offset of k's domain, the gap above k's top (tail less z[k])
 * up to one too (domains.c says why the gap). */
static inline uint64_t lcg_rounded(const struct arena_lcg *s, unsigned side, uint32_t k, uint64_t v)
{
    if (s->dom == NULL)
        return v;
    return side ? s->z[k] + arena_lcg_domain_up(s, k, v - s->z[k]) : arena_lcg_domain_up(s, k, v);
}

/* energy.c */
/* A link to a section's tensors rather than to one tensor. */
#define ENERGY 0x80000000u
/* The sections tensors a and b both span: [*x0, *x1) (empty when x0 >= x1). */
void arena_lcg_energy_shared(const struct arena_lcg *s, uint32_t a, uint32_t b, uint32_t *x0,
                             uint32_t *x1);
/* Edge a -> b enters (sign +1) or leaves (-1) the sections' sums. */
void arena_lcg_energy_edge(struct arena_lcg *s, uint32_t a, uint32_t b, int sign);
/* Side 0: the largest sum below b over the sections b shares with a, as a
 * head for b; side 1: a's size and the largest sum above a there, as a tail
 * for a. *link: ENERGY | that section. 0 when the rule is off. */
uint64_t arena_lcg_energy_bound(const struct arena_lcg *s, unsigned side, uint32_t a, uint32_t b,
                                uint32_t *link);
/* The largest of k's sums below (side 0) or above (1) over sections
 * [x0, x1) (0 when none is larger); *link: ENERGY | its section. */
uint64_t arena_lcg_energy_peak(const struct arena_lcg *s, unsigned side, uint32_t k, uint32_t x0,
                               uint32_t x1, uint32_t *link);
/* Appends to the explanation from n the edges "a below k" (side 0) or
 * "k below a" (side 1) of the tensors a alive in section x; returns the
 * new count. */
uint32_t arena_lcg_energy_explain(struct arena_lcg *s, uint32_t n, unsigned side, uint32_t k,
                                  uint32_t x);

/* propagator.c */
void arena_lcg_hooks_init(struct arena_lcg *s);

#endif
