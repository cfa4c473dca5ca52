/* progress.h — what a run is doing, on stderr, while it goes on: on a
 * terminal one self-rewriting line (done/total, the graph and planner being
 * timed, elapsed time and what is left), elsewhere (a log, a batch job) a
 * line at least every ARENA_PROGRESS_PERIOD seconds; and the answer to the
 * first SIGINT or SIGTERM, at once: "stopping after the current call:
 * PLANNER on GRAPH, running N s".
 *
 * A watcher thread does the timed part: it redraws the terminal line every
 * second, writes the periodic lines, and writes the answer to a signal,
 * which the signal handler hands it by writing the signal's number to
 * arena_progress_signal_fd() (write(2) is async-signal-safe; nothing else
 * runs in the handler). The thread blocks SIGINT and SIGTERM, so they
 * reach the thread that runs the planners. Every call below takes the
 * state's lock: the main thread and the watcher never print at once.
 *
 * What is left is estimated from the time each finished job took, not
 * from job counts: per planner, seconds per tensor of its finished jobs
 * times the tensors of its jobs to come (a planner with none finished
 * yet: the rate of all finished jobs, a search planner its time limit), a
 * search planner's job at most its time limit. */
#ifndef ARENA_BENCH_PROGRESS_H
#define ARENA_BENCH_PROGRESS_H

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

/* bench --progress: auto (a line on a terminal, else periodic lines; none
 * with --quiet), always (the same with --quiet too), never. */
enum arena_progress_mode { ARENA_PROGRESS_AUTO, ARENA_PROGRESS_ALWAYS, ARENA_PROGRESS_NEVER };

/* Seconds between two lines when stderr is not a terminal; the environment
 * variable ARENA_PROGRESS_PERIOD (seconds, > 0) overrides it, for tests. */
#define ARENA_PROGRESS_PERIOD 30.0

/* The name of mode i (auto, always, never), NULL past the last; and the
 * mode named text (0, or -1 for none). */
const char *arena_progress_mode_name(size_t i);
int arena_progress_mode_parse(const char *text, enum arena_progress_mode *mode);

struct arena_progress {
    int live;   /* the self-rewriting line (stderr a terminal) */
    int lines;  /* a line every period (stderr not a terminal) */
    int shown;  /* the live line is on the screen */
    double period;
    FILE *err;
    struct timespec start, job_start, last_line;
    /* The jobs: the planner (group) of each, its weight (tensors), at most
     * how long it can take (cap, 0: unbounded), how long it took (< 0: not
     * done). */
    size_t total, done, current; /* current: the job running, or total */
    size_t *group;
    double *weight, *cap, *took;
    char what[512]; /* "PLANNER on GRAPH", or another step ("loading GRAPH") */
    int doing;      /* what holds the step running */
    /* The first signal answered: its number (0: none), what was running
     * then ("" when nothing was) and for how long. */
    int stop_sig;
    char stop_what[512];
    double stop_into;
    /* The watcher. */
    pthread_mutex_t lock;
    pthread_t thread;
    int started, quit, wake[2];
};

/* Sets up p and starts its watcher. tty: stderr is a terminal. Without a
 * watcher (none could be started) progress and the signal's answer are
 * simply not shown. */
void arena_progress_init(struct arena_progress *p, enum arena_progress_mode mode, int quiet, int tty,
                         FILE *err);
/* The file descriptor a signal handler writes the signal's number to (one
 * byte, never blocking); -1 when there is no watcher. */
int arena_progress_signal_fd(const struct arena_progress *p);
/* The jobs to come, in the order they run: n of them, each's group,
 * weight and cap (copied). 0, or -1 out of memory (then no estimate). */
int arena_progress_plan(struct arena_progress *p, size_t n, const size_t *group, const double *weight,
                        const double *cap);
/* Job job starts: PLANNER on GRAPH. */
void arena_progress_start(struct arena_progress *p, size_t job, const char *graph, const char *planner);
/* A step that is not a job: what it is ("loading GRAPH"), or NULL when it
 * ends. */
void arena_progress_doing(struct arena_progress *p, const char *what);
/* The job running finished (a result stored or not). */
void arena_progress_step(struct arena_progress *p);
/* Erases the live line, before other output goes to the terminal, and
 * answers a signal handed over but not answered yet, so that a message
 * printed next comes after that answer. */
void arena_progress_clear(struct arena_progress *p);
/* The first signal answered (0: none yet), and in what (when not NULL,
 * len bytes: what was running then, "" when nothing was) and *into (its
 * seconds so far then) what it stopped. */
int arena_progress_stopped(struct arena_progress *p, char *what, size_t len, double *into);
/* Stops the watcher and frees p's memory. */
void arena_progress_end(struct arena_progress *p);
/* Seconds since init. */
double arena_progress_elapsed(const struct arena_progress *p);

/* Seconds the jobs not done will take, from those done (took[i] >= 0): see
 * the head of this file; the job cur (n: none) has run for running seconds.
 * -1 when nothing is done yet to go by. */
double arena_progress_estimate(size_t n, const size_t *group, const double *weight, const double *cap,
                               const double *took, size_t cur, double running);

#endif
