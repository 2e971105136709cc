/* tools_audio.c - audio_capture (run the paused machine for N
 * frames or milliseconds, return the sound as MCP audio content, a WAV,
 * and optionally write it: confined by mh.files/1, written by
 * mcphost/file_write.h, an existing file only with overwrite: true) and
 * audio_analyze (capture the same way, or take the session's last capture,
 * and measure peak, RMS and dominant frequency of the mix and, on a SID, of
 * each voice).
 * Both keep what they captured as the session's last capture. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <mcphost/file_write.h>
#include <mcphost/audio_analysis.h>
#include <mcphost/wav.h>

#include "tools_audio.h"

#define TA_MAX_FRAMES 1500
#define TA_MAX_MS 30000
#define TA_DEFAULT_MS 500
#define TA_MAX_WINDOWS 2000

static const char *const sources[4] = {"mixed", "voice1", "voice2", "voice3"};

typedef struct audio_args {
    size_t samples;
    int64_t frames, ms;   /* what was asked (0: not given) */
    const char *path;     /* capture: NULL none */
    bool overwrite;       /* capture: path may replace an existing file */
    size_t source;        /* 0 mixed, 1-3 a voice */
    int use_last;         /* analyze: source "last" */
    int voices;           /* analyze: per-voice results */
    int64_t window_ms;    /* analyze: 0 none */
    int64_t skip_ms;      /* analyze */
} audio_args;

/* frames / milliseconds -> samples; 0 or -1 with err. */
static int parse_length(const mh_json *args, const ta_source *src, audio_args *a, char *err,
                        size_t err_size)
{
    char msg[MH_ARGS_ERROR_SIZE];
    mh_status fs = mh_args_int(args, "frames", 1, TA_MAX_FRAMES, &a->frames, msg, sizeof msg);
    if (fs != MH_OK && fs != MH_ERR_NOT_FOUND) {
        snprintf(err, err_size, "%s (1 to %d frames, about %d s on a PAL machine)", msg,
                 TA_MAX_FRAMES, TA_MAX_FRAMES / 50);
        return -1;
    }
    mh_status ms = mh_args_int(args, "milliseconds", 1, TA_MAX_MS, &a->ms, msg, sizeof msg);
    if (ms != MH_OK && ms != MH_ERR_NOT_FOUND) {
        snprintf(err, err_size, "%s (1 to %d ms)", msg, TA_MAX_MS);
        return -1;
    }
    if (fs == MH_OK && ms == MH_OK) {
        snprintf(err, err_size, "give `frames` or `milliseconds`, not both");
        return -1;
    }
    void *context = src->audio_context;
    uint64_t rate = src->audio->sample_rate(context), clock = src->audio->clock_hz(context);
    if (fs == MH_OK) {
        uint64_t frame = src->audio->frame_cycles(context);
        if (!frame) frame = clock / 50u;
        a->samples = (size_t)(((uint64_t)a->frames * frame * rate + clock / 2) / clock);
    } else {
        if (ms != MH_OK) a->ms = TA_DEFAULT_MS;
        a->samples = (size_t)(((uint64_t)a->ms * rate + 500) / 1000);
    }
    if (!a->samples) a->samples = 1;
    return 0;
}

static int parse_common(const mh_json *args, int capture, audio_args *a, char *err,
                        size_t err_size)
{
    char msg[MH_ARGS_ERROR_SIZE];
    memset(a, 0, sizeof *a);
    a->voices = 1;
    if (capture) {
        mh_status st = mh_args_choice(args, "source", sources, 4, &a->source, msg, sizeof msg);
        if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
            snprintf(err, err_size, "%s (the mix, or one voice before the filter)", msg);
            return -1;
        }
        st = mh_args_string(args, "path", &a->path, NULL, msg, sizeof msg);
        if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
            snprintf(err, err_size, "%s", msg);
            return -1;
        }
        if (a->path && !a->path[0]) {
            snprintf(err, err_size, "path: empty; give a file name such as \"note.wav\" or "
                                    "leave `path` out");
            return -1;
        }
        st = mh_args_bool(args, "overwrite", &a->overwrite, msg, sizeof msg);
        if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
            snprintf(err, err_size, "%s", msg);
            return -1;
        }
        return 0;
    }
    static const char *const analyze_sources[2] = {"capture", "last"};
    size_t which = 0;
    mh_status st = mh_args_choice(args, "source", analyze_sources, 2, &which, msg, sizeof msg);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        snprintf(err, err_size, "%s (\"capture\" runs the machine now, \"last\" analyses the "
                                "session's last capture)", msg);
        return -1;
    }
    a->use_last = which == 1;
    bool voices = true;
    st = mh_args_bool(args, "voices", &voices, msg, sizeof msg);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        snprintf(err, err_size, "%s", msg);
        return -1;
    }
    a->voices = voices;
    st = mh_args_int(args, "window_ms", 1, 1000, &a->window_ms, msg, sizeof msg);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        snprintf(err, err_size, "%s (RMS per window of 1-1000 ms)", msg);
        return -1;
    }
    st = mh_args_int(args, "skip_ms", 0, TA_MAX_MS, &a->skip_ms, msg, sizeof msg);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        snprintf(err, err_size, "%s (milliseconds to leave out at the start)", msg);
        return -1;
    }
    return 0;
}

