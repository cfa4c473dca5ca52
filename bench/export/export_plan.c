/* export_plan.c — a plan as NAME.csv and a C library, NAME.h + NAME.c,
 * and as a .tflite model carrying TFLM's offline plan (see export_plan.h,
 * export_tflite.h). */
#include "bench/export/export_plan.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/export/export_tflite.h"
#include "bench/external/guest.h"
#include "bench/external/isolate.h"
#include "graphs/names.h"
#include "graphs/read_whole.h"
#include "graphs/source.h"
#include "graphs/tflite.h"
#include "planners/alias.h"
#include "planners/keys.h"
#include "planners/planner.h"

#define IDENT_MAX 64
#define STEM_MAX 40 /* of a file name in a prefix; the fingerprint follows */

static uint64_t up16(uint64_t v)
{
    return (v + 15) & ~(uint64_t)15;
}

/* "u" literals while they fit 32 bits, "ull" past that. */
static const char *suffix(uint64_t v)
{
    return v > 0xffffffffu ? "ull" : "u";
}

/* name made an upper-case C identifier: [A-Z0-9_], not starting with a
 * digit, at most `max` bytes (out holds max + 1). */
static void ident_max(const char *name, char *out, size_t max)
{
    size_t k = 0;
    if (isdigit((unsigned char)name[0]))
        out[k++] = 'T';
    for (const char *c = name; *c && k < max; c++)
        out[k++] = isalnum((unsigned char)*c) ? (char)toupper((unsigned char)*c) : '_';
    out[k] = '\0';
    if (k == 0)
        snprintf(out, max + 1, "T");
}

static void ident(const char *name, char *out)
{
    ident_max(name, out, IDENT_MAX);
}

/* Unique identifiers for every tensor, whatever the count of clashes: the
 * name's identifier, else with "_<id>", else "_<id>_<k>" for k = 2, 3, ...
 * (the pool holds at most n names, so some k is free). */
static int idents(const struct arena_export *x, char **out)
{
    struct arena_names m;
    arena_names_init(&m);
    int rc = ARENA_OK;
    for (size_t i = 0; i < x->p->n && !rc; i++) {
        char raw[32], base[IDENT_MAX + 1], id[IDENT_MAX + 64];
        snprintf(raw, sizeof raw, "t%zu", i);
        ident(x->names && x->names[i] ? x->names[i] : raw, base);
        snprintf(id, sizeof id, "%s", base);
        for (size_t k = 1;; k++) {
            int put = arena_names_put(&m, id, strlen(id), (uint32_t)i, NULL);
            if (put < 0) {
                rc = ARENA_ENOMEM;
                break;
            }
            if (put == 0)
                break;
            if (k == 1)
                snprintf(id, sizeof id, "%s_%zu", base, i);
            else
                snprintf(id, sizeof id, "%s_%zu_%zu", base, i, k);
        }
        out[i] = rc ? NULL : malloc(strlen(id) + 1);
        if (!rc && !out[i])
            rc = ARENA_ENOMEM;
        if (!rc)
            memcpy(out[i], id, strlen(id) + 1);
    }
    arena_names_free(&m);
    return rc;
}

static uint32_t source_index(const struct arena_export *x, size_t i)
{
    return x->index ? x->index[i] : (uint32_t)i;
}

/* A CSV field: names with a comma, quote or line break are quoted. */
static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void write_csv(FILE *f, const struct arena_export *x, uint64_t act)
{
    fputs(x->shares ? "name,index,size,first,last,offset,shares\n"
                    : "name,index,size,first,last,offset\n",
          f);
    for (size_t i = 0; i < x->p->n; i++) {
        const struct arena_tensor *t = &x->p->tensors[i];
        char raw[32];
        snprintf(raw, sizeof raw, "t%zu", i);
        csv_field(f, x->names && x->names[i] ? x->names[i] : raw);
        fprintf(f, ",%lu,%llu,%u,%u,%llu", (unsigned long)source_index(x, i),
                (unsigned long long)t->size, (unsigned)t->first, (unsigned)t->last,
                (unsigned long long)(act + x->plan->offsets[i]));
        if (x->shares) {
            uint32_t o = x->shares[i];
            fputc(',', f);
            if (o != UINT32_MAX) {
                snprintf(raw, sizeof raw, "t%lu", (unsigned long)o);
                csv_field(f, x->names && x->names[o] ? x->names[o] : raw);
            }
        }
        fputc('\n', f);
    }
}

