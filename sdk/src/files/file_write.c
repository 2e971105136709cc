/* file_write.c - whole-file writes through an unpredictable temporary file,
 * and in-place output streams, that no planted link, FIFO or device can
 * redirect or block (mcphost/file_write.h).
 *
 * Everything after splitting the path works relative to a descriptor of
 * the target's directory (openat, fstatat, renameat2, linkat), so the
 * directory checked is the directory written.
 */
#define _GNU_SOURCE /* renameat2, RENAME_NOREPLACE, O_NOFOLLOW, getrandom */
#include "mcphost/file_write.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "file_write_internal.h"

#define TEMP_RANDOM 12      /* random characters in a temporary name */
#define TEMP_ATTEMPTS 100   /* names tried before giving up */

struct mh_file_out {
    int dir_fd;
    int fd;
    unsigned flags;
    char *path;                  /* as given, for messages */
    char base[NAME_MAX + 1];     /* the target's name in its directory */
    char temp[NAME_MAX + 1];     /* the temporary file's name there */
};

static void say(char *error, size_t error_size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void say(char *error, size_t error_size, const char *format, ...)
{
    if (!error || !error_size) return;
    va_list args;
    va_start(args, format);
    vsnprintf(error, error_size, format, args);
    va_end(args);
}

static mh_status io_status(int err)
{
    if (err == ENOENT || err == ENOTDIR) return MH_ERR_NOT_FOUND;
    if (err == ENOMEM) return MH_ERR_NO_MEMORY;
    return MH_ERR_IO;
}

/* What a non-regular file is, for messages. */
static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISLNK(mode)) return "a symbolic link";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    return "a special file";
}

/* Opens path's directory (O_DIRECTORY) and copies its last component to
 * base. Returns the descriptor, or -1 with the message. */
static int open_parent(const char *path, char base[NAME_MAX + 1], char *error, size_t error_size,
                       mh_status *status)
{
    *status = MH_ERR_INVALID_ARGUMENT;
    if (!path || !*path) {
        say(error, error_size, "no file name given");
        return -1;
    }
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    size_t name_len = strlen(name);
    if (!name_len || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
        say(error, error_size, "%s names a directory; give a file name to write", path);
        return -1;
    }
    if (name_len > NAME_MAX) {
        say(error, error_size, "%s: the file name is longer than %d bytes", path, NAME_MAX);
        return -1;
    }
    memcpy(base, name, name_len + 1);
    char dir[PATH_MAX];
    size_t dir_len = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
    if (dir_len >= sizeof dir) {
        say(error, error_size, "%s: the path is too long", path);
        return -1;
    }
    if (dir_len) {
        memcpy(dir, path, dir_len);
        dir[dir_len] = '\0';
    } else {
        strcpy(dir, ".");
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        int err = errno;
        *status = io_status(err);
        say(error, error_size, "cannot write %s: its directory %s: %s", path, dir, strerror(err));
        return -1;
    }
    *status = MH_OK;
    return fd;
}

/* Refuses what is at base already: anything but a regular file, and a
 * regular file without MH_FILE_OVERWRITE. *mode gets a regular file's
 * permission bits (0 when nothing is there). */
static mh_status check_target(int dir_fd, const char *path, const char *base, unsigned flags,
                              mode_t *mode, char *error, size_t error_size)
{
    struct stat st;
    *mode = 0;
    if (fstatat(dir_fd, base, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT) return MH_OK;
        int err = errno;
        say(error, error_size, "cannot write %s: %s", path, strerror(err));
        return io_status(err);
    }
    if (!S_ISREG(st.st_mode)) {
        say(error, error_size, "%s is %s, not a regular file; it was not replaced (give another "
                               "file name)",
            path, kind_of(st.st_mode));
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (!(flags & MH_FILE_OVERWRITE)) {
        say(error, error_size, "%s already exists; it was not replaced", path);
        return MH_ERR_EXISTS;
    }
    *mode = st.st_mode & 0777;
    return MH_OK;
}

/* TEMP_RANDOM characters from [a-z0-9], from the kernel's random source
 * (or, where that fails, the clock and an address: the name then is only
 * hard to guess, and O_EXCL still keeps the create safe). */
static void random_name(char out[TEMP_RANDOM + 1])
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    unsigned char bytes[TEMP_RANDOM];
    if (getrandom(bytes, sizeof bytes, GRND_NONBLOCK) != (ssize_t)sizeof bytes) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        unsigned long long seed = (unsigned long long)ts.tv_nsec ^
                                  (unsigned long long)ts.tv_sec << 20 ^
                                  (unsigned long long)(uintptr_t)out ^ (unsigned long long)getpid();
        for (size_t i = 0; i < sizeof bytes; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            bytes[i] = (unsigned char)(seed >> 33);
        }
    }
    for (size_t i = 0; i < TEMP_RANDOM; i++) out[i] = alphabet[bytes[i] % (sizeof alphabet - 1)];
    out[TEMP_RANDOM] = '\0';
}

