/* tests/unit/test_sid.c - the SID synthesis module (plugins/machine-c64/sid.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mh_test.h"
#include "sid.h"

#define CLOCK 985248u
#define RATE 44100u

static m6581 *new_sid(m6581_model model)
{
    m6581 *s = malloc(sizeof *s);
    CU_ASSERT_FATAL(s != NULL);
    m6581_desc d;
    memset(&d, 0, sizeof d);
    d.model = model;
    CU_ASSERT_FATAL(m6581_init(s, &d) == MH_OK);
    return s;
}

/* Renders `seconds` of output into a malloc'ed buffer; *n = samples. */
static int16_t *render(m6581 *s, double seconds, size_t *n)
{
    size_t cap = (size_t)(seconds * RATE) + 16, got = 0;
    int16_t *buf = malloc(cap * sizeof *buf);
    uint32_t total = (uint32_t)(seconds * CLOCK);
    while (total) {
        uint32_t c = total > 20000 ? 20000 : total;
        m6581_clock(s, c);
        total -= c;
        got += m6581_samples(s, buf + got, cap - got);
    }
    *n = got;
    return buf;
}

static void discard(m6581 *s, double seconds)
{
    size_t n;
    free(render(s, seconds, &n));
}

static double rms(const int16_t *b, size_t n)
{
    double sum = 0, mean = 0;
    for (size_t i = 0; i < n; i++) mean += b[i];
    mean /= (double)n;
    for (size_t i = 0; i < n; i++) sum += (b[i] - mean) * (b[i] - mean);
    return sqrt(sum / (double)n);
}

/* Frequency from upward crossings of the mean, interpolated. */
static double crossing_freq(const int16_t *b, size_t n)
{
    double mean = 0;
    for (size_t i = 0; i < n; i++) mean += b[i];
    mean /= (double)n;
    double first = -1, last = -1;
    int count = 0;
    for (size_t i = 1; i < n; i++) {
        double a = b[i - 1] - mean, c = b[i] - mean;
        if (a < 0 && c >= 0) {
            double t = (double)(i - 1) + a / (a - c);
            if (first < 0) first = t;
            last = t;
            count++;
        }
    }
    if (count < 2) return 0;
    return (count - 1) / ((last - first) / RATE);
}

static void set_freq(m6581 *s, int v, double hz)
{
    uint32_t f = (uint32_t)(hz * 16777216.0 / CLOCK + 0.5);
    m6581_write(s, (uint16_t)(v * 7 + 0), (uint8_t)f);
    m6581_write(s, (uint16_t)(v * 7 + 1), (uint8_t)(f >> 8));
}

static double wave_freq(uint8_t wave, double *out_rms)
{
    m6581 *s = new_sid(M6581_MODEL_6581);
    m6581_write(s, 0x18, 0x0F);
    set_freq(s, 0, 440.0);
    m6581_write(s, 0x02, 0x00);
    m6581_write(s, 0x03, 0x08); /* 50% pulse */
    m6581_write(s, 0x05, 0x00);
    m6581_write(s, 0x06, 0xF0); /* sustain $F */
    m6581_write(s, 0x04, (uint8_t)(wave | M6581_CTRL_GATE));
    discard(s, 0.25); /* let the DC step of the output high-pass settle */
    size_t n;
    int16_t *b = render(s, 0.5, &n);
    CU_ASSERT(n >= (size_t)(0.5 * RATE) - 2);
    double f = crossing_freq(b, n);
    if (out_rms) *out_rms = rms(b, n);
    free(b);
    free(s);
    return f;
}

static void test_osc_frequency(void)
{
    const uint8_t waves[3] = {M6581_CTRL_TRI, M6581_CTRL_SAW, M6581_CTRL_PULSE};
    for (int i = 0; i < 3; i++) {
        double r = 0;
        double f = wave_freq(waves[i], &r);
        CU_ASSERT(fabs(f - 440.0) < 4.4);
        CU_ASSERT(r > 1000.0);
        if (fabs(f - 440.0) >= 4.4) printf("\n  wave %02x: %.2f Hz\n", waves[i], f);
    }
}

static void test_noise(void)
{
    double r = 0;
    wave_freq(M6581_CTRL_NOISE, &r);
    CU_ASSERT(r > 1000.0);
}

/* The noise generator as docs/sid.md describes it, written apart from
 * sid.c: a 23-bit LFSR that starts at $7FFFFF, shifts left taking
 * bit 22 XOR bit 17 into bit 0, and shows bits 20,18,14,11,9,5,2,0 as the
 * upper 8 output bits (OSC3, $D41B on the C64). */
