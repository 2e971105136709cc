/* boot_rom.*: mcphost's free VIC-20 and Plus/4 boot KERNALs (roms/) run on
 * the SDK 6502 core with a small bus (boot_rom_bus.h): power-on to the
 * banner and READY. prompt, the chips set up for the model, CHROUT with
 * control codes, SCNKEY/GETIN through the keyboard matrix, STOP, LOAD's
 * "device not present", RUN of a BASIC SYS stub and SYS typed directly
 * (through mh_kernal_inject, the autostart path), and an unknown command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot_rom.h"
#include "boot_rom_bus.h"
#include "mcphost/media_d64.h"
#include "mh_test.h"
#include "test_media_build.h"

static rom_bus *boot(int plus4, int ntsc, int expanded)
{
    rom_bus *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    size_t size = 0;
    const uint8_t *rom = plus4 ? mh_boot_rom_plus4_kernal(ntsc, &size)
                               : mh_boot_rom_vic20_kernal(ntsc, &size);
    rom_bus_init(b, plus4, rom, size);
    b->expanded = expanded;
    CU_ASSERT_TRUE(rom_bus_run_to_prompt(b, 3000000));
    return b;
}

static void test_images(void)
{
    size_t size = 0;
    const uint8_t *vic = mh_boot_rom_vic20_kernal(0, &size);
    CU_ASSERT_EQUAL(size, 8192);
    CU_ASSERT_PTR_NOT_NULL(vic);
    /* RESET vector $FD22, IRQ vector $FF72 as on the original */
    CU_ASSERT_EQUAL(vic[0x1FFC] | vic[0x1FFD] << 8, 0xFD22);
    CU_ASSERT_EQUAL(vic[0x1FFE] | vic[0x1FFF] << 8, 0xFF72);
    CU_ASSERT_EQUAL(vic[0x1FFA] | vic[0x1FFB] << 8, 0xFEA9);
    /* the VIC's register table where the original has it ($EDE4) */
    CU_ASSERT_EQUAL(vic[0x0DE4], 12);
    CU_ASSERT_EQUAL(vic[0x0DE5], 38);
    CU_ASSERT_EQUAL(vic[0x0DF3], 0x1B);
    const uint8_t *vic_ntsc = mh_boot_rom_vic20_kernal(1, &size);
    CU_ASSERT_EQUAL(vic_ntsc[0x0DE4], 5);
    CU_ASSERT_EQUAL(vic_ntsc[0x0DE5], 25);
    CU_ASSERT_NOT_EQUAL(memcmp(vic, vic_ntsc, 8192), 0);
    const uint8_t *p4 = mh_boot_rom_plus4_kernal(0, &size);
    CU_ASSERT_EQUAL(size, 16384);
    CU_ASSERT_EQUAL(p4[0x3FFC] | p4[0x3FFD] << 8, 0xFFF6);
    CU_ASSERT_EQUAL(p4[0x3FFE] | p4[0x3FFF] << 8, 0xFCB3);
    CU_ASSERT_EQUAL(p4[0x3FFA] | p4[0x3FFB] << 8, 0xF2A4);
    int zero = 1; /* the character set's place stays empty */
    for (int i = 0x1000; i < 0x1800; i++) zero &= p4[i] == 0;
    CU_ASSERT_TRUE(zero);
    /* every jump-table entry is a JMP */
    for (uint16_t a = 0xFF8A; a <= 0xFFF3; a = (uint16_t)(a + 3))
        CU_ASSERT_TRUE(vic[a - 0xE000] == 0x4C || vic[a - 0xE000] == 0x6C);
    for (uint16_t a = 0xFF81; a <= 0xFFF3; a = (uint16_t)(a + 3))
        CU_ASSERT_TRUE(p4[a - 0xC000] == 0x4C || p4[a - 0xC000] == 0x6C);
}

