/* validate.c — the independent plan checker.
 *
 * A sweep over steps in increasing order. At each step where some tensor
 * starts, the tensors whose lifetime ended before it leave the live set, then
 * the starting tensors enter it one by one. The live set is ordered by
 * (offset, id) and, as long as the plan is valid, its byte ranges are
 * disjoint, so a newcomer overlaps some live tensor exactly when it overlaps
 * its predecessor or its successor in that order: two checks per insertion,
 * O(n log n) in all. Zero-size tensors occupy no byte and never collide.
 * Declared aliases (in-place operators) whose output lies inside its input
 * are checked by splitting the input at its last step into the parts the
 * outputs leave free (alias_sweep); the sweep itself never learns of them.
 * Shares no code with the planners beyond the ordered set and the sort. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planners/layout.h"
#include "planners/order.h"
#include "planners/ordset.h"
#include "planners/problem.h"

static int collide(struct arena_collision *why, size_t a, size_t b)
{
    if (why) {
        why->a = a;
        why->b = b;
        why->misaligned = 0;
    }
    return ARENA_ECONFLICT;
}

/* The sweep's working memory (malloc'd, described once like a planner's
 * scratch). */
struct work {
    struct arena_ordset_node *node; /* n: set nodes, indexed by id */
    uint32_t *by_first, *by_last;   /* the m ids with bytes */
    uint32_t *tmp;                  /* m: the sort's buffer */
};

static void work_take(struct work *w, struct arena_layout *l, size_t n, size_t m)
{
    w->node = arena_layout_take(l, n, sizeof *w->node);
    w->by_first = arena_layout_take(l, m, sizeof *w->by_first);
    w->by_last = arena_layout_take(l, m, sizeof *w->by_last);
    w->tmp = arena_layout_take(l, m, sizeof *w->tmp);
}

/* The sweep over the m tensors with bytes, their ids in by_first and by_last. */
static int sweep(const struct arena_problem *p, const uint64_t *off, const struct work *w,
                 size_t m, struct arena_collision *why)
{
    const struct arena_tensor *t = p->tensors;
    uint32_t *by_first = w->by_first, *by_last = w->by_last;
    struct arena_ordset_node *node = w->node;
    struct arena_ordset set = {.node = node};
    uint32_t root = ARENA_ORDSET_NIL;
    arena_order_sort(by_first, w->tmp, m, t, ARENA_ORDER_FIRST);
    arena_order_sort(by_last, w->tmp, m, t, ARENA_ORDER_LAST);
    size_t i = 0, r = 0;
    while (i < m) {
        uint32_t step = t[by_first[i]].first;
        for (; r < m && t[by_last[r]].last < step; r++)
            arena_ordset_remove(&set, &root, by_last[r]);
        for (; i < m && t[by_first[i]].first == step; i++) {
            uint32_t x = by_first[i], pred, succ;
            node[x].key = off[x];
            arena_ordset_insert(&set, &root, x, &pred, &succ);
            if (pred != ARENA_ORDSET_NIL && off[pred] + t[pred].size > off[x])
                return collide(why, pred, x);
            if (succ != ARENA_ORDSET_NIL && off[x] + t[x].size > off[succ])
                return collide(why, succ, x);
        }
    }
    return ARENA_OK;
}

/* The sweep over every tensor with bytes of p, placed at off. */
static int sweep_all(const struct arena_problem *p, const uint64_t *off,
                     struct arena_collision *why)
{
    size_t m = 0;
    for (size_t i = 0; i < p->n; i++)
        m += p->tensors[i].size > 0;
    if (m < 2)
        return ARENA_OK;
    struct work w;
    struct arena_layout l;
    size_t bytes;
    arena_layout_init(&l, NULL);
    work_take(&w, &l, p->n, m);
    if (arena_layout_bytes(&l, &bytes) != ARENA_OK)
        return ARENA_EOVERFLOW;
    void *mem = malloc(bytes);
    if (!mem)
        return ARENA_ENOMEM;
    arena_layout_init(&l, mem);
    work_take(&w, &l, p->n, m);
    size_t k = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->tensors[i].size > 0)
            w.by_first[k++] = (uint32_t)i;
    memcpy(w.by_last, w.by_first, m * sizeof *w.by_last);
    int rc = sweep(p, off, &w, m, why);
    free(mem);
    return rc;
}

/* An alias pair is in use when out overlaps in; it is accepted when out's
 * bytes lie inside in's. A pair whose bytes overlap otherwise is left to the
 * sweep, which reports it as the collision it is. */
