/* test_args.c — bench's command line: defaults, both option spellings, the
 * --graph list rule, pass-through of Google Benchmark flags, and every error
 * path with its one-line message. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/args.h"
#include "bench/subcommands.h"
#include "bench/core/suites.h"
#include "planners/optimal.h"

#define MAX_ARGS 16

/* bench COMMAND --help as it prints ("": bench's own), kept for the test. */
static const char *help_of(const char *command)
{
    static char *text[8];
    static const char *names[8];
    for (size_t i = 0; i < 8 && names[i]; i++)
        if (strcmp(names[i], command) == 0) return text[i];
    size_t i = 0, len = 0;
    while (names[i]) i++;
    cr_assert(i < 8);
    FILE *f = open_memstream(&text[i], &len);
    cr_assert_not_null(f);
    cr_assert_eq(arena_bench_help(f, command), 0, "no command '%s'", command);
    fclose(f);
    names[i] = command;
    return text[i];
}


/* Parses a NULL-terminated list of arguments after "bench". */
static int parse(struct arena_bench_args *a, char *err, size_t errlen, ...)
{
    static char storage[MAX_ARGS][256];
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    strcpy(storage[argc], "bench");
    argv[argc] = storage[argc];
    argc++;
    va_list ap;
    va_start(ap, errlen);
    const char *s;
    while ((s = va_arg(ap, const char *)) != NULL) {
        cr_assert(argc < MAX_ARGS);
        snprintf(storage[argc], sizeof storage[argc], "%s", s);
        argv[argc] = storage[argc];
        argc++;
    }
    va_end(ap);
    argv[argc] = NULL;
    return arena_bench_args_parse(argc, argv, a, err, errlen);
}

Test(args, defaults)
{
    struct arena_bench_args a;
    char err[300] = "";
    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "mobilenetv2", NULL), ARENA_OK, "%s", err);
    cr_expect_eq(a.c.n_graphs, 1);
    cr_expect_str_eq(a.c.graphs[0], "mobilenetv2");
    cr_expect_eq(a.c.n_planners, arena_planner_count(), "all planners by default");
    for (size_t i = 0; i < a.c.n_planners; i++) cr_expect_eq(a.c.planners[i], arena_planner_at(i));
    cr_expect_str_eq(a.format->name, "table");
    cr_expect_eq(a.c.options.time_limit, 10.0, "search planners get 10 s per problem");
    cr_expect_eq(a.c.options.node_limit, 0);
    cr_expect_eq(a.c.options.capacity, 0);
    cr_expect_eq(a.c.options.seed, 1, "--seed feeds the planners' seed");
    cr_expect_str_eq(a.c.db, "results/arenabench.sqlite");
    cr_expect_eq(a.c.seed, 1);
    cr_expect_eq(a.c.alignment, 16);
    cr_expect_eq(a.repetitions, 5);
    cr_expect_not(a.repetitions_set);
    cr_expect_eq(a.min_time, 0.01);
    cr_expect_not(a.c.quiet || a.c.help || a.c.version || a.no_placements);
    cr_expect_eq(a.command, ARENA_BENCH_RUN);
    cr_expect_eq(a.n_gbench_flags, 0);
    arena_bench_args_free(&a);
}

