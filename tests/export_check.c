/* export_check.c — see export_check.h. */
#include "tests/export_check.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bench/export_plan.h"
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
    "    return 0;\n"
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
    return ec_run_with(dir, h, 1);
}

int ec_run_with(const char *dir, const char *h, int allow_shared)
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
    int shared = 0; /* an in-place plan: the header declares its pairs */
    while (fgets(line, sizeof line, f))
        shared |= allow_shared && strstr(line, "_SHARED_PAIRS ") != NULL;
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
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "cc -std=c11 -Wall -Wextra -Werror -pedantic -DHEADER='\"%s\"' -DPREFIX=%s "
             "-DFIRST_OFFSET=%s %s -o '%s/check' '%s' '%s' '%s' 2>&1",
             h, prefix, first, shared ? "-DSHARED" : "", dir, path, path2, src);
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
                                    .inplace = (enum arena_inplace_rule)rule};
    cr_assert_eq(arena_source_load_with(text, &lo, &src, err, sizeof err), ARENA_OK, "%s", err);
    size_t n = arena_planner_count();
    const struct arena_planner *pl[64];
    cr_assert(n <= 64);
    for (size_t i = 0; i < n; i++)
        pl[i] = arena_planner_at(i);
    struct arena_plan_options opt = arena_plan_options_default;
    opt.time_limit = 2.0; /* search planners: a valid plan within 2 s */
    cr_assert_eq(arena_export_plans(dir, &src, pl, n, &opt, head, tail, NULL, err, sizeof err), ARENA_OK,
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
        int rc = ec_run(dir, names[i]);
        cr_expect_eq(rc, 0, "%s: the pattern check failed (%d)", names[i], rc);
        passed += rc == 0;
    }
    return passed;
}
