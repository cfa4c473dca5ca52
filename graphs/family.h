/* family.h — how a family of graphs or problems plugs into the spec parser
 * (spec.c) and the front door (source.c). One file per family exports one
 * `const struct arena_family`; registry in spec.c. */
#ifndef ARENA_FAMILY_H
#define ARENA_FAMILY_H

#include <stddef.h>
#include <stdint.h>

#include "graphs/graph.h"
#include "planners/keys.h"
#include "graphs/source.h"

/* A family's keys are struct arena_key (include/arenabench/planner.h), the
 * table planners declare theirs in, parsed by the one parser both share
 * (planners/keys.h). */
#define ARENA_FAMILY_MAX_KEYS 12

/* A UINT key that must not be below another ("max" not below "min"). */
struct arena_key_floor {
    const char *key, *floor;
};

struct arena_family {
    struct arena_family_info info;
    const struct arena_key *keys;
    size_t n_keys;
    const struct arena_key_floor *floors; /* NULL, or pairs up to a {NULL} */
    /* Exactly one of these two is set. Both get the values in key order and
     * write one line into err on failure (a bad combination of values). */
    int (*build_graph)(const struct arena_key_value *v, struct arena_graph *g, char *err,
                       size_t errlen);
    int (*build_problem)(const struct arena_key_value *v, uint64_t alignment,
                         struct arena_problem *p, char *err, size_t errlen);
};

extern const struct arena_family arena_family_mobilenetv2;
extern const struct arena_family arena_family_chain;
extern const struct arena_family arena_family_residual;
extern const struct arena_family arena_family_unet;
extern const struct arena_family arena_family_transformer;
extern const struct arena_family arena_family_random_dag;
extern const struct arena_family arena_family_randwire;
extern const struct arena_family arena_family_nasnet;
extern const struct arena_family arena_family_random_intervals;
extern const struct arena_family arena_family_packed;
extern const struct arena_family arena_family_slack;
extern const struct arena_family arena_family_ds_cnn;
extern const struct arena_family arena_family_mobilenetv1;
extern const struct arena_family arena_family_resnet8;
extern const struct arena_family arena_family_fc_autoencoder;
extern const struct arena_family arena_family_ds_tcn;

/* The family named name, or NULL. */
const struct arena_family *arena_family_find(const char *name, size_t len);
const struct arena_family *arena_family_get(size_t i);

/* A parsed spec: the family, its values, the canonical params text. */
struct arena_spec {
    const struct arena_family *family;
    struct arena_key_value values[ARENA_FAMILY_MAX_KEYS];
    char params[512]; /* canonical "key=value,..." */
};

/* Parses "family[:key=value,...]"; missing keys take their defaults, the seed
 * key the given seed. ARENA_ENOTFOUND for an unknown family or key (err lists
 * the valid ones), ARENA_EINVAL for a bad value or a repeated key. */
int arena_spec_parse(const char *text, uint64_t seed, struct arena_spec *out, char *err,
                     size_t errlen);

/* The spec's graph (ARENA_EINVAL for a problem family). The loader
 * (graphs/source.c) takes a graph family's graph from here and transforms
 * it. */
int arena_spec_graph(const struct arena_spec *s, struct arena_graph *g, char *err, size_t errlen);

/* A problem family's problem, sizes rounded up to alignment (ARENA_EINVAL
 * for a graph family; ARENA_EOVERFLOW when the sizes' sum passes 2^64 - 1).
 * *p is zeroed on error. */
int arena_spec_problem(const struct arena_spec *s, uint64_t alignment, struct arena_problem *p,
                       char *err, size_t errlen);

/* The spec's untransformed problem, for tools and tests that want a
 * problem and nothing else: a problem family's, or a graph family's graph
 * in its stored order with no in-place rule (arena_graph_problem). *ops
 * receives the op count (0 for a problem family); names, when not NULL, a
 * graph family's tensor names in id order, one block (arena_graph_names),
 * NULL for a problem family. *p is zeroed on error. The loader with every
 * transformation is arena_source_load (graphs/source.h). */
int arena_spec_build(const struct arena_spec *s, uint64_t alignment, struct arena_problem *p,
                     size_t *ops, char ***names, char *err, size_t errlen);

/* Generators name their tensors and ops with arena_gen_tensor and
 * arena_gen_op (graph.h). */

#endif
