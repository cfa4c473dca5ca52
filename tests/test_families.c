/* test_families.c — the synthetic families, the spec syntax and the family
 * registry: every family passes the graph checks over a grid of its
 * parameters (1 op to 100,000 ops), has the structure its file promises,
 * and the same spec always gives the same problem. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/family.h"
#include "graphs/slack.h"
#include "graphs/source.h"

static struct arena_source load(const char *spec, uint64_t alignment, uint64_t seed)
{
    struct arena_source s;
    char err[256];
    cr_assert_eq(arena_source_load(spec, alignment, seed, &s, err, sizeof err), ARENA_OK,
                 "%s: %s", spec, err);
    return s;
}

/* Builds spec's graph, runs every check, and returns its op count; also
 * loads the problem and checks it keeps the problem contract. */
static size_t check_spec(const char *spec)
{
    struct arena_spec s;
    struct arena_graph g;
    char err[256];
    cr_assert_eq(arena_spec_parse(spec, 1, &s, err, sizeof err), ARENA_OK, "%s: %s", spec, err);
    cr_assert_eq(arena_spec_graph(&s, &g, err, sizeof err), ARENA_OK, "%s: %s", spec, err);
    cr_assert_eq(arena_graph_check(&g, NULL, err, sizeof err), ARENA_OK, "%s: %s", spec, err);
    size_t ops = g.n_ops, tensors = g.n_tensors;
    arena_graph_free(&g);
    struct arena_source src = load(spec, 16, 1);
    cr_expect_eq(src.ops, ops, "%s", spec);
    cr_expect_eq(src.problem.n, tensors, "%s", spec);
    size_t bad;
    cr_expect_eq(arena_problem_check(&src.problem, &bad), ARENA_OK, "%s", spec);
    arena_source_free(&src);
    return ops;
}

Test(families, registry_lists_every_family_with_its_defaults)
{
    const char *names[] = {"mobilenetv2", "chain", "residual", "unet", "transformer",
                           "random-dag", "random-intervals", "packed", "slack", "randwire",
                           "nasnet", "ds-cnn", "mobilenetv1", "resnet8", "fc-autoencoder",
                           "ds-tcn"};
    size_t n = sizeof names / sizeof names[0];
    cr_assert_eq(arena_family_count(), n);
    cr_expect_null(arena_family_at(n));
    for (size_t i = 0; i < n; i++) {
        const struct arena_family_info *info = arena_family_at(i);
        cr_assert_not_null(info);
        cr_expect_str_eq(info->name, names[i]);
        cr_expect_gt(strlen(info->summary), 10);
        const struct arena_family *f = arena_family_get(i);
        for (size_t k = 0; k < f->n_keys; k++) {
            char want[64];
            snprintf(want, sizeof want, "%s=%s", f->keys[k].name,
                     f->keys[k].def ? f->keys[k].def : "1");
            cr_expect(strstr(info->params, want) != NULL, "%s params lack '%s': %s", info->name,
                      want, info->params);
        }
        /* the family loads with every default */
        struct arena_source s = load(names[i], 16, 1);
        cr_expect_gt(s.problem.n, 0);
        arena_source_free(&s);
    }
}

Test(families, canonical_spec_fills_defaults_in_key_order)
{
    struct arena_source s = load("mobilenetv2:res=96,alpha=0.35", 16, 1);
    cr_expect_str_eq(s.spec, "mobilenetv2:alpha=0.35,res=96,dtype=int8,classes=1000,fused=1");
    cr_expect_str_eq(s.family, "mobilenetv2");
    cr_expect_str_eq(s.params, "alpha=0.35,res=96,dtype=int8,classes=1000,fused=1");
    arena_source_free(&s);
    s = load("mobilenetv2:alpha=1.0", 16, 1);
    cr_expect_str_eq(s.spec, "mobilenetv2:alpha=1,res=224,dtype=int8,classes=1000,fused=1");
    arena_source_free(&s);
    s = load("random-intervals:n=100000,live=10,seed=1", 16, 9);
    cr_expect_str_eq(s.spec, "random-intervals:n=100000,live=10,life=uniform,sizes=loguniform,"
                             "min=16,max=65536,seed=1");
    arena_source_free(&s);
    s = load("random-dag:skip=0.50", 16, 3);
    cr_expect_str_eq(s.spec, "random-dag:ops=64,width=4,fanin=3,skip=0.5,min=1024,max=65536,"
                             "dtype=int8,seed=3");
    arena_source_free(&s);
}

Test(families, same_spec_same_problem)
{
    const char *specs[] = {"mobilenetv2", "chain:ops=100", "residual:ops=50", "unet",
                           "transformer", "random-dag:ops=500", "random-intervals:n=5000"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        struct arena_source a = load(specs[i], 16, 7), b = load(specs[i], 16, 7);
        cr_expect_eq(a.fingerprint, b.fingerprint, "%s", specs[i]);
        cr_assert_eq(a.problem.n, b.problem.n);
        cr_expect_eq(memcmp(a.problem.tensors, b.problem.tensors,
                            a.problem.n * sizeof *a.problem.tensors),
                     0, "%s", specs[i]);
        arena_source_free(&a);
        arena_source_free(&b);
    }
}

