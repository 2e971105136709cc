/* td_annotations.h - a session's @mcp annotations (td_annot.h), indexed by
 * the address of the code or data each precedes: from the line table when
 * the source came with debug info (the first line with code at or after
 * the comment), else from the first label defined after it that the
 * session's symbols know. Filled by symbols_load (every source file of the
 * debug info) and annotations_list's `sources`; read by the annotations_*
 * tools, stop records and the tracepoint log (td_source.c).
 *
 * Ownership: td_annots lives in the session state (td_store.h) and owns
 * its entries. Threads: td_annotations_index() takes the store's lock
 * itself and reads files outside it (call it without the lock); the rest
 * runs with the lock held.
 */
#ifndef TD_ANNOTATIONS_H
#define TD_ANNOTATIONS_H

#include <stddef.h>
#include <stdint.h>

#include "td_annot.h"
#include "tools_debug.h"

#define TD_MAX_ANNOTATIONS 20000u

typedef struct td_annotation {
    char type[TD_ANNOT_MAX_TYPE + 1];
    char *text;
    char *file; /* the source as named (debug info or sources) */
    uint32_t line;
    int has_address;
    uint32_t address;
} td_annotation;

typedef struct td_annots {
    td_annotation *items;
    size_t count;
} td_annots;

struct td_session_state;

void td_annots_clear(td_annots *annots);

/* Reads and indexes sources: paths (count of them, resolved through
 * mh.files/1), and with from_lines 1 every source file of the session's
 * line table. Annotations of a file indexed again are replaced. Returns
 * how many were found; *unreadable counts files that could not be read. */
size_t td_annotations_index(td_plugin *plugin, const char *session, const char *const *paths,
                            size_t count, int from_lines, size_t *unreadable);

/* The annotation governing address: the nearest at or below it (at most
 * 255 bytes), or NULL. With the lock held. */
const td_annotation *td_annotations_at(struct td_session_state *state, uint32_t address);

/* The tools (MH_TOOL_NEEDS_SESSION). */
void td_annotations_list(void *user, mh_call *call);
void td_annotations_get(void *user, mh_call *call);
void td_annotations_search(void *user, mh_call *call);

#endif
