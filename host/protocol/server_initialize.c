/* server_initialize.c - the initialize request: the protocol version a
 * connection gets, what it tells about itself, and the in-process
 * connections that skip it. */
#include <stdio.h>
#include <string.h>

#include <mcphost/json.h>

#include "methods.h"
#include "server_internal.h"

/* ---- lifecycle: initialize ---- */

static const char *negotiate(const char *requested)
{
    for (size_t i = 0; mh_protocol_versions[i]; i++)
        if (strcmp(requested, mh_protocol_versions[i]) == 0) return mh_protocol_versions[i];
    return mh_protocol_versions[0];
}

void mh_method_initialize(mh_request *req, const cJSON *params)
{
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(params, "protocolVersion");
    if (!cJSON_IsString(version)) {
        mh_request_fail(req, -32602,
                        "initialize needs params.protocolVersion, a string such as \"2025-11-25\"");
        return;
    }
    mh_conn *conn = req->conn;
    const char *chosen = negotiate(version->valuestring);
    const cJSON *caps = cJSON_GetObjectItemCaseSensitive(params, "capabilities");
    const cJSON *info = cJSON_GetObjectItemCaseSensitive(params, "clientInfo");
    const cJSON *cname = cJSON_GetObjectItemCaseSensitive(info, "name");
    const cJSON *cversion = cJSON_GetObjectItemCaseSensitive(info, "version");
    pthread_mutex_lock(&conn->lock);
    if (conn->initialized) {
        /* The connection keeps what it negotiated: a second initialize must
         * not switch the protocol version under requests already made. */
        char message[256];
        snprintf(message, sizeof message,
                 "Invalid Request: this connection is already initialized (protocol version %s); "
                 "initialize is sent once per connection, so start a new connection to "
                 "negotiate again",
                 conn->protocol_version);
        pthread_mutex_unlock(&conn->lock);
        mh_request_fail(req, -32600, message);
        return;
    }
    const char *client_name = cJSON_IsString(cname) ? cname->valuestring : "client";
    const char *client_version = cJSON_IsString(cversion) ? cversion->valuestring : "";
    snprintf(conn->client, sizeof conn->client, "%.*s%s%.*s (%s)",
             mh_utf8_prefix(client_name, 40), client_name, *client_version ? " " : "",
             mh_utf8_prefix(client_version, 20), client_version,
             conn->desc.transport ? conn->desc.transport : "?");
    snprintf(conn->protocol_version, sizeof conn->protocol_version, "%s", chosen);
    cJSON_Delete(conn->client_caps);
    conn->client_caps = cJSON_IsObject(caps) ? cJSON_Duplicate(caps, 1) : NULL;
    conn->initialized = 1;
    pthread_mutex_unlock(&conn->lock);
    mh_request_respond(req, mh_initialize_result(chosen));
}

int mh_server_mark_initialized(mh_conn *conn, const char *client)
{
    pthread_mutex_lock(&conn->lock);
    snprintf(conn->protocol_version, sizeof conn->protocol_version, "%s", mh_protocol_versions[0]);
    snprintf(conn->client, sizeof conn->client, "%s", client);
    conn->initialized = 1;
    pthread_mutex_unlock(&conn->lock);
    return 0;
}
