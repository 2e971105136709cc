/* kit_config.c - the parts of a machine's mh.config/1 that every machine
 * over a mh_config_item option table repeats: item lookup, get()'s checks
 * and answer, and set() for runtime settings that are media
 * (mcphost/kit_options.h). */
#include <stdio.h>
#include <string.h>

#include "mcphost/json.h"
#include "mcphost/kit_options.h"

const mh_config_item *mh_kit_config_at(const mh_config_item *items, size_t count, size_t index)
{
    return index < count ? &items[index] : NULL;
}

const mh_config_item *mh_kit_config_find(const mh_config_item *items, size_t count,
                                         const char *name)
{
    for (size_t i = 0; name && i < count; i++)
        if (strcmp(items[i].name, name) == 0) return &items[i];
    return NULL;
}

mh_status mh_kit_config_get_check(const mh_config_item *items, size_t count, const char *name,
                                  const char *out, size_t out_size)
{
    if (!mh_kit_config_find(items, count, name)) return MH_ERR_NOT_FOUND;
    if (!out || !out_size) return MH_ERR_INVALID_ARGUMENT;
    return MH_OK;
}

mh_status mh_kit_config_copy(const char *value, char *out, size_t out_size)
{
    if (strlen(value) >= out_size) return MH_ERR_INVALID_ARGUMENT;
    memcpy(out, value, strlen(value) + 1);
    return MH_OK;
}

/* The media kind each runtime setting stands for; others: a cartridge. */
static const struct {
    const char *name;
    const char *kind;
} media_kinds[] = {{"drive8", "disk"}};

static const char *media_kind(const char *name)
{
    for (size_t i = 0; i < sizeof media_kinds / sizeof media_kinds[0]; i++)
        if (strcmp(media_kinds[i].name, name) == 0) return media_kinds[i].kind;
    return "cartridge";
}

mh_status mh_kit_config_set_media(const mh_config_item *items, size_t count,
                                  const mh_media_iface *media, void *context, const char *name,
                                  const char *value, char *error, size_t error_size)
{
    if (error_size) error[0] = '\0';
    const mh_config_item *item = mh_kit_config_find(items, count, name);
    if (!item) {
        snprintf(error, error_size, "unknown setting \"%.*s\"",
                 mh_utf8_prefix(name ? name : "(null)", 40), name ? name : "(null)");
        return MH_ERR_NOT_FOUND;
    }
    if (!item->runtime) {
        snprintf(error, error_size, "%s can only be chosen when the session is created",
                 item->name);
        return MH_ERR_UNSUPPORTED;
    }
    if (!value) value = "";
    const char *kind = media_kind(name);
    if (!value[0]) return media->detach(context, kind, error, error_size);
    return media->attach(context, kind, value, 0, error, error_size);
}
