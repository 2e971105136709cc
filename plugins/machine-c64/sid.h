/* sid.h - the MOS 6581 / 8580 SID as a batch-clocked synthesis module
 * (file sid.c; docs/sid.md). The C64 clocks it through c64_sid.{h,c}.
 *
 * Style of floooh/chips: a m6581_desc where zero means default,
 * m6581_init(), m6581_reset(), and a plain state struct that a debugger
 * reads and a snapshot copies (no pointers at all, so a copy is a snapshot).
 *
 * Implemented: three voices with 24-bit phase accumulators, triangle,
 * sawtooth, pulse (12-bit width), noise (23-bit LFSR clocked by bit 19),
 * combined waveforms as the AND of the components (with the noise
 * write-back, so a combined noise waveform can lock the LFSR up to 0 until
 * the test bit), ring modulation, hard sync, the test bit; ADSR envelopes
 * with the 15-bit rate counter (equality compare, so lowering the rate below
 * the counter delays the next step by a 0x7FFF wrap: the "ADSR delay bug"),
 * the exponential decay periods switched at 93/54/26/14/6, sustain compare,
 * hold at zero, and the envelope's pipeline (gate changes, counter matches
 * and steps act cycles after their cause; ENV3 latched a cycle behind);
 * voice 3 off; a state-variable filter (LP/BP/HP, 11-bit
 * cutoff with a 6581 or 8580 curve, 4-bit resonance, per-voice routing);
 * master volume with the mixer DC offset that makes $D418 "digis" audible
 * on the 6581 (much weaker on the 8580); the board's ~16 Hz DC-blocking
 * high-pass; box-filter resampling into an int16 ring.
 *
 * Machine-side contract:
 *   - Clock lazily: before each SID register access and at the end of each
 *     slice, call m6581_clock(sid, cycles_since_last_call). A write then
 *     lands on the right cycle. Batches of any size are fine.
 *   - Audio: m6581_samples() drains the ring. When the ring is full, new
 *     samples are dropped and counted in `dropped`.
 *   - Per-voice tap (for analysis tools): while tap_on, every output
 *     sample also puts each voice's own output (waveform - $800 times the
 *     envelope, >> 7, times the volume >> 4: unfiltered, no model DC) into
 *     tap[v]; m6581_tap_read() drains it. Off (the default) it costs one
 *     predictable branch per cycle.
 *
 * Ownership: the caller owns m6581 (no allocation inside).
 * Threading: [emu-thread] for every function; two SIDs share nothing.
 */
#ifndef MCPHOST_MACHINE_C64_SID_H
#define MCPHOST_MACHINE_C64_SID_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever the meaning of the state struct changes. */
#define M6581_STATE_VERSION 4

/* Per-voice tap capacity in samples per voice (power of two). */
#define M6581_TAP_SIZE 8192u

/* Output ring capacity in samples (power of two). */
#define M6581_RING_SIZE 8192u

typedef enum m6581_model {
    M6581_MODEL_6581 = 0,
    M6581_MODEL_8580 = 1
} m6581_model;

/* Register numbers (the address modulo 32). Voice n (0-2) at 7*n + reg. */
enum {
    M6581_REG_FREQ_LO = 0x00,
    M6581_REG_FREQ_HI = 0x01,
    M6581_REG_PW_LO = 0x02,
    M6581_REG_PW_HI = 0x03,
    M6581_REG_CTRL = 0x04,
    M6581_REG_AD = 0x05,
    M6581_REG_SR = 0x06,
    M6581_REG_FC_LO = 0x15,   /* bits 0-2 */
    M6581_REG_FC_HI = 0x16,   /* bits 3-10 */
    M6581_REG_RES_FILT = 0x17,
    M6581_REG_MODE_VOL = 0x18,
    M6581_REG_POTX = 0x19,
    M6581_REG_POTY = 0x1A,
    M6581_REG_OSC3 = 0x1B,
    M6581_REG_ENV3 = 0x1C
};

