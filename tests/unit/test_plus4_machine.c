/* plus4.banking, plus4.machine, plus4.snapshot, plus4.options - the
 * Plus/4 in-process through plus4_core (no host, no .so).
 *
 * plus4.banking runs on made-up ROM images (each 16 KiB slot filled with
 * its own byte, written to a temporary directory under VICE's names): the
 * $FF3E/$FF3F switch, the $FDD0-$FDDF bank register, the KERNAL page at
 * $FC00, the C16's 16 KiB mirrors, writes under ROM. plus4.machine boots
 * the original ROMs (../shared/roms/PLUS4 or $MCPHOST_TEST_ROMS/PLUS4; the
 * tests say so and pass when they are absent) to READY, types PRINT 2+3,
 * and checks the debug-cart exit and tick counting. plus4.snapshot: a
 * round trip and hostile blobs. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mh_test.h"
#include "plus4.h"
#include "test_media_build.h"
#include "test_memory_runs_common.h"

static char fake_dir[64];

static int write_rom(const char *dir, const char *name, uint8_t fill)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    for (unsigned i = 0; i < PLUS4_ROM_SIZE; i++) fputc(fill, f);
    return fclose(f);
}

static int fake_init(void)
{
    snprintf(fake_dir, sizeof fake_dir, "/tmp/mh_plus4_roms_XXXXXX");
    if (!mkdtemp(fake_dir)) return -1;
    return write_rom(fake_dir, "basic-318006-01.bin", 0xBA) |
           write_rom(fake_dir, "kernal-318004-05.bin", 0xEA) |
           write_rom(fake_dir, "3plus1-317053-01.bin", 0x1A) |
           write_rom(fake_dir, "3plus1-317054-01.bin", 0x1B);
}

static int fake_cleanup(void)
{
    static const char *const names[] = {"basic-318006-01.bin", "kernal-318004-05.bin",
                                        "3plus1-317053-01.bin", "3plus1-317054-01.bin"};
    char path[128];
    for (size_t i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", fake_dir, names[i]);
        unlink(path);
    }
    return rmdir(fake_dir);
}

static plus4 *make_fake(const char *extra)
{
    char options[256], error[512];
    snprintf(options, sizeof options, "{\"rom_dir\":\"%s\"%s}", fake_dir, extra);
    plus4 *m = plus4_new(options, NULL, error, sizeof error);
    if (!m) fprintf(stderr, "plus4_new: %s\n", error);
    return m;
}

/* ---- plus4.banking ---- */

static void test_rom_ram_switch(void)
{
    plus4 *m = make_fake("");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0x8000), 0xBA);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0xC000), 0xEA);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0xFFF0), 0xEA);
    plus4_bus_poke(m, 0x8000, 0x11); /* under the ROM: RAM */
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0x8000), 0xBA);
    CU_ASSERT_EQUAL(m->p.ram[0x8000], 0x11);
    plus4_bus_poke(m, 0xFF3F, 0); /* RAM */
    CU_ASSERT_FALSE(m->ted.rom_enabled);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0x8000), 0x11);
    m->p.ram[0xFFF0] = 0x22;
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0xFFF0), 0x22);
    /* The TED's registers stay at $FF00-$FF3F either way. */
    plus4_bus_poke(m, 0xFF15, 0x42);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0xFF15), 0xC2);
    plus4_bus_poke(m, 0xFF3E, 0);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0x8000), 0xBA);
    plus4_free(m);
}

static void test_rom_banks(void)
{
    plus4 *m = make_fake("");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    plus4_bus_poke(m, 0xFDD0 + 1 + 4, 0); /* low bank 1, high bank 1: function ROMs */
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0x8000), 0x1A);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0xC000), 0x1B);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0xFC10), 0xEA); /* the KERNAL's banking page */
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0xFF80), 0x1B);
    plus4_bus_poke(m, 0xFDD0 + 2, 0); /* low bank 2: an empty cartridge slot */
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0x8000), 0xFF);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0xC000), 0xEA);
    plus4_bus_poke(m, 0xFDD0, 0);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0x8000), 0xBA);
    plus4_free(m);
}

