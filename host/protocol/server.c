/* server.c - the MCP protocol core: connections opened by transports,
 * requests and their answers, dispatch of methods, cancellation, ids and
 * strict JSON, closing. initialize, events and requests to the client are
 * in server_initialize.c, server_events.c and server_ask.c
 * (server_internal.h). */
#include "server_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/json.h>

#include "loader.h"
#include "log.h"
#include "methods.h"
#include "sessions.h"

const char *const mh_protocol_versions[] = {"2025-11-25", "2025-06-18", "2025-03-26",
                                            "2024-11-05", NULL};


mh_server *mh_server_new(mh_hostctx *ctx)
{
    mh_server *server = calloc(1, sizeof *server);
    if (!server) return NULL;
    server->ctx = ctx;
    /* One page holds every tool of sessions of all three machines (about
     * 130 with #18's tools), so a client that never follows nextCursor still
     * sees them all. */
    server->page_size = 256;
    server->workers = mh_workers_new(MH_HOST_TOOL_THREADS);
    if (!server->workers) {
        free(server);
        return NULL;
    }
    pthread_mutex_init(&server->lock, NULL);
    server->confirm = mh_confirm_new();
    mh_server_events_start(server);
    mh_server_resources_start(server);
    return server;
}

void mh_server_free(mh_server *server)
{
    if (!server) return;
    mh_window_client_free(server->window);
    mh_server_events_stop(server);
    mh_server_resources_stop(server);
    mh_log_set_forward(NULL, NULL);
    mh_workers_free(server->workers);
    mh_ptrvec_free(&server->conns);
    mh_confirm_free(server->confirm);
    pthread_mutex_destroy(&server->lock);
    free(server);
}

void mh_server_set_page_size(mh_server *server, size_t page_size)
{
    server->page_size = page_size ? page_size : 1;
}

size_t mh_server_page_size(const mh_server *server) { return server->page_size; }
mh_workers *mh_server_workers(mh_server *server) { return server->workers; }
mh_hostctx *mh_request_host(mh_request *req) { return req->conn->server->ctx; }
mh_server *mh_request_server(mh_request *req) { return req->conn->server; }
const char *mh_request_protocol(mh_request *req)
{
    return req->modern_version[0] ? req->modern_version : req->conn->protocol_version;
}

/* ---- sending ---- */

void mh_server_send_message(mh_conn *conn, void *exchange, cJSON *message)
{
    char *text = cJSON_PrintUnformatted(message);
    if (text) {
        conn->desc.send(conn->desc.user_data, exchange, text, strlen(text));
        cJSON_free(text);
    } else {
        mh_log(MH_LOG_ERROR, NULL, "out of memory printing a message");
    }
}

/* The id of a response: the request's, exactly. cJSON prints numbers with
 * 15 significant digits, so an integer id (at most 2^53 - 1, id_problem())
 * is printed whole here. */
static cJSON *echo_id(const cJSON *id)
{
    if (!id) return cJSON_CreateNull();
    if (!cJSON_IsNumber(id)) return cJSON_Duplicate(id, 1);
    char text[32];
    snprintf(text, sizeof text, "%.0f", id->valuedouble);
    return cJSON_CreateRaw(text);
}

static cJSON *envelope(const cJSON *id)
{
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
    cJSON_AddItemToObject(msg, "id", echo_id(id));
    return msg;
}

static void exchange_done(mh_conn *conn, void *exchange)
{
    if (conn->desc.done) conn->desc.done(conn->desc.user_data, exchange);
}

/* An error that belongs to no request (parse errors, invalid messages). */
static void send_bare_error(mh_conn *conn, void *exchange, const cJSON *id, int code,
                            const char *message)
{
    cJSON *msg = envelope(id);
    cJSON *error = cJSON_AddObjectToObject(msg, "error");
    cJSON_AddNumberToObject(error, "code", code);
    cJSON_AddStringToObject(error, "message", message);
    mh_server_send_message(conn, exchange, msg);
    cJSON_Delete(msg);
}

