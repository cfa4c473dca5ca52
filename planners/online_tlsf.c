/* online_tlsf.c — Two-Level Segregated Fit as a runtime allocator would run it
 * (Masmano, Ripoll, Crespo & Real 2004, "TLSF: a New Dynamic Memory Allocator
 * for Real-Time Systems", ECRTS).
 *
 * The replay of online_common.h (docs/runtime.md), no look-ahead. Sizes
 * are counted in units of the problem's alignment A (every size and every
 * split point is a multiple of A, so every offset is one too). Free blocks
 * sit in segregated lists: a block of u units is in class (f, s) with
 * f = floor(log2 u) and s the next SLI bits below the leading one (2^SLI
 * lists per power of two; SLI is the key sli, 4 by default, 4 or 5 the
 * usual choice: more lists, less rounding below, more bitmap words); blocks
 * under 2^SLI units have one list per size.
 * Bitmaps over the classes find a non-empty list in O(1). An allocation of
 * u units first rounds u up to the next class boundary (u + 2^(f-SLI) - 1
 * for u >= 2^SLI: TLSF's "good fit", so that any block of the class found
 * holds the request without a search), takes the head of the first
 * non-empty list at
 * or above that class, and splits off the remainder as a free block; a block
 * of the request's own class that would fit but lies below the rounded class
 * boundary is skipped. Lists are LIFO (a freed block goes to the head). A
 * freed block merges with free physical neighbours (previous, then next).
 * When no list holds a block the heap grows: the allocation goes at the
 * wilderness, above the highest live block, and a free block that touches
 * the wilderness melts into it. Arena = the highest byte used.
 *
 * O(1) per allocation and release after O(n) radix sorts. Scratch: 12 bytes
 * per tensor for the orders, 4 for the tensor's block and 40 per block
 * record (2n + 2: live and free blocks alternate at worst). */
#include <assert.h>

#include "planners/online_common.h"
#include "planners/tables.h"

#define NIL UINT32_MAX
#define SLI_MAX 5u
#define SL_MAX (1u << SLI_MAX)
#define FL_COUNT 64u /* f up to 63 after rounding: class row f - (SLI - 1) <= 63 */

/* The key (online-tlsf:sli=5), in the order of opt->values. */
enum { K_SLI, N_KEYS };
static const struct arena_key keys[N_KEYS] = {
    [K_SLI] = {.name = "sli", .kind = ARENA_KEY_UINT, .def = "4", .min = 1, .max = SLI_MAX,
               .help = "second-level index: 2^sli free lists per power of two (4 or 5 usual)"},
};

struct block {
    uint64_t addr, size;            /* bytes */
    uint32_t prev_phys, next_phys;  /* neighbours in address order */
    uint32_t prev_free, next_free;  /* the class list; next_free links spares */
    int free;
};

struct work {
    struct arena_online_orders orders;
    struct block *blk;
    uint32_t *of;                   /* tensor id -> its block */
    uint32_t capacity, used, spare;
    uint32_t last;                  /* highest block, NIL when none */
    uint64_t wilderness, align;
    unsigned sli;                   /* the key: 2^sli lists per class row */
    uint64_t fl_map;
    uint32_t sl_map[FL_COUNT];
    uint32_t head[FL_COUNT][SL_MAX];
};

static int carve(struct arena_layout *l, const struct arena_problem *p, void *work)
{
    struct work *w = work;
    if (p->n >= (UINT32_MAX - 2) / 2)
        return ARENA_EOVERFLOW;
    arena_online_orders_take(l, p->n, &w->orders);
    w->of = arena_layout_take(l, p->n, sizeof *w->of);
    w->blk = arena_layout_take(l, 2 * p->n + 2, sizeof *w->blk);
    w->capacity = (uint32_t)(2 * p->n + 2);
    return ARENA_OK;
}

static int tlsf_scratch(const struct arena_problem *p, size_t *bytes)
{
    struct work w;
    return arena_layout_count(carve, p, &w, bytes);
}

static unsigned floor_log2(uint64_t u)
{
    unsigned f = 0;
    while (u >> 1) {
        u >>= 1;
        f++;
    }
    return f;
}

/* The class a free block of u units is filed under, 2^sli lists a row. */
static void class_of(unsigned sli, uint64_t u, unsigned *fl, unsigned *sl)
{
    if (u < ((uint64_t)1 << sli)) {
        *fl = 0;
        *sl = (unsigned)u;
        return;
    }
    unsigned f = floor_log2(u);
    *fl = f - (sli - 1);
    *sl = (unsigned)(u >> (f - sli)) - (1u << sli);
}

/* The lowest class whose every block holds u units. */
static void class_for(unsigned sli, uint64_t u, unsigned *fl, unsigned *sl)
{
    if (u >= ((uint64_t)1 << sli))
        u += ((uint64_t)1 << (floor_log2(u) - sli)) - 1;
    class_of(sli, u, fl, sl);
}

static void list_push(struct work *w, uint32_t b)
{
    unsigned fl, sl;
    class_of(w->sli, w->blk[b].size / w->align, &fl, &sl);
    uint32_t h = w->head[fl][sl];
    w->blk[b].prev_free = NIL;
    w->blk[b].next_free = h;
    if (h != NIL)
        w->blk[h].prev_free = b;
    w->head[fl][sl] = b;
    w->sl_map[fl] |= 1u << sl;
    w->fl_map |= (uint64_t)1 << fl;
}