static void test_vic20_boot_pal(void)
{
    rom_bus *b = boot(0, 0, 0);
    if (!b) return;
    char row[64];
    rom_bus_screen_row(b, 0, row);
    CU_ASSERT_STRING_EQUAL(row, "MCPHOST FREE BOOT ROM");
    CU_ASSERT_TRUE(rom_bus_screen_has(b, "--ROM-DIR."));
    CU_ASSERT_TRUE(rom_bus_screen_has(b, "READY."));
    CU_ASSERT_EQUAL(b->ram[0x0288], 0x1E);          /* screen at $1E00 */
    CU_ASSERT_EQUAL(b->io[0x00], 12);               /* PAL origin */
    CU_ASSERT_EQUAL(b->io[0x01], 38);
    CU_ASSERT_EQUAL(b->io[0x02], 0x96);             /* 22 columns, screen bit 9 */
    CU_ASSERT_EQUAL(b->io[0x03], 0x2E);             /* 23 rows */
    CU_ASSERT_EQUAL(b->io[0x05], 0xF0);             /* screen $1E00, chars $8000 */
    CU_ASSERT_EQUAL(b->io[0x24] | b->io[0x25] << 8, 0x4826); /* VIA2 T1 */
    CU_ASSERT_EQUAL(b->io[0x2E], 0xC0);             /* T1 IRQ enabled */
    CU_ASSERT_EQUAL(b->io[0x2B] & 0x40, 0x40);      /* free-running */
    CU_ASSERT_EQUAL(b->ram[0x2B] | b->ram[0x2C] << 8, 0x1001); /* TXTTAB */
    CU_ASSERT_EQUAL(b->ram[0x0283] | b->ram[0x0284] << 8, 0x1E00); /* MEMSIZ */
    CU_ASSERT_EQUAL(b->ram[0x0314] | b->ram[0x0315] << 8, 0xEABF); /* CINV */
    CU_ASSERT_EQUAL(b->ram[0x0316] | b->ram[0x0317] << 8, 0xFED2); /* CBINV */
    CU_ASSERT_EQUAL(b->ram[0x0318] | b->ram[0x0319] << 8, 0xFEAD); /* NMINV */
    CU_ASSERT_EQUAL(b->ram[0x9600] & 0x0F, 6);      /* blue text */
    free(b);
}

static void test_vic20_boot_ntsc_expanded(void)
{
    rom_bus *b = boot(0, 1, 1);
    if (!b) return;
    CU_ASSERT_EQUAL(b->io[0x00], 5);
    CU_ASSERT_EQUAL(b->io[0x01], 25);
    CU_ASSERT_EQUAL(b->io[0x24] | b->io[0x25] << 8, 0x4289);
    CU_ASSERT_EQUAL(b->ram[0x0288], 0x10);          /* screen moved to $1000 */
    CU_ASSERT_EQUAL(b->io[0x05], 0xC0);
    CU_ASSERT_EQUAL(b->io[0x02], 0x16);
    CU_ASSERT_EQUAL(b->ram[0x2B] | b->ram[0x2C] << 8, 0x1201);
    CU_ASSERT_EQUAL(b->ram[0x0283] | b->ram[0x0284] << 8, 0x8000);
    char row[64];
    rom_bus_screen_row(b, 0, row);
    CU_ASSERT_STRING_EQUAL(row, "MCPHOST FREE BOOT ROM");
    CU_ASSERT_EQUAL(b->ram[0x9400] & 0x0F, 6);      /* colour RAM at $9400 now */
    free(b);
}

static void test_plus4_boot(void)
{
    for (int ntsc = 0; ntsc <= 1; ntsc++) {
        rom_bus *b = boot(1, ntsc, 0);
        if (!b) return;
        char row[64];
        rom_bus_screen_row(b, 0, row);
        CU_ASSERT_STRING_EQUAL(row, "MCPHOST FREE BOOT ROM (NO BASIC)");
        rom_bus_screen_row(b, 1, row);
        CU_ASSERT_STRING_EQUAL(row, "GIVE THE ORIGINAL ROMS WITH --ROM-DIR.");
        CU_ASSERT_TRUE(rom_bus_screen_has(b, "READY."));
        CU_ASSERT_EQUAL(b->io[0x06], 0x1B);          /* text, 25 rows, display on */
        CU_ASSERT_EQUAL(b->io[0x07], ntsc ? 0x48 : 0x08);
        CU_ASSERT_EQUAL(b->io[0x0A], 0x02);          /* raster IRQ */
        CU_ASSERT_EQUAL(b->io[0x12] & 0x04, 0x04);   /* characters from ROM */
        CU_ASSERT_EQUAL(b->io[0x13] & 0xFC, 0xD0);   /* at $D000 */
        CU_ASSERT_EQUAL(b->io[0x14] & 0xF8, 0x08);   /* attributes $0800, screen $0C00 */
        CU_ASSERT_EQUAL(b->ram[0x2B] | b->ram[0x2C] << 8, 0x1001);
        CU_ASSERT_EQUAL(b->ram[0x0533] | b->ram[0x0534] << 8, 0xFD00);
        CU_ASSERT_EQUAL(b->ram[0x0314] | b->ram[0x0315] << 8, 0xCE0E);
        CU_ASSERT_EQUAL(b->ram[0x0800], 0x00);       /* black attribute */
        free(b);
    }
}

