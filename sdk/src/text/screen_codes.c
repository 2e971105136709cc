/* screen_codes.c - Commodore screen codes to UTF-8 (mcphost/screen_codes.h). */
#include "mcphost/screen_codes.h"

#include <string.h>

/* Screen codes 0-127 of the upper case/graphics set. */
static const char *const upper_set[128] = {
    "@", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O",
    "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z", "[", "\xC2\xA3", "]", "\xE2\x86\x91",
    "\xE2\x86\x90",
    " ", "!", "\"", "#", "$", "%", "&", "'", "(", ")", "*", "+", ",", "-", ".", "/",
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", ":", ";", "<", "=", ">", "?",
    /* 64-95: graphics */
    "\xE2\x94\x80", "\xE2\x99\xA0", "\xE2\x94\x82", "\xE2\x94\x80", "\xE2\x94\x80",
    "\xE2\x94\x80", "\xE2\x94\x80", "\xE2\x94\x82", "\xE2\x94\x82", "\xE2\x95\xAE",
    "\xE2\x95\xB0", "\xE2\x95\xAF", "\xE2\x94\x94", "\xE2\x95\xB2", "\xE2\x95\xB1",
    "\xE2\x94\x8C", "\xE2\x94\x90", "\xE2\x97\x8F", "\xE2\x96\x81", "\xE2\x99\xA5",
    "\xE2\x96\x8F", "\xE2\x95\xAD", "\xE2\x95\xB3", "\xE2\x97\x8B", "\xE2\x99\xA3",
    "\xE2\x96\x95", "\xE2\x99\xA6", "\xE2\x94\xBC", "\xE2\x96\x92", "\xE2\x94\x82",
    "\xCF\x80", "\xE2\x97\xA5",
    /* 96-127: graphics */
    " ", "\xE2\x96\x8C", "\xE2\x96\x84", "\xE2\x96\x94", "\xE2\x96\x81", "\xE2\x96\x8F",
    "\xE2\x96\x92", "\xE2\x96\x95", "\xE2\x96\x92", "\xE2\x97\xA4", "\xE2\x96\x95",
    "\xE2\x94\x9C", "\xE2\x96\x97", "\xE2\x94\x94", "\xE2\x94\x90", "\xE2\x96\x82",
    "\xE2\x94\x8C", "\xE2\x94\xB4", "\xE2\x94\xAC", "\xE2\x94\xA4", "\xE2\x96\x8E",
    "\xE2\x96\x8D", "\xE2\x96\x90", "\xE2\x96\x94", "\xE2\x96\x80", "\xE2\x96\x83",
    "\xE2\x96\x9F", "\xE2\x96\x96", "\xE2\x96\x9D", "\xE2\x94\x98", "\xE2\x96\x98",
    "\xE2\x96\x9A"};

static const char *const lower_letters[26] = {"a", "b", "c", "d", "e", "f", "g", "h", "i",
                                              "j", "k", "l", "m", "n", "o", "p", "q", "r",
                                              "s", "t", "u", "v", "w", "x", "y", "z"};

const char *mh_screen_code_text(uint8_t code, uint32_t charset)
{
    code &= 0x7Fu;
    if (charset == MH_CHARSET_CBM_LOWER) {
        if (code >= 1 && code <= 26) return lower_letters[code - 1];
        if (code >= 65 && code <= 90) return upper_set[code - 64];
        if (code == 122) return "\xE2\x9C\x93"; /* check mark */
    }
    return upper_set[code];
}

const char *mh_charset_name(uint32_t charset)
{
    return charset == MH_CHARSET_CBM_LOWER ? "lower/upper case" : "upper case/graphics";
}

size_t mh_text_screen_lines(const mh_text_screen *screen, char *out, size_t size)
{
    size_t n = 0;
    if (!size) return 0;
    const uint32_t cells = screen->columns * screen->rows;
    for (uint32_t i = 0; i < cells && i < MH_TEXT_SCREEN_MAX_CELLS; i++) {
        if (i > 0 && i % screen->columns == 0) {
            if (n + 1 >= size) break;
            out[n++] = '\n';
        }
        const char *s = mh_screen_code_text(screen->codes[i] & screen->glyph_mask,
                                            screen->charset);
        size_t len = strlen(s);
        if (n + len >= size) break;
        memcpy(out + n, s, len);
        n += len;
    }
    out[n] = '\0';
    return n;
}
