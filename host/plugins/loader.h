/* host/plugins/loader.h - loads plugin .so files: dlopen(RTLD_NOW|RTLD_LOCAL),
 * checks the entry's ABI major and struct size, calls init(), and on any
 * failure removes everything the plugin registered and dlclose()s it, so a
 * bad plugin never takes the host down.
 * Thread: [main-thread]. */
#ifndef MH_HOST_LOADER_H
#define MH_HOST_LOADER_H

#include <stddef.h>
#include "mcphost/plugin.h"

struct mh_hostctx;

/* One loaded (or built-in) plugin. `host` is what the plugin sees; its
 * host_private points back at this record. */
typedef struct mh_plugin_record {
    mh_host host;
    struct mh_hostctx *hostctx;
    char *path;                   /* NULL for plugins built into the host */
    void *handle;                 /* dlopen handle, NULL when built in */
    const mh_plugin_entry *entry;
    void *plugin_data;
} mh_plugin_record;

/* Loads one file. On failure writes why (naming the file) into error and
 * returns a status; nothing of the plugin stays registered. */
mh_status mh_loader_load_file(struct mh_hostctx *ctx, const char *path, char *error,
                              size_t error_size);
/* Adds a plugin compiled into the host (entry is static data). */
mh_status mh_loader_add_builtin(struct mh_hostctx *ctx, const mh_plugin_entry *entry,
                                char *error, size_t error_size);
/* Loads every *.so in a directory, in name order; failures are logged and
 * skipped. Returns the number loaded. A missing directory is not an error. */
size_t mh_loader_load_dir(struct mh_hostctx *ctx, const char *dir);
/* Deinitializes and unloads every plugin, newest first. */
void mh_loader_unload_all(struct mh_hostctx *ctx);

const char *mh_plugin_kind_name(uint32_t kind);
/* The plugin record behind an mh_host handed to a plugin. */
mh_plugin_record *mh_plugin_from_host(const mh_host *host);

#endif
