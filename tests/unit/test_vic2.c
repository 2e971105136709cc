/* vic2.*: the VIC-II chip driven by a test harness: a fake 16 KiB VIC
 * memory (screen $0400, character set $1000, bitmap $2000, sprite data
 * $3000), colour RAM, a framebuffer, and a log of every access the chip
 * makes. Timing facts are Bauer's (6569) and VICE's chip tables (NTSC). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/cpu6502.h"
#include "mh_test.h"
#include "vic2.h"

/* ---- harness ---------------------------------------------------------- */

typedef struct harness {
    uint8_t mem[0x4000];
    uint8_t color[1024];
    uint8_t fb[M6569_FB_WIDTH * M6569_FB_MAX_HEIGHT];
    uint16_t log[4]; /* accesses of the last tick */
    int log_n;
    m6569 vic;
} harness;

static uint8_t h_fetch(void *user, uint16_t addr)
{
    harness *h = user;
    if (h->log_n < 4) h->log[h->log_n++] = addr;
    return h->mem[addr & 0x3FFF];
}

static uint32_t h_tick(harness *h)
{
    h->log_n = 0;
    return m6569_tick(&h->vic);
}

/* Registers as the C64 KERNAL leaves them: 25 rows, 40 columns, DEN,
 * YSCROLL 3, screen $0400, characters $1000, border 14, background 6. */
static harness *h_new(m6569_model model)
{
    harness *h = calloc(1, sizeof *h);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    m6569_desc desc = {0};
    desc.model = model;
    desc.fetch = h_fetch;
    desc.user = h;
    desc.color_ram = h->color;
    desc.framebuffer = h->fb;
    CU_ASSERT_EQUAL_FATAL(m6569_init(&h->vic, &desc), MH_OK);
    for (int i = 0; i < 1000; i++) h->mem[0x0400 + i] = 32; /* blank */
    m6569_write(&h->vic, 0xD011, 0x1B);
    m6569_write(&h->vic, 0xD016, 0xC8);
    m6569_write(&h->vic, 0xD018, 0x14);
    m6569_write(&h->vic, 0xD020, 14);
    m6569_write(&h->vic, 0xD021, 6);
    return h;
}

/* Ticks until the cycle (line, cycle) has just run. */
static void run_to(harness *h, unsigned line, unsigned cycle)
{
    const m6569_geometry *g = m6569_geometry_of((m6569_model)h->vic.model);
    for (uint32_t i = 0; i <= g->cycles_per_frame; i++) {
        h_tick(h);
        if (m6569_line(&h->vic) == line && h->vic.cycle == cycle) return;
    }
    CU_FAIL_FATAL("run_to: position never reached");
}

static void run_frames(harness *h, unsigned frames)
{
    const m6569_geometry *g = m6569_geometry_of((m6569_model)h->vic.model);
    m6569_run(&h->vic, g->cycles_per_frame * frames);
}

static uint8_t px(const harness *h, int x, int y)
{
    return h->fb[y * M6569_FB_WIDTH + x];
}

/* Framebuffer row of a raster line (PAL). */
static int row_of(unsigned line)
{
    return (int)line - 16;
}

/* BA level of each cycle of one line: ba[c] for c = 1..cycles. */
static void line_ba(harness *h, unsigned line, uint8_t *ba)
{
    const unsigned cycles = h->vic.cycles_per_line;
    run_to(h, line, 1);
    ba[1] = h->vic.ba;
    for (unsigned c = 2; c <= cycles; c++) {
        h_tick(h);
        ba[c] = h->vic.ba;
    }
}

/* ---- registers -------------------------------------------------------- */

static void test_init_arguments(void)
{
    m6569 vic;
    m6569_desc desc = {0};
    CU_ASSERT_EQUAL(m6569_init(&vic, &desc), MH_ERR_INVALID_ARGUMENT); /* no fetch */
    desc.fetch = h_fetch;
    CU_ASSERT_EQUAL(m6569_init(NULL, &desc), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(m6569_init(&vic, NULL), MH_ERR_INVALID_ARGUMENT);
    desc.model = M6569_MODEL_COUNT;
    CU_ASSERT_EQUAL(m6569_init(&vic, &desc), MH_ERR_INVALID_ARGUMENT);
    desc.model = M6569_MODEL_6569;
    CU_ASSERT_EQUAL(m6569_init(&vic, &desc), MH_OK);
    CU_ASSERT_EQUAL(vic.cycles_per_line, 63);
    CU_ASSERT_EQUAL(vic.lines_per_frame, 312);
    CU_ASSERT_EQUAL(vic.links.fb_pitch, M6569_FB_WIDTH);
    CU_ASSERT_EQUAL(vic.ba, 1);
    CU_ASSERT_EQUAL(vic.irq, 0);
}

static void test_register_mirrors_and_unused_bits(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    m6569 *v = &h->vic;
    /* Every 64 bytes over $D000-$D3FF. */
    m6569_write(v, 0xD3E0, 0x05);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD020), 0xF5);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD060), 0xF5);
    m6569_write(v, 0xD041, 0x77);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD001), 0x77);
    /* Unused registers read $FF and ignore writes. */
    for (uint16_t a = 0xD02F; a <= 0xD03F; a++) {
        m6569_write(v, a, 0x00);
        CU_ASSERT_EQUAL(m6569_read(v, a), 0xFF);
    }
    /* Unused bits read 1. */
    m6569_write(v, 0xD016, 0x00);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD016), 0xC0);
    m6569_write(v, 0xD018, 0x00);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD018), 0x01);
    m6569_write(v, 0xD01A, 0x00);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD01A), 0xF0);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD019), 0x70);
    for (uint16_t a = 0xD020; a <= 0xD02E; a++) {
        m6569_write(v, a, 0x0A);
        CU_ASSERT_EQUAL(m6569_read(v, a), 0xFA);
    }
    /* Full 8-bit registers read back as written. */
    m6569_write(v, 0xD015, 0xA5);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD015), 0xA5);
    m6569_write(v, 0xD010, 0x5A);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD010), 0x5A);
    /* Read-only registers ignore writes. */
    m6569_write(v, 0xD013, 0x12);
    m6569_write(v, 0xD014, 0x34);
    m6569_write(v, 0xD01E, 0xFF);
    m6569_write(v, 0xD01F, 0xFF);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD013), 0);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD014), 0);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD01E), 0);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD01F), 0);
    free(h);
}

static void test_raster_register(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    m6569 *v = &h->vic;
    run_to(h, 0x123, 1);
    /* $D011 bit 7 = RASTER bit 8; writing it sets the compare, not RASTER. */
    CU_ASSERT_EQUAL(m6569_read(v, 0xD012), 0x23);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD011), 0x9B);
    m6569_write(v, 0xD011, 0x1B);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD011), 0x9B);
    run_to(h, 0x40, 5);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD011), 0x1B);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD012), 0x40);
    /* Line 0: RASTER still reads 311 in cycle 1, 0 from cycle 2. */
    run_to(h, 0, 1);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD012), 311 & 0xFF);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD011) & 0x80, 0x80);
    h_tick(h);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD012), 0);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD011) & 0x80, 0);
    free(h);
}

static void test_peek_has_no_side_effects(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    m6569 *v = &h->vic;
    v->mm_coll = 0x81;
    v->md_coll = 0x42;
    v->irq_latch = 0x06;
    m6569 before = *v;
    for (uint16_t a = 0xD000; a < 0xD400; a++) (void)m6569_peek(v, a);
    CU_ASSERT_EQUAL(memcmp(&before, v, sizeof before), 0);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD01E), 0x81);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD01F), 0x42);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD019), 0x76);
    /* A CPU read clears the collision registers; peek agrees before. */
    CU_ASSERT_EQUAL(m6569_read(v, 0xD01E), 0x81);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD01E), 0x00);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD05F), 0x42); /* mirror of $D01F */
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD01F), 0x00);
    free(h);
}

/* ---- interrupts -------------------------------------------------------- */

/* Ticks until the IRQ output is asserted; returns 0 if it never is. */
static int run_to_irq(harness *h, uint32_t limit)
{
    for (uint32_t i = 0; i < limit; i++) {
        if (h_tick(h) & M6569_PIN_IRQ) return 1;
    }
    return 0;
}

