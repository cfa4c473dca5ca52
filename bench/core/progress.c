/* progress.c — the progress line, the periodic lines and the answer to a
 * signal (progress.h). */
#include "bench/core/progress.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/base/utf8.h"

const char *arena_progress_mode_name(size_t i)
{
    static const char *const names[] = {"auto", "always", "never"};
    return i < sizeof names / sizeof names[0] ? names[i] : NULL;
}

int arena_progress_mode_parse(const char *text, enum arena_progress_mode *mode)
{
    const char *name;
    for (size_t i = 0; (name = arena_progress_mode_name(i)); i++)
        if (strcmp(text, name) == 0) {
            *mode = (enum arena_progress_mode)i;
            return 0;
        }
    return -1;
}

static double since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

double arena_progress_elapsed(const struct arena_progress *p)
{
    return since(&p->start);
}

double arena_progress_estimate(size_t n, const size_t *group, const double *weight, const double *cap,
                               const double *took, size_t cur, double running)
{
    size_t groups = 0;
    double all_t = 0, all_w = 0;
    for (size_t i = 0; i < n; i++) {
        if (group[i] + 1 > groups) groups = group[i] + 1;
        if (took[i] >= 0) all_t += took[i], all_w += weight[i];
    }
    if (!(all_w > 0)) return -1;
    double *t = calloc(2 * groups, sizeof *t), *w = t + groups;
    if (!t) return -1;
    for (size_t i = 0; i < n; i++)
        if (took[i] >= 0) t[group[i]] += took[i], w[group[i]] += weight[i];
    double left = 0;
    for (size_t j = 0; j < n; j++) {
        if (took[j] >= 0) continue;
        size_t g = group[j];
        /* a planner not seen yet: the rate of all, or a search's limit */
        double e = w[g] > 0 ? t[g] / w[g] * weight[j] : cap[j] > 0 ? cap[j] : all_t / all_w * weight[j];
        if (cap[j] > 0 && e > cap[j]) e = cap[j];
        if (j == cur) e = e > running ? e - running : 0;
        left += e;
    }
    free(t);
    return left;
}

static void span(double s, char *buf, size_t len)
{
    if (s < 60) snprintf(buf, len, "%.0fs", s);
    else if (s < 3600) snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)s % 60);
    else snprintf(buf, len, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
}

/* "ETA 1m30s", "1m30s left", or "" when nothing is done yet to go by. */
static void left_text(const struct arena_progress *p, char *buf, size_t len, int line)
{
    double left = p->took ? arena_progress_estimate(p->total, p->group, p->weight, p->cap, p->took,
                                                    p->current, since(&p->job_start))
                          : -1;
    char s[16];
    if (left < 0) {
        snprintf(buf, len, "%s", line ? "" : "ETA ?");
        return;
    }
    span(left, s, sizeof s);
    snprintf(buf, len, line ? ", about %s left" : "ETA %s", s);
}

/* The live line, redrawn: [done/total] graph planner elapsed ETA, short
 * enough for an 80-column terminal (the graph cut at a character). */
static void draw(struct arena_progress *p)
{
    char el[16], eta[32];
    span(arena_progress_elapsed(p), el, sizeof el);
    left_text(p, eta, sizeof eta, 0);
    const char *on = strstr(p->what, " on ");
    const char *graph = on && p->current < p->total ? on + 4 : p->what;
    int plen = on && p->current < p->total ? (int)(on - p->what) : 0;
    int room = 80 - 40 - plen, glen = (int)arena_utf8_chars(graph);
    if (room < 12) room = 12;
    int cut = glen > room;
    fprintf(p->err, "\r\033[K[%zu/%zu] %.*s%s %.*s  %s  %s", p->done, p->total,
            cut ? (int)arena_utf8_prefix(graph, (size_t)room - 3) : (int)strlen(graph), graph,
            cut ? "..." : "", plen, p->what, el, eta);
    fflush(p->err);
    p->shown = 1;
}

