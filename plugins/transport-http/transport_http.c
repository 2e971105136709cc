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
#include "http_internal.h"



#include "http_checks.h"

/* ---- the request handler ---- */

/* Checks every request must pass before its body is read. Returns 0, or 1
 * after queueing an error response in *result. */
static int precheck(http_transport *t, struct MHD_Connection *c, const char *url,
                    const char *method, int *too_large, enum MHD_Result *result)
{
    const char *host = http_header(c, MHD_HTTP_HEADER_HOST);
    if (!http_host_allowed(host, t->bind_host, t->wildcard)) {
        http_log_noise(t, MH_LOG_WARNING,
                       "refused a request for Host \"%.100s\" (DNS rebinding protection)", host);
        *result = http_refuse(c, MHD_HTTP_MISDIRECTED_REQUEST, -32000,
                         "Misdirected request: Host \"%.100s\" is not this server; connect to "
                         "http://%s:%u" ENDPOINT " (DNS rebinding protection)",
                         host, t->bind_host, t->port);
        return 1;
    }
    const char *origin = http_header(c, "Origin");
    if (!http_origin_allowed(origin, t->bind_host)) {
        http_log_noise(t, MH_LOG_WARNING, "refused a request from Origin \"%.100s\"", origin);
        *result = http_refuse(c, MHD_HTTP_FORBIDDEN, -32000,
                         "Forbidden: Origin \"%.100s\" may not use this server; only pages on "
                         "localhost, 127.0.0.1 or [::1] may",
                         origin);
        return 1;
    }
    if (strcmp(url, ENDPOINT) != 0) {
        *result = http_refuse(c, MHD_HTTP_NOT_FOUND, -32000,
                         "Not found: the MCP endpoint is " ENDPOINT);
        return 1;
    }
    if (t->token && !http_token_ok(http_header(c, MHD_HTTP_HEADER_AUTHORIZATION), t->token)) {
        *result = http_refuse(c, MHD_HTTP_UNAUTHORIZED, -32000,
                         "Unauthorized: send the server's token as \"Authorization: Bearer "
                         "<token>\" (mcphost --token or MCPHOST_TOKEN)");
        return 1;
    }
    if (strcmp(method, MHD_HTTP_METHOD_POST) == 0) {
        if (!http_content_type_is(http_header(c, MHD_HTTP_HEADER_CONTENT_TYPE), "application/json")) {
            *result = http_refuse(c, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE, -32000,
                             "Unsupported Media Type: POST a JSON-RPC message with "
                             "Content-Type: application/json");
            return 1;
        }
        const char *accept = http_header(c, MHD_HTTP_HEADER_ACCEPT);
        if (!http_accepts(accept, "application/json") && !http_accepts(accept, "text/event-stream")) {
            *result = http_refuse(c, MHD_HTTP_NOT_ACCEPTABLE, -32000,
                             "Not Acceptable: the Accept header must list application/json "
                             "and text/event-stream");
            return 1;
        }
        /* A body somewhat over the limit is read and dropped before the 413,
         * since most clients cannot see an answer sent while they still
         * write; a huge one is refused at once and the connection closed. */
        const char *length = http_header(c, MHD_HTTP_HEADER_CONTENT_LENGTH);
        unsigned long long declared = length ? strtoull(length, NULL, 10) : 0;
        if (declared > 16ull * t->limits.max_body) {
            *result = http_refuse(c, MHD_HTTP_CONTENT_TOO_LARGE, -32000,
                             "Payload too large: a message may be at most %zu bytes",
                             t->limits.max_body);
            return 1;
        }
        if (declared > t->limits.max_body) *too_large = 1;
        return 0;
    }
    if (strcmp(method, MHD_HTTP_METHOD_GET) == 0) {
        if (!http_accepts(http_header(c, MHD_HTTP_HEADER_ACCEPT), "text/event-stream")) {
            *result = http_refuse(c, MHD_HTTP_NOT_ACCEPTABLE, -32000,
                             "Not Acceptable: GET " ENDPOINT " opens an SSE stream; send "
                             "Accept: text/event-stream");
            return 1;
        }
        return 0;
    }
    if (strcmp(method, MHD_HTTP_METHOD_DELETE) == 0) return 0;
    *result = http_refuse(c, MHD_HTTP_METHOD_NOT_ALLOWED, -32000,
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
    if (strcmp(method, MHD_HTTP_METHOD_POST) == 0) return http_handle_post(t, c, req);
    if (strcmp(method, MHD_HTTP_METHOD_GET) == 0) return http_handle_get(t, c);
    return http_handle_delete(t, c);
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
    http_flush_noise(t);
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
    for (size_t i = 0; i < count; i++) http_retire_session(list[i]);
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
        http_expire_sessions(t);
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
