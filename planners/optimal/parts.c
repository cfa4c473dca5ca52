/* parts.c — the problem cut into independent parts, one part loaded into
 * the local arrays (sections, neighbours, twins, preorder ranks), and the
 * canonical search's dynamic decomposition of a scope into groups no
 * lifetime joins. */
#include <string.h>

#include "planners/optimal/internal.h"

/* Splits ids[0..m) (ordered by first step) where no lifetime spans a step
 * boundary: fills part_start and returns the number of parts. A tensor of
 * one part conflicts with none of another, so each part is solved alone
 * (with the rule off: one part). */
size_t arena_optimal_parts_split(struct run *r)
{
    struct work *w = r->w;
    const struct arena_tensor *t = r->p->tensors;
    size_t m = 0, parts = 0;
    for (size_t i = 0; i < r->p->n; i++)
        if (t[i].size > 0)
            w->ids[m++] = (uint32_t)i;
    arena_order_sort(w->ids, w->tmp, m, t, ARENA_ORDER_FIRST);
    uint32_t reach = 0;
    for (size_t i = 0; i < m; i++) {
        const struct arena_tensor *x = &t[w->ids[i]];
        if (i == 0 || x->first > reach)
            w->part_start[parts++] = (uint32_t)i;
        if (i == 0 || x->last > reach)
            reach = x->last;
    }
    if (!rule_on(r, ARENA_OPTIMAL_PARTS) && parts > 1) /* one part of everything */
        parts = 1;
    w->part_start[parts] = (uint32_t)m;
    return parts;
}

/* The first index of b[0..S) (ascending, S > 0) whose value is >= x. */
static uint32_t lower_index(const uint64_t *b, size_t S, uint64_t x)
{
    return x == 0 || b[0] >= x ? 0 : (uint32_t)(arena_floor_index(b, S, x - 1) + 1);
}

uint64_t arena_optimal_gcd_u64(uint64_t a, uint64_t b)
{
    while (b != 0) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Sorts idx[0..m) by key ascending, stably (key is consumed). */
void arena_optimal_sort_by(struct work *w, size_t m)
{
    arena_radix_sort(&w->sort, w->idx, m);
}

/* Loads part ids[a..b) into the local arrays: sections, neighbours, twins;
 * rem holds the section loads. Returns its max-live bytes. */
uint64_t arena_optimal_part_load(struct run *r, size_t a, size_t b)
{
    struct work *w = r->w;
    const struct arena_tensor *t = r->p->tensors;
    size_t m = b - a;
    assert(m > 0);
    r->m = m;
    r->pid = w->ids + a;
    r->step = 0; /* gcd(0, x) = x; sizes are multiples of the alignment */
    for (size_t k = 0; k < m; k++) {
        const struct arena_tensor *x = &t[r->pid[k]];
        r->step = arena_optimal_gcd_u64(r->step, x->size);
        w->size[k] = x->size;
        w->first[k] = x->first;
        w->last[k] = x->last;
        w->key[2 * k] = x->first;
        w->key[2 * k + 1] = (uint64_t)x->last + 1;
        w->idx[2 * k] = w->idx[2 * k + 1] = 0;
    }
    arena_optimal_sort_by(w, 2 * m);
    size_t S = 0;
    for (size_t i = 0; i < 2 * m; i++)
        if (S == 0 || w->bound[S - 1] != w->key[i])
            w->bound[S++] = w->key[i];
    /* S counts boundaries; sections are [bound[s], bound[s+1]), S - 1 of them */
    S--;
    r->S = S;
    /* rem as a difference array first, then its prefix sums: the loads */
    memset(w->rem, 0, (S + 1) * sizeof *w->rem);
    for (size_t k = 0; k < m; k++) {
        w->s0[k] = lower_index(w->bound, S + 1, w->first[k]);
        w->s1[k] = lower_index(w->bound, S + 1, (uint64_t)w->last[k] + 1);
        assert(w->s0[k] < w->s1[k] && w->s1[k] <= S);
        w->rem[w->s0[k]] += w->size[k];
        w->rem[w->s1[k]] -= w->size[k]; /* modular: the prefix sums come out right */
    }
    uint64_t run = 0, lb = 0;
    for (size_t s = 0; s < S; s++) {
        run += w->rem[s];
        w->rem[s] = run;
        if (run > lb)
            lb = run;
    }
    /* forward neighbours: ordered by first, so those after k that start by
     * k's last step are one run, found by binary search (O(m log m), not
     * one step per conflicting pair) */
    for (size_t k = 0; k < m; k++) {
        size_t lo = k + 1, hi = m; /* the first f >= lo with first[f] > last[k] */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (w->first[mid] <= w->last[k])
                lo = mid + 1;
            else
                hi = mid;
        }
        w->fwd_end[k] = (uint32_t)lo;
    }
    /* twins: the same size and lifetime, grouped by size then lifetime */
    for (size_t k = 0; k < m; k++) {
        w->key[k] = w->size[k];
        w->idx[k] = (uint32_t)k;
    }
    arena_optimal_sort_by(w, m);
    for (size_t i = 0; i < m; i++)
        w->key[i] = (uint64_t)w->first[w->idx[i]] << 32 | w->last[w->idx[i]];
    arena_optimal_sort_by(w, m);
    for (size_t i = 0; i < m;) {
        size_t j = i;
        while (j < m && w->key[j] == w->key[i])
            j++;
        for (size_t x = i; x < j; x++) {
            w->same_at[w->idx[x]] = (uint32_t)i;
            w->same_end[w->idx[x]] = (uint32_t)j;
        }
        i = j;
    }
    for (size_t i = 0; i < m;) {
        size_t j = i;
        while (j < m && w->key[j] == w->key[i] && w->size[w->idx[j]] == w->size[w->idx[i]])
            j++;
        for (size_t x = i; x < j; x++) {
            w->twin[x] = w->idx[x];
            w->twin_at[w->idx[x]] = (uint32_t)i;
            w->twin_end[w->idx[x]] = (uint32_t)j;
        }
        i = j;
    }
    return lb;
}