static void list_remove(struct work *w, uint32_t b)
{
    unsigned fl, sl;
    class_of(w->sli, w->blk[b].size / w->align, &fl, &sl);
    uint32_t pv = w->blk[b].prev_free, nx = w->blk[b].next_free;
    if (pv != NIL)
        w->blk[pv].next_free = nx;
    else
        w->head[fl][sl] = nx;
    if (nx != NIL)
        w->blk[nx].prev_free = pv;
    if (w->head[fl][sl] == NIL) {
        w->sl_map[fl] &= ~(1u << sl);
        if (w->sl_map[fl] == 0)
            w->fl_map &= ~((uint64_t)1 << fl);
    }
}

static uint32_t block_new(struct work *w, uint64_t addr, uint64_t size)
{
    uint32_t b;
    if (w->spare != NIL) {
        b = w->spare;
        w->spare = w->blk[b].next_free;
    } else {
        assert(w->used < w->capacity); /* live and free blocks alternate */
        b = w->used++;
    }
    w->blk[b].addr = addr;
    w->blk[b].size = size;
    w->blk[b].prev_phys = w->blk[b].next_phys = NIL;
    w->blk[b].free = 0;
    return b;
}

static void block_drop(struct work *w, uint32_t b)
{
    w->blk[b].next_free = w->spare;
    w->spare = b;
}

static unsigned lowest_bit(uint64_t x)
{
    unsigned k = 0;
    while (!(x & 1)) {
        x >>= 1;
        k++;
    }
    return k;
}

static int tlsf_alloc(void *state, uint32_t id, uint64_t size, uint64_t *offset)
{
    struct work *w = state;
    unsigned fl, sl;
    uint32_t b = NIL;
    class_for(w->sli, size / w->align, &fl, &sl);
    if (fl < FL_COUNT) {
        uint32_t sm = w->sl_map[fl] & (~0u << sl);
        if (sm == 0) {
            uint64_t fm = fl + 1 < 64 ? w->fl_map & (~(uint64_t)0 << (fl + 1)) : 0;
            if (fm != 0) {
                fl = lowest_bit(fm);
                sm = w->sl_map[fl];
            }
        }
        if (sm != 0)
            b = w->head[fl][lowest_bit(sm)];
    }
    if (b == NIL) {
        if (w->wilderness > UINT64_MAX - size)
            return ARENA_EOVERFLOW;
        b = block_new(w, w->wilderness, size);
        w->wilderness += size;
        w->blk[b].prev_phys = w->last;
        if (w->last != NIL)
            w->blk[w->last].next_phys = b;
        w->last = b;
    } else {
        list_remove(w, b);
        w->blk[b].free = 0;
        if (w->blk[b].size > size) {
            uint32_t r = block_new(w, w->blk[b].addr + size, w->blk[b].size - size);
            uint32_t nx = w->blk[b].next_phys;
            w->blk[r].free = 1;
            w->blk[r].prev_phys = b;
            w->blk[r].next_phys = nx;
            if (nx != NIL)
                w->blk[nx].prev_phys = r;
            else
                w->last = r;
            w->blk[b].next_phys = r;
            w->blk[b].size = size;
            list_push(w, r);
        }
    }
    w->of[id] = b;
    *offset = w->blk[b].addr;
    return ARENA_OK;
}

static void tlsf_release(void *state, uint32_t id, uint64_t offset, uint64_t size)
{
    struct work *w = state;
    uint32_t b = w->of[id];
    assert(w->blk[b].addr == offset && w->blk[b].size == size);
    (void)offset;
    (void)size;
    uint32_t pv = w->blk[b].prev_phys;
    if (pv != NIL && w->blk[pv].free) {
        list_remove(w, pv);
        w->blk[pv].size += w->blk[b].size;
        w->blk[pv].next_phys = w->blk[b].next_phys;
        if (w->blk[b].next_phys != NIL)
            w->blk[w->blk[b].next_phys].prev_phys = pv;
        else
            w->last = pv;
        block_drop(w, b);
        b = pv;
    }
    uint32_t nx = w->blk[b].next_phys;
    if (nx != NIL && w->blk[nx].free) {
        list_remove(w, nx);
        w->blk[b].size += w->blk[nx].size;
        w->blk[b].next_phys = w->blk[nx].next_phys;
        if (w->blk[nx].next_phys != NIL)
            w->blk[w->blk[nx].next_phys].prev_phys = b;
        else
            w->last = b;
        block_drop(w, nx);
    }
    if (w->blk[b].next_phys == NIL) {
        /* Touches the wilderness: the heap's top comes down to it. */
        w->wilderness = w->blk[b].addr;
        w->last = w->blk[b].prev_phys;
        if (w->last != NIL)
            w->blk[w->last].next_phys = NIL;
        block_drop(w, b);
        return;
    }
    w->blk[b].free = 1;
    list_push(w, b);
}

static const struct arena_online_policy tlsf_policy = {
    .alloc = tlsf_alloc,
    .release = tlsf_release,
};

static int tlsf_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                     void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    struct work w;
    arena_layout_carve(carve, p, &w, scratch, scratch_size);
    w.used = 0;
    w.spare = NIL;
    w.last = NIL;
    w.wilderness = 0;
    w.align = p->alignment;
    w.sli = (unsigned)opt->values[K_SLI].u;
    w.fl_map = 0;
    for (unsigned f = 0; f < FL_COUNT; f++) {
        w.sl_map[f] = 0;
        for (unsigned s = 0; s < SL_MAX; s++)
            w.head[f][s] = NIL;
    }
    return arena_online_replay(p, opt, &w.orders, &tlsf_policy, &w, plan);
}

const struct arena_planner arena_planner_online_tlsf = {
    .name = "online-tlsf",
    .summary = "runtime replay, no look-ahead: two-level segregated fit (TLSF)",
    .kind = ARENA_KIND_ONLINE,
    .plan = tlsf_plan,
    .scratch_bytes = tlsf_scratch,
    .keys = keys,
    .n_keys = N_KEYS,
};
