/* session_thread.c - a session's emulation thread: the job queue, run
 * slices with real-time pacing or warp, stops and their records, the
 * runner mode (start, interrupt, wait) and the events a run posts. */
#include "sessions.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "debug_engine.h"
#include "debug_travel.h"
#include "mcphost/machine.h"
#include "hostctx.h"
#include "session_internal.h"
#include "log.h"
#include "ptrvec.h"
#include "observe.h"
#include "stop_annotators.h"
#include "registry.h"

static session_job *pop_job(mh_session *s)
{
    session_job *job = s->jobs_head;
    if (job) {
        s->jobs_head = job->next;
        if (!s->jobs_head) s->jobs_tail = NULL;
    }
    return job;
}

static void post(mh_session *s, mh_session_job_fn fn, void *arg, int may_change)
{
    session_job *job = malloc(sizeof *job);
    pthread_mutex_lock(&s->lock);
    if (!job || !s->alive) {
        pthread_mutex_unlock(&s->lock);
        free(job);
        fn(arg, NULL);
        return;
    }
    job->fn = fn;
    job->arg = arg;
    job->may_change = may_change;
    job->next = NULL;
    if (s->jobs_tail)
        s->jobs_tail->next = job;
    else
        s->jobs_head = job;
    s->jobs_tail = job;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
}

void mh_session_post(mh_session *s, mh_session_job_fn fn, void *arg) { post(s, fn, arg, 0); }

/* The session whose job this thread runs in mh_session_post_quick(). */
static _Thread_local const mh_session *borrowing;

int mh_session_on_its_thread(const mh_session *s)
{
    return borrowing == s || pthread_equal(pthread_self(), s->thread);
}

void mh_session_post_quick(mh_session *s, mh_session_job_fn fn, void *arg)
{
    pthread_mutex_lock(&s->lock);
    /* Only a parked thread with nothing to do: the job then runs where it
     * would have run anyway, between instructions of a stopped machine,
     * and nothing queued before it is overtaken. */
    int idle = s->alive && s->parked && !s->borrowed && !s->jobs_head && !s->goal_pending &&
               !s->running && !s->quitting && !borrowing;
    if (!idle) {
        pthread_mutex_unlock(&s->lock);
        post(s, fn, arg, 0);
        return;
    }
    s->borrowed = 1;
    pthread_mutex_unlock(&s->lock);
    borrowing = s;
    fn(arg, s);
    borrowing = NULL;
    pthread_mutex_lock(&s->lock);
    s->borrowed = 0;
    /* What came meanwhile (jobs, a run, the end) waits for the thread. */
    if (s->jobs_head || s->goal_pending || s->running || s->quitting) pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
}

void mh_session_post_changing(mh_session *s, mh_session_job_fn fn, void *arg)
{
    post(s, fn, arg, 1);
}

static void finish_run(mh_session *s, int exit_code)
{
    s->running = 0;
    s->run_done = 1;
    s->exit_code = exit_code;
    pthread_cond_broadcast(&s->finished);
}

void mh_session_post_event(mh_session *s, uint32_t type, const char *detail_json)
{
    mh_observe_exec_event(s->observe, s->name, s->machine->name, type, detail_json);
}

