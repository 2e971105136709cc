/* mcphost/media_d64.h - 1541 disk images (D64) for the SDK's media library
 * (static library mh_media, link target mcphost::media).
 *
 * Offers:
 *   - mh_d64_open(): checks and indexes a D64 image of 35 tracks (174848
 *     bytes), 35 tracks with error info (175531), 40 tracks (196608) or 40
 *     tracks with error info (197376): BAM (disk name, id, DOS type, blocks
 *     free), the directory chain from track 18 sector 1 with every entry;
 *   - sector access by track and sector (1541 zones: tracks 1-17 have 21
 *     sectors, 18-24 19, 25-30 18, 31-40 17) and the per-sector error code;
 *   - mh_d64_read_file() / mh_d64_read_chain(): a file's bytes, following
 *     its sector chain;
 *   - mh_d64_find() and mh_d64_load(): CBM DOS name matching (first match
 *     wins) and what LOAD"NAME",8 returns, "$" giving the directory;
 *   - mh_d64_directory(): the directory as the BASIC program LOAD"$",8
 *     gives, ready to load at an address the caller chooses ($0801 on the
 *     C64, $0401 on the PET/VIC-20 unexpanded, ...), so a virtual drive can
 *     serve it;
 *   - mh_d64_validate(): walks every file's chain (like the DOS VALIDATE);
 *   - mh_d64_save(): SAVE"NAME",8 as a 1541 does it, into a new copy of
 *     the image (BAM allocation, interleave, directory entry; 63 FILE
 *     EXISTS, "@0:" replace, 72 DISK FULL).
 * Every track/sector link is checked against the disk's geometry before
 * use, and chains (files and the directory) are walked with a record of
 * the sectors already seen, so loops are reported, not followed. Not
 * implemented: writing other than SAVE (no OPEN for writing, SCRATCH,
 * RENAME), REL file records (a REL file reads as its data
 * chain), GEOS VLIR files, non-standard directory tracks, 40-track BAM
 * extensions (blocks free counts tracks 1-35 as the stock 1541 does).
 *
 * Ownership: mh_d64_open() copies the image; the returned mh_d64 owns the
 * copy and the entries and is freed with mh_d64_free(). Pointers into it
 * (sectors, entries, names) live until then. Out-buffers (uint8_t **) are
 * malloc'ed; the caller frees them with free().
 *
 * Thread-safety: an mh_d64 is immutable after mh_d64_open() (a save
 * returns a new image, which the caller opens to replace the old); every
 * function here is [thread-safe].
 */
#ifndef MCPHOST_MEDIA_D64_H
#define MCPHOST_MEDIA_D64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mcphost/media.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_D64_SIZE_35 174848u         /* 683 sectors */
#define MH_D64_SIZE_35_ERRORS 175531u  /* + 683 error bytes */
#define MH_D64_SIZE_40 196608u         /* 768 sectors */
#define MH_D64_SIZE_40_ERRORS 197376u  /* + 768 error bytes */
#define MH_D64_SECTOR_SIZE 256u
#define MH_D64_MAX_SECTORS 768u
#define MH_D64_DIR_TRACK 18u
#define MH_D64_MAX_FILE_SIZE (MH_D64_MAX_SECTORS * 254u) /* a chain through every sector */

/* One directory entry (a slot whose type byte is not 0). */
typedef struct mh_d64_entry {
    unsigned index;            /* 0-based among the entries (messages count from 1) */
    unsigned slot;             /* 0-based slot in the directory chain, empty slots counted */
    uint8_t dir_track, dir_sector; /* the directory sector holding it */
    uint8_t type_byte;         /* raw: bits 0-2 type, bit 6 locked, bit 7 closed */
    mh_cbm_file_type type;     /* type_byte & 7 (5-7 are not valid types: "???") */
    bool closed;               /* bit 7: false is a "splat" file, listed as *PRG */
    bool locked;               /* bit 6: listed as PRG< */
    uint8_t track, sector;     /* first data block */
    uint8_t name_raw[16];      /* PETSCII as on disk, $A0 padded */
    uint8_t name_length;       /* bytes before the first $A0, 0-16 */
    char name[17];             /* mh_petscii_to_ascii() of those bytes, NUL-terminated */
    uint16_t blocks;           /* the block count stored in the entry (not trusted) */
    uint8_t rel_track, rel_sector, rel_record_length; /* REL side sectors, record length */
} mh_d64_entry;

