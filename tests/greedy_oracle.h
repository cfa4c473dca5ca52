/* greedy_oracle.h — the greedy planners written straight from their
 * definitions, O(n^2), for the tests only: the fast planners must give
 * byte-identical offsets.
 *
 * greedy by size: order size descending, then earlier first, then lower id;
 * each tensor scans every placed tensor, keeps those whose closed lifetimes
 * meet its own, sorts them by offset and walks them keeping the highest end
 * so far (from 0): a positive space before the next one that is >= its size
 * is a candidate; best fit takes the smallest candidate (lowest on ties),
 * first fit the lowest; with no candidate it goes at the highest end.
 * greedy by breadth: every step 0..max(last) gets breadth = sum of sizes live
 * at it; steps by breadth descending (ties: lower step); at each, the live
 * tensors not yet placed, in the order above, best fit.
 * Zero-size tensors: offset 0, never conflict. */
#ifndef GREEDY_ORACLE_H
#define GREEDY_ORACLE_H

#include <stdint.h>

#include "planners/problem.h"

enum oracle_fit { ORACLE_BEST_FIT, ORACLE_FIRST_FIT };

/* Fill offsets (p->n entries) and *arena. 0 on success, -1 if out of memory. */
int oracle_greedy_size(const struct arena_problem *p, enum oracle_fit fit, uint64_t *offsets,
                       uint64_t *arena);
int oracle_greedy_breadth(const struct arena_problem *p, uint64_t *offsets, uint64_t *arena);

#endif
