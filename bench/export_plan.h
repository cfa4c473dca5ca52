/* export_plan.h — a plan as files a firmware build can use (bench
 * --export-plan DIR): NAME.csv, one tensor a line, and NAME.h, a C header
 * laid out as the founding document draws the arena (after TensorFlow Lite
 * Micro's arena: persistent data at the head, the planned activations, and
 * scratch at the tail):
 *
 *     [0, HEAD)              head: persistent tensors + --head bytes of
 *                            model metadata
 *     [ACT, ACT + ACT_BYTES) activations, each tensor at ACT + its offset
 *     [TAIL, TAIL + tail)    tail: --tail bytes of kernel scratch
 *
 * every region starting on a 16-byte boundary; one `static uint8_t` arena of
 * the total size, aligned to 16 bytes; one offset and one size constant per
 * tensor (its name made a C identifier, unique); a table of every tensor
 * (offset, size, first and last step) for code that walks the plan; and a
 * _Static_assert per tensor that it lies inside the activation region. */
#ifndef ARENA_BENCH_EXPORT_PLAN_H
#define ARENA_BENCH_EXPORT_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "planners/problem.h"

struct arena_export {
    const char *title;        /* one line for the files' comments (graph, planner) */
    const char *prefix;       /* C prefix of every name in the header, an identifier */
    const struct arena_problem *p;
    char *const *names;       /* p->n tensor names, or NULL: "t<id>" */
    const struct arena_plan *plan; /* a valid plan of p */
    uint64_t head, tail;      /* bytes of the head (persistent + metadata) and tail */
};

/* Writes dir/base.csv (`name,size,first,last,offset`, offset in the arena,
 * i.e. ACT + the plan's offset) and dir/base.h. ARENA_EIO with one line in
 * err when a file cannot be written, ARENA_EOVERFLOW when the regions'
 * total passes 2^62, ARENA_ENOMEM. */
int arena_export_plan(const char *dir, const char *base, const struct arena_export *x, char *err,
                      size_t errlen);

struct arena_source;
struct arena_planner;
struct arena_plan_options;

/* bench --export-plan: plans src with each planner (untimed), checks each
 * plan with the validator, and writes SPEC-FP-PLANNER.{csv,h} into dir
 * (SPEC the spec made a file name, FP the fingerprint's first 8 hex digits),
 * the head being the source's persistent bytes plus `head`. Prints each
 * header's path on out (NULL: quiet). opt goes to every planner (NULL:
 * the defaults; give search planners a time limit). ARENA_ECONFLICT when a plan is
 * invalid, other errors as arena_export_plan; one line in err. */
#include <stdio.h>
int arena_export_plans(const char *dir, const struct arena_source *src,
                       const struct arena_planner *const *planners, size_t n_planners,
                       const struct arena_plan_options *opt, uint64_t head, uint64_t tail,
                       FILE *out, char *err, size_t errlen);

#endif