static void request_free(mh_request *req)
{
    mh_conn *conn = req->conn;
    pthread_mutex_lock(&conn->lock);
    mh_ptrvec_remove(&conn->inflight, req);
    conn->pending--;
    if (conn->pending == 0) pthread_cond_broadcast(&conn->idle);
    pthread_mutex_unlock(&conn->lock);
    cJSON_Delete(req->id);
    cJSON_Delete(req->progress_token);
    free(req);
}

/* A request the client cancelled gets no response (MCP cancellation); one
 * cancelled because its connection closed is answered with this error, so a
 * transport that still reaches the client (an HTTP stream) ends it cleanly.
 * Returns 1 when the request was cancelled. */
static int answer_cancelled(mh_request *req)
{
    int why = atomic_load(&req->cancelled);
    if (why == MH_CANCELLED_BY_CLOSE)
        send_bare_error(req->conn, req->exchange, req->id, MH_ERR_CODE_CONNECTION_CLOSED,
                        "Connection closed: the MCP session ended (the client ended it, it "
                        "expired, or the input ended) while this request ran, so it was "
                        "cancelled; the machine keeps running as it was; connect again to go on");
    return why != 0;
}

/* An internal request's answer goes to its hook, never to the client. */
static int answer_internal(mh_request *req, cJSON *result, int code, const char *message)
{
    if (!req->internal_answer) return 0;
    if (atomic_load(&req->cancelled) && result) {
        cJSON_Delete(result);
        result = NULL;
        code = MH_ERR_CODE_CONNECTION_CLOSED;
        message = "the request was cancelled";
    }
    req->internal_answer(req->internal_user, result, code, message);
    request_free(req);
    return 1;
}

void mh_request_respond(mh_request *req, cJSON *result)
{
    if (answer_internal(req, result, 0, NULL)) return;
    /* Stateless (2026-07-28) results say they are complete. */
    if (req->modern_version[0] && cJSON_IsObject(result) &&
        !cJSON_HasObjectItem(result, "resultType"))
        cJSON_AddStringToObject(result, "resultType", "complete");
    if (!answer_cancelled(req)) {
        cJSON *msg = envelope(req->id);
        cJSON_AddItemToObject(msg, "result", result ? result : cJSON_CreateObject());
        mh_server_send_message(req->conn, req->exchange, msg);
        cJSON_Delete(msg);
    } else {
        cJSON_Delete(result);
    }
    exchange_done(req->conn, req->exchange);
    request_free(req);
}

void mh_request_fail(mh_request *req, int code, const char *message)
{
    if (answer_internal(req, NULL, code, message)) return;
    /* 2026-07-28 reports a missing resource as invalid params. */
    if (req->modern_version[0] && code == -32002) code = -32602;
    if (!answer_cancelled(req)) send_bare_error(req->conn, req->exchange, req->id, code, message);
    exchange_done(req->conn, req->exchange);
    request_free(req);
}

void mh_request_fail_data(mh_request *req, int code, const char *message, cJSON *data)
{
    if (answer_internal(req, NULL, code, message)) {
        cJSON_Delete(data);
        return;
    }
    if (!answer_cancelled(req)) {
        cJSON *msg = envelope(req->id);
        cJSON *error = cJSON_AddObjectToObject(msg, "error");
        cJSON_AddNumberToObject(error, "code", code);
        cJSON_AddStringToObject(error, "message", message);
        if (data) cJSON_AddItemToObject(error, "data", data);
        mh_server_send_message(req->conn, req->exchange, msg);
        cJSON_Delete(msg);
    } else {
        cJSON_Delete(data);
    }
    exchange_done(req->conn, req->exchange);
    request_free(req);
}

void mh_server_send_notification(mh_conn *conn, void *exchange, const char *method, cJSON *params)
{
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
    cJSON_AddStringToObject(msg, "method", method);
    cJSON_AddItemToObject(msg, "params", params);
    mh_server_send_message(conn, exchange, msg);
    cJSON_Delete(msg);
}

