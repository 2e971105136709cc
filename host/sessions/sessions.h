/* host/sessions/sessions.h - machine sessions: each is one machine instance with
 * its own emulation thread that runs the machine and executes queued jobs
 * (tool calls) between run slices, so a job sees a consistent snapshot.
 *
 * Ownership: sessions are reference counted. mh_sessions_find() returns a
 * reference the caller drops with mh_session_unref(); a destroyed session
 * stays valid until its last reference goes, but runs no more jobs.
 * Thread: every function here is [thread-safe]; job functions run
 * [emu-thread]. */
#ifndef MH_HOST_SESSIONS_H
#define MH_HOST_SESSIONS_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/events.h"
#include "mcphost/session.h"

struct mh_hostctx;
struct mh_reg_machine;
typedef struct mh_sessions mh_sessions;

mh_sessions *mh_sessions_new(struct mh_hostctx *ctx);
/* Destroys every session and frees the set. */
void mh_sessions_free(mh_sessions *set);

/* Creates a session of a machine type; name NULL picks "<machine>-<n>".
 * Blocks until the machine's create() returned on the new thread. On failure
 * error says why. The returned session carries a reference. */
mh_status mh_sessions_create(mh_sessions *set, const char *machine, const char *name,
                             const char *options_json, mh_session **out, char *error,
                             size_t error_size);
mh_session *mh_sessions_find(mh_sessions *set, const char *name);
/* Stops the session's thread, destroys the machine instance, and removes it
 * from the set. Blocks until the thread ended. MH_ERR_NOT_FOUND if absent. */
mh_status mh_sessions_destroy(mh_sessions *set, const char *name);
/* References to every live session (caller unrefs each and frees the array). */
size_t mh_sessions_list(mh_sessions *set, mh_session ***out);
/* The first session created that still lives (with a reference), or NULL. */
mh_session *mh_sessions_default(mh_sessions *set);

void mh_session_ref(mh_session *s);
void mh_session_unref(mh_session *s);
const char *mh_session_name(const mh_session *s);
const char *mh_session_machine_name(const mh_session *s);
int mh_session_alive(mh_session *s);

/* Queues fn(arg, session) on the session's emulation thread. When the session
 * ends before the job runs, fn is called with session NULL (on the thread
 * that ends it) so the job can answer and free itself. */
typedef void (*mh_session_job_fn)(void *arg, mh_session *session);
void mh_session_post(mh_session *s, mh_session_job_fn fn, void *arg);
/* The same for a job that may change the machine (a tool call that is not
 * read-only, the window's input): time travel snapshots the machine after
 * it. Jobs posted with mh_session_post only read it. */
void mh_session_post_changing(mh_session *s, mh_session_job_fn fn, void *arg);
/* A read-only job that does not block: when the session's thread is idle
 * (the machine not running, nothing queued) fn runs at once on the calling
 * thread, which holds the machine meanwhile (the emulation thread waits),
 * sparing the hand-off to the session's thread and back; otherwise it is
 * queued as by mh_session_post. fn must not wait for other jobs of the
 * same session. */
void mh_session_post_quick(mh_session *s, mh_session_job_fn fn, void *arg);
/* 1 when the calling thread runs s's jobs right now: its emulation thread,
 * or a thread in an mh_session_post_quick() job. A job that would post to
 * its own session and wait calls the work directly instead. */
int mh_session_on_its_thread(const mh_session *s);

/* Runner mode: runs the machine as fast as it goes (warp) or in real time,
 * until it exits (debug cart), jams, or cycle_limit cycles ran (0: none). */
void mh_session_start(mh_session *s, int warp, uint64_t cycle_limit);
/* Waits until a started run ended; returns the exit code: the program's own
 * (MH_RUN_EXIT), 1 when the cycle limit was reached. */
int mh_session_wait_finished(mh_session *s);
uint64_t mh_session_cycles(mh_session *s);
/* Trims real-time pacing: the machine runs ratio times real time
 * (MH_OBSERVE_PACE_MIN .. MAX, else MH_ERR_INVALID_ARGUMENT); read once per
 * slice; a new one counts on from that slice's due time. [thread-safe] */
mh_status mh_session_set_pace(mh_session *s, double ratio);
/* Ends a started run now with exit_code (signal, shutdown); no-op when none. */
void mh_session_interrupt(mh_session *s, int exit_code);

/* ---- ownership (session_owner.c) ----
 * A session belongs to the MCP connection that created it (owner, a
 * connection id); owner 0 is the server: the command-line machine, shared
 * by every client. When the owner's connection ends, its sessions are
 * paused and, unless another client takes one over (set_owner) within
 * the grace period, destroyed by a reaper thread. [thread-safe] */
void mh_session_set_owner(mh_session *s, uint64_t owner, const char *label);
/* The owner (0: the server) and its client's name; *orphaned 1 while its
 * connection has ended (may be NULL). */
uint64_t mh_session_owner(mh_session *s, char *label, size_t size, int *orphaned);
/* A tool call used the session now; idle_ms: since the last one. */
void mh_session_touch(mh_session *s);
uint64_t mh_session_idle_ms(mh_session *s);
/* Saved state: a tool that may change the machine is about to run
 * (changed); its state was just saved to or loaded from a snapshot
 * (mark_saved); is_saved: 1 when neither the machine nor a changing tool
 * ran since that mark, not counting `own` changing calls (the caller's). */
void mh_session_changed(mh_session *s);
void mh_session_mark_saved(mh_session *s);
int mh_session_is_saved(mh_session *s, uint64_t own);
/* The connection `owner` ended: pauses its sessions and destroys them
 * after grace_ms unless taken over. Returns how many it orphaned. */
size_t mh_sessions_orphan(mh_sessions *set, uint64_t owner, uint64_t grace_ms);

/* The mh.session/1 and mh.events/1 service implementations. */
extern const mh_session_service mh_session_service_impl;
extern const mh_events_service mh_events_service_impl;

#endif
