/* transport-http: MCP Streamable HTTP (2025-11-25) on libmicrohttpd.
 *
 * One endpoint, /mcp: POST carries one JSON-RPC message, GET opens a stream
 * of server notifications, DELETE ends a session. Every MCP session
 * (Mcp-Session-Id) is one mh_conn. libmicrohttpd runs one thread per HTTP
 * connection (MHD_USE_THREAD_PER_CONNECTION with an internal polling
 * thread), so a POST may wait for its answer and an SSE response may wait
 * for events without holding up anyone else; the host's send() only queues
 * into a bounded ring (http_session.c). docs/transport-http.md describes the
 * rules on the wire: when a request is answered as JSON or as SSE, the
 * security checks, the limits and the environment variables. */
#include "transport_http.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "http_checks.h"
#include "mcphost/json.h"

#define ENDPOINT "/mcp"

/* Per HTTP request state, freed by the completion callback. */
typedef struct http_request {
    char *body;
    size_t length, cap;
    int too_large;
    int answered; /* an error went out before the body was read */
} http_request;

void http_log(http_transport *t, mh_log_level level, const char *format, ...)
{
    if (!t->log) return;
    va_list args;
    va_start(args, format);
    t->log->vwritef(t->host, level, format, args);
    va_end(args);
}

#define NOISE_WINDOW_SECONDS 10.0
#define NOISE_LINES 5

/* Starts a new noise window when the current one is over; returns how many
 * lines the ended one left out. Lock held. */
static unsigned long noise_roll_locked(http_transport *t, double now)
{
    if (now - t->noise_window < NOISE_WINDOW_SECONDS) return 0;
    unsigned long left_out = t->noise_left_out;
    t->noise_window = now;
    t->noise_lines = 0;
    t->noise_left_out = 0;
    return left_out;
}

static void report_left_out(http_transport *t, unsigned long left_out)
{
    if (left_out)
        http_log(t, MH_LOG_NOTICE,
                 "%lu more lines about refused or dropped connections were left out in %.0f s",
                 left_out, NOISE_WINDOW_SECONDS);
}

void http_log_noise(http_transport *t, mh_log_level level, const char *format, ...)
{
    pthread_mutex_lock(&t->noise_lock);
    unsigned long left_out = noise_roll_locked(t, http_now());
    int write = t->noise_lines < NOISE_LINES;
    if (write)
        t->noise_lines++;
    else
        t->noise_left_out++;
    pthread_mutex_unlock(&t->noise_lock);
    report_left_out(t, left_out);
    if (!write || !t->log) return;
    va_list args;
    va_start(args, format);
    t->log->vwritef(t->host, level, format, args);
    va_end(args);
}

/* Reports what a noise window left out once it is over, even when no new
 * line comes. [main-thread] */
static void flush_noise(http_transport *t)
{
    pthread_mutex_lock(&t->noise_lock);
    unsigned long left_out = noise_roll_locked(t, http_now());
    pthread_mutex_unlock(&t->noise_lock);
    report_left_out(t, left_out);
}

/* ---- responses ---- */

static enum MHD_Result queue(struct MHD_Connection *c, unsigned status, struct MHD_Response *r)
{
    if (!r) return MHD_NO;
    enum MHD_Result ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

static struct MHD_Response *json_response(char *text, size_t length)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(length, text, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(text);
        return NULL;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    return r;
}

/* An HTTP error with a JSON-RPC error body that says what to do instead. */
static struct MHD_Response *error_response(int code, const char *message)
{
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "jsonrpc");
    mh_json_write_string(w, "2.0");
    mh_json_write_key(w, "id");
    mh_json_write_null(w);
    mh_json_write_key(w, "error");
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "code");
    mh_json_write_int(w, code);
    mh_json_write_key(w, "message");
    mh_json_write_string(w, message);
    mh_json_write_object_end(w);
    mh_json_write_object_end(w);
    size_t length = 0;
    char *text = mh_json_writer_finish(w, &length);
    mh_json_writer_free(w);
    return text ? json_response(text, length) : NULL;
}

static enum MHD_Result vsend_error(struct MHD_Connection *c, int close, unsigned status,
                                   int code, const char *format, va_list args)
{
    char message[1024];
    vsnprintf(message, sizeof message, format, args);
    struct MHD_Response *r = error_response(code, message);
    if (r && close) MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
    if (r && status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, POST, DELETE");
    if (r && status == MHD_HTTP_UNAUTHORIZED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE,
                                "Bearer realm=\"mcphost\", error=\"invalid_token\"");
    return queue(c, status, r);
}

static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, int code,
                                  const char *format, ...) __attribute__((format(printf, 4, 5)));

