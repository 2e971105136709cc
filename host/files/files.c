/* files.c - "mh.files/1": confines the paths clients name (tool arguments,
 * session options) to the directories the user allowed with --allow-dir
 * (default: the working directory at start-up).
 *
 * resolve() in order: the path must be non-empty, shorter than PATH_MAX and
 * have no ".." component; a relative path is joined to the first allowed
 * directory; then the real (symlink-free) path is compared with the allowed
 * directories by prefix up to a '/' boundary (so /allowed-evil is not inside
 * /allowed). READ and DIR compare the realpath of the file itself; WRITE the
 * realpath of its parent directory, and when the file already exists (or is
 * a symlink, even a dangling one) the realpath of the file too, so a link
 * planted inside cannot make a write land outside. A missing file is only
 * reported as missing when its directory is inside; otherwise the path is
 * refused, so the service never tells a client what exists elsewhere.
 * Files and directories the user named on mcphost's own command line
 * (--autostart FILE, --rom-dir DIR, --config NAME=FILE) are allowed one by
 * one wherever they are (mh_files_trust): the user chose them; clients get
 * exactly those paths, not what lies beside or below them.
 * The checks are path checks at call time (a file swapped between resolve
 * and open is not guarded against: the allowed directories are the user's).
 */
#include "files.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mcphost/json.h>

#include "hostctx.h"
#include "loader.h"

/* A path quoted in a message: at most 300 bytes, cut on a UTF-8 character
 * boundary; for "%.*s". */
#define QUOTE(path) mh_utf8_prefix((path), 300), (path)

/* Where paths may lead: the allowed directories, and single files the user
 * named on the command line. */
typedef struct scope {
    const mh_ptrvec *dirs;
    const mh_ptrvec *files; /* may be NULL */
} scope;

/* The allowed directories as one text for messages ("/a, /b"). */
static void dir_list(const mh_ptrvec *dirs, char *out, size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; i < dirs->count; i++) {
        size_t used = strlen(out);
        if (used + 1 >= size) break;
        snprintf(out + used, size - used, "%s%s", i ? ", " : "", (const char *)dirs->items[i]);
    }
}

static mh_status refuse(const mh_ptrvec *dirs, const char *path, const char *why, char *error,
                        size_t error_size)
{
    char list[1024];
    dir_list(dirs, list, sizeof list);
    snprintf(error, error_size,
             "path \"%.*s\" %s the allowed directories (%s); start mcphost with --allow-dir DIR "
             "to allow another directory",
             QUOTE(path), why, list);
    return MH_ERR_DENIED;
}

/* Whether real (absolute, symlink-free) is dir or below it. */
static int inside_one(const char *dir, const char *real)
{
    size_t len = strlen(dir);
    if (len == 1 && dir[0] == '/') return real[0] == '/';
    return strncmp(real, dir, len) == 0 && (real[len] == '\0' || real[len] == '/');
}

static int inside_dirs(const mh_ptrvec *dirs, const char *real)
{
    for (size_t i = 0; i < dirs->count; i++)
        if (inside_one(dirs->items[i], real)) return 1;
    return 0;
}

static int trusted(const scope *sc, const char *real)
{
    for (size_t i = 0; sc->files && i < sc->files->count; i++)
        if (strcmp(sc->files->items[i], real) == 0) return 1;
    return 0;
}

static int inside(const scope *sc, const char *real)
{
    return inside_dirs(sc->dirs, real) || trusted(sc, real);
}

