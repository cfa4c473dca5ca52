/* args.c — bench's options: `--name value` or `--name=value`, flags without
 * values, Google Benchmark's `--benchmark_*` flags collected to pass on. */
#include "bench/args.h"
#include "bench/replay.h"
#include "graphs/sweep.h"
#include "planners/optimal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* In parts: ISO C guarantees string literals of 4,095 bytes only. */
static const char usage_head[] =
    "usage: bench --graph LIST [--planner LIST] [options] [--benchmark_* ...]\n"
    "       bench --list | --help | --version\n"
    "\n"
    "Plans every graph with every chosen planner, checks each plan with the\n"
    "independent validator, times the planner with Google Benchmark, prints a\n"
    "table and stores every result in SQLite.\n"
    "\n"
    "  --graph LIST       graphs to plan: a spec family:key=value,..., a problem or\n"
    "                     graph file, a suite (all, scaling, models, exact,\n"
    "                     exact-slack), or a list;\n"
    "                     ';' separates items, and so does ',' unless what follows\n"
    "                     it is key=value (an '=' before any ':'); repeatable;\n"
    "                     a sweep: values a|b|c and integer ranges A..B in a spec,\n"
    "                     e.g. random-intervals:n=100|1000,seed=1..30, stand for\n"
    "                     every combination (the first key varies slowest)\n"
    "  --planner LIST     comma list of planner names, or all (default all)\n"
    "  --list             print the graph families with their parameters and the\n"
    "                     planners with their summaries\n"
    "  --format FMT       table (default), csv or json, on stdout; with --list, csv\n"
    "                     prints the planners as name,kind,summary\n"
    "  --db PATH          results database (default " ARENA_BENCH_DB_DEFAULT ");\n"
    "                     created with its directory when missing\n"
    "  --no-db            store nothing\n"
    "  --no-placements    store results without the per-tensor placements\n"
    "  --export-plan DIR  plan each graph with each planner (untimed, validated)\n"
    "                     and write DIR/GRAPH-FP-PLANNER.csv, .h and .c (a C\n"
    "                     library: one arena, head | activations | tail)\n"
    "  --export-tflite D  the same plans as .tflite copies with TFLM's offline plan\n"
    "  --head N, --tail N bytes of model metadata before, scratch after the\n"
    "                     activations in --export-plan headers (default 0)\n"
    "  --export-csv DIR   write each graph's problem into DIR as a MiniMalloc CSV\n"
    "                     (id,lower,upper,size) and exit: nothing is planned\n"
    "  --seed N           default seed for families with a seed key, and the seed of\n"
    "                     randomised planners (default 1; at most 2^63-1)\n"
    "  --time-limit S     seconds per search planner call or replay (default 10)\n"
    "  --node-limit N     search nodes per problem for search planners (default: the\n"
    "                     planner's own; optimal counts its SAT engine's conflicts\n"
    "                     as nodes)\n"
    "  --capacity BYTES   decision mode for search planners: find a plan within BYTES\n"
    "                     or prove there is none (suffix KiB, MiB, GiB: 1 KiB = 1024)\n";
/* The rest in more literals: ISO C promises 4,095 characters in one. */
static const char usage_mid[] =
    "  --optimal-off LIST switch rules of the planner optimal off, to measure what\n"
    "                     each prunes (its nodes); comma list of: parts, groups,\n"
    "                     section, busiest, dominance, twins, stack, lowest-gap,\n"
    "                     filler, discrepancy, repair, depth-discrepancy,\n"
    "                     gap-discrepancy, own-times, probes, rerank, and its SAT\n"
    "                     engine's sat-domains, sat-tiling, sat-phases\n"
    "                     (planners/optimal.h); needs --no-db,\n"
    "                     as the database would store the runs as plain optimal\n"
    "  --optimal-engine E the planner optimal's engines: portfolio (default: the\n"
    "                     search, then SAT, in turn), search (the canonical\n"
    "                     searches alone) or sat (the SAT engine alone, CaDiCaL)\n"
    "  --alignment N      bytes, a power of two; sizes round up to it (default 16)\n"
    "  --order MODE       execution order of a graph's ops: stored (default, the\n"
    "                     graph's own) or best (the order of least peak live\n"
    "                     bytes, proven: a certificate, else an exact search\n"
    "                     over the sets of ops already run; past --order-states\n"
    "                     a heuristic order with its proven lower bound)\n"
    "  --order-states N   states the best-order search may keep (default 2000000,\n"
    "                     at most 256 MiB of them)\n"
    "  --inplace RULE     ops that may write their output over an input that dies\n"
    "                     there: none (default), elementwise (add, sub, mul,\n"
    "                     activations, reshapes, (de)quantize, softmax, equal sizes)\n"
    "                     or depthwise (elementwise and depthwise convolutions,\n"
    "                     output inside its input); planners plan each chain of\n"
    "                     such ops as one tensor\n"
    "  --patch RxC:K[:stream]  patch-based inference (MCUNetV2): the first K ops\n"
    "                     run per patch of an R x C grid over their output, with\n"
    "                     the halo each patch needs, the output assembled whole;\n"
    "                     :stream reads the input per patch instead of whole;\n"
    "                     graph families whose ops state windows only (mobilenetv2)\n";
