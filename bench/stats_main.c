/* stats_main.c — `bench stats`: argument checks and printing; the work is
 * in results/stats.c. */
#include "bench/subcommands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/args.h"
#include "bench/core/filters.h"
#include "bench/plot/table.h"
#include "results/stats.h"

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "bench: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    return 2;
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

/* ",%.6f", or "," for NaN (one graph: no interval). */
static void csv_fig(double x)
{
    if (x == x) printf(",%.6f", x);
    else printf(",");
}

static void csv_stat(const struct arena_stat *st, int shown)
{
    if (!shown) {
        printf(",,,,,,");
        return;
    }
    csv_fig(st->mean);
    csv_fig(st->mean_lo);
    csv_fig(st->mean_hi);
    csv_fig(st->median);
    csv_fig(st->median_lo);
    csv_fig(st->median_hi);
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
           "time_limit,node_limit,planner_seed,capacity,config,inplace,order,order_budget,patch,"
           "key,mean_fixed,mean_fixed_lo,mean_fixed_hi,median_fixed,median_fixed_lo,"
           "median_fixed_hi\n");
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
        csv_next(r->config_label);
        csv_next(r->config.inplace);
        csv_next(r->config.order);
        if (r->config.order_budget) printf(",%lld", (long long)r->config.order_budget);
        else printf(",");
        csv_next(r->config.patch);
        csv_next(r->key);
        csv_stat(&r->fixed, r->n > 0 && r->has_fixed);
        printf("\n");
    }
}

/* The note under a group's title: how many graphs, and why some are left
 * out. Rows a..b of one group. */
