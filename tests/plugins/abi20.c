/* abi20.c — a plugin built against the frozen ABI 2.0 header
 * (tests/plugins/abi-2.0/), before 2.1 appended configure() and release()
 * to the planner table: bench 2.1 must load it (the growth rule: same
 * major, an older minor), read its shorter tables, hand it its keys and run
 * it. Lays the tensors end to end, in id order or reversed (key order). */
#include <arenabench/planner.h>

#if ARENA_PLANNER_ABI_MINOR != 0
#error "abi20.c must be built against tests/plugins/abi-2.0/arenabench/planner.h"
#endif

static const char *const orders[] = {"id", "reverse", NULL};
enum { K_ORDER };
static const struct arena_key keys[] = {
    [K_ORDER] = {.name = "order", .kind = ARENA_KEY_CHOICE, .def = "id", .choices = orders,
                 .help = "id: tensor 0 at the bottom; reverse: the last tensor there"},
};

static int plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)scratch, (void)scratch_size;
    int reverse = opt->values[K_ORDER].choice == 1;
    uint64_t top = 0;
    for (size_t k = 0; k < p->n; k++) {
        size_t i = reverse ? p->n - 1 - k : k;
        plan->offsets[i] = top;
        top += p->tensors[i].size;
    }
    plan->arena = top;
    return ARENA_OK;
}

static const struct arena_planner old_minor = {
    .name = "old-minor",
    .summary = "end to end, built against ABI 2.0 (a test plugin)",
    .kind = ARENA_KIND_OFFSETS,
    .plan = plan,
    .keys = keys,
    .n_keys = 1,
};

ARENA_PLUGIN(&old_minor);
