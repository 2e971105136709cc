/* d64_write.c - SAVE onto a D64 image as a 1541's DOS lays a file out
 * (mcphost/media_d64.h: mh_d64_save).
 *
 * The image is never changed in place: the file goes into a copy, which is
 * returned only when everything fit, so a refused save leaves nothing
 * half-written. Before anything is allocated the disk is checked (the
 * directory chain, every file's chain, the BAM's counts against its
 * bitmaps, and every sector in use marked used), because the allocator
 * trusts the BAM: a BAM that calls a used sector free would let a save
 * overwrite another file.
 *
 * Layout (the 1541's, as described in Joe Forster's "Disk File Layout" and
 * followed by VICE's virtual drive):
 *   - the first block: the track nearest the directory track with a free
 *     sector, 17 before 19, then 16, 20, ...; its first free sector;
 *   - the next blocks: the sector 10 further on (past the track's end the
 *     count wraps and, when not 0, is lowered by one), else the next free
 *     one after it; a full track moves on outward (towards track 1 below
 *     18, towards 35 above) and past the edge to the other half, starting
 *     at sector 0 next to the directory track;
 *   - a new directory sector: track 18, 3 sectors after the last one, by
 *     the same rule.
 * Only tracks 1-35 are allocated, also on a 40-track image, as a stock
 * 1541 does (its BAM has no room for tracks 36-40).
 */
#include "media_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BAM_TRACKS 35u           /* the tracks the 1541's BAM describes */
#define FILE_INTERLEAVE 10u
#define DIR_INTERLEAVE 3u
#define DIR_SECTORS_MAX 18u      /* track 18 less the BAM: 144 entries */
#define ENTRY_SIZE 32u

/* ---- the BAM of the copy being written (track 18 sector 0) ---- */

static uint8_t *bam_track(uint8_t *bam, unsigned track) { return bam + 4u * track; }

static unsigned bam_bits(const uint8_t *bam, unsigned track)
{
    const uint8_t *e = bam + 4u * track;
    return (unsigned)e[1] | (unsigned)e[2] << 8 | (unsigned)e[3] << 16;
}

static unsigned popcount24(unsigned v)
{
    unsigned n = 0;
    for (; v; v &= v - 1) n++;
    return n;
}

static int bam_is_free(const uint8_t *bam, unsigned track, unsigned sector)
{
    return (bam_bits(bam, track) >> sector) & 1u;
}

static void bam_use(uint8_t *bam, unsigned track, unsigned sector)
{
    uint8_t *e = bam_track(bam, track);
    e[1 + sector / 8] = (uint8_t)(e[1 + sector / 8] & ~(1u << (sector % 8)));
    e[0] = (uint8_t)(e[0] - 1);
}

static void bam_release(uint8_t *bam, unsigned track, unsigned sector)
{
    uint8_t *e = bam_track(bam, track);
    e[1 + sector / 8] = (uint8_t)(e[1 + sector / 8] | 1u << (sector % 8));
    e[0] = (uint8_t)(e[0] + 1);
}

static unsigned free_data_blocks(const uint8_t *bam)
{
    unsigned n = 0;
    for (unsigned t = 1; t <= BAM_TRACKS; t++)
        if (t != MH_D64_DIR_TRACK) n += popcount24(bam_bits(bam, t));
    return n;
}

/* The first free sector of track from `from` on, wrapping; -1 when full. */
static int free_from(const uint8_t *bam, unsigned track, unsigned from)
{
    unsigned n = mh_d64_sectors_in_track(track);
    for (unsigned i = 0; i < n; i++) {
        unsigned s = (from + i) % n;
        if (bam_is_free(bam, track, s)) return (int)s;
    }
    return -1;
}

/* sector + interleave on a track of n sectors, wrapped the 1541's way. */
static unsigned step_sector(unsigned sector, unsigned interleave, unsigned n)
{
    sector += interleave;
    if (sector >= n) {
        sector -= n;
        if (sector > 0) sector--;
    }
    return sector % n;
}

static int first_block(uint8_t *bam, unsigned *track, unsigned *sector)
{
    for (unsigned d = 1; d < BAM_TRACKS; d++) {
        unsigned candidates[2] = {MH_D64_DIR_TRACK - d, MH_D64_DIR_TRACK + d};
        for (unsigned i = 0; i < 2; i++) {
            unsigned t = candidates[i];
            if (t < 1 || t > BAM_TRACKS) continue;
            int s = free_from(bam, t, 0);
            if (s < 0) continue;
            *track = t;
            *sector = (unsigned)s;
            bam_use(bam, t, (unsigned)s);
            return 1;
        }
    }
    return 0;
}

