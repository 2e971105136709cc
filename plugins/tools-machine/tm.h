/* tm.h - what the files of the tools-machine plugin share: the host
 * services looked up once at init, one call's context (parsed arguments,
 * the session, the capability interface the tool works through), argument
 * readers for paths (confined by mh.files/1) and frame counts, results,
 * and one registration function per group of tools.
 *
 * Ownership: one tm_plugin per loaded plugin, freed at deinit; a tm_call
 * lives on the handler's stack and tm_end() frees what tm_begin() parsed.
 * Nothing is global.
 * Threads: every handler is MH_TOOL_NEEDS_SESSION and runs [emu-thread] on
 * the session's thread, so the machine interfaces may be called directly.
 */
#ifndef TM_H
#define TM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <mcphost/args.h>
#include <mcphost/debug.h>
#include <mcphost/files.h>
#include <mcphost/json.h>
#include <mcphost/machine.h>
#include <mcphost/mcphost.h>
#include <mcphost/toolkit.h>

/* The host services. files NULL: no file tools work; debug NULL: no state
 * in results, no reset events. */
typedef mh_toolkit_services tm_plugin;

typedef struct tm_call {
    tm_plugin *plugin;
    mh_call *call;
    const char *tool;
    mh_session *session;
    mh_json_doc *doc;
    const mh_json *args;
    const void *iface; /* the vtable of the interface tm_begin() was asked for */
    void *ctx;
    const char *instance;
    char err[MH_ARGS_ERROR_SIZE];
} tm_call;

/* Parses the arguments and finds the session's `iface_id` interface whose
 * vtable is at least min_size bytes (iface_id NULL: none needed). Returns
 * 0, or -1 after an error result that says what the machine lacks. */
int tm_begin(tm_call *c, tm_plugin *plugin, mh_call *call, const char *tool,
             const char *iface_id, size_t min_size);
void tm_end(tm_call *c);

/* An error result, printf-style (mcphost/toolkit.h). Always returns -1. */
#define tm_fail(c, ...) mh_toolkit_fail((c)->plugin->call, (c)->call, __VA_ARGS__)
int tm_fail_arg(tm_call *c);

const char *tm_session_name(tm_call *c);
/* Another interface of the session (NULL when absent or too small). */
const void *tm_find(tm_call *c, const char *iface_id, size_t min_size, void **ctx);

/* A string member (required when required; *out NULL when absent and not
 * required). Refused: not a string, empty, or holding a NUL byte. */
int tm_string(tm_call *c, const char *key, int required, const char **out);

/* The path member `key` resolved by mh.files/1 for mode (MH_FILES_READ,
 * _WRITE, _DIR) into out. Returns 0, 1 when absent and not required, or -1
 * after an error result naming the argument, the path and the allowed
 * directories. */
int tm_path(tm_call *c, const char *key, int required, uint32_t mode, char *out,
            size_t out_size);

/* The member `key` as a whole number min..max, default def when absent.
 * Returns 0 or -1 after an error result. */
int tm_int(tm_call *c, const char *key, int64_t min, int64_t max, int64_t def, int64_t *out);

/* Writes "state" (the execution state) when the host's engine can say. */
void tm_write_state(tm_call *c, mh_json_writer *w);
const char *tm_state(tm_call *c);

/* Finishes w into structuredContent and adds text as the text content. */
void tm_result(tm_call *c, mh_json_writer *w, const char *text);

/* Tells the debug engine a tool changed the machine behind its back
 * (reset, snapshot load): a "reset" event with detail_json. */
void tm_machine_changed(tm_call *c, const char *detail_json);

/* Registers a table with user_data = plugin, MH_TOOL_NEEDS_SESSION and
 * "additionalProperties": false added to every input schema. */
mh_status tm_register_table(tm_plugin *plugin, const mh_tool_desc *tools, size_t count);

/* One registration function per group (tm_media.c, tm_snapshot.c,
 * tm_input.c, tm_machine.c). */
mh_status tm_register_media(tm_plugin *plugin);
mh_status tm_register_snapshot(tm_plugin *plugin);
mh_status tm_register_input(tm_plugin *plugin);
mh_status tm_register_machine(tm_plugin *plugin);
mh_status tm_register_basic(tm_plugin *plugin); /* tm_basic.c */

/* A growable text (tm_util.c). */
typedef struct tm_buf {
    char *text;
    size_t length, capacity;
    int failed;
} tm_buf;
void tm_buf_printf(tm_buf *b, const char *format, ...) __attribute__((format(printf, 2, 3)));
void tm_buf_free(tm_buf *b);

#endif