/* A line for a log: what is done, what is left, what runs now. */
static void line(struct arena_progress *p)
{
    char el[16], left[48];
    span(arena_progress_elapsed(p), el, sizeof el);
    left_text(p, left, sizeof left, 1);
    fprintf(p->err, "bench: %zu of %zu done in %s%s", p->done, p->total, el, left);
    if (p->doing) fprintf(p->err, "; now %s (%.0f s)", p->what, since(&p->job_start));
    fputc('\n', p->err);
    fflush(p->err);
    clock_gettime(CLOCK_MONOTONIC, &p->last_line);
}

static void unshow(struct arena_progress *p)
{
    if (!p->live || !p->shown) return;
    fputs("\r\033[K", p->err);
    fflush(p->err);
    p->shown = 0;
}

/* The answer to a signal, the moment the watcher reads it. */
static void acknowledge(struct arena_progress *p, int sig)
{
    unshow(p);
    if (!p->stop_sig) {
        p->stop_sig = sig;
        snprintf(p->stop_what, sizeof p->stop_what, "%s", p->doing ? p->what : "");
        p->stop_into = p->doing ? since(&p->job_start) : 0;
    }
    if (p->doing)
        fprintf(p->err, "bench: %s: stopping after the current %s: %s, running %.0f s (a second %s stops"
                        " at once)\n", sig == SIGTERM ? "SIGTERM" : "SIGINT",
                p->current < p->total ? "call" : "step", p->what, since(&p->job_start),
                sig == SIGTERM ? "SIGTERM" : "SIGINT");
    else
        fprintf(p->err, "bench: %s: stopping (a second %s stops at once)\n",
                sig == SIGTERM ? "SIGTERM" : "SIGINT", sig == SIGTERM ? "SIGTERM" : "SIGINT");
    fflush(p->err);
}

/* Answers the signal the handler handed over, if any: read under the
 * lock only, so that whoever prints next (the watcher or a message of the
 * main thread, through arena_progress_clear) prints after the answer. */
static void take_signal(struct arena_progress *p)
{
    unsigned char sig = 0;
    while (p->started && read(p->wake[0], &sig, 1) == 1)
        if (sig) acknowledge(p, sig);
}

static void *watch(void *arg)
{
    struct arena_progress *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->quit) {
        /* Wake for a signal, the next redraw, or the next line. */
        int ms = -1;
        if (p->live) ms = 1000;
        if (p->lines) {
            double due = p->period - since(&p->last_line);
            int l = due <= 0 ? 0 : (int)ceil(due * 1000);
            ms = ms < 0 || l < ms ? l : ms;
        }
        pthread_mutex_unlock(&p->lock);
        struct pollfd pf = {.fd = p->wake[0], .events = POLLIN};
        (void)poll(&pf, 1, ms);
        pthread_mutex_lock(&p->lock);
        take_signal(p);
        if (p->quit) break;
        if (p->lines && since(&p->last_line) >= p->period) line(p);
        if (p->live && p->shown) draw(p);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

void arena_progress_init(struct arena_progress *p, enum arena_progress_mode mode, int quiet, int tty,
                         FILE *err)
{
    memset(p, 0, sizeof *p);
    int on = mode == ARENA_PROGRESS_ALWAYS || (mode == ARENA_PROGRESS_AUTO && !quiet);
    p->live = on && tty;
    p->lines = on && !tty;
    p->err = err;
    p->period = ARENA_PROGRESS_PERIOD;
    const char *env = getenv("ARENA_PROGRESS_PERIOD");
    char *end;
    double v = env ? strtod(env, &end) : 0;
    if (env && *env && !*end && v > 0 && v < 1e6) p->period = v;
    p->wake[0] = p->wake[1] = -1;
    clock_gettime(CLOCK_MONOTONIC, &p->start);
    p->job_start = p->last_line = p->start;
    pthread_mutex_init(&p->lock, NULL);
    if (pipe(p->wake) != 0) {
        p->wake[0] = p->wake[1] = -1;
        return;
    }
    for (int i = 0; i < 2; i++) {
        fcntl(p->wake[i], F_SETFD, FD_CLOEXEC);
        fcntl(p->wake[i], F_SETFL, O_NONBLOCK);
    }
    /* The watcher blocks the stop signals: they go to the thread that runs
     * the planners, whose calls they interrupt. */
    sigset_t stop, old;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, &old);
    p->started = pthread_create(&p->thread, NULL, watch, p) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!p->started) {
        close(p->wake[0]);
        close(p->wake[1]);
        p->wake[0] = p->wake[1] = -1;
    }
}

