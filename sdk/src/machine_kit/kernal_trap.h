/* kernal_trap.h - what the KERNAL glue (kernal_load.c, kernal_save.c,
 * kernal_keys.c) shares: reading what the CPU sees, little-endian KERNAL
 * variables in RAM and the return from a trapped JSR, as the KERNAL's RTS
 * would do it, with or without an error. Private to mh_machine_kit;
 * [emu-thread]. */
#ifndef MH_KERNAL_TRAP_H
#define MH_KERNAL_TRAP_H

#include <stdint.h>

#include "mcphost/kernal.h"

/* What the CPU reads at address now, through the machine's banking. */
static inline uint8_t kernal_peek(const mh_kernal *k, uint16_t address)
{
    return k->peek ? k->peek(k->machine, address) : k->ram[address];
}

static inline uint16_t kernal_word_at(const uint8_t *ram, uint16_t address)
{
    return (uint16_t)(ram[address] | ram[(uint16_t)(address + 1)] << 8);
}

static inline void kernal_set_word(uint8_t *ram, uint16_t address, uint32_t value)
{
    ram[address] = (uint8_t)value;
    ram[(uint16_t)(address + 1)] = (uint8_t)(value >> 8);
}

/* RTS: PC = the popped return address + 1. */
static inline void kernal_return(const mh_kernal *k)
{
    mh_cpu6502 *cpu = k->cpu;
    uint8_t lo = k->ram[0x100 + (uint8_t)(cpu->s + 1)];
    uint8_t hi = k->ram[0x100 + (uint8_t)(cpu->s + 2)];
    cpu->s = (uint8_t)(cpu->s + 2);
    cpu->pc = (uint16_t)((lo | hi << 8) + 1);
}

/* Returns from the JSR with carry set and the KERNAL error number in A. */
static inline void kernal_return_error(const mh_kernal *k, uint8_t code)
{
    k->cpu->a = code;
    k->cpu->p |= MH_CPU6502_FLAG_C;
    kernal_return(k);
}

#endif
