#include "c64_pla.h"

/* One row per configuration: the banks of $8000, $A000, $D000 and $E000 (the
 * blocks that can change) and whether $1000-$7FFF and $C000 are open
 * (Ultimax). From the PLA's logic as documented in the C64 memory map:
 * KERNAL = HIRAM, BASIC = LORAM & HIRAM, CHAR/IO need LORAM or HIRAM (with a
 * 16K cartridge, CHAR needs HIRAM), ROML = LORAM & HIRAM with a cartridge,
 * ROMH replaces BASIC in 16K mode. */
typedef struct pla_row {
    uint8_t b8, ba, bd, be;
    uint8_t ultimax;
} pla_row;

#define R C64_BANK_RAM
#define B C64_BANK_BASIC
#define K C64_BANK_KERNAL
#define C C64_BANK_CHAR
#define I C64_BANK_IO
#define L C64_BANK_ROML
#define H C64_BANK_ROMH
#define O C64_BANK_OPEN

static const pla_row pla_rows[32] = {
    /* EXROM=0 GAME=0: 16K cartridge */
    {R, R, R, R, 0}, {R, R, R, R, 0}, {R, H, C, K, 0}, {L, H, C, K, 0},
    {R, R, R, R, 0}, {R, R, I, R, 0}, {R, H, I, K, 0}, {L, H, I, K, 0},
    /* EXROM=0 GAME=1: 8K cartridge */
    {R, R, R, R, 0}, {R, R, C, R, 0}, {R, R, C, K, 0}, {L, B, C, K, 0},
    {R, R, R, R, 0}, {R, R, I, R, 0}, {R, R, I, K, 0}, {L, B, I, K, 0},
    /* EXROM=1 GAME=0: Ultimax, whatever the port says */
    {L, O, I, H, 1}, {L, O, I, H, 1}, {L, O, I, H, 1}, {L, O, I, H, 1},
    {L, O, I, H, 1}, {L, O, I, H, 1}, {L, O, I, H, 1}, {L, O, I, H, 1},
    /* EXROM=1 GAME=1: no cartridge */
    {R, R, R, R, 0}, {R, R, C, R, 0}, {R, R, C, K, 0}, {R, B, C, K, 0},
    {R, R, R, R, 0}, {R, R, I, R, 0}, {R, R, I, K, 0}, {R, B, I, K, 0},
};

#undef R
#undef B
#undef K
#undef C
#undef I
#undef L
#undef H
#undef O

c64_bank c64_pla_read_bank(unsigned config, unsigned block)
{
    const pla_row *row = &pla_rows[config & 31];
    switch (block & 15) {
    case 0x0: return C64_BANK_RAM;
    case 0x8: case 0x9: return (c64_bank)row->b8;
    case 0xA: case 0xB: return (c64_bank)row->ba;
    case 0xD: return (c64_bank)row->bd;
    case 0xE: case 0xF: return (c64_bank)row->be;
    default: return row->ultimax ? C64_BANK_OPEN : C64_BANK_RAM; /* $1000-$7FFF, $C000 */
    }
}

c64_bank c64_pla_write_bank(unsigned config, unsigned block)
{
    c64_bank bank = c64_pla_read_bank(config, block);
    switch (bank) {
    case C64_BANK_IO:
    case C64_BANK_OPEN:
        return bank;
    case C64_BANK_ROML:
    case C64_BANK_ROMH:
        /* Ultimax cartridges take the writes; otherwise RAM below gets them. */
        return c64_pla_ultimax(config) ? C64_BANK_OPEN : C64_BANK_RAM;
    default:
        return C64_BANK_RAM;
    }
}

const char *c64_bank_name(c64_bank bank)
{
    static const char *const names[C64_BANK_COUNT] = {"ram",  "basic", "kernal", "char",
                                                      "io",   "roml",  "romh",   "open"};
    return (unsigned)bank < C64_BANK_COUNT ? names[bank] : "?";
}
