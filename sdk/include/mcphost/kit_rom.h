/* mcphost/kit_rom.h - finding and reading a machine's ROM files in its
 * rom_dir (static helper library mh_machine_kit, link target
 * mcphost::machine_kit; docs/machine-kit.md).
 *
 * A machine lists each ROM's file names (VICE's and the generic ones) in
 * its own search order; mh_kit_rom_find() picks the first regular file of
 * them, mh_kit_rom_read() reads it, refusing one of the wrong size, and
 * mh_kit_rom_dir_check() says when rom_dir is no directory. Messages name
 * the file (or directory) and what is wrong; what to say when no file is
 * found is the machine's (its hint: a package, --rom-dir).
 *
 * Ownership: all buffers are the caller's; nothing is kept.
 * Threads: [thread-safe]: no global state (errno aside).
 */
#ifndef MCPHOST_KIT_ROM_H
#define MCPHOST_KIT_ROM_H

#include <stddef.h>
#include <stdint.h>

#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* MH_OK when dir is a directory; else MH_ERR_NOT_FOUND with
 * "rom_dir DIR: REASON" and hint (may be NULL or "") appended. */
mh_status mh_kit_rom_dir_check(const char *dir, const char *hint, char *error, size_t error_size);

/* Writes "dir/name" of the first of names[0..count) (a NULL ends the list
 * early) that is a regular file into path and returns 1; 0 when none is. */
int mh_kit_rom_find(const char *dir, const char *const *names, size_t count, char *path,
                    size_t path_size);

/* Reads exactly size bytes of path into out. label names the ROM in
 * messages ("kernal ROM"); size_note (NULL or "") is appended to the
 * wrong-size message. Errors: MH_ERR_NOT_FOUND (no regular file),
 * MH_ERR_INVALID_ARGUMENT (wrong size), MH_ERR_IO. */
mh_status mh_kit_rom_read(const char *label, const char *path, uint8_t *out, size_t size,
                          const char *size_note, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
