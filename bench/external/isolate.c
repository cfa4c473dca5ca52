/* isolate.c — a planner's calls in a forked child (isolate.h). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "bench/external/isolate.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "bench/external/subprocess.h"

/* The first message: scratch_bytes()'s and plan()'s status, what the
 * planner wrote of its inputs, the plan's fields; then n offsets. */
struct head {
    int32_t scratch_rc, rc;
    uint32_t buffers;
    int32_t status;
    uint32_t notes, faulted;
    uint64_t n, scratch, arena, bound, nodes;
    struct arena_guest_fault fault;
};

/* The second: the timing, and what the timing calls wrote. */
struct times {
    uint32_t repetitions, faulted;
    uint64_t iterations;
    double median_ns, mean_ns, stddev_ns;
    struct arena_guest_fault fault;
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

/* The child's end: what the planner printed goes out (to stderr), and
 * nothing of the parent's (atexit) runs. */
static _Noreturn void leave(int code)
{
    fflush(stdout);
    _exit(code);
}

/* The child: the scratch, the first call, its plan and verdict sent; then
 * the timing, sent. */
static _Noreturn void child(int fd, pid_t parent, const struct arena_planner *pl,
                            struct arena_guest *g, const struct arena_problem *p,
                            const struct arena_plan_options *opt, struct arena_plan *plan,
                            const struct arena_isolate_spec *spec)
{
    setpgid(0, 0);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* a killed bench leaves no child behind */
#endif
    if (getppid() != parent) _exit(3);
    signal(SIGINT, SIG_DFL); /* bench's kill, or a signal sent to the group, ends it */
    signal(SIGTERM, SIG_DFL);
    dup2(STDERR_FILENO, STDOUT_FILENO); /* bench's stdout carries its results only */
    struct head h = {.n = p->n};
    size_t bytes = 0;
    h.scratch_rc = pl->scratch_bytes ? pl->scratch_bytes(&g->p, &bytes) : ARENA_OK;
    h.scratch = bytes;
    size_t block = h.scratch_rc == ARENA_OK ? arena_guest_scratch_block(bytes) : 0;
    void *mem = block ? mmap(NULL, block, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                             -1, 0)
                      : MAP_FAILED;
    if (h.scratch_rc == ARENA_OK && mem == MAP_FAILED) h.scratch_rc = ARENA_ENOMEM;
    /* the planner's configuration, built once, before the timed calls */
    if (h.scratch_rc == ARENA_OK) h.scratch_rc = arena_guest_configure(g, pl);
    if (h.scratch_rc != ARENA_OK) leave(write_all(fd, &h, sizeof h) == 0 ? 0 : 3);
    arena_guest_scratch_at(g, mem, bytes);
    arena_plan_reset(plan);
    double t0 = now_ns();
    int rc = pl->plan(&g->p, &g->opt, g->scratch, g->scratch_size, plan);
    double first = now_ns() - t0;
    h.faulted = (uint32_t)arena_guest_check(g, p, opt, plan, &h.fault);
    h.rc = rc;
    h.buffers = plan->buffers;
    h.status = (int32_t)plan->status;
    h.notes = plan->notes;
    h.arena = plan->arena;
    h.bound = plan->bound;
    h.nodes = plan->nodes;
    int answers = rc == ARENA_OK && !h.faulted;
    if (write_all(fd, &h, sizeof h) != 0 ||
        (answers && write_all(fd, g->offsets, p->n * sizeof *g->offsets) != 0))
        leave(3);
    if (!answers) leave(0);
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
                pl->plan(&g->p, &g->opt, g->scratch, g->scratch_size, plan);
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
    t.faulted = (uint32_t)arena_guest_check(g, p, opt, plan, &t.fault);
    arena_guest_release(g, pl);
    leave(write_all(fd, &t, sizeof t) == 0 ? 0 : 3);
}

/* Whether the child has ended (left a zombie, not reaped). */
static int ended(pid_t pid)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
}

