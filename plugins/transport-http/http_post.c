/* http_post.c - POST /mcp: initialize, requests answered as JSON or SSE,
 * notifications and responses. */
#include "http_internal.h"

#include <errno.h>


#include "http_checks.h"
#include "mcphost/json.h"

/* ---- POST ---- */

typedef enum message_kind { MSG_REQUEST, MSG_NOTIFICATION, MSG_RESPONSE, MSG_INVALID } message_kind;

typedef struct post_info {
    message_kind kind;
    int initialize;
    int progress; /* params._meta.progressToken present */
    int stateless; /* params._meta names a protocol version (2026-07-28 on) */
} post_info;

/* The _meta key of the stateless revision (2026-07-28): a request that
 * carries it needs no session. */
#define HTTP_META_VERSION "io.modelcontextprotocol/protocolVersion"

static void classify(const mh_json *root, post_info *info)
{
    const mh_json *method = mh_json_object_get(root, "method");
    const mh_json *id = mh_json_object_get(root, "id");
    int id_ok = mh_json_typeof(id) == MH_JSON_STRING || mh_json_typeof(id) == MH_JSON_NUMBER;
    memset(info, 0, sizeof *info);
    if (mh_json_typeof(method) == MH_JSON_STRING && id_ok) {
        info->kind = MSG_REQUEST;
        info->initialize = strcmp(mh_json_as_string(method, NULL), "initialize") == 0;
        const mh_json *meta = mh_json_object_get(mh_json_object_get(root, "params"), "_meta");
        info->progress = mh_json_object_get(meta, "progressToken") != NULL;
        info->stateless = mh_json_object_get(meta, HTTP_META_VERSION) != NULL;
    } else if (mh_json_typeof(method) == MH_JSON_STRING && !id) {
        info->kind = MSG_NOTIFICATION;
    } else if (!method && id_ok &&
               (mh_json_object_get(root, "result") || mh_json_object_get(root, "error"))) {
        info->kind = MSG_RESPONSE;
    } else {
        info->kind = MSG_INVALID;
    }
}

/* Marks one handle() call as running (of a request other than initialize
 * when `use`); 0 when the session is ending. */
static int begin_handle(http_session *s, int use)
{
    pthread_mutex_lock(&s->lock);
    int ok = !s->ending;
    if (ok) s->handling++;
    if (ok && use) s->used = 1;
    s->last_activity = http_now();
    pthread_mutex_unlock(&s->lock);
    return ok;
}

static void end_handle_locked(http_session *s)
{
    s->handling--;
    s->last_activity = http_now();
    pthread_cond_broadcast(&s->cond);
}

/* How a request was answered. */
typedef struct answer {
    enum { ANSWER_JSON, ANSWER_SSE, ANSWER_NONE, ANSWER_GONE, ANSWER_NO_MEMORY } kind;
    char *json; /* ANSWER_JSON, malloc'ed */
    size_t length;
    http_writer *writer; /* ANSWER_SSE */
} answer;

static int wait_locked(http_session *s, double until)
{
    double left = until - http_now();
    if (left <= 0) return ETIMEDOUT;
    if (left > 0.25) left = 0.25; /* wake now and then to see stopping */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    long ns = (long)(left * 1e9);
    ts.tv_sec += ns / 1000000000L;
    ts.tv_nsec += ns % 1000000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&s->cond, &s->lock, &ts);
    return 0;
}

/* The held message that is the response, taken out of the exchange. */
static int take_response_locked(http_exchange *ex, answer *out)
{
    for (size_t i = ex->held_count; i-- > 0;) {
        if (!ex->held[i].is_response) continue;
        out->kind = ANSWER_JSON;
        out->json = ex->held[i].json;
        out->length = ex->held[i].length;
        ex->held[i].json = NULL;
        return 1;
    }
    return 0;
}

static void mark_responses_locked(http_exchange *ex)
{
    for (size_t i = 0; i < ex->held_count; i++) {
        if (ex->held[i].is_response || !ex->held[i].json) continue;
        mh_json_doc *doc = mh_json_parse(ex->held[i].json, ex->held[i].length, NULL, NULL);
        const mh_json *root = doc ? mh_json_root(doc) : NULL;
        ex->held[i].is_response = root && !mh_json_object_get(root, "method") &&
                                  (mh_json_object_get(root, "result") || mh_json_object_get(root, "error"));
        mh_json_free(doc);
    }
}