static uint8_t plus4_ref_peek(const void *m, uint16_t addr) { return plus4_bus_peek(m, addr); }

/* memory_read's bulk path: Plus/4 and C16 (16 KiB mirrored), ROMs in and
 * out, every low/high bank pair of $FDD0-$FDDF (empty slots read open):
 * the memory interface's 64 KiB peek and peek_runs give exactly the bytes
 * plus4_bus_peek gives one by one. */
static void test_bulk_read(void)
{
    static const char *const models[] = {"", ",\"model\":\"c16\""};
    for (size_t model = 0; model < 2; model++) {
        plus4 *m = make_fake(models[model]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        mrt_fill_pattern(m->p.ram, sizeof m->p.ram, (uint8_t)model);
        for (unsigned slot = 0; slot < PLUS4_ROM_SLOTS; slot++)
            if (m->rom_present[slot])
                mrt_fill_pattern(m->rom[slot], PLUS4_ROM_SIZE, (uint8_t)(0x20 + slot));
        mh_chip chips[16];
        size_t count = plus4_ifaces_chips(m, chips, 16);
        for (unsigned banks = 0; banks < 16; banks++) {
            plus4_bus_poke(m, (uint16_t)(0xFDD0 + banks), 0);
            for (int roms = 1; roms >= 0; roms--) {
                plus4_bus_poke(m, roms ? 0xFF3E : 0xFF3F, 0);
                char label[64];
                snprintf(label, sizeof label, "%s, banks $%X, ROMs %s",
                         model ? "C16" : "Plus/4", banks, roms ? "in" : "out");
                mrt_check_cpu_space(chips, count, m, plus4_ref_peek, label);
            }
        }
        plus4_free(m);
    }
}

static void test_c16_mirrors(void)
{
    plus4 *m = make_fake(",\"model\":\"c16\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    plus4_bus_poke(m, 0x1234, 0x77);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0x5234), 0x77);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0x7234 - 0x2000), 0x77);
    plus4_bus_poke(m, 0xFF3F, 0);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0xD234), 0x77);
    /* No ACIA on a C16: its addresses are plain RAM. */
    plus4_bus_poke(m, 0xFD02, 0x5A);
    CU_ASSERT_EQUAL(m->p.acia.command, 0);
    plus4_free(m);
}

static void test_acia_and_ports(void)
{
    plus4 *m = make_fake("");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    plus4_bus_poke(m, 0xFD02, 0x0B);
    plus4_bus_poke(m, 0xFD03, 0x1F);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0xFD02), 0x0B);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0xFD03), 0x1F);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0xFD01) & 0x10u, 0x10u); /* transmitter empty */
    plus4_bus_poke(m, 0xFD01, 0); /* programmed reset */
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0xFD02), 0x00);
    plus4_bus_poke(m, 0xFD10, 0x5A);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0xFD10), 0x5A);
    /* Keyboard: column 7 selected, RUNSTOP (col 7, row 7) held. */
    CU_ASSERT_EQUAL(plus4_key(m, "RUNSTOP", 1), MH_OK);
    plus4_bus_poke(m, 0xFD30, 0x7F);
    plus4_bus_poke(m, 0xFF08, 0xFF);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0xFF08), 0x7F);
    plus4_bus_poke(m, 0xFD30, 0xFE); /* column 0: nothing held */
    plus4_bus_poke(m, 0xFF08, 0xFF);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0xFF08), 0xFF);
    CU_ASSERT_EQUAL(plus4_key(m, "NOSUCHKEY", 1), MH_ERR_NOT_FOUND);
    /* Joystick 1 fire through $FF08 bit 1 clear. */
    CU_ASSERT_EQUAL(plus4_joystick(m, 1, MH_JOY_FIRE | MH_JOY_UP), MH_OK);
    plus4_bus_poke(m, 0xFF08, 0xFD);
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0xFF08), 0xBE);
    plus4_free(m);
}