static mh_session_service const *sessions_of(const ta_plugin *plugin)
{
    return plugin->svc.sessions;
}

static const char *session_name(const ta_plugin *plugin, mh_call *call)
{
    mh_session *session = plugin->svc.call->session(call);
    const char *name = session ? sessions_of(plugin)->name(session) : NULL;
    return name ? name : "";
}

/* ---- audio_capture ---- */

static void write_capture_result(const ta_plugin *plugin, mh_call *call, const ta_audio *audio,
                                 const audio_args *a, const int16_t *samples, size_t wav_bytes,
                                 const char *written_path)
{
    mh_audio_stats st;
    mh_audio_analyze(samples, audio->count, audio->sample_rate, &st);
    double duration = audio->count * 1000.0 / audio->sample_rate;
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "source");
    mh_json_write_string(w, sources[a->source]);
    mh_json_write_key(w, "samples");
    mh_json_write_uint(w, audio->count);
    mh_json_write_key(w, "sample_rate");
    mh_json_write_uint(w, audio->sample_rate);
    mh_json_write_key(w, "channels");
    mh_json_write_uint(w, 1);
    mh_json_write_key(w, "duration_ms");
    mh_json_write_double(w, round(duration * 100.0) / 100.0);
    mh_json_write_key(w, "cycles");
    mh_json_write_uint(w, audio->cycles);
    mh_json_write_key(w, "stopped_at_breakpoint");
    mh_json_write_bool(w, audio->stopped != 0);
    mh_json_write_key(w, "peak");
    mh_json_write_int(w, st.peak);
    mh_json_write_key(w, "peak_dbfs");
    ta_write_db(w, st.peak_dbfs);
    mh_json_write_key(w, "rms_dbfs");
    ta_write_db(w, st.rms_dbfs);
    mh_json_write_key(w, "silent");
    mh_json_write_bool(w, st.peak == 0);
    mh_json_write_key(w, "wav_bytes");
    mh_json_write_uint(w, wav_bytes);
    mh_json_write_key(w, "path");
    if (written_path) mh_json_write_string(w, written_path);
    else mh_json_write_null(w);
    ta_write_state(plugin, call, w);
    mh_json_write_object_end(w);

    char text[1400];
    char level[64];
    if (st.peak)
        snprintf(level, sizeof level, "peak %.1f dBFS, RMS %.1f dBFS", st.peak_dbfs, st.rms_dbfs);
    else snprintf(level, sizeof level, "silent");
    snprintf(text, sizeof text,
             "captured %.1f ms of %s (%zu samples at %u Hz, 16-bit mono WAV, %zu bytes): %s%s%s%s",
             duration, sources[a->source], audio->count, audio->sample_rate, wav_bytes, level,
             audio->stopped ? "; a breakpoint stopped the machine early (the audio ends there)"
                            : "",
             written_path ? "; written to " : "", written_path ? written_path : "");
    ta_finish(plugin, call, w, text); /* the summary, then the facts not in it */
}

