/* graph_internal.h — what graph.c shares with lifetimes.c, source.c and the
 * loaders. */
#ifndef ARENA_GRAPH_INTERNAL_H
#define ARENA_GRAPH_INTERNAL_H

#include "graphs/graph.h"

#define ARENA_GRAPH_NONE UINT32_MAX

/* Runs every check of arena_graph_check(); on success writer[t] holds the op
 * that writes tensor t (ARENA_GRAPH_NONE for graph inputs) and pos[o] the
 * step of op o. writer has n_tensors entries, pos n_ops. */
int arena_graph_analyse(const struct arena_graph *g, uint32_t *writer, uint32_t *pos,
                        struct arena_graph_fault *fault, char *err, size_t errlen);

/* A malloc'd copy of s (NULL when out of memory): strdup is not C11. */
char *arena_str_dup(const char *s);

/* n strings packed into one malloc'd block: n pointers, then the bytes they
 * point at, so free(names) releases everything (NULL when out of memory).
 * The strings are the n NUL-terminated ones laid end to end in pool
 * (arena_names' pool, a CSV's ids in record order). */
char **arena_names_pack(const char *pool, size_t pool_len, size_t n);
/* The graph's tensor names in tensor id order, one block as above. */
char **arena_graph_names(const struct arena_graph *g);

#endif
