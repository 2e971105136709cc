/* td_annot.h - @mcp annotations in assembly sources: comments of the form
 *     ; @mcp-<type>: <description>
 * (after ';', '//', '/ *' or '*' on the line) describe the code or data
 * they precede. The seed's types are multiplex, irq-handler, irq-exit,
 * timing-critical, state, memory, function, bug-known and optimization;
 * any other type is kept as written.
 *
 * td_annot_scan() is pure parsing of text the caller owns (outside input:
 * bounded, never reads past text + size); [thread-safe]. The session's
 * annotations (addresses from the line table or the labels) are kept by
 * td_annotations.c.
 */
#ifndef TD_ANNOT_H
#define TD_ANNOT_H

#include <stddef.h>
#include <stdint.h>

#define TD_ANNOT_MAX_TYPE 32
#define TD_ANNOT_MAX_TEXT 240

/* One annotation found at line line_no (from 1); type and text point into
 * the source (not NUL-terminated), type 1-TD_ANNOT_MAX_TYPE bytes of
 * [a-z0-9-], text at most TD_ANNOT_MAX_TEXT bytes (cut), trimmed.
 * Return nonzero to stop. */
typedef int (*td_annot_fn)(void *user, uint32_t line_no, const char *type, size_t type_length,
                           const char *text, size_t text_length);

/* Calls fn for every annotation in the source; returns how many. */
size_t td_annot_scan(const char *text, size_t size, td_annot_fn fn, void *user);

/* The label a line defines at its start ("fill_screen:" or "fill_screen"
 * in the first column), for sources without line info: 1 and name/length
 * when there is one. */
int td_annot_line_label(const char *line, size_t length, const char **name, size_t *name_length);

#endif
