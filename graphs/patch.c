/* patch.c — patch-based inference of the first stage (patch.h): the
 * receptive field of each patch walked backwards through the stage's
 * windows, then one op and one tensor per patch and stage op. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/graph_internal.h"
#include "graphs/patch.h"

int arena_patch_parse(const char *text, struct arena_patch_spec *out, char *err, size_t errlen)
{
    static const char ends[3] = {'x', ':', '\0'};
    uint64_t v[3] = {0, 0, 0};
    const char *s = text;
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 3; i++) {
        const char *start = s;
        while (*s >= '0' && *s <= '9' && v[i] <= UINT32_MAX)
            v[i] = v[i] * 10 + (uint64_t)(*s++ - '0');
        int stream = i == 2 && strcmp(s, ":stream") == 0;
        if (s == start || (*s != ends[i] && !stream) || v[i] > UINT32_MAX)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "'%s' is not RxC:K[:stream] (a grid of R rows and C columns of"
                                " patches over the output of the first K ops, e.g. 4x4:13)",
                                text);
        out->stream = stream;
        s++;
    }
    if (v[0] < 1 || v[0] > ARENA_PATCH_MAX_GRID || v[1] < 1 || v[1] > ARENA_PATCH_MAX_GRID)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "'%s': the grid's rows and columns are 1 to %d", text,
                            ARENA_PATCH_MAX_GRID);
    if (v[2] < 1)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "'%s': the stage needs at least one op",
                            text);
    out->rows = (uint32_t)v[0];
    out->cols = (uint32_t)v[1];
    out->k = (uint32_t)v[2];
    return ARENA_OK;
}

/* STREAMED: a graph input only the stage reads, read per patch (stream). */
enum role { OUTSIDE, STAGE_INPUT, INTERNAL, STAGE_OUTPUT, STREAMED };

/* Rows [y0, y1) x columns [x0, x1); empty when y0 >= y1. */
struct region {
    int64_t y0, y1, x0, x1;
};

static void region_join(struct region *r, const struct region *a)
{
    if (r->y0 >= r->y1) {
        *r = *a;
        return;
    }
    r->y0 = a->y0 < r->y0 ? a->y0 : r->y0;
    r->x0 = a->x0 < r->x0 ? a->x0 : r->x0;
    r->y1 = a->y1 > r->y1 ? a->y1 : r->y1;
    r->x1 = a->x1 > r->x1 ? a->x1 : r->x1;
}

static int64_t clip(int64_t v, int64_t hi)
{
    return v < 0 ? 0 : v > hi ? hi : v;
}

/* What an op with window w needs of an input of h x w_in to compute the
 * region r of its output. */
static struct region needs(const struct arena_gop_window *w, const struct region *r, uint64_t h,
                           uint64_t w_in)
{
    struct region in = {
        .y0 = clip(r->y0 * w->sh - w->pad_top, (int64_t)h),
        .y1 = clip((r->y1 - 1) * w->sh - w->pad_top + w->kh, (int64_t)h),
        .x0 = clip(r->x0 * w->sw - w->pad_left, (int64_t)w_in),
        .x1 = clip((r->x1 - 1) * w->sw - w->pad_left + w->kw, (int64_t)w_in),
    };
    return in;
}

/* *acc += a * b * c * d, ARENA_EOVERFLOW past 2^64 - 1. */
static int macs_add(uint64_t *acc, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    uint64_t f[4] = {a, b, c, d}, p = 1;
    for (int i = 0; i < 4; i++) {
        if (f[i] && p > UINT64_MAX / f[i])
            return ARENA_EOVERFLOW;
        p *= f[i];
    }
    if (p > UINT64_MAX - *acc)
        return ARENA_EOVERFLOW;
    *acc += p;
    return ARENA_OK;
}

static const struct arena_gtensor *out_of(const struct arena_graph *g, const struct arena_gop *op)
{
    return &g->tensors[g->refs[op->out_first]];
}

