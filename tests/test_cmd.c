/* test_cmd.c — planners that are external programs (bench/external/cmd.c), end to
 * end: bench runs in a child process on a real database with cmd: planners
 * beside built-in ones, and the tests read what it stored. The examples of
 * examples/cmd/ run as a user runs them (python3, the standard library). */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/run_bench.h"
#include "tests/tmpdb.h"

TestSuite(cmd, .init = td_make_dir, .fini = td_remove_dir, .timeout = 120);

/* Tensors 0 (64 B) and 1 (32 B) conflict; 2 (16 B) meets neither. Read,
 * the times become dense steps: 0 lives in [0,1], 1 in [1,1], 2 in [2,2].
 * Alignment 16: naive lays them end to end in 112 B. */
static void three(char *path, size_t len)
{
    td_write("three.csv", "id,lower,upper,size\n0,0,2,64\n1,1,3,32\n2,3,4,16\n", path, len);
}

/* The stdlib-only Python planner of examples/cmd/: its plans pass the
 * validator and are stored with the command, the process group's wall time
 * (one call) and its own plan_ns; its rule is the built-in first fit's, so
 * the arenas agree on every graph. */
Test(cmd, the_python_example_plans_and_is_stored_with_its_command)
{
    char db[160], item[600], command[500];
    td_path(db, sizeof db, "r.sqlite");
    snprintf(command, sizeof command,
             "python3 " ARENA_SOURCE_ROOT "/examples/cmd/first_fit.py --order size");
    snprintf(item, sizeof item, "cmd:py-first-fit=%s", command);
    const char *args[] = {"--graph", "mobilenetv2", "--graph", "packed:n=60", "--graph",
                          "random-intervals:n=200,seed=4", "--planner", "greedy-by-size-firstfit",
                          "--planner", item, "--db", db, "--min-time", "0.001", NULL};
    cr_assert_eq(run_bench("py", args), 0, "%s", run_bench_output("py", "err"));
    char sql[1200];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM results WHERE planner = 'py-first-fit' AND valid = 1 AND"
             " origin = 'cmd' AND planner_command = '%s' AND plugin_path IS NULL AND timing ="
             " 'process' AND iterations = 1 AND timed_once = 1 AND self_ns > 0 AND"
             " plan_ns_median >= self_ns",
             command);
    cr_expect_eq(td_file_int(db, sql), 3);
    cr_expect_eq(td_file_int(db, "SELECT count(*) FROM results a JOIN results b ON a.graph_id ="
                                 " b.graph_id WHERE a.planner = 'py-first-fit' AND b.planner ="
                                 " 'greedy-by-size-firstfit' AND a.arena_bytes = b.arena_bytes"),
                 3, "the same rule, the same arenas");
    cr_expect_eq(td_file_int(db, "SELECT count(*) FROM placements p JOIN results r ON r.id ="
                                 " p.result_id WHERE r.planner = 'py-first-fit'"),
                 td_file_int(db, "SELECT sum(g.tensors) FROM graphs g JOIN results r ON"
                                 " r.graph_id = g.id WHERE r.planner = 'py-first-fit'"));
    char *out = run_bench_output("py", "out");
    cr_expect(strstr(out, "from cmd: python3 ") && strstr(out, "(it says "), "%s", out);
    free(out);
}

/* s with each ' doubled, for an SQL string. */
static void quoted(const char *s, char *buf, size_t len)
{
    size_t k = 0;
    for (; *s && k + 2 < len; s++) {
        if (*s == '\'') buf[k++] = '\'';
        buf[k++] = *s;
    }
    buf[k] = '\0';
}

struct bad {
    const char *name, *command, *error; /* error: the stored reason, LIKE pattern */
};

/* Every way a program's answer can be wrong gives an invalid result with a
 * one-line reason, and the built-in planner's result is stored beside them.
 * Each command ends in ';:' so that the three arguments bench appends go to
 * ':' (cmd.h). */