/* 10 SYS 4109 at $1001, then code that sets a marker and prints "OK". */
static const uint8_t sys_stub_prg[] = {
    0x0B, 0x10, 0x0A, 0x00, 0x9E, '4', '1', '0', '9', 0x00, 0x00, 0x00,
    0xA9, 0x2A, 0x8D, 0xF8, 0x03,             /* LDA #$2A; STA $03F8 */
    0xA9, 'O', 0x20, 0xD2, 0xFF, 0xA9, 'K', 0x20, 0xD2, 0xFF, 0x60};

static void run_stub(int plus4)
{
    rom_bus *b = boot(plus4, 0, 0);
    if (!b) return;
    char typed[32];
    mh_kernal_inject(&b->kernal, sys_stub_prg, sizeof sys_stub_prg, 0x1001, 1, typed,
                     sizeof typed);
    CU_ASSERT_STRING_EQUAL(typed, "RUN");
    CU_ASSERT_TRUE(rom_bus_run_to_prompt(b, 2000000));
    CU_ASSERT_EQUAL(b->ram[0x03F8], 0x2A);
    CU_ASSERT_TRUE(rom_bus_screen_has(b, "RUN"));
    CU_ASSERT_TRUE(rom_bus_screen_has(b, "OK"));
    free(b);
}

static void test_vic20_run_sys_stub(void) { run_stub(0); }
static void test_plus4_run_sys_stub(void) { run_stub(1); }

static void sys_direct(int plus4)
{
    rom_bus *b = boot(plus4, 0, 0);
    if (!b) return;
    const uint8_t code[] = {0xA9, 0x33, 0x8D, 0xF8, 0x03, 0x60};
    char typed[32];
    mh_kernal_inject(&b->kernal, code, sizeof code, 0x1100, 1, typed, sizeof typed);
    CU_ASSERT_STRING_EQUAL(typed, "SYS4352");
    CU_ASSERT_TRUE(rom_bus_run_to_prompt(b, 2000000));
    CU_ASSERT_EQUAL(b->ram[0x03F8], 0x33);
    CU_ASSERT_TRUE(rom_bus_screen_has(b, "SYS4352"));
    /* a second prompt after the program returned */
    int readies = 0, rows = plus4 ? 25 : 23;
    char row[64];
    for (int r = 0; r < rows; r++) {
        rom_bus_screen_row(b, r, row);
        readies += strcmp(row, "READY.") == 0;
    }
    CU_ASSERT_EQUAL(readies, 2);
    free(b);
}

static void test_vic20_sys_direct(void) { sys_direct(0); }
static void test_plus4_sys_direct(void) { sys_direct(1); }

static void type_line(rom_bus *b, const char *text)
{
    mh_kernal_queue q;
    memset(&q, 0, sizeof q);
    char error[128];
    mh_kernal_queue_push(&q, (const uint8_t *)text, strlen(text), error, sizeof error);
    for (int i = 0; i < 1000000 && q.count; i++) {
        mh_kernal_feed(&b->kernal, &q);
        mh_cpu6502_step(&b->cpu);
    }
    CU_ASSERT_EQUAL(q.count, 0);
    CU_ASSERT_TRUE(rom_bus_run_to_prompt(b, 2000000));
}

static void test_unknown_and_errors(void)
{
    for (int plus4 = 0; plus4 <= 1; plus4++) {
        rom_bus *b = boot(plus4, 0, 0);
        if (!b) return;
        type_line(b, "LIST\r");
        CU_ASSERT_TRUE(rom_bus_screen_has(b, "LIST"));
        CU_ASSERT_TRUE(rom_bus_screen_has(b, "?ONLY RUN AND SYS N"));
        type_line(b, "SYS\r");
        CU_ASSERT_TRUE(rom_bus_screen_has(b, "?SYS NEEDS AN ADDRESS"));
        type_line(b, "RUN\r"); /* an empty program */
        CU_ASSERT_TRUE(rom_bus_screen_has(b, "?NO SYS LINE TO RUN"));
        free(b);
    }
}