static uint32_t ref_noise_clock(uint32_t r)
{
    return ((r << 1) | (((r >> 22) ^ (r >> 17)) & 1u)) & 0x7FFFFFu;
}

static uint8_t ref_noise_osc3(uint32_t r)
{
    static const int taps[8] = {20, 18, 14, 11, 9, 5, 2, 0}; /* OSC3 bits 7..0 */
    uint8_t out = 0;
    for (int i = 0; i < 8; i++) out = (uint8_t)((out << 1) | ((r >> taps[i]) & 1u));
    return out;
}

/* Voice 3 on noise, read back through OSC3 after every few cycles against
 * the reference: the LFSR shifts 2 cycles after each rise of accumulator
 * bit 19 (its two phases), i.e. floor(((t - 2) * freq + 2^19) / 2^20)
 * times in the t cycles after the test bit is released (and once by the
 * release). */
static void test_noise_sequence(void)
{
    m6581 *s = new_sid(M6581_MODEL_6581);
    const uint32_t freq = 0xFFFF;
    m6581_write(s, 14, freq & 0xFF);
    m6581_write(s, 15, freq >> 8);
    /* the test bit held long enough fills the LFSR with 1s ($7FFFFF);
     * releasing it clocks the LFSR once: bit 0 = (bit 22 | test) ^ bit 17
     * = 0, the same as a normal clock from $7FFFFF */
    m6581_write(s, 18, M6581_CTRL_NOISE | M6581_CTRL_TEST);
    m6581_clock(s, 0x10000u);
    m6581_write(s, 18, M6581_CTRL_NOISE);
    uint32_t ref = ref_noise_clock(0x7FFFFFu);
    uint64_t t = 0, clocked = 0;
    int mismatches = 0, changes = 0;
    uint8_t last = ref_noise_osc3(ref);
    CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), last);
    while (clocked < 4000) {
        uint32_t step = 1u + (uint32_t)(t % 13u);
        m6581_clock(s, step);
        t += step;
        uint64_t due = t >= 2 ? ((t - 2) * freq + 0x80000u) >> 20 : 0; /* shifts 2 late */
        for (; clocked < due; clocked++) ref = ref_noise_clock(ref);
        uint8_t want = ref_noise_osc3(ref), got = m6581_read(s, M6581_REG_OSC3);
        if (got != want && mismatches++ < 3)
            fprintf(stderr, "\n  after %llu noise clocks: OSC3 $%02X, want $%02X\n",
                    (unsigned long long)clocked, got, want);
        changes += want != last;
        last = want;
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    CU_ASSERT_TRUE(changes > 3000); /* the reference itself is not stuck */
    free(s);
}

static void test_osc3_readback(void)
{
    m6581 *s = new_sid(M6581_MODEL_6581);
    m6581_write(s, 14, 0x34);
    m6581_write(s, 15, 0x12); /* voice 3 freq $1234 */
    m6581_write(s, 18, M6581_CTRL_SAW | M6581_CTRL_TEST);
    m6581_write(s, 18, M6581_CTRL_SAW);
    uint32_t t = 0;
    for (int i = 0; i < 200; i++) {
        uint32_t step = 37u + (uint32_t)i * 11u;
        m6581_clock(s, step);
        t += step;
        uint8_t want = (uint8_t)(((t * 0x1234u) & 0xFFFFFFu) >> 16);
        CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), want);
    }
    /* pots and write-only registers */
    CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_POTX), 0xFF);
    CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_POTY), 0xFF);
    m6581_write(s, 0x05, 0xA5);
    CU_ASSERT_EQUAL(m6581_read(s, 0x00), 0xA5);
    CU_ASSERT_EQUAL(m6581_peek(s, 0x18), 0xA5);
    m6581_clock(s, M6581_BUS_TTL + 1);
    CU_ASSERT_EQUAL(m6581_read(s, 0x00), 0x00);
    free(s);
    m6581_desc d;
    memset(&d, 0, sizeof d);
    d.potx = M6581_POT(0);
    d.poty = 0x42;
    m6581 s2;
    CU_ASSERT_EQUAL(m6581_init(&s2, &d), MH_OK);
    CU_ASSERT_EQUAL(m6581_read(&s2, M6581_REG_POTX), 0x00);
    CU_ASSERT_EQUAL(m6581_read(&s2, M6581_REG_POTY), 0x42);
    d.model = (m6581_model)7;
    CU_ASSERT_EQUAL(m6581_init(&s2, &d), MH_ERR_INVALID_ARGUMENT);
}