Test(cmd, every_bad_answer_is_an_invalid_result_with_its_reason)
{
    static const struct bad bad[] = {
        {"garbage", "echo hello world;:",
         "stdout line 1: 'hello world' is not id,offset (two decimal integers)"},
        {"exits", "echo it went wrong >&2; exit 3;:",
         "the program exited with status 3: it went wrong"},
        {"signal", "kill -SEGV $$;:", "the program was killed by signal 11 (Segmentation fault)"},
        {"missing", "printf 'id,offset\\n0,0\\n2,0\\n';:",
         "tensor 1 has no offset (the program gave 2 of 3)"},
        {"twice", "printf '0,0\\n1,64\\n0,0\\n';:",
         "stdout line 3: tensor 0 given twice (first on line 1)"},
        {"stranger", "printf '0,0\\n1,64\\n7,0\\n';:",
         "stdout line 3: id 7 is not a tensor of the problem (ids 0 to 2)"},
        /* the boundary: id n, one past the last */
        {"just-past", "printf '0,0\\n1,64\\n3,0\\n';:",
         "stdout line 3: id 3 is not a tensor of the problem (ids 0 to 2)"},
        {"misaligned", "printf '0,0\\n1,72\\n2,0\\n';:",
         "tensor 1 (steps [1,1], 32 bytes) has offset 72, not a multiple of the alignment 16"},
        {"overlap", "printf '0,0\\n1,32\\n2,0\\n';:",
         "tensor 0 (steps [0,1], bytes [0,64)) overlaps tensor 1 (steps [1,1], bytes [32,64))"},
    };
    enum { NB = sizeof bad / sizeof bad[0] };
    char db[160], csv[160], items[NB][300];
    td_path(db, sizeof db, "r.sqlite");
    three(csv, sizeof csv);
    const char *args[8 + 2 * NB + 4] = {"--graph", csv, "--planner", "naive", "--db", db,
                                        "--min-time", "0.001"};
    size_t k = 8;
    for (size_t i = 0; i < NB; i++) {
        snprintf(items[i], sizeof items[i], "cmd:%s=%s", bad[i].name, bad[i].command);
        args[k++] = "--planner";
        args[k++] = items[i];
    }
    args[k] = NULL;
    cr_expect_eq(run_bench("bad", args), 1, "invalid results: exit 1; %s", run_bench_output("bad", "err"));
    for (size_t i = 0; i < NB; i++) {
        char sql[800], error[300];
        quoted(bad[i].error, error, sizeof error);
        snprintf(sql, sizeof sql,
                 "SELECT count(*) FROM results WHERE planner = '%s' AND valid = 0 AND"
                 " arena_bytes IS NULL AND error = '%s' AND origin = 'cmd'",
                 bad[i].name, error);
        cr_expect_eq(td_file_int(db, sql), 1, "%s: %s", bad[i].name, sql);
    }
    cr_expect_eq(td_file_int(db, "SELECT count(*) FROM results WHERE planner = 'naive' AND"
                                 " valid = 1 AND arena_bytes = 112"), 1);
    char *out = run_bench_output("bad", "out");
    cr_expect(strstr(out, "! stdout line 1: 'hello world' is not id,offset"), "%s", out);
    free(out);
}

/* Issue 45: a program gets ARENA_CMD_STARTUP_S (3 s) past --time-limit
 * for its start before it is killed, so an interpreter's start (Python:
 * about 0.6 s, more under load) does not kill a planner that plans within
 * the limit: one that answers after 1.5 s at --time-limit 1 is valid, its
 * process time stored (fails at 3cf04c5: killed at 1 s). */
Test(cmd, a_programs_start_is_not_held_against_its_time_limit)
{
    char db[160], csv[160];
    td_path(db, sizeof db, "r.sqlite");
    three(csv, sizeof csv);
    const char *args[] = {"--graph", csv, "--planner", "cmd:slow-start=sleep 1.5; printf '0,0\\n1,64\\n2,0\\n';:",
                          "--time-limit", "1", "--db", db, "--min-time", "0.001", NULL};
    cr_expect_eq(run_bench("slow", args), 0, "%s", run_bench_output("slow", "err"));
    cr_expect_eq(td_file_int(db, "SELECT count(*) FROM results WHERE planner LIKE 'slow-start%' AND valid = 1"
                                 " AND plan_ns_median >= 1.5e9"),
                 1, "%s", run_bench_output("slow", "err"));
}

