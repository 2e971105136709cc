/* mcphost/toolkit.h - small helpers every toolset plugin repeats, on top of
 * mcphost/json.h and mcphost/args.h (link mcphost::json).
 *
 * Offers:
 *   - mh_toolkit_services: the host services a toolset looks up at init,
 *     filled in by mh_toolkit_services_get(); mh_toolkit_init(), the whole
 *     init() of a toolset whose plugin data is just those services;
 *   - mh_toolkit_fail(): an isError result with a printf-style message;
 *   - mh_toolkit_send_json(): a finished mh_json_writer as the result's
 *     structured content, with an optional text content first;
 *   - mh_toolkit_facts_text(), mh_toolkit_send_facts(): a structured result
 *     rendered as readable text (lines, inline records, Markdown tables), so
 *     a client that shows the model only text content loses no fact;
 *   - mh_toolkit_args(), mh_toolkit_session_args(): the call's arguments
 *     parsed (and a session present), or an error result;
 *   - mh_toolkit_chip(), mh_toolkit_session_chip(): a chip interface whose
 *     vtable is at least as large as the caller needs;
 *   - mh_toolkit_register_tools(): registers a table of tools;
 *   - mh_toolkit_breakpoint_options(): the options every breakpoint tool
 *     shares (temporary, log_only, enabled, ignore_count, condition, group,
 *     label) into an mh_breakpoint_spec.
 *
 * Ownership: nothing here keeps a pointer after it returns. Results are
 * copied by the host (call.h); the caller keeps its writer and document
 * and frees them. Pointers returned live as their source does (the call,
 * the session, the parsed document).
 * Threads: no global state; each function may be called wherever the
 * services it is given may be (a tool handler's thread for mh.call/1, the
 * plugin's init for registration).
 */
#ifndef MCPHOST_TOOLKIT_H
#define MCPHOST_TOOLKIT_H

#include <stdarg.h>
#include <stddef.h>

#include "mcphost/call.h"
#include "mcphost/debug.h"
#include "mcphost/files.h"
#include "mcphost/json.h"
#include "mcphost/registry.h"
#include "mcphost/session.h"
#include "mcphost/status.h"
#include "mcphost/tool.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define MH_TOOLKIT_PRINTF(fmt, first) __attribute__((format(printf, fmt, first)))
#else
#define MH_TOOLKIT_PRINTF(fmt, first)
#endif

/* The services a toolset plugin uses, looked up once in its init(). The
 * pointers live as long as the host. */
typedef struct mh_toolkit_services {
    const mh_host *host;
    const mh_registry_service *registry; /* "mh.registry/1" */
    const mh_call_service *call;         /* "mh.call/1" */
    const mh_session_service *sessions;  /* "mh.session/1"; NULL when absent */
    const mh_debug_service *debug;       /* "mh.debug/1"; NULL when absent */
    const mh_files_service *files;       /* "mh.files/1"; NULL when absent */
} mh_toolkit_services;

/* Fills *out from host (every field, absent services as NULL). Returns
 * MH_OK, or MH_ERR_UNSUPPORTED when the registry or call service is
 * missing (a plugin needing another service checks its field itself). */
mh_status mh_toolkit_services_get(const mh_host *host, mh_toolkit_services *out);

/* Registers one group of a toolset's tools (one per source file). */
typedef mh_status (*mh_toolkit_group_fn)(mh_toolkit_services *services);

/* A toolset's init() when its plugin data is an mh_toolkit_services:
 * allocates one (the plugin's deinit() frees it with free()), fills it,
 * refuses a host without the session service when need_sessions, and runs
 * each group. Returns MH_OK with *data set, or the first failure with
 * nothing left allocated (the host removes what was registered). */
mh_status mh_toolkit_init(const mh_host *host, const mh_toolkit_group_fn *groups, size_t count,
                          int need_sessions, void **data);

/* Longest error message mh_toolkit_fail() sends; longer ones are cut. */
#define MH_TOOLKIT_MESSAGE_SIZE 2048

/* Answers call with an error (isError) whose text is format filled in like
 * printf. Always returns -1, so a handler may `return mh_toolkit_fail(...)`. */
int mh_toolkit_fail(const mh_call_service *service, mh_call *call, const char *format, ...)
    MH_TOOLKIT_PRINTF(3, 4);
int mh_toolkit_vfail(const mh_call_service *service, mh_call *call, const char *format,
                     va_list ap) MH_TOOLKIT_PRINTF(3, 0);

/* Finishes w and answers call with it as structured content, adding text
 * (when not NULL) as the text content before it. Returns MH_OK; or, when the
 * writer failed or is incomplete, its status without answering: the caller
 * then sends an error naming mh_json_writer_error(w). Never frees w. */
mh_status mh_toolkit_send_json(const mh_call_service *service, mh_call *call, mh_json_writer *w,
                               const char *text);

/* A structured result (JSON object text) as text a model reads: one
 * "key: value" line per member, objects of scalars inline ("a=1, b=$02"),
 * arrays of objects as Markdown tables, a number with a "<key>_hex" twin in
 * its hex form only, multi-line strings as blocks. A string of 16 bytes or
 * more that `shown` (text already in the answer, may be NULL) holds
 * verbatim, or an array of only such strings, is not repeated. Output past
 * max_bytes (0: 16384; a soft limit) is left out with a note saying so.
 * malloc'ed (free() it); NULL when json_object is not an object or out of
 * memory. */
char *mh_toolkit_facts_text(const char *json_object, const char *shown, size_t max_bytes);

/* summary (may be NULL), a blank line and mh_toolkit_facts_text(json_object,
 * summary, 0): a result's whole text. malloc'ed; NULL when out of memory. */
