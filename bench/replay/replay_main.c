/* replay_main.c — `bench replay` (and --founding-table): each graph
 * replayed by real allocators, each in a program of its own (replay.c),
 * and for the founding table the planners once each, instead of Google
 * Benchmark's timing; every replay stored as it finishes. */
#include <stdio.h>

#include "bench/core/args.h"
#include "bench/core/session.h"
#include "bench/replay/replay.h"

static int replay_graphs(struct arena_session *s, const struct arena_bench_args *a)
{
    unsigned mask = a->replay ? a->replay : (1u << ARENA_REPLAY_ALLOCATORS) - 1;
    FILE *out = s->args.quiet ? NULL : stdout;
    for (size_t i = 0; i < s->n_graphs && !arena_session_stopped(); i++) {
        struct arena_session_graph *g = &s->graphs[i];
        char doing[600];
        snprintf(doing, sizeof doing, "replaying %s", g->src.spec);
        arena_progress_doing(&s->progress, doing);
        if (s->store && arena_session_store_run_and_graph(s, g) != ARENA_OK) {
            arena_session_say(s, "%s", arena_store_error(s->store));
            return 2;
        }
        int status = a->founding_table
                         ? arena_founding_table(&g->src, &g->bounds, mask, a->frames,
                                                s->n_graphs == 1, &s->args.options, s->store,
                                                s->run_id, g->db_id, out)
                         : arena_replay_graph(&g->src, &g->bounds, mask, a->frames, &s->args.options,
                                              s->store, s->run_id, g->db_id, out);
        if (status && !arena_session_stopped()) return status;
    }
    if (arena_session_stopped()) {
        arena_session_say(s, "stopped by signal %d; the allocator's program was killed%s",
                          arena_session_stopped(),
                          s->store ? ", every finished replay is stored" : "");
        return 128 + arena_session_stopped();
    }
    return 0;
}

int arena_bench_replay(const struct arena_bench_args *a, int argc, char **argv)
{
    struct arena_session s;
    int status = arena_session_begin(&s, &a->c, argc, argv);
    if (status == 0) status = arena_session_load(&s);
    if (status == 0) status = arena_session_open_store(&s);
    if (status == 0) status = replay_graphs(&s, a);
    arena_session_end(&s);
    return status;
}
