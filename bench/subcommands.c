/* subcommands.c — `bench merge OUT IN...` and `bench stats`: argument
 * checks and printing; the work is in results/ (merge.c, stats.c). */
#include "bench/subcommands.h"

#include <stdio.h>
#include <stdlib.h>
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

const char *arena_bench_subcommands_usage(void)
{
    return "\nOther commands (each has --help):\n"
           "  bench merge OUT.sqlite IN.sqlite...   join results databases (shards, machines)\n"
           "  bench stats [--db FILE] [--run ID|all] [--format csv]\n"
           "                                       arena / lower bound across seeds, with CIs\n"
           "  bench plot [--db FILE] [--run ID|all] [--out DIR]\n"
           "                                       figures (gnuplot) and tables for papers\n";
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

/* One CSV text field per RFC 4180: quoted when it holds a comma, a quote,
 * CR or LF, quotes doubled. */
static void csv_text(const char *t)
{
    int quote = strpbrk(t, ",\"\r\n") != NULL;
    if (quote) putchar('"');
    for (; *t; t++) {
        if (*t == '"') putchar('"');
        putchar(*t);
    }
    if (quote) putchar('"');
}

/* ,text */
static void csv_next(const char *t)
{
    putchar(',');
    csv_text(t);
}

static void csv_stat(const struct arena_stat *st, int shown)
{
    if (!shown) {
        printf(",,,,,,");
        return;
    }
    printf(",%.6f,%.6f,%.6f,%.6f,%.6f,%.6f", st->mean, st->mean_lo, st->mean_hi, st->median,
           st->median_lo, st->median_hi);
}

/* The shortest of %.15g, %.17g that reads back as x. */
static void csv_real(double x)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", x);
    if (strtod(buf, NULL) != x) snprintf(buf, sizeof buf, "%.17g", x);
    printf(",%s", buf);
}

static void csv_options(const struct arena_stats_options *o)
{
    if (o->has_time_limit) csv_real(o->time_limit);
    else printf(",");
    if (o->has_node_limit) printf(",%lld", (long long)o->node_limit);
    else printf(",");
    if (o->has_planner_seed) printf(",%lld", (long long)o->planner_seed);
    else printf(",");
    if (o->has_capacity) printf(",%lld", (long long)o->capacity);
    else printf(",");
    if (o->has_optimal_engine) csv_next(o->optimal_engine);
    else printf(",");
}

/* The columns of the first CSV stay as they were (group, planner, n, the
 * figures); what describes the configuration and the left-out graphs
 * follows them. */
static void print_csv(const struct arena_stats *s, int pairs)
{
    if (pairs) {
        printf("group,planner,other,wins,ties,losses,label,other_label,n\n");
        for (size_t i = 0; i < s->n_pairs; i++) {
            const struct arena_stats_pair *p = &s->pairs[i];
            const struct arena_stats_row *r = &s->rows[p->row], *o = &s->rows[p->other];
            csv_text(r->group);
            csv_next(r->planner);
            csv_next(o->planner);
            printf(",%llu,%llu,%llu", (unsigned long long)p->wins, (unsigned long long)p->ties,
                   (unsigned long long)p->losses);
            csv_next(r->label);
            csv_next(o->label);
            printf(",%zu\n", r->n);
        }
        return;
    }
    printf("group,planner,n,mean_lb,mean_lb_lo,mean_lb_hi,median_lb,median_lb_lo,median_lb_hi,"
           "mean_best,mean_best_lo,mean_best_hi,median_best,median_best_lo,median_best_hi,"
           "limit,n_left_out,n_failed,n_absent,runs,label,graph,family,params,alignment,"
           "time_limit,node_limit,planner_seed,capacity,optimal_engine\n");
    for (size_t i = 0; i < s->n_rows; i++) {
        const struct arena_stats_row *r = &s->rows[i];
        csv_text(r->group);
        csv_next(r->planner);
        printf(",%zu", r->n);
        csv_stat(&r->lb, r->n > 0);
        csv_stat(&r->best, r->n > 0 && r->has_best);
        printf(",%zu,%zu,%zu,%zu,%zu", r->limit, r->n_left_out, r->n_failed, r->n_absent, r->runs);
        csv_next(r->label);
        csv_next(r->graph);
        csv_next(r->family);
        csv_next(r->params);
        printf(",%lld", (long long)r->alignment);
        csv_options(&r->options);
        printf("\n");
    }
}

/* The note under a group's title: how many graphs, and why some are left
 * out. Rows a..b of one group. */