static void test_raster_irq_line_and_cycle(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    m6569 *v = &h->vic;
    m6569_write(v, 0xD012, 100);
    m6569_write(v, 0xD01A, M6569_INT_RST);
    CU_ASSERT_FATAL(run_to_irq(h, 63 * 312));
    CU_ASSERT_EQUAL(m6569_line(v), 100);
    CU_ASSERT_EQUAL(v->cycle, 1); /* Bauer 3.12: cycle 1 of the line */
    CU_ASSERT_EQUAL(m6569_read(v, 0xD019), 0xF1);
    /* Acknowledge by writing 1: the flag goes at once, the output in the
     * next cycle (a CPU sampling IRQ in the cycle of the write still sees
     * it: irq-ackn-bug/irq-ack-vicii's INC/ASL $D019 rows). */
    m6569_write(v, 0xD019, 0x0E); /* other bits: no effect */
    h_tick(h);
    CU_ASSERT_EQUAL(v->irq, 1);
    m6569_write(v, 0xD019, 0x01);
    CU_ASSERT_EQUAL(v->irq, 1);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD019) & 0x0F, 0x00);
    CU_ASSERT_EQUAL(h_tick(h) & M6569_PIN_IRQ, 0);
    CU_ASSERT_EQUAL(v->irq, 0);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD019), 0x70);
    /* No second IRQ in the same line (edge-triggered). */
    for (int i = 0; i < 60; i++) CU_ASSERT_EQUAL(h_tick(h) & M6569_PIN_IRQ, 0);
    /* Line 0: one cycle later, in cycle 2. */
    m6569_write(v, 0xD012, 0);
    CU_ASSERT_FATAL(run_to_irq(h, 63 * 312));
    CU_ASSERT_EQUAL(m6569_line(v), 0);
    CU_ASSERT_EQUAL(v->cycle, 2);
    m6569_write(v, 0xD019, 0xFF);
    /* Line 311 ($137): bit 8 of the compare comes from $D011. */
    m6569_write(v, 0xD012, 0x37);
    m6569_write(v, 0xD011, 0x9B);
    CU_ASSERT_FATAL(run_to_irq(h, 63 * 312));
    CU_ASSERT_EQUAL(m6569_line(v), 311);
    CU_ASSERT_EQUAL(v->cycle, 1);
    free(h);
}

static void test_raster_irq_latch_and_mask(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    m6569 *v = &h->vic;
    m6569_write(v, 0xD012, 60);
    run_to(h, 61, 1);
    /* Latched although not enabled; no IRQ output. */
    CU_ASSERT_EQUAL(m6569_read(v, 0xD019), 0x71);
    CU_ASSERT_EQUAL(v->irq, 0);
    /* Enabling it asserts the output at once; $D019 bit 7 shows it. */
    m6569_write(v, 0xD01A, 0x01);
    CU_ASSERT_EQUAL(v->irq, 1);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD019), 0xF1);
    m6569_write(v, 0xD01A, 0x00);
    CU_ASSERT_EQUAL(v->irq, 0);
    m6569_write(v, 0xD019, 0x01);
    /* Writing the current line as compare value triggers in the next cycle. */
    m6569_write(v, 0xD01A, 0x01);
    m6569_write(v, 0xD012, 61);
    CU_ASSERT_EQUAL(v->irq, 0);
    CU_ASSERT(h_tick(h) & M6569_PIN_IRQ);
    free(h);
}

static void test_irq_for_every_model(void)
{
    for (int m = 0; m < M6569_MODEL_COUNT; m++) {
        harness *h = h_new((m6569_model)m);
        const m6569_geometry *g = m6569_geometry_of((m6569_model)m);
        m6569_write(&h->vic, 0xD01A, 1);
        m6569_write(&h->vic, 0xD012, 0);
        CU_ASSERT_FATAL(run_to_irq(h, g->cycles_per_frame + 1));
        CU_ASSERT_EQUAL(m6569_line(&h->vic), 0);
        CU_ASSERT_EQUAL(h->vic.cycle, 2);
        m6569_write(&h->vic, 0xD019, 1);
        m6569_write(&h->vic, 0xD012, 200);
        CU_ASSERT_FATAL(run_to_irq(h, g->cycles_per_frame + 1));
        CU_ASSERT_EQUAL(m6569_line(&h->vic), 200);
        CU_ASSERT_EQUAL(h->vic.cycle, 1);
        free(h);
    }
}

/* ---- timing: frames, bad lines, fetches ------------------------------- */

static void test_frame_geometry(void)
{
    static const unsigned cycles[] = {63, 63, 65, 65, 64};
    static const unsigned lines[] = {312, 312, 263, 263, 262};
    for (int m = 0; m < M6569_MODEL_COUNT; m++) {
        const m6569_geometry *g = m6569_geometry_of((m6569_model)m);
        CU_ASSERT_PTR_NOT_NULL_FATAL(g);
        CU_ASSERT_EQUAL(g->cycles_per_line, cycles[m]);
        CU_ASSERT_EQUAL(g->lines_per_frame, lines[m]);
        CU_ASSERT_EQUAL(g->cycles_per_frame, cycles[m] * lines[m]);
        CU_ASSERT_EQUAL(g->width, 384);
        CU_ASSERT_EQUAL(g->display_x, 32);
        CU_ASSERT_PTR_NOT_NULL(m6569_model_name((m6569_model)m));
        harness *h = h_new((m6569_model)m);
        run_to(h, 100, 7);
        uint64_t frame = h->vic.frame;
        run_frames(h, 1);
        CU_ASSERT_EQUAL(m6569_line(&h->vic), 100);
        CU_ASSERT_EQUAL(h->vic.cycle, 7);
        CU_ASSERT_EQUAL(h->vic.frame, frame + 1);
        /* Each cycle number 1..cycles occurs once per line. */
        run_to(h, 50, cycles[m]);
        h_tick(h);
        CU_ASSERT_EQUAL(h->vic.cycle, 1);
        CU_ASSERT_EQUAL(m6569_line(&h->vic), 51);
        free(h);
    }
    CU_ASSERT_PTR_NULL(m6569_geometry_of(M6569_MODEL_COUNT));
    CU_ASSERT_STRING_EQUAL(m6569_model_name(M6569_MODEL_6567R56A), "6567R56A");
    CU_ASSERT_EQUAL(m6569_geometry_of(M6569_MODEL_6569)->height, 272);
    CU_ASSERT_EQUAL(m6569_geometry_of(M6569_MODEL_6569)->display_y, 35);
}

static void test_badline_ba_and_c_accesses(void)
{
    for (int m = 0; m < M6569_MODEL_COUNT; m++) {
        harness *h = h_new((m6569_model)m);
        for (int i = 0; i < 40; i++) h->mem[0x0400 + 40 + i] = (uint8_t)i; /* row 1 */
        for (int i = 0; i < 40; i++) h->color[40 + i] = (uint8_t)(i & 15);
        /* Line $3B = 59: the bad line of text row 1 with YSCROLL 3. */
        run_to(h, 0x3B, 1);
        int ba_low = 0, c_acc = 0, first_c = 0, last_c = 0;
        for (unsigned c = 1; c <= h->vic.cycles_per_line; c++) {
            if (c > 1) h_tick(h);
            int expect_low = c >= 12 && c <= 54;
            CU_ASSERT_EQUAL(h->vic.ba, expect_low ? 0 : 1);
            if (!h->vic.ba) ba_low++;
            if (h->vic.addr_phi2 != 0xFFFF) {
                /* c-access: VM | VC, VC counting row 1 from 40. */
                CU_ASSERT_EQUAL(h->vic.addr_phi2, 0x0400 + 40 + c_acc);
                CU_ASSERT_EQUAL(h->vic.aec, 0);
                if (!c_acc) first_c = (int)c;
                last_c = (int)c;
                c_acc++;
            }
        }
        CU_ASSERT_EQUAL(ba_low, 43);
        CU_ASSERT_EQUAL(c_acc, 40);
        CU_ASSERT_EQUAL(first_c, 15); /* 3 cycles after BA fell */
        CU_ASSERT_EQUAL(last_c, 54);
        /* The 12-bit line buffer holds char | colour << 8. */
        for (int i = 0; i < 40; i++) CU_ASSERT_EQUAL(h->vic.vm[i], (i & 15) << 8 | i);
        /* The next line is not bad: BA stays high, no c-access. */
        for (unsigned c = 1; c <= h->vic.cycles_per_line; c++) {
            h_tick(h);
            CU_ASSERT_EQUAL(h->vic.ba, 1);
            CU_ASSERT_EQUAL(h->vic.addr_phi2, 0xFFFF);
        }
        free(h);
    }
}

