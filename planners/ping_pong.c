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
 * occupant's last step (the slot packed in the low 32 bits): O(n log K) after
 * an O(n) radix sort by first step. Scratch: ping_pong_layout. */
#include <assert.h>
#include <stdint.h>

#include "planners/order.h"
#include "planners/tables.h"

struct work {
    uint32_t *order; /* n: tensor ids by first step, ties by id */
    uint32_t *tmp;   /* n: the sort's buffer */
    uint64_t *busy;  /* at most K <= n: (occupant's last step, slot) */
    uint64_t *freeh; /* at most K <= n: slot numbers */
};

/* Every array ping-pong needs (layout.h). */
static int ping_pong_layout(struct arena_layout *l, const struct arena_problem *p, void *work)
{
    struct work *w = work;
    size_t n = p->n;
    if ((uint64_t)n >= UINT32_MAX)
        return ARENA_EOVERFLOW; /* ids and slots are 32-bit */
    w->order = arena_layout_take(l, n, sizeof *w->order);
    w->tmp = arena_layout_take(l, n, sizeof *w->tmp);
    w->busy = arena_layout_take(l, n, sizeof *w->busy);
    w->freeh = arena_layout_take(l, n, sizeof *w->freeh);
    return ARENA_OK;
}

static int ping_pong_scratch(const struct arena_problem *p, size_t *bytes)
{
    struct work w;
    return arena_layout_count(ping_pong_layout, p, &w, bytes);
}

static int ping_pong_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                          void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    size_t n = p->n;
    const struct arena_tensor *t = p->tensors;
    struct work w;
    arena_layout_carve(ping_pong_layout, p, &w, scratch, scratch_size);
    arena_order_ids(w.order, w.tmp, n, t, ARENA_ORDER_FIRST);

    uint64_t *busy = w.busy, *freeh = w.freeh;
    size_t nbusy = 0, nfree = 0;
    uint32_t k = 0;
    uint64_t largest = 0;
    size_t first_largest = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % ARENA_STOP_EVERY == 0 && arena_plan_stop_here(opt, p, plan))
            return ARENA_OK;
        uint32_t x = w.order[i];
        while (nbusy > 0 && (busy[0] >> 32) < t[x].first)
            arena_heap_push(freeh, &nfree, (uint32_t)arena_heap_pop(busy, &nbusy));
        uint32_t slot = nfree > 0 ? (uint32_t)arena_heap_pop(freeh, &nfree) : k++;
        arena_heap_push(busy, &nbusy, (uint64_t)t[x].last << 32 | slot);
        plan->offsets[x] = slot;
    }
    for (size_t i = 0; i < n; i++)
        if (t[i].size > largest) {
            largest = t[i].size;
            first_largest = i;
        }
    /* K × M is not Σ size: one large tensor among many small ones live at
     * once can make it overflow where the sum does not. */
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