/* Every section of the part carries exactly cap bytes: a plan within cap
 * leaves no byte of any section empty. rem must hold the loads. */
int arena_optimal_zero_slack(const struct run *r, uint64_t cap)
{
    for (size_t s = 0; s < r->S; s++)
        if (r->w->rem[s] != cap)
            return 0;
    return 1;
}

/* Preorders (the rank that breaks ties between equal offsets): a portfolio,
 * as MiniMalloc's round robin over its heuristics. Sorted descending by
 *   0: area (size x steps), 1: size, 2: most loaded section spanned, then
 *   sections spanned, then size (MiniMalloc's TWS), 3: sections spanned,
 *   then size;
 * ties by position (first step, id), or for h >= HEURISTICS/2 by a hash of
 * (seed, h, position): the same seed gives the same ranks. A problem with
 * its own lifetime lengths has other preorders 4-6 (rank_by_span). rem
 * must hold the section loads. */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The most loaded section k spans, by rem (the loads, or the bytes left). */
static uint64_t most_loaded(const struct work *w, uint32_t k)
{
    uint64_t most = 0;
    for (uint32_t s = w->s0[k]; s < w->s1[k]; s++)
        if (w->rem[s] > most)
            most = w->rem[s];
    return most;
}

/* size x length, saturating: an area key only orders. */
static uint64_t area(uint64_t size, uint64_t length)
{
    return size > UINT64_MAX / length ? UINT64_MAX : size * length;
}

/* The three keys of the preorders over a file's own lifetimes, of
 * tensor k: T the most loaded section it spans, W its lifetime's own
 * length, A size x W (saturating: it only orders). rem holds the loads. */
enum span_key { KEY_T, KEY_W, KEY_A };

static uint64_t span_key(const struct run *r, uint32_t k, enum span_key key)
{
    const struct work *w = r->w;
    uint64_t span = r->p->span[r->pid[k]];
    if (key == KEY_W)
        return span;
    if (key == KEY_A)
        return area(w->size[k], span);
    return most_loaded(w, k);
}