Test(families, seed_default_comes_from_the_caller)
{
    struct arena_source a = load("chain:ops=50", 16, 5), b = load("chain:ops=50,seed=5", 16, 1);
    struct arena_source c = load("chain:ops=50", 16, 6);
    cr_expect_eq(a.fingerprint, b.fingerprint);
    cr_expect_str_eq(a.spec, b.spec);
    cr_expect_neq(a.fingerprint, c.fingerprint);
    arena_source_free(&a);
    arena_source_free(&b);
    arena_source_free(&c);
    a = load("random-intervals:n=1000,seed=1", 16, 1);
    b = load("random-intervals:n=1000,seed=2", 16, 1);
    cr_expect_neq(a.fingerprint, b.fingerprint);
    arena_source_free(&a);
    arena_source_free(&b);
}

/* FNV-1a 64 as source.h defines it, written again here from the definition:
 * offset 0xcbf29ce484222325, prime 0x100000001b3, over n (8 bytes LE),
 * alignment (8 LE), then size (8 LE), first (4 LE), last (4 LE) per record. */
static uint64_t fnv_bytes(uint64_t h, uint64_t v, int n)
{
    for (int i = 0; i < n; i++) {
        h ^= (v >> (8 * i)) & 0xff;
        h *= 0x100000001b3ull;
    }
    return h;
}

Test(families, fingerprint_is_fnv1a_over_the_records)
{
    const struct arena_tensor t[2] = {{.size = 32, .first = 0, .last = 1},
                                      {.size = 16, .first = 1, .last = 300}};
    struct arena_problem p = {.n = 2, .tensors = t, .alignment = 16};
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv_bytes(h, 2, 8);
    h = fnv_bytes(h, 16, 8);
    for (int i = 0; i < 2; i++) {
        h = fnv_bytes(h, t[i].size, 8);
        h = fnv_bytes(h, t[i].first, 4);
        h = fnv_bytes(h, t[i].last, 4);
    }
    cr_expect_eq(arena_problem_fingerprint(&p), h);
    struct arena_problem empty = {.n = 0, .tensors = NULL, .alignment = 16};
    uint64_t e = fnv_bytes(fnv_bytes(0xcbf29ce484222325ull, 0, 8), 16, 8);
    cr_expect_eq(arena_problem_fingerprint(&empty), e);
}

static void expect_spec_error(const char *spec, int rc, const char *message)
{
    struct arena_source s;
    memset(&s, 0x5a, sizeof s);
    char err[512];
    cr_assert_eq(arena_source_load(spec, 16, 1, &s, err, sizeof err), rc, "%s: %s", spec, err);
    cr_expect_str_eq(err, message, "%s", spec);
    cr_expect_null(s.spec);
    cr_expect_null(s.problem.tensors);
    cr_expect_eq(s.problem.n, 0);
    cr_expect_eq(s.fingerprint, 0);
}

/* Hardening issue, repro #11 and #12: the sum overflow names the spec's
 * family and tensor; a subnormal is out of range, not "not a number"; only
 * decimal numbers are taken (strtod alone would take hex floats). */
Test(families, repro_spec_overflow_subnormal_and_hex)
{
    struct arena_source s;
    char err[512];
    /* per block the scores alone are heads x seq x seq x 4 B = 2^12 x 2^40 x 4 = 2^54 B;
     * 1000 blocks pass 2^64 whatever the other tensors add */
    const char *big = "transformer:seq=1048576,width=1048576,heads=4096,blocks=1000,mlp=64,"
                      "dtype=fp32";
    cr_assert_eq(arena_source_load(big, 16, 1, &s, err, sizeof err), ARENA_EOVERFLOW, "%s", err);
    cr_expect_eq(strncmp(err, "transformer: tensor '", 21), 0, "%s", err);
    cr_expect_not_null(strstr(err, " take the sum of the sizes past 2^64 - 1 bytes"), "%s", err);
    cr_expect_null(s.problem.tensors);
    expect_spec_error("random-dag:skip=0.5e-320", ARENA_EINVAL,
                      "random-dag: key 'skip': 0.5e-320 is out of range (too close to 0 for a "
                      "double); valid 0..1");
    expect_spec_error("random-dag:skip=1e999", ARENA_EINVAL,
                      "random-dag: key 'skip': 1e999 is out of range (too large for a double); "
                      "valid 0..1");
    expect_spec_error("mobilenetv2:alpha=0x1p-1", ARENA_EINVAL,
                      "mobilenetv2: key 'alpha': '0x1p-1' is not a decimal number");
    expect_spec_error("random-dag:skip=+0.5", ARENA_EINVAL,
                      "random-dag: key 'skip': '+0.5' is not a decimal number");
    expect_spec_error("random-dag:skip=.", ARENA_EINVAL,
                      "random-dag: key 'skip': '.' is not a decimal number");
    expect_spec_error("random-dag:skip=1e", ARENA_EINVAL,
                      "random-dag: key 'skip': '1e' is not a decimal number");
    /* what decimal means: these all parse */
    const char *fine[] = {"random-dag:skip=0.5", "random-dag:skip=.5", "random-dag:skip=5e-1",
                          "random-dag:skip=0.05E+1", "random-dag:skip=1."};
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
        cr_assert_eq(arena_source_load(fine[i], 16, 1, &s, err, sizeof err), ARENA_OK, "%s: %s",
                     fine[i], err);
        arena_source_free(&s);
    }
}