/* Reads len bytes from the child pid's fd by the deadline (seconds,
 * arena_spawn_now's clock; 0: none). 0 read; 1 the pipe closed first, or
 * the child ended with nothing more in it (a process it started may hold
 * the pipe open); 2 the deadline passed; 3 opt's stop flag; -1 poll failed. */
static int read_by(pid_t pid, int fd, void *buf, size_t len, double deadline,
                   const struct arena_plan_options *opt)
{
    char *p = buf;
    int dead = 0;
    while (len > 0) {
        if (opt->stop && *opt->stop) return 3;
        double left = deadline > 0 ? deadline - arena_spawn_now() : 1;
        if (left <= 0) return 2;
        int ms = dead ? 0 : left > 0.1 ? 100 : (int)(left * 1000) + 1;
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        int ready = poll(&pf, 1, ms);
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) return -1;
        if (ready == 0) {
            if (dead) return 1;
            dead = ended(pid); /* one more look at the pipe, then it is closed */
            continue;
        }
        ssize_t r = read(fd, p, len);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return 1;
        p += r;
        len -= (size_t)r;
    }
    return 0;
}

#ifdef __linux__
/* The processes of a call that outlived the child and are now bench's
 * children (bench is their subreaper during the call): those in the
 * child's group, and those in a session of their own (setsid), killed and
 * reaped pass after pass, as each one killed hands its children to bench.
 * A child of bench's in bench's session and another group is not the
 * call's and is left alone. Without /proc's children lists, nothing. */
static void sweep(pid_t group)
{
    pid_t sid = getsid(0);
    for (int pass = 0; pass < 10000; pass++) {
        int killed = 0;
        DIR *tasks = opendir("/proc/self/task");
        if (!tasks) return;
        struct dirent *t;
        while ((t = readdir(tasks)) != NULL) {
            char path[300];
            snprintf(path, sizeof path, "/proc/self/task/%s/children", t->d_name);
            FILE *f = t->d_name[0] != '.' ? fopen(path, "r") : NULL;
            long kid;
            while (f && fscanf(f, "%ld", &kid) == 1) {
                pid_t pg = getpgid((pid_t)kid), ks = getsid((pid_t)kid);
                if (pg != group && (ks < 0 || ks == sid)) continue;
                if (ks >= 0 && ks != sid && pg > 0) kill(-pg, SIGKILL);
                kill((pid_t)kid, SIGKILL);
                while (waitpid((pid_t)kid, NULL, 0) < 0 && errno == EINTR) {}
                killed = 1;
            }
            if (f) fclose(f);
        }
        closedir(tasks);
        if (!killed) return;
    }
}
#endif

/* The child pid's end: waited for without reaping while opt's stop flag
 * is not set (then it is killed), so that its group id stays its own while
 * what it left in the group is killed; then reaped, and what left the
 * group swept. Its wait status. */
