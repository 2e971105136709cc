/* test_screen_codes.c - the SDK's screen code decoding (mcphost/screen_codes.h):
 * single codes in both Commodore sets, reverse video, and whole screens of
 * any size (40x25 C64, 22x23 VIC-20) as lines. */
#include <string.h>

#include <mcphost/screen_codes.h>

#include "mh_test.h"

static void test_codes(void)
{
    CU_ASSERT_STRING_EQUAL(mh_screen_code_text(0x12, MH_CHARSET_CBM_UPPER), "R");
    CU_ASSERT_STRING_EQUAL(mh_screen_code_text(0x00, MH_CHARSET_CBM_UPPER), "@");
    CU_ASSERT_STRING_EQUAL(mh_screen_code_text(0x2E, MH_CHARSET_CBM_UPPER), ".");
    CU_ASSERT_STRING_EQUAL(mh_screen_code_text(0x20, MH_CHARSET_CBM_UPPER), " ");
    CU_ASSERT_STRING_EQUAL(mh_screen_code_text(0x31, MH_CHARSET_CBM_UPPER), "1");
    CU_ASSERT_STRING_EQUAL(mh_screen_code_text(0x92, MH_CHARSET_CBM_UPPER), "R"); /* reverse R */
    CU_ASSERT_STRING_EQUAL(mh_screen_code_text(0xA0, MH_CHARSET_CBM_UPPER), " "); /* cursor */
    CU_ASSERT_STRING_EQUAL(mh_screen_code_text(0x01, MH_CHARSET_CBM_LOWER), "a");
    CU_ASSERT_STRING_EQUAL(mh_screen_code_text(0x41, MH_CHARSET_CBM_LOWER), "A");
    CU_ASSERT_STRING_EQUAL(mh_screen_code_text(0x7A, MH_CHARSET_CBM_LOWER), "\xE2\x9C\x93");
    CU_ASSERT_STRING_EQUAL(mh_screen_code_text(0x41, MH_CHARSET_CBM_UPPER), "\xE2\x99\xA0"); /* spade */
    CU_ASSERT_STRING_EQUAL(mh_screen_code_text(0x1C, MH_CHARSET_CBM_UPPER), "\xC2\xA3");     /* pound */
    CU_ASSERT_STRING_EQUAL(mh_screen_code_text(0x01, 99), "A"); /* unknown set: upper case */
    for (unsigned i = 0; i < 256; i++) {
        CU_ASSERT_TRUE(strlen(mh_screen_code_text((uint8_t)i, MH_CHARSET_CBM_UPPER)) >= 1);
        CU_ASSERT_TRUE(strlen(mh_screen_code_text((uint8_t)i, MH_CHARSET_CBM_LOWER)) >= 1);
    }
    CU_ASSERT_STRING_EQUAL(mh_charset_name(MH_CHARSET_CBM_LOWER), "lower/upper case");
}

static mh_text_screen screen;

static void fill(uint32_t columns, uint32_t rows)
{
    memset(&screen, 0, sizeof screen);
    screen.struct_size = sizeof screen;
    screen.columns = columns;
    screen.rows = rows;
    screen.glyph_mask = 0x7F;
    memset(screen.codes, 0x20, columns * rows);
}

static void test_c64_screen(void)
{
    fill(40, 25);
    static const uint8_t ready[6] = {0x12, 0x05, 0x01, 0x04, 0x19, 0x2E};
    memcpy(screen.codes + 40 * 5, ready, sizeof ready);
    screen.codes[999] = 0x81; /* reverse A */
    char text[25 * 41 * 3 + 1];
    size_t n = mh_text_screen_lines(&screen, text, sizeof text);
    CU_ASSERT_EQUAL(n, 25 * 41 - 1);
    CU_ASSERT_EQUAL(strlen(text), n);
    CU_ASSERT_EQUAL(strncmp(text + 41 * 5, "READY.", 6), 0);
    CU_ASSERT_EQUAL(text[41 * 24 + 39], 'A');
    CU_ASSERT_EQUAL(text[40], '\n');
    /* Lower case set; a buffer too small truncates cleanly. */
    screen.charset = MH_CHARSET_CBM_LOWER;
    mh_text_screen_lines(&screen, text, sizeof text);
    CU_ASSERT_EQUAL(text[41 * 24 + 39], 'a');
    /* ECM: the top two bits pick the background, not the character. */
    screen.charset = MH_CHARSET_CBM_UPPER;
    screen.glyph_mask = 0x3F;
    screen.codes[0] = 0xC1;
    mh_text_screen_lines(&screen, text, sizeof text);
    CU_ASSERT_EQUAL(text[0], 'A');
    char small[10];
    CU_ASSERT_EQUAL(mh_text_screen_lines(&screen, small, sizeof small), 9);
    CU_ASSERT_EQUAL(small[9], '\0');
    CU_ASSERT_EQUAL(mh_text_screen_lines(&screen, small, 0), 0);
}

static void test_vic20_screen(void)
{
    fill(22, 23);
    screen.codes[22] = 0x01;
    char text[23 * 23 * 3 + 1];
    size_t n = mh_text_screen_lines(&screen, text, sizeof text);
    CU_ASSERT_EQUAL(n, 23 * 23 - 1);
    CU_ASSERT_EQUAL(text[22], '\n');
    CU_ASSERT_EQUAL(text[23], 'A');
}

MH_SUITE("sdk.screen_codes", NULL, NULL, MH_TEST(test_codes), MH_TEST(test_c64_screen),
         MH_TEST(test_vic20_screen))
