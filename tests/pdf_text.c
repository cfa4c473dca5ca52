/* pdf_text.c — page and word boxes of a PDF through pdftotext -bbox. */
#include "tests/pdf_text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void say(char *err, size_t n, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    vsnprintf(err, n, f, ap);
    va_end(ap);
}

/* pdftotext's whole answer on stdout (its stderr dropped); NULL on failure
 * with the reason in err. */
static char *run_pdftotext(const char *path, char *err, size_t errn)
{
    int fd[2];
    if (pipe(fd) != 0) { say(err, errn, "pipe failed"); return NULL; }
    pid_t pid = fork();
    if (pid < 0) { say(err, errn, "fork failed"); close(fd[0]); close(fd[1]); return NULL; }
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        if (!freopen("/dev/null", "w", stderr)) _exit(126);
        execlp("pdftotext", "pdftotext", "-bbox", path, "-", (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    ssize_t got;
    while (buf && (got = read(fd[0], buf + len, cap - len - 1)) > 0) {
        len += (size_t)got;
        if (cap - len - 1 == 0) {
            char *b = realloc(buf, cap *= 2);
            if (!b) { free(buf); buf = NULL; }
            else buf = b;
        }
    }
    close(fd[0]);
    int st;
    if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        int rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        say(err, errn, rc == 127 ? "pdftotext not found (install poppler-utils)"
                                 : "pdftotext -bbox %s failed (exit %d)", path, rc);
        free(buf);
        return NULL;
    }
    if (!buf) { say(err, errn, "out of memory"); return NULL; }
    buf[len] = '\0';
    return buf;
}

/* The number after name=" in tag; -1 if absent. */
static int attr(const char *tag, const char *name, double *v)
{
    char key[32];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *p = strstr(tag, key);
    if (!p) return -1;
    char *end;
    *v = strtod(p + strlen(key), &end);
    return *end == '"' ? 0 : -1;
}

/* Decodes the XML text of a word (poppler writes &amp; &lt; &gt; &quot;
 * &apos; and numeric references) into a new string. */
static char *decode(const char *s, size_t n)
{
    char *out = malloc(n + 1), *w = out;
    if (!out) return NULL;
    static const struct { const char *ent; char c; } ents[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
    for (size_t i = 0; i < n;) {
        size_t k, m = 0;
        for (k = 0; k < sizeof ents / sizeof ents[0]; k++) {
            m = strlen(ents[k].ent);
            if (i + m <= n && memcmp(s + i, ents[k].ent, m) == 0) break;
        }
        if (k < sizeof ents / sizeof ents[0]) {
            *w++ = ents[k].c;
            i += m;
        } else if (s[i] == '&' && i + 2 < n && s[i + 1] == '#') {
            char *end;
            unsigned long cp = s[i + 2] == 'x' ? strtoul(s + i + 3, &end, 16) : strtoul(s + i + 2, &end, 10);
            if (*end != ';' || cp > 0x10ffff) { *w++ = s[i++]; continue; }
            if (cp < 0x80) *w++ = (char)cp;
            else if (cp < 0x800) { *w++ = (char)(0xc0 | cp >> 6); *w++ = (char)(0x80 | (cp & 0x3f)); }
            else if (cp < 0x10000) {
                *w++ = (char)(0xe0 | cp >> 12);
                *w++ = (char)(0x80 | ((cp >> 6) & 0x3f));
                *w++ = (char)(0x80 | (cp & 0x3f));
            } else {
                *w++ = (char)(0xf0 | cp >> 18);
                *w++ = (char)(0x80 | ((cp >> 12) & 0x3f));
                *w++ = (char)(0x80 | ((cp >> 6) & 0x3f));
                *w++ = (char)(0x80 | (cp & 0x3f));
            }
            i = (size_t)(end - s) + 1;
        } else {
            *w++ = s[i++];
        }
    }
    *w = '\0';
    return out;
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap) return p;
    size_t c = *cap ? *cap * 2 : 16;
    void *q = realloc(p, c * size);
    if (q) *cap = c;
    return q;
}

int pt_read(const char *path, struct pt_doc *doc, char *err, size_t errn)
{
    memset(doc, 0, sizeof *doc);
    char *xml = run_pdftotext(path, err, errn);
    if (!xml) return -1;
    size_t pcap = 0, wcap = 0;
    struct pt_page *page = NULL;
    for (char *s = xml; (s = strchr(s, '<')) != NULL;) {
        char *close = strchr(s, '>');
        if (!close) break;
        *close = '\0';
        if (strncmp(s, "<page ", 6) == 0) {
            struct pt_page *p = grow(doc->pages, &pcap, doc->npages, sizeof *p);
            if (!p) { say(err, errn, "out of memory"); goto fail; }
            doc->pages = p;
            page = &doc->pages[doc->npages++];
            memset(page, 0, sizeof *page);
            wcap = 0;
            if (attr(s, "width", &page->width) || attr(s, "height", &page->height)) {
                say(err, errn, "%s: pdftotext page without width and height", path);
                goto fail;
            }
        } else if (strncmp(s, "<word ", 6) == 0) {
            if (!page) { say(err, errn, "%s: a word before any page", path); goto fail; }
            struct pt_word w = {0};
            if (attr(s, "xMin", &w.x0) || attr(s, "yMin", &w.y0) || attr(s, "xMax", &w.x1) ||
                attr(s, "yMax", &w.y1)) {
                say(err, errn, "%s: pdftotext word without its box", path);
                goto fail;
            }
            char *text = close + 1, *end = strstr(text, "</word>");
            if (!end) { say(err, errn, "%s: unterminated word", path); goto fail; }
            struct pt_word *ws = grow(page->words, &wcap, page->nwords, sizeof *ws);
            if (!ws) { say(err, errn, "out of memory"); goto fail; }
            page->words = ws;
            w.text = decode(text, (size_t)(end - text));
            if (!w.text) { say(err, errn, "out of memory"); goto fail; }
            page->words[page->nwords++] = w;
            close = end + 6;
        }
        s = close + 1;
    }
    free(xml);
    if (doc->npages == 0) {
        say(err, errn, "%s: pdftotext found no page", path);
        return -1;
    }
    return 0;
fail:
    free(xml);
    pt_free(doc);
    return -1;
}

void pt_free(struct pt_doc *doc)
{
    for (size_t i = 0; i < doc->npages; i++) {
        for (size_t k = 0; k < doc->pages[i].nwords; k++) free(doc->pages[i].words[k].text);
        free(doc->pages[i].words);
    }
    free(doc->pages);
    memset(doc, 0, sizeof *doc);
}

/* Code points in a UTF-8 string. */
static size_t chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* Whether a run of n characters, `along` long at a font whose box is
 * `across` tall, has DejaVu Sans advances (0.25 .. 1.05 em each). */
static int plausible(double along, double across, size_t n)
{
    if (across <= 0 || n == 0) return 0;
    double em = across / PT_BOX_PER_POINT, per = along / em / (double)n;
    return per >= 0.25 && per <= 1.05;
}

/* 1 turned, 0 upright, -1 either reading fits. */
static int reading(const struct pt_word *w)
{
    double wd = w->x1 - w->x0, ht = w->y1 - w->y0;
    size_t n = chars(w->text);
    int up = plausible(wd, ht, n), turned = plausible(ht, wd, n);
    return up && turned ? -1 : turned;
}

int pt_word_turned(const struct pt_page *p, size_t k)
{
    const struct pt_word *w = &p->words[k];
    int r = reading(w);
    if (r >= 0) return r;
    for (size_t i = 0; i < p->nwords; i++) {
        const struct pt_word *o = &p->words[i];
        if (i != k && fabs(o->x0 - w->x0) < 0.01 && fabs(o->x1 - w->x1) < 0.01 && reading(o) == 1)
            return 1;
    }
    return 0;
}

double pt_word_points(const struct pt_page *p, size_t k)
{
    const struct pt_word *w = &p->words[k];
    return (pt_word_turned(p, k) ? w->x1 - w->x0 : w->y1 - w->y0) / PT_BOX_PER_POINT;
}

int pt_word_inside(const struct pt_word *w, const struct pt_page *p)
{
    const double eps = 0.01;
    return w->x0 >= -eps && w->y0 >= -eps && w->x1 <= p->width + eps && w->y1 <= p->height + eps;
}

int pt_pdf_fonts(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t cap = 1 << 16, len = 0, got;
    char *pdf = malloc(cap);
    while (pdf && (got = fread(pdf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            char *b = realloc(pdf, cap *= 2);
            if (!b) { free(pdf); pdf = NULL; }
            else pdf = b;
        }
    }
    fclose(f);
    if (!pdf) return -1;
    int count = 0;
    size_t used = 0;
    if (n) buf[0] = '\0';
    static const char key[] = "/FontName /";
    for (size_t i = 0; i + sizeof key - 1 < len; i++) {
        if (memcmp(pdf + i, key, sizeof key - 1) != 0) continue;
        size_t s = i + sizeof key - 1, e = s;
        while (e < len && pdf[e] != '/' && pdf[e] != ' ' && pdf[e] != '\n' && pdf[e] != '\r' &&
               pdf[e] != '>')
            e++;
        size_t t = s;
        while (t < e && pdf[t] != '+') t++;
        if (t < e && t - s == 6) s = t + 1; /* subset tag ABCDEF+ */
        int k = snprintf(buf + used, n > used ? n - used : 0, "%s%.*s", count ? " " : "", (int)(e - s), pdf + s);
        if (k > 0) used += (size_t)k;
        if (used >= n) used = n ? n - 1 : 0;
        count++;
    }
    free(pdf);
    return count;
}
