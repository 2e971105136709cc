/* c64.reset, c64.drive, c64.cartridge - the C64 machine in-process
 * (c64_core, no host): soft and hard reset; the virtual drive 8 trapping
 * the KERNAL's LOAD; cartridges. Needs /usr/share/open-roms/C64. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c64.h"
#include "mcphost/machine.h"
#include "mh_test.h"
#include "test_c64_common.h"
#include "test_media_build.h"
#include "test_memory_runs_common.h"

#define BOOT_CYCLES 3000000u

static c64 *boot(const char *options)
{
    char error[512];
    c64 *m = c64_new(options, NULL, error, sizeof error);
    if (!m) {
        fprintf(stderr, "c64_new(%s): %s\n", options, error);
        return NULL;
    }
    mh_run_result r = {0};
    c64_run(m, BOOT_CYCLES, &r);
    return m;
}

static const char *screen(const c64 *m)
{
    static char text[25 * 41 + 1];
    c64t_screen_text(m->p.ram + 0x0400, text);
    return text;
}

static mh_run_result run(c64 *m, uint64_t cycles)
{
    mh_run_result r = {0};
    c64_run(m, cycles, &r);
    return r;
}

/* ---- c64.reset ---- */

static const uint8_t marker[4] = {0x12, 0x34, 0x56, 0x78};

static void test_soft_reset(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(m), "READY."));
    memcpy(m->p.ram + 0xC000, marker, sizeof marker);
    memset(m->p.ram + 0x0400, 0x20, 1000); /* a blank screen: READY must come back */
    c64_io_write(m, 0xD020, 2);
    c64_bus_poke(m, 0x0001, 0x35); /* BASIC and KERNAL out: the reset banks them in */
    c64_reset(m, 0);
    CU_ASSERT_EQUAL(mh_cpu6502_port_pins(&m->cpu) & 7, 7);
    CU_ASSERT_EQUAL(m->vic.reg[0x20] & 15, 0); /* the VIC's registers reset */
    run(m, BOOT_CYCLES);
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(m), "READY."));
    CU_ASSERT_EQUAL(memcmp(m->p.ram + 0xC000, marker, sizeof marker), 0);
    c64_free(m);
}

static void test_hard_reset(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    memcpy(m->p.ram + 0xC000, marker, sizeof marker);
    memset(m->p.ram + 0x0400, 0x20, 1000);
    c64_reset(m, 1);
    /* the power-on pattern: runs of 4, offset 2, inverted every 16 KiB */
    static const uint8_t want[8] = {0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF};
    CU_ASSERT_EQUAL(memcmp(m->p.ram + 0xC000, want, sizeof want), 0);
    CU_ASSERT_EQUAL(m->p.ram[0x8000], 0x00);
    CU_ASSERT_EQUAL(m->p.ram[0x8002], 0xFF);
    CU_ASSERT_EQUAL(m->p.run.cycles, 0);
    run(m, BOOT_CYCLES);
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(m), "READY."));
    CU_ASSERT_NOT_EQUAL(memcmp(m->p.ram + 0xC000, marker, sizeof marker), 0);
    c64_free(m);
}

/* A reset right after a debug-cart exit: the halted bus is undone. */
static void test_reset_after_exit(void)
{
    c64 *m = boot("{\"debugcart\":true}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    static const uint8_t prg[] = {0xA9, 0x07, 0x8D, 0xFF, 0xD7, 0x4C, 0x05, 0xC0};
    memcpy(m->p.ram + 0xC000, prg, sizeof prg);
    m->cpu.pc = 0xC000;
    mh_run_result r = run(m, 1000);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 7);
    c64_reset(m, 0);
    r = run(m, BOOT_CYCLES);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_BUDGET);
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(m), "READY."));
    c64_free(m);
}

/* ---- c64.drive ---- */

static char tmpdir[64];

