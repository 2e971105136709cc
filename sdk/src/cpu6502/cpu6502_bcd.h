/* cpu6502_bcd.h - NMOS 6502 decimal-mode arithmetic (ADC, SBC, ARR).
 *
 * On the NMOS chip decimal ADC computes Z from the binary sum, N and V from
 * the intermediate result after the low-nibble adjust, and C from the
 * adjusted high nibble; decimal SBC sets every flag from the binary
 * difference and only adjusts the stored result. Inputs that are not valid
 * BCD give the same "wrong" results as the chip. Internal header.
 */
#ifndef MH_CPU6502_BCD_H
#define MH_CPU6502_BCD_H

#include <stdint.h>

#include "mcphost/cpu6502.h"

#define F_C MH_CPU6502_FLAG_C
#define F_Z MH_CPU6502_FLAG_Z
#define F_I MH_CPU6502_FLAG_I
#define F_D MH_CPU6502_FLAG_D
#define F_B MH_CPU6502_FLAG_B
#define F_U MH_CPU6502_FLAG_U
#define F_V MH_CPU6502_FLAG_V
#define F_N MH_CPU6502_FLAG_N

/* A + v + C in decimal mode; returns A, updates *p (N V Z C). */
static inline uint8_t mh_bcd_adc(uint8_t a, uint8_t v, uint8_t *p)
{
    unsigned carry = *p & F_C;
    unsigned lo = (a & 0x0Fu) + (v & 0x0Fu) + carry;
    unsigned hi = (a & 0xF0u) + (v & 0xF0u);
    uint8_t flags = (uint8_t)(*p & ~(F_N | F_V | F_Z | F_C));
    if (((a + v + carry) & 0xFFu) == 0) flags |= F_Z;
    if (lo > 0x09u) {
        lo += 0x06u;
        hi += 0x10u;
    }
    if (hi & 0x80u) flags |= F_N;
    if (~(a ^ v) & (a ^ hi) & 0x80u) flags |= F_V;
    if (hi > 0x90u) hi += 0x60u;
    if (hi > 0xFFu) flags |= F_C;
    *p = flags;
    return (uint8_t)((hi & 0xF0u) | (lo & 0x0Fu));
}

/* A - v - !C in decimal mode; the caller has set the flags from the
 * binary subtraction already. Returns the adjusted A. */
static inline uint8_t mh_bcd_sbc_result(uint8_t a, uint8_t v, unsigned borrow)
{
    unsigned lo = (a & 0x0Fu) - (v & 0x0Fu) - borrow;
    unsigned hi = (unsigned)(a >> 4) - (unsigned)(v >> 4);
    if (lo & 0x10u) { /* low nibble went negative */
        lo -= 0x06u;
        hi -= 1u;
    }
    if (hi & 0x10u) hi -= 0x06u; /* high nibble went negative */
    return (uint8_t)(((hi & 0x0Fu) << 4) | (lo & 0x0Fu));
}

/* ARR in decimal mode: t = A & imm; returns A, updates *p. */
static inline uint8_t mh_bcd_arr(uint8_t t, uint8_t *p)
{
    uint8_t r = (uint8_t)((t >> 1) | ((*p & F_C) << 7));
    uint8_t flags = (uint8_t)(*p & ~(F_N | F_V | F_Z | F_C));
    if (*p & F_C) flags |= F_N;
    if (r == 0) flags |= F_Z;
    if ((t ^ r) & 0x40u) flags |= F_V;
    if ((t & 0x0Fu) + (t & 0x01u) > 0x05u) r = (uint8_t)((r & 0xF0u) | ((r + 0x06u) & 0x0Fu));
    if ((unsigned)(t & 0xF0u) + (t & 0x10u) > 0x50u) {
        r = (uint8_t)(r + 0x60u);
        flags |= F_C;
    }
    *p = flags;
    return r;
}

#endif
