/* via_decode.h - the pure part of the VIA toolset (no host, no machine):
 * register names and numbers, the names of shift register and CA2/CB2
 * modes and interrupt sources, and a decoded view (mcphost/chip_via.h)
 * written as JSON and as one line of text. Linked into tools-via and the
 * unit tests (static library tools_via_decode).
 *
 * Ownership: output buffers and writers belong to the caller; returned
 * strings are static. Threads: no state; [thread-safe].
 */
#ifndef TOOLS_VIA_DECODE_H
#define TOOLS_VIA_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include <mcphost/chip_via.h>
#include <mcphost/json.h>

/* "ORB", "ORA", "DDRB", ... "ORA_NH" (register & 15). */
const char *tvia_register_name(unsigned reg);
/* The register a name (any case) gives, or -1. */
int tvia_register_by_name(const char *name);
/* A register from a number 0-15 or an address in range (the registers
 * repeat every 16 bytes; mh.chip.via/1 io_range). other: the other VIA's
 * range or NULL; an address in its first 16 bytes (its own block, where
 * the chip select lines pick it alone) is the other's: -2. Else -1. */
int tvia_register(uint32_t value, const mh_chip_io_range *range, const mh_chip_io_range *other);

/* "disabled", "in_t2", "in_phi2", "in_cb1", "out_free_t2", "out_t2",
 * "out_phi2", "out_cb1" (ACR bits 2-4). */
const char *tvia_sr_mode_name(unsigned mode);
/* "in_negative", "in_negative_independent", "in_positive",
 * "in_positive_independent", "handshake", "pulse", "low", "high". */
const char *tvia_c2_mode_name(unsigned mode);
/* IFR/IER bit n (0-6): "ca2", "ca1", "sr", "cb2", "cb1", "t2", "t1". */
const char *tvia_irq_name(unsigned bit);

/* One VIA as a JSON object: instance, model, address, ports, timers,
 * shift register, control lines, interrupts, raw registers. io may be
 * NULL or empty (no address then). */
void tvia_write_view(mh_json_writer *w, const char *instance, const mh_chip_io_range *io,
                     const mh_chip_via_view *v);
/* The two timers of one VIA as a JSON object {instance, t1, t2}. */
void tvia_write_timers(mh_json_writer *w, const char *instance, const mh_chip_via_view *v);
/* "via2 T1 $1234 (latch $4826) free-run, PB7 off; T2 $FFF0 (latch $00) one-shot"
 * and a newline; returns what snprintf returns. */
int tvia_timers_text(char *out, size_t size, const char *instance, const mh_chip_via_view *v);
/* A few lines for the whole chip. */
int tvia_view_text(char *out, size_t size, const char *instance, const mh_chip_via_view *v);

#endif