static const char usage_tail[] =
    "  --repetitions N    Google Benchmark repetitions per planner x graph\n"
    "                     (default 5; 3 for problems of 100,000+ tensors)\n"
    "  --min-time S       minimum seconds per repetition (default 0.01); search\n"
    "                     planners are timed by one call instead\n"
    "  --replay LIST      instead of planning, replay each graph with real\n"
    "                     allocators (glibc, jemalloc, mimalloc, or all), each in a\n"
    "                     process of its own; stored in the replays table\n"
    "  --frames N         frames per replay (default 100)\n"
    "  --founding-table   the table of the article the project began from, measured:\n"
    "                     malloc per tensor (every allocator), ping-pong, the best\n"
    "                     static plan; one MobileNetV2 graph brings its other fusion;\n"
    "                     its replays and plans are stored as one run\n"
    "  --shard K/N        run part K (1..N) of the graph x planner jobs, split by a\n"
    "                     hash of spec and planner name (bench merge joins parts)\n"
    "  --pin CPU          pin the measuring thread to CPU number CPU\n"
    "  --quiet            print nothing but errors (results are still stored)\n"
    "  --help, --version\n"
    "  --benchmark_...    passed to Google Benchmark, e.g. --benchmark_out=FILE\n"
    "                     --benchmark_out_format=json, --benchmark_repetitions=N\n"
    "\n"
    "Exit status: 0 every plan valid, 1 some plan invalid (stored as invalid),\n"
    "2 usage, input, output or database error, or nothing measured, 130/143\n"
    "interrupted by SIGINT/SIGTERM.\n";

const char *arena_bench_usage(void)
{
    /* joined once; bench asks from one thread */
    static const char *const parts[] = {usage_head, usage_mid, usage_tail};
    static char text[sizeof usage_head + sizeof usage_mid + sizeof usage_tail];
    if (text[0] == '\0') {
        size_t at = 0;
        for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
            size_t len = strlen(parts[i]);
            memcpy(text + at, parts[i], len + 1);
            at += len;
        }
    }
    return text;
}

/* A comma-separated piece continues the previous spec when it is key=value. */
static int continues_spec(const char *piece, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (piece[i] == ':') return 0;
        if (piece[i] == '=') return 1;
    }
    return 0;
}

/* One ';'-free part: pieces between commas; a key=value piece joins the item
 * before it, any other piece starts a new item. The first piece always
 * starts one (so a path that happens to hold '=' still works after ';'). */
static int split_part(const char *part, size_t len, char ***items, size_t *n, char *err,
                      size_t errlen)
{
    size_t item = 0; /* start of the current item */
    size_t piece = 0;
    for (;;) {
        size_t end = piece;
        while (end < len && part[end] != ',') end++;
        if (end == piece)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--graph: empty item in '%.*s'", (int)len, part);
        if (piece != item && !continues_spec(part + piece, end - piece)) {
            if (arena_sweep_append(items, n, part + item, piece - 1 - item) != ARENA_OK)
                return ARENA_ENOMEM;
            item = piece;
        }
        if (end == len) break;
        piece = end + 1;
        if (piece == len) /* trailing comma */
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--graph: empty item in '%.*s'", (int)len, part);
    }
    return arena_sweep_append(items, n, part + item, len - item);
}

