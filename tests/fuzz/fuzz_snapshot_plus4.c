/* fuzz_snapshot_plus4.c - libFuzzer target for the Plus/4's snapshot load
 * (plugins/machine-plus4/plus4_ext.c, plus4_snapshot_blob_load), the blob
 * snapshot_load reads from a file a client names.
 *
 * One Plus/4 is made once on the free boot ROM (no Commodore ROM needed)
 * and run past its start-up, so the TED's timers, raster and voices have
 * state. The first input byte picks the mode (fuzz_snapshot_input.h):
 *   0. the rest is the whole blob, as a file would give it;
 *   else the rest is patches laid over a blob the machine saved, resealed:
 *      a well-formed file with hostile state.
 * A blob the loader takes must leave a machine that runs (2000 ticks) and
 * saves again; a refused one must say why and leave the machine as it was.
 *
 *   build: CC=clang cmake -B build-fuzz -DMH_FUZZ=ON && make -C build-fuzz fuzz_snapshot_plus4
 *   run:   build-fuzz/bin/fuzz_snapshot_plus4 -max_total_time=60 CORPUS_DIR
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_check.h"
#include "fuzz_snapshot_input.h"
#include "plus4.h"

static plus4 *machine;
static fuzz_snapshot_base base = {.seal = plus4_snapshot_blob_seal};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    char error[512];
    machine = plus4_new(NULL, NULL, error, sizeof error);
    if (!machine) {
        fprintf(stderr, "fuzz_snapshot_plus4: cannot make a Plus/4: %s\n", error);
        exit(1);
    }
    mh_run_result r = {sizeof r, 0, MH_RUN_BUDGET, 0};
    plus4_run(machine, 400000, &r);
    FUZZ_SNAPSHOT_TAKE_BASE(plus4, machine, base);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FUZZ_SNAPSHOT_ONE_INPUT(plus4, machine, base, data, size, 2000);
    return 0;
}