char *mh_toolkit_text_with_facts(const char *summary, const char *json_object);

/* Like mh_toolkit_send_json(), but the text content is summary (may be
 * NULL), a blank line, and mh_toolkit_facts_text() of the result: for a tool
 * whose one-line summary does not carry every fact it returns. */
mh_status mh_toolkit_send_facts(const mh_call_service *service, mh_call *call, mh_json_writer *w,
                                const char *summary);

/* The call's arguments as a parsed object in *doc (the caller frees it with
 * mh_json_free()); NULL after answering the call with the parser's message
 * (written to err, capacity err_size, MH_ARGS_ERROR_SIZE is enough). */
const mh_json *mh_toolkit_args(const mh_call_service *service, mh_call *call, mh_json_doc **doc,
                               char *err, size_t err_size);

/* The same for a tool that needs a machine session (`tool` is its name):
 * also NULL after the error "<tool> needs a machine session; create one
 * with session_create" when the call has none (then *doc is NULL). */
const mh_json *mh_toolkit_session_args(const mh_call_service *service, mh_call *call,
                                       const char *tool, mh_json_doc **doc, char *err,
                                       size_t err_size);

/* The chip the tool `requires` (mh_call_service.chip) when its vtable
 * starts with a struct_size of at least min_size; else NULL. */
const mh_chip *mh_toolkit_chip(const mh_call_service *service, mh_call *call, size_t min_size);

/* mh_toolkit_chip, answering the call when the chip is missing or too
 * old: "this machine's <chip_name> interface (<iface_id>) is older than
 * <toolset> needs: update the machine plugin". */
const mh_chip *mh_toolkit_chip_or_fail(const mh_call_service *service, mh_call *call,
                                       size_t min_size, const char *chip_name,
                                       const char *iface_id, const char *toolset);

/* The session's first chip with interface iface_id whose vtable has a
 * struct_size of at least min_size; NULL when absent, too small or when
 * session is NULL. */
const mh_chip *mh_toolkit_session_chip(const mh_session_service *sessions, mh_session *session,
                                       const char *iface_id, size_t min_size);

/* A raster breakpoint over lines first..last (tools-vic2, tools-vic): every
 * 1 fires on each line of the range, 0 only when the beam enters it. */
typedef struct mh_toolkit_raster {
    uint16_t first, last, last_line;
    uint8_t every, was_in;
} mh_toolkit_raster;

/* Starts at the beam's line now (entering means leaving it first, so a
 * breakpoint set inside the range waits for the next entry). */
void mh_toolkit_raster_init(mh_toolkit_raster *st, unsigned first, unsigned last, int every,
                            unsigned line);
/* Feeds the line at an instruction boundary; 1 when the breakpoint fires. */
int mh_toolkit_raster_step(mh_toolkit_raster *st, unsigned line);

/* Registers count tools from a table through registry->add_tool. Each is
 * copied with struct_size set, user_data set to user_data and, when
 * requires_iface is not NULL, requires set to it. Returns MH_OK or the first
 * failure (the host removes what a failed plugin registered). */
mh_status mh_toolkit_register_tools(const mh_host *host, const mh_registry_service *registry,
                                    const mh_tool_desc *tools, size_t count,
                                    const char *requires_iface, void *user_data);

/* Reads the optional breakpoint options of args into spec: temporary,
 * log_only and enabled (false sets MH_BP_DISABLED) into spec->flags,
 * ignore_count (0-4294967295), and condition, group and label (pointing
 * into args' document). Returns MH_OK, or the first reader's failure with
 * its message in err (mcphost/args.h conventions). */
mh_status mh_toolkit_breakpoint_options(const mh_json *args, mh_breakpoint_spec *spec, char *err,
                                        size_t err_size);

/* Those options but condition (whose syntax breakpoints_set describes) as
 * JSON schema properties, for a breakpoint tool's input schema:
 * "{\"type\":\"object\",\"properties\":{...," MH_TOOLKIT_BREAKPOINT_OPTIONS_SCHEMA "}}" */
#define MH_TOOLKIT_BREAKPOINT_OPTIONS_SCHEMA \
    "\"ignore_count\":{\"type\":\"integer\",\"description\":\"Hits to skip\",\"minimum\":0}," \
    "\"temporary\":{\"type\":\"boolean\",\"description\":\"Delete on first hit\"}," \
    "\"log_only\":{\"type\":\"boolean\",\"description\":\"Only log (breakpoints_trace)\"}," \
    "\"group\":{\"type\":\"string\",\"description\":\"Group name\"}," \
    "\"label\":{\"type\":\"string\",\"description\":\"Label\"}," \
    "\"enabled\":{\"type\":\"boolean\",\"description\":\"false: disabled\"}"

/* Asks before a destructive step through the host's confirm() (call.h):
 * 1 go ahead; 0 the host has answered the call (requires_confirmation, or
 * a refused token) and the handler must return. A host without confirm()
 * goes ahead. */
static inline int mh_toolkit_confirm(const mh_call_service *calls, mh_call *call,
                                     const char *what)
{
    if (calls->struct_size < offsetof(mh_call_service, confirm) + sizeof calls->confirm ||
        !calls->confirm)
        return 1;
    return calls->confirm(call, what);
}

/* calls->state_saved() (call.h), 0 on a host without it. */
static inline int mh_toolkit_state_saved(const mh_call_service *calls, mh_call *call, int mark)
{
    if (calls->struct_size < offsetof(mh_call_service, state_saved) + sizeof calls->state_saved ||
        !calls->state_saved)
        return 0;
    return calls->state_saved(call, mark);
}

#ifdef __cplusplus
}
#endif
#endif
