/* slack.c — tight problems with slack whose optimum is known by
 * construction: a perfect packing of a box with holes cut out of it.
 *
 * 1. A non-guillotine perfect packing. A box `steps` wide (time) and
 *    `height` bytes tall, on a grid of `unit` (steps and bytes alike), is
 *    cut into m rectangles: draw two rectangles that can still be cut
 *    (each uniformly, by rejection, as packed.c draws one), take the larger
 *    in area (two choices: sizes come out more even than from one uniform
 *    draw, as in the "nice" instances of Wang and Valenzuela's generator;
 *    measured, it raised the greedy planners' mean ratio on 8 seeds at
 *    n = 300 from 1.20 to 1.27 and lowered the box fill), and either cut
 *    it straight across time or across bytes at a uniform grid line (+1 rectangle), or,
 *    with probability `wheel` when it is at least 3 x 3 cells, split it into
 *    a pinwheel (+4): four rectangles turning around a fifth,
 *
 *        +-----+-----------+        bottom [t0,b) x [y0,c)
 *        |     |    top    |        right  [b,t1) x [y0,d)
 *        |left +-----+-----+        top    [a,t1) x [d,y1)
 *        |     | mid |     |        left   [t0,a) x [c,y1)
 *        +-----+-----+right|        mid    [a,b)  x [c,d)
 *        | bottom    |     |        (a < b grid lines in time, c < d in bytes)
 *        +-----------+-----+
 *
 *    No straight line crosses a pinwheel from edge to edge: it is the
 *    smallest pattern no guillotine cutting can make (the building block of
 *    the non-guillotine perfect-packing instances of the strip-packing
 *    literature, e.g. Hopper and Turton's N classes, where the guillotine
 *    classes C are made by recursive straight cuts alone, as packed.c does).
 *    Nested pinwheels interlock the lifetimes: a tensor's neighbours in
 *    bytes start and end at different steps than it does. (Measured: with
 *    one draw per cut and no holes they raised the greedy planners' mean
 *    ratio from 1.10 to 1.23; with two draws and holes the difference is
 *    within the seeds' noise, for greedy and for `optimal` alike.)
 * 2. Holes. m = round(n / fill) rectangles are cut. `full` steps (cell
 *    columns (2k + 1) cols / (2 full), k < full: the middle one when full =
 *    1) are kept full: every rectangle live at one of them stays. Of the
 *    others, m - n are removed, a uniform choice by count. The n left, ids
 *    shuffled, are the tensors: rectangle [t0,t1) x [y0,y1) (in cells) is a
 *    tensor of (y1 - y0) unit bytes live over the closed steps
 *    [t0 unit, t1 unit - 1]. The share of the time x space box they cover
 *    is mostly above `fill` (small rectangles are the common ones, and the
 *    full steps keep long ones): 0.73-0.99 on the suite `exact-slack`
 *    (docs/optimal.md, "Instances with slack"). fill = 1 cuts n and removes none:
 *    a perfect packing, every step full.
 *
 * Why the optimum is `height`. Upper: the rectangles' own byte positions y0
 * form a valid plan of arena `height` (they came from a packing, so two
 * tensors live at one step never share a byte; removing tensors keeps that)
 * — arena_slack_witness hands this plan back, and the tests run the
 * independent validator on it. Lower: at a full step every rectangle the
 * box's column held is still there, their sizes sum to `height`, so max-live
 * = `height`, and no plan is smaller. Both meet: optimum = lower bound =
 * height, whatever the holes.
 *
 * `unit` must be a multiple of the alignment (rounding would break the
 * packing) and divide `height` and `steps`. When fewer than m - n
 * rectangles can go (the full steps hold the rest), the build fails with a
 * message naming `fill`. O(m log full) expected time while cuttable
 * rectangles are common, as packed.c; n at most 10^6 (m = n / fill
 * rectangles of 32 bytes each are held at once). */
#include <stdlib.h>

#include "graphs/family.h"
#include "graphs/rng.h"
#include "graphs/slack.h"

enum { K_N, K_STEPS, K_HEIGHT, K_UNIT, K_FILL, K_WHEEL, K_FULL, K_SEED };