int arena_bench_graph_split(const char *text, char ***items, size_t *n, char *err, size_t errlen)
{
    if (!text || !text[0]) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--graph: empty value");
    const char *p = text;
    for (;;) {
        const char *semi = strchr(p, ';');
        size_t len = semi ? (size_t)(semi - p) : strlen(p);
        if (len == 0) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--graph: empty item in '%s'", text);
        int rc = split_part(p, len, items, n, err, errlen);
        if (rc != ARENA_OK) return rc;
        if (!semi) return ARENA_OK;
        p = semi + 1;
    }
}

/* A decimal integer in 0..max; above ARENA_BENCH_INT_MAX the message says
 * why (the database stores signed 64-bit integers). */
static int parse_u64(const char *opt, const char *v, uint64_t max, uint64_t *out, char *err,
                     size_t errlen)
{
    char *end = NULL;
    errno = 0;
    if (!v[0] || v[0] == '-' || v[0] == '+' || v[0] == ' ')
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: '%s' is not a non-negative integer", opt, v);
    unsigned long long x = strtoull(v, &end, 10);
    if (*end) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: '%s' is not a non-negative integer", opt, v);
    if (errno == ERANGE || x > max) {
        if (max == ARENA_BENCH_INT_MAX)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "%s: '%s' is above 2^63-1, the largest integer the results"
                                " database stores",
                                opt, v);
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: '%s' is too large", opt, v);
    }
    *out = (uint64_t)x;
    return ARENA_OK;
}

/* Google Benchmark's *_aggregates_only flags keep the repetitions from the
 * reporter bench reads its figures from; only their false values are safe
 * (Google Benchmark reads a bare flag as true). */
static int hides_repetitions(const char *arg)
{
    static const char *const names[] = {"--benchmark_report_aggregates_only",
                                        "--benchmark_display_aggregates_only"};
    static const char *const falses[] = {"0", "f", "false", "n", "no", "off",
                                         "F", "False", "FALSE", "N", "No", "NO", "Off", "OFF"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t len = strlen(names[i]);
        if (strncmp(arg, names[i], len) != 0 || (arg[len] != '\0' && arg[len] != '=')) continue;
        if (arg[len] == '\0') return 1;
        for (size_t k = 0; k < sizeof falses / sizeof falses[0]; k++)
            if (strcmp(arg + len + 1, falses[k]) == 0) return 0;
        return 1;
    }
    return 0;
}

static int add_planner(struct arena_bench_args *a, const struct arena_planner *pl)
{
    for (size_t i = 0; i < a->n_planners; i++)
        if (a->planners[i] == pl) return ARENA_OK;
    const struct arena_planner **grown =
        realloc(a->planners, (a->n_planners + 1) * sizeof *grown);
    if (!grown) return ARENA_ENOMEM;
    grown[a->n_planners++] = pl;
    a->planners = grown;
    return ARENA_OK;
}

/* A comma list of names; "all" anywhere in it stands for every planner in
 * registry order (so "greedy-by-size,all" puts that one first). */
static int parse_planners(struct arena_bench_args *a, const char *v, char *err, size_t errlen)
{
    const char *p = v;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char name[96];
        if (len == 0 || len >= sizeof name)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--planner: bad item in '%s'", v);
        memcpy(name, p, len);
        name[len] = '\0';
        if (strcmp(name, "all") == 0) {
            for (size_t i = 0; i < arena_planner_count(); i++)
                if (add_planner(a, arena_planner_at(i)) != ARENA_OK) return ARENA_ENOMEM;
            if (!comma) return ARENA_OK;
            p = comma + 1;
            continue;
        }
        const struct arena_planner *pl = arena_planner_find(name);
        if (!pl) {
            char known[512] = "";
            for (size_t i = 0; i < arena_planner_count(); i++) {
                size_t used = strlen(known);
                snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                         arena_planner_at(i)->name);
            }
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--planner: unknown planner '%s' (known: %s, or all)", name,
                        known);
        }
        if (add_planner(a, pl) != ARENA_OK) return ARENA_ENOMEM;
        if (!comma) return ARENA_OK;
        p = comma + 1;
    }
}

/* Seconds in (0, max]: a plain decimal number. */
static int parse_seconds(const char *opt, const char *v, double max, double *out, char *err,
                         size_t errlen)
{
    char *end = NULL;
    errno = 0;
    double s = strtod(v, &end);
    if (!v[0] || *end || errno || !isfinite(s) || s <= 0 || s > max)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: '%s' is not a number of seconds in (0, %g]", opt, v, max);
    *out = s;
    return ARENA_OK;
}

