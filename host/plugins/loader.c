#include "loader.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostctx.h"
#include "log.h"

/* The entry fields every plugin must provide, whatever its ABI minor. */
#define MH_ENTRY_MIN_SIZE (offsetof(mh_plugin_entry, deinit) + sizeof(void (*)(void *)))

static const char *const kind_names[] = {"unknown", "machine", "toolset", "transport",
                                         "frontend"};

const char *mh_plugin_kind_name(uint32_t kind)
{
    return kind < sizeof kind_names / sizeof kind_names[0] ? kind_names[kind] : "unknown";
}

mh_plugin_record *mh_plugin_from_host(const mh_host *host)
{
    return host ? (mh_plugin_record *)host->host_private : NULL;
}

static mh_plugin_record *find_by_id(const mh_hostctx *ctx, const char *id)
{
    for (size_t i = 0; i < ctx->plugins.count; i++) {
        mh_plugin_record *p = ctx->plugins.items[i];
        if (strcmp(p->entry->id, id) == 0) return p;
    }
    return NULL;
}

/* Checks an entry before anything of it is called. */
static mh_status check_entry(const mh_hostctx *ctx, const mh_plugin_entry *entry,
                             const char *where, char *error, size_t error_size)
{
    if (entry->struct_size < MH_ENTRY_MIN_SIZE) {
        snprintf(error, error_size,
                 "%s: plugin entry is too small (struct_size %u, need at least %zu): rebuild "
                 "it against the current SDK",
                 where, entry->struct_size, (size_t)MH_ENTRY_MIN_SIZE);
        return MH_ERR_VERSION;
    }
    if (entry->abi_major != MH_ABI_MAJOR) {
        snprintf(error, error_size,
                 "%s: plugin was built for ABI major version %u, this host speaks %u: rebuild "
                 "it against this host's SDK",
                 where, entry->abi_major, MH_ABI_MAJOR);
        return MH_ERR_VERSION;
    }
    if (!entry->id || !*entry->id || !entry->name || !entry->version || !entry->init) {
        snprintf(error, error_size, "%s: plugin entry lacks an id, name, version or init", where);
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (entry->kind < MH_PLUGIN_MACHINE || entry->kind > MH_PLUGIN_FRONTEND) {
        snprintf(error, error_size, "%s: plugin %s has unknown kind %u", where, entry->id,
                 entry->kind);
        return MH_ERR_INVALID_ARGUMENT;
    }
    mh_plugin_record *twin = find_by_id(ctx, entry->id);
    if (twin) {
        snprintf(error, error_size, "%s: a plugin with id %s is already loaded from %s", where,
                 entry->id, twin->path ? twin->path : "the host itself");
        return MH_ERR_EXISTS;
    }
    return MH_OK;
}

/* Calls init; on failure undoes every registration of the plugin. */
static mh_status init_plugin(mh_hostctx *ctx, mh_plugin_record *rec, const char *where,
                             char *error, size_t error_size)
{
    rec->host.struct_size = sizeof rec->host;
    rec->host.abi_major = MH_ABI_MAJOR;
    rec->host.abi_minor = MH_ABI_MINOR;
    rec->host.host_version = MH_HOST_VERSION;
    rec->host.get_service = mh_host_get_service;
    rec->host.host_private = rec;
    rec->hostctx = ctx;
    if (mh_ptrvec_push(&ctx->plugins, rec) != 0) {
        snprintf(error, error_size, "%s: out of memory", where);
        return MH_ERR_NO_MEMORY;
    }
    mh_status status = rec->entry->init(&rec->host, &rec->plugin_data);
    if (status == MH_OK) return MH_OK;

    size_t removed = mh_registry_remove_owner(&ctx->registry, rec);
    mh_ptrvec_remove(&ctx->plugins, rec);
    snprintf(error, error_size,
             "%s: plugin %s failed to initialize (%s); removed the %zu item(s) it had "
             "registered",
             where, rec->entry->id, mh_status_name(status), removed);
    return status;
}

mh_status mh_loader_load_file(mh_hostctx *ctx, const char *path, char *error,
                              size_t error_size)
{
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(error, error_size, "%s: cannot load: %s", path, dlerror());
        return MH_ERR_IO;
    }
    const mh_plugin_entry *entry = dlsym(handle, MH_ENTRY_SYMBOL);
    if (!entry) {
        snprintf(error, error_size, "%s: not an mcphost plugin (no '%s' symbol)", path,
                 MH_ENTRY_SYMBOL);
        dlclose(handle);
        return MH_ERR_INVALID_ARGUMENT;
    }
    mh_status status = check_entry(ctx, entry, path, error, error_size);
    if (status != MH_OK) {
        dlclose(handle);
        return status;
    }
    mh_plugin_record *rec = calloc(1, sizeof *rec);
    if (!rec || !(rec->path = strdup(path))) {
        free(rec);
        dlclose(handle);
        snprintf(error, error_size, "%s: out of memory", path);
        return MH_ERR_NO_MEMORY;
    }
    rec->handle = handle;
    rec->entry = entry;
    status = init_plugin(ctx, rec, path, error, error_size);
    if (status != MH_OK) {
        dlclose(handle);
        free(rec->path);
        free(rec);
        return status;
    }
    mh_log(MH_LOG_DEBUG, NULL, "loaded %s %s (%s) from %s", entry->name, entry->version,
           entry->id, path);
    return MH_OK;
}

mh_status mh_loader_add_builtin(mh_hostctx *ctx, const mh_plugin_entry *entry, char *error,
                                size_t error_size)
{
    mh_status status = check_entry(ctx, entry, "built-in", error, error_size);
    if (status != MH_OK) return status;
    mh_plugin_record *rec = calloc(1, sizeof *rec);
    if (!rec) return MH_ERR_NO_MEMORY;
    rec->entry = entry;
    status = init_plugin(ctx, rec, "built-in", error, error_size);
    if (status != MH_OK) free(rec);
    return status;
}

static int is_plugin_file(const char *name)
{
    size_t n = strlen(name);
    return n > 3 && strcmp(name + n - 3, ".so") == 0 && name[0] != '.';
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t mh_loader_load_dir(mh_hostctx *ctx, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    mh_ptrvec names = {0};
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        if (!is_plugin_file(ent->d_name)) continue;
        char *name = strdup(ent->d_name);
        if (!name || mh_ptrvec_push(&names, name) != 0) free(name);
    }
    closedir(d);
    if (names.count) qsort(names.items, names.count, sizeof *names.items, compare_names);

    size_t loaded = 0;
    for (size_t i = 0; i < names.count; i++) {
        char path[4096], error[1024];
        snprintf(path, sizeof path, "%s/%s", dir, (char *)names.items[i]);
        if (mh_loader_load_file(ctx, path, error, sizeof error) == MH_OK)
            loaded++;
        else
            mh_log(MH_LOG_ERROR, NULL, "%s", error);
        free(names.items[i]);
    }
    mh_ptrvec_free(&names);
    return loaded;
}

void mh_loader_unload_all(mh_hostctx *ctx)
{
    for (size_t i = ctx->plugins.count; i-- > 0;) {
        mh_plugin_record *rec = ctx->plugins.items[i];
        mh_registry_remove_owner(&ctx->registry, rec);
        if (rec->entry->deinit) rec->entry->deinit(rec->plugin_data);
        if (rec->handle) dlclose(rec->handle);
        free(rec->path);
        free(rec);
    }
    mh_ptrvec_free(&ctx->plugins);
}
