/* mcphost/media.h - the SDK's Commodore media-image parsers, common part
 * (static library mh_media, link target mcphost::media).
 *
 * Offers:
 *   - mh_media_error: what failed and where, filled by every parser:
 *         "D64: directory entry 9 ("GAME") points to track 41, the disk has 35 tracks"
 *   - mh_prg_parse(): a PRG file (2-byte little-endian load address + data);
 *   - mh_media_detect(): which format some bytes are (content first, then
 *     the file name's extension);
 *   - mh_media_load_file(): the one function that touches the file system,
 *     reading a whole file with a size cap;
 *   - PETSCII helpers and CBM DOS file-name matching ('*' and '?').
 * The container formats have their own headers, each including this one:
 * mcphost/media_d64.h (1541 disk images), mcphost/media_t64.h (T64 tape
 * archives), mcphost/media_crt.h (C64 cartridges). docs/media.md lists
 * every check and error message.
 *
 * Every parser treats its input as hostile: it reads only inside the
 * buffer it was given, every loop is bounded by the input's size, every
 * link and offset is checked before use, and a bad input gives an error,
 * never a crash, undefined behaviour or an endless loop (libFuzzer target
 * tests/fuzz/fuzz_media.c).
 *
 * Ownership: input buffers are borrowed for the duration of the call
 * unless a function says it keeps a pointer (mh_prg points into them).
 * Parsed images (mh_d64, mh_t64, mh_crt) own a copy of their input and
 * are released with their _free() function. Every uint8_t ** out-buffer
 * is malloc'ed and freed by the caller with free().
 *
 * Thread-safety: no global mutable state. Every function is
 * [thread-safe] on distinct objects; a parsed image is immutable and may
 * be read from any number of threads at once.
 */
#ifndef MCPHOST_MEDIA_H
#define MCPHOST_MEDIA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Errors ----------------------------------------------------------- */

/* Why a call failed. Every function taking one accepts NULL. On success
 * status is MH_OK and message is empty. */
typedef struct mh_media_error {
    mh_status status;  /* MH_ERR_INVALID_ARGUMENT: malformed input;
                          MH_ERR_NOT_FOUND: no such file in the image;
                          MH_ERR_LIMIT: a size or count limit;
                          MH_ERR_STATE: the file exists but cannot be read
                          (a D64 "splat" file); MH_ERR_IO; MH_ERR_NO_MEMORY */
    char message[256]; /* starts with the format: "D64: ", "T64: ", "CRT: ", "PRG: " */
} mh_media_error;

/* ---- PRG -------------------------------------------------------------- */

typedef struct mh_prg {
    uint16_t load_address; /* the first two bytes, little-endian */
    uint32_t end_address;  /* load_address + size: one past the last byte, <= 0x10000 */
    const uint8_t *data;   /* borrowed: points into the caller's bytes (offset 2) */
    size_t size;           /* data bytes, >= 1 */
} mh_prg;

/* Checks a PRG: at least 3 bytes (an address and one data byte), and the
 * data ends at or before $FFFF. Fills *prg (its data points into bytes).
 * Returns MH_OK or MH_ERR_INVALID_ARGUMENT. [thread-safe] */
mh_status mh_prg_parse(const uint8_t *bytes, size_t size, mh_prg *prg, mh_media_error *err);

/* ---- Detection and loading -------------------------------------------- */

typedef enum mh_media_kind {
    MH_MEDIA_UNKNOWN = 0,
    MH_MEDIA_PRG,
    MH_MEDIA_D64,
    MH_MEDIA_T64,
    MH_MEDIA_CRT
} mh_media_kind;

/* Guesses the format: a CRT or T64 signature, then one of the four D64
 * sizes, then the extension of name (".prg", ".d64", ".t64", ".crt", any
 * case; name may be NULL). A guess, not a check: parse to validate.
 * [thread-safe] */
mh_media_kind mh_media_detect(const char *name, const uint8_t *bytes, size_t size);
/* "PRG", "D64", "T64", "CRT" or "unknown". [thread-safe] */
const char *mh_media_kind_name(mh_media_kind kind);

#define MH_MEDIA_DEFAULT_MAX_FILE_SIZE (64u * 1024u * 1024u)

/* Reads the whole file at path into a malloc'ed buffer (*bytes, *size;
 * free() it). max_size 0 means MH_MEDIA_DEFAULT_MAX_FILE_SIZE; a longer
 * file is refused with MH_ERR_LIMIT. Only a regular file is read: a FIFO,
 * device or directory is refused (MH_ERR_INVALID_ARGUMENT) without blocking,
 * also when one replaced the file after the caller checked the path.
 * Errors: MH_ERR_IO (names the path and the OS error), MH_ERR_LIMIT,
 * MH_ERR_NO_MEMORY, MH_ERR_INVALID_ARGUMENT. [thread-safe] */
mh_status mh_media_load_file(const char *path, size_t max_size, uint8_t **bytes, size_t *size,
                             mh_media_error *err);

/* ---- PETSCII and CBM file names --------------------------------------- */

/* CBM DOS file types (the low three bits of a directory type byte). */
typedef enum mh_cbm_file_type {
    MH_CBM_DEL = 0,
    MH_CBM_SEQ = 1,
    MH_CBM_PRG = 2,
    MH_CBM_USR = 3,
    MH_CBM_REL = 4
} mh_cbm_file_type;

/* "DEL", "SEQ", "PRG", "USR", "REL"; "???" for 5-7 and anything else. */
const char *mh_cbm_file_type_name(unsigned type);

/* A printable ASCII character for one PETSCII byte, as the C64 shows it
 * after power-on (upper case/graphics set): $20-$5B, $5D the same, $5E '^',
 * $41-$5A 'A'-'Z', shifted letters ($61-$7A, $C1-$DA) 'a'-'z', shifted
 * space $A0 ' '; anything else '?' (so a rendered name used as a CBM DOS
 * pattern still matches the original). [thread-safe] */
char mh_petscii_to_ascii(uint8_t c);

/* The PETSCII byte a C64 in its power-on mode produces for an ASCII
 * character: ' '-'@', '[', ']' the same, 'A'-'Z' and 'a'-'z' both
 * $41-$5A, '^' $5E. -1 for characters with no such byte. [thread-safe] */
int mh_petscii_from_ascii(char c);

/* Length of a $A0-padded name: the bytes before the first $A0, at most
 * max. [thread-safe] */
size_t mh_petscii_name_length(const uint8_t *name, size_t max);

/* CBM DOS name matching: '*' matches the rest of the name (anything after
 * it in the pattern is ignored), '?' any one character, every other byte
 * itself; without a '*' the lengths must be equal. An empty pattern
 * matches nothing. Bytes are compared as they are (PETSCII). [thread-safe] */
bool mh_cbm_name_match(const uint8_t *pattern, size_t pattern_length, const uint8_t *name,
                       size_t name_length);

#ifdef __cplusplus
}
#endif
#endif
