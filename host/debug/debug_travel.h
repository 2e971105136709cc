/* host/debug/debug_travel.h - time travel for a session (issue #18): a
 * bounded ring of compressed machine snapshots taken every interval of
 * emulated time, and going back to any cycle the ring covers by restoring
 * the newest snapshot before it and re-executing exactly to it.
 *
 * Ring entries are "mh.snapshot/1" blobs: every TRAVEL_KEY_EVERY-th is a
 * key (the whole blob, zlib-compressed), the others the XOR with the entry
 * before, run-length coded (most of a machine's state does not change in
 * a fraction of a second). Entries older than the last 60 s of emulated
 * time are dropped a key group at a time, and the ring never holds more
 * than TRAVEL_MAX_BYTES (mcphost --time-travel-seconds / --time-travel-mib
 * set other figures; --time-travel off, or MCPHOST_TRAVEL=off without it,
 * starts sessions with the ring off).
 *
 * sessions.c owns one per session whose machine has a debuggable CPU and a
 * snapshot interface (s->travel, NULL otherwise) and calls
 * mh_travel_after_slice() after every run slice, mh_travel_after_job()
 * after every job and mh_travel_note_stop() at every stop. The service calls (mh.debug/1 travel, travel_config) are
 * in debug_travel.c too. Everything is [emu-thread].
 */
#ifndef MH_HOST_DEBUG_TRAVEL_H
#define MH_HOST_DEBUG_TRAVEL_H

#include <stddef.h>
#include <stdint.h>

#include "mcphost/debug.h"
#include "mcphost/session.h"

typedef struct mh_travel mh_travel;

#define TRAVEL_KEY_EVERY 16u
#define TRAVEL_KEEP_SECONDS 60u
#define TRAVEL_MAX_BYTES ((size_t)3 << 20)

/* NULL when the session has no snapshot interface or no debug engine. */
mh_travel *mh_travel_new(mh_session *session);
void mh_travel_free(mh_travel *travel);
/* After a run slice: takes a snapshot when one is due. */
void mh_travel_after_slice(mh_travel *travel);
/* After a job on the session thread (a tool call): when the machine's
 * state is not the newest entry's (a tool changed memory, registers,
 * input, media, or loaded a snapshot), takes a snapshot at once, so that
 * re-execution starts from the changed state and never needs to deliver
 * that change again. This is how input is logged: as the state it made,
 * stamped with the exact cycle. */
void mh_travel_after_job(mh_travel *travel);
/* The machine stopped at `cycles` (for "rewind to the previous stop"). */
void mh_travel_note_stop(mh_travel *travel, uint64_t cycles);

/* mh.debug/1 travel and travel_config (debug.h). */
mh_status mh_travel_go(mh_session *session, uint32_t kind, uint64_t value,
                       mh_travel_result *out, char *error, size_t error_size);
mh_status mh_travel_config(mh_session *session, int on, mh_travel_result *now);

#endif
