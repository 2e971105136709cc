/* debug_service.c - "mh.debug/1" (mcphost/debug.h): the thread-safe
 * execution calls (run, pause, wait, state) work on the session under its
 * lock and let the session thread do the rest; the breakpoint calls are
 * [emu-thread] and go straight to the session's engine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "call.h"
#include "debug_trace.h"
#include "debug_travel.h"
#include "session_internal.h"
#include "hostctx.h"
#include "loader.h"
#include "stop_annotators.h"

static mh_status no_cpu(mh_session *s, char *error, size_t error_size)
{
    snprintf(error, error_size,
             "session \"%s\" (%s) has no CPU the debugger can control (no mh.cpu6502/1 "
             "interface)", s->name, s->machine->name);
    return MH_ERR_UNSUPPORTED;
}

static mh_status d_run(mh_session *s, const mh_run_request *request, char *error,
                       size_t error_size)
{
    if (!s || !request || request->struct_size < sizeof(mh_run_request) ||
        request->goal > MH_GOAL_FRAMES) {
        snprintf(error, error_size, "run: invalid request");
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (!s->dbg && request->goal != MH_GOAL_CONTINUE) return no_cpu(s, error, error_size);
    if (request->goal == MH_GOAL_FRAMES && !mh_dbg_has_video(s->dbg)) {
        snprintf(error, error_size,
                 "session \"%s\" (%s) has no video, so it has no frames to count; run until "
                 "an address or for a number of cycles instead", s->name, s->machine->name);
        return MH_ERR_UNSUPPORTED;
    }
    pthread_mutex_lock(&s->lock);
    if (!s->alive) {
        pthread_mutex_unlock(&s->lock);
        snprintf(error, error_size, "session \"%s\" has ended", s->name);
        return MH_ERR_STATE;
    }
    if (s->exec_state == MH_EXEC_JAMMED && request->goal != MH_GOAL_CONTINUE &&
        request->goal != MH_GOAL_CYCLES && request->goal != MH_GOAL_FRAMES) {
        pthread_mutex_unlock(&s->lock);
        snprintf(error, error_size,
                 "the CPU is jammed (it executed a JAM opcode), so it runs no more instructions; "
                 "reset the machine (machine_reset) or load a snapshot");
        return MH_ERR_STATE;
    }
    s->goal = *request;
    if (request->warp >= 0) s->warp = request->warp != 0;
    s->goal_pending = 1;
    s->pause_requested = 0;
    s->running = 1;
    s->run_done = 0;
    s->jam_reported = 0;
    s->exec_state = MH_EXEC_RUNNING;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    return MH_OK;
}

static mh_status d_pause(mh_session *s)
{
    pthread_mutex_lock(&s->lock);
    if (s->running && s->alive) {
        const char *client = mh_call_current_client();
        snprintf(s->pause_by, sizeof s->pause_by, "%s", client ? client : "");
        s->pause_requested = 1;
        pthread_cond_signal(&s->wake);
        while (s->running && s->alive) pthread_cond_wait(&s->finished, &s->lock);
    }
    pthread_mutex_unlock(&s->lock);
    return MH_OK;
}

static void deadline_in(struct timespec *ts, uint32_t ms)
{
    clock_gettime(CLOCK_REALTIME, ts);
    ts->tv_sec += ms / 1000;
    ts->tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

static int before(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static mh_status d_wait(mh_session *s, uint32_t timeout_ms, int (*cancelled)(void *user),
                        void *cancelled_user)
{
    struct timespec end;
    deadline_in(&end, timeout_ms);
    mh_status status = MH_OK;
    pthread_mutex_lock(&s->lock);
    while (s->running && s->alive) {
        if (cancelled && cancelled(cancelled_user)) {
            status = MH_ERR_CANCELLED;
            break;
        }
        struct timespec now, slot;
        clock_gettime(CLOCK_REALTIME, &now);
        if (!before(&now, &end)) {
            status = MH_ERR_TIMEOUT;
            break;
        }
        deadline_in(&slot, 50); /* poll cancellation */
        pthread_cond_timedwait(&s->finished, &s->lock, before(&slot, &end) ? &slot : &end);
    }
    pthread_mutex_unlock(&s->lock);
    return status;
}

