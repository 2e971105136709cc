/* files.c - "mh.files/1": confines the paths clients name to the allowed
 * directories (placeholder: refuses everything until --allow-dir exists). */
#include <stdio.h>

#include "files.h"

static mh_status files_resolve(const mh_host *host, const char *path, uint32_t mode, char *out,
                               size_t out_size, char *error, size_t error_size)
{
    (void)host;
    (void)mode;
    if (out_size) out[0] = '\0';
    snprintf(error, error_size, "path \"%s\": file access is not available yet", path ? path : "");
    return MH_ERR_UNSUPPORTED;
}

static size_t files_dir_count(const mh_host *host)
{
    (void)host;
    return 0;
}

static const char *files_dir_at(const mh_host *host, size_t index)
{
    (void)host;
    (void)index;
    return NULL;
}

const mh_files_service mh_files_service_impl = {sizeof(mh_files_service), files_resolve,
                                                files_dir_count, files_dir_at};
