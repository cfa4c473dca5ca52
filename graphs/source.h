/* source.h — the graph layer's front door: turn what a user names on the
 * command line (a spec "family:key=value,..." or a path to a problem or graph
 * file) into a planning problem plus the facts a results table needs.
 *
 * One pipeline (source.c): a reader returns a graph (a .tflite or ONNX
 * model, a graph file, a graph family) or a bare problem (a CSV, a problem
 * family); the graph is checked, its fixed-order bound taken, and then the
 * transformations of graphs/transforms.h are applied here and nowhere
 * else, once, in their order (patch, scratch, order, in-place), before the
 * lifetimes make the problem. The readers know nothing of them.
 *
 * The same text, alignment and default seed always give the same problem; the
 * fingerprint proves it (a 64-bit FNV-1a over n, alignment and every
 * (size, first, last) record in id order). */
#ifndef ARENA_SOURCE_H
#define ARENA_SOURCE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "graphs/tflm_head.h"
#include "graphs/transforms.h"
#include "planners/problem.h"

struct arena_source {
    char *spec;   /* canonical: every key with its value, defaults filled in,
                     keys in the family's order; for a file, its path; a
                     patched graph's ends "+patch=RxC:K[:stream]" */
    char *family; /* family name, or "csv" / "graph-file" for files, or
                     "tflite" for a TensorFlow Lite model (bytes 4-7 "TFL3";
                     "FILE#N" picks subgraph N; graphs/tflite.h), "onnx"
                     for an ONNX model (graphs/onnx.h) */
    char *params; /* canonical "key=value,..." (empty for files) */
    uint64_t fingerprint; /* of the problem's sizes and lifetimes
                             (arena_problem_fingerprint) */
    uint64_t planned_fingerprint; /* of the problem as the planners get it:
                                     the same and its alias candidates
                                     (arena_problem_fingerprint_planned) */
    size_t ops;   /* ops in the graph; 0 for a bare problem file */
    char *warning; /* NULL, or one line for the user (a .tflite model's
                      dynamic dims or variable tensors): bench prints it */
    char **names;  /* problem.n tensor names, one malloc'd block (free(names)
                      frees them all): a graph's tensor names (graph files,
                      graph families, .tflite models), a CSV's ids; NULL
                      for a problem family, whose tensors have no names */
    uint32_t *index; /* NULL, or problem.n indices: each tensor's index in
                        its source where that differs from its id (a
                        .tflite subgraph's tensor index: constants and
                        variables are not planned); NULL: the id is the
                        index (a CSV's record, a graph file's tensor) */
    uint64_t persistent_bytes; /* kept apart from the plan: a model's
                                  variable tensors (aligned), else 0 */
    /* The transformations applied (graphs/transforms.h): the descriptor a
     * result records. For a bare problem only the alignment applies, so
     * its order is stored and its rule none, whatever was asked. */
    struct arena_transforms tf;
    /* The fixed-order bound: the most bytes live at once in the graph as
     * it was read, untransformed (its stored order, no in-place rule, no
     * patch), at this alignment; a bare problem's own lower bound. An
     * arena below it is what the transformations bought. */
    uint64_t fixed_lower_bound;
    /* With --order best on a graph: the order, its peak, the stored
     * order's peak and the proven bound (graphs/exec_order.h; under an
     * in-place rule, in-place bounds); all zero otherwise. */
    struct arena_order_result order;
    struct arena_patch_report patch; /* the --patch transform's figures;
                                        patch.spec.rows 0: not patched */
    struct arena_scratch_report scratch; /* the kernel scratch buffers the
                                            --scratch rule added (all zero
                                            under none) */
    size_t scratch_first; /* the problem's tensors from this id on are
                             those kernel scratch buffers (problem.n when
                             there are none) */
    /* Under the online policy, the requests TFLM will place itself: one
     * record {size (aligned), step, step} per requesting op, in step
     * order, not part of the problem; NULL and 0 otherwise. */
    struct arena_tensor *online_scratch;
    size_t n_online_scratch;
    /* Under a --scratch rule other than none, for a graph: TFLM's
     * persistent records of the model on a 32-bit Cortex-M (the head,
     * graphs/tflm_head.h); has_head 0 otherwise. */
    int has_head;
    struct arena_tflm_head head;
    struct arena_problem problem; /* owns its tensors and alias candidates */
    /* With arena_load_options.keep_graph, the transformed graph the
     * problem was made from (its tensor ids are the problem's, its order
     * the problem's steps), owned by the source; NULL otherwise and for a
     * bare problem. */
    struct arena_graph *graph;
};