/* Hostile input: a line longer than the input buffer, and a BASIC program
 * whose line links form a loop without a SYS line. */
static void test_hostile_lines_and_programs(void)
{
    for (int plus4 = 0; plus4 <= 1; plus4++) {
        rom_bus *b = boot(plus4, 0, 0);
        if (!b) return;
        char line[202];
        memset(line, 'X', 200);
        line[200] = '\r';
        line[201] = '\0';
        uint8_t below = b->ram[0x0251]; /* after BUF's 80 characters and CR */
        type_line(b, line);
        CU_ASSERT_EQUAL(b->ram[0x0251], below);
        CU_ASSERT_TRUE(rom_bus_screen_has(b, "?ONLY RUN AND SYS N"));
        /* line at $1001 links to itself: 10 PRINT */
        const uint8_t loop[] = {0x01, 0x10, 0x0A, 0x00, 0x99, 0x00};
        memcpy(b->ram + 0x1001, loop, sizeof loop);
        type_line(b, "RUN\r");
        CU_ASSERT_TRUE(rom_bus_screen_has(b, "?NO SYS LINE TO RUN"));
        free(b);
    }
}

static void test_chrout_controls(void)
{
    for (int plus4 = 0; plus4 <= 1; plus4++) {
        rom_bus *b = boot(plus4, 0, 0);
        if (!b) return;
        const uint8_t codes[] = {0x93, 'A', 'B', 0x0D, 0x12, 'C', 0x92, 0x1C, 'D', 0x13, 0x11,
                                 0x1D, 0x1D, 0x1D, 'E', 0x14};
        for (size_t i = 0; i < sizeof codes; i++) {
            uint8_t a = codes[i], x = 0x55, y = 0x66, p = 0;
            CU_ASSERT_TRUE(rom_bus_call(b, 0xFFD2, &a, &x, &y, &p));
            CU_ASSERT_EQUAL(a, codes[i]); /* registers kept */
            CU_ASSERT_EQUAL(x, 0x55);
            CU_ASSERT_EQUAL(y, 0x66);
        }
        uint16_t screen = plus4 ? 0x0C00 : 0x1E00, color = plus4 ? 0x0800 : 0x9600;
        int cols = plus4 ? 40 : 22;
        CU_ASSERT_EQUAL(b->ram[screen], 0x01);                   /* A */
        CU_ASSERT_EQUAL(b->ram[screen + 1], 0x02);               /* B */
        CU_ASSERT_EQUAL(b->ram[screen + cols], 0x83);            /* reverse C */
        CU_ASSERT_EQUAL(b->ram[screen + cols + 1], 0x04);        /* D, reverse off */
        CU_ASSERT_EQUAL(b->ram[color + cols + 1] & (plus4 ? 0xFF : 0x0F), plus4 ? 0x32 : 2);
        CU_ASSERT_EQUAL(b->ram[screen + cols + 3], 0x20);        /* E deleted */
        uint8_t a = 0, x = 0, y = 0, p = MH_CPU6502_FLAG_C;     /* PLOT reads */
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFFF0, &a, &x, &y, &p));
        CU_ASSERT_EQUAL(x, 1);
        CU_ASSERT_EQUAL(y, 3);
        /* $0E: lower case characters; $8E: upper case again */
        a = 0x0E;
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFFD2, &a, &x, &y, &p));
        CU_ASSERT_EQUAL(plus4 ? b->io[0x13] & 0xFC : b->io[0x05], plus4 ? 0xD4 : 0xF2);
        a = 0x8E;
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFFD2, &a, &x, &y, &p));
        CU_ASSERT_EQUAL(plus4 ? b->io[0x13] & 0xFC : b->io[0x05], plus4 ? 0xD0 : 0xF0);
        free(b);
    }
}

/* Sets one key in the matrix by its select and key line. */
static void press(rom_bus *b, int select, int line)
{
    b->matrix[select] |= (uint8_t)(1u << line);
}