static void test_options_refused(void)
{
    char error[512];
    plus4 *m = plus4_new("{\"model\":\"c128\"}", NULL, error, sizeof error);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "model"));
    m = plus4_new("{\"nosuch\":1}", NULL, error, sizeof error);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "nosuch"));
    m = plus4_new("{\"rom_dir\":\"/nonexistent/dir\"}", NULL, error, sizeof error);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "/nonexistent/dir"));
#ifndef MH_HAVE_BOOT_ROMS
    m = plus4_new("{}", NULL, error, sizeof error);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "--rom-dir"));
#endif
}

static void test_cartridge_refused(void)
{
    plus4 *m = make_fake("");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    char path[128], error[512];
    snprintf(path, sizeof path, "%s/cart.bin", fake_dir);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    for (int i = 0; i < 1000; i++) fputc(i, f);
    fclose(f);
    CU_ASSERT_EQUAL(plus4_cart_attach(m, path, error, sizeof error), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "not a Plus/4 cartridge"));
    CU_ASSERT_PTR_NULL(m->cart_path);
    f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("C64 CARTRIDGE   ", f);
    for (unsigned i = 16; i < PLUS4_ROM_SIZE; i++) fputc(0, f);
    fclose(f);
    CU_ASSERT_EQUAL(plus4_cart_attach(m, path, error, sizeof error), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "C64 CRT"));
    f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    for (unsigned i = 0; i < PLUS4_ROM_SIZE; i++) fputc(0xCA, f);
    fclose(f);
    CU_ASSERT_EQUAL(plus4_cart_attach(m, path, error, sizeof error), MH_OK);
    plus4_bus_poke(m, 0xFDD2, 0); /* low bank 2: cartridge 1 */
    CU_ASSERT_EQUAL(plus4_bus_peek(m, 0x8000), 0xCA);
    plus4_free(m);
    unlink(path);
}

/* ---- plus4.machine (original ROMs) ---- */

static const char *rom_dir(void)
{
    static char dir[512];
    const char *env = getenv("MCPHOST_TEST_ROMS");
    if (env) snprintf(dir, sizeof dir, "%s/PLUS4", env);
    else snprintf(dir, sizeof dir, "%s/../roms/PLUS4", MH_SHARED_TESTDATA_DIR);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "  (skipped: no Plus/4 ROMs at %s; set MCPHOST_TEST_ROMS) ", dir);
        return NULL;
    }
    return dir;
}

static plus4 *boot(const char *extra)
{
    const char *dir = rom_dir();
    if (!dir) return NULL;
    char options[768], error[512];
    snprintf(options, sizeof options, "{\"rom_dir\":\"%s\"%s}", dir, extra);
    plus4 *m = plus4_new(options, NULL, error, sizeof error);
    if (!m) {
        fprintf(stderr, "plus4_new: %s\n", error);
        CU_FAIL("plus4_new");
        return NULL;
    }
    mh_run_result r = {0};
    plus4_run(m, 6000000, &r);
    return m;
}

/* The screen at $0C00 as text (upper-case screen codes). */
static void screen_text(const plus4 *m, char out[25 * 41 + 1])
{
    size_t n = 0;
    for (unsigned row = 0; row < 25; row++) {
        for (unsigned col = 0; col < 40; col++) {
            uint8_t c = m->p.ram[0x0C00 + row * 40 + col] & 0x7Fu;
            out[n++] = c == 0 ? '@' : c < 27 ? (char)('A' + c - 1) : (c >= 32 && c < 64) ? (char)c : ' ';
        }
        out[n++] = '\n';
    }
    out[n] = '\0';
}

