/* http_session.c - sessions, exchanges, SSE streams and their writers for
 * transport-http. The model is described in http_session.h. */
#include "http_session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <microhttpd.h>

#include "mcphost/json.h"

#include "transport_http.h"

char http_sink_exchange;

typedef struct http_event {
    uint64_t seq;
    char *text; /* the whole SSE event, "id: ...\ndata: ...\n\n" */
    size_t length;
} http_event;

struct http_stream {
    http_session *session; /* streams never outlive their session */
    uint32_t id;
    http_stream_kind kind;
    int refs;              /* list membership + exchange + writer */
    int in_list;
    http_event *ring;
    size_t ring_cap, ring_head, ring_count, ring_bytes;
    uint64_t next_seq;     /* seq of the next event */
    uint64_t written;      /* every event below this was written to a client */
    int complete;          /* no more events will come */
    http_writer *writer;   /* the connection writing it, or NULL */
    http_stream *next;
};

struct http_writer {
    http_session *session; /* with a reference */
    http_stream *stream;   /* with a reference */
    uint64_t next;         /* seq of the next event to write */
    int dropped;           /* overflow or taken over: end the response */
    char *buf;
    size_t len, off, cap;
    double last_write;
};

void http_limits_defaults(http_limits *l)
{
#define DEFAULT(field, value) \
    if (!l->field) l->field = (value)
    DEFAULT(max_sessions, 64);
    DEFAULT(max_streams, 16);
    DEFAULT(max_detached, 8);
    DEFAULT(ring_events, 1024);
    DEFAULT(ring_bytes, 8u << 20);
    DEFAULT(max_body, 4u << 20);
    DEFAULT(max_connections, 256);
    DEFAULT(idle_seconds, 1800);
    DEFAULT(evict_idle_seconds, 60);
    DEFAULT(json_window_ms, 50);
    DEFAULT(keepalive_ms, 15000);
    DEFAULT(retry_ms, 1000);
    DEFAULT(connection_timeout, 60);
    DEFAULT(max_pending, 64);
    DEFAULT(max_pending_per_address, 16);
    DEFAULT(header_timeout, 10);
    DEFAULT(body_timeout, 60);
#undef DEFAULT
}

double http_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* An absolute CLOCK_MONOTONIC deadline `seconds` from now. */
static struct timespec deadline_in(double seconds)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    if (seconds < 0) seconds = 0;
    long sec = (long)seconds;
    ts.tv_sec += sec;
    ts.tv_nsec += (long)((seconds - (double)sec) * 1e9);
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    return ts;
}

/* ---- sessions ---- */

http_session *http_session_new(http_transport *t)
{
    http_session *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->transport = t;
    atomic_init(&s->refs, 1);
    pthread_mutex_init(&s->lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cond, &attr);
    pthread_condattr_destroy(&attr);
    s->next_stream_id = 1;
    s->last_activity = http_now();
    return s;
}

void http_session_ref(http_session *s) { atomic_fetch_add(&s->refs, 1); }

static void stream_free(http_stream *st)
{
    for (size_t i = 0; i < st->ring_count; i++) free(st->ring[(st->ring_head + i) % st->ring_cap].text);
    free(st->ring);
    free(st);
}

void http_session_unref(http_session *s)
{
    if (!s || atomic_fetch_sub(&s->refs, 1) != 1) return;
    /* The last reference: no writer or exchange is left, so every stream is
     * held by the list alone. */
    http_stream *st = s->streams;
    while (st) {
        http_stream *next = st->next;
        stream_free(st);
        st = next;
    }
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->cond);
    free(s);
}

void http_session_wake(http_session *s)
{
    pthread_mutex_lock(&s->lock);
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
}

/* ---- streams ---- */

void http_stream_unref_locked(http_stream *st)
{
    if (--st->refs == 0) stream_free(st);
}

static void unlink_stream_locked(http_session *s, http_stream *st)
{
    for (http_stream **p = &s->streams; *p; p = &(*p)->next) {
        if (*p == st) {
            *p = st->next;
            st->next = NULL;
            st->in_list = 0;
            http_stream_unref_locked(st);
            return;
        }
    }
}

/* Drops streams nobody can want any more: complete, unattached and fully
 * written; then the oldest unattached ones beyond the resumption limit. */
static void prune_locked(http_session *s)
{
    http_stream *st = s->streams;
    while (st) {
        http_stream *next = st->next;
        if (st->complete && !st->writer && st->written >= st->next_seq) unlink_stream_locked(s, st);
        st = next;
    }
    size_t detached = 0;
    st = s->streams;
    while (st) {
        http_stream *next = st->next;
        if (!st->writer && ++detached > s->transport->limits.max_detached) unlink_stream_locked(s, st);
        st = next;
    }
}

