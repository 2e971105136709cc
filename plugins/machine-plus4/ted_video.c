/* ted_video.c - the TED's picture: the DMA fetch of a character row and
 * the drawing of one raster line (from the registers as they are at the
 * end of the line's display part) into the framebuffer of palette indices
 * (luminance << 4 | hue).
 *
 * Window: 25 rows = lines 4-203 (24 rows: 8-199); 40 columns = the 320
 * display pixels (38: pixels 8-311). A row's attributes are fetched on its
 * attribute line (where (line & 7) == y scroll) and shown from the next
 * line on; its codes on that next line, shown at once (ted.c). Modes (ECM
 * BMM MCM):
 *   text       8x8 glyphs from the character set (ROM or RAM, $FF12 bit
 *              2); with reverse on ($FF07 bit 7 clear) code bit 7 shows
 *              glyph code & $7F reversed; attribute bits 0-6 colour, bit 7
 *              flash; the cursor cell ($FF0C/$FF0D) shows reversed while
 *              the flash is on
 *   MC text    attribute bit 3 set: 2-bit pixels, 00/01/10 background
 *              0/1/2, 11 the attribute's colour without bit 3
 *   ECM text   codes & $3F, background from code bits 6-7
 *   bitmap     two colours per cell: hue from the code's nybbles, luminance
 *              from the attribute's
 *   MC bitmap  00 background 0, 01/10 the cell's two colours, 11 background 1
 *   invalid    black
 */
#include <string.h>

#include "ted.h"
#include "ted_internal.h"

void ted_fetch_attributes(ted *t)
{
    const uint16_t attrs = ted_attribute_address(t);
    for (unsigned i = 0; i < 40; i++)
        t->next_attrs[i] = t->fetch(t->user, (uint16_t)(attrs + ((t->dma_pos + i) & 0x3FFu)), 0);
}

void ted_fetch_codes(ted *t)
{
    const uint16_t screen = ted_screen_address(t);
    for (unsigned i = 0; i < 40; i++)
        t->codes[i] = t->fetch(t->user, (uint16_t)(screen + ((t->dma_pos + i) & 0x3FFu)), 0);
}

/* The 8 pixels of cell col (colour indices). */
static void cell_pixels(const ted *t, unsigned mode, unsigned col, const uint8_t *const charset[8],
                        uint8_t out[8])
{
    const uint8_t code = t->codes[col], attr = t->attrs[col];
    const uint8_t bg0 = t->regs[0x15] & 0x7Fu;
    const uint16_t vc = (uint16_t)((t->vc_base + col) & 0x3FFu);
    uint8_t data, fg = attr & 0x7Fu, bg = bg0;
    if (mode & 2u) { /* bitmap */
        data = t->fetch(t->user, (uint16_t)(ted_bitmap_address(t) + vc * 8u + t->rc), 0);
        const uint8_t c0 = (uint8_t)((attr & 0x70u) | (code & 0x0Fu));
        const uint8_t c1 = (uint8_t)(((attr & 0x07u) << 4) | (code >> 4));
        if (mode & 4u) goto black;
        if (mode & 1u) {
            const uint8_t colors[4] = {bg0, c1, c0, (uint8_t)(t->regs[0x16] & 0x7Fu)};
            for (unsigned i = 0; i < 8; i += 2) out[i] = out[i + 1] = colors[(data >> (6 - i)) & 3u];
            return;
        }
        for (unsigned i = 0; i < 8; i++) out[i] = (data & (0x80u >> i)) ? c1 : c0;
        return;
    }
    if ((mode & 5u) == 5u) goto black;
    const int reverse_hw = !(t->regs[0x07] & 0x80u);
    uint8_t glyph = code;
    int reverse = 0;
    if (mode & 4u) { /* ECM */
        glyph = code & 0x3Fu;
        bg = t->regs[0x15 + (code >> 6)] & 0x7Fu;
    } else if (reverse_hw) {
        glyph = code & 0x7Fu;
        reverse = !(mode & 1u) && (code & 0x80u) != 0; /* no reverse in multicolour */
    }
    const unsigned offset = glyph * 8u + t->rc;
    data = charset[(offset >> 8) & 7u][offset & 0xFFu];
    if (mode & 1u) {
        /* Multicolour: attribute bit 3 picks a multicolour cell, only the
         * first 8 hues for either kind; no flashing. */
        fg &= 0x77u;
        if (attr & 0x08u) {
            const uint8_t colors[4] = {bg0, (uint8_t)(t->regs[0x16] & 0x7Fu),
                                       (uint8_t)(t->regs[0x17] & 0x7Fu), fg};
            for (unsigned i = 0; i < 8; i += 2)
                out[i] = out[i + 1] = colors[(data >> (6 - i)) & 3u];
            return;
        }
    }
    if (mode == 0) { /* ECM and multicolour have no flashing and no cursor */
        const uint16_t cursor = (uint16_t)(((t->regs[0x0C] & 3u) << 8) | t->regs[0x0D]);
        if ((attr & 0x80u) && !ted_flash_on(t)) data = 0; /* flashing: off half */
        if (vc == cursor && ted_flash_on(t)) reverse = !reverse;
    }
    if (reverse) data = (uint8_t)~data;
    for (unsigned i = 0; i < 8; i++) out[i] = (data & (0x80u >> i)) ? fg : bg;
    return;
black:
    for (unsigned i = 0; i < 8; i++) out[i] = 0;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* expand_masks[data]: byte i is $FF where data's bit 7 - i is set (the 8
 * pixels of a cell, leftmost first, in little-endian byte order). */
