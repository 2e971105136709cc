/* tools_sid_voices.c - sid_voices_get: per voice the frequency (register,
 * Hz, nearest note), waveforms, pulse width (register and %), control bits,
 * ADSR values with their times in ms, and the live envelope (phase, level)
 * and oscillator (accumulator, waveform output) of this cycle. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <mcphost/audio_analysis.h>

#include "tools_sid.h"

static double round_to(double value, double step) { return round(value / step) * step; }

static void write_ms(mh_json_writer *w, const char *key, double ms)
{
    mh_json_write_key(w, key);
    mh_json_write_double(w, round_to(ms, 0.01));
}

static void write_voice(mh_json_writer *w, const mh_chip_sid_voice *v, unsigned index,
                        uint32_t clock, char *text, size_t text_size)
{
    double hz = ts_freq_hz(v->freq, clock);
    char note[16], waves[48];
    double cents = 0.0;
    mh_audio_note(hz, note, sizeof note, &cents);
    double whole_cents = round(cents);
    if (whole_cents == 0.0) whole_cents = 0.0; /* no "-0" */
    ts_waveform_text(v->control, waves, sizeof waves);
    unsigned a = v->attack_decay >> 4, d = v->attack_decay & 15u;
    unsigned s = v->sustain_release >> 4, r = v->sustain_release & 15u;
    unsigned sustain_level = s * 0x11u;
    double attack_ms = ts_attack_ms(a, clock);
    double decay_ms = ts_decay_ms(d, 255, sustain_level, clock);
    double release_ms = ts_decay_ms(r, sustain_level, 0, clock);

    mh_json_write_object_begin(w);
    mh_json_write_key(w, "voice");
    mh_json_write_uint(w, index + 1);
    mh_json_write_key(w, "frequency");
    mh_json_write_uint(w, v->freq);
    mh_json_write_key(w, "frequency_hz");
    mh_json_write_double(w, round_to(hz, 0.001));
    mh_json_write_key(w, "note");
    mh_json_write_string(w, note);
    mh_json_write_key(w, "cents");
    mh_json_write_double(w, round_to(cents, 0.1));
    mh_json_write_key(w, "waveforms");
    ts_write_waveforms(w, v->control);
    mh_json_write_key(w, "pulse_width");
    mh_json_write_uint(w, v->pw);
    mh_json_write_key(w, "pulse_width_percent");
    mh_json_write_double(w, round_to(v->pw * 100.0 / 4096.0, 0.01));
    mh_json_write_key(w, "control");
    mh_json_write_uint(w, v->control);
    static const char *const bits[4] = {"gate", "sync", "ring", "test"};
    for (int i = 0; i < 4; i++) {
        mh_json_write_key(w, bits[i]);
        mh_json_write_bool(w, (v->control >> i) & 1u);
    }
    mh_json_write_key(w, "attack");
    mh_json_write_uint(w, a);
    mh_json_write_key(w, "decay");
    mh_json_write_uint(w, d);
    mh_json_write_key(w, "sustain");
    mh_json_write_uint(w, s);
    mh_json_write_key(w, "release");
    mh_json_write_uint(w, r);
    write_ms(w, "attack_ms", attack_ms);
    write_ms(w, "decay_ms", decay_ms);
    mh_json_write_key(w, "sustain_level");
    mh_json_write_uint(w, sustain_level);
    write_ms(w, "release_ms", release_ms);
    mh_json_write_key(w, "envelope_phase");
    mh_json_write_string(w, mh_chip_sid_phase_name(v->phase));
    mh_json_write_key(w, "envelope_level");
    mh_json_write_uint(w, v->level);
    mh_json_write_key(w, "envelope_held_at_zero");
    mh_json_write_bool(w, v->held_at_zero != 0);
    mh_json_write_key(w, "accumulator");
    mh_json_write_uint(w, v->accumulator);
    mh_json_write_key(w, "waveform_output");
    mh_json_write_uint(w, v->wave_output);
    mh_json_write_object_end(w);

    snprintf(text, text_size,
             "voice %u: %.2f Hz (%s %+.0f cents, $%04X) %s pw %.1f%%%s%s%s%s, ADSR %X/%X/%X/%X "
             "(attack %.1f ms, decay %.1f ms to level %u, release %.1f ms), envelope %s at %u\n",
             index + 1, hz, note, whole_cents, v->freq, waves, v->pw * 100.0 / 4096.0,
             v->control & 1u ? " gate" : "", v->control & 2u ? " sync" : "",
             v->control & 4u ? " ring" : "", v->control & 8u ? " test" : "", a, d, s, r,
             attack_ms, decay_ms, sustain_level, release_ms, mh_chip_sid_phase_name(v->phase),
             v->level);
}

