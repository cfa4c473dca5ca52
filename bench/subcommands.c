/* subcommands.c — `bench merge OUT IN...` and `bench stats`: argument
 * checks and printing; the work is in results/ (merge.c, stats.c). */
#include "bench/subcommands.h"

#include <stdio.h>
#include <string.h>

#include "bench/args.h"
#include "results/merge.h"
#include "results/stats.h"

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
               "current schema version. Ends with PRAGMA integrity_check and\n"
               "foreign_key_check.\n");
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

static void csv_text(const char *t)
{
    int quote = strpbrk(t, ",\"\n") != NULL;
    if (quote) putchar('"');
    for (; *t; t++) {
        if (*t == '"') putchar('"');
        putchar(*t);
    }
    if (quote) putchar('"');
}

static void csv_stat(const struct arena_stat *st, int shown)
{
    if (!shown) {
        printf(",,,,,");
        printf(",");
        return;
    }
    printf(",%.6f,%.6f,%.6f,%.6f,%.6f,%.6f", st->mean, st->mean_lo, st->mean_hi, st->median,
           st->median_lo, st->median_hi);
}

static void print_csv(const struct arena_stats *s, int pairs)
{
    if (pairs) {
        printf("group,planner,other,wins,ties,losses\n");
        for (size_t i = 0; i < s->n_pairs; i++) {
            const struct arena_stats_pair *p = &s->pairs[i];
            csv_text(s->rows[p->row].group);
            printf(",%s,%s,%llu,%llu,%llu\n", s->rows[p->row].planner, s->rows[p->other].planner,
                   (unsigned long long)p->wins, (unsigned long long)p->ties,
                   (unsigned long long)p->losses);
        }
        return;
    }
    printf("group,planner,n,mean_lb,mean_lb_lo,mean_lb_hi,median_lb,median_lb_lo,median_lb_hi,"
           "mean_best,mean_best_lo,mean_best_hi,median_best,median_best_lo,median_best_hi\n");
    for (size_t i = 0; i < s->n_rows; i++) {
        const struct arena_stats_row *r = &s->rows[i];
        csv_text(r->group);
        printf(",%s,%zu", r->planner, r->n);
        csv_stat(&r->lb, 1);
        csv_stat(&r->best, r->has_best);
        printf("\n");
    }
}

static void print_table(const struct arena_stats *s)
{
    printf("Arena / lower bound across seeds, per configuration and planner: mean and median\n"
           "with bootstrap 95 %% confidence intervals (%d resamples, seed %d); \"x best\" is\n"
           "arena / best proven bound, shown when a search proved more than the lower bound.\n",
           ARENA_STATS_RESAMPLES, ARENA_STATS_SEED);
    size_t p = 0;
    for (size_t a = 0; a < s->n_rows;) {
        size_t b = a;
        while (b < s->n_rows && strcmp(s->rows[b].group, s->rows[a].group) == 0) b++;
        printf("\n%s\n  %-3s %-26s %4s  %-27s %s%s\n", s->rows[a].group, "#", "planner", "n",
               "mean x LB [95% CI]", s->rows[a].has_best ? "median x LB [95% CI]       " :
               "median x LB [95% CI]", s->rows[a].has_best ? " mean x best [95% CI]" : "");
        for (size_t i = a; i < b; i++) {
            const struct arena_stats_row *r = &s->rows[i];
            printf("  %-3zu %-26s %4zu  %.4f [%.4f, %.4f]    %.4f [%.4f, %.4f]", i - a + 1,
                   r->planner, r->n, r->lb.mean, r->lb.mean_lo, r->lb.mean_hi, r->lb.median,
                   r->lb.median_lo, r->lb.median_hi);
            if (r->has_best)
                printf("    %.4f [%.4f, %.4f]", r->best.mean, r->best.mean_lo, r->best.mean_hi);
            printf("\n");
        }
        if (b - a > 1) {
            printf("  wins/ties/losses of each row against column # (smaller arena on the same"
                   " graph wins)\n  %-30s", "");
            for (size_t j = a; j < b; j++) printf(" %9zu", j - a + 1);
            printf("\n");
            for (size_t i = a; i < b; i++) {
                printf("  %-3zu %-26s", i - a + 1, s->rows[i].planner);
                for (size_t j = a; j < b; j++) {
                    if (i == j) {
                        printf(" %9s", "-");
                        continue;
                    }
                    const struct arena_stats_pair *q = &s->pairs[p++];
                    char cell[64];
                    snprintf(cell, sizeof cell, "%llu/%llu/%llu", (unsigned long long)q->wins,
                             (unsigned long long)q->ties, (unsigned long long)q->losses);
                    printf(" %9s", cell);
                }
                printf("\n");
            }
        }
        a = b;
    }
}

int arena_bench_stats_main(int argc, char **argv)
{
    const char *db = ARENA_BENCH_DB_DEFAULT, *format = "table";
    int pairs = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            printf("usage: bench stats [--db FILE] [--format table|csv] [--pairs]\n"
                   "Per configuration (a family's parameters but the seed) and planner, across\n"
                   "seeds: mean and median of arena / lower bound (and / best proven bound)\n"
                   "with bootstrap 95 %% CIs, and wins/ties/losses against every other planner.\n"
                   "--format csv prints the figures, with --pairs the win/tie/loss counts.\n");
            return 0;
        }
        if (strcmp(arg, "--pairs") == 0) {
            pairs = 1;
            continue;
        }
        const char **slot = strcmp(arg, "--db") == 0 ? &db
                            : strcmp(arg, "--format") == 0 ? &format : NULL;
        if (!slot) return usage_error("stats: unknown argument '%s' (see bench stats --help)", arg);
        if (i + 1 >= argc) return usage_error("stats: %s needs a value", arg);
        *slot = argv[++i];
    }
    if (strcmp(format, "table") != 0 && strcmp(format, "csv") != 0)
        return usage_error("stats: --format: '%s' is not one of table, csv", format);
    if (pairs && strcmp(format, "csv") != 0)
        return usage_error("stats: --pairs goes with --format csv (the table shows them)%s", "");
    FILE *f = fopen(db, "rb");
    if (!f) return usage_error("stats: --db %s: no such file", db);
    fclose(f);
    struct arena_stats s;
    char err[700] = "";
    int rc = arena_stats_compute(db, &s, err, sizeof err);
    if (rc != 0) {
        for (char *c = err; *c; c++)
            if (*c == '\n' || *c == '\r') *c = ' ';
        fprintf(stderr, "bench: stats: %s\n", err);
        arena_stats_free(&s);
        return 2;
    }
    if (s.n_rows == 0) fprintf(stderr, "bench: stats: %s holds no valid result\n", db);
    if (strcmp(format, "csv") == 0)
        print_csv(&s, pairs);
    else if (s.n_rows)
        print_table(&s);
    arena_stats_free(&s);
    return fflush(stdout) == 0 ? 0 : 2;
}