Test(args, every_option_in_both_spellings)
{
    struct arena_bench_args a;
    char err[300] = "";
    cr_assert_eq(parse(&a, err, sizeof err, "--graph=chain", "--planner", "greedy-by-size,naive",
                       "--format=csv", "--db", "/tmp/x/y.sqlite", "--seed=9223372036854775807",
                       "--alignment", "64", "--repetitions=7", "--min-time", "0.5", "--quiet",
                       "--no-placements", NULL),
                 ARENA_OK, "%s", err);
    cr_expect_str_eq(a.c.graphs[0], "chain");
    cr_assert_eq(a.c.n_planners, 2);
    cr_expect_str_eq(a.c.planners[0]->name, "greedy-by-size", "the order given is kept");
    cr_expect_str_eq(a.c.planners[1]->name, "naive");
    cr_expect_str_eq(a.format->name, "csv");
    cr_expect_str_eq(a.c.db, "/tmp/x/y.sqlite");
    cr_expect_eq(a.c.seed, (uint64_t)INT64_MAX, "2^63-1, the largest seed the database stores");
    cr_expect_eq(a.c.options.seed, (uint64_t)INT64_MAX);
    cr_expect_eq(a.c.alignment, 64);
    cr_expect_eq(a.repetitions, 7);
    cr_expect(a.repetitions_set);
    cr_expect_eq(a.min_time, 0.5);
    cr_expect(a.min_time_set && a.c.quiet && a.no_placements);
    arena_bench_args_free(&a);

    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain", "--no-db", "--format", "json",
                       "--planner", "naive,naive,ping-pong,naive", NULL),
                 ARENA_OK, "%s", err);
    cr_expect_null(a.c.db);
    cr_expect_str_eq(a.format->name, "json");
    cr_expect_eq(a.c.n_planners, 2, "repeats are dropped");
    arena_bench_args_free(&a);

    /* "all" inside a list: the named one first, then the rest in registry
     * order, none twice. */
    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain", "--planner",
                       "interval-graph-coloring,all", NULL),
                 ARENA_OK, "%s", err);
    cr_assert_eq(a.c.n_planners, arena_planner_count());
    cr_expect_str_eq(a.c.planners[0]->name, "interval-graph-coloring");
    for (size_t i = 1; i < a.c.n_planners; i++)
        cr_expect_neq(a.c.planners[i], a.c.planners[0], "listed once");
    arena_bench_args_free(&a);
}

/* 512 KiB = 512 x 1024 = 524,288; 3 MiB = 3 x 1,048,576 = 3,145,728;
 * 1 GiB = 1,073,741,824; 2^33 - 1 GiB = 2^63 - 2^30, the largest multiple
 * of a GiB that fits. */
Test(args, search_options_and_byte_units)
{
    const struct { const char *v; uint64_t bytes; } cases[] = {
        {"100", 100}, {"7B", 7}, {"512KiB", 524288}, {"3MiB", 3145728},
        {"1GiB", 1073741824}, {"8589934591GiB", ((uint64_t)1 << 63) - ((uint64_t)1 << 30)},
        {"9223372036854775807", (uint64_t)INT64_MAX}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct arena_bench_args a;
        char err[300] = "";
        cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain", "--capacity", cases[c].v,
                           "--time-limit=2.5", "--node-limit", "1000", "--seed", "9", NULL),
                     ARENA_OK, "%s: %s", cases[c].v, err);
        cr_expect_eq(a.c.options.capacity, cases[c].bytes, "%s", cases[c].v);
        cr_expect_eq(a.c.options.time_limit, 2.5);
        cr_expect_eq(a.c.options.node_limit, 1000);
        cr_expect_eq(a.c.options.seed, 9);
        arena_bench_args_free(&a);
    }
}

Test(args, list_help_and_version_need_no_graph)
{
    struct arena_bench_args a;
    cr_expect_eq(parse(&a, NULL, 0, "--list", NULL), ARENA_OK);
    cr_expect_eq(a.command, ARENA_BENCH_LIST);
    arena_bench_args_free(&a);
    cr_expect_eq(parse(&a, NULL, 0, "--help", NULL), ARENA_OK);
    cr_expect(a.c.help);
    arena_bench_args_free(&a);
    cr_expect_eq(parse(&a, NULL, 0, "-h", NULL), ARENA_OK);
    cr_expect(a.c.help);
    arena_bench_args_free(&a);
    cr_expect_eq(parse(&a, NULL, 0, "--version", NULL), ARENA_OK);
    cr_expect(a.c.version);
    arena_bench_args_free(&a);
    cr_expect(strstr(help_of(""), "--graph") != NULL);
    cr_expect(strstr(help_of(""), "--inplace none|elementwise|depthwise") != NULL);
    /* --help names the other commands, each of which bench dispatches. */
    const char *sub = strstr(help_of(""), "\nCommands:\n");
    cr_assert_not_null(sub, "%s", help_of(""));
    const char *names[] = {"run", "list", "export", "replay", "merge", "stats", "plot", "help"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char line[32];
        snprintf(line, sizeof line, "\n  %s ", names[i]);
        cr_expect(strstr(sub, line), "--help does not name the command %s", names[i]);
    }
}