/* The block after track/sector. Every track is looked at at most twice, so
 * this ends; the caller checked there is a free block. */
static int next_block(uint8_t *bam, unsigned *track, unsigned *sector)
{
    unsigned t = *track, s = *sector;
    for (unsigned guard = 0; guard < 2 * BAM_TRACKS + 2; guard++) {
        if (popcount24(bam_bits(bam, t))) {
            int found = free_from(bam, t, step_sector(s, FILE_INTERLEAVE, mh_d64_sectors_in_track(t)));
            if (found >= 0) {
                *track = t;
                *sector = (unsigned)found;
                bam_use(bam, t, (unsigned)found);
                return 1;
            }
        }
        if (t < MH_D64_DIR_TRACK) {
            if (--t == 0) { t = MH_D64_DIR_TRACK + 1; s = 0; }
        } else if (++t > BAM_TRACKS) {
            t = MH_D64_DIR_TRACK - 1;
            s = 0;
        }
    }
    return 0;
}

/* ---- checking the disk before writing ---- */

static void sector_of_index(size_t index, unsigned *track, unsigned *sector)
{
    unsigned t = 1;
    size_t first = 0;
    while (first + mh_d64_sectors_in_track(t) <= index) first += mh_d64_sectors_in_track(t++);
    *track = t;
    *sector = (unsigned)(index - first);
}

/* Every track's free count equals its bitmap, no bit names a sector past
 * the track's end, and every sector in use (`used`, one flag per sector)
 * is marked used. */
static mh_status check_bam(const mh_d64 *d64, const uint8_t *bam, const uint8_t *used,
                           const char *why_used, mh_media_error *err)
{
    for (unsigned t = 1; t <= BAM_TRACKS; t++) {
        unsigned n = mh_d64_sectors_in_track(t), bits = bam_bits(bam, t);
        if (bits >> n)
            return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                                   "D64: the BAM of track %u marks sectors free past its %u "
                                   "sectors (bitmap $%06X); the disk is not written",
                                   t, n, bits);
        if (bam[4u * t] != popcount24(bits))
            return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                                   "D64: the BAM of track %u counts %u free sectors but its "
                                   "bitmap has %u; the disk is not written",
                                   t, bam[4u * t], popcount24(bits));
    }
    for (size_t i = 0; i < d64->sectors; i++) {
        unsigned t, s;
        sector_of_index(i, &t, &s);
        if (used[i] && t <= BAM_TRACKS && bam_is_free(bam, t, s))
            return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                                   "D64: the BAM marks track %u sector %u free, but %s uses it; "
                                   "the disk is not written",
                                   t, s, why_used + i * 64);
    }
    return MH_OK;
}

/* The directory chain from 18/1 in order (at most DIR_SECTORS_MAX + the
 * disk's sectors, loops refused). */
static mh_status directory_chain(const mh_d64 *d64, unsigned *tracks, unsigned *sectors,
                                 unsigned *count, uint8_t *seen, mh_media_error *err)
{
    unsigned t = MH_D64_DIR_TRACK, s = 1, n = 0;
    char why[96];
    while (t != 0) {
        if (!mh_media_i_d64_link_ok(d64->tracks, t, s, why, sizeof why))
            return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                                   "D64: directory sector %u links to %s; the disk is not written",
                                   n, why);
        size_t index = mh_d64_sector_offset(d64->tracks, t, s) / MH_D64_SECTOR_SIZE;
        if (seen[index])
            return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                                   "D64: the directory chain loops at track %u sector %u; the "
                                   "disk is not written", t, s);
        seen[index] = 1;
        tracks[n] = t;
        sectors[n] = s;
        n++;
        const uint8_t *sec = mh_d64_sector(d64, t, s);
        t = sec[0];
        s = sec[1];
    }
    *count = n;
    return MH_OK;
}

/* ---- the name SAVE was given ---- */

typedef struct save_name {
    const uint8_t *name;
    size_t length;
    int replace;            /* "@0:" / "@:" */
    mh_cbm_file_type type;  /* PRG unless ",S" / ",U" */
} save_name;

