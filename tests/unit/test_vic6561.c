/* Tests of the 6561/6560 VIC core (plugins/machine-vic20/vic6561.c): the
 * beam and raster register, the display fetch (video matrix, colour
 * nybbles, character generator, 8x16 characters), colours (multicolour,
 * reverse mode, auxiliary), the voices' frequencies and the audio stream. */
#include "mh_test.h"

#include "vic6561.h"

#include <stdlib.h>
#include <string.h>

static m6561 vic;
static uint8_t mem[16384];   /* the VIC's 14-bit space, plain bytes */
static uint8_t color[1024];
static uint8_t fb[M6561_FB_WIDTH * M6561_FB_MAX_HEIGHT];

static void setup(m6561_model model)
{
    m6561_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.model = model;
    for (unsigned b = 0; b < 16; b++) desc.blocks[b] = mem + b * 1024u;
    desc.color = color;
    desc.framebuffer = fb;
    memset(mem, 0, sizeof mem);
    memset(color, 0, sizeof color);
    memset(fb, 0xEE, sizeof fb);
    m6561_init(&vic, &desc);
}

static int run_frame(void)
{
    const m6561_geometry *g = m6561_geometry_of(vic.model);
    int ends = 0;
    for (uint32_t i = 0; i < (uint32_t)g->cycles_per_line * g->lines_per_frame; i++) ends += m6561_tick(&vic);
    return ends;
}

static void test_geometry_and_raster(void)
{
    setup(M6561_MODEL_6561);
    const m6561_geometry *g = m6561_geometry_of(M6561_MODEL_6561);
    CU_ASSERT_EQUAL(g->cycles_per_line, 71);
    CU_ASSERT_EQUAL(g->lines_per_frame, 312);
    CU_ASSERT_EQUAL(g->clock_hz, 1108405u);
    g = m6561_geometry_of(M6561_MODEL_6560);
    CU_ASSERT_EQUAL(g->cycles_per_line, 65);
    CU_ASSERT_EQUAL(g->lines_per_frame, 261);
    CU_ASSERT_EQUAL(g->clock_hz, 1022727u);
    CU_ASSERT_EQUAL(run_frame(), 1);
    CU_ASSERT_EQUAL(vic.line, 0);
    /* Line 201: $9004 = 100, $9003 bit 7 = 1. */
    for (uint32_t i = 0; i < 201u * 71u; i++) m6561_tick(&vic);
    CU_ASSERT_EQUAL(m6561_read(&vic, 4), 100);
    CU_ASSERT_EQUAL(m6561_read(&vic, 3) & 0x80, 0x80);
    m6561_write(&vic, 4, 0x12); /* read-only */
    CU_ASSERT_EQUAL(m6561_read(&vic, 4), 100);
}

/* The KERNAL's PAL screen: 22x23 at origin 12/38, matrix at VIC $3E00
 * (CPU $1E00), characters in ROM at VIC $0000 (CPU $8000). */
static void kernal_screen(void)
{
    m6561_write(&vic, 0, 12);
    m6561_write(&vic, 1, 38);
    m6561_write(&vic, 2, 0x96);
    m6561_write(&vic, 3, 23 << 1);
    m6561_write(&vic, 5, 0xF0);
    m6561_write(&vic, 15, 0x1B); /* background white, normal mode, border cyan */
}

static const uint8_t *pixel_row(unsigned line) { return fb + (line - 28u) * M6561_FB_WIDTH; }

