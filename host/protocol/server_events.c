/* server_events.c - event subscriptions (events_subscribe) and the fan-out
 * of execution and frame events to the connections that asked for them:
 * the MCP server as an mh.observe/1 observer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "observe.h"
#include "server_internal.h"
#include "tools_listed.h"

/* ---- events ---- */

static event_subscription *find_subscription(mh_conn *conn, const char *session)
{
    for (size_t i = 0; i < conn->subscriptions.count; i++) {
        event_subscription *sub = conn->subscriptions.items[i];
        if (strcmp(sub->session, session) == 0) return sub;
    }
    return NULL;
}

/* Moves a subscription's counts from types `from` to `to`. */
static void count_types(mh_server *server, uint32_t from, uint32_t to)
{
    for (uint32_t k = 1; k <= MH_EVENT_TYPE_COUNT; k++) {
        if ((to & (1u << k)) && !(from & (1u << k))) atomic_fetch_add(&server->subscribed[k], 1);
        if ((from & (1u << k)) && !(to & (1u << k))) atomic_fetch_sub(&server->subscribed[k], 1);
    }
}

static int event_wanted(mh_server *server, uint32_t type)
{
    return server && type >= 1 && type <= MH_EVENT_TYPE_COUNT &&
           atomic_load(&server->subscribed[type]) > 0;
}


/* Whether sub takes this event: its type, and for a frame event the
 * subscription's rate (every_n_frames). */
static int sub_wants(const event_subscription *sub, uint32_t type, uint64_t frame)
{
    if (!sub || !(sub->types & (1u << type))) return 0;
    return type != MH_EVENT_FRAME || sub->every_n_frames <= 1 || frame % sub->every_n_frames == 0;
}

static void post_event(mh_server *server, const char *session, uint32_t type,
                       const char *detail_json, uint64_t frame)
{
    const char *name = mh_event_type_name(type);
    if (!name || !event_wanted(server, type)) return;
    /* Most stops have no subscriber: skip parsing the detail then. */
    int anyone = 0;
    pthread_mutex_lock(&server->lock);
    for (size_t i = 0; i < server->conns.count && !anyone; i++) {
        mh_conn *conn = server->conns.items[i];
        pthread_mutex_lock(&conn->lock);
        const event_subscription *sub = find_subscription(conn, session);
        anyone = !conn->closing && sub_wants(sub, type, frame);
        pthread_mutex_unlock(&conn->lock);
    }
    pthread_mutex_unlock(&server->lock);
    if (!anyone) return;
    cJSON *detail = detail_json ? cJSON_Parse(detail_json) : NULL;
    pthread_mutex_lock(&server->lock);
    for (size_t i = 0; i < server->conns.count; i++) {
        mh_conn *conn = server->conns.items[i];
        pthread_mutex_lock(&conn->lock);
        const event_subscription *sub = find_subscription(conn, session);
        int wanted = !conn->closing && sub_wants(sub, type, frame);
        pthread_mutex_unlock(&conn->lock);
        if (!wanted) continue;
        cJSON *params = cJSON_CreateObject();
        cJSON_AddStringToObject(params, "session", session);
        cJSON_AddStringToObject(params, "type", name);
        cJSON_AddItemToObject(params, "detail",
                              cJSON_IsObject(detail) ? cJSON_Duplicate(detail, 1) : cJSON_CreateObject());
        mh_server_send_notification(conn, NULL, "notifications/mcphost/event", params);
    }
    pthread_mutex_unlock(&server->lock);
    cJSON_Delete(detail);
}

/* A session came or went: when the tools tools/list shows changed with it
 * (tools_listed.h), every initialized connection is told to list again. */
static void on_session_change(mh_server *server, const mh_observation *o)
{
    const char *gone = o->kind == MH_OBSERVE_SESSION_DESTROYED ? o->session : NULL;
    const uint64_t hash = mh_tools_listed_hash(server->ctx, gone);
    if (atomic_exchange(&server->tools_listed_hash, hash) == hash) return;
    pthread_mutex_lock(&server->lock);
    for (size_t i = 0; i < server->conns.count; i++) {
        mh_conn *conn = server->conns.items[i];
        pthread_mutex_lock(&conn->lock);
        const int ready = conn->initialized && !conn->closing;
        pthread_mutex_unlock(&conn->lock);
        if (ready)
            mh_server_send_notification(conn, NULL, "notifications/tools/list_changed",
                                        cJSON_CreateObject());
    }
    pthread_mutex_unlock(&server->lock);
}

