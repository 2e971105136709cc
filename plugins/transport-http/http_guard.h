/* http_guard.h - keeps connections that have not sent a whole request from
 * exhausting the server before anyone is authenticated.
 *
 * libmicrohttpd's own connection timeout counts inactivity, so a client that
 * trickles a byte now and then holds a connection forever, and 256 of them
 * lock everyone out. The guard tracks every connection from accept to close
 * (MHD_OPTION_NOTIFY_CONNECTION) and, once a second (http_guard_sweep):
 *   - closes a connection that has not sent a whole request header within
 *     header_timeout of its accept or of the end of its previous request, or
 *     its body within body_timeout of the header: a deadline, not an
 *     inactivity timer, so trickling does not extend it;
 *   - closes the oldest "pending" connections (no request of theirs has
 *     passed the checks yet, and none is being read) beyond
 *     max_pending_per_address per client address and max_pending in all, so
 *     that room stays for the token holder. Connections younger than
 *     HTTP_GUARD_GRACE_SECONDS are never closed for the limits: a burst of
 *     honest clients sends its headers well within that.
 * A connection is closed with shutdown(): its libmicrohttpd thread sees the
 * end and cleans up as for any client that went away.
 *
 * Threads: every function is [thread-safe]; the notify callback runs on
 * libmicrohttpd's threads. Ownership: the guard owns its records; the
 * transport owns the guard (http_guard_new/free around the daemon's life).
 */
#ifndef MH_HTTP_GUARD_H
#define MH_HTTP_GUARD_H

#include <stddef.h>

#include <microhttpd.h>

#include "http_session.h"

#define HTTP_GUARD_GRACE_SECONDS 2.0

typedef struct http_guard http_guard;

/* Connections closed by the guard since the last sweep, by reason. */
typedef struct http_guard_closed {
    size_t header_deadline, body_deadline, pending_limit;
} http_guard_closed;

/* A guard enforcing *limits (borrowed; must outlive the guard). NULL when
 * out of memory. */
http_guard *http_guard_new(const http_limits *limits);
/* Frees the guard; call after the daemon has stopped. */
void http_guard_free(http_guard *g);

/* The MHD_OPTION_NOTIFY_CONNECTION callback; cls is the guard. */
void http_guard_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                       enum MHD_ConnectionNotificationCode code);

/* The connection's request header is in (its body deadline starts); with
 * `passed`, the request passed the Host, Origin and token checks, so the
 * connection no longer counts as pending. */
void http_guard_header_in(http_guard *g, struct MHD_Connection *c, int passed);
/* The request's body is in: no deadline while it is answered. */
void http_guard_body_in(http_guard *g, struct MHD_Connection *c);
/* The request is answered: the next header's deadline starts. */
void http_guard_request_done(http_guard *g, struct MHD_Connection *c);

/* Closes the connections past a deadline or beyond the pending limits and
 * adds what it closed to *closed. */
void http_guard_sweep(http_guard *g, http_guard_closed *closed);

#endif
