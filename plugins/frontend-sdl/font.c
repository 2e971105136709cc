/* font.c - 8x8 text from a character ROM (font.h). */
#include "font.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_FONT "/usr/share/open-roms/C64/chargen"

struct fe_font {
    SDL_Renderer *renderer;
    SDL_Texture *glyphs; /* 128 glyphs in a row, white on transparent */
};

/* ASCII punctuation the lower-case set draws elsewhere (or approximates). */
static const struct { unsigned char ascii, code; } specials[] = {
    {'@', 0x00}, {'[', 0x1B}, {'\\', 0x1C}, {']', 0x1D}, {'^', 0x1E}, {'_', 0x64},
    {'`', 0x27}, {'{', 0x28}, {'|', 0x5D}, {'}', 0x29}, {'~', 0x2D},
};

uint8_t fe_font_screen_code(unsigned char c)
{
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        if (specials[i].ascii == c) return specials[i].code;
    if (c >= 'a' && c <= 'z') return (uint8_t)(c - 'a' + 1);
    if (c >= 'A' && c <= 'Z') return (uint8_t)(c - 'A' + 0x41);
    if (c >= 0x20 && c <= 0x3F) return c;
    return '?';
}

static int read_rom(uint8_t set[2048], char *error, size_t error_size)
{
    const char *path = getenv("MH_SDL_FONT");
    if (!path || !*path) path = DEFAULT_FONT;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(error, error_size,
                 "cannot open the character ROM %s for the window's text (install the Debian "
                 "package open-roms, or set MH_SDL_FONT to a 2 or 4 KiB character ROM)",
                 path);
        return 0;
    }
    uint8_t rom[4096];
    size_t n = fread(rom, 1, sizeof rom, f);
    fclose(f);
    if (n != 2048 && n != 4096) {
        snprintf(error, error_size, "%s is not a character ROM (%zu bytes; 2048 or 4096 expected)",
                 path, n);
        return 0;
    }
    memcpy(set, rom + (n == 4096 ? 2048 : 0), 2048);
    return 1;
}

fe_font *fe_font_new(SDL_Renderer *renderer, char *error, size_t error_size)
{
    uint8_t set[2048];
    if (!read_rom(set, error, error_size)) return NULL;
    uint32_t *pixels = calloc(128 * FE_GLYPH_W * FE_GLYPH_H, sizeof *pixels);
    fe_font *font = calloc(1, sizeof *font);
    if (!pixels || !font) {
        free(pixels);
        free(font);
        snprintf(error, error_size, "out of memory for the font");
        return NULL;
    }
    const int pitch = 128 * FE_GLYPH_W;
    for (int c = 0; c < 128; c++) {
        const uint8_t *glyph = set + 8 * fe_font_screen_code((unsigned char)c);
        for (int y = 0; y < FE_GLYPH_H; y++)
            for (int x = 0; x < FE_GLYPH_W; x++)
                if (glyph[y] & (0x80 >> x)) pixels[y * pitch + c * FE_GLYPH_W + x] = 0xFFFFFFFFu;
    }
    font->renderer = renderer;
    font->glyphs = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888,
                                     SDL_TEXTUREACCESS_STATIC, pitch, FE_GLYPH_H);
    if (!font->glyphs || SDL_UpdateTexture(font->glyphs, NULL, pixels, pitch * 4) != 0) {
        snprintf(error, error_size, "cannot make the font texture: %s", SDL_GetError());
        free(pixels);
        fe_font_free(font);
        return NULL;
    }
    free(pixels);
    SDL_SetTextureBlendMode(font->glyphs, SDL_BLENDMODE_BLEND);
    return font;
}

void fe_font_free(fe_font *font)
{
    if (!font) return;
    if (font->glyphs) SDL_DestroyTexture(font->glyphs);
    free(font);
}

int fe_font_draw(fe_font *font, int x, int y, const char *text, uint32_t rgb, int scale,
                 size_t max_chars)
{
    SDL_SetTextureColorMod(font->glyphs, (Uint8)(rgb >> 16), (Uint8)(rgb >> 8), (Uint8)rgb);
    int x0 = x;
    for (size_t i = 0; text[i] && (!max_chars || i < max_chars); i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 128) c = '?';
        if (c != ' ') {
            SDL_Rect src = {c * FE_GLYPH_W, 0, FE_GLYPH_W, FE_GLYPH_H};
            SDL_Rect dst = {x, y, FE_GLYPH_W * scale, FE_GLYPH_H * scale};
            SDL_RenderCopy(font->renderer, font->glyphs, &src, &dst);
        }
        x += FE_GLYPH_W * scale;
    }
    return x - x0;
}
