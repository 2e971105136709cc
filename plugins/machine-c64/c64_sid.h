/* c64_sid.h - the SID (6581/8580) as the C64 sees it: the synthesis module
 * (sid.h, docs/sid.md), clocked lazily by cycle count, mirrored every 32
 * bytes over $D400-$D7FF, plus the machine's audio ring.
 *
 * Lazy clocking: `cycles` is the machine cycle (VIC-II ticks since reset)
 * up to which the chip has been clocked. c64_sid_sync(sid, now) clocks it
 * up to `now`; the bus calls it before every SID read or write (so writes
 * land on their cycle and OSC3/ENV3 read back correctly) and c64_run at the
 * end of each slice, which also drains the chip's output into `ring`.
 *
 * sound on (the default): reads are the chip's (write-only registers read
 * the decaying bus value, POTX/POTY $FF, OSC3/ENV3 the live voice 3).
 * sound off: nothing is clocked (no synthesis, no samples) and reads are
 * the old register storage: $00-$18 what was last written, POTX/POTY and
 * $1D-$1F $FF, OSC3/ENV3 0.
 *
 * Audio: signed 16-bit mono at C64_AUDIO_RATE (44100 Hz) in a ring of
 * C64_AUDIO_RING samples; when it is full new samples are dropped (counted
 * in `dropped`). No pointers anywhere, so a copy is a snapshot.
 * No allocation, no global state; [emu-thread].
 */
#ifndef MH_C64_SID_H
#define MH_C64_SID_H

#include <stddef.h>
#include <stdint.h>

#include "sid.h"

#define C64_AUDIO_RATE 44100u
#define C64_AUDIO_RING 32768u /* samples, power of two (~0.74 s) */

typedef enum c64_sid_model {
    C64_SID_6581 = 0,
    C64_SID_8580 = 1
} c64_sid_model;

typedef struct c64_sid {
    uint8_t model; /* c64_sid_model */
    uint8_t sound; /* 1: synthesis on */
    uint8_t reserved[2];
    uint32_t dropped;        /* samples lost to a full ring */
    uint64_t cycles;         /* machine cycle the chip is clocked up to */
    uint32_t ring_read, ring_count;
    m6581 chip;
    int16_t ring[C64_AUDIO_RING];
} c64_sid;

/* clock_hz: the machine's PHI2 rate. Returns 0 or -1 (bad arguments). */
int c64_sid_init(c64_sid *sid, c64_sid_model model, int sound, uint32_t clock_hz);
/* The /RES line; the chip's time restarts at `now`. Keeps the audio ring. */
void c64_sid_reset(c64_sid *sid, uint64_t now);
/* Clocks the chip up to machine cycle `now` (nothing when sound is off). */
void c64_sid_sync(c64_sid *sid, uint64_t now);
/* Moves the chip's new samples into the ring (after a sync). */
void c64_sid_drain(c64_sid *sid);
/* Register access, reg masked to 5 bits. The caller syncs first. */
uint8_t c64_sid_read(c64_sid *sid, uint16_t reg);
uint8_t c64_sid_peek(const c64_sid *sid, uint16_t reg);
void c64_sid_write(c64_sid *sid, uint16_t reg, uint8_t value);
/* Takes up to max samples from the ring; returns how many. */
size_t c64_sid_audio_read(c64_sid *sid, int16_t *out, size_t max);
const char *c64_sid_model_name(c64_sid_model model);

#endif
