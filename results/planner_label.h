/* planner_label.h — what stats and plot call a planner.
 *
 * A planner's identity as the readers name it (results/columns.h) is its
 * canonical spec with its origin: "NAME[:key=value,...][ (ORIGIN)]", e.g.
 * "optimal:engine=portfolio,off=stack", "mine:beam=8 (plugin 1a2b3c4d)",
 * "greedy-by-size". Every key is there, defaults included, so one figure of
 * a knob's ablation would repeat the same keys in every label. Its label
 * among the planners of one figure or table names only the keys whose
 * value differs among the planners of its name and origin there, each
 * after ", ": "optimal, off=stack"; the name alone when none differs; the
 * origin last ("mine, beam=8 (plugin 1a2b3c4d)").
 *
 * --label SPEC=TEXT renames: SPEC names a planner (its name, its whole
 * identity, or a spec whose name and every key given agree with the
 * identity: "optimal:off=stack" names every engine's off=stack; a set's
 * names in any order); TEXT then
 * stands for the name and origin, and the differing keys SPEC does not give
 * still follow it ("--label optimal=Ours" gives "Ours, off=stack").
 * Internal to results/ and its readers (bench stats, bench plot). */
#ifndef ARENA_PLANNER_LABEL_H
#define ARENA_PLANNER_LABEL_H

#include <stddef.h>

/* One --label: spec[0..spec_len) and its text. */
struct arena_label_rename {
    const char *spec;
    size_t spec_len;
    const char *text;
};

/* Splits a --label argument SPEC=TEXT at the '=' that ends SPEC: the first
 * '=' of the name part, or after ':' the first '=' that is not a key's own
 * (a second '=' in one key=value item). ARENA_OK, or ARENA_EINVAL when there
 * is no such '=' or SPEC or TEXT is empty. */
int arena_label_rename_parse(const char *arg, struct arena_label_rename *out);

/* Whether spec[0..len) names the planner of identity id (see above). */
int arena_planner_spec_names(const char *id, const char *spec, size_t len);

/* The bare name of identity id (up to ':' or ' '), into buf (len bytes). */
void arena_planner_id_name(const char *id, char *buf, size_t len);

/* labels[i] (malloc'd) is the label of ids[i] among ids[0..n), renamed by
 * the most specific of ren[0..n_ren) that names it (the one giving the most
 * keys; the last of equals). ARENA_OK, or ARENA_ENOMEM with every label
 * freed and NULL. */
int arena_planner_labels(const char *const *ids, size_t n, const struct arena_label_rename *ren,
                         size_t n_ren, char **labels);

#endif