/* Cycles until ENV3 satisfies (env == target), stepping 16 cycles. */
static uint32_t cycles_until_env(m6581 *s, uint8_t target, uint32_t limit)
{
    uint32_t t = 0;
    while (t < limit && m6581_read(s, M6581_REG_ENV3) != target) {
        m6581_clock(s, 16);
        t += 16;
    }
    return t;
}

static void test_adsr(void)
{
    m6581 *s = new_sid(M6581_MODEL_6581);
    m6581_write(s, 19, 0x24); /* attack 2 (16 ms), decay 4 (114 ms) */
    m6581_write(s, 20, 0x84); /* sustain 8 ($88), release 4 (114 ms) */
    m6581_write(s, 18, M6581_CTRL_GATE);
    uint32_t t = cycles_until_env(s, 0xFF, CLOCK);
    double ms = t * 1000.0 / CLOCK;
    CU_ASSERT(ms > 16.0 * 0.9 && ms < 16.0 * 1.1);
    /* decay from $FF to $88: levels 255..94 at 1 period, 93..89 at 2 */
    uint32_t d = cycles_until_env(s, 0x88, CLOCK);
    double want = (255 - 0x88) * 149.0; /* all above $5D: period 1 */
    CU_ASSERT(d > want * 0.9 && d < want * 1.1);
    m6581_clock(s, 100000);
    CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_ENV3), 0x88); /* sustained */
    /* release $88 -> 0: 42 steps x1 + 39 x2 + 28 x4 + 12 x8 + 8 x16 + 6 x30 */
    m6581_write(s, 18, 0);
    uint32_t r = cycles_until_env(s, 0x00, 4 * CLOCK);
    double want_r = (42 + 78 + 112 + 96 + 128 + 180) * 149.0;
    CU_ASSERT(r > want_r * 0.9 && r < want_r * 1.1);
    m6581_clock(s, 100000);
    CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_ENV3), 0x00); /* held at zero */
    /* a full release from $FF at rate 0 takes the documented ~6 ms
     * (756 periods of 9 cycles = 6.9 ms) */
    m6581_write(s, 19, 0x00);
    m6581_write(s, 20, 0xF0);
    m6581_write(s, 18, M6581_CTRL_GATE);
    cycles_until_env(s, 0xFF, CLOCK);
    m6581_write(s, 18, 0);
    r = cycles_until_env(s, 0x00, CLOCK);
    CU_ASSERT(r > 756 * 9 * 0.9 && r < 756 * 9 * 1.1);
    free(s);
}

static void test_adsr_delay_bug(void)
{
    m6581 *s = new_sid(M6581_MODEL_6581);
    m6581_write(s, 19, 0xF0); /* attack 15: period 31251 */
    m6581_write(s, 18, M6581_CTRL_GATE);
    m6581_clock(s, 1000);
    CU_ASSERT_EQUAL(s->voice[2].rate_counter, 1000);
    CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_ENV3), 0);
    m6581_write(s, 19, 0x00); /* attack 0: compare value 8, counter already past */
    /* the counter runs to $7FFF, wraps to 1 (32767 states) and only then
     * meets 8 (31775 cycles); the match is seen the next cycle, resets
     * the counter the cycle after, the step lands 2 cycles after that, and
     * ENV3 latches it a cycle later still */
    uint32_t wait = (0x7FFFu - 1000u) + 8u + 1u + 1u + 2u + 1u;
    m6581_clock(s, wait - 1);
    CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_ENV3), 0);
    m6581_clock(s, 1);
    CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_ENV3), 1);
    m6581_clock(s, 8);
    CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_ENV3), 1);
    m6581_clock(s, 1);
    CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_ENV3), 2); /* then every 9 cycles */
    /* without the bug: raising the period keeps the step 9 cycles apart */
    free(s);
}

/* The envelope's pipeline (reSID/reSIDfp's model of the die; the real
 * chip's ENV3 samplings in SID/env_test): gate changes and steps take
 * effect cycles after the event that caused them. */
