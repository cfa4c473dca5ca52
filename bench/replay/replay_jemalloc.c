/* replay_jemalloc.c — jemalloc (libjemalloc-dev, which replaces malloc in
 * the whole process) for the replay program (replay_prog.h).
 *
 * Footprint: mallctl "stats.resident" read after advancing "epoch" (which
 * refreshes the statistics) — jemalloc's figure for the physically resident
 * pages it maps: pages backing live blocks (size-class rounding and slab
 * slack included), dirty pages freed but not yet returned to the system,
 * and its metadata. Large blocks are extents of their own and count here
 * like any other. */
#include <jemalloc/jemalloc.h>
#include <stdio.h>

#include "bench/replay/replay_prog.h"

static void jemalloc_version(char *buf, size_t len)
{
    const char *v = NULL;
    size_t sz = sizeof v;
    if (mallctl("version", &v, &sz, NULL, 0) == 0 && v)
        snprintf(buf, len, "%s", v);
}

static int jemalloc_footprint(uint64_t *bytes)
{
    uint64_t epoch = 1;
    size_t sz = sizeof epoch;
    if (mallctl("epoch", &epoch, &sz, &epoch, sz) != 0)
        return 1;
    size_t resident = 0;
    sz = sizeof resident;
    if (mallctl("stats.resident", &resident, &sz, NULL, 0) != 0)
        return 1;
    *bytes = resident;
    return 0;
}

static void *jemalloc_alloc(size_t size)
{
    return malloc(size);
}

static void jemalloc_release(void *p)
{
    free(p);
}

const struct arena_replay_allocator arena_replay_allocator = {
    .name = "jemalloc",
    .footprint = "stats.resident",
    .version = jemalloc_version,
    .alloc = jemalloc_alloc,
    .release = jemalloc_release,
    .footprint_now = jemalloc_footprint,
};
