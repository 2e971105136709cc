/* fe_audio.c - the session's sound through SDL audio. SDL's audio thread
 * pulls from the session's multi-reader audio stream (mh.observe/1
 * audio_read, thread-safe) into its buffer. It starts playing once
 * PREFILL_MS of sound are queued, so the emulation's slices never leave
 * the device without samples; a device that finds fewer samples than it
 * needs while playing counts an underrun, plays silence for the rest and
 * waits for a prefill PREFILL_STEP_MS longer than before (a loaded
 * machine's emulation thread is late more often: the delay adapts);
 * one that plays slower than the emulation makes sound has the oldest
 * samples skipped once more than three prefills are queued (the delay
 * stays bounded). Those two are the safety net: while it plays, the
 * callback measures the fill (samples queued between the stream and the
 * device) and steers the session's real-time pacing with the controller
 * of pace.h (mh.observe/1 set_pace), so the emulation runs exactly as
 * fast as the sound card consumes and the fill stays at the prefill.
 * Muted (warp, a stopped machine) it drains the stream, plays silence and
 * sets the pacing back to 1.0 (also when it closes).
 * The fields under `lock` are shared by the audio thread and the main
 * thread; the rest is set once at open. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"
#include "pace.h"

#define PREFILL_MS 60      /* the delay the sound starts with */
#define PREFILL_STEP_MS 20 /* added after each underrun ... */
#define PREFILL_MAX_MS 200 /* ... up to this */
#define FIFO_SIZE 16384 /* samples: more than a third of a second at 44.1 kHz */

struct fe_audio {
    const mh_host *host;
    const mh_observe_service *observe;
    mh_observe_audio *reader;
    char session[64];
    int can_pace; /* the host has set_pace() */
    SDL_AudioDeviceID device;
    uint32_t rate;
    char driver[32];

    SDL_mutex *lock; /* below */
    int muted;
    int playing; /* prefilled: the device takes samples */
    uint32_t prefill_ms;
    int16_t fifo[FIFO_SIZE];
    size_t head, count;
    uint64_t played, underruns, skipped;
    fe_pace pace;
    uint64_t pace_ns; /* the last measurement */
    double ratio_set; /* the pacing the host has */
    size_t fill_min, fill_max; /* since playing last started */
    double ratio_min, ratio_max;
};

/* Asks the host for ratio when it differs from what it has. [audio thread
 * or main thread; call without the lock] */
static void apply_pace(fe_audio *a, double ratio, double last)
{
    if (!a->can_pace || fabs(ratio - last) < 1e-5) return;
    a->observe->set_pace(a->host, a->session, ratio);
}

/* The controller, once per callback while playing. [under lock] */
static double steer(fe_audio *a, size_t want)
{
    uint64_t now = fe_now_ns();
    double dt = a->pace_ns ? (double)(now - a->pace_ns) / 1e9 : 0;
    a->pace_ns = now;
    a->pace.target_s = (double)a->prefill_ms / 1000.0 + (double)want / a->rate;
    double ratio = fe_pace_update(&a->pace, (double)a->count / a->rate, dt);
    if (a->count < a->fill_min) a->fill_min = a->count;
    if (a->count > a->fill_max) a->fill_max = a->count;
    if (ratio < a->ratio_min) a->ratio_min = ratio;
    if (ratio > a->ratio_max) a->ratio_max = ratio;
    return ratio;
}

static void top_up(fe_audio *a)
{
    int16_t buf[2048];
    for (;;) {
        size_t room = FIFO_SIZE - a->count;
        if (room == 0) break;
        size_t n = a->observe->audio_read(a->reader, buf, room < 2048 ? room : 2048);
        if (n == 0) break;
        for (size_t i = 0; i < n; i++) a->fifo[(a->head + a->count + i) % FIFO_SIZE] = buf[i];
        a->count += n;
    }
}

