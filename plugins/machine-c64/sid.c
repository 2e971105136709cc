/* sid.c - the MOS 6581 / 8580 SID synthesis module (sid.h, docs/sid.md). */
#include "sid.h"

#include <string.h>

#define SID_DEFAULT_CLOCK 985248u
#define SID_DEFAULT_RATE 44100u

/* Rate counter compare values: a step every value + 1 cycles (the
 * counter runs 0..value, then a cycle to reset), after the datasheet's
 * attack times 2 ms ... 8 s at 1 MHz: periods 9, 32, 63 ... 31251 (decay/
 * release are 3x: the exponential counter makes a full decay take ~756
 * periods instead of 255). */
static const uint16_t rate_period_table[16] = {
    8, 31, 62, 94, 148, 219, 266, 312, 391, 976, 1953, 3125, 3906, 11719, 19531, 31250};

/* Cutoff curves: (register, Hz) points, linearly interpolated. The 6581
 * points are shaped after the usual measured curves (flat ~220 Hz bottom,
 * steep rise above $400); the 8580 is linear, 30 Hz ... 12.5 kHz. */
typedef struct sid_point {
    uint16_t fc;
    uint16_t hz;
} sid_point;

static const sid_point curve_6581[] = {
    {0x000, 220},  {0x100, 270},  {0x200, 330},  {0x300, 450},  {0x380, 650},
    {0x400, 1000}, {0x480, 1700}, {0x500, 2600}, {0x580, 3700}, {0x600, 5000},
    {0x680, 6600}, {0x700, 8700}, {0x780, 12000}, {0x7FF, 18000}};
static const sid_point curve_8580[] = {{0x000, 30}, {0x7FF, 12500}};

/* The integrator coefficient is capped at this cutoff for stability of the
 * one-cycle Euler step (as in reSID). */
#define SID_W0_CAP_HZ 16000u

uint32_t m6581_cutoff_hz(m6581_model model, uint32_t fc)
{
    const sid_point *p = model == M6581_MODEL_8580 ? curve_8580 : curve_6581;
    size_t n = model == M6581_MODEL_8580 ? sizeof curve_8580 / sizeof curve_8580[0]
                                          : sizeof curve_6581 / sizeof curve_6581[0];
    fc &= 0x7FFu;
    for (size_t i = 1; i < n; i++) {
        if (fc <= p[i].fc) {
            uint32_t span = (uint32_t)(p[i].fc - p[i - 1].fc);
            int32_t dh = (int32_t)p[i].hz - (int32_t)p[i - 1].hz;
            return (uint32_t)((int32_t)p[i - 1].hz +
                              dh * (int32_t)(fc - p[i - 1].fc) / (int32_t)span);
        }
    }
    return p[n - 1].hz;
}

static void update_filter(m6581 *sid)
{
    uint32_t hz = m6581_cutoff_hz((m6581_model)sid->model, sid->fc);
    if (hz > SID_W0_CAP_HZ) hz = SID_W0_CAP_HZ;
    /* w0 = 2*pi*f/clock in 2^-20 units */
    sid->w0 = (int32_t)(6.283185307179586 * (double)hz * 1048576.0 / (double)sid->clock_hz);
    uint32_t res = sid->res_filt >> 4;
    /* 1/Q from 1/0.707 (no resonance) down to ~0.58 */
    sid->q_1024 = (int32_t)(1024.0 / (0.707 + (double)res / 15.0));
}

/* What a voice keeps for the per-cycle code but the model and its control
 * register decide: made here from them, never stored on its own. */
static void voice_derive(const m6581 *sid, m6581_voice *v)
{
    uint8_t ctrl = v->ctrl;
    v->is_8580 = sid->model == M6581_MODEL_8580;
    v->msb_pulldown = sid->model == M6581_MODEL_6581 && (ctrl & M6581_CTRL_SAW) &&
                      (ctrl & (M6581_CTRL_TRI | M6581_CTRL_PULSE | M6581_CTRL_NOISE));
}

static inline void env_update_busy(m6581_voice *v);

void m6581_restored(m6581 *sid)
{
    update_filter(sid);
    /* a snapshot's copies could disagree with its model and registers */
    for (int i = 0; i < 3; i++) voice_derive(sid, &sid->voice[i]);
    for (int i = 0; i < 3; i++) env_update_busy(&sid->voice[i]);
}

