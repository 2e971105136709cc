/* c64_sid_iface.c - the SID's chip interface "mh.chip.sid/1"
 * (mcphost/chip_sid.h), instance "sid", for the SID toolset.
 *
 * The context is the machine. Reads sync the chip up to the current cycle
 * first (lazy clocking only catches up, it changes nothing a program could
 * see), so OSC3/ENV3 and the voice counters are those of this cycle.
 * Writes go through the I/O write path, exactly like a CPU write to
 * $D400+reg. With sound=off the chip is not clocked: the counters stay as
 * they were and the stream and tap stay empty (sound_enabled() says 0).
 * [emu-thread]; no state of its own.
 */
#include <string.h>

#include "c64.h"
#include "mcphost/chip_sid.h"

static void sync_now(c64 *m) { c64_sid_sync(&m->sid, m->vic.ticks); }

static uint8_t sid_peek(void *context, uint16_t reg)
{
    c64 *m = context;
    reg &= 0x1F;
    if (reg <= 0x18) return m->sid.chip.regs[reg];
    sync_now(m);
    return c64_sid_peek(&m->sid, reg);
}

static void sid_write(void *context, uint16_t reg, uint8_t value)
{
    c64_io_write(context, (uint16_t)(C64_SID_BASE + (reg & 0x1Fu)), value);
}

static uint8_t voice_phase(const m6581_voice *v)
{
    /* a gate change still in the envelope's pipeline: the state it heads for */
    uint8_t state = v->state_pipe ? v->env_next : v->env_state;
    if (state == M6581_ENV_ATTACK) return MH_CHIP_SID_ATTACK;
    if (state == M6581_ENV_RELEASE) return MH_CHIP_SID_RELEASE;
    return v->env == (uint8_t)((v->sr >> 4) * 0x11) ? MH_CHIP_SID_SUSTAIN : MH_CHIP_SID_DECAY;
}

static mh_status sid_voice(void *context, unsigned index, mh_chip_sid_voice *out)
{
    c64 *m = context;
    if (index > 2 || !out || out->struct_size < sizeof(uint32_t)) return MH_ERR_INVALID_ARGUMENT;
    sync_now(m);
    const m6581_voice *v = &m->sid.chip.voice[index];
    mh_chip_sid_voice full;
    memset(&full, 0, sizeof full);
    full.struct_size = sizeof full;
    full.freq = (uint16_t)v->freq;
    full.pw = (uint16_t)v->pw;
    full.control = v->ctrl;
    full.attack_decay = v->ad;
    full.sustain_release = v->sr;
    full.phase = voice_phase(v);
    full.level = v->env;
    full.held_at_zero = v->hold_zero;
    full.wave_output = (uint16_t)m6581_wave_output(&m->sid.chip, (int)index);
    full.accumulator = v->acc;
    full.noise_lfsr = v->lfsr;
    full.rate_counter = v->rate_counter;
    full.rate_period = (uint16_t)(v->rate_period + 1u); /* compare value + the reset cycle */
    uint32_t size = out->struct_size < sizeof full ? out->struct_size : (uint32_t)sizeof full;
    memcpy((char *)out + sizeof(uint32_t), (const char *)&full + sizeof(uint32_t),
           size - sizeof(uint32_t));
    return MH_OK;
}

static mh_status sid_filter(void *context, mh_chip_sid_filter *out)
{
    c64 *m = context;
    if (!out || out->struct_size < sizeof(uint32_t)) return MH_ERR_INVALID_ARGUMENT;
    const m6581 *chip = &m->sid.chip;
    mh_chip_sid_filter full;
    memset(&full, 0, sizeof full);
    full.struct_size = sizeof full;
    full.cutoff = (uint16_t)((chip->regs[M6581_REG_FC_LO] & 7u) |
                             ((uint32_t)chip->regs[M6581_REG_FC_HI] << 3));
    full.resonance = (uint8_t)(chip->regs[M6581_REG_RES_FILT] >> 4);
    full.routing = (uint8_t)(chip->regs[M6581_REG_RES_FILT] & 0x0F);
    full.mode = (uint8_t)(chip->regs[M6581_REG_MODE_VOL] >> 4);
    full.volume = (uint8_t)(chip->regs[M6581_REG_MODE_VOL] & 0x0F);
    full.cutoff_hz = m6581_cutoff_hz((m6581_model)chip->model, full.cutoff);
    uint32_t size = out->struct_size < sizeof full ? out->struct_size : (uint32_t)sizeof full;
    memcpy((char *)out + sizeof(uint32_t), (const char *)&full + sizeof(uint32_t),
           size - sizeof(uint32_t));
    return MH_OK;
}