/* A comment-safe copy: neither "*" + "/" nor "/" + "*", printable ASCII
 * only. */
static void comment_text(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    for (; *s && k + 1 < cap; s++) {
        char c = (*s >= 0x20 && *s < 0x7f) ? *s : '?';
        if ((c == '/' && k > 0 && out[k - 1] == '*') || (c == '*' && k > 0 && out[k - 1] == '/'))
            c = '|';
        out[k++] = c;
    }
    out[k] = '\0';
}

/* The layout, computed once for the three files. */
struct layout {
    uint64_t act, act_bytes, tail_off, total;
};

/* The problem the plan is for: what the runtime must do as bench assumed. */
static void write_config(FILE *f, const struct arena_export *x)
{
    const char *P = x->prefix;
    const struct arena_transforms plain = {.alignment = x->p->alignment};
    const struct arena_transforms *tf = x->tf ? x->tf : &plain;
    int best = tf->order == ARENA_ORDER_BEST && x->order;
    char patch[64];
    arena_patch_text(&tf->patch, patch, sizeof patch);
    const char *rule = arena_inplace_name(tf->inplace);
    fprintf(f, "/* The problem this plan is for (bench's configuration):\n");
    if (best)
        fprintf(f, " *  - order best: run the ops in %s_order[], not in the source's order;\n", P);
    else
        fprintf(f, " *  - order %s: run the ops in the source's stored order%s;\n",
                tf->order == ARENA_ORDER_BEST ? "best (the stored one)" : "stored",
                tf->order == ARENA_ORDER_BEST ? ", which the search proved best" : "");
    if (tf->inplace != ARENA_INPLACE_NONE)
        fprintf(f, " *  - in-place rule %s: the ops of %s_shares write their output over\n"
                   " *    an input that dies there, reading it first;\n",
                rule ? rule : "?", P);
    else
        fprintf(f, " *  - in-place rule none: every tensor has bytes of its own;\n");
    if (patch[0])
        fprintf(f, " *  - patch %s: the first stage runs patch by patch, as the table's\n"
                   " *    tensors (one per patch and op) say.\n",
                patch);
    else
        fprintf(f, " *  - no patch.\n");
    fprintf(f, " * A runtime that does otherwise may overwrite a live tensor. */\n");
    fprintf(f, "#define %s_ORDER \"%s\"\n#define %s_INPLACE \"%s\"\n#define %s_PATCH \"%s\"\n\n",
            P, best || tf->order == ARENA_ORDER_BEST ? "best" : "stored", P, rule ? rule : "none",
            P, patch);
}

