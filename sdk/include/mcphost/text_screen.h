/* mcphost/text_screen.h - "mh.textscreen/1": the characters a machine shows
 * on its text screen, for tools that read the screen as text (screen_text)
 * on any machine: the C64 (VIC-II, 40x25), the VIC-20 (VIC, 22x23), the
 * Plus/4 (TED, 40x25).
 *
 * The machine registers it as an mh_chip (session.h) in every session that
 * has a text screen. read() copies the screen into a caller-owned
 * mh_text_screen: the screen codes as they are in video memory, the
 * character set they are shown with (decoded to text by the SDK's
 * mcphost/screen_codes.h, so every machine with the same set reads the
 * same), which bits of a code pick the character and which bit shows it in
 * reverse video, and the colours per cell when the machine has them.
 *
 * Versioning: the vtable and mh_text_screen start with struct_size and
 * only grow at the end; the caller sets out->struct_size and the machine
 * fills only what fits.
 * Ownership: the vtable and context belong to the machine instance and
 * live until its destroy(); mh_text_screen is the caller's; its strings
 * and colour names are static.
 * Threads: [emu-thread], like every capability of mcphost/machine.h.
 */
#ifndef MCPHOST_TEXT_SCREEN_H
#define MCPHOST_TEXT_SCREEN_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_IFACE_TEXT_SCREEN "mh.textscreen/1"

/* Enough cells for 80 x 50. */
#define MH_TEXT_SCREEN_MAX_CELLS 4000u

/* Which characters the codes show (decoding tables: screen_codes.h). */
typedef enum mh_charset {
    MH_CHARSET_CBM_UPPER = 0, /* Commodore upper case/graphics set (codes 1-26 A-Z) */
    MH_CHARSET_CBM_LOWER = 1  /* Commodore lower/upper case set (1-26 a-z, 65-90 A-Z) */
} mh_charset;

typedef struct mh_text_screen {
    uint32_t struct_size;      /* set by the caller: sizeof(mh_text_screen) */
    uint32_t columns, rows;    /* columns * rows <= MH_TEXT_SCREEN_MAX_CELLS */
    uint32_t charset;          /* mh_charset the codes are read with */
    /* 1 when the machine shows a character set from RAM: the codes are then
     * read as `charset`, which may not be what the screen shows. */
    uint8_t custom_charset;
    uint8_t glyph_mask;        /* the bits of a code that pick the character (0x7F, ECM 0x3F) */
    uint8_t reverse_bit;       /* the bit that shows a cell in reverse video; 0: none */
    uint8_t has_colors;        /* colors[] is filled */
    uint8_t has_backgrounds;   /* backgrounds[] is filled (a background per cell, e.g. ECM) */
    uint32_t address;          /* CPU address of the codes (the video matrix) */
    const char *mode;          /* the video mode shown, e.g. "standard text" */
    int32_t border, background; /* colour indices; -1 when the machine has none */
    uint32_t color_count;      /* colour indices are < color_count */
    const char *const *color_names; /* color_count names ("light blue"), or NULL */
    uint8_t codes[MH_TEXT_SCREEN_MAX_CELLS];       /* row by row */
    uint8_t colors[MH_TEXT_SCREEN_MAX_CELLS];      /* foreground colour per cell */
    uint8_t backgrounds[MH_TEXT_SCREEN_MAX_CELLS]; /* background colour per cell */
} mh_text_screen;

typedef struct mh_text_screen_iface {
    uint32_t struct_size;
    /* Copies the screen into *out. When the screen shows no text now (a
     * bitmap mode), returns MH_ERR_STATE and error says what it shows and
     * what to use instead. MH_ERR_INVALID_ARGUMENT for a struct_size below
     * the first version's. */
    mh_status (*read)(void *context, mh_text_screen *out, char *error, size_t error_size);
} mh_text_screen_iface;

#ifdef __cplusplus
}
#endif
#endif
