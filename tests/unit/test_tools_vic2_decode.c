/* tools_vic2.decode - the VIC-II decoders against hand-made register sets:
 * the C64's view decoder (c64_vic2_decode: mode bits, $D018 + bank to
 * addresses, character ROM, sprites, IRQ state) and the toolset's pure
 * decoders (sprite pixels and ASCII art, colour
 * runs, register numbers, mode names). */
#include <string.h>

#include "c64_chips.h"
#include "mh_test.h"
#include "mcphost/toolkit.h"
#include "vic2.h"
#include "vic2_decode.h"

static uint8_t zero_fetch(void *user, uint16_t addr)
{
    (void)user;
    (void)addr;
    return 0;
}

static void make_vic(m6569 *vic)
{
    m6569_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.fetch = zero_fetch;
    CU_ASSERT_EQUAL_FATAL(m6569_init(vic, &desc), MH_OK);
}

static void decode(const m6569 *vic, unsigned bank, int char_rom, const uint8_t ptr[8],
                   mh_chip_vic2_view *view)
{
    memset(view, 0xAA, sizeof *view);
    view->struct_size = sizeof *view;
    c64_vic2_decode(vic, bank, char_rom, ptr, view);
}

static void test_text_mode_bank0(void)
{
    static m6569 vic;
    make_vic(&vic);
    m6569_write(&vic, 0x11, 0x1B); /* DEN, RSEL, YSCROLL 3 */
    m6569_write(&vic, 0x16, 0xC8); /* CSEL, XSCROLL 0 (upper bits unused) */
    m6569_write(&vic, 0x18, 0x14); /* screen $0400, charset $1000 */
    m6569_write(&vic, 0x20, 0xFE); /* border 14 (upper nybble reads 1s) */
    m6569_write(&vic, 0x21, 0x06);
    const uint8_t ptr[8] = {0};
    mh_chip_vic2_view v;
    decode(&vic, 0, 1, ptr, &v);
    CU_ASSERT_EQUAL(v.struct_size, sizeof v);
    CU_ASSERT_STRING_EQUAL(v.model, "6569");
    CU_ASSERT_STRING_EQUAL(v.standard, "PAL");
    CU_ASSERT_EQUAL(v.cycles_per_line, 63);
    CU_ASSERT_EQUAL(v.lines_per_frame, 312);
    CU_ASSERT_EQUAL(v.mode, MH_CHIP_VIC2_MODE_TEXT);
    CU_ASSERT_EQUAL(v.den, 1);
    CU_ASSERT_EQUAL(v.rsel, 1);
    CU_ASSERT_EQUAL(v.csel, 1);
    CU_ASSERT_EQUAL(v.yscroll, 3);
    CU_ASSERT_EQUAL(v.xscroll, 0);
    CU_ASSERT_EQUAL(v.bank, 0);
    CU_ASSERT_EQUAL(v.bank_base, 0x0000);
    CU_ASSERT_EQUAL(v.screen_address, 0x0400);
    CU_ASSERT_EQUAL(v.charset_address, 0x1000);
    CU_ASSERT_EQUAL(v.charset_in_rom, 1);
    CU_ASSERT_EQUAL(v.bitmap_address, 0x0000);
    CU_ASSERT_EQUAL(v.sprite_pointers, 0x07F8);
    CU_ASSERT_EQUAL(v.border_color, 14);
    CU_ASSERT_EQUAL(v.regs[0x20], 0xFE);
    CU_ASSERT_EQUAL(v.background[0], 6);
    CU_ASSERT_EQUAL(v.regs[0x16], 0xC8); /* unused bits read 1 */
    /* Bank 1 never shows the character ROM. */
    decode(&vic, 1, 0, ptr, &v);
    CU_ASSERT_EQUAL(v.bank_base, 0x4000);
    CU_ASSERT_EQUAL(v.screen_address, 0x4400);
    CU_ASSERT_EQUAL(v.charset_address, 0x5000);
    CU_ASSERT_EQUAL(v.charset_in_rom, 0);
}