Test(families, spec_errors_name_the_valid_choices)
{
    expect_spec_error("foo:ops=3", ARENA_ENOTFOUND,
                      "unknown family 'foo' (valid: mobilenetv2, chain, residual, unet, "
                      "transformer, random-dag, random-intervals, packed, slack, randwire, "
                      "nasnet, ds-cnn, mobilenetv1, resnet8, fc-autoencoder, ds-tcn)");
    expect_spec_error("chain:x=1", ARENA_ENOTFOUND,
                      "chain: unknown key 'x' (valid: ops, min, max, dtype, seed)");
    expect_spec_error("random-intervals:n=10,lives=3", ARENA_ENOTFOUND,
                      "random-intervals: unknown key 'lives' (valid: n, live, life, sizes, min, "
                      "max, seed)");
    expect_spec_error("chain:ops=3,ops=4", ARENA_EINVAL, "chain: key 'ops' given twice");
    expect_spec_error("chain:ops", ARENA_EINVAL, "chain: 'ops' is not key=value");
    expect_spec_error("chain:ops=3,", ARENA_EINVAL, "chain: trailing ',' in spec");
    expect_spec_error("chain:ops=", ARENA_EINVAL, "chain: key 'ops' has an empty value");
    expect_spec_error("chain:ops=-3", ARENA_EINVAL,
                      "chain: key 'ops': '-3' is not a non-negative integer");
    expect_spec_error("chain:ops=0", ARENA_EINVAL, "chain: key 'ops': 0 is outside 1..10000000");
    expect_spec_error("chain:ops=99999999999999999999999", ARENA_EINVAL,
                      "chain: key 'ops': 99999999999999999999999 is outside 1..10000000");
    expect_spec_error("chain:dtype=int4", ARENA_EINVAL,
                      "chain: key 'dtype': 'int4' is not one of int8, int16, fp16, fp32");
    expect_spec_error("random-dag:skip=1.5", ARENA_EINVAL,
                      "random-dag: key 'skip': 1.5 is outside 0..1");
    expect_spec_error("random-dag:skip=abc", ARENA_EINVAL,
                      "random-dag: key 'skip': 'abc' is not a decimal number");
    expect_spec_error("random-dag:skip=nan", ARENA_EINVAL,
                      "random-dag: key 'skip': 'nan' is not a decimal number");
    expect_spec_error("chain:min=10,max=5", ARENA_EINVAL, "chain: min 10 exceeds max 5");
    expect_spec_error("residual:max=5,min=10", ARENA_EINVAL, "residual: min 10 exceeds max 5");
    expect_spec_error("random-dag:min=70000", ARENA_EINVAL, "random-dag: min 70000 exceeds max 65536");
    expect_spec_error("random-intervals:max=8", ARENA_EINVAL, "random-intervals: min 16 exceeds max 8");
    expect_spec_error("unet:levels=3,res=100", ARENA_EINVAL,
                      "unet: res 100 is not divisible by 2^levels = 8");
    expect_spec_error("transformer:width=10,heads=3", ARENA_EINVAL,
                      "transformer: width 10 is not divisible by heads 3");
    expect_spec_error("random-intervals:sizes=pow2,min=5,max=7", ARENA_EINVAL,
                      "random-intervals: no power of two between min 5 and max 7");
}

Test(families, bad_alignment_is_refused)
{
    struct arena_source s;
    char err[128];
    cr_expect_eq(arena_source_load("chain", 12, 1, &s, err, sizeof err), ARENA_EINVAL);
    cr_expect_str_eq(err, "alignment 12 is not a power of two");
    cr_expect_null(s.problem.tensors);
}

/* ---- grids: every family over its parameters, 1 op to 100,000 ops ---- */

Test(families, chain_grid)
{
    const unsigned ops[] = {1, 2, 17, 100000};
    const char *dt[] = {"int8", "fp32"};
    for (size_t i = 0; i < 4; i++)
        for (size_t d = 0; d < 2; d++) {
            char spec[128];
            snprintf(spec, sizeof spec, "chain:ops=%u,dtype=%s,min=%u,max=%u", ops[i], dt[d],
                     d ? 1u : 100u, d ? 1u : 5000u);
            cr_expect_eq(check_spec(spec), ops[i], "%s", spec);
        }
}

Test(families, chain_structure)
{
    /* tensor 0 is the input [0,0]; tensor i >= 1 is written at step i-1 and
     * read at step i; the last one is the output, live to the last step. */
    struct arena_source s = load("chain:ops=20,min=1,max=100", 1, 3);
    cr_assert_eq(s.problem.n, 21);
    cr_expect(s.problem.tensors[0].first == 0 && s.problem.tensors[0].last == 0);
    for (uint32_t i = 1; i < 20; i++)
        cr_expect(s.problem.tensors[i].first == i - 1 && s.problem.tensors[i].last == i);
    cr_expect(s.problem.tensors[20].first == 19 && s.problem.tensors[20].last == 19);
    for (size_t i = 0; i < 21; i++)
        cr_expect(s.problem.tensors[i].size >= 1 && s.problem.tensors[i].size <= 100);
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&s.problem, &b), ARENA_OK);
    cr_expect_eq(b.max_live, 2);
    arena_source_free(&s);
}

Test(families, residual_grid)
{
    const unsigned ops[] = {1, 2, 3, 7, 100000};
    const unsigned skip[] = {1, 2, 5};
    for (size_t i = 0; i < 5; i++)
        for (size_t k = 0; k < 3; k++) {
            char spec[128];
            snprintf(spec, sizeof spec, "residual:ops=%u,skip=%u", ops[i], skip[k]);
            cr_expect_eq(check_spec(spec), ops[i], "%s", spec);
        }
}

