/* observe.c - the observer list of mh.observe/1 and its emit calls; the
 * service's session parts are in session_observe.c, call_tool() in
 * window_client.c. */
#include "observe.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostctx.h"
#include "loader.h"
#include "ptrvec.h"
#include "server.h"
#include "sessions.h"

typedef struct observer {
    uint64_t id;
    uint32_t mask;
    mh_observer_fn fn;
    void *user;
} observer;

struct mh_observe {
    struct mh_hostctx *ctx;
    /* Observers are called with the read lock held, so remove (write lock)
     * returns only when no call of it is running. Writers are preferred:
     * a stream of frame observations cannot starve a remove. */
    pthread_rwlock_t lock;
    mh_ptrvec observers; /* observer* */
    uint64_t next_id;
    atomic_uint wanted;  /* union of the observers' masks */
    atomic_uint_fast64_t next_call;
    pthread_mutex_t focus_lock;
    char focus[64];
};

mh_observe *mh_observe_new(struct mh_hostctx *ctx)
{
    mh_observe *obs = calloc(1, sizeof *obs);
    if (!obs) return NULL;
    obs->ctx = ctx;
    pthread_rwlockattr_t attr;
    pthread_rwlockattr_init(&attr);
    pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&obs->lock, &attr);
    pthread_rwlockattr_destroy(&attr);
    pthread_mutex_init(&obs->focus_lock, NULL);
    obs->next_id = 1;
    atomic_init(&obs->wanted, 0);
    atomic_init(&obs->next_call, 1);
    return obs;
}

void mh_observe_free(mh_observe *obs)
{
    if (!obs) return;
    for (size_t i = 0; i < obs->observers.count; i++) free(obs->observers.items[i]);
    mh_ptrvec_free(&obs->observers);
    pthread_rwlock_destroy(&obs->lock);
    pthread_mutex_destroy(&obs->focus_lock);
    free(obs);
}

static void recompute_wanted(mh_observe *obs)
{
    uint32_t mask = 0;
    for (size_t i = 0; i < obs->observers.count; i++)
        mask |= ((observer *)obs->observers.items[i])->mask;
    atomic_store(&obs->wanted, mask);
}

uint64_t mh_observe_add(mh_observe *obs, uint32_t mask, mh_observer_fn fn, void *user)
{
    if (!obs || !fn || !mask) return 0;
    observer *o = calloc(1, sizeof *o);
    if (!o) return 0;
    o->mask = mask;
    o->fn = fn;
    o->user = user;
    pthread_rwlock_wrlock(&obs->lock);
    o->id = obs->next_id++;
    if (mh_ptrvec_push(&obs->observers, o) != 0) {
        pthread_rwlock_unlock(&obs->lock);
        free(o);
        return 0;
    }
    recompute_wanted(obs);
    pthread_rwlock_unlock(&obs->lock);
    return o->id;
}

void mh_observe_remove(mh_observe *obs, uint64_t id)
{
    if (!obs || !id) return;
    pthread_rwlock_wrlock(&obs->lock);
    for (size_t i = 0; i < obs->observers.count; i++) {
        observer *o = obs->observers.items[i];
        if (o->id != id) continue;
        mh_ptrvec_remove_at(&obs->observers, i);
        free(o);
        break;
    }
    recompute_wanted(obs);
    pthread_rwlock_unlock(&obs->lock);
}

int mh_observe_wants(const mh_observe *obs, uint32_t kind)
{
    return obs && kind < 32 && (atomic_load(&obs->wanted) & MH_OBSERVE_BIT(kind)) != 0;
}

void mh_observe_emit(mh_observe *obs, const mh_observation *o)
{
    if (!mh_observe_wants(obs, o->kind)) return;
    pthread_rwlock_rdlock(&obs->lock);
    for (size_t i = 0; i < obs->observers.count; i++) {
        const observer *ob = obs->observers.items[i];
        if (ob->mask & MH_OBSERVE_BIT(o->kind)) ob->fn(ob->user, o);
    }
    pthread_rwlock_unlock(&obs->lock);
}

void mh_observe_session(mh_observe *obs, uint32_t kind, const char *session, const char *machine)
{
    if (kind == MH_OBSERVE_SESSION_DESTROYED && obs) {
        pthread_mutex_lock(&obs->focus_lock);
        if (strcmp(obs->focus, session) == 0) obs->focus[0] = '\0';
        pthread_mutex_unlock(&obs->focus_lock);
    }
    mh_observation o = {.struct_size = sizeof o, .kind = kind, .session = session,
                        .machine = machine};
    mh_observe_emit(obs, &o);
}