/* [SDL's audio thread] */
static void callback(void *user, Uint8 *stream, int len)
{
    fe_audio *a = user;
    int16_t *out = (int16_t *)stream;
    size_t want = (size_t)len / sizeof *out;
    SDL_LockMutex(a->lock);
    top_up(a);
    size_t prefill = (size_t)a->rate * a->prefill_ms / 1000;
    if (a->muted) {
        a->count = 0; /* what was made in warp or before a stop is not played later */
        a->playing = 0;
    } else if (!a->playing && a->count >= prefill + want) {
        a->playing = 1;
        fe_pace_restart(&a->pace);
        a->pace_ns = 0;
        a->fill_min = a->fill_max = a->count;
        a->ratio_min = a->ratio_max = a->pace.ratio;
    } else if (a->count > 3 * prefill + want) {
        /* the device plays slower than the emulation makes sound (their
         * clocks differ): skip the oldest samples back to the prefill, so
         * the delay stays bounded */
        size_t skip = a->count - prefill - want;
        a->head = (a->head + skip) % FIFO_SIZE;
        a->count -= skip;
        a->skipped += skip;
    }
    double ratio = a->playing ? steer(a, want) : 1.0;
    double last = a->ratio_set;
    a->ratio_set = ratio;
    size_t n = 0;
    if (a->playing) {
        n = want < a->count ? want : a->count;
        for (size_t i = 0; i < n; i++) out[i] = a->fifo[(a->head + i) % FIFO_SIZE];
        a->head = (a->head + n) % FIFO_SIZE;
        a->count -= n;
        a->played += n;
        if (n < want) {
            a->underruns++;
            a->playing = 0; /* prefill again, a little more */
            if (a->prefill_ms + PREFILL_STEP_MS <= PREFILL_MAX_MS) a->prefill_ms += PREFILL_STEP_MS;
        }
    }
    memset(out + n, 0, (want - n) * sizeof *out);
    SDL_UnlockMutex(a->lock);
    apply_pace(a, ratio, last);
}

fe_audio *fe_audio_open(const mh_host *host, const mh_observe_service *observe,
                        const char *session, char *error, size_t error_size)
{
    if (!SDL_WasInit(SDL_INIT_AUDIO)) {
        snprintf(error, error_size, "SDL audio is not available: %s", SDL_GetError());
        return NULL;
    }
    fe_audio *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    a->host = host;
    a->observe = observe;
    snprintf(a->session, sizeof a->session, "%s", session);
    a->can_pace = observe->struct_size >= offsetof(mh_observe_service, set_pace) + sizeof(void *) &&
                  observe->set_pace;
    a->muted = 1;
    a->prefill_ms = PREFILL_MS;
    a->ratio_set = 1.0;
    a->ratio_min = a->ratio_max = 1.0;
    fe_pace_init(&a->pace, (PREFILL_MS + 10) / 1000.0);
    a->reader = observe->audio_open(host, session, &a->rate, error, error_size);
    a->lock = SDL_CreateMutex();
    if (!a->reader || !a->lock) {
        fe_audio_close(a);
        return NULL;
    }
    SDL_AudioSpec want, have;
    memset(&want, 0, sizeof want);
    want.freq = (int)a->rate;
    want.format = AUDIO_S16SYS;
    want.channels = 1;
    want.samples = (Uint16)(a->rate / 100); /* 10 ms: whole milliseconds for SDL's timers */
    want.callback = callback;
    want.userdata = a;
    a->device = SDL_OpenAudioDevice(NULL, 0, &want, &have, 0);
    if (!a->device) {
        snprintf(error, error_size, "cannot open an SDL audio device: %s", SDL_GetError());
        fe_audio_close(a);
        return NULL;
    }
    const char *driver = SDL_GetCurrentAudioDriver();
    snprintf(a->driver, sizeof a->driver, "%s", driver ? driver : "");
    SDL_PauseAudioDevice(a->device, 0);
    return a;
}

void fe_audio_close(fe_audio *a)
{
    if (!a) return;
    if (a->device) SDL_CloseAudioDevice(a->device); /* the callback has ended */
    if (a->reader) apply_pace(a, 1.0, a->ratio_set);
    if (a->reader) a->observe->audio_close(a->reader);
    if (a->lock) SDL_DestroyMutex(a->lock);
    free(a);
}

void fe_audio_set_muted(fe_audio *a, int muted)
{
    SDL_LockMutex(a->lock);
    a->muted = muted;
    SDL_UnlockMutex(a->lock);
}

void fe_audio_stats_get(fe_audio *a, fe_audio_stats *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->driver, sizeof out->driver, "%s", a->driver);
    out->rate = a->rate;
    SDL_LockMutex(a->lock);
    out->playing = a->playing;
    out->played = a->played;
    out->underruns = a->underruns;
    out->skipped = a->skipped;
    out->prefill_ms = a->prefill_ms;
    out->fill_ms = (double)a->count * 1000.0 / a->rate;
    out->fill_min_ms = (double)a->fill_min * 1000.0 / a->rate;
    out->fill_max_ms = (double)a->fill_max * 1000.0 / a->rate;
    out->target_ms = a->pace.target_s * 1000.0;
    out->ratio = a->ratio_set;
    out->ratio_min = a->ratio_min;
    out->ratio_max = a->ratio_max;
    out->pacing = a->can_pace;
    SDL_UnlockMutex(a->lock);
    out->dropped = a->observe->audio_dropped(a->reader);
}
