/* cia_decode.h - the pure helpers of the CIA toolset (no host, no
 * machine): register numbers from the forms agents write, names of timer
 * inputs and interrupt sources, TOD times as text. Linked into tools-cia
 * and the unit tests (static library tools_cia_decode).
 *
 * Ownership: output buffers belong to the caller; returned strings are
 * static. Thread-safety: no state; [thread-safe].
 */
#ifndef TOOLS_CIA_DECODE_H
#define TOOLS_CIA_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include <mcphost/chip_cia.h>

/* A CIA register from a number: 0-15 as itself, or an address inside the
 * chip's range in the CPU's map (mh.chip.cia/1 io_range: $DC00-$DCFF for a
 * C64's CIA1), where the 16 registers repeat. Returns 0-15, or -1. range
 * may be NULL (numbers only). */
int tc_cia_register(uint32_t value, const mh_chip_io_range *range);

/* "phi2", "cnt", "timer_a", "timer_a_while_cnt". */
const char *tc_input_name(unsigned input);

/* ICR bit n (0-4): "timer_a", "timer_b", "alarm", "serial", "flag". */
const char *tc_icr_source(unsigned bit);

/* "01:00:00.0 AM"; needs 14 bytes. */
void tc_time_text(const mh_chip_cia_time *t, char out[16]);

/* The register names: "PRA", "PRB", ... "CRB". */
const char *tc_register_name(unsigned reg);

#endif
