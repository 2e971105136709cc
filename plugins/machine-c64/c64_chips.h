/* c64_chips.h - the chip interfaces the C64 registers for the chip
 * toolsets: "mh.chip.vic2/1" (instance "vic2") and "mh.chip.cia/1"
 * (instances "cia1", "cia2"), defined in the SDK (mcphost/chip_vic2.h,
 * mcphost/chip_cia.h), and the C64's decoders that fill their views
 * (c64_chip_views.c), pure functions of the chip state so tests can feed
 * them hand-made register sets.
 *
 * Ownership: the view structs belong to the caller. Threads: [emu-thread]
 * like the chips.
 */
#ifndef MH_C64_CHIPS_H
#define MH_C64_CHIPS_H

#include <stdint.h>

#include "cia6526.h"
#include "mcphost/chip_cia.h"
#include "mcphost/chip_vic2.h"
#include "vic2.h"

/* Fills *out (struct_size already set by the caller) from the VIC-II's
 * state; bank 0-3 is the VIC bank, char_rom 1 when the bank shows the
 * character ROM at $1000-$1FFF, sprite_ptr the 8 pointer bytes at screen
 * + $3F8 as the VIC sees them. */
void c64_vic2_decode(const m6569 *vic, unsigned bank, int char_rom, const uint8_t sprite_ptr[8],
                     mh_chip_vic2_view *out);

/* Fills *out (struct_size already set) from a CIA's state. */
void c64_cia_decode(const m6526 *cia, mh_chip_cia_view *out);

#endif
