/* replay_glibc.c — glibc malloc for the replay program (replay_prog.h).
 *
 * Footprint: mallinfo2().arena + mallinfo2().hblkhd — the bytes the heap
 * holds from the system through brk/sbrk (and in any other arena), free
 * chunks and the untrimmed top included, plus the blocks glibc maps on their
 * own with mmap (requests at or above the mmap threshold, 128 KiB at first;
 * glibc raises the threshold when such a block is freed, so later frames may
 * keep large tensors in the heap instead). */
#define _DEFAULT_SOURCE
#include <gnu/libc-version.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/replay/replay_prog.h"

static void glibc_version(char *buf, size_t len)
{
    snprintf(buf, len, "%s", gnu_get_libc_version());
}

static int glibc_footprint(uint64_t *bytes)
{
    struct mallinfo2 mi = mallinfo2();
    *bytes = (uint64_t)mi.arena + (uint64_t)mi.hblkhd;
    return 0;
}

const struct arena_replay_allocator arena_replay_allocator = {
    .name = "glibc",
    .footprint = "mallinfo2.arena+hblkhd",
    .version = glibc_version,
    .alloc = malloc,
    .release = free,
    .footprint_now = glibc_footprint,
};