static mh_status parse_name(const uint8_t *raw, size_t length, save_name *out, unsigned *dos,
                            mh_media_error *err)
{
    out->replace = 0;
    out->type = MH_CBM_PRG;
    size_t i = 0;
    if (length > 0 && raw[0] == '@') {
        size_t j = 1;
        while (j < length && raw[j] >= '0' && raw[j] <= '9') j++;
        if (j < length && raw[j] == ':') {
            out->replace = 1;
            i = j + 1;
        }
    } else {
        size_t j = 0;
        while (j < length && raw[j] >= '0' && raw[j] <= '9') j++;
        if (j < length && raw[j] == ':') i = j + 1;
    }
    size_t end = length;
    for (size_t j = i; j < length; j++) {
        if (raw[j] != ',') continue;
        end = j;
        uint8_t letter = j + 1 < length ? raw[j + 1] : 0;
        if (letter == 'S') out->type = MH_CBM_SEQ;
        else if (letter == 'U') out->type = MH_CBM_USR;
        else if (letter != 'P' && letter != 0) {
            *dos = 33;
            return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                                   "D64: a file can only be saved as PRG, SEQ or USR (the "
                                   "drive answers 33, SYNTAX ERROR)");
        }
        break;
    }
    out->name = raw + i;
    out->length = end - i > 16 ? 16 : end - i; /* the drive keeps 16 characters */
    if (out->length == 0) {
        *dos = 34;
        return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                               "D64: no file name to save under (the drive answers 34, SYNTAX ERROR)");
    }
    for (size_t j = 0; j < out->length; j++)
        if (out->name[j] == '*' || out->name[j] == '?') {
            *dos = 33;
            return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                                   "D64: a file cannot be saved under a pattern with * or ? (the "
                                   "drive answers 33, SYNTAX ERROR)");
        }
    return MH_OK;
}

static const mh_d64_entry *find_exact(const mh_d64 *d64, const save_name *n)
{
    for (size_t i = 0; i < d64->entry_count; i++) {
        const mh_d64_entry *e = &d64->entries[i];
        if (e->name_length == n->length && memcmp(e->name_raw, n->name, n->length) == 0) return e;
    }
    return NULL;
}

/* ---- the save ---- */

typedef struct disk_check {
    uint8_t *used;      /* one flag per sector */
    char *why_used;     /* 64 bytes per sector: who uses it */
    unsigned dir_tracks[MH_D64_MAX_SECTORS], dir_sectors[MH_D64_MAX_SECTORS];
    unsigned dir_count;
} disk_check;

static void mark_used(disk_check *c, size_t index, const char *who)
{
    c->used[index] = 1;
    snprintf(c->why_used + index * 64, 64, "%s", who);
}

static mh_status check_disk(const mh_d64 *d64, disk_check *c, mh_media_error *err)
{
    if (d64->directory_error[0])
        return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                               "D64: the directory is damaged (%s); the disk is not written",
                               d64->directory_error);
    mh_media_error verr;
    if (mh_d64_validate(d64, &verr) != MH_OK)
        return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT, "%s; the disk is not written",
                               verr.message);
    memset(c->used, 0, d64->sectors);
    mh_status st = directory_chain(d64, c->dir_tracks, c->dir_sectors, &c->dir_count, c->used, err);
    if (st != MH_OK) return st;
    for (unsigned i = 0; i < c->dir_count; i++) {
        char who[64];
        snprintf(who, sizeof who, "directory sector %u", i + 1);
        mark_used(c, mh_d64_sector_offset(d64->tracks, c->dir_tracks[i], c->dir_sectors[i]) /
                         MH_D64_SECTOR_SIZE, who);
    }
    mark_used(c, mh_d64_sector_offset(d64->tracks, MH_D64_DIR_TRACK, 0) / MH_D64_SECTOR_SIZE,
              "the BAM");
    uint16_t *seen = calloc(d64->sectors, sizeof *seen);
    if (!seen) return mh_media_i_fail(err, MH_ERR_NO_MEMORY, "D64: out of memory");
    for (size_t i = 0; i < d64->entry_count; i++) {
        const mh_d64_entry *e = &d64->entries[i];
        if (!e->closed || e->type == MH_CBM_DEL) continue; /* as mh_d64_validate */
        char what[64];
        mh_media_i_d64_entry_label(e, what, sizeof what);
        memset(seen, 0, d64->sectors * sizeof *seen);
        uint8_t *data = NULL;
        size_t size = 0;
        st = mh_media_i_d64_chain(d64, e->track, e->sector, what, seen, &data, &size, err);
        free(data);
        if (st != MH_OK) break;
        for (size_t s = 0; s < d64->sectors; s++)
            if (seen[s]) mark_used(c, s, what);
    }
    free(seen);
    if (st != MH_OK) return st;
    return check_bam(d64, d64->image + mh_d64_sector_offset(d64->tracks, MH_D64_DIR_TRACK, 0),
                     c->used, c->why_used, err);
}

