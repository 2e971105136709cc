/* kernal_drive.c - opening a D64 image for the virtual drive
 * (mcphost/kernal.h: mh_kernal_drive_open). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/kernal.h"
#include "mcphost/media.h"
#include "mcphost/media_d64.h"

mh_status mh_kernal_drive_open(const char *path, int name_sizes, struct mh_d64 **disk,
                               char **disk_path, char *error, size_t error_size)
{
    *disk = NULL;
    *disk_path = NULL;
    mh_media_error err;
    uint8_t *bytes = NULL;
    size_t size = 0;
    mh_status status = mh_media_load_file(path, 0, &bytes, &size, &err);
    if (status != MH_OK) {
        snprintf(error, error_size, "drive8 \"%s\": %s", path, err.message);
        return status;
    }
    if (mh_media_detect(path, bytes, size) != MH_MEDIA_D64) {
        free(bytes);
        snprintf(error, error_size, "drive8 \"%s\": not a D64 disk image (%zu bytes%s)", path,
                 size, name_sizes ? "; expected 174848, 175531, 196608 or 197376" : "");
        return MH_ERR_INVALID_ARGUMENT;
    }
    mh_d64 *d64 = mh_d64_open(bytes, size, 0, &err);
    free(bytes);
    if (!d64) {
        snprintf(error, error_size, "drive8 \"%s\": %s", path, err.message);
        return err.status != MH_OK ? err.status : MH_ERR_INVALID_ARGUMENT;
    }
    *disk = d64;
    *disk_path = malloc(strlen(path) + 1);
    if (*disk_path) strcpy(*disk_path, path);
    return MH_OK;
}
