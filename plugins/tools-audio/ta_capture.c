/* ta_capture.c - records the machine's audio while running it: opens a
 * reader of the session's audio stream (mh.observe/1; it starts now, so
 * what came before is not the capture's, and a window playing the sound
 * keeps hearing it), starts the per-voice tap if asked,
 * then advances the paused machine one video frame (or less) at a time
 * through mh.debug/1 advance() with breakpoints armed, reading the stream
 * and the tap after each step, until the samples asked for came out.
 *
 * A running machine is refused (a tool handler runs between two slices of
 * the session thread and cannot wait for wall time to pass there; see
 * docs/tools-audio.md): the message says to pause it first.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools_audio.h"

/* Reads up to `want` samples of the stream into dst; the rest is left. */
static size_t read_into(size_t (*fn)(void *, unsigned, int16_t *, size_t), void *context,
                        unsigned v, int16_t *dst, size_t want)
{
    size_t got = 0, n;
    while (got < want && (n = fn(context, v, dst + got, want - got)) > 0) got += n;
    return got;
}

/* The stream reader has no voice argument; adapt it to read_into's shape. */
typedef struct stream_ctx {
    const mh_observe_service *observe;
    mh_observe_audio *reader;
} stream_ctx;

static size_t stream_fn(void *user, unsigned v, int16_t *out, size_t max)
{
    (void)v;
    const stream_ctx *s = user;
    return s->observe->audio_read(s->reader, out, max);
}

mh_status ta_capture(const ta_plugin *plugin, mh_call *call, const ta_source *src,
                     const ta_capture_req *req, ta_audio *out, char *err, size_t err_size)
{
    const mh_audio_iface *audio = src->audio;
    void *context = src->audio_context;
    const mh_chip_sid_iface *sid = req->tap ? src->sid : NULL;
    memset(out, 0, sizeof *out);
    mh_session *session = plugin->svc.call->session(call);
    const mh_debug_service *debug = plugin->svc.debug;
    if (!debug || !session ||
        debug->struct_size < offsetof(mh_debug_service, advance) + sizeof debug->advance ||
        !debug->advance) {
        snprintf(err, err_size,
                 "this host cannot run the machine from a tool yet (its debug engine, "
                 "mh.debug/1, has no advance()); capture needs it to move the machine");
        return MH_ERR_UNSUPPORTED;
    }
    if (debug->state && debug->state(session) == MH_EXEC_RUNNING) {
        snprintf(err, err_size,
                 "the machine is running, and a capture runs the machine itself for exactly "
                 "the time asked: pause it first (execution_pause), then capture; the capture "
                 "leaves it paused");
        return MH_ERR_STATE;
    }
    const mh_observe_service *observe = plugin->observe;
    if (!observe || observe->struct_size < offsetof(mh_observe_service, audio_close) +
                                               sizeof observe->audio_close) {
        snprintf(err, err_size, "this host has no audio stream service (mh.observe/1); a "
                                "capture needs it");
        return MH_ERR_UNSUPPORTED;
    }
    if (!audio->enabled(context)) {
        snprintf(err, err_size,
                 "sound synthesis is off in this session (machine option sound=off): there is "
                 "no audio to capture; create a session with sound on (the default)");
        return MH_ERR_STATE;
    }
    out->sample_rate = audio->sample_rate(context);
    uint32_t clock = audio->clock_hz(context);
    uint32_t frame = audio->frame_cycles(context);
    if (!frame) frame = clock / 50u;
    out->mixed = malloc(req->samples * sizeof(int16_t));
    for (int v = 0; sid && v < 3; v++) out->voice[v] = malloc(req->samples * sizeof(int16_t));
    if (!out->mixed || (sid && (!out->voice[0] || !out->voice[1] || !out->voice[2]))) {
        ta_audio_free(out);
        snprintf(err, err_size, "out of memory for %zu samples", req->samples);
        return MH_ERR_NO_MEMORY;
    }

    char open_error[256];
    const char *name = plugin->svc.sessions->name(session);
    stream_ctx stream = {observe, observe->audio_open(plugin->svc.host, name, NULL, open_error,
                                                      sizeof open_error)};
    if (!stream.reader) {
        ta_audio_free(out);
        snprintf(err, err_size, "cannot read the session's audio: %s", open_error);
        return MH_ERR_STATE;
    }
    if (sid) sid->tap_start(src->sid_context);
    size_t got = 0, voice_got[3] = {0, 0, 0};
    unsigned idle = 0, reported = 0;
    mh_status status = MH_OK;
    while (got < req->samples) {
        /* cycles for the samples still missing, plus one sample, at most a frame */
        uint64_t missing = req->samples - got;
        uint64_t cycles = (missing + 1u) * clock / out->sample_rate + 1u;
        if (cycles > frame) cycles = frame;
        int stopped = 0;
        int has_cycles = debug->struct_size >= offsetof(mh_debug_service, cycles) +
                                                   sizeof debug->cycles && debug->cycles;
        uint64_t before = has_cycles ? debug->cycles(session) : 0;
        status = debug->advance(session, cycles, &stopped);
        if (status != MH_OK) {
            snprintf(err, err_size, "running the machine failed (%s) after %zu of %zu samples",
                     mh_status_name(status), got, req->samples);
            break;
        }
        out->cycles += has_cycles ? debug->cycles(session) - before : cycles;
        size_t n = read_into(stream_fn, &stream, 0, out->mixed + got, req->samples - got);
        got += n;
        for (unsigned v = 0; sid && v < 3; v++)
            voice_got[v] += read_into(sid->tap_read, src->sid_context, v,
                                      out->voice[v] + voice_got[v],
                                      req->samples - voice_got[v]);
        if (stopped) {
            out->stopped = 1;
            break;
        }
        idle = n ? 0 : idle + 1;
        if (idle > 4) {
            snprintf(err, err_size,
                     "the machine made no progress in %u steps (state: %s; a jammed CPU or an "
                     "ended program does not run: reset the machine); capture stopped after %zu "
                     "of %zu samples",
                     idle,
                     debug->state ? mh_exec_state_name((uint32_t)debug->state(session))
                                  : "unknown",
                     got, req->samples);
            status = MH_ERR_STATE;
            break;
        }
        /* MCP progress (when the client gave a token) at every 5% */
        unsigned step = (unsigned)(got * 20u / req->samples);
        if (step != reported) {
            char message[96];
            reported = step;
            snprintf(message, sizeof message, "captured %zu of %zu samples", got, req->samples);
            plugin->svc.call->progress(call, (double)got, (double)req->samples, message);
        }
        if (plugin->svc.call->cancelled(call)) {
            snprintf(err, err_size, "cancelled after %zu of %zu samples", got, req->samples);
            status = MH_ERR_CANCELLED;
            break;
        }
    }
    if (sid) sid->tap_stop(src->sid_context);
    observe->audio_close(stream.reader);
    if (status != MH_OK) {
        ta_audio_free(out);
        return status;
    }
    out->count = got;
    if (debug->struct_size >= offsetof(mh_debug_service, cycles) + sizeof debug->cycles &&
        debug->cycles)
        out->end_cycles = debug->cycles(session);
    /* the tap and the stream come from the same samples; keep them equal */
    for (unsigned v = 0; sid && v < 3; v++)
        if (voice_got[v] < got) memset(out->voice[v] + voice_got[v], 0, (got - voice_got[v]) * 2);
    return MH_OK;
}