/* A free directory slot: sector index into c's chain and slot 0-7; or a
 * new sector linked after the last (sector index == dir_count then). */
static int find_slot(uint8_t *img, const mh_d64 *d64, disk_check *c, uint8_t *bam,
                     unsigned *dir_index, unsigned *slot)
{
    for (unsigned i = 0; i < c->dir_count; i++) {
        const uint8_t *sec = img + mh_d64_sector_offset(d64->tracks, c->dir_tracks[i], c->dir_sectors[i]);
        for (unsigned k = 0; k < 8; k++)
            if (sec[k * ENTRY_SIZE + 2] == 0) {
                *dir_index = i;
                *slot = k;
                return 1;
            }
    }
    if (c->dir_count >= DIR_SECTORS_MAX) return 0;
    unsigned last_t = c->dir_tracks[c->dir_count - 1], last_s = c->dir_sectors[c->dir_count - 1];
    unsigned n = mh_d64_sectors_in_track(MH_D64_DIR_TRACK);
    unsigned from = last_t == MH_D64_DIR_TRACK ? step_sector(last_s, DIR_INTERLEAVE, n) : 1;
    int s = free_from(bam, MH_D64_DIR_TRACK, from);
    if (s < 0) return 0;
    bam_use(bam, MH_D64_DIR_TRACK, (unsigned)s);
    uint8_t *prev = img + mh_d64_sector_offset(d64->tracks, last_t, last_s);
    prev[0] = MH_D64_DIR_TRACK;
    prev[1] = (uint8_t)s;
    uint8_t *sec = img + mh_d64_sector_offset(d64->tracks, MH_D64_DIR_TRACK, (unsigned)s);
    memset(sec, 0, MH_D64_SECTOR_SIZE);
    sec[1] = 0xff;
    c->dir_tracks[c->dir_count] = MH_D64_DIR_TRACK;
    c->dir_sectors[c->dir_count] = (unsigned)s;
    *dir_index = c->dir_count++;
    *slot = 0;
    return 1;
}

/* Writes the chain into img; the caller checked the blocks are free. */
static void write_chain(uint8_t *img, const mh_d64 *d64, uint8_t *bam, const uint8_t *data,
                        size_t size, unsigned blocks, unsigned *first_t, unsigned *first_s)
{
    unsigned t = 0, s = 0;
    first_block(bam, &t, &s);
    *first_t = t;
    *first_s = s;
    size_t done = 0;
    for (unsigned b = 0; b < blocks; b++) {
        uint8_t *sec = img + mh_d64_sector_offset(d64->tracks, t, s);
        size_t n = size - done > 254 ? 254 : size - done;
        memset(sec, 0, MH_D64_SECTOR_SIZE);
        if (n) memcpy(sec + 2, data + done, n);
        done += n;
        if (b + 1 == blocks) {
            sec[0] = 0;
            sec[1] = (uint8_t)(n + 1); /* the last byte used */
        } else {
            next_block(bam, &t, &s);
            sec[0] = (uint8_t)t;
            sec[1] = (uint8_t)s;
        }
    }
}

static void release_chain(uint8_t *bam, const mh_d64 *d64, const mh_d64_entry *old)
{
    uint16_t *seen = calloc(d64->sectors, sizeof *seen);
    if (!seen) return; /* the old blocks stay allocated: nothing is lost */
    uint8_t *data = NULL;
    size_t size = 0;
    if (mh_media_i_d64_chain(d64, old->track, old->sector, "the replaced file", seen, &data,
                             &size, NULL) == MH_OK) {
        for (size_t i = 0; i < d64->sectors; i++) {
            unsigned t, s;
            sector_of_index(i, &t, &s);
            if (seen[i] && t <= BAM_TRACKS && t != MH_D64_DIR_TRACK && !bam_is_free(bam, t, s))
                bam_release(bam, t, s);
        }
    }
    free(data);
    free(seen);
}

static void write_entry(uint8_t *e, const save_name *n, unsigned t, unsigned s, unsigned blocks)
{
    memset(e + 2, 0, ENTRY_SIZE - 2); /* bytes 0-1 of slot 0 are the sector's link */
    e[2] = (uint8_t)(0x80 | n->type);
    e[3] = (uint8_t)t;
    e[4] = (uint8_t)s;
    memset(e + 5, 0xa0, 16);
    memcpy(e + 5, n->name, n->length);
    e[30] = (uint8_t)(blocks & 0xff);
    e[31] = (uint8_t)(blocks >> 8);
}

