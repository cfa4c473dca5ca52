/* packed.c — problems whose optimum is known by construction (the "perfect
 * packing" instances of strip-packing benchmarks, in the manner of the
 * guillotine generators used for them): a box `steps` wide (time) and
 * `height` bytes tall is cut recursively into n rectangles — pick a
 * rectangle among those that can still be cut (uniformly, by rejection; when
 * 64 draws find only single cells, the next cuttable one after the last
 * draw), cut it across time
 * or across bytes (each with probability 1/2 when both are possible) at a
 * uniform position, bytes in multiples of `unit` — until there are n. Each
 * rectangle [t0,t1) × [y0,y1) becomes a tensor with closed lifetime
 * [t0, t1-1] and size y1 - y0; the ids are shuffled. Every step's live bytes
 * sum to `height`, so with fill=1 the max-live lower bound and the optimum
 * both equal `height` (the cut box is itself an optimal plan). With fill < 1
 * a seeded share round((1 - fill) n) of the rectangles (at most n - 1) is
 * dropped: the optimum is then at most `height`, no longer known exactly.
 * `unit` must be a multiple of the alignment (else rounding sizes up would
 * break the packing) and divide `height`. O(n) expected time while cuttable
 * rectangles are common; up to O(n^2) when n nears steps x height/unit. */
#include <stdio.h>
#include <stdlib.h>

#include "graphs/family.h"
#include "graphs/rng.h"

enum { K_N, K_STEPS, K_HEIGHT, K_UNIT, K_FILL, K_SEED };

static const struct arena_key keys[] = {
    [K_N] = {.name = "n", .kind = ARENA_KEY_UINT, .def = "200", .min = 1, .max = 10000000},
    [K_STEPS] = {.name = "steps", .kind = ARENA_KEY_UINT, .def = "1000", .min = 1,
                 .max = (uint64_t)1 << 31},
    [K_HEIGHT] = {.name = "height", .kind = ARENA_KEY_UINT, .def = "1048576", .min = 1,
                  .max = (uint64_t)1 << 40},
    [K_UNIT] = {.name = "unit", .kind = ARENA_KEY_UINT, .def = "16", .min = 1,
                .max = (uint64_t)1 << 40},
    [K_FILL] = {.name = "fill", .kind = ARENA_KEY_REAL, .def = "1", .rmin = 0.01, .rmax = 1},
    [K_SEED] = {.name = "seed", .kind = ARENA_KEY_UINT, .def = NULL, .min = 0, .max = UINT64_MAX},
};

struct rect {
    uint64_t t0, t1, y0, y1; /* [t0, t1) steps, [y0, y1) bytes */
};

static int cuttable(const struct rect *r, uint64_t unit)
{
    return r->t1 - r->t0 >= 2 || r->y1 - r->y0 >= 2 * unit;
}

static int build(const struct arena_key_value *v, uint64_t alignment, struct arena_problem *p,
                 char *err, size_t errlen)
{
    uint64_t n = v[K_N].u, steps = v[K_STEPS].u, height = v[K_HEIGHT].u, unit = v[K_UNIT].u;
    if (unit % alignment != 0)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "packed: unit %llu is not a multiple of the alignment %llu (sizes "
                            "rounded up would no longer pack)",
                            (unsigned long long)unit, (unsigned long long)alignment);
    if (height % unit != 0)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "packed: height %llu is not a multiple of unit %llu",
                            (unsigned long long)height, (unsigned long long)unit);
    uint64_t units = height / unit;
    if (units <= UINT64_MAX / steps && n > steps * units)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "packed: n %llu exceeds the %llu cells of steps %llu x height/unit "
                            "%llu",
                            (unsigned long long)n, (unsigned long long)(steps * units),
                            (unsigned long long)steps, (unsigned long long)units);
    if (n > SIZE_MAX / sizeof(struct rect))
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "packed: n too large");
    struct rect *r = malloc((size_t)n * sizeof *r);
    struct arena_tensor *rec = malloc((size_t)n * sizeof *rec);
    if (!r || !rec) {
        free(r);
        free(rec);
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "packed: out of memory for %llu tensors",
                            (unsigned long long)n);
    }
    struct arena_rng rng;
    arena_rng_seed(&rng, v[K_SEED].u);
    r[0] = (struct rect){0, steps, 0, height};
    for (uint64_t count = 1; count < n; count++) {
        /* a uniform cuttable rectangle: by rejection, then (when most are
         * cells) the next cuttable one after a uniform start */
        uint64_t at = arena_rng_below(&rng, count);
        for (int tries = 0; tries < 64 && !cuttable(&r[at], unit); tries++)
            at = arena_rng_below(&rng, count);
        while (!cuttable(&r[at], unit)) /* one exists: count < steps × units */
            at = (at + 1) % count;
        struct rect *a = &r[at], *b = &r[count];
        int can_t = a->t1 - a->t0 >= 2, can_y = a->y1 - a->y0 >= 2 * unit;
        int across_time = can_t && (!can_y || arena_rng_below(&rng, 2) == 0);
        *b = *a;
        if (across_time) {
            uint64_t cut = arena_rng_range(&rng, a->t0 + 1, a->t1 - 1);
            a->t1 = cut;
            b->t0 = cut;
        } else {
            uint64_t cells = (a->y1 - a->y0) / unit;
            uint64_t cut = a->y0 + unit * arena_rng_range(&rng, 1, cells - 1);
            a->y1 = cut;
            b->y0 = cut;
        }
    }
    /* shuffle (Fisher-Yates), then keep the first n - dropped */
    for (uint64_t i = n; i > 1; i--) {
        uint64_t j = arena_rng_below(&rng, i);
        struct rect t = r[i - 1];
        r[i - 1] = r[j];
        r[j] = t;
    }
    uint64_t dropped = (uint64_t)((1.0 - v[K_FILL].r) * (double)n + 0.5);
    if (dropped > n - 1)
        dropped = n - 1;
    uint64_t kept = n - dropped;
    for (uint64_t i = 0; i < kept; i++) {
        rec[i].first = (uint32_t)r[i].t0;
        rec[i].last = (uint32_t)(r[i].t1 - 1);
        rec[i].size = r[i].y1 - r[i].y0; /* a multiple of unit, so of the alignment */
    }
    free(r);
    *p = (struct arena_problem){.n = (size_t)kept, .tensors = rec, .alignment = alignment};
    return ARENA_OK;
}

const struct arena_family arena_family_packed = {
    .info = {.name = "packed",
             .summary = "a box cut into n rectangles: optimum = height known by construction "
                        "(fill=1)",
             .params = "n=200 (rectangles = tensors), steps=1000 (box width in steps), "
                       "height=1048576 (box height in bytes: the optimum when fill=1), "
                       "unit=16 (byte cuts fall on multiples of it; a multiple of the "
                       "alignment), fill=1 (share of rectangles kept), seed=1 (PRNG seed; the "
                       "caller's seed when absent)"},
    .keys = keys,
    .n_keys = sizeof keys / sizeof keys[0],
    .build_problem = build,
};
