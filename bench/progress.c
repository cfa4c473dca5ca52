/* progress.c — the progress line; ETA = elapsed / done * (total - done). */
#include "bench/progress.h"

#include <string.h>

double arena_progress_elapsed(const struct arena_progress *p)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - p->start.tv_sec) + (double)(now.tv_nsec - p->start.tv_nsec) / 1e9;
}

void arena_progress_init(struct arena_progress *p, int enabled, size_t total, FILE *err)
{
    memset(p, 0, sizeof *p);
    p->enabled = enabled;
    p->total = total;
    p->err = err;
    clock_gettime(CLOCK_MONOTONIC, &p->start);
}

static void span(double s, char *buf, size_t len)
{
    if (s < 60) snprintf(buf, len, "%.0fs", s);
    else if (s < 3600) snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)s % 60);
    else snprintf(buf, len, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
}

void arena_progress_show(struct arena_progress *p, const char *graph, const char *planner)
{
    if (!p->enabled) return;
    double el = arena_progress_elapsed(p);
    char elapsed[16], eta[24] = "ETA ?";
    span(el, elapsed, sizeof elapsed);
    if (p->done > 0) {
        char left[16];
        span(el / (double)p->done * (double)(p->total - p->done), left, sizeof left);
        snprintf(eta, sizeof eta, "ETA %s", left);
    }
    /* Keep the line short enough for an 80-column terminal. */
    int room = 80 - 40 - (int)strlen(planner);
    if (room < 12) room = 12;
    int glen = (int)strlen(graph);
    fprintf(p->err, "\r\033[K[%zu/%zu] %.*s%s %s  %s  %s", p->done, p->total,
            glen > room ? room - 3 : glen, graph, glen > room ? "..." : "", planner, elapsed,
            eta);
    fflush(p->err);
    p->shown = 1;
}

void arena_progress_step(struct arena_progress *p)
{
    p->done++;
}

void arena_progress_clear(struct arena_progress *p)
{
    if (!p->enabled || !p->shown) return;
    fputs("\r\033[K", p->err);
    fflush(p->err);
    p->shown = 0;
}
