/* mcphost/files.h - the directories a user allowed mcphost to read and
 * write, "mh.files/1".
 *
 * Offers: resolve(), which turns a path a client sent (a tool argument, a
 * session option) into an absolute path inside one of the allowed
 * directories, or refuses it with a message a client can act on. The
 * allowed directories are the host's --allow-dir options (repeatable); with
 * none given, the working directory mcphost started in. Relative paths are
 * taken relative to the first allowed directory.
 *
 * Every plugin that opens a file named by a client goes through resolve():
 * "..", absolute paths elsewhere and symbolic links that lead out are all
 * refused (the real path is compared with the allowed directories by prefix
 * up to a '/', so /allowed-evil is not inside /allowed), e.g.
 *   path "../secret.d64" uses "..", which is refused as a way outside the
 *   allowed directories (/home/u/c64); start mcphost with --allow-dir DIR to
 *   allow another directory
 * A missing file is reported missing only when its directory is inside.
 * Files the user named on mcphost's own command line (--autostart FILE,
 * --config NAME=FILE) are allowed one by one wherever they are.
 * docs/architecture.md ("Files") has the rules.
 *
 * Ownership: strings returned by dir_at() live as long as the host.
 * Thread: [thread-safe].
 */
#ifndef MCPHOST_FILES_H
#define MCPHOST_FILES_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/plugin.h"
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_FILES_SERVICE_ID "mh.files/1"

/* What the caller will do with the path. */
enum {
    MH_FILES_READ = 1,  /* the file must exist and be a regular file */
    MH_FILES_WRITE = 2, /* the file may not exist yet; its directory must */
    MH_FILES_DIR = 4    /* the path must be an existing directory */
};

typedef struct mh_files_service {
    uint32_t struct_size;
    /* Resolves path for mode (one of MH_FILES_*) into out (an absolute,
     * symlink-free path). MH_ERR_INVALID_ARGUMENT for an empty or too long
     * path, MH_ERR_DENIED (status.h) outside the allowed directories,
     * MH_ERR_NOT_FOUND when a file to read or a directory is missing;
     * error says which and what to do. */
    mh_status (*resolve)(const mh_host *host, const char *path, uint32_t mode, char *out,
                         size_t out_size, char *error, size_t error_size);
    size_t (*dir_count)(const mh_host *host);
    const char *(*dir_at)(const mh_host *host, size_t index);
} mh_files_service;

#ifdef __cplusplus
}
#endif
#endif