int arena_progress_signal_fd(const struct arena_progress *p)
{
    return p->started ? p->wake[1] : -1;
}

static void free_jobs(struct arena_progress *p)
{
    free(p->group);
    free(p->weight);
    free(p->cap);
    free(p->took);
    p->group = NULL, p->weight = p->cap = p->took = NULL;
}

int arena_progress_plan(struct arena_progress *p, size_t n, const size_t *group, const double *weight,
                        const double *cap)
{
    pthread_mutex_lock(&p->lock);
    free_jobs(p);
    p->total = p->current = n;
    p->done = 0;
    p->group = malloc((n ? n : 1) * sizeof *p->group);
    p->weight = malloc((n ? n : 1) * sizeof *p->weight);
    p->cap = malloc((n ? n : 1) * sizeof *p->cap);
    p->took = malloc((n ? n : 1) * sizeof *p->took);
    int rc = 0;
    if (!p->group || !p->weight || !p->cap || !p->took) {
        free_jobs(p);
        rc = -1;
    } else {
        for (size_t i = 0; i < n; i++) {
            p->group[i] = group[i];
            p->weight[i] = weight[i] > 1 ? weight[i] : 1;
            p->cap[i] = cap[i];
            p->took[i] = -1;
        }
    }
    pthread_mutex_unlock(&p->lock);
    return rc;
}

void arena_progress_start(struct arena_progress *p, size_t job, const char *graph, const char *planner)
{
    pthread_mutex_lock(&p->lock);
    p->current = job < p->total ? job : p->total;
    snprintf(p->what, sizeof p->what, "%s on %s", planner, graph);
    /* a cut must not split a character */
    size_t len = strlen(p->what);
    while (len && ((unsigned char)p->what[len - 1] & 0x80) && len == sizeof p->what - 1) {
        size_t k = len;
        while (k && ((unsigned char)p->what[k - 1] & 0xC0) == 0x80) k--;
        p->what[k ? k - 1 : 0] = '\0';
        len = strlen(p->what);
    }
    p->doing = 1;
    clock_gettime(CLOCK_MONOTONIC, &p->job_start);
    if (p->live) draw(p);
    pthread_mutex_unlock(&p->lock);
}

void arena_progress_doing(struct arena_progress *p, const char *what)
{
    pthread_mutex_lock(&p->lock);
    p->current = p->total;
    p->doing = what != NULL;
    if (what) snprintf(p->what, sizeof p->what, "%s", what);
    clock_gettime(CLOCK_MONOTONIC, &p->job_start);
    pthread_mutex_unlock(&p->lock);
}

void arena_progress_step(struct arena_progress *p)
{
    pthread_mutex_lock(&p->lock);
    if (p->took && p->current < p->total) p->took[p->current] = since(&p->job_start);
    p->current = p->total;
    p->doing = 0;
    p->done++;
    pthread_mutex_unlock(&p->lock);
}

void arena_progress_clear(struct arena_progress *p)
{
    pthread_mutex_lock(&p->lock);
    take_signal(p);
    unshow(p);
    pthread_mutex_unlock(&p->lock);
}

int arena_progress_stopped(struct arena_progress *p, char *what, size_t len, double *into)
{
    pthread_mutex_lock(&p->lock);
    take_signal(p);
    int sig = p->stop_sig;
    if (what && len) snprintf(what, len, "%s", p->stop_what);
    if (into) *into = p->stop_into;
    pthread_mutex_unlock(&p->lock);
    return sig;
}

void arena_progress_end(struct arena_progress *p)
{
    if (p->started) {
        pthread_mutex_lock(&p->lock);
        p->quit = 1;
        take_signal(p);
        pthread_mutex_unlock(&p->lock);
        unsigned char zero = 0;
        while (write(p->wake[1], &zero, 1) < 0 && errno == EINTR) {}
        pthread_join(p->thread, NULL);
        p->started = 0;
    }
    unshow(p);
    for (int i = 0; i < 2; i++)
        if (p->wake[i] >= 0) close(p->wake[i]);
    p->wake[0] = p->wake[1] = -1;
    free_jobs(p);
    pthread_mutex_destroy(&p->lock);
}
