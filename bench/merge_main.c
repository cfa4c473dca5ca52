/* merge_main.c — `bench merge OUT IN...`: argument checks and the summary;
 * the work is in results/merge.c. */
#include <stdio.h>
#include <string.h>

#include "bench/subcommands.h"
#include "results/merge.h"

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "bench: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    return 2;
}

int arena_bench_merge_main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return ARENA_BENCH_HELP_ASKED;
    if (argc < 3) return usage_error("merge: usage: bench merge OUT.sqlite IN.sqlite...%s", "");
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-')
            return usage_error("merge: '%s' looks like an option (write ./%s for a file)", argv[i]);
    char err[1024] = "";
    struct arena_merge_counts c;
    int rc = arena_store_merge(argv[1], (const char *const *)argv + 2, (size_t)argc - 2, &c, err,
                               sizeof err);
    if (rc != 0) {
        for (char *p = err; *p; p++)
            if (*p == '\n' || *p == '\r') *p = ' ';
        fprintf(stderr, "bench: merge: %s\n", err);
        return 2;
    }
    uint64_t skipped = c.skipped_results + c.skipped_replays;
    char left[160] = "";
    if (skipped)
        snprintf(left, sizeof left, "; skipped as impossible: results %llu, replays %llu, their"
                 " placements and frames %llu", (unsigned long long)c.skipped_results,
                 (unsigned long long)c.skipped_replays, (unsigned long long)c.skipped_rows);
    printf("merged %d file%s into %s: %llu runs added (%llu already there), %llu graphs added,"
           " %llu results, %llu placements, %llu replays, %llu replay frames%s; integrity ok\n",
           argc - 2, argc == 3 ? "" : "s", argv[1], (unsigned long long)c.runs,
           (unsigned long long)c.runs_present, (unsigned long long)c.graphs,
           (unsigned long long)c.results, (unsigned long long)c.placements,
           (unsigned long long)c.replays, (unsigned long long)c.replay_frames, left);
    if (fflush(stdout) != 0) return 2;
    if (!skipped) return 0;
    /* Merged, but not all: exit 1, as bench does for an invalid plan. */
    for (char *p = c.skip_first; *p; p++)
        if (*p == '\n' || *p == '\r') *p = ' ';
    fprintf(stderr, "bench: merge: %llu row%s not copied: not written by bench (the file is"
            " damaged or edited); the first: %s\n", (unsigned long long)skipped,
            skipped == 1 ? "" : "s", c.skip_first);
    return 1;
}

