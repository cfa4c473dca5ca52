/* runinfo.c — run metadata: clock, CPU, host, command line, build facts,
 * the governor and load at start; and --pin (sched_setaffinity, as
 * Google Benchmark's users and pyperf's --affinity do). */
#define _GNU_SOURCE /* sched_setaffinity, sched_getcpu, CPU_SET */
#include "bench/core/runinfo.h"

#include <errno.h>
#include <math.h>
#include <sched.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/buildinfo.h"
#include "planners/status.h"

extern const char arena_bench_git_rev[]; /* gitrev.c, written by meson's vcs_tag */

const char *arena_build_git_rev(void)
{
    return arena_bench_git_rev[0] ? arena_bench_git_rev : "unknown";
}

const char *arena_build_compiler(void)
{
    return ARENA_BUILD_COMPILER;
}

const char *arena_build_version(void)
{
    return ARENA_BUILD_VERSION;
}

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0) continue;
        const char *colon = strchr(line, ':');
        if (!colon) continue;
        colon++;
        while (*colon == ' ' || *colon == '\t') colon++;
        snprintf(buf, len, "%s", colon);
        buf[strcspn(buf, "\r\n")] = '\0';
        break;
    }
    fclose(f);
}

/* An argument needs quotes when the shell would split or expand it. */
static int plain(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,:/+@%",
                    *s))
            return 0;
    return 1;
}

static char *join(int argc, char **argv)
{
    size_t len = 1;
    for (int i = 0; i < argc; i++) len += 4 * strlen(argv[i]) + 3;
    char *out = malloc(len), *o = out;
    if (!out) return NULL;
    for (int i = 0; i < argc; i++) {
        if (i) *o++ = ' ';
        if (plain(argv[i])) {
            size_t n = strlen(argv[i]);
            memcpy(o, argv[i], n);
            o += n;
            continue;
        }
        *o++ = '\'';
        for (const char *s = argv[i]; *s; s++) {
            if (*s == '\'') {
                memcpy(o, "'\\''", 4);
                o += 4;
            } else {
                *o++ = *s;
            }
        }
        *o++ = '\'';
    }
    *o = '\0';
    return out;
}

void arena_runenv_collect(struct arena_runenv *e)
{
    snprintf(e->governor, sizeof e->governor, "unknown");
    e->loadavg = NAN;
    int cpu = sched_getcpu();
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
             cpu < 0 ? 0 : cpu);
    FILE *f = fopen(path, "r");
    if (f) {
        char line[64];
        if (fgets(line, sizeof line, f) && line[0] != '\n') {
            line[strcspn(line, "\r\n")] = '\0';
            snprintf(e->governor, sizeof e->governor, "%s", line);
        }
        fclose(f);
    }
    f = fopen("/proc/loadavg", "r");
    if (f) {
        double one = 0;
        if (fscanf(f, "%lf", &one) == 1 && isfinite(one) && one >= 0) e->loadavg = one;
        fclose(f);
    }
}

int arena_runinfo_pin(int cpu, char *err, size_t errlen)
{
    cpu_set_t allowed, want;
    CPU_ZERO(&want);
    if (cpu < 0 || cpu >= CPU_SETSIZE)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--pin: CPU %d does not exist", cpu);
    CPU_SET(cpu, &want);
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0 && !CPU_ISSET(cpu, &allowed)) {
        char list[256] = "";
        for (int i = 0, used = 0; i < CPU_SETSIZE && used < 240; i++)
            if (CPU_ISSET(i, &allowed)) used += snprintf(list + used, sizeof list - (size_t)used,
                                                         "%s%d", used ? "," : "", i);
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--pin: CPU %d is not one this process may use (allowed: %s)", cpu,
                            list);
    }
    if (sched_setaffinity(0, sizeof want, &want) != 0)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--pin: CPU %d: %s", cpu,
                            strerror(errno));
    return ARENA_OK;
}

void arena_runinfo_collect(struct arena_runinfo *r, int argc, char **argv)
{
    memset(r, 0, sizeof *r);
    /* Milliseconds, so runs started in one second still sort by start. */
    struct timespec now = {0, 0};
    clock_gettime(CLOCK_REALTIME, &now);
    struct tm tm;
    char secs[24];
    if (gmtime_r(&now.tv_sec, &tm) && strftime(secs, sizeof secs, "%Y-%m-%dT%H:%M:%S", &tm))
        snprintf(r->started_at, sizeof r->started_at, "%.19s.%03uZ", secs,
                 (unsigned)(now.tv_nsec / 1000000L % 1000));
    cpu_model(r->cpu, sizeof r->cpu);
    if (gethostname(r->host, sizeof r->host - 1) != 0) snprintf(r->host, sizeof r->host, "unknown");
    r->command = join(argc, argv);
}

void arena_runinfo_free(struct arena_runinfo *r)
{
    free(r->command);
    r->command = NULL;
}
