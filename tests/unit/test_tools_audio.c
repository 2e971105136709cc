/* tools_audio.sid - sound through the audio tools (tools-audio) on the C64, from a 6502 program on the
 * real C64 in the in-process host:
 *   - a known note on each waveform (triangle at 100 Hz, 440 Hz and 3.8 kHz,
 *     sawtooth, pulse): audio_analyze's dominant frequency (mix and
 *     voice) and the frequency measured here from the decoded WAV (zero
 *     crossings, independent of the plugin's FFT) match the note within
 *     1%; noise: the voice's step rate is 16x the note within 1%;
 *   - the envelope follows ADSR 8/8/8/8 in time (sid_voices_get between
 *     captures: phase and level at 50, 120, 200 ms, release after the gate
 *     is cleared) and the RMS over time rises through the attack;
 *   - OSC3/ENV3 as the CPU reads them (two reads 8 cycles apart differ by
 *     8 x freq >> 16; ENV3 = the sustain level), as the tools report them
 *     (OSC3 = voice 3's waveform output >> 4, sawtooth = accumulator >> 16),
 *     the test bit holding OSC3 at 0, and voice 3 off silencing the mix
 *     while OSC3/ENV3 keep going;
 *   - filter cutoff: a low-pass at a low cutoff takes the harmonics down
 *     relative to the fundamental, a high cutoff keeps them, a high-pass
 *     does the opposite;
 *   - a capture written to a file in the allowed directory; a running
 *     machine refused until paused; the machine stays paused.
 * Needs /usr/share/open-roms/C64. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug_engine.h"
#include "mh_test.h"
#include "sessions.h"
#include "test_tools_sid_common.h"

static mh_harness h;
static char tmpdir[64];

static int suite_init(void) { return sidt_init(&h, tmpdir, sizeof tmpdir); }

static int suite_cleanup(void)
{
    sidt_cleanup(&h, tmpdir);
    return 0;
}

/* A program that sets up voice `voice` (0-2) and the filter/volume, gates
 * the voice last, then loops. */
typedef struct note {
    unsigned voice, freq, pw, control, ad, sr;
    unsigned fc, res_filt, mode_vol;
} note;

static void note_source(char *out, size_t size, const note *n)
{
    unsigned base = 0xD400 + 7 * n->voice;
    snprintf(out, size,
             "        *= $C000\n"
             "start:  SEI\n"
             "        LDA #$%02X\n        STA $D415\n"
             "        LDA #$%02X\n        STA $D416\n"
             "        LDA #$%02X\n        STA $D417\n"
             "        LDA #$%02X\n        STA $D418\n"
             "        LDA #$%02X\n        STA $%04X\n"
             "        LDA #$%02X\n        STA $%04X\n"
             "        LDA #$%02X\n        STA $%04X\n"
             "        LDA #$%02X\n        STA $%04X\n"
             "        LDA #$%02X\n        STA $%04X\n"
             "        LDA #$%02X\n        STA $%04X\n"
             "        LDA #$%02X\n        STA $%04X\n"
             "loop:   JMP loop\n",
             n->fc & 7u, (n->fc >> 3) & 0xFFu, n->res_filt, n->mode_vol, n->freq & 0xFFu, base,
             n->freq >> 8, base + 1, n->pw & 0xFFu, base + 2, n->pw >> 8, base + 3, n->ad,
             base + 5, n->sr, base + 6, n->control, base + 4);
}

static int play(const char *session, const note *n)
{
    char source[2048];
    note_source(source, sizeof source, n);
    return sidt_program(&h, session, source, 0xC000);
}

static double rel_error(double measured, double expected)
{
    return fabs(measured - expected) / expected;
}

/* ---- notes on every waveform ---- */

typedef struct wave_case {
    const char *name;
    unsigned control;
    double hz;
} wave_case;

