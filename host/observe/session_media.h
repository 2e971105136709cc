/* host/observe/session_media.h - what mh.observe/1 offers of a session's
 * output: a frame mailbox (a copy of the last completed frame, triple
 * buffered so neither the emulation thread nor a reader ever waits for the
 * other's copy) and an audio stream with any number of readers, each at
 * its own position.
 *
 * Ownership: both live inside the session (session_internal.h) from its
 * creation to its last reference.
 * Threads: the *_put functions are [emu-thread] (the session's thread,
 * after a run slice); everything else is [thread-safe]. */
#ifndef MH_HOST_SESSION_MEDIA_H
#define MH_HOST_SESSION_MEDIA_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "mcphost/machine.h"
#include "mcphost/observe.h"

typedef struct mh_frame_slot {
    uint8_t *pixels;
    size_t capacity;
    uint32_t width, height, palette_size;
    uint32_t palette[256];
    uint64_t frame_number;
    double pixel_aspect;
} mh_frame_slot;

typedef struct mh_frame_mailbox {
    pthread_mutex_t lock;      /* guards latest and reading (held briefly) */
    pthread_mutex_t read_lock; /* one reader copies at a time */
    mh_frame_slot slots[3];
    int latest;                /* slot of the newest frame, -1 none */
    int reading;               /* slot a reader copies from, -1 none */
    atomic_int watchers;       /* watch_frames(1) calls not yet undone */
    uint64_t seen_frame;       /* [emu-thread] the last frame number handled */
} mh_frame_mailbox;

void mh_frame_mailbox_init(mh_frame_mailbox *mb);
void mh_frame_mailbox_destroy(mh_frame_mailbox *mb);
/* Copies frame into a free slot and makes it the latest. MH_ERR_NO_MEMORY
 * leaves the previous latest in place. [emu-thread] */
mh_status mh_frame_mailbox_put(mh_frame_mailbox *mb, const mh_video_frame *frame);
/* See mh_observe_service.read_frame. */
mh_status mh_frame_mailbox_read(mh_frame_mailbox *mb, uint64_t newer_than, mh_observe_frame *out);

/* About three seconds at 44.1 kHz. */
#define MH_AUDIO_STREAM_SAMPLES (1u << 17)

typedef struct mh_audio_stream {
    pthread_mutex_t lock;     /* guards written and ring */
    int16_t *ring;            /* allocated with the first reader */
    uint64_t written;         /* samples put since the session started */
    atomic_int readers;
    atomic_int flush;         /* [emu-thread] drop the machine's backlog before the next put */
    uint32_t sample_rate;
} mh_audio_stream;

void mh_audio_stream_init(mh_audio_stream *st);
void mh_audio_stream_destroy(mh_audio_stream *st);
/* Appends samples. [emu-thread] */
void mh_audio_stream_put(mh_audio_stream *st, const int16_t *samples, size_t count);
/* Where a new reader starts: now. Allocates the ring on first use; -1 when
 * out of memory. */
int mh_audio_stream_join(mh_audio_stream *st, uint64_t *position);
void mh_audio_stream_leave(mh_audio_stream *st);
/* Copies up to max samples from *position on and advances it; a position
 * that fell out of the ring moves to its oldest sample and *dropped grows
 * by what was lost. */
size_t mh_audio_stream_read(mh_audio_stream *st, uint64_t *position, uint64_t *dropped,
                            int16_t *out, size_t max);

#endif
