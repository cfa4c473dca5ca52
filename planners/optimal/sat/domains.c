/* domains.c — each tensor's feasible offsets at a capacity T (units), as
 * bitsets, before the SAT engine encodes them (rule sat-domains).
 *
 * In a plan within T, at any step of section x the tensors live there
 * (load L_x, slack sigma_x = T - L_x) lie one above another. For one of
 * them, k, those below it sum to some B <= o_k, and those above it to
 * L_x - z_k - B <= T - z_k - o_k; so o_k lies in [B, B + sigma_x], B a sum
 * of a subset of the other tensors of x. o_k is then in the union of those
 * windows for every section k spans. In a full section (sigma 0) o_k is a
 * subset sum itself: the tensors of a full step tile it exactly. The rule
 * removes only offsets no plan within T uses, so it is sound for any
 * capacity at or below T too (a level narrows again at its own).
 *
 * The subset sums of a section's tensors but one, for each one in turn,
 * come from one divide and conquer (each half gets the sums of the other
 * half added, down to single tensors): n log n shifted ORs of a bitset
 * per section of n tensors, not n^2. */
#include <stdlib.h>
#include <string.h>

#include "planners/optimal/sat/session.h"

/* dst |= src << shift, over bits 0 .. nbits - 1 (words words); dst may be
 * src (in place: the words are taken from the top down). */
static void shift_or(uint64_t *dst, const uint64_t *src, size_t words, uint64_t shift)
{
    if (shift >= (uint64_t)words * 64)
        return;
    size_t q = (size_t)(shift / 64);
    unsigned b = (unsigned)(shift % 64);
    for (size_t i = words; i-- > q;) {
        uint64_t v = src[i - q] << b;
        if (b != 0 && i - q > 0)
            v |= src[i - q - 1] >> (64 - b);
        dst[i] |= v;
    }
}

/* Clears the bits from nbits on. */
static void trim(uint64_t *a, size_t words, uint64_t nbits)
{
    for (size_t i = (size_t)(nbits / 64); i < words; i++) {
        uint64_t keep = nbits > (uint64_t)i * 64 ? nbits - (uint64_t)i * 64 : 0;
        a[i] &= keep >= 64 ? ~0ull : (1ull << keep) - 1;
    }
}

struct narrow {
    struct run *r;
    uint64_t T;
    const uint64_t *z;
    uint64_t *dom;
    size_t words;
    const uint32_t *items; /* the section's tensors */
    uint64_t sigma;        /* the section's slack */
    uint64_t *buf;         /* (levels + 1) bitsets: the sums handed down, and a window */
};

/* k's offsets within the slack of a subset sum of the others (sums). */
static void keep_windows(struct narrow *a, uint32_t k, const uint64_t *sums)
{
    uint64_t *win = a->buf; /* the spare bitset, buf[0] */
    size_t words = a->words;
    memcpy(win, sums, words * sizeof *win);
    /* win = union of sums << d for d in [0, sigma]: doubling the covered width */
    for (uint64_t cover = 1; cover <= a->sigma;) {
        uint64_t by = cover <= a->sigma + 1 - cover ? cover : a->sigma + 1 - cover;
        shift_or(win, win, words, by);
        cover += by;
    }
    uint64_t *d = a->dom + (size_t)k * words;
    for (size_t i = 0; i < words; i++)
        d[i] &= win[i];
}

/* The sums of items[lo..hi)'s complement in the section are in buf at
 * level; hands each single tensor the sums of all the others. Returns
 * nonzero when a budget ran out. */
