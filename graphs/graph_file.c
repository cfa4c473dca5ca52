/* graph_file.c — the graph text format (described in files.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/files.h"
#include "graphs/lines.h"
#include "graphs/graph_internal.h"
#include "graphs/names.h"

#define MAX_TOKENS 4096

/* Splits at blanks in place, stopping at '#'. Returns the token count, or
 * MAX_TOKENS + 1 when there are too many. */
static size_t tokenize(char *s, char **tok)
{
    size_t n = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0' || *s == '#')
            return n;
        if (n == MAX_TOKENS)
            return MAX_TOKENS + 1;
        tok[n++] = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '#')
            s++;
        if (*s == '#') {
            *s = '\0';
            return n;
        }
        if (*s)
            *s++ = '\0';
    }
}

static int parse_shape(struct arena_reader *r, const char *s, enum arena_dtype dt, uint32_t *rank,
                       uint64_t *dims)
{
    char q[64];
    uint32_t k = 0;
    const char *p = s;
    uint64_t bytes = arena_dtype_size(dt);
    for (;;) {
        if (*p < '0' || *p > '9')
            return arena_reader_fail(r, ARENA_EFORMAT, "shape",
                                     "'%s' is not dims joined by 'x' (e.g. 1x8x8x16)",
                                     arena_reader_show(s, q, sizeof q));
        uint64_t v = 0;
        while (*p >= '0' && *p <= '9') {
            unsigned d = (unsigned)(*p++ - '0');
            if (v > (ARENA_SIZE_MAX - d) / 10)
                return arena_reader_fail(r, ARENA_EFORMAT, "shape", "size above 2^62 bytes");
            v = v * 10 + d;
        }
        if (k == ARENA_GRAPH_MAX_RANK)
            return arena_reader_fail(r, ARENA_EFORMAT, "shape", "more than %d dims",
                                     ARENA_GRAPH_MAX_RANK);
        if (v == 0)
            return arena_reader_fail(r, ARENA_EFORMAT, "shape",
                                     "dim %u is zero: a zero-byte tensor", (unsigned)k);
        if (bytes > ARENA_SIZE_MAX / v)
            return arena_reader_fail(r, ARENA_EFORMAT, "shape", "size above 2^62 bytes");
        bytes *= v;
        dims[k++] = v;
        if (*p == '\0')
            break;
        if (*p != 'x')
            return arena_reader_fail(r, ARENA_EFORMAT, "shape",
                                     "'%s' is not dims joined by 'x' (e.g. 1x8x8x16)",
                                     arena_reader_show(s, q, sizeof q));
        p++;
    }
    *rank = k;
    return ARENA_OK;
}

struct state {
    struct arena_reader r;
    struct arena_graph *g;
    struct arena_names tensors, ops;
    uint32_t *refs;
};

static int tensor_line(struct state *st, char **tok, size_t n)
{
    static const char *const fields[] = {"tensor", "name", "dtype", "shape"};
    char q[64];
    if (n < 4)
        return arena_reader_fail(&st->r, ARENA_EFORMAT, fields[n], "missing column");
    if (strcmp(tok[1], "->") == 0)
        return arena_reader_fail(&st->r, ARENA_EFORMAT, "name", "'->' cannot name a tensor");
    enum arena_dtype dt;
    if (arena_dtype_parse(tok[2], &dt))
        return arena_reader_fail(&st->r, ARENA_EFORMAT, "dtype",
                                 "'%s' is not int8, int16, fp16 or fp32",
                                 arena_reader_show(tok[2], q, sizeof q));
    uint32_t rank = 0;
    uint64_t dims[ARENA_GRAPH_MAX_RANK];
    int rc = parse_shape(&st->r, tok[3], dt, &rank, dims);
    if (rc)
        return rc;
    int in = 0, out = 0;
    for (size_t i = 4; i < n; i++) {
        if (strcmp(tok[i], "input") == 0)
            in = 1;
        else if (strcmp(tok[i], "output") == 0)
            out = 1;
        else
            return arena_reader_fail(&st->r, ARENA_EFORMAT, "flag", "'%s' is not input or output",
                                     arena_reader_show(tok[i], q, sizeof q));
    }
    uint32_t id = (uint32_t)st->g->n_tensors, old;
    rc = arena_names_put(&st->tensors, tok[1], strlen(tok[1]), id, &old);
    if (rc < 0)
        return arena_reader_fail(&st->r, rc, "name", "out of memory");
    if (rc == 1)
        return arena_reader_fail(
            &st->r, ARENA_EFORMAT, "name", "duplicate tensor '%s' (first on line %u)",
            arena_reader_show(tok[1], q, sizeof q), (unsigned)st->g->tensors[old].line);
    rc = arena_graph_tensor_add(st->g, tok[1], dt, rank, dims, &id);
    if (rc)
        return arena_reader_fail(&st->r, rc, "tensor", "%s", arena_strerror(rc));
    st->g->tensors[id].is_input = (unsigned char)in;
    st->g->tensors[id].is_output = (unsigned char)out;
    st->g->tensors[id].line = (uint32_t)st->r.line;
    return ARENA_OK;
}