mh_status m6581_init(m6581 *sid, const m6581_desc *desc)
{
    if (!sid || !desc) return MH_ERR_INVALID_ARGUMENT;
    if (desc->model != M6581_MODEL_6581 && desc->model != M6581_MODEL_8580)
        return MH_ERR_INVALID_ARGUMENT;
    uint32_t clock = desc->clock_hz ? desc->clock_hz : SID_DEFAULT_CLOCK;
    uint32_t rate = desc->sample_rate ? desc->sample_rate : SID_DEFAULT_RATE;
    if (rate > clock) return MH_ERR_INVALID_ARGUMENT;
    memset(sid, 0, sizeof *sid);
    sid->model = (uint8_t)desc->model;
    /* Power-up: the accumulators' cells come up all 1s, every odd bit
     * stored inverted: $555555 (VICE testprogs SID/oscinit). */
    for (int i = 0; i < 3; i++) sid->voice[i].acc = 0x555555u;
    for (int i = 0; i < 3; i++) sid->voice[i].acc_prev = 0x555555u;
    sid->clock_hz = clock;
    sid->sample_rate = rate;
    sid->potx = desc->potx ? (uint8_t)desc->potx : 0xFF;
    sid->poty = desc->poty ? (uint8_t)desc->poty : 0xFF;
    if (desc->model == M6581_MODEL_6581) {
        /* waveform DAC zero at $380, a voice DC of $800*$FF, the mixer DC:
         * with silent voices the mixer input is far from 0, so the volume
         * DAC scales a large DC level (the $D418 digis). */
        sid->wave_zero = 0x380;
        sid->voice_dc = 0x800 * 0xFF;
        sid->mixer_dc = -(0xFFF * 0xFF / 18) >> 7;
    } else {
        /* 8580: centred waveforms, no voice DC, a small mixer DC (about
         * 1/20 of the 6581's total), so digis are faint. */
        sid->wave_zero = 0x800;
        sid->voice_dc = 0;
        sid->mixer_dc = 600;
    }
    /* one-pole high-pass at ~16 Hz on the output samples: k = 2*pi*16/fs */
    sid->hp_k = (int32_t)(6.283185307179586 * 16.0 * 65536.0 / (double)rate);
    if (sid->hp_k < 1) sid->hp_k = 1;
    m6581_reset(sid);
    return MH_OK;
}

void m6581_reset(m6581 *sid)
{
    memset(sid->regs, 0, sizeof sid->regs);
    for (int i = 0; i < 3; i++) {
        m6581_voice *v = &sid->voice[i];
        /* /RES does not touch the accumulators (oscinit: $555555 from
         * power-up survives a reset). The noise register is filled with 1s
         * and clocked once as /RES is released: bit 0 = (bit 22 | reset)
         * ^ bit 17 = 0, so noise reads $FE. */
        uint32_t acc = v->acc;
        memset(v, 0, sizeof *v);
        v->acc = v->acc_prev = acc;
        voice_derive(sid, v);
        v->lfsr = 0x7FFFFEu;
        v->env_state = M6581_ENV_RELEASE;
        v->rate_period = rate_period_table[0];
        v->exp_period = 1;
        v->hold_zero = 1;
    }
    sid->bus_value = 0;
    sid->bus_ttl = 0;
    sid->fc = 0;
    sid->res_filt = 0;
    sid->mode_vol = 0;
    sid->vhp = sid->vbp = sid->vlp = 0;
    update_filter(sid);
}

/* LFSR bits 20,18,14,11,9,5,2,0 -> waveform bits 11..4. */
static inline uint32_t noise_bits(uint32_t r)
{
    return ((r >> 9) & 0x800u) | ((r >> 8) & 0x400u) | ((r >> 5) & 0x200u) |
           ((r >> 3) & 0x100u) | ((r >> 2) & 0x080u) | ((r << 1) & 0x040u) |
           ((r << 3) & 0x020u) | ((r << 4) & 0x010u);
}

/* Inverse of noise_bits: the LFSR bits a waveform output zero clears. */
static inline uint32_t noise_writeback_mask(uint32_t out)
{
    return ((out & 0x800u) << 9) | ((out & 0x400u) << 8) | ((out & 0x200u) << 5) |
           ((out & 0x100u) << 3) | ((out & 0x080u) << 2) | ((out & 0x040u) >> 1) |
           ((out & 0x020u) >> 3) | ((out & 0x010u) >> 4);
}

#define NOISE_TAPS 0x5D2B15u /* bits 22,20,18,14,11,9,5,2,0 */

/* 12-bit waveform output of a voice; src_acc is the accumulator of the
 * ring-modulation source. Combined waveforms: AND of the components. */