/* BYTES with an optional unit B, KiB, MiB or GiB (1 KiB = 1024 B); at least
 * 1 and at most 2^63-1 bytes. */
static int parse_bytes(const char *opt, const char *v, uint64_t *out, char *err, size_t errlen)
{
    static const struct { const char *unit; unsigned shift; } units[] = {
        {"", 0}, {"B", 0}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}};
    size_t digits = 0;
    while (v[digits] >= '0' && v[digits] <= '9') digits++;
    size_t u = 0, count = sizeof units / sizeof units[0];
    while (u < count && strcmp(v + digits, units[u].unit) != 0) u++;
    if (digits == 0 || digits > 19 || u == count)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: '%s' is not a byte count (digits, then B, KiB, MiB or GiB)",
                            opt, v);
    uint64_t x = strtoull(v, NULL, 10);
    if (x == 0) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: '%s' is not at least 1 byte", opt, v);
    if (x > (ARENA_BENCH_INT_MAX >> units[u].shift))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: '%s' is above 2^63-1 bytes, the largest integer the results"
                            " database stores",
                            opt, v);
    *out = x << units[u].shift;
    return ARENA_OK;
}

/* The Google Benchmark flags that could leave nothing measured are checked
 * here, at the front door: --benchmark_repetitions must be 1..1000 and
 * --benchmark_min_time a positive number of seconds (an 's' may follow). */
static int check_gbench_flag(const char *arg, char *err, size_t errlen)
{
    const char *eq = strchr(arg, '=');
    if (!eq) return ARENA_OK;
    size_t len = (size_t)(eq - arg);
    const char *v = eq + 1;
    if (len == 23 && strncmp(arg, "--benchmark_repetitions", len) == 0) {
        char *end = NULL;
        errno = 0;
        long n = strtol(v, &end, 10);
        if (!v[0] || *end || errno || n < 1 || n > 1000)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "%s: '%s' is not in 1..1000 (a run must measure something)",
                                "--benchmark_repetitions", v);
    } else if (len == 20 && strncmp(arg, "--benchmark_min_time", len) == 0) {
        char *end = NULL;
        errno = 0;
        double s = strtod(v, &end);
        if (*end == 's') end++;
        if (!v[0] || *end || errno || !isfinite(s) || s <= 0 || s > 3600)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "%s: '%s' is not a number of seconds in (0, 3600]",
                                "--benchmark_min_time", v);
    }
    return ARENA_OK;
}

/* K/N with 1 <= K <= N <= 100000. */
static int parse_shard(const char *v, unsigned *k, unsigned *n, char *err, size_t errlen)
{
    unsigned long long kk = 0, nn = 0;
    int used = 0;
    if (v[0] < '0' || v[0] > '9' || sscanf(v, "%llu/%llu%n", &kk, &nn, &used) != 2 ||
        v[used] != '\0' || !strchr(v, '/') || strchr(v, '/')[1] < '0' || strchr(v, '/')[1] > '9')
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--shard: '%s' is not K/N (e.g. 1/4)", v);
    if (nn < 1 || nn > 100000 || kk < 1 || kk > nn)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--shard: '%s' needs 1 <= K <= N <= 100000 (parts count from 1)", v);
    *k = (unsigned)kk;
    *n = (unsigned)nn;
    return ARENA_OK;
}

/* --optimal-off: a comma list of rule names (planners/optimal.h); repeated
 * options add up. */
static int parse_optimal_off(const char *v, uint32_t *bits, char *err, size_t errlen)
{
    for (const char *p = v;;) {
        size_t len = strcspn(p, ",");
        const struct arena_optimal_switch *sw = arena_optimal_switch_find(p, len);
        if (!sw) {
            char known[256] = "";
            for (size_t i = 0; i < arena_optimal_switch_count; i++) {
                size_t used = strlen(known);
                snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                         arena_optimal_switches[i].name);
            }
            if (len == 0)
                return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                    "--optimal-off: empty item in '%s' (known: %s)", v, known);
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "--optimal-off: unknown rule '%.*s' (known: %s)", (int)len, p,
                                known);
        }
        *bits |= sw->bit;
        if (p[len] == '\0')
            return ARENA_OK;
        p += len + 1;
    }
}