static void test_badlines_per_frame_and_den(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    run_to(h, 0, 2);
    unsigned bad = 0, low = 0;
    unsigned first = 0;
    for (uint32_t i = 0; i < 63u * 312u; i++) {
        h_tick(h);
        if (h->vic.bad_line && h->vic.cycle == 12) {
            if (!bad) first = m6569_line(&h->vic);
            bad++;
        }
        if (!h->vic.ba) low++;
    }
    CU_ASSERT_EQUAL(bad, 25);
    CU_ASSERT_EQUAL(first, 0x33);
    CU_ASSERT_EQUAL(low, 25 * 43);
    /* YSCROLL moves the bad lines. */
    m6569_write(&h->vic, 0xD011, 0x18);
    run_to(h, 0, 2);
    first = 0;
    for (uint32_t i = 0; i < 63u * 312u && !first; i++) {
        h_tick(h);
        if (h->vic.bad_line) first = m6569_line(&h->vic);
    }
    CU_ASSERT_EQUAL(first, 0x30);
    /* DEN clear during line $30: no bad line in the whole frame. */
    m6569_write(&h->vic, 0xD011, 0x0B);
    run_to(h, 0, 2);
    low = 0;
    for (uint32_t i = 0; i < 63u * 312u; i++) {
        h_tick(h);
        if (!h->vic.ba) low++;
    }
    CU_ASSERT_EQUAL(low, 0);
    /* ... and the screen is all border colour. */
    for (int y = 0; y < 272; y += 7)
        for (int x = 0; x < 384; x += 5) CU_ASSERT_EQUAL(px(h, x, y), 14);
    /* DEN set for one cycle of line $30 is enough. */
    run_to(h, 0x30, 20);
    m6569_write(&h->vic, 0xD011, 0x1B);
    h_tick(h);
    m6569_write(&h->vic, 0xD011, 0x0B);
    run_to(h, 0x33, 20);
    CU_ASSERT_EQUAL(h->vic.bad_line, 1);
    CU_ASSERT_EQUAL(h->vic.ba, 0);
    free(h);
}

/* The CPU core stalls on RDY = BA: a NOP loop loses exactly 43 cycles on
 * a bad line (BA low in 12-54), 0 elsewhere. */
typedef struct cpu_rig {
    harness *h;
    uint8_t ram[65536];
} cpu_rig;

static uint8_t rig_read(void *user, uint16_t addr)
{
    cpu_rig *r = user;
    return r->ram[addr];
}

static void rig_write(void *user, uint16_t addr, uint8_t value)
{
    cpu_rig *r = user;
    r->ram[addr] = value;
}