Test(families, residual_structure)
{
    /* skip=2: op0, op1, add2, op3, op4, add5, ... the block input lives from
     * its writing step to the add: steps -, 2 and 5 hold 3 live tensors. */
    struct arena_graph g;
    struct arena_spec s;
    char err[256];
    cr_assert_eq(arena_spec_parse("residual:ops=9,skip=2", 1, &s, err, sizeof err), ARENA_OK);
    cr_assert_eq(arena_spec_graph(&s, &g, err, sizeof err), ARENA_OK);
    cr_expect_str_eq(g.ops[2].kind, "add");
    cr_expect_str_eq(g.ops[5].kind, "add");
    cr_expect_str_eq(g.ops[8].kind, "add");
    cr_expect_eq(g.ops[2].n_in, 2);
    /* the add reads the block input (t0) and op1's output (t2): equal sizes */
    uint32_t a = g.refs[g.ops[2].in_first], b = g.refs[g.ops[2].in_first + 1];
    cr_expect_eq(a, 0);
    cr_expect_eq(b, 2);
    cr_expect_eq(g.tensors[a].bytes, g.tensors[b].bytes);
    struct arena_problem p = {0};
    cr_assert_eq(arena_graph_problem(&g, 1, &p, NULL, err, sizeof err), ARENA_OK, "%s", err);
    cr_expect(p.tensors[0].first == 0 && p.tensors[0].last == 2);
    struct arena_bounds bd;
    cr_assert_eq(arena_problem_bounds(&p, &bd), ARENA_OK);
    cr_expect_eq(bd.max_live, 3);
    free((void *)p.tensors);
    arena_graph_free(&g);
}

Test(families, unet_grid)
{
    /* ops = levels * (2 * convs + 3) + convs + 1 */
    const unsigned levels[] = {1, 2, 4}, convs[] = {1, 3};
    for (size_t l = 0; l < 3; l++)
        for (size_t c = 0; c < 2; c++) {
            char spec[128];
            snprintf(spec, sizeof spec, "unet:levels=%u,convs=%u,res=64", levels[l], convs[c]);
            cr_expect_eq(check_spec(spec), levels[l] * (2 * convs[c] + 3) + convs[c] + 1, "%s",
                         spec);
        }
    /* smallest: 1*(2+3)+1+1 = 7 ops; largest here: 4*(25000+3)+12500+1 = 112,513 */
    cr_expect_eq(check_spec("unet:levels=1,convs=1,res=2"), 7);
    cr_expect_eq(check_spec("unet:levels=4,convs=12500,res=16,channels=1"), 112513);
}

Test(families, unet_long_skip_lives_until_its_decoder)
{
    /* levels=2, convs=1: steps 0 conv(L0) 1 pool 2 conv(L1) 3 pool 4 conv(bottom)
     * 5 upconv(L1) 6 concat(L1) 7 conv 8 upconv(L0) 9 concat(L0) 10 conv 11 head.
     * Level 0's skip is written at step 0 and read by the concat at step 9. */
    struct arena_source s = load("unet:levels=2,convs=1,res=8,channels=4", 1, 1);
    cr_assert_eq(s.ops, 12);
    cr_expect(s.problem.tensors[1].first == 0 && s.problem.tensors[1].last == 9);
    cr_expect(s.problem.tensors[3].first == 2 && s.problem.tensors[3].last == 6);
    /* concat at level 0: 8x8x(2*4) = 512 bytes; head 8x8x2 = 128 */
    cr_expect_eq(s.problem.tensors[10].size, 512);
    cr_expect_eq(s.problem.tensors[12].size, 128);
    arena_source_free(&s);
}

Test(families, transformer_grid)
{
    const unsigned blocks[] = {1, 3, 9091}; /* 11 ops a block: 9091 -> 100,001 ops */
    const unsigned seq[] = {1, 64}, heads[] = {1, 4};
    for (size_t b = 0; b < 3; b++)
        for (size_t s = 0; s < 2; s++)
            for (size_t h = 0; h < 2; h++) {
                if (b == 2 && (s || h))
                    continue;
                char spec[128];
                snprintf(spec, sizeof spec, "transformer:blocks=%u,seq=%u,heads=%u,width=64",
                         blocks[b], seq[s], heads[h]);
                cr_expect_eq(check_spec(spec), 11 * blocks[b], "%s", spec);
            }
}

Test(families, transformer_structure)
{
    /* seq 16, width 32, heads 2, mlp 4, fp16 (2 bytes):
     * activations 16*32*2 = 1024 B; scores 2*16*16*2 = 1024 B; mlp_up 16*128*2 = 4096 B.
     * Block 0 steps: 0 q, 1 k, 2 v, 3 scores, 4 softmax, 5 attn, 6 attn_out,
     * 7 add1, 8 mlp_up, 9 mlp_down, 10 add2. Tensor ids follow: 0 embeddings,
     * 1 q ... 11 add2. */
    struct arena_source s = load("transformer:seq=16,width=32,heads=2,blocks=1,dtype=fp16", 1, 1);
    const struct arena_tensor *t = s.problem.tensors;
    cr_assert_eq(s.problem.n, 12);
    cr_expect(t[0].first == 0 && t[0].last == 7);  /* embeddings: read by q,k,v and add1 */
    cr_expect(t[1].first == 0 && t[1].last == 3);  /* q */
    cr_expect(t[2].first == 1 && t[2].last == 3);  /* k */
    cr_expect(t[3].first == 2 && t[3].last == 5);  /* v: waits for the softmax */
    cr_expect(t[4].first == 3 && t[4].last == 4);  /* scores */
    cr_expect(t[8].first == 7 && t[8].last == 10); /* add1: the MLP's residual */
    cr_expect(t[11].first == 10 && t[11].last == 10);
    cr_expect_eq(t[1].size, 1024);
    cr_expect_eq(t[4].size, 1024);
    cr_expect_eq(t[9].size, 4096);
    arena_source_free(&s);
}

