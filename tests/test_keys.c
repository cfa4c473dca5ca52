/* test_keys.c — the one key=value parser graph families and planners share
 * (planners/keys.h): every kind parsed, normalised and written back, the
 * errors one line naming the owner, the key and what is valid, and the
 * check a plugin's key table passes before bench reads it. */
#include <criterion/criterion.h>
#include <string.h>

#include "planners/keys.h"
#include "planners/status.h"

static const char *const engines[] = {"portfolio", "search", "sat", NULL};
static const char *const rules[] = {"stack", "twins", "gaps", NULL};

enum { K_ROUNDS, K_RATE, K_ENGINE, K_OFF, K_SEED };
static const struct arena_key keys[] = {
    [K_ROUNDS] = {.name = "rounds", .kind = ARENA_KEY_UINT, .def = "100", .min = 1, .max = 1000},
    [K_RATE] = {.name = "rate", .kind = ARENA_KEY_REAL, .def = "0.5", .rmin = 0, .rmax = 1},
    [K_ENGINE] = {.name = "engine", .kind = ARENA_KEY_CHOICE, .def = "portfolio",
                  .choices = engines},
    [K_OFF] = {.name = "off", .kind = ARENA_KEY_SET, .def = "none", .choices = rules},
    [K_SEED] = {.name = "seed", .kind = ARENA_KEY_UINT, .min = 0, .max = UINT64_MAX},
};
#define N (sizeof keys / sizeof keys[0])

static int parse(const char *text, struct arena_key_value *v, char *err, size_t len)
{
    return arena_keys_parse("p", keys, N, text, strlen(text), 7, v, err, len);
}

static void canonical(const char *text, const char *want)
{
    struct arena_key_value v[N];
    char err[300], out[300];
    cr_assert_eq(parse(text, v, err, sizeof err), ARENA_OK, "%s: %s", text, err);
    cr_assert_eq(arena_keys_format(keys, N, v, out, sizeof out), ARENA_OK);
    cr_expect_str_eq(out, want, "%s", text);
}

Test(keys, defaults_seed_and_canonical_text)
{
    canonical("", "rounds=100,rate=0.5,engine=portfolio,off=none,seed=7");
    canonical("seed=3,off=gaps+stack,rate=0.250,engine=sat",
              "rounds=100,rate=0.25,engine=sat,off=stack+gaps,seed=3");
    canonical("off=none,rounds=1000", "rounds=1000,rate=0.5,engine=portfolio,off=none,seed=7");
    canonical("off=twins+gaps+stack", "rounds=100,rate=0.5,engine=portfolio,off=stack+twins+gaps,"
                                      "seed=7");
    struct arena_key_value v[N];
    char err[200];
    cr_assert_eq(parse("off=gaps+stack", v, err, sizeof err), ARENA_OK);
    cr_expect_eq(v[K_OFF].choice, 5u, "bit i = choices[i]");
    cr_assert_eq(arena_keys_defaults("p", keys, N, 11, v, err, sizeof err), ARENA_OK);
    cr_expect_eq(v[K_SEED].u, 11u);
    cr_expect_eq(v[K_ROUNDS].u, 100u);
    cr_expect_eq(v[K_ENGINE].choice, 0u);
}

