/* test_output.c — bench's output: number formatting with honest units, the
 * CSV and JSON rows (quoting, escaping, empty/null figures for an invalid
 * plan) and the progress line, written into temporary files. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/output.h"
#include "bench/core/progress.h"

/* Runs a format as bench does: its state zeroed, optional calls skipped. */
struct fmt {
    const struct arena_output *o;
    void *state;
};

static struct fmt fmt_open(const char *name, FILE *f)
{
    struct fmt x = {arena_output_find(name), NULL};
    cr_assert(x.o, "no format %s", name);
    x.state = calloc(1, x.o->state_size + 1);
    if (x.o->begin) x.o->begin(f, x.state);
    return x;
}

static void fmt_graph(struct fmt *x, FILE *f, const struct arena_source *src,
                      const struct arena_bounds *b)
{
    if (x->o->graph) x->o->graph(f, x->state, src, b);
}

static void fmt_close(struct fmt *x, FILE *f)
{
    if (x->o->end) x->o->end(f, x->state);
    free(x->state);
}

static char *written(FILE *f)
{
    fflush(f);
    long len = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)len + 1);
    cr_assert(buf);
    size_t got = fread(buf, 1, (size_t)len, f);
    buf[got] = '\0';
    return buf;
}

Test(output, grouped_digits)
{
    char b[64];
    arena_fmt_grouped(0, b, sizeof b);
    cr_expect_str_eq(b, "0");
    arena_fmt_grouped(999, b, sizeof b);
    cr_expect_str_eq(b, "999");
    arena_fmt_grouped(1000, b, sizeof b);
    cr_expect_str_eq(b, "1,000");
    arena_fmt_grouped(1505280, b, sizeof b);
    cr_expect_str_eq(b, "1,505,280");
    arena_fmt_grouped(UINT64_MAX, b, sizeof b);
    cr_expect_str_eq(b, "18,446,744,073,709,551,615");
}

/* KiB = 1024 B: 1536 B = 1.5 KiB; 1,505,280 B / 1,048,576 = 1.4355 MiB;
 * 7,048,320 B / 1,048,576 = 6.7218 MiB. */
Test(output, bytes_in_binary_units)
{
    char b[64];
    arena_fmt_bytes(1023, b, sizeof b);
    cr_expect_str_eq(b, "1023 B");
    arena_fmt_bytes(1024, b, sizeof b);
    cr_expect_str_eq(b, "1.00 KiB");
    arena_fmt_bytes(1536, b, sizeof b);
    cr_expect_str_eq(b, "1.50 KiB");
    arena_fmt_bytes(1505280, b, sizeof b);
    cr_expect_str_eq(b, "1.44 MiB");
    arena_fmt_bytes(7048320, b, sizeof b);
    cr_expect_str_eq(b, "6.72 MiB");
    arena_fmt_bytes((uint64_t)3 << 30, b, sizeof b);
    cr_expect_str_eq(b, "3.00 GiB");
}

Test(output, times)
{
    char b[64];
    arena_fmt_ns(NAN, b, sizeof b);
    cr_expect_str_eq(b, "-");
    arena_fmt_ns(812, b, sizeof b);
    cr_expect_str_eq(b, "812 ns");
    arena_fmt_ns(12345, b, sizeof b);
    cr_expect_str_eq(b, "12.3 us");
    arena_fmt_ns(4.56e6, b, sizeof b);
    cr_expect_str_eq(b, "4.56 ms");
    arena_fmt_ns(1.23e9, b, sizeof b);
    cr_expect_str_eq(b, "1.23 s");
}

static const struct arena_tensor two[] = {{16, 0, 1}, {32, 1, 2}};

static struct arena_source source(void)
{
    struct arena_source s = {0};
    s.spec = "odd:name=\"x\",k=2";
    s.family = "odd";
    s.params = "name=\"x\",k=2";
    s.ops = 3;
    s.problem.n = 2;
    s.problem.tensors = two;
    s.problem.alignment = 16;
    return s;
}

/* Both tensors share step 1: lower bound 48 = naive; a valid plan at 0, 16. */
static const struct arena_bounds bounds = {
    .naive_bytes = 48, .lower_bound = 48, .largest = 32, .max_live = 2, .steps = 3,
    .inplace_bound = 48};

