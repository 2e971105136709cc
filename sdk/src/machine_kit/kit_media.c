/* kit_media.c - media kinds looked up and refused the shared way
 * (mcphost/kit_media.h). */
#include "mcphost/kit_media.h"

#include <stdio.h>
#include <string.h>

#include "mcphost/json.h"

int mh_kit_media_kind(const mh_kit_media_kinds *kinds, const char *kind)
{
    for (size_t i = 0; kind && i < kinds->count; i++)
        if (strcmp(kind, kinds->names[i]) == 0) return (int)i;
    return -1;
}

mh_status mh_kit_media_bad_kind(const mh_kit_media_kinds *kinds, const char *kind, char *error,
                                size_t error_size)
{
    char list[160] = "";
    for (size_t i = 0; i < kinds->count; i++) {
        size_t used = strlen(list);
        const char *sep = i == 0 ? "" : i + 1 == kinds->count ? " or " : ", ";
        snprintf(list + used, sizeof list - used, "%s\"%s\"", sep, kinds->names[i]);
    }
    snprintf(error, error_size, "media kind \"%.*s\": the %s takes %s",
             mh_utf8_prefix(kind ? kind : "(null)", 40), kind ? kind : "(null)", kinds->machine,
             list);
    return MH_ERR_INVALID_ARGUMENT;
}

mh_status mh_kit_media_attach_check(const mh_kit_media_kinds *kinds, const char *kind,
                                    const char *path, int *index, char *error,
                                    size_t error_size)
{
    if (error_size) error[0] = '\0';
    *index = mh_kit_media_kind(kinds, kind);
    if (*index < 0) return mh_kit_media_bad_kind(kinds, kind, error, error_size);
    if (!path || !path[0]) {
        snprintf(error, error_size, "%s: no path given", kind);
        return MH_ERR_INVALID_ARGUMENT;
    }
    return MH_OK;
}
