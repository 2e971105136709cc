/* mcphost/screen_codes.h - screen codes to readable text (static library
 * mh_text, link target mcphost::text), shared by every machine with a
 * Commodore character set (C64, VIC-20, Plus/4) and by the tools that read
 * a text screen (mcphost/text_screen.h).
 *
 * Offers: the UTF-8 text of one screen code in a character set (letters,
 * digits and punctuation as themselves, the graphics characters as the
 * nearest Unicode box or block symbol), and a whole mh_text_screen as lines.
 *
 * Ownership: returned strings are static; output buffers are the caller's.
 * Thread-safety: no state; [thread-safe].
 */
#ifndef MCPHOST_SCREEN_CODES_H
#define MCPHOST_SCREEN_CODES_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/text_screen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The UTF-8 text of code (bit 7, reverse video in the ROM sets, is
 * ignored) in charset (mh_charset; an unknown one reads as
 * MH_CHARSET_CBM_UPPER). Never NULL, never empty. */
const char *mh_screen_code_text(uint8_t code, uint32_t charset);

/* "upper case/graphics", "lower/upper case". */
const char *mh_charset_name(uint32_t charset);

/* The screen as rows lines joined by '\n' (no trailing newline; trailing
 * spaces kept), each code masked with glyph_mask first. Returns the length
 * written (out holds at most size - 1 bytes and a NUL; lines are cut at
 * a character boundary). */
size_t mh_text_screen_lines(const mh_text_screen *screen, char *out, size_t size);

#ifdef __cplusplus
}
#endif
#endif
