/* c64_sid.h - the SID (6581/8580) as the C64 sees it today: 32 registers
 * of plain storage, mirrored every 32 bytes over $D400-$D7FF.
 *
 * No sound yet: a synthesis module (oscillators, envelopes, filter, audio
 * out) is a separate step and drops in behind these same calls, with the
 * state growing inside c64_sid and a c64_sid_tick() (or a catch-up by
 * cycle count at each access and at the end of a run) added to the bus.
 *
 * Reads: registers $00-$18 return what was last written there (the real
 * chip's write-only registers return a decaying bus value; a plain store is
 * what test programs and debuggers expect); POTX/POTY ($19/$1A) read $FF
 * (no paddles); OSC3/ENV3 ($1B/$1C) read 0 until there are oscillators;
 * $1D-$1F read $FF. Reads have no side effects, so peek = read.
 * No allocation, no global state; [emu-thread].
 */
#ifndef MH_C64_SID_H
#define MH_C64_SID_H

#include <stdint.h>

typedef enum c64_sid_model {
    C64_SID_6581 = 0,
    C64_SID_8580 = 1
} c64_sid_model;

typedef struct c64_sid {
    uint8_t model; /* c64_sid_model */
    uint8_t reg[32];
} c64_sid;

void c64_sid_init(c64_sid *sid, c64_sid_model model);
void c64_sid_reset(c64_sid *sid);
uint8_t c64_sid_read(c64_sid *sid, uint16_t reg);
uint8_t c64_sid_peek(const c64_sid *sid, uint16_t reg);
void c64_sid_write(c64_sid *sid, uint16_t reg, uint8_t value);
const char *c64_sid_model_name(c64_sid_model model);

#endif
