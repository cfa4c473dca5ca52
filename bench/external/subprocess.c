/* subprocess.c — one run of another program, its output collected (subprocess.h). */
#include "bench/external/subprocess.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Adds n bytes of s to b: ARENA_OK, or ARENA_ENOMEM. */
static int buf_put(struct arena_buf *b, const char *s, size_t n)
{
    arena_buf_addn(b, s, n);
    return b->oom ? ARENA_ENOMEM : ARENA_OK;
}

/* Keeps the last keep bytes of what b and s hold together. */
static int buf_tail(struct arena_buf *b, const char *s, size_t n, size_t keep)
{
    if (n >= keep) {
        b->len = 0;
        return buf_put(b, s + n - keep, keep);
    }
    if (b->len + n > keep) {
        size_t drop = b->len + n - keep;
        memmove(b->s, b->s + drop, b->len - drop);
        b->len -= drop;
    }
    return buf_put(b, s, n);
}

static void cloexec(int fd)
{
    int f = fcntl(fd, F_GETFD);
    if (f >= 0)
        fcntl(fd, F_SETFD, f | FD_CLOEXEC);
}

double arena_spawn_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void arena_spawn_describe(int status, char *buf, size_t len)
{
    if (WIFEXITED(status))
        snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    else
        snprintf(buf, len, "ended with wait status %d", status);
}

void arena_spawn_free(struct arena_spawn *s)
{
    arena_buf_free(&s->out);
    arena_buf_free(&s->err);
}

/* Three pipes, close-on-exec: fd[0..1] stdin, fd[2..3] stdout, fd[4..5]
 * stderr (read end first). ARENA_OK, or ARENA_EIO with none left open. */
static int open_pipes(int fd[6], char *err, size_t errlen)
{
    for (int i = 0; i < 6; i += 2) {
        if (pipe(fd + i) == 0) continue;
        int e = errno;
        for (int k = 0; k < i; k++) close(fd[k]);
        return arena_errorf(err, errlen, 0, ARENA_EIO, "pipe: %s", strerror(e));
    }
    for (int i = 0; i < 6; i++)
        cloexec(fd[i]);
    return ARENA_OK;
}

/* Starts s->path in a process group of its own on the pipes' child ends,
 * which it closes; on failure closes every pipe. posix_spawn's error or 0. */
static int start(const struct arena_spawn *s, const int fd[6], pid_t *pid)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[0], 0);
    posix_spawn_file_actions_adddup2(&fa, fd[3], 1);
    posix_spawn_file_actions_adddup2(&fa, fd[5], 2);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    int e = posix_spawn(pid, s->path, &fa, &at, s->argv, s->envp ? s->envp : environ);
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[0]);
    close(fd[3]);
    close(fd[5]);
    if (e != 0) {
        close(fd[1]);
        close(fd[2]);
        close(fd[4]);
    }
    return e;
}

/* Whether the caller's stop flag or time limit ends the run now (s->end
 * set), started at t0. */
static int ended(struct arena_spawn *s, const struct arena_plan_options *opt, double t0)
{
    if (opt && opt->stop && *opt->stop) {
        s->end = ARENA_SPAWN_STOPPED;
        return 1;
    }
    if (opt && opt->time_limit > 0 && arena_spawn_now() - t0 >= opt->time_limit) {
        s->end = ARENA_SPAWN_TIMED_OUT;
        return 1;
    }
    return 0;
}

/* One read of the program's stdout (err_side 0) or stderr (1) into s; *open
 * cleared at its end. ARENA_OK, or ARENA_ENOMEM with one line in err. */
static int take(struct arena_spawn *s, int fd, int err_side, int *open, char *err, size_t errlen)
{
    char chunk[65536];
    ssize_t r = read(fd, chunk, sizeof chunk);
    if (r <= 0) {
        if (r == 0 || errno != EINTR) *open = 0;
        return ARENA_OK;
    }
    if (err_side) {
        if (s->err_keep && buf_tail(&s->err, chunk, (size_t)r, s->err_keep) != ARENA_OK)
            return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
        return ARENA_OK;
    }
    if (s->out.len + (size_t)r > s->out_max)
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "more than %zu bytes on stdout",
                            s->out_max);
    if (buf_put(&s->out, chunk, (size_t)r) != ARENA_OK)
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "output too large");
    return ARENA_OK;
}

