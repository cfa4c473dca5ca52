/* pattern.c — the byte-pattern check of tests/export_check.c on a
 * microcontroller: HEADER is an exported plan's header (PREFIX its prefix),
 * linked with its source, so the arena is the one static array the source
 * defines, placed in the board's SRAM by board.ld. Every tensor is written
 * with its own pattern at the step that produces it, in execution order,
 * and checked at its last step; head and tail must stay untouched. With
 * SHARED (an in-place plan: the header's PREFIX_shares), an input whose
 * bytes an output of step s takes is checked before step s writes, as an
 * in-place op reads its input before it writes its output. With OPS (the
 * graph's ops, tests/export_check.h's ec_write_ops), the ops then run
 * themselves in the order the header states (PREFIX_order[] with
 * HAS_ORDER, else the source's): each reads its inputs, which must hold
 * their pattern, then writes its outputs; a plan made for another order
 * fails here. Codes: 1 a tensor overwritten, 2 head or tail touched, 3 a
 * tensor outside the activations, 6 the ops name other tensors. */
#include <stdint.h>

#include HEADER
#include "tests/mcu/mcu.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define TENSORS CAT(PREFIX, _tensors)
#define ARENA CAT(PREFIX, _arena)

static unsigned char pattern(uint64_t i, uint64_t k)
{
    uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ (k + 1) * 0xBF58476D1CE4E5B9ull;
    x ^= x >> 31;
    x *= 0x94D049BB133111EBull;
    return (unsigned char)(x >> 56);
}

#ifdef SHARED
#define SHARES CAT(PREFIX, _shares)
static int read_first(uint64_t i, uint32_t s)
{
    for (uint64_t k = 0; k < CAT(PREFIX, _SHARED_PAIRS); k++)
        if (SHARES[k][1] == i && TENSORS[SHARES[k][0]].first == s)
            return 1;
    return 0;
}
#else
static int read_first(uint64_t i, uint32_t s)
{
    (void)i;
    (void)s;
    return 0;
}
#endif

static int intact(uint64_t i, uint32_t s)
{
    for (uint64_t k = 0; k < TENSORS[i].size; k++)
        if (ARENA[TENSORS[i].offset + k] != pattern(i, k)) {
            mcu_print("tensor ");
            mcu_print_u64(i);
            mcu_print(" overwritten at byte ");
            mcu_print_u64(k);
            mcu_print(" by step ");
            mcu_print_u64(s);
            mcu_print("\n");
            return 0;
        }
    return 1;
}

#ifdef OPS
#include OPS
#ifdef HAS_ORDER
#define ORDER_AT(k) CAT(PREFIX, _order)[k]
#else
#define ORDER_AT(k) (k)
#endif
/* Whether an op writes tensor i (no array of our own: the arena stays the
 * first thing in SRAM). */
static int written_by_an_op(uint64_t i)
{
    for (uint32_t r = 0; r < OPS_OUT_FIRST[OPS_N]; r++)
        if (OPS_OUT[r] == i)
            return 1;
    return 0;
}

static void fill(uint64_t i)
{
    for (uint64_t k = 0; k < TENSORS[i].size; k++)
        ARENA[TENSORS[i].offset + k] = pattern(i, k);
}

static int run_ops(uint64_t n)
{
    if (OPS_TENSORS != n)
        return 6;
    for (uint64_t i = 0; i < n; i++)
        if (!written_by_an_op(i))
            fill(i);
    for (uint32_t s = 0; s < OPS_N; s++) {
        uint32_t o = ORDER_AT(s);
        for (uint32_t r = OPS_IN_FIRST[o]; r < OPS_IN_FIRST[o + 1]; r++)
            if (!intact(OPS_IN[r], s)) {
                mcu_print("op ");
                mcu_print_u64(o);
                mcu_print(" reads it\n");
                return 1;
            }
        for (uint32_t r = OPS_OUT_FIRST[o]; r < OPS_OUT_FIRST[o + 1]; r++)
            fill(OPS_OUT[r]);
    }
    mcu_print_u64(OPS_N);
    mcu_print(" ops run in the exported order\n");
    return 0;
}
#else
static int run_ops(uint64_t n)
{
    (void)n;
    return 0;
}
#endif

int mcu_main(void)
{
    uint64_t act = CAT(PREFIX, _ACT), tail = CAT(PREFIX, _TAIL);
    uint64_t bytes = CAT(PREFIX, _ARENA_BYTES), n = CAT(PREFIX, _TENSORS);
    uint32_t steps = 0;
    uint64_t written = 0;
    mcu_print("arena at ");
    mcu_print_u64((uint64_t)(uintptr_t)ARENA);
    mcu_print(", ");
    mcu_print_u64(bytes);
    mcu_print(" B, ");
    mcu_print_u64(n);
    mcu_print(" tensors\n");
    for (uint64_t i = 0; i < n; i++) {
        if (TENSORS[i].offset < act || TENSORS[i].offset + TENSORS[i].size > tail)
            return 3;
        if (TENSORS[i].last + 1 > steps)
            steps = TENSORS[i].last + 1;
    }
    for (uint64_t k = 0; k < act; k++)
        ARENA[k] = 0xA5;
    for (uint64_t k = tail; k < bytes; k++)
        ARENA[k] = 0x5A;
    for (uint32_t s = 0; s < steps; s++) {
        for (uint64_t i = 0; i < n; i++)
            if (TENSORS[i].last == s && read_first(i, s) && !intact(i, s))
                return 1;
        for (uint64_t i = 0; i < n; i++)
            if (TENSORS[i].first == s) {
                for (uint64_t k = 0; k < TENSORS[i].size; k++)
                    ARENA[TENSORS[i].offset + k] = pattern(i, k);
                written += TENSORS[i].size;
            }
        for (uint64_t i = 0; i < n; i++)
            if (TENSORS[i].last == s && !read_first(i, s) && !intact(i, s))
                return 1;
    }
    for (uint64_t k = 0; k < act; k++)
        if (ARENA[k] != 0xA5)
            return 2;
    for (uint64_t k = tail; k < bytes; k++)
        if (ARENA[k] != 0x5A)
            return 2;
    mcu_print_u64(steps);
    mcu_print(" steps, ");
    mcu_print_u64(written);
    mcu_print(" B written and checked\n");
    return run_ops(n);
}