/* The checks of patch.h on the stage; fills role[] and *o. */
static int stage_check(const struct arena_graph *g, const struct arena_patch_spec *ps,
                       unsigned char *role, uint32_t *o, char *err, size_t errlen)
{
    for (uint32_t s = 0; s < ps->k; s++) {
        const struct arena_gop *op = &g->ops[arena_graph_op_at(g, s)];
        if (!op->win.kh)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "op '%s' (step %u) states no window (kernel, stride, padding):"
                                " only graphs that state them can be patched (the mobilenetv2"
                                " family does)",
                                op->name, s);
        if (op->n_out != 1)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "op '%s' (step %u) writes %zu tensors; a patched op writes one",
                                op->name, s, op->n_out);
        for (size_t r = 0; r < op->n_in + 1; r++) {
            uint32_t t = r < op->n_in ? g->refs[op->in_first + r] : g->refs[op->out_first];
            const struct arena_gtensor *gt = &g->tensors[t];
            if (gt->rank != 4 || gt->dims[0] != 1)
                return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                    "tensor '%s' of op '%s' is not 1 x H x W x C", gt->name,
                                    op->name);
            if (r == op->n_in)
                role[t] = INTERNAL;
            else if (role[t] == OUTSIDE)
                role[t] = STAGE_INPUT;
        }
    }
    size_t crossing = 0;
    const char *names[2] = {"", ""};
    for (size_t t = 0; t < g->n_tensors; t++) {
        int out = role[t] == INTERNAL && g->tensors[t].is_output;
        for (size_t s = ps->k; s < g->n_ops && !out && role[t] == INTERNAL; s++) {
            const struct arena_gop *op = &g->ops[arena_graph_op_at(g, s)];
            for (size_t r = 0; r < op->n_in; r++)
                out |= g->refs[op->in_first + r] == t;
        }
        if (!out)
            continue;
        if (crossing < 2)
            names[crossing] = g->tensors[t].name;
        crossing++;
        *o = (uint32_t)t;
    }
    if (crossing != 1)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "the first %u ops end with %zu tensors read later (%s%s%s%s): a"
                            " stage must end where one tensor alone crosses, e.g. not inside"
                            " a residual block",
                            ps->k, crossing, names[0], crossing > 1 ? ", " : "", names[1],
                            crossing > 2 ? ", ..." : "");
    role[*o] = STAGE_OUTPUT;
    for (size_t t = 0; t < g->n_tensors && ps->stream; t++) {
        int later = g->tensors[t].is_output;
        for (size_t s = ps->k; s < g->n_ops && !later; s++) {
            const struct arena_gop *op = &g->ops[arena_graph_op_at(g, s)];
            for (size_t r = 0; r < op->n_in; r++)
                later |= g->refs[op->in_first + r] == t;
        }
        if (role[t] == STAGE_INPUT && g->tensors[t].is_input && !later)
            role[t] = STREAMED;
    }
    const struct arena_gtensor *ot = &g->tensors[*o];
    if (ps->rows > ot->dims[1] || ps->cols > ot->dims[2])
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "a %ux%u grid over '%s' (%llu x %llu): more patches than rows or"
                            " columns",
                            ps->rows, ps->cols, ot->name, (unsigned long long)ot->dims[1],
                            (unsigned long long)ot->dims[2]);
    return ARENA_OK;
}

/* The stage's whole-image MACs and the graph's. */
static int whole_macs(const struct arena_graph *g, uint32_t k, struct arena_patch_report *rep)
{
    for (size_t s = 0; s < g->n_ops; s++) {
        const struct arena_gop *op = &g->ops[arena_graph_op_at(g, s)];
        if (!op->win.kh || op->n_out != 1 || out_of(g, op)->rank != 4)
            continue;
        const uint64_t *d = out_of(g, op)->dims;
        if (macs_add(&rep->graph_macs, d[1], d[2], d[3], op->win.macs_per_out) ||
            (s < k && macs_add(&rep->stage_macs, d[1], d[2], d[3], op->win.macs_per_out)))
            return ARENA_EOVERFLOW;
    }
    return ARENA_OK;
}

struct work {
    unsigned char *role;
    uint32_t *id;       /* source tensor -> tensor of the patched graph */
    uint32_t *pid;      /* source tensor -> this patch's tensor */
    struct region *reg; /* this patch's region of each tensor */
    uint32_t *ins;      /* one op's inputs, plus O */
    char *name;         /* "NAME@i,j" */
    size_t name_len;
};