static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, int code,
                                  const char *format, ...)
{
    va_list args;
    va_start(args, format);
    enum MHD_Result result = vsend_error(c, 0, status, code, format, args);
    va_end(args);
    return result;
}

/* An error that refuses a request before its body is read: the connection
 * is closed after it, so a refused client holds nothing (its body is never
 * read). */
static enum MHD_Result refuse(struct MHD_Connection *c, unsigned status, int code,
                              const char *format, ...) __attribute__((format(printf, 4, 5)));

static enum MHD_Result refuse(struct MHD_Connection *c, unsigned status, int code,
                              const char *format, ...)
{
    va_list args;
    va_start(args, format);
    enum MHD_Result result = vsend_error(c, 1, status, code, format, args);
    va_end(args);
    return result;
}

static enum MHD_Result send_empty(struct MHD_Connection *c, unsigned status)
{
    return queue(c, status, MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT));
}

static struct MHD_Response *sse_response(http_writer *w)
{
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64 * 1024,
                                                               http_writer_read, w, http_writer_free);
    if (!r) {
        http_writer_free(w);
        return NULL;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache, no-store");
    MHD_add_response_header(r, "X-Accel-Buffering", "no");
    return r;
}

static const char *header(struct MHD_Connection *c, const char *name)
{
    return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}

/* ---- the session table ---- */

static void make_session_id(char out[33])
{
    unsigned char bytes[16];
    size_t got = 0;
    while (got < sizeof bytes) {
        ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    if (got < sizeof bytes) { /* no entropy source: still unique, less secret */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        for (size_t i = 0; i < sizeof bytes; i++)
            bytes[i] ^= (unsigned char)((ts.tv_nsec >> (i % 4 * 8)) + i * 131 + (size_t)getpid());
    }
    for (size_t i = 0; i < sizeof bytes; i++) snprintf(out + 2 * i, 3, "%02x", bytes[i]);
}

/* The session with this id, with a reference, or NULL. */
static http_session *find_session(http_transport *t, const char *id)
{
    http_session *found = NULL;
    pthread_mutex_lock(&t->lock);
    for (size_t i = 0; i < t->session_count; i++) {
        if (strcmp(t->sessions[i]->id, id) == 0) {
            found = t->sessions[i];
            http_session_ref(found);
            break;
        }
    }
    pthread_mutex_unlock(&t->lock);
    return found;
}

static int add_session(http_transport *t, http_session *s)
{
    pthread_mutex_lock(&t->lock);
    if (atomic_load(&t->stopping)) { /* shutdown_all has taken the table */
        pthread_mutex_unlock(&t->lock);
        return -1;
    }
    if (t->session_count == t->session_cap) {
        size_t cap = t->session_cap ? t->session_cap * 2 : 16;
        http_session **list = realloc(t->sessions, cap * sizeof *list);
        if (!list) {
            pthread_mutex_unlock(&t->lock);
            return -1;
        }
        t->sessions = list;
        t->session_cap = cap;
    }
    t->sessions[t->session_count++] = s; /* the table's reference is the caller's */
    pthread_mutex_unlock(&t->lock);
    return 0;
}

/* Takes s out of the table; returns 1 when it was there (the caller then
 * owns the table's reference). Lock held. */
static int remove_session_locked(http_transport *t, http_session *s)
{
    for (size_t i = 0; i < t->session_count; i++) {
        if (t->sessions[i] == s) {
            t->sessions[i] = t->sessions[--t->session_count];
            return 1;
        }
    }
    return 0;
}

/* Whether a session has no connection and no running request, since when,
 * and whether it was ever used past initialize. Lock order: transport lock,
 * then session lock. */
static int session_idle_since(http_session *s, double *since, int *used)
{
    pthread_mutex_lock(&s->lock);
    int idle = !s->ending && s->writers == 0 && s->exchanges == 0 && s->handling == 0;
    *since = s->last_activity;
    if (used) *used = s->used;
    pthread_mutex_unlock(&s->lock);
    return idle;
}

/* Ends a session that was taken out of the table and drops that reference. */
static void retire_session(http_session *s)
{
    http_session_end(s);
    http_session_unref(s);
}

/* Room for one more session when the table is full. The first to go is the
 * idle session that never sent a request after initialize (nothing of its
 * client's is lost) and has waited longest; else the session idle longest,
 * once idle for evict_idle_seconds. Returns 0, or -1 when none may go. */
static int make_room(http_transport *t)
{
    http_session *victim = NULL;
    int victim_used = 0;
    pthread_mutex_lock(&t->lock);
    if (t->session_count >= t->limits.max_sessions) {
        double oldest = 0, now = http_now();
        for (size_t i = 0; i < t->session_count; i++) {
            double since;
            int used;
            if (!session_idle_since(t->sessions[i], &since, &used)) continue;
            if (used && now - since < t->limits.evict_idle_seconds) continue;
            /* unused before used, then the longest idle */
            if (!victim || (!used && victim_used) || (used == victim_used && since < oldest)) {
                victim = t->sessions[i];
                victim_used = used;
                oldest = since;
            }
        }
        if (!victim) {
            pthread_mutex_unlock(&t->lock);
            return -1;
        }
        remove_session_locked(t, victim);
    }
    pthread_mutex_unlock(&t->lock);
    if (victim) {
        http_log(t, MH_LOG_INFO, "session %.8s ended to make room for a new one (limit %zu; %s)",
                 victim->id, t->limits.max_sessions,
                 victim_used ? "the longest idle" : "it never sent a request after initialize");
        retire_session(victim);
    }
    return 0;
}

/* Ends sessions idle for longer than the limit. [main-thread] */
static void expire_sessions(http_transport *t)
{
    http_session *expired[16];
    size_t n = 0;
    double now = http_now();
    pthread_mutex_lock(&t->lock);
    for (size_t i = 0; i < t->session_count && n < 16;) {
        double since;
        http_session *s = t->sessions[i];
        if (session_idle_since(s, &since, NULL) && now - since >= t->limits.idle_seconds) {
            remove_session_locked(t, s);
            expired[n++] = s;
        } else {
            i++;
        }
    }
    pthread_mutex_unlock(&t->lock);
    for (size_t i = 0; i < n; i++) {
        http_log(t, MH_LOG_INFO, "session %.8s expired after %u s without requests",
                 expired[i]->id, t->limits.idle_seconds);
        retire_session(expired[i]);
    }
}

/* ---- POST ---- */

typedef enum message_kind { MSG_REQUEST, MSG_NOTIFICATION, MSG_RESPONSE, MSG_INVALID } message_kind;

typedef struct post_info {
    message_kind kind;
    int initialize;
    int progress; /* params._meta.progressToken present */
} post_info;

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
        r = json_response(a->json, a->length);
        break;
    case ANSWER_SSE:
        r = sse_response(a->writer);
        break;
    case ANSWER_NONE:
        return send_empty(c, MHD_HTTP_ACCEPTED);
    case ANSWER_GONE:
        return send_error(c, MHD_HTTP_NOT_FOUND, -32001,
                          "Session not found: it ended while the request was running; "
                          "initialize a new session");
    case ANSWER_NO_MEMORY:
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, -32603,
                          "Internal error: out of memory");
    }
    if (r && session_id) MHD_add_response_header(r, "Mcp-Session-Id", session_id);
    return queue(c, status, r);
}

