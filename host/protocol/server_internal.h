/* host/protocol/server_internal.h - the MCP server's state, shared by the
 * files that make it up (never used outside host/protocol):
 *   server.c             the protocol core: connections, requests, sending,
 *                        dispatch, cancellation, closing
 *   server_initialize.c  initialize: version negotiation, client info
 *   server_events.c      event subscriptions and the fan-out of execution
 *                        and frame events (the server as an mh.observe/1
 *                        observer)
 *   server_ask.c         requests the server sends the client (sampling,
 *                        elicitation, roots) and their answers
 *   server_resources.c   resources/subscribe and notifications/resources/updated
 *   server_stateless.c   the stateless revision 2026-07-28 and server/discover
 * Locks: server->lock guards the connection list; conn->lock the fields
 * of a connection. */
#ifndef MH_HOST_SERVER_INTERNAL_H
#define MH_HOST_SERVER_INTERNAL_H

#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdatomic.h>

#include "hostctx.h"
#include "ptrvec.h"
#include "server.h"
#include "window_client.h"
#include "workers.h"

/* Threads that run host tools (ping, host_info, session_create ...). */
#define MH_HOST_TOOL_THREADS 4

/* How long closing a connection waits for running requests to answer. */
#define MH_CLOSE_GRACE_SECONDS 2

/* mh_request.cancelled: why a request was cancelled. */
#define MH_CANCELLED_BY_CLIENT 1 /* notifications/cancelled: no response */
#define MH_CANCELLED_BY_CLOSE 2  /* its connection closed: a -32000 error */
/* The MCP SDKs' code for "connection closed". */
#define MH_ERR_CODE_CONNECTION_CLOSED (-32000)

struct mh_server {
    mh_hostctx *ctx;
    uint64_t observer_id; /* execution events from mh.observe/1 */
    uint64_t frame_observer_id; /* frames, from the first frame subscription on (under lock) */
    int frame_observer_adding;
    mh_window_client *window; /* in-process tool calls, made on first use (under lock) */
    pthread_mutex_t lock;
    mh_ptrvec conns;
    size_t page_size;
    mh_workers *workers; /* host tools run here */
    /* Per event type: subscriptions that take it, over all connections, so
     * a session asks cheaply whether anyone wants its frames. */
    atomic_uint subscribed[MH_EVENT_TYPE_COUNT + 1];
    /* What tools/list showed last (tools_listed.h), to send list_changed. */
    _Atomic uint64_t tools_listed_hash;
    _Atomic uint64_t next_conn_id; /* session owners (session_access.c) */
    struct mh_confirm *confirm;    /* confirmation tokens (confirm.c) */
    _Atomic unsigned long long next_internal; /* ids of mh_request_internal() */
    /* Resource subscriptions (server_resources.c): their count over all
     * connections, and the observers that tell of changes. */
    atomic_uint resource_subscriptions;
    uint64_t resource_observer_id;
    uint64_t resource_frame_observer_id; /* from the first subscription that wants frames (under lock) */
    int resource_frame_observer_adding;
};

struct mh_conn {
    mh_server *server;
    mh_conn_desc desc;
    pthread_mutex_t lock;
    pthread_cond_t idle;
    int pending;      /* requests not yet answered */
    int closing;
    int initialized;  /* initialize answered */
    char protocol_version[16];
    int log_level;    /* notifications/message threshold, -1: none */
    char current_session[64];
    char client[96];  /* "name version (transport)" from initialize's clientInfo */
    mh_ptrvec inflight; /* mh_request* */
    mh_ptrvec subscriptions; /* event_subscription* */
    cJSON *client_caps;       /* initialize params.capabilities, or NULL */
    mh_ptrvec outgoing;       /* outgoing_request*: requests we sent the client */
    unsigned next_outgoing;
    pthread_cond_t answered;  /* an outgoing request got its answer */
    uint64_t id;              /* from 1; owns the sessions it creates (session_access.c) */
    mh_ptrvec resource_subs;  /* resource_subscription* (server_resources.c) */
};

/* A request the host sent the client (ask_client), waiting for its answer. */
typedef struct outgoing_request {
    char id[32];
    cJSON *answer; /* the result, or the error object */
    int is_error;
    int arrived;
} outgoing_request;

typedef struct event_subscription {
    char session[64];
    uint32_t types; /* bit n set: event type n */
    uint32_t every_n_frames; /* frame events: only frames whose number is a multiple (>= 1) */
} event_subscription;

struct mh_request {
    mh_conn *conn;
    void *exchange;
    cJSON *id;
    cJSON *progress_token;
    atomic_int cancelled;
    /* A request the server made itself (mh_request_internal): its answer
     * goes to internal_answer instead of the client. */
    mh_internal_answer_fn internal_answer;
    void *internal_user;
    /* The protocol version of a stateless (2026-07-28) request, from its
     * _meta; "" for a request of an initialized connection. */
    char modern_version[16];
};

/* server.c: one message to the client (a response, request or
 * notification) on the exchange (NULL: none). */
void mh_server_send_message(mh_conn *conn, void *exchange, cJSON *message);
void mh_server_send_notification(mh_conn *conn, void *exchange, const char *method,
                                 cJSON *params);
/* server_events.c: the server's observers, and a closing connection's
 * subscriptions. */
void mh_server_events_start(mh_server *server);
void mh_server_events_stop(mh_server *server);
void mh_server_drop_subscriptions(mh_conn *conn);
/* confirm.c: the token store of a server. */
struct mh_confirm *mh_confirm_new(void);
void mh_confirm_free(struct mh_confirm *store);
/* session_access.c: a closing connection's sessions become orphans. */
void mh_server_orphan_sessions(mh_conn *conn);
/* server_stateless.c: a request that carries the stateless revision's
 * _meta (2026-07-28) is served without initialize. Returns 1 for such a
 * request (req->modern_version set), 0 for a request of the initialize
 * era, -1 when it was refused (answered: unsupported version, missing
 * _meta fields, a method the revision removed). */
int mh_server_stateless_request(mh_request *req, const char *method, const cJSON *params);
/* server_resources.c: resources/subscribe's bookkeeping and
 * notifications/resources/updated. */
void mh_server_resources_start(mh_server *server);
void mh_server_resources_stop(mh_server *server);
void mh_server_drop_resource_subscriptions(mh_conn *conn);
/* server_ask.c: a client's answer to a request the server sent. */
void mh_server_deliver_answer(mh_conn *conn, const cJSON *id, const cJSON *result,
                              const cJSON *error);

#endif