static const struct arena_key keys[] = {
    [K_N] = {.name = "n", .kind = ARENA_KEY_UINT, .def = "300", .min = 1, .max = 1000000},
    [K_STEPS] = {.name = "steps", .kind = ARENA_KEY_UINT, .def = "2097152", .min = 1,
                 .max = (uint64_t)1 << 31},
    [K_HEIGHT] = {.name = "height", .kind = ARENA_KEY_UINT, .def = "1048576", .min = 1,
                  .max = (uint64_t)1 << 40},
    [K_UNIT] = {.name = "unit", .kind = ARENA_KEY_UINT, .def = "1024", .min = 1,
                .max = (uint64_t)1 << 40},
    [K_FILL] = {.name = "fill", .kind = ARENA_KEY_REAL, .def = "0.9", .rmin = 0.05, .rmax = 1},
    [K_WHEEL] = {.name = "wheel", .kind = ARENA_KEY_REAL, .def = "1", .rmin = 0, .rmax = 1},
    [K_FULL] = {.name = "full", .kind = ARENA_KEY_UINT, .def = "1", .min = 1, .max = 1000},
    [K_SEED] = {.name = "seed", .kind = ARENA_KEY_UINT, .def = NULL, .min = 0, .max = UINT64_MAX},
};

struct rect {
    uint64_t t0, t1, y0, y1; /* [t0, t1) cells of time, [y0, y1) cells of bytes */
};

static int cuttable(const struct rect *r)
{
    return r->t1 - r->t0 >= 2 || r->y1 - r->y0 >= 2;
}

/* A uniform one of r[0..count) that can be cut (one exists): by rejection;
 * when 64 draws find only single cells, the next cuttable one after the
 * last draw. */
static uint64_t pick(const struct rect *r, uint64_t count, struct arena_rng *rng)
{
    uint64_t at = arena_rng_below(rng, count);
    for (int tries = 0; tries < 64 && !cuttable(&r[at]); tries++)
        at = arena_rng_below(rng, count);
    while (!cuttable(&r[at]))
        at = (at + 1) % count;
    return at;
}

static double area(const struct rect *r)
{
    return (double)(r->t1 - r->t0) * (double)(r->y1 - r->y0);
}

/* Splits r[at] (cuttable) into a pinwheel, into r[at] and r[count..count+3],
 * or by one straight cut into r[at] and r[count]; returns the pieces added. */
static uint64_t split(struct rect *r, uint64_t at, uint64_t count, uint64_t room, double wheel,
                      struct arena_rng *rng)
{
    struct rect a = r[at];
    uint64_t w = a.t1 - a.t0, h = a.y1 - a.y0;
    if (room >= 4 && w >= 3 && h >= 3 &&
        (double)(arena_rng_next(rng) >> 11) * 0x1p-53 < wheel) {
        uint64_t ta = arena_rng_range(rng, a.t0 + 1, a.t1 - 2);
        uint64_t tb = arena_rng_range(rng, ta + 1, a.t1 - 1);
        uint64_t yc = arena_rng_range(rng, a.y0 + 1, a.y1 - 2);
        uint64_t yd = arena_rng_range(rng, yc + 1, a.y1 - 1);
        r[at] = (struct rect){a.t0, tb, a.y0, yc};        /* bottom */
        r[count] = (struct rect){tb, a.t1, a.y0, yd};     /* right */
        r[count + 1] = (struct rect){ta, a.t1, yd, a.y1}; /* top */
        r[count + 2] = (struct rect){a.t0, ta, yc, a.y1}; /* left */
        r[count + 3] = (struct rect){ta, tb, yc, yd};     /* middle */
        return 4;
    }
    int across_time = w >= 2 && (h < 2 || arena_rng_below(rng, 2) == 0);
    r[count] = a;
    if (across_time) {
        uint64_t cut = arena_rng_range(rng, a.t0 + 1, a.t1 - 1);
        r[at].t1 = cut;
        r[count].t0 = cut;
    } else {
        uint64_t cut = arena_rng_range(rng, a.y0 + 1, a.y1 - 1);
        r[at].y1 = cut;
        r[count].y0 = cut;
    }
    return 1;
}

