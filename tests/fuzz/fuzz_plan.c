/* fuzz_plan.c — libFuzzer target for the whole plan path: a problem decoded
 * from the bytes, every registered planner through the registry
 * (arena_planner_scratch, arena_planner_run), the validator and the metrics.
 * Beside the project's own validator it checks each plan here, by the
 * definitions in docs/planners.md and nothing shared with
 * the code under test:
 * every pair of tensors by brute force (O(n^2): conflicting lifetimes never
 * share a byte), offsets aligned, arena = max(offset + size), arena >= the
 * max-live lower bound summed step by step, a proven bound never above the
 * arena, and the metrics' lower bound equal to that one.
 *
 * Input: byte 0 gives n (0..32), byte 1 the alignment (2^0..2^7), byte 2 the
 * search seed (and, modulo 3, the planner optimal's engines: the portfolio,
 * the search alone, the SAT engine alone, whose every decoded plan is then
 * checked here like any other); then 4 bytes a tensor: size = 1 + the first two bytes
 * (little-endian), shifted left by 8 x (third byte >> 5) and capped at 2^62,
 * so sums past 2^64 occur; first = third byte & 31; last = first + (fourth
 * byte & 15). A problem that breaks the contract (a sum past 2^64 - 1) must
 * be refused by every planner with arena_problem_check's status. A planner
 * may answer ARENA_EOVERFLOW on a valid problem only when its arena could
 * truly pass 2^64 - 1: when K slots of the largest size M do (K the most
 * tensors live at once), as ping-pong's K x M arena does; every planner that
 * stays within the sum of the sizes must succeed. */
#include "planners/optimal.h"
#include "planners/planner.h"
#include "tests/fuzz/fuzz.h"

#define MAX_N 32

static int conflict(const struct arena_tensor *a, const struct arena_tensor *b)
{
    return a->first <= b->last && b->first <= a->last;
}

/* max over steps of the bytes live at that step; 0 when that overflows
 * (only for problems that fail the contract). */
static uint64_t live_bound(const struct arena_problem *p)
{
    uint64_t best = 0;
    for (uint32_t t = 0; t < 64; t++) {
        uint64_t live = 0;
        for (size_t i = 0; i < p->n; i++)
            if (p->tensors[i].first <= t && t <= p->tensors[i].last)
                live += p->tensors[i].size;
        if (live > best)
            best = live;
    }
    return best;
}

/* K x M overflows: K the most tensors live at one step, M the largest size. */
/* A policy that rounds blocks up to powers of two (online-buddy) keeps a
 * heap of a power-of-two size that may have to pass 2^64 - 1 once the rounded
 * sizes add up past 2^62; it may then answer EOVERFLOW. */
static int rounded_overflow(const struct arena_problem *p)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < p->n; i++) {
        uint64_t s = p->tensors[i].size, r = 1;
        while (r < s && r <= (UINT64_MAX >> 1))
            r <<= 1;
        if (r > ((uint64_t)1 << 62) - sum)
            return 1;
        sum += r;
    }
    return 0;
}

static int slots_overflow(const struct arena_problem *p)
{
    uint64_t k = 0, m = 0;
    for (uint32_t t = 0; t < 64; t++) {
        uint64_t live = 0;
        for (size_t i = 0; i < p->n; i++)
            live += p->tensors[i].first <= t && t <= p->tensors[i].last;
        if (live > k)
            k = live;
    }
    for (size_t i = 0; i < p->n; i++)
        if (p->tensors[i].size > m)
            m = p->tensors[i].size;
    return k > 0 && m > UINT64_MAX / k;
}