void mh_request_progress(mh_request *req, double progress, double total, const char *message)
{
    if (!req->progress_token || atomic_load(&req->cancelled)) return;
    cJSON *params = cJSON_CreateObject();
    cJSON_AddItemToObject(params, "progressToken", cJSON_Duplicate(req->progress_token, 1));
    cJSON_AddNumberToObject(params, "progress", progress);
    if (total > 0) cJSON_AddNumberToObject(params, "total", total);
    if (message) cJSON_AddStringToObject(params, "message", message);
    mh_server_send_notification(req->conn, req->exchange, "notifications/progress", params);
}

int mh_request_cancelled(mh_request *req) { return atomic_load(&req->cancelled); }

static cJSON *log_params(int level, const char *logger, const char *message)
{
    cJSON *params = cJSON_CreateObject();
    cJSON_AddStringToObject(params, "level", mh_log_level_name((mh_log_level)level));
    cJSON_AddStringToObject(params, "logger", logger);
    cJSON_AddStringToObject(params, "data", message);
    return params;
}

/* Host log messages go to every connection that set a level. A thread-local
 * guard stops a transport that logs while sending from recursing, and keeps
 * a request's own log lines from being broadcast. */
static _Thread_local int forwarding;

void mh_request_log(mh_request *req, int level, const char *logger, const char *message)
{
    int was = forwarding;
    forwarding = 1;
    mh_log((mh_log_level)level, logger, "%s", message);
    forwarding = was;
    mh_conn *conn = req->conn;
    pthread_mutex_lock(&conn->lock);
    int wanted = conn->log_level >= 0 && level >= conn->log_level;
    pthread_mutex_unlock(&conn->lock);
    if (wanted)
        mh_server_send_notification(conn, req->exchange, "notifications/message",
                          log_params(level, logger, message));
}


static void forward_log(void *user, mh_log_level level, const char *source, const char *message)
{
    mh_server *server = user;
    if (forwarding) return;
    forwarding = 1;
    pthread_mutex_lock(&server->lock);
    for (size_t i = 0; i < server->conns.count; i++) {
        mh_conn *conn = server->conns.items[i];
        pthread_mutex_lock(&conn->lock);
        int wanted = !conn->closing && conn->log_level >= 0 && (int)level >= conn->log_level;
        pthread_mutex_unlock(&conn->lock);
        if (wanted)
            mh_server_send_notification(conn, NULL, "notifications/message",
                              log_params((int)level, source, message));
    }
    pthread_mutex_unlock(&server->lock);
    forwarding = 0;
}

void mh_request_client(mh_request *req, char *out, size_t size)
{
    pthread_mutex_lock(&req->conn->lock);
    snprintf(out, size, "%s", req->conn->client[0] ? req->conn->client : "client");
    pthread_mutex_unlock(&req->conn->lock);
}

void mh_request_current_session(mh_request *req, char *out, size_t size)
{
    pthread_mutex_lock(&req->conn->lock);
    snprintf(out, size, "%s", req->conn->current_session);
    pthread_mutex_unlock(&req->conn->lock);
}

void mh_request_select_session(mh_request *req, const char *name)
{
    pthread_mutex_lock(&req->conn->lock);
    snprintf(req->conn->current_session, sizeof req->conn->current_session, "%s",
             name ? name : "");
    pthread_mutex_unlock(&req->conn->lock);
}

void mh_request_set_log_level(mh_request *req, int level)
{
    pthread_mutex_lock(&req->conn->lock);
    req->conn->log_level = level;
    pthread_mutex_unlock(&req->conn->lock);
}

/* ---- dispatch ---- */

static mh_request *request_new(mh_conn *conn, void *exchange, const cJSON *id,
                               const cJSON *params)
{
    mh_request *req = calloc(1, sizeof *req);
    if (!req) return NULL;
    req->conn = conn;
    req->exchange = exchange;
    req->id = cJSON_Duplicate(id, 1);
    atomic_init(&req->cancelled, 0);
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(params, "_meta");
    const cJSON *token = cJSON_GetObjectItemCaseSensitive(meta, "progressToken");
    if (cJSON_IsString(token) || cJSON_IsNumber(token))
        req->progress_token = cJSON_Duplicate(token, 1);
    pthread_mutex_lock(&conn->lock);
    conn->pending++;
    mh_ptrvec_push(&conn->inflight, req);
    pthread_mutex_unlock(&conn->lock);
    return req;
}

