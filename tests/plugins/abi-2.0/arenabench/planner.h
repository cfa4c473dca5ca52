/* tests/plugins/abi-2.0/arenabench/planner.h — FROZEN: the planner
 * contract at ABI 2.0, as include/arenabench/planner.h was before 2.1
 * appended configure() and release() to struct arena_planner and config to
 * the options. Never edit it: tests/plugins/abi20.c is built against it, and
 * test plugin::a_plugin_of_an_older_minor_loads_and_runs holds that bench
 * loads and runs such a plugin (the growth rule).
 *
 * arenabench/planner.h — the planner contract: what a planner is given,
 * what it must give back, and how a shared object offers planners to bench.
 *
 * This header is the whole contract, for the planners built into arenabench
 * (which include it through planners/planner.h) and for planners built
 * elsewhere as shared objects (`bench --planner plugin:PATH.so`). It is
 * self-contained: only standard C11 headers, no arenabench library to link.
 * Installed by `meson install` with a pkg-config file, so a plugin builds
 * with
 *
 *     cc -O2 -shared -fPIC $(pkg-config --cflags arenabench-planner) my.c -o my.so
 *
 * A plugin defines its planners as the built-in ones do (one `const struct
 * arena_planner` each, designated initialisers) and lists them once with
 * ARENA_PLUGIN(...) at the end of this file. bench checks the plugin's ABI
 * version against its own before it reads anything else, refuses a name
 * that a built-in planner or another planner of the run already has, and
 * then holds each planner to what a built-in one is held to: the same
 * independent validator of every plan, the same database, statistics and
 * figures. It calls a plugin's functions in a child process forked for
 * each job, which times the calls itself (`--in-process`: in bench's own
 * process, timed by Google Benchmark as the built-in planners are), so a
 * crash, an exit() or a call past the time limit is that planner's invalid
 * result and the run goes on; what it prints on stdout goes to bench's
 * stderr.
 *
 * Everything a planner is handed as const is its own copy, checked after
 * its calls (the problem, the options, the stop flag's value), and its
 * scratch and offsets have guard zones on both sides: a planner that
 * writes to any of them, or past them, gets an invalid result naming what
 * it wrote, and nothing else sees the write.
 *
 * Versioning, the growth rule (docs/extending.md, "The ABI and how it
 * grows"): the version is MAJOR.MINOR. A minor version only appends: a new
 * field goes at the end of its struct (a planner table's, the options'), a
 * new status or kind is never one a plugin of an older minor returns, and
 * zero keeps the old meaning of every field added (a NULL callback: not
 * given). Anything else (a field moved, removed or retyped, a rule whose
 * meaning changes) is a new major version. bench loads a plugin of its own
 * major version and a minor version at most its own; struct arena_plugin
 * carries the size of struct arena_planner the plugin was built with, and
 * bench reads that many bytes of each table, the fields after them zero.
 * struct arena_plugin's first member is the version in every version (its
 * next three members in every version from 2.0 on), so the check is always
 * possible. */
#ifndef ARENABENCH_PLANNER_H
#define ARENABENCH_PLANNER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this contract: 2.0 (1 had no keys). */
#define ARENA_PLANNER_ABI_MAJOR 2u
#define ARENA_PLANNER_ABI_MINOR 0u
/* As struct arena_plugin holds it: MAJOR << 16 | MINOR (version 1: 1). */
#define ARENA_PLANNER_ABI ((ARENA_PLANNER_ABI_MAJOR << 16) | ARENA_PLANNER_ABI_MINOR)

/* ---- status codes ----
 * What a planner's plan(), scratch_bytes() and configure() return: 0 for
 * success, negative for errors. A planner returns ARENA_OK with a plan, or
 * an error and no plan. (arenabench's own functions return these and more
 * codes of their own, -4 to -8, which no planner returns.) */