static enum MHD_Result post_initialize(http_transport *t, struct MHD_Connection *c,
                                       http_request *req, int sse_ok, int json_ok,
                                       const post_info *info)
{
    if (header(c, "Mcp-Session-Id"))
        return send_error(c, MHD_HTTP_BAD_REQUEST, -32600,
                          "Bad Request: initialize starts a new session, so it is sent without "
                          "an Mcp-Session-Id header");
    if (make_room(t) != 0)
        return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, -32000,
                          "Too many sessions: this server keeps at most %zu MCP sessions; end "
                          "one with DELETE /mcp, or wait until idle ones expire",
                          t->limits.max_sessions);
    http_session *s = http_session_new(t);
    if (!s) return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, -32603, "out of memory");
    make_session_id(s->id);
    mh_conn_desc desc = {sizeof desc, "http", s, http_session_send, http_session_done};
    s->conn = t->server->open(t->host, &desc);
    if (!s->conn) {
        http_session_unref(s);
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, -32603,
                          "Internal error: the host refused a new connection");
    }
    answer a = run_request(t, s, req->body, req->length, sse_ok, json_ok, info);
    int ok = a.kind == ANSWER_JSON && strstr(a.json, "\"result\"") && !strstr(a.json, "\"error\":{");
    /* Once in the table the session may end (DELETE, shutdown) at any time:
     * keep a copy of its id for the answer. */
    char id[sizeof s->id];
    memcpy(id, s->id, sizeof id);
    if (!ok || add_session(t, s) != 0) {
        retire_session(s); /* a failed initialize leaves no session behind */
        return send_answer(c, &a, NULL);
    }
    http_log(t, MH_LOG_INFO, "session %.8s started", id);
    return send_answer(c, &a, id);
}