static void write_header(FILE *f, const struct arena_export *x, char **id, const char *title,
                         const char *base, const struct layout *l)
{
    const char *P = x->prefix;
    fprintf(f,
            "/* Generated by arenabench (bench --export-plan): %s.\n"
            " * A plan as a library: this header declares, %s.c defines the arena\n"
            " * %s_arena and the table %s_tensors (compile and link it once).\n"
            " *   [0, _ACT)              head: persistent tensors and model metadata\n"
            " *   [_ACT, _TAIL)          activations: the planned tensors\n"
            " *   [_TAIL, _ARENA_BYTES)  tail: scratch\n"
            " * %s_<TENSOR>_OFFSET is the tensor's byte offset from the start of the\n"
            " * arena, the head included: its bytes are %s_arena + _OFFSET.\n"
            " * _INDEX is its index in the source (a .tflite subgraph's tensor index,\n"
            " * a CSV's record, a graph file's tensor). Tensors live at the same step\n"
            " * never share a byte. */\n",
            title, base, P, P, P, P);
    fprintf(f, "#ifndef %s_PLAN_H\n#define %s_PLAN_H\n\n#include <stdint.h>\n\n", P, P);
    write_config(f, x);
    fprintf(f, "#define %s_HEAD_BYTES %llu%s\n", P, (unsigned long long)x->head, suffix(x->head));
    fprintf(f, "#define %s_ACT %llu%s\n", P, (unsigned long long)l->act, suffix(l->act));
    fprintf(f, "#define %s_ACT_BYTES %llu%s\n", P, (unsigned long long)l->act_bytes,
            suffix(l->act_bytes));
    fprintf(f, "#define %s_TAIL %llu%s\n", P, (unsigned long long)l->tail_off,
            suffix(l->tail_off));
    fprintf(f, "#define %s_TAIL_BYTES %llu%s\n", P, (unsigned long long)x->tail, suffix(x->tail));
    fprintf(f, "#define %s_ARENA_BYTES %llu%s\n", P, (unsigned long long)l->total,
            suffix(l->total));
    fprintf(f, "#define %s_TENSORS %zuu\n\n", P, x->p->n);
    fprintf(f, "/* Each tensor: its byte offset from the start of the arena, its size\n"
               " * in bytes, its index in the source. */\n");
    for (size_t i = 0; i < x->p->n; i++) {
        uint64_t off = l->act + x->plan->offsets[i], size = x->p->tensors[i].size;
        fprintf(f, "#define %s_%s_OFFSET %llu%s\n#define %s_%s_SIZE %llu%s\n#define %s_%s_INDEX %luu\n",
                P, id[i], (unsigned long long)off, suffix(off), P, id[i],
                (unsigned long long)size, suffix(size), P, id[i],
                (unsigned long)source_index(x, i));
        if (l->act) /* with ACT 0, ">= 0u" would draw -Wtype-limits */
            fprintf(f, "_Static_assert(%s_%s_OFFSET >= %s_ACT, \"%s starts in the activations\");\n",
                    P, id[i], P, id[i]);
        fprintf(f,
                "_Static_assert(%s_%s_OFFSET + %s_%s_SIZE <= %s_TAIL,"
                " \"%s ends in the activations\");\n",
                P, id[i], P, id[i], P, id[i]);
    }
    fprintf(f,
            "\n/* A tensor of the table: byte offset from the start of the arena, size,\n"
            " * the closed step interval [first, last] it is live in, source index. */\n"
            "struct %s_tensor {\n    uint64_t offset, size;\n    uint32_t first, last, index;\n};\n\n",
            P);
    if (l->total)
        fprintf(f, "/* %s_ARENA_BYTES bytes, aligned to 16 (defined in %s.c). */\n"
                   "extern uint8_t %s_arena[%s_ARENA_BYTES];\n",
                P, base, P, P);
    else
        fprintf(f, "/* No bytes: one element, since C has no empty arrays. */\n"
                   "extern uint8_t %s_arena[1];\n",
                P);
    size_t pairs = 0;
    for (size_t i = 0; x->shares && i < x->p->n; i++)
        pairs += x->shares[i] != UINT32_MAX;
    if (pairs)
        fprintf(f, "/* In-place ops: {tensor, the tensor whose bytes it takes} as indices of\n"
                   " * %s_tensors; the op reads its input before it writes its output\n"
                   " * (defined in %s.c). */\n"
                   "#define %s_SHARED_PAIRS %zuu\n"
                   "extern const uint32_t %s_shares[%s_SHARED_PAIRS][2];\n",
                P, base, P, pairs, P, P);
    if (x->p->n)
        fprintf(f, "/* Every tensor in id order (defined in %s.c). */\n"
                   "extern const struct %s_tensor %s_tensors[%s_TENSORS];\n",
                base, P, P, P);
    else
        fprintf(f, "/* No tensors: one zeroed element, since C has no empty arrays. */\n"
                   "extern const struct %s_tensor %s_tensors[1];\n",
                P, P);
    if (x->order)
        fprintf(f, "\n/* The execution order the plan is for (bench --order best): op\n"
                   " * %s_order[k] (its index in the source) runs at step k. */\n"
                   "#define %s_OPS %zuu\nextern const uint32_t %s_order[%s_OPS];\n",
                P, P, x->n_ops, P, P);
    fprintf(f, "\n#endif\n");
}

