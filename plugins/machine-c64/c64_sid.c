/* c64_sid.c - the C64's SID: the synthesis module clocked lazily, the
 * register-storage reads with sound off, the audio ring (see c64_sid.h). */
#include "c64_sid.h"

#include <string.h>

int c64_sid_init(c64_sid *sid, c64_sid_model model, int sound, uint32_t clock_hz)
{
    memset(sid, 0, sizeof *sid);
    sid->model = (uint8_t)model;
    sid->sound = sound ? 1u : 0u;
    m6581_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.model = model == C64_SID_8580 ? M6581_MODEL_8580 : M6581_MODEL_6581;
    desc.clock_hz = clock_hz;
    desc.sample_rate = C64_AUDIO_RATE;
    return m6581_init(&sid->chip, &desc) == MH_OK ? 0 : -1;
}

void c64_sid_reset(c64_sid *sid, uint64_t now)
{
    m6581_reset(&sid->chip);
    sid->cycles = now;
}

void c64_sid_sync(c64_sid *sid, uint64_t now)
{
    if (now <= sid->cycles) return;
    uint64_t left = now - sid->cycles;
    sid->cycles = now;
    if (!sid->sound) return;
    while (left) {
        uint32_t step = left > 0x10000u ? 0x10000u : (uint32_t)left;
        m6581_clock(&sid->chip, step);
        left -= step;
        if (left) c64_sid_drain(sid); /* a long catch-up: keep the chip's ring from filling */
    }
}

void c64_sid_drain(c64_sid *sid)
{
    int16_t buf[1024];
    size_t n;
    while (sid->chip.ring_count && (n = m6581_samples(&sid->chip, buf, 1024)) > 0) {
        for (size_t i = 0; i < n; i++) {
            if (sid->ring_count == C64_AUDIO_RING) {
                sid->dropped += (uint32_t)(n - i);
                break;
            }
            sid->ring[(sid->ring_read + sid->ring_count) & (C64_AUDIO_RING - 1u)] = buf[i];
            sid->ring_count++;
        }
    }
}

uint8_t c64_sid_peek(const c64_sid *sid, uint16_t reg)
{
    reg &= 0x1F;
    if (sid->sound) return m6581_peek(&sid->chip, reg);
    switch (reg) {
    case 0x19: case 0x1A: return 0xFF; /* POTX/POTY: no paddles */
    case 0x1B: case 0x1C: return 0x00; /* OSC3/ENV3: no synthesis with sound off */
    case 0x1D: case 0x1E: case 0x1F: return 0xFF;
    default: return sid->chip.regs[reg];
    }
}

uint8_t c64_sid_read(c64_sid *sid, uint16_t reg)
{
    return sid->sound ? m6581_read(&sid->chip, (uint16_t)(reg & 0x1F)) : c64_sid_peek(sid, reg);
}

void c64_sid_write(c64_sid *sid, uint16_t reg, uint8_t value)
{
    m6581_write(&sid->chip, (uint16_t)(reg & 0x1F), value);
}

size_t c64_sid_audio_read(c64_sid *sid, int16_t *out, size_t max)
{
    size_t n = 0;
    while (n < max && sid->ring_count) {
        out[n++] = sid->ring[sid->ring_read];
        sid->ring_read = (sid->ring_read + 1u) & (C64_AUDIO_RING - 1u);
        sid->ring_count--;
    }
    return n;
}

const char *c64_sid_model_name(c64_sid_model model)
{
    return model == C64_SID_8580 ? "8580" : "6581";
}
