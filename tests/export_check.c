/* export_check.c — see export_check.h. */
#include "tests/export_check.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/export/export_plan.h"
#include "graphs/source.h"
#include "planners/planner.h"

/* The pattern program: PREFIX is the header's prefix (from its guard). It
 * includes the header twice (the guard holds), and links with a second
 * translation unit that includes it too: both see one arena. */
static const char program[] =
    "#include <stdio.h>\n"
    "#include HEADER\n"
    "#include HEADER\n"
    "#define CAT2(a, b) a##b\n"
    "#define CAT(a, b) CAT2(a, b)\n"
    "#define TENSORS CAT(PREFIX, _tensors)\n"
    "#define ARENA CAT(PREFIX, _arena)\n"
    "#define N CAT(PREFIX, _TENSORS)\n"
    "#define ACT CAT(PREFIX, _ACT)\n"
    "#define TAIL CAT(PREFIX, _TAIL)\n"
    "#define BYTES CAT(PREFIX, _ARENA_BYTES)\n"
    "static unsigned char pattern(uint64_t i, uint64_t k)\n"
    "{\n"
    "    uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ (k + 1) * 0xBF58476D1CE4E5B9ull;\n"
    "    x ^= x >> 31;\n"
    "    x *= 0x94D049BB133111EBull;\n"
    "    return (unsigned char)(x >> 56);\n"
    "}\n"
    "uint8_t *second_arena(void);\n"
    "uint64_t second_offset(void);\n"
    /* An in-place op reads its input before it writes its output: an input
     * whose bytes an output of step s takes is checked before step s writes. */
    "#ifdef SHARED\n"
    "#define SHARES CAT(PREFIX, _shares)\n"
    "#define PAIRS CAT(PREFIX, _SHARED_PAIRS)\n"
    "static int read_first(uint64_t i, uint32_t s)\n"
    "{\n"
    "    for (uint64_t k = 0; k < PAIRS; k++)\n"
    "        if (SHARES[k][1] == i && TENSORS[SHARES[k][0]].first == s) return 1;\n"
    "    return 0;\n"
    "}\n"
    "#else\n"
    "static int read_first(uint64_t i, uint32_t s) { (void)i; (void)s; return 0; }\n"
    "#endif\n"
    "static int intact(uint64_t i, uint32_t s);\n"
    /* With OPS (the graph's ops, ec_write_ops), the ops themselves run, in
     * the order the header states (PREFIX_order[] when it has one, else
     * the source's): each reads its inputs, which must hold their pattern,
     * then writes its outputs; tensors no op writes (graph inputs) are
     * written first. A plan made for another order fails here. */
    "#ifdef OPS\n"
    "#include OPS\n"
    "#ifdef HAS_ORDER\n"
    "#define ORDER_AT(k) CAT(PREFIX, _order)[k]\n"
    "#else\n"
    "#define ORDER_AT(k) (k)\n"
    "#endif\n"
    "static unsigned char made[OPS_TENSORS + 1];\n"
    "static int run_ops(void)\n"
    "{\n"
    "    if (OPS_TENSORS != N) return 6;\n"
    "    for (uint32_t o = 0; o < OPS_N; o++)\n"
    "        for (uint32_t r = OPS_OUT_FIRST[o]; r < OPS_OUT_FIRST[o + 1]; r++) made[OPS_OUT[r]] = 1;\n"
    "    for (uint64_t i = 0; i < N; i++)\n"
    "        if (!made[i])\n"
    "            for (uint64_t k = 0; k < TENSORS[i].size; k++) ARENA[TENSORS[i].offset + k] = pattern(i, k);\n"
    "    for (uint32_t s = 0; s < OPS_N; s++) {\n"
    "        uint32_t o = ORDER_AT(s);\n"
    "        for (uint32_t r = OPS_IN_FIRST[o]; r < OPS_IN_FIRST[o + 1]; r++)\n"
    "            if (!intact(OPS_IN[r], s)) {\n"
    "                printf(\"op %u at step %u reads it\\n\", (unsigned)o, (unsigned)s);\n"
    "                return 1;\n"
    "            }\n"
    "        for (uint32_t r = OPS_OUT_FIRST[o]; r < OPS_OUT_FIRST[o + 1]; r++)\n"
    "            for (uint64_t k = 0; k < TENSORS[OPS_OUT[r]].size; k++)\n"
    "                ARENA[TENSORS[OPS_OUT[r]].offset + k] = pattern(OPS_OUT[r], k);\n"
    "    }\n"
    "    return 0;\n"
    "}\n"
    "#else\n"
    "static int run_ops(void) { return 0; }\n"
    "#endif\n"
    "static int intact(uint64_t i, uint32_t s)\n"
    "{\n"
    "    for (uint64_t k = 0; k < TENSORS[i].size; k++)\n"
    "        if (ARENA[TENSORS[i].offset + k] != pattern(i, k)) {\n"
    "            printf(\"tensor %llu overwritten at byte %llu by step %u\\n\",\n"
    "                   (unsigned long long)i, (unsigned long long)k, (unsigned)s);\n"
    "            return 0;\n"
    "        }\n"
    "    return 1;\n"
    "}\n"
    "int main(void)\n"
    "{\n"
    "    uint64_t act = ACT, tail = TAIL, bytes = BYTES, n = N; /* no -Wtype-limits at 0 */\n"
    "    uint32_t steps = 0;\n"
    "    if (second_arena() != ARENA) return 4;\n"
    "    if (n && second_offset() != TENSORS[0].offset) return 4;\n"
    "    for (uint64_t i = 0; i < n; i++) {\n"
    "        if (TENSORS[i].offset < act || TENSORS[i].offset + TENSORS[i].size > tail) return 3;\n"
    "        if (TENSORS[i].last + 1 > steps) steps = TENSORS[i].last + 1;\n"
    "    }\n"
    "    for (uint64_t k = 0; k < act; k++) ARENA[k] = 0xA5;\n"
    "    for (uint64_t k = tail; k < bytes; k++) ARENA[k] = 0x5A;\n"
    "    for (uint32_t s = 0; s < steps; s++) {\n"
    "        for (uint64_t i = 0; i < n; i++)\n"
    "            if (TENSORS[i].last == s && read_first(i, s) && !intact(i, s)) return 1;\n"
    "        for (uint64_t i = 0; i < n; i++)\n"
    "            if (TENSORS[i].first == s)\n"
    "                for (uint64_t k = 0; k < TENSORS[i].size; k++)\n"
    "                    ARENA[TENSORS[i].offset + k] = pattern(i, k);\n"
    "        for (uint64_t i = 0; i < n; i++)\n"
    "            if (TENSORS[i].last == s && !read_first(i, s) && !intact(i, s)) return 1;\n"
    "    }\n"
    "    for (uint64_t k = 0; k < act; k++) if (ARENA[k] != 0xA5) return 2;\n"
    "    for (uint64_t k = tail; k < bytes; k++) if (ARENA[k] != 0x5A) return 2;\n"
    "    return run_ops();\n"
    "}\n";

