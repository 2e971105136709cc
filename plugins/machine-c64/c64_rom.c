/* c64_rom.c - finds and loads the three C64 ROMs.
 *
 * Directory: the rom_dir option, else /usr/share/open-roms/C64 (Debian's
 * open-roms package: the free MEGA65 Open ROMs). In that directory each ROM
 * is the first file found of (search order):
 *
 *   kernal   kernal, kernal.rom, kernal.bin,
 *            kernal-901227-03.bin, kernal-901227-03.rom, kernal-901227-03
 *   basic    basic, basic.rom, basic.bin,
 *            basic-901226-01.bin, basic-901226-01.rom, basic-901226-01
 *   chargen  chargen, chargen.rom, chargen.bin,
 *            chargen-901225-01.bin, chargen-901225-01.rom, chargen-901225-01
 *
 * (Open ROMs' and VICE's older names first, then VICE 3.x's.) A missing
 * file or one of the wrong size is an error naming the file, its size, the
 * size expected and the directory searched. ROM images are never part of
 * the tree.
 */
#include <stdio.h>
#include <string.h>

#include "c64.h"
#include "mcphost/kit_rom.h"

typedef struct rom_def {
    const char *what;     /* "kernal" */
    const char *names[6]; /* in search order; names[3..5]: VICE 3.x's */
    uint32_t address;     /* where it sits in the rom array */
    uint32_t size;
} rom_def;

static const rom_def roms[] = {
    {"kernal",
     {"kernal", "kernal.rom", "kernal.bin", "kernal-901227-03.bin", "kernal-901227-03.rom",
      "kernal-901227-03"},
     0xE000,
     8192},
    {"basic",
     {"basic", "basic.rom", "basic.bin", "basic-901226-01.bin", "basic-901226-01.rom",
      "basic-901226-01"},
     0xA000,
     8192},
    {"chargen",
     {"chargen", "chargen.rom", "chargen.bin", "chargen-901225-01.bin", "chargen-901225-01.rom",
      "chargen-901225-01"},
     0xD000,
     4096},
};

static mh_status load_one(const char *dir, const rom_def *def, uint8_t rom[65536], char *error,
                          size_t error_size)
{
    char path[4096];
    if (mh_kit_rom_find(dir, def->names, 6, path, sizeof path)) {
        char label[32], note[4200];
        snprintf(label, sizeof label, "%s ROM", def->what);
        snprintf(note, sizeof note, " (directory searched: %s)", dir);
        return mh_kit_rom_read(label, path, rom + def->address, def->size, note, error,
                               error_size);
    }
    snprintf(error, error_size,
             "%s ROM not found in %s (looked for %s, %s, %s, %s, %s, %s; %u bytes)%s", def->what,
             dir, def->names[0], def->names[1], def->names[2], def->names[3], def->names[4],
             def->names[5], def->size,
             strcmp(dir, C64_DEFAULT_ROM_DIR) == 0
                 ? "; install Debian's open-roms package or give rom_dir (--rom-dir)"
                 : "");
    return MH_ERR_NOT_FOUND;
}

mh_status c64_rom_load(const char *dir, uint8_t rom[65536], char *error, size_t error_size)
{
    if (!dir) dir = C64_DEFAULT_ROM_DIR;
    mh_status status = mh_kit_rom_dir_check(
        dir,
        strcmp(dir, C64_DEFAULT_ROM_DIR) == 0
            ? " (the default Open ROMs directory; install Debian's open-roms package or "
              "give rom_dir / --rom-dir)"
            : "",
        error, error_size);
    if (status != MH_OK) return status;
    for (size_t i = 0; i < sizeof roms / sizeof roms[0]; i++) {
        status = load_one(dir, &roms[i], rom, error, error_size);
        if (status != MH_OK) return status;
    }
    return MH_OK;
}