/* The session a request names, checked; NULL after queueing the error. */
static http_session *request_session(http_transport *t, struct MHD_Connection *c,
                                     enum MHD_Result *result)
{
    const char *id = header(c, "Mcp-Session-Id");
    if (!id) {
        *result = send_error(c, MHD_HTTP_BAD_REQUEST, -32600,
                             "Bad Request: the Mcp-Session-Id header is missing; send initialize "
                             "first, then the id its response gives with every request");
        return NULL;
    }
    http_session *s = find_session(t, id);
    if (!s) {
        *result = send_error(c, MHD_HTTP_NOT_FOUND, -32001,
                             "Session not found: \"%.64s\" ended or expired (or never existed); "
                             "initialize a new session",
                             id);
        return NULL;
    }
    const char *version = header(c, "MCP-Protocol-Version");
    const char *const *served = t->server->protocol_versions();
    if (version && !http_protocol_version_known(served, version)) {
        char speaks[128];
        http_protocol_versions_text(served, speaks, sizeof speaks);
        http_session_unref(s);
        *result = send_error(c, MHD_HTTP_BAD_REQUEST, -32600,
                             "Bad Request: unsupported MCP-Protocol-Version \"%.40s\"; this server "
                             "speaks %s",
                             version, speaks);
        return NULL;
    }
    return s;
}

static enum MHD_Result handle_post(http_transport *t, struct MHD_Connection *c, http_request *req)
{
    if (req->too_large)
        return send_error(c, MHD_HTTP_CONTENT_TOO_LARGE, -32000,
                          "Payload too large: a message may be at most %zu bytes",
                          t->limits.max_body);
    mh_json_parse_opts opts = {t->limits.max_body + 1, 0};
    mh_json_error jerr;
    mh_json_doc *doc = mh_json_parse(req->body ? req->body : "", req->length, &opts, &jerr);
    if (!doc)
        return send_error(c, MHD_HTTP_BAD_REQUEST, -32700,
                          "Parse error: the body is not valid JSON (%s); POST one JSON-RPC "
                          "message as application/json",
                          jerr.message);
    const mh_json *root = mh_json_root(doc);
    mh_json_type type = mh_json_typeof(root);
    post_info info;
    if (type == MH_JSON_OBJECT) classify(root, &info);
    mh_json_free(doc);
    if (type == MH_JSON_ARRAY)
        return send_error(c, MHD_HTTP_BAD_REQUEST, -32600,
                          "Invalid Request: JSON-RPC batches are not supported; POST one message "
                          "at a time");
    if (type != MH_JSON_OBJECT)
        return send_error(c, MHD_HTTP_BAD_REQUEST, -32600,
                          "Invalid Request: a JSON-RPC message must be a JSON object");

    const char *accept = header(c, MHD_HTTP_HEADER_ACCEPT);
    int sse_ok = http_accepts(accept, "text/event-stream");
    int json_ok = http_accepts(accept, "application/json");
    if (info.kind == MSG_REQUEST && info.initialize) return post_initialize(t, c, req, sse_ok, json_ok, &info);

    enum MHD_Result result = MHD_NO;
    http_session *s = request_session(t, c, &result);
    if (!s) return result;
    if (info.kind == MSG_NOTIFICATION || info.kind == MSG_RESPONSE) {
        if (!begin_handle(s, 0)) {
            http_session_unref(s);
            return send_error(c, MHD_HTTP_NOT_FOUND, -32001,
                              "Session not found: it is ending; initialize a new session");
        }
        t->server->handle(s->conn, &http_sink_exchange, req->body, req->length);
        pthread_mutex_lock(&s->lock);
        end_handle_locked(s);
        pthread_mutex_unlock(&s->lock);
        http_session_unref(s);
        return send_empty(c, MHD_HTTP_ACCEPTED);
    }
    answer a = run_request(t, s, req->body, req->length, sse_ok, json_ok, &info);
    http_session_unref(s);
    if (info.kind == MSG_INVALID && a.kind == ANSWER_JSON) {
        struct MHD_Response *r = json_response(a.json, a.length);
        return queue(c, MHD_HTTP_BAD_REQUEST, r);
    }
    return send_answer(c, &a, NULL);
}

/* ---- GET and DELETE ---- */

/* Why a Last-Event-ID is refused, as the message of a 400: not an event id,
 * a stream never issued, or past the end of its stream. NULL when it is
 * served: *st is then the stream and *seq the last event the client has, or
 * *st is NULL for a stream no longer kept. Lock held. */