/* Preorders 4-6 when the problem has its own lifetime lengths (p->span)
 * and rule own-times is on: MiniMalloc's default three, descending by T,
 * W, A in the orders TWA, WAT, TAW, ties by position. Steps compress those
 * lengths away, and they decide: MiniMalloc with TWA alone proves its
 * benchmark instance I (374 buffers, 1 MiB) in 0.16 s, and not within 20 s
 * on the same instance with its times made dense. Ranks base, base + 1,
 * ... go to the n tensors w->idx[0..n), listed by position. */
static void rank_span_ids(struct run *r, unsigned h, size_t n, uint32_t base)
{
    static const enum span_key order[3][3] = {
        {KEY_T, KEY_W, KEY_A}, {KEY_W, KEY_A, KEY_T}, {KEY_T, KEY_A, KEY_W}};
    const enum span_key *keys = order[h - HEURISTICS / 2];
    struct work *w = r->w;
    for (int j = 2; j >= 0; j--) { /* least significant key first: stable */
        for (size_t i = 0; i < n; i++)
            w->key[i] = ~span_key(r, w->idx[i], keys[j]);
        arena_optimal_sort_by(w, n);
    }
    for (size_t i = 0; i < n; i++)
        w->rank[w->idx[i]] = base + (uint32_t)i;
}

static void rank_by_span(struct run *r, unsigned h)
{
    struct work *w = r->w;
    for (size_t k = 0; k < r->m; k++)
        w->idx[k] = (uint32_t)k;
    rank_span_ids(r, h, r->m, 0);
}

/* Preorder h ranks by the file's own lifetime lengths (see above). */
int arena_optimal_own_times(const struct run *r, unsigned h)
{
    return r->p->span != NULL && h >= HEURISTICS / 2 && h < HEURISTICS / 2 + 3 &&
           rule_on(r, ARENA_OPTIMAL_OWN_TIMES);
}

/* Stable passes over w->idx[0..n), each descending: by size, by sections
 * spanned, by area (size x steps), by the most loaded section spanned
 * (preorder 2 is size, sections, load in turn, the last the most
 * significant). */
static void by_size(struct work *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        w->key[i] = ~w->size[w->idx[i]];
    arena_optimal_sort_by(w, n);
}

static void by_sections(struct work *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        w->key[i] = ~(uint64_t)(w->s1[w->idx[i]] - w->s0[w->idx[i]]);
    arena_optimal_sort_by(w, n);
}

static void by_area(struct work *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t k = w->idx[i];
        w->key[i] = ~area(w->size[k], (uint64_t)w->last[k] - w->first[k] + 1);
    }
    arena_optimal_sort_by(w, n);
}

static void load_first(struct work *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        w->key[i] = ~most_loaded(w, w->idx[i]);
    arena_optimal_sort_by(w, n);
}

/* Preorder h ranks each group afresh: one over the file's own times, or
 * preorder 2 (the most loaded section first: the loads change as tensors
 * are placed) with rule rerank on. */
int arena_optimal_ranks_groups(const struct run *r, unsigned h)
{
    return arena_optimal_own_times(r, h) || (h == 2 && rule_on(r, ARENA_OPTIMAL_RERANK));
}

/* The key passes of preorder base (0-3) over w->idx[0..n), after the
 * ties' order (position, or the hash): 0 area, 1 size, 2 size, sections,
 * load, 3 size, sections, each pass stable and descending. */
static void preorder_passes(struct work *w, unsigned base, size_t n)
{
    if (base != 0)
        by_size(w, n);
    if (base >= 2)
        by_sections(w, n);
    if (base == 2)
        load_first(w, n);
    if (base == 0)
        by_area(w, n);
}

/* Ranks the unplaced tensors of group g afresh, 1, 2, ..., by the
 * current preorder's keys with the loads rem now holds (the unplaced
 * bytes), as MiniMalloc sorts each sub-partition again: from position
 * order, all of the preorder's passes. */