static void audio_capture(void *user, mh_call *call)
{
    ta_plugin *plugin = user;
    ta_source src;
    if (ta_source_of(plugin, call, "audio_capture", &src) != 0) return;
    char err[1024];
    mh_json_doc *doc = NULL;
    const mh_json *args = mh_args_parse(plugin->svc.call->args(call), &doc, err, sizeof err);
    audio_args a;
    int bad = !args || parse_common(args, 1, &a, err, sizeof err) != 0 ||
              parse_length(args, &src, &a, err, sizeof err) != 0;
    if (!bad && a.source && !src.sid) {
        snprintf(err, sizeof err, "source %s: this machine's sound has no per-voice tap (only "
                                  "a SID has one); use source \"mixed\"", sources[a.source]);
        bad = 1;
    }
    char resolved[4096] = "";
    if (!bad && a.path) {
        if (!plugin->svc.files || !plugin->svc.files->resolve) {
            snprintf(err, sizeof err, "path: this host has no file service (mh.files/1); leave "
                                      "`path` out and use the returned audio");
            bad = 1;
        } else {
            char why[1024] = "";
            mh_status st = plugin->svc.files->resolve(plugin->svc.host, a.path, MH_FILES_WRITE,
                                                      resolved,
                                                  sizeof resolved, why, sizeof why);
            struct stat existing;
            if (st != MH_OK) {
                snprintf(err, sizeof err, "%.*s (nothing was captured)",
                         mh_utf8_prefix(why[0] ? why : "path refused", 960),
                         why[0] ? why : "path refused");
                bad = 1;
            } else if (!a.overwrite && lstat(resolved, &existing) == 0) {
                /* Refused before the machine runs; the write refuses
                 * again should the file appear meanwhile. */
                snprintf(err, sizeof err, "path: %.900s already exists; pass overwrite: true to "
                                          "replace it, or give another name (nothing was captured)",
                         resolved);
                bad = 1;
            }
        }
    }
    mh_json_free(doc);
    if (bad) {
        ta_errorf(plugin, call, "audio_capture: %s", err);
        return;
    }
    struct stat replaced; /* replacing a file is confirmed (docs/sessions.md) */
    if (resolved[0] && a.overwrite && lstat(resolved, &replaced) == 0 && S_ISREG(replaced.st_mode)) {
        snprintf(err, sizeof err, "%.900s exists and would be replaced", resolved);
        if (!mh_toolkit_confirm(plugin->svc.call, call, err)) return;
    }
    ta_capture_req req = {a.samples, src.sid != NULL};
    ta_audio audio;
    if (ta_capture(plugin, call, &src, &req, &audio, err, sizeof err) != MH_OK) {
        ta_errorf(plugin, call, "audio_capture: %s", err);
        return;
    }
    const int16_t *samples = a.source ? audio.voice[a.source - 1] : audio.mixed;
    mh_wav_desc desc = {samples, audio.count, 1, audio.sample_rate};
    uint8_t *wav = NULL;
    size_t wav_size = 0;
    if (mh_wav_encode(&desc, &wav, &wav_size) != MH_OK) {
        ta_errorf(plugin, call, "audio_capture: could not encode %zu samples as WAV", audio.count);
        ta_audio_free(&audio);
        return;
    }
    const char *written = NULL;
    if (a.path) {
        char why[4096 + 256];
        mh_status st = mh_file_write(resolved, wav, wav_size,
                                     a.overwrite ? MH_FILE_OVERWRITE : 0, why, sizeof why);
        if (st != MH_OK) {
            ta_errorf(plugin, call,
                      "audio_capture: %s%s (the machine ran %.1f ms; the capture is kept: "
                      "audio_analyze with source \"last\" still works)",
                      why, st == MH_ERR_EXISTS ? "; pass overwrite: true to replace it" : "",
                      audio.count * 1000.0 / audio.sample_rate);
            free(wav);
            ta_store_put(plugin, plugin->svc.call->session(call), session_name(plugin, call),
                         &audio);
            return;
        }
        written = resolved;
    }
    write_capture_result(plugin, call, &audio, &a, samples, wav_size, written);
    plugin->svc.call->audio(call, "audio/wav", wav, wav_size);
    free(wav);
    ta_store_put(plugin, plugin->svc.call->session(call), session_name(plugin, call), &audio);
}

/* ---- audio_analyze ---- */