static void print_group_note(const struct arena_stats *s, size_t a, size_t b)
{
    const struct arena_stats_row *r = &s->rows[a];
    size_t all = r->n + r->n_left_out;
    printf("  %zu graph%s, each with a valid result of every planner below", r->n,
           r->n == 1 ? "" : "s");
    if (!r->n_left_out) {
        printf(" (none left out)\n");
        return;
    }
    printf("; %zu of %zu left out:", r->n_left_out, all);
    const char *sep = "";
    for (size_t i = a; i < b; i++) {
        const struct arena_stats_row *q = &s->rows[i];
        if (q->n_failed) {
            printf("%s %s failed on %zu", sep, q->label, q->n_failed);
            sep = ",";
        }
        if (q->n_absent) {
            printf("%s %s not run on %zu", sep, q->label, q->n_absent);
            sep = ",";
        }
    }
    if (!*sep) printf(" lower bound 0");
    printf("\n");
}

/* Configurations of group (or, group NULL, of groups without a row) whose
 * every result failed. */
static void print_hidden(const struct arena_stats *s, const char *group)
{
    for (size_t i = 0; i < s->n_hidden; i++) {
        const struct arena_stats_row *h = &s->hidden[i];
        int has_row = 0;
        for (size_t j = 0; j < s->n_rows && !group; j++)
            has_row |= strcmp(s->rows[j].group, h->group) == 0;
        if (group ? strcmp(h->group, group) != 0 : has_row) continue;
        if (!group) printf("\n%s\n", h->group);
        printf("  not shown: %s, no valid result (failed on %zu graph%s)\n", h->label, h->n_failed,
               h->n_failed == 1 ? "" : "s");
    }
}

static int width_of(const struct arena_stats *s, size_t a, size_t b)
{
    size_t w = 26;
    for (size_t i = a; i < b; i++)
        if (strlen(s->rows[i].label) > w) w = strlen(s->rows[i].label);
    return w > 200 ? 200 : (int)w;
}

