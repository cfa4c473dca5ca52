/* optimal_trace.c — what the planner `optimal` returns, one line per run:
 * arena, bound, nodes, status and a hash of the offsets. Reads runs from
 * stdin, one a line: SPEC NODE_LIMIT CAPACITY SEED ALIGNMENT (node limit
 * and capacity 0: none); tests/optimal_trace.txt lists the `exact` suite,
 * packed boxes with and without slack and random intervals, under node
 * limits and in decision mode. Two builds that print the same lines behave
 * the same on them: scripts/optimal-same compares this checkout with a
 * git revision.
 *
 *   optimal_trace [ENGINE] < runs
 *
 * ENGINE: the planner's engines (portfolio, search, sat, lcg; default search,
 * the one engine of the revisions before the SAT engine, which compile this
 * file without the option and ignore it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/family.h"
#include "planners/optimal.h"
#include "planners/planner.h"

static uint64_t fnv(const uint64_t *a, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 8; b++)
            h = (h ^ (a[i] >> (8 * b) & 0xff)) * 1099511628211ull;
    return h;
}

int main(int argc, char **argv)
{
    const struct arena_planner *pl = arena_planner_find("optimal");
    const char *engine = argc > 1 ? argv[1] : "search";
#ifdef ARENA_OPTIMAL_ENGINES
    uint32_t engine_id = ARENA_OPTIMAL_ENGINES;
    for (uint32_t e = 0; e < ARENA_OPTIMAL_ENGINES; e++)
        if (strcmp(engine, arena_optimal_engine_name(e)) == 0)
            engine_id = e;
    if (engine_id == ARENA_OPTIMAL_ENGINES) {
        fprintf(stderr, "optimal_trace: no engine '%s' (portfolio, search, sat, lcg)\n", engine);
        return 2;
    }
#else
    if (strcmp(engine, "search") != 0) {
        fprintf(stderr, "optimal_trace: this revision has one engine, search\n");
        return 2;
    }
#endif
    char line[512];
    while (fgets(line, sizeof line, stdin)) {
        char spec_text[400];
        unsigned long long nl, cap, seed, align;
        if (sscanf(line, "%399s %llu %llu %llu %llu", spec_text, &nl, &cap, &seed, &align) != 5)
            continue;
        struct arena_spec spec;
        struct arena_problem p = {0};
        char err[256];
        size_t ops;
        if (arena_spec_parse(spec_text, 1, &spec, err, sizeof err) != ARENA_OK ||
            arena_spec_build(&spec, align, &p, &ops, NULL, err, sizeof err) != ARENA_OK) {
            printf("%s ERROR %s\n", spec_text, err);
            continue;
        }
        size_t sb = 0;
        arena_planner_scratch(pl, &p, &sb);
        void *scratch = malloc(sb + 1);
        uint64_t *off = malloc((p.n + 1) * sizeof *off);
        if (!scratch || !off) {
            fprintf(stderr, "optimal_trace: out of memory\n");
            return 1;
        }
        struct arena_plan plan = {.n = p.n, .offsets = off};
        arena_plan_reset(&plan);
        struct arena_plan_options opt = {.node_limit = nl, .capacity = cap, .seed = seed};
#if defined(ARENA_PLANNER_MAX_KEYS) /* ABI 2: the engine is a key */
        struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
        arena_optimal_values(kv, engine_id, 0);
        opt.values = kv;
#elif defined(ARENA_OPTIMAL_ENGINES)
        opt.optimal_engine = engine_id;
#endif
        int rc = arena_planner_run(pl, &p, &opt, scratch, sb, &plan);
        printf("%s nl=%llu cap=%llu seed=%llu al=%llu rc=%d arena=%llu bound=%llu nodes=%llu status=%d hash=%016llx\n",
               spec_text, nl, cap, seed, align, rc, (unsigned long long)plan.arena,
               (unsigned long long)plan.bound, (unsigned long long)plan.nodes, (int)plan.status,
               (unsigned long long)fnv(off, p.n));
        fflush(stdout);
        free(scratch);
        free(off);
        free((void *)p.tensors);
    }
    return 0;
}