int arena_slack_witness(const struct arena_key_value *v, uint64_t alignment,
                        struct arena_problem *p, uint64_t **offsets, char *err, size_t errlen)
{
    uint64_t n = v[K_N].u, steps = v[K_STEPS].u, height = v[K_HEIGHT].u, unit = v[K_UNIT].u;
    uint64_t full = v[K_FULL].u;
    if (unit % alignment != 0)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "slack: unit %llu is not a multiple of the alignment %llu (sizes "
                            "rounded up would no longer pack)",
                            (unsigned long long)unit, (unsigned long long)alignment);
    if (height % unit != 0 || steps % unit != 0)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "slack: height %llu and steps %llu must be multiples of unit %llu",
                            (unsigned long long)height, (unsigned long long)steps,
                            (unsigned long long)unit);
    uint64_t cols = steps / unit, rows = height / unit;
    double mr = (double)n / v[K_FILL].r + 0.5;
    uint64_t m = (uint64_t)mr;
    if (m < n)
        m = n;
    if (rows > UINT64_MAX / cols || m > cols * rows)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "slack: n / fill = %llu rectangles exceed the %llu x %llu cells of "
                            "steps/unit x height/unit",
                            (unsigned long long)m, (unsigned long long)cols,
                            (unsigned long long)rows);
    if (full > cols)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "slack: full %llu exceeds the %llu cell columns of steps/unit",
                            (unsigned long long)full, (unsigned long long)cols);
    if (m > SIZE_MAX / sizeof(struct rect))
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "slack: n too large");
    struct rect *r = malloc((size_t)m * sizeof *r);
    struct arena_tensor *rec = malloc((size_t)n * sizeof *rec);
    uint64_t *off = offsets ? malloc((size_t)n * sizeof *off) : NULL;
    if (!r || !rec || (offsets && !off)) {
        free(r);
        free(rec);
        free(off);
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "slack: out of memory for %llu tensors",
                            (unsigned long long)n);
    }
    struct arena_rng rng;
    arena_rng_seed(&rng, v[K_SEED].u);
    r[0] = (struct rect){0, cols, 0, rows};
    for (uint64_t count = 1; count < m;) {
        uint64_t at = pick(r, count, &rng), other = pick(r, count, &rng);
        if (area(&r[other]) > area(&r[at]))
            at = other;
        count += split(r, at, count, m - count, v[K_WHEEL].r, &rng);
    }
    /* The full columns: k = 0..full-1 at cells (2k + 1) cols / (2 full),
     * the first in the middle when full = 1. A rectangle live at one stays:
     * move the keepers to the front. */
    uint64_t keep = 0;
    for (uint64_t i = 0; i < m; i++) {
        uint64_t lo = 0, hi = full; /* the first full column at or after t0 */
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            if ((2 * mid + 1) * cols / (2 * full) < r[i].t0)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < full && (2 * lo + 1) * cols / (2 * full) < r[i].t1) {
            struct rect t = r[keep];
            r[keep++] = r[i];
            r[i] = t;
        }
    }
    if (keep > n) {
        free(r);
        free(rec);
        free(off);
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "slack: the %llu full steps hold %llu rectangles, more than n %llu: "
                            "raise fill or n, or lower full",
                            (unsigned long long)full, (unsigned long long)keep,
                            (unsigned long long)n);
    }
    /* n - keep of the others, a uniform choice (partial Fisher-Yates) */
    for (uint64_t i = keep; i < n; i++) {
        uint64_t j = i + arena_rng_below(&rng, m - i);
        struct rect t = r[i];
        r[i] = r[j];
        r[j] = t;
    }
    /* shuffle the n kept (Fisher-Yates) so ids say nothing */
    for (uint64_t i = n; i > 1; i--) {
        uint64_t j = arena_rng_below(&rng, i);
        struct rect t = r[i - 1];
        r[i - 1] = r[j];
        r[j] = t;
    }
    for (uint64_t i = 0; i < n; i++) {
        rec[i].first = (uint32_t)(r[i].t0 * unit);
        rec[i].last = (uint32_t)(r[i].t1 * unit - 1);
        rec[i].size = (r[i].y1 - r[i].y0) * unit;
        if (off)
            off[i] = r[i].y0 * unit;
    }
    free(r);
    *p = (struct arena_problem){.n = (size_t)n, .tensors = rec, .alignment = alignment};
    if (offsets)
        *offsets = off;
    return ARENA_OK;
}

static int build(const struct arena_key_value *v, uint64_t alignment, struct arena_problem *p,
                 char *err, size_t errlen)
{
    return arena_slack_witness(v, alignment, p, NULL, err, errlen);
}

const struct arena_family arena_family_slack = {
    .info = {.name = "slack",
             .summary = "a non-guillotine packed box with holes: optimum = max-live = height "
                        "known by construction",
             .params = "n=300 (tensors), steps=2097152 (box width in steps), height=1048576 "
                       "(box height in bytes: the optimum), unit=1024 (cuts fall on multiples "
                       "of it in steps and bytes; a multiple of the alignment dividing steps "
                       "and height), fill=0.9 (n / fill rectangles are cut, n kept: the "
                       "holes), wheel=1 (share of splits made as pinwheels when a rectangle "
                       "has 3 x 3 cells), full=1 (steps kept full, spread over the box), "
                       "seed=1 (PRNG seed; the caller's seed when absent)"},
    .keys = keys,
    .n_keys = sizeof keys / sizeof keys[0],
    .build_problem = build,
};