/* A parsed image. All fields are read-only. */
typedef struct mh_d64 {
    const uint8_t *image;      /* the owned copy, image_size bytes */
    size_t image_size;
    unsigned tracks;           /* 35 or 40 */
    unsigned sectors;          /* 683 or 768 */
    const uint8_t *error_info; /* one code per sector in image order, or NULL */
    uint8_t dos_version;       /* BAM byte $02 ($41 'A' on a 1541 disk) */
    uint8_t name_raw[16];      /* disk name, PETSCII, $A0 padded (BAM $90-$9F) */
    char name[17];             /* its ASCII rendering up to the first $A0 */
    uint8_t id_raw[5];         /* BAM $A2-$A6: disk id, $A0, DOS type ("2A") */
    char id[6];                /* ASCII, $A0 shown as ' ': "ID 2A" */
    unsigned blocks_free;      /* BAM free counts of tracks 1-35 except 18 */
    const mh_d64_entry *entries; /* in directory order */
    size_t entry_count;
    char directory_error[256]; /* with MH_D64_OPEN_PARTIAL: why the directory
                                  chain ended early; "" when it did not */
} mh_d64;

/* mh_d64_open() flags. */
#define MH_D64_OPEN_PARTIAL 1u /* accept a damaged directory chain: keep the
                                  entries read before the fault and describe
                                  it in directory_error (a 1541 lists them too) */

/* Checks the size (one of the four), reads the BAM and the directory chain
 * from track 18 sector 1. Fails (NULL, err filled) on a wrong size, and on
 * a directory link outside the disk or a directory loop unless
 * MH_D64_OPEN_PARTIAL is given. Entries pointing at bad sectors do not
 * fail here: reading that file does. [thread-safe] */
mh_d64 *mh_d64_open(const uint8_t *bytes, size_t size, unsigned flags, mh_media_error *err);
void mh_d64_free(mh_d64 *d64);

/* Sectors on a track (1-40) of a 1541 disk; 0 for any other track. */
unsigned mh_d64_sectors_in_track(unsigned track);
/* Byte offset of track/sector in an image with `tracks` tracks (35 or 40);
 * SIZE_MAX when track or sector is outside that disk. */
size_t mh_d64_sector_offset(unsigned tracks, unsigned track, unsigned sector);
/* The 256 bytes of a sector, or NULL when it is not on the disk. */
const uint8_t *mh_d64_sector(const mh_d64 *d64, unsigned track, unsigned sector);
/* The error-info code of a sector (1 = no error, 0 is treated the same by
 * emulators, 2-11 the 1541 read errors 20-29); 1 when the image has no
 * error info; 0 when the sector is not on the disk. */
uint8_t mh_d64_sector_error(const mh_d64 *d64, unsigned track, unsigned sector);

/* The first entry whose name matches a CBM DOS pattern (mh_cbm_name_match,
 * any type, closed or not), or NULL. */
const mh_d64_entry *mh_d64_find(const mh_d64 *d64, const uint8_t *pattern, size_t length);

/* The bytes of a file, following its chain from the entry's first block:
 * 254 data bytes per block, the last block holds bytes 2..n where n is its
 * second link byte (a last block with n < 2 adds none). A PRG keeps its
 * 2-byte load address, as the drive sends it. Errors (MH_ERR_INVALID_ARGUMENT)
 * name the entry, the block and the bad link:
 *   D64: directory entry 3 ("GAME"): block 5 (track 17 sector 8) links to
 *   track 17 sector 0, already block 2 of the file (a loop)
 * The entry's block count is not trusted (the chain decides). */
mh_status mh_d64_read_file(const mh_d64 *d64, const mh_d64_entry *entry, uint8_t **data,
                           size_t *size, mh_media_error *err);
/* The same for a chain starting at any track/sector. */
mh_status mh_d64_read_chain(const mh_d64 *d64, unsigned track, unsigned sector, uint8_t **data,
                            size_t *size, mh_media_error *err);

/* The directory as LOAD"$",8 returns it: a BASIC program whose first two
 * bytes are load_address, with line links computed for that address (load
 * it at $0801 on a C64, $1001 on an unexpanded VIC-20 or a Plus/4; a real
 * 1541 sends $0401 and the C64 relinks it).
 * Lines: 0 RVS "DISK NAME" ID 2A; one 32-byte line per entry matching
 * pattern ("blocks "NAME" PRG<" as the 1541 prints it, '*' before the type
 * of a splat file); BLOCKS FREE. Names keep their PETSCII bytes ($A0 is
 * shown as a space as on the 1541; a $00, which would cut the BASIC line,
 * as '?'). pattern is a CBM DOS pattern with an optional "=T" type filter
 * (P, S, U, R, D); NULL or empty lists all. MH_ERR_LIMIT when the listing
 * would not end by $FFFF. */
