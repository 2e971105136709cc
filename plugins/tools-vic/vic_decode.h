/* vic_decode.h - the pure part of the VIC 6560/6561 toolset (no host, no
 * machine): register names and numbers, colour and voice names, the
 * decoded view (mcphost/chip_vic.h) as JSON and text (a raster
 * breakpoint's state is mh_toolkit_raster, mcphost/toolkit.h). Linked into tools-vic and the unit tests (static
 * library tools_vic_decode).
 *
 * Ownership: output buffers and writers belong to the caller; returned
 * strings are static. Threads: no state; [thread-safe].
 */
#ifndef TOOLS_VIC_DECODE_H
#define TOOLS_VIC_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include <mcphost/chip_vic.h>
#include <mcphost/json.h>

/* "CR0" ... "CRF": the MOS data sheet's names of $9000-$900F. */
const char *tvic_register_name(unsigned reg);
/* A register from a name ("CRF", any case), a number 0-15 or an address in
 * range (the 16 registers repeat; mh.chip.vic/1 io_range). name may be
 * NULL. Returns 0-15 or -1. */
int tvic_register(const char *name, uint32_t value, const mh_chip_io_range *range);

/* The VIC-20's colour names: "black", "white", ... "light yellow". */
const char *tvic_color_name(unsigned color);
/* "bass", "alto", "soprano", "noise". */
const char *tvic_voice_name(unsigned voice);

/* The chip as a JSON object: model, memory, geometry, beam, light pen,
 * paddles, colours, sound, raw registers. io may be NULL or empty. */
void tvic_write_view(mh_json_writer *w, const char *instance, const mh_chip_io_range *io,
                     const mh_chip_vic_view *v);
/* A few lines of text for the same. */
int tvic_view_text(char *out, size_t size, const mh_chip_vic_view *v);

#endif
