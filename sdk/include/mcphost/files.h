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
 * mh_files_confine() (inline) is what a machine plugin does with a path
 * option: resolve it and replace the malloc'ed string by the result.
 * This decides WHERE; how to write there (never through a planted link or
 * FIFO, no silent overwrite) is mcphost/file_write.h (mcphost::files).
 *
 * Ownership: strings returned by dir_at() live as long as the host.
 * Thread: [thread-safe].
 */
#ifndef MCPHOST_FILES_H
#define MCPHOST_FILES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Resolves the option `option`'s malloc'ed path *path (NULL: nothing to do)
 * for mode and replaces it by the resolved copy (the old string is freed).
 * On refusal returns the service's status with "<option>: <why>" in error;
 * MH_ERR_NO_MEMORY leaves *path and error as they were. */
static inline mh_status mh_files_confine(const mh_files_service *files, const mh_host *host,
                                         const char *option, char **path, uint32_t mode,
                                         char *error, size_t error_size)
{
    if (!*path) return MH_OK;
    char resolved[4096], why[1536];
    mh_status status =
        files->resolve(host, *path, mode, resolved, sizeof resolved, why, sizeof why);
    if (status != MH_OK) {
        snprintf(error, error_size, "%s: %s", option, why);
        return status;
    }
    char *copy = (char *)malloc(strlen(resolved) + 1);
    if (!copy) return MH_ERR_NO_MEMORY;
    memcpy(copy, resolved, strlen(resolved) + 1);
    free(*path);
    *path = copy;
    return MH_OK;
}

#ifdef __cplusplus
}
#endif
#endif