static void test_cpu_stall_cycles(void)
{
    cpu_rig *r = calloc(1, sizeof *r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    r->h = h_new(M6569_MODEL_6569);
    memset(r->ram, 0xEA, sizeof r->ram); /* NOP everywhere */
    mh_cpu6502 cpu;
    mh_cpu6502_desc cd = {0};
    cd.model = MH_CPU6502_MODEL_6510;
    cd.read = rig_read;
    cd.write = rig_write;
    cd.user = r;
    CU_ASSERT_EQUAL_FATAL(mh_cpu6502_init(&cpu, &cd), MH_OK);
    /* Sprite 0 DMA on lines 121-141. */
    m6569_write(&r->h->vic, 0xD015, 0x01);
    m6569_write(&r->h->vic, 0xD001, 120);
    run_to(r->h, 0x3A, 63); /* end of line 58 */
    unsigned stalls[4] = {0};
    const unsigned lines[4] = {0x3B, 0x3C, 130, 131}; /* bad, normal, sprite, sprite+bad */
    for (int k = 0; k < 4; k++) {
        run_to(r->h, lines[k] - 1, 63);
        for (int c = 0; c < 63; c++) {
            uint32_t pins = h_tick(r->h);
            cpu.rdy = (pins & M6569_PIN_BA) ? 1 : 0;
            mh_cpu6502_tick(&cpu);
            if (cpu.stalled) stalls[k]++;
        }
    }
    CU_ASSERT_EQUAL(stalls[0], 43);
    CU_ASSERT_EQUAL(stalls[1], 0);
    CU_ASSERT_EQUAL(stalls[2], 5); /* BA low in cycles 55-59 */
    CU_ASSERT_EQUAL(stalls[3], 48);
    free(r->h);
    free(r);
}

static void test_phase1_accesses(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    m6569 *v = &h->vic;
    run_to(h, 0, 2);
    /* Refresh: $3FFF down, 5 per line, reset to $FF in line 0. */
    run_to(h, 1, 11);
    CU_ASSERT_EQUAL(v->addr_phi1, 0x3FFA);
    for (unsigned c = 12; c <= 15; c++) {
        h_tick(h);
        CU_ASSERT_EQUAL(v->addr_phi1, 0x3FFA - (c - 11));
    }
    /* Sprite pointers: every line, even with all sprites off. */
    run_to(h, 1, 58);
    CU_ASSERT_EQUAL(v->addr_phi1, 0x07F8);
    run_to(h, 1, 60);
    CU_ASSERT_EQUAL(v->addr_phi1, 0x07F9);
    run_to(h, 2, 9);
    CU_ASSERT_EQUAL(v->addr_phi1, 0x07FF);
    /* Idle accesses, and the g-access of idle state at $3FFF / $39FF. */
    run_to(h, 2, 56);
    CU_ASSERT_EQUAL(v->addr_phi1, 0x3FFF);
    run_to(h, 2, 30);
    CU_ASSERT_EQUAL(v->display, 0);
    CU_ASSERT_EQUAL(v->addr_phi1, 0x3FFF);
    m6569_write(v, 0xD011, 0x5B);
    h_tick(h);
    CU_ASSERT_EQUAL(v->addr_phi1, 0x39FF);
    m6569_write(v, 0xD011, 0x1B);
    /* Display state: g-access = char base | code << 3 | RC. */
    h->mem[0x0400 + 40 * 2 + 5] = 0x41;
    run_to(h, 0x33 + 16 + 3, 21); /* row 2, RC 3, column 5 */
    CU_ASSERT_EQUAL(v->display, 1);
    CU_ASSERT_EQUAL(v->addr_phi1, 0x1000 + 0x41 * 8 + 3);
    /* Bitmap: CB13 | VC << 3 | RC. */
    m6569_write(v, 0xD011, 0x3B);
    m6569_write(v, 0xD018, 0x18);
    run_to(h, 0x33 + 16 + 4, 21);
    CU_ASSERT_EQUAL(v->addr_phi1, 0x2000 + (80 + 5) * 8 + 4);
    /* The line after the display window: VCBASE counted all 1000 cells. */
    run_to(h, 260, 1);
    CU_ASSERT_EQUAL(v->vcbase, 1000);
    CU_ASSERT_EQUAL(v->display, 0);
    free(h);
}

/* Phase-1 accesses of one display line on every model: 5 refresh, 8
 * sprite pointers, 40 g-accesses, the rest idle reads of $3FFF. */
static void test_line_access_counts(void)
{
    for (int m = 0; m < M6569_MODEL_COUNT; m++) {
        harness *h = h_new((m6569_model)m);
        run_to(h, 60, 1); /* row 1, RC 1 */
        unsigned refresh = 0, ptr = 0, g = 0, idle = 0, other = 0;
        for (unsigned c = 1; c <= h->vic.cycles_per_line; c++) {
            if (c > 1) h_tick(h);
            const uint16_t a = h->vic.addr_phi1;
            if (a == 0x3FFF) idle++;
            else if ((a & 0xFF00) == 0x3F00) refresh++;
            else if (a >= 0x07F8 && a <= 0x07FF) ptr++;
            else if (a == 0x1000 + 32 * 8 + 1) g++;
            else other++;
        }
        CU_ASSERT_EQUAL(refresh, 5);
        CU_ASSERT_EQUAL(ptr, 8);
        CU_ASSERT_EQUAL(g, 40);
        CU_ASSERT_EQUAL(idle, h->vic.cycles_per_line - 53u);
        CU_ASSERT_EQUAL(other, 0);
        free(h);
    }
}

/* A bad line forced in cycle 14 (FLI): BA falls in cycle 15, the VIC takes
 * the bus 3 cycles later, the first 3 c-accesses read $FF. */
static void test_fli_badline_mid_line(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    for (int i = 0; i < 40; i++) h->mem[0x0400 + 40 + i] = (uint8_t)(i + 1);
    run_to(h, 60, 14); /* 60 & 7 = 4: not a bad line with YSCROLL 3 */
    CU_ASSERT_EQUAL(h->vic.ba, 1);
    m6569_write(&h->vic, 0xD011, 0x1C);
    unsigned low = 0, aec_low = 0;
    for (unsigned c = 15; c <= 63; c++) {
        h_tick(h);
        if (!h->vic.ba) low++;
        if (!h->vic.aec) aec_low++;
    }
    CU_ASSERT_EQUAL(low, 40);     /* cycles 15-54 */
    CU_ASSERT_EQUAL(aec_low, 37); /* cycles 18-54 */
    CU_ASSERT_EQUAL(h->vic.vm[0], 0xFFF);
    CU_ASSERT_EQUAL(h->vic.vm[2], 0xFFF);
    CU_ASSERT_EQUAL(h->vic.vm[3] & 0xFF, 4); /* column 3 of row 1 */
    free(h);
}

/* ---- sprites: DMA timing ---------------------------------------------- */

static void test_sprite_dma_ba_per_sprite(void)
{
    static const unsigned ptr_cycle[3][8] = {
        {58, 60, 62, 1, 3, 5, 7, 9}, /* 6569 */
        {59, 61, 63, 65, 2, 4, 6, 8}, /* 6567R8 (VICE's table) */
        {59, 61, 63, 1, 3, 5, 7, 9}, /* 6567R56A */
    };
    static const m6569_model models[3] = {M6569_MODEL_6569, M6569_MODEL_6567R8,
                                            M6569_MODEL_6567R56A};
    for (int mi = 0; mi < 3; mi++) {
        for (unsigned n = 0; n < 8; n++) {
            harness *h = h_new(models[mi]);
            const unsigned cycles = h->vic.cycles_per_line;
            h->mem[0x07F8 + n] = 0xC0; /* data at $3000 */
            m6569_write(&h->vic, 0xD000 + 2 * n + 1, 100);
            m6569_write(&h->vic, 0xD015, (uint8_t)(1u << n));
            uint8_t ba[70];
            line_ba(h, 110, ba);
            const unsigned p = ptr_cycle[mi][n];
            for (unsigned c = 1; c <= cycles; c++) {
                unsigned d = (c + cycles - (p - 3)) % cycles;
                CU_ASSERT_EQUAL(ba[c], d < 5 ? 0 : 1);
            }
            /* p-access, then s-accesses at $3000 + MC in phase 2 / 1 / 2. */
            /* Fetches at the end of line 111 are for line 112 (sprite line
             * 11), those at its start for line 111 itself (sprite line 10). */
            run_to(h, 111, p);
            const unsigned mc = (p > 40 ? 11u : 10u) * 3u;
            CU_ASSERT_EQUAL(h->vic.addr_phi1, 0x07F8 + n);
            CU_ASSERT_EQUAL(h->vic.addr_phi2, 0x3000 + mc);
            CU_ASSERT_EQUAL(h->vic.aec, 0);
            h_tick(h);
            CU_ASSERT_EQUAL(h->vic.addr_phi1, 0x3000 + mc + 1);
            CU_ASSERT_EQUAL(h->vic.addr_phi2, 0x3000 + mc + 2);
            free(h);
        }
    }
}

/* Lines in which sprite 0 makes s-accesses during one frame. */
static unsigned sprite_dma_lines(harness *h)
{
    unsigned lines = 0;
    run_to(h, 0, 2);
    for (uint32_t i = 0; i < 63u * 312u; i++) {
        h_tick(h);
        if (h->vic.cycle == 58 && h->vic.addr_phi2 != 0xFFFF) lines++;
    }
    return lines;
}

static void test_sprite_dma_length(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    h->mem[0x07F8] = 0xC0;
    m6569_write(&h->vic, 0xD001, 100);
    m6569_write(&h->vic, 0xD015, 0x01);
    CU_ASSERT_EQUAL(sprite_dma_lines(h), 21);
    m6569_write(&h->vic, 0xD017, 0x01);
    CU_ASSERT_EQUAL(sprite_dma_lines(h), 42);
    /* A disabled sprite makes only p-accesses. */
    m6569_write(&h->vic, 0xD015, 0x00);
    CU_ASSERT_EQUAL(sprite_dma_lines(h), 0);
    free(h);
}

/* ---- display modes ----------------------------------------------------- */

/* Character 1: rows $F0 $0F $AA $55 $1B $E4 $FF $81. */
static const uint8_t char1[8] = {0xF0, 0x0F, 0xAA, 0x55, 0x1B, 0xE4, 0xFF, 0x81};

static void setup_char(harness *h)
{
    memcpy(&h->mem[0x1000 + 8], char1, 8);
    memcpy(&h->mem[0x2000], char1, 8); /* bitmap cell 0 */
    h->mem[0x0400] = 1;
    h->color[0] = 2;
}

/* Expects 8 pixels of row y starting at x. */
static void expect_row(const harness *h, int x, int y, const uint8_t *want)
{
    for (int i = 0; i < 8; i++) {
        if (px(h, x + i, y) != want[i]) {
            printf("\n  pixel (%d,%d) = %d, want %d", x + i, y, px(h, x + i, y), want[i]);
            CU_FAIL("pixel");
            return;
        }
    }
    CU_PASS("row");
}

static void test_standard_text(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    setup_char(h);
    run_frames(h, 2);
    const int y = row_of(0x33);
    CU_ASSERT_EQUAL(y, 35);
    expect_row(h, 32, y, (const uint8_t[]){2, 2, 2, 2, 6, 6, 6, 6});
    expect_row(h, 32, y + 1, (const uint8_t[]){6, 6, 6, 6, 2, 2, 2, 2});
    expect_row(h, 32, y + 7, (const uint8_t[]){2, 6, 6, 6, 6, 6, 6, 2});
    expect_row(h, 40, y, (const uint8_t[]){6, 6, 6, 6, 6, 6, 6, 6}); /* blank */
    /* Border around the window. */
    CU_ASSERT_EQUAL(px(h, 31, y), 14);
    CU_ASSERT_EQUAL(px(h, 32, y - 1), 14);
    free(h);
}

static void test_text_at_other_cells(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    memcpy(&h->mem[0x1000 + 8], char1, 8);
    h->mem[0x0400 + 24 * 40 + 39] = 1; /* bottom-right cell */
    h->color[24 * 40 + 39] = 7;
    h->mem[0x0400 + 12 * 40 + 20] = 1;
    h->color[12 * 40 + 20] = 13;
    run_frames(h, 2);
    expect_row(h, 32 + 39 * 8, 35 + 24 * 8, (const uint8_t[]){7, 7, 7, 7, 6, 6, 6, 6});
    expect_row(h, 32 + 20 * 8, 35 + 12 * 8 + 2, (const uint8_t[]){13, 6, 13, 6, 13, 6, 13, 6});
    CU_ASSERT_EQUAL(px(h, 352, 35 + 24 * 8), 14);
    CU_ASSERT_EQUAL(px(h, 351, 35 + 24 * 8 + 7), 7);
    CU_ASSERT_EQUAL(px(h, 351, 35 + 25 * 8), 14);
    free(h);
}

static void test_multicolour_text(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    setup_char(h);
    h->color[0] = 0x8 | 5; /* multicolour, colour 5 for "11" */
    h->mem[0x0401] = 1;
    h->color[1] = 2; /* colour < 8: a hires character */
    m6569_write(&h->vic, 0xD016, 0xD8);
    m6569_write(&h->vic, 0xD022, 3);
    m6569_write(&h->vic, 0xD023, 4);
    run_frames(h, 2);
    /* Row 4 = $1B = 00 01 10 11. */
    expect_row(h, 32, 35 + 4, (const uint8_t[]){6, 6, 3, 3, 4, 4, 5, 5});
    /* Row 2 = $AA = 10 10 10 10. */
    expect_row(h, 32, 35 + 2, (const uint8_t[]){4, 4, 4, 4, 4, 4, 4, 4});
    expect_row(h, 40, 35, (const uint8_t[]){2, 2, 2, 2, 6, 6, 6, 6});
    free(h);
}

static void test_standard_bitmap(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    setup_char(h);
    h->mem[0x0400] = 0x25; /* "1" = 2, "0" = 5 */
    m6569_write(&h->vic, 0xD011, 0x3B);
    m6569_write(&h->vic, 0xD018, 0x18);
    run_frames(h, 2);
    expect_row(h, 32, 35, (const uint8_t[]){2, 2, 2, 2, 5, 5, 5, 5});
    expect_row(h, 32, 35 + 3, (const uint8_t[]){5, 2, 5, 2, 5, 2, 5, 2});
    free(h);
}

static void test_multicolour_bitmap(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    setup_char(h);
    h->mem[0x0400] = 0x25;
    h->color[0] = 7;
    m6569_write(&h->vic, 0xD011, 0x3B);
    m6569_write(&h->vic, 0xD016, 0xD8);
    m6569_write(&h->vic, 0xD018, 0x18);
    run_frames(h, 2);
    /* 00 = $D021, 01 = screen high nybble, 10 = low nybble, 11 = colour RAM. */
    expect_row(h, 32, 35 + 4, (const uint8_t[]){6, 6, 2, 2, 5, 5, 7, 7});
    expect_row(h, 32, 35 + 5, (const uint8_t[]){7, 7, 5, 5, 2, 2, 6, 6});
    free(h);
}

static void test_ecm_text(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    setup_char(h);
    h->mem[0x0400] = 0xC1; /* char 1, background 3 */
    h->mem[0x0401] = 0x41; /* char 1, background 1 */
    h->color[1] = 2;
    m6569_write(&h->vic, 0xD011, 0x5B);
    m6569_write(&h->vic, 0xD022, 10);
    m6569_write(&h->vic, 0xD024, 9);
    run_frames(h, 2);
    expect_row(h, 32, 35, (const uint8_t[]){2, 2, 2, 2, 9, 9, 9, 9});
    expect_row(h, 40, 35, (const uint8_t[]){2, 2, 2, 2, 10, 10, 10, 10});
    expect_row(h, 48, 35, (const uint8_t[]){6, 6, 6, 6, 6, 6, 6, 6});
    free(h);
}

static void test_invalid_modes_are_black(void)
{
    static const uint8_t modes[3][2] = {{0x5B, 0xD8}, {0x7B, 0xC8}, {0x7B, 0xD8}};
    for (int m = 0; m < 3; m++) {
        harness *h = h_new(M6569_MODEL_6569);
        setup_char(h);
        m6569_write(&h->vic, 0xD011, modes[m][0]);
        m6569_write(&h->vic, 0xD016, modes[m][1]);
        run_frames(h, 2);
        for (int y = 35; y < 235; y += 3)
            for (int x = 32; x < 352; x += 3) CU_ASSERT_EQUAL(px(h, x, y), 0);
        CU_ASSERT_EQUAL(px(h, 31, 35), 14);
        free(h);
    }
}

static void test_xscroll_and_idle_graphics(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    setup_char(h);
    m6569_write(&h->vic, 0xD016, 0xCB); /* XSCROLL 3 */
    run_frames(h, 2);
    expect_row(h, 32, 35, (const uint8_t[]){6, 6, 6, 2, 2, 2, 2, 6});
    m6569_write(&h->vic, 0xD016, 0xCF); /* XSCROLL 7 */
    run_frames(h, 1);
    expect_row(h, 32, 35, (const uint8_t[]){6, 6, 6, 6, 6, 6, 6, 2});
    expect_row(h, 40, 35, (const uint8_t[]){2, 2, 2, 6, 6, 6, 6, 6});
    /* YSCROLL 7: lines $33-$36 are in idle state and show $3FFF. */
    h->mem[0x3FFF] = 0xAA;
    m6569_write(&h->vic, 0xD016, 0xC8);
    m6569_write(&h->vic, 0xD011, 0x1F);
    run_frames(h, 1);
    expect_row(h, 100, row_of(0x33), (const uint8_t[]){0, 6, 0, 6, 0, 6, 0, 6});
    expect_row(h, 32, row_of(0x37), (const uint8_t[]){2, 2, 2, 2, 6, 6, 6, 6});
    free(h);
}

/* ---- border ------------------------------------------------------------ */

static void test_border_40_38_25_24(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    m6569_write(&h->vic, 0xD021, 0);
    run_frames(h, 2);
    /* 40 columns, 25 rows: window x 32..351, y 35..234. */
    CU_ASSERT_EQUAL(px(h, 31, 100), 14);
    CU_ASSERT_EQUAL(px(h, 32, 100), 0);
    CU_ASSERT_EQUAL(px(h, 351, 100), 0);
    CU_ASSERT_EQUAL(px(h, 352, 100), 14);
    CU_ASSERT_EQUAL(px(h, 100, 34), 14);
    CU_ASSERT_EQUAL(px(h, 100, 35), 0);
    CU_ASSERT_EQUAL(px(h, 100, 234), 0);
    CU_ASSERT_EQUAL(px(h, 100, 235), 14);
    CU_ASSERT_EQUAL(px(h, 0, 0), 14);
    CU_ASSERT_EQUAL(px(h, 383, 271), 14);
    /* 38 columns: 7 pixels more on the left, 9 on the right. */
    m6569_write(&h->vic, 0xD016, 0xC0);
    /* 24 rows: 4 lines more at the top and at the bottom. */
    m6569_write(&h->vic, 0xD011, 0x13);
    run_frames(h, 1);
    CU_ASSERT_EQUAL(px(h, 38, 100), 14);
    CU_ASSERT_EQUAL(px(h, 39, 100), 0);
    CU_ASSERT_EQUAL(px(h, 342, 100), 0);
    CU_ASSERT_EQUAL(px(h, 343, 100), 14);
    CU_ASSERT_EQUAL(px(h, 100, 38), 14);
    CU_ASSERT_EQUAL(px(h, 100, 39), 0);
    CU_ASSERT_EQUAL(px(h, 100, 230), 0);
    CU_ASSERT_EQUAL(px(h, 100, 231), 14);
    free(h);
}

static void test_top_bottom_border_trick(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    m6569_write(&h->vic, 0xD021, 0);
    h->mem[0x3FFF] = 0x00;
    run_frames(h, 1);
    /* Clear RSEL between lines $F8 and $FA, set it again later. */
    run_to(h, 249, 30);
    m6569_write(&h->vic, 0xD011, 0x13);
    run_to(h, 280, 30);
    m6569_write(&h->vic, 0xD011, 0x1B);
    run_to(h, 100, 1);
    /* The lower border of that frame and the upper of the next stay open:
     * the sequencer shows the idle byte $3FFF (0) in background colour. */
    CU_ASSERT_EQUAL(px(h, 100, row_of(251)), 0);
    CU_ASSERT_EQUAL(px(h, 200, row_of(287)), 0);
    CU_ASSERT_EQUAL(px(h, 200, row_of(30)), 0);
    /* The side borders stay closed. */
    CU_ASSERT_EQUAL(px(h, 10, row_of(260)), 14);
    CU_ASSERT_EQUAL(px(h, 360, row_of(260)), 14);
    /* Cleared too early (line 247) the border closes as for 24 rows. */
    run_to(h, 246, 30);
    m6569_write(&h->vic, 0xD011, 0x13);
    run_to(h, 280, 30);
    m6569_write(&h->vic, 0xD011, 0x1B);
    run_to(h, 100, 1);
    CU_ASSERT_EQUAL(px(h, 100, row_of(247)), 14);
    CU_ASSERT_EQUAL(px(h, 100, row_of(260)), 14);
    CU_ASSERT_EQUAL(px(h, 100, row_of(30)), 14);
    free(h);
}

/* Clears CSEL after the CPU cycle `cycle` of line 100 and sets it again
 * in cycle 62. */
static void side_border_write(harness *h, unsigned cycle)
{
    run_to(h, 100, cycle);
    m6569_write(&h->vic, 0xD016, 0xC0);
    run_to(h, 100, 62);
    m6569_write(&h->vic, 0xD016, 0xC8);
    run_to(h, 110, 1);
}

static void test_side_border_trick(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    m6569_write(&h->vic, 0xD021, 0);
    run_frames(h, 1);
    /* PAL: the write must land in cycle 56. */
    side_border_write(h, 56);
    const int y = row_of(100);
    CU_ASSERT_EQUAL(px(h, 351, y), 0);
    CU_ASSERT_EQUAL(px(h, 352, y), 0);
    CU_ASSERT_EQUAL(px(h, 383, y), 0);
    CU_ASSERT_EQUAL(px(h, 0, y + 1), 0);  /* open until the next right compare */
    CU_ASSERT_EQUAL(px(h, 352, y + 1), 14);
    CU_ASSERT_EQUAL(px(h, 352, y - 1), 14);
    /* One cycle early: 38-column border from X $14F. */
    side_border_write(h, 55);
    CU_ASSERT_EQUAL(px(h, 342, y), 0);
    CU_ASSERT_EQUAL(px(h, 343, y), 14);
    CU_ASSERT_EQUAL(px(h, 360, y), 14);
    /* One cycle late: the 40-column border has already started. */
    side_border_write(h, 57);
    CU_ASSERT_EQUAL(px(h, 351, y), 0);
    CU_ASSERT_EQUAL(px(h, 352, y), 14);
    CU_ASSERT_EQUAL(px(h, 0, y + 1), 14);
    free(h);
}

/* ---- sprites: pixels, priority, collisions ----------------------------- */

static void sprite_setup(harness *h, unsigned n, unsigned x, unsigned y, uint8_t colour)
{
    h->mem[0x07F8 + n] = (uint8_t)(0xC0 + n); /* data at $3000 + 64n */
    m6569_write(&h->vic, 0xD000 + 2 * n, (uint8_t)x);
    uint8_t msb = m6569_peek(&h->vic, 0xD010);
    msb = (uint8_t)((msb & ~(1u << n)) | ((x >> 8) & 1u) << n);
    m6569_write(&h->vic, 0xD010, msb);
    m6569_write(&h->vic, 0xD001 + 2 * n, (uint8_t)y);
    m6569_write(&h->vic, 0xD027 + n, colour);
    m6569_write(&h->vic, 0xD015, (uint8_t)(m6569_peek(&h->vic, 0xD015) | 1u << n));
}

static void test_sprite_pixels(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    m6569_write(&h->vic, 0xD021, 0);
    uint8_t *d = &h->mem[0x3000];
    d[0] = 0x80;
    d[1] = 0x00;
    d[2] = 0x01; /* line 0: first and last pixel */
    d[3] = 0xFF;  /* line 1: 8 pixels */
    d[60] = 0xF0; /* line 20 */
    sprite_setup(h, 0, 24 + 16, 50 + 10, 7);
    run_frames(h, 2);
    /* Y+1 is the first line: raster 61 = y 45; X 40 = x 48. */
    const int y = row_of(61);
    CU_ASSERT_EQUAL(px(h, 48, y - 1), 0);
    CU_ASSERT_EQUAL(px(h, 47, y), 0);
    CU_ASSERT_EQUAL(px(h, 48, y), 7);
    CU_ASSERT_EQUAL(px(h, 49, y), 0);
    CU_ASSERT_EQUAL(px(h, 71, y), 7);
    CU_ASSERT_EQUAL(px(h, 72, y), 0);
    expect_row(h, 48, y + 1, (const uint8_t[]){7, 7, 7, 7, 7, 7, 7, 7});
    expect_row(h, 48, y + 20, (const uint8_t[]){7, 7, 7, 7, 0, 0, 0, 0});
    CU_ASSERT_EQUAL(px(h, 48, y + 21), 0);
    /* X and Y expansion: 48 x 42. */
    m6569_write(&h->vic, 0xD01D, 0x01);
    m6569_write(&h->vic, 0xD017, 0x01);
    run_frames(h, 2);
    CU_ASSERT_EQUAL(px(h, 48, y), 7);
    CU_ASSERT_EQUAL(px(h, 49, y), 7);
    CU_ASSERT_EQUAL(px(h, 50, y), 0);
    CU_ASSERT_EQUAL(px(h, 94, y), 7);
    CU_ASSERT_EQUAL(px(h, 95, y), 7);
    CU_ASSERT_EQUAL(px(h, 96, y), 0);
    CU_ASSERT_EQUAL(px(h, 48, y + 1), 7); /* line 0 again */
    CU_ASSERT_EQUAL(px(h, 50, y + 1), 0);
    expect_row(h, 48, y + 2, (const uint8_t[]){7, 7, 7, 7, 7, 7, 7, 7});
    CU_ASSERT_EQUAL(px(h, 56, y + 3), 7);
    CU_ASSERT_EQUAL(px(h, 56, y + 4), 0);
    CU_ASSERT_EQUAL(px(h, 55, y + 41), 7);
    CU_ASSERT_EQUAL(px(h, 56, y + 41), 0);
    CU_ASSERT_EQUAL(px(h, 48, y + 42), 0);
    free(h);
}

static void test_sprite_multicolour_and_position(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    m6569_write(&h->vic, 0xD021, 0);
    h->mem[0x3000] = 0x1B; /* 00 01 10 11 */
    m6569_write(&h->vic, 0xD01C, 0x01);
    m6569_write(&h->vic, 0xD025, 3);
    m6569_write(&h->vic, 0xD026, 4);
    sprite_setup(h, 0, 24, 50, 5);
    /* Sprite 7 right of X $FF and in the right border area. */
    h->mem[0x3000 + 7 * 64] = 0x80;
    sprite_setup(h, 7, 0x150, 100, 9);
    run_frames(h, 2);
    expect_row(h, 32, 35, (const uint8_t[]){0, 0, 3, 3, 5, 5, 4, 4});
    /* X $150 is x 32 + $138 = 344, inside the window; beside it border. */
    CU_ASSERT_EQUAL(px(h, 344, row_of(101)), 9);
    /* A sprite under the border is hidden by it. */
    sprite_setup(h, 7, 0x158, 100, 9);
    run_frames(h, 1);
    CU_ASSERT_EQUAL(px(h, 352, row_of(101)), 14);
    free(h);
}

static void test_sprite_priority(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    setup_char(h);   /* row 0 of char 1 at (32,35): 2 2 2 2 6 6 6 6 */
    h->mem[0x3000] = 0xFF;
    h->mem[0x3040] = 0xFF;
    sprite_setup(h, 0, 24, 50, 7);
    sprite_setup(h, 1, 28, 50, 8);
    run_frames(h, 2);
    /* Sprite 0 in front of sprite 1, both in front of the graphics. */
    expect_row(h, 32, 35, (const uint8_t[]){7, 7, 7, 7, 7, 7, 7, 7});
    CU_ASSERT_EQUAL(px(h, 40, 35), 8);
    CU_ASSERT_EQUAL(px(h, 43, 35), 8);
    /* Sprite 0 behind the foreground: the character shows through it. */
    m6569_write(&h->vic, 0xD01B, 0x01);
    run_frames(h, 1);
    expect_row(h, 32, 35, (const uint8_t[]){2, 2, 2, 2, 7, 7, 7, 7});
    free(h);
}

static void test_sprite_sprite_collision(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    m6569 *v = &h->vic;
    h->mem[0x3000] = 0xFF;
    h->mem[0x3040] = 0xFF;
    h->mem[0x3080] = 0xFF;
    sprite_setup(h, 0, 100, 100, 1);
    sprite_setup(h, 1, 104, 100, 2);
    sprite_setup(h, 2, 200, 100, 3); /* alone */
    m6569_write(v, 0xD01A, M6569_INT_MMC);
    run_frames(h, 1);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD01E), 0x03);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD01F), 0x00);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD019) & M6569_INT_MMC, M6569_INT_MMC);
    CU_ASSERT_EQUAL(v->irq, 1);
    /* Only the first collision after a clear raises the IRQ. */
    m6569_write(v, 0xD019, 0x0F);
    run_frames(h, 1);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD019) & M6569_INT_MMC, 0);
    CU_ASSERT_EQUAL(v->irq, 0);
    /* Reading clears the register; the next collision raises it again. */
    CU_ASSERT_EQUAL(m6569_read(v, 0xD01E), 0x03);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD01E), 0x00);
    run_frames(h, 1);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD01E), 0x03);
    CU_ASSERT_EQUAL(v->irq, 1);
    /* Collisions are found in the border too (X $1E0 is off screen). */
    m6569_write(v, 0xD019, 0x0F);
    (void)m6569_read(v, 0xD01E);
    sprite_setup(h, 0, 0x1E0, 100, 1);
    sprite_setup(h, 1, 0x1E4, 100, 2);
    run_frames(h, 1);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD01E), 0x03);
    free(h);
}

