/* budget.c — the exact planner's budgets: nodes, units of work, the clock
 * and the caller's stop flag, counted on the run (struct run). Every search
 * of planners/optimal/ and the SAT engine's callbacks charge their work
 * here, so a node limit, a time limit and a signal stop them all alike;
 * how a node and a unit are costed is told in optimal.c's head comment
 * ("Budgets"). */
#include <time.h>

#include "planners/optimal/internal.h"

static double elapsed(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) * 1e-9;
}

double arena_optimal_cpu_seconds(void)
{
    struct timespec now;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0)
        return 0;
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* The running member's share of CPU is used up (read every MEMBER_POLL
 * calls: the thread's CPU clock is a system call, not the vDSO's). */
static int member_over(struct run *r)
{
    if (r->member_calls > 0) {
        if (!r->member_over && ++r->member_polls >= r->member_calls)
            r->member_over = 1;
        return r->member_over;
    }
    if (r->member_until <= 0)
        return 0;
    if (!r->member_over && ++r->member_polls % MEMBER_POLL == 0 &&
        arena_optimal_cpu_seconds() >= r->member_until)
        r->member_over = 1;
    return r->member_over;
}

int arena_optimal_out_of_time_by(struct run *r, double margin)
{
    if (!r->stopped && arena_plan_stop_requested(r->opt))
        r->stopped = 1;
    if (!r->stopped && r->opt->time_limit > 0 &&
        elapsed(&r->start) + margin >= r->opt->time_limit)
        r->stopped = 1;
    return r->stopped || member_over(r);
}

void arena_optimal_member_share(struct run *r, double cpu_seconds)
{
    r->member_polls = 0;
    r->member_over = 0;
    r->member_calls = 0;
    r->member_until = cpu_seconds > 0 ? arena_optimal_cpu_seconds() + cpu_seconds : 0;
}

void arena_optimal_member_calls(struct run *r, uint64_t calls)
{
    arena_optimal_member_share(r, 0);
    r->member_calls = calls;
}

double arena_optimal_seconds_left(const struct run *r)
{
    if (r->opt->time_limit <= 0)
        return -1;
    double left = r->opt->time_limit - elapsed(&r->start);
    return left > 0 ? left : 0;
}

int arena_optimal_out_of_time(struct run *r)
{
    return arena_optimal_out_of_time_by(r, 0);
}

int arena_optimal_spend_work(struct run *r, uint64_t units)
{
    if (r->stopped)
        return 1;
    r->work = r->work > UINT64_MAX - units ? UINT64_MAX : r->work + units;
    if (r->opt->stop != NULL && *r->opt->stop != 0) {
        r->stopped = 1;
        return 1;
    }
    if (r->opt->time_limit > 0 && r->work >= r->clock_at) {
        r->clock_at = r->work > UINT64_MAX - CLOCK_WORK ? UINT64_MAX : r->work + CLOCK_WORK;
        if (elapsed(&r->start) >= r->opt->time_limit) {
            r->stopped = 1;
            return 1;
        }
    }
    return 0;
}

uint64_t arena_optimal_conflicts_left(struct run *r, uint64_t want)
{
    if (r->opt->node_limit == 0)
        return want;
    if (r->nodes >= r->opt->node_limit) {
        r->stopped = 1;
        return 0;
    }
    return r->opt->node_limit - r->nodes < want ? r->opt->node_limit - r->nodes : want;
}

void arena_optimal_spend_conflicts(struct run *r, uint64_t conflicts)
{
    r->nodes += conflicts;
    if (r->opt->node_limit != 0 && r->nodes >= r->opt->node_limit)
        r->stopped = 1;
}

int arena_optimal_spend_node(struct run *r)
{
    if (r->stopped)
        return 1;
    if (r->opt->node_limit != 0 && r->nodes >= r->opt->node_limit) {
        r->stopped = 1;
        return 1;
    }
    r->nodes++;
    return arena_optimal_spend_work(r, r->node_cost);
}
