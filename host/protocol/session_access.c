/* session_access.c - who may change a machine session (sessions.h,
 * "ownership"): a session belongs to the connection that created it; other
 * connections may use its read-only tools, and session_attach hands it over
 * (the old owner is told with an event). The command-line machine belongs
 * to the server and every client may change it; so may the person at the
 * window (the in-process connection). A connection that ends leaves its
 * sessions to the reaper (session_owner.c). */
#include <stdio.h>
#include <string.h>

#include "call.h"
#include "server_internal.h"
#include "sessions.h"

/* The in-process connection of the window (window_client.c). */
static int privileged(const mh_conn *conn)
{
    return conn->desc.transport && strcmp(conn->desc.transport, "in-process") == 0;
}

uint64_t mh_request_conn_id(mh_request *req) { return req->conn->id; }

/* A stateless request (2026-07-28) has no lasting client: over HTTP
 * without Mcp-Session-Id it runs on a connection that ends with its answer.
 * What it creates is the server's (shared), and its tokens are not bound to
 * a connection. */
uint64_t mh_request_owner_id(mh_request *req)
{
    return req->modern_version[0] ? 0 : req->conn->id;
}

int mh_request_may_change(mh_request *req, mh_session *s, const char *tool, int read_only,
                          mh_call *call)
{
    mh_session_touch(s);
    if (!read_only) mh_session_changed(s);
    if (read_only || privileged(req->conn)) return 1;
    char label[96];
    int orphaned = 0;
    uint64_t owner = mh_session_owner(s, label, sizeof label, &orphaned);
    if (owner == 0 || owner == mh_request_owner_id(req)) return 1;
    mh_call_errorf(call,
                   "%s would change session \"%s\", which belongs to another client (%s%s); "
                   "its read-only tools work, or call session_attach {\"session\": \"%s\"} "
                   "to take it over (its owner is told)",
                   tool, mh_session_name(s), label[0] ? label : "unnamed",
                   orphaned ? ", disconnected: the session is paused and will be destroyed" : "",
                   mh_session_name(s));
    return 0;
}

void mh_server_orphan_sessions(mh_conn *conn)
{
    mh_hostctx *ctx = conn->server->ctx;
    if (privileged(conn) || !ctx->sessions) return;
    mh_sessions_orphan(ctx->sessions, conn->id, ctx->orphan_grace_ms);
}

void mh_server_notify_conn(mh_server *server, uint64_t conn_id, const char *session,
                           const char *type, cJSON *detail)
{
    pthread_mutex_lock(&server->lock);
    for (size_t i = 0; i < server->conns.count; i++) {
        mh_conn *conn = server->conns.items[i];
        if (conn->id != conn_id) continue;
        pthread_mutex_lock(&conn->lock);
        int ready = conn->initialized && !conn->closing;
        pthread_mutex_unlock(&conn->lock);
        if (!ready) break;
        cJSON *params = cJSON_CreateObject();
        cJSON_AddStringToObject(params, "session", session);
        cJSON_AddStringToObject(params, "type", type);
        cJSON_AddItemToObject(params, "detail", detail);
        detail = NULL;
        mh_server_send_notification(conn, NULL, "notifications/mcphost/event", params);
        break;
    }
    pthread_mutex_unlock(&server->lock);
    cJSON_Delete(detail);
}