static void write_stats(mh_json_writer *w, const char *name, const int16_t *x, size_t n,
                        uint32_t rate, const audio_args *a, char *text, size_t text_size)
{
    mh_audio_stats st;
    mh_audio_analyze(x, n, rate, &st);
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "source");
    mh_json_write_string(w, name);
    mh_json_write_key(w, "peak");
    mh_json_write_int(w, st.peak);
    mh_json_write_key(w, "peak_dbfs");
    ta_write_db(w, st.peak_dbfs);
    mh_json_write_key(w, "rms");
    mh_json_write_double(w, round(st.rms * 100.0) / 100.0);
    mh_json_write_key(w, "rms_dbfs");
    ta_write_db(w, st.rms_dbfs);
    mh_json_write_key(w, "silent");
    mh_json_write_bool(w, st.peak == 0);
    mh_json_write_key(w, "dominant_hz");
    if (st.dominant_hz > 0.0) mh_json_write_double(w, round(st.dominant_hz * 100.0) / 100.0);
    else mh_json_write_null(w);
    char note[16] = "-";
    double cents = 0.0;
    mh_audio_note(st.dominant_hz, note, sizeof note, &cents);
    mh_json_write_key(w, "dominant_note");
    mh_json_write_string(w, note);
    mh_json_write_key(w, "dominant_prominence_db");
    mh_json_write_double(w, round(st.dominant_db * 10.0) / 10.0);
    mh_json_write_key(w, "tonal");
    mh_json_write_bool(w, st.tonal != 0);
    mh_json_write_key(w, "step_rate_hz");
    if (st.step_rate_hz >= 0.0) mh_json_write_double(w, round(st.step_rate_hz * 10.0) / 10.0);
    else mh_json_write_null(w);
    if (a->window_ms) {
        size_t per = (size_t)((uint64_t)a->window_ms * rate / 1000u);
        if (!per) per = 1;
        mh_json_write_key(w, "window_ms");
        mh_json_write_int(w, a->window_ms);
        mh_json_write_key(w, "rms_windows_dbfs");
        mh_json_write_array_begin(w);
        for (size_t i = 0, k = 0; i + per <= n && k < TA_MAX_WINDOWS; i += per, k++)
            ta_write_db(w, mh_audio_rms_dbfs(x + i, per));
        mh_json_write_array_end(w);
    }
    mh_json_write_object_end(w);
    if (st.peak)
        snprintf(text, text_size,
                 "%s: peak %.1f dBFS, RMS %.1f dBFS, dominant %.2f Hz (%s %+.0f cents, %s, %.0f dB "
                 "over the median)%s\n",
                 name, st.peak_dbfs, st.rms_dbfs, st.dominant_hz, note, cents,
                 st.tonal ? "tonal" : "no clear pitch", st.dominant_db,
                 st.step_rate_hz >= 0.0 ? "; a stepped (noise-like) signal" : "");
    else
        snprintf(text, text_size, "%s: silent\n", name);
    if (st.peak && st.step_rate_hz >= 0.0) {
        size_t used = strlen(text);
        if (used) used--; /* replace the newline */
        snprintf(text + used, text_size - used, " at %.1f steps/s (noise: /16 = %.2f Hz)\n",
                 st.step_rate_hz, st.step_rate_hz / 16.0);
    }
}