static inline uint32_t wave_out(const m6581_voice *v, uint32_t src_acc)
{
    /* the 8580 shows triangle, sawtooth and pulse one cycle later
     * (SID/detect: the sawtooth read 4 cycles after the test bit's release
     * is one step behind the 6581's; SID/waveforms: its pulse rises a
     * cycle later) */
    uint32_t acc = v->is_8580 ? v->acc_prev : v->acc;
    uint32_t sel = v->ctrl >> 4;
    if (sel == 0) return v->held_out;
    uint32_t out = 0xFFFu;
    if (sel & 1u) {
        /* The triangle's XOR inverts the accumulator bits when
         * TriXOR = !saw & ((!src_msb & ring) ^ msb): ring modulation puts
         * msb ^ NOT the source's msb in place of the msb, and with the
         * sawtooth selected nothing is inverted (SID/ringmod). */
        uint32_t tri_xor = (v->ctrl & M6581_CTRL_SAW) ? 0u
                         : ((v->ctrl & M6581_CTRL_RING) ? acc ^ ~src_acc : acc) & 0x800000u;
        out &= ((tri_xor ? ~acc : acc) >> 11) & 0xFFFu;
    }
    if (sel & 2u) out &= acc >> 12;
    /* The pulse comparator's output is latched: on both models it follows
     * the accumulator a cycle late (SID/resid-test/oscsample: the 6581's
     * pulse rises a cycle after its triangle and sawtooth would show it) */
    if (sel & 4u)
        out &= ((v->ctrl & M6581_CTRL_TEST) || (v->acc_prev >> 12) >= v->pw) ? 0xFFFu : 0u;
    if (sel & 8u) {
        uint32_t noise = noise_bits(v->lfsr);
        /* 8580, noise + pulse alone: a high pulse does not simply pass the
         * noise bits; each is pulled down by its lower neighbour, and near
         * the top the output saturates at $FC0 (reSIDfp's model of the
         * samplings; the wb_testsuite's 8580 C->E clocks exactly this back
         * into the register). The 6581's sampling (8->C) shows the noise
         * passing unchanged at $FF0, so it keeps the plain AND. */
        if ((sel & 0xFu) == 0xCu && out && v->is_8580)
            noise = noise < 0xFC0u ? noise & (noise << 1) : 0xFC0u;
        out &= noise;
    }
    return out;
}

uint32_t m6581_wave_output(const m6581 *sid, int v)
{
    if (v < 0 || v > 2) return 0;
    return wave_out(&sid->voice[v], sid->voice[(v + 2) % 3].acc);
}

static inline void env_set_period(m6581_voice *v)
{
    switch (v->env) {
    case 0xFF: v->exp_period = 1; break;
    case 0x5D: v->exp_period = 2; break;
    case 0x36: v->exp_period = 4; break;
    case 0x1A: v->exp_period = 8; break;
    case 0x0E: v->exp_period = 16; break;
    case 0x06: v->exp_period = 30; break;
    case 0x00:
        v->exp_period = 1;
        v->hold_zero = 1;
        break;
    default: break;
    }
}

/* Whether the per-cycle code must run the envelope pipeline: a stage is
 * pending, or ENV3 has still to latch a changed counter. */
static inline void env_update_busy(m6581_voice *v)
{
    v->env_busy = (uint8_t)((v->state_pipe | v->step_pipe | v->exp_pipe | v->rate_hit |
                             (v->env3 ^ v->env)) != 0);
}

/* The envelope pipeline's slow path, run in a cycle where anything is
 * pending (a gate change, a step, a rate-counter or exponential-counter
 * match). The chip's envelope is a chain of latches: each stage acts a
 * cycle after the one before it, which is what ENV3 read a few cycles
 * after a gate change shows (SID/env_test). In order, within one cycle:
 *   1. a gate change walks towards its state: attack takes effect 2 cycles
 *      after gate on (3 when an exponential match is one cycle from firing)
 *      and until then the decay rate is compared and the state counts as
 *      decay; release takes effect 2 cycles after gate off from attack
 *      (3 when a step is pending), 1 cycle after it from decay/sustain;
 *   2. a pending step lands: up in attack ($FF ends the attack), down in
 *      decay (stopping at the sustain level when the step was decided) and
 *      release; then the exponential period follows the new counter;
 *   3. an exponential-counter match resets that counter and schedules the
 *      step for the next cycle - or else a rate-counter match (last cycle)
 *      resets the rate counter: in attack it schedules the step 2 cycles
 *      on, otherwise it clocks the exponential counter, whose match fires
 *      one cycle later (period 1) or two (longer periods). */
static void env_pipeline(m6581_voice *v)
{
    /* ENV3 latches the counter in the cycle's first phase */
    v->env3 = v->env;
    if (v->state_pipe) {
        v->state_pipe--;
        if (v->env_next == M6581_ENV_ATTACK) {
            if (v->state_pipe == 0) {
                v->env_state = M6581_ENV_ATTACK;
                v->rate_period = rate_period_table[v->ad >> 4];
                v->hold_zero = 0;
            }
        } else if ((v->env_state == M6581_ENV_ATTACK && v->state_pipe == 0) ||
                   (v->env_state == M6581_ENV_DECAY_SUSTAIN && v->state_pipe == 1)) {
            v->env_state = M6581_ENV_RELEASE;
            v->rate_period = rate_period_table[v->sr & 0x0F];
        }
    }
    if (v->step_pipe && --v->step_pipe == 0 && !v->hold_zero) {
        if (v->env_state == M6581_ENV_ATTACK) {
            v->env = (uint8_t)(v->env + 1);
            if (v->env == 0xFF) {
                v->env_state = M6581_ENV_DECAY_SUSTAIN;
                v->rate_period = rate_period_table[v->ad & 0x0F];
            }
        } else {
            v->env = (uint8_t)(v->env - 1);
        }
        env_set_period(v);
    }
    if (v->exp_pipe) {
        if (--v->exp_pipe == 0) {
            v->exp_counter = 0;
            if (v->env_state == M6581_ENV_RELEASE ||
                (v->env_state == M6581_ENV_DECAY_SUSTAIN &&
                 v->env != (uint8_t)((v->sr >> 4) * 0x11)))
                v->step_pipe = 1;
        }
    } else if (v->rate_hit) {
        v->rate_hit = 0;
        v->rate_counter = 0;
        if (v->env_state == M6581_ENV_ATTACK) {
            /* the first attack step also resets the exponential counter */
            v->exp_counter = 0;
            v->step_pipe = 2;
        } else if (!v->hold_zero && ++v->exp_counter == v->exp_period) {
            v->exp_pipe = v->exp_period != 1 ? 2 : 1;
        }
    }
    env_update_busy(v);
}