static void write_source(FILE *f, const struct arena_export *x, char **id, const char *title,
                         const char *base, const struct layout *l)
{
    const char *P = x->prefix;
    fprintf(f,
            "/* Generated by arenabench (bench --export-plan): %s.\n"
            " * The one definition of %s_arena and %s_tensors, declared in %s.h. */\n"
            "#include \"%s.h\"\n\n",
            title, P, P, base, base);
    if (l->total)
        fprintf(f, "_Alignas(16) uint8_t %s_arena[%s_ARENA_BYTES];\n\n", P, P);
    else
        fprintf(f, "_Alignas(16) uint8_t %s_arena[1];\n\n", P);
    if (x->order) {
        fprintf(f, "const uint32_t %s_order[%s_OPS] = {", P, P);
        for (size_t k = 0; k < x->n_ops; k++)
            fprintf(f, "%s%luu", k == 0 ? "\n    " : k % 12 ? ", " : ",\n    ",
                    (unsigned long)x->order[k]);
        fprintf(f, "\n};\n\n");
    }
    if (!x->p->n) {
        fprintf(f, "const struct %s_tensor %s_tensors[1] = {{0u, 0u, 0u, 0u, 0u}};\n", P, P);
        return;
    }
    fprintf(f, "const struct %s_tensor %s_tensors[%s_TENSORS] = {\n", P, P, P);
    for (size_t i = 0; i < x->p->n; i++)
        fprintf(f, "    {%s_%s_OFFSET, %s_%s_SIZE, %uu, %uu, %s_%s_INDEX},\n", P, id[i], P, id[i],
                (unsigned)x->p->tensors[i].first, (unsigned)x->p->tensors[i].last, P, id[i]);
    fprintf(f, "};\n");
    size_t pairs = 0;
    for (size_t i = 0; x->shares && i < x->p->n; i++)
        pairs += x->shares[i] != UINT32_MAX;
    if (!pairs)
        return;
    fprintf(f, "\nconst uint32_t %s_shares[%s_SHARED_PAIRS][2] = {\n", P, P);
    for (size_t i = 0; i < x->p->n; i++)
        if (x->shares[i] != UINT32_MAX)
            fprintf(f, "    {%zuu, %luu}, /* %s takes %s's bytes */\n", i,
                    (unsigned long)x->shares[i], id[i], id[x->shares[i]]);
    fprintf(f, "};\n");
}

/* A write that failed: why, as the system said (ENOSPC, EFBIG past ulimit
 * -f, EIO), else the usual cause. */
static int write_failed(const char *tmp, int e, char *err, size_t errlen)
{
    return arena_errorf(err, errlen, 0, ARENA_EIO, "%s: cannot write (%s)", tmp,
                        e ? strerror(e) : "disk full?");
}

enum { F_CSV, F_H, F_C, N_FILES };
static const char *const exts[N_FILES] = {"csv", "h", "c"};

