/* source.c — the front door (source.h): a spec or a file path -> problem. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "graphs/family.h"
#include "graphs/files.h"
#include "graphs/graph_internal.h"
#include "graphs/names.h"
#include "graphs/tflite.h"

static void put_le(unsigned char *b, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        b[i] = (unsigned char)(v >> (8 * i));
}

/* FNV-1a 64 over n (8 bytes), alignment (8), then per record size (8),
 * first (4), last (4), all little-endian, so it is the same on every host. */
uint64_t arena_problem_fingerprint(const struct arena_problem *p)
{
    unsigned char b[16];
    uint64_t h = ARENA_FNV_OFFSET;
    put_le(b, (uint64_t)p->n, 8);
    put_le(b + 8, p->alignment, 8);
    h = arena_fnv1a(h, b, 16);
    for (size_t i = 0; i < p->n; i++) {
        put_le(b, p->tensors[i].size, 8);
        put_le(b + 8, p->tensors[i].first, 4);
        put_le(b + 12, p->tensors[i].last, 4);
        h = arena_fnv1a(h, b, 16);
    }
    return h;
}

void arena_source_free(struct arena_source *s)
{
    free(s->spec);
    free(s->family);
    free(s->params);
    free(s->warning);
    free(s->names); /* one block */
    free(s->index);
    free((void *)s->problem.tensors);
    memset(s, 0, sizeof *s);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int is_path(const char *text)
{
    struct stat st;
    return strchr(text, '/') || ends_with(text, ".csv") || ends_with(text, ".txt") ||
           ends_with(text, ".graph") || (stat(text, &st) == 0 && S_ISREG(st.st_mode));
}

#define SNIFF_BYTES 4096

/* A file is a graph file when its first statement, within its first
 * SNIFF_BYTES, is `tensor` or `op`. Reads that prefix once and never more:
 * a device such as /dev/zero has no end. A NUL byte ends the look (the
 * reader then names it). */
static int looks_like_graph(const char *path)
{
    if (ends_with(path, ".csv"))
        return 0;
    if (ends_with(path, ".graph") || ends_with(path, ".txt"))
        return 1;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char buf[SNIFF_BYTES + 1];
    size_t n = fread(buf, 1, SNIFF_BYTES, f);
    fclose(f);
    buf[n] = '\0'; /* a NUL inside ends the scan as well */
    const char *s = buf;
    if (strncmp(s, "\xef\xbb\xbf", 3) == 0)
        s += 3;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
            s++;
        if (*s != '#')
            break;
        while (*s && *s != '\n')
            s++;
    }
    size_t k = strncmp(s, "tensor", 6) == 0 ? 6 : strncmp(s, "op", 2) == 0 ? 2 : 0;
    return k && (s[k] == ' ' || s[k] == '\t');
}

/* Keeps err one printable line whatever went into it. */
static void one_line(char *err, size_t errlen)
{
    if (!err || !errlen)
        return;
    for (char *p = err; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
            *p = '?';
}

int arena_source_load(const char *text, uint64_t alignment, uint64_t seed,
                      struct arena_source *out, char *err, size_t errlen)
{
    struct arena_load_options opt = {.alignment = alignment, .seed = seed, .stop = NULL};
    return arena_source_load_with(text, &opt, out, err, errlen);
}

int arena_source_load_with(const char *text, const struct arena_load_options *opt,
                           struct arena_source *out, char *err, size_t errlen)
{
    uint64_t alignment = opt->alignment, seed = opt->seed;
    memset(out, 0, sizeof *out);
    if (err && errlen)
        err[0] = '\0';
    if (alignment == 0 || (alignment & (alignment - 1))) {
        if (err && errlen)
            snprintf(err, errlen, "alignment %llu is not a power of two",
                     (unsigned long long)alignment);
        return ARENA_EINVAL;
    }
    struct arena_problem p;
    size_t ops = 0;
    const char *family;
    char *spec = NULL, *params = NULL;
    char **names = NULL;
    struct arena_tflite_loaded model = {0};
    int rc;
    if (arena_tflite_sniff(text)) {
        family = "tflite";
        rc = arena_tflite_load(text, alignment, &p, &model, err, errlen);
        ops = model.ops;
        names = model.names;
        model.names = NULL;
        if (!rc) {
            spec = arena_str_dup(text);
            params = arena_str_dup("");
        }
    } else if (is_path(text)) {
        if (looks_like_graph(text)) {
            family = "graph-file";
            rc = arena_graph_file_load(text, opt, &p, &ops, &names, err, errlen);
        } else {
            family = "csv";
            rc = arena_csv_read(text, opt, &p, &names, err, errlen);
        }
        if (!rc) {
            spec = arena_str_dup(text);
            params = arena_str_dup("");
        }
    } else {
        struct arena_spec s;
        rc = arena_spec_parse(text, seed, &s, err, errlen);
        if (!rc)
            rc = arena_spec_build(&s, alignment, &p, &ops, &names, err, errlen);
        if (!rc) {
            family = s.family->info.name;
            size_t len = strlen(family) + 1 + strlen(s.params) + 1;
            spec = malloc(len);
            if (spec)
                snprintf(spec, len, "%s:%s", family, s.params);
            params = arena_str_dup(s.params);
        }
    }
    if (rc) {
        one_line(err, errlen);
        return rc;
    }
    out->family = arena_str_dup(family);
    if (!spec || !params || !out->family) {
        free(spec);
        free(params);
        free(out->family);
        free(names);
        arena_tflite_loaded_free(&model, p.n);
        free((void *)p.tensors);
        memset(out, 0, sizeof *out);
        if (err && errlen)
            snprintf(err, errlen, "out of memory loading '%s'", text);
        return ARENA_ENOMEM;
    }
    out->spec = spec;
    out->params = params;
    out->ops = ops;
    out->warning = model.warning;
    out->names = names;
    out->persistent_bytes = model.persistent_bytes;
    out->index = model.index;
    out->problem = p;
    out->fingerprint = arena_problem_fingerprint(&p);
    return ARENA_OK;
}
