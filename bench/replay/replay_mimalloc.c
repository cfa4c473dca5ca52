/* replay_mimalloc.c — mimalloc (libmimalloc-dev) for the replay program
 * (replay_prog.h). The tensors go through mi_malloc / mi_free; the program
 * makes no other allocations of its own.
 *
 * Footprint: the current_commit of mi_process_info() after mi_stats_merge()
 * — mimalloc's own count of the memory it has committed from the system
 * (segments, their pages and metadata). Huge blocks get segments of their
 * own and count here like any other. */
#include <mimalloc.h>
#include <stdio.h>

#include "bench/replay/replay_prog.h"

static void mimalloc_version(char *buf, size_t len)
{
    int v = mi_version();
    snprintf(buf, len, "%d.%d.%d", v / 100, v / 10 % 10, v % 10);
}

static int mimalloc_footprint(uint64_t *bytes)
{
    size_t elapsed, user, sys, rss, peak_rss, commit, peak_commit, faults;
    mi_stats_merge();
    mi_process_info(&elapsed, &user, &sys, &rss, &peak_rss, &commit, &peak_commit, &faults);
    *bytes = commit;
    return 0;
}

static void *mimalloc_alloc(size_t size)
{
    return mi_malloc(size);
}

static void mimalloc_release(void *p)
{
    mi_free(p);
}

const struct arena_replay_allocator arena_replay_allocator = {
    .name = "mimalloc",
    .footprint = "mi_process_info.current_commit",
    .version = mimalloc_version,
    .alloc = mimalloc_alloc,
    .release = mimalloc_release,
    .footprint_now = mimalloc_footprint,
};
