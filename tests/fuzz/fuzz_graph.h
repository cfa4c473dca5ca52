/* fuzz_graph.h — the check the model readers' targets (fuzz_tflite,
 * fuzz_onnx) end with: a graph that read turns into a problem, or fails in
 * one line leaving nothing; the problem keeps its contract, has one record
 * per tensor, and every tensor dies within the ops' steps. Frees g. */
#ifndef ARENA_FUZZ_GRAPH_H
#define ARENA_FUZZ_GRAPH_H

#include "graphs/graph.h"
#include "tests/fuzz/fuzz.h"

static inline void fuzz_graph_lifetimes(struct arena_graph *g)
{
    char err[512] = "";
    struct arena_problem p = {0};
    int rc = arena_graph_problem(g, 16, &p, NULL, err, sizeof err);
    if (rc != ARENA_OK) {
        fuzz_require_one_line(rc, err);
        FUZZ_REQUIRE(p.n == 0 && p.tensors == NULL, "a partial problem after: %s", err);
        arena_graph_free(g);
        return;
    }
    size_t bad;
    FUZZ_REQUIRE(arena_problem_check(&p, &bad) == ARENA_OK, "tensor %zu breaks the contract", bad);
    FUZZ_REQUIRE(p.n == g->n_tensors, "%zu records for %zu tensors", p.n, g->n_tensors);
    for (size_t t = 0; t < p.n; t++)
        FUZZ_REQUIRE(p.tensors[t].last < g->n_ops, "tensor %zu lives to step %u of %zu ops", t,
                     (unsigned)p.tensors[t].last, g->n_ops);
    free((void *)p.tensors);
    arena_graph_free(g);
}

#endif
