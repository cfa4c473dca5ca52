/* replay_prog.c — the replay every allocator's program runs (protocol and
 * measurements in replay_prog.h). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "bench/replay/replay_prog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* The allocator measured must be the real one (meson builds these programs
 * without sanitizers even in a sanitizer tree). */
#if defined(__SANITIZE_ADDRESS__)
#error "a replay program built with AddressSanitizer would measure its malloc"
#endif

#define MAX_FRAMES 1000000u
#define MAX_TENSORS 100000000u
#define PAGE 4096u

struct tensor {
    uint64_t size;
    uint32_t first, last;
};

static void die(const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (len < 0)
        len = 0;
    if ((size_t)len > sizeof line - 2)
        len = (int)sizeof line - 2;
    line[len++] = '\n';
    ssize_t w = write(2, line, (size_t)len);
    (void)w;
    _exit(2);
}

static void *pages(size_t count, size_t size)
{
    if (count == 0)
        count = 1;
    if (count > SIZE_MAX / size)
        die("arena-replay-%s: %zu records do not fit in memory", arena_replay_allocator.name,
            count);
    void *p = mmap(NULL, count * size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                   0);
    if (p == MAP_FAILED)
        die("arena-replay-%s: mmap of %zu bytes failed: %s", arena_replay_allocator.name,
            count * size, strerror(errno));
    return p;
}

/* ---- output through write(2), so stdio never mallocs ---- */

static char outbuf[1 << 16];
static size_t outlen;

static void flush_out(void)
{
    size_t at = 0;
    while (at < outlen) {
        ssize_t w = write(1, outbuf + at, outlen - at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(2);
        at += (size_t)w;
    }
    outlen = 0;
}

static void out(const char *fmt, ...)
{
    if (outlen > sizeof outbuf - 512)
        flush_out();
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(outbuf + outlen, sizeof outbuf - outlen, fmt, ap);
    va_end(ap);
    if (len > 0)
        outlen += (size_t)len < sizeof outbuf - outlen ? (size_t)len : 0;
}

/* ---- input: numbers separated by blanks, read through a fixed buffer ---- */

struct input {
    char buf[1 << 16];
    size_t len, at;
    int eof;
    uint64_t token; /* tokens read so far, for messages */
};

static int next_char(struct input *in)
{
    if (in->at == in->len) {
        if (in->eof)
            return -1;
        ssize_t r;
        do
            r = read(0, in->buf, sizeof in->buf);
        while (r < 0 && errno == EINTR);
        if (r < 0)
            die("arena-replay-%s: reading the problem: %s", arena_replay_allocator.name,
                strerror(errno));
        if (r == 0) {
            in->eof = 1;
            return -1;
        }
        in->len = (size_t)r;
        in->at = 0;
    }
    return (unsigned char)in->buf[in->at++];
}

/* The next blank-separated word into w (at most len-1 chars); 0 at the end. */
static int word(struct input *in, char *w, size_t len)
{
    int c;
    while ((c = next_char(in)) == ' ' || c == '\n' || c == '\t' || c == '\r')
        ;
    if (c < 0)
        return 0;
    size_t k = 0;
    do {
        if (k + 1 < len)
            w[k++] = (char)c;
        c = next_char(in);
    } while (c >= 0 && c != ' ' && c != '\n' && c != '\t' && c != '\r');
    w[k] = '\0';
    in->token++;
    return 1;
}

static uint64_t number(struct input *in, const char *what, uint64_t max)
{
    char w[32];
    if (!word(in, w, sizeof w))
        die("arena-replay-%s: problem ends early: %s missing", arena_replay_allocator.name, what);
    uint64_t v = 0;
    if (!w[0])
        die("arena-replay-%s: %s: empty", arena_replay_allocator.name, what);
    for (const char *c = w; *c; c++) {
        if (*c < '0' || *c > '9')
            die("arena-replay-%s: %s: '%s' is not a non-negative integer",
                arena_replay_allocator.name, what, w);
        unsigned d = (unsigned)(*c - '0');
        if (v > (max - d) / 10)
            die("arena-replay-%s: %s: %s is above %llu", arena_replay_allocator.name, what, w,
                (unsigned long long)max);
        v = v * 10 + d;
    }
    return v;
}

/* ---- the replay ---- */

/* Stable merge sort of ids by key[id]. */
static void sort_ids(uint32_t *id, uint32_t *tmp, size_t n, const uint32_t *key)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = key[id[j]] < key[id[i]] ? id[j++] : id[i++];
            while (i < mid)
                tmp[k++] = id[i++];
            while (j < hi)
                tmp[k++] = id[j++];
        }
        memcpy(id, tmp, n * sizeof *id);
    }
}

struct replay {
    size_t n;
    struct tensor *t;
    uint32_t *by_first, *by_last; /* ids */
    unsigned char **ptr;          /* the live block of each tensor */
    uint32_t *live, *slot;        /* live ids, and each id's place in live */
    size_t n_live;
    uint64_t live_bytes;
};

