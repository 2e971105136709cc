/* vic2_decode.c - pure decoders of the VIC-II toolset (vic2_decode.h). */
#include "vic2_decode.h"

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

const char *tv_screen_code_text(uint8_t code, int lowercase)
{
    code &= 0x7Fu;
    if (lowercase) {
        if (code >= 1 && code <= 26) return lower_letters[code - 1];
        if (code >= 65 && code <= 90) return upper_set[code - 64];
        if (code == 122) return "\xE2\x9C\x93"; /* check mark */
    }
    return upper_set[code];
}

size_t tv_screen_text(const uint8_t codes[1000], int lowercase, char *out, size_t size)
{
    size_t n = 0;
    if (!size) return 0;
    for (unsigned row = 0; row < 25; row++) {
        for (unsigned col = 0; col < 40; col++) {
            const char *s = tv_screen_code_text(codes[row * 40 + col], lowercase);
            size_t len = strlen(s);
            if (n + len >= size) goto done;
            memcpy(out + n, s, len);
            n += len;
        }
        if (row < 24) {
            if (n + 1 >= size) goto done;
            out[n++] = '\n';
        }
    }
done:
    out[n] = '\0';
    return n;
}

void tv_sprite_pixels(const uint8_t data[63], int multicolor, uint8_t color, uint8_t mc0,
                      uint8_t mc1, uint8_t out[TV_SPRITE_H][TV_SPRITE_W])
{
    const uint8_t pair[4] = {TV_TRANSPARENT, mc0, color, mc1};
    for (unsigned y = 0; y < TV_SPRITE_H; y++) {
        const uint32_t bits = (uint32_t)data[y * 3] << 16 | (uint32_t)data[y * 3 + 1] << 8 |
                              data[y * 3 + 2];
        for (unsigned x = 0; x < TV_SPRITE_W; x++) {
            if (multicolor) {
                unsigned v = (bits >> (22u - (x & ~1u))) & 3u;
                out[y][x] = pair[v];
            } else {
                out[y][x] = ((bits >> (23u - x)) & 1u) ? color : TV_TRANSPARENT;
            }
        }
    }
}

void tv_sprite_ascii(const uint8_t data[63], int multicolor, char out[21 * 25 + 1])
{
    static const char pair[4] = {'.', 'a', '#', 'b'};
    size_t n = 0;
    for (unsigned y = 0; y < TV_SPRITE_H; y++) {
        const uint32_t bits = (uint32_t)data[y * 3] << 16 | (uint32_t)data[y * 3 + 1] << 8 |
                              data[y * 3 + 2];
        for (unsigned x = 0; x < TV_SPRITE_W; x++)
            out[n++] = multicolor ? pair[(bits >> (22u - (x & ~1u))) & 3u]
                                  : (((bits >> (23u - x)) & 1u) ? '#' : '.');
        out[n++] = '\n';
    }
    out[n] = '\0';
}

size_t tv_color_runs(const uint8_t *border, const uint8_t *background, size_t first,
                     size_t last, tv_color_run *runs, size_t max)
{
    size_t count = 0;
    for (size_t line = first; line <= last; line++) {
        if (line > first && border[line] == border[line - 1] &&
            background[line] == background[line - 1]) {
            if (runs && count <= max) runs[count - 1].last = (uint16_t)line;
            continue;
        }
        if (runs && count < max) {
            runs[count].first = runs[count].last = (uint16_t)line;
            runs[count].border = border[line];
            runs[count].background = background[line];
        }
        count++;
    }
    return count;
}

int tv_vic_register(uint32_t value, const mh_chip_io_range *io)
{
    return mh_chip_io_register(io, 0x40u, 0x40u, value);
}

const char *tv_mode_name(unsigned mode)
{
    static const char *const names[8] = {
        "standard text",        "multicolour text",        "standard bitmap",
        "multicolour bitmap",   "extended colour text",    "invalid text (ECM+MCM, black)",
        "invalid bitmap (ECM+BMM, black)", "invalid multicolour bitmap (ECM+BMM+MCM, black)"};
    return names[mode & 7u];
}

const char *tv_color_name(unsigned color)
{
    static const char *const names[16] = {
        "black", "white", "red",       "cyan",       "purple",     "green", "blue",
        "yellow", "orange", "brown",   "light red",  "dark grey",  "grey",  "light green",
        "light blue", "light grey"};
    return names[color & 15u];
}

const uint32_t tv_default_palette[16] = {
    0x000000, 0xFFFFFF, 0x68372B, 0x70A4B2, 0x6F3D86, 0x588D43, 0x352879, 0xB8C76F,
    0x6F4F25, 0x433900, 0x9A6759, 0x444444, 0x6C6C6C, 0x9AD284, 0x6C5EB5, 0x959595};

/* ---- breakpoint checks ---- */

void tv_raster_init(tv_raster_state *st, unsigned first, unsigned last, int every,
                    unsigned line)
{
    st->first = (uint16_t)first;
    st->last = (uint16_t)last;
    st->every = every != 0;
    st->was_in = line >= first && line <= last;
    st->last_line = (uint16_t)line;
}

int tv_raster_step(tv_raster_state *st, unsigned line)
{
    const int in = line >= st->first && line <= st->last;
    const int fire = st->every ? in && line != st->last_line : in && !st->was_in;
    st->was_in = (uint8_t)in;
    st->last_line = (uint16_t)line;
    return fire;
}

uint8_t tv_collision_step(uint8_t *prev, uint8_t latch, uint8_t mask)
{
    const uint8_t now = latch & mask;
    const uint8_t fresh = (uint8_t)(now & ~*prev);
    *prev = now;
    return fresh;
}

int tv_terms_hold(const tv_term *terms, const uint32_t *values, size_t count, int any)
{
    for (size_t i = 0; i < count; i++) {
        const int ok = values[i] >= terms[i].min && values[i] <= terms[i].max;
        if (any && ok) return 1;
        if (!any && !ok) return 0;
    }
    return !any && count > 0;
}

const char *tv_term_name(unsigned kind)
{
    static const char *const names[4] = {"raster", "sprite_y", "register", "pc"};
    return kind < 4 ? names[kind] : NULL;
}