/* The second translation unit: it takes the arena's address and one
 * offset macro (the first tensor's, when there is one), nothing else, and
 * must compile warning-free all the same. */
static const char second[] =
    "#include HEADER\n"
    "#define CAT2(a, b) a##b\n"
    "#define CAT(a, b) CAT2(a, b)\n"
    "uint8_t *second_arena(void);\n"
    "uint64_t second_offset(void);\n"
    "uint8_t *second_arena(void) { return CAT(PREFIX, _arena); }\n"
    "uint64_t second_offset(void) { return FIRST_OFFSET; }\n";

int ec_run(const char *dir, const char *h)
{
    return ec_run_ops(dir, h, NULL, 1);
}

int ec_run_with(const char *dir, const char *h, int allow_shared)
{
    return ec_run_ops(dir, h, NULL, allow_shared);
}

void ec_write_ops(const struct arena_source *src, const char *path)
{
    const struct arena_graph *g = src->graph;
    cr_assert_not_null(g, "ec_write_ops: load the source with keep_graph");
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fprintf(f, "/* the ops of %s, ids of the problem's tensors */\n", src->family);
    fprintf(f, "#define OPS_N %zuu\n#define OPS_TENSORS %zuu\n", g->n_ops, src->problem.n);
    const char *names[2][2] = {{"OPS_IN_FIRST", "OPS_IN"}, {"OPS_OUT_FIRST", "OPS_OUT"}};
    for (int out = 0; out < 2; out++) {
        size_t at = 0;
        fprintf(f, "static const uint32_t %s[OPS_N + 1] = {", names[out][0]);
        for (size_t o = 0; o <= g->n_ops; o++) {
            fprintf(f, "%s%zuu", o ? ", " : "", at);
            if (o < g->n_ops) at += out ? g->ops[o].n_out : g->ops[o].n_in;
        }
        fprintf(f, "};\nstatic const uint32_t %s[%zu] = {", names[out][1], at ? at : 1);
        size_t k = 0;
        for (size_t o = 0; o < g->n_ops; o++) {
            const struct arena_gop *op = &g->ops[o];
            size_t first = out ? op->out_first : op->in_first, n = out ? op->n_out : op->n_in;
            for (size_t r = 0; r < n; r++) fprintf(f, "%s%uu", k++ ? ", " : "", g->refs[first + r]);
        }
        fprintf(f, "%s};\n", at ? "" : "0u");
    }
    cr_assert_eq(fclose(f), 0);
}

