/* roms/boot_rom.h - mcphost's free boot KERNALs for the VIC-20 and the
 * Plus/4 (static library mh_boot_roms; docs/boot-roms.md).
 *
 * Offers the ROM images, assembled at build time from roms/vic20, roms/plus4
 * and roms/common: a small KERNAL that sets up the chips, shows a banner
 * and a READY. prompt whose RUN and SYS start machine-code programs (so
 * autostart works without BASIC), with the jump table, RAM vectors and the
 * IRQ/BRK/NMI entry and exit paths at the original addresses.
 *   - mh_boot_rom_vic20_kernal(): 8 KiB for $E000-$FFFF;
 *   - mh_boot_rom_plus4_kernal(): 16 KiB for $C000-$FFFF, with
 *     $D000-$D7FF left zero: the machine puts the character set there.
 * ntsc != 0 selects the NTSC build (VIC screen origin and jiffy timer on
 * the VIC-20, the TED's NTSC bit on the Plus/4). *size receives the length.
 *
 * Ownership: the images are static, read-only and owned by the library;
 * copy them into the machine's ROM.
 * Threads: any thread (constant data).
 */
#ifndef MH_BOOT_ROM_H
#define MH_BOOT_ROM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

const uint8_t *mh_boot_rom_vic20_kernal(int ntsc, size_t *size);
const uint8_t *mh_boot_rom_plus4_kernal(int ntsc, size_t *size);

#ifdef __cplusplus
}
#endif
#endif
