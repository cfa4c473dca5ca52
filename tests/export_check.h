/* export_check.h — what the tests of bench --export-plan share: export a
 * source's plans, then prove each header and source on real memory: a
 * program of two translation units that include the header (one of them
 * twice, the other only for an offset macro), linked with the exported
 * source, must compile with cc -std=c11 -Wall -Wextra -Werror -pedantic and
 * see one arena (exit 4 otherwise); it writes a distinct byte pattern into each tensor at its first step, in
 * execution order, and checks at each tensor's last step that its pattern is
 * intact (and that head and tail were never touched), with no malloc. The
 * helpers assert with Criterion, so they belong in tests only. */
#ifndef EXPORT_CHECK_H
#define EXPORT_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* Exports every registered planner's plan of `text` (a spec or a path,
 * alignment 16, with head and tail bytes) into dir and checks each header;
 * returns how many headers passed. */
size_t ec_check_all(const char *text, const char *dir, uint64_t head, uint64_t tail);
/* The same under an in-place rule (graphs/inplace.h; 0 is none). */
size_t ec_check_all_inplace(const char *text, int rule, const char *dir, uint64_t head,
                            uint64_t tail);
/* ec_run, but shared = 0 hides an in-place plan's pairs from the program, so
 * it writes every output before it reads any input (a test that the order
 * is what lets an in-place plan pass). */
int ec_run_with(const char *dir, const char *h, int shared);

struct arena_source;
/* Writes the ops of src's graph (src loaded with keep_graph) into path, as
 * C arrays the pattern program includes: OPS_N, OPS_TENSORS, each op's
 * input and output tensor ids (the problem's) as OPS_IN_FIRST/OPS_IN and
 * OPS_OUT_FIRST/OPS_OUT. */
void ec_write_ops(const struct arena_source *src, const char *path);
/* ec_run_with, and with ops (a path from ec_write_ops, or NULL) the ops
 * themselves run in the order the header states: PREFIX_order[] when it
 * has one, else the source's; each op reads its inputs (which must hold
 * their pattern, exit 1 otherwise) and then writes its outputs. */
int ec_run_ops(const char *dir, const char *h, const char *ops, int shared);

/* Builds and runs the pattern program for header `h` (a path, NAME.h, with
 * NAME.c beside it); returns its exit status (0: every tensor intact, 1: a
 * tensor overwritten, 2: head or tail touched, 3: a tensor outside the
 * activations, 4: two arenas). */
int ec_run(const char *dir, const char *h);

#endif
