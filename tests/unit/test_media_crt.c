/* media.crt: C64 cartridge images built byte by byte - header, CHIP
 * packets, the plain layouts and their ROM images, banked types
 * (mcphost/media_crt.h). */
#include "mh_test.h"
#include "test_media_build.h"

#include <mcphost/media_crt.h>
#include <stdlib.h>
#include <string.h>

static mh_crt *open_built(uint16_t hw, uint8_t exrom, uint8_t game, const tb_crt_chip *chips,
                          size_t n, mh_media_error *e)
{
    size_t size;
    uint8_t *img = tb_crt_build(hw, exrom, game, "TEST CART", chips, n, &size);
    mh_crt *crt = mh_crt_open(img, size, e);
    free(img); /* the parser keeps its own copy */
    return crt;
}

static void test_normal_8k(void)
{
    tb_crt_chip chips[1] = {{0, 0, 0x8000, 0x2000, 0, 0x10, false}};
    mh_media_error e;
    mh_crt *crt = open_built(0, 0, 1, chips, 1, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(crt);
    CU_ASSERT_EQUAL(e.status, MH_OK);
    CU_ASSERT_EQUAL(crt->version, 0x0100);
    CU_ASSERT_EQUAL(crt->header_length, 0x40);
    CU_ASSERT_EQUAL(crt->hardware_type, 0);
    CU_ASSERT_STRING_EQUAL(crt->hardware_name, "Normal cartridge");
    CU_ASSERT_STRING_EQUAL(crt->name, "TEST CART");
    CU_ASSERT_EQUAL(crt->exrom, 0);
    CU_ASSERT_EQUAL(crt->game, 1);
    CU_ASSERT_EQUAL(crt->kind, MH_CRT_NORMAL_8K);
    CU_ASSERT_EQUAL_FATAL(crt->chip_count, 1);
    const mh_crt_chip *c = &crt->chips[0];
    CU_ASSERT_EQUAL(c->type, MH_CRT_CHIP_ROM);
    CU_ASSERT_EQUAL(c->bank, 0);
    CU_ASSERT_EQUAL(c->load_address, 0x8000);
    CU_ASSERT_EQUAL(c->size, 0x2000);
    CU_ASSERT_EQUAL(c->offset, 64);
    CU_ASSERT_PTR_EQUAL(c->data, crt->image + 80);
    CU_ASSERT_EQUAL(c->data[5], 0x15);
    CU_ASSERT_EQUAL(crt->trailing_bytes, 0);
    static uint8_t roml[8192], romh[8192];
    bool has_l, has_h;
    CU_ASSERT_EQUAL(mh_crt_generic_roms(crt, roml, romh, &has_l, &has_h, &e), MH_OK);
    CU_ASSERT(has_l && !has_h);
    CU_ASSERT_EQUAL(roml[0], 0x10);
    CU_ASSERT_EQUAL(roml[0x1fff], (uint8_t)(0x10 + 0x1fff));
    CU_ASSERT_EQUAL(romh[0], 0xff);
    mh_crt_free(crt);
}

static void test_normal_16k(void)
{
    static uint8_t roml[8192], romh[8192];
    bool has_l, has_h;
    /* One 16K chip at $8000. */
    tb_crt_chip one[1] = {{0, 0, 0x8000, 0x4000, 0, 0, false}};
    mh_crt *crt = open_built(0, 0, 0, one, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(crt);
    CU_ASSERT_EQUAL(crt->kind, MH_CRT_NORMAL_16K);
    CU_ASSERT_EQUAL(mh_crt_generic_roms(crt, roml, romh, &has_l, &has_h, NULL), MH_OK);
    CU_ASSERT(has_l && has_h);
    CU_ASSERT_EQUAL(roml[1], 1);
    CU_ASSERT_EQUAL(romh[0], (uint8_t)0x2000);
    CU_ASSERT_EQUAL(romh[3], 3);
    mh_crt_free(crt);
    /* Two 8K chips. */
    tb_crt_chip two[2] = {{0, 0, 0x8000, 0x2000, 0, 0x40, false}, {0, 0, 0xa000, 0x2000, 0, 0x80, false}};
    crt = open_built(0, 0, 0, two, 2, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(crt);
    CU_ASSERT_EQUAL(crt->kind, MH_CRT_NORMAL_16K);
    CU_ASSERT_EQUAL(mh_crt_generic_roms(crt, roml, romh, &has_l, &has_h, NULL), MH_OK);
    CU_ASSERT(has_l && has_h);
    CU_ASSERT_EQUAL(roml[0], 0x40);
    CU_ASSERT_EQUAL(romh[0], 0x80);
    mh_crt_free(crt);
}

static void test_ultimax(void)
{
    static uint8_t roml[8192], romh[8192];
    bool has_l, has_h;
    tb_crt_chip chips[1] = {{0, 0, 0xe000, 0x2000, 0, 0x33, false}};
    mh_crt *crt = open_built(0, 1, 0, chips, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(crt);
    CU_ASSERT_EQUAL(crt->kind, MH_CRT_ULTIMAX);
    CU_ASSERT_EQUAL(mh_crt_generic_roms(crt, roml, romh, &has_l, &has_h, NULL), MH_OK);
    CU_ASSERT(!has_l && has_h);
    CU_ASSERT_EQUAL(romh[0], 0x33);
    mh_crt_free(crt);
    /* A 4K ROMH at $F000 repeats over $E000-$FFFF. */
    tb_crt_chip small[2] = {{0, 0, 0xf000, 0x1000, 0, 0, false}, {0, 0, 0x8000, 0x2000, 0, 0x44, false}};
    crt = open_built(0, 1, 0, small, 2, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(crt);
    CU_ASSERT_EQUAL(crt->kind, MH_CRT_ULTIMAX);
    CU_ASSERT_EQUAL(mh_crt_generic_roms(crt, roml, romh, &has_l, &has_h, NULL), MH_OK);
    CU_ASSERT(has_l && has_h);
    CU_ASSERT_EQUAL(romh[0x0005], 5);
    CU_ASSERT_EQUAL(romh[0x1005], 5);
    CU_ASSERT_EQUAL(roml[0], 0x44);
    mh_crt_free(crt);
    /* A chip outside the Ultimax windows: not a plain layout. */
    tb_crt_chip odd[1] = {{0, 0, 0xa000, 0x2000, 0, 0, false}};
    crt = open_built(0, 1, 0, odd, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(crt);
    CU_ASSERT_EQUAL(crt->kind, MH_CRT_OTHER);
    mh_crt_free(crt);
}

static void test_small_chips(void)
{
    static uint8_t roml[8192], romh[8192];
    bool has_l, has_h;
    /* A lone 4K chip repeats; two 4K chips fill their halves. */
    tb_crt_chip one[1] = {{0, 0, 0x8000, 0x1000, 0, 0, false}};
    mh_crt *crt = open_built(0, 0, 1, one, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(crt);
    CU_ASSERT_EQUAL(mh_crt_generic_roms(crt, roml, romh, &has_l, &has_h, NULL), MH_OK);
    CU_ASSERT_EQUAL(roml[0x1001], 1);
    mh_crt_free(crt);
    tb_crt_chip two[2] = {{0, 0, 0x8000, 0x1000, 0, 0x00, false}, {0, 0, 0x9000, 0x1000, 0, 0x80, false}};
    crt = open_built(0, 0, 1, two, 2, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(crt);
    CU_ASSERT_EQUAL(mh_crt_generic_roms(crt, roml, romh, &has_l, &has_h, NULL), MH_OK);
    CU_ASSERT_EQUAL(roml[0x0001], 0x01);
    CU_ASSERT_EQUAL(roml[0x1001], 0x81);
    mh_crt_free(crt);
    /* 6K (not a power of two): copied at its address, rest $FF. */
    tb_crt_chip six[1] = {{0, 0, 0x8000, 0x1800, 0, 0, false}};
    crt = open_built(0, 0, 1, six, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(crt);
    CU_ASSERT_EQUAL(mh_crt_generic_roms(crt, roml, romh, &has_l, &has_h, NULL), MH_OK);
    CU_ASSERT_EQUAL(roml[0x17ff], (uint8_t)0x17ff);
    CU_ASSERT_EQUAL(roml[0x1800], 0xff);
    mh_crt_free(crt);
}

static void test_banked(void)
{
    /* EasyFlash-like: type 32, 4 banks of ROML + ROMH, Ultimax lines. */
    tb_crt_chip chips[8];
    for (uint16_t i = 0; i < 8; i++)
        chips[i] = (tb_crt_chip){2, (uint16_t)(i / 2), (uint16_t)(i % 2 ? 0xa000 : 0x8000), 0x2000, 0, (uint8_t)i, false};
    mh_media_error e;
    mh_crt *crt = open_built(32, 1, 0, chips, 8, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(crt);
    CU_ASSERT_EQUAL(crt->hardware_type, 32);
    CU_ASSERT_STRING_EQUAL(crt->hardware_name, "EasyFlash");
    CU_ASSERT_EQUAL(crt->kind, MH_CRT_OTHER);
    CU_ASSERT_EQUAL(crt->chip_count, 8);
    CU_ASSERT_EQUAL(crt->chips[5].bank, 2);
    CU_ASSERT_EQUAL(crt->chips[5].load_address, 0xa000);
    CU_ASSERT_EQUAL(crt->chips[5].type, MH_CRT_CHIP_FLASH);
    CU_ASSERT_EQUAL(crt->chips[5].data[0], 5);
    static uint8_t roml[8192], romh[8192];
    bool has_l, has_h;
    CU_ASSERT_EQUAL(mh_crt_generic_roms(crt, roml, romh, &has_l, &has_h, &e), MH_ERR_UNSUPPORTED);
    CU_ASSERT_STRING_EQUAL(e.message, "CRT: hardware type 32 (EasyFlash) with EXROM=1 GAME=0 is not a plain 8K, 16K or Ultimax cartridge");
    mh_crt_free(crt);
    /* A type-0 file with banks is not plain either. */
    tb_crt_chip banked[2] = {chips[0], chips[2]}; /* bank 0 and bank 1 at $8000 */
    crt = open_built(0, 0, 1, banked, 2, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(crt);
    CU_ASSERT_EQUAL(crt->kind, MH_CRT_OTHER);
    mh_crt_free(crt);
}

static void test_header_details(void)
{
    CU_ASSERT_STRING_EQUAL(mh_crt_hardware_name(0), "Normal cartridge");
    CU_ASSERT_STRING_EQUAL(mh_crt_hardware_name(5), "Ocean type 1");
    CU_ASSERT_STRING_EQUAL(mh_crt_hardware_name(19), "Magic Desk, Domark, HES Australia");
    CU_ASSERT_STRING_EQUAL(mh_crt_hardware_name(36), "Retro Replay");
    CU_ASSERT_STRING_EQUAL(mh_crt_hardware_name(78), "Partner 64");
    CU_ASSERT_STRING_EQUAL(mh_crt_hardware_name(79), "unknown");
    CU_ASSERT_STRING_EQUAL(mh_crt_hardware_name(65535), "unknown");

    tb_crt_chip chips[2] = {{0, 0, 0x8000, 0x2000, 0, 0, false}, {1, 0, 0xa000, 0x2000, 0, 0, true}};
    size_t size;
    uint8_t *img = tb_crt_build(4, 0, 0, "SIMONS", chips, 2, &size);
    /* Version 1.01 with a subtype; a name padded with spaces; odd bytes. */
    img[0x15] = 0x01;
    img[0x1a] = 7;
    memcpy(img + 0x20, "NAME\x01  ", 7);
    uint8_t *big = malloc(size + 10);
    memcpy(big, img, size);
    memset(big + size, 0xee, 10); /* fewer than 16 trailing bytes: ignored */
    mh_crt *crt = mh_crt_open(big, size + 10, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(crt);
    CU_ASSERT_EQUAL(crt->version, 0x0101);
    CU_ASSERT_EQUAL(crt->hardware_subtype, 7);
    CU_ASSERT_STRING_EQUAL(crt->name, "NAME?");
    CU_ASSERT_STRING_EQUAL(crt->hardware_name, "Simons' BASIC");
    CU_ASSERT_EQUAL(crt->trailing_bytes, 10);
    CU_ASSERT_EQUAL_FATAL(crt->chip_count, 2);
    CU_ASSERT_EQUAL(crt->chips[1].type, MH_CRT_CHIP_RAM);
    CU_ASSERT_PTR_NULL(crt->chips[1].data); /* a RAM chip without data */
    mh_crt_free(crt);
    free(big);
    /* Header length $20 (a known writer bug) reads as $40; $50 skips 16 bytes. */
    img[0x13] = 0x20;
    img[0x15] = 0x00;
    crt = mh_crt_open(img, size, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(crt);
    CU_ASSERT_EQUAL(crt->header_length, 0x20);
    CU_ASSERT_EQUAL(crt->hardware_subtype, 0);
    CU_ASSERT_EQUAL(crt->chip_count, 2);
    mh_crt_free(crt);
    uint8_t *shifted = calloc(1, size + 16);
    memcpy(shifted, img, 64);
    memcpy(shifted + 80, img + 64, size - 64);
    shifted[0x13] = 0x50;
    crt = mh_crt_open(shifted, size + 16, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(crt);
    CU_ASSERT_EQUAL(crt->chips[0].offset, 80);
    mh_crt_free(crt);
    free(shifted);
    free(img);
}

MH_SUITE("media.crt", NULL, NULL, MH_TEST(test_normal_8k), MH_TEST(test_normal_16k),
         MH_TEST(test_ultimax), MH_TEST(test_small_chips), MH_TEST(test_banked),
         MH_TEST(test_header_details))
