/* pdf_text.c — page and word boxes of a PDF through pdftotext -bbox. */
#include "tests/pdf_text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

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

const char *pt_find(const char *buf, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(buf + i, needle, n) == 0) return buf + i;
    return NULL;
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
        free(doc->pages[i].runs);
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

/* A whole file, NUL-terminated (it may hold NUL bytes too: *len says how
 * long); NULL if it cannot be read. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, got;
    char *pdf = malloc(cap + 1);
    *len = 0;
    while (pdf && (got = fread(pdf + *len, 1, cap - *len, f)) > 0) {
        *len += got;
        if (*len == cap) {
            char *b = realloc(pdf, (cap *= 2) + 1);
            if (!b) { free(pdf); pdf = NULL; }
            else pdf = b;
        }
    }
    fclose(f);
    if (pdf) pdf[*len] = '\0';
    return pdf;
}

int pt_pdf_fonts(const char *path, char *buf, size_t n)
{
    size_t len;
    char *pdf = read_file(path, &len);
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

/* ------------------------------------------------------------ text runs */

/* The bytes of object num ("num 0 obj" ... "endobj"), NULL if absent. */
static const char *find_obj(const char *pdf, size_t len, long num, size_t *olen)
{
    char key[32];
    int k = snprintf(key, sizeof key, "%ld 0 obj", num);
    for (size_t i = 0; i + (size_t)k <= len; i++) {
        if (memcmp(pdf + i, key, (size_t)k) != 0) continue;
        if (i > 0 && pdf[i - 1] != '\n' && pdf[i - 1] != '\r' && pdf[i - 1] != ' ') continue;
        const char *body = pdf + i + k;
        for (size_t j = i + (size_t)k; j + 6 <= len; j++)
            if (memcmp(pdf + j, "endobj", 6) == 0) {
                *olen = j - (i + (size_t)k);
                return body;
            }
        return NULL;
    }
    return NULL;
}

/* The value after key in a dictionary's text (up to n bytes): an integer,
 * or a reference "N 0 R" resolved to the integer object N. -1 if absent. */
static long dict_int(const char *d, size_t n, const char *key, const char *pdf, size_t len)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl < n; i++) {
        if (memcmp(d + i, key, kl) != 0 || (d[i + kl] != ' ' && d[i + kl] != '\n')) continue;
        char buf[64];
        size_t m = n - i - kl < sizeof buf - 1 ? n - i - kl : sizeof buf - 1;
        memcpy(buf, d + i + kl, m);
        buf[m] = '\0';
        long a, g;
        char r;
        if (sscanf(buf, " %ld %ld %c", &a, &g, &r) == 3 && r == 'R') {
            size_t ol;
            const char *o = find_obj(pdf, len, a, &ol);
            return o ? strtol(o, NULL, 10) : -1;
        }
        return strtol(buf, NULL, 10);
    }
    return -1;
}

/* The page objects in order, from the /Kids of the /Pages object. */
static size_t page_objs(const char *pdf, size_t len, long *out, size_t max)
{
    const char *kids = pt_find(pdf, len, "/Kids [");
    size_t n = 0;
    if (!kids) return 0;
    for (const char *p = kids + 7; *p && *p != ']' && n < max;) {
        char *end;
        long a = strtol(p, &end, 10);
        if (end == p) break;
        out[n++] = a;
        p = end;
        while (*p == ' ' || *p == '\n' || (*p >= '0' && *p <= '9') || *p == 'R') {
            if (*p == 'R') { p++; break; }
            strtol(p, &end, 10);
            p = end > p ? end : p + 1;
        }
    }
    return n;
}

