/* d64.c - 1541 disk images: geometry, sector access, the BAM and the
 * directory chain. */
#include "media_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* First track of each speed zone and its sector count. */
unsigned mh_d64_sectors_in_track(unsigned track)
{
    if (track < 1 || track > 40) return 0;
    if (track <= 17) return 21;
    if (track <= 24) return 19;
    if (track <= 30) return 18;
    return 17;
}

/* Sectors before track t (1-based). */
static size_t sectors_before(unsigned track)
{
    size_t n = 0;
    for (unsigned t = 1; t < track; t++) n += mh_d64_sectors_in_track(t);
    return n;
}

size_t mh_d64_sector_offset(unsigned tracks, unsigned track, unsigned sector)
{
    if ((tracks != 35 && tracks != 40) || track < 1 || track > tracks ||
        sector >= mh_d64_sectors_in_track(track))
        return SIZE_MAX;
    return (sectors_before(track) + sector) * MH_D64_SECTOR_SIZE;
}

const uint8_t *mh_d64_sector(const mh_d64 *d64, unsigned track, unsigned sector)
{
    if (!d64) return NULL;
    size_t off = mh_d64_sector_offset(d64->tracks, track, sector);
    return off == SIZE_MAX ? NULL : d64->image + off;
}

uint8_t mh_d64_sector_error(const mh_d64 *d64, unsigned track, unsigned sector)
{
    if (!d64) return 0;
    size_t off = mh_d64_sector_offset(d64->tracks, track, sector);
    if (off == SIZE_MAX) return 0;
    return d64->error_info ? d64->error_info[off / MH_D64_SECTOR_SIZE] : 1;
}

bool mh_media_i_d64_link_ok(unsigned tracks, unsigned track, unsigned sector, char *why,
                            size_t why_size)
{
    if (track == 0) {
        snprintf(why, why_size, "track 0 (tracks count from 1)");
        return false;
    }
    if (track > tracks) {
        snprintf(why, why_size, "track %u, the disk has %u tracks", track, tracks);
        return false;
    }
    unsigned n = mh_d64_sectors_in_track(track);
    if (sector >= n) {
        snprintf(why, why_size, "track %u sector %u, track %u has sectors 0-%u", track, sector,
                 track, n - 1);
        return false;
    }
    return true;
}

void mh_media_i_d64_entry_label(const mh_d64_entry *entry, char *buf, size_t size)
{
    snprintf(buf, size, "directory entry %u (\"%s\")", entry->index + 1, entry->name);
}

static void fill_entry(mh_d64_entry *e, const uint8_t *raw, unsigned index, unsigned slot,
                       unsigned track, unsigned sector)
{
    memset(e, 0, sizeof *e);
    e->index = index;
    e->slot = slot;
    e->dir_track = (uint8_t)track;
    e->dir_sector = (uint8_t)sector;
    e->type_byte = raw[2];
    e->type = (mh_cbm_file_type)(raw[2] & 7);
    e->closed = (raw[2] & 0x80) != 0;
    e->locked = (raw[2] & 0x40) != 0;
    e->track = raw[3];
    e->sector = raw[4];
    memcpy(e->name_raw, raw + 5, 16);
    e->name_length = (uint8_t)mh_petscii_name_length(e->name_raw, 16);
    mh_media_i_render(e->name, e->name_raw, e->name_length);
    e->rel_track = raw[0x15];
    e->rel_sector = raw[0x16];
    e->rel_record_length = raw[0x17];
    e->blocks = mh_media_i_le16(raw + 0x1e);
}

/* Walks the directory chain from 18/1, collecting entries. Returns MH_OK,
 * or an error with the message in err (entries read so far are kept). */
