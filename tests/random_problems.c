/* random_problems.c — seeded random planning problems (see the header). */
#include "tests/random_problems.h"

void rp_seed(struct rp_rng *r, uint64_t seed)
{
    r->state = seed ^ 0x6a09e667f3bcc909u;
}

uint64_t rp_next(struct rp_rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

uint64_t rp_below(struct rp_rng *r, uint64_t bound)
{
    /* Rejection keeps it exactly uniform. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t x;
    do
        x = rp_next(r);
    while (x >= limit);
    return x % bound;
}

const char *rp_shape_name(enum rp_shape shape)
{
    static const char *const names[RP_SHAPES] = {"chain", "residual", "wide", "equal",
                                                 "touch", "uniform", "mixed"};
    return shape < RP_SHAPES ? names[shape] : "?";
}

static uint64_t units(struct rp_rng *r, uint64_t alignment, uint64_t most)
{
    return alignment * (1 + rp_below(r, most));
}

static uint32_t u32(uint64_t x)
{
    return (uint32_t)x;
}

static void one(struct rp_rng *r, size_t i, size_t n, enum rp_shape shape, uint64_t alignment,
                uint64_t equal_a, uint64_t equal_b, uint32_t *lane_end, size_t lanes,
                struct arena_tensor *t)
{
    uint64_t steps = n / 8 + 1;
    switch (shape) {
    case RP_CHAIN:
        t->first = u32(i);
        t->last = u32(i + 1);
        t->size = units(r, alignment, 64);
        break;
    case RP_RESIDUAL:
        t->first = u32(i);
        t->last = u32(i + 1 + (rp_below(r, 4) == 0 ? 1 + rp_below(r, 2) : 0));
        t->size = units(r, alignment, 64);
        break;
    case RP_WIDE:
        t->first = u32(rp_below(r, steps));
        t->last = u32(t->first + rp_below(r, steps));
        t->size = units(r, alignment, 256);
        break;
    case RP_EQUAL:
        t->first = u32(rp_below(r, n + 1));
        t->last = u32(t->first + rp_below(r, 5));
        t->size = rp_below(r, 2) ? equal_a : equal_b;
        break;
    case RP_TOUCH: {
        size_t lane = (size_t)rp_below(r, lanes);
        t->first = lane_end[lane];
        t->last = u32(t->first + rp_below(r, 4));
        lane_end[lane] = t->last;
        t->size = units(r, alignment, 8) * 8;
        break;
    }
    case RP_UNIFORM:
    case RP_MIXED:
    case RP_SHAPES:
        t->first = u32(rp_below(r, n + 1));
        t->last = u32(t->first + (rp_below(r, 2) ? rp_below(r, 3) : rp_below(r, n / 2 + 1)));
        t->size = rp_below(r, 32) == 0 ? ((uint64_t)1 << 40) : units(r, alignment, 1000);
        if (t->size % alignment)
            t->size = alignment;
        break;
    }
}

void rp_problem(uint64_t seed, size_t n, enum rp_shape shape, uint64_t alignment,
                struct arena_tensor *t)
{
    struct rp_rng r;
    enum { LANES = 4 };
    uint32_t lane_end[LANES] = {0};
    rp_seed(&r, seed);
    uint64_t equal_a = units(&r, alignment, 16), equal_b = rp_below(&r, 2) ? equal_a * 2 : equal_a;
    size_t lanes = 1 + (size_t)rp_below(&r, LANES);
    for (size_t i = 0; i < n; i++) {
        enum rp_shape s = shape == RP_MIXED ? (enum rp_shape)rp_below(&r, RP_MIXED) : shape;
        one(&r, i, n, s, alignment, equal_a, equal_b, lane_end, lanes, &t[i]);
        if (shape == RP_MIXED && rp_below(&r, 16) == 0)
            t[i].size = 0;
    }
}