static void audio_analyze(void *user, mh_call *call)
{
    ta_plugin *plugin = user;
    ta_source src;
    if (ta_source_of(plugin, call, "audio_analyze", &src) != 0) return;
    char err[1024];
    mh_json_doc *doc = NULL;
    const mh_json *args = mh_args_parse(plugin->svc.call->args(call), &doc, err, sizeof err);
    audio_args a;
    int bad = !args || parse_common(args, 0, &a, err, sizeof err) != 0;
    if (!bad && a.use_last && (mh_json_object_get(args, "frames") ||
                               mh_json_object_get(args, "milliseconds"))) {
        snprintf(err, sizeof err, "source \"last\" analyses the last capture as it is: leave "
                                  "`frames` and `milliseconds` out (or use source \"capture\")");
        bad = 1;
    }
    if (!bad && !a.use_last) bad = parse_length(args, &src, &a, err, sizeof err) != 0;
    mh_json_free(doc);
    if (bad) {
        ta_errorf(plugin, call, "audio_analyze: %s", err);
        return;
    }
    ta_audio audio;
    mh_session *session = plugin->svc.call->session(call);
    if (a.use_last) {
        int found = ta_store_get(plugin, session, session_name(plugin, call), &audio);
        /* a session made later at the same address with the same name has
         * run fewer cycles than the capture's end: not its capture */
        if (found == 1 && audio.end_cycles && plugin->svc.debug && plugin->svc.debug->cycles &&
            plugin->svc.debug->cycles(session) < audio.end_cycles) {
            ta_audio_free(&audio);
            found = 0;
        }
        if (found != 1) {
            ta_errorf(plugin, call, "audio_analyze: this session has no capture yet; call "
                                    "audio_capture first, or use source \"capture\"");
            return;
        }
    } else {
        ta_capture_req req = {a.samples, src.sid != NULL};
        if (ta_capture(plugin, call, &src, &req, &audio, err, sizeof err) != MH_OK) {
            ta_errorf(plugin, call, "audio_analyze: %s", err);
            return;
        }
    }
    if (!audio.count) {
        ta_errorf(plugin, call, "audio_analyze: the capture is empty: %s",
                  audio.stopped ? "a breakpoint stopped the machine at once (see the stop "
                                  "record; continue past it or disable it, then analyse)"
                                : "nothing was recorded");
        ta_audio_free(&audio);
        return;
    }
    size_t skip = (size_t)((uint64_t)a.skip_ms * audio.sample_rate / 1000u);
    if (skip >= audio.count) {
        ta_errorf(plugin, call, "audio_analyze: skip_ms %lld leaves nothing of %.1f ms",
                  (long long)a.skip_ms, audio.count * 1000.0 / audio.sample_rate);
        ta_audio_free(&audio);
        return;
    }
    size_t n = audio.count - skip;
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "samples");
    mh_json_write_uint(w, n);
    mh_json_write_key(w, "sample_rate");
    mh_json_write_uint(w, audio.sample_rate);
    mh_json_write_key(w, "duration_ms");
    mh_json_write_double(w, round(n * 100000.0 / audio.sample_rate) / 100.0);
    mh_json_write_key(w, "skipped_ms");
    mh_json_write_int(w, a.skip_ms);
    mh_json_write_key(w, "captured_now");
    mh_json_write_bool(w, !a.use_last);
    mh_json_write_key(w, "stopped_at_breakpoint");
    mh_json_write_bool(w, audio.stopped != 0);
    char text[2400];
    size_t used = (size_t)snprintf(text, sizeof text, "%.1f ms analysed%s\n",
                                   n * 1000.0 / audio.sample_rate,
                                   a.use_last ? " (the last capture)" : "");
    mh_json_write_key(w, "mixed");
    write_stats(w, "mixed", audio.mixed + skip, n, audio.sample_rate, &a, text + used,
                sizeof text - used);
    used += strlen(text + used);
    mh_json_write_key(w, "voices");
    mh_json_write_array_begin(w);
    for (int v = 0; a.voices && v < 3 && audio.voice[v]; v++) {
        write_stats(w, sources[v + 1], audio.voice[v] + skip, n, audio.sample_rate, &a,
                    text + used, sizeof text - used);
        used += strlen(text + used);
    }
    mh_json_write_array_end(w);
    ta_write_state(plugin, call, w);
    mh_json_write_object_end(w);
    ta_finish(plugin, call, w, text);
    if (!a.use_last) ta_store_put(plugin, session, session_name(plugin, call), &audio);
    else ta_audio_free(&audio);
}

/* ---- registration ---- */

#define TA_LENGTH_PROPS                                                                        \
    "\"frames\":{\"type\":\"integer\",\"description\":\"Run this many video frames (1-1500)\"}," \
    "\"milliseconds\":{\"type\":\"integer\",\"description\":\"Or this many ms of machine time "  \
    "(1-30000; default 500)\"}"

static const char capture_input[] =
    "{\"type\":\"object\",\"properties\":{" TA_LENGTH_PROPS ","
    "\"source\":{\"enum\":[\"mixed\",\"voice1\",\"voice2\",\"voice3\"],\"description\":\"The "
    "machine's output (default), or on a SID one voice before the filter (waveform x envelope "
    "x volume)\"},"
    "\"path\":{\"type\":\"string\",\"description\":\"Also write the WAV to this file, inside "
    "the directories mcphost may write (--allow-dir; relative to the first)\"},"
    "\"overwrite\":{\"type\":\"boolean\",\"description\":\"Replace the file at `path` if it "
    "exists (default false: an existing file is refused)\"}},"
    "\"additionalProperties\":false}";