void mh_observe_exec_event(mh_observe *obs, const char *session, const char *machine,
                           uint32_t type, const char *detail_json)
{
    mh_observation o = {.struct_size = sizeof o, .kind = MH_OBSERVE_EXEC_EVENT,
                        .session = session, .machine = machine, .event_type = type,
                        .detail_json = detail_json};
    mh_observe_emit(obs, &o);
}

uint64_t mh_observe_next_call_id(mh_observe *obs)
{
    return obs ? atomic_fetch_add(&obs->next_call, 1) : 0;
}

void mh_observe_focused(mh_observe *obs, char *out, size_t size)
{
    out[0] = '\0';
    if (!obs) return;
    pthread_mutex_lock(&obs->focus_lock);
    snprintf(out, size, "%s", obs->focus);
    pthread_mutex_unlock(&obs->focus_lock);
    mh_session *s = out[0] && obs->ctx->sessions ? mh_sessions_find(obs->ctx->sessions, out) : NULL;
    if (!s && obs->ctx->sessions) s = mh_sessions_default(obs->ctx->sessions);
    snprintf(out, size, "%s", s ? mh_session_name(s) : "");
    if (s) mh_session_unref(s);
}

/* ---- the service: observers and focus (sessions: session_observe.c) ---- */

static mh_observe *observe_of(const mh_host *host)
{
    mh_plugin_record *rec = mh_plugin_from_host(host);
    return rec ? rec->hostctx->observe : NULL;
}

static uint64_t o_add_observer(const mh_host *host, uint32_t mask, mh_observer_fn fn, void *user)
{
    return mh_observe_add(observe_of(host), mask & MH_OBSERVE_ALL, fn, user);
}

static void o_remove_observer(const mh_host *host, uint64_t id)
{
    mh_observe_remove(observe_of(host), id);
}

static mh_status o_focused_session(const mh_host *host, char *out, size_t out_size)
{
    if (!out || out_size == 0) return MH_ERR_INVALID_ARGUMENT;
    mh_observe_focused(observe_of(host), out, out_size);
    return out[0] ? MH_OK : MH_ERR_NOT_FOUND;
}

static mh_status o_focus_session(const mh_host *host, const char *session)
{
    mh_observe *obs = observe_of(host);
    if (!obs || !session) return MH_ERR_INVALID_ARGUMENT;
    mh_session *s = obs->ctx->sessions ? mh_sessions_find(obs->ctx->sessions, session) : NULL;
    if (!s) return MH_ERR_NOT_FOUND;
    pthread_mutex_lock(&obs->focus_lock);
    snprintf(obs->focus, sizeof obs->focus, "%s", session);
    pthread_mutex_unlock(&obs->focus_lock);
    mh_observe_session(obs, MH_OBSERVE_SESSION_FOCUSED, session, mh_session_machine_name(s));
    mh_session_unref(s);
    return MH_OK;
}

mh_status mh_observe_call_tool(const mh_host *host, const char *session, const char *tool,
                               const char *arguments_json, mh_observe_result_fn done, void *user)
{
    mh_observe *obs = observe_of(host);
    if (!obs || !tool || !done) return MH_ERR_INVALID_ARGUMENT;
    if (!mh_registry_tool(&obs->ctx->registry, tool)) return MH_ERR_NOT_FOUND;
    char focused[64];
    if (!session || !*session) {
        mh_observe_focused(obs, focused, sizeof focused);
        session = focused;
    }
    return mh_server_call_tool(obs->ctx->server, session, tool, arguments_json, done, user);
}

const mh_observe_service mh_observe_service_impl = {
    .struct_size = sizeof(mh_observe_service),
    .add_observer = o_add_observer,
    .remove_observer = o_remove_observer,
    .list_sessions = mh_observe_list_sessions,
    .focused_session = o_focused_session,
    .focus_session = o_focus_session,
    .watch_frames = mh_observe_watch_frames,
    .read_frame = mh_observe_read_frame,
    .audio_open = mh_observe_audio_open,
    .audio_read = mh_observe_audio_read,
    .audio_dropped = mh_observe_audio_dropped,
    .audio_close = mh_observe_audio_close,
    .post_job = mh_observe_post_job,
    .call_tool = mh_observe_call_tool,
    .set_pace = mh_observe_set_pace,
};