Test(families, random_dag_grid)
{
    const unsigned ops[] = {1, 2, 50, 100000};
    const unsigned width[] = {1, 4, 64}, fanin[] = {1, 3};
    const char *skip[] = {"0", "0.5", "1"};
    for (size_t o = 0; o < 4; o++)
        for (size_t w = 0; w < 3; w++)
            for (size_t f = 0; f < 2; f++)
                for (size_t k = 0; k < 3; k++) {
                    if (o == 3 && (w != 1 || k != 1))
                        continue; /* the 100,000-op graph once per fan-in */
                    char spec[160];
                    snprintf(spec, sizeof spec, "random-dag:ops=%u,width=%u,fanin=%u,skip=%s",
                             ops[o], width[w], fanin[f], skip[k]);
                    cr_expect_eq(check_spec(spec), ops[o], "%s", spec);
                }
}

Test(families, random_dag_structure)
{
    struct arena_graph g;
    struct arena_spec s;
    char err[256];
    cr_assert_eq(arena_spec_parse("random-dag:ops=203,width=5,fanin=4,skip=0.3", 11, &s, err,
                                  sizeof err),
                 ARENA_OK);
    cr_assert_eq(arena_spec_graph(&s, &g, err, sizeof err), ARENA_OK);
    unsigned char *read = calloc(g.n_tensors, 1);
    for (size_t i = 0; i < g.n_ops; i++) {
        const struct arena_gop *op = &g.ops[i];
        cr_expect(op->n_in >= 1 && op->n_in <= 4, "op %zu has %zu inputs", i, op->n_in);
        /* first input: same position one layer up (tensor id = op id + 1) */
        uint32_t first = g.refs[op->in_first];
        cr_expect_eq(first, i < 5 ? 0u : (uint32_t)(i - 5 + 1));
        for (size_t k = 0; k < op->n_in; k++) {
            uint32_t t = g.refs[op->in_first + k];
            cr_expect_lt(t, i + 1, "op %zu reads a later tensor", i); /* only earlier layers */
            if (i >= 5)
                cr_expect_leq(t, (i / 5) * 5, "op %zu reads its own layer", i);
            read[t] = 1;
        }
    }
    for (size_t t = 1; t < g.n_tensors; t++)
        cr_expect_eq(g.tensors[t].is_output, !read[t], "tensor %zu", t);
    cr_expect(g.tensors[0].is_input);
    free(read);
    arena_graph_free(&g);
}

/* Mean tensors live per step = sum of lifetime lengths / steps. */
static double mean_live(const struct arena_problem *p)
{
    double sum = 0;
    for (size_t i = 0; i < p->n; i++)
        sum += (double)p->tensors[i].last - p->tensors[i].first + 1;
    return sum / (double)p->n; /* n steps */
}

Test(families, random_intervals_grid)
{
    const unsigned n[] = {1, 2, 1000, 100000}, live[] = {1, 10, 1000};
    const char *life[] = {"uniform", "fixed"}, *sizes[] = {"loguniform", "uniform", "pow2"};
    for (size_t a = 0; a < 4; a++)
        for (size_t b = 0; b < 3; b++)
            for (size_t c = 0; c < 2; c++)
                for (size_t d = 0; d < 3; d++) {
                    if (a == 3 && (c || d))
                        continue;
                    char spec[160];
                    snprintf(spec, sizeof spec,
                             "random-intervals:n=%u,live=%u,life=%s,sizes=%s,min=3,max=5000",
                             n[a], live[b], life[c], sizes[d]);
                    struct arena_source s = load(spec, 1, 1);
                    cr_expect_eq(s.ops, 0);
                    cr_assert_eq(s.problem.n, n[a]);
                    size_t bad;
                    cr_expect_eq(arena_problem_check(&s.problem, &bad), ARENA_OK, "%s", spec);
                    for (size_t i = 0; i < s.problem.n; i++) {
                        const struct arena_tensor *t = &s.problem.tensors[i];
                        cr_assert(t->size >= 3 && t->size <= 5000, "%s: size %llu", spec,
                                  (unsigned long long)t->size);
                        cr_assert_lt(t->last, n[a], "%s", spec);
                        if (d == 2)
                            cr_assert_eq(t->size & (t->size - 1), 0, "%s", spec);
                        if (c == 1)
                            cr_assert_eq(t->last - t->first + 1, live[b] < n[a] ? live[b] : n[a],
                                         "%s", spec);
                    }
                    arena_source_free(&s);
                }
}

/* live=L with uniform lengths 1..2L-1 has mean length L over n steps, so
 * about L tensors are live at a step (exactly L on average over steps). */
Test(families, random_intervals_hits_the_target_live_count)
{
    const unsigned live[] = {10, 1000};
    for (size_t i = 0; i < 2; i++) {
        char spec[96];
        snprintf(spec, sizeof spec, "random-intervals:n=100000,live=%u,seed=4", live[i]);
        struct arena_source s = load(spec, 16, 1);
        double m = mean_live(&s.problem);
        cr_expect(m > 0.95 * live[i] && m < 1.05 * live[i], "%s: mean live %f", spec, m);
        struct arena_bounds b;
        cr_assert_eq(arena_problem_bounds(&s.problem, &b), ARENA_OK);
        cr_expect_geq(b.max_live, live[i], "%s", spec);
        cr_expect_leq(b.max_live, 4 * live[i], "%s", spec);
        arena_source_free(&s);
    }
}