/* The gate bit changed: the state follows through the pipeline. Gate on
 * compares the decay rate at once (the state counts as decay until the
 * attack takes effect); a step already decided still lands, 2 or 4 cycles
 * on, and an exponential match one cycle from firing delays the attack by
 * a cycle. */
static void env_gate(m6581_voice *v, int on)
{
    if (on) {
        v->env_next = M6581_ENV_ATTACK;
        v->env_state = M6581_ENV_DECAY_SUSTAIN;
        v->rate_period = rate_period_table[v->ad & 0x0F];
        v->state_pipe = 2;
        if (v->rate_hit || v->exp_pipe == 2)
            v->step_pipe = (v->exp_period == 1 || v->exp_pipe == 2) ? 2 : 4;
        else if (v->exp_pipe == 1)
            v->state_pipe = 3;
    } else {
        v->env_next = M6581_ENV_RELEASE;
        v->state_pipe = v->step_pipe ? 3 : 2;
    }
    v->env_busy = 1;
}

/* Per model: cycles the test bit must be held for the noise register to
 * fill with 1s (the cells leak slowly: the VICE wb_testsuite waits ~1 s on
 * the 6581, ~10 s on the 8580; the 6581's 50000 is reSIDfp's warm-chip
 * measurement - the real 6581's SID/resid-test/oscsample reference keeps
 * the register through holds of ~34700 cycles), and
 * how long the waveform DAC's input keeps its last value with no waveform
 * selected (SID/osc3-wave0: held at once, 0 after ~3 s). */
static const uint32_t lfsr_fill_cycles[2] = {50000u, 0x950000u};
static const uint32_t floating_ttl_cycles[2] = {54000u, 800000u};

/* The noise register's shift, and what a combined waveform's output
 * writes back into it: a 0 in an output bit clears the register bit
 * feeding it. bit0 = (bit 22 | test) ^ bit 17. */
static void noise_shift(m6581_voice *v, uint32_t src_acc, int test)
{
    uint32_t r = v->lfsr;
    if ((v->ctrl & M6581_CTRL_NOISE) && (v->ctrl & 0x70u)) {
        uint32_t o = wave_out(v, src_acc);
        r &= ~noise_writeback_mask(~o & 0xFF0u);
    }
    uint32_t bit0 = (((r >> 22) | (uint32_t)test) ^ (r >> 17)) & 1u;
    v->lfsr = ((r << 1) | bit0) & 0x7FFFFFu;
}

/* Whether releasing the test bit writes the old waveform's output back
 * into the noise register before the shift: only an old combined waveform
 * with noise does, and not into plain noise; after noise+pulse the 6581
 * never does and the 8580 only into noise+triangle or noise+pulse+saw
 * (reSIDfp's findings from the wb_testsuite samplings). */
static int release_writes_back(uint32_t old_sel, uint32_t new_sel, int is_8580)
{
    if (old_sel <= 8u || new_sel == 8u) return 0;
    if (old_sel == 0xCu) return is_8580 && (new_sel == 9u || new_sel == 0xEu);
    return 1;
}

static void voice_control(m6581 *sid, int n, uint8_t value)
{
    m6581_voice *v = &sid->voice[n];
    uint32_t src_acc = sid->voice[(n + 2) % 3].acc;
    uint8_t old = v->ctrl;
    if ((value >> 4) == 0 && (old >> 4) != 0) {
        /* no waveform: the DAC keeps the last output for a while */
        v->held_out = wave_out(v, src_acc);
        v->held_ttl = floating_ttl_cycles[sid->model & 1u];
    }
    v->ctrl = value;
    voice_derive(sid, v);
    if ((old ^ value) & M6581_CTRL_GATE) env_gate(v, value & M6581_CTRL_GATE);
    if ((value & M6581_CTRL_TEST) && !(old & M6581_CTRL_TEST)) {
        v->acc = 0;
        v->shift_delay = 0;
        v->lfsr_reset_left = lfsr_fill_cycles[sid->model & 1u];
    } else if (!(value & M6581_CTRL_TEST) && (old & M6581_CTRL_TEST)) {
        /* releasing the test bit clocks the noise register once */
        v->lfsr_reset_left = 0;
        uint32_t r = v->lfsr;
        if (release_writes_back(old >> 4, value >> 4, sid->model == M6581_MODEL_8580)) {
            v->ctrl = old;
            r &= ~noise_writeback_mask(~wave_out(v, src_acc) & 0xFF0u);
            v->ctrl = value;
        }
        uint32_t bit0 = (1u ^ (r >> 17)) & 1u; /* (bit 22 | test) ^ bit 17 */
        v->lfsr = ((r << 1) | bit0) & 0x7FFFFFu;
    }
}

