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

int arena_spawn_run(struct arena_spawn *s, const struct arena_plan_options *opt, char *err,
                    size_t errlen)
{
    s->end = ARENA_SPAWN_RAN;
    s->status = 0;
    s->wall_s = 0;
    int pin[2], pout[2], perr[2];
    if (pipe(pin) != 0)
        return arena_errorf(err, errlen, 0, ARENA_EIO, "pipe: %s", strerror(errno));
    if (pipe(pout) != 0) {
        close(pin[0]);
        close(pin[1]);
        return arena_errorf(err, errlen, 0, ARENA_EIO, "pipe: %s", strerror(errno));
    }
    if (pipe(perr) != 0) {
        close(pin[0]);
        close(pin[1]);
        close(pout[0]);
        close(pout[1]);
        return arena_errorf(err, errlen, 0, ARENA_EIO, "pipe: %s", strerror(errno));
    }
    int fds[6] = {pin[0], pin[1], pout[0], pout[1], perr[0], perr[1]};
    for (int i = 0; i < 6; i++)
        cloexec(fds[i]);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pin[0], 0);
    posix_spawn_file_actions_adddup2(&fa, pout[1], 1);
    posix_spawn_file_actions_adddup2(&fa, perr[1], 2);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    pid_t pid;
    double t0 = arena_spawn_now();
    int e = posix_spawn(&pid, s->path, &fa, &at, s->argv, s->envp ? s->envp : environ);
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    close(pin[0]);
    close(pout[1]);
    close(perr[1]);
    if (e != 0) {
        close(pin[1]);
        close(pout[0]);
        close(perr[0]);
        return arena_errorf(err, errlen, 0, ARENA_EIO, "cannot start %s: %s", s->path,
                            strerror(e));
    }
    /* A program that dies before reading all its input must not take bench
     * down with SIGPIPE: its exit status tells what happened. */
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old);
    int wfd = pin[1], rc = ARENA_OK;
    size_t sent = 0;
    if (s->in_len == 0) {
        close(wfd);
        wfd = -1;
    } else {
        fcntl(wfd, F_SETFL, fcntl(wfd, F_GETFL) | O_NONBLOCK);
    }
    int open_out = 1, open_err = 1;
    while (open_out || open_err || wfd >= 0) {
        if (opt && opt->stop && *opt->stop) {
            s->end = ARENA_SPAWN_STOPPED;
            break;
        }
        if (opt && opt->time_limit > 0 && arena_spawn_now() - t0 >= opt->time_limit) {
            s->end = ARENA_SPAWN_TIMED_OUT;
            break;
        }
        struct pollfd pf[3];
        nfds_t np = 0;
        int iw = -1, io = -1, ie = -1;
        if (wfd >= 0) {
            pf[np] = (struct pollfd){.fd = wfd, .events = POLLOUT};
            iw = (int)np++;
        }
        if (open_out) {
            pf[np] = (struct pollfd){.fd = pout[0], .events = POLLIN};
            io = (int)np++;
        }
        if (open_err) {
            pf[np] = (struct pollfd){.fd = perr[0], .events = POLLIN};
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
        char chunk[65536];
        if (io >= 0 && pf[io].revents) {
            ssize_t r = read(pout[0], chunk, sizeof chunk);
            if (r > 0) {
                if (s->out.len + (size_t)r > s->out_max) {
                    rc = arena_errorf(err, errlen, 0, ARENA_ENOMEM,
                                      "more than %zu bytes on stdout", s->out_max);
                    break;
                }
                if (buf_put(&s->out, chunk, (size_t)r) != ARENA_OK) {
                    rc = arena_errorf(err, errlen, 0, ARENA_ENOMEM, "output too large");
                    break;
                }
            } else if (r == 0 || errno != EINTR) {
                open_out = 0;
            }
        }
        if (ie >= 0 && pf[ie].revents) {
            ssize_t r = read(perr[0], chunk, sizeof chunk);
            if (r > 0) {
                if (s->err_keep && buf_tail(&s->err, chunk, (size_t)r, s->err_keep) != ARENA_OK) {
                    rc = arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
                    break;
                }
            } else if (r == 0 || errno != EINTR) {
                open_err = 0;
            }
        }
    }
    if (wfd >= 0)
        close(wfd);
    close(pout[0]);
    close(perr[0]);
    if (rc != ARENA_OK || s->end != ARENA_SPAWN_RAN)
        kill(-pid, SIGKILL);
    /* Waited for without reaping, so that its group id stays its own while
     * what it left running in the group (a wrapper script's children) is
     * killed; then reaped. A program that closed its output but runs on is
     * still held to the stop flag and the time limit: the wait naps from
     * 50 us up to 10 ms between looks (the exit usually follows the close
     * of its output at once, and the time measured should not wait). */
    long nap_ns = 50000;
    for (;;) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        int w = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT | WNOHANG);
        if (w == 0 && si.si_pid == pid) break;
        if (w < 0 && errno != EINTR) break;
        if (s->end == ARENA_SPAWN_RAN && opt && opt->stop && *opt->stop) {
            s->end = ARENA_SPAWN_STOPPED;
            kill(-pid, SIGKILL);
        } else if (s->end == ARENA_SPAWN_RAN && opt && opt->time_limit > 0 &&
                   arena_spawn_now() - t0 >= opt->time_limit) {
            s->end = ARENA_SPAWN_TIMED_OUT;
            kill(-pid, SIGKILL);
        }
        struct timespec nap = {0, nap_ns};
        nanosleep(&nap, NULL);
        if (nap_ns < 10000000) nap_ns *= 2;
    }
    s->wall_s = arena_spawn_now() - t0;
    kill(-pid, SIGKILL);
    while (waitpid(pid, &s->status, 0) < 0 && errno == EINTR)
        ;
    sigaction(SIGPIPE, &old, NULL);
    return rc;
}
