/* tools_debug_plugin.c - the tools-debug plugin entry: looks up the host
 * services and registers every group of tools. */
#include <stdlib.h>

#include "tools_debug.h"

static const td_register_fn groups[] = {
    td_register_execution, td_register_breakpoints, td_register_registers,
    td_register_memory,    td_register_code,    td_register_history,
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
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        mh_status status = groups[i](plugin);
        if (status != MH_OK) {
            td_store_free(plugin->store);
            free(plugin); /* the host removes what was registered */
            return status;
        }
    }
    *data = plugin;
    return MH_OK;
}

static void tools_debug_deinit(void *data)
{
    td_store_free(((td_plugin *)data)->store);
    free(data);
}

MH_PLUGIN_DEFINE("org.mcphost.tools-debug", "tools-debug", "0.1.0",
                 "Debugging tools: execution control, breakpoints, registers, memory, code",
                 MH_PLUGIN_TOOLSET, tools_debug_init, tools_debug_deinit);
