/* patch.h — patch-based inference of a graph's first stage (MCUNetV2, Lin
 * et al., NeurIPS '21), as a transformed graph every planner plans.
 *
 * The stage is the first k ops of the execution order. Exactly one tensor
 * may cross its end (read by a later op, or a graph output): the stage
 * output O, H x W x C. O is cut into a rows x cols grid (row i covers
 * [floor(i H / rows), floor((i+1) H / rows)), columns likewise). For each
 * patch, row-major, the stage's ops run once over just the region of their
 * output that the patch needs: walking the stage backwards from the patch,
 * an op whose output region is rows [y0, y1) needs rows
 * [y0 sh - pad_top, (y1 - 1) sh - pad_top + kh) of each input, clipped to
 * it (columns likewise); a tensor read by several ops needs the bounding
 * box of their regions. The overlap of neighbouring regions, the halo, is
 * computed again by every patch that needs it.
 *
 * The transformed graph has, per patch and stage op, one op "OP@i,j" and
 * one tensor "T@i,j" (1 x rows x cols x C of its region) in place of each
 * tensor internal to the stage; the stage's inputs (graph inputs) stay
 * whole and are read by every patch. O stays whole, one buffer assembled
 * in place: the first patch's last op writes it, and the last op of every
 * later patch lists O among its inputs and writes no tensor (the graph
 * model allows one writer per tensor; the edge keeps every later patch
 * after O exists, should a transform reorder the ops). O lives from the
 * first patch's last op to its last reader after the stage. The ops after
 * the stage follow unchanged.
 * So the plan's peak holds the input, the assembled O and one patch's
 * intermediates at a time.
 *
 * stream: MCUNetV2 does not hold the image whole ("partially decoded from
 * a compressed format like JPEG"). With stream, a graph input that only the
 * stage reads is not in the patched graph: each patch begins with an op
 * "IN@i,j" of kind read_input, reading nothing and writing the patch's
 * region of it, "IN@i,j". Without stream, the input stays whole.
 *
 * MACs: an op's are (output elements computed) x its macs_per_out. The
 * patched stage computes every region, halo included; the whole-image
 * stage computes each output once. */
#ifndef ARENA_PATCH_H
#define ARENA_PATCH_H

#include <stddef.h>
#include <stdint.h>

#include "graphs/graph.h"

#define ARENA_PATCH_MAX_GRID 64 /* rows, cols at most */

struct arena_patch_spec {
    uint32_t rows, cols; /* the grid over the stage output, 1..ARENA_PATCH_MAX_GRID */
    uint32_t k;          /* ops in the stage, >= 1 */
    int stream;          /* graph inputs only the stage reads come per patch */
};

/* Parses "RxC:K" (4x4:13) or "RxC:K:stream": decimal, no signs or spaces.
 * ARENA_EINVAL with one line in err (naming the text) otherwise. */
int arena_patch_parse(const char *text, struct arena_patch_spec *out, char *err, size_t errlen);

struct arena_patch_report {
    struct arena_patch_spec spec; /* rows 0: no patching */
    uint32_t out_tensor;   /* the stage output O: its id in the source graph */
    char out_name[64];     /* its name (cut to 63 bytes) */
    uint64_t out_h, out_w, out_c;
    uint64_t stage_macs;   /* the stage's ops over the whole image */
    uint64_t patched_macs; /* the same ops run per patch, halo included */
    uint64_t graph_macs;   /* every op stating a window, over the whole image */
    uint64_t patch_bytes_max; /* the most bytes of one patch's own tensors
                                 (not aligned) */
    uint32_t stage_ops;    /* ops of the patched stage: steps 0 .. stage_ops-1 */
    uint64_t stage_peak;   /* the most bytes live at one of those steps
                              (arena_patch_stage_peak; 0 until it is called) */
};

/* Builds in *out (initialised here; free it either way) the patched graph
 * of g as above, and fills *rep. g must pass arena_graph_check. Refused,
 * ARENA_EINVAL with one line in err naming the op or tensor:
 *  - k of 0 or above the op count, a grid past ARENA_PATCH_MAX_GRID,
 *    rows > H or cols > W;
 *  - a stage op that states no window (graph.h) or has more than one
 *    output, a stage tensor not of rank 4 with batch 1;
 *  - a stage whose end is crossed by no tensor or more than one;
 *  - a stage op whose output no later stage op nor O needs (a dead end).
 * ARENA_EOVERFLOW when MACs pass 2^64 - 1; ARENA_ENOMEM. */
int arena_graph_patch(const struct arena_graph *g, const struct arena_patch_spec *ps,
                      struct arena_graph *out, struct arena_patch_report *rep, char *err,
                      size_t errlen);

/* Sets rep->stage_peak: the most bytes of p (the patched graph's problem)
 * live at one step of the stage: the input (or its patch), the assembled
 * output once written, one patch's tensors. ARENA_ENOMEM. */
int arena_patch_stage_peak(const struct arena_problem *p, struct arena_patch_report *rep);

#endif