enum arena_status {
    ARENA_OK = 0,
    ARENA_EINVAL = -1,    /* an argument or a problem breaks its contract */
    ARENA_ENOMEM = -2,    /* allocation failed, or caller scratch too small */
    ARENA_EOVERFLOW = -3, /* a size or a sum of sizes does not fit; also a
                             planner's refusal of more tensors than its ids hold */
    ARENA_ETOOBIG = -9,   /* the problem is above the planner's documented size
                             limit: bench stores the result as "refused", not
                             as a failure */
};

/* ---- the problem ----
 * Tensor i needs `size` bytes during the closed step interval [first, last].
 * Two tensors conflict when first_i <= last_j && first_j <= last_i; a plan
 * is valid when conflicting tensors never share a byte (byte ranges are
 * half-open: [a, b) and [b, c) touch and do not collide) and every offset
 * is a multiple of the alignment. */

/* Largest tensor size a problem holds (after rounding to the alignment). */
#define ARENA_SIZE_MAX ((uint64_t)1 << 62)

struct arena_tensor {
    uint64_t size;  /* bytes, a multiple of the problem's alignment, at most
                       ARENA_SIZE_MAX; 0 is allowed (such a tensor conflicts
                       with nothing and any aligned offset is valid) */
    uint32_t first; /* step of the op that writes it */
    uint32_t last;  /* step of the last op that reads it, >= first */
};

/* An alias candidate (in-place operator): tensor `out` may take the bytes of
 * tensor `in`, which dies at the step that writes out (in.last ==
 * out.first, in.first < in.last) and is at least as large (out.size <=
 * in.size). A plan may then place out inside in's bytes (exactly on them
 * when the sizes are equal); any other overlap is still a collision.
 * bench merges the candidates before planning (bench --inplace), so a
 * planner bench calls never sees any: n_alias is 0. */
struct arena_alias {
    uint32_t out, in;
};

struct arena_problem {
    size_t n;                           /* tensors; ids are 0 .. n-1 */
    const struct arena_tensor *tensors; /* n records, tensor id = index */
    uint64_t alignment;                 /* a power of two, >= 1: every size and
                                           every offset a multiple of it */
    size_t n_alias;                     /* alias candidates, 0 for none */
    const struct arena_alias *alias;    /* n_alias pairs (NULL when 0) */
    /* NULL, or n lifetime lengths in the source's own time units, where
     * those are not the steps (a MiniMalloc CSV's upper - lower: its times
     * are compressed to dense steps, which keeps every conflict but not how
     * long a tensor lives). A planner may read them to break ties; conflicts
     * and bounds are the steps'. */
    const uint64_t *span;
};
/* bench guarantees, before any call: the alignment is a power of two, every
 * first <= last, every size <= ARENA_SIZE_MAX and a multiple of the
 * alignment, and the sum of all sizes fits in 63 bits (so no offset a
 * planner computes by adding sizes overflows). */

/* ---- the plan ----
 * What a plan claims about itself. Heuristics leave FEASIBLE; search
 * planners may claim more, and bench checks every claim against the plan,
 * the problem's bounds and the valid plans of the problem it holds (a
 * wrong claim makes the result invalid). A plugin's optimal, infeasible and
 * bound are stored as its claim, apart from what bench proves itself
 * (docs/bench.md, "Claims, checked, not trusted"). */
enum arena_plan_status {
    ARENA_PLAN_FEASIBLE = 0, /* a valid plan, no claim beyond that (in decision
                                mode: a plan within the capacity was found) */
    ARENA_PLAN_OPTIMAL,      /* arena == bound: no valid plan is smaller */
    ARENA_PLAN_INFEASIBLE,   /* decision mode: proven that no plan fits the
                                capacity (bound > capacity); offsets still
                                hold a valid plan, the best one found */
    ARENA_PLAN_LIMIT,        /* a budget ran out (or the stop flag was set)
                                before optimality or the decision was proven;
                                the plan is valid and the bound proven */
};

