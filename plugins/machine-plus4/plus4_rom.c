/* plus4_rom.c - finds and loads the Plus/4 ROMs into their slots.
 *
 * With rom_dir (--rom-dir): the original ROMs, each the first file found
 * of its names (VICE 3.x's, then VICE's older generic ones):
 *
 *   BASIC        basic-318006-01.bin, basic              (16 KiB, required)
 *   KERNAL PAL   kernal-318004-05.bin, kernal            (16 KiB, required)
 *   KERNAL NTSC  kernal-318005-05.bin, kernal-318004-05.bin, kernal
 *   function LO  3plus1-317053-01.bin, 3plus1lo          (Plus/4 only, optional)
 *   function HI  3plus1-317054-01.bin, 3plus1hi          (Plus/4 only, optional)
 *
 * Without rom_dir: the built-in free boot ROM (load_builtin below: the one
 * place it plugs in). It is built when the roms/ library mh_boot_roms is
 * part of the build (MH_HAVE_BOOT_ROMS): its 16 KiB KERNAL at $C000, with
 * the character set area $D000-$D7FF filled from Debian's open-roms
 * chargen (bytes $000-$3FF at $D000, $800-$BFF at $D400). Until then a
 * missing rom_dir is an error that names --rom-dir.
 * ROM images are never part of the tree.
 */
#include <stdio.h>
#include <string.h>

#include "mcphost/kit_rom.h"
#include "plus4.h"
#ifdef MH_HAVE_BOOT_ROMS
#include "boot_rom.h"
#endif

#define OPEN_ROMS_CHARGEN "/usr/share/open-roms/C64/chargen"

typedef struct rom_def {
    const char *what;
    unsigned slot;
    const char *names[3]; /* NULL-terminated when shorter */
    int required;
} rom_def;

static const rom_def pal_roms[] = {
    {"BASIC", PLUS4_ROM_BASIC, {"basic-318006-01.bin", "basic", NULL}, 1},
    {"KERNAL", PLUS4_ROM_KERNAL, {"kernal-318004-05.bin", "kernal", NULL}, 1},
    {"function ROM low", PLUS4_ROM_FUNC_LO, {"3plus1-317053-01.bin", "3plus1lo", NULL}, 0},
    {"function ROM high", PLUS4_ROM_FUNC_HI, {"3plus1-317054-01.bin", "3plus1hi", NULL}, 0},
};
static const rom_def ntsc_roms[] = {
    {"BASIC", PLUS4_ROM_BASIC, {"basic-318006-01.bin", "basic", NULL}, 1},
    {"KERNAL", PLUS4_ROM_KERNAL, {"kernal-318005-05.bin", "kernal-318004-05.bin", "kernal"}, 1},
    {"function ROM low", PLUS4_ROM_FUNC_LO, {"3plus1-317053-01.bin", "3plus1lo", NULL}, 0},
    {"function ROM high", PLUS4_ROM_FUNC_HI, {"3plus1-317054-01.bin", "3plus1hi", NULL}, 0},
};

static mh_status load_one(plus4 *m, const char *dir, const rom_def *def, char *error,
                          size_t error_size)
{
    char path[4096];
    if (mh_kit_rom_find(dir, def->names, 3, path, sizeof path)) {
        mh_status status = mh_kit_rom_read(def->what, path, m->rom[def->slot], PLUS4_ROM_SIZE,
                                           NULL, error, error_size);
        if (status == MH_OK) m->rom_present[def->slot] = 1;
        return status;
    }
    if (!def->required) return MH_OK;
    snprintf(error, error_size, "%s ROM not found in %s (looked for %s%s%s%s%s; 16384 bytes)",
             def->what, dir, def->names[0], def->names[1] ? ", " : "",
             def->names[1] ? def->names[1] : "", def->names[2] ? ", " : "",
             def->names[2] ? def->names[2] : "");
    return MH_ERR_NOT_FOUND;
}

static mh_status load_dir(plus4 *m, const char *dir, char *error, size_t error_size)
{
    mh_status status = mh_kit_rom_dir_check(dir, NULL, error, error_size);
    if (status != MH_OK) return status;
    const rom_def *defs = m->config.ntsc ? ntsc_roms : pal_roms;
    size_t count = m->config.model == PLUS4_MODEL_C16 ? 2 : 4; /* a C16 has no 3-plus-1 */
    for (size_t i = 0; i < count; i++) {
        status = load_one(m, dir, &defs[i], error, error_size);
        if (status != MH_OK) return status;
    }
    return MH_OK;
}

/* The built-in free boot ROM: the one place it plugs in. */
static mh_status load_builtin(plus4 *m, char *error, size_t error_size)
{
#ifdef MH_HAVE_BOOT_ROMS
    size_t size = 0;
    const uint8_t *kernal = mh_boot_rom_plus4_kernal(m->config.ntsc, &size);
    if (!kernal || size != PLUS4_ROM_SIZE) {
        snprintf(error, error_size, "the built-in Plus/4 boot ROM is missing; give --rom-dir DIR "
                                    "with the original ROMs");
        return MH_ERR_NOT_FOUND;
    }
    memcpy(m->rom[PLUS4_ROM_KERNAL], kernal, PLUS4_ROM_SIZE);
    uint8_t chargen[4096];
    mh_status status = mh_kit_rom_read("character set (Debian's open-roms package)",
                                       OPEN_ROMS_CHARGEN, chargen, sizeof chargen, NULL, error,
                                       error_size);
    if (status != MH_OK) return status;
    memcpy(m->rom[PLUS4_ROM_KERNAL] + 0x1000, chargen, 0x400);         /* $D000: upper case */
    memcpy(m->rom[PLUS4_ROM_KERNAL] + 0x1400, chargen + 0x800, 0x400); /* $D400: lower case */
    m->rom_present[PLUS4_ROM_KERNAL] = 1;
    return MH_OK;
#else
    (void)m;
    snprintf(error, error_size,
             "no Plus/4 ROMs: give --rom-dir DIR (config rom_dir) with basic-318006-01.bin and "
             "kernal-318004-05.bin (kernal-318005-05.bin for NTSC), and for a Plus/4 "
             "3plus1-317053-01.bin and 3plus1-317054-01.bin; this build has no built-in boot ROM");
    return MH_ERR_NOT_FOUND;
#endif
}

mh_status plus4_rom_load(plus4 *m, char *error, size_t error_size)
{
    memset(m->rom_present, 0, sizeof m->rom_present);
    memset(m->open_rom, 0xFF, sizeof m->open_rom);
    if (m->config.rom_dir) {
        m->rom_source = m->config.rom_dir;
        return load_dir(m, m->config.rom_dir, error, error_size);
    }
    m->rom_source = "built-in boot ROM";
    return load_builtin(m, error, error_size);
}