/* Waits (JSON only) until the host is done with the exchange. */
static void finish_json_wait_locked(http_transport *t, http_exchange *ex, answer *out)
{
    http_session *s = ex->session;
    mark_responses_locked(ex);
    /* Keep only the response; later ones are classified by send(). */
    answer found = {0};
    if (take_response_locked(ex, &found)) {
        out->kind = ANSWER_JSON;
        out->json = found.json;
        out->length = found.length;
        if (ex->host_done) return;
    }
    for (size_t i = 0; i < ex->held_count; i++) free(ex->held[i].json);
    ex->held_count = 0;
    ex->mode = HTTP_EX_JSON_WAIT;
    while (!ex->host_done && !atomic_load(&t->stopping)) wait_locked(s, http_now() + 1.0);
    answer late = {0};
    if (take_response_locked(ex, &late)) {
        free(out->json);
        *out = late;
    }
    if (out->kind != ANSWER_JSON) out->kind = atomic_load(&t->stopping) ? ANSWER_GONE : ANSWER_NONE;
    ex->mode = HTTP_EX_JSON;
}

/* Hands one request to the host and decides how it is answered:
 *   - JSON when the first message the host sends for it is its response and
 *     it comes within the JSON window (json_window_ms), or when the client
 *     accepts only application/json (notifications of the request are then
 *     dropped);
 *   - SSE when the client accepts text/event-stream and either accepts no
 *     JSON, or the request carries a progressToken, or a notification or
 *     server request comes before the response, or the window passes
 *     without an answer.
 * Initialize and malformed messages are always answered as JSON. */
static answer run_request(http_transport *t, http_session *s, const char *body, size_t length,
                          int sse_ok, int json_ok, const post_info *info)
{
    answer out = {0};
    if (!begin_handle(s, !info->initialize)) {
        out.kind = ANSWER_GONE;
        return out;
    }
    http_exchange *ex = http_exchange_new(s);
    if (!ex) {
        pthread_mutex_lock(&s->lock);
        end_handle_locked(s);
        pthread_mutex_unlock(&s->lock);
        out.kind = ANSWER_NO_MEMORY;
        return out;
    }
    t->server->handle(s->conn, ex, body, length);
    int json_only = !sse_ok || info->initialize || info->kind == MSG_INVALID;
    pthread_mutex_lock(&s->lock);
    end_handle_locked(s);
    int go_sse = 0;
    if (!json_only && (info->progress || !json_ok)) {
        go_sse = 1;
    } else {
        double until = json_only ? 1e300 : http_now() + t->limits.json_window_ms / 1000.0;
        while (ex->held_count == 0 && !ex->host_done && !atomic_load(&t->stopping) &&
               (json_only || http_now() < until))
            wait_locked(s, until);
        if (ex->held_count > 0) {
            mark_responses_locked(ex);
            if (ex->held[0].is_response) {
                take_response_locked(ex, &out);
                ex->mode = HTTP_EX_JSON;
            } else if (!json_only) {
                go_sse = 1;
            } else {
                finish_json_wait_locked(t, ex, &out);
            }
        } else if (ex->host_done) {
            out.kind = ANSWER_NONE; /* cancelled: no response */
        } else if (atomic_load(&t->stopping)) {
            out.kind = ANSWER_GONE;
        } else {
            go_sse = 1; /* still running after the window */
        }
    }
    if (go_sse) {
        if (s->writers >= t->limits.max_streams) {
            /* No room for another stream: answer as JSON when done. */
            finish_json_wait_locked(t, ex, &out);
        } else {
            http_stream *st = http_exchange_to_sse_locked(ex);
            out.writer = st ? http_writer_attach_locked(st, -1) : NULL;
            out.kind = out.writer ? ANSWER_SSE : ANSWER_NO_MEMORY;
        }
    }
    http_exchange_release_locked(ex);
    pthread_mutex_unlock(&s->lock);
    return out;
}