static void test_boot_ready(void)
{
    plus4 *m = boot("");
    if (!m) return;
    char text[25 * 41 + 1];
    screen_text(m, text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "COMMODORE BASIC V3.5"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "READY."));
    CU_ASSERT_TRUE(m->p.frames_done > 100);
    CU_ASSERT_EQUAL(m->p.run.cycles, m->ted.ticks);
    char error[256];
    CU_ASSERT_EQUAL(plus4_type_text(m, "PRINT 2+3\n", error, sizeof error), MH_OK);
    mh_run_result r = {0};
    plus4_run(m, 2000000, &r);
    screen_text(m, text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "PRINT 2+3"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n 5 "));
    /* A soft reset boots again (the clock goes on); a hard one too. */
    uint64_t ticks = m->ted.ticks;
    memset(m->p.ram + 0x0C00, 0x20, 1000);
    plus4_reset(m, 0);
    CU_ASSERT_EQUAL(m->ted.ticks, ticks);
    plus4_run(m, 6000000, &r);
    screen_text(m, text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "READY."));
    plus4_reset(m, 1);
    CU_ASSERT_EQUAL(m->ted.ticks, 0);
    plus4_run(m, 6000000, &r);
    screen_text(m, text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "COMMODORE BASIC V3.5"));
    plus4_free(m);
}

static void test_c16_boot(void)
{
    plus4 *m = boot(",\"model\":\"c16\"");
    if (!m) return;
    char text[25 * 41 + 1];
    screen_text(m, text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "12277 BYTES FREE"));
    plus4_free(m);
}

static void test_ticks_and_exit(void)
{
    plus4 *m = boot(",\"debugcart\":true");
    if (!m) return;
    /* A budget in ticks: the run ends within one instruction of it. */
    for (uint64_t budget = 1; budget < 20000; budget = budget * 3 + 7) {
        mh_run_result r = {0};
        uint64_t before = m->ted.ticks;
        plus4_run(m, budget, &r);
        CU_ASSERT_EQUAL(r.stop, MH_RUN_BUDGET);
        CU_ASSERT_EQUAL(r.cycles, m->ted.ticks - before);
        CU_ASSERT_TRUE(r.cycles >= budget && r.cycles < budget + 40);
    }
    /* LDA #$2A; STA $FDCF in RAM at $2000. */
    static const uint8_t prog[] = {0x78, 0xA9, 0x2A, 0x8D, 0xCF, 0xFD, 0x4C, 0x06, 0x20};
    memcpy(m->p.ram + 0x2000, prog, sizeof prog);
    m->cpu.pc = 0x2000;
    mh_run_result r = {0};
    plus4_run(m, 100000, &r);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 0x2A);
    CU_ASSERT_EQUAL(m->cpu.pc, 0x2006);
    plus4_free(m);
}

/* LOAD"PROG",8 from the virtual drive: the KERNAL's variables
 * (plus4_kernal_layout) are read and written right when the loaded BASIC
 * program lists and runs. */
static void test_drive_load(void)
{
    plus4 *m = boot("");
    if (!m) return;
    /* 10 POKE 12288,77 as a BASIC program at $1001. */
    static const uint8_t prog[] = {0x01, 0x10, 0x0F, 0x10, 0x0A, 0x00, 0x97, 0x31, 0x32,
                                   0x32, 0x38, 0x38, 0x2C, 0x37, 0x37, 0x00, 0x00, 0x00};
    tb_d64 d;
    tb_d64_init(&d, 35, false, "TEST", "01");
    tb_d64_add_file(&d, "PROG", 0x82, prog, sizeof prog);
    char path[96], error[512];
    snprintf(path, sizeof path, "/tmp/mh_plus4_drive_%d.d64", (int)getpid());
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fwrite(d.img, 1, d.size, f);
    fclose(f);
    tb_d64_free(&d);
    CU_ASSERT_EQUAL_FATAL(plus4_drive_attach(m, path, error, sizeof error), MH_OK);
    CU_ASSERT_EQUAL(plus4_type_text(m, "LOAD\"PROG\",8\n", error, sizeof error), MH_OK);
    mh_run_result r = {0};
    plus4_run(m, 3000000, &r);
    CU_ASSERT_EQUAL(memcmp(m->p.ram + 0x1001, prog + 2, sizeof prog - 2), 0);
    /* The end pointer (VARTAB) follows the program. */
    CU_ASSERT_EQUAL(m->p.ram[0x2D] | m->p.ram[0x2E] << 8, 0x1001 + (int)sizeof prog - 2);
    CU_ASSERT_EQUAL(plus4_type_text(m, "RUN\n", error, sizeof error), MH_OK);
    plus4_run(m, 3000000, &r);
    CU_ASSERT_EQUAL(m->p.ram[0x3000], 77);
    /* A file that is not there: FILE NOT FOUND, nothing loaded. */
    CU_ASSERT_EQUAL(plus4_type_text(m, "LOAD\"NOPE\",8\n", error, sizeof error), MH_OK);
    plus4_run(m, 3000000, &r);
    char text[25 * 41 + 1];
    screen_text(m, text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "FILE NOT FOUND"));
    plus4_free(m);
    unlink(path);
}