static int suite_init(void)
{
    strcpy(tmpdir, "/tmp/mh_c64_media_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int suite_cleanup(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static int write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t n = fwrite(data, 1, size, f);
    return fclose(f) == 0 && n == size ? 0 : -1;
}

/* 10 PRINT "LOADED" at $0801. */
static const uint8_t print_prg[] = {0x01, 0x08, 0x10, 0x08, 0x0A, 0x00, 0x99, 0x20, 0x22, 'L',
                                    'O',  'A',  'D',  'E',  'D',  0x22, 0x00, 0x00, 0x00};

/* A disk "TEST DISK" with README (SEQ), PROG (the BASIC program) and DATA
 * (4 bytes at $C000); returns the options JSON attaching it. */
static const char *make_disk(void)
{
    static char options[700];
    static char path[600];
    tb_d64 d64;
    tb_d64_init(&d64, 35, false, "TEST DISK", "MH");
    static const uint8_t text[] = {'H', 'I', 13};
    static const uint8_t data[] = {0x00, 0xC0, 0x11, 0x22, 0x33, 0x44};
    tb_d64_add_file(&d64, "README", 0x81, text, sizeof text);
    tb_d64_add_file(&d64, "PROG", 0x82, print_prg, sizeof print_prg);
    tb_d64_add_file(&d64, "DATA", 0x82, data, sizeof data);
    snprintf(path, sizeof path, "%s/test.d64", tmpdir);
    int ok = write_file(path, d64.img, d64.size);
    tb_d64_free(&d64);
    if (ok != 0) return NULL;
    snprintf(options, sizeof options, "{\"drive8\":\"%s\"}", path);
    return options;
}

static void type(c64 *m, const char *text)
{
    char error[256];
    CU_ASSERT_EQUAL(c64_type_text(m, text, error, sizeof error), MH_OK);
    run(m, 2000000);
}

static void test_basic_load_and_run(void)
{
    const char *options = make_disk();
    CU_ASSERT_PTR_NOT_NULL_FATAL(options);
    c64 *m = boot(options);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    type(m, "LOAD\"PROG\",8\n");
    CU_ASSERT_EQUAL(memcmp(m->p.ram + 0x0801, print_prg + 2, sizeof print_prg - 2), 0);
    CU_ASSERT_EQUAL(m->p.ram[0x2D] | m->p.ram[0x2E] << 8, 0x0801 + (int)sizeof print_prg - 2);
    type(m, "RUN\n");
    const char *text = screen(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\nLOADED "));
    if (!strstr(text, "\nLOADED ")) fprintf(stderr, "\n%s\n", text);

    /* The directory, then LIST. */
    type(m, "LOAD\"$\",8\n");
    type(m, "LIST\n");
    text = screen(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"TEST DISK       \" MH 2A"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"PROG\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"README\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "BLOCKS FREE"));
    if (!strstr(text, "BLOCKS FREE")) fprintf(stderr, "\n%s\n", text);

    /* A missing file: the KERNAL's error 4. */
    memset(m->p.ram + 0x0400, 0x20, 1000);
    type(m, "LOAD\"NOPE\",8\n");
    text = screen(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "NOT FOUND"));
    if (!strstr(text, "NOT FOUND")) fprintf(stderr, "\n%s\n", text);
    c64_free(m);
}

/* Calls the KERNAL's LOAD from machine code: SA 1 (the file's address),
 * SA 0 (X/Y), VERIFY, a missing file; then device 9 (no trap). */
