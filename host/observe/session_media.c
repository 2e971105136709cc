#include "session_media.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- frame mailbox ---- */

void mh_frame_mailbox_init(mh_frame_mailbox *mb)
{
    memset(mb, 0, sizeof *mb);
    pthread_mutex_init(&mb->lock, NULL);
    pthread_mutex_init(&mb->read_lock, NULL);
    mb->latest = -1;
    mb->reading = -1;
    atomic_init(&mb->watchers, 0);
}

void mh_frame_mailbox_destroy(mh_frame_mailbox *mb)
{
    for (int i = 0; i < 3; i++) free(mb->slots[i].pixels);
    pthread_mutex_destroy(&mb->lock);
    pthread_mutex_destroy(&mb->read_lock);
}

mh_status mh_frame_mailbox_put(mh_frame_mailbox *mb, const mh_video_frame *frame)
{
    if (!frame->pixels || frame->width == 0 || frame->height == 0 || frame->pitch < frame->width)
        return MH_ERR_INVALID_ARGUMENT;
    /* Of three slots at most one is the latest and one is being read: a
     * third is always free, so this never waits for a reader's copy. */
    pthread_mutex_lock(&mb->lock);
    int slot = 0;
    while (slot == mb->latest || slot == mb->reading) slot++;
    pthread_mutex_unlock(&mb->lock);

    mh_frame_slot *s = &mb->slots[slot];
    size_t need = (size_t)frame->width * frame->height;
    if (s->capacity < need) {
        uint8_t *grown = realloc(s->pixels, need);
        if (!grown) return MH_ERR_NO_MEMORY;
        s->pixels = grown;
        s->capacity = need;
    }
    for (uint32_t y = 0; y < frame->height; y++)
        memcpy(s->pixels + (size_t)y * frame->width, frame->pixels + (size_t)y * frame->pitch,
               frame->width);
    s->width = frame->width;
    s->height = frame->height;
    s->palette_size = frame->palette && frame->palette_size <= 256 ? frame->palette_size : 0;
    if (s->palette_size) memcpy(s->palette, frame->palette, s->palette_size * sizeof s->palette[0]);
    s->frame_number = frame->frame_number;
    s->pixel_aspect = frame->struct_size >= offsetof(mh_video_frame, pixel_aspect) +
                                                 sizeof frame->pixel_aspect
                          ? frame->pixel_aspect
                          : 0.0;

    pthread_mutex_lock(&mb->lock);
    mb->latest = slot;
    pthread_mutex_unlock(&mb->lock);
    return MH_OK;
}

mh_status mh_frame_mailbox_read(mh_frame_mailbox *mb, uint64_t newer_than, mh_observe_frame *out)
{
    /* Readers copy one at a time (they wait for each other, never for the
     * emulation thread, which never takes read_lock). */
    pthread_mutex_lock(&mb->read_lock);
    pthread_mutex_lock(&mb->lock);
    int slot = mb->latest;
    if (slot < 0 || mb->slots[slot].frame_number <= newer_than) {
        pthread_mutex_unlock(&mb->lock);
        pthread_mutex_unlock(&mb->read_lock);
        return MH_ERR_STATE;
    }
    mb->reading = slot;
    pthread_mutex_unlock(&mb->lock);

    const mh_frame_slot *s = &mb->slots[slot];
    size_t need = (size_t)s->width * s->height;
    out->width = s->width;
    out->height = s->height;
    mh_status st = MH_OK;
    if (!out->pixels || out->pixels_size < need) {
        st = MH_ERR_LIMIT;
    } else {
        memcpy(out->pixels, s->pixels, need);
        memcpy(out->palette, s->palette, s->palette_size * sizeof s->palette[0]);
        out->palette_size = s->palette_size;
        out->frame_number = s->frame_number;
        if (out->struct_size >= offsetof(mh_observe_frame, pixel_aspect) + sizeof out->pixel_aspect)
            out->pixel_aspect = s->pixel_aspect;
    }
    pthread_mutex_lock(&mb->lock);
    mb->reading = -1;
    pthread_mutex_unlock(&mb->lock);
    pthread_mutex_unlock(&mb->read_lock);
    return st;
}

/* ---- audio stream ---- */

void mh_audio_stream_init(mh_audio_stream *st)
{
    memset(st, 0, sizeof *st);
    pthread_mutex_init(&st->lock, NULL);
    atomic_init(&st->readers, 0);
    atomic_init(&st->flush, 0);
}

void mh_audio_stream_destroy(mh_audio_stream *st)
{
    free(st->ring);
    pthread_mutex_destroy(&st->lock);
}

void mh_audio_stream_put(mh_audio_stream *st, const int16_t *samples, size_t count)
{
    pthread_mutex_lock(&st->lock);
    if (st->ring) {
        const uint64_t mask = MH_AUDIO_STREAM_SAMPLES - 1u;
        for (size_t i = 0; i < count;) {
            size_t at = (size_t)(st->written & mask);
            size_t run = MH_AUDIO_STREAM_SAMPLES - at;
            if (run > count - i) run = count - i;
            memcpy(st->ring + at, samples + i, run * sizeof *samples);
            st->written += run;
            i += run;
        }
    }
    pthread_mutex_unlock(&st->lock);
}

int mh_audio_stream_join(mh_audio_stream *st, uint64_t *position)
{
    pthread_mutex_lock(&st->lock);
    if (!st->ring) st->ring = calloc(MH_AUDIO_STREAM_SAMPLES, sizeof *st->ring);
    int ok = st->ring != NULL;
    *position = st->written;
    pthread_mutex_unlock(&st->lock);
    if (!ok) return -1;
    if (atomic_fetch_add(&st->readers, 1) == 0) atomic_store(&st->flush, 1);
    return 0;
}

void mh_audio_stream_leave(mh_audio_stream *st) { atomic_fetch_sub(&st->readers, 1); }

size_t mh_audio_stream_read(mh_audio_stream *st, uint64_t *position, uint64_t *dropped,
                            int16_t *out, size_t max)
{
    pthread_mutex_lock(&st->lock);
    if (st->written - *position > MH_AUDIO_STREAM_SAMPLES) {
        uint64_t oldest = st->written - MH_AUDIO_STREAM_SAMPLES;
        *dropped += oldest - *position;
        *position = oldest;
    }
    size_t n = 0;
    const uint64_t mask = MH_AUDIO_STREAM_SAMPLES - 1u;
    while (n < max && *position < st->written) {
        size_t at = (size_t)(*position & mask);
        size_t run = MH_AUDIO_STREAM_SAMPLES - at;
        if (run > max - n) run = max - n;
        if (run > st->written - *position) run = (size_t)(st->written - *position);
        memcpy(out + n, st->ring + at, run * sizeof *out);
        n += run;
        *position += run;
    }
    pthread_mutex_unlock(&st->lock);
    return n;
}