static void test_modes(void)
{
    static m6569 vic;
    make_vic(&vic);
    const uint8_t ptr[8] = {0};
    mh_chip_vic2_view v;
    static const struct {
        uint8_t d011, d016, mode;
    } cases[] = {
        {0x1B, 0x08, MH_CHIP_VIC2_MODE_TEXT},      {0x1B, 0x18, MH_CHIP_VIC2_MODE_MC_TEXT},
        {0x3B, 0x08, MH_CHIP_VIC2_MODE_BITMAP},    {0x3B, 0x18, MH_CHIP_VIC2_MODE_MC_BITMAP},
        {0x5B, 0x08, MH_CHIP_VIC2_MODE_ECM_TEXT},  {0x5B, 0x18, MH_CHIP_VIC2_MODE_INVALID_TEXT},
        {0x7B, 0x08, MH_CHIP_VIC2_MODE_INVALID_BITMAP},
        {0x7B, 0x18, MH_CHIP_VIC2_MODE_INVALID_MC_BITMAP},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        m6569_write(&vic, 0x11, cases[i].d011);
        m6569_write(&vic, 0x16, cases[i].d016);
        decode(&vic, 0, 1, ptr, &v);
        CU_ASSERT_EQUAL(v.mode, cases[i].mode);
        CU_ASSERT_EQUAL(v.ecm, (cases[i].d011 >> 6) & 1);
        CU_ASSERT_EQUAL(v.bmm, (cases[i].d011 >> 5) & 1);
        CU_ASSERT_EQUAL(v.mcm, (cases[i].d016 >> 4) & 1);
    }
    /* 24 rows, 38 columns, scroll values. */
    m6569_write(&vic, 0x11, 0x15);
    m6569_write(&vic, 0x16, 0x07);
    decode(&vic, 0, 1, ptr, &v);
    CU_ASSERT_EQUAL(v.rsel, 0);
    CU_ASSERT_EQUAL(v.csel, 0);
    CU_ASSERT_EQUAL(v.yscroll, 5);
    CU_ASSERT_EQUAL(v.xscroll, 7);
    CU_ASSERT_STRING_EQUAL(tv_mode_name(v.mode), "standard text");
    CU_ASSERT_STRING_EQUAL(tv_mode_name(3), "multicolour bitmap");
    CU_ASSERT_PTR_NOT_NULL(strstr(tv_mode_name(6), "invalid"));
}

static void test_bitmap_bank2(void)
{
    static m6569 vic;
    make_vic(&vic);
    m6569_write(&vic, 0x11, 0x3B);
    m6569_write(&vic, 0x18, 0x38); /* screen $0C00, bitmap $2000 (charset bits 100) */
    const uint8_t ptr[8] = {0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0xFF};
    mh_chip_vic2_view v;
    decode(&vic, 2, 1, ptr, &v);
    CU_ASSERT_EQUAL(v.bank_base, 0x8000);
    CU_ASSERT_EQUAL(v.screen_address, 0x8C00);
    CU_ASSERT_EQUAL(v.bitmap_address, 0xA000);
    CU_ASSERT_EQUAL(v.charset_address, 0xA000);
    CU_ASSERT_EQUAL(v.charset_in_rom, 0); /* $2000 in the bank: RAM */
    CU_ASSERT_EQUAL(v.bitmap_in_rom, 0);
    CU_ASSERT_EQUAL(v.sprite_pointers, 0x8FF8);
    CU_ASSERT_EQUAL(v.sprites[0].pointer, 0x20);
    CU_ASSERT_EQUAL(v.sprites[0].data_vic_address, 0x0800);
    CU_ASSERT_EQUAL(v.sprites[0].data_address, 0x8800);
    CU_ASSERT_EQUAL(v.sprites[7].data_address, 0x8000 + 0xFF * 64);
    /* A bitmap at $0000 of bank 0: its second half is the ROM window. */
    m6569_write(&vic, 0x18, 0x10);
    decode(&vic, 0, 1, ptr, &v);
    CU_ASSERT_EQUAL(v.bitmap_address, 0x0000);
    CU_ASSERT_EQUAL(v.bitmap_in_rom, 1);
}