/* Feeds s->in to the program's stdin (wfd, -1 when done) and collects its
 * stdout and stderr (rfd_out, rfd_err) until all three are closed, the stop
 * flag or the time limit ends it (s->end), or an error (returned, one line
 * in err). Closes wfd. */
static int pump(struct arena_spawn *s, const struct arena_plan_options *opt, double t0, int wfd,
                int rfd_out, int rfd_err, char *err, size_t errlen)
{
    int rc = ARENA_OK, open_out = 1, open_err = 1;
    size_t sent = 0;
    while ((open_out || open_err || wfd >= 0) && !ended(s, opt, t0)) {
        struct pollfd pf[3];
        nfds_t np = 0;
        int iw = -1, io = -1, ie = -1;
        if (wfd >= 0) {
            pf[np] = (struct pollfd){.fd = wfd, .events = POLLOUT};
            iw = (int)np++;
        }
        if (open_out) {
            pf[np] = (struct pollfd){.fd = rfd_out, .events = POLLIN};
            io = (int)np++;
        }
        if (open_err) {
            pf[np] = (struct pollfd){.fd = rfd_err, .events = POLLIN};
            ie = (int)np++;
        }
        int ready = poll(pf, np, 100);
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            rc = arena_errorf(err, errlen, 0, ARENA_EIO, "poll: %s", strerror(errno));
            break;
        }
        if (ready == 0)
            continue;
        if (iw >= 0 && pf[iw].revents) {
            ssize_t w = write(wfd, s->in + sent, s->in_len - sent);
            if (w > 0)
                sent += (size_t)w;
            if ((w < 0 && errno != EAGAIN && errno != EINTR) || sent == s->in_len) {
                close(wfd);
                wfd = -1;
            }
        }
        if (io >= 0 && pf[io].revents && (rc = take(s, rfd_out, 0, &open_out, err, errlen)))
            break;
        if (ie >= 0 && pf[ie].revents && (rc = take(s, rfd_err, 1, &open_err, err, errlen)))
            break;
    }
    if (wfd >= 0)
        close(wfd);
    return rc;
}

/* Waits for pid without reaping, so that its group id stays its own while
 * what it left running in the group (a wrapper script's children) is
 * killed; then reaps it into s->status. A program that closed its output
 * but runs on is still held to the stop flag and the time limit: the wait
 * naps from 50 us up to 10 ms between looks (the exit usually follows the
 * close of its output at once, and the time measured should not wait). */
static void reap(struct arena_spawn *s, const struct arena_plan_options *opt, double t0, pid_t pid)
{
    long nap_ns = 50000;
    for (;;) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        int w = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT | WNOHANG);
        if (w == 0 && si.si_pid == pid) break;
        if (w < 0 && errno != EINTR) break;
        if (s->end == ARENA_SPAWN_RAN && ended(s, opt, t0))
            kill(-pid, SIGKILL);
        struct timespec nap = {0, nap_ns};
        nanosleep(&nap, NULL);
        if (nap_ns < 10000000) nap_ns *= 2;
    }
    s->wall_s = arena_spawn_now() - t0;
    kill(-pid, SIGKILL);
    while (waitpid(pid, &s->status, 0) < 0 && errno == EINTR)
        ;
}

int arena_spawn_run(struct arena_spawn *s, const struct arena_plan_options *opt, char *err,
                    size_t errlen)
{
    s->end = ARENA_SPAWN_RAN;
    s->status = 0;
    s->wall_s = 0;
    int fd[6];
    if (open_pipes(fd, err, errlen) != ARENA_OK)
        return ARENA_EIO;
    pid_t pid;
    double t0 = arena_spawn_now();
    int e = start(s, fd, &pid);
    if (e != 0)
        return arena_errorf(err, errlen, 0, ARENA_EIO, "cannot start %s: %s", s->path,
                            strerror(e));
    /* A program that dies before reading all its input must not take bench
     * down with SIGPIPE: its exit status tells what happened. */
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old);
    int wfd = fd[1];
    if (s->in_len == 0) {
        close(wfd);
        wfd = -1;
    } else {
        fcntl(wfd, F_SETFL, fcntl(wfd, F_GETFL) | O_NONBLOCK);
    }
    int rc = pump(s, opt, t0, wfd, fd[2], fd[4], err, errlen);
    close(fd[2]);
    close(fd[4]);
    if (rc != ARENA_OK || s->end != ARENA_SPAWN_RAN)
        kill(-pid, SIGKILL);
    reap(s, opt, t0, pid);
    sigaction(SIGPIPE, &old, NULL);
    return rc;
}
