/* fuzz_graph_file.c — libFuzzer target for the graph text reader
 * (graphs/graph_file.c) and the checks and lifetimes behind it (graph.c,
 * lifetimes.c). On any bytes: no crash, leak or undefined behaviour; a
 * failure is one line and leaves nothing; a graph that reads and checks gives
 * one record per tensor, each live within the ops' steps, first <= last, and
 * an input live from step 0 and an output to the last step. Under the
 * depthwise in-place rule the candidates keep the problem's alias contract,
 * and greedy-by-size's plan of the merged problem, expanded, passes the
 * validator. */
#include <stdlib.h>

#include "graphs/files.h"
#include "graphs/inplace.h"
#include "planners/alias.h"
#include "planners/planner.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fuzz_stream(data, size);
    if (!f)
        return 0;
    struct arena_graph g;
    char err[512] = "";
    int rc = arena_graph_file_read_stream(f, "fuzz.graph", NULL, &g, err, sizeof err);
    fclose(f);
    if (rc != ARENA_OK) {
        fuzz_require_one_line(rc, err);
        FUZZ_REQUIRE(g.n_tensors == 0 && g.n_ops == 0 && g.tensors == NULL, "a partial graph");
        return 0;
    }
    struct arena_problem p = {0};
    struct arena_graph_fault fault;
    rc = arena_graph_problem(&g, 16, &p, &fault, err, sizeof err);
    if (rc != ARENA_OK) {
        fuzz_require_one_line(rc, err);
        FUZZ_REQUIRE(p.n == 0 && p.tensors == NULL, "a partial problem after: %s", err);
        FUZZ_REQUIRE(fault.op == SIZE_MAX || fault.op < g.n_ops, "fault op %zu of %zu", fault.op,
                     g.n_ops);
        FUZZ_REQUIRE(fault.tensor == SIZE_MAX || fault.tensor < g.n_tensors,
                     "fault tensor %zu of %zu", fault.tensor, g.n_tensors);
        arena_graph_free(&g);
        return 0;
    }
    size_t bad;
    FUZZ_REQUIRE(arena_problem_check(&p, &bad) == ARENA_OK, "tensor %zu breaks the contract", bad);
    FUZZ_REQUIRE(p.n == g.n_tensors, "%zu records for %zu tensors", p.n, g.n_tensors);
    for (size_t t = 0; t < p.n; t++) {
        const struct arena_tensor *r = &p.tensors[t];
        FUZZ_REQUIRE(r->last < g.n_ops, "tensor %zu lives to step %u of %zu ops", t,
                     (unsigned)r->last, g.n_ops);
        FUZZ_REQUIRE(!g.tensors[t].is_input || r->first == 0, "input %zu starts at %u", t,
                     (unsigned)r->first);
        FUZZ_REQUIRE(!g.tensors[t].is_output || r->last == g.n_ops - 1, "output %zu ends at %u",
                     t, (unsigned)r->last);
        FUZZ_REQUIRE(r->size >= g.tensors[t].bytes && r->size - g.tensors[t].bytes < 16,
                     "tensor %zu: %llu bytes rounded to %llu", t,
                     (unsigned long long)g.tensors[t].bytes, (unsigned long long)r->size);
    }
    struct arena_alias *a = NULL;
    size_t na = 0;
    rc = arena_inplace_candidates(&g, NULL, ARENA_INPLACE_DEPTHWISE, &a, &na, NULL);
    FUZZ_REQUIRE(rc == ARENA_OK || rc == ARENA_ENOMEM, "candidates: %d", rc);
    if (rc == ARENA_OK && na > 0) {
        p.alias = a;
        p.n_alias = na;
        FUZZ_REQUIRE(arena_problem_check(&p, &bad) == ARENA_OK, "pair of tensor %zu breaks the"
                     " alias contract", bad);
        struct arena_alias_merge m;
        if (arena_alias_merge(&p, &m) == ARENA_OK) {
            const struct arena_planner *pl = arena_planner_find("greedy-by-size");
            size_t bytes = 0;
            uint64_t *mo = malloc((m.merged.n ? m.merged.n : 1) * sizeof *mo);
            uint64_t *fo = malloc((p.n ? p.n : 1) * sizeof *fo);
            void *scratch = NULL;
            if (mo && fo && arena_planner_scratch(pl, &m.merged, &bytes) == ARENA_OK &&
                (scratch = malloc(bytes ? bytes : 1))) {
                struct arena_plan mp = {.n = m.merged.n, .offsets = mo};
                if (arena_planner_run(pl, &m.merged, NULL, scratch, bytes, &mp) == ARENA_OK) {
                    struct arena_plan full = {.n = p.n, .offsets = fo};
                    arena_alias_expand(&m, &mp, &full);
                    rc = arena_plan_validate(&p, &full, NULL);
                    FUZZ_REQUIRE(rc == ARENA_OK || rc == ARENA_ENOMEM,
                                 "the in-place plan is invalid (%d)", rc);
                }
            }
            free(scratch);
            free(mo);
            free(fo);
            arena_alias_merge_free(&m);
        }
    }
    free(a);
    free((void *)p.tensors);
    arena_graph_free(&g);
    return 0;
}
