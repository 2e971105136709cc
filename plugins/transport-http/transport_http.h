/* transport_http.h - the transport-http plugin's shared state (internal).
 * See docs/transport-http.md for the behaviour on the wire. */
#ifndef MH_TRANSPORT_HTTP_H
#define MH_TRANSPORT_HTTP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "http_guard.h"
#include "http_session.h"
#include "mcphost/mcphost.h"

struct MHD_Daemon;

struct http_transport {
    const mh_host *host;
    const mh_server_service *server;
    const mh_log_service *log;
    http_limits limits;

    pthread_mutex_t lock; /* the fields below up to `daemon` */
    pthread_cond_t wake;  /* serve() loop: stop or housekeeping */
    int stop_requested;
    http_session **sessions;
    size_t session_count, session_cap;

    atomic_int stopping; /* shutting down: waits end, writers drain and end */
    struct MHD_Daemon *daemon;
    http_guard *guard;   /* deadlines and pending limits of connections */
    http_guard_closed guard_closed; /* [main-thread] closed, not reported yet */
    double guard_reported;          /* [main-thread] when they were last reported */

    /* Rate limit of the log lines about refused and dropped connections
     * (http_log_noise), under noise_lock. */
    pthread_mutex_t noise_lock;
    double noise_window;       /* start of the current window */
    unsigned noise_lines;      /* lines written in it */
    unsigned long noise_left_out; /* lines left out in it */

    /* Settings of the running server (set before the daemon starts). */
    char bind_host[256];
    uint16_t port;
    char *token;      /* NULL: no token required */
    int loopback;     /* bound to a loopback address */
    int wildcard;     /* bound to 0.0.0.0 or :: */
};

/* Logs through the host's log service. Never call with a session lock held:
 * the host forwards log lines to connections, which takes session locks. */
void http_log(http_transport *t, mh_log_level level, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* Like http_log, for lines that a flood of bad connections would repeat
 * (refused requests, libmicrohttpd's complaints): at most a few per 10 s,
 * then a count of those left out. */
void http_log_noise(http_transport *t, mh_log_level level, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* Sets t->limits from the defaults, the environment (MCPHOST_HTTP_*) and
 * --transport-option NAME=VALUE (which wins). Returns 0, or -1 after logging
 * why an option is refused (http_settings.c). */
int http_settings_read(http_transport *t, const mh_transport_options *options);

/* The serve/stop entry points (transport_http.c). */
mh_status http_serve(void *user, const mh_transport_options *options);
void http_stop(void *user);

#endif