static mh_exec_state d_state(mh_session *s)
{
    pthread_mutex_lock(&s->lock);
    mh_exec_state state = s->exec_state;
    pthread_mutex_unlock(&s->lock);
    return state;
}

static size_t d_state_json(mh_session *s, char *out, size_t out_size)
{
    pthread_mutex_lock(&s->lock);
    char head[480];
    snprintf(head, sizeof head, "{\"state\":\"%s\",\"cycles\":%llu,\"warp\":%s",
             mh_exec_state_name(s->exec_state), (unsigned long long)atomic_load(&s->cycles),
             s->warp ? "true" : "false");
    const char *stop = s->exec_state != MH_EXEC_RUNNING ? s->stop_json : NULL;
    /* A run to an address inside an instruction may never stop: say so
     * while it runs (execution_run_until shows it at its timeout). */
    uint16_t goal = 0, instruction = 0;
    if (!stop && s->dbg && mh_dbg_goal_straddle(s->dbg, &goal, &instruction)) {
        size_t used = strlen(head);
        snprintf(head + used, sizeof head - used,
                 ",\"warning\":\"$%04X is not an instruction start: the CPU ran the instruction "
                 "at $%04X across it, and a run to an address stops only where an instruction "
                 "starts (disassemble $%04X shows it)\"",
                 goal, instruction, instruction);
    }
    int n = stop ? snprintf(out, out_size, "%s,\"stop\":%s}", head, stop)
                 : snprintf(out, out_size, "%s}", head);
    pthread_mutex_unlock(&s->lock);
    return n < 0 ? 0 : (size_t)n;
}

/* ---- [emu-thread] calls on the engine ---- */

static size_t copy_out(char *json, char *out, size_t out_size)
{
    size_t length = json ? strlen(json) : 2;
    if (out_size) snprintf(out, out_size, "%s", json ? json : "[]");
    free(json);
    return length;
}

static mh_status d_bp_add(mh_session *s, const mh_breakpoint_spec *spec, uint32_t *id,
                          char *error, size_t error_size)
{
    if (!s->dbg) return no_cpu(s, error, error_size);
    return mh_dbg_bp_add(s->dbg, spec, id, error, error_size);
}

static mh_status d_bp_delete(mh_session *s, uint32_t id, const char *group)
{
    return s->dbg ? mh_dbg_bp_delete(s->dbg, id, group) : MH_ERR_UNSUPPORTED;
}

static mh_status d_bp_enable(mh_session *s, uint32_t id, const char *group, int enabled)
{
    return s->dbg ? mh_dbg_bp_enable(s->dbg, id, group, enabled) : MH_ERR_UNSUPPORTED;
}

static mh_status d_bp_condition(mh_session *s, uint32_t id, const char *condition, char *error,
                                size_t error_size)
{
    if (!s->dbg) return no_cpu(s, error, error_size);
    return mh_dbg_bp_condition(s->dbg, id, condition, NULL, NULL, error, error_size);
}

static mh_status d_bp_condition_with(mh_session *s, uint32_t id, const char *condition,
                                     mh_expr_constant_fn constant, void *constant_user,
                                     char *error, size_t error_size)
{
    if (!s->dbg) return no_cpu(s, error, error_size);
    return mh_dbg_bp_condition(s->dbg, id, condition, constant, constant_user, error, error_size);
}

static size_t d_bp_list_json(mh_session *s, char *out, size_t out_size)
{
    return copy_out(s->dbg ? mh_dbg_bp_list_json(s->dbg) : NULL, out, out_size);
}

static size_t d_trace_json(mh_session *s, uint64_t since, char *out, size_t out_size)
{
    char *json = s->dbg ? mh_dbg_trace_json(s->dbg, since) : NULL;
    if (!json) json = strdup("{\"next\":0,\"dropped\":0,\"entries\":[]}");
    return copy_out(json, out, out_size);
}

