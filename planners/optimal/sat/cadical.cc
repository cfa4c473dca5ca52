// cadical.cc — CaDiCaL's C API with its exceptions caught (cadical.h). The
// one C++ file of the planners: C cannot catch what CaDiCaL throws.
#include "planners/optimal/sat/cadical.h"

#include <climits>

extern "C" {

CCaDiCaL *arena_cadical_open(const char *const *names, const int *values, size_t n, void *state,
                             int (*terminate)(void *state),
                             void (*learn)(void *state, int *clause))
{
    CCaDiCaL *s = nullptr;
    try {
        s = ccadical_init();
        for (size_t i = 0; s != nullptr && i < n; i++)
            ccadical_set_option(s, names[i], values[i]);
        if (s != nullptr) {
            ccadical_set_terminate(s, state, terminate);
            ccadical_set_learn(s, state, INT_MAX, learn);
        }
        return s;
    } catch (...) {
        if (s != nullptr)
            ccadical_release(s);
        return nullptr;
    }
}

int arena_cadical_add(CCaDiCaL *s, int lit)
{
    try {
        ccadical_add(s, lit);
        return 0;
    } catch (...) {
        return -1;
    }
}

int arena_cadical_assume(CCaDiCaL *s, int lit)
{
    try {
        ccadical_assume(s, lit);
        return 0;
    } catch (...) {
        return -1;
    }
}

int arena_cadical_limit(CCaDiCaL *s, const char *name, int limit)
{
    try {
        ccadical_limit(s, name, limit);
        return 0;
    } catch (...) {
        return -1;
    }
}

int arena_cadical_solve(CCaDiCaL *s)
{
    try {
        return ccadical_solve(s);
    } catch (...) {
        return -1;
    }
}

}