struct arena_plan {
    size_t n;          /* set by the caller: the entries of offsets, == problem n */
    uint64_t *offsets; /* caller-owned, n entries: the planner writes every one */
    uint64_t arena;    /* the planner writes max(offset + size) over the tensors
                          (0 for an empty problem); bench checks it */
    uint32_t buffers;  /* shared buffers / slots the planner used, 0 if none */
    enum arena_plan_status status; /* FEASIBLE unless the planner claims more */
    uint64_t bound;    /* a proven lower bound on the optimal arena; 0 when the
                          planner proves nothing (bench adds the max-live bound) */
    uint64_t nodes;    /* search nodes (or rounds) spent; 0 for heuristics */
    uint32_t notes;    /* what the planner could not do, as bits the built-in
                          planners define (planners/problem.h,
                          ARENA_PLAN_NOTE_*); a plugin leaves 0 (bench
                          never reads a plugin's) */
};
/* The caller sets n and offsets and zeroes arena, buffers, status, bound,
 * nodes and notes before every call of plan(). */

/* ---- options ---- */

/* What kind of plan a planner makes, so tables group planners and charts
 * colour them by kind; a search planner is also timed by one call, and its
 * options are stored with its result. */
enum arena_planner_kind {
    ARENA_KIND_OFFSETS = 0,     /* offsets in one arena, by a fixed rule */
    ARENA_KIND_SHARED_OBJECTS,  /* shared buffers (objects, slots, colours)
                                   laid end to end; plan->buffers counts them */
    ARENA_KIND_SEARCH,          /* a budgeted search: reads the options */
    ARENA_KIND_ONLINE,          /* no look-ahead: a runtime allocator's policy */
};

/* ---- keys: a planner's own parameters ----
 * A planner may declare a table of keys (struct arena_planner's keys and
 * n_keys), as a graph family does: `--planner NAME:key=value,...` is
 * parsed against it by the one spec parser graphs use, every key not given
 * takes its default, and plan() reads the values in table order
 * (opt->values[i]). The canonical spec, the name then every key in table
 * order with its normalised value ("optimal:engine=portfolio,off=none"), is
 * the planner's identity in the results. */
enum arena_key_kind {
    ARENA_KEY_UINT,   /* decimal integer in [min, max] */
    ARENA_KEY_REAL,   /* decimal number in [rmin, rmax] */
    ARENA_KEY_CHOICE, /* one of choices[] */
    ARENA_KEY_SET,    /* choices[] names joined by '+' ("stack+twins"), "none" for
                         the empty set; at most 64 choices, none named "none" */
};

struct arena_key {
    const char *name;           /* [a-z][a-z0-9_]*, at most 32 bytes, unique in
                                   its table */
    enum arena_key_kind kind;
    const char *def;            /* default as text (it must parse); NULL only
                                   for a UINT key named "seed": bench's --seed */
    uint64_t min, max;          /* UINT bounds (inclusive) */
    double rmin, rmax;          /* REAL bounds (inclusive, finite) */
    const char *const *choices; /* CHOICE, SET: NULL-terminated names of
                                   [a-z0-9_-], unique */
    const char *help;           /* one line for `bench list planners`, --help and
                                   docs; NULL for none */
};

/* A parsed value; which member is set follows the key's kind. */
struct arena_key_value {
    uint64_t u;      /* UINT */
    double r;        /* REAL */
    uint64_t choice; /* CHOICE: index into choices; SET: bit i set = choices[i]
                        in the set */
};

/* Most keys a planner's table may hold. */
#define ARENA_PLANNER_MAX_KEYS 32u

/* Options for planners that search; planners that need none ignore them. */
struct arena_plan_options {
    double time_limit;   /* seconds of wall time per call; 0 = none */
    uint64_t node_limit; /* search nodes or rounds; 0 = the planner's default
                            (none for an exact search) */
    uint64_t seed;       /* for randomised planners; same seed, same plan */
    uint64_t capacity;   /* 0: minimise the arena; otherwise decision mode:
                            any plan with arena <= capacity answers */
    const volatile sig_atomic_t *stop; /* NULL, or the caller's signal flag:
                            a planner that works longer than a few
                            milliseconds reads it (arena_plan_stop_requested)
                            between bounded stretches of work and, once it is
                            non-zero, returns soon with a valid plan of
                            status ARENA_PLAN_LIMIT: stopped, not the
                            planner's answer */
    /* The planner's key values, n_keys of them in its table's order, every
     * default filled in by the caller; NULL only when the planner has no
     * keys. Read-only, as the rest. */
    const struct arena_key_value *values;
};

