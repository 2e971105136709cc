/* vic20_rom.c - finds and loads the VIC-20's three ROMs into the rom image:
 * character ROM at $8000 (4 KiB), BASIC at $C000 (8 KiB), KERNAL at $E000
 * (8 KiB; the PAL or NTSC one).
 *
 * With rom_dir: each ROM is the first file found of (VICE's names first,
 * then the generic ones VICE also takes):
 *   kernal   kernal.901486-07.bin (PAL) / kernal.901486-06.bin (NTSC),
 *            kernal, kernal.rom, kernal.bin
 *   basic    basic-901486-01.bin, basic, basic.rom, basic.bin
 *   chargen  chargen-901460-03.bin, chargen, chargen.rom, chargen.bin
 * A missing file or one of the wrong size is an error naming it.
 *
 * Without rom_dir: the built-in free boot ROM (load_builtin below, the one
 * place it plugs in; roms/boot_rom.h, built when the library mh_boot_roms
 * is part of the build: MH_HAVE_BOOT_ROMS): mcphost's own KERNAL at $E000,
 * the character ROM from Debian's open-roms package (its C64 chargen is
 * the VIC-20's 4 KiB layout), no BASIC ($C000-$DFFF reads $FF).
 * ROM images are never part of the tree.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mcphost/kit_rom.h"
#include "vic20.h"
#ifdef MH_HAVE_BOOT_ROMS
#include "boot_rom.h"
#endif

#define OPEN_ROMS_CHARGEN "/usr/share/open-roms/C64/chargen"

typedef struct rom_def {
    const char *what;
    const char *names[4];
    uint32_t address;
    uint32_t size;
} rom_def;

static const rom_def roms_pal[] = {
    {"kernal", {"kernal.901486-07.bin", "kernal", "kernal.rom", "kernal.bin"}, 0xE000, 8192},
    {"basic", {"basic-901486-01.bin", "basic", "basic.rom", "basic.bin"}, 0xC000, 8192},
    {"chargen", {"chargen-901460-03.bin", "chargen", "chargen.rom", "chargen.bin"}, 0x8000, 4096},
};
static const rom_def roms_ntsc[] = {
    {"kernal", {"kernal.901486-06.bin", "kernal", "kernal.rom", "kernal.bin"}, 0xE000, 8192},
    {"basic", {"basic-901486-01.bin", "basic", "basic.rom", "basic.bin"}, 0xC000, 8192},
    {"chargen", {"chargen-901460-03.bin", "chargen", "chargen.rom", "chargen.bin"}, 0x8000, 4096},
};

static mh_status load_one(const char *dir, const rom_def *def, uint8_t rom[65536], char *error,
                          size_t error_size)
{
    char path[4096];
    char label[32];
    snprintf(label, sizeof label, "%s ROM", def->what);
    if (mh_kit_rom_find(dir, def->names, 4, path, sizeof path))
        return mh_kit_rom_read(label, path, rom + def->address, def->size, NULL, error,
                               error_size);
    snprintf(error, error_size, "%s ROM not found in %s (looked for %s, %s, %s, %s; %u bytes)",
             def->what, dir, def->names[0], def->names[1], def->names[2], def->names[3],
             def->size);
    return MH_ERR_NOT_FOUND;
}

/* The built-in free boot ROM: fills char ROM, BASIC and KERNAL images. */
static mh_status load_builtin(int ntsc, uint8_t rom[65536], char *error, size_t error_size)
{
#ifdef MH_HAVE_BOOT_ROMS
    size_t size = 0;
    const uint8_t *kernal = mh_boot_rom_vic20_kernal(ntsc, &size);
    if (!kernal || size != 8192) {
        snprintf(error, error_size, "the built-in VIC-20 boot ROM is missing; give --rom-dir DIR "
                                    "with the original ROMs");
        return MH_ERR_NOT_FOUND;
    }
    FILE *f = fopen(OPEN_ROMS_CHARGEN, "rb");
    size_t n = f ? fread(rom + 0x8000, 1, 4096, f) : 0;
    if (f) fclose(f);
    if (n != 4096) {
        snprintf(error, error_size,
                 "the built-in VIC-20 boot ROM takes its characters from %s (%s): install "
                 "Debian's open-roms package (apt-get install open-roms), or give --rom-dir DIR "
                 "with the original ROMs",
                 OPEN_ROMS_CHARGEN, f ? "shorter than 4096 bytes" : strerror(errno));
        return MH_ERR_NOT_FOUND;
    }
    memset(rom + 0xC000, 0xFF, 8192); /* no BASIC */
    memcpy(rom + 0xE000, kernal, 8192);
    return MH_OK;
#else
    (void)ntsc;
    (void)rom;
    snprintf(error, error_size,
             "the vic20 needs its ROMs: give --rom-dir DIR (config rom_dir) with "
             "basic-901486-01.bin, kernal.901486-07.bin (PAL) or kernal.901486-06.bin (NTSC) "
             "and chargen-901460-03.bin; this build has no built-in VIC-20 boot ROM");
    return MH_ERR_NOT_FOUND;
#endif
}

mh_status vic20_rom_load(const char *dir, int ntsc, uint8_t rom[65536], char *error,
                         size_t error_size)
{
    if (!dir) return load_builtin(ntsc, rom, error, error_size);
    mh_status status = mh_kit_rom_dir_check(dir, NULL, error, error_size);
    if (status != MH_OK) return status;
    const rom_def *defs = ntsc ? roms_ntsc : roms_pal;
    for (size_t i = 0; i < 3; i++) {
        status = load_one(dir, &defs[i], rom, error, error_size);
        if (status != MH_OK) return status;
    }
    return MH_OK;
}