Test(families, random_intervals_scales_to_a_million)
{
    struct arena_source s = load("random-intervals:n=1000000,live=10,seed=1", 16, 1);
    cr_expect_eq(s.problem.n, 1000000);
    size_t bad;
    cr_expect_eq(arena_problem_check(&s.problem, &bad), ARENA_OK);
    arena_source_free(&s);
}

/* packed: a box cut into rectangles. With fill=1 every step in [0, steps)
 * holds exactly height bytes (the rectangles tile the box), so the lower
 * bound is height; sizes are multiples of unit; the seed changes the cut. */
Test(families, packed_tiles_the_box)
{
    static const char *const specs[] = {"packed", "packed:n=500,seed=3",
                                        "packed:n=64,steps=8,height=1024,unit=64,seed=2",
                                        "packed:n=1,seed=4"};
    static const uint64_t steps[] = {1000, 1000, 8, 1000}, height[] = {1048576, 1048576, 1024,
                                                                       1048576};
    static const size_t count[] = {200, 500, 64, 1};
    for (size_t i = 0; i < 4; i++) {
        struct arena_source s = load(specs[i], 16, 1);
        const struct arena_problem *p = &s.problem;
        cr_assert_eq(p->n, count[i], "%s", specs[i]);
        uint64_t *live = calloc(steps[i], sizeof *live);
        cr_assert(live != NULL);
        for (size_t k = 0; k < p->n; k++) {
            const struct arena_tensor *t = &p->tensors[k];
            cr_assert_lt(t->last, steps[i], "%s", specs[i]);
            cr_assert_gt(t->size, 0, "%s", specs[i]);
            cr_assert_eq(t->size % (i == 2 ? 64 : 16), 0, "%s: size %llu", specs[i],
                         (unsigned long long)t->size);
            for (uint32_t at = t->first; at <= t->last; at++)
                live[at] += t->size;
        }
        for (uint64_t at = 0; at < steps[i]; at++)
            cr_assert_eq(live[at], height[i], "%s: step %llu holds %llu", specs[i],
                         (unsigned long long)at, (unsigned long long)live[at]);
        free(live);
        arena_source_free(&s);
    }
    struct arena_source a = load("packed:n=100,seed=1", 16, 1);
    struct arena_source b = load("packed:n=100,seed=2", 16, 1);
    cr_expect_neq(a.fingerprint, b.fingerprint, "the seed changes the cuts");
    arena_source_free(&a);
    arena_source_free(&b);
}

Test(families, packed_fill_drops_a_share)
{
    /* fill=0.75 of 200: round(0.25 x 200) = 50 dropped, 150 kept; every step
     * then holds at most height. fill=0.01 of 10 keeps one (never none). */
    struct arena_source s = load("packed:n=200,fill=0.75,seed=1", 16, 1);
    cr_assert_eq(s.problem.n, 150);
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&s.problem, &b), ARENA_OK);
    cr_expect_leq(b.lower_bound, 1048576);
    arena_source_free(&s);
    s = load("packed:n=10,fill=0.01,seed=1", 16, 1);
    cr_expect_eq(s.problem.n, 1);
    arena_source_free(&s);
}

Test(families, packed_refuses_what_would_not_pack)
{
    struct arena_source s;
    char err[512];
    cr_expect_eq(arena_source_load("packed:unit=8", 16, 1, &s, err, sizeof err), ARENA_EINVAL);
    cr_expect(strstr(err, "unit 8 is not a multiple of the alignment 16") != NULL, "%s", err);
    cr_expect_eq(arena_source_load("packed:height=1000", 16, 1, &s, err, sizeof err),
                 ARENA_EINVAL);
    cr_expect(strstr(err, "height 1000 is not a multiple of unit 16") != NULL, "%s", err);
    cr_expect_eq(arena_source_load("packed:n=10,steps=2,height=64,unit=16", 16, 1, &s, err,
                                   sizeof err),
                 ARENA_EINVAL);
    cr_expect(strstr(err, "n 10 exceeds the 8 cells") != NULL, "%s", err);
}

/* randwire with p = 0 is the bare ring: nodes=4, k=2 links 0-1, 1-2, 2-3,
 * 3-0, directed 0->1, 1->2, 2->3, 0->3. Node 0 reads the input, node 3 is
 * the only sink. 2 x 2 x 4 int8 tensors of 16 B:
 *   input [0,0], n0 [0,3] (read by nodes 1 and 3), n1 [1,2], n2 [2,3],
 *   n3 [3,4], out [4,4] (graph output, last step). */
Test(families, randwire_ring_known_answer)
{
    struct arena_source s;
    char err[256];
    cr_assert_eq(arena_source_load("randwire:cells=1,nodes=4,k=2,p=0,channels=4,res=2", 16, 1, &s,
                                   err, sizeof err),
                 ARENA_OK, "%s", err);
    cr_assert_eq(s.ops, 5);
    cr_assert_eq(s.problem.n, 6);
    const uint32_t first[6] = {0, 0, 1, 2, 3, 4}, last[6] = {0, 3, 2, 3, 4, 4};
    for (size_t i = 0; i < 6; i++) {
        cr_expect_eq(s.problem.tensors[i].size, 16, "tensor %zu", i);
        cr_expect_eq(s.problem.tensors[i].first, first[i], "tensor %zu", i);
        cr_expect_eq(s.problem.tensors[i].last, last[i], "tensor %zu", i);
    }
    arena_source_free(&s);
    cr_expect_eq(arena_source_load("randwire:nodes=4,k=4", 16, 1, &s, err, sizeof err),
                 ARENA_EINVAL);
    cr_expect_str_eq(err, "randwire: k=4 must be below nodes=4 (a ring of k/2 neighbours a side)");
}