static void test_kernal_load_registers(void)
{
    const char *options = make_disk();
    CU_ASSERT_PTR_NOT_NULL_FATAL(options);
    c64 *m = boot(options);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    uint8_t *ram = m->p.ram;
    /* $0300: JSR $FFD5; JMP * (a return address on the stack) */
    static const uint8_t call[] = {0x20, 0xD5, 0xFF, 0x4C, 0x03, 0x03};
    memcpy(ram + 0x0300, call, sizeof call);
    memcpy(ram + 0x0340, "DATA", 4);
    memcpy(ram + 0x0350, "NOPE", 4);
    struct {
        uint8_t sa, a;
        uint16_t name, xy;
        int carry;
        uint8_t ra, rx, ry, st;
    } cases[] = {
        {1, 0, 0x0340, 0x1234, 0, 0, 0x04, 0xC0, 0x40},     /* file's address $C000 */
        {0, 0, 0x0340, 0x2000, 0, 0, 0x04, 0x20, 0x40},     /* X/Y: $2000 */
        {1, 1, 0x0340, 0x0000, 0, 0, 0x04, 0xC0, 0x40},     /* VERIFY: equal */
        {0, 1, 0x0340, 0x3000, 0, 0, 0x04, 0x30, 0x50},     /* VERIFY: differs */
        {1, 0, 0x0350, 0x0000, 1, 0x04, 0, 0, 0},           /* FILE NOT FOUND */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ram[0xBA] = 8;
        ram[0xB9] = cases[i].sa;
        ram[0xB7] = 4;
        ram[0xBB] = (uint8_t)cases[i].name;
        ram[0xBC] = (uint8_t)(cases[i].name >> 8);
        ram[0x90] = 0;
        CU_ASSERT_TRUE_FATAL(mh_cpu6502_at_boundary(&m->cpu));
        m->cpu.pc = 0x0300;
        m->cpu.a = cases[i].a;
        m->cpu.x = (uint8_t)cases[i].xy;
        m->cpu.y = (uint8_t)(cases[i].xy >> 8);
        m->cpu.p |= MH_CPU6502_FLAG_I; /* no IRQ ends up inside the JMP loop */
        uint8_t s = m->cpu.s;
        run(m, 5000);
        CU_ASSERT_EQUAL(m->cpu.pc, 0x0303);
        CU_ASSERT_EQUAL(m->cpu.s, s);
        CU_ASSERT_EQUAL(!!(m->cpu.p & MH_CPU6502_FLAG_C), cases[i].carry);
        if (cases[i].carry) {
            CU_ASSERT_EQUAL(m->cpu.a, cases[i].ra);
        } else {
            CU_ASSERT_EQUAL(m->cpu.x, cases[i].rx);
            CU_ASSERT_EQUAL(m->cpu.y, cases[i].ry);
            CU_ASSERT_EQUAL(ram[0x90], cases[i].st);
        }
        if (i == 0) CU_ASSERT_EQUAL(memcmp(ram + 0xC000, "\x11\x22\x33\x44", 4), 0);
        if (i == 1) CU_ASSERT_EQUAL(memcmp(ram + 0x2000, "\x11\x22\x33\x44", 4), 0);
    }
    /* Device 9: not the drive, the KERNAL's own code runs (no trap). */
    ram[0xBA] = 9;
    ram[0xB9] = 1;
    ram[0xBB] = 0x40;
    ram[0xBC] = 0x03;
    m->cpu.pc = 0x0300;
    m->cpu.a = 0;
    run(m, 5000);
    CU_ASSERT_NOT_EQUAL(m->cpu.pc, 0x0303);
    c64_free(m);
}

static void test_drive_option_errors(void)
{
    char error[512], options[700], path[600];
    snprintf(path, sizeof path, "%s/short.d64", tmpdir);
    CU_ASSERT_EQUAL_FATAL(write_file(path, (const uint8_t *)"abc", 3), 0);
    snprintf(options, sizeof options, "{\"drive8\":\"%s\"}", path);
    c64 *m = c64_new(options, NULL, error, sizeof error);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "drive8"));
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "not a D64"));
    m = c64_new("{\"drive8\":\"/nonexistent/x.d64\"}", NULL, error, sizeof error);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "/nonexistent/x.d64"));
    m = c64_new("{\"drive8\":3}", NULL, error, sizeof error);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "drive8"));
}

/* ---- c64.cartridge ---- */

