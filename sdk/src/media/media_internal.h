/* media_internal.h - what the mh_media library's files share: error
 * reporting, byte-order readers and name rendering. Not installed.
 *
 * Every non-static name here is prefixed mh_media_i_ because plugins link
 * this library statically next to their own code.
 */
#ifndef MH_MEDIA_INTERNAL_H
#define MH_MEDIA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mcphost/media.h"

#if defined(__GNUC__)
#define MH_MEDIA_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define MH_MEDIA_PRINTF(f, a)
/* ---- D64 ---------------------------------------------------------------- */

#include "mcphost/media_d64.h"

/* The allocation behind an mh_d64: the public part first. */
typedef struct mh_media_i_d64 {
    mh_d64 pub;
    uint16_t dir_sector_of[MH_D64_MAX_SECTORS]; /* 1-based directory sector number, 0: not one */
} mh_media_i_d64;

/* Whether track/sector is on a disk of `tracks` tracks; if not, describes
 * why into why ("track 41, the disk has 35 tracks"). */
bool mh_media_i_d64_link_ok(unsigned tracks, unsigned track, unsigned sector, char *why,
                            size_t why_size);

/* Reads the chain from track/sector. what names it in messages
 * ("directory entry 3 (\"GAME\")"). seen (d64->sectors entries, zeroed by
 * the caller) receives the 1-based block number of every sector used. */
mh_status mh_media_i_d64_chain(const mh_d64 *d64, unsigned track, unsigned sector,
                               const char *what, uint16_t *seen, uint8_t **data, size_t *size,
                               mh_media_error *err);

/* 'directory entry 3 ("GAME")' into buf. */
void mh_media_i_d64_entry_label(const mh_d64_entry *entry, char *buf, size_t size);

#endif

/* Fills err (if not NULL) and returns status. */
mh_status mh_media_i_fail(mh_media_error *err, mh_status status, const char *fmt, ...)
    MH_MEDIA_PRINTF(3, 4);
/* Clears err (if not NULL) to MH_OK and an empty message. */
void mh_media_i_ok(mh_media_error *err);

static inline uint16_t mh_media_i_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}

static inline uint32_t mh_media_i_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint16_t mh_media_i_be16(const uint8_t *p)
{
    return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static inline uint32_t mh_media_i_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* Renders n PETSCII bytes as printable ASCII into out (n + 1 bytes). */
void mh_media_i_render(char *out, const uint8_t *name, size_t n);

/* ---- D64 ---------------------------------------------------------------- */

#include "mcphost/media_d64.h"

/* The allocation behind an mh_d64: the public part first. */
typedef struct mh_media_i_d64 {
    mh_d64 pub;
    uint16_t dir_sector_of[MH_D64_MAX_SECTORS]; /* 1-based directory sector number, 0: not one */
} mh_media_i_d64;

/* Whether track/sector is on a disk of `tracks` tracks; if not, describes
 * why into why ("track 41, the disk has 35 tracks"). */
bool mh_media_i_d64_link_ok(unsigned tracks, unsigned track, unsigned sector, char *why,
                            size_t why_size);

/* Reads the chain from track/sector. what names it in messages
 * ("directory entry 3 (\"GAME\")"). seen (d64->sectors entries, zeroed by
 * the caller) receives the 1-based block number of every sector used. */
mh_status mh_media_i_d64_chain(const mh_d64 *d64, unsigned track, unsigned sector,
                               const char *what, uint16_t *seen, uint8_t **data, size_t *size,
                               mh_media_error *err);

/* 'directory entry 3 ("GAME")' into buf. */
void mh_media_i_d64_entry_label(const mh_d64_entry *entry, char *buf, size_t size);

#endif
