/* session_observe.c - what mh.observe/1 offers of sessions: the list,
 * frames, audio and jobs, and the per-slice work that feeds the frame
 * mailbox and the audio stream (session_media.c) on the emulation thread. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug_engine.h"
#include "hostctx.h"
#include "loader.h"
#include "observe.h"
#include "session_internal.h"

/* ---- emulation-thread side ---- */

static void put_frame(mh_session *s, int force)
{
    const mh_chip *chip = s->video_chip;
    mh_observe *obs = s->observe;
    int watched = atomic_load(&s->frames.watchers) > 0;
    int observed = mh_observe_wants(obs, MH_OBSERVE_FRAME);
    if (!chip || !(watched || observed)) return;
    const mh_video_iface *video = chip->vtable;
    mh_video_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.struct_size = sizeof frame;
    if (video->frame(chip->context, &frame) != MH_OK) return;
    if (frame.frame_number == s->frames.seen_frame && !force) return;
    int fresh = frame.frame_number != s->frames.seen_frame;
    s->frames.seen_frame = frame.frame_number;
    if (watched) mh_frame_mailbox_put(&s->frames, &frame);
    if (observed && fresh) {
        mh_observation o = {.struct_size = sizeof o, .kind = MH_OBSERVE_FRAME, .session = s->name,
                            .machine = s->machine->name, .frame_number = frame.frame_number,
                            .cycles = mh_session_cycles(s)};
        mh_observe_emit(obs, &o);
    }
}

/* Moves the machine's new samples into the stream (or drops them). */
static void drain_audio(mh_session *s, int keep)
{
    const mh_audio_iface *audio = s->audio_chip->vtable;
    int16_t buf[2048];
    size_t n;
    while ((n = audio->read(s->audio_chip->context, buf, 2048)) > 0) {
        if (keep) mh_audio_stream_put(&s->audio, buf, n);
        if (n < 2048) break;
    }
}

void mh_session_observe_slice(mh_session *s)
{
    put_frame(s, 0);
    if (s->audio_chip && atomic_load(&s->audio.readers) > 0) drain_audio(s, 1);
}

void mh_session_observe_frame_now(mh_session *s) { put_frame(s, 1); }

/* ---- the service ---- */

static mh_sessions *sessions_of(const mh_host *host)
{
    mh_plugin_record *rec = mh_plugin_from_host(host);
    return rec ? rec->hostctx->sessions : NULL;
}

static mh_session *find(const mh_host *host, const char *name)
{
    mh_sessions *set = sessions_of(host);
    return set && name ? mh_sessions_find(set, name) : NULL;
}

size_t mh_observe_list_sessions(const mh_host *host, mh_observe_session_info *out, size_t max)
{
    mh_sessions *set = sessions_of(host);
    if (!set) return 0;
    mh_session **list = NULL;
    size_t n = mh_sessions_list(set, &list);
    for (size_t i = 0; i < n; i++) {
        mh_session *s = list[i];
        if (out && i < max) {
            mh_observe_session_info *info = &out[i];
            memset(info, 0, sizeof *info);
            info->struct_size = sizeof *info;
            snprintf(info->name, sizeof info->name, "%s", s->name);
            snprintf(info->machine, sizeof info->machine, "%s", s->machine->name);
            pthread_mutex_lock(&s->lock);
            snprintf(info->state, sizeof info->state, "%s", mh_exec_state_name(s->exec_state));
            pthread_mutex_unlock(&s->lock);
            info->cycles = mh_session_cycles(s);
            info->clock_hz = s->clock_hz;
        }
        mh_session_unref(s);
    }
    free(list);
    return n;
}

static void frame_now_job(void *arg, mh_session *s)
{
    (void)arg;
    if (s) mh_session_observe_frame_now(s);
}

mh_status mh_observe_watch_frames(const mh_host *host, const char *session, int on)
{
    mh_session *s = find(host, session);
    if (!s) return MH_ERR_NOT_FOUND;
    mh_status st = MH_OK;
    if (!s->video_chip) {
        st = MH_ERR_UNSUPPORTED;
    } else if (on) {
        atomic_fetch_add(&s->frames.watchers, 1);
        mh_session_post(s, frame_now_job, NULL); /* a paused machine's screen too */
    } else if (atomic_fetch_sub(&s->frames.watchers, 1) <= 0) {
        atomic_fetch_add(&s->frames.watchers, 1);
        st = MH_ERR_STATE;
    }
    mh_session_unref(s);
    return st;
}

