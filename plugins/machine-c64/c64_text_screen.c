/* c64_text_screen.c - "mh.textscreen/1" (mcphost/text_screen.h) on the
 * C64: the VIC-II's 40x25 video matrix as the VIC sees it (bank, $D018,
 * the character ROM), the character set it shows, colour RAM, and the
 * background per cell in extended colour mode. */
#include <stdio.h>
#include <string.h>

#include "c64.h"
#include "mcphost/text_screen.h"

#define C64_COLUMNS 40u
#define C64_ROWS 25u

static const char *const color_names[16] = {
    "black",  "white",  "red",       "cyan",       "purple",     "green", "blue",
    "yellow", "orange", "brown",     "light red",  "dark grey",  "grey",  "light green",
    "light blue", "light grey"};

/* By mode bits ECM BMM MCM. */
static const char *const mode_names[8] = {
    "standard text",      "multicolour text",    "standard bitmap",
    "multicolour bitmap", "extended colour text", "invalid text (ECM+MCM, black)",
    "invalid bitmap (ECM+BMM, black)", "invalid multicolour bitmap (ECM+BMM+MCM, black)"};

static mh_status text_read(void *context, mh_text_screen *out, char *error, size_t error_size)
{
    const c64 *m = context;
    if (!out || out->struct_size < sizeof *out) return MH_ERR_INVALID_ARGUMENT;
    mh_chip_vic2_view v;
    memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    c64_vic2_view(m, &v);
    if (v.bmm) {
        snprintf(error, error_size,
                 "the VIC-II shows %s: there is no text screen (the video matrix at $%04X "
                 "holds colours). Use screen_capture for the picture",
                 mode_names[v.mode & 7u], v.screen_address);
        return MH_ERR_STATE;
    }
    out->columns = C64_COLUMNS;
    out->rows = C64_ROWS;
    /* The ROM's second set ($0800 into the character ROM) is lower case. */
    out->charset = v.charset_in_rom && (v.charset_address & 0x0800u) ? MH_CHARSET_CBM_LOWER
                                                                     : MH_CHARSET_CBM_UPPER;
    out->custom_charset = !v.charset_in_rom;
    /* In ECM the top two bits choose the background, not the character. */
    out->glyph_mask = v.ecm ? 0x3Fu : 0x7Fu;
    out->reverse_bit = v.ecm ? 0u : 0x80u;
    out->has_colors = 1;
    out->has_backgrounds = v.ecm;
    out->address = v.screen_address;
    out->mode = mode_names[v.mode & 7u];
    out->border = v.border_color & 15u;
    out->background = v.background[0] & 15u;
    out->color_count = 16;
    out->color_names = color_names;
    const uint16_t matrix = (uint16_t)(v.screen_address - v.bank_base);
    for (uint16_t i = 0; i < C64_COLUMNS * C64_ROWS; i++) {
        const uint8_t code = c64_vic_fetch((void *)m, (uint16_t)((matrix + i) & 0x3FFFu));
        out->codes[i] = code;
        out->colors[i] = m->p.color[i] & 0x0Fu;
        out->backgrounds[i] = v.ecm ? (uint8_t)(v.background[code >> 6] & 15u) : out->background;
    }
    return MH_OK;
}

static const mh_text_screen_iface text_screen_iface = {sizeof(mh_text_screen_iface), text_read};

size_t c64_text_screen_chips(c64 *m, mh_chip *chips)
{
    chips[0] = (mh_chip){sizeof(mh_chip), MH_IFACE_TEXT_SCREEN, "screen",
                         "VIC-II text screen: 40x25 screen codes, colour RAM", &text_screen_iface, m};
    return 1;
}