typedef struct crt_chip {
    uint16_t bank, load, size;
    const uint8_t *data;
} crt_chip;

/* A CRT file: header (version 1.00) and ROM CHIP packets. */
static size_t crt_build(uint8_t *out, uint16_t hw_type, uint8_t exrom, uint8_t game,
                        const crt_chip *chips, size_t count)
{
    memset(out, 0, 64);
    memcpy(out, "C64 CARTRIDGE   ", 16);
    out[0x13] = 0x40;
    out[0x14] = 1;
    out[0x16] = (uint8_t)(hw_type >> 8);
    out[0x17] = (uint8_t)hw_type;
    out[0x18] = exrom;
    out[0x19] = game;
    memcpy(out + 0x20, "TEST CART", 9);
    size_t at = 64;
    for (size_t i = 0; i < count; i++) {
        uint8_t *p = out + at;
        uint32_t length = 16u + chips[i].size;
        memcpy(p, "CHIP", 4);
        p[4] = (uint8_t)(length >> 24);
        p[5] = (uint8_t)(length >> 16);
        p[6] = (uint8_t)(length >> 8);
        p[7] = (uint8_t)length;
        p[8] = 0;
        p[9] = 0; /* ROM */
        p[10] = (uint8_t)(chips[i].bank >> 8);
        p[11] = (uint8_t)chips[i].bank;
        p[12] = (uint8_t)(chips[i].load >> 8);
        p[13] = (uint8_t)chips[i].load;
        p[14] = (uint8_t)(chips[i].size >> 8);
        p[15] = (uint8_t)chips[i].size;
        memcpy(p + 16, chips[i].data, chips[i].size);
        at += length;
    }
    return at;
}

static uint8_t crt_file[64 + 3 * (16 + 8192)];
static uint8_t roml[8192], romh[8192];

/* Writes the CRT and returns options attaching it (with the debug cart). */
static const char *cart_options(const char *name, size_t size)
{
    static char options[700];
    char path[600];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    if (write_file(path, crt_file, size) != 0) return NULL;
    snprintf(options, sizeof options, "{\"cartridge\":\"%s\",\"debugcart\":true}", path);
    return options;
}

/* ROML with the CBM80 signature: cold start at $8009 runs `code`. */
static void cbm80(const uint8_t *code, size_t size)
{
    memset(roml, 0xEA, sizeof roml);
    static const uint8_t header[9] = {0x09, 0x80, 0x09, 0x80, 0xC3, 0xC2, 0xCD, 0x38, 0x30};
    memcpy(roml, header, sizeof header);
    memcpy(roml + 9, code, size);
}

static mh_run_result run_cart(const char *options, c64 **out)
{
    char error[512];
    mh_run_result r = {0};
    c64 *m = c64_new(options, NULL, error, sizeof error);
    *out = m;
    if (!m) {
        fprintf(stderr, "c64_new: %s\n", error);
        return r;
    }
    c64_run(m, BOOT_CYCLES, &r);
    return r;
}

static void test_cart_8k(void)
{
    /* LDA #$2A; STA $C000; STA $D7FF; JMP * */
    static const uint8_t code[] = {0xA9, 0x2A, 0x8D, 0x00, 0xC0, 0x8D, 0xFF, 0xD7, 0x4C, 0x11, 0x80};
    cbm80(code, sizeof code);
    crt_chip chip = {0, 0x8000, 8192, roml};
    const char *options = cart_options("8k.crt", crt_build(crt_file, 0, 0, 1, &chip, 1));
    CU_ASSERT_PTR_NOT_NULL_FATAL(options);
    c64 *m = NULL;
    mh_run_result r = run_cart(options, &m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 0x2A);
    CU_ASSERT_EQUAL(m->p.ram[0xC000], 0x2A);
    CU_ASSERT_EQUAL(m->p.exrom, 0);
    CU_ASSERT_EQUAL(m->p.game, 1);
    CU_ASSERT_EQUAL(c64_bus_peek(m, 0x8004), 0xC3);
    CU_ASSERT_EQUAL(c64_bus_peek(m, 0xA000), m->rom[0xA000]); /* BASIC stays */
    /* RAM below: $01 = $36 (LORAM low) hides ROML (the cartridge's code
     * ran before the KERNAL set the port's direction). */
    c64_bus_poke(m, 0x0000, 0x2F);
    c64_bus_poke(m, 0x0001, 0x36);
    CU_ASSERT_EQUAL(c64_bus_peek(m, 0x8004), m->p.ram[0x8004]);
    /* A hard reset starts the cartridge again. */
    m->p.ram[0xC000] = 0;
    c64_reset(m, 1);
    r = run(m, BOOT_CYCLES);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(m->p.ram[0xC000], 0x2A);
    c64_free(m);
}

