/* fuzz_snapshot_input.h - how the snapshot-load targets (fuzz_snapshot,
 * fuzz_snapshot_vic20, fuzz_snapshot_plus4) turn one fuzz input into the
 * blob to load. The first byte picks the mode:
 *   0. the rest is the whole blob, as a file would give it;
 *   else the rest is patches [u32 offset][u8 length][bytes] laid over the
 *      blob the machine saved, then resealed by the machine's seal: a
 *      well-formed file with hostile state.
 * FUZZ_SNAPSHOT_TAKE_BASE and FUZZ_SNAPSHOT_ONE_INPUT are the rest every
 * target shares. Header-only: each target is one program (it includes
 * fuzz_check.h and its machine's header first). */
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

/* After the machine's first run: its saved blob becomes the base patches
 * are laid over. */
#define FUZZ_SNAPSHOT_TAKE_BASE(prefix, machine, base)                                      \
    do {                                                                                   \
        void *saved_ = NULL;                                                               \
        CHECK(prefix##_snapshot_blob_save(machine, &saved_, &(base).size) == MH_OK);       \
        (base).blob = saved_;                                                              \
        (base).patched = malloc((base).size);                                              \
        CHECK((base).patched != NULL);                                                     \
    } while (0)

/* The one check every snapshot target makes of an input, for the machine
 * whose functions are prefix##_run and prefix##_snapshot_blob_save/_load
 * (c64, vic20, plus4): a blob the loader takes must leave a machine that
 * runs `run_after` cycles and saves again at the same size; a refused one
 * must say why and leave the machine as it was (not a cycle run). */
#define FUZZ_SNAPSHOT_ONE_INPUT(prefix, machine, base, data, size, run_after)               \
    do {                                                                                   \
        if ((size) < 1) return 0;                                                          \
        size_t blob_size_;                                                                 \
        uint8_t *blob_ = fuzz_snapshot_blob(&(base), data, size, &blob_size_);             \
        if (!blob_) return 0;                                                              \
        char error_[512];                                                                  \
        uint64_t cycles_before_ = (machine)->p.run.cycles;                                 \
        mh_status status_ =                                                                \
            prefix##_snapshot_blob_load(machine, blob_, blob_size_, error_, sizeof error_); \
        if (status_ == MH_OK) {                                                            \
            mh_run_result r_ = {sizeof r_, 0, MH_RUN_BUDGET, 0};                           \
            prefix##_run(machine, run_after, &r_);                                         \
            void *again_ = NULL;                                                           \
            size_t again_size_ = 0;                                                        \
            CHECK(prefix##_snapshot_blob_save(machine, &again_, &again_size_) == MH_OK);   \
            CHECK(again_size_ == (base).size);                                             \
            free(again_);                                                                  \
        } else {                                                                           \
            CHECK(error_[0] != '\0');                                                      \
            CHECK((machine)->p.run.cycles == cycles_before_);                               \
        }                                                                                  \
        fuzz_snapshot_release(&(base), blob_);                                             \
    } while (0)

#endif