static const char *resume_refusal(http_session *s, const char *last, http_stream **st,
                                  uint64_t *seq_out, char *why, size_t size)
{
    uint32_t stream_id = 0;
    uint64_t seq = 0;
    if (http_parse_event_id(last, &stream_id, &seq) != 0) {
        snprintf(why, size,
                 "Bad Request: Last-Event-ID \"%.40s\" is not an event id of this server "
                 "(<stream>-<event>, as in \"id: 3-17\"); send a GET without it to open a new "
                 "stream",
                 last);
        return why;
    }
    *st = http_stream_find_locked(s, stream_id);
    if (!*st && stream_id >= s->next_stream_id) {
        snprintf(why, size,
                 "Bad Request: Last-Event-ID \"%.40s\" names stream %u, which this session "
                 "never had (its newest is %u); send a GET without Last-Event-ID to open a new "
                 "stream",
                 last, stream_id, s->next_stream_id - 1);
        return why;
    }
    /* A stream that ended and was delivered, or was dropped for newer ones:
     * the caller opens a new GET stream (the MCP SDK reconnects so after a
     * POST stream that ended with an error). */
    if (!*st) return NULL;
    uint64_t next = http_stream_next_seq_locked(*st);
    if (seq >= next) {
        snprintf(why, size,
                 "Bad Request: Last-Event-ID \"%.40s\" is past the end of stream %u, whose "
                 "newest event is %u-%llu; resume from an id this server sent",
                 last, stream_id, stream_id, (unsigned long long)(next - 1));
        return why;
    }
    *seq_out = seq;
    return NULL;
}

static enum MHD_Result handle_get(http_transport *t, struct MHD_Connection *c)
{
    enum MHD_Result result = MHD_NO;
    http_session *s = request_session(t, c, &result);
    if (!s) return result;
    const char *last = header(c, "Last-Event-ID");
    pthread_mutex_lock(&s->lock);
    if (s->ending) {
        pthread_mutex_unlock(&s->lock);
        http_session_unref(s);
        return send_error(c, MHD_HTTP_NOT_FOUND, -32001,
                          "Session not found: it is ending; initialize a new session");
    }
    http_stream *st = NULL;
    uint64_t seq = 0;
    char why[512];
    if (last && resume_refusal(s, last, &st, &seq, why, sizeof why)) {
        pthread_mutex_unlock(&s->lock);
        http_session_unref(s);
        return send_error(c, MHD_HTTP_BAD_REQUEST, -32600, "%s", why);
    }
    /* Taking over an attached stream does not add one; anything else must fit. */
    if (s->writers >= t->limits.max_streams && !(st && http_stream_attached_locked(st))) {
        pthread_mutex_unlock(&s->lock);
        http_session_unref(s);
        return send_error(c, MHD_HTTP_TOO_MANY_REQUESTS, -32000,
                          "Too many streams: a session may have at most %zu open SSE streams; "
                          "close one first",
                          t->limits.max_streams);
    }
    http_writer *w = NULL;
    int resumed = st != NULL;
    if (st) {
        w = http_writer_attach_locked(st, (int64_t)seq);
    } else {
        st = http_stream_new_locked(s, HTTP_STREAM_GET);
        if (st) {
            http_stream_prime_locked(st);
            w = http_writer_attach_locked(st, -1);
        }
    }
    s->last_activity = http_now();
    s->used = 1;
    pthread_mutex_unlock(&s->lock);
    if (w && last && !resumed)
        http_log(t, MH_LOG_INFO,
                 "session %.8s: Last-Event-ID \"%.40s\" names a stream that ended or was "
                 "dropped; opening a new one",
                 s->id, last);
    http_session_unref(s);
    if (!w) return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, -32603, "out of memory");
    return queue(c, MHD_HTTP_OK, sse_response(w));
}

static enum MHD_Result handle_delete(http_transport *t, struct MHD_Connection *c)
{
    enum MHD_Result result = MHD_NO;
    http_session *s = request_session(t, c, &result);
    if (!s) return result;
    pthread_mutex_lock(&t->lock);
    int mine = remove_session_locked(t, s);
    pthread_mutex_unlock(&t->lock);
    if (mine) {
        http_log(t, MH_LOG_INFO, "session %.8s ended by the client", s->id);
        retire_session(s); /* the table's reference */
    }
    http_session_unref(s);
    return send_empty(c, MHD_HTTP_OK);
}

/* ---- the request handler ---- */

/* Checks every request must pass before its body is read. Returns 0, or 1
 * after queueing an error response in *result. */