static int reap(pid_t pid, const struct arena_plan_options *opt)
{
    long nap_ns = 50000;
    while (!ended(pid)) {
        if (opt->stop && *opt->stop) kill(-pid, SIGKILL), kill(pid, SIGKILL);
        struct timespec nap = {0, nap_ns};
        nanosleep(&nap, NULL);
        if (nap_ns < 10000000) nap_ns *= 2;
    }
    kill(-pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
#ifdef __linux__
    sweep(pid);
#endif
    return status;
}

int arena_isolate_plan(const struct arena_planner *pl, struct arena_guest *g,
                       const struct arena_problem *p, const struct arena_plan_options *opt,
                       struct arena_plan *plan, const struct arena_isolate_spec *spec,
                       struct arena_isolate_answer *a, char *why, size_t whylen)
{
    memset(a, 0, sizeof *a);
    int fds[2];
    if (pipe(fds) != 0)
        return arena_errorf(why, whylen, 0, ARENA_EIO, "pipe: %s", strerror(errno));
#ifdef __linux__
    int reaper = 0; /* bench's own setting, put back after the call */
    prctl(PR_GET_CHILD_SUBREAPER, &reaper);
    if (!reaper) prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
    fflush(NULL); /* nothing buffered is written twice */
    double start = arena_spawn_now();
    pid_t parent = getpid(), pid = fork();
    int fork_errno = errno;
    if (pid == 0) {
        close(fds[0]);
        child(fds[1], parent, pl, g, p, opt, plan, spec);
    }
    close(fds[1]);
    int got = -2;
    struct head h = {0};
    struct times tm = {0};
    double first_s = 0;
    if (pid > 0) {
        setpgid(pid, pid); /* as the child does: no race with a signal to the group */
        double deadline = spec->time_limit > 0 ? start + spec->time_limit : 0;
        got = read_by(pid, fds[0], &h, sizeof h, deadline, opt);
        if (got == 0 && h.n != p->n) got = 4;
        int answers = got == 0 && h.scratch_rc == ARENA_OK && h.rc == ARENA_OK && !h.faulted;
        if (answers)
            got = read_by(pid, fds[0], plan->offsets, p->n * sizeof *plan->offsets, deadline, opt);
        first_s = arena_spawn_now() - start;
        if (got == 0 && answers) {
            /* the timing calls: the time limit again, plus each repetition's
             * min_time (up to twice, as the count overshoots) and two calls
             * at the first call's pace */
            double more = spec->once ? 0
                                     : spec->repetitions * (2 * spec->min_time + 2 * first_s) + 1;
            double d2 = deadline > 0 ? arena_spawn_now() + spec->time_limit + more : 0;
            got = read_by(pid, fds[0], &tm, sizeof tm, d2, opt);
            if (got == 2) got = 5;
        }
        if (got != 0) kill(-pid, SIGKILL), kill(pid, SIGKILL);
    }
    close(fds[0]);
    int status = pid > 0 ? reap(pid, opt) : 0;
#ifdef __linux__
    if (!reaper) prctl(PR_SET_CHILD_SUBREAPER, 0);
#endif
    char ended_how[160];
    arena_spawn_describe(status, ended_how, sizeof ended_how);
    switch (got) {
    case 0: break;
    case -2: return arena_errorf(why, whylen, 0, ARENA_EIO, "fork: %s", strerror(fork_errno));
    case 1:
        return arena_errorf(why, whylen, 0, ARENA_EINVAL, "isolated call: the child %s%s",
                            ended_how, WIFSIGNALED(status) ? "" : " before it answered");
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
    if (h.faulted || tm.faulted) {
        arena_guest_describe(h.faulted ? &h.fault : &tm.fault, why, whylen);
        if (!h.faulted) /* the plan stands, but not the figures of calls on other inputs */
            strncat(why, " (in the timing calls)", whylen - strlen(why) - 1);
        return ARENA_EINVAL;
    }
    a->scratch_rc = h.scratch_rc;
    a->scratch_size = (size_t)h.scratch;
    if (h.scratch_rc != ARENA_OK) return ARENA_OK;
    a->plan_rc = h.rc;
    plan->buffers = h.buffers;
    plan->status = (enum arena_plan_status)h.status;
    plan->arena = h.arena;
    plan->bound = h.bound;
    plan->nodes = h.nodes;
    plan->notes = h.notes;
    if (h.rc == ARENA_OK) {
        a->t.repetitions = tm.repetitions;
        a->t.iterations = tm.iterations;
        a->t.median_ns = tm.median_ns;
        a->t.mean_ns = tm.mean_ns;
        a->t.stddev_ns = tm.stddev_ns;
    }
    if (h.rc == ARENA_OK && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        return arena_errorf(why, whylen, 0, ARENA_EINVAL, "isolated call: the child %s after"
                            " it answered", ended_how);
    return ARENA_OK;
}