struct frame {
    uint64_t calls, footprint_peak, extent_peak, live_peak, resident_peak;
};

/* The process's resident bytes, from /proc/self/statm (0 where there is none). */
static int statm_fd = -1;
static uint64_t page_bytes;

static uint64_t resident_now(void)
{
    char buf[128];
    if (statm_fd < 0)
        return 0;
    ssize_t r = pread(statm_fd, buf, sizeof buf - 1, 0);
    if (r <= 0)
        return 0;
    buf[r] = '\0';
    const char *c = buf;
    while (*c && *c != ' ')
        c++; /* skip the total size */
    uint64_t pages = 0;
    while (*c == ' ')
        c++;
    for (; *c >= '0' && *c <= '9'; c++)
        pages = pages * 10 + (uint64_t)(*c - '0');
    return pages * page_bytes;
}

static void sample(struct replay *r, struct frame *f)
{
    uint64_t fp;
    if (arena_replay_allocator.footprint_now(&fp) != 0)
        die("arena-replay-%s: reading the footprint (%s) failed", arena_replay_allocator.name,
            arena_replay_allocator.footprint);
    if (fp > f->footprint_peak)
        f->footprint_peak = fp;
    uint64_t rss = resident_now();
    if (rss > f->resident_peak)
        f->resident_peak = rss;
    if (r->live_bytes > f->live_peak)
        f->live_peak = r->live_bytes;
    if (r->n_live == 0)
        return;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (size_t k = 0; k < r->n_live; k++) {
        uint32_t i = r->live[k];
        uintptr_t a = (uintptr_t)r->ptr[i];
        if (a < lo)
            lo = a;
        if (a + r->t[i].size > hi)
            hi = a + r->t[i].size;
    }
    if (hi - lo > f->extent_peak)
        f->extent_peak = hi - lo;
}

static void give_back(struct replay *r, uint32_t i, int track)
{
    arena_replay_allocator.release(r->ptr[i]);
    r->ptr[i] = NULL;
    if (track) {
        uint32_t s = r->slot[i], moved = r->live[--r->n_live];
        r->live[s] = moved;
        r->slot[moved] = s;
        r->live_bytes -= r->t[i].size;
    }
}

static void take(struct replay *r, uint32_t i, int track)
{
    unsigned char *p = arena_replay_allocator.alloc(r->t[i].size);
    if (!p && r->t[i].size > 0)
        die("arena-replay-%s: malloc(%llu) for tensor %u returned NULL",
            arena_replay_allocator.name, (unsigned long long)r->t[i].size, i);
    r->ptr[i] = p;
    if (track) {
        for (uint64_t b = 0; b < r->t[i].size; b += PAGE)
            p[b] = (unsigned char)i;
        r->slot[i] = (uint32_t)r->n_live;
        r->live[r->n_live++] = i;
        r->live_bytes += r->t[i].size;
    }
}

/* One frame; with f, measured (samples, page writes), else bare. Returns the
 * malloc + free calls made. */
static uint64_t frame(struct replay *r, struct frame *f)
{
    size_t a = 0, d = 0, n = r->n;
    uint64_t calls = 0;
    int track = f != NULL;
    while (a < n) {
        uint32_t step = r->t[r->by_first[a]].first;
        while (d < n && r->t[r->by_last[d]].last < step) {
            give_back(r, r->by_last[d++], track);
            calls++;
        }
        for (; a < n && r->t[r->by_first[a]].first == step; a++) {
            take(r, r->by_first[a], track);
            calls++;
        }
        if (track)
            sample(r, f);
    }
    while (d < n) {
        give_back(r, r->by_last[d++], track);
        calls++;
    }
    if (f)
        f->calls = calls;
    return calls;
}