static int precheck(http_transport *t, struct MHD_Connection *c, const char *url,
                    const char *method, int *too_large, enum MHD_Result *result)
{
    const char *host = header(c, MHD_HTTP_HEADER_HOST);
    if (!http_host_allowed(host, t->bind_host, t->wildcard)) {
        http_log_noise(t, MH_LOG_WARNING,
                       "refused a request for Host \"%.100s\" (DNS rebinding protection)", host);
        *result = refuse(c, MHD_HTTP_MISDIRECTED_REQUEST, -32000,
                         "Misdirected request: Host \"%.100s\" is not this server; connect to "
                         "http://%s:%u" ENDPOINT " (DNS rebinding protection)",
                         host, t->bind_host, t->port);
        return 1;
    }
    const char *origin = header(c, "Origin");
    if (!http_origin_allowed(origin, t->bind_host)) {
        http_log_noise(t, MH_LOG_WARNING, "refused a request from Origin \"%.100s\"", origin);
        *result = refuse(c, MHD_HTTP_FORBIDDEN, -32000,
                         "Forbidden: Origin \"%.100s\" may not use this server; only pages on "
                         "localhost, 127.0.0.1 or [::1] may",
                         origin);
        return 1;
    }
    if (strcmp(url, ENDPOINT) != 0) {
        *result = refuse(c, MHD_HTTP_NOT_FOUND, -32000,
                         "Not found: the MCP endpoint is " ENDPOINT);
        return 1;
    }
    if (t->token && !http_token_ok(header(c, MHD_HTTP_HEADER_AUTHORIZATION), t->token)) {
        *result = refuse(c, MHD_HTTP_UNAUTHORIZED, -32000,
                         "Unauthorized: send the server's token as \"Authorization: Bearer "
                         "<token>\" (mcphost --token or MCPHOST_TOKEN)");
        return 1;
    }
    if (strcmp(method, MHD_HTTP_METHOD_POST) == 0) {
        if (!http_content_type_is(header(c, MHD_HTTP_HEADER_CONTENT_TYPE), "application/json")) {
            *result = refuse(c, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE, -32000,
                             "Unsupported Media Type: POST a JSON-RPC message with "
                             "Content-Type: application/json");
            return 1;
        }
        const char *accept = header(c, MHD_HTTP_HEADER_ACCEPT);
        if (!http_accepts(accept, "application/json") && !http_accepts(accept, "text/event-stream")) {
            *result = refuse(c, MHD_HTTP_NOT_ACCEPTABLE, -32000,
                             "Not Acceptable: the Accept header must list application/json "
                             "and text/event-stream");
            return 1;
        }
        /* A body somewhat over the limit is read and dropped before the 413,
         * since most clients cannot see an answer sent while they still
         * write; a huge one is refused at once and the connection closed. */
        const char *length = header(c, MHD_HTTP_HEADER_CONTENT_LENGTH);
        unsigned long long declared = length ? strtoull(length, NULL, 10) : 0;
        if (declared > 16ull * t->limits.max_body) {
            *result = refuse(c, MHD_HTTP_CONTENT_TOO_LARGE, -32000,
                             "Payload too large: a message may be at most %zu bytes",
                             t->limits.max_body);
            return 1;
        }
        if (declared > t->limits.max_body) *too_large = 1;
        return 0;
    }
    if (strcmp(method, MHD_HTTP_METHOD_GET) == 0) {
        if (!http_accepts(header(c, MHD_HTTP_HEADER_ACCEPT), "text/event-stream")) {
            *result = refuse(c, MHD_HTTP_NOT_ACCEPTABLE, -32000,
                             "Not Acceptable: GET " ENDPOINT " opens an SSE stream; send "
                             "Accept: text/event-stream");
            return 1;
        }
        return 0;
    }
    if (strcmp(method, MHD_HTTP_METHOD_DELETE) == 0) return 0;
    *result = refuse(c, MHD_HTTP_METHOD_NOT_ALLOWED, -32000,
                     "Method not allowed: " ENDPOINT " takes POST (messages), GET (the "
                     "notification stream) and DELETE (end the session)");
    return 1;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_size, void **con_cls)
{
    (void)version;
    http_transport *t = cls;
    http_request *req = *con_cls;
    if (!req) {
        req = calloc(1, sizeof *req);
        if (!req) return MHD_NO;
        *con_cls = req;
        enum MHD_Result result = MHD_YES;
        int refused = precheck(t, c, url, method, &req->too_large, &result);
        http_guard_header_in(t->guard, c, !refused);
        if (refused) {
            req->answered = 1;
            return result;
        }
        return MHD_YES;
    }
    if (req->answered) {
        *upload_size = 0;
        return MHD_YES;
    }
    if (*upload_size) {
        size_t n = *upload_size;
        *upload_size = 0;
        if (req->too_large || req->length + n > t->limits.max_body) {
            req->too_large = 1;
            return MHD_YES;
        }
        if (req->length + n + 1 > req->cap) {
            size_t cap = req->cap ? req->cap : 4096;
            while (cap < req->length + n + 1) cap *= 2;
            char *body = realloc(req->body, cap);
            if (!body) return MHD_NO;
            req->body = body;
            req->cap = cap;
        }
        memcpy(req->body + req->length, upload_data, n);
        req->length += n;
        req->body[req->length] = '\0';
        return MHD_YES;
    }
    req->answered = 1;
    http_guard_body_in(t->guard, c);
    if (strcmp(method, MHD_HTTP_METHOD_POST) == 0) return handle_post(t, c, req);
    if (strcmp(method, MHD_HTTP_METHOD_GET) == 0) return handle_get(t, c);
    return handle_delete(t, c);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    http_transport *t = cls;
    (void)toe;
    http_guard_request_done(t->guard, c);
    http_request *req = *con_cls;
    if (!req) return;
    free(req->body);
    free(req);
    *con_cls = NULL;
}