/* Control register bits. */
#define M6581_CTRL_GATE 0x01u
#define M6581_CTRL_SYNC 0x02u
#define M6581_CTRL_RING 0x04u
#define M6581_CTRL_TEST 0x08u
#define M6581_CTRL_TRI 0x10u
#define M6581_CTRL_SAW 0x20u
#define M6581_CTRL_PULSE 0x40u
#define M6581_CTRL_NOISE 0x80u

/* $D418 bits. */
#define M6581_MODE_LP 0x10u
#define M6581_MODE_BP 0x20u
#define M6581_MODE_HP 0x40u
#define M6581_MODE_3OFF 0x80u

/* Envelope states. */
#define M6581_ENV_ATTACK 0
#define M6581_ENV_DECAY_SUSTAIN 1
#define M6581_ENV_RELEASE 2

/* Cycles a written value stays on the data bus for reads of write-only
 * registers (then they read 0). */
#define M6581_BUS_TTL 0x2000u

/* pot values: 0 means $FF; otherwise the low 8 bits are returned (so 0x100
 * reads $00). */
#define M6581_POT(v) (0x100u | (uint8_t)(v))

typedef struct m6581_desc {
    m6581_model model;   /* 0: 6581 */
    uint32_t clock_hz;    /* PHI2 rate; 0: 985248 (PAL C64) */
    uint32_t sample_rate; /* output rate; 0: 44100 */
    uint16_t potx, poty;  /* fixed POTX/POTY read values, see M6581_POT */
} m6581_desc;

typedef struct m6581_voice {
    uint32_t acc;       /* 24-bit phase accumulator */
    uint32_t freq;      /* 16-bit frequency register */
    uint32_t pw;        /* 12-bit pulse width */
    uint32_t lfsr;      /* 23-bit noise shift register */
    uint8_t ctrl;       /* control register */
    uint8_t ad, sr;     /* attack/decay, sustain/release registers */
    uint8_t msb_rising; /* accumulator bit 23 went 0->1 in the last cycle */
    /* envelope */
    uint16_t rate_counter; /* 15-bit, counts up to rate_period */
    uint16_t rate_period;
    uint8_t env;           /* envelope counter, ENV3 for voice 3 */
    uint8_t exp_counter;
    uint8_t exp_period;    /* 1, 2, 4, 8, 16, 30 */
    uint8_t env_state;     /* M6581_ENV_* */
    uint8_t hold_zero;     /* envelope frozen at 0 until the next gate */
    /* The envelope's pipeline (docs/sid.md "Envelopes"): a gate change
     * reaches the state over 2-3 cycles, a rate-counter match resets the
     * counter a cycle later, a step lands 1-2 cycles after that. */
    uint8_t env3;          /* the counter as ENV3 latched it this cycle */
    uint8_t env_next;      /* the state a gate change is heading for */
    uint8_t state_pipe;    /* cycles left of the gate change (0-3) */
    uint8_t step_pipe;     /* cycles until the pending step (0-4) */
    uint8_t exp_pipe;      /* cycles until the exponential counter's
                            * match resets it (0-2) */
    uint8_t rate_hit;      /* the rate counter matched last cycle */
    uint8_t env_busy;      /* any of the above pending, or ENV3 behind the
                            * counter: the per-cycle code looks at this
                            * alone (m6581_restored re-derives it) */
    uint8_t is_8580;       /* the voice of an 8580: triangle/sawtooth/pulse
                            * show acc_prev; its noise+pulse output */
    uint8_t shift_delay;   /* cycles until the pending noise shift (0: none) */
    uint8_t msb_pulldown;  /* 6581, sawtooth combined: the output's bit 11
                            * drives the accumulator's MSB */
    uint32_t acc_prev;     /* the accumulator one cycle ago */
    /* waveform 0: the DAC input keeps the last output, fading to 0 */
    uint32_t held_out;     /* 12-bit output held with no waveform selected */
    uint32_t held_ttl;     /* cycles until it has faded */
    /* test bit held: cycles until the noise register has filled with 1s */
    uint32_t lfsr_reset_left;
} m6581_voice;

