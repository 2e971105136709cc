/* http_session.h - the state behind Streamable HTTP: MCP sessions (one
 * mh_conn each), exchanges (one per POSTed JSON-RPC request) and SSE streams
 * with numbered, replayable events.
 *
 * Model:
 *   - A session owns a list of streams. A stream is a sequence of SSE events
 *     numbered 0, 1, 2 ... (event 0 is the priming event with empty data);
 *     an event id is "<stream>-<seq>". Each stream keeps its newest events in
 *     a bounded ring, which is both the send queue of the connection writing
 *     it and the replay buffer for Last-Event-ID.
 *   - A POST stream carries the messages of one request and is complete when
 *     the host calls done(). A GET stream carries server notifications
 *     (exchange NULL) and is complete only when the session ends; the newest
 *     GET stream receives them, so no message goes to two streams.
 *   - At most one HTTP connection (a writer) writes a stream at a time; a
 *     GET with Last-Event-ID takes the stream over and replays what follows.
 *   - send()/done() only append to a ring under the session lock and wake
 *     writers: they never block on a client. A writer that falls so far
 *     behind that an event it has not written yet must be evicted is dropped
 *     (its connection ends; the client may resume what is still buffered).
 *
 * Ownership: sessions, streams and exchanges are reference counted (see
 * http_session.c); everything is freed with its last reference.
 * Threads: every function is [thread-safe] unless it says "lock held". The
 * session lock is never held while calling into the host or logging.
 */
#ifndef MH_HTTP_SESSION_H
#define MH_HTTP_SESSION_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "mcphost/mcphost.h"

typedef struct http_transport http_transport;
typedef struct http_session http_session;
typedef struct http_stream http_stream;
typedef struct http_writer http_writer;
typedef struct http_exchange http_exchange;

/* Limits and timings; zero-initialised fields take the defaults in
 * http_limits_defaults(). */
typedef struct http_limits {
    size_t max_sessions;        /* MCP sessions at once (64) */
    size_t max_streams;         /* SSE connections per session (16) */
    size_t max_detached;        /* streams kept for resumption per session (8) */
    size_t ring_events;         /* events buffered per stream (1024) */
    size_t ring_bytes;          /* bytes buffered per stream (8 MiB) */
    size_t max_body;            /* POST body (4 MiB) */
    size_t max_connections;     /* HTTP connections (256) */
    unsigned idle_seconds;      /* idle session expiry (1800) */
    unsigned evict_idle_seconds;/* a full table may end sessions idle this long (60) */
    unsigned json_window_ms;    /* how long a POST waits to answer as JSON (50) */
    unsigned keepalive_ms;      /* SSE comment when a stream is quiet (15000) */
    unsigned retry_ms;          /* SSE retry field in priming events (1000) */
    unsigned connection_timeout;/* seconds of inactivity before MHD drops a connection (60) */
    size_t max_pending;         /* connections still sending their request (64) */
    size_t max_pending_per_address; /* of those, from one client address (16) */
    unsigned header_timeout;    /* seconds to send a whole request header (10) */
    unsigned body_timeout;      /* seconds to send a request body once its header is in (60) */
} http_limits;

void http_limits_defaults(http_limits *limits);

typedef enum http_stream_kind { HTTP_STREAM_POST, HTTP_STREAM_GET } http_stream_kind;

typedef enum http_exchange_mode {
    HTTP_EX_DECIDING, /* the POST handler has not chosen JSON or SSE yet */
    HTTP_EX_SSE,      /* messages go to ex->stream */
    HTTP_EX_JSON,     /* the answer went out as JSON; later messages are dropped */
    HTTP_EX_JSON_WAIT /* JSON only: keep the response, drop notifications */
} http_exchange_mode;

/* A held outgoing message (DECIDING / JSON_WAIT). */
typedef struct http_message {
    char *json;
    size_t length;
    int is_response;
} http_message;

struct http_exchange {
    http_session *session;       /* with a reference */
    int refs;                    /* lock held: host (until done) + POST handler */
    http_exchange_mode mode;
    int host_done;
    http_message *held;          /* DECIDING: in order; JSON_WAIT: the response */
    size_t held_count, held_cap;
    http_stream *stream;         /* SSE: with a reference */
};

struct http_session {
    http_transport *transport;
    atomic_int refs;
    char id[33];                 /* 32 hex digits */
    mh_conn *conn;
    pthread_mutex_t lock;
    pthread_cond_t cond;         /* any change: events, decisions, endings */
    /* lock held: */
    int ending;                  /* no new handle() calls */
    int ended;                   /* closed: every stream complete */
    int handling;                /* handle() calls running */
    size_t writers;              /* SSE connections attached */
    size_t exchanges;            /* exchanges the host has not finished */
    uint32_t next_stream_id;
    http_stream *streams;        /* newest first */
    double last_activity;        /* monotonic seconds */
    int used;                    /* sent a request after initialize, or opened a GET */
};

/* Monotonic clock in seconds. */
double http_now(void);

/* A new session with one reference (the caller's); not yet open. */
http_session *http_session_new(http_transport *t);
void http_session_ref(http_session *s);
void http_session_unref(http_session *s);

/* An exchange for one POSTed request: two references (host and handler). */
http_exchange *http_exchange_new(http_session *s);
/* Drops the POST handler's reference. Lock held. */
void http_exchange_release_locked(http_exchange *ex);

/* The mh_conn_desc callbacks (user_data is the session). */
void http_session_send(void *user, void *exchange, const char *json, size_t length);
void http_session_done(void *user, void *exchange);
/* The exchange given to handle() for client notifications and responses:
 * nothing is sent for it. */
extern char http_sink_exchange;

/* Streams. Lock held for all. */
http_stream *http_stream_new_locked(http_session *s, http_stream_kind kind);
http_stream *http_stream_find_locked(http_session *s, uint32_t id);
void http_stream_unref_locked(http_stream *st);
/* Pushes the priming event (empty data, the retry time) a new stream starts
 * with, so the client has an id to resume from. */
void http_stream_prime_locked(http_stream *st);
/* The number of the stream's next event (one past the newest). */
uint64_t http_stream_next_seq_locked(const http_stream *st);
/* Whether a connection is writing the stream now. */
int http_stream_attached_locked(const http_stream *st);
/* Moves an exchange to SSE: a new POST stream with the priming event and the
 * held messages. Returns the stream (the exchange holds a reference), or NULL
 * when out of memory. */
http_stream *http_exchange_to_sse_locked(http_exchange *ex);

/* A writer is the content source of one SSE HTTP response. It attaches to a
 * stream (taking over from any previous writer) and starts after event
 * `after` (so -1 starts at event 0). */
http_writer *http_writer_attach_locked(http_stream *st, int64_t after);
/* The libmicrohttpd content reader and free callbacks for a writer. */
ssize_t http_writer_read(void *cls, uint64_t pos, char *buf, size_t max);
void http_writer_free(void *cls);

/* Ends a session: no new requests, closes its mh_conn (cancels what runs,
 * waits for handlers), completes its streams. Blocks; call without locks. */
void http_session_end(http_session *s);

/* Wakes every waiter of the session (transport stopping). */
void http_session_wake(http_session *s);

#endif
