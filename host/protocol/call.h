/* host/protocol/call.h - the host side of mh_call: collects what a handler writes
 * (content, structured JSON, error, prompt messages, completions) and turns it
 * into MCP result objects. One mh_call per request; freed by its finisher.
 * Thread: used by one thread at a time (the handler's); progress/cancelled go
 * through the request, which is [thread-safe]. */
#ifndef MH_HOST_CALL_H
#define MH_HOST_CALL_H

#include <cjson/cJSON.h>
#include "mcphost/call.h"
#include "server.h"

struct mh_call {
    mh_request *req;       /* NULL when called inside the host (tests) */
    char *args_json;       /* owned */
    mh_session *session;   /* with a reference, or NULL */
    const mh_chip *chip;
    cJSON *content;        /* array of content items */
    cJSON *structured;     /* object or NULL (made lazily from structured_doc);
                              its strings may be references into
                              structured_doc (call_structured.c) */
    struct mh_json_doc *structured_doc; /* the parsed structured content, owned */
    char *structured_text; /* the same as compact JSON text (written as is), owned;
                              NULL: print structured instead */
    size_t structured_length;
    char *error;           /* set: isError with this message */
    cJSON *messages;       /* prompt messages */
    cJSON *completions;    /* completion values */
    const char *resource_uri;
    char *client_answer;   /* the last ask_client() result text, owned */
    const char *tool;      /* the tool's name (tools/call), or NULL */
    char *confirm;         /* the `confirm` argument (taken out of args_json), owned */
    /* Resource reads and completions (host content only): answer with this
     * tool's result instead (methods_content.c calls it as the client
     * would), and the JSON-RPC code of call->error (0: -32603). */
    const char *forward_tool;
    cJSON *forward_args;   /* owned */
    int error_code;
    int content_finished;  /* mh_call_finish_content() ran */
};

mh_call *mh_call_new(mh_request *req, const cJSON *args);
void mh_call_free(mh_call *call);
/* Like error(), but with a format. */
void mh_call_errorf(mh_call *call, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* {"content": [...], "structuredContent": {...}, "isError": bool}; when the
 * result has structured content but no text, its facts are added as
 * readable text (mh_toolkit_facts_text). */
cJSON *mh_call_tool_result(mh_call *call);

/* The same result written once as JSON text onto out (the fast path of
 * tools/call: the structured content a tool wrote goes out as it came,
 * never re-parsed by cJSON nor re-printed), with ,"resultType":"complete"
 * before its end when complete is set (the stateless revision). Call
 * mh_call_finish_content() first. */
struct mh_textbuf;
void mh_call_write_tool_result(mh_call *call, struct mh_textbuf *out, int complete);
/* Puts the result's content in its final form: an error's text, or the
 * facts of structured content that came without text (see above). Both
 * mh_call_tool_result() and mh_call_write_tool_result() do it; done once. */
void mh_call_finish_content(mh_call *call);

/* call_structured.c: parses a tool's structured content (strictly, with
 * the SDK parser) into call->structured_doc and keeps the text to write;
 * the cJSON tree call->structured (strings pointing into the document, so
 * a 128 KB hex string is not copied again) is made only when something
 * asks for it (mh_call_structured_tree): a tools/call answer never does.
 * Text the strict parser refuses goes to call->structured as cJSON read
 * it. Returns 0, or -1 with why in error. */
int mh_call_take_structured(mh_call *call, const char *json, char *error, size_t error_size);
/* Whether the call has structured content (as a parse or as a tree). */
int mh_call_has_structured(const mh_call *call);
/* call->structured, made from the parse the first time (NULL when there is
 * none, or out of memory). */
cJSON *mh_call_structured_tree(mh_call *call);
/* A cJSON view of a value the SDK parser read: its own nodes, but strings
 * that point into v's document (cJSON_IsReference), so the document must
 * outlive the view unless cJSON_Duplicate() copies it. NULL when out of
 * memory. The request path (server.c) and structured content use it, so a
 * message is parsed once. */
struct mh_json;
cJSON *mh_cjson_view(const struct mh_json *v);
/* Makes call->structured own all its strings (before it leaves the call). */
void mh_call_own_structured(mh_call *call);
void mh_call_drop_structured(mh_call *call);

extern const mh_call_service mh_call_service_impl;

/* Confirmation of a destructive call (confirm.c; mh_call_service
 * confirm()): returns 1 when the call may go ahead (confirmations off with
 * --no-confirm, the window's own call, a valid `confirm` token for exactly
 * this call, or the client said yes to an elicitation). Otherwise the call
 * is answered with an error (requires_confirmation and a single-use token
 * valid for 60 s, or why the given token is refused) and 0 returned: the
 * handler then returns without acting. `what` says what would be lost. */
int mh_call_confirm(mh_call *call, const char *what);

/* The client whose tool handler runs on this thread ("window" for the
 * person at the SDL window), or NULL outside a handler: engine calls that
 * record who asked for something (a pause) read it. The string belongs to
 * the caller of set and must outlive the handler. [this thread] */
void mh_call_set_current_client(const char *client);
const char *mh_call_current_client(void);

#endif