static void test_waveform_notes(void)
{
    static const wave_case cases[] = {
        {"triangle", 0x11, 440.0}, {"sawtooth", 0x21, 220.0}, {"pulse", 0x41, 1000.0},
        {"triangle", 0x11, 100.0}, {"triangle", 0x11, 3800.0}, {"noise", 0x81, 110.0},
    };
    CU_ASSERT_EQUAL_FATAL(sidt_session(&h, "sidn", NULL), 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const wave_case *c = &cases[i];
        unsigned reg = sidt_freq_reg(c->hz);
        double expected = sidt_reg_hz(reg);
        note n = {0, reg, 0x800, c->control, 0x00, 0xF0, 0, 0, 0x0F};
        CU_ASSERT_EQUAL_FATAL(play("sidn", &n), 0);
        /* the attack (2 ms) and the output high-pass settle */
        const cJSON *r = sidt_call(&h, "audio_capture", "{\"session\":\"sidn\",\"milliseconds\":100}");
        CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
        CU_ASSERT_STRING_EQUAL(sidt_str(sidt_structured(r), "state"), "paused");

        r = sidt_call(&h, "audio_analyze", "{\"session\":\"sidn\",\"milliseconds\":500}");
        CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
        const cJSON *sc = sidt_structured(r);
        CU_ASSERT_EQUAL(sidt_num(sc, "samples"), 22050);
        double mixed = sidt_num(sc, "mixed.dominant_hz"), voice = sidt_num(sc, "voices.0.dominant_hz");
        double mixed_db = sidt_num(sc, "mixed.rms_dbfs");
        CU_ASSERT_TRUE(mixed_db > -40.0);
        CU_ASSERT_TRUE(isnan(sidt_num(sc, "voices.1.rms_dbfs"))); /* null: silent */
        if (c->control & 0x80) {
            /* noise has no pitch; it steps at 16x the note */
            double steps = sidt_num(sc, "voices.0.step_rate_hz");
            CU_ASSERT_TRUE(rel_error(steps / 16.0, expected) < 0.01);
            CU_ASSERT_TRUE(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(sc, "mixed"), "tonal")));
            fprintf(stderr, "  noise %.2f Hz: step rate %.1f/s -> %.3f Hz (%.3f%%)\n", expected, steps,
                    steps / 16.0, 100.0 * rel_error(steps / 16.0, expected));
        } else {
            CU_ASSERT_TRUE(rel_error(mixed, expected) < 0.01);
            CU_ASSERT_TRUE(rel_error(voice, expected) < 0.01);
            CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(sc, "mixed"), "tonal")));
            /* a pulse holds its level between two edges per period; the
             * others change every sample */
            double steps = sidt_num(sc, "voices.0.step_rate_hz");
            if (c->control & 0x40) CU_ASSERT_TRUE(rel_error(steps, 2.0 * expected) < 0.01);
            if (!(c->control & 0x40)) CU_ASSERT_TRUE(isnan(steps));
            fprintf(stderr, "  %s %.2f Hz: analyze mix %.3f (%.3f%%), voice %.3f\n", c->name,
                    expected, mixed, 100.0 * rel_error(mixed, expected), voice);
        }

        /* the WAV itself, decoded here */
        r = sidt_call(&h, "audio_capture", "{\"session\":\"sidn\",\"milliseconds\":300}");
        CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
        int16_t *samples = NULL;
        size_t count = 0;
        unsigned rate = 0;
        CU_ASSERT_EQUAL_FATAL(sidt_wav(r, &samples, &count, &rate), 0);
        CU_ASSERT_EQUAL(rate, 44100);
        CU_ASSERT_EQUAL(count, 13230);
        CU_ASSERT_EQUAL(sidt_num(sidt_structured(r), "samples"), 13230);
        int peak = 0;
        for (size_t k = 0; k < count; k++) peak = abs(samples[k]) > peak ? abs(samples[k]) : peak;
        CU_ASSERT_TRUE(peak > 1000);
        CU_ASSERT_EQUAL(sidt_num(sidt_structured(r), "peak"), peak);
        if (!(c->control & 0x80)) {
            double crossing = sidt_crossing_hz(samples, count, rate);
            CU_ASSERT_TRUE(rel_error(crossing, expected) < 0.01);
            fprintf(stderr, "    decoded WAV: zero crossings %.3f Hz (%.3f%%)\n", crossing,
                    100.0 * rel_error(crossing, expected));
        }
        free(samples);
        /* source "last" analyses that same capture again */
        r = sidt_call(&h, "audio_analyze", "{\"session\":\"sidn\",\"source\":\"last\",\"voices\":false}");
        CU_ASSERT_FALSE(mh_harness_is_error(r));
        CU_ASSERT_EQUAL(sidt_num(sidt_structured(r), "samples"), 13230);
        CU_ASSERT_EQUAL(sidt_num(sidt_structured(r), "mixed.peak"), peak);
        CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(sidt_structured(r), "voices")), 0);
    }
    sidt_destroy(&h, "sidn");
}