static void test_cart_16k(void)
{
    /* LDA $A000; STA $C000; LDA $BFFF; STA $C001; STA $D7FF; JMP * */
    static const uint8_t code[] = {0xAD, 0x00, 0xA0, 0x8D, 0x00, 0xC0, 0xAD, 0xFF, 0xBF,
                                   0x8D, 0x01, 0xC0, 0x8D, 0xFF, 0xD7, 0x4C, 0x18, 0x80};
    cbm80(code, sizeof code);
    for (size_t i = 0; i < sizeof romh; i++) romh[i] = (uint8_t)(i * 7 + 3);
    crt_chip chips[2] = {{0, 0x8000, 8192, roml}, {0, 0xA000, 8192, romh}};
    const char *options = cart_options("16k.crt", crt_build(crt_file, 0, 0, 0, chips, 2));
    CU_ASSERT_PTR_NOT_NULL_FATAL(options);
    c64 *m = NULL;
    mh_run_result r = run_cart(options, &m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, romh[8191]);
    CU_ASSERT_EQUAL(m->p.ram[0xC000], romh[0]);
    CU_ASSERT_EQUAL(m->p.ram[0xC001], romh[8191]);
    CU_ASSERT_EQUAL(c64_bus_peek(m, 0xA123), romh[0x123]);
    CU_ASSERT_EQUAL(c64_bus_peek(m, 0xE000), m->rom[0xE000]); /* the KERNAL stays */
    c64_free(m);
}

static void test_cart_ultimax(void)
{
    /* ROMH at $E000: LDA $E100; STA $0800; STA $D7FF; JMP *; reset vector $E000. */
    memset(romh, 0xEA, sizeof romh);
    static const uint8_t code[] = {0xAD, 0x00, 0xE1, 0x8D, 0x00, 0x08, 0x8D, 0xFF, 0xD7,
                                   0x4C, 0x09, 0xE0};
    memcpy(romh, code, sizeof code);
    romh[0x100] = 0x5A;
    for (size_t i = 0x1000; i < 0x1FFA; i++) romh[i] = (uint8_t)(i ^ 0x55);
    romh[0x1FFC] = 0x00;
    romh[0x1FFD] = 0xE0;
    crt_chip chip = {0, 0xE000, 8192, romh};
    const char *options = cart_options("ultimax.crt", crt_build(crt_file, 0, 1, 0, &chip, 1));
    CU_ASSERT_PTR_NOT_NULL_FATAL(options);
    c64 *m = NULL;
    mh_run_result r = run_cart(options, &m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 0x5A);
    CU_ASSERT_EQUAL(m->p.ram[0x0800], 0x5A);
    CU_ASSERT_EQUAL(m->p.exrom, 1);
    CU_ASSERT_EQUAL(m->p.game, 0);
    /* No ROML: $8000 is open; the VIC sees ROMH's upper 4K at $3000. */
    CU_ASSERT_EQUAL(c64_bus_peek(m, 0xFFFD), 0xE0);
    for (uint16_t a = 0x3000; a < 0x3FF0; a += 0x155)
        CU_ASSERT_EQUAL(c64_vic_fetch(m, a), romh[0x1000 + (a & 0xFFF)]);
    CU_ASSERT_EQUAL(c64_vic_fetch(m, 0x1000), m->p.ram[0x1000]); /* no character ROM */
    c64_free(m);
}