void m6581_write(m6581 *sid, uint16_t reg, uint8_t value)
{
    reg &= 0x1Fu;
    sid->bus_value = value;
    sid->bus_ttl = M6581_BUS_TTL;
    sid->regs[reg] = value;
    if (reg < 0x15) {
        m6581_voice *v = &sid->voice[reg / 7];
        switch (reg % 7) {
        case M6581_REG_FREQ_LO: v->freq = (v->freq & 0xFF00u) | value; break;
        case M6581_REG_FREQ_HI: v->freq = (v->freq & 0x00FFu) | ((uint32_t)value << 8); break;
        case M6581_REG_PW_LO: v->pw = (v->pw & 0xF00u) | value; break;
        case M6581_REG_PW_HI: v->pw = (v->pw & 0x0FFu) | ((uint32_t)(value & 0x0F) << 8); break;
        case M6581_REG_CTRL: voice_control(sid, reg / 7, value); break;
        case M6581_REG_AD:
            v->ad = value;
            if (v->env_state == M6581_ENV_ATTACK) v->rate_period = rate_period_table[value >> 4];
            else if (v->env_state == M6581_ENV_DECAY_SUSTAIN)
                v->rate_period = rate_period_table[value & 0x0F];
            break;
        default: /* SR */
            v->sr = value;
            if (v->env_state == M6581_ENV_RELEASE) v->rate_period = rate_period_table[value & 0x0F];
            break;
        }
        return;
    }
    switch (reg) {
    case M6581_REG_FC_LO:
        sid->fc = (uint16_t)((sid->fc & 0x7F8u) | (value & 7u));
        update_filter(sid);
        break;
    case M6581_REG_FC_HI:
        sid->fc = (uint16_t)((sid->fc & 7u) | ((uint32_t)value << 3));
        update_filter(sid);
        break;
    case M6581_REG_RES_FILT:
        sid->res_filt = value;
        update_filter(sid);
        break;
    case M6581_REG_MODE_VOL: sid->mode_vol = value; break;
    default: break;
    }
}

uint8_t m6581_peek(const m6581 *sid, uint16_t reg)
{
    switch (reg & 0x1Fu) {
    case M6581_REG_POTX: return sid->potx;
    case M6581_REG_POTY: return sid->poty;
    case M6581_REG_OSC3: return (uint8_t)(m6581_wave_output(sid, 2) >> 4);
    case M6581_REG_ENV3: return sid->voice[2].env3;
    default: return sid->bus_value;
    }
}

uint8_t m6581_read(m6581 *sid, uint16_t reg)
{
    return m6581_peek(sid, reg);
}

size_t m6581_samples(m6581 *sid, int16_t *out, size_t max)
{
    size_t n = 0;
    if (!out) return 0;
    while (n < max && sid->ring_count) {
        out[n++] = sid->ring[sid->ring_read];
        sid->ring_read = (sid->ring_read + 1u) & (M6581_RING_SIZE - 1u);
        sid->ring_count--;
    }
    return n;
}

static void emit_sample(m6581 *sid, int32_t mixed)
{
    /* high-pass: subtract a slowly tracking DC estimate (kept << 8) */
    int32_t x = mixed;
    int32_t y = x - (sid->hp_lp >> 8);
    sid->hp_lp += (int32_t)(((int64_t)y * sid->hp_k) >> 8);
    if (y > 32767) y = 32767;
    if (y < -32768) y = -32768;
    if (sid->ring_count == M6581_RING_SIZE) {
        sid->dropped++;
        return;
    }
    uint32_t w = (sid->ring_read + sid->ring_count) & (M6581_RING_SIZE - 1u);
    sid->ring[w] = (int16_t)y;
    sid->ring_count++;
}

void m6581_tap(m6581 *sid, int on)
{
    sid->tap_on = on ? 1u : 0u;
    for (int v = 0; v < 3; v++) {
        sid->tap_read[v] = 0;
        sid->tap_count[v] = 0;
        sid->tap_sum[v] = 0;
    }
    sid->tap_dropped = 0;
}

size_t m6581_tap_read(m6581 *sid, int v, int16_t *out, size_t max)
{
    size_t n = 0;
    if (!out || v < 0 || v > 2) return 0;
    while (n < max && sid->tap_count[v]) {
        out[n++] = sid->tap[v][sid->tap_read[v]];
        sid->tap_read[v] = (sid->tap_read[v] + 1u) & (M6581_TAP_SIZE - 1u);
        sid->tap_count[v]--;
    }
    return n;
}