Test(args, google_benchmark_flags_pass_through_in_order)
{
    struct arena_bench_args a;
    char err[300] = "";
    cr_assert_eq(parse(&a, err, sizeof err, "--benchmark_repetitions=9", "--graph", "chain",
                       "--benchmark_out=/tmp/o.json", "--benchmark_out_format=json", NULL),
                 ARENA_OK, "%s", err);
    cr_assert_eq(a.n_gbench_flags, 3);
    cr_expect_str_eq(a.gbench_flags[0], "--benchmark_repetitions=9");
    cr_expect_str_eq(a.gbench_flags[1], "--benchmark_out=/tmp/o.json");
    cr_expect_str_eq(a.gbench_flags[2], "--benchmark_out_format=json");
    arena_bench_args_free(&a);
}

struct split_case {
    const char *text;
    size_t n;
    const char *items[4];
};

/* The list rule: ';' always separates; ',' separates unless the next piece
 * is key=value (an '=' before any ':'). */
static const struct split_case splits[] = {
    {"mobilenetv2", 1, {"mobilenetv2"}},
    {"mobilenetv2:alpha=0.35,res=96,dtype=int8", 1, {"mobilenetv2:alpha=0.35,res=96,dtype=int8"}},
    {"chain:ops=8,unet", 2, {"chain:ops=8", "unet"}},
    {"mobilenetv2,data/net.csv", 2, {"mobilenetv2", "data/net.csv"}},
    {"chain:ops=8,seed=3,residual:ops=4,skip=2", 2, {"chain:ops=8,seed=3", "residual:ops=4,skip=2"}},
    {"all,scaling", 2, {"all", "scaling"}},
    {"a;b:x=1,y=2;c", 3, {"a", "b:x=1,y=2", "c"}},
    {"x.csv;dir/a=b.csv", 2, {"x.csv", "dir/a=b.csv"}},
    {"random-intervals:n=1000,live=10,random-intervals:n=10,live=1000", 2,
     {"random-intervals:n=1000,live=10", "random-intervals:n=10,live=1000"}},
};

Test(args, graph_list_rule)
{
    for (size_t c = 0; c < sizeof splits / sizeof splits[0]; c++) {
        char **items = NULL;
        size_t n = 0;
        char err[200] = "";
        cr_assert_eq(arena_bench_graph_split(splits[c].text, &items, &n, err, sizeof err),
                     ARENA_OK, "%s: %s", splits[c].text, err);
        cr_expect_eq(n, splits[c].n, "%s: %zu items", splits[c].text, n);
        for (size_t i = 0; i < n && i < splits[c].n; i++)
            cr_expect_str_eq(items[i], splits[c].items[i], "%s item %zu", splits[c].text, i);
        for (size_t i = 0; i < n; i++) free(items[i]);
        free(items);
    }
}

Test(args, repeated_graph_options_add_up)
{
    struct arena_bench_args a;
    char err[300] = "";
    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain:ops=4,min=8", "--graph",
                       "unet;transformer", NULL),
                 ARENA_OK, "%s", err);
    cr_assert_eq(a.c.n_graphs, 3);
    cr_expect_str_eq(a.c.graphs[0], "chain:ops=4,min=8");
    cr_expect_str_eq(a.c.graphs[1], "unet");
    cr_expect_str_eq(a.c.graphs[2], "transformer");
    arena_bench_args_free(&a);
}

Test(args, aggregates_only_flags_pass_only_when_false)
{
    struct arena_bench_args a;
    char err[400] = "";
    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain",
                       "--benchmark_report_aggregates_only=false",
                       "--benchmark_display_aggregates_only=0", NULL),
                 ARENA_OK, "%s", err);
    cr_expect_eq(a.n_gbench_flags, 2);
    arena_bench_args_free(&a);
}

struct bad_case {
    const char *args[4];
    const char *says; /* the message must contain this */
};