static enum MHD_Result send_answer(struct MHD_Connection *c, answer *a, const char *session_id)
{
    struct MHD_Response *r = NULL;
    unsigned status = MHD_HTTP_OK;
    switch (a->kind) {
    case ANSWER_JSON:
        r = http_json_response(a->json, a->length);
        break;
    case ANSWER_SSE:
        r = http_sse_response(a->writer);
        break;
    case ANSWER_NONE:
        return http_send_empty(c, MHD_HTTP_ACCEPTED);
    case ANSWER_GONE:
        return http_send_error(c, MHD_HTTP_NOT_FOUND, -32001,
                          "Session not found: it ended while the request was running; "
                          "initialize a new session");
    case ANSWER_NO_MEMORY:
        return http_send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, -32603,
                          "Internal error: out of memory");
    }
    if (r && session_id) MHD_add_response_header(r, "Mcp-Session-Id", session_id);
    return http_queue(c, status, r);
}

static enum MHD_Result post_initialize(http_transport *t, struct MHD_Connection *c,
                                       http_request *req, int sse_ok, int json_ok,
                                       const post_info *info)
{
    if (http_header(c, "Mcp-Session-Id"))
        return http_send_error(c, MHD_HTTP_BAD_REQUEST, -32600,
                          "Bad Request: initialize starts a new session, so it is sent without "
                          "an Mcp-Session-Id header");
    if (http_make_room(t) != 0)
        return http_send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, -32000,
                          "Too many sessions: this server keeps at most %zu MCP sessions; end "
                          "one with DELETE /mcp, or wait until idle ones expire",
                          t->limits.max_sessions);
    http_session *s = http_session_new(t);
    if (!s) return http_send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, -32603, "out of memory");
    http_make_session_id(s->id);
    mh_conn_desc desc = {sizeof desc, "http", s, http_session_send, http_session_done};
    s->conn = t->server->open(t->host, &desc);
    if (!s->conn) {
        http_session_unref(s);
        return http_send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, -32603,
                          "Internal error: the host refused a new connection");
    }
    answer a = run_request(t, s, req->body, req->length, sse_ok, json_ok, info);
    int ok = a.kind == ANSWER_JSON && strstr(a.json, "\"result\"") && !strstr(a.json, "\"error\":{");
    /* Once in the table the session may end (DELETE, shutdown) at any time:
     * keep a copy of its id for the answer. */
    char id[sizeof s->id];
    memcpy(id, s->id, sizeof id);
    if (!ok || http_add_session(t, s) != 0) {
        http_retire_session(s); /* a failed initialize leaves no session behind */
        return send_answer(c, &a, NULL);
    }
    http_log(t, MH_LOG_INFO, "session %.8s started", id);
    return send_answer(c, &a, id);
}

/* A stateless request (2026-07-28) without Mcp-Session-Id: it runs on a
 * connection of its own that ends with its answer, always a JSON body (the
 * host checks the version and answers everything else). */
static enum MHD_Result post_stateless(http_transport *t, struct MHD_Connection *c,
                                      http_request *req, const post_info *info)
{
    http_session *s = http_session_new(t);
    if (!s) return http_send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, -32603, "out of memory");
    http_make_session_id(s->id);
    mh_conn_desc desc = {sizeof desc, "http", s, http_session_send, http_session_done};
    s->conn = t->server->open(t->host, &desc);
    if (!s->conn) {
        http_session_unref(s);
        return http_send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, -32603,
                          "Internal error: the host refused a new connection");
    }
    answer a = run_request(t, s, req->body, req->length, 0, 1, info);
    http_retire_session(s);
    /* The revision answers a version it does not serve with HTTP 400. */
    if (a.kind == ANSWER_JSON && strstr(a.json, "\"code\":-32022"))
        return http_queue(c, MHD_HTTP_BAD_REQUEST, http_json_response(a.json, a.length));
    return send_answer(c, &a, NULL);
}