/* Creates ".BASE.<random>.tmp" (BASE cut so the name fits) exclusively. */
static int create_temp(int dir_fd, const char *base, char temp[NAME_MAX + 1])
{
    int keep = (int)strlen(base);
    int room = NAME_MAX - (int)(sizeof ".." ".tmp" - 1) - TEMP_RANDOM;
    if (keep > room) keep = room;
    for (int attempt = 0; attempt < TEMP_ATTEMPTS; attempt++) {
        char random[TEMP_RANDOM + 1];
        random_name(random);
        snprintf(temp, NAME_MAX + 1, ".%.*s.%s.tmp", keep, base, random);
        int fd = openat(dir_fd, temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

mh_status mh_file_begin(const char *path, unsigned flags, mh_file_out **out, char *error,
                        size_t error_size)
{
    if (error && error_size) error[0] = '\0';
    if (!out) return MH_ERR_INVALID_ARGUMENT;
    *out = NULL;
    mh_file_out *f = calloc(1, sizeof *f);
    char *copy = path ? strdup(path) : NULL;
    if (!f || (path && !copy)) {
        free(f);
        free(copy);
        say(error, error_size, "out of memory writing %s", path ? path : "a file");
        return MH_ERR_NO_MEMORY;
    }
    f->path = copy;
    f->flags = flags;
    f->fd = -1;
    mh_status status;
    f->dir_fd = open_parent(path, f->base, error, error_size, &status);
    mode_t mode = 0;
    if (status == MH_OK)
        status = check_target(f->dir_fd, path, f->base, flags, &mode, error, error_size);
    if (status == MH_OK) {
        f->fd = create_temp(f->dir_fd, f->base, f->temp);
        if (f->fd < 0) {
            int err = errno;
            say(error, error_size, "cannot write %s: creating a temporary file beside it: %s",
                path, strerror(err));
            status = io_status(err);
        } else if (mode && fchmod(f->fd, mode) != 0) {
            int err = errno;
            say(error, error_size, "cannot write %s: %s", path, strerror(err));
            status = MH_ERR_IO;
        }
    }
    if (status != MH_OK) {
        mh_file_abort(f);
        return status;
    }
    *out = f;
    return MH_OK;
}

int mh_file_out_fd(const mh_file_out *out)
{
    return out ? out->fd : -1;
}

mh_status mh_file_out_write(mh_file_out *out, const void *data, size_t size, char *error,
                            size_t error_size)
{
    if (!out || (!data && size)) return MH_ERR_INVALID_ARGUMENT;
    const char *p = data;
    while (size) {
        ssize_t n = write(out->fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            int err = n < 0 ? errno : EIO;
            say(error, error_size, "cannot write %s: %s", out->path, strerror(err));
            return err == ENOSPC || err == EDQUOT ? MH_ERR_LIMIT : MH_ERR_IO;
        }
        p += n;
        size -= (size_t)n;
    }
    return MH_OK;
}

int mh_file_rename_noreplace_at(int dir_fd, const char *from, const char *to, int use_link)
{
#ifdef RENAME_NOREPLACE
    if (!use_link) {
        if (renameat2(dir_fd, from, dir_fd, to, RENAME_NOREPLACE) == 0) return 0;
        /* EINVAL / ENOSYS / EOPNOTSUPP: the filesystem (or kernel) does not
         * take the flag; anything else is the answer. */
        if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) return -1;
    }
#else
    (void)use_link;
#endif
    /* A hard link fails with EEXIST when the name is taken, atomically. */
    if (linkat(dir_fd, from, dir_fd, to, 0) != 0) return -1;
    unlinkat(dir_fd, from, 0);
    return 0;
}

mh_status mh_file_commit(mh_file_out *out, char *error, size_t error_size)
{
    if (!out) return MH_ERR_INVALID_ARGUMENT;
    mh_status status = MH_OK;
    int err = 0;
    if (fsync(out->fd) != 0) err = errno;
    if (close(out->fd) != 0 && !err) err = errno;
    out->fd = -1;
    if (err) {
        say(error, error_size, "cannot write %s: %s", out->path, strerror(err));
        status = err == ENOSPC || err == EDQUOT ? MH_ERR_LIMIT : MH_ERR_IO;
    }
    if (status == MH_OK) {
        int renamed = out->flags & MH_FILE_OVERWRITE
                          ? renameat(out->dir_fd, out->temp, out->dir_fd, out->base)
                          : mh_file_rename_noreplace_at(out->dir_fd, out->temp, out->base, 0);
        if (renamed != 0) {
            err = errno;
            if (err == EEXIST) {
                say(error, error_size, "%s already exists; it was not replaced", out->path);
                status = MH_ERR_EXISTS;
            } else if (err == EISDIR) {
                say(error, error_size, "%s is a directory, not a regular file; it was not "
                                       "replaced (give another file name)",
                    out->path);
                status = MH_ERR_INVALID_ARGUMENT;
            } else {
                say(error, error_size, "cannot write %s: %s", out->path, strerror(err));
                status = MH_ERR_IO;
            }
        } else {
            out->temp[0] = '\0'; /* it is the target now */
            /* The rename itself is durable only once the directory is. Some
             * filesystems cannot sync a directory (EINVAL): nothing to do. */
            if (fsync(out->dir_fd) != 0 && errno != EINVAL && errno != EROFS) {
                err = errno;
                say(error, error_size, "%s was written, but syncing its directory failed: %s",
                    out->path, strerror(err));
                status = MH_ERR_IO;
            }
        }
    }
    mh_file_abort(out);
    return status;
}

void mh_file_abort(mh_file_out *out)
{
    if (!out) return;
    if (out->fd >= 0) close(out->fd);
    if (out->dir_fd >= 0) {
        if (out->temp[0]) unlinkat(out->dir_fd, out->temp, 0);
        close(out->dir_fd);
    }
    free(out->path);
    free(out);
}

mh_status mh_file_write(const char *path, const void *data, size_t size, unsigned flags,
                        char *error, size_t error_size)
{
    if (!data && size) return MH_ERR_INVALID_ARGUMENT;
    mh_file_out *out = NULL;
    mh_status status = mh_file_begin(path, flags, &out, error, error_size);
    if (status == MH_OK) status = mh_file_out_write(out, data, size, error, error_size);
    if (status == MH_OK) return mh_file_commit(out, error, error_size);
    mh_file_abort(out);
    return status;
}

mh_status mh_file_open_stream(const char *path, unsigned flags, int *fd, char *error,
                              size_t error_size)
{
    if (error && error_size) error[0] = '\0';
    if (!fd) return MH_ERR_INVALID_ARGUMENT;
    *fd = -1;
    char base[NAME_MAX + 1];
    mh_status status;
    int dir_fd = open_parent(path, base, error, error_size, &status);
    if (status != MH_OK) return status;
    mode_t mode = 0;
    status = check_target(dir_fd, path, base, flags, &mode, error, error_size);
    int file = -1;
    if (status == MH_OK) {
        /* O_NONBLOCK: should a FIFO appear after the check, the open fails
         * (ENXIO) or returns at once instead of waiting for a reader. */
        int how = O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
        if (!(flags & MH_FILE_OVERWRITE)) how |= O_EXCL;
        file = openat(dir_fd, base, how, 0666);
        struct stat st;
        if (file < 0) {
            int err = errno;
            if (err == EEXIST) {
                say(error, error_size, "%s already exists; it was not replaced", path);
                status = MH_ERR_EXISTS;
            } else if (err == ELOOP || err == ENXIO) {
                say(error, error_size, "%s is %s, not a regular file; give another file name",
                    path, err == ELOOP ? "a symbolic link" : "a FIFO or device");
                status = MH_ERR_INVALID_ARGUMENT;
            } else {
                say(error, error_size, "cannot write %s: %s", path, strerror(err));
                status = io_status(err);
            }
        } else if (fstat(file, &st) != 0 || !S_ISREG(st.st_mode)) {
            say(error, error_size, "%s is not a regular file; give another file name", path);
            status = MH_ERR_INVALID_ARGUMENT;
        } else if ((flags & MH_FILE_OVERWRITE) && ftruncate(file, 0) != 0) {
            say(error, error_size, "cannot write %s: %s", path, strerror(errno));
            status = MH_ERR_IO;
        } else if (fcntl(file, F_SETFL, fcntl(file, F_GETFL) & ~O_NONBLOCK) != 0) {
            say(error, error_size, "cannot write %s: %s", path, strerror(errno));
            status = MH_ERR_IO;
        }
    }
    if (status != MH_OK && file >= 0) close(file);
    if (status == MH_OK) {
        fsync(dir_fd); /* the new name, should the machine's output matter after a crash */
        *fd = file;
    }
    close(dir_fd);
    return status;
}
