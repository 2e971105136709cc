/* host/protocol/server.h - the MCP protocol core: JSON-RPC 2.0 parsing and
 * dispatch, the MCP lifecycle (initialize/version negotiation, initialized,
 * ping), tools, resources, prompts, completion, logging, progress and
 * cancellation, for every connection a transport opens.
 *
 * Ownership: the server owns its connections' state; transports own their
 * mh_conn_desc user data. Requests hold a reference on their connection, so
 * close() waits for running requests to answer.
 * Thread: [thread-safe]. */
#ifndef MH_HOST_SERVER_H
#define MH_HOST_SERVER_H

#include <cjson/cJSON.h>
#include "mcphost/events.h"
#include "mcphost/observe.h"
#include "mcphost/transport.h"

struct mh_hostctx;
typedef struct mh_server mh_server;
typedef struct mh_request mh_request;

mh_server *mh_server_new(struct mh_hostctx *ctx);
/* All connections must be closed first. */
void mh_server_free(mh_server *server);

/* Opens a connection directly (the mh.server/1 open() without a plugin). */
mh_conn *mh_server_open(mh_server *server, const mh_conn_desc *desc);

/* The protocol versions served, newest first, NULL-terminated. */
extern const char *const mh_protocol_versions[];

/* Page size of list results (tools/list ...); tests lower it. */
void mh_server_set_page_size(mh_server *server, size_t page_size);

/* The mh.server/1 service. */
extern const mh_server_service mh_server_service_impl;

/* For calls (call.c): notifications that belong to one request. */
void mh_request_progress(mh_request *req, double progress, double total, const char *message);
int mh_request_cancelled(mh_request *req);
void mh_request_log(mh_request *req, int level, const char *logger, const char *message);
/* Sends a request to the client of req (on req's exchange) and waits up to
 * timeout_ms (0: 60 s) for its answer. Returns the result (the caller
 * deletes it), or NULL with the reason in error: the client lacks the
 * capability the method needs (sampling, elicitation, roots), answered with
 * an error, timed out, or req was cancelled. Blocks the calling thread. */
cJSON *mh_request_ask_client(mh_request *req, const char *method, const cJSON *params,
                             uint32_t timeout_ms, char *error, size_t error_size);
/* The connection's current machine session name ("" for none) and setter. */
void mh_request_current_session(mh_request *req, char *out, size_t size);
/* Who sent the request: "name version (transport)" from initialize. */
void mh_request_client(mh_request *req, char *out, size_t size);
void mh_request_select_session(mh_request *req, const char *name);
struct mh_hostctx *mh_request_host(mh_request *req);

/* Session ownership (session_access.c): the request's connection id (a
 * session's owner); whether it may run a tool that changes session s
 * (read_only 1: always, and the session counts as used); if not, the
 * error naming session_attach is written into call and 0 returned. */
uint64_t mh_request_conn_id(mh_request *req);
/* Who owns what this request creates: its connection, or 0 (the server)
 * for a stateless (2026-07-28) request, which has no lasting client. */
uint64_t mh_request_owner_id(mh_request *req);
struct mh_call;
int mh_request_may_change(mh_request *req, mh_session *s, const char *tool, int read_only,
                          struct mh_call *call);
/* Sends notifications/mcphost/event {session, type, detail} to one
 * connection (detail is taken over). */
void mh_server_notify_conn(mh_server *server, uint64_t conn_id, const char *session,
                           const char *type, cJSON *detail);

/* Events (events.h): the connection's subscriptions, by session name and a
 * mask of event types (bit n = type n); frame events only for frames whose
 * number is a multiple of every_n_frames (0 or 1: every frame). Returns 0,
 * or -1 when out of memory
 * or (unsubscribe) not subscribed. */
int mh_request_subscribe(mh_request *req, const char *session, uint32_t types,
                         uint32_t every_n_frames);
int mh_request_unsubscribe(mh_request *req, const char *session);
/* (Execution events reach the server as an mh.observe/1 observer.) */

/* resources/subscribe and unsubscribe on the request's connection
 * (server_resources.c). Returns 0, or -1 when out of memory or
 * (unsubscribe) not subscribed. */
int mh_request_resource_subscribe(mh_request *req, const char *uri);
int mh_request_resource_unsubscribe(mh_request *req, const char *uri);

/* A request the server makes to itself on from's connection (a resource
 * read answered by a tool): method runs exactly as if the client had sent
 * it (validation, sessions, observers see the client), and its answer goes
 * to fn instead of the client: result (fn owns it) or, when result is NULL,
 * a JSON-RPC error code and message. fn runs on the thread that answers.
 * Returns -1 (fn not called) for an unknown method or out of memory. */
typedef void (*mh_internal_answer_fn)(void *user, cJSON *result, int code, const char *message);
int mh_request_internal(mh_request *from, const char *method, cJSON *params,
                        mh_internal_answer_fn fn, void *user);

/* A connection opened inside the process (window_client.c) skips
 * initialize: it takes the newest protocol version and this client name. */
int mh_server_mark_initialized(mh_conn *conn, const char *client);
/* mh.observe/1 call_tool(): a tools/call through the in-process "window"
 * connection. [thread-safe] */
mh_status mh_server_call_tool(mh_server *server, const char *session, const char *tool,
                              const char *arguments_json, mh_observe_result_fn done, void *user);

#endif