/* How to load: what arena_source_load() takes, plus a way to stop. */
struct arena_load_options {
    uint64_t alignment; /* every size is rounded up to it (a power of two) */
    uint64_t seed;      /* the default of a family's seed key */
    /* When not NULL and *stop turns non-zero (a signal handler's flag), a
     * file stops loading at its next line: ARENA_EIO, "PATH:LINE: file:
     * stopped by a signal". A spec is built to its end (seconds at most). */
    const volatile sig_atomic_t *stop;
    /* The execution order a graph is planned in (ARENA_ORDER_STORED, 0, is
     * the graph's own); order_states the search's state budget (0: its
     * default). A bare problem (CSV, problem family) has none to change. */
    enum arena_order_mode order;
    uint64_t order_states;
    /* When not NULL, a graph family's graph is patched (graphs/patch.h)
     * before it becomes a problem; the spec gains "+patch=RxC:K[:stream]",
     * and a spec given with that suffix loads patched the same way (so a
     * stored spec loads again; not with patch set too). Files and problem
     * families are refused (ARENA_EINVAL, one line). */
    const struct arena_patch_spec *patch;
    /* Which ops run in place (graphs/inplace.h): a graph's problem gets the
     * rule's alias candidates (problem.alias, owned by the source). A bare
     * problem (a CSV, a problem family) has none under any rule. */
    enum arena_inplace_rule inplace;
    /* The kernels' scratch buffers (graphs/scratch.h) and where they go: a
     * graph's problem gains them as tensors; a bare problem has no ops. */
    enum arena_scratch_rule scratch;
    enum arena_scratch_policy scratch_policy;
    int keep_graph; /* keep the transformed graph in arena_source.graph */
};

/* Loads one source. text is a spec or a path (a path is anything that names
 * an existing file or contains '/' or ends in .csv/.txt/.graph; a folder
 * named with a '/' is refused as one; "FILE#N" as arena_tflite_split reads it).
 * A file's kind comes from its extension (.csv; .graph or .txt; .tflite;
 * .onnx), else from its first bytes: "TFL3" at bytes 4-7 a model, an ONNX
 * ModelProto's first fields (arena_onnx_is_model) an ONNX model, a first statement
 * within the first 4 KiB `tensor` or `op` a graph file, else a CSV. A
 * stream that cannot be read twice (a pipe, /dev/stdin) is read into memory
 * once, then parsed. "FILE#N" is subgraph N of a model (graphs/tflite.h);
 * its spec is "FILE" for N = 0, else "FILE#N" with N without leading zeros. Spec values
 * that are not given take the family's defaults; `seed` is the default for a
 * family's seed key when the spec does not set it. alignment rounds every
 * size up (ARENA_EOVERFLOW past ARENA_SIZE_MAX).
 * On error returns a negative status, writes one line into err (for files
 * "PATH:LINE: FIELD: what is wrong", for specs the unknown family or key with
 * the list of valid ones) and leaves *out zeroed: never a partial problem. */
int arena_source_load(const char *text, uint64_t alignment, uint64_t seed,
                      struct arena_source *out, char *err, size_t errlen);
/* Checks text as arena_source_load would before building or reading
 * anything: a spec's family, keys and values (ARENA_ENOTFOUND or
 * ARENA_EINVAL, one line in err, as arena_source_load words it), a model's
 * "#N" index; a file path is not opened (ARENA_OK). */
int arena_source_check(const char *text, char *err, size_t errlen);
/* The same with every option. */
int arena_source_load_with(const char *text, const struct arena_load_options *opt,
                           struct arena_source *out, char *err, size_t errlen);
void arena_source_free(struct arena_source *s);

uint64_t arena_problem_fingerprint(const struct arena_problem *p);
/* The fingerprint of the problem as planned: arena_problem_fingerprint,
 * continued over the alias candidates (out, in; 4 bytes each, little-endian)
 * when there are any, so it equals arena_problem_fingerprint without them. */
uint64_t arena_problem_fingerprint_planned(const struct arena_problem *p);

/* The families, for --list. params: "key=default (meaning), ..." one line. */
struct arena_family_info {
    const char *name;
    const char *summary;
    const char *params;
};
size_t arena_family_count(void);
const struct arena_family_info *arena_family_at(size_t i); /* NULL past the end */

#endif