typedef struct m6581 {
    uint8_t model;          /* m6581_model */
    uint8_t bus_value;      /* last value written to any register */
    uint8_t potx, poty;
    uint32_t bus_ttl;       /* cycles until bus_value decays to 0 */
    uint32_t clock_hz, sample_rate;
    uint8_t regs[32];       /* last value written to each register */
    m6581_voice voice[3];
    /* filter: cutoff register, w0 = 2*pi*fc/clock_hz in 2^-20 units,
     * 1024/Q, integrator states */
    uint16_t fc;
    uint8_t res_filt, mode_vol;
    int32_t w0, q_1024;
    int32_t vhp, vbp, vlp;
    /* mixer constants of the model (see docs/sid.md) */
    int32_t wave_zero, voice_dc, mixer_dc;
    /* resampler and output high-pass */
    uint32_t rs_pos;
    uint32_t rs_count;
    int64_t rs_sum;
    int32_t hp_lp;          /* DC tracker of the output high-pass (<<8) */
    int32_t hp_k;           /* its coefficient (2^-16 units) */
    uint64_t cycles;        /* cycles clocked since init */
    /* output ring */
    uint32_t ring_read, ring_count;
    uint32_t dropped;       /* samples lost to a full ring */
    int16_t ring[M6581_RING_SIZE];
    /* per-voice tap (see above) */
    uint8_t tap_on;
    uint8_t tap_reserved[3];
    uint32_t tap_read[3], tap_count[3];
    uint32_t tap_dropped;   /* samples lost to a full tap (voice 1's count) */
    int64_t tap_sum[3];
    int16_t tap[3][M6581_TAP_SIZE];
} m6581;

/* Sets up a SID in reset state. MH_ERR_INVALID_ARGUMENT when sid or desc is
 * NULL, the model is unknown, or sample_rate > clock_hz. */
mh_status m6581_init(m6581 *sid, const m6581_desc *desc);

/* The /RES pin: registers 0, accumulators 0, envelopes 0 in release, noise
 * LFSR 0x7FFFFF, filter states 0. Keeps the model, rates, pots and the ring
 * contents. */
void m6581_reset(m6581 *sid);

/* Advances the chip by `cycles` PHI2 cycles, producing output samples. */
void m6581_clock(m6581 *sid, uint32_t cycles);

/* 1 when all three voices are silent and still (envelope held at 0 with
 * nothing pending, no frequency, test, sync or noise write-back) and no tap
 * is on: m6581_clock() then steps only the rate counters, the filter (until
 * its state repeats) and the resampler, with the same results as the full
 * per-cycle path. For tests and profiling. */
int m6581_quiet(const m6581 *sid);

/* Register access (reg masked to 5 bits). Reads have no side effects, so
 * peek is the same as read; both exist for the chip-module convention. */
void m6581_write(m6581 *sid, uint16_t reg, uint8_t value);
uint8_t m6581_read(m6581 *sid, uint16_t reg);
uint8_t m6581_peek(const m6581 *sid, uint16_t reg);

/* Moves up to max samples from the ring into out; returns how many. */
size_t m6581_samples(m6581 *sid, int16_t *out, size_t max);

/* Starts (empties) or stops the per-voice tap. */
void m6581_tap(m6581 *sid, int on);
/* Moves up to max samples of voice v's tap into out (v 0-2); returns how
 * many. Every voice has the same count: read all three alike. */
size_t m6581_tap_read(m6581 *sid, int v, int16_t *out, size_t max);

/* The current 12-bit waveform output of voice v (0-2), as OSC3 sees it
 * (OSC3 = the upper 8 bits for voice 2). */
uint32_t m6581_wave_output(const m6581 *sid, int v);

/* Filter cutoff of the model for an 11-bit register value, in Hz (the
 * curve, not capped). */
uint32_t m6581_cutoff_hz(m6581_model model, uint32_t fc);
/* After a state was copied in (a snapshot): the values derived from the
 * registers (the filter's coefficients) are made again from them, so a
 * state from outside cannot bring its own. */
void m6581_restored(m6581 *sid);
/* The largest magnitude the filter's integrators reach from any register
 * setting (they stay near the voices' ~2^15 range); a state beyond it is
 * not one the chip can be in, and past it the filter arithmetic would
 * overflow. */
#define M6581_FILTER_STATE_MAX (1 << 24)

#ifdef __cplusplus
}
#endif

#endif