static void cancel_request(mh_conn *conn, const cJSON *params)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(params, "requestId");
    if (!id) return;
    pthread_mutex_lock(&conn->lock);
    for (size_t i = 0; i < conn->inflight.count; i++) {
        mh_request *req = conn->inflight.items[i];
        if (cJSON_Compare(req->id, id, 1)) atomic_store(&req->cancelled, MH_CANCELLED_BY_CLIENT);
    }
    pthread_mutex_unlock(&conn->lock);
}

static void handle_notification(mh_conn *conn, const char *method, const cJSON *params)
{
    if (strcmp(method, "notifications/cancelled") == 0)
        cancel_request(conn, params);
    else if (strcmp(method, "notifications/initialized") != 0)
        mh_log(MH_LOG_DEBUG, NULL, "ignoring notification %s", method);
}

/* The largest integer every JSON reader holds exactly (2^53 - 1). */
#define MH_MAX_EXACT_ID 9007199254740991.0

/* What is wrong with a request id, or NULL when it is fine: a string, or an
 * integer the response can echo exactly. A number id that cannot be echoed
 * (20 digits, 1e300, 0.5) is refused as JSON-RPC says of an id it cannot
 * detect: Invalid Request with id null. */
static const char *id_problem(const cJSON *id)
{
    if (cJSON_IsString(id)) return NULL;
    if (!cJSON_IsNumber(id)) return "Invalid Request: \"id\" must be a string or a number";
    double v = id->valuedouble;
    if (!isfinite(v) || v != floor(v) || fabs(v) > MH_MAX_EXACT_ID)
        return "Invalid Request: a number \"id\" must be an integer from -9007199254740991 to "
               "9007199254740991, which the response can echo exactly; use a smaller number or "
               "a string";
    return NULL;
}

static int valid_id(const cJSON *id) { return id_problem(id) == NULL; }


static void handle_object(mh_conn *conn, void *exchange, const cJSON *msg)
{
    const cJSON *jsonrpc = cJSON_GetObjectItemCaseSensitive(msg, "jsonrpc");
    const cJSON *method = cJSON_GetObjectItemCaseSensitive(msg, "method");
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
    const cJSON *reply_id = valid_id(id) ? id : NULL;

    if (!cJSON_IsString(jsonrpc) || strcmp(jsonrpc->valuestring, "2.0") != 0) {
        send_bare_error(conn, exchange, reply_id, -32600,
                        "Invalid Request: \"jsonrpc\" must be the string \"2.0\"");
        exchange_done(conn, exchange);
        return;
    }
    if (!method) {
        /* A response to a request of ours (ask_client). */
        const cJSON *result = cJSON_GetObjectItemCaseSensitive(msg, "result");
        const cJSON *error = cJSON_GetObjectItemCaseSensitive(msg, "error");
        if (result || error) {
            mh_server_deliver_answer(conn, id, result, error);
            exchange_done(conn, exchange);
            return;
        }
        send_bare_error(conn, exchange, reply_id, -32600,
                        "Invalid Request: a request needs a \"method\" string");
        exchange_done(conn, exchange);
        return;
    }
    if (!cJSON_IsString(method)) {
        send_bare_error(conn, exchange, reply_id, -32600,
                        "Invalid Request: \"method\" must be a string");
        exchange_done(conn, exchange);
        return;
    }
    if (params && !cJSON_IsObject(params) && !cJSON_IsArray(params)) {
        send_bare_error(conn, exchange, reply_id, -32600,
                        "Invalid Request: \"params\" must be an object");
        exchange_done(conn, exchange);
        return;
    }
    if (!id) {
        handle_notification(conn, method->valuestring, params);
        exchange_done(conn, exchange);
        return;
    }
    if (!valid_id(id)) {
        send_bare_error(conn, exchange, NULL, -32600, id_problem(id));
        exchange_done(conn, exchange);
        return;
    }
    const mh_method *m = mh_method_find(method->valuestring);
    mh_request *req = request_new(conn, exchange, id, params);
    if (!req) {
        send_bare_error(conn, exchange, id, -32603, "Internal error: out of memory");
        exchange_done(conn, exchange);
        return;
    }
    if (!m) {
        char message[512];
        snprintf(message, sizeof message, "Method not found: %.*s",
                 mh_utf8_prefix(method->valuestring, 200), method->valuestring);
        mh_request_fail(req, -32601, message);
        return;
    }
    if (params && !cJSON_IsObject(params)) {
        mh_request_fail(req, -32602, "Invalid params: \"params\" must be an object");
        return;
    }
    int stateless = mh_server_stateless_request(req, m->name, params);
    if (stateless < 0) return; /* answered */
    pthread_mutex_lock(&conn->lock);
    int initialized = conn->initialized || stateless;
    pthread_mutex_unlock(&conn->lock);
    if (!initialized && !m->before_initialize) {
        mh_request_fail(req, -32600,
                        "Server not initialized: send \"initialize\" before other requests");
        return;
    }
    m->fn(req, params);
}

