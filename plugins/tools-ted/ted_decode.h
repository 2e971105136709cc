/* ted_decode.h - the pure part of the TED 7360/8360 toolset (no host, no
 * machine): mode, hue and interrupt source names, register numbers, and
 * the decoded view (mcphost/chip_ted.h) as JSON and text. Linked into
 * tools-ted and the unit tests (static library tools_ted_decode).
 *
 * Ownership: output buffers and writers belong to the caller; returned
 * strings are static. Threads: no state; [thread-safe].
 */
#ifndef TOOLS_TED_DECODE_H
#define TOOLS_TED_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include <mcphost/chip_ted.h>
#include <mcphost/json.h>

/* "text", "multicolor_text", "bitmap", "multicolor_bitmap", "ecm_text",
 * "invalid_text", "invalid_bitmap", "invalid_multicolor_bitmap". */
const char *tted_mode_name(unsigned mode);
/* The 16 TED hues: "black", "white", "red", ... "light green". */
const char *tted_hue_name(unsigned hue);
/* $FF09 bit n: "raster" (1), "lightpen" (2), "timer1" (3), "timer2" (4),
 * "timer3" (6); NULL for the others. */
const char *tted_irq_name(unsigned bit);
/* A register from a number 0-63 or an address in range (mh.chip.ted/1
 * io_range, $FF00-$FF3F); -1 otherwise. */
int tted_register(uint32_t value, const mh_chip_io_range *range);

/* The chip as a JSON object. io may be NULL or empty. */
void tted_write_view(mh_json_writer *w, const char *instance, const mh_chip_io_range *io,
                     const mh_chip_ted_view *v);
/* The three timers as a JSON object {instance, timers: [...]}. */
void tted_write_timers(mh_json_writer *w, const char *instance, const mh_chip_ted_view *v);
/* "timer 1: $1234 (reload $4E20) running, 12 underflows" per line. */
int tted_timers_text(char *out, size_t size, const mh_chip_ted_view *v);
/* A few lines for the whole chip. */
int tted_view_text(char *out, size_t size, const mh_chip_ted_view *v);

#endif
