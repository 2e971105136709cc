/* td_util.h - what the registers, memory and code tools of tools-debug
 * share: one call's context (parsed arguments, the session's CPU and memory
 * interfaces), argument readers for memory spaces and ranges, error
 * results, hex formatting with a lookup table, a growable text buffer, and
 * registering a table of tools.
 *
 * Ownership: a td_call lives on the handler's stack; td_end() frees what
 * td_begin() parsed. td_buf owns its text until td_buf_free().
 * Threads: every td_call function runs [emu-thread] inside a handler of a
 * MH_TOOL_NEEDS_SESSION tool; nothing here is global.
 */
#ifndef TD_UTIL_H
#define TD_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <mcphost/args.h>
#include <mcphost/json.h>
#include <mcphost/toolkit.h>

#include "tools_debug.h"

/* What a tool needs from the session (td_begin refuses a session without). */
enum { TD_NEED_CPU = 1u, TD_NEED_MEMORY = 2u };

typedef struct td_call {
    td_plugin *plugin;
    mh_call *call;
    const char *tool; /* the tool's name, for messages */
    mh_session *session;
    mh_json_doc *doc;
    const mh_json *args;
    const mh_cpu6502_iface *cpu;
    void *cpu_ctx;
    const mh_memory_iface *mem;
    void *mem_ctx;
    char err[MH_ARGS_ERROR_SIZE]; /* the last argument reader's message */
} td_call;

/* Parses the arguments and finds the CPU and memory interfaces `needs`
 * asks for. Returns 0, or -1 after writing an error result (then only
 * td_end() is left to do). */
int td_begin(td_call *c, td_plugin *plugin, mh_call *call, const char *tool, unsigned needs);
void td_end(td_call *c);

/* An error result, printf-style (mcphost/toolkit.h). Always returns -1. */
#define td_fail(c, ...) mh_toolkit_fail((c)->plugin->call, (c)->call, __VA_ARGS__)
/* An error result with the last argument reader's message (c->err). */
int td_fail_arg(td_call *c);

/* The session's name ("" when unknown). */
const char *td_session_name(td_call *c);

/* ---- memory spaces and ranges ---- */

/* A range in one memory space. Addresses given in the CPU's map for a
 * space with a fixed place there (its mh_memory_space base: the C64's "io"
 * at $D000) are accepted too: then shown is that place, and results print
 * addresses the same way. */
typedef struct td_range {
    size_t space;
    const mh_memory_space *info;
    uint32_t offset; /* first byte, in the space's own addresses */
    uint32_t length;
    uint32_t shown;  /* added to offsets in results: 0, or info->base */
} td_range;

/* The member `key` as a memory space name (default "cpu" when missing).
 * Returns 0, or -1 after an error result listing the spaces. */
int td_space(td_call *c, const char *key, size_t *space);

/* The `space` member plus `address` and `length`/`end` (mh_args_range
 * conventions). default_length 0 makes the length required; max_length 0
 * means "the whole space". required_address 0: a missing address means the
 * start of the space. Returns 0 or -1 after an error result. */
int td_range_arg(td_call *c, uint32_t default_length, uint32_t max_length, int required_address,
                 td_range *out);

/* The `space` member alone (default "cpu") into r (space, info). Returns 0
 * or -1 after an error result. */
int td_space_arg(td_call *c, td_range *r);

/* An address member `key` for `length` bytes inside the space already
 * chosen in r (td_space_arg): stores offset, length and shown. Returns 0,
 * 1 when missing (r untouched), or -1 after an error result. */
int td_address_in_space(td_call *c, const char *key, uint32_t length, td_range *r);

/* Places [start, start + length) in r's space (offsets, or CPU addresses
 * for a space with a fixed place): stores offset, length and shown.
 * Returns 0 or -1 after an error result that names key. */
int td_place(td_call *c, const char *key, uint32_t start, uint32_t length, td_range *r);

/* Writes "space", "address", "address_hex", "end", "end_hex", "length"
 * of r (addresses as shown) into the object w is in. */
void td_write_range(mh_json_writer *w, const td_range *r);

/* A space's name by index ("?" when none). */
const char *td_space_name(td_call *c, size_t space);

/* ---- text ---- */

typedef struct td_buf {
    char *text;
    size_t length, capacity;
    int failed;
} td_buf;

void td_buf_printf(td_buf *b, const char *format, ...) __attribute__((format(printf, 2, 3)));
void td_buf_append(td_buf *b, const char *text, size_t length);
/* Makes room for n more bytes; returns where they go (NULL on failure);
 * the caller then adds n to b->length. */
char *td_buf_reserve(td_buf *b, size_t n);
void td_buf_free(td_buf *b);

/* "0123456789ABCDEF" pairs: td_hex_table[b] is the two digits of b. */
extern const char td_hex_table[256][2];

/* Writes n bytes as 2n hex digits (no separators); returns 2n. */
size_t td_hex_compact(char *out, const uint8_t *bytes, size_t n);
/* Writes n bytes as "A9 01 8D" (3n - 1 characters); returns that. */
size_t td_hex_spaced(char *out, const uint8_t *bytes, size_t n);

/* "$0F" (two digits) into out (at least 4 bytes). */
void td_format_byte(char out[4], uint8_t value);
/* Inside an object: "key": value, "key_hex": "$0F". */
void td_write_byte(mh_json_writer *w, const char *key, uint8_t value);

/* Finishes w into structuredContent and adds text (if not NULL) as the
 * text content. Frees nothing of the caller's. */
void td_result(td_call *c, mh_json_writer *w, const char *text);

/* Registers count tools with user_data = plugin. */
#define td_register_table(plugin, tools, count)                                                  \
    mh_toolkit_register_tools((plugin)->host, (plugin)->registry, (tools), (count), NULL, (plugin))

/* The execution state as text when the host's engine can say ("paused",
 * "running" ...), else NULL. */
const char *td_exec_state(td_call *c);

#endif
