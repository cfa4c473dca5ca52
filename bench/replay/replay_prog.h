/* replay_prog.h — one replay program per real allocator (glibc malloc,
 * jemalloc, mimalloc): the shared replay in replay_prog.c, linked with one
 * allocator's table (replay_glibc.c, replay_jemalloc.c, replay_mimalloc.c)
 * into its own executable, so no two allocators, and not the harness, ever
 * share a heap. bench starts them (bench/replay/replay.c).
 *
 * Protocol. Command line: `arena-replay-NAME FRAMES`. Standard input: the
 * problem as text, `arenabench-replay-problem 1`, then the tensor count n,
 * then n records `size first last` (closed lifetimes in steps), all separated
 * by blanks or newlines. Standard output, one fact per line, space separated:
 *
 *   arenabench-replay 1
 *   allocator NAME VERSION
 *   footprint SOURCE            how the footprint figure is read (one word)
 *   tensors N
 *   frames F
 *   live_peak BYTES             most requested bytes live at one step
 *   baseline BYTES              the footprint before the first frame
 *   resident_baseline BYTES     the process's resident bytes then
 *   frame K calls C footprint_peak BYTES extent_peak BYTES resident_peak BYTES
 *                               (K = 1..F; resident_peak above the baseline)
 *   ns_per_call_median NS
 *   end
 *
 * A frame replays every step once (docs/runtime.md): at
 * step t free every tensor whose last step is t-1, lowest id first, then
 * malloc every tensor whose first step is t, lowest id first; the tensors
 * still live after the last step are freed at its end, so a frame makes
 * exactly one malloc and one free per tensor. After each step's mallocs the
 * program reads the allocator's footprint and the address extent of the live
 * blocks (highest end - lowest start), and the process's resident bytes
 * (/proc/self/statm: the same OS figure for every allocator, beside each
 * one's own); a frame's figures are their maxima.
 * Each block gets one byte written per 4 KiB page, as a kernel would write
 * its tensor, so the pages are really used. Timing is a second pass of F
 * frames without reads or writes: one clock pair around each frame, ns per
 * call = frame time / calls, the median over frames.
 *
 * The program's own memory (problem, pointers, orders) comes from mmap, never
 * from the allocator under test, and it prints with write(2), not stdio, so
 * the allocator's heap holds the tensors and little else. Errors: one line on
 * standard error, exit status 2. */
#ifndef ARENA_REPLAY_PROG_H
#define ARENA_REPLAY_PROG_H

#include <stddef.h>
#include <stdint.h>

struct arena_replay_allocator {
    const char *name;      /* glibc, jemalloc, mimalloc */
    const char *footprint; /* how the footprint is read, one word */
    void (*version)(char *buf, size_t len);
    void *(*alloc)(size_t size);
    void (*release)(void *p);
    /* The allocator's own current footprint in bytes; nonzero on failure. */
    int (*footprint_now)(uint64_t *bytes);
};

/* Defined by each allocator's file. */
extern const struct arena_replay_allocator arena_replay_allocator;

#endif
