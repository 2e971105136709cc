/* http_table.c - the table of MCP sessions: ids, lookup, the limit and
 * which session makes room (never used, then idle), expiry. */
#include "http_internal.h"

#include <errno.h>
#include <sys/random.h>



/* ---- the session table ---- */

void http_make_session_id(char out[33])
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
http_session *http_find_session(http_transport *t, const char *id)
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

int http_add_session(http_transport *t, http_session *s)
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
int http_remove_session_locked(http_transport *t, http_session *s)
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
void http_retire_session(http_session *s)
{
    http_session_end(s);
    http_session_unref(s);
}

/* Room for one more session when the table is full. The first to go is the
 * idle session that never sent a request after initialize (nothing of its
 * client's is lost) and has waited longest; else the session idle longest,
 * once idle for evict_idle_seconds. Returns 0, or -1 when none may go. */
int http_make_room(http_transport *t)
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
        http_remove_session_locked(t, victim);
    }
    pthread_mutex_unlock(&t->lock);
    if (victim) {
        http_log(t, MH_LOG_INFO, "session %.8s ended to make room for a new one (limit %zu; %s)",
                 victim->id, t->limits.max_sessions,
                 victim_used ? "the longest idle" : "it never sent a request after initialize");
        http_retire_session(victim);
    }
    return 0;
}

/* Ends sessions idle for longer than the limit. [main-thread] */
void http_expire_sessions(http_transport *t)
{
    http_session *expired[16];
    size_t n = 0;
    double now = http_now();
    pthread_mutex_lock(&t->lock);
    for (size_t i = 0; i < t->session_count && n < 16;) {
        double since;
        http_session *s = t->sessions[i];
        if (session_idle_since(s, &since, NULL) && now - since >= t->limits.idle_seconds) {
            http_remove_session_locked(t, s);
            expired[n++] = s;
        } else {
            i++;
        }
    }
    pthread_mutex_unlock(&t->lock);
    for (size_t i = 0; i < n; i++) {
        http_log(t, MH_LOG_INFO, "session %.8s expired after %u s without requests",
                 expired[i]->id, t->limits.idle_seconds);
        http_retire_session(expired[i]);
    }
}