Test(keys, every_error_is_one_line_naming_owner_key_and_what_is_valid)
{
    static const struct {
        const char *text, *want;
        int rc;
    } bad[] = {
        {"beam=8", "p: unknown key 'beam' (valid: rounds, rate, engine, off, seed)",
         ARENA_ENOTFOUND},
        {"rounds=0", "p: key 'rounds': 0 is outside 1..1000", ARENA_EINVAL},
        {"rounds=1x", "p: key 'rounds': '1x' is not a non-negative integer", ARENA_EINVAL},
        {"rate=2", "p: key 'rate': 2 is outside 0..1", ARENA_EINVAL},
        {"engine=lp", "p: key 'engine': 'lp' is not one of portfolio, search, sat", ARENA_EINVAL},
        {"off=stack+fast", "p: key 'off': 'fast' is not one of stack, twins, gaps (join names"
                           " with '+'; none for the empty set)",
         ARENA_EINVAL},
        {"off=stack+stack", "p: key 'off': 'stack' named twice", ARENA_EINVAL},
        {"off=", "p: key 'off' has an empty value", ARENA_EINVAL},
        {"off=stack+", "p: key 'off': '' is not one of stack, twins, gaps (join names with '+';"
                       " none for the empty set)",
         ARENA_EINVAL},
        {"rounds=2,rounds=3", "p: key 'rounds' given twice", ARENA_EINVAL},
        {"rounds", "p: 'rounds' is not key=value", ARENA_EINVAL},
        {"rounds=2,", "p: trailing ',' in spec", ARENA_EINVAL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct arena_key_value v[N];
        char err[300];
        cr_expect_eq(parse(bad[i].text, v, err, sizeof err), bad[i].rc, "%s", bad[i].text);
        cr_expect_str_eq(err, bad[i].want, "%s", bad[i].text);
    }
}

Test(keys, describe_says_what_a_key_takes)
{
    char buf[200];
    arena_key_describe(&keys[K_ROUNDS], buf, sizeof buf);
    cr_expect_str_eq(buf, "1..1000");
    arena_key_describe(&keys[K_RATE], buf, sizeof buf);
    cr_expect_str_eq(buf, "0..1");
    arena_key_describe(&keys[K_ENGINE], buf, sizeof buf);
    cr_expect_str_eq(buf, "one of portfolio, search, sat");
    arena_key_describe(&keys[K_OFF], buf, sizeof buf);
    cr_expect_str_eq(buf, "a set of stack, twins, gaps (joined by +; none: empty)");
}

/* What a plugin's table must be before bench parses against it. */
Test(keys, a_bad_table_is_refused_with_the_reason)
{
    char err[300];
    cr_expect_eq(arena_keys_check("t", keys, N, err, sizeof err), ARENA_OK, "%s", err);
    static const char *const with_none[] = {"a", "none", NULL};
    static const char *const twice[] = {"a", "a", NULL};
    static const char *const sixty_five[66] = {
        "c0",  "c1",  "c2",  "c3",  "c4",  "c5",  "c6",  "c7",  "c8",  "c9",  "c10", "c11", "c12",
        "c13", "c14", "c15", "c16", "c17", "c18", "c19", "c20", "c21", "c22", "c23", "c24", "c25",
        "c26", "c27", "c28", "c29", "c30", "c31", "c32", "c33", "c34", "c35", "c36", "c37", "c38",
        "c39", "c40", "c41", "c42", "c43", "c44", "c45", "c46", "c47", "c48", "c49", "c50", "c51",
        "c52", "c53", "c54", "c55", "c56", "c57", "c58", "c59", "c60", "c61", "c62", "c63", "c64"};
    static const struct {
        struct arena_key k[2];
        size_t n;
        const char *want;
    } bad[] = {
        {{{.name = "Beam", .kind = ARENA_KEY_UINT, .def = "1", .max = 9}}, 1,
         "t: key 0: name 'Beam' is not [a-z][a-z0-9_]* of at most 32 bytes"},
        {{{.name = "a", .kind = ARENA_KEY_UINT, .def = "1", .max = 9},
          {.name = "a", .kind = ARENA_KEY_UINT, .def = "1", .max = 9}},
         2, "t: key 'a' is in the table twice"},
        {{{.name = "beam", .kind = ARENA_KEY_UINT, .max = 9}}, 1,
         "t: key 'beam' has no default (only a UINT key named seed may go without: it takes"
         " --seed)"},
        {{{.name = "beam", .kind = ARENA_KEY_UINT, .def = "10", .max = 9}}, 1,
         "bad default: t: key 'beam': 10 is outside 0..9"},
        {{{.name = "off", .kind = ARENA_KEY_SET, .def = "none", .choices = with_none}}, 1,
         "t: key 'off': choice 'none' is not a name of [a-z0-9_-] other than none"},
        {{{.name = "off", .kind = ARENA_KEY_SET, .def = "none", .choices = sixty_five}}, 1,
         "t: key 'off': more than 64 choices"},
        {{{.name = "e", .kind = ARENA_KEY_CHOICE, .def = "a", .choices = twice}}, 1,
         "t: key 'e': choice 'a' is listed twice"},
        {{{.name = "e", .kind = ARENA_KEY_CHOICE, .def = "a"}}, 1, "t: key 'e': no choices"},
        {{{.name = "r", .kind = ARENA_KEY_REAL, .def = "1", .rmin = 2, .rmax = 1}}, 1,
         "t: key 'r': rmin..rmax is not a finite range"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_eq(arena_keys_check("t", bad[i].k, bad[i].n, err, sizeof err), ARENA_EINVAL,
                     "%zu", i);
        cr_expect_str_eq(err, bad[i].want, "%zu", i);
    }
}