static int by_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Insertion sort: frames are few (qsort may malloc). */
static void sort_doubles(double *v, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        double x = v[i];
        size_t j = i;
        while (j > 0 && by_double(&v[j - 1], &x) > 0) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

int main(int argc, char **argv)
{
    const struct arena_replay_allocator *al = &arena_replay_allocator;
    if (argc != 2)
        die("usage: arena-replay-%s FRAMES < problem (see bench/replay/replay_prog.h)", al->name);
    uint64_t frames = 0;
    for (const char *c = argv[1]; *c; c++) {
        if (*c < '0' || *c > '9' || frames > MAX_FRAMES)
            die("arena-replay-%s: frames: '%s' is not a number from 1 to %u", al->name, argv[1],
                MAX_FRAMES);
        frames = frames * 10 + (uint64_t)(*c - '0');
    }
    if (frames < 1 || frames > MAX_FRAMES)
        die("arena-replay-%s: frames: '%s' is not a number from 1 to %u", al->name, argv[1],
            MAX_FRAMES);

    static struct input in;
    char w[64];
    if (!word(&in, w, sizeof w) || strcmp(w, "arenabench-replay-problem") != 0)
        die("arena-replay-%s: the problem does not start with 'arenabench-replay-problem'",
            al->name);
    if (number(&in, "format version", 1000) != 1)
        die("arena-replay-%s: problem format version is not 1", al->name);
    struct replay r;
    memset(&r, 0, sizeof r);
    r.n = (size_t)number(&in, "tensor count", MAX_TENSORS);
    r.t = pages(r.n, sizeof *r.t);
    uint32_t *first = pages(r.n, sizeof *first), *last = pages(r.n, sizeof *last);
    for (size_t i = 0; i < r.n; i++) {
        char what[64];
        snprintf(what, sizeof what, "tensor %zu size", i);
        r.t[i].size = number(&in, what, (uint64_t)1 << 62);
        snprintf(what, sizeof what, "tensor %zu first", i);
        first[i] = r.t[i].first = (uint32_t)number(&in, what, UINT32_MAX);
        snprintf(what, sizeof what, "tensor %zu last", i);
        last[i] = r.t[i].last = (uint32_t)number(&in, what, UINT32_MAX);
        if (r.t[i].last < r.t[i].first)
            die("arena-replay-%s: tensor %zu: last %u is before first %u", al->name, i,
                r.t[i].last, r.t[i].first);
    }
    if (word(&in, w, sizeof w))
        die("arena-replay-%s: more than %zu tensors in the problem ('%s' after the last)",
            al->name, r.n, w);
    uint32_t *tmp = pages(r.n, sizeof *tmp);
    r.by_first = pages(r.n, sizeof *r.by_first);
    r.by_last = pages(r.n, sizeof *r.by_last);
    for (size_t i = 0; i < r.n; i++)
        r.by_first[i] = r.by_last[i] = (uint32_t)i;
    sort_ids(r.by_first, tmp, r.n, first);
    sort_ids(r.by_last, tmp, r.n, last);
    r.ptr = pages(r.n, sizeof *r.ptr);
    r.live = pages(r.n, sizeof *r.live);
    r.slot = pages(r.n, sizeof *r.slot);
    struct frame *fr = pages(frames, sizeof *fr);
    double *ns = pages(frames, sizeof *ns);

    /* Touch the program's own pages now, so that the resident figure
     * grows only with the allocator's. */
    memset(r.ptr, 0, r.n * sizeof *r.ptr);
    memset(r.live, 0, r.n * sizeof *r.live);
    memset(r.slot, 0, r.n * sizeof *r.slot);
    memset(fr, 0, frames * sizeof *fr);
    memset(ns, 0, frames * sizeof *ns);
    long pg = sysconf(_SC_PAGESIZE);
    page_bytes = pg > 0 ? (uint64_t)pg : PAGE;
    statm_fd = open("/proc/self/statm", O_RDONLY);
    char version[128] = "unknown";
    al->version(version, sizeof version);
    uint64_t baseline;
    if (al->footprint_now(&baseline) != 0)
        die("arena-replay-%s: reading the footprint (%s) failed", al->name, al->footprint);
    uint64_t resident_base = resident_now();

    for (uint64_t k = 0; k < frames; k++)
        frame(&r, &fr[k]);
    for (uint64_t k = 0; k < frames; k++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        uint64_t calls = frame(&r, NULL);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double el = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
        ns[k] = calls ? el / (double)calls : 0.0;
    }
    sort_doubles(ns, frames);
    double median = frames % 2 ? ns[frames / 2] : (ns[frames / 2 - 1] + ns[frames / 2]) / 2;

    uint64_t live_peak = 0;
    for (uint64_t k = 0; k < frames; k++)
        live_peak = fr[k].live_peak > live_peak ? fr[k].live_peak : live_peak;
    out("arenabench-replay 1\n");
    out("allocator %s %s\n", al->name, version);
    out("footprint %s\n", al->footprint);
    out("tensors %zu\n", r.n);
    out("frames %llu\n", (unsigned long long)frames);
    out("live_peak %llu\n", (unsigned long long)live_peak);
    out("baseline %llu\n", (unsigned long long)baseline);
    out("resident_baseline %llu\n", (unsigned long long)resident_base);
    for (uint64_t k = 0; k < frames; k++)
        out("frame %llu calls %llu footprint_peak %llu extent_peak %llu resident_peak %llu\n",
            (unsigned long long)(k + 1), (unsigned long long)fr[k].calls,
            (unsigned long long)fr[k].footprint_peak, (unsigned long long)fr[k].extent_peak,
            (unsigned long long)(fr[k].resident_peak > resident_base
                                     ? fr[k].resident_peak - resident_base
                                     : 0));
    out("ns_per_call_median %.2f\n", median);
    out("end\n");
    flush_out();
    return 0;
}
