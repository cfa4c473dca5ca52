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
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: bench merge OUT.sqlite IN.sqlite...\n"
               "Adds the runs, graphs, results, placements and replays of every IN to OUT\n"
               "(created when missing), ids remapped, graphs shared by spec, fingerprint and\n"
               "alignment. Runs are matched by their uuid alone and results by (run, seq),\n"
               "so exactly what OUT lacks is copied: a run merged while its bench was still\n"
               "writing gets its later results on the next merge, merging twice adds\n"
               "nothing, and two different runs never become one. Every IN must be at the\n"
               "current schema version, or a newer one whose tables have this bench's\n"
               "columns (else one line names both versions). Ends with PRAGMA\n"
               "integrity_check and foreign_key_check. A result or replay that bench never\n"
               "writes (its run or graph missing, an arena below its lower bound, ...) is\n"
               "not copied: the rest is merged, the count and the first such row are shown,\n"
               "and the exit status is 1; a view in place of a table refuses the file\n"
               "(exit 2).\n");
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

