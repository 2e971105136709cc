/* tools_sid.registers - the tools-sid plugin against the real C64 in the
 * in-process host: sid_registers_set by name, label, number, address and
 * as a set; sid_registers_get and sid_voices_get decode hand-made
 * register sets (frequency in Hz, note, pulse width %, waveforms, control
 * bits, ADSR values and times, filter routing/modes/cutoff in Hz); bad
 * inputs give errors that say what is wrong and what to do; a path
 * outside the allowed directories is refused before anything runs.
 * Needs /usr/share/open-roms/C64. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mh_test.h"
#include "sid.h"
#include "test_tools_sid_common.h"

static mh_harness h;
static char tmpdir[64];

static int suite_init(void) { return sidt_init(&h, tmpdir, sizeof tmpdir); }

static int suite_cleanup(void)
{
    sidt_cleanup(&h, tmpdir);
    return 0;
}

static int is_error_with(const cJSON *r, const char *needle)
{
    if (!r || !mh_harness_is_error(r)) {
        fprintf(stderr, "expected an error with \"%s\", got %s\n", needle, r ? mh_harness_text(r) : "nothing");
        return 0;
    }
    if (!strstr(mh_harness_text(r), needle)) {
        fprintf(stderr, "error \"%s\" lacks \"%s\"\n", mh_harness_text(r), needle);
        return 0;
    }
    return 1;
}

static void test_set_and_decode(void)
{
    CU_ASSERT_EQUAL_FATAL(sidt_session(&h, "sidr", NULL), 0);
    const cJSON *r = sidt_call(
        &h, "sid_registers_set",
        "{\"session\":\"sidr\",\"registers\":{\"v1_freq\":7492,\"v1_pw\":2048,"
        "\"v1_attack_decay\":\"$49\",\"SUREL1\":\"$A8\",\"fc\":1234,\"res_filt\":\"$F5\","
        "\"$D418\":\"$9F\",\"12\":\"$3A\",\"v2_sustain_release\":7,\"54283\":\"$61\","
        "\"v1_control\":\"$41\"}}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    const cJSON *sc = sidt_structured(r);
    /* the composite v1_freq is two writes, low byte first */
    CU_ASSERT_STRING_EQUAL(sidt_str(sc, "written.0.name"), "v1_freq_lo");
    CU_ASSERT_EQUAL(sidt_num(sc, "written.0.value"), 7492 & 0xFF);
    CU_ASSERT_STRING_EQUAL(sidt_str(sc, "written.1.address_hex"), "$D401");
    CU_ASSERT_EQUAL(sidt_num(sc, "written.1.value"), 7492 >> 8);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "$D404 (v1_control) = $41"));

    r = sidt_call(&h, "sid_registers_get", "{\"session\":\"sidr\"}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    sc = sidt_structured(r);
    CU_ASSERT_STRING_EQUAL(sidt_str(sc, "model"), "6581"); /* PAL default */
    CU_ASSERT_EQUAL(sidt_num(sc, "clock_hz"), 985248);
    CU_ASSERT_EQUAL(sidt_num(sc, "registers.0.value"), 0x44);
    CU_ASSERT_EQUAL(sidt_num(sc, "registers.1.value"), 0x1D);
    CU_ASSERT_EQUAL(sidt_num(sc, "registers.2.value"), 0x00);
    CU_ASSERT_EQUAL(sidt_num(sc, "registers.3.value"), 0x08);
    CU_ASSERT_EQUAL(sidt_num(sc, "registers.4.address"), 0xD404);
    CU_ASSERT_STRING_EQUAL(sidt_str(sc, "registers.4.value_hex"), "$41");
    CU_ASSERT_EQUAL(sidt_num(sc, "registers.21.value"), 1234 & 7);
    CU_ASSERT_EQUAL(sidt_num(sc, "registers.22.value"), 1234 >> 3);
    CU_ASSERT_EQUAL(sidt_num(sc, "voices.0.frequency"), 7492);
    CU_ASSERT_DOUBLE_EQUAL(sidt_num(sc, "voices.0.frequency_hz"), sidt_reg_hz(7492), 0.001);
    CU_ASSERT_EQUAL(sidt_num(sc, "voices.0.pulse_width"), 2048);
    CU_ASSERT_STRING_EQUAL(sidt_str(sc, "voices.0.waveforms.0"), "pulse");
    CU_ASSERT_PTR_NULL(cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(
        cJSON_GetObjectItem(sc, "voices"), 0), "waveforms"), 1));
    CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(sc, "voices"), 0), "gate")));
    CU_ASSERT_EQUAL(sidt_num(sc, "voices.0.attack"), 4);
    CU_ASSERT_EQUAL(sidt_num(sc, "voices.0.decay"), 9);
    CU_ASSERT_EQUAL(sidt_num(sc, "voices.0.sustain"), 10);
    CU_ASSERT_EQUAL(sidt_num(sc, "voices.0.release"), 8);
    /* register 12 = v2_attack_decay; 54283 = $D40B = v2_control */
    CU_ASSERT_EQUAL(sidt_num(sc, "voices.1.attack"), 3);
    CU_ASSERT_EQUAL(sidt_num(sc, "voices.1.decay"), 10);
    CU_ASSERT_EQUAL(sidt_num(sc, "voices.1.release"), 7);
    CU_ASSERT_STRING_EQUAL(sidt_str(sc, "voices.1.waveforms.0"), "sawtooth");
    CU_ASSERT_STRING_EQUAL(sidt_str(sc, "voices.1.waveforms.1"), "pulse");
    CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(sc, "voices"), 1), "gate")));
    CU_ASSERT_EQUAL(sidt_num(sc, "filter.cutoff"), 1234);
    CU_ASSERT_EQUAL(sidt_num(sc, "filter.cutoff_hz"), m6581_cutoff_hz(M6581_MODEL_6581, 1234));
    CU_ASSERT_EQUAL(sidt_num(sc, "filter.resonance"), 15);
    CU_ASSERT_EQUAL(sidt_num(sc, "filter.voices_filtered.0"), 1);
    CU_ASSERT_EQUAL(sidt_num(sc, "filter.voices_filtered.1"), 3);
    CU_ASSERT_STRING_EQUAL(sidt_str(sc, "filter.modes.0"), "low_pass");
    CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(sc, "filter"), "voice3_off")));
    CU_ASSERT_EQUAL(sidt_num(sc, "filter.volume"), 15);
    CU_ASSERT_EQUAL(sidt_num(sc, "potx"), 0xFF);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "voice 1: freq $1D44 (439.9"));

    /* one register by label, number, address text and address number */
    r = sidt_call(&h, "sid_registers_set", "{\"session\":\"sidr\",\"register\":\"VCREG1\",\"value\":16}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    r = sidt_call(&h, "sid_registers_set", "{\"session\":\"sidr\",\"register\":5,\"value\":\"$00\"}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    r = sidt_call(&h, "sid_registers_set", "{\"session\":\"sidr\",\"register\":\"$D406\",\"value\":\"0xF0\"}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    r = sidt_call(&h, "sid_registers_set", "{\"session\":\"sidr\",\"register\":54289,\"value\":8}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    sc = sidt_structured(r);
    CU_ASSERT_EQUAL(sidt_num(sc, "registers.4.value"), 16);
    CU_ASSERT_EQUAL(sidt_num(sc, "registers.5.value"), 0);
    CU_ASSERT_EQUAL(sidt_num(sc, "registers.6.value"), 0xF0);
    CU_ASSERT_EQUAL(sidt_num(sc, "registers.17.value"), 8); /* $D411 v3_pw_hi */
    CU_ASSERT_STRING_EQUAL(sidt_str(sc, "written.0.name"), "v3_pw_hi");
    sidt_destroy(&h, "sidr");
}

static void test_voices_decode(void)
{
    CU_ASSERT_EQUAL_FATAL(sidt_session(&h, "sidv", NULL), 0);
    const cJSON *r = sidt_call(
        &h, "sid_registers_set",
        "{\"session\":\"sidv\",\"registers\":{\"v1_freq\":7492,\"v1_pw\":1024,"
        "\"v1_attack_decay\":\"$49\",\"v1_sustain_release\":\"$A8\",\"v1_control\":\"$47\","
        "\"v3_freq\":\"$0100\",\"v3_control\":\"$10\"}}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    r = sidt_call(&h, "sid_voices_get", "{\"session\":\"sidv\"}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    const cJSON *sc = sidt_structured(r);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(sc, "voices")), 3);
    CU_ASSERT_EQUAL(sidt_num(sc, "voices.0.voice"), 1);
    CU_ASSERT_DOUBLE_EQUAL(sidt_num(sc, "voices.0.frequency_hz"), 439.98, 0.01);
    CU_ASSERT_STRING_EQUAL(sidt_str(sc, "voices.0.note"), "A4");
    CU_ASSERT_DOUBLE_EQUAL(sidt_num(sc, "voices.0.pulse_width_percent"), 25.0, 0.001);
    const cJSON *v1 = cJSON_GetArrayItem(cJSON_GetObjectItem(sc, "voices"), 0);
    CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(v1, "gate")));
    CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(v1, "sync")));
    CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(v1, "ring")));
    CU_ASSERT_TRUE(cJSON_IsFalse(cJSON_GetObjectItem(v1, "test")));
    /* attack 4: 255 steps of 149 cycles; decay 9 (977 cycles) from 255 to
     * $AA = 170: 85 steps; release 8 (392) from 170 to 0: 77x1 + 39x2 +
     * 28x4 + 12x8 + 8x16 + 6x30 = 671 periods */
    CU_ASSERT_DOUBLE_EQUAL(sidt_num(sc, "voices.0.attack_ms"), 255.0 * 149 / 985248 * 1000, 0.01);
    CU_ASSERT_DOUBLE_EQUAL(sidt_num(sc, "voices.0.decay_ms"), 85.0 * 977 / 985248 * 1000, 0.01);
    CU_ASSERT_DOUBLE_EQUAL(sidt_num(sc, "voices.0.release_ms"), 671.0 * 392 / 985248 * 1000, 0.01);
    CU_ASSERT_EQUAL(sidt_num(sc, "voices.0.sustain_level"), 170);
    /* nothing ran since the gate: attack at level 0 */
    CU_ASSERT_STRING_EQUAL(sidt_str(sc, "voices.0.envelope_phase"), "attack");
    CU_ASSERT_EQUAL(sidt_num(sc, "voices.0.envelope_level"), 0);
    /* voice 2 was never gated: release at 0 */
    CU_ASSERT_STRING_EQUAL(sidt_str(sc, "voices.1.envelope_phase"), "release");
    CU_ASSERT_EQUAL(sidt_num(sc, "voices.1.envelope_level"), 0);
    CU_ASSERT_STRING_EQUAL(sidt_str(sc, "voices.2.waveforms.0"), "triangle");
    CU_ASSERT_STRING_EQUAL(sidt_str(sc, "voices.2.note"), "B-1"); /* 15.03 Hz */
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "voice 1: 439.97 Hz (A4 +0 cents, $1D44) pulse pw 25.0% gate sync ring"));

    r = sidt_call(&h, "sid_voices_get", "{\"session\":\"sidv\",\"voice\":3}");
    sc = sidt_structured(r);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(sc, "voices")), 1);
    CU_ASSERT_EQUAL(sidt_num(sc, "voices.0.voice"), 3);
    CU_ASSERT_EQUAL(sidt_num(sc, "voices.0.frequency"), 256);
    sidt_destroy(&h, "sidv");
}