/* A sprite's own s-accesses reload its shift register at pixel 3 of its
 * p-access cycle (X $162 + 16n on the 6569 for sprites 0-2): a sprite still
 * shifting there holds that pixel through the next 6 and loses the rest of
 * its row; an X match in the 12 pixels after it starts nothing (the die
 * analysis in docs/vic2.md; VICII/spritex). */
static void test_sprite_reload_hold(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    m6569 *v = &h->vic;
    /* sprite 0 lights only its pixel 22, sprite 1 only its pixel 23 */
    for (int r = 0; r < 21; r++) {
        h->mem[0x3000 + 3 * r + 2] = 0x02;
        h->mem[0x3040 + 3 * r + 2] = 0x01;
    }
    /* Both at $14C: sprite 0's pixel 22 is at $162, the reload: held over
     * $163, where sprite 1's pixel 23 is. */
    sprite_setup(h, 0, 0x14C, 100, 1);
    sprite_setup(h, 1, 0x14C, 100, 2);
    run_frames(h, 2);
    (void)m6569_read(v, 0xD01E);
    run_frames(h, 1);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD01E), 0x03);
    /* One pixel left, the reload meets sprite 0's dark pixel 23: no hold of
     * a lit pixel, no collision. */
    sprite_setup(h, 0, 0x14B, 100, 1);
    sprite_setup(h, 1, 0x14B, 100, 2);
    run_frames(h, 1);
    (void)m6569_read(v, 0xD01E);
    run_frames(h, 1);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD01E), 0x00);
    /* Solid sprites: sprite 0 matched under its reload ($168) shows
     * nothing; from $170 on (12 pixels after $163) it shows again. */
    for (int r = 0; r < 63; r++) h->mem[0x3000 + r] = h->mem[0x3040 + r] = 0xFF;
    static const struct {
        unsigned x;
        uint8_t coll;
    } cases[] = {{0x162, 0x03}, {0x163, 0x00}, {0x168, 0x00}, {0x16E, 0x00}, {0x16F, 0x03},
                 {0x170, 0x03}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sprite_setup(h, 0, cases[c].x, 100, 1);
        sprite_setup(h, 1, cases[c].x, 100, 2);
        run_frames(h, 1);
        (void)m6569_read(v, 0xD01E);
        run_frames(h, 1);
        CU_ASSERT_EQUAL(m6569_peek(v, 0xD01E), cases[c].coll);
        if (m6569_peek(v, 0xD01E) != cases[c].coll)
            printf("\n  sprite 0 and 1 at X $%03X: $D01E %02X, expected %02X\n", cases[c].x,
                   m6569_peek(v, 0xD01E), cases[c].coll);
    }
    free(h);
}