Test(output, csv_rows_quote_specs_and_leave_missing_figures_empty)
{
    struct arena_source src = source();
    struct arena_metrics m = {.bounds = bounds, .arena = 48, .ratio_lb = 1.0, .saving = 0.0,
                              .frag_peak = 0.0, .frag_mean = 0.25};
    struct arena_result good = {.src = &src, .bounds = &bounds, .planner = "naive",
                                   .valid = 1, .metrics = &m, .plan_ns_median = 10.0,
                                   .plan_ns_mean = 11.0, .plan_ns_stddev = NAN, .scratch_bytes = 0,
                                   .status = ARENA_PLAN_OPTIMAL, .bound = 48};
    struct arena_result bad = {.src = &src, .bounds = &bounds, .planner = "broken",
                                  .valid = 0, .error = "tensors 0 and 1 collide",
                                  .plan_ns_median = NAN, .plan_ns_mean = NAN, .plan_ns_stddev = NAN,
                                  .scratch_bytes = 64};
    FILE *f = tmpfile();
    cr_assert(f);
    struct fmt x = fmt_open("csv", f);
    fmt_graph(&x, f, &src, &bounds);
    x.o->row(f, x.state, &good);
    x.o->row(f, x.state, &bad);
    fmt_close(&x, f);
    char *out = written(f);
    fclose(f);
    /* good: arena 48 = bound 48, so status optimal and gap 0. */
    cr_expect_str_eq(out, ARENA_CSV_HEADER "\n"
                          "\"odd:name=\"\"x\"\",k=2\",naive,2,48,48,48,1.000000,0.000000,"
                          "0.000000,0.250000,10.0,11.0,,0,1,0,0,optimal,48,0.000000,0,none,48,"
                          "stored,,,,,,built-in,,,in-process,,,,none,lifetime,,,\n"
                          "\"odd:name=\"\"x\"\",k=2\",broken,2,48,48,,,,,,,,,64,0,0,0,,,,,none,48,"
                          "stored,,,,,,built-in,,,in-process,,,,none,lifetime,,,\n");
    free(out);
}

Test(output, json_escapes_and_uses_null)
{
    struct arena_source src = source();
    struct arena_result bad = {.src = &src, .bounds = &bounds, .planner = "broken",
                                  .valid = 0, .error = "a \"quoted\"\nline",
                                  .plan_ns_median = NAN, .plan_ns_mean = NAN, .plan_ns_stddev = NAN};
    FILE *f = tmpfile();
    cr_assert(f);
    struct fmt x = fmt_open("json", f);
    x.o->row(f, x.state, &bad);
    x.o->row(f, x.state, &bad);
    fmt_close(&x, f);
    char *out = written(f);
    fclose(f);
    cr_expect_eq(out[0], '[');
    cr_expect(strstr(out, "\"graph\": \"odd:name=\\\"x\\\",k=2\"") != NULL, "%s", out);
    cr_expect(strstr(out, "\"arena_bytes\": null, \"ratio_lb\": null") != NULL, "%s", out);
    cr_expect(strstr(out, "\"error\": \"a \\\"quoted\\\"\\u000aline\"") != NULL, "%s", out);
    cr_expect(strstr(out, "},\n  {") != NULL, "objects are comma separated");
    cr_expect_str_eq(out + strlen(out) - 4, "}\n]\n");

    f = tmpfile();
    x = fmt_open("json", f);
    fmt_close(&x, f);
    char *empty = written(f);
    fclose(f);
    cr_expect_str_eq(empty, "[]\n", "no rows is still valid JSON");
    free(out);
    free(empty);
}

Test(output, table_states_units_and_flags_invalid_plans)
{
    struct arena_source src = source();
    struct arena_result bad = {.src = &src, .bounds = &bounds, .planner = "broken",
                                  .valid = 0, .error = "tensors 0 and 1 collide",
                                  .plan_ns_median = NAN, .plan_ns_mean = NAN, .plan_ns_stddev = NAN};
    FILE *f = tmpfile();
    cr_assert(f);
    struct fmt x = fmt_open("table", f);
    fmt_graph(&x, f, &src, &bounds);
    x.o->row(f, x.state, &bad);
    fmt_close(&x, f);
    char *out = written(f);
    fclose(f);
    cr_expect(strstr(out, "ops 3, tensors 2") != NULL, "%s", out);
    cr_expect(strstr(out, "lower bound 48 B (48 B)") != NULL, "%s", out);
    cr_expect(strstr(out, " NO ") != NULL, "%s", out);
    cr_expect(strstr(out, "\n    ! tensors 0 and 1 collide\n") != NULL, "%s", out);
    cr_expect(strstr(out, "KiB = 1024 B") != NULL);
    free(out);
}

static size_t count_erases(const char *s)
{
    size_t n = 0;
    for (const char *p = strstr(s, "\r\033[K"); p; p = strstr(p + 1, "\r\033[K")) n++;
    return n;
}

Test(output, progress_line_only_when_enabled)
{
    FILE *f = tmpfile();
    cr_assert(f);
    size_t group[4] = {0, 1, 0, 1};
    double weight[4] = {4, 4, 4, 4}, cap[4] = {0};
    struct arena_progress p;
    arena_progress_init(&p, ARENA_PROGRESS_NEVER, 0, 1, f);
    cr_assert_eq(arena_progress_plan(&p, 4, group, weight, cap), 0);
    arena_progress_start(&p, 0, "chain:ops=4", "naive");
    arena_progress_step(&p);
    arena_progress_clear(&p);
    arena_progress_end(&p);
    char *out = written(f);
    cr_expect_str_eq(out, "", "disabled: nothing at all");
    free(out);

    rewind(f);
    arena_progress_init(&p, ARENA_PROGRESS_AUTO, 0, 1, f);
    cr_assert_eq(arena_progress_plan(&p, 4, group, weight, cap), 0);
    arena_progress_start(&p, 0, "chain:ops=4", "naive");
    arena_progress_step(&p);
    arena_progress_start(&p, 2, "chain:ops=4", "naive");
    arena_progress_clear(&p);
    arena_progress_clear(&p); /* nothing shown: no second erase */
    arena_progress_end(&p);
    out = written(f);
    fclose(f);
    cr_expect(strstr(out, "\r\033[K[0/4] chain:ops=4 naive  0s  ETA ?") != NULL, "%s", out);
    cr_expect(strstr(out, "[1/4] chain:ops=4 naive  0s  ETA 0s") != NULL, "%s", out);
    cr_expect_eq(count_erases(out), 3);
    free(out);
}

