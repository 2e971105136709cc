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
 * Without rom_dir: the built-in free boot ROM. THIS is the one place it
 * plugs in (load_builtin below): it must fill the same three images. Until
 * the boot ROM library exists, a missing rom_dir is an error naming
 * --rom-dir. ROM images are never part of the tree.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "vic20.h"

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
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, def->names[i]);
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        if ((uint64_t)st.st_size != def->size) {
            snprintf(error, error_size, "%s ROM %s is %lld bytes, expected %u", def->what, path,
                     (long long)st.st_size, def->size);
            return MH_ERR_INVALID_ARGUMENT;
        }
        FILE *f = fopen(path, "rb");
        if (!f) {
            snprintf(error, error_size, "%s ROM %s: cannot open it: %s", def->what, path,
                     strerror(errno));
            return MH_ERR_IO;
        }
        size_t n = fread(rom + def->address, 1, def->size, f);
        fclose(f);
        if (n != def->size) {
            snprintf(error, error_size, "%s ROM %s: read %zu of %u bytes", def->what, path, n,
                     def->size);
            return MH_ERR_IO;
        }
        return MH_OK;
    }
    snprintf(error, error_size, "%s ROM not found in %s (looked for %s, %s, %s, %s; %u bytes)",
             def->what, dir, def->names[0], def->names[1], def->names[2], def->names[3],
             def->size);
    return MH_ERR_NOT_FOUND;
}

/* The built-in free boot ROM: fills char ROM, BASIC and KERNAL images.
 * (The boot ROM library, roms/boot_rom.h, wires in here.) */
static mh_status load_builtin(int ntsc, uint8_t rom[65536], char *error, size_t error_size)
{
    (void)ntsc;
    (void)rom;
    snprintf(error, error_size,
             "the vic20 needs its ROMs: give --rom-dir DIR (config rom_dir) with "
             "basic-901486-01.bin, kernal.901486-07.bin (PAL) or kernal.901486-06.bin (NTSC) "
             "and chargen-901460-03.bin; this build has no built-in VIC-20 boot ROM");
    return MH_ERR_NOT_FOUND;
}

mh_status vic20_rom_load(const char *dir, int ntsc, uint8_t rom[65536], char *error,
                         size_t error_size)
{
    if (!dir) return load_builtin(ntsc, rom, error, error_size);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(error, error_size, "rom_dir %s: %s", dir,
                 stat(dir, &st) != 0 ? strerror(errno) : "not a directory");
        return MH_ERR_NOT_FOUND;
    }
    const rom_def *defs = ntsc ? roms_ntsc : roms_pal;
    for (size_t i = 0; i < 3; i++) {
        mh_status status = load_one(dir, &defs[i], rom, error, error_size);
        if (status != MH_OK) return status;
    }
    return MH_OK;
}
