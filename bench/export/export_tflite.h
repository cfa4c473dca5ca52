/* export_tflite.h — a plan written into a copy of its .tflite model as
 * TensorFlow Lite Micro's offline plan (bench --export-tflite), so TFLM's
 * allocator places the planned tensors at the plan's offsets instead of
 * planning them itself.
 *
 * TFLM's format (tflite-micro, docs/memory_management.md, "Offline planned
 * tensor allocations"): a Model.metadata entry named
 * "OfflineMemoryAllocation" whose buffer holds little-endian int32 values
 *     [0] version, 0
 *     [1] the number of subgraphs
 *     [2] n, the number of offsets that follow: every tensor of every
 *         subgraph, subgraph 0's tensors first, each in tensor-index order
 *     [3 + k] tensor k's byte offset from the start of the arena's head
 *         section (TFLM's head holds the non-persistent tensors: it is this
 *         project's activation region, so the offset is the plan's own),
 *         or -1: the runtime plans it (constants, variables, tensors no op
 *         touches, other subgraphs' tensors).
 *
 * How the copy is made, without a FlatBuffers library: FlatBuffer offsets
 * point forward and are relative to where they are stored, so the old bytes
 * are kept whole and placed after a new front part whose length P is a
 * multiple of 16 (which keeps every alignment of the old bytes). The front
 * part holds the root offset and "TFL3", a new Model table (every field of
 * the old one, its offsets re-aimed at the old objects + P), a new buffers
 * vector (the old buffers, then the plan's), a new metadata vector (the old
 * entries, less an existing "OfflineMemoryAllocation" one: a plan is
 * replaced, never duplicated) and the new Metadata, Buffer and data. The
 * old root table stays in the file, unreferenced, as does the buffer of a
 * replaced plan. Everything read is bounds-checked by graphs/flatbuf.h. */
#ifndef ARENA_BENCH_EXPORT_TFLITE_H
#define ARENA_BENCH_EXPORT_TFLITE_H

#include <stddef.h>
#include <stdint.h>

#define ARENA_TFLM_OFFLINE_PLAN "OfflineMemoryAllocation"

struct arena_tflite_plan {
    uint32_t subgraph;       /* the subgraph planned */
    size_t n;                /* tensors planned */
    const uint32_t *index;   /* n tensor indices in that subgraph, distinct */
    const uint64_t *offsets; /* n byte offsets from the start of TFLM's head */
};

/* Writes into *out (malloc'd, *out_size bytes) a copy of the model in
 * data[0, size) that carries plan as its offline plan. name is used in
 * messages. ARENA_EFORMAT for a model that is not well formed or that the
 * writer cannot carry a plan in (a Model field newer than signature_defs,
 * buffers stored after the FlatBuffer); ARENA_EINVAL for an index past the
 * subgraph's tensors or given twice; ARENA_EOVERFLOW for an offset past
 * 2^31 - 1 or a copy past 2 GiB; ARENA_ENOMEM. One line in err. */
int arena_tflite_with_plan(const unsigned char *data, size_t size, const char *name,
                           const struct arena_tflite_plan *plan, unsigned char **out,
                           size_t *out_size, char *err, size_t errlen);

#endif
