/* tests/unit/test_media_build.h - builders for the media suites: a small
 * D64 writer (BAM, directory in the 1541's sector order, files as
 * sequential sector chains), T64 and CRT images byte by byte, and a
 * deterministic PRNG for mutations. Geometry is computed here on its own,
 * not with the library under test. */
#ifndef MH_TEST_MEDIA_BUILD_H
#define MH_TEST_MEDIA_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- D64 ---- */

typedef struct tb_d64 {
    uint8_t *img;
    size_t size;
    unsigned tracks;
    unsigned dir_sectors;       /* directory sectors in use */
    unsigned entries;           /* slots used */
    unsigned next_track, next_sector; /* next free data sector */
} tb_d64;

/* Track offset in bytes, independent of mh_media. */
size_t tb_d64_offset(unsigned track, unsigned sector);
unsigned tb_d64_sectors(unsigned track);
/* A blank formatted disk: BAM with every sector free but 18/0 and 18/1,
 * name and id given in ASCII. */
void tb_d64_init(tb_d64 *b, unsigned tracks, bool error_info, const char *name, const char *id);
/* Writes a file as a chain of sequential sectors (skipping track 18) and a
 * directory entry; returns the 32-byte entry for tweaking. type_byte e.g.
 * 0x82 (closed PRG). blocks is what the chain really uses. */
uint8_t *tb_d64_add_file(tb_d64 *b, const char *name, uint8_t type_byte, const uint8_t *data,
                         size_t size);
uint8_t *tb_d64_sector(tb_d64 *b, unsigned track, unsigned sector);
void tb_d64_free(tb_d64 *b);

/* ---- T64 ---- */

typedef struct tb_t64_file {
    const char *name;
    uint16_t start;
    uint16_t end;            /* stored end address */
    const uint8_t *data;
    size_t size;             /* bytes stored in the container */
} tb_t64_file;

/* Header + max_slots directory slots + the files' data back to back. */
uint8_t *tb_t64_build(const char *signature, unsigned max_slots, const tb_t64_file *files,
                      size_t count, size_t *size);

/* ---- CRT ---- */

typedef struct tb_crt_chip {
    uint16_t type, bank, load, size;
    uint32_t packet_length;  /* 0: 16 + size */
    uint8_t fill;            /* data bytes are fill + index */
    bool no_data;            /* write no data bytes */
} tb_crt_chip;

uint8_t *tb_crt_build(uint16_t hw_type, uint8_t exrom, uint8_t game, const char *name,
                      const tb_crt_chip *chips, size_t count, size_t *size);

/* ---- misc ---- */

uint32_t tb_rand(uint32_t *state);
/* A heap copy of exactly n bytes (so ASan sees reads past the end). */
uint8_t *tb_dup(const uint8_t *p, size_t n);

#endif