/* The memory configurations of the C64's PLA, written from the documented
 * tables (the C64 Programmer's Reference Guide, the C64 wiki's "Bank
 * Switching"; docs/machine-c64.md), not from c64_pla.c: for each cartridge kind and $01 & 7, what a CPU read sees in
 * each 4 KiB block $0xxx..$Fxxx. R RAM, B BASIC, K KERNAL, C character ROM,
 * I I/O, L ROML, H ROMH, O open (Ultimax: the last value on the bus). */
static const struct {
    const char *kind;
    uint8_t exrom, game;
    const char *blocks[8]; /* by $01 & 7 */
} pla_table[] = {
    {"no cartridge", 1, 1,
     {"RRRRRRRRRRRRRRRR", "RRRRRRRRRRRRRCRR", "RRRRRRRRRRRRRCKK", "RRRRRRRRRRBBRCKK",
      "RRRRRRRRRRRRRRRR", "RRRRRRRRRRRRRIRR", "RRRRRRRRRRRRRIKK", "RRRRRRRRRRBBRIKK"}},
    {"8K", 0, 1,
     {"RRRRRRRRRRRRRRRR", "RRRRRRRRRRRRRCRR", "RRRRRRRRRRRRRCKK", "RRRRRRRRLLBBRCKK",
      "RRRRRRRRRRRRRRRR", "RRRRRRRRRRRRRIRR", "RRRRRRRRRRRRRIKK", "RRRRRRRRLLBBRIKK"}},
    {"16K", 0, 0,
     {"RRRRRRRRRRRRRRRR", "RRRRRRRRRRRRRRRR", "RRRRRRRRRRHHRCKK", "RRRRRRRRLLHHRCKK",
      "RRRRRRRRRRRRRRRR", "RRRRRRRRRRRRRIRR", "RRRRRRRRRRHHRIKK", "RRRRRRRRLLHHRIKK"}},
    {"Ultimax", 1, 0,
     {"ROOOOOOOLLOOOIHH", "ROOOOOOOLLOOOIHH", "ROOOOOOOLLOOOIHH", "ROOOOOOOLLOOOIHH",
      "ROOOOOOOLLOOOIHH", "ROOOOOOOLLOOOIHH", "ROOOOOOOLLOOOIHH", "ROOOOOOOLLOOOIHH"}},
};

/* The byte a read of addr gives when the block shows `bank`. */
static uint8_t bank_byte(c64 *m, char bank, uint16_t addr)
{
    switch (bank) {
    case 'R': return m->p.ram[addr];
    case 'B': case 'K': case 'C': return m->rom[addr];
    case 'I': return c64_io_peek(m, addr);
    case 'L': return roml[addr & 0x1FFF];
    case 'H': return romh[addr & 0x1FFF];
    default: return m->vic.bus_phi1;
    }
}

/* Every EXROM/GAME x $01 combination through the machine's CPU bus: each
 * 4 KiB block reads what the table says, and the byte tells that bank
 * apart from every other one that could be there. */
