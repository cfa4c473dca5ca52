/* first_fit.c — an example planner built outside arenabench, as a shared
 * object bench loads with `--planner plugin:PATH.so`.
 *
 * Greedy by size with the first-fit gap rule, as TensorFlow Lite Micro's
 * GreedyMemoryPlanner places tensors: largest first (ties: the earlier first
 * step, then the lower id; key order=start: earliest first step first,
 * ties larger first); each goes into the lowest gap between the
 * already placed tensors whose lifetimes meet its own that is large enough,
 * else on top of them. The placed tensors are kept in one list sorted by
 * offset and each placement walks it: O(n^2), plain on purpose (the
 * built-in greedy-by-size-firstfit gives the same offsets through an
 * interval index, in O(n log n) on most problems).
 *
 * Build it against the installed header (docs/extending.md):
 *     cc -O2 -shared -fPIC $(pkg-config --cflags arenabench-planner) \
 *         first_fit.c -o first_fit.so
 * and run it beside the built-in planners:
 *     bench --graph mobilenetv2 --planner greedy-by-size,plugin:./first_fit.so
 * or with its key:
 *     bench --graph mobilenetv2 --planner plugin:./first_fit.so:example-first-fit:order=start
 *
 * It keeps the contract of include/arenabench/planner.h: no I/O, no
 * globals, no allocation (its two arrays come from the scratch bench hands
 * in, sized by first_fit_scratch), the same offsets for the same problem. */
#include <arenabench/planner.h>

/* Its one key: the order tensors are placed in. */
static const char *const orders[] = {"size", "start", NULL};
enum { K_ORDER };
enum { BY_SIZE, BY_START };
static const struct arena_key keys[] = {
    [K_ORDER] = {.name = "order", .kind = ARENA_KEY_CHOICE, .def = "size", .choices = orders,
                 .help = "size: largest first (TFLM's order); start: earliest first step first"},
};

/* Tensor a goes before tensor b: larger, then earlier first step, then
 * lower id (order start: earlier first step, then larger, then lower id). */
static int before(const struct arena_problem *p, uint64_t order, uint32_t a, uint32_t b)
{
    const struct arena_tensor *x = &p->tensors[a], *y = &p->tensors[b];
    if (order == BY_START && x->first != y->first) return x->first < y->first;
    if (x->size != y->size) return x->size > y->size;
    if (x->first != y->first) return x->first < y->first;
    return a < b;
}

/* Heap sort of ids[0..n) by before(): no allocation, O(n log n). */
static void sift(const struct arena_problem *p, uint64_t order, uint32_t *ids, size_t root,
                 size_t n)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n) return;
        /* a max-heap under "after": the root is the tensor placed last */
        if (child + 1 < n && before(p, order, ids[child], ids[child + 1])) child++;
        if (!before(p, order, ids[root], ids[child])) return;
        uint32_t t = ids[root];
        ids[root] = ids[child];
        ids[child] = t;
        root = child;
    }
}

static void sort_placing(const struct arena_problem *p, uint64_t order, uint32_t *ids, size_t n)
{
    for (size_t i = n / 2; i-- > 0;) sift(p, order, ids, i, n);
    for (size_t end = n; end-- > 1;) {
        uint32_t t = ids[0];
        ids[0] = ids[end];
        ids[end] = t;
        sift(p, order, ids, 0, end);
    }
}

/* Two arrays of n tensor ids: the placing order, and the placed tensors by
 * offset. */
static int first_fit_scratch(const struct arena_problem *p, size_t *bytes)
{
    if (p->n >= UINT32_MAX) return ARENA_EOVERFLOW; /* ids are 32-bit */
    *bytes = 2 * p->n * sizeof(uint32_t);
    return ARENA_OK;
}

static int first_fit_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                          void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)scratch_size; /* bench gives at least first_fit_scratch's bytes */
    uint32_t *order = scratch, *placed = order + p->n;
    size_t n_placed = 0;
    for (size_t i = 0; i < p->n; i++) order[i] = (uint32_t)i;
    sort_placing(p, opt->values[K_ORDER].choice, order, p->n);
    plan->arena = 0;
    for (size_t k = 0; k < p->n; k++) {
        uint32_t id = order[k];
        const struct arena_tensor *t = &p->tensors[id];
        plan->offsets[id] = 0;
        if (t->size == 0) continue; /* conflicts with nothing */
        /* A stopped call still returns a valid plan: the rest on top. */
        uint64_t at = 0, top = 0;
        int found = 0;
        if (!arena_plan_stop_requested(opt)) {
            for (size_t j = 0; j < n_placed; j++) {
                const struct arena_tensor *u = &p->tensors[placed[j]];
                if (u->first > t->last || t->first > u->last) continue; /* no conflict */
                uint64_t off = plan->offsets[placed[j]];
                if (off > top && off - top >= t->size) {
                    at = top;
                    found = 1;
                    break;
                }
                if (off + u->size > top) top = off + u->size;
            }
        } else {
            top = plan->arena;
            plan->status = ARENA_PLAN_LIMIT;
        }
        if (!found) at = top;
        plan->offsets[id] = at;
        if (at + t->size > plan->arena) plan->arena = at + t->size;
        /* into the list by offset, after the equal ones */
        size_t j = n_placed++;
        while (j > 0 && plan->offsets[placed[j - 1]] > at) {
            placed[j] = placed[j - 1];
            j--;
        }
        placed[j] = id;
    }
    return ARENA_OK;
}

static const struct arena_planner first_fit = {
    .name = "example-first-fit",
    .summary = "largest first, lowest gap that fits (an example plugin, O(n^2))",
    .kind = ARENA_KIND_OFFSETS,
    .plan = first_fit_plan,
    .scratch_bytes = first_fit_scratch,
    .keys = keys,
    .n_keys = 1,
};

ARENA_PLUGIN(&first_fit);
