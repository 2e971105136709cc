/* ted.timers, ted.raster, ted.clock, ted.modes, ted.palette, ted.sound -
 * the TED (plugins/machine-plus4/ted.h) on its own, fetching from a 64 KiB
 * test memory: the three timers (reload, free run, stop/start, IRQ), the
 * raster compare IRQ and its acknowledge, DMA lines and the single/double
 * clock, the display modes drawn into the framebuffer, the 121-colour
 * palette and a voice's frequency. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mh_test.h"
#include "ted.h"

typedef struct test_mem {
    uint8_t ram[65536];
    uint8_t rom[65536];
} test_mem;

static uint8_t fetch(void *user, uint16_t address, int rom)
{
    const test_mem *m = user;
    return rom ? m->rom[address] : m->ram[address];
}

static const uint8_t *page(void *user, uint16_t address, int rom)
{
    const test_mem *m = user;
    return rom ? &m->rom[address & 0xFF00u] : &m->ram[address & 0xFF00u];
}

typedef struct fixture {
    ted t;
    test_mem mem;
    uint8_t fb[TED_FB_WIDTH * TED_FB_MAX_HEIGHT];
} fixture;

static fixture *make(int ntsc)
{
    fixture *f = calloc(1, sizeof *f);
    if (f) ted_init(&f->t, ntsc, fetch, page, &f->mem, f->fb, 1);
    return f;
}

static void run_ticks(ted *t, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) ted_tick(t);
}

/* Runs until the beam is at line, tick 0. */
static void run_to_line(ted *t, unsigned line)
{
    while (!(t->line == line && t->x == 0)) ted_tick(t);
}

/* ---- ted.timers ---- */

static void test_timer1_reloads(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    ted *t = &f->t;
    ted_write(t, 0x0A, TED_IRQ_T1, 0xFF);
    ted_write(t, 0x00, 100, 0xFF); /* low byte: stops */
    CU_ASSERT_FALSE(t->timer_run[0]);
    ted_write(t, 0x01, 0, 0xFF); /* high byte: starts from the reload value 100 */
    CU_ASSERT_TRUE(t->timer_run[0]);
    CU_ASSERT_EQUAL(ted_peek(t, 0x00), 100);
    /* Counts every second tick: 100 steps = 200 ticks to 0. */
    run_ticks(t, 198);
    CU_ASSERT_FALSE(t->irq);
    run_ticks(t, 2);
    CU_ASSERT_TRUE(t->irq);
    CU_ASSERT_EQUAL(ted_peek(t, 0x09) & 0x88u, 0x88u);
    CU_ASSERT_EQUAL(ted_timer_value(t, 0), 100); /* reloaded */
    CU_ASSERT_EQUAL(t->underflows[0], 1u);
    ted_write(t, 0x09, TED_IRQ_T1, 0xFF); /* acknowledge */
    CU_ASSERT_FALSE(t->irq);
    CU_ASSERT_EQUAL(ted_peek(t, 0x09) & 0x88u, 0);
    run_ticks(t, 200);
    CU_ASSERT_EQUAL(t->underflows[0], 2u);
    free(f);
}

/* Written with S at tick T, a timer reads S - 1 from T + 1 and 0 at
 * T + 2S - 1, and its IRQ comes at T + 2S, whatever T's parity (VICE's
 * xplus4 counts so). */
