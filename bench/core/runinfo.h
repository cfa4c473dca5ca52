/* runinfo.h — what a runs row records about this run and this build. */
#ifndef ARENA_BENCH_RUNINFO_H
#define ARENA_BENCH_RUNINFO_H

#include <stddef.h>

struct arena_runinfo {
    char started_at[32]; /* UTC ISO-8601 with milliseconds */
    char cpu[256];       /* /proc/cpuinfo model name, or "unknown" */
    char host[256];
    char *command;       /* argv joined, shell-quoted where needed; malloc'd */
};

/* The machine's state as a run starts: the CPU frequency governor of the CPU
 * the calling thread runs on (cpufreq's scaling_governor; "unknown" where
 * the kernel has no cpufreq, as in most VMs) and the 1-minute load average
 * from /proc/loadavg (NaN when unreadable). */
struct arena_runenv {
    char governor[64];
    double loadavg;
};
void arena_runenv_collect(struct arena_runenv *e);

/* --pin: binds the calling thread to CPU cpu. ARENA_OK, or ARENA_EINVAL with
 * one line in err (a CPU outside the ones this process may use). */
int arena_runinfo_pin(int cpu, char *err, size_t errlen);

/* Fills everything; command is NULL only when memory ran out. */
void arena_runinfo_collect(struct arena_runinfo *r, int argc, char **argv);
void arena_runinfo_free(struct arena_runinfo *r);

/* Baked in at build time: the git revision ("unknown" outside a git
 * checkout), the compiler with its flags, the project version. */
const char *arena_build_git_rev(void);
const char *arena_build_compiler(void);
const char *arena_build_version(void);

#endif
