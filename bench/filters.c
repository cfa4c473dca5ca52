/* filters.c — the selection options of bench stats and bench plot
 * (filters.h). */
#include "bench/filters.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/suites.h"
#include "graphs/transforms.h"
#include "planners/status.h"

const char arena_bench_filters_help[] =
    "Selection (each a ';'-list; repeat an option to add to it):\n"
    "  --graph SPEC     graphs: a stored spec, a family, a spec's start, or a spec\n"
    "                   naming graphs (any seed when it gives none)\n"
    "  --family NAME    graphs of these families (tflite, onnx, graph-file, csv too)\n"
    "  --suite NAME|FILE graphs of a suite (bench --list names them) or of a file\n"
    "                   listing graphs as --graph takes them, one a line\n"
    "  --tag NAME       results of the runs given this tag (bench --tag)\n"
    "  --inplace RULE, --order MODE, --patch RxC:K[:stream]|none, --alignment N\n"
    "                   results of that configuration only\n"
    "  --group-by graph|family|suite|tag\n"
    "                   what one group (one panel) holds: the seeds of a family's\n"
    "                   parameters (graph, the default), a family, a suite (the\n"
    "                   default with --suite), or a tag; each configuration apart\n";

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

int arena_bench_filters_option(struct arena_bench_filters *f, const char *name,
                               const char *value, char *err, size_t errlen)
{
    struct arena_select *s = &f->sel;
    int rc;
    if (strcmp(name, "--graph") == 0) {
        rc = add_items(f->graphs, &s->graphs, &s->n_graphs, name, value, err, errlen);
        return rc ? rc : 1;
    }
    if (strcmp(name, "--family") == 0) {
        rc = add_items(f->families, &s->families, &s->n_families, name, value, err, errlen);
        return rc ? rc : 1;
    }
    if (strcmp(name, "--tag") == 0) {
        if (!value[0]) { /* the untagged runs */
            if (s->n_tags == ARENA_FILTER_MAX || !(f->tags[s->n_tags] = calloc(1, 1)))
                return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--tag: too many");
            s->tags = (const char *const *)f->tags;
            s->n_tags++;
            return 1;
        }
        rc = add_items(f->tags, &s->tags, &s->n_tags, name, value, err, errlen);
        return rc ? rc : 1;
    }
    if (strcmp(name, "--suite") == 0) {
        char *items[ARENA_FILTER_MAX];
        const char *const *view = NULL;
        size_t n = 0;
        rc = add_items(items, &view, &n, name, value, err, errlen);
        for (size_t i = 0; i < n; i++) {
            if (!rc && s->n_suites == ARENA_FILTER_MAX)
                rc = arena_errorf(err, errlen, 0, ARENA_EINVAL, "--suite: more than %d suites",
                                  ARENA_FILTER_MAX);
            if (!rc && !(rc = arena_bench_suite_items(items[i], &f->suites[s->n_suites], err,
                                                      errlen)))
                s->n_suites++;
            free(items[i]);
        }
        s->suites = f->suites;
        return rc ? rc : 1;
    }
    if (strcmp(name, "--inplace") == 0) {
        enum arena_inplace_rule r;
        if (arena_inplace_parse(value, &r) != ARENA_OK)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "--inplace: '%s' is not one of none, elementwise, depthwise",
                                value);
        s->inplace = arena_inplace_name(r);
        return 1;
    }
    if (strcmp(name, "--order") == 0) {
        enum arena_order_mode m;
        if (arena_order_mode_parse(value, &m) != ARENA_OK)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "--order: '%s' is not one of stored, best", value);
        s->order = arena_order_mode_name(m);
        return 1;
    }
    if (strcmp(name, "--patch") == 0) {
        struct arena_patch_spec ps = {0};
        char why[256];
        if (strcmp(value, "none") != 0 && arena_patch_parse(value, &ps, why, sizeof why))
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "--patch: %s", why);
        arena_patch_text(&ps, f->patch, sizeof f->patch);
        s->patch = f->patch; /* "" for none */
        return 1;
    }
    if (strcmp(name, "--alignment") == 0) {
        char *end;
        errno = 0;
        unsigned long long a = strtoull(value, &end, 10);
        if (!value[0] || *end || errno || value[0] == '-' || a == 0 || (a & (a - 1)) ||
            a > (1ull << 30))
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "--alignment: '%s' is not a power of two from 1 to 2^30", value);
        s->alignment = (int64_t)a;
        return 1;
    }
    if (strcmp(name, "--group-by") == 0) {
        if (arena_group_by_parse(value, &s->group_by) != ARENA_OK)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "--group-by: '%s' is not one of graph, family, suite, tag",
                                value);
        f->group_by_given = 1;
        return 1;
    }
    return 0;
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
