/* cpu6502_ops.h - what each mnemonic does to the registers, once its
 * operand is on hand: read operations, write values, read-modify-write
 * operations and implied operations. Bus timing lives in the core
 * template; this file only has the arithmetic. Internal header.
 */
#ifndef MH_CPU6502_OPS_H
#define MH_CPU6502_OPS_H

#include "cpu6502_bcd.h"
#include "cpu6502_internal.h"

/* The operations are inlined into each loop variant (one call site each). */
#define MH_CPU_INLINE static inline __attribute__((always_inline))

/* The 6502's undocumented ANE ($8B) and LXA ($AB) OR A with a chip- and
 * temperature-dependent constant before the AND. $EE is what Tom Harte's
 * single-step vectors use for the NMOS 6502. For the C64's 6510 the VICE
 * testprogs (CPU/ane, verified on a C64C) and the loaders of real programs
 * they analyse want $EF, with bit 0 dropping to $EE when RDY stalled the
 * operand read. */
#define MH_CPU6502_ANE_MAGIC 0xEEu
#define MH_CPU6502_ANE_MAGIC_6510 0xEFu
#define MH_CPU6502_LXA_MAGIC 0xEEu

MH_CPU_INLINE uint8_t mh_ane_magic(const mh_cpu6502 *c)
{
    if (c->model != MH_CPU6502_MODEL_6510) return MH_CPU6502_ANE_MAGIC;
    return c->stalled ? (uint8_t)(MH_CPU6502_ANE_MAGIC_6510 & 0xFEu) : MH_CPU6502_ANE_MAGIC_6510;
}

MH_CPU_INLINE uint8_t mh_nz(uint8_t p, uint8_t v)
{
    return (uint8_t)((p & ~(F_N | F_Z)) | (v & F_N) | (v ? 0 : F_Z));
}

MH_CPU_INLINE void mh_op_adc(mh_cpu6502 *c, uint8_t v)
{
    if (c->p & F_D) {
        c->a = mh_bcd_adc(c->a, v, &c->p);
        return;
    }
    unsigned sum = (unsigned)c->a + v + (c->p & F_C);
    uint8_t p = (uint8_t)(c->p & ~(F_V | F_C));
    if (sum > 0xFFu) p |= F_C;
    if (~(c->a ^ v) & (c->a ^ sum) & 0x80u) p |= F_V;
    c->a = (uint8_t)sum;
    c->p = mh_nz(p, c->a);
}

MH_CPU_INLINE void mh_op_sbc(mh_cpu6502 *c, uint8_t v)
{
    unsigned borrow = (c->p & F_C) ? 0u : 1u;
    unsigned diff = (unsigned)c->a - v - borrow;
    uint8_t p = (uint8_t)(c->p & ~(F_V | F_C));
    if (!(diff & 0x100u)) p |= F_C;
    if ((c->a ^ v) & (c->a ^ diff) & 0x80u) p |= F_V;
    p = mh_nz(p, (uint8_t)diff);
    c->a = (c->p & F_D) ? mh_bcd_sbc_result(c->a, v, borrow) : (uint8_t)diff;
    c->p = p;
}

MH_CPU_INLINE void mh_op_cmp(mh_cpu6502 *c, uint8_t reg, uint8_t v)
{
    unsigned diff = (unsigned)reg - v;
    uint8_t p = (uint8_t)(c->p & ~F_C);
    if (reg >= v) p |= F_C;
    c->p = mh_nz(p, (uint8_t)diff);
}

MH_CPU_INLINE uint8_t mh_op_asl(mh_cpu6502 *c, uint8_t v)
{
    uint8_t r = (uint8_t)(v << 1);
    c->p = mh_nz((uint8_t)((c->p & ~F_C) | (v >> 7)), r);
    return r;
}

MH_CPU_INLINE uint8_t mh_op_lsr(mh_cpu6502 *c, uint8_t v)
{
    uint8_t r = (uint8_t)(v >> 1);
    c->p = mh_nz((uint8_t)((c->p & ~F_C) | (v & F_C)), r);
    return r;
}

MH_CPU_INLINE uint8_t mh_op_rol(mh_cpu6502 *c, uint8_t v)
{
    uint8_t r = (uint8_t)((v << 1) | (c->p & F_C));
    c->p = mh_nz((uint8_t)((c->p & ~F_C) | (v >> 7)), r);
    return r;
}

MH_CPU_INLINE uint8_t mh_op_ror(mh_cpu6502 *c, uint8_t v)
{
    uint8_t r = (uint8_t)((v >> 1) | ((c->p & F_C) << 7));
    c->p = mh_nz((uint8_t)((c->p & ~F_C) | (v & F_C)), r);
    return r;
}

