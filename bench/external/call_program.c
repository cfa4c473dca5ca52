/* call_program.c — a cmd: planner, one process per problem (call.h,
 * cmd.h): its problem is written as a file in the run's temporary folder
 * outside the timing, one call of Google Benchmark's runs the program, and
 * its figure is its process group's wall time, one call. */
#include "bench/external/call.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The run's folder for the problems' files, made by the first program. */
static int make_tmpdir(struct arena_call_env *env, char *why, size_t len)
{
    if (env->tmpdir) return ARENA_OK;
    const char *base = getenv("TMPDIR");
    if (!base || !base[0]) base = "/tmp";
    size_t n = strlen(base) + 24;
    env->tmpdir = malloc(n);
    if (!env->tmpdir) return ARENA_ENOMEM;
    snprintf(env->tmpdir, n, "%s/arenabench-cmd.XXXXXX", base);
    if (mkdtemp(env->tmpdir)) return ARENA_OK;
    snprintf(why, len, "cannot make a folder %s: %s", env->tmpdir, strerror(errno));
    free(env->tmpdir);
    env->tmpdir = NULL;
    return ARENA_EIO;
}

static int program_prepare(struct arena_call *c, const struct arena_problem *p,
                           struct arena_call_env *env, size_t seq)
{
    int rc = make_tmpdir(env, c->why, sizeof c->why);
    if (rc != ARENA_OK) return rc;
    size_t len = strlen(env->tmpdir) + 40;
    c->csv = malloc(len);
    if (!c->csv) return ARENA_ENOMEM;
    snprintf(c->csv, len, "%s/problem-%zu.csv", env->tmpdir, seq);
    char err[600] = "";
    rc = arena_cmd_write_problem(p, c->csv, err, sizeof err);
    if (rc != ARENA_OK) snprintf(c->why, sizeof c->why, "%s", err);
    return rc;
}

/* The program answers, or fails with a reason, and the run goes on either
 * way; only a signal stops it. */
static int program_plan(struct arena_call *c, const struct arena_problem *p,
                        const struct arena_call_env *env)
{
    (void)env;
    c->call_rc = arena_cmd_plan(c->origin->spec, c->origin->command, c->csv, p, c->opt, &c->plan,
                                &c->program, c->why, sizeof c->why);
    c->rc = ARENA_OK;
    return c->call_rc == ARENA_ENOTFOUND;
}

static int program_collect(struct arena_call *c, const struct arena_problem *p,
                           struct arena_call_figures *f, struct arena_guest_fault *fault)
{
    (void)p, (void)fault;
    f->repetitions = 1;
    f->iterations = 1;
    f->median_ns = f->mean_ns = c->program.wall_ns;
    f->stddev_ns = NAN;
    f->has_self_ns = c->program.has_self_ns;
    f->self_ns = c->program.self_ns;
    return 0;
}

static void program_release(struct arena_call *c)
{
    if (c->csv) unlink(c->csv);
    free(c->csv);
    c->csv = NULL;
}

const struct arena_call_ops arena_call_program = {
    .timing = "process",
    .times_itself = 1,
    .one_call = 1,
    .handed_options = 1,
    .prepare = program_prepare,
    .plan = program_plan,
    .collect = program_collect,
    .release = program_release,
};