static const struct bad_case bad[] = {
    {{"--graph", "chain", "--order", "Best"}, "--order: 'Best' is not one of stored, best"},
    {{"--graph", "chain", "--progress", "sometimes"}, "--progress: 'sometimes' is not one of auto, always, never"},
    {{"--graph", "chain", "--progress", NULL}, "--progress needs a value"},
    {{"--graph", "chain", "--order-states", "0"}, "--order-states: '0' is not in 1..4294967294"},
    {{"--graph", "chain", "--order-states", "4294967295"}, "--order-states: '4294967295' is not in 1..4294967294"},
    {{"--graph", "", NULL}, "--graph: empty value"},
    {{"--graph", ",chain", NULL}, "--graph: empty item"},
    {{"--graph", "chain,,unet", NULL}, "--graph: empty item"},
    {{"--graph", "chain,", NULL}, "--graph: empty item"},
    {{"--graph", "chain;", NULL}, "--graph: empty item"},
    {{"--graph", NULL}, "--graph needs a value"},
    {{"--graph", "chain", "--frobnicate", NULL}, "unknown option '--frobnicate'"},
    {{"--graph", "chain", "mobilenetv2", NULL}, "unexpected argument 'mobilenetv2'"},
    {{"--graph", "chain", "--quiet=1", NULL}, "--quiet takes no value"},
    {{"--graph", "chain", "--format", "xml"}, "--format: 'xml' is not one of table, csv, json"},
    {{"--graph", "chain", "--export-csv", ""}, "--export-csv: empty folder name"},
    {{"--graph", "chain", "--seed", "-1"}, "--seed: '-1' is not a non-negative integer"},
    {{"--graph", "chain", "--seed", "12ab"}, "--seed: '12ab' is not a non-negative integer"},
    {{"--graph", "chain", "--seed", "18446744073709551616"},
     "--seed: '18446744073709551616' is above 2^63-1, the largest integer the results database"},
    /* One rule for big values: what the database cannot store is refused
     * where it enters. 2^63 = 9223372036854775808. */
    {{"--graph", "chain", "--seed", "9223372036854775808"}, "--seed: '9223372036854775808' is above 2^63-1"},
    {{"--graph", "chain", "--seed", "18446744073709551615"}, "--seed: '18446744073709551615' is above 2^63-1"},
    /* A forgotten value: the next option is not taken as one. */
    {{"--graph", "chain", "--db", "--no-db"}, "--db: '--no-db' looks like an option, not a value"},
    {{"--graph", "--planner", "naive", NULL}, "--graph: '--planner' looks like an option"},
    {{"--graph", "chain", "--format", "--quiet"}, "--format: '--quiet' looks like an option"},
    {{"--graph", "chain", "--export-csv=--x", NULL}, "--export-csv: '--x' looks like an option"},
    /* Google Benchmark flags that would measure nothing. */
    {{"--graph", "chain", "--benchmark_repetitions=0", NULL},
     "--benchmark_repetitions: '0' is not in 1..1000 (a run must measure something)"},
    {{"--graph", "chain", "--benchmark_min_time=-1", NULL},
     "--benchmark_min_time: '-1' is not a number of seconds in (0, 3600]"},
    {{"--graph", "chain", "--benchmark_min_time=x", NULL}, "--benchmark_min_time: 'x' is not"},
    /* The search options. */
    {{"--graph", "chain", "--time-limit", "0"}, "--time-limit: '0' is not a number of seconds"},
    {{"--graph", "chain", "--time-limit", "soon"}, "--time-limit: 'soon' is not a number"},
    {{"--graph", "chain", "--node-limit", "0"}, "--node-limit: '0' is not at least 1"},
    {{"--graph", "chain", "--node-limit", "9223372036854775808"}, "--node-limit: '9223372036854775808' is above 2^63-1"},
    {{"--graph", "chain", "--capacity", "0"}, "--capacity: '0' is not at least 1 byte"},
    {{"--graph", "chain", "--capacity", "512kB"}, "--capacity: '512kB' is not a byte count (digits, then B, KiB, MiB or GiB)"},
    {{"--graph", "chain", "--capacity", "KiB"}, "--capacity: 'KiB' is not a byte count"},
    /* 2^33 GiB = 2^63 B: one byte too many. */
    {{"--graph", "chain", "--capacity", "8589934592GiB"}, "--capacity: '8589934592GiB' is above 2^63-1 bytes"},
    {{"--graph", "chain", "--optimal-off", "twins"},
     "--optimal-off is gone: write --planner optimal:off=RULE+RULE"},
    {{"--graph", "chain", "--optimal-engine=sat"},
     "--optimal-engine is gone: write --planner optimal:engine=NAME"},
    {{"--graph", "chain", "--planner", "optimal:off=sectoin"},
     "--planner optimal: key 'off': 'sectoin' is not one of parts, groups, section"},
    {{"--graph", "chain", "--planner", "optimal:engine=cp"},
     "--planner optimal: key 'engine': 'cp' is not one of portfolio, search, sat, lcg"},
    {{"--graph", "chain", "--planner", "optimal:of=twins"},
     "--planner optimal: unknown key 'of' (valid: engine, off)"},
    {{"--planner", "naive", NULL}, "no --graph given"},
    {{NULL}, "no --graph given"},
};