/* The session a request names, checked; NULL after queueing the error. */
http_session *http_request_session(http_transport *t, struct MHD_Connection *c,
                                     enum MHD_Result *result)
{
    const char *id = http_header(c, "Mcp-Session-Id");
    if (!id) {
        *result = http_send_error(c, MHD_HTTP_BAD_REQUEST, -32600,
                             "Bad Request: the Mcp-Session-Id header is missing; send initialize "
                             "first, then the id its response gives with every request");
        return NULL;
    }
    http_session *s = http_find_session(t, id);
    if (!s) {
        *result = http_send_error(c, MHD_HTTP_NOT_FOUND, -32001,
                             "Session not found: \"%.64s\" ended or expired (or never existed); "
                             "initialize a new session",
                             id);
        return NULL;
    }
    const char *version = http_header(c, "MCP-Protocol-Version");
    const char *const *served = t->server->protocol_versions();
    if (version && !http_protocol_version_known(served, version)) {
        char speaks[128];
        http_protocol_versions_text(served, speaks, sizeof speaks);
        http_session_unref(s);
        *result = http_send_error(c, MHD_HTTP_BAD_REQUEST, -32600,
                             "Bad Request: unsupported MCP-Protocol-Version \"%.40s\"; this server "
                             "speaks %s",
                             version, speaks);
        return NULL;
    }
    return s;
}

enum MHD_Result http_handle_post(http_transport *t, struct MHD_Connection *c, http_request *req)
{
    if (req->too_large)
        return http_send_error(c, MHD_HTTP_CONTENT_TOO_LARGE, -32000,
                          "Payload too large: a message may be at most %zu bytes",
                          t->limits.max_body);
    mh_json_parse_opts opts = {t->limits.max_body + 1, 0};
    mh_json_error jerr;
    mh_json_doc *doc = mh_json_parse(req->body ? req->body : "", req->length, &opts, &jerr);
    if (!doc)
        return http_send_error(c, MHD_HTTP_BAD_REQUEST, -32700,
                          "Parse error: the body is not valid JSON (%s); POST one JSON-RPC "
                          "message as application/json",
                          jerr.message);
    const mh_json *root = mh_json_root(doc);
    mh_json_type type = mh_json_typeof(root);
    post_info info;
    if (type == MH_JSON_OBJECT) classify(root, &info);
    mh_json_free(doc);
    if (type == MH_JSON_ARRAY)
        return http_send_error(c, MHD_HTTP_BAD_REQUEST, -32600,
                          "Invalid Request: JSON-RPC batches are not supported; POST one message "
                          "at a time");
    if (type != MH_JSON_OBJECT)
        return http_send_error(c, MHD_HTTP_BAD_REQUEST, -32600,
                          "Invalid Request: a JSON-RPC message must be a JSON object");

    const char *accept = http_header(c, MHD_HTTP_HEADER_ACCEPT);
    int sse_ok = http_accepts(accept, "text/event-stream");
    int json_ok = http_accepts(accept, "application/json");
    if (info.kind == MSG_REQUEST && info.initialize) return post_initialize(t, c, req, sse_ok, json_ok, &info);
    if (info.kind == MSG_REQUEST && info.stateless && !http_header(c, "Mcp-Session-Id"))
        return post_stateless(t, c, req, &info);

    enum MHD_Result result = MHD_NO;
    http_session *s = http_request_session(t, c, &result);
    if (!s) return result;
    if (info.kind == MSG_NOTIFICATION || info.kind == MSG_RESPONSE) {
        if (!begin_handle(s, 0)) {
            http_session_unref(s);
            return http_send_error(c, MHD_HTTP_NOT_FOUND, -32001,
                              "Session not found: it is ending; initialize a new session");
        }
        t->server->handle(s->conn, &http_sink_exchange, req->body, req->length);
        pthread_mutex_lock(&s->lock);
        end_handle_locked(s);
        pthread_mutex_unlock(&s->lock);
        http_session_unref(s);
        return http_send_empty(c, MHD_HTTP_ACCEPTED);
    }
    answer a = run_request(t, s, req->body, req->length, sse_ok, json_ok, &info);
    http_session_unref(s);
    if (info.kind == MSG_INVALID && a.kind == ANSWER_JSON) {
        struct MHD_Response *r = http_json_response(a.json, a.length);
        return http_queue(c, MHD_HTTP_BAD_REQUEST, r);
    }
    return send_answer(c, &a, NULL);
}
