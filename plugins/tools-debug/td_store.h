/* td_store.h - the per-session state of the memory and code tools: the
 * symbol table (symbols_load, used by every address argument through
 * td_resolve.h, disassemble, assemble and backtrace), the source line
 * table (td_lines.h) and @mcp annotations (td_annotations.h) from debug
 * info, and named memory snapshots (memory_compare save_as / against).
 *
 * One td_store per loaded plugin (td_plugin.store), created by the first
 * tool group that registers and freed at deinit (td_store_free, declared in
 * tools_debug.h). State is keyed by session name; nothing is global.
 * Threads: [thread-safe] through the store's mutex: td_store_lock() returns
 * a session's state with the mutex held until td_store_unlock(). Keep the
 * lock short (no calls back into the host while holding it).
 */
#ifndef TD_STORE_H
#define TD_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "td_annotations.h"
#include "td_lines.h"
#include "tools_debug.h"

#define TD_MAX_SYMBOLS 200000u
#define TD_MAX_SYMBOL_NAME 128u
#define TD_MAX_SNAPSHOTS 32u
#define TD_MAX_SNAPSHOT_NAME 64u

typedef struct td_symbol {
    char *name;
    uint32_t address;
    uint32_t seq; /* order of adding: a later symbol of the same name wins */
} td_symbol;

typedef struct td_snapshot {
    char name[TD_MAX_SNAPSHOT_NAME + 1];
    char space_name[32];
    size_t space;
    uint32_t offset, length, shown;
    uint8_t *bytes;
} td_snapshot;

typedef struct td_session_state {
    char *session;
    td_symbol *symbols; /* sorted by address, then name, when sorted is 1 */
    size_t symbol_count, symbol_capacity;
    uint32_t *by_name;  /* indices into symbols sorted by name (when sorted) */
    uint32_t next_seq;
    int sorted;
    td_snapshot *snapshots[TD_MAX_SNAPSHOTS];
    td_lines lines; /* source lines from debug info (td_lines.h) */
    td_annots annots; /* @mcp annotations of the sources (td_annotations.h) */
    void *scratch; /* a buffer kept between memory_read calls (td_scratch_*) */
    size_t scratch_size;
    struct td_line_memo *line_memo; /* the last source line read, or NULL (td_source.c) */
} td_session_state;

struct td_store;
typedef struct td_store td_store;

/* Creates plugin->store if it is not there yet. */
mh_status td_store_ensure(td_plugin *plugin);

/* The state of session `name` with the store locked; create 1 makes it
 * when missing (NULL only when out of memory), create 0 returns NULL when
 * there is none (the lock is still held: always unlock). */
td_session_state *td_store_lock(td_store *store, const char *name, int create);
void td_store_unlock(td_store *store);

/* Adds a symbol (a name added again moves to the new address); MH_ERR_LIMIT past TD_MAX_SYMBOLS. */
mh_status td_symbols_add(td_session_state *state, const char *name, size_t name_length,
                         uint32_t address);
void td_symbols_clear(td_session_state *state);
/* The first symbol at address, or NULL. */
const td_symbol *td_symbols_at(td_session_state *state, uint32_t address);
/* The symbol at or below address (nearest), or NULL. */
const td_symbol *td_symbols_below(td_session_state *state, uint32_t address);
/* By exact name (case-sensitive), or NULL. */
const td_symbol *td_symbols_find(td_session_state *state, const char *name, size_t length);
/* Sorts if needed (before iterating state->symbols in address order). */
void td_symbols_sort(td_session_state *state);

/* The snapshot named name, or NULL. */
td_snapshot *td_snapshot_find(td_session_state *state, const char *name);
/* Stores a copy (replacing one of the same name); MH_ERR_LIMIT when
 * TD_MAX_SNAPSHOTS others exist. */
mh_status td_snapshot_put(td_session_state *state, const td_snapshot *snapshot,
                          const uint8_t *bytes);

/* A buffer of at least size bytes for one call, reused from the session's
 * last call when big enough (large reads then do not map fresh pages every
 * time); give it back with td_scratch_put. NULL when out of memory. Takes
 * the store's lock briefly. */
void *td_scratch_get(td_store *store, const char *session, size_t size, size_t *capacity);
void td_scratch_put(td_store *store, const char *session, void *buffer, size_t capacity);

#endif
