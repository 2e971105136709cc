/* td_source.h - where an address is in the program: its label+offset
 * (td_resolve.h) and, from the session's line table (td_lines.h), its
 * source file, line and that line's text, read through the host's file
 * service (mh.files/1), so only files in the allowed directories are read.
 *
 * Used by the stop records of the execution tools, execution_step's
 * unit "line" (td_stepline.c) and the source_lines tool.
 * Threads: [thread-safe]; every function locks the store itself (never
 * call with it held). Results are copies the caller owns.
 */
#ifndef TD_SOURCE_H
#define TD_SOURCE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <mcphost/json.h>

#include "td_annot.h"
#include "tools_debug.h"

#define TD_SOURCE_TEXT 200 /* bytes of a source line kept (cut beyond) */

typedef struct td_where {
    char symbol[160];         /* "fill_screen+2", or "" */
    int has_line;             /* the fields below are set */
    char file[256];           /* as the debug info names it */
    char path[PATH_MAX];      /* where it is read from */
    uint32_t line;            /* from 1 */
    uint32_t start, end;      /* the address range of that line */
    char text[TD_SOURCE_TEXT + 1]; /* the line's text; "" when unreadable */
    char annotation_type[TD_ANNOT_MAX_TYPE + 1]; /* the @mcp annotation governing it, or "" */
    char annotation[TD_ANNOT_MAX_TEXT + 1];
} td_where;

/* Fills w for address in session; read_text 0 skips reading the source.
 * The line's text is remembered per session while its file is unchanged,
 * so a stop's event and the tool's answer read the file once. */
void td_where_of(td_plugin *plugin, const char *session, uint32_t address, int read_text,
                 td_where *w);

/* Line `line` of the source file at path (through mh.files/1) into out;
 * 0 when it cannot be read. */
int td_source_line_text(td_plugin *plugin, const char *path, uint32_t line, char *out,
                        size_t size);

/* The text form of w for a summary line: " | symbol | file:line: text |
 * @mcp-type: text", each part only when w has it ("" for nothing). */
void td_where_text(const td_where *w, char *text, size_t size);

/* Writes "symbol", "source": {"file", "line", "text"} and "annotation":
 * {"type", "text"} of w as members of the open object (nothing for what w
 * lacks). */
void td_where_write(mh_json_writer *writer, const td_where *w);

/* A state JSON object (mh.debug/1 state_json, malloc'ed) with "symbol" and
 * "source" added to its "stop" object; returns the new text (json freed)
 * or json itself when there is nothing to add. text (size bytes) gets
 * " | fill_screen+2 | main.s:12: lda #1" for the summary, or "". */
char *td_where_stop_json(td_plugin *plugin, const char *session, char *json, char *text,
                         size_t size);

/* The stop annotator (mh.debug/1 add_stop_annotator, user = the plugin):
 * "symbol", "source", "annotation" and "where" (the summary text without
 * its leading " | ") of pc as JSON members, so stop events say what the
 * execution tools' answers say. [emu-thread] */
size_t td_where_stop_members(void *user, mh_session *session, uint16_t pc, char *members,
                             size_t size);

/* The tracepoint log JSON (mh.debug/1 trace_json, malloc'ed) with
 * "symbol" and "annotation" after every entry's "pc_hex"; returns the new text (json freed)
 * or json itself when nothing was added. */
char *td_where_trace_json(td_plugin *plugin, const char *session, char *json);

/* The source_lines tool (MH_TOOL_NEEDS_SESSION). */
void td_source_lines(void *user, mh_call *call);

#endif