static void test_sprites_and_irq(void)
{
    static m6569 vic;
    make_vic(&vic);
    m6569_write(&vic, 0x00, 0x40); /* sprite 0 X low */
    m6569_write(&vic, 0x01, 0x80);
    m6569_write(&vic, 0x0E, 0x10); /* sprite 7 X low */
    m6569_write(&vic, 0x10, 0x81); /* X bit 8 of sprites 0 and 7 */
    m6569_write(&vic, 0x15, 0x81);
    m6569_write(&vic, 0x17, 0x01);
    m6569_write(&vic, 0x1B, 0x80);
    m6569_write(&vic, 0x1C, 0x01);
    m6569_write(&vic, 0x1D, 0x80);
    m6569_write(&vic, 0x25, 0x02);
    m6569_write(&vic, 0x26, 0x05);
    m6569_write(&vic, 0x27, 0xF7);
    m6569_write(&vic, 0x2E, 0x03);
    vic.mm_coll = 0x81;
    vic.md_coll = 0x01;
    m6569_write(&vic, 0x12, 100); /* raster compare 100 */
    m6569_write(&vic, 0x11, 0x1B);
    m6569_write(&vic, 0x1A, 0x01);
    vic.irq_latch = 0x01;
    const uint8_t ptr[8] = {0x0D, 0, 0, 0, 0, 0, 0, 0x0E};
    mh_chip_vic2_view v;
    decode(&vic, 0, 1, ptr, &v);
    CU_ASSERT_EQUAL(v.sprites[0].x, 0x140);
    CU_ASSERT_EQUAL(v.sprites[0].y, 0x80);
    CU_ASSERT_EQUAL(v.sprites[0].enabled, 1);
    CU_ASSERT_EQUAL(v.sprites[0].expand_y, 1);
    CU_ASSERT_EQUAL(v.sprites[0].expand_x, 0);
    CU_ASSERT_EQUAL(v.sprites[0].multicolor, 1);
    CU_ASSERT_EQUAL(v.sprites[0].behind_background, 0);
    CU_ASSERT_EQUAL(v.sprites[0].color, 7);
    CU_ASSERT_EQUAL(v.sprites[0].data_address, 0x0340);
    CU_ASSERT_EQUAL(v.sprites[0].collided_sprite, 1);
    CU_ASSERT_EQUAL(v.sprites[0].collided_background, 1);
    CU_ASSERT_EQUAL(v.sprites[7].x, 0x110);
    CU_ASSERT_EQUAL(v.sprites[7].behind_background, 1);
    CU_ASSERT_EQUAL(v.sprites[7].expand_x, 1);
    CU_ASSERT_EQUAL(v.sprites[7].color, 3);
    CU_ASSERT_EQUAL(v.sprites[7].collided_background, 0);
    CU_ASSERT_EQUAL(v.sprites[3].enabled, 0);
    CU_ASSERT_EQUAL(v.sprite_multicolor[0], 2);
    CU_ASSERT_EQUAL(v.sprite_multicolor[1], 5);
    CU_ASSERT_EQUAL(v.sprite_sprite_collisions, 0x81);
    CU_ASSERT_EQUAL(v.raster_compare, 100);
    CU_ASSERT_EQUAL(v.irq_mask, 0x01);
    CU_ASSERT_EQUAL(v.irq_flags & 0x0F, 0x01);
    /* The decoder peeks: the collision latches are still set. */
    CU_ASSERT_EQUAL(vic.mm_coll, 0x81);
    /* RST8: compare line 300. */
    m6569_write(&vic, 0x12, 300 & 0xFF);
    m6569_write(&vic, 0x11, 0x9B);
    decode(&vic, 0, 1, ptr, &v);
    CU_ASSERT_EQUAL(v.raster_compare, 300);
}

static void test_line_colors(void)
{
    static m6569 vic;
    make_vic(&vic);
    uint8_t border[M6569_MAX_LINES], bg[M6569_MAX_LINES];
    CU_ASSERT_EQUAL(m6569_line_colors(&vic, border, bg, M6569_MAX_LINES), 0);
    /* One frame: border 1 until line 100, then 2; background 6. */
    m6569_write(&vic, 0x21, 6);
    m6569_write(&vic, 0x20, 1);
    while (m6569_line(&vic) != 100) m6569_tick(&vic);
    m6569_write(&vic, 0x20, 2);
    while (vic.frame < 1) m6569_tick(&vic);
    m6569_write(&vic, 0x20, 3); /* the new frame's colours do not show yet */
    m6569_run(&vic, 63 * 10);
    CU_ASSERT_EQUAL(m6569_line_colors(&vic, border, bg, M6569_MAX_LINES), 312);
    CU_ASSERT_EQUAL(border[0], 1);
    CU_ASSERT_EQUAL(border[99], 1);
    CU_ASSERT_EQUAL(border[100], 2);
    CU_ASSERT_EQUAL(border[311], 2);
    CU_ASSERT_EQUAL(bg[50], 6);
    tv_color_run runs[8];
    size_t n = tv_color_runs(border, bg, 0, 311, runs, 8);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(runs[0].first, 0);
    CU_ASSERT_EQUAL(runs[0].last, 99);
    CU_ASSERT_EQUAL(runs[0].border, 1);
    CU_ASSERT_EQUAL(runs[1].first, 100);
    CU_ASSERT_EQUAL(runs[1].last, 311);
    CU_ASSERT_EQUAL(runs[1].border, 2);
    CU_ASSERT_EQUAL(runs[1].background, 6);
}

