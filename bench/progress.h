/* progress.h — one self-rewriting line on stderr while a run goes on:
 * done/total, the graph and planner being timed, elapsed time and ETA.
 * Disabled (every call a no-op) unless stderr is a terminal. */
#ifndef ARENA_BENCH_PROGRESS_H
#define ARENA_BENCH_PROGRESS_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>

struct arena_progress {
    int enabled;
    int shown;     /* a line is on the screen */
    size_t done, total;
    struct timespec start;
    FILE *err;
};

void arena_progress_init(struct arena_progress *p, int enabled, size_t total, FILE *err);
/* Shows what is being timed now. */
void arena_progress_show(struct arena_progress *p, const char *graph, const char *planner);
/* One more planner x graph finished. */
void arena_progress_step(struct arena_progress *p);
/* Erases the line (before other output goes to the terminal). */
void arena_progress_clear(struct arena_progress *p);
/* Seconds since init. */
double arena_progress_elapsed(const struct arena_progress *p);

#endif
