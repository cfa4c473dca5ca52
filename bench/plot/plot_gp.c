/* plot_gp.c — text for bench plot: escaping for gnuplot, LaTeX,
 * Markdown and CSV, the .gp templates, and the gnuplot process. */
#include "bench/plot/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/base/utf8.h"

void arena_plot_caret(struct arena_buf *b, const char *t)
{
    if (!t || !*t) {
        arena_buf_add(b, "(empty)");
        return;
    }
    while (*t) {
        unsigned char c = (unsigned char)*t;
        char two[3] = {'^', 0, 0};
        size_t n = arena_utf8_char(t);
        if (c < 32) {
            two[1] = (char)(c + 64);
            arena_buf_add(b, two);
        } else if (c == 127) {
            arena_buf_add(b, "^?");
        } else if (n == 0) { /* not UTF-8: U+FFFD, one per byte */
            arena_buf_add(b, "\xEF\xBF\xBD");
            n = 1;
        } else {
            arena_buf_addn(b, t, n);
        }
        t += n ? n : 1;
    }
}

/* Applies fn to arena_plot_caret(t): every escape below starts from shown text. */
static char *shown(const char *t)
{
    struct arena_buf c = {0};
    arena_plot_caret(&c, t);
    if (c.oom) {
        arena_buf_free(&c);
        return NULL;
    }
    return c.s;
}

void arena_plot_gq(struct arena_buf *b, const char *t, int format)
{
    char *s = shown(t);
    if (!s) {
        b->oom = 1;
        return;
    }
    arena_buf_add(b, "'");
    for (const char *p = s; *p; p++) {
        if (*p == '\'') arena_buf_add(b, "''");
        else if (*p == '%' && format) arena_buf_add(b, "%%");
        else arena_buf_addn(b, p, 1);
    }
    arena_buf_add(b, "'");
    free(s);
}

void arena_plot_tex(struct arena_buf *b, const char *t)
{
    char *s = shown(t);
    if (!s) {
        b->oom = 1;
        return;
    }
    for (const char *p = s; *p; p++) {
        /* the signs of configuration labels, in math mode: no package needed */
        const char *math = strncmp(p, "\xC3\x97", 2) == 0   ? "$\\times$"
                           : strncmp(p, "\xC2\xB7", 2) == 0 ? "$\\cdot$"
                           : strncmp(p, "\xC2\xB5", 2) == 0 ? "$\\mu$"
                                                             : NULL;
        if (math) {
            arena_buf_add(b, math);
            p++;
            continue;
        }
        switch (*p) {
        case '\\':
            arena_buf_add(b, "\\textbackslash{}");
            break;
        case '&': case '%': case '$': case '#': case '_': case '{': case '}':
            arena_buf_addn(b, "\\", 1);
            arena_buf_addn(b, p, 1);
            break;
        case '~':
            arena_buf_add(b, "\\textasciitilde{}");
            break;
        case '^':
            arena_buf_add(b, "\\textasciicircum{}");
            break;
        case '|':
            arena_buf_add(b, "\\textbar{}");
            break;
        case '<':
            arena_buf_add(b, "\\textless{}");
            break;
        case '>':
            arena_buf_add(b, "\\textgreater{}");
            break;
        default:
            arena_buf_addn(b, p, 1);
        }
    }
    free(s);
}

void arena_plot_md(struct arena_buf *b, const char *t)
{
    char *s = shown(t);
    if (!s) {
        b->oom = 1;
        return;
    }
    for (const char *p = s; *p; p++) {
        if (strchr("\\`*_{}<>|#~![]", *p)) arena_buf_add(b, "\\");
        arena_buf_addn(b, p, 1);
    }
    free(s);
}

void arena_plot_md_code(struct arena_buf *b, const char *t)
{
    char *s = shown(t);
    if (!s) {
        b->oom = 1;
        return;
    }
    size_t run = 0, longest = 0, n = strlen(s);
    for (const char *p = s; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
    }
    int pad = n && (s[0] == '`' || s[n - 1] == '`');
    for (size_t i = 0; i <= longest; i++) arena_buf_add(b, "`");
    if (pad) arena_buf_add(b, " ");
    arena_buf_add(b, s);
    if (pad) arena_buf_add(b, " ");
    for (size_t i = 0; i <= longest; i++) arena_buf_add(b, "`");
    free(s);
}

void arena_plot_csv(struct arena_buf *b, const char *t)
{
    if (!t) return;
    if (!strpbrk(t, ",\"\r\n")) {
        arena_buf_add(b, t);
        return;
    }
    arena_buf_add(b, "\"");
    for (const char *p = t; *p; p++) {
        if (*p == '"') arena_buf_add(b, "\"");
        arena_buf_addn(b, p, 1);
    }
    arena_buf_add(b, "\"");
}