/* A collision drawn at pixel 0 of a cycle reaches $D01E and the IRQ in
 * that cycle; one at pixels 1-7 only in the next (the VIC draws a cycle's
 * pixels ahead of the CPU's: VICE x64sc's cycle renderer, whose sprite
 * pixels sit one pixel left of these; interrupts/irq-ackn-bug/
 * irq-ack-vicii pins it). A read's reset still swallows pixel 0 of the
 * next cycle. */
static void test_sprite_collision_latch_cycle(void)
{
    for (int late = 0; late < 2; late++) {
        harness *h = h_new(M6569_MODEL_6569);
        m6569 *v = &h->vic;
        h->mem[0x3000] = 0x80;
        h->mem[0x3040] = 0x80;
        /* X $F7: sprite pixel 0 is pixel 0 of cycle 45; X $F8: pixel 1 */
        const unsigned x = late ? 0xF8 : 0xF7;
        sprite_setup(h, 0, x, 100, 1);
        sprite_setup(h, 1, x, 100, 2);
        m6569_write(v, 0xD01A, M6569_INT_MMC);
        run_to(h, 101, 40);
        (void)m6569_read(v, 0xD01E);
        m6569_write(v, 0xD019, 0x0F);
        run_to(h, 101, 45);
        CU_ASSERT_EQUAL(m6569_peek(v, 0xD01E), late ? 0x00 : 0x03);
        CU_ASSERT_EQUAL(v->irq, late ? 0 : 1);
        h_tick(h);
        CU_ASSERT_EQUAL(m6569_peek(v, 0xD01E), 0x03);
        CU_ASSERT_EQUAL(v->irq, 1);
        /* the next frame, read in cycle 44: pixel 0 of cycle 45 is lost,
         * pixel 1 is not */
        m6569_write(v, 0xD019, 0x0F);
        run_to(h, 101, 44);
        CU_ASSERT_EQUAL(m6569_read(v, 0xD01E), 0x03);
        run_to(h, 101, 47);
        CU_ASSERT_EQUAL(m6569_peek(v, 0xD01E), late ? 0x03 : 0x00);
        free(h);
    }
}

