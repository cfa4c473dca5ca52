/* rng.h — the synthetic families' one PRNG: xoshiro256** (Blackman & Vigna
 * 2018) seeded through splitmix64, so the same seed gives the same stream on
 * every platform. Written here, not taken from libc, whose rand() differs
 * between systems. */
#ifndef ARENA_RNG_H
#define ARENA_RNG_H

#include <stdint.h>

struct arena_rng {
    uint64_t s[4];
};

static inline uint64_t arena_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline void arena_rng_seed(struct arena_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = arena_splitmix64(&seed);
}

static inline uint64_t arena_rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t arena_rng_next(struct arena_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = arena_rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = arena_rng_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n), n >= 1, without modulo bias (rejection). */
static inline uint64_t arena_rng_below(struct arena_rng *r, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = arena_rng_next(r);
    while (x >= limit);
    return x % n;
}

/* Uniform in [lo, hi], lo <= hi. */
static inline uint64_t arena_rng_range(struct arena_rng *r, uint64_t lo, uint64_t hi)
{
    if (hi - lo == UINT64_MAX)
        return arena_rng_next(r);
    return lo + arena_rng_below(r, hi - lo + 1);
}

/* Uniform in [0, 1), 53 bits. */
static inline double arena_rng_unit(struct arena_rng *r)
{
    return (double)(arena_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