#define TED_MASK_BYTE(d, bit, i) ((uint64_t)(((d) >> (bit)) & 1u) * (0xFFull << (8 * (i))))
#define TED_MASK(d)                                                                            \
    (TED_MASK_BYTE(d, 7, 0) | TED_MASK_BYTE(d, 6, 1) | TED_MASK_BYTE(d, 5, 2) |                 \
     TED_MASK_BYTE(d, 4, 3) | TED_MASK_BYTE(d, 3, 4) | TED_MASK_BYTE(d, 2, 5) |                 \
     TED_MASK_BYTE(d, 1, 6) | TED_MASK_BYTE(d, 0, 7)),
#define TED_MASK4(d) TED_MASK(d) TED_MASK((d) + 1u) TED_MASK((d) + 2u) TED_MASK((d) + 3u)
#define TED_MASK16(d) TED_MASK4(d) TED_MASK4((d) + 4u) TED_MASK4((d) + 8u) TED_MASK4((d) + 12u)
#define TED_MASK64(d) TED_MASK16(d) TED_MASK16((d) + 16u) TED_MASK16((d) + 32u) TED_MASK16((d) + 48u)
static const uint64_t expand_masks[256] = {TED_MASK64(0u) TED_MASK64(64u) TED_MASK64(128u)
                                               TED_MASK64(192u)};

/* 8 pixels of colour fg where data has a 1 bit (bit 7 first), else bg. */
static inline void expand8(uint8_t data, uint8_t fg, uint8_t bg, uint8_t *out)
{
    const uint64_t m = expand_masks[data];
    const uint64_t px = (0x0101010101010101ull * fg & m) | (0x0101010101010101ull * bg & ~m);
    memcpy(out, &px, 8);
}
#else
static inline void expand8(uint8_t data, uint8_t fg, uint8_t bg, uint8_t *out)
{
    for (unsigned b = 0; b < 8; b++) out[b] = (data & (0x80u >> b)) ? fg : bg;
}
#endif

