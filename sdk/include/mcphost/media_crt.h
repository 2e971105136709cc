/* mcphost/media_crt.h - C64 cartridge images (CRT) for the SDK's media
 * library (static library mh_media, link target mcphost::media).
 *
 * Offers: mh_crt_open() checks and indexes a CRT file of any hardware
 * type: the header and every CHIP packet (type, bank, load address, size,
 * data). It says which hardware type the file declares, its name, and
 * whether it is one of the three plain layouts every C64 emulator runs
 * (kind): normal 8K (ROML at $8000, EXROM=0 GAME=1), normal 16K (ROML +
 * ROMH at $8000-$BFFF, EXROM=0 GAME=0), Ultimax (ROMH at $E000, optional
 * ROML at $8000, EXROM=1 GAME=0). mh_crt_generic_roms() builds the ROML and
 * ROMH images for those. Banked types are left to the machine, which
 * looks at hardware_type and the chips.
 *
 * The format (big-endian numbers): header "C64 CARTRIDGE   " (16 bytes),
 * header length ($10, usually $40), version ($14), hardware type ($16),
 * EXROM line ($18), GAME line ($19), hardware subtype ($1A, version 1.01+),
 * name ($20, 32 bytes); then CHIP packets: "CHIP", packet length
 * (header + data), chip type (0 ROM, 1 RAM, 2 flash, 3 EEPROM), bank, load
 * address, data size, data.
 *
 * Checks: signature, header length (a length below $40 is read as $40, a
 * length past the end of the file is an error), every packet inside the
 * file, packet length >= 16 + data size (a RAM chip may have no data), a
 * known chip type, a size of at least 1, data inside
 * $0000-$FFFF, no two chips of the same bank overlapping, at most
 * MH_CRT_MAX_CHIPS packets, at least one packet. Fewer than 16 bytes after
 * the last packet are ignored (trailing_bytes); 16 or more that are not a
 * CHIP packet are an error.
 *
 * Ownership: mh_crt_open() copies the file; mh_crt_free() releases it and
 * the chips (chip data points into the copy).
 *
 * Thread-safety: an mh_crt is immutable after mh_crt_open(); every function
 * here is [thread-safe].
 */
#ifndef MCPHOST_MEDIA_CRT_H
#define MCPHOST_MEDIA_CRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mcphost/media.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_CRT_HEADER_SIZE 64u
#define MH_CRT_CHIP_HEADER_SIZE 16u
#define MH_CRT_MAX_CHIPS 16384u /* GMod3 16 MB is 2048 chips of 8K */

/* The plain layouts (hardware type 0 only). */
typedef enum mh_crt_kind {
    MH_CRT_OTHER = 0,     /* a banked/special hardware type, or a type 0
                             file whose lines or chips fit no plain layout */
    MH_CRT_NORMAL_8K,     /* EXROM=0 GAME=1: ROML $8000-$9FFF */
    MH_CRT_NORMAL_16K,    /* EXROM=0 GAME=0: ROML $8000-$9FFF, ROMH $A000-$BFFF */
    MH_CRT_ULTIMAX        /* EXROM=1 GAME=0: ROMH $E000-$FFFF, optional ROML */
} mh_crt_kind;

typedef enum mh_crt_chip_type {
    MH_CRT_CHIP_ROM = 0,
    MH_CRT_CHIP_RAM = 1,
    MH_CRT_CHIP_FLASH = 2,
    MH_CRT_CHIP_EEPROM = 3
} mh_crt_chip_type;

typedef struct mh_crt_chip {
    uint32_t offset;          /* of the packet in the file */
    uint16_t type;            /* mh_crt_chip_type */
    uint16_t bank;
    uint16_t load_address;
    uint16_t size;            /* data bytes, >= 1; load_address + size <= 0x10000 */
    const uint8_t *data;      /* size bytes inside the owned copy; NULL for a RAM
                                 chip whose packet carries no data (length 16) */
} mh_crt_chip;

typedef struct mh_crt {
    const uint8_t *image;     /* the owned copy */
    size_t image_size;
    uint32_t header_length;   /* as stored */
    uint16_t version;         /* $0100, $0101, $0200 ... */
    uint16_t hardware_type;   /* 0 normal, 1 Action Replay, ... 32 EasyFlash ... */
    uint8_t hardware_subtype; /* version >= $0101, else 0 */
    uint8_t exrom, game;      /* line levels as stored (0 = active/low) */
    char name[33];            /* printable ASCII, trailing NULs/spaces removed */
    const char *hardware_name; /* "Normal cartridge", "EasyFlash", ... or "unknown" */
    mh_crt_kind kind;
    const mh_crt_chip *chips; /* in file order */
    size_t chip_count;
    size_t trailing_bytes;    /* ignored bytes after the last packet (< 16) */
} mh_crt;

/* Checks and indexes a CRT. NULL (err filled) on any failed check. */
mh_crt *mh_crt_open(const uint8_t *bytes, size_t size, mh_media_error *err);
void mh_crt_free(mh_crt *crt);

/* The name of a hardware type as the CRT documentation gives it ("Normal
 * cartridge", "Action Replay", "Ocean type 1", "Magic Desk, Domark, HES
 * Australia", "EasyFlash" ...); "unknown" past the known list. */
const char *mh_crt_hardware_name(unsigned hardware_type);

/* For a plain layout (kind != MH_CRT_OTHER): fills roml and romh (8 KiB
 * each, $FF where no chip is) and says which are present. A chip smaller
 * than 8 KiB whose size is a power of two repeats over its 8 KiB window,
 * as the address lines it does not decode make it appear. MH_ERR_UNSUPPORTED
 * for kind MH_CRT_OTHER. roml/romh/has_* may not be NULL. */
mh_status mh_crt_generic_roms(const mh_crt *crt, uint8_t roml[8192], uint8_t romh[8192],
                              bool *has_roml, bool *has_romh, mh_media_error *err);

#ifdef __cplusplus
}
#endif
#endif
