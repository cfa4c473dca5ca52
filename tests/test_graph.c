/* test_graph.c — the DAG model: lifetimes by TFLite Micro's convention and
 * every graph check with its message. All expected values are worked out by
 * hand from the small graphs built here. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "graphs/graph.h"

static uint32_t tensor(struct arena_graph *g, const char *name, uint64_t bytes)
{
    uint32_t id = 0;
    cr_assert_eq(arena_graph_tensor_add(g, name, ARENA_DTYPE_INT8, 1, &bytes, &id), ARENA_OK);
    return id;
}

static void op(struct arena_graph *g, const char *name, const uint32_t *in, size_t n_in,
               uint32_t out)
{
    cr_assert_eq(arena_graph_op_add(g, name, "layer", in, n_in, &out, 1), ARENA_OK);
}

/* in -> op0 -> a -> op1 -> b ; op2 reads a, b and side (a graph input first
 * read at step 2) and writes c (graph output); op3 reads c and writes dead
 * (read by nothing, not an output).
 *   in   [0,0]   graph input, read at step 0
 *   a    [0,2]   written at 0, last read at 2
 *   b    [1,2]
 *   side [0,2]   graph input: from step 0 although first read at step 2
 *   c    [2,3]   graph output: to the last step (3)
 *   dead [3,3]   written at 3, never read */
static void small_graph(struct arena_graph *g)
{
    arena_graph_init(g);
    uint32_t in = tensor(g, "in", 10), a = tensor(g, "a", 20), b = tensor(g, "b", 30);
    uint32_t side = tensor(g, "side", 40), c = tensor(g, "c", 50), dead = tensor(g, "dead", 60);
    g->tensors[in].is_input = 1;
    g->tensors[side].is_input = 1;
    g->tensors[c].is_output = 1;
    op(g, "op0", &in, 1, a);
    op(g, "op1", &a, 1, b);
    uint32_t three[3] = {a, b, side};
    op(g, "op2", three, 3, c);
    op(g, "op3", &c, 1, dead);
}

Test(graph, lifetimes_follow_tflm_convention)
{
    struct arena_graph g;
    small_graph(&g);
    struct arena_problem p = {0};
    char err[256];
    cr_assert_eq(arena_graph_problem(&g, 1, &p, NULL, err, sizeof err), ARENA_OK, "%s", err);
    const uint32_t first[6] = {0, 0, 1, 0, 2, 3}, last[6] = {0, 2, 2, 2, 3, 3};
    const uint64_t size[6] = {10, 20, 30, 40, 50, 60};
    cr_assert_eq(p.n, 6);
    cr_assert_eq(p.alignment, 1);
    for (size_t i = 0; i < 6; i++) {
        cr_expect_eq(p.tensors[i].first, first[i], "tensor %zu first", i);
        cr_expect_eq(p.tensors[i].last, last[i], "tensor %zu last", i);
        cr_expect_eq(p.tensors[i].size, size[i], "tensor %zu size", i);
    }
    free((void *)p.tensors);
    arena_graph_free(&g);
}

Test(graph, sizes_round_up_to_the_alignment)
{
    struct arena_graph g;
    small_graph(&g);
    struct arena_problem p = {0};
    cr_assert_eq(arena_graph_problem(&g, 16, &p, NULL, NULL, 0), ARENA_OK);
    /* 10,20,30,40,50,60 rounded up to 16: 16,32,32,48,64,64 */
    const uint64_t size[6] = {16, 32, 32, 48, 64, 64};
    for (size_t i = 0; i < 6; i++)
        cr_expect_eq(p.tensors[i].size, size[i]);
    cr_expect_eq(p.alignment, 16);
    free((void *)p.tensors);
    cr_expect_eq(arena_graph_problem(&g, 24, &p, NULL, NULL, 0), ARENA_EINVAL);
    cr_expect_null(p.tensors);
    arena_graph_free(&g);
}