/* A program past --time-limit is killed with its whole process group (the
 * sleep it left in the background too): an invalid result naming the
 * limit, and the run goes on. Held on a busy machine: the limit is 1 s and
 * the test allows 60. */
Test(cmd, time_limit_kills_the_process_group)
{
    char db[160], csv[160], pidfile[200], item[600];
    td_path(db, sizeof db, "r.sqlite");
    td_path(pidfile, sizeof pidfile, "bg.pid");
    three(csv, sizeof csv);
    snprintf(item, sizeof item, "cmd:sleeper=sleep 300 & echo $! > %s; wait;:", pidfile);
    const char *args[] = {"--graph", csv, "--planner", item, "--planner", "naive", "--time-limit",
                          "1", "--db", db, "--min-time", "0.001", NULL};
    time_t t0 = time(NULL);
    cr_expect_eq(run_bench("hang", args), 1, "%s", run_bench_output("hang", "err"));
    cr_expect_lt(time(NULL) - t0, 60);
    cr_expect_eq(td_file_int(db, "SELECT count(*) FROM results WHERE planner = 'sleeper' AND"
                                 " valid = 0 AND error = 'the program ran past the time limit"
                                 " (--time-limit 1 s, and 3 s for its start): its process group was"
                                 " killed'"),
                 1);
    cr_expect_eq(td_file_int(db, "SELECT count(*) FROM results WHERE planner = 'naive' AND"
                                 " valid = 1"), 1);
    char *pid = td_slurp(pidfile, NULL);
    cr_assert(pid, "the program wrote its background pid");
    pid_t bg = (pid_t)atol(pid);
    free(pid);
    cr_assert_gt(bg, 1);
    /* killed: gone, or at most a zombie until init reaps it */
    int alive = 1;
    for (int i = 0; i < 100 && alive; i++) {
        char stat[64], state = '?';
        snprintf(stat, sizeof stat, "/proc/%d/stat", (int)bg);
        FILE *f = fopen(stat, "r");
        if (!f) alive = 0;
        else {
            if (fscanf(f, "%*d %*s %c", &state) != 1) state = '?';
            fclose(f);
            alive = state != 'Z';
        }
        if (alive) nanosleep(&(struct timespec){0, 50000000}, NULL);
    }
    if (alive) kill(bg, SIGKILL);
    cr_expect(!alive, "the background sleep %d outlived its group", (int)bg);
}

/* A planners file gives commands with quotes and commas, unquoted, and a
 * command reads the problem's path as "$1" (cmd.h); a cmd: planner may not
 * take a built-in planner's name. */
Test(cmd, a_planners_file_and_a_built_in_name)
{
    char db[160], csv[160], file[160];
    td_path(db, sizeof db, "r.sqlite");
    td_path(file, sizeof file, "planners.txt");
    three(csv, sizeof csv);
    FILE *f = fopen(file, "w");
    cr_assert(f);
    fputs("# the sweep's planners\nnaive,ping-pong\n\n"
          "cmd:end-to-end=awk -F, 'NR > 1 { print $1 \",\" o + 0; o += $4 }' \"$1\";:\n", f);
    fclose(f);
    const char *args[] = {"--graph", csv, "--planner-file", file, "--db", db, "--min-time",
                          "0.001", NULL};
    cr_assert_eq(run_bench("file", args), 0, "%s", run_bench_output("file", "err"));
    cr_expect_eq(td_file_int(db, "SELECT count(*) FROM results WHERE valid = 1 AND arena_bytes ="
                                 " 112 AND planner IN ('naive', 'end-to-end')"), 2);
    cr_expect_eq(td_file_int(db, "SELECT count(*) FROM results WHERE planner = 'end-to-end' AND"
                                 " planner_command = 'awk -F, ''NR > 1 { print $1 \",\" o + 0;"
                                 " o += $4 }'' \"$1\";:'"), 1);
    const char *clash[] = {"--graph", csv, "--planner", "cmd:naive=cat", "--no-db", NULL};
    cr_expect_eq(run_bench("clash", clash), 2);
    char *err = run_bench_output("clash", "err");
    cr_expect(strstr(err, "'naive' is the name of a built-in planner"), "%s", err);
    free(err);
}

