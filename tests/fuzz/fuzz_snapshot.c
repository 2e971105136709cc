/* fuzz_snapshot.c - libFuzzer target for the C64's snapshot load
 * (plugins/machine-c64/c64_ext.c, c64_snapshot_blob_load), the blob
 * snapshot_load reads from a file a client names.
 *
 * One C64 is booted once. The first input byte picks the mode:
 *   0. the rest is the whole blob, as a file would give it;
 *   else the rest is patches [u32 offset][u8 length][bytes] laid over a
 *      blob the machine saved, whose checksum is then made right again:
 *      a well-formed file with hostile state, as anyone can write one.
 * A blob the loader takes must leave a machine that runs (600 cycles,
 * ten raster lines) and saves again; a refused one must say why and leave the
 * machine as it was. ASan/UBSan catch memory and undefined-behaviour bugs.
 *
 *   build: CC=clang cmake -B build-fuzz -DMH_FUZZ=ON && make -C build-fuzz fuzz_snapshot
 *   run:   build-fuzz/tests/fuzz/fuzz_snapshot -max_total_time=60 -max_len=4096 CORPUS_DIR
 * Needs the C64 ROMs the machine boots with (open-roms).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c64.h"
#include "fuzz_check.h"

static c64 *machine;
static uint8_t *base;
static size_t base_size;
static uint8_t *patched; /* reused: a fresh 320 KB block per run costs page faults */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    char error[512];
    machine = c64_new(NULL, NULL, error, sizeof error);
    if (!machine) {
        fprintf(stderr, "fuzz_snapshot: cannot make a C64: %s\n", error);
        exit(1);
    }
    mh_run_result r = {sizeof r, 0, MH_RUN_BUDGET, 0};
    c64_run(machine, 200000, &r);
    void *blob = NULL;
    CHECK(c64_snapshot_blob_save(machine, &blob, &base_size) == MH_OK);
    base = blob;
    patched = malloc(base_size);
    CHECK(patched != NULL);
    return 0;
}

static void patch(uint8_t *blob, size_t size, const uint8_t *data, size_t n)
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
    c64_snapshot_blob_seal(blob, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    uint8_t *blob;
    size_t blob_size;
    if (data[0] == 0) {
        blob_size = size - 1;
        blob = malloc(blob_size ? blob_size : 1);
        if (!blob) return 0;
        memcpy(blob, data + 1, blob_size);
    } else {
        blob_size = base_size;
        blob = patched;
        memcpy(blob, base, blob_size);
        patch(blob, blob_size, data + 1, size - 1);
    }
    char error[512];
    uint64_t cycles_before = machine->p.run.cycles;
    mh_status status = c64_snapshot_blob_load(machine, blob, blob_size, error, sizeof error);
    if (status == MH_OK) {
        mh_run_result r = {sizeof r, 0, MH_RUN_BUDGET, 0};
        c64_run(machine, 600, &r); /* ten raster lines: every chip ticks */
        void *again = NULL;
        size_t again_size = 0;
        CHECK(c64_snapshot_blob_save(machine, &again, &again_size) == MH_OK);
        CHECK(again_size == base_size);
        free(again);
    } else {
        CHECK(error[0] != '\0');
        CHECK(machine->p.run.cycles == cycles_before);
    }
    if (blob != patched) free(blob);
    return 0;
}