/* An X match while the sprite is still shifting does not restart it: it
 * goes on with its row (VICE x64sc triggers only an inactive sequencer). */
static void test_sprite_no_restart_while_shifting(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    m6569_write(&h->vic, 0xD021, 0);
    for (int r = 0; r < 63; r++) h->mem[0x3000 + r] = 0xFF;
    sprite_setup(h, 0, 100, 100, 7); /* x 108..131 on screen */
    run_frames(h, 1);
    /* in cycle 27 of its first line, move it to X 120: that match (cycle
     * 29) falls while it still shifts its row */
    run_to(h, 101, 27);
    m6569_write(&h->vic, 0xD000, 120);
    run_to(h, 102, 1);
    const int y = row_of(101);
    for (int x = 108; x < 132; x++) CU_ASSERT_EQUAL(px(h, x, y), 7);
    CU_ASSERT_EQUAL(px(h, 132, y), 0);
    free(h);
}

static void test_sprite_background_collision(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    m6569 *v = &h->vic;
    setup_char(h);
    h->mem[0x3000] = 0xFF;
    h->mem[0x3040] = 0xFF;
    sprite_setup(h, 0, 24, 50, 7);  /* over char 1 */
    sprite_setup(h, 1, 200, 50, 8); /* over blanks */
    m6569_write(v, 0xD01A, M6569_INT_MBC);
    run_frames(h, 1);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD01F), 0x01);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD01E), 0x00);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD019), 0x80 | 0x70 | M6569_INT_MBC);
    CU_ASSERT_EQUAL(m6569_read(v, 0xD01F), 0x01);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD01F), 0x00);
    /* Multicolour "01" is background: no collision with it. */
    m6569_write(v, 0xD019, 0x0F);
    for (int i = 0; i < 8; i++) h->mem[0x1008 + i] = 0x55;
    h->color[0] = 0x8 | 1;
    m6569_write(v, 0xD016, 0xD8);
    run_frames(h, 1);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD01F), 0x00);
    for (int i = 0; i < 8; i++) h->mem[0x1008 + i] = 0xAA; /* "10": foreground */
    run_frames(h, 1);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD01F), 0x01);
    free(h);
}

/* ---- snapshot, light pen ----------------------------------------------- */

static void test_snapshot_by_copy(void)
{
    harness *a = h_new(M6569_MODEL_6569);
    harness *b = h_new(M6569_MODEL_6569);
    setup_char(a);
    a->mem[0x3000] = 0xAA;
    a->mem[0x3001] = 0x55;
    a->mem[0x07F8] = 0xC0;
    m6569_write(&a->vic, 0xD015, 0x01);
    m6569_write(&a->vic, 0xD001, 120);
    m6569_write(&a->vic, 0xD000, 60);
    m6569_write(&a->vic, 0xD01A, 0x01);
    m6569_write(&a->vic, 0xD012, 130);
    m6569_run(&a->vic, 12345);
    /* Snapshot: memory, colour RAM and the chip state by plain copy. */
    memcpy(b->mem, a->mem, sizeof a->mem);
    memcpy(b->color, a->color, sizeof a->color);
    m6569 saved = a->vic;
    m6569_restore(&b->vic, &saved);
    CU_ASSERT_PTR_EQUAL(b->vic.links.user, b);
    CU_ASSERT_PTR_EQUAL(b->vic.links.framebuffer, b->fb);
    for (int frame = 0; frame < 3; frame++) {
        m6569_run(&a->vic, 63 * 312);
        m6569_run(&b->vic, 63 * 312);
        CU_ASSERT_EQUAL(memcmp(a->fb, b->fb, sizeof a->fb), 0);
        m6569 sa = a->vic, sb = b->vic;
        memset(&sa.links, 0, sizeof sa.links);
        memset(&sb.links, 0, sizeof sb.links);
        CU_ASSERT_EQUAL(memcmp(&sa, &sb, sizeof sa), 0);
    }
    CU_ASSERT(a->vic.frame >= 3);
    free(a);
    free(b);
}

/* A screen whose every row has pixels: characters 0-255 from a character
 * set of varied bytes, colours 0-15. */
static void setup_busy_screen(harness *h)
{
    for (int i = 0; i < 1000; i++) {
        h->mem[0x0400 + i] = (uint8_t)i;
        h->color[i] = (uint8_t)(i & 15);
    }
    for (int i = 0; i < 0x800; i++) h->mem[0x1000 + i] = (uint8_t)(i * 37 + (i >> 3));
}

/* The pixels of a line's cycles without sprites or border compares are
 * drawn in runs; a row is complete once the beam has left the window
 * (cycle 62 on PAL), ticked one by one, without m6569_run()'s drawing. */