static void test_scnkey_getin(void)
{
    /* 'A': VIC-20 select 2 line 1; Plus/4 select 1 line 2. SHIFT: VIC-20
     * select 3 line 1; Plus/4 select 1 line 7. STOP: VIC-20 select 3 line
     * 0; Plus/4 select 7 line 7. */
    static const int keys[2][6] = {{2, 1, 3, 1, 3, 0}, {1, 2, 1, 7, 7, 7}};
    for (int plus4 = 0; plus4 <= 1; plus4++) {
        rom_bus *b = boot(plus4, 0, 0);
        if (!b) return;
        const int *k = keys[plus4];
        uint16_t ndx = plus4 ? 0xEF : 0xC6, keyd = plus4 ? 0x0527 : 0x0277;
        uint8_t a = 0, x = 0, y = 0, p = MH_CPU6502_FLAG_I;
        press(b, k[0], k[1]);
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFF9F, &a, &x, &y, &p));
        CU_ASSERT_EQUAL(b->ram[ndx], 1);
        CU_ASSERT_EQUAL(b->ram[keyd], 0x41);
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFF9F, &a, &x, &y, &p)); /* held: no repeat */
        CU_ASSERT_EQUAL(b->ram[ndx], 1);
        memset(b->matrix, 0, sizeof b->matrix);
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFF9F, &a, &x, &y, &p));
        press(b, k[0], k[1]);
        press(b, k[2], k[3]);
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFF9F, &a, &x, &y, &p));
        CU_ASSERT_EQUAL(b->ram[ndx], 2);
        CU_ASSERT_EQUAL(b->ram[keyd + 1], 0xC1); /* shifted A */
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFFE4, &a, &x, &y, &p));
        CU_ASSERT_EQUAL(a, 0x41);
        CU_ASSERT_EQUAL(b->ram[ndx], 1);
        CU_ASSERT_EQUAL(b->ram[keyd], 0xC1);
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFFE4, &a, &x, &y, &p));
        CU_ASSERT_EQUAL(a, 0xC1);
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFFE4, &a, &x, &y, &p));
        CU_ASSERT_EQUAL(a, 0); /* empty */
        CU_ASSERT_FALSE(p & MH_CPU6502_FLAG_C);
        /* STOP: UDTIM reads the STOP line, STOP returns Z set */
        memset(b->matrix, 0, sizeof b->matrix);
        uint16_t time = plus4 ? 0xA3 : 0xA0;
        uint8_t before = b->ram[time + 2];
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFFEA, &a, &x, &y, &p));
        CU_ASSERT_EQUAL(b->ram[time + 2], (uint8_t)(before + 1));
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFFE1, &a, &x, &y, &p));
        CU_ASSERT_FALSE(p & MH_CPU6502_FLAG_Z);
        press(b, k[4], k[5]);
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFFEA, &a, &x, &y, &p));
        CU_ASSERT_EQUAL(b->ram[0x91], plus4 ? 0x7F : 0xFE);
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFFE1, &a, &x, &y, &p));
        CU_ASSERT_TRUE(p & MH_CPU6502_FLAG_Z);
        free(b);
    }
}

/* A held key: SPACE repeats after 16 scans, then every 4; A does not. */
static void test_key_repeat(void)
{
    static const int space[2][2] = {{4, 0}, {7, 4}}, letter_a[2][2] = {{2, 1}, {1, 2}};
    for (int plus4 = 0; plus4 <= 1; plus4++) {
        rom_bus *b = boot(plus4, 0, 0);
        if (!b) return;
        uint16_t ndx = plus4 ? 0xEF : 0xC6, keyd = plus4 ? 0x0527 : 0x0277;
        uint8_t a = 0, x = 0, y = 0, p = MH_CPU6502_FLAG_I;
        press(b, letter_a[plus4][0], letter_a[plus4][1]);
        for (int i = 0; i < 30; i++) CU_ASSERT_TRUE(rom_bus_call(b, 0xFF9F, &a, &x, &y, &p));
        CU_ASSERT_EQUAL(b->ram[ndx], 1);
        memset(b->matrix, 0, sizeof b->matrix);
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFF9F, &a, &x, &y, &p));
        b->ram[ndx] = 0;
        press(b, space[plus4][0], space[plus4][1]);
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFF9F, &a, &x, &y, &p));
        for (int i = 0; i < 15; i++) CU_ASSERT_TRUE(rom_bus_call(b, 0xFF9F, &a, &x, &y, &p));
        CU_ASSERT_EQUAL(b->ram[ndx], 1);
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFF9F, &a, &x, &y, &p)); /* the 16th: repeat */
        CU_ASSERT_EQUAL(b->ram[ndx], 2);
        for (int i = 0; i < 4; i++) CU_ASSERT_TRUE(rom_bus_call(b, 0xFF9F, &a, &x, &y, &p));
        CU_ASSERT_EQUAL(b->ram[ndx], 3);
        CU_ASSERT_EQUAL(b->ram[keyd + 2], 0x20);
        free(b);
    }
}

