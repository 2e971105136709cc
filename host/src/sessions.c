#include "sessions.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mcphost/machine.h>

#include "debug_engine.h"
#include "hostctx.h"
#include "session_internal.h"
#include "log.h"
#include "ptrvec.h"
#include "registry.h"
#include "server.h"

struct mh_sessions {
    mh_hostctx *ctx;
    pthread_mutex_t lock;
    mh_ptrvec live; /* mh_session*, each holding one reference */
    unsigned next_number;
};

mh_sessions *mh_sessions_new(mh_hostctx *ctx)
{
    mh_sessions *set = calloc(1, sizeof *set);
    if (!set) return NULL;
    set->ctx = ctx;
    pthread_mutex_init(&set->lock, NULL);
    set->next_number = 1;
    return set;
}

void mh_session_ref(mh_session *s) { atomic_fetch_add(&s->refs, 1); }

static void free_chip(mh_chip *chip)
{
    free((char *)chip->interface_id);
    free((char *)chip->instance);
    free((char *)chip->description);
    free(chip);
}

void mh_session_unref(mh_session *s)
{
    if (!s || atomic_fetch_sub(&s->refs, 1) != 1) return;
    for (size_t i = 0; i < s->chips.count; i++) free_chip(s->chips.items[i]);
    free(s->stop_json);
    mh_ptrvec_free(&s->chips);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->wake);
    pthread_cond_destroy(&s->finished);
    free(s);
}

const char *mh_session_name(const mh_session *s) { return s->name; }
const char *mh_session_machine_name(const mh_session *s) { return s->machine->name; }

int mh_session_alive(mh_session *s)
{
    pthread_mutex_lock(&s->lock);
    int alive = s->alive;
    pthread_mutex_unlock(&s->lock);
    return alive;
}

uint64_t mh_session_cycles(mh_session *s) { return atomic_load(&s->cycles); }

static session_job *pop_job(mh_session *s)
{
    session_job *job = s->jobs_head;
    if (job) {
        s->jobs_head = job->next;
        if (!s->jobs_head) s->jobs_tail = NULL;
    }
    return job;
}

void mh_session_post(mh_session *s, mh_session_job_fn fn, void *arg)
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
    job->next = NULL;
    if (s->jobs_tail)
        s->jobs_tail->next = job;
    else
        s->jobs_head = job;
    s->jobs_tail = job;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
}

static void finish_run(mh_session *s, int exit_code)
{
    s->running = 0;
    s->run_done = 1;
    s->exit_code = exit_code;
    pthread_cond_broadcast(&s->finished);
}

static void post_event(mh_session *s, uint32_t type, const char *detail_json)
{
    mh_server_post_event(s->set->ctx->server, s->name, type, detail_json);
}

/* The "exited" event of a run that ended; call without the session lock. */
static void post_exited(mh_session *s, const char *reason, int exit_code)
{
    char detail[160];
    snprintf(detail, sizeof detail, "{\"reason\":\"%s\",\"exitCode\":%d,\"cycles\":%llu}", reason,
             exit_code, (unsigned long long)atomic_load(&s->cycles));
    post_event(s, MH_EVENT_EXITED, detail);
}

/* The "frame" event, after the slice in which a video frame completed (a
 * slice is 5 ms of machine time, less than any frame, so none is skipped).
 * Only called while someone subscribed to frames. Emulation thread. */
