/* shard.h — bench --shard K/N: split a run's graph x planner jobs into N
 * deterministic parts of sizes that differ by at most one. */
#ifndef ARENA_BENCH_SHARD_H
#define ARENA_BENCH_SHARD_H

#include <stddef.h>
#include <stdint.h>

/* The 64-bit FNV-1a hash of a job: canonical spec, a NUL byte, planner name. */
uint64_t arena_shard_hash(const char *spec, const char *planner);

/* part[i] receives the part (1..n_parts) of job i = (spec[i], planner[i]):
 * the jobs sorted by (hash, spec, planner) are dealt round-robin, so every
 * part gets floor or ceil of n / n_parts jobs, and the assignment depends
 * only on the set of jobs: not on their order, the machine or the build.
 * ARENA_ENOMEM, or ARENA_OK. */
int arena_shard_assign(const char *const *spec, const char *const *planner, size_t n,
                       unsigned n_parts, unsigned *part);

#endif