static void mhd_logger(void *cls, const char *format, va_list args)
{
    http_transport *t = cls;
    char message[512];
    vsnprintf(message, sizeof message, format, args);
    size_t n = strlen(message);
    while (n > 0 && (message[n - 1] == '\n' || message[n - 1] == ' ')) message[--n] = '\0';
    /* What happens to one connection (a client went away, the connection
     * limit) is routine under load or attack; the rest is worth a warning. */
    int routine = strstr(message, "onnection") != NULL;
    http_log_noise(t, routine ? MH_LOG_INFO : MH_LOG_WARNING, "libmicrohttpd: %s", message);
}

/* ---- serve and stop ---- */

/* Closes connections past their request deadlines or beyond the pending
 * limits (http_guard.h) and says so in one line per 10 s at most.
 * [main-thread] */
static void guard_connections(http_transport *t)
{
    http_guard_closed *closed = &t->guard_closed;
    http_guard_sweep(t->guard, closed);
    size_t total = closed->header_deadline + closed->body_deadline + closed->pending_limit;
    double now = http_now();
    if (total && now - t->guard_reported >= NOISE_WINDOW_SECONDS) {
        http_log(t, MH_LOG_INFO,
                 "closed %zu connections: %zu sent no whole request header within %u s, %zu "
                 "no body within %u s, %zu were the oldest beyond the limits on connections "
                 "that have not sent a request (%zu in all, %zu per address)",
                 total, closed->header_deadline, t->limits.header_timeout,
                 closed->body_deadline, t->limits.body_timeout, closed->pending_limit,
                 t->limits.max_pending, t->limits.max_pending_per_address);
        memset(closed, 0, sizeof *closed);
        t->guard_reported = now;
    }
    flush_noise(t);
}

/* Stops accepting, lets streams drain what they hold, ends every session. */
static void shutdown_all(http_transport *t)
{
    MHD_socket listen_fd = MHD_quiesce_daemon(t->daemon);
    if (listen_fd != MHD_INVALID_SOCKET) close(listen_fd);
    pthread_mutex_lock(&t->lock);
    atomic_store(&t->stopping, 1);
    http_session **list = t->sessions;
    size_t count = t->session_count;
    t->sessions = NULL;
    t->session_count = t->session_cap = 0;
    pthread_mutex_unlock(&t->lock);
    for (size_t i = 0; i < count; i++) http_session_wake(list[i]);
    /* Writers end once they have written what is queued; give them a moment. */
    double until = http_now() + 1.0;
    for (;;) {
        size_t writers = 0;
        for (size_t i = 0; i < count; i++) {
            pthread_mutex_lock(&list[i]->lock);
            writers += list[i]->writers;
            pthread_mutex_unlock(&list[i]->lock);
        }
        if (writers == 0 || http_now() > until) break;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    for (size_t i = 0; i < count; i++) retire_session(list[i]);
    free(list);
    MHD_stop_daemon(t->daemon);
    t->daemon = NULL;
    http_guard_free(t->guard);
    t->guard = NULL;
}

mh_status http_serve(void *user, const mh_transport_options *options)
{
    http_transport *t = user;
    if (http_settings_read(t, options) != 0) return MH_ERR_INVALID_ARGUMENT;
    const char *bind = options && options->bind_host ? options->bind_host : "127.0.0.1";
    t->port = options ? options->port : 6510; /* 0: any free port, read back below */
    snprintf(t->bind_host, sizeof t->bind_host, "%s", bind);
    const char *token = options && options->token && *options->token ? options->token : NULL;

    struct sockaddr_storage addr;
    size_t addr_len = 0;
    char error[512];
    if (http_resolve_bind(bind, t->port, &addr, &addr_len, &t->loopback, &t->wildcard, error,
                          sizeof error) != 0) {
        http_log(t, MH_LOG_CRITICAL, "%s", error);
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (!t->loopback && !token) {
        http_log(t, MH_LOG_CRITICAL,
                 "refusing to serve MCP on %s without a token: anyone who can reach that "
                 "address could drive the machine. Bind to 127.0.0.1 (the default), or set a "
                 "token with --token or MCPHOST_TOKEN and give it to your MCP client",
                 bind);
        return MH_ERR_INVALID_ARGUMENT;
    }
    free(t->token);
    t->token = token ? strdup(token) : NULL;
    if (token && !t->token) return MH_ERR_NO_MEMORY;

    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
                     MHD_USE_AUTO | MHD_USE_ITC | MHD_USE_ERROR_LOG;
    if (addr.ss_family == AF_INET6) flags |= MHD_USE_IPv6;
    atomic_store(&t->stopping, 0);
    t->stop_requested = 0;
    t->guard = http_guard_new(&t->limits);
    if (!t->guard) return MH_ERR_NO_MEMORY;
    t->daemon = MHD_start_daemon(
        flags, t->port, NULL, NULL, on_request, t, MHD_OPTION_EXTERNAL_LOGGER, mhd_logger, t,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr, MHD_OPTION_CONNECTION_LIMIT,
        (unsigned)t->limits.max_connections, MHD_OPTION_CONNECTION_TIMEOUT,
        t->limits.connection_timeout, MHD_OPTION_NOTIFY_COMPLETED, on_completed, t,
        MHD_OPTION_NOTIFY_CONNECTION, http_guard_notify, t->guard, MHD_OPTION_END);
    if (!t->daemon) {
        http_guard_free(t->guard);
        t->guard = NULL;
        http_log(t, MH_LOG_CRITICAL,
                 "cannot listen on %s port %u (is another program using it? choose another with "
                 "--port)",
                 bind, t->port);
        return MH_ERR_IO;
    }
    const union MHD_DaemonInfo *bound = MHD_get_daemon_info(t->daemon, MHD_DAEMON_INFO_BIND_PORT);
    if (bound && bound->port) t->port = bound->port;
    http_log(t, MH_LOG_INFO, "serving MCP (Streamable HTTP) on http://%s%s%s:%u" ENDPOINT "%s",
             addr.ss_family == AF_INET6 ? "[" : "", bind, addr.ss_family == AF_INET6 ? "]" : "",
             t->port, t->token ? " (bearer token required)" : "");

    pthread_mutex_lock(&t->lock);
    while (!t->stop_requested) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&t->wake, &t->lock, &ts);
        if (t->stop_requested) break;
        pthread_mutex_unlock(&t->lock);
        expire_sessions(t);
        guard_connections(t);
        pthread_mutex_lock(&t->lock);
    }
    pthread_mutex_unlock(&t->lock);
    shutdown_all(t);
    http_log(t, MH_LOG_INFO, "stopped serving MCP on port %u", t->port);
    return MH_OK;
}

