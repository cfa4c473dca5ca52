/* test_output.c — bench's output: number formatting with honest units, the
 * CSV and JSON rows (quoting, escaping, empty/null figures for an invalid
 * plan) and the progress line, written into temporary files. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output.h"
#include "bench/progress.h"

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
    .naive_bytes = 48, .lower_bound = 48, .largest = 32, .max_live = 2, .steps = 3};

Test(output, csv_rows_quote_specs_and_leave_missing_figures_empty)
{
    struct arena_source src = source();
    struct arena_metrics m = {.bounds = bounds, .arena = 48, .ratio_lb = 1.0, .saving = 0.0,
                              .frag_peak = 0.0, .frag_mean = 0.25};
    struct arena_bench_row good = {.src = &src, .bounds = &bounds, .planner = "naive",
                                   .valid = 1, .metrics = &m, .median_ns = 10.0,
                                   .mean_ns = 11.0, .stddev_ns = NAN, .scratch_bytes = 0};
    struct arena_bench_row bad = {.src = &src, .bounds = &bounds, .planner = "broken",
                                  .valid = 0, .error = "tensors 0 and 1 collide",
                                  .median_ns = NAN, .mean_ns = NAN, .stddev_ns = NAN,
                                  .scratch_bytes = 64};
    FILE *f = tmpfile();
    cr_assert(f);
    arena_output_csv.begin(f);
    arena_output_csv.graph(f, &src, &bounds);
    arena_output_csv.row(f, &good);
    arena_output_csv.row(f, &bad);
    arena_output_csv.end(f);
    char *out = written(f);
    fclose(f);
    cr_expect_str_eq(out, ARENA_CSV_HEADER "\n"
                          "\"odd:name=\"\"x\"\",k=2\",naive,2,48,48,48,1.000000,0.000000,"
                          "0.000000,0.250000,10.0,11.0,,0,1\n"
                          "\"odd:name=\"\"x\"\",k=2\",broken,2,48,48,,,,,,,,,64,0\n");
    free(out);
}

Test(output, json_escapes_and_uses_null)
{
    struct arena_source src = source();
    struct arena_bench_row bad = {.src = &src, .bounds = &bounds, .planner = "broken",
                                  .valid = 0, .error = "a \"quoted\"\nline",
                                  .median_ns = NAN, .mean_ns = NAN, .stddev_ns = NAN};
    FILE *f = tmpfile();
    cr_assert(f);
    arena_output_json.begin(f);
    arena_output_json.row(f, &bad);
    arena_output_json.row(f, &bad);
    arena_output_json.end(f);
    char *out = written(f);
    fclose(f);
    cr_expect_eq(out[0], '[');
    cr_expect(strstr(out, "\"graph\": \"odd:name=\\\"x\\\",k=2\"") != NULL, "%s", out);
    cr_expect(strstr(out, "\"arena_bytes\": null, \"ratio_lb\": null") != NULL, "%s", out);
    cr_expect(strstr(out, "\"error\": \"a \\\"quoted\\\"\\u000aline\"") != NULL, "%s", out);
    cr_expect(strstr(out, "},\n  {") != NULL, "objects are comma separated");
    cr_expect_str_eq(out + strlen(out) - 4, "}\n]\n");

    f = tmpfile();
    arena_output_json.begin(f);
    arena_output_json.end(f);
    char *empty = written(f);
    fclose(f);
    cr_expect_str_eq(empty, "[]\n", "no rows is still valid JSON");
    free(out);
    free(empty);
}

Test(output, table_states_units_and_flags_invalid_plans)
{
    struct arena_source src = source();
    struct arena_bench_row bad = {.src = &src, .bounds = &bounds, .planner = "broken",
                                  .valid = 0, .error = "tensors 0 and 1 collide",
                                  .median_ns = NAN, .mean_ns = NAN, .stddev_ns = NAN};
    FILE *f = tmpfile();
    cr_assert(f);
    arena_output_table.begin(f);
    arena_output_table.graph(f, &src, &bounds);
    arena_output_table.row(f, &bad);
    arena_output_table.end(f);
    char *out = written(f);
    fclose(f);
    cr_expect(strstr(out, "ops 3, tensors 2") != NULL, "%s", out);
    cr_expect(strstr(out, "lower bound 48 B (48 B)") != NULL, "%s", out);
    cr_expect(strstr(out, "NO\n    ! tensors 0 and 1 collide\n") != NULL, "%s", out);
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
    struct arena_progress p;
    arena_progress_init(&p, 0, 4, f);
    arena_progress_show(&p, "chain:ops=4", "naive");
    arena_progress_step(&p);
    arena_progress_clear(&p);
    char *out = written(f);
    cr_expect_str_eq(out, "", "disabled: nothing at all");
    free(out);

    rewind(f);
    arena_progress_init(&p, 1, 4, f);
    arena_progress_show(&p, "chain:ops=4", "naive");
    arena_progress_step(&p);
    arena_progress_show(&p, "chain:ops=4", "ping-pong");
    arena_progress_clear(&p);
    arena_progress_clear(&p); /* nothing shown: no second erase */
    out = written(f);
    fclose(f);
    cr_expect(strstr(out, "\r\033[K[0/4] chain:ops=4 naive  0s  ETA ?") != NULL, "%s", out);
    cr_expect(strstr(out, "[1/4] chain:ops=4 ping-pong  0s  ETA 0s") != NULL, "%s", out);
    cr_expect_eq(count_erases(out), 3);
    free(out);
}