/* Planner optimal's keys: engine (each of planners/optimal.h by name, the
 * portfolio by default) and off (a set of its rules, none by default); its
 * canonical spec names both. */
Test(args, optimal_keys_name_the_engines_and_rules)
{
    struct arena_bench_args a;
    char err[300] = "";
    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain", "--planner", "optimal", NULL),
                 ARENA_OK, "%s", err);
    cr_assert_eq(a.c.n_planners, 1u);
    cr_assert_not_null(a.c.origins[0].values);
    cr_expect_eq(a.c.origins[0].values[ARENA_OPTIMAL_KEY_ENGINE].choice,
                 ARENA_OPTIMAL_ENGINE_PORTFOLIO);
    cr_expect_eq(a.c.origins[0].values[ARENA_OPTIMAL_KEY_OFF].choice, 0, "every rule on");
    cr_expect_str_eq(a.c.origins[0].spec, "optimal:engine=portfolio,off=none");
    arena_bench_args_free(&a);
    for (uint32_t e = 0; e < ARENA_OPTIMAL_ENGINES; e++) {
        char item[64];
        snprintf(item, sizeof item, "optimal:engine=%s", arena_optimal_engine_name(e));
        cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain", "--planner", item, NULL),
                     ARENA_OK, "%s: %s", item, err);
        cr_expect_eq(a.c.origins[0].values[ARENA_OPTIMAL_KEY_ENGINE].choice, e, "%s", item);
        arena_bench_args_free(&a);
    }
    for (size_t i = 0; i < arena_optimal_switch_count; i++) {
        char item[64];
        snprintf(item, sizeof item, "optimal:off=%s", arena_optimal_switches[i].name);
        cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain", "--planner", item, NULL),
                     ARENA_OK, "%s: %s", item, err);
        struct arena_key_value want[ARENA_OPTIMAL_KEYS];
        arena_optimal_values(want, 0, arena_optimal_switches[i].bit);
        cr_expect_eq(a.c.origins[0].values[ARENA_OPTIMAL_KEY_OFF].choice,
                     want[ARENA_OPTIMAL_KEY_OFF].choice, "%s", item);
        arena_bench_args_free(&a);
    }
    /* two configurations of one planner run side by side (stored apart by
     * their specs); the same configuration twice runs once */
    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain", "--planner",
                       "optimal:off=twins+section,engine=sat,optimal,"
                       "optimal:engine=portfolio,naive",
                       NULL),
                 ARENA_OK, "%s", err);
    cr_assert_eq(a.c.n_planners, 3u);
    cr_expect_str_eq(a.c.origins[0].spec, "optimal:engine=sat,off=section+twins");
    cr_expect_str_eq(a.c.origins[1].spec, "optimal:engine=portfolio,off=none");
    cr_expect_str_eq(a.c.origins[2].spec, "naive");
    arena_bench_args_free(&a);
}

Test(args, every_error_is_one_line_naming_the_option)
{
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
        char *argv[6];
        char storage[6][64];
        int argc = 0;
        strcpy(storage[0], "bench");
        argv[argc] = storage[argc];
        argc++;
        for (size_t i = 0; i < 4 && bad[c].args[i]; i++) {
            snprintf(storage[argc], sizeof storage[argc], "%s", bad[c].args[i]);
            argv[argc] = storage[argc];
            argc++;
        }
        argv[argc] = NULL;
        struct arena_bench_args a;
        char err[400] = "";
        cr_expect_eq(arena_bench_args_parse(argc, argv, &a, err, sizeof err), ARENA_EINVAL,
                     "case %zu", c);
        cr_expect(strstr(err, bad[c].says) != NULL, "case %zu: '%s' lacks '%s'", c, err,
                  bad[c].says);
        cr_expect_null(strchr(err, '\n'), "case %zu: one line", c);
        arena_bench_args_free(&a);
    }
}

