/* mcphost/call.h - answering a tool call, resource read, prompt get or
 * completion request: the host-owned result writer, "mh.call/1".
 *
 * Offers: the opaque mh_call handle and mh_call_service, the vtable that
 * reads a request's arguments and writes its result.
 *
 * Ownership: an mh_call is owned by the host and valid only until the handler
 * it was passed to returns. Every pointer the service returns lives as long as
 * the call. Everything written through it is copied before the call returns.
 *
 * Thread: the functions may be called on the thread the handler runs on
 * (see tool.h); progress() and cancelled() are [thread-safe].
 */
#ifndef MCPHOST_CALL_H
#define MCPHOST_CALL_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/log.h"
#include "mcphost/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_CALL_SERVICE_ID "mh.call/1"

typedef struct mh_call mh_call;       /* one request being answered */
typedef struct mh_session mh_session; /* a machine session (session.h) */
typedef struct mh_chip mh_chip;       /* a chip instance (session.h) */

typedef struct mh_call_service {
    uint32_t struct_size;

    /* The request's arguments as a JSON object text. For tools it has
     * already been validated against the tool's input schema; never NULL. */
    const char *(*args)(mh_call *call);

    /* The machine session the call runs against, or NULL when the tool does
     * not need one. */
    mh_session *(*session)(mh_call *call);

    /* The chip instance the tool asked for in mh_tool_desc.requires, resolved
     * from the `instance` argument; NULL when the tool requires none. */
    const mh_chip *(*chip)(mh_call *call);

    /* Content. Each adds one item in order: text, a base64-encoded image or
     * audio clip (data is raw bytes; the host encodes), or for resource
     * reads a blob. */
    void (*text)(mh_call *call, const char *text);
    void (*image)(mh_call *call, const char *mime_type, const void *data, size_t size);
    void (*audio)(mh_call *call, const char *mime_type, const void *data, size_t size);
    void (*blob)(mh_call *call, const char *mime_type, const void *data, size_t size);

    /* Sets structuredContent (a JSON object text, checked to parse). When the
     * result has no text content, the host adds its facts as readable text
     * (mh_toolkit_facts_text() in toolkit.h), since many clients show the
     * model only text; a text a tool writes itself must carry every fact
     * too (mh_toolkit_send_facts() adds them under a summary). */
    void (*structured)(mh_call *call, const char *json_object);

    /* Marks the result as a tool error (isError: true) with a message that
     * says what went wrong and what to do instead. Replaces other content. */
    void (*error)(mh_call *call, const char *message);

    /* Prompts: adds a message with role "user" or "assistant". */
    void (*prompt_message)(mh_call *call, const char *role, const char *text);

    /* Completion: adds one candidate value. */
    void (*completion)(mh_call *call, const char *value);

    /* Sends notifications/progress if the client asked for it (progress may
     * exceed nothing; total <= 0 means unknown). [thread-safe] */
    void (*progress)(mh_call *call, double progress, double total, const char *message);

    /* Nonzero once the client has cancelled this request. [thread-safe] */
    int (*cancelled)(mh_call *call);

    /* Logs through notifications/message to this call's client. */
    void (*log)(mh_call *call, mh_log_level level, const char *message);

    /* ---- ABI 1.1: check struct_size before using the fields below ---- */

    /* Adds one MCP content block given as JSON object text with a string
     * "type", e.g. an embedded resource
     *   {"type":"resource","resource":{"uri":"...","mimeType":"text/plain","text":"..."}}
     * or a resource_link. Copied; text that is not such an object makes the
     * result a tool error saying so (a plugin bug made visible). */
    void (*content)(mh_call *call, const char *content_json);

    /* Prompts: adds a message with role "user" or "assistant" whose content
     * is one content block as JSON object text (image, audio, resource).
     * Checked like content(). */
    void (*prompt_content)(mh_call *call, const char *role, const char *content_json);

    /* Sends a request to the client this call came from (e.g.
     * "sampling/createMessage", "elicitation/create", "roots/list"; params a
     * JSON object text) and waits for its answer, at most timeout_ms (0 means
     * 60 s). Returns the answer's result as JSON object text, valid until the
     * handler returns; or NULL with the reason in error: the client did not
     * declare the capability the method needs, answered with an error, did
     * not answer in time, or the call was cancelled. Blocks: only handlers
     * that run on a host worker thread may use it (a tool that needs a
     * machine session gets NULL and an error, so emulation never waits on a
     * client). */
    const char *(*ask_client)(mh_call *call, const char *method, const char *params_json,
                              uint32_t timeout_ms, char *error, size_t error_size);

    /* ---- appended in ABI 1.4: check struct_size before use ---- */

    /* Asks before a destructive step (a hard reset, loading over unsaved
     * state, replacing a file). Returns 1: go ahead. Returns 0: the host has
     * answered the call already (a tool error saying requires_confirmation
     * with a single-use token the client sends back as the argument
     * `confirm` within 60 s, or why a token was refused); the handler must
     * return without acting. The host takes `confirm` out of the arguments
     * before validation, so no tool declares it. Without this field (an
     * older host) a plugin goes ahead. `what` names what would be lost. */
    int (*confirm)(mh_call *call, const char *what);
    /* The call's session state and snapshots: mark 1 records that the
     * state is now in a file (a snapshot was saved or loaded); returns 1
     * while neither the machine nor a tool that changes it ran since the
     * last mark (the calling tool itself, being one that changes the
     * machine, does not count), so loading over it loses nothing. */
    int (*state_saved)(mh_call *call, int mark);
} mh_call_service;

#ifdef __cplusplus
}
#endif
#endif