void http_stop(void *user)
{
    http_transport *t = user;
    pthread_mutex_lock(&t->lock);
    t->stop_requested = 1;
    pthread_cond_broadcast(&t->wake);
    pthread_mutex_unlock(&t->lock);
}

static void http_deinit(void *data)
{
    http_transport *t = data;
    if (!t) return;
    pthread_mutex_destroy(&t->lock);
    pthread_mutex_destroy(&t->noise_lock);
    pthread_cond_destroy(&t->wake);
    free(t->sessions);
    free(t->token);
    free(t);
}

static mh_status http_init(const mh_host *host, void **data)
{
    const mh_registry_service *reg = host->get_service(host, MH_REGISTRY_SERVICE_ID);
    const mh_server_service *server = host->get_service(host, MH_SERVER_SERVICE_ID);
    /* protocol_versions() came with ABI 1.1: an older host cannot serve us. */
    if (!reg || !server ||
        server->struct_size < offsetof(mh_server_service, protocol_versions) +
                                  sizeof server->protocol_versions)
        return MH_ERR_VERSION;
    http_transport *t = calloc(1, sizeof *t);
    if (!t) return MH_ERR_NO_MEMORY;
    t->host = host;
    t->server = server;
    t->log = host->get_service(host, MH_LOG_SERVICE_ID);
    pthread_mutex_init(&t->lock, NULL);
    pthread_mutex_init(&t->noise_lock, NULL);
    t->noise_window = http_now();
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&t->wake, &attr);
    pthread_condattr_destroy(&attr);
    atomic_init(&t->stopping, 0);
    *data = t;
    mh_transport_desc desc = {sizeof desc, "http",
                              "MCP Streamable HTTP on http://127.0.0.1:6510/mcp (--host, --port, "
                              "--token)",
                              http_serve, http_stop, t};
    mh_status status = reg->add_transport(host, &desc);
    if (status != MH_OK) {
        http_deinit(t);
        *data = NULL;
    }
    return status;
}

MH_PLUGIN_DEFINE("org.mcphost.transport-http", "transport-http", "0.1.0",
                 "MCP over Streamable HTTP (libmicrohttpd)", MH_PLUGIN_TRANSPORT, http_init,
                 http_deinit);
