/* fuzz_spec.c — libFuzzer target for the spec parser (graphs/spec.c), the
 * families behind it and the sweep expansion (graphs/sweep.c). On any text:
 * no crash, leak or undefined behaviour; a failure has a one-line message; a
 * spec that parses has a canonical form that parses to itself. Small specs
 * (every count key <= 64) are also built, twice: the problem keeps
 * arena_problem_check's contract and both builds agree to the fingerprint
 * (the same spec is the same problem). A sweep expands to at least one spec,
 * and the first and last of them are no longer sweeps: each expands to
 * itself alone. */
#include "graphs/family.h"
#include "graphs/sweep.h"
#include "tests/fuzz/fuzz.h"

#define SMALL 64
/* Sweeps of up to this many specs: each spec is a malloc'd string of up to
 * a few hundred bytes, and 10^6 of them at once (the command line's limit)
 * took ASan's allocator past libFuzzer's 2 GiB limit at exit, where the
 * leak check then hung. The limit's message is the same at any count. */
#define SWEEP_MAX 10000u

/* Builds stay quick: counts bounded; seeds and size ranges cost nothing. */
static int is_small(const struct arena_spec *s)
{
    const struct arena_family *f = s->family;
    for (size_t i = 0; i < f->n_keys; i++) {
        const char *name = f->keys[i].name;
        if (f->keys[i].kind != ARENA_KEY_UINT || strcmp(name, "seed") == 0 ||
            strcmp(name, "min") == 0 || strcmp(name, "max") == 0)
            continue;
        if (s->values[i].u > SMALL)
            return 0;
    }
    return 1;
}

static uint64_t build(const struct arena_spec *s)
{
    struct arena_problem p = {0};
    size_t ops;
    char err[512] = "";
    int rc = arena_spec_build(s, 16, &p, &ops, NULL, err, sizeof err);
    if (rc != ARENA_OK) {
        FUZZ_REQUIRE(rc < 0 && err[0], "rc %d, message '%s'", rc, err);
        FUZZ_REQUIRE(p.n == 0 && p.tensors == NULL, "a partial problem after: %s", err);
        return 0;
    }
    size_t bad;
    FUZZ_REQUIRE(arena_problem_check(&p, &bad) == ARENA_OK, "%s:%s: tensor %zu breaks the "
                 "contract", s->family->info.name, s->params, bad);
    uint64_t fp = arena_problem_fingerprint(&p);
    free((void *)p.tensors);
    return fp;
}

/* Expands text once: nonzero and the items in *items / *n when it worked. */
static int expand(const char *text, char ***items, size_t *n)
{
    char err[512] = "";
    *items = NULL;
    *n = 0;
    int rc = arena_sweep_expand_max(text, SWEEP_MAX, items, n, err, sizeof err);
    if (rc != ARENA_OK) {
        fuzz_require_one_line(rc, err);
        FUZZ_REQUIRE(*n == 0, "%zu items kept after: %s", *n, err);
        free(*items);
        return 0;
    }
    FUZZ_REQUIRE(*n >= 1, "'%s' expands to nothing", text);
    return 1;
}

static void free_items(char **items, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(items[i]);
    free(items);
}

static void check_sweep(const char *text)
{
    char **items;
    size_t n;
    if (!expand(text, &items, &n))
        return;
    for (size_t i = 0; i < n; i += n > 1 ? n - 1 : 1) { /* the first and the last */
        char **again;
        size_t m;
        FUZZ_REQUIRE(expand(items[i], &again, &m), "item %zu '%s' of '%s' fails", i, items[i],
                     text);
        FUZZ_REQUIRE(m == 1 && strcmp(again[0], items[i]) == 0,
                     "item '%s' of '%s' is still a sweep (%zu items)", items[i], text, m);
        free_items(again, m);
    }
    free_items(items, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[600];
    if (size >= sizeof text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    check_sweep(text);
    struct arena_spec s;
    char err[512] = "";
    int rc = arena_spec_parse(text, 7, &s, err, sizeof err);
    if (rc != ARENA_OK) {
        FUZZ_REQUIRE(rc < 0 && err[0], "rc %d, message '%s'", rc, err);
        return 0;
    }
    char canon[600];
    snprintf(canon, sizeof canon, "%s:%s", s.family->info.name, s.params);
    struct arena_spec again;
    rc = arena_spec_parse(canon, 7, &again, err, sizeof err);
    FUZZ_REQUIRE(rc == ARENA_OK, "canonical '%s' does not parse: %s", canon, err);
    FUZZ_REQUIRE(again.family == s.family && strcmp(again.params, s.params) == 0,
                 "'%s' reads back as '%s'", s.params, again.params);
    if (is_small(&s)) {
        uint64_t a = build(&s), b = build(&again);
        FUZZ_REQUIRE(a == b, "'%s' built twice: fingerprints %llx and %llx", canon,
                     (unsigned long long)a, (unsigned long long)b);
    }
    return 0;
}
