/* ping_pong.c — double buffering generalised to DAGs (K equal slots).
 *
 * Every slot is as large as the largest tensor, M. Tensors are taken in order
 * of their first step (ties by id); each goes into the lowest-numbered slot
 * whose current occupant's lifetime ended before this tensor's first step,
 * which is then free at every step of the newcomer's lifetime. Taking starts
 * in order and the lowest free slot is the classic greedy colouring of an
 * interval graph, so exactly K = the largest number of tensors live at one
 * step slots get used (2 for a plain chain, 3 once a residual skip exists).
 * Arena = K × M. Slot numbers are logical: to make the top byte of the arena
 * belong to a tensor (arena = max(offset + size)), the slot that holds the
 * first largest tensor is laid out last and the last slot takes its place.
 *
 * Free slots sit in a min-heap by number, busy slots in a min-heap by their
 * occupant's last step: O(n log K) after an O(n) radix sort by first step.
 * Scratch: 16 bytes per tensor (order, sort buffer that later holds the busy
 * heap, free heap, occupant's last step per slot). */
#include <stdint.h>

#include "planners/order.h"
#include "planners/tables.h"

/* Sift helpers for a min-heap of slot numbers under key(slot). */
static void up(uint32_t *h, size_t i, const uint32_t *key)
{
    uint32_t x = h[i];
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if ((key ? key[h[p]] : h[p]) <= (key ? key[x] : x))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = x;
}

static uint32_t pop(uint32_t *h, size_t *len, const uint32_t *key)
{
    uint32_t top = h[0], x = h[--*len];
    size_t n = *len, i = 0;
    if (n == 0)
        return top;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && (key ? key[h[c + 1]] : h[c + 1]) < (key ? key[h[c]] : h[c]))
            c++;
        if ((key ? key[h[c]] : h[c]) >= (key ? key[x] : x))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
    return top;
}

static int ping_pong_scratch(const struct arena_problem *p, size_t *bytes)
{
    if (p->n >= UINT32_MAX || p->n > SIZE_MAX / 16)
        return ARENA_EOVERFLOW;
    *bytes = p->n * 16;
    return ARENA_OK;
}

static int ping_pong_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                          void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt;
    size_t n = p->n, need;
    const struct arena_tensor *t = p->tensors;
    int rc = ping_pong_scratch(p, &need);
    if (rc != ARENA_OK)
        return rc;
    if (scratch_size < need)
        return ARENA_ENOMEM;
    uint32_t *order = scratch, *busy = order + n, *freeh = order + 2 * n, *occ_last = order + 3 * n;
    arena_order_identity(order, n);
    arena_order_sort(order, busy, n, t, ARENA_ORDER_FIRST);

    size_t nbusy = 0, nfree = 0;
    uint32_t k = 0;
    uint64_t largest = 0;
    size_t first_largest = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = order[i];
        while (nbusy > 0 && occ_last[busy[0]] < t[x].first) {
            freeh[nfree++] = pop(busy, &nbusy, occ_last);
            up(freeh, nfree - 1, NULL);
        }
        uint32_t slot = nfree > 0 ? pop(freeh, &nfree, NULL) : k++;
        occ_last[slot] = t[x].last;
        busy[nbusy++] = slot;
        up(busy, nbusy - 1, occ_last);
        plan->offsets[x] = slot;
    }
    for (size_t i = 0; i < n; i++)
        if (t[i].size > largest) {
            largest = t[i].size;
            first_largest = i;
        }
    if (k > 0 && largest > UINT64_MAX / k)
        return ARENA_EOVERFLOW;
    uint64_t top = n > 0 ? plan->offsets[first_largest] : 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t slot = plan->offsets[i];
        if (slot == top)
            slot = k - 1;
        else if (slot == (uint64_t)k - 1)
            slot = top;
        plan->offsets[i] = slot * largest;
    }
    plan->arena = (uint64_t)k * largest;
    plan->buffers = k;
    return ARENA_OK;
}

const struct arena_planner arena_planner_ping_pong = {
    .name = "ping-pong",
    .summary = "K equal slots of the largest size, K = most tensors live at once",
    .kind = ARENA_KIND_SHARED_OBJECTS,
    .plan = ping_pong_plan,
    .scratch_bytes = ping_pong_scratch,
};