/* cJSON takes what RFC 8259 forbids (invalid UTF-8, raw control characters
 * and NUL bytes in strings, duplicate keys) and would echo it back. The SDK's
 * strict parser, which transport-http checks bodies with, decides first, so
 * every transport refuses the same messages with the same reason. */
static int strict_json(mh_conn *conn, void *exchange, const char *json, size_t length)
{
    mh_json_parse_opts opts = {length + 1, 0};
    mh_json_error error;
    mh_json_doc *doc = mh_json_parse(json, length, &opts, &error);
    if (doc) {
        mh_json_free(doc);
        return 1;
    }
    char message[320];
    snprintf(message, sizeof message,
             "Parse error: the message is not valid JSON (%s); send one JSON-RPC object per "
             "message, as UTF-8",
             error.message);
    send_bare_error(conn, exchange, NULL, -32700, message);
    exchange_done(conn, exchange);
    return 0;
}

static void s_handle(mh_conn *conn, void *exchange, const char *json, size_t length)
{
    if (!strict_json(conn, exchange, json, length)) return;
    cJSON *msg = cJSON_ParseWithLength(json, length);
    if (!msg) { /* valid JSON that cJSON could not hold: out of memory */
        send_bare_error(conn, exchange, NULL, -32603,
                        "Internal error: out of memory reading the message");
        exchange_done(conn, exchange);
        return;
    }
    if (cJSON_IsArray(msg)) {
        send_bare_error(conn, exchange, NULL, -32600,
                        "Invalid Request: JSON-RPC batches are not supported; send one message "
                        "at a time");
        exchange_done(conn, exchange);
    } else if (!cJSON_IsObject(msg)) {
        send_bare_error(conn, exchange, NULL, -32600,
                        "Invalid Request: a JSON-RPC message must be a JSON object");
        exchange_done(conn, exchange);
    } else {
        handle_object(conn, exchange, msg);
    }
    cJSON_Delete(msg);
}

static mh_conn *s_open(const mh_host *host, const mh_conn_desc *desc)
{
    mh_plugin_record *rec = mh_plugin_from_host(host);
    return rec ? mh_server_open(rec->hostctx->server, desc) : NULL;
}