/* The "exited" event of a run that ended; call without the session lock. */
static void post_exited(mh_session *s, const char *reason, int exit_code)
{
    char detail[160];
    snprintf(detail, sizeof detail, "{\"reason\":\"%s\",\"exitCode\":%d,\"cycles\":%llu}", reason,
             exit_code, (unsigned long long)atomic_load(&s->cycles));
    mh_session_post_event(s, MH_EVENT_EXITED, detail);
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static mh_dbg_reason reason_of_event(uint32_t type)
{
    return type == MH_EVENT_JAMMED ? MH_DBG_JAM : MH_DBG_NONE;
}

/* A stop record for a machine without a debuggable CPU. */
static char *plain_stop_record(mh_session *s, mh_exec_state state, int exit_code)
{
    char *json = malloc(160);
    if (json)
        snprintf(json, 160, "{\"state\":\"%s\",\"exit_code\":%d,\"cycles\":%llu}",
                 mh_exec_state_name(state), exit_code,
                 (unsigned long long)atomic_load(&s->cycles));
    return json;
}

/* A machine may end a slice inside an instruction (run() stops where its
 * budget ends); a stopped machine always stands at an instruction boundary,
 * so registers and PC mean what they say. */
static void finish_instruction(mh_session *s)
{
    const mh_cpu6502 *cpu = mh_dbg_cpu(s->dbg);
    const mh_machine_desc *m = &s->machine->desc;
    for (int i = 0; i < 16 && !mh_cpu6502_at_boundary(cpu) && !cpu->jammed; i++) {
        mh_run_result result = {sizeof result, 0, MH_RUN_BUDGET, 0};
        if (m->run(s->instance, 1, &result) != MH_OK) break;
        uint64_t total = atomic_fetch_add(&s->cycles, result.cycles) + result.cycles;
        mh_dbg_set_cycles(s->dbg, total);
        if (result.stop != MH_RUN_BUDGET) break;
    }
}

void mh_session_enter_stopped(mh_session *s, mh_exec_state state, mh_dbg_reason reason,
                              int exit_code)
{
    if (s->dbg && state != MH_EXEC_EXITED) {
        finish_instruction(s);
        mh_dbg_settle_stopped(s->dbg);
    }
    if (state != MH_EXEC_EXITED) mh_travel_note_stop(s->travel, atomic_load(&s->cycles));
    pthread_mutex_lock(&s->lock);
    uint64_t stop_id = ++s->stop_id;
    pthread_mutex_unlock(&s->lock);
    char *record = s->dbg ? mh_dbg_stop_record(s->dbg, state, reason, exit_code, stop_id)
                          : plain_stop_record(s, state, exit_code);
    if (s->dbg) mh_dbg_end(s->dbg);
    pthread_mutex_lock(&s->lock);
    /* A run asked for while this slice ran supersedes the goal that just
     * ended: the machine goes on toward the new one, and waiters wait for
     * that. The stop is still recorded and reported. */
    if (!s->goal_pending) {
        s->running = 0;
        s->pause_requested = 0;
        s->exec_state = state;
    }
    free(s->stop_json);
    s->stop_json = record;
    pthread_cond_broadcast(&s->finished);
    pthread_mutex_unlock(&s->lock);
    /* The events carry what plugins know of the place (labels, source
     * lines); the stored record stays the engine's (tools add their own). */
    mh_stop_annotators *annotators = s->set && s->set->ctx ? s->set->ctx->annotators : NULL;
    char *event = s->dbg && record
                      ? mh_stop_annotate(annotators, s, mh_dbg_cpu(s->dbg)->pc, record)
                      : NULL;
    const char *detail = event ? event : record;
    if (reason == MH_DBG_BREAKPOINT || reason == MH_DBG_WATCHPOINT || reason == MH_DBG_CHECK)
        mh_session_post_event(s, MH_EVENT_BREAKPOINT, detail);
    if (reason == MH_DBG_JAM) mh_session_post_event(s, MH_EVENT_JAMMED, detail);
    mh_session_post_event(s, MH_EVENT_STOPPED, detail);
    free(event);
}

/* Runs one slice of the machine with the lock released; returns with it held. */
static void run_slice(mh_session *s, uint64_t *pace_start_ns, uint64_t *pace_start_cycles)
{
    const mh_machine_desc *m = &s->machine->desc;
    uint64_t hz = m->clock_hz(s->instance);
    uint64_t budget = hz / 200 ? hz / 200 : 5000; /* 5 ms of machine time */
    uint64_t done = atomic_load(&s->cycles);
    if (s->cycle_limit && s->cycle_limit - done < budget) budget = s->cycle_limit - done;
    if (s->dbg) budget = mh_dbg_slice_budget(s->dbg, budget);
    int warp = s->warp;
    int runner = s->runner;
    pthread_mutex_unlock(&s->lock);

    mh_run_result result = {sizeof result, 0, MH_RUN_BUDGET, 0};
    mh_status status = m->run(s->instance, budget, &result);
    uint64_t total = atomic_fetch_add(&s->cycles, result.cycles) + result.cycles;
    mh_dbg_reason reason = s->dbg ? mh_dbg_after_slice(s->dbg, result.stop, total) : MH_DBG_NONE;
    mh_session_observe_slice(s);
    mh_travel_after_slice(s->travel);

    uint64_t due = 0;
    if (!warp && hz) {
        /* Real-time pacing: the machine may run ahead of wall time by one
         * slice; a machine that fell more than 50 ms behind (a slow host, a
         * long tool call) starts counting afresh instead of racing. A new
         * pacing trim (set_pace) counts from this slice's due time. */
        uint32_t ppm = (uint32_t)atomic_load(&s->pace_ppm);
        if (ppm == 0) ppm = 1000000u;
        uint64_t now = now_ns();
        double machine_ns = (double)(total - *pace_start_cycles) * 1e9 / (double)hz;
        due = *pace_start_ns + (uint64_t)(machine_ns * 1e6 / (double)s->pace_seen);
        if (ppm != s->pace_seen) {
            /* this slice is due when it was; the new ratio counts from there */
            s->pace_seen = ppm;
            *pace_start_ns = due;
            *pace_start_cycles = total;
        }
        if (now > due + 50000000ull) {
            *pace_start_ns = now;
            *pace_start_cycles = total;
            due = 0;
        }
    }
    const char *ended = NULL;
    int code = 0;
    if (status != MH_OK) {
        mh_log(MH_LOG_ERROR, s->name, "machine run failed: %s", mh_status_name(status));
        ended = "error";
        code = 2;
    } else if (result.stop == MH_RUN_EXIT) {
        ended = "exit";
        code = result.exit_code;
    } else if (s->cycle_limit && total >= s->cycle_limit) {
        mh_log(MH_LOG_INFO, s->name, "cycle limit %llu reached", (unsigned long long)s->cycle_limit);
        ended = "cycle limit";
        code = 1;
    }
    /* Events are posted without the session lock held. */
    if (ended) {
        post_exited(s, ended, code);
        mh_session_enter_stopped(s, MH_EXEC_EXITED,
                                 strcmp(ended, "cycle limit") == 0 ? MH_DBG_LIMIT : MH_DBG_EXIT,
                                 code);
    } else if (reason != MH_DBG_NONE) {
        mh_session_enter_stopped(s, MH_EXEC_STOPPED, reason, 0);
    } else if (result.stop == MH_RUN_JAMMED && !s->jam_reported) {
        s->jam_reported = 1;
        if (runner) /* the machine's clock goes on, so --limit-cycles still ends it */
            mh_session_post_event(s, MH_EVENT_JAMMED, NULL);
        else
            mh_session_enter_stopped(s, MH_EXEC_JAMMED, reason_of_event(MH_EVENT_JAMMED), 0);
    } else if (result.stop == MH_RUN_BREAK) {
        mh_session_enter_stopped(s, MH_EXEC_STOPPED, MH_DBG_PAUSE, 0);
    }
    pthread_mutex_lock(&s->lock);
    if (ended) finish_run(s, code);
    /* Wait for wall time to catch up, but wake at once for a job. */
    if (due && s->running) {
        struct timespec until = {(time_t)(due / 1000000000ull), (long)(due % 1000000000ull)};
        while (s->running && !s->jobs_head && !s->quitting && !s->goal_pending &&
               !s->pause_requested && now_ns() < due)
            if (pthread_cond_timedwait(&s->wake, &s->lock, &until) != 0) break;
    }
}

void *mh_session_thread_main(void *arg)
{
    mh_session_create_args *ca = arg;
    mh_session *s = ca->s;
    const mh_machine_desc *m = &s->machine->desc;
    mh_status status = m->create(m->user_data, s, ca->options_json, &s->instance, ca->error,
                                 ca->error_size);
    if (status == MH_OK) {
        s->dbg = mh_dbg_new(s, s->name);
        s->video_chip = mh_session_service_impl.find_chip(s, MH_IFACE_VIDEO, NULL);
        s->audio_chip = mh_session_service_impl.find_chip(s, MH_IFACE_AUDIO, NULL);
        /* too old to have what the frame mailbox and audio stream use */
        if (s->video_chip && ((const mh_video_iface *)s->video_chip->vtable)->struct_size <
                                 offsetof(mh_video_iface, frame) + sizeof(void *))
            s->video_chip = NULL;
        if (s->audio_chip && ((const mh_audio_iface *)s->audio_chip->vtable)->struct_size <
                                 offsetof(mh_audio_iface, read) + sizeof(void *))
            s->audio_chip = NULL;
        s->clock_hz = m->clock_hz(s->instance);
        s->travel = mh_travel_new(s);
    }
    pthread_mutex_lock(&s->lock);
    s->accepting_chips = 0;
    atomic_store(&s->created, status == MH_OK ? 1 : -1);
    s->alive = status == MH_OK;
    pthread_cond_broadcast(&s->finished);
    if (status != MH_OK) {
        pthread_mutex_unlock(&s->lock);
        return NULL;
    }
    uint64_t pace_ns = now_ns(), pace_cycles = 0;
    s->pace_seen = 1000000u;
    while (!s->quitting) {
        if (s->borrowed) { /* another thread runs a quick job on the machine */
            s->parked = 1;
            pthread_cond_wait(&s->wake, &s->lock);
            s->parked = 0;
            pace_ns = now_ns();
            pace_cycles = atomic_load(&s->cycles);
            continue;
        }
        session_job *job = pop_job(s);
        if (job) {
            pthread_mutex_unlock(&s->lock);
            int may_change = job->may_change;
            job->fn(job->arg, s);
            free(job);
            /* a read-only job leaves nothing to snapshot: it would cost a
             * whole-machine save and compare on every call */
            if (may_change) mh_travel_after_job(s->travel);
            pthread_mutex_lock(&s->lock);
        } else if (s->goal_pending) {
            mh_run_request goal = s->goal;
            int warp = s->warp;
            s->goal_pending = 0;
            pthread_mutex_unlock(&s->lock);
            if (s->dbg) {
                mh_dbg_set_cycles(s->dbg, atomic_load(&s->cycles));
                mh_dbg_begin(s->dbg, &goal);
            }
            static const char *const goals[] = {"continue", "step",    "step_over", "step_out",
                                                "cycles",   "address", "frames"};
            char detail[96];
            snprintf(detail, sizeof detail, "{\"goal\":\"%s\",\"warp\":%s}",
                     goal.goal < sizeof goals / sizeof goals[0] ? goals[goal.goal] : "?",
                     warp ? "true" : "false");
            mh_session_post_event(s, MH_EVENT_RESUMED, detail);
            pthread_mutex_lock(&s->lock);
        } else if (s->running && s->pause_requested) {
            if (s->dbg) mh_dbg_set_requested_by(s->dbg, s->pause_by);
            s->pause_by[0] = '\0';
            pthread_mutex_unlock(&s->lock);
            mh_session_enter_stopped(s, MH_EXEC_PAUSED, MH_DBG_PAUSE, 0);
            pthread_mutex_lock(&s->lock);
        } else if (s->running) {
            run_slice(s, &pace_ns, &pace_cycles);
        } else {
            s->parked = 1;
            pthread_cond_wait(&s->wake, &s->lock);
            s->parked = 0;
            pace_ns = now_ns();
            pace_cycles = atomic_load(&s->cycles);
        }
    }
    /* A quick job on another thread still holds the machine: it ends first. */
    while (s->borrowed) pthread_cond_wait(&s->wake, &s->lock);
    s->alive = 0;
    if (!s->run_done) finish_run(s, 1);
    s->running = 0;
    pthread_cond_broadcast(&s->finished); /* pause() and wait() give up */
    session_job *job;
    while ((job = pop_job(s)) != NULL) {
        pthread_mutex_unlock(&s->lock);
        job->fn(job->arg, NULL);
        free(job);
        pthread_mutex_lock(&s->lock);
    }
    pthread_mutex_unlock(&s->lock);
    mh_travel_free(s->travel);
    s->travel = NULL;
    mh_dbg_free(s->dbg);
    s->dbg = NULL;
    m->destroy(s->instance);
    s->instance = NULL;
    return NULL;
}

mh_status mh_session_set_pace(mh_session *s, double ratio)
{
    if (!(ratio >= MH_OBSERVE_PACE_MIN && ratio <= MH_OBSERVE_PACE_MAX))
        return MH_ERR_INVALID_ARGUMENT;
    atomic_store(&s->pace_ppm, (uint_fast32_t)(ratio * 1e6 + 0.5));
    return MH_OK;
}

void mh_session_start(mh_session *s, int warp, uint64_t cycle_limit)
{
    pthread_mutex_lock(&s->lock);
    s->warp = warp;
    s->cycle_limit = cycle_limit;
    s->run_done = 0;
    s->running = 1;
    s->runner = 1;
    s->jam_reported = 0;
    s->exec_state = MH_EXEC_RUNNING;
    s->goal = (mh_run_request){sizeof(mh_run_request), MH_GOAL_CONTINUE, 0, 0, warp};
    s->goal_pending = 1;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
}

void mh_session_interrupt(mh_session *s, int exit_code)
{
    pthread_mutex_lock(&s->lock);
    int was_running = !s->run_done && s->running;
    if (!s->run_done) finish_run(s, exit_code);
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    if (was_running) post_exited(s, "interrupted", exit_code);
}

int mh_session_wait_finished(mh_session *s)
{
    pthread_mutex_lock(&s->lock);
    while (!s->run_done) pthread_cond_wait(&s->finished, &s->lock);
    int code = s->exit_code;
    pthread_mutex_unlock(&s->lock);
    return code;
}