/* One tap sample per voice: the average of the centred voice outputs. */
static void emit_tap(m6581 *sid, int32_t vol, uint32_t count)
{
    for (int v = 0; v < 3; v++) {
        int64_t y = ((sid->tap_sum[v] / (int64_t)count) >> 7) * vol >> 4;
        sid->tap_sum[v] = 0;
        if (sid->tap_count[v] == M6581_TAP_SIZE) {
            if (v == 0) sid->tap_dropped++;
            continue;
        }
        if (y > 32767) y = 32767;
        if (y < -32768) y = -32768;
        sid->tap[v][(sid->tap_read[v] + sid->tap_count[v]) & (M6581_TAP_SIZE - 1u)] = (int16_t)y;
        sid->tap_count[v]++;
    }
}

static inline int32_t tap_centred(const m6581_voice *v, const m6581_voice *src)
{
    return ((int32_t)wave_out(v, src->acc) - 0x800) * (int32_t)v->env;
}

static inline void osc_step(m6581_voice *v, const m6581_voice *src)
{
    v->acc_prev = v->acc;
    if (v->ctrl & M6581_CTRL_TEST) {
        v->msb_rising = 0;
        if (v->lfsr_reset_left && !--v->lfsr_reset_left) v->lfsr = 0x7FFFFFu;
        return;
    }
    uint32_t prev = v->acc;
    /* 6581: a combined waveform with the sawtooth that pulls output bit 11
     * low pulls the accumulator's MSB low with it, and that 0 enters the
     * adder (the 8580 buffers the MSB in a flip-flop; SID/osc_topbit,
     * SID/detect's saw+triangle never showing bit 7 on a 6581). */
    if (v->msb_pulldown && !(wave_out(v, src->acc) & 0x800u)) prev &= ~0x800000u;
    uint32_t acc = (prev + v->freq) & 0xFFFFFFu;
    v->acc = acc;
    v->msb_rising = (uint8_t)(((~prev & acc) >> 23) & 1u);
    /* The noise register shifts in two phases: its output changes two
     * cycles after accumulator bit 19 rises (SID/waveforms: the 6581's
     * noise samples step 2 cycles after the accumulator's). */
    if (v->shift_delay && !--v->shift_delay) noise_shift(v, src->acc, 0);
    if ((~prev & acc) & 0x080000u) v->shift_delay = 2;
    /* Noise combined with another waveform: the selector's output drives
     * the noise register's output bits, so a 0 there clears the register
     * bit, in every cycle (not between the two shift phases). The
     * wb_testsuite sequences ($FE $6C $D8 $B5 ... after a single write of
     * noise+triangle with the accumulator at 0) come out exactly so. */
    if ((v->ctrl & M6581_CTRL_NOISE) && (v->ctrl & 0x70u) && v->shift_delay != 1)
        v->lfsr &= ~noise_writeback_mask(~wave_out(v, src->acc) & 0xFF0u);
}

static inline int32_t env_voice(m6581_voice *v, const m6581_voice *src, int32_t wave_zero,
                                int32_t voice_dc)
{
    if (v->env_busy) env_pipeline(v);
    /* the 15-bit rate counter (an LFSR on the chip, 32767 states) compared
     * for equality: lowered below the count, the period waits a full wrap */
    if (v->rate_counter != v->rate_period) {
        v->rate_counter = (uint16_t)(v->rate_counter + 1u);
        if (v->rate_counter & 0x8000u) v->rate_counter = 1;
    } else {
        v->rate_hit = 1;
        v->env_busy = 1;
    }
    /* a silent envelope multiplies the waveform away: skip computing it */
    if (!v->env) return voice_dc >> 7;
    int32_t w = (int32_t)wave_out(v, src->acc);
    return ((w - wave_zero) * (int32_t)v->env + voice_dc) >> 7;
}

/* A voice that stays silent and still until the next register write: its
 * envelope is held at 0 with nothing pending (only the rate counter runs,
 * and its matches just reset it), and its oscillator does not move (no
 * frequency, no test bit, no sync, no pull-down of the MSB, no noise
 * write-back, no pending noise shift). Its output is the constant DC of a
 * silent voice, its accumulator and noise register keep their values. */
static inline int voice_frozen(const m6581_voice *v)
{
    return v->env == 0 && v->hold_zero && v->env3 == 0 && !v->state_pipe && !v->step_pipe &&
           !v->exp_pipe && v->env_state != M6581_ENV_ATTACK && v->freq == 0 &&
           !(v->ctrl & (M6581_CTRL_TEST | M6581_CTRL_SYNC)) && !v->msb_pulldown &&
           !v->shift_delay && !((v->ctrl & M6581_CTRL_NOISE) && (v->ctrl & 0x70u));
}

/* The rate counter of a frozen voice for one cycle: env_voice() and
 * env_pipeline() reduced to what they do for it. */
static inline void frozen_rate_step(m6581_voice *v)
{
    if (v->rate_hit) {
        v->rate_hit = 0;
        v->rate_counter = 0;
    }
    if (v->rate_counter != v->rate_period) {
        v->rate_counter = (uint16_t)(v->rate_counter + 1u);
        if (v->rate_counter & 0x8000u) v->rate_counter = 1;
    } else {
        v->rate_hit = 1;
    }
}