/* The flags a reader must see. Row a: stddev/mean = 15/100 = 15 % > 10 %:
 * noisy, spread "15.0%!". Row b: a search planner timed once, arena 60
 * over its proven bound 48: gap 60/48 - 1 = 25 %, status limit, spread
 * "once". Row c: a steady heuristic at the bound: optimal, gap 0.0%. */
Test(output, table_and_csv_flag_noisy_timings_once_timings_status_and_gap)
{
    struct arena_source src = source();
    struct arena_metrics m48 = {.bounds = bounds, .arena = 48, .ratio_lb = 1.0};
    struct arena_metrics m60 = {.bounds = bounds, .arena = 60, .ratio_lb = 1.25};
    struct arena_result rows[] = {
        {.src = &src, .bounds = &bounds, .planner = "jittery", .valid = 1, .metrics = &m48,
         .plan_ns_median = 100, .plan_ns_mean = 100, .plan_ns_stddev = 15, .iterations = 500,
         .repetitions = 5, .noisy = 1, .status = ARENA_PLAN_OPTIMAL, .bound = 48},
        {.src = &src, .bounds = &bounds, .planner = "searcher", .valid = 1, .metrics = &m60,
         .plan_ns_median = 2e9, .plan_ns_mean = 2e9, .plan_ns_stddev = NAN, .iterations = 1,
         .repetitions = 1, .timed_once = 1, .status = ARENA_PLAN_LIMIT, .bound = 48,
         .nodes = 12345},
        {.src = &src, .bounds = &bounds, .planner = "steady", .valid = 1, .metrics = &m48,
         .plan_ns_median = 100, .plan_ns_mean = 100, .plan_ns_stddev = 1, .iterations = 500,
         .repetitions = 5, .status = ARENA_PLAN_OPTIMAL, .bound = 48},
    };
    FILE *f = tmpfile();
    cr_assert(f);
    struct fmt x = fmt_open("table", f);
    fmt_graph(&x, f, &src, &bounds);
    for (size_t i = 0; i < 3; i++) x.o->row(f, x.state, &rows[i]);
    fmt_close(&x, f);
    char *out = written(f);
    fclose(f);
    const char *jit = strstr(out, "  jittery "), *srch = strstr(out, "  searcher "),
               *steady = strstr(out, "  steady ");
    cr_assert(jit && srch && steady, "%s", out);
    cr_expect(strstr(jit, "15.0%! ") != NULL && strstr(jit, "15.0%! ") < srch, "%s", out);
    cr_expect(strstr(srch, " once ") != NULL && strstr(srch, " once ") < steady, "%s", out);
    cr_expect(strstr(srch, " limit ") != NULL && strstr(srch, "25.0%\n") != NULL, "%s", out);
    cr_expect(strstr(steady, "1.0% ") != NULL && strstr(steady, "optimal") != NULL, "%s", out);
    cr_expect(strstr(steady, "0.0%\n") != NULL, "%s", out);
    cr_expect(strstr(out, "! = spread above 10%") != NULL, "the flag is explained: %s", out);
    free(out);

    f = tmpfile();
    x = fmt_open("csv", f);
    for (size_t i = 0; i < 3; i++) x.o->row(f, x.state, &rows[i]);
    fmt_close(&x, f);
    out = written(f);
    fclose(f);
    cr_expect(strstr(out, ",jittery,") &&
                  strstr(out, ",1,1,0,optimal,48,0.000000,0,none,48,stored,,,,,,built-in,,,in-process,,,,none,lifetime,,,\n"),
              "%s", out);
    cr_expect(strstr(out, ",searcher,") &&
                  strstr(out, ",1,0,1,limit,48,0.250000,12345,none,48,stored,,,,,,built-in,,,in-process,,,,none,lifetime,,,\n"),
              "%s", out);
    free(out);
}

Test(output, registry_finds_every_format_by_name)
{
    cr_assert_eq(arena_output_count(), 3);
    cr_expect_str_eq(arena_output_at(0)->name, "table", "the default comes first");
    for (size_t i = 0; i < arena_output_count(); i++) {
        const struct arena_output *o = arena_output_at(i);
        cr_expect_eq(arena_output_find(o->name), o);
        cr_expect_not_null(o->row, "%s: row is the one required call", o->name);
    }
    cr_expect_null(arena_output_at(arena_output_count()));
    cr_expect_null(arena_output_find("xml"));
}
