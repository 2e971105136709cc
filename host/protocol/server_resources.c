/* server_resources.c - resources/subscribe: which connection watches which
 * resource URI, and notifications/resources/updated when a session's
 * resource may have changed (docs/resources.md, "Subscriptions"):
 *   - the session stopped (a stop, breakpoint, jam, reset or exit event):
 *     every subscribed resource of that session, at once;
 *   - a tool that changes the machine ended without error on that session
 *     (memory_write, breakpoints_set, assemble ...): every resource of that
 *     session, at once (read-only tools and screen_capture, which resource
 *     reads use, never count);
 *   - a frame completed while it runs: screen, registers, memory and
 *     disassembly, at most once a second per subscription.
 * Fixed resources (docs) never change, so they are never reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "observe.h"
#include "server_internal.h"

#define MH_SESSION_URI_PREFIX "mcphost://session/"
/* The least time between two frame-driven updates of one subscription. */
#define MH_RESOURCE_FRAME_INTERVAL_NS 1000000000ull

typedef struct resource_subscription {
    char *uri;
    char session[64]; /* "" for a resource of no session */
    int follows_frames; /* changes while the machine runs */
    uint64_t last_sent_ns;
} resource_subscription;

/* Tools that are not read-only only because they can also write a file:
 * they leave the machine as it was (and resource reads use them, so they
 * must not report a change, or a subscriber would read forever). */
static const char *const file_only_writers[] = {"screen_capture", "audio_capture",
                                                "snapshot_save", "basic_list"};

static int changes_machine(const mh_reg_tool *t)
{
    if (!t || (t->annotations & MH_TOOL_READ_ONLY)) return 0;
    for (size_t i = 0; i < sizeof file_only_writers / sizeof file_only_writers[0]; i++)
        if (strcmp(t->name, file_only_writers[i]) == 0) return 0;
    return 1;
}

/* Session resources that change while the machine runs, by the URI's tail. */
static const char *const running_kinds[] = {"screen.png", "registers", "memory/", "disassembly/"};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Fills the session name and whether the resource follows frames. */
static void classify(resource_subscription *sub)
{
    const size_t n = strlen(MH_SESSION_URI_PREFIX);
    if (strncmp(sub->uri, MH_SESSION_URI_PREFIX, n) != 0) return;
    const char *name = sub->uri + n;
    const char *slash = strchr(name, '/');
    if (!slash || slash == name || (size_t)(slash - name) >= sizeof sub->session) return;
    memcpy(sub->session, name, (size_t)(slash - name));
    sub->session[slash - name] = '\0';
    for (size_t i = 0; i < sizeof running_kinds / sizeof running_kinds[0]; i++)
        if (strncmp(slash + 1, running_kinds[i], strlen(running_kinds[i])) == 0)
            sub->follows_frames = 1;
}

/* Sends notifications/resources/updated for the subscriptions of session
 * that the change concerns; frames only to those that follow them, rate
 * limited. */
static void changed(mh_server *server, const char *session, int frame)
{
    if (!session || atomic_load(&server->resource_subscriptions) == 0) return;
    const uint64_t now = now_ns();
    pthread_mutex_lock(&server->lock);
    for (size_t i = 0; i < server->conns.count; i++) {
        mh_conn *conn = server->conns.items[i];
        mh_ptrvec due = {0};
        pthread_mutex_lock(&conn->lock);
        for (size_t k = 0; !conn->closing && k < conn->resource_subs.count; k++) {
            resource_subscription *sub = conn->resource_subs.items[k];
            if (strcmp(sub->session, session) != 0) continue;
            if (frame && (!sub->follows_frames ||
                          now - sub->last_sent_ns < MH_RESOURCE_FRAME_INTERVAL_NS))
                continue;
            sub->last_sent_ns = now;
            char *uri = strdup(sub->uri);
            if (uri && mh_ptrvec_push(&due, uri) != 0) free(uri);
        }
        pthread_mutex_unlock(&conn->lock);
        for (size_t k = 0; k < due.count; k++) {
            cJSON *params = cJSON_CreateObject();
            cJSON_AddStringToObject(params, "uri", due.items[k]);
            mh_server_send_notification(conn, NULL, "notifications/resources/updated", params);
            free(due.items[k]);
        }
        mh_ptrvec_free(&due);
    }
    pthread_mutex_unlock(&server->lock);
}