enum opt {
    O_EXPORT_PLAN, O_EXPORT_TFLITE, O_HEAD, O_TAIL,
    O_GRAPH, O_PLANNER, O_FORMAT, O_DB, O_SEED, O_ALIGNMENT, O_REPETITIONS, O_MIN_TIME,
    O_TIME_LIMIT, O_NODE_LIMIT, O_CAPACITY, O_OPTIMAL_OFF, O_OPTIMAL_ENGINE, O_INPLACE,
    O_NO_DB, O_NO_PLACEMENTS, O_EXPORT_CSV, O_QUIET, O_LIST, O_HELP, O_VERSION,
    O_REPLAY, O_FRAMES, O_FOUNDING, O_SHARD, O_PIN, O_PATCH, O_ORDER, O_ORDER_STATES
};

static const struct {
    const char *name;
    enum opt id;
    int takes_value;
} options[] = {
    {"--graph", O_GRAPH, 1},         {"--planner", O_PLANNER, 1},
    {"--format", O_FORMAT, 1},       {"--db", O_DB, 1},
    {"--seed", O_SEED, 1},           {"--alignment", O_ALIGNMENT, 1},
    {"--repetitions", O_REPETITIONS, 1}, {"--min-time", O_MIN_TIME, 1},
    {"--time-limit", O_TIME_LIMIT, 1}, {"--node-limit", O_NODE_LIMIT, 1},
    {"--capacity", O_CAPACITY, 1},   {"--optimal-off", O_OPTIMAL_OFF, 1},
    {"--optimal-engine", O_OPTIMAL_ENGINE, 1},
    {"--inplace", O_INPLACE, 1},
    {"--no-db", O_NO_DB, 0},         {"--no-placements", O_NO_PLACEMENTS, 0},
    {"--export-csv", O_EXPORT_CSV, 1},
    {"--export-plan", O_EXPORT_PLAN, 1}, {"--export-tflite", O_EXPORT_TFLITE, 1},
    {"--head", O_HEAD, 1}, {"--tail", O_TAIL, 1},
    {"--quiet", O_QUIET, 0},         {"--list", O_LIST, 0},
    {"--help", O_HELP, 0},           {"-h", O_HELP, 0},
    {"--version", O_VERSION, 0},
    {"--replay", O_REPLAY, 1},       {"--frames", O_FRAMES, 1},
    {"--founding-table", O_FOUNDING, 0},
    {"--shard", O_SHARD, 1},         {"--pin", O_PIN, 1},
    {"--patch", O_PATCH, 1},
    {"--order", O_ORDER, 1},         {"--order-states", O_ORDER_STATES, 1},
};