static int op_line(struct state *st, char **tok, size_t n)
{
    char q[64];
    if (n < 2)
        return arena_reader_fail(&st->r, ARENA_EFORMAT, "name", "missing column");
    if (n < 3)
        return arena_reader_fail(&st->r, ARENA_EFORMAT, "kind", "missing column");
    size_t arrow = 3;
    while (arrow < n && strcmp(tok[arrow], "->") != 0)
        arrow++;
    if (arrow == n)
        return arena_reader_fail(&st->r, ARENA_EFORMAT, "op",
                                 "missing '->' between inputs and outputs");
    size_t k = 0;
    for (size_t i = 3; i < n; i++) {
        if (i == arrow)
            continue;
        const char *field = i < arrow ? "input" : "output";
        if (strcmp(tok[i], "->") == 0)
            return arena_reader_fail(&st->r, ARENA_EFORMAT, field, "a second '->'");
        uint32_t id;
        if (!arena_names_get(&st->tensors, tok[i], strlen(tok[i]), &id))
            return arena_reader_fail(&st->r, ARENA_EFORMAT, field,
                                     "unknown tensor '%s' (declare it with a "
                                     "tensor line first)",
                                     arena_reader_show(tok[i], q, sizeof q));
        st->refs[k++] = id;
    }
    uint32_t old;
    int rc = arena_names_put(&st->ops, tok[1], strlen(tok[1]), (uint32_t)st->g->n_ops, &old);
    if (rc < 0)
        return arena_reader_fail(&st->r, rc, "name", "out of memory");
    if (rc == 1)
        return arena_reader_fail(
            &st->r, ARENA_EFORMAT, "name", "duplicate op '%s' (first on line %u)",
            arena_reader_show(tok[1], q, sizeof q), (unsigned)st->g->ops[old].line);
    size_t n_in = arrow - 3;
    rc = arena_graph_op_add(st->g, tok[1], tok[2], st->refs, n_in, st->refs + n_in, k - n_in);
    if (rc)
        return arena_reader_fail(&st->r, rc, "op", "%s", arena_strerror(rc));
    st->g->ops[st->g->n_ops - 1].line = (uint32_t)st->r.line;
    return ARENA_OK;
}

int arena_graph_file_read_stream(FILE *f, const char *name, const volatile sig_atomic_t *stop,
                                 struct arena_graph *g, char *err, size_t errlen)
{
    struct state st;
    memset(&st, 0, sizeof st);
    st.r.name = name;
    st.r.err = err;
    st.r.errlen = errlen;
    st.r.stop = stop;
    st.g = g;
    arena_graph_init(g);
    arena_names_init(&st.tensors);
    arena_names_init(&st.ops);
    if (err && errlen)
        err[0] = '\0';
    char *line = malloc(ARENA_FILE_LINE_MAX + 1);
    char **tok = malloc((MAX_TOKENS + 1) * sizeof *tok);
    struct arena_lines *lr = malloc(sizeof *lr);
    st.refs = malloc(MAX_TOKENS * sizeof *st.refs);
    int rc = ARENA_OK;
    if (!line || !tok || !lr || !st.refs) {
        rc = arena_reader_fail(&st.r, ARENA_ENOMEM, "file", "out of memory");
        goto done;
    }
    arena_lines_open(lr, f, line);
    for (;;) {
        int got = arena_reader_next(&st.r, lr);
        if (got <= 0) {
            rc = got;
            break;
        }
        for (size_t i = 0; i < lr->len; i++) {
            unsigned char c = (unsigned char)line[i];
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                /* names reach the checks' messages as they are */
                rc = arena_reader_fail(&st.r, ARENA_EFORMAT, "line",
                                       "control character 0x%02x in column %zu (names and "
                                       "kinds are printable text)",
                                       (unsigned)c, i + 1);
                break;
            }
        }
        if (rc)
            break;
        size_t n = tokenize(line, tok);
        if (n == 0)
            continue;
        if (n > MAX_TOKENS) {
            rc = arena_reader_fail(&st.r, ARENA_EFORMAT, "line", "more than %d tokens", MAX_TOKENS);
            break;
        }
        if (strcmp(tok[0], "tensor") == 0)
            rc = tensor_line(&st, tok, n);
        else if (strcmp(tok[0], "op") == 0)
            rc = op_line(&st, tok, n);
        else {
            char q[64];
            rc = arena_reader_fail(&st.r, ARENA_EFORMAT, "statement", "'%s' is not tensor or op",
                                   arena_reader_show(tok[0], q, sizeof q));
        }
        if (rc)
            break;
    }
done:
    free(line);
    free(tok);
    free(lr);
    free(st.refs);
    arena_names_free(&st.tensors);
    arena_names_free(&st.ops);
    if (rc)
        arena_graph_free(g);
    return rc;
}

int arena_graph_file_read(const char *path, const volatile sig_atomic_t *stop,
                          struct arena_graph *g, char *err, size_t errlen)
{
    arena_graph_init(g);
    FILE *f = arena_reader_open(path, err, errlen);
    if (!f)
        return ARENA_EIO;
    int rc = arena_graph_file_read_stream(f, path, stop, g, err, errlen);
    fclose(f);
    return rc;
}