static void on_exec_event(void *user, const mh_observation *o)
{
    if (o->kind == MH_OBSERVE_SESSION_CREATED || o->kind == MH_OBSERVE_SESSION_DESTROYED)
        on_session_change(user, o);
    else if (o->session)
        post_event(user, o->session, o->event_type, o->detail_json, 0);
}

/* A completed frame as a "frame" event, for the connections subscribed. */
static void on_frame(void *user, const mh_observation *o)
{
    mh_server *server = user;
    if (!o->session || !event_wanted(server, MH_EVENT_FRAME)) return;
    char detail[96];
    snprintf(detail, sizeof detail, "{\"frame\":%llu,\"cycles\":%llu}",
             (unsigned long long)o->frame_number, (unsigned long long)o->cycles);
    post_event(server, o->session, MH_EVENT_FRAME, detail, o->frame_number);
}

/* Frame events cost an observation per frame on every emulation thread, so
 * the server asks mh.observe/1 for frames only from the first subscription
 * to them on; while none is left, on_frame returns at the count. Added
 * outside every lock (adding waits for running observers). */
static void want_frames(mh_server *server)
{
    pthread_mutex_lock(&server->lock);
    int add = !server->frame_observer_id && !server->frame_observer_adding;
    if (add) server->frame_observer_adding = 1;
    pthread_mutex_unlock(&server->lock);
    if (!add) return;
    uint64_t id = mh_observe_add(server->ctx->observe, MH_OBSERVE_BIT(MH_OBSERVE_FRAME), on_frame,
                                 server);
    pthread_mutex_lock(&server->lock);
    server->frame_observer_id = id;
    server->frame_observer_adding = 0;
    pthread_mutex_unlock(&server->lock);
}

int mh_request_subscribe(mh_request *req, const char *session, uint32_t types,
                         uint32_t every_n_frames)
{
    mh_conn *conn = req->conn;
    pthread_mutex_lock(&conn->lock);
    event_subscription *sub = find_subscription(conn, session);
    if (!sub && (sub = calloc(1, sizeof *sub)) != NULL) {
        snprintf(sub->session, sizeof sub->session, "%s", session);
        if (mh_ptrvec_push(&conn->subscriptions, sub) != 0) {
            free(sub);
            sub = NULL;
        }
    }
    if (sub) {
        count_types(conn->server, sub->types, types);
        sub->types = types;
        sub->every_n_frames = every_n_frames ? every_n_frames : 1;
    }
    pthread_mutex_unlock(&conn->lock);
    if (sub && (types & (1u << MH_EVENT_FRAME))) want_frames(conn->server);
    return sub ? 0 : -1;
}

int mh_request_unsubscribe(mh_request *req, const char *session)
{
    mh_conn *conn = req->conn;
    pthread_mutex_lock(&conn->lock);
    event_subscription *sub = find_subscription(conn, session);
    if (sub) {
        count_types(conn->server, sub->types, 0);
        mh_ptrvec_remove(&conn->subscriptions, sub);
        free(sub);
    }
    pthread_mutex_unlock(&conn->lock);
    return sub ? 0 : -1;
}



void mh_server_events_start(mh_server *server)
{
    /* The MCP server is one observer among others: execution events reach
     * the connections that subscribed through it. */
    atomic_store(&server->tools_listed_hash, mh_tools_listed_hash(server->ctx, NULL));
    server->observer_id = mh_observe_add(server->ctx->observe,
                                         MH_OBSERVE_BIT(MH_OBSERVE_EXEC_EVENT) |
                                             MH_OBSERVE_BIT(MH_OBSERVE_SESSION_CREATED) |
                                             MH_OBSERVE_BIT(MH_OBSERVE_SESSION_DESTROYED),
                                         on_exec_event, server);
}

void mh_server_events_stop(mh_server *server)
{
    mh_observe_remove(server->ctx->observe, server->observer_id);
    mh_observe_remove(server->ctx->observe, server->frame_observer_id);
}

void mh_server_drop_subscriptions(mh_conn *conn)
{
    for (size_t i = 0; i < conn->subscriptions.count; i++) {
        event_subscription *sub = conn->subscriptions.items[i];
        count_types(conn->server, sub->types, 0);
        free(sub);
    }
    mh_ptrvec_free(&conn->subscriptions);
}