static void test_text_fetch_and_colours(void)
{
    setup(M6561_MODEL_6561);
    kernal_screen();
    CU_ASSERT_EQUAL(m6561_screen_vic_address(&vic), 0x3E00);
    CU_ASSERT_EQUAL(m6561_cpu_address(0x3E00), 0x1E00);
    CU_ASSERT_EQUAL(m6561_cpu_address(0x0000), 0x8000);
    /* Cell 0: character 1, colour 2 (red); its first line $F0. */
    mem[0x3E00] = 1;
    color[0x200] = 2;
    mem[0x0008] = 0xF0;
    run_frame();
    const uint8_t *row = pixel_row(76);
    /* Display starts at cycle origin + 2, framebuffer x 0 = cycle 7. */
    unsigned x0 = (12u + 2u - 7u) * 4u;
    CU_ASSERT_EQUAL(row[x0 - 1], 3);   /* border */
    for (unsigned i = 0; i < 4; i++) CU_ASSERT_EQUAL(row[x0 + i], 2);
    for (unsigned i = 4; i < 8; i++) CU_ASSERT_EQUAL(row[x0 + i], 1);
    CU_ASSERT_EQUAL(pixel_row(75)[x0], 3); /* above the text: border */
    /* Reverse mode swaps foreground and background. */
    m6561_write(&vic, 15, 0x13);
    run_frame();
    CU_ASSERT_EQUAL(pixel_row(76)[x0], 1);
    CU_ASSERT_EQUAL(pixel_row(76)[x0 + 4], 2);
    /* Multicolour (colour bit 3): pairs 00 bg, 01 border, 10 fg, 11 aux. */
    m6561_write(&vic, 15, 0x1B);
    m6561_write(&vic, 14, 0x40); /* auxiliary 4 */
    color[0x200] = 8 | 2;
    mem[0x0008] = 0x1B; /* 00 01 10 11 */
    run_frame();
    row = pixel_row(76);
    CU_ASSERT_EQUAL(row[x0], 1);
    CU_ASSERT_EQUAL(row[x0 + 2], 3);
    CU_ASSERT_EQUAL(row[x0 + 4], 2);
    CU_ASSERT_EQUAL(row[x0 + 6], 4);
    /* The open bus keeps the last fetch: the last cell's eighth line. */
    memset(mem + 0x3E00, 1, 22 * 23);
    mem[0x000F] = 0x5C;
    run_frame();
    CU_ASSERT_EQUAL(vic.last_data, 0x5C);
}

static void test_double_height_and_rows(void)
{
    setup(M6561_MODEL_6561);
    kernal_screen();
    m6561_write(&vic, 3, (2 << 1) | 1); /* 2 rows of 8x16 characters */
    mem[0x3E00] = 1;
    color[0x200] = 0;
    mem[0x0010 + 9] = 0xFF; /* character 1's tenth line */
    run_frame();
    unsigned x0 = (12u + 2u - 7u) * 4u;
    CU_ASSERT_EQUAL(pixel_row(76 + 9)[x0], 0);
    CU_ASSERT_EQUAL(pixel_row(76 + 8)[x0], 1);
    CU_ASSERT_EQUAL(pixel_row(76 + 32)[x0], 3); /* after 2 rows of 16: border */
}

static void test_voices_and_audio(void)
{
    setup(M6561_MODEL_6561);
    CU_ASSERT_EQUAL(m6561_voice_hz(&vic, 0), 0.0);
    m6561_write(&vic, 12, 0x80 | 100); /* soprano */
    m6561_write(&vic, 14, 15);
    double hz = m6561_voice_hz(&vic, 2);
    CU_ASSERT_DOUBLE_EQUAL(hz, 1108405.0 / (64.0 * 27.0), 0.01);
    run_frame();
    int16_t samples[4096];
    size_t n = m6561_audio_read(&vic, samples, 4096);
    CU_ASSERT(n >= 880 && n <= 890); /* 44.1 kHz for 22152 cycles */
    /* Count the square wave's rising edges: 641 Hz over the frame. */
    int rises = 0;
    for (size_t i = 1; i < n; i++) rises += samples[i] > 0 && samples[i - 1] <= 0;
    double seconds = (double)n / M6561_AUDIO_RATE;
    CU_ASSERT(rises >= (int)(hz * seconds) - 1 && rises <= (int)(hz * seconds) + 1);
    /* Noise: a different waveform, still bounded by the volume. */
    m6561_write(&vic, 12, 0);
    m6561_write(&vic, 13, 0xF0);
    run_frame();
    n = m6561_audio_read(&vic, samples, 4096);
    int distinct = 0;
    for (size_t i = 1; i < n; i++) distinct += samples[i] != samples[i - 1];
    CU_ASSERT(distinct > 10);
    m6561_write(&vic, 14, 0);
    run_frame();
    n = m6561_audio_read(&vic, samples, 4096);
    for (size_t i = 0; i < n; i++) CU_ASSERT_EQUAL_FATAL(samples[i], 0);
}

