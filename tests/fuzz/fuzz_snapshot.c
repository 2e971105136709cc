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

#include "c64.h"
#include "fuzz_check.h"
#include "fuzz_snapshot_input.h"

static c64 *machine;
static fuzz_snapshot_base base = {.seal = c64_snapshot_blob_seal};

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
    FUZZ_SNAPSHOT_TAKE_BASE(c64, machine, base);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FUZZ_SNAPSHOT_ONE_INPUT(c64, machine, base, data, size, 600 /* ten raster lines: every chip ticks */);
    return 0;
}