static void test_color_runs(void)
{
    const uint8_t border[6] = {1, 1, 2, 2, 2, 1};
    const uint8_t bg[6] = {0, 0, 0, 5, 5, 5};
    tv_color_run runs[2];
    /* Four runs, only two stored; the count is still right. */
    CU_ASSERT_EQUAL(tv_color_runs(border, bg, 0, 5, runs, 2), 4);
    CU_ASSERT_EQUAL(runs[0].last, 1);
    CU_ASSERT_EQUAL(runs[1].first, 2);
    CU_ASSERT_EQUAL(runs[1].last, 2);
    CU_ASSERT_EQUAL(tv_color_runs(border, bg, 3, 4, NULL, 0), 1);
    CU_ASSERT_EQUAL(tv_color_runs(border, bg, 5, 5, runs, 2), 1);
    CU_ASSERT_EQUAL(runs[0].first, 5);
}

static void test_sprite_pixels(void)
{
    uint8_t data[63];
    memset(data, 0, sizeof data);
    data[0] = 0x80;  /* row 0: pixel 0 */
    data[2] = 0x01;  /* row 0: pixel 23 */
    data[60] = 0xE4; /* row 20: 11 10 01 00 */
    uint8_t px[TV_SPRITE_H][TV_SPRITE_W];
    tv_sprite_pixels(data, 0, 7, 2, 5, px);
    CU_ASSERT_EQUAL(px[0][0], 7);
    CU_ASSERT_EQUAL(px[0][1], TV_TRANSPARENT);
    CU_ASSERT_EQUAL(px[0][23], 7);
    CU_ASSERT_EQUAL(px[20][0], 7);
    CU_ASSERT_EQUAL(px[20][1], 7);
    CU_ASSERT_EQUAL(px[20][2], 7);
    CU_ASSERT_EQUAL(px[20][3], TV_TRANSPARENT);
    tv_sprite_pixels(data, 1, 7, 2, 5, px);
    CU_ASSERT_EQUAL(px[20][0], 5); /* 11: multicolour 1 */
    CU_ASSERT_EQUAL(px[20][1], 5);
    CU_ASSERT_EQUAL(px[20][2], 7); /* 10: sprite colour */
    CU_ASSERT_EQUAL(px[20][4], 2); /* 01: multicolour 0 */
    CU_ASSERT_EQUAL(px[20][6], TV_TRANSPARENT);
    CU_ASSERT_EQUAL(px[0][0], 7); /* 10 */
    CU_ASSERT_EQUAL(px[0][22], 2); /* 01 */
    char art[21 * 25 + 1];
    tv_sprite_ascii(data, 0, art);
    CU_ASSERT_EQUAL(strlen(art), 21 * 25);
    CU_ASSERT_EQUAL(strncmp(art, "#......................#\n", 25), 0);
    CU_ASSERT_EQUAL(strncmp(art + 20 * 25, "###..#..................\n", 25), 0);
    tv_sprite_ascii(data, 1, art);
    CU_ASSERT_EQUAL(strncmp(art + 20 * 25, "bb##aa..................\n", 25), 0);
}

static void test_registers_and_names(void)
{
    const mh_chip_io_range io = {0xD000, 0x400};
    CU_ASSERT_EQUAL(tv_vic_register(0xD020, NULL), -1); /* no range: numbers only */
    CU_ASSERT_EQUAL(tv_vic_register(0x20, &io), 0x20);
    CU_ASSERT_EQUAL(tv_vic_register(0x3F, &io), 0x3F);
    CU_ASSERT_EQUAL(tv_vic_register(0x40, &io), -1);
    CU_ASSERT_EQUAL(tv_vic_register(0xD020, &io), 0x20);
    CU_ASSERT_EQUAL(tv_vic_register(0xD060, &io), 0x20); /* mirror */
    CU_ASSERT_EQUAL(tv_vic_register(0xD3FF, &io), 0x3F);
    CU_ASSERT_EQUAL(tv_vic_register(0xD400, &io), -1);
    CU_ASSERT_EQUAL(tv_vic_register(0xCFFF, &io), -1);
    CU_ASSERT_STRING_EQUAL(tv_color_name(14), "light blue");
    CU_ASSERT_STRING_EQUAL(tv_color_name(0), "black");
    CU_ASSERT_STRING_EQUAL(tv_color_name(16 + 1), "white");
    CU_ASSERT_EQUAL(tv_default_palette[1], 0xFFFFFFu);
}

