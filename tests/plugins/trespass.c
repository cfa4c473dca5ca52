/* trespass.c — planners that write to what they are handed, or step out of
 * the call: for the tests of the guest check (bench/external/guest.h) and of the
 * isolated child (bench/external/isolate.h). Each makes a valid plan of what it
 * sees, every tensor end to end, unless it says otherwise. */
#define _POSIX_C_SOURCE 200809L
#include <arenabench/planner.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void naive(const struct arena_problem *p, struct arena_plan *plan)
{
    uint64_t top = 0;
    for (size_t i = 0; i < p->n; i++) {
        plan->offsets[i] = top;
        top += p->tensors[i].size;
    }
    plan->arena = top;
}

/* Largest first: what an in-place sort of p->tensors is meant to do. */
static int by_size(const void *a, const void *b)
{
    const struct arena_tensor *x = a, *y = b;
    return (x->size < y->size) - (x->size > y->size);
}

/* An ordinary bug: the tensors sorted in place (const cast away), then
 * its view of them laid end to end. */
static int sorts_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                      void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt, (void)scratch, (void)scratch_size;
    qsort((struct arena_tensor *)p->tensors, p->n, sizeof *p->tensors, by_size);
    naive(p, plan);
    return ARENA_OK;
}

/* A valid plan, then its options changed for whoever reads them next. */
static int options_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                        void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)scratch, (void)scratch_size;
    naive(p, plan);
    struct arena_plan_options *w = (struct arena_plan_options *)opt;
    w->capacity = 1000;
    w->time_limit = 0.000001;
    w->node_limit = 1;
    return ARENA_OK;
}

/* A valid plan, then 1 written through the stop flag: no signal came. */
static int stop_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                     void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)scratch, (void)scratch_size;
    naive(p, plan);
    if (opt->stop) *(volatile sig_atomic_t *)opt->stop = 1;
    return ARENA_OK;
}

/* What a library that gives up does: the process ends, status 0. */
static int exit_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                     void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)p, (void)opt, (void)scratch, (void)scratch_size, (void)plan;
    exit(0);
}

/* A debugging line per call, on stdout. */
static int chatty_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                       void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt, (void)scratch, (void)scratch_size;
    printf("debug: planning %zu tensors\n", p->n);
    naive(p, plan);
    return ARENA_OK;
}

/* Asks for 40 bytes of scratch and writes the one after them. */
static int overrun_scratch(const struct arena_problem *p, size_t *bytes)
{
    (void)p;
    *bytes = 40;
    return ARENA_OK;
}

static int overrun_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                        void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt;
    memset(scratch, 0, scratch_size + 1);
    naive(p, plan);
    return ARENA_OK;
}

/* A valid plan whose arena field says 16 bytes more than its tensors take. */
static int arena_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                      void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt, (void)scratch, (void)scratch_size;
    naive(p, plan);
    plan->arena += 16;
    return ARENA_OK;
}

/* Leaves two processes behind: one in its process group, and one in a
 * session of its own whose parent exits (a daemon's double fork); each
 * appends its pid to the file named by ARENA_TEST_PIDS, then sleeps a
 * minute. A search planner, so bench calls it once. */
static void note_pid(void)
{
    const char *path = getenv("ARENA_TEST_PIDS");
    int fd = path ? open(path, O_WRONLY | O_APPEND | O_CREAT, 0644) : -1;
    if (fd >= 0) {
        char line[32];
        int len = snprintf(line, sizeof line, "%ld\n", (long)getpid());
        if (write(fd, line, (size_t)len) < 0) {}
        close(fd);
    }
}

static int daemon_plan(const struct arena_problem *p, const struct arena_plan_options *opt,
                       void *scratch, size_t scratch_size, struct arena_plan *plan)
{
    (void)opt, (void)scratch, (void)scratch_size;
    pid_t stay = fork();
    if (stay == 0) {
        note_pid();
        sleep(60);
        _exit(0);
    }
    pid_t first = fork();
    if (first == 0) {
        setsid();
        if (fork() == 0) {
            note_pid();
            sleep(60);
            _exit(0);
        }
        _exit(0);
    }
    if (first > 0) waitpid(first, NULL, 0);
    struct timespec nap = {0, 100000000};
    nanosleep(&nap, NULL); /* both pids written before the call returns */
    naive(p, plan);
    return ARENA_OK;
}

static const struct arena_planner sorts = {
    .name = "sorts-in-place", .summary = "sorts p->tensors in place", .plan = sorts_plan};
static const struct arena_planner options = {
    .name = "writes-options", .summary = "writes capacity, time and node limits",
    .plan = options_plan};
static const struct arena_planner stop = {
    .name = "writes-stop", .summary = "writes 1 through opt->stop", .plan = stop_plan};
static const struct arena_planner exits = {
    .name = "exits", .summary = "calls exit(0)", .plan = exit_plan};
static const struct arena_planner chatty = {
    .name = "chatty", .summary = "prints a line per call", .plan = chatty_plan};
static const struct arena_planner overrun = {
    .name = "overruns-scratch", .summary = "writes one byte past its scratch",
    .plan = overrun_plan, .scratch_bytes = overrun_scratch};
static const struct arena_planner arena = {
    .name = "wrong-arena", .summary = "says 16 bytes more than its tensors take",
    .plan = arena_plan};
static const struct arena_planner daemon_ = {
    .name = "leaves-a-daemon", .summary = "leaves a process in its group and a setsid one",
    .kind = ARENA_KIND_SEARCH, .plan = daemon_plan};

ARENA_PLUGIN(&sorts, &options, &stop, &exits, &chatty, &overrun, &arena, &daemon_);
