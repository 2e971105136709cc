/* mcphost/file_write.h - how a plugin (or the host) writes a file: the SDK's
 * static helper library mh_files (link target mcphost::files), the writing
 * half beside the "mh.files/1" service (files.h), which decides WHERE a
 * client may write; this decides HOW.
 *
 * Every file mcphost writes goes through these calls, so that a file
 * planted in an allowed directory (a symbolic link, a FIFO, a device) can
 * neither redirect a write nor block the thread that writes:
 *
 *   mh_file_write()        a whole file at once (snapshot, WAV, PNG);
 *   mh_file_begin() ... mh_file_commit() / mh_file_abort()
 *                          the same for a file produced piece by piece;
 *   mh_file_open_stream()  a file written while something runs (an output
 *                          port), opened in place.
 *
 * A whole-file write creates a temporary file with an unpredictable name
 * (".NAME.<random>.tmp") exclusively (O_CREAT|O_EXCL|O_NOFOLLOW) in the
 * target's directory, writes it, fsyncs it, renames it onto the target and
 * fsyncs the directory: the target is either the old file or the complete
 * new one, also after a crash. Without MH_FILE_OVERWRITE an existing target
 * is never replaced: the rename itself refuses (renameat2 RENAME_NOREPLACE;
 * link() + unlink() where the filesystem does not take that flag), so a
 * file that appears meanwhile is kept too. With MH_FILE_OVERWRITE only a
 * regular file is replaced (its permission bits are kept); a directory, a
 * symbolic link, a FIFO or a device at the target is refused.
 *
 * The path is used as given: resolve a client's path with mh.files/1
 * (MH_FILES_WRITE) first. Errors are mh_status codes with a message in
 * error that names the file: MH_ERR_EXISTS (exists, not replaced: the
 * caller adds how to ask for replacing, e.g. "pass overwrite: true"),
 * MH_ERR_INVALID_ARGUMENT (not a regular file, no file name),
 * MH_ERR_NOT_FOUND (the directory is missing), MH_ERR_IO, MH_ERR_NO_MEMORY.
 *
 * Why a static library and not a call in mh.files/1: the writes happen in
 * the plugin, on its thread, on descriptors it owns (a stream stays open for
 * a session's life), and a third-party plugin gets the same behaviour from
 * any 1.x host without a newer service.
 *
 * Ownership: an mh_file_out is the caller's from mh_file_begin() until
 * mh_file_commit() or mh_file_abort() (exactly one of them), which free it.
 * The descriptor from mh_file_open_stream() is the caller's to close.
 * Thread-safety: no global state; [thread-safe]. Blocks only on the disk:
 * a FIFO is never opened for writing.
 */
#ifndef MCPHOST_FILE_WRITE_H
#define MCPHOST_FILE_WRITE_H

#include <stddef.h>
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Flags. */
#define MH_FILE_OVERWRITE 1u /* an existing regular file may be replaced */

typedef struct mh_file_out mh_file_out;

/* Writes size bytes of data as the file path (see above). */
mh_status mh_file_write(const char *path, const void *data, size_t size, unsigned flags,
                        char *error, size_t error_size);

/* Starts a whole-file write: checks the target (an existing one is refused
 * early without MH_FILE_OVERWRITE) and creates the temporary file. *out is
 * NULL on error. */
mh_status mh_file_begin(const char *path, unsigned flags, mh_file_out **out, char *error,
                        size_t error_size);
/* The temporary file's descriptor, to write to (do not close it). */
int mh_file_out_fd(const mh_file_out *out);
/* Appends size bytes (retries short writes). */
mh_status mh_file_out_write(mh_file_out *out, const void *data, size_t size, char *error,
                            size_t error_size);
/* fsync, rename onto the target, fsync the directory; frees out. On error
 * the temporary file is removed and the target is as it was. */
mh_status mh_file_commit(mh_file_out *out, char *error, size_t error_size);
/* Removes the temporary file and frees out (NULL: nothing). */
void mh_file_abort(mh_file_out *out);

/* Opens path for writing in place, for output written while something runs:
 * never through a symbolic link (O_NOFOLLOW), only a regular file (a FIFO
 * or device is refused without blocking), an existing file only with
 * MH_FILE_OVERWRITE (then truncated once it is known to be a regular file),
 * else created exclusively. *fd is the open descriptor (close-on-exec,
 * blocking), or -1 on error. */
mh_status mh_file_open_stream(const char *path, unsigned flags, int *fd, char *error,
                              size_t error_size);

#ifdef __cplusplus
}
#endif
#endif