void arena_optimal_rerank_group(struct run *r, const struct group *g)
{
    struct work *w = r->w;
    size_t n = 0;
    for (uint32_t k = g->ka; k < g->kb; k++)
        if (w->off[k] == UNPLACED)
            w->idx[n++] = k;
    if (r->own_times) {
        rank_span_ids(r, r->rank_h, n, 1);
        return;
    }
    preorder_passes(w, r->rank_h % 4, n);
    for (size_t i = 0; i < n; i++)
        w->rank[w->idx[i]] = 1 + (uint32_t)i;
}

void arena_optimal_rank_by(struct run *r, unsigned h, unsigned round)
{
    struct work *w = r->w;
    size_t m = r->m;
    unsigned base = h % 4;
    assert(h < HEURISTICS);
    if (arena_optimal_own_times(r, h)) {
        rank_by_span(r, h);
        return;
    }
    for (size_t k = 0; k < m; k++) {
        w->key[k] = h < 4 ? k : mix(r->opt->seed * 0x9e3779b97f4a7c15ull + h * 0x100000001b3ull +
                                         (uint64_t)round * 0xd6e8feb86659fd93ull + k);
        w->idx[k] = (uint32_t)k;
    }
    arena_optimal_sort_by(w, m);
    preorder_passes(w, base, m);
    for (size_t i = 0; i < m; i++)
        w->rank[w->idx[i]] = (uint32_t)i;
}

/* Back to the root: nothing placed, every lo 0, rem the section loads. */
void arena_optimal_part_reset(struct run *r)
{
    struct work *w = r->w;
    size_t m = r->m, S = r->S;
    memset(w->rem, 0, S * sizeof *w->rem);
    for (size_t k = 0; k < m; k++) {
        w->lo[k] = 0;
        w->off[k] = UNPLACED;
        w->fixed[k] = 0;
        w->ord[k] = (uint32_t)k;
        for (uint32_t s = w->s0[k]; s < w->s1[k]; s++)
            w->rem[s] += w->size[k];
    }
}

/* Splits the unplaced tensors of scope g where no unplaced lifetime spans a
 * section boundary: pushes the groups (in step order) on the group stack and
 * returns how many (0 when g is empty). Ordered by first, a group is a run of
 * positions. */
uint32_t arena_optimal_split_scope(struct run *r, const struct group *g)
{
    struct work *w = r->w;
    uint32_t count = 0, reach = 0;
    struct group *out = w->groups + r->ngroups;
    for (uint32_t k = g->ka; k < g->kb; k++) {
        if (w->off[k] != UNPLACED)
            continue;
        if (count == 0 || w->s0[k] >= reach) {
            if (count > 0)
                out[count - 1].kb = k, out[count - 1].sb = reach;
            out[count].ka = k;
            out[count].sa = w->s0[k];
            count++;
            reach = 0;
        }
        if (w->s1[k] > reach)
            reach = w->s1[k];
    }
    if (count > 0)
        out[count - 1].kb = g->kb, out[count - 1].sb = reach;
    assert(r->ngroups + count <= 2 * r->m + 1);
    return count;
}

/* A search found a plan of the current part (every tensor placed): writes
 * it into plan->offsets when it improves the part. FOUND. */
int arena_optimal_part_fits(const struct run *r, uint64_t cap)
{
    const struct work *w = r->w;
    for (size_t k = 0; k < r->m; k++) {
        if (w->off[k] + w->size[k] > cap)
            return 0;
        for (uint32_t j = (uint32_t)k + 1; j < w->fwd_end[k]; j++)
            if (w->off[k] + w->size[k] > w->off[j] && w->off[j] + w->size[j] > w->off[k])
                return 0;
    }
    return 1;
}

enum outcome arena_optimal_keep_plan(struct run *r, struct arena_plan *plan)
{
    const struct work *w = r->w;
    uint64_t arena = 0;
    for (size_t k = 0; k < r->m; k++) {
        assert(w->off[k] != UNPLACED);
        arena = max_u64(arena, w->off[k] + w->size[k]);
    }
    if (arena < r->part_arena) {
        for (size_t k = 0; k < r->m; k++)
            plan->offsets[r->pid[k]] = w->off[k];
        r->part_arena = arena;
    }
    return FOUND;
}
