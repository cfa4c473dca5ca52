/* isolate.c — a planner's calls in a forked child (isolate.h). */
#include "bench/isolate.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/subprocess.h"

/* The first message: plan()'s status and the plan's fields, then n offsets. */
struct head {
    int32_t rc;
    uint32_t buffers;
    int32_t status;
    uint32_t notes;
    uint64_t n, arena, bound, nodes;
};

/* The second: the timing. */
struct times {
    uint32_t repetitions, pad;
    uint64_t iterations;
    double median_ns, mean_ns, stddev_ns;
};

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* All of buf to fd; 0 or -1. */
static int write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Insertion sort: the child must not call qsort (glibc's may allocate). */
static void sort_doubles(double *x, size_t n)
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && by_value(&x[j - 1], &x[j]) > 0; j--) {
            double t = x[j];
            x[j] = x[j - 1];
            x[j - 1] = t;
        }
}

/* The child: the first call, its plan sent; then the timing, sent. Ends
 * with _exit: nothing of the parent's (stdio buffers, atexit) runs. */
static void child(int fd, const struct arena_planner *pl, const struct arena_problem *p,
                  const struct arena_plan_options *opt, void *scratch, size_t scratch_size,
                  struct arena_plan *plan, const struct arena_isolate_spec *spec)
{
    signal(SIGINT, SIG_DFL); /* ^C or bench's kill ends the child itself */
    signal(SIGTERM, SIG_DFL);
    arena_plan_reset(plan);
    double t0 = now_ns();
    int rc = pl->plan(p, opt, scratch, scratch_size, plan);
    double first = now_ns() - t0;
    struct head h = {.rc = rc, .buffers = plan->buffers, .status = (int32_t)plan->status,
                     .notes = plan->notes, .n = p->n, .arena = plan->arena, .bound = plan->bound, .nodes = plan->nodes};
    if (write_all(fd, &h, sizeof h) != 0 ||
        (rc == ARENA_OK && write_all(fd, plan->offsets, p->n * sizeof *plan->offsets) != 0))
        _exit(3);
    if (rc != ARENA_OK) _exit(0);
    /* Google Benchmark's shape: per repetition, calls from 1 on, the count
     * grown (by min_time / elapsed x 1.4, at most 10x, as its
     * PredictNumItersNeeded) until they take min_time; the last run's time
     * per call is the repetition's figure. */
    double per[ARENA_ISOLATE_MAX_REPS];
    struct times t = {.repetitions = 1, .iterations = 1, .median_ns = first, .mean_ns = first,
                      .stddev_ns = NAN};
    int reps = spec->once ? 0 : spec->repetitions;
    if (reps > ARENA_ISOLATE_MAX_REPS) reps = ARENA_ISOLATE_MAX_REPS;
    double min_ns = spec->min_time * 1e9;
    uint64_t total = 0;
    for (int r = 0; r < reps; r++) {
        uint64_t n = 1;
        for (;;) {
            double a = now_ns();
            for (uint64_t i = 0; i < n; i++) {
                arena_plan_reset(plan);
                pl->plan(p, opt, scratch, scratch_size, plan);
            }
            double dt = now_ns() - a;
            if (dt >= min_ns || n >= 1000000000u) {
                per[r] = dt / (double)n;
                total += n;
                break;
            }
            double mult = dt / min_ns > 0.1 ? min_ns * 1.4 / (dt > 1 ? dt : 1) : 10.0;
            uint64_t next = (uint64_t)((double)n * mult);
            n = next > n ? next : n + 1;
        }
    }
    if (reps > 0) {
        double sum = 0;
        for (int r = 0; r < reps; r++) sum += per[r];
        double mean = sum / reps, ss = 0;
        for (int r = 0; r < reps; r++) ss += (per[r] - mean) * (per[r] - mean);
        sort_doubles(per, (size_t)reps);
        t.repetitions = (uint32_t)reps;
        t.iterations = total;
        t.mean_ns = mean;
        t.median_ns = reps % 2 ? per[reps / 2] : (per[reps / 2 - 1] + per[reps / 2]) / 2;
        t.stddev_ns = reps > 1 ? sqrt(ss / (reps - 1)) : NAN;
    }
    _exit(write_all(fd, &t, sizeof t) == 0 ? 0 : 3);
}

/* Reads len bytes from fd by the deadline (seconds, arena_spawn_now's
 * clock; 0: none). 0 read; 1 the pipe closed first; 2 the deadline passed;
 * 3 opt's stop flag; -1 poll failed. */