static void test_envelope_pipeline(void)
{
    m6581 *s = new_sid(M6581_MODEL_6581);
    m6581_voice *v = &s->voice[2];
    /* 1. Gate on compares the decay rate first: attack 15 (31251 cycles)
     * but decay 0, and the counter at the decay's compare value: the
     * match still makes the first attack step, 3 cycles later. */
    m6581_write(s, 19, 0xF0);
    v->rate_counter = 8;
    m6581_write(s, 18, M6581_CTRL_GATE);
    m6581_clock(s, 3);
    CU_ASSERT_EQUAL(v->env_state, M6581_ENV_ATTACK);
    CU_ASSERT_EQUAL(v->env, 0);
    m6581_clock(s, 1);
    CU_ASSERT_EQUAL(v->env, 1);
    /* ENV3 latches the counter a cycle later */
    CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_ENV3), 0);
    m6581_clock(s, 1);
    CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_ENV3), 1);
    /* ... and then waits the attack's own period */
    m6581_clock(s, 30000);
    CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_ENV3), 1);
    free(s);

    /* 2. Release during attack, at the step's two pipeline stages. Gate
     * off in the cycle after the rate counter's match (the counter resets
     * in the next): release wins the race and the decided step counts
     * down. Gate off a cycle later: the step is already on its way up and
     * lands first; release starts after it. */
    for (int later = 0; later < 2; later++) {
        s = new_sid(M6581_MODEL_6581);
        v = &s->voice[2];
        m6581_write(s, 19, 0x00);
        m6581_write(s, 20, 0x00);
        m6581_write(s, 18, M6581_CTRL_GATE);
        m6581_clock(s, 200);
        while (!v->rate_hit) m6581_clock(s, 1);
        m6581_clock(s, (uint32_t)later);
        uint8_t at = v->env;
        m6581_write(s, 18, 0);
        CU_ASSERT_EQUAL(v->env_state, M6581_ENV_ATTACK);
        m6581_clock(s, 2);
        CU_ASSERT_EQUAL(v->env, later ? (uint8_t)(at + 1) : at);
        CU_ASSERT_EQUAL(v->env_state, later ? M6581_ENV_ATTACK : M6581_ENV_RELEASE);
        m6581_clock(s, 1);
        CU_ASSERT_EQUAL(v->env, later ? (uint8_t)(at + 1) : (uint8_t)(at - 1));
        CU_ASSERT_EQUAL(v->env_state, M6581_ENV_RELEASE);
        free(s);
    }
    s = new_sid(M6581_MODEL_6581);
    v = &s->voice[2];
    m6581_write(s, 18, M6581_CTRL_GATE);
    uint8_t level = 0;
    /* 3. Gate off, then on again in the next cycle: the release never took
     * effect and attack resumes upwards. */
    m6581_write(s, 18, M6581_CTRL_GATE);
    m6581_clock(s, 30);
    CU_ASSERT(v->env > level);
    level = v->env;
    m6581_write(s, 18, 0);
    m6581_clock(s, 1);
    m6581_write(s, 18, M6581_CTRL_GATE);
    m6581_clock(s, 30);
    CU_ASSERT_EQUAL(v->env_state, M6581_ENV_ATTACK);
    CU_ASSERT(v->env > level);
    free(s);
}

static double filtered_rms(uint8_t mode, uint16_t fc)
{
    m6581 *s = new_sid(M6581_MODEL_6581);
    set_freq(s, 0, 1000.0);
    m6581_write(s, 0x06, 0xF0);
    m6581_write(s, 0x15, (uint8_t)(fc & 7));
    m6581_write(s, 0x16, (uint8_t)(fc >> 3));
    m6581_write(s, 0x17, 0x01); /* voice 1 into the filter, no resonance */
    m6581_write(s, 0x18, (uint8_t)(mode | 0x0F));
    m6581_write(s, 0x04, M6581_CTRL_SAW | M6581_CTRL_GATE);
    discard(s, 0.2);
    size_t n;
    int16_t *b = render(s, 0.3, &n);
    double r = rms(b, n);
    free(b);
    free(s);
    return r;
}

static void test_filter(void)
{
    double lp_lo = filtered_rms(M6581_MODE_LP, 0x040), lp_hi = filtered_rms(M6581_MODE_LP, 0x7FF);
    double hp_lo = filtered_rms(M6581_MODE_HP, 0x040), hp_hi = filtered_rms(M6581_MODE_HP, 0x7FF);
    CU_ASSERT(lp_lo < lp_hi * 0.5);
    CU_ASSERT(hp_lo > hp_hi * 1.5);
    CU_ASSERT(m6581_cutoff_hz(M6581_MODEL_6581, 0) > m6581_cutoff_hz(M6581_MODEL_8580, 0));
    CU_ASSERT_EQUAL(m6581_cutoff_hz(M6581_MODEL_8580, 0x7FF), 12500);
    for (uint32_t fc = 1; fc < 0x800; fc++) {
        CU_ASSERT_FATAL(m6581_cutoff_hz(M6581_MODEL_6581, fc) >=
                        m6581_cutoff_hz(M6581_MODEL_6581, fc - 1));
    }
}