static void test_bad_inputs(void)
{
    CU_ASSERT_EQUAL_FATAL(sidt_session(&h, "sidb", NULL), 0);
    const char *set = "sid_registers_set";
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"register\":\"v4_freq\",\"value\":1}"),
                                 "unknown SID register \"v4_freq\""));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"register\":\"v1_control\",\"value\":256}"),
                                 "takes a byte, 0-255"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"registers\":{\"v1_freq\":70000}}"),
                                 "a 16-bit frequency, 0-65535"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"registers\":{\"fc\":2048}}"),
                                 "an 11-bit cutoff, 0-2047"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"register\":\"v1_control\",\"value\":-1}"),
                                 "0-255"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"register\":\"$D41D\",\"value\":1}"),
                                 "not a SID register"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"register\":29,\"value\":1}"),
                                 "$D400-$D41C"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"register\":\"osc3\",\"value\":1}"),
                                 "read-only"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"register\":\"mode_vol\"}"),
                                 "value: missing"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\"}"), "give `register` and `value`"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"registers\":{}}"), "empty"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"registers\":{\"\\\"x\":1}}"),
                                 "unknown SID register"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"registers\":{\"v1_pw\":\"$G0\"}}"),
                                 "v1_pw"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, "sid_voices_get", "{\"session\":\"sidb\",\"voice\":4}"),
                                 "voices are numbered 1-3"));
    const char *cap = "audio_capture";
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, cap, "{\"session\":\"sidb\",\"frames\":0}"), "frames"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, cap, "{\"session\":\"sidb\",\"frames\":100000}"),
                                 "1 to 1500 frames"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, cap, "{\"session\":\"sidb\",\"milliseconds\":30001}"),
                                 "1 to 30000 ms"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, cap, "{\"session\":\"sidb\",\"frames\":2,\"milliseconds\":40}"),
                                 "not both"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, cap, "{\"session\":\"sidb\",\"path\":\"\"}"), "path: empty"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, cap, "{\"session\":\"sidb\",\"source\":\"voice4\"}"), "source"));
    const cJSON *r = sidt_call(&h, cap, "{\"session\":\"sidb\",\"frames\":1,\"path\":\"../escape.wav\"}");
    CU_ASSERT_TRUE(is_error_with(r, "allowed directories"));
    CU_ASSERT_TRUE(is_error_with(r, "nothing was captured"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, cap, "{\"session\":\"sidb\",\"frames\":1,\"path\":\"/etc/x.wav\"}"),
                                 "--allow-dir"));
    const char *ana = "audio_analyze";
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, ana, "{\"session\":\"sidb\",\"source\":\"last\"}"),
                                 "no capture yet"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, ana, "{\"session\":\"sidb\",\"source\":\"last\",\"frames\":3}"),
                                 "leave `frames` and `milliseconds` out"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, ana, "{\"session\":\"sidb\",\"window_ms\":0}"), "1-1000 ms"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, ana, "{\"session\":\"sidb\",\"milliseconds\":10,\"skip_ms\":20}"),
                                 "leaves nothing"));
    /* hostile spellings */
    char longname[400];
    memset(longname, 'x', 300);
    longname[300] = '\0';
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"registers\":{\"%s\":1}}", longname),
                                 "unknown SID register \"xxxx"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"register\":\"v1_control\",\"value\":1.5}"),
                                 "'value'"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"register\":\"v1_control\",\"value\":\"$100\"}"),
                                 "0-255"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"register\":\"$D4\\\"00\",\"value\":1}"),
                                 "unknown SID register"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"register\":\"-4\",\"value\":1}"),
                                 "unknown SID register \"-4\""));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"register\":-4,\"value\":1}"),
                                 "not a SID register"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"register\":true,\"value\":1}"),
                                 "register"));
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, set, "{\"session\":\"sidb\",\"registers\":{\"v1_control\":[1]}}"),
                                 "v1_control"));
    /* the host's schema check names an unknown argument */
    CU_ASSERT_TRUE(is_error_with(sidt_call(&h, "sid_registers_get", "{\"session\":\"sidb\",\"bogus\":1}"),
                                 "bogus"));
    sidt_destroy(&h, "sidb");
    /* nothing was written outside */
    FILE *f = fopen("/tmp/escape.wav", "rb");
    CU_ASSERT_PTR_NULL(f);
    if (f) fclose(f);
}

