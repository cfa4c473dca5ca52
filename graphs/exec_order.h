/* exec_order.h — the execution order transform: the order of a graph's ops
 * that needs the fewest live bytes, with a proof.
 *
 * The peak of an order is the max-live bound of the problem that order gives
 * (graph.h's lifetimes: closed intervals [first, last], graph inputs from
 * step 0, graph outputs to the last step; sizes rounded up to the
 * alignment). With S the set of ops run before a step and o the op run at
 * it, the bytes live there are
 *
 *     cost(S, o) = resident(S) + bytes of o's outputs [- the hook's saving]
 *
 * where resident(S) sums the graph inputs and the outputs of ops in S that a
 * graph output or an op outside S still needs. The peak of an order is the
 * most cost over its steps; S is always a downset of the DAG, so the least
 * peak is a bottleneck shortest path over downsets from {} to every op.
 *
 * `best` first proves a lower bound without searching, the certificate: at
 * op p's step, in every order, p's inputs and outputs are live, and so is
 * every tensor written by an ancestor of p (or a graph input) that a
 * descendant of p reads or that is a graph output. When the stored order's
 * peak equals the most of these, the stored order is optimal and kept.
 * Otherwise the search is A* on the bottleneck (states: downsets, kept in a
 * hash table keyed by their bitsets; priority max(cost so far, the most
 * certificate of an op not yet run)), seeded with the best of the stored
 * order and two greedy orders as the incumbent. A ready op that frees at
 * least the bytes it keeps and whose step costs no more than the state's
 * priority is run at once (an exchange argument: moving it earlier never
 * raises a later step). Past the state budget the search stops: the order
 * kept is the incumbent and the bound is the least priority still open,
 * a proven lower bound, never claimed to be reached. */
#ifndef ARENA_EXEC_ORDER_H
#define ARENA_EXEC_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "graphs/graph.h"
#include "graphs/inplace.h"

enum arena_order_mode {
    ARENA_ORDER_STORED, /* the graph's own order (default) */
    ARENA_ORDER_BEST,   /* the least peak, proven */
};

/* "stored", "best"; NULL otherwise. */
const char *arena_order_mode_name(enum arena_order_mode m);
/* ARENA_OK and *out when s names a mode, else ARENA_ENOTFOUND. */
int arena_order_mode_parse(const char *s, enum arena_order_mode *out);

enum arena_order_status {
    ARENA_ORDER_KEPT,      /* stored mode: the stored order, nothing proven */
    ARENA_ORDER_CERTIFIED, /* the certificate equals the stored peak: no search */
    ARENA_ORDER_OPTIMAL,   /* the search proved peak = bound */
    ARENA_ORDER_LIMIT,     /* the state budget ran out: peak >= bound, gap open */
};

/* "stored", "certified", "optimal", "limit". */
const char *arena_order_status_name(enum arena_order_status s);

/* The per-op cost hook, where a rule such as in-place operators plugs in:
 * how many bytes op `op` saves at its step when the inputs in dying[0, n)
 * die there (every other reader has run; never graph outputs). It must not
 * save more when fewer inputs die (monotone), and must not change what stays
 * resident after the step (an output that takes an input's place keeps its
 * own size: an equal-size alias). NULL: no saving. */
struct arena_order_hook {
    uint64_t (*saving)(void *ctx, uint32_t op, const uint32_t *dying, size_t n_dying);
    void *ctx;
};

#define ARENA_ORDER_STATES_DEFAULT 2000000
/* Whatever the state budget, the search keeps at most this many bytes of
 * states (their bitsets, figures, hash slots and heap entries): 256 MiB. */
#define ARENA_ORDER_MEMORY_MAX ((size_t)256 << 20)

struct arena_order_options {
    uint64_t alignment;  /* sizes round up to it (a power of two) */
    uint64_t max_states; /* downsets kept before the search gives up; 0: default
                            (never more than ARENA_ORDER_MEMORY_MAX bytes) */
    const struct arena_order_hook *hook; /* NULL: none */
};

struct arena_order_result {
    uint32_t *order;     /* n_ops op ids, step by step (malloc'd) */
    size_t n_ops;
    uint64_t stored_peak; /* the peak of the stored order */
    uint64_t peak;        /* the peak of `order` */
    uint64_t bound;       /* proven: no order's peak is below it */
    uint64_t certificate; /* the search-free part of bound */
    uint64_t states;      /* downsets stored by the search (0: none) */
    uint64_t ns;          /* wall time of the whole transform, nanoseconds
                             (set by arena_order_apply) */
    enum arena_order_status status;
};

void arena_order_result_free(struct arena_order_result *r);

/* The peak of running g's ops in order[0, n) (n = g->n_ops), under the model
 * above. ARENA_EINVAL when order is not a topological permutation (one line
 * in err); the graph itself must pass arena_graph_check. */
int arena_order_peak(const struct arena_graph *g, const uint32_t *order, size_t n,
                     const struct arena_order_options *opt, uint64_t *peak, char *err,
                     size_t errlen);

/* An independent check, sharing nothing with the search: order[0, n) holds
 * every op of g once and runs every op after the writers of its inputs.
 * ARENA_OK, or ARENA_EINVAL with one line in err naming the first fault. */
int arena_order_check(const struct arena_graph *g, const uint32_t *order, size_t n, char *err,
                      size_t errlen);

/* Finds the best order of g as above. g must pass arena_graph_problem at
 * this alignment (its checks, and the aligned sizes' sum within 64 bits, so
 * no sum here overflows); arena_order_transform is called on such a graph.
 * *r is filled (free with arena_order_result_free) on ARENA_OK; ARENA_ENOMEM
 * or ARENA_EINVAL with one line in err, *r zeroed, otherwise. */
int arena_order_best(const struct arena_graph *g, const struct arena_order_options *opt,
                     struct arena_order_result *r, char *err, size_t errlen);

/* Runs the mode on g: for ARENA_ORDER_BEST finds the best order and sets it
 * (arena_graph_order_set) unless it is the stored one; for stored fills *r
 * with the stored order and its peak (status kept, bound = 0: not proven).
 * r may be NULL for stored mode (then nothing is done). */
int arena_order_apply(struct arena_graph *g, enum arena_order_mode mode,
                      const struct arena_order_options *opt, struct arena_order_result *r,
                      char *err, size_t errlen);

/* The order transform as the loader (graphs/source.c) applies it: in
 * `mode` with sizes rounded up to alignment and the search's state budget
 * max_states (0: the default), under the in-place rule `rule` (its saving
 * is the search's hook), applies the mode to g and fills *r (free with
 * arena_order_result_free; all zero in stored mode, where nothing is done).
 * With a rule, the peak, the stored peak and the bound are the in-place
 * bounds the planners see: the order found is measured once merged, and
 * the stored order is kept when it is not worse; the bound is claimed
 * reached only where it meets that measure (else status limit). g must
 * pass arena_graph_problem at this alignment. ARENA_ENOMEM or ARENA_EINVAL
 * with one line in err. */
int arena_order_transform(struct arena_graph *g, enum arena_order_mode mode, uint64_t alignment,
                          uint64_t max_states, enum arena_inplace_rule rule,
                          struct arena_order_result *r, char *err, size_t errlen);

#endif
