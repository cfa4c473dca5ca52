/* z3.h — the one place planners/optimal/lcg/ meets Z3: a context, one
 * solver and its user propagator, behind types of our own. Written against
 * Debian 12's libz3 4.8.12, whose user-propagator callbacks differ from
 * later releases' (4.9 added created/decide hooks and changed
 * Z3_solver_propagate_consequence, 4.13 renamed it): a port touches this
 * file and z3.c only. Internal to planners/optimal/lcg/. */
#ifndef ARENA_OPTIMAL_LCG_Z3_H
#define ARENA_OPTIMAL_LCG_Z3_H

#include <stdint.h>

struct lcg_z3;

/* The propagator's side: ctx is handed back to each hook. cb is Z3's
 * callback handle, valid only during the fixed or final hook that got it
 * (arena_lcg_z3_propagate's first argument). Every registered term is a
 * Boolean; value is 1 or 0. */
struct lcg_z3_hooks {
    void *ctx;
    void (*push)(void *ctx);
    void (*pop)(void *ctx, unsigned scopes);
    void (*fixed)(void *ctx, void *cb, unsigned id, int value);
    void (*final)(void *ctx, void *cb);
};

/* What a check answered. */
enum lcg_z3_answer {
    LCG_Z3_SAT,
    LCG_Z3_UNSAT,
    LCG_Z3_UNKNOWN, /* a conflict limit, the timeout or arena_lcg_z3_interrupt */
    LCG_Z3_FAILED,  /* Z3 reported an error (out of memory, an exception) */
};

/* A context and solver with hooks h (kept by pointer) and `terms` Boolean
 * terms registered with the propagator, their ids 0 .. terms - 1, all
 * unconstrained (no clause at all: the propagator is the whole theory).
 * Z3's allocations are capped at memory_mb MiB (Z3's own setting, process
 * wide: Z3 keeps one allocator). NULL when Z3 could not be set up. */
struct lcg_z3 *arena_lcg_z3_open(const struct lcg_z3_hooks *h, uint32_t terms, uint64_t memory_mb);

/* During a hook: term id has value `value` because the terms ids[0..n)
 * have their current values; id LCG_Z3_CONFLICT: those values
 * conflict. 0, or -1
 * when Z3 reported an error. */
#define LCG_Z3_CONFLICT UINT32_MAX
int arena_lcg_z3_propagate(struct lcg_z3 *z, void *cb, const unsigned *ids, uint32_t n, uint32_t id,
                     int value);

/* Asks for a model, within `conflicts` conflicts (0: no limit) and
 * timeout_ms milliseconds (0: none). */
enum lcg_z3_answer arena_lcg_z3_check(struct lcg_z3 *z, uint64_t conflicts, uint64_t timeout_ms);

/* Conflicts of every check so far (Z3's statistics). */
uint64_t arena_lcg_z3_conflicts(struct lcg_z3 *z);

/* Makes the running check return UNKNOWN soon (safe from a hook). */
void arena_lcg_z3_interrupt(struct lcg_z3 *z);

void arena_lcg_z3_close(struct lcg_z3 *z);

#endif