MH_CPU_INLINE void mh_op_arr(mh_cpu6502 *c, uint8_t v)
{
    uint8_t t = (uint8_t)(c->a & v);
    if (c->p & F_D) {
        c->a = mh_bcd_arr(t, &c->p);
        return;
    }
    uint8_t r = (uint8_t)((t >> 1) | ((c->p & F_C) << 7));
    uint8_t p = (uint8_t)(c->p & ~(F_C | F_V));
    if (r & 0x40u) p |= F_C;
    if (((r >> 6) ^ (r >> 5)) & 1u) p |= F_V;
    c->a = r;
    c->p = mh_nz(p, r);
}

/* Read operations: the operand v has just been read. */
MH_CPU_INLINE void mh_exec_read(mh_cpu6502 *c, uint8_t mn, uint8_t v)
{
    switch (mn) {
    case MH_MN6502_LDA: c->a = v; c->p = mh_nz(c->p, v); break;
    case MH_MN6502_LDX: c->x = v; c->p = mh_nz(c->p, v); break;
    case MH_MN6502_LDY: c->y = v; c->p = mh_nz(c->p, v); break;
    case MH_MN6502_ADC: mh_op_adc(c, v); break;
    case MH_MN6502_SBC: mh_op_sbc(c, v); break;
    case MH_MN6502_AND: c->a &= v; c->p = mh_nz(c->p, c->a); break;
    case MH_MN6502_ORA: c->a |= v; c->p = mh_nz(c->p, c->a); break;
    case MH_MN6502_EOR: c->a ^= v; c->p = mh_nz(c->p, c->a); break;
    case MH_MN6502_CMP: mh_op_cmp(c, c->a, v); break;
    case MH_MN6502_CPX: mh_op_cmp(c, c->x, v); break;
    case MH_MN6502_CPY: mh_op_cmp(c, c->y, v); break;
    case MH_MN6502_BIT:
        c->p = (uint8_t)((c->p & ~(F_N | F_V | F_Z)) | (v & (F_N | F_V)) | ((c->a & v) ? 0 : F_Z));
        break;
    case MH_MN6502_LAX: c->a = c->x = v; c->p = mh_nz(c->p, v); break;
    case MH_MN6502_LAS:
        c->a = c->x = c->s = (uint8_t)(v & c->s);
        c->p = mh_nz(c->p, c->a);
        break;
    case MH_MN6502_ANC:
        c->a &= v;
        c->p = mh_nz((uint8_t)((c->p & ~F_C) | (c->a >> 7)), c->a);
        break;
    case MH_MN6502_ALR: c->a = mh_op_lsr(c, (uint8_t)(c->a & v)); break;
    case MH_MN6502_ARR: mh_op_arr(c, v); break;
    case MH_MN6502_SBX: {
        uint8_t ax = (uint8_t)(c->a & c->x);
        uint8_t p = (uint8_t)(c->p & ~F_C);
        if (ax >= v) p |= F_C;
        c->x = (uint8_t)(ax - v);
        c->p = mh_nz(p, c->x);
        break;
    }
    case MH_MN6502_ANE:
        c->a = (uint8_t)((c->a | mh_ane_magic(c)) & c->x & v);
        c->p = mh_nz(c->p, c->a);
        break;
    case MH_MN6502_LXA:
        c->a = c->x = (uint8_t)((c->a | MH_CPU6502_LXA_MAGIC) & v);
        c->p = mh_nz(c->p, c->a);
        break;
    default: break; /* NOP with operand */
    }
}

/* Read-modify-write operations: returns the value written back. */
MH_CPU_INLINE uint8_t mh_exec_rmw(mh_cpu6502 *c, uint8_t mn, uint8_t v)
{
    switch (mn) {
    case MH_MN6502_ASL: return mh_op_asl(c, v);
    case MH_MN6502_LSR: return mh_op_lsr(c, v);
    case MH_MN6502_ROL: return mh_op_rol(c, v);
    case MH_MN6502_ROR: return mh_op_ror(c, v);
    case MH_MN6502_INC: v++; c->p = mh_nz(c->p, v); return v;
    case MH_MN6502_DEC: v--; c->p = mh_nz(c->p, v); return v;
    case MH_MN6502_SLO: v = mh_op_asl(c, v); c->a |= v; c->p = mh_nz(c->p, c->a); return v;
    case MH_MN6502_RLA: v = mh_op_rol(c, v); c->a &= v; c->p = mh_nz(c->p, c->a); return v;
    case MH_MN6502_SRE: v = mh_op_lsr(c, v); c->a ^= v; c->p = mh_nz(c->p, c->a); return v;
    case MH_MN6502_RRA: v = mh_op_ror(c, v); mh_op_adc(c, v); return v;
    case MH_MN6502_DCP: v--; mh_op_cmp(c, c->a, v); return v;
    case MH_MN6502_ISC: v++; mh_op_sbc(c, v); return v;
    default: return v;
    }
}

/* Write operations: the value to store. h is the high byte of the base
 * address before indexing (for SHA/SHX/SHY/TAS). */
