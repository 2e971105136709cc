/* d64_chain.c - following sector chains: reading files, checking them all. */
#include "media_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

mh_status mh_media_i_d64_chain(const mh_d64 *d64, unsigned track, unsigned sector,
                               const char *what, uint16_t *seen, uint8_t **data, size_t *size,
                               mh_media_error *err)
{
    char why[96];
    if (!mh_media_i_d64_link_ok(d64->tracks, track, sector, why, sizeof why))
        return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT, "D64: %s points to %s", what, why);
    /* Every block is a distinct sector, so a chain holds at most
     * d64->sectors blocks and this buffer always suffices. */
    uint8_t *out = malloc((size_t)d64->sectors * 254u);
    if (!out) return mh_media_i_fail(err, MH_ERR_NO_MEMORY, "D64: out of memory");
    size_t len = 0;
    unsigned block = 0;
    for (;;) {
        size_t index = mh_d64_sector_offset(d64->tracks, track, sector) / MH_D64_SECTOR_SIZE;
        seen[index] = (uint16_t)++block;
        const uint8_t *sec = d64->image + index * MH_D64_SECTOR_SIZE;
        unsigned next_track = sec[0], next_sector = sec[1];
        if (next_track == 0) {
            /* Last block: bytes 2..next_sector are used. */
            if (next_sector >= 2) {
                memcpy(out + len, sec + 2, next_sector - 1u);
                len += next_sector - 1u;
            }
            break;
        }
        memcpy(out + len, sec + 2, 254);
        len += 254;
        if (!mh_media_i_d64_link_ok(d64->tracks, next_track, next_sector, why, sizeof why)) {
            free(out);
            return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                                   "D64: %s: block %u (track %u sector %u) links to %s", what,
                                   block, track, sector, why);
        }
        size_t next = mh_d64_sector_offset(d64->tracks, next_track, next_sector) /
                      MH_D64_SECTOR_SIZE;
        if (seen[next]) {
            free(out);
            return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                                   "D64: %s: block %u (track %u sector %u) links to track %u "
                                   "sector %u, already block %u of the chain (a loop)",
                                   what, block, track, sector, next_track, next_sector,
                                   seen[next]);
        }
        track = next_track;
        sector = next_sector;
    }
    uint8_t *fit = realloc(out, len ? len : 1);
    *data = fit ? fit : out;
    *size = len;
    mh_media_i_ok(err);
    return MH_OK;
}

static mh_status read_checked(const mh_d64 *d64, unsigned track, unsigned sector,
                              const char *what, uint8_t **data, size_t *size, mh_media_error *err)
{
    if (!d64 || !data || !size)
        return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT, "D64: no image or result pointer given");
    *data = NULL;
    *size = 0;
    uint16_t *seen = calloc(d64->sectors, sizeof *seen);
    if (!seen) return mh_media_i_fail(err, MH_ERR_NO_MEMORY, "D64: out of memory");
    mh_status st = mh_media_i_d64_chain(d64, track, sector, what, seen, data, size, err);
    free(seen);
    return st;
}

mh_status mh_d64_read_file(const mh_d64 *d64, const mh_d64_entry *entry, uint8_t **data,
                           size_t *size, mh_media_error *err)
{
    if (!entry)
        return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT, "D64: no directory entry given");
    char what[64];
    mh_media_i_d64_entry_label(entry, what, sizeof what);
    return read_checked(d64, entry->track, entry->sector, what, data, size, err);
}

mh_status mh_d64_read_chain(const mh_d64 *d64, unsigned track, unsigned sector, uint8_t **data,
                            size_t *size, mh_media_error *err)
{
    char what[64];
    snprintf(what, sizeof what, "the chain from track %u sector %u", track, sector);
    return read_checked(d64, track, sector, what, data, size, err);
}

mh_status mh_d64_validate(const mh_d64 *d64, mh_media_error *err)
{
    if (!d64) return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT, "D64: no image given");
    const mh_media_i_d64 *impl = (const mh_media_i_d64 *)d64;
    size_t n = d64->sectors;
    uint16_t *seen = malloc(n * sizeof *seen);
    uint32_t *owner = calloc(n, sizeof *owner); /* entry index + 1 */
    if (!seen || !owner) {
        free(seen);
        free(owner);
        return mh_media_i_fail(err, MH_ERR_NO_MEMORY, "D64: out of memory");
    }
    size_t bam = mh_d64_sector_offset(d64->tracks, MH_D64_DIR_TRACK, 0) / MH_D64_SECTOR_SIZE;
    mh_status st = MH_OK;
    for (size_t i = 0; i < d64->entry_count && st == MH_OK; i++) {
        const mh_d64_entry *e = &d64->entries[i];
        if (!e->closed || e->type == MH_CBM_DEL) continue;
        char what[64];
        mh_media_i_d64_entry_label(e, what, sizeof what);
        memset(seen, 0, n * sizeof *seen);
        uint8_t *data = NULL;
        size_t size = 0;
        st = mh_media_i_d64_chain(d64, e->track, e->sector, what, seen, &data, &size, err);
        free(data);
        for (size_t s = 0; s < n && st == MH_OK; s++) {
            if (!seen[s]) continue;
            /* Recover track/sector of index s for the message. */
            unsigned t = 1;
            size_t first = 0;
            while (first + mh_d64_sectors_in_track(t) <= s) first += mh_d64_sectors_in_track(t++);
            unsigned sec = (unsigned)(s - first);
            if (s == bam)
                st = mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                                     "D64: %s: block %u is track %u sector 0, the BAM", what,
                                     seen[s], t);
            else if (impl->dir_sector_of[s])
                st = mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                                     "D64: %s: block %u is track %u sector %u, directory "
                                     "sector %u", what, seen[s], t, sec, impl->dir_sector_of[s]);
            else if (owner[s]) {
                char other[64];
                mh_media_i_d64_entry_label(&d64->entries[owner[s] - 1], other, sizeof other);
                st = mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                                     "D64: %s: block %u is track %u sector %u, which %s uses "
                                     "too (cross-linked)", what, seen[s], t, sec, other);
            } else
                owner[s] = (uint32_t)i + 1;
        }
    }
    free(seen);
    free(owner);
    if (st == MH_OK) mh_media_i_ok(err);
    return st;
}