static mh_status d_advance(mh_session *s, uint64_t cycles, int *stopped)
{
    if (stopped) *stopped = 0;
    if (d_state(s) == MH_EXEC_RUNNING) return MH_ERR_STATE;
    const mh_machine_desc *m = &s->machine->desc;
    uint64_t done = 0;
    if (s->dbg) {
        mh_run_request cont = {sizeof cont, MH_GOAL_CONTINUE, 0, 0, -1};
        mh_dbg_set_cycles(s->dbg, atomic_load(&s->cycles));
        mh_dbg_begin(s->dbg, &cont);
    }
    while (done < cycles) {
        mh_run_result result = {sizeof result, 0, MH_RUN_BUDGET, 0};
        mh_status status = m->run(s->instance, cycles - done, &result);
        uint64_t total = atomic_fetch_add(&s->cycles, result.cycles) + result.cycles;
        done += result.cycles;
        if (status != MH_OK) return status;
        mh_session_observe_slice(s); /* frames and audio for observers, as a run slice */
        mh_travel_after_slice(s->travel);
        mh_dbg_reason reason = s->dbg ? mh_dbg_after_slice(s->dbg, result.stop, total)
                                      : MH_DBG_NONE;
        if (reason != MH_DBG_NONE) {
            mh_session_enter_stopped(s, MH_EXEC_STOPPED, reason, 0);
            if (stopped) *stopped = 1;
            return MH_OK;
        }
        if (result.stop == MH_RUN_EXIT) {
            mh_session_enter_stopped(s, MH_EXEC_EXITED, MH_DBG_EXIT, result.exit_code);
            if (stopped) *stopped = 1;
            return MH_OK;
        }
        if (result.cycles == 0 && result.stop != MH_RUN_BUDGET) break;
    }
    /* A CPU that jammed meanwhile stays jammed (the chips ran on). */
    if (s->dbg && mh_dbg_cpu(s->dbg)->jammed && d_state(s) != MH_EXEC_JAMMED)
        mh_session_enter_stopped(s, MH_EXEC_JAMMED, MH_DBG_JAM, 0);
    else if (s->dbg)
        mh_dbg_end(s->dbg);
    return MH_OK;
}

static uint64_t d_cycles(mh_session *s) { return atomic_load(&s->cycles); }

static uint64_t d_stopwatch(mh_session *s, int reset)
{
    if (!s->dbg) return 0;
    mh_dbg_set_cycles(s->dbg, atomic_load(&s->cycles));
    return mh_dbg_stopwatch(s->dbg, reset);
}

static void d_machine_changed(mh_session *s, uint32_t event_type, const char *detail_json)
{
    if (event_type) mh_events_service_impl.post(s, event_type, detail_json);
    if (s->dbg) mh_dbg_set_cycles(s->dbg, atomic_load(&s->cycles));
    /* A paused machine's stop record (and a jam) no longer hold: record the
     * new position. A running one just goes on. */
    if (d_state(s) != MH_EXEC_RUNNING)
        mh_session_enter_stopped(s, MH_EXEC_PAUSED, MH_DBG_PAUSE, 0);
    else if (s->dbg)
        mh_dbg_end(s->dbg); /* re-arms: change watchpoints re-read memory */
}

static size_t d_history_copy(mh_session *s, size_t skip, mh_insn_record *out, size_t max)
{
    return s && s->dbg && out ? mh_dbg_history_copy(s->dbg, skip, out, max) : 0;
}

static size_t d_writes_copy(mh_session *s, size_t skip, mh_write_record *out, size_t max)
{
    return s && s->dbg && out ? mh_dbg_writes_copy(s->dbg, skip, out, max) : 0;
}

static size_t d_writers(mh_session *s, uint16_t start, uint16_t end, uint16_t *pcs, size_t max,
                        int *complete)
{
    if (complete) *complete = 0;
    return s && s->dbg ? mh_dbg_writers(s->dbg, start, end, pcs, max, complete) : 0;
}

