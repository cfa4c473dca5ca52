/* fuzz_tflite.c — libFuzzer target for the TensorFlow Lite reader
 * (graphs/tflite.c over the bounds-checked FlatBuffers reader
 * graphs/flatbuf.c) and the checks and lifetimes behind it. The first byte
 * picks the subgraph (0-3), so FILE#N is covered; the rest is the file, in
 * a buffer of exactly its size so ASan sees any read past it. On any bytes:
 * no crash, leak or undefined behaviour; a failure is one line naming the
 * file and leaves nothing; a model that reads gives a graph whose counts
 * agree with the reader's, and a problem with one record per planned tensor
 * inside the ops' steps. Seeds: corpus/fuzz_tflite (tests/tflite_writer.c's
 * models; the real ones in models/ make good extra seeds). */
#include "graphs/tflite.h"
#include "tests/fuzz/fuzz_graph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    uint32_t sub = data[0] & 3u;
    size_t n = size - 1;
    unsigned char *file = malloc(n ? n : 1);
    if (!file)
        return 0;
    memcpy(file, data + 1, n);
    struct arena_graph g;
    struct arena_tflite_info info;
    char err[512] = "";
    int rc = arena_tflite_read(file, n, "fuzz.tflite", sub, &g, &info, err, sizeof err);
    free(file);
    if (rc != ARENA_OK) {
        fuzz_require_one_line(rc, err);
        FUZZ_REQUIRE(strncmp(err, "fuzz.tflite: ", 13) == 0, "the file is not named: %s", err);
        FUZZ_REQUIRE(g.n_tensors == 0 && g.n_ops == 0 && g.tensors == NULL, "a partial graph");
        return 0;
    }
    FUZZ_REQUIRE(g.n_tensors == info.planned, "%zu tensors, %zu planned", g.n_tensors,
                 info.planned);
    FUZZ_REQUIRE(g.n_ops == info.ops && info.folded <= info.ops, "%zu ops, %zu stored, %zu folded",
                 g.n_ops, info.ops, info.folded);
    FUZZ_REQUIRE(info.planned + info.constants + info.variables + info.unused <= info.tensors,
                 "more tensors sorted than stored");
    fuzz_graph_lifetimes(&g);
    return 0;
}