int arena_export_plan(const char *dir, const char *base, const struct arena_export *x, char *err,
                      size_t errlen)
{
    struct layout l;
    l.act = up16(x->head);
    l.act_bytes = up16(x->plan->arena);
    l.tail_off = l.act + l.act_bytes;
    l.total = l.tail_off + up16(x->tail);
    if (x->head > ARENA_SIZE_MAX || x->tail > ARENA_SIZE_MAX || x->plan->arena > ARENA_SIZE_MAX ||
        l.total > ARENA_SIZE_MAX)
        return arena_errorf(err, errlen, 0, ARENA_EOVERFLOW,
                            "%s: head, activations and tail pass 2^62 bytes", base);
    char **id = calloc(x->p->n ? x->p->n : 1, sizeof *id);
    if (!id)
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
    int rc = idents(x, id);
    if (rc)
        arena_errorf(err, errlen, 0, rc, "out of memory");
    char title[256];
    comment_text(x->title, title, sizeof title);
    char path[N_FILES][4096], tmp[N_FILES][4096 + 8];
    int made = 0; /* temporaries created so far */
    for (int k = 0; k < N_FILES && !rc; k++) {
        int len = snprintf(path[k], sizeof path[k], "%s/%s.%s", dir, base, exts[k]);
        if (len < 0 || (size_t)len >= sizeof path[k]) {
            rc = arena_errorf(err, errlen, 0, ARENA_EIO, "%s/%s: path too long", dir, base);
            break;
        }
        snprintf(tmp[k], sizeof tmp[k], "%s.tmp", path[k]);
        FILE *f = fopen(tmp[k], "w");
        if (!f) {
            rc = arena_errorf(err, errlen, 0, ARENA_EIO, "%s: cannot create: %s", tmp[k],
                              strerror(errno));
            break;
        }
        made = k + 1;
        errno = 0;
        if (k == F_CSV)
            write_csv(f, x, l.act);
        else if (k == F_H)
            write_header(f, x, id, title, base, &l);
        else
            write_source(f, x, id, title, base, &l);
        int bad = ferror(f);
        if (fclose(f) != 0 || bad)
            rc = write_failed(tmp[k], errno, err, errlen);
    }
    /* all whole: rename, the header last; else remove what was made */
    for (int k = 0; k < N_FILES && !rc; k++)
        if (rename(tmp[k], path[k]) != 0)
            rc = arena_errorf(err, errlen, 0, ARENA_EIO, "%s: cannot rename to %s: %s", tmp[k],
                              path[k], strerror(errno));
    if (rc)
        for (int k = 0; k < made; k++)
            unlink(tmp[k]);
    for (size_t i = 0; i < x->p->n; i++)
        free(id[i]);
    free(id);
    return rc;
}

/* s made part of a file name: [A-Za-z0-9.=+-] kept, the rest '_'. */
static void file_part(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    for (; *s && k + 1 < cap; s++)
        out[k++] = (isalnum((unsigned char)*s) || strchr(".=+-", *s)) ? *s : '_';
    out[k] = '\0';
}

/* The graph's part of every prefix: STEM_FP, plus _SGn for a model's
 * subgraph n. STEM is a file's base name without its extension (cut to
 * STEM_MAX), or the family; FP the fingerprint's first 8 hex digits. Two
 * graphs share it only when they have the same stem, problem and subgraph. */
static void graph_ident(const struct arena_source *src, char *out, size_t cap)
{
    char stem[STEM_MAX + 1], path[4096];
    const char *text = src->spec;
    uint32_t sub = 0;
    int model = strcmp(src->family, "tflite") == 0;
    if (model)
        text = arena_tflite_path(src->spec, path, sizeof path, &sub);
    if (strcmp(src->params, "") == 0) {
        const char *slash = strrchr(text, '/');
        char name[4096];
        snprintf(name, sizeof name, "%s", slash ? slash + 1 : text);
        char *dot = strrchr(name, '.');
        if (dot && dot != name)
            *dot = '\0';
        ident_max(name, stem, STEM_MAX);
    } else {
        ident_max(src->family, stem, STEM_MAX);
    }
    if (model)
        snprintf(out, cap, "%s_%08X_SG%lu", stem, (unsigned)(src->fingerprint >> 32),
                 (unsigned long)sub);
    else
        snprintf(out, cap, "%s_%08X", stem, (unsigned)(src->fingerprint >> 32));
}

/* The order to export: one --order best chose other than the stored. */
static const uint32_t *own_order(const struct arena_source *src)
{
    const struct arena_order_result *o = &src->order;
    if (src->tf.order != ARENA_ORDER_BEST || !o->order) return NULL;
    for (size_t k = 0; k < o->n_ops; k++)
        if (o->order[k] != k) return o->order;
    return NULL;
}

