/* runinfo.c — run metadata: clock, CPU, host, command line, build facts. */
#include "bench/runinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/buildinfo.h"

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

void arena_runinfo_collect(struct arena_runinfo *r, int argc, char **argv)
{
    memset(r, 0, sizeof *r);
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(r->started_at, sizeof r->started_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
    cpu_model(r->cpu, sizeof r->cpu);
    if (gethostname(r->host, sizeof r->host - 1) != 0) snprintf(r->host, sizeof r->host, "unknown");
    r->command = join(argc, argv);
}

void arena_runinfo_free(struct arena_runinfo *r)
{
    free(r->command);
    r->command = NULL;
}