static mh_status save_into(const mh_d64 *d64, const save_name *n, const uint8_t *data,
                           size_t size, disk_check *c, uint8_t *img, mh_d64_save_result *r,
                           mh_media_error *err)
{
    char shown[20];
    mh_media_i_render(shown, n->name, n->length);
    uint8_t *bam = img + mh_d64_sector_offset(d64->tracks, MH_D64_DIR_TRACK, 0);
    const mh_d64_entry *old = find_exact(d64, n);
    if (old && !n->replace) {
        r->dos_error = 63;
        return mh_media_i_fail(err, MH_ERR_EXISTS,
                               "D64: \"%s\" exists (the drive answers 63, FILE EXISTS; \"@0:%s\" "
                               "replaces it)", shown, shown);
    }
    size_t blocks = size == 0 ? 1 : (size + 253) / 254;
    unsigned available = free_data_blocks(bam);
    if (blocks > available) {
        r->dos_error = 72;
        return mh_media_i_fail(err, MH_ERR_LIMIT,
                               "D64: \"%s\" needs %zu blocks, the disk has %u free (the drive "
                               "answers 72, DISK FULL); the disk is unchanged",
                               shown, blocks, available);
    }
    unsigned dir_index = 0, slot = 0;
    uint8_t *entry;
    if (old) {
        unsigned k = old->slot;
        dir_index = k / 8;
        slot = k % 8;
    } else if (!find_slot(img, d64, c, bam, &dir_index, &slot)) {
        r->dos_error = 72;
        return mh_media_i_fail(err, MH_ERR_LIMIT,
                               "D64: the directory is full (%zu entries; the drive answers 72, "
                               "DISK FULL); the disk is unchanged", d64->entry_count);
    }
    if (dir_index >= c->dir_count)
        return mh_media_i_fail(err, MH_ERR_INTERNAL, "D64: directory slot %u not in the chain",
                               dir_index * 8 + slot);
    entry = img + mh_d64_sector_offset(d64->tracks, c->dir_tracks[dir_index],
                                       c->dir_sectors[dir_index]) + slot * ENTRY_SIZE;
    unsigned t, s;
    write_chain(img, d64, bam, data, size, (unsigned)blocks, &t, &s);
    /* Only a closed file's chain was validated (no loops, no blocks shared
     * with another file); a splat or DEL entry's old blocks stay allocated
     * rather than risk freeing someone else's. */
    if (old && old->closed && old->type != MH_CBM_DEL) release_chain(bam, d64, old);
    write_entry(entry, n, t, s, (unsigned)blocks);
    r->track = (uint8_t)t;
    r->sector = (uint8_t)s;
    r->blocks = (unsigned)blocks;
    r->replaced = old != NULL;
    return MH_OK;
}

mh_status mh_d64_save(const mh_d64 *d64, const uint8_t *name, size_t length, const uint8_t *data,
                      size_t size, uint8_t **image, size_t *image_size,
                      mh_d64_save_result *result, mh_media_error *err)
{
    mh_d64_save_result local;
    mh_d64_save_result *r = result ? result : &local;
    memset(r, 0, sizeof *r);
    if (!d64 || !image || !image_size || (!name && length) || (!data && size))
        return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                               "D64: no image, name, data or result pointer given");
    *image = NULL;
    *image_size = 0;
    save_name n = {0};
    mh_status st = parse_name(name, length, &n, &r->dos_error, err);
    if (st != MH_OK) return st;
    disk_check *c = calloc(1, sizeof *c);
    uint8_t *img = malloc(d64->image_size);
    if (c) c->used = malloc(d64->sectors);
    if (c) c->why_used = calloc(d64->sectors, 64);
    if (!c || !img || !c->used || !c->why_used) {
        st = mh_media_i_fail(err, MH_ERR_NO_MEMORY, "D64: out of memory");
    } else {
        st = check_disk(d64, c, err);
        if (st == MH_OK) {
            memcpy(img, d64->image, d64->image_size);
            st = save_into(d64, &n, data, size, c, img, r, err);
        }
    }
    if (c) {
        free(c->used);
        free(c->why_used);
        free(c);
    }
    if (st != MH_OK) {
        free(img);
        return st;
    }
    *image = img;
    *image_size = d64->image_size;
    mh_media_i_ok(err);
    return MH_OK;
}