/* frozen_rate_step() for k cycles at once: the counter climbs to the
 * period (or, set above it, to $7FFF and wraps to 1) in one addition, and
 * whole periods from a match on are skipped. */
static void frozen_rate_run(m6581_voice *v, uint32_t k)
{
    while (k) {
        uint32_t rc = v->rate_counter, p = v->rate_period;
        /* at a match the counter's run repeats every p + 1 cycles */
        if (v->rate_hit && rc == p && k > p) {
            k %= p + 1u;
            if (!k) break;
        }
        uint32_t d = 0;
        if (!v->rate_hit && rc != p) d = rc < p ? p - rc : 0x7FFFu - rc;
        if (d == 0) {
            frozen_rate_step(v);
            k--;
            continue;
        }
        if (d > k) d = k;
        v->rate_counter = (uint16_t)(rc + d);
        k -= d;
    }
}

/* The resampler for k cycles of a constant output. */
static void resample_constant(m6581 *sid, int32_t out, uint32_t k, uint32_t *rs_pos,
                              uint32_t *rs_count, int64_t *rs_sum)
{
    const uint32_t rate = sid->sample_rate, clock = sid->clock_hz;
    while (k) {
        /* cycles until the one whose step crosses the sample boundary */
        uint32_t need = (clock - *rs_pos + rate - 1u) / rate;
        if (need > k) {
            *rs_sum += (int64_t)out * k;
            *rs_count += k;
            *rs_pos += rate * k;
            return;
        }
        *rs_sum += (int64_t)out * need;
        *rs_count += need;
        *rs_pos = *rs_pos + rate * need - clock;
        emit_sample(sid, (int32_t)(*rs_sum / (int64_t)*rs_count));
        *rs_sum = 0;
        *rs_count = 0;
        k -= need;
    }
}

/* m6581_clock() while all three voices are frozen (and no tap is on): the
 * same filter steps and samples from constant voice outputs, without the
 * oscillators and envelopes. Once the filter's state repeats itself it
 * stays (same state, same input): the output is constant from there, and
 * the rest runs in bulk (rate counters to their next match, samples). */
static void clock_quiet(m6581 *sid, uint32_t cycles)
{
    m6581_voice *v0 = &sid->voice[0], *v1 = &sid->voice[1], *v2 = &sid->voice[2];
    const uint32_t filt = sid->res_filt;
    const uint32_t mode = sid->mode_vol;
    const int32_t vol = (int32_t)(mode & 0x0Fu);
    const int32_t silent = sid->voice_dc >> 7;
    const int v3_direct = !(mode & M6581_MODE_3OFF) || (filt & 4u);
    int32_t vi = 0, vnf = 0;
    if (filt & 1u) vi += silent; else vnf += silent;
    if (filt & 2u) vi += silent; else vnf += silent;
    if (filt & 4u) vi += silent; else if (v3_direct) vnf += silent;
    const int64_t w0 = sid->w0, q = sid->q_1024;
    int32_t vhp = sid->vhp, vbp = sid->vbp, vlp = sid->vlp;
    uint32_t rs_pos = sid->rs_pos, rs_count = sid->rs_count;
    int64_t rs_sum = sid->rs_sum;
    const uint32_t rate = sid->sample_rate, clock = sid->clock_hz;
    int settled = 0;
    int32_t out = 0;
    while (cycles && !settled) {
        cycles--;
        frozen_rate_step(v0);
        frozen_rate_step(v1);
        frozen_rate_step(v2);
        const int32_t bp = vbp - (int32_t)((w0 * vhp) >> 20);
        const int32_t lp = vlp - (int32_t)((w0 * bp) >> 20);
        const int32_t hp = (int32_t)(((int64_t)bp * q) >> 10) - lp - vi;
        settled = bp == vbp && lp == vlp && hp == vhp;
        vbp = bp;
        vlp = lp;
        vhp = hp;
        int32_t vf = 0;
        if (mode & M6581_MODE_LP) vf += vlp;
        if (mode & M6581_MODE_BP) vf += vbp;
        if (mode & M6581_MODE_HP) vf += vhp;
        out = ((vnf + vf + sid->mixer_dc) * vol) >> 4;
        rs_sum += out;
        rs_count++;
        rs_pos += rate;
        if (rs_pos >= clock) {
            rs_pos -= clock;
            emit_sample(sid, (int32_t)(rs_sum / (int64_t)rs_count));
            rs_sum = 0;
            rs_count = 0;
        }
    }
    if (cycles) {
        frozen_rate_run(v0, cycles);
        frozen_rate_run(v1, cycles);
        frozen_rate_run(v2, cycles);
        resample_constant(sid, out, cycles, &rs_pos, &rs_count, &rs_sum);
    }
    for (int i = 0; i < 3; i++) {
        m6581_voice *v = &sid->voice[i];
        v->acc_prev = v->acc;
        v->msb_rising = 0;
        v->env_busy = v->rate_hit;
    }
    sid->vhp = vhp;
    sid->vbp = vbp;
    sid->vlp = vlp;
    sid->rs_pos = rs_pos;
    sid->rs_count = rs_count;
    sid->rs_sum = rs_sum;
}