static mh_status d_history_config(mh_session *s, const mh_history_config *config,
                                  mh_history_config *now)
{
    if (!s || !s->dbg) return MH_ERR_STATE;
    if (config && config->struct_size < sizeof *config) return MH_ERR_INVALID_ARGUMENT;
    mh_status status = MH_OK;
    if (config) {
        if (d_state(s) == MH_EXEC_RUNNING) return MH_ERR_STATE;
        status = mh_dbg_history_config(s->dbg, config->instructions, config->writes);
    }
    if (now && now->struct_size >= sizeof *now)
        mh_dbg_history_sizes(s->dbg, &now->instructions, &now->writes);
    return status;
}

static mh_stop_annotators *annotators_of(const mh_host *host)
{
    mh_plugin_record *rec = mh_plugin_from_host(host);
    return rec && rec->hostctx ? rec->hostctx->annotators : NULL;
}

static uint64_t d_add_stop_annotator(const mh_host *host, mh_stop_annotate_fn fn, void *user)
{
    return mh_stop_annotators_add(annotators_of(host), fn, user);
}

static void d_remove_stop_annotator(const mh_host *host, uint64_t id)
{
    mh_stop_annotators_remove(annotators_of(host), id);
}

/* ---- traces (debug_trace.h) ---- */

static mh_status d_frame_trace_start(mh_session *s, const mh_frame_trace_spec *spec, char *error,
                                     size_t error_size)
{
    if (!s || !s->dbg) return MH_ERR_STATE;
    return mh_dbg_frame_trace_start(s->dbg, spec, error, error_size);
}

static void d_frame_trace_stop(mh_session *s)
{
    if (s && s->dbg) mh_dbg_frame_trace_stop(s->dbg);
}

static size_t d_frame_trace_copy(mh_session *s, size_t skip, mh_write_record *out, size_t max,
                                 mh_frame_trace_status *status)
{
    if (!s || !s->dbg) return 0;
    return mh_dbg_frame_trace_copy(s->dbg, skip, out, max, status);
}

static mh_status d_events_config(mh_session *s, int64_t size, int64_t *now)
{
    if (!s || !s->dbg) return MH_ERR_STATE;
    return mh_dbg_events_config(s->dbg, size, now);
}

static size_t d_events_copy(mh_session *s, size_t skip, mh_trace_event *out, size_t max)
{
    return s && s->dbg ? mh_dbg_events_copy(s->dbg, skip, out, max) : 0;
}

static mh_status d_counter_add(mh_session *s, uint16_t start, uint16_t end, int end_set,
                               char *error, size_t error_size)
{
    if (!s || !s->dbg) return MH_ERR_STATE;
    return mh_dbg_counter_add(s->dbg, start, end, end_set, error, error_size);
}

static size_t d_counters_copy(mh_session *s, mh_cycle_counter *out, size_t max)
{
    return s && s->dbg ? mh_dbg_counters_copy(s->dbg, out, max) : 0;
}

static void d_counters_reset(mh_session *s, int index, int remove)
{
    if (s && s->dbg) mh_dbg_counters_reset(s->dbg, index, remove);
}

/* Also while the machine runs: the session thread calls it between
 * slices, as it adds breakpoints. */
static mh_status d_profile_control(mh_session *s, int on, int reset)
{
    if (!s || !s->dbg) return MH_ERR_STATE;
    return mh_dbg_profile_control(s->dbg, on, reset);
}

static const mh_profile_view *d_profile_view(mh_session *s)
{
    return s && s->dbg ? mh_dbg_profile_view(s->dbg) : NULL;
}

const mh_debug_service mh_debug_service_impl = {
    sizeof(mh_debug_service), d_run,          d_pause,        d_wait,
    d_state,                  d_state_json,   d_bp_add,       d_bp_delete,
    d_bp_enable,              d_bp_condition, d_bp_list_json, d_trace_json,
    d_advance,                d_cycles,       d_stopwatch,    d_machine_changed,
    d_bp_condition_with,      d_history_copy, d_writes_copy,  d_history_config,
    d_writers,                d_add_stop_annotator, d_remove_stop_annotator,
    /* ABI 1.5 */
    d_frame_trace_start,      d_frame_trace_stop, d_frame_trace_copy, d_events_config,
    d_events_copy,            d_counter_add,      d_counters_copy,    d_counters_reset,
    d_profile_control,        d_profile_view,
    mh_travel_go,             mh_travel_config,
};
