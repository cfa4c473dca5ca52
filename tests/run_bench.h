/* run_bench.h — bench run in a child process by the tests that drive whole
 * commands (merge, replay): stdout and stderr in td_dir/TAG.out and .err. */
#ifndef RUN_BENCH_H
#define RUN_BENCH_H

/* Runs bench with args (NULL-terminated, at most 38, argv[0] added) in a
 * forked child; returns its exit status (asserts it exited). */
int run_bench(const char *tag, const char *const *args);

/* What that run wrote: td_dir/TAG.EXT (ext "out" or "err"), malloc'd;
 * asserts it exists. */
char *run_bench_output(const char *tag, const char *ext);

#endif