/* ---- the envelope in time ---- */

static const cJSON *voice1(const char *session, double *level, char *phase, size_t phase_size)
{
    const cJSON *r = sidt_call(&h, "sid_voices_get", "{\"session\":\"%s\",\"voice\":1}", session);
    const cJSON *sc = sidt_structured(r);
    *level = sidt_num(sc, "voices.0.envelope_level");
    snprintf(phase, phase_size, "%s", sidt_str(sc, "voices.0.envelope_phase"));
    return sc;
}

static void advance_ms(const char *session, int ms)
{
    const cJSON *r = sidt_call(&h, "audio_capture", "{\"session\":\"%s\",\"milliseconds\":%d}", session, ms);
    CU_ASSERT_FALSE(mh_harness_is_error(r));
}

static void test_adsr_in_time(void)
{
    CU_ASSERT_EQUAL_FATAL(sidt_session(&h, "sida", NULL), 0);
    /* ADSR 8/8/8/8: attack 255 x 392 cycles = 101.5 ms; decay 255 -> $88 =
     * 119 x 392 = 47.3 ms; release $88 -> 0: 637 x 392 = 253.4 ms */
    note n = {0, sidt_freq_reg(440.0), 0x800, 0x11, 0x88, 0x88, 0, 0, 0x0F};
    CU_ASSERT_EQUAL_FATAL(play("sida", &n), 0);
    double level = 0;
    char phase[16];
    advance_ms("sida", 50);
    const cJSON *sc = voice1("sida", &level, phase, sizeof phase);
    fprintf(stderr, "  ADSR 8/8/8/8: attack %.2f ms, decay %.2f ms, release %.2f ms\n",
            sidt_num(sc, "voices.0.attack_ms"), sidt_num(sc, "voices.0.decay_ms"),
            sidt_num(sc, "voices.0.release_ms"));
    CU_ASSERT_DOUBLE_EQUAL(sidt_num(sc, "voices.0.attack_ms"), 101.46, 0.01);
    CU_ASSERT_DOUBLE_EQUAL(sidt_num(sc, "voices.0.decay_ms"), 47.35, 0.01);
    CU_ASSERT_DOUBLE_EQUAL(sidt_num(sc, "voices.0.release_ms"), 253.44, 0.01);

    CU_ASSERT_STRING_EQUAL(phase, "attack");
    CU_ASSERT_DOUBLE_EQUAL(level, 50.0 / 101.46 * 255.0, 4.0);
    advance_ms("sida", 70); /* 120 ms: 18.5 ms into the decay */
    voice1("sida", &level, phase, sizeof phase);
    CU_ASSERT_STRING_EQUAL(phase, "decay");
    CU_ASSERT_DOUBLE_EQUAL(level, 255.0 - 18.54 / 0.39787, 4.0);
    advance_ms("sida", 80); /* 200 ms: sustain */
    voice1("sida", &level, phase, sizeof phase);
    CU_ASSERT_STRING_EQUAL(phase, "sustain");
    CU_ASSERT_EQUAL(level, 0x88);

    const cJSON *r = sidt_call(&h, "sid_registers_set", "{\"session\":\"sida\",\"register\":\"v1_control\",\"value\":16}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    advance_ms("sida", 100);
    voice1("sida", &level, phase, sizeof phase);
    CU_ASSERT_STRING_EQUAL(phase, "release");
    /* 100 ms = 251 periods: 43 (136->93) + 78 (->54) + 112 (->26) leaves 18:
     * two more steps of 8 periods -> level 24 */
    CU_ASSERT_DOUBLE_EQUAL(level, 24.0, 2.0);
    advance_ms("sida", 160); /* 260 ms after the gate went off */
    sc = voice1("sida", &level, phase, sizeof phase);
    CU_ASSERT_EQUAL(level, 0);
    CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(sc, "voices"), 0),
                                                    "envelope_held_at_zero")));

    /* gate again and follow the RMS over time in 20 ms windows */
    r = sidt_call(&h, "sid_registers_set", "{\"session\":\"sida\",\"register\":\"v1_control\",\"value\":17}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    r = sidt_call(&h, "audio_analyze", "{\"session\":\"sida\",\"milliseconds\":240,\"window_ms\":20}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    sc = sidt_structured(r);
    const cJSON *windows = cJSON_GetObjectItem(cJSON_GetObjectItem(sc, "voices") ? cJSON_GetArrayItem(cJSON_GetObjectItem(sc, "voices"), 0) : NULL,
                                               "rms_windows_dbfs");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(windows), 12);
    double w[12];
    for (int i = 0; i < 12; i++) w[i] = cJSON_GetArrayItem(windows, i)->valuedouble;
    /* attack: windows 0-4 (0-100 ms) rise; sustain (160-240 ms) sits
     * 20 log10(255/136) = 5.5 dB under the peak */
    for (int i = 1; i < 5; i++) CU_ASSERT_TRUE(w[i] > w[i - 1] + 1.0);
    CU_ASSERT_DOUBLE_EQUAL(w[5] - w[11], 5.5, 1.0);
    CU_ASSERT_DOUBLE_EQUAL(w[10], w[11], 0.2);
    sidt_destroy(&h, "sida");
}

