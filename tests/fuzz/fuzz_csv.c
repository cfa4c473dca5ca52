/* fuzz_csv.c — libFuzzer target for the MiniMalloc CSV reader (graphs/csv.c).
 * On any bytes: no crash, leak or undefined behaviour; a failure is one line
 * and leaves the problem zeroed; a success keeps arena_problem_check's
 * contract, its steps are dense (every step up to the largest first is some
 * record's first, as the time compression promises), its own lifetime
 * lengths (span) are kept only when one differs from its steps' and are
 * never 0, and writing it out and reading it back gives the same records
 * exactly, with no lengths of their own (an export's times are the steps). */
#include "graphs/files.h"
#include "tests/fuzz/fuzz.h"

static void check_round_trip(const struct arena_problem *p, uint64_t alignment)
{
    char *text = NULL;
    size_t len = 0;
    FILE *w = open_memstream(&text, &len);
    FUZZ_REQUIRE(w != NULL, "open_memstream");
    FUZZ_REQUIRE(arena_csv_write_stream(w, p) == ARENA_OK, "writing %zu records", p->n);
    fclose(w);
    FILE *r = fuzz_stream((const uint8_t *)text, len);
    struct arena_problem back = {0};
    char err[512];
    int rc = arena_csv_read_stream(r, "export", alignment, NULL, &back, NULL, err, sizeof err);
    fclose(r);
    FUZZ_REQUIRE(rc == ARENA_OK, "an export does not read back: %s", err);
    FUZZ_REQUIRE(back.n == p->n, "%zu records back, %zu written", back.n, p->n);
    for (size_t i = 0; i < p->n; i++)
        FUZZ_REQUIRE(back.tensors[i].size == p->tensors[i].size &&
                         back.tensors[i].first == p->tensors[i].first &&
                         back.tensors[i].last == p->tensors[i].last,
                     "record %zu changed on the round trip", i);
    FUZZ_REQUIRE(back.span == NULL, "an export's times are its steps, yet it keeps lengths");
    free((void *)back.tensors);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fuzz_stream(data, size);
    if (!f)
        return 0;
    struct arena_problem p = {0};
    char err[512] = "";
    int rc = arena_csv_read_stream(f, "fuzz.csv", 16, NULL, &p, NULL, err, sizeof err);
    fclose(f);
    if (rc != ARENA_OK) {
        fuzz_require_one_line(rc, err);
        FUZZ_REQUIRE(p.n == 0 && p.tensors == NULL, "a partial problem after: %s", err);
        return 0;
    }
    size_t bad;
    FUZZ_REQUIRE(arena_problem_check(&p, &bad) == ARENA_OK, "tensor %zu breaks the contract", bad);
    uint32_t top = 0;
    for (size_t i = 0; i < p.n; i++)
        if (p.tensors[i].first > top)
            top = p.tensors[i].first;
    FUZZ_REQUIRE(p.n == 0 || top < p.n, "step %u with %zu records", (unsigned)top, p.n);
    unsigned char *hit = calloc((size_t)top + 1, 1);
    for (size_t i = 0; i < p.n; i++) {
        hit[p.tensors[i].first] = 1;
        FUZZ_REQUIRE(p.tensors[i].last <= top, "last %u past the last lower's step %u",
                     (unsigned)p.tensors[i].last, (unsigned)top);
    }
    for (uint32_t k = 0; p.n > 0 && k <= top; k++)
        FUZZ_REQUIRE(hit[k], "step %u is no record's first", (unsigned)k);
    free(hit);
    if (p.span != NULL) {
        size_t differ = 0;
        for (size_t i = 0; i < p.n; i++) {
            FUZZ_REQUIRE(p.span[i] > 0, "record %zu lasts 0", i);
            differ += p.span[i] != (uint64_t)p.tensors[i].last - p.tensors[i].first + 1;
        }
        FUZZ_REQUIRE(differ > 0, "lengths kept that are all the steps'");
    }
    check_round_trip(&p, 16);
    free((void *)p.tensors);
    return 0;
}