/* Lazy clocking gives what ticking every cycle gives: one VIC ticked cycle
 * by cycle, one synced a frame (and odd spans) at a time, the same picture,
 * open bus, beam and sound. */
static void test_sync_equals_ticks(void)
{
    static uint8_t fb2[M6561_FB_WIDTH * M6561_FB_MAX_HEIGHT];
    for (int model = 0; model < 2; model++) {
        setup((m6561_model)model);
        for (unsigned i = 0; i < sizeof mem; i++) mem[i] = (uint8_t)(i * 7u + (i >> 5));
        for (unsigned i = 0; i < sizeof color; i++) color[i] = (uint8_t)(i % 16u);
        kernal_screen();
        m6561_write(&vic, 0, model ? 5 : 12);
        m6561_write(&vic, 14, 0x5F);
        m6561_write(&vic, 10, 0x80 | 40);
        m6561_write(&vic, 13, 0x80 | 90);
        m6561 lazy = vic;
        lazy.fb = fb2;
        memset(fb2, 0xEE, sizeof fb2);
        const m6561_geometry *g = m6561_geometry_of(vic.model);
        uint32_t frame = (uint32_t)g->cycles_per_line * g->lines_per_frame;
        for (int f = 0; f < 3; f++) {
            for (uint32_t i = 0; i < frame; i++) m6561_tick(&vic);
            /* Lazy: odd spans, then the rest of the frame at once. */
            uint32_t done = 0;
            static const uint32_t spans[] = {1, 70, 71, 500, 3, 9999};
            for (size_t k = 0; k < sizeof spans / sizeof spans[0]; k++) {
                lazy.pending = spans[k];
                m6561_sync(&lazy);
                done += spans[k];
            }
            lazy.pending = frame - done;
            m6561_sync(&lazy);
            if (f == 1) { /* the chip's registers change between frames */
                m6561_write(&vic, 3, (10 << 1) | 1);
                m6561_write(&lazy, 3, (10 << 1) | 1);
                m6561_write(&vic, 15, 0x25);
                m6561_write(&lazy, 15, 0x25);
            }
        }
        CU_ASSERT_EQUAL(memcmp(fb, fb2, sizeof fb), 0);
        CU_ASSERT_EQUAL(vic.last_data, lazy.last_data);
        CU_ASSERT_EQUAL(vic.line, lazy.line);
        CU_ASSERT_EQUAL(vic.cycle, lazy.cycle);
        CU_ASSERT_EQUAL(vic.frame, lazy.frame);
        int16_t a[4096], b[4096];
        size_t na = m6561_audio_read(&vic, a, 4096), nb = m6561_audio_read(&lazy, b, 4096);
        CU_ASSERT_EQUAL(na, nb);
        CU_ASSERT(na > 2000);
        CU_ASSERT_EQUAL(memcmp(a, b, na * sizeof a[0]), 0);
    }
}

MH_SUITE("vic6561.video", NULL, NULL, MH_TEST(test_geometry_and_raster),
         MH_TEST(test_text_fetch_and_colours), MH_TEST(test_double_height_and_rows),
         MH_TEST(test_sync_equals_ticks))
MH_SUITE("vic6561.sound", NULL, NULL, MH_TEST(test_voices_and_audio))