static void check_plan(const struct arena_planner *pl, const struct arena_problem *p,
                       const struct arena_plan *plan, uint64_t lb)
{
    const char *name = pl->name;
    uint64_t top = 0;
    for (size_t i = 0; i < p->n; i++) {
        uint64_t off = plan->offsets[i], size = p->tensors[i].size;
        FUZZ_REQUIRE(off % p->alignment == 0, "%s: tensor %zu at %llu, alignment %llu", name, i,
                     (unsigned long long)off, (unsigned long long)p->alignment);
        FUZZ_REQUIRE(off <= UINT64_MAX - size, "%s: tensor %zu ends past 2^64", name, i);
        if (off + size > top)
            top = off + size;
        for (size_t j = 0; j < i; j++) {
            if (!conflict(&p->tensors[i], &p->tensors[j]))
                continue;
            uint64_t o2 = plan->offsets[j], s2 = p->tensors[j].size;
            FUZZ_REQUIRE(off + size <= o2 || o2 + s2 <= off,
                         "%s: tensors %zu [%llu,+%llu) and %zu [%llu,+%llu) share bytes", name,
                         j, (unsigned long long)o2, (unsigned long long)s2, i,
                         (unsigned long long)off, (unsigned long long)size);
        }
    }
    FUZZ_REQUIRE(plan->arena == top, "%s: arena %llu, max(offset + size) %llu", name,
                 (unsigned long long)plan->arena, (unsigned long long)top);
    FUZZ_REQUIRE(plan->arena >= lb, "%s: arena %llu below the lower bound %llu", name,
                 (unsigned long long)plan->arena, (unsigned long long)lb);
    FUZZ_REQUIRE(plan->bound <= plan->arena, "%s: bound %llu above its own arena %llu", name,
                 (unsigned long long)plan->bound, (unsigned long long)plan->arena);
    FUZZ_REQUIRE(plan->status != ARENA_PLAN_OPTIMAL || plan->arena == plan->bound ||
                     plan->arena == lb,
                 "%s: claims optimal at %llu with bound %llu", name,
                 (unsigned long long)plan->arena, (unsigned long long)plan->bound);
    struct arena_collision why;
    FUZZ_REQUIRE(arena_plan_validate(p, plan, &why) == ARENA_OK,
                 "%s: the validator refuses a plan the brute force accepts", name);
    struct arena_metrics m;
    FUZZ_REQUIRE(arena_plan_metrics(p, plan, &m) == ARENA_OK, "%s: metrics failed", name);
    FUZZ_REQUIRE(m.bounds.lower_bound == lb, "%s: metrics' lower bound %llu, brute force %llu",
                 name, (unsigned long long)m.bounds.lower_bound, (unsigned long long)lb);
    FUZZ_REQUIRE(m.arena == plan->arena, "%s: metrics' arena differs", name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    size_t n = data[0] % (MAX_N + 1);
    uint64_t alignment = (uint64_t)1 << (data[1] % 8);
    uint64_t seed = data[2];
    data += 3;
    size -= 3;
    if (n > size / 4)
        n = size / 4;
    struct arena_tensor t[MAX_N];
    for (size_t i = 0; i < n; i++, data += 4) {
        uint64_t s = (uint64_t)data[0] + ((uint64_t)data[1] << 8) + 1;
        unsigned shift = 8u * (data[2] >> 5);
        s = shift >= 48 && (s >> (62 - shift)) ? ARENA_SIZE_MAX : s << shift;
        if (arena_size_align(s, alignment, &t[i].size) != ARENA_OK)
            t[i].size = ARENA_SIZE_MAX;
        t[i].first = data[2] & 31u;
        t[i].last = t[i].first + (data[3] & 15u);
    }
    struct arena_problem p = {.n = n, .tensors = n ? t : NULL, .alignment = alignment};
    int valid = arena_problem_check(&p, NULL);
    uint64_t lb = valid == ARENA_OK ? live_bound(&p) : 0;
    /* optimal's engine by the seed; every other planner its default keys */
    struct arena_key_value kv[ARENA_OPTIMAL_KEYS];
    arena_optimal_values(kv, (unsigned)(seed % ARENA_OPTIMAL_ENGINES), 0);
    struct arena_plan_options base = {.time_limit = 0, .node_limit = 100, .seed = seed,
                                      .capacity = 0};
    uint64_t offsets[MAX_N];
    for (size_t k = 0; k < arena_planner_count(); k++) {
        const struct arena_planner *pl = arena_planner_at(k);
        struct arena_plan_options opt = base;
        if (strcmp(pl->name, "optimal") == 0) opt.values = kv;
        struct arena_plan plan;
        memset(&plan, 0, sizeof plan);
        plan.n = n;
        plan.offsets = n ? offsets : NULL;
        size_t bytes = 0;
        int rc = arena_planner_scratch(pl, &p, &bytes);
        if (valid != ARENA_OK) {
            /* scratch_bytes may refuse a broken problem; the run must */
            rc = arena_planner_run(pl, &p, &opt, NULL, 0, &plan);
            FUZZ_REQUIRE(rc == valid, "%s: ran a problem the check refuses (%d)", pl->name, rc);
            continue;
        }
        FUZZ_REQUIRE(rc == ARENA_OK, "%s: scratch_bytes failed (%d)", pl->name, rc);
        /* As the API allows: no scratch when none is asked for. */
        void *scratch = bytes ? malloc(bytes) : NULL;
        FUZZ_REQUIRE(!bytes || scratch, "%s: %zu scratch bytes", pl->name, bytes);
        rc = arena_planner_run(pl, &p, &opt, scratch, bytes, &plan);
        FUZZ_REQUIRE(rc == ARENA_OK ||
                         (rc == ARENA_EOVERFLOW &&
                          (slots_overflow(&p) ||
                           (pl->kind == ARENA_KIND_ONLINE && rounded_overflow(&p)))),
                     "%s: run failed (%d) on a valid problem", pl->name, rc);
        if (rc == ARENA_OK)
            check_plan(pl, &p, &plan, lb);
        free(scratch);
    }
    return 0;
}