static int alias_accepted(const struct arena_problem *p, const uint64_t *off, size_t k)
{
    uint32_t o = p->alias[k].out, i = p->alias[k].in;
    uint64_t so = p->tensors[o].size, si = p->tensors[i].size;
    if (so == 0 || si == 0)
        return 0;
    return off[i] <= off[o] && off[o] + so <= off[i] + si;
}

struct piece_set {
    struct arena_tensor *t; /* records of the split problem */
    uint64_t *off;
    uint32_t *owner;        /* the tensor each record belongs to */
    size_t n;
};

static void piece_add(struct piece_set *s, uint32_t owner, uint64_t off, uint64_t size,
                      uint32_t first, uint32_t last)
{
    s->t[s->n] = (struct arena_tensor){.size = size, .first = first, .last = last};
    s->off[s->n] = off;
    s->owner[s->n++] = owner;
}

/* The plan with accepted aliases as a plan without any: an input whose
 * bytes some accepted outputs take becomes its whole range over [first,
 * last - 1] plus, at its last step, the parts of its range no such output
 * covers. Each output stays as it is. Any two records that share a byte
 * while live then are a real collision, and every byte live at a step is
 * in exactly one record. */
static int alias_sweep(const struct arena_problem *p, const uint64_t *off,
                       const unsigned char *acc, struct arena_collision *why)
{
    size_t n = p->n, na = 0;
    for (size_t k = 0; k < p->n_alias; k++)
        na += acc[k];
    size_t cap = n + 2 * na;
    struct piece_set s = {
        .t = malloc(cap * sizeof *s.t),
        .off = malloc(cap * sizeof *s.off),
        .owner = malloc(cap * sizeof *s.owner),
    };
    /* outs[head[i] .. head[i+1]) the accepted outputs of input i */
    size_t *head = calloc(n + 1, sizeof *head);
    uint32_t *outs = malloc((na ? na : 1) * sizeof *outs);
    int rc = ARENA_ENOMEM;
    if (!s.t || !s.off || !s.owner || !head || !outs)
        goto done;
    for (size_t k = 0; k < p->n_alias; k++)
        if (acc[k])
            head[p->alias[k].in + 1]++;
    for (size_t i = 0; i < n; i++)
        head[i + 1] += head[i];
    for (size_t k = 0; k < p->n_alias; k++) {
        if (!acc[k])
            continue;
        uint32_t i = p->alias[k].in;
        outs[head[i]++] = p->alias[k].out;
    }
    for (size_t i = n; i > 0; i--) /* back to the starts */
        head[i] = head[i - 1];
    head[0] = 0;
    for (size_t i = 0; i < n; i++) {
        const struct arena_tensor *t = &p->tensors[i];
        size_t a = head[i], b = head[i + 1];
        if (a == b) {
            piece_add(&s, (uint32_t)i, off[i], t->size, t->first, t->last);
            continue;
        }
        piece_add(&s, (uint32_t)i, off[i], t->size, t->first, t->last - 1);
        /* outputs by offset (few: insertion sort), then the gaps between */
        for (size_t x = a + 1; x < b; x++)
            for (size_t y = x; y > a && off[outs[y - 1]] > off[outs[y]]; y--) {
                uint32_t tmp = outs[y];
                outs[y] = outs[y - 1];
                outs[y - 1] = tmp;
            }
        uint64_t at = off[i], end = off[i] + t->size;
        for (size_t x = a; x < b; x++) {
            uint64_t lo = off[outs[x]], hi = lo + p->tensors[outs[x]].size;
            if (lo > at)
                piece_add(&s, (uint32_t)i, at, lo - at, t->last, t->last);
            if (hi > at)
                at = hi;
        }
        if (end > at)
            piece_add(&s, (uint32_t)i, at, end - at, t->last, t->last);
    }
    struct arena_problem split = {.n = s.n, .tensors = s.t, .alignment = p->alignment};
    rc = sweep_all(&split, s.off, why);
    if (rc == ARENA_ECONFLICT && why) {
        why->a = s.owner[why->a];
        why->b = s.owner[why->b];
    }
done:
    free(s.t);
    free(s.off);
    free(s.owner);
    free(head);
    free(outs);
    return rc;
}

