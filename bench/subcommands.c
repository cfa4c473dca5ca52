/* subcommands.c — bench's commands, one table (subcommands.h): each
 * command's name, usage, summary, help text, option tables and entry
 * point. bench's main reads a command word and calls its entry point; the
 * planning commands (run, list, export, replay) share one option table
 * (args.c) and are parsed here, the others parse their own. Every --help
 * and every Markdown option table of docs/ is printed from here. */
#include "bench/subcommands.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "bench/core/args.h"
#include "bench/bench.h"
#include "bench/core/filters.h"
#include "bench/core/planner_help.h"
#include "bench/plot/plot.h"
#include "bench/core/runinfo.h"
#include "bench/core/session.h"

struct command {
    const char *name;
    const char *usage;   /* what follows "bench NAME " */
    const char *summary; /* one line, for the list of commands */
    const char *about;   /* the help's text before the options */
    const char *after;   /* the help's text after them, or NULL */
    /* The option tables it reads (base NULL: for printing), and the rows
     * of them it takes. */
    size_t (*tables)(struct arena_opt_table *t);
    unsigned mask;
    /* argv from the command word on (argv[0]); full: bench's own. */
    int (*main)(int argc, char **argv, int full_argc, char **full_argv);
};

static size_t planning_tables(struct arena_opt_table *t)
{
    t[0] = (struct arena_opt_table){arena_bench_options, arena_bench_option_count, NULL};
    return 1;
}

static size_t stats_tables(struct arena_opt_table *t)
{
    t[0] = (struct arena_opt_table){arena_bench_stats_options, arena_bench_stats_option_count,
                                    NULL};
    t[1] = (struct arena_opt_table){arena_bench_filter_options, arena_bench_filter_option_count,
                                    NULL};
    return 2;
}

static size_t plot_tables(struct arena_opt_table *t)
{
    t[0] = (struct arena_opt_table){arena_bench_plot_options, arena_bench_plot_option_count, NULL};
    t[1] = (struct arena_opt_table){arena_bench_filter_options, arena_bench_filter_option_count,
                                    NULL};
    return 2;
}

static size_t no_tables(struct arena_opt_table *t)
{
    (void)t;
    return 0;
}

static int run_main(int argc, char **argv, int full_argc, char **full_argv);
static int list_main(int argc, char **argv, int full_argc, char **full_argv);
static int export_main(int argc, char **argv, int full_argc, char **full_argv);
static int replay_main(int argc, char **argv, int full_argc, char **full_argv);
static int merge_main(int argc, char **argv, int full_argc, char **full_argv);
static int stats_main(int argc, char **argv, int full_argc, char **full_argv);
static int plot_main(int argc, char **argv, int full_argc, char **full_argv);
static int help_main(int argc, char **argv, int full_argc, char **full_argv);

static const char run_exit_status[] =
    "Exit status: 0 the run went to its end, every plan valid; 1 the run went to its end and"
    " stored every result, some of them invalid (a plan the validator refused, a planner that"
    " failed or crashed, a claim that does not hold; stored with valid = 0, the planners named"
    " in one line on stderr): a finished run, which scripts/sweep and the Slurm scripts count"
    " as one, and bench run exits 1 for nothing else; 2 usage, input, output or database"
    " error, or nothing measured; 130/143 interrupted by SIGINT/SIGTERM (the first is"
    " answered at once, and the command stops after the planner call under way; a second"
    " ends it at once). --resume counts the invalid results it finds stored as if measured"
    " again.";

static const char exit_status[] =
    "Exit status: 0 every plan valid, 1 some plan invalid (stored as invalid), 2 usage,"
    " input, output or database error, or nothing measured, 130/143 interrupted by"
    " SIGINT/SIGTERM (the first is answered at once, and the command stops after the planner"
    " call under way; a second ends it at once).";

