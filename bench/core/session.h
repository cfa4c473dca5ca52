/* session.h — what bench's planning commands (the run, list, export,
 * replay) share while one runs: the stop signal, one-line messages, the
 * check of every write to stdout, the graphs loaded, the results database
 * and the run's row. Each command is a file of its own that calls these;
 * nothing here calls a command. Internal to bench/. */
#ifndef ARENA_BENCH_SESSION_H
#define ARENA_BENCH_SESSION_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/core/args.h"
#include "bench/core/progress.h"
#include "bench/core/runinfo.h"
#include "graphs/source.h"
#include "planners/alias.h"
#include "results/store.h"

/* A graph loaded, with what every command needs of it. */
struct arena_session_graph {
    struct arena_source src;
    struct arena_bounds bounds;
    /* With alias candidates, the planners plan merge.merged (the in-place
     * pre-pass, planners/alias.h) and their plans are expanded back to the
     * source's problem; without, they plan the source's problem itself. */
    struct arena_alias_merge merge;
    int merged;
    int64_t db_id; /* 0 until the graph's first row is stored */
    int header_done;
};

struct arena_session {
    struct arena_bench_common args; /* borrowed: the caller frees what it points to */
    struct arena_session_graph *graphs;
    size_t n_graphs;
    struct arena_store *store;
    int64_t run_id; /* 0 until the first row that needs it is stored */
    int argc;       /* the command line, for the runs row */
    char **argv;
    struct arena_progress progress;
    int db_failed, out_failed;
    struct arena_runenv env; /* governor and load as the command starts */
    struct sigaction old_int, old_term;
};

/* Starts a command: copies *args (the planners see the stop flag through
 * its options), catches SIGINT and SIGTERM (the first stops the command
 * once the call under way returns, and is answered at once by the progress
 * watcher; a second exits at once), starts the progress line, and checks
 * what every command checks first: stdout open (unless --quiet), --pin,
 * the machine's state for the runs row. 0, or an exit status (2) after a
 * message; arena_session_end() either way. */
int arena_session_begin(struct arena_session *s, const struct arena_bench_common *args, int argc,
                        char **argv);
/* Frees the graphs, closes the store, gives the signals their handlers back. */
void arena_session_end(struct arena_session *s);

/* The signal that asked the command to stop, 0 none; and the planners'
 * copy of it, which their options point to: a signal sets both, and a
 * planner that writes its copy stops nothing of bench's (the guest check,
 * guest.h, finds the write; mend puts the copy back after it). */
int arena_session_stopped(void);
const volatile sig_atomic_t *arena_session_stop_flag(void);
void arena_session_stop_flag_mend(void);

/* A guest's calls in bench's own process (a plugin with --in-process) are
 * under way between enter and leave. A guest that ends the process then
 * (exit(), its own or a library's) does not end the command as a success
 * with most of it never measured: bench says so in one line naming the
 * planner and graph, writes it into the run's row (runs.stopped, with the
 * results stored so far) and exits 2. */
void arena_session_guest_enter(struct arena_session *s, const char *planner, const char *graph);
void arena_session_guest_leave(void);

/* One line "bench: ..." on stderr (line breaks of the text made spaces),
 * after clearing the progress line (s may be NULL). */
void arena_session_say(struct arena_session *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The one check of every write to stdout: flushes and, on the first
 * failure (a full disk, a closed stdout), says so and marks the session
 * failed. 1 when all is well. */
int arena_session_stdout_ok(struct arena_session *s);
/* A signal, a failed store or a failed write: the command stops. */
int arena_session_halted(const struct arena_session *s);

/* The --graph items with suites and sweeps expanded (graphs/sweep.h) and
 * repeats dropped, the first kept: malloc'd, freed with
 * arena_session_items_free. ARENA_OK, or an error with one line in err. */
int arena_session_expand(const struct arena_bench_common *a, char ***items, size_t *n, char *err,
                         size_t errlen);
void arena_session_items_free(char **items, size_t n);

/* Loads every graph (so an input error stops the command before anything
 * is measured): each through graphs/source.c with the command's load
 * options, checked, its bounds, its in-place merge; a canonical spec and
 * problem loaded twice is kept once; a problem whose sizes add up past
 * 2^63-1 B is refused. 0, or an exit status after a message (128 + the
 * signal when one stopped the loading). */
int arena_session_load(struct arena_session *s);

/* Opens --db (its folder made), unless --no-db. 0 or an exit status. */
int arena_session_open_store(struct arena_session *s);
/* The runs row and the graph's row, written with the first result that
 * needs them. ARENA_OK or the store's status (arena_store_error says why). */
int arena_session_store_run_and_graph(struct arena_session *s, struct arena_session_graph *g);
/* After a signal stopped the run: records in its runs row (written now if
 * no result was stored yet) what the signal stopped and how many of total
 * results were stored. Nothing without a store or after a failed one. */
void arena_session_store_stop(struct arena_session *s, size_t stored, size_t total);

/* Makes the folders on the way to path (not path itself): 0 or an errno. */
int arena_session_make_parents(const char *path);

#endif
