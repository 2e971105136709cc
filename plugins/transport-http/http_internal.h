/* http_internal.h - what the files of transport-http share inside the
 * plugin (not an interface of anyone else's): the per-request state, and
 * the functions one file offers the others. transport_http.h holds the
 * transport's state. */
#ifndef MH_HTTP_INTERNAL_H
#define MH_HTTP_INTERNAL_H

#include <stddef.h>

#include <microhttpd.h>

#include "transport_http.h"

#define ENDPOINT "/mcp"

/* The window of the log rate limit (http_log_noise) and of the guard's
 * summary line. */
#define NOISE_WINDOW_SECONDS 10.0

/* Per HTTP request state, freed by the completion callback. */
typedef struct http_request {
    char *body;
    size_t length, cap;
    int too_large;
    int answered; /* an error went out before the body was read */
} http_request;


/* ---- http_log.c ---- */
void http_flush_noise(http_transport *t);

/* ---- http_respond.c ---- */
enum MHD_Result http_queue(struct MHD_Connection *c, unsigned status, struct MHD_Response *r);
struct MHD_Response *http_json_response(char *text, size_t length);
/* A JSON-RPC error object with an HTTP status; refuse() also closes the
 * connection (sent before the body was read). */
enum MHD_Result http_send_error(struct MHD_Connection *c, unsigned status, int code,
                                const char *format, ...) __attribute__((format(printf, 4, 5)));
enum MHD_Result http_refuse(struct MHD_Connection *c, unsigned status, int code,
                            const char *format, ...) __attribute__((format(printf, 4, 5)));
enum MHD_Result http_send_empty(struct MHD_Connection *c, unsigned status);
struct MHD_Response *http_sse_response(http_writer *w);
const char *http_header(struct MHD_Connection *c, const char *name);

/* ---- http_table.c ---- */
void http_make_session_id(char out[33]);
http_session *http_find_session(http_transport *t, const char *id);
int http_add_session(http_transport *t, http_session *s);
int http_remove_session_locked(http_transport *t, http_session *s);
void http_retire_session(http_session *s);
int http_make_room(http_transport *t);
void http_expire_sessions(http_transport *t);

/* ---- http_post.c ---- */
http_session *http_request_session(http_transport *t, struct MHD_Connection *c, enum MHD_Result *result);
enum MHD_Result http_handle_post(http_transport *t, struct MHD_Connection *c, http_request *req);

/* ---- http_get_delete.c ---- */
enum MHD_Result http_handle_get(http_transport *t, struct MHD_Connection *c);
enum MHD_Result http_handle_delete(http_transport *t, struct MHD_Connection *c);

#endif
