/* fuzz_snapshot_vic20.c - libFuzzer target for the VIC-20's snapshot load
 * (plugins/machine-vic20/vic20_ext.c, vic20_snapshot_blob_load), the blob
 * snapshot_load reads from a file a client names.
 *
 * One VIC-20 is made once, on a tiny KERNAL written here (no Commodore ROM
 * is needed): its reset code sets both VIAs' timers free-running with
 * interrupts, a 22x23 screen and a sounding voice, then loops writing the
 * screen, so every chip has state. The first input byte picks the mode:
 *   0. the rest is the whole blob, as a file would give it;
 *   else the rest is patches [u32 offset][u8 length][bytes] laid over a
 *      blob the machine saved, resealed: a well-formed file with hostile
 *      state, as anyone can write one.
 * A blob the loader takes must leave a machine that runs (2000 cycles)
 * and saves again; a refused one must say why and leave the machine as it
 * was. ASan/UBSan catch memory and undefined-behaviour bugs.
 *
 *   build: CC=clang cmake -B build-fuzz -DMH_FUZZ=ON && make -C build-fuzz fuzz_snapshot_vic20
 *   run:   build-fuzz/bin/fuzz_snapshot_vic20 -max_total_time=60 CORPUS_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_check.h"
#include "fuzz_snapshot_input.h"
#include "vic20.h"

static vic20 *machine;
static fuzz_snapshot_base base = {.seal = vic20_snapshot_blob_seal};

/* $E000: VIA1/VIA2 T1 free-running with IRQs on, a screen, a voice; then
 * INC $1E00,X / INX / JMP loop. IRQ and NMI handlers acknowledge and RTI. */
static const uint8_t kernal_code[] = {
    0xA9, 0x40, 0x8D, 0x1B, 0x91, 0x8D, 0x2B, 0x91, /* ACRs: T1 free-running */
    0xA9, 0xC0, 0x8D, 0x1E, 0x91, 0x8D, 0x2E, 0x91, /* IERs: T1 */
    0xA9, 0x10, 0x8D, 0x14, 0x91, 0x8D, 0x24, 0x91, /* T1 latch low */
    0xA9, 0x02, 0x8D, 0x15, 0x91, 0x8D, 0x25, 0x91, /* T1 high: start */
    0xA9, 0x0C, 0x8D, 0x00, 0x90, 0xA9, 0x26, 0x8D, 0x01, 0x90, /* origin */
    0xA9, 0x96, 0x8D, 0x02, 0x90, 0xA9, 0x2E, 0x8D, 0x03, 0x90, /* 22 x 23 */
    0xA9, 0xF0, 0x8D, 0x05, 0x90, 0xA9, 0x0F, 0x8D, 0x0E, 0x90, /* screen, volume */
    0xA9, 0xE0, 0x8D, 0x0C, 0x90, 0x58,                         /* soprano; CLI */
    0xFE, 0x00, 0x1E, 0xE8, 0x4C, 0x44, 0xE0,                   /* $E044: loop */
};
/* $E080: handler: LDA $9114; LDA $9124; RTI */
static const uint8_t handler[] = {0xAD, 0x14, 0x91, 0xAD, 0x24, 0x91, 0x40};

static void make_roms(char *dir)
{
    static uint8_t kernal[8192], basic[8192], chargen[4096];
    memset(kernal, 0xEA, sizeof kernal);
    memcpy(kernal, kernal_code, sizeof kernal_code);
    memcpy(kernal + 0x80, handler, sizeof handler);
    kernal[0x1FFA] = 0x80; kernal[0x1FFB] = 0xE0; /* NMI */
    kernal[0x1FFC] = 0x00; kernal[0x1FFD] = 0xE0; /* RESET */
    kernal[0x1FFE] = 0x80; kernal[0x1FFF] = 0xE0; /* IRQ */
    for (size_t i = 0; i < sizeof chargen; i++) chargen[i] = (uint8_t)(i * 37u);
    static const char *const names[3] = {"kernal", "basic", "chargen"};
    const uint8_t *images[3] = {kernal, basic, chargen};
    const size_t sizes[3] = {sizeof kernal, sizeof basic, sizeof chargen};
    for (int i = 0; i < 3; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL);
        CHECK(fwrite(images[i], 1, sizes[i], f) == sizes[i]);
        fclose(f);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    char dir[] = "/tmp/fuzz_vic20_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    make_roms(dir);
    char options[256], error[512];
    snprintf(options, sizeof options, "{\"rom_dir\":\"%s\",\"vic20_memory\":\"8k\"}", dir);
    machine = vic20_new(options, NULL, error, sizeof error);
    if (!machine) {
        fprintf(stderr, "fuzz_snapshot_vic20: cannot make a VIC-20: %s\n", error);
        exit(1);
    }
    static const char *const names[3] = {"kernal", "basic", "chargen"};
    for (int i = 0; i < 3; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
    mh_run_result r = {sizeof r, 0, MH_RUN_BUDGET, 0};
    vic20_run(machine, 100000, &r);
    FUZZ_SNAPSHOT_TAKE_BASE(vic20, machine, base);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FUZZ_SNAPSHOT_ONE_INPUT(vic20, machine, base, data, size, 2000);
    return 0;
}