static void test_load_save_clock(void)
{
    for (int plus4 = 0; plus4 <= 1; plus4++) {
        rom_bus *b = boot(plus4, 0, 0);
        if (!b) return;
        uint8_t a = 1, x = 1, y = 0, p = 0;                    /* SETLFS 1,1,0 */
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFFBA, &a, &x, &y, &p));
        CU_ASSERT_EQUAL(b->ram[plus4 ? 0xAE : 0xBA], 1);
        a = 0;
        x = 0x01;
        y = 0x10;
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFFD5, &a, &x, &y, &p)); /* LOAD */
        CU_ASSERT_TRUE(p & MH_CPU6502_FLAG_C);
        CU_ASSERT_EQUAL(a, 5); /* device not present */
        a = 0x2B;
        x = 0x00;
        y = 0x11;
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFFD8, &a, &x, &y, &p)); /* SAVE */
        CU_ASSERT_TRUE(p & MH_CPU6502_FLAG_C);
        CU_ASSERT_EQUAL(a, 5);
        a = 0x34;
        x = 0x12;
        y = 0x01;
        p = 0;
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFFDB, &a, &x, &y, &p)); /* SETTIM */
        a = x = y = 0;
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFFDE, &a, &x, &y, &p)); /* RDTIM */
        CU_ASSERT_EQUAL(a, 0x34);
        CU_ASSERT_EQUAL(x, 0x12);
        CU_ASSERT_EQUAL(y, 0x01);
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFFED, &a, &x, &y, &p)); /* SCREEN */
        CU_ASSERT_EQUAL(x, plus4 ? 40 : 22);
        CU_ASSERT_EQUAL(y, plus4 ? 25 : 23);
        a = 0;
        CU_ASSERT_TRUE(rom_bus_call(b, 0xFFC0, &a, &x, &y, &p)); /* OPEN */
        CU_ASSERT_TRUE(p & MH_CPU6502_FLAG_C);
        free(b);
    }
}

/* Every jump-table entry but CHRIN (which waits for a typed line) and the
 * Plus/4's RAMTAS (which clears the page the calling stub is in) returns;
 * VECTOR reads into $0380 (carry set); then the prompt still works. */
static void test_every_entry_returns(void)
{
    for (int plus4 = 0; plus4 <= 1; plus4++) {
        rom_bus *b = boot(plus4, 0, 0);
        if (!b) return;
        int returned = 0, total = 0;
        for (uint16_t entry = plus4 ? 0xFF81 : 0xFF8A; entry <= 0xFFF3; entry = (uint16_t)(entry + 3)) {
            if (entry == 0xFFCF || entry == 0xFF87) continue; /* CHRIN, RAMTAS */
            uint8_t a = 0, x = 0x80, y = 0x03, p = MH_CPU6502_FLAG_C;
            total++;
            int ok = rom_bus_call(b, entry, &a, &x, &y, &p);
            if (!ok) fprintf(stderr, "\n  $%04X did not return (pc $%04X)\n", entry, b->cpu.pc);
            returned += ok;
        }
        CU_ASSERT_EQUAL(returned, total);
        CU_ASSERT_EQUAL(b->ram[0x0380] | b->ram[0x0381] << 8, plus4 ? 0xCE0E : 0xEABF);
        b->cpu.pc = plus4 ? 0xF2A4 : 0xFD22;           /* reset */
        CU_ASSERT_TRUE(rom_bus_run_to_prompt(b, 3000000));
        const uint8_t code[] = {0xA9, 0x77, 0x8D, 0xF8, 0x03, 0x60};
        char typed[32];
        mh_kernal_inject(&b->kernal, code, sizeof code, 0x1100, 1, typed, sizeof typed);
        CU_ASSERT_TRUE(rom_bus_run_to_prompt(b, 2000000));
        CU_ASSERT_EQUAL(b->ram[0x03F8], 0x77);
        free(b);
    }
}