/* ---- OSC3 / ENV3 ---- */

static void test_osc3_env3(void)
{
    CU_ASSERT_EQUAL_FATAL(sidt_session(&h, "sido", NULL), 0);
    /* voice 3 sawtooth at $8000, attack 0 / sustain 15; wait ~3.3 ms for
     * the attack, read OSC3 twice 8 cycles apart and ENV3, keep looping */
    const char *source =
        "        *= $C000\n"
        "        SEI\n"
        "        LDA #$0F\n        STA $D418\n"
        "        LDA #$00\n        STA $D40E\n"
        "        LDA #$80\n        STA $D40F\n"
        "        LDA #$00\n        STA $D413\n"
        "        LDA #$F0\n        STA $D414\n"
        "        LDA #$21\n        STA $D412\n"
        "        LDX #0\n"
        "        LDY #3\n"
        "wait:   DEX\n        BNE wait\n        DEY\n        BNE wait\n"
        "        LDA $D41B\n        STA $C100\n"
        "        LDA $D41B\n        STA $C101\n"
        "        LDA $D41C\n        STA $C102\n"
        "loop:   JMP loop\n";
    CU_ASSERT_EQUAL_FATAL(sidt_program(&h, "sido", source, 0xC000), 0);
    advance_ms("sido", 20);
    /* what the CPU read: read RAM through the memory chip on the session thread */
    const cJSON *r = sidt_call(&h, "sid_registers_get", "{\"session\":\"sido\"}");
    const cJSON *sc = sidt_structured(r);
    double osc3 = sidt_num(sc, "osc3"), env3 = sidt_num(sc, "env3");
    CU_ASSERT_EQUAL(env3, 255);
    /* write-only registers read as last written, long after the write (the
     * chip's own bus value decays after $2000 cycles) */
    CU_ASSERT_EQUAL(sidt_num(sc, "registers.15.value"), 0x80);
    CU_ASSERT_EQUAL(sidt_num(sc, "registers.18.value"), 0x21);
    r = sidt_call(&h, "sid_voices_get", "{\"session\":\"sido\",\"voice\":3}");
    const cJSON *v = sidt_structured(r);
    CU_ASSERT_EQUAL(sidt_num(v, "voices.0.envelope_level"), env3);
    CU_ASSERT_EQUAL(sidt_num(v, "voices.0.waveform_output"), ((unsigned)sidt_num(v, "voices.0.accumulator")) >> 12);
    CU_ASSERT_EQUAL(osc3, ((unsigned)sidt_num(v, "voices.0.waveform_output")) >> 4);
    CU_ASSERT_STRING_EQUAL(sidt_str(v, "voices.0.envelope_phase"), "sustain");

    uint8_t ram[3] = {0, 0, 0};
    CU_ASSERT_EQUAL(sidt_peek(&h, "sido", 0xC100, ram, 3), 0);
    CU_ASSERT_EQUAL((uint8_t)(ram[1] - ram[0]), 4); /* 8 cycles x $8000 >> 16 */
    CU_ASSERT_EQUAL(ram[2], 0xFF);

    /* the test bit holds the oscillator: OSC3 0 */
    r = sidt_call(&h, "sid_registers_set", "{\"session\":\"sido\",\"register\":\"v3_control\",\"value\":\"$29\"}");
    CU_ASSERT_EQUAL(sidt_num(sidt_structured(r), "osc3"), 0);
    advance_ms("sido", 5);
    r = sidt_call(&h, "sid_registers_get", "{\"session\":\"sido\"}");
    CU_ASSERT_EQUAL(sidt_num(sidt_structured(r), "osc3"), 0);
    CU_ASSERT_EQUAL(sidt_num(sidt_structured(r), "env3"), 255);

    /* voice 3 off: the mix goes quiet, voice 3 and OSC3/ENV3 go on */
    r = sidt_call(&h, "sid_registers_set",
                  "{\"session\":\"sido\",\"registers\":{\"v3_control\":\"$21\",\"mode_vol\":\"$8F\"}}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    r = sidt_call(&h, "audio_analyze", "{\"session\":\"sido\",\"milliseconds\":400,\"skip_ms\":200}");
    sc = sidt_structured(r);
    double mixed_db = sidt_num(sc, "mixed.rms_dbfs"), v3_db = sidt_num(sc, "voices.2.rms_dbfs");
    CU_ASSERT_TRUE(isnan(mixed_db) || mixed_db < -60.0);
    CU_ASSERT_TRUE(v3_db > -30.0);
    r = sidt_call(&h, "sid_registers_get", "{\"session\":\"sido\"}");
    CU_ASSERT_EQUAL(sidt_num(sidt_structured(r), "env3"), 255);
    double osc3_a = sidt_num(sidt_structured(r), "osc3");
    advance_ms("sido", 1);
    r = sidt_call(&h, "sid_registers_get", "{\"session\":\"sido\"}");
    CU_ASSERT_NOT_EQUAL(sidt_num(sidt_structured(r), "osc3"), osc3_a);
    fprintf(stderr, "  voice 3 off: mix %.1f dBFS, voice 3 %.1f dBFS\n", mixed_db, v3_db);
    sidt_destroy(&h, "sido");
}

/* ---- the filter ---- */

static void harmonics(const char *session, double f, double *h1, double *h4, double *rms_db)
{
    advance_ms(session, 100); /* the filter and the output high-pass settle */
    const cJSON *r = sidt_call(&h, "audio_capture", "{\"session\":\"%s\",\"milliseconds\":400}", session);
    int16_t *x = NULL;
    size_t n = 0;
    unsigned rate = 0;
    *h1 = *h4 = 0.0;
    *rms_db = sidt_num(sidt_structured(r), "rms_dbfs");
    if (sidt_wav(r, &x, &n, &rate) != 0) return;
    *h1 = sidt_goertzel(x, n, rate, f);
    *h4 = sidt_goertzel(x, n, rate, 4.0 * f);
    free(x);
}

static void test_filter_cutoff(void)
{
    CU_ASSERT_EQUAL_FATAL(sidt_session(&h, "sidf", NULL), 0);
    unsigned reg = sidt_freq_reg(440.0);
    double f = sidt_reg_hz(reg);
    typedef struct filter_case {
        const char *what;
        unsigned fc, mode_vol;
    } filter_case;
    static const filter_case cases[] = {
        {"low-pass, cutoff $080", 0x080, 0x1F},
        {"low-pass, cutoff $7FF", 0x7FF, 0x1F},
        {"high-pass, cutoff $600", 0x600, 0x4F},
    };
    double ratio[3], rms[3];
    for (int i = 0; i < 3; i++) {
        note n = {0, reg, 0x800, 0x21, 0x00, 0xF0, cases[i].fc, 0x01, cases[i].mode_vol};
        CU_ASSERT_EQUAL_FATAL(play("sidf", &n), 0);
        double h1, h4;
        harmonics("sidf", f, &h1, &h4, &rms[i]);
        CU_ASSERT_TRUE_FATAL(h1 > 0.0);
        ratio[i] = 20.0 * log10(h4 / h1);
        fprintf(stderr, "  saw 440 Hz, %s: harmonic 4 / fundamental %.1f dB, RMS %.1f dBFS\n",
                cases[i].what, ratio[i], rms[i]);
    }
    /* a sawtooth's 4th harmonic is 12 dB under the fundamental; the
     * low-pass at the bottom takes it much further down, the high-pass at
     * 5 kHz lifts it relative to the fundamental */
    CU_ASSERT_TRUE(ratio[0] < ratio[1] - 12.0);
    CU_ASSERT_TRUE(ratio[2] > ratio[1] + 6.0);
    CU_ASSERT_TRUE(rms[0] < rms[1] - 3.0);
    sidt_destroy(&h, "sidf");
}

/* ---- files, running machines ---- */

static void test_capture_file_and_state(void)
{
    CU_ASSERT_EQUAL_FATAL(sidt_session(&h, "sidw", NULL), 0);
    note n = {1, sidt_freq_reg(330.0), 0x800, 0x21, 0x00, 0xF0, 0, 0, 0x0F};
    CU_ASSERT_EQUAL_FATAL(play("sidw", &n), 0);
    const cJSON *r = sidt_call(&h, "audio_capture",
                               "{\"session\":\"sidw\",\"frames\":10,\"path\":\"note.wav\",\"source\":\"voice2\"}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    const cJSON *sc = sidt_structured(r);
    char expected[256];
    snprintf(expected, sizeof expected, "%s/note.wav", tmpdir);
    CU_ASSERT_PTR_NOT_NULL(strstr(sidt_str(sc, "path"), "/note.wav"));
    CU_ASSERT_STRING_EQUAL(sidt_str(sc, "source"), "voice2");
    CU_ASSERT_TRUE(sidt_num(sc, "peak") > 1000);
    /* 10 PAL frames = 196560 cycles = 8798 samples */
    CU_ASSERT_EQUAL(sidt_num(sc, "samples"), 8798);
    CU_ASSERT_TRUE(sidt_num(sc, "cycles") >= 196560 - 25);
    FILE *file = fopen(expected, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(file);
    uint8_t header[44];
    CU_ASSERT_EQUAL(fread(header, 1, 44, file), 44);
    fseek(file, 0, SEEK_END);
    CU_ASSERT_EQUAL(ftell(file), 44 + 2 * 8798);
    fclose(file);
    CU_ASSERT_EQUAL(memcmp(header, "RIFF", 4), 0);
    CU_ASSERT_EQUAL(sidt_num(sc, "wav_bytes"), 44 + 2 * 8798);
    int16_t *x = NULL;
    size_t count = 0;
    unsigned rate = 0;
    CU_ASSERT_EQUAL(sidt_wav(r, &x, &count, &rate), 0);
    CU_ASSERT_EQUAL(count, 8798);
    free(x);

    /* what a capture costs (printed, never asserted): 2 s of machine time
     * run plainly, captured (WAV + base64 + JSON) and analysed */
    double best[3] = {1e9, 1e9, 1e9};
    for (int round = 0; round < 3; round++) {
        double t0 = sidt_now();
        sidt_advance(&h, "sidw", 2 * 985248);
        double t1 = sidt_now();
        sidt_call(&h, "audio_capture", "{\"session\":\"sidw\",\"milliseconds\":2000}");
        double t2 = sidt_now();
        sidt_call(&h, "audio_analyze", "{\"session\":\"sidw\",\"milliseconds\":2000}");
        double t3 = sidt_now();
        best[0] = t1 - t0 < best[0] ? t1 - t0 : best[0];
        best[1] = t2 - t1 < best[1] ? t2 - t1 : best[1];
        best[2] = t3 - t2 < best[2] ? t3 - t2 : best[2];
    }
    fprintf(stderr, "  2 s of machine time, best of 3: advance %.1f ms (%.0fx real time), "
                    "audio_capture %.1f ms (%.0fx), audio_analyze %.1f ms (%.0fx)\n",
            best[0] * 1e3, 2.0 / best[0], best[1] * 1e3, 2.0 / best[1], best[2] * 1e3, 2.0 / best[2]);

    /* a running machine: refused, then paused and captured */
    mh_session *s = mh_sessions_find(h.ctx.sessions, "sidw");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    mh_run_request run = {sizeof run, MH_GOAL_CONTINUE, 0, 0, 1};
    char error[256];
    CU_ASSERT_EQUAL(mh_debug_service_impl.run(s, &run, error, sizeof error), MH_OK);
    r = sidt_call(&h, "audio_capture", "{\"session\":\"sidw\",\"frames\":1}");
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "pause it first"));
    mh_debug_service_impl.pause(s);
    r = sidt_call(&h, "audio_capture", "{\"session\":\"sidw\",\"frames\":1}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    CU_ASSERT_STRING_EQUAL(sidt_str(sidt_structured(r), "state"), "paused");
    mh_session_unref(s);
    sidt_destroy(&h, "sidw");
    /* a new session of the same name does not see the old one's capture */
    CU_ASSERT_EQUAL_FATAL(sidt_session(&h, "sidw", NULL), 0);
    r = sidt_call(&h, "audio_analyze", "{\"session\":\"sidw\",\"source\":\"last\"}");
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "no capture yet"));
    sidt_destroy(&h, "sidw");
}

