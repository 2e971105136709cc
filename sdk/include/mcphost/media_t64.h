/* mcphost/media_t64.h - T64 tape archives for the SDK's media library
 * (static library mh_media, link target mcphost::media).
 *
 * Offers: mh_t64_open() checks and indexes a T64 container (a 64-byte
 * header, 32-byte directory slots, file data), mh_t64_find() matches a CBM
 * DOS pattern, mh_t64_read_prg() returns an entry as a PRG.
 *
 * The format: header signature starting "C64" and containing "tape" (any
 * case: "C64 tape image file", "C64S tape file", "C64S tape image file"),
 * version at $20, directory slots at $22, used slots at $24, tape name at
 * $28 (24 bytes); slot at $40 + 32 * n: entry type ($00 free, $01 normal
 * file, $03 memory snapshot ...), C64 file type, start address, end
 * address, offset of the data in the container, name (16 bytes, padded with
 * spaces or $A0).
 *
 * The broken end address: many T64 writers stored a wrong end address
 * (famously $C3C6 for every file). The real length is what the container
 * holds: from the entry's offset to the next entry's offset (in offset
 * order), or to the end of the file for the last one. When end - start is
 * larger than that, end is moved down to start + that length and
 * end_fixed is set; an end address of $0000 is read as $10000; an end
 * address below the start is fixed the same way. A smaller end - start is
 * kept (the container has padding).
 *
 * Checks: the size (at least the 64-byte header and the slots it
 * declares, clamped to what the file holds), the signature, every used
 * entry's data offset (after the directory, before the end of the file),
 * a start address that leaves room for at least one byte. Directory slots
 * 0 declares 1 (a common writer bug); used slots counts nothing (the entry
 * types decide).
 *
 * Ownership: mh_t64_open() copies the container; mh_t64_free() releases
 * it and the entries. mh_t64_read_prg() returns a malloc'ed buffer the
 * caller frees with free().
 *
 * Thread-safety: an mh_t64 is immutable after mh_t64_open(); every function
 * here is [thread-safe].
 */
#ifndef MCPHOST_MEDIA_T64_H
#define MCPHOST_MEDIA_T64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mcphost/media.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_T64_HEADER_SIZE 64u
#define MH_T64_SLOT_SIZE 32u

typedef struct mh_t64_entry {
    unsigned slot;            /* 0-based directory slot (messages count from 1) */
    uint8_t entry_type;       /* $01 normal file, $03 snapshot, ...; never $00 */
    uint8_t file_type;        /* the C64 file type byte as stored ($82 PRG, $01 ...) */
    uint16_t start_address;
    uint32_t end_address;     /* one past the last byte after the fix, <= 0x10000 */
    uint16_t stored_end;      /* the end address as stored */
    bool end_fixed;           /* the stored end address was wrong (see above) */
    uint32_t offset;          /* of the data in the container */
    uint32_t size;            /* end_address - start_address, >= 1 */
    const uint8_t *data;      /* size bytes inside the owned copy */
    uint8_t name_raw[16];     /* as stored */
    uint8_t name_length;      /* trailing spaces, $A0 and $00 removed */
    char name[17];            /* mh_petscii_to_ascii() rendering, NUL-terminated */
} mh_t64_entry;

typedef struct mh_t64 {
    const uint8_t *image;     /* the owned copy */
    size_t image_size;
    uint16_t version;         /* $0100 or $0101 usually */
    uint16_t max_entries;     /* directory slots as stored */
    uint16_t used_entries;    /* as stored (often wrong, not used) */
    uint8_t name_raw[24];
    char name[25];            /* tape name, trailing padding removed */
    const mh_t64_entry *entries; /* used slots in directory order */
    size_t entry_count;
} mh_t64;

/* Checks and indexes a T64. NULL (err filled, MH_ERR_INVALID_ARGUMENT or
 * MH_ERR_NO_MEMORY) on a bad signature, size or offset; a T64 with no used
 * entry is an error too (nothing to load). [thread-safe] */
mh_t64 *mh_t64_open(const uint8_t *bytes, size_t size, mh_media_error *err);
void mh_t64_free(mh_t64 *t64);

/* The first entry whose name matches a CBM DOS pattern, or NULL. */
const mh_t64_entry *mh_t64_find(const mh_t64 *t64, const uint8_t *pattern, size_t length);

/* The entry as a PRG: 2-byte start address + data (malloc'ed, free() it). */
mh_status mh_t64_read_prg(const mh_t64 *t64, const mh_t64_entry *entry, uint8_t **prg,
                          size_t *size, mh_media_error *err);

#ifdef __cplusplus
}
#endif
#endif
