/* result.h — one measured planner x graph: the one record bench fills, the
 * store writes (store.h: arena_store_add_result, arena_store_find_result)
 * and the output formats print (bench/output.h). It lives here, below
 * both, so that nothing copies it field by field from one shape into
 * another: a field added here is one the store and the formats can read.
 *
 * Pointers are borrowed: the record holds none of its own. NaN times and a
 * NULL metrics are "not measured" everywhere (the store writes NULL, the
 * formats an empty field or "-"). */
#ifndef ARENA_RESULT_H
#define ARENA_RESULT_H

#include <stdint.h>

#include "graphs/source.h"
#include "planners/problem.h"

struct arena_result {
    /* ---- which planner, on which problem ---- */
    const char *planner; /* the planner's name */
    /* The canonical planner spec (include/arenabench/planner.h): planner,
     * then every key with its value ("optimal:engine=portfolio,off=none");
     * NULL reads as planner. Stored from schema 18 (column planner_spec). */
    const char *planner_spec;
    /* What bench's own output (table, CSV, JSON) calls the planner: its
     * name, with the keys whose values differ among the run's planners of
     * that name ("hill-climb, seed=3": results/planner_label.h); NULL reads
     * as planner. Not stored: stats and plot label from the database. */
    const char *label;
    /* The problem planned: its graph and configuration (src->tf: the
     * in-place rule, the order mode and budget, the patch), fingerprint,
     * fixed-order bound and order search's outcome. NULL (the store only):
     * a plain result of unknown source (rule none, stored order, no patch). */
    const struct arena_source *src;
    /* Its bounds; the store keeps inplace_bound (the planned problem's lower
     * bound), the formats print them all. NULL (the store only): not known,
     * stored as NULL. */
    const struct arena_bounds *bounds;

    /* ---- the verdict ---- */
    int valid;   /* 1 valid, 0 invalid or failed */
    int refused; /* not valid because the planner refused the problem by its
                    documented limit (ARENA_ETOOBIG): error starts "refused:" */
    const char *error;                   /* NULL when valid */
    const struct arena_metrics *metrics; /* NULL when the plan is not valid */
    /* The plan's claims after arena_plan_settle (valid plans only). */
    enum arena_plan_status status;
    uint64_t bound; /* proven lower bound, >= the max-live bound */
    uint64_t nodes; /* search nodes spent, 0 for heuristics */
    /* A guest's claims beyond what bench proved (bench/core/claims.h): the status
     * it gave ("optimal", "infeasible", ...) and its bound (0: none), kept
     * apart from status and bound, which hold only proofs; NULL: no claim. */
    const char *claimed_status;
    uint64_t claimed_bound;
    /* The arena TFLM allocates for this plan shipped as an offline plan:
     * the tensors where the plan puts them, the kernels' scratch buffers
     * where TFLM's own planner puts them (planners/device.h); 0 when not
     * computed (no scratch rule, the tail policy, or no valid plan). */
    uint64_t device_arena;
    /* Under a scratch rule, for a graph (graphs/tflm_head.h): TFLM's
     * persistent records beside the planned section and the whole arena
     * they make with the device arena (else the plan's arena); 0 when not
     * computed (stored as NULL). */
    uint64_t head_bytes, whole_arena;

    /* ---- the timing ---- */
    double plan_ns_median, plan_ns_mean, plan_ns_stddev; /* NaN: not measured */
    uint64_t iterations;    /* 0: not measured (stored as NULL) */
    uint32_t repetitions;
    uint64_t scratch_bytes; /* the working memory the planner asked for */
    int noisy;      /* spread above ARENA_NOISY_SPREAD (10 %), or one timed call */
    int timed_once; /* a search planner or a program: the wall time of one call */

    /* ---- where the planner comes from, how it was called (schema 14, 15) ----
     * origin "built-in" (NULL reads so), "plugin" or "cmd"; plugin_path and
     * plugin_sha256 for a plugin, planner_command and command_sha256 (the
     * SHA-256 of the command, its identity) for a cmd, NULL otherwise;
     * timing "in-process" (NULL reads so), "isolated" (in a forked child) or
     * "process" (a program's wall time); self_ns a program's own figure when
     * has_self_ns. */
    const char *origin, *plugin_path, *plugin_sha256, *planner_command, *command_sha256;
    const char *timing;
    int has_self_ns;
    uint64_t self_ns;

    /* ---- what the store keeps beside the row ---- */
    /* The options the planner read (search planners, programs), stored as
     * part of its configuration; NULL for planners that read none. */
    const struct arena_plan_options *options;
    char *const *names;      /* p->n tensor names stored with the placements
                                (arena_source.names), or NULL: names NULL */
    const uint32_t *shares;  /* NULL, or p->n ids: the tensor whose bytes each
                                takes, UINT32_MAX for none (placements.shares) */
};

#endif
