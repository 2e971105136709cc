/* mcphost/transport.h - how a transport plugin carries JSON-RPC between MCP
 * clients and the host: the transport descriptor it registers, and the
 * "mh.server/1" service it feeds messages into.
 *
 * A transport opens one mh_conn per MCP client connection (one for stdio; one
 * per Mcp-Session-Id over HTTP), hands each incoming JSON-RPC message to
 * handle() and writes what the host sends through mh_conn_desc.send().
 *
 * Each incoming message carries an opaque `exchange` pointer of the
 * transport's; every message the host sends in answer to it (the response and
 * the progress/log notifications of that request) carries the same pointer,
 * then done() tells the transport nothing more will come for it. Messages
 * that answer nothing (server notifications) carry exchange NULL.
 *
 * Ownership: the host copies incoming text before handle() returns; outgoing
 * text is only valid during send(). An mh_conn lives from open() to close();
 * after close() returns no callback is made for it.
 *
 * Threads: open/handle/close are [thread-safe]. send() and done() are called
 * on host threads (worker or emulation threads) and must be [thread-safe]
 * and must not block for long: a slow client must never stall emulation.
 */
#ifndef MCPHOST_TRANSPORT_H
#define MCPHOST_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_SERVER_SERVICE_ID "mh.server/1"

typedef struct mh_conn mh_conn;

typedef struct mh_conn_desc {
    uint32_t struct_size;
    const char *transport;    /* "stdio", "http" */
    void *user_data;
    /* One compact JSON-RPC message (no newline). */
    void (*send)(void *user_data, void *exchange, const char *json, size_t length);
    /* Nothing more will be sent for this exchange. May be NULL. */
    void (*done)(void *user_data, void *exchange);
} mh_conn_desc;

typedef struct mh_server_service {
    uint32_t struct_size;
    mh_conn *(*open)(const mh_host *host, const mh_conn_desc *desc);
    /* Hands one incoming message (a JSON-RPC request, notification, response
     * or batch) to the host. Returns at once; answers come through send(). */
    void (*handle)(mh_conn *conn, void *exchange, const char *json, size_t length);
    /* Cancels the connection's requests, waits for running handlers to
     * finish, and frees it. */
    void (*close)(mh_conn *conn);
    /* The MCP protocol version the connection negotiated, or NULL before
     * initialize. */
    const char *(*protocol_version)(mh_conn *conn);
    /* The MCP protocol versions the host serves, newest first,
     * NULL-terminated (static). Since ABI 1.1. */
    const char *const *(*protocol_versions)(void);
} mh_server_service;

/* Settings from the command line that a transport may use. */
typedef struct mh_transport_options {
    uint32_t struct_size;
    const char *bind_host; /* --host, default "127.0.0.1" */
    uint16_t port;         /* --port, default 6510; 0: any free port (the transport
                              logs the one it got) */
    const char *token;     /* --token or MCPHOST_TOKEN, may be NULL */
    /* Since ABI 1.2 (check struct_size): the --transport-option NAME=VALUE
     * texts in command-line order (a later one wins); the transport refuses
     * a name it does not know. Valid during serve(). */
    const char *const *settings;
    size_t setting_count;
} mh_transport_options;

/* Whether options (may be NULL) carries settings: from a host of ABI 1.2 or
 * later. */
#define MH_TRANSPORT_OPTIONS_HAVE_SETTINGS(options)                                          \
    ((options) && (options)->struct_size >= offsetof(mh_transport_options, setting_count) + \
                                                sizeof(options)->setting_count)

typedef struct mh_transport_desc {
    uint32_t struct_size;
    const char *name;        /* the --transport value */
    const char *description;
    /* Serves until the input ends or stop() is called; returns MH_OK on a
     * clean end. Runs on a thread of its own that the host starts for it
     * (the main thread may belong to a frontend). [transport-thread] */
    mh_status (*serve)(void *user_data, const mh_transport_options *options);
    /* Makes serve() return soon. [thread-safe] */
    void (*stop)(void *user_data);
    void *user_data;
} mh_transport_desc;

#ifdef __cplusplus
}
#endif
#endif