Test(graph, bytes_are_dims_times_element_size)
{
    struct arena_graph g;
    arena_graph_init(&g);
    const uint64_t dims[4] = {1, 112, 112, 96};
    const enum arena_dtype t[4] = {ARENA_DTYPE_INT8, ARENA_DTYPE_INT16, ARENA_DTYPE_FP16,
                                   ARENA_DTYPE_FP32};
    const uint64_t want[4] = {1204224, 2408448, 2408448, 4816896}; /* 112*112*96 = 1,204,224 */
    for (int i = 0; i < 4; i++) {
        uint32_t id;
        char name[8] = {'t', (char)('0' + i), 0};
        cr_assert_eq(arena_graph_tensor_add(&g, name, t[i], 4, dims, &id), ARENA_OK);
        cr_expect_eq(g.tensors[id].bytes, want[i]);
    }
    enum arena_dtype d;
    cr_expect_eq(arena_dtype_parse("fp16", &d), ARENA_OK);
    cr_expect_eq(d, ARENA_DTYPE_FP16);
    cr_expect_eq(arena_dtype_parse("float", &d), ARENA_ENOTFOUND);
    cr_expect_str_eq(arena_dtype_name(ARENA_DTYPE_INT16), "int16");
    arena_graph_free(&g);
}

Test(graph, explicit_order_sets_the_steps)
{
    /* x (input) feeds two independent ops p and q; run q first. */
    struct arena_graph g;
    arena_graph_init(&g);
    uint32_t x = tensor(&g, "x", 8), a = tensor(&g, "a", 8), b = tensor(&g, "b", 8);
    g.tensors[x].is_input = 1;
    g.tensors[a].is_output = 1;
    g.tensors[b].is_output = 1;
    op(&g, "p", &x, 1, a);
    op(&g, "q", &x, 1, b);
    const uint32_t order[2] = {1, 0};
    cr_assert_eq(arena_graph_order_set(&g, order, 2), ARENA_OK);
    struct arena_problem p = {0};
    cr_assert_eq(arena_graph_problem(&g, 1, &p, NULL, NULL, 0), ARENA_OK);
    cr_expect_eq(p.tensors[b].first, 0); /* q runs at step 0 */
    cr_expect_eq(p.tensors[a].first, 1); /* p at step 1 */
    cr_expect_eq(p.tensors[x].last, 1);
    free((void *)p.tensors);
    arena_graph_free(&g);
}

/* Expects check to fail with rc and a message containing text. */
static void expect_fault(struct arena_graph *g, int rc, const char *text, size_t op_at,
                         size_t tensor_at)
{
    char err[256];
    struct arena_graph_fault f;
    cr_assert_eq(arena_graph_check(g, &f, err, sizeof err), rc, "message: %s", err);
    cr_expect(strstr(err, text) != NULL, "'%s' does not contain '%s'", err, text);
    cr_expect_eq(f.op, op_at, "fault op %zu", f.op);
    cr_expect_eq(f.tensor, tensor_at, "fault tensor %zu", f.tensor);
    cr_expect_null(strchr(err, '\n'));
    struct arena_problem p = {.n = 99};
    cr_expect_eq(arena_graph_problem(g, 1, &p, NULL, NULL, 0), rc);
    cr_expect_eq(p.n, 0);
    cr_expect_null(p.tensors);
    arena_graph_free(g);
}

Test(graph, small_graph_passes)
{
    struct arena_graph g;
    small_graph(&g);
    char err[256];
    cr_expect_eq(arena_graph_check(&g, NULL, err, sizeof err), ARENA_OK, "%s", err);
    arena_graph_free(&g);
}

Test(graph, duplicate_tensor_name)
{
    struct arena_graph g;
    small_graph(&g);
    tensor(&g, "b", 4);
    expect_fault(&g, ARENA_EINVAL, "duplicate tensor name 'b' (tensors 2 and 6)", SIZE_MAX, 6);
}

Test(graph, duplicate_op_name)
{
    struct arena_graph g;
    small_graph(&g);
    uint32_t t = tensor(&g, "extra", 4), c = 4;
    op(&g, "op1", &c, 1, t);
    expect_fault(&g, ARENA_EINVAL, "duplicate op name 'op1' (ops 1 and 4)", 4, SIZE_MAX);
}