static int all_but_one(struct narrow *a, size_t lo, size_t hi, unsigned level)
{
    size_t words = a->words;
    uint64_t *have = a->buf + (size_t)(level + 1) * words;
    if (hi - lo == 1) {
        keep_windows(a, a->items[lo], have);
        return arena_optimal_spend_work(a->r, 4 * words);
    }
    size_t mid = lo + (hi - lo) / 2;
    uint64_t *next = have + words;
    for (int half = 0; half < 2; half++) {
        size_t from = half ? lo : mid, to = half ? mid : hi;
        memcpy(next, have, words * sizeof *next);
        for (size_t i = from; i < to; i++)
            shift_or(next, next, words, a->z[a->items[i]]);
        trim(next, words, a->T + 1);
        if (arena_optimal_spend_work(a->r, (to - from + 1) * words))
            return 1;
        if (half ? all_but_one(a, mid, hi, level + 1) : all_but_one(a, lo, mid, level + 1))
            return 1;
    }
    return 0;
}

/* Each section's tensors: items[at[x] .. at[x + 1]) for section x (both
 * malloc'd; -1 without memory). encode.c's tiling reads them too. */
int arena_sat_section_lists(const struct sat_inst *in, uint32_t **at, uint32_t **items)
{
    size_t S = in->S, spans = 0;
    for (size_t k = 0; k < in->m; k++)
        spans += in->s1[k] - in->s0[k];
    *at = calloc(S + 1, sizeof **at);
    *items = malloc((spans ? spans : 1) * sizeof **items);
    if (*at == NULL || *items == NULL)
        return -1;
    for (size_t k = 0; k < in->m; k++)
        for (uint32_t x = in->s0[k]; x < in->s1[k]; x++)
            (*at)[x + 1]++;
    for (size_t x = 0; x < S; x++)
        (*at)[x + 1] += (*at)[x];
    for (size_t k = 0; k < in->m; k++)
        for (uint32_t x = in->s0[k]; x < in->s1[k]; x++)
            (*items)[(*at)[x]++] = (uint32_t)k;
    for (size_t x = S; x > 0; x--)
        (*at)[x] = (*at)[x - 1];
    (*at)[0] = 0;
    return 0;
}

int arena_sat_narrow(struct run *r, const struct sat_inst *in, uint64_t T, uint64_t *dom,
                     size_t words)
{
    return arena_sat_domains(r, in, T, dom, words, rule_on(r, ARENA_OPTIMAL_SAT_DOMAINS));
}

int arena_sat_domains(struct run *r, const struct sat_inst *in, uint64_t T, uint64_t *dom,
                      size_t words, int narrow)
{
    const uint64_t *z = in->z;
    for (size_t k = 0; k < in->m; k++) {
        uint64_t *d = dom + k * words;
        if (z[k] > T)
            return 1;
        memset(d, 0xff, words * sizeof *d);
        trim(d, words, T - z[k] + 1);
    }
    if (!narrow)
        return 0;
    unsigned levels = 1;
    while (((size_t)1 << (levels - 1)) < in->m)
        levels++;
    uint32_t *at = NULL, *items = NULL;
    uint64_t *buf = malloc((size_t)(levels + 2) * words * sizeof *buf);
    int rc = arena_sat_section_lists(in, &at, &items);
    if (rc != 0 || buf == NULL) {
        rc = -1;
        goto out;
    }
    struct narrow a = {.r = r, .T = T, .z = z, .dom = dom, .words = words, .buf = buf};
    for (size_t x = 0; x < in->S && rc == 0; x++) {
        uint64_t load = 0;
        for (uint32_t i = at[x]; i < at[x + 1]; i++)
            load += z[items[i]];
        if (load > T) {
            rc = 1;
            break;
        }
        if (at[x + 1] - at[x] < 2)
            continue;
        a.items = items + at[x];
        a.sigma = T - load;
        uint64_t *root = buf + words; /* level 0: the empty sum */
        memset(root, 0, words * sizeof *root);
        root[0] = 1;
        if (all_but_one(&a, 0, at[x + 1] - at[x], 0))
            rc = -1;
    }
    for (size_t k = 0; k < in->m && rc == 0; k++) {
        const uint64_t *d = dom + k * words;
        uint64_t any = 0;
        for (size_t i = 0; i < words; i++)
            any |= d[i];
        if (any == 0)
            rc = 1;
    }
out:
    free(at);
    free(items);
    free(buf);
    return rc;
}