static int apply(struct arena_bench_args *a, enum opt id, const char *name, const char *v,
                 int *planner_given, int *db_given, char *err, size_t errlen)
{
    uint64_t u = 0;
    int rc = ARENA_OK;
    switch (id) {
    case O_GRAPH:
        return arena_bench_graph_split(v, &a->graphs, &a->n_graphs, err, errlen);
    case O_PLANNER:
        *planner_given = 1;
        return parse_planners(a, v, err, errlen);
    case O_FORMAT:
        a->format = arena_output_find(v);
        if (!a->format) {
            char known[256] = "";
            for (size_t i = 0; i < arena_output_count(); i++) {
                size_t used = strlen(known);
                snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                         arena_output_at(i)->name);
            }
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--format: '%s' is not one of %s",
                                v, known);
        }
        return ARENA_OK;
    case O_DB:
        if (!v[0]) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--db: empty path");
        a->db = v;
        *db_given = 1;
        return ARENA_OK;
    case O_SEED:
        return parse_u64(name, v, ARENA_BENCH_INT_MAX, &a->seed, err, errlen);
    case O_ALIGNMENT:
        rc = parse_u64(name, v, UINT64_MAX, &u, err, errlen);
        if (rc != ARENA_OK) return rc;
        if (u == 0 || (u & (u - 1)) != 0 || u > ((uint64_t)1 << 30))
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--alignment: '%s' is not a power of two from 1 to 2^30",
                        v);
        a->alignment = u;
        return ARENA_OK;
    case O_REPETITIONS:
        rc = parse_u64(name, v, UINT64_MAX, &u, err, errlen);
        if (rc != ARENA_OK) return rc;
        if (u < 1 || u > 1000) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--repetitions: '%s' is not in 1..1000", v);
        a->repetitions = (int)u;
        a->repetitions_set = 1;
        return ARENA_OK;
    case O_MIN_TIME:
        rc = parse_seconds(name, v, 3600, &a->min_time, err, errlen);
        a->min_time_set = rc == ARENA_OK;
        return rc;
    case O_TIME_LIMIT:
        return parse_seconds(name, v, 1e6, &a->options.time_limit, err, errlen);
    case O_NODE_LIMIT:
        rc = parse_u64(name, v, ARENA_BENCH_INT_MAX, &a->options.node_limit, err, errlen);
        if (rc == ARENA_OK && a->options.node_limit == 0)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--node-limit: '%s' is not at least 1", v);
        return rc;
    case O_CAPACITY:
        return parse_bytes(name, v, &a->options.capacity, err, errlen);
    case O_OPTIMAL_OFF:
        return parse_optimal_off(v, &a->options.optimal_off, err, errlen);
    case O_OPTIMAL_ENGINE:
        for (unsigned e = 0; e < ARENA_OPTIMAL_ENGINES; e++)
            if (strcmp(v, arena_optimal_engine_name(e)) == 0) {
                a->options.optimal_engine = e;
                return ARENA_OK;
            }
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--optimal-engine: '%s' is not one of portfolio, search, sat", v);
    case O_INPLACE:
        if (arena_inplace_parse(v, &a->inplace) != ARENA_OK)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "--inplace: '%s' is not one of none, elementwise, depthwise", v);
        return ARENA_OK;
    case O_NO_DB: a->db = NULL; return ARENA_OK;
    case O_NO_PLACEMENTS: a->no_placements = 1; return ARENA_OK;
    case O_EXPORT_CSV:
        if (!v[0]) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--export-csv: empty folder name");
        a->export_dir = v;
        return ARENA_OK;
    case O_EXPORT_PLAN:
        if (!v[0]) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--export-plan: empty folder name");
        a->export_plan_dir = v;
        return ARENA_OK;
    case O_EXPORT_TFLITE:
        if (!v[0]) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--export-tflite: empty folder name");
        a->export_tflite_dir = v;
        return ARENA_OK;
    case O_ORDER:
        if (arena_order_mode_parse(v, &a->order) != ARENA_OK)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "--order: '%s' is not one of stored, best", v);
        return ARENA_OK;
    case O_ORDER_STATES:
        rc = parse_u64(name, v, UINT32_MAX - 1, &a->order_states, err, errlen);
        if (rc == ARENA_OK && a->order_states == 0)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--order-states: '%s' is not at least 1", v);
        return rc;
    case O_HEAD: return parse_u64(name, v, ARENA_BENCH_INT_MAX, &a->head, err, errlen);
    case O_TAIL: return parse_u64(name, v, ARENA_BENCH_INT_MAX, &a->tail, err, errlen);
    case O_QUIET: a->quiet = 1; return ARENA_OK;
    case O_LIST: a->list = 1; return ARENA_OK;
    case O_HELP: a->help = 1; return ARENA_OK;
    case O_VERSION: a->version = 1; return ARENA_OK;
    case O_REPLAY: return arena_replay_parse(v, &a->replay, err, errlen);
    case O_FRAMES:
        rc = parse_u64(name, v, ARENA_REPLAY_FRAMES_MAX, &u, err, errlen);
        if (rc != ARENA_OK) return rc;
        if (u < 1 || u > ARENA_REPLAY_FRAMES_MAX)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--frames: '%s' is not in 1..%d", v,
                                ARENA_REPLAY_FRAMES_MAX);
        a->frames = u;
        return ARENA_OK;
    case O_FOUNDING: a->founding_table = 1; return ARENA_OK;
    case O_SHARD: return parse_shard(v, &a->shard_k, &a->shard_n, err, errlen);
    case O_PIN:
        rc = parse_u64(name, v, 1023, &u, err, errlen);
        a->pin_cpu = (int)u;
        return rc;
    case O_PATCH: {
        char why[256];
        rc = arena_patch_parse(v, &a->patch, why, sizeof why);
        return rc == ARENA_OK ? rc : arena_errorf(err, errlen, 0, rc, "--patch: %s", why);
    }
    }
    return ARENA_EINVAL;
}

