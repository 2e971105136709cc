/* mcphost/plugin.h - the one symbol every mcphost plugin exports.
 *
 * Offers: mh_plugin_entry (the exported descriptor), mh_host (what the host
 * hands a plugin), the ABI version macros and MH_PLUGIN_DEFINE().
 *
 * A plugin .so exports exactly one symbol, `mh_entry`, a const
 * mh_plugin_entry. The host dlopen()s the file, checks abi_major and
 * struct_size, then calls init() on the main thread. If init() fails, the host
 * removes everything the plugin registered and dlclose()s it.
 *
 * Ownership: all strings in the entry are static data of the plugin and must
 * live as long as the .so is loaded. The mh_host pointer passed to init() is
 * owned by the host and stays valid until deinit() has returned; it
 * identifies the plugin to the host, so pass it back to every service call.
 *
 * Compatibility: the major version never changes for an existing call; new
 * fields are only appended to structs, and every struct starts with
 * struct_size so either side can tell which fields the other knows.
 */
#ifndef MCPHOST_PLUGIN_H
#define MCPHOST_PLUGIN_H

#include <stdint.h>
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_ABI_MAJOR 1
#define MH_ABI_MINOR 6

/* The name of the single exported symbol. */
#define MH_ENTRY_SYMBOL "mh_entry"

typedef enum mh_plugin_kind {
    MH_PLUGIN_MACHINE = 1,   /* registers machine types */
    MH_PLUGIN_TOOLSET = 2,   /* registers MCP tools, resources, prompts */
    MH_PLUGIN_TRANSPORT = 3, /* carries JSON-RPC (stdio, http) */
    MH_PLUGIN_FRONTEND = 4   /* shows a machine to a person */
} mh_plugin_kind;

typedef struct mh_host mh_host;

struct mh_host {
    uint32_t struct_size;
    uint32_t abi_major;
    uint32_t abi_minor;
    const char *host_version; /* "0.1.0"; static */

    /* Looks up a host service by versioned id ("mh.registry/1", "mh.log/1",
     * ...). Returns the service's vtable, or NULL when this host has no such
     * service. The vtable lives as long as the host. [thread-safe] */
    const void *(*get_service)(const mh_host *host, const char *service_id);

    void *host_private; /* the host's; plugins never touch it */
};

typedef struct mh_plugin_entry {
    uint32_t struct_size; /* sizeof(mh_plugin_entry) as the plugin saw it */
    uint32_t abi_major;   /* MH_ABI_MAJOR the plugin was built against */
    uint32_t abi_minor;   /* MH_ABI_MINOR the plugin was built against */
    const char *id;          /* reverse-DNS, unique: "org.mcphost.tools-vic2" */
    const char *name;        /* short human name: "tools-vic2" */
    const char *version;     /* the plugin's own version: "1.0.0" */
    const char *description; /* one line */
    uint32_t kind;           /* mh_plugin_kind */

    /* Registers what the plugin offers through the host's services and stores
     * the plugin's private state in *plugin_data. Return MH_OK or a failure;
     * on failure the host undoes every registration made by this plugin.
     * [main-thread] */
    mh_status (*init)(const mh_host *host, void **plugin_data);

    /* Releases plugin_data. Called once, after the host has stopped using
     * everything the plugin registered. May be NULL. [main-thread] */
    void (*deinit)(void *plugin_data);
} mh_plugin_entry;

#if defined(__GNUC__) || defined(__clang__)
#define MH_EXPORT __attribute__((visibility("default")))
#else
#define MH_EXPORT
#endif

/* Defines the exported entry. Use once per plugin:
 *   MH_PLUGIN_DEFINE("org.example.hello", "hello", "1.0.0", "Says hello",
 *                    MH_PLUGIN_TOOLSET, hello_init, hello_deinit)
 */
#ifdef __cplusplus
#define MH_PLUGIN_DEFINE(id_, name_, version_, description_, kind_, init_, deinit_) \
    extern "C" MH_EXPORT const mh_plugin_entry mh_entry;                          \
    extern "C" MH_EXPORT const mh_plugin_entry mh_entry = {                       \
        sizeof(mh_plugin_entry), MH_ABI_MAJOR, MH_ABI_MINOR, id_, name_, version_, \
        description_, kind_, init_, deinit_}
#else
#define MH_PLUGIN_DEFINE(id_, name_, version_, description_, kind_, init_, deinit_) \
    MH_EXPORT extern const mh_plugin_entry mh_entry;                              \
    MH_EXPORT const mh_plugin_entry mh_entry = {                                  \
        sizeof(mh_plugin_entry), MH_ABI_MAJOR, MH_ABI_MINOR, id_, name_, version_, \
        description_, kind_, init_, deinit_}
#endif

#ifdef __cplusplus
}
#endif
#endif