static void post_frame_event(mh_session *s)
{
    const mh_chip *chip = mh_session_service_impl.find_chip(s, MH_IFACE_VIDEO, NULL);
    const mh_video_iface *video = chip ? chip->vtable : NULL;
    if (!video || video->struct_size < sizeof *video) return;
    mh_video_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.struct_size = sizeof frame;
    if (video->frame(chip->context, &frame) != MH_OK || frame.frame_number == s->frame_posted)
        return;
    s->frame_posted = frame.frame_number;
    char detail[96];
    snprintf(detail, sizeof detail, "{\"frame\":%llu,\"cycles\":%llu}",
             (unsigned long long)frame.frame_number, (unsigned long long)atomic_load(&s->cycles));
    post_event(s, MH_EVENT_FRAME, detail);
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
    if (s->dbg && state != MH_EXEC_EXITED) finish_instruction(s);
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
    if (reason == MH_DBG_BREAKPOINT || reason == MH_DBG_WATCHPOINT || reason == MH_DBG_CHECK)
        post_event(s, MH_EVENT_BREAKPOINT, record);
    if (reason == MH_DBG_JAM) post_event(s, MH_EVENT_JAMMED, record);
    post_event(s, MH_EVENT_STOPPED, record);
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
    if (mh_server_event_wanted(s->set->ctx->server, MH_EVENT_FRAME)) post_frame_event(s);

    uint64_t due = 0;
    if (!warp && hz) {
        /* Real-time pacing: the machine may run ahead of wall time by one
         * slice; a machine that fell more than 50 ms behind (a slow host, a
         * long tool call) starts counting afresh instead of racing. */
        due = *pace_start_ns + (total - *pace_start_cycles) * 1000000000ull / hz;
        uint64_t now = now_ns();
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
            post_event(s, MH_EVENT_JAMMED, NULL);
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

typedef struct create_args {
    mh_session *s;
    const char *options_json;
    char *error;
    size_t error_size;
} create_args;

static void *session_thread(void *arg)
{
    create_args *ca = arg;
    mh_session *s = ca->s;
    const mh_machine_desc *m = &s->machine->desc;
    mh_status status = m->create(m->user_data, s, ca->options_json, &s->instance, ca->error,
                                 ca->error_size);
    if (status == MH_OK) s->dbg = mh_dbg_new(s, s->name);
    pthread_mutex_lock(&s->lock);
    s->accepting_chips = 0;
    s->created = status == MH_OK ? 1 : -1;
    s->alive = status == MH_OK;
    pthread_cond_broadcast(&s->finished);
    if (status != MH_OK) {
        pthread_mutex_unlock(&s->lock);
        return NULL;
    }
    uint64_t pace_ns = now_ns(), pace_cycles = 0;
    while (!s->quitting) {
        session_job *job = pop_job(s);
        if (job) {
            pthread_mutex_unlock(&s->lock);
            job->fn(job->arg, s);
            free(job);
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
            post_event(s, MH_EVENT_RESUMED, detail);
            pthread_mutex_lock(&s->lock);
        } else if (s->running && s->pause_requested) {
            pthread_mutex_unlock(&s->lock);
            mh_session_enter_stopped(s, MH_EXEC_PAUSED, MH_DBG_PAUSE, 0);
            pthread_mutex_lock(&s->lock);
        } else if (s->running) {
            run_slice(s, &pace_ns, &pace_cycles);
        } else {
            pthread_cond_wait(&s->wake, &s->lock);
            pace_ns = now_ns();
            pace_cycles = atomic_load(&s->cycles);
        }
    }
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
    mh_dbg_free(s->dbg);
    s->dbg = NULL;
    m->destroy(s->instance);
    s->instance = NULL;
    return NULL;
}

static int name_taken(mh_sessions *set, const char *name)
{
    for (size_t i = 0; i < set->live.count; i++)
        if (strcmp(((mh_session *)set->live.items[i])->name, name) == 0) return 1;
    return 0;
}

mh_status mh_sessions_create(mh_sessions *set, const char *machine, const char *name,
                             const char *options_json, mh_session **out, char *error,
                             size_t error_size)
{
    *out = NULL;
    error[0] = '\0';
    const mh_reg_machine *rm = mh_registry_machine(&set->ctx->registry, machine);
    if (!rm) {
        char known[256] = "";
        for (size_t i = 0; i < set->ctx->registry.machines.count; i++) {
            size_t len = strlen(known);
            snprintf(known + len, sizeof known - len, "%s%s", len ? ", " : "",
                     ((mh_reg_machine *)set->ctx->registry.machines.items[i])->name);
        }
        snprintf(error, error_size, "unknown machine \"%s\"; loaded machines: %s", machine,
                 known[0] ? known : "none (no machine plugin was found)");
        return MH_ERR_NOT_FOUND;
    }
    mh_session *s = calloc(1, sizeof *s);
    if (!s) return MH_ERR_NO_MEMORY;
    atomic_init(&s->refs, 1);
    atomic_init(&s->cycles, 0);
    s->set = set;
    s->machine = rm;
    s->accepting_chips = 1;
    pthread_mutex_init(&s->lock, NULL);
    /* The wake condition times real-time pacing on the monotonic clock. */
    pthread_condattr_t wake_attr;
    pthread_condattr_init(&wake_attr);
    pthread_condattr_setclock(&wake_attr, CLOCK_MONOTONIC);
    pthread_cond_init(&s->wake, &wake_attr);
    pthread_condattr_destroy(&wake_attr);
    pthread_cond_init(&s->finished, NULL);

    pthread_mutex_lock(&set->lock);
    if (name && *name) {
        if (strlen(name) >= sizeof s->name || !mh_tool_name_valid(name)) {
            pthread_mutex_unlock(&set->lock);
            snprintf(error, error_size,
                     "session name \"%s\" is invalid: use 1-63 characters of a-z, A-Z, 0-9, _ and -",
                     name);
            mh_session_unref(s);
            return MH_ERR_INVALID_ARGUMENT;
        }
        if (name_taken(set, name)) {
            pthread_mutex_unlock(&set->lock);
            snprintf(error, error_size, "a session named \"%s\" already exists", name);
            mh_session_unref(s);
            return MH_ERR_EXISTS;
        }
        snprintf(s->name, sizeof s->name, "%s", name);
    } else {
        do
            snprintf(s->name, sizeof s->name, "%s-%u", machine, set->next_number++);
        while (name_taken(set, s->name));
    }
    /* Reserve the name while the machine is created. */
    if (mh_ptrvec_push(&set->live, s) != 0) {
        pthread_mutex_unlock(&set->lock);
        mh_session_unref(s);
        return MH_ERR_NO_MEMORY;
    }
    pthread_mutex_unlock(&set->lock);

    create_args ca = {s, options_json ? options_json : "{}", error, error_size};
    if (pthread_create(&s->thread, NULL, session_thread, &ca) != 0) {
        snprintf(error, error_size, "cannot start the session's emulation thread");
        pthread_mutex_lock(&set->lock);
        mh_ptrvec_remove(&set->live, s);
        pthread_mutex_unlock(&set->lock);
        mh_session_unref(s);
        return MH_ERR_INTERNAL;
    }
    pthread_mutex_lock(&s->lock);
    while (!s->created) pthread_cond_wait(&s->finished, &s->lock);
    int ok = s->created > 0;
    pthread_mutex_unlock(&s->lock);
    if (!ok) {
        pthread_join(s->thread, NULL);
        if (!error[0]) snprintf(error, error_size, "machine %s failed to start", machine);
        pthread_mutex_lock(&set->lock);
        mh_ptrvec_remove(&set->live, s);
        pthread_mutex_unlock(&set->lock);
        mh_session_unref(s);
        return MH_ERR_INTERNAL;
    }
    mh_log(MH_LOG_INFO, NULL, "session %s (%s) created", s->name, machine);
    mh_session_ref(s);
    *out = s;
    return MH_OK;
}

mh_session *mh_sessions_find(mh_sessions *set, const char *name)
{
    mh_session *found = NULL;
    pthread_mutex_lock(&set->lock);
    for (size_t i = 0; i < set->live.count && !found; i++) {
        mh_session *s = set->live.items[i];
        if (strcmp(s->name, name) == 0 && s->created > 0) found = s;
    }
    if (found) mh_session_ref(found);
    pthread_mutex_unlock(&set->lock);
    return found;
}

mh_session *mh_sessions_default(mh_sessions *set)
{
    mh_session *found = NULL;
    pthread_mutex_lock(&set->lock);
    for (size_t i = 0; i < set->live.count && !found; i++) {
        mh_session *s = set->live.items[i];
        if (s->created > 0) found = s;
    }
    if (found) mh_session_ref(found);
    pthread_mutex_unlock(&set->lock);
    return found;
}

size_t mh_sessions_list(mh_sessions *set, mh_session ***out)
{
    pthread_mutex_lock(&set->lock);
    size_t n = 0;
    mh_session **list = calloc(set->live.count ? set->live.count : 1, sizeof *list);
    for (size_t i = 0; list && i < set->live.count; i++) {
        mh_session *s = set->live.items[i];
        if (s->created <= 0) continue;
        mh_session_ref(s);
        list[n++] = s;
    }
    pthread_mutex_unlock(&set->lock);
    *out = list;
    return n;
}

static void stop_and_release(mh_session *s)
{
    pthread_mutex_lock(&s->lock);
    s->quitting = 1;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->thread, NULL);
    mh_log(MH_LOG_INFO, NULL, "session %s destroyed", s->name);
    mh_session_unref(s);
}

mh_status mh_sessions_destroy(mh_sessions *set, const char *name)
{
    mh_session *victim = NULL;
    pthread_mutex_lock(&set->lock);
    for (size_t i = 0; i < set->live.count && !victim; i++) {
        mh_session *s = set->live.items[i];
        if (strcmp(s->name, name) == 0 && s->created > 0) {
            victim = s;
            mh_ptrvec_remove_at(&set->live, i);
        }
    }
    pthread_mutex_unlock(&set->lock);
    if (!victim) return MH_ERR_NOT_FOUND;
    stop_and_release(victim);
    return MH_OK;
}

void mh_sessions_free(mh_sessions *set)
{
    if (!set) return;
    for (;;) {
        pthread_mutex_lock(&set->lock);
        mh_session *s = set->live.count ? set->live.items[set->live.count - 1] : NULL;
        if (s) set->live.count--;
        pthread_mutex_unlock(&set->lock);
        if (!s) break;
        stop_and_release(s);
    }
    mh_ptrvec_free(&set->live);
    pthread_mutex_destroy(&set->lock);
    free(set);
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

/* ---- mh.session/1 ---- */

static const char *svc_name(mh_session *s) { return s->name; }
static const char *svc_machine(mh_session *s) { return s->machine->name; }
static void *svc_instance(mh_session *s) { return s->instance; }

static mh_status svc_add_chip(mh_session *s, const mh_chip *chip)
{
    if (!chip || chip->struct_size < sizeof(mh_chip) || !chip->interface_id || !chip->instance ||
        !chip->vtable)
        return MH_ERR_INVALID_ARGUMENT;
    if (!s->accepting_chips) {
        mh_log(MH_LOG_ERROR, s->name, "add_chip(%s) outside the machine's create()",
               chip->interface_id);
        return MH_ERR_STATE;
    }
    for (size_t i = 0; i < s->chips.count; i++) {
        const mh_chip *c = s->chips.items[i];
        if (strcmp(c->interface_id, chip->interface_id) == 0 &&
            strcmp(c->instance, chip->instance) == 0)
            return MH_ERR_EXISTS;
    }
    mh_chip *copy = calloc(1, sizeof *copy);
    if (!copy) return MH_ERR_NO_MEMORY;
    copy->struct_size = sizeof *copy;
    copy->interface_id = strdup(chip->interface_id);
    copy->instance = strdup(chip->instance);
    copy->description = strdup(chip->description ? chip->description : chip->instance);
    copy->vtable = chip->vtable;
    copy->context = chip->context;
    if (!copy->interface_id || !copy->instance || !copy->description ||
        mh_ptrvec_push(&s->chips, copy) != 0) {
        free_chip(copy);
        return MH_ERR_NO_MEMORY;
    }
    return MH_OK;
}

static const mh_chip *svc_find_chip(mh_session *s, const char *interface_id, const char *instance)
{
    for (size_t i = 0; i < s->chips.count; i++) {
        const mh_chip *c = s->chips.items[i];
        if (strcmp(c->interface_id, interface_id) == 0 &&
            (!instance || strcmp(c->instance, instance) == 0))
            return c;
    }
    return NULL;
}

static size_t svc_chip_count(mh_session *s) { return s->chips.count; }

static const mh_chip *svc_chip_at(mh_session *s, size_t index)
{
    return index < s->chips.count ? s->chips.items[index] : NULL;
}

static void svc_post_event(mh_session *s, uint32_t type, const char *detail_json)
{
    if (s) post_event(s, type, detail_json);
}

const mh_events_service mh_events_service_impl = {sizeof(mh_events_service), svc_post_event};

const mh_session_service mh_session_service_impl = {
    sizeof(mh_session_service), svc_name,      svc_machine,    svc_instance,
    svc_add_chip,               svc_find_chip, svc_chip_count, svc_chip_at,
};