static void print_group_note(const struct arena_stats *s, size_t a, size_t b)
{
    const struct arena_stats_row *r = &s->rows[a];
    size_t all = r->n + r->n_left_out;
    printf("  %zu graph%s%s, each with a valid result of every planner below", r->n,
           r->n == 1 ? "" : "s",
           !r->n_superseded ? "" : r->n == 1 ? " (its newest problem)" : " (each its newest problem)");
    if (r->n_superseded)
        printf("; %zu older result%s of another problem under the same spec left out (%s)",
               r->n_superseded, r->n_superseded == 1 ? "" : "s", r->superseded);
    if (!r->n_left_out) {
        printf(r->n_superseded ? "\n" : " (none left out)\n");
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
 * every result failed, or left out of its pairing (valid on fewer graphs). */
static void print_hidden(const struct arena_stats *s, const char *group)
{
    for (size_t i = 0; i < s->n_hidden; i++) {
        const struct arena_stats_row *h = &s->hidden[i];
        int has_row = 0;
        for (size_t j = 0; j < s->n_rows && !group; j++)
            has_row |= strcmp(s->rows[j].group, h->group) == 0;
        if (group ? strcmp(h->group, group) != 0 : has_row) continue;
        if (!group) printf("\n%s\n", h->group);
        if (h->unpaired)
            printf("  not shown: %s, valid on %zu of %zu graph%s, fewer than the planners below: left"
                   " out so that their pairing is not cut to its graphs\n", h->label, h->n_valid,
                   h->n + h->n_left_out, h->n + h->n_left_out == 1 ? "" : "s");
        else
            printf("  not shown: %s, no valid result (failed on %zu graph%s)\n", h->label,
                   h->n_failed, h->n_failed == 1 ? "" : "s");
    }
}

static int width_of(const struct arena_stats *s, size_t a, size_t b)
{
    size_t w = 26;
    for (size_t i = a; i < b; i++)
        if (strlen(s->rows[i].label) > w) w = strlen(s->rows[i].label);
    return w > 200 ? 200 : (int)w;
}

/* "1.0234 [1.0100, 1.0400]", or the value alone for one graph. */
static void print_stat(double x, double lo, double hi)
{
    if (lo == lo && hi == hi) printf("%.4f [%.4f, %.4f]", x, lo, hi);
    else printf("%.4f %18s", x, "");
}

static void print_table(const struct arena_stats *s)
{
    printf("Arena / lower bound across graphs, per group (its graphs in one configuration of\n"
           "the problem) and planner: mean and median with bootstrap 95 %% confidence intervals\n"
           "(%d resamples, seed %d); \"x best\" is arena / best proven bound of the same\n"
           "problem, shown when a search proved more than the lower bound; \"x fixed\" is\n"
           "arena / the lower bound of the graph untransformed (stored order, no in-place\n"
           "rule, no patch), below 1 where the configuration's transformations pay. Every\n"
           "planner of a group is measured on the same graphs; a group of one graph shows its\n"
           "figures, without an interval or a win matrix. \"limit\" counts the graphs where a\n"
           "search stopped at its budget (marked !): its arena there is the best plan it\n"
           "found, not its answer.\n",
           ARENA_STATS_RESAMPLES, ARENA_STATS_SEED);
    for (size_t i = 0; i < s->n_stopped; i++)
        printf("%sStopped by a signal (the results it stored before are counted): %s\n",
               i ? "" : "\n", s->stopped[i]);
    size_t p = 0;
    for (size_t a = 0; a < s->n_rows;) {
        size_t b = a;
        while (b < s->n_rows && strcmp(s->rows[b].group, s->rows[a].group) == 0) b++;
        int w = width_of(s, a, b);
        int best = s->rows[a].has_best, fixed = s->rows[a].has_fixed;
        printf("\n%s\n", s->rows[a].group);
        if (!strstr(s->rows[a].group, s->rows[a].config_label)) /* plain, unsaid */
            printf("  configuration: %s\n", s->rows[a].config_label);
        print_group_note(s, a, b);
        print_hidden(s, s->rows[a].group);
        int one = s->rows[a].n <= 1; /* one graph: its figures, no interval */
        printf("  %-3s %-*s %4s %5s  %-27s %-27s%s%s\n", "#", w, "planner", "n", "limit",
               one ? "mean x LB" : "mean x LB [95% CI]",
               one ? "median x LB" : "median x LB [95% CI]",
               best ? (one ? " mean x best                " : " mean x best [95% CI]      ") : "",
               fixed ? (one ? " mean x fixed" : " mean x fixed [95% CI]") : "");
        for (size_t i = a; i < b; i++) {
            const struct arena_stats_row *r = &s->rows[i];
            char lim[32];
            snprintf(lim, sizeof lim, "%zu%s", r->limit, r->limit ? "!" : " ");
            printf("  %-3zu %-*s %4zu %5s", i - a + 1, w, r->label, r->n, lim);
            if (r->n) {
                printf("  ");
                print_stat(r->lb.mean, r->lb.mean_lo, r->lb.mean_hi);
                printf("    ");
                print_stat(r->lb.median, r->lb.median_lo, r->lb.median_hi);
            }
            if (r->n && best) {
                printf("    ");
                print_stat(r->best.mean, r->best.mean_lo, r->best.mean_hi);
            }
            if (r->n && fixed) {
                printf("    ");
                print_stat(r->fixed.mean, r->fixed.mean_lo, r->fixed.mean_hi);
            }
            printf("\n");
        }
        int pairs = b - a > 1 && s->rows[a].n > 1; /* one graph: no matrix */
        if (pairs) {
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

enum { FORMAT_TABLE, FORMAT_CSV, FORMAT_TEX, FORMAT_MD };

/* "1.0234", or "" for NaN. */
static void fig4(char *out, size_t n, double x)
{
    if (x == x) snprintf(out, n, "%.4f", x);
    else if (n) out[0] = '\0';
}

/* "[1.0100, 1.0400]", or "" without an interval (one graph). */
static void ci4(char *out, size_t n, double lo, double hi)
{
    if (lo == lo && hi == hi) snprintf(out, n, "[%.4f, %.4f]", lo, hi);
    else if (n) out[0] = '\0';
}

/* The configurations left out of their group's pairing, valid on fewer
 * graphs than its rows (results/stats.h): "f: 6 of 9 graphs of GROUP; ...",
 * into out; whether there is one. */
static int unpaired_list(const struct arena_stats *s, struct arena_buf *out)
{
    for (size_t i = 0; i < s->n_hidden; i++) {
        const struct arena_stats_row *h = &s->hidden[i];
        if (!h->unpaired) continue;
        arena_buf_printf(out, "%s%s: %zu of %zu graphs of %s", out->len ? "; " : "", h->label,
                              h->n_valid, h->n + h->n_left_out, h->group);
    }
    return out->len > 0;
}

/* The table of a paper (--format tex or md): a group's name spanning the
 * row, then a row per planner shown in it. 0, or -1 out of memory. */
static int print_paper(const struct arena_stats *s, int tex)
{
    int best = 0, fixed = 0, limit = 0, superseded = 0;
    for (size_t i = 0; i < s->n_rows; i++) {
        superseded |= s->rows[i].n_superseded > 0;
        best |= s->rows[i].n > 0 && s->rows[i].has_best;
        fixed |= s->rows[i].n > 0 && s->rows[i].has_fixed;
        limit |= s->rows[i].limit > 0;
    }
    size_t ncols = 6 + (size_t)best + (size_t)fixed;
    struct arena_table t;
    arena_table_init(&t, ncols, 1);
    arena_table_head(&t, 0, "Planner", "planner", 'l', 0);
    arena_table_head(&t, 1, "$n$", "n", 'r', 0);
    arena_table_head(&t, 2, "Mean $\\times$ LB", "mean × LB", 'r', 0);
    arena_table_head(&t, 3, "95\\,\\% CI", "95 % CI", 'r', 0);
    arena_table_head(&t, 4, "Median $\\times$ LB", "median × LB", 'r', 0);
    arena_table_head(&t, 5, "95\\,\\% CI", "95 % CI", 'r', 0);
    if (best) arena_table_head(&t, 6, "Mean $\\times$ best", "mean × best", 'r', 0);
    if (fixed) arena_table_head(&t, 6 + (size_t)best, "Mean $\\times$ fixed", "mean × fixed", 'r', 0);
    for (size_t i = 0; i < s->n_rows; i++) {
        const struct arena_stats_row *r = &s->rows[i];
        if (!r->n) continue;
        if (i == 0 || strcmp(r->group, s->rows[i - 1].group) != 0) {
            char head[600];
            snprintf(head, sizeof head, "%s (%zu graph%s)", r->group, r->n, r->n == 1 ? "" : "s");
            arena_table_span(&t, head);
        }
        char n[32], m[32], mci[64], md[32], mdci[64], b[32] = "", f[32] = "";
        snprintf(n, sizeof n, "%zu", r->n);
        fig4(m, sizeof m, r->lb.mean);
        ci4(mci, sizeof mci, r->lb.mean_lo, r->lb.mean_hi);
        fig4(md, sizeof md, r->lb.median);
        ci4(mdci, sizeof mdci, r->lb.median_lo, r->lb.median_hi);
        if (r->has_best) fig4(b, sizeof b, r->best.mean);
        if (r->has_fixed) fig4(f, sizeof f, r->fixed.mean);
        arena_table_row(&t);
        arena_table_set(&t, 0, r->label, -1);
        arena_table_set(&t, 1, n, -1);
        arena_table_set(&t, 2, m, r->limit ? 0 : -1);
        arena_table_set(&t, 3, mci, -1);
        arena_table_set(&t, 4, md, -1);
        arena_table_set(&t, 5, mdci, -1);
        if (best) arena_table_set(&t, 6, b, -1);
        if (fixed) arena_table_set(&t, 6 + (size_t)best, f, -1);
    }
    if (limit)
        arena_table_note(&t, 0, "A search stopped at its budget on some of the graphs: there its arena"
                                " is the best plan it found, not its answer.");
    arena_table_line(&t, "Each group's planners are compared on the same graphs (n); the intervals"
                         " are bootstrap 95 % CIs.");
    if (best)
        arena_table_line(&t, "× best: arena / the best bound a search proved for the same problem.");
    if (fixed)
        arena_table_line(&t, "× fixed: arena / the lower bound of the graph untransformed (stored"
                             " order, no in-place rule, no patch).");
    if (superseded)
        arena_table_line(&t, "Each graph is its newest problem: older results of another problem"
                             " under the same spec (a file changed between runs) are left out.");
    struct arena_buf left = {0};
    if (unpaired_list(s, &left)) {
        struct arena_buf line = {0};
        arena_buf_printf(&line, "Left out, valid on fewer graphs than the planners of their"
                                     " group (they would shrink its pairing): %s.", left.s);
        arena_table_line(&t, line.s ? line.s : "");
        if (line.oom) t.oom = 1;
        arena_buf_free(&line);
    }
    if (left.oom) t.oom = 1;
    arena_buf_free(&left);
    struct arena_buf out = {0};
    const char *about = "Arena / lower bound across graphs, per group and planner (bench stats).";
    if (tex) arena_table_tex(&t, about, &out);
    else arena_table_md(&t, about, &out);
    int rc = out.oom || t.oom ? -1 : 0;
    if (!rc) fputs(out.s ? out.s : "", stdout);
    arena_buf_free(&out);
    arena_table_free(&t);
    return rc;
}

struct stats_args {
    const char *run, *planner;
    int format, pairs;
    struct arena_bench_filters f; /* --db and the selection */
};

static const char *format_name(size_t i)
{
    static const char *const names[] = {"table", "csv", "tex", "md"};
    return i < 4 ? names[i] : NULL;
}

typedef struct stats_args S;

const struct arena_opt arena_bench_stats_options[] = {
    {.name = "--run", .kind = ARENA_OPT_TEXT, .arg = "ID|all", .unset = "all",
     .in = ARENA_IN_STATS, ARENA_OPT_AT(S, run),
     .help = "one run: a runs.id (all digits), or a runs.uuid or a prefix of exactly one (a"
             " prefix of digits only ends in '-': 12345678-); all: every run's results, the"
             " newest counting"},
    {.name = "--planner", .kind = ARENA_OPT_TEXT, .arg = "LIST", .unset = "every planner",
     .in = ARENA_IN_STATS, ARENA_OPT_AT(S, planner),
     .help = "only these planners (comma-separated), paired among themselves"},
    {.name = "--format", .kind = ARENA_OPT_CHOICE, .name_of = format_name, .def = "table",
     .in = ARENA_IN_STATS, ARENA_OPT_AT(S, format),
     .help = "csv prints the figures, a row per group and planner; tex (a booktabs tabular)"
             " and md (Markdown) the table of a paper: a row per planner under each group's"
             " name, mean and median x lower bound with the 95 % CI"},
    {.name = "--pairs", .kind = ARENA_OPT_FLAG, .in = ARENA_IN_STATS, ARENA_OPT_AT(S, pairs),
     .help = "with --format csv: the win/tie/loss counts of every pair instead"},
};
const size_t arena_bench_stats_option_count =
    sizeof arena_bench_stats_options / sizeof arena_bench_stats_options[0];

/* The arguments: 0, ARENA_BENCH_HELP_ASKED, or 2 after a message. */
static int stats_parse(int argc, char **argv, struct stats_args *a)
{
    char err[600] = "";
    int rc = arena_bench_filters_parse(argc, argv, arena_bench_stats_options,
                                       arena_bench_stats_option_count, a, ARENA_IN_STATS, &a->f,
                                       err, sizeof err);
    if (rc == ARENA_OPT_HELP) return ARENA_BENCH_HELP_ASKED;
    if (rc != ARENA_OK) return usage_error("stats: %s", err);
    if (a->pairs && a->format != FORMAT_CSV)
        return usage_error("stats: --pairs goes with --format csv (the table shows them)%s", "");
    return 0;
}

static int stats_run(struct stats_args *a)
{
    FILE *f = fopen(a->f.db, "rb");
    if (!f) return usage_error("stats: --db %s: no such file", a->f.db);
    fclose(f);
    /* --planner a,b: the names, split in place of a copy. */
    char list[4096] = "";
    const char *names[256];
    struct arena_stats_query q = {.run = a->run, .planners = names, .n_planners = 0,
                                  .select = &a->f.sel};
    if (a->planner) {
        if (strlen(a->planner) >= sizeof list)
            return usage_error("stats: --planner: too long%s", "");
        strcpy(list, a->planner);
        for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
            if (q.n_planners == sizeof names / sizeof *names)
                return usage_error("stats: --planner: more than 256 names%s", "");
            names[q.n_planners++] = t;
        }
        if (!q.n_planners) return usage_error("stats: --planner: no planner named%s", "");
    }
    struct arena_stats s;
    char err[700] = "";
    int rc = arena_stats_compute_query(a->f.db, &q, &s, err, sizeof err);
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
                            " its group (--planner picks fewer)\n", a->f.db);
        else
            fprintf(stderr, "bench: stats: %s holds no valid result%s\n", a->f.db,
                    a->run || a->planner || a->f.sel.n_graphs || a->f.sel.n_families ||
                            a->f.sel.n_suites || a->f.sel.n_tags || a->f.sel.inplace ||
                            a->f.sel.order || a->f.sel.patch || a->f.sel.alignment
                        ? " of the selection"
                        : "");
        arena_stats_free(&s);
        return 1;
    }
    for (size_t i = 0; a->format != FORMAT_TABLE && i < s.n_rows; i++) /* a table says it under the group */
        if (s.rows[i].n_superseded && (i == 0 || strcmp(s.rows[i].group, s.rows[i - 1].group)))
            fprintf(stderr, "bench: stats: note: %s: %zu older result%s of another problem under"
                            " the same spec left out (%s); each spec's newest problem is shown\n",
                    s.rows[i].group, s.rows[i].n_superseded, s.rows[i].n_superseded == 1 ? "" : "s",
                    s.rows[i].superseded);
    struct arena_buf left = {0};
    if (a->format != FORMAT_TABLE && unpaired_list(&s, &left)) /* a table says it under the group */
        fprintf(stderr, "bench: stats: note: left out, valid on fewer graphs than the planners of"
                        " their group (they would shrink its pairing): %s\n", left.s);
    arena_buf_free(&left);
    if (a->format == FORMAT_CSV)
        print_csv(&s, a->pairs);
    else if (a->format == FORMAT_TABLE)
        print_table(&s);
    else if (print_paper(&s, a->format == FORMAT_TEX)) {
        fprintf(stderr, "bench: stats: out of memory\n");
        arena_stats_free(&s);
        return 1;
    }
    arena_stats_free(&s);
    return fflush(stdout) == 0 ? 0 : 2;
}

int arena_bench_stats_main(int argc, char **argv)
{
    struct stats_args a;
    memset(&a, 0, sizeof a);
    int status = stats_parse(argc, argv, &a);
    if (status == 0) status = stats_run(&a);
    arena_bench_filters_free(&a.f);
    return status;
}
