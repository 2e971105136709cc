/* mcphost/chip_sid.h - the SID sound chip as a chip interface,
 * "mh.chip.sid/1", for the SID toolset (plugins/tools-sid, docs/tools-sid.md).
 *
 * A machine with a SID (the C64: instance "sid") registers this vtable in
 * its session (session.h). It offers:
 *   - registers: a side-effect-free read of the 29 registers $00-$1C, where
 *     the write-only ones ($00-$18) read as last written (not the chip's
 *     decaying bus value), and a write with the chip's effects (gate,
 *     test bit, filter), landing on the current cycle;
 *   - a decoded view of each voice (the chip's live counters: envelope
 *     phase and level, phase accumulator, waveform output) and of the
 *     filter/volume state;
 *   - the chip's model name, clock, the machine's frame length, and the
 *     machine's audio stream: signed 16-bit mono at sample_rate(), drained
 *     by audio_read() (the machine keeps a bounded ring: a reader that
 *     wants a gap-free capture flushes it, then reads after every slice of
 *     at most ~0.5 s of machine time);
 *   - a per-voice tap for analysis: while started, the chip also records
 *     each voice's own output (waveform x envelope x volume, centred on
 *     the waveform DAC's midpoint, before the filter, no DC) at the same
 *     sample rate, read with tap_read(). It costs only while started.
 *
 * Register numbers are the offset from the chip's base (address & $1F;
 * the C64's $D400 is 0). Voices are numbered 0-2 here (1-3 in the tools).
 *
 * Ownership: the vtable is static; the context belongs to the machine
 * instance and lives until its destroy(). Strings returned live as long as
 * the context. Every struct starts with struct_size and only grows at the
 * end: callers set struct_size to their sizeof before calling, the chip
 * fills what both know.
 * Threads: every function is [emu-thread] (a tool handler with
 * `requires = "mh.chip.sid/1"` runs there).
 */
#ifndef MCPHOST_CHIP_SID_H
#define MCPHOST_CHIP_SID_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/chip_io.h"
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_CHIP_SID_IFACE "mh.chip.sid/1"

/* Registers $00-$1C ($1D-$1F are unused). */
#define MH_CHIP_SID_REGISTERS 29u

/* Envelope phases as the decoded view reports them (the chip itself has
 * one decay/sustain state; sustain is that state at the sustain level). */
typedef enum mh_chip_sid_phase {
    MH_CHIP_SID_ATTACK = 0,
    MH_CHIP_SID_DECAY = 1,
    MH_CHIP_SID_SUSTAIN = 2,
    MH_CHIP_SID_RELEASE = 3
} mh_chip_sid_phase;

static inline const char *mh_chip_sid_phase_name(uint32_t phase)
{
    static const char *const names[] = {"attack", "decay", "sustain", "release"};
    return phase < 4 ? names[phase] : "unknown";
}

/* One voice: registers and the live counters. */
typedef struct mh_chip_sid_voice {
    uint32_t struct_size;
    uint16_t freq;        /* 16-bit frequency register */
    uint16_t pw;          /* 12-bit pulse width register */
    uint8_t control;      /* control register: gate 1, sync 2, ring 4, test 8,
                             triangle $10, sawtooth $20, pulse $40, noise $80 */
    uint8_t attack_decay; /* AD register */
    uint8_t sustain_release; /* SR register */
    uint8_t phase;        /* mh_chip_sid_phase */
    uint8_t level;        /* envelope counter 0-255 (ENV3 for voice 3) */
    uint8_t held_at_zero; /* 1: the envelope reached 0 and waits for a gate */
    uint16_t wave_output; /* current 12-bit waveform output (OSC3 = >> 4 for voice 3) */
    uint32_t accumulator; /* 24-bit phase accumulator */
    uint32_t noise_lfsr;  /* 23-bit noise shift register */
    uint16_t rate_counter; /* 15-bit envelope rate counter */
    uint16_t rate_period;  /* its current period (cycles per step) */
} mh_chip_sid_voice;

/* Filter and volume ($D415-$D418). */
typedef struct mh_chip_sid_filter {
    uint32_t struct_size;
    uint16_t cutoff;      /* 11-bit cutoff register */
    uint8_t resonance;    /* 0-15 */
    uint8_t routing;      /* bit n: voice n+1 through the filter; bit 3: external input */
    uint8_t mode;         /* $D418 bits 4-7 >> 4: low pass 1, band pass 2, high pass 4, voice 3 off 8 */
    uint8_t volume;       /* 0-15 */
    uint8_t reserved[2];
    uint32_t cutoff_hz;   /* the model's cutoff curve at `cutoff` */
} mh_chip_sid_filter;

typedef struct mh_chip_sid_iface {
    uint32_t struct_size;
    /* Register reg (0-$1C) without side effects; $00-$18 as last written,
     * $19-$1C as the CPU would read them now (POTX, POTY, OSC3, ENV3). */
    uint8_t (*peek)(void *context, uint16_t reg);
    /* Writes a register with the chip's effects (clocked up to now first). */
    void (*write)(void *context, uint16_t reg, uint8_t value);
    /* Voice v (0-2). MH_ERR_INVALID_ARGUMENT for another v or a NULL out. */
    mh_status (*voice)(void *context, unsigned v, mh_chip_sid_voice *out);
    mh_status (*filter)(void *context, mh_chip_sid_filter *out);
    /* "6581" or "8580". */
    const char *(*model_name)(void *context);
    /* Output sample rate (Hz), the chip's clock (Hz), the machine's video
     * frame length in cycles (0: none). */
    uint32_t (*sample_rate)(void *context);
    uint32_t (*clock_hz)(void *context);
    uint32_t (*frame_cycles)(void *context);
    /* 1 when the machine synthesises sound (0: a machine option turned it
     * off; the audio stream and the tap stay empty). */
    int (*sound_enabled)(void *context);
    /* Takes up to max samples of the machine's audio stream; returns how
     * many. Samples not taken in time are dropped (audio_dropped counts
     * them since the machine started). */
    size_t (*audio_read)(void *context, int16_t *out, size_t max);
    uint64_t (*audio_dropped)(void *context);
    /* The per-voice tap: start (empties it), stop, and read voice v's
     * samples (0-2; every voice gets one sample per stream sample, so read
     * all three alike). tap_dropped: samples lost since start because
     * nobody read them (the tap holds ~0.18 s). */
    void (*tap_start)(void *context);
    void (*tap_stop)(void *context);
    size_t (*tap_read)(void *context, unsigned v, int16_t *out, size_t max);
    uint32_t (*tap_dropped)(void *context);
    /* Appended in ABI 1.3 (check MH_CHIP_IFACE_HAS first): where the
     * registers sit in the CPU's map. */
    void (*io_range)(void *context, mh_chip_io_range *out);
} mh_chip_sid_iface;

#ifdef __cplusplus
}
#endif
#endif