int arena_bench_args_parse(int argc, char **argv, struct arena_bench_args *a, char *err,
                           size_t errlen)
{
    memset(a, 0, sizeof *a);
    a->format = arena_output_at(0);
    a->options = arena_plan_options_default;
    a->options.time_limit = ARENA_BENCH_TIME_LIMIT_DEFAULT;
    a->db = ARENA_BENCH_DB_DEFAULT;
    a->seed = ARENA_BENCH_SEED_DEFAULT;
    a->alignment = 16;
    a->repetitions = ARENA_BENCH_REPETITIONS_DEFAULT;
    a->min_time = ARENA_BENCH_MIN_TIME_DEFAULT;
    a->frames = ARENA_REPLAY_FRAMES_DEFAULT;
    a->pin_cpu = -1;
    if (err && errlen) err[0] = '\0';
    int planner_given = 0, db_given = 0, no_db = 0;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--benchmark_", 12) == 0) {
            if (check_gbench_flag(arg, err, errlen) != ARENA_OK) return ARENA_EINVAL;
            if (hides_repetitions(arg))
                return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: bench reads every repetition from Google Benchmark, so it"
                            " cannot hide them",
                            arg);
            if (arena_sweep_append(&a->gbench_flags, &a->n_gbench_flags, arg, strlen(arg)) !=
                ARENA_OK)
                return ARENA_ENOMEM;
            continue;
        }
        const char *eq = strchr(arg, '=');
        size_t name_len = eq && strncmp(arg, "--", 2) == 0 ? (size_t)(eq - arg) : strlen(arg);
        size_t k = 0, count = sizeof options / sizeof options[0];
        while (k < count && !(strlen(options[k].name) == name_len &&
                              strncmp(options[k].name, arg, name_len) == 0))
            k++;
        if (k == count) {
            if (arg[0] == '-') return arena_errorf(err, errlen, 0, ARENA_EINVAL, "unknown option '%s' (see --help)", arg);
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "unexpected argument '%s' (graphs go after --graph)", arg);
        }
        const char *value = NULL;
        if (options[k].takes_value) {
            if (eq && name_len < strlen(arg)) {
                value = eq + 1;
            } else if (i + 1 < argc) {
                value = argv[++i];
            } else {
                return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s needs a value (see --help)", options[k].name);
            }
            /* "--db --no-db" is a forgotten value, not a file named --no-db. */
            if (strncmp(value, "--", 2) == 0)
                return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                    "%s: '%s' looks like an option, not a value (for a name"
                                    " that starts with --, write ./%s)",
                                    options[k].name, value, value);
        } else if (name_len < strlen(arg)) {
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s takes no value", options[k].name);
        }
        if (options[k].id == O_NO_DB) no_db = 1;
        int rc = apply(a, options[k].id, options[k].name, value, &planner_given, &db_given, err,
                       errlen);
        if (rc != ARENA_OK) return rc;
    }
    if (no_db && db_given) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--db and --no-db together");
    if (no_db) a->db = NULL;
    a->options.seed = a->seed;
    if (a->options.optimal_off && a->db)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--optimal-off: runs with rules switched off are not stored (the"
                            " database would show them as plain optimal); add --no-db");
    if (a->list && a->format != arena_output_at(0) && strcmp(a->format->name, "csv") != 0)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--list: --format %s is not offered (table, or csv for the planners)",
                            a->format->name);
    if (a->help || a->version || a->list) return ARENA_OK;
    if ((a->replay || a->founding_table) && a->format != arena_output_at(0))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--format: --replay and --founding-table print tables only (their"
                            " figures are stored in the replays table)");
    if (a->shard_n && (a->replay || a->founding_table))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--shard splits planner jobs; --replay and --founding-table run"
                            " every graph (split the graphs with --graph instead)");
    if (a->replay && planner_given)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "--planner and --replay together: --replay runs real allocators"
                            " instead of planners (--founding-table shows both)");
    if (a->n_graphs == 0)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                    "no --graph given (e.g. --graph mobilenetv2; --list shows the families)");
    if (!planner_given && parse_planners(a, "all", err, errlen) != ARENA_OK) return ARENA_ENOMEM;
    if (a->n_planners == 0) return arena_errorf(err, errlen, 0, ARENA_EINVAL, "no planner is registered");
    return ARENA_OK;
}

static void free_list(char **items, size_t n)
{
    for (size_t i = 0; i < n; i++) free(items[i]);
    free(items);
}

void arena_bench_args_free(struct arena_bench_args *a)
{
    if (!a) return;
    free_list(a->graphs, a->n_graphs);
    free_list(a->gbench_flags, a->n_gbench_flags);
    free(a->planners);
    memset(a, 0, sizeof *a);
}
