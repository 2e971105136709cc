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
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "c64.h"

typedef struct rom_def {
    const char *what;  /* "kernal" */
    const char *vice;  /* "kernal-901227-03" */
    uint32_t address;  /* where it sits in the rom array */
    uint32_t size;
} rom_def;

static const rom_def roms[] = {
    {"kernal", "kernal-901227-03", 0xE000, 8192},
    {"basic", "basic-901226-01", 0xA000, 8192},
    {"chargen", "chargen-901225-01", 0xD000, 4096},
};

static mh_status load_one(const char *dir, const rom_def *def, uint8_t rom[65536], char *error,
                          size_t error_size)
{
    const char *bases[2] = {def->what, def->vice};
    static const char *const exts[2][3] = {{"", ".rom", ".bin"}, {".bin", ".rom", ""}};
    char path[4096];
    for (int b = 0; b < 2; b++)
        for (int e = 0; e < 3; e++) {
            snprintf(path, sizeof path, "%s/%s%s", dir, bases[b], exts[b][e]);
            struct stat st;
            if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
            if ((uint64_t)st.st_size != def->size) {
                snprintf(error, error_size,
                         "%s ROM %s is %lld bytes, expected %u (directory searched: %s)",
                         def->what, path, (long long)st.st_size, def->size, dir);
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
    snprintf(error, error_size,
             "%s ROM not found in %s (looked for %s, %s.rom, %s.bin, %s.bin, %s.rom, %s; %u bytes)%s",
             def->what, dir, def->what, def->what, def->what, def->vice, def->vice, def->vice,
             def->size,
             strcmp(dir, C64_DEFAULT_ROM_DIR) == 0
                 ? "; install Debian's open-roms package or give rom_dir (--rom-dir)"
                 : "");
    return MH_ERR_NOT_FOUND;
}

mh_status c64_rom_load(const char *dir, uint8_t rom[65536], char *error, size_t error_size)
{
    if (!dir) dir = C64_DEFAULT_ROM_DIR;
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(error, error_size, "rom_dir %s: %s%s", dir,
                 stat(dir, &st) != 0 ? strerror(errno) : "not a directory",
                 strcmp(dir, C64_DEFAULT_ROM_DIR) == 0
                     ? " (the default Open ROMs directory; install Debian's open-roms package or "
                       "give rom_dir / --rom-dir)"
                     : "");
        return MH_ERR_NOT_FOUND;
    }
    for (size_t i = 0; i < sizeof roms / sizeof roms[0]; i++) {
        mh_status status = load_one(dir, &roms[i], rom, error, error_size);
        if (status != MH_OK) return status;
    }
    return MH_OK;
}