static void voices_get(void *user, mh_call *call)
{
    ts_plugin *plugin = user;
    void *context = NULL;
    const mh_chip_sid_iface *sid = ts_chip(plugin, call, &context);
    if (!sid) {
        ts_errorf(plugin, call, "sid_voices_get: the SID chip interface is missing or too old");
        return;
    }
    char err[MH_ARGS_ERROR_SIZE];
    mh_json_doc *doc = NULL;
    const mh_json *args = mh_args_parse(plugin->call->args(call), &doc, err, sizeof err);
    int64_t only = 0;
    mh_status status = args ? mh_args_int(args, "voice", 1, 3, &only, err, sizeof err)
                            : MH_ERR_INVALID_ARGUMENT;
    mh_json_free(doc);
    if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
        ts_errorf(plugin, call, "sid_voices_get: %s (voices are numbered 1-3; leave `voice` out "
                                "for all three)", err);
        return;
    }
    uint32_t clock = sid->clock_hz(context);
    mh_json_writer *w = mh_json_writer_new();
    char text[1600];
    size_t used = 0;
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "model");
    mh_json_write_string(w, sid->model_name(context));
    mh_json_write_key(w, "clock_hz");
    mh_json_write_uint(w, clock);
    mh_json_write_key(w, "voices");
    mh_json_write_array_begin(w);
    text[0] = '\0';
    for (unsigned v = 0; v < 3; v++) {
        if (only && v + 1 != (unsigned)only) continue;
        mh_chip_sid_voice voice;
        memset(&voice, 0, sizeof voice);
        voice.struct_size = sizeof voice;
        if (sid->voice(context, v, &voice) != MH_OK) continue;
        char line[400];
        write_voice(w, &voice, v, clock, line, sizeof line);
        if (used < sizeof text) {
            int n = snprintf(text + used, sizeof text - used, "%s", line);
            if (n > 0) used += (size_t)n;
        }
    }
    mh_json_write_array_end(w);
    ts_write_state(plugin, call, w);
    mh_json_write_object_end(w);
    ts_finish(plugin, call, w, text);
}

static const char voices_input[] =
    "{\"type\":\"object\",\"properties\":{\"voice\":{\"type\":\"integer\","
    "\"description\":\"Only this voice (1-3; default all)\"}},\"additionalProperties\":false}";

static const char voices_output[] =
    "{\"type\":\"object\",\"required\":[\"voices\",\"state\"]}";

mh_status ts_register_voices(ts_plugin *plugin)
{
    mh_tool_desc tool;
    memset(&tool, 0, sizeof tool);
    tool.struct_size = sizeof tool;
    tool.name = "sid_voices_get";
    tool.title = "SID voices";
    tool.description =
        "The three voices now: frequency (Hz, note, cents), waveforms, pulse width, control "
        "bits, ADSR times in ms, the live envelope phase and level, accumulator and output. "
        "Between audio_capture calls it follows an envelope in time.";
    tool.input_schema = voices_input;
    tool.output_schema = voices_output;
    tool.annotations = MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT;
    tool.requires = MH_CHIP_SID_IFACE;
    tool.seed_name = "vice.sid.voices.get";
    tool.call = voices_get;
    tool.user_data = plugin;
    return plugin->registry->add_tool(plugin->host, &tool);
}