static const struct command commands[] = {
    {.name = "run",
     .usage = "[run] --graph LIST [--planner LIST] [options] [--benchmark_* ...]",
     .summary = "plan every graph with every planner, check and time each plan, store the"
                " results (the default: bench --graph ... runs)",
     .about = "Plans every graph with every chosen planner, checks each plan with the"
              " independent validator, times the planner with Google Benchmark, prints a table"
              " and stores every result in SQLite.",
     .after = run_exit_status, .tables = planning_tables, .mask = ARENA_IN_RUN,
     .main = run_main},
    {.name = "list",
     .usage = "list [planners] [--graph LIST] [--suite NAME|FILE] [--format table|csv]",
     .summary = "the graph families, suites and planners; with --graph, what it stands for",
     .about = "Prints every graph family with its keys and defaults, the suites, and every"
              " planner with its kind, summary and keys (name, what it takes, default, what it"
              " does); bench list planners the planners alone. --format csv: the planners as name,kind,summary, in"
              " registry order. With --graph or --suite, the specs its"
              " suites and sweeps expand to instead, one a line, repeats dropped, each checked"
              " first as a run would check it (exit 2 and nothing listed for a bad one).",
     .tables = planning_tables, .mask = ARENA_IN_LIST, .main = list_main},
    {.name = "export",
     .usage = "export plan|tflite|problem DIR --graph LIST [--planner LIST] [options]",
     .summary = "each plan as a C library or a .tflite model, or each problem as CSV, untimed",
     .about = "Loads every graph as a run does, then writes into DIR (created when missing),"
              " untimed and storing nothing. plan: each graph x planner planned, validated and"
              " written as DIR/GRAPH-FP-PLANNER.csv, .h and .c (a C library: one arena, head |"
              " activations | tail), a line spec<TAB>planner<TAB>header each. tflite: the same"
              " plans of .tflite graphs as DIR/GRAPH-FP-PLANNER.tflite copies carrying TFLM's"
              " offline plan. problem: each graph's problem as DIR/NAME-FP.csv (MiniMalloc's"
              " id,lower,upper,size), nothing planned, a line spec<TAB>file each. Every file"
              " is written whole, then renamed into place.",
     .after = "Exit status: 0 written, 1 a plan failed the validator, 2 usage, input or"
              " output error, 130/143 interrupted.",
     .tables = planning_tables, .mask = ARENA_IN_EXPORT, .main = export_main},
    {.name = "replay",
     .usage = "replay --graph LIST [--allocator LIST] [--frames N] [options]",
     .summary = "each graph replayed by real allocators (glibc, jemalloc, mimalloc), stored",
     .about = "Replays each graph's allocations and frees, frame after frame, with real"
              " allocators, each in a program of its own, and stores each allocator's peak"
              " footprint per frame in the replays table (--founding-table: the article's"
              " table, planners included). Prints a table per graph.",
     .after = exit_status, .tables = planning_tables, .mask = ARENA_IN_REPLAY,
     .main = replay_main},
    {.name = "merge",
     .usage = "merge OUT.sqlite IN.sqlite...",
     .summary = "join results databases (shards, machines)",
     .about = "Adds the runs, graphs, results, placements and replays of every IN to OUT"
              " (created when missing), ids remapped, graphs shared by spec, fingerprint and"
              " alignment. Runs are matched by their uuid alone and results by (run, seq), so"
              " exactly what OUT lacks is copied: a run merged while its bench was still"
              " writing gets its later results on the next merge, merging twice adds nothing,"
              " and two different runs never become one. Every IN must be at the current"
              " schema version, or a newer one whose tables have this bench's columns (else one"
              " line names both versions). Ends with PRAGMA integrity_check and"
              " foreign_key_check.",
     .after = "A result or replay that bench never writes (its run or graph missing, an arena"
              " below its lower bound, ...) is not copied: the rest is merged, the count and"
              " the first such row are shown, and the exit status is 1; a view in place of a"
              " table refuses the file (exit 2).",
     .tables = no_tables, .main = merge_main},
    {.name = "stats",
     .usage = "stats [--db FILE] [--run ID|all] [--planner LIST] [--format table|csv|tex|md]"
              " [--pairs] [selection]",
     .summary = "arena / lower bound across graphs, with confidence intervals and pairs",
     .about = "Per group (by default a family's parameters but the seed, the seeds its graphs)"
              " and configuration of the problem (the in-place rule, the order, the patch, the"
              " alignment: results of two configurations solved two problems and are never"
              " pooled), per planner and its options that change results: mean and median of"
              " arena / lower bound (and / best proven bound of the same problem) with"
              " bootstrap 95 % CIs, and wins/ties/losses against every other planner. The"
              " planners of a group are compared on the same graphs: a graph counts only if"
              " each of them has a valid result there; the rest are counted as left out, with"
              " why. A group of one graph shows its figures: no interval, no pairs. A result"
              " per graph x configuration x planner: the one of the run that started last"
              " (runs.started_at, ties: the larger runs.id), whatever the order runs were"
              " merged in; a failed newest result is a failure, not replaced by an older one.",
     .after = "Exit 1 when there is no valid result to show, 2 for a bad argument or"
              " database.",
     .tables = stats_tables, .mask = ARENA_IN_STATS, .main = stats_main},
    {.name = "plot",
     .usage = "plot [--db PATH] [--run ID|all] [--planner LIST|all] [--out DIR] [options]"
              " [selection]",
     .summary = "figures (gnuplot) and tables for papers",
     .about = "Charts and tables from an arenabench results database, drawn by gnuplot. Each"
              " figure shows one configuration (the in-place rule, the order, the patch, the"
              " alignment: the first measured, or the one the selection names), labelled in its"
              " caption; the tables show every configuration of the graph, a row each. --graph"
              " also picks the per-graph figures' graph: the first it names (default: the"
              " first graph measured).",
     .after = "Writes into DIR: NAME-1col.EXT and NAME-2col.EXT for each figure, NAME.csv (its"
              " data), NAME.gp (its gnuplot script: cd DIR && gnuplot NAME.gp redraws it, edit"
              " it to restyle), comparison.tex, comparison.md and styles.csv. Figures that"
              " compare planners across graphs (quality, stats) use only the graphs on which"
              " every planner shown has a valid result, and say how many. A result that"
              " stopped at its search budget is marked (limit). Exit 0; 2 usage or input error;"
              " 1 gnuplot failed.",
     .tables = plot_tables, .mask = ARENA_IN_PLOT, .main = plot_main},
    {.name = "help",
     .usage = "help [COMMAND] [--markdown TABLE]",
     .summary = "a command's help; --markdown: an option table as docs/ carries it",
     .about = "bench help COMMAND is bench COMMAND --help. bench help --markdown TABLE prints"
              " the Markdown table of options docs/ carries: planning (run, list, export,"
              " replay), old (the old spellings), stats, plot, selection, or planners (every"
              " planner's keys); scripts/docs-options writes each into its page.",
     .tables = no_tables, .main = help_main},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static const char *const planning_names[] = {"run", "list", "export", "replay", NULL};

static const struct command *find(const char *name)
{
    for (size_t i = 0; name && i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

static void print_help(FILE *out, const struct command *c, int whole)
{
    struct arena_opt_table t[4];
    size_t nt = c->tables(t);
    char usage[300];
    snprintf(usage, sizeof usage, "bench %s", c->usage);
    arena_opt_wrapped(out, "usage:", 7, usage);
    if (whole) fprintf(out, "       bench COMMAND [options]   (bench help COMMAND says more)\n");
    fputc('\n', out);
    arena_opt_wrapped(out, "", 0, c->about);
    fprintf(out, "\nOptions:\n");
    arena_opt_help(out, t, nt > 1 ? 1 : nt, c->mask, 0);
    if (nt > 1) {
        fprintf(out, "The database and the selection (';' separates a list; repeat to add):\n");
        arena_opt_help(out, t + 1, nt - 1, c->mask, 0);
    }
    fprintf(out, "  --help              this help\n");
    if (c->mask & (ARENA_IN_RUN | ARENA_IN_EXPORT)) arena_planner_help_keys(out);
    if (whole) {
        fprintf(out, "\nCommands:\n");
        for (size_t i = 0; i < N_COMMANDS; i++) {
            char head[32];
            snprintf(head, sizeof head, "  %s", commands[i].name);
            arena_opt_wrapped(out, head, 11, commands[i].summary);
        }
        fprintf(out, "\nOld spellings, kept working (bench without a command word takes"
                     " them):\n");
        arena_opt_help(out, t, nt, ARENA_IN_OLD, 1);
    }
    if (c->after) {
        fputc('\n', out);
        arena_opt_wrapped(out, "", 0, c->after);
    }
}

int arena_bench_help(FILE *out, const char *command)
{
    const struct command *c = command && command[0] ? find(command) : &commands[0];
    if (!c) return -1;
    print_help(out, c, c == &commands[0] && !(command && command[0]));
    return 0;
}

int arena_bench_help_markdown(FILE *out, const char *table)
{
    struct arena_opt_table t[2];
    if (strcmp(table, "commands") == 0) {
        fputs("| command | does |\n|---|---|\n", out);
        for (size_t i = 0; i < N_COMMANDS; i++) {
            fputs("| `bench ", out);
            for (const char *c = commands[i].usage; *c; c++)
                fputs(*c == '|' ? "\\|" : (char[]){*c, 0}, out);
            fprintf(out, "` | %s |\n", commands[i].summary);
        }
        return 0;
    }
    if (strcmp(table, "planners") == 0) {
        arena_planner_help_markdown(out);
        return 0;
    }
    if (strcmp(table, "planning") == 0 || strcmp(table, "old") == 0) {
        planning_tables(t);
        int old = strcmp(table, "old") == 0;
        arena_opt_markdown(out, t, 1, old ? ARENA_IN_OLD : ~(unsigned)ARENA_IN_OLD, old,
                           old ? NULL : planning_names);
        return 0;
    }
    if (strcmp(table, "stats") == 0 || strcmp(table, "plot") == 0 ||
        strcmp(table, "selection") == 0) {
        (strcmp(table, "plot") == 0 ? plot_tables : stats_tables)(t);
        int sel = strcmp(table, "selection") == 0;
        arena_opt_markdown(out, t + sel, 1, ~0u, 0, NULL);
        return 0;
    }
    return -1;
}

/* ---- the entry points */

/* The planning commands: the line parsed by the table (the old spellings
 * too, when cmd < 0: bench without a command word), then the command. */
static int planning(int cmd, int argc, char **argv, int full_argc, char **full_argv)
{
    struct arena_bench_args a;
    char err[700] = "";
    int status = cmd < 0 ? arena_bench_args_parse(argc, argv, &a, err, sizeof err)
                         : arena_bench_args_parse_command((enum arena_bench_command)cmd, argc,
                                                          argv, &a, err, sizeof err);
    if (status != ARENA_OK) {
        arena_session_say(NULL, "%s%s%s", cmd < 0 ? "" : argv[0], cmd < 0 ? "" : ": ",
                          err[0] ? err : arena_strerror(status));
        status = 2;
    } else if (a.c.help) {
        print_help(stdout, cmd < 0 ? &commands[0] : find(argv[0]), cmd < 0);
    } else if (a.c.version) {
        printf("bench (arenabench) %s, git %s, %s\n", arena_build_version(),
               arena_build_git_rev(), arena_build_compiler());
    } else if (a.command == ARENA_BENCH_LIST) {
        status = arena_bench_list(&a);
    } else if (a.command == ARENA_BENCH_EXPORT) {
        status = arena_bench_export(&a, full_argc, full_argv);
    } else if (a.command == ARENA_BENCH_REPLAY) {
        status = arena_bench_replay(&a, full_argc, full_argv);
    } else {
        /* The names were resolved through the registry by the parser. */
        status = arena_bench_run(&a, full_argc, full_argv);
    }
    arena_bench_args_free(&a);
    /* --help, --version and list write only here; a command has said so already. */
    if (status != 2 && !arena_session_stdout_ok(NULL)) status = 2;
    return status;
}

static int run_main(int argc, char **argv, int full_argc, char **full_argv)
{
    return planning(ARENA_BENCH_RUN, argc, argv, full_argc, full_argv);
}

static int list_main(int argc, char **argv, int full_argc, char **full_argv)
{
    return planning(ARENA_BENCH_LIST, argc, argv, full_argc, full_argv);
}

static int export_main(int argc, char **argv, int full_argc, char **full_argv)
{
    return planning(ARENA_BENCH_EXPORT, argc, argv, full_argc, full_argv);
}

static int replay_main(int argc, char **argv, int full_argc, char **full_argv)
{
    return planning(ARENA_BENCH_REPLAY, argc, argv, full_argc, full_argv);
}

/* The others print their help through the table. */
static int helped(const char *name, int status)
{
    if (status != ARENA_BENCH_HELP_ASKED) return status;
    print_help(stdout, find(name), 0);
    return fflush(stdout) == 0 ? 0 : 2;
}

static int merge_main(int argc, char **argv, int full_argc, char **full_argv)
{
    (void)full_argc, (void)full_argv;
    return helped("merge", arena_bench_merge_main(argc, argv));
}

static int stats_main(int argc, char **argv, int full_argc, char **full_argv)
{
    (void)full_argc, (void)full_argv;
    return helped("stats", arena_bench_stats_main(argc, argv));
}

static int plot_main(int argc, char **argv, int full_argc, char **full_argv)
{
    (void)full_argc, (void)full_argv;
    return helped("plot", arena_bench_plot_main(argc, argv));
}

static int help_main(int argc, char **argv, int full_argc, char **full_argv)
{
    (void)full_argc, (void)full_argv;
    const char *name = NULL, *table = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--markdown") == 0 && i + 1 < argc && !table) {
            table = argv[++i];
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            name = "help";
        } else if (argv[i][0] != '-' && !name) {
            name = argv[i];
        } else {
            arena_session_say(NULL, "help: unexpected argument '%s' (bench help [COMMAND]"
                                    " [--markdown TABLE])", argv[i]);
            return 2;
        }
    }
    if (table && name) {
        arena_session_say(NULL, "help: a COMMAND or --markdown TABLE, not both");
        return 2;
    }
    if (table ? arena_bench_help_markdown(stdout, table) : arena_bench_help(stdout, name)) {
        arena_session_say(NULL, table ? "help: no table '%s' (commands, planning, old, stats,"
                                        " plot, selection)"
                                      : "help: no command '%s' (bench help lists them)",
                          table ? table : name);
        return 2;
    }
    return fflush(stdout) == 0 ? 0 : 2;
}

/* SIGXFSZ's handler: nothing to do, the write that raised it fails. */
static void on_file_size(int sig)
{
    (void)sig;
}

int arena_bench_main(int argc, char **argv)
{
    /* A write past the file size limit (ulimit -f) fails with EFBIG, which
     * every writer reports in one line, removing its temporary, instead of
     * SIGXFSZ killing bench without a word. Caught rather than ignored, so
     * gnuplot and the replayed programs start with the default again. */
    struct sigaction fsz;
    memset(&fsz, 0, sizeof fsz);
    fsz.sa_handler = on_file_size;
    sigemptyset(&fsz.sa_mask);
    sigaction(SIGXFSZ, &fsz, NULL);
    if (argc < 2 || argv[1][0] == '-') /* no command word: a run, or an old spelling's */
        return planning(-1, argc, argv, argc, argv);
    const struct command *c = find(argv[1]);
    if (!c) {
        arena_session_say(NULL, "unknown command '%s' (bench help lists them; graphs go after"
                                " --graph)", argv[1]);
        return 2;
    }
    return c->main(argc - 1, argv + 1, argc, argv);
}