Test(args, suites)
{
    size_t n = 0;
    const char *const *all = arena_bench_suite("all", &n);
    cr_assert(all);
    cr_expect(n >= 14, "every family at a few sizes");
    const char *families[] = {"mobilenetv2", "chain", "residual", "unet", "transformer",
                              "random-dag", "random-intervals"};
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++) {
        size_t found = 0, len = strlen(families[f]);
        for (size_t i = 0; i < n; i++)
            if (strncmp(all[i], families[f], len) == 0 && (all[i][len] == ':' || !all[i][len]))
                found++;
        cr_expect(found >= 3, "%s appears %zu times in the all suite", families[f], found);
    }
    const char *const *scaling = arena_bench_suite("scaling", &n);
    cr_assert(scaling);
    cr_expect_eq(n, 8, "10^3..10^6 tensors x two live counts");
    cr_expect_str_eq(scaling[n - 1], "random-intervals:n=1000000,live=1000");
    cr_expect_null(arena_bench_suite("mobilenetv2", &n));
}

Test(args, shard_and_pin)
{
    struct arena_bench_args a;
    char err[300] = "";
    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain", NULL), ARENA_OK, "%s", err);
    cr_expect_eq(a.shard_n, 0, "no --shard: every job");
    cr_expect_eq(a.c.pin_cpu, -1, "no --pin: not pinned");
    arena_bench_args_free(&a);
    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain", "--shard", "3/4", "--pin=1", NULL),
                 ARENA_OK, "%s", err);
    cr_expect_eq(a.shard_k, 3);
    cr_expect_eq(a.shard_n, 4);
    cr_expect_eq(a.c.pin_cpu, 1);
    arena_bench_args_free(&a);
    const char *bad[] = {"0/4", "5/4", "1/0", "1", "1/", "/4", "a/b", "1/4x", "-1/4", "1/-4",
                         "1/100001", " 1/4"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        cr_expect_eq(parse(&a, err, sizeof err, "--graph", "chain", "--shard", bad[i], NULL),
                     ARENA_EINVAL, "--shard %s", bad[i]);
        cr_expect(strncmp(err, "--shard: ", 9) == 0 && !strchr(err, '\n'), "%s: %s", bad[i], err);
        arena_bench_args_free(&a);
    }
    cr_expect_eq(parse(&a, err, sizeof err, "--graph", "chain", "--shard", "1/2", "--replay",
                       "glibc", NULL), ARENA_EINVAL);
    cr_expect(strstr(err, "--shard splits planner jobs"), "%s", err);
    arena_bench_args_free(&a);
    cr_expect_eq(parse(&a, err, sizeof err, "--graph", "chain", "--pin", "x", NULL), ARENA_EINVAL);
    cr_expect(strncmp(err, "--pin: ", 7) == 0, "%s", err);
    arena_bench_args_free(&a);
}

Test(args, order_mode_and_budget)
{
    struct arena_bench_args a;
    char err[300] = "";
    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain", NULL), ARENA_OK, "%s", err);
    cr_expect_eq(a.c.order, ARENA_ORDER_STORED, "the stored order by default");
    cr_expect_eq(a.c.order_states, 0);
    arena_bench_args_free(&a);
    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain", "--order", "best",
                       "--order-states=1000", NULL),
                 ARENA_OK, "%s", err);
    cr_expect_eq(a.c.order, ARENA_ORDER_BEST);
    cr_expect_eq(a.c.order_states, 1000);
    arena_bench_args_free(&a);
    cr_expect(strstr(help_of(""), "--order-states N") != NULL);
}

Test(args, progress_mode)
{
    struct arena_bench_args a;
    char err[300] = "";
    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain", NULL), ARENA_OK, "%s", err);
    cr_expect_eq(a.c.progress, ARENA_PROGRESS_AUTO, "auto by default");
    arena_bench_args_free(&a);
    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain", "--progress", "never", NULL), ARENA_OK, "%s", err);
    cr_expect_eq(a.c.progress, ARENA_PROGRESS_NEVER);
    arena_bench_args_free(&a);
    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain", "--progress=always", "--quiet", NULL), ARENA_OK,
                 "%s", err);
    cr_expect_eq(a.c.progress, ARENA_PROGRESS_ALWAYS);
    cr_expect(a.c.quiet);
    arena_bench_args_free(&a);
    cr_expect(strstr(help_of(""), "--progress auto|always|never") != NULL);
}

