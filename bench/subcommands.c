/* subcommands.c — `bench merge OUT IN...` and `bench stats`: argument
 * checks and printing; the work is in results/ (merge.c, stats.c). */
#include "bench/subcommands.h"

#include <stdio.h>
#include <string.h>

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
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: bench merge OUT.sqlite IN.sqlite...\n"
               "Adds the runs, graphs, results, placements and replays of every IN to OUT\n"
               "(created when missing), ids remapped, graphs shared by spec, fingerprint and\n"
               "alignment. A run already in OUT (every column but its id equal) is skipped,\n"
               "so merging twice adds nothing. Every IN must be at the current schema\n"
               "version. Ends with PRAGMA integrity_check.\n");
        return 0;
    }
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
    printf("merged %d file%s into %s: %llu runs added (%llu already there), %llu graphs added,"
           " %llu results, %llu placements, %llu replays, %llu replay frames; integrity ok\n",
           argc - 2, argc == 3 ? "" : "s", argv[1], (unsigned long long)c.runs,
           (unsigned long long)c.runs_present, (unsigned long long)c.graphs,
           (unsigned long long)c.results, (unsigned long long)c.placements,
           (unsigned long long)c.replays, (unsigned long long)c.replay_frames);
    return fflush(stdout) == 0 ? 0 : 2;
}

int arena_bench_stats_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return usage_error("stats: not built yet%s", "");
}