static int read_by(int fd, void *buf, size_t len, double deadline,
                   const struct arena_plan_options *opt)
{
    char *p = buf;
    while (len > 0) {
        if (opt->stop && *opt->stop) return 3;
        double left = deadline > 0 ? deadline - arena_spawn_now() : 1;
        if (left <= 0) return 2;
        int ms = left > 0.1 ? 100 : (int)(left * 1000) + 1;
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        int ready = poll(&pf, 1, ms);
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) return -1;
        if (ready == 0) continue;
        ssize_t r = read(fd, p, len);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return 1;
        p += r;
        len -= (size_t)r;
    }
    return 0;
}

int arena_isolate_plan(const struct arena_planner *pl, const struct arena_problem *p,
                       const struct arena_plan_options *opt, void *scratch, size_t scratch_size,
                       struct arena_plan *plan, const struct arena_isolate_spec *spec,
                       int *plan_rc, struct arena_isolate_timing *t, char *why, size_t whylen)
{
    int fds[2];
    if (pipe(fds) != 0)
        return arena_errorf(why, whylen, 0, ARENA_EIO, "pipe: %s", strerror(errno));
    fflush(NULL); /* nothing buffered is written twice */
    double start = arena_spawn_now();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return arena_errorf(why, whylen, 0, ARENA_EIO, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        close(fds[0]);
        child(fds[1], pl, p, opt, scratch, scratch_size, plan, spec);
    }
    close(fds[1]);
    struct head h;
    double deadline = spec->time_limit > 0 ? start + spec->time_limit : 0;
    int got = read_by(fds[0], &h, sizeof h, deadline, opt);
    if (got == 0 && h.n != p->n) got = 4;
    if (got == 0 && h.rc == ARENA_OK)
        got = read_by(fds[0], plan->offsets, p->n * sizeof *plan->offsets, deadline, opt);
    double first_s = arena_spawn_now() - start;
    struct times tm = {0};
    if (got == 0 && h.rc == ARENA_OK) {
        /* the timing calls: the time limit again, plus each repetition's
         * min_time (up to twice, as the count overshoots) and two calls at
         * the first call's pace */
        double more = spec->once ? 0
                                 : spec->repetitions * (2 * spec->min_time + 2 * first_s) + 1;
        double d2 = deadline > 0 ? arena_spawn_now() + spec->time_limit + more : 0;
        got = read_by(fds[0], &tm, sizeof tm, d2, opt);
        if (got == 2) got = 5;
    }
    close(fds[0]);
    if (got != 0) kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    char ended[160];
    arena_spawn_describe(status, ended, sizeof ended);
    switch (got) {
    case 0: break;
    case 1:
        return arena_errorf(why, whylen, 0, ARENA_EINVAL, "isolated call: the child %s%s", ended,
                            WIFSIGNALED(status) ? "" : " before it answered");
    case 2:
        return arena_errorf(why, whylen, 0, ARENA_EINVAL,
                            "isolated call: no plan within the time limit (--time-limit %g s):"
                            " the child was killed", spec->time_limit);
    case 3:
        return arena_errorf(why, whylen, 0, ARENA_ENOTFOUND, "stopped by a signal: the child was"
                            " killed");
    case 4:
        return arena_errorf(why, whylen, 0, ARENA_EINVAL,
                            "isolated call: the child sent a plan of %llu tensors for %zu",
                            (unsigned long long)h.n, p->n);
    case 5:
        return arena_errorf(why, whylen, 0, ARENA_EINVAL,
                            "isolated call: the timing calls ran past their deadline (the"
                            " first call took %.3g s): the child was killed", first_s);
    default: return arena_errorf(why, whylen, 0, ARENA_EIO, "poll: %s", strerror(errno));
    }
    *plan_rc = h.rc;
    plan->buffers = h.buffers;
    plan->status = (enum arena_plan_status)h.status;
    plan->arena = h.arena;
    plan->bound = h.bound;
    plan->nodes = h.nodes;
    plan->notes = h.notes;
    if (h.rc == ARENA_OK) {
        t->repetitions = tm.repetitions;
        t->iterations = tm.iterations;
        t->median_ns = tm.median_ns;
        t->mean_ns = tm.mean_ns;
        t->stddev_ns = tm.stddev_ns;
    }
    if (h.rc == ARENA_OK && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        return arena_errorf(why, whylen, 0, ARENA_EINVAL, "isolated call: the child %s after"
                            " it answered", ended);
    return ARENA_OK;
}
