/* startup.c — the smallest start for a Cortex-M under qemu: a vector table
 * (initial stack pointer, reset, faults), a reset handler that copies .data,
 * zeroes .bss and runs mcu_main(), and Arm semihosting (qemu -semihosting)
 * for the output and the end: SYS_WRITE0 prints, SYS_EXIT with
 * ADP_Stopped_ApplicationExit ends qemu with status 0, any other reason with
 * status 1. A fault prints one line and ends with status 1. */
#include <stdint.h>

#include "tests/mcu/mcu.h"

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;
void mcu_reset(void);
static void fault(void);

__attribute__((section(".vectors"), used)) static const uintptr_t vectors[] = {
    (uintptr_t)&_estack, (uintptr_t)mcu_reset, (uintptr_t)fault, /* NMI */
    (uintptr_t)fault, (uintptr_t)fault, (uintptr_t)fault, (uintptr_t)fault, /* faults */
};

static int semihost(int op, const void *arg)
{
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void mcu_print(const char *s)
{
    semihost(0x04, s); /* SYS_WRITE0 */
}

void mcu_print_u64(uint64_t v)
{
    char buf[24];
    int k = (int)sizeof buf - 1;
    buf[k] = '\0';
    do {
        buf[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    mcu_print(buf + k);
}

void mcu_exit(int ok)
{
    /* SYS_EXIT: ADP_Stopped_ApplicationExit, or RunTimeErrorUnknown */
    semihost(0x18, (const void *)(uintptr_t)(ok ? 0x20026u : 0x20023u));
    for (;;)
        ;
}

static void fault(void)
{
    mcu_print("FAIL fault\n");
    mcu_exit(0);
}

void mcu_reset(void)
{
    const uint32_t *from = &_sidata;
    for (uint32_t *to = &_sdata; to < &_edata;)
        *to++ = *from++;
    for (uint32_t *to = &_sbss; to < &_ebss;)
        *to++ = 0;
    int rc = mcu_main();
    if (rc == 0) {
        mcu_print("PASS\n");
    } else {
        mcu_print("FAIL ");
        mcu_print_u64((uint64_t)rc);
        mcu_print("\n");
    }
    mcu_exit(rc == 0);
}