static void print_table(const struct arena_stats *s)
{
    printf("Arena / lower bound across seeds, per configuration and planner: mean and median\n"
           "with bootstrap 95 %% confidence intervals (%d resamples, seed %d); \"x best\" is\n"
           "arena / best proven bound, shown when a search proved more than the lower bound.\n"
           "Every planner of a configuration is measured on the same graphs. \"limit\" counts\n"
           "the graphs where a search stopped at its budget (marked !): its arena there is\n"
           "the best plan it found, not its answer.\n",
           ARENA_STATS_RESAMPLES, ARENA_STATS_SEED);
    size_t p = 0;
    for (size_t a = 0; a < s->n_rows;) {
        size_t b = a;
        while (b < s->n_rows && strcmp(s->rows[b].group, s->rows[a].group) == 0) b++;
        int w = width_of(s, a, b);
        printf("\n%s\n", s->rows[a].group);
        print_group_note(s, a, b);
        print_hidden(s, s->rows[a].group);
        printf("  %-3s %-*s %4s %5s  %-27s %s%s\n", "#", w, "planner", "n", "limit",
               "mean x LB [95% CI]", s->rows[a].has_best ? "median x LB [95% CI]       " :
               "median x LB [95% CI]", s->rows[a].has_best ? " mean x best [95% CI]" : "");
        for (size_t i = a; i < b; i++) {
            const struct arena_stats_row *r = &s->rows[i];
            char lim[32];
            snprintf(lim, sizeof lim, "%zu%s", r->limit, r->limit ? "!" : " ");
            printf("  %-3zu %-*s %4zu %5s", i - a + 1, w, r->label, r->n, lim);
            if (r->n)
                printf("  %.4f [%.4f, %.4f]    %.4f [%.4f, %.4f]", r->lb.mean, r->lb.mean_lo,
                       r->lb.mean_hi, r->lb.median, r->lb.median_lo, r->lb.median_hi);
            if (r->n && r->has_best)
                printf("    %.4f [%.4f, %.4f]", r->best.mean, r->best.mean_lo, r->best.mean_hi);
            printf("\n");
        }
        if (b - a > 1) {
            printf("  wins/ties/losses of each row against column # (smaller arena on the same"
                   " graph wins)\n  %-*s", w + 4, "");
            for (size_t j = a; j < b; j++) printf(" %9zu", j - a + 1);
            printf("\n");
            for (size_t i = a; i < b; i++) {
                printf("  %-3zu %-*s", i - a + 1, w, s->rows[i].label);
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
    print_hidden(s, NULL);
}

int arena_bench_stats_main(int argc, char **argv)
{
    const char *db = ARENA_BENCH_DB_DEFAULT, *format = "table", *run = NULL, *planner = NULL;
    int pairs = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            printf("usage: bench stats [--db FILE] [--run ID|all] [--planner LIST]\n"
                   "                   [--format table|csv] [--pairs]\n"
                   "Per configuration (a family's parameters but the seed, the alignment, the\n"
                   "planner and its options that change results) across seeds: mean and median\n"
                   "of arena / lower bound (and / best proven bound) with bootstrap 95 %% CIs,\n"
                   "and wins/ties/losses against every other planner. The planners of one\n"
                   "family, parameters and alignment are compared on the same graphs: a graph\n"
                   "counts only if each of them has a valid result there; the rest are counted\n"
                   "as left out, with why.\n"
                   "A result per graph x configuration: the one of the run that started last\n"
                   "(runs.started_at, ties: the larger runs.id), whatever the order runs were\n"
                   "merged in; a failed newest result is a failure, not replaced by an older one.\n"
                   "--run all   every run's results, the newest counting (the default)\n"
                   "--run ID    one run: a runs.id (all digits), or a runs.uuid or a prefix of\n"
                   "            exactly one (a prefix of digits only ends in '-': 12345678-)\n"
                   "--planner   only these planners (comma-separated), paired among themselves\n"
                   "--format csv prints the figures, with --pairs the win/tie/loss counts.\n"
                   "Exit 1 when there is no valid result to show, 2 for a bad argument or\n"
                   "database.\n");
            return 0;
        }
        if (strcmp(arg, "--pairs") == 0) {
            pairs = 1;
            continue;
        }
        const char **slot = strcmp(arg, "--db") == 0       ? &db
                            : strcmp(arg, "--format") == 0  ? &format
                            : strcmp(arg, "--run") == 0     ? &run
                            : strcmp(arg, "--planner") == 0 ? &planner
                                                            : NULL;
        if (!slot) return usage_error("stats: unknown argument '%s' (see bench stats --help)", arg);
        if (i + 1 >= argc) return usage_error("stats: %s needs a value", arg);
        *slot = argv[++i];
    }
    if (strcmp(format, "table") != 0 && strcmp(format, "csv") != 0)
        return usage_error("stats: --format: '%s' is not one of table, csv", format);
    if (pairs && strcmp(format, "csv") != 0)
        return usage_error("stats: --pairs goes with --format csv (the table shows them)%s", "");
    if (run && !run[0]) return usage_error("stats: --run needs a run id or all%s", "");
    FILE *f = fopen(db, "rb");
    if (!f) return usage_error("stats: --db %s: no such file", db);
    fclose(f);
    /* --planner a,b: the names, split in place of a copy. */
    char list[4096] = "";
    const char *names[256];
    struct arena_stats_query q = {.run = run, .planners = names, .n_planners = 0};
    if (planner) {
        if (strlen(planner) >= sizeof list) return usage_error("stats: --planner: too long%s", "");
        strcpy(list, planner);
        for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
            if (q.n_planners == sizeof names / sizeof *names)
                return usage_error("stats: --planner: more than 256 names%s", "");
            names[q.n_planners++] = t;
        }
        if (!q.n_planners) return usage_error("stats: --planner: no planner named%s", "");
    }
    struct arena_stats s;
    char err[700] = "";
    int rc = arena_stats_compute_query(db, &q, &s, err, sizeof err);
    if (rc != 0) {
        for (char *c = err; *c; c++)
            if (*c == '\n' || *c == '\r') *c = ' ';
        fprintf(stderr, "bench: stats: %s\n", err);
        arena_stats_free(&s);
        return 2;
    }
    size_t shown = 0;
    for (size_t i = 0; i < s.n_rows; i++) shown += s.rows[i].n > 0;
    if (!shown) {
        if (s.n_rows)
            fprintf(stderr, "bench: stats: %s: no graph with a valid result of every planner of"
                            " its configuration (--planner picks fewer)\n", db);
        else
            fprintf(stderr, "bench: stats: %s holds no valid result%s%s%s\n", db,
                    run || planner ? " of the selected " : "",
                    run && planner ? "run and planners" : run ? "run" : "",
                    planner && !run ? "planners" : "");
        arena_stats_free(&s);
        return 1;
    }
    if (strcmp(format, "csv") == 0)
        print_csv(&s, pairs);
    else
        print_table(&s);
    arena_stats_free(&s);
    return fflush(stdout) == 0 ? 0 : 2;
}