int m6581_quiet(const m6581 *sid)
{
    return !sid->tap_on && voice_frozen(&sid->voice[0]) && voice_frozen(&sid->voice[1]) &&
           voice_frozen(&sid->voice[2]);
}

void m6581_clock(m6581 *sid, uint32_t cycles)
{
    if (!cycles) return;
    sid->cycles += cycles;
    if (sid->bus_ttl) {
        if (sid->bus_ttl > cycles) {
            sid->bus_ttl -= cycles;
        } else {
            sid->bus_ttl = 0;
            sid->bus_value = 0;
        }
    }
    for (int i = 0; i < 3; i++) {
        m6581_voice *v = &sid->voice[i];
        if (v->held_ttl) {
            if (v->held_ttl > cycles) {
                v->held_ttl -= cycles;
            } else {
                v->held_ttl = 0;
                v->held_out = 0;
            }
        }
    }
    if (m6581_quiet(sid)) {
        clock_quiet(sid, cycles);
        return;
    }
    m6581_voice *v0 = &sid->voice[0], *v1 = &sid->voice[1], *v2 = &sid->voice[2];
    const uint32_t filt = sid->res_filt;
    const uint32_t mode = sid->mode_vol;
    const int32_t vol = (int32_t)(mode & 0x0Fu);
    const int32_t wave_zero = sid->wave_zero, voice_dc = sid->voice_dc;
    const int32_t mixer_dc = sid->mixer_dc;
    const int64_t w0 = sid->w0, q = sid->q_1024;
    /* voice 3 off only disconnects the unfiltered path */
    const int v3_direct = !(mode & M6581_MODE_3OFF) || (filt & 4u);
    int32_t vhp = sid->vhp, vbp = sid->vbp, vlp = sid->vlp;
    uint32_t rs_pos = sid->rs_pos, rs_count = sid->rs_count;
    int64_t rs_sum = sid->rs_sum;
    const uint32_t rate = sid->sample_rate, clock = sid->clock_hz;
    const int tap = sid->tap_on;

    while (cycles--) {
        /* oscillators */
        osc_step(v0, v2);
        osc_step(v1, v0);
        osc_step(v2, v1);
        /* hard sync: voice n is reset by voice n-1 (voice 1 by voice 3) */
        if ((v0->ctrl & M6581_CTRL_SYNC) && v2->msb_rising) v0->acc = 0;
        if ((v1->ctrl & M6581_CTRL_SYNC) && v0->msb_rising) v1->acc = 0;
        if ((v2->ctrl & M6581_CTRL_SYNC) && v1->msb_rising) v2->acc = 0;

        /* envelopes: 15-bit rate counter compared for equality */
        int32_t vout[3];
        vout[0] = env_voice(v0, v2, wave_zero, voice_dc);
        vout[1] = env_voice(v1, v0, wave_zero, voice_dc);
        vout[2] = env_voice(v2, v1, wave_zero, voice_dc);

        /* filter routing and state-variable filter (one Euler step per cycle) */
        int32_t vi = 0, vnf = 0;
        if (filt & 1u) vi += vout[0]; else vnf += vout[0];
        if (filt & 2u) vi += vout[1]; else vnf += vout[1];
        if (filt & 4u) vi += vout[2]; else if (v3_direct) vnf += vout[2];
        vbp -= (int32_t)((w0 * vhp) >> 20);
        vlp -= (int32_t)((w0 * vbp) >> 20);
        vhp = (int32_t)(((int64_t)vbp * q) >> 10) - vlp - vi;
        int32_t vf = 0;
        if (mode & M6581_MODE_LP) vf += vlp;
        if (mode & M6581_MODE_BP) vf += vbp;
        if (mode & M6581_MODE_HP) vf += vhp;
        int32_t out = ((vnf + vf + mixer_dc) * vol) >> 4;
        if (tap) {
            sid->tap_sum[0] += tap_centred(v0, v2);
            sid->tap_sum[1] += tap_centred(v1, v0);
            sid->tap_sum[2] += tap_centred(v2, v1);
        }

        /* box-filter resampling */
        rs_sum += out;
        rs_count++;
        rs_pos += rate;
        if (rs_pos >= clock) {
            rs_pos -= clock;
            sid->vhp = vhp;
            emit_sample(sid, (int32_t)(rs_sum / (int64_t)rs_count));
            if (tap) emit_tap(sid, vol, rs_count);
            rs_sum = 0;
            rs_count = 0;
        }
    }
    sid->vhp = vhp;
    sid->vbp = vbp;
    sid->vlp = vlp;
    sid->rs_pos = rs_pos;
    sid->rs_count = rs_count;
    sid->rs_sum = rs_sum;
}
