/* td_lines.h - a session's source line table: which source file and line
 * each address range came from (loaded from debug info by symbols_load),
 * for source_lines, stop records and stepping by line.
 *
 * Ownership: a td_lines lives in its session's td_session_state (td_store.h)
 * and owns its files and ranges; td_lines_clear() frees them. Threads: only
 * under the store's lock, like the rest of the session state.
 */
#ifndef TD_LINES_H
#define TD_LINES_H

#include <stddef.h>
#include <stdint.h>

#include <mcphost/status.h>

#define TD_MAX_LINES 1000000u
#define TD_MAX_SOURCE_FILES 4096u

typedef struct td_src_file {
    char *name; /* as the debug info names it */
    char *path; /* name, joined to the debug info file's folder when relative */
} td_src_file;

typedef struct td_line {
    uint32_t start, end; /* CPU addresses, inclusive */
    uint32_t file;       /* index into files */
    uint32_t line;       /* from 1 */
} td_line;

typedef struct td_lines {
    td_src_file *files;
    size_t file_count;
    td_line *items; /* sorted by start when sorted is 1 */
    size_t count, capacity;
    uint32_t longest; /* the longest range's length - 1 (bounds lookups) */
    int sorted;
} td_lines;

/* Adds a source file; *index is its place in files. base_dir (may be NULL)
 * is the folder relative names are read from. */
mh_status td_lines_add_file(td_lines *lines, const char *name, size_t length,
                            const char *base_dir, uint32_t *index);
/* Adds a range; MH_ERR_LIMIT past TD_MAX_LINES. */
mh_status td_lines_add(td_lines *lines, uint32_t file, uint32_t line, uint32_t start,
                       uint32_t end);
void td_lines_clear(td_lines *lines);

/* The narrowest range holding address, or NULL. */
const td_line *td_lines_at(td_lines *lines, uint32_t address);
/* Whether a file's name matches what a user wrote: the whole name or path,
 * or its last components ("main.s" matches "src/main.s"). */
int td_lines_file_matches(const td_src_file *file, const char *query);
/* Up to max ranges of file:line (file as td_lines_file_matches), lowest
 * address first; returns how many there are in all. */
size_t td_lines_find(td_lines *lines, const char *file, uint32_t line, const td_line **out,
                     size_t max);

#endif