static mh_status read_directory(mh_media_i_d64 *impl, mh_d64_entry **entries, size_t *count,
                                mh_media_error *err)
{
    mh_d64 *d = &impl->pub;
    unsigned track = MH_D64_DIR_TRACK, sector = 1, number = 0, prev_track = 0, prev_sector = 0;
    size_t cap = 0;
    char why[96];
    while (track != 0) {
        size_t index = mh_d64_sector_offset(d->tracks, track, sector) / MH_D64_SECTOR_SIZE;
        uint16_t before = impl->dir_sector_of[index];
        if (before)
            return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                                   "D64: directory sector %u (track %u sector %u) links back to "
                                   "track %u sector %u, already directory sector %u (a loop)",
                                   number, prev_track, prev_sector, track, sector, before);
        impl->dir_sector_of[index] = (uint16_t)++number;
        const uint8_t *sec = d->image + index * MH_D64_SECTOR_SIZE;
        for (unsigned slot = 0; slot < 8; slot++) {
            const uint8_t *raw = sec + 32 * slot;
            if (raw[2] == 0) continue; /* empty or scratched */
            if (*count == cap) {
                size_t grow = cap ? cap * 2 : 32;
                mh_d64_entry *bigger = realloc(*entries, grow * sizeof **entries);
                if (!bigger) return mh_media_i_fail(err, MH_ERR_NO_MEMORY, "D64: out of memory");
                *entries = bigger;
                cap = grow;
            }
            fill_entry(&(*entries)[*count], raw, (unsigned)*count, (number - 1) * 8 + slot,
                       track, sector);
            (*count)++;
        }
        unsigned next_track = sec[0], next_sector = sec[1];
        if (next_track != 0 && !mh_media_i_d64_link_ok(d->tracks, next_track, next_sector, why,
                                                       sizeof why))
            return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                                   "D64: directory sector %u (track %u sector %u) links to %s",
                                   number, track, sector, why);
        prev_track = track;
        prev_sector = sector;
        track = next_track;
        sector = next_sector;
    }
    return MH_OK;
}

static void read_bam(mh_d64 *d)
{
    const uint8_t *bam = mh_d64_sector(d, MH_D64_DIR_TRACK, 0);
    d->dos_version = bam[2];
    memcpy(d->name_raw, bam + 0x90, 16);
    mh_media_i_render(d->name, d->name_raw, mh_petscii_name_length(d->name_raw, 16));
    memcpy(d->id_raw, bam + 0xa2, 5);
    mh_media_i_render(d->id, d->id_raw, 5);
    unsigned free_blocks = 0;
    for (unsigned t = 1; t <= 35; t++)
        if (t != MH_D64_DIR_TRACK) free_blocks += bam[4 * t];
    d->blocks_free = free_blocks;
}

mh_d64 *mh_d64_open(const uint8_t *bytes, size_t size, unsigned flags, mh_media_error *err)
{
    unsigned tracks;
    bool errors;
    switch (size) {
    case MH_D64_SIZE_35: tracks = 35; errors = false; break;
    case MH_D64_SIZE_35_ERRORS: tracks = 35; errors = true; break;
    case MH_D64_SIZE_40: tracks = 40; errors = false; break;
    case MH_D64_SIZE_40_ERRORS: tracks = 40; errors = true; break;
    default:
        mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                        "D64: %zu bytes is not a D64 size: 174848 (35 tracks), 175531 (35 "
                        "tracks + error info), 196608 (40 tracks) or 197376 (40 tracks + "
                        "error info)", size);
        return NULL;
    }
    if (!bytes) {
        mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT, "D64: no buffer given");
        return NULL;
    }
    mh_media_i_d64 *impl = calloc(1, sizeof *impl);
    uint8_t *copy = malloc(size);
    if (!impl || !copy) {
        free(impl);
        free(copy);
        mh_media_i_fail(err, MH_ERR_NO_MEMORY, "D64: out of memory");
        return NULL;
    }
    memcpy(copy, bytes, size);
    mh_d64 *d = &impl->pub;
    d->image = copy;
    d->image_size = size;
    d->tracks = tracks;
    d->sectors = tracks == 35 ? 683 : 768;
    d->error_info = errors ? copy + (size_t)d->sectors * MH_D64_SECTOR_SIZE : NULL;
    read_bam(d);

    mh_d64_entry *entries = NULL;
    size_t count = 0;
    mh_media_error dir_err;
    mh_status st = read_directory(impl, &entries, &count, &dir_err);
    d->entries = entries;
    d->entry_count = count;
    if (st != MH_OK) {
        if (st == MH_ERR_NO_MEMORY || !(flags & MH_D64_OPEN_PARTIAL)) {
            if (err) *err = dir_err;
            mh_d64_free(d);
            return NULL;
        }
        snprintf(d->directory_error, sizeof d->directory_error, "%s", dir_err.message);
    }
    mh_media_i_ok(err);
    return d;
}

void mh_d64_free(mh_d64 *d64)
{
    if (!d64) return;
    free((void *)d64->image);
    free((void *)d64->entries);
    free((mh_media_i_d64 *)d64);
}

const mh_d64_entry *mh_d64_find(const mh_d64 *d64, const uint8_t *pattern, size_t length)
{
    if (!d64) return NULL;
    for (size_t i = 0; i < d64->entry_count; i++) {
        const mh_d64_entry *e = &d64->entries[i];
        if (mh_cbm_name_match(pattern, length, e->name_raw, e->name_length)) return e;
    }
    return NULL;
}