/* The MiniMalloc adapter (examples/cmd/minimalloc.py) against the real
 * solver: skipped with a line when minimalloc is not on PATH. */
Test(cmd, the_minimalloc_adapter_with_minimalloc)
{
    if (system("command -v minimalloc > /dev/null 2>&1") != 0) {
        cr_skip_test("minimalloc is not on PATH (github.com/google/minimalloc): the adapter's"
                     " run against it is skipped");
    }
    char db[160], item[600];
    td_path(db, sizeof db, "r.sqlite");
    snprintf(item, sizeof item,
             "cmd:minimalloc=python3 " ARENA_SOURCE_ROOT "/examples/cmd/minimalloc.py");
    const char *args[] = {"--graph", "packed:n=20", "--planner", item, "--time-limit", "60",
                          "--db", db, NULL};
    cr_assert_eq(run_bench("mm", args), 0, "%s", run_bench_output("mm", "err"));
    /* packed is cut from a full box: the optimum is the box's height */
    cr_expect_eq(td_file_int(db, "SELECT count(*) FROM results r JOIN graphs g ON g.id ="
                                 " r.graph_id WHERE valid = 1 AND arena_bytes = g.lower_bound"),
                 1);
}

/* The adapter's bisection and protocol, with a stand-in solver
 * (tests/cmd/fake-minimalloc: MiniMalloc's arguments and output, answered
 * by the example first fit, feasible iff its arena fits): the least
 * feasible capacity is the first fit's arena, so the adapter must end
 * there, on every graph. */
Test(cmd, the_minimalloc_adapter_bisects_to_the_least_feasible_capacity)
{
    char db[160], item[600];
    td_path(db, sizeof db, "r.sqlite");
    setenv("MINIMALLOC", ARENA_SOURCE_ROOT "/tests/cmd/fake-minimalloc", 1);
    snprintf(item, sizeof item,
             "cmd:minimalloc=python3 " ARENA_SOURCE_ROOT "/examples/cmd/minimalloc.py");
    const char *args[] = {"--graph", "packed:n=12", "--graph", "random-intervals:n=15,seed=2",
                          "--planner", "greedy-by-size-firstfit", "--planner", item,
                          "--time-limit", "60", "--db", db, "--min-time", "0.001", NULL};
    cr_assert_eq(run_bench("fake", args), 0, "%s", run_bench_output("fake", "err"));
    cr_expect_eq(td_file_int(db, "SELECT count(*) FROM results a JOIN results b ON a.graph_id ="
                                 " b.graph_id WHERE a.planner = 'minimalloc' AND a.valid = 1 AND"
                                 " b.planner = 'greedy-by-size-firstfit' AND a.arena_bytes ="
                                 " b.arena_bytes AND a.self_ns > 0"),
                 2);
}

/* scripts/sweep passes plugin: and cmd: planners through to every shard
 * (its arguments are an array, each quoted for parallel's shell), and the
 * merged database keeps each result's origin: the commands and the
 * plugin's path and hash, across both shards' graphs. */
