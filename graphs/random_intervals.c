/* random_intervals.c — a bare problem (no ops) of n random lifetimes, in the
 * manner of the MiniMalloc benchmark instances (Moffitt 2023): n tensors over
 * n steps; each lifetime's length is drawn from `life` with mean `live`
 * (uniform: 1..2*live-1; fixed: exactly live; both capped at n) and its
 * start uniformly among the positions where it fits, so about `live` tensors
 * are live at a step. Sizes in bytes from `sizes` over [min, max]:
 * loguniform (a uniform octave, then uniform within it), uniform, or pow2
 * (a uniform power of two), then rounded up to the alignment. O(n) time and
 * memory: n = 10^6 takes milliseconds. Records come in generation order. */
#include <stdio.h>
#include <stdlib.h>

#include "graphs/family.h"
#include "graphs/rng.h"

static const char *const lives[] = {"uniform", "fixed", NULL};
static const char *const sizes[] = {"loguniform", "uniform", "pow2", NULL};

enum { K_N, K_LIVE, K_LIFE, K_SIZES, K_MIN, K_MAX, K_SEED };

static const struct arena_key keys[] = {
    [K_N] = {.name = "n", .kind = ARENA_KEY_UINT, .def = "1000", .min = 1, .max = 100000000},
    [K_LIVE] = {.name = "live", .kind = ARENA_KEY_UINT, .def = "10", .min = 1, .max = 100000000},
    [K_LIFE] = {.name = "life", .kind = ARENA_KEY_CHOICE, .def = "uniform", .choices = lives},
    [K_SIZES] = {.name = "sizes", .kind = ARENA_KEY_CHOICE, .def = "loguniform", .choices = sizes},
    [K_MIN] = {.name = "min", .kind = ARENA_KEY_UINT, .def = "16", .min = 1, .max = (uint64_t)1 << 40},
    [K_MAX] = {.name = "max", .kind = ARENA_KEY_UINT, .def = "65536", .min = 1, .max = (uint64_t)1 << 40},
    [K_SEED] = {.name = "seed", .kind = ARENA_KEY_UINT, .def = NULL, .min = 0, .max = UINT64_MAX},
};

static unsigned floor_log2(uint64_t x)
{
    unsigned e = 0;
    while (x >>= 1)
        e++;
    return e;
}

static uint64_t draw_size(struct arena_rng *r, size_t how, uint64_t lo, uint64_t hi)
{
    if (how == 1)
        return arena_rng_range(r, lo, hi);
    unsigned e_lo = floor_log2(lo), e_hi = floor_log2(hi);
    if (how == 2) {
        if (((uint64_t)1 << e_lo) < lo)
            e_lo++;
        return (uint64_t)1 << arena_rng_range(r, e_lo, e_hi);
    }
    unsigned e = (unsigned)arena_rng_range(r, e_lo, e_hi);
    uint64_t a = (uint64_t)1 << e, b = ((uint64_t)1 << e) * 2 - 1;
    if (a < lo)
        a = lo;
    if (b > hi)
        b = hi;
    return arena_rng_range(r, a, b);
}

static int build(const struct arena_key_value *v, uint64_t alignment, struct arena_problem *p,
                 char *err, size_t errlen)
{
    uint64_t n = v[K_N].u, live = v[K_LIVE].u, lo = v[K_MIN].u, hi = v[K_MAX].u;
    if (v[K_SIZES].choice == 2 && floor_log2(hi) < floor_log2(lo) + (((uint64_t)1 << floor_log2(lo)) < lo)) {
        snprintf(err, errlen, "random-intervals: no power of two between min %llu and max %llu",
                 (unsigned long long)lo, (unsigned long long)hi);
        return ARENA_EINVAL;
    }
    if (n > SIZE_MAX / sizeof(struct arena_tensor)) {
        snprintf(err, errlen, "random-intervals: n too large");
        return ARENA_ENOMEM;
    }
    struct arena_tensor *rec = malloc((size_t)n * sizeof *rec);
    if (!rec) {
        snprintf(err, errlen, "random-intervals: out of memory for %llu tensors",
                 (unsigned long long)n);
        return ARENA_ENOMEM;
    }
    struct arena_rng rng;
    arena_rng_seed(&rng, v[K_SEED].u);
    uint64_t steps = n;
    uint64_t top = v[K_LIFE].choice == 0 ? 2 * live - 1 : live;
    if (top > steps)
        top = steps;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t len = v[K_LIFE].choice == 0 ? arena_rng_range(&rng, 1, top) : top;
        uint64_t first = arena_rng_below(&rng, steps - len + 1);
        rec[i].first = (uint32_t)first;
        rec[i].last = (uint32_t)(first + len - 1);
        uint64_t bytes = draw_size(&rng, v[K_SIZES].choice, lo, hi);
        int rc = arena_size_align(bytes, alignment, &rec[i].size);
        if (rc) {
            free(rec);
            snprintf(err, errlen, "random-intervals: size %llu overflows once aligned",
                     (unsigned long long)bytes);
            return rc;
        }
    }
    *p = (struct arena_problem){.n = (size_t)n, .tensors = rec, .alignment = alignment};
    return ARENA_OK;
}

const struct arena_family arena_family_random_intervals = {
    .info = {.name = "random-intervals",
             .summary = "n random lifetimes and sizes, no ops (MiniMalloc-style instances)",
             .params = "n=1000 (tensors; also the number of steps), live=10 (mean tensors live "
                       "at a step), life=uniform (lifetime lengths: uniform 1..2*live-1, fixed "
                       "= live), sizes=loguniform (loguniform, uniform, pow2), min=16 (smallest "
                       "size in bytes), max=65536 (largest size in bytes), seed=1 (PRNG seed; "
                       "the caller's seed when absent)"},
    .keys = keys,
    .n_keys = sizeof keys / sizeof keys[0],
    .floors = (const struct arena_key_floor[]){{"max", "min"}, {NULL, NULL}},
    .build_problem = build,
};