mh_status mh_observe_read_frame(const mh_host *host, const char *session, uint64_t newer_than,
                                mh_observe_frame *out)
{
    if (!out || out->struct_size < sizeof *out) return MH_ERR_INVALID_ARGUMENT;
    mh_session *s = find(host, session);
    if (!s) return MH_ERR_NOT_FOUND;
    mh_status st = s->video_chip ? mh_frame_mailbox_read(&s->frames, newer_than, out)
                                 : MH_ERR_UNSUPPORTED;
    mh_session_unref(s);
    return st;
}

struct mh_observe_audio {
    mh_session *session; /* with a reference */
    uint64_t position, dropped;
};

/* Joining runs on the emulation thread, so "from now on" is exact: what
 * the machine made before is drained first (dropped when nobody was
 * reading), and the reader starts after it. */
typedef struct join_job {
    mh_observe_audio *reader;
    int ok;
    int done;
    pthread_mutex_t lock;
    pthread_cond_t cond;
} join_job;

static void join_on_thread(mh_observe_audio *reader, mh_session *s, int *ok)
{
    int first = atomic_load(&s->audio.readers) == 0;
    drain_audio(s, !first);
    *ok = mh_audio_stream_join(&s->audio, &reader->position) == 0;
}

static void join_job_run(void *arg, mh_session *s)
{
    join_job *job = arg;
    if (s) join_on_thread(job->reader, s, &job->ok);
    pthread_mutex_lock(&job->lock);
    job->done = 1;
    pthread_cond_signal(&job->cond);
    pthread_mutex_unlock(&job->lock);
}

mh_observe_audio *mh_observe_audio_open(const mh_host *host, const char *session,
                                        uint32_t *sample_rate, char *error, size_t error_size)
{
    char scratch[8];
    if (!error || error_size == 0) {
        error = scratch;
        error_size = sizeof scratch;
    }
    error[0] = '\0';
    mh_session *s = find(host, session);
    if (!s) {
        snprintf(error, error_size, "no machine session named \"%s\"", session ? session : "");
        return NULL;
    }
    const mh_audio_iface *audio = s->audio_chip ? s->audio_chip->vtable : NULL;
    if (!audio) {
        snprintf(error, error_size, "the %s machine of session \"%s\" has no sound output (%s)",
                 s->machine->name, s->name, MH_IFACE_AUDIO);
        mh_session_unref(s);
        return NULL;
    }
    mh_observe_audio *reader = calloc(1, sizeof *reader);
    if (!reader) {
        snprintf(error, error_size, "out of memory");
        mh_session_unref(s);
        return NULL;
    }
    reader->session = s;
    int ok = 0;
    if (mh_session_on_its_thread(s)) {
        join_on_thread(reader, s, &ok);
    } else {
        join_job job = {.reader = reader};
        pthread_mutex_init(&job.lock, NULL);
        pthread_cond_init(&job.cond, NULL);
        mh_session_post(s, join_job_run, &job);
        pthread_mutex_lock(&job.lock);
        while (!job.done) pthread_cond_wait(&job.cond, &job.lock);
        pthread_mutex_unlock(&job.lock);
        pthread_cond_destroy(&job.cond);
        pthread_mutex_destroy(&job.lock);
        ok = job.ok;
    }
    if (!ok) {
        snprintf(error, error_size, "session \"%s\" ended, or no memory for its audio stream",
                 s->name);
        mh_session_unref(s);
        free(reader);
        return NULL;
    }
    if (sample_rate) *sample_rate = audio->sample_rate(s->audio_chip->context);
    return reader;
}

size_t mh_observe_audio_read(mh_observe_audio *reader, int16_t *out, size_t max)
{
    if (!reader || !out) return 0;
    return mh_audio_stream_read(&reader->session->audio, &reader->position, &reader->dropped, out,
                                max);
}

uint64_t mh_observe_audio_dropped(mh_observe_audio *reader) { return reader ? reader->dropped : 0; }

void mh_observe_audio_close(mh_observe_audio *reader)
{
    if (!reader) return;
    mh_audio_stream_leave(&reader->session->audio);
    mh_session_unref(reader->session);
    free(reader);
}

mh_status mh_observe_post_job(const mh_host *host, const char *session, mh_observe_job_fn fn,
                              void *arg)
{
    if (!fn) return MH_ERR_INVALID_ARGUMENT;
    mh_session *s = find(host, session);
    if (!s) return MH_ERR_NOT_FOUND;
    mh_session_post_changing(s, fn, arg); /* the window's input, among others */
    mh_session_unref(s);
    return MH_OK;
}

mh_status mh_observe_set_pace(const mh_host *host, const char *session, double ratio)
{
    mh_session *s = find(host, session);
    if (!s) return MH_ERR_NOT_FOUND;
    mh_status st = mh_session_set_pace(s, ratio);
    mh_session_unref(s);
    return st;
}
