/* pairset.h — a set of (text, number) pairs: open addressing on FNV-1a,
 * doubled before it is half full, so n adds take linear time (a sweep may
 * name 10^6 specs). The texts are borrowed: they must outlive the set. */
#ifndef ARENA_BENCH_PAIRSET_H
#define ARENA_BENCH_PAIRSET_H

#include <stddef.h>
#include <stdint.h>

struct arena_pairset {
    const char **text;
    uint64_t *num;
    size_t cap, n; /* cap a power of two or 0 */
};

/* Adds (text, num): 1 added, 0 already there, -1 out of memory. A
 * zero-initialised set is empty. */
int arena_pairset_add(struct arena_pairset *s, const char *text, uint64_t num);
void arena_pairset_free(struct arena_pairset *s);

#endif