static void test_cart_pla_table(void)
{
    for (size_t i = 0; i < sizeof roml; i++) {
        roml[i] = (uint8_t)(0x80 ^ (i * 5));
        romh[i] = (uint8_t)(0x40 ^ (i * 3));
    }
    for (size_t k = 0; k < sizeof pla_table / sizeof pla_table[0]; k++) {
        char options[700] = "{}";
        if (pla_table[k].exrom == 0 || pla_table[k].game == 0) {
            /* ROML at $8000; a 16K image adds ROMH at $A000, Ultimax has it at $E000 */
            crt_chip chips[2] = {{0, 0x8000, 8192, roml},
                                 {0, pla_table[k].exrom ? 0xE000 : 0xA000, 8192, romh}};
            size_t count = pla_table[k].game ? 1 : 2;
            const char *o = cart_options("pla.crt", crt_build(crt_file, 0, pla_table[k].exrom,
                                                              pla_table[k].game, chips, count));
            CU_ASSERT_PTR_NOT_NULL_FATAL(o);
            snprintf(options, sizeof options, "%s", o);
        }
        char error[512];
        c64 *m = c64_new(options, NULL, error, sizeof error);
        if (!m) fprintf(stderr, "\n  %s: %s\n", pla_table[k].kind, error);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        CU_ASSERT_EQUAL(m->p.exrom, pla_table[k].exrom);
        CU_ASSERT_EQUAL(m->p.game, pla_table[k].game);
        m->vic.bus_phi1 = 0x3C;
        for (unsigned block = 0; block < 16; block++) /* RAM unlike any ROM byte there */
            for (unsigned a = block << 12; a < (block << 12) + 0x1000; a += 0x100)
                m->p.ram[a + 0x21] = (uint8_t)(m->rom[a + 0x21] ^ roml[(a + 0x21) & 0x1FFF] ^ 0x5A);
        c64_bus_poke(m, 0x0000, 0x2F);
        for (uint8_t port = 0; port < 8; port++) {
            c64_bus_poke(m, 0x0001, (uint8_t)(0x30 | port));
            CU_ASSERT_EQUAL(mh_cpu6502_port_pins(&m->cpu) & 7, port);
            const char *want = pla_table[k].blocks[port];
            for (unsigned block = 0; block < 16; block++) {
                uint16_t addr = (uint16_t)((block << 12) | 0x0321);
                uint8_t got = c64_bus_peek(m, addr);
                uint8_t expected = bank_byte(m, want[block], addr);
                /* the bytes of the banks this block could show must differ */
                static const char banks[] = "RBKCILHO";
                int ambiguous = 0;
                for (const char *b = banks; *b; b++)
                    if (*b != want[block] && bank_byte(m, *b, addr) == expected &&
                        !(strchr("BKC", *b) && strchr("BKC", want[block])))
                        ambiguous = 1;
                if (got != expected || ambiguous)
                    fprintf(stderr, "\n  %s, $01 = %u: $%04X read $%02X, want $%02X (%c)%s\n",
                            pla_table[k].kind, port, addr, got, expected, want[block],
                            ambiguous ? ", which another bank has too" : "");
                CU_ASSERT_EQUAL(got, expected);
                CU_ASSERT_FALSE(ambiguous);
            }
        }
        c64_free(m);
    }
}

static uint8_t c64_ref_peek(const void *m, uint16_t addr) { return c64_bus_peek(m, addr); }

/* memory_read's bulk path: for every EXROM/GAME x $01 configuration (and
 * 16K and Ultimax images with one chip only, so a missing ROMH or ROML
 * reads open), the memory interface's 64 KiB peek and peek_runs give
 * exactly the bytes c64_bus_peek gives one by one. */