Test(cmd, a_sweep_passes_plugin_and_cmd_planners_through)
{
    const char *bench_exe = getenv("ARENA_BENCH"), *sweep = getenv("ARENA_SWEEP"),
               *plugin = getenv("ARENA_EXAMPLE_PLUGIN");
    if (!bench_exe || !sweep || !plugin)
        cr_skip_test("ARENA_BENCH / ARENA_SWEEP / ARENA_EXAMPLE_PLUGIN not set (run via meson test)");
    if (system("command -v parallel >/dev/null && command -v taskset >/dev/null") != 0)
        cr_skip_test("GNU parallel or taskset missing (scripts/bootstrap installs parallel)");
    char out[160], cmd[2400];
    td_path(out, sizeof out, "out.sqlite");
    snprintf(cmd, sizeof cmd,
             "BENCH='%s' '%s' -j 2 -o '%s' --graph 'chain:ops=4|6|8|10' --planner naive"
             " --planner 'plugin:%s' --planner 'cmd:py=python3 '\\''" ARENA_SOURCE_ROOT
             "/examples/cmd/first_fit.py'\\'' --order start' --repetitions 1"
             " --min-time 0.001 >'%s/sweep.out' 2>&1",
             bench_exe, sweep, out, plugin, td_dir);
    int rc = system(cmd);
    char *log = NULL;
    if (rc != 0) {
        char path[200];
        snprintf(path, sizeof path, "%s/sweep.out", td_dir);
        log = td_slurp(path, NULL);
    }
    cr_assert_eq(rc, 0, "scripts/sweep failed: %s", log ? log : "?");
    cr_expect_eq(td_file_int(out, "SELECT count(*) FROM runs"), 2, "two shards");
    cr_expect_eq(td_file_int(out, "SELECT count(*) FROM results WHERE planner = 'py' AND valid"
                                  " = 1 AND origin = 'cmd' AND planner_command = 'python3 ''"
                                  ARENA_SOURCE_ROOT "/examples/cmd/first_fit.py'' --order"
                                  " start'"),
                 4);
    cr_expect_eq(td_file_int(out, "SELECT count(*) FROM results WHERE planner ="
                                  " 'example-first-fit' AND valid = 1 AND origin = 'plugin' AND"
                                  " length(plugin_sha256) = 64"),
                 4);
}

/* In decision mode (--capacity) a program is handed the capacity, and its
 * answer claims to fit it: a plan above it is an invalid result, and a
 * program that finds none says so by its exit status. The built-in naive,
 * which reads no capacity, is stored valid beside them. */
Test(cmd, a_capacity_is_handed_to_the_program_and_held)
{
    char db[160], csv[160];
    td_path(db, sizeof db, "r.sqlite");
    three(csv, sizeof csv);
    const char *args[] = {"--graph", csv, "--capacity", "100", "--planner", "naive", "--planner",
                          "cmd:fits=python3 " ARENA_SOURCE_ROOT "/examples/cmd/first_fit.py",
                          "--planner", "cmd:over=printf '0,0\\n1,64\\n2,96\\n';:", "--db", db,
                          "--min-time", "0.001", NULL};
    cr_expect_eq(run_bench("cap", args), 1, "%s", run_bench_output("cap", "err"));
    cr_expect_eq(td_file_int(db, "SELECT count(*) FROM results WHERE planner = 'fits' AND valid"
                                 " = 1 AND arena_bytes = 96 AND capacity = 100"), 1);
    cr_expect_eq(td_file_int(db, "SELECT count(*) FROM results WHERE planner = 'over' AND valid"
                                 " = 0 AND error = 'planner claims a plan within the capacity"
                                 " 100 B, but its arena is 112 B'"), 1);
    cr_expect_eq(td_file_int(db, "SELECT count(*) FROM results WHERE planner = 'naive' AND valid"
                                 " = 1 AND arena_bytes = 112"), 1);
    const char *none[] = {"--graph", csv, "--capacity", "80", "--planner",
                          "cmd:fits=python3 " ARENA_SOURCE_ROOT "/examples/cmd/first_fit.py",
                          "--no-db", NULL};
    cr_expect_eq(run_bench("none", none), 1);
    char *out = run_bench_output("none", "out");
    cr_expect(strstr(out, "! the program exited with status 1: first_fit.py: its arena, 96 B, is"
                          " above the capacity 80 B"), "%s", out);
    free(out);
}


/* A program's identity is its name and its command: two commands under one
 * name, run into one database, are two planners to stats and plot, each
 * named with its command's hash ("mine (cmd 1a2b3c4d)"), never pooled with
 * the newer replacing the older. Fails on 3cf04c5 (one row "mine (cmd)":
 * round 4, finding 04). */