/* Emits patch (i, j): regions backwards, then ops forwards. */
static int emit_patch(const struct arena_graph *g, const struct arena_patch_spec *ps,
                      struct work *w, uint32_t o, uint32_t i, uint32_t j, struct arena_graph *out,
                      struct arena_patch_report *rep, char *err, size_t errlen)
{
    const uint64_t *od = g->tensors[o].dims;
    for (size_t t = 0; t < g->n_tensors; t++)
        w->reg[t] = (struct region){0, 0, 0, 0};
    w->reg[o] = (struct region){(int64_t)(i * od[1] / ps->rows),
                                (int64_t)((i + 1) * od[1] / ps->rows),
                                (int64_t)(j * od[2] / ps->cols),
                                (int64_t)((j + 1) * od[2] / ps->cols)};
    for (uint32_t s = ps->k; s-- > 0;) {
        const struct arena_gop *op = &g->ops[arena_graph_op_at(g, s)];
        const struct region *r = &w->reg[g->refs[op->out_first]];
        if (r->y0 >= r->y1 || r->x0 >= r->x1)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "op '%s' (step %u): neither the stage output '%s' nor a later"
                                " stage op reads what it writes",
                                op->name, s, g->tensors[o].name);
        for (size_t k = 0; k < op->n_in; k++) {
            uint32_t u = g->refs[op->in_first + k];
            struct region need = needs(&op->win, r, g->tensors[u].dims[1], g->tensors[u].dims[2]);
            region_join(&w->reg[u], &need);
        }
    }
    uint64_t bytes = 0;
    for (size_t t = 0; t < g->n_tensors; t++) {
        if (w->role[t] != STREAMED)
            continue;
        const struct arena_gtensor *gt = &g->tensors[t];
        const struct region *r = &w->reg[t];
        uint64_t dims[4] = {1, (uint64_t)(r->y1 - r->y0), (uint64_t)(r->x1 - r->x0), gt->dims[3]};
        snprintf(w->name, w->name_len, "%s@%u,%u", gt->name, i, j);
        arena_graph_tensor_add(out, w->name, gt->dtype, 4, dims, &w->pid[t]);
        arena_graph_op_add(out, w->name, "read_input", NULL, 0, &w->pid[t], 1);
        if (out->status)
            return arena_errorf(err, errlen, 0, out->status, "building patch %u,%u: %s", i, j,
                                arena_strerror(out->status));
        bytes += out->tensors[w->pid[t]].bytes;
    }
    for (uint32_t s = 0; s < ps->k; s++) {
        const struct arena_gop *op = &g->ops[arena_graph_op_at(g, s)];
        uint32_t t = g->refs[op->out_first];
        const struct region *r = &w->reg[t];
        uint64_t h = (uint64_t)(r->y1 - r->y0), wd = (uint64_t)(r->x1 - r->x0);
        for (size_t k = 0; k < op->n_in; k++) {
            uint32_t u = g->refs[op->in_first + k];
            w->ins[k] = w->role[u] == INTERNAL || w->role[u] == STREAMED ? w->pid[u] : w->id[u];
        }
        snprintf(w->name, w->name_len, "%s@%u,%u", g->tensors[t].name, i, j);
        if (w->role[t] == INTERNAL) {
            uint64_t dims[4] = {1, h, wd, g->tensors[t].dims[3]};
            arena_graph_tensor_add(out, w->name, g->tensors[t].dtype, 4, dims, &w->pid[t]);
            if (!out->status)
                bytes += out->tensors[w->pid[t]].bytes;
        }
        snprintf(w->name, w->name_len, "%s@%u,%u", op->name, i, j);
        if (w->role[t] == INTERNAL)
            arena_graph_op_add(out, w->name, op->kind, w->ins, op->n_in, &w->pid[t], 1);
        else if (i == 0 && j == 0)
            arena_graph_op_add(out, w->name, op->kind, w->ins, op->n_in, &w->id[t], 1);
        else {
            w->ins[op->n_in] = w->id[t]; /* writes its slice of O: O stays live */
            arena_graph_op_add(out, w->name, op->kind, w->ins, op->n_in + 1, NULL, 0);
        }
        if (out->status)
            return arena_errorf(err, errlen, 0, out->status, "building patch %u,%u: %s", i, j,
                                arena_strerror(out->status));
        out->ops[out->n_ops - 1].line = op->line;
        if (macs_add(&rep->patched_macs, h, wd, g->tensors[t].dims[3], op->win.macs_per_out))
            return arena_errorf(err, errlen, 0, ARENA_EOVERFLOW,
                                "the patched stage's MACs pass 2^64 - 1");
    }
    if (bytes > rep->patch_bytes_max)
        rep->patch_bytes_max = bytes;
    return ARENA_OK;
}

static int build(const struct arena_graph *g, const struct arena_patch_spec *ps, struct work *w,
                 uint32_t o, struct arena_graph *out, struct arena_patch_report *rep, char *err,
                 size_t errlen)
{
    for (size_t t = 0; t < g->n_tensors; t++) {
        const struct arena_gtensor *gt = &g->tensors[t];
        if (w->role[t] == INTERNAL || w->role[t] == STREAMED)
            continue;
        arena_graph_tensor_add(out, gt->name, gt->dtype, gt->rank, gt->dims, &w->id[t]);
        if (out->status)
            break;
        out->tensors[w->id[t]].is_input = gt->is_input;
        out->tensors[w->id[t]].is_output = gt->is_output;
        out->tensors[w->id[t]].line = gt->line;
    }
    int rc = out->status;
    for (uint32_t i = 0; i < ps->rows && !rc; i++)
        for (uint32_t j = 0; j < ps->cols && !rc; j++)
            rc = emit_patch(g, ps, w, o, i, j, out, rep, err, errlen);
    for (size_t s = ps->k; s < g->n_ops && !rc; s++) {
        const struct arena_gop *op = &g->ops[arena_graph_op_at(g, s)];
        for (size_t k = 0; k < op->n_in + op->n_out; k++)
            w->ins[k] = w->id[g->refs[op->in_first + k]];
        /* refs of one op are contiguous: inputs, then outputs */
        arena_graph_op_add(out, op->name, op->kind, w->ins, op->n_in, w->ins + op->n_in,
                           op->n_out);
        if (!out->status) {
            out->ops[out->n_ops - 1].line = op->line;
            out->ops[out->n_ops - 1].win = op->win;
        }
        rc = out->status;
    }
    if (rc == ARENA_ENOMEM || rc == ARENA_EINVAL)
        if (err && errlen && !err[0])
            arena_errorf(err, errlen, 0, rc, "building the patched graph: %s", arena_strerror(rc));
    return rc;
}