static const char *sid_model_name(void *context)
{
    return c64_sid_model_name((c64_sid_model)((c64 *)context)->sid.model);
}

static uint32_t sid_sample_rate(void *context)
{
    (void)context;
    return C64_AUDIO_RATE;
}

static uint32_t sid_clock_hz(void *context) { return ((c64 *)context)->clock_hz; }

static uint32_t sid_frame_cycles(void *context)
{
    return ((c64 *)context)->geometry->cycles_per_frame;
}

static int sid_sound_enabled(void *context) { return ((c64 *)context)->sid.sound; }

static size_t sid_audio_read(void *context, int16_t *out, size_t max)
{
    c64 *m = context;
    sync_now(m);
    c64_sid_drain(&m->sid);
    return c64_sid_audio_read(&m->sid, out, max);
}

static uint64_t sid_audio_dropped(void *context)
{
    const c64 *m = context;
    return (uint64_t)m->sid.dropped + m->sid.chip.dropped;
}

static void sid_tap_start(void *context)
{
    c64 *m = context;
    sync_now(m); /* samples before this moment are not the tap's */
    m6581_tap(&m->sid.chip, 1);
}

static void sid_tap_stop(void *context) { m6581_tap(&((c64 *)context)->sid.chip, 0); }

static size_t sid_tap_read(void *context, unsigned v, int16_t *out, size_t max)
{
    c64 *m = context;
    sync_now(m);
    return m6581_tap_read(&m->sid.chip, (int)v, out, max);
}

static uint32_t sid_tap_dropped(void *context) { return ((c64 *)context)->sid.chip.tap_dropped; }

/* $D400-$D7FF: the SID's 32 bytes repeat (the debug cart's $D7FF, when
 * on, is the machine's, not the SID's). */
static void sid_io_range(void *context, mh_chip_io_range *out)
{
    (void)context;
    out->base = C64_SID_BASE;
    out->size = 0x400;
}

static const mh_chip_sid_iface sid_iface = {
    sizeof(mh_chip_sid_iface), sid_peek,          sid_write,         sid_voice,
    sid_filter,                sid_model_name,    sid_sample_rate,   sid_clock_hz,
    sid_frame_cycles,          sid_sound_enabled, sid_audio_read,    sid_audio_dropped,
    sid_tap_start,             sid_tap_stop,      sid_tap_read,      sid_tap_dropped,
    sid_io_range,
};

/* mh.audio/1: the SID's stream, as every machine's sound is offered. */
static const char *audio_source(void *context)
{
    return ((c64 *)context)->config.sid_model == C64_SID_8580 ? "SID 8580" : "SID 6581";
}

static const mh_audio_iface audio_iface = {
    sizeof(mh_audio_iface), sid_sample_rate, sid_sound_enabled, sid_audio_read, audio_source,
    sid_clock_hz,           sid_frame_cycles,
};

size_t c64_sid_chips(c64 *m, mh_chip *chips)
{
    chips[0].struct_size = sizeof(mh_chip);
    chips[0].interface_id = MH_CHIP_SID_IFACE;
    chips[0].instance = "sid";
    chips[0].description = m->config.sid_model == C64_SID_8580 ? "MOS 8580 SID" : "MOS 6581 SID";
    chips[0].vtable = &sid_iface;
    chips[0].context = m;
    chips[1] = chips[0];
    chips[1].interface_id = MH_IFACE_AUDIO;
    chips[1].instance = "audio";
    chips[1].vtable = &audio_iface;
    return 2;
}