const char *arena_plot_template_dir(void)
{
    static const char *const dirs[] = {ARENA_PLOT_TEMPLATES_SRC, ARENA_PLOT_TEMPLATES_INSTALLED};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char probe[4096];
        snprintf(probe, sizeof probe, "%s/common.gp", dirs[i]);
        if (access(probe, R_OK) == 0) return dirs[i];
    }
    return NULL;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    struct arena_buf b = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) arena_buf_addn(&b, chunk, n);
    int bad = ferror(f) || b.oom;
    fclose(f);
    if (bad) {
        arena_buf_free(&b);
        return NULL;
    }
    if (!b.s) arena_buf_add(&b, "");
    *len = b.len;
    return b.s;
}

int arena_plot_template_fill(const char *dir, const char *name, const char *const *keys,
                             const char *const *values, size_t n, struct arena_buf *out, char *err,
                             size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.gp", dir, name);
    size_t len = 0;
    char *t = read_all(path, &len);
    if (!t) {
        snprintf(err, errlen, "cannot read the template %s (%s)", path, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (const char *p = t; *p && rc == 0;) {
        const char *at = strchr(p, '@');
        if (!at) {
            arena_buf_add(out, p);
            break;
        }
        arena_buf_addn(out, p, (size_t)(at - p));
        const char *end = at + 1;
        while ((*end >= 'A' && *end <= 'Z') || *end == '_' || (*end >= '0' && *end <= '9')) end++;
        if (*end != '@' || end == at + 1) { /* not a placeholder: an @ of the script */
            arena_buf_addn(out, at, 1);
            p = at + 1;
            continue;
        }
        size_t k;
        for (k = 0; k < n; k++)
            if (strlen(keys[k]) == (size_t)(end - at - 1) && strncmp(keys[k], at + 1, (size_t)(end - at - 1)) == 0)
                break;
        if (k == n) {
            snprintf(err, errlen, "template %s: unknown placeholder %.*s", path,
                     (int)(end - at + 1), at);
            rc = -1;
            break;
        }
        arena_buf_add(out, values[k]);
        p = end + 1;
    }
    free(t);
    if (rc == 0 && out->oom) {
        snprintf(err, errlen, "out of memory filling %s", path);
        rc = -1;
    }
    return rc;
}

int arena_plot_write_file(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
        snprintf(err, errlen, "cannot write %s (%s)", path, strerror(errno));
        return -1;
    }
    return 0;
}

int arena_plot_run_gnuplot(const char *dir, const char *script, const char *log, char *err,
                           size_t errlen)
{
    int pipefd[2];
    if (pipe(pipefd) != 0) {
        snprintf(err, errlen, "cannot start gnuplot (%s)", strerror(errno));
        return 1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(pipefd[0]);
        close(pipefd[1]);
        snprintf(err, errlen, "cannot start gnuplot (%s)", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        close(pipefd[0]);
        fcntl(pipefd[1], F_SETFD, FD_CLOEXEC);
        int fd = -1;
        if (chdir(dir) == 0) fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int devnull = open("/dev/null", O_RDONLY);
        if (fd < 0 || devnull < 0) _exit(126);
        dup2(devnull, 0);
        dup2(fd, 1);
        dup2(fd, 2);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        int e = errno;
        if (write(pipefd[1], &e, sizeof e) < 0) _exit(127);
        _exit(127);
    }
    close(pipefd[1]);
    int e = 0;
    ssize_t got = read(pipefd[0], &e, sizeof e);
    close(pipefd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (got == (ssize_t)sizeof e) {
        snprintf(err, errlen, "gnuplot is not installed or cannot run (%s; scripts/bootstrap"
                 " installs gnuplot-nox)", strerror(e));
        return 1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    /* The first line of gnuplot's complaint, else the way it ended. */
    char path[4096], line[512] = "";
    snprintf(path, sizeof path, "%s/%s", dir, log);
    FILE *f = fopen(path, "r");
    char first[512] = "";
    if (f) {
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\r\n")] = '\0';
            if (!first[0] && line[strspn(line, " \t^")]) snprintf(first, sizeof first, "%s", line);
            if (strstr(line, "rror") || strstr(line, "line ")) {
                snprintf(first, sizeof first, "%s", line);
                break;
            }
        }
        fclose(f);
    }
    if (first[0])
        snprintf(err, errlen, "gnuplot failed on %s: %s", script, first);
    else if (WIFEXITED(status))
        snprintf(err, errlen, "gnuplot failed on %s (exit %d)", script, WEXITSTATUS(status));
    else
        snprintf(err, errlen, "gnuplot failed on %s (signal %d)", script,
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    for (char *c = err; *c; c++)
        if ((unsigned char)*c < 32) *c = ' ';
    return 1;
}