/* nasnet, one cell (so a reduction cell: cells/3 = 0) of 2 blocks drawn
 * with seed 4, res=4, channels=2 (the stem 3 x 2, the cell 2 x 2 = 4):
 * block 0 = max_pool(pre0) + avg_pool(pre1), stride 2; block 1 =
 * dil_conv(block 0) + dil_conv(block 0); block 0 is read, so the output
 * concatenates block 1 alone. int8 bytes: input 4x4x3 = 48, stem 4x4x6 =
 * 96, pre0 and pre1 4x4x4 = 64, every block tensor 2x2x4 = 16. Stored
 * (definition) order, op k at step k:
 *   0 stem, 1 pre0, 2 pre1, 3 max_pool, 4 avg_pool, 5 add, 6 x/dil_dw,
 *   7 x/dil_pw, 8 y/dil_dw, 9 y/dil_pw, 10 add, 11 concat.
 * Lifetimes: input [0,0], stem [0,2] (read by both preprocessing convs),
 * pre0 [1,3], pre1 [2,4], max_pool [3,5], avg_pool [4,5], b0 add [5,8],
 * x/dil_dw [6,7], x/dil_pw [7,10], y/dil_dw [8,9], y/dil_pw [9,10],
 * b1 add [10,11], concat [11,11]; the busiest step is 2: stem + pre0 +
 * pre1 = 224 B. */
Test(families, nasnet_one_cell_known_answer)
{
    struct arena_source s;
    char err[256];
    cr_assert_eq(arena_source_load("nasnet:cells=1,blocks=2,channels=2,res=4,seed=4", 16, 1, &s,
                                   err, sizeof err),
                 ARENA_OK, "%s", err);
    cr_assert_eq(s.ops, 12);
    cr_assert_eq(s.problem.n, 13);
    const uint64_t size[13] = {48, 96, 64, 64, 16, 16, 16, 16, 16, 16, 16, 16, 16};
    const uint32_t first[13] = {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    const uint32_t last[13] = {0, 2, 3, 4, 5, 5, 8, 7, 10, 9, 10, 11, 11};
    for (size_t i = 0; i < 13; i++) {
        cr_expect_eq(s.problem.tensors[i].size, size[i], "tensor %zu", i);
        cr_expect_eq(s.problem.tensors[i].first, first[i], "tensor %zu", i);
        cr_expect_eq(s.problem.tensors[i].last, last[i], "tensor %zu", i);
    }
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&s.problem, &b), ARENA_OK);
    cr_expect_eq(b.lower_bound, 224);
    arena_source_free(&s);
}

/* The published cells' op counts, by hand for nasnet-a with cells=3
 * (cell 0 normal, cells 1 and 2 reduction): stem 1; cell 0: 2
 * preprocessing convs, blocks sep5+sep3 (4+4+add), sep5+sep3 (9),
 * avg+skip (1+0+1), avg+avg (3), sep3+skip (5), concat: 31; cell 1: 2,
 * sep5+sep7 (9), max+sep7 (6), avg+sep5 (6), skip(state 3, stride 1)+avg
 * (2), sep3+max (6), concat: 32; cell 2: pre0 is a factorized reduction
 * (cell 0's output has twice the resolution: 3 ops) and pre1: 4, the same
 * blocks 29, concat: 34. 98 in all. darts-v2, cells=1 (one reduction
 * cell): stem, 2 convs, max+max (3), skip(block 0)+max (2), max+skip (2),
 * skip+max (2), concat: 13. */
Test(families, nasnet_published_cells_op_counts)
{
    cr_expect_eq(check_spec("nasnet:cell=nasnet-a,cells=3,channels=2,res=4"), 98);
    cr_expect_eq(check_spec("nasnet:cell=darts-v2,cells=1,channels=2,res=4"), 13);
}

/* slack: a non-guillotine packed box with holes. Its witness (the
 * rectangles' own byte positions) must pass the independent validator with
 * arena exactly height, the max-live bound must be height (a full step),
 * the problem must be the family's own (same tensors in the same order),
 * cuts must fall on the unit in bytes and in steps, and the box must have
 * holes: covered area below steps x height. Over the 30 instances of the
 * suite exact-slack and smaller boxes (unit 16, several full steps). */