Test(args, patch)
{
    struct arena_bench_args a;
    char err[300] = "";
    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "mobilenetv2", NULL), ARENA_OK, "%s", err);
    cr_expect_eq(a.c.patch.rows, 0, "no --patch: not patched");
    arena_bench_args_free(&a);
    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "mobilenetv2", "--patch", "3x2:13", NULL),
                 ARENA_OK, "%s", err);
    cr_expect(a.c.patch.rows == 3 && a.c.patch.cols == 2 && a.c.patch.k == 13);
    arena_bench_args_free(&a);
    cr_expect_eq(parse(&a, err, sizeof err, "--graph", "mobilenetv2", "--patch", "4x4", NULL),
                 ARENA_EINVAL);
    cr_expect(strncmp(err, "--patch: '4x4' is not RxC:K", 27) == 0 && !strchr(err, '\n'), "%s",
              err);
    arena_bench_args_free(&a);
    cr_expect(strstr(help_of(""), "--patch RxC:K") != NULL);
    cr_expect(strstr(help_of(""), "interrupted by SIGINT") != NULL, "both halves");
}

/* --planner NAME:key=value,...: the keys that follow a planner's ':' are
 * its own (a piece with '=' and no ':'), parsed against its table once
 * --seed is known; its canonical spec is the bare name when it has no keys;
 * a planner given twice with one canonical spec runs once; every error is
 * one line naming the planner, the key and the valid keys. */
Test(args, planner_keys)
{
    struct arena_bench_args a;
    char err[400] = "";
    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain", "--planner",
                       "naive,greedy-by-size,naive", NULL),
                 ARENA_OK, "%s", err);
    cr_assert_eq(a.c.n_planners, 2u);
    cr_expect_str_eq(a.c.origins[0].spec, "naive");
    cr_expect_str_eq(a.c.origins[1].spec, "greedy-by-size:ties=first"); /* every key */
    cr_expect_null(a.c.origins[0].values);
    cr_expect_not_null(a.c.origins[1].values);
    arena_bench_args_free(&a);
    static const struct {
        const char *planners, *says;
    } bad[] = {
        {"naive:beam=8", "--planner naive: unknown key 'beam' (valid: none, it has no keys)"},
        {"naive,beam=8", "--planner: 'beam=8' is a key with no planner before it"},
        {"beam=8", "--planner: 'beam=8' is a key with no planner before it"},
        {"cmd:x:Beam=1=true", "--planner cmd:x: keys are key=value pairs"},
        {"cmd:x:beam=1,beam=2=true", "--planner cmd:x: key 'beam' given twice"},
        {"cmd:x:beam= 1=true", "--planner cmd:x: key 'beam': a value is 1 or more"},
    };
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
        err[0] = '\0';
        cr_expect_neq(parse(&a, err, sizeof err, "--graph", "chain", "--planner",
                            bad[c].planners, NULL),
                      ARENA_OK, "%s", bad[c].planners);
        cr_expect(strstr(err, bad[c].says) != NULL, "'%s' lacks '%s'", err, bad[c].says);
        cr_expect_null(strchr(err, '\n'));
        arena_bench_args_free(&a);
    }
    /* a program's keys: in name order in its spec, the command after them */
    cr_assert_eq(parse(&a, err, sizeof err, "--graph", "chain", "--planner",
                       "cmd:mine:z=1,beam=8.5=python3 x.py --a=b,c", NULL),
                 ARENA_OK, "%s", err);
    cr_assert_eq(a.c.n_planners, 1u);
    cr_expect_str_eq(a.c.origins[0].spec, "mine:beam=8.5,z=1");
    cr_expect_str_eq(a.c.origins[0].command, "python3 x.py --a=b,c");
    arena_bench_args_free(&a);
}

/* bench list planners: the planners alone; any other word is refused. */
Test(args, list_planners)
{
    struct arena_bench_args a;
    char err[300] = "";
    char a0[] = "list", a1[] = "planners", a2[] = "plans";
    char *ok[] = {a0, a1, NULL}, *bad[] = {a0, a2, NULL};
    cr_assert_eq(arena_bench_args_parse_command(ARENA_BENCH_LIST, 2, ok, &a, err, sizeof err),
                 ARENA_OK, "%s", err);
    cr_expect_str_eq(a.list_only, "planners");
    arena_bench_args_free(&a);
    cr_expect_eq(arena_bench_args_parse_command(ARENA_BENCH_LIST, 2, bad, &a, err, sizeof err),
                 ARENA_EINVAL);
    cr_expect_str_eq(err, "bench list plans: list what? (bench list, or bench list planners)");
    arena_bench_args_free(&a);
}