Test(graph, empty_name)
{
    struct arena_graph g;
    small_graph(&g);
    tensor(&g, "", 4);
    expect_fault(&g, ARENA_EINVAL, "tensor 6 has an empty name", SIZE_MAX, 6);
}

Test(graph, zero_size)
{
    struct arena_graph g;
    small_graph(&g);
    const uint64_t dims[3] = {4, 0, 4};
    uint32_t id;
    arena_graph_tensor_add(&g, "empty", ARENA_DTYPE_FP32, 3, dims, &id);
    expect_fault(&g, ARENA_EINVAL, "tensor 'empty': size is zero bytes", SIZE_MAX, id);
}

Test(graph, overflowing_size)
{
    struct arena_graph g;
    small_graph(&g);
    /* 2^31 * 2^31 elements of 1 byte = 2^62 fits exactly; x4 bytes does not */
    const uint64_t dims[2] = {(uint64_t)1 << 31, (uint64_t)1 << 31};
    uint32_t ok, big;
    arena_graph_tensor_add(&g, "fits", ARENA_DTYPE_INT8, 2, dims, &ok);
    cr_expect_eq(g.tensors[ok].bytes, (uint64_t)1 << 62);
    cr_expect_eq(g.tensors[ok].overflow, 0);
    arena_graph_tensor_add(&g, "huge", ARENA_DTYPE_FP32, 2, dims, &big);
    cr_expect_eq(g.tensors[big].overflow, 1);
    g.tensors[ok].is_input = 1;
    g.tensors[big].is_input = 1;
    expect_fault(&g, ARENA_EOVERFLOW, "tensor 'huge': size overflows", SIZE_MAX, big);
}

Test(graph, dangling_tensor)
{
    struct arena_graph g;
    small_graph(&g);
    uint32_t id = tensor(&g, "orphan", 4);
    expect_fault(&g, ARENA_EINVAL, "tensor 'orphan' is dangling", SIZE_MAX, id);
}

Test(graph, tensor_written_twice)
{
    struct arena_graph g;
    small_graph(&g);
    uint32_t c = 4, b = 2;
    op(&g, "op4", &c, 1, b);
    expect_fault(&g, ARENA_EINVAL, "tensor 'b' is written by two ops, 'op1' and 'op4'", 4, 2);
}

Test(graph, graph_input_written)
{
    struct arena_graph g;
    small_graph(&g);
    uint32_t c = 4, side = 3;
    op(&g, "op4", &c, 1, side);
    expect_fault(&g, ARENA_EINVAL, "op 'op4' writes graph input 'side'", 4, 3);
}

Test(graph, output_never_written)
{
    struct arena_graph g;
    small_graph(&g);
    uint32_t id = tensor(&g, "ghost", 4);
    g.tensors[id].is_output = 1;
    expect_fault(&g, ARENA_EINVAL, "graph output 'ghost' is never written", SIZE_MAX, id);
}

Test(graph, cycle)
{
    /* x -> p -> y -> q -> z, and r reads z writes w which p also reads:
     * p -> q -> r -> p is a cycle. */
    struct arena_graph g;
    arena_graph_init(&g);
    uint32_t x = tensor(&g, "x", 4), y = tensor(&g, "y", 4), z = tensor(&g, "z", 4);
    uint32_t w = tensor(&g, "w", 4);
    g.tensors[x].is_input = 1;
    uint32_t pin[2] = {x, w};
    op(&g, "p", pin, 2, y);
    op(&g, "q", &y, 1, z);
    op(&g, "r", &z, 1, w);
    char err[256];
    struct arena_graph_fault f;
    cr_assert_eq(arena_graph_check(&g, &f, err, sizeof err), ARENA_EINVAL);
    cr_expect(strstr(err, "the ops form a cycle through op '") != NULL, "%s", err);
    cr_expect(f.op <= 2);
    arena_graph_free(&g);
}

