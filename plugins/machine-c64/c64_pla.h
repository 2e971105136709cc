/* c64_pla.h - the C64's PLA as a table: for each of the 32 memory
 * configurations (EXROM, GAME and the 6510 port's CHAREN/HIRAM/LORAM) what
 * the CPU sees in each 4 KiB block. Pure data and lookups; [thread-safe].
 *
 * Configuration index = EXROM<<4 | GAME<<3 | CHAREN<<2 | HIRAM<<1 | LORAM,
 * with the line levels as on the chip (1 = high; no cartridge: EXROM = GAME
 * = 1). Reads and writes differ: writes to a ROM block go to the RAM below,
 * writes to an open (Ultimax) block go nowhere. */
#ifndef MH_C64_PLA_H
#define MH_C64_PLA_H

#include <stdint.h>

typedef enum c64_bank {
    C64_BANK_RAM = 0,
    C64_BANK_BASIC,   /* $A000-$BFFF */
    C64_BANK_KERNAL,  /* $E000-$FFFF */
    C64_BANK_CHAR,    /* $D000-$DFFF */
    C64_BANK_IO,      /* $D000-$DFFF */
    C64_BANK_ROML,    /* cartridge $8000-$9FFF */
    C64_BANK_ROMH,    /* cartridge $A000-$BFFF, or $E000-$FFFF in Ultimax */
    C64_BANK_OPEN     /* nothing (Ultimax): reads see the last bus value */
} c64_bank;

#define C64_BANK_COUNT 8

/* What a CPU read of a 4 KiB block (address >> 12) reaches in a config. */
c64_bank c64_pla_read_bank(unsigned config, unsigned block);
/* What a CPU write reaches (RAM below ROMs, I/O, open or the cartridge). */
c64_bank c64_pla_write_bank(unsigned config, unsigned block);
/* The configuration index from the port pins (bits 0-2) and the lines. */
static inline unsigned c64_pla_config(uint8_t port_pins, int exrom, int game)
{
    return (unsigned)((exrom ? 16 : 0) | (game ? 8 : 0) | (port_pins & 7));
}
/* Ultimax mode (GAME low, EXROM high): the VIC-II sees ROMH at $3000. */
static inline int c64_pla_ultimax(unsigned config) { return (config & 0x18) == 0x10; }
const char *c64_bank_name(c64_bank bank);

#endif
