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

/* Builds and runs the pattern program for header `h` (a path, NAME.h, with
 * NAME.c beside it); returns its exit status (0: every tensor intact, 1: a
 * tensor overwritten, 2: head or tail touched, 3: a tensor outside the
 * activations, 4: two arenas). */
int ec_run(const char *dir, const char *h);

#endif
