/* mcphost/kit_media.h - the kind checks every machine's "mh.media/1"
 * repeats (static helper library mh_machine_kit, link target
 * mcphost::machine_kit; docs/machine-kit.md).
 *
 * A machine lists its media kinds once (mh_kit_media_kinds); the kit finds
 * a kind's index and refuses an unknown kind or an empty path with the
 * message every machine gives:
 *   media kind "x": the c64 takes "disk", "tape", "cartridge" or "program"
 *   disk: no path given
 * What attaching or detaching a kind does stays the machine's.
 *
 * Ownership: nothing allocated; the kinds table is the caller's (static).
 * Threads: [thread-safe]: pure functions, no global state.
 */
#ifndef MCPHOST_KIT_MEDIA_H
#define MCPHOST_KIT_MEDIA_H

#include <stddef.h>

#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mh_kit_media_kinds {
    const char *machine;      /* "c64": for the message */
    const char *const *names; /* "disk", "cartridge", ... */
    size_t count;
} mh_kit_media_kinds;

/* The index of kind in kinds->names, or -1 (kind NULL or unknown). */
int mh_kit_media_kind(const mh_kit_media_kinds *kinds, const char *kind);

/* The refusal of an unknown kind: the message above, MH_ERR_INVALID_ARGUMENT. */
mh_status mh_kit_media_bad_kind(const mh_kit_media_kinds *kinds, const char *kind, char *error,
                                size_t error_size);

/* attach()'s checks: clears error, *index = the kind's index; refuses an
 * unknown kind and a NULL or empty path (MH_ERR_INVALID_ARGUMENT). */
mh_status mh_kit_media_attach_check(const mh_kit_media_kinds *kinds, const char *kind,
                                    const char *path, int *index, char *error,
                                    size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