int arena_graph_patch(const struct arena_graph *g, const struct arena_patch_spec *ps,
                      struct arena_graph *out, struct arena_patch_report *rep, char *err,
                      size_t errlen)
{
    arena_graph_init(out);
    memset(rep, 0, sizeof *rep);
    if (err && errlen)
        err[0] = '\0';
    size_t nt = g->n_tensors, no = g->n_ops;
    if (ps->k < 1 || ps->k > no)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "a stage of %u ops: the graph has %zu ops", ps->k, no);
    size_t longest = 0, most_in = 0;
    for (size_t t = 0; t < nt; t++)
        if (strlen(g->tensors[t].name) > longest)
            longest = strlen(g->tensors[t].name);
    for (size_t o = 0; o < no; o++) {
        if (strlen(g->ops[o].name) > longest)
            longest = strlen(g->ops[o].name);
        if (g->ops[o].n_in + g->ops[o].n_out > most_in)
            most_in = g->ops[o].n_in + g->ops[o].n_out;
    }
    struct work w = {
        .role = calloc(nt, 1),
        .id = malloc(nt * sizeof *w.id),
        .pid = malloc(nt * sizeof *w.pid),
        .reg = malloc(nt * sizeof *w.reg),
        .ins = malloc((most_in + 1) * sizeof *w.ins),
        .name_len = longest + 32,
    };
    w.name = malloc(w.name_len);
    uint32_t *writer = malloc((nt ? nt : 1) * sizeof *writer);
    uint32_t *pos = malloc((no ? no : 1) * sizeof *pos);
    int rc = ARENA_OK;
    if (!w.role || !w.id || !w.pid || !w.reg || !w.ins || !w.name || !writer || !pos)
        rc = arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory patching the graph");
    if (!rc)
        rc = arena_graph_analyse(g, writer, pos, NULL, err, errlen);
    uint32_t o = 0;
    if (!rc)
        rc = stage_check(g, ps, w.role, &o, err, errlen);
    if (!rc && whole_macs(g, ps->k, rep))
        rc = arena_errorf(err, errlen, 0, ARENA_EOVERFLOW, "the graph's MACs pass 2^64 - 1");
    if (!rc)
        rc = build(g, ps, &w, o, out, rep, err, errlen);
    if (!rc) {
        char why[256];
        rc = arena_graph_check(out, NULL, why, sizeof why);
        if (rc)
            arena_errorf(err, errlen, 0, rc, "the patched graph fails its check: %s", why);
    }
    if (!rc) {
        rep->spec = *ps;
        rep->out_tensor = o;
        rep->stage_ops = (uint32_t)(out->n_ops - (no - ps->k));
        snprintf(rep->out_name, sizeof rep->out_name, "%s", g->tensors[o].name);
        rep->out_h = g->tensors[o].dims[1];
        rep->out_w = g->tensors[o].dims[2];
        rep->out_c = g->tensors[o].dims[3];
    }
    free(w.role);
    free(w.id);
    free(w.pid);
    free(w.reg);
    free(w.ins);
    free(w.name);
    free(writer);
    free(pos);
    if (rc) {
        arena_graph_free(out);
        memset(rep, 0, sizeof *rep);
    }
    return rc;
}

int arena_patch_stage_peak(const struct arena_problem *p, struct arena_patch_report *rep)
{
    uint32_t n = rep->stage_ops;
    uint64_t *live = calloc(n ? n : 1, sizeof *live);
    if (!live)
        return ARENA_ENOMEM;
    for (size_t t = 0; t < p->n; t++)
        for (uint32_t s = p->tensors[t].first; s <= p->tensors[t].last && s < n; s++)
            live[s] += p->tensors[t].size; /* below the problem's checked sum */
    rep->stage_peak = 0;
    for (uint32_t s = 0; s < n; s++)
        if (live[s] > rep->stage_peak)
            rep->stage_peak = live[s];
    free(live);
    return ARENA_OK;
}