static void test_timer_phase(void)
{
    for (unsigned parity = 0; parity < 2; parity++) {
        fixture *f = make(0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        ted *t = &f->t;
        run_ticks(t, 10 + parity);
        ted_write(t, 0x0A, TED_IRQ_T1, 0xFF);
        ted_write(t, 0x00, 0x03, 0xFF);
        ted_write(t, 0x01, 0x00, 0xFF); /* S = 3 at tick T */
        CU_ASSERT_EQUAL(ted_timer_value(t, 0), 3u);
        ted_tick(t);
        CU_ASSERT_EQUAL(ted_timer_value(t, 0), 2u);
        run_ticks(t, 4); /* T + 5 */
        CU_ASSERT_EQUAL(ted_timer_value(t, 0), 0u);
        CU_ASSERT_FALSE(t->irq);
        ted_tick(t); /* T + 6 */
        CU_ASSERT_TRUE(t->irq);
        CU_ASSERT_EQUAL(ted_timer_value(t, 0), 3u); /* reloaded */
        ted_tick(t);
        CU_ASSERT_EQUAL(ted_timer_value(t, 0), 2u);
        free(f);
    }
}

static void test_timer2_runs_free(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    ted *t = &f->t;
    ted_write(t, 0x02, 10, 0xFF);
    ted_write(t, 0x03, 0, 0xFF);
    run_ticks(t, 20);
    CU_ASSERT_EQUAL(t->underflows[1], 1u);
    CU_ASSERT_EQUAL(t->irq_flags & TED_IRQ_T2, TED_IRQ_T2);
    CU_ASSERT_FALSE(t->irq); /* masked */
    run_ticks(t, 2);
    CU_ASSERT_EQUAL(ted_timer_value(t, 1), 0xFFFFu); /* goes on from $FFFF, no reload */
    CU_ASSERT_EQUAL(ted_peek(t, 0x03), 0xFF);
    /* A low-byte write stops it. */
    ted_write(t, 0x02, 0x34, 0xFF);
    uint16_t held = ted_timer_value(t, 1);
    run_ticks(t, 50);
    CU_ASSERT_EQUAL(ted_timer_value(t, 1), held);
    free(f);
}

static void test_timer3_irq(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    ted *t = &f->t;
    ted_write(t, 0x0A, TED_IRQ_T3, 0xFF);
    ted_write(t, 0x04, 3, 0xFF);
    ted_write(t, 0x05, 0, 0xFF);
    run_ticks(t, 6);
    CU_ASSERT_TRUE(t->irq);
    CU_ASSERT_EQUAL(t->irq_flags, TED_IRQ_T3);
    free(f);
}

/* ---- ted.raster ---- */

static void test_raster_irq(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    ted *t = &f->t;
    ted_write(t, 0x0B, 0x2C, 0xFF);
    ted_write(t, 0x0A, 0x01 | TED_IRQ_RASTER, 0xFF); /* compare $12C = 300 */
    CU_ASSERT_EQUAL(ted_raster_compare(t), 300);
    run_to_line(t, 299);
    CU_ASSERT_FALSE(t->irq);
    run_ticks(t, TED_TICKS_PER_LINE);
    CU_ASSERT_EQUAL(t->line, 300);
    CU_ASSERT_TRUE(t->irq);
    CU_ASSERT_EQUAL(ted_peek(t, 0x1D), 300 & 0xFF);
    CU_ASSERT_EQUAL(ted_peek(t, 0x1C) & 1u, 1u);
    ted_write(t, 0x09, 0xFF, 0xFF);
    CU_ASSERT_FALSE(t->irq);
    /* A PAL frame is 312 lines of 114 ticks. */
    uint64_t frame = t->frame;
    run_to_line(t, 0);
    run_ticks(t, 312u * 114u);
    CU_ASSERT_EQUAL(t->frame, frame + 2);
    free(f);
}

static void test_ntsc_lines(void)
{
    fixture *f = make(1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    run_to_line(&f->t, 261);
    run_ticks(&f->t, TED_TICKS_PER_LINE);
    CU_ASSERT_EQUAL(f->t.line, 0);
    CU_ASSERT_EQUAL(f->t.clock_hz, TED_CLOCK_NTSC);
    CU_ASSERT_EQUAL(ted_peek(&f->t, 0x07) & 0x40u, 0x40u);
    free(f);
}

/* ---- ted.clock ---- */

static void test_dma_and_clock(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    ted *t = &f->t;
    ted_write(t, 0x06, 0x1B, 0xFF); /* display on, 25 rows, y scroll 3 */
    run_to_line(t, 0);
    run_ticks(t, 1); /* the frame latched the display */
    /* The border lines: double clock except the refresh at the line's end. */
    run_to_line(t, 250);
    CU_ASSERT_EQUAL(ted_cpu_ticks(t), 1u);
    run_ticks(t, TED_X_REFRESH);
    CU_ASSERT_EQUAL(ted_cpu_ticks(t), 2u);
    /* $FF13 bit 1 forces single clock everywhere. */
    ted_write(t, 0x13, 0x02, 0xFF);
    run_to_line(t, 260);
    CU_ASSERT_EQUAL(ted_cpu_ticks(t), 2u);
    CU_ASSERT_EQUAL(ted_peek(t, 0x13) & 1u, 1u);
    ted_write(t, 0x13, 0x00, 0xFF);
    /* The next frame: line 11 ((11 & 7) == 3) fetches a row's attributes,
     * line 12 its codes; on both the CPU stops in the fetch window. The
     * attribute line is decided where the DMA window opens. */
    run_to_line(t, 11);
    run_ticks(t, TED_X_DMA_START);
    CU_ASSERT_TRUE(t->attr_line);
    CU_ASSERT_FALSE(t->bad_line);
    run_to_line(t, 12);
    CU_ASSERT_TRUE(t->bad_line);
    CU_ASSERT_FALSE(ted_dma(t));
    run_ticks(t, TED_X_DMA_START);
    CU_ASSERT_TRUE(ted_dma(t));
    CU_ASSERT_EQUAL(ted_cpu_ticks(t), 2u);
    run_to_line(t, 13);
    CU_ASSERT_FALSE(t->bad_line);
    CU_ASSERT_FALSE(t->attr_line);
    run_ticks(t, 40);
    CU_ASSERT_FALSE(ted_dma(t));
    CU_ASSERT_EQUAL(ted_cpu_ticks(t), 2u); /* display fetches: single clock */
    /* A y scroll written early in a line (before tick 4) makes it the
     * attribute line; written later, it waits for the next match. */
    run_to_line(t, 14);
    run_ticks(t, 2);
    ted_write(t, 0x06, 0x1E, 0xFF); /* y scroll 6 = 14 & 7 */
    run_ticks(t, TED_X_DMA_START);
    CU_ASSERT_TRUE(t->attr_line);
    CU_ASSERT_TRUE(ted_dma(t));
    run_to_line(t, 21);
    run_ticks(t, 10);
    ted_write(t, 0x06, 0x1D, 0xFF); /* y scroll 5 = 21 & 7, too late */
    CU_ASSERT_FALSE(t->attr_line);
    CU_ASSERT_FALSE(ted_dma(t));
    ted_write(t, 0x06, 0x1B, 0xFF);
    /* Blanked: no fetches, no DMA. */
    ted_write(t, 0x06, 0x0B, 0xFF);
    run_to_line(t, 0);
    run_to_line(t, 11);
    CU_ASSERT_FALSE(t->attr_line);
    run_ticks(t, 40);
    CU_ASSERT_EQUAL(ted_cpu_ticks(t), 1u);
    free(f);
}

/* The CPU cycles a PAL frame leaves the CPU (measured on an 8360R2 by
 * Marko Makela, 1995): 34008 with the screen blanked (109 a line: 104
 * ticks of double clock and 5 refresh cycles), 22882 with a 25-row text
 * screen (108 border lines of 109, 50 DMA lines of 22, 154 display lines
 * of 65); 17784 and 15634 at forced single clock. */
static unsigned frame_cpu_cycles(ted *t)
{
    run_to_line(t, 1);
    run_to_line(t, 0);
    uint64_t frame = t->frame;
    unsigned cycles = 0;
    while (t->frame == frame) {
        int dma = ted_dma(t);
        cycles += !dma;
        ted_advance(t, dma ? 2u : ted_cpu_ticks(t));
    }
    return cycles;
}

static void test_cycles_per_frame(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    ted *t = &f->t;
    ted_write(t, 0x06, 0x0B, 0xFF);
    CU_ASSERT_EQUAL(frame_cpu_cycles(t), 34008u);
    ted_write(t, 0x06, 0x1B, 0xFF);
    CU_ASSERT_EQUAL(frame_cpu_cycles(t), 22882u);
    ted_write(t, 0x13, 0x02, 0xFF);
    CU_ASSERT_EQUAL(frame_cpu_cycles(t), 15634u);
    ted_write(t, 0x06, 0x0B, 0xFF);
    CU_ASSERT_EQUAL(frame_cpu_cycles(t), 17784u);
    free(f);
}

static void test_raster_column(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    run_to_line(&f->t, 5);
    run_ticks(&f->t, TED_X_DISPLAY);
    CU_ASSERT_EQUAL(ted_peek(&f->t, 0x1E), 451 / 2); /* the display's first dot */
    /* A write moves the counter (to the tick: within one $FF1E step). */
    ted_write(&f->t, 0x1E, 0xEF, 0xFF); /* the complement of $10 */
    CU_ASSERT_EQUAL(ted_peek(&f->t, 0x1E) & 0xFCu, 0x10u);
    free(f);
}

/* ---- ted.modes ---- */

/* Sets up a 40x25 screen at $0800/$0C00 with the character set in RAM at
 * $2000: glyph 1 is $F0 on every row, glyph 2 is $AA (MC: 10 10 10 10). */
static void screen_setup(fixture *f, uint8_t code, uint8_t attr)
{
    ted *t = &f->t;
    for (unsigned i = 0; i < 1000; i++) {
        f->mem.ram[0x0C00 + i] = code;
        f->mem.ram[0x0800 + i] = attr;
    }
    for (unsigned r = 0; r < 8; r++) {
        f->mem.ram[0x2000 + 8 + r] = 0xF0;
        f->mem.ram[0x2000 + 16 + r] = 0xAA;
        f->mem.ram[0x2000 + 0x208 + r] = 0x0F; /* glyph $41 (ECM code $41 = glyph 1) */
    }
    ted_write(t, 0x14, 0x08, 0xFF);        /* attributes $0800, codes $0C00 */
    ted_write(t, 0x13, 0x20, 0xFF);        /* characters $2000 */
    ted_write(t, 0x12, 0x00, 0xFF);        /* from RAM */
    ted_write(t, 0x07, 0x08 | 0x80, 0xFF); /* 40 columns, 256 characters */
    ted_write(t, 0x06, 0x1B, 0xFF);
    ted_write(t, 0x15, 0x71, 0xFF); /* background: white, luminance 7 */
    ted_write(t, 0x16, 0x32, 0xFF);
    ted_write(t, 0x17, 0x45, 0xFF);
    ted_write(t, 0x19, 0x6E, 0xFF); /* border */
}

/* Pixel x (0-319) of the display on raster line `line` of the last frame. */
static uint8_t pixel(const fixture *f, unsigned line, unsigned x)
{
    unsigned row = (line + f->t.lines - f->t.fb_first_line) % f->t.lines;
    return f->fb[row * TED_FB_WIDTH + 32 + x];
}

/* Draws a whole frame from its line 0 (where the TED latches the display
 * enable) on. */
static void draw_frame(fixture *f)
{
    run_to_line(&f->t, 1);
    run_to_line(&f->t, 0);
    run_to_line(&f->t, 250);
}

static void test_text_mode(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    screen_setup(f, 1, 0x23); /* glyph $F0 in colour $23 */
    draw_frame(f);
    CU_ASSERT_EQUAL(pixel(f, 20, 0), 0x23);
    CU_ASSERT_EQUAL(pixel(f, 20, 3), 0x23);
    CU_ASSERT_EQUAL(pixel(f, 20, 4), 0x71);
    CU_ASSERT_EQUAL(pixel(f, 20, 319), 0x71);
    CU_ASSERT_EQUAL(f->fb[((20 + 312 - f->t.fb_first_line) % 312) * TED_FB_WIDTH], 0x6E);
    CU_ASSERT_EQUAL(pixel(f, 2, 0), 0x6E); /* above the window: border */
    /* x scroll 2 moves the picture right; 38 columns covers 8 pixels left. */
    ted_write(&f->t, 0x07, 0x80 | 0x08 | 2, 0xFF);
    draw_frame(f);
    CU_ASSERT_EQUAL(pixel(f, 20, 1), 0x71);
    CU_ASSERT_EQUAL(pixel(f, 20, 2), 0x23);
    ted_write(&f->t, 0x07, 0x80, 0xFF);
    draw_frame(f);
    CU_ASSERT_EQUAL(pixel(f, 20, 7), 0x6E);
    CU_ASSERT_EQUAL(pixel(f, 20, 8), 0x23);
    free(f);
}

static void test_reverse_and_flash(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    screen_setup(f, 0x81, 0x23);
    ted_write(&f->t, 0x07, 0x08, 0xFF); /* 128 characters: bit 7 reverses */
    draw_frame(f);
    CU_ASSERT_EQUAL(pixel(f, 20, 0), 0x71);
    CU_ASSERT_EQUAL(pixel(f, 20, 4), 0x23);
    /* A flashing attribute shows nothing in the flash's off half. */
    screen_setup(f, 0x01, 0xA3);
    f->t.flash_counter = 0;
    draw_frame(f);
    CU_ASSERT_FALSE(ted_flash_on(&f->t));
    CU_ASSERT_EQUAL(pixel(f, 20, 0), 0x71);
    f->t.flash_counter = 20;
    draw_frame(f);
    CU_ASSERT_TRUE(ted_flash_on(&f->t));
    CU_ASSERT_EQUAL(pixel(f, 20, 0), 0x23);
    free(f);
}

static void test_multicolour_and_ecm(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    screen_setup(f, 2, 0x0B); /* glyph $AA, attribute hue bit 3: multicolour */
    ted_write(&f->t, 0x07, 0x80 | 0x08 | 0x10, 0xFF);
    draw_frame(f);
    CU_ASSERT_EQUAL(ted_mode(&f->t), 1u);
    CU_ASSERT_EQUAL(pixel(f, 20, 0), 0x45); /* 10: background 2 */
    CU_ASSERT_EQUAL(pixel(f, 20, 1), 0x45);
    /* A hires cell (attribute bit 3 clear) in multicolour mode: code bit 7
     * does not reverse it, even with 128 characters. */
    screen_setup(f, 0x81, 0x23);
    ted_write(&f->t, 0x07, 0x08 | 0x10, 0xFF); /* 128 characters, MCM */
    draw_frame(f);
    CU_ASSERT_EQUAL(pixel(f, 20, 0), 0x23);
    CU_ASSERT_EQUAL(pixel(f, 20, 4), 0x71);
    /* A multicolour cell's 11 pixels: its colour without hue bit 3. */
    screen_setup(f, 0x01, 0x2E);
    ted_write(&f->t, 0x07, 0x80 | 0x08 | 0x10, 0xFF);
    draw_frame(f);
    CU_ASSERT_EQUAL(pixel(f, 20, 0), 0x26);
    CU_ASSERT_EQUAL(pixel(f, 20, 4), 0x71);
    /* ECM: code $41 = glyph 1 on background 1. */
    screen_setup(f, 0x41, 0x23);
    ted_write(&f->t, 0x06, 0x5B, 0xFF);
    draw_frame(f);
    CU_ASSERT_EQUAL(ted_mode(&f->t), 4u);
    CU_ASSERT_EQUAL(pixel(f, 20, 0), 0x23);
    CU_ASSERT_EQUAL(pixel(f, 20, 5), 0x32);
    /* ECM + MCM is invalid: black. */
    ted_write(&f->t, 0x07, 0x80 | 0x08 | 0x10, 0xFF);
    draw_frame(f);
    CU_ASSERT_EQUAL(pixel(f, 20, 0), 0);
    CU_ASSERT_EQUAL(pixel(f, 20, 5), 0);
    free(f);
}

static void test_bitmap(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    screen_setup(f, 0x52, 0x34); /* colours: 0 = lum 3 hue 2, 1 = lum 4 hue 5 */
    ted_write(&f->t, 0x12, 0x08, 0xFF); /* bitmap at $2000 */
    for (unsigned i = 0; i < 8000; i++) f->mem.ram[0x2000 + i] = 0xC0;
    ted_write(&f->t, 0x06, 0x3B, 0xFF);
    draw_frame(f);
    CU_ASSERT_EQUAL(ted_bitmap_address(&f->t), 0x2000);
    CU_ASSERT_EQUAL(pixel(f, 20, 0), 0x45);
    CU_ASSERT_EQUAL(pixel(f, 20, 2), 0x32);
    free(f);
}

static void test_mid_line_change(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    screen_setup(f, 1, 0x23);
    draw_frame(f);
    /* Line 250 (border): the border colour changes at tick 50, pixel
     * (50 - 8) * 4 = 168 of the line. */
    run_to_line(&f->t, 250);
    run_ticks(&f->t, 50);
    ted_write(&f->t, 0x19, 0x32, 0xFF);
    run_to_line(&f->t, 252);
    unsigned row = (250 + 312 - f->t.fb_first_line) % 312;
    CU_ASSERT_EQUAL(f->fb[row * TED_FB_WIDTH + 167], 0x6E);
    CU_ASSERT_EQUAL(f->fb[row * TED_FB_WIDTH + 168], 0x32);
    CU_ASSERT_EQUAL(f->fb[row * TED_FB_WIDTH + 383], 0x32);
    CU_ASSERT_EQUAL(f->fb[(row + 1) * TED_FB_WIDTH + 0], 0x32);
    /* A background change in the middle of a text line. */
    run_to_line(&f->t, 0);
    run_to_line(&f->t, 20);
    run_ticks(&f->t, TED_X_DISPLAY + 20); /* display pixel 80 */
    ted_write(&f->t, 0x15, 0x55, 0xFF);
    run_to_line(&f->t, 21);
    CU_ASSERT_EQUAL(pixel(f, 20, 4), 0x71);
    CU_ASSERT_EQUAL(pixel(f, 20, 84), 0x55);
    free(f);
}

/* ---- ted.palette, ted.sound ---- */

static void test_palette(void)
{
    const uint32_t *p = ted_palette();
    unsigned distinct = 0;
    for (unsigned i = 0; i < 128; i++) {
        int seen = 0;
        for (unsigned j = 0; j < i; j++) seen |= p[j] == p[i];
        distinct += !seen;
        if ((i & 15u) == 0) CU_ASSERT_EQUAL(p[i], 0); /* hue 0: black */
    }
    CU_ASSERT_EQUAL(distinct, 121u);
    CU_ASSERT_EQUAL(p[0x71], 0xFFFFFFu); /* white, luminance 7 */
    /* Luminance rises within a hue. */
    for (unsigned hue = 1; hue < 16; hue++) {
        uint32_t lo = p[hue], hi = p[0x70 | hue];
        unsigned sum_lo = (lo >> 16) + ((lo >> 8) & 255u) + (lo & 255u);
        unsigned sum_hi = (hi >> 16) + ((hi >> 8) & 255u) + (hi & 255u);
        CU_ASSERT_TRUE(sum_hi > sum_lo);
    }
}

/* Every entry from the measured YUV values the table cites (ted_palette.c):
 * the luma of each luminance, the chroma angle of each hue, chroma 56,
 * phase -9.5 degrees, the PAL matrix; within 1 of the rounding. */
static void test_palette_measured(void)
{
    static const double luma[8] = {32, 48, 64, 80, 120, 144, 192, 256};
    static const double angle[16] = {0, 0, 112.5, 292.5, 67.5, -112.5, 0, 180,
                                     135, 157.5, -157.5, 90, -90, -22.5, 22.5, -135};
    const uint32_t *p = ted_palette();
    for (unsigned lum = 0; lum < 8; lum++)
        for (unsigned hue = 1; hue < 16; hue++) {
            const double a = (angle[hue] - 9.5) * 3.14159265358979 / 180.0;
            const double chroma = hue == 1 ? 0.0 : 56.0;
            const double y = luma[lum], u = chroma * cos(a), v = chroma * sin(a);
            const double want[3] = {y + 1.140 * v, y - 0.396 * u - 0.581 * v, y + 2.029 * u};
            const uint32_t got = p[lum << 4 | hue];
            for (unsigned c = 0; c < 3; c++) {
                double w = want[c] < 0 ? 0 : want[c] > 255 ? 255 : want[c];
                double g = (double)((got >> (16 - 8 * c)) & 255u);
                CU_ASSERT_TRUE(g >= w - 1.0 && g <= w + 1.0);
            }
        }
}

static void test_voice_frequency(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    ted *t = &f->t;
    ted_write(t, 0x0E, 0x00, 0xFF);
    ted_write(t, 0x12, 0x03, 0xFF); /* 10-bit $300 */
    ted_write(t, 0x11, 0x18, 0xFF); /* voice 1 on, volume 8 */
    CU_ASSERT_EQUAL(ted_voice_freq(t, 0), 0x300);
    double hz = ted_voice_hz(t, 0);
    CU_ASSERT_DOUBLE_EQUAL(hz, 1773447.0 / 16.0 / 256.0, 0.01);
    /* One second of samples: count the square wave's rising edges. */
    run_ticks(t, TED_CLOCK_PAL / 10);
    int16_t samples[TED_AUDIO_RATE / 10 + 16];
    size_t n = ted_audio_read(t, samples, sizeof samples / sizeof samples[0]);
    CU_ASSERT_TRUE(n >= TED_AUDIO_RATE / 10 - 2 && n <= TED_AUDIO_RATE / 10 + 2);
    unsigned rises = 0;
    for (size_t i = 1; i < n; i++) rises += samples[i - 1] < 0 && samples[i] > 0;
    CU_ASSERT_TRUE(rises >= (unsigned)(hz / 10) - 2 && rises <= (unsigned)(hz / 10) + 2);
    free(f);
}


/* ---- ted.counters: $FF07 bits 5-6, $FF1A-$FF1F ---- */

/* Ticks from line 0 (tick 0) to the next line 0. */
static uint64_t frame_ticks(ted *t)
{
    run_to_line(t, 0);
    uint64_t start = t->ticks;
    ted_tick(t);
    run_to_line(t, 0);
    return t->ticks - start;
}

static void test_vertical_counter_write(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    ted *t = &f->t;
    CU_ASSERT_EQUAL(frame_ticks(t), 312u * 114u);
    /* Back to line 50 at line 100: a frame 50 lines longer. */
    run_to_line(t, 100);
    uint64_t start = t->ticks - 100u * 114u;
    ted_write(t, 0x1D, 50, 0xFF);
    CU_ASSERT_EQUAL(ted_peek(t, 0x1D), 50);
    run_to_line(t, 0);
    CU_ASSERT_EQUAL(t->ticks - start, 362u * 114u);
    /* Beyond the last line: the 9-bit counter runs on to 511, then 0. */
    run_to_line(t, 100);
    start = t->ticks - 100u * 114u;
    ted_write(t, 0x1C, 0x01, 0xFF);
    ted_write(t, 0x1D, 0x90, 0xFF); /* 400 */
    CU_ASSERT_EQUAL(t->line, 400);
    CU_ASSERT_EQUAL(ted_peek(t, 0x1C) & 1u, 1u);
    run_to_line(t, 0);
    CU_ASSERT_EQUAL(t->ticks - start, (100u + 112u) * 114u);
    /* Forward to line 250 at line 100: 150 lines shorter. */
    run_to_line(t, 100);
    start = t->ticks - 100u * 114u;
    ted_write(t, 0x1D, 250, 0xFF);
    run_to_line(t, 0);
    CU_ASSERT_EQUAL(t->ticks - start, 162u * 114u);
    /* A write that lands on the raster compare line raises the IRQ. */
    ted_write(t, 0x0B, 77, 0xFF);
    ted_write(t, 0x0A, TED_IRQ_RASTER, 0xFF);
    ted_write(t, 0x09, 0xFF, 0xFF);
    run_to_line(t, 10);
    CU_ASSERT_FALSE(t->irq);
    ted_write(t, 0x1D, 77, 0xFF);
    CU_ASSERT_TRUE(t->irq);
    free(f);
}

static void test_ntsc_bit(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    ted *t = &f->t;
    ted_write(t, 0x07, 0x48, 0xFF); /* NTSC mode on the PAL TED */
    CU_ASSERT_EQUAL(t->lines, 262u);
    CU_ASSERT_EQUAL(t->clock_hz, 17734475u / 8u);
    CU_ASSERT_EQUAL(frame_ticks(t), 262u * 114u);
    ted_write(t, 0x07, 0x08, 0xFF);
    CU_ASSERT_EQUAL(t->clock_hz, TED_CLOCK_PAL);
    CU_ASSERT_EQUAL(frame_ticks(t), 312u * 114u);
    free(f);
    f = make(1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    ted_write(&f->t, 0x07, 0x08, 0xFF); /* PAL mode on the NTSC TED */
    CU_ASSERT_EQUAL(f->t.clock_hz, 14318181u / 10u);
    CU_ASSERT_EQUAL(frame_ticks(&f->t), 312u * 114u);
    free(f);
}

static void test_freeze(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    ted *t = &f->t;
    ted_write(t, 0x06, 0x1B, 0xFF);
    run_to_line(t, 1);
    run_to_line(t, 50);
    run_ticks(t, 20);
    ted_write(t, 0x00, 0x00, 0xFF);
    ted_write(t, 0x01, 0x10, 0xFF); /* timer 1: $1000 */
    ted_write(t, 0x07, 0x28, 0xFF); /* freeze */
    const uint8_t column = ted_peek(t, 0x1E);
    CU_ASSERT_EQUAL(ted_cpu_ticks(t), 2u);
    run_ticks(t, 3000);
    CU_ASSERT_EQUAL(t->line, 50);
    CU_ASSERT_EQUAL(t->x, 20);
    CU_ASSERT_EQUAL(ted_peek(t, 0x1E), column);
    CU_ASSERT_FALSE(ted_dma(t));
    CU_ASSERT_EQUAL(ted_timer_value(t, 0), 0x1000u); /* the timers stand too */
    ted_write(t, 0x07, 0x08, 0xFF);
    run_ticks(t, TED_TICKS_PER_LINE);
    CU_ASSERT_EQUAL(t->line, 51);
    CU_ASSERT_EQUAL(t->x, 20);
    CU_ASSERT_EQUAL(ted_timer_value(t, 0), 0x1000u - TED_TICKS_PER_LINE / 2u);
    free(f);
}

/* The display enable ($FF06 bit 4) counts for the frame when it is set
 * during line 0, not only at its start. */
static void test_display_enable_in_line0(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    ted *t = &f->t;
    run_to_line(t, 1);
    run_to_line(t, 0);
    run_ticks(t, 50);
    CU_ASSERT_EQUAL(ted_cpu_ticks(t), 1u); /* blank: double clock */
    ted_write(t, 0x06, 0x1B, 0xFF);
    CU_ASSERT_EQUAL(ted_cpu_ticks(t), 2u); /* the fetch window's single clock */
    run_to_line(t, 3);
    run_ticks(t, TED_X_DMA_START + 2u);
    CU_ASSERT_TRUE(ted_dma(t));
    /* Set in line 1, it waits for the next frame. */
    ted_write(t, 0x06, 0x0B, 0xFF);
    run_to_line(t, 1);
    run_ticks(t, 50);
    ted_write(t, 0x06, 0x1B, 0xFF);
    CU_ASSERT_EQUAL(ted_cpu_ticks(t), 1u);
    run_to_line(t, 3);
    run_ticks(t, TED_X_DMA_START + 2u);
    CU_ASSERT_FALSE(ted_dma(t));
    free(f);
}

/* TED FLI: a y scroll written before every line's DMA window makes every
 * line an attribute line; each fetches the row's attributes anew (from the
 * same position: it moves on a row only in row line 6), shown on the next
 * line, while the row counter runs on. */
static void test_attribute_every_line(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    ted *t = &f->t;
    memset(f->mem.ram + 0x0C00, 0x20, 1000);  /* codes: a solid glyph */
    memset(f->mem.rom + 0xD000 + 0x20 * 8, 0xFF, 8);
    memset(f->mem.ram + 0x0800, 0x01, 1000);  /* attributes */
    ted_write(t, 0x12, 0x04, 0xFF);
    ted_write(t, 0x13, 0xD0, 0xFF);
    ted_write(t, 0x14, 0x08, 0xFF);
    ted_write(t, 0x07, 0x08, 0xFF);
    ted_write(t, 0x06, 0x1B, 0xFF);
    run_to_line(t, 1);
    run_to_line(t, 0);
    run_to_line(t, 20); /* row 2's first line: row counter 0 */
    CU_ASSERT_EQUAL(ted_peek(t, 0x1F) & 7u, 0u);
    for (unsigned line = 20; line < 28; line++) {
        run_to_line(t, line);
        CU_ASSERT_EQUAL(ted_peek(t, 0x1F) & 7u, line - 20u);
        /* This line's attributes for row 2 (position 80). */
        memset(f->mem.ram + 0x0800 + 80, (int)(0x10u + line), 40);
        ted_write(t, 0x06, (uint8_t)(0x18u | (line & 7u)), 0xFF);
    }
    run_to_line(t, 29);
    for (unsigned line = 21; line < 29; line++) {
        const unsigned row = (line + t->tv_lines - t->fb_first_line) % t->tv_lines;
        /* Row 2's position on lines 20-26, the attributes fetched the line
         * before; row line 6 (line 26) moved the position on to row 3 (120),
         * so line 27's fetch, shown on 28, is row 3's. */
        const uint8_t want = line < 28 ? (uint8_t)((0x10u + line - 1u) & 0x7Fu) : 0x01u;
        CU_ASSERT_EQUAL(f->fb[row * TED_FB_WIDTH + 32], want);
    }
    free(f);
}

/* $FF1E: a write loads the complement of bits 2-7; the line goes on from
 * there. */
static void test_horizontal_write(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    ted *t = &f->t;
    run_to_line(t, 50);
    run_ticks(t, 20);
    ted_write(t, 0x1E, 0x40, 0xFF);
    CU_ASSERT_EQUAL(ted_peek(t, 0x1E) & 0xFCu, 0xBCu);
    CU_ASSERT_EQUAL(t->line, 50);
    run_ticks(t, 4); /* dot 376-383 + 16: past the line step at tick 0 */
    CU_ASSERT_EQUAL(t->line, 51);
    /* Written to its own complement, the position reads back as it was. */
    run_ticks(t, 30);
    const uint8_t now = ted_peek(t, 0x1E);
    ted_write(t, 0x1E, (uint8_t)~now, 0xFF);
    CU_ASSERT_EQUAL(ted_peek(t, 0x1E) & 0xFCu, now & 0xFCu);
    free(f);
}

static void test_character_position(void)
{
    fixture *f = make(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    ted *t = &f->t;
    ted_write(t, 0x06, 0x1B, 0xFF); /* display on, 25 rows, y scroll 3 */
    run_to_line(t, 1);
    run_to_line(t, 0); /* the display is latched at line 0 */
    run_to_line(t, 4);
    CU_ASSERT_EQUAL(ted_peek(t, 0x1B), 0);
    CU_ASSERT_EQUAL(ted_peek(t, 0x1F) & 7u, 0u); /* the row's first line */
    /* Steps by 40 in the row's last line (11) at $FF1E $94. */
    run_to_line(t, 11);
    run_ticks(t, TED_X_CHAR_POS - 1u);
    CU_ASSERT_EQUAL(ted_peek(t, 0x1F) & 7u, 7u);
    CU_ASSERT_EQUAL(ted_peek(t, 0x1B), 0);
    run_ticks(t, 2);
    CU_ASSERT_EQUAL(ted_peek(t, 0x1B), 40);
    run_to_line(t, 200);
    CU_ASSERT_EQUAL(ted_peek(t, 0x1B) | ((ted_peek(t, 0x1A) & 3u) << 8), 960u);
    run_to_line(t, 310);
    CU_ASSERT_EQUAL(ted_peek(t, 0x1B) | ((ted_peek(t, 0x1A) & 3u) << 8), 1000u);
    run_to_line(t, 0); /* cleared at the end of line 311 */
    CU_ASSERT_EQUAL(ted_peek(t, 0x1B), 0);
    CU_ASSERT_EQUAL(ted_peek(t, 0x1A), 0xFC);
    /* A write moves the bitmap position and the cursor compare: with the
     * position at 5, the cursor at 5 shows in column 0. */
    memset(f->mem.ram + 0x0C00, 0x20, 1000);
    memset(f->mem.ram + 0x0800, 0x71, 1000);
    memset(f->mem.rom + 0xD000 + 0x20 * 8, 0x00, 8); /* blank glyph */
    ted_write(t, 0x12, 0x04, 0xFF);
    ted_write(t, 0x13, 0xD0, 0xFF);
    ted_write(t, 0x14, 0x08, 0xFF);
    ted_write(t, 0x07, 0x08, 0xFF);
    ted_write(t, 0x15, 0x00, 0xFF);
    ted_write(t, 0x0C, 0x00, 0xFF);
    ted_write(t, 0x0D, 0x05, 0xFF);
    t->flash_counter = 20; /* the flash's on half */
    run_to_line(t, 8);
    ted_write(t, 0x1A, 0x00, 0xFF); /* tick 0: before the line's load */
    ted_write(t, 0x1B, 0x05, 0xFF);
    CU_ASSERT_EQUAL(ted_peek(t, 0x1B), 5);
    run_to_line(t, 9);
    const unsigned row = (8u + t->tv_lines - t->fb_first_line) % t->tv_lines;
    CU_ASSERT_EQUAL(f->fb[row * TED_FB_WIDTH + 32], 0x71); /* reversed blank: foreground */
    CU_ASSERT_EQUAL(f->fb[row * TED_FB_WIDTH + 32 + 5 * 8], 0x00);
    /* A write after the line's load changes the next lines only, and in a
     * row's last line the step latches the line's own position + 40. */
    run_ticks(t, 40);
    ted_write(t, 0x1B, 0x09, 0xFF);
    CU_ASSERT_EQUAL(t->vc_base, 5u);
    run_to_line(t, 10);
    CU_ASSERT_EQUAL(t->vc_base, 9u);
    run_to_line(t, 11); /* row counter 7 */
    run_ticks(t, 30);
    ted_write(t, 0x1B, 0x77, 0xFF);
    run_to_line(t, 12);
    CU_ASSERT_EQUAL(ted_peek(t, 0x1B), 49u);
    /* $FF1F: the row counter and the flash counter as written. */
    ted_write(t, 0x1F, 0x2B, 0xFF); /* flash 5, row 3 */
    CU_ASSERT_EQUAL(ted_peek(t, 0x1F), 0xAB);
    free(f);
}

MH_SUITE("ted.counters", NULL, NULL, MH_TEST(test_vertical_counter_write), MH_TEST(test_ntsc_bit),
         MH_TEST(test_freeze), MH_TEST(test_horizontal_write), MH_TEST(test_character_position),
         MH_TEST(test_display_enable_in_line0), MH_TEST(test_attribute_every_line))
MH_SUITE("ted.timers", NULL, NULL, MH_TEST(test_timer1_reloads), MH_TEST(test_timer_phase),
         MH_TEST(test_timer2_runs_free),
         MH_TEST(test_timer3_irq))
MH_SUITE("ted.raster", NULL, NULL, MH_TEST(test_raster_irq), MH_TEST(test_ntsc_lines))
MH_SUITE("ted.clock", NULL, NULL, MH_TEST(test_dma_and_clock), MH_TEST(test_cycles_per_frame),
         MH_TEST(test_raster_column))
MH_SUITE("ted.modes", NULL, NULL, MH_TEST(test_text_mode), MH_TEST(test_reverse_and_flash),
         MH_TEST(test_multicolour_and_ecm), MH_TEST(test_bitmap), MH_TEST(test_mid_line_change))
MH_SUITE("ted.palette", NULL, NULL, MH_TEST(test_palette), MH_TEST(test_palette_measured), MH_TEST(test_voice_frequency))
