/* host/files/files.h - the mh.files/1 service (files.c): the allowed
 * directories of this host and path confinement.
 * mh_files_setup/mh_files_free: [main-thread], before plugins use the
 * service / after they are gone. The service itself: [thread-safe] (the
 * list is not changed while plugins run). */
#ifndef MH_HOST_FILES_H
#define MH_HOST_FILES_H

#include <stddef.h>
#include "mcphost/files.h"
#include "ptrvec.h"

struct mh_hostctx;

extern const mh_files_service mh_files_service_impl;

/* Sets ctx->allowed_dirs from dirs (char*, as given: --allow-dir), each
 * realpath'd and stored as an owned string; with no dirs, the working
 * directory. Returns 0, or -1 with a message naming the directory that is
 * missing or not a directory. */
int mh_files_setup(struct mh_hostctx *ctx, const mh_ptrvec *dirs, char *error, size_t error_size);
/* Allows one more file by itself: a value the user gave on the command
 * line (--autostart FILE, --rom-dir DIR, --config NAME=FILE), relative to
 * the working directory. When it names an existing file or directory, or a
 * file to be made in an existing directory, its real path goes into
 * ctx->allowed_files, which resolve() accepts wherever it is (exactly that
 * path: not the files in a directory). Other values are ignored. Returns
 * 0, or -1 when out of memory. */
int mh_files_trust(struct mh_hostctx *ctx, const char *value);
/* Frees the strings in ctx->allowed_dirs and ctx->allowed_files. */
void mh_files_free(struct mh_hostctx *ctx);

/* The resolver behind the service, on an explicit list (char*, realpath'd).
 * With an empty list the working directory is the one allowed directory. */
mh_status mh_files_resolve_in(const mh_ptrvec *dirs, const char *path, uint32_t mode, char *out,
                              size_t out_size, char *error, size_t error_size);
/* The same, also accepting exactly the files in `files` (char*, real
 * paths; may be NULL). */
mh_status mh_files_resolve_with(const mh_ptrvec *dirs, const mh_ptrvec *files, const char *path,
                                uint32_t mode, char *out, size_t out_size, char *error,
                                size_t error_size);

#endif