/* Toggles the volume between 0 and 15 at 1 kHz with silent voices. */
static void digi(m6581_model model, double *pp, int *flips)
{
    m6581 *s = new_sid(model);
    discard(s, 0.05);
    size_t got = 0, cap = RATE;
    int16_t *b = malloc(cap * sizeof *b);
    for (int i = 0; i < 400; i++) { /* 0.2 s */
        m6581_write(s, 0x18, (i & 1) ? 0x00 : 0x0F);
        m6581_clock(s, CLOCK / 2000);
        got += m6581_samples(s, b + got, cap - got);
    }
    int16_t lo = 32767, hi = -32768;
    double mean = 0;
    for (size_t i = 0; i < got; i++) mean += b[i];
    mean /= (double)got;
    int f = 0;
    for (size_t i = 0; i < got; i++) {
        if (b[i] < lo) lo = b[i];
        if (b[i] > hi) hi = b[i];
        if (i && ((b[i - 1] < mean) != (b[i] < mean))) f++;
    }
    *pp = hi - lo;
    *flips = f;
    free(b);
    free(s);
}

static void test_volume_digi(void)
{
    double pp6581, pp8580;
    int f6581, f8580;
    digi(M6581_MODEL_6581, &pp6581, &f6581);
    digi(M6581_MODEL_8580, &pp8580, &f8580);
    CU_ASSERT(pp6581 > 10000.0);
    /* a 1 kHz square: ~2 mean crossings per ms, 0.2 s */
    CU_ASSERT(f6581 > 360 && f6581 < 440);
    CU_ASSERT(pp8580 < pp6581 / 8.0);
}

static void test_snapshot(void)
{
    m6581 *a = new_sid(M6581_MODEL_8580);
    set_freq(a, 0, 523.0);
    set_freq(a, 1, 261.0);
    set_freq(a, 2, 1.5);
    m6581_write(a, 0x06, 0xA8);
    m6581_write(a, 0x0D, 0xF0);
    m6581_write(a, 0x17, 0xF3);
    m6581_write(a, 0x16, 0x40);
    m6581_write(a, 0x18, 0x1F);
    m6581_write(a, 0x04, M6581_CTRL_PULSE | M6581_CTRL_GATE);
    m6581_write(a, 0x0B, M6581_CTRL_NOISE | M6581_CTRL_GATE);
    m6581_write(a, 0x12, M6581_CTRL_TRI | M6581_CTRL_RING | M6581_CTRL_SYNC);
    m6581_clock(a, 12345);
    m6581 *b = malloc(sizeof *b);
    memcpy(b, a, sizeof *b);
    size_t na, nb;
    for (int round = 0; round < 3; round++) {
        m6581_write(a, 0x03, (uint8_t)round);
        m6581_write(b, 0x03, (uint8_t)round);
        int16_t *oa = render(a, 0.1, &na);
        int16_t *ob = render(b, 0.1, &nb);
        CU_ASSERT_EQUAL(na, nb);
        CU_ASSERT(na > 0 && memcmp(oa, ob, na * sizeof *oa) == 0);
        free(oa);
        free(ob);
    }
    CU_ASSERT(memcmp(a, b, sizeof *a) == 0);
    free(a);
    free(b);
}

static void test_perf(void)
{
    m6581 *s = new_sid(M6581_MODEL_6581);
    set_freq(s, 0, 440.0);
    set_freq(s, 1, 660.0);
    set_freq(s, 2, 110.0);
    for (int v = 0; v < 3; v++) m6581_write(s, (uint16_t)(v * 7 + 6), 0xF0);
    m6581_write(s, 0x17, 0x35);
    m6581_write(s, 0x16, 0x40);
    m6581_write(s, 0x18, 0x1F);
    m6581_write(s, 0x04, M6581_CTRL_SAW | M6581_CTRL_GATE);
    m6581_write(s, 0x0B, M6581_CTRL_PULSE | M6581_CTRL_GATE);
    m6581_write(s, 0x12, M6581_CTRL_NOISE | M6581_CTRL_GATE);
    const uint32_t total = 5u * CLOCK;
    int16_t tmp[2048];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (uint32_t done = 0; done < total; done += 19656) { /* one PAL frame */
        m6581_clock(s, 19656);
        while (m6581_samples(s, tmp, 2048) == 2048) {}
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / total;
    printf("\n  sid: %.2f ns per emulated cycle (3 voices + filter)\n", ns);
    CU_ASSERT_EQUAL(s->dropped, 0);
    free(s);
}

/* Power-up and /RES: the accumulators come up as $555555 (all cells 1,
 * odd bits stored inverted) and /RES leaves them; /RES fills the noise
 * register and clocks it once on release (noise reads $FE). VICE
 * testprogs SID/oscinit, measured on real 6581 and 8580. */
static void test_power_on_state(void)
{
    for (int model = 0; model < 2; model++) {
        m6581 *s = new_sid((m6581_model)model);
        static const struct { uint8_t ctrl, osc3; } want[] = {
            {0x00, 0x00}, {0x80, 0xFE}, {0x40, 0xFF}, {0x20, 0x55}, {0x10, 0xAA}};
        for (int i = 0; i < 5; i++) {
            m6581_write(s, 18, want[i].ctrl);
            CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), want[i].osc3);
        }
        /* voice 3 moves on; a reset keeps the accumulator */
        m6581_write(s, 15, 0x10);
        m6581_clock(s, 100);
        uint32_t acc = s->voice[2].acc;
        CU_ASSERT_NOT_EQUAL(acc, 0x555555u);
        m6581_reset(s);
        CU_ASSERT_EQUAL(s->voice[2].acc, acc);
        CU_ASSERT_EQUAL(s->voice[2].lfsr, 0x7FFFFEu);
        free(s);
    }
}

