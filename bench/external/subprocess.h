/* subprocess.h — one run of another program: bench's replay programs
 * (bench/replay/) and external planners (bench/external/cmd.h) go through here.
 *
 * The program starts in a process group of its own (a terminal's ^C
 * reaches bench alone, and bench ends the program with everything it
 * started), gets its stdin from a buffer, and its stdout and stderr are
 * collected. The wait wakes at least every 100 ms to read the caller's stop
 * flag and time limit: when either ends it, the whole group is killed
 * (SIGKILL) and reaped, and early says which. Whatever the program left
 * running in its group when it exits is killed too. Internal to bench/. */
#ifndef ARENA_BENCH_SUBPROCESS_H
#define ARENA_BENCH_SUBPROCESS_H

#include <stddef.h>

#include "bench/base/buf.h"
#include "planners/planner.h"

/* How a run ended: on its own, by the caller's stop flag, at the time limit. */
enum arena_spawn_end { ARENA_SPAWN_RAN = 0, ARENA_SPAWN_STOPPED, ARENA_SPAWN_TIMED_OUT };

struct arena_spawn {
    const char *path;  /* the program */
    char *const *argv; /* argv[0] first, NULL last */
    char *const *envp; /* NULL: bench's own environment */
    const char *in;    /* written to its stdin, then closed (in_len 0: at once) */
    size_t in_len;
    size_t out_max;    /* more on stdout than this is an error (ARENA_ENOMEM,
                          "more than N bytes on stdout"), the group killed */
    size_t err_keep;   /* stderr's last err_keep bytes are kept */
    /* results */
    struct arena_buf out, err; /* freed by arena_spawn_free; .s NULL when empty */
    int status;        /* waitpid's */
    enum arena_spawn_end end;
    double wall_s;     /* from the start to the program's exit with its output
                          closed (every process of its group that held it
                          done): the group's wall time */
};

/* Runs s->path as above. opt may be NULL (no limit, no stop flag).
 * ARENA_OK when it ran (whatever its exit status; s->end says whether it
 * was ended early), else ARENA_EIO (no pipe, no start, poll failed) or
 * ARENA_ENOMEM (out of memory, too much output) with one line in err. */
int arena_spawn_run(struct arena_spawn *s, const struct arena_plan_options *opt, char *err,
                    size_t errlen);
void arena_spawn_free(struct arena_spawn *s);

/* The wall clock in seconds (CLOCK_MONOTONIC). */
double arena_spawn_now(void);

/* How a process ended, in words, from waitpid's status: "exited with status
 * 3", "was killed by signal 11 (Segmentation fault)". */
void arena_spawn_describe(int status, char *buf, size_t len);

#endif