Test(cmd, two_commands_under_one_name_are_two_planners)
{
    char db[160], csv[160], script[160], fig[160];
    td_path(db, sizeof db, "r.sqlite");
    td_path(fig, sizeof fig, "fig");
    three(csv, sizeof csv);
    td_write("a.sh", "awk -F, 'NR > 1 { print $1 \",\" top + 0; top += $4 }' \"$1\"\n", script,
             sizeof script);
    char end_to_end[300], packed[] = "printf '0,0\\n1,64\\n2,0\\n';:", item[400];
    snprintf(end_to_end, sizeof end_to_end, "sh %s", script);
    const char *commands[] = {end_to_end, packed};
    for (size_t i = 0; i < 2; i++) {
        snprintf(item, sizeof item, "cmd:mine=%s", commands[i]);
        const char *args[] = {"--graph", csv, "--planner", item, "--db", db, "--quiet", NULL};
        cr_assert_eq(run_bench("run", args), 0, "%s", run_bench_output("run", "err"));
    }
    char label[2][80];
    for (size_t i = 0; i < 2; i++) {
        char hex[65], sql[300];
        td_sha256_text(commands[i], hex);
        snprintf(label[i], sizeof label[i], "mine (cmd %.8s)", hex);
        snprintf(sql, sizeof sql, "SELECT count(*) FROM results WHERE planner = 'mine' AND valid"
                 " = 1 AND command_sha256 = '%s' AND arena_bytes = %d", hex, i ? 96 : 112);
        cr_expect_eq(td_file_int(db, sql), 1, "%s", commands[i]);
    }
    const char *stats[] = {"stats", "--db", db, "--format", "csv", NULL};
    cr_assert_eq(run_bench("stats", stats), 0, "%s", run_bench_output("stats", "err"));
    char *out = run_bench_output("stats", "out");
    cr_expect(strstr(out, label[0]) && strstr(out, label[1]), "two rows, %s and %s: %s",
              label[0], label[1], out);
    free(out);
    const char *plot[] = {"plot", "--db", db, "--run", "all", "--out", fig, "--figures",
                          "tables", "--quiet", NULL};
    cr_assert_eq(run_bench("plot", plot), 0, "%s", run_bench_output("plot", "err"));
    char path[300];
    snprintf(path, sizeof path, "%s/comparison.md", fig);
    char *md = td_slurp(path, NULL);
    cr_assert(md, "no %s", path);
    for (size_t i = 0; i < 2; i++) {
        char row[200];
        snprintf(row, sizeof row, "| %s |", label[i]);
        cr_expect(strstr(md, row), "%s not in: %s", row, md);
    }
    free(md);
}

/* A program's keys reach it in its environment: ARENA_KEY_<K> per key and
 * its canonical spec in ARENA_PLANNER_SPEC (keys in name order); one that
 * finds them as documented plans, else it exits non-zero (invalid). */
Test(cmd, keys_reach_the_program_in_its_environment)
{
    char db[160], csv[160];
    td_path(db, sizeof db, "r.sqlite");
    three(csv, sizeof csv);
    const char *args[] = {"--graph", csv, "--planner",
                          "cmd:env-check:x=a+b,beam=8=test \"$ARENA_KEY_BEAM\" = 8 &&"
                          " test \"$ARENA_KEY_X\" = a+b &&"
                          " test \"$ARENA_PLANNER_SPEC\" = env-check:beam=8,x=a+b &&"
                          " printf '0,0\\n1,64\\n2,0\\n';:",
                          "--db", db, "--min-time", "0.001", NULL};
    cr_expect_eq(run_bench("keys", args), 0, "%s", run_bench_output("keys", "err"));
    cr_expect_eq(td_file_int(db, "SELECT count(*) FROM results WHERE planner = 'env-check' AND"
                                 " valid = 1"),
                 1, "%s", run_bench_output("keys", "err"));
}