/* With no waveform selected OSC3 keeps the last output, then fades to 0
 * (SID/osc3-wave0: still $FF at once, $00 after 3 s). */
static void test_waveform_zero_holds(void)
{
    for (int model = 0; model < 2; model++) {
        m6581 *s = new_sid((m6581_model)model);
        m6581_write(s, 18, M6581_CTRL_PULSE); /* pulse width 0: always high */
        CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), 0xFF);
        m6581_write(s, 18, 0x00);
        CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), 0xFF);
        m6581_clock(s, 1000);
        CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), 0xFF);
        m6581_clock(s, 3 * CLOCK);
        CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), 0x00);
        free(s);
    }
}

/* The test bit refills the noise register with 1s only slowly (the cells
 * leak: ~1 s is plenty on the 6581, the 8580 needs ~10 s; VICE
 * wb_testsuite); each release clocks it once with bit 0 = ~bit 17. */
static void test_test_bit_noise(void)
{
    for (int model = 0; model < 2; model++) {
        m6581 *s = new_sid((m6581_model)model);
        s->voice[2].lfsr = 0x123456u;
        m6581_write(s, 18, M6581_CTRL_NOISE | M6581_CTRL_TEST);
        m6581_clock(s, 1000);
        CU_ASSERT_EQUAL(s->voice[2].lfsr, 0x123456u); /* not yet */
        /* nor after ~35000 cycles (two frames): the real 6581 keeps the
         * register there (SID/resid-test/oscsample's noise passes hold the
         * test bit 34700 cycles and go on from the old value) */
        m6581_clock(s, 34000);
        CU_ASSERT_EQUAL(s->voice[2].lfsr, 0x123456u);
        m6581_clock(s, model == M6581_MODEL_8580 ? 10 * CLOCK : CLOCK);
        CU_ASSERT_EQUAL(s->voice[2].lfsr, 0x7FFFFFu);
        /* release, set, release: two clocks shift in two zeros */
        m6581_write(s, 18, M6581_CTRL_NOISE);
        CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), 0xFE);
        m6581_write(s, 18, M6581_CTRL_NOISE | M6581_CTRL_TEST);
        m6581_write(s, 18, M6581_CTRL_NOISE);
        m6581_write(s, 18, M6581_CTRL_NOISE | M6581_CTRL_TEST);
        m6581_write(s, 18, M6581_CTRL_NOISE);
        CU_ASSERT_EQUAL(s->voice[2].lfsr, 0x7FFFF8u);
        CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), 0xFC); /* bits 0 and 2 out */
        free(s);
    }
}

/* The 8580 shows triangle, sawtooth and pulse one cycle late: 4 cycles after
 * the test bit's release with frequency $FFFF the sawtooth reads 3 on the
 * 6581 and 2 on the 8580 (SID/detect). */
static void test_8580_saw_delay(void)
{
    for (int model = 0; model < 2; model++) {
        m6581 *s = new_sid((m6581_model)model);
        m6581_write(s, 14, 0xFF);
        m6581_write(s, 15, 0xFF);
        m6581_write(s, 18, M6581_CTRL_TEST);
        m6581_clock(s, 10);
        m6581_write(s, 18, M6581_CTRL_SAW);
        m6581_clock(s, 4);
        CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), model == M6581_MODEL_8580 ? 2 : 3);
        /* the pulse comparator's output is latched on both models: width
         * 1 is shown two cycles after the release, a cycle after the 6581's
         * sawtooth would show the accumulator there (the real 6581's and
         * 8580's samplings in SID/resid-test/oscsample and the
         * SID/waveforms references) */
        m6581_write(s, 16, 0x01);
        m6581_write(s, 18, M6581_CTRL_TEST);
        m6581_clock(s, 10);
        m6581_write(s, 18, M6581_CTRL_PULSE);
        m6581_clock(s, 1);
        CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), 0x00);
        m6581_clock(s, 1);
        CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), 0xFF);
        free(s);
    }
}

