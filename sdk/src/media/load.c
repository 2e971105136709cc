/* load.c - format detection and the one function that reads a file. */
#include "media_internal.h"
#include "mcphost/media_crt.h"
#include "mcphost/media_d64.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool has_extension(const char *name, const char *ext)
{
    size_t n = strlen(name), e = strlen(ext);
    if (n <= e + 1 || name[n - e - 1] != '.') return false; /* "x.prg", not ".prg" */
    for (size_t i = 0; i < e; i++) {
        char c = name[n - e + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != ext[i]) return false;
    }
    return true;
}

static bool t64_signature(const uint8_t *bytes, size_t size)
{
    if (size < 32 || memcmp(bytes, "C64", 3) != 0) return false;
    for (size_t i = 3; i + 4 <= 32; i++) {
        char w[4];
        for (size_t k = 0; k < 4; k++) {
            char c = (char)bytes[i + k];
            w[k] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
        }
        if (memcmp(w, "tape", 4) == 0) return true;
    }
    return false;
}

mh_media_kind mh_media_detect(const char *name, const uint8_t *bytes, size_t size)
{
    if (bytes) {
        if (size >= 16 && memcmp(bytes, "C64 CARTRIDGE   ", 16) == 0) return MH_MEDIA_CRT;
        if (t64_signature(bytes, size)) return MH_MEDIA_T64;
        if (size == MH_D64_SIZE_35 || size == MH_D64_SIZE_35_ERRORS || size == MH_D64_SIZE_40 ||
            size == MH_D64_SIZE_40_ERRORS)
            return MH_MEDIA_D64;
    }
    if (name) {
        if (has_extension(name, "prg")) return MH_MEDIA_PRG;
        if (has_extension(name, "d64")) return MH_MEDIA_D64;
        if (has_extension(name, "t64")) return MH_MEDIA_T64;
        if (has_extension(name, "crt")) return MH_MEDIA_CRT;
    }
    return MH_MEDIA_UNKNOWN;
}

const char *mh_media_kind_name(mh_media_kind kind)
{
    switch (kind) {
    case MH_MEDIA_PRG: return "PRG";
    case MH_MEDIA_D64: return "D64";
    case MH_MEDIA_T64: return "T64";
    case MH_MEDIA_CRT: return "CRT";
    case MH_MEDIA_UNKNOWN: break;
    }
    return "unknown";
}

/* strerror() is not thread-safe; the XSI strerror_r() is. */
static const char *os_error(int code, char *buf, size_t size)
{
    if (strerror_r(code, buf, size) != 0) snprintf(buf, size, "error %d", code);
    return buf;
}

mh_status mh_media_load_file(const char *path, size_t max_size, uint8_t **bytes, size_t *size,
                             mh_media_error *err)
{
    char why[128];
    if (!path || !bytes || !size)
        return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT, "load: no path or result pointer given");
    *bytes = NULL;
    *size = 0;
    if (max_size == 0) max_size = MH_MEDIA_DEFAULT_MAX_FILE_SIZE;
    /* Opened without blocking and checked on the descriptor: a FIFO or a
     * device swapped in after the caller checked the path can neither
     * block the thread nor feed it endless bytes. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return mh_media_i_fail(err, MH_ERR_IO, "cannot open %s: %s", path,
                               os_error(errno, why, sizeof why));
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        close(fd);
        return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT, "%s is not a regular file", path);
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return mh_media_i_fail(err, MH_ERR_NO_MEMORY, "out of memory reading %s", path);
    }
    size_t cap = 65536, len = 0;
    uint8_t *buf = malloc(cap);
    mh_status st = MH_OK;
    while (buf) {
        if (len == cap) {
            if (cap > max_size) break; /* len > max_size: checked below */
            size_t grow = cap * 2;
            uint8_t *bigger = realloc(buf, grow);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap = grow;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f))
                st = mh_media_i_fail(err, MH_ERR_IO, "cannot read %s: %s", path,
                                     os_error(errno, why, sizeof why));
            break;
        }
        if (len > max_size) break;
    }
    fclose(f);
    if (!buf) return mh_media_i_fail(err, MH_ERR_NO_MEMORY, "out of memory reading %s", path);
    if (st == MH_OK && len > max_size)
        st = mh_media_i_fail(err, MH_ERR_LIMIT, "%s is larger than the %zu-byte limit", path,
                             max_size);
    if (st != MH_OK) {
        free(buf);
        return st;
    }
    *bytes = buf;
    *size = len;
    mh_media_i_ok(err);
    return MH_OK;
}