/* The decoded content stream of an object: FlateDecode or plain. */
static unsigned char *stream_of(const char *pdf, size_t len, long num, size_t *out_len, char *err, size_t errn)
{
    size_t ol;
    const char *o = find_obj(pdf, len, num, &ol);
    const char *s = o ? pt_find(o, ol, "stream") : NULL;
    if (!s) { say(err, errn, "object %ld: no stream", num); return NULL; }
    long slen = dict_int(o, (size_t)(s - o), "/Length", pdf, len);
    const char *data = s + 6;
    if (*data == '\r') data++;
    if (*data == '\n') data++;
    if (slen < 0 || data + slen > pdf + len) { say(err, errn, "object %ld: bad /Length", num); return NULL; }
    if (!pt_find(o, (size_t)(s - o), "/FlateDecode")) {
        unsigned char *c = malloc((size_t)slen + 1);
        if (c) memcpy(c, data, (size_t)slen);
        *out_len = (size_t)slen;
        return c;
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK) { say(err, errn, "zlib: inflateInit failed"); return NULL; }
    size_t cap = (size_t)slen * 4 + 4096, got = 0;
    unsigned char *buf = malloc(cap);
    z.next_in = (unsigned char *)data;
    z.avail_in = (uInt)slen;
    int rc = Z_OK;
    while (buf && rc == Z_OK) {
        if (got == cap) {
            unsigned char *b = realloc(buf, cap *= 2);
            if (!b) { free(buf); buf = NULL; break; }
            buf = b;
        }
        z.next_out = buf + got;
        z.avail_out = (uInt)(cap - got);
        rc = inflate(&z, Z_NO_FLUSH);
        got = cap - z.avail_out;
    }
    inflateEnd(&z);
    if (!buf || rc != Z_STREAM_END) {
        free(buf);
        say(err, errn, "object %ld: cannot inflate its stream (zlib %d)", num, rc);
        return NULL;
    }
    *out_len = got;
    return buf;
}

/* PDF matrices [a b c d e f]: r = m (applied first) then n. */
static void mat_mul(const double *m, const double *n, double *r)
{
    double t[6] = {m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3],
                   m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3],
                   m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5]};
    memcpy(r, t, sizeof t);
}

static int is_delim(int c)
{
    return c == '(' || c == ')' || c == '<' || c == '>' || c == '[' || c == ']' || c == '{' || c == '}' ||
           c == '/' || c == '%';
}

static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\0';
}

/* Interprets one content stream: the text operators and the graphics
 * state they depend on; appends each label's start to p->runs. */
static int read_content(const unsigned char *c, size_t n, struct pt_page *p, size_t *cap)
{
    double ctm[6] = {1, 0, 0, 1, 0, 0}, saved[64][6], tm[6] = {1, 0, 0, 1, 0, 0}, tlm[6];
    double num[8], leading = 0, fsize = 1;
    size_t depth = 0, nn = 0;
    int fresh = 0;
    memcpy(tlm, tm, sizeof tm);
    for (size_t i = 0; i < n;) {
        int ch = c[i];
        if (is_space(ch)) { i++; continue; }
        if (ch == '%') { while (i < n && c[i] != '\n' && c[i] != '\r') i++; continue; }
        if (ch == '(') { /* a string: balanced parentheses, \ escapes */
            int d = 0;
            for (; i < n; i++) {
                if (c[i] == '\\') { i++; continue; }
                if (c[i] == '(') d++;
                if (c[i] == ')' && --d == 0) { i++; break; }
            }
            nn = 0;
            continue;
        }
        if (ch == '<' && i + 1 < n && c[i + 1] != '<') { /* a hex string */
            while (i < n && c[i] != '>') i++;
            i++;
            nn = 0;
            continue;
        }
        if (ch == '[' || ch == ']' || ch == '<' || ch == '>' || ch == '{' || ch == '}') { i++; continue; }
        if (ch == '/') { /* a name */
            i++;
            while (i < n && !is_space(c[i]) && !is_delim(c[i])) i++;
            continue;
        }
        size_t s = i;
        while (i < n && !is_space(c[i]) && !is_delim(c[i])) i++;
        char tok[16];
        size_t tl = i - s < sizeof tok - 1 ? i - s : sizeof tok - 1;
        memcpy(tok, c + s, tl);
        tok[tl] = '\0';
        char *end;
        double v = strtod(tok, &end);
        if (end != tok && *end == '\0') {
            if (nn == 8) memmove(num, num + 1, 7 * sizeof *num), nn = 7;
            num[nn++] = v;
            continue;
        }
        /* An operator. */
        if (strcmp(tok, "q") == 0) {
            if (depth < 64) memcpy(saved[depth], ctm, sizeof ctm);
            depth++;
        } else if (strcmp(tok, "Q") == 0) {
            if (depth > 0 && --depth < 64) memcpy(ctm, saved[depth], sizeof ctm);
        } else if (strcmp(tok, "cm") == 0 && nn >= 6) {
            mat_mul(num + nn - 6, ctm, ctm);
        } else if (strcmp(tok, "BT") == 0) {
            double id[6] = {1, 0, 0, 1, 0, 0};
            memcpy(tm, id, sizeof id);
            memcpy(tlm, id, sizeof id);
            fresh = 1;
        } else if (strcmp(tok, "Tm") == 0 && nn >= 6) {
            memcpy(tm, num + nn - 6, sizeof tm);
            memcpy(tlm, tm, sizeof tm);
            fresh = 1;
        } else if ((strcmp(tok, "Td") == 0 || strcmp(tok, "TD") == 0) && nn >= 2) {
            double t[6] = {1, 0, 0, 1, num[nn - 2], num[nn - 1]};
            if (tok[1] == 'D') leading = -num[nn - 1];
            mat_mul(t, tlm, tlm);
            memcpy(tm, tlm, sizeof tm);
            fresh = 1;
        } else if (strcmp(tok, "TL") == 0 && nn >= 1) {
            leading = num[nn - 1];
        } else if (strcmp(tok, "Tf") == 0 && nn >= 1) {
            fsize = num[nn - 1];
        } else if (strcmp(tok, "T*") == 0 || strcmp(tok, "'") == 0 || strcmp(tok, "\"") == 0) {
            double t[6] = {1, 0, 0, 1, 0, -leading};
            mat_mul(t, tlm, tlm);
            memcpy(tm, tlm, sizeof tm);
            fresh = 1;
        } else if (strcmp(tok, "BI") == 0) { /* an inline image: skip to EI */
            while (i + 3 < n && !(is_space(c[i]) && c[i + 1] == 'E' && c[i + 2] == 'I' && is_space(c[i + 3]))) i++;
            i += 3;
        }
        if (fresh && (strcmp(tok, "Tj") == 0 || strcmp(tok, "TJ") == 0 || strcmp(tok, "'") == 0 ||
                      strcmp(tok, "\"") == 0)) {
            double d[6];
            mat_mul(tm, ctm, d);
            struct pt_run *r = grow(p->runs, cap, p->nruns, sizeof *r);
            if (!r) return -1;
            p->runs = r;
            r[p->nruns++] = (struct pt_run){.x = d[4], .y = p->height - d[5],
                                           .size = fsize * sqrt(d[0] * d[0] + d[1] * d[1]),
                                           .turned = fabs(d[1]) > fabs(d[0])};
            fresh = 0;
        }
        nn = 0;
    }
    return 0;
}