/* Ring modulation replaces the triangle's MSB by MSB ^ NOT the source's
 * MSB: both accumulators at 0 give a fully inverted triangle, $FF
 * (SID/ringmod); with the sawtooth also selected the triangle half is
 * never inverted. */
static void test_ring_mod_msb(void)
{
    m6581 *s = new_sid(M6581_MODEL_6581);
    m6581_write(s, 11, M6581_CTRL_TEST); /* voice 2, the source of voice 3 */
    m6581_write(s, 18, M6581_CTRL_TEST);
    m6581_clock(s, 2);
    m6581_write(s, 11, 0);
    m6581_write(s, 18, M6581_CTRL_TRI | M6581_CTRL_RING);
    m6581_clock(s, 2);
    CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), 0xFF);
    m6581_write(s, 18, M6581_CTRL_TRI);
    CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), 0x00);
    s->voice[2].acc = s->voice[2].acc_prev = 0xC00000u; /* descending half */
    CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), 0x7F);
    m6581_write(s, 18, M6581_CTRL_TRI | M6581_CTRL_SAW);
    CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), 0x80); /* $800 & $C00 */
    free(s);
}

/* Noise combined with another waveform: a 0 in the selector's output
 * clears the noise register's output bits while the waveform is selected.
 * With the accumulator at 0 (frequency 0) noise+triangle outputs 0; the
 * register then reads $FE $6C $D8 $B5 on the following test-bit clocks
 * (the wb_testsuite's samplings of real 6581 and 8580 chips). */
static void test_noise_writeback(void)
{
    static const uint8_t want[4] = {0xFE, 0x6C, 0xD8, 0xB5};
    for (int model = 0; model < 2; model++) {
        m6581 *s = new_sid((m6581_model)model);
        m6581_write(s, 18, M6581_CTRL_NOISE | M6581_CTRL_TEST);
        m6581_clock(s, model == M6581_MODEL_8580 ? 10 * CLOCK : CLOCK);
        CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), 0xFF);
        m6581_write(s, 18, M6581_CTRL_NOISE | M6581_CTRL_TRI); /* releases test */
        CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), 0x00);
        m6581_clock(s, 12);
        for (int i = 0; i < 4; i++) {
            m6581_write(s, 18, M6581_CTRL_NOISE | M6581_CTRL_TEST);
            m6581_write(s, 18, M6581_CTRL_NOISE);
            CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), want[i]);
        }
        free(s);
    }
}

/* On the 6581 a combined waveform with the sawtooth whose output bit 11
 * is 0 pulls the accumulator's MSB to 0 (it enters the adder); the 8580
 * buffers the MSB and keeps it (SID/osc_topbit). Pulse width $FFF with the
 * accumulator at $80xxxx: pulse+saw outputs 0. */
static void test_msb_pulldown(void)
{
    for (int model = 0; model < 2; model++) {
        m6581 *s = new_sid((m6581_model)model);
        m6581_write(s, 14, 0x01);
        m6581_write(s, 16, 0xFF);
        m6581_write(s, 17, 0x0F);
        m6581_write(s, 18, M6581_CTRL_SAW);
        s->voice[2].acc = s->voice[2].acc_prev = 0x800000u;
        m6581_write(s, 18, M6581_CTRL_SAW | M6581_CTRL_PULSE);
        m6581_clock(s, 4);
        m6581_write(s, 18, M6581_CTRL_SAW);
        m6581_clock(s, 2);
        CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3) & 0x80, model == M6581_MODEL_6581 ? 0 : 0x80);
        free(s);
    }
}

/* Noise + pulse (pulse high) on the 8580: each noise bit pulled down by
 * its lower neighbour, saturating at $FC0 near the top; the 6581 passes
 * the noise (wb_testsuite samplings: 8580 C->E, 6581 8->C). */
