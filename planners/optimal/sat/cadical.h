/* cadical.h — CaDiCaL's C API with its C++ exceptions stopped at the
 * boundary. CaDiCaL allocates with C++ new: out of memory (an address-space
 * limit, ulimit -v) it throws std::bad_alloc, which C code cannot catch and
 * which would end the process (terminate, SIGABRT). Each call below catches
 * whatever the solver throws and says so by its return value; the solver is
 * then not to be asked anything but to be released (the engine skips the
 * part, as past its memory budget: planners/optimal/sat/sat.h). Internal to
 * planners/optimal/sat/. */
#ifndef ARENA_OPTIMAL_SAT_CADICAL_H
#define ARENA_OPTIMAL_SAT_CADICAL_H

#include <ccadical.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A solver with options names[i] = values[i] (n of them), the terminate
 * and learn callbacks (max_length INT_MAX) on state; NULL when it could not
 * be made whole. */
CCaDiCaL *arena_cadical_open(const char *const *names, const int *values, size_t n, void *state,
                             int (*terminate)(void *state),
                             void (*learn)(void *state, int *clause));
/* ccadical_add, ccadical_assume, ccadical_limit: 0, or -1 when it threw. */
int arena_cadical_add(CCaDiCaL *s, int lit);
int arena_cadical_assume(CCaDiCaL *s, int lit);
int arena_cadical_limit(CCaDiCaL *s, const char *name, int limit);
/* ccadical_solve: 10, 20 or 0, or -1 when it threw. */
int arena_cadical_solve(CCaDiCaL *s);

#ifdef __cplusplus
}
#endif

#endif
