/* tools_debug_plugin.c - the tools-debug plugin entry: looks up the host
 * services and registers every group of tools. */
#include <stddef.h>
#include <stdlib.h>

#include "td_source.h"
#include "tools_debug.h"

/* Whether the host's mh.debug/1 takes stop annotators (appended to it). */
static int has_annotators(const mh_debug_service *debug)
{
    return debug && debug->struct_size >= offsetof(mh_debug_service, remove_stop_annotator) +
                                               sizeof debug->remove_stop_annotator;
}

static const td_register_fn groups[] = {
    td_register_execution, td_register_breakpoints, td_register_registers,
    td_register_memory,    td_register_code,    td_register_history,
    td_register_trace,
    td_register_profile,   td_register_cfg,     td_register_usage,
    td_register_travel,
};

static mh_status tools_debug_init(const mh_host *host, void **data)
{
    td_plugin *plugin = calloc(1, sizeof *plugin);
    if (!plugin) return MH_ERR_NO_MEMORY;
    plugin->host = host;
    plugin->registry = host->get_service(host, MH_REGISTRY_SERVICE_ID);
    plugin->call = host->get_service(host, MH_CALL_SERVICE_ID);
    plugin->sessions = host->get_service(host, MH_SESSION_SERVICE_ID);
    plugin->debug = host->get_service(host, MH_DEBUG_SERVICE_ID);
    if (!plugin->registry || !plugin->call || !plugin->sessions) {
        free(plugin);
        return MH_ERR_UNSUPPORTED;
    }
    if (pthread_mutex_init(&plugin->source_lock, NULL) != 0) {
        free(plugin);
        return MH_ERR_NO_MEMORY;
    }
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        mh_status status = groups[i](plugin);
        if (status != MH_OK) {
            td_store_free(plugin->store);
            pthread_mutex_destroy(&plugin->source_lock);
            free(plugin); /* the host removes what was registered */
            return status;
        }
    }
    /* Stop events name the label and source line as the tools' answers do
     * (without it they carry the engine's record alone). */
    if (has_annotators(plugin->debug))
        plugin->annotator = plugin->debug->add_stop_annotator(host, td_where_stop_members, plugin);
    *data = plugin;
    return MH_OK;
}

static void tools_debug_deinit(void *data)
{
    td_plugin *plugin = data;
    if (plugin->annotator) plugin->debug->remove_stop_annotator(plugin->host, plugin->annotator);
    td_store_free(plugin->store);
    pthread_mutex_destroy(&plugin->source_lock);
    free(plugin);
}

MH_PLUGIN_DEFINE("org.mcphost.tools-debug", "tools-debug", "0.1.0",
                 "Debugging tools: execution control, breakpoints, registers, memory, code",
                 MH_PLUGIN_TOOLSET, tools_debug_init, tools_debug_deinit);