static void test_cart_bulk_read(void)
{
    mrt_fill_pattern(roml, sizeof roml, 1);
    mrt_fill_pattern(romh, sizeof romh, 2);
    static const struct {
        const char *kind;
        uint8_t exrom, game;
        uint16_t loads[2]; /* ROML/ROMH chips at these addresses (0: none) */
    } carts[] = {
        {"no cartridge", 1, 1, {0, 0}},
        {"8K", 0, 1, {0x8000, 0}},
        {"16K", 0, 0, {0x8000, 0xA000}},
        {"16K, ROML only", 0, 0, {0x8000, 0}},
        {"Ultimax", 1, 0, {0x8000, 0xE000}},
        {"Ultimax, ROMH only", 1, 0, {0xE000, 0}},
    };
    for (size_t k = 0; k < sizeof carts / sizeof carts[0]; k++) {
        char options[700] = "{\"debugcart\":true}";
        if (carts[k].loads[0]) {
            crt_chip chips[2];
            size_t count = 0;
            for (size_t i = 0; i < 2 && carts[k].loads[i]; i++) {
                crt_chip chip = {0, carts[k].loads[i], 8192,
                                 carts[k].loads[i] == 0x8000 ? roml : romh};
                chips[count++] = chip;
            }
            const char *o = cart_options("bulk.crt", crt_build(crt_file, 0, carts[k].exrom,
                                                               carts[k].game, chips, count));
            CU_ASSERT_PTR_NOT_NULL_FATAL(o);
            snprintf(options, sizeof options, "%s", o);
        }
        char error[512];
        c64 *m = c64_new(options, NULL, error, sizeof error);
        if (!m) fprintf(stderr, "\n  %s: %s\n", carts[k].kind, error);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        CU_ASSERT_EQUAL(m->p.exrom, carts[k].exrom);
        CU_ASSERT_EQUAL(m->p.game, carts[k].game);
        mh_chip chips[16];
        size_t count = c64_ifaces_chips(m, chips, 16);
        mrt_fill_pattern(m->p.ram, sizeof m->p.ram, (uint8_t)k);
        m->vic.bus_phi1 = 0x3C;
        c64_bus_poke(m, 0x0000, 0x2F);
        for (uint8_t port = 0; port < 8; port++) {
            c64_bus_poke(m, 0x0001, (uint8_t)(0x30 | port));
            char label[96];
            snprintf(label, sizeof label, "%s, $01 & 7 = %u", carts[k].kind, port);
            mrt_check_cpu_space(chips, count, m, c64_ref_peek, label);
        }
        c64_free(m);
    }
}

static void expect_cart_error(const char *name, size_t size, const char *fragment)
{
    const char *options = cart_options(name, size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(options);
    char error[512];
    c64 *m = c64_new(options, NULL, error, sizeof error);
    CU_ASSERT_PTR_NULL(m);
    c64_free(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, fragment));
    CU_ASSERT_PTR_NOT_NULL(strstr(error, name));
    if (!strstr(error, fragment)) fprintf(stderr, "\n%s: %s\n", name, error);
}

static void test_cart_errors(void)
{
    memset(roml, 0, sizeof roml);
    crt_chip chip = {0, 0x8000, 8192, roml};
    expect_cart_error("easyflash.crt", crt_build(crt_file, 32, 1, 0, &chip, 1),
                      "hardware type 32 (EasyFlash) is not supported");
    expect_cart_error("ocean.crt", crt_build(crt_file, 5, 0, 0, &chip, 1), "hardware type 5");
    size_t size = crt_build(crt_file, 0, 0, 1, &chip, 1);
    expect_cart_error("truncated.crt", size - 100, "cartridge");
    expect_cart_error("nochips.crt", 64, "cartridge");
    crt_build(crt_file, 0, 0, 1, &chip, 1);
    memcpy(crt_file, "C64 CARTRIDGX   ", 16);
    expect_cart_error("badsig.crt", size, "cartridge");
    expect_cart_error("nolines.crt", crt_build(crt_file, 0, 1, 1, &chip, 1), "no generic layout");
}

MH_SUITE("c64.cartridge", suite_init, suite_cleanup, MH_TEST(test_cart_8k), MH_TEST(test_cart_16k),
         MH_TEST(test_cart_ultimax), MH_TEST(test_cart_pla_table), MH_TEST(test_cart_bulk_read),
         MH_TEST(test_cart_errors))
MH_SUITE("c64.drive", suite_init, suite_cleanup, MH_TEST(test_basic_load_and_run),
         MH_TEST(test_kernal_load_registers), MH_TEST(test_drive_option_errors))
MH_SUITE("c64.reset", NULL, NULL, MH_TEST(test_soft_reset), MH_TEST(test_hard_reset),
         MH_TEST(test_reset_after_exit))