Test(graph, cycle_reported_on_the_cycle_not_downstream)
{
    /* a <-> b form a cycle; c only reads b's output. The fault must be a or b. */
    struct arena_graph g;
    arena_graph_init(&g);
    uint32_t ta = tensor(&g, "ta", 4), tb = tensor(&g, "tb", 4), tc = tensor(&g, "tc", 4);
    g.tensors[tc].is_output = 1;
    op(&g, "c", &tb, 1, tc);
    op(&g, "a", &tb, 1, ta);
    op(&g, "b", &ta, 1, tb);
    struct arena_graph_fault f;
    cr_assert_eq(arena_graph_check(&g, &f, NULL, 0), ARENA_EINVAL);
    cr_expect(f.op == 1 || f.op == 2, "fault op %zu", f.op);
    arena_graph_free(&g);
}

Test(graph, self_loop_is_a_cycle)
{
    struct arena_graph g;
    arena_graph_init(&g);
    uint32_t t = tensor(&g, "t", 4);
    g.tensors[t].is_output = 1;
    op(&g, "loop", &t, 1, t);
    expect_fault(&g, ARENA_EINVAL, "the ops form a cycle through op 'loop'", 0, SIZE_MAX);
}

Test(graph, order_not_topological)
{
    struct arena_graph g;
    small_graph(&g);
    const uint32_t order[4] = {1, 0, 2, 3}; /* op1 reads a before op0 writes it */
    arena_graph_order_set(&g, order, 4);
    expect_fault(&g, ARENA_EINVAL,
                 "order is not topological: op 'op1' (step 0) reads 'a', written later by op "
                 "'op0' (step 1)",
                 1, 1);
}

Test(graph, order_not_a_permutation)
{
    struct arena_graph g;
    small_graph(&g);
    const uint32_t order[4] = {0, 1, 1, 3};
    arena_graph_order_set(&g, order, 4);
    expect_fault(&g, ARENA_EINVAL, "order is not topological: op 'op1' runs twice (steps 1 and 2)",
                 1, SIZE_MAX);
}

Test(graph, order_of_wrong_length_is_refused)
{
    struct arena_graph g;
    small_graph(&g);
    const uint32_t order[3] = {0, 1, 2};
    cr_expect_eq(arena_graph_order_set(&g, order, 3), ARENA_EINVAL);
    cr_expect_eq(arena_graph_check(&g, NULL, NULL, 0), ARENA_EINVAL); /* latched */
    arena_graph_free(&g);
}

Test(graph, read_before_written)
{
    struct arena_graph g;
    small_graph(&g);
    uint32_t never = tensor(&g, "never", 4), out = tensor(&g, "out2", 4);
    op(&g, "op4", &never, 1, out);
    expect_fault(&g, ARENA_EINVAL,
                 "op 'op4' (step 4) reads tensor 'never' before it is written: no op writes it "
                 "and it is not a graph input",
                 4, 6);
}

Test(graph, no_ops)
{
    struct arena_graph g;
    arena_graph_init(&g);
    uint32_t t = tensor(&g, "lonely", 4);
    g.tensors[t].is_input = 1;
    expect_fault(&g, ARENA_EINVAL, "the graph has no ops", SIZE_MAX, SIZE_MAX);
}

Test(graph, builder_failures_latch)
{
    struct arena_graph g;
    small_graph(&g);
    uint32_t bad = 99, out = 0;
    cr_expect_eq(arena_graph_op_add(&g, "bad", "layer", &bad, 1, &out, 1), ARENA_EINVAL);
    cr_expect_eq(g.status, ARENA_EINVAL);
    uint64_t one = 1;
    cr_expect_eq(arena_graph_tensor_add(&g, "later", ARENA_DTYPE_INT8, 1, &one, NULL),
                 ARENA_EINVAL);
    cr_expect_eq(g.n_tensors, 6);
    expect_fault(&g, ARENA_EINVAL, "building the graph failed", SIZE_MAX, SIZE_MAX);
}

Test(graph, rank_limit)
{
    struct arena_graph g;
    arena_graph_init(&g);
    uint64_t dims[ARENA_GRAPH_MAX_RANK + 1] = {1, 1, 1, 1, 1, 1, 1};
    cr_expect_eq(arena_graph_tensor_add(&g, "t", ARENA_DTYPE_INT8, ARENA_GRAPH_MAX_RANK + 1, dims,
                                        NULL),
                 ARENA_EINVAL);
    arena_graph_free(&g);
}
