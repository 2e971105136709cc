/* kit_rom.c - finding and reading ROM files (mcphost/kit_rom.h). */
#include "mcphost/kit_rom.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

mh_status mh_kit_rom_dir_check(const char *dir, const char *hint, char *error, size_t error_size)
{
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return MH_OK;
    snprintf(error, error_size, "rom_dir %s: %s%s", dir,
             stat(dir, &st) != 0 ? strerror(errno) : "not a directory", hint ? hint : "");
    return MH_ERR_NOT_FOUND;
}

int mh_kit_rom_find(const char *dir, const char *const *names, size_t count, char *path,
                    size_t path_size)
{
    for (size_t i = 0; i < count && names[i]; i++) {
        snprintf(path, path_size, "%s/%s", dir, names[i]);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) return 1;
    }
    return 0;
}

mh_status mh_kit_rom_read(const char *label, const char *path, uint8_t *out, size_t size,
                          const char *size_note, char *error, size_t error_size)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(error, error_size, "%s: %s: %s", label, path,
                 stat(path, &st) != 0 ? strerror(errno) : "not a regular file");
        return MH_ERR_NOT_FOUND;
    }
    if ((uint64_t)st.st_size != size) {
        snprintf(error, error_size, "%s %s is %lld bytes, expected %zu%s", label, path,
                 (long long)st.st_size, size, size_note ? size_note : "");
        return MH_ERR_INVALID_ARGUMENT;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(error, error_size, "%s %s: cannot open it: %s", label, path, strerror(errno));
        return MH_ERR_IO;
    }
    size_t n = fread(out, 1, size, f);
    fclose(f);
    if (n != size) {
        snprintf(error, error_size, "%s %s: read %zu of %zu bytes", label, path, n, size);
        return MH_ERR_IO;
    }
    return MH_OK;
}
