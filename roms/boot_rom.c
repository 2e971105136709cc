/* boot_rom.c - the assembled boot ROM images (roms/boot_rom.h); the byte
 * arrays come from mh-asm's generated C files. */
#include "boot_rom.h"

extern const uint8_t mh_boot_rom_vic20_kernal_pal[8192];
extern const uint8_t mh_boot_rom_vic20_kernal_ntsc[8192];
extern const uint8_t mh_boot_rom_plus4_kernal_pal[16384];
extern const uint8_t mh_boot_rom_plus4_kernal_ntsc[16384];

const uint8_t *mh_boot_rom_vic20_kernal(int ntsc, size_t *size)
{
    if (size) *size = sizeof mh_boot_rom_vic20_kernal_pal;
    return ntsc ? mh_boot_rom_vic20_kernal_ntsc : mh_boot_rom_vic20_kernal_pal;
}

const uint8_t *mh_boot_rom_plus4_kernal(int ntsc, size_t *size)
{
    if (size) *size = sizeof mh_boot_rom_plus4_kernal_pal;
    return ntsc ? mh_boot_rom_plus4_kernal_ntsc : mh_boot_rom_plus4_kernal_pal;
}
