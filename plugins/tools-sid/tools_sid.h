/* tools_sid.h - what the files of the tools-sid plugin share: the host
 * services looked up at init, the register names and decoders. (Audio
 * capture and analysis work on every machine's sound: tools-audio.)
 *
 * Files, one job each:
 *   tools_sid_plugin.c  entry: services, registration of every group
 *   sid_names.c         register names/numbers/addresses, waveform names,
 *                       envelope times, notes (pure functions)
 *   tools_sid_regs.c    sid_registers_get, sid_registers_set
 *   tools_sid_voices.c  sid_voices_get
 *
 * Ownership: one ts_plugin per loaded plugin, freed at deinit; nothing is
 * global.
 * Threads: tool handlers run [emu-thread] on their session's thread.
 */
#ifndef TOOLS_SID_H
#define TOOLS_SID_H

#include <stddef.h>
#include <stdint.h>

#include <mcphost/args.h>
#include <mcphost/chip_sid.h>
#include <mcphost/debug.h>
#include <mcphost/json.h>
#include <mcphost/mcphost.h>
#include <mcphost/toolkit.h>

/* The plugin's data: just the host services (mcphost/toolkit.h). */
typedef mh_toolkit_services ts_plugin;

typedef mh_status (*ts_register_fn)(ts_plugin *plugin);
mh_status ts_register_regs(ts_plugin *plugin);   /* tools_sid_regs.c */
mh_status ts_register_voices(ts_plugin *plugin); /* tools_sid_voices.c */

/* ---- shared handler helpers (tools_sid_plugin.c) ---- */

/* The chip's vtable and context of a call (NULL when the host gave none). */
const mh_chip_sid_iface *ts_chip(const ts_plugin *plugin, mh_call *call, void **context);
/* An isError result built like printf (mcphost/toolkit.h). */
#define ts_errorf(plugin, call, ...) mh_toolkit_fail((plugin)->call, (call), __VA_ARGS__)
/* Finishes a writer into structured content (+ text when not NULL), or a
 * tool error naming the writer's failure. Frees the writer. */
void ts_finish(const ts_plugin *plugin, mh_call *call, mh_json_writer *w, const char *text);
/* Writes "state": the session's execution state name, when the host has
 * the debug engine ("unknown" otherwise). */
void ts_write_state(const ts_plugin *plugin, mh_call *call, mh_json_writer *w);

/* ---- sid_names.c ---- */

/* Registers $00-$1C: canonical name ("v1_freq_lo", "fc_hi", "mode_vol"). */
const char *ts_reg_name(unsigned reg);
/* What a register holds, one line. */
const char *ts_reg_description(unsigned reg);
/* A register from text: a canonical name, a Mapping-the-C64 label
 * ("FRELO1", "SIGVOL"; case-insensitive), a register number 0-28 or an
 * address in any address form inside io (the chip's place in the CPU's
 * map, mh.chip.sid/1 io_range: $D400-$D7FF on a C64, 32-byte mirrors; NULL
 * or size 0: numbers only). Composite names "v1_freq", "v1_pw", "fc" give
 * *width 2 (a 16/12/11-bit value written low byte first). Returns 0, or -1
 * with a message. */
int ts_reg_parse(const char *text, const mh_chip_io_range *io, unsigned *reg, unsigned *width,
                 char *err, size_t err_size);
/* The same for an integer (number or address). */
int ts_reg_from_number(int64_t value, const mh_chip_io_range *io, unsigned *reg, char *err,
                       size_t err_size);
/* 1 for POTX, POTY, OSC3, ENV3. */
int ts_reg_read_only(unsigned reg);

/* Waveform bits ($10-$80 of the control register) as names into a JSON
 * array; the joined text ("triangle+pulse", "none") into buf. */
void ts_write_waveforms(mh_json_writer *w, uint8_t control);
void ts_waveform_text(uint8_t control, char *buf, size_t size);

/* Envelope rate periods (cycles per step) of the SID for rate values 0-15. */
uint32_t ts_rate_period(unsigned rate);
/* Times in ms at clock_hz: attack 0 -> 255, decay 255 -> level, release
 * level -> 0 (the exponential decay steps included). */
double ts_attack_ms(unsigned rate, uint32_t clock_hz);
double ts_decay_ms(unsigned rate, unsigned from, unsigned to, uint32_t clock_hz);

/* Frequency register -> Hz at clock_hz. */
double ts_freq_hz(uint32_t freq, uint32_t clock_hz);

#endif