int ec_run_ops(const char *dir, const char *h, const char *ops, int allow_shared)
{
    char path[1024], path2[1024], src[1024], prefix[256] = "", line[512], first[256] = "0u";
    FILE *f = fopen(h, "r");
    cr_assert_not_null(f, "%s", h);
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "#ifndef %255s", prefix) == 1)
            break;
    size_t len = strlen(prefix);
    cr_assert(len > 7 && strcmp(prefix + len - 7, "_PLAN_H") == 0, "%s: no guard", h);
    prefix[len - 7] = '\0';
    while (fgets(line, sizeof line, f)) { /* the first tensor's offset macro */
        char name[256];
        size_t nl;
        if (sscanf(line, "#define %255s", name) == 1 && (nl = strlen(name)) > 7 &&
            strcmp(name + nl - 7, "_OFFSET") == 0) {
            snprintf(first, sizeof first, "%s", name);
            break;
        }
    }
    int shared = 0, order = 0; /* an in-place plan: the header declares its pairs */
    while (fgets(line, sizeof line, f)) {
        shared |= allow_shared && strstr(line, "_SHARED_PAIRS ") != NULL;
        order |= strstr(line, "_order[") != NULL;
    }
    fclose(f);
    len = strlen(h);
    cr_assert(len > 2 && strcmp(h + len - 2, ".h") == 0, "%s: not a .h", h);
    snprintf(src, sizeof src, "%.*s.c", (int)(len - 2), h);
    snprintf(path, sizeof path, "%s/check.c", dir);
    snprintf(path2, sizeof path2, "%s/second.c", dir);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(program, f);
    fclose(f);
    f = fopen(path2, "w");
    cr_assert_not_null(f);
    fputs(second, f);
    fclose(f);
    char cmd[8192], with_ops[1200] = "";
    if (ops)
        snprintf(with_ops, sizeof with_ops, "-DOPS='\"%s\"'%s", ops, order ? " -DHAS_ORDER" : "");
    snprintf(cmd, sizeof cmd,
             "cc -std=c11 -Wall -Wextra -Werror -pedantic -DHEADER='\"%s\"' -DPREFIX=%s "
             "-DFIRST_OFFSET=%s %s %s -o '%s/check' '%s' '%s' '%s' 2>&1",
             h, prefix, first, shared ? "-DSHARED" : "", with_ops, dir, path, path2, src);
    int rc = system(cmd);
    cr_assert_eq(rc, 0, "%s does not compile: %s", h, cmd);
    snprintf(cmd, sizeof cmd, "'%s/check'", dir);
    rc = system(cmd);
    cr_assert(WIFEXITED(rc), "%s: the check program crashed", h);
    return WEXITSTATUS(rc);
}

size_t ec_check_all(const char *text, const char *dir, uint64_t head, uint64_t tail)
{
    return ec_check_all_inplace(text, ARENA_INPLACE_NONE, dir, head, tail);
}

size_t ec_check_all_inplace(const char *text, int rule, const char *dir, uint64_t head,
                            uint64_t tail)
{
    struct arena_source src;
    char err[600] = "";
    struct arena_load_options lo = {.alignment = 16, .seed = 1,
                                    .inplace = (enum arena_inplace_rule)rule, .keep_graph = 1};
    cr_assert_eq(arena_source_load_with(text, &lo, &src, err, sizeof err), ARENA_OK, "%s", err);
    char ops[600];
    snprintf(ops, sizeof ops, "%s/ops.inc", dir);
    if (src.graph) ec_write_ops(&src, ops);
    size_t n = arena_planner_count();
    const struct arena_planner *pl[64];
    cr_assert(n <= 64);
    for (size_t i = 0; i < n; i++)
        pl[i] = arena_planner_at(i);
    struct arena_plan_options opt = arena_plan_options_default;
    opt.time_limit = 2.0; /* search planners: a valid plan within 2 s */
    cr_assert_eq(arena_export_plans(dir, &src, pl, n, 0, &opt, head, tail, NULL, err, sizeof err), ARENA_OK,
                 "%s", err);
    arena_source_free(&src);
    size_t passed = 0;
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    struct dirent *e;
    char names[64][512];
    size_t k = 0;
    while ((e = readdir(d)) && k < 64) {
        size_t len = strlen(e->d_name);
        if (len > 2 && strcmp(e->d_name + len - 2, ".h") == 0)
            snprintf(names[k++], sizeof names[0], "%s/%s", dir, e->d_name);
    }
    closedir(d);
    cr_expect_eq(k, n, "one header per planner");
    for (size_t i = 0; i < k; i++) {
        int rc = ec_run_ops(dir, names[i], access(ops, F_OK) == 0 ? ops : NULL, 1);
        cr_expect_eq(rc, 0, "%s: the pattern check failed (%d)", names[i], rc);
        passed += rc == 0;
    }
    return passed;
}
