/* filters.c — what bench stats and bench plot read: the database and the
 * selection, one row each (filters.h). */
#include "bench/core/filters.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/suites.h"
#include "graphs/transforms.h"
#include "planners/status.h"

/* Appends the ';'-separated items of value to list (n of at most max). */
static int add_items(char **list, const char *const **view, size_t *n, const char *opt,
                     const char *value, char *err, size_t errlen)
{
    for (const char *p = value;;) {
        size_t len = strcspn(p, ";");
        if (len == 0)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: empty item in '%s'", opt,
                                value);
        if (*n == ARENA_FILTER_MAX)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: more than %d items", opt,
                                ARENA_FILTER_MAX);
        char *item = malloc(len + 1);
        if (!item)
            return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
        memcpy(item, p, len);
        item[len] = '\0';
        list[(*n)++] = item;
        *view = (const char *const *)list;
        if (!p[len])
            return ARENA_OK;
        p += len + 1;
    }
}

typedef struct arena_bench_filters F;

static int read_graphs(void *base, const struct arena_opt *o, const char *v, char *err,
                       size_t errlen)
{
    F *f = base;
    return add_items(f->graphs, &f->sel.graphs, &f->sel.n_graphs, o->name, v, err, errlen);
}

static int read_families(void *base, const struct arena_opt *o, const char *v, char *err,
                         size_t errlen)
{
    F *f = base;
    return add_items(f->families, &f->sel.families, &f->sel.n_families, o->name, v, err, errlen);
}

static int read_tags(void *base, const struct arena_opt *o, const char *v, char *err,
                     size_t errlen)
{
    F *f = base;
    struct arena_select *s = &f->sel;
    if (!v[0]) { /* the untagged runs */
        if (s->n_tags == ARENA_FILTER_MAX || !(f->tags[s->n_tags] = calloc(1, 1)))
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: too many", o->name);
        s->tags = (const char *const *)f->tags;
        s->n_tags++;
        return ARENA_OK;
    }
    return add_items(f->tags, &s->tags, &s->n_tags, o->name, v, err, errlen);
}

static int read_suites(void *base, const struct arena_opt *o, const char *v, char *err,
                       size_t errlen)
{
    F *f = base;
    struct arena_select *s = &f->sel;
    char *items[ARENA_FILTER_MAX];
    const char *const *view = NULL;
    size_t n = 0;
    int rc = add_items(items, &view, &n, o->name, v, err, errlen);
    for (size_t i = 0; i < n; i++) {
        if (!rc && s->n_suites == ARENA_FILTER_MAX)
            rc = arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: more than %d suites", o->name,
                              ARENA_FILTER_MAX);
        if (!rc && !(rc = arena_bench_suite_items(items[i], &f->suites[s->n_suites], err,
                                                  errlen)))
            s->n_suites++;
        free(items[i]);
    }
    s->suites = f->suites;
    return rc;
}

static int read_inplace(void *base, const struct arena_opt *o, const char *v, char *err,
                        size_t errlen)
{
    enum arena_inplace_rule r;
    if (arena_inplace_parse(v, &r) != ARENA_OK)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: '%s' is not one of none, elementwise, depthwise", o->name, v);
    ((F *)base)->sel.inplace = arena_inplace_name(r);
    return ARENA_OK;
}

static int read_order(void *base, const struct arena_opt *o, const char *v, char *err,
                      size_t errlen)
{
    enum arena_order_mode m;
    if (arena_order_mode_parse(v, &m) != ARENA_OK)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: '%s' is not one of stored, best",
                            o->name, v);
    ((F *)base)->sel.order = arena_order_mode_name(m);
    return ARENA_OK;
}

static int read_patch(void *base, const struct arena_opt *o, const char *v, char *err,
                      size_t errlen)
{
    F *f = base;
    struct arena_patch_spec ps = {0};
    char why[256];
    if (strcmp(v, "none") != 0 && arena_patch_parse(v, &ps, why, sizeof why))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "%s: %s", o->name, why);
    arena_patch_text(&ps, f->patch, sizeof f->patch);
    f->sel.patch = f->patch; /* "" for none */
    return ARENA_OK;
}

static int read_group_by(void *base, const struct arena_opt *o, const char *v, char *err,
                         size_t errlen)
{
    F *f = base;
    if (arena_group_by_parse(v, &f->sel.group_by) != ARENA_OK)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "%s: '%s' is not one of graph, family, suite, tag", o->name, v);
    f->group_by_given = 1;
    return ARENA_OK;
}

static const char *inplace_name(size_t i)
{
    return arena_inplace_name((enum arena_inplace_rule)i);
}

static const char *order_name(size_t i)
{
    return arena_order_mode_name((enum arena_order_mode)i);
}

static const char *group_by_name(size_t i)
{
    return arena_group_by_name((enum arena_group_by)i);
}

#define READERS (ARENA_IN_STATS | ARENA_IN_PLOT)