static void check_slack(const char *spec, uint64_t unit, uint64_t steps, uint64_t height,
                        double *fill)
{
    struct arena_spec sp;
    char err[256];
    cr_assert_eq(arena_spec_parse(spec, 1, &sp, err, sizeof err), ARENA_OK, "%s: %s", spec, err);
    struct arena_problem p = {0};
    uint64_t *off;
    cr_assert_eq(arena_slack_witness(sp.values, 16, &p, &off, err, sizeof err), ARENA_OK, "%s: %s",
                 spec, err);
    struct arena_plan plan = {.n = p.n, .offsets = off, .arena = height};
    struct arena_collision why;
    int rc = arena_plan_validate(&p, &plan, &why);
    if (rc != ARENA_OK) {
        char line[512];
        arena_collision_describe(&p, &plan, &why, line, sizeof line);
        cr_assert_fail("%s: the witness is not a valid plan of arena %llu: %s", spec,
                       (unsigned long long)height, line);
    }
    struct arena_bounds b;
    cr_assert_eq(arena_problem_bounds(&p, &b), ARENA_OK);
    cr_assert_eq(b.lower_bound, height, "%s: max-live %llu", spec,
                 (unsigned long long)b.lower_bound);
    struct arena_source src = load(spec, 16, 1);
    cr_assert_eq(src.problem.n, p.n, "%s", spec);
    cr_assert_arr_eq(src.problem.tensors, p.tensors, p.n * sizeof *p.tensors,
                     "%s: the witness's problem differs from the family's", spec);
    double area = 0;
    for (size_t i = 0; i < p.n; i++) {
        const struct arena_tensor *t = &p.tensors[i];
        cr_assert(t->size > 0 && t->size % unit == 0, "%s: size %llu", spec,
                  (unsigned long long)t->size);
        cr_assert(t->first % unit == 0 && (t->last + 1) % unit == 0 && t->last < steps,
                  "%s: lifetime [%u, %u]", spec, t->first, t->last);
        area += (double)t->size * (double)(t->last - t->first + 1);
    }
    *fill = area / ((double)steps * (double)height);
    cr_assert_lt(*fill, 1.0, "%s: no hole", spec);
    arena_source_free(&src);
    free(off);
    free((void *)p.tensors);
}

Test(families, slack_witness_reaches_the_bound)
{
    char spec[160];
    double fill, lo = 1, hi = 0;
    static const unsigned sizes[] = {150, 220, 290, 360, 430, 500};
    for (unsigned i = 0; i < 30; i++) { /* the suite exact-slack */
        snprintf(spec, sizeof spec, "slack:n=%u,seed=%u", sizes[i / 5], i % 5 + 1);
        check_slack(spec, 1024, 2097152, 1048576, &fill);
        lo = fill < lo ? fill : lo;
        hi = fill > hi ? fill : hi;
    }
    /* measured: the suite covers 0.73 to 0.99 of its boxes */
    cr_expect(lo > 0.5 && hi < 1, "box fill %.3f .. %.3f", lo, hi);
    for (unsigned k = 0; k < 200; k++) {
        unsigned cols = 3 + k % 13, rows = 3 + k % 29, n = 2 + k % 40, full = 1 + k % 3;
        double f = 0.5 + 0.05 * (k % 6); /* n / f rounds above n: holes */
        if (full > cols)
            full = cols;
        if (n / f + 1 > cols * rows)
            n = (unsigned)(0.5 * f * cols * rows) + 1;
        snprintf(spec, sizeof spec,
                 "slack:n=%u,steps=%u,height=%u,unit=16,fill=%g,wheel=%g,full=%u,seed=%u", n,
                 16 * cols, 16 * rows, f, k % 4 == 0 ? 0.5 : 1.0, full, k + 1);
        struct arena_spec sp;
        char err[256];
        cr_assert_eq(arena_spec_parse(spec, 1, &sp, err, sizeof err), ARENA_OK, "%s", err);
        struct arena_problem p = {0};
        if (arena_slack_witness(sp.values, 16, &p, NULL, err, sizeof err) != ARENA_OK) {
            /* the full steps may hold more than n: refused, and said so */
            cr_assert(strstr(err, "full steps hold") != NULL, "%s: %s", spec, err);
            continue;
        }
        free((void *)p.tensors);
        check_slack(spec, 16, 16ull * cols, 16ull * rows, &fill);
    }
}

Test(families, slack_full_steps_stay_full)
{
    /* full=3 on 2048 columns: the steps of cell columns 341, 1024 and 1706
     * (k = 0, 1, 2 at (2k + 1) 2048 / 6) hold exactly height. */
    struct arena_source s = load("slack:n=400,full=3,fill=0.95,seed=2", 16, 1);
    static const uint64_t cols[] = {341, 1024, 1706};
    for (size_t c = 0; c < 3; c++) {
        uint64_t at = cols[c] * 1024, live = 0;
        for (size_t i = 0; i < s.problem.n; i++)
            if (s.problem.tensors[i].first <= at && at <= s.problem.tensors[i].last)
                live += s.problem.tensors[i].size;
        cr_expect_eq(live, 1048576, "column %llu holds %llu", (unsigned long long)cols[c],
                     (unsigned long long)live);
    }
    arena_source_free(&s);
}

Test(families, slack_refuses_what_would_not_pack)
{
    struct arena_source s;
    char err[512];
    cr_expect_eq(arena_source_load("slack:unit=8", 16, 1, &s, err, sizeof err), ARENA_EINVAL);
    cr_expect(strstr(err, "unit 8 is not a multiple of the alignment 16") != NULL, "%s", err);
    cr_expect_eq(arena_source_load("slack:height=1000", 16, 1, &s, err, sizeof err), ARENA_EINVAL);
    cr_expect(strstr(err, "height 1000 and steps 2097152 must be multiples of unit 1024") != NULL,
              "%s", err);
    cr_expect_eq(arena_source_load("slack:n=10,steps=32,height=64,unit=16", 16, 1, &s, err,
                                   sizeof err),
                 ARENA_EINVAL);
    cr_expect(strstr(err, "n / fill = 11 rectangles exceed the 2 x 4 cells") != NULL, "%s", err);
    cr_expect_eq(arena_source_load("slack:n=4,steps=32,height=1024,unit=16,full=3", 16, 1, &s, err,
                                   sizeof err),
                 ARENA_EINVAL);
    cr_expect(strstr(err, "full 3 exceeds the 2 cell columns") != NULL, "%s", err);
}