MH_CPU_INLINE uint8_t mh_exec_write(mh_cpu6502 *c, uint8_t mn, uint8_t h)
{
    uint8_t h1 = (uint8_t)(h + 1u);
    switch (mn) {
    case MH_MN6502_STA: return c->a;
    case MH_MN6502_STX: return c->x;
    case MH_MN6502_STY: return c->y;
    case MH_MN6502_SAX: return (uint8_t)(c->a & c->x);
    case MH_MN6502_SHA: return (uint8_t)(c->a & c->x & h1);
    case MH_MN6502_SHX: return (uint8_t)(c->x & h1);
    case MH_MN6502_SHY: return (uint8_t)(c->y & h1);
    case MH_MN6502_TAS: c->s = (uint8_t)(c->a & c->x); return (uint8_t)(c->s & h1);
    default: return 0;
    }
}

MH_CPU_INLINE int mh_is_unstable_store(uint8_t mn)
{
    return mn == MH_MN6502_SHA || mn == MH_MN6502_SHX || mn == MH_MN6502_SHY ||
           mn == MH_MN6502_TAS;
}

/* Implied and accumulator operations. */
MH_CPU_INLINE void mh_exec_implied(mh_cpu6502 *c, uint8_t mn)
{
    switch (mn) {
    case MH_MN6502_CLC: c->p &= (uint8_t)~F_C; break;
    case MH_MN6502_SEC: c->p |= F_C; break;
    case MH_MN6502_CLI: c->p &= (uint8_t)~F_I; break;
    case MH_MN6502_SEI: c->p |= F_I; break;
    case MH_MN6502_CLD: c->p &= (uint8_t)~F_D; break;
    case MH_MN6502_SED: c->p |= F_D; break;
    case MH_MN6502_CLV: c->p &= (uint8_t)~F_V; break;
    case MH_MN6502_DEX: c->x--; c->p = mh_nz(c->p, c->x); break;
    case MH_MN6502_DEY: c->y--; c->p = mh_nz(c->p, c->y); break;
    case MH_MN6502_INX: c->x++; c->p = mh_nz(c->p, c->x); break;
    case MH_MN6502_INY: c->y++; c->p = mh_nz(c->p, c->y); break;
    case MH_MN6502_TAX: c->x = c->a; c->p = mh_nz(c->p, c->x); break;
    case MH_MN6502_TAY: c->y = c->a; c->p = mh_nz(c->p, c->y); break;
    case MH_MN6502_TXA: c->a = c->x; c->p = mh_nz(c->p, c->a); break;
    case MH_MN6502_TYA: c->a = c->y; c->p = mh_nz(c->p, c->a); break;
    case MH_MN6502_TSX: c->x = c->s; c->p = mh_nz(c->p, c->x); break;
    case MH_MN6502_TXS: c->s = c->x; break;
    case MH_MN6502_ASL: c->a = mh_op_asl(c, c->a); break;
    case MH_MN6502_LSR: c->a = mh_op_lsr(c, c->a); break;
    case MH_MN6502_ROL: c->a = mh_op_rol(c, c->a); break;
    case MH_MN6502_ROR: c->a = mh_op_ror(c, c->a); break;
    default: break; /* NOP */
    }
}

/* Branch condition: bits 7-6 of the opcode pick N, V, C or Z, bit 5 the
 * value that means "taken". */
MH_CPU_INLINE int mh_branch_taken(uint8_t opcode, uint8_t p)
{
    static const uint8_t flag[4] = {F_N, F_V, F_C, F_Z};
    return ((p & flag[opcode >> 6]) != 0) == ((opcode >> 5) & 1);
}

/* The I/O port. */
MH_CPU_INLINE uint8_t mh_port_value(const mh_cpu6502 *c, uint16_t addr, uint8_t input)
{
    if (addr == 0) return c->port.ddr;
    if (c->port.fade_cycles) {
        /* pinless input bits: the charge left by their last output level */
        uint8_t charge = c->cycles < c->port.charge_until ? c->port.charge : 0u;
        input = (uint8_t)((input & c->port.pins) | (charge & ~c->port.pins));
    }
    return (uint8_t)((c->port.data & c->port.ddr) | (input & ~c->port.ddr));
}

MH_CPU_INLINE void mh_port_store(mh_cpu6502 *c, uint16_t addr, uint8_t v)
{
    if (addr == 0) {
        /* pinless bits turning to input keep the level they drove */
        uint8_t to_input = (uint8_t)(c->port.ddr & ~v & ~c->port.pins);
        if (to_input && c->port.fade_cycles) {
            uint8_t keep = c->cycles < c->port.charge_until ? c->port.charge : 0u;
            c->port.charge = (uint8_t)((keep & ~to_input) | (c->port.data & to_input));
            c->port.charge_until = c->cycles + c->port.fade_cycles;
        }
        c->port.ddr = v;
    } else {
        c->port.data = v;
    }
}

#endif
