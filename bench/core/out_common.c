/* out_common.c — what the output formats share (output.h): numbers as text,
 * a result's gap and origin. Apart from the registry (outputs.c), which
 * names the formats, so that no format calls back into the file that lists
 * it. */
#include <math.h>
#include <stdio.h>

#include "bench/core/output.h"

void arena_fmt_grouped(uint64_t v, char *buf, size_t len)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    char out[48];
    size_t o = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0) out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o] = '\0';
    snprintf(buf, len, "%s", out);
}

void arena_fmt_bytes(uint64_t v, char *buf, size_t len)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (v < 1024) {
        snprintf(buf, len, "%llu B", (unsigned long long)v);
        return;
    }
    double x = (double)v;
    size_t u = 0;
    while (x >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
        x /= 1024;
        u++;
    }
    snprintf(buf, len, "%.2f %s", x, units[u]);
}

void arena_fmt_ns(double ns, char *buf, size_t len)
{
    if (!isfinite(ns)) snprintf(buf, len, "-");
    else if (ns < 1e3) snprintf(buf, len, "%.0f ns", ns);
    else if (ns < 1e6) snprintf(buf, len, "%.3g us", ns / 1e3);
    else if (ns < 1e9) snprintf(buf, len, "%.3g ms", ns / 1e6);
    else snprintf(buf, len, "%.3g s", ns / 1e9);
}

double arena_result_gap(const struct arena_result *r)
{
    if (!r->valid || !r->metrics || r->bound == 0) return NAN;
    return (double)r->metrics->arena / (double)r->bound - 1.0;
}

const char *arena_result_origin_detail(const struct arena_result *r)
{
    return r->plugin_path ? r->plugin_path : r->planner_command;
}
