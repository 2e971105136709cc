/* cpu6502_internal.h - micro-states and the decode table of the CPU core.
 *
 * Every cycle of every instruction is one micro-state; a state does one bus
 * access and names the next state. Addressing states hand over to one of
 * the access states (S_READ, S_WRITE, S_RMW1) chosen by the opcode's kind,
 * so the 256 opcodes share ~55 states. Internal header: not installed.
 */
#ifndef MH_CPU6502_INTERNAL_H
#define MH_CPU6502_INTERNAL_H

#include <stdint.h>

#include "mcphost/cpu6502.h"
#include "mcphost/disasm6502.h"

enum mh_cpu_state {
    S_FETCH = MH_CPU6502_STATE_FETCH, /* T0: opcode fetch or interrupt start */
    S_IMP,                            /* implied/accumulator: dummy read, op */
    S_IMM,                            /* #imm: read operand, op */
    S_ZP1,                            /* zp: operand -> ad */
    S_ZPX1, S_ZPX2,                   /* zp,X: operand; dummy read, add X */
    S_ZPY1, S_ZPY2,
    S_ABS1, S_ABS2,                   /* abs: low, high */
    S_ABSX1, S_ABSX2,                 /* abs,X: low, high + X */
    S_ABSY1, S_ABSY2,
    S_IZX1, S_IZX2, S_IZX3, S_IZX4,   /* (zp,X) */
    S_IZY1, S_IZY2, S_IZY3,           /* (zp),Y */
    S_FIX,                            /* read at the unfixed indexed address */
    S_READ,                           /* operand read + op */
    S_WRITE,                          /* operand write */
    S_RMW1, S_RMW2, S_RMW3,           /* read, dummy write, write */
    S_BR1, S_BR2, S_BR3,              /* branches */
    S_JMP1, S_JMP2, S_JIND3, S_JIND4, /* JMP abs, JMP (ind) */
    S_JSR1, S_JSR2, S_JSR3, S_JSR4, S_JSR5,
    S_RTS1, S_RTS2, S_RTS3, S_RTS4, S_RTS5,
    S_RTI1, S_RTI2, S_RTI3, S_RTI4, S_RTI5,
    S_PUSH1, S_PUSH2,                 /* PHA PHP */
    S_PULL1, S_PULL2, S_PULL3,        /* PLA PLP */
    S_BRK1,                           /* BRK: read signature byte, pc++ */
    S_INT1,                           /* IRQ/NMI: dummy read of pc */
    S_INT2, S_INT3, S_INT4,           /* push PCH, PCL, P (vector chosen) */
    S_INT5, S_INT6,                   /* vector low (sets I), high */
    S_RST0, S_RST1, S_RST2, S_RST3, S_RST4, /* reset: 2 reads, 3 stack reads */
    S_JAM1, S_JAM2, S_JAMMED,
    S_COUNT
};

/* tmp during an interrupt sequence: what started it. */
enum { INT_BRK = 0, INT_HW = 1 };

/* Decode entry per opcode: first micro-state, the access state that
 * follows the addressing states, and the mnemonic (mh_mn6502). */
typedef struct mh_cpu_decode {
    uint8_t first;
    uint8_t access;
    uint8_t mn;
} mh_cpu_decode;

extern const mh_cpu_decode mh_cpu_decode_table[256];

/* Runs up to `budget` cycles in the variant that fits the CPU's links. */
uint32_t mh_cpu6502_exec(mh_cpu6502 *cpu, uint32_t budget);

#endif