static const char capture_output[] =
    "{\"type\":\"object\",\"required\":[\"samples\",\"sample_rate\",\"duration_ms\",\"state\"],"
    "\"properties\":{\"peak_dbfs\":{\"type\":[\"number\",\"null\"]},\"rms_dbfs\":{\"type\":"
    "[\"number\",\"null\"]},\"path\":{\"type\":[\"string\",\"null\"]}}}";

static const char analyze_input[] =
    "{\"type\":\"object\",\"properties\":{" TA_LENGTH_PROPS ","
    "\"source\":{\"enum\":[\"capture\",\"last\"],\"description\":\"capture (default): run the "
    "machine now like audio_capture; last: the session's last capture\"},"
    "\"voices\":{\"type\":\"boolean\",\"description\":\"On a SID, also measure each voice alone "
    "(default true)\"},"
    "\"window_ms\":{\"type\":\"integer\",\"description\":\"Also give the RMS of every window of "
    "this many ms (1-1000): the envelope over time\"},"
    "\"skip_ms\":{\"type\":\"integer\",\"description\":\"Leave out the first ms (e.g. the "
    "attack)\"}},\"additionalProperties\":false}";

/* One measured signal: the fields a caller needs are required; the rest
 * (peak_dbfs, rms, silent, dominant_prominence_db, step_rate_hz, window_ms,
 * rms_windows_dbfs) are documented in docs/tools-audio.md, not here: every
 * byte of the catalogue is read by the model on every turn. */
#define TA_STATS_SCHEMA                                                                        \
    "{\"type\":\"object\",\"required\":[\"source\",\"peak\",\"rms_dbfs\",\"dominant_hz\"],"      \
    "\"properties\":{\"dominant_note\":{\"type\":\"string\"},\"tonal\":{\"type\":\"boolean\"}}}"

static const char analyze_output[] =
    "{\"type\":\"object\",\"required\":[\"samples\",\"sample_rate\",\"mixed\",\"voices\","
    "\"state\"],\"properties\":{\"mixed\":" TA_STATS_SCHEMA ",\"voices\":{\"type\":"
    "\"array\"}}}";

mh_status ta_register_tools(ta_plugin *plugin)
{
    mh_tool_desc tools[2];
    memset(tools, 0, sizeof tools);
    tools[0].struct_size = sizeof tools[0];
    tools[0].name = "audio_capture";
    tools[0].title = "Capture audio";
    tools[0].description =
        "Runs the paused machine for `frames` video frames or `milliseconds` of machine time "
        "(default 500 ms; breakpoints stay armed and end it early) and returns what the machine "
        "played as audio content: a 16-bit mono WAV at the machine's sample rate (44100 Hz on "
        "the C64), plus its level. `source` picks the mix or, on a SID, one voice alone; `path` also "
        "writes the WAV into an allowed directory (an existing file only with overwrite: "
        "true). A running machine is refused: pause it "
        "first (execution_pause). The machine stays paused afterwards.";
    tools[0].input_schema = capture_input;
    tools[0].output_schema = capture_output;
    tools[0].annotations = 0;
    tools[0].requires = MH_IFACE_AUDIO;
    tools[0].seed_name = "vice.sid.audio.capture";
    tools[0].call = audio_capture;
    tools[0].user_data = plugin;

    tools[1] = tools[0];
    tools[1].name = "audio_analyze";
    tools[1].title = "Analyse audio";
    tools[1].description =
        "Measures the machine's sound so you can check a note without ears: runs the paused "
        "machine like audio_capture (or takes the last capture with source \"last\") and "
        "reports for the mix (and on a SID each voice alone): peak and RMS level (also in dBFS), the "
        "dominant frequency (FFT, interpolated; under 1% off for steady tones) "
        "with the nearest note and whether it is a clear pitch, and for noise the step rate "
        "(16x the frequency register's note). `window_ms` adds the RMS over time (the "
        "envelope); `skip_ms` leaves out the start.";
    tools[1].input_schema = analyze_input;
    tools[1].output_schema = analyze_output;
    tools[1].seed_name = "vice.sid.audio.analyze";
    tools[1].call = audio_analyze;
    return mh_toolkit_register_tools(plugin->svc.host, plugin->svc.registry, tools, 2, NULL, plugin);
}
