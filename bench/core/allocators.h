/* allocators.h — what the planning commands' option table (args.c) knows
 * of the real allocators bench replays (bench/replay/): their names, which
 * --allocator lists and parses, and the bounds of --frames; here, below
 * both the table and the replays. */
#ifndef ARENA_BENCH_ALLOCATORS_H
#define ARENA_BENCH_ALLOCATORS_H

#include <stddef.h>

#define ARENA_REPLAY_FRAMES_DEFAULT 100
#define ARENA_REPLAY_FRAMES_MAX 1000000

/* The allocators, in the order of tables: glibc, jemalloc, mimalloc. */
#define ARENA_REPLAY_ALLOCATORS 3
const char *arena_replay_allocator_name(unsigned i); /* NULL past the end */

/* Parses a comma list of allocator names, or all, into a bit mask (bit i =
 * allocator i). ARENA_EINVAL with one line in err naming the known ones, which
 * the caller starts with its option's name. */
int arena_replay_parse(const char *list, unsigned *mask, char *err, size_t errlen);

#endif