/* The KERNAL scans the matrix ($FD30 columns, $FF08 latch): held keys
 * reach the screen. */
static void test_keyboard_matrix(void)
{
    plus4 *m = boot("");
    if (!m) return;
    mh_run_result r = {0};
    static const char *const keys[] = {"H", "I", "SPACE", "2"};
    for (size_t i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(plus4_key_hold(m, keys[i], 3), MH_OK);
        plus4_run(m, 10u * 35568u, &r);
    }
    CU_ASSERT_EQUAL(plus4_key_hold(m, "F4", 3), MH_OK); /* SHIFT + F1: a combination */
    plus4_run(m, 10u * 35568u, &r);
    char text[25 * 41 + 1];
    screen_text(m, text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "HI 2"));
    CU_ASSERT_FALSE(mh_kit_holds_pending(&m->holds));
    plus4_free(m);
}

/* --autostart: injected when the KERNAL waits for a key at READY (long
 * before the 40M-tick fallback), RUN typed. */
static void test_autostart_at_ready(void)
{
    const char *dir = rom_dir();
    if (!dir) return;
    static const uint8_t prog[] = {0x01, 0x10, 0x0F, 0x10, 0x0A, 0x00, 0x97, 0x31, 0x32,
                                   0x32, 0x38, 0x38, 0x2C, 0x37, 0x37, 0x00, 0x00, 0x00};
    char path[96], options[768], error[512];
    snprintf(path, sizeof path, "/tmp/mh_plus4_auto_%d.prg", (int)getpid());
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fwrite(prog, 1, sizeof prog, f);
    fclose(f);
    snprintf(options, sizeof options, "{\"rom_dir\":\"%s\",\"autostart\":\"%s\"}", dir, path);
    plus4 *m = plus4_new(options, NULL, error, sizeof error);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    mh_run_result r = {0};
    plus4_run(m, 8000000, &r);
    CU_ASSERT_FALSE(m->p.autostart_pending);
    CU_ASSERT_EQUAL(m->p.ram[0x3000], 77);
    plus4_free(m);
    unlink(path);
}

/* ---- plus4.snapshot ---- */

