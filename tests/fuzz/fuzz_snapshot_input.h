/* fuzz_snapshot_input.h - how the snapshot-load targets (fuzz_snapshot,
 * fuzz_snapshot_vic20, fuzz_snapshot_plus4) turn one fuzz input into the
 * blob to load. The first byte picks the mode:
 *   0. the rest is the whole blob, as a file would give it;
 *   else the rest is patches [u32 offset][u8 length][bytes] laid over the
 *      blob the machine saved, then resealed by the machine's seal: a
 *      well-formed file with hostile state.
 * Header-only: each target is one program. */
#ifndef MH_FUZZ_SNAPSHOT_INPUT_H
#define MH_FUZZ_SNAPSHOT_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The saved blob patches are laid over, and the block they are laid in
 * (reused: a fresh 320 KB block per run costs page faults). */
typedef struct fuzz_snapshot_base {
    const uint8_t *blob;
    size_t size;
    uint8_t *patched;
    void (*seal)(uint8_t *blob, size_t size);
} fuzz_snapshot_base;

static inline void fuzz_snapshot_patch(uint8_t *blob, size_t size, const uint8_t *data, size_t n)
{
    while (n >= 5) {
        size_t offset = ((size_t)data[0] | (size_t)data[1] << 8 | (size_t)data[2] << 16 |
                         (size_t)data[3] << 24) % size;
        size_t length = data[4];
        data += 5;
        n -= 5;
        if (length > n) length = n;
        if (length > size - offset) length = size - offset;
        memcpy(blob + offset, data, length);
        data += length;
        n -= length;
    }
}

/* The blob the input (size >= 1) stands for, and its size in *blob_size;
 * NULL when out of memory. Give it back with fuzz_snapshot_release. */
static inline uint8_t *fuzz_snapshot_blob(const fuzz_snapshot_base *base, const uint8_t *data,
                                          size_t size, size_t *blob_size)
{
    if (data[0] == 0) {
        *blob_size = size - 1;
        uint8_t *blob = malloc(*blob_size ? *blob_size : 1);
        if (blob) memcpy(blob, data + 1, *blob_size);
        return blob;
    }
    *blob_size = base->size;
    memcpy(base->patched, base->blob, base->size);
    fuzz_snapshot_patch(base->patched, base->size, data + 1, size - 1);
    base->seal(base->patched, base->size);
    return base->patched;
}

static inline void fuzz_snapshot_release(const fuzz_snapshot_base *base, uint8_t *blob)
{
    if (blob != base->patched) free(blob);
}

#endif