http_stream *http_stream_new_locked(http_session *s, http_stream_kind kind)
{
    http_stream *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    st->session = s;
    st->id = s->next_stream_id++;
    st->kind = kind;
    st->refs = 1; /* the list */
    st->in_list = 1;
    st->complete = s->ended;
    st->next = s->streams;
    s->streams = st;
    prune_locked(s);
    return st;
}

http_stream *http_stream_find_locked(http_session *s, uint32_t id)
{
    for (http_stream *st = s->streams; st; st = st->next)
        if (st->id == id) return st;
    return NULL;
}

/* The stream that gets server notifications: the newest GET stream. */
static http_stream *notify_stream_locked(http_session *s)
{
    for (http_stream *st = s->streams; st; st = st->next)
        if (st->kind == HTTP_STREAM_GET && !st->complete) return st;
    return NULL;
}

/* Formats one SSE event: the id, then the data split into lines. */
static char *format_event(uint32_t stream, uint64_t seq, unsigned retry_ms, const char *data,
                          size_t length, size_t *out_length)
{
    size_t lines = 1;
    for (size_t i = 0; i < length; i++) lines += data[i] == '\n';
    size_t cap = 64 + length + lines * 7;
    char *text = malloc(cap);
    if (!text) return NULL;
    int n = snprintf(text, cap, "id: %u-%llu\n", stream, (unsigned long long)seq);
    size_t at = (size_t)n;
    if (retry_ms) at += (size_t)snprintf(text + at, cap - at, "retry: %u\n", retry_ms);
    size_t start = 0;
    for (size_t i = 0; i <= length; i++) {
        if (i < length && data[i] != '\n') continue;
        size_t end = i;
        if (end > start && data[end - 1] == '\r') end--;
        memcpy(text + at, "data: ", 6);
        at += 6;
        memcpy(text + at, data + start, end - start);
        at += end - start;
        text[at++] = '\n';
        start = i + 1;
    }
    text[at++] = '\n';
    text[at] = '\0';
    *out_length = at;
    return text;
}

/* Appends one event. Returns 1 when the attached writer had to be dropped
 * because it fell behind the ring, -1 when out of memory, else 0. */
static int push_locked(http_stream *st, const char *data, size_t length, int priming)
{
    http_session *s = st->session;
    const http_limits *lim = &s->transport->limits;
    if (st->complete) return 0;
    size_t text_length = 0;
    char *text = format_event(st->id, st->next_seq, priming ? lim->retry_ms : 0, data, length,
                              &text_length);
    if (!text) return -1;
    int dropped = 0;
    while (st->ring_count > 0 &&
           (st->ring_count >= lim->ring_events || st->ring_bytes + text_length > lim->ring_bytes)) {
        http_event *old = &st->ring[st->ring_head];
        if (st->writer && st->writer->next <= old->seq) {
            st->writer->dropped = 1; /* it ends at its next read */
            st->writer = NULL;
            dropped = 1;
        }
        st->ring_bytes -= old->length;
        free(old->text);
        st->ring_head = (st->ring_head + 1) % st->ring_cap;
        st->ring_count--;
    }
    if (st->ring_count == st->ring_cap) {
        size_t cap = st->ring_cap ? st->ring_cap * 2 : 8;
        if (cap > lim->ring_events) cap = lim->ring_events;
        http_event *ring = malloc(cap * sizeof *ring);
        if (!ring) {
            free(text);
            return -1;
        }
        for (size_t i = 0; i < st->ring_count; i++) ring[i] = st->ring[(st->ring_head + i) % st->ring_cap];
        free(st->ring);
        st->ring = ring;
        st->ring_cap = cap;
        st->ring_head = 0;
    }
    http_event *ev = &st->ring[(st->ring_head + st->ring_count) % st->ring_cap];
    ev->seq = st->next_seq++;
    ev->text = text;
    ev->length = text_length;
    st->ring_count++;
    st->ring_bytes += text_length;
    pthread_cond_broadcast(&s->cond);
    return dropped;
}

/* ---- exchanges ---- */

http_exchange *http_exchange_new(http_session *s)
{
    http_exchange *ex = calloc(1, sizeof *ex);
    if (!ex) return NULL;
    ex->session = s;
    http_session_ref(s);
    ex->refs = 2;
    ex->mode = HTTP_EX_DECIDING;
    pthread_mutex_lock(&s->lock);
    s->exchanges++;
    pthread_mutex_unlock(&s->lock);
    return ex;
}

static void free_held(http_exchange *ex)
{
    for (size_t i = 0; i < ex->held_count; i++) free(ex->held[i].json);
    free(ex->held);
    ex->held = NULL;
    ex->held_count = ex->held_cap = 0;
}