static void test_noise_pulse(void)
{
    for (int model = 0; model < 2; model++) {
        m6581 *s = new_sid((m6581_model)model);
        s->voice[2].lfsr = 0x7FFFFFu; /* noise $FF0 */
        m6581_write(s, 18, M6581_CTRL_NOISE | M6581_CTRL_PULSE | M6581_CTRL_TEST);
        CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), model == M6581_MODEL_8580 ? 0xFC : 0xFF);
        s->voice[2].lfsr = 0x7FFFFFu & ~(1u << 20); /* noise $7F0: bit 11 low */
        CU_ASSERT_EQUAL(m6581_read(s, M6581_REG_OSC3), model == M6581_MODEL_8580 ? 0x7E : 0x7F);
        free(s);
    }
}

/* The quiet path (all voices silent and still) gives what the full
 * per-cycle path gives: the same samples, rate counters and filter state.
 * A tap forces the full path on the second chip. The note before the
 * silence leaves the filter ringing and the rate counters mid-period. */
static void test_quiet_path_exact(void)
{
    for (int model = 0; model < 2; model++) {
        m6581 *a = new_sid((m6581_model)model), *b = new_sid((m6581_model)model);
        m6581_tap(b, 1);
        m6581 *both[2] = {a, b};
        for (int k = 0; k < 2; k++) {
            m6581 *s = both[k];
            m6581_write(s, 0x16, 0x20);             /* cutoff */
            m6581_write(s, 0x17, 0xF1);             /* resonance, voice 1 filtered */
            m6581_write(s, 0x18, 0x1F);             /* low-pass, volume 15 */
            m6581_write(s, 0x01, 0x30);             /* voice 1 freq */
            m6581_write(s, 0x05, 0x00);             /* fastest attack and decay */
            m6581_write(s, 0x06, 0xF2);             /* sustain 15, release 2 */
            m6581_write(s, 0x04, M6581_CTRL_SAW | M6581_CTRL_GATE);
            m6581_clock(s, 20000);
            m6581_write(s, 0x04, M6581_CTRL_SAW); /* release */
            m6581_clock(s, 400000);
            m6581_write(s, 0x01, 0x00); /* freq 0: voice 1 stops moving */
            m6581_write(s, 0x13, 0x5A); /* voice 3: release rate 10, silent */
        }
        CU_ASSERT(m6581_quiet(a));
        CU_ASSERT(!m6581_quiet(b));
        int16_t sa[2048], sb[2048];
        size_t na = 0, nb = 0;
        int same = 1;
        for (uint32_t chunk = 1; chunk < 60000; chunk = chunk * 3 + 7) {
            m6581_clock(a, chunk);
            m6581_clock(b, chunk);
            size_t ga, gb;
            while ((ga = m6581_samples(a, sa, 2048)) > 0) {
                gb = m6581_samples(b, sb, ga);
                if (gb != ga || memcmp(sa, sb, ga * sizeof sa[0]) != 0) same = 0;
                na += ga;
                nb += gb;
            }
            for (int v = 0; v < 3; v++)
                if (memcmp(&a->voice[v], &b->voice[v], sizeof a->voice[v]) != 0) same = 0;
            if (a->vhp != b->vhp || a->vbp != b->vbp || a->vlp != b->vlp || a->rs_pos != b->rs_pos ||
                a->rs_sum != b->rs_sum)
                same = 0;
        }
        CU_ASSERT(same);
        CU_ASSERT(na > 3000);
        CU_ASSERT_EQUAL(na, nb);
        /* a register write that moves a voice leaves the quiet path */
        m6581_write(a, 0x01, 0x10);
        CU_ASSERT(!m6581_quiet(a));
        free(a);
        free(b);
    }
}

MH_SUITE("sid.osc", NULL, NULL, MH_TEST(test_osc_frequency), MH_TEST(test_noise),
         MH_TEST(test_noise_pulse),
         MH_TEST(test_msb_pulldown),
         MH_TEST(test_noise_writeback),
         MH_TEST(test_8580_saw_delay), MH_TEST(test_ring_mod_msb),
         MH_TEST(test_power_on_state), MH_TEST(test_waveform_zero_holds),
         MH_TEST(test_test_bit_noise),
         MH_TEST(test_noise_sequence),
         MH_TEST(test_osc3_readback))
MH_SUITE("sid.env", NULL, NULL, MH_TEST(test_adsr), MH_TEST(test_adsr_delay_bug),
         MH_TEST(test_envelope_pipeline))
MH_SUITE("sid.filter", NULL, NULL, MH_TEST(test_filter), MH_TEST(test_volume_digi))
MH_SUITE("sid.state", NULL, NULL, MH_TEST(test_snapshot), MH_TEST(test_perf),
         MH_TEST(test_quiet_path_exact))
