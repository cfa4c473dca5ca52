/* export_plan.h — a plan as files a firmware build can use (bench
 * --export-plan DIR): NAME.csv, one tensor a line, and a C library of two
 * files, NAME.h (macros, one struct type and extern declarations: safe to
 * include anywhere, any number of times) and NAME.c (the one definition of
 * the arena and the tensor table: compile and link it once). The arena is
 * laid out after TensorFlow Lite Micro's arena (persistent data at the head,
 * the planned activations, and scratch at the tail; docs/shipping.md):
 *
 *     [0, ACT)               head: persistent tensors + --head bytes of
 *                            model metadata
 *     [ACT, ACT + ACT_BYTES) activations: the planned tensors
 *     [TAIL, TAIL + tail)    tail: --tail bytes of kernel scratch
 *
 * every region starting on a 16-byte boundary; one `uint8_t` arena of the
 * total size, aligned to 16 bytes; per tensor (its name made a C identifier,
 * unique) its byte offset from the start of the arena (head included), its
 * size and its index in the source; a table of every tensor (offset, size,
 * first and last step, source index) for code that walks the plan; and a
 * _Static_assert per tensor that it lies inside the activation region;
 * with an execution order of its own (bench --order best), PREFIX_OPS and
 * PREFIX_order[]: the op run at each step, as its index in the source (the
 * steps of the table count in that order: run the ops so). Every header
 * states the problem the plan is for, the configuration bench planned:
 * PREFIX_ORDER ("stored": run the ops in the source's order; "best": in
 * PREFIX_order[]), PREFIX_INPLACE (the in-place rule, "none" without
 * aliasing) and PREFIX_PATCH ("" or "RxC:K[:stream]"), with a comment that
 * says what each asks of the runtime.
 * C has no empty arrays: with no tensors (or no bytes) the table (or the
 * arena) has one zeroed element, and PREFIX_TENSORS (PREFIX_ARENA_BYTES)
 * says 0. */
#ifndef ARENA_BENCH_EXPORT_PLAN_H
#define ARENA_BENCH_EXPORT_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "graphs/transforms.h"
#include "planners/problem.h"

struct arena_bench_args; /* bench/core/args.h */

struct arena_export {
    const char *title;        /* one line for the files' comments (graph, planner) */
    const char *prefix;       /* C prefix of every name in the files, an identifier */
    const struct arena_problem *p;
    char *const *names;       /* p->n tensor names, or NULL: "t<id>" */
    const uint32_t *index;    /* p->n source indices, or NULL: the id */
    const struct arena_plan *plan; /* a valid plan of p */
    uint64_t head, tail;      /* bytes of the head (persistent + metadata) and tail */
    const uint32_t *order;    /* n_ops op ids in execution order (bench --order
                                 best chose one other than the stored), or NULL:
                                 the source's own order, nothing written */
    size_t n_ops;
    const uint32_t *shares;   /* NULL, or p->n ids: the tensor whose bytes each
                                 takes (an in-place op), UINT32_MAX for none */
    const struct arena_transforms *tf; /* the configuration planned; NULL: plain */
};

/* Writes dir/base.csv (`name,index,size,first,last,offset`, offset in the
 * arena, i.e. ACT + the plan's offset; with shares, a seventh column
 * `shares` names the tensor whose bytes the row's tensor takes, else is
 * empty), dir/base.h and dir/base.c (with shares, also PREFIX_SHARED_PAIRS
 * and PREFIX_shares[], the pairs {tensor, tensor whose bytes it takes} as
 * ids of the table: such an op reads its input before it writes), each
 * first as base.EXT.tmp, renamed only when all three are whole: a failed
 * export (a full disk) leaves no file behind, neither new nor partial.
 * ARENA_EIO with one line in err when a file cannot be written,
 * ARENA_EOVERFLOW when the regions' total passes 2^62, ARENA_ENOMEM. */
int arena_export_plan(const char *dir, const char *base, const struct arena_export *x, char *err,
                      size_t errlen);

struct arena_source;
struct arena_planner;
struct arena_plan_options;

/* bench --export-plan: plans src with each planner (untimed), checks each
 * plan with the validator, and writes SPEC-FP-PLANNER.{csv,h,c} into dir
 * (SPEC the spec made a file name, FP the fingerprint's first 8 hex digits),
 * the head being the source's persistent bytes plus `head`. The C prefix is
 * unique per graph and planner: STEM_FP[_SGn]_PLANNER, STEM the file's base
 * name without extension (or the family), FP the fingerprint's 8 hex digits,
 * n the subgraph of a .tflite model. Prints each header's path on out
 * (NULL: quiet). Each planner plans its own copy of the problem and
 * options, checked after the call (bench/external/guest.h); with isolate, in a
 * forked child as bench run calls a plugin (bench/external/isolate.h: a crash, an
 * exit or a call past opt's time limit is that planner's failure). opt
 * goes to every planner (NULL: the defaults; give search planners a time
 * limit). ARENA_ECONFLICT when a planner gives no valid plan (it refused,
 * failed, crashed, wrote to its inputs, or its plan is invalid), nothing
 * written for it; other errors as arena_export_plan; one line in err. */
int arena_export_plans(const char *dir, const struct arena_source *src,
                       const struct arena_planner *const *planners, size_t n_planners,
                       int isolate, const struct arena_plan_options *opt, uint64_t head, uint64_t tail,
                       FILE *out, char *err, size_t errlen);

/* bench --export-tflite: for a .tflite source ("FILE" or "FILE#N"), plans
 * it with each planner as arena_export_plans does and writes
 * dir/SPEC-FP-PLANNER.tflite, a copy of FILE carrying the plan as TensorFlow
 * Lite Micro's offline plan (export_tflite.h), written as .tmp and renamed
 * when whole. Prints each model's path on out (NULL: quiet). ARENA_EINVAL
 * when src is not a .tflite model, ARENA_ECONFLICT for no valid plan,
 * ARENA_EOVERFLOW when an offset passes 2^31 - 1, ARENA_EFORMAT for a model
 * the writer cannot carry a plan in, ARENA_EIO; one line in err. */
int arena_export_tflites(const char *dir, const struct arena_source *src,
                         const struct arena_planner *const *planners, size_t n_planners,
                         int isolate, const struct arena_plan_options *opt, FILE *out, char *err,
                         size_t errlen);

/* `bench export` once its command line is parsed (export_main.c), as
 * arena_bench_run (bench/bench.h) for the run: writes every graph x
 * planner's files, untimed; the same exit statuses. */
int arena_bench_export(const struct arena_bench_args *a, int argc, char **argv);

#endif