/* LOAD at the prompt: without a drive "?DEVICE NOT PRESENT"; with the
 * machines' trap at $FFD5 (mh_kernal_load_trap) the disk autostart's
 * LOAD"*",8,1 and RUN start the program; a missing file is named. */
static void test_load_command(void)
{
    tb_d64 builder;
    tb_d64_init(&builder, 35, false, "BOOT", "01");
    uint8_t prg[2 + sizeof sys_stub_prg];
    prg[0] = 0x01;
    prg[1] = 0x10;
    memcpy(prg + 2, sys_stub_prg, sizeof sys_stub_prg);
    tb_d64_add_file(&builder, "STUB", 0x82, prg, sizeof prg);
    mh_media_error media_error;
    mh_d64 *disk = mh_d64_open(builder.img, builder.size, 0, &media_error);
    tb_d64_free(&builder);
    CU_ASSERT_PTR_NOT_NULL_FATAL(disk);
    for (int plus4 = 0; plus4 <= 1; plus4++) {
        rom_bus *b = boot(plus4, 0, 0);
        if (!b) break;
        type_line(b, "LOAD\"STUB\",8\r");
        CU_ASSERT_TRUE(rom_bus_screen_has(b, "?DEVICE NOT PRESENT"));
        b->disk = disk;
        type_line(b, "LOAD\"NOPE\",8\r");
        CU_ASSERT_TRUE(rom_bus_screen_has(b, "?FILE NOT FOUND"));
        type_line(b, "LOAD\"*\",8,1\r");
        CU_ASSERT_EQUAL(b->ram[0x1001 + 4], 0x9E); /* the stub is in */
        CU_ASSERT_EQUAL(b->ram[0x2D] | b->ram[0x2E] << 8, 0x1001 + sizeof sys_stub_prg);
        type_line(b, "RUN\r");
        CU_ASSERT_EQUAL(b->ram[0x03F8], 0x2A);
        CU_ASSERT_TRUE(rom_bus_screen_has(b, "OK"));
        free(b);
    }
    mh_d64_free(disk);
}

/* SAVE at the prompt: without a drive "?DEVICE NOT PRESENT"; with the
 * machines' trap at $FFD8 (mh_kernal_save_trap) SAVE"COPY",8 writes
 * TXTTAB..VARTAB into the disk and its file, LOAD"COPY" brings the same
 * bytes back, and a second SAVE"COPY" is refused (FILE EXISTS). */
