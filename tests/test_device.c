/* test_device.c — the arena TFLM allocates for an offline plan
 * (planners/device.h): offline buffers stay, online ones go where TFLM's
 * GreedyMemoryPlanner puts them, checked on cases worked out by hand. */
#include <criterion/criterion.h>

#include "planners/device.h"
#include "planners/planner.h"

/* Two offline tensors alive at steps 0-2 leave a 64-byte gap at [64, 128)
 * under a top at 192; three scratch buffers of step 1 (48, 32, 32 B). The
 * plan puts the two 32s in the gap and the 48 on top: 240. TFLM places the
 * largest first: the 48 takes the gap's start [64, 112), the 16 left holds
 * neither 32, which go on top, [192, 224) and [224, 256): 256. */
Test(device, tflm_rule_and_the_plan_differ)
{
    static const struct arena_tensor t[] = {
        {64, 0, 2}, {64, 0, 2}, {48, 1, 1}, {32, 1, 1}, {32, 1, 1},
    };
    struct arena_problem p = {.n = 5, .tensors = t, .alignment = 16};
    uint64_t plan[] = {0, 128, 192, 64, 96};
    const unsigned char online[] = {0, 0, 1, 1, 1};
    uint64_t out[5], arena = 0;
    cr_assert_eq(arena_device_place(&p, plan, online, out, &arena), ARENA_OK);
    cr_expect_eq(out[0], 0);
    cr_expect_eq(out[1], 128);
    cr_expect_eq(out[2], 64);
    cr_expect_eq(out[3], 192);
    cr_expect_eq(out[4], 224);
    cr_expect_eq(arena, 256);
    /* both are valid plans: the plan's needs 240, TFLM's 256 */
    struct arena_plan pl = {.n = 5, .offsets = plan, .arena = 240};
    cr_expect_eq(arena_plan_validate(&p, &pl, NULL), ARENA_OK);
    struct arena_plan dev = {.n = 5, .offsets = out, .arena = 256};
    cr_expect_eq(arena_plan_validate(&p, &dev, NULL), ARENA_OK);
}

/* Online buffers not alive at the same time as an offline one reuse its
 * bytes; equal sizes keep their order (ids), each first-fit from 0. */
Test(device, online_buffers_fit_the_lowest_gap_in_time)
{
    static const struct arena_tensor t[] = {
        {96, 0, 0}, {32, 1, 1}, {32, 1, 1}, {64, 2, 2},
    };
    struct arena_problem p = {.n = 4, .tensors = t, .alignment = 16};
    uint64_t plan[] = {0, 0, 0, 0};
    const unsigned char online[] = {0, 1, 1, 1};
    uint64_t out[4], arena = 0;
    cr_assert_eq(arena_device_place(&p, plan, online, out, &arena), ARENA_OK);
    cr_expect_eq(out[3], 0);  /* the 64 first: alone at step 2 */
    cr_expect_eq(out[1], 0);  /* then the 32s in id order */
    cr_expect_eq(out[2], 32);
    cr_expect_eq(arena, 96);
}

/* Everything offline: the arena is the plan's highest end. */
Test(device, all_offline_is_the_plan)
{
    static const struct arena_tensor t[] = {{16, 0, 1}, {32, 1, 2}};
    struct arena_problem p = {.n = 2, .tensors = t, .alignment = 16};
    uint64_t plan[] = {32, 0}, arena = 0;
    const unsigned char online[] = {0, 0};
    cr_assert_eq(arena_device_place(&p, plan, online, NULL, &arena), ARENA_OK);
    cr_expect_eq(arena, 48);
}
