/* run_bench.c — see run_bench.h. */
#include "tests/run_bench.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"
#include "tests/tmpdb.h"

int run_bench(const char *tag, const char *const *args)
{
    char out[160], err[160];
    snprintf(out, sizeof out, "%s/%s.out", td_dir, tag);
    snprintf(err, sizeof err, "%s/%s.err", td_dir, tag);
    fflush(NULL);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr))
            _exit(99);
        char *argv[40];
        int argc = 0;
        argv[argc++] = (char *)"bench";
        for (; args[argc - 1] && argc < 39; argc++)
            argv[argc] = (char *)args[argc - 1];
        argv[argc] = NULL;
        int rc = arena_bench_main(argc, argv);
        fflush(NULL);
        _exit(rc);
    }
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

char *run_bench_output(const char *tag, const char *ext)
{
    char path[200];
    snprintf(path, sizeof path, "%s/%s.%s", td_dir, tag, ext);
    char *s = td_slurp(path, NULL);
    cr_assert(s, "no %s", path);
    return s;
}