const struct arena_opt arena_bench_filter_options[] = {
    {.name = "--db", .kind = ARENA_OPT_TEXT, .arg = "PATH", .def = ARENA_BENCH_DB_DEFAULT,
     .in = READERS, ARENA_OPT_AT(F, db),
     .help = "the results database, read only (a path relative to your folder)"},
    {.name = "--graph", .kind = ARENA_OPT_CUSTOM, .arg = "SPEC", .parse = read_graphs,
     .in = READERS,
     .help = "graphs: a stored spec, a family, a spec's start, or a spec naming graphs (every"
             " seed when it gives none)"},
    {.name = "--family", .kind = ARENA_OPT_CUSTOM, .arg = "NAME", .parse = read_families,
     .in = READERS,
     .help = "graphs of these families (tflite, onnx, graph-file and csv for files)"},
    {.name = "--suite", .kind = ARENA_OPT_CUSTOM, .arg = "NAME|FILE", .parse = read_suites,
     .in = READERS, .values = "a file, or one of", .name_of = arena_bench_suite_name,
     .help = "graphs of a suite (bench list names them) or of a file listing graphs as"
             " --graph takes them, one a line"},
    {.name = "--tag", .kind = ARENA_OPT_CUSTOM, .arg = "NAME", .parse = read_tags, .in = READERS,
     .help = "results of the runs given this tag (bench --tag NAME; --tag '': the untagged"
             " runs)"},
    {.name = "--inplace", .kind = ARENA_OPT_CUSTOM, .arg = "RULE", .parse = read_inplace,
     .name_of = inplace_name, .values = "one of", .in = READERS,
     .help = "results of that in-place rule only"},
    {.name = "--order", .kind = ARENA_OPT_CUSTOM, .arg = "MODE", .parse = read_order,
     .name_of = order_name, .values = "one of", .in = READERS,
     .help = "results of that execution order only"},
    {.name = "--patch", .kind = ARENA_OPT_CUSTOM, .arg = "RxC:K[:stream]|none",
     .parse = read_patch, .in = READERS,
     .help = "results of that patch only (none: unpatched)"},
    {.name = "--alignment", .kind = ARENA_OPT_POW2, .arg = "N", .min = 1,
     .max = (uint64_t)1 << 30, .in = READERS, ARENA_OPT_AT(F, sel.alignment),
     .help = "results of that alignment only"},
    {.name = "--group-by", .kind = ARENA_OPT_CUSTOM, .arg = "WHAT", .parse = read_group_by,
     .name_of = group_by_name, .values = "one of", .in = READERS,
     .unset = "graph; suite with --suite",
     .help = "what one group (one stats panel) holds: the seeds of a family's parameters"
             " (graph), a family, a suite, or a tag; each configuration apart"},
};
const size_t arena_bench_filter_option_count =
    sizeof arena_bench_filter_options / sizeof arena_bench_filter_options[0];

int arena_bench_filters_parse(int argc, char **argv, const struct arena_opt *rows, size_t n,
                              void *base, unsigned mask, struct arena_bench_filters *f, char *err,
                              size_t errlen)
{
    struct arena_opt_table t[2] = {{rows, n, base},
                                   {arena_bench_filter_options, arena_bench_filter_option_count,
                                    f}};
    int rc = arena_opt_parse(argc, argv, 1, t, 2, mask, NULL, 0, NULL, "", err, errlen);
    return rc == ARENA_OK ? arena_bench_filters_finish(f, err, errlen) : rc;
}

int arena_bench_filters_finish(struct arena_bench_filters *f, char *err, size_t errlen)
{
    struct arena_select *s = &f->sel;
    if (s->n_suites && !f->group_by_given) s->group_by = ARENA_GROUP_SUITE;
    if (s->group_by != ARENA_GROUP_SUITE) return ARENA_OK;
    if (s->n_suites) {
        s->group_suites = f->suites;
        s->n_group_suites = s->n_suites;
        return ARENA_OK;
    }
    size_t n = arena_bench_suite_count();
    f->every = calloc(n ? n : 1, sizeof *f->every);
    if (!f->every) return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        int rc = arena_bench_suite_items(arena_bench_suite_name(i), &f->every[i], err, errlen);
        if (rc) return rc;
        f->n_every++;
    }
    s->group_suites = f->every;
    s->n_group_suites = f->n_every;
    return ARENA_OK;
}

void arena_bench_filters_free(struct arena_bench_filters *f)
{
    for (size_t i = 0; i < f->sel.n_graphs; i++) free(f->graphs[i]);
    for (size_t i = 0; i < f->sel.n_families; i++) free(f->families[i]);
    for (size_t i = 0; i < f->sel.n_tags; i++) free(f->tags[i]);
    for (size_t i = 0; i < f->sel.n_suites; i++) arena_bench_suite_items_free(&f->suites[i]);
    for (size_t i = 0; i < f->n_every; i++) arena_bench_suite_items_free(&f->every[i]);
    free(f->every);
    memset(f, 0, sizeof *f);
}