static void test_8580(void)
{
    CU_ASSERT_EQUAL_FATAL(sidt_session(&h, "sid8", "{\"sid_model\":\"8580\"}"), 0);
    const cJSON *r = sidt_call(&h, "sid_registers_set", "{\"session\":\"sid8\",\"register\":\"fc\",\"value\":1023}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    const cJSON *sc = sidt_structured(r);
    CU_ASSERT_STRING_EQUAL(sidt_str(sc, "model"), "8580");
    /* the 8580's linear curve: 30 Hz + 12470 Hz * 1023 / 2047 */
    CU_ASSERT_EQUAL(sidt_num(sc, "filter.cutoff_hz"), m6581_cutoff_hz(M6581_MODEL_8580, 1023));
    CU_ASSERT_DOUBLE_EQUAL(sidt_num(sc, "filter.cutoff_hz"), 30 + 12470.0 * 1023 / 2047, 2.0);
    sidt_destroy(&h, "sid8");
}

static void test_sound_off(void)
{
    CU_ASSERT_EQUAL_FATAL(sidt_session(&h, "sidq", "{\"sound\":\"off\"}"), 0);
    const cJSON *r = sidt_call(&h, "audio_capture", "{\"session\":\"sidq\",\"frames\":2}");
    CU_ASSERT_TRUE(is_error_with(r, "sound synthesis is off"));
    /* registers still decode */
    r = sidt_call(&h, "sid_registers_set", "{\"session\":\"sidq\",\"register\":\"v1_freq\",\"value\":1000}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    CU_ASSERT_EQUAL(sidt_num(sidt_structured(r), "voices.0.frequency"), 1000);
    sidt_destroy(&h, "sidq");
}

MH_SUITE("tools_sid.registers", suite_init, suite_cleanup, MH_TEST(test_set_and_decode),
         MH_TEST(test_voices_decode), MH_TEST(test_bad_inputs), MH_TEST(test_8580), MH_TEST(test_sound_off))
