/* fuzz_onnx.c — libFuzzer target for the ONNX reader (graphs/onnx.c over
 * the wire walk graphs/onnx_wire.c and protobuf-c's generated unpacker)
 * and the checks and lifetimes behind it. The input is the file, in a
 * buffer of exactly its size so ASan sees any read past it. On any bytes:
 * no crash, leak or undefined behaviour; a failure is one line naming the
 * file and leaves nothing; the weightless copy the wire walk writes passes
 * the walk again and is a fixed point of it; a model that reads gives a graph whose counts
 * agree with the reader's, and a problem with one record per planned
 * tensor inside the nodes' steps. Seeds: corpus/fuzz_onnx (the hand model
 * of tests/onnx_writer.c and variants of it: refused for a symbolic dim, a
 * missing shape, a subgraph, two shapes for a value; read with two shapes
 * that agree and a weight listed as a graph input). */
#include "graphs/onnx.h"
#include "graphs/onnx_wire.h"
#include "tests/fuzz/fuzz_graph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *file = malloc(size ? size : 1);
    if (!file)
        return 0;
    memcpy(file, data, size);
    struct arena_graph g;
    struct arena_onnx_info info;
    char err[512] = "";
    /* The weightless copy the reader unpacks: it passes the walk again, and
     * stripping it again changes nothing. */
    unsigned char *lean, *again;
    size_t n_lean, n_again;
    if (arena_onnx_wire_strip(file, size, "fuzz.onnx", &lean, &n_lean, err, sizeof err) ==
        ARENA_OK) {
        FUZZ_REQUIRE(n_lean <= size, "the copy grew: %zu of %zu bytes", n_lean, size);
        FUZZ_REQUIRE(arena_onnx_wire_strip(lean, n_lean, "lean", &again, &n_again, err,
                                           sizeof err) == ARENA_OK,
                     "the copy is refused: %s", err);
        FUZZ_REQUIRE(n_again == n_lean && memcmp(again, lean, n_lean) == 0,
                     "stripping twice differs");
        free(again);
        free(lean);
    }
    int rc = arena_onnx_read(file, size, "fuzz.onnx", &g, &info, err, sizeof err);
    free(file);
    if (rc != ARENA_OK) {
        fuzz_require_one_line(rc, err);
        FUZZ_REQUIRE(strncmp(err, "fuzz.onnx: ", 11) == 0, "the file is not named: %s", err);
        FUZZ_REQUIRE(g.n_tensors == 0 && g.n_ops == 0 && g.tensors == NULL, "a partial graph");
        return 0;
    }
    FUZZ_REQUIRE(g.n_tensors == info.planned, "%zu tensors, %zu planned", g.n_tensors,
                 info.planned);
    FUZZ_REQUIRE(g.n_ops == info.nodes && info.folded <= info.nodes,
                 "%zu ops, %zu nodes, %zu folded", g.n_ops, info.nodes, info.folded);
    for (size_t t = 0; t < g.n_tensors; t++)
        for (const char *c = g.tensors[t].name; *c; c++)
            FUZZ_REQUIRE((unsigned char)*c >= 0x20 && *c != 0x7f,
                         "tensor %zu's name has a control byte", t);
    fuzz_graph_lifetimes(&g);
    return 0;
}