int pt_read_runs(const char *path, struct pt_doc *doc, char *err, size_t errn)
{
    size_t len;
    char *pdf = read_file(path, &len);
    if (!pdf) { say(err, errn, "cannot read %s", path); return -1; }
    long pages[64];
    size_t np = page_objs(pdf, len, pages, 64);
    int rc = 0;
    if (np != doc->npages) {
        say(err, errn, "%s: %zu page objects, pdftotext read %zu pages", path, np, doc->npages);
        rc = -1;
    }
    for (size_t k = 0; k < np && rc == 0; k++) {
        struct pt_page *pg = &doc->pages[k];
        size_t ol, rcap = 0;
        const char *o = find_obj(pdf, len, pages[k], &ol);
        const char *ct = o ? pt_find(o, ol, "/Contents ") : NULL;
        if (!ct) { say(err, errn, "%s: page %zu has no /Contents", path, k + 1); rc = -1; break; }
        const char *q = ct + 10;
        int array = *q == '[';
        if (array) q++;
        for (;;) {
            char *end;
            long obj = strtol(q, &end, 10);
            if (end == q) break;
            strtol(end, &end, 10); /* generation */
            while (*end == ' ' || *end == '\n') end++;
            if (*end != 'R') break;
            size_t sl;
            unsigned char *s = stream_of(pdf, len, obj, &sl, err, errn);
            if (!s || read_content(s, sl, pg, &rcap)) {
                if (s) say(err, errn, "out of memory");
                free(s);
                rc = -1;
                break;
            }
            free(s);
            q = end + 1;
            if (!array) break;
        }
    }
    free(pdf);
    return rc;
}

int pt_words_overlap(const struct pt_word *a, const struct pt_word *b, double tol)
{
    double ox = fmin(a->x1, b->x1) - fmax(a->x0, b->x0), oy = fmin(a->y1, b->y1) - fmax(a->y0, b->y0);
    return ox > tol && oy > tol;
}

const struct pt_run *pt_word_joins_labels(const struct pt_page *p, size_t k, double tol)
{
    const struct pt_word *w = &p->words[k];
    int turned = pt_word_turned(p, k);
    for (size_t i = 0; i < p->nruns; i++) {
        const struct pt_run *r = &p->runs[i];
        if (r->turned != turned) continue;
        if (!turned && r->y >= w->y0 && r->y <= w->y1 && r->x > w->x0 + tol && r->x < w->x1 - tol) return r;
        if (turned && r->x >= w->x0 && r->x <= w->x1 && r->y > w->y0 + tol && r->y < w->y1 - tol) return r;
    }
    return NULL;
}