static int has_dotdot(const char *path)
{
    for (const char *p = path; *p;) {
        const char *end = strchr(p, '/');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 2 && p[0] == '.' && p[1] == '.') return 1;
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

static int named_by_user(const scope *sc, const char *full);

static mh_status copy_out(const char *path, const char *result, char *out, size_t out_size,
                          char *error, size_t error_size)
{
    if (strlen(result) >= out_size) {
        snprintf(error, error_size, "path \"%.*s\": the resolved path is too long (%zu bytes)",
                 QUOTE(path), strlen(result));
        return MH_ERR_INVALID_ARGUMENT;
    }
    memcpy(out, result, strlen(result) + 1);
    return MH_OK;
}

/* The nearest existing ancestor of full (a directory path), realpath'd,
 * decides whether a missing path is reported as missing or refused. */
static int missing_is_inside(const mh_ptrvec *dirs, const char *full)
{
    char probe[PATH_MAX], real[PATH_MAX];
    snprintf(probe, sizeof probe, "%s", full);
    for (;;) {
        char *slash = strrchr(probe, '/');
        if (!slash) return 0;
        if (slash == probe) {
            probe[1] = '\0';
        } else {
            *slash = '\0';
        }
        if (realpath(probe, real)) return inside_dirs(dirs, real);
        if (errno != ENOENT && errno != ENOTDIR) return 0;
        if (strcmp(probe, "/") == 0) return 0;
    }
}

static mh_status resolve_existing(const scope *sc, const char *path, const char *full,
                                  uint32_t mode, char *out, size_t out_size, char *error,
                                  size_t error_size)
{
    const mh_ptrvec *dirs = sc->dirs;
    char real[PATH_MAX];
    if (!realpath(full, real)) {
        int err = errno;
        struct stat link;
        if (err == ENOENT && lstat(full, &link) == 0 && S_ISLNK(link.st_mode))
            return refuse(dirs, path, "is a symbolic link to a missing file, maybe outside", error,
                          error_size);
        if ((err == ENOENT || err == ENOTDIR) &&
            (missing_is_inside(dirs, full) || named_by_user(sc, full))) {
            snprintf(error, error_size,
                     "%s \"%.*s\" does not exist (No such file or directory; looked for %.*s)",
                     mode == MH_FILES_DIR ? "directory" : "file", QUOTE(path), QUOTE(full));
            return MH_ERR_NOT_FOUND;
        }
        if (err == ENOENT || err == ENOTDIR) return refuse(dirs, path, "is outside", error, error_size);
        snprintf(error, error_size, "path \"%.*s\": %s", QUOTE(path), strerror(err));
        return err == ENAMETOOLONG ? MH_ERR_INVALID_ARGUMENT : MH_ERR_IO;
    }
    if (!inside(sc, real))
        return refuse(dirs, path,
                      inside_dirs(dirs, full) ? "leads (through a symbolic link) outside" : "is outside",
                      error, error_size);
    struct stat st;
    if (stat(real, &st) != 0) {
        snprintf(error, error_size, "path \"%.*s\": %s", QUOTE(path), strerror(errno));
        return MH_ERR_IO;
    }
    if (mode == MH_FILES_DIR && !S_ISDIR(st.st_mode)) {
        snprintf(error, error_size, "path \"%.*s\" is not a directory; give a directory", QUOTE(path));
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (mode == MH_FILES_READ && !S_ISREG(st.st_mode)) {
        snprintf(error, error_size, "path \"%.*s\" is %s, not a regular file; give a file", QUOTE(path),
                 S_ISDIR(st.st_mode) ? "a directory" : "a special file");
        return MH_ERR_INVALID_ARGUMENT;
    }
    return copy_out(path, real, out, out_size, error, error_size);
}

static mh_status resolve_write(const scope *sc, const char *path, const char *full,
                               char *out, size_t out_size, char *error, size_t error_size)
{
    const mh_ptrvec *dirs = sc->dirs;
    const char *slash = strrchr(full, '/');
    const char *base = slash + 1; /* full is absolute */
    if (!*base || strcmp(base, ".") == 0) {
        snprintf(error, error_size, "path \"%.*s\" names a directory; give a file name to write",
                 QUOTE(path));
        return MH_ERR_INVALID_ARGUMENT;
    }
    char parent[PATH_MAX], real_parent[PATH_MAX];
    size_t parent_len = slash == full ? 1 : (size_t)(slash - full);
    memcpy(parent, full, parent_len);
    parent[parent_len] = '\0';
    if (!realpath(parent, real_parent)) {
        int err = errno;
        if ((err == ENOENT || err == ENOTDIR) &&
            (missing_is_inside(dirs, parent) || named_by_user(sc, full))) {
            snprintf(error, error_size,
                     "cannot write \"%.*s\": the directory %.*s does not exist; create it "
                     "first or write into an existing directory",
                     QUOTE(path), QUOTE(parent));
            return MH_ERR_NOT_FOUND;
        }
        if (err == ENOENT || err == ENOTDIR) return refuse(dirs, path, "is outside", error, error_size);
        snprintf(error, error_size, "path \"%.*s\": %s", QUOTE(path), strerror(err));
        return err == ENAMETOOLONG ? MH_ERR_INVALID_ARGUMENT : MH_ERR_IO;
    }
    char candidate[PATH_MAX + NAME_MAX + 2];
    int n = snprintf(candidate, sizeof candidate, "%s%s%s", real_parent,
                     strcmp(real_parent, "/") == 0 ? "" : "/", base);
    if (n < 0 || (size_t)n >= PATH_MAX) {
        snprintf(error, error_size, "path \"%.*s\" is too long", QUOTE(path));
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (!inside_dirs(dirs, real_parent) && !trusted(sc, candidate))
        return refuse(dirs, path, "is outside", error, error_size);
    struct stat st;
    if (stat(real_parent, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(error, error_size, "cannot write \"%.*s\": %.*s is not a directory", QUOTE(path),
                 QUOTE(parent));
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (lstat(candidate, &st) != 0) {
        if (errno == ENOENT) return copy_out(path, candidate, out, out_size, error, error_size);
        snprintf(error, error_size, "path \"%.*s\": %s", QUOTE(path), strerror(errno));
        return MH_ERR_IO;
    }
    if (S_ISLNK(st.st_mode)) {
        char real[PATH_MAX];
        if (!realpath(candidate, real))
            return refuse(dirs, path, "is a symbolic link to a missing file, maybe outside", error,
                          error_size);
        if (!inside(sc, real))
            return refuse(dirs, path, "leads (through a symbolic link) outside", error, error_size);
        if (stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
            snprintf(error, error_size, "path \"%.*s\" is not a regular file; give a file name",
                     QUOTE(path));
            return MH_ERR_INVALID_ARGUMENT;
        }
        return copy_out(path, real, out, out_size, error, error_size);
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(error, error_size, "path \"%.*s\" is %s, not a file; give a file name", QUOTE(path),
                 S_ISDIR(st.st_mode) ? "a directory" : "a special file");
        return MH_ERR_INVALID_ARGUMENT;
    }
    return copy_out(path, candidate, out, out_size, error, error_size);
}

/* Whether full (absolute, maybe missing) is a file the user named on the
 * command line: as given, or as its real directory plus its name. */
static int named_by_user(const scope *sc, const char *full)
{
    if (!sc->files || !sc->files->count) return 0;
    if (trusted(sc, full)) return 1;
    char parent[PATH_MAX], real_parent[PATH_MAX], joined[PATH_MAX + NAME_MAX + 2];
    snprintf(parent, sizeof parent, "%s", full);
    char *slash = strrchr(parent, '/');
    if (!slash || slash == parent || !slash[1]) return 0;
    *slash = '\0';
    if (!realpath(parent, real_parent)) return 0;
    snprintf(joined, sizeof joined, "%s/%s", real_parent, slash + 1);
    return trusted(sc, joined);
}

/* A path with ".." is only taken when it is exactly a file the user named. */
static int dotdot_trusted(const scope *sc, const char *full, uint32_t mode, char *real)
{
    if (!sc->files || !sc->files->count || mode == MH_FILES_DIR) return 0;
    if (realpath(full, real)) return trusted(sc, real);
    if (mode != MH_FILES_WRITE || errno != ENOENT) return 0;
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", full);
    char *slash = strrchr(parent, '/');
    if (!slash || !slash[1] || slash == parent) return 0;
    *slash = '\0';
    char real_parent[PATH_MAX];
    if (!realpath(parent, real_parent)) return 0;
    int n = snprintf(real, PATH_MAX, "%s/%s", real_parent, slash + 1);
    return n > 0 && n < PATH_MAX && trusted(sc, real);
}

mh_status mh_files_resolve_in(const mh_ptrvec *dirs, const char *path, uint32_t mode, char *out,
                              size_t out_size, char *error, size_t error_size)
{
    return mh_files_resolve_with(dirs, NULL, path, mode, out, out_size, error, error_size);
}

mh_status mh_files_resolve_with(const mh_ptrvec *dirs, const mh_ptrvec *files, const char *path,
                                uint32_t mode, char *out, size_t out_size, char *error,
                                size_t error_size)
{
    char dummy[1];
    if (!error || !error_size) {
        error = dummy;
        error_size = sizeof dummy;
    }
    error[0] = '\0';
    if (out && out_size) out[0] = '\0';
    if (!out || !out_size) {
        snprintf(error, error_size, "resolve: no output buffer");
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (mode != MH_FILES_READ && mode != MH_FILES_WRITE && mode != MH_FILES_DIR) {
        snprintf(error, error_size, "resolve: mode %u is not MH_FILES_READ, _WRITE or _DIR",
                 (unsigned)mode);
        return MH_ERR_INVALID_ARGUMENT;
    }
    /* With no list (a host set up without mh_files_setup): the working directory. */
    char cwd[PATH_MAX];
    void *cwd_item[1] = {cwd};
    mh_ptrvec fallback = {cwd_item, 1, 1};
    if (!dirs || dirs->count == 0) {
        if (!getcwd(cwd, sizeof cwd)) {
            snprintf(error, error_size, "no allowed directory (the working directory is unknown)");
            return MH_ERR_DENIED;
        }
        dirs = &fallback;
    }
    if (!path || !*path) {
        snprintf(error, error_size,
                 "the path is empty; give a file name (relative to %.*s) or an absolute path "
                 "inside the allowed directories",
                 QUOTE((const char *)dirs->items[0]));
        return MH_ERR_INVALID_ARGUMENT;
    }
    size_t length = strlen(path);
    if (length >= PATH_MAX) {
        snprintf(error, error_size, "the path is too long (%zu bytes; at most %d)", length,
                 PATH_MAX - 1);
        return MH_ERR_INVALID_ARGUMENT;
    }
    char full[PATH_MAX];
    const char *first = dirs->items[0];
    int n = path[0] == '/' ? snprintf(full, sizeof full, "%s", path)
                           : snprintf(full, sizeof full, "%s%s%s", first,
                                      strcmp(first, "/") == 0 ? "" : "/", path);
    if (n < 0 || (size_t)n >= sizeof full) {
        snprintf(error, error_size, "the path is too long once joined to %.*s", QUOTE(first));
        return MH_ERR_INVALID_ARGUMENT;
    }
    scope sc = {dirs, files};
    if (has_dotdot(path)) {
        char real[PATH_MAX];
        if (dotdot_trusted(&sc, full, mode, real))
            return copy_out(path, real, out, out_size, error, error_size);
        return refuse(dirs, path, "uses \"..\", which is refused as a way outside", error,
                      error_size);
    }
    if (mode == MH_FILES_WRITE)
        return resolve_write(&sc, path, full, out, out_size, error, error_size);
    return resolve_existing(&sc, path, full, mode, out, out_size, error, error_size);
}

static const mh_hostctx *ctx_of(const mh_host *host)
{
    const mh_plugin_record *rec = host ? mh_plugin_from_host(host) : NULL;
    return rec ? rec->hostctx : NULL;
}

static const mh_ptrvec *dirs_of(const mh_host *host)
{
    const mh_hostctx *ctx = ctx_of(host);
    return ctx ? &ctx->allowed_dirs : NULL;
}

static mh_status files_resolve(const mh_host *host, const char *path, uint32_t mode, char *out,
                               size_t out_size, char *error, size_t error_size)
{
    if (!host) {
        if (error && error_size) snprintf(error, error_size, "resolve: no host");
        if (out && out_size) out[0] = '\0';
        return MH_ERR_INVALID_ARGUMENT;
    }
    const mh_hostctx *ctx = ctx_of(host);
    return mh_files_resolve_with(ctx ? &ctx->allowed_dirs : NULL, ctx ? &ctx->allowed_files : NULL,
                                 path, mode, out, out_size, error, error_size);
}

static size_t files_dir_count(const mh_host *host)
{
    const mh_ptrvec *dirs = dirs_of(host);
    return dirs ? dirs->count : 0;
}

static const char *files_dir_at(const mh_host *host, size_t index)
{
    const mh_ptrvec *dirs = dirs_of(host);
    return dirs && index < dirs->count ? dirs->items[index] : NULL;
}

int mh_files_setup(mh_hostctx *ctx, const mh_ptrvec *dirs, char *error, size_t error_size)
{
    size_t count = dirs ? dirs->count : 0;
    for (size_t i = 0; i < (count ? count : 1); i++) {
        const char *dir = count ? dirs->items[i] : ".";
        char real[PATH_MAX];
        struct stat st;
        if (!realpath(dir, real) || stat(real, &st) != 0) {
            snprintf(error, error_size, "%s %s: %s", count ? "--allow-dir" : "working directory",
                     dir, strerror(errno));
            mh_files_free(ctx);
            return -1;
        }
        if (!S_ISDIR(st.st_mode)) {
            snprintf(error, error_size, "--allow-dir %s: not a directory", dir);
            mh_files_free(ctx);
            return -1;
        }
        int duplicate = 0;
        for (size_t k = 0; k < ctx->allowed_dirs.count; k++)
            if (strcmp(ctx->allowed_dirs.items[k], real) == 0) duplicate = 1;
        if (duplicate) continue;
        char *copy = strdup(real);
        if (!copy || mh_ptrvec_push(&ctx->allowed_dirs, copy) != 0) {
            free(copy);
            snprintf(error, error_size, "out of memory");
            mh_files_free(ctx);
            return -1;
        }
    }
    return 0;
}

int mh_files_trust(mh_hostctx *ctx, const char *value)
{
    if (!value || !*value || strlen(value) >= PATH_MAX) return 0;
    char real[PATH_MAX];
    struct stat st;
    if (realpath(value, real)) {
        /* A directory (--rom-dir DIR) is allowed as that directory only:
         * resolve() matches it exactly, never the files in it. */
        if (stat(real, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) return 0;
    } else {
        /* A file to be made (an output): named with a directory part (a
         * bare word is more likely a setting such as "pal"), which must
         * exist. */
        if (errno != ENOENT || !strchr(value, '/')) return 0;
        char parent[PATH_MAX];
        snprintf(parent, sizeof parent, "%s", value);
        char *slash = strrchr(parent, '/');
        const char *base = slash ? slash + 1 : parent;
        if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) return 0;
        const char *dir = ".";
        if (slash == parent) {
            dir = "/";
        } else if (slash) {
            *slash = '\0';
            dir = parent;
        }
        char real_parent[PATH_MAX];
        int n;
        if (realpath(dir, real_parent)) {
            n = snprintf(real, sizeof real, "%s%s%s", real_parent,
                         strcmp(real_parent, "/") == 0 ? "" : "/", base);
        } else if (value[0] == '/') {
            /* Its directory is missing too: kept as given, so the error
             * says that rather than "outside". */
            n = snprintf(real, sizeof real, "%s", value);
        } else {
            return 0;
        }
        if (n < 0 || (size_t)n >= sizeof real) return 0;
    }
    for (size_t i = 0; i < ctx->allowed_files.count; i++)
        if (strcmp(ctx->allowed_files.items[i], real) == 0) return 0;
    char *copy = strdup(real);
    if (!copy || mh_ptrvec_push(&ctx->allowed_files, copy) != 0) {
        free(copy);
        return -1;
    }
    return 0;
}

void mh_files_free(mh_hostctx *ctx)
{
    for (size_t i = 0; i < ctx->allowed_dirs.count; i++) free(ctx->allowed_dirs.items[i]);
    mh_ptrvec_free(&ctx->allowed_dirs);
    for (size_t i = 0; i < ctx->allowed_files.count; i++) free(ctx->allowed_files.items[i]);
    mh_ptrvec_free(&ctx->allowed_files);
}

const mh_files_service mh_files_service_impl = {sizeof(mh_files_service), files_resolve,
                                                files_dir_count, files_dir_at};
