/* session.h — one solver and its encoding, shared by the files of
 * planners/optimal/sat/ (solver.c builds, solves and decodes; encode.c
 * writes the clauses; domains.c narrows the offsets). Internal to that
 * folder. */
#ifndef ARENA_OPTIMAL_SAT_SESSION_H
#define ARENA_OPTIMAL_SAT_SESSION_H

#include <limits.h>

#include "planners/optimal/sat/cadical.h"

#include "planners/optimal/sat/sat.h"

/* Literals that are constants: a clause holding LIT_TRUE is dropped, a
 * LIT_FALSE literal is left out of its clause. */
#define LIT_TRUE INT_MAX
#define LIT_FALSE (-INT_MAX)
/* Capacities asked below the top at once (levels, each its activation
 * variable); past it the oldest one is retired. */
#define SAT_LEVELS 8u

struct arena_sat {
    CCaDiCaL *solver;    /* NULL while counting (the estimate's pass) */
    struct run *r;       /* the run being solved (terminate callback) */
    struct sat_inst in;
    uint64_t unit;       /* bytes per unit: the part's step */
    uint64_t top;        /* units: every plan the clauses allow lies within it */
    int phases;          /* rule sat-phases: polarity by the incumbent */
    const uint64_t *inc; /* m: the incumbent's offsets in units (phases) */
    uint32_t *dom_at;    /* m + 1: k's values are vals[dom_at[k] .. dom_at[k + 1]) */
    uint32_t *vals;      /* offsets in units, ascending per tensor */
    int *var_at;         /* m: variable of [o_k <= first value]; the next
                            values' follow, the last value has none (true) */
    uint32_t *pair_at;   /* m: pair (k, j), k < j < fwd_end[k], is
                            pair_lit[pair_at[k] + j - k - 1] */
    int *pair_lit;       /* "k lies below j": a literal, LIT_TRUE or LIT_FALSE */
    unsigned char *tiled; /* S: the section's order made transitive already */
    int vars;            /* variables in use */
    /* counting pass */
    uint64_t clauses, literals;
    uint64_t most_literals; /* the count stops past this many (over) */
    uint64_t emitted;    /* clauses emitted, counted or added */
    int building;        /* the count or the first build: a budget may stop it */
    int over;            /* the count passed most_literals, or a budget ran out
                            while building: the loops stop */
    uint64_t bytes;      /* the estimate of the solver's memory */
    /* levels: capacities below top asked under an activation literal */
    uint64_t level_cap[SAT_LEVELS];
    int level_act[SAT_LEVELS];
    unsigned levels;
    uint64_t conflicts;  /* conflicts so far (the learner's count) */
    int broken;          /* 0, or why the solver is only to be released
                            (arena_sat_broken): ARENA_SAT_NO_MEMORY (1: it threw)
                            or ARENA_SAT_UNDECODED */
    void *block;         /* the one allocation holding the arrays above */
    void *owned;         /* arena_sat_open: the sizes and incumbent (units) the
                            instance points to */
};

/* What a build may use. */
struct sat_spec {
    const struct sat_inst *in;
    uint64_t top;          /* units */
    const uint64_t *dom;   /* m bitsets of `words` words: the allowed offsets */
    size_t words;
    const uint64_t *inc;   /* m incumbent offsets in units (for the phases) */
    uint64_t room;         /* bytes the estimate may reach */
};

/* solver.c */
enum arena_sat_open arena_sat_build(struct run *r, const struct sat_spec *b, struct arena_sat **out);
enum outcome arena_sat_solve_units(struct run *r, struct arena_sat *s, uint64_t C, uint64_t conflicts);
uint64_t arena_sat_model_offset(const struct arena_sat *s, uint32_t k);

/* encode.c */
int arena_sat_le(const struct arena_sat *s, uint32_t k, uint64_t w);
void arena_sat_emit(struct arena_sat *s, const int *lits, size_t n);
void arena_sat_encode_base(struct arena_sat *s);
int arena_sat_encode_capacity(struct arena_sat *s, struct run *r, uint64_t C, int act);

#endif