/* Execution events that leave the machine in a new state. */
static int is_state_change(uint32_t event_type)
{
    static const uint32_t kinds[] = {MH_EVENT_STOPPED, MH_EVENT_BREAKPOINT, MH_EVENT_JAMMED,
                                     MH_EVENT_RESET, MH_EVENT_EXITED};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (kinds[i] == event_type) return 1;
    return 0;
}

static void on_observation(void *user, const mh_observation *o)
{
    mh_server *server = user;
    if (atomic_load(&server->resource_subscriptions) == 0 || !o->session) return;
    if (o->kind == MH_OBSERVE_EXEC_EVENT && is_state_change(o->event_type)) {
        changed(server, o->session, 0);
    } else if (o->kind == MH_OBSERVE_TOOL_END && o->tool && !o->is_error) {
        if (changes_machine(mh_registry_tool(&server->ctx->registry, o->tool)))
            changed(server, o->session, 0);
    } else if (o->kind == MH_OBSERVE_FRAME) {
        changed(server, o->session, 1);
    }
}

/* Frames cost a call per frame on every emulation thread: the observer
 * for them is added with the first subscription that follows frames, outside
 * every lock (adding waits for running observers). */
static void want_frames(mh_server *server)
{
    pthread_mutex_lock(&server->lock);
    int add = !server->resource_frame_observer_id && !server->resource_frame_observer_adding;
    if (add) server->resource_frame_observer_adding = 1;
    pthread_mutex_unlock(&server->lock);
    if (!add) return;
    uint64_t id = mh_observe_add(server->ctx->observe, MH_OBSERVE_BIT(MH_OBSERVE_FRAME),
                                 on_observation, server);
    pthread_mutex_lock(&server->lock);
    server->resource_frame_observer_id = id;
    server->resource_frame_observer_adding = 0;
    pthread_mutex_unlock(&server->lock);
}

static resource_subscription *find(mh_conn *conn, const char *uri)
{
    for (size_t i = 0; i < conn->resource_subs.count; i++) {
        resource_subscription *sub = conn->resource_subs.items[i];
        if (strcmp(sub->uri, uri) == 0) return sub;
    }
    return NULL;
}

int mh_request_resource_subscribe(mh_request *req, const char *uri)
{
    mh_conn *conn = req->conn;
    int frames = 0, ok = 1;
    pthread_mutex_lock(&conn->lock);
    if (!find(conn, uri)) {
        resource_subscription *sub = calloc(1, sizeof *sub);
        if (sub) sub->uri = strdup(uri);
        if (sub && sub->uri && mh_ptrvec_push(&conn->resource_subs, sub) == 0) {
            classify(sub);
            frames = sub->follows_frames;
            atomic_fetch_add(&conn->server->resource_subscriptions, 1);
        } else {
            if (sub) free(sub->uri);
            free(sub);
            ok = 0;
        }
    }
    pthread_mutex_unlock(&conn->lock);
    if (frames) want_frames(conn->server);
    return ok ? 0 : -1;
}

static void free_sub(mh_server *server, resource_subscription *sub)
{
    atomic_fetch_sub(&server->resource_subscriptions, 1);
    free(sub->uri);
    free(sub);
}

int mh_request_resource_unsubscribe(mh_request *req, const char *uri)
{
    mh_conn *conn = req->conn;
    pthread_mutex_lock(&conn->lock);
    resource_subscription *sub = find(conn, uri);
    if (sub) {
        mh_ptrvec_remove(&conn->resource_subs, sub);
        free_sub(conn->server, sub);
    }
    pthread_mutex_unlock(&conn->lock);
    return sub ? 0 : -1;
}

void mh_server_drop_resource_subscriptions(mh_conn *conn)
{
    for (size_t i = 0; i < conn->resource_subs.count; i++)
        free_sub(conn->server, conn->resource_subs.items[i]);
    mh_ptrvec_free(&conn->resource_subs);
}

void mh_server_resources_start(mh_server *server)
{
    atomic_store(&server->resource_subscriptions, 0);
    server->resource_observer_id =
        mh_observe_add(server->ctx->observe,
                       MH_OBSERVE_BIT(MH_OBSERVE_EXEC_EVENT) | MH_OBSERVE_BIT(MH_OBSERVE_TOOL_END),
                       on_observation, server);
}

void mh_server_resources_stop(mh_server *server)
{
    mh_observe_remove(server->ctx->observe, server->resource_observer_id);
    mh_observe_remove(server->ctx->observe, server->resource_frame_observer_id);
}