int arena_plan_validate(const struct arena_problem *p, const struct arena_plan *plan,
                        struct arena_collision *why)
{
    if (why)
        memset(why, 0, sizeof *why);
    int rc = arena_problem_check(p, NULL);
    if (rc != ARENA_OK)
        return rc;
    if (!plan || plan->n != p->n || (p->n > 0 && !plan->offsets))
        return ARENA_EINVAL;
    if (p->n >= UINT32_MAX || p->n_alias >= (UINT32_MAX - p->n) / 2)
        return ARENA_EOVERFLOW; /* ids are 32-bit in the sweep, pieces included */
    const uint64_t *off = plan->offsets;
    uint64_t top = 0;
    for (size_t i = 0; i < p->n; i++) {
        uint64_t size = p->tensors[i].size;
        if ((off[i] & (p->alignment - 1)) != 0) {
            if (why) {
                why->a = why->b = i;
                why->misaligned = 1;
            }
            return ARENA_ECONFLICT;
        }
        if (off[i] > UINT64_MAX - size) {
            if (why) {
                why->a = why->b = i;
                why->wraps = 1;
            }
            return ARENA_EOVERFLOW;
        }
        if (off[i] + size > top)
            top = off[i] + size;
    }
    unsigned char *acc = NULL;
    int any = 0;
    if (p->n_alias > 0) {
        acc = malloc(p->n_alias);
        if (!acc)
            return ARENA_ENOMEM;
        for (size_t k = 0; k < p->n_alias; k++)
            any |= acc[k] = (unsigned char)alias_accepted(p, off, k);
    }
    rc = any ? alias_sweep(p, off, acc, why) : sweep_all(p, off, why);
    free(acc);
    if (rc != ARENA_OK)
        return rc;
    if (plan->arena == top)
        return ARENA_OK;
    if (why) {
        why->wrong_arena = 1;
        why->top = top;
    }
    return ARENA_EINVAL;
}

void arena_collision_describe(const struct arena_problem *p, const struct arena_plan *plan,
                              const struct arena_collision *why, char *buf, size_t len)
{
    if (!buf || len == 0)
        return;
    if (!p || !plan || !why || why->a >= p->n || why->b >= p->n || plan->n != p->n) {
        snprintf(buf, len, "no collision to describe");
        return;
    }
    const struct arena_tensor *a = &p->tensors[why->a], *b = &p->tensors[why->b];
    uint64_t oa = plan->offsets[why->a], ob = plan->offsets[why->b];
    if (why->misaligned) {
        snprintf(buf, len,
                 "tensor %zu (steps [%" PRIu32 ",%" PRIu32 "], %" PRIu64
                 " bytes) has offset %" PRIu64 ", not a multiple of the alignment %" PRIu64,
                 why->a, a->first, a->last, a->size, oa, p->alignment);
        return;
    }
    snprintf(buf, len,
             "tensor %zu (steps [%" PRIu32 ",%" PRIu32 "], bytes [%" PRIu64 ",%" PRIu64
             ")) overlaps tensor %zu (steps [%" PRIu32 ",%" PRIu32 "], bytes [%" PRIu64
             ",%" PRIu64 "))",
             why->a, a->first, a->last, oa, oa + a->size, why->b, b->first, b->last, ob,
             ob + b->size);
}

void arena_plan_invalid_describe(const struct arena_problem *p, const struct arena_plan *plan,
                                 int rc, const struct arena_collision *why, char *buf,
                                 size_t len)
{
    if (!buf || len == 0)
        return;
    if (rc == ARENA_ECONFLICT && why) {
        arena_collision_describe(p, plan, why, buf, len);
    } else if (rc == ARENA_EINVAL && why && why->wrong_arena) {
        snprintf(buf, len,
                 "plan->arena is %" PRIu64 " B, but its tensors end at %" PRIu64
                 " B (the largest offset + size): a plan states its arena exactly",
                 plan->arena, why->top);
    } else if (rc == ARENA_EOVERFLOW && why && why->wraps && p && plan && why->a < p->n) {
        snprintf(buf, len,
                 "tensor %zu has offset %" PRIu64 ", and with its %" PRIu64
                 " bytes it ends past 2^64 B",
                 why->a, plan->offsets[why->a], p->tensors[why->a].size);
    } else if (rc == ARENA_EINVAL && p && plan && (plan->n != p->n || (p->n && !plan->offsets))) {
        snprintf(buf, len, "the plan has %zu offsets%s for a problem of %zu tensors", plan->n,
                 plan->offsets ? "" : " (NULL)", p->n);
    } else {
        snprintf(buf, len, "validator: %s", arena_strerror(rc));
    }
}
