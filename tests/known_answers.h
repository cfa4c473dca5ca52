/* known_answers.h — the small problems with answers worked out by hand,
 * shared by test_metrics.c and test_planners.c. Records are (size, first,
 * last), sizes already aligned to `alignment`. */
#ifndef KNOWN_ANSWERS_H
#define KNOWN_ANSWERS_H

#include "planners/problem.h"

#define K1 1024u

/* The four-tensor worked example behind the founding table of docs/runtime.md:
 * T2 can reuse T0's bytes and T3 T1's, so 240K (the lower bound) of 340K. */
static const struct arena_tensor ka_founding[] = {
    {120 * K1, 0, 1}, {120 * K1, 1, 2}, {80 * K1, 2, 3}, {20 * K1, 3, 4}};
/* A chain where greedy-by-size reaches the lower bound. */
static const struct arena_tensor ka_chain[] = {{16, 0, 1}, {8, 1, 2}, {64, 2, 3}, {32, 3, 4},
                                               {8, 4, 5}};
/* Nine tensors, up to four live at once. */
static const struct arena_tensor ka_nine[] = {{32, 0, 1}, {32, 1, 4}, {8, 2, 5},
                                              {16, 3, 5}, {8, 4, 5},  {64, 5, 7},
                                              {8, 6, 8},  {8, 7, 8},  {16, 8, 9}};
/* First fit's weak case (TFLite Micro): 90 where 80 is possible. */
static const struct arena_tensor ka_firstfit[] = {{10, 0, 1}, {20, 1, 2}, {30, 2, 3},
                                                  {40, 3, 4}, {50, 0, 1}};
static const struct arena_tensor ka_three[] = {{100, 0, 1}, {50, 2, 3}, {20, 1, 2}};
static const struct arena_tensor ka_descending[] = {{100, 0, 1}, {80, 1, 2}, {60, 2, 3}};
/* Best fit and first fit differ; ids 0 and 3 tie on size and first. */
static const struct arena_tensor ka_six[] = {{20, 3, 4},  {30, 1, 3}, {50, 4, 6},
                                             {20, 3, 3},  {10, 3, 4}, {90, 2, 2}};

#define KA_COUNT(a) (sizeof(a) / sizeof((a)[0]))

#endif
