/* vic2_decode.c - pure decoders of the VIC-II toolset (vic2_decode.h). */
#include "vic2_decode.h"


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