static void test_snapshot_round_trip(void)
{
    plus4 *m = make_fake("");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    mh_run_result r = {0};
    plus4_run(m, 50000, &r);
    m->p.ram[0x4000] = 0x99;
    void *blob = NULL;
    size_t size = 0;
    CU_ASSERT_EQUAL_FATAL(plus4_snapshot_blob_save(m, &blob, &size), MH_OK);
    uint64_t ticks = m->ted.ticks;
    uint16_t line = m->ted.line;
    m->p.ram[0x4000] = 0;
    plus4_run(m, 50000, &r);
    char error[512];
    CU_ASSERT_EQUAL(plus4_snapshot_blob_load(m, blob, size, error, sizeof error), MH_OK);
    CU_ASSERT_EQUAL(m->p.ram[0x4000], 0x99);
    CU_ASSERT_EQUAL(m->ted.ticks, ticks);
    CU_ASSERT_EQUAL(m->ted.line, line);
    CU_ASSERT_PTR_EQUAL(m->ted.user, m);

    /* Hostile blobs: each refused with a message, the machine untouched. */
    uint8_t *bad = malloc(size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
    memcpy(bad, blob, size);
    bad[1000] ^= 1; /* corrupt: checksum */
    CU_ASSERT_NOT_EQUAL(plus4_snapshot_blob_load(m, bad, size, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "checksum"));
    CU_ASSERT_NOT_EQUAL(plus4_snapshot_blob_load(m, bad, 30, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "truncated"));
    memcpy(bad, blob, size);
    memcpy(bad + 8, "c64\0\0", 5);
    plus4_snapshot_blob_seal(bad, size);
    CU_ASSERT_NOT_EQUAL(plus4_snapshot_blob_load(m, bad, size, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "c64"));
    /* A sealed blob with the beam out of range. */
    memcpy(bad, blob, size);
    plus4_snapshot *s = (plus4_snapshot *)(void *)(bad + 56);
    s->ted.line = 999;
    plus4_snapshot_blob_seal(bad, size);
    CU_ASSERT_NOT_EQUAL(plus4_snapshot_blob_load(m, bad, size, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "beam"));
    memcpy(bad, blob, size);
    s->ted.ring_head = 0xFFFFFFu;
    plus4_snapshot_blob_seal(bad, size);
    CU_ASSERT_NOT_EQUAL(plus4_snapshot_blob_load(m, bad, size, error, sizeof error), MH_OK);
    CU_ASSERT_EQUAL(m->ted.line, line);
    /* A sound stream far behind its ticks: a flush would take its samples
     * one by one for ever (fuzz_snapshot_plus4 found a run that never ended
     * on one). */
    memcpy(bad, blob, size);
    s->ted.ticks += UINT64_C(1) << 40;
    s->ted.snd_tick = s->ted.ticks;
    plus4_snapshot_blob_seal(bad, size);
    CU_ASSERT_NOT_EQUAL(plus4_snapshot_blob_load(m, bad, size, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "sound clock"));
    /* Random bytes flipped in the TED, RAM and port state, sealed again:
     * refused or loaded, and the machine runs on either way (ASan/UBSan
     * builds check it stays in bounds). */
    uint32_t seed = 12345;
    const size_t from = 56 + offsetof(plus4_snapshot, ted), to = size;
    for (int round = 0; round < 200; round++) {
        memcpy(bad, blob, size);
        for (int k = 0; k < 4; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = from + (seed >> 8) % (to - from);
            bad[at] ^= (uint8_t)(1u << ((seed >> 4) & 7u));
        }
        plus4_snapshot_blob_seal(bad, size);
        mh_status st = plus4_snapshot_blob_load(m, bad, size, error, sizeof error);
        CU_ASSERT_TRUE(st == MH_OK || error[0] != '\0');
        plus4_run(m, 3000, &r);
    }
    CU_ASSERT_EQUAL(plus4_snapshot_blob_load(m, blob, size, error, sizeof error), MH_OK);
    free(bad);
    free(blob);
    plus4_free(m);
}

MH_SUITE("plus4.banking", fake_init, fake_cleanup, MH_TEST(test_rom_ram_switch),
         MH_TEST(test_rom_banks), MH_TEST(test_bulk_read), MH_TEST(test_c16_mirrors), MH_TEST(test_acia_and_ports),
         MH_TEST(test_options_refused), MH_TEST(test_cartridge_refused))
MH_SUITE("plus4.machine", NULL, NULL, MH_TEST(test_boot_ready), MH_TEST(test_c16_boot),
         MH_TEST(test_ticks_and_exit), MH_TEST(test_drive_load), MH_TEST(test_keyboard_matrix),
         MH_TEST(test_autostart_at_ready))
MH_SUITE("plus4.snapshot", fake_init, fake_cleanup, MH_TEST(test_snapshot_round_trip))