/* One untimed call of pl on pp with inputs of its own (guest.h): in a
 * forked child when isolate (isolate.h, as bench run calls a plugin), else
 * in process, its writes to them checked after the call. The plan into
 * mp (its offsets the guest's). ARENA_OK, or the planner's failure as
 * ARENA_ECONFLICT with one line in why (a refusal, an error, a crash, a
 * call past the time limit, a write to its inputs); ARENA_EIO when a signal
 * stopped the child; ARENA_ENOMEM. */
static int guest_plan(const struct arena_planner *pl, const struct arena_problem *pp,
                      const struct arena_plan_options *opt, int isolate, struct arena_guest *g,
                      struct arena_plan *mp, char *why, size_t whylen)
{
    /* the planner's default key values (bench export takes no keys) */
    struct arena_key_value values[ARENA_PLANNER_MAX_KEYS];
    struct arena_plan_options with = *opt;
    if (pl->n_keys && !opt->values) {
        if (pl->n_keys > ARENA_PLANNER_MAX_KEYS ||
            arena_keys_defaults(pl->name, pl->keys, pl->n_keys, opt->seed, values, why, whylen))
            return ARENA_ECONFLICT;
        with.values = values;
        opt = &with;
    }
    int rc = arena_guest_init(g, pp, opt, pl->n_keys);
    if (rc)
        return arena_errorf(why, whylen, 0, rc, "%s", arena_strerror(rc));
    *mp = (struct arena_plan){.n = pp->n, .offsets = g->offsets};
    if (isolate) {
        struct arena_isolate_spec spec = {.repetitions = 1, .once = 1,
                                          .time_limit = opt->time_limit};
        struct arena_isolate_answer a;
        rc = arena_isolate_plan(pl, g, pp, opt, mp, &spec, &a, why, whylen);
        if (rc == ARENA_ENOTFOUND) /* stopped: said by the caller */
            return arena_errorf(why, whylen, 0, ARENA_EIO, "stopped, not exported");
        if (rc)
            return ARENA_ECONFLICT;
        rc = a.scratch_rc ? a.scratch_rc : a.plan_rc;
    } else {
        size_t bytes = 0;
        rc = arena_planner_scratch(pl, &g->p, &bytes);
        if (!rc)
            rc = arena_guest_scratch(g, bytes);
        if (!rc)
            rc = arena_planner_run(pl, &g->p, &g->opt, g->scratch, g->scratch_size, mp);
        struct arena_guest_fault f;
        if (arena_guest_check(g, pp, opt, mp, &f)) {
            arena_guest_describe(&f, why, whylen);
            return ARENA_ECONFLICT;
        }
    }
    if (rc)
        return arena_errorf(why, whylen, 0, ARENA_ECONFLICT, "%s%s",
                            rc == ARENA_ETOOBIG ? "refused: " : "planner failed: ",
                            arena_strerror(rc));
    return ARENA_OK;
}

/* Plans src with pl (isolated or not, as guest_plan) into plan, its
 * offsets in offsets (p->n of them), and validates it. */
