/* greedy_oracle.c — see greedy_oracle.h. Deliberately plain: full scans,
 * qsort, no index. */
#include "tests/greedy_oracle.h"

#include <stdlib.h>

struct range {
    uint64_t lo, hi;
};

static int range_cmp(const void *a, const void *b)
{
    const struct range *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return (x->hi > y->hi) - (x->hi < y->hi);
}

/* qsort has no context argument; the comparator reads the problem here. The
 * oracle runs inside one test process at a time. */
static const struct arena_problem *order_problem;

static int size_order_cmp(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    const struct arena_tensor *x = &order_problem->tensors[i], *y = &order_problem->tensors[j];
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    return (i > j) - (i < j);
}

static int meets(const struct arena_tensor *a, const struct arena_tensor *b)
{
    return a->first <= b->last && b->first <= a->last;
}

/* Offset for tensor t given the placed[] flags, by the gap rule. */
static uint64_t place_one(const struct arena_problem *p, size_t t, const char *placed,
                          const uint64_t *offsets, enum oracle_fit fit, struct range *buf)
{
    size_t m = 0;
    for (size_t j = 0; j < p->n; j++)
        if (placed[j] && p->tensors[j].size > 0 && meets(&p->tensors[j], &p->tensors[t])) {
            buf[m].lo = offsets[j];
            buf[m].hi = offsets[j] + p->tensors[j].size;
            m++;
        }
    qsort(buf, m, sizeof *buf, range_cmp);
    uint64_t size = p->tensors[t].size, prev_end = 0;
    int have = 0;
    uint64_t best_off = 0, best_gap = 0;
    for (size_t k = 0; k < m; k++) {
        if (buf[k].lo > prev_end) {
            uint64_t gap = buf[k].lo - prev_end;
            if (gap >= size) {
                if (fit == ORACLE_FIRST_FIT)
                    return prev_end;
                if (!have || gap < best_gap) {
                    have = 1;
                    best_gap = gap;
                    best_off = prev_end;
                }
            }
        }
        if (buf[k].hi > prev_end)
            prev_end = buf[k].hi;
    }
    return have ? best_off : prev_end;
}

static void place(const struct arena_problem *p, size_t t, char *placed, uint64_t *offsets,
                  enum oracle_fit fit, struct range *buf, uint64_t *arena)
{
    if (p->tensors[t].size == 0) {
        offsets[t] = 0;
    } else {
        offsets[t] = place_one(p, t, placed, offsets, fit, buf);
        if (offsets[t] + p->tensors[t].size > *arena)
            *arena = offsets[t] + p->tensors[t].size;
    }
    placed[t] = 1;
}

int oracle_greedy_size(const struct arena_problem *p, enum oracle_fit fit, uint64_t *offsets,
                       uint64_t *arena)
{
    size_t n = p->n;
    size_t *order = malloc((n + 1) * sizeof *order);
    char *placed = calloc(n + 1, 1);
    struct range *buf = malloc((n + 1) * sizeof *buf);
    if (!order || !placed || !buf) {
        free(order);
        free(placed);
        free(buf);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    order_problem = p;
    qsort(order, n, sizeof *order, size_order_cmp);
    *arena = 0;
    for (size_t k = 0; k < n; k++)
        place(p, order[k], placed, offsets, fit, buf, arena);
    free(order);
    free(placed);
    free(buf);
    return 0;
}

struct step_breadth {
    uint64_t breadth;
    uint32_t step;
};

static int breadth_cmp(const void *a, const void *b)
{
    const struct step_breadth *x = a, *y = b;
    if (x->breadth != y->breadth)
        return x->breadth > y->breadth ? -1 : 1;
    return (x->step > y->step) - (x->step < y->step);
}

int oracle_greedy_breadth(const struct arena_problem *p, uint64_t *offsets, uint64_t *arena)
{
    size_t n = p->n;
    uint32_t steps = 0;
    for (size_t i = 0; i < n; i++)
        if (p->tensors[i].last + 1 > steps)
            steps = p->tensors[i].last + 1;
    struct step_breadth *sb = malloc(((size_t)steps + 1) * sizeof *sb);
    size_t *live = malloc((n + 1) * sizeof *live);
    char *placed = calloc(n + 1, 1);
    struct range *buf = malloc((n + 1) * sizeof *buf);
    if (!sb || !live || !placed || !buf) {
        free(sb);
        free(live);
        free(placed);
        free(buf);
        return -1;
    }
    for (uint32_t s = 0; s < steps; s++) {
        sb[s].step = s;
        sb[s].breadth = 0;
        for (size_t i = 0; i < n; i++)
            if (p->tensors[i].first <= s && s <= p->tensors[i].last)
                sb[s].breadth += p->tensors[i].size;
    }
    qsort(sb, steps, sizeof *sb, breadth_cmp);
    *arena = 0;
    order_problem = p;
    for (uint32_t v = 0; v < steps; v++) {
        uint32_t s = sb[v].step;
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (!placed[i] && p->tensors[i].first <= s && s <= p->tensors[i].last)
                live[m++] = i;
        qsort(live, m, sizeof *live, size_order_cmp);
        for (size_t k = 0; k < m; k++)
            place(p, live[k], placed, offsets, ORACLE_BEST_FIT, buf, arena);
    }
    free(sb);
    free(live);
    free(placed);
    free(buf);
    return 0;
}
