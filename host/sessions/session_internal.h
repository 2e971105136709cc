/* host/sessions/session_internal.h - the session struct, shared by
 * session_set.c (lifecycle), session_thread.c (jobs, the run loop),
 * session_chips.c (mh.session/1), observe/ and debug_service.c (mh.debug/1: run,
 * pause, wait, state and the emu-thread breakpoint calls). Fields under
 * `lock` are marked; the rest belong to the session's emulation thread. */
#ifndef MH_HOST_SESSION_INTERNAL_H
#define MH_HOST_SESSION_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "debug_engine.h"
#include "ptrvec.h"
#include "registry.h"
#include "session_media.h"
#include "sessions.h"

typedef struct session_job {
    mh_session_job_fn fn;
    void *arg;
    int may_change; /* time travel takes a snapshot after it */
    struct session_job *next;
} session_job;

struct mh_session {
    atomic_int refs;
    mh_sessions *set;
    char name[64];
    const mh_reg_machine *machine;
    void *instance;
    mh_ptrvec chips; /* mh_chip* with copied strings */
    int accepting_chips;

    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;     /* jobs queued, run state changed, quit */
    pthread_cond_t finished; /* creation done, run finished */
    session_job *jobs_head, *jobs_tail;
    atomic_int created;      /* 1 ok, -1 failed; set under lock, also read under the set's lock */
    int quitting;
    int alive;

    /* runner state */
    int running, warp, run_done, exit_code;
    uint64_t cycle_limit;
    atomic_uint_fast64_t cycles;
    int jam_reported; /* the jam of this run was posted as an event */
    int runner;       /* started by mh_session_start(): a jam keeps the clock going */
    /* real-time pacing trim in millionths (0: 1.0), set from any thread
     * (mh_session_set_pace); pace_seen is the emulation thread's last read */
    atomic_uint_fast32_t pace_ppm;
    uint32_t pace_seen;

    /* debugging (debug_engine.h); dbg is NULL without a CPU interface and
     * is used on the emulation thread only. The rest is under lock. */
    mh_dbg *dbg;
    struct mh_travel *travel; /* time travel (debug_travel.h); NULL without */
    mh_exec_state exec_state;
    char *stop_json;   /* the last stop record */
    uint64_t stop_id;
    int goal_pending;  /* run() asked for goal; the thread begins it */
    /* under lock: the thread waits for work (parked), and another thread
     * runs a quick read-only job on the idle machine (borrowed; the
     * emulation thread keeps waiting until it is 0 again) */
    int parked;
    int borrowed;
    mh_run_request goal;
    int pause_requested;
    char pause_by[96]; /* the client that asked for the pause, "" unknown */

    /* mh.observe/1 (session_observe.c); the chips are found after create() */
    struct mh_observe *observe;
    const mh_chip *video_chip, *audio_chip;
    uint64_t clock_hz;
    mh_frame_mailbox frames;
    mh_audio_stream audio;

    /* ownership (session_owner.c), under lock: the MCP connection that
     * created the session (0: the server, shared by every client), its
     * client's name, and while its connection has ended the monotonic time
     * (ms) at which the reaper destroys it (0: not orphaned) */
    uint64_t owner;
    char owner_label[96];
    uint64_t orphan_deadline_ms;
    atomic_uint_fast64_t last_used_ms; /* monotonic ms of the last tool call */
    /* "is the state saved?" (snapshot_load asks before replacing unsaved
     * state): change_gen counts tool calls that may change the machine;
     * saved_* record it and the cycles at the last snapshot save or load
     * (under lock) */
    atomic_uint_fast64_t change_gen;
    uint64_t saved_gen, saved_cycles;
    int saved_valid;
};

/* The set of sessions (session_set.c); the orphan reaper's fields are
 * session_owner.c's, under lock. */
struct mh_sessions {
    struct mh_hostctx *ctx;
    pthread_mutex_t lock;
    mh_ptrvec live; /* mh_session*, each holding one reference */
    unsigned next_number;
    pthread_t reaper;
    int reaper_started, reaper_quit;
    pthread_cond_t reaper_wake; /* on CLOCK_MONOTONIC */
};

/* Stops a session already removed from the set: ends its thread, tells
 * observers, drops the set's reference (session_set.c). */
void mh_session_stop_and_release(mh_session *s);
/* Ends the reaper thread, if one started (session_owner.c); before the
 * sessions are freed. */
void mh_sessions_stop_reaper(mh_sessions *set);

/* After every run slice: the frame mailbox, FRAME observations and the
 * audio stream. [emu-thread] */
void mh_session_observe_slice(mh_session *s);
/* The frame now in the mailbox, at once (a paused machine too). [emu-thread] */
void mh_session_observe_frame_now(mh_session *s);

/* What mh_sessions_create() hands the new thread (session_set.c). */
typedef struct mh_session_create_args {
    mh_session *s;
    const char *options_json;
    char *error;
    size_t error_size;
} mh_session_create_args;

/* The emulation thread: the machine's create(), then jobs and run slices
 * until the session quits (session_thread.c). */
void *mh_session_thread_main(void *arg);
/* Sends an execution event to the observers (the MCP server is one);
 * call without the session lock. */
void mh_session_post_event(mh_session *s, uint32_t type, const char *detail_json);
/* Frees the chip table (session_chips.c); at the last reference. */
void mh_session_free_chips(mh_session *s);

/* Stops the run now on the emulation thread: builds the stop record,
 * sets the state, wakes waiters and posts the events. Call without lock. */
void mh_session_enter_stopped(mh_session *s, mh_exec_state state, mh_dbg_reason reason,
                              int exit_code);

#endif
