/* random_problems.h — seeded random planning problems for the tests.
 *
 * The same (seed, n, shape, alignment) always gives the same tensors, on any
 * machine: the generator is splitmix64 and uses no floating point. Sizes are
 * multiples of the alignment (some zero in the mixed shape), so every problem
 * passes arena_problem_check(). */
#ifndef RANDOM_PROBLEMS_H
#define RANDOM_PROBLEMS_H

#include <stddef.h>
#include <stdint.h>

#include "planners/problem.h"

struct rp_rng {
    uint64_t state;
};

void rp_seed(struct rp_rng *r, uint64_t seed);
uint64_t rp_next(struct rp_rng *r);
uint64_t rp_below(struct rp_rng *r, uint64_t bound); /* uniform in [0, bound), bound > 0 */

enum rp_shape {
    RP_CHAIN,    /* tensor i lives [i, i+1]: each feeds the next op */
    RP_RESIDUAL, /* a chain where some tensors skip ahead 2 or 3 steps */
    RP_WIDE,     /* long lifetimes over few steps: many tensors live at once */
    RP_EQUAL,    /* one or two sizes only, short random lifetimes: many ties */
    RP_TOUCH,    /* lanes of tensors, each starting on the step its predecessor
                    ends: lifetimes that share exactly one step */
    RP_UNIFORM,  /* random starts and lengths, sizes from 1 unit to 2^40 bytes */
    RP_MIXED,    /* each tensor from any shape above, some of size zero */
    RP_SHAPES    /* number of shapes */
};

const char *rp_shape_name(enum rp_shape shape);

/* Fills t[0..n) with a problem of the given shape. */
void rp_problem(uint64_t seed, size_t n, enum rp_shape shape, uint64_t alignment,
                struct arena_tensor *t);

#endif
