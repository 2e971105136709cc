/* td_resolve.h - addresses by name: the one parser every tool of
 * tools-debug uses for an address argument, and the label beside an
 * address in results.
 *
 * An address argument is a number (49152, "$C000", "0xC000", "49152",
 * "%1100000000000000"), a label of the calling session's symbol table
 * ("fill_screen"), or a label with an offset ("fill_screen+3",
 * "table-$10"). A label is found by its exact name; else by its last part
 * ("loop" finds "fill::loop"); else ignoring case. A name that matches
 * none, or several, is an error that names the closest labels (shared
 * prefix, then edit distance).
 *
 * Threads: [thread-safe]; the functions that take a store lock it
 * themselves (never call them with the lock held). Nothing allocates that
 * outlives a call.
 */
#ifndef TD_RESOLVE_H
#define TD_RESOLVE_H

#include <stddef.h>
#include <stdint.h>

#include <mcphost/json.h>
#include <mcphost/status.h>

#include "td_store.h"

/* One value (already looked up) as an address from 0 to max; key names it
 * in messages. MH_OK, MH_ERR_INVALID_ARGUMENT or MH_ERR_LIMIT (message in
 * err). */
mh_status td_resolve_value(td_store *store, const char *session, const mh_json *value,
                           const char *key, uint32_t max, uint32_t *out, char *err,
                           size_t err_size);
/* The member key of args; MH_ERR_NOT_FOUND when missing or null. */
mh_status td_resolve_arg(td_store *store, const char *session, const mh_json *args,
                         const char *key, uint32_t max, uint32_t *out, char *err,
                         size_t err_size);
/* Whether value (may be NULL) is a string read as a label, not a number. */
int td_resolve_is_label(const mh_json *value);

/* mh_args_range() with labels: `address` plus `length` or `end`. */
mh_status td_resolve_range(td_store *store, const char *session, const mh_json *args,
                           uint32_t max_address, uint32_t default_length, uint32_t max_length,
                           uint32_t *start, uint32_t *length, char *err, size_t err_size);

/* A label (name[0..length-1], no offset) in state: 1 and *value when
 * found, 0 with a message in why (may be NULL) naming the closest labels
 * when unknown or ambiguous. Call with the store locked. */
int td_resolve_label(td_session_state *state, const char *name, size_t length, uint32_t *value,
                     char *why, size_t why_size);

/* "fill_screen+3" (a label at or up to 255 bytes below address) into out;
 * returns 0 and writes "" when there is none. Call with the store locked. */
int td_resolve_format(td_session_state *state, uint32_t address, char *out, size_t size);
/* The same, locking the store; session NULL or unknown gives "". */
int td_resolve_format_locked(td_store *store, const char *session, uint32_t address, char *out,
                             size_t size);

#endif
