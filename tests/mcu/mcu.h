/* mcu.h — what the bare-metal test programs get from startup.c: output and
 * the end through Arm semihosting, and the entry point they define. */
#ifndef ARENA_TESTS_MCU_H
#define ARENA_TESTS_MCU_H

#include <stdint.h>

void mcu_print(const char *s);
void mcu_print_u64(uint64_t v);
/* Ends the run: qemu exits 0 when ok, 1 otherwise. */
void mcu_exit(int ok);

/* The program: 0 when all is well, else a code that is printed. */
int mcu_main(void);

#endif
