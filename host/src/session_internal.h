/* host/src/session_internal.h - the session struct, shared by sessions.c
 * (lifecycle, jobs, the run loop) and debug_service.c (mh.debug/1: run,
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
#include "sessions.h"

typedef struct session_job {
    mh_session_job_fn fn;
    void *arg;
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
    int created;             /* 1 ok, -1 failed */
    int quitting;
    int alive;

    /* runner state */
    int running, warp, run_done, exit_code;
    uint64_t cycle_limit;
    atomic_uint_fast64_t cycles;
    int jam_reported; /* the jam of this run was posted as an event */
    int runner;       /* started by mh_session_start(): a jam keeps the clock going */
    uint64_t frame_posted; /* the video frame number of the last "frame" event */

    /* debugging (debug_engine.h); dbg is NULL without a CPU interface and
     * is used on the emulation thread only. The rest is under lock. */
    mh_dbg *dbg;
    mh_exec_state exec_state;
    char *stop_json;   /* the last stop record */
    uint64_t stop_id;
    int goal_pending;  /* run() asked for goal; the thread begins it */
    mh_run_request goal;
    int pause_requested;
};

/* Stops the run now on the emulation thread: builds the stop record,
 * sets the state, wakes waiters and posts the events. Call without lock. */
void mh_session_enter_stopped(mh_session *s, mh_exec_state state, mh_dbg_reason reason,
                              int exit_code);

#endif