/* A jammed CPU: the chips' clock goes on, so the note it set up keeps
 * sounding and the capture returns it. */
static void test_jammed_cpu(void)
{
    CU_ASSERT_EQUAL_FATAL(sidt_session(&h, "sidj", NULL), 0);
    const char *source =
        "        *= $C000\n"
        "        LDA #$0F\n        STA $D418\n"
        "        LDA #$00\n        STA $D405\n"
        "        LDA #$F0\n        STA $D406\n"
        "        LDA #$1D\n        STA $D401\n"
        "        LDA #$21\n        STA $D404\n"
        "        .byte $02\n";
    CU_ASSERT_EQUAL_FATAL(sidt_program(&h, "sidj", source, 0xC000), 0);
    const cJSON *r = sidt_call(&h, "audio_capture", "{\"session\":\"sidj\",\"milliseconds\":100}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    CU_ASSERT_EQUAL(sidt_num(sidt_structured(r), "samples"), 4410);
    CU_ASSERT_TRUE(sidt_num(sidt_structured(r), "peak") > 1000);
    /* the state is the debug engine's (it reported "paused" when written) */
    CU_ASSERT_NOT_EQUAL(strlen(sidt_str(sidt_structured(r), "state")), 0);
    sidt_destroy(&h, "sidj");
}

/* A breakpoint ends a capture early: the audio up to there, the machine
 * stopped. */
typedef struct bp_job {
    mh_status status;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
} bp_job;

static void bp_add_run(void *arg, mh_session *s)
{
    bp_job *job = arg;
    if (s) {
        mh_breakpoint_spec spec;
        memset(&spec, 0, sizeof spec);
        spec.struct_size = sizeof spec;
        spec.kinds = MH_BP_WRITE;
        spec.start = spec.end = 0xC200;
        uint32_t id = 0;
        char error[256];
        job->status = mh_debug_service_impl.bp_add(s, &spec, &id, error, sizeof error);
    }
    pthread_mutex_lock(&job->lock);
    job->done = 1;
    pthread_cond_signal(&job->cond);
    pthread_mutex_unlock(&job->lock);
}

static void test_breakpoint_ends_capture(void)
{
    CU_ASSERT_EQUAL_FATAL(sidt_session(&h, "sidk", NULL), 0);
    /* a note, then ~12 ms of delay (X*Y loops of 5 cycles), then the write
     * the breakpoint watches */
    const char *source =
        "        *= $C000\n"
        "        SEI\n"
        "        LDA #$0F\n        STA $D418\n"
        "        LDA #$00\n        STA $D405\n"
        "        LDA #$F0\n        STA $D406\n"
        "        LDA #$1D\n        STA $D401\n"
        "        LDA #$21\n        STA $D404\n"
        "        LDX #0\n        LDY #9\n"
        "wait:   DEX\n        BNE wait\n        DEY\n        BNE wait\n"
        "        STA $C200\n"
        "loop:   JMP loop\n";
    CU_ASSERT_EQUAL_FATAL(sidt_program(&h, "sidk", source, 0xC000), 0);
    bp_job job = {MH_ERR_INTERNAL, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    mh_session *s = mh_sessions_find(h.ctx.sessions, "sidk");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    mh_session_post(s, bp_add_run, &job);
    pthread_mutex_lock(&job.lock);
    while (!job.done) pthread_cond_wait(&job.cond, &job.lock);
    pthread_mutex_unlock(&job.lock);
    mh_session_unref(s);
    CU_ASSERT_EQUAL_FATAL(job.status, MH_OK);

    const cJSON *r = sidt_call(&h, "audio_capture", "{\"session\":\"sidk\",\"milliseconds\":200}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    const cJSON *sc = sidt_structured(r);
    CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(sc, "stopped_at_breakpoint")));
    CU_ASSERT_STRING_EQUAL(sidt_str(sc, "state"), "stopped");
    double samples = sidt_num(sc, "samples");
    /* 9 x 256 x 5 cycles = 11.7 ms: the audio ends at the write */
    CU_ASSERT_TRUE(samples > 500 && samples < 540);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "a breakpoint stopped the machine early"));
    int16_t *x = NULL;
    size_t count = 0;
    unsigned rate = 0;
    CU_ASSERT_EQUAL(sidt_wav(r, &x, &count, &rate), 0);
    CU_ASSERT_EQUAL((double)count, samples);
    free(x);
    fprintf(stderr, "  breakpoint after ~11.7 ms: %.0f samples (%.1f ms)\n", samples, samples / 44.1);
    sidt_destroy(&h, "sidk");
}

MH_SUITE("tools_audio.sid", suite_init, suite_cleanup, MH_TEST(test_waveform_notes),
         MH_TEST(test_adsr_in_time), MH_TEST(test_osc3_env3), MH_TEST(test_filter_cutoff),
         MH_TEST(test_capture_file_and_state), MH_TEST(test_jammed_cpu),
         MH_TEST(test_breakpoint_ends_capture))
