/* http_respond.c - building and queueing responses: JSON, JSON-RPC errors
 * with an HTTP status, refusals that close the connection, SSE streams. */
#include "http_internal.h"



#include "mcphost/json.h"

/* ---- responses ---- */

enum MHD_Result http_queue(struct MHD_Connection *c, unsigned status, struct MHD_Response *r)
{
    if (!r) return MHD_NO;
    enum MHD_Result ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

struct MHD_Response *http_json_response(char *text, size_t length)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(length, text, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(text);
        return NULL;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    return r;
}

/* An HTTP error with a JSON-RPC error body that says what to do instead. */
static struct MHD_Response *error_response(int code, const char *message)
{
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "jsonrpc");
    mh_json_write_string(w, "2.0");
    mh_json_write_key(w, "id");
    mh_json_write_null(w);
    mh_json_write_key(w, "error");
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "code");
    mh_json_write_int(w, code);
    mh_json_write_key(w, "message");
    mh_json_write_string(w, message);
    mh_json_write_object_end(w);
    mh_json_write_object_end(w);
    size_t length = 0;
    char *text = mh_json_writer_finish(w, &length);
    mh_json_writer_free(w);
    return text ? http_json_response(text, length) : NULL;
}

static enum MHD_Result vsend_error(struct MHD_Connection *c, int close, unsigned status,
                                   int code, const char *format, va_list args)
{
    char message[1024];
    vsnprintf(message, sizeof message, format, args);
    struct MHD_Response *r = error_response(code, message);
    if (r && close) MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
    if (r && status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, POST, DELETE");
    if (r && status == MHD_HTTP_UNAUTHORIZED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE,
                                "Bearer realm=\"mcphost\", error=\"invalid_token\"");
    return http_queue(c, status, r);
}

enum MHD_Result http_send_error(struct MHD_Connection *c, unsigned status, int code,
                                  const char *format, ...) __attribute__((format(printf, 4, 5)));

enum MHD_Result http_send_error(struct MHD_Connection *c, unsigned status, int code,
                                  const char *format, ...)
{
    va_list args;
    va_start(args, format);
    enum MHD_Result result = vsend_error(c, 0, status, code, format, args);
    va_end(args);
    return result;
}

/* An error that refuses a request before its body is read: the connection
 * is closed after it, so a refused client holds nothing (its body is never
 * read). */
enum MHD_Result http_refuse(struct MHD_Connection *c, unsigned status, int code,
                              const char *format, ...) __attribute__((format(printf, 4, 5)));

enum MHD_Result http_refuse(struct MHD_Connection *c, unsigned status, int code,
                              const char *format, ...)
{
    va_list args;
    va_start(args, format);
    enum MHD_Result result = vsend_error(c, 1, status, code, format, args);
    va_end(args);
    return result;
}

enum MHD_Result http_send_empty(struct MHD_Connection *c, unsigned status)
{
    return http_queue(c, status, MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT));
}

struct MHD_Response *http_sse_response(http_writer *w)
{
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64 * 1024,
                                                               http_writer_read, w, http_writer_free);
    if (!r) {
        http_writer_free(w);
        return NULL;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache, no-store");
    MHD_add_response_header(r, "X-Accel-Buffering", "no");
    return r;
}

const char *http_header(struct MHD_Connection *c, const char *name)
{
    return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}
