/* ted_sound.c - the TED's two voices: 10-bit counters stepped every 8
 * ticks (double clock / 8); when one passes $3FF it reloads from its
 * frequency register and its square output flips, so a voice sounds at
 * clock / 16 / (1024 - register) Hz. Voice 2 can instead give noise: an
 * 8-bit shift register clocked by its flips. $FF11: bits 0-3 volume
 * (above 8 acts as 8), bit 4 voice 1 on, bit 5 voice 2 square, bit 6
 * voice 2 noise, bit 7 D/A mode (the enabled voices hold their level).
 *
 * The voices are counted lazily and the samples (TED_AUDIO_RATE, point
 * sampling into a ring) made in bulk: before a sound register changes,
 * between the machine's run chunks, at the end of a run and when the
 * stream is read, so the per-cycle path never touches them. */
#include "ted.h"
#include "ted_internal.h"

uint16_t ted_voice_freq(const ted *t, int voice)
{
    return voice == 0 ? (uint16_t)(((t->regs[0x12] & 3u) << 8) | t->regs[0x0E])
                      : (uint16_t)(((t->regs[0x10] & 3u) << 8) | t->regs[0x0F]);
}

double ted_voice_hz(const ted *t, int voice)
{
    const unsigned f = ted_voice_freq(t, voice);
    return (double)t->clock_hz / 16.0 / (double)(1024u - f);
}

static void noise_step(ted *t)
{
    /* 8-bit LFSR, taps 7, 5, 4, 3 */
    uint8_t l = t->noise_lfsr;
    uint8_t bit = (uint8_t)(((l >> 7) ^ (l >> 5) ^ (l >> 4) ^ (l >> 3)) & 1u);
    t->noise_lfsr = (uint8_t)((l << 1) | (bit ^ 1u));
}

/* Voice v's counter `steps` steps on. */
static void voice_advance(ted *t, int v, uint64_t steps)
{
    const uint16_t freq = ted_voice_freq(t, v);
    const uint64_t period = 1024u - freq;
    uint64_t to_flip = 1024u - t->snd_count[v];
    if (steps < to_flip) {
        t->snd_count[v] = (uint16_t)(t->snd_count[v] + steps);
        return;
    }
    steps -= to_flip;
    uint64_t flips = 1 + steps / period;
    t->snd_count[v] = (uint16_t)(freq + steps % period);
    if (flips & 1u) t->snd_out[v] ^= 1u;
    if (v == 1) {
        /* After a long gap the noise's phase is nobody's business: at most
         * 1024 shifts. */
        uint64_t shifts = flips > 1024u ? 1024u + (flips & 1u) : flips;
        while (shifts--) noise_step(t);
    }
}

/* The voices up to tick `to` (>= snd_tick). */
static void sync_to(ted *t, uint64_t to)
{
    uint64_t steps = (to >> 3) - (t->snd_tick >> 3);
    t->snd_tick = to;
    if (!steps) return;
    voice_advance(t, 0, steps);
    voice_advance(t, 1, steps);
}

static int16_t level(const ted *t);
static void schedule_sample(ted *t);

void ted_sound_flush(ted *t)
{
    while (t->ticks >= t->sample_event) {
        sync_to(t, t->sample_event);
        uint32_t tail = (t->ring_head + t->ring_count) & (TED_AUDIO_RING - 1u);
        t->ring[tail] = level(t);
        if (t->ring_count < TED_AUDIO_RING) t->ring_count++;
        else t->ring_head = (t->ring_head + 1u) & (TED_AUDIO_RING - 1u); /* drop the oldest */
        t->sample_count++;
        schedule_sample(t);
    }
}

void ted_sound_sync(ted *t)
{
    if (!t->sound_on) return;
    ted_sound_flush(t); /* the samples before now, with the settings until now */
    sync_to(t, t->ticks);
}

static void schedule_sample(ted *t)
{
    t->sample_event = t->sound_on ? t->sample_base + (t->sample_count + 1u) * t->clock_hz /
                                                         TED_AUDIO_RATE
                                  : UINT64_MAX;
}

void ted_sound_restart(ted *t)
{
    t->snd_tick = t->ticks;
    t->sample_base = t->ticks;
    t->sample_count = 0;
    schedule_sample(t);
}

static int16_t level(const ted *t)
{
    const uint8_t c = t->regs[0x11];
    unsigned volume = c & 15u;
    if (volume > 8) volume = 8;
    const int amp = (int)volume * 1800;
    const int da = (c & 0x80u) != 0;
    int out = 0;
    if (c & 0x10u) out += (da || t->snd_out[0]) ? amp : -amp;
    if (c & 0x20u) out += (da || t->snd_out[1]) ? amp : -amp;
    else if (c & 0x40u) out += (da || (t->noise_lfsr & 1u)) ? amp : -amp;
    return (int16_t)out;
}

size_t ted_audio_read(ted *t, int16_t *out, size_t max)
{
    ted_sound_flush(t);
    size_t n = 0;
    while (n < max && t->ring_count) {
        out[n++] = t->ring[t->ring_head];
        t->ring_head = (t->ring_head + 1u) & (TED_AUDIO_RING - 1u);
        t->ring_count--;
    }
    return n;
}
