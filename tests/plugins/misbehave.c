/* misbehave.c — planners that break the contract, for the tests of
 * bench --isolate and of the validator: each exported the way a real
 * plugin is (include/arenabench/planner.h). */
#include <arenabench/planner.h>
#include <signal.h>
#include <stddef.h>

/* Every tensor end to end: a valid plan. */
static void naive(const struct arena_problem *p, struct arena_plan *plan)
{
    uint64_t top = 0;
    for (size_t i = 0; i < p->n; i++) {
        plan->offsets[i] = top;
        top += p->tensors[i].size;
    }
    plan->arena = top;
}

/* A valid plan but for one pair: the first two tensors (in id order) that
 * conflict and whose second is no larger than the first share the first's
 * bytes; every other tensor keeps its own. The validator must name them. */
static int overlap_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                        void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt, (void)scratch, (void)scratch_size;
    naive(p, plan);
    for (size_t i = 0; i < p->n; i++)
        for (size_t j = i + 1; j < p->n; j++) {
            const struct arena_tensor *a = &p->tensors[i], *b = &p->tensors[j];
            if (a->size == 0 || b->size == 0 || b->size > a->size) continue;
            if (a->first > b->last || b->first > a->last) continue;
            plan->offsets[j] = plan->offsets[i];
            uint64_t top = 0;
            for (size_t k = 0; k < p->n; k++)
                if (plan->offsets[k] + p->tensors[k].size > top)
                    top = plan->offsets[k] + p->tensors[k].size;
            plan->arena = top;
            return ARENA_OK;
        }
    return ARENA_OK;
}

static int segfault_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                         void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt, (void)scratch, (void)scratch_size, (void)plan;
    raise(SIGSEGV); /* what a stray pointer does, without undefined behaviour */
    return p->n ? ARENA_OK : ARENA_EINVAL;
}

/* Never returns, and ignores the stop flag: only a kill ends it. */
static int hang_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                     void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt, (void)scratch, (void)scratch_size;
    volatile uint64_t spin = 0;
    for (;;) spin++;
    naive(p, plan);
    return ARENA_OK;
}

static const struct arena_planner overlap = {
    .name = "overlaps-once", .summary = "valid but for one overlapping pair",
    .kind = ARENA_KIND_OFFSETS, .plan = overlap_plan};
static const struct arena_planner segfault = {
    .name = "segfaults", .summary = "dies of SIGSEGV", .kind = ARENA_KIND_OFFSETS,
    .plan = segfault_plan};
static const struct arena_planner hang = {
    .name = "hangs", .summary = "never returns", .kind = ARENA_KIND_OFFSETS, .plan = hang_plan};

ARENA_PLUGIN(&overlap, &segfault, &hang);