static void test_breakpoint_checks(void)
{
    /* Entry: fires when the beam comes into the range, once per pass. */
    mh_toolkit_raster st;
    mh_toolkit_raster_init(&st, 100, 102, 0, 100); /* armed inside: waits for the next entry */
    CU_ASSERT_FALSE(mh_toolkit_raster_step(&st, 100));
    CU_ASSERT_FALSE(mh_toolkit_raster_step(&st, 101));
    CU_ASSERT_FALSE(mh_toolkit_raster_step(&st, 103));
    CU_ASSERT_FALSE(mh_toolkit_raster_step(&st, 99));
    CU_ASSERT_TRUE(mh_toolkit_raster_step(&st, 100));
    CU_ASSERT_FALSE(mh_toolkit_raster_step(&st, 100)); /* same line, next instruction */
    CU_ASSERT_FALSE(mh_toolkit_raster_step(&st, 102));
    CU_ASSERT_FALSE(mh_toolkit_raster_step(&st, 5));
    CU_ASSERT_TRUE(mh_toolkit_raster_step(&st, 101)); /* jumped into the range */
    /* Every line: each new line of the range, once. */
    mh_toolkit_raster_init(&st, 10, 11, 1, 0);
    CU_ASSERT_TRUE(mh_toolkit_raster_step(&st, 10));
    CU_ASSERT_FALSE(mh_toolkit_raster_step(&st, 10));
    CU_ASSERT_TRUE(mh_toolkit_raster_step(&st, 11));
    CU_ASSERT_FALSE(mh_toolkit_raster_step(&st, 12));
    CU_ASSERT_FALSE(mh_toolkit_raster_step(&st, 0));
    CU_ASSERT_TRUE(mh_toolkit_raster_step(&st, 10));
    /* Collisions: new latch bits in the mask only. */
    uint8_t prev = 0;
    CU_ASSERT_EQUAL(tv_collision_step(&prev, 0x00, 0x06), 0);
    CU_ASSERT_EQUAL(tv_collision_step(&prev, 0x03, 0x06), 0x02);
    CU_ASSERT_EQUAL(tv_collision_step(&prev, 0x03, 0x06), 0);    /* still latched */
    CU_ASSERT_EQUAL(tv_collision_step(&prev, 0x07, 0x06), 0x04); /* a new one */
    CU_ASSERT_EQUAL(tv_collision_step(&prev, 0x00, 0x06), 0);    /* read: cleared */
    CU_ASSERT_EQUAL(tv_collision_step(&prev, 0x02, 0x06), 0x02);
    CU_ASSERT_EQUAL(tv_collision_step(&prev, 0x01, 0x06), 0);    /* outside the mask */
    /* Terms: AND / OR over ranges. */
    const tv_term terms[2] = {{TV_TERM_RASTER, 0, 100, 100}, {TV_TERM_SPRITE_Y, 3, 50, 60}};
    const uint32_t both[2] = {100, 55}, one[2] = {100, 61}, none[2] = {7, 70};
    CU_ASSERT_TRUE(tv_terms_hold(terms, both, 2, 0));
    CU_ASSERT_FALSE(tv_terms_hold(terms, one, 2, 0));
    CU_ASSERT_TRUE(tv_terms_hold(terms, one, 2, 1));
    CU_ASSERT_FALSE(tv_terms_hold(terms, none, 2, 1));
    CU_ASSERT_FALSE(tv_terms_hold(terms, none, 0, 0));
    CU_ASSERT_STRING_EQUAL(tv_term_name(TV_TERM_PC), "pc");
    CU_ASSERT_PTR_NULL(tv_term_name(4));
}

MH_SUITE("tools_vic2.decode", NULL, NULL, MH_TEST(test_text_mode_bank0), MH_TEST(test_modes),
         MH_TEST(test_bitmap_bank2), MH_TEST(test_sprites_and_irq), MH_TEST(test_line_colors),
         MH_TEST(test_color_runs), MH_TEST(test_sprite_pixels),
         MH_TEST(test_registers_and_names), MH_TEST(test_breakpoint_checks))
