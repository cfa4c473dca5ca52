/* merge_check.h — what bench merge will not copy from an input (internal to
 * results/merge.c).
 *
 * bench writes every row of a results database under invariants; a row
 * that breaks one was not written by bench (a damaged or hand-edited file)
 * and would be ranked by stats and plot as if measured. So, before an input
 * is copied:
 *  - its tables must be tables: a view in place of one is refused;
 *  - each result and replay is checked, and the ones no bench writes are
 *    left out, named in temp.skip(tbl, id, why) for the copy to pass over,
 *    and counted with their placements and frames.
 * A result is impossible when its run or its graph is not in the file, its
 * valid is not 0 or 1, or, valid, when its arena is not a whole number of
 * bytes at or above the bound of its problem (the graph's lower bound; under
 * an in-place rule the in-place bound, itself at most the lower bound), its
 * status is not one of optimal, feasible, infeasible, limit, its proven
 * bound is not between that bound and its arena or differs from an optimal
 * arena, or its stored ratio_lb is not arena / bound. A replay is impossible
 * when its run or graph is not in the file. */
#ifndef ARENA_MERGE_CHECK_H
#define ARENA_MERGE_CHECK_H

#include <sqlite3.h>
#include <stddef.h>

#include "results/merge.h"

/* ARENA_OK when the tables merge copies from the attached input "src" are
 * tables; else ARENA_EINVAL and one line in err naming in and the table. */
int arena_merge_check_tables(sqlite3 *db, const char *in, char *err, size_t errlen);

/* Fills temp.skip (created when missing, emptied) with the impossible
 * results and replays of src, their graphs as temp.graph_map maps them into
 * main; adds them to counts (may be NULL) and, for the first ever skipped,
 * describes it in counts->skip_first. Returns an SQLite code. */
int arena_merge_mark_skips(sqlite3 *db, const char *in, struct arena_merge_counts *counts);

#endif