static void s_close(mh_conn *conn)
{
    if (!conn) return;
    mh_server *server = conn->server;
    pthread_mutex_lock(&server->lock);
    mh_ptrvec_remove(&server->conns, conn);
    int last = server->conns.count == 0;
    pthread_mutex_unlock(&server->lock);
    if (last) mh_log_set_forward(NULL, NULL);

    /* Requests still running get a moment to answer (input piped in and
     * closed must still see its answers); then they are cancelled. */
    pthread_mutex_lock(&conn->lock);
    conn->closing = 1;
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += MH_CLOSE_GRACE_SECONDS;
    while (conn->pending > 0)
        if (pthread_cond_timedwait(&conn->idle, &conn->lock, &deadline) != 0) break;
    for (size_t i = 0; i < conn->inflight.count; i++) {
        int none = 0; /* a client's own cancellation stays one */
        atomic_compare_exchange_strong(&((mh_request *)conn->inflight.items[i])->cancelled,
                                       &none, MH_CANCELLED_BY_CLOSE);
    }
    while (conn->pending > 0) pthread_cond_wait(&conn->idle, &conn->lock);
    pthread_mutex_unlock(&conn->lock);
    mh_server_orphan_sessions(conn); /* its machines pause, then go */
    mh_ptrvec_free(&conn->inflight);
    mh_server_drop_subscriptions(conn);
    mh_server_drop_resource_subscriptions(conn);
    mh_ptrvec_free(&conn->outgoing); /* empty: every asker has returned */
    cJSON_Delete(conn->client_caps);
    pthread_cond_destroy(&conn->answered);
    pthread_mutex_destroy(&conn->lock);
    pthread_cond_destroy(&conn->idle);
    free(conn);
}

static const char *s_protocol_version(mh_conn *conn)
{
    return conn->initialized ? conn->protocol_version : NULL;
}

mh_conn *mh_server_open(mh_server *server, const mh_conn_desc *desc)
{
    if (!desc || desc->struct_size < sizeof(mh_conn_desc) || !desc->send) return NULL;
    mh_conn *conn = calloc(1, sizeof *conn);
    if (!conn) return NULL;
    conn->server = server;
    memcpy(&conn->desc, desc, sizeof conn->desc);
    conn->log_level = -1;
    conn->id = atomic_fetch_add(&server->next_conn_id, 1) + 1;
    pthread_mutex_init(&conn->lock, NULL);
    pthread_cond_init(&conn->idle, NULL);
    pthread_cond_init(&conn->answered, NULL);
    mh_session *def = server->ctx->sessions ? mh_sessions_default(server->ctx->sessions) : NULL;
    if (def) {
        snprintf(conn->current_session, sizeof conn->current_session, "%s", mh_session_name(def));
        mh_session_unref(def);
    }
    pthread_mutex_lock(&server->lock);
    int first = server->conns.count == 0;
    mh_ptrvec_push(&server->conns, conn);
    pthread_mutex_unlock(&server->lock);
    if (first) mh_log_set_forward(forward_log, server);
    return conn;
}

static const char *const *s_protocol_versions(void) { return mh_protocol_versions; }

int mh_request_internal(mh_request *from, const char *method, cJSON *params,
                        mh_internal_answer_fn fn, void *user)
{
    const mh_method *m = mh_method_find(method);
    char id_text[48];
    snprintf(id_text, sizeof id_text, "mh-internal-%llu",
             atomic_fetch_add(&from->conn->server->next_internal, 1) + 1);
    cJSON *id = cJSON_CreateString(id_text);
    mh_request *req = m && id ? request_new(from->conn, NULL, id, params) : NULL;
    cJSON_Delete(id);
    if (!req) return -1;
    req->internal_answer = fn;
    req->internal_user = user;
    memcpy(req->modern_version, from->modern_version, sizeof req->modern_version);
    m->fn(req, params);
    return 0;
}

mh_status mh_server_call_tool(mh_server *server, const char *session, const char *tool,
                              const char *arguments_json, mh_observe_result_fn done, void *user)
{
    pthread_mutex_lock(&server->lock);
    mh_window_client *wc = server->window;
    pthread_mutex_unlock(&server->lock);
    if (!wc) {
        /* made outside the lock (opening a connection takes it); the
         * first of two racing makers wins */
        mh_window_client *made = mh_window_client_new(server);
        pthread_mutex_lock(&server->lock);
        if (!server->window) {
            server->window = made;
            made = NULL;
        }
        wc = server->window;
        pthread_mutex_unlock(&server->lock);
        mh_window_client_free(made);
    }
    return wc ? mh_window_client_call(wc, session, tool, arguments_json, done, user)
              : MH_ERR_NO_MEMORY;
}

const mh_server_service mh_server_service_impl = {
    sizeof(mh_server_service), s_open, s_handle, s_close, s_protocol_version, s_protocol_versions,
};