/* Drops one reference; returns 1 when the exchange was freed (the caller
 * then drops the exchange's session reference after unlocking). */
static int exchange_unref_locked(http_exchange *ex)
{
    if (--ex->refs > 0) return 0;
    free_held(ex);
    if (ex->stream) http_stream_unref_locked(ex->stream);
    free(ex);
    return 1;
}

void http_exchange_release_locked(http_exchange *ex)
{
    http_session *s = ex->session;
    if (exchange_unref_locked(ex)) {
        /* The host's reference went first (done), so the session is still
         * referenced by the caller's own request; this cannot be the last. */
        atomic_fetch_sub(&s->refs, 1);
    }
}

static int hold_locked(http_exchange *ex, const char *json, size_t length, int is_response)
{
    if (ex->held_count == ex->held_cap) {
        size_t cap = ex->held_cap ? ex->held_cap * 2 : 4;
        http_message *held = realloc(ex->held, cap * sizeof *held);
        if (!held) return -1;
        ex->held = held;
        ex->held_cap = cap;
    }
    char *copy = malloc(length + 1);
    if (!copy) return -1;
    memcpy(copy, json, length);
    copy[length] = '\0';
    ex->held[ex->held_count++] = (http_message){copy, length, is_response};
    return 0;
}

/* True when a message is a JSON-RPC response (result or error, no method). */
static int is_response(const char *json, size_t length)
{
    mh_json_doc *doc = mh_json_parse(json, length, NULL, NULL);
    const mh_json *root = doc ? mh_json_root(doc) : NULL;
    int yes = root && !mh_json_object_get(root, "method") &&
              (mh_json_object_get(root, "result") || mh_json_object_get(root, "error"));
    mh_json_free(doc);
    return yes;
}

void http_stream_prime_locked(http_stream *st) { push_locked(st, "", 0, 1); }

int http_stream_attached_locked(const http_stream *st) { return st->writer != NULL; }

uint64_t http_stream_next_seq_locked(const http_stream *st) { return st->next_seq; }

http_stream *http_exchange_to_sse_locked(http_exchange *ex)
{
    http_session *s = ex->session;
    http_stream *st = http_stream_new_locked(s, HTTP_STREAM_POST);
    if (!st) return NULL;
    http_stream_prime_locked(st);
    for (size_t i = 0; i < ex->held_count; i++) push_locked(st, ex->held[i].json, ex->held[i].length, 0);
    free_held(ex);
    ex->mode = HTTP_EX_SSE;
    if (ex->host_done) {
        st->complete = 1;
    } else {
        ex->stream = st;
        st->refs++;
    }
    return st;
}

void http_session_send(void *user, void *exchange, const char *json, size_t length)
{
    http_session *s = user;
    if (exchange == &http_sink_exchange) return; /* nothing answers a client notification */
    http_exchange *ex = exchange;
    int dropped = 0, lost = 0;
    uint32_t stream_id = 0;
    pthread_mutex_lock(&s->lock);
    if (!ex) {
        http_stream *st = notify_stream_locked(s);
        if (st) {
            stream_id = st->id;
            dropped = push_locked(st, json, length, 0);
        }
    } else {
        switch (ex->mode) {
        case HTTP_EX_DECIDING:
            lost = hold_locked(ex, json, length, 0) != 0;
            pthread_cond_broadcast(&s->cond);
            break;
        case HTTP_EX_SSE:
            if (ex->stream) {
                stream_id = ex->stream->id;
                dropped = push_locked(ex->stream, json, length, 0);
            }
            break;
        case HTTP_EX_JSON_WAIT:
            /* Decided under the lock: the POST handler switches DECIDING to
             * JSON_WAIT under it, and a response classified before that
             * switch would be dropped. */
            if (is_response(json, length)) {
                free_held(ex);
                lost = hold_locked(ex, json, length, 1) != 0;
            }
            break;
        case HTTP_EX_JSON:
            break; /* answered already */
        }
    }
    pthread_mutex_unlock(&s->lock);
    if (dropped > 0)
        http_log(s->transport, MH_LOG_WARNING,
                 "session %.8s: stream %u: the client is not reading; more than %zu events or "
                 "%zu bytes queued, so its connection is dropped (it may resume with "
                 "Last-Event-ID)",
                 s->id, stream_id, s->transport->limits.ring_events, s->transport->limits.ring_bytes);
    if (dropped < 0 || lost)
        http_log(s->transport, MH_LOG_ERROR, "session %.8s: out of memory queueing a message",
                 s->id);
}