/* For planners: nonzero once the caller's stop flag (opt->stop) is set. One
 * volatile load; loops whose steps cost a few nanoseconds read it every
 * ARENA_STOP_EVERY steps. */
static inline int arena_plan_stop_requested(const struct arena_plan_options *opt)
{
    return opt->stop != NULL && *opt->stop != 0;
}
#define ARENA_STOP_EVERY 4096u

/* ---- the planner ----
 * One table per planner. A planner is pure: no I/O, no globals, no
 * allocation, no printing; working memory is handed in by the caller, and
 * the same problem and options always give the same offsets (bench times
 * many calls and keeps the plan of the last). */
struct arena_planner {
    /* As on the command line, e.g. "greedy-by-size": 1 to 64 bytes of
     * letters, digits and . _ + - (bench refuses any other, and a name a
     * built-in planner has). */
    const char *name;
    /* One line for `bench list`; NULL for none. */
    const char *summary;
    /* One of enum arena_planner_kind. */
    enum arena_planner_kind kind;
    /* Required. Fills plan->offsets (n entries), plan->arena and
     * plan->buffers, and for search planners plan->status, bound and nodes.
     * The problem keeps the guarantees above; opt is never NULL; scratch
     * holds at least the bytes scratch_bytes() asked for (NULL when that is
     * 0), aligned for any scalar type (malloc's alignment). Returns ARENA_OK
     * with a plan, ARENA_ETOOBIG for a problem above a documented size limit,
     * or another error. */
    int (*plan)(const struct arena_problem *p, const struct arena_plan_options *opt,
                void *scratch, size_t scratch_size, struct arena_plan *plan);
    /* Optional (NULL: needs none): the working bytes plan() needs for p,
     * exactly (bench reports the figure), into *bytes. Returns ARENA_OK, or
     * the planner's refusal of p (ARENA_EOVERFLOW, ARENA_ETOOBIG): then
     * plan() is never called with p. */
    int (*scratch_bytes)(const struct arena_problem *p, size_t *bytes);
    /* Optional: the planner's keys (NULL and 0 for none), at most
     * ARENA_PLANNER_MAX_KEYS; plan() finds their values in opt->values. */
    const struct arena_key *keys;
    uint32_t n_keys;
};

/* ---- planners from a shared object ----
 * A plugin exports one object named ARENA_PLUGIN_SYMBOL of this type. */
struct arena_plugin {
    uint32_t abi;        /* ARENA_PLANNER_ABI as the plugin was built: always
                            the first member */
    uint32_t count;      /* planners in the list, at least 1 */
    const struct arena_planner *const *planners; /* count tables, in the order
                            `--planner plugin:PATH.so` runs them */
    uint32_t planner_size; /* sizeof(struct arena_planner) as the plugin was
                            built: bench reads that many bytes of each table */
};

#define ARENA_PLUGIN_SYMBOL "arena_plugin"

#if defined(__GNUC__)
#define ARENA_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define ARENA_PLUGIN_EXPORT
#endif

/* Lists a plugin's planners, once per shared object:
 *     ARENA_PLUGIN(&my_planner, &my_other_planner);
 * It defines the exported `arena_plugin` with this header's ABI version. */
#define ARENA_PLUGIN(...)                                                                  \
    static const struct arena_planner *const arena_plugin_list_[] = {__VA_ARGS__};         \
    ARENA_PLUGIN_EXPORT extern const struct arena_plugin arena_plugin;                      \
    const struct arena_plugin arena_plugin = {                                              \
        ARENA_PLANNER_ABI, (uint32_t)(sizeof arena_plugin_list_ / sizeof arena_plugin_list_[0]), \
        arena_plugin_list_, (uint32_t)sizeof(struct arena_planner)}

#ifdef __cplusplus
}
#endif

#endif
