/* fuzz_tflite_writer.c — libFuzzer target for the offline-plan writer
 * (bench/export/export_tflite.c), which reads an untrusted model through
 * graphs/flatbuf.c before it writes. The first byte picks the subgraph
 * (bits 0-1) and the one tensor planned (bits 2-7, at byte 16); the rest is
 * the model, in a buffer of exactly its size. On any bytes: no crash, leak
 * or undefined behaviour; a refusal is one line naming the file and leaves
 * no copy; a copy is the model with 16-byte-multiple front part, "TFL3" at
 * bytes 4-7, and, when the original reads as a graph, the copy reads as the
 * same one (same counts, tensor names and ops), and writing a plan into the
 * copy again gives a copy of the same size (a plan is replaced, not added).
 * Seeds: corpus/fuzz_tflite_writer (tests/tflite_writer.c's models). */
#include "bench/export/export_tflite.h"
#include "graphs/tflite.h"
#include "tests/fuzz/fuzz.h"

static int same_graph(const struct arena_graph *a, const struct arena_graph *b)
{
    if (a->n_tensors != b->n_tensors || a->n_ops != b->n_ops)
        return 0;
    for (size_t i = 0; i < a->n_tensors; i++)
        if (strcmp(a->tensors[i].name, b->tensors[i].name) != 0 ||
            a->tensors[i].bytes != b->tensors[i].bytes)
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    uint32_t index[1] = {data[0] >> 2};
    uint64_t offsets[1] = {16};
    struct arena_tflite_plan plan = {.subgraph = data[0] & 3u, .n = 1, .index = index,
                                     .offsets = offsets};
    size_t n = size - 1;
    unsigned char *file = malloc(n ? n : 1);
    if (!file)
        return 0;
    memcpy(file, data + 1, n);
    unsigned char *copy;
    size_t copy_size;
    char err[600] = "";
    int rc = arena_tflite_with_plan(file, n, "fuzz.tflite", &plan, &copy, &copy_size, err,
                                    sizeof err);
    if (rc != ARENA_OK) {
        fuzz_require_one_line(rc, err);
        FUZZ_REQUIRE(strncmp(err, "fuzz.tflite: ", 13) == 0, "the file is not named: %s", err);
        FUZZ_REQUIRE(copy == NULL, "a copy after: %s", err);
        free(file);
        return 0;
    }
    FUZZ_REQUIRE(copy_size > n && (copy_size - n) % 16 == 0, "front part of %zu bytes",
                 copy_size - n);
    FUZZ_REQUIRE(memcmp(copy + 4, "TFL3", 4) == 0, "no identifier");
    FUZZ_REQUIRE(memcmp(copy + (copy_size - n), file, n) == 0, "the old bytes changed");
    struct arena_graph a, b;
    struct arena_tflite_info ia, ib;
    if (arena_tflite_read(file, n, "fuzz.tflite", plan.subgraph, &a, &ia, err, sizeof err) ==
        ARENA_OK) {
        rc = arena_tflite_read(copy, copy_size, "fuzz.tflite", plan.subgraph, &b, &ib, err,
                               sizeof err);
        FUZZ_REQUIRE(rc == ARENA_OK, "the copy does not read: %s", err);
        FUZZ_REQUIRE(same_graph(&a, &b) && ia.tensors == ib.tensors && ia.planned == ib.planned,
                     "the copy reads as another graph");
        arena_graph_free(&a);
        arena_graph_free(&b);
    }
    unsigned char *again;
    size_t again_size;
    rc = arena_tflite_with_plan(copy, copy_size, "fuzz.tflite", &plan, &again, &again_size, err,
                                sizeof err);
    FUZZ_REQUIRE(rc == ARENA_OK, "the copy takes no plan: %s", err);
    /* the old plan's entry dropped, its buffer kept: one more buffer slot
     * (4 bytes), the same metadata count; the front part is that rounded up
     * to a multiple of 16, so at most 16 bytes more than the first one (a
     * first front of 208 bytes gives 224: the fuzzer found the bound) */
    FUZZ_REQUIRE(again_size - copy_size <= copy_size - n + 16, "%zu then %zu bytes", copy_size,
                 again_size);
    free(again);
    free(copy);
    free(file);
    return 0;
}
