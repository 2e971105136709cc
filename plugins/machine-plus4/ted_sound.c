/* ted_sound.c - the TED's two voices: 10-bit counters stepped every 8
 * ticks (double clock / 8); when one passes $3FF it reloads from its
 * frequency register and its square output flips, so a voice sounds at
 * clock / 16 / (1024 - register) Hz. Voice 2 can instead give noise: an
 * 8-bit shift register clocked by its flips. $FF11: bits 0-3 volume
 * (above 8 acts as 8), bit 4 voice 1 on, bit 5 voice 2 square, bit 6
 * voice 2 noise, bit 7 D/A mode (the enabled voices hold their level).
 * Samples are taken at TED_AUDIO_RATE by point sampling into a ring. */
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

static void sample(ted *t);

void ted_sound_step(ted *t)
{
    if (!t->sound_on) return;
    for (int v = 0; v < 2; v++) {
        if (++t->snd_count[v] < 1024u) continue;
        t->snd_count[v] = ted_voice_freq(t, v);
        t->snd_out[v] ^= 1u;
        if (v == 1) { /* noise: 8-bit LFSR, taps 7, 5, 4, 3 */
            uint8_t l = t->noise_lfsr;
            uint8_t bit = (uint8_t)(((l >> 7) ^ (l >> 5) ^ (l >> 4) ^ (l >> 3)) & 1u);
            t->noise_lfsr = (uint8_t)((l << 1) | (bit ^ 1u));
        }
    }
    sample(t);
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

/* Every 8 ticks: a sample when the 44.1 kHz clock has passed one. */
static void sample(ted *t)
{
    t->sample_acc += 8u * TED_AUDIO_RATE;
    if (t->sample_acc < t->clock_hz) return;
    t->sample_acc -= t->clock_hz;
    uint32_t tail = (t->ring_head + t->ring_count) & (TED_AUDIO_RING - 1u);
    t->ring[tail] = level(t);
    if (t->ring_count < TED_AUDIO_RING) t->ring_count++;
    else t->ring_head = (t->ring_head + 1u) & (TED_AUDIO_RING - 1u); /* drop the oldest */
}

size_t ted_audio_read(ted *t, int16_t *out, size_t max)
{
    size_t n = 0;
    while (n < max && t->ring_count) {
        out[n++] = t->ring[t->ring_head];
        t->ring_head = (t->ring_head + 1u) & (TED_AUDIO_RING - 1u);
        t->ring_count--;
    }
    return n;
}
