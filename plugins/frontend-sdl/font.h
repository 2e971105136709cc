/* font.h - the window's text: 8x8 glyphs from a character ROM (the C64's
 * upper/lower case set of the free MEGA65 Open ROMs, the file the C64
 * machine boots with), drawn with SDL_Renderer from one glyph texture.
 * Text is ASCII; other bytes draw as '?'.
 *
 * Which file: $MH_SDL_FONT (a 2 KiB or 4 KiB character ROM; of a 4 KiB
 * one the second, lower-case set is used), else
 * /usr/share/open-roms/C64/chargen. The font belongs to the window and
 * lives on the main thread like the renderer it draws with.
 */
#ifndef FE_FONT_H
#define FE_FONT_H

#include <stddef.h>
#include <stdint.h>

#include <SDL.h>

#define FE_GLYPH_W 8
#define FE_GLYPH_H 8

typedef struct fe_font fe_font;

/* Loads the ROM and builds the glyph texture; NULL with error filled. */
fe_font *fe_font_new(SDL_Renderer *renderer, char *error, size_t error_size);
void fe_font_free(fe_font *font);

/* Draws text at (x, y) in colour 0xRRGGBB, each glyph scale x scale
 * pixels per dot; at most max_chars characters (0: all). Returns the
 * width drawn in pixels. */
int fe_font_draw(fe_font *font, int x, int y, const char *text, uint32_t rgb, int scale,
                 size_t max_chars);

/* The screen code (index in the lower-case character set) an ASCII
 * character is drawn with. Exposed for the unit tests. */
uint8_t fe_font_screen_code(unsigned char c);

#endif