void http_session_done(void *user, void *exchange)
{
    http_session *s = user;
    if (!exchange || exchange == &http_sink_exchange) return;
    http_exchange *ex = exchange;
    pthread_mutex_lock(&s->lock);
    ex->host_done = 1;
    s->exchanges--;
    if (ex->stream) {
        ex->stream->complete = 1;
        http_stream_unref_locked(ex->stream);
        ex->stream = NULL;
        prune_locked(s);
    }
    pthread_cond_broadcast(&s->cond);
    int freed = exchange_unref_locked(ex);
    pthread_mutex_unlock(&s->lock);
    if (freed) http_session_unref(s);
}

/* ---- writers ---- */

http_writer *http_writer_attach_locked(http_stream *st, int64_t after)
{
    http_writer *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    http_session *s = st->session;
    w->session = s;
    http_session_ref(s);
    w->stream = st;
    st->refs++;
    if (st->writer) st->writer->dropped = 1; /* taken over by a resuming client */
    st->writer = w;
    s->writers++;
    w->next = after < 0 ? 0 : (uint64_t)after + 1;
    w->last_write = http_now();
    pthread_cond_broadcast(&s->cond);
    return w;
}

static int fill(http_writer *w, const char *text, size_t length)
{
    if (length > w->cap) {
        char *buf = realloc(w->buf, length);
        if (!buf) return -1;
        w->buf = buf;
        w->cap = length;
    }
    memcpy(w->buf, text, length);
    w->len = length;
    w->off = 0;
    return 0;
}

ssize_t http_writer_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    http_writer *w = cls;
    if (w->off == w->len) {
        http_session *s = w->session;
        http_transport *t = s->transport;
        http_stream *st = w->stream;
        pthread_mutex_lock(&s->lock);
        for (;;) {
            if (w->dropped) {
                pthread_mutex_unlock(&s->lock);
                return MHD_CONTENT_READER_END_WITH_ERROR;
            }
            if (st->ring_count) {
                uint64_t oldest = st->ring[st->ring_head].seq;
                if (w->next < oldest) w->next = oldest; /* resumed too late: the rest is gone */
                if (w->next < st->next_seq) {
                    http_event *ev = &st->ring[(st->ring_head + (w->next - oldest)) % st->ring_cap];
                    if (fill(w, ev->text, ev->length) != 0) {
                        pthread_mutex_unlock(&s->lock);
                        return MHD_CONTENT_READER_END_WITH_ERROR;
                    }
                    w->next++;
                    if (st->written < w->next) st->written = w->next;
                    w->last_write = http_now();
                    break;
                }
            } else if (w->next < st->next_seq) {
                w->next = st->next_seq;
            }
            if (st->complete || atomic_load(&t->stopping)) {
                pthread_mutex_unlock(&s->lock);
                return MHD_CONTENT_READER_END_OF_STREAM;
            }
            double now = http_now();
            double due = w->last_write + t->limits.keepalive_ms / 1000.0;
            if (now >= due) {
                static const char keepalive[] = ": keep-alive\n\n";
                fill(w, keepalive, sizeof keepalive - 1);
                w->last_write = now;
                break;
            }
            struct timespec until = deadline_in(due - now);
            int rc = pthread_cond_timedwait(&s->cond, &s->lock, &until);
            if (rc != 0 && rc != ETIMEDOUT) {
                pthread_mutex_unlock(&s->lock);
                return MHD_CONTENT_READER_END_WITH_ERROR;
            }
        }
        pthread_mutex_unlock(&s->lock);
    }
    size_t n = w->len - w->off;
    if (n > max) n = max;
    memcpy(buf, w->buf + w->off, n);
    w->off += n;
    return (ssize_t)n;
}

void http_writer_free(void *cls)
{
    http_writer *w = cls;
    if (!w) return;
    http_session *s = w->session;
    http_stream *st = w->stream;
    pthread_mutex_lock(&s->lock);
    if (st->writer == w) st->writer = NULL;
    s->writers--;
    s->last_activity = http_now();
    http_stream_unref_locked(st);
    prune_locked(s);
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
    http_session_unref(s);
    free(w->buf);
    free(w);
}

/* ---- ending ---- */

void http_session_end(http_session *s)
{
    http_transport *t = s->transport;
    pthread_mutex_lock(&s->lock);
    if (s->ending) {
        pthread_mutex_unlock(&s->lock);
        return;
    }
    s->ending = 1;
    while (s->handling > 0) pthread_cond_wait(&s->cond, &s->lock);
    mh_conn *conn = s->conn;
    pthread_mutex_unlock(&s->lock);
    /* Cancels running requests after a grace period; their done() calls
     * complete their streams. */
    if (conn) t->server->close(conn);
    pthread_mutex_lock(&s->lock);
    s->conn = NULL;
    s->ended = 1;
    for (http_stream *st = s->streams; st; st = st->next) st->complete = 1;
    prune_locked(s);
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
}