mh_status mh_d64_directory(const mh_d64 *d64, uint16_t load_address, const uint8_t *pattern,
                           size_t length, uint8_t **program, size_t *size, mh_media_error *err);

/* What LOAD"NAME",8 gets from a 1541 holding this disk. NAME is PETSCII:
 *   "$", "$0", "$:PATTERN", "$0:PATTERN=P"  the directory (mh_d64_directory
 *                                           at dir_load_address);
 *   "0:NAME", ":NAME", "NAME"               the first entry of the requested
 *                                           type whose name matches (default
 *                                           PRG; a ",S", ",U", ",R" or ",P"
 *                                           suffix chooses the type).
 * The result starts with the file's load address. *entry (may be NULL) is
 * the entry loaded (NULL for the directory). MH_ERR_NOT_FOUND when nothing
 * matches (the drive's 62, FILE NOT FOUND); MH_ERR_STATE for a splat file
 * (60, WRITE FILE OPEN); chain errors as mh_d64_read_file(). */
mh_status mh_d64_load(const mh_d64 *d64, const uint8_t *name, size_t length,
                      uint16_t dir_load_address, uint8_t **data, size_t *size,
                      const mh_d64_entry **entry, mh_media_error *err);

/* Follows the chain of every closed entry that is not DEL and reports the
 * first problem: a bad link or loop (as mh_d64_read_file), a block on the
 * BAM (18/0) or on a directory sector, or a block another file uses too
 * ("cross-linked"). MH_OK when every file reads cleanly. */
mh_status mh_d64_validate(const mh_d64 *d64, mh_media_error *err);

/* What mh_d64_save() did, or which 1541 error it met. */
typedef struct mh_d64_save_result {
    unsigned dos_error;    /* 0, or the drive's error number: 33 SYNTAX ERROR (a
                            * pattern or REL type), 34 SYNTAX ERROR (no name),
                            * 63 FILE EXISTS, 72 DISK FULL */
    uint8_t track, sector; /* the file's first block */
    unsigned blocks;       /* blocks the file uses (the entry's count) */
    bool replaced;         /* "@0:NAME" replaced an existing file */
} mh_d64_save_result;

/* SAVE"NAME",8: writes size bytes (a PRG's two-byte load address first)
 * as a closed file into a copy of the image and returns the copy in
 * *image (malloc'ed, d64->image_size bytes, error info kept); the caller
 * opens it with mh_d64_open() to see the new disk. NAME is PETSCII as the
 * KERNAL sends it: "NAME", "0:NAME", "@0:NAME" or "@:NAME" (save and
 * replace: the existing file's entry gets the new chain and its old blocks
 * are freed; a name that does not exist is simply saved), an optional
 * ",P" (default), ",S" or ",U" suffix for the type; at most 16 characters
 * are kept, as on the drive. Errors, with nothing returned:
 *   MH_ERR_EXISTS (63) the name exists and no "@" was given;
 *   MH_ERR_LIMIT (72)  not enough free blocks for the whole file (checked
 *                      before anything is written; a replace needs room for
 *                      the new file before the old is freed, as on the
 *                      drive), or no free directory slot (144 entries);
 *   MH_ERR_INVALID_ARGUMENT (33/34) an empty name, * or ? in it, ",R";
 *   MH_ERR_INVALID_ARGUMENT (dos_error 0) a disk that cannot be written
 *                      safely: a damaged directory chain, a file chain that
 *                      mh_d64_validate() refuses, a BAM whose free counts
 *                      differ from its bitmaps or that marks a used sector
 *                      (BAM, directory, a file's block) free.
 * Allocation follows the 1541 (tracks nearest 18 first, interleave 10 for
 * files, 3 for directory sectors on track 18) on tracks 1-35 only, also on
 * a 40-track image. result (may be NULL) says where the file went. */
mh_status mh_d64_save(const mh_d64 *d64, const uint8_t *name, size_t length, const uint8_t *data,
                      size_t size, uint8_t **image, size_t *image_size,
                      mh_d64_save_result *result, mh_media_error *err);

#ifdef __cplusplus
}
#endif
#endif