static void test_row_complete_after_window(void)
{
    harness *a = h_new(M6569_MODEL_6569);
    harness *b = h_new(M6569_MODEL_6569);
    setup_busy_screen(a);
    setup_busy_screen(b);
    m6569_write(&a->vic, 0xD016, 0xCB); /* XSCROLL 3 */
    m6569_write(&b->vic, 0xD016, 0xCB);
    run_to(a, 100, 62);
    run_frames(b, 1);
    const int y = 100 - 16;
    CU_ASSERT_EQUAL(memcmp(&a->fb[y * M6569_FB_WIDTH], &b->fb[y * M6569_FB_WIDTH], M6569_FB_WIDTH),
                    0);
    /* the side borders (cycles 13-16, 58-61) are drawn, and the window has
     * characters in it, not only background */
    int border_px = 0, colours = 0;
    for (int x = 0; x < M6569_FB_WIDTH; x++) {
        if (x < 32 || x >= 352) border_px += px(a, x, y) == 14;
        else colours |= 1 << px(a, x, y);
    }
    CU_ASSERT_EQUAL(border_px, 64);
    CU_ASSERT(colours & ~(1 << 6));
    free(a);
    free(b);
}

/* A restore in the middle of a line, with pixels not drawn yet, gives the
 * saved state byte for byte (also after the machine's framebuffer switch),
 * and the restored chip draws the rest of the frame as the original. */
static void test_snapshot_mid_line(void)
{
    harness *a = h_new(M6569_MODEL_6569);
    harness *b = h_new(M6569_MODEL_6569);
    setup_busy_screen(a);
    run_frames(a, 1);
    run_to(a, 120, 40);
    memcpy(b->mem, a->mem, sizeof a->mem);
    memcpy(b->color, a->color, sizeof a->color);
    memcpy(b->fb, a->fb, sizeof a->fb);
    m6569 saved = a->vic;
    m6569_restore(&b->vic, &saved);
    m6569_set_framebuffer(&b->vic, b->fb, 0);
    m6569 sa = a->vic, sb = b->vic;
    memset(&sa.links, 0, sizeof sa.links);
    memset(&sb.links, 0, sizeof sb.links);
    CU_ASSERT_EQUAL(memcmp(&sa, &sb, sizeof sa), 0);
    for (int i = 0; i < 63 * 200; i++) {
        h_tick(a);
        h_tick(b);
    }
    m6569_run(&a->vic, 0);
    m6569_run(&b->vic, 0);
    CU_ASSERT_EQUAL(memcmp(a->fb, b->fb, sizeof a->fb), 0);
    free(a);
    free(b);
}

static void test_lightpen(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    m6569 *v = &h->vic;
    m6569_write(v, 0xD01A, M6569_INT_LP);
    run_to(h, 100, 20);
    m6569_set_lightpen(v, 1);
    /* Bauer 3.11: triggered in cycle 20, LPX is $1E (X $03C). */
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD013), 0x1E);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD014), 100);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD019), 0x80 | 0x70 | M6569_INT_LP);
    CU_ASSERT_EQUAL(v->irq, 1);
    m6569_write(v, 0xD019, M6569_INT_LP);
    /* Only one trigger per frame. */
    m6569_set_lightpen(v, 0);
    run_to(h, 150, 40);
    m6569_set_lightpen(v, 1);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD014), 100);
    CU_ASSERT_EQUAL(v->irq, 0);
    /* Held low across the frame start: the latch re-arms in cycle 2 of
     * line 0 and takes the held pen at once, X $D1 (pixel 14 of the line),
     * Y 0 (6569R3 dump of VICE's split-tests/lightpen). */
    run_to(h, 10, 40);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD014), 0);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD013), 0xD1);
    m6569_set_lightpen(v, 0); /* a new edge in the same frame: nothing */
    m6569_set_lightpen(v, 1);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD014), 0);
    m6569_set_lightpen(v, 0);
    /* Released before the frame start: the next frame's edge latches. */
    run_to(h, 10, 40);
    m6569_set_lightpen(v, 1);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD014), 10);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD013), m6569_xpos(v) / 2 + 4);
    free(h);
}

/* While RASTER shows the frame's last line the latch takes no trigger; an
 * edge in a line's last cycle latches the next line's start (6569R3 dump
 * of split-tests/lightpen). */
static void test_lightpen_frame_end(void)
{
    harness *h = h_new(M6569_MODEL_6569);
    m6569 *v = &h->vic;
    run_to(h, 311, 20);
    m6569_set_lightpen(v, 1);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD019) & M6569_INT_LP, 0);
    CU_ASSERT_EQUAL(v->lp_triggered, 0);
    m6569_set_lightpen(v, 0);
    run_to(h, 100, 63);
    m6569_set_lightpen(v, 1);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD014), 101);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD013), 0xCA); /* X $194: the line's pixel 0 */
    free(h);
}

/* The HMOS 8565 latches X two pixels earlier than the 6569 (LPX one
 * less), except for the frame-start trigger (the 8565R2 and 6569R3 dumps
 * of VICE's split-tests/lightpen both match). */
static void test_lightpen_hmos(void)
{
    harness *h = h_new(M6569_MODEL_8565);
    m6569 *v = &h->vic;
    run_to(h, 100, 20);
    m6569_set_lightpen(v, 1);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD013), 0x1D);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD014), 100);
    run_to(h, 10, 40); /* held low across the frame start */
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD013), 0xD1);
    CU_ASSERT_EQUAL(m6569_peek(v, 0xD014), 0);
    free(h);
}

static void test_palettes(void)
{
    const uint32_t *p = m6569_palette(M6569_PALETTE_PEPTO);
    const uint32_t *c = m6569_palette(M6569_PALETTE_COLODORE);
    CU_ASSERT_EQUAL(p[0], 0x000000);
    CU_ASSERT_EQUAL(p[1], 0xFFFFFF);
    CU_ASSERT_EQUAL(p[6], 0x352879);
    CU_ASSERT_EQUAL(c[6], 0x2E2C9B);
    CU_ASSERT_EQUAL(c[14], 0x706DEB);
    /* Greys are grey, in order of brightness. */
    CU_ASSERT(p[11] < p[12] && p[12] < p[15]);
    CU_ASSERT_EQUAL((p[12] >> 16) & 0xFF, p[12] & 0xFF);
}

MH_SUITE("vic2.registers", NULL, NULL, MH_TEST(test_init_arguments),
         MH_TEST(test_register_mirrors_and_unused_bits), MH_TEST(test_raster_register),
         MH_TEST(test_peek_has_no_side_effects))
MH_SUITE("vic2.irq", NULL, NULL, MH_TEST(test_raster_irq_line_and_cycle),
         MH_TEST(test_raster_irq_latch_and_mask), MH_TEST(test_irq_for_every_model),
         MH_TEST(test_lightpen), MH_TEST(test_lightpen_frame_end),
         MH_TEST(test_lightpen_hmos))
MH_SUITE("vic2.timing", NULL, NULL, MH_TEST(test_frame_geometry),
         MH_TEST(test_badline_ba_and_c_accesses), MH_TEST(test_badlines_per_frame_and_den),
         MH_TEST(test_cpu_stall_cycles), MH_TEST(test_phase1_accesses),
         MH_TEST(test_line_access_counts), MH_TEST(test_fli_badline_mid_line),
         MH_TEST(test_sprite_dma_ba_per_sprite), MH_TEST(test_sprite_dma_length))
MH_SUITE("vic2.modes", NULL, NULL, MH_TEST(test_standard_text), MH_TEST(test_text_at_other_cells),
         MH_TEST(test_multicolour_text), MH_TEST(test_standard_bitmap),
         MH_TEST(test_multicolour_bitmap), MH_TEST(test_ecm_text),
         MH_TEST(test_invalid_modes_are_black), MH_TEST(test_xscroll_and_idle_graphics),
         MH_TEST(test_palettes))
MH_SUITE("vic2.border", NULL, NULL, MH_TEST(test_border_40_38_25_24),
         MH_TEST(test_top_bottom_border_trick), MH_TEST(test_side_border_trick))
MH_SUITE("vic2.sprites", NULL, NULL, MH_TEST(test_sprite_pixels),
         MH_TEST(test_sprite_multicolour_and_position), MH_TEST(test_sprite_priority),
         MH_TEST(test_sprite_sprite_collision), MH_TEST(test_sprite_background_collision),
         MH_TEST(test_sprite_reload_hold), MH_TEST(test_sprite_collision_latch_cycle),
         MH_TEST(test_sprite_no_restart_while_shifting))
MH_SUITE("vic2.snapshot", NULL, NULL, MH_TEST(test_snapshot_by_copy),
         MH_TEST(test_snapshot_mid_line), MH_TEST(test_row_complete_after_window))
