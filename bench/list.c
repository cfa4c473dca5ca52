/* list.c — `bench list`: the families, suites and planners (with their
 * keys) for a person; `bench list planners` the planners alone;
 * with --format csv the planner registry alone as name,kind,summary (for
 * scripts; bench plot reads the registry in-process); with --graph what
 * its suites and sweeps expand to, one spec a line, each checked. */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/core/planner_help.h"
#include "bench/core/session.h"
#include "bench/core/suites.h"
#include "graphs/family.h"
#include "graphs/source.h"
#include "planners/planner.h"

int arena_bench_list(const struct arena_bench_args *a)
{
    /* The whole listing goes out in one flush, where the session's check
     * sees why a write failed (a failed write inside printf leaves errno
     * to be overwritten before the check: "write error" alone). */
    static char out[1 << 16];
    setvbuf(stdout, out, _IOFBF, sizeof out);
    if (a->c.n_graphs) { /* list --graph: what the suites and sweeps stand for */
        char **items = NULL, err[512] = "";
        size_t n = 0;
        int rc = arena_session_expand(&a->c, &items, &n, err, sizeof err);
        if (rc != ARENA_OK) arena_session_say(NULL, "--graph: %s", err);
        /* Every item checked before any is printed: a bad spec is one line. */
        for (size_t i = 0; rc == ARENA_OK && i < n; i++)
            if ((rc = arena_source_check(items[i], err, sizeof err)) != ARENA_OK)
                arena_session_say(NULL, "--graph '%s': %s", items[i], err);
        for (size_t i = 0; rc == ARENA_OK && i < n; i++) printf("%s\n", items[i]);
        arena_session_items_free(items, n);
        return rc == ARENA_OK ? 0 : 2;
    }
    if (strcmp(a->format->name, "csv") == 0) {
        printf("name,kind,summary\n");
        for (size_t i = 0; i < arena_planner_count(); i++) {
            const struct arena_planner *pl = arena_planner_at(i);
            printf("%s,%s,\"", pl->name, arena_planner_kind_name(pl->kind));
            for (const char *c = pl->summary; *c; c++) {
                if (*c == '"') putchar('"');
                putchar(*c);
            }
            printf("\"\n");
        }
        return 0;
    }
    if (a->list_only) { /* bench list planners: the planners and their keys */
        printf("Planners (--planner NAME or NAME:key=value,...; keys shown with their"
               " defaults):\n");
        for (size_t i = 0; i < arena_planner_count(); i++)
            arena_planner_help(stdout, arena_planner_at(i), 2);
        return 0;
    }
    printf("Graph families (--graph family:key=value,...; missing keys take these defaults):\n");
    for (size_t i = 0; i < arena_family_count(); i++) {
        const struct arena_family_info *f = arena_family_at(i);
        printf("  %-18s %s\n  %-18s %s\n", f->name, f->summary, "", f->params);
    }
    printf("\nSuites (--graph NAME or --suite NAME; stats and plot select with --suite):\n");
    for (size_t i = 0; i < arena_bench_suite_count(); i++) {
        size_t n = 0;
        arena_bench_suite(arena_bench_suite_name(i), &n);
        printf("  %-20s %3zu graphs: %s\n", arena_bench_suite_name(i), n,
               arena_bench_suite_summary(i));
    }
    printf("\nModels: a TensorFlow Lite file (.tflite); FILE#N plans subgraph N (default 0).\n");
    printf("        an ONNX file (.onnx) with every dim known (scripts/onnx-shape pins them).\n");
    printf("\nFiles: a path to a MiniMalloc CSV problem or a graph file.\n");
    printf("\nPlanners (--planner a,b or all; NAME:key=value,... sets keys, shown with their"
           " defaults), with their kind:\n");
    for (size_t i = 0; i < arena_planner_count(); i++) arena_planner_help(stdout, arena_planner_at(i), 2);
    return 0;
}