static int plan_checked(const struct arena_planner *pl, const struct arena_source *src,
                        const struct arena_alias_merge *m, const struct arena_plan_options *opt,
                        int isolate, uint64_t *offsets, struct arena_plan *plan, char *err,
                        size_t errlen)
{
    const struct arena_problem *p = &src->problem;
    const struct arena_problem *pp = m ? &m->merged : p; /* what the planner sees */
    memset(plan, 0, sizeof *plan);
    if (!opt)
        opt = &arena_plan_options_default;
    struct arena_guest g;
    struct arena_plan mp;
    char why[600] = "";
    int rc = guest_plan(pl, pp, opt, isolate, &g, &mp, why, sizeof why);
    plan->n = p->n;
    plan->offsets = offsets;
    if (!rc && m) {
        arena_alias_expand(m, &mp, plan);
    } else if (!rc) {
        memcpy(offsets, mp.offsets, p->n * sizeof *offsets);
        *plan = mp;
        plan->offsets = offsets;
    }
    arena_guest_free(&g);
    if (rc)
        return arena_errorf(err, errlen, 0, rc, "%s on %s: %s", pl->name, src->spec, why);
    if (opt->stop && *opt->stop) /* the call was stopped: its plan is not the planner's */
        return arena_errorf(err, errlen, 0, ARENA_EIO, "%s on %s: stopped, not exported",
                            pl->name, src->spec);
    struct arena_collision why_not;
    rc = arena_plan_validate(p, plan, &why_not);
    if (rc)
        arena_plan_invalid_describe(p, plan, rc, &why_not, why, sizeof why);
    if (rc)
        return arena_errorf(err, errlen, 0, ARENA_ECONFLICT,
                            "%s on %s: the plan is invalid, nothing exported: %s", pl->name,
                            src->spec, why);
    return ARENA_OK;
}

int arena_export_plans(const char *dir, const struct arena_source *src,
                       const struct arena_planner *const *planners, size_t n_planners,
                       int isolate, const struct arena_plan_options *opt, uint64_t head, uint64_t tail,
                       FILE *out, char *err, size_t errlen)
{
    const struct arena_problem *p = &src->problem;
    char spec[97], graph_id[STEM_MAX + 32];
    file_part(src->spec, spec, sizeof spec);
    graph_ident(src, graph_id, sizeof graph_id);
    if (head > ARENA_SIZE_MAX - src->persistent_bytes)
        return arena_errorf(err, errlen, 0, ARENA_EOVERFLOW, "--head: passes 2^62 bytes");
    uint64_t *offsets = malloc((p->n ? p->n : 1) * sizeof *offsets);
    struct arena_alias_merge m = {0};
    int merged = p->n_alias > 0;
    if (!offsets || (merged && arena_alias_merge(p, &m) != ARENA_OK)) {
        free(offsets);
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
    }
    int rc = ARENA_OK;
    for (size_t k = 0; k < n_planners && !rc; k++) {
        const struct arena_planner *pl = planners[k];
        struct arena_plan plan;
        rc = plan_checked(pl, src, merged ? &m : NULL, opt, isolate, offsets, &plan, err, errlen);
        if (rc)
            break;
        char base[160], planner_id[IDENT_MAX + 1], prefix[STEM_MAX + IDENT_MAX + 40], title[300];
        snprintf(base, sizeof base, "%s-%08x-%s", spec, (unsigned)(src->fingerprint >> 32),
                 pl->name);
        ident(pl->name, planner_id);
        snprintf(prefix, sizeof prefix, "%s_%s", graph_id, planner_id);
        snprintf(title, sizeof title, "%s, planner %s", src->spec, pl->name);
        struct arena_export x = {
            .title = title,
            .prefix = prefix,
            .p = p,
            .names = src->names,
            .index = src->index,
            .plan = &plan,
            .head = src->persistent_bytes + head,
            .tail = tail,
            .order = own_order(src),
            .n_ops = src->order.n_ops,
            .shares = merged ? m.takes : NULL,
            .tf = &src->tf,
        };
        rc = arena_export_plan(dir, base, &x, err, errlen);
        if (!rc && out)
            fprintf(out, "%s\t%s\t%s/%s.h\n", src->spec, pl->name, dir, base);
    }
    free(offsets);
    arena_alias_merge_free(&m);
    return rc;
}

/* The whole file (a FlatBuffer is below 2 GiB), read as the model readers
 * read theirs (graphs/read_whole.h). */
static int read_whole(const char *path, unsigned char **data, size_t *size, char *err,
                      size_t errlen)
{
    *data = NULL;
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return arena_errorf(err, errlen, 0, ARENA_EIO, "%s: cannot open: %s", path,
                            strerror(errno));
    int rc = arena_read_whole(f, 0, (size_t)1 << 31, path, "FlatBuffers", data, size, err,
                              errlen);
    fclose(f);
    return rc;
}

