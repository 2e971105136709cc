/* http_guard.c - deadlines and pending-connection limits for transport-http;
 * see http_guard.h. */
#include "http_guard.h"

#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

typedef enum guard_phase {
    PHASE_HEADER, /* waiting for a whole request header */
    PHASE_BODY,   /* reading the request's body */
    PHASE_ANSWER  /* answering (a stream may take hours): no deadline */
} guard_phase;

typedef struct guard_conn {
    int fd;
    unsigned char address[16]; /* the client's IPv4 or IPv6 address */
    size_t address_length;
    double accepted;    /* when the connection came */
    double phase_start; /* when the current phase began */
    guard_phase phase;
    int passed;         /* a request of it passed the checks */
    int shut;           /* closed by the guard; waiting for the close notice */
    struct guard_conn *prev, *next;
} guard_conn;

struct http_guard {
    const http_limits *limits;
    pthread_mutex_t lock;
    guard_conn *conns; /* newest first */
};

http_guard *http_guard_new(const http_limits *limits)
{
    http_guard *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->limits = limits;
    pthread_mutex_init(&g->lock, NULL);
    return g;
}

void http_guard_free(http_guard *g)
{
    if (!g) return;
    while (g->conns) {
        guard_conn *next = g->conns->next;
        free(g->conns);
        g->conns = next;
    }
    pthread_mutex_destroy(&g->lock);
    free(g);
}

static void client_address(struct MHD_Connection *c, guard_conn *rec)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *sa = info ? info->client_addr : NULL;
    if (sa && sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)(const void *)sa;
        memcpy(rec->address, &in->sin_addr, 4);
        rec->address_length = 4;
    } else if (sa && sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)(const void *)sa;
        memcpy(rec->address, &in6->sin6_addr, 16);
        rec->address_length = 16;
    }
}

void http_guard_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                       enum MHD_ConnectionNotificationCode code)
{
    http_guard *g = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        guard_conn *rec = calloc(1, sizeof *rec);
        if (!rec) return; /* unguarded, like any connection if out of memory */
        const union MHD_ConnectionInfo *info =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        rec->fd = info ? info->connect_fd : -1;
        client_address(c, rec);
        rec->accepted = rec->phase_start = http_now();
        pthread_mutex_lock(&g->lock);
        rec->next = g->conns;
        if (g->conns) g->conns->prev = rec;
        g->conns = rec;
        pthread_mutex_unlock(&g->lock);
        *socket_context = rec;
        return;
    }
    guard_conn *rec = *socket_context;
    if (!rec) return;
    /* libmicrohttpd closes the socket only after this notice, so a sweep
     * holding the lock never shuts a descriptor that was reused. */
    pthread_mutex_lock(&g->lock);
    if (rec->prev)
        rec->prev->next = rec->next;
    else
        g->conns = rec->next;
    if (rec->next) rec->next->prev = rec->prev;
    pthread_mutex_unlock(&g->lock);
    free(rec);
    *socket_context = NULL;
}

static guard_conn *conn_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

static void set_phase(http_guard *g, struct MHD_Connection *c, guard_phase phase, int passed)
{
    guard_conn *rec = conn_of(c);
    if (!rec) return;
    pthread_mutex_lock(&g->lock);
    rec->phase = phase;
    rec->phase_start = http_now();
    if (passed) rec->passed = 1;
    pthread_mutex_unlock(&g->lock);
}

void http_guard_header_in(http_guard *g, struct MHD_Connection *c, int passed)
{
    set_phase(g, c, PHASE_BODY, passed);
}

void http_guard_body_in(http_guard *g, struct MHD_Connection *c)
{
    set_phase(g, c, PHASE_ANSWER, 0);
}

void http_guard_request_done(http_guard *g, struct MHD_Connection *c)
{
    set_phase(g, c, PHASE_HEADER, 0);
}

static void shut(guard_conn *rec)
{
    if (rec->fd >= 0) shutdown(rec->fd, SHUT_RDWR);
    rec->shut = 1;
}

static int same_address(const guard_conn *a, const guard_conn *b)
{
    return a->address_length == b->address_length &&
           memcmp(a->address, b->address, a->address_length) == 0;
}

/* Pending connections from rec's address among those kept so far (newer
 * than rec, since the list is newest first). */
static size_t kept_from(const guard_conn *rec, guard_conn *const *kept, size_t count)
{
    size_t n = 0;
    for (size_t i = 0; i < count; i++) n += same_address(rec, kept[i]);
    return n;
}

void http_guard_sweep(http_guard *g, http_guard_closed *closed)
{
    const http_limits *l = g->limits;
    double now = http_now();
    pthread_mutex_lock(&g->lock);
    /* Deadlines. */
    for (guard_conn *rec = g->conns; rec; rec = rec->next) {
        if (rec->shut) continue;
        if (rec->phase == PHASE_HEADER && now - rec->phase_start >= l->header_timeout) {
            shut(rec);
            closed->header_deadline++;
        } else if (rec->phase == PHASE_BODY && now - rec->phase_start >= l->body_timeout) {
            shut(rec);
            closed->body_deadline++;
        }
    }
    /* Pending limits: keep the newest, close the oldest beyond them. */
    size_t count = 0, cap = 0;
    guard_conn **kept = NULL;
    for (guard_conn *rec = g->conns; rec; rec = rec->next) {
        if (rec->shut || rec->passed || rec->phase != PHASE_HEADER) continue;
        int young = now - rec->accepted < HTTP_GUARD_GRACE_SECONDS;
        if (!young && (count >= l->max_pending ||
                       kept_from(rec, kept, count) >= l->max_pending_per_address)) {
            shut(rec);
            closed->pending_limit++;
            continue;
        }
        if (count == cap) {
            size_t grown = cap ? cap * 2 : 64;
            guard_conn **list = realloc(kept, grown * sizeof *list);
            if (!list) break; /* out of memory: try again next sweep */
            kept = list;
            cap = grown;
        }
        kept[count++] = rec;
    }
    pthread_mutex_unlock(&g->lock);
    free(kept);
}