static void test_save_command(void)
{
    char dir[] = "/tmp/mh-bootrom-save-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char path[96];
    snprintf(path, sizeof path, "%s/save.d64", dir);
    for (int plus4 = 0; plus4 <= 1; plus4++) {
        tb_d64 builder;
        tb_d64_init(&builder, 35, false, "BOOT", "01");
        uint8_t prg[2 + sizeof sys_stub_prg];
        prg[0] = 0x01;
        prg[1] = 0x10;
        memcpy(prg + 2, sys_stub_prg, sizeof sys_stub_prg);
        tb_d64_add_file(&builder, "STUB", 0x82, prg, sizeof prg);
        FILE *f = fopen(path, "wb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        fwrite(builder.img, 1, builder.size, f);
        fclose(f);
        mh_d64 *disk = mh_d64_open(builder.img, builder.size, 0, NULL);
        tb_d64_free(&builder);
        CU_ASSERT_PTR_NOT_NULL_FATAL(disk);
        rom_bus *b = boot(plus4, 0, 0);
        if (!b) break;
        type_line(b, "SAVE\"X\",8\r");
        CU_ASSERT_TRUE(rom_bus_screen_has(b, "SAVING"));
        CU_ASSERT_TRUE(rom_bus_screen_has(b, "?DEVICE NOT PRESENT"));
        b->save_disk = disk;
        b->save_path = path;
        b->disk = disk;
        type_line(b, "LOAD\"STUB\",8\r");
        CU_ASSERT_EQUAL(b->ram[0x1001 + 4], 0x9E);
        type_line(b, "SAVE\"COPY\"\r"); /* device 8 when none is given */
        CU_ASSERT_EQUAL(b->save_result, 1);
        if (b->save_result != 1) fprintf(stderr, "%s\n", b->save_message);
        const mh_d64_entry *e = mh_d64_find(b->save_disk, (const uint8_t *)"COPY", 4);
        CU_ASSERT_PTR_NOT_NULL(e);
        memset(b->ram + 0x1001, 0, sizeof sys_stub_prg);
        type_line(b, "LOAD\"COPY\",8\r");
        CU_ASSERT_EQUAL(memcmp(b->ram + 0x1001, sys_stub_prg, sizeof sys_stub_prg), 0);
        type_line(b, "SAVE\"COPY\",8\r");
        CU_ASSERT_EQUAL(b->save_result, -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(b->save_message, "FILE EXISTS"));
        CU_ASSERT_TRUE(rom_bus_screen_has(b, "?DEVICE NOT PRESENT"));
        /* the file on disk has COPY */
        uint8_t *bytes = malloc(MH_D64_SIZE_35);
        f = fopen(path, "rb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        size_t n = fread(bytes, 1, MH_D64_SIZE_35, f);
        fclose(f);
        mh_d64 *reread = mh_d64_open(bytes, n, 0, NULL);
        free(bytes);
        CU_ASSERT_PTR_NOT_NULL(reread);
        if (reread) CU_ASSERT_PTR_NOT_NULL(mh_d64_find(reread, (const uint8_t *)"COPY", 4));
        mh_d64_free(reread);
        mh_d64_free(b->save_disk);
        free(b);
        unlink(path);
    }
    rmdir(dir);
}

/* The jiffy interrupt at the prompt: the clock ticks, the VIC-20 blinks the
 * cursor cell, the Plus/4 has the TED's cursor on the cursor's cell. */
static void test_interrupt_at_prompt(void)
{
    for (int plus4 = 0; plus4 <= 1; plus4++) {
        rom_bus *b = boot(plus4, 0, 0);
        if (!b) return;
        uint16_t time = plus4 ? 0xA5 : 0xA2;
        uint8_t before = b->ram[time];
        uint16_t cell = plus4 ? (uint16_t)(0x0C00 + 4 * 40) : (uint16_t)(0x1E00 + 6 * 22);
        CU_ASSERT_EQUAL(b->ram[cell], 0x20); /* the empty line under READY. */
        CU_ASSERT_TRUE(rom_bus_interrupt(b));
        CU_ASSERT_EQUAL(b->ram[time], (uint8_t)(before + 1));
        if (plus4) {
            CU_ASSERT_EQUAL(b->io[0x0C] << 8 | b->io[0x0D], 4 * 40);
        } else {
            CU_ASSERT_EQUAL(b->ram[cell], 0xA0); /* reversed */
            for (int i = 0; i < 20; i++) CU_ASSERT_TRUE(rom_bus_interrupt(b));
            CU_ASSERT_EQUAL(b->ram[cell], 0x20);
            CU_ASSERT_TRUE(rom_bus_interrupt(b)); /* the cursor is reversed ... */
            for (int i = 0; i < 20; i++) CU_ASSERT_TRUE(rom_bus_interrupt(b));
            CU_ASSERT_TRUE(rom_bus_interrupt(b));
            CU_ASSERT_EQUAL(b->ram[cell], 0xA0);
            type_line(b, "Q"); /* ... and a key puts the character back */
            CU_ASSERT_EQUAL(b->ram[cell], 0x11);
        }
        CU_ASSERT_EQUAL(b->ram[time], (uint8_t)(before + (plus4 ? 1 : 43)));
        free(b);
    }
}

MH_SUITE("boot_rom.run", NULL, NULL, MH_TEST(test_images), MH_TEST(test_vic20_boot_pal),
         MH_TEST(test_vic20_boot_ntsc_expanded), MH_TEST(test_plus4_boot),
         MH_TEST(test_vic20_run_sys_stub), MH_TEST(test_plus4_run_sys_stub),
         MH_TEST(test_vic20_sys_direct), MH_TEST(test_plus4_sys_direct),
         MH_TEST(test_unknown_and_errors), MH_TEST(test_hostile_lines_and_programs),
         MH_TEST(test_chrout_controls),
         MH_TEST(test_scnkey_getin), MH_TEST(test_load_save_clock),
         MH_TEST(test_interrupt_at_prompt), MH_TEST(test_every_entry_returns),
         MH_TEST(test_load_command), MH_TEST(test_save_command), MH_TEST(test_key_repeat))