/* bytes[0, n) into path, through path.tmp renamed when whole. */
static int write_whole(const char *path, const unsigned char *bytes, size_t n, char *err,
                       size_t errlen)
{
    char tmp[4400];
    int len = snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (len < 0 || (size_t)len >= sizeof tmp)
        return arena_errorf(err, errlen, 0, ARENA_EIO, "%s: path too long", path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return arena_errorf(err, errlen, 0, ARENA_EIO, "%s: cannot create: %s", tmp,
                            strerror(errno));
    errno = 0;
    int bad = fwrite(bytes, 1, n, f) != n;
    if (fclose(f) != 0 || bad) {
        int e = errno;
        unlink(tmp);
        return write_failed(tmp, e, err, errlen);
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return arena_errorf(err, errlen, 0, ARENA_EIO, "%s: cannot rename to %s: %s", tmp, path,
                            strerror(e));
    }
    return ARENA_OK;
}

int arena_export_tflites(const char *dir, const struct arena_source *src,
                         const struct arena_planner *const *planners, size_t n_planners,
                         int isolate, const struct arena_plan_options *opt, FILE *out, char *err,
                         size_t errlen)
{
    if (strcmp(src->family, "tflite") != 0 || (src->problem.n && !src->index))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: not a .tflite model", src->spec);
    const struct arena_problem *p = &src->problem;
    if (src->problem.n_alias > 0)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: an in-place plan cannot ship as a TFLM offline plan"
                            " (TFLM's kernels write every output to bytes of its own)",
                            src->spec);
    /* TFLM runs the operators in the order the file stores them */
    if (own_order(src))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: the plan is for the best execution order, and the copy keeps"
                            " the operators in their stored order, which TFLM runs: plan with"
                            " --order stored to ship it",
                            src->spec);
    if (src->tf.patch.rows)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: a patched plan cannot ship as a TFLM offline plan (the model"
                            " holds no patch ops); plan without --patch to ship it",
                            src->spec);
    if (src->scratch_first < p->n) /* scratch tensors in the problem (lifetime, tail) */
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: the plan places the kernels' scratch buffers, which TFLM plans"
                            " online whatever the offline plan says: plan with --scratch none or"
                            " --scratch-policy online to ship it",
                            src->spec);
    char buf[4096], spec[97];
    uint32_t sub = 0;
    const char *path = arena_tflite_path(src->spec, buf, sizeof buf, &sub);
    file_part(src->spec, spec, sizeof spec);
    unsigned char *data;
    size_t size;
    int rc = read_whole(path, &data, &size, err, errlen);
    if (rc)
        return rc;
    uint64_t *offsets = malloc((p->n ? p->n : 1) * sizeof *offsets);
    if (!offsets)
        rc = arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
    for (size_t k = 0; k < n_planners && !rc; k++) {
        const struct arena_planner *pl = planners[k];
        struct arena_plan plan;
        rc = plan_checked(pl, src, NULL, opt, isolate, offsets, &plan, err, errlen);
        if (rc)
            break;
        /* TFLM's head is the activation region: the plan's own offsets */
        struct arena_tflite_plan tp = {
            .subgraph = sub, .n = p->n, .index = src->index, .offsets = offsets};
        unsigned char *model;
        size_t model_size;
        rc = arena_tflite_with_plan(data, size, path, &tp, &model, &model_size, err, errlen);
        if (rc)
            break;
        char file[4300];
        int len = snprintf(file, sizeof file, "%s/%s-%08x-%s.tflite", dir, spec,
                           (unsigned)(src->fingerprint >> 32), pl->name);
        if (len < 0 || (size_t)len >= sizeof file)
            rc = arena_errorf(err, errlen, 0, ARENA_EIO, "%s: path too long", dir);
        else
            rc = write_whole(file, model, model_size, err, errlen);
        free(model);
        if (!rc && out)
            fprintf(out, "%s\t%s\t%s\n", src->spec, pl->name, file);
    }
    free(offsets);
    free(data);
    return rc;
}