/* Standard text: the common case, without the other modes' branches. */
static void text_row(const ted *t, const uint8_t *const charset[8], uint8_t *out)
{
    const uint8_t bg = t->regs[0x15] & 0x7Fu;
    const int flash = ted_flash_on(t);
    /* 128 characters: bit 7 reverses (XOR with $FF), else 256 characters. */
    const uint8_t glyph_mask = (t->regs[0x07] & 0x80u) ? 0xFFu : 0x7Fu;
    const uint16_t cursor = (uint16_t)(((t->regs[0x0C] & 3u) << 8) | t->regs[0x0D]);
    /* The cursor's column in this row while the flash is on; 40: none. */
    const unsigned cursor_col = flash ? (unsigned)((cursor - t->vc_base) & 0x3FFu) : 40u;
    /* A flashing character (attribute bit 7) is off in the flash's off half. */
    const uint8_t flash_off = flash ? 0u : 0x80u;
    const unsigned rc = t->rc;
    for (unsigned col = 0; col < 40; col++, out += 8) {
        const uint8_t code = t->codes[col], attr = t->attrs[col];
        const unsigned offset = (unsigned)(code & glyph_mask) * 8u + rc;
        uint8_t data = charset[(offset >> 8) & 7u][offset & 0xFFu];
        if (attr & flash_off) data = 0;
        uint8_t invert = (uint8_t)((code & ~glyph_mask) ? 0xFFu : 0u);
        if (col == cursor_col) invert = (uint8_t)~invert;
        expand8((uint8_t)(data ^ invert), attr & 0x7Fu, bg, out);
    }
}

/* The whole visible line (384 pixels) as the registers are now. */
static void build_line(ted *t, uint8_t *px)
{
    const uint8_t border = t->regs[0x19] & 0x7Fu;
    const int rows25 = (t->regs[0x06] & 0x08u) != 0;
    const unsigned top = rows25 ? 4u : 8u, bottom = rows25 ? 204u : 200u;
    const int shown = (t->regs[0x06] & 0x10u) && t->row_active && t->line >= top &&
                      t->line < bottom;
    if (!shown) {
        memset(px, border, TED_FB_WIDTH);
        return;
    }
    const unsigned mode = ted_mode(t), xscroll = t->regs[0x07] & 7u;
    const int cols40 = (t->regs[0x07] & 0x08u) != 0;
    const unsigned left = cols40 ? 0u : 8u, right = cols40 ? 320u : 312u;
    const uint8_t *charset[8];
    const int rom = (t->regs[0x12] & 0x04u) != 0;
    for (unsigned i = 0; i < 8; i++)
        charset[i] = t->page(t->user, (uint16_t)(ted_charset_address(t) + i * 256u), rom);
    if (mode == 0 && xscroll == 0 && cols40) {
        /* The usual text screen: straight into the line. */
        memset(px, border, 32);
        text_row(t, charset, px + 32);
        memset(px + 32 + 320, border, TED_FB_WIDTH - 32 - 320);
        return;
    }
    /* The 40 cells drawn xscroll pixels to the right, background before. */
    uint8_t display[8 + 320];
    memset(display, t->regs[0x15] & 0x7Fu, 8);
    if (mode == 0) {
        text_row(t, charset, display + 8);
    } else {
        for (unsigned col = 0; col < 40; col++)
            cell_pixels(t, mode, col, charset, display + 8 + col * 8u);
    }
    memset(px, border, 32 + left);
    memcpy(px + 32 + left, display + 8 - xscroll + left, right - left);
    memset(px + 32 + right, border, TED_FB_WIDTH - 32 - right);
}

void ted_render_upto(ted *t, unsigned end)
{
    if (end > TED_FB_WIDTH) end = TED_FB_WIDTH;
    if (!t->fb || end <= t->drawn_px) return;
    /* Lines past the crystal standard's count (a longer frame, or PAL mode
     * on an NTSC TED) are in the vertical blank. */
    const unsigned row = (unsigned)((t->line + t->tv_lines - t->fb_first_line) % t->tv_lines);
    if (t->line >= t->tv_lines || row >= t->fb_height) {
        t->drawn_px = (uint16_t)end;
        return;
    }
    uint8_t *px = t->fb + (size_t)row * TED_FB_WIDTH;
    if (t->drawn_px == 0 && end == TED_FB_WIDTH) {
        build_line(t, px); /* the usual case: no register changed mid-line */
    } else {
        uint8_t line[TED_FB_WIDTH];
        build_line(t, line);
        memcpy(px + t->drawn_px, line + t->drawn_px, end - t->drawn_px);
    }
    t->drawn_px = (uint16_t)end;
}

void ted_catch_up(ted *t)
{
    if (t->x < TED_X_BORDER_L || t->x >= TED_X_RENDER) return;
    ted_render_upto(t, (t->x - TED_X_BORDER_L) * 4u);
}
