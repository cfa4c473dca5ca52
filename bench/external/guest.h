/* guest.h — a planner's inputs are its own (include/arenabench/planner.h
 * hands them over as const; const is a promise bench does not take on
 * trust).
 *
 * bench never hands a planner its own problem or options: each job gets a
 * copy of the problem it plans (the tensors, alias pairs and spans) and of
 * the options, made before the first call, and its scratch and its plan's
 * offsets lie between two guard zones of ARENA_GUEST_GUARD bytes, filled
 * with a pattern. After the calls, arena_guest_check compares the copies
 * with bench's own, reads the guard zones, the plan's n and offsets pointer
 * and the stop flag: a planner that wrote to any of them (a sort in place,
 * a capacity written through a cast, an overrun of its scratch) gets an
 * invalid result naming the first thing it wrote, and nothing it wrote
 * reaches the validator, another planner or the database.
 *
 * The check allocates nothing, so an isolated child (isolate.h) runs it
 * after its calls and sends the verdict back. Internal to bench/. */
#ifndef ARENA_BENCH_GUEST_H
#define ARENA_BENCH_GUEST_H

#include <stddef.h>
#include <stdint.h>

#include "planners/planner.h"

/* Bytes of each guard zone, before and after the scratch and the offsets:
 * a multiple of malloc's alignment, so what lies between keeps it. */
#define ARENA_GUEST_GUARD 64u

struct arena_guest {
    struct arena_problem p;         /* the planner's copy of the problem */
    struct arena_plan_options opt;  /* the planner's copy of the options (its
                                       values: the copy below) */
    uint64_t *offsets;              /* p.n entries (one when p.n is 0), guarded */
    void *scratch;                  /* scratch_size bytes, guarded; NULL until
                                       given (arena_guest_scratch, _scratch_at) */
    size_t scratch_size;
    /* what the copy was made with, for the check */
    struct arena_tensor *tensors;
    struct arena_alias *alias;
    uint64_t *span;
    struct arena_key_value *values; /* n_values, the options' key values */
    size_t n_values;
    void *config; /* what the planner's configure() built (opt.config), or NULL */
    void *mem, *offsets_mem, *scratch_mem; /* scratch_mem: malloc'd here, or NULL */
};

/* Copies p and opt (with its n_values key values: the planner's n_keys)
 * into g and allocates the offsets. ARENA_OK or ARENA_ENOMEM (g then holds
 * nothing to free). */
int arena_guest_init(struct arena_guest *g, const struct arena_problem *p,
                     const struct arena_plan_options *opt, size_t n_values);
/* Frees what g holds (scratch given with arena_guest_scratch_at aside). */
void arena_guest_free(struct arena_guest *g);

/* pl's configure() (ABI 2.1; none: nothing) on g's values, once, before the
 * timed calls: its configuration goes to g->opt.config. ARENA_OK or the
 * planner's error. arena_guest_release hands it to pl's release() (call it
 * before arena_guest_free). */
int arena_guest_configure(struct arena_guest *g, const struct arena_planner *pl);
void arena_guest_release(struct arena_guest *g, const struct arena_planner *pl);

/* bytes of scratch, guarded, from malloc. ARENA_OK or ARENA_ENOMEM. */
int arena_guest_scratch(struct arena_guest *g, size_t bytes);
/* The bytes a block for `bytes` of guarded scratch takes (0 when that
 * does not fit a size_t); and the scratch laid in such a block, mem (an
 * isolated child's mapping: aligned at least as malloc's). */
size_t arena_guest_scratch_block(size_t bytes);
void arena_guest_scratch_at(struct arena_guest *g, void *mem, size_t bytes);

/* What a planner wrote that it was not given to write. */
enum arena_guest_what {
    ARENA_GUEST_NOTHING = 0,
    ARENA_GUEST_PROBLEM,        /* a field of struct arena_problem (field) */
    ARENA_GUEST_TENSOR,         /* tensor index's size, first or last (field) */
    ARENA_GUEST_ALIAS,          /* alias pair index (field: out, in) */
    ARENA_GUEST_SPAN,           /* span[index] */
    ARENA_GUEST_OPTIONS,        /* a field of struct arena_plan_options (field) */
    ARENA_GUEST_VALUE,          /* key value index (field: u, r, choice) */
    ARENA_GUEST_STOP,           /* the stop flag: set with no signal */
    ARENA_GUEST_PLAN,           /* plan->n or plan->offsets, the pointers (field) */
    ARENA_GUEST_SCRATCH_BEFORE, /* the guard zone before the scratch, byte index */
    ARENA_GUEST_SCRATCH_AFTER,  /* the guard zone after it, byte index */
    ARENA_GUEST_OFFSETS_BEFORE, /* the guard zone before plan->offsets */
    ARENA_GUEST_OFFSETS_AFTER,  /* the guard zone after its n entries */
};

/* The first write found: was and now are the field's values (a double's
 * by its bits); for a guard zone, index counts bytes from the guarded
 * memory's edge and was is its size (bytes of scratch, entries of offsets). */
struct arena_guest_fault {
    uint32_t what, field;
    uint64_t index, was, now;
};

/* Whether the planner handed g's copies (and plan, whose n and offsets
 * were set to g's) wrote to any of them since arena_guest_init, against p
 * and opt, bench's own: 0 (f zeroed) or 1 with the first write in f. A
 * non-zero stop flag counts as written: a caller discards the calls a
 * signal stopped before it reads this verdict. Allocates nothing. */
int arena_guest_check(const struct arena_guest *g, const struct arena_problem *p,
                      const struct arena_plan_options *opt, const struct arena_plan *plan,
                      struct arena_guest_fault *f);
/* One line for a result's error: "planner wrote to its problem: tensor 3's
 * size was 64, is 128 (...)". */
void arena_guest_describe(const struct arena_guest_fault *f, char *buf, size_t len);

#endif
