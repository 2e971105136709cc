/* http_get_delete.c - GET /mcp (the notification stream, resumed with
 * Last-Event-ID) and DELETE /mcp (ending a session). */
#include "http_internal.h"



#include "http_checks.h"

/* ---- GET and DELETE ---- */

/* Why a Last-Event-ID is refused, as the message of a 400: not an event id,
 * a stream never issued, or past the end of its stream. NULL when it is
 * served: *st is then the stream and *seq the last event the client has, or
 * *st is NULL for a stream no longer kept. Lock held. */
static const char *resume_refusal(http_session *s, const char *last, http_stream **st,
                                  uint64_t *seq_out, char *why, size_t size)
{
    uint32_t stream_id = 0;
    uint64_t seq = 0;
    if (http_parse_event_id(last, &stream_id, &seq) != 0) {
        snprintf(why, size,
                 "Bad Request: Last-Event-ID \"%.40s\" is not an event id of this server "
                 "(<stream>-<event>, as in \"id: 3-17\"); send a GET without it to open a new "
                 "stream",
                 last);
        return why;
    }
    *st = http_stream_find_locked(s, stream_id);
    if (!*st && stream_id >= s->next_stream_id) {
        snprintf(why, size,
                 "Bad Request: Last-Event-ID \"%.40s\" names stream %u, which this session "
                 "never had (its newest is %u); send a GET without Last-Event-ID to open a new "
                 "stream",
                 last, stream_id, s->next_stream_id - 1);
        return why;
    }
    /* A stream that ended and was delivered, or was dropped for newer ones:
     * the caller opens a new GET stream (the MCP SDK reconnects so after a
     * POST stream that ended with an error). */
    if (!*st) return NULL;
    uint64_t next = http_stream_next_seq_locked(*st);
    if (seq >= next) {
        snprintf(why, size,
                 "Bad Request: Last-Event-ID \"%.40s\" is past the end of stream %u, whose "
                 "newest event is %u-%llu; resume from an id this server sent",
                 last, stream_id, stream_id, (unsigned long long)(next - 1));
        return why;
    }
    *seq_out = seq;
    return NULL;
}

enum MHD_Result http_handle_get(http_transport *t, struct MHD_Connection *c)
{
    enum MHD_Result result = MHD_NO;
    http_session *s = http_request_session(t, c, &result);
    if (!s) return result;
    const char *last = http_header(c, "Last-Event-ID");
    pthread_mutex_lock(&s->lock);
    if (s->ending) {
        pthread_mutex_unlock(&s->lock);
        http_session_unref(s);
        return http_send_error(c, MHD_HTTP_NOT_FOUND, -32001,
                          "Session not found: it is ending; initialize a new session");
    }
    http_stream *st = NULL;
    uint64_t seq = 0;
    char why[512];
    if (last && resume_refusal(s, last, &st, &seq, why, sizeof why)) {
        pthread_mutex_unlock(&s->lock);
        http_session_unref(s);
        return http_send_error(c, MHD_HTTP_BAD_REQUEST, -32600, "%s", why);
    }
    /* Taking over an attached stream does not add one; anything else must fit. */
    if (s->writers >= t->limits.max_streams && !(st && http_stream_attached_locked(st))) {
        pthread_mutex_unlock(&s->lock);
        http_session_unref(s);
        return http_send_error(c, MHD_HTTP_TOO_MANY_REQUESTS, -32000,
                          "Too many streams: a session may have at most %zu open SSE streams; "
                          "close one first",
                          t->limits.max_streams);
    }
    http_writer *w = NULL;
    int resumed = st != NULL;
    if (st) {
        w = http_writer_attach_locked(st, (int64_t)seq);
    } else {
        st = http_stream_new_locked(s, HTTP_STREAM_GET);
        if (st) {
            http_stream_prime_locked(st);
            w = http_writer_attach_locked(st, -1);
        }
    }
    s->last_activity = http_now();
    s->used = 1;
    pthread_mutex_unlock(&s->lock);
    if (w && last && !resumed)
        http_log(t, MH_LOG_INFO,
                 "session %.8s: Last-Event-ID \"%.40s\" names a stream that ended or was "
                 "dropped; opening a new one",
                 s->id, last);
    http_session_unref(s);
    if (!w) return http_send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, -32603, "out of memory");
    return http_queue(c, MHD_HTTP_OK, http_sse_response(w));
}

enum MHD_Result http_handle_delete(http_transport *t, struct MHD_Connection *c)
{
    enum MHD_Result result = MHD_NO;
    http_session *s = http_request_session(t, c, &result);
    if (!s) return result;
    pthread_mutex_lock(&t->lock);
    int mine = http_remove_session_locked(t, s);
    pthread_mutex_unlock(&t->lock);
    if (mine) {
        http_log(t, MH_LOG_INFO, "session %.8s ended by the client", s->id);
        http_retire_session(s); /* the table's reference */
    }
    http_session_unref(s);
    return http_send_empty(c, MHD_HTTP_OK);
}
